//===- DecomposeConvolutions.cpp - ConvInteger / QLinearConv as matmuls ---===//
//
// The decompose stage for the convolutions (NCHW, S = 1..3 spatial dims,
// group G): each becomes one qkernel.matmul on the patches of x (im2col),
// with the weights as the left operand and the images side by side in the
// columns, so that the product is one plain (or, with groups, G-batched)
// matrix product that the packed kernels take, whatever the batch:
//
//   a[g, m', (c, k..)]        = w[g Mg + m', c, k..]            [G, Mg, Kg]
//   b[g, (c, k..), (n, o..)]  = xp[n, g Cg + c, o s + k d]      [G, Kg, N P]
//   p[g, m', (n, o..)]        = sum_(c, k..) (a - w_zp)(b - x_zp)
//   y[n, g Mg + m', o..]      = p[g, m', (n, o..)]  (a transpose unless N = 1)
//
// with Cg = C / G, Mg = M / G, Kg = Cg * prod(K), P = prod(o) and xp x
// padded with x_zero_point, so that a padded tap adds 0. G = 1 drops the
// group dimension (a [M, Kg], b [Kg, N P]). w's zero point and scale per
// output channel are a's per-row parameters ([M], or [G, Mg, 1] with
// groups); x's are b's per-tensor ones; y's requantization is
// QLinearMatMul's (x_scale * w_scale / y_scale: the product of two f32
// commutes exactly). A 1x1 convolution of one image with unit strides and
// no padding takes x itself as b (a plain matmul, no patches).
//
// The patches and reshapes are data movement on the storage types
// (builtin.unrealized_conversion_cast bridges, which the type conversion
// folds): the ONNX types stay on qkernel.matmul's operands.
//
// QLinearConv's bias [M] is the product's per-row bias ([M, 1]), added to
// the exact sums before the requantization.
//
// Not yet: dynamic spatial sizes (the op is left with an error; the batch
// may be dynamic).
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"

#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::qops;

namespace {

/// What the decomposition reads of either convolution op.
struct Convolution {
  Operation *op;
  Value x, xZeroPoint, w, wZeroPoint;
  SmallVector<int64_t> strides, dilations, pads;
  int64_t group;
};

RankedTensorType rankedType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// `value` as `type` through a storage cast (the identity when equal).
Value castTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return UnrealizedConversionCastOp::create(b, loc, type, value).getResult(0);
}

/// `value` with its element type made signless (ui8/si8 -> i8).
Value toStorage(OpBuilder &b, Location loc, Value value) {
  RankedTensorType type = rankedType(value);
  return castTo(b, loc, value,
                type.clone(getStorageElementType(type.getElementType())));
}

/// The sizes of `value`'s type, a tensor.dim where dynamic.
SmallVector<OpFoldResult> mixedSizes(OpBuilder &b, Location loc, Value value) {
  return tensor::getMixedSizes(b, loc, value);
}

/// A reshape of `value` (storage or ONNX typed) into `shape`, by
/// `reassociation` (collapse when `shape` has fewer dims, else expand).
Value reshape(OpBuilder &b, Location loc, Value value, Type onnxElement,
              ArrayRef<int64_t> shape,
              ArrayRef<ReassociationIndices> reassociation) {
  Value storage = toStorage(b, loc, value);
  RankedTensorType in = rankedType(storage);
  auto out = RankedTensorType::get(shape, in.getElementType());
  Value result =
      static_cast<int64_t>(shape.size()) < in.getRank()
          ? tensor::CollapseShapeOp::create(b, loc, out, storage,
                                            reassociation)
                .getResult()
          : tensor::ExpandShapeOp::create(b, loc, out, storage, reassociation)
                .getResult();
  return castTo(b, loc, result, RankedTensorType::get(shape, onnxElement));
}

