// RUN: quant-opt %s --qops-vectorize-elementwise --split-input-file | FileCheck %s
// RUN: quant-opt %s --qops-vectorize-elementwise=vector-width=8 --split-input-file | FileCheck %s --check-prefix=W8
// RUN: quant-opt %s --qops-vectorize-elementwise=parallel --split-input-file | FileCheck %s --check-prefix=PAR
// RUN: quant-opt %s --qops-vectorize-elementwise=result-tile-bytes=64 --split-input-file | FileCheck %s --check-prefix=R64

// Per-axis scale along the contiguous dim: one contiguous vector read of the
// scale per tile, no gather; 4096 = 128 x 32, so nothing is peeled.
// CHECK-LABEL: func.func @per_axis
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}}
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %[[C32:.*]] iter_args
// CHECK-DAG: %[[XS:.*]] = tensor.extract_slice %{{.*}}[%[[I]], %[[J]]] [1, 32] [1, 1] : tensor<16x4096xf32> to tensor<1x32xf32>
// CHECK-DAG: %[[SS:.*]] = tensor.extract_slice %{{.*}}[%[[J]]] [32] [1] : tensor<4096xf32> to tensor<32xf32>
// CHECK-DAG: vector.transfer_read %[[XS]]{{.*}} : tensor<1x32xf32>, vector<32xf32>
// CHECK-DAG: vector.transfer_read %[[SS]]{{.*}} : tensor<32xf32>, vector<32xf32>
// CHECK-NOT: vector.gather
// CHECK: arith.divf %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK: vector.transfer_write %{{.*}} : vector<32xi8>
// CHECK-NOT: linalg.generic
// W8-LABEL: func.func @per_axis
// W8: arith.divf %{{.*}}, %{{.*}} : vector<8xf32>
// With result-tile-bytes=64 the i8 result gets 64-element tiles (one
// 64-byte store each).
// R64-LABEL: func.func @per_axis
// R64: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// R64: vector.transfer_read %{{.*}} : tensor<64xf32>, vector<64xf32>
// R64: arith.divf %{{.*}}, %{{.*}} : vector<64xf32>
// R64: vector.transfer_write %{{.*}} : vector<64xi8>
#id = affine_map<(d0, d1) -> (d0, d1)>
#axis1 = affine_map<(d0, d1) -> (d1)>
func.func @per_axis(%x: tensor<16x4096xf32>, %s: tensor<4096xf32>) -> tensor<16x4096xi8> {
  %e = tensor.empty() : tensor<16x4096xi8>
  %y = linalg.generic {indexing_maps = [#id, #axis1, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<16x4096xf32>, tensor<4096xf32>) outs(%e : tensor<16x4096xi8>) {
  ^bb0(%xv: f32, %sv: f32, %o: i8):
    %q = arith.divf %xv, %sv : f32
    %i = arith.fptosi %q : f32 to i8
    linalg.yield %i : i8
  } -> tensor<16x4096xi8>
  return %y : tensor<16x4096xi8>
}

// -----

// A dynamic contiguous dim: full tiles are vectorized, the last partial tile
// is peeled off and stays a scalar linalg.generic.
// CHECK-LABEL: func.func @dynamic_peeled
// CHECK: scf.for
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK: scf.for
// CHECK: linalg.generic
// CHECK-SAME: tensor<1x?xf32>
#id1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @dynamic_peeled(%x: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<4x?xf32>
  %e = tensor.empty(%n) : tensor<4x?xf32>
  %y = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x?xf32>) outs(%e : tensor<4x?xf32>) {
  ^bb0(%xv: f32, %o: f32):
    %a = arith.addf %xv, %xv : f32
    linalg.yield %a : f32
  } -> tensor<4x?xf32>
  return %y : tensor<4x?xf32>
}

// -----

