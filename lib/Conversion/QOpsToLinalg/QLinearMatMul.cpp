//===- QLinearMatMul.cpp - QLinearMatMul to linalg ------------------------===//
//
// Integer QLinearMatMul (si8/ui8 in any combination) as two linalg.generic
// ops over the iteration space (batch..., m, n[, k]):
//
//   acc[.., m, n] = sum_k (a[.., m, k] - a_zp[..]) * (b[.., k, n] - b_zp[..])
//                   exactly, in i32 (|a - a_zp|, |b - b_zp| <= 255, so each
//                   product fits 17 bits and K up to 2^15 cannot overflow;
//                   ONNX allows wrap-around beyond that)
//   multiplier    = (a_scale * b_scale) / y_scale      in the scales' type
//   y[.., m, n]   = saturate(round_half_to_even(f64(acc) * f64(multiplier))
//                            + y_zp)
//
// The multiplier in the scales' type and the product in double reproduce the
// ONNX conformance data (SPEC.md).
//
// Float8 operands (opset 21; any mix with si8/ui8): the same formula with
// every element decoded exactly and the sum formed in f64, in increasing k
// order (ONNX does not define float8 QLinearMatMul numerics; this order is
// what the NumPy reference replays). A float8 y is y = float8(f64(acc) *
// f64(multiplier) + f64(y_zp)), saturating, rounded once. Batch dimensions broadcast (a static 1 is
// read at index 0); a 1-D a or b is expanded to a matrix and the added unit
// dimension is collapsed out of the result (numpy.matmul).
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"

#include "QuantMath.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace mlir::qops;

namespace {

/// The iteration space of the contraction: `numBatch` batch dims, then m, n
/// and (for the accumulation only) k.
struct MatMulSpace {
  unsigned numBatch;
  MLIRContext *ctx;
  unsigned m() const { return numBatch; }
  unsigned n() const { return numBatch + 1; }
  unsigned k() const { return numBatch + 2; }
  AffineExpr dim(unsigned d) const { return getAffineDimExpr(d, ctx); }
  AffineExpr zero() const { return getAffineConstantExpr(0, ctx); }

  /// Right-aligned batch indices of an operand of `shape` (whose last two
  /// dims are the matrix); a static 1 broadcasts (index 0).
  SmallVector<AffineExpr> batchExprs(ArrayRef<int64_t> shape) const {
    unsigned operandBatch = shape.size() - 2;
    SmallVector<AffineExpr> exprs;
    for (unsigned j = 0; j < operandBatch; ++j)
      exprs.push_back(shape[j] == 1
                          ? zero()
                          : dim(numBatch - operandBatch + j));
    return exprs;
  }

  /// The map of a matrix operand `[.., rows, cols]` whose rows/cols are the
  /// loop dims `rowDim`/`colDim`.
  AffineMap matrixMap(unsigned numDims, ArrayRef<int64_t> shape,
                      unsigned rowDim, unsigned colDim) const {
    SmallVector<AffineExpr> exprs = batchExprs(shape);
    exprs.push_back(dim(rowDim));
    exprs.push_back(dim(colDim));
    return AffineMap::get(numDims, 0, exprs, ctx);
  }

  /// The map of a scale or zero point (already collapsed to rank 0 when it
  /// has one element): 1-D params are per-row for `a` and per-column
  /// otherwise; N-D params are [.., M or 1, N or 1].
  AffineMap paramMap(unsigned numDims, RankedTensorType param,
                     bool oneDimIsRow) const {
    if (param.getRank() == 0)
      return AffineMap::get(numDims, 0, {}, ctx);
    if (param.getRank() == 1)
      return AffineMap::get(numDims, 0, dim(oneDimIsRow ? m() : n()));
    ArrayRef<int64_t> shape = param.getShape();
    SmallVector<AffineExpr> exprs = batchExprs(shape);
    exprs.push_back(shape[shape.size() - 2] == 1 ? zero() : dim(m()));
    exprs.push_back(shape.back() == 1 ? zero() : dim(n()));
    return AffineMap::get(numDims, 0, exprs, ctx);
  }
};

Value prepareParam(OpBuilder &b, Location loc, Value param) {
  if (hasSingleElement(cast<RankedTensorType>(param.getType())))
    return collapseToScalarTensor(b, loc, param);
  return param;
}

/// Groups the dims of the expanded result so that the unit dims added for
/// 1-D operands fold into a neighbour.
SmallVector<ReassociationIndices> getCollapseGroups(ArrayRef<bool> kept) {
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  for (auto [d, isKept] : llvm::enumerate(kept)) {
    if (isKept) {
      pending.push_back(d);
      groups.push_back(pending);
      pending.clear();
    } else if (!groups.empty()) {
      groups.back().push_back(d);
    } else {
      pending.push_back(d);
    }
  }
  return groups;
}

/// Rows of b in one chunk of a split k (see splitsK).
constexpr int64_t kSplitKRows = 1024;

struct QLinearMatMulToLinalg : OpConversionPattern<QLinearMatMulOp> {
  QLinearMatMulToLinalg(const TypeConverter &converter, MLIRContext *ctx,
                        bool parallel)
      : OpConversionPattern(converter, ctx), parallel(parallel) {}

