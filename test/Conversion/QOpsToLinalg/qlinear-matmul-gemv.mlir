// RUN: quant-opt %s --convert-qops-to-linalg=int8-strategy=madd --qops-lower-packing --split-input-file | FileCheck %s
// RUN: quant-opt %s --convert-qops-to-linalg="parallel int8-strategy=madd" --qops-lower-packing --qops-distribute --split-input-file | FileCheck %s --check-prefix=PAR
// RUN: quant-opt %s --convert-qops-to-linalg=int8-strategy=vnni --qops-lower-packing --split-input-file | FileCheck %s --check-prefix=VNNI

// The int8 gemv (QLinearMatMulGemv.cpp): a = at most 4 rows, b static 2-D,
// read as it is. A16 = a - a_zp; b_zp = -1 is folded as b_zp * S[m] with
// S = sum_k A16 (a reduction); the chunk's pairs are swept in blocks of 4
// over 16-column panels: two rows of b interleaved into k-pairs (byte
// shuffles: VPUNPCKLBW / VPUNPCKHBW), extended to i16, multiplied pairwise
// with the broadcast pair of A16, added to the sums read from and written
// back to the [1, M, Np] i32 partials. The epilogue corrects and requantizes
// 8 outputs at a time. Every strategy takes it (b not a constant).
// CHECK-LABEL: func.func @gemv_streams_b
// CHECK: %[[A16:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x64xi16>)
// CHECK: %[[S:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[A16]] : tensor<1x64xi16>) outs(%{{.*}} : tensor<1xi32>)
// CHECK: %[[SUMS0:.*]] = linalg.fill {{.*}} -> tensor<1x1x32xi32>
// CHECK: %[[SUMS:.*]] = scf.for %{{.*}} = %{{.*}} to %c8 step %c1 iter_args(%{{.*}} = %[[SUMS0]])
// CHECK: scf.for %[[N0:.*]] = %{{.*}} to %c32{{.*}} step %c16
// CHECK: vector.transfer_read %{{.*}} : tensor<1x1x32xi32>, vector<8xi32>
// CHECK: vector.transfer_read %[[A16]]{{.*}} : tensor<1x64xi16>, vector<2xi16>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1] : vector<2xi16>, vector<2xi16>
// CHECK: %[[EVEN:.*]] = vector.transfer_read %arg1{{.*}} {in_bounds = [true]} : tensor<64x32xi8>, vector<16xi8>
// CHECK: %[[ODD:.*]] = vector.transfer_read %arg1{{.*}} {in_bounds = [true]} : tensor<64x32xi8>, vector<16xi8>
// CHECK: %[[LO:.*]] = vector.shuffle %[[EVEN]], %[[ODD]] [0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23]
// CHECK: %[[HI:.*]] = vector.shuffle %[[EVEN]], %[[ODD]] [8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31]
// CHECK: %[[LO16:.*]] = arith.extsi %[[LO]] : vector<16xi8> to vector<16xi16>
// CHECK: %[[HI16:.*]] = arith.extsi %[[HI]] : vector<16xi8> to vector<16xi16>
// CHECK: qkernel.dot_i16_pairs %{{.*}}, %{{.*}}, %[[LO16]] : vector<16xi16> -> vector<8xi32>
// CHECK: qkernel.dot_i16_pairs %{{.*}}, %{{.*}}, %[[HI16]] : vector<16xi16> -> vector<8xi32>
// CHECK-COUNT-2: vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<8xi32>, tensor<1x1x32xi32>
// CHECK: scf.for %[[M:.*]] = %{{.*}} to %c1{{.*}} step %c1
// CHECK: scf.for %[[COL:.*]] = %{{.*}} to %c32{{.*}} step %c8
// CHECK: %[[ACC:.*]] = vector.transfer_read %[[SUMS]]{{.*}} : tensor<1x1x32xi32>, vector<8xi32>
// CHECK: %[[ZB:.*]] = arith.extsi %{{.*}} : vector<8xi8> to vector<8xi32>
// CHECK: tensor.extract %[[S]][%[[M]]] : tensor<1xi32>
// CHECK: %[[CORR:.*]] = arith.muli %[[ZB]], %{{.*}} : vector<8xi32>
// CHECK: arith.subi %[[ACC]], %[[CORR]] : vector<8xi32>
// CHECK: arith.sitofp %{{.*}} : vector<8xi32> to vector<8xf64>
// CHECK: math.roundeven %{{.*}} : vector<8xf64>
// CHECK: vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<8xi8>, tensor<1x32xi8>
// VNNI-LABEL: func.func @gemv_streams_b
// VNNI-NOT: qkernel.dot_u8s8_quads
// VNNI: vector.shuffle %{{.*}}, %{{.*}} [0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23]
func.func @gemv_streams_b(%a: tensor<1x64xui8>, %b: tensor<64x32xsi8>) -> tensor<1x32xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<-1> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<1x64xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<64x32xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<1x32xui8>
  return %y : tensor<1x32xui8>
}

