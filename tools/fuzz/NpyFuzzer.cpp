//===- NpyFuzzer.cpp - libFuzzer target for the .npy reader ---------------===//
//
// Feeds arbitrary bytes to runner::parseNpy (the parser behind readNpy and
// quant-runner --input X.npy) with a 1 MiB data limit, and exercises what the
// runner does next with an accepted tensor: verifyHostTensor, printing and
// the bit-exact comparison. Malformed input must give an llvm::Error; any
// crash, sanitizer report or allocation past -rss_limit_mb is a bug.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Runner/HostTensor.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

using namespace mlir::qops::runner;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  llvm::Expected<HostTensor> tensor =
      parseNpy(bytes, "fuzz.npy", /*maxBytes=*/uint64_t(1) << 20);
  if (!tensor) {
    // The documented contract: one line, "<name>: <problem>".
    std::string message = llvm::toString(tensor.takeError());
    if (!llvm::StringRef(message).starts_with("fuzz.npy: ") ||
        message.find('\n') != std::string::npos)
      __builtin_trap();
    return 0;
  }
  // An accepted tensor is well formed, within the limit.
  if (llvm::Error err = verifyHostTensor(*tensor)) {
    llvm::consumeError(std::move(err));
    __builtin_trap();
  }
  if (tensor->data.size() > (size_t(1) << 20))
    __builtin_trap();
  llvm::raw_null_ostream os;
  printTensor(os, *tensor);
  for (int64_t i : {int64_t(0), tensor->numElements() - 1,
                    tensor->numElements(), int64_t(-1)}) {
    (void)formatElement(*tensor, i);
    (void)getElementAsDouble(*tensor, i);
  }
  llvm::Expected<CompareResult> same = compareBitExact(*tensor, *tensor);
  if (!same || same->mismatchCount != 0) // NaN equals NaN: always equal
    __builtin_trap();
  return 0;
}
