//===- QOpsOps.cpp - qops operations: builders and verifiers --------------===//
//
// Every verifier message starts with a constraint label (see the op
// descriptions in QOpsOps.td and test/Dialect/QOps/invalid.mlir).
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"

#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"
#include "QuantOps/Dialect/QOps/IR/QuantParams.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::qops;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

static RankedTensorType getRankedType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

/// True if `value` is a constant whose every element is zero (float or int).
/// Unknown (non-constant) values return std::nullopt.
static std::optional<bool> isConstantZero(Value value) {
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  auto elements = dyn_cast<DenseElementsAttr>(attr);
  if (!elements)
    return std::nullopt;
  if (isa<FloatType>(elements.getElementType()))
    return llvm::all_of(elements.getValues<APFloat>(),
                        [](const APFloat &v) { return v.isZero(); });
  if (isa<IntegerType>(elements.getElementType()))
    return llvm::all_of(elements.getValues<APInt>(),
                        [](const APInt &v) { return v.isZero(); });
  return std::nullopt;
}

/// The checks QuantizeLinear and DequantizeLinear share: the granularity of
/// the scale and the shape of the zero point.
static LogicalResult verifyQuantParams(Operation *op, StringRef prefix,
                                       Value data, Value scale,
                                       Value zeroPoint,
                                       std::optional<int64_t> axis,
                                       std::optional<int64_t> blockSize) {
  RankedTensorType dataType = getRankedType(data);
  RankedTensorType scaleType = getRankedType(scale);
  if (failed(classifyQuantGranularity(dataType, scaleType, axis, blockSize,
                                      prefix,
                                      [&] { return op->emitOpError(); })))
    return failure();
  if (zeroPoint &&
      !zeroPointShapeMatchesScale(getRankedType(zeroPoint), scaleType))
    return op->emitOpError()
           << prefix << "_zp_shape: the zero point's shape "
           << getRankedType(zeroPoint) << " differs from the scale's "
           << scaleType;
  return success();
}

//===----------------------------------------------------------------------===//
// QuantizeLinearOp
//===----------------------------------------------------------------------===//

Type QuantizeLinearOp::inferOutputElementType(MLIRContext *ctx,
                                              Value zeroPoint,
                                              TypeAttr outputDtype) {
  if (zeroPoint)
    return getRankedType(zeroPoint).getElementType();
  if (outputDtype)
    return outputDtype.getValue();
  return IntegerType::get(ctx, 8, IntegerType::Unsigned);
}

void QuantizeLinearOp::build(OpBuilder &builder, OperationState &state,
                             Value x, Value yScale, Value yZeroPoint,
                             IntegerAttr axis, IntegerAttr blockSize,
                             BoolAttr saturate, TypeAttr outputDtype,
                             TypeAttr precision) {
  Type element = inferOutputElementType(builder.getContext(), yZeroPoint,
                                        outputDtype);
  auto resultType = getRankedType(x).clone(element);
  build(builder, state, resultType, x, yScale, yZeroPoint, axis, blockSize,
        saturate, outputDtype, precision);
}

Type QuantizeLinearOp::getDivisionType() {
  if (std::optional<Type> precision = getPrecision())
    return *precision;
  Type scale = getRankedType(getYScale()).getElementType();
  // An e8m0 or int32 scale has no useful division of its own. The ONNX
  // reference divides by an e8m0 scale in float32 and by an int32 scale in
  // float64 (numpy's true division).
  if (isFloat8E8M0Type(scale))
    return Float32Type::get(getContext());
  if (isInt32Type(scale))
    return Float64Type::get(getContext());
  return scale;
}

