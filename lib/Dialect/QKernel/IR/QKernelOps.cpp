//===- QKernelOps.cpp - the int8 kernels' internal ops --------------------===//
//
// Registers the qkernel operations (all declarative: types and traits only).
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"

using namespace mlir;
using namespace mlir::qkernel;

#include "QuantOps/Dialect/QKernel/IR/QKernelDialect.cpp.inc"

void QKernelDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "QuantOps/Dialect/QKernel/IR/QKernelOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "QuantOps/Dialect/QKernel/IR/QKernelOps.cpp.inc"
