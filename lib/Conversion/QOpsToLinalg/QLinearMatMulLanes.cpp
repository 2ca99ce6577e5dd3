//===- QLinearMatMulLanes.cpp - vector lanes of the int8 matmuls ----------===//

#include "QLinearMatMulLanes.h"
#include "QLinearMatMulVnni.h"

#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"
#include "QuantOps/Conversion/QOpsToLinalg/QuantMath.h"
#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::qops;

bool qops::isKernelParamType(RankedTensorType type) {
  return hasSingleElement(type) || type.getRank() == 1 ||
         llvm::count_if(type.getShape(), [](int64_t d) { return d != 1; }) ==
             1;
}

FailureOr<KernelParam> qops::prepareKernelParam(OpBuilder &b, Location loc,
                                                Value param) {
  auto type = cast<RankedTensorType>(param.getType());
  if (!isKernelParamType(type))
    return failure();
  if (hasSingleElement(type))
    return KernelParam{collapseToScalarTensor(b, loc, param), false};
  if (type.getRank() == 1)
    return KernelParam{param, true};
  int64_t rank = type.getRank();
  return KernelParam{
      tensor::CollapseShapeOp::create(
          b, loc, param,
          ArrayRef<ReassociationIndices>{
              llvm::to_vector(llvm::seq<int64_t>(0, rank))}),
      true};
}

Value qops::readKernelParam(OpBuilder &b, Location loc,
                            const KernelParam &param, Value row, Value column,
                            bool isRow, int64_t lanes) {
  Type element = cast<RankedTensorType>(param.tensor.getType())
                     .getElementType();
  auto vecType = VectorType::get({lanes}, element);
  if (!param.perElement || isRow) {
    SmallVector<Value> indices;
    if (param.perElement)
      indices.push_back(row);
    Value scalar = tensor::ExtractOp::create(b, loc, param.tensor, indices);
    return vector::BroadcastOp::create(b, loc, vecType, scalar);
  }
  Value pad = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  return vector::TransferReadOp::create(b, loc, vecType, param.tensor,
                                        ValueRange{column}, pad,
                                        ArrayRef<bool>{true});
}

Value qops::emitPairDotStep(OpBuilder &b, Location loc, Value acc, Value x,
                            Value y) {
  return qkernel::DotI16PairsOp::create(b, loc, acc.getType(), acc, x, y);
}

Value qops::emitCenteredA16(OpBuilder &b, Location loc, Value a, Type aOnnx,
                            const KernelParam &aZeroPoint) {
  MLIRContext *ctx = b.getContext();
  unsigned rank = cast<RankedTensorType>(a.getType()).getRank();
  Type i16 = b.getIntegerType(16);
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap zpMap =
      aZeroPoint.perElement
          ? AffineMap::get(rank, 0, getAffineDimExpr(rank - 2, ctx))
          : AffineMap::get(rank, 0, {}, ctx);
  Value init = createEmptyLike(b, loc, a, i16);
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{a, aZeroPoint.tensor}, init,
             ArrayRef<AffineMap>{identity, zpMap, identity},
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value d = arith::SubIOp::create(
                   nb, l, emitExtendToI32(nb, l, args[0], aOnnx),
                   emitExtendToI32(nb, l, args[1], aOnnx));
               linalg::YieldOp::create(
                   nb, l, arith::TruncIOp::create(nb, l, i16, d).getResult());
             })
      .getResult(0);
}

Value qops::emitMultiplierLanes(OpBuilder &b, Location loc,
                                const RequantizeParams &params, Value row,
                                Value column, int64_t lanes) {
  Value as = readKernelParam(b, loc, params.aScale, row, column, true, lanes);
  Value bs = readKernelParam(b, loc, params.bScale, row, column, false, lanes);
  Value ys = readKernelParam(b, loc, params.yScale, row, column,
                             params.yScaleRow, lanes);
  return emitFiniteMultiplier(
      b, loc,
      arith::DivFOp::create(b, loc, arith::MulFOp::create(b, loc, as, bs),
                            ys));
}

Value qops::emitRequantizedLanes(OpBuilder &b, Location loc,
                                 const RequantizeParams &params, Value acc,
                                 Value multiplier, Value row, Value column,
                                 bool smallSums) {
  int64_t lanes = cast<VectorType>(acc.getType()).getNumElements();
  Value zeroPoint = readKernelParam(b, loc, params.yZeroPoint, row, column,
                                    params.yZeroPointRow, lanes);
  if (smallSums)
    return emitRequantizeSmallSum(b, loc, acc, multiplier, zeroPoint,
                                  params.yOnnx);
  return emitRequantizeSum(b, loc, acc, multiplier, zeroPoint, params.yOnnx);
}

