// RUN: quant-opt %s --qops-decompose-contractions --split-input-file -verify-diagnostics | FileCheck %s
// RUN: quant-opt %s --split-input-file -verify-diagnostics --qops-configure-target="target-triple=x86_64-unknown-linux-gnu target-cpu=sapphirerapids" --qops-decompose-contractions | FileCheck %s --check-prefixes=DENSE,AMX
// RUN: quant-opt %s --split-input-file -verify-diagnostics --qops-configure-target="target-triple=x86_64-unknown-linux-gnu target-cpu=znver4" --qops-decompose-contractions | FileCheck %s --check-prefixes=DENSE,VNNI
// RUN: quant-opt %s --split-input-file -verify-diagnostics --qops-configure-target="target-triple=x86_64-unknown-linux-gnu target-cpu=znver3" --qops-decompose-contractions | FileCheck %s --check-prefix=SPLIT

// qops-decompose-contractions on the convolutions (DecomposeConvolutions.cpp).
// G = 1: the pixels' patches of x, made channels-last and padded with its
// zero point, become a [N * o.., K.. * C] (one parallel nest over the
// output rows, each row one strided copy per kernel tap), w transposed to [K.. * C, M] becomes b, and y [N * o.., M] is
// transposed to NCHW. A 1x1 convolution of one image is w [M, C] times x
// [C, H * W]. Groups: w [G, M/G, K] times the patches [G, K, N * o..].
// Depthwise (G = C = M): the taps summed by one elementwise op.

// A 3x3 convolution with pads and strides: x to NHWC, padded with x's zero
// point; a nest over (n, oh) marked qkernel.parallel_loops writes the
// patches one output row at a time: in it, each of the 9 taps copies the
// stride-2 window of that row at (kh, kw), row 2 oh + kh of xp, into its
// slice of the row; w's per-channel zero point is b's per column.
// CHECK-DAG: #[[$TWICE:.*]] = affine_map<(d0) -> (d0 * 2)>
// CHECK-DAG: #[[$TWICE_PLUS_2:.*]] = affine_map<(d0) -> (d0 * 2 + 2)>
// CHECK-LABEL: func.func @conv_pads_strides
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x7x7xui8>, %[[XZP:.*]]: tensor<ui8>, %[[W:.*]]: tensor<4x3x3x3xsi8>, %[[WZP:.*]]: tensor<4xsi8>)
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x3x7x7xi8>) outs(%{{.*}} : tensor<1x7x7x3xi8>) permutation = [0, 2, 3, 1]
// CHECK: %[[ZP:.*]] = tensor.extract %{{.*}}[] : tensor<i8>
// CHECK: %[[XP:.*]] = tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: tensor.yield %[[ZP]] : i8
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<1x4x4x3x3x3xi8>
// CHECK: %[[PATCHES:.*]] = scf.for %[[N:.*]] = {{.*}} iter_args(%[[P0:.*]] = %[[EMPTY]])
// CHECK: scf.for %[[OH:.*]] = %{{.*}} to %c4 {{.*}} iter_args(%[[P1:.*]] = %[[P0]])
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[P1]][%[[N]], %[[OH]], 0, 0, 0, 0] [1, 1, 4, 3, 3, 3]
// CHECK: %[[H0:.*]] = affine.apply #[[$TWICE]](%[[OH]])
// CHECK: tensor.extract_slice %[[XP]][%[[N]], %[[H0]], 0, 0] [1, 1, 4, 3] [1, 1, 2, 1] : tensor<1x9x9x3xi8> to tensor<1x1x4x3xi8>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK: tensor.insert_slice %{{.*}} into %[[ROW]][0, 0, 0, 0, 0, 0] [1, 1, 4, 1, 1, 3] [1, 1, 1, 1, 1, 1] : tensor<1x1x4x3xi8> into tensor<1x1x4x3x3x3xi8>
// CHECK-COUNT-7: tensor.insert_slice
// CHECK: %[[H8:.*]] = affine.apply #[[$TWICE_PLUS_2]](%[[OH]])
// CHECK: tensor.extract_slice %[[XP]][%[[N]], %[[H8]], 2, 0] [1, 1, 4, 3] [1, 1, 2, 1]
// CHECK: %[[LAST:.*]] = tensor.insert_slice %{{.*}}[0, 0, 0, 2, 2, 0] [1, 1, 4, 1, 1, 3]
// CHECK: tensor.insert_slice %[[LAST]] into %[[P1]][%[[N]], %[[OH]], 0, 0, 0, 0] [1, 1, 4, 3, 3, 3]
// CHECK: } {qkernel.parallel_loops}
// CHECK: tensor.collapse_shape %[[PATCHES]] {{\[}}[0, 1, 2], [3, 4, 5]] : tensor<1x4x4x3x3x3xi8> into tensor<16x27xi8>
// CHECK: %[[A:.*]] = builtin.unrealized_conversion_cast %{{.*}} : tensor<16x27xi8> to tensor<16x27xui8>
// CHECK: linalg.transpose ins(%{{.*}} : tensor<4x3x3x3xi8>) outs(%{{.*}} : tensor<3x3x3x4xi8>) permutation = [2, 3, 1, 0]
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3]] : tensor<3x3x3x4xi8> into tensor<27x4xi8>
// CHECK: %[[B:.*]] = builtin.unrealized_conversion_cast %{{.*}} : tensor<27x4xi8> to tensor<27x4xsi8>
// CHECK: %[[Y:.*]] = qkernel.matmul a(%[[A]], %[[XZP]] : tensor<16x27xui8>, tensor<ui8>) b(%[[B]], %[[WZP]] : tensor<27x4xsi8>, tensor<4xsi8>) -> tensor<16x4xi32>
// CHECK: tensor.expand_shape %[[Y]] {{\[}}[0, 1], [2]] output_shape [1, 16, 4] : tensor<16x4xi32> into tensor<1x16x4xi32>
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x16x4xi32>) outs(%{{.*}} : tensor<1x4x16xi32>) permutation = [0, 2, 1]
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3]] output_shape [1, 4, 4, 4] : tensor<1x4x16xi32> into tensor<1x4x4x4xi32>
func.func @conv_pads_strides(%x: tensor<1x3x7x7xui8>, %xzp: tensor<ui8>, %w: tensor<4x3x3x3xsi8>, %wzp: tensor<4xsi8>) -> tensor<1x4x4x4xi32> {
  %y = qops.conv_integer x(%x, %xzp : tensor<1x3x7x7xui8>, tensor<ui8>) w(%w, %wzp : tensor<4x3x3x3xsi8>, tensor<4xsi8>) {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} -> tensor<1x4x4x4xi32>
  return %y : tensor<1x4x4x4xi32>
}

