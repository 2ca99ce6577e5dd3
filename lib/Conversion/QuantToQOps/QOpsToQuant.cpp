//===- QOpsToQuant.cpp - the qops-to-quant pass ----------------------------===//
//
// qops.quantize_linear / qops.dequantize_linear with constant scale and zero
// point -> quant.qcast / quant.dcast on the equivalent !quant.uniform type.
//
// A quantized value carries its parameters in its type in the quant
// dialect, so a value is converted as a whole: it must be
//   - the result of a convertible qops.quantize_linear, used only by
//     qops.dequantize_linear ops with the same parameters and by the
//     func.return of a function nobody calls (its result type changes), or
//   - an argument of a function nobody calls, used only by
//     qops.dequantize_linear ops with the same parameters.
// Everything else is left as it is (with --qops-to-quant=emit-remarks=1, a
// remark says why): non-constant parameters, float8/float4 and int32
// types, scales of another type than the data, `precision`, blocked scales
// with a partial last block.
//
//===----------------------------------------------------------------------===//

#include "QuantInteropParams.h"

#include "QuantOps/Conversion/Passes.h"
#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"
#include "QuantOps/Dialect/QOps/IR/QuantParams.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::qops {
#define GEN_PASS_DEF_CONVERTQOPSTOQUANT
#include "QuantOps/Conversion/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;
using namespace mlir::qops;
using namespace mlir::qops::interop;

