// RUN: quant-opt %s --split-input-file --qops-configure-target="target-triple=x86_64-unknown-linux-gnu target-cpu=znver4" --qops-lower-float-contractions --cse | FileCheck %s

// qops-lower-float-contractions takes the float 2-D convolution first
// (FloatConvolutions.cpp): linalg.conv_2d_nchw_fchw with a fill init becomes
// the patches of x (a generic reading x at oh * s + kh * d, ow * s + kw * d)
// as the rows of a [N * OH * OW, C * KH * KW], times w^T [C * KH * KW, F],
// on the float kernel's tiles; the product [N * P, F] is transposed back to
// NCHW.

// CHECK-DAG: #[[PATCH:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d1 + d4, d2 + d5)>
// CHECK-LABEL: func.func @conv_3x3
// CHECK-NOT: linalg.conv_2d
// CHECK: linalg.generic {indexing_maps = [#[[PATCH]], #{{.*}}]{{.*}} ins(%{{.*}} : tensor<1x8x10x10xf32>) outs(%{{.*}} : tensor<1x8x8x8x3x3xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3, 4, 5]] : tensor<1x8x8x8x3x3xf32> into tensor<64x72xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2, 3]] : tensor<16x8x3x3xf32> into tensor<16x72xf32>
// CHECK: linalg.transpose ins(%{{.*}} : tensor<16x72xf32>) outs(%{{.*}} : tensor<72x16xf32>) permutation = [1, 0]
// The kernel's nest of tiles replaces the matmul.
// CHECK: qkernel.tile_loops
// CHECK-NOT: linalg.matmul
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x64x16xf32>) outs(%{{.*}} : tensor<1x16x64xf32>) permutation = [0, 2, 1]
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] output_shape [1, 16, 8, 8] : tensor<1x16x64xf32> into tensor<1x16x8x8xf32>
func.func @conv_3x3(%x: tensor<1x8x10x10xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %y = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x10x10xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %y : tensor<1x16x8x8xf32>
}

// -----

// Strides and dilations scale the patch's reads; with a dynamic batch the
// product has as many rows as the patches (N * 9, read at run time).
// CHECK-DAG: #[[STRIDED:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d1 * 2 + d4 * 3, d2 * 2 + d5 * 3)>
// CHECK-LABEL: func.func @strided_dilated_dynamic_batch
// CHECK: %[[N:.*]] = tensor.dim %{{.*}}, %c0 : tensor<?x4x11x11xf64>
// CHECK: linalg.generic {indexing_maps = [#[[STRIDED]], #{{.*}}]{{.*}} outs(%{{.*}} : tensor<?x3x3x4x3x3xf64>)
// CHECK: %[[A:.*]] = tensor.collapse_shape {{.*}} into tensor<?x36xf64>
// CHECK: %[[ROWS:.*]] = tensor.dim %[[A]], %c0 : tensor<?x36xf64>
// CHECK: tensor.empty(%[[ROWS]]) : tensor<?x5xf64>
// CHECK: qkernel.tile_loops
// CHECK: tensor.expand_shape {{.*}} output_shape [%[[N]], 5, 3, 3] : tensor<?x5x9xf64> into tensor<?x5x3x3xf64>
func.func @strided_dilated_dynamic_batch(%x: tensor<?x4x11x11xf64>, %w: tensor<5x4x3x3xf64>) -> tensor<?x5x3x3xf64> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4x11x11xf64>
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty(%n) : tensor<?x5x3x3xf64>
  %init = linalg.fill ins(%zero : f64) outs(%e : tensor<?x5x3x3xf64>) -> tensor<?x5x3x3xf64>
  %y = linalg.conv_2d_nchw_fchw {strides = dense<2> : tensor<2xi64>, dilations = dense<3> : tensor<2xi64>}
         ins(%x, %w : tensor<?x4x11x11xf64>, tensor<5x4x3x3xf64>) outs(%init : tensor<?x5x3x3xf64>) -> tensor<?x5x3x3xf64>
  return %y : tensor<?x5x3x3xf64>
}

// -----

// Not taken: an init that is not a fill (the sums would have to start from
// its transposed values), and integer convolutions.
// CHECK-LABEL: func.func @accumulating_init
// CHECK: linalg.conv_2d_nchw_fchw
func.func @accumulating_init(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>, %acc: tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32> {
  %y = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) outs(%acc : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  return %y : tensor<1x3x2x2xf32>
}

// CHECK-LABEL: func.func @integer
// CHECK: linalg.conv_2d_nchw_fchw
func.func @integer(%x: tensor<1x2x4x4xi32>, %w: tensor<3x2x3x3xi32>) -> tensor<1x3x2x2xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x3x2x2xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<1x3x2x2xi32>) -> tensor<1x3x2x2xi32>
  %y = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x2x4x4xi32>, tensor<3x2x3x3xi32>) outs(%init : tensor<1x3x2x2xi32>) -> tensor<1x3x2x2xi32>
  return %y : tensor<1x3x2x2xi32>
}
