//===- QLinearMatMulKernel.cpp - the exact int8 register-blocked kernel ---===//
//
// si8/ui8 QLinearMatMul with f32 scales, and MatMulInteger (whose i32 sums
// are written without requantization), as packing + a register-blocked
// micro-kernel in the vector dialect, on tensors (one-shot bufferization
// makes it in place). The steps are functions: kernelUnsupportedReason,
// planKernel (the strategy's tile, TuningTable.h), packOperands,
// TileEmitter (accumulate, writeTile, emitBlock), emitKernelTileLoops (the
// nest of tiles that qops-distribute gives to threads, TileLoops.h).
//
//   A16[b, m, k] = a[b, m, k] - a_zp[m]   i16, padded with 0 to [B, M, Kp]
//   B16[b, n/16, k/2, 16] = (b[b, k, n] - b_zp[n]) | (b[b, k+1, n] - ..) << 16
//                                         i16 k-pairs interleaved (as one
//                                         i32), 16-column panels, padded
//                                         with 0 to Kp, Np
//   B8[b, n/16, k/2, 2 (n mod 16) + k mod 2] = b[b, k, n]
//                                         instead where b_zp is 0 (absent,
//                                         or a constant 0: symmetric
//                                         weights): the same pairs as
//                                         bytes, extended as they are read
//                                         (VPMOVSXBW / VPMOVZXBW from
//                                         memory), half the packed bytes
//   for each batch b, 16-column panel, 6-row tile:
//     acc[6][2] : vector<8xi32> = 0
//     for each k-pair:
//       B pair rows (2 x vector<16xi16>, columns 0-7 and 8-15 interleaved)
//       for each row r: A pair (a[r,k], a[r,k+1]) broadcast to 8 lanes
//         acc[r][h] += madd(Apair, Bpair[h])
//     epilogue: y = saturate(round_half_even(f64(acc) * f64(multiplier)) +
//               y_zp), the multiplier (a_scale * b_scale) / y_scale in f32;
//               the accumulators are stored to a buffer of the block
//               ([MR, NR] i32) and the epilogue is one loop over the tile's
//               rows (writeTile): written once instead of MR times, it is
//               half of the LLVM IR less to compile
//   y is written as [B, M, N]: the last tile of a row block, when M is not
//   a multiple of MR, takes its rows past M as row M - 1 (a, row sums and
//   per-row parameters clamped) and writes row M - 1's bytes again; every
//   tile is then emitted in that clamped form, one copy of the k loop (the
//   clamp changes nothing below M); columns past N are masked writes
//
// madd(x, y) = extsi(x) * extsi(y) summed over adjacent lane pairs
// (x[2i]y[2i] + x[2i+1]y[2i+1]); acc + madd is one qkernel.dot_i16_pairs,
// lowered late to that plain form, which LLVM selects as VPMADDWD + VPADDD
// on x86 (pmaddwd / smlal pairs elsewhere). Subtracting the zero points while
// packing keeps every operand in [-255, 255], so each pair sum is at most
// 2 * 255 * 255 and nothing saturates: the i32 accumulation is exact
// (wrapping only past K ~ 33000, as ONNX permits). The ONNX formula
// sum_k (a - a_zp)(b - b_zp) is computed literally; no row/column-sum
// correction terms are needed.
//
// The vnni strategy (x86 with AVX512-VNNI + VL, or AVX-VNNI) multiplies
// u8 x s8 quads with VPDPBUSD instead, four k per instruction, and folds the
// zero points by row and column sums (exact in wrapping i32 arithmetic):
//
//   a' = a (ui8) or a + 128 (si8, as u8)      za' = za or za + 128
//   b' = b (si8) or b - 128 (ui8, as s8)      zb' = zb or zb - 128
//   (a - za)(b - zb) = (a' - za')(b' - zb')
//   acc[m, n] = sum_k a'b' - zb'[n] rowsum[m] + za'[m] (K zb'[n] - colsum[n])
//   rowsum[m] = sum_k a'[m, k]     colsum[n] = sum_k b'[k, n]
//   A8[b, m, k] = a', padded with 0 to [B, M, Kp] (Kp a multiple of 4;
//                 a u8 a with K a multiple of 4 is read in place)
//   B32[b, n/NR, k/4, NR] = b'[4q] | b'[4q+1] << 8 | b'[4q+2] << 16 |
//                           b'[4q+3] << 24, padded with 0
//   12 x 32 tiles on AVX-512 (NR = 32: two zmm of 16 lanes per row, 24
//   accumulators of 32 registers), 6 x 16 tiles with AVX-VNNI alone
//   (avxvnni strategy, ymm, 16 registers)
//   for each k-quad: acc[r][h] = vpdpbusd(acc[r][h], A quad of row r
//                    broadcast, B32 lanes of half h)
// B16 / B8 / B32 are one qkernel.pack_b each (layout pairs / byte_pairs /
// quads / octets),
// written as IR by qops-lower-packing (LowerPacking.cpp); a constant b is
// packed by that same IR, which qops-hoist-constant-expressions runs once,
// at the first call (qops-const-eval: at compile time).
//
// The maddubs strategy (x86 AVX2 without VNNI) runs the avxvnni kernel for
// a constant b whose pairs of products provably fit i16 (every pair of k
// rows: positive parts and negative parts of b' at most 128; see
// constantBPairSumsFitI16), each quad step as VPMADDUBSW + VPMADDWD by ones
// + VPADDD (qkernel.dot_u8s8_quads {pair_sums_fit_i16}); the madd kernel for
// any other b.
//
// The amx strategy (x86 AMX-INT8) uses the same a', b', row sums, column
// term and 32-column B32 panels, with K padded to a multiple of 64, and
// multiplies 32 x 32 register tiles as 2 x 2 TDPBUSD tiles of 16 x 16
// (QLinearMatMulAmx.h); a tile that reaches past M reads a copy of its
// rows padded to 32 (packAmxTail), the others read A8 in place.
// A statically short a (M < 32) takes the vnni kernel instead.
//
// The usmmla strategy (AArch64 i8mm) uses the same a', b', row sums and
// column term, but steps over k-octets with USMMLA on 2x2 blocks of a 6-row
// tile, B32 reordered per column pair (QLinearMatMulMmla.h).
//
// Forms outside this kernel (float8, f16/bf16 scales, 1-D operands,
// broadcast batch dims, batched parameters) use the generic lowering in
// QLinearMatMul.cpp.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"

