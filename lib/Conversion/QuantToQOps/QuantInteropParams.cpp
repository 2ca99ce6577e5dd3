//===- QuantInteropParams.cpp - quant types <-> ONNX Q/DQ operands --------===//
//
// `!quant.uniform` keeps scales as doubles and zero points as int64 inside
// the type; ONNX (and qops) keep them as tensors of the expressed type and
// of the quantized type. The functions here translate between the two and
// say precisely what one side cannot express.
//
//===----------------------------------------------------------------------===//

#include "QuantInteropParams.h"

#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"
#include "QuantOps/Dialect/QOps/IR/QuantParams.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"

using namespace mlir;
using namespace mlir::qops;
using namespace mlir::qops::interop;

namespace {

bool isSupportedStorageWidth(unsigned width) {
  return width == 2 || width == 4 || width == 8 || width == 16;
}

bool isSupportedExpressedType(Type type) {
  return type && (type.isF32() || type.isF16() || type.isBF16());
}

/// scale_F = round_to_nearest_even(scale) in the expressed type F; ONNX
/// scales must be positive and finite.
FailureOr<APFloat> toExpressedScale(APFloat scale, FloatType expressedType,
                                    function_ref<InFlightDiagnostic()> emitError) {
  bool losesInfo = false;
  APFloat converted = scale;
  converted.convert(expressedType.getFloatSemantics(),
                    APFloat::rmNearestTiesToEven, &losesInfo);
  if (!converted.isFiniteNonZero() || converted.isNegative()) {
    SmallString<16> text;
    scale.toString(text);
    return emitError() << "scale " << text << " is not a positive finite "
                       << expressedType << " value";
  }
  return converted;
}

/// The zero point as a value of the qops storage type, range-checked.
FailureOr<APInt> toStorageZeroPoint(int64_t zeroPoint, IntegerType storageType,
                                    function_ref<InFlightDiagnostic()> emitError) {
  int64_t lowest = getIntegerTypeMin(storageType);
  int64_t highest = getIntegerTypeMax(storageType);
  if (zeroPoint < lowest || zeroPoint > highest)
    return emitError() << "zero point " << zeroPoint << " is outside the range ["
                       << lowest << ", " << highest << "] of " << storageType;
  return APInt(storageType.getWidth(), static_cast<uint64_t>(zeroPoint),
               storageType.isSigned());
}

/// Reads an integer attribute element as the value it stands for.
int64_t readZeroPoint(const APInt &bits, bool isSigned) {
  return isSigned ? bits.getSExtValue() : static_cast<int64_t>(bits.getZExtValue());
}

/// Scales and zero points of one granularity, flat and row-major, plus the
/// ONNX shape of the scale tensor.
struct FlatParams {
  SmallVector<APFloat> scales;
  SmallVector<int64_t> zeroPoints;
  SmallVector<int64_t> shape;
  std::optional<int64_t> axis;
  std::optional<int64_t> blockSize;
};

FailureOr<OnnxQuantParams>
buildOnnxParams(const FlatParams &flat, IntegerType storageType,
                FloatType expressedType,
                function_ref<InFlightDiagnostic()> emitError) {
  SmallVector<APFloat> scales;
  SmallVector<APInt> zeroPoints;
  for (const APFloat &scale : flat.scales) {
    FailureOr<APFloat> converted =
        toExpressedScale(scale, expressedType, emitError);
    if (failed(converted))
      return failure();
    scales.push_back(*converted);
  }
  for (int64_t zeroPoint : flat.zeroPoints) {
    FailureOr<APInt> converted =
        toStorageZeroPoint(zeroPoint, storageType, emitError);
    if (failed(converted))
      return failure();
    zeroPoints.push_back(*converted);
  }
  OnnxQuantParams params;
  params.scale = DenseElementsAttr::get(
      RankedTensorType::get(flat.shape, expressedType), scales);
  params.zeroPoint = DenseElementsAttr::get(
      RankedTensorType::get(flat.shape, storageType), zeroPoints);
  params.axis = flat.axis;
  params.blockSize = flat.blockSize;
  return params;
}

/// Sub-channel (blocked) scales -> ONNX. quant allows blocks along several
/// dimensions and one shared scale for a whole dimension; ONNX has one
/// blocked axis and a scale of the data's rank whose other dimensions equal
/// the data's. So:
///   - one scale in all                    -> per-tensor
///   - one dimension d with several scales,
///     one per element of d                -> per-axis along d
///   - otherwise one blocked axis b (scale dim != data dim, != 1) with
///     block size B; dimensions with one shared scale are expanded to the
///     data's size by repeating it (static sizes only).
LogicalResult flattenSubChannel(quant::UniformQuantizedSubChannelType type,
                                ArrayRef<int64_t> dataShape, FlatParams &flat,
                                function_ref<InFlightDiagnostic()> emitError) {
  DenseElementsAttr scaleAttr = type.getScales();
  DenseElementsAttr zeroPointAttr = type.getZeroPoints();
  ArrayRef<int64_t> scaleShape = scaleAttr.getType().getShape();
  if (scaleShape.size() != dataShape.size())
    return emitError() << "sub-channel scales of rank " << scaleShape.size()
                       << " do not match data of rank " << dataShape.size();

  SmallVector<APFloat> scales(scaleAttr.getValues<APFloat>());
  SmallVector<int64_t> zeroPoints;
  if (zeroPointAttr && zeroPointAttr.getNumElements() == scaleAttr.getNumElements() &&
      isa<IntegerType>(zeroPointAttr.getElementType())) {
    for (const APInt &bits : zeroPointAttr.getValues<APInt>())
      zeroPoints.push_back(readZeroPoint(bits, type.isSigned()));
  } else {
    zeroPoints.assign(scales.size(), 0);
  }

  SmallVector<int64_t> dimsWithSeveralScales;
  for (auto [dim, size] : llvm::enumerate(scaleShape))
    if (size > 1)
      dimsWithSeveralScales.push_back(dim);

  if (dimsWithSeveralScales.empty()) {
    flat.scales = {scales.front()};
    flat.zeroPoints = {zeroPoints.front()};
    return success();
  }
  if (dimsWithSeveralScales.size() == 1 &&
      scaleShape[dimsWithSeveralScales.front()] ==
          dataShape[dimsWithSeveralScales.front()]) {
    flat.scales = scales;
    flat.zeroPoints = zeroPoints;
    flat.shape = {static_cast<int64_t>(scales.size())};
    flat.axis = dimsWithSeveralScales.front();
    return success();
  }

  llvm::DenseMap<int64_t, int64_t> blockSizeOfDim;
  for (auto [dim, blockSize] : type.getBlockSizeInfo())
    blockSizeOfDim[dim] = blockSize;

  std::optional<int64_t> blockedAxis;
  int64_t blockSize = 1;
  SmallVector<int64_t> onnxShape(scaleShape);
  for (auto [dim, scaleSize] : llvm::enumerate(scaleShape)) {
    int64_t dataSize = dataShape[dim];
    if (scaleSize == dataSize)
      continue;
    if (scaleSize == 1) {
      if (ShapedType::isDynamic(dataSize))
        return emitError()
               << "dimension " << dim
               << " is dynamic and shares one scale: ONNX blocked scales "
                  "need the data's size in every non-blocked dimension";
      onnxShape[dim] = dataSize;
      continue;
    }
    if (blockedAxis)
      return emitError() << "blocks along dimensions " << *blockedAxis
                         << " and " << dim
                         << ": ONNX blocked quantization has one blocked axis";
    blockedAxis = dim;
    blockSize = blockSizeOfDim.lookup(dim);
    if (blockSize <= 0)
      return emitError() << "no block size for dimension " << dim;
  }
  if (!blockedAxis)
    blockedAxis = dimsWithSeveralScales.front(); // every block has size 1

  // Expansion: onnx[i0..ir-1] = scales[j0..jr-1], j_d = (scale dim d is 1
  // and the data's is not) ? 0 : i_d.
  int64_t count = ShapedType::getNumElements(onnxShape);
  for (int64_t linear = 0; linear < count; ++linear) {
    int64_t rest = linear, source = 0, stride = 1;
    for (int64_t dim = onnxShape.size() - 1; dim >= 0; --dim) {
      int64_t coordinate = rest % onnxShape[dim];
      rest /= onnxShape[dim];
      if (scaleShape[dim] != 1)
        source += coordinate * stride;
      stride *= scaleShape[dim];
    }
    flat.scales.push_back(scales[source]);
    flat.zeroPoints.push_back(zeroPoints[source]);
  }
  flat.shape = onnxShape;
  flat.axis = *blockedAxis;
  flat.blockSize = blockSize;
  return success();
}

} // namespace

