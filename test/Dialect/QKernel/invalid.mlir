// RUN: quant-opt %s -split-input-file -verify-diagnostics

// qkernel.dot_u8s8_quads: 8 or 16 i32 lanes, all operands of the result's type.
func.func @dot_quads_lanes(%v: vector<4xi32>) {
  // expected-error @+1 {{operand #0 must be vector of 32-bit signless integer values of length 8/16}}
  %r = qkernel.dot_u8s8_quads %v, %v, %v : vector<4xi32>
  return
}

// -----

func.func @dot_quads_element(%v: vector<8xf32>) {
  // expected-error @+1 {{operand #0 must be vector of 32-bit signless integer values of length 8/16}}
  %r = qkernel.dot_u8s8_quads %v, %v, %v : vector<8xf32>
  return
}

// -----

func.func @dot_quads_mixed(%a: vector<8xi32>, %b: vector<16xi32>) {
  // expected-error @+1 {{all of {acc, a, b, result} have same type}}
  %r = "qkernel.dot_u8s8_quads"(%a, %a, %b) : (vector<8xi32>, vector<8xi32>, vector<16xi32>) -> vector<8xi32>
  return
}

// -----

// qkernel.dot_i16_pairs: 4, 8 or 16 i32 lanes of acc and result, a and b of
// one type with two i16 lanes per lane of acc.
func.func @dot_pairs_lanes(%acc: vector<2xi32>, %a: vector<4xi16>) {
  // expected-error @+1 {{operand #0 must be vector of 32-bit signless integer values of length 4/8/16}}
  %r = "qkernel.dot_i16_pairs"(%acc, %a, %a) : (vector<2xi32>, vector<4xi16>, vector<4xi16>) -> vector<2xi32>
  return
}

// -----

func.func @dot_pairs_element(%acc: vector<8xi32>, %a: vector<16xi8>) {
  // expected-error @+1 {{operand #1 must be vector of 16-bit signless integer values of length 8/16/32}}
  %r = "qkernel.dot_i16_pairs"(%acc, %a, %a) : (vector<8xi32>, vector<16xi8>, vector<16xi8>) -> vector<8xi32>
  return
}

// -----

func.func @dot_pairs_twice_the_lanes(%acc: vector<8xi32>, %a: vector<8xi16>) {
  // expected-error @+1 {{failed to verify that a has two i16 lanes per lane of acc}}
  %r = "qkernel.dot_i16_pairs"(%acc, %a, %a) : (vector<8xi32>, vector<8xi16>, vector<8xi16>) -> vector<8xi32>
  return
}

// -----

func.func @dot_pairs_operands_differ(%acc: vector<8xi32>, %a: vector<16xi16>, %b: vector<32xi16>) {
  // expected-error @+1 {{all of {a, b} have same type}}
  %r = "qkernel.dot_i16_pairs"(%acc, %a, %b) : (vector<8xi32>, vector<16xi16>, vector<32xi16>) -> vector<8xi32>
  return
}

// -----

func.func @dot_pairs_result(%acc: vector<8xi32>, %a: vector<16xi16>) {
  // expected-error @+1 {{all of {acc, result} have same type}}
  %r = "qkernel.dot_i16_pairs"(%acc, %a, %a) : (vector<8xi32>, vector<16xi16>, vector<16xi16>) -> vector<16xi32>
  return
}

// -----

func.func @dot_s8s8_quads_lanes(%v: vector<2xi32>) {
  // expected-error @+1 {{operand #0 must be vector of 32-bit signless integer values of length 8/16}}
  %r = qkernel.dot_s8s8_quads %v, %v, %v : vector<2xi32>
  return
}

// -----

func.func @dot_s8s8_quads_mixed(%a: vector<8xi32>, %b: vector<16xi32>) {
  // expected-error @+1 {{all of {acc, a, b, result} have same type}}
  %r = "qkernel.dot_s8s8_quads"(%a, %b, %a) : (vector<8xi32>, vector<16xi32>, vector<8xi32>) -> vector<8xi32>
  return
}

// -----

// qkernel.mmla_u8s8: one 128-bit register, 4 i32 lanes, all operands alike.
func.func @mmla_lanes(%v: vector<8xi32>) {
  // expected-error @+1 {{operand #0 must be vector of 32-bit signless integer values of length 4}}
  %r = qkernel.mmla_u8s8 %v, %v, %v : vector<8xi32>
  return
}

