// Integration tests of the float kernel's weight-only form
// (FloatMatMulWeights.cpp): y = x DQ(q) with q si2/ui2/si4/ui4/si8/ui8,
// blocked along K (also a last partial block), per column or per tensor,
// with and without zero points, short and tall x, through quant-runner,
// against the NumPy reference of Inputs/weight_only.py: DequantizeLinear
// then MatMul as ONNX defines them (bit-exact: the kernel dequantizes by the
// same formula and sums in the same order), and with --float-fma. Where the
// host's default tile is zmm (ymm), --target-features=-avx512f (-avx2) runs
// the narrower tile too; 2 threads split the tiles. int8_zp / int8_nozp:
// the matmul marked qops.accuracy_level = 4 (as MatMulNBits at level 4 is
// imported) takes int8 activations (FloatMatMulInt8.cpp), against the
// NumPy emulation of that arithmetic (qops_ref.matmul_nbits_int8), on each
// dot product the host runs.

// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/weight_only.py %t

// RUN: quant-runner %s -e w4_short --input %t/w4_short_in0.npy --input %t/w4_short_in1.npy --input %t/w4_short_in2.npy --input %t/w4_short_in3.npy --expect %t/w4_short_out.npy | FileCheck %s
// RUN: quant-runner %s -e w4_short --float-fma --input %t/w4_short_in0.npy --input %t/w4_short_in1.npy --input %t/w4_short_in2.npy --input %t/w4_short_in3.npy --expect %t/w4_short_fma.npy | FileCheck %s
// RUN: quant-runner %s -e w4_short --threads 2 --input %t/w4_short_in0.npy --input %t/w4_short_in1.npy --input %t/w4_short_in2.npy --input %t/w4_short_in3.npy --expect %t/w4_short_out.npy | FileCheck %s
// RUN: %if avx512 %{ quant-runner %s -e w4_short --target-features=-avx512f --input %t/w4_short_in0.npy --input %t/w4_short_in1.npy --input %t/w4_short_in2.npy --input %t/w4_short_in3.npy --expect %t/w4_short_out.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e w4_short --target-features=-avx2 --input %t/w4_short_in0.npy --input %t/w4_short_in1.npy --input %t/w4_short_in2.npy --input %t/w4_short_in3.npy --expect %t/w4_short_out.npy | FileCheck %s %}
// RUN: quant-runner %s -e w4_tall --input %t/w4_tall_in0.npy --input %t/w4_tall_in1.npy --input %t/w4_tall_in2.npy --input %t/w4_tall_in3.npy --expect %t/w4_tall_out.npy | FileCheck %s
// RUN: quant-runner %s -e w4_tall --float-fma --input %t/w4_tall_in0.npy --input %t/w4_tall_in1.npy --input %t/w4_tall_in2.npy --input %t/w4_tall_in3.npy --expect %t/w4_tall_fma.npy | FileCheck %s
// RUN: quant-runner %s -e w4_tall --threads 2 --input %t/w4_tall_in0.npy --input %t/w4_tall_in1.npy --input %t/w4_tall_in2.npy --input %t/w4_tall_in3.npy --expect %t/w4_tall_out.npy | FileCheck %s
// RUN: %if avx512 %{ quant-runner %s -e w4_tall --target-features=-avx512f --input %t/w4_tall_in0.npy --input %t/w4_tall_in1.npy --input %t/w4_tall_in2.npy --input %t/w4_tall_in3.npy --expect %t/w4_tall_out.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e w4_tall --target-features=-avx2 --input %t/w4_tall_in0.npy --input %t/w4_tall_in1.npy --input %t/w4_tall_in2.npy --input %t/w4_tall_in3.npy --expect %t/w4_tall_out.npy | FileCheck %s %}
// RUN: quant-runner %s -e w4_partial --input %t/w4_partial_in0.npy --input %t/w4_partial_in1.npy --input %t/w4_partial_in2.npy --expect %t/w4_partial_out.npy | FileCheck %s
// RUN: quant-runner %s -e w4_partial --float-fma --input %t/w4_partial_in0.npy --input %t/w4_partial_in1.npy --input %t/w4_partial_in2.npy --expect %t/w4_partial_fma.npy | FileCheck %s
// RUN: quant-runner %s -e w4_partial --threads 2 --input %t/w4_partial_in0.npy --input %t/w4_partial_in1.npy --input %t/w4_partial_in2.npy --expect %t/w4_partial_out.npy | FileCheck %s
// RUN: %if avx512 %{ quant-runner %s -e w4_partial --target-features=-avx512f --input %t/w4_partial_in0.npy --input %t/w4_partial_in1.npy --input %t/w4_partial_in2.npy --expect %t/w4_partial_out.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e w4_partial --target-features=-avx2 --input %t/w4_partial_in0.npy --input %t/w4_partial_in1.npy --input %t/w4_partial_in2.npy --expect %t/w4_partial_out.npy | FileCheck %s %}
// RUN: quant-runner %s -e w2_blocked --input %t/w2_blocked_in0.npy --input %t/w2_blocked_in1.npy --input %t/w2_blocked_in2.npy --input %t/w2_blocked_in3.npy --expect %t/w2_blocked_out.npy | FileCheck %s
// RUN: quant-runner %s -e w2_blocked --float-fma --input %t/w2_blocked_in0.npy --input %t/w2_blocked_in1.npy --input %t/w2_blocked_in2.npy --input %t/w2_blocked_in3.npy --expect %t/w2_blocked_fma.npy | FileCheck %s
// RUN: quant-runner %s -e w2_blocked --threads 2 --input %t/w2_blocked_in0.npy --input %t/w2_blocked_in1.npy --input %t/w2_blocked_in2.npy --input %t/w2_blocked_in3.npy --expect %t/w2_blocked_out.npy | FileCheck %s
// RUN: %if avx512 %{ quant-runner %s -e w2_blocked --target-features=-avx512f --input %t/w2_blocked_in0.npy --input %t/w2_blocked_in1.npy --input %t/w2_blocked_in2.npy --input %t/w2_blocked_in3.npy --expect %t/w2_blocked_out.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e w2_blocked --target-features=-avx2 --input %t/w2_blocked_in0.npy --input %t/w2_blocked_in1.npy --input %t/w2_blocked_in2.npy --input %t/w2_blocked_in3.npy --expect %t/w2_blocked_out.npy | FileCheck %s %}
// RUN: quant-runner %s -e u2_column --input %t/u2_column_in0.npy --input %t/u2_column_in1.npy --input %t/u2_column_in2.npy --expect %t/u2_column_out.npy | FileCheck %s
// RUN: quant-runner %s -e u2_column --float-fma --input %t/u2_column_in0.npy --input %t/u2_column_in1.npy --input %t/u2_column_in2.npy --expect %t/u2_column_fma.npy | FileCheck %s
// RUN: quant-runner %s -e u2_column --threads 2 --input %t/u2_column_in0.npy --input %t/u2_column_in1.npy --input %t/u2_column_in2.npy --expect %t/u2_column_out.npy | FileCheck %s
// RUN: %if avx512 %{ quant-runner %s -e u2_column --target-features=-avx512f --input %t/u2_column_in0.npy --input %t/u2_column_in1.npy --input %t/u2_column_in2.npy --expect %t/u2_column_out.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e u2_column --target-features=-avx2 --input %t/u2_column_in0.npy --input %t/u2_column_in1.npy --input %t/u2_column_in2.npy --expect %t/u2_column_out.npy | FileCheck %s %}
// RUN: quant-runner %s -e w8_tensor --input %t/w8_tensor_in0.npy --input %t/w8_tensor_in1.npy --input %t/w8_tensor_in2.npy --input %t/w8_tensor_in3.npy --expect %t/w8_tensor_out.npy | FileCheck %s
// RUN: quant-runner %s -e w8_tensor --float-fma --input %t/w8_tensor_in0.npy --input %t/w8_tensor_in1.npy --input %t/w8_tensor_in2.npy --input %t/w8_tensor_in3.npy --expect %t/w8_tensor_fma.npy | FileCheck %s
// RUN: quant-runner %s -e w8_tensor --threads 2 --input %t/w8_tensor_in0.npy --input %t/w8_tensor_in1.npy --input %t/w8_tensor_in2.npy --input %t/w8_tensor_in3.npy --expect %t/w8_tensor_out.npy | FileCheck %s
// RUN: %if avx512 %{ quant-runner %s -e w8_tensor --target-features=-avx512f --input %t/w8_tensor_in0.npy --input %t/w8_tensor_in1.npy --input %t/w8_tensor_in2.npy --input %t/w8_tensor_in3.npy --expect %t/w8_tensor_out.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e w8_tensor --target-features=-avx2 --input %t/w8_tensor_in0.npy --input %t/w8_tensor_in1.npy --input %t/w8_tensor_in2.npy --input %t/w8_tensor_in3.npy --expect %t/w8_tensor_out.npy | FileCheck %s %}
// RUN: quant-runner %s -e u8_blocked --input %t/u8_blocked_in0.npy --input %t/u8_blocked_in1.npy --input %t/u8_blocked_in2.npy --input %t/u8_blocked_in3.npy --expect %t/u8_blocked_out.npy | FileCheck %s
// RUN: quant-runner %s -e u8_blocked --float-fma --input %t/u8_blocked_in0.npy --input %t/u8_blocked_in1.npy --input %t/u8_blocked_in2.npy --input %t/u8_blocked_in3.npy --expect %t/u8_blocked_fma.npy | FileCheck %s
// RUN: quant-runner %s -e u8_blocked --threads 2 --input %t/u8_blocked_in0.npy --input %t/u8_blocked_in1.npy --input %t/u8_blocked_in2.npy --input %t/u8_blocked_in3.npy --expect %t/u8_blocked_out.npy | FileCheck %s
// RUN: %if avx512 %{ quant-runner %s -e u8_blocked --target-features=-avx512f --input %t/u8_blocked_in0.npy --input %t/u8_blocked_in1.npy --input %t/u8_blocked_in2.npy --input %t/u8_blocked_in3.npy --expect %t/u8_blocked_out.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e u8_blocked --target-features=-avx2 --input %t/u8_blocked_in0.npy --input %t/u8_blocked_in1.npy --input %t/u8_blocked_in2.npy --input %t/u8_blocked_in3.npy --expect %t/u8_blocked_out.npy | FileCheck %s %}
// RUN: quant-runner %s -e w4_chunks --input %t/w4_chunks_in0.npy --input %t/w4_chunks_in1.npy --input %t/w4_chunks_in2.npy --input %t/w4_chunks_in3.npy --expect %t/w4_chunks_out.npy | FileCheck %s
// RUN: quant-runner %s -e w4_chunks --float-fma --input %t/w4_chunks_in0.npy --input %t/w4_chunks_in1.npy --input %t/w4_chunks_in2.npy --input %t/w4_chunks_in3.npy --expect %t/w4_chunks_fma.npy | FileCheck %s
// RUN: quant-runner %s -e w4_chunks --threads 2 --input %t/w4_chunks_in0.npy --input %t/w4_chunks_in1.npy --input %t/w4_chunks_in2.npy --input %t/w4_chunks_in3.npy --expect %t/w4_chunks_out.npy | FileCheck %s
// RUN: %if avx512 %{ quant-runner %s -e w4_chunks --target-features=-avx512f --input %t/w4_chunks_in0.npy --input %t/w4_chunks_in1.npy --input %t/w4_chunks_in2.npy --input %t/w4_chunks_in3.npy --expect %t/w4_chunks_out.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e w4_chunks --target-features=-avx2 --input %t/w4_chunks_in0.npy --input %t/w4_chunks_in1.npy --input %t/w4_chunks_in2.npy --input %t/w4_chunks_in3.npy --expect %t/w4_chunks_out.npy | FileCheck %s %}
// RUN: quant-runner %s -e u8_dynamic --input %t/u8_dynamic_in0.npy --input %t/u8_dynamic_in1.npy --input %t/u8_dynamic_in2.npy --input %t/u8_dynamic_in3.npy --expect %t/u8_dynamic_out.npy | FileCheck %s
// RUN: quant-runner %s -e u8_dynamic --float-fma --input %t/u8_dynamic_in0.npy --input %t/u8_dynamic_in1.npy --input %t/u8_dynamic_in2.npy --input %t/u8_dynamic_in3.npy --expect %t/u8_dynamic_fma.npy | FileCheck %s
// RUN: quant-runner %s -e u8_dynamic --threads 2 --input %t/u8_dynamic_in0.npy --input %t/u8_dynamic_in1.npy --input %t/u8_dynamic_in2.npy --input %t/u8_dynamic_in3.npy --expect %t/u8_dynamic_out.npy | FileCheck %s
// RUN: %if avx512 %{ quant-runner %s -e u8_dynamic --target-features=-avx512f --input %t/u8_dynamic_in0.npy --input %t/u8_dynamic_in1.npy --input %t/u8_dynamic_in2.npy --input %t/u8_dynamic_in3.npy --expect %t/u8_dynamic_out.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e u8_dynamic --target-features=-avx2 --input %t/u8_dynamic_in0.npy --input %t/u8_dynamic_in1.npy --input %t/u8_dynamic_in2.npy --input %t/u8_dynamic_in3.npy --expect %t/u8_dynamic_out.npy | FileCheck %s %}
// RUN: quant-runner %s -e u8_dynamic_one --input %t/u8_dynamic_one_in0.npy --input %t/u8_dynamic_one_in1.npy --input %t/u8_dynamic_one_in2.npy --input %t/u8_dynamic_one_in3.npy --expect %t/u8_dynamic_one_out.npy | FileCheck %s
// RUN: quant-runner %s -e u8_dynamic_one --float-fma --input %t/u8_dynamic_one_in0.npy --input %t/u8_dynamic_one_in1.npy --input %t/u8_dynamic_one_in2.npy --input %t/u8_dynamic_one_in3.npy --expect %t/u8_dynamic_one_fma.npy | FileCheck %s
// RUN: quant-runner %s -e u8_dynamic_one --threads 2 --input %t/u8_dynamic_one_in0.npy --input %t/u8_dynamic_one_in1.npy --input %t/u8_dynamic_one_in2.npy --input %t/u8_dynamic_one_in3.npy --expect %t/u8_dynamic_one_out.npy | FileCheck %s
// RUN: %if avx512 %{ quant-runner %s -e u8_dynamic_one --target-features=-avx512f --input %t/u8_dynamic_one_in0.npy --input %t/u8_dynamic_one_in1.npy --input %t/u8_dynamic_one_in2.npy --input %t/u8_dynamic_one_in3.npy --expect %t/u8_dynamic_one_out.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e u8_dynamic_one --target-features=-avx2 --input %t/u8_dynamic_one_in0.npy --input %t/u8_dynamic_one_in1.npy --input %t/u8_dynamic_one_in2.npy --input %t/u8_dynamic_one_in3.npy --expect %t/u8_dynamic_one_out.npy | FileCheck %s %}
// RUN: quant-runner %s -e w4_acc --input %t/w4_acc_in0.npy --input %t/w4_acc_in1.npy --input %t/w4_acc_in2.npy --input %t/w4_acc_in3.npy --expect %t/w4_acc_out.npy | FileCheck %s
// RUN: quant-runner %s -e w4_acc --float-fma --input %t/w4_acc_in0.npy --input %t/w4_acc_in1.npy --input %t/w4_acc_in2.npy --input %t/w4_acc_in3.npy --expect %t/w4_acc_fma.npy | FileCheck %s
// RUN: quant-runner %s -e w4_acc --threads 2 --input %t/w4_acc_in0.npy --input %t/w4_acc_in1.npy --input %t/w4_acc_in2.npy --input %t/w4_acc_in3.npy --expect %t/w4_acc_out.npy | FileCheck %s
// RUN: %if avx512 %{ quant-runner %s -e w4_acc --target-features=-avx512f --input %t/w4_acc_in0.npy --input %t/w4_acc_in1.npy --input %t/w4_acc_in2.npy --input %t/w4_acc_in3.npy --expect %t/w4_acc_out.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e w4_acc --target-features=-avx2 --input %t/w4_acc_in0.npy --input %t/w4_acc_in1.npy --input %t/w4_acc_in2.npy --input %t/w4_acc_in3.npy --expect %t/w4_acc_out.npy | FileCheck %s %}
// RUN: quant-runner %s -e s2_nozp --input %t/s2_nozp_in0.npy --input %t/s2_nozp_in1.npy --input %t/s2_nozp_in2.npy --expect %t/s2_nozp_out.npy | FileCheck %s
// RUN: quant-runner %s -e s2_nozp --float-fma --input %t/s2_nozp_in0.npy --input %t/s2_nozp_in1.npy --input %t/s2_nozp_in2.npy --expect %t/s2_nozp_fma.npy | FileCheck %s
// RUN: quant-runner %s -e u2_zp --input %t/u2_zp_in0.npy --input %t/u2_zp_in1.npy --input %t/u2_zp_in2.npy --input %t/u2_zp_in3.npy --expect %t/u2_zp_out.npy | FileCheck %s
// RUN: quant-runner %s -e u2_zp --float-fma --input %t/u2_zp_in0.npy --input %t/u2_zp_in1.npy --input %t/u2_zp_in2.npy --input %t/u2_zp_in3.npy --expect %t/u2_zp_fma.npy | FileCheck %s
// RUN: quant-runner %s -e int8_zp --input %t/int8_zp_in0.npy --input %t/int8_zp_in1.npy --input %t/int8_zp_in2.npy --input %t/int8_zp_in3.npy --expect %t/int8_zp_out.npy | FileCheck %s
// RUN: quant-runner %s -e int8_zp --threads 2 --input %t/int8_zp_in0.npy --input %t/int8_zp_in1.npy --input %t/int8_zp_in2.npy --input %t/int8_zp_in3.npy --expect %t/int8_zp_out.npy | FileCheck %s
// RUN: %if avx512vnni || avxvnni %{ quant-runner %s -e int8_zp --target-features=-avx512vnni,-avxvnni --input %t/int8_zp_in0.npy --input %t/int8_zp_in1.npy --input %t/int8_zp_in2.npy --input %t/int8_zp_in3.npy --expect %t/int8_zp_out.npy | FileCheck %s %}
// RUN: %if avx512 %{ quant-runner %s -e int8_zp --target-features=-avx512f --input %t/int8_zp_in0.npy --input %t/int8_zp_in1.npy --input %t/int8_zp_in2.npy --input %t/int8_zp_in3.npy --expect %t/int8_zp_out.npy | FileCheck %s %}
// RUN: quant-runner %s -e int8_nozp --input %t/int8_nozp_in0.npy --input %t/int8_nozp_in1.npy --input %t/int8_nozp_in2.npy --expect %t/int8_nozp_out.npy | FileCheck %s
// RUN: quant-runner %s -e int8_nozp --threads 2 --input %t/int8_nozp_in0.npy --input %t/int8_nozp_in1.npy --input %t/int8_nozp_in2.npy --expect %t/int8_nozp_out.npy | FileCheck %s
// RUN: %if avx512vnni || avxvnni %{ quant-runner %s -e int8_nozp --target-features=-avx512vnni,-avxvnni --input %t/int8_nozp_in0.npy --input %t/int8_nozp_in1.npy --input %t/int8_nozp_in2.npy --expect %t/int8_nozp_out.npy | FileCheck %s %}
// RUN: %if avx512 %{ quant-runner %s -e int8_nozp --target-features=-avx512f --input %t/int8_nozp_in0.npy --input %t/int8_nozp_in1.npy --input %t/int8_nozp_in2.npy --expect %t/int8_nozp_out.npy | FileCheck %s %}
// The other order's expected values: the comparison fails.
// RUN: %expect_exit 1 quant-runner %s -e w4_tall --input %t/w4_tall_in0.npy --input %t/w4_tall_in1.npy --input %t/w4_tall_in2.npy --input %t/w4_tall_in3.npy --expect %t/w4_tall_fma.npy | FileCheck %s --check-prefix=MISS
// CHECK: all 1 results match
// MISS: result 0: {{[0-9]+}} of 2590 elements differ

