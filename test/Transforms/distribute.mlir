// RUN: quant-opt %s --qops-distribute --split-input-file --verify-diagnostics | FileCheck %s

// The kernel's nest of tiles (QLinearMatMulKernel.cpp, emitTileLoops) with
// a stand-in body, 128x3072 (Mp 132, MC 48, NR 32): 3 row blocks, so the
// column chunk narrows for 64 tasks: ceil(64 / 3) = 22 chunks,
// roundUp(ceil(3072 / 22), 32) = 160 columns (within [64, 256]). N >= M:
// the column chunks go outside the row blocks. The body reads the chunk
// where it read the nest's own step.
// CHECK-LABEL: func.func @static_columns_outer
// CHECK-DAG: %[[CHUNK:.*]] = arith.constant 160 : index
// CHECK: %[[Y:.*]] = scf.forall (%[[B:.*]], %[[N:.*]], %[[M:.*]]) = (0, 0, 0) to (1, 3072, 132) step (1, 160, 48) shared_outs(%[[SHARED:.*]] = %{{.*}}) -> (tensor<1x128x3072xi8>)
// CHECK: %[[END:.*]] = arith.addi %[[N]], %[[CHUNK]] : index
// CHECK: %[[S:.*]] = tensor.extract_slice %[[SHARED]][%[[B]], %[[M]], %[[N]]]
// CHECK: %[[W:.*]] = linalg.fill {{.*}} outs(%[[S]] : tensor<1x?x?xi8>)
// CHECK: scf.forall.in_parallel
// CHECK-NEXT: tensor.parallel_insert_slice %[[W]] into %[[SHARED]][%[[B]], %[[M]], %[[N]]]
// CHECK-NOT: scf.for %
// CHECK-NOT: qkernel.tile_loops
// CHECK: return %[[Y]]
func.func @static_columns_outer(%init: tensor<1x128x3072xi8>, %v: i8) -> tensor<1x128x3072xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %c3072 = arith.constant 3072 : index
  %chunk = arith.constant 3072 : index
  %y = scf.for %bi = %c0 to %c1 step %c1 iter_args(%y0 = %init) -> (tensor<1x128x3072xi8>) {
    %r = scf.for %mb = %c0 to %c132 step %c48 iter_args(%y1 = %y0) -> (tensor<1x128x3072xi8>) {
      %c = scf.for %nc = %c0 to %c3072 step %chunk iter_args(%y2 = %y1) -> (tensor<1x128x3072xi8>) {
        %me = arith.addi %mb, %c48 : index
        %mm = arith.minui %me, %c128 : index
        %rows = arith.subi %mm, %mb : index
        %ne = arith.addi %nc, %chunk : index
        %nn = arith.minui %ne, %c3072 : index
        %cols = arith.subi %nn, %nc : index
        %s = tensor.extract_slice %y2[%bi, %mb, %nc] [1, %rows, %cols] [1, 1, 1] : tensor<1x128x3072xi8> to tensor<1x?x?xi8>
        %w = linalg.fill ins(%v : i8) outs(%s : tensor<1x?x?xi8>) -> tensor<1x?x?xi8>
        %i = tensor.insert_slice %w into %y2[%bi, %mb, %nc] [1, %rows, %cols] [1, 1, 1] : tensor<1x?x?xi8> into tensor<1x128x3072xi8>
        scf.yield %i : tensor<1x128x3072xi8>
      }
      scf.yield %c : tensor<1x128x3072xi8>
    }
    scf.yield %r : tensor<1x128x3072xi8>
  } {qkernel.tile_loops = {column_chunk = 256 : i64, m = 128 : i64, min_tasks = 64 : i64, n = 3072 : i64, panel_columns = 32 : i64}}
  return %y : tensor<1x128x3072xi8>
}

// -----

