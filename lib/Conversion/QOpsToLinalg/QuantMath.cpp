//===- QuantMath.cpp - the quantization arithmetic, written once ----------===//
//
// See QuantMath.h for the formulas.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Conversion/QOpsToLinalg/QuantMath.h"

#include "FloatFormats.h"

#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"
#include "QuantOps/Target/TargetAttr.h"
#include "QuantOps/Utils/ConstantBytes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::qops;

Value qops::emitExtendToI32(OpBuilder &b, Location loc, Value stored,
                            Type onnxType) {
  Type i32 = b.getI32Type();
  auto storedType = cast<IntegerType>(stored.getType());
  if (storedType.getWidth() == 32)
    return stored;
  // A 4- or 2-bit value lives in an i8 whose value is already in range, so
  // extending the storage byte by the ONNX signedness is exact.
  if (cast<IntegerType>(onnxType).isUnsigned())
    return arith::ExtUIOp::create(b, loc, i32, stored);
  return arith::ExtSIOp::create(b, loc, i32, stored);
}

static Value emitTruncF64ToF32RoundToOdd(OpBuilder &b, Location loc,
                                         Value x);

/// f32 -> bf16, round to nearest even, on the bit pattern (bf16 is the top
/// half of an f32, so subnormals need no special case; NaN stays a quiet
/// NaN). Written out because LLVM's lowering may flush subnormals
/// (vcvtneps2bf16) depending on the target:
///   bits' = bits + 0x7FFF + ((bits >> 16) & 1);  bf16 = bits' >> 16
///   NaN:  bf16 = (bits >> 16) | 0x40
static Value emitTruncF32ToBF16(OpBuilder &b, Location loc, Value x) {
  Type i32 = b.getI32Type(), i16 = b.getIntegerType(16);
  auto c = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value upper = arith::ShRUIOp::create(b, loc, bits, c(16));
  Value lsb = arith::AndIOp::create(b, loc, upper, c(1));
  Value rounded = arith::ShRUIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc,
                            arith::AddIOp::create(b, loc, bits, c(0x7FFF)),
                            lsb),
      c(16));
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  Value quietNaN = arith::OrIOp::create(b, loc, upper, c(0x40));
  Value result = arith::SelectOp::create(b, loc, isNaN, quietNaN, rounded);
  return arith::BitcastOp::create(
      b, loc, b.getBF16Type(), arith::TruncIOp::create(b, loc, i16, result));
}

Value qops::emitConvertToFloat(OpBuilder &b, Location loc, Value stored,
                               Type onnxType, FloatType to) {
  if (isFloat8Type(onnxType) || isFloat4Type(onnxType) ||
      isFloat8E8M0Type(onnxType))
    stored = emitExtSmallFloatToF32(b, loc, stored, onnxType);
  Type from = stored.getType();
  if (from == to)
    return stored;
  FloatType f32 = b.getF32Type(), f64 = b.getF64Type();
  if (to.isBF16()) {
    // One rounding to bf16 from the exact value: integers and f64 go
    // through f64 and round-to-odd f32 (exact for the final rounding).
    Value wide = stored;
    if (isa<IntegerType>(from)) {
      wide = cast<IntegerType>(onnxType).isUnsigned()
                 ? arith::UIToFPOp::create(b, loc, f64, stored).getResult()
                 : arith::SIToFPOp::create(b, loc, f64, stored).getResult();
      wide = emitTruncF64ToF32RoundToOdd(b, loc, wide);
    } else if (from.isF64()) {
      wide = emitTruncF64ToF32RoundToOdd(b, loc, wide);
    } else if (from != f32) {
      wide = arith::ExtFOp::create(b, loc, f32, wide); // f16: exact
    }
    return emitTruncF32ToBF16(b, loc, wide);
  }
  if (auto fromFloat = dyn_cast<FloatType>(from)) {
    if (fromFloat.getWidth() < to.getWidth())
      return arith::ExtFOp::create(b, loc, to, stored);
    if (fromFloat.getWidth() == to.getWidth()) // bf16 -> f16: exact via f32
      stored = arith::ExtFOp::create(b, loc, f32, stored);
    return arith::TruncFOp::create(b, loc, to, stored);
  }
  auto intType = cast<IntegerType>(onnxType);
  if (intType.isUnsigned())
    return arith::UIToFPOp::create(b, loc, to, stored);
  return arith::SIToFPOp::create(b, loc, to, stored);
}

