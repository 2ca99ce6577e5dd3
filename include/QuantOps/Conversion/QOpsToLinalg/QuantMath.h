//===- QuantMath.h - the quantization arithmetic, written once --*- C++ -*-===//
//
// Scalar building blocks emitted inside linalg.generic bodies: conversions
// between ONNX element types and computation types, the division of
// QuantizeLinear, rounding half to even with saturation, and the indexing
// maps that broadcast scales and zero points. Every lowering uses these; none
// re-derives the math. Public (part of QuantOpsQOpsToLinalg) so that other
// passes, such as qops-fuse-qdq, and other compilers emit the same formulas.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_CONVERSION_QOPSTOLINALG_QUANTMATH_H
#define QUANTOPS_CONVERSION_QOPSTOLINALG_QUANTMATH_H

#include "QuantOps/Dialect/QOps/IR/QuantParams.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <limits>

namespace mlir::qops {

/// Extends a stored integer (i8/i16/i32 storage of an ONNX integer type) to
/// i32: sign extension for si*/i32, zero extension for ui*.
Value emitExtendToI32(OpBuilder &b, Location loc, Value stored,
                      Type onnxType);

/// Converts a stored ONNX value to the float type `to`: integers exactly up
/// to 24 bits into f32 (int32 rounds to nearest even); f32/f16/bf16/f64 are
/// extended or rounded to nearest even; float8/float4/e8m0 bit patterns are
/// decoded exactly (FloatFormats.h) and then converted.
Value emitConvertToFloat(OpBuilder &b, Location loc, Value stored,
                         Type onnxType, FloatType to);

/// lhs <op> rhs in their (common) float type, correctly rounded. bf16 is
/// computed in f32 and rounded once to bf16 by emitConvertToFloat (exact for
/// +, -, *, / since f32 has more than 2 * 8 + 2 significant bits), which
/// does not depend on the target's bf16 conversion instructions.
enum class FloatBinaryOp { Add, Sub, Mul, Div };
Value emitFloatBinary(OpBuilder &b, Location loc, FloatBinaryOp op, Value lhs,
                      Value rhs);

/// Rounds a float value (f16, bf16, f32 or f64) to a float8 or float4 type,
/// returning the i8 bit pattern: the value is rounded once, to nearest even
/// (an f64 goes to f32 with round-to-odd first, which keeps the final
/// rounding exact), with ONNX's saturate / NaN / Inf / -0 rules.
Value emitRoundToSmallFloat(OpBuilder &b, Location loc, Value value,
                            Type smallType, bool saturate);

/// y = (x - zp) * scale   (ONNX DequantizeLinear, one element)
///
///   d = x - zp          exact in i32 (inputs of at most 16 bits)
///   y = T(f32(d) * f32(scale))   the product in f32, rounded once to the
///                                output type T (as the ONNX reference does)
/// int32 inputs: x and zp are converted to f32 (nearest even) and subtracted
/// in f32, matching the reference's `x.astype(float32) - zp`.
/// float8 inputs: d = f32(x), exact; the zero point (0) is ignored, as the
/// ONNX reference does. float4 inputs: d = f32(x) - f32(zp), exact (the
/// spec's formula; ONNX's reference ignores a float4 zero point).
/// e8m0 scales are decoded to f32 exactly (powers of two).
/// `x`, `zeroPoint` (null: no zero point) and `scale` are stored scalars of
/// the ONNX types `xOnnx` / `scaleOnnx` (the body of an elementwise
/// linalg.generic, vectorized afterwards).
Value emitDequantizeElement(OpBuilder &b, Location loc, Value x,
                            Value zeroPoint, Value scale, Type xOnnx,
                            Type scaleOnnx, FloatType yType);

/// y = saturate(round_half_to_even(q) + zp)   (ONNX QuantizeLinear)
///
///   r  = roundeven(q)                     in q's type (f16/bf16/f32/f64)
///   r  = isnan(r) ? 0 : r                 NaN quantizes like 0 (-> zp)
///   r' = clamp(r, qmin - zp, qmax - zp)   in f32 (f64 for f64 q): exact,
///                                         |bounds| < 2^17; +-Inf saturate
///   y  = fptosi(r') + zp                  in i32, now within [qmin, qmax]
///
/// `zeroPoint` is an i32 value (already extended). Returns an i32. Works on
/// scalars and on vectors (q, zeroPoint of one vector shape) alike.
/// `finite`: q is known not to be NaN (the NaN test is left out).
Value emitRoundAddZeroPointSaturate(OpBuilder &b, Location loc, Value q,
                                    Value zeroPoint, int64_t qmin,
                                    int64_t qmax, bool finite = false);

/// The requantization multiplier made finite without changing any
/// requantized result (emitRequantizeSum):
///
///   m' = isnan(m) ? 0 : clamp(m, -2^32, 2^32)      (f32)
///
/// Every int32 acc gives the same y with m' as with m: NaN * acc and
/// +-Inf * 0 are NaN, which requantizes like 0 (-> zp), as 0 * acc does;
/// for |m| > 2^32 and acc != 0, |acc m| and |acc m'| are both >= 2^32 with
/// acc m's sign, both saturate alike. Then |acc m'| <= 2^63: the product is
/// finite, and the requantization needs no NaN test per output. Computed
/// where the multiplier is (once per column or channel), not per output.
Value emitFiniteMultiplier(OpBuilder &b, Location loc, Value multiplier);

/// y = saturate(round_half_to_even(f64(acc) * f64(multiplier)) + zp)
///                   (QLinearMatMul's and QLinearConv's requantization)
///
///   p  = f64(acc) * f64(m')               one rounding (exact for
///                                         |acc| < 2^29); finite
///   r  = clamp(roundeven(p), qmin - zp, qmax - zp)   in f64
///   y  = fptosi(r) + zp                   then truncated to 8 bits
///
/// `acc` i32, `multiplier` m' from emitFiniteMultiplier (f32), `zeroPoint`
/// y's stored zero point (the i8 storage of `yOnnx`, si8 or ui8): scalars,
/// or vectors of one shape. Returns y in that storage type (of `acc`'s
/// shape).
Value emitRequantizeSum(OpBuilder &b, Location loc, Value acc,
                        Value multiplier, Value zeroPoint, Type yOnnx);

/// The largest |acc| emitRequantizeSmallSum takes: f32(acc) is exact.
constexpr int64_t kMaxSmallSum = int64_t(1) << 24;

/// emitRequantizeSum's y for a sum known to be at most kMaxSmallSum in
/// magnitude (the depthwise convolution's: 9 taps of 255 * 255 ~ 2^19),
/// in f32 with one rounding (16 lanes per AVX-512 register instead of 8,
/// no round or convert instruction):
///
///   C  = 1.5 * 2^23                      f32, even; spacing 1 in [2^23, 2^24)
///   p  = fma(f32(acc), m', C)            acc m' + C rounded once (RNE): for
///                                        |acc m'| < 2^22, C + roundeven(acc m')
///   p' = clamp(p, C + qmin - zp, C + qmax - zp)    (exact bounds)
///   y  = bits(p') - bits(C) + zp         i32, then truncated to 8 bits
///
/// For |acc m'| >= 2^22, p lies beyond the bound of that sign (rounding is
/// monotone) and saturates as the f64 form does; acc m' is finite (m' from
/// emitFiniteMultiplier, |acc m'| <= 2^56). The one rounding is the FP
/// environment's (round to nearest even, which LLVM assumes).
Value emitRequantizeSmallSum(OpBuilder &b, Location loc, Value acc,
                             Value multiplier, Value zeroPoint, Type yOnnx);

/// Whether every sum of `products` products of at most 255 * 255 (|x -
/// x_zp| |w - w_zp| of int8 operands) plus `bias` (null, or an i32 tensor
/// that must be a constant to count) is at most kMaxSmallSum in magnitude:
/// whether emitRequantizeSmallSum may requantize it.
bool provesSmallSums(int64_t products, Value bias);

/// Whether every sum at most `sumBound` in magnitude plus `bias` (as in
/// provesSmallSums) is at most kMaxSmallSum in magnitude.
bool provesSmallSumBound(int64_t sumBound, Value bias);

/// For a constant t of 8-bit integers (traced through storage casts,
/// transposes and reshapes that keep dim `dim` a dim of its own to an
/// arith.constant) and a constant zero point zp (a scalar or one per index
/// of `dim`):
///
///   S = max_n sum_{every other index i} |t[i, n] - zp[n]|     n along dim
///
/// For a contraction's constant b and its columns (or a and its rows),
/// every sum_k (a - a_zp)(b - b_zp) is then at most 255 S in magnitude,
/// whatever the other operand. None when t or zp is not such a constant;
/// a value above `limit` as soon as a sum passes it (the scan stops there).
/// Weights seldom use their whole range: a QLinearConv 3x3 of 64 channels
/// (K = 576) with uniform si8 weights has S near 576 x 64, so its sums are
/// provably below 2^24, where the K x 255 x 255 bound is above 2^25.
std::optional<int64_t>
getMaxAbsSumAlong(Value t, int64_t dim, Value zeroPoint,
                  int64_t limit = std::numeric_limits<int64_t>::max());

/// Whether emitRequantizeSmallSum's fma is one instruction for the module
/// of `op`: its qops.target (TargetInfo.h, targetHasNativeFma), or true
/// without one (the host's lowering configures it).
bool fmaIsNative(Operation *op);

/// The affine map that reads a Q/DQ scale or zero point of the given
/// granularity inside an iteration space equal to the data's dimensions:
///   per-tensor: (d0..dn) -> ()           (the parameter is rank 0)
///   per-axis:   (d0..dn) -> (d_axis)
///   blocked:    (d0..dn) -> (d0, .., d_axis floordiv B, .., dn)
AffineMap getQuantParamMap(MLIRContext *ctx, unsigned rank,
                           const QuantGranularity &granularity);

/// Collapses a one-element tensor of any rank (static shape [1, .., 1]) to
/// rank 0, so per-tensor parameters always index as `() `.
Value collapseToScalarTensor(OpBuilder &b, Location loc, Value tensor);

/// Checks at run time that two sizes are equal when the IR cannot tell
/// (either is dynamic): `cf.assert(lhs == rhs, message)`. The message starts
/// with the verifier's constraint label. Statically known sizes emit
/// nothing (the verifier already checked them).
void emitSizeCheck(OpBuilder &b, Location loc, OpFoldResult lhs,
                   OpFoldResult rhs, const llvm::Twine &message);

/// An empty tensor with the (possibly dynamic) shape of `like` and element
/// type `elementType`.
Value createEmptyLike(OpBuilder &b, Location loc, Value like,
                      Type elementType);

/// `tensor` with its dims permuted (linalg.transpose into a tensor.empty,
/// dynamic sizes read with tensor.dim): result dim i is its dim perm[i].
Value emitTranspose(OpBuilder &b, Location loc, Value tensor,
                    ArrayRef<int64_t> perm);

/// `tensor` padded at the end of every dim with `padding` up to `sizes`
/// (tensor.pad; a dim already at its size gets no padding).
Value padHighTo(OpBuilder &b, Location loc, Value tensor,
                ArrayRef<OpFoldResult> sizes, TypedAttr padding);

} // namespace mlir::qops

#endif // QUANTOPS_CONVERSION_QOPSTOLINALG_QUANTMATH_H