// The same nest after canonicalization merged its column step with the
// equal bound (3072): only `nc + step` takes the chunk; the bound stays.
// CHECK-LABEL: func.func @merged_step
// CHECK-DAG: %[[CHUNK:.*]] = arith.constant 160 : index
// CHECK-DAG: %[[NP:.*]] = arith.constant 3072 : index
// CHECK: scf.forall (%{{.*}}, %[[N:.*]], %{{.*}}) = (0, 0, 0) to (1, 3072, 132) step (1, 160, 48)
// CHECK: %[[END:.*]] = arith.addi %[[N]], %[[CHUNK]] : index
// CHECK: arith.minui %[[END]], %[[NP]] : index
func.func @merged_step(%init: tensor<1x128x3072xi8>, %v: i8) -> tensor<1x128x3072xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %c3072 = arith.constant 3072 : index
  %y = scf.for %bi = %c0 to %c1 step %c1 iter_args(%y0 = %init) -> (tensor<1x128x3072xi8>) {
    %r = scf.for %mb = %c0 to %c132 step %c48 iter_args(%y1 = %y0) -> (tensor<1x128x3072xi8>) {
      %c = scf.for %nc = %c0 to %c3072 step %c3072 iter_args(%y2 = %y1) -> (tensor<1x128x3072xi8>) {
        %me = arith.addi %mb, %c48 : index
        %mm = arith.minui %me, %c128 : index
        %rows = arith.subi %mm, %mb : index
        %ne = arith.addi %nc, %c3072 : index
        %nn = arith.minui %ne, %c3072 : index
        %cols = arith.subi %nn, %nc : index
        %s = tensor.extract_slice %y2[%bi, %mb, %nc] [1, %rows, %cols] [1, 1, 1] : tensor<1x128x3072xi8> to tensor<1x?x?xi8>
        %w = linalg.fill ins(%v : i8) outs(%s : tensor<1x?x?xi8>) -> tensor<1x?x?xi8>
        %i = tensor.insert_slice %w into %y2[%bi, %mb, %nc] [1, %rows, %cols] [1, 1, 1] : tensor<1x?x?xi8> into tensor<1x128x3072xi8>
        scf.yield %i : tensor<1x128x3072xi8>
      }
      scf.yield %c : tensor<1x128x3072xi8>
    }
    scf.yield %r : tensor<1x128x3072xi8>
  } {qkernel.tile_loops = {column_chunk = 256 : i64, m = 128 : i64, min_tasks = 64 : i64, n = 3072 : i64, panel_columns = 32 : i64}}
  return %y : tensor<1x128x3072xi8>
}

// -----

// A QLinearConv 3x3 stride 2 of 56 x 56 x 64 -> 64 as its kernel's nest
// under amx: y [1, 784, 64] (Mp 800, MC 128, MR 32 = tile_rows, NR 32).
// 7 row blocks and one chunk of two panels (64, the least) make 7 tasks,
// fewer than 64: the row blocks narrow to a multiple of 32,
// clamp(roundUp(ceil(800 / 64), 32), 32, 128) = 32 (25 tasks). M > N: the
// row blocks stay outside. The body's block end takes the new block.
// CHECK-LABEL: func.func @narrow_row_blocks
// CHECK-DAG: %[[BLOCK:.*]] = arith.constant 32 : index
// CHECK: scf.forall (%{{.*}}, %[[M:.*]], %{{.*}}) = (0, 0, 0) to (1, 800, 64) step (1, 32, 64)
// CHECK: arith.addi %[[M]], %[[BLOCK]] : index
// CHECK-NOT: arith.constant 128 : index
func.func @narrow_row_blocks(%init: tensor<1x784x64xi8>, %v: i8) -> tensor<1x784x64xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c784 = arith.constant 784 : index
  %c800 = arith.constant 800 : index
  %chunk = arith.constant 64 : index
  %y = scf.for %bi = %c0 to %c1 step %c1 iter_args(%y0 = %init) -> (tensor<1x784x64xi8>) {
    %r = scf.for %mb = %c0 to %c800 step %c128 iter_args(%y1 = %y0) -> (tensor<1x784x64xi8>) {
      %c = scf.for %nc = %c0 to %chunk step %chunk iter_args(%y2 = %y1) -> (tensor<1x784x64xi8>) {
        %me = arith.addi %mb, %c128 : index
        %mm = arith.minui %me, %c784 : index
        %rows = arith.subi %mm, %mb : index
        %s = tensor.extract_slice %y2[%bi, %mb, %nc] [1, %rows, 64] [1, 1, 1] : tensor<1x784x64xi8> to tensor<1x?x64xi8>
        %w = linalg.fill ins(%v : i8) outs(%s : tensor<1x?x64xi8>) -> tensor<1x?x64xi8>
        %i = tensor.insert_slice %w into %y2[%bi, %mb, %nc] [1, %rows, 64] [1, 1, 1] : tensor<1x?x64xi8> into tensor<1x784x64xi8>
        scf.yield %i : tensor<1x784x64xi8>
      }
      scf.yield %c : tensor<1x784x64xi8>
    }
    scf.yield %r : tensor<1x784x64xi8>
  } {qkernel.tile_loops = {column_chunk = 256 : i64, m = 784 : i64, min_tasks = 64 : i64, n = 64 : i64, panel_columns = 32 : i64, tile_rows = 32 : i64}}
  return %y : tensor<1x784x64xi8>
}

