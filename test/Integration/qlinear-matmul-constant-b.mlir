// A constant b (weights) is packed by the int8 kernel once, at the first
// call.
//
// Runs forced to madd / maddubs (--target-features=-avx512vnni,-avxvnni) are
// a kernel of their own only on a host with VNNI (lit features avx512vnni,
// avxvnni in test/lit.cfg.py); elsewhere the host's default kernel is that
// kernel, and a line that would repeat another line's run is under %if.
//
// ONNX's test_qlinearmatmul_2D (uint8) with b and its zero point as
// constants: K = 4, N = 3 exercise the zero padding of the packed panels.
// RUN: quant-runner %s -e seed_2d_constant_b --print | FileCheck %s --check-prefix=SEED
// RUN: %if avx512vnni || avxvnni %{ quant-runner %s -e seed_2d_constant_b --print --target-features=-avx512vnni,-avxvnni | FileCheck %s --check-prefix=SEED %}
// SEED: result 0: tensor<2x3xui8> = {{\[\[}}168, 115, 255], [1, 66, 151]]
//
// Per-column si8 weights with per-column zero points, odd K and N, as
// constants and (per_column_b_as_argument) as arguments: both against the
// bytes of the NumPy reference (Inputs/const_b.py writes the data, the
// constant_b.mlir function and reference/qops_ref.py's expected result).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/const_b.py %t
// RUN: quant-runner %s -e per_column_b_as_argument --input %t/a.npy --input %t/b.npy --input %t/bs.npy --input %t/bzp.npy --expect %t/expected.npy | FileCheck %s --check-prefix=SAME
// The packed b is computed once, at the first call, into a global
// (qops-hoist-constant-expressions): k-pairs for madd,
// RUN: quant-opt %t/constant_b.mlir --convert-qops-to-linalg=int8-strategy=madd --qops-lower-packing --canonicalize --qops-hoist-constant-expressions | FileCheck %s --check-prefix=PACKED
// PACKED: memref.global "private" @__qops_hoisted_per_column_constant_b{{.*}} : memref<1x2x19x16xi32> = uninitialized
// k-quads and the column term K zb' - colsum for the quad strategies, in
// 32-column panels for vnni (AVX-512) and 16-column ones for avxvnni (the
// column term, 128 bytes from a 703-byte b, is hoisted from min-bytes=512):
// RUN: quant-opt %t/constant_b.mlir --convert-qops-to-linalg=int8-strategy=vnni --qops-lower-packing --canonicalize --qops-hoist-constant-expressions=min-bytes=512 | FileCheck %s --check-prefix=QUADS
// QUADS-DAG: memref.global "private" @__qops_hoisted_per_column_constant_b{{.*}} : memref<1x1x10x32xi32> = uninitialized
// QUADS-DAG: memref.global "private" @__qops_hoisted_per_column_constant_b{{.*}} : memref<1x32xi32> = uninitialized
// RUN: quant-opt %t/constant_b.mlir --convert-qops-to-linalg=int8-strategy=avxvnni --qops-lower-packing --canonicalize --qops-hoist-constant-expressions=min-bytes=512 | FileCheck %s --check-prefix=QUADS16
// QUADS16-DAG: memref.global "private" @__qops_hoisted_per_column_constant_b{{.*}} : memref<1x2x10x16xi32> = uninitialized
// QUADS16-DAG: memref.global "private" @__qops_hoisted_per_column_constant_b{{.*}} : memref<1x32xi32> = uninitialized
// RUN: quant-runner %t/constant_b.mlir -e per_column_constant_b --input %t/a.npy --expect %t/expected.npy | FileCheck %s --check-prefix=SAME
// RUN: %if avx512vnni || avxvnni %{ quant-runner %t/constant_b.mlir -e per_column_constant_b --input %t/a.npy --expect %t/expected.npy --target-features=-avx512vnni,-avxvnni | FileCheck %s --check-prefix=SAME %}
// -avx512vnni alone: avxvnni on a host with both VNNI forms, else maddubs.
// RUN: %if avx512vnni %{ quant-runner %t/constant_b.mlir -e per_column_constant_b --input %t/a.npy --expect %t/expected.npy --target-features=-avx512vnni | FileCheck %s --check-prefix=SAME %}
// SAME: all 1 results match

