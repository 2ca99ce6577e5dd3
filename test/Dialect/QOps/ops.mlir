// RUN: quant-opt %s | quant-opt | FileCheck %s
// RUN: quant-opt %s --mlir-print-op-generic | quant-opt | FileCheck %s

// Round trip of every qops op in every form the dialect models.

// CHECK-LABEL: func.func @quantize_per_tensor_u8
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<6xf32>, tensor<f32>, tensor<ui8> -> tensor<6xui8>
func.func @quantize_per_tensor_u8(%x: tensor<6xf32>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<6xui8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<6xf32>, tensor<f32>, tensor<ui8> -> tensor<6xui8>
  return %y : tensor<6xui8>
}

// CHECK-LABEL: func.func @quantize_per_tensor_no_zp
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}} : tensor<6xf32>, tensor<f32> -> tensor<6xui8>
func.func @quantize_per_tensor_no_zp(%x: tensor<6xf32>, %s: tensor<f32>) -> tensor<6xui8> {
  %y = qops.quantize_linear %x, %s : tensor<6xf32>, tensor<f32> -> tensor<6xui8>
  return %y : tensor<6xui8>
}

// CHECK-LABEL: func.func @quantize_per_tensor_zp_shape1
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<5xf32>, tensor<f32>, tensor<1xf8E4M3FN> -> tensor<5xf8E4M3FN>
func.func @quantize_per_tensor_zp_shape1(%x: tensor<5xf32>, %s: tensor<f32>, %zp: tensor<1xf8E4M3FN>) -> tensor<5xf8E4M3FN> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<5xf32>, tensor<f32>, tensor<1xf8E4M3FN> -> tensor<5xf8E4M3FN>
  return %y : tensor<5xf8E4M3FN>
}

// CHECK-LABEL: func.func @quantize_per_tensor_scale_shape1
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} axis = 1 : tensor<2x3xf32>, tensor<1xf32>, tensor<1xsi8> -> tensor<2x3xsi8>
func.func @quantize_per_tensor_scale_shape1(%x: tensor<2x3xf32>, %s: tensor<1xf32>, %zp: tensor<1xsi8>) -> tensor<2x3xsi8> {
  %y = qops.quantize_linear %x, %s, %zp axis = 1 : tensor<2x3xf32>, tensor<1xf32>, tensor<1xsi8> -> tensor<2x3xsi8>
  return %y : tensor<2x3xsi8>
}

// CHECK-LABEL: func.func @quantize_per_axis
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} axis = 1 : tensor<1x3x3x2xf32>, tensor<3xf32>, tensor<3xui8> -> tensor<1x3x3x2xui8>
func.func @quantize_per_axis(%x: tensor<1x3x3x2xf32>, %s: tensor<3xf32>, %zp: tensor<3xui8>) -> tensor<1x3x3x2xui8> {
  %y = qops.quantize_linear %x, %s, %zp axis = 1 : tensor<1x3x3x2xf32>, tensor<3xf32>, tensor<3xui8> -> tensor<1x3x3x2xui8>
  return %y : tensor<1x3x3x2xui8>
}

// CHECK-LABEL: func.func @quantize_per_axis_negative_axis
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} axis = -1 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xsi8> -> tensor<2x3xsi8>
func.func @quantize_per_axis_negative_axis(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %zp: tensor<3xsi8>) -> tensor<2x3xsi8> {
  %y = qops.quantize_linear %x, %s, %zp axis = -1 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xsi8> -> tensor<2x3xsi8>
  return %y : tensor<2x3xsi8>
}

// CHECK-LABEL: func.func @quantize_per_axis_axis0
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} axis = 0 : tensor<3x4xf32>, tensor<3xf32>, tensor<3xsi4> -> tensor<3x4xsi4>
func.func @quantize_per_axis_axis0(%x: tensor<3x4xf32>, %s: tensor<3xf32>, %zp: tensor<3xsi4>) -> tensor<3x4xsi4> {
  %y = qops.quantize_linear %x, %s, %zp axis = 0 : tensor<3x4xf32>, tensor<3xf32>, tensor<3xsi4> -> tensor<3x4xsi4>
  return %y : tensor<3x4xsi4>
}

// CHECK-LABEL: func.func @quantize_blocked
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} axis = 1 block_size = 2 : tensor<3x4xf32>, tensor<3x2xf32>, tensor<3x2xui8> -> tensor<3x4xui8>
func.func @quantize_blocked(%x: tensor<3x4xf32>, %s: tensor<3x2xf32>, %zp: tensor<3x2xui8>) -> tensor<3x4xui8> {
  %y = qops.quantize_linear %x, %s, %zp axis = 1 block_size = 2 : tensor<3x4xf32>, tensor<3x2xf32>, tensor<3x2xui8> -> tensor<3x4xui8>
  return %y : tensor<3x4xui8>
}

// CHECK-LABEL: func.func @quantize_blocked_partial_last_block
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} axis = -1 block_size = 32 : tensor<4x70xf32>, tensor<4x3xf32>, tensor<4x3xsi4> -> tensor<4x70xsi4>
func.func @quantize_blocked_partial_last_block(%x: tensor<4x70xf32>, %s: tensor<4x3xf32>, %zp: tensor<4x3xsi4>) -> tensor<4x70xsi4> {
  %y = qops.quantize_linear %x, %s, %zp axis = -1 block_size = 32 : tensor<4x70xf32>, tensor<4x3xf32>, tensor<4x3xsi4> -> tensor<4x70xsi4>
  return %y : tensor<4x70xsi4>
}

// CHECK-LABEL: func.func @quantize_blocked_no_zp_output_dtype
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}} axis = 1 block_size = 2 output_dtype = si16 : tensor<3x4xf32>, tensor<3x2xf32> -> tensor<3x4xsi16>
func.func @quantize_blocked_no_zp_output_dtype(%x: tensor<3x4xf32>, %s: tensor<3x2xf32>) -> tensor<3x4xsi16> {
  %y = qops.quantize_linear %x, %s axis = 1 block_size = 2 output_dtype = si16 : tensor<3x4xf32>, tensor<3x2xf32> -> tensor<3x4xsi16>
  return %y : tensor<3x4xsi16>
}

// CHECK-LABEL: func.func @quantize_dynamic_shape
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} axis = 0 : tensor<?x?xf32>, tensor<?xf32>, tensor<?xui8> -> tensor<?x?xui8>
func.func @quantize_dynamic_shape(%x: tensor<?x?xf32>, %s: tensor<?xf32>, %zp: tensor<?xui8>) -> tensor<?x?xui8> {
  %y = qops.quantize_linear %x, %s, %zp axis = 0 : tensor<?x?xf32>, tensor<?xf32>, tensor<?xui8> -> tensor<?x?xui8>
  return %y : tensor<?x?xui8>
}

// CHECK-LABEL: func.func @quantize_blocked_dynamic
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} axis = 1 block_size = 32 : tensor<?x64xf32>, tensor<?x2xf32>, tensor<?x2xui4> -> tensor<?x64xui4>
func.func @quantize_blocked_dynamic(%x: tensor<?x64xf32>, %s: tensor<?x2xf32>, %zp: tensor<?x2xui4>) -> tensor<?x64xui4> {
  %y = qops.quantize_linear %x, %s, %zp axis = 1 block_size = 32 : tensor<?x64xf32>, tensor<?x2xf32>, tensor<?x2xui4> -> tensor<?x64xui4>
  return %y : tensor<?x64xui4>
}

// CHECK-LABEL: func.func @quantize_scalar_input
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<f32>, tensor<f32>, tensor<ui8> -> tensor<ui8>
func.func @quantize_scalar_input(%x: tensor<f32>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<ui8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<f32>, tensor<f32>, tensor<ui8> -> tensor<ui8>
  return %y : tensor<ui8>
}

// CHECK-LABEL: func.func @quantize_to_ui8
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xf32>, tensor<f32>, tensor<ui8> -> tensor<8xui8>
func.func @quantize_to_ui8(%x: tensor<8xf32>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<8xui8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<8xf32>, tensor<f32>, tensor<ui8> -> tensor<8xui8>
  return %y : tensor<8xui8>
}

// CHECK-LABEL: func.func @quantize_output_dtype_ui8
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}} output_dtype = ui8 : tensor<8xf32>, tensor<f32> -> tensor<8xui8>
func.func @quantize_output_dtype_ui8(%x: tensor<8xf32>, %s: tensor<f32>) -> tensor<8xui8> {
  %y = qops.quantize_linear %x, %s output_dtype = ui8 : tensor<8xf32>, tensor<f32> -> tensor<8xui8>
  return %y : tensor<8xui8>
}

// CHECK-LABEL: func.func @quantize_to_si8
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xf32>, tensor<f32>, tensor<si8> -> tensor<8xsi8>
func.func @quantize_to_si8(%x: tensor<8xf32>, %s: tensor<f32>, %zp: tensor<si8>) -> tensor<8xsi8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<8xf32>, tensor<f32>, tensor<si8> -> tensor<8xsi8>
  return %y : tensor<8xsi8>
}

// CHECK-LABEL: func.func @quantize_output_dtype_si8
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}} output_dtype = si8 : tensor<8xf32>, tensor<f32> -> tensor<8xsi8>
func.func @quantize_output_dtype_si8(%x: tensor<8xf32>, %s: tensor<f32>) -> tensor<8xsi8> {
  %y = qops.quantize_linear %x, %s output_dtype = si8 : tensor<8xf32>, tensor<f32> -> tensor<8xsi8>
  return %y : tensor<8xsi8>
}