// -----

// 2 x 480x64 (Mp 480, MC 48): 20 row blocks, 4 chunks of 64 columns would
// make 80 tasks, but a chunk is at least two panels (64): one chunk. M > N:
// the row blocks stay outside.
// CHECK-LABEL: func.func @static_rows_outer
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) = (0, 0, 0) to (2, 480, 64) step (1, 48, 64)
// CHECK-NOT: scf.for %
func.func @static_rows_outer(%init: tensor<2x480x64xi8>, %v: i8) -> tensor<2x480x64xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %c480 = arith.constant 480 : index
  %chunk = arith.constant 64 : index
  %y = scf.for %bi = %c0 to %c2 step %c1 iter_args(%y0 = %init) -> (tensor<2x480x64xi8>) {
    %r = scf.for %mb = %c0 to %c480 step %c48 iter_args(%y1 = %y0) -> (tensor<2x480x64xi8>) {
      %c = scf.for %nc = %c0 to %c64 step %chunk iter_args(%y2 = %y1) -> (tensor<2x480x64xi8>) {
        %s = tensor.extract_slice %y2[%bi, %mb, %nc] [1, 48, 64] [1, 1, 1] : tensor<2x480x64xi8> to tensor<1x48x64xi8>
        %w = linalg.fill ins(%v : i8) outs(%s : tensor<1x48x64xi8>) -> tensor<1x48x64xi8>
        %i = tensor.insert_slice %w into %y2[%bi, %mb, %nc] [1, 48, 64] [1, 1, 1] : tensor<1x48x64xi8> into tensor<2x480x64xi8>
        scf.yield %i : tensor<2x480x64xi8>
      }
      scf.yield %c : tensor<2x480x64xi8>
    }
    scf.yield %r : tensor<2x480x64xi8>
  } {qkernel.tile_loops = {column_chunk = 256 : i64, m = 480 : i64, min_tasks = 64 : i64, n = 64 : i64, panel_columns = 32 : i64}}
  return %y : tensor<2x480x64xi8>
}

// -----

