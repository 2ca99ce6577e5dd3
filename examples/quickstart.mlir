// The README's quick start: the four operators on constant inputs, lowered
// and JIT-compiled by quant-runner.
//
//   build/bin/quant-runner examples/quickstart.mlir --print

func.func @main() -> (tensor<6xui8>, tensor<2x4xsi4>, tensor<6xui8>, tensor<f32>, tensor<ui8>, tensor<2x3xui8>) {
  // QuantizeLinear (ONNX test_quantizelinear): round(x / 2) + 128, saturated.
  %x = arith.constant dense<[0.0, 2.0, 3.0, 1000.0, -254.0, -1000.0]> : tensor<6xf32>
  %s = arith.constant dense<2.0> : tensor<f32>
  %zp = arith.constant dense<128> : tensor<ui8>
  %q = qops.quantize_linear %x, %s, %zp : tensor<6xf32>, tensor<f32>, tensor<ui8> -> tensor<6xui8>

  // Blocked int4: one scale per 2 elements along the last axis.
  %w = arith.constant dense<[[0.25, -0.5, 3.0, 7.5], [-9.0, 1.0, 0.1, -0.1]]> : tensor<2x4xf32>
  %ws = arith.constant dense<[[0.25, 0.5], [1.0, 0.05]]> : tensor<2x2xf32>
  %wq = qops.quantize_linear %w, %ws axis = 1 block_size = 2 output_dtype = si4 : tensor<2x4xf32>, tensor<2x2xf32> -> tensor<2x4xsi4>

  // DynamicQuantizeLinear (ONNX test_dynamicquantizelinear).
  %d = arith.constant dense<[0.0, 2.0, -3.0, -2.5, 1.34, 0.5]> : tensor<6xf32>
  %dy, %dscale, %dzp = qops.dynamic_quantize_linear %d : tensor<6xf32> -> tensor<6xui8>, tensor<f32>, tensor<ui8>

  // QLinearMatMul (ONNX test_qlinearmatmul_2D, uint8).
  %a = arith.constant dense<[[208, 236, 0, 238], [3, 214, 255, 29]]> : tensor<2x4xui8>
  %as = arith.constant dense<0.0066> : tensor<1xf32>
  %azp = arith.constant dense<113> : tensor<1xui8>
  %b = arith.constant dense<[[152, 51, 244], [60, 26, 255], [0, 127, 246], [127, 254, 247]]> : tensor<4x3xui8>
  %bs = arith.constant dense<0.00705> : tensor<1xf32>
  %bzp = arith.constant dense<114> : tensor<1xui8>
  %ys = arith.constant dense<0.0107> : tensor<1xf32>
  %yzp = arith.constant dense<118> : tensor<1xui8>
  %mm = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<1xf32>, tensor<1xui8>)
                            b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<1xf32>, tensor<1xui8>)
                            y(%ys, %yzp : tensor<1xf32>, tensor<1xui8>) -> tensor<2x3xui8>

  return %q, %wq, %dy, %dscale, %dzp, %mm : tensor<6xui8>, tensor<2x4xsi4>, tensor<6xui8>, tensor<f32>, tensor<ui8>, tensor<2x3xui8>
}