func.func @w4_short(%x: tensor<5x64xf32>, %q: tensor<64x40xsi4>, %s: tensor<4x40xf32>, %zp: tensor<4x40xsi4>) -> tensor<5x40xf32> {
  %w = qops.dequantize_linear %q, %s, %zp axis = 0 block_size = 16 : tensor<64x40xsi4>, tensor<4x40xf32>, tensor<4x40xsi4> -> tensor<64x40xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<5x40xf32>) -> tensor<5x40xf32>
  %y = linalg.matmul ins(%x, %w : tensor<5x64xf32>, tensor<64x40xf32>) outs(%c : tensor<5x40xf32>) -> tensor<5x40xf32>
  return %y : tensor<5x40xf32>
}

func.func @w4_tall(%x: tensor<37x96xf32>, %q: tensor<96x70xui4>, %s: tensor<3x70xf32>, %zp: tensor<3x70xui4>) -> tensor<37x70xf32> {
  %w = qops.dequantize_linear %q, %s, %zp axis = 0 block_size = 32 : tensor<96x70xui4>, tensor<3x70xf32>, tensor<3x70xui4> -> tensor<96x70xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x70xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<37x70xf32>) -> tensor<37x70xf32>
  %y = linalg.matmul ins(%x, %w : tensor<37x96xf32>, tensor<96x70xf32>) outs(%c : tensor<37x70xf32>) -> tensor<37x70xf32>
  return %y : tensor<37x70xf32>
}

