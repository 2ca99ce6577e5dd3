// RUN: quant-opt %s --convert-qops-to-linalg=int8-strategy=amx --qops-lower-packing --canonicalize --split-input-file | FileCheck %s
// RUN: quant-opt %s --convert-qops-to-linalg="parallel int8-strategy=amx" --qops-lower-packing --qops-distribute --canonicalize --split-input-file | FileCheck %s --check-prefix=PAR
// RUN: quant-opt %s --convert-qops-to-linalg=int8-strategy=amx --qops-lower-packing --canonicalize --qops-hoist-constant-expressions=min-bytes=64 --split-input-file | FileCheck %s --check-prefix=HOIST

// The amx strategy (QLinearMatMulKernel.cpp, QLinearMatMulAmx.h): the quad
// operands of vnni (si8 a flipped to a' = a + 128, ui8 b to b' = b - 128,
// row sums, column term) with K padded to a multiple of 64 (100 -> 128);
// b' packed as k-quads in 32-column panels ([1, 2, 32, 32]: 2 panels, 32
// quads). Both are read through buffers by the tile loads, a's 40 rows in
// place; since M = 40 is not a multiple of 32, the last row tile reads a
// copy of rows 32-39 padded with zero rows to 32 (the tail). Each 32 x 32
// register tile is 2 x 2 TDPBUSD tiles (a zero-extended, b sign-extended)
// over 64-k steps, stored straight to the block's 32 x 32 epilogue buffer,
// whose rows the epilogue's loop loads (no copy of the sums in between).
// The last row tile (rows 32-63, M = 40) loads the tail from its row
// m0 - 32 and takes rows past M as row 39 in the epilogue (arith.minui),
// its buffer row too.
// CHECK-LABEL: func.func @partial_tiles
// CHECK: %[[A:.*]] = tensor.pad %{{.*}} low[0, 0, 0] high[0, 0, 28]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: %[[B:.*]]:2 = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "parallel"]{{.*}} outs(%{{.*}}, %{{.*}} : tensor<1x2x32x32xi32>, tensor<1x2x32xi32>)
// CHECK: %[[ABUF:.*]] = bufferization.to_buffer %[[A]] read_only : tensor<1x40x128xi8> to memref<1x40x128xi8, strided<[?, ?, 1], offset: ?>>
// CHECK: %[[BBUF:.*]] = bufferization.to_buffer %[[B]]#0 read_only : tensor<1x2x32x32xi32> to memref<1x2x32x32xi32, strided<[?, ?, ?, 1], offset: ?>>
// CHECK: %[[TAILROWS:.*]] = tensor.extract_slice %[[A]][0, 32, 0] [1, 8, 128] [1, 1, 1]
// CHECK: %[[TAIL:.*]] = tensor.pad %[[TAILROWS]] low[0, 0, 0] high[0, 24, 0]
// CHECK: %[[TAILBUF:.*]] = bufferization.to_buffer %[[TAIL]] read_only : tensor<1x32x128xi8>
// CHECK: %[[BUF:.*]] = memref.alloc() {alignment = 64 : i64} : memref<32x32xi32>
// CHECK: scf.if
// CHECK-COUNT-4: amx.tile_zero : !amx.tile<16x16xi32>
// CHECK: scf.for {{.*}} -> (!amx.tile<16x16xi32>, !amx.tile<16x16xi32>, !amx.tile<16x16xi32>, !amx.tile<16x16xi32>)
// Each operand tile is loaded just before its first product: A0, B0,
// A0 B0, B1, A0 B1, A1, A1 B0, A1 B1.
// CHECK: %[[A0:.*]] = amx.tile_load %[[ABUF]]
// CHECK-NEXT: %[[B0:.*]] = amx.tile_load %[[BBUF]]
// CHECK-NEXT: amx.tile_muli %[[A0]] zext, %[[B0]], %{{.*}} : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
// CHECK-NEXT: %[[B1:.*]] = amx.tile_load %[[BBUF]]
// CHECK-NEXT: amx.tile_muli %[[A0]] zext, %[[B1]]
// CHECK: %[[A1:.*]] = amx.tile_load %[[ABUF]]
// CHECK-NEXT: amx.tile_muli %[[A1]] zext, %[[B0]]
// CHECK-NEXT: amx.tile_muli %[[A1]] zext, %[[B1]]
// CHECK: scf.yield
// CHECK-COUNT-4: amx.tile_store %[[BUF]]
// CHECK-NOT: vector.store
// CHECK: scf.for %[[R:[a-z0-9_]+]] = %c0 to %c32 step %c1
// CHECK: vector.load %[[BUF]][%[[R]], %c0] : memref<32x32xi32>, vector<16xi32>
// CHECK: arith.sitofp %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK: vector.load %[[BUF]][%[[R]], %c16]
// CHECK: } else {
// CHECK: %[[TAILROW:.*]] = arith.subi %{{.*}}, %c32 : index
// CHECK: amx.tile_load %[[TAILBUF]][%c0, %[[TAILROW]], %{{.*}}]
// CHECK: amx.tile_muli
// CHECK: %[[ROW:.*]] = arith.minui %{{.*}}, %c39 : index
// CHECK: %[[LOCAL:.*]] = arith.subi %[[ROW]], %{{.*}} : index
// CHECK: vector.load %[[BUF]][%[[LOCAL]], %c0]
// CHECK-NOT: qops.qlinear_matmul
// CHECK-NOT: qkernel.dot_u8s8_quads
func.func @partial_tiles(%a: tensor<40x100xsi8>, %b: tensor<100x45xui8>) -> tensor<40x45xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<-3> : tensor<si8>
  %zb = arith.constant dense<130> : tensor<ui8>
  %zy = arith.constant dense<100> : tensor<ui8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<40x100xsi8>, tensor<f32>, tensor<si8>) b(%b, %s, %zb : tensor<100x45xui8>, tensor<f32>, tensor<ui8>) y(%s, %zy : tensor<f32>, tensor<ui8>) -> tensor<40x45xui8>
  return %y : tensor<40x45xui8>
}

