//===- QOpsToLinalg.h - qops to linalg patterns -----------------*- C++ -*-===//
//
// Entry points for compilers that want the qops lowering without the pass:
// the storage type converter and one populate function per op family.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_CONVERSION_QOPSTOLINALG_QOPSTOLINALG_H
#define QUANTOPS_CONVERSION_QOPSTOLINALG_QOPSTOLINALG_H

#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h" // kSignatureAttrName
#include "QuantOps/Target/TargetInfo.h"            // Int8KernelStrategy
#include "QuantOps/Utils/ConstantBytes.h"          // kViewedConstantBytes

#include "mlir/Transforms/DialectConversion.h"

#include <optional>

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

/// An ONNX-typed tensor as its storage type: a
/// builtin.unrealized_conversion_cast bridge, which convert-qops-to-linalg
/// folds (the value itself when the types agree).
Value castToStorage(OpBuilder &b, Location loc, Value value);

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
/// The decomposition stage (qops-decompose-contractions): QLinearMatMul and
/// MatMulInteger become qkernel.matmul, with their operands unchanged
/// (ONNX types); the requantization is QLinearMatMul's. Plain rewrite
/// patterns: alone (the pass), or within the type conversion
/// (populateQOpsToLinalgConversionPatterns adds them).
/// `strategy`: the int8 kernel's (the module's configured target), which
/// picks the form of grouped convolutions; none: the forms that do not
/// depend on it.
void populateDecomposeContractionsPatterns(
    RewritePatternSet &patterns,
    std::optional<Int8KernelStrategy> strategy = std::nullopt,
    int64_t maxDenseGroups = -1);
/// The convolutions' part of the decomposition stage (part of
/// populateDecomposeContractionsPatterns): ConvInteger and QLinearConv
/// become qkernel.matmul on the patches of x (im2col), the weights as its
/// left operand (DecomposeConvolutions.cpp). With a strategy whose byte
/// products are cheap (amx, vnni), a convolution of a few groups (2 to
/// kMaxDenseGroupsAmx / kMaxDenseGroupsVnni) is one convolution with
/// block-diagonal weights; `maxDenseGroups` >= 0 sets that bound instead.
void populateDecomposeConvolutionsPatterns(
    RewritePatternSet &patterns,
    std::optional<Int8KernelStrategy> strategy = std::nullopt,
    int64_t maxDenseGroups = -1);
/// The pack stage's lowering (qops-lower-packing): each qkernel.pack_a and
/// qkernel.pack_b (made by the int8 kernel) becomes the linalg / vector IR
/// of its layout.
void populateLowerPackingPatterns(RewritePatternSet &patterns);

/// The float contraction (qops-lower-float-contractions,
/// FloatMatMulKernel.cpp): f32 / f64 linalg.matmul and linalg.batch_matmul
/// on tensors -> packed B panels and register tiles for `target`'s vector
/// registers, in the engine's nest of tiles. `fma`: one vector.fma per
/// step instead of a multiply then an add (not the documented order).
/// `strategy`: the int8 dot product of the weight-only form's int8
/// activations (a matmul marked kAccuracyLevelAttrName = 4, QOpsDialect.h).
/// `defaultAccuracyLevel`: the level of a matmul that carries none (a
/// DequantizeLinear -> MatMul graph; ONNX Runtime's
/// session.qdq_matmulnbits_accuracy_level): 4 takes int8 activations for
/// 4-bit weights, any other level f32.
void populateFloatContractionPatterns(RewritePatternSet &patterns,
                                      const QOpsTarget &target, bool fma,
                                      Int8KernelStrategy strategy,
                                      int64_t defaultAccuracyLevel = 0);
/// The float 2-D convolution (f32 / f64 linalg.conv_2d_nchw_fchw with a
/// fill init, FloatConvolutions.cpp) as its patches times the transposed
/// weights: a linalg.matmul for populateFloatContractionPatterns, summed in
/// the convolution's own order (bit-identical results).
void populateFloatConvolutionPatterns(RewritePatternSet &patterns);
/// qkernel.matmul (QLinearMatMul and MatMulInteger, decomposed) in the
/// generic form alone (linalg ops; any operand type). With `parallel`, an
/// integer gemv (a few rows of a) sums k in chunks into partials that
/// threads can share.
void populateQLinearMatMulToLinalgPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns,
                                           bool parallel = false);
/// qkernel.matmul, the whole lowering, one pattern: the int8 gemv below
/// where it applies, else (si8/ui8 with f32 scales) qkernel.pack_a /
/// pack_b (for qops-lower-packing) + the register-blocked micro-kernel
/// (QLinearMatMulKernel.cpp), else the generic form. Use it instead of
/// populateQLinearMatMulToLinalgPatterns, not with it. With `parallel`, the kernel's row blocks and column chunks
/// are distributed over threads with scf.forall. The pass that applies it
/// declares the LLVM dialect (the epilogue's loop_annotation,
/// LoopAnnotations.h).
void populateQLinearMatMulKernelPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    bool parallel = false,
    Int8KernelStrategy strategy = Int8KernelStrategy::Madd);
/// The int8 gemv (QLinearMatMulGemv.cpp) where it applies, else the generic
/// form, for qkernel.matmul: si8/ui8 with f32 scales, at most four rows of a
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
/// All of the above (the decomposition, then the kernel only with
/// `useInt8Kernel`; run qops-lower-packing after it), plus
/// func/call/return and arith.constant signature conversion to storage
/// types. An 8- or 16-bit integer constant of at least
/// `viewedConstantBytes` bytes becomes a dense_resource that views the
/// ONNX-typed constant's buffer (ConstantBytes.h), others a copy.
void populateQOpsToLinalgConversionPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    bool useInt8Kernel = true, bool parallel = false,
    Int8KernelStrategy strategy = Int8KernelStrategy::Madd,
    int64_t minMaxLanes = 64,
    int64_t viewedConstantBytes = kViewedConstantBytes);

} // namespace mlir::qops

#endif // QUANTOPS_CONVERSION_QOPSTOLINALG_QOPSTOLINALG_H
