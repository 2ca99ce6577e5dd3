// RUN: quant-opt %s --qops-fuse-qdq --split-input-file | FileCheck %s

// qops-fuse-qdq on quantize_dynamic's layers as the importer writes them
// (FuseDynamicQuantization.cpp): Cast(float) of the integer op's sums, Mul by
// the scale product, Add of the bias, each an elementwise linalg.generic.

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#scalar4 = affine_map<(d0, d1, d2, d3) -> ()>
#channel4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>

// ConvInteger -> Cast -> Mul(scalar) -> Add(bias [1, M, 1, 1]): the clause
// takes the scalar as it is and the bias collapsed to [M]; the three
// generics are gone.
// CHECK-LABEL: func.func @conv_scalar_scale_channel_bias
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x5x5xui8>, %[[W:.*]]: tensor<3x2x3x3xsi8>, %[[S:.*]]: tensor<f32>, %[[B:.*]]: tensor<1x3x1x1xf32>)
// CHECK: %[[O:.*]] = tensor.collapse_shape %[[B]] {{\[}}[0, 1, 2, 3]] : tensor<1x3x1x1xf32> into tensor<3xf32>
// CHECK: %[[Y:.*]] = qops.conv_integer x(%[[X]] : tensor<1x2x5x5xui8>) w(%[[W]] : tensor<3x2x3x3xsi8>) dequantize(%[[S]], %[[O]] : tensor<f32>, tensor<3xf32>) {pads = array<i64: 1, 1, 1, 1>} -> tensor<1x3x5x5xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[Y]]
func.func @conv_scalar_scale_channel_bias(%x: tensor<1x2x5x5xui8>, %w: tensor<3x2x3x3xsi8>, %s: tensor<f32>, %b: tensor<1x3x1x1xf32>) -> tensor<1x3x5x5xf32> {
  %sums = qops.conv_integer x(%x : tensor<1x2x5x5xui8>) w(%w : tensor<3x2x3x3xsi8>) {pads = array<i64: 1, 1, 1, 1>} -> tensor<1x3x5x5xi32>
  %e0 = tensor.empty() : tensor<1x3x5x5xf32>
  %f = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sums : tensor<1x3x5x5xi32>) outs(%e0 : tensor<1x3x5x5xf32>) {
  ^bb0(%in: i32, %out: f32):
    %v = arith.sitofp %in : i32 to f32
    linalg.yield %v : f32
  } -> tensor<1x3x5x5xf32>
  %e1 = tensor.empty() : tensor<1x3x5x5xf32>
  %m = linalg.generic {indexing_maps = [#id4, #scalar4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%f, %s : tensor<1x3x5x5xf32>, tensor<f32>) outs(%e1 : tensor<1x3x5x5xf32>) {
  ^bb0(%in: f32, %in1: f32, %out: f32):
    %v = arith.mulf %in, %in1 : f32
    linalg.yield %v : f32
  } -> tensor<1x3x5x5xf32>
  %e2 = tensor.empty() : tensor<1x3x5x5xf32>
  %y = linalg.generic {indexing_maps = [#id4, #channel4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%m, %b : tensor<1x3x5x5xf32>, tensor<1x3x1x1xf32>) outs(%e2 : tensor<1x3x5x5xf32>) {
  ^bb0(%in: f32, %in1: f32, %out: f32):
    %v = arith.addf %in, %in1 : f32
    linalg.yield %v : f32
  } -> tensor<1x3x5x5xf32>
  return %y : tensor<1x3x5x5xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#column = affine_map<(d0, d1) -> (d1)>

// MatMulInteger -> Cast -> Mul(per-column scale [N], first operand): the
// clause takes it as it is; no Add follows.
// CHECK-LABEL: func.func @matmul_column_scale
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xui8>, %[[AZ:.*]]: tensor<ui8>, %[[B:.*]]: tensor<8x3xsi8>, %[[S:.*]]: tensor<3xf32>)
// CHECK: %[[Y:.*]] = qops.matmul_integer a(%[[A]], %[[AZ]] : tensor<4x8xui8>, tensor<ui8>) b(%[[B]] : tensor<8x3xsi8>) dequantize(%[[S]] : tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[Y]]
func.func @matmul_column_scale(%a: tensor<4x8xui8>, %az: tensor<ui8>, %b: tensor<8x3xsi8>, %s: tensor<3xf32>) -> tensor<4x3xf32> {
  %sums = qops.matmul_integer a(%a, %az : tensor<4x8xui8>, tensor<ui8>) b(%b : tensor<8x3xsi8>) -> tensor<4x3xi32>
  %e0 = tensor.empty() : tensor<4x3xf32>
  %f = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%sums : tensor<4x3xi32>) outs(%e0 : tensor<4x3xf32>) {
  ^bb0(%in: i32, %out: f32):
    %v = arith.sitofp %in : i32 to f32
    linalg.yield %v : f32
  } -> tensor<4x3xf32>
  %e1 = tensor.empty() : tensor<4x3xf32>
  %y = linalg.generic {indexing_maps = [#column, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%s, %f : tensor<3xf32>, tensor<4x3xf32>) outs(%e1 : tensor<4x3xf32>) {
  ^bb0(%in: f32, %in1: f32, %out: f32):
    %v = arith.mulf %in, %in1 : f32
    linalg.yield %v : f32
  } -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#scalar2 = affine_map<(d0, d1) -> ()>

// A scale that varies along the rows is not a dequantize clause: nothing
// changes.
// CHECK-LABEL: func.func @matmul_row_scale_not_fused
// CHECK: qops.matmul_integer {{.*}} -> tensor<4x3xi32>
// CHECK: arith.sitofp
// CHECK: arith.mulf
func.func @matmul_row_scale_not_fused(%a: tensor<4x8xui8>, %b: tensor<8x3xsi8>, %s: tensor<4x1xf32>) -> tensor<4x3xf32> {
  %sums = qops.matmul_integer a(%a : tensor<4x8xui8>) b(%b : tensor<8x3xsi8>) -> tensor<4x3xi32>
  %e0 = tensor.empty() : tensor<4x3xf32>
  %f = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%sums : tensor<4x3xi32>) outs(%e0 : tensor<4x3xf32>) {
  ^bb0(%in: i32, %out: f32):
    %v = arith.sitofp %in : i32 to f32
    linalg.yield %v : f32
  } -> tensor<4x3xf32>
  %e1 = tensor.empty() : tensor<4x3xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]} ins(%f, %s : tensor<4x3xf32>, tensor<4x1xf32>) outs(%e1 : tensor<4x3xf32>) {
  ^bb0(%in: f32, %in1: f32, %out: f32):
    %v = arith.mulf %in, %in1 : f32
    linalg.yield %v : f32
  } -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#scalar2 = affine_map<(d0, d1) -> ()>