// CHECK-LABEL: func.func @quantize_to_ui16
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xf32>, tensor<f32>, tensor<ui16> -> tensor<8xui16>
func.func @quantize_to_ui16(%x: tensor<8xf32>, %s: tensor<f32>, %zp: tensor<ui16>) -> tensor<8xui16> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<8xf32>, tensor<f32>, tensor<ui16> -> tensor<8xui16>
  return %y : tensor<8xui16>
}

// CHECK-LABEL: func.func @quantize_output_dtype_ui16
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}} output_dtype = ui16 : tensor<8xf32>, tensor<f32> -> tensor<8xui16>
func.func @quantize_output_dtype_ui16(%x: tensor<8xf32>, %s: tensor<f32>) -> tensor<8xui16> {
  %y = qops.quantize_linear %x, %s output_dtype = ui16 : tensor<8xf32>, tensor<f32> -> tensor<8xui16>
  return %y : tensor<8xui16>
}

// CHECK-LABEL: func.func @quantize_to_si16
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xf32>, tensor<f32>, tensor<si16> -> tensor<8xsi16>
func.func @quantize_to_si16(%x: tensor<8xf32>, %s: tensor<f32>, %zp: tensor<si16>) -> tensor<8xsi16> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<8xf32>, tensor<f32>, tensor<si16> -> tensor<8xsi16>
  return %y : tensor<8xsi16>
}

// CHECK-LABEL: func.func @quantize_output_dtype_si16
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}} output_dtype = si16 : tensor<8xf32>, tensor<f32> -> tensor<8xsi16>
func.func @quantize_output_dtype_si16(%x: tensor<8xf32>, %s: tensor<f32>) -> tensor<8xsi16> {
  %y = qops.quantize_linear %x, %s output_dtype = si16 : tensor<8xf32>, tensor<f32> -> tensor<8xsi16>
  return %y : tensor<8xsi16>
}

// CHECK-LABEL: func.func @quantize_to_ui4
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xf32>, tensor<f32>, tensor<ui4> -> tensor<8xui4>
func.func @quantize_to_ui4(%x: tensor<8xf32>, %s: tensor<f32>, %zp: tensor<ui4>) -> tensor<8xui4> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<8xf32>, tensor<f32>, tensor<ui4> -> tensor<8xui4>
  return %y : tensor<8xui4>
}

// CHECK-LABEL: func.func @quantize_output_dtype_ui4
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}} output_dtype = ui4 : tensor<8xf32>, tensor<f32> -> tensor<8xui4>
func.func @quantize_output_dtype_ui4(%x: tensor<8xf32>, %s: tensor<f32>) -> tensor<8xui4> {
  %y = qops.quantize_linear %x, %s output_dtype = ui4 : tensor<8xf32>, tensor<f32> -> tensor<8xui4>
  return %y : tensor<8xui4>
}

// CHECK-LABEL: func.func @quantize_to_si4
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xf32>, tensor<f32>, tensor<si4> -> tensor<8xsi4>
func.func @quantize_to_si4(%x: tensor<8xf32>, %s: tensor<f32>, %zp: tensor<si4>) -> tensor<8xsi4> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<8xf32>, tensor<f32>, tensor<si4> -> tensor<8xsi4>
  return %y : tensor<8xsi4>
}

// CHECK-LABEL: func.func @quantize_output_dtype_si4
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}} output_dtype = si4 : tensor<8xf32>, tensor<f32> -> tensor<8xsi4>
func.func @quantize_output_dtype_si4(%x: tensor<8xf32>, %s: tensor<f32>) -> tensor<8xsi4> {
  %y = qops.quantize_linear %x, %s output_dtype = si4 : tensor<8xf32>, tensor<f32> -> tensor<8xsi4>
  return %y : tensor<8xsi4>
}

// CHECK-LABEL: func.func @quantize_to_ui2
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xf32>, tensor<f32>, tensor<ui2> -> tensor<8xui2>
func.func @quantize_to_ui2(%x: tensor<8xf32>, %s: tensor<f32>, %zp: tensor<ui2>) -> tensor<8xui2> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<8xf32>, tensor<f32>, tensor<ui2> -> tensor<8xui2>
  return %y : tensor<8xui2>
}

// CHECK-LABEL: func.func @quantize_output_dtype_ui2
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}} output_dtype = ui2 : tensor<8xf32>, tensor<f32> -> tensor<8xui2>
func.func @quantize_output_dtype_ui2(%x: tensor<8xf32>, %s: tensor<f32>) -> tensor<8xui2> {
  %y = qops.quantize_linear %x, %s output_dtype = ui2 : tensor<8xf32>, tensor<f32> -> tensor<8xui2>
  return %y : tensor<8xui2>
}

// CHECK-LABEL: func.func @quantize_to_si2
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xf32>, tensor<f32>, tensor<si2> -> tensor<8xsi2>
func.func @quantize_to_si2(%x: tensor<8xf32>, %s: tensor<f32>, %zp: tensor<si2>) -> tensor<8xsi2> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<8xf32>, tensor<f32>, tensor<si2> -> tensor<8xsi2>
  return %y : tensor<8xsi2>
}

// CHECK-LABEL: func.func @quantize_output_dtype_si2
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}} output_dtype = si2 : tensor<8xf32>, tensor<f32> -> tensor<8xsi2>
func.func @quantize_output_dtype_si2(%x: tensor<8xf32>, %s: tensor<f32>) -> tensor<8xsi2> {
  %y = qops.quantize_linear %x, %s output_dtype = si2 : tensor<8xf32>, tensor<f32> -> tensor<8xsi2>
  return %y : tensor<8xsi2>
}

// CHECK-LABEL: func.func @quantize_to_f8E4M3FN
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xf32>, tensor<f32>, tensor<f8E4M3FN> -> tensor<8xf8E4M3FN>
func.func @quantize_to_f8E4M3FN(%x: tensor<8xf32>, %s: tensor<f32>, %zp: tensor<f8E4M3FN>) -> tensor<8xf8E4M3FN> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<8xf32>, tensor<f32>, tensor<f8E4M3FN> -> tensor<8xf8E4M3FN>
  return %y : tensor<8xf8E4M3FN>
}

// CHECK-LABEL: func.func @quantize_output_dtype_f8E4M3FN
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}} output_dtype = f8E4M3FN : tensor<8xf32>, tensor<f32> -> tensor<8xf8E4M3FN>
func.func @quantize_output_dtype_f8E4M3FN(%x: tensor<8xf32>, %s: tensor<f32>) -> tensor<8xf8E4M3FN> {
  %y = qops.quantize_linear %x, %s output_dtype = f8E4M3FN : tensor<8xf32>, tensor<f32> -> tensor<8xf8E4M3FN>
  return %y : tensor<8xf8E4M3FN>
}

// CHECK-LABEL: func.func @quantize_to_f8E4M3FNUZ
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xf32>, tensor<f32>, tensor<f8E4M3FNUZ> -> tensor<8xf8E4M3FNUZ>
func.func @quantize_to_f8E4M3FNUZ(%x: tensor<8xf32>, %s: tensor<f32>, %zp: tensor<f8E4M3FNUZ>) -> tensor<8xf8E4M3FNUZ> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<8xf32>, tensor<f32>, tensor<f8E4M3FNUZ> -> tensor<8xf8E4M3FNUZ>
  return %y : tensor<8xf8E4M3FNUZ>
}

// CHECK-LABEL: func.func @quantize_output_dtype_f8E4M3FNUZ
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}} output_dtype = f8E4M3FNUZ : tensor<8xf32>, tensor<f32> -> tensor<8xf8E4M3FNUZ>
func.func @quantize_output_dtype_f8E4M3FNUZ(%x: tensor<8xf32>, %s: tensor<f32>) -> tensor<8xf8E4M3FNUZ> {
  %y = qops.quantize_linear %x, %s output_dtype = f8E4M3FNUZ : tensor<8xf32>, tensor<f32> -> tensor<8xf8E4M3FNUZ>
  return %y : tensor<8xf8E4M3FNUZ>
}

// CHECK-LABEL: func.func @quantize_to_f8E5M2
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xf32>, tensor<f32>, tensor<f8E5M2> -> tensor<8xf8E5M2>
func.func @quantize_to_f8E5M2(%x: tensor<8xf32>, %s: tensor<f32>, %zp: tensor<f8E5M2>) -> tensor<8xf8E5M2> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<8xf32>, tensor<f32>, tensor<f8E5M2> -> tensor<8xf8E5M2>
  return %y : tensor<8xf8E5M2>
}

// CHECK-LABEL: func.func @quantize_output_dtype_f8E5M2
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}} output_dtype = f8E5M2 : tensor<8xf32>, tensor<f32> -> tensor<8xf8E5M2>
func.func @quantize_output_dtype_f8E5M2(%x: tensor<8xf32>, %s: tensor<f32>) -> tensor<8xf8E5M2> {
  %y = qops.quantize_linear %x, %s output_dtype = f8E5M2 : tensor<8xf32>, tensor<f32> -> tensor<8xf8E5M2>
  return %y : tensor<8xf8E5M2>
}

// CHECK-LABEL: func.func @quantize_to_f8E5M2FNUZ
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xf32>, tensor<f32>, tensor<f8E5M2FNUZ> -> tensor<8xf8E5M2FNUZ>
func.func @quantize_to_f8E5M2FNUZ(%x: tensor<8xf32>, %s: tensor<f32>, %zp: tensor<f8E5M2FNUZ>) -> tensor<8xf8E5M2FNUZ> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<8xf32>, tensor<f32>, tensor<f8E5M2FNUZ> -> tensor<8xf8E5M2FNUZ>
  return %y : tensor<8xf8E5M2FNUZ>
}

