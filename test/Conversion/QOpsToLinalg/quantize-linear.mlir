// RUN: quant-opt %s --convert-qops-to-linalg --split-input-file | FileCheck %s

// Per-tensor: the scale and zero point are rank-0 tensors read through `()`.
// CHECK-DAG: #[[ID1:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[SCALAR1:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @quantize_per_tensor_u8
// CHECK-SAME: (%[[X:.*]]: tensor<6xf32>, %[[S:.*]]: tensor<f32>, %[[ZP:.*]]: tensor<i8>) -> tensor<6xi8>
// CHECK-SAME: qops.signature = (tensor<6xf32>, tensor<f32>, tensor<ui8>) -> tensor<6xui8>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<6xi8>
// CHECK: linalg.generic {indexing_maps = [#[[ID1]], #[[SCALAR1]], #[[SCALAR1]], #[[ID1]]], iterator_types = ["parallel"]}
// CHECK-SAME: ins(%[[X]], %[[S]], %[[ZP]] : tensor<6xf32>, tensor<f32>, tensor<i8>) outs(%[[EMPTY]] : tensor<6xi8>)
// CHECK: ^bb0(%[[XV:.*]]: f32, %[[SV:.*]]: f32, %[[ZV:.*]]: i8, %{{.*}}: i8):
// CHECK: %[[Q:.*]] = arith.divf %[[XV]], %[[SV]] : f32
// CHECK: %[[Z32:.*]] = arith.extui %[[ZV]] : i8 to i32
// CHECK: %[[R:.*]] = math.roundeven %[[Q]] : f32
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[R]], %[[R]] : f32
// CHECK: %[[RN:.*]] = arith.select %[[NAN]], %{{.*}}, %[[R]] : f32
// CHECK: %[[LO:.*]] = arith.subi %{{.*}}, %[[Z32]] : i32
// CHECK: %[[HI:.*]] = arith.subi %{{.*}}, %[[Z32]] : i32
// CHECK: %[[LOF:.*]] = arith.sitofp %[[LO]] : i32 to f32
// CHECK: %[[HIF:.*]] = arith.sitofp %[[HI]] : i32 to f32
// CHECK: %[[C1:.*]] = arith.maxnumf %[[RN]], %[[LOF]] fastmath<nnan,nsz> : f32
// CHECK: %[[C2:.*]] = arith.minnumf %[[C1]], %[[HIF]] fastmath<nnan,nsz> : f32
// CHECK: %[[I:.*]] = arith.fptosi %[[C2]] : f32 to i32
// CHECK: %[[Y:.*]] = arith.addi %[[I]], %[[Z32]] : i32
// CHECK: %[[T:.*]] = arith.trunci %[[Y]] : i32 to i8
// CHECK: linalg.yield %[[T]] : i8
func.func @quantize_per_tensor_u8(%x: tensor<6xf32>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<6xui8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<6xf32>, tensor<f32>, tensor<ui8> -> tensor<6xui8>
  return %y : tensor<6xui8>
}

// -----

// A [1]-shaped scale is collapsed to rank 0; without a zero point the bounds
// are those of si8 around 0.
// CHECK-LABEL: func.func @quantize_scale_shape_1_no_zp
// CHECK: %[[S0:.*]] = tensor.collapse_shape %{{.*}} [] : tensor<1xf32> into tensor<f32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %[[S0]] : tensor<4xf32>, tensor<f32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG: arith.constant -128 : i32
// CHECK-DAG: arith.constant 127 : i32
// CHECK: arith.addi %{{.*}}, %[[ZERO]] : i32
// CHECK: arith.trunci %{{.*}} : i32 to i8
func.func @quantize_scale_shape_1_no_zp(%x: tensor<4xf32>, %s: tensor<1xf32>) -> tensor<4xsi8> {
  %y = qops.quantize_linear %x, %s output_dtype = si8 : tensor<4xf32>, tensor<1xf32> -> tensor<4xsi8>
  return %y : tensor<4xsi8>
}

// -----

// Per-axis with a negative axis: the scale is read at d1; si4 sign-extends.
// CHECK-DAG: #[[AXIS:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @quantize_per_axis_negative
// CHECK-SAME: tensor<4xi8>) -> tensor<?x4xi8>
// CHECK: %[[DIM:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x4xf32>
// CHECK: tensor.empty(%[[DIM]]) : tensor<?x4xi8>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[AXIS]], #[[AXIS]], #{{.*}}]
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK-DAG: arith.constant -8 : i32
// CHECK-DAG: arith.constant 7 : i32
func.func @quantize_per_axis_negative(%x: tensor<?x4xf32>, %s: tensor<4xf32>, %zp: tensor<4xsi4>) -> tensor<?x4xsi4> {
  %y = qops.quantize_linear %x, %s, %zp axis = -1 : tensor<?x4xf32>, tensor<4xf32>, tensor<4xsi4> -> tensor<?x4xsi4>
  return %y : tensor<?x4xsi4>
}

// -----

// Blocked: the scale index along the axis is d floordiv block_size, so the
// partial last block needs no special case.
// CHECK-DAG: #[[BLOCK:.*]] = affine_map<(d0, d1) -> (d0 floordiv 32, d1)>
// CHECK-LABEL: func.func @quantize_blocked_partial
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[BLOCK]], #[[BLOCK]], #{{.*}}]
// CHECK-SAME: ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<70x3xf32>, tensor<3x3xf32>, tensor<3x3xi8>)
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK-DAG: arith.constant 15 : i32
func.func @quantize_blocked_partial(%x: tensor<70x3xf32>, %s: tensor<3x3xf32>, %zp: tensor<3x3xui4>) -> tensor<70x3xui4> {
  %y = qops.quantize_linear %x, %s, %zp axis = 0 block_size = 32 : tensor<70x3xf32>, tensor<3x3xf32>, tensor<3x3xui4> -> tensor<70x3xui4>
  return %y : tensor<70x3xui4>
}

