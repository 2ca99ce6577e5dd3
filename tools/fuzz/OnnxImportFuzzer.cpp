//===- OnnxImportFuzzer.cpp - libFuzzer target for the ONNX importer ------===//
//
// Feeds arbitrary bytes to onnx::importOnnxBuffer (what quant-translate
// --import-onnx and quant-runner FILE.onnx do), with a 1 MiB initializer
// limit and the model "located" in a directory that does not exist (external
// data is always an error), and to onnx::mayReadExternalData (quant-runner's
// object cache key). The oracle beyond "no crash, no sanitizer report": an
// error is one line, and an imported module verifies and prints.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Target/ONNX/OnnxImporter.h"
#include "QuantOps/Target/ONNX/OnnxTensor.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  DialectRegistry registry;
  qops::onnx::registerOnnxImporterDialects(registry);
  // A fresh context per input: no state carries over between inputs, so a
  // crash reproduces from its input alone.
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    diagnostics += diag.str();
    diagnostics += '\n';
    return success();
  });

  qops::onnx::OnnxImportOptions options;
  options.maxTensorBytes = uint64_t(1) << 20;
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  // A scan of the same bytes (no result to check: it may answer true for
  // any model it cannot read through).
  (void)qops::onnx::mayReadExternalData(bytes);
  auto module = qops::onnx::importOnnxBuffer(
      bytes, "/nonexistent/quantops-fuzz/model.onnx", &context, options);
  if (!module) {
    std::string message = llvm::toString(module.takeError());
    if (message.find('\n') != std::string::npos)
      __builtin_trap();
    return 0;
  }
  // The importer verifies every node's op; the whole module must verify too.
  if (failed(verify(module->get()))) {
    fprintf(stderr, "imported module does not verify:\n%s",
            diagnostics.c_str());
    module->get()->print(llvm::errs(),
                         OpPrintingFlags().assumeVerified());
    __builtin_trap();
  }
  llvm::raw_null_ostream os;
  module->get()->print(os);
  return 0;
}
