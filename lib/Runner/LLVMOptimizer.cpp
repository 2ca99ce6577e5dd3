//===- LLVMOptimizer.cpp - LLVM's pipeline for the lowered code -----------===//
//
// See LLVMOptimizer.h.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Runner/LLVMOptimizer.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>

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
    llvm::ModulePassManager pipeline =
        level == llvm::OptimizationLevel::O0
            ? builder.buildO0DefaultPipeline(level)
            : builder.buildPerModuleDefaultPipeline(level);
    pipeline.run(*module, modules);
    return llvm::Error::success();
  };
}
