//===- OnnxImporter.cpp - ONNX model to the qops dialect ------------------===//
//
// The graph walk: opsets, graph inputs, initializers, nodes in order (ONNX
// requires a topological order), graph outputs. Node-specific import is in
// ImportQuantOps.cpp and ImportFunctionBodyOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"

#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h"
#include "QuantOps/Target/ONNX/OnnxTensor.h"
#include "QuantOps/Utils/ConstantBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::qops;
using namespace mlir::qops::onnx;
namespace pb = ::quantops::onnx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static std::string typeToString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

Type onnx::getOnnxElementType(MLIRContext *ctx, int32_t dataType) {
  auto signedInt = [&](unsigned width) {
    return IntegerType::get(ctx, width, IntegerType::Signed);
  };
  auto unsignedInt = [&](unsigned width) {
    return IntegerType::get(ctx, width, IntegerType::Unsigned);
  };
  switch (static_cast<OnnxDataType>(dataType)) {
  case OnnxDataType::Float:
    return Float32Type::get(ctx);
  case OnnxDataType::UInt8:
    return unsignedInt(8);
  case OnnxDataType::Int8:
    return signedInt(8);
  case OnnxDataType::UInt16:
    return unsignedInt(16);
  case OnnxDataType::Int16:
    return signedInt(16);
  case OnnxDataType::Int32:
    return IntegerType::get(ctx, 32);
  case OnnxDataType::Int64:
    return IntegerType::get(ctx, 64);
  case OnnxDataType::Bool:
    return IntegerType::get(ctx, 1);
  case OnnxDataType::Float16:
    return Float16Type::get(ctx);
  case OnnxDataType::Double:
    return Float64Type::get(ctx);
  case OnnxDataType::BFloat16:
    return BFloat16Type::get(ctx);
  case OnnxDataType::Float8E4M3FN:
    return Float8E4M3FNType::get(ctx);
  case OnnxDataType::Float8E4M3FNUZ:
    return Float8E4M3FNUZType::get(ctx);
  case OnnxDataType::Float8E5M2:
    return Float8E5M2Type::get(ctx);
  case OnnxDataType::Float8E5M2FNUZ:
    return Float8E5M2FNUZType::get(ctx);
  case OnnxDataType::UInt4:
    return unsignedInt(4);
  case OnnxDataType::Int4:
    return signedInt(4);
  case OnnxDataType::Float4E2M1:
    return Float4E2M1FNType::get(ctx);
  case OnnxDataType::Float8E8M0:
    return Float8E8M0FNUType::get(ctx);
  case OnnxDataType::UInt2:
    return unsignedInt(2);
  case OnnxDataType::Int2:
    return signedInt(2);
  default:
    return nullptr;
  }
}

void onnx::registerOnnxImporterDialects(DialectRegistry &registry) {
  registry.insert<QOpsDialect, arith::ArithDialect, cf::ControlFlowDialect,
                  func::FuncDialect, linalg::LinalgDialect, math::MathDialect,
                  tensor::TensorDialect>();
}

//===----------------------------------------------------------------------===//
// Helpers for node importers
//===----------------------------------------------------------------------===//

Location GraphImporter::getLoc(const Node &node) const {
  Location file =
      FileLineColLoc::get(context, options.modelName, /*line=*/0, /*col=*/0);
  std::string name = node.name().empty() ? node.op_type() : node.name();
  return NameLoc::get(StringAttr::get(context, name), file);
}

llvm::Error GraphImporter::nodeError(const Node &node,
                                     const llvm::Twine &reason) const {
  // Names are quoted as they are; importOnnxModel escapes control bytes in
  // the whole message, so it stays one line.
  std::string domain = node.domain().empty() ? "ai.onnx" : node.domain();
  return makeError(llvm::formatv("node '{0}' ({1}, domain {2}): {3}",
                                 node.name(), node.op_type(), domain,
                                 reason.str()));
}

bool GraphImporter::isMicrosoftDomain(const Node &node) {
  return node.domain() == "com.microsoft";
}

