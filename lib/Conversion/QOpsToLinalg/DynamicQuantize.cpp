//===- DynamicQuantize.cpp - DynamicQuantizeLinear to linalg --------------===//
//
// Two passes over x, as the ONNX function body has them:
//
//   pass 1 (lane-wise reductions, then the lanes):
//     lo  = minNum(lo, x)           init +Inf   IEEE minNum/maxNum: a NaN
//     hi  = maxNum(hi, x)           init -Inf   never enters
//     nan = nan | isnan(x)          init 0      (i32 lanes, all ones for a
//                                               NaN: the compare's mask)
//   scalars (f32):
//     lo, hi = nan ? NaN : lo, hi              NaN propagates, as ReduceMin/
//                                              ReduceMax do
//     max = maximum(0, hi), min = minimum(0, lo)
//     scale = (max == min ? 1 : max - min) / 255     ONNX reference: an
//                                                    all-zero x gives 1/255
//     zp = saturate_u8(round_half_to_even(0 - min / scale))   NaN -> 0
//   pass 2 (elementwise):
//     y = saturate_u8(round_half_to_even(x / scale) + zp)      NaN -> zp
//
// minNum/maxNum may keep either zero where minimum/maximum prefer -0 / +0;
// the sign of a zero min or max changes neither max - min, nor max == min,
// nor round(0 - min / scale), so y, scale and zp are those of
// minimum/maximum. On x86 minNum is three instructions per vector (one with
// AVX-512) and arith.minimumf six; the NaN flag on f32-wide lanes is a
// compare and an OR (an i8 flag packed each mask with three shuffles). The
// lanes L (minMaxLanes) are 4 vector registers per accumulator: 64 on
// AVX-512, 32 on AVX2, whose 16 registers 64 lanes overflowed (three
// accumulators of 8 ymm each spilled every row).
//
// With +-Inf in x the IEEE arithmetic gives scale = +Inf, zp = 0, y = 0;
// with NaN in x it gives scale = NaN, zp = 0, y = 0 (docs/Numerics.md).
// An empty x reduces to the init values, so min = max = 0: scale 1/255, zp 0.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"

#include "QuantOps/Conversion/QOpsToLinalg/QuantMath.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"
#include "TuningTable.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace mlir::qops;

namespace {

/// The three accumulators (lo, hi, nan) fold in a candidate each: an x
/// (minMaxBody) or partial accumulators (combineMinMax).
void yieldAccumulated(OpBuilder &b, Location nested, ValueRange accs,
                      Value forLo, Value forHi, Value forNan) {
  Value lo = arith::MinNumFOp::create(b, nested, accs[0], forLo);
  Value hi = arith::MaxNumFOp::create(b, nested, accs[1], forHi);
  Value nan = arith::OrIOp::create(b, nested, accs[2], forNan);
  linalg::YieldOp::create(b, nested, ValueRange{lo, hi, nan});
}

/// x (in 0) into the accumulators (outs 1-3).
void minMaxBody(OpBuilder &b, Location nested, ValueRange args) {
  // All ones where x is NaN: the compare's mask as it is.
  Value isNan = arith::ExtSIOp::create(
      b, nested, b.getI32Type(),
      arith::CmpFOp::create(b, nested, arith::CmpFPredicate::UNO, args[0],
                            args[0]));
  yieldAccumulated(b, nested, args.drop_front(), args[0], args[0], isNan);
}

/// Partial accumulators (ins 0-2) into the accumulators (outs 3-5).
void combineMinMax(OpBuilder &b, Location nested, ValueRange args) {
  yieldAccumulated(b, nested, args.drop_front(3), args[0], args[1], args[2]);
}

SmallVector<Type> typesOf(ValueRange values) {
  return llvm::to_vector(values.getTypes());
}

/// Pass 1: min and max in one sweep, shaped to vectorize. x is flattened to
/// [N]; its first N - N mod L elements, viewed as [N / L, L], reduce over
/// the rows into L lanes (an outer reduction: parallel along the contiguous
/// lanes, so it vectorizes with vector accumulators); the last N mod L
/// elements fold into the first lanes; the L lanes reduce to the scalar.
/// minimum/maximum are associative and commutative (NaN propagates, -0 <
/// +0), so the order does not change the result.
struct MinMaxPass {
  OpBuilder &rewriter;
  Location loc;
  int64_t lanes;
  Value flat;
  OpFoldResult rows, bulk, tail, zeroIndex, oneIndex, laneCount;

