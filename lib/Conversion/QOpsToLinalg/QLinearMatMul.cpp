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

#include "QLinearMatMulLanes.h"
#include "QuantOps/Conversion/QOpsToLinalg/QuantMath.h"
#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"
#include "TuningTable.h"
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

/// The number of k chunks when the integer contraction is a gemv to split
/// over threads: no batch, at most kGemvMaxRows rows of a (static), K a
/// static multiple of kGemvKChunkRows (TuningTable.h) with at least two
/// chunks, scalar zero points.
std::optional<int64_t> splitsK(RankedTensorType aType, RankedTensorType bType,
                               Value aZeroPoint, Value bZeroPoint) {
  if (aType.getRank() != 2 || bType.getRank() != 2)
    return std::nullopt;
  int64_t rows = aType.getDimSize(0), k = aType.getDimSize(1);
  if (ShapedType::isDynamic(rows) || rows > kGemvMaxRows ||
      ShapedType::isDynamic(k) ||
      k % kGemvKChunkRows != 0 || k / kGemvKChunkRows < 2 ||
      bType.getDimSize(0) != k)
    return std::nullopt;
  if (cast<RankedTensorType>(aZeroPoint.getType()).getRank() != 0 ||
      cast<RankedTensorType>(bZeroPoint.getType()).getRank() != 0)
    return std::nullopt;
  return k / kGemvKChunkRows;
}

/// The operands of a matmul-shaped contraction (storage types), with the
/// ONNX element types that give them their meaning.
struct MatMulOperands {
  Value a, aZeroPoint, b, bZeroPoint;
  Type aOnnx, bOnnx;
  bool floatPath; // float8 operands: decoded, summed in f64
  /// Parameters of a (per row) and of b (per column) whose shapes are
  /// checked at run time, with their constraint labels.
  SmallVector<std::pair<Value, StringRef>> aParams, bParams;
};

/// The accumulation of a matmul in the expanded iteration space
/// (batch..., m, n): `acc` and what its users need to read it.
struct MatMulAccumulation {
  Value acc;                      // [batch..., M, N], i32 or f64
  SmallVector<OpFoldResult> sizes; // of acc
  MatMulSpace space;
  Value a, b;                     // 1-D operands expanded to matrices
  bool aVector, bVector;          // 1-D in the op (collapse the result)
};

/// Checks at run time that a parameter [R] / [.., R, 1] / [.., 1, C] matches
/// the dims of `matrix` that the verifier could not see.
void checkParamShape(OpBuilder &b, Location loc, Value param, Value matrix,
                     bool oneDimIsRow, StringRef label) {
  auto paramType = cast<RankedTensorType>(param.getType());
  if (hasSingleElement(paramType))
    return;
  auto sizeOf = [&](Value v, int64_t d) {
    return tensor::getMixedSize(b, loc, v, d);
  };
  auto matrixType = cast<RankedTensorType>(matrix.getType());
  int64_t rank = matrixType.getRank();
  std::string message =
      (label + ": the parameter's shape does not match at run time").str();
  if (paramType.getRank() == 1) {
    emitSizeCheck(b, loc, sizeOf(param, 0),
                  sizeOf(matrix, oneDimIsRow ? rank - 2 : rank - 1), message);
    return;
  }
  for (int64_t d = 0; d < paramType.getRank(); ++d)
    if (paramType.getDimSize(d) != 1)
      emitSizeCheck(b, loc, sizeOf(param, d), sizeOf(matrix, d), message);
}

