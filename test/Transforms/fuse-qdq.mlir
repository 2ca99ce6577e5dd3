// RUN: quant-opt %s --qops-fuse-qdq --split-input-file | FileCheck %s

// The importer's 2-D MatMul between DQs, then Q: one qlinear_matmul with the
// DQs' and Q's parameters.
// CHECK-LABEL: func.func @per_tensor_2d
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xui8>, %[[B:.*]]: tensor<8x3xsi8>)
// CHECK-DAG: %[[SA:.*]] = arith.constant dense<5.000000e-01> : tensor<f32>
// CHECK-DAG: %[[ZA:.*]] = arith.constant dense<128> : tensor<ui8>
// CHECK-DAG: %[[SB:.*]] = arith.constant dense<2.500000e-01> : tensor<f32>
// CHECK-DAG: %[[ZB:.*]] = arith.constant dense<-3> : tensor<si8>
// CHECK-DAG: %[[SY:.*]] = arith.constant dense<2.000000e+00> : tensor<f32>
// CHECK-DAG: %[[ZY:.*]] = arith.constant dense<10> : tensor<ui8>
// CHECK: %[[Y:.*]] = qops.qlinear_matmul a(%[[A]], %[[SA]], %[[ZA]] : tensor<4x8xui8>, tensor<f32>, tensor<ui8>) b(%[[B]], %[[SB]], %[[ZB]] : tensor<8x3xsi8>, tensor<f32>, tensor<si8>) y(%[[SY]], %[[ZY]] : tensor<f32>, tensor<ui8>) -> tensor<4x3xui8>
// CHECK-NOT: linalg.matmul
// CHECK: return %[[Y]]
func.func @per_tensor_2d(%a: tensor<4x8xui8>, %b: tensor<8x3xsi8>) -> tensor<4x3xui8> {
  %sa = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<128> : tensor<ui8>
  %sb = arith.constant dense<0.25> : tensor<f32>
  %zb = arith.constant dense<-3> : tensor<si8>
  %sy = arith.constant dense<2.0> : tensor<f32>
  %zy = arith.constant dense<10> : tensor<ui8>
  %da = qops.dequantize_linear %a, %sa, %za : tensor<4x8xui8>, tensor<f32>, tensor<ui8> -> tensor<4x8xf32>
  %db = qops.dequantize_linear %b, %sb, %zb : tensor<8x3xsi8>, tensor<f32>, tensor<si8> -> tensor<8x3xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %m = linalg.matmul ins(%da, %db : tensor<4x8xf32>, tensor<8x3xf32>) outs(%init : tensor<4x3xf32>) -> tensor<4x3xf32>
  %y = qops.quantize_linear %m, %sy, %zy : tensor<4x3xf32>, tensor<f32>, tensor<ui8> -> tensor<4x3xui8>
  return %y : tensor<4x3xui8>
}

// -----

