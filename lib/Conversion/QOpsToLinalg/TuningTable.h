//===- TuningTable.h - the lowering's tuning constants, in one place -*- C++ -*-===//
//
// Every size the lowering chooses for speed rather than for correctness:
// each int8 strategy's register tile and blocking, and the thresholds that
// send a contraction to the gemv, split its k over threads or chunk a
// reduction. Facts of an instruction set (AMX tiles are 16 x 64 bytes,
// QLinearMatMulAmx.h) are not here; the numbers that were measured to pick
// these are in docs/Performance.md and the commit messages.
//
//   strategy    MR  NR  KR  k group  MC   column chunk
//   madd         6  16   2   2       48   256   12 accumulators + 3 of 16 ymm
//   maddubs      as avxvnni for a provably safe constant b, else as madd
//   vnni        12  32   4   4       48   256   24 accumulators of 32 zmm
//   avxvnni      6  16   4   4       48   256
//   amx         32  32  64   4      128   256   2 x 2 TDPBUSD tiles
//   usmmla       6  16   8   4       48   256   k-octets, 2 x 2 blocks
//   usdot        6  16   4   4       48   256
//   sdot         6  16   4   4       48   256
//
// MR: rows of a register tile; NR: columns of a packed B panel; KR: k per
// step of the tile's loop (K is padded to it); k group: k per packed 32-bit
// lane of B (pairs of i16, or quads of bytes); MC: rows of a block whose
// packed A stays in L2 while every B panel passes by (a multiple of MR);
// column chunk: columns of one thread's tile.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_TUNINGTABLE_H
#define QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_TUNINGTABLE_H

#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir::qops {

/// The register tile and blocking of one int8 kernel strategy.
struct Int8KernelConfig {
  int64_t tileRows;     // MR
  int64_t panelColumns; // NR
  int64_t kStep;        // KR
  int64_t kGroup;       // k per packed lane of B
  int64_t rowBlock;     // MC
  int64_t columnChunk;  // columns of one thread's tile
};

/// The row of `strategy` in the table above.
constexpr Int8KernelConfig getInt8KernelConfig(Int8KernelStrategy strategy) {
  switch (strategy) {
  case Int8KernelStrategy::Madd:
  case Int8KernelStrategy::Maddubs: // resolved to Madd or AvxVnni first
    return {6, 16, 2, 2, 48, 256};
  case Int8KernelStrategy::Vnni:
    return {12, 32, 4, 4, 48, 256};
  case Int8KernelStrategy::AvxVnni:
  case Int8KernelStrategy::NeonUsdot:
  case Int8KernelStrategy::NeonSdot:
    return {6, 16, 4, 4, 48, 256};
  case Int8KernelStrategy::Amx:
    return {32, 32, 64, 4, 128, 256};
  case Int8KernelStrategy::NeonUsmmla:
    return {6, 16, 8, 4, 48, 256};
  }
  return {6, 16, 2, 2, 48, 256};
}

/// Columns of b (amx) whose panels the row tiles of a block sweep before the
/// next group's: a tile's 32 rows of a stay in L1 while the group's panels
/// (256 x K bytes, in L2) pass by. In a C model of the 128 x 768 x 3072 loop
/// nest (Xeon family 6 model 207), rows inside groups of 8 panels ran 10%
/// faster than panels outermost (0.30 vs 0.33 ms, best of 300).
constexpr int64_t kAmxPanelGroupColumns = 256;

/// The register tile of the float kernel (FloatMatMulKernel.cpp) on a
/// target with `vectorBits`-bit vector registers, `registers` of them:
///
///   registers        MR  vectors per row  MC   column chunk
///   512 x 32 (zmm)   12  2                96   256   24 accumulators
///   256 x 32 (ymm)    4  3               128   264   12 accumulators
///     (a Zen 4's documented-order tiles of a float b, usesNarrowFloatTiles)
///   256 x 32, quantized weights
///                     4  2                96   256    8 accumulators
///   256 x 16 (ymm)    6  2                96   256   12 accumulators
///   128 x 32 (NEON)   6  4                96   256   24 accumulators
///   128 x 16 (xmm)    6  2                96   256   12 accumulators
///
/// NR = vectors per row x lanes (32 f32 columns with zmm, 16 with ymm or
/// NEON, 8 with xmm); every row of a tile adds one broadcast of a to its
/// accumulators, every k step reads the panel's vectors once. MC rows of
/// a (96 x K x 4 bytes, in L2) meet each B panel of the block in turn. The
/// column chunk is a multiple of NR (qops-distribute takes it as one).
///
/// Zen 4's narrow tiles (family 25 model 17, 1 thread, the documented
/// order, medians of 3 alternating runs; bench/QDQ.md's f32_matmul is the
/// first): 6 x 2 with MC 96 took 7.3 ms for 128 x 768 x 3072, 7.4 for
/// 128 x 3072 x 768, 2.8 for 128 x 1024 x 1024, 4.4 for 384 x 768 x 768;
/// 4 x 3 took 6.2 (MC 128), 6.4, 2.8 and 4.4 (MC 96). Tiles of 8 or 12 rows
/// (8.5 ms), 6 x 3 (7.8) and 2 x 3 (7.4) were slower, although the same
/// instructions in registers reach the ceiling (bench/ISA.md); 256 x 512 x
/// 512 went 1.30 -> 1.40 ms, the one shape found slower. MC 128: a bert
/// a of 128 rows is one block, so each panel of a b too large for the
/// caches comes from memory once, not twice (6 x 2: 7.3 -> 6.7 ms). The
/// weight-only form keeps a power of two of vectors (what its packing and
/// sub-byte reads are written for: a temporary 4 x 3 there gave wrong
/// sums): 4 x 2 took the 4-bit w4_gemm 8.0 -> 7.0 ms and the 128 x 4096 x
/// 4096 prefill 46.5 -> 43.5.
struct FloatKernelConfig {
  int64_t tileRows;      // MR
  int64_t vectorsPerRow; // NR / lanes
  int64_t rowBlock;      // MC
  int64_t columnChunk;   // columns of one thread's tile (a multiple of NR)
};

