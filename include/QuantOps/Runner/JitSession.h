//===- JitSession.h - JIT-compile and call a tensor function ----*- C++ -*-===//
//
// Compiles a module in the LLVM dialect (ObjectCodegen.h), links it with
// ORC (RuntimeDyld) and calls one of its functions on host tensors. The
// function's ONNX-typed signature comes from its `qops.signature` attribute
// (set by convert-qops-to-linalg), so tensors cross the boundary with their
// real element types: signedness, 4/2-bit integers (one element per byte),
// bf16/float8/float4 bit patterns.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_RUNNER_JITSESSION_H
#define QUANTOPS_RUNNER_JITSESSION_H

#include "QuantOps/Runner/HostTensor.h"
#include "QuantOps/Runner/ObjectCodegen.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace llvm {
class MemoryBuffer;
namespace orc {
class IndirectStubsManager;
class JITDylib;
class LLJIT;
} // namespace orc
} // namespace llvm

namespace mlir::qops {
struct ConstEvalHandoff;
struct ConstEvalLink;
struct KernelsApartHandoff;
} // namespace mlir::qops

namespace mlir::qops::runner {

struct CompiledApart; // JitSession.cpp: prepareConstEval's,
                      // prepareKernelsApart's

/// How an ONNX element type is held on the host (.npy dtype), or an error
/// naming the type.
llvm::Expected<ElementKind> getHostElementKind(Type onnxElementType);

/// Checks that `tensor` can be passed as an argument of type `type`: the
/// element kind, the rank, every static dimension, and for 4/2-bit integer
/// types that every value is in range. `what` names the argument in
/// messages (e.g. "input 1 (argument #1)").
llvm::Error checkTensorMatchesType(const HostTensorView &tensor,
                                   RankedTensorType type,
                                   llvm::StringRef what);

/// The tensor signature of a function.
struct TensorSignature {
  std::vector<RankedTensorType> inputs;
  std::vector<RankedTensorType> results;
};

struct JitOptions {
  /// LLVM optimization level for the JIT (0-3).
  unsigned optLevel = 3;
  /// Extra shared libraries to load (libomp for threads).
  std::vector<std::string> sharedLibs;
  /// Keep the compiled objects in memory, for writeObject (the object
  /// cache stores them).
  bool keepObject = false;
  /// Threads, and so most parts, of LLVM's optimisation and code
  /// generation (ObjectCodegen.h); 0: every core. The code is the same
  /// for every count except in how it is cut into objects.
  unsigned compileThreads = 0;
  /// The code refers to the module's large constants (the weights) where
  /// their attributes hold them, in the module's MLIRContext, instead of to
  /// a copy: that context must outlive the session. A copy of a model's
  /// weights costs a page fault per 4 KiB of fresh memory.
  bool borrowConstants = false;
  /// Target machines made ahead of the compile (startMachineSupply in
  /// Compile.h), by getMachineFactory(optLevel); none: each part makes its
  /// own. Used by create only, which leaves the unused ones here.
  std::shared_ptr<MachineSupply> machines;
  /// The packed weights qops-const-eval left to the module's own code
  /// (lowerForEntry's ConstEvalAt::Link handoff): create binds their
  /// globals to memory of the session's and, once linked, runs the
  /// functions that fill them, before the first call.
  std::shared_ptr<ConstEvalHandoff> constEval;
  /// Where prepareConstEval's compiler leaves the functions' objects.
  std::shared_ptr<CompiledApart> constEvalObjects;
  /// The kernels qops-kernels-apart moves into a module of their own
  /// (lowerForEntry's handoff): create links their objects with the
  /// module's, which it compiles in one part fewer while the kernels'
  /// compile holds a core.
  std::shared_ptr<KernelsApartHandoff> kernelsApart;
  /// Where prepareKernelsApart's compiler leaves the kernels' objects.
  std::shared_ptr<CompiledApart> kernelsApartObjects;
};

/// Sets `options.constEval` to a ConstEvalAt::Link handoff whose functions
/// are compiled on qops-const-eval's thread (setConstEvalCompiler), at
/// -O1, while the module is lowered: create links them with its code.
void prepareConstEval(JitOptions &options);

/// Sets `options.kernelsApart` to a handoff whose compiler generates the
/// kernels' code as create does the module's (`options.optLevel`, one
/// part, a machine of `options.machines` if there is one left), on the
/// kernels' thread: create links it. Call it after the supply is set.
/// Nothing with one compile thread (`options.compileThreads`).
void prepareKernelsApart(JitOptions &options);

/// What makes the JIT's target machine of a part at `optLevel`: the host's,
/// for position-independent code.
MachineFactory getMachineFactory(unsigned optLevel);

class JitSession {
public:
  /// Compiles `module` (in the LLVM dialect) and prepares `funcName`.
  static llvm::Expected<std::unique_ptr<JitSession>>
  create(ModuleOp module, llvm::StringRef funcName, const JitOptions &options);