// CHECK-LABEL: func.func @quantize_output_dtype_f8E5M2FNUZ
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}} output_dtype = f8E5M2FNUZ : tensor<8xf32>, tensor<f32> -> tensor<8xf8E5M2FNUZ>
func.func @quantize_output_dtype_f8E5M2FNUZ(%x: tensor<8xf32>, %s: tensor<f32>) -> tensor<8xf8E5M2FNUZ> {
  %y = qops.quantize_linear %x, %s output_dtype = f8E5M2FNUZ : tensor<8xf32>, tensor<f32> -> tensor<8xf8E5M2FNUZ>
  return %y : tensor<8xf8E5M2FNUZ>
}

// CHECK-LABEL: func.func @quantize_to_f4E2M1FN
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<8xf32>, tensor<f32>, tensor<f4E2M1FN> -> tensor<8xf4E2M1FN>
func.func @quantize_to_f4E2M1FN(%x: tensor<8xf32>, %s: tensor<f32>, %zp: tensor<f4E2M1FN>) -> tensor<8xf4E2M1FN> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<8xf32>, tensor<f32>, tensor<f4E2M1FN> -> tensor<8xf4E2M1FN>
  return %y : tensor<8xf4E2M1FN>
}

// CHECK-LABEL: func.func @quantize_output_dtype_f4E2M1FN
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}} output_dtype = f4E2M1FN : tensor<8xf32>, tensor<f32> -> tensor<8xf4E2M1FN>
func.func @quantize_output_dtype_f4E2M1FN(%x: tensor<8xf32>, %s: tensor<f32>) -> tensor<8xf4E2M1FN> {
  %y = qops.quantize_linear %x, %s output_dtype = f4E2M1FN : tensor<8xf32>, tensor<f32> -> tensor<8xf4E2M1FN>
  return %y : tensor<8xf4E2M1FN>
}

// CHECK-LABEL: func.func @quantize_output_dtype_agrees_with_zp
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} output_dtype = si16 : tensor<8xf32>, tensor<f32>, tensor<si16> -> tensor<8xsi16>
func.func @quantize_output_dtype_agrees_with_zp(%x: tensor<8xf32>, %s: tensor<f32>, %zp: tensor<si16>) -> tensor<8xsi16> {
  %y = qops.quantize_linear %x, %s, %zp output_dtype = si16 : tensor<8xf32>, tensor<f32>, tensor<si16> -> tensor<8xsi16>
  return %y : tensor<8xsi16>
}

// CHECK-LABEL: func.func @quantize_x_f32
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<f32>, tensor<ui8> -> tensor<4xui8>
func.func @quantize_x_f32(%x: tensor<4xf32>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<4xui8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xf32>, tensor<f32>, tensor<ui8> -> tensor<4xui8>
  return %y : tensor<4xui8>
}

// CHECK-LABEL: func.func @quantize_x_f16
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xf16>, tensor<f32>, tensor<ui8> -> tensor<4xui8>
func.func @quantize_x_f16(%x: tensor<4xf16>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<4xui8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xf16>, tensor<f32>, tensor<ui8> -> tensor<4xui8>
  return %y : tensor<4xui8>
}

// CHECK-LABEL: func.func @quantize_x_bf16
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xbf16>, tensor<f32>, tensor<ui8> -> tensor<4xui8>
func.func @quantize_x_bf16(%x: tensor<4xbf16>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<4xui8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xbf16>, tensor<f32>, tensor<ui8> -> tensor<4xui8>
  return %y : tensor<4xui8>
}

// CHECK-LABEL: func.func @quantize_x_i32
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xi32>, tensor<f32>, tensor<ui8> -> tensor<4xui8>
func.func @quantize_x_i32(%x: tensor<4xi32>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<4xui8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xi32>, tensor<f32>, tensor<ui8> -> tensor<4xui8>
  return %y : tensor<4xui8>
}

// CHECK-LABEL: func.func @quantize_x_si32
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xsi32>, tensor<f32>, tensor<ui8> -> tensor<4xui8>
func.func @quantize_x_si32(%x: tensor<4xsi32>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<4xui8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xsi32>, tensor<f32>, tensor<ui8> -> tensor<4xui8>
  return %y : tensor<4xui8>
}

// CHECK-LABEL: func.func @quantize_scale_f32
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<f32>, tensor<si8> -> tensor<4xsi8>
func.func @quantize_scale_f32(%x: tensor<4xf32>, %s: tensor<f32>, %zp: tensor<si8>) -> tensor<4xsi8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xf32>, tensor<f32>, tensor<si8> -> tensor<4xsi8>
  return %y : tensor<4xsi8>
}

// CHECK-LABEL: func.func @quantize_scale_f16
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<f16>, tensor<si8> -> tensor<4xsi8>
func.func @quantize_scale_f16(%x: tensor<4xf32>, %s: tensor<f16>, %zp: tensor<si8>) -> tensor<4xsi8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xf32>, tensor<f16>, tensor<si8> -> tensor<4xsi8>
  return %y : tensor<4xsi8>
}

// CHECK-LABEL: func.func @quantize_scale_bf16
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<bf16>, tensor<si8> -> tensor<4xsi8>
func.func @quantize_scale_bf16(%x: tensor<4xf32>, %s: tensor<bf16>, %zp: tensor<si8>) -> tensor<4xsi8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xf32>, tensor<bf16>, tensor<si8> -> tensor<4xsi8>
  return %y : tensor<4xsi8>
}

// CHECK-LABEL: func.func @quantize_scale_i32
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<i32>, tensor<si8> -> tensor<4xsi8>
func.func @quantize_scale_i32(%x: tensor<4xf32>, %s: tensor<i32>, %zp: tensor<si8>) -> tensor<4xsi8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xf32>, tensor<i32>, tensor<si8> -> tensor<4xsi8>
  return %y : tensor<4xsi8>
}

// CHECK-LABEL: func.func @quantize_scale_f8E8M0FNU
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<f8E8M0FNU>, tensor<si8> -> tensor<4xsi8>
func.func @quantize_scale_f8E8M0FNU(%x: tensor<4xf32>, %s: tensor<f8E8M0FNU>, %zp: tensor<si8>) -> tensor<4xsi8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xf32>, tensor<f8E8M0FNU>, tensor<si8> -> tensor<4xsi8>
  return %y : tensor<4xsi8>
}

// CHECK-LABEL: func.func @quantize_f16_x_bf16_scale
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xf16>, tensor<bf16>, tensor<si8> -> tensor<4xsi8>
func.func @quantize_f16_x_bf16_scale(%x: tensor<4xf16>, %s: tensor<bf16>, %zp: tensor<si8>) -> tensor<4xsi8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xf16>, tensor<bf16>, tensor<si8> -> tensor<4xsi8>
  return %y : tensor<4xsi8>
}

// CHECK-LABEL: func.func @quantize_e8m0_blocked_scale
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}} axis = 1 block_size = 32 output_dtype = f4E2M1FN : tensor<2x64xbf16>, tensor<2x2xf8E8M0FNU> -> tensor<2x64xf4E2M1FN>
func.func @quantize_e8m0_blocked_scale(%x: tensor<2x64xbf16>, %s: tensor<2x2xf8E8M0FNU>) -> tensor<2x64xf4E2M1FN> {
  %y = qops.quantize_linear %x, %s axis = 1 block_size = 32 output_dtype = f4E2M1FN : tensor<2x64xbf16>, tensor<2x2xf8E8M0FNU> -> tensor<2x64xf4E2M1FN>
  return %y : tensor<2x64xf4E2M1FN>
}

// CHECK-LABEL: func.func @quantize_saturate_false
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} saturate = false : tensor<4xf32>, tensor<f32>, tensor<f8E5M2> -> tensor<4xf8E5M2>
func.func @quantize_saturate_false(%x: tensor<4xf32>, %s: tensor<f32>, %zp: tensor<f8E5M2>) -> tensor<4xf8E5M2> {
  %y = qops.quantize_linear %x, %s, %zp saturate = false : tensor<4xf32>, tensor<f32>, tensor<f8E5M2> -> tensor<4xf8E5M2>
  return %y : tensor<4xf8E5M2>
}

// CHECK-LABEL: func.func @quantize_saturate_true
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} saturate = true : tensor<4xf32>, tensor<f32>, tensor<f8E4M3FNUZ> -> tensor<4xf8E4M3FNUZ>
func.func @quantize_saturate_true(%x: tensor<4xf32>, %s: tensor<f32>, %zp: tensor<f8E4M3FNUZ>) -> tensor<4xf8E4M3FNUZ> {
  %y = qops.quantize_linear %x, %s, %zp saturate = true : tensor<4xf32>, tensor<f32>, tensor<f8E4M3FNUZ> -> tensor<4xf8E4M3FNUZ>
  return %y : tensor<4xf8E4M3FNUZ>
}

// CHECK-LABEL: func.func @quantize_precision
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} precision = f32 : tensor<4xf32>, tensor<f16>, tensor<ui8> -> tensor<4xui8>
func.func @quantize_precision(%x: tensor<4xf32>, %s: tensor<f16>, %zp: tensor<ui8>) -> tensor<4xui8> {
  %y = qops.quantize_linear %x, %s, %zp precision = f32 : tensor<4xf32>, tensor<f16>, tensor<ui8> -> tensor<4xui8>
  return %y : tensor<4xui8>
}

