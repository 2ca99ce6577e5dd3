//===- ImportFunctionBodyOps.cpp - DynamicQuantizeLinear's body ops -------===//
//
// The ai.onnx ops that DynamicQuantizeLinear's function body uses, so that
// expanded models import: Constant, ReduceMin, ReduceMax, Min, Max, Sub, Div,
// Clip, Round, Cast, Identity; and the float glue of dynamically quantized
// models (ConvInteger / MatMulInteger -> Cast -> Mul -> Add -> Relu): Mul,
// Relu. They become upstream ops (linalg.generic with arith/math bodies,
// tensor.expand_shape) on storage types:
//
//   Sub/Mul/Div/     numpy broadcasting; one linalg.generic, a static 1 is
//   Min/Max          read at index 0. Min/Max propagate NaN (minimumf);
//                    integer Sub/Mul wrap.
//   Relu             max(x, 0), NaN propagates; float or signed integers.
//   ReduceMin/Max    axes (attribute before opset 18, constant input from
//                    18), keepdims, noop_with_empty_axes; the init value is
//                    +-Inf (or the integer extreme), so an empty reduction
//                    gives it; NaN propagates.
//   Clip             min(max(x, lo), hi); lo/hi from attributes (opset 6) or
//                    optional scalar inputs (11+).
//   Round            round half to even (math.roundeven).
//   Cast             float<->float (extf/truncf, nearest even),
//                    int->float (sitofp/uitofp), int->int (wraps like
//                    numpy), float->int saturating with NaN -> 0 (ONNX
//                    leaves out-of-range undefined; docs/Numerics.md).
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"
#include "QuantOps/Target/ONNX/OnnxTensor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>

using namespace mlir;
using namespace mlir::qops;
using namespace mlir::qops::onnx;
namespace pb = ::quantops::onnx;

namespace {

using Node = GraphImporter::Node;
using BodyBuilder =
    llvm::function_ref<Value(OpBuilder &, Location, ValueRange)>;

RankedTensorType tensorTypeOf(Value value) {
  return cast<RankedTensorType>(value.getType());
}

bool isUnsignedInt(Type onnxType) {
  auto intType = dyn_cast<IntegerType>(onnxType);
  return intType && intType.isUnsigned();
}

/// The storage type of an ONNX scalar type (signless integers of >= 8 bits).
Type storageOf(Type onnxType) {
  if (auto intType = dyn_cast<IntegerType>(onnxType))
    if (!intType.isSignless())
      return IntegerType::get(onnxType.getContext(),
                              std::max(8u, intType.getWidth()));
  return onnxType;
}

} // namespace

