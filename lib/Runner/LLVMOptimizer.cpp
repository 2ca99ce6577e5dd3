//===- LLVMOptimizer.cpp - LLVM's pipeline for the lowered code -----------===//
//
// See LLVMOptimizer.h.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Runner/LLVMOptimizer.h"

#include "QuantOps/Transforms/Passes.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <algorithm>

namespace {

/// Whether `function` calls (directly) a function `isCallee` accepts.
bool callsAny(const llvm::Function &function,
              llvm::function_ref<bool(const llvm::Function &)> isCallee) {
  for (const llvm::Instruction &instruction : llvm::instructions(function))
    if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
      if (const llvm::Function *callee = call->getCalledFunction())
        if (isCallee(*callee))
          return true;
  return false;
}

/// Whether `function` calls one of LLVM's AMX intrinsics.
bool callsAmx(const llvm::Function &function) {
  return callsAny(function, mlir::qops::runner::isAmxIntrinsic);
}

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

/// Freezes the indices OpenMP's translation splits a collapsed loop's
/// index into (OpenMPIRBuilder::collapseLoops: a `urem` and a `udiv` of the
/// collapsed index by an inner loop's trip count, at the start of the block
/// `omp_collapsed.body`; for a distributed nest, its row block and column
/// chunk), so that scalar evolution takes each for an opaque value instead
/// of analysing the remainder and quotient of the loop's index
/// (`ScalarEvolution::getURemExpr`: half of IndVarSimplify's work on
/// QLinearMatMul 128x768x3072's kernel, 7.7 M of the optimiser's
/// instructions). A freeze of a value that is not poison is that value:
/// the code computes the same, and it is the same code for 28 of the 29
/// bench models (docs/Performance.md, "What the idle core can still
/// take; the kernel's SCEV work").
void freezeCollapsedLoopIndices(llvm::Module &module) {
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function) {
      if (!block.getName().starts_with("omp_collapsed.body"))
        continue;
      for (llvm::Instruction &instruction : llvm::make_early_inc_range(block)) {
        if (instruction.getOpcode() != llvm::Instruction::URem &&
            instruction.getOpcode() != llvm::Instruction::UDiv)
          continue;
        auto *frozen =
            new llvm::FreezeInst(&instruction, instruction.getName() + ".fr");
        frozen->insertAfter(instruction.getIterator());
        instruction.replaceUsesWithIf(
            frozen, [&](llvm::Use &use) { return use.getUser() != frozen; });
      }
    }
}

/// The pipeline for a function whose loops compute on vectors already:
/// LLVM's scalar clean-up, loop rotation (the unroller needs it),
/// loop-invariant motion, induction-variable simplification (it proves the
/// entry guards of the tile loops true, as -O3 does) and the unroller of
/// -O3 (innermost loops, as -O3 unrolls them), without the vectorization,
/// inlining, loop-idiom, unswitching and interprocedural passes that find
/// nothing to do in such code. InstCombine as -O3 runs it: without failing
/// on a fixpoint not reached in one iteration (the textual default fails).
/// No SROA: the code leaves it nothing to promote (the JIT's objects of
/// every bench row and quant-compile's of the bench's models and of
/// test/Integration for eight x86 and AArch64 CPUs are the same bytes
/// without it), and it cost QLinearMatMul 128x768x3072's kernel 3.3 M
/// instructions (docs/Performance.md, "The kernels' module without
/// IndVarSimplify").
///
/// `indVarSimplify` false: without IndVarSimplify, for the kernels' own
/// module (qops-kernels-apart's: the int8 kernels' nests and nothing else;
/// makeLLVMOptimizer's `kernelsModule`) on x86. There it rewrote the exit
/// tests of the OpenMP bodies' loops only (the kernels' inner loops as
/// many instructions without it for every x86 strategy: madd, maddubs,
/// VPDPBUSD in zmm and ymm; the outer loops' control in another order),
/// and it was a third of the module's optimisation (12.7 M of
/// QLinearMatMul 128x768x3072's 36 M instructions: scalar evolution
/// proving no-wrap flags of the tiles' index arithmetic), on the thread
/// whose end is the end of the compile. Elsewhere it stays: the float,
/// convolution and quantization loops change without it, and so do the
/// AArch64 kernels' (SDOT's and the USMMLA gemv's k loops one instruction
/// longer, an add and a compare for a count-down) (docs/Performance.md,
/// "The kernels' module without IndVarSimplify").
std::string getVectorCodePipeline(bool indVarSimplify) {
  return std::string("early-cse<memssa>,instcombine<no-verify-fixpoint>,"
                     "simplifycfg,loop-mssa(loop-rotate,licm),") +
         (indVarSimplify ? "loop(indvars)," : "") +
         "gvn,loop-unroll<O3>,instcombine<no-verify-fixpoint>,simplifycfg";
}

