//===- QOpsDialect.h - qops dialect -----------------------------*- C++ -*-===//
//
// The qops dialect: ONNX quantization operators on tensors.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_DIALECT_QOPS_IR_QOPSDIALECT_H
#define QUANTOPS_DIALECT_QOPS_IR_QOPSDIALECT_H

#include "mlir/IR/Dialect.h"

#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h.inc"

namespace mlir::qops {

/// The function attribute that keeps a function's ONNX-typed signature once
/// its arguments and results have storage types (set by
/// convert-qops-to-linalg; read by the JIT runner and quant-compile to
/// convert tensors at the call boundary).
inline constexpr llvm::StringLiteral kSignatureAttrName = "qops.signature";

} // namespace mlir::qops

#endif // QUANTOPS_DIALECT_QOPS_IR_QOPSDIALECT_H
