//===- FuseQDQ.cpp - the qops-fuse-qdq pass -------------------------------===//
//
// QDQ models spell a quantized matmul as DequantizeLinear -> float MatMul ->
// QuantizeLinear, and LLM weights as a blocked 4-bit DequantizeLinear feeding
// a float MatMul. Two patterns (formulas in Passes.td and docs/Numerics.md):
//
//   FuseQDQMatMul        Q(matmul(DQ(a), DQ(b))) -> qops.qlinear_matmul
//   FuseWeightOnlyMatMul matmul(x, DQ(w4 constant, blocked along K))
//                        -> one linalg.generic over nibble-packed weights
//
// and the dynamic-quantization one of FuseDynamicQuantization.cpp, the QDQ
// convolution's of FuseQDQConvolution.cpp.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"
#include "QuantOps/Dialect/QOps/IR/QuantParams.h"
#include "QuantOps/Conversion/QOpsToLinalg/QuantMath.h"

#include "FuseQDQUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSFUSEQDQ
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;
using namespace mlir::qops;
using namespace mlir::qops::fuse;

namespace {

/// Collapsing [..., M, K] into rows [prod(...) * M, K] (the importer's N-D
/// MatMul): every dim but the last in the first group.
bool collapsesLeadingDims(ArrayRef<ReassociationIndices> groups,
                          int64_t rank) {
  return groups.size() == 2 && (int64_t)groups[0].size() == rank - 1 &&
         groups[1].size() == 1;
}

//===----------------------------------------------------------------------===//
// Q(matmul(DQ(a), DQ(b))) -> qlinear_matmul
//===----------------------------------------------------------------------===//

struct FuseQDQMatMul : OpRewritePattern<QuantizeLinearOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QuantizeLinearOp quantize,
                                PatternRewriter &rewriter) const override {
    // Q: ui8/si8 output, one f32 scale.
    if (!isPerTensorInt8Quantize(quantize))
      return rewriter.notifyMatchFailure(quantize, "not a per-tensor int8 Q");
    Type yType = tensorTypeOf(quantize.getY()).getElementType();

    // Q's input: the matmul, maybe expanded back from rows.
    Value product = quantize.getX();
    auto expand = product.getDefiningOp<tensor::ExpandShapeOp>();
    if (expand) {
      if (!expand->hasOneUse())
        return failure();
      product = expand.getSrc();
    }
    auto matmul = product.getDefiningOp<linalg::MatmulOp>();
    if (!matmul || !matmul->hasOneUse() || !matmul.hasPureTensorSemantics() ||
        !isZeroFilled(matmul.getDpsInits()[0]))
      return rewriter.notifyMatchFailure(quantize, "not Q(linalg.matmul)");
    if (matmul.hasUserDefinedMaps())
      return rewriter.notifyMatchFailure(quantize, "transposed matmul");

    // The lhs: DQ(a), maybe collapsed into rows.
    Value lhs = matmul.getInputs()[0];
    auto collapse = lhs.getDefiningOp<tensor::CollapseShapeOp>();
    if (collapse)
      lhs = collapse.getSrc();
    if (static_cast<bool>(collapse) != static_cast<bool>(expand))
      return rewriter.notifyMatchFailure(quantize, "rows not restored");
    auto dqA = lhs.getDefiningOp<DequantizeLinearOp>();
    auto dqB = matmul.getInputs()[1].getDefiningOp<DequantizeLinearOp>();
    if (!dqA || !dqB)
      return rewriter.notifyMatchFailure(quantize, "operands are not DQ");
    if (collapse) {
      int64_t rank = tensorTypeOf(lhs).getRank();
      if (!collapsesLeadingDims(collapse.getReassociationIndices(), rank) ||
          expand.getReassociationIndices() !=
              collapse.getReassociationIndices())
        return rewriter.notifyMatchFailure(quantize, "not a row collapse");
    }

    // DQ(a): per-tensor; DQ(b): per-tensor or per-column. Int8 data, f32
    // scales, f32 results.
    if (!isInt8Dequantize(dqA) || !isInt8Dequantize(dqB, /*axis=*/1))
      return rewriter.notifyMatchFailure(quantize,
                                         "not int8 f32 DQs per tensor / column");

    Location loc = quantize.getLoc();
    Value zeroA = getZeroPointOrZero(rewriter, loc, dqA.getXZeroPoint(),
                                     tensorTypeOf(dqA.getX()).getElementType());
    Value zeroB = getZeroPointOrZero(rewriter, loc, dqB.getXZeroPoint(),
                                     tensorTypeOf(dqB.getX()).getElementType());
    Value zeroY = getZeroPointOrZero(rewriter, loc, quantize.getYZeroPoint(),
                                     yType);
    auto fused = QLinearMatMulOp::create(
        rewriter, loc, quantize.getY().getType(), dqA.getX(), dqA.getXScale(),
        zeroA, dqB.getX(), dqB.getXScale(), zeroB, quantize.getYScale(),
        zeroY);
    rewriter.replaceOp(quantize, fused.getY());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// matmul(DQ(a), DQ(b)) with a float result -> matmul_integer dequantize
//===----------------------------------------------------------------------===//

/// Whether `value` (a matmul's result, or its expand back from rows) is
/// quantized: then FuseQDQMatMul makes the whole a qlinear_matmul.
bool feedsQuantize(Value value) {
  return llvm::any_of(value.getUsers(), [](Operation *user) {
    if (isa<QuantizeLinearOp>(user))
      return true;
    auto expand = dyn_cast<tensor::ExpandShapeOp>(user);
    return expand && feedsQuantize(expand.getResult());
  });
}

/// The scale product sa * sb (sb one element or [N]) as one linalg.generic
/// of sb's shape (rank 0 when one element):
///   linalg.generic ins(sa, sb) outs(tensor.empty) { mulf }
Value emitScaleProduct(PatternRewriter &rewriter, Location loc, Value sa,
                       Value sb) {
  sa = collapseToScalar(rewriter, loc, sa);
  if (hasSingleElement(tensorTypeOf(sb)))
    sb = collapseToScalar(rewriter, loc, sb);
  RankedTensorType type = tensorTypeOf(sb);
  int64_t rank = type.getRank();
  MLIRContext *ctx = rewriter.getContext();
  Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                       type.getElementType());
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  SmallVector<utils::IteratorType> parallel(rank,
                                            utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             rewriter, loc, type, ValueRange{sa, sb}, ValueRange{init},
             ArrayRef<AffineMap>{AffineMap::get(rank, 0, ctx), identity,
                                 identity},
             parallel,
             [](OpBuilder &b, Location l, ValueRange args) {
               linalg::YieldOp::create(
                   b, l, ValueRange{arith::MulFOp::create(b, l, args[0],
                                                          args[1])});
             })
      .getResult(0);
}

