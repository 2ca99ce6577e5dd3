// RUN: quant-opt %s --convert-qops-to-linalg="int8-kernel=false" --split-input-file | FileCheck %s

// Batch broadcast (a's batch dim of 1 reads index 0), per-row a, per-column
// b: exact i32 accumulation, then requantization in f64. The loops of the
// accumulation are (batch, batch, m, k, n): n innermost and parallel.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, 0, d2, d3)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d3, d4)>
// CHECK-DAG: #[[AZP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, 0, d2, 0)>
// CHECK-DAG: #[[BZP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d4)>
// CHECK-DAG: #[[ACC:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[AS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, 0)>
// CHECK-DAG: #[[BS:.*]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1, d2, d3) -> ()>
// CHECK-LABEL: func.func @qmatmul_broadcast_per_row_per_column
// CHECK-SAME: (%[[A0:.*]]: tensor<5x1x2x4xi8>, %[[AS0:.*]]: tensor<5x1x2x1xf32>, %[[AZP0:.*]]: tensor<5x1x2x1xi8>, %[[B0:.*]]: tensor<3x4x6xi8>, %[[BS0:.*]]: tensor<6xf32>, %[[BZP0:.*]]: tensor<6xi8>, %[[YS0:.*]]: tensor<f32>, %[[YZP0:.*]]: tensor<i8>)
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : i32) outs(%{{.*}} : tensor<5x3x2x6xi32>)
// CHECK: %[[ACCV:.*]] = linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[AZP]], #[[BZP]], #[[ACC]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]}
// CHECK-SAME: ins(%[[A0]], %[[B0]], %[[AZP0]], %[[BZP0]] : {{.*}}) outs(%[[INIT]] : tensor<5x3x2x6xi32>)
// CHECK: ^bb0(%[[AV:.*]]: i8, %[[BV:.*]]: i8, %[[AZV:.*]]: i8, %[[BZV:.*]]: i8, %[[ACCIN:.*]]: i32):
// CHECK: %[[AX:.*]] = arith.extui %[[AV]] : i8 to i32
// CHECK: %[[AZX:.*]] = arith.extui %[[AZV]] : i8 to i32
// CHECK: %[[AD:.*]] = arith.subi %[[AX]], %[[AZX]] : i32
// CHECK: %[[BX:.*]] = arith.extsi %[[BV]] : i8 to i32
// CHECK: %[[BZX:.*]] = arith.extsi %[[BZV]] : i8 to i32
// CHECK: %[[BD:.*]] = arith.subi %[[BX]], %[[BZX]] : i32
// CHECK: %[[P:.*]] = arith.muli %[[AD]], %[[BD]] : i32
// CHECK: %[[SUM:.*]] = arith.addi %[[ACCIN]], %[[P]] : i32
// CHECK: linalg.yield %[[SUM]] : i32
// CHECK: linalg.generic {indexing_maps = [#[[OUT]], #[[AS]], #[[BS]], #[[SCALAR]], #[[SCALAR]], #[[OUT]]]
// CHECK-SAME: ins(%[[ACCV]], %[[AS0]], %[[BS0]], %[[YS0]], %[[YZP0]] :
// CHECK: ^bb0(%[[ACCE:.*]]: i32, %[[ASV:.*]]: f32, %[[BSV:.*]]: f32, %[[YSV:.*]]: f32, %[[YZV:.*]]: i8, %{{.*}}: i8):
// CHECK: %[[SP:.*]] = arith.mulf %[[ASV]], %[[BSV]] : f32
// CHECK: %[[MUL:.*]] = arith.divf %[[SP]], %[[YSV]] : f32
// CHECK: %[[ACCD:.*]] = arith.sitofp %[[ACCE]] : i32 to f64
// CHECK: %[[MULD:.*]] = arith.extf %[[MUL]] : f32 to f64
// CHECK: %[[PROD:.*]] = arith.mulf %[[ACCD]], %[[MULD]] : f64
// CHECK: math.roundeven %[[PROD]] : f64
// CHECK: arith.trunci %{{.*}} : i32 to i8
func.func @qmatmul_broadcast_per_row_per_column(%a: tensor<5x1x2x4xui8>, %as: tensor<5x1x2x1xf32>, %azp: tensor<5x1x2x1xui8>, %b: tensor<3x4x6xsi8>, %bs: tensor<6xf32>, %bzp: tensor<6xsi8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<5x3x2x6xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<5x1x2x4xui8>, tensor<5x1x2x1xf32>, tensor<5x1x2x1xui8>) b(%b, %bs, %bzp : tensor<3x4x6xsi8>, tensor<6xf32>, tensor<6xsi8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<5x3x2x6xui8>
  return %y : tensor<5x3x2x6xui8>
}

// -----