llvm::Expected<Value> onnx::emitBroadcastElementwise(
    GraphImporter &importer, const GraphImporter::Node &node,
    ValueRange operands, Type resultOnnx, BodyBuilder body) {
  OpBuilder &b = importer.getBuilder();
  Location loc = importer.getLoc(node);
  int64_t rank = 0;
  for (Value operand : operands)
    rank = std::max(rank, tensorTypeOf(operand).getRank());

  // Result dims: a static size other than 1 wins; conflicting static sizes
  // do not broadcast; dynamic sizes are assumed to match.
  SmallVector<int64_t> shape(rank, 1);
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < rank; ++d) {
    Value dynamicSource;
    int64_t dynamicIndex = 0;
    for (Value operand : operands) {
      RankedTensorType type = tensorTypeOf(operand);
      int64_t offset = rank - type.getRank();
      if (d < offset)
        continue;
      int64_t size = type.getDimSize(d - offset);
      if (ShapedType::isDynamic(size)) {
        if (!dynamicSource) {
          dynamicSource = operand;
          dynamicIndex = d - offset;
        }
        continue;
      }
      if (size == 1)
        continue;
      if (shape[d] != 1 && shape[d] != size)
        return importer.nodeError(node, "input shapes do not broadcast");
      shape[d] = size;
    }
    if (shape[d] == 1 && dynamicSource) {
      shape[d] = ShapedType::kDynamic;
      dynamicSizes.push_back(
          tensor::DimOp::create(b, loc, dynamicSource, dynamicIndex));
    }
    // A dynamic dim is taken not to broadcast: every operand's size along
    // d must then equal the result's, checked at run time.
    if (!dynamicSource)
      continue;
    Value expected = shape[d] == ShapedType::kDynamic
                         ? dynamicSizes.back()
                         : arith::ConstantIndexOp::create(b, loc, shape[d])
                               .getResult();
    for (Value operand : operands) {
      RankedTensorType type = tensorTypeOf(operand);
      int64_t offset = rank - type.getRank();
      if (d < offset || type.getDimSize(d - offset) == 1 ||
          (operand == dynamicSource && shape[d] == ShapedType::kDynamic))
        continue;
      Value size = tensor::DimOp::create(b, loc, operand, d - offset);
      Value equal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          size, expected);
      cf::AssertOp::create(b, loc, equal,
                           "node '" + node.name() + "' (" + node.op_type() +
                               "): input shapes do not match at run time (a dynamic "
                               "dimension is not broadcast)");
    }
  }

  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (Value operand : operands) {
    RankedTensorType type = tensorTypeOf(operand);
    int64_t offset = rank - type.getRank();
    SmallVector<AffineExpr> exprs;
    for (int64_t j = 0; j < type.getRank(); ++j)
      exprs.push_back(type.getDimSize(j) == 1 && shape[j + offset] != 1
                          ? b.getAffineConstantExpr(0)
                          : b.getAffineDimExpr(j + offset));
    maps.push_back(AffineMap::get(rank, 0, exprs, b.getContext()));
    inputs.push_back(importer.asStorageType(operand, loc));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  Value init = tensor::EmptyOp::create(b, loc, shape, storageOf(resultOnnx),
                                       dynamicSizes);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), inputs, init, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = body(nested, nestedLoc, args.drop_back());
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  return importer.asOnnxType(generic.getResult(0), resultOnnx, loc);
}