/// The sizes of the expanded result: each batch dim from whichever operand
/// has it, M from a, N from b; checks at run time what the verifier could
/// not see (K, batch dims that do not broadcast).
SmallVector<OpFoldResult> emitResultSizes(OpBuilder &b, Location loc,
                                          const MatMulSpace &space, Value a,
                                          Value bm, StringRef prefix) {
  auto aType = cast<RankedTensorType>(a.getType());
  auto bType = cast<RankedTensorType>(bm.getType());
  auto sizeOf = [&](Value v, int64_t d) -> OpFoldResult {
    return tensor::getMixedSize(b, loc, v, d);
  };
  auto batchDim = [&](unsigned i, Value v,
                      RankedTensorType t) -> OpFoldResult {
    int64_t offset = space.numBatch - (t.getRank() - 2);
    if (i < offset || t.getDimSize(i - offset) == 1)
      return OpFoldResult();
    return sizeOf(v, i - offset);
  };
  SmallVector<OpFoldResult> sizes;
  for (unsigned i = 0; i < space.numBatch; ++i) {
    OpFoldResult size = batchDim(i, a, aType);
    if (!size)
      size = batchDim(i, bm, bType);
    sizes.push_back(size ? size : b.getIndexAttr(1));
  }
  sizes.push_back(sizeOf(a, aType.getRank() - 2));
  sizes.push_back(sizeOf(bm, bType.getRank() - 1));
  emitSizeCheck(b, loc, sizeOf(a, aType.getRank() - 1),
                sizeOf(bm, bType.getRank() - 2),
                (prefix + "_inner_dim: a's K differs from b's K").str());
  for (unsigned i = 0; i < space.numBatch; ++i) {
    OpFoldResult aDim = batchDim(i, a, aType), bDim = batchDim(i, bm, bType);
    if (aDim && bDim)
      emitSizeCheck(b, loc, aDim, bDim,
                    (prefix + "_batch_broadcast: batch dimensions differ (a "
                              "dynamic dimension does not broadcast)")
                        .str());
  }
  return sizes;
}

/// sum += (a - a_zp) (b - b_zp), args = (a, b, a_zp, b_zp, sum): exact in
/// i32, or decoded and summed in f64 for float8.
void emitAccumulateBody(OpBuilder &bb, Location nested, ValueRange args,
                        const MatMulOperands &ops) {
  Value sum;
  if (ops.floatPath) {
    FloatType f64 = bb.getF64Type();
    auto decode = [&](Value v, Type onnx) {
      return emitConvertToFloat(bb, nested, v, onnx, f64);
    };
    Value av = arith::SubFOp::create(bb, nested, decode(args[0], ops.aOnnx),
                                     decode(args[2], ops.aOnnx));
    Value bv = arith::SubFOp::create(bb, nested, decode(args[1], ops.bOnnx),
                                     decode(args[3], ops.bOnnx));
    Value product = arith::MulFOp::create(bb, nested, av, bv);
    sum = arith::AddFOp::create(bb, nested, args[4], product);
  } else {
    Value av = arith::SubIOp::create(
        bb, nested, emitExtendToI32(bb, nested, args[0], ops.aOnnx),
        emitExtendToI32(bb, nested, args[2], ops.aOnnx));
    Value bv = arith::SubIOp::create(
        bb, nested, emitExtendToI32(bb, nested, args[1], ops.bOnnx),
        emitExtendToI32(bb, nested, args[3], ops.bOnnx));
    Value product = arith::MulIOp::create(bb, nested, av, bv);
    sum = arith::AddIOp::create(bb, nested, args[4], product);
  }
  linalg::YieldOp::create(bb, nested, sum);
}