func.func @seed_2d_constant_b() -> tensor<2x3xui8> {
  %a = arith.constant dense<[[208, 236, 0, 238], [3, 214, 255, 29]]> : tensor<2x4xui8>
  %as = arith.constant dense<0.0066> : tensor<1xf32>
  %azp = arith.constant dense<113> : tensor<1xui8>
  %b = arith.constant dense<[[152, 51, 244], [60, 26, 255], [0, 127, 246], [127, 254, 247]]> : tensor<4x3xui8>
  %bs = arith.constant dense<0.00705> : tensor<1xf32>
  %bzp = arith.constant dense<114> : tensor<1xui8>
  %ys = arith.constant dense<0.0107> : tensor<1xf32>
  %yzp = arith.constant dense<118> : tensor<1xui8>
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<1xf32>, tensor<1xui8>)
                           b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<1xf32>, tensor<1xui8>)
                           y(%ys, %yzp : tensor<1xf32>, tensor<1xui8>) -> tensor<2x3xui8>
  return %y : tensor<2x3xui8>
}

func.func @per_column_b_as_argument(%a: tensor<13x37xui8>, %b: tensor<37x19xsi8>, %bs: tensor<19xf32>, %bzp: tensor<19xsi8>) -> tensor<13x19xui8> {
  %as = arith.constant dense<0.02> : tensor<f32>
  %azp = arith.constant dense<128> : tensor<ui8>
  %ys = arith.constant dense<0.5> : tensor<f32>
  %yzp = arith.constant dense<120> : tensor<ui8>
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<13x37xui8>, tensor<f32>, tensor<ui8>)
                           b(%b, %bs, %bzp : tensor<37x19xsi8>, tensor<19xf32>, tensor<19xsi8>)
                           y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<13x19xui8>
  return %y : tensor<13x19xui8>
}

