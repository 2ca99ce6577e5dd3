//===- Pipelines.cpp - named QuantOps pass pipelines ----------------------===//
//
// See Pipelines.h. The upstream parts are written as textual pipelines so
// that the README, lit tests and this file use the same spelling.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Pipelines/Pipelines.h"

#include "QuantOps/Conversion/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;

/// Appends a textual pipeline that is part of the project: a parse error is
/// a bug in this file, not a user error.
static void addTextualPipeline(OpPassManager &pm, StringRef pipeline) {
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    llvm::report_fatal_error("QuantOps: invalid built-in pipeline");
}

void qops::buildQOpsBufferizePipeline(OpPassManager &pm) {
  addTextualPipeline(pm, "one-shot-bufferize{bufferize-function-boundaries "
                         "function-boundary-type-conversion="
                         "identity-layout-map},"
                         "buffer-deallocation-pipeline");
}

void qops::buildQOpsLinalgToLLVMPipeline(OpPassManager &pm) {
  addTextualPipeline(pm, "func.func(convert-linalg-to-loops),"
                         "expand-strided-metadata,"
                         "lower-affine,"
                         "convert-scf-to-cf,"
                         "finalize-memref-to-llvm,"
                         "convert-to-llvm,"
                         "reconcile-unrealized-casts");
}

void qops::buildQOpsLowerToLLVMPipeline(OpPassManager &pm) {
  pm.addPass(qops::createConvertQOpsToLinalg());
  pm.addPass(createCanonicalizerPass());
  buildQOpsBufferizePipeline(pm);
  buildQOpsLinalgToLLVMPipeline(pm);
}

void qops::registerQOpsPipelines() {
  PassPipelineRegistration<>(
      "qops-lower-to-llvm",
      "Lower qops on tensors to the LLVM dialect (convert-qops-to-linalg, "
      "qops-bufferize, qops-linalg-to-llvm)",
      [](OpPassManager &pm) { buildQOpsLowerToLLVMPipeline(pm); });
  PassPipelineRegistration<>(
      "qops-bufferize",
      "One-shot bufferization of tensor functions with identity-layout "
      "function boundaries, then buffer deallocation",
      [](OpPassManager &pm) { buildQOpsBufferizePipeline(pm); });
  PassPipelineRegistration<>(
      "qops-linalg-to-llvm",
      "Lower bufferized linalg/arith/math/memref to the LLVM dialect",
      [](OpPassManager &pm) { buildQOpsLinalgToLLVMPipeline(pm); });
}

void qops::registerAllQuantOpsPasses() {
  registerQuantOpsConversionPasses();
  registerQOpsPipelines();
}
