//===- QuantizeDequantize.cpp - Q/DQ to linalg.generic --------------------===//
//
// qops.quantize_linear and qops.dequantize_linear, integer forms, as one
// elementwise linalg.generic each. The scale and zero point are read through
// the map of their granularity (QuantMath.h: per-tensor `()`, per-axis
// `(d_axis)`, blocked `(.., d_axis floordiv B, ..)`), so nothing is gathered
// or materialized at the data's size.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"

#include "QuantOps/Conversion/QOpsToLinalg/QuantMath.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace mlir::qops;

namespace {

/// Builds the one elementwise linalg.generic of a Q/DQ op: `data` and its
/// scale (and zero point) in, a tensor of `resultElement` out, `body` given
/// the scalar (data, scale[, zero point]) of each element.
///
/// The scale and zero point are read through the map of their granularity:
///   per-tensor  ()            (collapsed to rank 0)
///   per-axis    (d_axis)
///   blocked     (.., d_axis floordiv B, ..)
/// A blocked axis whose static size D is a multiple of B is instead split
/// into [D/B, B] (tensor.expand_shape, a view after bufferization), so the
/// scale map is the projection (.., d_block, .., ) that vectorizes along the
/// contiguous dimension; the result is collapsed back.
Value buildQuantElementwise(
    OpBuilder &b, Location loc, StringRef label, Value data,
    RankedTensorType onnxDataType, RankedTensorType onnxScaleType,
    std::optional<int64_t> axis, std::optional<int64_t> blockSize,
    Value scale, Value zeroPoint, Type resultElement,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  // The op verified, so classification succeeds.
  FailureOr<QuantGranularity> granularity = classifyQuantGranularity(
      onnxDataType, onnxScaleType, axis, blockSize, "",
      [&] { return emitError(loc); });
  assert(succeeded(granularity) && "qops op did not verify");
  MLIRContext *ctx = b.getContext();
  unsigned rank = onnxDataType.getRank();

  // Sizes the verifier could not see (dynamic dims) are checked at run time.
  auto sizeOf = [&](Value v, int64_t d) {
    return tensor::getMixedSize(b, loc, v, d);
  };
  if (zeroPoint && cast<RankedTensorType>(zeroPoint.getType()).getRank() ==
                       onnxScaleType.getRank())
    for (int64_t d = 0, e = onnxScaleType.getRank(); d < e; ++d)
      emitSizeCheck(b, loc, sizeOf(zeroPoint, d), sizeOf(scale, d),
                    label + "_zp_shape: the zero point's shape differs from "
                            "the scale's");
  if (granularity->kind == Granularity::PerAxis) {
    emitSizeCheck(b, loc, sizeOf(scale, 0), sizeOf(data, granularity->axis),
                  label + "_per_axis_length: the per-axis scale's length "
                          "differs from the input's size along the axis");
  } else if (granularity->kind == Granularity::Blocked) {
    for (int64_t d = 0, e = onnxDataType.getRank(); d < e; ++d) {
      if (d != granularity->axis) {
        emitSizeCheck(b, loc, sizeOf(scale, d), sizeOf(data, d),
                      label + "_blocked_shape: a blocked scale dimension "
                              "differs from the input's");
        continue;
      }
      AffineExpr size = b.getAffineSymbolExpr(0);
      OpFoldResult blocks = affine::makeComposedFoldedAffineApply(
          b, loc, size.ceilDiv(granularity->blockSize), {sizeOf(data, d)});
      emitSizeCheck(b, loc, sizeOf(scale, d), blocks,
                    label + "_blocked_range: the block size does not give "
                            "the scale's number of blocks along the axis");
    }
  }

  SmallVector<Value> params{scale};
  if (zeroPoint)
    params.push_back(zeroPoint);
  if (granularity->kind == Granularity::PerTensor)
    for (Value &param : params)
      param = collapseToScalarTensor(b, loc, param);

  int64_t blockAxis = granularity->axis, block = granularity->blockSize;
  int64_t axisSize = rank ? onnxDataType.getDimSize(blockAxis) : 0;
  bool splitBlocks = granularity->kind == Granularity::Blocked &&
                     !ShapedType::isDynamic(axisSize) && block > 1 &&
                     axisSize % block == 0;
  SmallVector<ReassociationIndices> split;
  AffineMap paramMap;
  if (splitBlocks) {
    auto dataType = cast<RankedTensorType>(data.getType());
    SmallVector<int64_t> shape;
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, data);
    SmallVector<OpFoldResult> splitSizes;
    for (unsigned d = 0; d < rank; ++d) {
      if (int64_t(d) == blockAxis) {
        split.push_back({int64_t(shape.size()), int64_t(shape.size()) + 1});
        shape.append({axisSize / block, block});
        splitSizes.append({b.getIndexAttr(axisSize / block),
                           b.getIndexAttr(block)});
      } else {
        split.push_back({int64_t(shape.size())});
        shape.push_back(dataType.getDimSize(d));
        splitSizes.push_back(sizes[d]);
      }
    }
    data = tensor::ExpandShapeOp::create(b, loc, dataType.clone(shape), data,
                                         split, splitSizes);
    SmallVector<AffineExpr> exprs;
    for (unsigned d = 0; d <= rank; ++d)
      if (int64_t(d) != blockAxis + 1)
        exprs.push_back(getAffineDimExpr(d, ctx));
    paramMap = AffineMap::get(rank + 1, 0, exprs, ctx);
    rank += 1;
  } else {
    paramMap = getQuantParamMap(ctx, rank, *granularity);
  }

  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  SmallVector<Value> inputs{data};
  inputs.append(params);
  SmallVector<AffineMap> maps{identity};
  maps.append(params.size(), paramMap);
  maps.push_back(identity);
  Value init = createEmptyLike(b, loc, data, resultElement);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value result =
      linalg::GenericOp::create(
          b, loc, init.getType(), inputs, init, maps, iterators,
          [&](OpBuilder &nb, Location nloc, ValueRange args) {
            linalg::YieldOp::create(nb, nloc,
                                    body(nb, nloc, args.drop_back()));
          })
          .getResult(0);
  if (splitBlocks)
    result = tensor::CollapseShapeOp::create(
        b, loc, onnxDataType.clone(resultElement), result, split);
  return result;
}

