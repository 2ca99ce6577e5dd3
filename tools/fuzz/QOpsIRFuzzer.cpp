//===- QOpsIRFuzzer.cpp - libFuzzer target for parse + verify + lower -----===//
//
// Parses arbitrary text as an MLIR module with the dialects qops IR is
// written in (qops, func, arith, tensor), diagnostics swallowed, and
// verifies it. A module that verifies and holds only qops ops, functions,
// calls, returns and arith.constant is then moved into a context registered
// as quant-opt's and quant-runner's are (skipped where upstream's printed
// form does not parse back even in the first context), and
//   1. converted by convert-qops-to-linalg, with the pass manager's verifier
//      off; if the pass succeeds, the result MUST verify (otherwise the
//      conversion produced invalid IR: the fuzzer traps);
//   2. lowered the rest of the way by qops-lower-to-llvm (canonicalize,
//      vectorize, bufferize, to LLVM) with quant-runner's options, half of
//      the inputs with `parallel` (scf.forall -> OpenMP). A pass may fail
//      with a diagnostic; it must not crash;
//   3. with QUANTOPS_FUZZ_STRICT_LOWERING=1, if the pipeline succeeded, the
//      module must be all LLVM/OpenMP dialect (what the JIT translates).
//      Off by default: see docs/Hardening.md for the open finding it
//      reports.
// Inputs over 4096 bytes are ignored, to keep an execution in milliseconds.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Conversion/Passes.h"
#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h"
#include "QuantOps/Pipelines/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace mlir;

namespace {

constexpr size_t kMaxInput = 4096;

/// Only qops IR proper goes down the lowering: anything else would fuzz
/// upstream MLIR passes rather than the project.
bool isQOpsProgram(ModuleOp module) {
  bool ok = true;
  module.walk([&](Operation *op) {
    if (op == module.getOperation())
      return WalkResult::advance();
    if (isa<func::FuncOp, func::ReturnOp, func::CallOp, arith::ConstantOp>(
            op) ||
        op->getDialect()->getNamespace() == "qops")
      return WalkResult::advance();
    ok = false;
    return WalkResult::interrupt();
  });
  return ok;
}

} // namespace

/// The dialects qops IR is written in, the only ones the input is parsed
/// with, so that the fuzzer explores the qops parser and verifier, not
/// every upstream one.
static const DialectRegistry &getQOpsRegistry() {
  static const DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    r->insert<qops::QOpsDialect, func::FuncDialect, arith::ArithDialect,
              tensor::TensorDialect>();
    return r;
  }();
  return *registry;
}

/// Whether `text` parses in a fresh context of getQOpsRegistry's dialects.
static bool parsesWithQOpsDialects(const std::string &text) {
  MLIRContext context(getQOpsRegistry(), MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler handler(&context,
                                  [](Diagnostic &) { return success(); });
  return static_cast<bool>(parseSourceString<ModuleOp>(text, &context));
}

/// The registry of the real tools (quant-opt, quant-runner): every upstream
/// dialect with its external interface models, and every extension. The
/// lowering runs in a context made from it, as it does in the tools (the
/// pipeline's passes rely on external models such as linalg's
/// TilingInterface, which only registerAllDialects attaches).
static const DialectRegistry &getToolRegistry() {
  static const DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    r->insert<qops::QOpsDialect>();
    registerAllDialects(*r);
    registerAllExtensions(*r);
    return r;
  }();
  return *registry;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxInput)
    return 0;
  std::string diagnostics;
  auto collect = [&](Diagnostic &diag) {
    if (diagnostics.size() < 4096)
      diagnostics += diag.str() + "\n";
    return success();
  };

  // Parse and verify with only the dialects qops IR is written in
  // (getQOpsRegistry). A NUL-terminated copy: the lexer expects the
  // terminator a MemoryBuffer guarantees.
  std::string text(reinterpret_cast<const char *>(data), size);
  std::string program;
  {
    MLIRContext context(getQOpsRegistry(), MLIRContext::Threading::DISABLED);
    ScopedDiagnosticHandler handler(&context, collect);
    ParserConfig config(&context, /*verifyAfterParse=*/false);
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, config);
    if (!module || failed(verify(*module)))
      return 0;
    if (!isQOpsProgram(*module))
      return 0;
    llvm::raw_string_ostream os(program);
    module->print(os, OpPrintingFlags().printGenericOpForm());
  }

  // Lower a verified qops program in a context like the tools' one (fresh
  // per input: nothing carries over, a crash reproduces from its input).
  MLIRContext context(getToolRegistry(), MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler handler(&context, collect);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(program, &context);
  if (!module) {
    // MLIR 22 prints some verified modules in a form its parser rejects (a
    // sub-byte dense hex literal whose bytes carry bits past the width,
    // dense<"0xF0..."> : tensor<4xsi4>, prints an empty element; mlir-opt
    // too: docs/Hardening.md). That is upstream's: only a module that
    // parses back where it was printed but not here is a finding.
    if (!parsesWithQOpsDialects(program))
      return 0;
    fprintf(stderr, "a verified module does not parse back:\n%s\n%s",
            program.c_str(), diagnostics.c_str());
    __builtin_trap();
  }

  // 1. The conversion alone; its output must verify.
  {
    PassManager pm(&context, ModuleOp::getOperationName());
    pm.enableVerifier(false);
    pm.addPass(qops::createConvertQOpsToLinalg());
    if (failed(pm.run(*module)))
      return 0;
    if (failed(verify(*module))) {
      fprintf(stderr, "convert-qops-to-linalg produced invalid IR:\n%s",
              diagnostics.c_str());
      module->print(llvm::errs(), OpPrintingFlags().assumeVerified());
      __builtin_trap();
    }
  }

  // 2. The rest of the lowering (convert-qops-to-linalg again is a no-op),
  //    with quant-runner's options; inputs of odd length take the threaded
  //    form (--threads > 1, quant-runner's default on a multi-core host).
  {
    PassManager pm(&context, ModuleOp::getOperationName());
    qops::QOpsPipelineOptions options;
    options.runtimeAllocator = true;
    options.parallel = (size & 1) != 0;
    qops::buildQOpsLowerToLLVMPipeline(pm, options);
    if (failed(pm.run(*module)))
      return 0;
  }

  // 3. Opt-in (QUANTOPS_FUZZ_STRICT_LOWERING=1): a pipeline that succeeds
  //    must leave only the LLVM (and OpenMP) dialects, or the JIT cannot
  //    translate it.
  static const bool strict = getenv("QUANTOPS_FUZZ_STRICT_LOWERING") &&
                             llvm::StringRef(
                                 getenv("QUANTOPS_FUZZ_STRICT_LOWERING")) ==
                                 "1";
  if (strict) {
    module->walk([&](Operation *op) {
      // The OpenMP dialect (parallel=true) is translated to LLVM IR as is.
      if (isa<ModuleOp>(op) || op->getDialect()->getNamespace() == "llvm" ||
          op->getDialect()->getNamespace() == "omp")
        return;
      fprintf(stderr, "qops-lower-to-llvm left a '%s' op:\n%s\n",
              op->getName().getStringRef().str().c_str(), text.c_str());
      __builtin_trap();
    });
  }
  return 0;
}
