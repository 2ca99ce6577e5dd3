//===- VectorToSCF.cpp - qops-vector-to-scf -------------------------------===//
//
// Upstream's convert-vector-to-scf with its default options (one dimension
// at a time, not unrolled, memrefs only, no scalable vectors): its two
// pattern sets in its order, each applied without the greedy driver's
// region simplification (Passes.td; see ExpandStridedMetadata.cpp).
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSVECTORTOSCF
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

GreedyRewriteConfig withoutRegionSimplification() {
  return GreedyRewriteConfig().setRegionSimplificationLevel(
      GreedySimplifyRegionLevel::Disabled);
}

struct VectorToSCF : qops::impl::QOpsVectorToSCFBase<VectorToSCF> {
  void runOnOperation() override {
    RewritePatternSet permutationMaps(&getContext());
    vector::populateVectorTransferPermutationMapLoweringPatterns(
        permutationMaps);
    (void)applyPatternsGreedily(getOperation(), std::move(permutationMaps),
                                withoutRegionSimplification());
    RewritePatternSet transfers(&getContext());
    populateVectorToSCFConversionPatterns(transfers,
                                          VectorTransferToSCFOptions());
    (void)applyPatternsGreedily(getOperation(), std::move(transfers),
                                withoutRegionSimplification());
  }
};

} // namespace
