// RUN: quant-opt %s --qops-decompose-contractions --split-input-file -verify-diagnostics | FileCheck %s

// qops-decompose-contractions on the convolutions (DecomposeConvolutions.cpp):
// the weights become a [M, C/G * K..], the patches of x padded with its
// zero point become b [C/G * K.., N * o..], and one qkernel.matmul gives y
// [M, N * o..], reshaped (and, for N > 1, transposed) to NCHW.

// A 3x3 convolution with pads: x padded with x's zero point, the patches
// gathered by one linalg.generic (dims g, c, kh, kw, n, oh, ow; the input
// row oh * 2 + kh for stride 2), w per output channel as a's per-row
// zero point.
// CHECK-DAG: #[[PATCH:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d0 * 3 + d1, d5 * 2 + d2, d6 * 2 + d3)>
// CHECK-LABEL: func.func @conv_pads_strides
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x7x7xui8>, %[[XZP:.*]]: tensor<ui8>, %[[W:.*]]: tensor<4x3x3x3xsi8>, %[[WZP:.*]]: tensor<4xsi8>)
// CHECK: %[[WS:.*]] = builtin.unrealized_conversion_cast %[[W]] : tensor<4x3x3x3xsi8> to tensor<4x3x3x3xi8>
// CHECK: %[[W2:.*]] = tensor.collapse_shape %[[WS]] {{\[}}[0], [1, 2, 3]] : tensor<4x3x3x3xi8> into tensor<4x27xi8>
// CHECK: %[[A:.*]] = builtin.unrealized_conversion_cast %[[W2]] : tensor<4x27xi8> to tensor<4x27xsi8>
// CHECK: %[[ZP:.*]] = tensor.extract %{{.*}}[] : tensor<i8>
// CHECK: %[[XP:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[ZP]] : i8
// CHECK: } : tensor<1x3x7x7xi8> to tensor<1x3x9x9xi8>
// CHECK: %[[P:.*]] = linalg.generic {indexing_maps = [#[[PATCH]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[XP]] : tensor<1x3x9x9xi8>) outs(%{{.*}} : tensor<1x3x3x3x1x4x4xi8>)
// CHECK: tensor.collapse_shape %[[P]] {{\[}}[0, 1, 2, 3], [4, 5, 6]] : tensor<1x3x3x3x1x4x4xi8> into tensor<27x16xi8>
// CHECK: %[[B:.*]] = builtin.unrealized_conversion_cast %{{.*}} : tensor<27x16xi8> to tensor<27x16xui8>
// CHECK: %[[Y:.*]] = qkernel.matmul a(%[[A]], %[[WZP]] : tensor<4x27xsi8>, tensor<4xsi8>) b(%[[B]], %[[XZP]] : tensor<27x16xui8>, tensor<ui8>) -> tensor<4x16xi32>
// CHECK: tensor.expand_shape %[[Y]] {{\[}}[0, 1], [2, 3]] output_shape [1, 4, 4, 4] : tensor<4x16xi32> into tensor<1x4x4x4xi32>
func.func @conv_pads_strides(%x: tensor<1x3x7x7xui8>, %xzp: tensor<ui8>, %w: tensor<4x3x3x3xsi8>, %wzp: tensor<4xsi8>) -> tensor<1x4x4x4xi32> {
  %y = qops.conv_integer x(%x, %xzp : tensor<1x3x7x7xui8>, tensor<ui8>) w(%w, %wzp : tensor<4x3x3x3xsi8>, tensor<4xsi8>) {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} -> tensor<1x4x4x4xi32>
  return %y : tensor<1x4x4x4xi32>
}

// -----

// No zero point: nothing to pad with but 0; no pads: no tensor.pad.
// CHECK-LABEL: func.func @conv_no_zero_point
// CHECK-NOT: tensor.pad
// CHECK: qkernel.matmul a(%{{.*}} : tensor<2x8xui8>) b(%{{.*}} : tensor<8x9xsi8>) -> tensor<2x9xi32>
func.func @conv_no_zero_point(%x: tensor<1x2x4x4xsi8>, %w: tensor<2x2x2x2xui8>) -> tensor<1x2x3x3xi32> {
  %y = qops.conv_integer x(%x : tensor<1x2x4x4xsi8>) w(%w : tensor<2x2x2x2xui8>) -> tensor<1x2x3x3xi32>
  return %y : tensor<1x2x3x3xi32>
}

// -----

// A 1x1 convolution of one image: x itself is b ([C, H * W]), no patches.
// CHECK-LABEL: func.func @conv_pointwise
// CHECK-NOT: linalg.generic
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2, 3]] : tensor<1x16x5x7xi8> into tensor<16x35xi8>
// CHECK: qkernel.matmul a(%{{.*}} : tensor<8x16xsi8>) b(%{{.*}} : tensor<16x35xui8>) -> tensor<8x35xi32>
func.func @conv_pointwise(%x: tensor<1x16x5x7xui8>, %w: tensor<8x16x1x1xsi8>) -> tensor<1x8x5x7xi32> {
  %y = qops.conv_integer x(%x : tensor<1x16x5x7xui8>) w(%w : tensor<8x16x1x1xsi8>) -> tensor<1x8x5x7xi32>
  return %y : tensor<1x8x5x7xi32>
}

// -----