// -----

// No zero point and no pads: no tensor.pad, no zero points on the matmul.
// CHECK-LABEL: func.func @conv_no_zero_point
// CHECK-NOT: tensor.pad
// CHECK: qkernel.matmul a(%{{.*}} : tensor<9x8xsi8>) b(%{{.*}} : tensor<8x2xui8>) -> tensor<9x2xi32>
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

// A dynamic batch: the images' pixels one after the other in a's rows
// ([? * o.., K]), y [?, M] expanded and transposed to [N, M, o..].
// CHECK-LABEL: func.func @conv_dynamic_batch
// CHECK: %[[N:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x6x6x3xi8>
// CHECK: tensor.empty(%[[N]]) : tensor<?x4x4x3x3x3xi8>
// CHECK: qkernel.matmul a(%{{.*}} : tensor<?x27xui8>) b(%{{.*}} : tensor<27x4xui8>) -> tensor<?x4xi32>
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [%{{.*}}, 16, 4] : tensor<?x4xi32> into tensor<?x16x4xi32>
// CHECK: linalg.transpose ins(%{{.*}} : tensor<?x16x4xi32>) outs(%{{.*}} : tensor<?x4x16xi32>) permutation = [0, 2, 1]
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3]] output_shape [%{{.*}}, 4, 4, 4] : tensor<?x4x16xi32> into tensor<?x4x4x4xi32>
func.func @conv_dynamic_batch(%x: tensor<?x3x6x6xui8>, %w: tensor<4x3x3x3xui8>) -> tensor<?x4x4x4xi32> {
  %y = qops.conv_integer x(%x : tensor<?x3x6x6xui8>) w(%w : tensor<4x3x3x3xui8>) -> tensor<?x4x4x4xi32>
  return %y : tensor<?x4x4x4xi32>
}

// -----

