//===- QKernelOps.cpp - the int8 kernels' internal ops --------------------===//
//
// Registers the qkernel operations; qkernel.matmul's verifier (the
// instruction ops are declarative: types and traits only).
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::qkernel;

#include "QuantOps/Dialect/QKernel/IR/QKernelDialect.cpp.inc"

void QKernelDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "QuantOps/Dialect/QKernel/IR/QKernelOps.cpp.inc"
      >();
}

namespace {

/// Whether `t` is an 8-bit integer or (with `orFloat8`) an 8-bit float.
bool isMatMulElement(Type t, bool orFloat8) {
  auto floatType = dyn_cast<FloatType>(t);
  return t.isInteger(8) || (orFloat8 && floatType && floatType.getWidth() == 8);
}

} // namespace

/// qkernel.matmul's rules, local to the op, so that whatever verifies can be
/// lowered: the requantization's four parameters come together; a and b
/// have rank >= 1 and 8-bit integer elements (float8 too when requantized,
/// QLinearMatMul-21), each zero point its operand's element type; the sums
/// are i32, a requantized y 8-bit with float scales of one type; the shapes
/// combine as numpy.matmul's and each parameter is per tensor, per row of a
/// or per column of b (qops::isValidMatMulParamShape, the qops verifiers').
LogicalResult MatMulOp::verify() {
  int present = static_cast<bool>(getAScale()) +
                static_cast<bool>(getBScale()) +
                static_cast<bool>(getYScale()) +
                static_cast<bool>(getYZeroPoint());
  if (present != 0 && present != 4)
    return emitOpError() << "requantize takes a_scale, b_scale, y_scale and "
                            "y_zero_point together, got "
                         << present << " of them";
  bool requantized = present == 4;
  using Role = qops::MatMulParamRole;
  struct Operand {
    StringRef name;
    Value data, scale, zeroPoint;
    Role role;
  };
  Operand operands[] = {
      {"a", getA(), getAScale(), getAZeroPoint(), Role::A},
      {"b", getB(), getBScale(), getBZeroPoint(), Role::B},
      {"y", getY(), getYScale(), getYZeroPoint(), Role::Y}};
  for (const Operand &operand : operands) {
    auto type = cast<RankedTensorType>(operand.data.getType());
    Type element = type.getElementType();
    if (operand.role != Role::Y && type.getRank() < 1)
      return emitOpError() << operand.name << " must have rank 1 or more, got "
                           << type;
    if (operand.role == Role::Y && !requantized) {
      if (!element.isInteger(32))
        return emitOpError()
               << "y without requantize holds the i32 sums, got " << element;
      continue;
    }
    if (!isMatMulElement(element, requantized))
      return emitOpError() << operand.name << " must be an 8-bit integer"
                           << (requantized ? " or float8" : "") << ", got "
                           << element;
    if (operand.zeroPoint &&
        cast<RankedTensorType>(operand.zeroPoint.getType())
                .getElementType() != element)
      return emitOpError() << operand.name << "'s zero point must be "
                           << element;
  }
  if (requantized) {
    Type scale = getAScale().getType().getElementType();
    if (!isa<FloatType>(scale) ||
        getBScale().getType().getElementType() != scale ||
        getYScale().getType().getElementType() != scale)
      return emitOpError() << "the scales must be floats of one type";
  }
  RankedTensorType yType = getY().getType();
  FailureOr<SmallVector<int64_t>> shape = qops::QLinearMatMulOp::inferResultShape(
      getA().getType().getShape(), getB().getType().getShape());
  if (failed(shape) ||
      yType.getRank() != static_cast<int64_t>(shape->size()) ||
      failed(verifyCompatibleShape(yType.getShape(), *shape)))
    return emitOpError() << "a of " << getA().getType() << " and b of "
                         << getB().getType() << " do not give y of " << yType;
  for (const Operand &operand : operands)
    for (Value param : {operand.scale, operand.zeroPoint})
      if (param &&
          !qops::isValidMatMulParamShape(
              cast<RankedTensorType>(param.getType()),
              cast<RankedTensorType>(operand.data.getType()).getShape(),
              operand.role))
        return emitOpError() << "a parameter of " << operand.name << ", "
                             << param.getType()
                             << ", is not per tensor, per row or per column";
  return success();
}

#define GET_OP_CLASSES
#include "QuantOps/Dialect/QKernel/IR/QKernelOps.cpp.inc"