#include "QLinearMatMulAmx.h"
#include "QLinearMatMulLanes.h"
#include "QLinearMatMulMmla.h"
#include "QLinearMatMulVnni.h"
#include "TileLoops.h"
#include "TuningTable.h"
#include "QuantOps/Conversion/QOpsToLinalg/QuantMath.h"
#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"
#include "QuantOps/Utils/LoopAnnotations.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::qops;

namespace {

constexpr int64_t kHalf = 8; // i32 lanes per accumulator vector of madd

/// b' = b (si8) or b - 128 (ui8): the s8 operand of the quad dot products.
int32_t toSignedOperand(int32_t value, bool isUnsigned) {
  return isUnsigned ? value - 128 : value;
}

/// Whether VPMADDUBSW multiplies the constant b of `op` exactly: for every
/// column and every pair of k rows it sums (2q, 2q + 1), of b' (the s8
/// operand: b, or b - 128 for ui8; rows past K are 0),
///   max over u8 a of |a0 b'0 + a1 b'1| = 255 max(pos(b'0) + pos(b'1),
///                                               neg(b'0) + neg(b'1))
/// must fit i16: each sum of positive parts and of negative parts at most
/// 128 (255 * 128 = 32640; 255 * 129 = 32895 > 32767).
bool constantBPairSumsFitI16(Value b, RankedTensorType bType) {
  DenseElementsAttr values;
  if (!matchPattern(b, m_Constant(&values)) || !bType.hasStaticShape())
    return false;
  bool isUnsigned = cast<IntegerType>(bType.getElementType()).isUnsigned();
  // The bytes as stored (si8/ui8: one byte each; a splat holds one).
  ArrayRef<char> raw = values.getRawData();
  bool splat = values.isSplat();
  int64_t k = bType.getDimSize(bType.getRank() - 2), n = bType.getShape().back();
  int64_t batches = bType.getNumElements() / (k * n);
  auto prime = [&](int64_t bb, int64_t row, int64_t column) {
    char byte = raw[splat ? 0 : (bb * k + row) * n + column];
    return toSignedOperand(isUnsigned ? int32_t(uint8_t(byte))
                                      : int32_t(int8_t(byte)),
                           isUnsigned);
  };
  for (int64_t bb = 0; bb < batches; ++bb)
    for (int64_t row = 0; row < k; row += 2)
      for (int64_t column = 0; column < n; ++column) {
        int32_t first = prime(bb, row, column);
        int32_t second = row + 1 < k ? prime(bb, row + 1, column) : 0;
        int32_t positive = std::max(first, 0) + std::max(second, 0);
        int32_t negative = std::max(-first, 0) + std::max(-second, 0);
        if (positive > 128 || negative > 128)
          return false;
      }
  return true;
}

/// Why the kernel does not take `op`, or "" when it does (checked before
/// any IR is built).
StringRef kernelUnsupportedReason(const Int8Contraction &op) {
  auto aType = cast<RankedTensorType>(op.a.getType());
  auto bType = cast<RankedTensorType>(op.b.getType());
  if (StringRef reason = int8MatMulUnsupportedReason(op); !reason.empty())
    return reason;
  int64_t aRank = aType.getRank(), bRank = bType.getRank();
  if (aRank < 2 || bRank < 2)
    return "a vector operand";
  if (llvm::is_contained(aType.getShape(), 0) ||
      llvm::is_contained(bType.getShape(), 0))
    return "an empty operand";
  // Batch dims: b shared (2-D) or exactly a's (no broadcasting).
  ArrayRef<int64_t> aBatch = aType.getShape().drop_back(2);
  ArrayRef<int64_t> bBatch = bType.getShape().drop_back(2);
  if (bRank != 2 &&
      (aBatch != bBatch || llvm::any_of(aBatch, ShapedType::isDynamic)))
    return "broadcast batch dims";
  // A few rows times a b that is not a constant (gemv): packing b would
  // cost more than the product; the gemv (QLinearMatMulGemv.cpp) or, for
  // the shapes it does not take, the generic contraction (QLinearMatMul.cpp,
  // vectorized along n) reads b once.
  int64_t rowsOfA = aType.getDimSize(aRank - 2);
  if (!ShapedType::isDynamic(rowsOfA) && rowsOfA <= kGemvMaxRows &&
      !matchPattern(op.b, m_Constant()))
    return "few rows, b not constant";
  return "";
}

/// What the kernel decided for one contraction: the strategy as resolved,
/// its tile (TuningTable.h, shortened for a short a) and the sizes of a
/// [B, M, K], b [Bb, K, N] and their padded forms.
struct KernelPlan {
  Int8KernelStrategy strategy;
  Int8KernelConfig config;
  bool vnni, mmla, amx, signedA, pairSumsFitI16, sharedB;
  bool bytePairs; // madd with b_zp 0: B8 instead of B16
  bool smallSums; // the f32 requantization (hasSmallSums)
  int64_t rows, panelColumns, rowBlock, lanes;
  OpFoldResult batch, m, k, n, mPadded, nPadded, kPadded;
  std::optional<int64_t> staticM, staticN;
  bool partialTiles, columnsExact;
};

KernelPlan planKernel(OpBuilder &rewriter, Location loc,
                      const Int8Contraction &op,
                      Value a, Value bMat,
                      Int8KernelStrategy requestedStrategy) {
  auto aOnnxType = cast<RankedTensorType>(op.a.getType());
  auto bOnnxType = cast<RankedTensorType>(op.b.getType());
  int64_t rowsOfA = aOnnxType.getDimSize(aOnnxType.getRank() - 2);
  KernelPlan plan;
  plan.sharedB = bOnnxType.getRank() == 2;
  auto size = [&](Value v, int64_t d) {
    return tensor::getMixedSize(rewriter, loc, v, d);
  };
  plan.batch = size(a, 0);
  plan.m = size(a, 1);
  plan.k = size(a, 2);
  plan.smallSums = op.requantizes() && hasSmallSums(op);
  plan.n = size(bMat, 2);
  emitSizeCheck(rewriter, loc, plan.k, size(bMat, 1),
                op.requantizes()
                    ? "qmatmul_inner_dim: a's K differs from b's K"
                    : "matmulint_inner_dim: a's K differs from b's K");
  auto roundUp = [&](OpFoldResult v, int64_t multiple) {
    return roundUpTo(rewriter, loc, v, multiple);
  };
  // AMX tiles have 32 rows: a statically shorter a takes vnni's kernel
  // (its tile is as short as a).
  Int8KernelStrategy strategy = requestedStrategy;
  if (strategy == Int8KernelStrategy::Amx &&
      !ShapedType::isDynamic(rowsOfA) && rowsOfA < kAmxTileRows)
    strategy = Int8KernelStrategy::Vnni;
  // maddubs: the quads of avxvnni, multiplied by VPMADDUBSW where a
  // constant b proves that no pair sum saturates; madd otherwise.
  plan.pairSumsFitI16 = false;
  if (strategy == Int8KernelStrategy::Maddubs) {
    plan.pairSumsFitI16 = constantBPairSumsFitI16(op.b, bOnnxType);
    strategy = plan.pairSumsFitI16 ? Int8KernelStrategy::AvxVnni
                                   : Int8KernelStrategy::Madd;
  }
  plan.strategy = strategy;
  plan.amx = strategy == Int8KernelStrategy::Amx;
  // The quad strategies: u8 x s8 (vnni, avxvnni, amx, usdot, usmmla) or
  // s8 x s8 (sdot). usmmla steps over k-octets and tiles 2x2 blocks (row
  // pairs), amx over 64-k steps of 32 x 32 tiles.
  plan.vnni = strategy != Int8KernelStrategy::Madd;
  plan.bytePairs = !plan.vnni && isZeroZeroPoint(op.bZeroPoint);
  plan.mmla = strategy == Int8KernelStrategy::NeonUsmmla;
  plan.signedA = strategy == Int8KernelStrategy::NeonSdot;
  // A statically short a (gemv: M = 1) gets a tile of its own height
  // instead of one padded to MR rows of zeros.
  plan.config = getInt8KernelConfig(strategy);
  plan.rows = plan.config.tileRows;
  std::optional<int64_t> staticRows = getConstantIntValue(plan.m);
  if (staticRows && !plan.amx)
    plan.rows = std::min(plan.rows, std::max<int64_t>(*staticRows, 1));
  if (plan.mmla)
    plan.rows = llvm::alignTo(plan.rows, 2);
  plan.panelColumns = plan.config.panelColumns;
  plan.rowBlock = plan.config.rowBlock;
  // A block holds whole tiles (a tile past a block's end would write rows
  // of the next block's slice of y), unless a is shorter than one tile.
  assert((plan.rowBlock % plan.rows == 0 ||
          (staticRows && *staticRows <= plan.rows)) &&
         "the row block must hold whole register tiles");
  plan.lanes = plan.panelColumns / 2;
  plan.mPadded = roundUp(plan.m, plan.rows);
  plan.nPadded = roundUp(plan.n, plan.panelColumns);
  plan.kPadded = roundUp(plan.k, plan.config.kStep);
  // a is read in place (not copied into a row-padded buffer) and y is
  // written unpadded. A tile that reaches past M (only the last of a block,
  // when M is not a multiple of MR) takes its rows past M as row M - 1:
  // it reads a, the row sums and the per-row parameters of row M - 1 for
  // them, so they compute row M - 1's values and write them there again
  // (the same thread, the same bytes). Columns past N are masked writes.
  plan.staticM = getConstantIntValue(plan.m);
  plan.staticN = getConstantIntValue(plan.n);
  plan.partialTiles = !plan.staticM || *plan.staticM % plan.rows != 0;
  plan.columnsExact =
      plan.staticN && *plan.staticN % plan.panelColumns == 0;
  return plan;
}

/// The operands the tiles read: A packed (A16 = a - a_zp for madd, A8 = a'
/// with its row sums for the quads), B packed (at compile time for a
/// constant b), the quads' column term, and for amx their buffers.
struct PackedOperands {
  Value a, rowSum, b, columnTerm, aBuffer, bBuffer;
  /// amx with a partial last tile: its rows [tailStart, M) of A8, padded
  /// with zero rows to 32, and the first of them.
  Value aTailBuffer, tailStart;
  OpFoldResult kSteps;
};

/// amx's last tile when it reaches past M: rows [tailStart, M) of A8
/// [B, M, Kp], tailStart = M - M mod 32, padded with rows of zeros to
/// [B, 32, Kp], as a buffer for the tile loads:
///   %tail = tensor.extract_slice %a8[0, tailStart, 0] [B, M - tailStart, Kp]
///   %padded = tensor.pad %tail high[0, 32 - (M - tailStart), 0] (0)
/// Only this small copy is padded: the other tiles read A8 in place, where
/// padding all of a to a multiple of 32 rows wrote it whole twice (a fill
/// and a copy: a QLinearConv 3x3 stride 2 of 56 x 56 x 64 spent 19% of its
/// time there, Xeon with AMX).
void packAmxTail(OpBuilder &b, Location loc, const KernelPlan &plan,
                 PackedOperands &packed) {
  AffineExpr s0 = b.getAffineSymbolExpr(0);
  OpFoldResult start = affine::makeComposedFoldedAffineApply(
      b, loc, s0 - s0 % kAmxTileRows, {plan.m});
  OpFoldResult rows = affine::makeComposedFoldedAffineApply(
      b, loc, s0 % kAmxTileRows, {plan.m});
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  Value tail = tensor::ExtractSliceOp::create(
      b, loc, packed.a, ArrayRef<OpFoldResult>{zero, start, zero},
      ArrayRef<OpFoldResult>{plan.batch, rows, plan.kPadded},
      ArrayRef<OpFoldResult>{one, one, one});
  Value padded = padHighTo(
      b, loc, tail,
      {plan.batch, b.getIndexAttr(kAmxTileRows), plan.kPadded},
      b.getI8IntegerAttr(0));
  packed.aTailBuffer = toReadOnlyBuffer(b, loc, padded);
  packed.tailStart = getValueOrCreateConstantIndexOp(b, loc, start);
}

PackedOperands packOperands(OpBuilder &rewriter, Location loc,
                            const Int8Contraction &op,
                            const KernelPlan &plan,
                            const Int8MatMulParams &params, Value a,
                            Value bMat) {
  auto bOnnxType = cast<RankedTensorType>(op.b.getType());
  Type aOnnx = cast<RankedTensorType>(op.a.getType()).getElementType();
  Type bOnnx = bOnnxType.getElementType();
  PackedOperands packed;
  // A packed by the pack stage: a qkernel.pack_a, written as IR by
  // qops-lower-packing. The quads: zb' rowsum[m] vanishes when every zb' is
  // a constant 0 (symmetric weights: an si8 b with zero point 0): no row
  // sums, no pass over a. AMX tile loads read 32 whole rows: a partial last
  // tile needs a's rows padded.
  bool aUnsigned = cast<IntegerType>(aOnnx).isUnsigned();
  if (plan.vnni) {
    auto packA = qkernel::PackAOp::create(
        rewriter, loc, a, Value(), qkernel::PackALayout::Bytes,
        plan.config.kStep, aUnsigned, plan.signedA,
        /*row_sums=*/!isZeroSignedOperandB(op), /*row_multiple=*/0);
    packed.a = packA.getPacked();
    packed.rowSum = packA.getRowSum();
  } else {
    packed.a = qkernel::PackAOp::create(
                   rewriter, loc, a, params.aZeroPoint.tensor,
                   qkernel::PackALayout::Centered, plan.config.kStep,
                   aUnsigned, /*signed_a=*/false, /*row_sums=*/false,
                   /*row_multiple=*/0)
                   .getPacked();
  }

  // The kernel's k steps: pairs (madd), quads, octets (usmmla) or 64 (amx).
  AffineExpr s0 = rewriter.getAffineSymbolExpr(0);
  packed.kSteps = affine::makeComposedFoldedAffineApply(
      rewriter, loc, s0.floorDiv(plan.config.kStep), {plan.kPadded});
  // B packed by the pack stage: a qkernel.pack_b in the strategy's layout,
  // which qops-lower-packing writes as IR (for a constant b too: the
  // pipeline's qops-hoist-constant-expressions computes its packing once).
  // The quads' column term is K zb' - colsum; madd's pairs hold b - b_zp,
  // its byte pairs b (b_zp being 0).
  qkernel::PackLayout layout = plan.bytePairs ? qkernel::PackLayout::BytePairs
                               : !plan.vnni   ? qkernel::PackLayout::Pairs
                               : plan.mmla    ? qkernel::PackLayout::Octets
                                              : qkernel::PackLayout::Quads;
  auto packB = qkernel::PackBOp::create(
      rewriter, loc, bMat, params.bZeroPoint.tensor, layout,
      plan.panelColumns, plan.config.kStep,
      cast<IntegerType>(bOnnx).isUnsigned());
  packed.b = packB.getPacked();
  packed.columnTerm = packB.getColumnTerm();
  // amx reads the packed operands through memrefs (tile loads).
  if (plan.amx) {
    packed.aBuffer = toReadOnlyBuffer(rewriter, loc, packed.a);
    packed.bBuffer = toReadOnlyBuffer(rewriter, loc, packed.b);
    if (plan.partialTiles)
      packAmxTail(rewriter, loc, plan, packed);
  }
  return packed;
}

/// The loops of the kernel over one block of y and the code of one register
/// tile, with the values they share (created once, before the loops).
struct TileEmitter {
  const Int8Contraction &op;
  const KernelPlan &plan;
  const PackedOperands &packed;
  const Int8MatMulParams &params;
  RequantizeParams requantize;
  Type aOnnx, bOnnx;
  Value c0, c1, cRows, cCols, zeroAcc, padI16, padI32, padI8;
  Value cM, cLastRow, cKSteps;
  VectorType accType, pairType, lanesType, bytePairsType;