  MinMaxPass(OpBuilder &rewriter, Location loc, Value x, int64_t lanes)
      : rewriter(rewriter), loc(loc), lanes(lanes), flat(x) {
    unsigned rank = cast<RankedTensorType>(x.getType()).getRank();
    if (rank == 0)
      flat = tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get({1}, rewriter.getF32Type()),
          x, ArrayRef<ReassociationIndices>{},
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
    else if (rank > 1)
      flat = tensor::CollapseShapeOp::create(
          rewriter, loc, x,
          ArrayRef<ReassociationIndices>{
              llvm::to_vector(llvm::seq<int64_t>(0, rank))});
    OpFoldResult count = tensor::getMixedSize(rewriter, loc, flat, 0);
    AffineExpr n = rewriter.getAffineSymbolExpr(0);
    rows = affine::makeComposedFoldedAffineApply(rewriter, loc,
                                                 n.floorDiv(lanes), {count});
    bulk = affine::makeComposedFoldedAffineApply(
        rewriter, loc, n.floorDiv(lanes) * lanes, {count});
    tail = affine::makeComposedFoldedAffineApply(
        rewriter, loc, n - n.floorDiv(lanes) * lanes, {count});
    zeroIndex = rewriter.getIndexAttr(0);
    oneIndex = rewriter.getIndexAttr(1);
    laneCount = rewriter.getIndexAttr(lanes);
  }

  Value filled(ArrayRef<OpFoldResult> shape, TypedAttr init) {
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, shape, init.getType());
    Value initValue = arith::ConstantOp::create(rewriter, loc, init);
    return linalg::FillOp::create(rewriter, loc, initValue, empty)
        .getResult(0);
  }

  /// lo, hi and nan of `shape`, filled with +Inf, -Inf and 0.
  SmallVector<Value> filledAccumulators(ArrayRef<OpFoldResult> shape) {
    const double inf = std::numeric_limits<double>::infinity();
    const TypedAttr inits[] = {rewriter.getF32FloatAttr(inf),
                               rewriter.getF32FloatAttr(-inf),
                               rewriter.getI32IntegerAttr(0)};
    return llvm::map_to_vector(
        inits, [&](TypedAttr init) { return filled(shape, init); });
  }

