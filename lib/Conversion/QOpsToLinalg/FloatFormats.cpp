//===- FloatFormats.cpp - float8/float4 <-> f32, bit-exact to ONNX --------===//
//
// See FloatFormats.h for the formats and the NaN/Inf/-0 rules. Everything
// is integer arithmetic on the f32 bit pattern (plus one exact uitofp/mulf
// when decoding subnormals), in i32, on scalars or vectors alike.
//
//===----------------------------------------------------------------------===//

#include "FloatFormats.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::qops;

namespace {

/// The parameters of one small float format.
struct SmallFloatFormat {
  unsigned mantissaBits; // M
  int bias;              // B
  uint32_t maxCode;      // largest finite magnitude code (sign bit clear)
  uint32_t signBit;      // 0x80, or 0x8 for float4
  bool unsignedZero;     // FNUZ: no -0; 0x80 is the only NaN
  bool hasInf;           // E5M2: exponent field all ones is Inf/NaN
  bool hasNaN;           // false for float4
};

SmallFloatFormat getFormat(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return {3, 7, 0x7E, 0x80, false, false, true};
  if (isa<Float8E4M3FNUZType>(type))
    return {3, 8, 0x7F, 0x80, true, false, true};
  if (isa<Float8E5M2Type>(type))
    return {2, 15, 0x7B, 0x80, false, true, true};
  if (isa<Float8E5M2FNUZType>(type))
    return {2, 16, 0x7F, 0x80, true, false, true};
  if (isa<Float4E2M1FNType>(type))
    return {1, 1, 0x7, 0x8, false, false, false};
  llvm_unreachable("not a float8/float4 type with a sign and a mantissa");
}

/// Builds integer arith ops on values shaped like a reference value: plain
/// i32 (or f32) scalars, or vectors of the same shape.
class IntBuilder {
public:
  IntBuilder(OpBuilder &b, Location loc, Type like) : b(b), loc(loc) {
    i32 = reshape(like, b.getI32Type());
    f32 = reshape(like, b.getF32Type());
  }

  Type reshape(Type like, Type element) const {
    if (auto vector = dyn_cast<VectorType>(like))
      return vector.clone(element);
    return element;
  }

