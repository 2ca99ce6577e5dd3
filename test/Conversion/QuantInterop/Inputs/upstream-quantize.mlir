// The upstream-only half of jit-rounding-vs-upstream.mlir: the same
// quantizations, returning the storage integers through quant.scast so that
// upstream --lower-quant-ops can lower them (not a test by itself).

func.func @quantize_zp0(%x: tensor<7xf32>) -> tensor<7xi8> {
  %q = quant.qcast %x : tensor<7xf32> to tensor<7x!quant.uniform<i8:f32, 1.0>>
  %s = quant.scast %q : tensor<7x!quant.uniform<i8:f32, 1.0>> to tensor<7xi8>
  return %s : tensor<7xi8>
}

func.func @quantize_zp3(%x: tensor<7xf32>) -> tensor<7xi8> {
  %q = quant.qcast %x : tensor<7xf32> to tensor<7x!quant.uniform<i8:f32, 1.0:3>>
  %s = quant.scast %q : tensor<7x!quant.uniform<i8:f32, 1.0:3>> to tensor<7xi8>
  return %s : tensor<7xi8>
}
