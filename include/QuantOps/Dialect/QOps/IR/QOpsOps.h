//===- QOpsOps.h - qops operations ------------------------------*- C++ -*-===//
//
// The operations of the qops dialect (generated from QOpsOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_DIALECT_QOPS_IR_QOPSOPS_H
#define QUANTOPS_DIALECT_QOPS_IR_QOPSOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h"

#define GET_OP_CLASSES
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h.inc"

#endif // QUANTOPS_DIALECT_QOPS_IR_QOPSOPS_H
