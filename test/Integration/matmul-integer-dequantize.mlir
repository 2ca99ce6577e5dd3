// The dequantize clause of qops.matmul_integer (y = f32(acc) * scale +
// offset: quantize_dynamic's Cast -> Mul -> Add after MatMulInteger, fused by
// --qops-fuse-qdq) with b an argument: the generic form (2 rows) and the
// packed kernel (70 rows), on every strategy the host runs. Expected values
// from the NumPy reference (Inputs/dequantize_clause.py), never from the
// compiler.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/dequantize_clause.py %t
// RUN: quant-runner %s -e rows2 --input %t/rows2_a.npy --input %t/rows2_b.npy --input %t/rows2_scale.npy --input %t/rows2_offset.npy --expect %t/rows2_expected.npy | FileCheck %s
// RUN: quant-runner %s -e rows70 --input %t/rows70_a.npy --input %t/rows70_b.npy --input %t/rows70_scale.npy --input %t/rows70_offset.npy --expect %t/rows70_expected.npy | FileCheck %s
// RUN: quant-runner %s -e rows70 --threads 2 --input %t/rows70_a.npy --input %t/rows70_b.npy --input %t/rows70_scale.npy --input %t/rows70_offset.npy --expect %t/rows70_expected.npy | FileCheck %s
// RUN: %if avx512vnni || avxvnni %{ quant-runner %s -e rows70 --target-features=-avx512vnni,-avxvnni --input %t/rows70_a.npy --input %t/rows70_b.npy --input %t/rows70_scale.npy --input %t/rows70_offset.npy --expect %t/rows70_expected.npy | FileCheck %s %}
// CHECK: all 1 results match
//
// The comparison is exact: one element one ulp off the reference misses.
// RUN: %expect_exit 1 quant-runner %s -e rows70 --input %t/rows70_a.npy --input %t/rows70_b.npy --input %t/rows70_scale.npy --input %t/rows70_offset.npy --expect %t/rows70_ulp_off.npy | FileCheck %s --check-prefix=MISS
// MISS: result 0: 1 of 2590 elements differ

func.func @rows2(%a: tensor<2x40xui8>, %b: tensor<40x19xsi8>, %s: tensor<19xf32>, %o: tensor<19xf32>) -> tensor<2x19xf32> {
  %zp = arith.constant dense<131> : tensor<ui8>
  %y = qops.matmul_integer a(%a, %zp : tensor<2x40xui8>, tensor<ui8>) b(%b : tensor<40x19xsi8>) dequantize(%s, %o : tensor<19xf32>, tensor<19xf32>) -> tensor<2x19xf32>
  return %y : tensor<2x19xf32>
}

func.func @rows70(%a: tensor<70x45xui8>, %b: tensor<45x37xsi8>, %s: tensor<f32>, %o: tensor<37xf32>) -> tensor<70x37xf32> {
  %zp = arith.constant dense<131> : tensor<ui8>
  %y = qops.matmul_integer a(%a, %zp : tensor<70x45xui8>, tensor<ui8>) b(%b : tensor<45x37xsi8>) dequantize(%s, %o : tensor<f32>, tensor<37xf32>) -> tensor<70x37xf32>
  return %y : tensor<70x37xf32>
}