// Per-column weights (axis 1), absent zero points become zeros; an N-D
// activation collapsed into rows keeps its rank in the fused op.
// CHECK-LABEL: func.func @per_column_3d
// CHECK-SAME: (%[[A:.*]]: tensor<2x5x8xsi8>, %[[B:.*]]: tensor<8x3xsi8>, %[[SB:.*]]: tensor<3xf32>)
// CHECK-DAG: %[[ZA:.*]] = arith.constant dense<0> : tensor<si8>
// CHECK: %[[Y:.*]] = qops.qlinear_matmul a(%[[A]], %{{.*}}, %[[ZA]] : tensor<2x5x8xsi8>, tensor<f32>, tensor<si8>) b(%[[B]], %[[SB]], %{{.*}} : tensor<8x3xsi8>, tensor<3xf32>, tensor<3xsi8>) y(%{{.*}}, %[[ZA]] : tensor<f32>, tensor<si8>) -> tensor<2x5x3xsi8>
// CHECK-NOT: tensor.collapse_shape
// CHECK-NOT: linalg.matmul
// CHECK: return %[[Y]]
func.func @per_column_3d(%a: tensor<2x5x8xsi8>, %b: tensor<8x3xsi8>, %sb: tensor<3xf32>) -> tensor<2x5x3xsi8> {
  %sa = arith.constant dense<0.5> : tensor<f32>
  %zb = arith.constant dense<[0, 1, -1]> : tensor<3xsi8>
  %sy = arith.constant dense<2.0> : tensor<f32>
  %da = qops.dequantize_linear %a, %sa : tensor<2x5x8xsi8>, tensor<f32> -> tensor<2x5x8xf32>
  %db = qops.dequantize_linear %b, %sb, %zb axis = 1 : tensor<8x3xsi8>, tensor<3xf32>, tensor<3xsi8> -> tensor<8x3xf32>
  %rows = tensor.collapse_shape %da [[0, 1], [2]] : tensor<2x5x8xf32> into tensor<10x8xf32>
  %e = tensor.empty() : tensor<10x3xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<10x3xf32>) -> tensor<10x3xf32>
  %m = linalg.matmul ins(%rows, %db : tensor<10x8xf32>, tensor<8x3xf32>) outs(%init : tensor<10x3xf32>) -> tensor<10x3xf32>
  %m3 = tensor.expand_shape %m [[0, 1], [2]] output_shape [2, 5, 3] : tensor<10x3xf32> into tensor<2x5x3xf32>
  %y = qops.quantize_linear %m3, %sy output_dtype = si8 : tensor<2x5x3xf32>, tensor<f32> -> tensor<2x5x3xsi8>
  return %y : tensor<2x5x3xsi8>
}

// -----

// Left alone: a per-row activation scale (QLinearMatMul's a is per-tensor
// here), a matmul whose float result has another use, a non-zero init, and
// an f16 Q scale.
// CHECK-LABEL: func.func @per_axis_activation
// CHECK: linalg.matmul
// CHECK: qops.quantize_linear
// CHECK-NOT: qops.qlinear_matmul
func.func @per_axis_activation(%a: tensor<4x8xui8>, %sa: tensor<4xf32>, %b: tensor<8x3xsi8>) -> tensor<4x3xui8> {
  %sb = arith.constant dense<0.25> : tensor<f32>
  %sy = arith.constant dense<2.0> : tensor<f32>
  %da = qops.dequantize_linear %a, %sa axis = 0 : tensor<4x8xui8>, tensor<4xf32> -> tensor<4x8xf32>
  %db = qops.dequantize_linear %b, %sb : tensor<8x3xsi8>, tensor<f32> -> tensor<8x3xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %m = linalg.matmul ins(%da, %db : tensor<4x8xf32>, tensor<8x3xf32>) outs(%init : tensor<4x3xf32>) -> tensor<4x3xf32>
  %y = qops.quantize_linear %m, %sy : tensor<4x3xf32>, tensor<f32> -> tensor<4x3xui8>
  return %y : tensor<4x3xui8>
}

// CHECK-LABEL: func.func @float_result_used
// CHECK: %[[M:.*]] = linalg.matmul
// CHECK: qops.quantize_linear %[[M]]
// CHECK-NOT: qops.qlinear_matmul
func.func @float_result_used(%a: tensor<4x8xui8>, %b: tensor<8x3xsi8>) -> (tensor<4x3xui8>, tensor<4x3xf32>) {
  %s = arith.constant dense<0.25> : tensor<f32>
  %da = qops.dequantize_linear %a, %s : tensor<4x8xui8>, tensor<f32> -> tensor<4x8xf32>
  %db = qops.dequantize_linear %b, %s : tensor<8x3xsi8>, tensor<f32> -> tensor<8x3xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %m = linalg.matmul ins(%da, %db : tensor<4x8xf32>, tensor<8x3xf32>) outs(%init : tensor<4x3xf32>) -> tensor<4x3xf32>
  %y = qops.quantize_linear %m, %s : tensor<4x3xf32>, tensor<f32> -> tensor<4x3xui8>
  return %y, %m : tensor<4x3xui8>, tensor<4x3xf32>
}

