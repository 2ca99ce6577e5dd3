// RUN: quant-opt %s | quant-opt | FileCheck %s
// RUN: quant-opt %s --mlir-print-op-generic | quant-opt | FileCheck %s

// The int8 kernels' dot op, 8 and 16 lanes, and with
// the maddubs strategy's pair_sums_fit_i16.
// CHECK-LABEL: func.func @dot_u8s8_quads
// CHECK: %{{.*}} = qkernel.dot_u8s8_quads %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK: %{{.*}} = qkernel.dot_u8s8_quads %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK: %{{.*}} = qkernel.dot_u8s8_quads %{{.*}}, %{{.*}}, %{{.*}} {pair_sums_fit_i16} : vector<8xi32>
func.func @dot_u8s8_quads(%acc: vector<8xi32>, %a: vector<8xi32>, %b: vector<8xi32>, %acc16: vector<16xi32>) -> (vector<8xi32>, vector<16xi32>, vector<8xi32>) {
  %r = qkernel.dot_u8s8_quads %acc, %a, %b : vector<8xi32>
  %r16 = qkernel.dot_u8s8_quads %acc16, %acc16, %acc16 : vector<16xi32>
  %rp = qkernel.dot_u8s8_quads %acc, %a, %b {pair_sums_fit_i16} : vector<8xi32>
  return %r, %r16, %rp : vector<8xi32>, vector<16xi32>, vector<8xi32>
}

// CHECK-LABEL: func.func @dot_s8s8_quads
// CHECK: %{{.*}} = qkernel.dot_s8s8_quads %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi32>
func.func @dot_s8s8_quads(%acc: vector<8xi32>) -> vector<8xi32> {
  %r = qkernel.dot_s8s8_quads %acc, %acc, %acc : vector<8xi32>
  return %r : vector<8xi32>
}

// The madd strategy's step: i16 pairs, 4, 8 or 16 i32 lanes.
// CHECK-LABEL: func.func @dot_i16_pairs
// CHECK: %{{.*}} = qkernel.dot_i16_pairs %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi16> -> vector<8xi32>
// CHECK: %{{.*}} = qkernel.dot_i16_pairs %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi16> -> vector<4xi32>
func.func @dot_i16_pairs(%acc: vector<8xi32>, %a: vector<16xi16>, %b: vector<16xi16>, %acc4: vector<4xi32>, %a8: vector<8xi16>) -> (vector<8xi32>, vector<4xi32>) {
  %r = qkernel.dot_i16_pairs %acc, %a, %b : vector<16xi16> -> vector<8xi32>
  %r4 = qkernel.dot_i16_pairs %acc4, %a8, %a8 : vector<8xi16> -> vector<4xi32>
  return %r, %r4 : vector<8xi32>, vector<4xi32>
}

// CHECK-LABEL: func.func @mmla_u8s8
// CHECK: %{{.*}} = qkernel.mmla_u8s8 %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi32>
func.func @mmla_u8s8(%acc: vector<4xi32>, %a: vector<4xi32>, %b: vector<4xi32>) -> vector<4xi32> {
  %r = qkernel.mmla_u8s8 %acc, %a, %b : vector<4xi32>
  return %r : vector<4xi32>
}

