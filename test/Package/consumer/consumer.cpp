//===- consumer.cpp - uses the installed qops dialect ---------------------===//
//
// Builds a qops.quantize_linear with the result-type-inferring builder,
// verifies it and prints it, then lowers it in a pass of its own
// (ConsumerLowerQuantizePass) that combines QuantOps' storage type converter
// and populateQuantizeDequantizeToLinalgPatterns with upstream's func
// signature conversion: proof that find_package(QuantOps) gives a usable
// dialect and conversion library with its headers, without QuantOps' tools.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"
#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {
/// The integrator's own pass: qops quantize/dequantize to linalg on storage
/// types, function boundaries included; everything else is left alone.
struct ConsumerLowerQuantizePass
    : PassWrapper<ConsumerLowerQuantizePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ConsumerLowerQuantizePass)
  StringRef getArgument() const final { return "consumer-lower-quantize"; }
  void getDependentDialects(DialectRegistry &registry) const final {
    registry.insert<arith::ArithDialect, linalg::LinalgDialect,
                    math::MathDialect, tensor::TensorDialect>();
  }
  void runOnOperation() final {
    qops::QOpsStorageTypeConverter converter;
    RewritePatternSet patterns(&getContext());
    qops::populateQuantizeDequantizeToLinalgPatterns(converter, patterns);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateReturnOpTypeConversionPattern(patterns, converter);

    ConversionTarget target(getContext());
    target.addIllegalDialect<qops::QOpsDialect>();
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, tensor::TensorDialect>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp func) {
      return converter.isSignatureLegal(func.getFunctionType());
    });
    target.addDynamicallyLegalOp<func::ReturnOp>(
        [&](func::ReturnOp op) { return converter.isLegal(op); });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

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

  PassManager pm(&context);
  pm.addPass(std::make_unique<ConsumerLowerQuantizePass>());
  if (failed(pm.run(module))) {
    llvm::errs() << "consumer-lower-quantize failed\n";
    return 1;
  }
  module.print(llvm::outs());
  llvm::outs() << "\n";
  module.erase();
  return 0;
}
