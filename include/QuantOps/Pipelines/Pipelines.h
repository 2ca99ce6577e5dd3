//===- Pipelines.h - named QuantOps pass pipelines --------------*- C++ -*-===//
//
// The pipelines from qops on tensors to the LLVM dialect, as pieces and as a
// whole:
//
//   qops-lower-to-llvm  = qops-configure-target, [qops-fuse-qdq,]
//                         qops-decompose-contractions,
//                         convert-qops-to-linalg, qops-lower-packing,
//                         [qops-distribute,] canonicalize,
//                         qops-vectorize-elementwise, canonicalize,
//                         qops-bufferize, qops-linalg-to-llvm
//   qops-bufferize      = qops-prepare-constant-globals, one-shot-bufferize
//                         (function boundaries, identity layouts) +
//                         buffer-deallocation-pipeline
//   qops-linalg-to-llvm = [qops-configure-target,] linalg -> loops,
//                         vector -> scf/LLVM, -> cf -> LLVM dialect
//
// The target options (triple, CPU, features, int8 strategy) go to
// qops-configure-target alone, which records them on the module
// (qops.target, TargetAttr.h) for the passes after it.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_PIPELINES_PIPELINES_H
#define QUANTOPS_PIPELINES_PIPELINES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <string>
#include <vector>

