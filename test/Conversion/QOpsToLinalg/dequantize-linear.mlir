// RUN: quant-opt %s --convert-qops-to-linalg --split-input-file | FileCheck %s

// (x - zp) exactly in i32, converted to f32, times the scale in f32.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[AXIS:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @dequantize_per_axis_u8
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[AXIS]], #[[AXIS]], #[[ID]]]
// CHECK: ^bb0(%[[XV:.*]]: i8, %[[SV:.*]]: f32, %[[ZV:.*]]: i8, %{{.*}}: f32):
// CHECK: %[[X32:.*]] = arith.extui %[[XV]] : i8 to i32
// CHECK: %[[Z32:.*]] = arith.extui %[[ZV]] : i8 to i32
// CHECK: %[[D:.*]] = arith.subi %[[X32]], %[[Z32]] : i32
// CHECK: %[[DF:.*]] = arith.sitofp %[[D]] : i32 to f32
// CHECK: %[[Y:.*]] = arith.mulf %[[DF]], %[[SV]] : f32
// CHECK: linalg.yield %[[Y]] : f32
func.func @dequantize_per_axis_u8(%x: tensor<1x3x3x2xui8>, %s: tensor<3xf32>, %zp: tensor<3xui8>) -> tensor<1x3x3x2xf32> {
  %y = qops.dequantize_linear %x, %s, %zp axis = 1 : tensor<1x3x3x2xui8>, tensor<3xf32>, tensor<3xui8> -> tensor<1x3x3x2xf32>
  return %y : tensor<1x3x3x2xf32>
}

// -----

// Blocked int4 with f16 scales: the product is formed in f32 and rounded
// once to f16.
// CHECK-DAG: #[[BLOCK:.*]] = affine_map<(d0, d1) -> (d0, d1 floordiv 32)>
// CHECK-LABEL: func.func @dequantize_blocked_int4_f16
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[BLOCK]], #[[BLOCK]], #{{.*}}]
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: %[[SF:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK: %[[P:.*]] = arith.mulf %{{.*}}, %[[SF]] : f32
// CHECK: %[[H:.*]] = arith.truncf %[[P]] : f32 to f16
// CHECK: linalg.yield %[[H]] : f16
func.func @dequantize_blocked_int4_f16(%x: tensor<2x70xsi4>, %s: tensor<2x3xf16>, %zp: tensor<2x3xsi4>) -> tensor<2x70xf16> {
  %y = qops.dequantize_linear %x, %s, %zp axis = 1 block_size = 32 : tensor<2x70xsi4>, tensor<2x3xf16>, tensor<2x3xsi4> -> tensor<2x70xf16>
  return %y : tensor<2x70xf16>
}

// -----

// int32 input: converted to f32 first (as the ONNX reference does).
// CHECK-LABEL: func.func @dequantize_int32
// CHECK: ^bb0(%[[XV:.*]]: i32, %[[SV:.*]]: f32,
// CHECK: %[[XF:.*]] = arith.sitofp %[[XV]] : i32 to f32
// CHECK: arith.mulf %[[XF]], %[[SV]] : f32
func.func @dequantize_int32(%x: tensor<8xi32>, %s: tensor<f32>) -> tensor<8xf32> {
  %y = qops.dequantize_linear %x, %s : tensor<8xi32>, tensor<f32> -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// output_dtype bf16 with an f32 scale: the product is rounded to bf16 on its
// bit pattern (round to nearest even, subnormals kept), independently of the
// target's bf16 conversion instructions.
// CHECK-LABEL: func.func @dequantize_output_dtype_bf16
// CHECK: tensor.empty() : tensor<4xbf16>
// CHECK: arith.extsi %{{.*}} : i16 to i32
// CHECK: %[[P:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: arith.bitcast %[[P]] : f32 to i32
// CHECK: arith.bitcast %{{.*}} : i16 to bf16
func.func @dequantize_output_dtype_bf16(%x: tensor<4xsi16>, %s: tensor<f32>) -> tensor<4xbf16> {
  %y = qops.dequantize_linear %x, %s output_dtype = bf16 : tensor<4xsi16>, tensor<f32> -> tensor<4xbf16>
  return %y : tensor<4xbf16>
}
