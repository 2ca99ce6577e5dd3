// RUN: quant-opt %s -split-input-file -verify-diagnostics

// Every verifier branch of the qops ops, each with its constraint label.

func.func @quantize_x_type(%x: tensor<4xsi8>, %s: tensor<f32>, %zp: tensor<ui8>) {
  // expected-error @+1 {{quantize_x_type: x must be f32, f16, bf16 or i32, got 'si8'}}
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xsi8>, tensor<f32>, tensor<ui8> -> tensor<4xui8>
  return
}

// -----

func.func @quantize_scale_type(%x: tensor<4xf32>, %s: tensor<f64>, %zp: tensor<ui8>) {
  // expected-error @+1 {{quantize_scale_type: y_scale must be f32, f16, bf16, i32 or f8E8M0FNU, got 'f64'}}
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xf32>, tensor<f64>, tensor<ui8> -> tensor<4xui8>
  return
}

// -----

func.func @quantize_precision(%x: tensor<4xf32>, %s: tensor<f32>, %zp: tensor<ui8>) {
  // expected-error @+1 {{quantize_precision: precision must be f32, f16 or bf16, got 'i32'}}
  %y = qops.quantize_linear %x, %s, %zp precision = i32 : tensor<4xf32>, tensor<f32>, tensor<ui8> -> tensor<4xui8>
  return
}

// -----

func.func @quantize_output_dtype_not_quantized(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{quantize_output_dtype: output_dtype must be a quantized type}}
  %y = qops.quantize_linear %x, %s output_dtype = f32 : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return
}

// -----

func.func @quantize_output_dtype_disagrees(%x: tensor<4xf32>, %s: tensor<f32>, %zp: tensor<ui8>) {
  // expected-error @+1 {{quantize_output_dtype: output_dtype 'si8' disagrees with the zero point's type 'ui8'}}
  %y = qops.quantize_linear %x, %s, %zp output_dtype = si8 : tensor<4xf32>, tensor<f32>, tensor<ui8> -> tensor<4xui8>
  return
}

// -----

func.func @quantize_zp_type(%x: tensor<4xf32>, %s: tensor<f32>, %zp: tensor<f32>) {
  // expected-error @+1 {{quantize_zp_type: y_zero_point must have a quantized type, got 'f32'}}
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xf32>, tensor<f32>, tensor<f32> -> tensor<4xf32>
  return
}

// -----

func.func @quantize_zp_type_signless(%x: tensor<4xf32>, %s: tensor<f32>, %zp: tensor<i8>) {
  // expected-error @+1 {{quantize_zp_type: y_zero_point must have a quantized type, got 'i8'}}
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xf32>, tensor<f32>, tensor<i8> -> tensor<4xi8>
  return
}

// -----

func.func @quantize_y_not_quantized(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{quantize_y_type: y must have a quantized type, got 'f32'}}
  %y = qops.quantize_linear %x, %s : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return
}

// -----

func.func @quantize_y_type_mismatch(%x: tensor<4xf32>, %s: tensor<f32>, %zp: tensor<ui8>) {
  // expected-error @+1 {{quantize_y_type: y has element type 'si8' but the zero point / output_dtype give 'ui8'}}
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xf32>, tensor<f32>, tensor<ui8> -> tensor<4xsi8>
  return
}

// -----

func.func @quantize_y_default_u8(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{quantize_y_type: y has element type 'si8' but the zero point / output_dtype give 'ui8'}}
  %y = qops.quantize_linear %x, %s : tensor<4xf32>, tensor<f32> -> tensor<4xsi8>
  return
}

// -----

func.func @quantize_y_shape(%x: tensor<4xf32>, %s: tensor<f32>, %zp: tensor<ui8>) {
  // expected-error @+1 {{quantize_y_shape: y must have the shape of x}}
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xf32>, tensor<f32>, tensor<ui8> -> tensor<5xui8>
  return
}

// -----

func.func @quantize_y_rank(%x: tensor<4xf32>, %s: tensor<f32>, %zp: tensor<ui8>) {
  // expected-error @+1 {{quantize_y_shape: y must have the shape of x}}
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xf32>, tensor<f32>, tensor<ui8> -> tensor<4x1xui8>
  return
}

// -----

func.func @quantize_block_size_range(%x: tensor<4x64xf32>, %s: tensor<4x2xf32>, %zp: tensor<4x2xui8>) {
  // expected-error @+1 {{quantize_block_size_range: block_size must be >= 0, got -1}}
  %y = qops.quantize_linear %x, %s, %zp axis = 1 block_size = -1 : tensor<4x64xf32>, tensor<4x2xf32>, tensor<4x2xui8> -> tensor<4x64xui8>
  return
}

// -----

func.func @quantize_scale_shape_rank0_input(%x: tensor<f32>, %s: tensor<2xf32>, %zp: tensor<2xui8>) {
  // expected-error @+1 {{quantize_scale_shape: a rank-0 input takes a one-element scale}}
  %y = qops.quantize_linear %x, %s, %zp axis = 0 : tensor<f32>, tensor<2xf32>, tensor<2xui8> -> tensor<ui8>
  return
}

// -----

func.func @quantize_axis_required(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %zp: tensor<3xui8>) {
  // expected-error @+1 {{quantize_axis_required: a scale of 'tensor<3xf32>' is per-axis or blocked and needs an axis}}
  %y = qops.quantize_linear %x, %s, %zp : tensor<2x3xf32>, tensor<3xf32>, tensor<3xui8> -> tensor<2x3xui8>
  return
}

// -----

func.func @quantize_axis_range(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %zp: tensor<3xui8>) {
  // expected-error @+1 {{quantize_axis_range: axis 2 is out of range [-2, 1] for an input of rank 2}}
  %y = qops.quantize_linear %x, %s, %zp axis = 2 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xui8> -> tensor<2x3xui8>
  return
}

// -----

func.func @quantize_axis_range_negative(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %zp: tensor<3xui8>) {
  // expected-error @+1 {{quantize_axis_range: axis -3 is out of range [-2, 1]}}
  %y = qops.quantize_linear %x, %s, %zp axis = -3 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xui8> -> tensor<2x3xui8>
  return
}

// -----

func.func @quantize_scale_shape_2d_unblocked(%x: tensor<2x3xf32>, %s: tensor<2x3xf32>, %zp: tensor<2x3xui8>) {
  // expected-error @+1 {{quantize_scale_shape: without block_size the scale must have one element (per-tensor) or be 1-D (per-axis)}}
  %y = qops.quantize_linear %x, %s, %zp axis = 1 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xui8> -> tensor<2x3xui8>
  return
}

