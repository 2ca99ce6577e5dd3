// RUN: quant-opt %s --qops-from-quant --qops-to-quant | FileCheck %s
// RUN: quant-opt %s --qops-from-quant --qops-to-quant --qops-from-quant | FileCheck %s --check-prefix=QOPS

// quant -> qops -> quant gives the original types back (scales as the
// nearest f32, printed exactly).

// CHECK-LABEL: func.func @round_trip
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[A:.*]]: tensor<2x8x!quant.uniform<i4:f32:{0:1, 1:4}, {{\{\{}}5.000000e-01:1, 2.500000e-01:-2}, {1.000000e+00, 2.000000e+00:7}}>>)
// CHECK-SAME: -> (tensor<2x3xf32>, tensor<2x8xf32>, tensor<2x3x!quant.uniform<u8:f32, 1.250000e-01:128>>)
// CHECK: %[[Q:.*]] = quant.qcast %[[X]] : tensor<2x3xf32> to tensor<2x3x!quant.uniform<u8:f32:1, {5.000000e-01:3,2.500000e-01:200,1.000000e+00}>>
// CHECK: quant.dcast %[[Q]]
// CHECK: quant.dcast %[[A]]
// CHECK: quant.qcast %[[X]] : tensor<2x3xf32> to tensor<2x3x!quant.uniform<u8:f32, 1.250000e-01:128>>
// QOPS-LABEL: func.func @round_trip
// QOPS-NOT: quant.
func.func @round_trip(%x: tensor<2x3xf32>, %a: tensor<2x8x!quant.uniform<i4:f32:{0:1, 1:4}, {{0.5:1, 0.25:-2}, {1.0, 2.0:7}}>>)
    -> (tensor<2x3xf32>, tensor<2x8xf32>, tensor<2x3x!quant.uniform<u8:f32, 0.125:128>>) {
  %q = quant.qcast %x : tensor<2x3xf32> to tensor<2x3x!quant.uniform<u8:f32:1, {0.5:3, 0.25:200, 1.0:0}>>
  %d = quant.dcast %q : tensor<2x3x!quant.uniform<u8:f32:1, {0.5:3, 0.25:200, 1.0:0}>> to tensor<2x3xf32>
  %e = quant.dcast %a : tensor<2x8x!quant.uniform<i4:f32:{0:1, 1:4}, {{0.5:1, 0.25:-2}, {1.0, 2.0:7}}>> to tensor<2x8xf32>
  %r = quant.qcast %x : tensor<2x3xf32> to tensor<2x3x!quant.uniform<u8:f32, 0.125:128>>
  return %d, %e, %r : tensor<2x3xf32>, tensor<2x8xf32>, tensor<2x3x!quant.uniform<u8:f32, 0.125:128>>
}
