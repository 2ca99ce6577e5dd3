//===- ConfigureTarget.cpp - qops-configure-target ------------------------===//
//
// The configure step: the target and the int8 strategy, resolved once and
// recorded on the module as `qops.target` (TargetAttr.h), for the passes
// after it.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h"
#include "QuantOps/Target/TargetAttr.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSCONFIGURETARGET
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

struct QOpsConfigureTargetPass
    : public qops::impl::QOpsConfigureTargetBase<QOpsConfigureTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool noOption = targetTriple.empty() && targetCpu.empty() &&
                    targetFeatures.empty() && int8Strategy == "auto";
    if (noOption && failed(qops::verifyTargetAttr(module)))
      return signalPassFailure();
    if (noOption && qops::getConfiguredTarget(module))
      return; // configured already
    llvm::Expected<qops::QOpsTarget> target =
        qops::resolveTarget({targetTriple, targetCpu, targetFeatures});
    if (!target) {
      module.emitError() << llvm::toString(target.takeError());
      return signalPassFailure();
    }
    llvm::Expected<std::optional<qops::Int8KernelStrategy>> named =
        qops::parseInt8StrategyOption(int8Strategy);
    if (!named) {
      module.emitError() << llvm::toString(named.takeError());
      return signalPassFailure();
    }
    qops::Int8KernelStrategy strategy =
        *named ? **named : qops::chooseInt8Strategy(*target);
    module->setAttr(qops::kTargetAttrName,
                    qops::makeTargetAttr(&getContext(), {*target, strategy}));
  }
};

} // namespace
