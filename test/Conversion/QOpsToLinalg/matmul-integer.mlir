// RUN: quant-opt %s --convert-qops-to-linalg="int8-kernel=false" --split-input-file | FileCheck %s --check-prefix=GEN
// RUN: quant-opt %s --convert-qops-to-linalg=int8-strategy=madd --split-input-file | FileCheck %s --check-prefix=MADD
// RUN: quant-opt %s --convert-qops-to-linalg=int8-strategy=vnni --split-input-file | FileCheck %s --check-prefix=VNNI

// MatMulInteger is the matmul's accumulation alone (QLinearMatMul.cpp's
// decomposition, shared): y = sum_k (a - a_zp)(b - b_zp) in i32, no
// requantization. Absent zero points are a scalar 0. On the int8 kernel
// (QLinearMatMulKernel.cpp) the tile epilogue writes the i32 sums (madd: the
// exact pair sums; vnni: with the zero-point terms of the row and column
// sums) straight into y.
// GEN-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// GEN-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// GEN-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1, d2) -> ()>
// GEN-DAG: #[[ACC:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// GEN-LABEL: func.func @matmulint_no_zero_points
// GEN-SAME: (%[[A0:.*]]: tensor<64x33xi8>, %[[B0:.*]]: tensor<33x37xi8>) -> tensor<64x37xi32>
// GEN-DAG: %[[ZPA:.*]] = arith.constant dense<0> : tensor<i8>
// GEN-DAG: %[[ZPB:.*]] = arith.constant dense<0> : tensor<i8>
// GEN-DAG: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<64x37xi32>)
// GEN: %[[Y:.*]] = linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[SCALAR]], #[[SCALAR]], #[[ACC]]], iterator_types = ["parallel", "reduction", "parallel"]}
// GEN-SAME: ins(%[[A0]], %[[B0]], %[[ZPA]], %[[ZPB]] : {{.*}}) outs(%[[INIT]] : tensor<64x37xi32>)
// GEN: arith.extui
// GEN: arith.extsi
// GEN: arith.muli
// GEN: arith.addi
// GEN-NOT: math.roundeven
// GEN: return %[[Y]] : tensor<64x37xi32>
// MADD-LABEL: func.func @matmulint_no_zero_points
// MADD: scf.for {{.*}} -> (vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, index)
// MADD-NOT: math.roundeven
// MADD: vector.transfer_write %{{.*}} : vector<8xi32>, tensor<1x?x?xi32>
// MADD: tensor.insert_slice %{{.*}} : tensor<1x?x?xi32> into tensor<1x64x37xi32>
// VNNI-LABEL: func.func @matmulint_no_zero_points
// VNNI: qkernel.dot_u8s8_quads
// VNNI-NOT: math.roundeven
// VNNI: vector.transfer_write %{{.*}} : vector<16xi32>, tensor<1x?x?xi32>
// VNNI: tensor.insert_slice %{{.*}} : tensor<1x?x?xi32> into tensor<1x64x37xi32>
func.func @matmulint_no_zero_points(%a: tensor<64x33xui8>, %b: tensor<33x37xsi8>) -> tensor<64x37xi32> {
  %y = qops.matmul_integer a(%a : tensor<64x33xui8>) b(%b : tensor<33x37xsi8>) -> tensor<64x37xi32>
  return %y : tensor<64x37xi32>
}

// -----