// -----

func.func @quantize_per_axis_length(%x: tensor<2x3xf32>, %s: tensor<2xf32>, %zp: tensor<2xui8>) {
  // expected-error @+1 {{quantize_per_axis_length: the per-axis scale has 2 elements but the input has 3 along axis 1}}
  %y = qops.quantize_linear %x, %s, %zp axis = 1 : tensor<2x3xf32>, tensor<2xf32>, tensor<2xui8> -> tensor<2x3xui8>
  return
}

// -----

func.func @quantize_blocked_rank(%x: tensor<4x64xf32>, %s: tensor<2xf32>, %zp: tensor<2xui8>) {
  // expected-error @+1 {{quantize_blocked_shape: a blocked scale must have the input's rank 2}}
  %y = qops.quantize_linear %x, %s, %zp axis = 1 block_size = 32 : tensor<4x64xf32>, tensor<2xf32>, tensor<2xui8> -> tensor<4x64xui8>
  return
}

// -----

func.func @quantize_blocked_other_dim(%x: tensor<4x64xf32>, %s: tensor<3x2xf32>, %zp: tensor<3x2xui8>) {
  // expected-error @+1 {{quantize_blocked_shape: blocked scale dimension 0 is 3 but the input's is 4}}
  %y = qops.quantize_linear %x, %s, %zp axis = 1 block_size = 32 : tensor<4x64xf32>, tensor<3x2xf32>, tensor<3x2xui8> -> tensor<4x64xui8>
  return
}

// -----

func.func @quantize_blocked_range(%x: tensor<4x64xf32>, %s: tensor<4x3xf32>, %zp: tensor<4x3xui8>) {
  // expected-error @+1 {{quantize_blocked_range: block_size 32 makes 2 blocks of the input's 64 elements along axis 1, but the scale has 3 (block_size must be in [22, 31])}}
  %y = qops.quantize_linear %x, %s, %zp axis = 1 block_size = 32 : tensor<4x64xf32>, tensor<4x3xf32>, tensor<4x3xui8> -> tensor<4x64xui8>
  return
}

// -----

func.func @quantize_blocked_range_single_block(%x: tensor<4x64xf32>, %s: tensor<4x1xf32>, %zp: tensor<4x1xui8>) {
  // expected-error @+1 {{quantize_blocked_range: block_size 32 makes 2 blocks of the input's 64 elements along axis 1, but the scale has 1 (block_size must be >= 64)}}
  %y = qops.quantize_linear %x, %s, %zp axis = -1 block_size = 32 : tensor<4x64xf32>, tensor<4x1xf32>, tensor<4x1xui8> -> tensor<4x64xui8>
  return
}

// -----

func.func @quantize_zp_shape(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %zp: tensor<1xui8>) {
  // expected-error @+1 {{quantize_zp_shape: the zero point's shape 'tensor<1xui8>' differs from the scale's 'tensor<3xf32>'}}
  %y = qops.quantize_linear %x, %s, %zp axis = 1 : tensor<2x3xf32>, tensor<3xf32>, tensor<1xui8> -> tensor<2x3xui8>
  return
}

// -----

func.func @dequantize_x_type(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{dequantize_x_type: x must be a quantized type}}
  %y = qops.dequantize_linear %x, %s : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return
}

// -----

func.func @dequantize_x_type_signless(%x: tensor<4xi8>, %s: tensor<f32>) {
  // expected-error @+1 {{dequantize_x_type: x must be a quantized type (ui8, si8, ui16, si16, ui4, si4, ui2, si2, i32, float8 or f4E2M1FN), got 'i8'}}
  %y = qops.dequantize_linear %x, %s : tensor<4xi8>, tensor<f32> -> tensor<4xf32>
  return
}

// -----

func.func @dequantize_scale_type(%x: tensor<4xui8>, %s: tensor<i32>, %zp: tensor<ui8>) {
  // expected-error @+1 {{dequantize_scale_type: x_scale must be f32, f16, bf16 or f8E8M0FNU, got 'i32'}}
  %y = qops.dequantize_linear %x, %s, %zp : tensor<4xui8>, tensor<i32>, tensor<ui8> -> tensor<4xi32>
  return
}

// -----

func.func @dequantize_zp_type(%x: tensor<4xui8>, %s: tensor<f32>, %zp: tensor<si8>) {
  // expected-error @+1 {{dequantize_zp_type: x_zero_point has type 'si8' but x has 'ui8'}}
  %y = qops.dequantize_linear %x, %s, %zp : tensor<4xui8>, tensor<f32>, tensor<si8> -> tensor<4xf32>
  return
}

// -----

func.func @dequantize_output_dtype(%x: tensor<4xui8>, %s: tensor<f32>) {
  // expected-error @+1 {{dequantize_output_dtype: output_dtype must be f32, f16 or bf16, got 'f64'}}
  %y = qops.dequantize_linear %x, %s output_dtype = f64 : tensor<4xui8>, tensor<f32> -> tensor<4xf64>
  return
}

// -----

func.func @dequantize_e8m0_needs_output_dtype(%x: tensor<4xf4E2M1FN>, %s: tensor<f8E8M0FNU>) {
  // expected-error @+1 {{dequantize_output_dtype: an f8E8M0FNU scale needs output_dtype (f32, f16 or bf16)}}
  %y = qops.dequantize_linear %x, %s : tensor<4xf4E2M1FN>, tensor<f8E8M0FNU> -> tensor<4xf32>
  return
}

// -----

func.func @dequantize_y_type_scale(%x: tensor<4xui8>, %s: tensor<f16>) {
  // expected-error @+1 {{dequantize_y_type: y has element type 'f32' but output_dtype / the scale give 'f16'}}
  %y = qops.dequantize_linear %x, %s : tensor<4xui8>, tensor<f16> -> tensor<4xf32>
  return
}

// -----

func.func @dequantize_y_type_output_dtype(%x: tensor<4xui8>, %s: tensor<f32>) {
  // expected-error @+1 {{dequantize_y_type: y has element type 'f32' but output_dtype / the scale give 'bf16'}}
  %y = qops.dequantize_linear %x, %s output_dtype = bf16 : tensor<4xui8>, tensor<f32> -> tensor<4xf32>
  return
}

// -----

func.func @dequantize_y_shape(%x: tensor<4xui8>, %s: tensor<f32>) {
  // expected-error @+1 {{dequantize_y_shape: y must have the shape of x}}
  %y = qops.dequantize_linear %x, %s : tensor<4xui8>, tensor<f32> -> tensor<2x2xf32>
  return
}

