//===- QLinearMatMulGemv.cpp - the int8 gemv ------------------------------===//
//
// si8/ui8 QLinearMatMul with f32 scales, or MatMulInteger, whose a has at
// most four rows (a static M; typically one row of activations times the
// weights) and whose b is a static 2-D matrix. Every byte of b is used by at
// most four products, so the work is reading b once; the int8 kernel would
// pack b first (its madd packing doubles b's bytes where b's zero point is
// not 0), the generic contraction multiplies in i32 lanes (VPMULLD). Here:
//
//   A16[m, k] = a[m, k] - a_zp[m]            i16, [M, Kp], Kp = K rounded up
//                                            to even, zero padded
//   acc[m, n] = sum_k A16[m, k] b[k, n]  -  b_zp[n] S[m]
//   S[m]      = sum_k A16[m, k]              (only when some b_zp is not 0)
//   y[m, n]   = saturate(round_half_even(f64(acc) * f64(multiplier)) + y_zp)
//                                            (QLinearMatMulLanes.h), or
//   y[m, n]   = acc[m, n]                    for MatMulInteger
//
// with b and b_zp extended by their signedness: (a - a_zp)(b - b_zp) =
// (a - a_zp) b - (a - a_zp) b_zp, exact in wrapping i32 arithmetic. Each
// product has |A16| <= 255 and |b| <= 255, so a pair sum fits i32.
//
// One step multiplies a k-pair (2q, 2q + 1) of a 16-column panel: the two
// rows of b interleaved into byte pairs (b[2q][n], b[2q+1][n]) (VPUNPCKLBW /
// VPUNPCKHBW), extended to i16 (columns 0-7 and 8-15 in order), each
// multiplied with the broadcast pair (A16[m, 2q], A16[m, 2q+1]) by the
// pairwise multiply-add (qkernel.dot_i16_pairs: VPMADDWD) into 8 i32 lanes. A
// row-major b is swept in blocks of kGemvBlockPairs pairs over all its panels,
// the sums read from and written back to the partials per block: walking down
// one panel instead would touch one cache line of b per row, in a new 4 KiB
// page every row once N >= 4096 (QMM_gemv, 1 x 4096 x 4096 at 1 thread: 5.1 ms
// walking down, 0.9-1.4 ms swept in blocks of 4 pairs; 8 pairs 2.0 ms, 2 pairs
// 1.0-1.4 ms, four panels at a time no better).
//
// A constant b under the madd strategy (or maddubs, whose VPMADDUBSW would
// not read fewer bytes) is packed into the pairs once, at the first call
// (packGemvPairs; qops-hoist-constant-expressions), [Np/16, Kp/2, 32] i8 with
// the columns in order, each panel's pairs contiguous: panel groups walk down
// the pairs with the sums in registers (with one row of a, four panels
// together: 8 accumulators), and the loop only extends the pairs (VPMOVSXBW /
// VPMOVZXBW from memory), one byte of b per multiply (the kernel's i16 packing
// reads two; its byte pairs are this layout with a batch dimension, for a b
// whose zero point is 0). The quad strategies keep their kernel for a constant
// b (VPDPBUSD on packed quads reads one byte per multiply too).
//
// Threads: with K a multiple of kGemvKChunkRows (at least two chunks), an
// scf.forall sums chunks of kGemvKChunkRows rows of b into partials [C, M, Np]
// (each thread reads a contiguous part of b); i32 sums wrap, so the grouping
// does not change the result. Otherwise it splits the columns into blocks of
// kGemvColumnBlock (N padded to a multiple: each thread reads its part of every
// row). The partials are added, corrected and requantized after, 8 outputs
// at a time.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"

#include "QLinearMatMulLanes.h"
#include "QuantOps/Conversion/QOpsToLinalg/QuantMath.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"
#include "TuningTable.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::qops;