func.func @w4_partial(%x: tensor<3x40xf32>, %q: tensor<40x33xsi4>, %s: tensor<3x33xf32>) -> tensor<3x33xf32> {
  %w = qops.dequantize_linear %q, %s axis = 0 block_size = 16 : tensor<40x33xsi4>, tensor<3x33xf32> -> tensor<40x33xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x33xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<3x33xf32>) -> tensor<3x33xf32>
  %y = linalg.matmul ins(%x, %w : tensor<3x40xf32>, tensor<40x33xf32>) outs(%c : tensor<3x33xf32>) -> tensor<3x33xf32>
  return %y : tensor<3x33xf32>
}

func.func @w2_blocked(%x: tensor<4x32xf32>, %q: tensor<32x20xsi2>, %s: tensor<4x20xf32>, %zp: tensor<4x20xsi2>) -> tensor<4x20xf32> {
  %w = qops.dequantize_linear %q, %s, %zp axis = 0 block_size = 8 : tensor<32x20xsi2>, tensor<4x20xf32>, tensor<4x20xsi2> -> tensor<32x20xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x20xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x20xf32>) -> tensor<4x20xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x32xf32>, tensor<32x20xf32>) outs(%c : tensor<4x20xf32>) -> tensor<4x20xf32>
  return %y : tensor<4x20xf32>
}

