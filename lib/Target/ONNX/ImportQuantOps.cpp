//===- ImportQuantOps.cpp - ONNX's quantization operators -----------------===//
//
// ai.onnx QuantizeLinear / DequantizeLinear (opsets 10-25),
// DynamicQuantizeLinear-11, QLinearMatMul-10/21, MatMulInteger-10, and
// com.microsoft QuantizeLinear-1 / DequantizeLinear-1, each to its qops op.
//
// Versions and their attributes (a node may only carry those of its version,
// which is the newest one not above the model's opset):
//
//   QuantizeLinear    10: -   13: axis   19: + saturate
//                     21: + block_size, output_dtype   23, 24, 25: + precision
//   DequantizeLinear  10: -   13, 19: axis   21: + block_size
//                     23, 24, 25: + output_dtype
//   com.microsoft Q/DQ 1: axis (absent = per-tensor)
//
// ai.onnx's axis defaults to 1 from opset 13 on: the importer writes it
// explicitly, because an absent axis in qops means per-tensor only (the
// com.microsoft semantics). Opset 10 has no axis: per-tensor only.
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

/// The version of an operator a model of opset `opset` uses: the newest of
/// `versions` (ascending) not above it, or 0.
int64_t resolveVersion(int64_t opset, llvm::ArrayRef<int64_t> versions) {
  int64_t result = 0;
  for (int64_t v : versions)
    if (v <= opset)
      result = v;
  return result;
}

/// The attributes common to QuantizeLinear and DequantizeLinear.
struct QuantAttributes {
  IntegerAttr axis, blockSize;
  BoolAttr saturate;
  TypeAttr outputDtype, precision;
};

/// Reads an optional data-type attribute (0 = unset).
llvm::Error readTypeAttribute(GraphImporter &importer, const Node &node,
                              llvm::StringRef name, TypeAttr &result) {
  llvm::Expected<std::optional<int64_t>> value =
      importer.getIntAttribute(node, name);
  if (!value)
    return value.takeError();
  if (!*value || **value == 0)
    return llvm::Error::success();
  Type type = getOnnxElementType(importer.getContext(), int32_t(**value));
  if (!type || int64_t(int32_t(**value)) != **value)
    return importer.nodeError(node, llvm::formatv("attribute '{0}' = {1} is "
                                                  "not a supported data type",
                                                  name, **value));
  result = TypeAttr::get(type);
  return llvm::Error::success();
}

llvm::Expected<QuantAttributes>
readQuantAttributes(GraphImporter &importer, const Node &node,
                    llvm::ArrayRef<llvm::StringRef> allowed, int64_t version,
                    bool defaultAxisIsOne) {
  if (llvm::Error error = importer.checkAttributes(node, allowed, version))
    return std::move(error);
  OpBuilder &b = importer.getBuilder();
  QuantAttributes attrs;
  auto axis = importer.getIntAttribute(node, "axis");
  if (!axis)
    return axis.takeError();
  if (*axis)
    attrs.axis = b.getI64IntegerAttr(**axis);
  else if (defaultAxisIsOne)
    attrs.axis = b.getI64IntegerAttr(1);
  auto blockSize = importer.getIntAttribute(node, "block_size");
  if (!blockSize)
    return blockSize.takeError();
  if (*blockSize && **blockSize != 0)
    attrs.blockSize = b.getI64IntegerAttr(**blockSize);
  auto saturate = importer.getIntAttribute(node, "saturate");
  if (!saturate)
    return saturate.takeError();
  if (*saturate)
    attrs.saturate = b.getBoolAttr(**saturate != 0);
  if (llvm::Error error =
          readTypeAttribute(importer, node, "output_dtype", attrs.outputDtype))
    return std::move(error);
  if (llvm::Error error =
          readTypeAttribute(importer, node, "precision", attrs.precision))
    return std::move(error);
  return attrs;
}

