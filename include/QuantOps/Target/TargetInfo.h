//===- TargetInfo.h - the CPU the pipelines compile for ---------*- C++ -*-===//
//
// One target (LLVM triple, CPU, feature string) decides both the vector
// strategy the lowering picks in MLIR and LLVM's code generation (the
// module's llvm.target_triple and each function's target-cpu /
// target-features). Empty fields mean the host.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_TARGET_TARGETINFO_H
#define QUANTOPS_TARGET_TARGETINFO_H

#include "llvm/Support/Error.h"

#include <string>

namespace mlir::qops {

struct QOpsTarget {
  std::string triple;   // e.g. x86_64-unknown-linux-gnu, aarch64-linux-gnu
  std::string cpu;      // e.g. znver3, sapphirerapids, neoverse-v1
  std::string features; // e.g. +avx512vnni,-avx512f ("" = the CPU's)
};

/// Fills the empty fields from the host (the triple of this process, the
/// host CPU and, when the CPU is the host's, the host's features) and
/// checks that LLVM knows the triple and the CPU.
llvm::Expected<QOpsTarget> resolveTarget(QOpsTarget target);

/// True if the resolved target has every feature in `features`
/// ("+avx512vnni,+avx512vl"), counting the CPU's own and the explicit ones.
bool targetHasFeatures(const QOpsTarget &target, llvm::StringRef features);

/// The width in bits of the target's widest vector registers for f32 and
/// integer arithmetic: 512 on x86 with AVX-512 (F and BW), 256 with AVX2,
/// 128 otherwise (SSE, NEON). Lane counts that keep several accumulators in
/// registers are sized by it.
unsigned vectorRegisterBits(const QOpsTarget &target);

/// The QLinearMatMul micro-kernel the target gets:
///   "amx"   x86 with AMX-INT8 (and AVX512-VNNI + VL): TDPBUSD on AMX tiles,
///           32 x 32 register tiles, zero points folded as in vnni; vnni
///           for a statically short a
///   "vnni"  x86 with AVX512-VNNI + AVX512VL: VPDPBUSD on u8 x s8 quads,
///           zero points folded by row / column sums, 12-row tiles
///   "avxvnni"  x86 with AVX-VNNI but no AVX-512: the same, 6-row tiles
///   "usmmla" AArch64 with i8mm: USMMLA (u8 2x8 times s8 8x2 into 2x2
///           blocks), zero points folded as in vnni, 6-row tiles
///   "usdot" AArch64 with i8mm, by request only: USDOT on u8 x s8 quads,
///           6-row tiles
///   "sdot"  AArch64 with dotprod: SDOT on s8 x s8 quads, 6-row tiles
///   "maddubs"  x86 with AVX2 and no VNNI: VPMADDUBSW on the quads of
///           avxvnni for a constant b whose pair sums provably fit i16,
///           madd otherwise
///   "madd"  otherwise: zero points subtracted while packing to i16,
///           VPMADDWD-shaped pair products (pmaddwd on x86, smull/saddlp
///           pairs elsewhere)
std::string chooseInt8Strategy(const QOpsTarget &target);

/// Why the resolved target cannot run int8 strategy `strategy` (one of
/// chooseInt8Strategy's names): "needs AArch64" / "needs +i8mm" ..., or ""
/// when it can. LLVM aborts on an instruction the target lacks, so tools
/// that compile a named strategy check this first.
std::string int8StrategyUnsupportedReason(const QOpsTarget &target,
                                          llvm::StringRef strategy);

/// Features of the resolved target that the host CPU lacks (empty if the
/// code can run here), for JIT users.
std::string featuresMissingOnHost(const QOpsTarget &target);

} // namespace mlir::qops

#endif // QUANTOPS_TARGET_TARGETINFO_H