/// x padded with its zero point (storage type), or x when no pad is > 0.
Value padInput(OpBuilder &b, Location loc, const Convolution &c) {
  Value x = toStorage(b, loc, c.x);
  if (llvm::all_of(c.pads, [](int64_t p) { return p == 0; }))
    return x;
  RankedTensorType type = rankedType(x);
  int64_t spatial = type.getRank() - 2;
  Value padValue;
  if (c.xZeroPoint) {
    Value zp = toStorage(b, loc, c.xZeroPoint);
    SmallVector<Value> zeros(rankedType(zp).getRank(),
                             arith::ConstantIndexOp::create(b, loc, 0));
    padValue = tensor::ExtractOp::create(b, loc, zp, zeros);
  } else {
    padValue = arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(type.getElementType(), 0));
  }
  SmallVector<OpFoldResult> low(2, b.getIndexAttr(0)), high = low;
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t i = 0; i < spatial; ++i) {
    low.push_back(b.getIndexAttr(c.pads[i]));
    high.push_back(b.getIndexAttr(c.pads[spatial + i]));
    if (!ShapedType::isDynamic(shape[2 + i]))
      shape[2 + i] += c.pads[i] + c.pads[spatial + i];
  }
  return tensor::PadOp::create(b, loc, type.clone(shape), x, low, high,
                               padValue)
      .getResult();
}

/// b: the patches of x, [G, Cg, K.., N, o..] in storage, as [G, Kg, N P]
/// (or [Kg, N P] when G = 1), ONNX typed.
///   linalg.generic ins(xp: (g, c, k.., n, o..) -> (n, g Cg + c, o s + k d))
///                  outs(tensor.empty) { yield }
Value emitPatches(OpBuilder &b, Location loc, const Convolution &c,
                  ArrayRef<int64_t> outSizes) {
  RankedTensorType wType = rankedType(c.w);
  Type xOnnx = rankedType(c.x).getElementType();
  int64_t spatial = wType.getRank() - 2;
  int64_t cg = wType.getDimSize(1);
  ArrayRef<int64_t> kernel = wType.getShape().drop_front(2);
  Value xp = padInput(b, loc, c);
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(c.group),
                                     b.getIndexAttr(cg)};
  for (int64_t k : kernel)
    sizes.push_back(b.getIndexAttr(k));
  sizes.push_back(mixedSizes(b, loc, xp)[0]);
  for (int64_t o : outSizes)
    sizes.push_back(b.getIndexAttr(o));
  Type storage = rankedType(xp).getElementType();
  Value init = tensor::EmptyOp::create(b, loc, sizes, storage);
  int64_t rank = 3 + 2 * spatial, nDim = 2 + spatial;
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineExpr> in = {getAffineDimExpr(nDim, ctx),
                                getAffineDimExpr(0, ctx) * cg +
                                    getAffineDimExpr(1, ctx)};
  for (int64_t i = 0; i < spatial; ++i)
    in.push_back(getAffineDimExpr(nDim + 1 + i, ctx) * c.strides[i] +
                 getAffineDimExpr(2 + i, ctx) * c.dilations[i]);
  SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, in, ctx),
                                 b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value patches =
      linalg::GenericOp::create(
          b, loc, init.getType(), ValueRange{xp}, ValueRange{init}, maps,
          iterators,
          [](OpBuilder &b, Location loc, ValueRange args) {
            linalg::YieldOp::create(b, loc, args[0]);
          })
          .getResult(0);
  // [G, Cg, K.., N, o..] -> [G, Kg, N P] or, G = 1, [Kg, N P].
  ReassociationIndices kDims = {1}, columns;
  for (int64_t i = 0; i < spatial; ++i)
    kDims.push_back(2 + i);
  for (int64_t d = nDim; d < rank; ++d)
    columns.push_back(d);
  int64_t kg = cg * llvm::product_of(kernel);
  int64_t n = rankedType(c.x).getDimSize(0);
  int64_t np = ShapedType::isDynamic(n) ? n : n * llvm::product_of(outSizes);
  if (c.group == 1) {
    ReassociationIndices first = {0};
    first.append(kDims);
    return reshape(b, loc, patches, xOnnx, {kg, np}, {first, columns});
  }
  return reshape(b, loc, patches, xOnnx, {c.group, kg, np},
                 {{0}, kDims, columns});
}

