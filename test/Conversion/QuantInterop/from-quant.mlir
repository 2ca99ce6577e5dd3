// RUN: quant-opt %s -split-input-file --qops-from-quant | FileCheck %s

// quant.qcast / quant.dcast -> qops.quantize_linear / qops.dequantize_linear
// with constant scale and zero point; quantized tensor types become qops
// storage types, on function boundaries too.

// CHECK-LABEL: func.func @per_layer_i8
// CHECK-SAME: (%[[X:.*]]: tensor<7xf32>) -> tensor<7xsi8>
// CHECK-DAG: %[[S:.*]] = arith.constant dense<5.000000e-01> : tensor<f32>
// CHECK-DAG: %[[Z:.*]] = arith.constant dense<-3> : tensor<si8>
// CHECK: %[[Q:.*]] = qops.quantize_linear %[[X]], %[[S]], %[[Z]] : tensor<7xf32>, tensor<f32>, tensor<si8> -> tensor<7xsi8>
// CHECK: return %[[Q]] : tensor<7xsi8>
func.func @per_layer_i8(%x: tensor<7xf32>) -> tensor<7x!quant.uniform<i8:f32, 0.5:-3>> {
  %q = quant.qcast %x : tensor<7xf32> to tensor<7x!quant.uniform<i8:f32, 0.5:-3>>
  return %q : tensor<7x!quant.uniform<i8:f32, 0.5:-3>>
}

// -----

// CHECK-LABEL: func.func @per_layer_u8_pair
// CHECK-SAME: -> tensor<4xf32>
// CHECK: %[[Q:.*]] = qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<f32>, tensor<ui8> -> tensor<4xui8>
// CHECK: %[[D:.*]] = qops.dequantize_linear %[[Q]], %{{.*}}, %{{.*}} : tensor<4xui8>, tensor<f32>, tensor<ui8> -> tensor<4xf32>
// CHECK: return %[[D]]
// CHECK-NOT: quant.
func.func @per_layer_u8_pair(%x: tensor<4xf32>) -> tensor<4xf32> {
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<u8:f32, 2.0:128>>
  %d = quant.dcast %q : tensor<4x!quant.uniform<u8:f32, 2.0:128>> to tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// The double scale 0.1 becomes the nearest f32 (0.100000001...).
// CHECK-LABEL: func.func @per_axis_u8
// CHECK-DAG: arith.constant dense<[1.000000e-01, 2.000000e-01, 3.000000e-01]> : tensor<3xf32>
// CHECK-DAG: arith.constant dense<[3, 200, 0]> : tensor<3xui8>
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} axis = 1 : tensor<2x3xf32>, tensor<3xf32>, tensor<3xui8> -> tensor<2x3xui8>
func.func @per_axis_u8(%x: tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<u8:f32:1, {0.1:3, 0.2:200, 0.3:0}>> {
  %q = quant.qcast %x : tensor<2x3xf32> to tensor<2x3x!quant.uniform<u8:f32:1, {0.1:3, 0.2:200, 0.3:0}>>
  return %q : tensor<2x3x!quant.uniform<u8:f32:1, {0.1:3, 0.2:200, 0.3:0}>>
}

// -----

// A function argument of a quantized type; dynamic sizes; f16 scales.
// CHECK-LABEL: func.func @per_axis_arg_i16_f16
// CHECK-SAME: (%[[Q:.*]]: tensor<?x3xsi16>) -> tensor<?x3xf16>
// CHECK-DAG: %[[S:.*]] = arith.constant dense<[9.997550e-02, 1.999510e-01, 3.000490e-01]> : tensor<3xf16>
// CHECK-DAG: %[[Z:.*]] = arith.constant dense<0> : tensor<3xsi16>
// CHECK: qops.dequantize_linear %[[Q]], %[[S]], %[[Z]] axis = 1 : tensor<?x3xsi16>, tensor<3xf16>, tensor<3xsi16> -> tensor<?x3xf16>
func.func @per_axis_arg_i16_f16(%q: tensor<?x3x!quant.uniform<i16:f16:1, {0.1, 0.2, 0.3}>>) -> tensor<?x3xf16> {
  %d = quant.dcast %q : tensor<?x3x!quant.uniform<i16:f16:1, {0.1, 0.2, 0.3}>> to tensor<?x3xf16>
  return %d : tensor<?x3xf16>
}

// -----

// Sub-channel, one block per row element pair: {0:1, 1:32} is ONNX's
// blocked form (axis 1, block_size 32) directly.
// CHECK-LABEL: func.func @sub_channel_i4
// CHECK-DAG: arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-DAG: arith.constant dense<{{\[\[}}1, -2], [0, 7]]> : tensor<2x2xsi4>
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} axis = 1 block_size = 32 : tensor<2x64xf32>, tensor<2x2xf32>, tensor<2x2xsi4> -> tensor<2x64xsi4>
// CHECK: qops.dequantize_linear %{{.*}}, %{{.*}}, %{{.*}} axis = 1 block_size = 32 : tensor<2x64xsi4>, tensor<2x2xf32>, tensor<2x2xsi4> -> tensor<2x64xf32>
func.func @sub_channel_i4(%x: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %q = quant.qcast %x : tensor<2x64xf32> to tensor<2x64x!quant.uniform<i4:f32:{0:1, 1:32}, {{1.0:1, 2.0:-2}, {3.0, 4.0:7}}>>
  %d = quant.dcast %q : tensor<2x64x!quant.uniform<i4:f32:{0:1, 1:32}, {{1.0:1, 2.0:-2}, {3.0, 4.0:7}}>> to tensor<2x64xf32>
  return %d : tensor<2x64xf32>
}