func.func @u2_column(%x: tensor<2x16xf32>, %q: tensor<16x17xui2>, %s: tensor<17xf32>) -> tensor<2x17xf32> {
  %w = qops.dequantize_linear %q, %s axis = 1 : tensor<16x17xui2>, tensor<17xf32> -> tensor<16x17xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x17xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x17xf32>) -> tensor<2x17xf32>
  %y = linalg.matmul ins(%x, %w : tensor<2x16xf32>, tensor<16x17xf32>) outs(%c : tensor<2x17xf32>) -> tensor<2x17xf32>
  return %y : tensor<2x17xf32>
}

func.func @w8_tensor(%x: tensor<19x24xf32>, %q: tensor<24x50xsi8>, %s: tensor<f32>, %zp: tensor<si8>) -> tensor<19x50xf32> {
  %w = qops.dequantize_linear %q, %s, %zp : tensor<24x50xsi8>, tensor<f32>, tensor<si8> -> tensor<24x50xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<19x50xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<19x50xf32>) -> tensor<19x50xf32>
  %y = linalg.matmul ins(%x, %w : tensor<19x24xf32>, tensor<24x50xf32>) outs(%c : tensor<19x50xf32>) -> tensor<19x50xf32>
  return %y : tensor<19x50xf32>
}

