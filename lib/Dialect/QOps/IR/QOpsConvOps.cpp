//===- QOpsConvOps.cpp - qops convolutions: attributes and verifiers ------===//
//
// ConvInteger and QLinearConv share their attributes and every check but
// the types of y and the requantization parameters. Every verifier message
// starts with a constraint label (QOpsOps.td, test/Dialect/QOps/invalid.mlir).
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"

#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"
#include "QuantOps/Dialect/QOps/IR/QuantParams.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::qops;

int64_t qops::convOutputSize(int64_t d, int64_t k, int64_t stride,
                             int64_t dilation, int64_t padBegin,
                             int64_t padEnd) {
  if (ShapedType::isDynamic(d) || ShapedType::isDynamic(k))
    return ShapedType::kDynamic;
  int64_t span = d + padBegin + padEnd - ((k - 1) * dilation + 1);
  if (span < 0)
    return 0;
  return span / stride + 1;
}

namespace {

RankedTensorType rankedType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

bool isOneElement(RankedTensorType type) {
  return type.hasStaticShape() && type.getNumElements() == 1;
}

/// An attribute's values, or `size` copies of `fill` when it is absent.
SmallVector<int64_t> orDefault(std::optional<ArrayRef<int64_t>> values,
                               int64_t size, int64_t fill) {
  if (values)
    return llvm::to_vector(*values);
  return SmallVector<int64_t>(size, fill);
}

/// What both convolutions are checked for. `yInteger`: ConvInteger's y
/// (i32) rather than QLinearConv's (si8 / ui8, typed like y_zero_point).
struct ConvOperands {
  Value x, xZeroPoint, w, wZeroPoint, yZeroPoint, dequantScale;
  RankedTensorType y;
  std::optional<ArrayRef<int64_t>> strides, dilations, pads;
  std::optional<int64_t> group;
};

LogicalResult verifyConvTypes(Operation *op, const ConvOperands &c) {
  struct Operand {
    StringRef name;
    Value data, zeroPoint;
  };
  for (Operand operand : {Operand{"x", c.x, c.xZeroPoint},
                          Operand{"w", c.w, c.wZeroPoint}}) {
    Type element = rankedType(operand.data).getElementType();
    if (!isInt8Type(element))
      return op->emitOpError()
             << "conv_" << operand.name << "_type: " << operand.name
             << " must be si8 or ui8, got " << element;
    if (operand.zeroPoint &&
        rankedType(operand.zeroPoint).getElementType() != element)
      return op->emitOpError()
             << "conv_zp_type: " << operand.name << "_zero_point has type "
             << rankedType(operand.zeroPoint).getElementType() << " but "
             << operand.name << " has " << element;
  }
  Type yElement = c.y.getElementType();
  if (c.dequantScale) {
    if (!yElement.isF32())
      return op->emitOpError()
             << "conv_y_type: y must be f32 with dequantize, got " << yElement;
    return success();
  }
  if (!c.yZeroPoint) {
    if (!isInt32Type(yElement))
      return op->emitOpError()
             << "conv_y_type: y must be i32 or si32, got " << yElement;
    return success();
  }
  if (!isInt8Type(yElement))
    return op->emitOpError()
           << "conv_y_type: y must be si8 or ui8, got " << yElement;
  if (rankedType(c.yZeroPoint).getElementType() != yElement)
    return op->emitOpError()
           << "conv_zp_type: y_zero_point has type "
           << rankedType(c.yZeroPoint).getElementType() << " but y has "
           << yElement;
  return success();
}

LogicalResult verifyConvAttributes(Operation *op, const ConvOperands &c,
                                   int64_t spatial) {
  struct Attr {
    StringRef name;
    std::optional<ArrayRef<int64_t>> values;
    int64_t size, minimum;
  };
  for (const Attr &attr : {Attr{"strides", c.strides, spatial, 1},
                           Attr{"dilations", c.dilations, spatial, 1},
                           Attr{"pads", c.pads, 2 * spatial, 0}}) {
    if (!attr.values)
      continue;
    if (static_cast<int64_t>(attr.values->size()) != attr.size)
      return op->emitOpError()
             << "conv_attr_size: " << attr.name << " has "
             << attr.values->size() << " values, the " << spatial
             << "-D convolution needs " << attr.size;
    for (int64_t v : *attr.values)
      if (v < attr.minimum)
        return op->emitOpError() << "conv_attr_value: " << attr.name
                                 << " must be >= " << attr.minimum
                                 << ", got " << v;
  }
  if (c.group && *c.group < 1)
    return op->emitOpError()
           << "conv_attr_value: group must be >= 1, got " << *c.group;
  return success();
}

LogicalResult verifyConvShapes(Operation *op, const ConvOperands &c) {
  RankedTensorType x = rankedType(c.x), w = rankedType(c.w);
  int64_t rank = x.getRank();
  if (rank < 3 || rank > 5 || w.getRank() != rank)
    return op->emitOpError()
           << "conv_rank: x and w must both have rank 3, 4 or 5 (1-D to 3-D "
           << "NCHW), got " << x << " and " << w;
  int64_t spatial = rank - 2;
  if (failed(verifyConvAttributes(op, c, spatial)))
    return failure();
  int64_t group = c.group.value_or(1);
  int64_t channels = x.getDimSize(1), m = w.getDimSize(0);
  int64_t groupChannels = w.getDimSize(1);
  if ((!ShapedType::isDynamic(channels) &&
       !ShapedType::isDynamic(groupChannels) &&
       channels != groupChannels * group) ||
      (!ShapedType::isDynamic(m) && m % group != 0))
    return op->emitOpError()
           << "conv_group: x has " << channels << " channels and w " << m
           << " x " << groupChannels << ", which group = " << group
           << " does not split (C = group * w's dim 1, group divides M)";
  if (c.xZeroPoint && !isOneElement(rankedType(c.xZeroPoint)))
    return op->emitOpError() << "conv_x_zp_shape: x_zero_point must have one "
                             << "element, got " << rankedType(c.xZeroPoint);
  if (c.wZeroPoint) {
    RankedTensorType zp = rankedType(c.wZeroPoint);
    bool perChannel = zp.getRank() == 1 &&
                      succeeded(verifyCompatibleShape(zp.getShape(), {m}));
    if (!isOneElement(zp) && !perChannel)
      return op->emitOpError()
             << "conv_w_zp_shape: w_zero_point of " << zp
             << " is not one element or [M] with M = " << m;
  }
  SmallVector<int64_t> strides = orDefault(c.strides, spatial, 1);
  SmallVector<int64_t> dilations = orDefault(c.dilations, spatial, 1);
  SmallVector<int64_t> pads = orDefault(c.pads, 2 * spatial, 0);
  SmallVector<int64_t> shape = {x.getDimSize(0), m};
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t o = convOutputSize(x.getDimSize(2 + i), w.getDimSize(2 + i),
                               strides[i], dilations[i], pads[i],
                               pads[spatial + i]);
    if (o == 0)
      return op->emitOpError()
             << "conv_y_shape: spatial dimension " << i << " (" << x.getDimSize(2 + i)
             << ", padded by " << pads[i] << " and " << pads[spatial + i]
             << ") is shorter than the dilated kernel ("
             << w.getDimSize(2 + i) << ", dilation " << dilations[i] << ")";
    shape.push_back(o);
  }
  if (c.y.getRank() != rank ||
      failed(verifyCompatibleShape(c.y.getShape(), shape)))
    return op->emitOpError()
           << "conv_y_shape: y has type " << c.y << " but x, w and the "
           << "attributes give shape "
           << RankedTensorType::get(shape, c.y.getElementType());
  return success();
}