// An outer reduction with a parallel contiguous dim of at most 64
// (DynamicQuantizeLinear's lane-wise min) takes the lanes whole and
// accumulates in a loop-carried vector: the accumulator is read before the
// row loop and written after it, never inside.
// CHECK-LABEL: func.func @outer_reduction
// CHECK-SAME: (%[[X:.*]]: tensor<128x64xf32>, %[[INIT:.*]]: tensor<64xf32>)
// CHECK: %[[ACC0:.*]] = vector.transfer_read %[[INIT]]{{.*}} : tensor<64xf32>, vector<64xf32>
// CHECK: %[[ACC:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[ACC0]]) -> (vector<64xf32>)
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[X]]
// CHECK: %[[XV:.*]] = vector.transfer_read %[[ROW]]{{.*}} : tensor<1x64xf32>, vector<64xf32>
// CHECK: %[[M:.*]] = arith.minimumf %[[A]], %[[XV]] : vector<64xf32>
// CHECK-NOT: vector.transfer_write
// CHECK: scf.yield %[[M]] : vector<64xf32>
// CHECK: %[[OUT:.*]] = vector.transfer_write %[[ACC]], %[[INIT]]
// CHECK: return %[[OUT]]
// CHECK-NOT: linalg.generic
#grid = affine_map<(d0, d1) -> (d0, d1)>
#lane = affine_map<(d0, d1) -> (d1)>
func.func @outer_reduction(%x: tensor<128x64xf32>, %init: tensor<64xf32>) -> tensor<64xf32> {
  %y = linalg.generic {indexing_maps = [#grid, #lane], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<128x64xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%xv: f32, %acc: f32):
    %m = arith.minimumf %acc, %xv : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  return %y : tensor<64xf32>
}

// -----

// Wider than 64 lanes, the contiguous dim is tiled by the vector width: the
// accumulator subset changes with the lane tile, so it stays in the tensor
// (read and written inside the loops).
// CHECK-LABEL: func.func @outer_reduction_wide
// CHECK: scf.for
// CHECK: scf.for {{.*}} step %c32
// CHECK: vector.transfer_read {{.*}} : tensor<1x32xf32>, vector<32xf32>
// CHECK: vector.transfer_read {{.*}} : tensor<32xf32>, vector<32xf32>
// CHECK: arith.minimumf {{.*}} : vector<32xf32>
// CHECK: vector.transfer_write {{.*}} : vector<32xf32>, tensor<32xf32>
// CHECK-NOT: linalg.generic
#grid2 = affine_map<(d0, d1) -> (d0, d1)>
#lane2 = affine_map<(d0, d1) -> (d1)>
func.func @outer_reduction_wide(%x: tensor<128x96xf32>, %init: tensor<96xf32>) -> tensor<96xf32> {
  %y = linalg.generic {indexing_maps = [#grid2, #lane2], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<128x96xf32>) outs(%init : tensor<96xf32>) {
  ^bb0(%xv: f32, %acc: f32):
    %m = arith.minimumf %acc, %xv : f32
    linalg.yield %m : f32
  } -> tensor<96xf32>
  return %y : tensor<96xf32>
}

// -----

// A short static contiguous dim is taken whole.
// CHECK-LABEL: func.func @short_inner
// CHECK: arith.negf %{{.*}} : vector<3xf32>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @short_inner(%x: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %e = tensor.empty() : tensor<5x3xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<5x3xf32>) outs(%e : tensor<5x3xf32>) {
  ^bb0(%xv: f32, %o: f32):
    %n = arith.negf %xv : f32
    linalg.yield %n : f32
  } -> tensor<5x3xf32>
  return %y : tensor<5x3xf32>
}

// -----

// Maps that are not projected permutations (a blocked scale whose axis the
// block size does not divide) are left alone.
// CHECK-LABEL: func.func @floordiv_untouched
// CHECK: linalg.generic
// CHECK-NOT: vector.
#id3 = affine_map<(d0, d1) -> (d0, d1)>
#blk = affine_map<(d0, d1) -> (d0, d1 floordiv 32)>
func.func @floordiv_untouched(%x: tensor<2x70xf32>, %s: tensor<2x3xf32>) -> tensor<2x70xf32> {
  %e = tensor.empty() : tensor<2x70xf32>
  %y = linalg.generic {indexing_maps = [#id3, #blk, #id3], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<2x70xf32>, tensor<2x3xf32>) outs(%e : tensor<2x70xf32>) {
  ^bb0(%xv: f32, %sv: f32, %o: f32):
    %m = arith.mulf %xv, %sv : f32
    linalg.yield %m : f32
  } -> tensor<2x70xf32>
  return %y : tensor<2x70xf32>
}

// -----

// With `parallel`, the outermost loop is distributed with scf.forall (one
// row per iteration) before the vector tiling inside it.
// CHECK-LABEL: func.func @parallel_rows
// PAR-LABEL: func.func @parallel_rows
// PAR: scf.forall (%[[ROW:.*]]) in (16) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<16x4096xf32>)
// PAR: scf.for
// PAR: arith.addf %{{.*}}, %{{.*}} : vector<32xf32>
// PAR: tensor.parallel_insert_slice
// An f32 result already gets 128 bytes from 32 elements: result-tile-bytes
// 64 leaves it at vector-width.
// R64-LABEL: func.func @parallel_rows
// R64: arith.addf %{{.*}}, %{{.*}} : vector<32xf32>
#idp = affine_map<(d0, d1) -> (d0, d1)>
func.func @parallel_rows(%x: tensor<16x4096xf32>) -> tensor<16x4096xf32> {
  %e = tensor.empty() : tensor<16x4096xf32>
  %y = linalg.generic {indexing_maps = [#idp, #idp], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x4096xf32>) outs(%e : tensor<16x4096xf32>) {
  ^bb0(%xv: f32, %o: f32):
    %a = arith.addf %xv, %xv : f32
    linalg.yield %a : f32
  } -> tensor<16x4096xf32>
  return %y : tensor<16x4096xf32>
}

// -----

// With `parallel`, a statically unit outer loop (a batch of 1) is not the
// one distributed: the next parallel loop is, one index per iteration, with
// the unit loop whole inside.
// CHECK-LABEL: func.func @parallel_skips_unit_batch
// PAR-LABEL: func.func @parallel_skips_unit_batch
// PAR: scf.forall (%[[PANEL:.*]]) in (8) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<1x8x4096xf32>)
// PAR: tensor.extract_slice %{{.*}}[0, %[[PANEL]], 0] [1, 1, 4096] [1, 1, 1]
// PAR: arith.addf %{{.*}}, %{{.*}} : vector<32xf32>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @parallel_skips_unit_batch(%x: tensor<1x8x4096xf32>) -> tensor<1x8x4096xf32> {
  %e = tensor.empty() : tensor<1x8x4096xf32>
  %y = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x8x4096xf32>) outs(%e : tensor<1x8x4096xf32>) {
  ^bb0(%xv: f32, %o: f32):
    %a = arith.addf %xv, %xv : f32
    linalg.yield %a : f32
  } -> tensor<1x8x4096xf32>
  return %y : tensor<1x8x4096xf32>
}

// -----

// With `parallel`, an op inside an scf.forall (a slice nest qops-distribute
// gave to threads: here one output row of a convolution's patches per
// iteration) is one thread's part already: it is vectorized, not split over
// threads again (no nested scf.forall, no nested parallel region).
// CHECK-LABEL: func.func @parallel_inside_forall
// PAR-LABEL: func.func @parallel_inside_forall
// PAR: scf.forall (%[[ROW:.*]]) in (4)
// PAR-NOT: scf.forall (
// PAR: vector.transfer_read {{.*}} vector<32xi8>
// PAR-NOT: scf.forall (
// PAR: tensor.parallel_insert_slice
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @parallel_inside_forall(%x: tensor<1x4x8x64xi8>) -> tensor<1x4x8x64xi8> {
  %e = tensor.empty() : tensor<1x4x8x64xi8>
  %y = scf.forall (%r) in (4) shared_outs(%o = %e) -> (tensor<1x4x8x64xi8>) {
    %src = tensor.extract_slice %x[0, %r, 0, 0] [1, 1, 8, 64] [1, 1, 1, 1] : tensor<1x4x8x64xi8> to tensor<1x1x8x64xi8>
    %dst = tensor.extract_slice %o[0, %r, 0, 0] [1, 1, 8, 64] [1, 1, 1, 1] : tensor<1x4x8x64xi8> to tensor<1x1x8x64xi8>
    %c = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%src : tensor<1x1x8x64xi8>) outs(%dst : tensor<1x1x8x64xi8>) {
    ^bb0(%v: i8, %w: i8):
      linalg.yield %v : i8
    } -> tensor<1x1x8x64xi8>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %c into %o[0, %r, 0, 0] [1, 1, 8, 64] [1, 1, 1, 1] : tensor<1x1x8x64xi8> into tensor<1x4x8x64xi8>
    }
  }
  return %y : tensor<1x4x8x64xi8>
}

