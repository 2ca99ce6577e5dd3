// Numeric edge inputs: scales that are 0, -0, negative, +Inf, -Inf or NaN,
// for QuantizeLinear, DequantizeLinear (per-tensor and per-axis) and
// QLinearMatMul's y_scale. None is rejected (a scale is data, known only at
// run time); the result is what IEEE-754 arithmetic gives in the formulas
// of docs/Numerics.md, with its NaN rule (a NaN quotient quantizes like 0,
// i.e. to the zero point) and its saturation (+-Inf -> qmax / qmin):
//
//   quantize:    y = saturate(round_half_even(x / scale) + zp), NaN -> zp
//   dequantize:  y = f32(x - zp) * scale
//   qmatmul:     y = saturate(round_half_even(acc * (a_s * b_s / y_s)) + y_zp)
//
// The expected values are derived by hand (the derivation is next to each
// CHECK line), not by the NumPy reference. docs/BadInputs.md, "Numeric edge
// inputs", states the behaviour.
//
// Inputs: x = [-2, -0.5, 0, 0.5, 2, +Inf, -Inf, NaN] (f32), zp = 128 (ui8)
// for quantize; x = [0, 127, 128, 129, 255] (ui8), zp = 128 for dequantize,
// so x - zp = [-128, -1, 0, 1, 127]; qmatmul a = [[1, -1]], b = [[1, 0, 0],
// [0, 0, 1]] (si8, zero points 0, scales 1), so acc = [1, 0, -1], y_zp = 128.
//
// RUN: rm -rf %t && %python %S/Inputs/make_scale_inputs.py %t

// scale 0:
// RUN: quant-runner %s -e q --input %t/q_x.npy --input %t/s_zero.npy --input %t/q_zp.npy --print | FileCheck %s --check-prefix=Q_ZERO
// RUN: quant-runner %s -e dq --input %t/dq_x.npy --input %t/s_zero.npy --input %t/dq_zp.npy --print | FileCheck %s --check-prefix=DQ_ZERO
// RUN: quant-runner %s -e qmm --input %t/mm_a.npy --input %t/mm_one.npy --input %t/mm_zp8.npy --input %t/mm_b.npy --input %t/mm_one.npy --input %t/mm_zp8.npy --input %t/s_zero.npy --input %t/mm_yzp.npy --print | FileCheck %s --check-prefix=MM_ZERO
// x/0 = -Inf, -Inf, NaN, +Inf, +Inf, +Inf, -Inf, NaN
// Q_ZERO: result 0: tensor<8xui8> = [0, 0, 128, 255, 255, 255, 0, 128]
// (x-zp)*0 = -128*0 = -0, -1*0 = -0, 0, 0, 0
// DQ_ZERO: result 0: tensor<5xf32> = [-0, -0, 0, 0, 0]
// multiplier 1/0 = +Inf: 1*Inf = +Inf -> 255, 0*Inf = NaN -> y_zp, -Inf -> 0
// MM_ZERO: result 0: tensor<1x3xui8> = {{\[\[}}255, 128, 0]]

// scale -0:
// RUN: quant-runner %s -e q --input %t/q_x.npy --input %t/s_negzero.npy --input %t/q_zp.npy --print | FileCheck %s --check-prefix=Q_NEGZERO
// RUN: quant-runner %s -e dq --input %t/dq_x.npy --input %t/s_negzero.npy --input %t/dq_zp.npy --print | FileCheck %s --check-prefix=DQ_NEGZERO
// RUN: quant-runner %s -e qmm --input %t/mm_a.npy --input %t/mm_one.npy --input %t/mm_zp8.npy --input %t/mm_b.npy --input %t/mm_one.npy --input %t/mm_zp8.npy --input %t/s_negzero.npy --input %t/mm_yzp.npy --print | FileCheck %s --check-prefix=MM_NEGZERO
// x/-0 = +Inf, +Inf, NaN, -Inf, -Inf, -Inf, +Inf, NaN
// Q_NEGZERO: result 0: tensor<8xui8> = [255, 255, 128, 0, 0, 0, 255, 128]
// (x-zp)*-0 = +0, +0, -0, -0, -0
// DQ_NEGZERO: result 0: tensor<5xf32> = [0, 0, -0, -0, -0]
// multiplier 1/-0 = -Inf: -Inf -> 0, NaN -> y_zp, +Inf -> 255
// MM_NEGZERO: result 0: tensor<1x3xui8> = {{\[\[}}0, 128, 255]]