LogicalResult verifyConv(Operation *op, const ConvOperands &c) {
  if (failed(verifyConvTypes(op, c)))
    return failure();
  return verifyConvShapes(op, c);
}

} // namespace

#define QOPS_CONV_METHODS(OP)                                                  \
  int64_t OP::getSpatialRank() { return getX().getType().getRank() - 2; }     \
  SmallVector<int64_t> OP::getStridesOrDefault() {                             \
    return orDefault(getStrides(), getSpatialRank(), 1);                       \
  }                                                                            \
  SmallVector<int64_t> OP::getDilationsOrDefault() {                           \
    return orDefault(getDilations(), getSpatialRank(), 1);                     \
  }                                                                            \
  SmallVector<int64_t> OP::getPadsOrDefault() {                                \
    return orDefault(getPads(), 2 * getSpatialRank(), 0);                      \
  }                                                                            \
  int64_t OP::getGroupOrDefault() { return getGroup().value_or(1); }

QOPS_CONV_METHODS(ConvIntegerOp)
QOPS_CONV_METHODS(QLinearConvOp)
#undef QOPS_CONV_METHODS

//===----------------------------------------------------------------------===//
// ConvIntegerOp
//===----------------------------------------------------------------------===//

LogicalResult ConvIntegerOp::verify() {
  if (getDequantOffset() && !getDequantScale())
    return emitOpError() << "conv_dequantize: an offset needs a scale";
  if (failed(verifyConv(*this, {getX(), getXZeroPoint(), getW(),
                                getWZeroPoint(), Value(), getDequantScale(),
                                getY().getType(), getStrides(),
                                getDilations(), getPads(), getGroup()})))
    return failure();
  return verifyDequantizeClause(getDequantScale(), getDequantOffset(),
                                getW().getType().getDimSize(0),
                                "conv_dequantize",
                                [&] { return emitOpError(); });
}

//===----------------------------------------------------------------------===//
// QLinearConvOp
//===----------------------------------------------------------------------===//

LogicalResult QLinearConvOp::verify() {
  if (failed(verifyConv(*this,
                        {getX(), getXZeroPoint(), getW(), getWZeroPoint(),
                         getYZeroPoint(), Value(), getY().getType(),
                         getStrides(),
                         getDilations(), getPads(), getGroup()})))
    return failure();
  int64_t m = getW().getType().getDimSize(0);
  for (Value scale : {getXScale(), getWScale(), getYScale()})
    if (!rankedType(scale).getElementType().isF32())
      return emitOpError() << "qlinearconv_scale_type: scales must be f32, "
                           << "got " << rankedType(scale).getElementType();
  for (Value param : {getXScale(), getXZeroPoint(), getYScale(),
                      getYZeroPoint()})
    if (!isOneElement(rankedType(param)))
      return emitOpError() << "qlinearconv_params_shape: x's and y's scales "
                           << "and zero points have one element, got "
                           << rankedType(param);
  RankedTensorType wScale = rankedType(getWScale());
  if (!isOneElement(wScale) &&
      (wScale.getRank() != 1 ||
       failed(verifyCompatibleShape(wScale.getShape(), {m}))))
    return emitOpError() << "qlinearconv_params_shape: w_scale of " << wScale
                         << " is not one element or [M] with M = " << m;
  if (Value bias = getBias()) {
    RankedTensorType type = rankedType(bias);
    if (!isInt32Type(type.getElementType()) || type.getRank() != 1 ||
        failed(verifyCompatibleShape(type.getShape(), {m})))
      return emitOpError() << "qlinearconv_bias: bias must be i32 [M] with "
                           << "M = " << m << ", got " << type;
  }
  return success();
}
