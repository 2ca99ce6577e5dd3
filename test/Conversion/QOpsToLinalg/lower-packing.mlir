// RUN: quant-opt %s --qops-lower-packing --canonicalize --split-input-file | FileCheck %s
// RUN: quant-opt %s --qops-lower-packing --split-input-file | FileCheck %s --check-prefix=MARK

// qops-lower-packing, the pack stage's IR: each qkernel.pack_b and
// qkernel.pack_a becomes the IR of its layout (QKernelOps.td has the
// formulas). K = 33 and N = 37 in most cases: K pads to a multiple of
// k_step, N to whole panels.

// quads of a ui8 b (b_unsigned), in one pass over b: b padded to [36, 48]
// with 0x80 (b' = 0); one generic over (batch, panel, quad, column) with
// two results: the lanes OR four rows (stride 4 in k) of b' = b ^ 0x80,
// shifted by 0, 8, 16 and 24 bits, and the column sums of b' (the quad a
// reduction). The column term K zb' - colsum of the first 37 columns, with
// zb' = zb - 128, padded to Np = 48 with 0.
// CHECK-LABEL: func.func @quads
// CHECK-DAG: %[[FLIP:.*]] = arith.constant -128 : i8
// CHECK-DAG: %[[K:.*]] = arith.constant 33 : i32
// CHECK: tensor.pad %{{.*}} low[0, 0, 0] high[0, 3, 11]
// CHECK: tensor.yield %[[FLIP]] : i8
// CHECK-COUNT-4: tensor.extract_slice %{{.*}} [1, 9, 48] [1, 4, 1] : tensor<1x36x48xi8> to tensor<1x9x48xi8>
// CHECK: %[[PACK:.*]]:2 = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "parallel"]{{.*}}outs(%{{.*}}, %{{.*}} : tensor<1x3x9x16xi32>, tensor<1x3x16xi32>)
// CHECK: arith.xori %{{.*}}, %[[FLIP]] : i8
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK-COUNT-3: arith.shli
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: linalg.yield %{{.*}}, %{{.*}} : i32, i32
// CHECK: %[[SUMS:.*]] = tensor.collapse_shape %[[PACK]]#1 {{\[}}[0], [1, 2]] : tensor<1x3x16xi32> into tensor<1x48xi32>
// CHECK: %[[SUMS37:.*]] = tensor.extract_slice %[[SUMS]][0, 0] [1, 37] [1, 1]
// CHECK: %[[TERM:.*]] = linalg.generic {{.*}}ins(%[[SUMS37]], %{{.*}} : tensor<1x37xi32>, tensor<i8>)
// CHECK: %[[ZB:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK: %[[KZB:.*]] = arith.muli %[[ZB]], %[[K]] : i32
// CHECK: arith.subi %[[KZB]], %{{.*}} : i32
// CHECK: %[[PADDED_TERM:.*]] = tensor.pad %[[TERM]] low[0, 0] high[0, 11]
// CHECK: return %[[PACK]]#0, %[[PADDED_TERM]] : tensor<1x3x9x16xi32>, tensor<1x48xi32>
// CHECK-NOT: qkernel.pack_b
func.func @quads(%b: tensor<1x33x37xi8>, %zp: tensor<i8>) -> (tensor<1x3x9x16xi32>, tensor<1x48xi32>) {
  %p, %t = qkernel.pack_b quads %b, %zp {b_unsigned, k_step = 4 : i64, panel_columns = 16 : i64} : tensor<1x33x37xi8>, tensor<i8> -> tensor<1x3x9x16xi32>, tensor<1x48xi32>
  return %p, %t : tensor<1x3x9x16xi32>, tensor<1x48xi32>
}

// -----

// pairs of an si8 b with a zero point per column ([Np]): one loop over the
// 3 panels of 16 columns; two rows interleaved byte by byte (VPUNPCKLBW /
// VPUNPCKHBW shapes), extended to i16, the zero points subtracted. The
// panels' nest is marked for qops-distribute.
// CHECK-LABEL: func.func @pairs
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<1x3x17x16xi32>)
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23] : vector<16xi8>, vector<16xi8>
// CHECK: arith.extsi %{{.*}} : vector<16xi8> to vector<16xi16>
// CHECK: arith.subi %{{.*}}, %{{.*}} : vector<16xi16>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31] : vector<16xi8>, vector<16xi8>
// CHECK: return %{{.*}} : tensor<1x3x17x16xi32>
// MARK-LABEL: func.func @pairs
// MARK: qkernel.parallel_loops
func.func @pairs(%b: tensor<1x33x37xi8>, %zp: tensor<48xi8>) -> tensor<1x3x17x16xi32> {
  %p = qkernel.pack_b pairs %b, %zp {k_step = 2 : i64, panel_columns = 16 : i64} : tensor<1x33x37xi8>, tensor<48xi8> -> tensor<1x3x17x16xi32>
  return %p : tensor<1x3x17x16xi32>
}