namespace {

constexpr int64_t kPanel = 16;       // columns of one pair vector
constexpr int64_t kLanes = 8;        // i32 lanes of one accumulator

/// Whether the gemv takes `op` (see the file comment); checked before any
/// IR is built.
StringRef gemvUnsupportedReason(const Int8Contraction &op,
                                Int8KernelStrategy strategy) {
  auto aType = cast<RankedTensorType>(op.a.getType());
  auto bType = cast<RankedTensorType>(op.b.getType());
  if (StringRef reason = int8MatMulUnsupportedReason(op); !reason.empty())
    return reason;
  if (op.bias)
    return "a bias (the kernel and the generic form add it)";
  if (op.dequantizes())
    return "a dequantize clause (the kernel and the generic form apply it)";
  if (bType.getRank() != 2 || !bType.hasStaticShape() ||
      !aType.hasStaticShape() || aType.getNumElements() == 0 ||
      bType.getNumElements() == 0)
    return "not a static 2-D b";
  for (Value param : {op.aScale, op.aZeroPoint, op.bScale, op.bZeroPoint,
                      op.yScale, op.yZeroPoint})
    if (param && !cast<RankedTensorType>(param.getType()).hasStaticShape())
      return "dynamic parameter shapes";
  // a's rows: every dim but the last (a 1-D a is one row).
  if (aType.getNumElements() / aType.getShape().back() > kGemvMaxRows)
    return "more rows than a gemv";
  if (matchPattern(op.b, m_Constant()) &&
      strategy != Int8KernelStrategy::Madd &&
      strategy != Int8KernelStrategy::Maddubs)
    return "a constant b: the quad kernels pack it once";
  // Per-row parameters index a's rows: only for an a without batch dims
  // (a batched a broadcasts them over its batch).
  auto perElement = [](Value param) {
    return param && !hasSingleElement(cast<RankedTensorType>(param.getType()));
  };
  auto perRow = [](Value param) { return param && isPerRowParam(param); };
  if (aType.getRank() > 2 &&
      (perElement(op.aScale) || perElement(op.aZeroPoint) ||
       perRow(op.yScale) || perRow(op.yZeroPoint)))
    return "per-row parameters of a batch";
  return "";
}

/// The gemv's sizes: a as [M, K], its padding, the column groups and blocks,
/// the k chunks of the threads.
struct GemvPlan {
  int64_t rows, k, n, kPadded, panelsTogether, groupColumns, nPadded;
  int64_t blockColumns, columnBlocks, chunks, chunkPairs;
  bool bConstant, columnsExact, oddK;
};

GemvPlan planGemv(const Int8Contraction &op, bool parallel) {
  auto aType = cast<RankedTensorType>(op.a.getType());
  auto bType = cast<RankedTensorType>(op.b.getType());
  GemvPlan plan;
  plan.k = aType.getShape().back();
  plan.n = bType.getDimSize(1);
  plan.rows = aType.getNumElements() / plan.k;
  plan.bConstant = matchPattern(op.b, m_Constant());
  plan.kPadded = llvm::alignTo(plan.k, 2);
  plan.panelsTogether =
      plan.bConstant ? std::max<int64_t>(1, kGemvMaxRows / plan.rows) : 1;
  plan.groupColumns = plan.panelsTogether * kPanel;
  plan.nPadded = llvm::alignTo(plan.n, plan.groupColumns);
  // Threads: k in chunks of kGemvKChunkRows rows when K has at least two, else
  // the columns in blocks of kGemvColumnBlock (each thread reads its part of
  // every row of b).
  bool splitK =
      parallel && plan.k % kGemvKChunkRows == 0 && plan.k / kGemvKChunkRows >= 2;
  plan.blockColumns = plan.nPadded;
  if (parallel && !splitK && plan.nPadded > kGemvColumnBlock) {
    plan.blockColumns = kGemvColumnBlock;
    plan.nPadded = llvm::alignTo(plan.n, kGemvColumnBlock);
  }
  plan.columnBlocks = plan.nPadded / plan.blockColumns;
  // Every read of b's columns [0, nPadded) is in bounds only without
  // padding: N padded to the column blocks reads past N even when N is a
  // multiple of the group (a runtime b of 528 columns in blocks of 512
  // read 496 bytes past the end of b).
  plan.columnsExact = plan.n == plan.nPadded;
  // Chunks of k-pairs: the whole K (the packing of a constant b includes the
  // zero row of an odd K), or kGemvKChunkRows rows each for threads.
  plan.chunks = 1;
  plan.chunkPairs = plan.bConstant ? plan.kPadded / 2 : plan.k / 2;
  if (splitK) {
    plan.chunks = plan.k / kGemvKChunkRows;
    plan.chunkPairs = kGemvKChunkRows / 2;
  }
  plan.oddK = plan.k % 2 != 0;
  return plan;
}

/// The constant b packed into k-pairs: [Np/16, Kp/2, 32] i8, byte 2c + t of
/// (panel p, pair q) = b[2q + t][16p + c] (0 past K and N), in IR that
/// qops-hoist-constant-expressions runs once:
///   pad b to [Kp, Np], view it as [Kp/2 (q), 2 (t), Np/16 (p), 16 (c)],
///   linalg.transpose to [p, q, c, t], collapse (c, t) to 32.
Value packGemvPairs(OpBuilder &b, Location loc, Value bStorage,
                    const GemvPlan &plan) {
  Type i8 = b.getI8Type();
  Value padded =
      padHighTo(b, loc, bStorage,
                {b.getIndexAttr(plan.kPadded), b.getIndexAttr(plan.nPadded)},
                b.getI8IntegerAttr(0));
  int64_t pairs = plan.kPadded / 2, panels = plan.nPadded / kPanel;
  Value split = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({pairs, 2, panels, kPanel}, i8), padded,
      ArrayRef<ReassociationIndices>{{0, 1}, {2, 3}});
  Value init = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{panels, pairs, kPanel, 2}, i8);
  Value interleaved =
      linalg::TransposeOp::create(b, loc, split, init,
                                  ArrayRef<int64_t>{2, 0, 3, 1})
          .getResult()[0];
  return tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({panels, pairs, 2 * kPanel}, i8),
      interleaved, ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
}