// -----

// A constant b under the madd strategy is packed into k-pairs (once, at the
// first call: the pipeline's qops-hoist-constant-expressions):
// [Np/16, Kp/2, 32] i8, (b[2q][c], b[2q+1][c]) for the 16 columns c of a
// panel in order, so the loop only extends the bytes: b padded to
// [Kp, Np], viewed as [Kp/2 (q), 2 (t), Np/16 (p), 16 (c)], transposed to
// [p, q, c, t]. One row of a: four panels run together (64 columns, 8
// accumulators in registers), walking down the pairs; N = 32 is padded to
// 64 with zero panels. b_zp = 0: no row sums. The quad strategies keep
// their kernel for a constant b.
// CHECK-LABEL: func.func @gemv_constant_b
// CHECK-NOT: iterator_types = ["parallel", "reduction"]
// CHECK: } : tensor<2x32xi8> to tensor<2x64xi8>
// CHECK: tensor.expand_shape {{.*}} : tensor<2x64xi8> into tensor<1x2x4x16xi8>
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x2x4x16xi8>) outs(%{{.*}} : tensor<4x1x16x2xi8>) permutation = [2, 0, 3, 1]
// CHECK: %[[PACKED:.*]] = tensor.collapse_shape {{.*}} into tensor<4x1x32xi8>
// CHECK: scf.for %{{.*}} step %c64{{.*}} -> (tensor<1x1x64xi32>)
// CHECK: scf.for {{.*}} -> (vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>)
// CHECK-NOT: vector.shuffle %{{.*}}, %{{.*}} [0, 16,
// CHECK: %[[PAIRS:.*]] = vector.transfer_read %[[PACKED]]{{.*}} : tensor<4x1x32xi8>, vector<16xi8>
// CHECK: arith.extsi %[[PAIRS]] : vector<16xi8> to vector<16xi16>
// CHECK: scf.yield
// CHECK-COUNT-8: vector.transfer_write %{{.*}} : vector<8xi32>, tensor<1x1x64xi32>
// CHECK-NOT: tensor.extract %{{.*}} : tensor<1xi32>
// CHECK: return
// VNNI-LABEL: func.func @gemv_constant_b
// VNNI: qkernel.dot_u8s8_quads
func.func @gemv_constant_b(%a: tensor<1x2xui8>) -> tensor<1x32xui8> {
  %b = arith.constant dense<[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32], [-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16, -17, -18, -19, -20, -21, -22, -23, -24, -25, -26, -27, -28, -29, -30, -31, -32]]> : tensor<2x32xsi8>
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<0> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<1x2xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<2x32xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<1x32xui8>
  return %y : tensor<1x32xui8>
}

// -----