Value qops::emitFloatBinary(OpBuilder &b, Location loc, FloatBinaryOp op,
                            Value lhs, Value rhs) {
  Type type = lhs.getType();
  bool viaF32 = getElementTypeOrSelf(type).isBF16();
  if (viaF32) {
    lhs = arith::ExtFOp::create(b, loc, b.getF32Type(), lhs);
    rhs = arith::ExtFOp::create(b, loc, b.getF32Type(), rhs);
  }
  Value result;
  switch (op) {
  case FloatBinaryOp::Add:
    result = arith::AddFOp::create(b, loc, lhs, rhs);
    break;
  case FloatBinaryOp::Sub:
    result = arith::SubFOp::create(b, loc, lhs, rhs);
    break;
  case FloatBinaryOp::Mul:
    result = arith::MulFOp::create(b, loc, lhs, rhs);
    break;
  case FloatBinaryOp::Div:
    result = arith::DivFOp::create(b, loc, lhs, rhs);
    break;
  }
  if (viaF32)
    result = emitConvertToFloat(b, loc, result, b.getF32Type(),
                                cast<FloatType>(type));
  return result;
}

/// f64 -> f32 rounding to odd: truncate toward zero, and set the lowest
/// mantissa bit if anything was lost. A later rounding to a format with at
/// most 22 mantissa bits then equals rounding the f64 value directly.
///
///   t = truncf(x)                        (nearest even)
///   if |extf(t)| > |x|: t = t - 1 ulp    (toward zero, on the bit pattern)
///   if extf(t) != x:    bits(t) |= 1     (sticky bit)
/// NaN and Inf pass through (truncf keeps them; x != x is not "inexact").
static Value emitTruncF64ToF32RoundToOdd(OpBuilder &b, Location loc,
                                         Value x) {
  Type f32 = b.getF32Type(), f64 = b.getF64Type(), i32 = b.getI32Type();
  Value t = arith::TruncFOp::create(b, loc, f32, x);
  Value back = arith::ExtFOp::create(b, loc, f64, t);
  Value absBack = math::AbsFOp::create(b, loc, back);
  Value absX = math::AbsFOp::create(b, loc, x);
  Value tooBig = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                       absBack, absX);
  Value bits = arith::BitcastOp::create(b, loc, i32, t);
  Value one = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(1));
  bits = arith::SelectOp::create(
      b, loc, tooBig, arith::SubIOp::create(b, loc, bits, one), bits);
  Value inexact = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE,
                                        back, x);
  bits = arith::SelectOp::create(b, loc, inexact,
                                 arith::OrIOp::create(b, loc, bits, one),
                                 bits);
  return arith::BitcastOp::create(b, loc, f32, bits);
}

Value qops::emitRoundToSmallFloat(OpBuilder &b, Location loc, Value value,
                                  Type smallType, bool saturate) {
  FloatType f32 = b.getF32Type();
  auto type = cast<FloatType>(value.getType());
  if (type.getWidth() > 32)
    value = emitTruncF64ToF32RoundToOdd(b, loc, value);
  else if (type != f32)
    value = arith::ExtFOp::create(b, loc, f32, value);
  return emitTruncF32ToSmallFloat(b, loc, value, smallType, saturate);
}

/// A constant of `element` type shaped like `like` (a scalar, or a splat
/// vector of the same shape).
static Value constantLike(OpBuilder &b, Location loc, TypedAttr scalar,
                          Type like) {
  if (auto vector = dyn_cast<VectorType>(like))
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(vector.clone(scalar.getType()), scalar));
  return arith::ConstantOp::create(b, loc, scalar);
}

