//===- Passes.h - QuantOps transformation passes ----------------*- C++ -*-===//
//
// Declarations and registration of the passes in Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_TRANSFORMS_PASSES_H
#define QUANTOPS_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/TargetParser/Triple.h"

namespace mlir::qops {

#define GEN_PASS_DECL
#include "QuantOps/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "QuantOps/Transforms/Passes.h.inc"

/// The marks qops-hoist-constant-expressions leaves for qops-const-eval:
/// on the globals of the hoisted values and on the state global, on the
/// guard's atomic claim, on the scf.if that computes and the one that waits.
inline constexpr llvm::StringLiteral kHoistedValueAttr = "qops.hoisted_value";
inline constexpr llvm::StringLiteral kHoistedStateAttr = "qops.hoisted_state";
inline constexpr llvm::StringLiteral kHoistedGuardAttr = "qops.hoisted_guard";
inline constexpr llvm::StringLiteral kHoistedComputeAttr =
    "qops.hoisted_compute";
inline constexpr llvm::StringLiteral kHoistedWaitAttr = "qops.hoisted_wait";

/// The LLVM function attribute (`passthrough`) of the functions
/// qops-const-eval makes of the constant expressions (what matters is the
/// at-link form's, which the JIT compiles): code that runs once, before
/// the first call. LLVM's translation of an OpenMP region copies it to the
/// region's outlined function; code generation leaves out loop strength
/// reduction for them (runner::canSkipLoopStrengthReduction) and selects
/// their instructions with FastISel (runner::markRunOnceForFastCodegen).
inline constexpr llvm::StringLiteral kRunOnceFunctionAttr = "qops-run-once";

/// The LLVM function attribute (`passthrough`) qops-lower-kernel-intrinsics
/// puts on a function that holds an x86 int8 kernel's step
/// (qkernel.dot_u8s8_quads: VPDPBUSD or VPMADDUBSW; qkernel.dot_i16_pairs:
/// madd's VPMADDWD): code generation compiles it without loop strength
/// reduction (runner::canSkipLoopStrengthReduction).
inline constexpr llvm::StringLiteral kInt8KernelAttr = "qops-int8-kernel";

/// On a function declaration: every memref or tensor it returns is a buffer
/// it allocated, which the caller owns and which aliases nothing the caller
/// has (qops-kernels-apart's kernels; read by
/// qops-split-fresh-result-deallocs).
inline constexpr llvm::StringLiteral kFreshResultsAttr = "qops.fresh_results";

/// The patterns of qops-lower-kernel-intrinsics: each qkernel op to the
/// intrinsics of `triple`'s architecture (x86: VPDPBUSD, or VPMADDUBSW +
/// VPMADDWD for pair_sums_fit_i16; AArch64: USDOT, SDOT, USMMLA). An op the
/// target has no instruction for does not match.
void populateLowerKernelIntrinsicsPatterns(RewritePatternSet &patterns,
                                           const llvm::Triple &triple);

/// qops-fuse-qdq's dynamic-quantization pattern: ConvInteger /
/// MatMulInteger -> Cast(float) -> Mul(scale) -> [Add(offset)], as the
/// importer writes quantize_dynamic's layers, into the integer op's
/// dequantize clause (FuseDynamicQuantization.cpp).
void populateFuseDynamicQuantizationPatterns(RewritePatternSet &patterns);

/// qops-fuse-qdq's QDQ convolution pattern: Q(Conv(DQ(x), DQ(w)) [+ DQ(B)])
/// as the importer writes a float Conv, into qops.qlinear_conv
/// (FuseQDQConvolution.cpp).
void populateFuseQDQConvolutionPatterns(RewritePatternSet &patterns);

/// The frozen canonicalization patterns the qops-canonicalize passes made
/// with it share: built by the first one initialized, built again by one
/// that finds more dialects loaded (Canonicalize.cpp). Thread-safe.
struct CanonicalPatternsCache;
std::shared_ptr<CanonicalPatternsCache> makeCanonicalPatternsCache();
/// qops-canonicalize whose patterns come from `cache`.
std::unique_ptr<Pass>
createQOpsCanonicalize(std::shared_ptr<CanonicalPatternsCache> cache);

} // namespace mlir::qops

#endif // QUANTOPS_TRANSFORMS_PASSES_H
