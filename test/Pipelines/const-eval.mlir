// RUN: quant-opt %s -split-input-file --qops-hoist-constant-expressions="min-bytes=16" --qops-const-eval | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

// The hoisted expression runs now, with the JIT: its result becomes the
// global's constant value (each weight doubled), and the guard (the atomic
// claim, the computing and the waiting scf.if, the state global) is gone.
// CHECK-NOT: _state
// CHECK: memref.global "private" constant @__qops_hoisted_packs : memref<4x4xi32> = dense<{{\[\[}}2, 4, 6, 8], [10, 12, 14, 16], [18, 20, 22, 24], [26, 28, 30, -32]]>
// CHECK-LABEL: func.func @packs
// CHECK-NOT: memref.atomic_rmw
// CHECK-NOT: scf.if
// CHECK-NOT: linalg.generic
// CHECK: %[[GLOBAL:.*]] = memref.get_global @__qops_hoisted_packs : memref<4x4xi32>
// CHECK: %[[HOISTED:.*]] = bufferization.to_tensor %[[GLOBAL]] restrict
// CHECK: arith.addi %{{.*}}, %[[HOISTED]] : tensor<4x4xi32>
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

// Two functions, two roots in one: every global gets its value (a
// transpose, and a pad with 7s).
// CHECK-DAG: memref.global "private" constant @__qops_hoisted_two{{(_[0-9]+)?}} : memref<4x4xi8> = dense<{{\[\[}}1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15], [4, 8, 12, 16]]>
// CHECK-DAG: memref.global "private" constant @__qops_hoisted_two{{(_[0-9]+)?}} : memref<4x4xi8> = dense<{{\[\[}}6, 5, 4, 7], [3, 2, 1, 7], [7, 7, 7, 7], [7, 7, 7, 7]]>
// CHECK-DAG: memref.global "private" constant @__qops_hoisted_one : memref<32xf32> = dense<2.500000e-01>
// CHECK-LABEL: func.func @two
// CHECK-NOT: scf.if
// CHECK-LABEL: func.func @one
// CHECK-NOT: scf.if
func.func @two(%x: tensor<4x4xi8>, %y: tensor<4x4xi8>) -> (tensor<4x4xi8>, tensor<4x4xi8>) {
  %w = arith.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]> : tensor<4x4xi8>
  %init = tensor.empty() : tensor<4x4xi8>
  %t = linalg.transpose ins(%w : tensor<4x4xi8>) outs(%init : tensor<4x4xi8>) permutation = [1, 0]
  %r = arith.constant dense<[[6, 5, 4], [3, 2, 1]]> : tensor<2x3xi8>
  %seven = arith.constant 7 : i8
  %p = tensor.pad %r low[0, 0] high[2, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %seven : i8
  } : tensor<2x3xi8> to tensor<4x4xi8>
  %a = arith.addi %x, %t : tensor<4x4xi8>
  %b = arith.addi %y, %p : tensor<4x4xi8>
  return %a, %b : tensor<4x4xi8>, tensor<4x4xi8>
}
func.func @one(%x: tensor<32xf32>) -> tensor<32xf32> {
  %w = arith.constant dense<0.5> : tensor<32xf32>
  %init = tensor.empty() : tensor<32xf32>
  %half = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%w : tensor<32xf32>) outs(%init : tensor<32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<32xf32>
  %s = arith.addf %x, %half : tensor<32xf32>
  return %s : tensor<32xf32>
}

// -----

// A big-endian target: the host's bytes would be wrong there; the guard
// stays and the first call computes.
// CHECK-LABEL: memref.global "private" @__qops_hoisted_big_endian_state
// CHECK: memref.global "private" @__qops_hoisted_big_endian : memref<16xi32> = uninitialized
// CHECK-LABEL: func.func @big_endian
// CHECK: memref.atomic_rmw maxs
module attributes {qops.target = {cpu = "z13", features = "", int8_strategy = #qops.int8_strategy<madd>, triple = "s390x-unknown-linux-gnu"}} {
  func.func @big_endian(%x: tensor<16xi32>) -> tensor<16xi32> {
    %w = arith.constant dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]> : tensor<16xi32>
    %init = tensor.empty() : tensor<16xi32>
    %r = linalg.transpose ins(%w : tensor<16xi32>) outs(%init : tensor<16xi32>) permutation = [0]
    %s = arith.addi %x, %r : tensor<16xi32>
    return %s : tensor<16xi32>
  }
}