// -----

// byte_pairs of a ui8 b with one zero point: the rows interleaved as for
// the pairs, the zero point bytes subtracted (VPSUBB), not extended: each
// half of a pair row is 16 bytes of the panel's 32, half of the pairs'
// bytes.
// CHECK-LABEL: func.func @byte_pairs
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<1x3x17x32xi8>)
// CHECK: %[[LO:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23] : vector<16xi8>, vector<16xi8>
// CHECK-NOT: arith.extui
// CHECK: %[[LOB:.*]] = arith.subi %[[LO]], %{{.*}} : vector<16xi8>
// CHECK: vector.transfer_write %[[LOB]], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {in_bounds = [true]} : vector<16xi8>, tensor<1x1x17x32xi8>
// CHECK: %[[HI:.*]] = vector.shuffle %{{.*}}, %{{.*}} [8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31] : vector<16xi8>, vector<16xi8>
// CHECK: %[[HIB:.*]] = arith.subi %[[HI]], %{{.*}} : vector<16xi8>
// CHECK: vector.transfer_write %[[HIB]], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {in_bounds = [true]} : vector<16xi8>, tensor<1x1x17x32xi8>
// CHECK: return %{{.*}} : tensor<1x3x17x32xi8>
// MARK-LABEL: func.func @byte_pairs
// MARK: qkernel.parallel_loops
func.func @byte_pairs(%b: tensor<1x33x37xi8>, %zp: tensor<i8>) -> tensor<1x3x17x32xi8> {
  %p = qkernel.pack_b byte_pairs %b, %zp {b_unsigned, k_step = 2 : i64, panel_columns = 16 : i64} : tensor<1x33x37xi8>, tensor<i8> -> tensor<1x3x17x32xi8>
  return %p : tensor<1x3x17x32xi8>
}

// -----

// octets (usmmla): the quads with K padded to 40 (k_step 8), then two
// k-quads of each column pair side by side: [1, 3, 10, 16] ->
// [1, 3, 5, 2, 8, 2] -> [1, 3, 5, 8, 2, 2] -> [1, 3, 5, 32].
// CHECK-LABEL: func.func @octets
// CHECK: tensor.pad %{{.*}} low[0, 0, 0] high[0, 7, 11]
// CHECK: linalg.generic {{.*}}outs(%{{.*}}, %{{.*}} : tensor<1x3x10x16xi32>, tensor<1x3x16xi32>)
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3], [4, 5]] output_shape [1, 3, 5, 2, 8, 2]
// CHECK: linalg.generic {{.*}}outs(%{{.*}} : tensor<1x3x5x8x2x2xi32>)
// CHECK: %[[OCTETS:.*]] = tensor.collapse_shape %{{.*}} : tensor<1x3x5x8x2x2xi32> into tensor<1x3x5x32xi32>
// CHECK: return %[[OCTETS]], %{{.*}} : tensor<1x3x5x32xi32>, tensor<1x48xi32>
func.func @octets(%b: tensor<1x33x37xi8>, %zp: tensor<i8>) -> (tensor<1x3x5x32xi32>, tensor<1x48xi32>) {
  %p, %t = qkernel.pack_b octets %b, %zp {k_step = 8 : i64, panel_columns = 16 : i64} : tensor<1x33x37xi8>, tensor<i8> -> tensor<1x3x5x32xi32>, tensor<1x48xi32>
  return %p, %t : tensor<1x3x5x32xi32>, tensor<1x48xi32>
}

// -----

// Dynamic sizes: K and N read from b at run time, padded to multiples of
// 64 and 32.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[K:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x?x?xi8>
// CHECK: tensor.pad %{{.*}} low[0, 0, 0] high[%{{.*}}, %{{.*}}, %{{.*}}]
// CHECK: arith.index_cast %[[K]] : index to i32
// CHECK: return %{{.*}}, %{{.*}} : tensor<?x?x?x32xi32>, tensor<?x?xi32>
func.func @dynamic(%b: tensor<?x?x?xi8>, %zp: tensor<i8>) -> (tensor<?x?x?x32xi32>, tensor<?x?xi32>) {
  %p, %t = qkernel.pack_b quads %b, %zp {k_step = 64 : i64, panel_columns = 32 : i64} : tensor<?x?x?xi8>, tensor<i8> -> tensor<?x?x?x32xi32>, tensor<?x?xi32>
  return %p, %t : tensor<?x?x?x32xi32>, tensor<?x?xi32>
}