bool qops::hasSmallSums(const Int8Contraction &c) {
  if (!fmaIsNative(c.op))
    return false;
  auto aType = cast<RankedTensorType>(c.a.getType());
  int64_t k = aType.getShape().back();
  if (!ShapedType::isDynamic(k) && provesSmallSums(k, c.bias))
    return true;
  auto bType = cast<RankedTensorType>(c.b.getType());
  if (aType.getRank() < 2 || bType.getRank() < 2)
    return false;
  // A constant operand (b, or a where the weights are the rows: a
  // pointwise convolution): |sum| <= 255 max_n sum_k |b - b_zp|.
  auto proves = [&](Value t, int64_t dim, Value zeroPoint) {
    std::optional<int64_t> sum =
        getMaxAbsSumAlong(t, dim, zeroPoint, kMaxSmallSum / 255);
    return sum && *sum <= kMaxSmallSum / 255 &&
           provesSmallSumBound(255 * *sum, c.bias);
  };
  return proves(c.b, bType.getRank() - 1, c.bZeroPoint) ||
         proves(c.a, aType.getRank() - 2, c.aZeroPoint);
}

Int8Contraction
qops::describeInt8Contraction(qkernel::MatMulOp op,
                              qkernel::MatMulOp::Adaptor storage) {
  Int8Contraction c;
  c.op = op;
  c.a = op.getA();
  c.aZeroPoint = op.getAZeroPoint();
  c.b = op.getB();
  c.bZeroPoint = op.getBZeroPoint();
  c.aStorage = storage.getA();
  c.aZeroPointStorage = storage.getAZeroPoint();
  c.bStorage = storage.getB();
  c.bZeroPointStorage = storage.getBZeroPoint();
  c.yType = op.getY().getType();
  // The requantization (QLinearMatMul's); null when y is the sums.
  c.aScale = op.getAScale();
  c.bScale = op.getBScale();
  c.yScale = op.getYScale();
  c.yZeroPoint = op.getYZeroPoint();
  c.aScaleStorage = storage.getAScale();
  c.bScaleStorage = storage.getBScale();
  c.yScaleStorage = storage.getYScale();
  c.yZeroPointStorage = storage.getYZeroPoint();
  c.bias = op.getBias();
  c.biasStorage = storage.getBias();
  c.dequantScale = op.getDequantScale();
  c.dequantOffset = op.getDequantOffset();
  c.dequantScaleStorage = storage.getDequantScale();
  c.dequantOffsetStorage = storage.getDequantOffset();
  return c;
}

StringRef qops::int8MatMulUnsupportedReason(const Int8Contraction &c) {
  auto elementOf = [](Value v) {
    return cast<RankedTensorType>(v.getType()).getElementType();
  };
  Type yOnnx = c.yType.getElementType();
  if (!isInt8Type(elementOf(c.a)) || !isInt8Type(elementOf(c.b)) ||
      !(c.requantizes()    ? isInt8Type(yOnnx)
        : c.dequantizes() ? yOnnx.isF32()
                          : isInt32Type(yOnnx)))
    return "not an int8 matmul";
  if (c.requantizes() && !elementOf(c.aScale).isF32())
    return "scales are not f32";
  for (Value param : {c.aScale, c.aZeroPoint, c.bScale, c.bZeroPoint,
                      c.yScale, c.yZeroPoint, c.bias, c.dequantScale,
                      c.dequantOffset})
    if (param && !isKernelParamType(cast<RankedTensorType>(param.getType())))
      return "batched parameters";
  return "";
}

bool qops::isZeroSignedOperandB(const Int8Contraction &c) {
  Type bOnnx = cast<RankedTensorType>(c.b.getType()).getElementType();
  if (!c.bZeroPoint) // zb = 0: zb' = 0 for si8, -128 for ui8
    return cast<IntegerType>(bOnnx).isSigned();
  return isZeroSignedOperandB(c.bZeroPoint, bOnnx);
}

bool qops::isZeroZeroPoint(Value zeroPoint) {
  DenseElementsAttr values;
  if (!zeroPoint)
    return true;
  return matchPattern(zeroPoint, m_Constant(&values)) &&
         llvm::all_of(values.getValues<APInt>(),
                      [](const APInt &v) { return v.isZero(); });
}

bool qops::isPerRowParam(Value original) {
  auto type = cast<RankedTensorType>(original.getType());
  return type.getRank() >= 2 && type.getShape().back() == 1 &&
         !hasSingleElement(type);
}