// A b zero point that is a constant with every zb' = 0 (an si8 b with zero
// point 0: symmetric weights; a ui8 b with 128, per column): the quad
// kernels drop a's row sums. The expected bytes are the NumPy reference's
// (gen_case.py), the zero point (in5) being the constant in the function.
// Batched, with partial row tiles (M = 37, 100) and masked columns (N = 45,
// 70), at 1 and 2 threads and with each int8 strategy of the host.
// RUN: %python %S/reference/gen_case.py qmm_symmetric_si8_b %t/sym
// RUN: quant-runner %s -e qmm_symmetric_si8_b --input %t/sym/in0.npy --input %t/sym/in1.npy --input %t/sym/in2.npy --input %t/sym/in3.npy --input %t/sym/in4.npy --input %t/sym/in6.npy --input %t/sym/in7.npy --expect %t/sym/out0.npy --threads 1 | FileCheck %s --check-prefix=SAME
// RUN: quant-runner %s -e qmm_symmetric_si8_b --input %t/sym/in0.npy --input %t/sym/in1.npy --input %t/sym/in2.npy --input %t/sym/in3.npy --input %t/sym/in4.npy --input %t/sym/in6.npy --input %t/sym/in7.npy --expect %t/sym/out0.npy --threads 2 | FileCheck %s --check-prefix=SAME
// RUN: %if avx512vnni %{ quant-runner %s -e qmm_symmetric_si8_b --input %t/sym/in0.npy --input %t/sym/in1.npy --input %t/sym/in2.npy --input %t/sym/in3.npy --input %t/sym/in4.npy --input %t/sym/in6.npy --input %t/sym/in7.npy --expect %t/sym/out0.npy --threads 2 --target-features=-avx512vnni | FileCheck %s --check-prefix=SAME %}
// RUN: %python %S/reference/gen_case.py qmm_ui8_b_zero_point_128 %t/u128
// RUN: quant-runner %s -e qmm_ui8_b_zero_point_128 --input %t/u128/in0.npy --input %t/u128/in1.npy --input %t/u128/in2.npy --input %t/u128/in3.npy --input %t/u128/in4.npy --input %t/u128/in6.npy --input %t/u128/in7.npy --expect %t/u128/out0.npy --threads 1 | FileCheck %s --check-prefix=SAME
// RUN: quant-runner %s -e qmm_ui8_b_zero_point_128 --input %t/u128/in0.npy --input %t/u128/in1.npy --input %t/u128/in2.npy --input %t/u128/in3.npy --input %t/u128/in4.npy --input %t/u128/in6.npy --input %t/u128/in7.npy --expect %t/u128/out0.npy --threads 2 | FileCheck %s --check-prefix=SAME
// RUN: %if avx512vnni || avxvnni %{ quant-runner %s -e qmm_ui8_b_zero_point_128 --input %t/u128/in0.npy --input %t/u128/in1.npy --input %t/u128/in2.npy --input %t/u128/in3.npy --input %t/u128/in4.npy --input %t/u128/in6.npy --input %t/u128/in7.npy --expect %t/u128/out0.npy --threads 2 --target-features=-avx512vnni,-avxvnni | FileCheck %s --check-prefix=SAME %}
// The gemv cases of qlinear-matmul.mlir (at most 4 rows of a) with b, its
// scale and zero point as constants (Inputs/constant_b_case.py; the
// arguments are a, a_scale, a_zero_point, y_scale, y_zero_point): under the
// madd strategy b is packed into k-pairs at the first call (QLinearMatMulGemv.cpp),
// the quad strategies take their kernel. Odd K, per-row a and y, K = 2048 in
// two chunks of 1024 rows at 2 and 3 threads; expected bytes from NumPy.
// RUN: %python %S/reference/gen_case.py qmm_gemv_rows2_odd_k %t/g2
// RUN: %python %S/Inputs/constant_b_case.py %t/g2 g2 %t/g2.mlir
// RUN: quant-runner %t/g2.mlir -e g2_constant_b --input %t/g2/in0.npy --input %t/g2/in1.npy --input %t/g2/in2.npy --input %t/g2/in6.npy --input %t/g2/in7.npy --expect %t/g2/out0.npy | FileCheck %s --check-prefix=SAME
// RUN: %if avx512vnni || avxvnni %{ quant-runner %t/g2.mlir -e g2_constant_b --input %t/g2/in0.npy --input %t/g2/in1.npy --input %t/g2/in2.npy --input %t/g2/in6.npy --input %t/g2/in7.npy --expect %t/g2/out0.npy --target-features=-avx512vnni,-avxvnni | FileCheck %s --check-prefix=SAME %}
// RUN: %python %S/reference/gen_case.py qmm_gemv_rows4_per_row %t/g4
// RUN: %python %S/Inputs/constant_b_case.py %t/g4 g4 %t/g4.mlir
// RUN: quant-runner %t/g4.mlir -e g4_constant_b --input %t/g4/in0.npy --input %t/g4/in1.npy --input %t/g4/in2.npy --input %t/g4/in6.npy --input %t/g4/in7.npy --expect %t/g4/out0.npy | FileCheck %s --check-prefix=SAME
// RUN: %if avx512vnni || avxvnni %{ quant-runner %t/g4.mlir -e g4_constant_b --input %t/g4/in0.npy --input %t/g4/in1.npy --input %t/g4/in2.npy --input %t/g4/in6.npy --input %t/g4/in7.npy --expect %t/g4/out0.npy --target-features=-avx512vnni,-avxvnni | FileCheck %s --check-prefix=SAME %}
// RUN: %python %S/reference/gen_case.py qmm_gemv_2048x100 %t/gk
// RUN: %python %S/Inputs/constant_b_case.py %t/gk gk %t/gk.mlir
// RUN: quant-runner %t/gk.mlir -e gk_constant_b --input %t/gk/in0.npy --input %t/gk/in1.npy --input %t/gk/in2.npy --input %t/gk/in6.npy --input %t/gk/in7.npy --expect %t/gk/out0.npy --threads 1 --target-features=-avx512vnni,-avxvnni | FileCheck %s --check-prefix=SAME
// RUN: quant-runner %t/gk.mlir -e gk_constant_b --input %t/gk/in0.npy --input %t/gk/in1.npy --input %t/gk/in2.npy --input %t/gk/in6.npy --input %t/gk/in7.npy --expect %t/gk/out0.npy --threads 2 --target-features=-avx512vnni,-avxvnni | FileCheck %s --check-prefix=SAME
// RUN: quant-runner %t/gk.mlir -e gk_constant_b --input %t/gk/in0.npy --input %t/gk/in1.npy --input %t/gk/in2.npy --input %t/gk/in6.npy --input %t/gk/in7.npy --expect %t/gk/out0.npy --threads 3 --target-features=-avx512vnni,-avxvnni | FileCheck %s --check-prefix=SAME
// The host's kernel at 2 threads, where it is not the madd of the lines above:
// RUN: %if avx512vnni || avxvnni %{ quant-runner %t/gk.mlir -e gk_constant_b --input %t/gk/in0.npy --input %t/gk/in1.npy --input %t/gk/in2.npy --input %t/gk/in6.npy --input %t/gk/in7.npy --expect %t/gk/out0.npy --threads 2 | FileCheck %s --check-prefix=SAME %}