/// A16 = a - a_zp as [M, Kp] i16 (zero padded), and S[m] = sum_k A16[m, k]
/// when b's zero point may be nonzero (else null).
std::pair<Value, Value> packGemvA(OpBuilder &rewriter, Location loc,
                                  const Int8Contraction &op,
                                  const GemvPlan &plan,
                                  const KernelParam &aZeroPoint) {
  auto aOnnxType = cast<RankedTensorType>(op.a.getType());
  Type aOnnx = aOnnxType.getElementType();
  Type i8 = rewriter.getI8Type(),
       i32 = rewriter.getI32Type();
  // a as [M, K] storage.
  Value a = op.aStorage;
  auto aMatrixType = RankedTensorType::get({plan.rows, plan.k}, i8);
  if (aOnnxType.getRank() == 1)
    a = tensor::ExpandShapeOp::create(rewriter, loc, aMatrixType, a,
                                      ArrayRef<ReassociationIndices>{{0, 1}});
  else if (aOnnxType.getRank() > 2)
    a = tensor::CollapseShapeOp::create(
        rewriter, loc, aMatrixType, a,
        ArrayRef<ReassociationIndices>{
            llvm::to_vector(llvm::seq<int64_t>(0, aOnnxType.getRank() - 1)),
            {aOnnxType.getRank() - 1}});
  Value a16 = emitCenteredA16(rewriter, loc, a, aOnnx, aZeroPoint);
  MLIRContext *ctx = rewriter.getContext();
  AffineExpr d0 = getAffineDimExpr(0, ctx);
  AffineMap identity = AffineMap::getMultiDimIdentityMap(2, ctx);
  Value rowSum;
  // The b_zp S[m] term vanishes where b's zero point is 0.
  if (!isZeroZeroPoint(op.bZeroPoint)) {
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getI32IntegerAttr(0));
    Value sumInit =
        linalg::FillOp::create(
            rewriter, loc, zero,
            tensor::EmptyOp::create(rewriter, loc,
                                    ArrayRef<int64_t>{plan.rows}, i32)
                .getResult())
            .getResult(0);
    rowSum = linalg::GenericOp::create(
                 rewriter, loc, sumInit.getType(), a16, sumInit,
                 ArrayRef<AffineMap>{identity, AffineMap::get(2, 0, d0)},
                 ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                               utils::IteratorType::reduction},
                 [&](OpBuilder &b, Location l, ValueRange args) {
                   linalg::YieldOp::create(
                       b, l,
                       arith::AddIOp::create(
                           b, l, args[1],
                           arith::ExtSIOp::create(b, l, i32, args[0]))
                           .getResult());
                 })
                 .getResult(0);
  }
  if (plan.kPadded != plan.k)
    a16 = padHighTo(rewriter, loc, a16,
                    {rewriter.getIndexAttr(plan.rows),
                     rewriter.getIndexAttr(plan.kPadded)},
                    rewriter.getI16IntegerAttr(0));
  return {a16, rowSum};
}