/// b without patches: a 1x1 convolution of one image with unit strides and
/// no padding reads x as [C, P].
bool isPointwise(const Convolution &c) {
  auto isOne = [](int64_t v) { return v == 1; };
  return c.group == 1 && rankedType(c.x).getDimSize(0) == 1 &&
         llvm::all_of(rankedType(c.w).getShape().drop_front(2), isOne) &&
         llvm::all_of(c.strides, isOne) &&
         llvm::all_of(c.pads, [](int64_t v) { return v == 0; });
}

/// A per-output-channel parameter ([M] or one element) as a's per-row
/// parameter: as it is, or [G, Mg, 1] with groups.
Value rowParam(OpBuilder &b, Location loc, Value param, int64_t group) {
  if (!param || group == 1)
    return param;
  RankedTensorType type = rankedType(param);
  if (type.getNumElements() == 1)
    return param;
  int64_t m = type.getDimSize(0);
  return reshape(b, loc, param, type.getElementType(), {group, m / group, 1},
                 {{0, 1, 2}});
}

/// QLinearConv's bias [M] as the product's per-row bias: [M, 1], or
/// [G, Mg, 1] with groups (qkernel.matmul's y-shaped per-row form).
Value biasParam(OpBuilder &b, Location loc, Value bias, int64_t group) {
  if (!bias)
    return bias;
  int64_t m = rankedType(bias).getDimSize(0);
  SmallVector<int64_t> shape =
      group == 1 ? SmallVector<int64_t>{m, 1}
                 : SmallVector<int64_t>{group, m / group, 1};
  ReassociationIndices all =
      llvm::to_vector(llvm::seq<int64_t>(0, shape.size()));
  return reshape(b, loc, bias, rankedType(bias).getElementType(), shape,
                 {all});
}

/// The product [M, N P] (or [G, Mg, N P]) as y [N, M, o..]: reshaped, and
/// transposed to put the batch first unless N = 1.
///   [G, Mg, N P] -> [M, N, P] -(linalg.transpose)-> [N, M, P] -> [N, M, o..]
Value productToY(OpBuilder &b, Location loc, Value product,
                 RankedTensorType yType) {
  Type yOnnx = yType.getElementType();
  int64_t n = yType.getDimSize(0), m = yType.getDimSize(1);
  ArrayRef<int64_t> outSizes = yType.getShape().drop_front(2);
  int64_t p = llvm::product_of(outSizes);
  ReassociationIndices oDims;
  for (int64_t i = 0; i < static_cast<int64_t>(outSizes.size()); ++i)
    oDims.push_back(2 + i);
  RankedTensorType productType = rankedType(product);
  if (productType.getRank() == 3) // [G, Mg, N P] -> [M, N P]
    product = reshape(b, loc, product, yOnnx, {m, productType.getDimSize(2)},
                      {{0, 1}, {2}});
  if (n == 1) // [M, P] -> [1, M, o..]
    return reshape(b, loc, product, yOnnx, yType.getShape(),
                   {{0, 1}, oDims});
  Value mnp = reshape(b, loc, product, yOnnx, {m, n, p}, {{0}, {1, 2}});
  Value storage = toStorage(b, loc, mnp);
  SmallVector<OpFoldResult> sizes = {tensor::getMixedSize(b, loc, storage, 1),
                                     b.getIndexAttr(m), b.getIndexAttr(p)};
  Value init = tensor::EmptyOp::create(
      b, loc, sizes, rankedType(storage).getElementType());
  Value nmp =
      linalg::TransposeOp::create(b, loc, storage, init,
                                  ArrayRef<int64_t>{1, 0, 2})
          ->getResult(0);
  return reshape(b, loc, nmp, yOnnx, yType.getShape(), {{0}, {1}, oDims});
}