func.func @u8_blocked(%x: tensor<1x12xf32>, %q: tensor<12x9xui8>, %s: tensor<3x9xf32>, %zp: tensor<3x9xui8>) -> tensor<1x9xf32> {
  %w = qops.dequantize_linear %q, %s, %zp axis = 0 block_size = 4 : tensor<12x9xui8>, tensor<3x9xf32>, tensor<3x9xui8> -> tensor<12x9xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x9xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x9xf32>) -> tensor<1x9xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x12xf32>, tensor<12x9xf32>) outs(%c : tensor<1x9xf32>) -> tensor<1x9xf32>
  return %y : tensor<1x9xf32>
}

func.func @w4_chunks(%x: tensor<41x600xf32>, %q: tensor<600x70xsi4>, %s: tensor<13x70xf32>, %zp: tensor<13x70xsi4>) -> tensor<41x70xf32> {
  %w = qops.dequantize_linear %q, %s, %zp axis = 0 block_size = 48 : tensor<600x70xsi4>, tensor<13x70xf32>, tensor<13x70xsi4> -> tensor<600x70xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<41x70xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<41x70xf32>) -> tensor<41x70xf32>
  %y = linalg.matmul ins(%x, %w : tensor<41x600xf32>, tensor<600x70xf32>) outs(%c : tensor<41x70xf32>) -> tensor<41x70xf32>
  return %y : tensor<41x70xf32>
}

