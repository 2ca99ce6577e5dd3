//===- OnnxImporter.h - ONNX model to the qops dialect ----------*- C++ -*-===//
//
// Turns an ONNX ModelProto into one func.func in the qops dialect: graph
// inputs become arguments, initializers constants, graph outputs results.
// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, QLinearMatMul
// (ai.onnx opsets 10-25 and com.microsoft QuantizeLinear/DequantizeLinear)
// become qops ops; the ops of DynamicQuantizeLinear's function body
// (Constant, ReduceMin, ReduceMax, Min, Max, Sub, Div, Clip, Round, Cast,
// Identity) become upstream linalg/arith/math/tensor ops.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_TARGET_ONNX_ONNXIMPORTER_H
#define QUANTOPS_TARGET_ONNX_ONNXIMPORTER_H

#include "QuantOps/Target/ONNX/OnnxTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace quantops::onnx {
class ModelProto;
} // namespace quantops::onnx

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::qops::onnx {

struct OnnxImportOptions {
  /// The name of the function that holds the graph.
  std::string funcName = "main";
  /// Directory of the model file, for initializers with external data.
  std::string modelDir;
  /// Used in locations and messages.
  std::string modelName = "model.onnx";
  /// The largest initializer (bytes) the importer materializes.
  uint64_t maxTensorBytes = uint64_t(4) << 30;
  /// The raw_data the parse left where it read it (ParsedModel::rawData),
  /// for the initializers of the model imported; null: none.
  const LeftRawData *rawData = nullptr;
  /// The buffer rawData points into, when it may outlive the import: a
  /// byte-aligned initializer of kViewedConstantBytes or more found there
  /// becomes a dense_resource whose blob views those bytes and keeps the
  /// buffer. Null: copied into a dense attribute.
  std::shared_ptr<const llvm::MemoryBuffer> rawDataOwner;
};

/// The MLIR element type of an ONNX TensorProto.DataType, keeping ONNX's
/// signedness (UINT8 -> ui8, INT4 -> si4, FLOAT8E4M3FN -> f8E4M3FN, ...), or
/// null for types the importer does not handle (STRING, COMPLEX, ...).
Type getOnnxElementType(MLIRContext *context, int32_t dataType);

/// Registers the dialects the importer creates ops of.
void registerOnnxImporterDialects(DialectRegistry &registry);

/// Imports `model`. Errors are one line and name the node (its name, op_type
/// and domain) or the graph element at fault.
llvm::Expected<OwningOpRef<ModuleOp>>
importOnnxModel(const ::quantops::onnx::ModelProto &model,
                MLIRContext *context, const OnnxImportOptions &options);

/// Parses and imports the bytes of a .onnx file named `path` (external data
/// resolved next to `path`).
llvm::Expected<OwningOpRef<ModuleOp>>
importOnnxBuffer(llvm::StringRef bytes, llvm::StringRef path,
                 MLIRContext *context, OnnxImportOptions options = {});

/// Reads and imports a .onnx file (external data resolved next to it).
llvm::Expected<OwningOpRef<ModuleOp>>
importOnnxFile(llvm::StringRef path, MLIRContext *context,
               OnnxImportOptions options = {});

} // namespace mlir::qops::onnx

#endif // QUANTOPS_TARGET_ONNX_ONNXIMPORTER_H
