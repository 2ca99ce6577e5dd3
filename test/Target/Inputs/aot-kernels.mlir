// Three kernels for the ahead-of-time tests (aot-*.test): an int8
// QLinearMatMul with per-column weights, a blocked int4 QuantizeLinear and a
// MatMulInteger (its i32 sums; on the quad strategies with the row-sum and
// column-term corrections of a nonzero per-column b zero point).
func.func @qmm(%a: tensor<13x70xui8>, %b: tensor<70x33xsi8>) -> tensor<13x33xui8> {
  %sa = arith.constant dense<0.05> : tensor<f32>
  %za = arith.constant dense<7> : tensor<ui8>
  %sb = arith.constant dense<[0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.10, 0.11, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.10, 0.11, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.10, 0.11]> : tensor<33xf32>
  %zb = arith.constant dense<-3> : tensor<33xsi8>
  %sy = arith.constant dense<1.5> : tensor<f32>
  %zy = arith.constant dense<120> : tensor<ui8>
  %y = qops.qlinear_matmul a(%a, %sa, %za : tensor<13x70xui8>, tensor<f32>, tensor<ui8>) b(%b, %sb, %zb : tensor<70x33xsi8>, tensor<33xf32>, tensor<33xsi8>) y(%sy, %zy : tensor<f32>, tensor<ui8>) -> tensor<13x33xui8>
  return %y : tensor<13x33xui8>
}

func.func @quantize_blocked(%x: tensor<4x64xf32>, %s: tensor<4x2xf32>, %zp: tensor<4x2xsi4>) -> tensor<4x64xsi4> {
  %y = qops.quantize_linear %x, %s, %zp axis = 1 block_size = 32 : tensor<4x64xf32>, tensor<4x2xf32>, tensor<4x2xsi4> -> tensor<4x64xsi4>
  return %y : tensor<4x64xsi4>
}

func.func @mmi(%a: tensor<13x70xui8>, %b: tensor<70x33xsi8>) -> tensor<13x33xi32> {
  %za = arith.constant dense<7> : tensor<ui8>
  %zb = arith.constant dense<[-3, 0, 5, -128, 127, -3, 0, 5, -128, 127, -3, 0, 5, -128, 127, -3, 0, 5, -128, 127, -3, 0, 5, -128, 127, -3, 0, 5, -128, 127, -3, 0, 5]> : tensor<33xsi8>
  %y = qops.matmul_integer a(%a, %za : tensor<13x70xui8>, tensor<ui8>) b(%b, %zb : tensor<70x33xsi8>, tensor<33xsi8>) -> tensor<13x33xi32>
  return %y : tensor<13x33xi32>
}