int64_t GraphImporter::getOpsetVersion(const Node &node) const {
  std::string domain = isDefaultDomain(node.domain()) ? "" : node.domain();
  auto it = opsets.find(domain);
  return it == opsets.end() ? 0 : it->second;
}

llvm::Expected<Value> GraphImporter::getInput(const Node &node,
                                              int index) const {
  if (index >= node.input_size() || node.input(index).empty())
    return Value();
  auto it = values.find(node.input(index));
  if (it == values.end())
    return nodeError(node, "input '" + node.input(index) +
                               "' is not a graph input, an initializer or "
                               "the output of an earlier node");
  return it->second;
}

llvm::Expected<Value> GraphImporter::getRequiredInput(const Node &node,
                                                      int index) const {
  llvm::Expected<Value> value = getInput(node, index);
  if (value && !*value)
    return nodeError(node, llvm::formatv("required input #{0} is missing",
                                         index));
  return value;
}

void GraphImporter::setOutput(const Node &node, int index, Value value) {
  if (index < node.output_size() && !node.output(index).empty())
    values[node.output(index)] = value;
}

llvm::Expected<SmallVector<Value>>
GraphImporter::getInputs(const Node &node, int count, int required) const {
  SmallVector<Value> inputs;
  for (int i = 0; i < count; ++i) {
    llvm::Expected<Value> input =
        i < required ? getRequiredInput(node, i) : getInput(node, i);
    if (!input)
      return input.takeError();
    inputs.push_back(*input);
  }
  return inputs;
}

llvm::Error GraphImporter::finishNode(const Node &node, Operation *op) {
  if (llvm::Error error = verifyNodeOp(node, op))
    return error;
  for (auto [index, result] : llvm::enumerate(op->getResults()))
    setOutput(node, index, result);
  return llvm::Error::success();
}

const pb::AttributeProto *
GraphImporter::findAttribute(const Node &node, llvm::StringRef name) const {
  for (const pb::AttributeProto &attribute : node.attribute())
    if (attribute.name() == name)
      return &attribute;
  return nullptr;
}

llvm::Error GraphImporter::checkAttributes(const Node &node,
                                           llvm::ArrayRef<llvm::StringRef>
                                               allowed,
                                           int64_t version) const {
  for (const pb::AttributeProto &attribute : node.attribute())
    if (!llvm::is_contained(allowed, attribute.name()))
      return nodeError(node, llvm::formatv("attribute '{0}' is not part of "
                                           "{1}-{2}",
                                           attribute.name(), node.op_type(),
                                           version));
  return llvm::Error::success();
}

llvm::Error GraphImporter::checkAttributes(
    const Node &node, llvm::ArrayRef<llvm::StringRef> allowed) const {
  for (const pb::AttributeProto &attribute : node.attribute())
    if (!llvm::is_contained(allowed, attribute.name()))
      return nodeError(node, llvm::formatv("attribute '{0}' is not supported "
                                           "for {1} at opset {2}",
                                           attribute.name(), node.op_type(),
                                           getOpsetVersion(node)));
  return llvm::Error::success();
}

llvm::Expected<std::optional<int64_t>>
GraphImporter::getIntAttribute(const Node &node, llvm::StringRef name) const {
  const pb::AttributeProto *attribute = findAttribute(node, name);
  if (!attribute)
    return std::optional<int64_t>();
  // AttributeProto.type: INT = 2. Older writers leave type unset.
  if ((attribute->has_type() && attribute->type() != 2) ||
      (!attribute->has_type() && !attribute->has_i()))
    return nodeError(node, "attribute '" + name + "' must be an int");
  return std::optional<int64_t>(attribute->i());
}

Value GraphImporter::asOnnxType(Value value, Type onnxElementType,
                                Location loc) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getElementType() == onnxElementType)
    return value;
  return UnrealizedConversionCastOp::create(builder, loc,
                                            type.clone(onnxElementType),
                                            value)
      .getResult(0);
}