/// `element` in the shape of `like`.
static Type shapedLike(Type element, Type like) {
  if (auto vector = dyn_cast<VectorType>(like))
    return vector.clone(element);
  return element;
}

/// y's stored zero point (si8 or ui8 storage, scalar or vector) extended to
/// i32 (`i32`: i32 in the zero point's shape) by `yOnnx`'s signedness.
static Value extendZeroPoint(OpBuilder &b, Location loc, Value zeroPoint,
                             Type yOnnx, Type i32) {
  if (cast<IntegerType>(yOnnx).isUnsigned())
    return arith::ExtUIOp::create(b, loc, i32, zeroPoint);
  return arith::ExtSIOp::create(b, loc, i32, zeroPoint);
}

Value qops::emitFiniteMultiplier(OpBuilder &b, Location loc,
                                Value multiplier) {
  Type type = multiplier.getType();
  auto f32 = b.getF32Type();
  Value bound = constantLike(b, loc, b.getFloatAttr(f32, 0x1p32), type);
  Value low = constantLike(b, loc, b.getFloatAttr(f32, -0x1p32), type);
  // Whatever the clamp makes of NaN, the select below replaces it.
  Value clamped = arith::MinNumFOp::create(
      b, loc, arith::MaxNumFOp::create(b, loc, multiplier, low), bound);
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO,
                                      multiplier, multiplier);
  return arith::SelectOp::create(
      b, loc, isNaN, constantLike(b, loc, b.getFloatAttr(f32, 0), type),
      clamped);
}

Value qops::emitRequantizeSum(OpBuilder &b, Location loc, Value acc,
                              Value multiplier, Value zeroPoint, Type yOnnx) {
  auto like = [&](Type element) { return shapedLike(element, acc.getType()); };
  Type f64 = like(b.getF64Type());
  Value product = arith::MulFOp::create(
      b, loc, arith::SIToFPOp::create(b, loc, f64, acc),
      arith::ExtFOp::create(b, loc, f64, multiplier));
  Type i32 = like(b.getI32Type());
  Value zp = extendZeroPoint(b, loc, zeroPoint, yOnnx, i32);
  Value y = emitRoundAddZeroPointSaturate(b, loc, product, zp,
                                          getIntegerTypeMin(yOnnx),
                                          getIntegerTypeMax(yOnnx),
                                          /*finite=*/true);
  return arith::TruncIOp::create(b, loc, like(b.getIntegerType(8)), y);
}

Value qops::emitRequantizeSmallSum(OpBuilder &b, Location loc, Value acc,
                                   Value multiplier, Value zeroPoint,
                                   Type yOnnx) {
  auto like = [&](Type element) { return shapedLike(element, acc.getType()); };
  Type f32 = like(b.getF32Type()), i32 = like(b.getI32Type());
  constexpr float kMagic = 0x1.8p23f; // 1.5 * 2^23
  Value magic = constantLike(b, loc, b.getF32FloatAttr(kMagic), acc.getType());
  Value p = math::FmaOp::create(
      b, loc, arith::SIToFPOp::create(b, loc, f32, acc), multiplier, magic);
  Value zp = extendZeroPoint(b, loc, zeroPoint, yOnnx, i32);
  // C + bound - zp, exact in f32 (an integer in [2^23, 2^24)).
  auto bound = [&](int64_t v) {
    Value shifted = arith::SubIOp::create(
        b, loc,
        constantLike(b, loc, b.getI32IntegerAttr(v), acc.getType()), zp);
    return arith::AddFOp::create(
        b, loc, arith::SIToFPOp::create(b, loc, f32, shifted), magic);
  };
  auto flags = arith::FastMathFlags::nnan | arith::FastMathFlags::nsz;
  Value clamped = arith::MinNumFOp::create(
      b, loc,
      arith::MaxNumFOp::create(b, loc, p, bound(getIntegerTypeMin(yOnnx)),
                               flags),
      bound(getIntegerTypeMax(yOnnx)), flags);
  // bits(p') - bits(C) + zp = bits(p') - (bits(C) - zp).
  int32_t magicBits = llvm::bit_cast<int32_t>(kMagic);
  Value offset = arith::SubIOp::create(
      b, loc,
      constantLike(b, loc, b.getI32IntegerAttr(magicBits), acc.getType()), zp);
  Value y = arith::SubIOp::create(
      b, loc, arith::BitcastOp::create(b, loc, i32, clamped), offset);
  return arith::TruncIOp::create(b, loc, like(b.getIntegerType(8)), y);
}

