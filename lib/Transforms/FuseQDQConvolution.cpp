//===- FuseQDQConvolution.cpp - QDQ convolutions as QLinearConv -----------===//
//
// ONNX Runtime's quantize_static writes a quantized convolution in QDQ form:
//
//   Q(Conv(DQ(x), DQ(w), DQ(B)), y_scale, y_zp)
//     x per tensor, w per tensor or per output channel (axis 0), B int32
//     with scale x_scale * w_scale[m] and zero point 0
//
// and the importer makes the float Conv tensor.pad (0.0) + a linalg named
// convolution (grouped: expand_shape around conv_2d_ngchw_gfchw and a
// collapse_shape after it) + a linalg.generic adding B[m]. This pattern of
// qops-fuse-qdq makes the whole qops.qlinear_conv:
//
//   y = saturate(round(acc * (x_scale * w_scale[m] / y_scale)) + y_zp),
//   acc = sum (x - x_zp)(w - w_zp[m]) + B[m]  exact in i32
//
// Padding x with 0.0 after DQ is padding it with x_zp before. B's scale
// must equal fl(x_scale * w_scale[m]) bit for bit (x's and w's scales
// constants), else nothing is fused. The numerics change as with the QDQ
// matmul (docs/Numerics.md): one exact rounding instead of f32 sums.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "FuseQDQUtils.h"


#include <cstring>

using namespace mlir;
using namespace mlir::qops;
using namespace mlir::qops::fuse;

namespace {

/// A float convolution as the importer writes it: its input (maybe padded
/// with 0.0), weights, strides, dilations, pads and group.
struct FloatConv {
  Value x, w;
  SmallVector<int64_t> strides, dilations, pads;
  int64_t group = 1;
};

SmallVector<int64_t> toVector(DenseIntElementsAttr attr) {
  return llvm::to_vector(llvm::map_range(
      attr.getValues<APInt>(), [](const APInt &v) { return v.getSExtValue(); }));
}

/// The named convolution producing `y` (one use, zero init) with its
/// attributes; grouped: the 2-D grouped op between expand/collapse_shape.
std::optional<FloatConv> matchNamedConv(Value y) {
  Value product = y;
  auto collapse = y.getDefiningOp<tensor::CollapseShapeOp>();
  if (collapse)
    product = collapse.getSrc();
  Operation *op = product.getDefiningOp();
  if (!op || !product.hasOneUse())
    return std::nullopt;
  FloatConv conv;
  auto read = [&](auto named) {
    conv.x = named.getInputs()[0];
    conv.w = named.getInputs()[1];
    conv.strides = toVector(named.getStrides());
    conv.dilations = toVector(named.getDilations());
    return isZeroFilled(named.getDpsInits()[0]);
  };
  bool ok = false;
  if (auto c = dyn_cast<linalg::Conv1DNcwFcwOp>(op); c && !collapse)
    ok = read(c);
  else if (auto c = dyn_cast<linalg::Conv2DNchwFchwOp>(op); c && !collapse)
    ok = read(c);
  else if (auto c = dyn_cast<linalg::Conv3DNcdhwFcdhwOp>(op); c && !collapse)
    ok = read(c);
  else if (auto c = dyn_cast<linalg::Conv2DNgchwGfchwOp>(op); c && collapse) {
    ok = read(c);
    auto xExpand = conv.x.getDefiningOp<tensor::ExpandShapeOp>();
    auto wExpand = conv.w.getDefiningOp<tensor::ExpandShapeOp>();
    if (!xExpand || !wExpand)
      return std::nullopt;
    conv.group = tensorTypeOf(conv.w).getDimSize(0);
    conv.x = xExpand.getSrc();
    conv.w = wExpand.getSrc();
  }
  if (!ok)
    return std::nullopt;
  // Padding with 0.0 on the spatial dims only.
  int64_t spatial = tensorTypeOf(conv.x).getRank() - 2;
  conv.pads.assign(2 * spatial, 0);
  if (auto pad = conv.x.getDefiningOp<tensor::PadOp>()) {
    Value padValue = pad.getConstantPaddingValue();
    if (!padValue || !matchPattern(padValue, m_AnyZeroFloat()) ||
        pad.getStaticLow().size() != (size_t)spatial + 2)
      return std::nullopt;
    ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
    if (low[0] != 0 || low[1] != 0 || high[0] != 0 || high[1] != 0 ||
        llvm::any_of(low, ShapedType::isDynamic) ||
        llvm::any_of(high, ShapedType::isDynamic))
      return std::nullopt;
    for (int64_t i = 0; i < spatial; ++i) {
      conv.pads[i] = low[2 + i];
      conv.pads[spatial + i] = high[2 + i];
    }
    conv.x = pad.getSource();
  }
  return conv;
}

/// The bias generic y = conv + B[m] (the importer's Conv bias: B 1-D, read
/// along dim 1): B, or null.
Value matchBiasAdd(linalg::GenericOp add, Value conv) {
  auto addf = getElementwiseOp<arith::AddFOp>(add, 2);
  if (!addf || add.getDpsInputs()[0] != conv || !conv.hasOneUse())
    return {};
  Block &body = add.getRegion().front();
  SmallVector<AffineMap> maps = add.getIndexingMapsArray();
  int64_t rank = tensorTypeOf(conv).getRank();
  if (!maps[0].isIdentity() || addf.getLhs() != body.getArgument(0) ||
      maps[1] != AffineMap::get(rank, 0, getAffineDimExpr(1, add.getContext())))
    return {};
  return add.getDpsInputs()[1];
}

/// The f32 values of a constant, or empty.
SmallVector<float> constantFloats(Value v) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) ||
      !attr.getElementType().isF32())
    return {};
  return llvm::to_vector(attr.getValues<float>());
}

