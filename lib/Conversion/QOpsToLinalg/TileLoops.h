//===- TileLoops.h - the nest of tiles that qops-distribute splits -*- C++ -*-===//
//
// The loop nests the engine's packed kernels share. emitTileLoops: the
// outer loops every packed contraction kernel of the engine runs its
// register tiles in (the int8 kernel, QLinearMatMulKernel.cpp, and the
// float kernel, FloatMatMulKernel.cpp): batches x row blocks x column
// chunks, each iteration writing its own slice of y [B, M, N], marked
// qkernel.tile_loops with what qops-distribute's policy needs to know
// (Distribute.cpp):
//
//   %chunk = arith.constant Np            (the nest's own value; Np >= 1)
//   scf.for %bi = 0 to B iter_args(%y0 = %init) {qkernel.tile_loops = ..}
//     scf.for %mb = 0 to Mp step MC iter_args(%y1 = %y0)
//       scf.for %nc = 0 to Np step %chunk iter_args(%y2 = %y1)
//         %s = tensor.extract_slice %y2[%bi, %mb, %nc]
//                [1, min(%mb + MC, M) - %mb, min(%nc + %chunk, N) - %nc]
//         %w = <the block: rows [%mb, min(%mb + MC, Mp)),
//               columns [%nc, min(%nc + %chunk, Np)), written into %s>
//         tensor.insert_slice %w into %y2[...same...]
//
// The body reads the column step only as `%nc + %chunk` (a chunk's end)
// and the row step only as `%mb + MC` (a block's end), which the pass
// rewrites to its chunk and row block (a multiple of MR, `tile_rows`). On
// one thread the column loop runs once (all columns of a row block).
// emitSliceNest: a nest over two leading dims of a tensor, one slice each
// (b's packing panels, emitPanelNest; a convolution's patches, one output
// row each).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_TILELOOPS_H
#define QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_TILELOOPS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

#include <optional>

namespace mlir::qops {

/// The grid of a kernel's tiles over y [B, M, N]: M and N, padded to the
/// register tile (Mp) and to the B panel (Np); MC rows per block; the
/// widest column chunk a thread takes and the panel width it is a multiple
/// of (both for the distribution policy).
struct TileGrid {
  OpFoldResult batch, m, n, mPadded, nPadded;
  int64_t rowBlock, panelColumns, columnChunk;
  std::optional<int64_t> staticM, staticN;
  /// Rows of the register tile (MR), which a row block the policy narrows
  /// stays a multiple of.
  int64_t tileRows;
};

/// Writes one block: batch `bi`, rows [mb, blockEnd), columns
/// [nBegin, nEnd), into `slice` (element (0, 0, 0) of which is y's
/// (bi, mb, nBegin)); returns the written slice.
using TileBlockBuilder =
    function_ref<Value(OpBuilder &b, Location loc, Value bi, Value mb,
                       Value blockEnd, Value nBegin, Value nEnd, Value slice)>;

/// The nest above over `yInit` [B, M, N]; returns the written y.
Value emitTileLoops(OpBuilder &builder, Location loc, const TileGrid &grid,
                    Value yInit, TileBlockBuilder emitBlock);

/// Writes slice (i0, i1) of a nest over two leading dims into `slice`
/// ([1, 1, rest..]); returns the written slice.
using SliceBuilder = function_ref<Value(OpBuilder &b, Location loc, Value i0,
                                        Value i1, Value slice)>;

/// Writes panel `panel` of batch `bb` into `slice` ([1, 1, rows, NR]);
/// returns the written slice.
using PanelBuilder = SliceBuilder;

/// A packed b [batches, panels, rows, NR] of `element`, as the nest
/// qops-distribute gives to threads as it is (qkernel.parallel_loops):
///
///   scf.for %bb = 0 to batches iter_args(%p0 = tensor.empty)
///     scf.for %panel = 0 to panels iter_args(%p1 = %p0)
///       %s = tensor.extract_slice %p1[%bb, %panel, 0, 0] [1, 1, rows, NR]
///       %w = <emitPanel: the panel written into %s>
///       tensor.insert_slice %w into %p1[...same...]
Value emitPanelNest(OpBuilder &builder, Location loc, OpFoldResult batches,
                    OpFoldResult panels, OpFoldResult rows,
                    int64_t panelColumns, Type element,
                    PanelBuilder emitPanel);

/// `init` [D0, D1, rest..] (its sizes `extents`) written slice by slice,
/// as the nest
/// qops-distribute gives to threads as it is (qkernel.parallel_loops):
///
///   scf.for %i0 = 0 to D0 iter_args(%t0 = %init)
///     scf.for %i1 = 0 to D1 iter_args(%t1 = %t0)
///       %s = tensor.extract_slice %t1[%i0, %i1, 0..] [1, 1, rest..]
///       %w = <emitSlice: the slice written into %s>
///       tensor.insert_slice %w into %t1[...same...]
///
/// (emitPanelNest is this nest over an empty [batches, panels, rows, NR].)
Value emitSliceNest(OpBuilder &builder, Location loc, Value init,
                    ArrayRef<OpFoldResult> extents, SliceBuilder emitSlice);

/// scf.for %iv = lower to upper step `step` carrying one tensor, `init`;
/// its body `body(iv, carried)` returns the next; returns the last.
Value emitTensorLoop(
    OpBuilder &b, Location loc, Value lower, Value upper, Value step,
    Value init, function_ref<Value(OpBuilder &, Location, Value, Value)> body);

/// `v` ([rows, columns], or with batch dims) as [batch, rows, columns]: a
/// unit batch added to a matrix, the batch dims of a higher rank collapsed.
Value toBatched(OpBuilder &b, Location loc, Value v);

} // namespace mlir::qops

#endif // QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_TILELOOPS_H
