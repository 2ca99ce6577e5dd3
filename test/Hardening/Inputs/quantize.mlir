// The function the input-file tests of test/Hardening call: any f32 vector.
func.func @main(%x: tensor<?xf32>, %s: tensor<f32>) -> tensor<?xui8> {
  %y = qops.quantize_linear %x, %s : tensor<?xf32>, tensor<f32> -> tensor<?xui8>
  return %y : tensor<?xui8>
}

func.func @matrix(%x: tensor<?x?xf32>, %s: tensor<f32>) -> tensor<?x?xui8> {
  %y = qops.quantize_linear %x, %s : tensor<?x?xf32>, tensor<f32> -> tensor<?x?xui8>
  return %y : tensor<?x?xui8>
}

func.func @cube(%x: tensor<?x?x?xf32>, %s: tensor<f32>) -> tensor<?x?x?xui8> {
  %y = qops.quantize_linear %x, %s : tensor<?x?x?xf32>, tensor<f32> -> tensor<?x?x?xui8>
  return %y : tensor<?x?x?xui8>
}