/// A gemv with threads (a few rows of a, b read once): k in `chunks` chunks
/// of kGemvKChunkRows rows of b, each summed into its own partial row,
///   partial[c, m, n] = sum_{kk} (a[m, c R + kk] - a_zp) *
///                               (b[c R + kk, n] - b_zp)
///   acc[m, n] = sum_c partial[c, m, n]
/// The chunk loop is the outer parallel loop that qops-vectorize-elementwise
/// gives to the threads: each reads a contiguous part of b. i32 sums wrap,
/// so the grouping does not change the result.
Value emitSplitKAccumulation(OpBuilder &rewriter, Location loc,
                             const MatMulOperands &ops, Value a, Value b,
                             ArrayRef<OpFoldResult> sizes, Value accInit,
                             int64_t chunks) {
  auto aType = cast<RankedTensorType>(a.getType());
  auto bType = cast<RankedTensorType>(b.getType());
  int64_t rows = aType.getDimSize(0), columns = bType.getDimSize(1);
  Type i32 = rewriter.getI32Type();
  Value aChunks = tensor::ExpandShapeOp::create(
      rewriter, loc,
      RankedTensorType::get({rows, chunks, kGemvKChunkRows},
                            aType.getElementType()),
      a, ArrayRef<ReassociationIndices>{{0}, {1, 2}});
  Value bChunks = tensor::ExpandShapeOp::create(
      rewriter, loc,
      RankedTensorType::get({chunks, kGemvKChunkRows, columns},
                            bType.getElementType()),
      b, ArrayRef<ReassociationIndices>{{0, 1}, {2}});
  MLIRContext *ctx = rewriter.getContext();
  AffineExpr c = getAffineDimExpr(0, ctx), m = getAffineDimExpr(1, ctx),
             kk = getAffineDimExpr(2, ctx), n = getAffineDimExpr(3, ctx);
  Value zero =
      arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(i32));
  Value partialInit =
      linalg::FillOp::create(
          rewriter, loc, zero,
          tensor::EmptyOp::create(
              rewriter, loc,
              ArrayRef<OpFoldResult>{rewriter.getIndexAttr(chunks), sizes[0],
                                     sizes[1]},
              i32)
              .getResult())
          .getResult(0);
  AffineMap scalar = AffineMap::get(4, 0, {}, ctx);
  using utils::IteratorType;
  Value partial =
      linalg::GenericOp::create(
          rewriter, loc, partialInit.getType(),
          ValueRange{aChunks, bChunks, ops.aZeroPoint, ops.bZeroPoint},
          partialInit,
          ArrayRef<AffineMap>{AffineMap::get(4, 0, {m, c, kk}, ctx),
                              AffineMap::get(4, 0, {c, kk, n}, ctx), scalar,
                              scalar, AffineMap::get(4, 0, {c, m, n}, ctx)},
          ArrayRef<IteratorType>{IteratorType::parallel,
                                 IteratorType::parallel,
                                 IteratorType::reduction,
                                 IteratorType::parallel},
          [&](OpBuilder &bb, Location nested, ValueRange args) {
            emitAccumulateBody(bb, nested, args, ops);
          })
          .getResult(0);
  AffineExpr c3 = getAffineDimExpr(0, ctx), m3 = getAffineDimExpr(1, ctx),
             n3 = getAffineDimExpr(2, ctx);
  return linalg::GenericOp::create(
             rewriter, loc, accInit.getType(), partial, accInit,
             ArrayRef<AffineMap>{AffineMap::get(3, 0, {c3, m3, n3}, ctx),
                                 AffineMap::get(3, 0, {m3, n3}, ctx)},
             ArrayRef<IteratorType>{IteratorType::reduction,
                                    IteratorType::parallel,
                                    IteratorType::parallel},
             [&](OpBuilder &bb, Location nested, ValueRange args) {
               linalg::YieldOp::create(
                   bb, nested,
                   arith::AddIOp::create(bb, nested, args[1], args[0])
                       .getResult());
             })
      .getResult(0);
}

