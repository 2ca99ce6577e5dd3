// RUN: quant-opt %s -split-input-file -verify-diagnostics --convert-qops-to-linalg

// The zero-point rules that need an operand's value (ONNX: a float8 zero
// point is 0; an int32 DequantizeLinear input takes no zero point but 0) are
// not in the verifiers, which see the op alone (valid IR must not stop
// verifying when a producer folds into a constant: these functions parse and
// verify, see test/Dialect/QOps/ops.mlir). convert-qops-to-linalg checks
// them before it lowers (checkConstantZeroPoints), as the ONNX importer does
// for initializers.

func.func @quantize_float8_zp(%x: tensor<4xf32>, %s: tensor<f32>) {
  %zp = arith.constant dense<1.0> : tensor<f8E4M3FN>
  // expected-error @+1 {{quantize_float8_zp: a float8 zero point must be 0}}
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xf32>, tensor<f32>, tensor<f8E4M3FN> -> tensor<4xf8E4M3FN>
  return
}

// -----

func.func @dequantize_int32_zp(%x: tensor<4xi32>, %s: tensor<f32>) {
  %zp = arith.constant dense<3> : tensor<i32>
  // expected-error @+1 {{dequantize_int32_zp: an int32 input takes no zero point other than 0}}
  %y = qops.dequantize_linear %x, %s, %zp : tensor<4xi32>, tensor<f32>, tensor<i32> -> tensor<4xf32>
  return
}

// -----

func.func @dequantize_float8_zp(%x: tensor<4xf8E5M2>, %s: tensor<f32>) {
  %zp = arith.constant dense<-2.0> : tensor<1xf8E5M2>
  // expected-error @+1 {{dequantize_float8_zp: a float8 zero point must be 0}}
  %y = qops.dequantize_linear %x, %s, %zp : tensor<4xf8E5M2>, tensor<f32>, tensor<1xf8E5M2> -> tensor<4xf32>
  return
}

// -----

// A zero point known only at run time is not an error: the lowering ignores
// a float8 one (as the ONNX reference does) and subtracts an int32 one.
func.func @runtime_zero_points(%x: tensor<4xi32>, %s: tensor<f32>, %zp: tensor<i32>, %f: tensor<4xf32>, %fzp: tensor<f8E4M3FN>) -> (tensor<4xf32>, tensor<4xf8E4M3FN>) {
  %y = qops.dequantize_linear %x, %s, %zp : tensor<4xi32>, tensor<f32>, tensor<i32> -> tensor<4xf32>
  %q = qops.quantize_linear %f, %s, %fzp : tensor<4xf32>, tensor<f32>, tensor<f8E4M3FN> -> tensor<4xf8E4M3FN>
  return %y, %q : tensor<4xf32>, tensor<4xf8E4M3FN>
}
