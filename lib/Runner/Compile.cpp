//===- Compile.cpp - from a model file to a JIT session -------------------===//
//
// See Compile.h.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Runner/Compile.h"

#include "QuantOps/Runner/ObjectCache.h"

#include "QuantOps/Target/TargetInfo.h"

#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h"
#include "QuantOps/Pipelines/Pipelines.h"
#include "QuantOps/Target/ONNX/OnnxImporter.h"
#include "QuantOps/Target/ONNX/OnnxTensor.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"

#include <cmath>
#include <cstdlib>
#include <string>
#include <thread>

using namespace mlir;
using namespace mlir::qops;
using namespace mlir::qops::runner;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<OwningOpRef<ModuleOp>>
runner::loadModule(llvm::StringRef path, MLIRContext *context) {
  if (path.ends_with(".onnx"))
    return onnx::importOnnxFile(path, context);
  llvm::SourceMgr sourceMgr;
  std::string includeError;
  if (sourceMgr.AddIncludeFile(path.str(), llvm::SMLoc(), includeError) == 0)
    return makeError("cannot open '" + path + "'");
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr,
                                                           context);
  if (!module)
    return makeError("cannot parse '" + path + "'");
  return module;
}

llvm::Expected<OwningOpRef<ModuleOp>>
runner::loadModuleFromBuffer(llvm::StringRef bytes, bool isOnnx,
                             llvm::StringRef name, MLIRContext *context) {
  if (isOnnx)
    return onnx::importOnnxBuffer(bytes, name, context);
  FirstErrorCapture firstError(context); // nothing printed
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(bytes, name), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, context);
  if (!module)
    return makeError("cannot parse '" + name + "'" +
                     (firstError.getMessage().empty()
                          ? ""
                          : ": " + firstError.getMessage()));
  return module;
}

TensorNames runner::getTensorNames(ModuleOp module, llvm::StringRef funcName,
                                   size_t numInputs, size_t numOutputs) {
  Operation *func = module.lookupSymbol(funcName);
  auto read = [&](llvm::StringRef attrName, size_t count,
                  llvm::StringRef prefix) {
    std::vector<std::string> names;
    auto array = func ? func->getAttrOfType<ArrayAttr>(attrName) : nullptr;
    if (array && array.size() == count)
      for (Attribute name : array)
        if (auto string = dyn_cast<StringAttr>(name))
          names.push_back(string.str());
    if (names.size() != count) {
      names.clear();
      for (size_t i = 0; i < count; ++i)
        names.push_back((prefix + llvm::Twine(i)).str());
    }
    return names;
  };
  return {read(kInputNamesAttrName, numInputs, "input_"),
          read(kOutputNamesAttrName, numOutputs, "output_")};
}

llvm::Expected<HostTensor> runner::loadTensorFile(llvm::StringRef path) {
  if (!path.ends_with(".pb"))
    return readNpy(path);
  llvm::Expected<onnx::OnnxTensor> tensor = onnx::readTensorProtoFile(path);
  if (!tensor)
    return tensor.takeError();
  llvm::Expected<HostTensor> host = onnx::toHostTensor(*tensor);
  if (!host)
    return makeError(path + ": " + llvm::toString(host.takeError()));
  return host;
}

/// Erases the functions that `entry` does not reach through symbol uses.
static void keepOnlyReachableFunctions(ModuleOp module, StringRef entry) {
  llvm::StringSet<> reachable;
  SmallVector<Operation *> worklist;
  if (Operation *root = module.lookupSymbol(entry)) {
    reachable.insert(entry);
    worklist.push_back(root);
  }
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(op);
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &use : *uses) {
      StringRef name = use.getSymbolRef().getRootReference().getValue();
      if (!reachable.insert(name).second)
        continue;
      if (Operation *callee = module.lookupSymbol(name))
        worklist.push_back(callee);
    }
  }
  for (Operation &op : llvm::make_early_inc_range(*module.getBody()))
    if (auto func = dyn_cast<FunctionOpInterface>(op))
      if (!reachable.contains(func.getName()))
        op.erase();
}

unsigned runner::getDefaultThreadCount() {
  return std::max(1u, std::thread::hardware_concurrency());
}