// CHECK-LABEL: func.func @quantize_all_attributes
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}} axis = 1 block_size = 32 saturate = false output_dtype = f8E4M3FN precision = f16 : tensor<2x64xf32>, tensor<2x2xf32> -> tensor<2x64xf8E4M3FN>
func.func @quantize_all_attributes(%x: tensor<2x64xf32>, %s: tensor<2x2xf32>) -> tensor<2x64xf8E4M3FN> {
  %y = qops.quantize_linear %x, %s axis = 1 block_size = 32 saturate = false output_dtype = f8E4M3FN precision = f16 : tensor<2x64xf32>, tensor<2x2xf32> -> tensor<2x64xf8E4M3FN>
  return %y : tensor<2x64xf8E4M3FN>
}

// CHECK-LABEL: func.func @quantize_com_microsoft_per_tensor
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3xf16>, tensor<f16>, tensor<ui16> -> tensor<2x3xui16>
func.func @quantize_com_microsoft_per_tensor(%x: tensor<2x3xf16>, %s: tensor<f16>, %zp: tensor<ui16>) -> tensor<2x3xui16> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<2x3xf16>, tensor<f16>, tensor<ui16> -> tensor<2x3xui16>
  return %y : tensor<2x3xui16>
}

// CHECK-LABEL: func.func @quantize_com_microsoft_per_axis
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} axis = 1 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xsi4> -> tensor<2x3xsi4>
func.func @quantize_com_microsoft_per_axis(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %zp: tensor<3xsi4>) -> tensor<2x3xsi4> {
  %y = qops.quantize_linear %x, %s, %zp axis = 1 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xsi4> -> tensor<2x3xsi4>
  return %y : tensor<2x3xsi4>
}

// CHECK-LABEL: func.func @dequantize_per_tensor
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xui8>, tensor<f32>, tensor<ui8> -> tensor<4xf32>
func.func @dequantize_per_tensor(%x: tensor<4xui8>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<4xf32> {
  %y = qops.dequantize_linear %x, %s, %zp : tensor<4xui8>, tensor<f32>, tensor<ui8> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// CHECK-LABEL: func.func @dequantize_no_zp
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}} : tensor<5xf8E4M3FN>, tensor<f32> -> tensor<5xf32>
func.func @dequantize_no_zp(%x: tensor<5xf8E4M3FN>, %s: tensor<f32>) -> tensor<5xf32> {
  %y = qops.dequantize_linear %x, %s : tensor<5xf8E4M3FN>, tensor<f32> -> tensor<5xf32>
  return %y : tensor<5xf32>
}

// CHECK-LABEL: func.func @dequantize_float8_zp
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<5xf8E4M3FN>, tensor<f32>, tensor<1xf8E4M3FN> -> tensor<5xf32>
func.func @dequantize_float8_zp(%x: tensor<5xf8E4M3FN>, %s: tensor<f32>, %zp: tensor<1xf8E4M3FN>) -> tensor<5xf32> {
  %y = qops.dequantize_linear %x, %s, %zp : tensor<5xf8E4M3FN>, tensor<f32>, tensor<1xf8E4M3FN> -> tensor<5xf32>
  return %y : tensor<5xf32>
}

// CHECK-LABEL: func.func @dequantize_per_axis
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}}, %{{.*}} axis = 1 : tensor<1x3x3x2xui8>, tensor<3xf32>, tensor<3xui8> -> tensor<1x3x3x2xf32>
func.func @dequantize_per_axis(%x: tensor<1x3x3x2xui8>, %s: tensor<3xf32>, %zp: tensor<3xui8>) -> tensor<1x3x3x2xf32> {
  %y = qops.dequantize_linear %x, %s, %zp axis = 1 : tensor<1x3x3x2xui8>, tensor<3xf32>, tensor<3xui8> -> tensor<1x3x3x2xf32>
  return %y : tensor<1x3x3x2xf32>
}

// CHECK-LABEL: func.func @dequantize_per_axis_negative_axis
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}}, %{{.*}} axis = -1 : tensor<2x3xsi8>, tensor<3xf32>, tensor<3xsi8> -> tensor<2x3xf32>
func.func @dequantize_per_axis_negative_axis(%x: tensor<2x3xsi8>, %s: tensor<3xf32>, %zp: tensor<3xsi8>) -> tensor<2x3xf32> {
  %y = qops.dequantize_linear %x, %s, %zp axis = -1 : tensor<2x3xsi8>, tensor<3xf32>, tensor<3xsi8> -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @dequantize_blocked
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}}, %{{.*}} axis = 1 block_size = 2 : tensor<1x4x3x2xui8>, tensor<1x2x3x2xf32>, tensor<1x2x3x2xui8> -> tensor<1x4x3x2xf32>
func.func @dequantize_blocked(%x: tensor<1x4x3x2xui8>, %s: tensor<1x2x3x2xf32>, %zp: tensor<1x2x3x2xui8>) -> tensor<1x4x3x2xf32> {
  %y = qops.dequantize_linear %x, %s, %zp axis = 1 block_size = 2 : tensor<1x4x3x2xui8>, tensor<1x2x3x2xf32>, tensor<1x2x3x2xui8> -> tensor<1x4x3x2xf32>
  return %y : tensor<1x4x3x2xf32>
}

// CHECK-LABEL: func.func @dequantize_blocked_partial
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}}, %{{.*}} axis = 0 block_size = 32 : tensor<70x4xsi4>, tensor<3x4xf16>, tensor<3x4xsi4> -> tensor<70x4xf16>
func.func @dequantize_blocked_partial(%x: tensor<70x4xsi4>, %s: tensor<3x4xf16>, %zp: tensor<3x4xsi4>) -> tensor<70x4xf16> {
  %y = qops.dequantize_linear %x, %s, %zp axis = 0 block_size = 32 : tensor<70x4xsi4>, tensor<3x4xf16>, tensor<3x4xsi4> -> tensor<70x4xf16>
  return %y : tensor<70x4xf16>
}

