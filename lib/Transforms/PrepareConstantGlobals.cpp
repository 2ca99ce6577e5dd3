//===- PrepareConstantGlobals.cpp - qops-prepare-constant-globals ---------===//
//
// The memref.globals of tensor constants, created in the module's order
// before one-shot bufferization, which reuses a global of the same value
// and alignment (bufferization::getGlobalFor) instead of creating one in
// the order it happens to visit functions (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/BufferUtils.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSPREPARECONSTANTGLOBALS
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

struct PrepareConstantGlobalsPass
    : public qops::impl::QOpsPrepareConstantGlobalsBase<
          PrepareConstantGlobalsPass> {
  using Base::Base;

  void runOnOperation() override {
    SymbolTableCollection symbolTables;
    WalkResult result = getOperation().walk([&](arith::ConstantOp constant) {
      if (!isa<RankedTensorType>(constant.getType()))
        return WalkResult::advance();
      if (failed(bufferization::getGlobalFor(constant, symbolTables,
                                             alignment))) {
        constant.emitError("cannot create the constant's memref.global");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