//===----------------------------------------------------------------------===//
// QuantizeLinear
//===----------------------------------------------------------------------===//

/// q[i] = x[i] / scale[p(i)]      x and scale converted to the division type
///                                D (the scale's type, or `precision`; f32
///                                for an e8m0 scale, f64 for an int32 scale)
/// integer y:  y = saturate(round_half_to_even(q) + zp)
///             (emitRoundAddZeroPointSaturate)
/// float8 y:   y = float8(q) with `saturate`; the zero point (0) is ignored,
///             as the ONNX reference does
/// float4 y:   y = float4(q + zp) in D, saturating to +-6 (ONNX adds the
///             zero point for float4; -0 + 0 = +0)
struct QuantizeLinearToLinalg : OpConversionPattern<QuantizeLinearOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(QuantizeLinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto xType = cast<RankedTensorType>(op.getX().getType());
    auto scaleType = cast<RankedTensorType>(op.getYScale().getType());
    Type yOnnx = op.getY().getType().getElementType();
    Type xOnnx = xType.getElementType();
    Type scaleOnnx = scaleType.getElementType();
    Type zpOnnx = yOnnx;
    auto divType = cast<FloatType>(op.getDivisionType());
    bool saturate = op.getSaturateOrDefault();
    Type yStorage = getStorageElementType(yOnnx);

    bool hasZeroPoint = static_cast<bool>(adaptor.getYZeroPoint());
    Value result = buildQuantElementwise(
        rewriter, loc, "quantize", adaptor.getX(), xType, scaleType,
        op.getAxis(), op.getBlockSize(), adaptor.getYScale(), adaptor.getYZeroPoint(),
        yStorage, [&](OpBuilder &b, Location nested, ValueRange args) {
          Value x = emitConvertToFloat(b, nested, args[0], xOnnx, divType);
          Value scale =
              emitConvertToFloat(b, nested, args[1], scaleOnnx, divType);
          Value quotient =
              emitFloatBinary(b, nested, FloatBinaryOp::Div, x, scale);
          if (isFloat8Type(yOnnx))
            return emitRoundToSmallFloat(b, nested, quotient, yOnnx,
                                         saturate);
          if (isFloat4Type(yOnnx)) {
            if (hasZeroPoint)
              quotient = emitFloatBinary(
                  b, nested, FloatBinaryOp::Add, quotient,
                  emitConvertToFloat(b, nested, args[2], zpOnnx, divType));
            return emitRoundToSmallFloat(b, nested, quotient, yOnnx,
                                         /*saturate=*/true);
          }
          Value zeroPoint =
              hasZeroPoint
                  ? emitExtendToI32(b, nested, args[2], zpOnnx)
                  : arith::ConstantOp::create(b, nested,
                                              b.getI32IntegerAttr(0))
                        .getResult();
          Value y = emitRoundAddZeroPointSaturate(
              b, nested, quotient, zeroPoint, getIntegerTypeMin(yOnnx),
              getIntegerTypeMax(yOnnx));
          return arith::TruncIOp::create(b, nested, yStorage, y).getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// DequantizeLinear
//===----------------------------------------------------------------------===//

/// y[i] = (x[i] - zp[p(i)]) * scale[p(i)], one element by
/// emitDequantizeElement (QuantMath.h, where the formula is).
struct DequantizeLinearToLinalg : OpConversionPattern<DequantizeLinearOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DequantizeLinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto xType = cast<RankedTensorType>(op.getX().getType());
    auto scaleType = cast<RankedTensorType>(op.getXScale().getType());
    Type xOnnx = xType.getElementType();
    Type scaleOnnx = scaleType.getElementType();
    auto yType = cast<FloatType>(op.getY().getType().getElementType());
    bool hasZeroPoint = static_cast<bool>(adaptor.getXZeroPoint());
    Value result = buildQuantElementwise(
        rewriter, loc, "dequantize", adaptor.getX(), xType, scaleType,
        op.getAxis(), op.getBlockSize(), adaptor.getXScale(), adaptor.getXZeroPoint(), yType,
        [&](OpBuilder &b, Location nested, ValueRange args) {
          return emitDequantizeElement(b, nested, args[0],
                                       hasZeroPoint ? args[2] : Value(),
                                       args[1], xOnnx, scaleOnnx, yType);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void qops::populateQuantizeDequantizeToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<QuantizeLinearToLinalg, DequantizeLinearToLinalg>(
      converter, patterns.getContext());
}