// K odd (9): A16 is padded to 10 columns; four pairs in the block loop, the
// last row of b alone with a zero row after it. A ui8 b is zero-extended.
// N = 20 is not a multiple of 16: b is read with masks (in_bounds false),
// and y's last 8 outputs are a masked write.
// CHECK-LABEL: func.func @gemv_odd_k
// CHECK: tensor.pad
// CHECK: tensor<3x10xi16>
// CHECK: %[[ZEROS:.*]] = arith.constant dense<0> : vector<16xi8>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c1{{.*}} step %c1
// CHECK: vector.transfer_read %arg1{{.*}} : tensor<9x20xi8>, vector<16xi8>
// CHECK: arith.extui %{{.*}} : vector<16xi8> to vector<16xi16>
// CHECK: scf.yield
// CHECK: %[[LAST:.*]] = vector.transfer_read %arg1{{.*}} : tensor<9x20xi8>, vector<16xi8>
// CHECK-NOT: vector.transfer_read %arg1
// CHECK: vector.shuffle %[[LAST]], %[[ZEROS]] [0, 16, 1, 17
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : vector<8xi8>, tensor<3x20xi8>
func.func @gemv_odd_k(%a: tensor<3x9xsi8>, %b: tensor<9x20xui8>) -> tensor<3x20xsi8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<-3> : tensor<si8>
  %zb = arith.constant dense<128> : tensor<ui8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<3x9xsi8>, tensor<f32>, tensor<si8>) b(%b, %s, %zb : tensor<9x20xui8>, tensor<f32>, tensor<ui8>) y(%s, %za : tensor<f32>, tensor<si8>) -> tensor<3x20xsi8>
  return %y : tensor<3x20xsi8>
}

// -----

// Threads: K = 2048 is two chunks of 1024 rows, summed by an scf.forall
// into partials [2, M, Np] that the epilogue adds.
// PAR-LABEL: func.func @gemv_threads
// PAR: scf.forall (%[[C:.*]], %{{.*}}) in (2, 1) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x1x16xi32>)
// PAR: %[[FIRST:.*]] = arith.muli %[[C]], %c512
// PAR: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[C]], 0, %{{.*}}] [1, 1, 16] [1, 1, 1] : tensor<1x1x16xi32> into tensor<2x1x16xi32>
// PAR: %[[P0:.*]] = vector.transfer_read %{{.*}}[%c0{{.*}}, %{{.*}}, %{{.*}}]{{.*}} : tensor<2x1x16xi32>, vector<8xi32>
// PAR: %[[P1:.*]] = vector.transfer_read %{{.*}}[%c1{{.*}}, %{{.*}}, %{{.*}}]{{.*}} : tensor<2x1x16xi32>, vector<8xi32>
// PAR: arith.addi %[[P0]], %[[P1]] : vector<8xi32>
// K = 768 has no two chunks: the columns are split instead, in blocks of
// 512 (N = 1100 padded to 1536, three blocks); each thread sums every row
// of b for its columns.
// PAR-LABEL: func.func @gemv_threads_columns
// PAR: scf.forall (%{{.*}}, %[[J:.*]]) in (1, 3) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<1x1x1536xi32>)
// PAR: %[[NBEGIN:.*]] = arith.muli %[[J]], %c512
// PAR: tensor.extract_slice %{{.*}}[%{{.*}}, 0, %[[NBEGIN]]] [1, 1, 512] [1, 1, 1] : tensor<1x1x1536xi32> to tensor<1x1x512xi32>
// PAR: vector.transfer_read %arg1{{.*}} : tensor<768x1100xi8>, vector<16xi8>
// PAR: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%{{.*}}, 0, %[[NBEGIN]]] [1, 1, 512] [1, 1, 1]
// N = 528, a multiple of the 16-column panels, is padded to 1024 by the
// blocks: the reads of b must be masked (in bounds, they read 496 bytes past
// the end of b in the second block). N = 1024 fills its blocks: no mask.
// PAR-LABEL: func.func @gemv_threads_columns_padded
// PAR: scf.forall (%{{.*}}, %{{.*}}) in (1, 2)
// PAR-NOT: in_bounds = [true]} : tensor<768x528xi8>
// PAR: vector.transfer_read %arg1[%{{.*}}, %{{.*}}], %{{.*}} : tensor<768x528xi8>, vector<16xi8>
// PAR-NOT: in_bounds = [true]} : tensor<768x528xi8>
// PAR: return
// PAR-LABEL: func.func @gemv_threads_columns_whole
// PAR: scf.forall (%{{.*}}, %{{.*}}) in (1, 2)
// PAR: vector.transfer_read %arg1[%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<768x1024xi8>, vector<16xi8>
// CHECK-LABEL: func.func @gemv_threads
// CHECK-NOT: scf.forall
// CHECK: return
// CHECK-LABEL: func.func @gemv_threads_columns
// CHECK-NOT: scf.forall
// CHECK: return
func.func @gemv_threads(%a: tensor<1x2048xui8>, %b: tensor<2048x16xsi8>) -> tensor<1x16xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<0> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<1x2048xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<2048x16xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<1x16xui8>
  return %y : tensor<1x16xui8>
}
func.func @gemv_threads_columns(%a: tensor<1x768xui8>, %b: tensor<768x1100xsi8>) -> tensor<1x1100xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<0> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<1x768xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<768x1100xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<1x1100xui8>
  return %y : tensor<1x1100xui8>
}
func.func @gemv_threads_columns_padded(%a: tensor<1x768xui8>, %b: tensor<768x528xsi8>) -> tensor<1x528xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<0> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<1x768xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<768x528xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<1x528xui8>
  return %y : tensor<1x528xui8>
}
func.func @gemv_threads_columns_whole(%a: tensor<1x768xui8>, %b: tensor<768x1024xsi8>) -> tensor<1x1024xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<0> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<1x768xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<768x1024xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<1x1024xui8>
  return %y : tensor<1x1024xui8>
}