// -----

// pack_a centered (madd): A16 = a - zp in i16, the zero point per row
// ([M], read at m), K padded from 33 to 34 with 0.
// CHECK-LABEL: func.func @a_centered
// CHECK: %[[A16:.*]] = linalg.generic {{.*}}ins(%{{.*}}, %{{.*}} : tensor<1x5x33xi8>, tensor<5xi8>) outs(%{{.*}} : tensor<1x5x33xi16>)
// CHECK: %[[X:.*]] = arith.extui %{{.*}} : i8 to i32
// CHECK: %[[Z:.*]] = arith.extui %{{.*}} : i8 to i32
// CHECK: %[[D:.*]] = arith.subi %[[X]], %[[Z]] : i32
// CHECK: arith.trunci %[[D]] : i32 to i16
// CHECK: %[[PADDED:.*]] = tensor.pad %[[A16]] low[0, 0, 0] high[0, 0, 1]
// CHECK: return %[[PADDED]] : tensor<1x5x34xi16>
func.func @a_centered(%a: tensor<1x5x33xi8>, %zp: tensor<5xi8>) -> tensor<1x5x34xi16> {
  %p = qkernel.pack_a centered %a, %zp {a_unsigned, k_step = 2 : i64} : tensor<1x5x33xi8>, tensor<5xi8> -> tensor<1x5x34xi16>
  return %p : tensor<1x5x34xi16>
}

// -----

// pack_a bytes of an si8 a for a u8 operand (VPDPBUSD): a' = a + 128, the
// sign bit flipped; 40 rows padded to 64 (row_multiple 32, AMX), K to 64;
// the row sums of a' over the 40 true rows, zero-extended.
// CHECK-LABEL: func.func @a_bytes
// CHECK-DAG: %[[FLIP:.*]] = arith.constant -128 : i8
// CHECK: %[[PRIME:.*]] = linalg.generic
// CHECK: arith.xori %{{.*}}, %[[FLIP]] : i8
// CHECK: %[[PADDED:.*]] = tensor.pad %[[PRIME]] low[0, 0, 0] high[0, 24, 31]
// CHECK: %[[SUMS:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}}ins(%[[PRIME]] : tensor<1x40x33xi8>) outs(%{{.*}} : tensor<1x40xi32>)
// CHECK: arith.extui
// CHECK: return %[[PADDED]], %[[SUMS]] : tensor<1x64x64xi8>, tensor<1x40xi32>
func.func @a_bytes(%a: tensor<1x40x33xi8>) -> (tensor<1x64x64xi8>, tensor<1x40xi32>) {
  %p, %s = qkernel.pack_a bytes %a {k_step = 64 : i64, row_sums, row_multiple = 32 : i64} : tensor<1x40x33xi8> -> tensor<1x64x64xi8>, tensor<1x40xi32>
  return %p, %s : tensor<1x64x64xi8>, tensor<1x40xi32>
}

// -----

// A ui8 a for an s8 operand (signed_a, SDOT): a' = a - 128, the sign bit
// flipped; a ui8 a for a u8 operand with K a multiple of k_step is read in
// place.
// CHECK-LABEL: func.func @a_signed
// CHECK: arith.xori
// CHECK-LABEL: func.func @a_in_place
// CHECK-SAME: (%[[A:.*]]: tensor<1x4x32xi8>)
// CHECK-NOT: linalg.generic
// CHECK: return %[[A]] : tensor<1x4x32xi8>
func.func @a_signed(%a: tensor<1x4x32xi8>) -> tensor<1x4x32xi8> {
  %p = qkernel.pack_a bytes %a {a_unsigned, signed_a, k_step = 4 : i64} : tensor<1x4x32xi8> -> tensor<1x4x32xi8>
  return %p : tensor<1x4x32xi8>
}
func.func @a_in_place(%a: tensor<1x4x32xi8>) -> tensor<1x4x32xi8> {
  %p = qkernel.pack_a bytes %a {a_unsigned, k_step = 4 : i64} : tensor<1x4x32xi8> -> tensor<1x4x32xi8>
  return %p : tensor<1x4x32xi8>
}