Value indexConstant(OpBuilder &b, Location l, int64_t v) {
  return arith::ConstantIndexOp::create(b, l, v);
}

/// The gemv's loops over k-pairs and column groups, with the values they
/// share (created once, before the loops).
struct GemvEmitter {
  const GemvPlan &plan;
  Value a16, bMatrix, packedB;
  bool bUnsigned;
  VectorType accType, pairType, bytesType, wordsType;
  Value zeroAcc, zeroBytes, padI8, padI16, padI32;
  SmallVector<int64_t> repeatPair;
  int64_t accumulators;

  GemvEmitter(OpBuilder &rewriter, Location loc, const GemvPlan &plan,
              Value a16, Value bMatrix, Value packedB, bool bUnsigned)
      : plan(plan), a16(a16), bMatrix(bMatrix), packedB(packedB),
        bUnsigned(bUnsigned) {
    Type i8 = rewriter.getI8Type(), i16 = rewriter.getIntegerType(16);
    accType = VectorType::get({kLanes}, rewriter.getI32Type());
    pairType = VectorType::get({2}, i16);
    bytesType = VectorType::get({kPanel}, i8);
    wordsType = VectorType::get({kPanel}, i16);
    zeroAcc = arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(accType, int32_t(0)));
    zeroBytes = arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(bytesType, int8_t(0)));
    padI8 =
        arith::ConstantOp::create(rewriter, loc, rewriter.getI8IntegerAttr(0));
    padI16 = arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getI16IntegerAttr(0));
    padI32 = arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getI32IntegerAttr(0));
    for (int64_t i = 0; i < kLanes; ++i)
      repeatPair.append({0, 1});
    accumulators = plan.rows * plan.panelsTogether * 2;
  }

  Value extend(OpBuilder &b, Location l, Value bytes) const {
    if (bUnsigned)
      return arith::ExtUIOp::create(b, l, wordsType, bytes);
    return arith::ExtSIOp::create(b, l, wordsType, bytes);
  }

  /// The pair vectors of the 16 columns from `column` at k-pair `pair`:
  /// columns 0-7 and 8-15, each vector<16xi16> of (b[2q][c], b[2q+1][c]).
  /// `secondRowEmpty`: row 2q + 1 is past K (zeros).
  std::pair<Value, Value> readPairs(OpBuilder &b, Location l, Value pair,
                                    Value column, bool secondRowEmpty) const {
    SmallVector<Value> halves;
    if (packedB) {
      Value panel =
          arith::DivUIOp::create(b, l, column, indexConstant(b, l, kPanel));
      for (int64_t h = 0; h < 2; ++h)
        halves.push_back(vector::TransferReadOp::create(
            b, l, bytesType, packedB,
            ValueRange{panel, pair, indexConstant(b, l, h * kPanel)}, padI8,
            ArrayRef<bool>{true}));
    } else {
      Value first = arith::MulIOp::create(b, l, pair, indexConstant(b, l, 2));
      auto row = [&](Value r) -> Value {
        return vector::TransferReadOp::create(
            b, l, bytesType, bMatrix, ValueRange{r, column}, padI8,
            ArrayRef<bool>{plan.columnsExact});
      };
      Value even = row(first);
      Value odd = secondRowEmpty
                      ? zeroBytes
                      : row(arith::AddIOp::create(b, l, first,
                                                  indexConstant(b, l, 1)));
      for (bool high : {false, true})
        halves.push_back(vector::ShuffleOp::create(b, l, even, odd,
                                                   interleaveRowsMask(high)));
    }
    return {extend(b, l, halves[0]), extend(b, l, halves[1])};
  }

  /// accs[(m * panelsTogether + g) * 2 + h] += the k-pair `pair` of the
  /// columns n0 + 16 g + 8 h ..
  SmallVector<Value> step(OpBuilder &b, Location l, Value pair, Value n0,
                          ValueRange accs, bool secondRowEmpty) const {
    Value column0 = arith::MulIOp::create(b, l, pair, indexConstant(b, l, 2));
    SmallVector<Value> aPairs;
    for (int64_t m = 0; m < plan.rows; ++m) {
      Value stored = vector::TransferReadOp::create(
          b, l, pairType, a16, ValueRange{indexConstant(b, l, m), column0},
          padI16, ArrayRef<bool>{true});
      aPairs.push_back(
          vector::ShuffleOp::create(b, l, stored, stored, repeatPair));
    }
    SmallVector<Value> next(accs);
    for (int64_t g = 0; g < plan.panelsTogether; ++g) {
      Value column =
          arith::AddIOp::create(b, l, n0, indexConstant(b, l, g * kPanel));
      auto [low, high] = readPairs(b, l, pair, column, secondRowEmpty);
      for (int64_t m = 0; m < plan.rows; ++m) {
        int64_t at = (m * plan.panelsTogether + g) * 2;
        next[at] = emitPairDotStep(b, l, next[at], aPairs[m], low);
        next[at + 1] = emitPairDotStep(b, l, next[at + 1], aPairs[m], high);
      }
    }
    return next;
  }

  /// The accumulators of the group at n0 in `sums` ([1, M, W] i32, column
  /// 0 = the block's first).
  SmallVector<Value> accumulatorIndices(OpBuilder &b, Location l, Value n0,
                                        int64_t at) const {
    int64_t m = at / (2 * plan.panelsTogether),
            g = (at / 2) % plan.panelsTogether, h = at % 2;
    return {indexConstant(b, l, 0), indexConstant(b, l, m),
            arith::AddIOp::create(
                b, l, n0, indexConstant(b, l, g * kPanel + h * kLanes))};
  }

  /// Writes the accumulators `accs` of the group at n0 into `sums`.
  Value storeAccumulators(OpBuilder &b, Location l, ValueRange accs, Value n0,
                          Value sums) const {
    for (int64_t at = 0; at < accumulators; ++at)
      sums = vector::TransferWriteOp::create(b, l, accs[at], sums,
                                             accumulatorIndices(b, l, n0, at),
                                             ArrayRef<bool>{true})
                 .getResult();
    return sums;
  }

  /// The pairs [pairBegin, pairBegin + pairCount) (`pairCount` static) of
  /// every group, added to `sums`; with `secondRowEmpty` the last pair is
  /// row K - 1 alone.
  Value emitSweep(OpBuilder &b, Location l, Value nBegin, Value pairBegin,
                  int64_t pairCount, bool secondRowEmpty, Value sums) const {
    auto groupLoop = scf::ForOp::create(
        b, l, indexConstant(b, l, 0), indexConstant(b, l, plan.blockColumns),
        indexConstant(b, l, plan.groupColumns), ValueRange{sums},
        [&](OpBuilder &b, Location l, Value n0, ValueRange groupArgs) {
          Value column = arith::AddIOp::create(b, l, nBegin, n0);
          SmallVector<Value> accs;
          for (int64_t at = 0; at < accumulators; ++at)
            accs.push_back(vector::TransferReadOp::create(
                b, l, accType, groupArgs[0], accumulatorIndices(b, l, n0, at),
                padI32, ArrayRef<bool>{true}));
          for (int64_t q = 0; q < pairCount; ++q)
            accs = step(
                b, l,
                arith::AddIOp::create(b, l, pairBegin, indexConstant(b, l, q)),
                column, accs, secondRowEmpty && q == pairCount - 1);
          scf::YieldOp::create(
              b, l, storeAccumulators(b, l, accs, n0, groupArgs[0]));
        });
    return groupLoop.getResult(0);
  }

  /// A packed b walked down panel group by panel group, the sums in
  /// registers.
  Value emitPackedChunk(OpBuilder &b, Location l, Value pairBegin,
                        Value nBegin, Value sums) const {
    auto groupLoop = scf::ForOp::create(
        b, l, indexConstant(b, l, 0), indexConstant(b, l, plan.blockColumns),
        indexConstant(b, l, plan.groupColumns), ValueRange{sums},
        [&](OpBuilder &b, Location l, Value n0, ValueRange groupArgs) {
          Value column = arith::AddIOp::create(b, l, nBegin, n0);
          SmallVector<Value> init(accumulators, zeroAcc);
          auto kLoop = scf::ForOp::create(
              b, l, pairBegin,
              arith::AddIOp::create(b, l, pairBegin,
                                    indexConstant(b, l, plan.chunkPairs)),
              indexConstant(b, l, 1), init,
              [&](OpBuilder &b, Location l, Value pair, ValueRange accs) {
                scf::YieldOp::create(b, l,
                                     step(b, l, pair, column, accs, false));
              });
          scf::YieldOp::create(b, l,
                               storeAccumulators(b, l, kLoop.getResults(), n0,
                                                 groupArgs[0]));
        });
    return groupLoop.getResult(0);
  }

  /// The sums of chunk `chunk`, columns from nBegin, into `sums` ([1, M,
  /// W] i32, zeros): a packed b walked down panel by panel, a row-major b
  /// swept in blocks (see the file header).
  Value emitChunk(OpBuilder &b, Location l, Value chunk, Value nBegin,
                  Value sums) const {
    Value pairBegin = arith::MulIOp::create(
        b, l, chunk, indexConstant(b, l, plan.chunkPairs));
    if (packedB)
      return emitPackedChunk(b, l, pairBegin, nBegin, sums);
    int64_t blocks = plan.chunkPairs / kGemvBlockPairs,
            leftOver = plan.chunkPairs % kGemvBlockPairs;
    auto blockLoop = scf::ForOp::create(
        b, l, indexConstant(b, l, 0), indexConstant(b, l, blocks),
        indexConstant(b, l, 1), ValueRange{sums},
        [&](OpBuilder &b, Location l, Value block, ValueRange blockArgs) {
          Value first = arith::AddIOp::create(
              b, l, pairBegin,
              arith::MulIOp::create(b, l, block,
                                    indexConstant(b, l, kGemvBlockPairs)));
          scf::YieldOp::create(b, l,
                               emitSweep(b, l, nBegin, first, kGemvBlockPairs,
                                         false, blockArgs[0]));
        });
    Value result = blockLoop.getResult(0);
    if (leftOver != 0)
      result = emitSweep(b, l, nBegin,
                         arith::AddIOp::create(
                             b, l, pairBegin,
                             indexConstant(b, l, blocks * kGemvBlockPairs)),
                         leftOver, false, result);
    // K odd: the last row of b with a zero row after it (only without
    // chunks: a chunked K is even).
    if (plan.oddK)
      result = emitSweep(b, l, nBegin, indexConstant(b, l, plan.k / 2), 1,
                         true, result);
    return result;
  }
};