/// DQ(a) x DQ(b) whose f32 result is not quantized again (the last layer
/// of a QDQ model, ONNX Runtime's MatMulIntegerToFloat):
///   y = f32(sum_k (a - za)(b - zb)) * fl(sa * sb)
/// as matmul_integer with the dequantize clause; a per tensor, b per tensor
/// or per column; the importer's row collapse of an N-D a is looked
/// through as in FuseQDQMatMul.
struct FuseDQMatMulToFloat : OpRewritePattern<linalg::MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::MatmulOp matmul,
                                PatternRewriter &rewriter) const override {
    if (!matmul.hasPureTensorSemantics() || matmul.hasUserDefinedMaps() ||
        !isZeroFilled(matmul.getDpsInits()[0]) ||
        !tensorTypeOf(matmul.getResult(0)).getElementType().isF32())
      return failure();
    Value result = matmul.getResult(0);
    Operation *root = matmul;
    Value lhs = matmul.getInputs()[0];
    auto collapse = lhs.getDefiningOp<tensor::CollapseShapeOp>();
    if (collapse) {
      auto expand = result.hasOneUse()
                        ? dyn_cast<tensor::ExpandShapeOp>(*result.user_begin())
                        : nullptr;
      int64_t rank = tensorTypeOf(collapse.getSrc()).getRank();
      if (!expand ||
          !collapsesLeadingDims(collapse.getReassociationIndices(), rank) ||
          expand.getReassociationIndices() !=
              collapse.getReassociationIndices())
        return rewriter.notifyMatchFailure(matmul, "rows not restored");
      root = expand;
      lhs = collapse.getSrc();
    }
    if (feedsQuantize(root->getResult(0)))
      return rewriter.notifyMatchFailure(matmul, "quantized: a qlinear_matmul");
    auto dqA = lhs.getDefiningOp<DequantizeLinearOp>();
    auto dqB = matmul.getInputs()[1].getDefiningOp<DequantizeLinearOp>();
    if (!dqA || !dqB)
      return rewriter.notifyMatchFailure(matmul, "operands are not DQ");
    if (!isInt8Dequantize(dqA) || !isInt8Dequantize(dqB, /*axis=*/1))
      return rewriter.notifyMatchFailure(matmul,
                                         "not int8 f32 DQs per tensor / column");
    Location loc = matmul.getLoc();
    rewriter.setInsertionPoint(root);
    Value scale =
        emitScaleProduct(rewriter, loc, dqA.getXScale(), dqB.getXScale());
    auto fused = MatMulIntegerOp::create(
        rewriter, loc, root->getResult(0).getType(), dqA.getX(),
        dqA.getXZeroPoint(), dqB.getX(), dqB.getXZeroPoint(), scale,
        Value());
    rewriter.replaceOp(root, fused.getY());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// matmul(x, DQ(w4)) -> weight-only generic over packed nibbles
//===----------------------------------------------------------------------===//

/// w[K, N] (4-bit values, one per APInt) -> bytes[K / B, B / 2, N] with
///   bytes[kb, kp, n] = (w[kb*B + 2kp, n] & 0xF) | (w[kb*B + 2kp + 1, n] << 4)
DenseElementsAttr packNibblePairs(DenseElementsAttr weights, int64_t blockSize,
                                  Type i8) {
  auto type = cast<RankedTensorType>(weights.getType());
  int64_t rows = type.getDimSize(0), columns = type.getDimSize(1);
  SmallVector<APInt> values(weights.getValues<APInt>().begin(),
                            weights.getValues<APInt>().end());
  SmallVector<APInt> packed;
  packed.reserve(rows / 2 * columns);
  for (int64_t pair = 0; pair < rows / 2; ++pair)
    for (int64_t n = 0; n < columns; ++n) {
      uint64_t low = values[(2 * pair) * columns + n].getZExtValue() & 0xF;
      uint64_t high = values[(2 * pair + 1) * columns + n].getZExtValue() & 0xF;
      packed.push_back(APInt(8, low | (high << 4)));
    }
  auto packedType = RankedTensorType::get(
      {rows / blockSize, blockSize / 2, columns}, i8);
  return DenseElementsAttr::get(packedType, packed);
}

/// A value of ONNX-typed tensor seen as its storage type (the bridge that
/// convert-qops-to-linalg folds, as the ONNX importer uses).
Value asStorage(PatternRewriter &rewriter, Location loc, Value value) {
  RankedTensorType type = tensorTypeOf(value);
  Type storage = getStorageElementType(type.getElementType());
  if (storage == type.getElementType())
    return value;
  return UnrealizedConversionCastOp::create(rewriter, loc,
                                            type.clone(storage), value)
      .getResult(0);
}

struct FuseWeightOnlyMatMul : OpRewritePattern<linalg::MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::MatmulOp matmul,
                                PatternRewriter &rewriter) const override {
    if (!matmul.hasPureTensorSemantics() || matmul.hasUserDefinedMaps())
      return failure();
    Value x = matmul.getInputs()[0];
    auto dq = matmul.getInputs()[1].getDefiningOp<DequantizeLinearOp>();
    if (!dq || !tensorTypeOf(x).getElementType().isF32() ||
        !tensorTypeOf(dq.getY()).getElementType().isF32() ||
        !tensorTypeOf(matmul.getResult(0)).getElementType().isF32())
      return rewriter.notifyMatchFailure(matmul, "not matmul(f32, DQ f32)");
    RankedTensorType wType = tensorTypeOf(dq.getX());
    Type wOnnx = wType.getElementType();
    auto wInt = dyn_cast<IntegerType>(wOnnx);
    if (!wInt || wInt.isSignless() || wInt.getWidth() != 4)
      return rewriter.notifyMatchFailure(matmul, "weights are not 4-bit");
    DenseElementsAttr weights;
    if (!matchPattern(dq.getX(), m_Constant(&weights)) ||
        !wType.hasStaticShape())
      return rewriter.notifyMatchFailure(matmul, "weights are not constant");
    QuantGranularity granularity =
        getGranularity(dq, dq.getX(), dq.getXScale());
    int64_t blockSize = granularity.blockSize;
    int64_t k = wType.getDimSize(0);
    if (granularity.kind != Granularity::Blocked || granularity.axis != 0 ||
        blockSize % 2 != 0 || k % blockSize != 0)
      return rewriter.notifyMatchFailure(
          matmul, "not blocked along K with an even block dividing K");
    Type scaleOnnx = tensorTypeOf(dq.getXScale()).getElementType();

    // x[M, K] -> [M, K / B, B / 2, 2]: one loop per part of k.
    Location loc = matmul.getLoc();
    RankedTensorType xType = tensorTypeOf(x);
    SmallVector<OpFoldResult> xSizes{
        xType.isDynamicDim(0)
            ? OpFoldResult(tensor::DimOp::create(rewriter, loc, x, 0).getResult())
            : OpFoldResult(rewriter.getIndexAttr(xType.getDimSize(0))),
        rewriter.getIndexAttr(k / blockSize),
        rewriter.getIndexAttr(blockSize / 2), rewriter.getIndexAttr(2)};
    auto xSplitType = RankedTensorType::get(
        {xType.getDimSize(0), k / blockSize, blockSize / 2, 2},
        xType.getElementType());
    Value xSplit = tensor::ExpandShapeOp::create(
        rewriter, loc, xSplitType, x,
        SmallVector<ReassociationIndices>{{0}, {1, 2, 3}}, xSizes);

    Type i8 = rewriter.getI8Type();
    Value packed = arith::ConstantOp::create(
        rewriter, loc, packNibblePairs(weights, blockSize, i8));
    SmallVector<Value> inputs{xSplit, packed, dq.getXScale()};
    bool hasZeroPoint = static_cast<bool>(dq.getXZeroPoint());
    if (hasZeroPoint)
      inputs.push_back(asStorage(rewriter, loc, dq.getXZeroPoint()));

    // Loops (m, kb, kp, parity, n), n innermost (contiguous in w and y):
    //   y[m, n] += x[m, kb, kp, parity] * w(kb*B + 2kp + parity, n)
    // with the k-order of the unfused matmul (kb, kp, parity increasing).
    MLIRContext *ctx = rewriter.getContext();
    AffineExpr m, kb, kp, parity, col;
    bindDims(ctx, m, kb, kp, parity, col);
    SmallVector<AffineMap> maps{
        AffineMap::get(5, 0, {m, kb, kp, parity}, ctx),
        AffineMap::get(5, 0, {kb, kp, col}, ctx),
        AffineMap::get(5, 0, {kb, col}, ctx)};
    if (hasZeroPoint)
      maps.push_back(AffineMap::get(5, 0, {kb, col}, ctx));
    maps.push_back(AffineMap::get(5, 0, {m, col}, ctx));
    using utils::IteratorType;
    SmallVector<IteratorType> iterators{
        IteratorType::parallel, IteratorType::reduction,
        IteratorType::reduction, IteratorType::reduction,
        IteratorType::parallel};
    bool isSigned = wInt.isSigned();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, matmul.getResultTypes(), inputs,
        matmul.getDpsInits(), maps, iterators,
        [&](OpBuilder &b, Location nested, ValueRange args) {
          // The nibble of this parity, sign- or zero-extended in i8:
          //   w = (byte << (4 - 4 * parity)) >> 4
          Value parityIndex = linalg::IndexOp::create(b, nested, 3);
          Value parityI8 =
              arith::IndexCastOp::create(b, nested, i8, parityIndex);
          Value four = arith::ConstantOp::create(b, nested,
                                                 b.getIntegerAttr(i8, 4));
          Value leftShift = arith::SubIOp::create(
              b, nested, four,
              arith::MulIOp::create(b, nested, parityI8, four));
          Value shifted =
              arith::ShLIOp::create(b, nested, args[1], leftShift);
          Value nibble =
              isSigned
                  ? arith::ShRSIOp::create(b, nested, shifted, four).getResult()
                  : arith::ShRUIOp::create(b, nested, shifted, four)
                        .getResult();
          Value weight = emitDequantizeElement(
              b, nested, nibble, hasZeroPoint ? args[3] : Value(), args[2],
              wOnnx, scaleOnnx, b.getF32Type());
          // As linalg.matmul: acc + x * w.
          Value product = arith::MulFOp::create(b, nested, args[0], weight);
          Value sum = arith::AddFOp::create(b, nested, args.back(), product);
          linalg::YieldOp::create(b, nested, sum);
        });
    rewriter.replaceOp(matmul, generic.getResults());
    return success();
  }
};

struct QOpsFuseQDQPass
    : public qops::impl::QOpsFuseQDQBase<QOpsFuseQDQPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseQDQMatMul, FuseWeightOnlyMatMul, FuseDQMatMulToFloat>(
        &getContext());
    populateFuseDynamicQuantizationPatterns(patterns);
    populateFuseQDQConvolutionPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
