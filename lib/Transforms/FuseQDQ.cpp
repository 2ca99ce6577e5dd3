//===- FuseQDQ.cpp - the qops-fuse-qdq pass -------------------------------===//
//
// QDQ models spell a quantized matmul as DequantizeLinear -> float MatMul ->
// QuantizeLinear. Two patterns (formulas in Passes.td and docs/Numerics.md):
//
//   FuseQDQMatMul        Q(matmul(DQ(a), DQ(b))) -> qops.qlinear_matmul
//   FuseDQMatMulToFloat  matmul(DQ(a), DQ(b)), no Q after it
//                        -> qops.matmul_integer with a dequantize clause
//
// (LLM weights, a blocked 2/4/8-bit DequantizeLinear feeding a float
// MatMul, need no fusion: the float kernel reads the integers and
// dequantizes them in registers, with the unfused graph's numbers;
// FloatMatMulWeights.cpp.)
// and the dynamic-quantization one of FuseDynamicQuantization.cpp, the QDQ
// convolution's of FuseQDQConvolution.cpp.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"
#include "QuantOps/Dialect/QOps/IR/QuantParams.h"
#include "QuantOps/Conversion/QOpsToLinalg/QuantMath.h"

#include "FuseQDQUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSFUSEQDQ
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;
using namespace mlir::qops;
using namespace mlir::qops::fuse;

namespace {

/// Collapsing [..., M, K] into rows [prod(...) * M, K] (the importer's N-D
/// MatMul): every dim but the last in the first group.
bool collapsesLeadingDims(ArrayRef<ReassociationIndices> groups,
                          int64_t rank) {
  return groups.size() == 2 && (int64_t)groups[0].size() == rank - 1 &&
         groups[1].size() == 1;
}

//===----------------------------------------------------------------------===//
// Q(matmul(DQ(a), DQ(b))) -> qlinear_matmul
//===----------------------------------------------------------------------===//

struct FuseQDQMatMul : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QuantizeLinearOp quantize,
                                PatternRewriter &rewriter) const override {
    // Q: ui8/si8 output, one f32 scale.
    if (!isPerTensorInt8Quantize(quantize))
      return rewriter.notifyMatchFailure(quantize, "not a per-tensor int8 Q");
    Type yType = tensorTypeOf(quantize.getY()).getElementType();

    // Q's input: the matmul, maybe expanded back from rows.
    Value product = quantize.getX();
    auto expand = product.getDefiningOp<tensor::ExpandShapeOp>();
    if (expand) {
      if (!expand->hasOneUse())
        return failure();
      product = expand.getSrc();
    }
    auto matmul = product.getDefiningOp<linalg::MatmulOp>();
    if (!matmul || !matmul->hasOneUse() || !matmul.hasPureTensorSemantics() ||
        !isZeroFilled(matmul.getDpsInits()[0]))
      return rewriter.notifyMatchFailure(quantize, "not Q(linalg.matmul)");
    if (matmul.hasUserDefinedMaps())
      return rewriter.notifyMatchFailure(quantize, "transposed matmul");

    // The lhs: DQ(a), maybe collapsed into rows.
    Value lhs = matmul.getInputs()[0];
    auto collapse = lhs.getDefiningOp<tensor::CollapseShapeOp>();
    if (collapse)
      lhs = collapse.getSrc();
    if (static_cast<bool>(collapse) != static_cast<bool>(expand))
      return rewriter.notifyMatchFailure(quantize, "rows not restored");
    auto dqA = lhs.getDefiningOp<DequantizeLinearOp>();
    auto dqB = matmul.getInputs()[1].getDefiningOp<DequantizeLinearOp>();
    if (!dqA || !dqB)
      return rewriter.notifyMatchFailure(quantize, "operands are not DQ");
    if (collapse) {
      int64_t rank = tensorTypeOf(lhs).getRank();
      if (!collapsesLeadingDims(collapse.getReassociationIndices(), rank) ||
          expand.getReassociationIndices() !=
              collapse.getReassociationIndices())
        return rewriter.notifyMatchFailure(quantize, "not a row collapse");
    }

    // DQ(a): per-tensor; DQ(b): per-tensor or per-column. Int8 data, f32
    // scales, f32 results.
    if (!isInt8Dequantize(dqA) || !isInt8Dequantize(dqB, /*axis=*/1))
      return rewriter.notifyMatchFailure(quantize,
                                         "not int8 f32 DQs per tensor / column");

    Location loc = quantize.getLoc();
    Value zeroA = getZeroPointOrZero(rewriter, loc, dqA.getXZeroPoint(),
                                     tensorTypeOf(dqA.getX()).getElementType());
    Value zeroB = getZeroPointOrZero(rewriter, loc, dqB.getXZeroPoint(),
                                     tensorTypeOf(dqB.getX()).getElementType());
    Value zeroY = getZeroPointOrZero(rewriter, loc, quantize.getYZeroPoint(),
                                     yType);
    auto fused = QLinearMatMulOp::create(
        rewriter, loc, quantize.getY().getType(), dqA.getX(), dqA.getXScale(),
        zeroA, dqB.getX(), dqB.getXScale(), zeroB, quantize.getYScale(),
        zeroY);
    rewriter.replaceOp(quantize, fused.getY());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// matmul(DQ(a), DQ(b)) with a float result -> matmul_integer dequantize
//===----------------------------------------------------------------------===//

/// Whether `value` (a matmul's result, or its expand back from rows) is
/// quantized: then FuseQDQMatMul makes the whole a qlinear_matmul.
bool feedsQuantize(Value value) {
  return llvm::any_of(value.getUsers(), [](Operation *user) {
    if (isa<QuantizeLinearOp>(user))
      return true;
    auto expand = dyn_cast<tensor::ExpandShapeOp>(user);
    return expand && feedsQuantize(expand.getResult());
  });
}

/// The scale product sa * sb (sb one element or [N]) as one linalg.generic
/// of sb's shape (rank 0 when one element):
///   linalg.generic ins(sa, sb) outs(tensor.empty) { mulf }
Value emitScaleProduct(PatternRewriter &rewriter, Location loc, Value sa,
                       Value sb) {
  sa = collapseToScalar(rewriter, loc, sa);
  if (hasSingleElement(tensorTypeOf(sb)))
    sb = collapseToScalar(rewriter, loc, sb);
  RankedTensorType type = tensorTypeOf(sb);
  int64_t rank = type.getRank();
  MLIRContext *ctx = rewriter.getContext();
  Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                       type.getElementType());
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  SmallVector<utils::IteratorType> parallel(rank,
                                            utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             rewriter, loc, type, ValueRange{sa, sb}, ValueRange{init},
             ArrayRef<AffineMap>{AffineMap::get(rank, 0, ctx), identity,
                                 identity},
             parallel,
             [](OpBuilder &b, Location l, ValueRange args) {
               linalg::YieldOp::create(
                   b, l, ValueRange{arith::MulFOp::create(b, l, args[0],
                                                          args[1])});
             })
      .getResult(0);
}

