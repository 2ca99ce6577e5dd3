//===- consumer.cpp - uses the installed qops dialect ---------------------===//
//
// Builds a qops.quantize_linear with the result-type-inferring builder,
// verifies it and prints it: proof that find_package(QuantOps) gives a usable
// dialect library with its headers.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

int main() {
  MLIRContext context;
  context.loadDialect<qops::QOpsDialect, func::FuncDialect>();
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  ModuleOp module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module.getBody());

  auto f32 = builder.getF32Type();
  auto si8 = IntegerType::get(&context, 8, IntegerType::Signed);
  auto xType = RankedTensorType::get({2, 3}, f32);
  auto scaleType = RankedTensorType::get({3}, f32);
  auto zpType = RankedTensorType::get({3}, si8);
  auto func = func::FuncOp::create(
      builder, loc, "quantize",
      builder.getFunctionType({xType, scaleType, zpType}, {}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  auto quantize = qops::QuantizeLinearOp::create(
      builder, loc, entry->getArgument(0), entry->getArgument(1),
      entry->getArgument(2), builder.getI64IntegerAttr(-1));
  func::ReturnOp::create(builder, loc);
  func.setFunctionType(builder.getFunctionType(
      {xType, scaleType, zpType}, {quantize.getY().getType()}));
  entry->getTerminator()->setOperands(quantize.getY());

  if (failed(verify(module))) {
    llvm::errs() << "verification failed\n";
    return 1;
  }
  module.print(llvm::outs());
  llvm::outs() << "\n";
  module.erase();
  return 0;
}
