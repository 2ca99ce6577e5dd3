//===- FuseDynamicQuantization.cpp - ORT's dynamic layers, fused ----------===//
//
// onnxruntime.quantization.quantize_dynamic writes every quantized layer as
//
//   DynamicQuantizeLinear(x) -> ConvInteger | MatMulInteger -> Cast(float)
//     -> Mul(s) -> [Add(o)]          s = x_scale * w_scale, o = the bias
//
// and the importer makes the float glue elementwise linalg.generics (one
// arith op each). This pattern of qops-fuse-qdq folds Cast, Mul and Add into
// the integer op's dequantize clause (one pass over the sums, in the
// contraction's epilogue):
//
//   y = f32(acc) * s [+ o]           qops.conv_integer / qops.matmul_integer
//                                    ... dequantize(s [, o]) -> f32
//
// rounded at each step as the three ops are (no fused multiply-add), so
// the fused op gives the unfused graph's bits. `s` and `o` must have one
// element, or vary along y's output channel only (conv: dim 1, matmul: the
// last dim, with a b of rank >= 2): they become rank 0 or [C]. The sums
// and the Cast must have no other users.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "FuseQDQUtils.h"

#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::qops;
using namespace mlir::qops::fuse;

namespace {

/// The integer op whose sums `value` is the Cast of (sitofp to f32, one
/// use each), without a dequantize clause yet; null otherwise.
Operation *getCastSums(Value value) {
  auto cast = value.getDefiningOp<linalg::GenericOp>();
  if (!getElementwiseOp<arith::SIToFPOp>(cast, 1) || !value.hasOneUse() ||
      !cast.getIndexingMapsArray()[0].isIdentity() ||
      !tensorTypeOf(value).getElementType().isF32())
    return nullptr;
  Value sums = cast.getDpsInputs()[0];
  Operation *op = sums.getDefiningOp();
  if (!sums.hasOneUse() || !tensorTypeOf(sums).hasStaticShape())
    return nullptr;
  if (auto conv = dyn_cast_or_null<ConvIntegerOp>(op))
    return conv.getDequantScale() ? nullptr : op;
  auto matmul = dyn_cast_or_null<MatMulIntegerOp>(op);
  if (!matmul || matmul.getDequantScale() ||
      tensorTypeOf(matmul.getB()).getRank() < 2)
    return nullptr;
  return op;
}

/// `param`, read through `map` by a generic over y, as a dequantize operand:
/// rank 0 when it has one element, [C] when it varies along y's dim
/// `channel` alone (a static 1 elsewhere); null otherwise.
///   tensor.collapse_shape %param [] or [[0, .., r - 1]]
Value asChannelParam(PatternRewriter &rewriter, Location loc, Value param,
                     AffineMap map, RankedTensorType yType, int64_t channel) {
  RankedTensorType type = tensorTypeOf(param);
  if (!type.hasStaticShape() || !type.getElementType().isF32())
    return {};
  if (type.getNumElements() == 1)
    return collapseToScalar(rewriter, loc, param);
  int64_t varying = 0;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (type.getDimSize(d) == 1)
      continue;
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(d));
    if (!dim || (int64_t)dim.getPosition() != channel ||
        type.getDimSize(d) != yType.getDimSize(channel))
      return {};
    ++varying;
  }
  if (varying != 1)
    return {};
  if (type.getRank() == 1)
    return param;
  ReassociationIndices all =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  return tensor::CollapseShapeOp::create(
      rewriter, loc,
      RankedTensorType::get({type.getNumElements()}, type.getElementType()),
      param, ArrayRef<ReassociationIndices>{all});
}

/// The elementwise `ArithOp` generic of (`value`, param) or (param, value)
/// with `value` read whole (identity map); returns the param's operand
/// number, or -1.
template <typename ArithOp>
int getParamOperand(linalg::GenericOp generic, Value value) {
  if (!getElementwiseOp<ArithOp>(generic, 2))
    return -1;
  for (int i = 0; i < 2; ++i)
    if (generic.getDpsInputs()[i] == value &&
        generic.getIndexingMapsArray()[i].isIdentity() &&
        generic.getDpsInputs()[1 - i] != value)
      return 1 - i;
  return -1;
}

/// Cast -> Mul -> [Add] after ConvInteger / MatMulInteger, rooted at the
/// Mul; the Add is taken when it is the Mul's one user.
struct FuseDynamicDequantize : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp mul,
                                PatternRewriter &rewriter) const override {
    if (!getElementwiseOp<arith::MulFOp>(mul, 2))
      return failure();
    for (int castInput = 0; castInput < 2; ++castInput) {
      Value cast = mul.getDpsInputs()[castInput];
      Operation *sums = getCastSums(cast);
      if (!sums || getParamOperand<arith::MulFOp>(mul, cast) != 1 - castInput ||
          tensorTypeOf(mul.getResult(0)).getShape() !=
              tensorTypeOf(cast).getShape())
        continue;
      return fuse(mul, sums, 1 - castInput, rewriter);
    }
    return failure();
  }

  LogicalResult fuse(linalg::GenericOp mul, Operation *sums, int scaleInput,
                     PatternRewriter &rewriter) const {
    Location loc = sums->getLoc();
    auto yType = tensorTypeOf(mul.getResult(0));
    int64_t channel = isa<ConvIntegerOp>(sums) ? 1 : yType.getRank() - 1;
    auto paramOf = [&](linalg::GenericOp generic, int input) {
      return asChannelParam(rewriter, loc, generic.getDpsInputs()[input],
                            generic.getIndexingMapsArray()[input], yType,
                            channel);
    };
    // The optional Add, when it adds a parameter to the Mul's result.
    linalg::GenericOp add;
    int offsetInput = -1;
    if (mul->hasOneUse()) {
      add = dyn_cast<linalg::GenericOp>(*mul->getUsers().begin());
      offsetInput = getParamOperand<arith::AddFOp>(add, mul.getResult(0));
    }
    rewriter.setInsertionPoint(mul);
    Value scale = paramOf(mul, scaleInput);
    if (!scale)
      return rewriter.notifyMatchFailure(mul, "the scale is not per channel");
    Value offset;
    if (offsetInput >= 0) {
      rewriter.setInsertionPoint(add);
      offset = paramOf(add, offsetInput);
    }
    Operation *root = offset ? add.getOperation() : mul.getOperation();
    rewriter.setInsertionPoint(root);
    Value fused;
    if (auto conv = dyn_cast<ConvIntegerOp>(sums))
      fused = ConvIntegerOp::create(
          rewriter, conv.getLoc(), yType, conv.getX(), conv.getXZeroPoint(),
          conv.getW(), conv.getWZeroPoint(), scale, offset,
          conv.getStridesAttr(), conv.getDilationsAttr(), conv.getPadsAttr(),
          conv.getGroupAttr());
    else {
      auto matmul = cast<MatMulIntegerOp>(sums);
      fused = MatMulIntegerOp::create(
          rewriter, matmul.getLoc(), yType, matmul.getA(),
          matmul.getAZeroPoint(), matmul.getB(), matmul.getBZeroPoint(), scale,
          offset);
    }
    rewriter.replaceOp(root, fused);
    return success();
  }
};

} // namespace

void qops::populateFuseDynamicQuantizationPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FuseDynamicDequantize>(patterns.getContext());
}