/// The decomposition every matmul-shaped contraction shares:
///   acc[.., m, n] = sum_k (a[.., m, k] - a_zp) * (b[.., k, n] - b_zp)
/// over the expanded iteration space (1-D operands made matrices), as one
/// linalg.generic with loops (.., m, k, n) (k outside n, so the innermost
/// loop is parallel and contiguous in b and the accumulator, and the
/// contraction vectorizes like an elementwise op; each sum still runs over
/// k in increasing order), or the split-k gemv with `parallel`.
MatMulAccumulation emitMatMulAccumulation(OpBuilder &rewriter, Location loc,
                                          MatMulOperands ops, bool parallel,
                                          StringRef prefix) {
  // numpy.matmul: a 1-D a is [1, K], a 1-D b is [K, 1].
  auto expand = [&](Value v, bool asRow) {
    auto t = cast<RankedTensorType>(v.getType());
    auto type = RankedTensorType::get(
        asRow ? ArrayRef<int64_t>{1, t.getDimSize(0)}
              : ArrayRef<int64_t>{t.getDimSize(0), 1},
        t.getElementType());
    return tensor::ExpandShapeOp::create(
               rewriter, loc, type, v, ArrayRef<ReassociationIndices>{{0, 1}})
        .getResult();
  };
  MatMulAccumulation result{Value(), {}, {0, rewriter.getContext()}, ops.a,
                            ops.b, false, false};
  result.aVector = cast<RankedTensorType>(ops.a.getType()).getRank() == 1;
  result.bVector = cast<RankedTensorType>(ops.b.getType()).getRank() == 1;
  if (result.aVector)
    result.a = expand(ops.a, /*asRow=*/true);
  if (result.bVector)
    result.b = expand(ops.b, /*asRow=*/false);
  auto aType = cast<RankedTensorType>(result.a.getType());
  auto bType = cast<RankedTensorType>(result.b.getType());
  FailureOr<SmallVector<int64_t>> accShape =
      QLinearMatMulOp::inferResultShape(aType.getShape(), bType.getShape());
  assert(succeeded(accShape) && "the matmul did not verify");
  unsigned rank = accShape->size();
  MatMulSpace &space = result.space;
  space.numBatch = rank - 2;
  result.sizes =
      emitResultSizes(rewriter, loc, space, result.a, result.b, prefix);
  for (auto [param, label] : ops.aParams)
    checkParamShape(rewriter, loc, param, result.a, /*oneDimIsRow=*/true,
                    label);
  for (auto [param, label] : ops.bParams)
    checkParamShape(rewriter, loc, param, result.b, /*oneDimIsRow=*/false,
                    label);

  Type accType = ops.floatPath ? Type(rewriter.getF64Type())
                               : Type(rewriter.getI32Type());
  Value zeroAcc =
      arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(accType));
  Value accInit =
      linalg::FillOp::create(
          rewriter, loc, zeroAcc,
          tensor::EmptyOp::create(rewriter, loc, result.sizes, accType)
              .getResult())
          .getResult(0);
  ops.aZeroPoint = prepareParam(rewriter, loc, ops.aZeroPoint);
  ops.bZeroPoint = prepareParam(rewriter, loc, ops.bZeroPoint);
  std::optional<int64_t> chunks =
      parallel && !ops.floatPath
          ? splitsK(aType, bType, ops.aZeroPoint, ops.bZeroPoint)
          : std::nullopt;
  if (chunks) {
    result.acc = emitSplitKAccumulation(rewriter, loc, ops, result.a,
                                        result.b, result.sizes, accInit,
                                        *chunks);
    return result;
  }
  unsigned accDims = rank + 1;
  SmallVector<AffineMap> accMaps{
      space.matrixMap(accDims, aType.getShape(), space.m(), space.k()),
      space.matrixMap(accDims, bType.getShape(), space.k(), space.n()),
      space.paramMap(accDims,
                     cast<RankedTensorType>(ops.aZeroPoint.getType()),
                     /*oneDimIsRow=*/true),
      space.paramMap(accDims,
                     cast<RankedTensorType>(ops.bZeroPoint.getType()),
                     /*oneDimIsRow=*/false)};
  SmallVector<AffineExpr> accExprs;
  for (unsigned d = 0; d < rank; ++d)
    accExprs.push_back(space.dim(d));
  accMaps.push_back(AffineMap::get(accDims, 0, accExprs, space.ctx));
  // Loops (.., m, k, n): swap the roles of the last two loop dims.
  SmallVector<AffineExpr> kBeforeN;
  for (unsigned d = 0; d < accDims; ++d)
    kBeforeN.push_back(space.dim(d));
  std::swap(kBeforeN[space.n()], kBeforeN[space.k()]);
  AffineMap toOldOrder = AffineMap::get(accDims, 0, kBeforeN, space.ctx);
  for (AffineMap &map : accMaps)
    map = map.compose(toOldOrder);
  SmallVector<utils::IteratorType> accIterators(accDims,
                                                utils::IteratorType::parallel);
  accIterators[space.n()] = utils::IteratorType::reduction;
  result.acc =
      linalg::GenericOp::create(
          rewriter, loc, accInit.getType(),
          ValueRange{result.a, result.b, ops.aZeroPoint, ops.bZeroPoint},
          accInit, accMaps, accIterators,
          [&](OpBuilder &bb, Location nested, ValueRange args) {
            emitAccumulateBody(bb, nested, args, ops);
          })
          .getResult(0);
  return result;
}

/// Drops the unit dims that 1-D operands added (numpy.matmul).
Value collapseVectorDims(OpBuilder &b, Location loc,
                         const MatMulAccumulation &acc, Value result,
                         RankedTensorType resultType) {
  if (!acc.aVector && !acc.bVector)
    return result;
  SmallVector<bool> kept(acc.space.numBatch, true);
  kept.push_back(!acc.aVector);
  kept.push_back(!acc.bVector);
  return tensor::CollapseShapeOp::create(b, loc, resultType, result,
                                         getCollapseGroups(kept));
}

} // namespace

namespace {

/// A zero point that is absent (MatMulInteger's optional ones): 0 of the
/// operand's storage type, as one element.
Value zeroPointOrZero(OpBuilder &b, Location loc, Value zeroPoint) {
  if (zeroPoint)
    return zeroPoint;
  auto type = RankedTensorType::get({}, b.getI8Type());
  return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(
                                               type, b.getI8IntegerAttr(0)));
}

