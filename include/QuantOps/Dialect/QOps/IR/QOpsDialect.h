//===- QOpsDialect.h - qops dialect -----------------------------*- C++ -*-===//
//
// The qops dialect: ONNX quantization operators on tensors.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_DIALECT_QOPS_IR_QOPSDIALECT_H
#define QUANTOPS_DIALECT_QOPS_IR_QOPSDIALECT_H

#include "mlir/IR/Dialect.h"

#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h.inc"

#endif // QUANTOPS_DIALECT_QOPS_IR_QOPSDIALECT_H