/// The module passes of -O3 that still change a module whose definitions
/// are all set aside for the short pipeline (getVectorCodePipeline) (a part of
/// the kernels alone): the declarations' library attributes (aligned_alloc,
/// free, memcpy, which the short pipeline's alias analysis reads), the
/// constants' propagation into globals, and the removal of the globals nothing
/// uses. The whole -O3 pipeline over such a module costs about 2.5 ms
/// (QLinearMatMul 128x768x3072's kernel part, Zen 4) for these changes only:
/// the objects of the bench's models are byte for byte the same with this
/// instead.
constexpr const char *kGlobalsPipeline =
    "inferattrs,ipsccp,globalopt,globaldce";

bool touchesVectors(const llvm::Instruction &instruction) {
  return instruction.getType()->isVectorTy() ||
         llvm::any_of(instruction.operands(), [](const llvm::Use &operand) {
           return operand->getType()->isVectorTy();
         });
}

/// Whether -O3 can give `function` nothing that the short pipeline
/// (getVectorCodePipeline) does not: every innermost loop computes on vectors
/// (the engine's kernels, packings and elementwise nests, vectorized by the
/// qops pipeline) or there is no loop (the entry's glue). Not: a function some
/// call names (the inliner may want it), a scalar innermost loop (-O3 unrolls
/// and vectorizes it: the depthwise QLinearConv's), AMX code (LLVM's AMX
/// lowering is only known to work after -O3).
bool isVectorCode(llvm::Function &function) {
  if (function.isDeclaration())
    return false;
  for (const llvm::User *user : function.users())
    if (const auto *call = llvm::dyn_cast<llvm::CallBase>(user))
      if (call->getCalledOperand() == &function)
        return false;
  if (callsAmx(function))
    return false;
  llvm::DominatorTree dominators(function);
  llvm::LoopInfo loops(dominators);
  return llvm::all_of(loops.getLoopsInPreorder(), [](const llvm::Loop *loop) {
    return !loop->isInnermost() ||
           llvm::any_of(loop->blocks(), [](const llvm::BasicBlock *block) {
             return llvm::any_of(*block, touchesVectors);
           });
  });
}

/// The string attribute that marks a function set aside for the short
/// pipeline. An attribute, not a pointer: it follows a function that a
/// module pass replaces (a new signature).
constexpr const char *kSetAside = "qops-vector-code";

/// Marks the vector-code functions of `module` optnone, so that -O3 passes
/// them by, and noinline, which optnone requires (and which changes nothing
/// for them: no call names them). Returns whether -O3 has anything left to
/// optimise: a definition not set aside.
bool setAsideVectorCode(llvm::Module &module) {
  bool rest = false;
  for (llvm::Function &function : module) {
    if (!isVectorCode(function)) {
      rest |= !function.isDeclaration();
      continue;
    }
    function.addFnAttr(kSetAside);
    function.addFnAttr(llvm::Attribute::OptimizeNone);
    function.addFnAttr(llvm::Attribute::NoInline);
  }
  return rest;
}

