//===- DecomposeContractions.cpp - the qops-decompose-contractions pass ---===//
//
// The engine's first stage: each integer contraction op becomes
// qkernel.matmul, the one contraction the later stages read
// (convert-qops-to-linalg's gemv, packed kernel and generic form):
//
//   acc[.., m, n] = sum_k (a[.., m, k] - a_zp) (b[.., k, n] - b_zp)
//   y = acc                                           MatMulInteger
//   y = saturate(round(acc * a_scale * b_scale / y_scale) + y_zp)
//                                                     QLinearMatMul
//
// Both ONNX ops already have this form, so their patterns only move the
// operands; the convolutions, which become one on the patches of x, are in
// DecomposeConvolutions.cpp.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Conversion/Passes.h"
#include "QuantOps/Target/TargetAttr.h"
#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"

#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSDECOMPOSECONTRACTIONS
#include "QuantOps/Conversion/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;
using namespace mlir::qops;

namespace {

/// QLinearMatMul: the contraction of a and b with their zero points, y's
/// parameters as the requantization.
struct DecomposeQLinearMatMul : OpRewritePattern<QLinearMatMulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QLinearMatMulOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<qkernel::MatMulOp>(
        op, op.getY().getType(), op.getA(), op.getAZeroPoint(), op.getB(),
        op.getBZeroPoint(), op.getAScale(), op.getBScale(), op.getYScale(),
        op.getYZeroPoint(), Value(), Value(), Value());
    return success();
  }
};

/// MatMulInteger: the contraction alone (y = acc, i32), or with its fused
/// dequantize clause (y = f32(acc) * scale [+ offset], per column).
struct DecomposeMatMulInteger : OpRewritePattern<MatMulIntegerOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatMulIntegerOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<qkernel::MatMulOp>(
        op, op.getY().getType(), op.getA(), op.getAZeroPoint(), op.getB(),
        op.getBZeroPoint(), Value(), Value(), Value(), Value(), Value(),
        op.getDequantScale(), op.getDequantOffset());
    return success();
  }
};

struct DecomposeContractionsPass
    : public qops::impl::QOpsDecomposeContractionsBase<
          DecomposeContractionsPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    std::optional<Int8KernelStrategy> strategy;
    if (std::optional<ConfiguredTarget> configured =
            getConfiguredTarget(getOperation()))
      strategy = configured->int8Strategy;
    populateDecomposeContractionsPatterns(patterns, strategy, maxDenseGroups);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace

void qops::populateDecomposeContractionsPatterns(
    RewritePatternSet &patterns,
    std::optional<Int8KernelStrategy> strategy, int64_t maxDenseGroups) {
  patterns.add<DecomposeQLinearMatMul, DecomposeMatMulInteger>(
      patterns.getContext());
  populateDecomposeConvolutionsPatterns(patterns, strategy, maxDenseGroups);
}