namespace {

/// Requires every input to have the first one's element type (ONNX's T).
llvm::Expected<SmallVector<Value>> getSameTypeInputs(GraphImporter &importer,
                                                     const Node &node,
                                                     int minCount,
                                                     int maxCount) {
  if (node.input_size() < minCount ||
      (maxCount >= 0 && node.input_size() > maxCount))
    return importer.nodeError(node, llvm::formatv("expects {0} inputs, got {1}",
                                                  minCount, node.input_size()));
  SmallVector<Value> inputs;
  for (int i = 0; i < node.input_size(); ++i) {
    auto input = importer.getRequiredInput(node, i);
    if (!input)
      return input.takeError();
    if (!inputs.empty() && tensorTypeOf(*input).getElementType() !=
                               tensorTypeOf(inputs[0]).getElementType())
      return importer.nodeError(node, "inputs have different element types");
    inputs.push_back(*input);
  }
  return inputs;
}

Value emitMinMax(OpBuilder &b, Location loc, Value lhs, Value rhs,
                 Type onnxType, bool isMax) {
  if (isa<FloatType>(onnxType))
    return isMax ? arith::MaximumFOp::create(b, loc, lhs, rhs).getResult()
                 : arith::MinimumFOp::create(b, loc, lhs, rhs).getResult();
  if (isUnsignedInt(onnxType))
    return isMax ? arith::MaxUIOp::create(b, loc, lhs, rhs).getResult()
                 : arith::MinUIOp::create(b, loc, lhs, rhs).getResult();
  return isMax ? arith::MaxSIOp::create(b, loc, lhs, rhs).getResult()
               : arith::MinSIOp::create(b, loc, lhs, rhs).getResult();
}

bool isSupportedArithmeticType(Type type) {
  return isa<FloatType>(type) ? type.isF32() || type.isF16() ||
                                    type.isBF16() || type.isF64()
                              : isa<IntegerType>(type) &&
                                    type.getIntOrFloatBitWidth() >= 8;
}

//===----------------------------------------------------------------------===//
// Sub, Div, Min, Max
//===----------------------------------------------------------------------===//

llvm::Error importBinaryOrVariadic(GraphImporter &importer, const Node &node,
                                   StringRef kind) {
  bool variadic = kind == "Min" || kind == "Max";
  if (llvm::Error error = importer.checkAttributes(node, {}))
    return error;
  auto inputs = getSameTypeInputs(importer, node, variadic ? 1 : 2,
                                  variadic ? -1 : 2);
  if (!inputs)
    return inputs.takeError();
  Type onnxType = tensorTypeOf((*inputs)[0]).getElementType();
  if (!isSupportedArithmeticType(onnxType))
    return importer.nodeError(node, "element type is not supported");
  bool isFloat = isa<FloatType>(onnxType);
  auto result = emitBroadcastElementwise(
      importer, node, *inputs, onnxType,
      [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
        if (kind == "Sub")
          return isFloat ? arith::SubFOp::create(b, loc, args[0], args[1])
                               .getResult()
                         : arith::SubIOp::create(b, loc, args[0], args[1])
                               .getResult();
        if (kind == "Mul") // integers wrap, as numpy's
          return isFloat ? arith::MulFOp::create(b, loc, args[0], args[1])
                               .getResult()
                         : arith::MulIOp::create(b, loc, args[0], args[1])
                               .getResult();
        if (kind == "Div") {
          if (isFloat)
            return arith::DivFOp::create(b, loc, args[0], args[1]);
          // ONNX leaves integer division by zero undefined; the hardware
          // traps on it (and on INT_MIN / -1). Define it: x / 0 = 0, and
          // INT_MIN / -1 wraps to INT_MIN (docs/Numerics.md).
          Type type = args[1].getType();
          Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
          Value one = arith::ConstantOp::create(
              b, loc, b.getIntegerAttr(type, 1));
          Value isZero = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::eq, args[1], zero);
          Value divisor = arith::SelectOp::create(b, loc, isZero, one, args[1]);
          Value quotient;
          if (isUnsignedInt(onnxType)) {
            quotient = arith::DivUIOp::create(b, loc, args[0], divisor);
          } else {
            unsigned width = type.getIntOrFloatBitWidth();
            Value minusOne = arith::ConstantOp::create(
                b, loc, b.getIntegerAttr(type, -1));
            Value intMin = arith::ConstantOp::create(
                b, loc,
                b.getIntegerAttr(type, APInt::getSignedMinValue(width)));
            Value overflow = arith::AndIOp::create(
                b, loc,
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      args[0], intMin),
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      divisor, minusOne));
            divisor = arith::SelectOp::create(b, loc, overflow, one, divisor);
            quotient = arith::DivSIOp::create(b, loc, args[0], divisor);
          }
          return arith::SelectOp::create(b, loc, isZero, zero, quotient);
        }
        Value accumulated = args[0];
        for (Value next : args.drop_front())
          accumulated = emitMinMax(b, loc, accumulated, next, onnxType,
                                   kind == "Max");
        return accumulated;
      });
  if (!result)
    return result.takeError();
  importer.setOutput(node, 0, *result);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// ReduceMin, ReduceMax
//===----------------------------------------------------------------------===//

/// Reads the axes of a reduction from a constant tensor input.
llvm::Expected<std::optional<SmallVector<int64_t>>>
getConstantAxes(GraphImporter &importer, const Node &node, Value axes) {
  if (!axes)
    return std::optional<SmallVector<int64_t>>();
  DenseIntElementsAttr attr;
  if (!matchPattern(axes, m_Constant(&attr)))
    return importer.nodeError(node, "axes must be a constant");
  SmallVector<int64_t> result;
  for (const APInt &axis : attr.getValues<APInt>())
    result.push_back(axis.getSExtValue());
  return std::optional<SmallVector<int64_t>>(result);
}