Value GraphImporter::asStorageType(Value value, Location loc) {
  auto type = cast<RankedTensorType>(value.getType());
  auto intType = dyn_cast<IntegerType>(type.getElementType());
  if (!intType || intType.isSignless())
    return value;
  Type storage = IntegerType::get(context, std::max(8u, intType.getWidth()));
  return UnrealizedConversionCastOp::create(builder, loc,
                                            type.clone(storage), value)
      .getResult(0);
}

llvm::Expected<OnnxTensor>
GraphImporter::decodeInitializer(const pb::TensorProto &proto,
                                 llvm::StringRef what) const {
  TensorLoadOptions loadOptions;
  loadOptions.baseDir = options.modelDir;
  loadOptions.maxBytes = options.maxTensorBytes;
  loadOptions.borrowRawData = true; // the attribute copies the bytes
  if (options.rawData)
    if (auto left = options.rawData->find(&proto);
        left != options.rawData->end())
      loadOptions.rawData = left->second;
  llvm::Expected<OnnxTensor> tensor = decodeTensorProto(proto, loadOptions);
  if (!tensor)
    return makeError(what + ": " + llvm::toString(tensor.takeError()));
  return tensor;
}

/// `raw` where the model file holds it (OnnxImportOptions::rawDataOwner),
/// from kViewedConstantBytes on and aligned for its elements of
/// `elementBytes`: a blob that views those bytes and keeps the file. A
/// dense attribute's copy and hash cost fresh pages for every weight: the
/// parse of FFN12 (28 MB of weights) went from 24.5 to 2.5 ms without
/// them, that of one 768 x 3072 weight from 3.6 to 1.5 (Zen 4).
std::optional<AsmResourceBlob>
GraphImporter::viewFileBytes(ArrayRef<char> raw, unsigned elementBytes) const {
  const std::shared_ptr<const llvm::MemoryBuffer> &file = options.rawDataOwner;
  if (!file || static_cast<int64_t>(raw.size()) < kViewedConstantBytes ||
      raw.data() < file->getBufferStart() ||
      raw.data() + raw.size() > file->getBufferEnd() ||
      reinterpret_cast<uintptr_t>(raw.data()) % elementBytes)
    return std::nullopt;
  return AsmResourceBlob(
      raw, elementBytes, [file](void *, size_t, size_t) {},
      /*dataIsMutable=*/false);
}

