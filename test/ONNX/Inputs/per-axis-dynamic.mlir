// Used by dynamic-dims.test: per-axis scales on a dynamic axis.
func.func @main(%x: tensor<?xf32>, %s: tensor<?xf32>) -> tensor<?xui8> {
  %y = qops.quantize_linear %x, %s axis = 0 : tensor<?xf32>, tensor<?xf32> -> tensor<?xui8>
  return %y : tensor<?xui8>
}