  TileEmitter(OpBuilder &rewriter, Location loc, const Int8Contraction &op,
              const KernelPlan &plan, const PackedOperands &packed,
              const Int8MatMulParams &params)
      : op(op), plan(plan), packed(packed), params(params),
        requantize(params.requantize()),
        aOnnx(cast<RankedTensorType>(op.a.getType()).getElementType()),
        bOnnx(cast<RankedTensorType>(op.b.getType()).getElementType()) {
    Type i16 = rewriter.getIntegerType(16);
    auto idx = [&](OpFoldResult v) {
      return getValueOrCreateConstantIndexOp(rewriter, loc, v);
    };
    c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
    c1 = arith::ConstantIndexOp::create(rewriter, loc, 1);
    cRows = arith::ConstantIndexOp::create(rewriter, loc, plan.rows);
    cCols = arith::ConstantIndexOp::create(rewriter, loc, plan.panelColumns);
    accType = VectorType::get({plan.lanes}, rewriter.getI32Type());
    pairType = VectorType::get({2}, i16);
    lanesType = VectorType::get({2 * kHalf}, i16);
    bytePairsType = VectorType::get({2 * kHalf}, rewriter.getI8Type());
    zeroAcc = arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(accType, int32_t(0)));
    padI16 = arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getI16IntegerAttr(0));
    padI32 = arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getI32IntegerAttr(0));
    padI8 =
        arith::ConstantOp::create(rewriter, loc, rewriter.getI8IntegerAttr(0));
    cM = idx(plan.m);
    cLastRow = arith::SubIOp::create(rewriter, loc, cM, c1);
    cKSteps = idx(packed.kSteps);
  }

  /// The tile's row r: m0 + r, or at most M - 1 when `partial`.
  Value aRow(OpBuilder &b, Location l, Value m0, int64_t r,
             bool partial) const {
    return aRow(b, l, m0, arith::ConstantIndexOp::create(b, l, r), partial);
  }

  /// madd: per k-pair, the B pair rows of the panel (two vector<16xi16>),
  /// each row's A pair broadcast, acc += pairwise multiply-add. B is read
  /// through its flat view at an offset the loop carries,
  ///   off(kp) = ((bb * panels + panel) * kSteps + kp) * W,  off += W,
  /// W the lanes of one k-pair row (16 i32, or 32 bytes of B8): its address
  /// is the buffer's plus off * 4 (or off) bytes, an addressing mode, so
  /// that code generation needs no loop strength reduction to keep the
  /// index arithmetic out of the loop (its multiply by 64 is no scale an
  /// address can hold). B8's half h is its 16 bytes at off + 16 h,
  /// extended by b's signedness.
  SmallVector<Value> accumulatePairs(OpBuilder &b, Location l, Value bi,
                                     Value bb, Value m0, Value panel,
                                     bool partial) const {
    auto bType = cast<RankedTensorType>(packed.b.getType());
    Value flatB = tensor::CollapseShapeOp::create(
        b, l, packed.b,
        ArrayRef<ReassociationIndices>{
            llvm::to_vector(llvm::seq<int64_t>(0, bType.getRank()))});
    auto size = [&](int64_t d) {
      return getValueOrCreateConstantIndexOp(
          b, l, tensor::getMixedSize(b, l, packed.b, d));
    };
    Value width = size(3);
    Value panelRow = arith::AddIOp::create(
        b, l, arith::MulIOp::create(b, l, bb, size(1)), panel);
    Value off0 = arith::MulIOp::create(
        b, l, arith::MulIOp::create(b, l, panelRow, size(2)), width);
    SmallVector<Value> inits(2 * plan.rows, zeroAcc);
    inits.push_back(off0);
    auto kLoop = scf::ForOp::create(
        b, l, c0, cKSteps, c1, inits,
        [&](OpBuilder &b, Location l, Value kp, ValueRange iters) {
          ValueRange accs = iters.drop_back();
          Value off = iters.back();
          Value k0 = arith::MulIOp::create(
              b, l, kp, arith::ConstantIndexOp::create(b, l, 2));
          auto readPairs = [&](int64_t column) -> Value {
            if (plan.bytePairs) {
              Value bytes = vector::TransferReadOp::create(
                  b, l, bytePairsType, flatB,
                  ValueRange{arith::AddIOp::create(
                      b, l, off,
                      arith::ConstantIndexOp::create(b, l, 2 * column))},
                  padI8, ArrayRef<bool>{true});
              if (cast<IntegerType>(bOnnx).isUnsigned())
                return arith::ExtUIOp::create(b, l, lanesType, bytes);
              return arith::ExtSIOp::create(b, l, lanesType, bytes);
            }
            Value pairs = vector::TransferReadOp::create(
                b, l, accType, flatB,
                ValueRange{arith::AddIOp::create(
                    b, l, off, arith::ConstantIndexOp::create(b, l, column))},
                padI32, ArrayRef<bool>{true});
            return vector::BitCastOp::create(b, l, lanesType, pairs);
          };
          Value bLo = readPairs(0), bHi = readPairs(kHalf);
          SmallVector<Value> next;
          for (int64_t r = 0; r < plan.rows; ++r) {
            Value row = aRow(b, l, m0, r, partial);
            Value pair = vector::TransferReadOp::create(
                b, l, pairType, packed.a, ValueRange{bi, row, k0}, padI16,
                ArrayRef<bool>{true});
            SmallVector<int64_t> repeat;
            for (int64_t i = 0; i < kHalf; ++i)
              repeat.append({0, 1});
            Value broadcast =
                vector::ShuffleOp::create(b, l, pair, pair, repeat);
            next.push_back(emitPairDotStep(b, l, accs[2 * r], broadcast, bLo));
            next.push_back(
                emitPairDotStep(b, l, accs[2 * r + 1], broadcast, bHi));
          }
          next.push_back(arith::AddIOp::create(b, l, off, width));
          scf::YieldOp::create(b, l, next);
        });
    return llvm::to_vector_of<Value>(kLoop.getResults().drop_back());
  }

  /// The quads: per k-quad, the panel's two halves of B32 lanes, each row's
  /// four a' bytes as one i32 broadcast, acc = dot(acc, a, b).
  SmallVector<Value> accumulateQuads(OpBuilder &b, Location l, Value bi,
                                     Value bb, Value m0, Value panel,
                                     bool partial) const {
    SmallVector<Value> inits(2 * plan.rows, zeroAcc);
    auto kLoop = scf::ForOp::create(
        b, l, c0, cKSteps, c1,
        inits, [&](OpBuilder &b, Location l, Value kp, ValueRange accs) {
          auto readQuads = [&](int64_t column) -> Value {
            return vector::TransferReadOp::create(
                b, l, accType, packed.b,
                ValueRange{bb, panel, kp,
                           arith::ConstantIndexOp::create(b, l, column)},
                padI32, ArrayRef<bool>{true});
          };
          Value bLo = readQuads(0), bHi = readQuads(plan.lanes);
          Value quadStart = arith::MulIOp::create(
              b, l, kp, arith::ConstantIndexOp::create(b, l, 4));
          SmallVector<Value> next;
          for (int64_t r = 0; r < plan.rows; ++r) {
            Value row = aRow(b, l, m0, r, partial);
            Value bytes = vector::TransferReadOp::create(
                b, l, VectorType::get({4}, b.getI8Type()), packed.a,
                ValueRange{bi, row, quadStart}, padI8, ArrayRef<bool>{true});
            Value quad = vector::BitCastOp::create(
                b, l, VectorType::get({1}, b.getI32Type()), bytes);
            Value broadcast = vector::BroadcastOp::create(
                b, l, accType,
                vector::ExtractOp::create(b, l, quad, ArrayRef<int64_t>{0}));
            next.push_back(emitVnniDotStep(b, l, accs[2 * r], broadcast, bLo,
                                           plan.signedA,
                                           plan.pairSumsFitI16));
            next.push_back(emitVnniDotStep(b, l, accs[2 * r + 1], broadcast,
                                           bHi, plan.signedA,
                                           plan.pairSumsFitI16));
          }
          scf::YieldOp::create(b, l, next);
        });
    return llvm::to_vector_of<Value>(kLoop.getResults());
  }

  /// usmmla: 2x2 blocks over k-octets, then as row halves.
  SmallVector<Value> accumulateMmla(OpBuilder &b, Location l, Value bi,
                                    Value bb, Value m0, Value panel,
                                    bool partial) const {
    Value zeroBlock = arith::ConstantOp::create(
        b, l,
        DenseElementsAttr::get(VectorType::get({4}, b.getI32Type()),
                               int32_t(0)));
    SmallVector<Value> blockInits(4 * plan.rows, zeroBlock);
    auto rowOf = [&](OpBuilder &b, Location l, int64_t r) {
      return aRow(b, l, m0, r, partial);
    };
    auto octetLoop = scf::ForOp::create(
        b, l, c0, cKSteps, c1,
        blockInits,
        [&](OpBuilder &b, Location l, Value octet, ValueRange blocks) {
          scf::YieldOp::create(b, l,
                               emitMmlaStep(b, l, blocks, packed.a, packed.b,
                                            bi, bb, rowOf, panel, octet,
                                            plan.rows));
        });
    return mmlaBlocksToRowHalves(b, l, octetLoop.getResults(), plan.rows);
  }

  /// amx: the 2 x 2 TDPBUSD tiles, stored straight to the block's epilogue
  /// buffer (row r: row m0 + r, padding rows past M included); a partial
  /// tile reads its rows from the padded tail (packAmxTail).
  void accumulateAmx(OpBuilder &b, Location l, Value bi, Value bb, Value m0,
                     Value panel, Value buffer, bool partial) const {
    if (partial)
      return emitAmxTile(b, l, packed.aTailBuffer, packed.bBuffer, buffer,
                         bi, bb,
                         arith::SubIOp::create(b, l, m0, packed.tailStart),
                         panel, cKSteps);
    emitAmxTile(b, l, packed.aBuffer, packed.bBuffer, buffer, bi, bb, m0,
                panel, cKSteps);
  }

  /// The tile's sums into `buffer` ([MR, 2 lanes] i32): row r holds row
  /// m0 + r (a register strategy's row halves accs[2 r + h], stored; amx's
  /// tiles, stored by the tile store). In a partial tile, a register
  /// strategy's rows past M repeat the last row, amx's are padding: the
  /// epilogue reads row (row - m0) of the clamped row, which is right for
  /// both.
  void accumulate(OpBuilder &b, Location l, Value bi, Value bb, Value m0,
                  Value panel, Value buffer, bool partial) const {
    if (plan.amx)
      return accumulateAmx(b, l, bi, bb, m0, panel, buffer, partial);
    SmallVector<Value> accs =
        plan.mmla   ? accumulateMmla(b, l, bi, bb, m0, panel, partial)
        : plan.vnni ? accumulateQuads(b, l, bi, bb, m0, panel, partial)
                    : accumulatePairs(b, l, bi, bb, m0, panel, partial);
    for (int64_t r = 0; r < plan.rows; ++r)
      for (int64_t h = 0; h < 2; ++h)
        vector::StoreOp::create(
            b, l, accs[2 * r + h], buffer,
            ValueRange{arith::ConstantIndexOp::create(b, l, r),
                       arith::ConstantIndexOp::create(b, l, h * plan.lanes)});
  }

  /// The tile's row r for an r known at run time (the epilogue's loop).
  Value aRow(OpBuilder &b, Location l, Value m0, Value r, bool partial) const {
    Value row = arith::AddIOp::create(b, l, m0, r);
    if (!partial)
      return row;
    return arith::MinUIOp::create(b, l, row, cLastRow);
  }

  /// A tile's accumulators parked between its k loop and its epilogue:
  /// [MR, 2 * lanes] i32, one per block (allocated by emitBlock; amx stores
  /// its tiles to it).
  Value allocateEpilogueBuffer(OpBuilder &b, Location l) const {
    auto type = MemRefType::get({plan.rows, 2 * plan.lanes}, b.getI32Type());
    return memref::AllocOp::create(b, l, type, b.getI64IntegerAttr(64));
  }

  /// Epilogue: the quads' zero-point terms
  ///   acc += za'[m] term[n] - zb'[n] rowsum[m]
  /// then y = requantized acc (QLinearMatMul) or acc itself (MatMulInteger,
  /// i32), written at (batchInY, row - rowBase, column - colBase) of `y`.
  /// The tile's sums are in `buffer` (accumulate), and the epilogue is a
  /// loop over the tile's rows (its two halves unrolled), so that its code
  /// is written once rather than MR times, kept rolled in LLVM too
  /// (keepLoopRolled; O3 unrolled it again: QLinearMatMul 1024^3's objects
  /// went from 1423 to 1066 lines, its JIT 10-20% faster on Zen 3, the k
  /// loop the same instructions, the calls within noise):
  ///   scf.for %r = 0 to MR iter_args(%y) {
  ///     row = m0 + %r (partial: min(m0 + %r, M - 1))
  ///     acc = vector.load buffer[row - m0, h * lanes] ...
  ///     y = vector.transfer_write ..
  ///   } {loop_annotation = <unroll = <disable>>}
  Value writeTile(OpBuilder &b, Location l, Value y, Value bi, Value bb,
                  Value m0, Value n0, Value batchInY, Value rowBase,
                  Value colBase, bool partial, Value buffer) const {
    // What depends on the column alone is computed once per half, before
    // the loop (the unrolled form had it once too, after CSE).
    ColumnLanes halves[2];
    for (int64_t h = 0; h < 2; ++h)
      halves[h] = columnLanes(
          b, l, bb, arith::AddIOp::create(b, l, n0,
                                          arith::ConstantIndexOp::create(
                                              b, l, h * plan.lanes)));
    auto rowLoop = scf::ForOp::create(
        b, l, c0, cRows, c1, ValueRange{y},
        [&](OpBuilder &b, Location l, Value r, ValueRange args) {
          Value row = aRow(b, l, m0, r, partial);
          Value bufferRow =
              partial ? arith::SubIOp::create(b, l, row, m0).getResult() : r;
          Value yRow = args[0];
          for (int64_t h = 0; h < 2; ++h) {
            Value offset = arith::ConstantIndexOp::create(b, l, h * plan.lanes);
            Value acc = vector::LoadOp::create(b, l, accType, buffer,
                                               ValueRange{bufferRow, offset});
            yRow = writeLanes(b, l, acc, yRow, bi, row, halves[h], batchInY,
                              rowBase, colBase);
          }
          scf::YieldOp::create(b, l, yRow);
        });
    keepLoopRolled(rowLoop);
    return rowLoop.getResult(0);
  }

  /// The epilogue's values of the outputs (any row, column .. column +
  /// lanes) that do not depend on the row: the multiplier lanes unless a
  /// scale is per row, a per-column bias, the quads' column term, zb' lanes
  /// (with row sums), za' unless per row. Null where a value depends on
  /// the row or is not needed.
  struct ColumnLanes {
    Value column, multiplier, bias, za, zb, term, dequantScale,
        dequantOffset;
  };
  ColumnLanes columnLanes(OpBuilder &b, Location l, Value bb,
                          Value column) const {
    ColumnLanes lanes;
    lanes.column = column;
    bool rowScale = requantize.aScale.perElement || requantize.yScaleRow;
    if (op.requantizes() && !rowScale)
      lanes.multiplier = emitMultiplierLanes(b, l, requantize, c0, column,
                                             plan.lanes);
    if (params.bias.tensor && !params.biasRow)
      lanes.bias = readKernelParam(b, l, params.bias, c0, column,
                                   /*isRow=*/false, plan.lanes);
    if (params.dequantScale.tensor && !params.dequantScaleRow)
      lanes.dequantScale = readKernelParam(b, l, params.dequantScale, c0,
                                           column, false, plan.lanes);
    if (params.dequantOffset.tensor && !params.dequantOffsetRow)
      lanes.dequantOffset = readKernelParam(b, l, params.dequantOffset, c0,
                                            column, false, plan.lanes);
    if (!plan.vnni)
      return lanes;
    if (!params.aZeroPoint.perElement)
      lanes.za = zeroPointALanes(b, l, c0, column);
    if (packed.rowSum) // zb' rowsum[m] (no row sums: every zb' is 0)
      lanes.zb = emitZeroPointB(
          b, l,
          readKernelParam(b, l, params.bZeroPoint, c0, column, false,
                          plan.lanes),
          bOnnx);
    lanes.term = vector::TransferReadOp::create(
        b, l, accType, packed.columnTerm, ValueRange{bb, column}, padI32,
        ArrayRef<bool>{true});
    return lanes;
  }

  /// za' lanes of the outputs (row, column ..).
  Value zeroPointALanes(OpBuilder &b, Location l, Value row,
                        Value column) const {
    return emitZeroPointA(b, l,
                          readKernelParam(b, l, params.aZeroPoint, row,
                                          column, true, plan.lanes),
                          aOnnx, plan.signedA);
  }

  /// One accumulator's outputs (row, column .. column + lanes) into y.
  Value writeLanes(OpBuilder &b, Location l, Value acc, Value y, Value bi,
                   Value row, const ColumnLanes &lanes, Value batchInY,
                   Value rowBase, Value colBase) const {
    Value column = lanes.column;
    Value multiplier = lanes.multiplier;
    if (op.requantizes() && !multiplier)
      multiplier = emitMultiplierLanes(b, l, requantize, row, column,
                                       plan.lanes);
    if (plan.vnni) {
      Value za = lanes.za ? lanes.za : zeroPointALanes(b, l, row, column);
      acc = arith::AddIOp::create(b, l, acc,
                                  arith::MulIOp::create(b, l, za, lanes.term));
      if (packed.rowSum) {
        Value sum = vector::BroadcastOp::create(
            b, l, accType,
            tensor::ExtractOp::create(b, l, packed.rowSum, ValueRange{bi, row}));
        acc = arith::SubIOp::create(
            b, l, acc, arith::MulIOp::create(b, l, lanes.zb, sum));
      }
    }
    acc = lanes.bias ? arith::AddIOp::create(b, l, acc, lanes.bias)
                     : addBiasLanes(b, l, params, acc, row, column);
    Value stored = acc;
    if (op.requantizes())
      stored = emitRequantizedLanes(b, l, requantize, acc, multiplier, row,
                                    column, plan.smallSums);
    else if (op.dequantizes())
      stored = emitDequantizedLanes(b, l, params, acc, row, column,
                                    lanes.dequantScale, lanes.dequantOffset);
    Value rowInY = arith::SubIOp::create(b, l, row, rowBase);
    Value columnInY = arith::SubIOp::create(b, l, column, colBase);
    return vector::TransferWriteOp::create(
               b, l, stored, y, ValueRange{batchInY, rowInY, columnInY},
               ArrayRef<bool>{plan.columnsExact})
        .getResult();
  }

  /// One tile of the thread grid: rows [mb, blockEnd) (at most MC) and
  /// columns [nBegin, nEnd) of batch `bi` (b's batch `bb`); in it, every
  /// panel, and in each panel the block's MR-row tiles (their rows clamped
  /// to M - 1 when one may reach past M; amx: the last one under scf.if);
  /// amx: groups of panels, in each the row tiles outside the group's
  /// panels. Writes into `yIn`, whose element
  /// (0, 0, 0) is element (batchInY, rowBase, colBase) of the padded result.
  Value emitBlock(OpBuilder &b, Location l, Value bi, Value bb, Value mb,
                  Value blockEnd, Value nBegin, Value nEnd, Value yIn,
                  Value batchInY, Value rowBase, Value colBase) const {
    Value epilogue = allocateEpilogueBuffer(b, l);
    // The register tile at (m0, n0). When a tile may reach past M, a
    // register strategy's tiles all clamp their rows to M - 1: one copy of
    // the k loop and epilogue, since a full tile's rows are below M and the
    // clamp (hoisted out of the k loop by LLVM) changes nothing for it. A
    // full and a clamped copy under scf.if cost QLinearMatMul 128x768x3072
    // 8-18 ms more JIT on Zen 3 (docs/Performance.md). amx's last row tile
    // reads the padded tail instead, under scf.if.
    auto emitTileAt = [&](OpBuilder &b, Location l, Value m0, Value n0,
                          Value y) -> Value {
      Value panel = arith::DivUIOp::create(b, l, n0, cCols);
      auto emitTile = [&](OpBuilder &b, Location l, bool partial) -> Value {
        accumulate(b, l, bi, bb, m0, panel, epilogue, partial);
        return writeTile(b, l, y, bi, bb, m0, n0, batchInY, rowBase,
                         colBase, partial, epilogue);
      };
      if (!plan.partialTiles || !plan.amx)
        return emitTile(b, l, plan.partialTiles);
      Value tileEnd = arith::AddIOp::create(b, l, m0, cRows);
      Value fits =
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::ule, tileEnd, cM);
      auto tile = scf::IfOp::create(
          b, l, fits,
          [&](OpBuilder &b, Location l) {
            scf::YieldOp::create(b, l, emitTile(b, l, false));
          },
          [&](OpBuilder &b, Location l) {
            scf::YieldOp::create(b, l, emitTile(b, l, true));
          });
      return tile.getResult(0);
    };
    // for n0 in [begin, end) step NR { for m0 in [mb, blockEnd) step MR }
    auto panelsThenRows = [&](OpBuilder &b, Location l, Value begin,
                              Value end, Value y) -> Value {
      return emitTensorLoop(b, l, begin, end, cCols, y,
                     [&](OpBuilder &b, Location l, Value n0, Value y) {
                       return emitTensorLoop(b, l, mb, blockEnd, cRows, y,
                                      [&](OpBuilder &b, Location l, Value m0,
                                          Value y) {
                                        return emitTileAt(b, l, m0, n0, y);
                                      });
                     });
    };
    if (!plan.amx)
      return panelsThenRows(b, l, nBegin, nEnd, yIn);
    // amx: groups of panels, in each group the row tiles outside its
    // panels, so that a tile's rows of a (32 x K) stay in L1 while the
    // group's panels of b (in L2) pass by; panels outside would read the
    // block's rows of a from L2 for every panel.
    //   for g in [nBegin, nEnd) step G { for m0 { for n0 in [g, g + G) } }
    Value group = arith::ConstantIndexOp::create(b, l, kAmxPanelGroupColumns);
    return emitTensorLoop(
        b, l, nBegin, nEnd, group, yIn,
        [&](OpBuilder &b, Location l, Value g, Value y) {
          Value groupEnd = arith::MinUIOp::create(
              b, l, arith::AddIOp::create(b, l, g, group), nEnd);
          return emitTensorLoop(b, l, mb, blockEnd, cRows, y,
                         [&](OpBuilder &b, Location l, Value m0, Value y) {
                           return emitTensorLoop(
                               b, l, g, groupEnd, cCols, y,
                               [&](OpBuilder &b, Location l, Value n0,
                                   Value y) {
                                 return emitTileAt(b, l, m0, n0, y);
                               });
                         });
        });
  }
};