/// Rejects programs whose static tensors are larger than the run may
/// allocate (8 GiB, or QUANTOPS_MAX_ALLOC_BYTES), before lowering and
/// compiling them tries to materialize them.
static llvm::Error checkStaticTensorSizes(ModuleOp module) {
  uint64_t limit = uint64_t(8) << 30;
  if (const char *env = std::getenv("QUANTOPS_MAX_ALLOC_BYTES"))
    limit = std::strtoull(env, nullptr, 10);
  std::string problem;
  module.walk([&](Operation *op) {
    for (Type type : op->getResultTypes()) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || !tensor.hasStaticShape() ||
          !tensor.getElementType().isIntOrFloat())
        continue;
      uint64_t bytes =
          (tensor.getElementType().getIntOrFloatBitWidth() + 7) / 8;
      for (int64_t dim : tensor.getShape())
        if (__builtin_mul_overflow(bytes, uint64_t(dim), &bytes))
          bytes = UINT64_MAX;
      if (bytes > limit) {
        llvm::raw_string_ostream os(problem);
        os << op->getLoc() << ": " << tensor << " has " << bytes
           << " bytes, over the limit of " << limit
           << " (QUANTOPS_MAX_ALLOC_BYTES)";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (!problem.empty())
    return makeError(problem);
  return llvm::Error::success();
}

llvm::Error runner::checkTargetRunsOnHost(const LoweringOptions &options) {
  llvm::Expected<QOpsTarget> target =
      resolveTarget({"", options.targetCpu, options.targetFeatures});
  if (!target)
    return target.takeError();
  std::string missing = featuresMissingOnHost(*target);
  if (!missing.empty())
    return makeError("the target (" + target->cpu +
                     ") needs features this CPU lacks, so its code cannot "
                     "run here: " +
                     missing);
  return llvm::Error::success();
}

llvm::Error
runner::lowerForEntry(ModuleOp module, llvm::StringRef entry,
                      const LoweringOptions &lowering,
                      std::shared_ptr<ConstEvalHandoff> constEval,
                      std::shared_ptr<KernelsApartHandoff> kernelsApart) {
  keepOnlyReachableFunctions(module, entry);
  if (llvm::Error error = checkStaticTensorSizes(module))
    return error;
  QOpsPipelineOptions options;
  options.runtimeAllocator = true; // JitSession's caching allocator
  options.parallel = lowering.threads > 1;
  options.fuseQDQ = lowering.fuseQDQ;
  options.floatFma = lowering.floatFma;
  options.qdqAccuracyLevel = lowering.qdqAccuracyLevel;
  options.targetCpu = lowering.targetCpu;
  options.targetFeatures = lowering.targetFeatures;
  options.nontemporalMinBytes = lowering.nontemporalMinBytes;
  options.constEval = lowering.constEval;
  return runLowerToLLVM(module, options, std::move(constEval),
                        std::move(kernelsApart));
}

runner::FirstErrorCapture::FirstErrorCapture(MLIRContext *context)
    : handler(context, [this](Diagnostic &diag) {
        if (diag.getSeverity() != DiagnosticSeverity::Error ||
            !message.empty())
          return success();
        llvm::raw_string_ostream os(message);
        if (auto loc = dyn_cast<FileLineColLoc>(diag.getLocation()))
          os << loc.getFilename().getValue() << ":" << loc.getLine() << ":"
             << loc.getColumn();
        else
          os << diag.getLocation();
        os << ": " << diag.str();
        return success();
      }) {}

llvm::Error
runner::runLowerToLLVM(ModuleOp module, const QOpsPipelineOptions &options,
                       std::shared_ptr<ConstEvalHandoff> constEval,
                       std::shared_ptr<KernelsApartHandoff> kernelsApart) {
  FirstErrorCapture firstError(module.getContext());
  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  buildQOpsLowerToLLVMPipeline(pm, options, std::move(constEval),
                               std::move(kernelsApart));
  pm.enableVerifier(false);
  if (failed(pm.run(module)) || failed(verify(module)))
    return makeError("lowering failed: " +
                     (firstError.getMessage().empty()
                          ? std::string("unknown error")
                          : firstError.getMessage()));
  return llvm::Error::success();
}

void runner::addToCacheKey(CacheKey &key, const LoweringOptions &options) {
  key.add("threads=" + std::to_string(options.threads))
      .add("fuse-qdq=" + std::to_string(options.fuseQDQ))
      .add("float-fma=" + std::to_string(options.floatFma))
      .add("qdq-accuracy-level=" + std::to_string(options.qdqAccuracyLevel))
      .add("target-cpu=" + options.targetCpu)
      .add("target-features=" + options.targetFeatures)
      .add("nontemporal-min-bytes=" +
           std::to_string(options.nontemporalMinBytes))
      .add("const-eval=" + std::to_string(options.constEval));
}

llvm::Expected<JitOptions> runner::getJitOptions(unsigned optLevel,
                                                 unsigned threads) {
  JitOptions options;
  options.optLevel = optLevel;
  // No MLIR runner utilities: the lowered code calls libc (aligned_alloc,
  // free, memcpy, memset, libm), the session's runtime (JitSession.cpp: the
  // allocator, the bf16 truncations LLVM calls) and, with threads, libomp
  // (strided copies are loops, qops-expand-strided-copies). Debian's
  // libmlir_c_runner_utils.so would bring libMLIR.so and libLLVM.so into a
  // tool that has them linked in (QUANTOPS_STATIC_LLVM): a second LLVM.
  if (threads > 1) {
#ifdef QUANTOPS_LIBOMP
    // libomp reads the thread count when it starts its first team.
    setenv("OMP_NUM_THREADS", std::to_string(threads).c_str(), 1);
    options.sharedLibs.push_back(QUANTOPS_LIBOMP);
#else
    return makeError("--threads > 1 needs libomp (Debian: libomp-22-dev), "
                     "which was not found when quant-runner was built");
#endif
  }
  return options;
}

/// The most machines made ahead: each takes about 2 ms of the idle core
/// (Zen 4), which the shortest lowering leaves free for a few.
constexpr unsigned kMostMachinesAhead = 4;

std::shared_ptr<MachineSupply>
runner::startMachineSupply(const JitOptions &jit,
                           const LoweringOptions &lowering) {
  // The attributes qops-set-llvm-target gives the functions, from the
  // same options; translation writes the features as TargetFeaturesAttr
  // keeps them (no empty entries).
  llvm::Expected<QOpsTarget> target =
      resolveTarget({"", lowering.targetCpu, lowering.targetFeatures});
  if (!target) {
    llvm::consumeError(target.takeError());
    return nullptr;
  }
  llvm::SmallVector<llvm::StringRef> features;
  llvm::StringRef(target->features)
      .split(features, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  return std::make_shared<MachineSupply>(
      std::min(getMostParts(jit.compileThreads), kMostMachinesAhead),
      getMachineFactory(jit.optLevel), target->cpu, llvm::join(features, ","));
}

std::future<void> runner::preloadSharedLibraries(const JitOptions &options) {
  return std::async(std::launch::async, [libraries = options.sharedLibs] {
    for (const std::string &library : libraries) {
      llvm::sys::DynamicLibrary loaded =
          llvm::sys::DynamicLibrary::getPermanentLibrary(library.c_str());
      // libomp starts its runtime (the environment, the machine's topology:
      // 1.1-1.5 ms on Zen 4) in its first call, which would otherwise be
      // the first parallel region of the session: the packing at link
      // (--const-eval) or the first call. Here it is on the idle core.
      // (The threads of the first team are made by that region.)
      if (loaded.isValid())
        if (void *start = loaded.getAddressOfSymbol("omp_get_max_threads"))
          reinterpret_cast<int (*)()>(start)();
    }
  });
}

llvm::Expected<std::unique_ptr<JitSession>>
runner::createSession(ModuleOp module, llvm::StringRef entry,
                      unsigned optLevel, unsigned threads) {
  llvm::Expected<JitOptions> options = getJitOptions(optLevel, threads);
  if (!options)
    return options.takeError();
  options->borrowConstants = true; // the caller keeps the module
  return JitSession::create(module, entry, *options);
}

static bool isFloatKind(ElementKind kind) {
  return kind == ElementKind::F16 || kind == ElementKind::BF16 ||
         kind == ElementKind::F32 || kind == ElementKind::F64;
}

OutputCheck runner::checkOutput(const HostTensor &got,
                                const HostTensor &expected, bool tolerant) {
  OutputCheck check;
  HostTensor want = expected;
  // numpy has no bf16: expected bf16 values may be stored as u2 bits.
  if (got.kind == ElementKind::BF16 && want.kind == ElementKind::U16)
    want.kind = ElementKind::BF16;
  if (got.kind != want.kind || got.shape != want.shape) {
    check.detail = llvm::formatv("got {0} {1}, expected {2} {3}",
                                 getKindName(got.kind), formatShape(got.shape),
                                 getKindName(want.kind),
                                 formatShape(want.shape));
    return check;
  }
  llvm::Expected<CompareResult> exact = compareBitExact(got, want, 1);
  if (!exact) {
    check.detail = llvm::toString(exact.takeError());
    return check;
  }
  if (exact->mismatchCount == 0) {
    check.passed = check.bitExact = true;
    return check;
  }
  auto describeFirst = [&](const Mismatch &m) {
    return llvm::formatv("first at {0}: got {1}, expected {2}",
                         formatShape(m.index), m.got, m.expected)
        .str();
  };
  if (!tolerant || !isFloatKind(got.kind)) {
    check.detail = llvm::formatv("{0} of {1} elements differ; {2}",
                                 exact->mismatchCount, got.numElements(),
                                 describeFirst(exact->first.front()));
    return check;
  }
  constexpr double rtol = 1e-3, atol = 1e-7;
  int64_t outside = 0, firstOutside = -1;
  for (int64_t i = 0, e = got.numElements(); i < e; ++i) {
    double g = getElementAsDouble(got, i), w = getElementAsDouble(want, i);
    if (std::isnan(g) && std::isnan(w))
      continue;
    double error = std::fabs(g - w);
    if (std::isnan(error))
      error = INFINITY;
    check.largestError = std::max(check.largestError, error);
    if (!(error <= atol + rtol * std::fabs(w)) && g != w) {
      if (firstOutside < 0)
        firstOutside = i;
      ++outside;
    }
  }
  if (outside == 0) {
    check.passed = true;
    return check;
  }
  check.detail = llvm::formatv(
      "{0} of {1} elements outside rtol 1e-3 / atol 1e-7 (largest error "
      "{2}); first at {3}: got {4}, expected {5}",
      outside, got.numElements(), check.largestError,
      formatShape(unflattenIndex(got.shape, firstOutside)),
      formatElement(got, firstOutside), formatElement(want, firstOutside));
  return check;
}
