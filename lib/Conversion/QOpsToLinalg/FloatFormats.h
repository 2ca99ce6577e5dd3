//===- FloatFormats.h - float8/float4 <-> f32, bit-exact to ONNX -*- C++ -*-===//
//
// Scalar emitters for the small float formats, built from arith integer ops
// only (bitcast, shifts, and/or, add/sub, cmpi, select, min), so they work
// inside a linalg.generic body and unchanged after vectorization (a vector
// of f32 in gives a vector of i8 out). No control flow, no intrinsics, no
// tables in memory.
//
// Formats (bits s.eee..e.mm..m, bias B, M mantissa bits):
//
//   type          M  B   max     max code  NaN              Inf     -0
//   f8E4M3FN      3  7   448     0x7E      0x7F/0xFF        none    0x80
//   f8E4M3FNUZ    3  8   240     0x7F      0x80             none    none
//   f8E5M2        2  15  57344   0x7B      0x7D-7F/0xFD-FF  7C/FC   0x80
//   f8E5M2FNUZ    2  16  57344   0x7F      0x80             none    none
//   f4E2M1FN      1  1   6       0x7       none             none    0x8
//   f8E8M0FNU     exponent only: 2^(bits - 127), 0xFF is NaN
//
// A code with exponent field e != 0 is (-1)^s 2^(e-B) (1 + m/2^M); with
// e == 0 it is (-1)^s 2^(1-B) (m/2^M) (subnormal).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_FLOATFORMATS_H
#define QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_FLOATFORMATS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace mlir::qops {

/// y = the `smallType` code of f32 x (ONNX Cast / QuantizeLinear), as i8
/// (f4E2M1FN: in the low 4 bits, the high 4 bits 0).
///
/// `smallType` is one of f8E4M3FN, f8E4M3FNUZ, f8E5M2, f8E5M2FNUZ,
/// f4E2M1FN. The exact value of x is rounded once, to nearest, ties to even
/// (subnormal results included); then:
///
///   saturate = true   |r| > max (and +-Inf)  -> +-max      NaN -> NaN
///   saturate = false  |r| > max (and +-Inf)  -> E4M3FN: NaN with x's sign
///                     (0x7F/0xFF); FNUZ: 0x80; E5M2: +-Inf (0x7C/0xFC)
///   NaN               E4M3FN, E5M2: 0x7F/0xFF (sign kept); FNUZ: 0x80
///   -0, and negative values that round to 0: -0 (0x80) for E4M3FN and
///                     E5M2; +0 (0x00) for the FNUZ types
///   f4E2M1FN          always saturates (+-6, also for +-Inf); NaN -> +6
///                     (0x7, the ONNX float4 Cast table); -0 -> 0x8
///
/// Rounding first and then comparing with max (the ONNX reference) and
/// clipping to [-max, max] first (the ONNX spec's saturate) agree: both give
/// max for every |x| > max. With saturate = false a value above max that
/// rounds to max (e.g. 464 for E4M3FN) stays max.
///
/// `f32Value` is an f32 or a vector of f32; the result is i8 or the vector
/// of i8 of the same shape.
Value emitTruncF32ToSmallFloat(OpBuilder &b, Location loc, Value f32Value,
                               Type smallType, bool saturate);

/// y = f32 value of the `smallType` code in `bits8` (exact).
///
/// `smallType` is one of f8E4M3FN, f8E4M3FNUZ, f8E5M2, f8E5M2FNUZ,
/// f4E2M1FN (the code in the low 4 bits; the high bits are ignored) or
/// f8E8M0FNU. `bits8` is an i8 or a vector of i8. NaN codes give a quiet
/// f32 NaN: with the code's sign for E4M3FN and E5M2 (E5M2 also keeps its
/// 2-bit payload), positive for the FNUZ types and E8M0. E5M2 0x7C/0xFC give
/// +-Inf. E8M0 0x00 gives 2^-127 (an f32 subnormal).
Value emitExtSmallFloatToF32(OpBuilder &b, Location loc, Value bits8,
                             Type smallType);

} // namespace mlir::qops

#endif // QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_FLOATFORMATS_H