  /// Links `file` (what writeObject of a session created with keepObject
  /// on this host wrote: an object, or an archive of objects and constants)
  /// and prepares `funcName`, whose tensor signature is `signature`: no MLIR
  /// lowering, no LLVM code generation.
  static llvm::Expected<std::unique_ptr<JitSession>>
  load(std::unique_ptr<llvm::MemoryBuffer> file, llvm::StringRef funcName,
       TensorSignature signature, const JitOptions &options);
  ~JitSession();

  /// Writes the compiled object to `path`, or an archive of the objects
  /// (`part<N>.o`, when the module was compiled in several parts) and of
  /// the constants' bytes (`<symbol>.data`: a byte p < 8, p zero bytes,
  /// then the bytes, 8-byte aligned in the file, so that load can use them
  /// where the file is mapped) and of the zero-filled globals' sizes
  /// (`<symbol>.zero`: the same byte p and padding, then "<size>
  /// <alignment>" in decimal); the session must have been created with
  /// keepObject.
  llvm::Error writeObject(llvm::StringRef path) const;

  const TensorSignature &getSignature() const { return signature; }

  /// A constant the code refers to by symbol (the weights; ObjectCodegen.h):
  /// its bytes, held by the session (a 64-byte aligned copy), or with
  /// JitOptions::borrowConstants the attribute's own (`bytes` does not own
  /// them), or after load where the file holds them (`bytes` shares the
  /// file).
  /// A zero-filled constant is a global the code writes (the first call's
  /// packed weights, CompiledModule::zeroFilled): `bytes` are fresh pages
  /// the session mapped, of at least `alignment`. A spent constant was read
  /// only by the code that ran before the first call (the weights the
  /// const-eval functions packed): writeObject stores it as zero-filled
  /// (the stored code still refers to it, and never runs that code).
  struct Constant {
    std::string name;
    std::shared_ptr<char> bytes;
    size_t size = 0;
    bool zeroFilled = false;
    uint64_t alignment = 1;
    bool spent = false;
  };

  /// Calls the function. The inputs must have been checked with
  /// checkTensorMatchesType. Returns the results as dense host tensors.
  llvm::Expected<std::vector<HostTensor>>
  call(llvm::ArrayRef<HostTensorView> inputs);
  llvm::Expected<std::vector<HostTensor>>
  call(llvm::ArrayRef<HostTensor> inputs) {
    return call(std::vector<HostTensorView>(inputs.begin(), inputs.end()));
  }

  /// Times `repeat` calls: each sample is the compiled function alone (the
  /// inputs are staged once; the results it allocates are released after
  /// each call, untimed). Returns the samples in milliseconds.
  llvm::Expected<std::vector<double>>
  timeCalls(llvm::ArrayRef<HostTensorView> inputs, unsigned repeat);
  llvm::Expected<std::vector<double>>
  timeCalls(llvm::ArrayRef<HostTensor> inputs, unsigned repeat) {
    return timeCalls(
        std::vector<HostTensorView>(inputs.begin(), inputs.end()), repeat);
  }

private:
  JitSession() = default;

