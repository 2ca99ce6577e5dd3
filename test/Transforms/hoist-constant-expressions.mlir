// RUN: quant-opt %s -split-input-file --qops-hoist-constant-expressions="min-bytes=64" | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

// A computation on a constant (64 bytes of i32), used by an op that reads
// the argument: computed once under the guard into a global, read back
// through to_tensor; the original computation is gone. The qops.hoisted_*
// marks are what qops-const-eval finds. The state is aligned as an i32 (4),
// not as the constants' globals (64), so that one-shot bufferization never
// takes it for a constant dense<0> : tensor<i32> (it matches value and
// alignment only).
// CHECK-DAG: memref.global "private" @__qops_hoisted_packs_state : memref<i32> = dense<0> {alignment = 4 : i64, qops.hoisted_state}
// CHECK-DAG: memref.global "private" @__qops_hoisted_packs : memref<4x4xi32> = uninitialized {alignment = 64 : i64, qops.hoisted_value}
// CHECK-LABEL: func.func @packs
// CHECK-DAG: %[[NOT_COMPUTED:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[COMPUTING:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[READY:.*]] = arith.constant 2 : i32
// CHECK: %[[STATE:.*]] = memref.get_global @__qops_hoisted_packs_state
// CHECK: %[[OLD:.*]] = memref.atomic_rmw maxs %[[COMPUTING]], %[[STATE]][] {qops.hoisted_guard}
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[OLD]], %[[NOT_COMPUTED]]
// CHECK: scf.if %[[FIRST]] {
// CHECK:   %[[PACKED:.*]] = linalg.generic
// CHECK:   %[[DEST:.*]] = memref.get_global @__qops_hoisted_packs : memref<4x4xi32>
// CHECK:   bufferization.materialize_in_destination %[[PACKED]] in restrict writable %[[DEST]]
// CHECK:   memref.atomic_rmw assign %[[READY]], %[[STATE]][]
// CHECK: } {qops.hoisted_compute}
// CHECK: %[[BUSY:.*]] = arith.cmpi eq, %[[OLD]], %[[COMPUTING]]
// CHECK: scf.if %[[BUSY]] {
// CHECK:   scf.while
// CHECK:     %[[NOW:.*]] = memref.atomic_rmw ori %[[NOT_COMPUTED]], %[[STATE]][]
// CHECK:     %[[WAIT:.*]] = arith.cmpi ne, %[[NOW]], %[[READY]]
// CHECK:     scf.condition(%[[WAIT]])
// CHECK: } {qops.hoisted_wait}
// CHECK: %[[GLOBAL:.*]] = memref.get_global @__qops_hoisted_packs : memref<4x4xi32>
// CHECK: %[[HOISTED:.*]] = bufferization.to_tensor %[[GLOBAL]] restrict : memref<4x4xi32> to tensor<4x4xi32>
// CHECK-NOT: linalg.generic
// CHECK: %[[SUM:.*]] = arith.addi %{{.*}}, %[[HOISTED]] : tensor<4x4xi32>
// CHECK: return %[[SUM]]
func.func @packs(%x: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %w = arith.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]> : tensor<4x4xi32>
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

// Two roots of one function: one state, one guard, two globals; the
// transpose feeding the collapse is not a root (only the collapse is used
// outside).
// CHECK-DAG: memref.global "private" @__qops_hoisted_two_roots_state : memref<i32>
// CHECK-DAG: memref.global "private" @__qops_hoisted_two_roots{{(_[0-9]+)?}} : memref<16xi32>
// CHECK-DAG: memref.global "private" @__qops_hoisted_two_roots{{(_[0-9]+)?}} : memref<4x4xi32>
// CHECK-LABEL: func.func @two_roots
// CHECK: scf.if
// CHECK: linalg.transpose
// CHECK: tensor.collapse_shape
// CHECK: bufferization.materialize_in_destination
// CHECK: bufferization.materialize_in_destination
// CHECK: scf.if
// CHECK: bufferization.to_tensor
// CHECK: bufferization.to_tensor
// CHECK-NOT: scf.if
// CHECK: return
func.func @two_roots(%x: tensor<16xi32>, %y: tensor<4x4xi32>) -> (tensor<16xi32>, tensor<4x4xi32>) {
  %w = arith.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]> : tensor<4x4xi32>
  %init = tensor.empty() : tensor<4x4xi32>
  %t = linalg.transpose ins(%w : tensor<4x4xi32>) outs(%init : tensor<4x4xi32>) permutation = [1, 0]
  %flat = tensor.collapse_shape %t [[0, 1]] : tensor<4x4xi32> into tensor<16xi32>
  %neg = arith.subi %init, %w : tensor<4x4xi32>
  %padded = tensor.pad %neg low[0, 0] high[0, 0] {
  ^bb0(%i: index, %j: index):
    %zero = arith.constant 0 : i32
    tensor.yield %zero : i32
  } : tensor<4x4xi32> to tensor<4x4xi32>
  %a = arith.addi %x, %flat : tensor<16xi32>
  %b = arith.addi %y, %padded : tensor<4x4xi32>
  return %a, %b : tensor<16xi32>, tensor<4x4xi32>
}

