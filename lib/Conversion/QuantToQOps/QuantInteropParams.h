//===- QuantInteropParams.h - quant types <-> ONNX Q/DQ operands -*- C++ -*-===//
//
// The mapping between upstream `!quant.uniform` types and the constant
// operands of qops.quantize_linear / qops.dequantize_linear, shared by
// --qops-from-quant and --qops-to-quant.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_LIB_CONVERSION_QUANTTOQOPS_QUANTINTEROPPARAMS_H
#define QUANTOPS_LIB_CONVERSION_QUANTTOQOPS_QUANTINTEROPPARAMS_H

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

#include <optional>
#include <string>

namespace mlir::qops::interop {

/// The ONNX view of one quantization: the qops ops' scale, zero point,
/// axis and block_size.
struct OnnxQuantParams {
  /// tensor<F> (per-tensor), tensor<CxF> (per-axis) or rank-r (blocked).
  DenseElementsAttr scale;
  /// Same shape as `scale`, elements of the qops storage type (si8, ui4..).
  DenseElementsAttr zeroPoint;
  std::optional<int64_t> axis;
  std::optional<int64_t> blockSize;
};

/// Returns the qops element type standing for the storage of `type`:
///   signed   N-bit storage -> siN,  unsigned N-bit storage -> uiN,
/// for N in {2, 4, 8, 16}, the full range of N bits only, and an expressed
/// type f32, f16 or bf16. Reports what is unsupported through `emitError`.
FailureOr<IntegerType>
getQOpsStorageType(quant::QuantizedType type,
                   function_ref<InFlightDiagnostic()> emitError);

/// `type` with a quantized element type replaced by its qops storage type;
/// other types are returned unchanged. Scalars and unranked tensors of
/// quantized types are reported as unsupported.
FailureOr<Type> convertQuantizedType(Type type,
                                     function_ref<InFlightDiagnostic()> emitError);

/// True if `type` is a quantized type or a shaped type of one.
bool containsQuantizedType(Type type);

/// The qops operands for a tensor of a `!quant.uniform` element type
/// (per-layer, per-axis or sub-channel). Reports what ONNX cannot express.
FailureOr<OnnxQuantParams>
getOnnxQuantParams(RankedTensorType quantizedTensorType,
                   function_ref<InFlightDiagnostic()> emitError);

/// The `!quant.uniform` element type equivalent to a qops Q/DQ with constant
/// operands on data of type `dataType`. `expressedType` is the float side.
/// On failure returns null and sets `whyNot`.
quant::QuantizedType getUniformQuantizedType(RankedTensorType dataType,
                                             Type storageType,
                                             Type expressedType,
                                             const OnnxQuantParams &params,
                                             std::string &whyNot);

} // namespace mlir::qops::interop

#endif // QUANTOPS_LIB_CONVERSION_QUANTTOQOPS_QUANTINTEROPPARAMS_H