  /// Rows [first, first + count) of the [N / L, L] view of x.
  Value rowsOfGrid(OpFoldResult first, OpFoldResult count) {
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
            {getConstantIntValue(count).value_or(ShapedType::kDynamic), lanes},
            rewriter.getF32Type()),
        slice, ArrayRef<ReassociationIndices>{{0, 1}},
        ArrayRef<OpFoldResult>{count, laneCount});
  }

  /// [R, L] inputs reduced over R into the L lanes of `inits` (lo, hi,
  /// nan): x rows with minMaxBody, or partials with combineMinMax.
  SmallVector<Value>
  reduceRowsIntoLanes(ValueRange grids, ValueRange inits,
                      function_ref<void(OpBuilder &, Location, ValueRange)>
                          body) {
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineMap> maps(grids.size(),
                                AffineMap::getMultiDimIdentityMap(2, ctx));
    maps.append(inits.size(),
                AffineMap::get(2, 0, rewriter.getAffineDimExpr(1)));
    return SmallVector<Value>(
        linalg::GenericOp::create(
            rewriter, loc, typesOf(inits), grids, inits, maps,
            ArrayRef<utils::IteratorType>{utils::IteratorType::reduction,
                                          utils::IteratorType::parallel},
            body)
            .getResults());
  }

  /// Threads: whole chunks of kMinMaxChunkRows rows reduce into one partial [L]
  /// each ([C, kMinMaxChunkRows, L] -> [C, L], C parallel: the vectorizer
  /// distributes it over threads), the partials into `laneResults`. Sets
  /// the rows that no chunk took.
  SmallVector<Value> reduceChunks(ValueRange laneResults,
                                  OpFoldResult &firstRowLeft,
                                  OpFoldResult &rowsLeft) {
    MLIRContext *ctx = rewriter.getContext();
    AffineExpr r = rewriter.getAffineSymbolExpr(0);
    OpFoldResult chunks = affine::makeComposedFoldedAffineApply(
        rewriter, loc, r.floorDiv(kMinMaxChunkRows), {rows});
    OpFoldResult chunkedRows = affine::makeComposedFoldedAffineApply(
        rewriter, loc, r.floorDiv(kMinMaxChunkRows) * kMinMaxChunkRows, {rows});
    int64_t staticChunks =
        getConstantIntValue(chunks).value_or(ShapedType::kDynamic);
    Value grid = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get({staticChunks, kMinMaxChunkRows, lanes},
                              rewriter.getF32Type()),
        rowsOfGrid(zeroIndex, chunkedRows),
        ArrayRef<ReassociationIndices>{{0, 1}, {2}},
        ArrayRef<OpFoldResult>{chunks, rewriter.getIndexAttr(kMinMaxChunkRows),
                               laneCount});
    AffineExpr c = rewriter.getAffineDimExpr(0),
               l = rewriter.getAffineDimExpr(2);
    SmallVector<AffineMap> maps{AffineMap::getMultiDimIdentityMap(3, ctx)};
    maps.append(3, AffineMap::get(3, 0, {c, l}, ctx));
    SmallVector<Value> partialInits = filledAccumulators({chunks, laneCount});
    auto partials = linalg::GenericOp::create(
        rewriter, loc, typesOf(partialInits), ValueRange{grid}, partialInits,
        maps,
        ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                      utils::IteratorType::reduction,
                                      utils::IteratorType::parallel},
        minMaxBody);
    // The partials into the lanes: [C, L] -> [L].
    SmallVector<Value> result =
        reduceRowsIntoLanes(partials.getResults(), laneResults, combineMinMax);
    firstRowLeft = chunkedRows;
    rowsLeft = affine::makeComposedFoldedAffineApply(
        rewriter, loc, r - r.floorDiv(kMinMaxChunkRows) * kMinMaxChunkRows, {rows});
    return result;
  }

  /// The last N mod L elements into the first lanes.
  SmallVector<Value> foldTail(SmallVector<Value> laneResults) {
    MLIRContext *ctx = rewriter.getContext();
    Value tailSlice = tensor::ExtractSliceOp::create(
        rewriter, loc, flat, ArrayRef<OpFoldResult>{bulk},
        ArrayRef<OpFoldResult>{tail}, ArrayRef<OpFoldResult>{oneIndex});
    SmallVector<Value> tailInits;
    for (Value lanesValue : laneResults)
      tailInits.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, lanesValue, ArrayRef<OpFoldResult>{zeroIndex},
          ArrayRef<OpFoldResult>{tail}, ArrayRef<OpFoldResult>{oneIndex}));
    SmallVector<AffineMap> tailMaps(1 + tailInits.size(),
                                    AffineMap::getMultiDimIdentityMap(1, ctx));
    auto tailMinMax = linalg::GenericOp::create(
        rewriter, loc, typesOf(tailInits), ValueRange{tailSlice}, tailInits,
        tailMaps, ArrayRef<utils::IteratorType>{utils::IteratorType::parallel},
        minMaxBody);
    for (auto [laneResult, tailValue] :
         llvm::zip(laneResults, tailMinMax.getResults()))
      laneResult = tensor::InsertSliceOp::create(
          rewriter, loc, tailValue, laneResult,
          ArrayRef<OpFoldResult>{zeroIndex}, ArrayRef<OpFoldResult>{tail},
          ArrayRef<OpFoldResult>{oneIndex});
    return laneResults;
  }

  /// lo and hi of x (NaN if x holds one), as f32 scalars.
  std::pair<Value, Value> emit(bool parallel) {
    MLIRContext *ctx = rewriter.getContext();
    // [N / L, L] -> L lanes (just the init values when N < L is known).
    SmallVector<Value> laneResults = filledAccumulators({laneCount});
    OpFoldResult rowsLeft = rows, firstRowLeft = zeroIndex;
    if (parallel &&
        getConstantIntValue(rows).value_or(kMinMaxChunkRows) >= kMinMaxChunkRows)
      laneResults = reduceChunks(laneResults, firstRowLeft, rowsLeft);
    // The rows not in a chunk (all of them without threads).
    if (getConstantIntValue(rowsLeft) != 0)
      laneResults = reduceRowsIntoLanes(rowsOfGrid(firstRowLeft, rowsLeft),
                                        laneResults, minMaxBody);
    // The last N mod L elements (none when N is a known multiple of L).
    if (getConstantIntValue(tail) != 0)
      laneResults = foldTail(laneResults);

    // L lanes -> the scalars.
    SmallVector<AffineMap> scalarMaps(
        laneResults.size(), AffineMap::getMultiDimIdentityMap(1, ctx));
    scalarMaps.append(laneResults.size(), AffineMap::get(1, 0, {}, ctx));
    SmallVector<Value> scalarInits = filledAccumulators({});
    auto minMax = linalg::GenericOp::create(
        rewriter, loc, typesOf(scalarInits), laneResults, scalarInits,
        scalarMaps,
        ArrayRef<utils::IteratorType>{utils::IteratorType::reduction},
        combineMinMax);
    auto extractScalar = [&](unsigned i) {
      return tensor::ExtractOp::create(rewriter, loc, minMax.getResult(i),
                                       ValueRange{})
          .getResult();
    };
    Value sawNan = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ne, extractScalar(2),
        arith::ConstantOp::create(rewriter, loc,
                                  rewriter.getI32IntegerAttr(0)));
    Value nan = arith::ConstantOp::create(
        rewriter, loc,
        rewriter.getF32FloatAttr(std::numeric_limits<double>::quiet_NaN()));
    Value lo = arith::SelectOp::create(rewriter, loc, sawNan, nan,
                                       extractScalar(0));
    Value hi = arith::SelectOp::create(rewriter, loc, sawNan, nan,
                                       extractScalar(1));
    return {lo, hi};
  }
};

