// RUN: quant-opt %s --qops-expand-strided-metadata --split-input-file | FileCheck %s
// Upstream's pass gives the same IR (the patterns are its; only the greedy
// driver's region walk is left out):
// RUN: quant-opt %s --expand-strided-metadata --split-input-file | FileCheck %s

// A subview: its offset and strides from the source's metadata, one
// reinterpret_cast.
// CHECK-LABEL: func.func @subview
// CHECK: %[[BASE:.*]], %{{.*}}, %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %arg0
// CHECK: %[[OFFSET:.*]] = affine.apply
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [%[[OFFSET]]], sizes: [4, 8], strides: [64, 1]
// CHECK-NOT: memref.subview
func.func @subview(%m: memref<16x64xf32>, %i: index) -> memref<4x8xf32, strided<[64, 1], offset: ?>> {
  %s = memref.subview %m[%i, 8] [4, 8] [1, 1] : memref<16x64xf32> to memref<4x8xf32, strided<[64, 1], offset: ?>>
  return %s : memref<4x8xf32, strided<[64, 1], offset: ?>>
}

// -----

// An expand_shape of a contiguous buffer: a reinterpret_cast with the
// expanded sizes and strides.
// CHECK-LABEL: func.func @expand
// CHECK: %[[BASE:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %arg0
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [4, 16], strides: [16, 1]
// CHECK-NOT: memref.expand_shape
func.func @expand(%m: memref<64xi8>) -> memref<4x16xi8> {
  %e = memref.expand_shape %m [[0, 1]] output_shape [4, 16] : memref<64xi8> into memref<4x16xi8>
  return %e : memref<4x16xi8>
}