// CHECK-LABEL: func.func @accumulates_into_bias
// CHECK: linalg.matmul
// CHECK-NOT: qops.qlinear_matmul
func.func @accumulates_into_bias(%a: tensor<4x8xui8>, %b: tensor<8x3xsi8>, %bias: tensor<4x3xf32>) -> tensor<4x3xui8> {
  %s = arith.constant dense<0.25> : tensor<f32>
  %da = qops.dequantize_linear %a, %s : tensor<4x8xui8>, tensor<f32> -> tensor<4x8xf32>
  %db = qops.dequantize_linear %b, %s : tensor<8x3xsi8>, tensor<f32> -> tensor<8x3xf32>
  %m = linalg.matmul ins(%da, %db : tensor<4x8xf32>, tensor<8x3xf32>) outs(%bias : tensor<4x3xf32>) -> tensor<4x3xf32>
  %y = qops.quantize_linear %m, %s : tensor<4x3xf32>, tensor<f32> -> tensor<4x3xui8>
  return %y : tensor<4x3xui8>
}

// CHECK-LABEL: func.func @f16_output_scale
// CHECK: linalg.matmul
// CHECK-NOT: qops.qlinear_matmul
func.func @f16_output_scale(%a: tensor<4x8xui8>, %b: tensor<8x3xsi8>) -> tensor<4x3xui8> {
  %s = arith.constant dense<0.25> : tensor<f32>
  %sy = arith.constant dense<0.25> : tensor<f16>
  %da = qops.dequantize_linear %a, %s : tensor<4x8xui8>, tensor<f32> -> tensor<4x8xf32>
  %db = qops.dequantize_linear %b, %s : tensor<8x3xsi8>, tensor<f32> -> tensor<8x3xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %m = linalg.matmul ins(%da, %db : tensor<4x8xf32>, tensor<8x3xf32>) outs(%init : tensor<4x3xf32>) -> tensor<4x3xf32>
  %y = qops.quantize_linear %m, %sy : tensor<4x3xf32>, tensor<f16> -> tensor<4x3xui8>
  return %y : tensor<4x3xui8>
}

// -----