// Dynamic extents (no m, n): column_chunk as it is, row blocks outside; the
// nest's own step (max(Np, 1)) is gone, the chunk's end is nc + 256.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: %[[INIT:[^:]*]]: tensor<?x?x?xi8>, %{{[^:]*}}: i8, %[[B:[^:]*]]: index, %[[MP:[^:]*]]: index, %[[NP:[^:]*]]: index
// CHECK-NOT: arith.maxui
// CHECK: %[[CHUNK:.*]] = arith.constant 256 : index
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %[[N:.*]]) = (0, 0, 0) to (%[[B]], %[[MP]], %[[NP]]) step (1, 48, 256) shared_outs(%{{.*}} = %[[INIT]])
// CHECK: arith.addi %[[N]], %[[CHUNK]]
// CHECK-NOT: arith.maxui
func.func @dynamic(%init: tensor<?x?x?xi8>, %v: i8, %b: index, %mp: index, %np: index) -> tensor<?x?x?xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  %chunk = arith.maxui %np, %c1 : index
  %y = scf.for %bi = %c0 to %b step %c1 iter_args(%y0 = %init) -> (tensor<?x?x?xi8>) {
    %r = scf.for %mb = %c0 to %mp step %c48 iter_args(%y1 = %y0) -> (tensor<?x?x?xi8>) {
      %c = scf.for %nc = %c0 to %np step %chunk iter_args(%y2 = %y1) -> (tensor<?x?x?xi8>) {
        %ne = arith.addi %nc, %chunk : index
        %nn = arith.minui %ne, %np : index
        %cols = arith.subi %nn, %nc : index
        %s = tensor.extract_slice %y2[%bi, %mb, %nc] [1, 48, %cols] [1, 1, 1] : tensor<?x?x?xi8> to tensor<1x48x?xi8>
        %w = linalg.fill ins(%v : i8) outs(%s : tensor<1x48x?xi8>) -> tensor<1x48x?xi8>
        %i = tensor.insert_slice %w into %y2[%bi, %mb, %nc] [1, 48, %cols] [1, 1, 1] : tensor<1x48x?xi8> into tensor<?x?x?xi8>
        scf.yield %i : tensor<?x?x?xi8>
      }
      scf.yield %c : tensor<?x?x?xi8>
    }
    scf.yield %r : tensor<?x?x?xi8>
  } {qkernel.tile_loops = {column_chunk = 256 : i64, min_tasks = 64 : i64, panel_columns = 32 : i64}}
  return %y : tensor<?x?x?xi8>
}

// -----

// qkernel.parallel_loops (b's packing panels): the nest as it is, one forall
// dim per loop, with its own bounds and steps.
// CHECK-LABEL: func.func @panels
// CHECK-SAME: %[[INIT:[^:]*]]: tensor<2x4x8x16xi32>
// CHECK: %[[P:.*]] = scf.forall (%[[B:.*]], %[[PANEL:.*]]) in (2, 4) shared_outs(%[[S:.*]] = %[[INIT]]) -> (tensor<2x4x8x16xi32>)
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[S]][%[[B]], %[[PANEL]], 0, 0] [1, 1, 8, 16] [1, 1, 1, 1]
// CHECK: %[[W:.*]] = linalg.fill {{.*}} outs(%[[SLICE]] : tensor<1x1x8x16xi32>)
// CHECK: scf.forall.in_parallel
// CHECK-NEXT: tensor.parallel_insert_slice %[[W]] into %[[S]][%[[B]], %[[PANEL]], 0, 0] [1, 1, 8, 16] [1, 1, 1, 1]
// CHECK-NOT: scf.for %
// CHECK-NOT: qkernel.parallel_loops
// CHECK: return %[[P]]
func.func @panels(%init: tensor<2x4x8x16xi32>, %v: i32) -> tensor<2x4x8x16xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %y = scf.for %bi = %c0 to %c2 step %c1 iter_args(%y0 = %init) -> (tensor<2x4x8x16xi32>) {
    %p = scf.for %panel = %c0 to %c4 step %c1 iter_args(%y1 = %y0) -> (tensor<2x4x8x16xi32>) {
      %s = tensor.extract_slice %y1[%bi, %panel, 0, 0] [1, 1, 8, 16] [1, 1, 1, 1] : tensor<2x4x8x16xi32> to tensor<1x1x8x16xi32>
      %w = linalg.fill ins(%v : i32) outs(%s : tensor<1x1x8x16xi32>) -> tensor<1x1x8x16xi32>
      %i = tensor.insert_slice %w into %y1[%bi, %panel, 0, 0] [1, 1, 8, 16] [1, 1, 1, 1] : tensor<1x1x8x16xi32> into tensor<2x4x8x16xi32>
      scf.yield %i : tensor<2x4x8x16xi32>
    }
    scf.yield %p : tensor<2x4x8x16xi32>
  } {qkernel.parallel_loops}
  return %y : tensor<2x4x8x16xi32>
}

