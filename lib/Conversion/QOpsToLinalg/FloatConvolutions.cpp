//===- FloatConvolutions.cpp - float Conv as patches x weights ------------===//
//
// The float 2-D convolution the importer writes for ONNX Conv (f32 / f64,
// group 1: linalg.conv_2d_nchw_fchw, its init a linalg.fill) as a matrix
// product that the float kernel (FloatMatMulKernel.cpp) takes:
//
//   xp [N, C, Hp, Wp] (x, padded), w [F, C, KH, KW], strides s, dilations d
//   P = OH * OW, K = C * KH * KW
//   a[n * P + oh * OW + ow, (c * KH + kh) * KW + kw]
//       = xp[n, c, oh * sh + kh * dh, ow * sw + kw * dw]      (the patches)
//   b[(c * KH + kh) * KW + kw, f] = w[f, c, kh, kw]          (w^T, constant)
//   t = linalg.matmul(a, b) outs(fill(v) [N * P, F])
//   y[n, f, oh, ow] = t[n * P + oh * OW + ow, f]             (a transpose)
//
// The patches are the rows of a (read in place by the kernel's tiles) and
// w^T is its b: with constant weights, b's packed panels are a constant
// expression, packed once. The kernel sums each output in increasing k from
// the fill's value, a product rounded then added: k = (c, kh, kw) in the
// order the convolution's loops take them, so every result is bit-identical
// to the loops it replaces (docs/Numerics.md).
//
// The IR, for x 1x64x58x58 (padded), w 64x64x3x3:
//
//   %p = linalg.generic {maps (n, oh, ow, c, kh, kw) ->
//          xp: (n, c, oh + kh, ow + kw), out: identity}
//          ins(%xp) outs(tensor<1x56x56x64x3x3xf32>)
//   %a = tensor.collapse_shape %p [[0, 1, 2], [3, 4, 5]] : tensor<3136x576xf32>
//   %b = linalg.transpose ins(collapse_shape %w [[0], [1, 2, 3]])
//          permutation = [1, 0] : tensor<576x64xf32>
//   %t = linalg.matmul ins(%a, %b) outs(fill(0.0) : tensor<3136x64xf32>)
//   %y = expand_shape(linalg.transpose(expand_shape %t [[0, 1], [2]])
//          permutation = [0, 2, 1]) [[0], [1], [2, 3]] : tensor<1x64x56x56xf32>
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"
#include "QuantOps/Conversion/QOpsToLinalg/QuantMath.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::qops;

namespace {

/// The patches of xp as the rows of a [N * P, K] (the file comment's a).
Value gatherPatches(OpBuilder &b, Location loc, Value xp,
                    ArrayRef<int64_t> outSpatial, ArrayRef<int64_t> kernel,
                    ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations) {
  auto xType = cast<RankedTensorType>(xp.getType());
  int64_t c = xType.getDimSize(1);
  SmallVector<OpFoldResult> sizes = {tensor::getMixedSize(b, loc, xp, 0)};
  for (int64_t size : {outSpatial[0], outSpatial[1], c, kernel[0], kernel[1]})
    sizes.push_back(b.getIndexAttr(size));
  Value init = tensor::EmptyOp::create(b, loc, sizes, xType.getElementType());
  MLIRContext *ctx = b.getContext();
  AffineExpr n, oh, ow, ch, kh, kw;
  bindDims(ctx, n, oh, ow, ch, kh, kw);
  auto read = AffineMap::get(6, 0,
                             {n, ch, oh * strides[0] + kh * dilations[0],
                              ow * strides[1] + kw * dilations[1]},
                             ctx);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{xp}, ValueRange{init},
      ArrayRef<AffineMap>{read, b.getMultiDimIdentityMap(6)},
      SmallVector<utils::IteratorType>(6, utils::IteratorType::parallel),
      [](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(nb, l, args[0]);
      });
  int64_t rows = xType.isDynamicDim(0)
                     ? ShapedType::kDynamic
                     : xType.getDimSize(0) * outSpatial[0] * outSpatial[1];
  auto aType = RankedTensorType::get({rows, c * kernel[0] * kernel[1]},
                                     xType.getElementType());
  return tensor::CollapseShapeOp::create(
             b, loc, aType, generic.getResult(0),
             ArrayRef<ReassociationIndices>{{0, 1, 2}, {3, 4, 5}})
      .getResult();
}