/// The tiles over y [B, M, N], as the nest qops-distribute gives to
/// threads (TileLoops.h; Distribute.cpp holds the policy).
Value emitKernelTileLoops(OpBuilder &rewriter, Location loc,
                          const TileEmitter &tiles, Value yInit) {
  const KernelPlan &plan = tiles.plan;
  TileGrid grid{plan.batch,         plan.m,
                plan.n,             plan.mPadded,
                plan.nPadded,       plan.rowBlock,
                plan.panelColumns,  plan.config.columnChunk,
                plan.staticM,       plan.staticN,
                plan.rows};
  return emitTileLoops(
      rewriter, loc, grid, yInit,
      [&](OpBuilder &b, Location l, Value bi, Value mb, Value blockEnd,
          Value nc, Value chunkEnd, Value slice) {
        Value bb = plan.sharedB ? tiles.c0 : bi;
        return tiles.emitBlock(b, l, bi, bb, mb, blockEnd, nc, chunkEnd,
                               slice, tiles.c0, mb, nc);
      });
}

/// y [B, M, N] back to the result's batch shape.
Value toResultShape(OpBuilder &rewriter, Location loc, Value y,
                    RankedTensorType resultType, Value aStorage,
                    OpFoldResult n) {
  if (resultType.getRank() == 2)
    return tensor::CollapseShapeOp::create(
        rewriter, loc, resultType, y,
        ArrayRef<ReassociationIndices>{{0, 1}, {2}});
  if (resultType.getRank() <= 3)
    return y;
  SmallVector<OpFoldResult> outputShape =
      tensor::getMixedSizes(rewriter, loc, aStorage);
  outputShape.back() = n;
  SmallVector<ReassociationIndices> groups{
      llvm::to_vector(llvm::seq<int64_t>(0, resultType.getRank() - 2)),
      {resultType.getRank() - 2},
      {resultType.getRank() - 1}};
  return tensor::ExpandShapeOp::create(rewriter, loc, resultType, y, groups,
                                       outputShape);
}

} // namespace

