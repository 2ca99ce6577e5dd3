//===- QKernelOps.h - the int8 kernels' internal ops ------------*- C++ -*-===//
//
// The qkernel dialect and its operations (generated from QKernelOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_DIALECT_QKERNEL_IR_QKERNELOPS_H
#define QUANTOPS_DIALECT_QKERNEL_IR_QKERNELOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "QuantOps/Dialect/QKernel/IR/QKernelDialect.h.inc"

#define GET_OP_CLASSES
#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h.inc"

#endif // QUANTOPS_DIALECT_QKERNEL_IR_QKERNELOPS_H
