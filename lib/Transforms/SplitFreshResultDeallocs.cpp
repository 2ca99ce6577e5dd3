//===- SplitFreshResultDeallocs.cpp - qops-split-fresh-result-deallocs ----===//
//
// A call of a kernel lowered apart (qops-kernels-apart) returns a buffer
// the kernel allocated: its declaration carries qops.fresh_results. The
// ownership-based deallocation cannot see that (the callee has no body):
// a bufferization.dealloc that frees the call's result (its base buffer)
// beside other buffers, or retains values, may alias them as far as
// upstream's simplification knows, and its lowering then compares every
// pair at run time in a generic helper function (dealloc_helper: 365 LLVM
// instructions after -O3, 26 ms of instruction selection for a gemv whose
// kernel went apart, Zen 3). Here, before that simplification:
//
//   %r = call @k(..)                      (@k: qops.fresh_results)
//   %base, .. = memref.extract_strided_metadata %r
//   %o = bufferization.dealloc (%a, %base) if (%ca, %cr) retain (%y)
// becomes
//   %o = bufferization.dealloc (%a) if (%ca) retain (%y)
//   bufferization.dealloc (%base) if (%cr)
//
// when every other memref and retained value of the op is proven another
// buffer: its origin (through view-like ops and extract_strided_metadata)
// is a memref.alloc / alloca, a memref.get_global, an argument of the
// function, or another fresh result. A buffer the kernel allocated is none
// of those. The retained values' ownership results are unchanged: the
// split-off buffer aliases none of them.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSSPLITFRESHRESULTDEALLOCS
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

/// The value `memref` is a view of (through view-like ops and
/// extract_strided_metadata's base buffer), if that value is a known buffer:
/// an allocation, a global, an argument of the function (its entry block's:
/// another block's may carry anything), or a result of a
/// call of a function with qops.fresh_results. Null otherwise.
Value knownOrigin(Value memref) {
  while (true) {
    if (auto argument = dyn_cast<BlockArgument>(memref)) {
      Block *block = argument.getOwner();
      return block->isEntryBlock() &&
                     isa<FunctionOpInterface>(block->getParentOp())
                 ? memref
                 : Value();
    }
    Operation *def = memref.getDefiningOp();
    if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(def)) {
      memref = metadata.getSource();
      continue;
    }
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      memref = view.getViewSource();
      continue;
    }
    if (isa<memref::AllocOp, memref::AllocaOp, memref::GetGlobalOp>(def))
      return memref;
    if (auto call = dyn_cast<func::CallOp>(def)) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (callee && callee->hasAttr(qops::kFreshResultsAttr))
        return memref;
    }
    return Value();
  }
}

/// Whether `origin` is the result of a call with qops.fresh_results.
bool isFreshResult(Value origin) {
  return origin && isa_and_nonnull<func::CallOp>(origin.getDefiningOp());
}

/// What tells buffers of known origins apart: the call for a fresh result
/// (a callee returning one buffer twice is not excluded), the value
/// otherwise.
void *bufferKey(Value origin) {
  if (isFreshResult(origin))
    return origin.getDefiningOp();
  return origin.getAsOpaquePointer();
}

struct SplitFreshResults : OpRewritePattern<bufferization::DeallocOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(bufferization::DeallocOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getMemrefs().size() + op.getRetained().size() < 2)
      return failure();
    // The memrefs' origins first (index i: memref i), then the retained
    // values'.
    SmallVector<Value> origins;
    SmallVector<void *> keys;
    for (Value value : llvm::concat<Value>(op.getMemrefs(), op.getRetained())) {
      origins.push_back(knownOrigin(value));
      keys.push_back(bufferKey(origins.back()));
    }
    // Split off the fresh results whose buffer no other operand shares;
    // every other operand must have a known origin.
    if (llvm::is_contained(origins, Value()))
      return failure();
    SmallVector<Value> keptMemrefs, keptConditions;
    SmallVector<std::pair<Value, Value>> split;
    for (auto [index, memref] : llvm::enumerate(op.getMemrefs())) {
      Value condition = op.getConditions()[index];
      if (isFreshResult(origins[index]) && llvm::count(keys, keys[index]) == 1)
        split.emplace_back(memref, condition);
      else {
        keptMemrefs.push_back(memref);
        keptConditions.push_back(condition);
      }
    }
    if (split.empty())
      return failure();
    Location loc = op.getLoc();
    auto kept = bufferization::DeallocOp::create(
        rewriter, loc, keptMemrefs, keptConditions, op.getRetained());
    for (auto [memref, condition] : split)
      bufferization::DeallocOp::create(rewriter, loc, memref, condition,
                                       ValueRange{});
    rewriter.replaceOp(op, kept);
    return success();
  }
};

struct QOpsSplitFreshResultDeallocsPass
    : public qops::impl::QOpsSplitFreshResultDeallocsBase<
          QOpsSplitFreshResultDeallocsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SplitFreshResults>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
