//===- QOpsAttrs.h - qops attributes ----------------------------*- C++ -*-===//
//
// The int8 kernel strategy enum (Int8KernelStrategy, with
// stringifyInt8KernelStrategy / symbolizeInt8KernelStrategy) and its
// attribute, #qops.int8_strategy<...> (QOpsAttrs.td).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_DIALECT_QOPS_IR_QOPSATTRS_H
#define QUANTOPS_DIALECT_QOPS_IR_QOPSATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "QuantOps/Dialect/QOps/IR/QOpsEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "QuantOps/Dialect/QOps/IR/QOpsAttrs.h.inc"

#endif // QUANTOPS_DIALECT_QOPS_IR_QOPSATTRS_H
