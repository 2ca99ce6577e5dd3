//===- QOpsToLinalg.h - qops to linalg patterns -----------------*- C++ -*-===//
//
// Entry points for compilers that want the qops lowering without the pass:
// the storage type converter and one populate function per op family.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_CONVERSION_QOPSTOLINALG_QOPSTOLINALG_H
#define QUANTOPS_CONVERSION_QOPSTOLINALG_QOPSTOLINALG_H

#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h" // kSignatureAttrName

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::qops {

/// Maps ONNX element types to storage types (see the convert-qops-to-linalg
/// pass description): signed/unsigned integers to signless of the same width
/// (2/4-bit to i8), float8/float4/e8m0 to i8 bit patterns; tensors
/// element-wise; everything else unchanged.
class QOpsStorageTypeConverter : public TypeConverter {
public:
  QOpsStorageTypeConverter();
};

/// The storage type of one ONNX element type.
Type getStorageElementType(Type onnxElementType);

/// qops.quantize_linear and qops.dequantize_linear.
void populateQuantizeDequantizeToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns);
/// qops.dynamic_quantize_linear. With `parallel`, the min/max pass reduces
/// chunks of x into partials that threads can share. `minMaxLanes`: the f32
/// lanes of the min/max pass's accumulators (4 vector registers each: 64 on
/// AVX-512, 32 on AVX2, 16 on 128-bit SIMD; see vectorRegisterBits).
void populateDynamicQuantizeToLinalgPatterns(const TypeConverter &converter,
                                             RewritePatternSet &patterns,
                                             bool parallel = false,
                                             int64_t minMaxLanes = 64);
/// QLinearMatMul and MatMulInteger in the generic form alone (the
/// decomposition as linalg ops; any operand type). With `parallel`, an
/// integer gemv (a few rows of a) sums k in chunks into partials that
/// threads can share.
void populateQLinearMatMulToLinalgPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns,
                                           bool parallel = false);
/// How the int8 micro-kernel multiplies (QLinearMatMulKernel.cpp):
///   Madd  zero points subtracted while packing to i16; pair products
///         summed like VPMADDWD (any target: pmaddwd on x86)
///   Vnni  u8 x s8 quads summed like VPDPBUSD (x86 AVX512-VNNI + VL); zero
///         points folded by row / column sums; 12-row tiles (32 registers)
///   AvxVnni  the same with 6-row tiles, for AVX-VNNI without AVX-512 (16
///         registers)
///   Amx   x86 with AMX-INT8: TDPBUSD on 16 x 64 u8 times 16 x 64 s8 quad
///         tiles into 16 x 16 i32 tiles, 2 x 2 of them (32 x 32) per
///         register tile; zero points folded as in Vnni. A statically short
///         a (fewer than 32 rows) takes the Vnni kernel
///   NeonUsmmla AArch64 with i8mm: USMMLA, 2x8 u8 times 8x2 s8 into a 2x2
///         block; 6-row x 16-column tiles of 24 blocks; zero points folded
///         as in Vnni
///   NeonUsdot  the quads on AArch64 with i8mm: USDOT (u8 x s8), 6-row tiles
///   NeonSdot   the quads on AArch64 with dotprod: SDOT (s8 x s8; a read as
///         s8 by flipping the sign bit of a ui8 a), 6-row tiles
///   Maddubs  x86 AVX2 without VNNI: for a constant b whose every pair of
///         products provably fits i16 (with any u8 a), the quads of AvxVnni
///         multiplied by VPMADDUBSW + VPMADDWD by ones; Madd otherwise
enum class Int8KernelStrategy {
  Madd,
  Maddubs,
  Vnni,
  AvxVnni,
  Amx,
  NeonUsmmla,
  NeonUsdot,
  NeonSdot
};

/// QLinearMatMul and MatMulInteger, the whole lowering, one pattern per op:
/// the int8 gemv below where it applies, else (si8/ui8 with f32 scales) packing
/// + the register-blocked micro-kernel (QLinearMatMulKernel.cpp), else the
/// generic form. Use it instead of populateQLinearMatMulToLinalgPatterns,
/// not with it. With `parallel`, the kernel's row blocks and column chunks
/// are distributed over threads with scf.forall.
void populateQLinearMatMulKernelPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    bool parallel = false,
    Int8KernelStrategy strategy = Int8KernelStrategy::Madd);
/// The int8 gemv (QLinearMatMulGemv.cpp) where it applies, else the generic
/// form, one pattern per op: si8/ui8 with f32 scales, at most four rows of a
/// (static) and a static 2-D b, which it reads once in k-pairs with pairwise
/// multiply-adds; a constant b is packed into the pairs (once, by
/// qops-hoist-constant-expressions) when `strategy` is Madd (the quad
/// strategies keep the kernel for it). With `parallel`, k is split into
/// chunks of 1024 rows over threads. Use one of the three populate
/// functions for the matmuls, not several.
void populateQLinearMatMulGemvPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    bool parallel = false,
    Int8KernelStrategy strategy = Int8KernelStrategy::Madd);
/// All of the above (the kernel only with `useInt8Kernel`), plus
/// func/call/return and arith.constant signature conversion to storage
/// types.
void populateQOpsToLinalgConversionPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    bool useInt8Kernel = true, bool parallel = false,
    Int8KernelStrategy strategy = Int8KernelStrategy::Madd,
    int64_t minMaxLanes = 64);

} // namespace mlir::qops

#endif // QUANTOPS_CONVERSION_QOPSTOLINALG_QOPSTOLINALG_H