LogicalResult QuantizeLinearOp::verify() {
  Type xElement = getRankedType(getX()).getElementType();
  Type scaleElement = getRankedType(getYScale()).getElementType();
  Type yElement = getY().getType().getElementType();

  if (!isFullPrecisionFloatType(xElement) && !isInt32Type(xElement))
    return emitOpError() << "quantize_x_type: x must be f32, f16, bf16 or "
                         << "i32, got " << xElement;
  if (!isFullPrecisionFloatType(scaleElement) && !isInt32Type(scaleElement) &&
      !isFloat8E8M0Type(scaleElement))
    return emitOpError() << "quantize_scale_type: y_scale must be f32, f16, "
                         << "bf16, i32 or f8E8M0FNU, got " << scaleElement;
  if (std::optional<Type> precision = getPrecision();
      precision && !isFullPrecisionFloatType(*precision))
    return emitOpError() << "quantize_precision: precision must be f32, f16 "
                         << "or bf16, got " << *precision;
  if (std::optional<Type> dtype = getOutputDtype()) {
    if (!isQuantizeOutputType(*dtype))
      return emitOpError() << "quantize_output_dtype: output_dtype must be a "
                           << "quantized type (ui8, si8, ui16, si16, ui4, "
                           << "si4, ui2, si2, float8 or f4E2M1FN), got "
                           << *dtype;
    if (getYZeroPoint() &&
        getRankedType(getYZeroPoint()).getElementType() != *dtype)
      return emitOpError() << "quantize_output_dtype: output_dtype " << *dtype
                           << " disagrees with the zero point's type "
                           << getRankedType(getYZeroPoint()).getElementType();
  }
  if (getYZeroPoint() &&
      !isQuantizeOutputType(getRankedType(getYZeroPoint()).getElementType()))
    return emitOpError() << "quantize_zp_type: y_zero_point must have a "
                         << "quantized type, got "
                         << getRankedType(getYZeroPoint()).getElementType();

  Type expected =
      inferOutputElementType(getContext(), getYZeroPoint(), getOutputDtypeAttr());
  if (!isQuantizeOutputType(yElement))
    return emitOpError() << "quantize_y_type: y must have a quantized type, "
                         << "got " << yElement;
  if (yElement != expected)
    return emitOpError() << "quantize_y_type: y has element type " << yElement
                         << " but the zero point / output_dtype give "
                         << expected;
  if (failed(verifyCompatibleShape(getY().getType(), getX().getType())) ||
      getY().getType().getRank() != getRankedType(getX()).getRank())
    return emitOpError() << "quantize_y_shape: y must have the shape of x, "
                         << "got " << getY().getType() << " for "
                         << getX().getType();

  return verifyQuantParams(*this, "quantize", getX(), getYScale(),
                           getYZeroPoint(), getAxis(), getBlockSize());
}

//===----------------------------------------------------------------------===//
// DequantizeLinearOp
//===----------------------------------------------------------------------===//

void DequantizeLinearOp::build(OpBuilder &builder, OperationState &state,
                               Value x, Value xScale, Value xZeroPoint,
                               IntegerAttr axis, IntegerAttr blockSize,
                               TypeAttr outputDtype) {
  Type element = outputDtype ? outputDtype.getValue()
                             : getRankedType(xScale).getElementType();
  auto resultType = getRankedType(x).clone(element);
  build(builder, state, resultType, x, xScale, xZeroPoint, axis, blockSize,
        outputDtype);
}

LogicalResult DequantizeLinearOp::verify() {
  Type xElement = getRankedType(getX()).getElementType();
  Type scaleElement = getRankedType(getXScale()).getElementType();
  Type yElement = getY().getType().getElementType();

  if (!isDequantizeInputType(xElement))
    return emitOpError() << "dequantize_x_type: x must be a quantized type "
                         << "(ui8, si8, ui16, si16, ui4, si4, ui2, si2, i32, "
                         << "float8 or f4E2M1FN), got " << xElement;
  if (!isFullPrecisionFloatType(scaleElement) &&
      !isFloat8E8M0Type(scaleElement))
    return emitOpError() << "dequantize_scale_type: x_scale must be f32, f16, "
                         << "bf16 or f8E8M0FNU, got " << scaleElement;
  if (getXZeroPoint()) {
    Type zpElement = getRankedType(getXZeroPoint()).getElementType();
    if (zpElement != xElement)
      return emitOpError() << "dequantize_zp_type: x_zero_point has type "
                           << zpElement << " but x has " << xElement;
  }
  Type expected = scaleElement;
  if (std::optional<Type> dtype = getOutputDtype()) {
    if (!isFullPrecisionFloatType(*dtype))
      return emitOpError() << "dequantize_output_dtype: output_dtype must be "
                           << "f32, f16 or bf16, got " << *dtype;
    expected = *dtype;
  } else if (isFloat8E8M0Type(scaleElement)) {
    return emitOpError() << "dequantize_output_dtype: an f8E8M0FNU scale "
                         << "needs output_dtype (f32, f16 or bf16)";
  }
  if (yElement != expected)
    return emitOpError() << "dequantize_y_type: y has element type "
                         << yElement << " but output_dtype / the scale give "
                         << expected;
  if (failed(verifyCompatibleShape(getY().getType(), getX().getType())) ||
      getY().getType().getRank() != getRankedType(getX()).getRank())
    return emitOpError() << "dequantize_y_shape: y must have the shape of x, "
                         << "got " << getY().getType() << " for "
                         << getX().getType();

  return verifyQuantParams(*this, "dequantize", getX(), getXScale(),
                           getXZeroPoint(), getAxis(), getBlockSize());
}

