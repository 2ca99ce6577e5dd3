//===- QuantToQOps.cpp - the qops-from-quant pass --------------------------===//
//
// quant.qcast / quant.dcast on !quant.uniform tensors -> qops.quantize_linear
// / qops.dequantize_linear with arith.constant scale and zero point, so that
// they get ONNX's rounding (half to even) and saturation. Quantized tensor
// types become qops storage types (si8, ui4, ...) everywhere, function
// signatures and func.call results included.
//
// The whole module is checked before anything changes: an unsupported type
// or op is reported with its location and the module is left as it was.
//
//===----------------------------------------------------------------------===//

#include "QuantInteropParams.h"

#include "QuantOps/Conversion/Passes.h"
#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/Quant.h"

namespace mlir::qops {
#define GEN_PASS_DEF_CONVERTQUANTTOQOPS
#include "QuantOps/Conversion/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;
using namespace mlir::qops;
using namespace mlir::qops::interop;

namespace {

/// A qcast or dcast with the ONNX operands of its quantized side, computed
/// while the quantized type is still there.
struct CastToRewrite {
  Operation *op;
  OnnxQuantParams params;
};

/// Checks every use of a quantized type in `module`; returns the casts to
/// rewrite, or failure after reporting each unsupported place.
FailureOr<SmallVector<CastToRewrite>> collectCasts(ModuleOp module) {
  SmallVector<CastToRewrite> casts;
  bool allSupported = true;
  auto checkTypes = [&](Operation *op, TypeRange types) {
    for (Type type : types)
      if (failed(convertQuantizedType(type, [&] { return op->emitOpError(); })))
        allSupported = false;
  };

  module.walk([&](Operation *op) {
    if (isa<quant::QuantizeCastOp, quant::DequantizeCastOp>(op)) {
      Type quantizedSide = isa<quant::QuantizeCastOp>(op)
                               ? op->getResult(0).getType()
                               : op->getOperand(0).getType();
      auto emitError = [&] { return op->emitOpError(); };
      auto tensorType = dyn_cast<RankedTensorType>(quantizedSide);
      if (!tensorType) {
        op->emitOpError() << "on " << quantizedSide
                          << " is not supported: qops operates on ranked "
                             "tensors";
        allSupported = false;
        return;
      }
      FailureOr<OnnxQuantParams> params =
          getOnnxQuantParams(tensorType, emitError);
      if (failed(params)) {
        allSupported = false;
        return;
      }
      casts.push_back({op, *params});
      return;
    }
    if (isa<quant::StorageCastOp>(op)) {
      op->emitOpError()
          << "is not supported: qops has no op to reinterpret storage "
             "integers; use quant.qcast/quant.dcast, or quantized types at "
             "function boundaries";
      allSupported = false;
      return;
    }
    if (auto func = dyn_cast<func::FuncOp>(op)) {
      checkTypes(op, func.getFunctionType().getInputs());
      checkTypes(op, func.getFunctionType().getResults());
      for (Block &block : llvm::drop_begin(func.getBody().getBlocks()))
        checkTypes(op, block.getArgumentTypes());
      return;
    }
    // Their types are those of the functions and values checked elsewhere.
    if (isa<func::ReturnOp, func::CallOp>(op))
      return;
    auto usesQuantizedType = [](TypeRange types) {
      return llvm::any_of(types, containsQuantizedType);
    };
    bool inBlockArguments = llvm::any_of(op->getRegions(), [&](Region &r) {
      return llvm::any_of(r.getBlocks(), [&](Block &b) {
        return usesQuantizedType(b.getArgumentTypes());
      });
    });
    if (usesQuantizedType(op->getOperandTypes()) ||
        usesQuantizedType(op->getResultTypes()) || inBlockArguments) {
      op->emitOpError()
          << "uses a quantized type; --qops-from-quant converts only "
             "quant.qcast, quant.dcast, func.func, func.call and func.return";
      allSupported = false;
    }
  });
  if (!allSupported)
    return failure();
  return casts;
}

/// The same type with quantized tensors replaced by their storage types;
/// collectCasts has checked that this succeeds.
Type toStorageType(Type type) {
  FailureOr<Type> converted = convertQuantizedType(type, [] {
    return InFlightDiagnostic();
  });
  return succeeded(converted) ? *converted : type;
}

void retypeFunctionBoundaries(ModuleOp module) {
  module.walk([&](func::FuncOp func) {
    auto inputs = llvm::map_to_vector(func.getArgumentTypes(), toStorageType);
    auto results = llvm::map_to_vector(func.getResultTypes(), toStorageType);
    func.setType(FunctionType::get(func.getContext(), inputs, results));
    for (Block &block : func.getBody())
      for (BlockArgument argument : block.getArguments())
        argument.setType(toStorageType(argument.getType()));
  });
  module.walk([&](func::CallOp call) {
    for (Value result : call.getResults())
      result.setType(toStorageType(result.getType()));
  });
}

/// %s = arith.constant dense<scale> : tensor<..xF>
/// %z = arith.constant dense<zero_point> : tensor<..xsiN>
std::pair<Value, Value> createParamConstants(OpBuilder &builder, Location loc,
                                             const OnnxQuantParams &params) {
  Value scale = arith::ConstantOp::create(builder, loc, params.scale);
  Value zeroPoint = arith::ConstantOp::create(builder, loc, params.zeroPoint);
  return {scale, zeroPoint};
}

IntegerAttr optionalI64(OpBuilder &builder, std::optional<int64_t> value) {
  return value ? builder.getI64IntegerAttr(*value) : IntegerAttr();
}

void rewriteCast(const CastToRewrite &cast) {
  Operation *op = cast.op;
  OpBuilder builder(op);
  Location loc = op->getLoc();
  auto [scale, zeroPoint] = createParamConstants(builder, loc, cast.params);
  IntegerAttr axis = optionalI64(builder, cast.params.axis);
  IntegerAttr blockSize = optionalI64(builder, cast.params.blockSize);
  Value replacement;
  if (isa<quant::QuantizeCastOp>(op)) {
    // y = saturate(round_half_even(x / scale) + zero_point)
    Type resultType = toStorageType(op->getResult(0).getType());
    replacement = QuantizeLinearOp::create(
        builder, loc, resultType, op->getOperand(0), scale, zeroPoint, axis,
        blockSize, /*saturate=*/BoolAttr(), /*output_dtype=*/TypeAttr(),
        /*precision=*/TypeAttr());
  } else {
    // y = (x - zero_point) * scale
    replacement = DequantizeLinearOp::create(
        builder, loc, op->getResult(0).getType(), op->getOperand(0), scale,
        zeroPoint, axis, blockSize, /*output_dtype=*/TypeAttr());
  }
  op->getResult(0).replaceAllUsesWith(replacement);
  op->erase();
}

struct ConvertQuantToQOpsPass
    : public qops::impl::ConvertQuantToQOpsBase<ConvertQuantToQOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<SmallVector<CastToRewrite>> casts = collectCasts(module);
    if (failed(casts))
      return signalPassFailure();
    retypeFunctionBoundaries(module);
    for (const CastToRewrite &cast : *casts)
      rewriteCast(cast);
  }
};

} // namespace
