// RUN: quant-opt %s --qops-expand-strided-copies --split-input-file | FileCheck %s
// RUN: quant-opt %s --qops-expand-strided-copies=parallel=true --split-input-file | FileCheck %s --check-prefix=PAR

// Into the interior of a padded buffer (rows of 264, copy 256): loops over
// the outer dims, each row copied as four 64-byte vectors. The outer loops
// are marked not to be unrolled (llvm.loop.unroll.disable once lowered);
// the row's loop of four vectors is not.
// CHECK: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[ROLLED:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: func.func @into_padded
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %c256 step %c64
// CHECK: %[[ROW:.*]] = vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}, %[[J]]], %{{.*}} {in_bounds = [true]} : memref<16x256x256xi8>, vector<64xi8>
// CHECK: vector.transfer_write %[[ROW]], %{{.*}}[%{{.*}}, %{{.*}}, %[[J]]] {in_bounds = [true]} : vector<64xi8>, memref<16x256x256xi8, strided<[67584, 256, 1]>>
// CHECK-NEXT: }{{$}}
// CHECK-NEXT: } {loop_annotation = #[[ROLLED]]}
// CHECK-NEXT: } {loop_annotation = #[[ROLLED]]}
// CHECK-NOT: memref.copy
// CHECK-NOT: linalg.copy
// With parallel, the outermost loop is distributed over the threads.
// PAR-LABEL: func.func @into_padded
// PAR: scf.forall (%{{.*}}) in (%{{.*}})
// PAR: scf.for
// PAR: vector.transfer_read
func.func @into_padded(%src: memref<16x256x256xi8>, %dst: memref<16x264x256xi8>) {
  %view = memref.subview %dst[0, 0, 0] [16, 256, 256] [1, 1, 1] : memref<16x264x256xi8> to memref<16x256x256xi8, strided<[67584, 256, 1]>>
  memref.copy %src, %view : memref<16x256x256xi8> to memref<16x256x256xi8, strided<[67584, 256, 1]>>
  return
}

// -----

// Contiguous on both sides: one memcpy, left alone.
// CHECK-LABEL: func.func @contiguous
// CHECK: memref.copy
// CHECK-NOT: linalg.copy
func.func @contiguous(%src: memref<4x8xf32>, %dst: memref<4x8xf32>) {
  memref.copy %src, %dst : memref<4x8xf32> to memref<4x8xf32>
  return
}

// -----

// Rank 0 and dynamic shapes stay memref.copy too when contiguous; a dynamic
// strided source with rows of 4 f32 becomes loops over the rows (to the
// run-time size) copying each row as one masked-free vector<4xf32>. Rows
// of 16 bytes: the loop over them is not marked (LLVM may unroll it).
// CHECK-LABEL: func.func @scalar_and_dynamic
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<f32> to memref<f32>
// CHECK: %[[N:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?x4xf32, strided<[8, 1]>>
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]]
// CHECK: vector.transfer_read {{.*}} {in_bounds = [true]} : memref<?x4xf32, strided<[8, 1]>>, vector<4xf32>
// CHECK-NOT: {loop_annotation =
func.func @scalar_and_dynamic(%s: memref<f32>, %t: memref<f32>, %src: memref<?x8xf32>, %dst: memref<?x4xf32>) {
  memref.copy %s, %t : memref<f32> to memref<f32>
  %c0 = arith.constant 0 : index
  %n = memref.dim %src, %c0 : memref<?x8xf32>
  %view = memref.subview %src[0, 0] [%n, 4] [1, 1] : memref<?x8xf32> to memref<?x4xf32, strided<[8, 1]>>
  memref.copy %view, %dst : memref<?x4xf32, strided<[8, 1]>> to memref<?x4xf32>
  return
}

// -----

// Rows of 100 bytes: 64 bytes at a time, the second vector masked (not in
// bounds: no in_bounds attribute).
// CHECK-LABEL: func.func @partial_row
// CHECK: vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{[a-z0-9_]*}} : memref<3x100xi8, strided<[128, 1]>>, vector<64xi8>
func.func @partial_row(%src: memref<3x128xi8>, %dst: memref<3x100xi8>) {
  %view = memref.subview %src[0, 0] [3, 100] [1, 1] : memref<3x128xi8> to memref<3x100xi8, strided<[128, 1]>>
  memref.copy %view, %dst : memref<3x100xi8, strided<[128, 1]>> to memref<3x100xi8>
  return
}

// -----

// A column slice (innermost stride 4): linalg.copy loops.
// CHECK-LABEL: func.func @strided_columns
// CHECK: linalg.copy ins(%{{.*}} : memref<4x8xf32, strided<[32, 4]>>) outs(%{{.*}} : memref<4x8xf32>)
func.func @strided_columns(%src: memref<4x32xf32>, %dst: memref<4x8xf32>) {
  %view = memref.subview %src[0, 0] [4, 8] [1, 4] : memref<4x32xf32> to memref<4x8xf32, strided<[32, 4]>>
  memref.copy %view, %dst : memref<4x8xf32, strided<[32, 4]>> to memref<4x8xf32>
  return
}

// -----