  /// Threads run the outer loops.
  bool parallel;

  /// The number of k chunks when the integer contraction is a gemv to
  /// split over threads: no batch, at most 4 rows of a (static), K a static
  /// multiple of kSplitKRows with at least two chunks, scalar zero points.
  std::optional<int64_t> splitsK(RankedTensorType aType,
                                 RankedTensorType bType, Value aZeroPoint,
                                 Value bZeroPoint) const {
    if (!parallel || aType.getRank() != 2 || bType.getRank() != 2)
      return std::nullopt;
    int64_t rows = aType.getDimSize(0), k = aType.getDimSize(1);
    if (ShapedType::isDynamic(rows) || rows > 4 || ShapedType::isDynamic(k) ||
        k % kSplitKRows != 0 || k / kSplitKRows < 2 ||
        bType.getDimSize(0) != k)
      return std::nullopt;
    if (cast<RankedTensorType>(aZeroPoint.getType()).getRank() != 0 ||
        cast<RankedTensorType>(bZeroPoint.getType()).getRank() != 0)
      return std::nullopt;
    return k / kSplitKRows;
  }

  LogicalResult
  matchAndRewrite(QLinearMatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type aOnnx = op.getA().getType().getElementType();
    Type bOnnx = op.getB().getType().getElementType();
    Type yOnnx = op.getY().getType().getElementType();
    bool floatPath =
        isFloat8Type(aOnnx) || isFloat8Type(bOnnx) || isFloat8Type(yOnnx);
    FloatType f64 = rewriter.getF64Type();
    Type scaleOnnx =
        cast<RankedTensorType>(op.getAScale().getType()).getElementType();

    // numpy.matmul: a 1-D a is [1, K], a 1-D b is [K, 1].
    Value a = adaptor.getA(), b = adaptor.getB();
    auto aType = cast<RankedTensorType>(a.getType());
    auto bType = cast<RankedTensorType>(b.getType());
    bool aVector = aType.getRank() == 1, bVector = bType.getRank() == 1;
    if (aVector) {
      aType = RankedTensorType::get({1, aType.getDimSize(0)},
                                    aType.getElementType());
      a = tensor::ExpandShapeOp::create(rewriter, loc, aType, a,
                                        ArrayRef<ReassociationIndices>{{0, 1}});
    }
    if (bVector) {
      bType = RankedTensorType::get({bType.getDimSize(0), 1},
                                    bType.getElementType());
      b = tensor::ExpandShapeOp::create(rewriter, loc, bType, b,
                                        ArrayRef<ReassociationIndices>{{0, 1}});
    }
    FailureOr<SmallVector<int64_t>> accShape =
        QLinearMatMulOp::inferResultShape(aType.getShape(), bType.getShape());
    assert(succeeded(accShape) && "qlinear_matmul did not verify");
    unsigned rank = accShape->size();
    MatMulSpace space{rank - 2, rewriter.getContext()};

    // The sizes of the (expanded) result: each batch dim from whichever
    // operand has it, M from a, N from b.
    SmallVector<OpFoldResult> sizes;
    auto sizeOf = [&](Value v, int64_t d) -> OpFoldResult {
      return tensor::getMixedSize(rewriter, loc, v, d);
    };
    for (unsigned i = 0; i < space.numBatch; ++i) {
      auto fromOperand = [&](Value v, RankedTensorType t) -> OpFoldResult {
        int64_t offset = space.numBatch - (t.getRank() - 2);
        if (i < offset || t.getDimSize(i - offset) == 1)
          return OpFoldResult();
        return sizeOf(v, i - offset);
      };
      OpFoldResult size = fromOperand(a, aType);
      if (!size)
        size = fromOperand(b, bType);
      if (!size)
        size = rewriter.getIndexAttr(1);
      sizes.push_back(size);
    }
    sizes.push_back(sizeOf(a, aType.getRank() - 2));
    sizes.push_back(sizeOf(b, bType.getRank() - 1));

    // Sizes the verifier could not see (dynamic dims) are checked at run
    // time: K, batch dims that are not broadcast, and parameter shapes.
    emitSizeCheck(rewriter, loc, sizeOf(a, aType.getRank() - 1),
                  sizeOf(b, bType.getRank() - 2),
                  "qmatmul_inner_dim: a's K differs from b's K");
    for (unsigned i = 0; i < space.numBatch; ++i) {
      auto batchDim = [&](Value v, RankedTensorType t) -> OpFoldResult {
        int64_t offset = space.numBatch - (t.getRank() - 2);
        if (i < offset || t.getDimSize(i - offset) == 1)
          return OpFoldResult();
        return sizeOf(v, i - offset);
      };
      OpFoldResult aDim = batchDim(a, aType), bDim = batchDim(b, bType);
      if (aDim && bDim)
        emitSizeCheck(rewriter, loc, aDim, bDim,
                      "qmatmul_batch_broadcast: batch dimensions differ (a "
                      "dynamic dimension does not broadcast)");
    }
    auto checkParam = [&](Value param, Value matrix, bool oneDimIsRow,
                          StringRef label) {
      auto paramType = cast<RankedTensorType>(param.getType());
      if (hasSingleElement(paramType))
        return;
      auto matrixType = cast<RankedTensorType>(matrix.getType());
      int64_t rank = matrixType.getRank();
      std::string message =
          (label + ": the parameter's shape does not match at run time").str();
      if (paramType.getRank() == 1) {
        emitSizeCheck(rewriter, loc, sizeOf(param, 0),
                      sizeOf(matrix, oneDimIsRow ? rank - 2 : rank - 1),
                      message);
        return;
      }
      for (int64_t d = 0; d < paramType.getRank(); ++d)
        if (paramType.getDimSize(d) != 1)
          emitSizeCheck(rewriter, loc, sizeOf(param, d), sizeOf(matrix, d),
                        message);
    };
    checkParam(adaptor.getAScale(), a, true, "qmatmul_a_params_shape");
    checkParam(adaptor.getAZeroPoint(), a, true, "qmatmul_a_params_shape");
    checkParam(adaptor.getBScale(), b, false, "qmatmul_b_params_shape");
    checkParam(adaptor.getBZeroPoint(), b, false, "qmatmul_b_params_shape");

    // Accumulation: exact in i32, or in f64 for float8.
    Type accType = floatPath ? Type(f64) : Type(rewriter.getI32Type());
    Value zeroAcc = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(accType));
    Value accInit = linalg::FillOp::create(
                        rewriter, loc, zeroAcc,
                        tensor::EmptyOp::create(rewriter, loc, sizes, accType)
                            .getResult())
                        .getResult(0);
    Value aZeroPoint = prepareParam(rewriter, loc, adaptor.getAZeroPoint());
    Value bZeroPoint = prepareParam(rewriter, loc, adaptor.getBZeroPoint());
    unsigned accDims = rank + 1;
    SmallVector<AffineMap> accMaps{
        space.matrixMap(accDims, aType.getShape(), space.m(), space.k()),
        space.matrixMap(accDims, bType.getShape(), space.k(), space.n()),
        space.paramMap(accDims, cast<RankedTensorType>(aZeroPoint.getType()),
                       /*oneDimIsRow=*/true),
        space.paramMap(accDims, cast<RankedTensorType>(bZeroPoint.getType()),
                       /*oneDimIsRow=*/false)};
    SmallVector<AffineExpr> accExprs;
    for (unsigned d = 0; d < rank; ++d)
      accExprs.push_back(space.dim(d));
    accMaps.push_back(AffineMap::get(accDims, 0, accExprs, space.ctx));
    // Loops (.., m, k, n): k outside n, so the innermost loop is parallel
    // and contiguous in b and the accumulator, and the contraction
    // vectorizes like an elementwise op (qops-vectorize-elementwise); each
    // sum still runs over k in increasing order.
    SmallVector<AffineExpr> kBeforeN;
    for (unsigned d = 0; d < accDims; ++d)
      kBeforeN.push_back(space.dim(d));
    std::swap(kBeforeN[space.n()], kBeforeN[space.k()]);
    AffineMap toOldOrder = AffineMap::get(accDims, 0, kBeforeN, space.ctx);
    for (AffineMap &map : accMaps)
      map = map.compose(toOldOrder);
    SmallVector<utils::IteratorType> accIterators(
        accDims, utils::IteratorType::parallel);
    accIterators[space.n()] = utils::IteratorType::reduction;
    // sum += (a - a_zp) (b - b_zp), args = (a, b, a_zp, b_zp, sum).
    auto accumulateBody = [&](OpBuilder &bb, Location nested,
                              ValueRange args) {
          Value sum;
          if (floatPath) {
            auto decode = [&](Value v, Type onnx) {
              return emitConvertToFloat(bb, nested, v, onnx, f64);
            };
            Value av = arith::SubFOp::create(bb, nested, decode(args[0], aOnnx),
                                             decode(args[2], aOnnx));
            Value bv = arith::SubFOp::create(bb, nested, decode(args[1], bOnnx),
                                             decode(args[3], bOnnx));
            Value product = arith::MulFOp::create(bb, nested, av, bv);
            sum = arith::AddFOp::create(bb, nested, args[4], product);
          } else {
            Value av = arith::SubIOp::create(
                bb, nested, emitExtendToI32(bb, nested, args[0], aOnnx),
                emitExtendToI32(bb, nested, args[2], aOnnx));
            Value bv = arith::SubIOp::create(
                bb, nested, emitExtendToI32(bb, nested, args[1], bOnnx),
                emitExtendToI32(bb, nested, args[3], bOnnx));
            Value product = arith::MulIOp::create(bb, nested, av, bv);
            sum = arith::AddIOp::create(bb, nested, args[4], product);
          }
          linalg::YieldOp::create(bb, nested, sum);
        };
    Value accumulated;
    std::optional<int64_t> splitChunks =
        floatPath ? std::nullopt
                  : splitsK(aType, bType, aZeroPoint, bZeroPoint);
    if (splitChunks) {
      // A gemv with threads (a few rows of a, b read once): k in chunks of
      // kSplitKRows rows of b, each summed into its own partial row,
      //   partial[c, m, n] = sum_{kk} (a[m, c R + kk] - a_zp) *
      //                               (b[c R + kk, n] - b_zp)
      //   acc[m, n] = sum_c partial[c, m, n]
      // The chunk loop is the outer parallel loop that
      // qops-vectorize-elementwise gives to the threads: each reads a
      // contiguous part of b. i32 sums wrap, so the grouping does not change
      // the result.
      int64_t chunks = *splitChunks, rows = aType.getDimSize(0),
              columns = bType.getDimSize(1);
      Type i32 = rewriter.getI32Type();
      Value aChunks = tensor::ExpandShapeOp::create(
          rewriter, loc,
          RankedTensorType::get({rows, chunks, kSplitKRows},
                                aType.getElementType()),
          a, ArrayRef<ReassociationIndices>{{0}, {1, 2}});
      Value bChunks = tensor::ExpandShapeOp::create(
          rewriter, loc,
          RankedTensorType::get({chunks, kSplitKRows, columns},
                                bType.getElementType()),
          b, ArrayRef<ReassociationIndices>{{0, 1}, {2}});
      MLIRContext *ctx = rewriter.getContext();
      AffineExpr c = getAffineDimExpr(0, ctx), m = getAffineDimExpr(1, ctx),
                 kk = getAffineDimExpr(2, ctx), n = getAffineDimExpr(3, ctx);
      Value partialInit =
          linalg::FillOp::create(
              rewriter, loc, zeroAcc,
              tensor::EmptyOp::create(
                  rewriter, loc,
                  ArrayRef<OpFoldResult>{rewriter.getIndexAttr(chunks),
                                         sizes[0], sizes[1]},
                  i32)
                  .getResult())
              .getResult(0);
      AffineMap scalar = AffineMap::get(4, 0, {}, ctx);
      Value partial =
          linalg::GenericOp::create(
              rewriter, loc, partialInit.getType(),
              ValueRange{aChunks, bChunks, aZeroPoint, bZeroPoint},
              partialInit,
              ArrayRef<AffineMap>{AffineMap::get(4, 0, {m, c, kk}, ctx),
                                  AffineMap::get(4, 0, {c, kk, n}, ctx),
                                  scalar, scalar,
                                  AffineMap::get(4, 0, {c, m, n}, ctx)},
              ArrayRef<utils::IteratorType>{
                  utils::IteratorType::parallel,
                  utils::IteratorType::parallel,
                  utils::IteratorType::reduction,
                  utils::IteratorType::parallel},
              accumulateBody)
              .getResult(0);
      AffineExpr c3 = getAffineDimExpr(0, ctx), m3 = getAffineDimExpr(1, ctx),
                 n3 = getAffineDimExpr(2, ctx);
      accumulated =
          linalg::GenericOp::create(
              rewriter, loc, accInit.getType(), partial, accInit,
              ArrayRef<AffineMap>{AffineMap::get(3, 0, {c3, m3, n3}, ctx),
                                  AffineMap::get(3, 0, {m3, n3}, ctx)},
              ArrayRef<utils::IteratorType>{
                  utils::IteratorType::reduction,
                  utils::IteratorType::parallel,
                  utils::IteratorType::parallel},
              [&](OpBuilder &bb, Location nested, ValueRange args) {
                linalg::YieldOp::create(
                    bb, nested,
                    arith::AddIOp::create(bb, nested, args[1], args[0])
                        .getResult());
              })
              .getResult(0);
    } else {
      accumulated =
          linalg::GenericOp::create(rewriter, loc, accInit.getType(),
                                    ValueRange{a, b, aZeroPoint, bZeroPoint},
                                    accInit, accMaps, accIterators,
                                    accumulateBody)
              .getResult(0);
    }

