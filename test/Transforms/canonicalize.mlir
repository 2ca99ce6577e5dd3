// RUN: quant-opt %s --qops-canonicalize --split-input-file | FileCheck %s
// Upstream's canonicalizer with region simplification off gives the same IR
// (the patterns and folds are its; qops-canonicalize only builds them once
// per pipeline):
// RUN: quant-opt %s --canonicalize="top-down=false region-simplify=disabled" --split-input-file | FileCheck %s
// With region simplification, the dead block goes (what this pass keeps):
// RUN: quant-opt %s --canonicalize --split-input-file | FileCheck %s --check-prefix=UPSTREAM

// Folds: x + 0 is x, constants are computed.
// CHECK-LABEL: func.func @folds
// CHECK-SAME: (%[[X:.*]]: i32)
// CHECK: %[[C:.*]] = arith.constant 7 : i32
// CHECK: %[[S:.*]] = arith.muli %[[X]], %[[C]] : i32
// CHECK: return %[[S]] : i32
func.func @folds(%x: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %three = arith.constant 3 : i32
  %four = arith.constant 4 : i32
  %seven = arith.addi %three, %four : i32
  %y = arith.addi %x, %zero : i32
  %z = arith.muli %y, %seven : i32
  return %z : i32
}

// -----

// An op's canonicalization pattern (not a fold): a dim of a tensor.empty
// is its size operand.
// CHECK-LABEL: func.func @op_pattern
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK-NOT: tensor.dim
// CHECK: return %[[N]] : index
func.func @op_pattern(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %t = tensor.empty(%n) : tensor<?xf32>
  %d = tensor.dim %t, %c0 : tensor<?xf32>
  return %d : index
}

// -----

// No region simplification: the block argument only its own cycle uses
// (the region's dead-code walk, which this pass leaves out) stays.
// CHECK-LABEL: func.func @dead_cycle_kept
// CHECK: ^bb1(%{{.*}}: i32, %[[DEAD:.*]]: i32):
// CHECK: arith.muli %[[DEAD]]
// UPSTREAM-LABEL: func.func @dead_cycle_kept
// UPSTREAM: ^bb1(%{{.*}}: i32):
// UPSTREAM-NOT: arith.muli
func.func @dead_cycle_kept(%n: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  cf.br ^bb1(%zero, %zero : i32, i32)
^bb1(%i: i32, %dead: i32):
  %c = arith.cmpi slt, %i, %n : i32
  cf.cond_br %c, ^bb2, ^bb3
^bb2:
  %i2 = arith.addi %i, %one : i32
  %dead2 = arith.muli %dead, %n : i32
  cf.br ^bb1(%i2, %dead2 : i32, i32)
^bb3:
  return %i : i32
}