constexpr FloatKernelConfig getFloatKernelConfig(unsigned vectorBits,
                                                 unsigned registers,
                                                 bool quantizedWeights) {
  if (vectorBits >= 512)
    return {12, 2, 96, 256};
  if (vectorBits == 256 && registers >= 32)
    return quantizedWeights ? FloatKernelConfig{4, 2, 96, 256}
                            : FloatKernelConfig{4, 3, 128, 264};
  if (vectorBits == 128 && registers >= 32)
    return {6, 4, 96, 256};
  return {6, 2, 96, 256};
}

/// CPUs that run a 512-bit float multiply or add as two 256-bit halves
/// (Zen 4). There the documented order's product-then-sum tile reaches
/// 10.8 MACs a cycle in zmm and 16.0 in ymm, where the fused one reaches
/// 16 in both (bench/ISA.md, f32_muladd_12x32 and f32_muladd_6x16). So the
/// float kernel gives those tiles 256-bit vectors (still 32 registers),
/// where they multiply b's values from memory (usesNarrowFloatTiles):
///   - a float b, with at least kNarrowFloatMinRows rows of a;
///   - weights dequantized a chunk at a time (kFloatDequantizeMinTiles
///     row tiles of the 256-bit plan).
/// A gemv that dequantizes in registers keeps zmm (1.3x faster there). The
/// measurements: docs/Performance.md, "The documented order in ymm on a
/// Zen 4".
inline bool splitsWideFloatArithmetic(llvm::StringRef cpu) {
  return cpu == "znver4";
}
constexpr int64_t kNarrowFloatMinRows = 4;

/// The most vectors per row of a short a's tile (planFloatKernel: a gemv
/// gives the accumulators of rows it does not have to wider panels): 8 for
/// float weights (8 sums in flight); weights dequantized in registers also
/// hold a scale and a zero-point vector per accumulator, so 4 with 32
/// vector registers and 2 with 16; 4 for int8 activations (level 4: block
/// sums in i32, scaled once per block). With 4 on AVX2 (Zen 3) the nibble
/// loop of the f32 MatMulNBits gemv kept three of its scale vectors on the
/// stack; 2 took the 1 x 4096 x 11008 4-bit gemv from 6.0-7.3 to 5.5-6.7
/// ms (1 thread) and 3.5-3.7 to 2.8-3.3 ms (2), and the 1 x 4096 x 4096
/// one 4-16%; at level 4 it was 10% slower, so that form keeps 4.
constexpr int64_t getFloatShortTileMaxVectors(unsigned registers,
                                              bool quantizedWeights,
                                              bool int8Activations) {
  if (!quantizedWeights)
    return 8;
  return registers >= 32 || int8Activations ? 4 : 2;
}

/// A run-time b of the float kernel is packed into panels when a has at
/// least this many rows (or an unknown count); a shorter a reads b's rows
/// in place (packing would move as many bytes as the product reads). A b
/// computed from constants is always packed, once.
constexpr int64_t kFloatPackMinRows = 16;