/// y = saturate(round_half_to_even((acc + bias) * multiplier) + y_zp) over
/// the expanded iteration space, one linalg.generic (the header's formula;
/// bias 0 when absent).
Value emitRequantization(OpBuilder &rewriter, Location loc,
                         qkernel::MatMulOp op,
                         qkernel::MatMulOp::Adaptor adaptor,
                         const MatMulAccumulation &acc, bool floatPath) {
  Type yOnnx = op.getY().getType().getElementType();
  FloatType f64 = rewriter.getF64Type();
  Type scaleOnnx =
      cast<RankedTensorType>(op.getAScale().getType()).getElementType();
  unsigned rank = acc.sizes.size();
  const MatMulSpace &space = acc.space;
  Value aScale = prepareParam(rewriter, loc, adaptor.getAScale());
  Value bScale = prepareParam(rewriter, loc, adaptor.getBScale());
  Value yScale = prepareParam(rewriter, loc, adaptor.getYScale());
  Value yZeroPoint = prepareParam(rewriter, loc, adaptor.getYZeroPoint());
  auto typeOf = [](Value v) { return cast<RankedTensorType>(v.getType()); };
  AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
  SmallVector<Value> inputs{acc.acc, aScale, bScale, yScale, yZeroPoint};
  SmallVector<AffineMap> requantMaps{
      identity, space.paramMap(rank, typeOf(aScale), true),
      space.paramMap(rank, typeOf(bScale), false),
      space.paramMap(rank, typeOf(yScale), false),
      space.paramMap(rank, typeOf(yZeroPoint), false)};
  // The bias (QLinearConv's), as y's parameters: input 5 when present.
  bool hasBias = static_cast<bool>(adaptor.getBias());
  if (hasBias) {
    inputs.push_back(prepareParam(rewriter, loc, adaptor.getBias()));
    requantMaps.push_back(space.paramMap(rank, typeOf(inputs.back()), false));
  }
  requantMaps.push_back(identity);
  Type yStorage = getStorageElementType(yOnnx);
  Value yInit = tensor::EmptyOp::create(rewriter, loc, acc.sizes, yStorage);
  checkParamShape(rewriter, loc, adaptor.getYScale(), yInit, false,
                  "qmatmul_y_params_shape");
  checkParamShape(rewriter, loc, adaptor.getYZeroPoint(), yInit, false,
                  "qmatmul_y_params_shape");
  if (adaptor.getBias())
    checkParamShape(rewriter, loc, adaptor.getBias(), yInit, false,
                    "qlinearconv_bias");
  SmallVector<utils::IteratorType> parallelDims(
      rank, utils::IteratorType::parallel);
  auto requantize = linalg::GenericOp::create(
      rewriter, loc, yInit.getType(),
      inputs, yInit,
      requantMaps, parallelDims,
      [&](OpBuilder &bb, Location nested, ValueRange args) {
        Value scaleProduct = emitFloatBinary(bb, nested, FloatBinaryOp::Mul,
                                             args[1], args[2]);
        Value multiplier = emitFloatBinary(bb, nested, FloatBinaryOp::Div,
                                           scaleProduct, args[3]);
        // acc + bias in i32 (a bias comes with int8 operands only)
        Value sum = hasBias ? arith::AddIOp::create(bb, nested, args[0],
                                                    args[5])
                                  .getResult()
                            : args[0];
        Value accF = floatPath
                         ? sum
                         : arith::SIToFPOp::create(bb, nested, f64, sum)
                               .getResult();
        Value product = arith::MulFOp::create(
            bb, nested, accF,
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
  return requantize.getResult(0);
}

/// The dequantize clause on the sums (MatMulInteger / ConvInteger fused
/// with their Cast, Mul and Add):
///   y = f32(acc) * scale [+ offset]
/// rounded at each step, no fused multiply-add (the unfused graph's bits).
///   linalg.generic ins(acc, scale [, offset]) outs(tensor.empty : f32)
///     { sitofp, mulf [, addf] }
Value emitDequantization(OpBuilder &rewriter, Location loc,
                         qkernel::MatMulOp::Adaptor adaptor,
                         const MatMulAccumulation &acc) {
  unsigned rank = acc.sizes.size();
  auto typeOf = [](Value v) { return cast<RankedTensorType>(v.getType()); };
  AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
  SmallVector<Value> inputs{acc.acc};
  SmallVector<AffineMap> maps{identity};
  Value yInit =
      tensor::EmptyOp::create(rewriter, loc, acc.sizes, rewriter.getF32Type());
  for (Value param : {adaptor.getDequantScale(), adaptor.getDequantOffset()}) {
    if (!param)
      continue;
    checkParamShape(rewriter, loc, param, yInit, false,
                    "matmulint_dequantize");
    inputs.push_back(prepareParam(rewriter, loc, param));
    maps.push_back(acc.space.paramMap(rank, typeOf(inputs.back()), false));
  }
  maps.push_back(identity);
  SmallVector<utils::IteratorType> parallelDims(
      rank, utils::IteratorType::parallel);
  auto dequantize = linalg::GenericOp::create(
      rewriter, loc, yInit.getType(), inputs, yInit, maps, parallelDims,
      [&](OpBuilder &bb, Location nested, ValueRange args) {
        Value y = arith::SIToFPOp::create(bb, nested, bb.getF32Type(),
                                          args[0]);
        y = arith::MulFOp::create(bb, nested, y, args[1]);
        if (inputs.size() == 3)
          y = arith::AddFOp::create(bb, nested, y, args[2]);
        linalg::YieldOp::create(bb, nested, y);
      });
  return dequantize.getResult(0);
}

} // namespace

/// The accumulation, then (QLinearMatMul) the requantization; without it
/// (MatMulInteger) y = acc (i32), or the dequantize clause's f32. The run-time shape checks carry the
/// labels of the op the contraction came from: qmatmul_* when requantized,
/// matmulint_* otherwise.
LogicalResult qops::lowerMatMulGeneric(qkernel::MatMulOp op,
                                       qkernel::MatMulOp::Adaptor adaptor,
                                       ConversionPatternRewriter &rewriter,
                                       const TypeConverter &converter,
                                       bool parallel) {
  Location loc = op.getLoc();
  Type aOnnx = op.getA().getType().getElementType();
  Type bOnnx = op.getB().getType().getElementType();
  Type yOnnx = op.getY().getType().getElementType();
  bool requantizes = op.requantizes();
  bool floatPath =
      isFloat8Type(aOnnx) || isFloat8Type(bOnnx) || isFloat8Type(yOnnx);
  Value aZeroPoint = zeroPointOrZero(rewriter, loc, adaptor.getAZeroPoint());
  Value bZeroPoint = zeroPointOrZero(rewriter, loc, adaptor.getBZeroPoint());
  MatMulOperands operands{adaptor.getA(), aZeroPoint, adaptor.getB(),
                          bZeroPoint,     aOnnx,      bOnnx,
                          floatPath,      {},         {}};
  StringRef prefix = requantizes ? "qmatmul" : "matmulint";
  if (requantizes) {
    operands.aParams = {{adaptor.getAScale(), "qmatmul_a_params_shape"},
                        {aZeroPoint, "qmatmul_a_params_shape"}};
    operands.bParams = {{adaptor.getBScale(), "qmatmul_b_params_shape"},
                        {bZeroPoint, "qmatmul_b_params_shape"}};
  } else {
    operands.aParams = {{aZeroPoint, "matmulint_a_zp_shape"}};
    operands.bParams = {{bZeroPoint, "matmulint_b_zp_shape"}};
  }
  MatMulAccumulation acc =
      emitMatMulAccumulation(rewriter, loc, operands, parallel, prefix);
  Value y = requantizes ? emitRequantization(rewriter, loc, op, adaptor, acc,
                                             floatPath)
            : op.dequantizes() ? emitDequantization(rewriter, loc, adaptor, acc)
                               : acc.acc;
  auto resultType = cast<RankedTensorType>(
      converter.convertType(op.getY().getType()));
  rewriter.replaceOp(op, collapseVectorDims(rewriter, loc, acc, y,
                                            resultType));
  return success();
}

namespace {

/// qkernel.matmul in the generic form alone.
struct MatMulToLinalg : OpConversionPattern<qkernel::MatMulOp> {
  MatMulToLinalg(const TypeConverter &converter, MLIRContext *ctx,
                 bool parallel)
      : OpConversionPattern(converter, ctx), parallel(parallel) {}

  /// Threads run the outer loops.
  bool parallel;

  LogicalResult
  matchAndRewrite(qkernel::MatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return lowerMatMulGeneric(op, adaptor, rewriter, *getTypeConverter(),
                              parallel);
  }
};

} // namespace

void qops::populateQLinearMatMulToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    bool parallel) {
  patterns.add<MatMulToLinalg>(converter, patterns.getContext(), parallel);
}
