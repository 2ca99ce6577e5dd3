//===- TensorProtoFuzzer.cpp - libFuzzer target for TensorProto decoding --===//
//
// Parses arbitrary bytes as a quantops.onnx.TensorProto (the message of the
// ONNX node tests' input_K.pb / output_K.pb files and of initializers) and
// decodes it with decodeTensorProto (1 MiB limit, external data resolved in
// a directory that does not exist, so it is always an error), then converts
// the result with toHostTensor and prints it, as quant-runner does with
// --input X.pb. Malformed input must give an llvm::Error.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Runner/HostTensor.h"
#include "QuantOps/Target/ONNX/OnnxTensor.h"

#include "onnx_subset.pb.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <limits>

using namespace mlir::qops;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > size_t(std::numeric_limits<int>::max()))
    return 0;
  quantops::onnx::TensorProto proto;
  if (!proto.ParseFromArray(data, int(size)))
    return 0;
  onnx::TensorLoadOptions options;
  options.baseDir = "/nonexistent/quantops-fuzz";
  options.maxBytes = uint64_t(1) << 20;
  llvm::Expected<onnx::OnnxTensor> tensor =
      onnx::decodeTensorProto(proto, options);
  if (!tensor) {
    std::string message = llvm::toString(tensor.takeError());
    if (message.find('\n') != std::string::npos)
      __builtin_trap();
    return 0;
  }
  // An accepted tensor has exactly the bytes its dims and type need.
  size_t unit = onnx::getOnnxStorageSize(tensor->dataType);
  if (unit == 0 || tensor->data.size() > options.maxBytes ||
      tensor->data.size() != uint64_t(tensor->numElements()) * unit)
    __builtin_trap();
  llvm::Expected<runner::HostTensor> host = onnx::toHostTensor(*tensor);
  if (!host) {
    llvm::consumeError(host.takeError());
    return 0;
  }
  llvm::raw_null_ostream os;
  runner::printTensor(os, *host);
  return 0;
}