struct Conv2DAsMatMul : OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::Conv2DNchwFchwOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    Value xp = op.getInputs()[0], w = op.getInputs()[1];
    auto xType = cast<RankedTensorType>(xp.getType());
    auto wType = cast<RankedTensorType>(w.getType());
    auto yType = cast<RankedTensorType>(op->getResult(0).getType());
    Type element = yType.getElementType();
    if ((!element.isF32() && !element.isF64()) ||
        xType.getElementType() != element || wType.getElementType() != element)
      return rewriter.notifyMatchFailure(op, "not f32 or f64 throughout");
    if (!wType.hasStaticShape() ||
        llvm::any_of(xType.getShape().drop_front(), ShapedType::isDynamic) ||
        llvm::any_of(yType.getShape().drop_front(), ShapedType::isDynamic))
      return rewriter.notifyMatchFailure(op, "dynamic sizes besides N");
    auto fill = op.getOutputs()[0].getDefiningOp<linalg::FillOp>();
    if (!fill)
      return rewriter.notifyMatchFailure(op, "its init is not a fill");
    SmallVector<int64_t> strides(op.getStrides().getValues<int64_t>());
    SmallVector<int64_t> dilations(op.getDilations().getValues<int64_t>());

    Location loc = op.getLoc();
    OpFoldResult batchSize = tensor::getMixedSize(rewriter, loc, xp, 0);
    ArrayRef<int64_t> outSpatial = yType.getShape().drop_front(2);
    Value a = gatherPatches(rewriter, loc, xp, outSpatial,
                            wType.getShape().drop_front(2), strides,
                            dilations);
    int64_t f = wType.getDimSize(0), k = wType.getNumElements() / f;
    Value wFlat = tensor::CollapseShapeOp::create(
        rewriter, loc, RankedTensorType::get({f, k}, element), w,
        ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
    Value bT = emitTranspose(rewriter, loc, wFlat, {1, 0});

    int64_t p = outSpatial[0] * outSpatial[1];
    Value tInit = tensor::EmptyOp::create(
        rewriter, loc,
        {tensor::getMixedSize(rewriter, loc, a, 0), rewriter.getIndexAttr(f)},
        element);
    Value zero = linalg::FillOp::create(rewriter, loc, fill.getInputs()[0],
                                        tInit)
                     .getResult(0);
    Value t = linalg::MatmulOp::create(rewriter, loc, zero.getType(),
                                       ValueRange{a, bT}, ValueRange{zero})
                  .getResult(0);

    // t [N * P, F] -> [N, P, F] -> [N, F, P] -> y [N, F, OH, OW].
    int64_t n = yType.getDimSize(0);
    SmallVector<OpFoldResult> npf = {batchSize, rewriter.getIndexAttr(p),
                                     rewriter.getIndexAttr(f)};
    Value t3 = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get({n, p, f}, element), t,
        ArrayRef<ReassociationIndices>{{0, 1}, {2}}, npf);
    Value yt = emitTranspose(rewriter, loc, t3, {0, 2, 1});
    SmallVector<OpFoldResult> nfhw = {batchSize, rewriter.getIndexAttr(f),
                                      rewriter.getIndexAttr(outSpatial[0]),
                                      rewriter.getIndexAttr(outSpatial[1])};
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, yType, yt, ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}}, nfhw);
    return success();
  }
};

} // namespace

void mlir::qops::populateFloatConvolutionPatterns(RewritePatternSet &patterns) {
  patterns.add<Conv2DAsMatMul>(patterns.getContext());
}
