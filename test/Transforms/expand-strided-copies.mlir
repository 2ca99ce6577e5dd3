// RUN: quant-opt %s --qops-expand-strided-copies --split-input-file | FileCheck %s

// Into the interior of a padded buffer (rows of 264, copy 256): loops.
// CHECK-LABEL: func.func @into_padded
// CHECK: linalg.copy ins(%{{.*}} : memref<16x256x256xi8>) outs(%{{.*}} : memref<16x256x256xi8, strided<[67584, 256, 1]>>)
// CHECK-NOT: memref.copy
func.func @into_padded(%src: memref<16x256x256xi8>, %dst: memref<16x264x256xi8>) {
  %view = memref.subview %dst[0, 0, 0] [16, 256, 256] [1, 1, 1] : memref<16x264x256xi8> to memref<16x256x256xi8, strided<[67584, 256, 1]>>
  memref.copy %src, %view : memref<16x256x256xi8> to memref<16x256x256xi8, strided<[67584, 256, 1]>>
  return
}

// -----

// Contiguous on both sides: one memcpy, left alone.
// CHECK-LABEL: func.func @contiguous
// CHECK: memref.copy
// CHECK-NOT: linalg.copy
func.func @contiguous(%src: memref<4x8xf32>, %dst: memref<4x8xf32>) {
  memref.copy %src, %dst : memref<4x8xf32> to memref<4x8xf32>
  return
}

// -----

// Rank 0 and dynamic shapes stay memref.copy too when contiguous; a dynamic
// strided source becomes loops.
// CHECK-LABEL: func.func @scalar_and_dynamic
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<f32> to memref<f32>
// CHECK: linalg.copy ins(%{{.*}} : memref<?x4xf32, strided<[8, 1]>>)
func.func @scalar_and_dynamic(%s: memref<f32>, %t: memref<f32>, %src: memref<?x8xf32>, %dst: memref<?x4xf32>) {
  memref.copy %s, %t : memref<f32> to memref<f32>
  %c0 = arith.constant 0 : index
  %n = memref.dim %src, %c0 : memref<?x8xf32>
  %view = memref.subview %src[0, 0] [%n, 4] [1, 1] : memref<?x8xf32> to memref<?x4xf32, strided<[8, 1]>>
  memref.copy %view, %dst : memref<?x4xf32, strided<[8, 1]>> to memref<?x4xf32>
  return
}