// CHECK-LABEL: func.func @dequantize_dynamic
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}}, %{{.*}} axis = 1 : tensor<?x?xsi8>, tensor<?xf32>, tensor<?xsi8> -> tensor<?x?xf32>
func.func @dequantize_dynamic(%x: tensor<?x?xsi8>, %s: tensor<?xf32>, %zp: tensor<?xsi8>) -> tensor<?x?xf32> {
  %y = qops.dequantize_linear %x, %s, %zp axis = 1 : tensor<?x?xsi8>, tensor<?xf32>, tensor<?xsi8> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @dequantize_from_ui8
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}} : tensor<8xui8>, tensor<f32> -> tensor<8xf32>
func.func @dequantize_from_ui8(%x: tensor<8xui8>, %s: tensor<f32>) -> tensor<8xf32> {
  %y = qops.dequantize_linear %x, %s : tensor<8xui8>, tensor<f32> -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// CHECK-LABEL: func.func @dequantize_from_si8
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}} : tensor<8xsi8>, tensor<f32> -> tensor<8xf32>
func.func @dequantize_from_si8(%x: tensor<8xsi8>, %s: tensor<f32>) -> tensor<8xf32> {
  %y = qops.dequantize_linear %x, %s : tensor<8xsi8>, tensor<f32> -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// CHECK-LABEL: func.func @dequantize_from_ui16
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}} : tensor<8xui16>, tensor<f32> -> tensor<8xf32>
func.func @dequantize_from_ui16(%x: tensor<8xui16>, %s: tensor<f32>) -> tensor<8xf32> {
  %y = qops.dequantize_linear %x, %s : tensor<8xui16>, tensor<f32> -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// CHECK-LABEL: func.func @dequantize_from_si16
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}} : tensor<8xsi16>, tensor<f32> -> tensor<8xf32>
func.func @dequantize_from_si16(%x: tensor<8xsi16>, %s: tensor<f32>) -> tensor<8xf32> {
  %y = qops.dequantize_linear %x, %s : tensor<8xsi16>, tensor<f32> -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// CHECK-LABEL: func.func @dequantize_from_ui4
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}} : tensor<8xui4>, tensor<f32> -> tensor<8xf32>
func.func @dequantize_from_ui4(%x: tensor<8xui4>, %s: tensor<f32>) -> tensor<8xf32> {
  %y = qops.dequantize_linear %x, %s : tensor<8xui4>, tensor<f32> -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// CHECK-LABEL: func.func @dequantize_from_si4
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}} : tensor<8xsi4>, tensor<f32> -> tensor<8xf32>
func.func @dequantize_from_si4(%x: tensor<8xsi4>, %s: tensor<f32>) -> tensor<8xf32> {
  %y = qops.dequantize_linear %x, %s : tensor<8xsi4>, tensor<f32> -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// CHECK-LABEL: func.func @dequantize_from_ui2
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}} : tensor<8xui2>, tensor<f32> -> tensor<8xf32>
func.func @dequantize_from_ui2(%x: tensor<8xui2>, %s: tensor<f32>) -> tensor<8xf32> {
  %y = qops.dequantize_linear %x, %s : tensor<8xui2>, tensor<f32> -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// CHECK-LABEL: func.func @dequantize_from_si2
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}} : tensor<8xsi2>, tensor<f32> -> tensor<8xf32>
func.func @dequantize_from_si2(%x: tensor<8xsi2>, %s: tensor<f32>) -> tensor<8xf32> {
  %y = qops.dequantize_linear %x, %s : tensor<8xsi2>, tensor<f32> -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// CHECK-LABEL: func.func @dequantize_from_f8E4M3FN
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}} : tensor<8xf8E4M3FN>, tensor<f32> -> tensor<8xf32>
func.func @dequantize_from_f8E4M3FN(%x: tensor<8xf8E4M3FN>, %s: tensor<f32>) -> tensor<8xf32> {
  %y = qops.dequantize_linear %x, %s : tensor<8xf8E4M3FN>, tensor<f32> -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// CHECK-LABEL: func.func @dequantize_from_f8E4M3FNUZ
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}} : tensor<8xf8E4M3FNUZ>, tensor<f32> -> tensor<8xf32>
func.func @dequantize_from_f8E4M3FNUZ(%x: tensor<8xf8E4M3FNUZ>, %s: tensor<f32>) -> tensor<8xf32> {
  %y = qops.dequantize_linear %x, %s : tensor<8xf8E4M3FNUZ>, tensor<f32> -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// CHECK-LABEL: func.func @dequantize_from_f8E5M2
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}} : tensor<8xf8E5M2>, tensor<f32> -> tensor<8xf32>
func.func @dequantize_from_f8E5M2(%x: tensor<8xf8E5M2>, %s: tensor<f32>) -> tensor<8xf32> {
  %y = qops.dequantize_linear %x, %s : tensor<8xf8E5M2>, tensor<f32> -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// CHECK-LABEL: func.func @dequantize_from_f8E5M2FNUZ
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}} : tensor<8xf8E5M2FNUZ>, tensor<f32> -> tensor<8xf32>
func.func @dequantize_from_f8E5M2FNUZ(%x: tensor<8xf8E5M2FNUZ>, %s: tensor<f32>) -> tensor<8xf32> {
  %y = qops.dequantize_linear %x, %s : tensor<8xf8E5M2FNUZ>, tensor<f32> -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// CHECK-LABEL: func.func @dequantize_from_f4E2M1FN
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}} : tensor<8xf4E2M1FN>, tensor<f32> -> tensor<8xf32>
func.func @dequantize_from_f4E2M1FN(%x: tensor<8xf4E2M1FN>, %s: tensor<f32>) -> tensor<8xf32> {
  %y = qops.dequantize_linear %x, %s : tensor<8xf4E2M1FN>, tensor<f32> -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// CHECK-LABEL: func.func @dequantize_from_i32
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}} : tensor<8xi32>, tensor<f32> -> tensor<8xf32>
func.func @dequantize_from_i32(%x: tensor<8xi32>, %s: tensor<f32>) -> tensor<8xf32> {
  %y = qops.dequantize_linear %x, %s : tensor<8xi32>, tensor<f32> -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// CHECK-LABEL: func.func @dequantize_from_si32
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}} : tensor<8xsi32>, tensor<f32> -> tensor<8xf32>
func.func @dequantize_from_si32(%x: tensor<8xsi32>, %s: tensor<f32>) -> tensor<8xf32> {
  %y = qops.dequantize_linear %x, %s : tensor<8xsi32>, tensor<f32> -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// CHECK-LABEL: func.func @dequantize_int32
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}} : tensor<8xi32>, tensor<f32> -> tensor<8xf32>
func.func @dequantize_int32(%x: tensor<8xi32>, %s: tensor<f32>) -> tensor<8xf32> {
  %y = qops.dequantize_linear %x, %s : tensor<8xi32>, tensor<f32> -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// CHECK-LABEL: func.func @dequantize_scale_f32
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xsi8>, tensor<f32>, tensor<si8> -> tensor<4xf32>
func.func @dequantize_scale_f32(%x: tensor<4xsi8>, %s: tensor<f32>, %zp: tensor<si8>) -> tensor<4xf32> {
  %y = qops.dequantize_linear %x, %s, %zp : tensor<4xsi8>, tensor<f32>, tensor<si8> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// CHECK-LABEL: func.func @dequantize_scale_f16
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xsi8>, tensor<f16>, tensor<si8> -> tensor<4xf16>
func.func @dequantize_scale_f16(%x: tensor<4xsi8>, %s: tensor<f16>, %zp: tensor<si8>) -> tensor<4xf16> {
  %y = qops.dequantize_linear %x, %s, %zp : tensor<4xsi8>, tensor<f16>, tensor<si8> -> tensor<4xf16>
  return %y : tensor<4xf16>
}

// CHECK-LABEL: func.func @dequantize_scale_bf16
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xsi8>, tensor<bf16>, tensor<si8> -> tensor<4xbf16>
func.func @dequantize_scale_bf16(%x: tensor<4xsi8>, %s: tensor<bf16>, %zp: tensor<si8>) -> tensor<4xbf16> {
  %y = qops.dequantize_linear %x, %s, %zp : tensor<4xsi8>, tensor<bf16>, tensor<si8> -> tensor<4xbf16>
  return %y : tensor<4xbf16>
}

// CHECK-LABEL: func.func @dequantize_output_dtype_f32
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}}, %{{.*}} output_dtype = f32 : tensor<4xsi8>, tensor<f32>, tensor<si8> -> tensor<4xf32>
func.func @dequantize_output_dtype_f32(%x: tensor<4xsi8>, %s: tensor<f32>, %zp: tensor<si8>) -> tensor<4xf32> {
  %y = qops.dequantize_linear %x, %s, %zp output_dtype = f32 : tensor<4xsi8>, tensor<f32>, tensor<si8> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// CHECK-LABEL: func.func @dequantize_output_dtype_f16
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}}, %{{.*}} output_dtype = f16 : tensor<4xsi8>, tensor<f32>, tensor<si8> -> tensor<4xf16>
func.func @dequantize_output_dtype_f16(%x: tensor<4xsi8>, %s: tensor<f32>, %zp: tensor<si8>) -> tensor<4xf16> {
  %y = qops.dequantize_linear %x, %s, %zp output_dtype = f16 : tensor<4xsi8>, tensor<f32>, tensor<si8> -> tensor<4xf16>
  return %y : tensor<4xf16>
}

// CHECK-LABEL: func.func @dequantize_output_dtype_bf16
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}}, %{{.*}} output_dtype = bf16 : tensor<4xsi8>, tensor<f32>, tensor<si8> -> tensor<4xbf16>
func.func @dequantize_output_dtype_bf16(%x: tensor<4xsi8>, %s: tensor<f32>, %zp: tensor<si8>) -> tensor<4xbf16> {
  %y = qops.dequantize_linear %x, %s, %zp output_dtype = bf16 : tensor<4xsi8>, tensor<f32>, tensor<si8> -> tensor<4xbf16>
  return %y : tensor<4xbf16>
}

// CHECK-LABEL: func.func @dequantize_e8m0_scale
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}} axis = 1 block_size = 32 output_dtype = bf16 : tensor<2x64xf4E2M1FN>, tensor<2x2xf8E8M0FNU> -> tensor<2x64xbf16>
func.func @dequantize_e8m0_scale(%x: tensor<2x64xf4E2M1FN>, %s: tensor<2x2xf8E8M0FNU>) -> tensor<2x64xbf16> {
  %y = qops.dequantize_linear %x, %s axis = 1 block_size = 32 output_dtype = bf16 : tensor<2x64xf4E2M1FN>, tensor<2x2xf8E8M0FNU> -> tensor<2x64xbf16>
  return %y : tensor<2x64xbf16>
}

// CHECK-LABEL: func.func @dequantize_com_microsoft_f16
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3xsi16>, tensor<f16>, tensor<si16> -> tensor<2x3xf16>
func.func @dequantize_com_microsoft_f16(%x: tensor<2x3xsi16>, %s: tensor<f16>, %zp: tensor<si16>) -> tensor<2x3xf16> {
  %y = qops.dequantize_linear %x, %s, %zp : tensor<2x3xsi16>, tensor<f16>, tensor<si16> -> tensor<2x3xf16>
  return %y : tensor<2x3xf16>
}


//===----------------------------------------------------------------------===//
// DynamicQuantizeLinear
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @dynamic_quantize_1d
// CHECK: qops.dynamic_quantize_linear %{{.*}} : tensor<6xf32> -> tensor<6xui8>, tensor<f32>, tensor<ui8>
func.func @dynamic_quantize_1d(%x: tensor<6xf32>) -> (tensor<6xui8>, tensor<f32>, tensor<ui8>) {
  %y, %s, %zp = qops.dynamic_quantize_linear %x : tensor<6xf32> -> tensor<6xui8>, tensor<f32>, tensor<ui8>
  return %y, %s, %zp : tensor<6xui8>, tensor<f32>, tensor<ui8>
}

// CHECK-LABEL: func.func @dynamic_quantize_2d
// CHECK: qops.dynamic_quantize_linear %{{.*}} : tensor<3x4xf32> -> tensor<3x4xui8>, tensor<f32>, tensor<ui8>
func.func @dynamic_quantize_2d(%x: tensor<3x4xf32>) -> (tensor<3x4xui8>, tensor<f32>, tensor<ui8>) {
  %y, %s, %zp = qops.dynamic_quantize_linear %x : tensor<3x4xf32> -> tensor<3x4xui8>, tensor<f32>, tensor<ui8>
  return %y, %s, %zp : tensor<3x4xui8>, tensor<f32>, tensor<ui8>
}

// CHECK-LABEL: func.func @dynamic_quantize_dynamic_shape
// CHECK: qops.dynamic_quantize_linear %{{.*}} : tensor<?x?xf32> -> tensor<?x?xui8>, tensor<f32>, tensor<ui8>
func.func @dynamic_quantize_dynamic_shape(%x: tensor<?x?xf32>) -> (tensor<?x?xui8>, tensor<f32>, tensor<ui8>) {
  %y, %s, %zp = qops.dynamic_quantize_linear %x : tensor<?x?xf32> -> tensor<?x?xui8>, tensor<f32>, tensor<ui8>
  return %y, %s, %zp : tensor<?x?xui8>, tensor<f32>, tensor<ui8>
}