// -----

// Whole tiles: a ui8 a with K = 128 (a multiple of 64) and M = 64 (a
// multiple of 32) is read in place, and symmetric si8 weights (zb = 0) need
// no row sums; no tile reaches past M, so there is no clamped copy.
// CHECK-LABEL: func.func @whole_tiles_in_place
// CHECK-NOT: tensor.pad
// CHECK-NOT: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: bufferization.to_buffer %{{.*}} read_only : tensor<1x64x128xi8>
// CHECK-NOT: scf.if
// CHECK-NOT: arith.minui
// CHECK: amx.tile_muli
func.func @whole_tiles_in_place(%a: tensor<64x128xui8>, %b: tensor<128x64xsi8>) -> tensor<64x64xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<0> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<64x128xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<128x64xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<64x64xui8>
  return %y : tensor<64x64xui8>
}

// -----

// An a of fewer than 32 rows (static) takes the vnni kernel, whose tile is as
// short as a: no AMX tiles.
// CHECK-LABEL: func.func @short_a_takes_vnni
// CHECK-NOT: amx.
// CHECK: qkernel.dot_u8s8_quads %{{.*}} : vector<16xi32>
// CHECK-NOT: amx.
func.func @short_a_takes_vnni(%a: tensor<8x64xui8>, %b: tensor<64x64xsi8>) -> tensor<8x64xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<1> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<8x64xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<64x64xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<8x64xui8>
  return %y : tensor<8x64xui8>
}

// -----