// NHWC -> NCHW of bytes (perm [0, 3, 1, 2]: the groups (H, W) and (C)
// swap): collapsed to [N, H W, C] -> [N, C, H W], 16 x 16 blocks of 16-byte
// rows, transposed by four rounds of interleaving shuffles. All three loops
// are marked not to be unrolled: the block's body is large already.
// CHECK: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[ROLLED:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: func.func @nhwc_to_nchw
// CHECK-DAG: %[[SRC:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0], [1, 2], [3]] : memref<2x4x8x32xi8> into memref<2x32x32xi8>
// CHECK-DAG: %[[DST:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : memref<2x32x4x8xi8> into memref<2x32x32xi8>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK-COUNT-16: vector.transfer_read %[[SRC]]{{.*}} : memref<2x32x32xi8>, vector<16xi8>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23] : vector<16xi8>, vector<16xi8>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31] : vector<16xi8>, vector<16xi8>
// CHECK-COUNT-16: vector.transfer_write %{{.*}}, %[[DST]]
// CHECK-NEXT: } {loop_annotation = #[[ROLLED]]}
// CHECK-NEXT: } {loop_annotation = #[[ROLLED]]}
// CHECK-NEXT: } {loop_annotation = #[[ROLLED]]}
// CHECK-NOT: linalg.transpose
// PAR-LABEL: func.func @nhwc_to_nchw
// PAR: scf.forall (%{{.*}}) in (%{{.*}})
// PAR: scf.for
// PAR: vector.shuffle
func.func @nhwc_to_nchw(%src: memref<2x4x8x32xi8>, %dst: memref<2x32x4x8xi8>) {
  linalg.transpose ins(%src : memref<2x4x8x32xi8>) outs(%dst : memref<2x32x4x8xi8>) permutation = [0, 3, 1, 2]
  return
}

// -----

// i32 in 8 x 8 blocks (three rounds); a size that 8 does not divide stays
// linalg.transpose.
// CHECK-LABEL: func.func @i32_blocks
// CHECK-COUNT-8: vector.transfer_read {{.*}} : memref<16x24xi32>, vector<8xi32>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 8, 1, 9, 2, 10, 3, 11] : vector<8xi32>, vector<8xi32>
// CHECK: linalg.transpose ins(%{{.*}} : memref<5x8xi32>)
func.func @i32_blocks(%src: memref<16x24xi32>, %dst: memref<24x16xi32>, %odd: memref<5x8xi32>, %oddt: memref<8x5xi32>) {
  linalg.transpose ins(%src : memref<16x24xi32>) outs(%dst : memref<24x16xi32>) permutation = [1, 0]
  linalg.transpose ins(%odd : memref<5x8xi32>) outs(%oddt : memref<8x5xi32>) permutation = [1, 0]
  return
}

// -----

// Inside a thread's part of a parallel loop: not distributed again; a unit
// leading dim is skipped for the column blocks of the transpose (16 of
// src [32, 16]), the outer loop, each writing whole rows of dst [16, 32]
// (threads splitting the row blocks would write the same dst lines).
// PAR-LABEL: func.func @already_parallel
// PAR: scf.forall
// PAR-NOT: scf.forall
// PAR: vector.transfer_read
// PAR-LABEL: func.func @unit_batch_transpose
// PAR: scf.for
// PAR: scf.forall (%[[C0:.*]]) = (0) to (%c16{{.*}}) step (%c16{{.*}})
// PAR: scf.for %[[R0:.*]] = %{{.*}} to %c32 step %c16
// PAR: vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}, %[[C0]]]
func.func @already_parallel(%src: memref<4x8x64xi8>, %dst: memref<4x8x128xi8>) {
  scf.forall (%i) in (4) {
    %s = memref.subview %src[%i, 0, 0] [1, 8, 64] [1, 1, 1] : memref<4x8x64xi8> to memref<1x8x64xi8, strided<[512, 64, 1], offset: ?>>
    %d = memref.subview %dst[%i, 0, 0] [1, 8, 64] [1, 1, 1] : memref<4x8x128xi8> to memref<1x8x64xi8, strided<[1024, 128, 1], offset: ?>>
    memref.copy %s, %d : memref<1x8x64xi8, strided<[512, 64, 1], offset: ?>> to memref<1x8x64xi8, strided<[1024, 128, 1], offset: ?>>
  }
  return
}

func.func @unit_batch_transpose(%src: memref<1x32x16xi8>, %dst: memref<1x16x32xi8>) {
  linalg.transpose ins(%src : memref<1x32x16xi8>) outs(%dst : memref<1x16x32xi8>) permutation = [0, 2, 1]
  return
}

// -----

// i1 rows (a byte per element in memory): linalg.copy loops, not vectors.
// CHECK-LABEL: func.func @bool_rows
// CHECK: linalg.copy ins(%{{.*}} : memref<3x4xi1, strided<[8, 1]>>)
func.func @bool_rows(%src: memref<3x8xi1>, %dst: memref<3x4xi1>) {
  %view = memref.subview %src[0, 0] [3, 4] [1, 1] : memref<3x8xi1> to memref<3x4xi1, strided<[8, 1]>>
  memref.copy %view, %dst : memref<3x4xi1, strided<[8, 1]>> to memref<3x4xi1>
  return
}
