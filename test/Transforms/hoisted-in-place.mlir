// RUN: quant-opt %s -split-input-file --qops-hoisted-in-place | FileCheck %s
// Bufferized, the packing writes the global and nothing is allocated or
// copied (the copy of the global into itself folds away):
// RUN: quant-opt %s -split-input-file --qops-hoisted-in-place --one-shot-bufferize --canonicalize | FileCheck %s --check-prefix=BUF

memref.global "private" @__qops_hoisted_packed : memref<4x16xi32> = uninitialized
func.func @packed_in_place(%claimed: i1, %v: i32) {
  scf.if %claimed {
    %e = tensor.empty() : tensor<4x16xi32>
    %p = linalg.fill ins(%v : i32) outs(%e : tensor<4x16xi32>) -> tensor<4x16xi32>
    %g = memref.get_global @__qops_hoisted_packed : memref<4x16xi32>
    bufferization.materialize_in_destination %p in restrict writable %g : (tensor<4x16xi32>, memref<4x16xi32>) -> ()
  } {qops.hoisted_compute}
  return
}
// The fill's destination is the global (the tensor.empty is left dead);
// the restrict moved to the new to_tensor (one restrict use per buffer).
// CHECK-LABEL: func.func @packed_in_place
// CHECK: %[[G:.*]] = memref.get_global @__qops_hoisted_packed
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[G]] restrict writable
// CHECK: %[[P:.*]] = linalg.fill ins(%{{.*}} : i32) outs(%[[T]] : tensor<4x16xi32>)
// CHECK: bufferization.materialize_in_destination %[[P]] in writable %[[G]]
// BUF-LABEL: func.func @packed_in_place
// BUF-NOT: memref.alloc
// BUF-NOT: memref.copy
// BUF: %[[G:.*]] = memref.get_global @__qops_hoisted_packed
// BUF: linalg.fill ins(%{{.*}} : i32) outs(%[[G]] : memref<4x16xi32>)
// BUF-NOT: memref.copy
// BUF: return
// Where the copy stays (not from a tensor.empty):
// BUF-LABEL: func.func @not_from_empty
// BUF: memref.copy

// -----

// A tensor.empty outside the first call's computation is left alone, even
// where empty-tensor elimination would replace it (by a slice of %dest).
func.func @outside_left_alone(%dest: tensor<8x16xi32>, %v: i32) -> tensor<8x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %p = linalg.fill ins(%v : i32) outs(%e : tensor<4x16xi32>) -> tensor<4x16xi32>
  %r = tensor.insert_slice %p into %dest[0, 0] [4, 16] [1, 1] : tensor<4x16xi32> into tensor<8x16xi32>
  return %r : tensor<8x16xi32>
}
// CHECK-LABEL: func.func @outside_left_alone
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x16xi32>
// CHECK: linalg.fill ins(%{{.*}} : i32) outs(%[[E]] : tensor<4x16xi32>)
// CHECK: tensor.insert_slice

// -----

// A stored value that is not built up in a tensor.empty (a constant) is
// stored as before.
memref.global "private" @__qops_hoisted_const : memref<4xi32> = uninitialized
func.func @not_from_empty(%claimed: i1) {
  scf.if %claimed {
    %c = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
    %g = memref.get_global @__qops_hoisted_const : memref<4xi32>
    bufferization.materialize_in_destination %c in restrict writable %g : (tensor<4xi32>, memref<4xi32>) -> ()
  } {qops.hoisted_compute}
  return
}
// CHECK-LABEL: func.func @not_from_empty
// CHECK-NOT: bufferization.to_tensor
// CHECK: bufferization.materialize_in_destination %{{.*}} in restrict writable

// -----