llvm::Error importReduce(GraphImporter &importer, const Node &node,
                         bool isMax) {
  int64_t opset = importer.getOpsetVersion(node);
  bool axesAsInput = opset >= 18;
  SmallVector<StringRef> allowed{"keepdims"};
  if (axesAsInput)
    allowed.push_back("noop_with_empty_axes");
  else
    allowed.push_back("axes");
  if (llvm::Error error = importer.checkAttributes(node, allowed))
    return error;
  auto data = importer.getRequiredInput(node, 0);
  if (!data)
    return data.takeError();
  RankedTensorType type = tensorTypeOf(*data);
  Type onnxType = type.getElementType();
  if (!isSupportedArithmeticType(onnxType))
    return importer.nodeError(node, "element type is not supported");

  std::optional<SmallVector<int64_t>> axes;
  if (axesAsInput) {
    auto axesInput = importer.getInput(node, 1);
    if (!axesInput)
      return axesInput.takeError();
    auto constant = getConstantAxes(importer, node, *axesInput);
    if (!constant)
      return constant.takeError();
    axes = *constant;
  } else if (const pb::AttributeProto *attr =
                 importer.findAttribute(node, "axes")) {
    axes = SmallVector<int64_t>(attr->ints().begin(), attr->ints().end());
  }
  auto keepDims = importer.getIntAttribute(node, "keepdims");
  if (!keepDims)
    return keepDims.takeError();
  auto noop = importer.getIntAttribute(node, "noop_with_empty_axes");
  if (!noop)
    return noop.takeError();
  bool keep = keepDims->value_or(1) != 0;
  int64_t rank = type.getRank();
  SmallVector<bool> reduced(rank, false);
  if (!axes || axes->empty()) {
    if (noop->value_or(0) != 0) {
      importer.setOutput(node, 0, *data);
      return llvm::Error::success();
    }
    reduced.assign(rank, true);
  } else {
    for (int64_t axis : *axes) {
      if (axis < -rank || axis >= rank)
        return importer.nodeError(node, llvm::formatv("axis {0} is out of "
                                                      "range for rank {1}",
                                                      axis, rank));
      reduced[axis < 0 ? axis + rank : axis] = true;
    }
  }

  OpBuilder &b = importer.getBuilder();
  Location loc = importer.getLoc(node);
  Value input = importer.asStorageType(*data, loc);
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamicSizes;
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    iterators.push_back(reduced[d] ? utils::IteratorType::reduction
                                   : utils::IteratorType::parallel);
    if (reduced[d])
      continue;
    shape.push_back(type.getDimSize(d));
    if (type.isDynamicDim(d))
      dynamicSizes.push_back(tensor::DimOp::create(b, loc, input, d));
    outExprs.push_back(b.getAffineDimExpr(d));
  }
  Type storage = storageOf(onnxType);
  TypedAttr initAttr;
  if (auto floatType = dyn_cast<FloatType>(onnxType)) {
    initAttr = b.getFloatAttr(
        floatType, APFloat::getInf(floatType.getFloatSemantics(), isMax));
  } else {
    unsigned width = storage.getIntOrFloatBitWidth();
    APInt extreme = isUnsignedInt(onnxType)
                        ? (isMax ? APInt::getMinValue(width)
                                 : APInt::getMaxValue(width))
                        : (isMax ? APInt::getSignedMinValue(width)
                                 : APInt::getSignedMaxValue(width));
    initAttr = b.getIntegerAttr(storage, extreme);
  }
  Value initValue = arith::ConstantOp::create(b, loc, initAttr);
  Value empty = tensor::EmptyOp::create(b, loc, shape, storage, dynamicSizes);
  Value init = linalg::FillOp::create(b, loc, initValue, empty).getResult(0);
  SmallVector<AffineMap> maps{b.getMultiDimIdentityMap(rank),
                              AffineMap::get(rank, 0, outExprs,
                                             b.getContext())};
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), input, init, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc,
                                emitMinMax(nested, nestedLoc, args[1], args[0],
                                           onnxType, isMax));
      });
  Value result = generic.getResult(0);
  if (keep) {
    // Put the reduced dims back as 1s.
    SmallVector<int64_t> keptShape;
    SmallVector<ReassociationIndices> groups;
    ReassociationIndices pending;
    for (int64_t d = 0; d < rank; ++d) {
      keptShape.push_back(reduced[d] ? 1 : type.getDimSize(d));
      pending.push_back(d);
      if (!reduced[d]) {
        groups.push_back(pending);
        pending.clear();
      }
    }
    if (!pending.empty() && !groups.empty())
      groups.back().append(pending.begin(), pending.end());
    auto keptType = RankedTensorType::get(keptShape, storage);
    SmallVector<OpFoldResult> outputShape;
    for (int64_t d = 0; d < rank; ++d)
      outputShape.push_back(reduced[d] || !type.isDynamicDim(d)
                                ? OpFoldResult(b.getIndexAttr(keptShape[d]))
                                : OpFoldResult(tensor::DimOp::create(
                                      b, loc, input, d).getResult()));
    result = tensor::ExpandShapeOp::create(b, loc, keptType, result, groups,
                                           outputShape);
  }
  importer.setOutput(node, 0, importer.asOnnxType(result, onnxType, loc));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Clip, Round, Identity
