//===- Compile.h - from a model file to a JIT session -----------*- C++ -*-===//
//
// Loading IR (.mlir or .onnx, from a file or from memory) and tensors (.npy
// or TensorProto .pb), lowering and JIT-compiling one function, and
// comparing results: shared by quant-runner (its single-run and --onnx-test
// modes) and the C API (libQuantOpsRuntime, include/QuantOps-c/Runtime.h).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_RUNNER_COMPILE_H
#define QUANTOPS_RUNNER_COMPILE_H

#include "QuantOps/Runner/HostTensor.h"
#include "QuantOps/Runner/JitSession.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"

#include <future>
#include <memory>
#include <string>
#include <vector>

namespace mlir::qops {
struct QOpsPipelineOptions;
} // namespace mlir::qops

namespace mlir::qops::runner {

/// The registry quant-runner, quant-compile and the C API parse, lower and
/// translate with: the dialects and interface models of a CPU lowering
/// (RunnerRegistry.cpp), not all of upstream's.
void registerRunnerDialects(DialectRegistry &registry);

/// Reads an .onnx model (imported into qops) or an .mlir file. Parse errors
/// are printed with their location before the returned error.
llvm::Expected<OwningOpRef<ModuleOp>> loadModule(llvm::StringRef path,
                                                 MLIRContext *context);

/// The same from memory: an ONNX ModelProto's bytes (`isOnnx`) or MLIR
/// text; `name` stands for the file in messages.
llvm::Expected<OwningOpRef<ModuleOp>>
loadModuleFromBuffer(llvm::StringRef bytes, bool isOnnx, llvm::StringRef name,
                     MLIRContext *context);

/// The names of `funcName`'s inputs and outputs: an imported ONNX graph's
/// (qops.input_names / qops.output_names), else "input_<i>" and
/// "output_<i>". Call it before lowering (the names live on the func.func).
struct TensorNames {
  std::vector<std::string> inputs, outputs;
};
TensorNames getTensorNames(ModuleOp module, llvm::StringRef funcName,
                           size_t numInputs, size_t numOutputs);

/// Reads a tensor from a TensorProto file (.pb) or a NumPy file (others).
llvm::Expected<HostTensor> loadTensorFile(llvm::StringRef path);

class CacheKey;

/// How quant-runner lowers a module. Every field is part of the object
/// cache's key (addToCacheKey).
struct LoweringOptions {
  unsigned threads = 1;       // > 1: parallel loops
  bool fuseQDQ = false;       // qops-fuse-qdq first
  bool floatFma = false;      // float contractions with fused multiply-adds
  int64_t qdqAccuracyLevel = 0; // 4: DQ(int4) -> MatMul with int8 A
  std::string targetCpu;      // "" = the host's
  std::string targetFeatures; // on top of the CPU's
  int64_t nontemporalMinBytes = 8 << 20; // 0: no streaming stores
  bool constEval = false;     // qops-const-eval: pack constants now
};

/// While it lives, keeps the first error diagnostic of `context` as one
/// line, "<file>:<line>:<col>: <message>" (other locations as MLIR prints
/// them), instead of printing it: the message of a failed parse or lowering.
class FirstErrorCapture {
public:
  explicit FirstErrorCapture(MLIRContext *context);
  /// Empty when no error was reported.
  const std::string &getMessage() const { return message; }

private:
  std::string message;
  ScopedDiagnosticHandler handler;
};

/// Runs the qops-lower-to-llvm pipeline with `options` on `module`,
/// verifying the module once, after it (not after each of its ~35 passes:
/// a fifth of the lowering time); "lowering failed: <first error>".
llvm::Error
runLowerToLLVM(ModuleOp module, const QOpsPipelineOptions &options,
               std::shared_ptr<ConstEvalHandoff> constEval = nullptr,
               std::shared_ptr<KernelsApartHandoff> kernelsApart = nullptr);

/// Checks that the target can run on this CPU (quant-runner runs what it
/// compiles): an error naming the missing features otherwise.
llvm::Error checkTargetRunsOnHost(const LoweringOptions &options);

/// Erases the functions `entry` does not reach, then lowers the module with
/// the qops-lower-to-llvm pipeline for the options' target. With
/// options.constEval and a `constEval` handoff
/// (makeConstEvalHandoff(ConstEvalAt::Link)), the packed weights are
/// computed by functions of the module: for JitOptions::constEval, whose
/// session runs them once linked. With a `kernelsApart` handoff
/// (JitOptions::kernelsApart), the int8 kernels of a model made of
/// contractions are lowered and compiled on a thread of their own, for the
/// session to link.
llvm::Error
lowerForEntry(ModuleOp module, llvm::StringRef entry,
              const LoweringOptions &options,
              std::shared_ptr<ConstEvalHandoff> constEval = nullptr,
              std::shared_ptr<KernelsApartHandoff> kernelsApart = nullptr);

/// Adds every lowering option to an object cache key.
void addToCacheKey(CacheKey &key, const LoweringOptions &options);

/// The JIT options for optimization `optLevel`: with threads > 1 it loads
/// libomp and runs with that many threads.
llvm::Expected<JitOptions> getJitOptions(unsigned optLevel, unsigned threads);

/// Loads `options.sharedLibs` (libomp, the C runner utilities) on a thread
/// of its own, so that a caller can overlap their loading with parsing and
/// lowering, which use one core, and starts libomp's runtime there
/// (omp_get_max_threads); the session's link then finds them loaded (and
/// reports what failed to load). The future's destructor waits.
std::future<void> preloadSharedLibraries(const JitOptions &options);

/// Starts making the target machines of a JIT compile with `jit` of a
/// module lowered with `lowering`, on a thread of their own
/// (MachineSupply): a caller starts them before lowering, which uses one
/// core, and passes them on in JitOptions::machines. Null when the target
/// of `lowering` does not resolve (lowering reports that).
std::shared_ptr<MachineSupply>
startMachineSupply(const JitOptions &jit, const LoweringOptions &lowering);

/// Creates the JIT session for `entry` (host CPU, getJitOptions), which
/// refers to the module's weights in place (JitOptions::borrowConstants): the
/// module's MLIRContext must outlive it.
llvm::Expected<std::unique_ptr<JitSession>>
createSession(ModuleOp module, llvm::StringRef entry, unsigned optLevel,
              unsigned threads);

/// The default thread count: every core of the machine.
unsigned getDefaultThreadCount();

/// The outcome of comparing one result with its expectation.
struct OutputCheck {
  bool passed = false;
  /// Bit-identical (NaN equal to NaN).
  bool bitExact = false;
  /// For float outputs: the largest |got - expected| seen.
  double largestError = 0;
  /// Why it failed: "3 of 6 elements differ; first at [2]: got 1, expected 2".
  std::string detail;
};

/// Integer and raw-bit outputs must be bit-exact. Float outputs (f16, bf16,
/// f32, f64) pass bit-exactly or, when `tolerant`, within ONNX's backend
/// tolerance |got - expected| <= atol + rtol * |expected| (rtol 1e-3, atol
/// 1e-7), NaN only matching NaN.
OutputCheck checkOutput(const HostTensor &got, const HostTensor &expected,
                        bool tolerant);

} // namespace mlir::qops::runner

#endif // QUANTOPS_RUNNER_COMPILE_H