func.func @u8_dynamic(%x: tensor<?x520xf32>, %q: tensor<520x40xui8>, %s: tensor<40xf32>, %zp: tensor<40xui8>) -> tensor<?x40xf32> {
  %w = qops.dequantize_linear %q, %s, %zp axis = 1 : tensor<520x40xui8>, tensor<40xf32>, tensor<40xui8> -> tensor<520x40xf32>
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x520xf32>
  %e = tensor.empty(%m) : tensor<?x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x40xf32>) -> tensor<?x40xf32>
  %y = linalg.matmul ins(%x, %w : tensor<?x520xf32>, tensor<520x40xf32>) outs(%c : tensor<?x40xf32>) -> tensor<?x40xf32>
  return %y : tensor<?x40xf32>
}

func.func @u8_dynamic_one(%x: tensor<?x520xf32>, %q: tensor<520x40xui8>, %s: tensor<40xf32>, %zp: tensor<40xui8>) -> tensor<?x40xf32> {
  %w = qops.dequantize_linear %q, %s, %zp axis = 1 : tensor<520x40xui8>, tensor<40xf32>, tensor<40xui8> -> tensor<520x40xf32>
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x520xf32>
  %e = tensor.empty(%m) : tensor<?x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x40xf32>) -> tensor<?x40xf32>
  %y = linalg.matmul ins(%x, %w : tensor<?x520xf32>, tensor<520x40xf32>) outs(%c : tensor<?x40xf32>) -> tensor<?x40xf32>
  return %y : tensor<?x40xf32>
}