//===----------------------------------------------------------------------===//

llvm::Error importClip(GraphImporter &importer, const Node &node) {
  int64_t opset = importer.getOpsetVersion(node);
  bool boundsAsInputs = opset >= 11;
  SmallVector<StringRef> allowed;
  if (!boundsAsInputs)
    allowed = {"min", "max"};
  if (llvm::Error error = importer.checkAttributes(node, allowed))
    return error;
  auto x = importer.getRequiredInput(node, 0);
  if (!x)
    return x.takeError();
  Type onnxType = tensorTypeOf(*x).getElementType();
  if (!isSupportedArithmeticType(onnxType))
    return importer.nodeError(node, "element type is not supported");
  SmallVector<Value> operands{*x};
  SmallVector<int> boundIndex{-1, -1}; // position in operands of lo, hi
  SmallVector<std::optional<float>> boundAttr(2);
  for (int i = 0; i < 2; ++i) {
    if (boundsAsInputs) {
      auto bound = importer.getInput(node, i + 1);
      if (!bound)
        return bound.takeError();
      if (!*bound)
        continue;
      if (tensorTypeOf(*bound).getElementType() != onnxType ||
          tensorTypeOf(*bound).getNumElements() != 1)
        return importer.nodeError(node, "min and max must be scalars of the "
                                        "input's type");
      boundIndex[i] = operands.size();
      operands.push_back(*bound);
    } else if (const pb::AttributeProto *attr =
                   importer.findAttribute(node, i == 0 ? "min" : "max")) {
      boundAttr[i] = attr->f();
    }
  }
  auto result = emitBroadcastElementwise(
      importer, node, operands, onnxType,
      [&](OpBuilder &nb, Location nloc, ValueRange args) -> Value {
        Value value = args[0];
        for (int i = 0; i < 2; ++i) {
          Value bound;
          if (boundIndex[i] >= 0)
            bound = args[boundIndex[i]];
          else if (boundAttr[i] && isa<FloatType>(onnxType))
            bound = arith::ConstantOp::create(
                nb, nloc, nb.getFloatAttr(onnxType, *boundAttr[i]));
          if (bound)
            value = emitMinMax(nb, nloc, value, bound, onnxType, i == 0);
        }
        return value;
      });
  if (!result)
    return result.takeError();
  importer.setOutput(node, 0, *result);
  return llvm::Error::success();
}

/// A one-input elementwise op without attributes: `body` on each element
/// of x, when `accepts` its ONNX type (else `typeError`).
llvm::Error importUnaryElementwise(GraphImporter &importer, const Node &node,
                                   llvm::function_ref<bool(Type)> accepts,
                                   StringRef typeError, BodyBuilder body) {
  if (llvm::Error error = importer.checkAttributes(node, {}))
    return error;
  auto x = importer.getRequiredInput(node, 0);
  if (!x)
    return x.takeError();
  Type onnxType = tensorTypeOf(*x).getElementType();
  if (!accepts(onnxType))
    return importer.nodeError(node, typeError);
  auto result = emitBroadcastElementwise(importer, node, *x, onnxType, body);
  if (!result)
    return result.takeError();
  importer.setOutput(node, 0, *result);
  return llvm::Error::success();
}

/// Relu: max(x, 0), NaN propagated (numpy.maximum's and onnxruntime's
/// reading); float, or signed integers (opset 14).
llvm::Error importRelu(GraphImporter &importer, const Node &node) {
  return importUnaryElementwise(
      importer, node,
      [](Type t) { return isSupportedArithmeticType(t) && !isUnsignedInt(t); },
      "element type is not supported",
      [](OpBuilder &b, Location loc, ValueRange args) -> Value {
        Type type = args[0].getType();
        Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
        // The storage type (a signless int for the signed types Relu takes)
        // picks maxsi, as si8.. would.
        return emitMinMax(b, loc, args[0], zero, type, /*isMax=*/true);
      });
}

/// Round: half to even; float.
llvm::Error importRound(GraphImporter &importer, const Node &node) {
  return importUnaryElementwise(
      importer, node,
      [](Type t) { return isa<FloatType>(t) && isSupportedArithmeticType(t); },
      "Round needs a float input",
      [](OpBuilder &b, Location loc, ValueRange args) -> Value {
        return math::RoundEvenOp::create(b, loc, args[0]);
      });
}