//===----------------------------------------------------------------------===//
// QLinearMatMul
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @qmatmul_2d_u8
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xui8>, tensor<1xf32>, tensor<1xui8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xui8>, tensor<1xf32>, tensor<1xui8>) y(%{{.*}}, %{{.*}} : tensor<1xf32>, tensor<1xui8>) -> tensor<2x3xui8>
func.func @qmatmul_2d_u8(%a: tensor<2x4xui8>, %as: tensor<1xf32>, %azp: tensor<1xui8>, %b: tensor<4x3xui8>, %bs: tensor<1xf32>, %bzp: tensor<1xui8>, %ys: tensor<1xf32>, %yzp: tensor<1xui8>) -> tensor<2x3xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<1xf32>, tensor<1xui8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<1xf32>, tensor<1xui8>) y(%ys, %yzp : tensor<1xf32>, tensor<1xui8>) -> tensor<2x3xui8>
  return %y : tensor<2x3xui8>
}

// CHECK-LABEL: func.func @qmatmul_2d_scalar_params
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xsi8>, tensor<f32>, tensor<si8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<si8>) -> tensor<2x3xsi8>
func.func @qmatmul_2d_scalar_params(%a: tensor<2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xsi8>, %bs: tensor<f32>, %bzp: tensor<si8>, %ys: tensor<f32>, %yzp: tensor<si8>) -> tensor<2x3xsi8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xsi8>, tensor<f32>, tensor<si8>) y(%ys, %yzp : tensor<f32>, tensor<si8>) -> tensor<2x3xsi8>
  return %y : tensor<2x3xsi8>
}

// CHECK-LABEL: func.func @qmatmul_ui8_ui8_ui8
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
func.func @qmatmul_ui8_ui8_ui8(%a: tensor<2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bzp: tensor<ui8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<2x3xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %y : tensor<2x3xui8>
}

// CHECK-LABEL: func.func @qmatmul_ui8_ui8_si8
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<si8>) -> tensor<2x3xsi8>
func.func @qmatmul_ui8_ui8_si8(%a: tensor<2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bzp: tensor<ui8>, %ys: tensor<f32>, %yzp: tensor<si8>) -> tensor<2x3xsi8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%ys, %yzp : tensor<f32>, tensor<si8>) -> tensor<2x3xsi8>
  return %y : tensor<2x3xsi8>
}

// CHECK-LABEL: func.func @qmatmul_ui8_si8_ui8
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xsi8>, tensor<f32>, tensor<si8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
func.func @qmatmul_ui8_si8_ui8(%a: tensor<2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xsi8>, %bs: tensor<f32>, %bzp: tensor<si8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<2x3xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xsi8>, tensor<f32>, tensor<si8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %y : tensor<2x3xui8>
}

// CHECK-LABEL: func.func @qmatmul_ui8_si8_si8
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xsi8>, tensor<f32>, tensor<si8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<si8>) -> tensor<2x3xsi8>
func.func @qmatmul_ui8_si8_si8(%a: tensor<2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xsi8>, %bs: tensor<f32>, %bzp: tensor<si8>, %ys: tensor<f32>, %yzp: tensor<si8>) -> tensor<2x3xsi8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xsi8>, tensor<f32>, tensor<si8>) y(%ys, %yzp : tensor<f32>, tensor<si8>) -> tensor<2x3xsi8>
  return %y : tensor<2x3xsi8>
}

// CHECK-LABEL: func.func @qmatmul_si8_ui8_ui8
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xsi8>, tensor<f32>, tensor<si8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
func.func @qmatmul_si8_ui8_ui8(%a: tensor<2x4xsi8>, %as: tensor<f32>, %azp: tensor<si8>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bzp: tensor<ui8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<2x3xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xsi8>, tensor<f32>, tensor<si8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %y : tensor<2x3xui8>
}

// CHECK-LABEL: func.func @qmatmul_si8_ui8_si8
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xsi8>, tensor<f32>, tensor<si8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<si8>) -> tensor<2x3xsi8>
func.func @qmatmul_si8_ui8_si8(%a: tensor<2x4xsi8>, %as: tensor<f32>, %azp: tensor<si8>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bzp: tensor<ui8>, %ys: tensor<f32>, %yzp: tensor<si8>) -> tensor<2x3xsi8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xsi8>, tensor<f32>, tensor<si8>) b(%b, %bs, %bzp : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%ys, %yzp : tensor<f32>, tensor<si8>) -> tensor<2x3xsi8>
  return %y : tensor<2x3xsi8>
}

// CHECK-LABEL: func.func @qmatmul_si8_si8_ui8
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xsi8>, tensor<f32>, tensor<si8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xsi8>, tensor<f32>, tensor<si8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
func.func @qmatmul_si8_si8_ui8(%a: tensor<2x4xsi8>, %as: tensor<f32>, %azp: tensor<si8>, %b: tensor<4x3xsi8>, %bs: tensor<f32>, %bzp: tensor<si8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<2x3xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xsi8>, tensor<f32>, tensor<si8>) b(%b, %bs, %bzp : tensor<4x3xsi8>, tensor<f32>, tensor<si8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %y : tensor<2x3xui8>
}

// CHECK-LABEL: func.func @qmatmul_si8_si8_si8
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xsi8>, tensor<f32>, tensor<si8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xsi8>, tensor<f32>, tensor<si8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<si8>) -> tensor<2x3xsi8>
func.func @qmatmul_si8_si8_si8(%a: tensor<2x4xsi8>, %as: tensor<f32>, %azp: tensor<si8>, %b: tensor<4x3xsi8>, %bs: tensor<f32>, %bzp: tensor<si8>, %ys: tensor<f32>, %yzp: tensor<si8>) -> tensor<2x3xsi8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xsi8>, tensor<f32>, tensor<si8>) b(%b, %bs, %bzp : tensor<4x3xsi8>, tensor<f32>, tensor<si8>) y(%ys, %yzp : tensor<f32>, tensor<si8>) -> tensor<2x3xsi8>
  return %y : tensor<2x3xsi8>
}

// CHECK-LABEL: func.func @qmatmul_3d
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x2x4xsi8>, tensor<1xf16>, tensor<1xsi8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4x3xsi8>, tensor<1xf16>, tensor<1xsi8>) y(%{{.*}}, %{{.*}} : tensor<1xf16>, tensor<1xsi8>) -> tensor<2x2x3xsi8>
func.func @qmatmul_3d(%a: tensor<2x2x4xsi8>, %as: tensor<1xf16>, %azp: tensor<1xsi8>, %b: tensor<2x4x3xsi8>, %bs: tensor<1xf16>, %bzp: tensor<1xsi8>, %ys: tensor<1xf16>, %yzp: tensor<1xsi8>) -> tensor<2x2x3xsi8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x2x4xsi8>, tensor<1xf16>, tensor<1xsi8>) b(%b, %bs, %bzp : tensor<2x4x3xsi8>, tensor<1xf16>, tensor<1xsi8>) y(%ys, %yzp : tensor<1xf16>, tensor<1xsi8>) -> tensor<2x2x3xsi8>
  return %y : tensor<2x2x3xsi8>
}

// CHECK-LABEL: func.func @qmatmul_batch_broadcast
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<5x1x2x4xui8>, tensor<f32>, tensor<ui8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<3x4x6xsi8>, tensor<f32>, tensor<si8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<ui8>) -> tensor<5x3x2x6xui8>
func.func @qmatmul_batch_broadcast(%a: tensor<5x1x2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<3x4x6xsi8>, %bs: tensor<f32>, %bzp: tensor<si8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<5x3x2x6xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<5x1x2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<3x4x6xsi8>, tensor<f32>, tensor<si8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<5x3x2x6xui8>
  return %y : tensor<5x3x2x6xui8>
}

// CHECK-LABEL: func.func @qmatmul_batch_b_2d
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<8x2x4xui8>, tensor<f32>, tensor<ui8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x6xsi8>, tensor<f32>, tensor<si8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<ui8>) -> tensor<8x2x6xui8>
func.func @qmatmul_batch_b_2d(%a: tensor<8x2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x6xsi8>, %bs: tensor<f32>, %bzp: tensor<si8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<8x2x6xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<8x2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x6xsi8>, tensor<f32>, tensor<si8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<8x2x6xui8>
  return %y : tensor<8x2x6xui8>
}

// CHECK-LABEL: func.func @qmatmul_per_row_a_1d
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xui8>, tensor<2xf32>, tensor<2xui8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xsi8>, tensor<f32>, tensor<si8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
func.func @qmatmul_per_row_a_1d(%a: tensor<2x4xui8>, %as: tensor<2xf32>, %azp: tensor<2xui8>, %b: tensor<4x3xsi8>, %bs: tensor<f32>, %bzp: tensor<si8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<2x3xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<2xf32>, tensor<2xui8>) b(%b, %bs, %bzp : tensor<4x3xsi8>, tensor<f32>, tensor<si8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %y : tensor<2x3xui8>
}

// CHECK-LABEL: func.func @qmatmul_per_row_a_nd
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<5x2x4xui8>, tensor<5x2x1xf32>, tensor<5x2x1xui8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xsi8>, tensor<f32>, tensor<si8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<ui8>) -> tensor<5x2x3xui8>
func.func @qmatmul_per_row_a_nd(%a: tensor<5x2x4xui8>, %as: tensor<5x2x1xf32>, %azp: tensor<5x2x1xui8>, %b: tensor<4x3xsi8>, %bs: tensor<f32>, %bzp: tensor<si8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<5x2x3xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<5x2x4xui8>, tensor<5x2x1xf32>, tensor<5x2x1xui8>) b(%b, %bs, %bzp : tensor<4x3xsi8>, tensor<f32>, tensor<si8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<5x2x3xui8>
  return %y : tensor<5x2x3xui8>
}

