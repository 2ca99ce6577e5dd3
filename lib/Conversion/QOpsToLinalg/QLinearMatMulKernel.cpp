//===- QLinearMatMulKernel.cpp - the exact int8 register-blocked kernel ---===//
//
// si8/ui8 QLinearMatMul with f32 scales as packing + a register-blocked
// micro-kernel in the vector dialect, on tensors (one-shot bufferization
// makes it in place):
//
//   A16[b, m, k] = a[b, m, k] - a_zp[m]   i16, padded with 0 to [B, M, Kp]
//   B16[b, n/16, k/2, 16] = (b[b, k, n] - b_zp[n]) | (b[b, k+1, n] - ..) << 16
//                                         i16 k-pairs interleaved (as one
//                                         i32), 16-column panels, padded
//                                         with 0 to Kp, Np
//   for each batch b, 16-column panel, 6-row tile:
//     acc[6][2] : vector<8xi32> = 0
//     for each k-pair:
//       B pair rows (2 x vector<16xi16>, columns 0-7 and 8-15 interleaved)
//       for each row r: A pair (a[r,k], a[r,k+1]) broadcast to 8 lanes
//         acc[r][h] += madd(Apair, Bpair[h])
//     epilogue: y = saturate(round_half_even(f64(acc) * f64(multiplier)) +
//               y_zp), the multiplier (a_scale * b_scale) / y_scale in f32
//   y is written as [B, M, N]: the last tile of a row block, when M is not
//   a multiple of MR, takes its rows past M as row M - 1 (a, row sums and
//   per-row parameters clamped) and writes row M - 1's bytes again; columns
//   past N are masked writes
//
// madd(x, y) = extsi(x) * extsi(y) summed over adjacent lane pairs
// (x[2i]y[2i] + x[2i+1]y[2i+1]), which LLVM selects as VPMADDWD on x86
// (pmaddwd / smlal pairs elsewhere). Subtracting the zero points while
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
// A constant b gets B32 and its column term K zb' - colsum at compile time.
//
// The maddubs strategy (x86 AVX2 without VNNI) runs the avxvnni kernel for
// a constant b whose pairs of products provably fit i16 (every pair of k
// rows: positive parts and negative parts of b' at most 128; see
// constantBPairSumsFitI16), each quad step as VPMADDUBSW + VPMADDWD by ones
// + VPADDD (qops.dot_u8s8_quads {pair_sums_fit_i16}); the madd kernel for
// any other b.
//
// The amx strategy (x86 AMX-INT8) uses the same a', b', row sums, column
// term and 32-column B32 panels, with K padded to a multiple of 64, and
// multiplies 32 x 32 register tiles as 2 x 2 TDPBUSD tiles of 16 x 16
// (QLinearMatMulAmx.h); a has a multiple of 32 rows (padded when M is not).
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
#include "QLinearMatMulMadd.h"
#include "QLinearMatMulMmla.h"
#include "QLinearMatMulVnni.h"
#include "TuningTable.h"
#include "QuantOps/Conversion/QOpsToLinalg/QuantMath.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::qops;

