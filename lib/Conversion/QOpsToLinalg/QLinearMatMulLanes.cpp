//===- QLinearMatMulLanes.cpp - vector lanes of the int8 matmuls ----------===//

#include "QLinearMatMulLanes.h"

#include "QuantMath.h"
#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"
#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::qops;

FailureOr<KernelParam> qops::prepareKernelParam(OpBuilder &b, Location loc,
                                                Value param) {
  auto type = cast<RankedTensorType>(param.getType());
  if (hasSingleElement(type))
    return KernelParam{collapseToScalarTensor(b, loc, param), false};
  if (type.getRank() == 1)
    return KernelParam{param, true};
  int64_t nonUnit = 0;
  for (int64_t d : type.getShape())
    nonUnit += d != 1;
  if (nonUnit != 1)
    return failure();
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

Value qops::emitPairwiseMultiplyAdd(OpBuilder &b, Location loc, Value x,
                                    Value y) {
  int64_t lanes = cast<VectorType>(x.getType()).getNumElements();
  auto wide = VectorType::get({lanes}, b.getI32Type());
  Value xe = arith::ExtSIOp::create(b, loc, wide, x);
  Value ye = arith::ExtSIOp::create(b, loc, wide, y);
  Value product = arith::MulIOp::create(b, loc, xe, ye);
  SmallVector<int64_t> even, odd;
  for (int64_t i = 0; i < lanes / 2; ++i) {
    even.push_back(2 * i);
    odd.push_back(2 * i + 1);
  }
  Value evens = vector::ShuffleOp::create(b, loc, product, product, even);
  Value odds = vector::ShuffleOp::create(b, loc, product, product, odd);
  return arith::AddIOp::create(b, loc, evens, odds);
}

Value qops::emitMultiplierLanes(OpBuilder &b, Location loc,
                                const RequantizeParams &params, Value row,
                                Value column, int64_t lanes) {
  Value as = readKernelParam(b, loc, params.aScale, row, column, true, lanes);
  Value bs = readKernelParam(b, loc, params.bScale, row, column, false, lanes);
  Value ys = readKernelParam(b, loc, params.yScale, row, column,
                             params.yScaleRow, lanes);
  return arith::DivFOp::create(b, loc, arith::MulFOp::create(b, loc, as, bs),
                               ys);
}

Value qops::emitRequantizedLanes(OpBuilder &b, Location loc,
                                 const RequantizeParams &params, Value acc,
                                 Value multiplier, Value row, Value column) {
  auto accType = cast<VectorType>(acc.getType());
  int64_t lanes = accType.getNumElements();
  auto f64Vec = VectorType::get({lanes}, b.getF64Type());
  Value product = arith::MulFOp::create(
      b, loc, arith::SIToFPOp::create(b, loc, f64Vec, acc),
      arith::ExtFOp::create(b, loc, f64Vec, multiplier));
  Value stored = readKernelParam(b, loc, params.yZeroPoint, row, column,
                                 params.yZeroPointRow, lanes);
  Value zp = cast<IntegerType>(params.yOnnx).isUnsigned()
                 ? arith::ExtUIOp::create(b, loc, accType, stored).getResult()
                 : arith::ExtSIOp::create(b, loc, accType, stored).getResult();
  Value q = emitRoundAddZeroPointSaturate(b, loc, product, zp,
                                         getIntegerTypeMin(params.yOnnx),
                                         getIntegerTypeMax(params.yOnnx));
  return arith::TruncIOp::create(
      b, loc, VectorType::get({lanes}, getStorageElementType(params.yOnnx)),
      q);
}
