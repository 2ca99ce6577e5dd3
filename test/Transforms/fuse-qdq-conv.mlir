// RUN: quant-opt %s --qops-fuse-qdq --split-input-file | FileCheck %s

// qops-fuse-qdq on QDQ convolutions as the importer writes a float Conv
// (FuseQDQConvolution.cpp): Q(conv(pad(DQ(x)), DQ(w)) + DQ(B)).

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#channel = affine_map<(d0, d1, d2, d3) -> (d1)>

// Padded x, per-channel w, B with scale x_scale * w_scale (0.5 * [0.25,
// 0.125]): one qlinear_conv with the pads, strides and B.
// CHECK-LABEL: func.func @conv_pad_bias
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x5x5xui8>, %[[W:.*]]: tensor<2x2x3x3xsi8>, %[[B:.*]]: tensor<2xi32>)
// CHECK: %[[Y:.*]] = qops.qlinear_conv x(%[[X]], %{{.*}}, %{{.*}} : tensor<1x2x5x5xui8>, tensor<f32>, tensor<ui8>) w(%[[W]], %{{.*}}, %{{.*}} : tensor<2x2x3x3xsi8>, tensor<2xf32>, tensor<2xsi8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<ui8>) bias(%[[B]] : tensor<2xi32>) {dilations = array<i64: 1, 1>, pads = array<i64: 1, 0, 1, 2>, strides = array<i64: 2, 1>} -> tensor<1x2x3x5xui8>
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: return %[[Y]]
func.func @conv_pad_bias(%x: tensor<1x2x5x5xui8>, %w: tensor<2x2x3x3xsi8>, %b: tensor<2xi32>) -> tensor<1x2x3x5xui8> {
  %sx = arith.constant dense<0.5> : tensor<f32>
  %zx = arith.constant dense<128> : tensor<ui8>
  %sw = arith.constant dense<[0.25, 0.125]> : tensor<2xf32>
  %zw = arith.constant dense<0> : tensor<2xsi8>
  %sb = arith.constant dense<[0.125, 0.0625]> : tensor<2xf32>
  %sy = arith.constant dense<2.0> : tensor<f32>
  %zy = arith.constant dense<10> : tensor<ui8>
  %dx = qops.dequantize_linear %x, %sx, %zx : tensor<1x2x5x5xui8>, tensor<f32>, tensor<ui8> -> tensor<1x2x5x5xf32>
  %dw = qops.dequantize_linear %w, %sw, %zw {axis = 0 : i64} : tensor<2x2x3x3xsi8>, tensor<2xf32>, tensor<2xsi8> -> tensor<2x2x3x3xf32>
  %db = qops.dequantize_linear %b, %sb {axis = 0 : i64} : tensor<2xi32>, tensor<2xf32> -> tensor<2xf32>
  %zero = arith.constant 0.0 : f32
  %xp = tensor.pad %dx low[0, 0, 1, 0] high[0, 0, 1, 2] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x5x5xf32> to tensor<1x2x7x7xf32>
  %e = tensor.empty() : tensor<1x2x3x5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x5xf32>) -> tensor<1x2x3x5xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%xp, %dw : tensor<1x2x7x7xf32>, tensor<2x2x3x3xf32>) outs(%init : tensor<1x2x3x5xf32>) -> tensor<1x2x3x5xf32>
  %e2 = tensor.empty() : tensor<1x2x3x5xf32>
  %a = linalg.generic {indexing_maps = [#id, #channel, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %db : tensor<1x2x3x5xf32>, tensor<2xf32>) outs(%e2 : tensor<1x2x3x5xf32>) {
  ^bb0(%in: f32, %in1: f32, %out: f32):
    %s = arith.addf %in, %in1 : f32
    linalg.yield %s : f32
  } -> tensor<1x2x3x5xf32>
  %y = qops.quantize_linear %a, %sy, %zy : tensor<1x2x3x5xf32>, tensor<f32>, tensor<ui8> -> tensor<1x2x3x5xui8>
  return %y : tensor<1x2x3x5xui8>
}

// -----

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#channel = affine_map<(d0, d1, d2, d3) -> (d1)>

