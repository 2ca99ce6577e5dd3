//===- SetLLVMTarget.cpp - the qops-set-llvm-target pass ------------------===//
//
// The target (TargetInfo.h) on the LLVM dialect module: llvm.target_triple
// on the module, target_cpu / target_features on each llvm.func definition.
// mlir-translate turns them into the LLVM IR's target triple and the
// functions' "target-cpu" / "target-features" attributes, which the JIT and
// llc honour without -mcpu / -mattr. The module's qops.target goes: the LLVM
// attributes hold the target from here on (the pipelines run this pass
// after every reader of qops.target).
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "QuantOps/Target/TargetAttr.h"
#include "QuantOps/Target/TargetInfo.h"

#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSSETLLVMTARGET
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

struct QOpsSetLLVMTargetPass
    : public qops::impl::QOpsSetLLVMTargetBase<QOpsSetLLVMTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::Expected<qops::QOpsTarget> target =
        qops::resolveTarget(qops::getTargetFor(
            module, {targetTriple, targetCpu, targetFeatures}));
    if (!target) {
      module.emitError() << llvm::toString(target.takeError());
      return signalPassFailure();
    }
    MLIRContext *ctx = &getContext();
    module->setAttr(LLVM::LLVMDialect::getTargetTripleAttrName(),
                    StringAttr::get(ctx, target->triple));
    auto cpu = StringAttr::get(ctx, target->cpu);
    auto features = LLVM::TargetFeaturesAttr::get(ctx, target->features);
    module.walk([&](LLVM::LLVMFuncOp func) {
      if (func.isExternal())
        return;
      func.setTargetCpuAttr(cpu);
      if (!target->features.empty())
        func.setTargetFeaturesAttr(features);
    });
    // The LLVM module holds the target in its own attributes now; without
    // qops.target (a qops dialect attribute) stock tools such as
    // mlir-translate read the result.
    module->removeAttr(qops::kTargetAttrName);
  }
};

} // namespace