llvm::Expected<Value>
GraphImporter::createConstant(const pb::TensorProto &proto, Location loc,
                              llvm::StringRef what) {
  llvm::Expected<OnnxTensor> tensor = decodeInitializer(proto, what);
  if (!tensor)
    return tensor.takeError();
  Type element = getOnnxElementType(context, tensor->dataType);
  if (!element)
    return makeError(what + ": data type " +
                     getOnnxDataTypeName(tensor->dataType) +
                     " is not supported");
  auto type = RankedTensorType::get(tensor->dims, element);
  unsigned width = element.getIntOrFloatBitWidth();
  DenseElementsAttr attr;
  int64_t count = tensor->numElements();
  if (width > 1 && width < 8 && count >= kViewedConstantBytes &&
      tensor->data.size() == size_t(count)) {
    // A large f4E2M1FN or 4/2-bit integer constant keeps the decoder's
    // bytes, one element per byte, INT4 / INT2 sign-extended and the rest
    // zero-extended: the i8 storage form (ConstantBytes.h), in a
    // dense_resource that owns them. The masked copy and the dense
    // attribute's copy and hash below cost 16 MB of fresh pages each for
    // 4096 x 4096 int4 weights; the storage conversion views these.
    auto owned =
        std::make_unique<std::vector<uint8_t>>(std::move(tensor->data));
    ArrayRef<char> bytes(reinterpret_cast<const char *>(owned->data()),
                         owned->size());
    AsmResourceBlob blob(
        bytes, /*dataAlignment=*/1,
        [owned = std::move(owned)](void *, size_t, size_t) {},
        /*dataIsMutable=*/false);
    return arith::ConstantOp::create(
               builder, loc,
               cast<TypedAttr>(ownConstantBytes(type, std::move(blob))))
        .getResult();
  }
  if (width % 8 == 0 && count > 0) {
    // Byte-aligned types: the decoded little-endian bytes are the raw
    // buffer of the attribute.
    ArrayRef<uint8_t> bytes = tensor->getBytes();
    ArrayRef<char> raw(reinterpret_cast<const char *>(bytes.data()),
                       bytes.size());
    if (std::optional<AsmResourceBlob> view = viewFileBytes(raw, width / 8))
      return arith::ConstantOp::create(
                 builder, loc,
                 cast<TypedAttr>(ownConstantBytes(type, std::move(*view))))
          .getResult();
    attr = DenseElementsAttr::getFromRawBuffer(type, raw);
  } else if (width > 1 && count > 0) {
    // f4E2M1FN and the 4/2-bit integers: the attribute's buffer holds one
    // element per byte, in its low `width` bits (the rest zero, as
    // DenseElementsAttr::get writes them); the decoder's bytes, masked.
    // (One APInt per element took a second for 4096 x 4096 int4 weights.)
    uint8_t mask = uint8_t((1u << width) - 1);
    SmallVector<char> raw(tensor->getBytes().size());
    for (auto [to, from] : llvm::zip_equal(raw, tensor->getBytes()))
      to = char(from & mask);
    attr = DenseElementsAttr::getFromRawBuffer(type, raw);
  } else if (isa<FloatType>(element)) {
    // Empty tensors of any float type.
    attr = DenseElementsAttr::get(type, ArrayRef<APFloat>());
  } else {
    // i1 (one value per byte, 0 or 1) and empty integer tensors.
    bool isSigned = cast<IntegerType>(element).isSigned();
    SmallVector<APInt> elements;
    for (uint8_t byte : tensor->getBytes())
      elements.emplace_back(width, isSigned ? int64_t(int8_t(byte)) : byte,
                            isSigned, /*implicitTrunc=*/true);
    attr = DenseElementsAttr::get(type, elements);
  }
  return arith::ConstantOp::create(builder, loc, type, attr).getResult();
}

llvm::Error GraphImporter::verifyNodeOp(const Node &node, Operation *op) {
  std::string message;
  {
    ScopedDiagnosticHandler handler(context, [&](Diagnostic &diagnostic) {
      if (message.empty())
        message = diagnostic.str();
      return success();
    });
    // The verifier, then the zero-point rules that need the operand's
    // value (an initializer, known now).
    if (succeeded(mlir::verify(op)) && succeeded(checkConstantZeroPoints(op)))
      return llvm::Error::success();
  }
  return nodeError(node, message);
}

//===----------------------------------------------------------------------===//
// The graph
//===----------------------------------------------------------------------===//

llvm::Expected<RankedTensorType>
GraphImporter::getValueInfoType(const pb::ValueInfoProto &info,
                                llvm::StringRef what) const {
  if (!info.has_type() || !info.type().has_tensor_type())
    return makeError(what + " '" + info.name() + "' is not a tensor");
  const auto &tensorType = info.type().tensor_type();
  Type element = getOnnxElementType(context, tensorType.elem_type());
  if (!element)
    return makeError(what + " '" + info.name() + "': element type " +
                     getOnnxDataTypeName(tensorType.elem_type()) +
                     " is not supported");
  if (!tensorType.has_shape())
    return makeError(what + " '" + info.name() +
                     "' has no shape (unranked tensors are not supported)");
  SmallVector<int64_t> shape;
  for (const auto &dim : tensorType.shape().dim()) {
    if (dim.has_dim_value() && dim.dim_value() < 0)
      return makeError(what + " '" + info.name() +
                       "' has a negative dimension");
    shape.push_back(dim.has_dim_value() ? dim.dim_value()
                                        : ShapedType::kDynamic);
  }
  return RankedTensorType::get(shape, element);
}

/// The importer of a node's operator, or null.
static const NodeImporter *findImporter(const GraphImporter::Node &node) {
  const NodeImporter *importer =
      lookupQuantOpImporter(node.domain(), node.op_type());
  if (!importer)
    importer = lookupConvOpImporter(node.domain(), node.op_type());
  if (!importer)
    importer = lookupFunctionBodyOpImporter(node.domain(), node.op_type());
  if (!importer)
    importer = lookupFloatOpImporter(node.domain(), node.op_type());
  if (!importer)
    importer = lookupContribOpImporter(node.domain(), node.op_type());
  return importer;
}