// -----

// The division happens in the scale's type: x is rounded to f16 first, the
// rounded quotient is extended to f32 for the clamp.
// CHECK-LABEL: func.func @quantize_f16_scale
// CHECK: ^bb0(%[[XV:.*]]: f32, %[[SV:.*]]: f16,
// CHECK: %[[XH:.*]] = arith.truncf %[[XV]] : f32 to f16
// CHECK: %[[Q:.*]] = arith.divf %[[XH]], %[[SV]] : f16
// CHECK: %[[R:.*]] = math.roundeven %[[Q]] : f16
// CHECK: arith.extf %[[R]] : f16 to f32
// CHECK-DAG: arith.constant 65535 : i32
// CHECK: arith.trunci %{{.*}} : i32 to i16
func.func @quantize_f16_scale(%x: tensor<8xf32>, %s: tensor<f16>, %zp: tensor<ui16>) -> tensor<8xui16> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<8xf32>, tensor<f16>, tensor<ui16> -> tensor<8xui16>
  return %y : tensor<8xui16>
}

// -----

// `precision` overrides the scale's type: an f16 scale is extended to f32.
// CHECK-LABEL: func.func @quantize_precision_f32
// CHECK: ^bb0(%[[XV:.*]]: f32, %[[SV:.*]]: f16,
// CHECK: %[[SF:.*]] = arith.extf %[[SV]] : f16 to f32
// CHECK: arith.divf %[[XV]], %[[SF]] : f32
func.func @quantize_precision_f32(%x: tensor<8xf32>, %s: tensor<f16>, %zp: tensor<si8>) -> tensor<8xsi8> {
  %y = qops.quantize_linear %x, %s, %zp precision = f32 : tensor<8xf32>, tensor<f16>, tensor<si8> -> tensor<8xsi8>
  return %y : tensor<8xsi8>
}

// -----

// int32 x converts to the division type with sitofp; an int32 scale divides
// in f64 (as the ONNX reference's true division does).
// CHECK-LABEL: func.func @quantize_int32_input
// CHECK: ^bb0(%[[XV:.*]]: i32, %[[SV:.*]]: f32,
// CHECK: %[[XF:.*]] = arith.sitofp %[[XV]] : i32 to f32
// CHECK: arith.divf %[[XF]], %[[SV]] : f32
func.func @quantize_int32_input(%x: tensor<8xi32>, %s: tensor<f32>) -> tensor<8xui8> {
  %y = qops.quantize_linear %x, %s : tensor<8xi32>, tensor<f32> -> tensor<8xui8>
  return %y : tensor<8xui8>
}

// CHECK-LABEL: func.func @quantize_int32_scale
// CHECK: ^bb0(%[[XV:.*]]: f32, %[[SV:.*]]: i32,
// CHECK-DAG: %[[XD:.*]] = arith.extf %[[XV]] : f32 to f64
// CHECK-DAG: %[[SD:.*]] = arith.sitofp %[[SV]] : i32 to f64
// CHECK: arith.divf %[[XD]], %[[SD]] : f64
// CHECK: math.roundeven %{{.*}} : f64
// CHECK: arith.sitofp %{{.*}} : i32 to f64
func.func @quantize_int32_scale(%x: tensor<8xf32>, %s: tensor<i32>) -> tensor<8xui8> {
  %y = qops.quantize_linear %x, %s : tensor<8xf32>, tensor<i32> -> tensor<8xui8>
  return %y : tensor<8xui8>
}

// -----

// Rank 0 input: a generic with no loops.
// CHECK-LABEL: func.func @quantize_rank0
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = []}
func.func @quantize_rank0(%x: tensor<f32>, %s: tensor<f32>) -> tensor<ui2> {
  %y = qops.quantize_linear %x, %s output_dtype = ui2 : tensor<f32>, tensor<f32> -> tensor<ui2>
  return %y : tensor<ui2>
}

// -----

// A blocked axis that the block size divides is split into [blocks, block]:
// the scale is read through a projection, which vectorizes along the
// contiguous dimension, and the result is collapsed back.
// CHECK-DAG: #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[PROJ:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @quantize_blocked_split
// CHECK-SAME: (%[[X:.*]]: tensor<4x64xf32>, %[[S:.*]]: tensor<4x2xf32>, %[[ZP:.*]]: tensor<4x2xi8>)
// CHECK: %[[XS:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2]] output_shape [4, 2, 32] : tensor<4x64xf32> into tensor<4x2x32xf32>
// CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [#[[ID3]], #[[PROJ]], #[[PROJ]], #[[ID3]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[XS]], %[[S]], %[[ZP]] : tensor<4x2x32xf32>, tensor<4x2xf32>, tensor<4x2xi8>)
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[Y]] {{\[\[}}0], [1, 2]] : tensor<4x2x32xi8> into tensor<4x64xi8>
// CHECK: return %[[C]]
func.func @quantize_blocked_split(%x: tensor<4x64xf32>, %s: tensor<4x2xf32>, %zp: tensor<4x2xsi4>) -> tensor<4x64xsi4> {
  %y = qops.quantize_linear %x, %s, %zp axis = 1 block_size = 32 : tensor<4x64xf32>, tensor<4x2xf32>, tensor<4x2xsi4> -> tensor<4x64xsi4>
  return %y : tensor<4x64xsi4>
}