/// The partial sums [C, M, Np]: one chunk on one thread, or an scf.forall
/// over chunks of k or blocks of columns (one of the two is 1).
Value distributeGemv(OpBuilder &rewriter, Location loc,
                     const GemvEmitter &gemv) {
  const GemvPlan &plan = gemv.plan;
  Value partialsInit =
      linalg::FillOp::create(
          rewriter, loc, gemv.padI32,
          tensor::EmptyOp::create(
              rewriter, loc,
              ArrayRef<int64_t>{plan.chunks, plan.rows, plan.nPadded},
              rewriter.getI32Type())
              .getResult())
          .getResult(0);
  if (plan.chunks == 1 && plan.columnBlocks == 1)
    return gemv.emitChunk(rewriter, loc, indexConstant(rewriter, loc, 0),
                          indexConstant(rewriter, loc, 0), partialsInit);
  auto forall = scf::ForallOp::create(
      rewriter, loc,
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0),
                             rewriter.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(plan.chunks),
                             rewriter.getIndexAttr(plan.columnBlocks)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1),
                             rewriter.getIndexAttr(1)},
      ValueRange{partialsInit}, std::nullopt);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(forall.getBody());
  Value chunk = forall.getInductionVar(0);
  Value nBegin = arith::MulIOp::create(
      rewriter, loc, forall.getInductionVar(1),
      indexConstant(rewriter, loc, plan.blockColumns));
  SmallVector<OpFoldResult> offsets{chunk, rewriter.getIndexAttr(0), nBegin};
  SmallVector<OpFoldResult> sizes{rewriter.getIndexAttr(1),
                                  rewriter.getIndexAttr(plan.rows),
                                  rewriter.getIndexAttr(plan.blockColumns)};
  SmallVector<OpFoldResult> strides(3, rewriter.getIndexAttr(1));
  Value slice = tensor::ExtractSliceOp::create(
      rewriter, loc, forall.getRegionIterArgs()[0], offsets, sizes, strides);
  Value written = gemv.emitChunk(rewriter, loc, chunk, nBegin, slice);
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, written,
                                        forall.getRegionIterArgs()[0], offsets,
                                        sizes, strides);
  return forall.getResult(0);
}