/// Every unsupported operator of the graph in one message, so that a user
/// learns them all at once: one node keeps the node's own message; more
/// give each operator with its count and first node, in the graph's order:
///   "5 nodes of unsupported operators: Conv (ai.onnx) x3, first 'c0';
///    Tanh (ai.onnx) x2, first 't0'"
static std::optional<std::string>
unsupportedOperators(const pb::GraphProto &graph) {
  struct Entry {
    std::string name, domain, first;
    int count = 0;
  };
  SmallVector<Entry> entries;
  int nodes = 0;
  for (const pb::NodeProto &node : graph.node()) {
    if (findImporter(node))
      continue;
    ++nodes;
    std::string domain = node.domain().empty() ? "ai.onnx" : node.domain();
    auto it = llvm::find_if(entries, [&](const Entry &e) {
      return e.name == node.op_type() && e.domain == domain;
    });
    if (it == entries.end())
      entries.push_back({node.op_type(), domain, node.name(), 1});
    else
      ++it->count;
  }
  if (nodes < 2)
    return std::nullopt;
  std::string message =
      llvm::formatv("{0} nodes of unsupported operators: ", nodes).str();
  for (auto [i, e] : llvm::enumerate(entries))
    message += llvm::formatv("{0}{1} ({2}) x{3}, first '{4}'",
                             i ? "; " : "", e.name, e.domain, e.count, e.first)
                   .str();
  return message;
}

llvm::Error GraphImporter::importNode(const Node &node) {
  const NodeImporter *importer = findImporter(node);
  if (!importer)
    return nodeError(node, "unsupported operator");
  if (getOpsetVersion(node) == 0)
    return nodeError(node, "the model imports no opset for this domain");
  return (*importer)(*this, node);
}

llvm::Error GraphImporter::checkOutputShape(const pb::ValueInfoProto &output,
                                            Value value) const {
  const auto &tensorType = output.type().tensor_type();
  if (!tensorType.has_shape())
    return llvm::Error::success(); // no shape declared: nothing to contradict
  auto computed = cast<RankedTensorType>(value.getType());
  const auto &dims = tensorType.shape().dim();
  if (dims.size() != computed.getRank())
    return makeError(llvm::formatv(
        "graph output '{0}' is declared with rank {1} but computed as {2}",
        output.name(), dims.size(), typeToString(computed)));
  for (auto [index, dim] : llvm::enumerate(dims)) {
    // A dim_param or an unset dim declares nothing, nor does a negative
    // size (some exporters write -1 for "unknown" in outputs); a computed
    // dynamic dim may be anything at run time, so only two known sizes can
    // disagree.
    if (!dim.has_dim_value() || dim.dim_value() < 0 ||
        computed.isDynamicDim(index) ||
        dim.dim_value() == computed.getDimSize(index))
      continue;
    return makeError(llvm::formatv(
        "graph output '{0}' is declared with dimension {1} of size {2} but "
        "computed as {3}",
        output.name(), index, dim.dim_value(), typeToString(computed)));
  }
  return llvm::Error::success();
}

