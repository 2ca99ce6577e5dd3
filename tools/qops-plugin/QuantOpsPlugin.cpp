//===- QuantOpsPlugin.cpp - qops as a plugin for stock mlir-opt -----------===//
//
// One shared object with both MLIR plugin entry points, so that an unmodified
// `mlir-opt` (Debian's mlir-opt-22 links libMLIR.so, like this plugin) gets the
// qops dialect and the project's passes and pipelines:
//
//   mlir-opt-22 --load-dialect-plugin=libQuantOpsPlugin.so \
//               --load-pass-plugin=libQuantOpsPlugin.so \
//               --pass-pipeline='builtin.module(qops-lower-to-llvm)' in.mlir
//
// The dialect plugin registers `qops`; the pass plugin registers every pass
// and named pipeline that quant-opt has (registerAllQuantOpsPasses).
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h"
#include "QuantOps/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "QuantOpsDialect", LLVM_VERSION_STRING,
          [](DialectRegistry *registry) {
            registry->insert<qops::QOpsDialect, qkernel::QKernelDialect>();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "QuantOpsPasses", LLVM_VERSION_STRING,
          []() { qops::registerAllQuantOpsPasses(); }};
}