func.func @w4_acc(%x: tensor<50x600xf32>, %q: tensor<600x33xui4>, %s: tensor<10x33xf32>, %c: tensor<50x33xf32>) -> tensor<50x33xf32> {
  %w = qops.dequantize_linear %q, %s axis = 0 block_size = 64 : tensor<600x33xui4>, tensor<10x33xf32> -> tensor<600x33xf32>
  %y = linalg.matmul ins(%x, %w : tensor<50x600xf32>, tensor<600x33xf32>) outs(%c : tensor<50x33xf32>) -> tensor<50x33xf32>
  return %y : tensor<50x33xf32>
}

func.func @s2_nozp(%x: tensor<6x64xf32>, %q: tensor<64x40xsi2>, %s: tensor<4x40xf32>) -> tensor<6x40xf32> {
  %w = qops.dequantize_linear %q, %s axis = 0 block_size = 16 : tensor<64x40xsi2>, tensor<4x40xf32> -> tensor<64x40xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<6x40xf32>) -> tensor<6x40xf32>
  %y = linalg.matmul ins(%x, %w : tensor<6x64xf32>, tensor<64x40xf32>) outs(%c : tensor<6x40xf32>) -> tensor<6x40xf32>
  return %y : tensor<6x40xf32>
}

func.func @u2_zp(%x: tensor<6x64xf32>, %q: tensor<64x40xui2>, %s: tensor<4x40xf32>, %zp: tensor<4x40xui2>) -> tensor<6x40xf32> {
  %w = qops.dequantize_linear %q, %s, %zp axis = 0 block_size = 16 : tensor<64x40xui2>, tensor<4x40xf32>, tensor<4x40xui2> -> tensor<64x40xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<6x40xf32>) -> tensor<6x40xf32>
  %y = linalg.matmul ins(%x, %w : tensor<6x64xf32>, tensor<64x40xf32>) outs(%c : tensor<6x40xf32>) -> tensor<6x40xf32>
  return %y : tensor<6x40xf32>
}