/// The inputs of QuantizeLinear / DequantizeLinear: the data and the scale
/// (required) and the zero point (null when omitted).
llvm::Expected<std::tuple<Value, Value, Value>>
getQuantInputs(GraphImporter &importer, const Node &node) {
  auto x = importer.getRequiredInput(node, 0);
  if (!x)
    return x.takeError();
  auto scale = importer.getRequiredInput(node, 1);
  if (!scale)
    return scale.takeError();
  auto zeroPoint = importer.getInput(node, 2);
  if (!zeroPoint)
    return zeroPoint.takeError();
  return std::make_tuple(*x, *scale, *zeroPoint);
}

llvm::Error importQuantizeLinear(GraphImporter &importer, const Node &node) {
  bool microsoft = GraphImporter::isMicrosoftDomain(node);
  int64_t version = microsoft ? 1
                              : resolveVersion(importer.getOpsetVersion(node),
                                               {10, 13, 19, 21, 23, 24, 25});
  if (version == 0)
    return importer.nodeError(node, "QuantizeLinear needs opset >= 10");
  SmallVector<llvm::StringRef> allowed;
  if (microsoft || version >= 13)
    allowed.push_back("axis");
  if (!microsoft && version >= 19)
    allowed.push_back("saturate");
  if (!microsoft && version >= 21)
    allowed.append({"block_size", "output_dtype"});
  if (!microsoft && version >= 23)
    allowed.push_back("precision");
  auto attrs = readQuantAttributes(importer, node, allowed, version,
                                   /*defaultAxisIsOne=*/!microsoft &&
                                       version >= 13);
  if (!attrs)
    return attrs.takeError();
  auto inputs = getQuantInputs(importer, node);
  if (!inputs)
    return inputs.takeError();
  auto [x, scale, zeroPoint] = *inputs;
  auto op = QuantizeLinearOp::create(
      importer.getBuilder(), importer.getLoc(node), x, scale, zeroPoint,
      attrs->axis, attrs->blockSize, attrs->saturate, attrs->outputDtype,
      attrs->precision);
  return importer.finishNode(node, op);
}

llvm::Error importDequantizeLinear(GraphImporter &importer, const Node &node) {
  bool microsoft = GraphImporter::isMicrosoftDomain(node);
  int64_t version = microsoft ? 1
                              : resolveVersion(importer.getOpsetVersion(node),
                                               {10, 13, 19, 21, 23, 24, 25});
  if (version == 0)
    return importer.nodeError(node, "DequantizeLinear needs opset >= 10");
  SmallVector<llvm::StringRef> allowed;
  if (microsoft || version >= 13)
    allowed.push_back("axis");
  if (!microsoft && version >= 21)
    allowed.push_back("block_size");
  if (!microsoft && version >= 23)
    allowed.push_back("output_dtype");
  auto attrs = readQuantAttributes(importer, node, allowed, version,
                                   /*defaultAxisIsOne=*/!microsoft &&
                                       version >= 13);
  if (!attrs)
    return attrs.takeError();
  auto inputs = getQuantInputs(importer, node);
  if (!inputs)
    return inputs.takeError();
  auto [x, scale, zeroPoint] = *inputs;
  auto op = DequantizeLinearOp::create(
      importer.getBuilder(), importer.getLoc(node), x, scale, zeroPoint,
      attrs->axis, attrs->blockSize, attrs->outputDtype);
  return importer.finishNode(node, op);
}

llvm::Error importDynamicQuantizeLinear(GraphImporter &importer,
                                        const Node &node) {
  if (importer.getOpsetVersion(node) < 11)
    return importer.nodeError(node, "DynamicQuantizeLinear needs opset >= 11");
  if (llvm::Error error = importer.checkAttributes(node, {}, 11))
    return error;
  auto x = importer.getRequiredInput(node, 0);
  if (!x)
    return x.takeError();
  auto op = DynamicQuantizeLinearOp::create(importer.getBuilder(),
                                            importer.getLoc(node), *x);
  return importer.finishNode(node, op);
}

