func.func @qdq_matmul(%a: tensor<96x8xui8>, %b: tensor<8x3xsi8>) -> tensor<96x3xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<128> : tensor<ui8>
  %da = qops.dequantize_linear %a, %s, %za : tensor<96x8xui8>, tensor<f32>, tensor<ui8> -> tensor<96x8xf32>
  %db = qops.dequantize_linear %b, %s : tensor<8x3xsi8>, tensor<f32> -> tensor<8x3xf32>
  %e = tensor.empty() : tensor<96x3xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<96x3xf32>) -> tensor<96x3xf32>
  %m = linalg.matmul ins(%da, %db : tensor<96x8xf32>, tensor<8x3xf32>) outs(%init : tensor<96x3xf32>) -> tensor<96x3xf32>
  %y = qops.quantize_linear %m, %s, %za : tensor<96x3xf32>, tensor<f32>, tensor<ui8> -> tensor<96x3xui8>
  return %y : tensor<96x3xui8>
}
