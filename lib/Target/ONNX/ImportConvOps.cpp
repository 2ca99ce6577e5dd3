//===- ImportConvOps.cpp - ONNX's integer convolutions --------------------===//
//
// ai.onnx ConvInteger-10 and QLinearConv-10, each to its qops op, and the
// float Conv (1, 11, 22; f32 / f64) of QDQ models, to upstream linalg ops
// that --qops-fuse-qdq recognizes:
//
//   xp = tensor.pad x low[0, 0, pb..] high[0, 0, pe..] 0.0  (x when no pad)
//   y  = linalg.conv_1d_ncw_fcw / conv_2d_nchw_fchw / conv_3d_ncdhw_fcdhw
//          {strides, dilations} ins(xp, w) outs(linalg.fill 0.0)
//   y  = y + B[m]                       (a linalg.generic, when B is given)
//
// The named op's loops sum in increasing (c, k..) order, each product and
// partial sum rounded to the element type (docs/Numerics.md). Groups are
// taken for 2-D (x [N, G, C/G, H, W] and w [G, M/G, C/G, K..] expanded,
// linalg.conv_2d_ngchw_gfchw, y collapsed back), not for 1-D and 3-D.
//
// Their attributes are ONNX Conv's; the importer resolves auto_pad into
// explicit pads (qops convolutions carry pads only):
//
//   NOTSET  the pads attribute (0 when absent)
//   VALID   no padding
//   SAME_UPPER, SAME_LOWER
//           o = ceil(D / s), total = max(0, (o - 1) s + (K - 1) d + 1 - D),
//           split in two with the odd one at the end (UPPER) or at the
//           beginning (LOWER); needs a static D.
//
// kernel_shape, when given, must be w's spatial sizes.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::qops;
using namespace mlir::qops::onnx;

namespace {

using Node = GraphImporter::Node;

/// The attributes of a convolution node, as the qops ops take them.
struct ConvAttributes {
  SmallVector<int64_t> strides, dilations, pads;
  int64_t group = 1;
};

llvm::Expected<SmallVector<int64_t>>
readInts(GraphImporter &importer, const Node &node, StringRef name,
         size_t size, int64_t fill) {
  const auto *attr = importer.findAttribute(node, name);
  if (!attr)
    return SmallVector<int64_t>(size, fill);
  SmallVector<int64_t> values(attr->ints().begin(), attr->ints().end());
  if (values.size() != size)
    return importer.nodeError(
        node, llvm::formatv("{0} has {1} values, x's {2} spatial dimensions "
                            "need {3}",
                            name, values.size(), size / (name == "pads" ? 2 : 1),
                            size)
                  .str());
  return values;
}

/// Pads for auto_pad (see the file comment); `pads` keeps NOTSET's.
llvm::Error resolveAutoPad(GraphImporter &importer, const Node &node,
                           RankedTensorType x, RankedTensorType w,
                           ConvAttributes &attrs) {
  const auto *attr = importer.findAttribute(node, "auto_pad");
  std::string mode = attr ? attr->s() : "NOTSET";
  if (mode == "NOTSET")
    return llvm::Error::success();
  if (importer.findAttribute(node, "pads"))
    return importer.nodeError(node, "pads and auto_pad " + mode +
                                        " cannot both be given");
  int64_t spatial = x.getRank() - 2;
  if (mode == "VALID") {
    attrs.pads.assign(2 * spatial, 0);
    return llvm::Error::success();
  }
  if (mode != "SAME_UPPER" && mode != "SAME_LOWER")
    return importer.nodeError(node, "auto_pad '" + mode +
                                        "' is not NOTSET, SAME_UPPER, "
                                        "SAME_LOWER or VALID");
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t d = x.getDimSize(2 + i), k = w.getDimSize(2 + i);
    if (ShapedType::isDynamic(d) || ShapedType::isDynamic(k))
      return importer.nodeError(
          node, llvm::formatv("auto_pad {0} needs static spatial sizes "
                              "(spatial dimension {1} of x or w is dynamic)",
                              mode, i)
                    .str());
    int64_t s = attrs.strides[i];
    int64_t out = (d + s - 1) / s;
    int64_t total =
        std::max<int64_t>(0, (out - 1) * s + (k - 1) * attrs.dilations[i] + 1 - d);
    int64_t half = total / 2;
    attrs.pads[i] = mode == "SAME_UPPER" ? half : total - half;
    attrs.pads[spatial + i] = total - attrs.pads[i];
  }
  return llvm::Error::success();
}

