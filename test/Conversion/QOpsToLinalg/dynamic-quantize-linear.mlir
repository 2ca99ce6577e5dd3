// RUN: quant-opt %s --convert-qops-to-linalg="target-triple=x86_64-unknown-linux-gnu target-cpu=sapphirerapids" | FileCheck %s
// RUN: quant-opt %s --convert-qops-to-linalg="parallel target-triple=x86_64-unknown-linux-gnu target-cpu=sapphirerapids" | FileCheck %s --check-prefix=PAR
// RUN: quant-opt %s --convert-qops-to-linalg="target-triple=x86_64-unknown-linux-gnu target-cpu=znver3" | FileCheck %s --check-prefix=AVX2
// RUN: quant-opt %s --convert-qops-to-linalg="target-triple=aarch64-linux-gnu target-cpu=neoverse-n1" | FileCheck %s --check-prefix=NEON

// Pass 1 flattens x and reduces it into L lanes of three accumulators
// (outer reduction, parallel along the contiguous lanes): minnum, maxnum and
// an i32 NaN flag (all ones for a NaN: the compare's mask); L is 4 vector
// registers of the target: 64 on AVX-512 (sapphirerapids), 32 on AVX2
// (znver3), 16 on NEON; folds the N mod L tail into the first lanes, then reduces
// the lanes; a NaN seen makes min and max NaN; the scale and zero point are
// scalar arith; pass 2 quantizes with them.
// CHECK-DAG: #[[ROWS:.*]] = affine_map<()[s0] -> (s0 floordiv 64)>
// CHECK-DAG: #[[BULK:.*]] = affine_map<()[s0] -> ((s0 floordiv 64) * 64)>
// CHECK-DAG: #[[TAIL:.*]] = affine_map<()[s0] -> (s0 mod 64)>
// CHECK-DAG: #[[GRID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[LANE:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[ID1:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[TO_SCALAR:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @dynamic_quantize
// CHECK-SAME: (%[[X:.*]]: tensor<?x4xf32>) -> (tensor<?x4xi8>, tensor<f32>, tensor<i8>)
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1]] : tensor<?x4xf32> into tensor<?xf32>
// CHECK: %[[N:.*]] = tensor.dim %[[FLAT]]
// CHECK: %[[NROWS:.*]] = affine.apply #[[ROWS]]()[%[[N]]]
// CHECK: %[[NBULK:.*]] = affine.apply #[[BULK]]()[%[[N]]]
// CHECK: %[[NTAIL:.*]] = affine.apply #[[TAIL]]()[%[[N]]]
// CHECK: %[[PINF:.*]] = arith.constant 0x7F800000 : f32
// CHECK: %[[MININIT:.*]] = linalg.fill ins(%[[PINF]] : f32) outs(%{{.*}} : tensor<64xf32>)
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[MAXINIT:.*]] = linalg.fill ins(%[[NINF]] : f32) outs(%{{.*}} : tensor<64xf32>)
// CHECK: %[[ZERO32:.*]] = arith.constant 0 : i32
// CHECK: %[[NANINIT:.*]] = linalg.fill ins(%[[ZERO32]] : i32) outs(%{{.*}} : tensor<64xi32>)
// CHECK: %[[BULKX:.*]] = tensor.extract_slice %[[FLAT]][0] [%[[NBULK]]] [1]
// CHECK: %[[GRIDX:.*]] = tensor.expand_shape %[[BULKX]] {{\[\[}}0, 1]] output_shape [%[[NROWS]], 64] : tensor<?xf32> into tensor<?x64xf32>
// CHECK: %[[LANES:.*]]:3 = linalg.generic {indexing_maps = [#[[GRID]], #[[LANE]], #[[LANE]], #[[LANE]]], iterator_types = ["reduction", "parallel"]}
// CHECK-SAME: ins(%[[GRIDX]] : tensor<?x64xf32>) outs(%[[MININIT]], %[[MAXINIT]], %[[NANINIT]] : tensor<64xf32>, tensor<64xf32>, tensor<64xi32>)
// CHECK: ^bb0(%[[XE:.*]]: f32, %[[LOE:.*]]: f32, %[[HIE:.*]]: f32, %[[NANE:.*]]: i32):
// CHECK: %[[UNO:.*]] = arith.cmpf uno, %[[XE]], %[[XE]] : f32
// CHECK: %[[ISNAN:.*]] = arith.extsi %[[UNO]] : i1 to i32
// CHECK: %[[LO1:.*]] = arith.minnumf %[[LOE]], %[[XE]] : f32
// CHECK: %[[HI1:.*]] = arith.maxnumf %[[HIE]], %[[XE]] : f32
// CHECK: %[[NAN1:.*]] = arith.ori %[[NANE]], %[[ISNAN]] : i32
// CHECK: linalg.yield %[[LO1]], %[[HI1]], %[[NAN1]] : f32, f32, i32
// CHECK: %[[TAILX:.*]] = tensor.extract_slice %[[FLAT]][%[[NBULK]]] [%[[NTAIL]]] [1]
// CHECK: linalg.generic {indexing_maps = [#[[ID1]], #[[ID1]], #[[ID1]], #[[ID1]]], iterator_types = ["parallel"]}
// CHECK-SAME: ins(%[[TAILX]] : tensor<?xf32>)
// CHECK: %[[MINLANES:.*]] = tensor.insert_slice %{{.*}} into %[[LANES]]#0[0] [%[[NTAIL]]] [1]
// CHECK: %[[MAXLANES:.*]] = tensor.insert_slice %{{.*}} into %[[LANES]]#1[0] [%[[NTAIL]]] [1]
// CHECK: %[[NANLANES:.*]] = tensor.insert_slice %{{.*}} into %[[LANES]]#2[0] [%[[NTAIL]]] [1]
// CHECK: %[[MM:.*]]:3 = linalg.generic {indexing_maps = [#[[ID1]], #[[ID1]], #[[ID1]], #[[TO_SCALAR]], #[[TO_SCALAR]], #[[TO_SCALAR]]], iterator_types = ["reduction"]}
// CHECK-SAME: ins(%[[MINLANES]], %[[MAXLANES]], %[[NANLANES]] : tensor<64xf32>, tensor<64xf32>, tensor<64xi32>)
// CHECK: arith.minnumf
// CHECK: arith.maxnumf
// CHECK: arith.ori
// CHECK: %[[NANFLAG:.*]] = tensor.extract %[[MM]]#2[] : tensor<i32>
// CHECK: %[[SAWNAN:.*]] = arith.cmpi ne, %[[NANFLAG]], %{{.*}} : i32
// CHECK: %[[QNAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK: %[[LOR:.*]] = tensor.extract %[[MM]]#0[] : tensor<f32>
// CHECK: %[[LO:.*]] = arith.select %[[SAWNAN]], %[[QNAN]], %[[LOR]] : f32
// CHECK: %[[HIR:.*]] = tensor.extract %[[MM]]#1[] : tensor<f32>
// CHECK: %[[HI:.*]] = arith.select %[[SAWNAN]], %[[QNAN]], %[[HIR]] : f32
// CHECK: %[[MAX:.*]] = arith.maximumf %[[HI]], %{{.*}} : f32
// CHECK: %[[MIN:.*]] = arith.minimumf %[[LO]], %{{.*}} : f32
// CHECK: %[[EQ:.*]] = arith.cmpf oeq, %[[MAX]], %[[MIN]] : f32
// CHECK: %[[RANGE:.*]] = arith.subf %[[MAX]], %[[MIN]] : f32
// CHECK: %[[SEL:.*]] = arith.select %[[EQ]], %{{.*}}, %[[RANGE]] : f32
// CHECK: %[[SCALE:.*]] = arith.divf %[[SEL]], %{{.*}} : f32
// CHECK: %[[MS:.*]] = arith.divf %[[MIN]], %[[SCALE]] : f32
// CHECK: %[[ZPF:.*]] = arith.subf %{{.*}}, %[[MS]] : f32
// CHECK: math.roundeven %[[ZPF]] : f32
// CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [#[[GRID]], #[[GRID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[X]] : tensor<?x4xf32>)
// CHECK: arith.divf %{{.*}}, %[[SCALE]] : f32
// CHECK: %[[ST:.*]] = tensor.from_elements %[[SCALE]] : tensor<f32>
// CHECK: %[[ZT:.*]] = tensor.from_elements %{{.*}} : tensor<i8>
// CHECK: return %[[Y]], %[[ST]], %[[ZT]]
// With `parallel`, pass 1 first reduces whole chunks of 1024 rows of 64
// lanes into per-chunk partials (chunk loop parallel, for threads), then the
// partials into the 64 lanes, then the rows left over, then the tail.
// PAR-DAG: #[[CHUNKS:.*]] = affine_map<()[s0] -> ((s0 floordiv 64) floordiv 1024)>
// PAR-DAG: #[[CHUNKED:.*]] = affine_map<()[s0] -> (((s0 floordiv 64) floordiv 1024) * 1024)>
// PAR-DAG: #[[LEFT:.*]] = affine_map<()[s0] -> ((s0 floordiv 64) mod 1024)>
// PAR-DAG: #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// PAR-DAG: #[[PART:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// PAR-DAG: #[[GRID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// PAR-DAG: #[[LANE:.*]] = affine_map<(d0, d1) -> (d1)>
// PAR-LABEL: func.func @dynamic_quantize
// PAR: %[[MININIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<64xf32>)
// PAR: %[[MAXINIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<64xf32>)
// PAR: %[[NANINIT:.*]] = linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<64xi32>)
// PAR: %[[NCHUNKS:.*]] = affine.apply #[[CHUNKS]]()
// PAR: %[[NCHUNKED:.*]] = affine.apply #[[CHUNKED]]()
// PAR: %[[ROWS:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [%[[NCHUNKED]], 64] : tensor<?xf32> into tensor<?x64xf32>
// PAR: %[[CHUNKED_X:.*]] = tensor.expand_shape %[[ROWS]] {{\[\[}}0, 1], [2]] output_shape [%[[NCHUNKS]], 1024, 64] : tensor<?x64xf32> into tensor<?x1024x64xf32>
// PAR: %[[PARTIALS:.*]]:3 = linalg.generic {indexing_maps = [#[[ID3]], #[[PART]], #[[PART]], #[[PART]]], iterator_types = ["parallel", "reduction", "parallel"]}
// PAR-SAME: ins(%[[CHUNKED_X]] : tensor<?x1024x64xf32>) outs(%{{.*}}, %{{.*}}, %{{.*}} : tensor<?x64xf32>, tensor<?x64xf32>, tensor<?x64xi32>)
// PAR: %[[FROM_CHUNKS:.*]]:3 = linalg.generic {indexing_maps = [#[[GRID]], #[[GRID]], #[[GRID]], #[[LANE]], #[[LANE]], #[[LANE]]], iterator_types = ["reduction", "parallel"]}
// PAR-SAME: ins(%[[PARTIALS]]#0, %[[PARTIALS]]#1, %[[PARTIALS]]#2 : tensor<?x64xf32>, tensor<?x64xf32>, tensor<?x64xi32>) outs(%[[MININIT]], %[[MAXINIT]], %[[NANINIT]] : tensor<64xf32>, tensor<64xf32>, tensor<64xi32>)
// PAR: arith.minnumf
// PAR: arith.maxnumf
// PAR: arith.ori
// PAR: %[[NLEFT:.*]] = affine.apply #[[LEFT]]()
// PAR: %[[LEFT_X:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [%[[NLEFT]], 64] : tensor<?xf32> into tensor<?x64xf32>
// PAR: linalg.generic {indexing_maps = [#[[GRID]], #[[LANE]], #[[LANE]], #[[LANE]]], iterator_types = ["reduction", "parallel"]}
// PAR-SAME: ins(%[[LEFT_X]] : tensor<?x64xf32>) outs(%[[FROM_CHUNKS]]#0, %[[FROM_CHUNKS]]#1, %[[FROM_CHUNKS]]#2 : tensor<64xf32>, tensor<64xf32>, tensor<64xi32>)
// AVX2-LABEL: func.func @dynamic_quantize
// AVX2: output_shape [%{{.*}}, 32] : tensor<?xf32> into tensor<?x32xf32>
// AVX2: ins(%{{.*}} : tensor<?x32xf32>) outs(%{{.*}}, %{{.*}}, %{{.*}} : tensor<32xf32>, tensor<32xf32>, tensor<32xi32>)
// NEON-LABEL: func.func @dynamic_quantize
// NEON: output_shape [%{{.*}}, 16] : tensor<?xf32> into tensor<?x16xf32>
func.func @dynamic_quantize(%x: tensor<?x4xf32>) -> (tensor<?x4xui8>, tensor<f32>, tensor<ui8>) {
  %y, %s, %zp = qops.dynamic_quantize_linear %x : tensor<?x4xf32> -> tensor<?x4xui8>, tensor<f32>, tensor<ui8>
  return %y, %s, %zp : tensor<?x4xui8>, tensor<f32>, tensor<ui8>
}
