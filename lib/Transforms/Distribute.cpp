//===- Distribute.cpp - qops-distribute -----------------------------------===//
//
// The distribute stage of the int8 engine: marked scf.for nests whose
// iterations each write their own slice of a tensor -> one scf.forall.
//   qkernel.tile_loops      the kernel's tiles (batches x row blocks x
//                           column chunks), with the one policy for the
//                           column chunks and the order of the dims
//   qkernel.parallel_loops  any other such nest (b's packing panels), as
//                           it is
// Passes.td has the formulas and the IR before and after.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Transforms/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

#include <algorithm>

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSDISTRIBUTE
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

/// The loops of a marked nest, outermost first, and the write of the
/// innermost body.
struct LoopNest {
  SmallVector<scf::ForOp> loops;
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
      !loop.getRegionIterArgs()[0].hasOneUse() ||
      body->getTerminator()->getOperand(0) != inner.getResult(0))
    return nullptr;
  return inner;
}

/// The perfect nest under `outer` (each loop's body the next loop, one
/// tensor carried through, every bound and step defined outside the nest),
/// or failure unless its innermost body reads that tensor through slices
/// only and yields one insert_slice into it at offsets that include every
/// induction variable (every iteration writes its own slice).
FailureOr<LoopNest> matchLoopNest(scf::ForOp outer) {
  LoopNest nest;
  if (outer.getNumRegionIterArgs() != 1)
    return failure();
  for (scf::ForOp loop = outer; loop; loop = getOnlyInnerLoop(loop)) {
    for (Value bound :
         {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
      if (outer->isAncestor(bound.getParentRegion()->getParentOp()))
        return failure();
    nest.loops.push_back(loop);
  }
  scf::ForOp innermost = nest.loops.back();
  Value yielded = innermost.getBody()->getTerminator()->getOperand(0);
  Value tensor = innermost.getRegionIterArgs()[0];
  nest.write = yielded.getDefiningOp<tensor::InsertSliceOp>();
  if (!nest.write || nest.write.getDest() != tensor ||
      !nest.write->hasOneUse())
    return failure();
  // The body reads the tensor only through slices and writes it once.
  for (Operation *user : tensor.getUsers())
    if (user != nest.write && !isa<tensor::ExtractSliceOp>(user))
      return failure();
  // Each loop's induction variable is an offset of the write: iterations
  // write disjoint slices (as far as a marker's promise can be checked).
  SmallVector<Value> offsets = nest.write.getOffsets();
  for (scf::ForOp loop : nest.loops)
    if (!llvm::is_contained(offsets, loop.getInductionVar()))
      return failure();
  return nest;
}

/// The nest as one scf.forall over `lower`, `upper`, `steps` (dim d of the
/// forall is loop `order[d]` of the nest); the innermost body moves into it
/// and its insert_slice becomes a parallel_insert_slice.
scf::ForallOp toForall(IRRewriter &rewriter, LoopNest nest,
                       ArrayRef<OpFoldResult> lower,
                       ArrayRef<OpFoldResult> upper,
                       ArrayRef<OpFoldResult> steps,
                       ArrayRef<unsigned> order) {
  scf::ForOp outer = nest.loops.front(), innermost = nest.loops.back();
  auto forall =
      scf::ForallOp::create(rewriter, outer.getLoc(), lower, upper, steps,
                            outer.getInitArgs(), std::nullopt);
  for (auto [dim, loop] : llvm::enumerate(order))
    nest.loops[loop].getInductionVar().replaceAllUsesWith(
        forall.getInductionVar(dim));
  innermost.getRegionIterArgs()[0].replaceAllUsesWith(
      forall.getRegionIterArgs()[0]);
  Block *body = innermost.getBody();
  Block *target = forall.getBody();
  target->getOperations().splice(target->getTerminator()->getIterator(),
                                 body->getOperations(), body->begin(),
                                 body->getTerminator()->getIterator());
  tensor::InsertSliceOp write = nest.write;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(
      rewriter, write.getLoc(), write.getSource(), write.getDest(),
      write.getMixedOffsets(), write.getMixedSizes(),
      write.getMixedStrides());
  rewriter.replaceOp(outer, forall.getResults());
  rewriter.eraseOp(write);
  return forall;
}

/// qkernel.parallel_loops: the nest as it is, dim d the d-th loop.
void distributeAsIs(IRRewriter &rewriter, LoopNest nest) {
  SmallVector<OpFoldResult> lower, upper, steps;
  SmallVector<unsigned> order;
  for (auto [i, loop] : llvm::enumerate(nest.loops)) {
    lower.push_back(getAsOpFoldResult(loop.getLowerBound()));
    upper.push_back(getAsOpFoldResult(loop.getUpperBound()));
    steps.push_back(getAsOpFoldResult(loop.getStep()));
    order.push_back(i);
  }
  rewriter.setInsertionPoint(nest.loops.front());
  toForall(rewriter, nest, lower, upper, steps, order);
}

//===----------------------------------------------------------------------===//
// The kernel's tiles
//===----------------------------------------------------------------------===//

/// The policy's inputs: the marker's facts.
struct TileFacts {
  int64_t panelColumns, columnChunk, minTasks;
  std::optional<int64_t> m, n, tileRows;
};

FailureOr<TileFacts> readFacts(Attribute attr) {
  auto dict = dyn_cast<DictionaryAttr>(attr);
  if (!dict)
    return failure();
  auto get = [&](StringRef name) -> std::optional<int64_t> {
    if (auto value = dict.getAs<IntegerAttr>(name))
      return value.getInt();
    return std::nullopt;
  };
  std::optional<int64_t> panel = get("panel_columns"),
                         chunk = get("column_chunk"), tasks = get("min_tasks");
  std::optional<int64_t> tileRows = get("tile_rows");
  if (!panel || !chunk || !tasks || *panel <= 0 || *chunk < *panel ||
      *chunk % *panel != 0 || *tasks <= 0 || (tileRows && *tileRows <= 0))
    return failure();
  return TileFacts{*panel, *chunk, *tasks, get("m"), get("n"), tileRows};
}

/// A tile nest: batches (from 0, step 1) x row blocks (from 0, a constant
/// step) x column chunks (from 0).
bool isTileNest(LoopNest nest) {
  if (nest.loops.size() != 3)
    return false;
  for (scf::ForOp loop : nest.loops)
    if (getConstantIntValue(loop.getLowerBound()) != 0)
      return false;
  return getConstantIntValue(nest.loops[0].getStep()) == 1 &&
         getConstantIntValue(nest.loops[1].getStep());
}

/// The columns of one task: column_chunk, or for static extents with fewer
/// than min_tasks tasks the chunk that makes that many (a multiple of the
/// panel width, at least two panels):
///   blocks = B * ceil(Mp / MC), chunks = ceil(min_tasks / blocks),
///   chunk  = clamp(roundUp(ceil(Np / chunks), NR), 2 NR, column_chunk).
int64_t getColumnChunk(LoopNest nest, const TileFacts &facts) {
  scf::ForOp batch = nest.loops[0], rows = nest.loops[1],
             columns = nest.loops[2];
  std::optional<int64_t> batches = getConstantIntValue(batch.getUpperBound());
  std::optional<int64_t> mPadded = getConstantIntValue(rows.getUpperBound());
  std::optional<int64_t> nPadded = getConstantIntValue(columns.getUpperBound());
  int64_t rowBlock = *getConstantIntValue(rows.getStep());
  if (!batches || !mPadded || !nPadded)
    return facts.columnChunk;
  int64_t blocks =
      std::max<int64_t>(*batches * llvm::divideCeil(*mPadded, rowBlock), 1);
  int64_t chunks = llvm::divideCeil(facts.minTasks, blocks);
  int64_t fit =
      llvm::alignTo(llvm::divideCeil(*nPadded, chunks), facts.panelColumns);
  return std::clamp<int64_t>(fit, 2 * facts.panelColumns, facts.columnChunk);
}

/// The rows of one task: the nest's row block MC, or, for static extents
/// whose tasks with the policy's column chunk are fewer than a quarter of
/// min_tasks, the block (a multiple of tile_rows, at most MC) that makes
/// min_tasks:
///   chunks = ceil(Np / chunk), blocks = ceil(min_tasks / (B * chunks)),
///   block  = clamp(roundUp(ceil(Mp / blocks), MR), MR, MC).
/// Without tile_rows (MR), MC. Narrower blocks read each panel of b more
/// often, so only a grid too coarse to balance takes them (Xeon with AMX, 2
/// threads: a QLinearConv 3x3 stride 2, 7 tasks of 128 rows, ran 2.1x
/// faster with 32-row blocks; a QLinearConv 1x1 of 49 tasks ran 25% slower
/// with its 64 rows split in two).
int64_t getRowBlock(LoopNest nest, const TileFacts &facts, int64_t chunk) {
  scf::ForOp batch = nest.loops[0], rows = nest.loops[1],
             columns = nest.loops[2];
  int64_t rowBlock = *getConstantIntValue(rows.getStep());
  std::optional<int64_t> batches = getConstantIntValue(batch.getUpperBound());
  std::optional<int64_t> mPadded = getConstantIntValue(rows.getUpperBound());
  std::optional<int64_t> nPadded = getConstantIntValue(columns.getUpperBound());
  if (!facts.tileRows || !batches || !mPadded || !nPadded ||
      rowBlock % *facts.tileRows != 0)
    return rowBlock;
  int64_t chunks = std::max<int64_t>(llvm::divideCeil(*nPadded, chunk), 1);
  int64_t perBlock = std::max<int64_t>(*batches * chunks, 1);
  if (4 * perBlock * int64_t(llvm::divideCeil(*mPadded, rowBlock)) >=
      facts.minTasks)
    return rowBlock;
  int64_t blocks = llvm::divideCeil(facts.minTasks, perBlock);
  int64_t fit = llvm::alignTo(llvm::divideCeil(*mPadded, blocks),
                              *facts.tileRows);
  return std::clamp<int64_t>(fit, *facts.tileRows, rowBlock);
}

/// The adds `iv + step` of the body (a block's or chunk's end) inside
/// `forall` take `replacement` as their step. Matching the add, not every
/// use of the step value, keeps this right where canonicalization merged
/// that value with an equal bound.
void replaceStepInEnds(IRRewriter &rewriter, scf::ForallOp forall, Value iv,
                       Value step, Value replacement) {
  for (OpOperand &use : llvm::make_early_inc_range(step.getUses())) {
    auto add = dyn_cast<arith::AddIOp>(use.getOwner());
    if (add && forall->isProperAncestor(add) &&
        add->getOperand(1 - use.getOperandNumber()) == iv)
      rewriter.modifyOpInPlace(add, [&] { use.set(replacement); });
  }
}

/// qkernel.tile_loops: the column chunk and row block of the policy, and
/// the column chunks outside the row blocks when N >= M (a thread then
/// multiplies with the panels of b it packed itself: docs/Performance.md).
/// Where the body adds the nest's column (row) step to the column (row)
/// induction variable, it adds the chunk (block) instead.
void distributeTiles(IRRewriter &rewriter, LoopNest nest,
                     const TileFacts &facts) {
  scf::ForOp batch = nest.loops[0], rows = nest.loops[1],
             columns = nest.loops[2];
  rewriter.setInsertionPoint(batch);
  int64_t chunk = getColumnChunk(nest, facts);
  int64_t rowBlock = getRowBlock(nest, facts, chunk);
  bool columnsOuter = facts.m && facts.n && *facts.n >= *facts.m;
  SmallVector<unsigned> order{0, 1, 2};
  if (columnsOuter)
    order = {0, 2, 1};
  SmallVector<OpFoldResult> lower(3, rewriter.getIndexAttr(0)), upper, steps;
  for (unsigned loop : order) {
    upper.push_back(getAsOpFoldResult(nest.loops[loop].getUpperBound()));
    steps.push_back(loop == 2   ? rewriter.getIndexAttr(chunk)
                    : loop == 1 ? rewriter.getIndexAttr(rowBlock)
                                : getAsOpFoldResult(batch.getStep()));
  }
  Location loc = batch.getLoc();
  Value chunkValue = arith::ConstantIndexOp::create(rewriter, loc, chunk);
  Value oldChunk = columns.getStep(), oldBlock = rows.getStep();
  bool newBlock = getConstantIntValue(oldBlock) != rowBlock;
  Value blockValue =
      newBlock ? arith::ConstantIndexOp::create(rewriter, loc, rowBlock)
               : Value();
  scf::ForallOp forall = toForall(rewriter, nest, lower, upper, steps, order);
  auto ivOf = [&](unsigned loop) {
    return forall.getInductionVar(llvm::find(order, loop) - order.begin());
  };
  replaceStepInEnds(rewriter, forall, ivOf(2), oldChunk, chunkValue);
  if (newBlock)
    replaceStepInEnds(rewriter, forall, ivOf(1), oldBlock, blockValue);
  for (Value step : {oldChunk, oldBlock})
    if (Operation *def = step.getDefiningOp(); def && def->use_empty())
      rewriter.eraseOp(def);
}

struct QOpsDistributePass
    : public qops::impl::QOpsDistributeBase<QOpsDistributePass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> marked;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr(qkernel::kTileLoopsAttrName) ||
          loop->hasAttr(qkernel::kParallelLoopsAttrName))
        marked.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForOp loop : marked) {
      FailureOr<LoopNest> nest = matchLoopNest(loop);
      if (Attribute tiles = loop->getAttr(qkernel::kTileLoopsAttrName)) {
        FailureOr<TileFacts> facts = readFacts(tiles);
        if (failed(nest) || !isTileNest(*nest) || failed(facts)) {
          loop.emitError()
              << "'" << qkernel::kTileLoopsAttrName
              << "' marks a loop that is not a nest of tiles (batches x row "
                 "blocks x column chunks writing slices of their tensor) or "
                 "lacks panel_columns, column_chunk, min_tasks (positive; "
                 "tile_rows too where given)";
          return signalPassFailure();
        }
        distributeTiles(rewriter, *nest, *facts);
        continue;
      }
      if (failed(nest)) {
        loop.emitError() << "'" << qkernel::kParallelLoopsAttrName
                         << "' marks a loop that is not a nest whose "
                            "iterations write slices of its tensor";
        return signalPassFailure();
      }
      distributeAsIs(rewriter, *nest);
    }
  }
};

} // namespace