llvm::Error importIdentity(GraphImporter &importer, const Node &node) {
  if (llvm::Error error = importer.checkAttributes(node, {}))
    return error;
  auto x = importer.getRequiredInput(node, 0);
  if (!x)
    return x.takeError();
  importer.setOutput(node, 0, *x);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

/// float -> integer, saturating, NaN -> 0: clamp in f64 (exact bounds for
/// every type up to 32 bits; for 64-bit the largest f64 below 2^63/2^64).
Value emitFloatToIntSaturating(OpBuilder &b, Location loc, Value value,
                               IntegerType onnxTarget, Type storage) {
  FloatType f64 = b.getF64Type();
  if (value.getType() != f64)
    value = arith::ExtFOp::create(b, loc, f64, value);
  unsigned width = onnxTarget.getWidth();
  bool isUnsigned = onnxTarget.isUnsigned();
  double low = isUnsigned ? 0.0 : -std::ldexp(1.0, width - 1);
  double high = isUnsigned ? std::ldexp(1.0, width) - 1
                           : std::ldexp(1.0, width - 1) - 1;
  if (width == 64)
    high = std::nextafter(std::ldexp(1.0, isUnsigned ? 64 : 63), 0.0);
  Value zero = arith::ConstantOp::create(b, loc, b.getF64FloatAttr(0.0));
  Value isNaN =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, value, value);
  value = arith::SelectOp::create(b, loc, isNaN, zero, value);
  auto flags = arith::FastMathFlags::nnan | arith::FastMathFlags::nsz;
  value = arith::MaxNumFOp::create(
      b, loc, value,
      arith::ConstantOp::create(b, loc, b.getF64FloatAttr(low)), flags);
  value = arith::MinNumFOp::create(
      b, loc, value,
      arith::ConstantOp::create(b, loc, b.getF64FloatAttr(high)), flags);
  if (isUnsigned)
    return arith::FPToUIOp::create(b, loc, storage, value);
  return arith::FPToSIOp::create(b, loc, storage, value);
}