// B's scale is not x_scale * w_scale (0.5 * 0.25 = 0.125, not 0.126): the
// sum would not be an integer one, nothing is fused.
// CHECK-LABEL: func.func @bias_scale_differs
// CHECK-NOT: qops.qlinear_conv
// CHECK: linalg.conv_2d_nchw_fchw
func.func @bias_scale_differs(%x: tensor<1x2x5x5xui8>, %w: tensor<2x2x3x3xsi8>, %b: tensor<2xi32>) -> tensor<1x2x3x3xui8> {
  %sx = arith.constant dense<0.5> : tensor<f32>
  %sw = arith.constant dense<0.25> : tensor<f32>
  %sb = arith.constant dense<0.126> : tensor<f32>
  %sy = arith.constant dense<2.0> : tensor<f32>
  %dx = qops.dequantize_linear %x, %sx : tensor<1x2x5x5xui8>, tensor<f32> -> tensor<1x2x5x5xf32>
  %dw = qops.dequantize_linear %w, %sw : tensor<2x2x3x3xsi8>, tensor<f32> -> tensor<2x2x3x3xf32>
  %db = qops.dequantize_linear %b, %sb : tensor<2xi32>, tensor<f32> -> tensor<2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%dx, %dw : tensor<1x2x5x5xf32>, tensor<2x2x3x3xf32>) outs(%init : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %e2 = tensor.empty() : tensor<1x2x3x3xf32>
  %a = linalg.generic {indexing_maps = [#id, #channel, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %db : tensor<1x2x3x3xf32>, tensor<2xf32>) outs(%e2 : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %in1: f32, %out: f32):
    %s = arith.addf %in, %in1 : f32
    linalg.yield %s : f32
  } -> tensor<1x2x3x3xf32>
  %y = qops.quantize_linear %a, %sy : tensor<1x2x3x3xf32>, tensor<f32> -> tensor<1x2x3x3xui8>
  return %y : tensor<1x2x3x3xui8>
}

// -----

// 1-D, no pad, no B, per-tensor w with a zero point: fused with x's absent
// zero point as 0.
// CHECK-LABEL: func.func @conv_1d_no_bias
// CHECK: %[[ZERO:.*]] = arith.constant dense<0> : tensor<si8>
// CHECK: qops.qlinear_conv x(%{{.*}}, %{{.*}}, %[[ZERO]] : tensor<1x3x9xsi8>, tensor<f32>, tensor<si8>) w(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x3x3xsi8>, tensor<f32>, tensor<si8>) y(%{{.*}}, %{{.*}} : tensor<f32>, tensor<si8>) {dilations = array<i64: 2>, pads = array<i64: 0, 0>, strides = array<i64: 1>} -> tensor<1x4x5xsi8>
func.func @conv_1d_no_bias(%x: tensor<1x3x9xsi8>, %w: tensor<4x3x3xsi8>) -> tensor<1x4x5xsi8> {
  %sx = arith.constant dense<0.5> : tensor<f32>
  %sw = arith.constant dense<0.25> : tensor<f32>
  %zw = arith.constant dense<3> : tensor<si8>
  %sy = arith.constant dense<2.0> : tensor<f32>
  %zy = arith.constant dense<-1> : tensor<si8>
  %dx = qops.dequantize_linear %x, %sx : tensor<1x3x9xsi8>, tensor<f32> -> tensor<1x3x9xf32>
  %dw = qops.dequantize_linear %w, %sw, %zw : tensor<4x3x3xsi8>, tensor<f32>, tensor<si8> -> tensor<4x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x5xf32>) -> tensor<1x4x5xf32>
  %c = linalg.conv_1d_ncw_fcw {dilations = dense<2> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%dx, %dw : tensor<1x3x9xf32>, tensor<4x3x3xf32>) outs(%init : tensor<1x4x5xf32>) -> tensor<1x4x5xf32>
  %y = qops.quantize_linear %c, %sy, %zy : tensor<1x4x5xf32>, tensor<f32>, tensor<si8> -> tensor<1x4x5xsi8>
  return %y : tensor<1x4x5xsi8>
}