/// y[m, n] from the partials, 8 outputs at a time: their sum, less
/// b_zp[n] S[m], requantized (QLinearMatMul) or as it is (MatMulInteger).
Value emitGemvOutputs(OpBuilder &rewriter, Location loc,
                      const Int8Contraction &op, const GemvEmitter &gemv,
                      Int8MatMulParams &params, Value partials,
                      Value rowSum) {
  const GemvPlan &plan = gemv.plan;
  // Per-column parameters padded to Np (scale 1, zero point 0).
  params.padColumns(rewriter, loc, rewriter.getIndexAttr(plan.nPadded));
  RequantizeParams requantize = params.requantize();
  VectorType accType = gemv.accType;
  Type yStorage = getStorageElementType(params.yOnnx);
  Value yInit = tensor::EmptyOp::create(
      rewriter, loc, ArrayRef<int64_t>{plan.rows, plan.n}, yStorage);
  auto rowLoop = scf::ForOp::create(
      rewriter, loc, indexConstant(rewriter, loc, 0),
      indexConstant(rewriter, loc, plan.rows), indexConstant(rewriter, loc, 1),
      ValueRange{yInit},
      [&](OpBuilder &b, Location l, Value m, ValueRange rowArgs) {
        auto columnLoop = scf::ForOp::create(
            b, l, indexConstant(b, l, 0),
            indexConstant(b, l, llvm::alignTo(plan.n, kLanes)),
            indexConstant(b, l, kLanes), rowArgs,
            [&](OpBuilder &b, Location l, Value column, ValueRange args) {
              Value acc;
              for (int64_t c = 0; c < plan.chunks; ++c) {
                Value partial = vector::TransferReadOp::create(
                    b, l, accType, partials,
                    ValueRange{indexConstant(b, l, c), m, column},
                    arith::ConstantOp::create(b, l, b.getI32IntegerAttr(0)),
                    ArrayRef<bool>{true});
                acc = acc ? arith::AddIOp::create(b, l, acc, partial)
                                .getResult()
                          : partial;
              }
              if (rowSum) {
                // acc -= b_zp[n] S[m]
                Value zb = readKernelParam(b, l, params.bZeroPoint, m, column,
                                           false, kLanes);
                zb = gemv.bUnsigned
                         ? arith::ExtUIOp::create(b, l, accType, zb)
                               .getResult()
                         : arith::ExtSIOp::create(b, l, accType, zb)
                               .getResult();
                Value sum = vector::BroadcastOp::create(
                    b, l, accType,
                    tensor::ExtractOp::create(b, l, rowSum, ValueRange{m}));
                acc = arith::SubIOp::create(
                    b, l, acc, arith::MulIOp::create(b, l, zb, sum));
              }
              Value stored = acc;
              if (op.requantizes()) {
                Value multiplier = emitMultiplierLanes(b, l, requantize, m,
                                                       column, kLanes);
                stored = emitRequantizedLanes(b, l, requantize, acc,
                                              multiplier, m, column);
              }
              Value y = vector::TransferWriteOp::create(
                            b, l, stored, args[0], ValueRange{m, column},
                            ArrayRef<bool>{plan.n % kLanes == 0})
                            .getResult();
              scf::YieldOp::create(b, l, y);
            });
        scf::YieldOp::create(b, l, columnLoop.getResults());
      });
  return rowLoop.getResult(0);
}

} // namespace