// -----

// A parallel nest whose iterations do not write slices of its tensor.
func.func @parallel_not_slices(%init: tensor<4xi8>, %v: i8) -> tensor<4xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'qkernel.parallel_loops' marks a loop that is not a nest whose iterations write slices of its tensor}}
  %y = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %init) -> (tensor<4xi8>) {
    %u = tensor.insert %v into %t[%i] : tensor<4xi8>
    scf.yield %u : tensor<4xi8>
  } {qkernel.parallel_loops}
  return %y : tensor<4xi8>
}

// -----

// A nest whose inner bound depends on the outer loop (no forall has such a
// grid).
func.func @triangular(%init: tensor<4x4xi8>, %v: i8) -> tensor<4x4xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'qkernel.parallel_loops' marks a loop that is not a nest whose iterations write slices of its tensor}}
  %y = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %init) -> (tensor<4x4xi8>) {
    %r = scf.for %j = %c0 to %i step %c1 iter_args(%u = %t) -> (tensor<4x4xi8>) {
      %s = tensor.extract_slice %u[%i, %j] [1, 1] [1, 1] : tensor<4x4xi8> to tensor<1x1xi8>
      %w = linalg.fill ins(%v : i8) outs(%s : tensor<1x1xi8>) -> tensor<1x1xi8>
      %n = tensor.insert_slice %w into %u[%i, %j] [1, 1] [1, 1] : tensor<1x1xi8> into tensor<4x4xi8>
      scf.yield %n : tensor<4x4xi8>
    }
    scf.yield %r : tensor<4x4xi8>
  } {qkernel.parallel_loops}
  return %y : tensor<4x4xi8>
}

// -----

// Iterations that write the same slice (the panel loop's variable is not an
// offset of the write): threads would race, so the nest is refused.
func.func @same_slice(%init: tensor<2x4x8x16xi32>, %v: i32) -> tensor<2x4x8x16xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'qkernel.parallel_loops' marks a loop that is not a nest whose iterations write slices of its tensor}}
  %y = scf.for %bi = %c0 to %c2 step %c1 iter_args(%y0 = %init) -> (tensor<2x4x8x16xi32>) {
    %p = scf.for %panel = %c0 to %c4 step %c1 iter_args(%y1 = %y0) -> (tensor<2x4x8x16xi32>) {
      %s = tensor.extract_slice %y1[%bi, 0, 0, 0] [1, 1, 8, 16] [1, 1, 1, 1] : tensor<2x4x8x16xi32> to tensor<1x1x8x16xi32>
      %w = linalg.fill ins(%v : i32) outs(%s : tensor<1x1x8x16xi32>) -> tensor<1x1x8x16xi32>
      %i = tensor.insert_slice %w into %y1[%bi, 0, 0, 0] [1, 1, 8, 16] [1, 1, 1, 1] : tensor<1x1x8x16xi32> into tensor<2x4x8x16xi32>
      scf.yield %i : tensor<2x4x8x16xi32>
    }
    scf.yield %p : tensor<2x4x8x16xi32>
  } {qkernel.parallel_loops}
  return %y : tensor<2x4x8x16xi32>
}

// -----

// Unmarked loops stay.
// CHECK-LABEL: func.func @unmarked
// CHECK: scf.for
// CHECK-NOT: scf.forall
func.func @unmarked(%init: tensor<4xi8>, %v: i8) -> tensor<4xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %y = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %init) -> (tensor<4xi8>) {
    %u = tensor.insert %v into %t[%i] : tensor<4xi8>
    scf.yield %u : tensor<4xi8>
  }
  return %y : tensor<4xi8>
}

