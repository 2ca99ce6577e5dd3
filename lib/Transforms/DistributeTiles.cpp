//===- DistributeTiles.cpp - qops-distribute-tiles ------------------------===//
//
// The distribute stage of the int8 engine: the kernel's nest of tiles
// (scf.for batches x row blocks x column chunks, marked qkernel.tile_loops)
// -> one scf.forall, with the one policy for its column chunks and the order
// of its dims (Passes.td has the formulas and the IR before and after).
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Transforms/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

#include <algorithm>

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSDISTRIBUTETILES
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

/// The three loops of a marked nest and the write of its innermost body.
struct TileNest {
  scf::ForOp batch, rows, columns;
  tensor::InsertSliceOp write;
};

/// The loop that is `loop`'s whole body (besides the yield of its
/// results), carrying `loop`'s one tensor.
scf::ForOp getOnlyInnerLoop(scf::ForOp loop) {
  Block *body = loop.getBody();
  if (loop.getNumRegionIterArgs() != 1 || body->getOperations().size() != 2)
    return nullptr;
  auto inner = dyn_cast<scf::ForOp>(body->front());
  if (!inner || inner.getNumRegionIterArgs() != 1 ||
      inner.getInitArgs()[0] != loop.getRegionIterArgs()[0] ||
      body->getTerminator()->getOperand(0) != inner.getResult(0))
    return nullptr;
  return inner;
}

/// The nest under a marked loop, or failure when it is not the kernel's
/// shape (three loops from 0, the batch's step 1, the innermost body
/// yielding an insert_slice into its tensor).
FailureOr<TileNest> matchTileNest(scf::ForOp batch) {
  TileNest nest;
  nest.batch = batch;
  nest.rows = getOnlyInnerLoop(batch);
  nest.columns = nest.rows ? getOnlyInnerLoop(nest.rows) : nullptr;
  if (!nest.columns)
    return failure();
  for (scf::ForOp loop : {nest.batch, nest.rows, nest.columns})
    if (getConstantIntValue(loop.getLowerBound()) != 0)
      return failure();
  if (getConstantIntValue(batch.getStep()) != 1 ||
      !getConstantIntValue(nest.rows.getStep()))
    return failure();
  Value yielded = nest.columns.getBody()->getTerminator()->getOperand(0);
  nest.write = yielded.getDefiningOp<tensor::InsertSliceOp>();
  if (!nest.write ||
      nest.write.getDest() != nest.columns.getRegionIterArgs()[0])
    return failure();
  return nest;
}

/// The policy's inputs: the marker's facts and the static extents.
struct TileFacts {
  int64_t panelColumns, columnChunk, minTasks;
  std::optional<int64_t> m, n;
};

FailureOr<TileFacts> readFacts(DictionaryAttr dict) {
  auto get = [&](StringRef name) -> std::optional<int64_t> {
    if (auto value = dict.getAs<IntegerAttr>(name))
      return value.getInt();
    return std::nullopt;
  };
  std::optional<int64_t> panel = get("panel_columns"),
                         chunk = get("column_chunk"), tasks = get("min_tasks");
  if (!panel || !chunk || !tasks || *panel <= 0 || *chunk < *panel ||
      *tasks <= 0)
    return failure();
  return TileFacts{*panel, *chunk, *tasks, get("m"), get("n")};
}

/// The columns of one task: column_chunk, or for static extents with fewer
/// than min_tasks tasks the chunk that makes that many (a multiple of the
/// panel width, at least two panels):
///   blocks = B * ceil(Mp / MC), chunks = ceil(min_tasks / blocks),
///   chunk  = clamp(roundUp(ceil(Np / chunks), NR), 2 NR, column_chunk).
int64_t getColumnChunk(TileNest nest, const TileFacts &facts) {
  std::optional<int64_t> batch = getConstantIntValue(nest.batch.getUpperBound());
  std::optional<int64_t> mPadded = getConstantIntValue(nest.rows.getUpperBound());
  std::optional<int64_t> nPadded =
      getConstantIntValue(nest.columns.getUpperBound());
  int64_t rowBlock = *getConstantIntValue(nest.rows.getStep());
  if (!batch || !mPadded || !nPadded)
    return facts.columnChunk;
  int64_t blocks =
      std::max<int64_t>(*batch * llvm::divideCeil(*mPadded, rowBlock), 1);
  int64_t chunks = llvm::divideCeil(facts.minTasks, blocks);
  int64_t fit =
      llvm::alignTo(llvm::divideCeil(*nPadded, chunks), facts.panelColumns);
  return std::clamp<int64_t>(fit, 2 * facts.panelColumns, facts.columnChunk);
}

