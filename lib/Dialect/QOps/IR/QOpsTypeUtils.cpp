//===- QOpsTypeUtils.cpp - element types of the qops dialect --------------===//
//
// Predicates over the element types ONNX allows for quantization.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

static bool isQuantizedIntegerWidth(unsigned width) {
  return width == 2 || width == 4 || width == 8 || width == 16;
}

bool qops::isQuantizedIntegerType(Type type) {
  auto intType = dyn_cast<IntegerType>(type);
  return intType && !intType.isSignless() &&
         isQuantizedIntegerWidth(intType.getWidth());
}

bool qops::isFloat8Type(Type type) {
  return isa<Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2Type,
             Float8E5M2FNUZType>(type);
}

bool qops::isFloat4Type(Type type) { return isa<Float4E2M1FNType>(type); }

bool qops::isFloat8E8M0Type(Type type) { return isa<Float8E8M0FNUType>(type); }

bool qops::isInt32Type(Type type) {
  auto intType = dyn_cast<IntegerType>(type);
  return intType && intType.getWidth() == 32 && !intType.isUnsigned();
}

bool qops::isFullPrecisionFloatType(Type type) {
  return type.isF32() || type.isF16() || type.isBF16();
}

bool qops::isQuantizeOutputType(Type type) {
  return isQuantizedIntegerType(type) || isFloat8Type(type) ||
         isFloat4Type(type);
}

bool qops::isDequantizeInputType(Type type) {
  return isQuantizeOutputType(type) || isInt32Type(type);
}

bool qops::isInt8Type(Type type) {
  auto intType = dyn_cast<IntegerType>(type);
  return intType && !intType.isSignless() && intType.getWidth() == 8;
}

int64_t qops::getIntegerTypeMin(Type type) {
  auto intType = cast<IntegerType>(type);
  if (intType.isUnsigned())
    return 0;
  return -(int64_t(1) << (intType.getWidth() - 1));
}

int64_t qops::getIntegerTypeMax(Type type) {
  auto intType = cast<IntegerType>(type);
  if (intType.isUnsigned())
    return (int64_t(1) << intType.getWidth()) - 1;
  return (int64_t(1) << (intType.getWidth() - 1)) - 1;
}