bool qops::fmaIsNative(Operation *op) {
  Operation *module = op->getParentOfType<ModuleOp>();
  if (!module)
    return true;
  std::optional<ConfiguredTarget> configured = getConfiguredTarget(module);
  return !configured || targetHasNativeFma(configured->target);
}

bool qops::provesSmallSums(int64_t products, Value bias) {
  if (products < 0 || products > kMaxSmallSum / (255 * 255))
    return false;
  return provesSmallSumBound(products * 255 * 255, bias);
}

namespace {

/// The dim of `source` that dim `dim` of a reshape's result comes from
/// (or goes to, for a collapse), when every other dim of its group is a
/// static 1; none otherwise.
std::optional<int64_t>
getSoleDimOfGroup(ArrayRef<ReassociationIndices> groups, ArrayRef<int64_t> wide,
                  int64_t narrowDim) {
  const ReassociationIndices &group = groups[narrowDim];
  std::optional<int64_t> sole;
  for (int64_t d : group)
    if (wide[d] != 1) {
      if (sole)
        return std::nullopt;
      sole = d;
    }
  return sole ? sole : std::optional<int64_t>(group.front());
}

/// traceConstantDim's `dim` when only the elements matter.
constexpr int64_t kAnyDim = -1;

/// `value` traced to the arith.constant of integers it rearranges (storage
/// casts, linalg.transpose, tensor reshapes), with the dim of the constant
/// that dim `dim` of `value` indexes (kAnyDim: the elements alone, any
/// shape). The constant is dense, or a dense_resource (a weight the import
/// viewed where the model file holds it).
std::optional<std::pair<ElementsAttr, int64_t>>
traceConstantDim(Value value, int64_t dim) {
  for (int steps = 0; steps < 32; ++steps) {
    ElementsAttr values;
    if (matchPattern(value, m_Constant(&values)))
      return isa<IntegerType, IndexType>(values.getElementType())
                 ? std::optional(std::make_pair(values, dim))
                 : std::nullopt;
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || dim < kAnyDim || dim >= type.getRank())
      return std::nullopt;
    Operation *op = value.getDefiningOp();
    if (auto cast = dyn_cast_or_null<UnrealizedConversionCastOp>(op)) {
      auto source = cast->getNumOperands() == 1
                        ? dyn_cast<RankedTensorType>(cast.getOperand(0).getType())
                        : RankedTensorType();
      if (!source || source.getShape() != type.getShape())
        return std::nullopt;
      value = cast.getOperand(0);
    } else if (dim == kAnyDim &&
               isa_and_nonnull<linalg::TransposeOp, tensor::CollapseShapeOp,
                               tensor::ExpandShapeOp>(op)) {
      value = op->getOperand(0); // the same elements
    } else if (auto transpose = dyn_cast_or_null<linalg::TransposeOp>(op)) {
      dim = transpose.getPermutation()[dim];
      value = transpose.getInput();
    } else if (auto collapse = dyn_cast_or_null<tensor::CollapseShapeOp>(op)) {
      std::optional<int64_t> source =
          getSoleDimOfGroup(collapse.getReassociationIndices(),
                            collapse.getSrcType().getShape(), dim);
      if (!source)
        return std::nullopt;
      dim = *source;
      value = collapse.getSrc();
    } else if (auto expand = dyn_cast_or_null<tensor::ExpandShapeOp>(op)) {
      SmallVector<ReassociationIndices> groups =
          expand.getReassociationIndices();
      auto group = llvm::find_if(groups, [&](const ReassociationIndices &g) {
        return llvm::is_contained(g, dim);
      });
      if (group == groups.end() ||
          getSoleDimOfGroup(groups, expand.getResultType().getShape(),
                            group - groups.begin()) != dim)
        return std::nullopt;
      dim = group - groups.begin();
      value = expand.getSrc();
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

/// max_n sum_o |t[o, n] - zp[n]| of 8-bit t in [outer, columns] order
/// (the common case: b's columns of a [K, N] b), as bytes: `flip` is 0x80
/// for signed values, x ^ 0x80 orders signed bytes as unsigned ones, so
/// |x - z| = |(x ^ 0x80) - (z ^ 0x80)|, at most 255 and one byte. Per
/// column, the differences of up to 257 rows add up in u16 lanes
/// (257 * 255 < 2^16) before they join the column's sum; the loop over a
/// row is byte ops and u16 adds, which vectorize on SSE2 (an i32 form
/// does not: docs/Performance.md, "The small-sum proof's scan"). Returns as
/// soon as a sum passes `limit` (a value above it).
[[gnu::always_inline]] inline std::optional<int64_t>
sumAbsColumnsLoop(const uint8_t *t, int64_t outer, int64_t columns,
                  uint8_t flip, ArrayRef<int64_t> zp, int64_t limit) {
  constexpr int64_t kRowsPerFlush = 257;
  SmallVector<uint8_t> z(columns);
  for (int64_t n = 0; n < columns; ++n)
    z[n] = uint8_t(zp[n]) ^ flip;
  SmallVector<uint16_t> part(columns, 0);
  SmallVector<int64_t> sums(columns, 0);
  for (int64_t o0 = 0; o0 < outer; o0 += kRowsPerFlush) {
    int64_t oEnd = std::min(outer, o0 + kRowsPerFlush);
    for (int64_t o = o0; o < oEnd; ++o) {
      const uint8_t *row = t + o * columns;
      for (int64_t n = 0; n < columns; ++n) {
        uint8_t x = row[n] ^ flip;
        part[n] += uint8_t(x > z[n] ? x - z[n] : z[n] - x);
      }
    }
    int64_t most = 0;
    for (int64_t n = 0; n < columns; ++n) {
      sums[n] += part[n];
      part[n] = 0;
      most = std::max(most, sums[n]);
    }
    if (most > limit)
      return most;
  }
  return *llvm::max_element(sums);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
/// sumAbsColumnsLoop compiled for AVX2, where the host has it: byte ops
/// and u16 adds on 32 lanes instead of the x86-64 baseline's 16 (SSE2).
/// The same integer sums, so the same result.
[[gnu::target("avx2")]] std::optional<int64_t>
sumAbsColumnsAvx2(const uint8_t *t, int64_t outer, int64_t columns,
                  uint8_t flip, ArrayRef<int64_t> zp, int64_t limit) {
  return sumAbsColumnsLoop(t, outer, columns, flip, zp, limit);
}
#define QUANTOPS_SUM_ABS_AVX2 1
#endif

/// sumAbsColumnsLoop for the host: the AVX2 build where it runs.
std::optional<int64_t> sumAbsColumns(const uint8_t *t, int64_t outer,
                                     int64_t columns, uint8_t flip,
                                     ArrayRef<int64_t> zp, int64_t limit) {
#ifdef QUANTOPS_SUM_ABS_AVX2
  if (__builtin_cpu_supports("avx2"))
    return sumAbsColumnsAvx2(t, outer, columns, flip, zp, limit);
#endif
  return sumAbsColumnsLoop(t, outer, columns, flip, zp, limit);
}

/// max_n sum_{o, i} |t[o, n, i] - zp[n]| of 8-bit t in [outer, columns,
/// inner] order (inner > 1: runs of one zero point), in i32 lanes, the
/// loops contiguous so that they vectorize. Returns as soon as a sum passes
/// `limit` (a value above it); none once a sum passes 2^30 (checked often
/// enough that no lane passes 2^31 in between) below the limit.
template <typename Int8>
std::optional<int64_t> sumAbsAlong(const Int8 *t, int64_t outer,
                                   int64_t columns, int64_t inner,
                                   ArrayRef<int64_t> zp, int64_t limit) {
  SmallVector<int32_t> sums(columns, 0), zp32(zp.begin(), zp.end());
  constexpr int64_t kLaneCap = int64_t(1) << 30;
  // Rows between checks: no lane passes 2^31 in between.
  int64_t rowsPerCheck = std::max<int64_t>(1, (int64_t(1) << 22) / inner);
  for (int64_t o = 0; o < outer; ++o) {
    const Int8 *row = t + o * columns * inner;
    for (int64_t n = 0; n < columns; ++n) {
      const Int8 *run = row + n * inner;
      int32_t sum = 0;
      for (int64_t i = 0; i < inner; ++i)
        sum += std::abs(int32_t(run[i]) - zp32[n]);
      sums[n] += sum;
    }
    if ((o + 1) % rowsPerCheck == 0 || o + 1 == outer) {
      int64_t most = *llvm::max_element(sums);
      if (most > limit)
        return most;
      if (most > kLaneCap)
        return std::nullopt;
    }
  }
  return *llvm::max_element(sums);
}

} // namespace

bool qops::provesSmallSumBound(int64_t sumBound, Value bias) {
  if (sumBound < 0 || sumBound > kMaxSmallSum)
    return false;
  int64_t bound = sumBound;
  if (bias) {
    // A constant, possibly reshaped (a [M] bias as [M, 1] for a
    // transposed contraction).
    auto traced = traceConstantDim(bias, kAnyDim);
    auto values = traced ? dyn_cast<DenseIntElementsAttr>(traced->first)
                         : DenseIntElementsAttr();
    if (!values)
      return false;
    for (const APInt &v : values.getValues<APInt>())
      bound = std::max(bound, sumBound + std::abs(v.getSExtValue()));
  }
  return bound <= kMaxSmallSum;
}

std::optional<int64_t> qops::getMaxAbsSumAlong(Value t, int64_t dim,
                                                Value zeroPoint,
                                                int64_t limit) {
  auto type = dyn_cast<RankedTensorType>(t.getType());
  if (!type || dim < 0 || dim >= type.getRank() || !type.hasStaticShape())
    return std::nullopt;
  // ONNX's si8 / ui8: signless bytes have no one reading.
  auto element = dyn_cast<IntegerType>(type.getElementType());
  if (!element || element.getWidth() != 8 || element.isSignless())
    return std::nullopt;
  if (type.getNumElements() == 0)
    return 0;
  bool isUnsigned = element.isUnsigned();
  auto traced = traceConstantDim(t, dim);
  std::optional<std::pair<ElementsAttr, int64_t>> zpTraced =
      zeroPoint ? traceConstantDim(zeroPoint, kAnyDim) : std::nullopt;
  if (!traced || (zeroPoint && !zpTraced))
    return std::nullopt;
  auto [values, axis] = *traced;
  auto dense = dyn_cast<DenseIntElementsAttr>(values);
  auto valuesType = cast<RankedTensorType>(values.getType());
  if (valuesType.getElementTypeBitWidth() != 8)
    return std::nullopt;
  ArrayRef<int64_t> shape = valuesType.getShape();
  int64_t columns = shape[axis];
  auto asInt = [&](const APInt &v) {
    return isUnsigned ? int64_t(v.getZExtValue()) : v.getSExtValue();
  };
  // zp[n]: a splat, or one per index of the dim.
  SmallVector<int64_t> zp(columns, 0);
  if (zpTraced) {
    auto zpValues = dyn_cast<DenseIntElementsAttr>(zpTraced->first);
    if (!zpValues)
      return std::nullopt;
    if (zpValues.isSplat())
      zp.assign(columns, asInt(zpValues.getSplatValue<APInt>()));
    else if (zpValues.getNumElements() == columns)
      for (auto [n, v] : llvm::enumerate(zpValues.getValues<APInt>()))
        zp[n] = asInt(v);
    else
      return std::nullopt;
  }
  // [outer, columns, inner] around the dim, summed over outer and inner.
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (int64_t d = axis + 1; d < (int64_t)shape.size(); ++d)
    inner *= shape[d];
  if (dense && dense.isSplat()) {
    int64_t v = asInt(dense.getSplatValue<APInt>());
    int64_t most = 0;
    for (int64_t n = 0; n < columns; ++n)
      most = std::max(most, outer * inner * std::abs(v - zp[n]));
    return most;
  }
  if (inner > (int64_t(1) << 22)) // a run's i32 sum could overflow
    return std::nullopt;
  std::optional<ArrayRef<char>> stored = getStoredBytes(values);
  if (!stored || int64_t(stored->size()) != valuesType.getNumElements())
    return std::nullopt;
  ArrayRef<char> raw = *stored;
  if (inner == 1)
    return sumAbsColumns(reinterpret_cast<const uint8_t *>(raw.data()), outer,
                         columns, isUnsigned ? 0 : 0x80, zp, limit);
  return isUnsigned ? sumAbsAlong(reinterpret_cast<const uint8_t *>(raw.data()),
                                  outer, columns, inner, zp, limit)
                    : sumAbsAlong(reinterpret_cast<const int8_t *>(raw.data()),
                                  outer, columns, inner, zp, limit);
}

Value qops::emitRoundAddZeroPointSaturate(OpBuilder &b, Location loc, Value q,
                                          Value zeroPoint, int64_t qmin,
                                          int64_t qmax, bool finite) {
  Type shape = q.getType();
  auto qType = cast<FloatType>(getElementTypeOrSelf(shape));
  FloatType clampType =
      qType.getWidth() > 32 ? cast<FloatType>(qType) : b.getF32Type();
  Type clampShaped = shapedLike(clampType, shape);

  Value rounded = math::RoundEvenOp::create(b, loc, q);
  if (rounded.getType() != clampShaped)
    rounded = arith::ExtFOp::create(b, loc, clampShaped, rounded);
  Value finiteOrInf = rounded;
  if (!finite) {
    Value zero = constantLike(b, loc, b.getFloatAttr(clampType, 0), shape);
    Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO,
                                        rounded, rounded);
    finiteOrInf = arith::SelectOp::create(b, loc, isNaN, zero, rounded);
  }

  Type i32 = shapedLike(b.getI32Type(), shape);
  auto constI32 = [&](int64_t v) {
    return constantLike(b, loc, b.getI32IntegerAttr(v), shape);
  };
  Value low = arith::SubIOp::create(b, loc, constI32(qmin), zeroPoint);
  Value high = arith::SubIOp::create(b, loc, constI32(qmax), zeroPoint);
  Value lowF = arith::SIToFPOp::create(b, loc, clampShaped, low);
  Value highF = arith::SIToFPOp::create(b, loc, clampShaped, high);
  // NaN is gone and the sign of zero does not survive fptosi: the clamp may
  // use plain vmaxps/vminps (nnan, nsz).
  auto flags = arith::FastMathFlags::nnan | arith::FastMathFlags::nsz;
  Value clamped = arith::MinNumFOp::create(
      b, loc, arith::MaxNumFOp::create(b, loc, finiteOrInf, lowF, flags),
      highF, flags);
  Value asInt = arith::FPToSIOp::create(b, loc, i32, clamped);
  return arith::AddIOp::create(b, loc, asInt, zeroPoint);
}

AffineMap qops::getQuantParamMap(MLIRContext *ctx, unsigned rank,
                                 const QuantGranularity &granularity) {
  switch (granularity.kind) {
  case Granularity::PerTensor:
    return AffineMap::get(rank, 0, {}, ctx);
  case Granularity::PerAxis:
    return AffineMap::get(rank, 0, getAffineDimExpr(granularity.axis, ctx));
  case Granularity::Blocked: {
    SmallVector<AffineExpr> results;
    for (unsigned d = 0; d < rank; ++d) {
      AffineExpr dim = getAffineDimExpr(d, ctx);
      results.push_back(d == granularity.axis
                            ? dim.floorDiv(granularity.blockSize)
                            : dim);
    }
    return AffineMap::get(rank, 0, results, ctx);
  }
  }
  llvm_unreachable("unknown granularity");
}

Value qops::collapseToScalarTensor(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (type.getRank() == 0)
    return tensor;
  auto scalarType = RankedTensorType::get({}, type.getElementType());
  return tensor::CollapseShapeOp::create(b, loc, scalarType, tensor,
                                         ArrayRef<ReassociationIndices>{});
}

void qops::emitSizeCheck(OpBuilder &b, Location loc, OpFoldResult lhs,
                         OpFoldResult rhs, const llvm::Twine &message) {
  std::optional<int64_t> l = getConstantIntValue(lhs);
  std::optional<int64_t> r = getConstantIntValue(rhs);
  if (l && r)
    return;
  Value equal = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      getValueOrCreateConstantIndexOp(b, loc, lhs),
      getValueOrCreateConstantIndexOp(b, loc, rhs));
  cf::AssertOp::create(b, loc, equal, message.str());
}

Value qops::createEmptyLike(OpBuilder &b, Location loc, Value like,
                            Type elementType) {
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, like);
  return tensor::EmptyOp::create(b, loc, sizes, elementType);
}

