//===- StorageTypes.cpp - ONNX element types to storage types -------------===//
//
// The type converter of the qops lowering and the patterns that carry it
// across function boundaries and constants.
//
//   ui8/si8/ui4/si4/ui2/si2 -> i8     ui16/si16 -> i16     si32 -> i32
//   f8E4M3FN/f8E4M3FNUZ/f8E5M2/f8E5M2FNUZ/f4E2M1FN/f8E8M0FNU -> i8 (bits)
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"

#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"
#include "QuantOps/Utils/ConstantBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::qops;

Type qops::getStorageElementType(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type)) {
    if (intType.isSignless())
      return type;
    return IntegerType::get(type.getContext(),
                            std::max<unsigned>(intType.getWidth(), 8));
  }
  if (isFloat8Type(type) || isFloat4Type(type) || isFloat8E8M0Type(type))
    return IntegerType::get(type.getContext(), 8);
  return type;
}

Value qops::castToStorage(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  Type storage = type.clone(getStorageElementType(type.getElementType()));
  if (storage == type)
    return value;
  return UnrealizedConversionCastOp::create(b, loc, storage, value)
      .getResult(0);
}

QOpsStorageTypeConverter::QOpsStorageTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion([](RankedTensorType type) -> Type {
    return type.clone(getStorageElementType(type.getElementType()));
  });
  addConversion([](UnrankedTensorType type) -> Type {
    return UnrankedTensorType::get(
        getStorageElementType(type.getElementType()));
  });
  addConversion([](IntegerType type) -> Type {
    return getStorageElementType(type);
  });
  addConversion([](FloatType type) -> Type {
    return getStorageElementType(type);
  });
}

namespace {

/// The bits of one ONNX element as its storage integer.
APInt toStorageBits(Attribute element, Type onnxType, unsigned width) {
  if (auto floatAttr = dyn_cast<FloatAttr>(element))
    return floatAttr.getValue().bitcastToAPInt().zextOrTrunc(width);
  APInt value = cast<IntegerAttr>(element).getValue();
  return cast<IntegerType>(onnxType).isUnsigned() ? value.zext(width)
                                                  : value.sext(width);
}

/// Whether `raw`, the buffer of a non-splat constant of `count` elements of
/// `onnxType`, is a sub-byte one (width w < 8, integer or float) stored as
/// i8: one element per byte in its low w bits.
bool isSubByteBuffer(ArrayRef<char> raw, int64_t count, Type onnxType,
                     IntegerType storage) {
  if (storage.getWidth() != 8 || !onnxType.isIntOrFloat() ||
      onnxType.getIntOrFloatBitWidth() >= 8)
    return false;
  return static_cast<int64_t>(raw.size()) == count;
}

/// The i8 storage bytes of such a buffer, as toStorageBits gives them:
/// signed integers sign-extended from bit w - 1, unsigned integers and
/// floats (their bits) zero-extended. v = the low w bits; signed:
/// (v ^ 2^(w-1)) - 2^(w-1), in [-2^(w-1), 2^(w-1)), stored as its
/// two's-complement byte. Writes `out` (raw.size() bytes) unless it is
/// null, and returns whether the storage equals `raw` (then the buffer is
/// its own storage).
bool widenSubByteElements(ArrayRef<char> raw, Type onnxType, char *out) {
  unsigned width = onnxType.getIntOrFloatBitWidth();
  auto intType = dyn_cast<IntegerType>(onnxType);
  bool signExtend = intType && !intType.isUnsigned();
  unsigned mask = (1u << width) - 1, half = 1u << (width - 1);
  uint8_t differ = 0;
  for (size_t i = 0, e = raw.size(); i < e; ++i) {
    uint8_t from = static_cast<uint8_t>(raw[i]), v = from & mask;
    uint8_t to = signExtend ? static_cast<uint8_t>((v ^ half) - half) : v;
    if (out)
      out[i] = static_cast<char>(to);
    differ |= to ^ from;
  }
  return differ == 0;
}

/// The storage constant of a sub-byte buffer (isSubByteBuffer). Below
/// `viewedBytes` a dense copy. From `viewedBytes` on, no attribute that
/// copies and hashes the bytes (DenseIntOrFPElementsAttr::getRaw; an LLM's
/// unpacked 4-bit weights are tens of megabytes): a view of the buffer
/// when it already is its storage (as the ONNX importer writes them:
/// unsigned integers and floats zero-extended, signed ones sign-extended),
/// else a dense_resource that owns the widened bytes (a signed constant
/// written in its low bits only, as MLIR's parser does).
TypedAttr subByteToStorage(ArrayRef<char> raw, Type onnxType,
                           RankedTensorType storageType, int64_t viewedBytes) {
  if (static_cast<int64_t>(raw.size()) < viewedBytes) {
    SmallVector<char> bytes(raw.size());
    widenSubByteElements(raw, onnxType, bytes.data());
    return DenseElementsAttr::getFromRawBuffer(storageType, bytes);
  }
  if (widenSubByteElements(raw, onnxType, nullptr))
    return cast<TypedAttr>(viewConstantBytes(storageType, raw, 1));
  AsmResourceBlob blob = HeapAsmResourceBlob::allocate(raw.size(), 1);
  widenSubByteElements(raw, onnxType, blob.getMutableData().data());
  return cast<TypedAttr>(ownConstantBytes(storageType, std::move(blob)));
}

/// arith.constant of an ONNX-typed tensor -> the same values in storage.
struct ConstantToStorage : OpConversionPattern<arith::ConstantOp> {
  ConstantToStorage(const TypeConverter &converter, MLIRContext *context,
                    int64_t viewedBytes)
      : OpConversionPattern(converter, context), viewedBytes(viewedBytes) {}

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type newType = getTypeConverter()->convertType(op.getType());
    if (!newType || newType == op.getType())
      return failure();
    auto newTensorType = dyn_cast<RankedTensorType>(newType);
    auto value = dyn_cast<ElementsAttr>(op.getValue());
    if (!value || !newTensorType ||
        !isa<DenseElementsAttr, DenseResourceElementsAttr>(value))
      return rewriter.notifyMatchFailure(op, "not a dense tensor constant");
    Type onnxType = value.getElementType();
    auto storage = cast<IntegerType>(newTensorType.getElementType());
    auto elements = dyn_cast<DenseElementsAttr>(value);
    // A splat stays a splat: its element count may be far beyond what could
    // be materialised (tensor<100000x100000xui8> is 10^10 elements).
    if (elements && elements.isSplat()) {
      APInt splat = toStorageBits(elements.getSplatValue<Attribute>(), onnxType,
                                  storage.getWidth());
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, newType, DenseElementsAttr::get(newTensorType, splat));
      return success();
    }
    // The buffer: a dense attribute's, or a dense_resource's blob (the
    // MatMulNBits import's large weights, which own their bytes).
    std::optional<ArrayRef<char>> raw = qops::getStoredBytes(value);
    if (!raw)
      return rewriter.notifyMatchFailure(op, "a resource without its blob");
    bool isResource = !elements;
    // 8- and 16-bit integers (ui8, si8, ui16, si16) are stored as the
    // signless integers of their width, bit for bit: the same buffer (a
    // weight matrix is millions of elements; one APInt each took most of
    // the lowering's time).
    if (auto onnxInt = dyn_cast<IntegerType>(onnxType);
        onnxInt && onnxInt.getWidth() == storage.getWidth() &&
        onnxInt.getWidth() % 8 == 0) {
      // A large one, or a resource, views the ONNX-typed attribute's
      // buffer instead of copying it (ConstantBytes.h); tensor.expand_shape
      // and friends do not fold it into more copies: they bufferize to
      // views.
      TypedAttr stored =
          isResource || int64_t(raw->size()) >= viewedBytes
              ? cast<TypedAttr>(viewConstantBytes(newTensorType, *raw,
                                                  onnxInt.getWidth() / 8))
              : DenseElementsAttr::getFromRawBuffer(newTensorType, *raw);
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, newType, stored);
      return success();
    }
    // Sub-byte integers and floats (si4, ui2, f4E2M1FN, ...), one element
    // per byte of a dense buffer in its low bits, widened byte by byte
    // (subByteToStorage; large ones viewed or owned by a resource): an
    // LLM's 4-bit weights are tens of millions of elements, and one
    // IntegerAttr and APInt each took about 8 s of the 1 x 4096 x 11008
    // MatMulNBits gemv's lowering (Zen 3).
    if (isSubByteBuffer(*raw, value.getNumElements(), onnxType, storage)) {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, newType,
          subByteToStorage(*raw, onnxType, newTensorType,
                           isResource ? 0 : viewedBytes));
      return success();
    }
    if (isResource)
      return rewriter.notifyMatchFailure(
          op, "a dense_resource whose elements change their bits in storage");
    SmallVector<APInt> bits;
    bits.reserve(elements.getNumElements());
    for (Attribute element : elements.getValues<Attribute>())
      bits.push_back(toStorageBits(element, onnxType, storage.getWidth()));
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, newType, DenseElementsAttr::get(newTensorType, bits));
    return success();
  }