// Per-row a zero point ([M]) and per-column b zero point ([1, N]): read at
// m and at n in the accumulation; on the kernel, the madd packing subtracts
// them, vnni adds za' * (K zb' - colsum) - zb' * rowsum in the epilogue.
// GEN-DAG: #[[AZP:.*]] = affine_map<(d0, d1, d2) -> (d0)>
// GEN-DAG: #[[BZP:.*]] = affine_map<(d0, d1, d2) -> (0, d2)>
// GEN-LABEL: func.func @matmulint_per_row_per_column
// GEN: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #[[AZP]], #[[BZP]], #{{.*}}]
// GEN: arith.extsi
// GEN: arith.extsi
// GEN: arith.subi
// GEN: arith.extui
// GEN: arith.extui
// GEN: arith.subi
// MADD-LABEL: func.func @matmulint_per_row_per_column
// MADD: vector.transfer_write %{{.*}} : vector<8xi32>, tensor<1x?x?xi32>
// MADD: tensor.insert_slice %{{.*}} : tensor<1x?x?xi32> into tensor<1x48x40xi32>
// VNNI-LABEL: func.func @matmulint_per_row_per_column
// VNNI: qkernel.dot_u8s8_quads
// VNNI: arith.muli %{{.*}}, %{{.*}} : vector<16xi32>
// VNNI: arith.subi %{{.*}}, %{{.*}} : vector<16xi32>
// VNNI: vector.transfer_write %{{.*}} : vector<16xi32>, tensor<1x?x?xi32>
// VNNI: tensor.insert_slice %{{.*}} : tensor<1x?x?xi32> into tensor<1x48x40xi32>
func.func @matmulint_per_row_per_column(%a: tensor<48x20xsi8>, %azp: tensor<48xsi8>, %b: tensor<20x40xui8>, %bzp: tensor<1x40xui8>) -> tensor<48x40xi32> {
  %y = qops.matmul_integer a(%a, %azp : tensor<48x20xsi8>, tensor<48xsi8>) b(%b, %bzp : tensor<20x40xui8>, tensor<1x40xui8>) -> tensor<48x40xi32>
  return %y : tensor<48x40xi32>
}

// -----

// 1-D a (numpy.matmul): expanded to [1, K], the unit row collapsed out of
// the i32 result. One row of a and a static b known only at run time: the
// int8 gemv (QLinearMatMulGemv.cpp), which reads b once: A16 = a - a_zp, two
// rows of b interleaved into byte pairs, extended, pairwise multiply-adds;
// the i32 sums are written as they are (no requantization).
// GEN-LABEL: func.func @matmulint_vector_a
// GEN: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [1, 8] : tensor<8xi8> into tensor<1x8xi8>
// GEN: %[[Y:.*]] = linalg.generic
// GEN: %[[C:.*]] = tensor.collapse_shape %[[Y]] {{\[\[}}0, 1]] : tensor<1x5xi32> into tensor<5xi32>
// GEN: return %[[C]] : tensor<5xi32>
// MADD-LABEL: func.func @matmulint_vector_a
// MADD: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x8xi16>)
// MADD: scf.for
// MADD: vector.shuffle %{{.*}}, %{{.*}} [0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23] : vector<16xi8>, vector<16xi8>
// MADD: %[[B16:.*]] = arith.extui %{{.*}} : vector<16xi8> to vector<16xi16>
// MADD: qkernel.dot_i16_pairs %{{.*}}, %{{.*}}, %[[B16]] : vector<16xi16> -> vector<8xi32>
// MADD-NOT: math.roundeven
// MADD: vector.transfer_write %{{.*}} : vector<8xi32>, tensor<1x5xi32>
// MADD: tensor.collapse_shape %{{.*}} : tensor<1x5xi32> into tensor<5xi32>
func.func @matmulint_vector_a(%a: tensor<8xui8>, %azp: tensor<ui8>, %b: tensor<8x5xui8>) -> tensor<5xi32> {
  %y = qops.matmul_integer a(%a, %azp : tensor<8xui8>, tensor<ui8>) b(%b : tensor<8x5xui8>) -> tensor<5xi32>
  return %y : tensor<5xi32>
}

// -----

// Dynamic sizes: K is checked at run time with MatMulInteger's label.
// GEN-LABEL: func.func @matmulint_dynamic
// GEN: cf.assert %{{.*}}, "matmulint_inner_dim: a's K differs from b's K"
// GEN: linalg.generic
// GEN-SAME: outs(%{{.*}} : tensor<?x?xi32>)
// MADD-LABEL: func.func @matmulint_dynamic
// MADD: cf.assert %{{.*}}, "matmulint_inner_dim: a's K differs from b's K"
func.func @matmulint_dynamic(%a: tensor<?x?xui8>, %b: tensor<?x?xsi8>, %bzp: tensor<si8>) -> tensor<?x?xi32> {
  %y = qops.matmul_integer a(%a : tensor<?x?xui8>) b(%b, %bzp : tensor<?x?xsi8>, tensor<si8>) -> tensor<?x?xi32>
  return %y : tensor<?x?xi32>
}
