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

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace mlir::qops;

namespace {

/// Rows of L lanes per thread chunk of pass 1 (64K elements, 256 KiB).
constexpr int64_t kChunkRows = 1024;

struct DynamicQuantizeLinearToLinalg
    : OpConversionPattern<DynamicQuantizeLinearOp> {
  DynamicQuantizeLinearToLinalg(const TypeConverter &converter,
                                MLIRContext *ctx, bool parallel)
      : OpConversionPattern(converter, ctx), parallel(parallel) {}

  /// Shape pass 1 so that threads can share it (chunk partials).
  bool parallel;

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

    // Pass 1: min and max in one sweep, shaped to vectorize. x is
    // flattened to [N]; its first N - N mod L elements, viewed as [N / L, L],
    // reduce over the rows into L lanes (an outer reduction: parallel along
    // the contiguous lanes, so it vectorizes with vector accumulators); the
    // last N mod L elements fold into the first lanes; the L lanes reduce
    // to the scalar. minimum/maximum are associative and commutative (NaN
    // propagates, -0 < +0), so the order does not change the result.
    constexpr int64_t lanes = 64;
    MLIRContext *ctx = rewriter.getContext();
    Value flat = x;
    if (rank == 0)
      flat = tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get({1}, f32), x,
          ArrayRef<ReassociationIndices>{},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
    else if (rank > 1)
      flat = tensor::CollapseShapeOp::create(
          rewriter, loc, x,
          ArrayRef<ReassociationIndices>{
              llvm::to_vector(llvm::seq<int64_t>(0, rank))});
    OpFoldResult count = tensor::getMixedSize(rewriter, loc, flat, 0);
    AffineExpr n = rewriter.getAffineSymbolExpr(0);
    OpFoldResult rows = affine::makeComposedFoldedAffineApply(
        rewriter, loc, n.floorDiv(lanes), {count});
    OpFoldResult bulk = affine::makeComposedFoldedAffineApply(
        rewriter, loc, n.floorDiv(lanes) * lanes, {count});
    OpFoldResult tail = affine::makeComposedFoldedAffineApply(
        rewriter, loc, n - n.floorDiv(lanes) * lanes, {count});
    OpFoldResult zeroIndex = rewriter.getIndexAttr(0);
    OpFoldResult oneIndex = rewriter.getIndexAttr(1);
    OpFoldResult laneCount = rewriter.getIndexAttr(lanes);

    auto filled = [&](ArrayRef<OpFoldResult> shape, double init) {
      Value empty = tensor::EmptyOp::create(rewriter, loc, shape, f32);
      return linalg::FillOp::create(rewriter, loc, constF32(init), empty)
          .getResult(0);
    };
    auto minMaxBody = [](OpBuilder &b, Location nested, ValueRange args) {
      Value lo = arith::MinimumFOp::create(b, nested, args[1], args[0]);
      Value hi = arith::MaximumFOp::create(b, nested, args[2], args[0]);
      linalg::YieldOp::create(b, nested, ValueRange{lo, hi});
    };
    // Partial mins and maxes (ins 0, 1) into mins and maxes (outs 2, 3).
    auto combineMinMax = [](OpBuilder &b, Location nested, ValueRange args) {
      Value lo = arith::MinimumFOp::create(b, nested, args[2], args[0]);
      Value hi = arith::MaximumFOp::create(b, nested, args[3], args[1]);
      linalg::YieldOp::create(b, nested, ValueRange{lo, hi});
    };
    const double inf = std::numeric_limits<double>::infinity();
    auto laneType = RankedTensorType::get({lanes}, f32);

    // Rows [first, first + count) of the [N / L, L] view of x.
    auto rowsOfGrid = [&](OpFoldResult first, OpFoldResult count) -> Value {
      AffineExpr r = rewriter.getAffineSymbolExpr(0);
      auto elementsOf = [&](OpFoldResult rowCount) {
        return rowCount == rows ? bulk
                                : affine::makeComposedFoldedAffineApply(
                                      rewriter, loc, r * lanes, {rowCount});
      };
      Value slice = tensor::ExtractSliceOp::create(
          rewriter, loc, flat, ArrayRef<OpFoldResult>{elementsOf(first)},
          ArrayRef<OpFoldResult>{elementsOf(count)},
          ArrayRef<OpFoldResult>{oneIndex});
      return tensor::ExpandShapeOp::create(
          rewriter, loc,
          RankedTensorType::get(
              {getConstantIntValue(count).value_or(ShapedType::kDynamic),
               lanes},
              f32),
          slice, ArrayRef<ReassociationIndices>{{0, 1}},
          ArrayRef<OpFoldResult>{count, laneCount});
    };
    // [R, L] inputs reduced over R into the L lanes of `inits` (min, max):
    // x rows with minMaxBody, or partial mins and maxes with combineMinMax.
    auto reduceRowsIntoLanes = [&](ValueRange grids, ValueRange inits,
                                   auto body) {
      SmallVector<AffineMap> maps(grids.size(),
                                  AffineMap::getMultiDimIdentityMap(2, ctx));
      maps.append(2, AffineMap::get(2, 0, rewriter.getAffineDimExpr(1)));
      return SmallVector<Value>(
          linalg::GenericOp::create(
              rewriter, loc, TypeRange{laneType, laneType}, grids, inits,
              maps,
              ArrayRef<utils::IteratorType>{utils::IteratorType::reduction,
                                            utils::IteratorType::parallel},
              body)
              .getResults());
    };

    // [N / L, L] -> L lanes (just the init values when N < L is known).
    SmallVector<Value> laneResults{filled({laneCount}, inf),
                                   filled({laneCount}, -inf)};
    OpFoldResult rowsLeft = rows, firstRowLeft = zeroIndex;
    if (parallel && getConstantIntValue(rows).value_or(kChunkRows) >=
                        kChunkRows) {
      // Threads: whole chunks of kChunkRows rows reduce into one partial
      // [L] each ([C, kChunkRows, L] -> [C, L], C parallel: the vectorizer
      // distributes it over threads), the partials into the lanes.
      AffineExpr r = rewriter.getAffineSymbolExpr(0);
      OpFoldResult chunks = affine::makeComposedFoldedAffineApply(
          rewriter, loc, r.floorDiv(kChunkRows), {rows});
      OpFoldResult chunkedRows = affine::makeComposedFoldedAffineApply(
          rewriter, loc, r.floorDiv(kChunkRows) * kChunkRows, {rows});
      int64_t staticChunks =
          getConstantIntValue(chunks).value_or(ShapedType::kDynamic);
      Value grid = tensor::ExpandShapeOp::create(
          rewriter, loc,
          RankedTensorType::get({staticChunks, kChunkRows, lanes}, f32),
          rowsOfGrid(zeroIndex, chunkedRows),
          ArrayRef<ReassociationIndices>{{0, 1}, {2}},
          ArrayRef<OpFoldResult>{chunks, rewriter.getIndexAttr(kChunkRows),
                                 laneCount});
      auto partialType = RankedTensorType::get({staticChunks, lanes}, f32);
      AffineExpr c = rewriter.getAffineDimExpr(0),
                 l = rewriter.getAffineDimExpr(2);
      AffineMap chunkMap = AffineMap::getMultiDimIdentityMap(3, ctx);
      AffineMap partialMap = AffineMap::get(3, 0, {c, l}, ctx);
      auto partials = linalg::GenericOp::create(
          rewriter, loc, TypeRange{partialType, partialType}, ValueRange{grid},
          ValueRange{filled({chunks, laneCount}, inf),
                     filled({chunks, laneCount}, -inf)},
          ArrayRef<AffineMap>{chunkMap, partialMap, partialMap},
          ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                        utils::IteratorType::reduction,
                                        utils::IteratorType::parallel},
          minMaxBody);
      // The partials into the lanes: [C, L] -> [L], mins and maxes.
      laneResults =
          reduceRowsIntoLanes(partials.getResults(), laneResults, combineMinMax);
      firstRowLeft = chunkedRows;
      rowsLeft = affine::makeComposedFoldedAffineApply(
          rewriter, loc, r - r.floorDiv(kChunkRows) * kChunkRows, {rows});
    }
    // The rows not in a chunk (all of them without threads).
    if (getConstantIntValue(rowsLeft) != 0)
      laneResults =
          reduceRowsIntoLanes(rowsOfGrid(firstRowLeft, rowsLeft), laneResults,
                              minMaxBody);

