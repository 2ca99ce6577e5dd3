//===- QuantParams.cpp - granularity of scales and zero points ------------===//
//
// The ONNX rules (QuantizeLinear / DequantizeLinear, opset 25; the ONNX
// reference decides the same way):
//
//   scale has one element                    -> per-tensor (axis ignored)
//   block_size == 0 and scale is 1-D [S]      -> per-axis, S == x.shape[axis]
//   block_size  > 0 and rank(scale) == rank(x) -> blocked along axis:
//       scale.shape[i] == x.shape[i] for i != axis, and
//       scale.shape[axis] == ceil(x.shape[axis] / block_size), i.e.
//       block_size in [ceil(D/S), ceil(D/(S-1)) - 1]
//   axis in [-r, r-1], normalized by adding r when negative.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Dialect/QOps/IR/QuantParams.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::qops;

bool qops::hasSingleElement(RankedTensorType type) {
  return type.hasStaticShape() && type.getNumElements() == 1;
}

bool qops::zeroPointShapeMatchesScale(RankedTensorType zeroPointType,
                                      RankedTensorType scaleType) {
  if (hasSingleElement(zeroPointType) && hasSingleElement(scaleType))
    return true;
  return zeroPointType.getShape() == scaleType.getShape();
}

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

FailureOr<QuantGranularity> qops::classifyQuantGranularity(
    RankedTensorType dataType, RankedTensorType scaleType,
    std::optional<int64_t> axis, std::optional<int64_t> blockSize,
    StringRef prefix, function_ref<InFlightDiagnostic()> emitError) {
  int64_t block = blockSize.value_or(0);
  if (block < 0)
    return emitError() << prefix << "_block_size_range: block_size must be "
                       << ">= 0, got " << block;
  QuantGranularity result;
  if (hasSingleElement(scaleType))
    return result; // per-tensor

  int64_t rank = dataType.getRank();
  if (rank == 0)
    return emitError() << prefix << "_scale_shape: a rank-0 input takes a "
                       << "one-element scale, got " << scaleType;
  if (!axis)
    return emitError() << prefix << "_axis_required: a scale of "
                       << scaleType << " is per-axis or blocked and needs "
                       << "an axis (an absent axis means per-tensor)";
  if (*axis < -rank || *axis >= rank)
    return emitError() << prefix << "_axis_range: axis " << *axis
                       << " is out of range [" << -rank << ", " << rank - 1
                       << "] for an input of rank " << rank;
  result.axis = *axis < 0 ? *axis + rank : *axis;
  int64_t dataDim = dataType.getDimSize(result.axis);

  if (block == 0) {
    if (scaleType.getRank() != 1)
      return emitError() << prefix << "_scale_shape: without block_size the "
                         << "scale must have one element (per-tensor) or be "
                         << "1-D (per-axis), got " << scaleType;
    int64_t scaleDim = scaleType.getDimSize(0);
    if (!ShapedType::isDynamic(dataDim) && !ShapedType::isDynamic(scaleDim) &&
        dataDim != scaleDim)
      return emitError() << prefix << "_per_axis_length: the per-axis scale "
                         << "has " << scaleDim << " elements but the input "
                         << "has " << dataDim << " along axis "
                         << result.axis;
    result.kind = Granularity::PerAxis;
    return result;
  }

  if (scaleType.getRank() != rank)
    return emitError() << prefix << "_blocked_shape: a blocked scale must "
                       << "have the input's rank " << rank << ", got "
                       << scaleType;
  for (int64_t i = 0; i < rank; ++i) {
    if (i == result.axis)
      continue;
    int64_t d = dataType.getDimSize(i), s = scaleType.getDimSize(i);
    if (!ShapedType::isDynamic(d) && !ShapedType::isDynamic(s) && d != s)
      return emitError() << prefix << "_blocked_shape: blocked scale "
                         << "dimension " << i << " is " << s
                         << " but the input's is " << d
                         << " (only the axis dimension may differ)";
  }
  int64_t scaleDim = scaleType.getDimSize(result.axis);
  if (!ShapedType::isDynamic(dataDim) && !ShapedType::isDynamic(scaleDim) &&
      ceilDiv(dataDim, block) != scaleDim) {
    InFlightDiagnostic diag = emitError();
    diag << prefix << "_blocked_range: block_size " << block << " makes "
         << ceilDiv(dataDim, block) << " blocks of the input's " << dataDim
         << " elements along axis " << result.axis << ", but the scale has "
         << scaleDim;
    if (scaleDim == 1)
      diag << " (block_size must be >= " << dataDim << ")";
    else if (scaleDim > 1)
      diag << " (block_size must be in [" << ceilDiv(dataDim, scaleDim)
           << ", " << ceilDiv(dataDim, scaleDim - 1) - 1 << "])";
    return diag;
  }
  result.kind = Granularity::Blocked;
  result.blockSize = block;
  return result;
}

LogicalResult qops::verifyDequantizeClause(
    Value scale, Value offset, int64_t channels, llvm::StringRef label,
    llvm::function_ref<InFlightDiagnostic()> emitError) {
  for (Value param : {scale, offset}) {
    if (!param)
      continue;
    auto type = cast<RankedTensorType>(param.getType());
    bool perChannel = type.getRank() == 1 &&
                      (ShapedType::isDynamic(channels) ||
                       ShapedType::isDynamic(type.getDimSize(0)) ||
                       type.getDimSize(0) == channels);
    if (!type.getElementType().isF32() ||
        !(hasSingleElement(type) || perChannel))
      return emitError() << label << ": the dequantize scale and offset are "
                         << "f32, one element or [" << channels
                         << "], got " << type;
  }
  return success();
}
