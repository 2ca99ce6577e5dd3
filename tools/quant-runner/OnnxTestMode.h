//===- OnnxTestMode.h - quant-runner --onnx-test DIR... ---------*- C++ -*-===//
//
// Runs directories in ONNX's backend node-test layout (see OnnxTestMode.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_TOOLS_QUANT_RUNNER_ONNXTESTMODE_H
#define QUANTOPS_TOOLS_QUANT_RUNNER_ONNXTESTMODE_H

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace mlir::qops::runner {

struct OnnxTestOptions {
  unsigned optLevel = 3;
  unsigned threads = 1;
  /// Count cases whose model uses an unsupported operator as skipped.
  bool allowUnsupported = false;
};

/// Returns the process exit code: 0 if every case passed.
int runOnnxTests(llvm::ArrayRef<std::string> dirs,
                 const OnnxTestOptions &options);

} // namespace mlir::qops::runner

#endif // QUANTOPS_TOOLS_QUANT_RUNNER_ONNXTESTMODE_H