/// The initializers whose only uses are as MatMulNBits' packed B, scales or
/// zero points (com.microsoft, inputs 1 to 3): named once among the
/// initializers, by no node output and no graph output. importMatMulNBits
/// reads their bytes where the parse left them
/// (getUnmaterializedInitializer) instead of a constant of them, which
/// would copy them once more for nothing (22 MB of B and 5.6 MB of scales
/// for a 4096 x 11008 4-bit layer): it writes its own constants of them,
/// unpacked and transposed.
static llvm::StringSet<> getBlobOnlyInitializers(const pb::GraphProto &graph) {
  llvm::StringMap<unsigned> initializers;
  for (const pb::TensorProto &initializer : graph.initializer())
    ++initializers[initializer.name()];
  llvm::StringSet<> blobUses, otherUses;
  for (const pb::NodeProto &node : graph.node()) {
    bool isNBits =
        node.op_type() == "MatMulNBits" && node.domain() == "com.microsoft";
    for (int index = 0; index < node.input_size(); ++index)
      (isNBits && index >= 1 && index <= 3 ? blobUses : otherUses)
          .insert(node.input(index));
    for (const std::string &output : node.output())
      otherUses.insert(output);
  }
  for (const pb::ValueInfoProto &output : graph.output())
    otherUses.insert(output.name());
  llvm::StringSet<> blobs;
  for (const auto &use : blobUses)
    if (initializers.lookup(use.getKey()) == 1 &&
        !otherUses.contains(use.getKey()))
      blobs.insert(use.getKey());
  return blobs;
}

const pb::TensorProto *
GraphImporter::getUnmaterializedInitializer(const Node &node,
                                            int index) const {
  if (index >= node.input_size())
    return nullptr;
  return unmaterialized.lookup(node.input(index));
}

