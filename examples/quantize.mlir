// An example in the qops dialect: the four ONNX quantization operators.
// Try: build/bin/quant-opt examples/quantize.mlir

// Per-tensor uint8 QuantizeLinear (ONNX's test_quantizelinear).
func.func @quantize_per_tensor(%x: tensor<6xf32>, %scale: tensor<f32>, %zp: tensor<ui8>) -> tensor<6xui8> {
  %y = qops.quantize_linear %x, %scale, %zp : tensor<6xf32>, tensor<f32>, tensor<ui8> -> tensor<6xui8>
  return %y : tensor<6xui8>
}

// Blocked int4 weights, as LLM checkpoints store them: one f16 scale per 32
// elements along the last axis, the last block partial.
func.func @dequantize_blocked_int4(%w: tensor<64x100xsi4>, %scale: tensor<64x4xf16>) -> tensor<64x100xf16> {
  %y = qops.dequantize_linear %w, %scale axis = -1 block_size = 32 : tensor<64x100xsi4>, tensor<64x4xf16> -> tensor<64x100xf16>
  return %y : tensor<64x100xf16>
}

func.func @dynamic_quantize(%x: tensor<?x?xf32>) -> (tensor<?x?xui8>, tensor<f32>, tensor<ui8>) {
  %y, %scale, %zp = qops.dynamic_quantize_linear %x : tensor<?x?xf32> -> tensor<?x?xui8>, tensor<f32>, tensor<ui8>
  return %y, %scale, %zp : tensor<?x?xui8>, tensor<f32>, tensor<ui8>
}

// u8 activations x s8 weights with per-column weight scales.
func.func @qlinear_matmul(%a: tensor<8x64xui8>, %as: tensor<f32>, %azp: tensor<ui8>,
                          %b: tensor<64x32xsi8>, %bs: tensor<32xf32>, %bzp: tensor<32xsi8>,
                          %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<8x32xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<8x64xui8>, tensor<f32>, tensor<ui8>)
                           b(%b, %bs, %bzp : tensor<64x32xsi8>, tensor<32xf32>, tensor<32xsi8>)
                           y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<8x32xui8>
  return %y : tensor<8x32xui8>
}