llvm::Error importQLinearMatMul(GraphImporter &importer, const Node &node) {
  int64_t version =
      resolveVersion(importer.getOpsetVersion(node), {10, 21});
  if (version == 0)
    return importer.nodeError(node, "QLinearMatMul needs opset >= 10");
  if (llvm::Error error = importer.checkAttributes(node, {}, version))
    return error;
  auto inputs = importer.getInputs(node, 8, 8);
  if (!inputs)
    return inputs.takeError();
  SmallVector<Value> &operands = *inputs;
  // The result type comes from the operands: check them first, so a bad
  // shape is a message and not a failed assertion in the builder.
  auto aType = cast<RankedTensorType>(operands[0].getType());
  auto bType = cast<RankedTensorType>(operands[3].getType());
  FailureOr<SmallVector<int64_t>> shape =
      QLinearMatMulOp::inferResultShape(aType.getShape(), bType.getShape());
  if (failed(shape))
    return importer.nodeError(node, "the shapes of a and b do not combine "
                                    "for a matrix product");
  auto resultType = RankedTensorType::get(
      *shape,
      cast<RankedTensorType>(operands[7].getType()).getElementType());
  auto op = QLinearMatMulOp::create(
      importer.getBuilder(), importer.getLoc(node), resultType, operands[0],
      operands[1], operands[2], operands[3], operands[4], operands[5],
      operands[6], operands[7]);
  return importer.finishNode(node, op);
}

/// MatMulInteger-10: a, b and their optional zero points; y int32.
llvm::Error importMatMulInteger(GraphImporter &importer, const Node &node) {
  if (resolveVersion(importer.getOpsetVersion(node), {10}) == 0)
    return importer.nodeError(node, "MatMulInteger needs opset >= 10");
  if (llvm::Error error = importer.checkAttributes(node, {}, 10))
    return error;
  // Inputs: A, B, a_zero_point (optional), b_zero_point (optional).
  auto inputs = importer.getInputs(node, 4, 2);
  if (!inputs)
    return inputs.takeError();
  SmallVector<Value> &operands = *inputs;
  // Check the shapes before the builder infers the result from them.
  auto aType = cast<RankedTensorType>(operands[0].getType());
  auto bType = cast<RankedTensorType>(operands[1].getType());
  FailureOr<SmallVector<int64_t>> shape =
      QLinearMatMulOp::inferResultShape(aType.getShape(), bType.getShape());
  if (failed(shape))
    return importer.nodeError(node, "the shapes of a and b do not combine "
                                    "for a matrix product");
  auto resultType =
      RankedTensorType::get(*shape, importer.getBuilder().getI32Type());
  auto op = MatMulIntegerOp::create(importer.getBuilder(),
                                    importer.getLoc(node), resultType,
                                    operands[0], operands[2], operands[1],
                                    operands[3], Value(), Value());
  return importer.finishNode(node, op);
}

} // namespace

const NodeImporter *onnx::lookupQuantOpImporter(llvm::StringRef domain,
                                                llvm::StringRef opType) {
  static const NodeImporter quantize = importQuantizeLinear;
  static const NodeImporter dequantize = importDequantizeLinear;
  static const NodeImporter dynamic = importDynamicQuantizeLinear;
  static const NodeImporter matmul = importQLinearMatMul;
  static const NodeImporter matmulInteger = importMatMulInteger;
  if (domain == "com.microsoft") {
    if (opType == "QuantizeLinear")
      return &quantize;
    if (opType == "DequantizeLinear")
      return &dequantize;
    return nullptr;
  }
  if (!isDefaultDomain(domain))
    return nullptr;
  if (opType == "QuantizeLinear")
    return &quantize;
  if (opType == "DequantizeLinear")
    return &dequantize;
  if (opType == "DynamicQuantizeLinear")
    return &dynamic;
  if (opType == "QLinearMatMul")
    return &matmul;
  if (opType == "MatMulInteger")
    return &matmulInteger;
  return nullptr;
}