// -----

// With `parallel`, the innermost loop of a multi-dimensional op is not
// split over threads (a gemv (m = 1, k, n): one thread streams whole rows
// of b): nothing is distributed, the op is only vectorized.
// CHECK-LABEL: func.func @parallel_keeps_gemv_rows_whole
// PAR-LABEL: func.func @parallel_keeps_gemv_rows_whole
// PAR-NOT: scf.forall
// PAR: arith.muli %{{.*}}, %{{.*}} : vector<32xi32>
// PAR-NOT: scf.forall
// PAR: return
#a_map = affine_map<(m, k, n) -> (m, k)>
#b_map = affine_map<(m, k, n) -> (k, n)>
#y_map = affine_map<(m, k, n) -> (m, n)>
func.func @parallel_keeps_gemv_rows_whole(%a: tensor<1x64xi32>, %b: tensor<64x4096xi32>, %acc: tensor<1x4096xi32>) -> tensor<1x4096xi32> {
  %y = linalg.generic {indexing_maps = [#a_map, #b_map, #y_map], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : tensor<1x64xi32>, tensor<64x4096xi32>) outs(%acc : tensor<1x4096xi32>) {
  ^bb0(%av: i32, %bv: i32, %o: i32):
    %p = arith.muli %av, %bv : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  } -> tensor<1x4096xi32>
  return %y : tensor<1x4096xi32>
}

// -----

// result-tile-bytes widens the tile for the narrowest result: an i16
// result needs 32 elements for 64 bytes (vector-width already), an i8
// result 64; the i32 input follows the tile.
// CHECK-LABEL: func.func @result_tile_bytes_narrowest
// CHECK: arith.trunci %{{.*}} : vector<32xi32> to vector<32xi8>
// R64-LABEL: func.func @result_tile_bytes_narrowest
// R64: arith.trunci %{{.*}} : vector<64xi32> to vector<64xi16>
// R64: arith.trunci %{{.*}} : vector<64xi32> to vector<64xi8>
// R64: vector.transfer_write %{{.*}} : vector<64xi16>
// R64: vector.transfer_write %{{.*}} : vector<64xi8>
#idn = affine_map<(d0, d1) -> (d0, d1)>
func.func @result_tile_bytes_narrowest(%x: tensor<8x256xi32>) -> (tensor<8x256xi16>, tensor<8x256xi8>) {
  %e16 = tensor.empty() : tensor<8x256xi16>
  %e8 = tensor.empty() : tensor<8x256xi8>
  %y:2 = linalg.generic {indexing_maps = [#idn, #idn, #idn], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x256xi32>) outs(%e16, %e8 : tensor<8x256xi16>, tensor<8x256xi8>) {
  ^bb0(%xv: i32, %o16: i16, %o8: i8):
    %a = arith.trunci %xv : i32 to i16
    %b = arith.trunci %xv : i32 to i8
    linalg.yield %a, %b : i16, i8
  } -> (tensor<8x256xi16>, tensor<8x256xi8>)
  return %y#0, %y#1 : tensor<8x256xi16>, tensor<8x256xi8>
}

// -----

// A static contiguous dim that the tile does not divide (40 = 32 + 8): each
// row is split at 32; the remainder is vectorized whole with 8 lanes
// (instead of staying a scalar loop), in the same row loop as the full
// tiles.
// CHECK-LABEL: func.func @static_remainder
// CHECK: scf.for
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [1, 32] [1, 1] : tensor<1x40xf32> to tensor<1x32xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 32] [1, 8] [1, 1] : tensor<1x40xf32> to tensor<1x8xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK: scf.yield
// CHECK-NOT: linalg.generic
#idr = affine_map<(d0, d1) -> (d0, d1)>
func.func @static_remainder(%x: tensor<4x40xf32>) -> tensor<4x40xf32> {
  %e = tensor.empty() : tensor<4x40xf32>
  %y = linalg.generic {indexing_maps = [#idr, #idr], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x40xf32>) outs(%e : tensor<4x40xf32>) {
  ^bb0(%xv: f32, %o: f32):
    %a = arith.addf %xv, %xv : f32
    linalg.yield %a : f32
  } -> tensor<4x40xf32>
  return %y : tensor<4x40xf32>
}

// -----

// An op with more than 8 inputs (here 9, as a depthwise convolution's taps)
// keeps vector-width: result-tile-bytes does not widen its i8 result to 64
// lanes.
// CHECK-LABEL: func.func @many_inputs_keep_width
// CHECK: vector.transfer_write %{{.*}} : vector<32xi8>
// R64-LABEL: func.func @many_inputs_keep_width
// R64-NOT: vector<64x
// R64: vector.transfer_write %{{.*}} : vector<32xi8>
#idm = affine_map<(d0, d1) -> (d0, d1)>
func.func @many_inputs_keep_width(%a: tensor<2x128xi8>, %b: tensor<2x128xi8>, %c: tensor<2x128xi8>,
    %d: tensor<2x128xi8>, %e: tensor<2x128xi8>, %f: tensor<2x128xi8>, %g: tensor<2x128xi8>,
    %h: tensor<2x128xi8>, %i: tensor<2x128xi8>) -> tensor<2x128xi8> {
  %init = tensor.empty() : tensor<2x128xi8>
  %y = linalg.generic {indexing_maps = [#idm, #idm, #idm, #idm, #idm, #idm, #idm, #idm, #idm, #idm], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b, %c, %d, %e, %f, %g, %h, %i : tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>)
      outs(%init : tensor<2x128xi8>) {
  ^bb0(%va: i8, %vb: i8, %vc: i8, %vd: i8, %ve: i8, %vf: i8, %vg: i8, %vh: i8, %vi: i8, %o: i8):
    %s1 = arith.addi %va, %vb : i8
    %s2 = arith.addi %s1, %vc : i8
    %s3 = arith.addi %s2, %vd : i8
    %s4 = arith.addi %s3, %ve : i8
    %s5 = arith.addi %s4, %vf : i8
    %s6 = arith.addi %s5, %vg : i8
    %s7 = arith.addi %s6, %vh : i8
    %s8 = arith.addi %s7, %vi : i8
    linalg.yield %s8 : i8
  } -> tensor<2x128xi8>
  return %y : tensor<2x128xi8>
}

// -----

// The quads packing (qkernel.pack_b, QLinearMatMulVnni.cpp): two results,
// the packed lanes (every dim) and the column sums (reduced over the
// quads). Each tile is a panel's 16 columns whole; the sums are a
// loop-carried vector across the quads loop (read before it, written after
// it); with parallel the panels are distributed.
// CHECK-LABEL: func.func @pack_quads
// CHECK: %[[INIT:.*]] = vector.transfer_read %{{.*}} : tensor<1x1x16xi32>, vector<16xi32>
// CHECK: %{{.*}}:2 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[ACC:.*]] = %[[INIT]]) -> (tensor<1x4x8x16xi32>, vector<16xi32>)
// CHECK: arith.ori %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK: arith.addi %[[ACC]], %{{.*}} : vector<16xi32>
// CHECK: vector.transfer_write %{{.*}} : vector<16xi32>, tensor<1x1x1x16xi32>
// CHECK: scf.yield
// CHECK: vector.transfer_write %{{.*}} : vector<16xi32>, tensor<1x1x16xi32>
// PAR-LABEL: func.func @pack_quads
// PAR: scf.forall (%[[PANEL:.*]]) in (4) shared_outs(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<1x4x8x16xi32>, tensor<1x4x16xi32>)
// PAR: scf.for
// PAR: arith.addi %{{.*}}, %{{.*}} : vector<16xi32>
// PAR-COUNT-2: tensor.parallel_insert_slice
#rows = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
#packed = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#sums = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
func.func @pack_quads(%r0: tensor<1x8x4x16xi8>, %r1: tensor<1x8x4x16xi8>) -> (tensor<1x4x8x16xi32>, tensor<1x4x16xi32>) {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %p = tensor.empty() : tensor<1x4x8x16xi32>
  %e = tensor.empty() : tensor<1x4x16xi32>
  %s = linalg.fill ins(%c0 : i32) outs(%e : tensor<1x4x16xi32>) -> tensor<1x4x16xi32>
  %y:2 = linalg.generic {indexing_maps = [#rows, #rows, #packed, #sums], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
      ins(%r0, %r1 : tensor<1x8x4x16xi8>, tensor<1x8x4x16xi8>) outs(%p, %s : tensor<1x4x8x16xi32>, tensor<1x4x16xi32>) {
  ^bb0(%a: i8, %b: i8, %o: i32, %acc: i32):
    %wa = arith.extui %a : i8 to i32
    %wb = arith.extui %b : i8 to i32
    %sh = arith.shli %wb, %c8 : i32
    %lane = arith.ori %wa, %sh : i32
    %sa = arith.extsi %a : i8 to i32
    %sb = arith.extsi %b : i8 to i32
    %sum = arith.addi %sa, %sb : i32
    %next = arith.addi %acc, %sum : i32
    linalg.yield %lane, %next : i32, i32
  } -> (tensor<1x4x8x16xi32>, tensor<1x4x16xi32>)
  return %y#0, %y#1 : tensor<1x4x8x16xi32>, tensor<1x4x16xi32>
}

// -----

// numpy broadcasting of ONNX's binary ops reads a unit dim of an input at
// index 0 (a per-channel bias [1, C, 1, 1] over NCHW; a [1, 1, 1, 1]
// scalar): the input is collapsed to its other dims, so that the map is a
// projected permutation and the op is vectorized (and, with `parallel`,
// distributed) like any other; the bias is broadcast to a vector per row.
// CHECK-LABEL: func.func @broadcast_unit_dims
// CHECK-DAG: %[[BIAS:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3]] : tensor<1x64x1x1xf32> into tensor<1x64xf32>
// CHECK-DAG: %[[SCALE:.*]] = tensor.collapse_shape %{{.*}} [] : tensor<1x1x1x1xf32> into tensor<f32>
// CHECK: scf.for
// CHECK: vector.transfer_read %{{.*}} : tensor<1x1x1x32xf32>, vector<32xf32>
// CHECK: vector.broadcast %{{.*}} : vector<f32> to vector<32xf32>
// CHECK: vector.broadcast %{{.*}} : vector<f32> to vector<32xf32>
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK-NOT: linalg.generic
// PAR-LABEL: func.func @broadcast_unit_dims
// PAR: scf.forall (%[[C:.*]]) in (64)
// PAR: tensor.extract_slice %{{.*}}[0, %[[C]]] [1, 1] [1, 1] : tensor<1x64xf32> to tensor<1x1xf32>
// PAR: arith.addf %{{.*}}, %{{.*}} : vector<32xf32>
#idb = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#one = affine_map<(d0, d1, d2, d3) -> (0, 0, 0, 0)>
func.func @broadcast_unit_dims(%x: tensor<1x64x56x56xf32>, %b: tensor<1x64x1x1xf32>, %s: tensor<1x1x1x1xf32>) -> tensor<1x64x56x56xf32> {
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %y = linalg.generic {indexing_maps = [#idb, #chan, #one, #idb], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %b, %s : tensor<1x64x56x56xf32>, tensor<1x64x1x1xf32>, tensor<1x1x1x1xf32>) outs(%e : tensor<1x64x56x56xf32>) {
  ^bb0(%xv: f32, %bv: f32, %sv: f32, %o: f32):
    %a = arith.addf %xv, %bv : f32
    %m = arith.mulf %a, %sv : f32
    linalg.yield %m : f32
  } -> tensor<1x64x56x56xf32>
  return %y : tensor<1x64x56x56xf32>
}

// -----

// A constant index other than 0, or 0 on a dim that is not a static 1, is
// no broadcast: the op is left alone.
// CHECK-LABEL: func.func @constant_index_untouched
// CHECK-NOT: tensor.collapse_shape
// CHECK: linalg.generic
// CHECK-NOT: vector.
#idc = affine_map<(d0, d1) -> (d0, d1)>
#col0 = affine_map<(d0, d1) -> (d0, 0)>
func.func @constant_index_untouched(%x: tensor<4x64xf32>, %b: tensor<4x2xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %y = linalg.generic {indexing_maps = [#idc, #col0, #idc], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<4x64xf32>, tensor<4x2xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%xv: f32, %bv: f32, %o: f32):
    %a = arith.addf %xv, %bv : f32
    linalg.yield %a : f32
  } -> tensor<4x64xf32>
  return %y : tensor<4x64xf32>
}

// -----

// A row of 8 full tiles (256 / 32): its tile loop is kept rolled, since LLVM
// would unroll it into straight-line code for its later loop passes to
// analyse whole inside the row loop; the row loop itself is left to LLVM.
// CHECK: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[ROLLED:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: func.func @rows_kept_rolled
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK: } {loop_annotation = #[[ROLLED]]}
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: return
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @rows_kept_rolled(%x: tensor<8x256xf32>) -> tensor<8x256xf32> {
  %e = tensor.empty() : tensor<8x256xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x256xf32>) outs(%e : tensor<8x256xf32>) {
  ^bb0(%xv: f32, %o: f32):
    %a = arith.addf %xv, %xv : f32
    linalg.yield %a : f32
  } -> tensor<8x256xf32>
  return %y : tensor<8x256xf32>
}

// -----

// Three tiles a row (96 / 32): LLVM may unroll them (kMinRolledRowTiles).
// CHECK-LABEL: func.func @short_rows
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK-NOT: {loop_annotation =
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @short_rows(%x: tensor<8x96xf32>) -> tensor<8x96xf32> {
  %e = tensor.empty() : tensor<8x96xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x96xf32>) outs(%e : tensor<8x96xf32>) {
  ^bb0(%xv: f32, %o: f32):
    %a = arith.addf %xv, %xv : f32
    linalg.yield %a : f32
  } -> tensor<8x96xf32>
  return %y : tensor<8x96xf32>
}

// -----

// One dimension: no row loop around the tiles, nothing to keep rolled.
// CHECK-LABEL: func.func @one_dim
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK-NOT: {loop_annotation =
// CHECK: return
#id = affine_map<(d0) -> (d0)>
func.func @one_dim(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<1024xf32>) outs(%e : tensor<1024xf32>) {
  ^bb0(%xv: f32, %o: f32):
    %a = arith.addf %xv, %xv : f32
    linalg.yield %a : f32
  } -> tensor<1024xf32>
  return %y : tensor<1024xf32>
}

// -----

// A row split at 128 (140 = 4 x 32 + 12): the loop of its 4 full tiles is
// kept rolled, the 12-lane remainder is one vector.
// CHECK: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[ROLLED:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: func.func @rows_with_remainder
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK: } {loop_annotation = #[[ROLLED]]}
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<12xf32>
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @rows_with_remainder(%x: tensor<8x140xf32>) -> tensor<8x140xf32> {
  %e = tensor.empty() : tensor<8x140xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x140xf32>) outs(%e : tensor<8x140xf32>) {
  ^bb0(%xv: f32, %o: f32):
    %a = arith.addf %xv, %xv : f32
    linalg.yield %a : f32
  } -> tensor<8x140xf32>
  return %y : tensor<8x140xf32>
}