//===----------------------------------------------------------------------===//
// DynamicQuantizeLinearOp
//===----------------------------------------------------------------------===//

void DynamicQuantizeLinearOp::build(OpBuilder &builder, OperationState &state,
                                    Value x) {
  MLIRContext *ctx = builder.getContext();
  auto u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  auto yType = getRankedType(x).clone(u8);
  auto scaleType = RankedTensorType::get({}, Float32Type::get(ctx));
  auto zpType = RankedTensorType::get({}, u8);
  build(builder, state, yType, scaleType, zpType, x);
}

LogicalResult DynamicQuantizeLinearOp::verify() {
  RankedTensorType xType = getRankedType(getX());
  if (!xType.getElementType().isF32())
    return emitOpError() << "dynquant_x_type: x must be f32, got "
                         << xType.getElementType();
  auto isU8 = [](Type t) { return t.isUnsignedInteger(8); };
  RankedTensorType yType = getY().getType();
  if (!isU8(yType.getElementType()))
    return emitOpError() << "dynquant_y_type: y must be ui8, got "
                         << yType.getElementType();
  if (failed(verifyCompatibleShape(yType, xType)) ||
      yType.getRank() != xType.getRank())
    return emitOpError() << "dynquant_y_shape: y must have the shape of x, "
                         << "got " << yType << " for " << xType;
  RankedTensorType scaleType = getYScale().getType();
  if (scaleType.getRank() != 0 || !scaleType.getElementType().isF32())
    return emitOpError() << "dynquant_scale_type: y_scale must be "
                         << "tensor<f32>, got " << scaleType;
  RankedTensorType zpType = getYZeroPoint().getType();
  if (zpType.getRank() != 0 || !isU8(zpType.getElementType()))
    return emitOpError() << "dynquant_zp_type: y_zero_point must be "
                         << "tensor<ui8>, got " << zpType;
  return success();
}

//===----------------------------------------------------------------------===//
// QLinearMatMulOp
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<int64_t>>
QLinearMatMulOp::inferResultShape(ArrayRef<int64_t> aShape,
                                  ArrayRef<int64_t> bShape) {
  if (aShape.empty() || bShape.empty())
    return failure();
  // numpy.matmul: a 1-D a is [1, K] and a 1-D b is [K, 1]; the added
  // dimension is removed from the result.
  SmallVector<int64_t> a(aShape), b(bShape);
  bool aVector = a.size() == 1, bVector = b.size() == 1;
  if (aVector)
    a.insert(a.begin(), 1);
  if (bVector)
    b.push_back(1);
  int64_t k0 = a.back(), k1 = b[b.size() - 2];
  if (!ShapedType::isDynamic(k0) && !ShapedType::isDynamic(k1) && k0 != k1)
    return failure();
  ArrayRef<int64_t> aBatch = ArrayRef(a).drop_back(2);
  ArrayRef<int64_t> bBatch = ArrayRef(b).drop_back(2);
  size_t batchRank = std::max(aBatch.size(), bBatch.size());
  SmallVector<int64_t> result;
  for (size_t i = 0; i < batchRank; ++i) {
    auto dimAt = [&](ArrayRef<int64_t> batch) -> int64_t {
      size_t offset = batchRank - batch.size();
      return i < offset ? 1 : batch[i - offset];
    };
    int64_t da = dimAt(aBatch), db = dimAt(bBatch);
    if (da == 1)
      result.push_back(db);
    else if (db == 1)
      result.push_back(da);
    else if (ShapedType::isDynamic(da))
      result.push_back(db);
    else if (ShapedType::isDynamic(db) || da == db)
      result.push_back(da);
    else
      return failure();
  }
  if (!aVector)
    result.push_back(a[a.size() - 2]);
  if (!bVector)
    result.push_back(b.back());
  return result;
}

