//===- RollRunOnceLoops.cpp - qops-roll-run-once-loops --------------------===//
//
// The loops of the code that runs once per session, the constant
// expressions qops-hoist-constant-expressions moved into its compute
// scf.if (the weights' packing and layout changes), or the functions
// qops-const-eval{at-link} moved them into, kept rolled
// (keepLoopRolled): LLVM fully unrolled a QLinearConv's 3 x 3 taps of its
// weights' transpose into nine blocks of 200 instructions, compiled on
// every JIT for code that runs once. The functions qops-share-loop-nests
// made of such nests (layers whose packings are alike) run once too when
// every use of them is inside a hoisted compute: their loops as well.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"
#include "QuantOps/Utils/LoopAnnotations.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSROLLRUNONCELOOPS
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

/// Whether `op` is inside the scf.if that computes the hoisted values.
bool isInsideHoistedCompute(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (parent->hasAttr(qops::kHoistedComputeAttr))
      return true;
  return false;
}

void keepLoopsRolled(Operation *root) {
  root->walk([](scf::ForOp loop) { qops::keepLoopRolled(loop); });
}

struct RollRunOnceLoops
    : qops::impl::QOpsRollRunOnceLoopsBase<RollRunOnceLoops> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    module.walk([](Operation *compute) {
      if (compute->hasAttr(qops::kHoistedComputeAttr))
        keepLoopsRolled(compute);
    });
    for (auto func : module.getOps<func::FuncOp>()) {
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(func, module);
      if (uses && !uses->empty() &&
          llvm::all_of(*uses, [](const SymbolTable::SymbolUse &use) {
            return isInsideHoistedCompute(use.getUser());
          }))
        keepLoopsRolled(func);
    }
  }
};

} // namespace