/// The weight-only float kernel dequantizes each panel in chunks of k rows
/// (KC) for the row tiles of its block, instead of every tile dequantizing
/// in registers, where a block has at least kFloatDequantizeMinTiles row
/// tiles (or M is unknown). A chunk is kFloatDequantizeChunkBytes of f32:
/// 256 k of a 32-column zmm panel, 512 of a 16-column ymm or NEON panel
/// (getFloatDequantizeChunk; its rows clamped to [64, 512], so an 8-column
/// SSE panel's chunk is 16 KB). Each chunk reloads and stores the tiles'
/// sums: on Zen 3 (AVX2, 128 x 4096 x 4096 4-bit prefill, medians of 5,
/// paired) 512 k instead of 256 ran 0.89x / 0.94x the time with fma at 1 /
/// 2 threads, 0.91x / 0.95x in the documented order; 1024 gained 0.96x /
/// 0.99x more, for a chunk twice L1. 256 with zmm is what the Xeon (family
/// 6 model 207) measured.
constexpr int64_t kFloatDequantizeChunkBytes = 32768;
constexpr int64_t getFloatDequantizeChunk(int64_t panelColumns,
                                          int64_t elementBytes) {
  int64_t rows = kFloatDequantizeChunkBytes / (panelColumns * elementBytes);
  return rows < 64 ? 64 : rows > 512 ? 512 : rows;
}
constexpr int64_t kFloatDequantizeMinTiles = 3;
/// MC of the chunked form: each block dequantizes every chunk of its
/// panels again, so its blocks are taller than the float kernel's.
constexpr int64_t kFloatDequantizeRowBlock = 192;

/// Tasks the int8 kernel's scf.forall offers at least where its shapes are
/// static (qops-distribute reads it from the nest's marker): the
/// column chunk shrinks (to two B panels at the least) until
/// batches x row blocks x column chunks reaches this, so that 16 threads get
/// several tasks each. With the 256-column chunk alone, 128 x 3072 under amx
/// (one 128-row block) was 12 tasks and ran 4.1x faster on 16 threads than
/// on 1 (bench/Scaling.md).
constexpr int64_t kMinParallelTasks = 64;

/// The most kernel taps the patch forms of a convolution copy unrolled
/// (3x3); a larger kernel's taps are one scf.for (forEachTap): a 9x9
/// kernel unrolled put 81 copies on one tensor chain, which one-shot
/// bufferization analysed in 7.2 s (time quadratic in the chain).
constexpr int64_t kMaxUnrolledTaps = 9;

/// The most groups a grouped (not depthwise) convolution is split into, one
/// pixel-rows convolution per group (DecomposeConvolutions.cpp): each runs
/// the int8 kernel with its weights packed once and its threads, where the
/// one grouped product took the generic contraction on one thread
/// (QLinearConv 3x3 64 -> 64, group 4, 56x56: about 3 ms); each group is
/// one more kernel to compile, so more groups keep the grouped form.
constexpr int64_t kMaxSplitGroups = 8;

/// The most groups a grouped convolution runs as one convolution with
/// block-diagonal weights (DecomposeConvolutions.cpp), per strategy: G
/// times the multiply-adds, one kernel and one patches nest, where the
/// split form's G kernels spent their time forking threads and padding
/// each group's K (2 threads ran slower than 1). QLinearConv 3x3, Xeon
/// family 6 model 207, medians of 3 rounds, split -> dense ms, 1 / 2
/// threads:
///                               amx                      vnni
///   G 2, 64 ch, 28x28     0.138 -> 0.110 / 0.193 -> 0.093   0.147 -> 0.211 / 0.145 -> 0.150
///   G 4, 64 ch, 56x56     0.687 -> 0.319 / 0.964 -> 0.323   1.176 -> 1.214 / 1.027 -> 0.523
///   G 8, 128 ch, 28x28    0.455 -> 0.356 / 0.847 -> 0.264   0.386 -> 0.779 / 0.672 -> 0.470
/// Under amx the G-fold products cost less than the G kernels' overhead at
/// every size; vnni pays them in full at 8 groups (twice the split form's
/// time on one thread), and at 4 gains on 2 threads what it keeps on one.
/// Other strategies keep the split form (madd's rate is a fifth of vnni's).
constexpr int64_t kMaxDenseGroupsAmx = 8;
constexpr int64_t kMaxDenseGroupsVnni = 4;

/// At most this many rows of a (static): with a b known only at run time
/// the kernel leaves the product to the gemv or the generic contraction
/// (packing b would cost more than the product); the gemv takes up to this
/// many rows (its panels of one row run together: at most 8 accumulators).
constexpr int64_t kGemvMaxRows = 4;
/// Rows of b in one thread's chunk when a gemv's k is split over threads
/// (the int8 gemv and the generic contraction's split-k).
constexpr int64_t kGemvKChunkRows = 1024;
/// Columns of one thread's block of the int8 gemv when K has fewer than two
/// chunks.
constexpr int64_t kGemvColumnBlock = 512;
/// k-pairs of one sweep of the int8 gemv over a row-major b.
constexpr int64_t kGemvBlockPairs = 4;
/// Rows of L lanes per thread chunk of DynamicQuantizeLinear's min/max pass
/// (64K elements, 256 KiB).
constexpr int64_t kMinMaxChunkRows = 1024;

} // namespace mlir::qops

#endif // QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_TUNINGTABLE_H