llvm::Expected<ConvAttributes> readConvAttributes(GraphImporter &importer,
                                                  const Node &node,
                                                  StringRef opName, Value x,
                                                  Value w,
                                                  int64_t version = 10) {
  if (llvm::Error error = importer.checkAttributes(
          node,
          {"auto_pad", "dilations", "group", "kernel_shape", "pads",
           "strides"},
          version))
    return std::move(error);
  auto xType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  if (xType.getRank() < 3 || xType.getRank() > 5 ||
      wType.getRank() != xType.getRank())
    return importer.nodeError(node, opName + " takes x and w of rank 3, 4 "
                                             "or 5 (1-D to 3-D NCHW)");
  size_t spatial = xType.getRank() - 2;
  ConvAttributes attrs;
  for (auto [name, values, size, fill] :
       {std::make_tuple("strides", &attrs.strides, spatial, 1),
        std::make_tuple("dilations", &attrs.dilations, spatial, 1),
        std::make_tuple("pads", &attrs.pads, 2 * spatial, 0)}) {
    auto read = readInts(importer, node, name, size, fill);
    if (!read)
      return read.takeError();
    *values = std::move(*read);
  }
  auto kernel = readInts(importer, node, "kernel_shape", spatial,
                         ShapedType::kDynamic);
  if (!kernel)
    return kernel.takeError();
  for (size_t i = 0; i < spatial; ++i)
    if (!ShapedType::isDynamic((*kernel)[i]) &&
        !ShapedType::isDynamic(wType.getDimSize(2 + i)) &&
        (*kernel)[i] != wType.getDimSize(2 + i))
      return importer.nodeError(node, "kernel_shape differs from w's "
                                      "spatial sizes");
  auto group = importer.getIntAttribute(node, "group");
  if (!group)
    return group.takeError();
  attrs.group = group->value_or(1);
  if (llvm::Error error = resolveAutoPad(importer, node, xType, wType, attrs))
    return std::move(error);
  return attrs;
}

/// The result type: [N, M, o..] of `element`, o from convOutputSize (a
/// negative size, where the kernel does not fit, is left to the verifier).
RankedTensorType convResultType(Value x, Value w, const ConvAttributes &attrs,
                                Type element) {
  auto xType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  int64_t spatial = xType.getRank() - 2;
  SmallVector<int64_t> shape = {xType.getDimSize(0), wType.getDimSize(0)};
  for (int64_t i = 0; i < spatial; ++i)
    shape.push_back(convOutputSize(
        xType.getDimSize(2 + i), wType.getDimSize(2 + i), attrs.strides[i],
        attrs.dilations[i], attrs.pads[i], attrs.pads[spatial + i]));
  return RankedTensorType::get(shape, element);
}

template <typename OpTy>
void setConvAttributes(OpTy op, const ConvAttributes &attrs) {
  op.setStrides(attrs.strides);
  op.setDilations(attrs.dilations);
  op.setPads(attrs.pads);
  if (attrs.group != 1)
    op.setGroup(attrs.group);
}

/// ConvInteger-10: x, w, x_zero_point (optional), w_zero_point (optional).
llvm::Error importConvInteger(GraphImporter &importer, const Node &node) {
  if (importer.getOpsetVersion(node) < 10)
    return importer.nodeError(node, "ConvInteger needs opset >= 10");
  auto inputs = importer.getInputs(node, 4, 2);
  if (!inputs)
    return inputs.takeError();
  Value x = (*inputs)[0], w = (*inputs)[1];
  auto attrs = readConvAttributes(importer, node, "ConvInteger", x, w);
  if (!attrs)
    return attrs.takeError();
  auto op = ConvIntegerOp::create(
      importer.getBuilder(), importer.getLoc(node),
      convResultType(x, w, *attrs, importer.getBuilder().getI32Type()), x,
      (*inputs)[2], w, (*inputs)[3], Value(), Value(), nullptr, nullptr,
      nullptr, nullptr);
  setConvAttributes(op, *attrs);
  return importer.finishNode(node, op);
}