FailureOr<IntegerType>
interop::getQOpsStorageType(quant::QuantizedType type,
                            function_ref<InFlightDiagnostic()> emitError) {
  auto storage = dyn_cast_or_null<IntegerType>(type.getStorageType());
  if (!storage || !isSupportedStorageWidth(storage.getWidth()))
    return emitError() << "storage type of " << type
                       << " has no ONNX equivalent (supported: signed or "
                          "unsigned 2, 4, 8 and 16-bit integers)";
  unsigned width = storage.getWidth();
  bool isSigned = type.isSigned();
  int64_t fullMin =
      quant::QuantizedType::getDefaultMinimumForInteger(isSigned, width);
  int64_t fullMax =
      quant::QuantizedType::getDefaultMaximumForInteger(isSigned, width);
  if (type.getStorageTypeMin() != fullMin ||
      type.getStorageTypeMax() != fullMax)
    return emitError() << "storage range [" << type.getStorageTypeMin()
                       << ", " << type.getStorageTypeMax() << "] of " << type
                       << " is narrower than the full range [" << fullMin
                       << ", " << fullMax
                       << "]: ONNX types saturate to their full range, so it "
                          "cannot be represented exactly";
  if (!isSupportedExpressedType(type.getExpressedType()))
    return emitError() << "expressed type of " << type
                       << " is not supported (f32, f16 or bf16)";
  return IntegerType::get(type.getContext(), width,
                          isSigned ? IntegerType::Signed
                                   : IntegerType::Unsigned);
}