// -----

// A 1-D a is one row (numpy.matmul), and the result drops it again; a
// batched a of at most 4 rows in all ([2, 1, K]) is read as [2, K].
// Per-column b parameters are padded to the panels.
// CHECK-LABEL: func.func @gemv_vector_a
// CHECK: tensor.expand_shape %arg0 {{\[\[}}0, 1]] output_shape [1, 8] : tensor<8xi8> into tensor<1x8xi8>
// CHECK: tensor.pad
// CHECK: tensor<16xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<1x5xi8> into tensor<5xi8>
// CHECK-LABEL: func.func @gemv_batched_a
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<2x1x8xi8> into tensor<2x8xi8>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [2, 1, 5] : tensor<2x5xi8> into tensor<2x1x5xi8>
func.func @gemv_vector_a(%a: tensor<8xui8>, %b: tensor<8x5xsi8>, %bs: tensor<5xf32>, %zb: tensor<5xsi8>) -> tensor<5xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<8xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %zb : tensor<8x5xsi8>, tensor<5xf32>, tensor<5xsi8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<5xui8>
  return %y : tensor<5xui8>
}
func.func @gemv_batched_a(%a: tensor<2x1x8xui8>, %b: tensor<8x5xsi8>) -> tensor<2x1x5xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<0> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<2x1x8xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<8x5xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<2x1x5xui8>
  return %y : tensor<2x1x5xui8>
}

// -----

// Not a gemv: five rows (the kernel packs b, as byte pairs: its zero point
// is 0), a dynamic b (the generic contraction), per-row parameters of a
// batched a (the generic contraction broadcasts them over the batch).
// CHECK-LABEL: func.func @five_rows
// CHECK: scf.for {{.*}} -> (tensor<1x2x32x32xi8>)
// CHECK: scf.for {{.*}} -> (vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, index)
// CHECK-LABEL: func.func @dynamic_b
// CHECK-NOT: vector<16xi8>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-LABEL: func.func @per_row_batched_a
// CHECK-NOT: vector<16xi8>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "parallel"]
func.func @five_rows(%a: tensor<5x64xui8>, %b: tensor<64x32xsi8>) -> tensor<5x32xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<0> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<5x64xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<64x32xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<5x32xui8>
  return %y : tensor<5x32xui8>
}
func.func @dynamic_b(%a: tensor<1x64xui8>, %b: tensor<64x?xsi8>) -> tensor<1x?xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<0> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<1x64xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<64x?xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<1x?xui8>
  return %y : tensor<1x?xui8>
}
func.func @per_row_batched_a(%a: tensor<1x2x8xui8>, %as: tensor<2xf32>, %b: tensor<8x5xsi8>) -> tensor<1x2x5xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<0> : tensor<si8>
  %zas = arith.constant dense<[3, 4]> : tensor<2xui8>
  %y = qops.qlinear_matmul a(%a, %as, %zas : tensor<1x2x8xui8>, tensor<2xf32>, tensor<2xui8>) b(%b, %s, %zb : tensor<8x5xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<1x2x5xui8>
  return %y : tensor<1x2x5xui8>
}