/// The scale and the zero point (i32), on scalars (see the file comment).
std::pair<Value, Value> emitScaleAndZeroPoint(OpBuilder &rewriter,
                                              Location loc, Value lo,
                                              Value hi) {
  auto constF32 = [&](double v) -> Value {
    return arith::ConstantOp::create(rewriter, loc,
                                     rewriter.getF32FloatAttr(v));
  };
  Value zero = constF32(0.0);
  Value max = arith::MaximumFOp::create(rewriter, loc, hi, zero);
  Value min = arith::MinimumFOp::create(rewriter, loc, lo, zero);
  Value equal = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OEQ,
                                      max, min);
  Value range =
      arith::SelectOp::create(rewriter, loc, equal, constF32(1.0),
                              arith::SubFOp::create(rewriter, loc, max, min));
  Value scale = arith::DivFOp::create(rewriter, loc, range, constF32(255.0));
  Value zeroPointF = arith::SubFOp::create(
      rewriter, loc, zero, arith::DivFOp::create(rewriter, loc, min, scale));
  Value zeroI32 =
      arith::ConstantOp::create(rewriter, loc, rewriter.getI32IntegerAttr(0));
  Value zeroPoint =
      emitRoundAddZeroPointSaturate(rewriter, loc, zeroPointF, zeroI32, 0, 255);
  return {scale, zeroPoint};
}

struct DynamicQuantizeLinearToLinalg
    : OpConversionPattern<DynamicQuantizeLinearOp> {
  DynamicQuantizeLinearToLinalg(const TypeConverter &converter,
                                MLIRContext *ctx, bool parallel,
                                int64_t lanes)
      : OpConversionPattern(converter, ctx), parallel(parallel),
        lanes(lanes) {}

  /// Shape pass 1 so that threads can share it (chunk partials).
  bool parallel;
  /// The lanes L of pass 1's accumulators.
  int64_t lanes;

  LogicalResult
  matchAndRewrite(DynamicQuantizeLinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    unsigned rank = cast<RankedTensorType>(x.getType()).getRank();
    Type i8 = rewriter.getI8Type();
    MinMaxPass minMax(rewriter, loc, x, lanes);
    auto [lo, hi] = minMax.emit(parallel);
    Value scale, zeroPoint;
    std::tie(scale, zeroPoint) = emitScaleAndZeroPoint(rewriter, loc, lo, hi);

    // Pass 2: quantize with the computed parameters.
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    Value init = createEmptyLike(rewriter, loc, x, i8);
    SmallVector<utils::IteratorType> parallelDims(
        rank, utils::IteratorType::parallel);
    auto quantize = linalg::GenericOp::create(
        rewriter, loc, init.getType(), ValueRange{x}, init,
        ArrayRef<AffineMap>{identity, identity}, parallelDims,
        [&](OpBuilder &b, Location nested, ValueRange args) {
          Value quotient = arith::DivFOp::create(b, nested, args[0], scale);
          Value y = emitRoundAddZeroPointSaturate(b, nested, quotient,
                                                  zeroPoint, 0, 255);
          linalg::YieldOp::create(b, nested,
                                  arith::TruncIOp::create(b, nested, i8, y)
                                      .getResult());
        });

    Value scaleTensor = tensor::FromElementsOp::create(
        rewriter, loc, RankedTensorType::get({}, rewriter.getF32Type()),
        scale);
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
    bool parallel, int64_t minMaxLanes) {
  patterns.add<DynamicQuantizeLinearToLinalg>(
      converter, patterns.getContext(), parallel, minMaxLanes);
}