// 1-D a: expanded to [1, K]; the unit row is collapsed out of the result.
// [1]-shaped parameters are collapsed to rank 0.
// CHECK-LABEL: func.func @qmatmul_vector_a
// CHECK: %[[AE:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [1, 4] : tensor<4xi8> into tensor<1x4xi8>
// CHECK: tensor.collapse_shape %{{.*}} [] : tensor<1xi8> into tensor<i8>
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[AE]],
// CHECK: %[[Y:.*]] = linalg.generic
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[Y]] {{\[\[}}0, 1]] : tensor<1x3xi8> into tensor<3xi8>
// CHECK: return %[[C]] : tensor<3xi8>
func.func @qmatmul_vector_a(%a: tensor<4xsi8>, %as: tensor<1xf32>, %azp: tensor<1xsi8>, %b: tensor<4x3xsi8>, %bs: tensor<f32>, %bzp: tensor<si8>, %ys: tensor<f32>, %yzp: tensor<si8>) -> tensor<3xsi8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<4xsi8>, tensor<1xf32>, tensor<1xsi8>) b(%b, %bs, %bzp : tensor<4x3xsi8>, tensor<f32>, tensor<si8>) y(%ys, %yzp : tensor<f32>, tensor<si8>) -> tensor<3xsi8>
  return %y : tensor<3xsi8>
}

// -----

// Dynamic sizes come from a (M, batch) and b (N); f16 scales form the
// multiplier in f16.
// CHECK-LABEL: func.func @qmatmul_dynamic_f16_scales
// CHECK-DAG: %[[M:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x?xi8>
// CHECK-DAG: %[[N:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x?xi8>
// CHECK: tensor.empty(%[[M]], %[[N]]) : tensor<?x?xi32>
// CHECK: %[[SP:.*]] = arith.mulf %{{.*}}, %{{.*}} : f16
// CHECK: %[[MUL:.*]] = arith.divf %[[SP]], %{{.*}} : f16
// CHECK: arith.extf %[[MUL]] : f16 to f64
func.func @qmatmul_dynamic_f16_scales(%a: tensor<?x?xui8>, %as: tensor<f16>, %azp: tensor<ui8>, %b: tensor<?x?xui8>, %bs: tensor<f16>, %bzp: tensor<ui8>, %ys: tensor<f16>, %yzp: tensor<ui8>) -> tensor<?x?xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<?x?xui8>, tensor<f16>, tensor<ui8>) b(%b, %bs, %bzp : tensor<?x?xui8>, tensor<f16>, tensor<ui8>) y(%ys, %yzp : tensor<f16>, tensor<ui8>) -> tensor<?x?xui8>
  return %y : tensor<?x?xui8>
}

// -----

// With threads, an integer gemv (at most 4 rows of a, b not a constant)
// sums k in chunks of 1024 rows of b, one partial row per chunk (the chunk
// loop is the outer parallel loop the threads share), then adds the
// partials; i32 sums wrap, so the grouping does not change the result.
// K = 3072: 3 chunks. Without threads, or with K not a multiple of 1024,
// the contraction is one generic.
// RUN: quant-opt %s --convert-qops-to-linalg="parallel int8-kernel=false" --split-input-file | FileCheck %s --check-prefix=SPLIT
// SPLIT-LABEL: func.func @gemv_split_k
// SPLIT: %[[A3:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [2, 3, 1024] : tensor<2x3072xi8> into tensor<2x3x1024xi8>
// SPLIT: %[[B3:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [3, 1024, 40] : tensor<3072x40xi8> into tensor<3x1024x40xi8>
// SPLIT: %[[PARTIAL:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%[[A3]], %[[B3]], %{{.*}}, %{{.*}} : tensor<2x3x1024xi8>, tensor<3x1024x40xi8>, tensor<i8>, tensor<i8>) outs(%{{.*}} : tensor<3x2x40xi32>)
// SPLIT: %[[ACC:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "parallel"]} ins(%[[PARTIAL]] : tensor<3x2x40xi32>) outs(%{{.*}} : tensor<2x40xi32>)
// SPLIT: arith.addi
// SPLIT: linalg.generic {{.*}} ins(%[[ACC]], {{.*}}) outs(%{{.*}} : tensor<2x40xi8>)
// SPLIT-LABEL: func.func @gemv_k_not_a_multiple
// SPLIT-NOT: tensor.expand_shape
// SPLIT: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
// SPLIT-LABEL: func.func @five_rows
// SPLIT-NOT: tensor.expand_shape
// SPLIT: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-LABEL: func.func @gemv_split_k
// CHECK-NOT: tensor.expand_shape
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
func.func @gemv_split_k(%a: tensor<2x3072xui8>, %b: tensor<3072x40xsi8>) -> tensor<2x40xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<-1> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<2x3072xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<3072x40xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<2x40xui8>
  return %y : tensor<2x40xui8>
}
func.func @gemv_k_not_a_multiple(%a: tensor<2x3000xui8>, %b: tensor<3000x40xsi8>) -> tensor<2x40xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<-1> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<2x3000xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<3000x40xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<2x40xui8>
  return %y : tensor<2x40xui8>
}
func.func @five_rows(%a: tensor<5x3072xui8>, %b: tensor<3072x40xsi8>) -> tensor<5x40xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<-1> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<5x3072xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<3072x40xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<5x40xui8>
  return %y : tensor<5x40xui8>
}