/// DQ(a) x DQ(b) whose f32 result is not quantized again (the last layer
/// of a QDQ model, ONNX Runtime's MatMulIntegerToFloat):
///   y = f32(sum_k (a - za)(b - zb)) * fl(sa * sb)
/// as matmul_integer with the dequantize clause; a per tensor, b per tensor
/// or per column; the importer's row collapse of an N-D a is looked
/// through as in FuseQDQMatMul.
struct FuseDQMatMulToFloat : OpRewritePattern<linalg::MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::MatmulOp matmul,
                                PatternRewriter &rewriter) const override {
    if (!matmul.hasPureTensorSemantics() || matmul.hasUserDefinedMaps() ||
        !isZeroFilled(matmul.getDpsInits()[0]) ||
        !tensorTypeOf(matmul.getResult(0)).getElementType().isF32())
      return failure();
    Value result = matmul.getResult(0);
    Operation *root = matmul;
    Value lhs = matmul.getInputs()[0];
    auto collapse = lhs.getDefiningOp<tensor::CollapseShapeOp>();
    if (collapse) {
      auto expand = result.hasOneUse()
                        ? dyn_cast<tensor::ExpandShapeOp>(*result.user_begin())
                        : nullptr;
      int64_t rank = tensorTypeOf(collapse.getSrc()).getRank();
      if (!expand ||
          !collapsesLeadingDims(collapse.getReassociationIndices(), rank) ||
          expand.getReassociationIndices() !=
              collapse.getReassociationIndices())
        return rewriter.notifyMatchFailure(matmul, "rows not restored");
      root = expand;
      lhs = collapse.getSrc();
    }
    if (feedsQuantize(root->getResult(0)))
      return rewriter.notifyMatchFailure(matmul, "quantized: a qlinear_matmul");
    auto dqA = lhs.getDefiningOp<DequantizeLinearOp>();
    auto dqB = matmul.getInputs()[1].getDefiningOp<DequantizeLinearOp>();
    if (!dqA || !dqB)
      return rewriter.notifyMatchFailure(matmul, "operands are not DQ");
    if (!isInt8Dequantize(dqA) || !isInt8Dequantize(dqB, /*axis=*/1))
      return rewriter.notifyMatchFailure(matmul,
                                         "not int8 f32 DQs per tensor / column");
    Location loc = matmul.getLoc();
    rewriter.setInsertionPoint(root);
    Value scale =
        emitScaleProduct(rewriter, loc, dqA.getXScale(), dqB.getXScale());
    auto fused = MatMulIntegerOp::create(
        rewriter, loc, root->getResult(0).getType(), dqA.getX(),
        dqA.getXZeroPoint(), dqB.getX(), dqB.getXZeroPoint(), scale,
        Value());
    rewriter.replaceOp(root, fused.getY());
    return success();
  }
};

struct QOpsFuseQDQPass
    : public qops::impl::QOpsFuseQDQBase<QOpsFuseQDQPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseQDQMatMul, FuseDQMatMulToFloat>(
        &getContext());
    populateFuseDynamicQuantizationPatterns(patterns);
    populateFuseQDQConvolutionPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
