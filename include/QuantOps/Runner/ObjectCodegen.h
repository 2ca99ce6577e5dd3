//===- ObjectCodegen.h - A lowered module to object files -------*- C++ -*-===//
//
// Translates a module in the LLVM dialect to LLVM IR, optimises it
// (LLVMOptimizer.h) and generates object code, on several threads when the
// module has several functions: the JIT's code generation (JitSession) and
// the object writer's (AotCompile).
//
// In parts, on `parts` threads: LLVM's optimisation and code generation of
// one module run on one thread (one LLVMContext), so the module is
// translated once per part, each part in its own context, on its part's
// thread, the translations side by side (they only read the module); the
// first part's translation plans the parts, which the other threads wait
// for; and each part keeps the bodies of its own functions only:
//
//   - functions that call one another directly are kept together (a callee
//     marked noinline excepted, as qops-share-loop-nests' nests), so that
//     the inliner sees what it saw in one module; OpenMP's outlined bodies,
//     which only __kmpc_fork_call calls, are parts of their own;
//   - the groups go, largest first (instructions), to the least loaded part;
//   - a function or global another part refers to becomes external (renamed
//     first if it had no name), defined in one part and declared in the
//     others; a small local constant is copied into each part instead.
//
// The objects are position independent (references between parts go
// through the GOT and PLT that the linker, RuntimeDyld, makes), one per
// part, and link together. A module of one function, or one with aliases,
// constructors or comdats, is compiled in one part, as one object; so is
// any module under -time-passes (LLVM's pass timers are not for threads).
//
// For a JIT, the large constants (the weights) can be left out of the
// objects (externalizeLargeConstants): declared in the code, their bytes
// returned for the linker to bind the symbols to, so that they are not
// converted into LLVM constants, written into objects and copied again by
// the linker. So can the large mutable globals that start undefined (the
// packed weights the first call writes: externalizeZeroFilledGlobals):
// declared in the code, their sizes returned for the JIT to map fresh pages
// for, instead of sections the linker fills with zeros page by page.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_RUNNER_OBJECTCODEGEN_H
#define QUANTOPS_RUNNER_OBJECTCODEGEN_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace mlir::qops::runner {

/// Makes the target machine of one part of a compile.
using MachineFactory =
    std::function<llvm::Expected<std::unique_ptr<llvm::TargetMachine>>()>;

/// A target machine made ahead, with what a part needs from it set up too
/// (ObjectCodegen.cpp).
struct PreparedMachine;

/// Target machines made ahead of a compile, on a thread of their own, each
/// with the subtarget of the functions it will compile made too (LLVM makes
/// one per machine and attribute set, "target-cpu" and "target-features",
/// when the first function asks: about 1.5 ms, the larger part of a part's
/// start, Zen 4) and its code generation passes set up, with and without
/// loop strength reduction (0.5-0.7 ms). A JIT starts a supply while the
/// module is still being lowered, on a core the lowering leaves idle, and
/// its parts take the machines (ObjectCodegenOptions::machines). A function
/// with other attributes gets its subtarget when it asks, as without a
/// supply: the code is the same.
class MachineSupply {
public:
  /// Starts making `count` machines with `factory`, each with the
  /// subtarget of a function whose "target-cpu" is `cpu` and
  /// "target-features" is `features` (an empty string: the function has no
  /// such attribute).
  MachineSupply(unsigned count, MachineFactory factory, std::string cpu,
                std::string features);
  /// Stops making machines (after the one under way) and waits for that.
  ~MachineSupply();
  MachineSupply(const MachineSupply &) = delete;
  MachineSupply &operator=(const MachineSupply &) = delete;

  /// A machine made ahead, after the one under way if none is ready;
  /// nullptr once none is left (or making one failed).
  std::unique_ptr<PreparedMachine> take();

private:
  void make(unsigned count, const MachineFactory &factory,
            const std::string &cpu, const std::string &features);

  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::unique_ptr<PreparedMachine>> ready;
  bool making = true; // the thread may still add a machine
  bool stopping = false;
  std::thread thread;
};

struct ObjectCodegenOptions {
  /// LLVM optimisation and code generation level (0-3).
  unsigned optLevel = 3;
  /// Most parts (threads); 0: every core this process may run on.
  unsigned parts = 0;
  /// Makes the target machine of one part (called once per part, from the
  /// part's thread); it must generate position-independent code.
  MachineFactory makeMachine;
  /// Machines made ahead, which the parts take before they call
  /// makeMachine (none: each part makes its own); made by the same factory.
  MachineSupply *machines = nullptr;
  /// Runs on each part's module after translation, before it is split
  /// (the JIT adds its packed entry wrapper here); on the part's thread,
  /// beside the other parts' calls: it may change that LLVM module only.
  std::function<void(llvm::Module &)> prepare;
  /// Leave the large constants out of the objects (externalizeLargeConstants
  /// at its threshold; CompiledModule::constants), and the large globals
  /// that start undefined (CompiledModule::zeroFilled).
  bool externalizeConstants = false;
  /// The module is qops-kernels-apart's (makeLLVMOptimizer's
  /// `kernelsModule`).
  bool kernelsModule = false;
};

/// A global the objects declare and do not define, which starts undefined:
/// its storage, zero-filled, is the host's to provide.
struct ZeroFilledGlobal {
  uint64_t size = 0;
  uint64_t alignment = 1;
};

struct CompiledModule {
  /// One object per part.
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects;
  /// The constants the objects declare and do not define, by symbol: the
  /// attributes' raw data, valid while the module's context lives.
  llvm::StringMap<ArrayRef<char>> constants;
  /// The large mutable globals the objects declare and do not define, by
  /// symbol (ObjectCodegenOptions::externalizeConstants).
  llvm::StringMap<ZeroFilledGlobal> zeroFilled;
};

/// The most parts of a compile that asks for `parts` (ObjectCodegenOptions):
/// `parts`, or for 0 every core this process may run on.
unsigned getMostParts(unsigned parts);

/// Compiles `module` (LLVM dialect) to object files, one per part; the
/// module is not changed.
llvm::Expected<CompiledModule>
compileToObjects(ModuleOp module, const ObjectCodegenOptions &options);

} // namespace mlir::qops::runner

#endif // QUANTOPS_RUNNER_OBJECTCODEGEN_H