// -----

func.func @dequantize_block_size_range(%x: tensor<4x64xui8>, %s: tensor<4x2xf32>, %zp: tensor<4x2xui8>) {
  // expected-error @+1 {{dequantize_block_size_range: block_size must be >= 0, got -1}}
  %y = qops.dequantize_linear %x, %s, %zp axis = 1 block_size = -1 : tensor<4x64xui8>, tensor<4x2xf32>, tensor<4x2xui8> -> tensor<4x64xf32>
  return
}

// -----

func.func @dequantize_scale_shape_rank0_input(%x: tensor<ui8>, %s: tensor<2xf32>, %zp: tensor<2xui8>) {
  // expected-error @+1 {{dequantize_scale_shape: a rank-0 input takes a one-element scale}}
  %y = qops.dequantize_linear %x, %s, %zp axis = 0 : tensor<ui8>, tensor<2xf32>, tensor<2xui8> -> tensor<f32>
  return
}

// -----

func.func @dequantize_axis_required(%x: tensor<2x3xui8>, %s: tensor<3xf32>, %zp: tensor<3xui8>) {
  // expected-error @+1 {{dequantize_axis_required: a scale of 'tensor<3xf32>' is per-axis or blocked and needs an axis}}
  %y = qops.dequantize_linear %x, %s, %zp : tensor<2x3xui8>, tensor<3xf32>, tensor<3xui8> -> tensor<2x3xf32>
  return
}

// -----

func.func @dequantize_axis_range(%x: tensor<2x3xui8>, %s: tensor<3xf32>, %zp: tensor<3xui8>) {
  // expected-error @+1 {{dequantize_axis_range: axis 2 is out of range [-2, 1] for an input of rank 2}}
  %y = qops.dequantize_linear %x, %s, %zp axis = 2 : tensor<2x3xui8>, tensor<3xf32>, tensor<3xui8> -> tensor<2x3xf32>
  return
}

// -----

func.func @dequantize_axis_range_negative(%x: tensor<2x3xui8>, %s: tensor<3xf32>, %zp: tensor<3xui8>) {
  // expected-error @+1 {{dequantize_axis_range: axis -3 is out of range [-2, 1]}}
  %y = qops.dequantize_linear %x, %s, %zp axis = -3 : tensor<2x3xui8>, tensor<3xf32>, tensor<3xui8> -> tensor<2x3xf32>
  return
}

// -----

func.func @dequantize_scale_shape_2d_unblocked(%x: tensor<2x3xui8>, %s: tensor<2x3xf32>, %zp: tensor<2x3xui8>) {
  // expected-error @+1 {{dequantize_scale_shape: without block_size the scale must have one element (per-tensor) or be 1-D (per-axis)}}
  %y = qops.dequantize_linear %x, %s, %zp axis = 1 : tensor<2x3xui8>, tensor<2x3xf32>, tensor<2x3xui8> -> tensor<2x3xf32>
  return
}

// -----

func.func @dequantize_per_axis_length(%x: tensor<2x3xui8>, %s: tensor<2xf32>, %zp: tensor<2xui8>) {
  // expected-error @+1 {{dequantize_per_axis_length: the per-axis scale has 2 elements but the input has 3 along axis 1}}
  %y = qops.dequantize_linear %x, %s, %zp axis = 1 : tensor<2x3xui8>, tensor<2xf32>, tensor<2xui8> -> tensor<2x3xf32>
  return
}

// -----

func.func @dequantize_blocked_rank(%x: tensor<4x64xui8>, %s: tensor<2xf32>, %zp: tensor<2xui8>) {
  // expected-error @+1 {{dequantize_blocked_shape: a blocked scale must have the input's rank 2}}
  %y = qops.dequantize_linear %x, %s, %zp axis = 1 block_size = 32 : tensor<4x64xui8>, tensor<2xf32>, tensor<2xui8> -> tensor<4x64xf32>
  return
}

// -----

func.func @dequantize_blocked_other_dim(%x: tensor<4x64xui8>, %s: tensor<3x2xf32>, %zp: tensor<3x2xui8>) {
  // expected-error @+1 {{dequantize_blocked_shape: blocked scale dimension 0 is 3 but the input's is 4}}
  %y = qops.dequantize_linear %x, %s, %zp axis = 1 block_size = 32 : tensor<4x64xui8>, tensor<3x2xf32>, tensor<3x2xui8> -> tensor<4x64xf32>
  return
}

// -----

func.func @dequantize_blocked_range(%x: tensor<4x64xui8>, %s: tensor<4x3xf32>, %zp: tensor<4x3xui8>) {
  // expected-error @+1 {{dequantize_blocked_range: block_size 32 makes 2 blocks of the input's 64 elements along axis 1, but the scale has 3 (block_size must be in [22, 31])}}
  %y = qops.dequantize_linear %x, %s, %zp axis = 1 block_size = 32 : tensor<4x64xui8>, tensor<4x3xf32>, tensor<4x3xui8> -> tensor<4x64xf32>
  return
}

// -----

func.func @dequantize_blocked_range_single_block(%x: tensor<4x64xui8>, %s: tensor<4x1xf32>, %zp: tensor<4x1xui8>) {
  // expected-error @+1 {{dequantize_blocked_range: block_size 32 makes 2 blocks of the input's 64 elements along axis 1, but the scale has 1 (block_size must be >= 64)}}
  %y = qops.dequantize_linear %x, %s, %zp axis = -1 block_size = 32 : tensor<4x64xui8>, tensor<4x1xf32>, tensor<4x1xui8> -> tensor<4x64xf32>
  return
}

// -----

func.func @dequantize_zp_shape(%x: tensor<2x3xui8>, %s: tensor<3xf32>, %zp: tensor<1xui8>) {
  // expected-error @+1 {{dequantize_zp_shape: the zero point's shape 'tensor<1xui8>' differs from the scale's 'tensor<3xf32>'}}
  %y = qops.dequantize_linear %x, %s, %zp axis = 1 : tensor<2x3xui8>, tensor<3xf32>, tensor<1xui8> -> tensor<2x3xf32>
  return
}

// -----

func.func @dynquant_x_type(%x: tensor<4xf16>) {
  // expected-error @+1 {{dynquant_x_type: x must be f32, got 'f16'}}
  %y, %s, %zp = qops.dynamic_quantize_linear %x : tensor<4xf16> -> tensor<4xui8>, tensor<f32>, tensor<ui8>
  return
}

// -----