// More than kMaxSplitGroups (8) groups: one grouped product, a [G, M/G, K],
// b [G, K, N * o..]; w's per-channel scale and zero
// point as a's per-row parameters [G, M/G, 1]; x's and y's per tensor; the
// requantization is QLinearConv's.
// CHECK-LABEL: func.func @qlinear_conv_groups
// CHECK-SAME: %[[XS:[a-z0-9_]+]]: tensor<f32>, %[[XZP:[a-z0-9_]+]]: tensor<ui8>, %{{[a-z0-9_]+}}: tensor<18x2x3x3xsi8>, %{{[a-z0-9_]+}}: tensor<18xf32>, %{{[a-z0-9_]+}}: tensor<18xsi8>, %[[YS:[a-z0-9_]+]]: tensor<f32>, %[[YZP:[a-z0-9_]+]]: tensor<ui8>
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [9, 2, 18] : tensor<18x18xi8> into tensor<9x2x18xi8>
// x padded, its channels split into groups; a nest over (g, c) marked
// qkernel.parallel_loops writes the patches one channel at a time: in it,
// one copy per tap (9) of the channel's window [N, 1, 1, o..] into its
// place [1, 1, N, o..] of the channel's slice.
// CHECK: %[[XG:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 9, 2, 7, 7] : tensor<1x18x7x7xi8> into tensor<1x9x2x7x7xi8>
// CHECK: %[[PATCHES:.*]] = scf.for %[[G:.*]] = %{{.*}} to %c9
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %c2
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %{{.*}}[%[[G]], %[[C]], 0, 0, 0, 0, 0] [1, 1, 3, 3, 1, 5, 5]
// CHECK: tensor.extract_slice %[[XG]][0, %[[G]], %[[C]], 0, 0] [1, 1, 1, 5, 5] [1, 1, 1, 1, 1]
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x1x1x5x5xi8>) outs(%{{.*}} : tensor<1x1x1x5x5xi8>)
// CHECK: tensor.insert_slice %{{.*}} into %[[SLICE]][0, 0, 0, 0, 0, 0, 0] [1, 1, 1, 1, 1, 5, 5]
// CHECK-COUNT-7: tensor.insert_slice %{{.*}} : tensor<1x1x1x5x5xi8> into tensor<1x1x3x3x1x5x5xi8>
// CHECK: tensor.extract_slice %[[XG]][0, %[[G]], %[[C]], 2, 2] [1, 1, 1, 5, 5] [1, 1, 1, 1, 1]
// CHECK: } {qkernel.parallel_loops}
// CHECK: tensor.collapse_shape %[[PATCHES]] {{\[}}[0], [1, 2, 3], [4, 5, 6]] : tensor<9x2x3x3x1x5x5xi8> into tensor<9x18x25xi8>
// CHECK: %[[WZP:.*]] = builtin.unrealized_conversion_cast %{{.*}} : tensor<9x2x1xi8> to tensor<9x2x1xsi8>
// CHECK: %[[WS:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2]] output_shape [9, 2, 1] : tensor<18xf32> into tensor<9x2x1xf32>
// CHECK: qkernel.matmul a(%{{.*}}, %[[WZP]] : tensor<9x2x18xsi8>, tensor<9x2x1xsi8>) b(%{{.*}}, %[[XZP]] : tensor<9x18x25xui8>, tensor<ui8>)
// CHECK-SAME: requantize(%[[WS]], %[[XS]], %[[YS]], %[[YZP]] : tensor<9x2x1xf32>, tensor<f32>, tensor<f32>, tensor<ui8>) -> tensor<9x2x25xui8>
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<9x2x25xi8> into tensor<18x25xi8>
func.func @qlinear_conv_groups(%x: tensor<1x18x5x5xui8>, %xs: tensor<f32>, %xzp: tensor<ui8>, %w: tensor<18x2x3x3xsi8>, %ws: tensor<18xf32>, %wzp: tensor<18xsi8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<1x18x5x5xui8> {
  %y = qops.qlinear_conv x(%x, %xs, %xzp : tensor<1x18x5x5xui8>, tensor<f32>, tensor<ui8>) w(%w, %ws, %wzp : tensor<18x2x3x3xsi8>, tensor<18xf32>, tensor<18xsi8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) {group = 9 : i64, pads = array<i64: 1, 1, 1, 1>} -> tensor<1x18x5x5xui8>
  return %y : tensor<1x18x5x5xui8>
}

// -----

// 1 < G <= 8 groups of more than one input channel: G convolutions of one
// group (the pixel-rows form each: the group's channels of x made
// channels-last, its patches, its weights transposed as b, so that each
// group's constant weights are packed once), w's per-channel scale and
// zero point sliced to the group's channels as b's per-column parameters,
// each result inserted at its channels of y.
// CHECK-LABEL: func.func @qlinear_conv_split_groups
// CHECK-NOT: qkernel.matmul {{.*}} tensor<3x
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 2, 5, 5] [1, 1, 1, 1] : tensor<1x6x5x5xi8> to tensor<1x2x5x5xi8>
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [2, 2, 3, 3] [1, 1, 1, 1] : tensor<6x2x3x3xi8> to tensor<2x2x3x3xi8>
// CHECK: tensor.extract_slice %{{.*}}[0] [2] [1] : tensor<6xi8> to tensor<2xi8>
// CHECK: tensor.extract_slice %{{.*}}[0] [2] [1] : tensor<6xf32> to tensor<2xf32>
// CHECK: qkernel.matmul a(%{{.*}} : tensor<25x18xui8>, tensor<ui8>) b(%{{.*}} : tensor<18x2xsi8>, tensor<2xsi8>) requantize(%{{.*}} : tensor<f32>, tensor<2xf32>, tensor<f32>, tensor<ui8>) -> tensor<25x2xui8>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0, 0] [1, 2, 5, 5] [1, 1, 1, 1] : tensor<1x2x5x5xi8> into tensor<1x6x5x5xi8>
// CHECK: tensor.extract_slice %{{.*}}[0, 2, 0, 0] [1, 2, 5, 5] [1, 1, 1, 1] : tensor<1x6x5x5xi8> to tensor<1x2x5x5xi8>
// CHECK: tensor.extract_slice %{{.*}}[2, 0, 0, 0] [2, 2, 3, 3] [1, 1, 1, 1] : tensor<6x2x3x3xi8> to tensor<2x2x3x3xi8>
// CHECK: qkernel.matmul
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 2, 0, 0] [1, 2, 5, 5]
// CHECK: tensor.extract_slice %{{.*}}[0, 4, 0, 0] [1, 2, 5, 5]
// CHECK: qkernel.matmul
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 4, 0, 0] [1, 2, 5, 5]
// CHECK-NOT: qkernel.matmul
// CHECK: return
// With a target whose byte products are cheap (amx on sapphirerapids,
// vnni on znver4), 2 to 4 groups are one convolution of all 6 channels
// with block-diagonal weights: w's zero points [6] broadcast over
// [6, 6, 3, 3], each group's rows inserted at its own channels, so that
// w - w_zp is 0 across groups; one matmul over K = 6 x 9, every parameter
// per output channel as it is. On znver3 (madd) the groups stay split.
// DENSE-LABEL: func.func @qlinear_conv_split_groups
// DENSE: linalg.generic {{.*}} ins(%{{.*}} : tensor<6xi8>) outs(%{{.*}} : tensor<6x6x3x3xi8>)
// DENSE: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0, 0] [2, 2, 3, 3] [1, 1, 1, 1] : tensor<2x2x3x3xi8> into tensor<6x6x3x3xi8>
// DENSE: tensor.insert_slice %{{.*}} into %{{.*}}[2, 2, 0, 0] [2, 2, 3, 3] [1, 1, 1, 1] : tensor<2x2x3x3xi8> into tensor<6x6x3x3xi8>
// DENSE: tensor.insert_slice %{{.*}} into %{{.*}}[4, 4, 0, 0] [2, 2, 3, 3] [1, 1, 1, 1] : tensor<2x2x3x3xi8> into tensor<6x6x3x3xi8>
// DENSE: qkernel.matmul a(%{{.*}} : tensor<25x54xui8>, tensor<ui8>) b(%{{.*}} : tensor<54x6xsi8>, tensor<6xsi8>) requantize(%{{.*}} : tensor<f32>, tensor<6xf32>, tensor<f32>, tensor<ui8>) -> tensor<25x6xui8>
// DENSE-NOT: qkernel.matmul
// DENSE: return
// SPLIT-LABEL: func.func @qlinear_conv_split_groups
// SPLIT-COUNT-3: qkernel.matmul {{.*}} -> tensor<25x2xui8>
func.func @qlinear_conv_split_groups(%x: tensor<1x6x5x5xui8>, %xs: tensor<f32>, %xzp: tensor<ui8>, %w: tensor<6x2x3x3xsi8>, %ws: tensor<6xf32>, %wzp: tensor<6xsi8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<1x6x5x5xui8> {
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

// QLinearConv's bias [M] is the product's per-column bias, as it is (G = 1).
// CHECK-LABEL: func.func @qlinear_conv_bias
// CHECK-SAME: %[[BIAS:[a-z0-9_]+]]: tensor<2xi32>
// CHECK: qkernel.matmul a(%{{.*}}, %{{.*}} : tensor<4x9xui8>, tensor<ui8>) b(%{{.*}}, %{{.*}} : tensor<9x2xui8>, tensor<ui8>) bias(%[[BIAS]] : tensor<2xi32>) requantize(
func.func @qlinear_conv_bias(%x: tensor<1x1x4x4xui8>, %s: tensor<f32>, %zp: tensor<ui8>, %w: tensor<2x1x3x3xui8>, %bias: tensor<2xi32>) -> tensor<1x2x2x2xui8> {
  %y = qops.qlinear_conv x(%x, %s, %zp : tensor<1x1x4x4xui8>, tensor<f32>, tensor<ui8>) w(%w, %s, %zp : tensor<2x1x3x3xui8>, tensor<f32>, tensor<ui8>) y(%s, %zp : tensor<f32>, tensor<ui8>) bias(%bias : tensor<2xi32>) -> tensor<1x2x2x2xui8>
  return %y : tensor<1x2x2x2xui8>
}

// -----

// ConvInteger's fused dequantize clause (qops-fuse-qdq) goes to the product
// as a per-output-channel parameter: per column in the pixel-rows form.
// CHECK-LABEL: func.func @conv_dequantize_pixel_rows
// CHECK-SAME: %[[S:[a-z0-9_]+]]: tensor<f32>, %[[O:[a-z0-9_]+]]: tensor<2xf32>
// CHECK: qkernel.matmul a(%{{.*}} : tensor<4x9xui8>) b(%{{.*}} : tensor<9x2xsi8>) dequantize(%[[S]], %[[O]] : tensor<f32>, tensor<2xf32>) -> tensor<4x2xf32>
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x4x2xf32>) outs(%{{.*}} : tensor<1x2x4xf32>)
func.func @conv_dequantize_pixel_rows(%x: tensor<1x1x4x4xui8>, %w: tensor<2x1x3x3xsi8>, %s: tensor<f32>, %o: tensor<2xf32>) -> tensor<1x2x2x2xf32> {
  %y = qops.conv_integer x(%x : tensor<1x1x4x4xui8>) w(%w : tensor<2x1x3x3xsi8>) dequantize(%s, %o : tensor<f32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}

// -----

// In the pointwise form w is a: the clause's [M] parameters are per row,
// [M, 1].
// CHECK-LABEL: func.func @conv_dequantize_pointwise
// CHECK: %[[S:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1]] output_shape [3, 1] : tensor<3xf32> into tensor<3x1xf32>
// CHECK: qkernel.matmul a(%{{.*}} : tensor<3x4xsi8>) b(%{{.*}} : tensor<4x25xui8>) dequantize(%[[S]] : tensor<3x1xf32>) -> tensor<3x25xf32>
func.func @conv_dequantize_pointwise(%x: tensor<1x4x5x5xui8>, %w: tensor<3x4x1x1xsi8>, %s: tensor<3xf32>) -> tensor<1x3x5x5xf32> {
  %y = qops.conv_integer x(%x : tensor<1x4x5x5xui8>) w(%w : tensor<3x4x1x1xsi8>) dequantize(%s : tensor<3xf32>) -> tensor<1x3x5x5xf32>
  return %y : tensor<1x3x5x5xf32>
}

// -----

// Split groups: each group's slice of the clause's [M] parameters, per
// column of its pixel-rows product.
// CHECK-LABEL: func.func @conv_dequantize_groups
// CHECK-SAME: %[[S:[a-z0-9_]+]]: tensor<f32>, %[[OFF:[a-z0-9_]+]]: tensor<4xf32>
// CHECK: %[[O0:.*]] = tensor.extract_slice %[[OFF]][0] [2] [1] : tensor<4xf32> to tensor<2xf32>
// CHECK: qkernel.matmul {{.*}} dequantize(%[[S]], %[[O0]] : tensor<f32>, tensor<2xf32>) -> tensor<9x2xf32>
// CHECK: tensor.insert_slice %{{.*}}[0, 0, 0, 0] [1, 2, 3, 3] [1, 1, 1, 1] : tensor<1x2x3x3xf32> into tensor<1x4x3x3xf32>
// CHECK: %[[O1:.*]] = tensor.extract_slice %[[OFF]][2] [2] [1] : tensor<4xf32> to tensor<2xf32>
// CHECK: qkernel.matmul {{.*}} dequantize(%[[S]], %[[O1]] : tensor<f32>, tensor<2xf32>) -> tensor<9x2xf32>
// CHECK: tensor.insert_slice %{{.*}}[0, 2, 0, 0] [1, 2, 3, 3] [1, 1, 1, 1] : tensor<1x2x3x3xf32> into tensor<1x4x3x3xf32>
// Six groups: dense under amx (up to kMaxDenseGroupsAmx = 8), split under
// vnni (kMaxDenseGroupsVnni = 4: six groups' products cost more than six
// kernels there).
// AMX-LABEL: func.func @conv_six_groups
// AMX: qkernel.matmul a(%{{.*}} : tensor<4x108xui8>) b(%{{.*}} : tensor<108x12xsi8>) -> tensor<4x12xi32>
// AMX-NOT: qkernel.matmul
// AMX: return
// VNNI-LABEL: func.func @conv_six_groups
// VNNI-COUNT-6: qkernel.matmul {{.*}} -> tensor<4x2xi32>
// VNNI: return
func.func @conv_six_groups(%x: tensor<1x12x4x4xui8>, %w: tensor<12x2x3x3xsi8>) -> tensor<1x12x2x2xi32> {
  %y = qops.conv_integer x(%x : tensor<1x12x4x4xui8>) w(%w : tensor<12x2x3x3xsi8>) {group = 6 : i64} -> tensor<1x12x2x2xi32>
  return %y : tensor<1x12x2x2xi32>
}

// -----

// Dense (no w zero point: the blocks off the diagonal are 0): the
// clause's [M] parameters as they are.
// DENSE-LABEL: func.func @conv_dequantize_groups
// DENSE-SAME: %[[S:[a-z0-9_]+]]: tensor<f32>, %[[OFF:[a-z0-9_]+]]: tensor<4xf32>
// DENSE: linalg.fill ins(%{{.*}} : i8) outs(%{{.*}} : tensor<4x4x3x3xi8>)
// DENSE: tensor.insert_slice %{{.*}} into %{{.*}}[2, 2, 0, 0] [2, 2, 3, 3]
// DENSE: qkernel.matmul a(%{{.*}} : tensor<9x36xui8>) b(%{{.*}} : tensor<36x4xsi8>) dequantize(%[[S]], %[[OFF]] : tensor<f32>, tensor<4xf32>) -> tensor<9x4xf32>
func.func @conv_dequantize_groups(%x: tensor<1x4x5x5xui8>, %w: tensor<4x2x3x3xsi8>, %s: tensor<f32>, %o: tensor<4xf32>) -> tensor<1x4x3x3xf32> {
  %y = qops.conv_integer x(%x : tensor<1x4x5x5xui8>) w(%w : tensor<4x2x3x3xsi8>) dequantize(%s, %o : tensor<f32>, tensor<4xf32>) {group = 2 : i64} -> tensor<1x4x3x3xf32>
  return %y : tensor<1x4x3x3xf32>
}

// -----

// Depthwise (G = C = M, DepthwiseConvolution.cpp): no matmul, no patches.
// w - w_zp as i16 taps-major [9, M] (|w - w_zp| <= 255); the channel term
// bias - x_zp * sum_t (w - w_zp) (a reduction over the taps, its init the
// bias); the multiplier (x_scale * w_scale) / y_scale per channel, made
// finite; then one elementwise op over y's [N, M, OH, OW] reading the 9
// windows of x padded with its zero point and each tap's [M] weights; it
// sums x (zero-extended: ui8) * w' (sign-extended from i16: VPMADDWD's
// operands) onto the channel term in i32 and requantizes (f64, round half
// to even, y's zero point, saturated).
// CHECK-LABEL: func.func @qlinear_conv_depthwise
// CHECK-SAME: %[[BIAS:[a-z0-9_]+]]: tensor<4xi32>
// CHECK-NOT: qkernel.matmul
// CHECK: %[[XP:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[WS:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x9xi8>, tensor<4xi8>) outs(%{{.*}} : tensor<9x4xi16>)
// CHECK: arith.extsi
// CHECK: arith.extsi
// CHECK: arith.subi
// CHECK: arith.trunci %{{.*}} : i32 to i16
// CHECK: %[[TERM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[WS]], %{{.*}} : tensor<9x4xi16>, tensor<i8>) outs(%[[BIAS]] : tensor<4xi32>)
// CHECK: arith.extui
// CHECK: arith.extsi %{{.*}} : i16 to i32
// CHECK: arith.muli
// CHECK: arith.subi
// CHECK: %[[WIN0:.*]] = tensor.extract_slice %[[XP]][0, 0, 0, 0] [1, 4, 6, 6] [1, 1, 1, 1] : tensor<1x4x8x8xi8> to tensor<1x4x6x6xi8>
// CHECK-COUNT-7: tensor.extract_slice %[[XP]]
// CHECK: %[[WIN8:.*]] = tensor.extract_slice %[[XP]][0, 0, 2, 2] [1, 4, 6, 6]
// CHECK: %[[W0:.*]] = tensor.extract_slice %[[WS]][0, 0] [1, 4] [1, 1] : tensor<9x4xi16> to tensor<4xi16>
// CHECK-COUNT-7: tensor.extract_slice %[[WS]]
// CHECK: %[[W8:.*]] = tensor.extract_slice %[[WS]][8, 0] [1, 4]
// CHECK: %[[MULT:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<f32>, tensor<4xf32>, tensor<f32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK: arith.mulf
// CHECK: arith.divf
// CHECK: arith.cmpf uno
// CHECK: %[[Y:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]{{.*}} ins(%[[WIN0]], {{.*}}, %[[WIN8]], %[[W0]], {{.*}}, %[[W8]], %[[TERM]], %[[MULT]], %{{.*}} : {{.*}}) outs(%{{.*}} : tensor<1x4x6x6xi8>)
// CHECK-COUNT-9: arith.muli
// CHECK: arith.sitofp %{{.*}} : i32 to f64
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f64
// CHECK: math.roundeven
// CHECK-NOT: arith.cmpf
// CHECK: arith.fptosi
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: builtin.unrealized_conversion_cast %[[Y]] : tensor<1x4x6x6xi8> to tensor<1x4x6x6xui8>
func.func @qlinear_conv_depthwise(%x: tensor<1x4x6x6xui8>, %xs: tensor<f32>, %xzp: tensor<ui8>, %w: tensor<4x1x3x3xsi8>, %ws: tensor<4xf32>, %wzp: tensor<4xsi8>, %ys: tensor<f32>, %yzp: tensor<ui8>, %bias: tensor<4xi32>) -> tensor<1x4x6x6xui8> {
  %y = qops.qlinear_conv x(%x, %xs, %xzp : tensor<1x4x6x6xui8>, tensor<f32>, tensor<ui8>) w(%w, %ws, %wzp : tensor<4x1x3x3xsi8>, tensor<4xf32>, tensor<4xsi8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) bias(%bias : tensor<4xi32>) {group = 4 : i64, pads = array<i64: 1, 1, 1, 1>} -> tensor<1x4x6x6xui8>
  return %y : tensor<1x4x6x6xui8>
}

// -----

// Depthwise ConvInteger with its fused dequantize clause, a dynamic batch,
// strides and dilations: x is si8 without a zero point, so the products
// read x + 128 (the top bit flipped, then zero-extended: VPMADDWD's
// unsigned operand) and the channel term is -128 * sum_t w'; the windows
// are strided slices [?, M, o..] (dims from tensor.dim); y = f32(acc) *
// scale + offset per channel.
// CHECK-LABEL: func.func @conv_depthwise_dequantize
// CHECK-SAME: %[[S:[a-z0-9_]+]]: tensor<3xf32>, %[[O:[a-z0-9_]+]]: tensor<3xf32>
// CHECK-NOT: tensor.pad
// CHECK: %[[TERM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.xori %{{.*}}, %{{.*}} : i8
// CHECK: arith.extui
// CHECK: arith.muli
// CHECK: arith.subi
// CHECK: %[[N:.*]] = tensor.dim
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [%[[N]], 3, 3, 3] [1, 1, 2, 2] : tensor<?x3x7x7xi8> to tensor<?x3x3x3xi8>
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 1] [%[[N]], 3, 3, 3] [1, 1, 2, 2]
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 2, 0] [%[[N]], 3, 3, 3] [1, 1, 2, 2]
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 2, 1] [%[[N]], 3, 3, 3] [1, 1, 2, 2]
// CHECK: tensor.empty(%[[N]]) : tensor<?x3x3x3xf32>
// CHECK: linalg.generic {{.*}} %[[TERM]], %[[S]], %[[O]] : {{.*}}) outs(%{{.*}} : tensor<?x3x3x3xf32>)
// CHECK-COUNT-4: arith.xori
// CHECK: arith.sitofp %{{.*}} : i32 to f32
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @conv_depthwise_dequantize(%x: tensor<?x3x7x7xsi8>, %w: tensor<3x1x2x2xsi8>, %s: tensor<3xf32>, %o: tensor<3xf32>) -> tensor<?x3x3x3xf32> {
  %y = qops.conv_integer x(%x : tensor<?x3x7x7xsi8>) w(%w : tensor<3x1x2x2xsi8>) dequantize(%s, %o : tensor<3xf32>, tensor<3xf32>) {group = 3 : i64, strides = array<i64: 2, 2>, dilations = array<i64: 2, 1>} -> tensor<?x3x3x3xf32>
  return %y : tensor<?x3x3x3xf32>
}

