//===- quant-opt.cpp - the QuantOps optimizer driver ----------------------===//
//
// mlir-opt with the qops dialect, the upstream dialects the project's
// pipelines use, and all upstream passes registered.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h"
#include "QuantOps/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::qops::registerAllQuantOpsPasses();

  mlir::DialectRegistry registry;
  registry.insert<mlir::qops::QOpsDialect, mlir::qkernel::QKernelDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "QuantOps optimizer driver\n", registry));
}