func.func @dynquant_y_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{dynquant_y_type: y must be ui8, got 'si8'}}
  %y, %s, %zp = qops.dynamic_quantize_linear %x : tensor<4xf32> -> tensor<4xsi8>, tensor<f32>, tensor<ui8>
  return
}

// -----

func.func @dynquant_y_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{dynquant_y_shape: y must have the shape of x}}
  %y, %s, %zp = qops.dynamic_quantize_linear %x : tensor<4xf32> -> tensor<3xui8>, tensor<f32>, tensor<ui8>
  return
}

// -----

func.func @dynquant_scale_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{dynquant_scale_type: y_scale must be tensor<f32>, got 'tensor<1xf32>'}}
  %y, %s, %zp = qops.dynamic_quantize_linear %x : tensor<4xf32> -> tensor<4xui8>, tensor<1xf32>, tensor<ui8>
  return
}

// -----

func.func @dynquant_zp_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{dynquant_zp_type: y_zero_point must be tensor<ui8>, got 'tensor<si8>'}}
  %y, %s, %zp = qops.dynamic_quantize_linear %x : tensor<4xf32> -> tensor<4xui8>, tensor<f32>, tensor<si8>
  return
}

// -----

func.func @qmatmul_a_type(%a: tensor<2x4xui16>, %as: tensor<f32>, %azp: tensor<ui16>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bzp: tensor<ui8>, %ys: tensor<f32>, %yzp: tensor<ui8>) {
  // expected-error @+1 {{qmatmul_a_type: a must be si8, ui8 or a float8 type, got 'ui16'}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui16>, tensor<f32>, tensor<ui16>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return
}

// -----

func.func @qmatmul_b_type(%a: tensor<2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xsi4>, %bs: tensor<f32>, %bzp: tensor<si4>, %ys: tensor<f32>, %yzp: tensor<ui8>) {
  // expected-error @+1 {{qmatmul_b_type: b must be si8, ui8 or a float8 type, got 'si4'}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xsi4>, tensor<f32>, tensor<si4>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return
}

// -----

func.func @qmatmul_y_type(%a: tensor<2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bzp: tensor<ui8>, %ys: tensor<f32>, %yzp: tensor<i32>) {
  // expected-error @+1 {{qmatmul_y_type: y must be si8, ui8 or a float8 type, got 'i32'}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%ys, %yzp : tensor<f32>, tensor<i32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @qmatmul_zp_type_a(%a: tensor<2x4xui8>, %as: tensor<f32>, %azp: tensor<si8>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bzp: tensor<ui8>, %ys: tensor<f32>, %yzp: tensor<ui8>) {
  // expected-error @+1 {{qmatmul_zp_type: a_zero_point has type 'si8' but a has 'ui8'}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<si8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return
}

// -----

func.func @qmatmul_zp_type_y(%a: tensor<2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bzp: tensor<ui8>, %ys: tensor<f32>, %yzp: tensor<si8>) {
  // expected-error @+1 {{qmatmul_zp_type: y_zero_point has type 'si8' but y has 'ui8'}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%ys, %yzp : tensor<f32>, tensor<si8>) -> tensor<2x3xui8>
  return
}

// -----

func.func @qmatmul_scale_type(%a: tensor<2x4xui8>, %as: tensor<f64>, %azp: tensor<ui8>, %b: tensor<4x3xui8>, %bs: tensor<f64>, %bzp: tensor<ui8>, %ys: tensor<f64>, %yzp: tensor<ui8>) {
  // expected-error @+1 {{qmatmul_scale_type: scales must be f32, f16 or bf16, got 'f64'}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f64>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<f64>, tensor<ui8>) y(%ys, %yzp : tensor<f64>, tensor<ui8>) -> tensor<2x3xui8>
  return
}

// -----

func.func @qmatmul_scale_type_mixed(%a: tensor<2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xui8>, %bs: tensor<f16>, %bzp: tensor<ui8>, %ys: tensor<f32>, %yzp: tensor<ui8>) {
  // expected-error @+1 {{qmatmul_scale_type: all three scales must have one type, got 'f32' and 'f16'}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<f16>, tensor<ui8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return
}

// -----

func.func @qmatmul_rank(%a: tensor<ui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bzp: tensor<ui8>, %ys: tensor<f32>, %yzp: tensor<ui8>) {
  // expected-error @+1 {{qmatmul_rank: a and b must have rank >= 1}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<ui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<3xui8>
  return
}

// -----

func.func @qmatmul_inner_dim(%a: tensor<2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<5x3xui8>, %bs: tensor<f32>, %bzp: tensor<ui8>, %ys: tensor<f32>, %yzp: tensor<ui8>) {
  // expected-error @+1 {{qmatmul_inner_dim: a has K = 4 but b has K = 5}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<5x3xui8>, tensor<f32>, tensor<ui8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return
}

// -----

func.func @qmatmul_batch_broadcast(%a: tensor<2x2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<3x4x3xui8>, %bs: tensor<f32>, %bzp: tensor<ui8>, %ys: tensor<f32>, %yzp: tensor<ui8>) {
  // expected-error @+1 {{qmatmul_batch_broadcast: the batch dimensions of 'tensor<2x2x4xui8>' and 'tensor<3x4x3xui8>' do not broadcast}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<3x4x3xui8>, tensor<f32>, tensor<ui8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x2x3xui8>
  return
}

// -----

func.func @qmatmul_y_shape(%a: tensor<2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bzp: tensor<ui8>, %ys: tensor<f32>, %yzp: tensor<ui8>) {
  // expected-error @+1 {{qmatmul_y_shape: y has type 'tensor<3x2xui8>' but a and b give shape 'tensor<2x3xui8>'}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<3x2xui8>
  return
}

// -----

func.func @qmatmul_y_shape_vector(%a: tensor<4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bzp: tensor<ui8>, %ys: tensor<f32>, %yzp: tensor<ui8>) {
  // expected-error @+1 {{qmatmul_y_shape: y has type 'tensor<1x3xui8>' but a and b give shape 'tensor<3xui8>'}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<1x3xui8>
  return
}

// -----

func.func @qmatmul_a_params_shape_column(%a: tensor<2x4xui8>, %as: tensor<1x4xf32>, %azp: tensor<1x4xui8>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bzp: tensor<ui8>, %ys: tensor<f32>, %yzp: tensor<ui8>) {
  // expected-error @+1 {{qmatmul_a_params_shape: a_scale of 'tensor<1x4xf32>' is not per-tensor or per-row ([M] or [..., M, 1]) for a of 'tensor<2x4xui8>'}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<1x4xf32>, tensor<1x4xui8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return
}

// -----