/// The kernel for `op` (see the file comment), or failure before any IR is
/// built when it does not apply: plan the tile, pack A and B, run the
/// tiles over the blocks of y (on one thread or distributed), reshape.
LogicalResult qops::lowerInt8Kernel(const Int8Contraction &op,
                                    ConversionPatternRewriter &rewriter,
                                    const TypeConverter &converter,
                                    bool isParallel,
                                    Int8KernelStrategy requestedStrategy) {
  if (StringRef reason = kernelUnsupportedReason(op); !reason.empty())
    return rewriter.notifyMatchFailure(op.op, reason);
  // Every check passed: from here on the pattern builds IR.
  Location loc = op.op->getLoc();
  Int8MatMulParams params(rewriter, loc, op);
  Value a = toBatched(rewriter, loc, op.aStorage);
  Value bMat = toBatched(rewriter, loc, op.bStorage);
  KernelPlan plan = planKernel(rewriter, loc, op, a, bMat, requestedStrategy);
  // Per-column parameters padded to the panels (scale 1, zp 0); per-row
  // ones are read at rows below M only (clamped).
  params.padColumns(rewriter, loc, plan.nPadded);
  PackedOperands packed =
      packOperands(rewriter, loc, op, plan, params, a, bMat);

  // The kernel, writing y as [B, M, N].
  Type yStorage = getStorageElementType(op.yType.getElementType());
  Value yInit = tensor::EmptyOp::create(
      rewriter, loc, ArrayRef<OpFoldResult>{plan.batch, plan.m, plan.n},
      yStorage);
  TileEmitter tiles(rewriter, loc, op, plan, packed, params);
  Value y = emitKernelTileLoops(rewriter, loc, tiles, yInit);
  auto resultType = cast<RankedTensorType>(converter.convertType(op.yType));
  rewriter.replaceOp(op.op, toResultShape(rewriter, loc, y, resultType,
                                          op.aStorage, plan.n));
  return success();
}

void qops::populateQLinearMatMulKernelPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               bool parallel,
                                               Int8KernelStrategy strategy) {
  // The gemv where it applies, else the kernel, else the generic form.
  Int8ContractionLowering paths[] = {lowerInt8Gemv, lowerInt8Kernel};
  patterns.add<Int8ContractionPattern>(
      converter, patterns.getContext(), paths, parallel, strategy);
}