llvm::Error importCast(GraphImporter &importer, const Node &node) {
  if (llvm::Error error = importer.checkAttributes(node, {"to"}))
    return error;
  auto x = importer.getRequiredInput(node, 0);
  if (!x)
    return x.takeError();
  auto to = importer.getIntAttribute(node, "to");
  if (!to)
    return to.takeError();
  if (!*to)
    return importer.nodeError(node, "attribute 'to' is required");
  Type target = int64_t(int32_t(**to)) == **to
                    ? getOnnxElementType(importer.getContext(), int32_t(**to))
                    : Type();
  Type source = tensorTypeOf(*x).getElementType();
  // A 2- or 4-bit integer source is held sign- or zero-extended in i8
  // storage, so widening it is the i8 storage's cast. Sub-byte targets are
  // not taken: ONNX leaves int -> int4 open (wrap or clamp), and
  // onnxruntime clamps.
  bool subByteSource = isa<IntegerType>(source) &&
                       !source.isSignlessInteger() &&
                       source.getIntOrFloatBitWidth() < 8;
  if (!target || !isSupportedArithmeticType(target) ||
      !(isSupportedArithmeticType(source) || subByteSource))
    return importer.nodeError(
        node, llvm::formatv("Cast from {0} to {1} is not supported", source,
                            int64_t(int32_t(**to)) == **to
                                ? getOnnxDataTypeName(int32_t(**to))
                                : "data type " + std::to_string(**to)));
  Type storage = storageOf(target);
  auto result = emitBroadcastElementwise(
      importer, node, *x, target,
      [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
        Value value = args[0];
        auto sourceFloat = dyn_cast<FloatType>(source);
        auto targetFloat = dyn_cast<FloatType>(target);
        if (sourceFloat && targetFloat) {
          if (sourceFloat == targetFloat)
            return value;
          // f16 <-> bf16 (the same width, neither a truncation nor an
          // extension): extended to f32 exactly, then rounded once.
          if (sourceFloat.getWidth() == targetFloat.getWidth())
            value = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
          auto widthOf = [](Value v) {
            return cast<FloatType>(v.getType()).getWidth();
          };
          if (widthOf(value) < targetFloat.getWidth())
            return arith::ExtFOp::create(b, loc, targetFloat, value);
          return arith::TruncFOp::create(b, loc, targetFloat, value);
        }
        if (sourceFloat)
          return emitFloatToIntSaturating(b, loc, value,
                                          cast<IntegerType>(target), storage);
        if (targetFloat)
          return isUnsignedInt(source)
                     ? arith::UIToFPOp::create(b, loc, targetFloat, value)
                           .getResult()
                     : arith::SIToFPOp::create(b, loc, targetFloat, value)
                           .getResult();
        unsigned from = value.getType().getIntOrFloatBitWidth();
        unsigned toWidth = storage.getIntOrFloatBitWidth();
        if (from == toWidth)
          return value;
        if (from > toWidth)
          return arith::TruncIOp::create(b, loc, storage, value);
        return isUnsignedInt(source)
                   ? arith::ExtUIOp::create(b, loc, storage, value).getResult()
                   : arith::ExtSIOp::create(b, loc, storage, value)
                         .getResult();
      });
  if (!result)
    return result.takeError();
  importer.setOutput(node, 0, *result);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Constant
//===----------------------------------------------------------------------===//

llvm::Error importConstant(GraphImporter &importer, const Node &node) {
  if (node.attribute_size() != 1)
    return importer.nodeError(node, "expects exactly one value attribute");
  const pb::AttributeProto &attr = node.attribute(0);
  OpBuilder &b = importer.getBuilder();
  Location loc = importer.getLoc(node);
  Value value;
  if (attr.name() == "value") {
    if (!attr.has_t())
      return importer.nodeError(node, "attribute 'value' has no tensor");
    auto constant = importer.createConstant(attr.t(), loc,
                                            "node '" + node.name() + "'");
    if (!constant)
      return constant.takeError();
    value = *constant;
  } else if (attr.name() == "value_float" || attr.name() == "value_floats") {
    SmallVector<float> data;
    if (attr.name() == "value_float")
      data.push_back(attr.f());
    else
      data.assign(attr.floats().begin(), attr.floats().end());
    SmallVector<int64_t> shape;
    if (attr.name() == "value_floats")
      shape.push_back(data.size());
    auto type = RankedTensorType::get(shape, b.getF32Type());
    value = arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, ArrayRef<float>(data)));
  } else if (attr.name() == "value_int" || attr.name() == "value_ints") {
    SmallVector<int64_t> data;
    if (attr.name() == "value_int")
      data.push_back(attr.i());
    else
      data.assign(attr.ints().begin(), attr.ints().end());
    SmallVector<int64_t> shape;
    if (attr.name() == "value_ints")
      shape.push_back(data.size());
    auto type = RankedTensorType::get(shape, b.getI64Type());
    value = arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, ArrayRef<int64_t>(data)));
  } else {
    return importer.nodeError(node, "attribute '" + attr.name() +
                                        "' is not supported");
  }
  importer.setOutput(node, 0, value);
  return llvm::Error::success();
}

} // namespace

const NodeImporter *onnx::lookupFunctionBodyOpImporter(llvm::StringRef domain,
                                                       llvm::StringRef opType) {
  if (!isDefaultDomain(domain))
    return nullptr;
  static const llvm::StringMap<NodeImporter> importers = [] {
    llvm::StringMap<NodeImporter> map;
    map["Constant"] = importConstant;
    map["Identity"] = importIdentity;
    map["Round"] = importRound;
    map["Clip"] = importClip;
    map["Cast"] = importCast;
    map["ReduceMin"] = [](GraphImporter &i, const Node &n) {
      return importReduce(i, n, /*isMax=*/false);
    };
    map["ReduceMax"] = [](GraphImporter &i, const Node &n) {
      return importReduce(i, n, /*isMax=*/true);
    };
    map["Relu"] = importRelu;
    for (StringRef kind : {"Sub", "Mul", "Div", "Min", "Max"})
      map[kind] = [kind](GraphImporter &i, const Node &n) {
        return importBinaryOrVariadic(i, n, kind);
      };
    return map;
  }();
  auto it = importers.find(opType);
  return it == importers.end() ? nullptr : &it->second;
}
