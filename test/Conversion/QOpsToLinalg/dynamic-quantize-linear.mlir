// RUN: quant-opt %s --convert-qops-to-linalg | FileCheck %s

// Pass 1 reduces min and max in one generic; the scale and zero point are
// scalar arith; pass 2 quantizes with them.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[TO_SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @dynamic_quantize
// CHECK-SAME: (%[[X:.*]]: tensor<?x4xf32>) -> (tensor<?x4xi8>, tensor<f32>, tensor<i8>)
// CHECK: %[[PINF:.*]] = arith.constant 0x7F800000 : f32
// CHECK: %[[MININIT:.*]] = linalg.fill ins(%[[PINF]] : f32)
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[MAXINIT:.*]] = linalg.fill ins(%[[NINF]] : f32)
// CHECK: %[[MM:.*]]:2 = linalg.generic {indexing_maps = [#[[ID]], #[[TO_SCALAR]], #[[TO_SCALAR]]], iterator_types = ["reduction", "reduction"]}
// CHECK-SAME: ins(%[[X]] : tensor<?x4xf32>) outs(%[[MININIT]], %[[MAXINIT]] : tensor<f32>, tensor<f32>)
// CHECK: arith.minimumf
// CHECK: arith.maximumf
// CHECK: %[[LO:.*]] = tensor.extract %[[MM]]#0[] : tensor<f32>
// CHECK: %[[HI:.*]] = tensor.extract %[[MM]]#1[] : tensor<f32>
// CHECK: %[[MAX:.*]] = arith.maximumf %[[HI]], %{{.*}} : f32
// CHECK: %[[MIN:.*]] = arith.minimumf %[[LO]], %{{.*}} : f32
// CHECK: %[[EQ:.*]] = arith.cmpf oeq, %[[MAX]], %[[MIN]] : f32
// CHECK: %[[RANGE:.*]] = arith.subf %[[MAX]], %[[MIN]] : f32
// CHECK: %[[SEL:.*]] = arith.select %[[EQ]], %{{.*}}, %[[RANGE]] : f32
// CHECK: %[[SCALE:.*]] = arith.divf %[[SEL]], %{{.*}} : f32
// CHECK: %[[MS:.*]] = arith.divf %[[MIN]], %[[SCALE]] : f32
// CHECK: %[[ZPF:.*]] = arith.subf %{{.*}}, %[[MS]] : f32
// CHECK: math.roundeven %[[ZPF]] : f32
// CHECK: %[[ZP:.*]] = arith.addi %{{.*}} : i32
// CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.divf %{{.*}}, %[[SCALE]] : f32
// CHECK: %[[ST:.*]] = tensor.from_elements %[[SCALE]] : tensor<f32>
// CHECK: %[[ZT:.*]] = tensor.from_elements %{{.*}} : tensor<i8>
// CHECK: return %[[Y]], %[[ST]], %[[ZT]]
func.func @dynamic_quantize(%x: tensor<?x4xf32>) -> (tensor<?x4xui8>, tensor<f32>, tensor<ui8>) {
  %y, %s, %zp = qops.dynamic_quantize_linear %x : tensor<?x4xf32> -> tensor<?x4xui8>, tensor<f32>, tensor<ui8>
  return %y, %s, %zp : tensor<?x4xui8>, tensor<f32>, tensor<ui8>
}