// qkernel.matmul, the engine's decomposed contraction: the sums alone
// (MatMulInteger's form, zero points optional), and requantized
// (QLinearMatMul's form).
// CHECK-LABEL: func.func @matmul_sums
// CHECK: qkernel.matmul a(%{{.*}} : tensor<2x4xui8>) b(%{{.*}} : tensor<4x3xsi8>) -> tensor<2x3xi32>
// CHECK: qkernel.matmul a(%{{.*}}, %{{.*}} : tensor<2x4xui8>, tensor<2xui8>) b(%{{.*}} : tensor<4x3xsi8>) -> tensor<2x3xi32>
// CHECK: qkernel.matmul a(%{{.*}} : tensor<2x4xui8>) b(%{{.*}}, %{{.*}} : tensor<4x3xsi8>, tensor<1x3xsi8>) -> tensor<2x3xi32>
func.func @matmul_sums(%a: tensor<2x4xui8>, %azp: tensor<2xui8>, %b: tensor<4x3xsi8>, %bzp: tensor<1x3xsi8>) -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>) {
  %y0 = qkernel.matmul a(%a : tensor<2x4xui8>) b(%b : tensor<4x3xsi8>) -> tensor<2x3xi32>
  %y1 = qkernel.matmul a(%a, %azp : tensor<2x4xui8>, tensor<2xui8>) b(%b : tensor<4x3xsi8>) -> tensor<2x3xi32>
  %y2 = qkernel.matmul a(%a : tensor<2x4xui8>) b(%b, %bzp : tensor<4x3xsi8>, tensor<1x3xsi8>) -> tensor<2x3xi32>
  return %y0, %y1, %y2 : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>
}