func.func @int8_zp(%x: tensor<5x64xf32>, %q: tensor<64x40xui4>, %s: tensor<4x40xf32>, %zp: tensor<4x40xui4>) -> tensor<5x40xf32> {
  %w = qops.dequantize_linear %q, %s, %zp axis = 0 block_size = 16 : tensor<64x40xui4>, tensor<4x40xf32>, tensor<4x40xui4> -> tensor<64x40xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<5x40xf32>) -> tensor<5x40xf32>
  %y = linalg.matmul {qops.accuracy_level = 4 : i64} ins(%x, %w : tensor<5x64xf32>, tensor<64x40xf32>) outs(%c : tensor<5x40xf32>) -> tensor<5x40xf32>
  return %y : tensor<5x40xf32>
}

func.func @int8_nozp(%x: tensor<19x32xf32>, %q: tensor<32x33xui4>, %s: tensor<1x33xf32>) -> tensor<19x33xf32> {
  %w = qops.dequantize_linear %q, %s axis = 0 block_size = 32 : tensor<32x33xui4>, tensor<1x33xf32> -> tensor<32x33xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<19x33xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<19x33xf32>) -> tensor<19x33xf32>
  %y = linalg.matmul {qops.accuracy_level = 4 : i64} ins(%x, %w : tensor<19x32xf32>, tensor<32x33xf32>) outs(%c : tensor<19x33xf32>) -> tensor<19x33xf32>
  return %y : tensor<19x33xf32>
}