Value qops::emitTranspose(OpBuilder &b, Location loc, Value tensor,
                          ArrayRef<int64_t> perm) {
  SmallVector<OpFoldResult> in = tensor::getMixedSizes(b, loc, tensor), sizes;
  for (int64_t d : perm)
    sizes.push_back(in[d]);
  Value init = tensor::EmptyOp::create(b, loc, sizes,
                                       getElementTypeOrSelf(tensor.getType()));
  return linalg::TransposeOp::create(b, loc, tensor, init, perm)
      ->getResult(0);
}

Value qops::padHighTo(OpBuilder &b, Location loc, Value tensor,
                      ArrayRef<OpFoldResult> sizes, TypedAttr padding) {
  auto type = cast<RankedTensorType>(tensor.getType());
  AffineExpr s0 = b.getAffineSymbolExpr(0), s1 = b.getAffineSymbolExpr(1);
  SmallVector<OpFoldResult> low(type.getRank(), b.getIndexAttr(0)), high;
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    high.push_back(affine::makeComposedFoldedAffineApply(
        b, loc, s0 - s1, {sizes[d], tensor::getMixedSize(b, loc, tensor, d)}));
    shape.push_back(
        getConstantIntValue(sizes[d]).value_or(ShapedType::kDynamic));
  }
  Value padValue = arith::ConstantOp::create(b, loc, padding);
  return tensor::PadOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), tensor, low,
      high, padValue);
}