// A batch of 3 (dynamic here): the images side by side in b's columns
// ([K, ? * o..]), y [M, N, P] transposed to [N, M, P].
// CHECK-LABEL: func.func @conv_dynamic_batch
// CHECK: %[[N:.*]] = tensor.dim %{{.*}}, %c0 : tensor<?x3x6x6xi8>
// CHECK: tensor.empty(%[[N]]) : tensor<1x3x3x3x?x4x4xi8>
// CHECK: qkernel.matmul a(%{{.*}} : tensor<4x27xui8>) b(%{{.*}} : tensor<27x?xui8>) -> tensor<4x?xi32>
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [4, %{{.*}}, 16] : tensor<4x?xi32> into tensor<4x?x16xi32>
// CHECK: linalg.transpose ins(%{{.*}} : tensor<4x?x16xi32>) outs(%{{.*}} : tensor<?x4x16xi32>) permutation = [1, 0, 2]
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3]] output_shape [%{{.*}}, 4, 4, 4] : tensor<?x4x16xi32> into tensor<?x4x4x4xi32>
func.func @conv_dynamic_batch(%x: tensor<?x3x6x6xui8>, %w: tensor<4x3x3x3xui8>) -> tensor<?x4x4x4xi32> {
  %y = qops.conv_integer x(%x : tensor<?x3x6x6xui8>) w(%w : tensor<4x3x3x3xui8>) -> tensor<?x4x4x4xi32>
  return %y : tensor<?x4x4x4xi32>
}

// -----

// Groups: a [G, M/G, K], b [G, K, N * o..]; w's per-channel scale and zero
// point as a's per-row parameters [G, M/G, 1]; x's and y's per tensor; the
// requantization is QLinearConv's.
// CHECK-LABEL: func.func @qlinear_conv_groups
// CHECK-SAME: %[[XS:[a-z0-9_]+]]: tensor<f32>, %[[XZP:[a-z0-9_]+]]: tensor<ui8>, %{{[a-z0-9_]+}}: tensor<6x2x3x3xsi8>, %{{[a-z0-9_]+}}: tensor<6xf32>, %{{[a-z0-9_]+}}: tensor<6xsi8>, %[[YS:[a-z0-9_]+]]: tensor<f32>, %[[YZP:[a-z0-9_]+]]: tensor<ui8>
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [3, 2, 18] : tensor<6x18xi8> into tensor<3x2x18xi8>
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3], [4, 5, 6]] : tensor<3x2x3x3x1x5x5xi8> into tensor<3x18x25xi8>
// CHECK: %[[WZP:.*]] = builtin.unrealized_conversion_cast %{{.*}} : tensor<3x2x1xi8> to tensor<3x2x1xsi8>
// CHECK: %[[WS:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2]] output_shape [3, 2, 1] : tensor<6xf32> into tensor<3x2x1xf32>
// CHECK: qkernel.matmul a(%{{.*}}, %[[WZP]] : tensor<3x2x18xsi8>, tensor<3x2x1xsi8>) b(%{{.*}}, %[[XZP]] : tensor<3x18x25xui8>, tensor<ui8>)
// CHECK-SAME: requantize(%[[WS]], %[[XS]], %[[YS]], %[[YZP]] : tensor<3x2x1xf32>, tensor<f32>, tensor<f32>, tensor<ui8>) -> tensor<3x2x25xui8>
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<3x2x25xi8> into tensor<6x25xi8>
func.func @qlinear_conv_groups(%x: tensor<1x6x5x5xui8>, %xs: tensor<f32>, %xzp: tensor<ui8>, %w: tensor<6x2x3x3xsi8>, %ws: tensor<6xf32>, %wzp: tensor<6xsi8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<1x6x5x5xui8> {
  %y = qops.qlinear_conv x(%x, %xs, %xzp : tensor<1x6x5x5xui8>, tensor<f32>, tensor<ui8>) w(%w, %ws, %wzp : tensor<6x2x3x3xsi8>, tensor<6xf32>, tensor<6xsi8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) {group = 3 : i64, pads = array<i64: 1, 1, 1, 1>} -> tensor<1x6x5x5xui8>
  return %y : tensor<1x6x5x5xui8>
}

// -----

// Not lowered yet: dynamic spatial sizes. The op stays, with an error that
// says why.
func.func @conv_dynamic_spatial(%x: tensor<1x3x?x7xui8>, %w: tensor<4x3x3x3xui8>) -> tensor<1x4x?x5xi32> {
  // expected-error @+1 {{'qops.conv_integer' op is lowered for static channels, spatial sizes and weights only (the batch may be dynamic), got 'tensor<1x3x?x7xui8>' and 'tensor<4x3x3x3xui8>'}}
  %y = qops.conv_integer x(%x : tensor<1x3x?x7xui8>) w(%w : tensor<4x3x3x3xui8>) -> tensor<1x4x?x5xi32>
  return %y : tensor<1x4x?x5xi32>
}

// -----

// QLinearConv's bias [M] is the product's per-row bias [M, 1].
// CHECK-LABEL: func.func @qlinear_conv_bias
// CHECK: %[[B:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1]] output_shape [2, 1] : tensor<2xi32> into tensor<2x1xi32>
// CHECK: qkernel.matmul a(%{{.*}}, %{{.*}} : tensor<2x9xui8>, tensor<ui8>) b(%{{.*}}, %{{.*}} : tensor<9x4xui8>, tensor<ui8>) bias(%[[B]] : tensor<2x1xi32>) requantize(
func.func @qlinear_conv_bias(%x: tensor<1x1x4x4xui8>, %s: tensor<f32>, %zp: tensor<ui8>, %w: tensor<2x1x3x3xui8>, %bias: tensor<2xi32>) -> tensor<1x2x2x2xui8> {
  %y = qops.qlinear_conv x(%x, %s, %zp : tensor<1x1x4x4xui8>, tensor<f32>, tensor<ui8>) w(%w, %s, %zp : tensor<2x1x3x3xui8>, tensor<f32>, tensor<ui8>) y(%s, %zp : tensor<f32>, tensor<ui8>) bias(%bias : tensor<2xi32>) -> tensor<1x2x2x2xui8>
  return %y : tensor<1x2x2x2xui8>
}
