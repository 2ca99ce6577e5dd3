//===- Pipelines.cpp - named QuantOps pass pipelines ----------------------===//
//
// See Pipelines.h. Passes are created through their C++ constructors, so the
// builders work in any tool, whether or not it registered upstream passes.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Pipelines/Pipelines.h"

#include "QuantOps/Conversion/Passes.h"
#include "QuantOps/Target/TargetInfo.h"
#include "QuantOps/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;

/// The pipeline's canonicalizer: upstream's patterns and folds without its
/// region simplification, whose dead-code walk visits every nest's body
/// once per enclosing op and iteration (FFN12: about 10% of its lowering's
/// instructions). The LLVM IR of the bench's models is byte for byte the
/// same (docs/Performance.md, "Weights viewed, regions left alone"). The
/// canonicalizers of one pipeline, the kernels' thread's included, collect
/// their patterns once (`patterns`; "The canonicalizers' patterns built
/// once").
static std::unique_ptr<Pass> createPipelineCanonicalizer(
    std::shared_ptr<qops::CanonicalPatternsCache> patterns) {
  return qops::createQOpsCanonicalize(std::move(patterns));
}

/// Upstream's buffer-deallocation-pipeline (BufferizationPipelines.cpp)
/// without its first pass, expand-realloc: nothing here makes a
/// memref.realloc (the ownership-based deallocation would reject one with
/// an error, not miscompile), and its greedy walk of the whole module cost
/// FFN12 1.6 ms; the lowered modules of the 44 bench models are the same
/// without it. Nor its second canonicalizer, the one between the
/// ownership-based deallocation and its simplification: the lowered modules
/// of the bench's models (QLinearMatMul, MatMulInteger, the convolutions,
/// the QDQ and 4-bit rows, FFN12) are byte for byte the same without it,
/// and each canonicalizer walks the whole module (FFN12: 14 ms, about 5% of
/// its lowering). The first one stays: without it the gemv's module differs.
static void
addBufferDeallocation(OpPassManager &pm,
                      std::shared_ptr<qops::CanonicalPatternsCache> patterns) {
  pm.addPass(createPipelineCanonicalizer(patterns));
  pm.addPass(bufferization::createOwnershipBasedBufferDeallocationPass());
  // Calls of kernels apart return buffers of their own.
  pm.addPass(qops::createQOpsSplitFreshResultDeallocs());
  pm.addPass(bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addPass(createCSEPass());
  pm.addPass(createPipelineCanonicalizer(std::move(patterns)));
}

/// buildQOpsBufferizePipeline with the canonicalizers' `patterns`.
static void
addBufferize(OpPassManager &pm, bool parallel,
             std::shared_ptr<qops::CanonicalPatternsCache> patterns) {
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // The constants' globals in program order, so that the output is the same
  // on every run (MLIR 22 orders them by pointer values otherwise).
  qops::QOpsPrepareConstantGlobalsOptions globals;
  globals.alignment = bufferize.bufferAlignment;
  pm.addPass(qops::createQOpsPrepareConstantGlobals(globals));
  // The first call's packing writes into the hoisted globals directly.
  pm.addPass(qops::createQOpsHoistedInPlace());
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  addBufferDeallocation(pm, std::move(patterns));
  // Results that are function arguments or constants are returned as
  // bufferization.clone copies.
  pm.addPass(createConvertBufferizationToMemRefPass());
  // Strided copies (padding, slicing) as loops instead of memrefCopy calls.
  qops::QOpsExpandStridedCopiesOptions copies;
  copies.parallel = parallel;
  pm.addNestedPass<func::FuncOp>(qops::createQOpsExpandStridedCopies(copies));
}

void qops::buildQOpsBufferizePipeline(OpPassManager &pm, bool parallel) {
  addBufferize(pm, parallel, makeCanonicalPatternsCache());
}

/// The configure step: the target and the int8 strategy resolved once onto
/// the module (qops.target); the passes after it take them from there.
static void addConfigureTarget(OpPassManager &pm,
                               const qops::QOpsPipelineOptions &options) {
  qops::QOpsConfigureTargetOptions configure;
  configure.targetTriple = options.targetTriple;
  configure.targetCpu = options.targetCpu;
  configure.targetFeatures = options.targetFeatures;
  configure.int8Strategy = options.int8Strategy;
  pm.addPass(qops::createQOpsConfigureTarget(configure));
}

/// qops-linalg-to-llvm after the configure step; `constEval`: the handoff
/// of an earlier qops-const-eval, whose values are joined before the
/// constants become bytes.
static void addLinalgToLLVMPasses(
    OpPassManager &pm, const qops::QOpsPipelineOptions &options,
    std::shared_ptr<qops::ConstEvalHandoff> constEval = nullptr);

void qops::buildQOpsLinalgToLLVMPipeline(OpPassManager &pm,
                                         const QOpsPipelineOptions &options) {
  addConfigureTarget(pm, options);
  addLinalgToLLVMPasses(pm, options);
}

static void
addLinalgToLLVMPasses(OpPassManager &pm,
                      const qops::QOpsPipelineOptions &options,
                      std::shared_ptr<qops::ConstEvalHandoff> constEval) {
  using namespace qops;
  // Layers of the same shape: their loop nests compiled once.
  if (options.shareLoopNests)
    pm.addPass(qops::createQOpsShareLoopNests());
  // Before the OpenMP regions: functions with AMX code ask Linux for it.
  pm.addPass(qops::createQOpsRequestAmxTileData());
  if (options.parallel) {
    // scf.forall -> scf.parallel -> omp.parallel + omp.wsloop.
    pm.addNestedPass<func::FuncOp>(createForallToParallelLoopPass());
    pm.addPass(createConvertSCFToOpenMPPass());
  }
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // Upstream's vector-to-scf and expand-strided-metadata patterns, without
  // the greedy driver's region walks.
  pm.addPass(qops::createQOpsVectorToSCF());
  // The once-per-session code's loops, now scf.for, kept rolled.
  pm.addPass(qops::createQOpsRollRunOnceLoops());
  pm.addPass(qops::createQOpsExpandStridedMetadata());
  pm.addPass(createLowerAffinePass());
  // aligned_alloc instead of malloc + pointer arithmetic: the buffer keeps
  // its provenance, so LLVM's alias analysis can hoist loads of scales and
  // zero points out of loops that store to freshly allocated results.
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useAlignedAlloc = true;
  memrefOptions.useGenericFunctions = options.runtimeAllocator;
  // With OpenMP, memref.alloca_scope inside omp regions must be lowered
  // while its region is still one block: memref before scf -> cf.
  if (options.parallel)
    pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  pm.addPass(createSCFToControlFlowPass());
  // AMX tiles (the int8 kernel's amx strategy) become LLVM values here, before
  // the OpenMP conversion, which needs every type in its regions converted.
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.amx = true;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  if (!options.parallel)
    pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  pm.addPass(qops::createQOpsLowerKernelIntrinsics());
  pm.addPass(createConvertToLLVMPass());
  // The OpenMP ops last: their regions must hold LLVM types only, and
  // convert-to-llvm has converted them, AMX tiles included (the upstream
  // pass's own type converter does not know !amx.tile).
  if (options.parallel)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // The CPU the kernels were chosen for is the one LLVM compiles for.
  pm.addPass(qops::createQOpsSetLLVMTarget());
  if (constEval)
    pm.addPass(qops::createQOpsConstEvalJoinPass(std::move(constEval)));
  // Packed weights as byte arrays: LLVM writes those in one block.
  pm.addPass(qops::createQOpsByteConstantGlobals());
}

/// qops-lower-to-llvm after the pack stage (`callerRuns`: the caller's
/// const-eval handoff; `patterns`: the canonicalizers').
static void
addAfterPacking(OpPassManager &pm, const qops::QOpsPipelineOptions &options,
                std::shared_ptr<qops::ConstEvalHandoff> callerRuns,
                std::shared_ptr<qops::CanonicalPatternsCache> patterns);

void qops::buildQOpsLowerToLLVMPipeline(
    OpPassManager &pm, const QOpsPipelineOptions &options,
    std::shared_ptr<ConstEvalHandoff> callerRuns,
    std::shared_ptr<KernelsApartHandoff> kernelsApart) {
  auto patterns = makeCanonicalPatternsCache();
  addConfigureTarget(pm, options);
  if (options.fuseQDQ)
    pm.addNestedPass<func::FuncOp>(qops::createQOpsFuseQDQ());
  // The contractions as qkernel.matmul: the engine's decompose stage.
  pm.addPass(qops::createQOpsDecomposeContractions());
  // Float MatMul / Gemm: the float kernel's packed panels and tiles (before
  // convert-qops-to-linalg: it reads a DequantizeLinear b's integers).
  QOpsLowerFloatContractionsOptions floatOptions;
  floatOptions.fma = options.floatFma;
  floatOptions.defaultAccuracyLevel = options.qdqAccuracyLevel;
  pm.addPass(qops::createQOpsLowerFloatContractions(floatOptions));
  ConvertQOpsToLinalgOptions convert;
  convert.parallel = options.parallel;
  pm.addPass(qops::createConvertQOpsToLinalg(convert));
  // The int8 kernels' b in its packed layout: the pack stage's IR.
  pm.addPass(qops::createQOpsLowerPacking());
  // The kernels' loop nests to a module of their own, lowered on another
  // thread (a JIT's); the rest of the pipeline for it, with options of its
  // own (it is lowered after the caller's are gone): no constant
  // expressions there (the kernels read their packed b as arguments).
  if (kernelsApart) {
    auto copied = std::make_shared<QOpsPipelineOptions>();
    copied->copyOptionValuesFrom(options);
    copied->constEval = false;
    pm.addPass(qops::createQOpsKernelsApartPass(
        std::move(kernelsApart), [copied, patterns](OpPassManager &rest) {
          addAfterPacking(rest, *copied, nullptr, patterns);
        }));
  }
  addAfterPacking(pm, options, std::move(callerRuns), patterns);
}

static void
addAfterPacking(OpPassManager &pm, const qops::QOpsPipelineOptions &options,
                std::shared_ptr<qops::ConstEvalHandoff> callerRuns,
                std::shared_ptr<qops::CanonicalPatternsCache> patterns) {
  using namespace qops;
  // The float glue's elementwise chains as one loop each.
  pm.addNestedPass<func::FuncOp>(qops::createQOpsFuseElementwise());
  // Threads for the kernels' tiles: the distribute stage.
  if (options.parallel)
    pm.addNestedPass<func::FuncOp>(qops::createQOpsDistribute());
  pm.addPass(createPipelineCanonicalizer(patterns));
  QOpsVectorizeElementwiseOptions vectorize;
  vectorize.vectorWidth = options.vectorWidth;
  // -1: the pass takes it from qops.target.
  vectorize.resultTileBytes = options.resultTileBytes;
  vectorize.parallel = options.parallel;
  pm.addNestedPass<func::FuncOp>(
      qops::createQOpsVectorizeElementwise(vectorize));
  // No canonicalizer here: the deallocation's first one, after
  // bufferization, leaves the same lowered modules (see
  // addBufferDeallocation).
  // Packed constant weights (and any other constant tensor expression):
  // computed at the first call into globals.
  pm.addPass(qops::createQOpsHoistConstantExpressions());
  // The constant expressions run on another thread while the module is
  // lowered; their values are joined at the end. Or, for a caller that
  // links the module, they become functions it runs once linked.
  std::shared_ptr<ConstEvalHandoff> constEval;
  if (options.constEval) {
    constEval =
        callerRuns ? callerRuns : makeConstEvalHandoff(ConstEvalAt::Join);
    pm.addPass(qops::createQOpsConstEvalPass(constEval, options.parallel));
    if (callerRuns)
      constEval = nullptr;
  }
  addBufferize(pm, options.parallel, std::move(patterns));
  if (options.nontemporalMinBytes > 0) {
    QOpsNontemporalStoresOptions nontemporal;
    nontemporal.minBytes = options.nontemporalMinBytes;
    pm.addNestedPass<func::FuncOp>(
        qops::createQOpsNontemporalStores(nontemporal));
  }
  addLinalgToLLVMPasses(pm, options, std::move(constEval));
}

void qops::registerQOpsPipelines() {
  PassPipelineRegistration<QOpsPipelineOptions>(
      "qops-lower-to-llvm",
      "Lower qops on tensors to the LLVM dialect ([qops-fuse-qdq,] "
      "convert-qops-to-linalg, "
      "qops-vectorize-elementwise, qops-bufferize, qops-linalg-to-llvm)",
      [](OpPassManager &pm, const QOpsPipelineOptions &options) {
        buildQOpsLowerToLLVMPipeline(pm, options);
      });
  PassPipelineRegistration<>(
      "qops-bufferize",
      "One-shot bufferization of tensor functions with identity-layout "
      "function boundaries, then buffer deallocation",
      [](OpPassManager &pm) { buildQOpsBufferizePipeline(pm); });
  PassPipelineRegistration<QOpsPipelineOptions>(
      "qops-linalg-to-llvm",
      "Lower bufferized linalg/vector/arith/math/memref to the LLVM dialect",
      [](OpPassManager &pm, const QOpsPipelineOptions &options) {
        buildQOpsLinalgToLLVMPipeline(pm, options);
      });
}

void qops::registerAllQuantOpsPasses() {
  registerQuantOpsConversionPasses();
  registerQuantOpsTransformsPasses();
  registerQOpsPipelines();
  registerQOpsConstEvalPass();
  registerQOpsKernelsApartPass();
}