/// The convolution as qkernel.matmul (`scales`: x_scale, w_scale, y_scale,
/// y_zero_point for QLinearConv, empty for ConvInteger; `bias`: QLinearConv's
/// B [M] or null); returns y.
FailureOr<Value> decompose(PatternRewriter &rewriter, const Convolution &c,
                           ArrayRef<Value> scales, Value bias,
                           RankedTensorType yType) {
  Location loc = c.op->getLoc();
  RankedTensorType xType = rankedType(c.x), wType = rankedType(c.w);
  if (llvm::any_of(xType.getShape().drop_front(1), ShapedType::isDynamic) ||
      !wType.hasStaticShape())
    return c.op->emitOpError()
           << "is lowered for static channels, spatial sizes and weights "
              "only (the batch may be dynamic), got "
           << xType << " and " << wType;
  int64_t m = wType.getDimSize(0), g = c.group;
  int64_t kg = wType.getDimSize(1) *
               llvm::product_of(wType.getShape().drop_front(2));
  Type wOnnx = wType.getElementType();
  ReassociationIndices wTail;
  for (int64_t i = 1; i < wType.getRank(); ++i)
    wTail.push_back(i);
  Value a = reshape(rewriter, loc, c.w, wOnnx, {m, kg}, {{0}, wTail});
  if (g != 1)
    a = reshape(rewriter, loc, a, wOnnx, {g, m / g, kg}, {{0, 1}, {2}});
  Value bOperand;
  if (isPointwise(c)) {
    ReassociationIndices pixels;
    for (int64_t d = 2; d < xType.getRank(); ++d)
      pixels.push_back(d);
    bOperand = reshape(rewriter, loc, c.x, xType.getElementType(),
                       {kg, llvm::product_of(xType.getShape().drop_front(2))},
                       {{0, 1}, pixels});
  } else {
    bOperand = emitPatches(rewriter, loc, c, yType.getShape().drop_front(2));
  }
  int64_t columns = rankedType(bOperand).getShape().back();
  SmallVector<int64_t> productShape =
      g == 1 ? SmallVector<int64_t>{m, columns}
             : SmallVector<int64_t>{g, m / g, columns};
  auto productType =
      RankedTensorType::get(productShape, yType.getElementType());
  Value wZeroPoint = rowParam(rewriter, loc, c.wZeroPoint, g);
  Value product;
  if (scales.empty())
    product = qkernel::MatMulOp::create(
        rewriter, loc, productType, a, wZeroPoint, bOperand, c.xZeroPoint,
        Value(), Value(), Value(), Value(), Value());
  else
    product = qkernel::MatMulOp::create(
        rewriter, loc, productType, a, wZeroPoint, bOperand, c.xZeroPoint,
        rowParam(rewriter, loc, scales[1], g), scales[0], scales[2],
        scales[3], biasParam(rewriter, loc, bias, g));
  return productToY(rewriter, loc, product, yType);
}

template <typename OpTy>
Convolution describe(OpTy op) {
  return {op, op.getX(), op.getXZeroPoint(), op.getW(), op.getWZeroPoint(),
          op.getStridesOrDefault(), op.getDilationsOrDefault(),
          op.getPadsOrDefault(), op.getGroupOrDefault()};
}

struct DecomposeConvInteger : OpRewritePattern<ConvIntegerOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvIntegerOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<Value> y =
        decompose(rewriter, describe(op), {}, Value(), op.getY().getType());
    if (failed(y))
      return failure();
    rewriter.replaceOp(op, *y);
    return success();
  }
};

struct DecomposeQLinearConv : OpRewritePattern<QLinearConvOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QLinearConvOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<Value> y = decompose(
        rewriter, describe(op),
        {op.getXScale(), op.getWScale(), op.getYScale(), op.getYZeroPoint()},
        op.getBias(), op.getY().getType());
    if (failed(y))
      return failure();
    rewriter.replaceOp(op, *y);
    return success();
  }
};

} // namespace

void qops::populateDecomposeConvolutionsPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeConvInteger, DecomposeQLinearConv>(
      patterns.getContext());
}