// -----

// Dimension 0 has no block size, so one scale covers all of it: ONNX needs
// the full size there, so the scales are repeated along it.
// CHECK-LABEL: func.func @sub_channel_shared_rows
// CHECK-DAG: arith.constant dense<{{\[\[}}5.000000e-01, 2.500000e-01], [5.000000e-01, 2.500000e-01], [5.000000e-01, 2.500000e-01]]> : tensor<3x2xf32>
// CHECK-DAG: arith.constant dense<{{\[\[}}1, 2], [1, 2], [1, 2]]> : tensor<3x2xui8>
// CHECK: qops.quantize_linear %{{.*}} axis = 1 block_size = 4 : tensor<3x8xf32>, tensor<3x2xf32>, tensor<3x2xui8> -> tensor<3x8xui8>
func.func @sub_channel_shared_rows(%x: tensor<3x8xf32>) -> tensor<3x8x!quant.uniform<u8:f32:{1:4}, {{0.5:1, 0.25:2}}>> {
  %q = quant.qcast %x : tensor<3x8xf32> to tensor<3x8x!quant.uniform<u8:f32:{1:4}, {{0.5:1, 0.25:2}}>>
  return %q : tensor<3x8x!quant.uniform<u8:f32:{1:4}, {{0.5:1, 0.25:2}}>>
}

// -----

// Sub-channel types that are really per-axis or per-tensor.
// CHECK-LABEL: func.func @sub_channel_per_axis
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} axis = 0 : tensor<2x5xf32>, tensor<2xf32>, tensor<2xsi8> -> tensor<2x5xsi8>
// CHECK-LABEL: func.func @sub_channel_per_tensor
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x5xf32>, tensor<f32>, tensor<si8> -> tensor<2x5xsi8>
func.func @sub_channel_per_axis(%x: tensor<2x5xf32>) -> tensor<2x5x!quant.uniform<i8:f32:{0:1}, {{2.0}, {3.0}}>> {
  %q = quant.qcast %x : tensor<2x5xf32> to tensor<2x5x!quant.uniform<i8:f32:{0:1}, {{2.0}, {3.0}}>>
  return %q : tensor<2x5x!quant.uniform<i8:f32:{0:1}, {{2.0}, {3.0}}>>
}
func.func @sub_channel_per_tensor(%x: tensor<2x5xf32>) -> tensor<2x5x!quant.uniform<i8:f32:{}, {{2.0}}>> {
  %q = quant.qcast %x : tensor<2x5xf32> to tensor<2x5x!quant.uniform<i8:f32:{}, {{2.0}}>>
  return %q : tensor<2x5x!quant.uniform<i8:f32:{}, {{2.0}}>>
}

// -----

// 2-bit storage, bf16 expressed type.
// CHECK-LABEL: func.func @u2_bf16
// CHECK: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xbf16>, tensor<bf16>, tensor<ui2> -> tensor<4xui2>
func.func @u2_bf16(%x: tensor<4xbf16>) -> tensor<4x!quant.uniform<u2:bf16, 0.5:1>> {
  %q = quant.qcast %x : tensor<4xbf16> to tensor<4x!quant.uniform<u2:bf16, 0.5:1>>
  return %q : tensor<4x!quant.uniform<u2:bf16, 0.5:1>>
}

// -----

// Calls: callee signatures and call results are converted together.
// CHECK-LABEL: func.func private @produce(tensor<4xf32>) -> tensor<4xsi8>
// CHECK-LABEL: func.func @caller
// CHECK: %[[C:.*]] = call @produce(%{{.*}}) : (tensor<4xf32>) -> tensor<4xsi8>
// CHECK: qops.dequantize_linear %[[C]]
func.func private @produce(tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 1.0>>
func.func @caller(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = func.call @produce(%x) : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 1.0>>
  %d = quant.dcast %c : tensor<4x!quant.uniform<i8:f32, 1.0>> to tensor<4xf32>
  return %d : tensor<4xf32>
}
