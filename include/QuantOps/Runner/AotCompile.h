//===- AotCompile.h - a module to an object file and a C header -*- C++ -*-===//
//
// What quant-compile does, as a library function (quant-compile and the C
// API's qopsCompileToObject): lower a qops module for a target, optimise it
// and write an object file with a C entry point per public function, and a
// header declaring them.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_RUNNER_AOTCOMPILE_H
#define QUANTOPS_RUNNER_AOTCOMPILE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir::qops::runner {

struct AotOptions {
  /// "" : this host; another triple starts from its generic CPU.
  std::string targetTriple, targetCpu, targetFeatures;
  /// --int8-strategy: "auto" chooses by the target.
  std::string int8Strategy = "auto";
  bool constEval = false;        // pack constant weights into the object
  bool parallel = false;         // OpenMP loops (the object links libomp)
  bool runtimeAllocator = false; // results through _mlir_memref_to_llvm_*
  bool fuseQDQ = false;
  bool floatFma = false;
  int64_t qdqAccuracyLevel = 0; // LoweringOptions::qdqAccuracyLevel
  unsigned optLevel = 3;
  /// The model's name in the header's comment.
  std::string sourceName;
};

/// Initialises every LLVM target (once per process).
void initializeAllTargets();

/// Lowers `module` for the options' target and writes the object to
/// `objectPath` and, unless `headerPath` is empty, the C header. Errors are
/// one line (the first diagnostic of a failed lowering, with its location).
llvm::Error compileToObject(ModuleOp module, const AotOptions &options,
                            llvm::StringRef objectPath,
                            llvm::StringRef headerPath);

} // namespace mlir::qops::runner

#endif // QUANTOPS_RUNNER_AOTCOMPILE_H
