// RUN: quant-opt %s --qops-decompose-contractions --split-input-file | FileCheck %s

// qops-decompose-contractions, the engine's first stage: every integer
// contraction becomes qkernel.matmul with its operands as they are (ONNX
// types); QLinearMatMul's y parameters become the requantization.

// CHECK-LABEL: func.func @qlinear_matmul
// CHECK-SAME: (%[[A:.*]]: tensor<2x4xui8>, %[[AS:.*]]: tensor<f32>, %[[AZP:.*]]: tensor<ui8>, %[[B:.*]]: tensor<4x3xsi8>, %[[BS:.*]]: tensor<3xf32>, %[[BZP:.*]]: tensor<3xsi8>, %[[YS:.*]]: tensor<f32>, %[[YZP:.*]]: tensor<ui8>)
// CHECK-NOT: qops.qlinear_matmul
// CHECK: %[[Y:.*]] = qkernel.matmul a(%[[A]], %[[AZP]] : tensor<2x4xui8>, tensor<ui8>) b(%[[B]], %[[BZP]] : tensor<4x3xsi8>, tensor<3xsi8>)
// CHECK-SAME: requantize(%[[AS]], %[[BS]], %[[YS]], %[[YZP]] : tensor<f32>, tensor<3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
// CHECK: return %[[Y]]
func.func @qlinear_matmul(%a: tensor<2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xsi8>, %bs: tensor<3xf32>, %bzp: tensor<3xsi8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<2x3xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<ui8>)
                           b(%b, %bs, %bzp : tensor<4x3xsi8>, tensor<3xf32>, tensor<3xsi8>)
                           y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %y : tensor<2x3xui8>
}

// -----

// MatMulInteger: the sums alone; absent zero points stay absent (0).
// CHECK-LABEL: func.func @matmul_integer_no_zero_points
// CHECK: qkernel.matmul a(%{{.*}} : tensor<5x8xsi8>) b(%{{.*}} : tensor<8x6xui8>) -> tensor<5x6xi32>
// CHECK-NOT: requantize
func.func @matmul_integer_no_zero_points(%a: tensor<5x8xsi8>, %b: tensor<8x6xui8>) -> tensor<5x6xi32> {
  %y = qops.matmul_integer a(%a : tensor<5x8xsi8>) b(%b : tensor<8x6xui8>) -> tensor<5x6xi32>
  return %y : tensor<5x6xi32>
}

// -----

// One zero point of two: b's per column ([1, N]) stays b's.
// CHECK-LABEL: func.func @matmul_integer_b_zero_point
// CHECK-SAME: %[[BZP:[^:]*]]: tensor<1x6xui8>
// CHECK: qkernel.matmul a(%{{.*}} : tensor<5x8xsi8>) b(%{{.*}}, %[[BZP]] : tensor<8x6xui8>, tensor<1x6xui8>) -> tensor<5x6xi32>
func.func @matmul_integer_b_zero_point(%a: tensor<5x8xsi8>, %b: tensor<8x6xui8>, %bzp: tensor<1x6xui8>) -> tensor<5x6xi32> {
  %y = qops.matmul_integer a(%a : tensor<5x8xsi8>) b(%b, %bzp : tensor<8x6xui8>, tensor<1x6xui8>) -> tensor<5x6xi32>
  return %y : tensor<5x6xi32>
}

// -----

// numpy.matmul shapes pass through: a 1-D a, a batched dynamic b.
// CHECK-LABEL: func.func @matmul_integer_vector_batched
// CHECK: qkernel.matmul a(%{{.*}}, %{{.*}} : tensor<8xui8>, tensor<ui8>) b(%{{.*}} : tensor<?x8x6xsi8>) -> tensor<?x6xi32>
func.func @matmul_integer_vector_batched(%a: tensor<8xui8>, %azp: tensor<ui8>, %b: tensor<?x8x6xsi8>) -> tensor<?x6xi32> {
  %y = qops.matmul_integer a(%a, %azp : tensor<8xui8>, tensor<ui8>) b(%b : tensor<?x8x6xsi8>) -> tensor<?x6xi32>
  return %y : tensor<?x6xi32>
}

// -----

// Not a contraction: left to convert-qops-to-linalg as it is.
// CHECK-LABEL: func.func @not_a_contraction
// CHECK: qops.quantize_linear
// CHECK-NOT: qkernel.matmul
func.func @not_a_contraction(%x: tensor<4xf32>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<4xui8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xf32>, tensor<f32>, tensor<ui8> -> tensor<4xui8>
  return %y : tensor<4xui8>
}

// -----

// MatMulInteger's fused dequantize clause moves to qkernel.matmul as it is.
// CHECK-LABEL: func.func @matmul_integer_dequantize
// CHECK-SAME: %[[S:[a-z0-9_]+]]: tensor<3xf32>, %[[O:[a-z0-9_]+]]: tensor<f32>
// CHECK: qkernel.matmul a(%{{.*}} : tensor<2x4xui8>) b(%{{.*}} : tensor<4x3xsi8>) dequantize(%[[S]], %[[O]] : tensor<3xf32>, tensor<f32>) -> tensor<2x3xf32>
func.func @matmul_integer_dequantize(%a: tensor<2x4xui8>, %b: tensor<4x3xsi8>, %s: tensor<3xf32>, %o: tensor<f32>) -> tensor<2x3xf32> {
  %y = qops.matmul_integer a(%a : tensor<2x4xui8>) b(%b : tensor<4x3xsi8>) dequantize(%s, %o : tensor<3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
