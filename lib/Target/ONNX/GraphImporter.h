//===- GraphImporter.h - state of one ONNX graph import ---------*- C++ -*-===//
//
// The importer's shared state and helpers: the value of every ONNX name,
// attribute access with version checks, the bridge between ONNX element
// types (ui8, si4, ...) and the signless storage types that upstream ops
// need, and node-level errors. The node importers live in ImportQuantOps.cpp
// (the four qops operators) and ImportFunctionBodyOps.cpp (the ops of
// DynamicQuantizeLinear's function body).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_LIB_TARGET_ONNX_GRAPHIMPORTER_H
#define QUANTOPS_LIB_TARGET_ONNX_GRAPHIMPORTER_H

#include "QuantOps/Target/ONNX/OnnxImporter.h"

#include "onnx_subset.pb.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <functional>

namespace mlir::qops::onnx {

class GraphImporter {
public:
  GraphImporter(MLIRContext *context, const OnnxImportOptions &options)
      : context(context), builder(context), options(options) {}

  llvm::Expected<OwningOpRef<ModuleOp>>
  importModel(const ::quantops::onnx::ModelProto &model);

  //===--------------------------------------------------------------------===//
  // Helpers for node importers
  //===--------------------------------------------------------------------===//

  using Node = ::quantops::onnx::NodeProto;

  MLIRContext *getContext() const { return context; }
  OpBuilder &getBuilder() { return builder; }
  /// The location of a node: its name (or op_type) in the model file.
  Location getLoc(const Node &node) const;

  /// "node 'NAME' (OP_TYPE, domain D): REASON".
  llvm::Error nodeError(const Node &node, const llvm::Twine &reason) const;

  /// The opset version of the node's domain, or 0 if not imported.
  int64_t getOpsetVersion(const Node &node) const;
  /// True if the node's domain is com.microsoft.
  static bool isMicrosoftDomain(const Node &node);

  /// Input `index` of the node: null if omitted (absent or empty name), an
  /// error if the name has no value.
  llvm::Expected<Value> getInput(const Node &node, int index) const;
  /// The same, but an error if omitted.
  llvm::Expected<Value> getRequiredInput(const Node &node, int index) const;
  /// Inputs 0 .. count - 1: the first `required` must be given, the rest
  /// are null when omitted.
  llvm::Expected<SmallVector<Value>> getInputs(const Node &node, int count,
                                               int required) const;
  /// Binds the node's output `index` (if it is named) to `value`.
  void setOutput(const Node &node, int index, Value value);
  /// Verifies `op` (verifyNodeOp), then binds its results to the node's
  /// outputs in order.
  llvm::Error finishNode(const Node &node, Operation *op);

  /// Fails if the node has an attribute outside `allowed`, naming it, the
  /// op and its version: `version` is the op's since-version (the schema
  /// that `allowed` lists in full: "is not part of QuantizeLinear-19").
  llvm::Error checkAttributes(const Node &node,
                              llvm::ArrayRef<llvm::StringRef> allowed,
                              int64_t version) const;
  /// The same for ops whose since-version the importer does not resolve:
  /// `allowed` is what the importer supports at the model's opset, which
  /// the message names ("is not supported for Add at opset 6"; Add-6 does
  /// have `broadcast`, the importer does not take it).
  llvm::Error checkAttributes(const Node &node,
                              llvm::ArrayRef<llvm::StringRef> allowed) const;
  const ::quantops::onnx::AttributeProto *findAttribute(const Node &node,
                                                        llvm::StringRef name)
      const;
  /// An INT attribute, or std::nullopt if absent; an error if of another
  /// kind.
  llvm::Expected<std::optional<int64_t>>
  getIntAttribute(const Node &node, llvm::StringRef name) const;

  /// Every value bound to an ONNX name has its ONNX element type (ui8, si4,
  /// ...). Upstream ops need signless storage types: these convert a value
  /// to its storage type and back with a builtin.unrealized_conversion_cast
  /// bridge where the types differ (convert-qops-to-linalg folds them away).
  Value asOnnxType(Value value, Type onnxElementType, Location loc);
  Value asStorageType(Value value, Location loc);

