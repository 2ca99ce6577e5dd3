//===- QOpsDialect.cpp - qops dialect -------------------------------------===//
//
// Registers the qops operations and attributes.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h"
#include "QuantOps/Dialect/QOps/IR/QOpsAttrs.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::qops;

#include "QuantOps/Dialect/QOps/IR/QOpsDialect.cpp.inc"
#include "QuantOps/Dialect/QOps/IR/QOpsEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "QuantOps/Dialect/QOps/IR/QOpsAttrs.cpp.inc"

void QOpsDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "QuantOps/Dialect/QOps/IR/QOpsOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "QuantOps/Dialect/QOps/IR/QOpsAttrs.cpp.inc"
      >();
}