    // The last N mod L elements into the first lanes (none when N is a
    // known multiple of L).
    if (getConstantIntValue(tail) != 0) {
      Value tailSlice = tensor::ExtractSliceOp::create(
          rewriter, loc, flat, ArrayRef<OpFoldResult>{bulk},
          ArrayRef<OpFoldResult>{tail}, ArrayRef<OpFoldResult>{oneIndex});
      SmallVector<Value> tailInits;
      for (Value lanesValue : laneResults)
        tailInits.push_back(tensor::ExtractSliceOp::create(
            rewriter, loc, lanesValue, ArrayRef<OpFoldResult>{zeroIndex},
            ArrayRef<OpFoldResult>{tail}, ArrayRef<OpFoldResult>{oneIndex}));
      AffineMap tailMap = AffineMap::getMultiDimIdentityMap(1, ctx);
      auto tailMinMax = linalg::GenericOp::create(
          rewriter, loc,
          TypeRange{tailInits[0].getType(), tailInits[1].getType()},
          ValueRange{tailSlice}, tailInits,
          ArrayRef<AffineMap>{tailMap, tailMap, tailMap},
          ArrayRef<utils::IteratorType>{utils::IteratorType::parallel},
          minMaxBody);
      for (auto [laneResult, tailValue] :
           llvm::zip(laneResults, tailMinMax.getResults()))
        laneResult = tensor::InsertSliceOp::create(
            rewriter, loc, tailValue, laneResult,
            ArrayRef<OpFoldResult>{zeroIndex}, ArrayRef<OpFoldResult>{tail},
            ArrayRef<OpFoldResult>{oneIndex});
    }

    // L lanes -> the scalar.
    auto scalarType = RankedTensorType::get({}, f32);
    AffineMap allLanes = AffineMap::getMultiDimIdentityMap(1, ctx);
    AffineMap toScalar = AffineMap::get(1, 0, {}, ctx);
    auto minMax = linalg::GenericOp::create(
        rewriter, loc, TypeRange{scalarType, scalarType}, laneResults,
        ValueRange{filled({}, inf), filled({}, -inf)},
        ArrayRef<AffineMap>{allLanes, allLanes, toScalar, toScalar},
        ArrayRef<utils::IteratorType>{utils::IteratorType::reduction},
        combineMinMax);
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
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
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
    const TypeConverter &converter, RewritePatternSet &patterns,
    bool parallel) {
  patterns.add<DynamicQuantizeLinearToLinalg>(converter,
                                              patterns.getContext(), parallel);
}