/// QLinearConv-10: x, x_scale, x_zero_point, w, w_scale, w_zero_point,
/// y_scale, y_zero_point, B (optional).
llvm::Error importQLinearConv(GraphImporter &importer, const Node &node) {
  if (importer.getOpsetVersion(node) < 10)
    return importer.nodeError(node, "QLinearConv needs opset >= 10");
  auto inputs = importer.getInputs(node, 9, 8);
  if (!inputs)
    return inputs.takeError();
  SmallVector<Value> &v = *inputs;
  auto attrs = readConvAttributes(importer, node, "QLinearConv", v[0], v[3]);
  if (!attrs)
    return attrs.takeError();
  Type yElement = cast<RankedTensorType>(v[7].getType()).getElementType();
  auto op = QLinearConvOp::create(
      importer.getBuilder(), importer.getLoc(node),
      convResultType(v[0], v[3], *attrs, yElement), v[0], v[1], v[2], v[3],
      v[4], v[5], v[6], v[7], v[8], nullptr, nullptr, nullptr, nullptr);
  setConvAttributes(op, *attrs);
  return importer.finishNode(node, op);
}

//===----------------------------------------------------------------------===//
// Conv (float)
//===----------------------------------------------------------------------===//

/// x padded with 0.0 on its spatial dims (x itself when no pad is > 0).
Value padWithZero(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> pads) {
  if (llvm::all_of(pads, [](int64_t p) { return p == 0; }))
    return x;
  size_t spatial = pads.size() / 2;
  SmallVector<OpFoldResult> low(2, b.getIndexAttr(0)), high(low);
  for (size_t i = 0; i < spatial; ++i) {
    low.push_back(b.getIndexAttr(pads[i]));
    high.push_back(b.getIndexAttr(pads[spatial + i]));
  }
  Type element = cast<RankedTensorType>(x.getType()).getElementType();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  return tensor::PadOp::create(b, loc, Type(), x, low, high, zero)
      .getResult();
}

/// The named convolution of xp and w into a zero init of `yType` (grouped:
/// the expanded operands, see the file comment).
Value emitFloatConv(OpBuilder &b, Location loc, Value xp, Value w,
                    RankedTensorType yType, const ConvAttributes &attrs) {
  auto strides = b.getI64TensorAttr(attrs.strides);
  auto dilations = b.getI64TensorAttr(attrs.dilations);
  Type element = yType.getElementType();
  auto create = [&](auto tag, Value x, Value filter, Value init) -> Value {
    using OpTy = decltype(tag);
    return OpTy::create(b, loc, init.getType(), ValueRange{x, filter},
                        ValueRange{init}, strides, dilations)
        .getResult(0);
  };
  int64_t spatial = yType.getRank() - 2;
  // y's sizes: the batch is x's (static or not), the rest static.
  auto initOf = [&](RankedTensorType type) {
    SmallVector<OpFoldResult> sizes = {tensor::getMixedSize(b, loc, xp, 0)};
    for (int64_t d : type.getShape().drop_front(1))
      sizes.push_back(b.getIndexAttr(d));
    return createZeroInit(b, loc, sizes, element);
  };
  if (attrs.group == 1) {
    Value init = initOf(yType);
    if (spatial == 1)
      return create(linalg::Conv1DNcwFcwOp(), xp, w, init);
    if (spatial == 2)
      return create(linalg::Conv2DNchwFchwOp(), xp, w, init);
    return create(linalg::Conv3DNcdhwFcdhwOp(), xp, w, init);
  }
  // x [N, C, H, W] -> [N, G, C/G, H, W]; w [M, C/G, K..] -> [G, M/G, C/G, K..]
  int64_t g = attrs.group;
  auto xType = cast<RankedTensorType>(xp.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  auto expand = [&](Value v, RankedTensorType type, int64_t dim) {
    SmallVector<int64_t> shape(type.getShape());
    shape[dim] = type.getDimSize(dim) / g;
    shape.insert(shape.begin() + dim, g);
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < type.getRank(); ++d)
      groups.push_back(d < dim    ? ReassociationIndices{d}
                       : d == dim ? ReassociationIndices{d, d + 1}
                                  : ReassociationIndices{d + 1});
    return tensor::ExpandShapeOp::create(
               b, loc, RankedTensorType::get(shape, type.getElementType()), v,
               groups)
        .getResult();
  };
  Value xg = expand(xp, xType, 1);
  Value wg = expand(w, wType, 0);
  SmallVector<int64_t> ygShape(yType.getShape());
  ygShape[1] /= g;
  ygShape.insert(ygShape.begin() + 1, g);
  Value init = initOf(RankedTensorType::get(ygShape, element));
  Value y = create(linalg::Conv2DNgchwGfchwOp(), xg, wg, init);
  return tensor::CollapseShapeOp::create(
             b, loc, yType, y,
             SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}})
      .getResult();
}