  /// Links `objects` into a new JIT and looks up the packed wrapper of
  /// `funcName`: start, add, prepareEntry.
  static llvm::Expected<std::unique_ptr<JitSession>>
  link(std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects,
       std::vector<Constant> constants, llvm::StringRef funcName,
       TensorSignature signature, const JitOptions &options,
       bool usesRuntimeAllocator);
  /// create's end when kernels are compiled apart (JitOptions::
  /// kernelsApart), which may not be ready yet: the module's objects
  /// linked, its calls of the `kernels` through stubs (stubKernels), its
  /// const-eval functions run; then the kernels' objects (linkKernels).
  static llvm::Expected<std::unique_ptr<JitSession>> createBeforeKernels(
      CompiledModule compiled, llvm::ArrayRef<std::string> kernels,
      llvm::StringRef funcName, TensorSignature signature,
      const JitOptions &options, const qops::ConstEvalLink &constEval,
      bool usesRuntimeAllocator);
  /// Defines each of `kernels` in the JIT's main JITDylib as a stub, an
  /// indirect jump that linkKernels points at the kernel.
  llvm::Error stubKernels(llvm::ArrayRef<std::string> kernels);
  /// Links the kernels' `objects` in a JITDylib of their own (copies kept
  /// with `keepObject`) and points their stubs at them.
  llvm::Error
  linkKernels(llvm::ArrayRef<std::string> kernels,
              std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects,
              std::vector<Constant> constants, bool keepObject);
  /// A session with a new JIT (`options.sharedLibs` loaded, the runtime's
  /// symbols defined) and no objects yet.
  static llvm::Expected<std::unique_ptr<JitSession>>
  start(const JitOptions &options);
  /// Defines `constants` (in the main JITDylib) and adds `objects` to
  /// `dylib`, the main one by default (copies kept with `keepObject`); a
  /// lookup links them.
  llvm::Error add(std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects,
                  std::vector<Constant> constants, bool keepObject,
                  llvm::orc::JITDylib *dylib = nullptr);
  /// Looks up the packed wrapper of `funcName`, which links what was added.
  llvm::Error prepareEntry(llvm::StringRef funcName, TensorSignature signature,
                           bool usesRuntimeAllocator);
  /// Calls each of `functions` (no arguments, no results) once, by its
  /// packed wrapper: the const-eval functions, before the first call; with
  /// `oneThread`, their OpenMP teams of one thread (the kernels' thread
  /// has the other core).
  llvm::Error runOnce(llvm::ArrayRef<std::string> functions,
                      bool oneThread = false);

  /// The JIT the objects are linked in.
  std::unique_ptr<llvm::orc::LLJIT> jit;
  /// The kernels' stubs (createBeforeKernels); after jit, so destroyed
  /// before it.
  std::unique_ptr<llvm::orc::IndirectStubsManager> stubs;
  /// Copies of the objects, with keepObject.
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects;
  /// The constants the objects refer to.
  std::vector<Constant> constants;
  /// The entry point's packed wrapper (linked by create and load).
  void (*function)(void **) = nullptr;
  /// The code allocates through _mlir_memref_to_llvm_* (the session's
  /// caching allocator), so results are released there too.
  bool usesRuntimeAllocator = false;
  std::string funcName;
  TensorSignature signature;
};

/// Reads the ONNX-typed signature of `funcName` in `module` (an llvm.func or
/// func.func carrying `qops.signature`, or a func.func on tensors).
llvm::Expected<TensorSignature> getTensorSignature(ModuleOp module,
                                                   llvm::StringRef funcName);

/// The signature a function type describes (ranked tensors of element types
/// the host holds), or an error naming `funcName` and the first that is not.
llvm::Expected<TensorSignature> getTensorSignature(FunctionType type,
                                                   llvm::StringRef funcName);

/// The function type of a signature (what `qops.signature` holds).
FunctionType getFunctionType(const TensorSignature &signature,
                             MLIRContext *context);

} // namespace mlir::qops::runner

#endif // QUANTOPS_RUNNER_JITSESSION_H