llvm::Error GraphImporter::importGraph(const pb::GraphProto &graph,
                                       ModuleOp module) {
  llvm::StringSet<> initializerNames;
  for (const pb::TensorProto &initializer : graph.initializer())
    initializerNames.insert(initializer.name());

  SmallVector<Type> argumentTypes;
  SmallVector<std::string> argumentNames;
  for (const pb::ValueInfoProto &input : graph.input()) {
    if (initializerNames.contains(input.name()))
      continue; // IR < 4 lists initializers as inputs too
    llvm::Expected<RankedTensorType> type =
        getValueInfoType(input, "graph input");
    if (!type)
      return type.takeError();
    argumentTypes.push_back(*type);
    argumentNames.push_back(input.name());
  }

  Location fileLoc = FileLineColLoc::get(context, options.modelName, 0, 0);
  builder.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(
      builder, fileLoc, options.funcName,
      builder.getFunctionType(argumentTypes, {}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  for (auto [name, argument] : llvm::zip(argumentNames, entry->getArguments()))
    values[name] = argument;

  llvm::StringSet<> blobs = getBlobOnlyInitializers(graph);
  for (const pb::TensorProto &initializer : graph.initializer()) {
    if (blobs.contains(initializer.name())) {
      unmaterialized[initializer.name()] = &initializer;
      continue;
    }
    Location loc = NameLoc::get(StringAttr::get(context, initializer.name()),
                                fileLoc);
    llvm::Expected<Value> constant = createConstant(
        initializer, loc, "initializer '" + initializer.name() + "'");
    if (!constant)
      return constant.takeError();
    values[initializer.name()] = *constant;
  }

  if (std::optional<std::string> unsupported = unsupportedOperators(graph))
    return makeError(*unsupported);
  for (const Node &node : graph.node())
    if (llvm::Error error = importNode(node))
      return error;

  SmallVector<Value> results;
  for (const pb::ValueInfoProto &output : graph.output()) {
    auto it = values.find(output.name());
    if (it == values.end())
      return makeError("graph output '" + output.name() +
                       "' is not produced by any node, input or initializer");
    Value value = it->second;
    if (output.has_type() && output.type().has_tensor_type()) {
      Type declared =
          getOnnxElementType(context, output.type().tensor_type().elem_type());
      Type computed = cast<RankedTensorType>(value.getType()).getElementType();
      if (declared && declared != computed)
        return makeError("graph output '" + output.name() + "' is declared " +
                         typeToString(declared) + " but computed as " +
                         typeToString(computed));
      if (llvm::Error error = checkOutputShape(output, value))
        return error;
    }
    results.push_back(value);
  }
  func::ReturnOp::create(builder, fileLoc, results);
  func.setFunctionType(
      builder.getFunctionType(argumentTypes, TypeRange(ValueRange(results))));
  SmallVector<StringRef> outputNames;
  for (const pb::ValueInfoProto &output : graph.output())
    outputNames.push_back(output.name());
  func->setAttr(kInputNamesAttrName,
                builder.getStrArrayAttr(SmallVector<StringRef>(
                    argumentNames.begin(), argumentNames.end())));
  func->setAttr(kOutputNamesAttrName, builder.getStrArrayAttr(outputNames));
  return llvm::Error::success();
}

llvm::Expected<OwningOpRef<ModuleOp>>
GraphImporter::importModel(const pb::ModelProto &model) {
  for (const pb::OperatorSetIdProto &opset : model.opset_import()) {
    std::string domain = isDefaultDomain(opset.domain()) ? "" : opset.domain();
    opsets[domain] = opset.version();
  }
  if (opsets.empty())
    opsets[""] = 1; // IR v2 models may omit opset_import: opset 1
  if (!model.has_graph())
    return makeError("the model has no graph");
  OwningOpRef<ModuleOp> module = ModuleOp::create(
      FileLineColLoc::get(context, options.modelName, 0, 0));
  if (llvm::Error error = importGraph(model.graph(), *module))
    return std::move(error);
  return module;
}

/// Messages quote the model's value and tensor names as they are; a name
/// with a control character (a newline, found by quantops-fuzz-onnx-import)
/// must not break the one-line contract, so those bytes become \XX escapes
/// (as llvm::printEscapedString writes them). Other bytes are unchanged.
static std::string escapeControlCharacters(llvm::StringRef text) {
  std::string result;
  result.reserve(text.size());
  for (unsigned char c : text) {
    if (c >= 0x20 && c != 0x7F) {
      result.push_back(char(c));
      continue;
    }
    result.push_back('\\');
    result.push_back(llvm::hexdigit(c >> 4));
    result.push_back(llvm::hexdigit(c & 0xF));
  }
  return result;
}

llvm::Expected<OwningOpRef<ModuleOp>>
onnx::importOnnxModel(const pb::ModelProto &model, MLIRContext *context,
                      const OnnxImportOptions &options) {
  context->loadDialect<QOpsDialect, arith::ArithDialect,
                       cf::ControlFlowDialect, func::FuncDialect,
                       linalg::LinalgDialect, math::MathDialect,
                       tensor::TensorDialect>();
  GraphImporter importer(context, options);
  llvm::Expected<OwningOpRef<ModuleOp>> module = importer.importModel(model);
  if (!module)
    return makeError(
        escapeControlCharacters(llvm::toString(module.takeError())));
  return module;
}

/// Where external data of a model at `path` lives.
static std::string getModelDir(llvm::StringRef path) {
  llvm::SmallString<256> dir(path);
  llvm::sys::path::remove_filename(dir);
  return dir.empty() ? "." : std::string(dir);
}

static llvm::Expected<OwningOpRef<ModuleOp>>
importWithPath(const pb::ModelProto &model, llvm::StringRef path,
               MLIRContext *context, OnnxImportOptions options) {
  options.modelDir = getModelDir(path);
  options.modelName = path.str();
  llvm::Expected<OwningOpRef<ModuleOp>> module =
      importOnnxModel(model, context, options);
  if (!module)
    return makeError(path + ": " + llvm::toString(module.takeError()));
  return module;
}

llvm::Expected<OwningOpRef<ModuleOp>>
onnx::importOnnxBuffer(llvm::StringRef bytes, llvm::StringRef path,
                       MLIRContext *context, OnnxImportOptions options) {
  llvm::Expected<ParsedModel> parsed = parseModelBytes(bytes, path);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return makeError(path + ": not a valid ONNX model (protobuf parse "
                            "failed: truncated or not a ModelProto)");
  }
  options.rawData = &parsed->rawData;
  return importWithPath(*parsed->model, path, context, std::move(options));
}

llvm::Expected<OwningOpRef<ModuleOp>>
onnx::importOnnxFile(llvm::StringRef path, MLIRContext *context,
                     OnnxImportOptions options) {
  llvm::Expected<ParsedModel> parsed = readModelFile(path);
  if (!parsed)
    return parsed.takeError();
  options.rawData = &parsed->rawData;
  options.rawDataOwner = parsed->file;
  return importWithPath(*parsed->model, path, context, std::move(options));
}
