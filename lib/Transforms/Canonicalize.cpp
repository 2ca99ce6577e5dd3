//===- Canonicalize.cpp - qops-canonicalize -------------------------------===//
//
// Upstream's canonicalizer with region simplification off, whose patterns
// the instances of one pipeline collect once (Passes.td). Upstream's pass
// builds its FrozenRewritePatternSet in initialize(), per instance, from
// every registered op: qops-lower-to-llvm has three, and the kernels'
// thread three more, each built before the first pass (the kernel thread's
// start) or on that thread.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <mutex>

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSCANONICALIZE
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

struct qops::CanonicalPatternsCache {
  std::mutex mutex;
  /// What the context had loaded and registered when `patterns` was built
  /// (both only grow, so equal counts are the same sets).
  size_t dialects = 0;
  size_t operations = 0;
  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};

namespace {

/// Upstream's canonicalizer's patterns: the loaded dialects', then the
/// registered ops', in the context's order.
std::shared_ptr<const FrozenRewritePatternSet>
collectPatterns(MLIRContext *context) {
  RewritePatternSet owning(context);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(owning);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(owning, context);
  return std::make_shared<const FrozenRewritePatternSet>(std::move(owning));
}

struct Canonicalize : qops::impl::QOpsCanonicalizeBase<Canonicalize> {
  Canonicalize() = default;
  explicit Canonicalize(std::shared_ptr<qops::CanonicalPatternsCache> cache)
      : cache(std::move(cache)) {}

  LogicalResult initialize(MLIRContext *context) override {
    if (!cache) {
      patterns = collectPatterns(context);
      return success();
    }
    size_t dialects = context->getLoadedDialects().size();
    size_t operations = context->getRegisteredOperations().size();
    std::lock_guard<std::mutex> lock(cache->mutex);
    if (!cache->patterns || cache->dialects != dialects ||
        cache->operations != operations) {
      cache->patterns = collectPatterns(context);
      cache->dialects = dialects;
      cache->operations = operations;
    }
    patterns = cache->patterns;
    return success();
  }

  void runOnOperation() override {
    // Canonicalization is best-effort: not converging is not a failure.
    (void)applyPatternsGreedily(
        getOperation(), *patterns,
        GreedyRewriteConfig().setRegionSimplificationLevel(
            GreedySimplifyRegionLevel::Disabled));
  }

  std::shared_ptr<qops::CanonicalPatternsCache> cache;
  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};

} // namespace

std::shared_ptr<qops::CanonicalPatternsCache>
qops::makeCanonicalPatternsCache() {
  return std::make_shared<CanonicalPatternsCache>();
}

std::unique_ptr<Pass>
qops::createQOpsCanonicalize(std::shared_ptr<CanonicalPatternsCache> cache) {
  return std::make_unique<Canonicalize>(std::move(cache));
}