// scale -0.5:
// RUN: quant-runner %s -e q --input %t/q_x.npy --input %t/s_neg.npy --input %t/q_zp.npy --print | FileCheck %s --check-prefix=Q_NEG
// RUN: quant-runner %s -e dq --input %t/dq_x.npy --input %t/s_neg.npy --input %t/dq_zp.npy --print | FileCheck %s --check-prefix=DQ_NEG
// RUN: quant-runner %s -e qmm --input %t/mm_a.npy --input %t/mm_one.npy --input %t/mm_zp8.npy --input %t/mm_b.npy --input %t/mm_one.npy --input %t/mm_zp8.npy --input %t/s_neg.npy --input %t/mm_yzp.npy --print | FileCheck %s --check-prefix=MM_NEG
// x/-0.5 = 4, 1, -0, -1, -4, -Inf, +Inf, NaN; + 128
// Q_NEG: result 0: tensor<8xui8> = [132, 129, 128, 127, 124, 0, 255, 128]
// (x-zp)*-0.5 = 64, 0.5, -0, -0.5, -63.5
// DQ_NEG: result 0: tensor<5xf32> = [64, 0.5, -0, -0.5, -63.5]
// multiplier -2: acc*-2 = -2, -0, 2; + 128
// MM_NEG: result 0: tensor<1x3xui8> = {{\[\[}}126, 128, 130]]

// scale +Inf:
// RUN: quant-runner %s -e q --input %t/q_x.npy --input %t/s_inf.npy --input %t/q_zp.npy --print | FileCheck %s --check-prefix=Q_INF
// RUN: quant-runner %s -e dq --input %t/dq_x.npy --input %t/s_inf.npy --input %t/dq_zp.npy --print | FileCheck %s --check-prefix=DQ_INF
// RUN: quant-runner %s -e qmm --input %t/mm_a.npy --input %t/mm_one.npy --input %t/mm_zp8.npy --input %t/mm_b.npy --input %t/mm_one.npy --input %t/mm_zp8.npy --input %t/s_inf.npy --input %t/mm_yzp.npy --print | FileCheck %s --check-prefix=MM_INF
// x/Inf = +-0 for finite x, +-Inf/Inf = NaN, NaN: all give zp
// Q_INF: result 0: tensor<8xui8> = [128, 128, 128, 128, 128, 128, 128, 128]
// (x-zp)*Inf = -Inf, -Inf, 0*Inf = NaN, +Inf, +Inf
// DQ_INF: result 0: tensor<5xf32> = [-inf, -inf, nan, inf, inf]
// multiplier 1/Inf = 0: acc*0 = 0, 0, -0 -> y_zp
// MM_INF: result 0: tensor<1x3xui8> = {{\[\[}}128, 128, 128]]

// scale -Inf:
// RUN: quant-runner %s -e q --input %t/q_x.npy --input %t/s_neginf.npy --input %t/q_zp.npy --print | FileCheck %s --check-prefix=Q_NEGINF
// RUN: quant-runner %s -e dq --input %t/dq_x.npy --input %t/s_neginf.npy --input %t/dq_zp.npy --print | FileCheck %s --check-prefix=DQ_NEGINF
// RUN: quant-runner %s -e qmm --input %t/mm_a.npy --input %t/mm_one.npy --input %t/mm_zp8.npy --input %t/mm_b.npy --input %t/mm_one.npy --input %t/mm_zp8.npy --input %t/s_neginf.npy --input %t/mm_yzp.npy --print | FileCheck %s --check-prefix=MM_NEGINF
// x/-Inf = +-0 for finite x, NaN for +-Inf and NaN: all give zp
// Q_NEGINF: result 0: tensor<8xui8> = [128, 128, 128, 128, 128, 128, 128, 128]
// (x-zp)*-Inf = +Inf, +Inf, NaN, -Inf, -Inf
// DQ_NEGINF: result 0: tensor<5xf32> = [inf, inf, nan, -inf, -inf]
// multiplier -0: acc*-0 = +-0 -> y_zp
// MM_NEGINF: result 0: tensor<1x3xui8> = {{\[\[}}128, 128, 128]]