bool interop::containsQuantizedType(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  return isa<quant::QuantizedType>(type);
}

FailureOr<Type>
interop::convertQuantizedType(Type type,
                              function_ref<InFlightDiagnostic()> emitError) {
  if (isa<quant::QuantizedType>(type))
    return emitError() << "scalar quantized type " << type
                       << " is not supported: qops operates on ranked tensors";
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !isa<quant::QuantizedType>(shaped.getElementType()))
    return type;
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked)
    return emitError() << "type " << type
                       << " is not supported: only ranked tensors of "
                          "quantized types are converted";
  FailureOr<IntegerType> storage = getQOpsStorageType(
      cast<quant::QuantizedType>(ranked.getElementType()), emitError);
  if (failed(storage))
    return failure();
  return Type(RankedTensorType::get(ranked.getShape(), *storage,
                                    ranked.getEncoding()));
}

FailureOr<OnnxQuantParams>
interop::getOnnxQuantParams(RankedTensorType quantizedTensorType,
                            function_ref<InFlightDiagnostic()> emitError) {
  auto quantized =
      dyn_cast<quant::QuantizedType>(quantizedTensorType.getElementType());
  if (!quantized)
    return emitError() << "expected a tensor of a quantized type, got "
                       << quantizedTensorType;
  FailureOr<IntegerType> storageType = getQOpsStorageType(quantized, emitError);
  if (failed(storageType))
    return failure();
  auto expressedType = cast<FloatType>(quantized.getExpressedType());

  FlatParams flat;
  if (auto perLayer = dyn_cast<quant::UniformQuantizedType>(quantized)) {
    flat.scales = {APFloat(perLayer.getScale())};
    flat.zeroPoints = {perLayer.getZeroPoint()};
  } else if (auto perAxis =
                 dyn_cast<quant::UniformQuantizedPerAxisType>(quantized)) {
    for (double scale : perAxis.getScales())
      flat.scales.push_back(APFloat(scale));
    flat.zeroPoints.assign(perAxis.getZeroPoints().begin(),
                           perAxis.getZeroPoints().end());
    flat.shape = {static_cast<int64_t>(flat.scales.size())};
    flat.axis = perAxis.getQuantizedDimension();
  } else if (auto subChannel =
                 dyn_cast<quant::UniformQuantizedSubChannelType>(quantized)) {
    if (failed(flattenSubChannel(subChannel, quantizedTensorType.getShape(),
                                 flat, emitError)))
      return failure();
  } else {
    return emitError() << "quantized type " << quantized
                       << " is not supported: only !quant.uniform types "
                          "(per-layer, per-axis, sub-channel) have ONNX "
                          "equivalents";
  }

  FailureOr<OnnxQuantParams> params =
      buildOnnxParams(flat, *storageType, expressedType, emitError);
  if (failed(params))
    return failure();
  // The same shape rules the qops verifier applies, with its labels.
  RankedTensorType dataType = RankedTensorType::get(
      quantizedTensorType.getShape(), expressedType);
  if (failed(classifyQuantGranularity(
          dataType, cast<RankedTensorType>(params->scale.getType()),
          params->axis, params->blockSize, "quantize", emitError)))
    return failure();
  return params;
}

