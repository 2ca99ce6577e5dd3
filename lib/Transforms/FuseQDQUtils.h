//===- FuseQDQUtils.h - what qops-fuse-qdq's patterns share -----*- C++ -*-===//
//
// Helpers of the qops-fuse-qdq patterns (FuseQDQ.cpp, FuseQDQConvolution.cpp):
// reading Q/DQ ops and the importer's float contractions.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_LIB_TRANSFORMS_FUSEQDQUTILS_H
#define QUANTOPS_LIB_TRANSFORMS_FUSEQDQUTILS_H

#include "QuantOps/Dialect/QOps/IR/QuantParams.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
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

} // namespace mlir::qops::fuse

#endif // QUANTOPS_LIB_TRANSFORMS_FUSEQDQUTILS_H