  /// A large initializer's bytes where the model file holds them, viewed
  /// (OnnxImportOptions::rawDataOwner); none when they must be copied.
  std::optional<AsmResourceBlob> viewFileBytes(ArrayRef<char> raw,
                                               unsigned elementBytes) const;
  /// A constant from a decoded TensorProto.
  llvm::Expected<Value> createConstant(const ::quantops::onnx::TensorProto &t,
                                       Location loc, llvm::StringRef what);
  /// An initializer's data (decodeTensorProto, raw_data borrowed: valid
  /// while the model is); errors are "`what`: <problem>".
  llvm::Expected<OnnxTensor>
  decodeInitializer(const ::quantops::onnx::TensorProto &t,
                    llvm::StringRef what) const;
  /// Input `index` of the node when it is an initializer of which no
  /// constant was made, because its only uses are as MatMulNBits' packed B,
  /// scales or zero points (getInput has no value for it); null otherwise.
  const ::quantops::onnx::TensorProto *
  getUnmaterializedInitializer(const Node &node, int index) const;

  /// Verifies `op` right after it was created; on failure the verifier's
  /// message becomes a node error.
  llvm::Error verifyNodeOp(const Node &node, Operation *op);

private:
  llvm::Error importGraph(const ::quantops::onnx::GraphProto &graph,
                          ModuleOp module);
  llvm::Error importNode(const Node &node);
  /// Fails if a graph output's declared shape contradicts the computed type:
  /// another rank, or another size where both sizes are known (a negative
  /// declared size counts as unknown).
  llvm::Error checkOutputShape(const ::quantops::onnx::ValueInfoProto &output,
                               Value value) const;
  llvm::Expected<RankedTensorType>
  getValueInfoType(const ::quantops::onnx::ValueInfoProto &info,
                   llvm::StringRef what) const;

  MLIRContext *context;
  OpBuilder builder;
  const OnnxImportOptions &options;
  llvm::StringMap<Value> values;
  llvm::StringMap<const ::quantops::onnx::TensorProto *> unmaterialized;
  llvm::StringMap<int64_t> opsets;
};

/// The node importers, by domain and op_type. Each returns an error naming
/// the node, or success after binding the node's outputs.
using NodeImporter =
    std::function<llvm::Error(GraphImporter &, const GraphImporter::Node &)>;
/// QuantizeLinear, DequantizeLinear (both domains), DynamicQuantizeLinear,
/// QLinearMatMul.
const NodeImporter *lookupQuantOpImporter(llvm::StringRef domain,
                                          llvm::StringRef opType);
/// ConvInteger, QLinearConv, Conv (float) (ImportConvOps.cpp).
const NodeImporter *lookupConvOpImporter(llvm::StringRef domain,
                                         llvm::StringRef opType);
/// Constant, ReduceMin, ReduceMax, Min, Max, Sub, Div, Clip, Round, Cast,
/// Identity (ai.onnx).
const NodeImporter *lookupFunctionBodyOpImporter(llvm::StringRef domain,
                                                 llvm::StringRef opType);
/// MatMul, Gemm, Transpose, Reshape, Add (ai.onnx): the float glue of QDQ
/// models (ImportFloatOps.cpp).
const NodeImporter *lookupFloatOpImporter(llvm::StringRef domain,
                                          llvm::StringRef opType);

/// One linalg.generic over the numpy broadcast of `operands` (ONNX-typed);
/// `body` gets the storage-typed elements and returns a `resultOnnx` element
/// (in storage). The result is bridged back to `resultOnnx`. A dynamic
/// dimension is taken not to broadcast (checked at run time).
llvm::Expected<Value> emitBroadcastElementwise(
    GraphImporter &importer, const GraphImporter::Node &node,
    ValueRange operands, Type resultOnnx,
    llvm::function_ref<Value(OpBuilder &, Location, ValueRange)> body);

/// numpy matmul of float `a` and `bMatrix` as linalg.matmul /
/// batch_matmul (1-D operands promoted, rows of an N-D a against a 2-D b
/// collapsed; ImportFloatOps.cpp), or an error naming the node.
llvm::Expected<Value> emitMatMul(GraphImporter &importer,
                                 const GraphImporter::Node &node, Value a,
                                 Value bMatrix);

/// com.microsoft MatMulNBits (ImportMatMulNBits.cpp).
const NodeImporter *lookupContribOpImporter(llvm::StringRef domain,
                                            llvm::StringRef opType);

/// A zero-filled [sizes] tensor of `elementType` (linalg.fill of
/// tensor.empty): a contraction's init (ImportFloatOps.cpp).
Value createZeroInit(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                     Type elementType);

/// "" and "ai.onnx" are the same domain.
inline bool isDefaultDomain(llvm::StringRef domain) {
  return domain.empty() || domain == "ai.onnx";
}

} // namespace mlir::qops::onnx

#endif // QUANTOPS_LIB_TARGET_ONNX_GRAPHIMPORTER_H
