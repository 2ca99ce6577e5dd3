//===- DynamicQuantize.cpp - DynamicQuantizeLinear to linalg --------------===//
//
// Two passes over x, as the ONNX function body has them:
//
//   pass 1 (one linalg.generic, all dims reduced, two rank-0 outputs):
//     lo = min(x) (init +Inf), hi = max(x) (init -Inf); NaN propagates
//   scalars (f32):
//     max = maximum(0, hi), min = minimum(0, lo)
//     scale = (max == min ? 1 : max - min) / 255     ONNX reference: an
//                                                    all-zero x gives 1/255
//     zp = saturate_u8(round_half_to_even(0 - min / scale))   NaN -> 0
//   pass 2 (elementwise):
//     y = saturate_u8(round_half_to_even(x / scale) + zp)      NaN -> zp
//
// With +-Inf in x the IEEE arithmetic gives scale = +Inf, zp = 0, y = 0;
// with NaN in x it gives scale = NaN, zp = 0, y = 0 (docs/Numerics.md).
// An empty x reduces to the init values, so min = max = 0: scale 1/255, zp 0.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"

#include "QuantMath.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace mlir::qops;

namespace {

struct DynamicQuantizeLinearToLinalg
    : OpConversionPattern<DynamicQuantizeLinearOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DynamicQuantizeLinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    unsigned rank = xType.getRank();
    FloatType f32 = rewriter.getF32Type();
    Type i8 = rewriter.getI8Type();
    auto constF32 = [&](double v) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getF32FloatAttr(v));
    };

    // Pass 1: min and max in one sweep.
    auto scalarType = RankedTensorType::get({}, f32);
    auto filled = [&](double init) {
      Value empty = tensor::EmptyOp::create(rewriter, loc, scalarType,
                                            ValueRange{});
      return linalg::FillOp::create(rewriter, loc, constF32(init), empty)
          .getResult(0);
    };
    Value minInit = filled(std::numeric_limits<double>::infinity());
    Value maxInit = filled(-std::numeric_limits<double>::infinity());
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap toScalar = AffineMap::get(rank, 0, {}, rewriter.getContext());
    SmallVector<utils::IteratorType> reductions(
        rank, utils::IteratorType::reduction);
    auto minMax = linalg::GenericOp::create(
        rewriter, loc, TypeRange{scalarType, scalarType}, ValueRange{x},
        ValueRange{minInit, maxInit},
        ArrayRef<AffineMap>{identity, toScalar, toScalar}, reductions,
        [&](OpBuilder &b, Location nested, ValueRange args) {
          Value lo = arith::MinimumFOp::create(b, nested, args[1], args[0]);
          Value hi = arith::MaximumFOp::create(b, nested, args[2], args[0]);
          linalg::YieldOp::create(b, nested, ValueRange{lo, hi});
        });
    Value lo = tensor::ExtractOp::create(rewriter, loc, minMax.getResult(0),
                                         ValueRange{});
    Value hi = tensor::ExtractOp::create(rewriter, loc, minMax.getResult(1),
                                         ValueRange{});

    // The scale and zero point, on scalars.
    Value zero = constF32(0.0);
    Value max = arith::MaximumFOp::create(rewriter, loc, hi, zero);
    Value min = arith::MinimumFOp::create(rewriter, loc, lo, zero);
    Value equal = arith::CmpFOp::create(rewriter, loc,
                                        arith::CmpFPredicate::OEQ, max, min);
    Value range = arith::SelectOp::create(
        rewriter, loc, equal, constF32(1.0),
        arith::SubFOp::create(rewriter, loc, max, min));
    Value scale = arith::DivFOp::create(rewriter, loc, range, constF32(255.0));
    Value zeroPointF = arith::SubFOp::create(
        rewriter, loc, zero, arith::DivFOp::create(rewriter, loc, min, scale));
    Value zeroI32 =
        arith::ConstantOp::create(rewriter, loc, rewriter.getI32IntegerAttr(0));
    Value zeroPoint = emitRoundAddZeroPointSaturate(rewriter, loc, zeroPointF,
                                                    zeroI32, 0, 255);

    // Pass 2: quantize with the computed parameters.
    Value init = createEmptyLike(rewriter, loc, x, i8);
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    auto quantize = linalg::GenericOp::create(
        rewriter, loc, init.getType(), ValueRange{x}, init,
        ArrayRef<AffineMap>{identity, identity}, parallel,
        [&](OpBuilder &b, Location nested, ValueRange args) {
          Value quotient = arith::DivFOp::create(b, nested, args[0], scale);
          Value y = emitRoundAddZeroPointSaturate(b, nested, quotient,
                                                  zeroPoint, 0, 255);
          linalg::YieldOp::create(b, nested,
                                  arith::TruncIOp::create(b, nested, i8, y)
                                      .getResult());
        });

    Value scaleTensor =
        tensor::FromElementsOp::create(rewriter, loc, scalarType, scale);
    Value zeroPointTensor = tensor::FromElementsOp::create(
        rewriter, loc, RankedTensorType::get({}, i8),
        arith::TruncIOp::create(rewriter, loc, i8, zeroPoint).getResult());
    rewriter.replaceOp(op, {quantize.getResult(0), scaleTensor,
                            zeroPointTensor});
    return success();
  }
};

} // namespace

void qops::populateDynamicQuantizeToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<DynamicQuantizeLinearToLinalg>(converter,
                                              patterns.getContext());
}
