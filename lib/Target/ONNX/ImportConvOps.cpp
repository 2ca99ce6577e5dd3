//===- ImportConvOps.cpp - ONNX's integer convolutions --------------------===//
//
// ai.onnx ConvInteger-10 and QLinearConv-10, each to its qops op. Their
// attributes are ONNX Conv's; the importer resolves auto_pad into explicit
// pads (qops convolutions carry pads only):
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
                                                  Value w) {
  if (llvm::Error error = importer.checkAttributes(
          node,
          {"auto_pad", "dilations", "group", "kernel_shape", "pads",
           "strides"},
          10))
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

} // namespace

const NodeImporter *onnx::lookupConvOpImporter(llvm::StringRef domain,
                                               llvm::StringRef opType) {
  static const NodeImporter convInteger = importConvInteger;
  static const NodeImporter qlinearConv = importQLinearConv;
  if (!isDefaultDomain(domain))
    return nullptr;
  if (opType == "ConvInteger")
    return &convInteger;
  if (opType == "QLinearConv")
    return &qlinearConv;
  return nullptr;
}
