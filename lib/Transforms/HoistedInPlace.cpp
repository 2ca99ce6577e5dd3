//===- HoistedInPlace.cpp - qops-hoisted-in-place -------------------------===//
//
// The first call's computation of a hoisted value writes into the value's
// global instead of a buffer of its own that is then copied (see the pass
// description): upstream's empty-tensor elimination, on the scf.if ops that
// qops-hoist-constant-expressions marked qops.hoisted_compute, each
// analysed on its own (the rest of the module is not touched).
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSHOISTEDINPLACE
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

struct HoistedInPlacePass
    : public qops::impl::QOpsHoistedInPlaceBase<HoistedInPlacePass> {
  void runOnOperation() override {
    SmallVector<scf::IfOp> computes;
    getOperation().walk([&](scf::IfOp op) {
      if (op->hasAttr(qops::kHoistedComputeAttr))
        computes.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (scf::IfOp compute : computes)
      if (failed(bufferization::eliminateEmptyTensors(rewriter, compute))) {
        compute.emitError("empty-tensor elimination failed");
        return signalPassFailure();
      }
  }
};

} // namespace
