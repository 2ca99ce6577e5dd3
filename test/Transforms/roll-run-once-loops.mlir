// RUN: quant-opt %s --qops-roll-run-once-loops --split-input-file | FileCheck %s

// The loops inside the hoisted compute (qops.hoisted_compute, from
// qops-hoist-constant-expressions), nested ones too, are marked not to be
// unrolled; the function's own loops are not.
// CHECK: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[ROLLED:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: func.func @transpose_once
// CHECK: scf.if
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.store
// CHECK-NEXT: } {loop_annotation = #[[ROLLED]]}
// CHECK-NEXT: } {loop_annotation = #[[ROLLED]]}
// CHECK-NEXT: } {qops.hoisted_compute}
// CHECK: scf.for
// CHECK: memref.store
// CHECK-NEXT: }{{$}}
// CHECK-NEXT: return
func.func @transpose_once(%first: i1, %w: memref<4x9xi8>, %packed: memref<9x4xi8>, %y: memref<8xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  scf.if %first {
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %c9 step %c1 {
        %v = memref.load %w[%i, %j] : memref<4x9xi8>
        memref.store %v, %packed[%j, %i] : memref<9x4xi8>
      }
    }
  } {qops.hoisted_compute}
  %zero = arith.constant 0 : i8
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %zero, %y[%i] : memref<8xi8>
  }
  return
}

// -----

// Another scf.if (the guard's wait, or any other) is left alone.
// CHECK-LABEL: func.func @other_if
// CHECK-NOT: loop_annotation
func.func @other_if(%c: i1, %y: memref<8xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i8
  scf.if %c {
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %zero, %y[%i] : memref<8xi8>
    }
  } {qops.hoisted_wait}
  return
}
