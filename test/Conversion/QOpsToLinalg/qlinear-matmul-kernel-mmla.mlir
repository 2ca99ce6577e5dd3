// RUN: quant-opt %s --convert-qops-to-linalg=int8-strategy=usmmla --qops-lower-packing --split-input-file | FileCheck %s

// The usmmla strategy (AArch64 i8mm): a' and b' as for the quad strategies,
// B32 reordered so that each k-octet holds, per column pair, the 8 bytes of
// one column then those of the next (a linalg.generic at run time), and a
// 6-row tile of 3 row pairs x 8 column pairs of 2x2 blocks: 24
// qkernel.mmla_u8s8 per octet, the blocks shuffled back into row halves for the
// epilogue. K = 20 is padded to 24 (3 octets).
// CHECK-DAG: #[[FROM:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d5, d3, d4)>
// CHECK-DAG: #[[TO:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
// CHECK-LABEL: func.func @runtime_b
// CHECK: %[[SPLIT:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2, 3], [4, 5]] output_shape [1, 1, 3, 2, 8, 2] : tensor<1x1x6x16xi32> into tensor<1x1x3x2x8x2xi32>
// CHECK: %[[ORDERED:.*]] = linalg.generic {indexing_maps = [#[[FROM]], #[[TO]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[SPLIT]] : tensor<1x1x3x2x8x2xi32>)
// CHECK: %[[OCTETS:.*]] = tensor.collapse_shape %[[ORDERED]] {{\[\[}}0], [1], [2], [3, 4, 5]] : tensor<1x1x3x8x2x2xi32> into tensor<1x1x3x32xi32>
// CHECK: scf.for %{{.*}} = %c0 to %c3{{(_[0-9]+)?}} step %c1 iter_args({{.*}}) -> (vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>)
// CHECK: %[[ROW0:.*]] = vector.transfer_read %{{.*}} : tensor<1x6x24xi8>, vector<8xi8>
// CHECK: %[[ROW1:.*]] = vector.transfer_read %{{.*}} : tensor<1x6x24xi8>, vector<8xi8>
// CHECK: vector.shuffle %[[ROW0]], %[[ROW1]] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<8xi8>, vector<8xi8>
// CHECK: vector.transfer_read %[[OCTETS]]{{.*}} : tensor<1x1x3x32xi32>, vector<4xi32>
// CHECK-COUNT-24: qkernel.mmla_u8s8 %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK: scf.yield
// CHECK: %[[LEFT:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 1, 4, 5, 2, 3, 6, 7] : vector<4xi32>, vector<4xi32>
// CHECK: %[[RIGHT:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 1, 4, 5, 2, 3, 6, 7] : vector<4xi32>, vector<4xi32>
// CHECK: vector.shuffle %[[LEFT]], %[[RIGHT]] [0, 1, 2, 3, 8, 9, 10, 11] : vector<8xi32>, vector<8xi32>
// CHECK: vector.shuffle %[[LEFT]], %[[RIGHT]] [4, 5, 6, 7, 12, 13, 14, 15] : vector<8xi32>, vector<8xi32>
func.func @runtime_b(%a: tensor<6x20xui8>, %b: tensor<20x16xsi8>) -> tensor<6x16xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<-2> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<6x20xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<20x16xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<6x16xui8>
  return %y : tensor<6x16xui8>
}

// -----

// A constant b is packed and reordered by the IR of a b known at run time
// (the pipeline's qops-hoist-constant-expressions runs it once): quads, then
// [Bb, P, Kq/2, 2 (w), 8 (j), 2 (c)] permuted to [.., j, c, w] (the
// generic reading d5, d3, d4) and collapsed to one octet [1, 1, 1, 32] for
// K = 8, N = 2. One row of a gets a tile of two rows (one row pair).
// CHECK-LABEL: func.func @constant_b
// CHECK: linalg.generic {{.*}}ins(%{{.*}} : tensor<1x1x1x2x8x2xi32>)
// CHECK: tensor.collapse_shape {{.*}} into tensor<1x1x1x32xi32>
// CHECK: scf.for %{{.*}} = %c0 to %c1{{(_[0-9]+)?}} step %c1 iter_args({{.*}}) -> (vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>)
// CHECK-COUNT-8: qkernel.mmla_u8s8
func.func @constant_b(%a: tensor<1x8xui8>) -> tensor<1x2xui8> {
  %b = arith.constant dense<[[0, 1], [2, 3], [4, 5], [6, 7], [8, 9], [10, 11], [12, 13], [14, 15]]> : tensor<8x2xsi8>
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<0> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<1x8xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<8x2xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<1x2xui8>
  return %y : tensor<1x2xui8>
}