quant::QuantizedType interop::getUniformQuantizedType(
    RankedTensorType dataType, Type storageType, Type expressedType,
    const OnnxQuantParams &params, std::string &whyNot) {
  auto qopsStorage = dyn_cast<IntegerType>(storageType);
  if (!qopsStorage || qopsStorage.isSignless() ||
      !isSupportedStorageWidth(qopsStorage.getWidth())) {
    whyNot = "element type has no !quant.uniform storage type in MLIR 22 "
             "(supported: si2/ui2, si4/ui4, si8/ui8, si16/ui16)";
    return {};
  }
  if (!isSupportedExpressedType(expressedType)) {
    whyNot = "expressed type must be f32, f16 or bf16";
    return {};
  }
  MLIRContext *ctx = dataType.getContext();
  unsigned width = qopsStorage.getWidth();
  bool isSigned = qopsStorage.isSigned();
  unsigned flags = isSigned ? quant::QuantizationFlags::Signed : 0;
  auto signlessStorage = IntegerType::get(ctx, width);
  int64_t storageMin =
      quant::QuantizedType::getDefaultMinimumForInteger(isSigned, width);
  int64_t storageMax =
      quant::QuantizedType::getDefaultMaximumForInteger(isSigned, width);

  SmallVector<double> scales;
  for (APFloat scale : params.scale.getValues<APFloat>()) {
    bool losesInfo = false;
    scale.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                  &losesInfo); // exact from f32/f16/bf16
    scales.push_back(scale.convertToDouble());
  }
  SmallVector<int64_t> zeroPoints;
  if (params.zeroPoint)
    for (const APInt &bits : params.zeroPoint.getValues<APInt>())
      zeroPoints.push_back(readZeroPoint(bits, isSigned));
  else
    zeroPoints.assign(scales.size(), 0);

  // quant's own verifier decides; keep its message instead of printing it.
  ScopedDiagnosticHandler captureMessage(ctx, [&](Diagnostic &diagnostic) {
    if (whyNot.empty())
      whyNot = diagnostic.str();
    return success();
  });
  auto emitError = [&] { return mlir::emitError(UnknownLoc::get(ctx)); };

  if (!params.axis)
    return quant::UniformQuantizedType::getChecked(
        emitError, flags, signlessStorage, expressedType, scales.front(),
        zeroPoints.front(), storageMin, storageMax);
  if (!params.blockSize)
    return quant::UniformQuantizedPerAxisType::getChecked(
        emitError, flags, signlessStorage, expressedType, scales, zeroPoints,
        static_cast<int32_t>(*params.axis), storageMin, storageMax);

  // Blocked: quant needs every block full (no partial last block) and the
  // sizes static, since it checks scales against data dimensions.
  int64_t axis = *params.axis, blockSize = *params.blockSize;
  if (!dataType.hasStaticShape() || dataType.getDimSize(axis) % blockSize) {
    whyNot = "blocked quantization needs a static shape whose blocked "
             "dimension is a multiple of block_size for !quant.uniform";
    return {};
  }
  SmallVector<int32_t> quantizedDims;
  SmallVector<int64_t> blockSizes;
  for (int64_t dim = 0; dim < dataType.getRank(); ++dim) {
    quantizedDims.push_back(static_cast<int32_t>(dim));
    blockSizes.push_back(dim == axis ? blockSize : 1);
  }
  ArrayRef<int64_t> scaleShape = params.scale.getType().getShape();
  SmallVector<APInt> zeroPointBits;
  for (int64_t zeroPoint : zeroPoints)
    zeroPointBits.push_back(
        APInt(width, static_cast<uint64_t>(zeroPoint), isSigned));
  auto zeroPointAttr = DenseElementsAttr::get(
      RankedTensorType::get(scaleShape, signlessStorage), zeroPointBits);
  return quant::UniformQuantizedSubChannelType::getChecked(
      emitError, flags, signlessStorage, expressedType, params.scale,
      zeroPointAttr, quantizedDims, blockSizes, storageMin, storageMax);
}