// -----

// Two output channels per group (M = 2 G) is not depthwise: the grouped
// form.
// CHECK-LABEL: func.func @conv_channel_multiplier
// CHECK: qkernel.matmul a(%{{.*}} : tensor<2x2x9xsi8>) b(%{{.*}} : tensor<2x9x9xui8>) -> tensor<2x2x9xi32>
func.func @conv_channel_multiplier(%x: tensor<1x2x5x5xui8>, %w: tensor<4x1x3x3xsi8>) -> tensor<1x4x3x3xi32> {
  %y = qops.conv_integer x(%x : tensor<1x2x5x5xui8>) w(%w : tensor<4x1x3x3xsi8>) {group = 2 : i64} -> tensor<1x4x3x3xi32>
  return %y : tensor<1x4x3x3xi32>
}

// -----

// A depthwise kernel of more than 64 taps (9x9) takes the grouped form. Its
// 81 taps are more than the patch forms unroll (9): in the nest over the
// channels (g, c), one scf.for over the taps t carries the channel's slice;
// t is (kh, kw) = (t floordiv 9, t mod 9), the window starts at x[.., kh,
// kw] and its place at slice[.., kh, kw, ..].
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0) -> (d0 floordiv 9)>
// CHECK-DAG: #[[$COL:.*]] = affine_map<(d0) -> (d0 mod 9)>
// CHECK-LABEL: func.func @conv_depthwise_large_kernel
// CHECK: scf.for %[[G:.*]] = {{.*}} iter_args
// CHECK: scf.for %[[C:.*]] = {{.*}} iter_args
// CHECK: %[[SLICE:.*]] = tensor.extract_slice
// CHECK: %[[TAPS:.*]] = arith.constant 81 : index
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %[[TAPS]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[SLICE]]) -> (tensor<1x1x9x9x1x2x2xi8>)
// CHECK-DAG: %[[KH:.*]] = affine.apply #[[$ROW]](%[[T]])
// CHECK-DAG: %[[KW:.*]] = affine.apply #[[$COL]](%[[T]])
// CHECK: %[[WIN:.*]] = tensor.extract_slice %{{.*}}[0, %[[G]], %[[C]], %[[KH]], %[[KW]]] [1, 1, 1, 2, 2] [1, 1, 1, 1, 1]
// CHECK: %[[PLACE:.*]] = tensor.extract_slice %[[ACC]][0, 0, %[[KH]], %[[KW]], 0, 0, 0] [1, 1, 1, 1, 1, 2, 2]
// CHECK: %[[COPY:.*]] = linalg.generic {{.*}} ins(%[[WIN]] : {{.*}}) outs(%[[PLACE]] : {{.*}})
// CHECK: %[[NEXT:.*]] = tensor.insert_slice %[[COPY]] into %[[ACC]][0, 0, %[[KH]], %[[KW]], 0, 0, 0]
// CHECK: scf.yield %[[NEXT]]
// CHECK-NOT: tensor.insert_slice {{.*}} into %[[ACC]]
// CHECK: qkernel.matmul a(%{{.*}} : tensor<2x1x81xsi8>) b(%{{.*}} : tensor<2x81x4xui8>) -> tensor<2x1x4xi32>
func.func @conv_depthwise_large_kernel(%x: tensor<1x2x10x10xui8>, %w: tensor<2x1x9x9xsi8>) -> tensor<1x2x2x2xi32> {
  %y = qops.conv_integer x(%x : tensor<1x2x10x10xui8>) w(%w : tensor<2x1x9x9xsi8>) {group = 2 : i64} -> tensor<1x2x2x2xi32>
  return %y : tensor<1x2x2x2xi32>
}

