// RUN: quant-opt %s --convert-qops-to-linalg --split-input-file | FileCheck %s

// Float8 results are computed on the f32 bit pattern with integer
// arithmetic (FloatFormats.cpp) and stored as i8 bits; the numbers are
// checked against an exact reference in test/Integration.

// CHECK-LABEL: func.func @quantize_to_e4m3fn
// CHECK-SAME: -> tensor<4xi8>
// CHECK-SAME: qops.signature = (tensor<4xf32>, tensor<f32>) -> tensor<4xf8E4M3FN>
// CHECK: ^bb0(%[[XV:.*]]: f32, %[[SV:.*]]: f32, %{{.*}}: i8):
// CHECK: %[[Q:.*]] = arith.divf %[[XV]], %[[SV]] : f32
// CHECK: arith.bitcast %[[Q]] : f32 to i32
// CHECK-NOT: math.roundeven
// CHECK: %[[BITS:.*]] = arith.trunci %{{.*}} : i32 to i8
// CHECK: linalg.yield %[[BITS]] : i8
func.func @quantize_to_e4m3fn(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xf8E4M3FN> {
  %y = qops.quantize_linear %x, %s saturate = false output_dtype = f8E4M3FN : tensor<4xf32>, tensor<f32> -> tensor<4xf8E4M3FN>
  return %y : tensor<4xf8E4M3FN>
}

// -----

// float4: the zero point is decoded and added before rounding.
// CHECK-LABEL: func.func @quantize_to_f4_with_zp
// CHECK: ^bb0(%[[XV:.*]]: f32, %[[SV:.*]]: f32, %[[ZV:.*]]: i8, %{{.*}}: i8):
// CHECK: %[[Q:.*]] = arith.divf %[[XV]], %[[SV]] : f32
// CHECK: arith.extui %[[ZV]] : i8 to i32
// CHECK: %[[ZF:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK: arith.addf %[[Q]], %[[ZF]] : f32
func.func @quantize_to_f4_with_zp(%x: tensor<4xf32>, %s: tensor<f32>, %zp: tensor<f4E2M1FN>) -> tensor<4xf4E2M1FN> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xf32>, tensor<f32>, tensor<f4E2M1FN> -> tensor<4xf4E2M1FN>
  return %y : tensor<4xf4E2M1FN>
}

// -----

// Dequantize from float8 with an e8m0 scale: both decoded to f32 exactly,
// multiplied in f32, rounded once to bf16.
// CHECK-LABEL: func.func @dequantize_e5m2_e8m0_scale
// CHECK: ^bb0(%[[XV:.*]]: i8, %[[SV:.*]]: i8, %{{.*}}: bf16):
// CHECK: arith.extui %[[XV]] : i8 to i32
// CHECK: arith.extui %[[SV]] : i8 to i32
// CHECK: %[[P:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: arith.bitcast %[[P]] : f32 to i32
// CHECK: arith.bitcast %{{.*}} : i16 to bf16
func.func @dequantize_e5m2_e8m0_scale(%x: tensor<2x64xf8E5M2>, %s: tensor<2x2xf8E8M0FNU>) -> tensor<2x64xbf16> {
  %y = qops.dequantize_linear %x, %s axis = 1 block_size = 32 output_dtype = bf16 : tensor<2x64xf8E5M2>, tensor<2x2xf8E8M0FNU> -> tensor<2x64xbf16>
  return %y : tensor<2x64xbf16>
}

// -----

// Float8 QLinearMatMul accumulates in f64.
// CHECK-LABEL: func.func @qmatmul_e4m3fn
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: linalg.fill ins(%[[ZERO]] : f64) outs(%{{.*}} : tensor<2x3xf64>)
// CHECK: linalg.generic
// CHECK: arith.subf %{{.*}}, %{{.*}} : f64
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f64
// CHECK: arith.addf %{{.*}}, %{{.*}} : f64
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3xf64>,
func.func @qmatmul_e4m3fn(%a: tensor<2x4xf8E4M3FN>, %as: tensor<f32>, %azp: tensor<f8E4M3FN>, %b: tensor<4x3xf8E4M3FN>, %bs: tensor<f32>, %bzp: tensor<f8E4M3FN>, %ys: tensor<f32>, %yzp: tensor<f8E4M3FN>) -> tensor<2x3xf8E4M3FN> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xf8E4M3FN>, tensor<f32>, tensor<f8E4M3FN>) b(%b, %bs, %bzp : tensor<4x3xf8E4M3FN>, tensor<f32>, tensor<f8E4M3FN>) y(%ys, %yzp : tensor<f32>, tensor<f8E4M3FN>) -> tensor<2x3xf8E4M3FN>
  return %y : tensor<2x3xf8E4M3FN>
}