// scale NaN:
// RUN: quant-runner %s -e q --input %t/q_x.npy --input %t/s_nan.npy --input %t/q_zp.npy --print | FileCheck %s --check-prefix=Q_NAN
// RUN: quant-runner %s -e dq --input %t/dq_x.npy --input %t/s_nan.npy --input %t/dq_zp.npy --print | FileCheck %s --check-prefix=DQ_NAN
// RUN: quant-runner %s -e qmm --input %t/mm_a.npy --input %t/mm_one.npy --input %t/mm_zp8.npy --input %t/mm_b.npy --input %t/mm_one.npy --input %t/mm_zp8.npy --input %t/s_nan.npy --input %t/mm_yzp.npy --print | FileCheck %s --check-prefix=MM_NAN
// x/NaN = NaN: all give zp
// Q_NAN: result 0: tensor<8xui8> = [128, 128, 128, 128, 128, 128, 128, 128]
// (x-zp)*NaN = NaN
// DQ_NAN: result 0: tensor<5xf32> = [nan, nan, nan, nan, nan]
// multiplier NaN: NaN -> y_zp
// MM_NAN: result 0: tensor<1x3xui8> = {{\[\[}}128, 128, 128]]

// Per-axis (axis 0), one row per scale: 0, -0, -0.5, +Inf, -Inf, NaN; each
// row of x is [-1, 0, 1], zero points 0 (si8).
// RUN: quant-runner %s -e q_axis --input %t/axis_q_x.npy --input %t/axis_s.npy --input %t/axis_q_zp.npy --print | FileCheck %s --check-prefix=Q_AXIS
// Row by row: [-Inf, NaN, +Inf] -> [-128, 0, 127]; [+Inf, NaN, -Inf];
// [2, -0, -2]; then -0/+0/NaN quotients only -> the zero point 0.
// Q_AXIS: result 0: tensor<6x3xsi8> = {{\[\[}}-128, 0, 127], [127, 0, -128], [2, 0, -2], [0, 0, 0], [0, 0, 0], [0, 0, 0]]
// RUN: quant-runner %s -e dq_axis --input %t/axis_dq_x.npy --input %t/axis_s.npy --print | FileCheck %s --check-prefix=DQ_AXIS
// Row by row: [-1*0, 0*0, 1*0]; [-1*-0, 0*-0, 1*-0]; [0.5, -0, -0.5];
// [-Inf, 0*Inf = NaN, Inf]; [Inf, NaN, -Inf]; NaN.
// DQ_AXIS: result 0: tensor<6x3xf32> = {{\[\[}}-0, 0, 0], [0, -0, -0], [0.5, -0, -0.5], [-inf, nan, inf], [inf, nan, -inf], [nan, nan, nan]]

func.func @q(%x: tensor<8xf32>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<8xui8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<8xf32>, tensor<f32>, tensor<ui8> -> tensor<8xui8>
  return %y : tensor<8xui8>
}

func.func @dq(%x: tensor<5xui8>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<5xf32> {
  %y = qops.dequantize_linear %x, %s, %zp : tensor<5xui8>, tensor<f32>, tensor<ui8> -> tensor<5xf32>
  return %y : tensor<5xf32>
}

func.func @q_axis(%x: tensor<6x3xf32>, %s: tensor<6xf32>, %zp: tensor<6xsi8>) -> tensor<6x3xsi8> {
  %y = qops.quantize_linear %x, %s, %zp axis = 0 : tensor<6x3xf32>, tensor<6xf32>, tensor<6xsi8> -> tensor<6x3xsi8>
  return %y : tensor<6x3xsi8>
}

func.func @dq_axis(%x: tensor<6x3xsi8>, %s: tensor<6xf32>) -> tensor<6x3xf32> {
  %y = qops.dequantize_linear %x, %s axis = 0 : tensor<6x3xsi8>, tensor<6xf32> -> tensor<6x3xf32>
  return %y : tensor<6x3xf32>
}

func.func @qmm(%a: tensor<1x2xsi8>, %as: tensor<f32>, %azp: tensor<si8>,
               %b: tensor<2x3xsi8>, %bs: tensor<f32>, %bzp: tensor<si8>,
               %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<1x3xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<1x2xsi8>, tensor<f32>, tensor<si8>)
                           b(%b, %bs, %bzp : tensor<2x3xsi8>, tensor<f32>, tensor<si8>)
                           y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<1x3xui8>
  return %y : tensor<1x3xui8>
}