// -----

// A marked loop that is not a nest of tiles.
func.func @not_a_nest(%init: tensor<4xi8>, %v: i8) -> tensor<4xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'qkernel.tile_loops' marks a loop that is not a nest of tiles (batches x row blocks x column chunks writing slices of their tensor) or lacks panel_columns, column_chunk, min_tasks (positive; tile_rows too where given)}}
  %y = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %init) -> (tensor<4xi8>) {
    %u = tensor.insert %v into %t[%i] : tensor<4xi8>
    scf.yield %u : tensor<4xi8>
  } {qkernel.tile_loops = {column_chunk = 256 : i64, min_tasks = 64 : i64, panel_columns = 32 : i64}}
  return %y : tensor<4xi8>
}

// -----

// A nest of tiles whose marker lacks the policy's facts.
func.func @missing_facts(%init: tensor<1x48x64xi8>, %v: i8) -> tensor<1x48x64xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{'qkernel.tile_loops' marks a loop that is not a nest of tiles}}
  %y = scf.for %bi = %c0 to %c1 step %c1 iter_args(%y0 = %init) -> (tensor<1x48x64xi8>) {
    %r = scf.for %mb = %c0 to %c48 step %c48 iter_args(%y1 = %y0) -> (tensor<1x48x64xi8>) {
      %c = scf.for %nc = %c0 to %c64 step %c64 iter_args(%y2 = %y1) -> (tensor<1x48x64xi8>) {
        %s = tensor.extract_slice %y2[%bi, %mb, %nc] [1, 48, 64] [1, 1, 1] : tensor<1x48x64xi8> to tensor<1x48x64xi8>
        %w = linalg.fill ins(%v : i8) outs(%s : tensor<1x48x64xi8>) -> tensor<1x48x64xi8>
        %i = tensor.insert_slice %w into %y2[%bi, %mb, %nc] [1, 48, 64] [1, 1, 1] : tensor<1x48x64xi8> into tensor<1x48x64xi8>
        scf.yield %i : tensor<1x48x64xi8>
      }
      scf.yield %c : tensor<1x48x64xi8>
    }
    scf.yield %r : tensor<1x48x64xi8>
  } {qkernel.tile_loops = {panel_columns = 32 : i64}}
  return %y : tensor<1x48x64xi8>
}

// -----

// A tile_rows that is not positive.
func.func @bad_tile_rows(%init: tensor<1x48x64xi8>, %v: i8) -> tensor<1x48x64xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{tile_rows too where given}}
  %y = scf.for %bi = %c0 to %c1 step %c1 iter_args(%y0 = %init) -> (tensor<1x48x64xi8>) {
    %r = scf.for %mb = %c0 to %c48 step %c48 iter_args(%y1 = %y0) -> (tensor<1x48x64xi8>) {
      %c = scf.for %nc = %c0 to %c64 step %c64 iter_args(%y2 = %y1) -> (tensor<1x48x64xi8>) {
        %s = tensor.extract_slice %y2[%bi, %mb, %nc] [1, 48, 64] [1, 1, 1] : tensor<1x48x64xi8> to tensor<1x48x64xi8>
        %w = linalg.fill ins(%v : i8) outs(%s : tensor<1x48x64xi8>) -> tensor<1x48x64xi8>
        %i = tensor.insert_slice %w into %y2[%bi, %mb, %nc] [1, 48, 64] [1, 1, 1] : tensor<1x48x64xi8> into tensor<1x48x64xi8>
        scf.yield %i : tensor<1x48x64xi8>
      }
      scf.yield %c : tensor<1x48x64xi8>
    }
    scf.yield %r : tensor<1x48x64xi8>
  } {qkernel.tile_loops = {column_chunk = 256 : i64, min_tasks = 64 : i64, panel_columns = 32 : i64, tile_rows = 0 : i64}}
  return %y : tensor<1x48x64xi8>
}