// -----

// Depthwise without a bias: every sum is at most 9 * 255 * 255 (< 2^24), so
// the requantization is f32 with one rounding (emitRequantizeSmallSum):
// fma(f32(acc), m, 1.5 * 2^23), clamped to 1.5 * 2^23 + [qmin - zp,
// qmax - zp], its bits less those of 1.5 * 2^23 plus zp; no f64, no
// round instruction.
// CHECK-LABEL: func.func @qlinear_conv_depthwise_small_sums
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK-COUNT-9: arith.muli
// CHECK: arith.sitofp %{{.*}} : i32 to f32
// CHECK: math.fma
// CHECK: arith.maxnumf
// CHECK: arith.minnumf
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK-NOT: math.roundeven
// CHECK: linalg.yield
func.func @qlinear_conv_depthwise_small_sums(%x: tensor<1x4x6x6xui8>, %xs: tensor<f32>, %xzp: tensor<ui8>, %w: tensor<4x1x3x3xsi8>, %ws: tensor<4xf32>, %wzp: tensor<4xsi8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<1x4x6x6xui8> {
  %y = qops.qlinear_conv x(%x, %xs, %xzp : tensor<1x4x6x6xui8>, tensor<f32>, tensor<ui8>) w(%w, %ws, %wzp : tensor<4x1x3x3xsi8>, tensor<4xf32>, tensor<4xsi8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) {group = 4 : i64, pads = array<i64: 1, 1, 1, 1>} -> tensor<1x4x6x6xui8>
  return %y : tensor<1x4x6x6xui8>
}

// -----

// A constant bias counts into the bound: 9 * 255 * 255 + 17000000 > 2^24
// takes the f64 requantization; 9 * 255 * 255 + 1000 the f32 one.
// CHECK-LABEL: func.func @qlinear_conv_depthwise_constant_bias
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK: arith.sitofp %{{.*}} : i32 to f64
// CHECK: math.roundeven
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK: math.fma
// CHECK-NOT: math.roundeven
// CHECK: return
func.func @qlinear_conv_depthwise_constant_bias(%x: tensor<1x4x6x6xui8>, %xs: tensor<f32>, %xzp: tensor<ui8>, %w: tensor<4x1x3x3xsi8>, %ws: tensor<4xf32>, %wzp: tensor<4xsi8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> (tensor<1x4x6x6xui8>, tensor<1x4x6x6xui8>) {
  %big = arith.constant dense<[1, -17000000, 3, 4]> : tensor<4xi32>
  %small = arith.constant dense<[1, -1000, 3, 4]> : tensor<4xi32>
  %y0 = qops.qlinear_conv x(%x, %xs, %xzp : tensor<1x4x6x6xui8>, tensor<f32>, tensor<ui8>) w(%w, %ws, %wzp : tensor<4x1x3x3xsi8>, tensor<4xf32>, tensor<4xsi8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) bias(%big : tensor<4xi32>) {group = 4 : i64, pads = array<i64: 1, 1, 1, 1>} -> tensor<1x4x6x6xui8>
  %y1 = qops.qlinear_conv x(%x, %xs, %xzp : tensor<1x4x6x6xui8>, tensor<f32>, tensor<ui8>) w(%w, %ws, %wzp : tensor<4x1x3x3xsi8>, tensor<4xf32>, tensor<4xsi8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) bias(%small : tensor<4xi32>) {group = 4 : i64, pads = array<i64: 1, 1, 1, 1>} -> tensor<1x4x6x6xui8>
  return %y0, %y1 : tensor<1x4x6x6xui8>, tensor<1x4x6x6xui8>
}

// -----

// A target without a fused multiply-add (x86-64 without FMA3: llvm.fma
// would be a call to fmaf per lane) keeps the f64 requantization; with
// FMA3 (haswell) the f32 one.
// CHECK-LABEL: func.func @depthwise_target_without_fma
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK-NOT: math.fma
// CHECK: math.roundeven
module attributes {qops.target = {cpu = "x86-64", features = "", int8_strategy = #qops.int8_strategy<madd>, triple = "x86_64-unknown-linux-gnu"}} {
  func.func @depthwise_target_without_fma(%x: tensor<1x4x6x6xui8>, %xs: tensor<f32>, %xzp: tensor<ui8>, %w: tensor<4x1x3x3xsi8>, %ws: tensor<4xf32>, %wzp: tensor<4xsi8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<1x4x6x6xui8> {
    %y = qops.qlinear_conv x(%x, %xs, %xzp : tensor<1x4x6x6xui8>, tensor<f32>, tensor<ui8>) w(%w, %ws, %wzp : tensor<4x1x3x3xsi8>, tensor<4xf32>, tensor<4xsi8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) {group = 4 : i64, pads = array<i64: 1, 1, 1, 1>} -> tensor<1x4x6x6xui8>
    return %y : tensor<1x4x6x6xui8>
  }
}

// -----

// CHECK-LABEL: func.func @depthwise_target_with_fma
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK: math.fma
// CHECK-NOT: math.roundeven
// CHECK: return
module attributes {qops.target = {cpu = "haswell", features = "", int8_strategy = #qops.int8_strategy<madd>, triple = "x86_64-unknown-linux-gnu"}} {
  func.func @depthwise_target_with_fma(%x: tensor<1x4x6x6xui8>, %xs: tensor<f32>, %xzp: tensor<ui8>, %w: tensor<4x1x3x3xsi8>, %ws: tensor<4xf32>, %wzp: tensor<4xsi8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<1x4x6x6xui8> {
    %y = qops.qlinear_conv x(%x, %xs, %xzp : tensor<1x4x6x6xui8>, tensor<f32>, tensor<ui8>) w(%w, %ws, %wzp : tensor<4x1x3x3xsi8>, tensor<4xf32>, tensor<4xsi8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) {group = 4 : i64, pads = array<i64: 1, 1, 1, 1>} -> tensor<1x4x6x6xui8>
    return %y : tensor<1x4x6x6xui8>
  }
}