// A constant b is packed by the same IR in the same layout (the pipeline's
// qops-hoist-constant-expressions runs it once): K = 70 padded to 128 (32
// quads), N = 40 to 2 panels of 32; the column term K zb' - colsum padded
// to 64 columns.
// CHECK-LABEL: func.func @constant_b
// CHECK-DAG: } -> (tensor<1x2x32x32xi32>, tensor<1x2x32xi32>)
// CHECK-DAG: } : tensor<1x40xi32> to tensor<1x64xi32>
// CHECK: amx.tile_muli
// qops-hoist-constant-expressions computes the packed b once into a
// global, and the tile loads read that global's value through to_buffer
// (not the packing again at every call).
// HOIST-LABEL: func.func @constant_b
// HOIST: {qops.hoisted_compute}
// HOIST: {qops.hoisted_wait}
// HOIST: %[[G:.*]] = memref.get_global @__qops_hoisted_constant_b : memref<1x2x32x32xi32>
// HOIST: %[[T:.*]] = bufferization.to_tensor %[[G]]
// HOIST: %[[BBUF:.*]] = bufferization.to_buffer %[[T]] read_only
// HOIST: amx.tile_load %[[BBUF]]
func.func @constant_b(%a: tensor<32x70xui8>) -> tensor<32x40xui8> {
  %b = arith.constant dense<1> : tensor<70x40xsi8>
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<-2> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<32x70xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<70x40xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<32x40xui8>
  return %y : tensor<32x40xui8>
}

// -----

// A dynamic row count: a's rows are padded to a multiple of 32 at run time.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK: tensor.pad %{{.*}} low[0, 0, 0] high[0, %{{.*}}, 0]
// CHECK: bufferization.to_buffer %{{.*}} read_only : tensor<1x?x64xi8>
// CHECK: amx.tile_muli
func.func @dynamic_rows(%a: tensor<?x64xui8>, %b: tensor<64x32xsi8>) -> tensor<?x32xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<1> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<?x64xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<64x32xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<?x32xui8>
  return %y : tensor<?x32xui8>
}

// -----

// With threads: one scf.forall over batches x 128-row blocks x column
// chunks (columns outside the rows when N >= M, as for the other
// strategies; 2 x 2 blocks would make 8 tasks of 256 columns, so the chunks
// narrow to 64 columns, two panels: 2 x 5 x 2 tasks; canonicalization
// drops the unit dims: 40 columns are one chunk, whose 3 row blocks of 288
// rows, fewer than a quarter of 64 tasks, narrow to 32-row tiles); the
// epilogue buffer the tiles are stored to is per block, inside the forall.
// PAR-LABEL: func.func @threads
// PAR: scf.forall ({{.*}}) = (0, 0, 0) to (2, 320, 160) step (1, 64, 128)
// PAR: memref.alloc() {alignment = 64 : i64} : memref<32x32xi32>
// PAR: amx.tile_muli
// PAR: tensor.parallel_insert_slice
// PAR-LABEL: func.func @threads_rows_outside
// PAR: scf.forall ({{.*}}) = (0) to (288) step (32)
// On one thread, the block's columns (320 padded) in groups of 256 (8
// panels), in each group the 32-row tiles outside the group's panels: a
// tile's rows of a stay in L1 while the panels pass by.
// CHECK-LABEL: func.func @threads
// CHECK: scf.for %[[G:.*]] = %c0 to %c320 step %c256
// CHECK: %[[GE:.*]] = arith.addi %[[G]], %c256
// CHECK: %[[GEND:.*]] = arith.minui %[[GE]], %c320
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c32
// CHECK: scf.for %{{.*}} = %[[G]] to %[[GEND]] step %c32
// CHECK: amx.tile_zero
func.func @threads(%a: tensor<2x150x64xui8>, %b: tensor<2x64x300xsi8>) -> tensor<2x150x300xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<-1> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<2x150x64xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<2x64x300xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<2x150x300xui8>
  return %y : tensor<2x150x300xui8>
}
func.func @threads_rows_outside(%a: tensor<260x64xui8>, %b: tensor<64x40xsi8>) -> tensor<260x40xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<-1> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<260x64xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<64x40xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<260x40xui8>
  return %y : tensor<260x40xui8>
}