Value qops::emitDequantizeElement(OpBuilder &b, Location loc, Value x,
                                  Value zeroPoint, Value scale, Type xOnnx,
                                  Type scaleOnnx, FloatType yType) {
  FloatType f32 = b.getF32Type();
  Value difference;
  if (isFloat8Type(xOnnx) || isFloat4Type(xOnnx)) {
    difference = emitConvertToFloat(b, loc, x, xOnnx, f32);
    if (zeroPoint && isFloat4Type(xOnnx))
      difference = arith::SubFOp::create(
          b, loc, difference, emitConvertToFloat(b, loc, zeroPoint, xOnnx, f32));
  } else if (isInt32Type(xOnnx)) {
    difference = emitConvertToFloat(b, loc, x, xOnnx, f32);
    if (zeroPoint)
      difference = arith::SubFOp::create(
          b, loc, difference, emitConvertToFloat(b, loc, zeroPoint, xOnnx, f32));
  } else {
    Value wide = emitExtendToI32(b, loc, x, xOnnx);
    if (zeroPoint)
      wide = arith::SubIOp::create(b, loc, wide,
                                   emitExtendToI32(b, loc, zeroPoint, xOnnx));
    difference = arith::SIToFPOp::create(b, loc, f32, wide);
  }
  Value y = arith::MulFOp::create(
      b, loc, difference, emitConvertToFloat(b, loc, scale, scaleOnnx, f32));
  return emitConvertToFloat(b, loc, y, f32, yType);
}
