//===- QuantParams.h - granularity of scales and zero points ----*- C++ -*-===//
//
// How a scale tensor applies to its data tensor (per-tensor, per-axis or
// blocked), decided by the scale's shape exactly as the ONNX reference does.
// Shared by the verifiers and the lowering.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_DIALECT_QOPS_IR_QUANTPARAMS_H
#define QUANTOPS_DIALECT_QOPS_IR_QUANTPARAMS_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace mlir::qops {

enum class Granularity { PerTensor, PerAxis, Blocked };

/// The resolved granularity of a Q/DQ scale.
struct QuantGranularity {
  Granularity kind = Granularity::PerTensor;
  /// The normalized (non-negative) axis; meaningful for PerAxis and Blocked.
  int64_t axis = 0;
  /// The block size; meaningful for Blocked only.
  int64_t blockSize = 0;
};

/// Classifies `scaleType` against `dataType`:
///   - one element (any rank, static)                  -> per-tensor
///   - rank 1, block_size absent or 0                  -> per-axis along axis
///   - rank of data, block_size > 0                    -> blocked along axis
/// and checks every shape rule ONNX states for it. On a violation, calls
/// `emitError` with a message that starts with `<labelPrefix>_<label>:` and
/// returns failure. Dimensions that are dynamic (`?`) are not checked.
FailureOr<QuantGranularity>
classifyQuantGranularity(RankedTensorType dataType, RankedTensorType scaleType,
                         std::optional<int64_t> axis,
                         std::optional<int64_t> blockSize,
                         llvm::StringRef labelPrefix,
                         llvm::function_ref<InFlightDiagnostic()> emitError);

/// True if the tensor type has exactly one element, statically.
bool hasSingleElement(RankedTensorType type);

/// A zero point goes with its scale: the same shape, or one element each.
bool zeroPointShapeMatchesScale(RankedTensorType zeroPointType,
                                RankedTensorType scaleType);

/// The fused `dequantize(scale [, offset])` clause of matmul_integer and
/// conv_integer: both f32, one element or [channels] (a dynamic size
/// matches); errors are labelled `<label>: ...`.
LogicalResult
verifyDequantizeClause(Value scale, Value offset, int64_t channels,
                       llvm::StringRef label,
                       llvm::function_ref<InFlightDiagnostic()> emitError);

} // namespace mlir::qops

#endif // QUANTOPS_DIALECT_QOPS_IR_QUANTPARAMS_H
