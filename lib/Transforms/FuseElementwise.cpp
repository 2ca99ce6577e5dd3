//===- FuseElementwise.cpp - qops-fuse-elementwise ------------------------===//
//
// Chains of elementwise linalg.generic ops (a graph's float glue, one op per
// ONNX node) fused into one loop: Passes.td has the conditions and the IR
// before and after.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSFUSEELEMENTWISE
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

/// Every loop parallel, every map a projected permutation (an input may read
/// a broadcast unit dim at index 0), on tensors.
bool isPlainElementwise(linalg::GenericOp op) {
  return op.hasPureTensorSemantics() &&
         op.getNumLoops() == op.getNumParallelLoops() &&
         llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
           return map.isProjectedPermutation(/*allowZeroInResults=*/true);
         });
}

/// Whether `operand` of a generic is the one result of a plain elementwise
/// producer with one use, at least one loop and a non-constant input, in
/// the consumer's block, read through a permutation by a plain elementwise
/// consumer.
bool shouldFuse(OpOperand &operand) {
  auto consumer = dyn_cast<linalg::GenericOp>(operand.getOwner());
  auto producer = operand.get().getDefiningOp<linalg::GenericOp>();
  if (!consumer || !producer || producer->getNumResults() != 1 ||
      !producer->hasOneUse() || producer.getNumLoops() == 0 ||
      !consumer.isDpsInput(&operand) ||
      producer->getBlock() != consumer->getBlock())
    return false;
  // A producer of constants alone is qops-hoist-constant-expressions' to
  // compute once; fused, it would run at every call.
  if (llvm::all_of(producer.getDpsInputs(), [](Value input) {
        return matchPattern(input, m_Constant());
      }))
    return false;
  return isPlainElementwise(producer) && isPlainElementwise(consumer) &&
         consumer.getMatchingIndexingMap(&operand).isPermutation() &&
         linalg::areElementwiseOpsFusable(&operand);
}

struct FuseProducers : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    for (OpOperand &operand : consumer->getOpOperands()) {
      if (!shouldFuse(operand))
        continue;
      Operation *producer = operand.get().getDefiningOp();
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, &operand);
      if (failed(fused))
        continue;
      for (auto [original, replacement] : fused->replacements)
        rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
          return use.getOwner() != consumer.getOperation();
        });
      rewriter.eraseOp(consumer);
      if (producer->use_empty())
        rewriter.eraseOp(producer);
      return success();
    }
    return failure();
  }
};

struct QOpsFuseElementwisePass
    : public qops::impl::QOpsFuseElementwiseBase<QOpsFuseElementwisePass> {
  void runOnOperation() override {
    // Nothing to fuse (a model of contractions alone): no driver, whose
    // walks, folds and region simplification cost FFN12 32 ms for nothing;
    // the canonicalizer after this pass folds.
    WalkResult found = getOperation().walk([](linalg::GenericOp op) {
      for (OpOperand &operand : op->getOpOperands())
        if (shouldFuse(operand))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (!found.wasInterrupted())
      return;
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseProducers>(&getContext());
    // An optimization: whatever the driver reaches is valid IR. Regions are
    // the canonicalizer's to simplify.
    (void)applyPatternsGreedily(
        getOperation(), std::move(patterns),
        GreedyRewriteConfig().setRegionSimplificationLevel(
            GreedySimplifyRegionLevel::Disabled));
  }
};

} // namespace