private:
  int64_t viewedBytes;
};

/// builtin.unrealized_conversion_cast between an ONNX-typed tensor and its
/// storage type (as the ONNX importer emits around upstream-dialect ops)
/// disappears once both sides have their storage type.
struct FoldStorageCasts : OpConversionPattern<UnrealizedConversionCastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(UnrealizedConversionCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(),
                                                resultTypes)))
      return failure();
    if (TypeRange(adaptor.getOperands()) != TypeRange(resultTypes))
      return rewriter.notifyMatchFailure(op, "not a storage-type cast");
    rewriter.replaceOp(op, adaptor.getOperands());
    return success();
  }
};

} // namespace

void qops::populateQOpsToLinalgConversionPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    bool useInt8Kernel, bool parallel, Int8KernelStrategy strategy,
    int64_t minMaxLanes, int64_t viewedConstantBytes) {
  populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                 converter);
  populateCallOpTypeConversionPattern(patterns, converter);
  populateReturnOpTypeConversionPattern(patterns, converter);
  patterns.add<ConstantToStorage>(converter, patterns.getContext(),
                                  viewedConstantBytes);
  patterns.add<FoldStorageCasts>(converter, patterns.getContext());
  populateQuantizeDequantizeToLinalgPatterns(converter, patterns);
  populateDynamicQuantizeToLinalgPatterns(converter, patterns, parallel,
                                          minMaxLanes);
  // The contraction ops become qkernel.matmul (the decompose stage), which
  // one pattern lowers: the kernels' (which fall back to the generic form)
  // or the generic form alone.
  populateDecomposeContractionsPatterns(
      patterns, useInt8Kernel ? std::optional(strategy) : std::nullopt);
  if (useInt8Kernel)
    populateQLinearMatMulKernelPatterns(converter, patterns, parallel,
                                        strategy);
  else
    populateQLinearMatMulToLinalgPatterns(converter, patterns, parallel);
}