// -----

func.func @mmla_mixed(%a: vector<4xi32>, %b: vector<4xf32>) {
  // expected-error @+1 {{operand #2 must be vector of 32-bit signless integer values of length 4}}
  %r = "qkernel.mmla_u8s8"(%a, %a, %b) : (vector<4xi32>, vector<4xi32>, vector<4xf32>) -> vector<4xi32>
  return
}

// -----

// qkernel.matmul: the requantization's four parameters come together.
func.func @matmul_partial_requantize(%a: tensor<2x4xui8>, %b: tensor<4x3xsi8>, %s: tensor<f32>) {
  // expected-error @+1 {{requantize takes a_scale, b_scale, y_scale and y_zero_point together, got 3 of them}}
  %y = "qkernel.matmul"(%a, %b, %s, %s, %s) {operandSegmentSizes = array<i32: 1, 0, 1, 0, 1, 1, 1, 0, 0, 0, 0>} : (tensor<2x4xui8>, tensor<4x3xsi8>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x3xui8>
  return
}

// -----

// qkernel.matmul: a dequantize offset comes with its scale.
func.func @matmul_offset_without_scale(%a: tensor<2x4xui8>, %b: tensor<4x3xsi8>, %o: tensor<f32>) {
  // expected-error @+1 {{a dequantize offset needs a dequantize scale}}
  %y = "qkernel.matmul"(%a, %b, %o) {operandSegmentSizes = array<i32: 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1>} : (tensor<2x4xui8>, tensor<4x3xsi8>, tensor<f32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @matmul_requantize_and_dequantize(%a: tensor<2x4xui8>, %b: tensor<4x3xsi8>, %s: tensor<f32>, %zp: tensor<ui8>) {
  // expected-error @+1 {{requantize and dequantize are exclusive}}
  %y = "qkernel.matmul"(%a, %b, %s, %s, %s, %zp, %s) {operandSegmentSizes = array<i32: 1, 0, 1, 0, 1, 1, 1, 1, 0, 1, 0>} : (tensor<2x4xui8>, tensor<4x3xsi8>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<ui8>, tensor<f32>) -> tensor<2x3xui8>
  return
}

// -----

func.func @matmul_dequantize_y_type(%a: tensor<2x4xui8>, %b: tensor<4x3xsi8>, %s: tensor<f32>) {
  // expected-error @+1 {{y with dequantize holds f32, got 'i32'}}
  %y = qkernel.matmul a(%a : tensor<2x4xui8>) b(%b : tensor<4x3xsi8>) dequantize(%s : tensor<f32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @matmul_dequantize_scale_shape(%a: tensor<2x4xui8>, %b: tensor<4x3xsi8>, %s: tensor<4xf32>) {
  // expected-error @+1 {{the dequantize scale and offset must be f32, per tensor, per row or per column of y, got 'tensor<4xf32>'}}
  %y = qkernel.matmul a(%a : tensor<2x4xui8>) b(%b : tensor<4x3xsi8>) dequantize(%s : tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @matmul_dequantize_offset_type(%a: tensor<2x4xui8>, %b: tensor<4x3xsi8>, %s: tensor<f32>, %o: tensor<3xi32>) {
  // expected-error @+1 {{the dequantize scale and offset must be f32, per tensor, per row or per column of y, got 'tensor<3xi32>'}}
  %y = qkernel.matmul a(%a : tensor<2x4xui8>) b(%b : tensor<4x3xsi8>) dequantize(%s, %o : tensor<f32>, tensor<3xi32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @matmul_rank(%a: tensor<ui8>, %b: tensor<4x3xsi8>) {
  // expected-error @+1 {{a must have rank 1 or more, got 'tensor<ui8>'}}
  %y = qkernel.matmul a(%a : tensor<ui8>) b(%b : tensor<4x3xsi8>) -> tensor<3xi32>
  return
}

// -----

func.func @matmul_element(%a: tensor<2x4xui8>, %b: tensor<4x3xsi16>) {
  // expected-error @+1 {{b must be si8 or ui8, got 'si16'}}
  %y = qkernel.matmul a(%a : tensor<2x4xui8>) b(%b : tensor<4x3xsi16>) -> tensor<2x3xi32>
  return
}

// -----

// float8 operands only with the requantization (QLinearMatMul-21).
func.func @matmul_float8_sums(%a: tensor<2x4xf8E4M3FN>, %b: tensor<4x3xsi8>) {
  // expected-error @+1 {{a must be si8 or ui8, got 'f8E4M3FN'}}
  %y = qkernel.matmul a(%a : tensor<2x4xf8E4M3FN>) b(%b : tensor<4x3xsi8>) -> tensor<2x3xi32>
  return
}

// -----

func.func @matmul_float8_requantized_b(%a: tensor<2x4xui8>, %b: tensor<4x3xi16>, %s: tensor<f32>, %z: tensor<ui8>) {
  // expected-error @+1 {{b must be si8, ui8 or float8, got 'i16'}}
  %y = qkernel.matmul a(%a, %z : tensor<2x4xui8>, tensor<ui8>) b(%b : tensor<4x3xi16>) requantize(%s, %s, %s, %z : tensor<f32>, tensor<f32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return
}

// -----

func.func @matmul_sums_type(%a: tensor<2x4xui8>, %b: tensor<4x3xsi8>) {
  // expected-error @+1 {{y without requantize holds the i32 sums, got 'ui8'}}
  %y = qkernel.matmul a(%a : tensor<2x4xui8>) b(%b : tensor<4x3xsi8>) -> tensor<2x3xui8>
  return
}

// -----

func.func @matmul_zero_point_type(%a: tensor<2x4xui8>, %azp: tensor<si8>, %b: tensor<4x3xsi8>) {
  // expected-error @+1 {{a's zero point must be 'ui8'}}
  %y = qkernel.matmul a(%a, %azp : tensor<2x4xui8>, tensor<si8>) b(%b : tensor<4x3xsi8>) -> tensor<2x3xi32>
  return
}

// -----

func.func @matmul_requantized_y(%a: tensor<2x4xui8>, %z: tensor<ui8>, %b: tensor<4x3xsi8>, %s: tensor<f32>, %yz: tensor<i32>) {
  // expected-error @+1 {{y must be si8, ui8 or float8, got 'i32'}}
  %y = qkernel.matmul a(%a, %z : tensor<2x4xui8>, tensor<ui8>) b(%b : tensor<4x3xsi8>) requantize(%s, %s, %s, %yz : tensor<f32>, tensor<f32>, tensor<f32>, tensor<i32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @matmul_scale_types(%a: tensor<2x4xui8>, %z: tensor<ui8>, %b: tensor<4x3xsi8>, %s: tensor<f32>, %h: tensor<f16>) {
  // expected-error @+1 {{the scales must be f32, f16 or bf16, all of one type}}
  %y = qkernel.matmul a(%a, %z : tensor<2x4xui8>, tensor<ui8>) b(%b : tensor<4x3xsi8>) requantize(%s, %h, %s, %z : tensor<f32>, tensor<f16>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return
}

// -----

func.func @matmul_shapes(%a: tensor<2x4xui8>, %b: tensor<5x3xsi8>) {
  // expected-error @+1 {{a of 'tensor<2x4xui8>' and b of 'tensor<5x3xsi8>' do not give y of 'tensor<2x3xi32>'}}
  %y = qkernel.matmul a(%a : tensor<2x4xui8>) b(%b : tensor<5x3xsi8>) -> tensor<2x3xi32>
  return
}

// -----

func.func @matmul_result_shape(%a: tensor<2x4xui8>, %b: tensor<4x3xsi8>) {
  // expected-error @+1 {{do not give y of 'tensor<3x3xi32>'}}
  %y = qkernel.matmul a(%a : tensor<2x4xui8>) b(%b : tensor<4x3xsi8>) -> tensor<3x3xi32>
  return
}

// -----

// b's zero point per column is [N] or [..., 1, N]; [K] is not.
func.func @matmul_param_shape(%a: tensor<2x4xui8>, %b: tensor<4x3xsi8>, %bzp: tensor<4xsi8>) {
  // expected-error @+1 {{a parameter of b, 'tensor<4xsi8>', is not per tensor, per row or per column}}
  %y = qkernel.matmul a(%a : tensor<2x4xui8>) b(%b, %bzp : tensor<4x3xsi8>, tensor<4xsi8>) -> tensor<2x3xi32>
  return
}

// -----

// qkernel.pack_b: b is [Bb, K, N].
func.func @pack_b_rank(%b: tensor<33x37xi8>, %zp: tensor<i8>) {
  // expected-error @+1 {{b must be [Bb, K, N], got 'tensor<33x37xi8>'}}
  %p = qkernel.pack_b pairs %b, %zp {k_step = 2 : i64, panel_columns = 16 : i64} : tensor<33x37xi8>, tensor<i8> -> tensor<1x3x17x16xi32>
  return
}

// -----

func.func @pack_b_zero_point(%b: tensor<1x33x37xi8>, %zp: tensor<1x48xi8>) {
  // expected-error @+1 {{the zero point must be one element or one per column, got 'tensor<1x48xi8>'}}
  %p = qkernel.pack_b pairs %b, %zp {k_step = 2 : i64, panel_columns = 16 : i64} : tensor<1x33x37xi8>, tensor<1x48xi8> -> tensor<1x3x17x16xi32>
  return
}

// -----

func.func @pack_b_pairs_panel(%b: tensor<1x33x37xi8>, %zp: tensor<i8>) {
  // expected-error @+1 {{panel_columns must be 16 for pairs, got 32}}
  %p = qkernel.pack_b pairs %b, %zp {k_step = 2 : i64, panel_columns = 32 : i64} : tensor<1x33x37xi8>, tensor<i8> -> tensor<1x2x17x32xi32>
  return
}

// -----

func.func @pack_b_quads_panel(%b: tensor<1x33x37xi8>, %zp: tensor<i8>) {
  // expected-error @+1 {{panel_columns must be positive for quads, got 0}}
  %p, %t = qkernel.pack_b quads %b, %zp {k_step = 4 : i64, panel_columns = 0 : i64} : tensor<1x33x37xi8>, tensor<i8> -> tensor<1x3x9x16xi32>, tensor<1x48xi32>
  return
}

// -----

func.func @pack_b_k_step(%b: tensor<1x33x37xi8>, %zp: tensor<i8>) {
  // expected-error @+1 {{k_step must be a positive multiple of 8 for octets, got 4}}
  %p, %t = qkernel.pack_b octets %b, %zp {k_step = 4 : i64, panel_columns = 16 : i64} : tensor<1x33x37xi8>, tensor<i8> -> tensor<1x3x5x32xi32>, tensor<1x48xi32>
  return
}

// -----

func.func @pack_b_pairs_term(%b: tensor<1x33x37xi8>, %zp: tensor<i8>) {
  // expected-error @+1 {{pairs has no column term}}
  %p, %t = qkernel.pack_b pairs %b, %zp {k_step = 2 : i64, panel_columns = 16 : i64} : tensor<1x33x37xi8>, tensor<i8> -> tensor<1x3x17x16xi32>, tensor<1x48xi32>
  return
}

// -----

func.func @pack_b_quads_term(%b: tensor<1x33x37xi8>, %zp: tensor<i8>) {
  // expected-error @+1 {{quads needs a column term}}
  %p = qkernel.pack_b quads %b, %zp {k_step = 4 : i64, panel_columns = 16 : i64} : tensor<1x33x37xi8>, tensor<i8> -> tensor<1x3x9x16xi32>
  return
}

// -----

func.func @pack_b_type(%b: tensor<1x33x37xi8>, %zp: tensor<i8>) {
  // expected-error @+1 {{the packed 'tensor<1x33x37xi8>' has type 'tensor<1x3x9x16xi32>' and a column term of 'tensor<1x48xi32>'}}
  %p, %t = qkernel.pack_b quads %b, %zp {k_step = 4 : i64, panel_columns = 16 : i64} : tensor<1x33x37xi8>, tensor<i8> -> tensor<1x3x8x16xi32>, tensor<1x48xi32>
  return
}

// -----

// qkernel.pack_a: a is [B, M, K].
func.func @pack_a_rank(%a: tensor<5x33xi8>) {
  // expected-error @+1 {{a must be [B, M, K], got 'tensor<5x33xi8>'}}
  %p = qkernel.pack_a bytes %a {k_step = 4 : i64} : tensor<5x33xi8> -> tensor<1x5x36xi8>
  return
}

// -----

func.func @pack_a_centered_zero_point(%a: tensor<1x5x33xi8>) {
  // expected-error @+1 {{centered takes a's zero point}}
  %p = qkernel.pack_a centered %a {k_step = 2 : i64} : tensor<1x5x33xi8> -> tensor<1x5x34xi16>
  return
}

// -----

func.func @pack_a_bytes_zero_point(%a: tensor<1x5x33xi8>, %zp: tensor<i8>) {
  // expected-error @+1 {{bytes takes no zero point}}
  %p = qkernel.pack_a bytes %a, %zp {k_step = 4 : i64} : tensor<1x5x33xi8>, tensor<i8> -> tensor<1x5x36xi8>
  return
}

// -----

func.func @pack_a_zero_point_rank(%a: tensor<1x5x33xi8>, %zp: tensor<5x1xi8>) {
  // expected-error @+1 {{the zero point must be one element or one per row, got 'tensor<5x1xi8>'}}
  %p = qkernel.pack_a centered %a, %zp {k_step = 2 : i64} : tensor<1x5x33xi8>, tensor<5x1xi8> -> tensor<1x5x34xi16>
  return
}

// -----

func.func @pack_a_centered_flags(%a: tensor<1x5x33xi8>, %zp: tensor<i8>) {
  // expected-error @+1 {{signed_a, row_sums and row_multiple are the bytes' flags}}
  %p = qkernel.pack_a centered %a, %zp {k_step = 2 : i64, signed_a} : tensor<1x5x33xi8>, tensor<i8> -> tensor<1x5x34xi16>
  return
}

// -----

func.func @pack_a_k_step(%a: tensor<1x5x33xi8>) {
  // expected-error @+1 {{k_step must be positive and row_multiple not negative}}
  %p = qkernel.pack_a bytes %a {k_step = 0 : i64} : tensor<1x5x33xi8> -> tensor<1x5x33xi8>
  return
}

// -----

func.func @pack_a_row_sums(%a: tensor<1x5x33xi8>) {
  // expected-error @+1 {{the row sums are a result exactly with row_sums}}
  %p, %s = qkernel.pack_a bytes %a {k_step = 4 : i64} : tensor<1x5x33xi8> -> tensor<1x5x36xi8>, tensor<1x5xi32>
  return
}

// -----

func.func @pack_a_type(%a: tensor<1x5x33xi8>) {
  // expected-error @+1 {{the packed 'tensor<1x5x33xi8>' has type 'tensor<1x32x36xi8>' and row sums of 'tensor<1x5xi32>'}}
  %p, %s = qkernel.pack_a bytes %a {k_step = 4 : i64, row_sums, row_multiple = 32 : i64} : tensor<1x5x33xi8> -> tensor<1x5x36xi8>, tensor<1x5xi32>
  return
}

// -----

// Signless i8 is not an ONNX type: its signedness is the math.
func.func @matmul_signless(%a: tensor<2x4xi8>, %b: tensor<4x3xsi8>) {
  // expected-error @+1 {{a must be si8 or ui8, got 'i8'}}
  %y = qkernel.matmul a(%a : tensor<2x4xi8>) b(%b : tensor<4x3xsi8>) -> tensor<2x3xi32>
  return
}

// -----

// f8E8M0FNU is a scale type, not a float8 operand.
func.func @matmul_e8m0(%a: tensor<2x4xf8E8M0FNU>, %b: tensor<4x3xsi8>, %s: tensor<f32>, %z: tensor<ui8>, %bz: tensor<si8>) {
  // expected-error @+1 {{a must be si8, ui8 or float8, got 'f8E8M0FNU'}}
  %y = qkernel.matmul a(%a : tensor<2x4xf8E8M0FNU>) b(%b, %bz : tensor<4x3xsi8>, tensor<si8>) requantize(%s, %s, %s, %z : tensor<f32>, tensor<f32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return
}

// -----

func.func @matmul_f64_scales(%a: tensor<2x4xui8>, %z: tensor<ui8>, %b: tensor<4x3xsi8>, %s: tensor<f64>) {
  // expected-error @+1 {{the scales must be f32, f16 or bf16, all of one type}}
  %y = qkernel.matmul a(%a, %z : tensor<2x4xui8>, tensor<ui8>) b(%b : tensor<4x3xsi8>) requantize(%s, %s, %s, %z : tensor<f64>, tensor<f64>, tensor<f64>, tensor<ui8>) -> tensor<2x3xui8>
  return
}

// -----

// pack_b pairs: the packer writes the pairs of K rounded up to 2 only.
func.func @pack_b_pairs_k_step(%b: tensor<1x33x37xi8>, %zp: tensor<i8>) {
  // expected-error @+1 {{k_step must be 2 for pairs, got 4}}
  %p = qkernel.pack_b pairs %b, %zp {k_step = 4 : i64, panel_columns = 16 : i64} : tensor<1x33x37xi8>, tensor<i8> -> tensor<1x3x18x16xi32>
  return
}

// -----

// pack_b byte_pairs: the pairs' k step, panel and no column term; its bytes
// are i8.
func.func @pack_b_byte_pairs_k_step(%b: tensor<1x33x37xi8>, %zp: tensor<i8>) {
  // expected-error @+1 {{k_step must be 2 for byte_pairs, got 4}}
  %p = qkernel.pack_b byte_pairs %b, %zp {k_step = 4 : i64, panel_columns = 16 : i64} : tensor<1x33x37xi8>, tensor<i8> -> tensor<1x3x18x32xi8>
  return
}

// -----

func.func @pack_b_byte_pairs_panel(%b: tensor<1x33x37xi8>, %zp: tensor<i8>) {
  // expected-error @+1 {{panel_columns must be 16 for byte_pairs, got 32}}
  %p = qkernel.pack_b byte_pairs %b, %zp {k_step = 2 : i64, panel_columns = 32 : i64} : tensor<1x33x37xi8>, tensor<i8> -> tensor<1x2x17x64xi8>
  return
}

// -----

func.func @pack_b_byte_pairs_term(%b: tensor<1x33x37xi8>, %zp: tensor<i8>) {
  // expected-error @+1 {{byte_pairs has no column term}}
  %p, %t = qkernel.pack_b byte_pairs %b, %zp {k_step = 2 : i64, panel_columns = 16 : i64} : tensor<1x33x37xi8>, tensor<i8> -> tensor<1x3x17x32xi8>, tensor<1x48xi32>
  return
}

// -----

func.func @pack_b_byte_pairs_type(%b: tensor<1x33x37xi8>, %zp: tensor<i8>) {
  // expected-error @+1 {{the packed 'tensor<1x33x37xi8>' has type 'tensor<1x3x17x32xi8>'}}
  %p = qkernel.pack_b byte_pairs %b, %zp {k_step = 2 : i64, panel_columns = 16 : i64} : tensor<1x33x37xi8>, tensor<i8> -> tensor<1x3x17x16xi32>
  return
}

// -----

// A zero point per column covers the padded columns (Np = 48 here).
func.func @pack_b_zero_point_length(%b: tensor<1x33x37xi8>, %zp: tensor<37xi8>) {
  // expected-error @+1 {{a zero point per column has the padded columns' length, 48, got 'tensor<37xi8>'}}
  %p, %t = qkernel.pack_b quads %b, %zp {k_step = 4 : i64, panel_columns = 16 : i64} : tensor<1x33x37xi8>, tensor<37xi8> -> tensor<1x3x9x16xi32>, tensor<1x48xi32>
  return
}

// -----

func.func @pack_a_zero_point_length(%a: tensor<1x5x33xi8>, %zp: tensor<4xi8>) {
  // expected-error @+1 {{the zero point must be one element or one per row, got 'tensor<4xi8>' for a of 'tensor<1x5x33xi8>'}}
  %p = qkernel.pack_a centered %a, %zp {k_step = 2 : i64} : tensor<1x5x33xi8>, tensor<4xi8> -> tensor<1x5x34xi16>
  return
}

// -----

// A bias comes with requantize (QLinearConv's B).
func.func @matmul_bias_without_requantize(%a: tensor<2x4xui8>, %b: tensor<4x3xsi8>, %bias: tensor<2x1xi32>) {
  // expected-error @+1 {{a bias needs requantize and int8 operands}}
  %y = qkernel.matmul a(%a : tensor<2x4xui8>) b(%b : tensor<4x3xsi8>) bias(%bias : tensor<2x1xi32>) -> tensor<2x3xi32>
  return
}

// -----

// The bias is i32, per tensor, per row [..., M, 1] or per column of y.
func.func @matmul_bias_shape(%a: tensor<2x4xui8>, %b: tensor<4x3xsi8>, %s: tensor<f32>, %zp: tensor<ui8>, %bias: tensor<2xi32>) {
  // expected-error @+1 {{the bias must be i32, per tensor, per row or per column of y, got 'tensor<2xi32>'}}
  %y = qkernel.matmul a(%a : tensor<2x4xui8>) b(%b : tensor<4x3xsi8>) bias(%bias : tensor<2xi32>) requantize(%s, %s, %s, %zp : tensor<f32>, tensor<f32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return
}