// The column blocks of a gemv with a K of no two chunks, b constant.
// RUN: %python %S/reference/gen_case.py qmm_gemv_column_blocks %t/gcb
// RUN: %python %S/Inputs/constant_b_case.py %t/gcb gcb %t/gcb.mlir
// RUN: quant-runner %t/gcb.mlir -e gcb_constant_b --input %t/gcb/in0.npy --input %t/gcb/in1.npy --input %t/gcb/in2.npy --input %t/gcb/in6.npy --input %t/gcb/in7.npy --expect %t/gcb/out0.npy --threads 1 --target-features=-avx512vnni,-avxvnni | FileCheck %s --check-prefix=SAME
// RUN: quant-runner %t/gcb.mlir -e gcb_constant_b --input %t/gcb/in0.npy --input %t/gcb/in1.npy --input %t/gcb/in2.npy --input %t/gcb/in6.npy --input %t/gcb/in7.npy --expect %t/gcb/out0.npy --threads 3 --target-features=-avx512vnni,-avxvnni | FileCheck %s --check-prefix=SAME

// Constant weights bound the sums (getMaxAbsSumAlong): K = 1024 with |b -
// b_zp| <= 60 proves every |acc| <= 255 * 1024 * 60 < 2^24, so the epilogue
// requantizes in f32 (llvm.intr.fma in the lowered module) on sums up to
// ~1.57e7; with column 0 at b - b_zp = 101 it must stay in f64: sums there
// sit one off ties of acc * 2^-18 above 2^24, where f32(acc) would move
// onto the tie (gen_case.py asserts that the f32 epilogue's bytes differ).
// RUN: %python %S/reference/gen_case.py qmm_constant_b_small_columns %t/cbs
// RUN: %python %S/Inputs/constant_b_case.py %t/cbs cbs %t/cbs.mlir
// RUN: quant-runner %t/cbs.mlir -e cbs_constant_b --dump-lowered | FileCheck %s --check-prefix=FMA
// FMA: llvm.intr.fma
// RUN: quant-runner %t/cbs.mlir -e cbs_constant_b --input %t/cbs/in0.npy --input %t/cbs/in1.npy --input %t/cbs/in2.npy --input %t/cbs/in6.npy --input %t/cbs/in7.npy --expect %t/cbs/out0.npy --threads 1 | FileCheck %s --check-prefix=SAME
// RUN: quant-runner %t/cbs.mlir -e cbs_constant_b --input %t/cbs/in0.npy --input %t/cbs/in1.npy --input %t/cbs/in2.npy --input %t/cbs/in6.npy --input %t/cbs/in7.npy --expect %t/cbs/out0.npy --threads 2 | FileCheck %s --check-prefix=SAME
// RUN: %if avx512vnni || avxvnni %{ quant-runner %t/cbs.mlir -e cbs_constant_b --input %t/cbs/in0.npy --input %t/cbs/in1.npy --input %t/cbs/in2.npy --input %t/cbs/in6.npy --input %t/cbs/in7.npy --expect %t/cbs/out0.npy --target-features=-avx512vnni,-avxvnni | FileCheck %s --check-prefix=SAME %}
// RUN: %python %S/reference/gen_case.py qmm_constant_b_wide_columns %t/cbw
// RUN: %python %S/Inputs/constant_b_case.py %t/cbw cbw %t/cbw.mlir
// RUN: quant-runner %t/cbw.mlir -e cbw_constant_b --input %t/cbw/in0.npy --input %t/cbw/in1.npy --input %t/cbw/in2.npy --input %t/cbw/in6.npy --input %t/cbw/in7.npy --expect %t/cbw/out0.npy --threads 1 | FileCheck %s --check-prefix=SAME
// RUN: quant-runner %t/cbw.mlir -e cbw_constant_b --input %t/cbw/in0.npy --input %t/cbw/in1.npy --input %t/cbw/in2.npy --input %t/cbw/in6.npy --input %t/cbw/in7.npy --expect %t/cbw/out0.npy --threads 2 | FileCheck %s --check-prefix=SAME
// RUN: %if avx512vnni || avxvnni %{ quant-runner %t/cbw.mlir -e cbw_constant_b --input %t/cbw/in0.npy --input %t/cbw/in1.npy --input %t/cbw/in2.npy --input %t/cbw/in6.npy --input %t/cbw/in7.npy --expect %t/cbw/out0.npy --target-features=-avx512vnni,-avxvnni | FileCheck %s --check-prefix=SAME %}