    // Requantization.
    Value aScale = prepareParam(rewriter, loc, adaptor.getAScale());
    Value bScale = prepareParam(rewriter, loc, adaptor.getBScale());
    Value yScale = prepareParam(rewriter, loc, adaptor.getYScale());
    Value yZeroPoint = prepareParam(rewriter, loc, adaptor.getYZeroPoint());
    auto typeOf = [](Value v) { return cast<RankedTensorType>(v.getType()); };
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    SmallVector<AffineMap> requantMaps{
        identity, space.paramMap(rank, typeOf(aScale), true),
        space.paramMap(rank, typeOf(bScale), false),
        space.paramMap(rank, typeOf(yScale), false),
        space.paramMap(rank, typeOf(yZeroPoint), false), identity};
    Type yStorage = getStorageElementType(yOnnx);
    Value yInit = tensor::EmptyOp::create(rewriter, loc, sizes, yStorage);
    checkParam(adaptor.getYScale(), yInit, false, "qmatmul_y_params_shape");
    checkParam(adaptor.getYZeroPoint(), yInit, false,
               "qmatmul_y_params_shape");
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    auto requantize = linalg::GenericOp::create(
        rewriter, loc, yInit.getType(),
        ValueRange{accumulated, aScale, bScale, yScale,
                   yZeroPoint},
        yInit, requantMaps, parallel,
        [&](OpBuilder &bb, Location nested, ValueRange args) {
          Value scaleProduct = emitFloatBinary(bb, nested, FloatBinaryOp::Mul,
                                               args[1], args[2]);
          Value multiplier = emitFloatBinary(bb, nested, FloatBinaryOp::Div,
                                             scaleProduct, args[3]);
          Value acc = floatPath
                          ? args[0]
                          : arith::SIToFPOp::create(bb, nested, f64, args[0])
                                .getResult();
          Value product = arith::MulFOp::create(
              bb, nested, acc,
              emitConvertToFloat(bb, nested, multiplier, scaleOnnx, f64));
          Value stored;
          if (isFloat8Type(yOnnx)) {
            Value shifted = arith::AddFOp::create(
                bb, nested, product,
                emitConvertToFloat(bb, nested, args[4], yOnnx, f64));
            stored = emitRoundToSmallFloat(bb, nested, shifted, yOnnx,
                                           /*saturate=*/true);
          } else {
            Value y = emitRoundAddZeroPointSaturate(
                bb, nested, product,
                emitExtendToI32(bb, nested, args[4], yOnnx),
                getIntegerTypeMin(yOnnx), getIntegerTypeMax(yOnnx));
            stored = arith::TruncIOp::create(bb, nested, yStorage, y);
          }
          linalg::YieldOp::create(bb, nested, stored);
        });

    Value result = requantize.getResult(0);
    if (aVector || bVector) {
      SmallVector<bool> kept(space.numBatch, true);
      kept.push_back(!aVector);
      kept.push_back(!bVector);
      auto resultType = cast<RankedTensorType>(
          getTypeConverter()->convertType(op.getY().getType()));
      result = tensor::CollapseShapeOp::create(rewriter, loc, resultType,
                                               result,
                                               getCollapseGroups(kept));
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void qops::populateQLinearMatMulToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    bool parallel) {
  patterns.add<QLinearMatMulToLinalg>(converter, patterns.getContext(),
                                      parallel);
}