  Value c(uint32_t value) const { return constant(i32, APInt(32, value)); }
  Value cf(float value) const {
    Type element = getElementTypeOrSelf(f32);
    TypedAttr attr = b.getFloatAttr(element, value);
    if (auto vector = dyn_cast<VectorType>(f32))
      attr = DenseElementsAttr::get(vector, attr);
    return arith::ConstantOp::create(b, loc, attr);
  }

  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value band(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value bor(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value shl(Value x, Value y) { return arith::ShLIOp::create(b, loc, x, y); }
  Value shr(Value x, Value y) { return arith::ShRUIOp::create(b, loc, x, y); }
  Value minu(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value eq(Value x, Value y) { return cmp(arith::CmpIPredicate::eq, x, y); }
  Value ugt(Value x, Value y) { return cmp(arith::CmpIPredicate::ugt, x, y); }
  Value ult(Value x, Value y) { return cmp(arith::CmpIPredicate::ult, x, y); }
  Value select(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  Value bitcast(Type to, Value x) {
    return arith::BitcastOp::create(b, loc, to, x);
  }

  /// round_half_to_even(v / 2^n) for unsigned v, 1 <= n <= 31, provided
  /// v + 2^(n-1) < 2^32:
  ///   (v + (2^(n-1) - 1) + ((v >> n) & 1)) >> n
  /// A remainder above half carries; exactly half carries only when the kept
  /// part is odd.
  Value roundShiftRight(Value v, Value n) {
    Value halfMinusOne = sub(shl(c(1), sub(n, c(1))), c(1));
    Value keptLsb = band(shr(v, n), c(1));
    return shr(add(add(v, halfMinusOne), keptLsb), n);
  }
  /// The same for a constant n.
  Value roundShiftRight(Value v, unsigned n) {
    assert(n >= 1 && n <= 31 && "shift out of range");
    Value shift = c(n);
    Value keptLsb = band(shr(v, shift), c(1));
    return shr(add(add(v, c((1u << (n - 1)) - 1)), keptLsb), shift);
  }

  OpBuilder &b;
  Location loc;
  Type i32, f32;

private:
  Value constant(Type type, const APInt &value) const {
    TypedAttr attr = b.getIntegerAttr(getElementTypeOrSelf(type), value);
    if (auto vector = dyn_cast<VectorType>(type))
      attr = DenseElementsAttr::get(vector, attr);
    return arith::ConstantOp::create(b, loc, attr);
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// f32 -> small float
//===----------------------------------------------------------------------===//

/// x (f32) -> code of a format with M mantissa bits and bias B:
///
///   u    = bits(x);  a = u & 0x7FFFFFFF;  E = a >> 23   (biased f32 exp)
///   sign = (u >> 31) << log2(signBit)
///
/// Normal result range, |x| >= 2^(1-B), i.e. E >= 128 - B: the f32 layout
/// e:8|m:23 and the target's e|m:M line up once the exponent is rebiased,
/// so the magnitude code is one rounding shift of the rebiased bits:
///
///   code = rne((a - ((127 - B) << 23)) >> (23 - M))
///
/// A mantissa carry rounds into the next exponent (and past the largest
/// code for values near max: overflow is seen below). Inf (E = 255) gives a
/// code far above max.
///
/// Subnormal result range, E < 128 - B: |x| = sig * 2^(E-150) with
/// sig = (a & 0x7FFFFF) | 0x800000, and the target's quantum there is
/// 2^(1-B-M), so
///
///   code = rne(sig >> s),   s = (151 - B - M) - E  (24 - M <= s; use
///                                                    min(s, 31))
///
/// Rounding up to 2^M gives exactly the code of the smallest normal. Any
/// s >= 25 gives 0 since sig < 2^24 (below half a quantum), so clamping s to
/// 31 is exact; f32 subnormal inputs (E = 0) fall there too. In both ranges
/// the f32 value is rounded once, exactly: there is no double rounding.
///
/// rne(v >> n) = (v + 2^(n-1) - 1 + ((v >> n) & 1)) >> n  (no u32 overflow:
/// a < 2^31 and n <= 22, sig < 2^24 and n <= 31).
///
/// Then, with nan = a > 0x7F800000 and over = code > maxCode:
///
///   saturate (always for float4):  mag = min(code, maxCode)
///                                  y = sign' | mag
///   no saturation:                 y = over ? overflowCode : sign' | code
///   y = nan ? nanCode : y
///
/// sign' = (unsignedZero && code == 0) ? 0 : sign   (FNUZ: no -0; also
/// keeps 0x80, the NaN, from being produced by a negative zero)
///
///   format     overflowCode     nanCode
///   E4M3FN     0x7F | sign      0x7F | sign
///   E4M3FNUZ   0x80             0x80
///   E5M2       0x7C | sign      0x7F | sign
///   E5M2FNUZ   0x80             0x80
///   E2M1       (saturates)      0x7
Value qops::emitTruncF32ToSmallFloat(OpBuilder &b, Location loc,
                                     Value f32Value, Type smallType,
                                     bool saturate) {
  assert(getElementTypeOrSelf(f32Value.getType()).isF32() &&
         "expects an f32 scalar or vector");
  SmallFloatFormat format = getFormat(smallType);
  IntBuilder ib(b, loc, f32Value.getType());
  const unsigned m = format.mantissaBits;
  const int bias = format.bias;
  const bool isFloat4 = !format.hasNaN;
  if (isFloat4)
    saturate = true;

  Value u = ib.bitcast(ib.i32, f32Value);
  Value a = ib.band(u, ib.c(0x7FFFFFFF));
  Value sign =
      ib.shl(ib.shr(u, ib.c(31)), ib.c(llvm::Log2_32(format.signBit)));
  Value exponent = ib.shr(a, ib.c(23));

  // Normal range: rne((a - ((127 - B) << 23)) >> (23 - M)).
  Value rebiased = ib.sub(a, ib.c(uint32_t(127 - bias) << 23));
  Value codeNormal = ib.roundShiftRight(rebiased, 23 - m);

  // Subnormal range: rne(sig >> min((151 - B - M) - E, 31)), E < 128 - B.
  // E is first clamped to 127 - B so that s stays in [24 - M, 31] whatever
  // the lane holds (the normal-range lanes discard this value).
  Value sig = ib.bor(ib.band(a, ib.c(0x7FFFFF)), ib.c(0x800000));
  Value clampedExponent = ib.minu(exponent, ib.c(127 - bias));
  Value shift = ib.minu(ib.sub(ib.c(151 - bias - m), clampedExponent),
                        ib.c(31));
  Value codeSubnormal = ib.roundShiftRight(sig, shift);

  Value isSubnormal = ib.ult(exponent, ib.c(128 - bias));
  Value code = ib.select(isSubnormal, codeSubnormal, codeNormal);

  Value maxCode = ib.c(format.maxCode);
  Value zero = ib.c(0);
  Value signOut = sign;
  if (format.unsignedZero)
    signOut = ib.select(ib.eq(code, zero), zero, sign);

  Value y;
  if (saturate) {
    y = ib.bor(signOut, ib.minu(code, maxCode));
  } else {
    Value overflowCode = format.unsignedZero ? ib.c(0x80)
                         : format.hasInf     ? ib.bor(ib.c(0x7C), sign)
                                             : ib.bor(ib.c(0x7F), sign);
    y = ib.select(ib.ugt(code, maxCode), overflowCode, ib.bor(signOut, code));
  }

  Value nanCode = isFloat4                 ? ib.c(0x7)
                  : format.unsignedZero    ? ib.c(0x80)
                                           : ib.bor(ib.c(0x7F), sign);
  Value isNaN = ib.ugt(a, ib.c(0x7F800000));
  y = ib.select(isNaN, nanCode, y);

  return arith::TruncIOp::create(b, loc,
                                 ib.reshape(f32Value.getType(), b.getI8Type()),
                                 y);
}

//===----------------------------------------------------------------------===//
// small float -> f32
//===----------------------------------------------------------------------===//

/// code (i8) -> f32, exact:
///
///   c = zext(code) (& 0xF for float4);  sign = (c & signBit) << (31 -
///   log2(signBit));  mag = c & (signBit - 1);  e = mag >> M;
///   mant = mag & (2^M - 1)
///
///   e != 0:  bits = (mag << (23 - M)) + ((127 - B) << 23)
///            (the fields line up as in the truncation; 2^(e-B)(1+mant/2^M))
///   e == 0:  bits = bits(f32(mant) * 2^(1-B-M))    exact: mant < 2^M, and
///            the product is a normal f32 (>= 2^-17)
///   y = bitcast(sign | bits)        (mant = 0 gives +-0)
///
/// Specials, selected last:
///   E4M3FN    mag == 0x7F             -> sign | 0x7FC00000 (quiet NaN)
///   FNUZ      c == 0x80               -> 0x7FC00000
///   E5M2      e == 31, mant == 0      -> sign | 0x7F800000 (Inf)
///             e == 31, mant != 0      -> sign | 0x7FC00000 | mant << 21
///   E8M0      c == 0xFF -> 0x7FC00000; c == 0 -> 0x00400000 (2^-127,
///             subnormal); else c << 23 (2^(c-127))
Value qops::emitExtSmallFloatToF32(OpBuilder &b, Location loc, Value bits8,
                                   Type smallType) {
  assert(getElementTypeOrSelf(bits8.getType()).isInteger(8) &&
         "expects an i8 scalar or vector");
  IntBuilder ib(b, loc, bits8.getType());
  Value c = arith::ExtUIOp::create(b, loc, ib.i32, bits8);
  const uint32_t quietNaN = 0x7FC00000;

  if (isa<Float8E8M0FNUType>(smallType)) {
    Value y = ib.shl(c, ib.c(23));
    y = ib.select(ib.eq(c, ib.c(0)), ib.c(0x00400000), y);
    y = ib.select(ib.eq(c, ib.c(0xFF)), ib.c(quietNaN), y);
    return ib.bitcast(ib.f32, y);
  }

  SmallFloatFormat format = getFormat(smallType);
  const unsigned m = format.mantissaBits;
  const int bias = format.bias;
  if (format.signBit == 0x8)
    c = ib.band(c, ib.c(0xF));

  unsigned signShift = 31 - llvm::Log2_32(format.signBit);
  Value sign = ib.shl(ib.band(c, ib.c(format.signBit)), ib.c(signShift));
  Value mag = ib.band(c, ib.c(format.signBit - 1));
  Value exponent = ib.shr(mag, ib.c(m));
  Value mant = ib.band(mag, ib.c((1u << m) - 1));

  Value normalBits =
      ib.add(ib.shl(mag, ib.c(23 - m)), ib.c(uint32_t(127 - bias) << 23));
  // 2^(1-B-M) is exactly representable (>= 2^-17).
  float quantum = std::ldexp(1.0f, 1 - bias - int(m));
  Value subnormal = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, ib.f32, mant), ib.cf(quantum));
  Value subnormalBits = ib.bitcast(ib.i32, subnormal);
  Value bits = ib.select(ib.eq(exponent, ib.c(0)), subnormalBits, normalBits);
  Value y = ib.bor(sign, bits);

  if (isa<Float8E4M3FNType>(smallType)) {
    y = ib.select(ib.eq(mag, ib.c(0x7F)), ib.bor(sign, ib.c(quietNaN)), y);
  } else if (format.unsignedZero) {
    y = ib.select(ib.eq(c, ib.c(0x80)), ib.c(quietNaN), y);
  } else if (format.hasInf) {
    Value special = ib.eq(exponent, ib.c(31));
    Value nan = ib.bor(ib.bor(sign, ib.c(quietNaN)), ib.shl(mant, ib.c(21)));
    Value infOrNaN =
        ib.select(ib.eq(mant, ib.c(0)), ib.bor(sign, ib.c(0x7F800000)), nan);
    y = ib.select(special, infOrNaN, y);
  }
  return ib.bitcast(ib.f32, y);
}