// -----

// Not hoisted: a reshape of a constant (no computation), a computation on
// fewer than min-bytes, and one whose region reads the argument.
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: scf.if
// CHECK: tensor.expand_shape
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: return
func.func @left_alone(%x: tensor<2x8xi32>, %s: i32, %z: tensor<2xi32>) -> (tensor<2x8xi32>, tensor<2x8xi32>, tensor<2xi32>) {
  %w = arith.constant dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]> : tensor<16xi32>
  %view = tensor.expand_shape %w [[0, 1]] output_shape [2, 8] : tensor<16xi32> into tensor<2x8xi32>
  %small = arith.constant dense<[1, 2]> : tensor<2xi32>
  %init2 = tensor.empty() : tensor<2xi32>
  %twice = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%small : tensor<2xi32>) outs(%init2 : tensor<2xi32>) {
  ^bb0(%in: i32, %out: i32):
    %d = arith.addi %in, %in : i32
    linalg.yield %d : i32
  } -> tensor<2xi32>
  %init = tensor.empty() : tensor<2x8xi32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%view : tensor<2x8xi32>) outs(%init : tensor<2x8xi32>) {
  ^bb0(%in: i32, %out: i32):
    %m = arith.muli %in, %s : i32
    linalg.yield %m : i32
  } -> tensor<2x8xi32>
  %a = arith.addi %x, %view : tensor<2x8xi32>
  %c = arith.addi %z, %twice : tensor<2xi32>
  return %a, %scaled, %c : tensor<2x8xi32>, tensor<2x8xi32>, tensor<2xi32>
}

// -----

// A name already taken: the global gets another one.
// CHECK-DAG: memref.global "private" @__qops_hoisted_clash : memref<i8>
// CHECK-DAG: memref.global "private" @__qops_hoisted_clash_{{[0-9]+}} : memref<4x4xi32> = uninitialized
// CHECK-LABEL: func.func @clash
// CHECK: memref.get_global @__qops_hoisted_clash_{{[0-9]+}} : memref<4x4xi32>
memref.global "private" @__qops_hoisted_clash : memref<i8> = uninitialized
func.func @clash(%x: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %w = arith.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]> : tensor<4x4xi32>
  %init = tensor.empty() : tensor<4x4xi32>
  %t = linalg.transpose ins(%w : tensor<4x4xi32>) outs(%init : tensor<4x4xi32>) permutation = [1, 0]
  %sum = arith.addi %x, %t : tensor<4x4xi32>
  return %sum : tensor<4x4xi32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A zero fill (256 bytes) that only the argument's computation uses as its
// init is not hoisted: writing the splat costs what reading a hoisted copy
// of it back would. No guard, no global.
// CHECK-LABEL: func.func @fill_stays
// CHECK-NOT: memref.get_global
// CHECK: %[[INIT:.*]] = linalg.fill
// CHECK: linalg.generic {{.*}} outs(%[[INIT]] : tensor<8x8xi32>)
func.func @fill_stays(%x: tensor<8x8xi32>) -> tensor<8x8xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<8x8xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<8x8xi32>) -> tensor<8x8xi32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x8xi32>) outs(%init : tensor<8x8xi32>) {
  ^bb0(%in: i32, %out: i32):
    %s = arith.addi %in, %out : i32
    linalg.yield %s : i32
  } -> tensor<8x8xi32>
  return %y : tensor<8x8xi32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// A constant expression read through bufferization.to_buffer (as the amx
// kernel reads its packed b): the tensor is hoisted, the view of it stays
// in the function and views the global's value.
// CHECK-LABEL: func.func @read_as_buffer
// CHECK: scf.if
// CHECK: linalg.generic
// CHECK: materialize_in_destination
// CHECK: qops.hoisted_wait
// CHECK-NEXT: memref.get_global @__qops_hoisted_read_as_buffer :
// CHECK-NEXT: %[[T:.*]] = bufferization.to_tensor
// CHECK-NOT: linalg.generic
// CHECK: bufferization.to_buffer %[[T]] read_only
func.func @read_as_buffer(%x: memref<4x4xi32>) {
  %c = arith.constant dense<3> : tensor<4x4xi32>
  %e = tensor.empty() : tensor<4x4xi32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<4x4xi32>) outs(%e : tensor<4x4xi32>) {
  ^bb0(%in: i32, %out: i32):
    %s = arith.muli %in, %in : i32
    linalg.yield %s : i32
  } -> tensor<4x4xi32>
  %b = bufferization.to_buffer %p read_only : tensor<4x4xi32> to memref<4x4xi32>
  memref.copy %b, %x : memref<4x4xi32> to memref<4x4xi32>
  return
}