namespace {

constexpr int64_t kHalf = 8; // i32 lanes per accumulator vector of madd

/// A constant b with a constant zero point, as i32 values by b's
/// signedness: what the compile-time packings read.
struct ConstantB {
  SmallVector<int32_t> values; // [batches, k, n] row-major
  SmallVector<int32_t> zeroPoints; // 1 (per-tensor) or n (per-column)
  int64_t batches, k, n;
  int32_t at(int64_t bb, int64_t row, int64_t column) const {
    return values[(bb * k + row) * n + column];
  }
  int32_t zeroPointOf(int64_t column) const {
    return zeroPoints.size() == 1 ? zeroPoints[0] : zeroPoints[column];
  }
};

/// The constant b of `op`, or nothing when b or its zero point is not a
/// constant, the shape is not static or the zero point is batched (the
/// run-time packing handles those).
std::optional<ConstantB> readConstantB(const Int8Contraction &c,
                                       RankedTensorType bType) {
  DenseElementsAttr values, zeroPoints;
  if (!matchPattern(c.b, m_Constant(&values)) ||
      (c.bZeroPoint && !matchPattern(c.bZeroPoint, m_Constant(&zeroPoints))) ||
      !bType.hasStaticShape())
    return std::nullopt;
  bool isUnsigned = cast<IntegerType>(bType.getElementType()).isUnsigned();
  auto toInt = [&](const APInt &v) {
    return isUnsigned ? int32_t(v.getZExtValue()) : int32_t(v.getSExtValue());
  };
  ArrayRef<int64_t> shape = bType.getShape();
  ConstantB result;
  result.k = shape[shape.size() - 2];
  result.n = shape.back();
  result.batches = bType.getNumElements() / (result.k * result.n);
  // The bytes as stored (si8/ui8: one byte each; a splat holds one).
  ArrayRef<char> raw = values.getRawData();
  int64_t count = values.getNumElements();
  result.values.resize(count);
  for (int64_t i = 0; i < count; ++i) {
    char byte = raw[values.isSplat() ? 0 : i];
    result.values[i] = isUnsigned ? int32_t(uint8_t(byte))
                                  : int32_t(int8_t(byte));
  }
  if (!zeroPoints)
    result.zeroPoints.push_back(0); // absent: 0
  else
    for (const APInt &v : zeroPoints.getValues<APInt>())
      result.zeroPoints.push_back(toInt(v));
  if (result.zeroPoints.size() != 1 &&
      int64_t(result.zeroPoints.size()) != result.n)
    return std::nullopt;
  return result;
}

Value createI32Constant(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                        ArrayRef<int32_t> data) {
  auto type = RankedTensorType::get(shape, b.getI32Type());
  return arith::ConstantOp::create(b, loc, type,
                                   DenseElementsAttr::get(type, data));
}

/// The packed B of the madd kernel computed at compile time:
/// [Bb, Np/16, Kp/2, 16] i32, element (bb, p, kp, c) =
/// lo16(b[2kp][n] - zp[n]) | (b[2kp+1][n] - zp[n]) << 16 with n = 16p + c,
/// rows k >= K and columns n >= N zero. Null unless b is a ConstantB.
Value packConstantB(OpBuilder &b, Location loc, const Int8Contraction &op,
                    RankedTensorType bType, OpFoldResult kPairs,
                    OpFoldResult panels) {
  std::optional<ConstantB> constant = readConstantB(op, bType);
  std::optional<int64_t> pairs = getConstantIntValue(kPairs);
  std::optional<int64_t> numPanels = getConstantIntValue(panels);
  if (!constant || !pairs || !numPanels)
    return nullptr;
  const ConstantB &cb = *constant;
  auto element = [&](int64_t bb, int64_t k, int64_t n) -> uint32_t {
    if (k >= cb.k || n >= cb.n)
      return 0;
    return uint16_t(int16_t(cb.at(bb, k, n) - cb.zeroPointOf(n)));
  };
  constexpr int64_t kColumns =
      getInt8KernelConfig(Int8KernelStrategy::Madd).panelColumns;
  SmallVector<int32_t> packed;
  packed.reserve(cb.batches * *numPanels * *pairs * kColumns);
  for (int64_t bb = 0; bb < cb.batches; ++bb)
    for (int64_t p = 0; p < *numPanels; ++p)
      for (int64_t kp = 0; kp < *pairs; ++kp)
        for (int64_t c = 0; c < kColumns; ++c) {
          int64_t n = p * kColumns + c;
          packed.push_back(int32_t(element(bb, 2 * kp, n) |
                                   (element(bb, 2 * kp + 1, n) << 16)));
        }
  return createI32Constant(b, loc, {cb.batches, *numPanels, *pairs, kColumns},
                           packed);
}

/// b' = b (si8) or b - 128 (ui8): the s8 operand of the quad dot products.
int32_t toSignedOperand(int32_t value, bool isUnsigned) {
  return isUnsigned ? value - 128 : value;
}

/// The quad strategies' packed B and column term for a ConstantB: B32
/// [Bb, Np/NR, Kp/4, NR] i32 (NR = panelColumns) (four b' bytes per lane, k ascending from the
/// low byte) and colTerm [Bb, Np] i32 = K zb'[n] - sum_k b'[k, n] (0 in
/// padded columns). Nulls otherwise.
std::pair<Value, Value> packConstantBQuads(OpBuilder &b, Location loc,
                                           const Int8Contraction &op,
                                           RankedTensorType bType,
                                           OpFoldResult kQuads,
                                           OpFoldResult panels,
                                           int64_t panelColumns) {
  std::optional<ConstantB> constant = readConstantB(op, bType);
  std::optional<int64_t> quads = getConstantIntValue(kQuads);
  std::optional<int64_t> numPanels = getConstantIntValue(panels);
  if (!constant || !quads || !numPanels)
    return {};
  const ConstantB &cb = *constant;
  bool isUnsigned = cast<IntegerType>(bType.getElementType()).isUnsigned();
  auto prime = [&](int64_t bb, int64_t k, int64_t n) {
    return toSignedOperand(cb.at(bb, k, n), isUnsigned);
  };
  auto element = [&](int64_t bb, int64_t k, int64_t n) -> uint32_t {
    if (k >= cb.k || n >= cb.n)
      return 0;
    return uint8_t(int8_t(prime(bb, k, n)));
  };
  int64_t paddedColumns = *numPanels * panelColumns;
  SmallVector<int32_t> packed, columnTerm;
  packed.reserve(cb.batches * *numPanels * *quads * panelColumns);
  for (int64_t bb = 0; bb < cb.batches; ++bb) {
    for (int64_t p = 0; p < *numPanels; ++p)
      for (int64_t q = 0; q < *quads; ++q)
        for (int64_t c = 0; c < panelColumns; ++c) {
          int64_t n = p * panelColumns + c;
          uint32_t lane = 0;
          for (int64_t byte = 0; byte < 4; ++byte)
            lane |= element(bb, 4 * q + byte, n) << (8 * byte);
          packed.push_back(int32_t(lane));
        }
    for (int64_t n = 0; n < paddedColumns; ++n) {
      if (n >= cb.n) {
        columnTerm.push_back(0);
        continue;
      }
      int64_t sum = 0;
      for (int64_t k = 0; k < cb.k; ++k)
        sum += prime(bb, k, n);
      int32_t zbPrime = toSignedOperand(cb.zeroPointOf(n), isUnsigned);
      columnTerm.push_back(int32_t(cb.k * zbPrime - sum));
    }
  }
  return {createI32Constant(b, loc,
                            {cb.batches, *numPanels, *quads, panelColumns}, packed),
          createI32Constant(b, loc, {cb.batches, paddedColumns}, columnTerm)};
}

/// Whether VPMADDUBSW multiplies the constant b of `op` exactly: for every
/// column and every pair of k rows it sums (2q, 2q + 1), of b' (the s8
/// operand: b, or b - 128 for ui8; rows past K are 0),
///   max over u8 a of |a0 b'0 + a1 b'1| = 255 max(pos(b'0) + pos(b'1),
///                                               neg(b'0) + neg(b'1))
/// must fit i16: each sum of positive parts and of negative parts at most
/// 128 (255 * 128 = 32640; 255 * 129 = 32895 > 32767).
bool constantBPairSumsFitI16(const Int8Contraction &op,
                             RankedTensorType bType) {
  std::optional<ConstantB> constant = readConstantB(op, bType);
  if (!constant)
    return false;
  const ConstantB &cb = *constant;
  bool isUnsigned = cast<IntegerType>(bType.getElementType()).isUnsigned();
  for (int64_t bb = 0; bb < cb.batches; ++bb)
    for (int64_t row = 0; row < cb.k; row += 2)
      for (int64_t n = 0; n < cb.n; ++n) {
        int32_t first = toSignedOperand(cb.at(bb, row, n), isUnsigned);
        int32_t second = row + 1 < cb.k ? toSignedOperand(
                                              cb.at(bb, row + 1, n), isUnsigned)
                                        : 0;
        int32_t positive = std::max(first, 0) + std::max(second, 0);
        int32_t negative = std::max(-first, 0) + std::max(-second, 0);
        if (positive > 128 || negative > 128)
          return false;
      }
  return true;
}

/// The kernel for `op` (see the file comment), or failure before any IR is
/// built when it does not apply.
LogicalResult lowerInt8Kernel(const Int8Contraction &op,
                              ConversionPatternRewriter &rewriter,
                              const TypeConverter &converter,
                              bool isParallel,
                              Int8KernelStrategy requestedStrategy) {
    Location loc = op.op->getLoc();
    auto aOnnxType = cast<RankedTensorType>(op.a.getType());
    auto bOnnxType = cast<RankedTensorType>(op.b.getType());
    Type aOnnx = aOnnxType.getElementType(), bOnnx = bOnnxType.getElementType();
    Type yOnnx = op.yType.getElementType();
    if (StringRef reason = int8MatMulUnsupportedReason(op); !reason.empty())
      return rewriter.notifyMatchFailure(op.op, reason);
    int64_t aRank = aOnnxType.getRank(), bRank = bOnnxType.getRank();
    if (aRank < 2 || bRank < 2)
      return rewriter.notifyMatchFailure(op.op, "a vector operand");
    if (llvm::is_contained(aOnnxType.getShape(), 0) ||
        llvm::is_contained(bOnnxType.getShape(), 0))
      return rewriter.notifyMatchFailure(op.op, "an empty operand");
    // Batch dims: b shared (2-D) or exactly a's (no broadcasting).
    ArrayRef<int64_t> aBatch = aOnnxType.getShape().drop_back(2);
    ArrayRef<int64_t> bBatch = bOnnxType.getShape().drop_back(2);
    bool sharedB = bRank == 2;
    if (!sharedB && (aBatch != bBatch ||
                     llvm::any_of(aBatch, ShapedType::isDynamic)))
      return rewriter.notifyMatchFailure(op.op, "broadcast batch dims");
    // A few rows times a b that is not a constant (gemv): packing b would
    // cost more than the product; the gemv (QLinearMatMulGemv.cpp) or, for
    // the shapes it does not take, the generic contraction (QLinearMatMul.cpp,
    // vectorized along n) reads b once.
    int64_t rowsOfA = aOnnxType.getDimSize(aRank - 2);
    if (!ShapedType::isDynamic(rowsOfA) && rowsOfA <= kGemvMaxRows &&
        !matchPattern(op.b, m_Constant()))
      return rewriter.notifyMatchFailure(op.op, "few rows, b not constant");

    // Every check passed: from here on the pattern builds IR.
    Int8MatMulParams params(rewriter, loc, op);

    // Collapse the batch dims: a [B, M, K], b [Bb, K, N].
    auto toBatched = [&](Value v, int64_t rank) -> Value {
      if (rank == 2)
        return tensor::ExpandShapeOp::create(
            rewriter, loc,
            RankedTensorType::get(
                {1, cast<RankedTensorType>(v.getType()).getDimSize(0),
                 cast<RankedTensorType>(v.getType()).getDimSize(1)},
                cast<RankedTensorType>(v.getType()).getElementType()),
            v, ArrayRef<ReassociationIndices>{{0, 1}, {2}},
            ArrayRef<OpFoldResult>{
                rewriter.getIndexAttr(1),
                tensor::getMixedSize(rewriter, loc, v, 0),
                tensor::getMixedSize(rewriter, loc, v, 1)});
      if (rank == 3)
        return v;
      SmallVector<ReassociationIndices> groups{
          llvm::to_vector(llvm::seq<int64_t>(0, rank - 2)),
          {rank - 2},
          {rank - 1}};
      return tensor::CollapseShapeOp::create(rewriter, loc, v, groups);
    };
    Value a = toBatched(op.aStorage, aRank);
    Value bMat = toBatched(op.bStorage, bRank);

    auto size = [&](Value v, int64_t d) {
      return tensor::getMixedSize(rewriter, loc, v, d);
    };
    OpFoldResult batch = size(a, 0);
    OpFoldResult m = size(a, 1), k = size(a, 2), n = size(bMat, 2);
    emitSizeCheck(rewriter, loc, k, size(bMat, 1),
                  op.requantizes()
                      ? "qmatmul_inner_dim: a's K differs from b's K"
                      : "matmulint_inner_dim: a's K differs from b's K");
    AffineExpr s0 = rewriter.getAffineSymbolExpr(0);
    auto roundUp = [&](OpFoldResult v, int64_t multiple) {
      return affine::makeComposedFoldedAffineApply(
          rewriter, loc, s0.ceilDiv(multiple) * multiple, {v});
    };
    // AMX tiles have 32 rows: a statically shorter a takes vnni's kernel
    // (its tile is as short as a).
    Int8KernelStrategy strategy = requestedStrategy;
    if (strategy == Int8KernelStrategy::Amx &&
        !ShapedType::isDynamic(rowsOfA) && rowsOfA < kAmxTileRows)
      strategy = Int8KernelStrategy::Vnni;
    // maddubs: the quads of avxvnni, multiplied by VPMADDUBSW where a
    // constant b proves that no pair sum saturates; madd otherwise.
    bool pairSumsFitI16 = false;
    if (strategy == Int8KernelStrategy::Maddubs) {
      pairSumsFitI16 = constantBPairSumsFitI16(op, bOnnxType);
      strategy = pairSumsFitI16 ? Int8KernelStrategy::AvxVnni
                                : Int8KernelStrategy::Madd;
    }
    bool amx = strategy == Int8KernelStrategy::Amx;
    // The quad strategies: u8 x s8 (vnni, avxvnni, amx, usdot, usmmla) or
    // s8 x s8 (sdot). usmmla steps over k-octets and tiles 2x2 blocks (row
    // pairs), amx over 64-k steps of 32 x 32 tiles.
    bool vnni = strategy != Int8KernelStrategy::Madd;
    bool mmla = strategy == Int8KernelStrategy::NeonUsmmla;
    bool signedA = strategy == Int8KernelStrategy::NeonSdot;
    // A statically short a (gemv: M = 1) gets a tile of its own height
    // instead of one padded to MR rows of zeros.
    Int8KernelConfig config = getInt8KernelConfig(strategy);
    int64_t rows = config.tileRows;
    std::optional<int64_t> staticRows = getConstantIntValue(m);
    if (staticRows && !amx)
      rows = std::min(rows, std::max<int64_t>(*staticRows, 1));
    if (mmla)
      rows = llvm::alignTo(rows, 2);
    // NR: 16 columns in two accumulators of 8 i32 lanes, 32 (two of 16)
    // for vnni on AVX-512 and for amx (two tiles of 16 columns).
    int64_t panelColumns = config.panelColumns;
    int64_t rowBlock = config.rowBlock;
    // A block holds whole tiles (a tile past a block's end would write rows
    // of the next block's slice of y), unless a is shorter than one tile.
    assert((rowBlock % rows == 0 ||
            (staticRows && *staticRows <= rows)) &&
           "the row block must hold whole register tiles");
    int64_t lanes = panelColumns / 2;
    OpFoldResult mPadded = roundUp(m, rows),
                 nPadded = roundUp(n, panelColumns);
    OpFoldResult kPadded = roundUp(k, config.kStep);
    // a is read in place (not copied into a row-padded buffer) and y is
    // written unpadded. A tile that reaches past M (only the last of a block,
    // when M is not a multiple of MR) takes its rows past M as row M - 1:
    // it reads a, the row sums and the per-row parameters of row M - 1 for
    // them, so they compute row M - 1's values and write them there again
    // (the same thread, the same bytes). Columns past N are masked writes.
    std::optional<int64_t> staticM = getConstantIntValue(m),
                           staticN = getConstantIntValue(n);
    bool partialTiles = !staticM || *staticM % rows != 0;
    bool columnsExact = staticN && *staticN % panelColumns == 0;

    // Per-column parameters padded to the panels (scale 1, zp 0); per-row
    // ones are read at rows below M only (clamped).
    Type i8 = rewriter.getI8Type(), i16 = rewriter.getIntegerType(16);
    params.padColumns(rewriter, loc, nPadded);
    RequantizeParams requantize = params.requantize();

    MLIRContext *ctx = rewriter.getContext();
    auto dim = [&](unsigned d) { return getAffineDimExpr(d, ctx); };
    auto parallel = [](unsigned n) {
      return SmallVector<utils::IteratorType>(n,
                                              utils::IteratorType::parallel);
    };

    AffineMap aMap = AffineMap::getMultiDimIdentityMap(3, ctx);
    // The packed A: A16 = a - a_zp (madd) or A8 = a' with its row sums
    // (vnni), padded to [B, M, Kp].
    Value aPacked, rowSum;
    if (vnni) {
      // zb' rowsum[m] vanishes when every zb' is a constant 0 (symmetric
      // weights: an si8 b with zero point 0): no row sums, no pass over a.
      // AMX tile loads read 32 whole rows: a partial last tile needs a's
      // rows padded.
      VnniPackedA packedA = packVnniA(
          rewriter, loc, a, aOnnx, signedA, kPadded,
          /*withRowSums=*/!isZeroSignedOperandB(op),
          amx && partialTiles ? mPadded : OpFoldResult());
      aPacked = packedA.bytes;
      rowSum = packedA.rowSum;
    } else {
      // A16 = a - a_zp, padded to [B, M, Kp].
      AffineMap aZpMap = params.aZeroPoint.perElement ? AffineMap::get(3, 0, dim(1))
                                         : AffineMap::get(3, 0, {}, ctx);
      Value aZpTensor = params.aZeroPoint.tensor;
      Value a16Init = createEmptyLike(rewriter, loc, a, i16);
      Value a16 =
          linalg::GenericOp::create(
              rewriter, loc, a16Init.getType(), ValueRange{a, aZpTensor},
              a16Init, ArrayRef<AffineMap>{aMap, aZpMap, aMap}, parallel(3),
              [&](OpBuilder &b, Location l, ValueRange args) {
                Value d = arith::SubIOp::create(
                    b, l, emitExtendToI32(b, l, args[0], aOnnx),
                    emitExtendToI32(b, l, args[1], aOnnx));
                linalg::YieldOp::create(
                    b, l, arith::TruncIOp::create(b, l, i16, d).getResult());
              })
              .getResult(0);
      aPacked = padHighTo(rewriter, loc, a16, {batch, m, kPadded},
                          rewriter.getI16IntegerAttr(0));
    }

    // The packed k groups: pairs (madd) or quads (the others); the kernel's
    // k steps: these, or octets (usmmla).
    OpFoldResult kPairs = affine::makeComposedFoldedAffineApply(
        rewriter, loc, s0.floorDiv(config.kGroup), {kPadded});
    OpFoldResult kSteps = affine::makeComposedFoldedAffineApply(
        rewriter, loc, s0.floorDiv(config.kStep), {kPadded});
    OpFoldResult panels = affine::makeComposedFoldedAffineApply(
        rewriter, loc, s0.floorDiv(panelColumns), {nPadded});
    // A constant b (weights) with a constant zero point is packed now, at
    // compile time; otherwise the packing runs with the program.
    Value bPacked, columnTerm;
    if (vnni) {
      std::tie(bPacked, columnTerm) =
          packConstantBQuads(rewriter, loc, op, bOnnxType, kPairs, panels,
                             panelColumns);
      if (!bPacked) {
        VnniPackedB packedB =
            packVnniB(rewriter, loc, bMat, bOnnx, params.bZeroPoint.tensor,
                      params.bZeroPoint.perElement, k, n, kPadded, nPadded, panelColumns);
        bPacked = packedB.quads;
        columnTerm = packedB.columnTerm;
      }
      if (mmla)
        bPacked = reorderQuadsForMmla(rewriter, loc, bPacked);
    } else {
      bPacked = packConstantB(rewriter, loc, op, bOnnxType, kPairs, panels);
    }
    // B16 = b - b_zp in k-pairs of 16-column panels, [Bb, Np/16, Kp/2, 16]
    // i32, at run time.
    if (!bPacked)
      bPacked = packMaddB(rewriter, loc, bMat, bOnnx, params.bZeroPoint.tensor,
                          params.bZeroPoint.perElement, k, n, kPadded, nPadded,
                          isParallel);

    // amx reads the packed operands through memrefs (tile loads).
    Value aBuffer, bBuffer;
    if (amx) {
      aBuffer = toReadOnlyBuffer(rewriter, loc, aPacked);
      bBuffer = toReadOnlyBuffer(rewriter, loc, bPacked);
    }

    // The kernel, writing y as [B, M, N].
    Type yStorage = getStorageElementType(yOnnx);
    Value yInit = tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<OpFoldResult>{batch, m, n}, yStorage);
    auto idx = [&](OpFoldResult v) {
      return getValueOrCreateConstantIndexOp(rewriter, loc, v);
    };
    Value c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value c1 = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value cRows = arith::ConstantIndexOp::create(rewriter, loc, rows);
    Value cCols = arith::ConstantIndexOp::create(rewriter, loc, panelColumns);
    auto accType = VectorType::get({lanes}, rewriter.getI32Type());
    auto pairType = VectorType::get({2}, i16);
    auto lanesType = VectorType::get({2 * kHalf}, i16);
    Value zeroAcc = arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(accType, int32_t(0)));
    Value padI16 =
        arith::ConstantOp::create(rewriter, loc, rewriter.getI16IntegerAttr(0));
    Value padI32 =
        arith::ConstantOp::create(rewriter, loc, rewriter.getI32IntegerAttr(0));
    Value padI8Kernel =
        arith::ConstantOp::create(rewriter, loc, rewriter.getI8IntegerAttr(0));

    Value cBlock = arith::ConstantIndexOp::create(rewriter, loc, rowBlock);
    Value cBlockEnd = idx(mPadded), cColumnsEnd = idx(nPadded);
    Value cM = idx(m), cN = idx(n);
    Value cLastRow = arith::SubIOp::create(rewriter, loc, cM, c1);
    // One tile of the thread grid: rows [mb, blockEnd) (at most MC)
    // and columns [nBegin, nEnd) of batch `bi` (b's batch `bb`); in it,
    // every 16-column panel, and in each panel the block's MR-row tiles.
    // Writes into `yIn`, whose element (0, 0, 0) is element (batchInY,
    // rowBase, colBase) of the padded result.
    auto emitBlock = [&](OpBuilder &b, Location l, Value bi, Value bb,
                         Value mb, Value blockEnd, Value nBegin, Value nEnd,
                         Value yIn, Value batchInY, Value rowBase,
                         Value colBase) -> Value {
          Value scratch = amx ? allocateAmxScratch(b, l) : Value();
          auto panelLoop = scf::ForOp::create(
              b, l, nBegin, nEnd, cCols, ValueRange{yIn},
              [&](OpBuilder &b, Location l, Value n0, ValueRange panelArgs) {
                Value panel = arith::DivUIOp::create(b, l, n0, cCols);
                auto rowLoop = scf::ForOp::create(
                    b, l, mb, blockEnd, cRows, panelArgs,
                    [&](OpBuilder &b, Location l, Value m0,
                        ValueRange rowArgs) {
                    // One MR-row tile; `partial`: some of its rows are past
                    // M.
                    auto emitTile = [&](OpBuilder &b, Location l,
                                        bool partial) -> Value {
                      // The tile's row r: m0 + r, or at most M - 1.
                      auto aRow = [&](OpBuilder &b, Location l,
                                      int64_t r) -> Value {
                        Value row = arith::AddIOp::create(
                            b, l, m0, arith::ConstantIndexOp::create(b, l, r));
                        if (!partial)
                          return row;
                        return arith::MinUIOp::create(b, l, row, cLastRow);
                      };
                      // The tile's accumulators as row halves:
                      // tileAccs[2 r + h] (vector<8xi32>) is row m0 + r,
                      // columns n0 + 8h ...
                      SmallVector<Value> tileAccs;
                      if (amx) {
                        // The scratch row of the tile's row r: r, or that
                        // of the clamped row.
                        auto scratchRowOf = [&](OpBuilder &b, Location l,
                                                int64_t r) -> Value {
                          if (!partial)
                            return arith::ConstantIndexOp::create(b, l, r);
                          return arith::SubIOp::create(b, l, aRow(b, l, r),
                                                       m0);
                        };
                        tileAccs = emitAmxTile(b, l, aBuffer, bBuffer,
                                               scratch, bi, bb, m0, panel,
                                               idx(kSteps), scratchRowOf);
                      } else if (mmla) {
                        Value zeroBlock = arith::ConstantOp::create(
                            b, l,
                            DenseElementsAttr::get(
                                VectorType::get({4}, b.getI32Type()),
                                int32_t(0)));
                        SmallVector<Value> blockInits(4 * rows, zeroBlock);
                        auto octetLoop = scf::ForOp::create(
                            b, l, c0, idx(kSteps), c1, blockInits,
                            [&](OpBuilder &b, Location l, Value octet,
                                ValueRange blocks) {
                              scf::YieldOp::create(
                                  b, l,
                                  emitMmlaStep(b, l, blocks, aPacked, bPacked,
                                               bi, bb, aRow, panel, octet,
                                               rows));
                            });
                        tileAccs = mmlaBlocksToRowHalves(
                            b, l, octetLoop.getResults(), rows);
                      } else {
                        SmallVector<Value> inits(2 * rows, zeroAcc);
                        auto kLoop = scf::ForOp::create(
                            b, l, c0, idx(kSteps), c1, inits,
                            [&](OpBuilder &b, Location l, Value kp,
                                ValueRange accs) {
                              Value k0 = arith::MulIOp::create(
                                  b, l, kp,
                                  arith::ConstantIndexOp::create(b, l, 2));
                              auto readPairs = [&](int64_t column) -> Value {
                                Value packed = vector::TransferReadOp::create(
                                    b, l, accType, bPacked,
                                    ValueRange{bb, panel, kp,
                                               arith::ConstantIndexOp::create(
                                                   b, l, column)},
                                    padI32, ArrayRef<bool>{true});
                                return vector::BitCastOp::create(b, l, lanesType,
                                                                 packed);
                              };
                              SmallVector<Value> next;
                              if (vnni) {
                                // Quads: four b' bytes per lane; row r's
                                // four a' bytes as one i32, broadcast.
                                auto readQuads = [&](int64_t column) -> Value {
                                  return vector::TransferReadOp::create(
                                      b, l, accType, bPacked,
                                      ValueRange{bb, panel, kp,
                                                 arith::ConstantIndexOp::create(
                                                     b, l, column)},
                                      padI32, ArrayRef<bool>{true});
                                };
                                Value bLo = readQuads(0),
                                      bHi = readQuads(lanes);
                                Value quadStart = arith::MulIOp::create(
                                    b, l, kp,
                                    arith::ConstantIndexOp::create(b, l, 4));
                                for (int64_t r = 0; r < rows; ++r) {
                                  Value row = aRow(b, l, r);
                                  Value bytes = vector::TransferReadOp::create(
                                      b, l, VectorType::get({4}, i8), aPacked,
                                      ValueRange{bi, row, quadStart}, padI8Kernel,
                                      ArrayRef<bool>{true});
                                  Value quad = vector::BitCastOp::create(
                                      b, l, VectorType::get({1}, b.getI32Type()),
                                      bytes);
                                  Value broadcast = vector::BroadcastOp::create(
                                      b, l, accType,
                                      vector::ExtractOp::create(b, l, quad,
                                                                ArrayRef<int64_t>{0}));
                                  next.push_back(emitVnniDotStep(
                                      b, l, accs[2 * r], broadcast, bLo,
                                      signedA, pairSumsFitI16));
                                  next.push_back(emitVnniDotStep(
                                      b, l, accs[2 * r + 1], broadcast, bHi,
                                      signedA, pairSumsFitI16));
                                }
                                scf::YieldOp::create(b, l, next);
                                return;
                              }
                              Value bLo = readPairs(0), bHi = readPairs(kHalf);
                              for (int64_t r = 0; r < rows; ++r) {
                                Value row = aRow(b, l, r);
                                Value pair = vector::TransferReadOp::create(
                                    b, l, pairType, aPacked,
                                    ValueRange{bi, row, k0}, padI16,
                                    ArrayRef<bool>{true});
                                SmallVector<int64_t> repeat;
                                for (int64_t i = 0; i < kHalf; ++i)
                                  repeat.append({0, 1});
                                Value broadcast = vector::ShuffleOp::create(
                                    b, l, pair, pair, repeat);
                                next.push_back(arith::AddIOp::create(
                                    b, l, accs[2 * r],
                                    emitPairwiseMultiplyAdd(b, l, broadcast,
                                                            bLo)));
                                next.push_back(arith::AddIOp::create(
                                    b, l, accs[2 * r + 1],
                                    emitPairwiseMultiplyAdd(b, l, broadcast,
                                                            bHi)));
                              }
                              scf::YieldOp::create(b, l, next);
                            });
                        tileAccs = llvm::to_vector_of<Value>(kLoop.getResults());
                      }

                      // Epilogue: the zero-point terms of the quad
                      // strategies, then requantization.
                      Value y = rowArgs[0];
                      auto i32Vec = accType;
                      for (int64_t r = 0; r < rows; ++r) {
                        Value row = aRow(b, l, r);
                        for (int64_t h = 0; h < 2; ++h) {
                          Value column = arith::AddIOp::create(
                              b, l, n0,
                              arith::ConstantIndexOp::create(b, l, h * lanes));
                          Value acc = tileAccs[2 * r + h];
                          if (vnni) {
                            // acc += za'[m] term[n] - zb'[n] rowsum[m]
                            Value za = emitZeroPointA(
                                b, l,
                                readKernelParam(b, l, params.aZeroPoint, row, column, true,
                                                lanes),
                                aOnnx, signedA);
                            Value zb = emitZeroPointB(
                                b, l,
                                readKernelParam(b, l, params.bZeroPoint, row, column,
                                                false, lanes),
                                bOnnx);
                            Value term = vector::TransferReadOp::create(
                                b, l, i32Vec, columnTerm,
                                ValueRange{bb, column}, padI32,
                                ArrayRef<bool>{true});
                            acc = arith::AddIOp::create(
                                b, l, acc,
                                arith::MulIOp::create(b, l, za, term));
                            if (rowSum) {
                              Value sum = vector::BroadcastOp::create(
                                  b, l, i32Vec,
                                  tensor::ExtractOp::create(
                                      b, l, rowSum, ValueRange{bi, row}));
                              acc = arith::SubIOp::create(
                                  b, l, acc,
                                  arith::MulIOp::create(b, l, zb, sum));
                            }
                          }
                          // y = requantized acc (QLinearMatMul), or acc
                          // itself (MatMulInteger, i32).
                          Value stored = acc;
                          if (op.requantizes())
                            stored = emitRequantizedLanes(
                                b, l, requantize, acc,
                                emitMultiplierLanes(b, l, requantize, row,
                                                    column, lanes),
                                row, column);
                          Value rowInY =
                              arith::SubIOp::create(b, l, row, rowBase);
                          Value columnInY =
                              arith::SubIOp::create(b, l, column, colBase);
                          y = vector::TransferWriteOp::create(
                                  b, l, stored, y,
                                  ValueRange{batchInY, rowInY, columnInY},
                                  ArrayRef<bool>{columnsExact})
                                  .getResult();
                        }
                      }
                      return y;
                    };
                    if (!partialTiles) {
                      scf::YieldOp::create(b, l, emitTile(b, l, false));
                      return;
                    }
                    Value tileEnd = arith::AddIOp::create(b, l, m0, cRows);
                    Value fits = arith::CmpIOp::create(
                        b, l, arith::CmpIPredicate::ule, tileEnd, cM);
                    auto tile = scf::IfOp::create(
                        b, l, fits,
                        [&](OpBuilder &b, Location l) {
                          scf::YieldOp::create(b, l, emitTile(b, l, false));
                        },
                        [&](OpBuilder &b, Location l) {
                          scf::YieldOp::create(b, l, emitTile(b, l, true));
                        });
                    scf::YieldOp::create(b, l, tile.getResults());
                    });
                scf::YieldOp::create(b, l, rowLoop.getResults());
              });
          return panelLoop.getResult(0);
    };
    auto minOf = [](OpBuilder &b, Location l, Value x, Value step,
                    Value bound) -> Value {
      return arith::MinUIOp::create(b, l, arith::AddIOp::create(b, l, x, step),
                                    bound);
    };
    Value y;
    if (!isParallel) {
      auto batchLoop = scf::ForOp::create(
          rewriter, loc, c0, idx(batch), c1, ValueRange{yInit},
          [&](OpBuilder &b, Location l, Value bi, ValueRange batchArgs) {
            Value bb = sharedB ? c0 : bi;
            auto blockLoop = scf::ForOp::create(
                b, l, c0, cBlockEnd, cBlock, batchArgs,
                [&](OpBuilder &b, Location l, Value mb, ValueRange blockArgs) {
                  Value y = emitBlock(b, l, bi, bb, mb,
                                      minOf(b, l, mb, cBlock, cBlockEnd), c0,
                                      cColumnsEnd, blockArgs[0], bi, c0, c0);
                  scf::YieldOp::create(b, l, y);
                });
            scf::YieldOp::create(b, l, blockLoop.getResults());
          });
      y = batchLoop.getResult(0);
    } else {
      // Threads: one scf.forall (-> OpenMP) over batches x row blocks x
      // column chunks. Every tile writes its own part of y, so the result
      // does not depend on the thread count. Splitting the columns keeps
      // threads busy when there are few row blocks (gemv: one) and costs
      // little: each tile re-reads its packed A block (in L2), and every B
      // panel is still read once per row block.
      //
      // OpenMP hands each thread a contiguous range of the grid, outer
      // dimension first. A b packed by the program is packed panel range by
      // panel range over the threads (the packing's outer parallel loop), so
      // when its packed panels outweigh A's (N >= M), the column chunks go
      // outside the row blocks: each thread then multiplies with the panels
      // it packed itself instead of pulling the other core's freshly written
      // lines (QMM_bert at 2 threads: 0.75 -> 0.55 ms). A compile-time b
      // goes the same way: the column chunks split evenly more often than
      // the row blocks, whose last one is short (QMM_bert_constB, M = 128 =
      // 48 + 48 + 32: 864 against 720 rows a thread with rows outside; 0.93x
      // the time at 2 threads with columns outside, 1.00x at 1). Rows stay
      // outside for a taller a, whose packing is split by rows.
      bool columnsOuter = staticM && staticN && *staticN >= *staticM;
      unsigned rowDim = columnsOuter ? 2 : 1, columnDim = columnsOuter ? 1 : 2;
      SmallVector<OpFoldResult> upper{batch, mPadded, nPadded};
      SmallVector<OpFoldResult> steps{rewriter.getIndexAttr(1),
                                      rewriter.getIndexAttr(rowBlock),
                                      rewriter.getIndexAttr(config.columnChunk)};
      if (columnsOuter) {
        std::swap(upper[1], upper[2]);
        std::swap(steps[1], steps[2]);
      }
      Value cChunk = arith::ConstantIndexOp::create(rewriter, loc,
                                                    config.columnChunk);
      auto forall = scf::ForallOp::create(
          rewriter, loc,
          ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0),
                                 rewriter.getIndexAttr(0),
                                 rewriter.getIndexAttr(0)},
          upper, steps, ValueRange{yInit}, std::nullopt);
      OpBuilder::InsertionGuard guard(rewriter);
      OpBuilder &b = rewriter;
      b.setInsertionPointToStart(forall.getBody());
      Value bi = forall.getInductionVar(0),
            mb = forall.getInductionVar(rowDim),
            nc = forall.getInductionVar(columnDim);
      Value bb = sharedB ? c0 : bi;
      Value shared = forall.getRegionIterArgs()[0];
      Value blockEnd = minOf(b, loc, mb, cBlock, cBlockEnd);
      Value chunkEnd = minOf(b, loc, nc, cChunk, cColumnsEnd);
      // The tile's part of y: its rows and columns below M and N.
      Value rowsInY = arith::SubIOp::create(
          b, loc, minOf(b, loc, mb, cBlock, cM), mb);
      Value columnsInY = arith::SubIOp::create(
          b, loc, minOf(b, loc, nc, cChunk, cN), nc);
      SmallVector<OpFoldResult> offsets{bi, mb, nc};
      SmallVector<OpFoldResult> sizes{b.getIndexAttr(1), rowsInY, columnsInY};
      SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
      Value slice = tensor::ExtractSliceOp::create(b, loc, shared, offsets,
                                                   sizes, strides);
      Value written = emitBlock(b, loc, bi, bb, mb, blockEnd, nc, chunkEnd,
                                slice, c0, mb, nc);
      b.setInsertionPointToStart(forall.getTerminator().getBody());
      tensor::ParallelInsertSliceOp::create(b, loc, written, shared, offsets,
                                            sizes, strides);
      y = forall.getResult(0);
    }

    // Back to the result's batch shape.
    auto resultType =
        cast<RankedTensorType>(converter.convertType(op.yType));
    if (resultType.getRank() == 2) {
      y = tensor::CollapseShapeOp::create(
          rewriter, loc, resultType, y,
          ArrayRef<ReassociationIndices>{{0, 1}, {2}});
    } else if (resultType.getRank() > 3) {
      SmallVector<OpFoldResult> outputShape =
          tensor::getMixedSizes(rewriter, loc, op.aStorage);
      outputShape.back() = n;
      SmallVector<ReassociationIndices> groups{
          llvm::to_vector(llvm::seq<int64_t>(0, resultType.getRank() - 2)),
          {resultType.getRank() - 2},
          {resultType.getRank() - 1}};
      y = tensor::ExpandShapeOp::create(rewriter, loc, resultType, y, groups,
                                        outputShape);
    }
    rewriter.replaceOp(op.op, y);
    return success();
}

/// QLinearMatMul and MatMulInteger on the kernel: each op only says what it
/// computes (describeInt8Contraction).
template <typename OpTy>
struct Int8KernelPattern : OpConversionPattern<OpTy> {
  Int8KernelPattern(const TypeConverter &converter, MLIRContext *ctx,
                    bool parallel, Int8KernelStrategy strategy)
      : OpConversionPattern<OpTy>(converter, ctx, /*benefit=*/2),
        parallel(parallel), strategy(strategy) {}

  /// Distribute the row blocks over threads (scf.forall).
  bool parallel;
  /// How the micro-kernel multiplies.
  Int8KernelStrategy strategy;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return lowerInt8Kernel(describeInt8Contraction(op, adaptor), rewriter,
                           *this->getTypeConverter(), parallel, strategy);
  }
};

} // namespace

void qops::populateQLinearMatMulKernelPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               bool parallel,
                                               Int8KernelStrategy strategy) {
  patterns.add<Int8KernelPattern<QLinearMatMulOp>,
               Int8KernelPattern<MatMulIntegerOp>>(
      converter, patterns.getContext(), parallel, strategy);
  populateQLinearMatMulGemvPatterns(converter, patterns, parallel, strategy);
}