func.func @qmatmul_a_params_shape_length(%a: tensor<2x4xui8>, %as: tensor<4xf32>, %azp: tensor<4xui8>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bzp: tensor<ui8>, %ys: tensor<f32>, %yzp: tensor<ui8>) {
  // expected-error @+1 {{qmatmul_a_params_shape: a_scale of 'tensor<4xf32>' is not per-tensor or per-row}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<4xf32>, tensor<4xui8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return
}

// -----

func.func @qmatmul_a_params_shape_batch(%a: tensor<2x2x4xui8>, %as: tensor<3x2x1xf32>, %azp: tensor<3x2x1xui8>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bzp: tensor<ui8>, %ys: tensor<f32>, %yzp: tensor<ui8>) {
  // expected-error @+1 {{qmatmul_a_params_shape: a_scale of 'tensor<3x2x1xf32>' is not per-tensor or per-row}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x2x4xui8>, tensor<3x2x1xf32>, tensor<3x2x1xui8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x2x3xui8>
  return
}

// -----

func.func @qmatmul_a_params_shape_vector(%a: tensor<4xui8>, %as: tensor<4xf32>, %azp: tensor<4xui8>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bzp: tensor<ui8>, %ys: tensor<f32>, %yzp: tensor<ui8>) {
  // expected-error @+1 {{qmatmul_a_params_shape: a_scale of 'tensor<4xf32>' is not per-tensor or per-row}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<4xui8>, tensor<4xf32>, tensor<4xui8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<3xui8>
  return
}

// -----

func.func @qmatmul_b_params_shape(%a: tensor<2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xui8>, %bs: tensor<4x1xf32>, %bzp: tensor<4x1xui8>, %ys: tensor<f32>, %yzp: tensor<ui8>) {
  // expected-error @+1 {{qmatmul_b_params_shape: b_scale of 'tensor<4x1xf32>' is not per-tensor or per-column ([N] or [..., 1, N]) for b of 'tensor<4x3xui8>'}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<4x1xf32>, tensor<4x1xui8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return
}

// -----

func.func @qmatmul_b_params_shape_rank(%a: tensor<2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xui8>, %bs: tensor<1x1x3xf32>, %bzp: tensor<1x1x3xui8>, %ys: tensor<f32>, %yzp: tensor<ui8>) {
  // expected-error @+1 {{qmatmul_b_params_shape: b_scale of 'tensor<1x1x3xf32>' is not per-tensor or per-column}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<1x1x3xf32>, tensor<1x1x3xui8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return
}

// -----

func.func @qmatmul_y_params_shape(%a: tensor<2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bzp: tensor<ui8>, %ys: tensor<2x3xf32>, %yzp: tensor<2x3xui8>) {
  // expected-error @+1 {{qmatmul_y_params_shape: y_scale of 'tensor<2x3xf32>' is not per-tensor, per-row ([..., M, 1]) or per-column ([N] or [..., 1, N]) for y of 'tensor<2x3xui8>'}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%ys, %yzp : tensor<2x3xf32>, tensor<2x3xui8>) -> tensor<2x3xui8>
  return
}

// -----

func.func @qmatmul_zp_shape(%a: tensor<2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xui8>, %bs: tensor<3xf32>, %bzp: tensor<1xui8>, %ys: tensor<f32>, %yzp: tensor<ui8>) {
  // expected-error @+1 {{qmatmul_zp_shape: b_zero_point of 'tensor<1xui8>' differs from b_scale of 'tensor<3xf32>'}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<3xf32>, tensor<1xui8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return
}

// -----

// Operand kinds outside the dialect's reach are rejected by the generated
// verifier, with a location, not a crash.
func.func @unranked_operand(%x: tensor<*xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %y = qops.quantize_linear %x, %s : tensor<*xf32>, tensor<f32> -> tensor<4xui8>
  return
}

// -----

func.func @unranked_operand_generic(%x: tensor<*xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of any type values}}
  %y = "qops.quantize_linear"(%x, %s) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<*xf32>, tensor<f32>) -> tensor<4xui8>
  return
}

// -----

func.func @missing_result_type(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{expected '->'}}
  %y = qops.quantize_linear %x, %s : tensor<4xf32>, tensor<f32>
  return
}

// -----

func.func @unknown_keyword(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{expected ':'}}
  %y = qops.quantize_linear %x, %s axes = 1 : tensor<4xf32>, tensor<f32> -> tensor<4xui8>
  return
}

// -----

func.func @axis_not_integer(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint: 64-bit signless integer attribute}}
  %y = qops.quantize_linear %x, %s axis = "one" : tensor<4xf32>, tensor<f32> -> tensor<4xui8>
  return
}

// -----

func.func @matmulint_a_type(%a: tensor<2x4xui16>, %b: tensor<4x3xui8>) {
  // expected-error @+1 {{matmulint_a_type: a must be si8 or ui8, got 'ui16'}}
  %y = qops.matmul_integer a(%a : tensor<2x4xui16>) b(%b : tensor<4x3xui8>) -> tensor<2x3xi32>
  return
}

// -----

func.func @matmulint_b_type(%a: tensor<2x4xui8>, %b: tensor<4x3xf8E4M3FN>) {
  // expected-error @+1 {{matmulint_b_type: b must be si8 or ui8, got 'f8E4M3FN'}}
  %y = qops.matmul_integer a(%a : tensor<2x4xui8>) b(%b : tensor<4x3xf8E4M3FN>) -> tensor<2x3xi32>
  return
}

// -----

func.func @matmulint_zp_type(%a: tensor<2x4xui8>, %azp: tensor<si8>, %b: tensor<4x3xui8>) {
  // expected-error @+1 {{matmulint_zp_type: a_zero_point has type 'si8' but a has 'ui8'}}
  %y = qops.matmul_integer a(%a, %azp : tensor<2x4xui8>, tensor<si8>) b(%b : tensor<4x3xui8>) -> tensor<2x3xi32>
  return
}

// -----

func.func @matmulint_zp_type_b(%a: tensor<2x4xui8>, %b: tensor<4x3xsi8>, %bzp: tensor<ui8>) {
  // expected-error @+1 {{matmulint_zp_type: b_zero_point has type 'ui8' but b has 'si8'}}
  %y = qops.matmul_integer a(%a : tensor<2x4xui8>) b(%b, %bzp : tensor<4x3xsi8>, tensor<ui8>) -> tensor<2x3xi32>
  return
}

// -----

func.func @matmulint_y_type(%a: tensor<2x4xui8>, %b: tensor<4x3xui8>) {
  // expected-error @+1 {{matmulint_y_type: y must be i32 or si32, got 'ui8'}}
  %y = qops.matmul_integer a(%a : tensor<2x4xui8>) b(%b : tensor<4x3xui8>) -> tensor<2x3xui8>
  return
}

