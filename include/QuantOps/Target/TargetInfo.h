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

#include "QuantOps/Dialect/QOps/IR/QOpsAttrs.h" // Int8KernelStrategy

#include "llvm/Support/Error.h"

#include <optional>
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

/// Whether the target fuses a multiply-add in hardware (x86 with FMA3;
/// AArch64 always): llvm.fma is one instruction there, a call to fmaf per
/// lane elsewhere.
bool targetHasNativeFma(const QOpsTarget &target);

/// The bytes of each result that an elementwise vector tile writes at least
/// (qops-vectorize-elementwise's result-tile-bytes): 64 on x86 with AVX-512
/// (F and BW), a whole zmm register and cache line, so that an i8 result
/// streams with one VMOVNTDQ per line instead of VPMOVDB truncating stores,
/// which have no non-temporal form; 0 (the vector width alone) otherwise.
int64_t elementwiseResultTileBytes(const QOpsTarget &target);

/// The int8 micro-kernels (lib/Conversion/QOpsToLinalg,
/// QLinearMatMulKernel.cpp), by name (the int8-strategy options,
/// qops.target's #qops.int8_strategy<...>), in chooseInt8Strategy's order of
/// preference:
///   amx      x86 with AMX-INT8 (and AVX512-VNNI + VL): TDPBUSD on 16 x 64 u8
///            times 16 x 64 s8 quad tiles into 16 x 16 i32 tiles, 2 x 2 of
///            them (32 x 32) per register tile; zero points folded as in
///            vnni; vnni for a statically short a (fewer than 32 rows)
///   vnni     x86 with AVX512-VNNI + AVX512VL: VPDPBUSD on u8 x s8 quads,
///            zero points folded by row / column sums, 12-row tiles (32
///            registers)
///   avxvnni  x86 with AVX-VNNI but no AVX-512: the same, 6-row tiles (16
///            registers)
///   usmmla   AArch64 with i8mm: USMMLA (u8 2x8 times s8 8x2 into 2x2
///            blocks), 6-row x 16-column tiles of 24 blocks, zero points
///            folded as in vnni
///   sdot     AArch64 with dotprod: SDOT on s8 x s8 quads (a read as s8 by
///            flipping the sign bit of a ui8 a), 6-row tiles
///   maddubs  x86 with AVX2 and no VNNI: for a constant b whose every pair
///            of products provably fits i16 (with any u8 a), the quads of
///            avxvnni multiplied by VPMADDUBSW + VPMADDWD by ones; madd
///            otherwise
///   madd     otherwise: zero points subtracted while packing to i16,
///            VPMADDWD-shaped pair products (pmaddwd on x86, smull/saddlp
///            pairs elsewhere)
///   usdot    AArch64 with i8mm, by request only: USDOT on u8 x s8 quads,
///            6-row tiles
// enum class Int8KernelStrategy { Madd, Maddubs, Vnni, AvxVnni, Amx,
//   NeonUsmmla, NeonUsdot, NeonSdot }: generated from QOpsAttrs.td, with
// stringifyInt8KernelStrategy / symbolizeInt8KernelStrategy.

/// Every name, for messages: "madd, maddubs, vnni, avxvnni, amx, usmmla,
/// usdot or sdot".
std::string int8StrategyNames();

/// An int8-strategy option's value: nothing for "auto" (the target's),
/// the named strategy, or the error "int8-strategy must be auto, madd, ...,
/// not 'x'" (the one message of the passes and tools that take the option).
llvm::Expected<std::optional<Int8KernelStrategy>>
parseInt8StrategyOption(llvm::StringRef value);

/// The strategy the resolved target gets: the first of the list above it
/// can run.
Int8KernelStrategy chooseInt8Strategy(const QOpsTarget &target);

/// Why the resolved target cannot run `strategy`: "needs AArch64" /
/// "needs +i8mm" ..., or "" when it can. LLVM aborts on an instruction the
/// target lacks, so tools that compile a named strategy check this first.
std::string int8StrategyUnsupportedReason(const QOpsTarget &target,
                                          Int8KernelStrategy strategy);

/// Features of the resolved target that the host CPU lacks (empty if the
/// code can run here), for JIT users.
std::string featuresMissingOnHost(const QOpsTarget &target);

} // namespace mlir::qops

#endif // QUANTOPS_TARGET_TARGETINFO_H