namespace {

/// The operands of one Q or DQ, seen from its quantized side.
struct QDQOperands {
  RankedTensorType dataType; // the float side's shape
  Type storageType;          // the quantized element type
  Type expressedType;        // the float element type
  Value scale, zeroPoint;
  std::optional<int64_t> axis, blockSize;
};

/// The !quant.uniform type of a Q/DQ, or null with the reason in `whyNot`.
quant::QuantizedType getQuantizedType(Operation *op, const QDQOperands &qdq,
                                      std::string &whyNot) {
  auto scaleType = cast<RankedTensorType>(qdq.scale.getType());
  if (scaleType.getElementType() != qdq.expressedType) {
    whyNot = "the scale's type differs from the float type; !quant.uniform "
             "computes in its expressed type";
    return {};
  }
  OnnxQuantParams params;
  if (!matchPattern(qdq.scale, m_Constant(&params.scale))) {
    whyNot = "the scale is not a constant";
    return {};
  }
  if (qdq.zeroPoint && !matchPattern(qdq.zeroPoint, m_Constant(&params.zeroPoint))) {
    whyNot = "the zero point is not a constant";
    return {};
  }
  // The op has been verified, so this only resolves axis and block size.
  FailureOr<QuantGranularity> granularity = classifyQuantGranularity(
      qdq.dataType, scaleType, qdq.axis, qdq.blockSize, "qdq",
      [&] { return op->emitOpError(); });
  if (failed(granularity)) {
    whyNot = "invalid scale shape";
    return {};
  }
  if (granularity->kind != Granularity::PerTensor)
    params.axis = granularity->axis;
  if (granularity->kind == Granularity::Blocked)
    params.blockSize = granularity->blockSize;
  return getUniformQuantizedType(qdq.dataType, qdq.storageType,
                                 qdq.expressedType, params, whyNot);
}

quant::QuantizedType getQuantizedType(QuantizeLinearOp op,
                                      std::string &whyNot) {
  if (op.getPrecision() &&
      *op.getPrecision() != op.getYScale().getType().getElementType()) {
    whyNot = "'precision' has no !quant.uniform equivalent";
    return {};
  }
  auto dataType = cast<RankedTensorType>(op.getX().getType());
  return getQuantizedType(
      op,
      {dataType, op.getY().getType().getElementType(),
       dataType.getElementType(), op.getYScale(), op.getYZeroPoint(),
       op.getAxis(), op.getBlockSize()},
      whyNot);
}

quant::QuantizedType getQuantizedType(DequantizeLinearOp op,
                                      std::string &whyNot) {
  auto resultType = cast<RankedTensorType>(op.getY().getType());
  return getQuantizedType(
      op,
      {resultType, op.getX().getType().getElementType(),
       resultType.getElementType(), op.getXScale(), op.getXZeroPoint(),
       op.getAxis(), op.getBlockSize()},
      whyNot);
}

RankedTensorType withElementType(Type shaped, Type element) {
  return cast<RankedTensorType>(shaped).clone(element);
}

/// Erases the constant defining `value` once nothing else uses it.
void eraseIfDeadConstant(Value value) {
  if (!value)
    return;
  if (auto constant = value.getDefiningOp<arith::ConstantOp>())
    if (constant->use_empty())
      constant->erase();
}

struct ConvertQOpsToQuantPass
    : public qops::impl::ConvertQOpsToQuantBase<ConvertQOpsToQuantPass> {
  using Base::Base;

  /// Whether every use of `value` accepts the quantized type `type`.
  bool usesAccept(Value value, quant::QuantizedType type, bool allowReturn,
                  std::string &whyNot) {
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto dequantize = dyn_cast<DequantizeLinearOp>(user)) {
        std::string dequantizeWhyNot;
        if (getQuantizedType(dequantize, dequantizeWhyNot) != type) {
          whyNot = "a qops.dequantize_linear using the result has other or "
                   "non-convertible parameters";
          return false;
        }
        continue;
      }
      if (allowReturn && isa<func::ReturnOp>(user)) {
        auto func = user->getParentOfType<func::FuncOp>();
        if (func && SymbolTable::symbolKnownUseEmpty(func, getOperation()) &&
            func.getBody().hasOneBlock())
          continue;
        whyNot = "returned from a function that has callers or several "
                 "blocks, whose result type cannot change";
        return false;
      }
      whyNot = "used by '" + user->getName().getStringRef().str() +
               "', which cannot take a !quant type";
      return false;
    }
    return true;
  }

  /// dcast replaces every qops.dequantize_linear using `quantized`.
  void replaceDequantizeUsers(Value quantized) {
    for (Operation *user : llvm::make_early_inc_range(quantized.getUsers())) {
      auto dequantize = dyn_cast<DequantizeLinearOp>(user);
      if (!dequantize)
        continue;
      OpBuilder builder(dequantize);
      Value dcast = quant::DequantizeCastOp::create(
          builder, dequantize.getLoc(), dequantize.getType(), quantized);
      Value scale = dequantize.getXScale();
      Value zeroPoint = dequantize.getXZeroPoint();
      dequantize.replaceAllUsesWith(dcast);
      dequantize.erase();
      eraseIfDeadConstant(scale);
      eraseIfDeadConstant(zeroPoint);
    }
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::DenseMap<Operation *, std::string> skipped;

    SmallVector<std::pair<QuantizeLinearOp, quant::QuantizedType>> quantizes;
    module.walk([&](QuantizeLinearOp op) {
      std::string whyNot;
      quant::QuantizedType type = getQuantizedType(op, whyNot);
      if (type && usesAccept(op.getY(), type, /*allowReturn=*/true, whyNot))
        quantizes.push_back({op, type});
      else
        skipped[op] = whyNot;
    });

    SmallVector<std::pair<BlockArgument, quant::QuantizedType>> arguments;
    module.walk([&](func::FuncOp func) {
      if (func.isExternal() || !SymbolTable::symbolKnownUseEmpty(func, module))
        return;
      for (BlockArgument argument : func.getArguments()) {
        auto firstDequantize = argument.use_empty()
                                   ? DequantizeLinearOp()
                                   : dyn_cast<DequantizeLinearOp>(
                                         *argument.getUsers().begin());
        if (!firstDequantize)
          continue;
        std::string whyNot;
        quant::QuantizedType type = getQuantizedType(firstDequantize, whyNot);
        if (type && usesAccept(argument, type, /*allowReturn=*/false, whyNot))
          arguments.push_back({argument, type});
      }
    });

    llvm::SetVector<func::FuncOp> changedFunctions;
    for (auto [quantize, type] : quantizes) {
      OpBuilder builder(quantize);
      Value qcast = quant::QuantizeCastOp::create(
          builder, quantize.getLoc(),
          withElementType(quantize.getType(), type), quantize.getX());
      replaceDequantizeUsers(quantize.getY());
      if (!quantize.getY().use_empty())
        changedFunctions.insert(quantize->getParentOfType<func::FuncOp>());
      Value scale = quantize.getYScale();
      Value zeroPoint = quantize.getYZeroPoint();
      quantize.replaceAllUsesWith(qcast);
      quantize.erase();
      eraseIfDeadConstant(scale);
      eraseIfDeadConstant(zeroPoint);
    }
    for (auto [argument, type] : arguments) {
      argument.setType(withElementType(argument.getType(), type));
      replaceDequantizeUsers(argument);
      changedFunctions.insert(
          cast<func::FuncOp>(argument.getOwner()->getParentOp()));
    }
    // The signature follows the entry block and the (single) return.
    for (func::FuncOp func : changedFunctions) {
      if (!func)
        continue;
      Block &entry = func.getBody().front();
      auto returnOp = dyn_cast<func::ReturnOp>(entry.getTerminator());
      TypeRange results = returnOp && func.getBody().hasOneBlock()
                              ? TypeRange(returnOp.getOperandTypes())
                              : TypeRange(func.getResultTypes());
      func.setType(FunctionType::get(func.getContext(),
                                     entry.getArgumentTypes(), results));
    }

    if (!emitRemarks)
      return;
    module.walk([&](Operation *op) {
      if (!isa<QuantizeLinearOp, DequantizeLinearOp>(op))
        return;
      std::string whyNot;
      if (auto dequantize = dyn_cast<DequantizeLinearOp>(op))
        if (getQuantizedType(dequantize, whyNot))
          whyNot = "its input is neither a converted qops.quantize_linear "
                   "result nor a function argument used only by matching "
                   "dequantizations";
      if (auto it = skipped.find(op); it != skipped.end())
        whyNot = it->second;
      op->emitRemark() << "left as qops: " << whyNot;
    });
  }
};

} // namespace
