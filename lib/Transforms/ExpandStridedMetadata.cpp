//===- ExpandStridedMetadata.cpp - qops-expand-strided-metadata -----------===//
//
// Upstream's expand-strided-metadata patterns, applied without the greedy
// driver's region simplification (Passes.td). The driver otherwise ends
// every sweep with a dead-code and block-merging walk of the whole module,
// which these patterns never give work: QMM_bert_constB's lowering, 4.4 M
// of its 115 M instructions with qops-vector-to-scf's twin
// (docs/Performance.md, "Upstream's greedy passes without their region
// walk").
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSEXPANDSTRIDEDMETADATA
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

struct ExpandStridedMetadata
    : qops::impl::QOpsExpandStridedMetadataBase<ExpandStridedMetadata> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    memref::populateExpandStridedMetadataPatterns(patterns);
    (void)applyPatternsGreedily(
        getOperation(), std::move(patterns),
        GreedyRewriteConfig().setRegionSimplificationLevel(
            GreedySimplifyRegionLevel::Disabled));
  }
};

} // namespace
