//===- ConvertQOpsToLinalg.cpp - the convert-qops-to-linalg pass ----------===//
//
// Runs the qops -> linalg patterns with the storage type converter over a
// module. Forms that are not lowered yet are reported at the op before any
// rewriting; every function keeps its ONNX-typed signature in
// `qops.signature`.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Conversion/Passes.h"
#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"

#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/DialectConversion.h"

#define DEBUG_TYPE "convert-qops-to-linalg"

namespace mlir::qops {
#define GEN_PASS_DEF_CONVERTQOPSTOLINALG
#include "QuantOps/Conversion/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;
using namespace mlir::qops;

std::optional<std::string> qops::getUnsupportedLoweringReason(Operation *op) {
  auto describe = [](StringRef what, Type type) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << what << " " << type << " is not lowered yet";
    return text;
  };
  if (auto quantize = dyn_cast<QuantizeLinearOp>(op)) {
    Type y = quantize.getY().getType().getElementType();
    if (!isQuantizedIntegerType(y))
      return describe("quantization to", y);
    Type scale = quantize.getYScale().getType().getElementType();
    if (isFloat8E8M0Type(scale))
      return describe("a scale of", scale);
    return std::nullopt;
  }
  if (auto dequantize = dyn_cast<DequantizeLinearOp>(op)) {
    Type x = dequantize.getX().getType().getElementType();
    if (!isQuantizedIntegerType(x) && !isInt32Type(x))
      return describe("dequantization from", x);
    Type scale = dequantize.getXScale().getType().getElementType();
    if (isFloat8E8M0Type(scale))
      return describe("a scale of", scale);
    return std::nullopt;
  }
  if (auto matmul = dyn_cast<QLinearMatMulOp>(op)) {
    for (Value v : {matmul.getA(), matmul.getB(), matmul.getY()}) {
      Type element = cast<RankedTensorType>(v.getType()).getElementType();
      if (!isInt8Type(element))
        return describe("qlinear_matmul on", element);
    }
  }
  return std::nullopt;
}

namespace {

struct ConvertQOpsToLinalgPass
    : public qops::impl::ConvertQOpsToLinalgBase<ConvertQOpsToLinalgPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    bool unsupported = false;
    module.walk([&](Operation *op) {
      if (std::optional<std::string> reason =
              getUnsupportedLoweringReason(op)) {
        op->emitOpError() << reason.value();
        unsupported = true;
      }
    });
    if (unsupported)
      return signalPassFailure();

    // Keep the ONNX-typed signatures for the tools that call the functions.
    module.walk([&](func::FuncOp func) {
      if (!func->hasAttr(kSignatureAttrName))
        func->setAttr(kSignatureAttrName,
                      TypeAttr::get(func.getFunctionType()));
    });

    QOpsStorageTypeConverter converter;
    ConversionTarget target(*ctx);
    target.addIllegalDialect<QOpsDialect>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType()) &&
             converter.isLegal(&op.getBody());
    });
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return converter.isLegal(op); });

    RewritePatternSet patterns(ctx);
    populateQOpsToLinalgConversionPatterns(converter, patterns);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