void QLinearMatMulOp::build(OpBuilder &builder, OperationState &state,
                            Value a, Value aScale, Value aZeroPoint, Value b,
                            Value bScale, Value bZeroPoint, Value yScale,
                            Value yZeroPoint) {
  FailureOr<SmallVector<int64_t>> shape = inferResultShape(
      getRankedType(a).getShape(), getRankedType(b).getShape());
  assert(succeeded(shape) && "operands of qlinear_matmul do not combine");
  auto resultType = RankedTensorType::get(
      *shape, getRankedType(yZeroPoint).getElementType());
  build(builder, state, resultType, a, aScale, aZeroPoint, b, bScale,
        bZeroPoint, yScale, yZeroPoint);
}

bool qops::isValidMatMulParamShape(RankedTensorType param,
                                   ArrayRef<int64_t> matrix,
                                   MatMulParamRole role) {
  if (hasSingleElement(param))
    return true;
  if (matrix.size() < 2)
    return false;
  auto same = [](int64_t p, int64_t m) {
    return p == m || ShapedType::isDynamic(p) || ShapedType::isDynamic(m);
  };
  int64_t rows = matrix[matrix.size() - 2], cols = matrix.back();
  ArrayRef<int64_t> shape = param.getShape();
  if (shape.size() == 1)
    return role == MatMulParamRole::A ? same(shape[0], rows)
                                      : same(shape[0], cols);
  if (shape.size() != matrix.size())
    return false;
  for (size_t i = 0; i + 2 < shape.size(); ++i)
    if (shape[i] != 1 && !same(shape[i], matrix[i]))
      return false;
  int64_t pr = shape[shape.size() - 2], pc = shape.back();
  bool perRow = same(pr, rows) && pc == 1;
  bool perColumn = pr == 1 && same(pc, cols);
  switch (role) {
  case MatMulParamRole::A:
    return perRow;
  case MatMulParamRole::B:
    return perColumn;
  case MatMulParamRole::Y:
    return perRow || perColumn;
  }
  return false;
}

