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

/// The discardable attribute of a linalg.matmul that com.microsoft
/// MatMulNBits's accuracy_level sets (ImportMatMulNBits.cpp): 4 lets the
/// float kernel quantize A to int8 (FloatMatMulInt8.cpp).
inline constexpr llvm::StringLiteral kAccuracyLevelAttrName =
    "qops.accuracy_level";

/// The function attributes that keep an imported ONNX graph's input and
/// output names, in order (arrays of strings; OnnxImporter.cpp). The C API
/// and the Python package report them as onnxruntime does; a function
/// without them has inputs "input_0", ... and outputs "output_0", ....
inline constexpr llvm::StringLiteral kInputNamesAttrName = "qops.input_names";
inline constexpr llvm::StringLiteral kOutputNamesAttrName =
    "qops.output_names";

} // namespace mlir::qops

#endif // QUANTOPS_DIALECT_QOPS_IR_QOPSDIALECT_H