/// Takes optnone and the mark of setAsideVectorCode off again and runs
/// `pipeline` on each function that had them.
void optimizeSetAside(llvm::Module &module, llvm::FunctionPassManager &pipeline,
                      llvm::FunctionAnalysisManager &analyses) {
  analyses.clear();
  for (llvm::Function &function : module) {
    if (!function.hasFnAttribute(kSetAside))
      continue;
    function.removeFnAttr(kSetAside);
    function.removeFnAttr(llvm::Attribute::OptimizeNone);
    NoRuntimeUnrollOfOuterLoops().run(function, analyses);
    pipeline.run(function, analyses);
  }
}

} // namespace

bool mlir::qops::runner::canSkipLoopStrengthReduction(
    const llvm::Module &module) {
  bool skippable = false; // a kernel's or run-once code's loops
  for (const llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    if (function.hasFnAttribute(kInt8KernelAttr) ||
        function.hasFnAttribute(kRunOnceFunctionAttr)) {
      skippable = true;
      continue;
    }
    llvm::DominatorTree dominators(const_cast<llvm::Function &>(function));
    llvm::LoopInfo loops(dominators);
    if (!loops.empty())
      return false;
  }
  return skippable;
}

void mlir::qops::runner::markRunOnceForFastCodegen(llvm::Module &module) {
  for (llvm::Function &function : module) {
    if (function.isDeclaration() ||
        !function.hasFnAttribute(kRunOnceFunctionAttr) || callsAmx(function))
      continue;
    function.addFnAttr(llvm::Attribute::OptimizeNone);
    function.addFnAttr(llvm::Attribute::NoInline);
  }
}

bool mlir::qops::runner::isAmxIntrinsic(const llvm::Function &function) {
  llvm::StringRef name = function.getName();
  return function.isIntrinsic() && (name.starts_with("llvm.x86.tile") ||
                                    name.starts_with("llvm.x86.tdp"));
}

std::function<llvm::Error(llvm::Module *)>
mlir::qops::runner::makeLLVMOptimizer(unsigned optLevel,
                                      llvm::TargetMachine *targetMachine,
                                      bool kernelsModule) {
  return [optLevel, targetMachine,
          kernelsModule](llvm::Module *module) -> llvm::Error {
    static const llvm::OptimizationLevel levels[] = {
        llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
        llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
    llvm::OptimizationLevel level = levels[std::min(optLevel, 3u)];
    if (level != llvm::OptimizationLevel::O0)
      freezeCollapsedLoopIndices(*module);
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
    // (They also make the passes skip optnone functions, which the short
    // pipeline for vector code relies on.)
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
    if (level == llvm::OptimizationLevel::O0) {
      builder.buildO0DefaultPipeline(level).run(*module, modules);
      return llvm::Error::success();
    }
    // At -O3, vector code gets the short pipeline after -O3 ran on the rest.
    llvm::FunctionPassManager shortPipeline;
    bool rest = true;
    if (level == llvm::OptimizationLevel::O3) {
      bool x86Kernels =
          kernelsModule && targetMachine->getTargetTriple().isX86();
      if (llvm::Error error = builder.parsePassPipeline(
              shortPipeline, getVectorCodePipeline(!x86Kernels)))
        return error;
      rest = setAsideVectorCode(*module);
    }
    if (rest) {
      builder.buildPerModuleDefaultPipeline(level).run(*module, modules);
    } else {
      llvm::ModulePassManager globals;
      if (llvm::Error error =
              builder.parsePassPipeline(globals, kGlobalsPipeline))
        return error;
      globals.run(*module, modules);
    }
    if (level == llvm::OptimizationLevel::O3)
      optimizeSetAside(*module, shortPipeline, functions);
    return llvm::Error::success();
  };
}
