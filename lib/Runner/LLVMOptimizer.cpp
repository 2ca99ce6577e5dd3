//===- LLVMOptimizer.cpp - LLVM's pipeline for the lowered code -----------===//
//
// See LLVMOptimizer.h.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Runner/LLVMOptimizer.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <algorithm>

namespace {

/// Every loop that holds another loop gets llvm.loop.unroll.runtime.disable,
/// at the start of the pipeline. LLVM's loop unroller otherwise unrolls such
/// a loop by a count known at run time only (a copy of the body per step
/// and a remainder copy), the inner loops with it: the loops a thread runs
/// over its share of a distributed nest (their bounds come from the OpenMP
/// runtime) became 3 to 5 copies of their inner loop (QLinearMatMul
/// 128x768x3072: its two packings' functions 120 and 131 instructions after
/// -O3 instead of 50 and 43), for nothing at run time: the inner loop's
/// iterations are the work. Innermost loops keep LLVM's unrolling, and full
/// unrolling of constant trip counts is not affected.
struct NoRuntimeUnrollOfOuterLoops
    : llvm::PassInfoMixin<NoRuntimeUnrollOfOuterLoops> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses) {
    auto &loops = analyses.getResult<llvm::LoopAnalysis>(function);
    for (llvm::Loop *loop : loops.getLoopsInPreorder())
      if (!loop->isInnermost() && loop->getLoopLatch())
        llvm::addStringMetadataToLoop(loop,
                                      "llvm.loop.unroll.runtime.disable");
    // Metadata only: the CFG and every analysis stay as they were.
    return llvm::PreservedAnalyses::all();
  }
};

} // namespace

std::function<llvm::Error(llvm::Module *)>
mlir::qops::runner::makeLLVMOptimizer(unsigned optLevel,
                                      llvm::TargetMachine *targetMachine) {
  return [optLevel, targetMachine](llvm::Module *module) -> llvm::Error {
    static const llvm::OptimizationLevel levels[] = {
        llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
        llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
    llvm::OptimizationLevel level = levels[std::min(optLevel, 3u)];
    llvm::LoopAnalysisManager loops;
    llvm::FunctionAnalysisManager functions;
    llvm::CGSCCAnalysisManager cgscc;
    llvm::ModuleAnalysisManager modules;
    llvm::PipelineTuningOptions tuning;
    tuning.LoopUnrolling = true;
    tuning.LoopInterleaving = true;
    tuning.LoopVectorization = true;
    tuning.SLPVectorization = false; // see the header
    // LLVM's instrumentation, as opt has it: -time-passes then times
    // these passes too (with code generation's, in one report).
    llvm::PassInstrumentationCallbacks callbacks;
    llvm::StandardInstrumentations instrumentation(module->getContext(),
                                                   /*DebugLogging=*/false);
    instrumentation.registerCallbacks(callbacks, &modules);
    llvm::PassBuilder builder(targetMachine, tuning, std::nullopt,
                              &callbacks);
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(cgscc);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, cgscc, modules);
    builder.registerPipelineStartEPCallback(
        [](llvm::ModulePassManager &pipeline, llvm::OptimizationLevel) {
          pipeline.addPass(llvm::createModuleToFunctionPassAdaptor(
              NoRuntimeUnrollOfOuterLoops()));
        });
    llvm::ModulePassManager pipeline =
        level == llvm::OptimizationLevel::O0
            ? builder.buildO0DefaultPipeline(level)
            : builder.buildPerModuleDefaultPipeline(level);
    pipeline.run(*module, modules);
    return llvm::Error::success();
  };
}