/// Conv (1, 11, 22): X, W, B (optional), float.
llvm::Error importConv(GraphImporter &importer, const Node &node) {
  auto inputs = importer.getInputs(node, 3, 2);
  if (!inputs)
    return inputs.takeError();
  Value x = (*inputs)[0], w = (*inputs)[1], bias = (*inputs)[2];
  auto xType = cast<RankedTensorType>(x.getType());
  Type element = xType.getElementType();
  if (!(element.isF32() || element.isF64()) ||
      cast<RankedTensorType>(w.getType()).getElementType() != element ||
      (bias && cast<RankedTensorType>(bias.getType()).getElementType() !=
                   element))
    return importer.nodeError(node, "Conv is supported for f32 and f64 "
                                    "(x, w and B of one type)");
  int64_t opset = importer.getOpsetVersion(node);
  auto attrs = readConvAttributes(importer, node, "Conv", x, w,
                                  opset >= 22 ? 22 : opset >= 11 ? 11 : 1);
  if (!attrs)
    return attrs.takeError();
  auto wType = cast<RankedTensorType>(w.getType());
  int64_t m = wType.getDimSize(0);
  if (!wType.hasStaticShape() ||
      llvm::any_of(xType.getShape().drop_front(1), ShapedType::isDynamic))
    return importer.nodeError(node, "Conv needs static channels, spatial "
                                    "sizes and weights (the batch may be "
                                    "dynamic)");
  if (attrs->group < 1 || xType.getDimSize(1) != attrs->group * wType.getDimSize(1) ||
      m % attrs->group != 0)
    return importer.nodeError(node, "Conv's group must divide C and M, "
                                    "with C = group * w's dim 1");
  if (attrs->group != 1 && xType.getRank() != 4)
    return importer.nodeError(node, "a grouped Conv is supported in 2-D only");
  if (bias && (cast<RankedTensorType>(bias.getType()).getRank() != 1 ||
               cast<RankedTensorType>(bias.getType()).getDimSize(0) != m))
    return importer.nodeError(node, "B must be 1-D of size M");
  RankedTensorType yType = convResultType(x, w, *attrs, element);
  if (llvm::any_of(yType.getShape().drop_front(2),
                   [](int64_t d) { return d != ShapedType::kDynamic && d < 1; }))
    return importer.nodeError(node, "the kernel does not fit the padded input");
  OpBuilder &b = importer.getBuilder();
  Location loc = importer.getLoc(node);
  Value y = emitFloatConv(b, loc, padWithZero(b, loc, x, attrs->pads), w,
                          yType, *attrs);
  if (bias) { // y[n, m, o..] + B[m]
    int64_t rank = yType.getRank();
    AffineMap identity = b.getMultiDimIdentityMap(rank);
    AffineMap channel =
        AffineMap::get(rank, 0, b.getAffineDimExpr(1), b.getContext());
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    y = linalg::GenericOp::create(
            b, loc, yType, ValueRange{y, bias},
            ValueRange{tensor::EmptyOp::create(
                b, loc, tensor::getMixedSizes(b, loc, y), element)},
            ArrayRef<AffineMap>{identity, channel, identity}, parallel,
            [](OpBuilder &nb, Location nl, ValueRange args) {
              linalg::YieldOp::create(
                  nb, nl,
                  ValueRange{arith::AddFOp::create(nb, nl, args[0], args[1])});
            })
            .getResult(0);
  }
  importer.setOutput(node, 0, y);
  return llvm::Error::success();
}

} // namespace

const NodeImporter *onnx::lookupConvOpImporter(llvm::StringRef domain,
                                               llvm::StringRef opType) {
  static const NodeImporter convInteger = importConvInteger;
  static const NodeImporter qlinearConv = importQLinearConv;
  static const NodeImporter conv = importConv;
  if (!isDefaultDomain(domain))
    return nullptr;
  if (opType == "ConvInteger")
    return &convInteger;
  if (opType == "QLinearConv")
    return &qlinearConv;
  if (opType == "Conv")
    return &conv;
  return nullptr;
}