LogicalResult QLinearMatMulOp::verify() {
  auto isMatMulElement = [](Type t) { return isInt8Type(t) || isFloat8Type(t); };
  struct Operand {
    StringRef name;
    Value data, scale, zeroPoint;
    MatMulParamRole role;
  };
  RankedTensorType aType = getRankedType(getA());
  RankedTensorType bType = getRankedType(getB());
  RankedTensorType yType = getY().getType();
  Operand operands[] = {
      {"a", getA(), getAScale(), getAZeroPoint(), MatMulParamRole::A},
      {"b", getB(), getBScale(), getBZeroPoint(), MatMulParamRole::B},
      {"y", getY(), getYScale(), getYZeroPoint(), MatMulParamRole::Y}};

  for (const Operand &operand : operands) {
    Type element = getRankedType(operand.data).getElementType();
    if (!isMatMulElement(element))
      return emitOpError() << "qmatmul_" << operand.name << "_type: "
                           << operand.name << " must be si8, ui8 or a float8 "
                           << "type, got " << element;
    Type zpElement = getRankedType(operand.zeroPoint).getElementType();
    if (zpElement != element)
      return emitOpError() << "qmatmul_zp_type: " << operand.name
                           << "_zero_point has type " << zpElement << " but "
                           << operand.name << " has " << element;
  }
  Type scaleElement = getRankedType(getAScale()).getElementType();
  if (!isFullPrecisionFloatType(scaleElement))
    return emitOpError() << "qmatmul_scale_type: scales must be f32, f16 or "
                         << "bf16, got " << scaleElement;
  for (Value scale : {getBScale(), getYScale()})
    if (getRankedType(scale).getElementType() != scaleElement)
      return emitOpError() << "qmatmul_scale_type: all three scales must "
                           << "have one type, got " << scaleElement << " and "
                           << getRankedType(scale).getElementType();

  if (aType.getRank() < 1 || bType.getRank() < 1)
    return emitOpError() << "qmatmul_rank: a and b must have rank >= 1";
  int64_t k0 = aType.getShape().back();
  int64_t k1 = bType.getRank() == 1 ? bType.getDimSize(0)
                                    : bType.getDimSize(bType.getRank() - 2);
  if (!ShapedType::isDynamic(k0) && !ShapedType::isDynamic(k1) && k0 != k1)
    return emitOpError() << "qmatmul_inner_dim: a has K = " << k0
                         << " but b has K = " << k1;
  FailureOr<SmallVector<int64_t>> shape =
      inferResultShape(aType.getShape(), bType.getShape());
  if (failed(shape))
    return emitOpError() << "qmatmul_batch_broadcast: the batch dimensions of "
                         << aType << " and " << bType << " do not broadcast";
  if (failed(verifyCompatibleShape(yType.getShape(), *shape)) ||
      yType.getRank() != static_cast<int64_t>(shape->size()))
    return emitOpError() << "qmatmul_y_shape: y has type " << yType
                         << " but a and b give shape "
                         << RankedTensorType::get(*shape,
                                                  yType.getElementType());

  for (const Operand &operand : operands) {
    RankedTensorType scaleType = getRankedType(operand.scale);
    ArrayRef<int64_t> matrix = getRankedType(operand.data).getShape();
    if (!isValidMatMulParamShape(scaleType, matrix, operand.role)) {
      StringRef expected = operand.role == MatMulParamRole::A
                               ? "per-tensor or per-row ([M] or [..., M, 1])"
                           : operand.role == MatMulParamRole::B
                               ? "per-tensor or per-column ([N] or [..., 1, N])"
                               : "per-tensor, per-row ([..., M, 1]) or "
                                 "per-column ([N] or [..., 1, N])";
      return emitOpError() << "qmatmul_" << operand.name
                           << "_params_shape: " << operand.name
                           << "_scale of " << scaleType << " is not "
                           << expected << " for " << operand.name << " of "
                           << getRankedType(operand.data);
    }
    if (!zeroPointShapeMatchesScale(getRankedType(operand.zeroPoint),
                                    scaleType))
      return emitOpError() << "qmatmul_zp_shape: " << operand.name
                           << "_zero_point of "
                           << getRankedType(operand.zeroPoint)
                           << " differs from " << operand.name << "_scale of "
                           << scaleType;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// MatMulIntegerOp
//===----------------------------------------------------------------------===//

void MatMulIntegerOp::build(OpBuilder &builder, OperationState &state,
                            Value a, Value aZeroPoint, Value b,
                            Value bZeroPoint) {
  FailureOr<SmallVector<int64_t>> shape = QLinearMatMulOp::inferResultShape(
      getRankedType(a).getShape(), getRankedType(b).getShape());
  assert(succeeded(shape) && "operands of matmul_integer do not combine");
  build(builder, state,
        RankedTensorType::get(*shape, builder.getIntegerType(32)), a,
        aZeroPoint, b, bZeroPoint, Value(), Value());
}

LogicalResult MatMulIntegerOp::verify() {
  RankedTensorType aType = getRankedType(getA());
  RankedTensorType bType = getRankedType(getB());
  RankedTensorType yType = getY().getType();
  struct Operand {
    StringRef name;
    RankedTensorType type;
    Value zeroPoint;
    MatMulParamRole role;
  };
  Operand operands[] = {{"a", aType, getAZeroPoint(), MatMulParamRole::A},
                        {"b", bType, getBZeroPoint(), MatMulParamRole::B}};
  for (const Operand &operand : operands) {
    Type element = operand.type.getElementType();
    if (!isInt8Type(element))
      return emitOpError() << "matmulint_" << operand.name << "_type: "
                           << operand.name << " must be si8 or ui8, got "
                           << element;
    if (!operand.zeroPoint)
      continue;
    Type zpElement = getRankedType(operand.zeroPoint).getElementType();
    if (zpElement != element)
      return emitOpError() << "matmulint_zp_type: " << operand.name
                           << "_zero_point has type " << zpElement << " but "
                           << operand.name << " has " << element;
  }
  if (getDequantOffset() && !getDequantScale())
    return emitOpError() << "matmulint_dequantize: an offset needs a scale";
  if (getDequantScale() ? !yType.getElementType().isF32()
                        : !isInt32Type(yType.getElementType()))
    return emitOpError() << "matmulint_y_type: y must be "
                         << (getDequantScale() ? "f32 with dequantize"
                                               : "i32 or si32")
                         << ", got " << yType.getElementType();
  if (aType.getRank() < 1 || bType.getRank() < 1)
    return emitOpError() << "matmulint_rank: a and b must have rank >= 1";
  int64_t k0 = aType.getShape().back();
  int64_t k1 = bType.getRank() == 1 ? bType.getDimSize(0)
                                    : bType.getDimSize(bType.getRank() - 2);
  if (!ShapedType::isDynamic(k0) && !ShapedType::isDynamic(k1) && k0 != k1)
    return emitOpError() << "matmulint_inner_dim: a has K = " << k0
                         << " but b has K = " << k1;
  FailureOr<SmallVector<int64_t>> shape =
      QLinearMatMulOp::inferResultShape(aType.getShape(), bType.getShape());
  if (failed(shape))
    return emitOpError() << "matmulint_batch_broadcast: the batch dimensions "
                         << "of " << aType << " and " << bType
                         << " do not broadcast";
  if (yType.getRank() != static_cast<int64_t>(shape->size()) ||
      failed(verifyCompatibleShape(yType.getShape(), *shape)))
    return emitOpError() << "matmulint_y_shape: y has type " << yType
                         << " but a and b give shape "
                         << RankedTensorType::get(*shape,
                                                  yType.getElementType());
  for (const Operand &operand : operands) {
    if (!operand.zeroPoint)
      continue;
    RankedTensorType zpType = getRankedType(operand.zeroPoint);
    if (isValidMatMulParamShape(zpType, operand.type.getShape(),
                                operand.role))
      continue;
    return emitOpError() << "matmulint_" << operand.name
                         << "_zp_shape: " << operand.name << "_zero_point of "
                         << zpType << " is not "
                         << (operand.role == MatMulParamRole::A
                                 ? "per-tensor or per-row ([M] or [..., M, 1])"
                                 : "per-tensor or per-column ([N] or [..., 1, "
                                   "N])")
                         << " for " << operand.name << " of " << operand.type;
  }
  // Per column needs columns: with a 1-D b, y has none (its last dim is M).
  int64_t columns = bType.getRank() >= 2 ? yType.getShape().back() : 1;
  return verifyDequantizeClause(getDequantScale(), getDequantOffset(),
                                columns, "matmulint_dequantize",
                                [&] { return emitOpError(); });
}

//===----------------------------------------------------------------------===//
// Zero-point values (outside the verifiers)
//===----------------------------------------------------------------------===//

LogicalResult qops::checkConstantZeroPoints(Operation *op) {
  if (auto quantize = dyn_cast<QuantizeLinearOp>(op)) {
    Value zp = quantize.getYZeroPoint();
    if (zp && isFloat8Type(quantize.getY().getType().getElementType()) &&
        isConstantZero(zp) == false)
      return quantize.emitOpError()
             << "quantize_float8_zp: a float8 zero point must be 0";
    return success();
  }
  auto dequantize = dyn_cast<DequantizeLinearOp>(op);
  if (!dequantize || !dequantize.getXZeroPoint() ||
      isConstantZero(dequantize.getXZeroPoint()) != false)
    return success();
  Type xElement = getRankedType(dequantize.getX()).getElementType();
  if (isInt32Type(xElement))
    return dequantize.emitOpError() << "dequantize_int32_zp: an int32 input "
                                    << "takes no zero point other than 0";
  if (isFloat8Type(xElement))
    return dequantize.emitOpError()
           << "dequantize_float8_zp: a float8 zero point must be 0";
  return success();
}

#define GET_OP_CLASSES
#include "QuantOps/Dialect/QOps/IR/QOpsOps.cpp.inc"