// Weight-only matmuls are left alone: the float kernel reads the
// integers (qops-lower-float-contractions, lower-float-contractions.mlir).
// CHECK-LABEL: func.func @int4_weight_only
// CHECK: qops.dequantize_linear
// CHECK: linalg.matmul
func.func @int4_weight_only(%x: tensor<3x8xf32>, %scale: tensor<2x2xf32>) -> tensor<3x2xf32> {
  %w = arith.constant dense<[[1, 7], [-2, -8], [0, 0], [0, 0], [1, 7], [-2, -8], [0, 0], [0, 0]]> : tensor<8x2xsi4>
  %dw = qops.dequantize_linear %w, %scale axis = 0 block_size = 4 : tensor<8x2xsi4>, tensor<2x2xf32> -> tensor<8x2xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %y = linalg.matmul ins(%x, %dw : tensor<3x8xf32>, tensor<8x2xf32>) outs(%init : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

// -----

// Left alone as well: weights that are not constants, a block that does
// not divide K, an odd block, 8-bit weights with an f32 x.
// CHECK-LABEL: func.func @weights_not_constant
// CHECK: qops.dequantize_linear
// CHECK: linalg.matmul
func.func @weights_not_constant(%x: tensor<3x8xf32>, %w: tensor<8x2xsi4>, %scale: tensor<2x2xf32>) -> tensor<3x2xf32> {
  %dw = qops.dequantize_linear %w, %scale axis = 0 block_size = 4 : tensor<8x2xsi4>, tensor<2x2xf32> -> tensor<8x2xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %y = linalg.matmul ins(%x, %dw : tensor<3x8xf32>, tensor<8x2xf32>) outs(%init : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @partial_block
// CHECK: qops.dequantize_linear
// CHECK: linalg.matmul
func.func @partial_block(%x: tensor<3x6xf32>, %scale: tensor<2x2xf32>) -> tensor<3x2xf32> {
  %w = arith.constant dense<1> : tensor<6x2xsi4>
  %dw = qops.dequantize_linear %w, %scale axis = 0 block_size = 4 : tensor<6x2xsi4>, tensor<2x2xf32> -> tensor<6x2xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %y = linalg.matmul ins(%x, %dw : tensor<3x6xf32>, tensor<6x2xf32>) outs(%init : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @odd_block
// CHECK: qops.dequantize_linear
// CHECK: linalg.matmul
func.func @odd_block(%x: tensor<3x6xf32>, %scale: tensor<2x2xf32>) -> tensor<3x2xf32> {
  %w = arith.constant dense<1> : tensor<6x2xsi4>
  %dw = qops.dequantize_linear %w, %scale axis = 0 block_size = 3 : tensor<6x2xsi4>, tensor<2x2xf32> -> tensor<6x2xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %y = linalg.matmul ins(%x, %dw : tensor<3x6xf32>, tensor<6x2xf32>) outs(%init : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @int8_weights
// CHECK: qops.dequantize_linear
// CHECK: linalg.matmul
func.func @int8_weights(%x: tensor<3x8xf32>, %scale: tensor<2x2xf32>) -> tensor<3x2xf32> {
  %w = arith.constant dense<1> : tensor<8x2xsi8>
  %dw = qops.dequantize_linear %w, %scale axis = 0 block_size = 4 : tensor<8x2xsi8>, tensor<2x2xf32> -> tensor<8x2xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %y = linalg.matmul ins(%x, %dw : tensor<3x8xf32>, tensor<8x2xf32>) outs(%init : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

// -----

// DQ(a) x DQ(b) with a float result that no Q reads (a QDQ model's last
// layer): matmul_integer with the dequantize clause, its scale the product
// sa * sb[n] (one generic of sb's shape).
// CHECK-LABEL: func.func @float_result
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xui8>, %[[B:.*]]: tensor<8x3xsi8>, %[[SB:.*]]: tensor<3xf32>)
// CHECK: %[[SA:.*]] = arith.constant dense<5.000000e-01> : tensor<f32>
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[SA]], %[[SB]] : tensor<f32>, tensor<3xf32>)
// CHECK: arith.mulf
// CHECK: %[[Y:.*]] = qops.matmul_integer a(%[[A]] : tensor<4x8xui8>) b(%[[B]] : tensor<8x3xsi8>) dequantize(%[[S]] : tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NOT: linalg.matmul
// CHECK: return %[[Y]]
func.func @float_result(%a: tensor<4x8xui8>, %b: tensor<8x3xsi8>, %sb: tensor<3xf32>) -> tensor<4x3xf32> {
  %sa = arith.constant dense<0.5> : tensor<f32>
  %da = qops.dequantize_linear %a, %sa : tensor<4x8xui8>, tensor<f32> -> tensor<4x8xf32>
  %db = qops.dequantize_linear %b, %sb axis = 1 : tensor<8x3xsi8>, tensor<3xf32> -> tensor<8x3xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %m = linalg.matmul ins(%da, %db : tensor<4x8xf32>, tensor<8x3xf32>) outs(%init : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %m : tensor<4x3xf32>
}

// -----

// Left alone: a per-row b scale (axis 0), which the clause cannot apply.
// CHECK-LABEL: func.func @float_result_b_per_row
// CHECK: linalg.matmul
// CHECK-NOT: qops.matmul_integer
func.func @float_result_b_per_row(%a: tensor<4x8xui8>, %b: tensor<8x3xsi8>, %sb: tensor<8xf32>) -> tensor<4x3xf32> {
  %sa = arith.constant dense<0.5> : tensor<f32>
  %da = qops.dequantize_linear %a, %sa : tensor<4x8xui8>, tensor<f32> -> tensor<4x8xf32>
  %db = qops.dequantize_linear %b, %sb axis = 0 : tensor<8x3xsi8>, tensor<8xf32> -> tensor<8x3xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %m = linalg.matmul ins(%da, %db : tensor<4x8xf32>, tensor<8x3xf32>) outs(%init : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %m : tensor<4x3xf32>
}