// Weights whose pairs of k rows provably fit i16 under VPMADDUBSW (every
// pair's positive and negative parts of b' at most 128): x86 without VNNI
// (this CPU with -avx512vnni,-avxvnni, or an AVX2 CPU) takes the maddubs
// kernel for them; b in [-64, 63] (si8) or [64, 191] (ui8, batched), and
// pairs at the bounds against a = 255 (qmm_pair_sum_bounds: y_scale 507
// tells 32640 from a saturated 32767). 1 and 2 threads; NumPy's bytes.
// RUN: %python %S/reference/gen_case.py qmm_small_b_si8 %t/sbs
// RUN: %python %S/Inputs/constant_b_case.py %t/sbs sbs %t/sbs.mlir
// RUN: quant-opt %t/sbs.mlir --convert-qops-to-linalg="target-triple=x86_64-unknown-linux-gnu target-cpu=znver3" | FileCheck %s --check-prefix=MADDUBS
// MADDUBS: qkernel.dot_u8s8_quads {{.*}} {pair_sums_fit_i16}
// RUN: quant-runner %t/sbs.mlir -e sbs_constant_b --input %t/sbs/in0.npy --input %t/sbs/in1.npy --input %t/sbs/in2.npy --input %t/sbs/in6.npy --input %t/sbs/in7.npy --expect %t/sbs/out0.npy --threads 1 --target-features=-avx512vnni,-avxvnni | FileCheck %s --check-prefix=SAME
// RUN: quant-runner %t/sbs.mlir -e sbs_constant_b --input %t/sbs/in0.npy --input %t/sbs/in1.npy --input %t/sbs/in2.npy --input %t/sbs/in6.npy --input %t/sbs/in7.npy --expect %t/sbs/out0.npy --threads 2 | FileCheck %s --check-prefix=SAME
// RUN: %python %S/reference/gen_case.py qmm_small_b_ui8 %t/sbu
// RUN: %python %S/Inputs/constant_b_case.py %t/sbu sbu %t/sbu.mlir
// RUN: quant-opt %t/sbu.mlir --convert-qops-to-linalg="target-triple=x86_64-unknown-linux-gnu target-cpu=znver3" | FileCheck %s --check-prefix=MADDUBS
// RUN: quant-runner %t/sbu.mlir -e sbu_constant_b --input %t/sbu/in0.npy --input %t/sbu/in1.npy --input %t/sbu/in2.npy --input %t/sbu/in6.npy --input %t/sbu/in7.npy --expect %t/sbu/out0.npy --threads 1 --target-features=-avx512vnni,-avxvnni | FileCheck %s --check-prefix=SAME
// RUN: quant-runner %t/sbu.mlir -e sbu_constant_b --input %t/sbu/in0.npy --input %t/sbu/in1.npy --input %t/sbu/in2.npy --input %t/sbu/in6.npy --input %t/sbu/in7.npy --expect %t/sbu/out0.npy --threads 2 --target-features=-avx512vnni,-avxvnni | FileCheck %s --check-prefix=SAME
// RUN: %python %S/reference/gen_case.py qmm_pair_sum_bounds %t/psb
// RUN: %python %S/Inputs/constant_b_case.py %t/psb psb %t/psb.mlir
// RUN: quant-opt %t/psb.mlir --convert-qops-to-linalg="target-triple=x86_64-unknown-linux-gnu target-cpu=znver3" | FileCheck %s --check-prefix=MADDUBS
// RUN: quant-runner %t/psb.mlir -e psb_constant_b --input %t/psb/in0.npy --input %t/psb/in1.npy --input %t/psb/in2.npy --input %t/psb/in6.npy --input %t/psb/in7.npy --expect %t/psb/out0.npy --threads 1 --target-features=-avx512vnni,-avxvnni | FileCheck %s --check-prefix=SAME
// RUN: quant-runner %t/psb.mlir -e psb_constant_b --input %t/psb/in0.npy --input %t/psb/in1.npy --input %t/psb/in2.npy --input %t/psb/in6.npy --input %t/psb/in7.npy --expect %t/psb/out0.npy --threads 2 | FileCheck %s --check-prefix=SAME

func.func @qmm_symmetric_si8_b(%a: tensor<2x37x64xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<2x64x45xsi8>, %bs: tensor<f32>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<2x37x45xui8> {
  %bzp = arith.constant dense<0> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x37x64xui8>, tensor<f32>, tensor<ui8>)
                           b(%b, %bs, %bzp : tensor<2x64x45xsi8>, tensor<f32>, tensor<si8>)
                           y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x37x45xui8>
  return %y : tensor<2x37x45xui8>
}

func.func @qmm_ui8_b_zero_point_128(%a: tensor<100x36xsi8>, %as: tensor<f32>, %azp: tensor<si8>, %b: tensor<36x70xui8>, %bs: tensor<70xf32>, %ys: tensor<70xf32>, %yzp: tensor<70xsi8>) -> tensor<100x70xsi8> {
  %bzp = arith.constant dense<128> : tensor<70xui8>
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<100x36xsi8>, tensor<f32>, tensor<si8>)
                           b(%b, %bs, %bzp : tensor<36x70xui8>, tensor<70xf32>, tensor<70xui8>)
                           y(%ys, %yzp : tensor<70xf32>, tensor<70xsi8>) -> tensor<100x70xsi8>
  return %y : tensor<100x70xsi8>
}
