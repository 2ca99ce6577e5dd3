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

#include "QuantMath.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace mlir::qops;

namespace {

/// The ins and indexing maps of the scale (and zero point, if any) of a Q/DQ
/// op, prepared for a linalg.generic over the data's dimensions.
struct QuantParamOperands {
  SmallVector<Value> values;
  SmallVector<AffineMap> maps;
};

QuantParamOperands prepareQuantParams(OpBuilder &b, Location loc,
                                      RankedTensorType dataType,
                                      RankedTensorType scaleType,
                                      std::optional<int64_t> axis,
                                      std::optional<int64_t> blockSize,
                                      Value scale, Value zeroPoint) {
  // The op verified, so classification succeeds.
  FailureOr<QuantGranularity> granularity = classifyQuantGranularity(
      dataType, scaleType, axis, blockSize, "", [&] {
        return emitError(loc);
      });
  assert(succeeded(granularity) && "qops op did not verify");
  AffineMap map =
      getQuantParamMap(b.getContext(), dataType.getRank(), *granularity);
  QuantParamOperands result;
  for (Value param : {scale, zeroPoint}) {
    if (!param)
      continue;
    if (granularity->kind == Granularity::PerTensor)
      param = collapseToScalarTensor(b, loc, param);
    result.values.push_back(param);
    result.maps.push_back(map);
  }
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

    QuantParamOperands params = prepareQuantParams(
        rewriter, loc, xType, scaleType, op.getAxis(), op.getBlockSize(),
        adaptor.getYScale(), adaptor.getYZeroPoint());
    bool hasZeroPoint = static_cast<bool>(adaptor.getYZeroPoint());

    SmallVector<Value> inputs{adaptor.getX()};
    inputs.append(params.values);
    unsigned rank = xType.getRank();
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    SmallVector<AffineMap> maps{identity};
    maps.append(params.maps);
    maps.push_back(identity);
    Value init = createEmptyLike(rewriter, loc, adaptor.getX(), yStorage);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);

    auto generic = linalg::GenericOp::create(
        rewriter, loc, init.getType(), inputs, init, maps, iterators,
        [&](OpBuilder &b, Location nested, ValueRange args) {
          Value x = emitConvertToFloat(b, nested, args[0], xOnnx, divType);
          Value scale =
              emitConvertToFloat(b, nested, args[1], scaleOnnx, divType);
          Value quotient = arith::DivFOp::create(b, nested, x, scale);
          Value stored;
          if (isFloat8Type(yOnnx)) {
            stored = emitRoundToSmallFloat(b, nested, quotient, yOnnx,
                                           saturate);
          } else if (isFloat4Type(yOnnx)) {
            if (hasZeroPoint)
              quotient = arith::AddFOp::create(
                  b, nested, quotient,
                  emitConvertToFloat(b, nested, args[2], zpOnnx, divType));
            stored = emitRoundToSmallFloat(b, nested, quotient, yOnnx,
                                           /*saturate=*/true);
          } else {
            Value zeroPoint =
                hasZeroPoint
                    ? emitExtendToI32(b, nested, args[2], zpOnnx)
                    : arith::ConstantOp::create(b, nested,
                                                b.getI32IntegerAttr(0))
                          .getResult();
            Value y = emitRoundAddZeroPointSaturate(
                b, nested, quotient, zeroPoint, getIntegerTypeMin(yOnnx),
                getIntegerTypeMax(yOnnx));
            stored = arith::TruncIOp::create(b, nested, yStorage, y);
          }
          linalg::YieldOp::create(b, nested, stored);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// DequantizeLinear
//===----------------------------------------------------------------------===//

/// y[i] = (x[i] - zp[p(i)]) * scale[p(i)]
///
///   d = x - zp          exact in i32 (inputs of at most 16 bits)
///   y = T(f32(d) * f32(scale))   the product in f32, rounded once to the
///                                output type T (as the ONNX reference does)
/// int32 inputs: x and zp are converted to f32 (nearest even) and subtracted
/// in f32, matching the reference's `x.astype(float32) - zp`.
/// float8 inputs: d = f32(x), exact; the zero point (0) is ignored, as the
/// ONNX reference does. float4 inputs: d = f32(x) - f32(zp), exact (the
/// spec's formula; ONNX's reference ignores a float4 zero point).
/// e8m0 scales are decoded to f32 exactly (powers of two).
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
    FloatType f32 = rewriter.getF32Type();
    bool wideInput = isInt32Type(xOnnx);
    bool floatInput = isFloat8Type(xOnnx) || isFloat4Type(xOnnx);

    QuantParamOperands params = prepareQuantParams(
        rewriter, loc, xType, scaleType, op.getAxis(), op.getBlockSize(),
        adaptor.getXScale(), adaptor.getXZeroPoint());
    bool hasZeroPoint = static_cast<bool>(adaptor.getXZeroPoint());

    SmallVector<Value> inputs{adaptor.getX()};
    inputs.append(params.values);
    unsigned rank = xType.getRank();
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    SmallVector<AffineMap> maps{identity};
    maps.append(params.maps);
    maps.push_back(identity);
    Value init = createEmptyLike(rewriter, loc, adaptor.getX(), yType);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);

    auto generic = linalg::GenericOp::create(
        rewriter, loc, init.getType(), inputs, init, maps, iterators,
        [&](OpBuilder &b, Location nested, ValueRange args) {
          Value difference;
          if (floatInput) {
            difference = emitConvertToFloat(b, nested, args[0], xOnnx, f32);
            if (hasZeroPoint && isFloat4Type(xOnnx))
              difference = arith::SubFOp::create(
                  b, nested, difference,
                  emitConvertToFloat(b, nested, args[2], xOnnx, f32));
          } else if (wideInput) {
            difference = emitConvertToFloat(b, nested, args[0], xOnnx, f32);
            if (hasZeroPoint)
              difference = arith::SubFOp::create(
                  b, nested, difference,
                  emitConvertToFloat(b, nested, args[2], xOnnx, f32));
          } else {
            Value x = emitExtendToI32(b, nested, args[0], xOnnx);
            if (hasZeroPoint)
              x = arith::SubIOp::create(
                  b, nested, x, emitExtendToI32(b, nested, args[2], xOnnx));
            difference = arith::SIToFPOp::create(b, nested, f32, x);
          }
          Value scale = emitConvertToFloat(b, nested, args[1], scaleOnnx, f32);
          Value y = arith::MulFOp::create(b, nested, difference, scale);
          if (yType != f32)
            y = arith::TruncFOp::create(b, nested, yType, y);
          linalg::YieldOp::create(b, nested, y);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

} // namespace

void qops::populateQuantizeDequantizeToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<QuantizeLinearToLinalg, DequantizeLinearToLinalg>(
      converter, patterns.getContext());
}
