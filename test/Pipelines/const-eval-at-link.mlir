// RUN: quant-opt %s -split-input-file --qops-hoist-constant-expressions="min-bytes=16" --qops-const-eval="at-link=1" | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

// at-link: nothing runs now. The expression moves into a function of its
// own (no arguments, no results, marked to run once: qops.hoisted_compute,
// and the LLVM function attribute "qops-run-once" for code generation)
// that writes the global; the global stays mutable and without a value,
// and the guard (the atomic claim, the computing and the waiting scf.if,
// the state global) is gone: the caller runs the function once linked,
// before the first call.
// CHECK-NOT: _state
// CHECK: memref.global "private" @__qops_hoisted_packs : memref<4x4xi32> = uninitialized
// CHECK-LABEL: func.func @packs
// CHECK-NOT: memref.atomic_rmw
// CHECK-NOT: scf.if
// CHECK-NOT: linalg.generic
// CHECK: %[[GLOBAL:.*]] = memref.get_global @__qops_hoisted_packs : memref<4x4xi32>
// CHECK: %[[HOISTED:.*]] = bufferization.to_tensor %[[GLOBAL]] restrict
// CHECK: arith.addi %{{.*}}, %[[HOISTED]] : tensor<4x4xi32>
// CHECK-LABEL: func.func @__qops_const_eval_0()
// CHECK-SAME: attributes {passthrough = ["qops-run-once"], qops.hoisted_compute}
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[}}1, 2, 3, 4]
// CHECK: %[[DOUBLED:.*]] = linalg.generic
// CHECK-SAME: ins(%[[W]] : tensor<4x4xi32>)
// CHECK: arith.addi
// CHECK: %[[TARGET:.*]] = memref.get_global @__qops_hoisted_packs : memref<4x4xi32>
// CHECK: bufferization.materialize_in_destination %[[DOUBLED]] in restrict writable %[[TARGET]]
// CHECK-NOT: memref.atomic_rmw
// CHECK: return
func.func @packs(%x: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %w = arith.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, -16]]> : tensor<4x4xi32>
  %init = tensor.empty() : tensor<4x4xi32>
  %packed = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<4x4xi32>) outs(%init : tensor<4x4xi32>) {
  ^bb0(%in: i32, %out: i32):
    %twice = arith.addi %in, %in : i32
    linalg.yield %twice : i32
  } -> tensor<4x4xi32>
  %sum = arith.addi %x, %packed : tensor<4x4xi32>
  return %sum : tensor<4x4xi32>
}

// -----

// One function per function with hoisted expressions, named apart from a
// function of the module that has the first name already.
// CHECK-LABEL: func.func @__qops_const_eval_0(%{{.*}}: i32) -> i32
// CHECK-LABEL: func.func @first
// CHECK-NOT: scf.if
// CHECK-LABEL: func.func @second
// CHECK-NOT: scf.if
// CHECK-DAG: func.func @__qops_const_eval_{{[0-9_]+}}() attributes {passthrough = ["qops-run-once"], qops.hoisted_compute}
// CHECK-DAG: func.func @__qops_const_eval_{{[0-9_]+}}() attributes {passthrough = ["qops-run-once"], qops.hoisted_compute}
func.func @__qops_const_eval_0(%a: i32) -> i32 {
  return %a : i32
}
func.func @first(%x: tensor<32xf32>) -> tensor<32xf32> {
  %w = arith.constant dense<0.5> : tensor<32xf32>
  %init = tensor.empty() : tensor<32xf32>
  %half = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%w : tensor<32xf32>) outs(%init : tensor<32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = arith.mulf %in, %in : f32
    linalg.yield %q : f32
  } -> tensor<32xf32>
  %r = arith.addf %x, %half : tensor<32xf32>
  return %r : tensor<32xf32>
}
func.func @second(%x: tensor<32xi32>) -> tensor<32xi32> {
  %w = arith.constant dense<3> : tensor<32xi32>
  %init = tensor.empty() : tensor<32xi32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%w : tensor<32xi32>) outs(%init : tensor<32xi32>) {
  ^bb0(%in: i32, %out: i32):
    %q = arith.muli %in, %in : i32
    linalg.yield %q : i32
  } -> tensor<32xi32>
  %r = arith.addi %x, %sq : tensor<32xi32>
  return %r : tensor<32xi32>
}

// -----

// A constant the expressions use from the function around them is cloned
// into the new function (the pass alone, on what
// qops-hoist-constant-expressions writes).
// CHECK-LABEL: func.func @outer_constant
// CHECK-NOT: arith.muli
// CHECK-LABEL: func.func @__qops_const_eval_0()
// CHECK: %[[THREE:.*]] = arith.constant 3 : i32
// CHECK: %[[SQUARE:.*]] = arith.muli %[[THREE]], %[[THREE]] : i32
// CHECK: %[[TARGET:.*]] = memref.get_global @__qops_hoisted_outer : memref<i32>
// CHECK: memref.store %[[SQUARE]], %[[TARGET]][]
// CHECK: return
memref.global "private" @__qops_hoisted_outer : memref<i32> = uninitialized {qops.hoisted_value}
memref.global "private" @__qops_hoisted_outer_state : memref<i32> = dense<0> {qops.hoisted_state}
func.func @outer_constant(%x: i32) -> i32 {
  %three = arith.constant 3 : i32
  %computing = arith.constant 1 : i32
  %ready = arith.constant 2 : i32
  %state = memref.get_global @__qops_hoisted_outer_state : memref<i32>
  %old = memref.atomic_rmw maxs %computing, %state[] {qops.hoisted_guard} : (i32, memref<i32>) -> i32
  %zero = arith.constant 0 : i32
  %claimed = arith.cmpi eq, %old, %zero : i32
  scf.if %claimed {
    %square = arith.muli %three, %three : i32
    %target = memref.get_global @__qops_hoisted_outer : memref<i32>
    memref.store %square, %target[] : memref<i32>
    %done = memref.atomic_rmw assign %ready, %state[] : (i32, memref<i32>) -> i32
  } {qops.hoisted_compute}
  %value = memref.get_global @__qops_hoisted_outer : memref<i32>
  %v = memref.load %value[] : memref<i32>
  %r = arith.addi %x, %v : i32
  return %r : i32
}
