//===- RollRunOnceLoops.cpp - qops-roll-run-once-loops --------------------===//
//
// The loops of the code that runs once per session, the constant
// expressions qops-hoist-constant-expressions moved into its compute
// scf.if (the weights' packing and layout changes), kept rolled
// (keepLoopRolled): LLVM fully unrolled a QLinearConv's 3 x 3 taps of its
// weights' transpose into nine blocks of 200 instructions, compiled on
// every JIT for code that runs once.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"
#include "QuantOps/Utils/LoopAnnotations.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSROLLRUNONCELOOPS
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

struct RollRunOnceLoops
    : qops::impl::QOpsRollRunOnceLoopsBase<RollRunOnceLoops> {
  void runOnOperation() override {
    getOperation().walk([](scf::IfOp compute) {
      if (compute->hasAttr(qops::kHoistedComputeAttr))
        compute.walk([](scf::ForOp loop) { qops::keepLoopRolled(loop); });
    });
  }
};

} // namespace