/// The nest as one scf.forall (see the pass description).
void distribute(IRRewriter &rewriter, TileNest nest,
                const TileFacts &facts) {
  Location loc = nest.batch.getLoc();
  rewriter.setInsertionPoint(nest.batch);
  int64_t chunk = getColumnChunk(nest, facts);
  // Column chunks outside when N >= M: a thread then multiplies with the
  // panels of b it packed itself (docs/Performance.md).
  bool columnsOuter = facts.m && facts.n && *facts.n >= *facts.m;
  unsigned rowDim = columnsOuter ? 2 : 1, columnDim = columnsOuter ? 1 : 2;
  SmallVector<OpFoldResult> upper{
      getAsOpFoldResult(nest.batch.getUpperBound()),
      getAsOpFoldResult(nest.rows.getUpperBound()),
      getAsOpFoldResult(nest.columns.getUpperBound())};
  SmallVector<OpFoldResult> steps{rewriter.getIndexAttr(1),
                                  getAsOpFoldResult(nest.rows.getStep()),
                                  rewriter.getIndexAttr(chunk)};
  if (columnsOuter) {
    std::swap(upper[1], upper[2]);
    std::swap(steps[1], steps[2]);
  }
  Value chunkValue = arith::ConstantIndexOp::create(rewriter, loc, chunk);
  SmallVector<OpFoldResult> lower(3, rewriter.getIndexAttr(0));
  auto forall = scf::ForallOp::create(rewriter, loc, lower, upper, steps,
                                      nest.batch.getInitArgs(), std::nullopt);

  // The innermost body, its induction variables and tensor now the
  // forall's, its write a parallel_insert_slice.
  nest.batch.getInductionVar().replaceAllUsesWith(forall.getInductionVar(0));
  nest.rows.getInductionVar().replaceAllUsesWith(
      forall.getInductionVar(rowDim));
  nest.columns.getInductionVar().replaceAllUsesWith(
      forall.getInductionVar(columnDim));
  nest.columns.getRegionIterArgs()[0].replaceAllUsesWith(
      forall.getRegionIterArgs()[0]);
  Block *body = nest.columns.getBody();
  Block *target = forall.getBody();
  target->getOperations().splice(target->getTerminator()->getIterator(),
                                 body->getOperations(), body->begin(),
                                 body->getTerminator()->getIterator());
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::InsertSliceOp write = nest.write;
  tensor::ParallelInsertSliceOp::create(
      rewriter, write.getLoc(), write.getSource(), write.getDest(),
      write.getMixedOffsets(), write.getMixedSizes(),
      write.getMixedStrides());

  Value oldChunk = nest.columns.getStep();
  rewriter.replaceOp(nest.batch, forall.getResults());
  rewriter.eraseOp(write);
  // The nest's own column step: the chunk everywhere the body reads it.
  rewriter.replaceAllUsesWith(oldChunk, chunkValue);
  if (Operation *def = oldChunk.getDefiningOp(); def && def->use_empty())
    rewriter.eraseOp(def);
}

struct QOpsDistributeTilesPass
    : public qops::impl::QOpsDistributeTilesBase<QOpsDistributeTilesPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> marked;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr(qkernel::kTileLoopsAttrName))
        marked.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForOp loop : marked) {
      auto facts = dyn_cast<DictionaryAttr>(
          loop->getAttr(qkernel::kTileLoopsAttrName));
      FailureOr<TileFacts> read =
          facts ? readFacts(facts) : FailureOr<TileFacts>(failure());
      FailureOr<TileNest> nest = matchTileNest(loop);
      if (failed(read) || failed(nest)) {
        loop.emitError() << "'" << qkernel::kTileLoopsAttrName
                         << "' marks a loop that is not a nest of tiles "
                            "(batches x row blocks x column chunks writing "
                            "slices of their tensor) or lacks "
                            "panel_columns, column_chunk, min_tasks";
        return signalPassFailure();
      }
      distribute(rewriter, *nest, *read);
    }
  }
};

} // namespace