// -----

func.func @matmulint_y_type_dequantize(%a: tensor<2x4xui8>, %b: tensor<4x3xui8>, %s: tensor<f32>) {
  // expected-error @+1 {{matmulint_y_type: y must be f32 with dequantize, got 'i32'}}
  %y = qops.matmul_integer a(%a : tensor<2x4xui8>) b(%b : tensor<4x3xui8>) dequantize(%s : tensor<f32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @matmulint_dequantize_offset_alone(%a: tensor<2x4xui8>, %b: tensor<4x3xui8>, %o: tensor<f32>) {
  // expected-error @+1 {{matmulint_dequantize: an offset needs a scale}}
  %y = "qops.matmul_integer"(%a, %b, %o) <{operandSegmentSizes = array<i32: 1, 0, 1, 0, 0, 1>}> : (tensor<2x4xui8>, tensor<4x3xui8>, tensor<f32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @matmulint_dequantize_shape(%a: tensor<2x4xui8>, %b: tensor<4x3xui8>, %s: tensor<2xf32>) {
  // expected-error @+1 {{matmulint_dequantize: the dequantize scale and offset are f32, one element or [3], got 'tensor<2xf32>'}}
  %y = qops.matmul_integer a(%a : tensor<2x4xui8>) b(%b : tensor<4x3xui8>) dequantize(%s : tensor<2xf32>) -> tensor<2x3xf32>
  return
}

// -----

// A 1-D b leaves y no columns: only one-element parameters.
func.func @matmulint_dequantize_vector_b(%a: tensor<2x4xui8>, %b: tensor<4xui8>, %s: tensor<f32>, %o: tensor<2xf32>) {
  // expected-error @+1 {{matmulint_dequantize: the dequantize scale and offset are f32, one element or [1], got 'tensor<2xf32>'}}
  %y = qops.matmul_integer a(%a : tensor<2x4xui8>) b(%b : tensor<4xui8>) dequantize(%s, %o : tensor<f32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @matmulint_rank(%a: tensor<ui8>, %b: tensor<4x3xui8>) {
  // expected-error @+1 {{matmulint_rank: a and b must have rank >= 1}}
  %y = qops.matmul_integer a(%a : tensor<ui8>) b(%b : tensor<4x3xui8>) -> tensor<3xi32>
  return
}

// -----

func.func @matmulint_inner_dim(%a: tensor<2x5xui8>, %b: tensor<4x3xui8>) {
  // expected-error @+1 {{matmulint_inner_dim: a has K = 5 but b has K = 4}}
  %y = qops.matmul_integer a(%a : tensor<2x5xui8>) b(%b : tensor<4x3xui8>) -> tensor<2x3xi32>
  return
}

// -----

func.func @matmulint_batch_broadcast(%a: tensor<2x2x4xui8>, %b: tensor<3x4x3xui8>) {
  // expected-error @+1 {{matmulint_batch_broadcast: the batch dimensions of 'tensor<2x2x4xui8>' and 'tensor<3x4x3xui8>' do not broadcast}}
  %y = qops.matmul_integer a(%a : tensor<2x2x4xui8>) b(%b : tensor<3x4x3xui8>) -> tensor<2x2x3xi32>
  return
}

// -----

func.func @matmulint_y_shape(%a: tensor<2x4xui8>, %b: tensor<4x3xui8>) {
  // expected-error @+1 {{matmulint_y_shape: y has type 'tensor<3x2xi32>' but a and b give shape 'tensor<2x3xi32>'}}
  %y = qops.matmul_integer a(%a : tensor<2x4xui8>) b(%b : tensor<4x3xui8>) -> tensor<3x2xi32>
  return
}

// -----

func.func @matmulint_y_rank(%a: tensor<4xui8>, %b: tensor<4x3xui8>) {
  // expected-error @+1 {{matmulint_y_shape: y has type 'tensor<1x3xi32>' but a and b give shape 'tensor<3xi32>'}}
  %y = qops.matmul_integer a(%a : tensor<4xui8>) b(%b : tensor<4x3xui8>) -> tensor<1x3xi32>
  return
}

// -----

func.func @matmulint_a_zp_shape(%a: tensor<2x4xui8>, %azp: tensor<4xui8>, %b: tensor<4x3xui8>) {
  // expected-error @+1 {{matmulint_a_zp_shape: a_zero_point of 'tensor<4xui8>' is not per-tensor or per-row ([M] or [..., M, 1]) for a of 'tensor<2x4xui8>'}}
  %y = qops.matmul_integer a(%a, %azp : tensor<2x4xui8>, tensor<4xui8>) b(%b : tensor<4x3xui8>) -> tensor<2x3xi32>
  return
}

// -----

func.func @matmulint_a_zp_per_column(%a: tensor<2x4xui8>, %azp: tensor<1x4xui8>, %b: tensor<4x3xui8>) {
  // expected-error @+1 {{matmulint_a_zp_shape: a_zero_point of 'tensor<1x4xui8>' is not per-tensor or per-row ([M] or [..., M, 1]) for a of 'tensor<2x4xui8>'}}
  %y = qops.matmul_integer a(%a, %azp : tensor<2x4xui8>, tensor<1x4xui8>) b(%b : tensor<4x3xui8>) -> tensor<2x3xi32>
  return
}

// -----

func.func @matmulint_b_zp_shape(%a: tensor<2x4xui8>, %b: tensor<4x3xui8>, %bzp: tensor<4x1xui8>) {
  // expected-error @+1 {{matmulint_b_zp_shape: b_zero_point of 'tensor<4x1xui8>' is not per-tensor or per-column ([N] or [..., 1, N]) for b of 'tensor<4x3xui8>'}}
  %y = qops.matmul_integer a(%a : tensor<2x4xui8>) b(%b, %bzp : tensor<4x3xui8>, tensor<4x1xui8>) -> tensor<2x3xi32>
  return
}

// -----

func.func @matmulint_b_zp_vector_b(%a: tensor<2x4xui8>, %b: tensor<4xui8>, %bzp: tensor<2xui8>) {
  // expected-error @+1 {{matmulint_b_zp_shape: b_zero_point of 'tensor<2xui8>' is not per-tensor or per-column ([N] or [..., 1, N]) for b of 'tensor<4xui8>'}}
  %y = qops.matmul_integer a(%a : tensor<2x4xui8>) b(%b, %bzp : tensor<4xui8>, tensor<2xui8>) -> tensor<2xi32>
  return
}

// -----

func.func @conv_x_type(%x: tensor<1x1x4x4xui16>, %w: tensor<1x1x3x3xui8>) {
  // expected-error @+1 {{conv_x_type: x must be si8 or ui8, got 'ui16'}}
  %y = qops.conv_integer x(%x : tensor<1x1x4x4xui16>) w(%w : tensor<1x1x3x3xui8>) -> tensor<1x1x2x2xi32>
  return
}

// -----

func.func @conv_w_type(%x: tensor<1x1x4x4xui8>, %w: tensor<1x1x3x3xi8>) {
  // expected-error @+1 {{conv_w_type: w must be si8 or ui8, got 'i8'}}
  %y = qops.conv_integer x(%x : tensor<1x1x4x4xui8>) w(%w : tensor<1x1x3x3xi8>) -> tensor<1x1x2x2xi32>
  return
}

// -----

func.func @conv_zp_type(%x: tensor<1x1x4x4xui8>, %xzp: tensor<si8>, %w: tensor<1x1x3x3xui8>) {
  // expected-error @+1 {{conv_zp_type: x_zero_point has type 'si8' but x has 'ui8'}}
  %y = qops.conv_integer x(%x, %xzp : tensor<1x1x4x4xui8>, tensor<si8>) w(%w : tensor<1x1x3x3xui8>) -> tensor<1x1x2x2xi32>
  return
}

// -----

func.func @conv_y_type(%x: tensor<1x1x4x4xui8>, %w: tensor<1x1x3x3xui8>) {
  // expected-error @+1 {{conv_y_type: y must be i32 or si32, got 'ui8'}}
  %y = qops.conv_integer x(%x : tensor<1x1x4x4xui8>) w(%w : tensor<1x1x3x3xui8>) -> tensor<1x1x2x2xui8>
  return
}

// -----

func.func @conv_rank(%x: tensor<1x4xui8>, %w: tensor<1x4xui8>) {
  // expected-error @+1 {{conv_rank: x and w must both have rank 3, 4 or 5 (1-D to 3-D NCHW), got 'tensor<1x4xui8>' and 'tensor<1x4xui8>'}}
  %y = qops.conv_integer x(%x : tensor<1x4xui8>) w(%w : tensor<1x4xui8>) -> tensor<1x1xi32>
  return
}

// -----

func.func @conv_attr_size(%x: tensor<1x1x4x4xui8>, %w: tensor<1x1x3x3xui8>) {
  // expected-error @+1 {{conv_attr_size: pads has 2 values, the 2-D convolution needs 4}}
  %y = qops.conv_integer x(%x : tensor<1x1x4x4xui8>) w(%w : tensor<1x1x3x3xui8>) {pads = array<i64: 1, 1>} -> tensor<1x1x2x2xi32>
  return
}

// -----

func.func @conv_attr_value(%x: tensor<1x1x4x4xui8>, %w: tensor<1x1x3x3xui8>) {
  // expected-error @+1 {{conv_attr_value: strides must be >= 1, got 0}}
  %y = qops.conv_integer x(%x : tensor<1x1x4x4xui8>) w(%w : tensor<1x1x3x3xui8>) {strides = array<i64: 1, 0>} -> tensor<1x1x2x2xi32>
  return
}

// -----

func.func @conv_attr_value_group(%x: tensor<1x1x4x4xui8>, %w: tensor<1x1x3x3xui8>) {
  // expected-error @+1 {{conv_attr_value: group must be >= 1, got 0}}
  %y = qops.conv_integer x(%x : tensor<1x1x4x4xui8>) w(%w : tensor<1x1x3x3xui8>) {group = 0 : i64} -> tensor<1x1x2x2xi32>
  return
}

// -----

func.func @conv_group(%x: tensor<1x4x4x4xui8>, %w: tensor<3x2x3x3xui8>) {
  // expected-error @+1 {{conv_group: x has 4 channels and w 3 x 2, which group = 2 does not split (C = group * w's dim 1, group divides M)}}
  %y = qops.conv_integer x(%x : tensor<1x4x4x4xui8>) w(%w : tensor<3x2x3x3xui8>) {group = 2 : i64} -> tensor<1x3x2x2xi32>
  return
}

// -----

func.func @conv_x_zp_shape(%x: tensor<1x1x4x4xui8>, %xzp: tensor<2xui8>, %w: tensor<1x1x3x3xui8>) {
  // expected-error @+1 {{conv_x_zp_shape: x_zero_point must have one element, got 'tensor<2xui8>'}}
  %y = qops.conv_integer x(%x, %xzp : tensor<1x1x4x4xui8>, tensor<2xui8>) w(%w : tensor<1x1x3x3xui8>) -> tensor<1x1x2x2xi32>
  return
}

// -----

func.func @conv_y_type_dequantize(%x: tensor<1x1x4x4xui8>, %w: tensor<1x1x3x3xui8>, %s: tensor<f32>) {
  // expected-error @+1 {{conv_y_type: y must be f32 with dequantize, got 'i32'}}
  %y = qops.conv_integer x(%x : tensor<1x1x4x4xui8>) w(%w : tensor<1x1x3x3xui8>) dequantize(%s : tensor<f32>) -> tensor<1x1x2x2xi32>
  return
}

// -----

func.func @conv_dequantize_offset_alone(%x: tensor<1x1x4x4xui8>, %w: tensor<1x1x3x3xui8>, %o: tensor<f32>) {
  // expected-error @+1 {{conv_dequantize: an offset needs a scale}}
  %y = "qops.conv_integer"(%x, %w, %o) <{operandSegmentSizes = array<i32: 1, 0, 1, 0, 0, 1>}> : (tensor<1x1x4x4xui8>, tensor<1x1x3x3xui8>, tensor<f32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @conv_dequantize_shape(%x: tensor<1x1x4x4xui8>, %w: tensor<2x1x3x3xui8>, %s: tensor<f32>, %o: tensor<1x2x1x1xf32>) {
  // expected-error @+1 {{conv_dequantize: the dequantize scale and offset are f32, one element or [2], got 'tensor<1x2x1x1xf32>'}}
  %y = qops.conv_integer x(%x : tensor<1x1x4x4xui8>) w(%w : tensor<2x1x3x3xui8>) dequantize(%s, %o : tensor<f32>, tensor<1x2x1x1xf32>) -> tensor<1x2x2x2xf32>
  return
}

// -----

func.func @conv_dequantize_type(%x: tensor<1x1x4x4xui8>, %w: tensor<2x1x3x3xui8>, %s: tensor<2xf16>) {
  // expected-error @+1 {{conv_dequantize: the dequantize scale and offset are f32, one element or [2], got 'tensor<2xf16>'}}
  %y = qops.conv_integer x(%x : tensor<1x1x4x4xui8>) w(%w : tensor<2x1x3x3xui8>) dequantize(%s : tensor<2xf16>) -> tensor<1x2x2x2xf32>
  return
}

// -----

func.func @conv_w_zp_shape(%x: tensor<1x1x4x4xui8>, %w: tensor<2x1x3x3xui8>, %wzp: tensor<3xui8>) {
  // expected-error @+1 {{conv_w_zp_shape: w_zero_point of 'tensor<3xui8>' is not one element or [M] with M = 2}}
  %y = qops.conv_integer x(%x : tensor<1x1x4x4xui8>) w(%w, %wzp : tensor<2x1x3x3xui8>, tensor<3xui8>) -> tensor<1x2x2x2xi32>
  return
}

// -----

func.func @conv_y_shape(%x: tensor<1x1x4x4xui8>, %w: tensor<1x1x3x3xui8>) {
  // expected-error @+1 {{conv_y_shape: y has type 'tensor<1x1x4x4xi32>' but x, w and the attributes give shape 'tensor<1x1x2x2xi32>'}}
  %y = qops.conv_integer x(%x : tensor<1x1x4x4xui8>) w(%w : tensor<1x1x3x3xui8>) -> tensor<1x1x4x4xi32>
  return
}

// -----

func.func @conv_y_shape_kernel_too_large(%x: tensor<1x1x4x4xui8>, %w: tensor<1x1x3x3xui8>) {
  // expected-error @+1 {{conv_y_shape: spatial dimension 1 (4, padded by 0 and 0) is shorter than the dilated kernel (3, dilation 2)}}
  %y = qops.conv_integer x(%x : tensor<1x1x4x4xui8>) w(%w : tensor<1x1x3x3xui8>) {dilations = array<i64: 1, 2>} -> tensor<1x1x2x0xi32>
  return
}

// -----

func.func @qlinearconv_y_type(%x: tensor<1x1x4x4xui8>, %s: tensor<f32>, %zp: tensor<ui8>, %w: tensor<1x1x3x3xui8>, %yzp: tensor<i32>) {
  // expected-error @+1 {{conv_y_type: y must be si8 or ui8, got 'i32'}}
  %y = qops.qlinear_conv x(%x, %s, %zp : tensor<1x1x4x4xui8>, tensor<f32>, tensor<ui8>) w(%w, %s, %zp : tensor<1x1x3x3xui8>, tensor<f32>, tensor<ui8>) y(%s, %yzp : tensor<f32>, tensor<i32>) -> tensor<1x1x2x2xi32>
  return
}

// -----

func.func @qlinearconv_y_zp_type(%x: tensor<1x1x4x4xui8>, %s: tensor<f32>, %zp: tensor<ui8>, %w: tensor<1x1x3x3xui8>, %yzp: tensor<si8>) {
  // expected-error @+1 {{conv_zp_type: y_zero_point has type 'si8' but y has 'ui8'}}
  %y = qops.qlinear_conv x(%x, %s, %zp : tensor<1x1x4x4xui8>, tensor<f32>, tensor<ui8>) w(%w, %s, %zp : tensor<1x1x3x3xui8>, tensor<f32>, tensor<ui8>) y(%s, %yzp : tensor<f32>, tensor<si8>) -> tensor<1x1x2x2xui8>
  return
}

// -----

func.func @qlinearconv_scale_type(%x: tensor<1x1x4x4xui8>, %s: tensor<f32>, %h: tensor<f16>, %zp: tensor<ui8>, %w: tensor<1x1x3x3xui8>) {
  // expected-error @+1 {{qlinearconv_scale_type: scales must be f32, got 'f16'}}
  %y = qops.qlinear_conv x(%x, %s, %zp : tensor<1x1x4x4xui8>, tensor<f32>, tensor<ui8>) w(%w, %h, %zp : tensor<1x1x3x3xui8>, tensor<f16>, tensor<ui8>) y(%s, %zp : tensor<f32>, tensor<ui8>) -> tensor<1x1x2x2xui8>
  return
}

// -----

func.func @qlinearconv_params_shape(%x: tensor<1x1x4x4xui8>, %s: tensor<f32>, %s2: tensor<2xf32>, %zp: tensor<ui8>, %w: tensor<1x1x3x3xui8>) {
  // expected-error @+1 {{qlinearconv_params_shape: x's and y's scales and zero points have one element, got 'tensor<2xf32>'}}
  %y = qops.qlinear_conv x(%x, %s, %zp : tensor<1x1x4x4xui8>, tensor<f32>, tensor<ui8>) w(%w, %s, %zp : tensor<1x1x3x3xui8>, tensor<f32>, tensor<ui8>) y(%s2, %zp : tensor<2xf32>, tensor<ui8>) -> tensor<1x1x2x2xui8>
  return
}

// -----

func.func @qlinearconv_w_scale_shape(%x: tensor<1x1x4x4xui8>, %s: tensor<f32>, %s2: tensor<2xf32>, %zp: tensor<ui8>, %w: tensor<1x1x3x3xui8>) {
  // expected-error @+1 {{qlinearconv_params_shape: w_scale of 'tensor<2xf32>' is not one element or [M] with M = 1}}
  %y = qops.qlinear_conv x(%x, %s, %zp : tensor<1x1x4x4xui8>, tensor<f32>, tensor<ui8>) w(%w, %s2, %zp : tensor<1x1x3x3xui8>, tensor<2xf32>, tensor<ui8>) y(%s, %zp : tensor<f32>, tensor<ui8>) -> tensor<1x1x2x2xui8>
  return
}

// -----

func.func @qlinearconv_bias(%x: tensor<1x1x4x4xui8>, %s: tensor<f32>, %zp: tensor<ui8>, %w: tensor<1x1x3x3xui8>, %bias: tensor<2xi32>) {
  // expected-error @+1 {{qlinearconv_bias: bias must be i32 [M] with M = 1, got 'tensor<2xi32>'}}
  %y = qops.qlinear_conv x(%x, %s, %zp : tensor<1x1x4x4xui8>, tensor<f32>, tensor<ui8>) w(%w, %s, %zp : tensor<1x1x3x3xui8>, tensor<f32>, tensor<ui8>) y(%s, %zp : tensor<f32>, tensor<ui8>) bias(%bias : tensor<2xi32>) -> tensor<1x1x2x2xui8>
  return
}
