//===- TileLoops.cpp - the nest of tiles that qops-distribute splits ------===//
//
// emitTileLoops, emitPanelNest, emitSliceNest, emitTensorLoop, toBatched
// (TileLoops.h has the IR).
//
//===----------------------------------------------------------------------===//

#include "TileLoops.h"

#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"
#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"

#include "TuningTable.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::qops;

static Value minOf(OpBuilder &b, Location l, Value x, Value step,
                   Value bound) {
  return arith::MinUIOp::create(b, l, arith::AddIOp::create(b, l, x, step),
                                bound);
}

Value qops::emitTileLoops(OpBuilder &builder, Location loc,
                          const TileGrid &grid, Value yInit,
                          TileBlockBuilder emitBlock) {
  auto idx = [&](OpFoldResult v) {
    return getValueOrCreateConstantIndexOp(builder, loc, v);
  };
  Value c0 = arith::ConstantIndexOp::create(builder, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(builder, loc, 1);
  Value cBlock = arith::ConstantIndexOp::create(builder, loc, grid.rowBlock);
  Value cBlockEnd = idx(grid.mPadded), cColumnsEnd = idx(grid.nPadded);
  Value cM = idx(grid.m), cN = idx(grid.n);
  // The column step, a value of its own: the pass replaces it.
  Value chunk;
  if (std::optional<int64_t> np = getConstantIntValue(grid.nPadded))
    chunk = arith::ConstantIndexOp::create(builder, loc,
                                           std::max<int64_t>(*np, 1));
  else
    chunk = arith::MaxUIOp::create(builder, loc, cColumnsEnd, c1);
  auto body = [&](OpBuilder &b, Location l, Value bi, Value mb, Value nc,
                  Value y) {
    Value blockEnd = minOf(b, l, mb, cBlock, cBlockEnd);
    Value chunkEnd = minOf(b, l, nc, chunk, cColumnsEnd);
    // The tile's part of y: its rows and columns below M and N.
    Value rowsInY = arith::SubIOp::create(b, l, minOf(b, l, mb, cBlock, cM), mb);
    Value columnsInY =
        arith::SubIOp::create(b, l, minOf(b, l, nc, chunk, cN), nc);
    SmallVector<OpFoldResult> offsets{bi, mb, nc};
    SmallVector<OpFoldResult> sizes{b.getIndexAttr(1), rowsInY, columnsInY};
    SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
    Value slice =
        tensor::ExtractSliceOp::create(b, l, y, offsets, sizes, strides);
    Value written = emitBlock(b, l, bi, mb, blockEnd, nc, chunkEnd, slice);
    return tensor::InsertSliceOp::create(b, l, written, y, offsets, sizes,
                                         strides)
        .getResult();
  };
  auto batchLoop = scf::ForOp::create(
      builder, loc, c0, idx(grid.batch), c1, ValueRange{yInit},
      [&](OpBuilder &b, Location l, Value bi, ValueRange batchArgs) {
        auto blockLoop = scf::ForOp::create(
            b, l, c0, cBlockEnd, cBlock, batchArgs,
            [&](OpBuilder &b, Location l, Value mb, ValueRange blockArgs) {
              auto chunkLoop = scf::ForOp::create(
                  b, l, c0, cColumnsEnd, chunk, blockArgs,
                  [&](OpBuilder &b, Location l, Value nc, ValueRange args) {
                    scf::YieldOp::create(b, l, body(b, l, bi, mb, nc, args[0]));
                  });
              scf::YieldOp::create(b, l, chunkLoop.getResults());
            });
        scf::YieldOp::create(b, l, blockLoop.getResults());
      });
  // What the distribution policy needs to know of the contraction.
  SmallVector<NamedAttribute> facts{
      builder.getNamedAttr("panel_columns",
                           builder.getI64IntegerAttr(grid.panelColumns)),
      builder.getNamedAttr("column_chunk",
                           builder.getI64IntegerAttr(grid.columnChunk)),
      builder.getNamedAttr("min_tasks",
                           builder.getI64IntegerAttr(kMinParallelTasks)),
      builder.getNamedAttr("tile_rows",
                           builder.getI64IntegerAttr(grid.tileRows))};
  if (grid.staticM && grid.staticN) {
    facts.push_back(
        builder.getNamedAttr("m", builder.getI64IntegerAttr(*grid.staticM)));
    facts.push_back(
        builder.getNamedAttr("n", builder.getI64IntegerAttr(*grid.staticN)));
  }
  batchLoop->setAttr(qkernel::kTileLoopsAttrName,
                     builder.getDictionaryAttr(facts));
  return batchLoop.getResult(0);
}

Value qops::emitPanelNest(OpBuilder &builder, Location loc,
                          OpFoldResult batches, OpFoldResult panels,
                          OpFoldResult rows, int64_t panelColumns,
                          Type element, PanelBuilder emitPanel) {
  SmallVector<OpFoldResult> sizes{batches, panels, rows,
                                  builder.getIndexAttr(panelColumns)};
  Value init = tensor::EmptyOp::create(builder, loc, sizes, element);
  return emitSliceNest(builder, loc, init, sizes, emitPanel);
}

Value qops::emitSliceNest(OpBuilder &builder, Location loc, Value init,
                          ArrayRef<OpFoldResult> extents,
                          SliceBuilder emitSlice) {
  auto type = cast<RankedTensorType>(init.getType());
  assert(type.getRank() >= 2 && type.getRank() == int64_t(extents.size()) &&
         "the nest runs over two leading dims of init");
  SmallVector<OpFoldResult> strides(type.getRank(), builder.getIndexAttr(1));
  // A perfect nest (the bounds outside it), as qops-distribute takes it.
  Value c0 = arith::ConstantIndexOp::create(builder, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(builder, loc, 1);
  Value end0 = getValueOrCreateConstantIndexOp(builder, loc, extents[0]);
  Value end1 = getValueOrCreateConstantIndexOp(builder, loc, extents[1]);
  auto body = [&](OpBuilder &b, Location l, Value i0, Value i1,
                  Value whole) {
    SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
    offsets[0] = i0;
    offsets[1] = i1;
    SmallVector<OpFoldResult> sizes(extents);
    sizes[0] = sizes[1] = b.getIndexAttr(1);
    Value slice =
        tensor::ExtractSliceOp::create(b, l, whole, offsets, sizes, strides);
    return tensor::InsertSliceOp::create(b, l, emitSlice(b, l, i0, i1, slice),
                                         whole, offsets, sizes, strides)
        .getResult();
  };
  Value result = emitTensorLoop(
      builder, loc, c0, end0, c1, init,
      [&](OpBuilder &b, Location l, Value i0, Value whole) {
        return emitTensorLoop(b, l, c0, end1, c1, whole,
                              [&](OpBuilder &b, Location l, Value i1,
                                  Value whole) {
                                return body(b, l, i0, i1, whole);
                              });
      });
  // Each slice is its own: qops-distribute gives them to threads.
  result.getDefiningOp()->setAttr(qkernel::kParallelLoopsAttrName,
                                  builder.getUnitAttr());
  return result;
}

Value qops::emitTensorLoop(
    OpBuilder &b, Location loc, Value lower, Value upper, Value step,
    Value init, function_ref<Value(OpBuilder &, Location, Value, Value)> body) {
  return scf::ForOp::create(
             b, loc, lower, upper, step, ValueRange{init},
             [&](OpBuilder &b, Location l, Value iv, ValueRange args) {
               scf::YieldOp::create(b, l, body(b, l, iv, args[0]));
             })
      .getResult(0);
}

Value qops::toBatched(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  int64_t rank = type.getRank();
  if (rank == 2)
    return tensor::ExpandShapeOp::create(
        b, loc,
        RankedTensorType::get({1, type.getDimSize(0), type.getDimSize(1)},
                              type.getElementType()),
        v, ArrayRef<ReassociationIndices>{{0, 1}, {2}},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1),
                               tensor::getMixedSize(b, loc, v, 0),
                               tensor::getMixedSize(b, loc, v, 1)});
  if (rank == 3)
    return v;
  SmallVector<ReassociationIndices> groups{
      llvm::to_vector(llvm::seq<int64_t>(0, rank - 2)), {rank - 2}, {rank - 1}};
  return tensor::CollapseShapeOp::create(b, loc, v, groups);
}