namespace mlir::qops {

/// Options of the lowering pipelines (also their command-line options, e.g.
/// `--qops-lower-to-llvm="vector-width=64 runtime-allocator"`).
struct QOpsPipelineOptions : public PassPipelineOptions<QOpsPipelineOptions> {
  Option<int64_t> vectorWidth{
      *this, "vector-width",
      llvm::cl::desc("Elements per vector tile along the contiguous "
                     "dimension of elementwise ops"),
      llvm::cl::init(32)};
  Option<int64_t> resultTileBytes{
      *this, "result-tile-bytes",
      llvm::cl::desc("Bytes of each result an elementwise vector tile "
                     "writes at least (qops-vectorize-elementwise); -1: the "
                     "target's (64, a zmm register and a cache line, with "
                     "AVX-512; 0 otherwise)"),
      llvm::cl::init(-1)};
  Option<bool> parallel{
      *this, "parallel",
      llvm::cl::desc("Distribute outer loops over threads (scf.forall -> "
                     "OpenMP; the program then needs libomp at run time)"),
      llvm::cl::init(false)};
  Option<std::string> targetTriple{
      *this, "target-triple",
      llvm::cl::desc("LLVM target triple (default: the host's)"),
      llvm::cl::init("")};
  Option<std::string> targetCpu{
      *this, "target-cpu",
      llvm::cl::desc("CPU to compile for, as llc -mcpu (default: the "
                     "host's); chooses the int8 kernel and LLVM's code"),
      llvm::cl::init("")};
  Option<std::string> targetFeatures{
      *this, "target-features",
      llvm::cl::desc("Target features on top of the CPU's, llc -mattr "
                     "style (+avx512vnni,-avxvnni)"),
      llvm::cl::init("")};
  Option<std::string> int8Strategy{
      *this, "int8-strategy",
      llvm::cl::desc("The int8 QLinearMatMul kernel (auto: the target's; "
                     "madd, maddubs, vnni, avxvnni, amx, usmmla, usdot, "
                     "sdot: see "
                     "convert-qops-to-linalg)"),
      llvm::cl::init("auto")};
  Option<bool> fuseQDQ{
      *this, "fuse-qdq",
      llvm::cl::desc("First run qops-fuse-qdq: DequantizeLinear -> MatMul / "
                     "Conv -> QuantizeLinear becomes qlinear_matmul / "
                     "qlinear_conv (changes rounding: docs/Numerics.md, "
                     "\"QDQ fusion\")"),
      llvm::cl::init(false)};
  Option<int64_t> nontemporalMinBytes{
      *this, "nontemporal-min-bytes",
      llvm::cl::desc("Returned buffers of at least this many bytes are "
                     "written with non-temporal vector stores "
                     "(qops-nontemporal-stores); 0: never"),
      llvm::cl::init(8 << 20)};
  Option<bool> constEval{
      *this, "const-eval",
      llvm::cl::desc("Run the constant expressions (packed weights) at "
                     "compile time with the JIT (qops-const-eval) instead "
                     "of at the first call; the host must be little-endian "
                     "like the target"),
      llvm::cl::init(false)};
  Option<bool> shareLoopNests{
      *this, "share-loop-nests",
      llvm::cl::desc("Compile the loop nests that layers of the same shape "
                     "share once, as one function they call "
                     "(qops-share-loop-nests)"),
      llvm::cl::init(true)};
  Option<bool> floatFma{
      *this, "float-fma",
      llvm::cl::desc("Float MatMul / Gemm steps as one fused multiply-add "
                     "(qops-lower-float-contractions fma=true) instead of a "
                     "multiply and an add in increasing k"),
      llvm::cl::init(false)};
  Option<int64_t> qdqAccuracyLevel{
      *this, "qdq-accuracy-level",
      llvm::cl::desc("The accuracy level of a DequantizeLinear -> MatMul "
                     "with 4-bit blocked weights (qops-lower-float-"
                     "contractions default-accuracy-level; ONNX Runtime's "
                     "session.qdq_matmulnbits_accuracy_level): 4 quantizes "
                     "A to int8 per block (ONNX Runtime's default), 0 to 3 "
                     "keep ONNX's f32 numbers"),
      llvm::cl::init(0)};
  Option<bool> runtimeAllocator{
      *this, "runtime-allocator",
      llvm::cl::desc("Allocate through _mlir_memref_to_llvm_alloc / "
                     "_aligned_alloc / _free, which the host provides "
                     "(quant-runner: a caching allocator) instead of "
                     "aligned_alloc / free"),
      llvm::cl::init(false)};
};

/// Bufferizes a module of tensor functions (results are returned as fresh
/// buffers with identity layouts, owned by the caller). `parallel`: the
/// strided copies and transposes it expands are distributed over threads
/// (scf.forall, for the OpenMP lowering that follows).
void buildQOpsBufferizePipeline(OpPassManager &pm, bool parallel = false);
/// Lowers bufferized linalg/vector/arith/math/memref to the LLVM dialect.
void buildQOpsLinalgToLLVMPipeline(OpPassManager &pm,
                                   const QOpsPipelineOptions &options);
/// qops-const-eval (ConstEval.cpp): the expressions
/// qops-hoist-constant-expressions guarded, run at compile time with the JIT
/// for the host; their results become the globals' constant values and the
/// guards go. A handoff says when the values are computed: Join, on a
/// thread of their own (a multithreaded context), while the module is
/// lowered, and the qops-const-eval-join pass given the same handoff, later
/// in the pipeline, makes them the llvm.mlir.globals'; Link (the pass
/// option at-link), by the module's own code: the expressions become
/// functions the caller runs once linked (a JIT: declareConstEvalGlobals).
enum class ConstEvalAt { Join, Link };
struct ConstEvalHandoff;
std::shared_ptr<ConstEvalHandoff> makeConstEvalHandoff(ConstEvalAt at);
std::unique_ptr<Pass>
createQOpsConstEvalPass(std::shared_ptr<ConstEvalHandoff> handoff = nullptr,
                        bool parallel = false);
std::unique_ptr<Pass>
createQOpsConstEvalJoinPass(std::shared_ptr<ConstEvalHandoff> handoff);
/// What a caller that links the module runs before its first call.
struct ConstEvalLink {
  /// A global the functions fill: the caller binds its symbol to `bytes`
  /// of zeroed memory of its own aligned to `alignment`.
  struct Global {
    std::string name;
    uint64_t bytes = 0;
    uint64_t alignment = 1;
  };
  std::vector<Global> globals;
  /// The functions (no arguments, no results), each to call once, in order.
  std::vector<std::string> functions;
  /// The globals only the functions read (the weights before packing): not
  /// needed once they ran.
  std::vector<std::string> usedOnlyByThem;
};
/// For a ConstEvalAt::Link handoff, after the pipeline: the globals the
/// functions fill become external declarations; returns them and the
/// functions (nothing for another handoff).
ConstEvalLink declareConstEvalGlobals(ModuleOp module,
                                      ConstEvalHandoff &handoff);
/// Compiles the functions of a ConstEvalAt::Link handoff, `module` (in the
/// LLVM dialect: the functions and what they read), for the caller to link
/// with the module's code.
using ConstEvalCompiler = std::function<LogicalResult(
    ModuleOp module, ArrayRef<std::string> functions)>;
/// With a compiler (and a multithreaded context), qops-const-eval leaves
/// the functions out of the module: it lowers them in a module of their
/// own and compiles it with `compile`, on a thread of its own, while the
/// module is lowered; their globals there are declarations too. The
/// context must have the LLVM IR translations registered (the at-link
/// forms do not add them: a JIT's context has them already).
void setConstEvalCompiler(ConstEvalHandoff &handoff, ConstEvalCompiler compile);
/// Waits for the compiler (failure: it or the lowering failed, and said
/// why in a diagnostic); success at once without one.
LogicalResult finishConstEval(ConstEvalHandoff &handoff);
void registerQOpsConstEvalPass();

/// qops-kernels-apart (KernelsApart.cpp): after the pack stage, the int8
/// kernels' loop nests (when they are most of the module; one function per
/// layer shape) move into a module of their own, which goes through the
/// rest of the pipeline and to the handoff's compiler on a thread of its
/// own while the module is lowered and compiled; the module calls them
/// (declarations). The caller links the compiler's objects with the
/// module's. Without a handoff the pipeline has no such step.
struct KernelsApartHandoff;
/// Compiles the kernels' module, in the LLVM dialect, on its thread.
using KernelsApartCompiler = std::function<LogicalResult(ModuleOp module)>;
std::shared_ptr<KernelsApartHandoff>
makeKernelsApartHandoff(KernelsApartCompiler compile);
/// Whether the kernels' lowering and compile are under way (the pass moved
/// them apart and they are not done yet).
bool isKernelsApartRunning(const KernelsApartHandoff &handoff);
/// Whether the pass moved kernels apart and nothing waited for them yet
/// (finishKernelsApart).
bool areKernelsApart(const KernelsApartHandoff &handoff);
/// Waits for the kernels' lowering and compile (failure: either failed,
/// and said why in a diagnostic); success at once if none was started.
LogicalResult finishKernelsApart(KernelsApartHandoff &handoff);
/// The kernels `module` calls and the handoff's compiler defines: its
/// declarations that the pass marked (qops.fresh_results), in any dialect.
std::vector<std::string> getKernelsApartSymbols(ModuleOp module);
/// The pass; `buildRest` adds the passes that follow it in the pipeline,
/// for the kernel's module.
std::unique_ptr<Pass>
createQOpsKernelsApartPass(std::shared_ptr<KernelsApartHandoff> handoff,
                           std::function<void(OpPassManager &)> buildRest);
/// Registers it without a handoff (the kernel's module nested in the
/// module: for quant-opt and its tests).
void registerQOpsKernelsApartPass();

/// The LLVM IR translations of the dialects a module lowered for a CPU
/// holds: builtin, LLVM, OpenMP, Arm Neon, Arm SVE (not upstream's
/// registerAllToLLVMIRTranslations, whose GPU dialects a pipeline would
/// load; qops-const-eval's JIT, the runner's registry).
void registerCPUToLLVMIRTranslations(DialectRegistry &registry);

/// Registers the host's LLVM target, its assembly printer and parser, once
/// per process, on whichever thread comes first (qops-const-eval's JIT and
/// the runner's target machines may be made on different threads).
void initializeNativeTarget();

/// The large constant globals of a module in the LLVM dialect (at least
/// `minBytes`: the weights, which bufferization made llvm.mlir.global
/// constants holding a DenseElementsAttr) become external declarations;
/// returns each one's bytes, the attribute's raw data (valid while the
/// context lives), for a JIT to bind the symbol to. Translating them would
/// copy them into an LLVM constant (hashed to be uniqued), the object and
/// the JIT's memory: for a 768 x 3072 b, about 10 ms of memmove and page
/// faults. A declaration has the alignment of its type (the raw data is
/// 8-byte aligned); the loads of the lowered code carry their own, that of
/// the element type. Splat, sub-byte and resource constants stay.
llvm::StringMap<ArrayRef<char>>
externalizeLargeConstants(ModuleOp module, int64_t minBytes = 4096);
/// The whole way from qops on tensors to the LLVM dialect. With const-eval
/// and a `constEval` handoff (ConstEvalAt::Link), the caller runs the
/// expressions once linked (see declareConstEvalGlobals). With a
/// `kernelsApart` handoff, the int8 kernels of a model made of contractions
/// are lowered and compiled apart (qops-kernels-apart).
void buildQOpsLowerToLLVMPipeline(
    OpPassManager &pm, const QOpsPipelineOptions &options,
    std::shared_ptr<ConstEvalHandoff> constEval = nullptr,
    std::shared_ptr<KernelsApartHandoff> kernelsApart = nullptr);

/// Registers the three pipelines with the global pass registry.
void registerQOpsPipelines();

/// Registers every QuantOps pass and pipeline.
void registerAllQuantOpsPasses();

} // namespace mlir::qops

#endif // QUANTOPS_PIPELINES_PIPELINES_H
