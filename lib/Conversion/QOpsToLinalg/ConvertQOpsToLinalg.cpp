//===- ConvertQOpsToLinalg.cpp - the convert-qops-to-linalg pass ----------===//
//
// Runs the qops -> linalg patterns with the storage type converter over a
// module; every function keeps its ONNX-typed signature in
// `qops.signature`. The contractions are decomposed by
// qops-decompose-contractions' patterns within the conversion and lowered
// as qkernel.matmul.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Conversion/Passes.h"
#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"

#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h"
#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"
#include "QuantOps/Target/TargetAttr.h"
#include "QuantOps/Target/TargetInfo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/DialectConversion.h"

#define DEBUG_TYPE "convert-qops-to-linalg"

namespace mlir::qops {
#define GEN_PASS_DEF_CONVERTQOPSTOLINALG
#include "QuantOps/Conversion/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;
using namespace mlir::qops;

namespace {

struct ConvertQOpsToLinalgPass
    : public qops::impl::ConvertQOpsToLinalgBase<ConvertQOpsToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    // Keep the ONNX-typed signatures for the tools that call the functions.
    module.walk([&](func::FuncOp func) {
      if (!func->hasAttr(kSignatureAttrName))
        func->setAttr(kSignatureAttrName,
                      TypeAttr::get(func.getFunctionType()));
    });

    // The zero-point rules the verifiers cannot check (operand values).
    if (module.walk([](Operation *op) {
              return failed(checkConstantZeroPoints(op))
                         ? WalkResult::interrupt()
                         : WalkResult::advance();
            })
            .wasInterrupted())
      return signalPassFailure();

    QOpsStorageTypeConverter converter;
    ConversionTarget target(*ctx);
    target.addIllegalDialect<QOpsDialect>();
    // The int8 kernels' own multiply-accumulates stay, for
    // qops-lower-kernel-intrinsics.
    target.addLegalDialect<qkernel::QKernelDialect>();
    target.addIllegalOp<qkernel::MatMulOp>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType()) &&
             converter.isLegal(&op.getBody());
    });
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return converter.isLegal(op); });

    // The int8 kernel's strategy: named, or chosen for the target; the
    // DynamicQuantizeLinear min/max lanes: 4 vector registers of the target
    // (64 f32 lanes when a named strategy leaves the target unresolved).
    // With no target option, the module's configured target
    // (qops-configure-target), and its strategy unless one is named.
    if (failed(verifyTargetAttr(module)))
      return signalPassFailure();
    QOpsTarget options{targetTriple, targetCpu, targetFeatures};
    QOpsTarget requested = getTargetFor(module, options);
    llvm::Expected<std::optional<Int8KernelStrategy>> named =
        parseInt8StrategyOption(int8Strategy);
    if (!named) {
      module.emitError() << llvm::toString(named.takeError());
      return signalPassFailure();
    }
    std::optional<Int8KernelStrategy> strategy = *named;
    bool noTargetOption = options.triple.empty() && options.cpu.empty() &&
                          options.features.empty();
    if (noTargetOption && !strategy)
      if (std::optional<ConfiguredTarget> configured =
              getConfiguredTarget(module))
        strategy = configured->int8Strategy;
    int64_t minMaxLanes = 64;
    llvm::Expected<QOpsTarget> resolved = resolveTarget(requested);
    if (resolved) {
      minMaxLanes = 4 * vectorRegisterBits(*resolved) / 32;
      if (!strategy)
        strategy = chooseInt8Strategy(*resolved);
    } else if (!strategy) {
      module.emitError() << llvm::toString(resolved.takeError());
      return signalPassFailure();
    } else {
      llvm::consumeError(resolved.takeError());
    }

    RewritePatternSet patterns(ctx);
    populateQOpsToLinalgConversionPatterns(converter, patterns, int8Kernel,
                                           parallel, *strategy, minMaxLanes,
                                           viewedConstantBytes);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