/// DQ(B) with int32 B [M], zero point absent or 0, and scale[m] equal to
/// fl(x_scale * w_scale[m]) bit for bit: B, or null.
Value matchQuantizedBias(DequantizeLinearOp dqB, Value xScale, Value wScale,
                         int64_t m) {
  if (!dqB || !isInt32Type(tensorTypeOf(dqB.getX()).getElementType()) ||
      tensorTypeOf(dqB.getX()).getShape() != ArrayRef<int64_t>{m})
    return {};
  if (Value zp = dqB.getXZeroPoint()) {
    DenseElementsAttr attr;
    if (!matchPattern(zp, m_Constant(&attr)) ||
        !llvm::all_of(attr.getValues<APInt>(),
                      [](const APInt &v) { return v.isZero(); }))
      return {};
  }
  SmallVector<float> sx = constantFloats(xScale), sw = constantFloats(wScale),
                     sb = constantFloats(dqB.getXScale());
  if (sx.size() != 1 || sw.empty() || sb.empty())
    return {};
  for (int64_t i = 0; i < m; ++i) {
    float want = sx[0] * sw[sw.size() == 1 ? 0 : i];
    float got = sb[sb.size() == 1 ? 0 : i];
    if (std::memcmp(&want, &got, sizeof(float)) != 0)
      return {};
  }
  return dqB.getX();
}

struct FuseQDQConv : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QuantizeLinearOp quantize,
                                PatternRewriter &rewriter) const override {
    if (!isPerTensorInt8Quantize(quantize))
      return rewriter.notifyMatchFailure(quantize, "not a per-tensor int8 Q");
    Value product = quantize.getX();
    DequantizeLinearOp dqBias;
    linalg::GenericOp add = product.getDefiningOp<linalg::GenericOp>();
    if (add) {
      if (!product.hasOneUse() || add.getNumDpsInputs() != 2)
        return failure();
      product = add.getDpsInputs()[0];
      Value bias = matchBiasAdd(add, product);
      dqBias = bias ? bias.getDefiningOp<DequantizeLinearOp>() : nullptr;
      if (!dqBias)
        return rewriter.notifyMatchFailure(quantize, "not a DQ bias add");
    }
    std::optional<FloatConv> conv = matchNamedConv(product);
    if (!conv)
      return rewriter.notifyMatchFailure(quantize, "not Q(conv)");
    auto dqX = conv->x.getDefiningOp<DequantizeLinearOp>();
    auto dqW = conv->w.getDefiningOp<DequantizeLinearOp>();
    if (!isInt8Dequantize(dqX) || !isInt8Dequantize(dqW, /*axis=*/0))
      return rewriter.notifyMatchFailure(quantize, "operands are not DQ");
    Value bias;
    if (dqBias) {
      bias = matchQuantizedBias(dqBias, dqX.getXScale(), dqW.getXScale(),
                                tensorTypeOf(dqW.getX()).getDimSize(0));
      if (!bias)
        return rewriter.notifyMatchFailure(
            quantize, "B is not int32 with scale x_scale * w_scale");
    }
    Location loc = quantize.getLoc();
    auto zeroOf = [&](Value zp, Value data) {
      return getZeroPointOrZero(rewriter, loc, zp,
                                tensorTypeOf(data).getElementType());
    };
    auto fused = QLinearConvOp::create(
        rewriter, loc, quantize.getY().getType(), dqX.getX(),
        dqX.getXScale(), zeroOf(dqX.getXZeroPoint(), dqX.getX()), dqW.getX(),
        dqW.getXScale(), zeroOf(dqW.getXZeroPoint(), dqW.getX()),
        quantize.getYScale(), zeroOf(quantize.getYZeroPoint(), quantize.getY()),
        bias, nullptr, nullptr, nullptr, nullptr);
    fused.setStrides(conv->strides);
    fused.setDilations(conv->dilations);
    fused.setPads(conv->pads);
    if (conv->group != 1)
      fused.setGroup(conv->group);
    rewriter.replaceOp(quantize, fused.getY());
    return success();
  }
};

} // namespace

void qops::populateFuseQDQConvolutionPatterns(RewritePatternSet &patterns) {
  patterns.add<FuseQDQConv>(patterns.getContext());
}
