//===- FuseQDQUtils.h - what qops-fuse-qdq's patterns share -----*- C++ -*-===//
//
// Helpers of the qops-fuse-qdq patterns (FuseQDQ.cpp, FuseQDQConvolution.cpp,
// FuseDynamicQuantization.cpp):
// reading Q/DQ ops and the importer's float contractions.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_LIB_TRANSFORMS_FUSEQDQUTILS_H
#define QUANTOPS_LIB_TRANSFORMS_FUSEQDQUTILS_H

#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"
#include "QuantOps/Dialect/QOps/IR/QuantParams.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::qops::fuse {

inline RankedTensorType tensorTypeOf(Value value) {
  return cast<RankedTensorType>(value.getType());
}

/// The granularity of a verified Q/DQ op's scale.
template <typename OpTy>
QuantGranularity getGranularity(OpTy op, Value data, Value scale) {
  FailureOr<QuantGranularity> granularity = classifyQuantGranularity(
      tensorTypeOf(data), tensorTypeOf(scale), op.getAxis(), op.getBlockSize(),
      "fuse", [&] { return op.emitOpError(); });
  return succeeded(granularity) ? *granularity : QuantGranularity{};
}

/// The zero point of a Q/DQ op, or a rank-0 zero of `elementType`.
inline Value getZeroPointOrZero(PatternRewriter &rewriter, Location loc,
                                Value zeroPoint, Type elementType) {
  if (zeroPoint)
    return zeroPoint;
  auto type = RankedTensorType::get({}, elementType);
  return arith::ConstantOp::create(
      rewriter, loc,
      DenseElementsAttr::get(type, rewriter.getZeroAttr(elementType)));
}

/// A float contraction's init is all zeros: `linalg.fill 0.0`.
inline bool isZeroFilled(Value init) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  return fill && matchPattern(fill.getInputs()[0], m_AnyZeroFloat());
}

/// A Q whose output the int8 contractions can requantize to: ui8/si8, one
/// f32 scale.
inline bool isPerTensorInt8Quantize(QuantizeLinearOp quantize) {
  RankedTensorType scale = tensorTypeOf(quantize.getYScale());
  return isInt8Type(tensorTypeOf(quantize.getY()).getElementType()) &&
         scale.getElementType().isF32() && hasSingleElement(scale);
}

/// An int8 DQ with an f32 scale and result, per tensor or (`axis` given)
/// per axis `axis`.
inline bool isInt8Dequantize(DequantizeLinearOp dq,
                             std::optional<int64_t> axis = std::nullopt) {
  if (!dq || !isInt8Type(tensorTypeOf(dq.getX()).getElementType()) ||
      !tensorTypeOf(dq.getXScale()).getElementType().isF32() ||
      !tensorTypeOf(dq.getY()).getElementType().isF32())
    return false;
  QuantGranularity g = getGranularity(dq, dq.getX(), dq.getXScale());
  return g.kind == Granularity::PerTensor ||
         (axis && g.kind == Granularity::PerAxis && g.axis == *axis);
}

/// `value` (a tensor of one element) as a rank-0 tensor:
///   tensor.collapse_shape %value [] (or `value` when rank 0)
inline Value collapseToScalar(OpBuilder &b, Location loc, Value value) {
  RankedTensorType type = tensorTypeOf(value);
  if (type.getRank() == 0)
    return value;
  return tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({}, type.getElementType()), value,
      ArrayRef<ReassociationIndices>{});
}

/// The one arith op of an elementwise generic with `numInputs` inputs (all
/// loops parallel, identity output map, the op's operands block arguments
/// of the inputs): the importer's elementwise ONNX ops. Null otherwise.
template <typename ArithOp>
ArithOp getElementwiseOp(linalg::GenericOp generic, unsigned numInputs) {
  if (!generic || generic.getNumDpsInputs() != numInputs ||
      generic.getNumDpsInits() != 1 ||
      generic.getNumLoops() != generic.getNumParallelLoops() ||
      !generic.getIndexingMapsArray().back().isIdentity())
    return {};
  Block &body = generic.getRegion().front();
  if (body.getOperations().size() != 2)
    return {};
  auto op = dyn_cast<ArithOp>(body.front());
  if (!op || body.getTerminator()->getOperand(0) != op->getResult(0))
    return {};
  for (Value operand : op->getOperands()) {
    auto arg = dyn_cast<BlockArgument>(operand);
    if (!arg || arg.getOwner() != &body || arg.getArgNumber() >= numInputs)
      return {};
  }
  return op;
}

} // namespace mlir::qops::fuse

#endif // QUANTOPS_LIB_TRANSFORMS_FUSEQDQUTILS_H
