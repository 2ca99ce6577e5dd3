//===- PrepareConstantGlobals.cpp - qops-prepare-constant-globals ---------===//
//
// The memref.globals of tensor constants, created in the module's order
// before one-shot bufferization, which reuses a global of the same value
// and alignment (bufferization::getGlobalFor) instead of creating one in
// the order it happens to visit functions (see the pass description).
//
// getGlobalFor matches any global of that value and alignment, a mutable
// one too (a hoisted expression's state, dense<0> : memref<i32>, which the
// first call sets to 2): a constant equal to it would then read the state.
// Such a constant gets a constant global of its own, placed first, where
// getGlobalFor looks first.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/BufferUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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

  /// A private constant global of `constant`'s value, at the module's
  /// start (getGlobalFor's scan finds it before any mutable global).
  void addConstantGlobalFirst(arith::ConstantOp constant,
                              SymbolTableCollection &symbolTables) {
    ModuleOp module = getOperation();
    auto type = cast<RankedTensorType>(constant.getType());
    OpBuilder b(module.getContext());
    auto global = memref::GlobalOp::create(
        b, constant.getLoc(), "__constant_value",
        b.getStringAttr("private"),
        MemRefType::get(type.getShape(), type.getElementType()),
        constant.getValue(), /*constant=*/true,
        b.getI64IntegerAttr(alignment));
    symbolTables.getSymbolTable(module).insert(global,
                                               module.getBody()->begin());
  }

  void runOnOperation() override {
    SymbolTableCollection symbolTables;
    WalkResult result = getOperation().walk([&](arith::ConstantOp constant) {
      if (!isa<RankedTensorType>(constant.getType()))
        return WalkResult::advance();
      FailureOr<memref::GlobalOp> global =
          bufferization::getGlobalFor(constant, symbolTables, alignment);
      if (failed(global)) {
        constant.emitError("cannot create the constant's memref.global");
        return WalkResult::interrupt();
      }
      if (!global->getConstant())
        addConstantGlobalFirst(constant, symbolTables);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
