// RUN: quant-opt %s --convert-qops-to-linalg --split-input-file -verify-diagnostics

// Forms whose lowering comes later are reported at the op, not crashed on.

func.func @quantize_to_float8(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xf8E4M3FN> {
  // expected-error @+1 {{quantization to f8E4M3FN is not lowered yet}}
  %y = qops.quantize_linear %x, %s output_dtype = f8E4M3FN : tensor<4xf32>, tensor<f32> -> tensor<4xf8E4M3FN>
  return %y : tensor<4xf8E4M3FN>
}

// -----

func.func @quantize_to_float4(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xf4E2M1FN> {
  // expected-error @+1 {{quantization to f4E2M1FN is not lowered yet}}
  %y = qops.quantize_linear %x, %s output_dtype = f4E2M1FN : tensor<4xf32>, tensor<f32> -> tensor<4xf4E2M1FN>
  return %y : tensor<4xf4E2M1FN>
}

// -----

func.func @quantize_e8m0_scale(%x: tensor<4xf32>, %s: tensor<f8E8M0FNU>) -> tensor<4xui8> {
  // expected-error @+1 {{a scale of f8E8M0FNU is not lowered yet}}
  %y = qops.quantize_linear %x, %s : tensor<4xf32>, tensor<f8E8M0FNU> -> tensor<4xui8>
  return %y : tensor<4xui8>
}

// -----

func.func @dequantize_from_float8(%x: tensor<4xf8E5M2>, %s: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{dequantization from f8E5M2 is not lowered yet}}
  %y = qops.dequantize_linear %x, %s : tensor<4xf8E5M2>, tensor<f32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @dequantize_e8m0_scale(%x: tensor<4xsi8>, %s: tensor<f8E8M0FNU>) -> tensor<4xf32> {
  // expected-error @+1 {{a scale of f8E8M0FNU is not lowered yet}}
  %y = qops.dequantize_linear %x, %s output_dtype = f32 : tensor<4xsi8>, tensor<f8E8M0FNU> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @qmatmul_float8(%a: tensor<2x4xf8E4M3FN>, %as: tensor<f32>, %azp: tensor<f8E4M3FN>, %b: tensor<4x3xf8E4M3FN>, %bs: tensor<f32>, %bzp: tensor<f8E4M3FN>, %ys: tensor<f32>, %yzp: tensor<f8E4M3FN>) -> tensor<2x3xf8E4M3FN> {
  // expected-error @+1 {{qlinear_matmul on f8E4M3FN is not lowered yet}}
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xf8E4M3FN>, tensor<f32>, tensor<f8E4M3FN>) b(%b, %bs, %bzp : tensor<4x3xf8E4M3FN>, tensor<f32>, tensor<f8E4M3FN>) y(%ys, %yzp : tensor<f32>, tensor<f8E4M3FN>) -> tensor<2x3xf8E4M3FN>
  return %y : tensor<2x3xf8E4M3FN>
}