/// The gemv for `op` (see the file comment), or failure before any IR is
/// built when it does not apply.
LogicalResult qops::lowerInt8Gemv(const Int8Contraction &op,
                                  ConversionPatternRewriter &rewriter,
                                  const TypeConverter &converter, bool parallel,
                                  Int8KernelStrategy strategy) {
  if (StringRef reason = gemvUnsupportedReason(op, strategy); !reason.empty())
    return rewriter.notifyMatchFailure(op.op, reason);
  // Every check passed: from here on the pattern builds IR.
  Location loc = op.op->getLoc();
  Int8MatMulParams params(rewriter, loc, op);
  GemvPlan plan = planGemv(op, parallel);
  auto [a16, rowSum] = packGemvA(rewriter, loc, op, plan, params.aZeroPoint);
  Value packedB = plan.bConstant
                      ? packGemvPairs(rewriter, loc, op.bStorage, plan)
                      : Value();
  Type bOnnx = cast<RankedTensorType>(op.b.getType()).getElementType();
  GemvEmitter gemv(rewriter, loc, plan, a16, op.bStorage, packedB,
                   cast<IntegerType>(bOnnx).isUnsigned());
  Value partials = distributeGemv(rewriter, loc, gemv);
  Value y =
      emitGemvOutputs(rewriter, loc, op, gemv, params, partials, rowSum);
  // Back to the result's shape.
  auto resultType = cast<RankedTensorType>(converter.convertType(op.yType));
  if (resultType.getRank() == 1)
    y = tensor::CollapseShapeOp::create(
        rewriter, loc, resultType, y, ArrayRef<ReassociationIndices>{{0, 1}});
  else if (resultType.getRank() > 2)
    y = tensor::ExpandShapeOp::create(
        rewriter, loc, resultType, y,
        ArrayRef<ReassociationIndices>{
            llvm::to_vector(llvm::seq<int64_t>(0, resultType.getRank() - 1)),
            {resultType.getRank() - 1}});
  rewriter.replaceOp(op.op, y);
  return success();
}

void qops::populateQLinearMatMulGemvPatterns(const TypeConverter &converter,
                                             RewritePatternSet &patterns,
                                             bool parallel,
                                             Int8KernelStrategy strategy) {
  Int8ContractionLowering paths[] = {lowerInt8Gemv};
  patterns.add<Int8ContractionPattern>(
      converter, patterns.getContext(), paths, parallel, strategy);
}
