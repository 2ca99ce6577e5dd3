//===- QOpsDialect.cpp - qops dialect -------------------------------------===//
//
// Registers the qops operations.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"

using namespace mlir;
using namespace mlir::qops;

#include "QuantOps/Dialect/QOps/IR/QOpsDialect.cpp.inc"

void QOpsDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "QuantOps/Dialect/QOps/IR/QOpsOps.cpp.inc"
      >();
}