// A bias per row of y (QLinearConv's B), added before the requantization.
// CHECK-LABEL: func.func @matmul_bias
// CHECK: qkernel.matmul a(%{{.*}} : tensor<2x4xui8>) b(%{{.*}} : tensor<4x3xsi8>) bias(%{{.*}} : tensor<2x1xi32>) requantize(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<f32>, tensor<f32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
func.func @matmul_bias(%a: tensor<2x4xui8>, %b: tensor<4x3xsi8>, %s: tensor<f32>, %zp: tensor<ui8>, %bias: tensor<2x1xi32>) -> tensor<2x3xui8> {
  %y = qkernel.matmul a(%a : tensor<2x4xui8>) b(%b : tensor<4x3xsi8>) bias(%bias : tensor<2x1xi32>) requantize(%s, %s, %s, %zp : tensor<f32>, tensor<f32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %y : tensor<2x3xui8>
}

// CHECK-LABEL: func.func @matmul_requantized
// CHECK: qkernel.matmul a(%{{.*}}, %{{.*}} : tensor<?x4xui8>, tensor<ui8>) b(%{{.*}}, %{{.*}} : tensor<4x3xsi8>, tensor<si8>)
// CHECK-SAME: requantize(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<f32>, tensor<3xf32>, tensor<f32>, tensor<ui8>) -> tensor<?x3xui8>
func.func @matmul_requantized(%a: tensor<?x4xui8>, %azp: tensor<ui8>, %b: tensor<4x3xsi8>, %bzp: tensor<si8>, %as: tensor<f32>, %bs: tensor<3xf32>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<?x3xui8> {
  %y = qkernel.matmul a(%a, %azp : tensor<?x4xui8>, tensor<ui8>) b(%b, %bzp : tensor<4x3xsi8>, tensor<si8>)
         requantize(%as, %bs, %ys, %yzp : tensor<f32>, tensor<3xf32>, tensor<f32>, tensor<ui8>) -> tensor<?x3xui8>
  return %y : tensor<?x3xui8>
}

// qkernel.pack_b, the pack stage: each layout, dynamic sizes, the flags.
// CHECK-LABEL: func.func @pack_b
// CHECK: qkernel.pack_b pairs %{{.*}}, %{{.*}} {k_step = 2 : i64, panel_columns = 16 : i64} : tensor<1x33x37xi8>, tensor<48xi8> -> tensor<1x3x17x16xi32>
// CHECK: qkernel.pack_b quads %{{.*}}, %{{.*}} {b_unsigned, k_step = 64 : i64, panel_columns = 32 : i64} : tensor<?x?x?xi8>, tensor<i8> -> tensor<?x?x?x32xi32>, tensor<?x?xi32>
// CHECK: qkernel.pack_b octets %{{.*}}, %{{.*}} {k_step = 8 : i64, panel_columns = 16 : i64} : tensor<1x33x37xi8>, tensor<i8> -> tensor<1x3x5x32xi32>, tensor<1x48xi32>
// CHECK: qkernel.pack_b byte_pairs %{{.*}}, %{{.*}} {b_unsigned, k_step = 2 : i64, panel_columns = 16 : i64} : tensor<?x?x?xi8>, tensor<i8> -> tensor<?x?x?x32xi8>
func.func @pack_b(%b: tensor<1x33x37xi8>, %zpn: tensor<48xi8>, %bd: tensor<?x?x?xi8>, %zp: tensor<i8>) {
  %p = qkernel.pack_b pairs %b, %zpn {k_step = 2 : i64, panel_columns = 16 : i64} : tensor<1x33x37xi8>, tensor<48xi8> -> tensor<1x3x17x16xi32>
  %q, %qt = qkernel.pack_b quads %bd, %zp {b_unsigned, k_step = 64 : i64, panel_columns = 32 : i64} : tensor<?x?x?xi8>, tensor<i8> -> tensor<?x?x?x32xi32>, tensor<?x?xi32>
  %o, %ot = qkernel.pack_b octets %b, %zp {k_step = 8 : i64, panel_columns = 16 : i64} : tensor<1x33x37xi8>, tensor<i8> -> tensor<1x3x5x32xi32>, tensor<1x48xi32>
  %y = qkernel.pack_b byte_pairs %bd, %zp {b_unsigned, k_step = 2 : i64, panel_columns = 16 : i64} : tensor<?x?x?xi8>, tensor<i8> -> tensor<?x?x?x32xi8>
  return
}

// qkernel.pack_a: centered (a zero point per row), bytes with row sums and
// rows padded, bytes for SDOT.
// CHECK-LABEL: func.func @pack_a
// CHECK: qkernel.pack_a centered %{{.*}}, %{{.*}} {a_unsigned, k_step = 2 : i64} : tensor<1x5x33xi8>, tensor<5xi8> -> tensor<1x5x34xi16>
// CHECK: qkernel.pack_a bytes %{{.*}} {k_step = 64 : i64, row_multiple = 32 : i64, row_sums} : tensor<?x?x?xi8> -> tensor<?x?x?xi8>, tensor<?x?xi32>
// CHECK: qkernel.pack_a bytes %{{.*}} {k_step = 4 : i64, signed_a} : tensor<1x5x33xi8> -> tensor<1x5x36xi8>
func.func @pack_a(%a: tensor<1x5x33xi8>, %zp: tensor<5xi8>, %ad: tensor<?x?x?xi8>) {
  %c = qkernel.pack_a centered %a, %zp {a_unsigned, k_step = 2 : i64} : tensor<1x5x33xi8>, tensor<5xi8> -> tensor<1x5x34xi16>
  %b, %s = qkernel.pack_a bytes %ad {k_step = 64 : i64, row_sums, row_multiple = 32 : i64} : tensor<?x?x?xi8> -> tensor<?x?x?xi8>, tensor<?x?xi32>
  %d = qkernel.pack_a bytes %a {k_step = 4 : i64, signed_a} : tensor<1x5x33xi8> -> tensor<1x5x36xi8>
  return
}

// qkernel.matmul with the dequantize clause: a scale alone, or with an
// offset per row.
// CHECK-LABEL: func.func @matmul_dequantize
// CHECK: qkernel.matmul a(%{{.*}} : tensor<2x4xui8>) b(%{{.*}} : tensor<4x3xsi8>) dequantize(%{{.*}} : tensor<f32>) -> tensor<2x3xf32>
// CHECK: qkernel.matmul a(%{{.*}} : tensor<2x4xui8>) b(%{{.*}} : tensor<4x3xsi8>) dequantize(%{{.*}}, %{{.*}} : tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
func.func @matmul_dequantize(%a: tensor<2x4xui8>, %b: tensor<4x3xsi8>, %s: tensor<f32>, %c: tensor<3xf32>, %r: tensor<2x1xf32>) {
  %y = qkernel.matmul a(%a : tensor<2x4xui8>) b(%b : tensor<4x3xsi8>) dequantize(%s : tensor<f32>) -> tensor<2x3xf32>
  %z = qkernel.matmul a(%a : tensor<2x4xui8>) b(%b : tensor<4x3xsi8>) dequantize(%c, %r : tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  return
}