// CHECK-LABEL: func.func @qmatmul_per_column_b_1d
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xsi8>, tensor<3xf32>, tensor<3xsi8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
func.func @qmatmul_per_column_b_1d(%a: tensor<2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xsi8>, %bs: tensor<3xf32>, %bzp: tensor<3xsi8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<2x3xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xsi8>, tensor<3xf32>, tensor<3xsi8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %y : tensor<2x3xui8>
}

// CHECK-LABEL: func.func @qmatmul_per_column_b_nd
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<5x2x4xui8>, tensor<f32>, tensor<ui8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<5x4x3xsi8>, tensor<1x1x3xf32>, tensor<1x1x3xsi8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<ui8>) -> tensor<5x2x3xui8>
func.func @qmatmul_per_column_b_nd(%a: tensor<5x2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<5x4x3xsi8>, %bs: tensor<1x1x3xf32>, %bzp: tensor<1x1x3xsi8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<5x2x3xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<5x2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<5x4x3xsi8>, tensor<1x1x3xf32>, tensor<1x1x3xsi8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<5x2x3xui8>
  return %y : tensor<5x2x3xui8>
}

// CHECK-LABEL: func.func @qmatmul_per_column_y
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xsi8>, tensor<3xf32>, tensor<3xsi8>) y(%{{.*}}, %{{.*}} : tensor<3xf32>, tensor<3xui8>) -> tensor<2x3xui8>
func.func @qmatmul_per_column_y(%a: tensor<2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xsi8>, %bs: tensor<3xf32>, %bzp: tensor<3xsi8>, %ys: tensor<3xf32>, %yzp: tensor<3xui8>) -> tensor<2x3xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xsi8>, tensor<3xf32>, tensor<3xsi8>) y(%ys, %yzp : tensor<3xf32>, tensor<3xui8>) -> tensor<2x3xui8>
  return %y : tensor<2x3xui8>
}

// CHECK-LABEL: func.func @qmatmul_per_row_y
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xui8>, tensor<2xf32>, tensor<2xui8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xsi8>, tensor<f32>, tensor<si8>) y(%{{.*}}, %{{.*}} : tensor<2x1xf32>, tensor<2x1xui8>) -> tensor<2x3xui8>
func.func @qmatmul_per_row_y(%a: tensor<2x4xui8>, %as: tensor<2xf32>, %azp: tensor<2xui8>, %b: tensor<4x3xsi8>, %bs: tensor<f32>, %bzp: tensor<si8>, %ys: tensor<2x1xf32>, %yzp: tensor<2x1xui8>) -> tensor<2x3xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<2xf32>, tensor<2xui8>) b(%b, %bs, %bzp : tensor<4x3xsi8>, tensor<f32>, tensor<si8>) y(%ys, %yzp : tensor<2x1xf32>, tensor<2x1xui8>) -> tensor<2x3xui8>
  return %y : tensor<2x3xui8>
}

// CHECK-LABEL: func.func @qmatmul_bf16_scales
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xui8>, tensor<bf16>, tensor<ui8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xsi8>, tensor<bf16>, tensor<si8>) y(%{{.*}}, %{{.*}} : tensor<bf16>, tensor<ui8>) -> tensor<2x3xui8>
func.func @qmatmul_bf16_scales(%a: tensor<2x4xui8>, %as: tensor<bf16>, %azp: tensor<ui8>, %b: tensor<4x3xsi8>, %bs: tensor<bf16>, %bzp: tensor<si8>, %ys: tensor<bf16>, %yzp: tensor<ui8>) -> tensor<2x3xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<bf16>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xsi8>, tensor<bf16>, tensor<si8>) y(%ys, %yzp : tensor<bf16>, tensor<ui8>) -> tensor<2x3xui8>
  return %y : tensor<2x3xui8>
}

// CHECK-LABEL: func.func @qmatmul_vector_a
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4xui8>, tensor<f32>, tensor<ui8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xsi8>, tensor<f32>, tensor<si8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<ui8>) -> tensor<3xui8>
func.func @qmatmul_vector_a(%a: tensor<4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xsi8>, %bs: tensor<f32>, %bzp: tensor<si8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<3xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xsi8>, tensor<f32>, tensor<si8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<3xui8>
  return %y : tensor<3xui8>
}

// CHECK-LABEL: func.func @qmatmul_vector_b
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4xsi8>, tensor<f32>, tensor<si8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<ui8>) -> tensor<2xui8>
func.func @qmatmul_vector_b(%a: tensor<2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4xsi8>, %bs: tensor<f32>, %bzp: tensor<si8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<2xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4xsi8>, tensor<f32>, tensor<si8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2xui8>
  return %y : tensor<2xui8>
}

// CHECK-LABEL: func.func @qmatmul_vector_vector
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4xui8>, tensor<f32>, tensor<ui8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4xsi8>, tensor<f32>, tensor<si8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<ui8>) -> tensor<ui8>
func.func @qmatmul_vector_vector(%a: tensor<4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4xsi8>, %bs: tensor<f32>, %bzp: tensor<si8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<ui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4xsi8>, tensor<f32>, tensor<si8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<ui8>
  return %y : tensor<ui8>
}

// CHECK-LABEL: func.func @qmatmul_dynamic
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<?x?xui8>, tensor<f32>, tensor<ui8>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<?x?xsi8>, tensor<?xf32>, tensor<?xsi8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<ui8>) -> tensor<?x?xui8>
func.func @qmatmul_dynamic(%a: tensor<?x?xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<?x?xsi8>, %bs: tensor<?xf32>, %bzp: tensor<?xsi8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<?x?xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<?x?xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<?x?xsi8>, tensor<?xf32>, tensor<?xsi8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<?x?xui8>
  return %y : tensor<?x?xui8>
}

// CHECK-LABEL: func.func @qmatmul_f8E4M3FN
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xf8E4M3FN>, tensor<f32>, tensor<f8E4M3FN>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xf8E4M3FN>, tensor<f32>, tensor<f8E4M3FN>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<f8E4M3FN>) -> tensor<2x3xf8E4M3FN>
func.func @qmatmul_f8E4M3FN(%a: tensor<2x4xf8E4M3FN>, %as: tensor<f32>, %azp: tensor<f8E4M3FN>, %b: tensor<4x3xf8E4M3FN>, %bs: tensor<f32>, %bzp: tensor<f8E4M3FN>, %ys: tensor<f32>, %yzp: tensor<f8E4M3FN>) -> tensor<2x3xf8E4M3FN> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xf8E4M3FN>, tensor<f32>, tensor<f8E4M3FN>) b(%b, %bs, %bzp : tensor<4x3xf8E4M3FN>, tensor<f32>, tensor<f8E4M3FN>) y(%ys, %yzp : tensor<f32>, tensor<f8E4M3FN>) -> tensor<2x3xf8E4M3FN>
  return %y : tensor<2x3xf8E4M3FN>
}

// CHECK-LABEL: func.func @qmatmul_f8E4M3FNUZ
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xf8E4M3FNUZ>, tensor<f32>, tensor<f8E4M3FNUZ>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xf8E4M3FNUZ>, tensor<f32>, tensor<f8E4M3FNUZ>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<f8E4M3FNUZ>) -> tensor<2x3xf8E4M3FNUZ>
func.func @qmatmul_f8E4M3FNUZ(%a: tensor<2x4xf8E4M3FNUZ>, %as: tensor<f32>, %azp: tensor<f8E4M3FNUZ>, %b: tensor<4x3xf8E4M3FNUZ>, %bs: tensor<f32>, %bzp: tensor<f8E4M3FNUZ>, %ys: tensor<f32>, %yzp: tensor<f8E4M3FNUZ>) -> tensor<2x3xf8E4M3FNUZ> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xf8E4M3FNUZ>, tensor<f32>, tensor<f8E4M3FNUZ>) b(%b, %bs, %bzp : tensor<4x3xf8E4M3FNUZ>, tensor<f32>, tensor<f8E4M3FNUZ>) y(%ys, %yzp : tensor<f32>, tensor<f8E4M3FNUZ>) -> tensor<2x3xf8E4M3FNUZ>
  return %y : tensor<2x3xf8E4M3FNUZ>
}

// CHECK-LABEL: func.func @qmatmul_f8E5M2
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xf8E5M2>, tensor<f32>, tensor<f8E5M2>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xf8E5M2>, tensor<f32>, tensor<f8E5M2>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<f8E5M2>) -> tensor<2x3xf8E5M2>
func.func @qmatmul_f8E5M2(%a: tensor<2x4xf8E5M2>, %as: tensor<f32>, %azp: tensor<f8E5M2>, %b: tensor<4x3xf8E5M2>, %bs: tensor<f32>, %bzp: tensor<f8E5M2>, %ys: tensor<f32>, %yzp: tensor<f8E5M2>) -> tensor<2x3xf8E5M2> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xf8E5M2>, tensor<f32>, tensor<f8E5M2>) b(%b, %bs, %bzp : tensor<4x3xf8E5M2>, tensor<f32>, tensor<f8E5M2>) y(%ys, %yzp : tensor<f32>, tensor<f8E5M2>) -> tensor<2x3xf8E5M2>
  return %y : tensor<2x3xf8E5M2>
}

