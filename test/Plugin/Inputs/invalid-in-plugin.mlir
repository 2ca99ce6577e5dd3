func.func @bad_zero_point(%x: tensor<4xf32>, %s: tensor<f32>, %zp: tensor<si8>) -> tensor<4xui8> {
  // expected-error @+1 {{quantize_y_type: y has element type 'ui8' but the zero point / output_dtype give 'si8'}}
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xf32>, tensor<f32>, tensor<si8> -> tensor<4xui8>
  return %y : tensor<4xui8>
}
