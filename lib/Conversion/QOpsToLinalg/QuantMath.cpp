//===- QuantMath.cpp - the quantization arithmetic, written once ----------===//
//
// See QuantMath.h for the formulas.
//
//===----------------------------------------------------------------------===//

#include "QuantMath.h"

#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::qops;

Value qops::emitExtendToI32(OpBuilder &b, Location loc, Value stored,
                            Type onnxType) {
  Type i32 = b.getI32Type();
  auto storedType = cast<IntegerType>(stored.getType());
  if (storedType.getWidth() == 32)
    return stored;
  // A 4- or 2-bit value lives in an i8 whose value is already in range, so
  // extending the storage byte by the ONNX signedness is exact.
  if (cast<IntegerType>(onnxType).isUnsigned())
    return arith::ExtUIOp::create(b, loc, i32, stored);
  return arith::ExtSIOp::create(b, loc, i32, stored);
}

Value qops::emitConvertToFloat(OpBuilder &b, Location loc, Value stored,
                               Type onnxType, FloatType to) {
  Type from = stored.getType();
  if (from == to)
    return stored;
  if (auto fromFloat = dyn_cast<FloatType>(from)) {
    if (fromFloat.getWidth() < to.getWidth())
      return arith::ExtFOp::create(b, loc, to, stored);
    return arith::TruncFOp::create(b, loc, to, stored);
  }
  auto intType = cast<IntegerType>(onnxType);
  if (intType.isUnsigned())
    return arith::UIToFPOp::create(b, loc, to, stored);
  return arith::SIToFPOp::create(b, loc, to, stored);
}

Value qops::emitRoundAddZeroPointSaturate(OpBuilder &b, Location loc, Value q,
                                          Value zeroPoint, int64_t qmin,
                                          int64_t qmax) {
  auto qType = cast<FloatType>(q.getType());
  FloatType clampType =
      qType.getWidth() > 32 ? cast<FloatType>(qType) : b.getF32Type();

  Value rounded = math::RoundEvenOp::create(b, loc, q);
  if (rounded.getType() != clampType)
    rounded = arith::ExtFOp::create(b, loc, clampType, rounded);
  Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(clampType, 0));
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO,
                                      rounded, rounded);
  Value finiteOrInf = arith::SelectOp::create(b, loc, isNaN, zero, rounded);

  Type i32 = b.getI32Type();
  auto constI32 = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  Value low = arith::SubIOp::create(b, loc, constI32(qmin), zeroPoint);
  Value high = arith::SubIOp::create(b, loc, constI32(qmax), zeroPoint);
  Value lowF = arith::SIToFPOp::create(b, loc, clampType, low);
  Value highF = arith::SIToFPOp::create(b, loc, clampType, high);
  // NaN is gone and the sign of zero does not survive fptosi: the clamp may
  // use plain vmaxps/vminps (nnan, nsz).
  auto flags = arith::FastMathFlags::nnan | arith::FastMathFlags::nsz;
  Value clamped = arith::MinNumFOp::create(
      b, loc, arith::MaxNumFOp::create(b, loc, finiteOrInf, lowF, flags),
      highF, flags);
  Value asInt = arith::FPToSIOp::create(b, loc, i32, clamped);
  return arith::AddIOp::create(b, loc, asInt, zeroPoint);
}

AffineMap qops::getQuantParamMap(MLIRContext *ctx, unsigned rank,
                                 const QuantGranularity &granularity) {
  switch (granularity.kind) {
  case Granularity::PerTensor:
    return AffineMap::get(rank, 0, {}, ctx);
  case Granularity::PerAxis:
    return AffineMap::get(rank, 0, getAffineDimExpr(granularity.axis, ctx));
  case Granularity::Blocked: {
    SmallVector<AffineExpr> results;
    for (unsigned d = 0; d < rank; ++d) {
      AffineExpr dim = getAffineDimExpr(d, ctx);
      results.push_back(d == granularity.axis
                            ? dim.floorDiv(granularity.blockSize)
                            : dim);
    }
    return AffineMap::get(rank, 0, results, ctx);
  }
  }
  llvm_unreachable("unknown granularity");
}

Value qops::collapseToScalarTensor(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (type.getRank() == 0)
    return tensor;
  auto scalarType = RankedTensorType::get({}, type.getElementType());
  return tensor::CollapseShapeOp::create(b, loc, scalarType, tensor,
                                         ArrayRef<ReassociationIndices>{});
}

Value qops::createEmptyLike(OpBuilder &b, Location loc, Value like,
                            Type elementType) {
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, like);
  return tensor::EmptyOp::create(b, loc, sizes, elementType);
}