qops::Int8MatMulParams::Int8MatMulParams(OpBuilder &b, Location loc,
                                         const Int8Contraction &c)
    : yScaleRow(c.requantizes() && isPerRowParam(c.yScale)),
      yZeroPointRow(c.requantizes() && isPerRowParam(c.yZeroPoint)),
      biasRow(c.bias && isPerRowParam(c.bias)),
      dequantScaleRow(c.dequantScale && isPerRowParam(c.dequantScale)),
      dequantOffsetRow(c.dequantOffset && isPerRowParam(c.dequantOffset)),
      yOnnx(c.yType.getElementType()) {
  auto prepare = [&](Value param) -> KernelParam {
    if (!param)
      return {};
    FailureOr<KernelParam> prepared = prepareKernelParam(b, loc, param);
    assert(succeeded(prepared) && "int8MatMulUnsupportedReason not checked");
    return *prepared;
  };
  auto zeroPoint = [&](Value param) -> KernelParam {
    if (param)
      return prepare(param);
    auto type = RankedTensorType::get({}, b.getI8Type());
    return {arith::ConstantOp::create(
                b, loc, DenseElementsAttr::get(type, b.getI8IntegerAttr(0))),
            false};
  };
  aZeroPoint = zeroPoint(c.aZeroPointStorage);
  bZeroPoint = zeroPoint(c.bZeroPointStorage);
  aScale = prepare(c.aScaleStorage);
  bScale = prepare(c.bScaleStorage);
  yScale = prepare(c.yScaleStorage);
  yZeroPoint = prepare(c.yZeroPointStorage);
  bias = prepare(c.biasStorage);
  dequantScale = prepare(c.dequantScaleStorage);
  dequantOffset = prepare(c.dequantOffsetStorage);
}

void qops::Int8MatMulParams::padColumns(OpBuilder &b, Location loc,
                                        OpFoldResult columns) {
  auto pad = [&](KernelParam &param, bool isScale) {
    if (!param.perElement)
      return;
    Type element =
        cast<RankedTensorType>(param.tensor.getType()).getElementType();
    TypedAttr value = isScale ? TypedAttr(b.getF32FloatAttr(1.0f))
                              : TypedAttr(b.getZeroAttr(element));
    param.tensor = padHighTo(b, loc, param.tensor, {columns}, value);
  };
  pad(bScale, true);
  pad(bZeroPoint, false);
  if (!yScaleRow)
    pad(yScale, true);
  if (!yZeroPointRow)
    pad(yZeroPoint, false);
  if (bias.tensor && !biasRow)
    pad(bias, false);
  if (dequantScale.tensor && !dequantScaleRow)
    pad(dequantScale, true);
  if (dequantOffset.tensor && !dequantOffsetRow)
    pad(dequantOffset, false);
}

Value qops::emitDequantizedLanes(OpBuilder &b, Location loc,
                                 const Int8MatMulParams &params, Value acc,
                                 Value row, Value column, Value scale,
                                 Value offset) {
  int64_t lanes = cast<VectorType>(acc.getType()).getNumElements();
  auto read = [&](const KernelParam &param, bool isRow) {
    return readKernelParam(b, loc, param, row, column, isRow, lanes);
  };
  Value y = arith::SIToFPOp::create(
      b, loc, VectorType::get({lanes}, b.getF32Type()), acc);
  y = arith::MulFOp::create(
      b, loc, y,
      scale ? scale : read(params.dequantScale, params.dequantScaleRow));
  if (!params.dequantOffset.tensor)
    return y;
  return arith::AddFOp::create(
      b, loc, y,
      offset ? offset : read(params.dequantOffset, params.dequantOffsetRow));
}

Value qops::addBiasLanes(OpBuilder &b, Location loc,
                         const Int8MatMulParams &params, Value acc, Value row,
                         Value column) {
  if (!params.bias.tensor)
    return acc;
  int64_t lanes = cast<VectorType>(acc.getType()).getNumElements();
  return arith::AddIOp::create(
      b, loc, acc,
      readKernelParam(b, loc, params.bias, row, column, params.biasRow,
                      lanes));
}

OpFoldResult qops::roundUpTo(OpBuilder &b, Location loc, OpFoldResult v,
                             int64_t multiple) {
  AffineExpr s0 = b.getAffineSymbolExpr(0);
  return affine::makeComposedFoldedAffineApply(
      b, loc, s0.ceilDiv(multiple) * multiple, {v});
}

SmallVector<int64_t> qops::interleaveRowsMask(bool high) {
  constexpr int64_t kRow = 16;
  SmallVector<int64_t> mask;
  for (int64_t c = 0; c < kRow / 2; ++c) {
    int64_t column = c + (high ? kRow / 2 : 0);
    mask.append({column, column + kRow});
  }
  return mask;
}