// The Cast's result is used twice (the f32 sums are needed whole): nothing
// changes.
// CHECK-LABEL: func.func @cast_used_twice_not_fused
// CHECK: qops.matmul_integer {{.*}} -> tensor<4x3xi32>
// CHECK: arith.mulf
// CHECK: return
func.func @cast_used_twice_not_fused(%a: tensor<4x8xui8>, %b: tensor<8x3xsi8>, %s: tensor<f32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %sums = qops.matmul_integer a(%a : tensor<4x8xui8>) b(%b : tensor<8x3xsi8>) -> tensor<4x3xi32>
  %e0 = tensor.empty() : tensor<4x3xf32>
  %f = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%sums : tensor<4x3xi32>) outs(%e0 : tensor<4x3xf32>) {
  ^bb0(%in: i32, %out: f32):
    %v = arith.sitofp %in : i32 to f32
    linalg.yield %v : f32
  } -> tensor<4x3xf32>
  %e1 = tensor.empty() : tensor<4x3xf32>
  %y = linalg.generic {indexing_maps = [#id2, #scalar2, #id2], iterator_types = ["parallel", "parallel"]} ins(%f, %s : tensor<4x3xf32>, tensor<f32>) outs(%e1 : tensor<4x3xf32>) {
  ^bb0(%in: f32, %in1: f32, %out: f32):
    %v = arith.mulf %in, %in1 : f32
    linalg.yield %v : f32
  } -> tensor<4x3xf32>
  return %y, %f : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#scalar2 = affine_map<(d0, d1) -> ()>
#row = affine_map<(d0, d1) -> (d0, 0)>

// The Add's bias varies along the rows: the Mul is fused, the Add stays.
// CHECK-LABEL: func.func @row_bias_stays
// CHECK: %[[Y:.*]] = qops.matmul_integer {{.*}} dequantize(%{{.*}} : tensor<f32>) -> tensor<4x3xf32>
// CHECK: linalg.generic {{.*}} ins(%[[Y]], %{{.*}} : tensor<4x3xf32>, tensor<4x1xf32>)
// CHECK: arith.addf
func.func @row_bias_stays(%a: tensor<4x8xui8>, %b: tensor<8x3xsi8>, %s: tensor<f32>, %o: tensor<4x1xf32>) -> tensor<4x3xf32> {
  %sums = qops.matmul_integer a(%a : tensor<4x8xui8>) b(%b : tensor<8x3xsi8>) -> tensor<4x3xi32>
  %e0 = tensor.empty() : tensor<4x3xf32>
  %f = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%sums : tensor<4x3xi32>) outs(%e0 : tensor<4x3xf32>) {
  ^bb0(%in: i32, %out: f32):
    %v = arith.sitofp %in : i32 to f32
    linalg.yield %v : f32
  } -> tensor<4x3xf32>
  %e1 = tensor.empty() : tensor<4x3xf32>
  %m = linalg.generic {indexing_maps = [#id2, #scalar2, #id2], iterator_types = ["parallel", "parallel"]} ins(%f, %s : tensor<4x3xf32>, tensor<f32>) outs(%e1 : tensor<4x3xf32>) {
  ^bb0(%in: f32, %in1: f32, %out: f32):
    %v = arith.mulf %in, %in1 : f32
    linalg.yield %v : f32
  } -> tensor<4x3xf32>
  %e2 = tensor.empty() : tensor<4x3xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]} ins(%m, %o : tensor<4x3xf32>, tensor<4x1xf32>) outs(%e2 : tensor<4x3xf32>) {
  ^bb0(%in: f32, %in1: f32, %out: f32):
    %v = arith.addf %in, %in1 : f32
    linalg.yield %v : f32
  } -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}