// Built through a loop's iter_args (the init a tensor.empty) and the
// loop's insert_slice: the loop's init is the global.
memref.global "private" @__qops_hoisted_loop : memref<4x16xi32> = uninitialized
func.func @through_loop(%claimed: i1, %v: i32) {
  scf.if %claimed {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %e = tensor.empty() : tensor<4x16xi32>
    %row = tensor.empty() : tensor<1x16xi32>
    %r = linalg.fill ins(%v : i32) outs(%row : tensor<1x16xi32>) -> tensor<1x16xi32>
    %p = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %e) -> (tensor<4x16xi32>) {
      %u = tensor.insert_slice %r into %acc[%i, 0] [1, 16] [1, 1] : tensor<1x16xi32> into tensor<4x16xi32>
      scf.yield %u : tensor<4x16xi32>
    }
    %g = memref.get_global @__qops_hoisted_loop : memref<4x16xi32>
    bufferization.materialize_in_destination %p in restrict writable %g : (tensor<4x16xi32>, memref<4x16xi32>) -> ()
  } {qops.hoisted_compute}
  return
}
// CHECK-LABEL: func.func @through_loop
// CHECK: %[[G:.*]] = memref.get_global @__qops_hoisted_loop
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[G]] restrict writable
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[T]]) -> (tensor<4x16xi32>)
// CHECK: bufferization.materialize_in_destination %{{.*}} in writable %[[G]]
// Bufferized, each row is copied into the global's rows; nothing of the
// whole's size is allocated or copied.
// BUF-LABEL: func.func @through_loop
// BUF-NOT: memref.alloc() {{.*}} : memref<4x16xi32>
// BUF: %[[G:.*]] = memref.get_global @__qops_hoisted_loop
// BUF: memref.subview %[[G]]
// BUF-NOT: memref.alloc() {{.*}} : memref<4x16xi32>
// BUF-NOT: to memref<4x16xi32>
// BUF: return

// -----

// A tensor.empty with another use is left alone (its buffer is not only
// the stored value's).
memref.global "private" @__qops_hoisted_twice : memref<4x16xi32> = uninitialized
func.func @empty_used_twice(%claimed: i1, %v: i32, %w: i32) -> tensor<4x16xi32> {
  %e = tensor.empty() : tensor<4x16xi32>
  %q = linalg.fill ins(%w : i32) outs(%e : tensor<4x16xi32>) -> tensor<4x16xi32>
  scf.if %claimed {
    %p = linalg.fill ins(%v : i32) outs(%e : tensor<4x16xi32>) -> tensor<4x16xi32>
    %g = memref.get_global @__qops_hoisted_twice : memref<4x16xi32>
    bufferization.materialize_in_destination %p in restrict writable %g : (tensor<4x16xi32>, memref<4x16xi32>) -> ()
  } {qops.hoisted_compute}
  return %q : tensor<4x16xi32>
}
// CHECK-LABEL: func.func @empty_used_twice
// CHECK-NOT: bufferization.to_tensor
// CHECK: bufferization.materialize_in_destination %{{.*}} in restrict writable

// -----

// The same in a function qops-const-eval{at-link} made of the scf.if's
// body (marked qops.hoisted_compute itself).
memref.global "private" @__qops_hoisted_outlined : memref<4x16xi32> = uninitialized
func.func @__qops_const_eval_0() attributes {qops.hoisted_compute} {
  %v = arith.constant 7 : i32
  %e = tensor.empty() : tensor<4x16xi32>
  %p = linalg.fill ins(%v : i32) outs(%e : tensor<4x16xi32>) -> tensor<4x16xi32>
  %g = memref.get_global @__qops_hoisted_outlined : memref<4x16xi32>
  bufferization.materialize_in_destination %p in restrict writable %g : (tensor<4x16xi32>, memref<4x16xi32>) -> ()
  return
}
// CHECK-LABEL: func.func @__qops_const_eval_0
// CHECK: %[[G:.*]] = memref.get_global @__qops_hoisted_outlined
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[G]] restrict writable
// CHECK: %[[P:.*]] = linalg.fill ins(%{{.*}} : i32) outs(%[[T]] : tensor<4x16xi32>)
// CHECK: bufferization.materialize_in_destination %[[P]] in writable %[[G]]
// BUF-LABEL: func.func @__qops_const_eval_0
// BUF-NOT: memref.alloc
// BUF-NOT: memref.copy
// BUF: %[[G:.*]] = memref.get_global @__qops_hoisted_outlined
// BUF: linalg.fill ins(%{{.*}} : i32) outs(%[[G]] : memref<4x16xi32>)
// BUF-NOT: memref.copy
// BUF: return