// CHECK-LABEL: func.func @qmatmul_f8E5M2FNUZ
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xf8E5M2FNUZ>, tensor<f32>, tensor<f8E5M2FNUZ>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xf8E5M2FNUZ>, tensor<f32>, tensor<f8E5M2FNUZ>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<f8E5M2FNUZ>) -> tensor<2x3xf8E5M2FNUZ>
func.func @qmatmul_f8E5M2FNUZ(%a: tensor<2x4xf8E5M2FNUZ>, %as: tensor<f32>, %azp: tensor<f8E5M2FNUZ>, %b: tensor<4x3xf8E5M2FNUZ>, %bs: tensor<f32>, %bzp: tensor<f8E5M2FNUZ>, %ys: tensor<f32>, %yzp: tensor<f8E5M2FNUZ>) -> tensor<2x3xf8E5M2FNUZ> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xf8E5M2FNUZ>, tensor<f32>, tensor<f8E5M2FNUZ>) b(%b, %bs, %bzp : tensor<4x3xf8E5M2FNUZ>, tensor<f32>, tensor<f8E5M2FNUZ>) y(%ys, %yzp : tensor<f32>, tensor<f8E5M2FNUZ>) -> tensor<2x3xf8E5M2FNUZ>
  return %y : tensor<2x3xf8E5M2FNUZ>
}

// CHECK-LABEL: func.func @qmatmul_float8_mixed
// CHECK: qops.qlinear_matmul a(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4xf8E4M3FN>, tensor<f16>, tensor<f8E4M3FN>) b(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3xf8E5M2>, tensor<f16>, tensor<f8E5M2>) y(%{{.*}}, %{{.*}} : tensor<f16>, tensor<f8E4M3FN>) -> tensor<2x3xf8E4M3FN>
func.func @qmatmul_float8_mixed(%a: tensor<2x4xf8E4M3FN>, %as: tensor<f16>, %azp: tensor<f8E4M3FN>, %b: tensor<4x3xf8E5M2>, %bs: tensor<f16>, %bzp: tensor<f8E5M2>, %ys: tensor<f16>, %yzp: tensor<f8E4M3FN>) -> tensor<2x3xf8E4M3FN> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x4xf8E4M3FN>, tensor<f16>, tensor<f8E4M3FN>) b(%b, %bs, %bzp : tensor<4x3xf8E5M2>, tensor<f16>, tensor<f8E5M2>) y(%ys, %yzp : tensor<f16>, tensor<f8E4M3FN>) -> tensor<2x3xf8E4M3FN>
  return %y : tensor<2x3xf8E4M3FN>
}

//===----------------------------------------------------------------------===//
// matmul_integer
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @matmulint_no_zero_points
// CHECK: qops.matmul_integer a(%{{.*}} : tensor<2x4xui8>) b(%{{.*}} : tensor<4x3xsi8>) -> tensor<2x3xi32>
func.func @matmulint_no_zero_points(%a: tensor<2x4xui8>, %b: tensor<4x3xsi8>) -> tensor<2x3xi32> {
  %y = qops.matmul_integer a(%a : tensor<2x4xui8>) b(%b : tensor<4x3xsi8>) -> tensor<2x3xi32>
  return %y : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @matmulint_both_zero_points
// CHECK: qops.matmul_integer a(%{{.*}}, %{{.*}} : tensor<2x4xsi8>, tensor<si8>) b(%{{.*}}, %{{.*}} : tensor<4x3xui8>, tensor<3xui8>) -> tensor<2x3xi32>
func.func @matmulint_both_zero_points(%a: tensor<2x4xsi8>, %azp: tensor<si8>, %b: tensor<4x3xui8>, %bzp: tensor<3xui8>) -> tensor<2x3xi32> {
  %y = qops.matmul_integer a(%a, %azp : tensor<2x4xsi8>, tensor<si8>) b(%b, %bzp : tensor<4x3xui8>, tensor<3xui8>) -> tensor<2x3xi32>
  return %y : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @matmulint_b_zero_point_only
// CHECK: qops.matmul_integer a(%{{.*}} : tensor<4xui8>) b(%{{.*}}, %{{.*}} : tensor<4x3xui8>, tensor<1x3xui8>) -> tensor<3xsi32>
func.func @matmulint_b_zero_point_only(%a: tensor<4xui8>, %b: tensor<4x3xui8>, %bzp: tensor<1x3xui8>) -> tensor<3xsi32> {
  %y = qops.matmul_integer a(%a : tensor<4xui8>) b(%b, %bzp : tensor<4x3xui8>, tensor<1x3xui8>) -> tensor<3xsi32>
  return %y : tensor<3xsi32>
}

// CHECK-LABEL: func.func @matmulint_batched_per_row
// CHECK: qops.matmul_integer a(%{{.*}}, %{{.*}} : tensor<2x?x4xui8>, tensor<1x?x1xui8>) b(%{{.*}} : tensor<4x?xsi8>) -> tensor<2x?x?xi32>
func.func @matmulint_batched_per_row(%a: tensor<2x?x4xui8>, %azp: tensor<1x?x1xui8>, %b: tensor<4x?xsi8>) -> tensor<2x?x?xi32> {
  %y = qops.matmul_integer a(%a, %azp : tensor<2x?x4xui8>, tensor<1x?x1xui8>) b(%b : tensor<4x?xsi8>) -> tensor<2x?x?xi32>
  return %y : tensor<2x?x?xi32>
}

// The verifiers see the op alone: a constant zero point that breaks an ONNX
// value rule (here int32 x with zero point 3) still verifies, so that a
// producer folding into a constant cannot make valid IR invalid;
// convert-qops-to-linalg and the importer reject it
// (test/Conversion/QOpsToLinalg/constant-zero-points.mlir).
// CHECK-LABEL: func.func @dequantize_int32_constant_zp
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xi32>, tensor<f32>, tensor<i32> -> tensor<4xf32>
func.func @dequantize_int32_constant_zp(%x: tensor<4xi32>, %s: tensor<f32>) -> tensor<4xf32> {
  %zp = arith.constant dense<3> : tensor<i32>
  %y = qops.dequantize_linear %x, %s, %zp : tensor<4xi32>, tensor<f32>, tensor<i32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// CHECK-LABEL: func.func @conv_integer
// CHECK: qops.conv_integer x(%{{.*}}, %{{.*}} : tensor<?x3x5x5xui8>, tensor<ui8>) w(%{{.*}}, %{{.*}} : tensor<4x3x3x3xsi8>, tensor<4xsi8>) {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} -> tensor<?x4x3x3xi32>
func.func @conv_integer(%x: tensor<?x3x5x5xui8>, %xzp: tensor<ui8>, %w: tensor<4x3x3x3xsi8>, %wzp: tensor<4xsi8>) -> tensor<?x4x3x3xi32> {
  %y = qops.conv_integer x(%x, %xzp : tensor<?x3x5x5xui8>, tensor<ui8>) w(%w, %wzp : tensor<4x3x3x3xsi8>, tensor<4xsi8>) {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} -> tensor<?x4x3x3xi32>
  return %y : tensor<?x4x3x3xi32>
}

// CHECK-LABEL: func.func @qlinear_conv_depthwise_bias
// CHECK: qops.qlinear_conv {{.*}} bias(%{{.*}} : tensor<6xi32>) {group = 6 : i64} -> tensor<1x6x8xsi8>
func.func @qlinear_conv_depthwise_bias(%x: tensor<1x6x10xui8>, %xs: tensor<f32>, %xzp: tensor<ui8>, %w: tensor<6x1x3xsi8>, %ws: tensor<6xf32>, %wzp: tensor<6xsi8>, %ys: tensor<1xf32>, %yzp: tensor<1xsi8>, %bias: tensor<6xi32>) -> tensor<1x6x8xsi8> {
  %y = qops.qlinear_conv x(%x, %xs, %xzp : tensor<1x6x10xui8>, tensor<f32>, tensor<ui8>) w(%w, %ws, %wzp : tensor<6x1x3xsi8>, tensor<6xf32>, tensor<6xsi8>) y(%ys, %yzp : tensor<1xf32>, tensor<1xsi8>) bias(%bias : tensor<6xi32>) {group = 6 : i64} -> tensor<1x6x8xsi8>
  return %y : tensor<1x6x8xsi8>
}

// The fused forms (qops-fuse-qdq of quantize_dynamic's layers): f32 y with
// a dequantize clause.
// CHECK-LABEL: func.func @conv_integer_dequantize
// CHECK: qops.conv_integer x(%{{.*}}, %{{.*}} : tensor<1x3x5x5xui8>, tensor<ui8>) w(%{{.*}} : tensor<4x3x3x3xsi8>) dequantize(%{{.*}}, %{{.*}} : tensor<f32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
// CHECK: qops.matmul_integer a(%{{.*}} : tensor<2x5xui8>) b(%{{.*}} : tensor<5x4xsi8>) dequantize(%{{.*}} : tensor<4xf32>) -> tensor<2x4xf32>
func.func @conv_integer_dequantize(%x: tensor<1x3x5x5xui8>, %xzp: tensor<ui8>, %w: tensor<4x3x3x3xsi8>, %s: tensor<f32>, %o: tensor<4xf32>, %a: tensor<2x5xui8>, %b: tensor<5x4xsi8>) -> (tensor<1x4x3x3xf32>, tensor<2x4xf32>) {
  %y = qops.conv_integer x(%x, %xzp : tensor<1x3x5x5xui8>, tensor<ui8>) w(%w : tensor<4x3x3x3xsi8>) dequantize(%s, %o : tensor<f32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  %z = qops.matmul_integer a(%a : tensor<2x5xui8>) b(%b : tensor<5x4xsi8>) dequantize(%o : tensor<4xf32>) -> tensor<2x4xf32>
  return %y, %z : tensor<1x4x3x3xf32>, tensor<2x4xf32>
}
