//===- FloatMatMulKernel.cpp - qops-lower-float-contractions --------------===//
//
// The engine's float contraction: linalg.matmul / linalg.batch_matmul on
// f32 or f64 (the importer's MatMul and Gemm, the unfused reading of QDQ
// models) as packed B panels and register tiles of broadcast multiply-adds
// in the vector dialect, on tensors, run in the engine's nest of tiles
// (TileLoops.h; qops-distribute gives it to threads).
//
//   y[b, m, n] = c[b, m, n] + sum_{k = 0}^{K - 1} a[b, m, k] w[b, k, n]
//
// Each output is summed in increasing k from c (the importer's MatMul: its
// out is linalg.fill +0.0), every product rounded before it is added
// (arith.mulf, then arith.addf): the order docs/Numerics.md gives for float
// MatMul, so that the result is the same for every target, tile and thread
// count, and equal to the loops this pass replaces. With `fma` the step is
// one vector.fma instead (one rounding per step: faster where a multiply
// and an add do not issue together, and no longer that order).
//
//   L  = lanes of a vector register (512 / 256 / 128 bits over the element;
//        256 for the documented order's tiles of many rows on a CPU that
//        splits 512-bit float arithmetic in two, Zen 4: usesNarrowFloatTiles)
//   NR = V L columns of a panel, MR rows of a tile (TuningTable.h)
//   Bp[b, p, k, j] = w[b, k, p NR + j]   (0 for p NR + j >= N)
//                                        [Bb, Np / NR, K, NR], one
//                                        transfer of V vectors per k row
//   packed when w is computed from constants (then once: the pack is a
//   constant expression, qops-hoist-constant-expressions / qops-const-eval)
//   or when a may have kFloatPackMinRows rows or more; otherwise the tiles
//   read w's rows in place (columns past N masked).
//
//   tile (rows m0 .. m0 + MR, panel p):
//     row_r      = m0 + r, or min(m0 + r, M - 1) in a tile that may pass M
//     acc[r][v]  = c (broadcast, c a linalg.fill) or c's lanes
//     for k = 0 .. K - 1:
//       bv[v]     = Bp[b, p, k, v L .. v L + L)
//       acc[r][v] = acc[r][v] + broadcast(a[b, row_r, k]) * bv[v]
//     y[b, row_r, p NR + v L ..] = acc[r][v]   (masked past N)
//
// A tile that passes M computes row M - 1 again for its rows past M and
// writes the same values there (as the int8 kernel does). A statically
// short a gets as many tiles as MR-row tiles would need, as even as they
// can be, and wider panels (planFloatKernel).
//
// Other forms of the same tiles:
//   f16 / bf16 a and b with f32 sums: the narrow values are read (and b
//     packed narrow), each extended to f32 before its multiply;
//   b = DequantizeLinear(q), q 2/4/8-bit: the weight-only form, q read as
//     integers and dequantized in registers (FloatMatMulWeights.cpp); where
//     a block has kFloatDequantizeMinTiles row tiles or more, a panel is
//     instead dequantized once for them, KC = getFloatDequantizeChunk k rows
//     at a time, into Wc [KC, NR] f32, and the tiles step over Wc as over
//     a packed panel, their sums carried in y from chunk to chunk (the same
//     f32 weights, the same k order: the same bits; on Xeon family 6 model
//     207 the 128 x 4096 x 4096 4-bit prefill went from 59 to 40 ms with
//     fma: the dequantization had taken a third of the tile's issue slots);
//     its row blocks are kFloatDequantizeRowBlock rows, since each block
//     dequantizes the chunks again (128 rows: one block, not 96 + 32);
//   with qops.accuracy_level = 4 and 4-bit q: int8 activations and byte dot
//     products (FloatMatMulInt8.cpp).
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Conversion/Passes.h"
#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"
#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Target/TargetAttr.h"
#include "QuantOps/Target/TargetInfo.h"

#include "FloatMatMulKernel.h"
#include "QLinearMatMulLanes.h" // roundUpTo
#include "TileLoops.h"
#include "TuningTable.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#include "llvm/TargetParser/Triple.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSLOWERFLOATCONTRACTIONS
#include "QuantOps/Conversion/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;
using namespace mlir::qops;

namespace {

/// Whether `v` is computed from constants alone (no argument, no memory
/// read): then whatever packs it is a constant expression, run once.
bool isComputedFromConstants(Value v, int depth = 0) {
  Operation *def = v.getDefiningOp();
  if (!def || depth > 64)
    return false;
  if (def->hasTrait<OpTrait::ConstantLike>())
    return true;
  if (!isMemoryEffectFree(def))
    return false;
  for (Value operand : def->getOperands())
    if (!isComputedFromConstants(operand, depth + 1))
      return false;
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(def->getRegions(), captured);
  return llvm::all_of(captured, [&](Value c) {
    return isComputedFromConstants(c, depth + 1);
  });
}

/// The rows of a plan's tiles: MR, or for a known M as many tiles as
/// MR-row tiles would need, as even as they can be (16 rows: two tiles of
/// 8, not 12 + 4 computed as 12).
int64_t planTileRows(std::optional<int64_t> staticM, int64_t maxRows) {
  if (!staticM)
    return maxRows;
  int64_t m = std::max<int64_t>(*staticM, 1);
  return llvm::divideCeil(m, llvm::divideCeil(m, maxRows));
}

/// Whether the weight-only tiles of a plan (tiles of `rows` rows, row
/// blocks of about `rowBlock`) dequantize chunks: where a block holds
/// kFloatDequantizeMinTiles tiles or more (for a dynamic M, possibly: the
/// choice is then per block at run time).
bool dequantizesChunks(int64_t rows, int64_t rowBlock,
                       std::optional<int64_t> staticM) {
  int64_t tilesPerBlock = std::max<int64_t>(1, rowBlock / rows);
  if (staticM)
    tilesPerBlock =
        std::min<int64_t>(tilesPerBlock, llvm::divideCeil(*staticM, rows));
  return tilesPerBlock >= kFloatDequantizeMinTiles;
}

/// Whether the documented order's tiles of an [M, K] x [K, N] product take
/// 256-bit vectors on a CPU that splits 512-bit float multiplies and adds
/// (TuningTable.h, splitsWideFloatArithmetic): a float b with at least
/// kNarrowFloatMinRows rows of a (or M unknown); quantized weights where
/// M is known and fills kFloatDequantizeMinTiles whole tiles of the 256-bit
/// plan, which then dequantizes chunks (4-bit 9 / 10 / 11 x 4096 x 4096,
/// tiles of 3 or 4 and 2 rows: 0.94x / 0.93x / 0.99x the speed of the zmm
/// register form; 12 rows 1.13x; Zen 4, 1 thread).
bool usesNarrowFloatTiles(std::optional<int64_t> staticM,
                          bool quantizedWeights) {
  if (!quantizedWeights)
    return !staticM || *staticM >= kNarrowFloatMinRows;
  FloatKernelConfig narrow = getFloatKernelConfig(256, 32, true);
  return staticM &&
         *staticM >= kFloatDequantizeMinTiles * narrow.tileRows &&
         dequantizesChunks(planTileRows(staticM, narrow.tileRows),
                           narrow.rowBlock, staticM);
}

} // namespace

Value qops::packPanels(OpBuilder &b, Location loc, const FloatPlan &plan,
                       OpFoldResult batches, OpFoldResult rows, Type element,
                       PanelRowWriter writeRow) {
  AffineExpr s0 = b.getAffineSymbolExpr(0);
  OpFoldResult panels = affine::makeComposedFoldedAffineApply(
      b, loc, s0.floorDiv(plan.panelColumns), {plan.nPadded});
  Value rowsEnd = getValueOrCreateConstantIndexOp(b, loc, rows);
  return emitPanelNest(
      b, loc, batches, panels, rows, plan.panelColumns, element,
      [&](OpBuilder &b, Location l, Value bb, Value panel, Value slice) {
        Value n0 = arith::MulIOp::create(
            b, l, panel,
            arith::ConstantIndexOp::create(b, l, plan.panelColumns));
        auto rowLoop = scf::ForOp::create(
            b, l, arith::ConstantIndexOp::create(b, l, 0), rowsEnd,
            arith::ConstantIndexOp::create(b, l, 1), ValueRange{slice},
            [&](OpBuilder &b, Location l, Value row, ValueRange args) {
              scf::YieldOp::create(b, l, writeRow(b, l, bb, n0, row, args[0]));
            });
        return rowLoop.getResult(0);
      });
}

Value qops::packRowPanels(OpBuilder &b, Location loc, const FloatPlan &plan,
                          Value src, OpFoldResult batches, OpFoldResult rows) {
  auto srcType = cast<RankedTensorType>(src.getType());
  Type element = srcType.getElementType();
  auto lanesType = VectorType::get({plan.lanes}, element);
  Value pad = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  bool batched = srcType.getRank() == 3;
  auto write = [&](OpBuilder &b, Location l, Value bb, Value n0, Value row,
                   Value slice) {
    Value c0 = arith::ConstantIndexOp::create(b, l, 0);
    for (int64_t v = 0; v < plan.vectors; ++v) {
      Value offset = arith::ConstantIndexOp::create(b, l, v * plan.lanes);
      Value column = arith::AddIOp::create(b, l, n0, offset);
      SmallVector<Value> at{row, column};
      if (batched)
        at.insert(at.begin(), bb);
      Value lanes = vector::TransferReadOp::create(
          b, l, lanesType, src, at, pad, ArrayRef<bool>{plan.columnsExact});
      slice = vector::TransferWriteOp::create(b, l, lanes, slice,
                                              ValueRange{c0, c0, row, offset},
                                              ArrayRef<bool>{true})
                  .getResult();
    }
    return slice;
  };
  return packPanels(b, loc, plan, batches, rows, element, write);
}

namespace {

/// Bp (the file comment): each k row of a panel V vector transfers of w.
Value packFloatPanels(OpBuilder &b, Location loc, const FloatPlan &plan,
                      Value w) {
  return packRowPanels(b, loc, plan, w, tensor::getMixedSize(b, loc, w, 0),
                       plan.k);
}

/// The register tiles of one contraction (the file comment).
struct FloatTiles {
  const FloatPlan &plan;
  Value a, w, fillValue; // a [B, M, K]; w packed or [Bb, K, N]
  const QuantizedWeights *weights; // the weight-only form: w its bytes
  const Int8Activations *int8 = nullptr; // with int8 activations
  Int8KernelStrategy strategy = Int8KernelStrategy::Madd;
  Value c0, c1, cRows, cCols, cLastRow, cK, pad, storagePad;

  FloatTiles(OpBuilder &b, Location loc, const FloatPlan &plan, Value a,
             Value w, Value fillValue, const QuantizedWeights *weights)
      : plan(plan), a(a), w(w), fillValue(fillValue), weights(weights) {
    c0 = arith::ConstantIndexOp::create(b, loc, 0);
    c1 = arith::ConstantIndexOp::create(b, loc, 1);
    cRows = arith::ConstantIndexOp::create(b, loc, plan.rows);
    cCols = arith::ConstantIndexOp::create(b, loc, plan.panelColumns);
    Value cM = getValueOrCreateConstantIndexOp(b, loc, plan.m);
    cLastRow = arith::SubIOp::create(b, loc, cM, c1);
    cK = getValueOrCreateConstantIndexOp(b, loc, plan.k);
    pad = arith::ConstantOp::create(
        b, loc, b.getZeroAttr(plan.vectorType.getElementType()));
    storagePad =
        arith::ConstantOp::create(b, loc, b.getZeroAttr(plan.storage));
  }

  int64_t vectors() const { return plan.vectors; }

  /// The tile's row r: m0 + r, clamped to M - 1 where tiles may pass M.
  Value row(OpBuilder &b, Location l, Value m0, int64_t r) const {
    Value row = arith::AddIOp::create(
        b, l, m0, arith::ConstantIndexOp::create(b, l, r));
    if (!plan.partialTiles)
      return row;
    return arith::MinUIOp::create(b, l, row, cLastRow);
  }

  /// Vector v of the panel at column n0 (panel p), row k of w.
  Value readB(OpBuilder &b, Location l, Value bb, Value n0, Value panel,
              Value k, int64_t v) const {
    if (plan.packed)
      return widen(b, l,
                   readPanel(b, l, plan.storageVector(), bb, panel, k, v,
                             storagePad));
    Value column = arith::AddIOp::create(
        b, l, n0, arith::ConstantIndexOp::create(b, l, v * plan.lanes));
    return widen(b, l,
                 vector::TransferReadOp::create(
                     b, l, plan.storageVector(), w, ValueRange{bb, k, column},
                     storagePad, ArrayRef<bool>{plan.columnsExact}));
  }

  /// f16 / bf16 values (a scalar or lanes) as the element type of the sums.
  Value widen(OpBuilder &b, Location l, Value value) const {
    if (getElementTypeOrSelf(value.getType()) == plan.vectorType.getElementType())
      return value;
    Type wide = isa<VectorType>(value.getType())
                    ? Type(plan.vectorType)
                    : plan.vectorType.getElementType();
    return arith::ExtFOp::create(b, l, wide, value);
  }

  /// acc[r][v] at the start: the fill value, or c's lanes (read from the
  /// block's slice `y` of c, before the tile writes them).
  SmallVector<Value> initial(OpBuilder &b, Location l, Value y,
                             ArrayRef<Value> rowsInY, Value columnInY,
                             bool useFill = true) const {
    SmallVector<Value> inits;
    Value splat;
    if (fillValue && useFill)
      splat = vector::BroadcastOp::create(b, l, plan.vectorType, fillValue);
    for (Value row : rowsInY)
      for (int64_t v = 0; v < vectors(); ++v) {
        if (splat) {
          inits.push_back(splat);
          continue;
        }
        Value column = arith::AddIOp::create(
            b, l, columnInY,
            arith::ConstantIndexOp::create(b, l, v * plan.lanes));
        inits.push_back(vector::TransferReadOp::create(
            b, l, plan.vectorType, y, ValueRange{c0, row, column}, pad,
            ArrayRef<bool>{plan.columnsExact}));
      }
    return inits;
  }

  /// One k step of the tile: acc[r][v] + broadcast(a[bi, row_r, k]) * bv[v]
  /// (or one vector.fma).
  SmallVector<Value> step(OpBuilder &b, Location l, Value bi,
                          ArrayRef<Value> rows, Value k, ArrayRef<Value> bv,
                          ValueRange accs) const {
    SmallVector<Value> next;
    for (auto [r, row] : llvm::enumerate(rows)) {
      Value x = widen(
          b, l, tensor::ExtractOp::create(b, l, a, ValueRange{bi, row, k}));
      Value lanes = vector::BroadcastOp::create(b, l, plan.vectorType, x);
      for (int64_t v = 0; v < vectors(); ++v) {
        Value acc = accs[r * vectors() + v];
        if (plan.fma) {
          next.push_back(vector::FMAOp::create(b, l, lanes, bv[v], acc));
          continue;
        }
        Value product = arith::MulFOp::create(b, l, lanes, bv[v]);
        next.push_back(arith::AddFOp::create(b, l, acc, product));
      }
    }
    return next;
  }

  /// The k loop of one tile: acc[r][v] += a[row_r, k] * bv[v].
  SmallVector<Value> accumulate(OpBuilder &b, Location l, Value bi, Value bb,
                                ArrayRef<Value> rows, Value n0, Value panel,
                                ValueRange inits) const {
    if (int8)
      return accumulateInt8(b, l, rows, n0, panel, inits);
    if (weights)
      return accumulateWeights(b, l, bi, rows, n0, panel, inits);
    auto kLoop = scf::ForOp::create(
        b, l, c0, cK, c1, inits,
        [&](OpBuilder &b, Location l, Value k, ValueRange accs) {
          SmallVector<Value> bv;
          for (int64_t v = 0; v < vectors(); ++v)
            bv.push_back(readB(b, l, bb, n0, panel, k, v));
          scf::YieldOp::create(b, l, step(b, l, bi, rows, k, bv, accs));
        });
    return llvm::to_vector_of<Value>(kLoop.getResults());
  }

  /// Vector v of row `row` of the packed panel `panel` (batch `bb`), of
  /// `type`.
  Value readPanel(OpBuilder &b, Location l, VectorType type, Value bb,
                  Value panel, Value row, int64_t v, Value padding) const {
    return vector::TransferReadOp::create(
        b, l, type, w,
        ValueRange{bb, panel, row,
                   arith::ConstantIndexOp::create(b, l, v * plan.lanes)},
        padding, ArrayRef<bool>{true});
  }

  /// The quantized weights' scale and zero-point lanes of block `block`
  /// for the tile's vectors (zero points null without them; widened to
  /// `zeroPointType` when given, else as dequantizeGroup takes them: for
  /// sub-byte q, biased and all in zeroPoints[0]).
  std::pair<SmallVector<Value>, SmallVector<Value>>
  readBlockLanes(OpBuilder &b, Location l, Value block, Value n0, Value panel,
                 VectorType zeroPointType = nullptr) const {
    SmallVector<Value> scales, zeroPoints;
    for (int64_t v = 0; v < vectors(); ++v) {
      Value column = arith::AddIOp::create(
          b, l, n0, arith::ConstantIndexOp::create(b, l, v * plan.lanes));
      scales.push_back(
          readScaleLanes(b, l, plan, *weights, block, panel, v, column));
      Value zeroPoint;
      if (weights->zeroPoint) {
        zeroPoint =
            readZeroPointLanes(b, l, plan, *weights, block, panel, v, column);
        if (zeroPointType && weights->isSigned)
          zeroPoint = arith::ExtSIOp::create(b, l, zeroPointType, zeroPoint);
        else if (zeroPointType)
          zeroPoint = arith::ExtUIOp::create(b, l, zeroPointType, zeroPoint);
        else
          zeroPoint = biasZeroPointLanes(b, l, *weights, zeroPoint);
      }
      zeroPoints.push_back(zeroPoint);
    }
    // Sub-byte q is dequantized a panel row at a time (dequantizeGroup):
    // its zero points as one vector of the V vectors' lanes, in front.
    if (!zeroPointType && weights->bits < 8 && weights->zeroPoint)
      for (int64_t v = 1; v < vectors(); ++v) {
        auto type = cast<VectorType>(zeroPoints[0].getType());
        zeroPoints[0] = vector::ShuffleOp::create(
            b, l, zeroPoints[0], zeroPoints[v],
            llvm::to_vector(llvm::seq<int64_t>(
                0, type.getNumElements() + plan.lanes)));
        zeroPoints[v] = nullptr;
      }
    return {scales, zeroPoints};
  }

  /// Byte group g of the weight-only panel dequantized (dequantizeBytes):
  /// lanes[t][v], the weights of k = g e + t in vector v of the panel. The
  /// packed bytes of a row of the panel are adjacent: sub-byte q reads
  /// them as one vector (its zero points one vector too, readBlockLanes),
  /// 8-bit q per vector (its zero point is subtracted in i32).
  SmallVector<SmallVector<Value>>
  dequantizeGroup(OpBuilder &b, Location l, Value panel, Value g,
                  ArrayRef<Value> scales, ArrayRef<Value> zeroPoints) const {
    Value padI8 = arith::ConstantOp::create(b, l, b.getI8IntegerAttr(0));
    int64_t together = weights->bits < 8 ? vectors() : 1;
    auto bytesType = VectorType::get({together * plan.lanes}, b.getI8Type());
    SmallVector<SmallVector<Value>> lanes(weights->perByte());
    for (int64_t v = 0; v < vectors(); v += together) {
      Value bytes = readPanel(b, l, bytesType, c0, panel, g, v, padI8);
      SmallVector<SmallVector<Value>> parts =
          dequantizeBytes(b, l, plan, *weights, bytes,
                          scales.slice(v, together), zeroPoints[v]);
      for (auto [t, part] : llvm::enumerate(parts))
        llvm::append_range(lanes[t], part);
    }
    return lanes;
  }

  /// The weight-only k loops (FloatMatMulWeights.cpp): per block of B k,
  /// its scale (and zero point) lanes; per packed byte group of e k, the
  /// bytes of the panel dequantized to e weight vectors, then e steps.
  SmallVector<Value> accumulateWeights(OpBuilder &b, Location l, Value bi,
                                       ArrayRef<Value> rows, Value n0,
                                       Value panel, ValueRange inits) const {
    int64_t e = weights->perByte(), blockSize = weights->blockSize;
    int64_t blocks = llvm::divideCeil(weights->k, blockSize);
    auto blockLoop = scf::ForOp::create(
        b, l, c0, arith::ConstantIndexOp::create(b, l, blocks), c1, inits,
        [&](OpBuilder &b, Location l, Value block, ValueRange blockAccs) {
          SmallVector<Value> scales, zeroPoints;
          std::tie(scales, zeroPoints) = readBlockLanes(b, l, block, n0, panel);
          // Byte groups [block B / e, min((block + 1) B, K) / e).
          Value groupsPerBlock =
              arith::ConstantIndexOp::create(b, l, blockSize / e);
          Value first = arith::MulIOp::create(b, l, block, groupsPerBlock);
          Value last = arith::MinUIOp::create(
              b, l, arith::AddIOp::create(b, l, first, groupsPerBlock),
              arith::ConstantIndexOp::create(b, l, weights->k / e));
          auto groupLoop = scf::ForOp::create(
              b, l, first, last, c1, blockAccs,
              [&](OpBuilder &b, Location l, Value g, ValueRange accs) {
                SmallVector<SmallVector<Value>> perT =
                    dequantizeGroup(b, l, panel, g, scales, zeroPoints);
                SmallVector<Value> next = llvm::to_vector(accs);
                Value k0 = arith::MulIOp::create(
                    b, l, g, arith::ConstantIndexOp::create(b, l, e));
                for (int64_t t = 0; t < e; ++t) {
                  Value k = arith::AddIOp::create(
                      b, l, k0, arith::ConstantIndexOp::create(b, l, t));
                  next = step(b, l, bi, rows, k, perT[t], next);
                }
                scf::YieldOp::create(b, l, next);
              });
          scf::YieldOp::create(b, l, groupLoop.getResults());
        });
    return llvm::to_vector_of<Value>(blockLoop.getResults());
  }

  /// i32 lanes += u8 x s8 quads, by the strategy's dot product.
  Value dot(OpBuilder &b, Location l, Value acc, Value weightBytes,
            Value activationQuads) const {
    if (strategy == Int8KernelStrategy::NeonSdot)
      return qkernel::DotS8S8QuadsOp::create(b, l, acc.getType(), acc,
                                             weightBytes, activationQuads);
    bool viaPairs = strategy == Int8KernelStrategy::Madd ||
                    strategy == Int8KernelStrategy::Maddubs;
    return qkernel::DotU8S8QuadsOp::create(b, l, acc.getType(), acc,
                                           weightBytes, activationQuads,
                                           viaPairs);
  }

  /// The k loops with int8 activations (FloatMatMulInt8.cpp): per block,
  /// i32 sums of byte products over its groups of eight k, then the f32
  /// accumulators += f32(sum - zp rs) * (sa * scale).
  SmallVector<Value> accumulateInt8(OpBuilder &b, Location l,
                                    ArrayRef<Value> rows, Value n0,
                                    Value panel, ValueRange inits) const {
    int64_t groups = weights->blockSize / 8;
    auto i32 = b.getI32Type();
    auto lanesType = VectorType::get({plan.lanes}, i32);
    Value zero = arith::ConstantOp::create(
        b, l, DenseElementsAttr::get(lanesType, b.getI32IntegerAttr(0)));
    Value mask = arith::ConstantOp::create(
        b, l, DenseElementsAttr::get(lanesType, b.getI32IntegerAttr(0x0F0F0F0F)));
    Value four = arith::ConstantOp::create(
        b, l, DenseElementsAttr::get(lanesType, b.getI32IntegerAttr(4)));
    Value padI32 = arith::ConstantOp::create(b, l, b.getI32IntegerAttr(0));
    auto blockLoop = scf::ForOp::create(
        b, l, c0,
        arith::ConstantIndexOp::create(b, l, weights->k / weights->blockSize),
        c1, inits,
        [&](OpBuilder &b, Location l, Value block, ValueRange sums) {
          SmallVector<Value> scales, zeroPoints;
          std::tie(scales, zeroPoints) =
              readBlockLanes(b, l, block, n0, panel, lanesType);
          // Signed weights are packed as q + 8: their zero point too.
          if (weights->isSigned) {
            Value eight = arith::ConstantOp::create(
                b, l,
                DenseElementsAttr::get(lanesType, b.getI32IntegerAttr(8)));
            for (Value &zeroPoint : zeroPoints)
              zeroPoint = zeroPoint
                              ? arith::AddIOp::create(b, l, zeroPoint, eight)
                                    .getResult()
                              : eight;
          }
          Value first = arith::MulIOp::create(
              b, l, block, arith::ConstantIndexOp::create(b, l, groups));
          Value last = arith::AddIOp::create(
              b, l, first, arith::ConstantIndexOp::create(b, l, groups));
          SmallVector<Value> initial(rows.size() * vectors(), zero);
          auto groupLoop = scf::ForOp::create(
              b, l, first, last, c1, initial,
              [&](OpBuilder &b, Location l, Value g, ValueRange accs) {
                SmallVector<Value> even, odd;
                for (int64_t v = 0; v < vectors(); ++v) {
                  Value lanes =
                      readPanel(b, l, lanesType, c0, panel, g, v, padI32);
                  even.push_back(arith::AndIOp::create(b, l, lanes, mask));
                  odd.push_back(arith::AndIOp::create(
                      b, l, arith::ShRUIOp::create(b, l, lanes, four), mask));
                }
                SmallVector<Value> next;
                for (Value row : rows) {
                  auto quad = [&](int64_t h) -> Value {
                    return vector::BroadcastOp::create(
                        b, l, lanesType,
                        tensor::ExtractOp::create(
                            b, l, int8->quads,
                            ValueRange{row, g,
                                       arith::ConstantIndexOp::create(b, l, h)}));
                  };
                  Value qEven = quad(0), qOdd = quad(1);
                  for (int64_t v = 0; v < vectors(); ++v) {
                    Value acc = accs[next.size()];
                    acc = dot(b, l, acc, even[v], qEven);
                    next.push_back(dot(b, l, acc, odd[v], qOdd));
                  }
                }
                scf::YieldOp::create(b, l, next);
              });
          SmallVector<Value> next;
          for (auto [r, row] : llvm::enumerate(rows)) {
            Value rowSum = vector::BroadcastOp::create(
                b, l, lanesType,
                tensor::ExtractOp::create(b, l, int8->rowSum,
                                          ValueRange{row, block}));
            Value rowScale = vector::BroadcastOp::create(
                b, l, plan.vectorType,
                tensor::ExtractOp::create(b, l, int8->scale,
                                          ValueRange{row, block}));
            for (int64_t v = 0; v < vectors(); ++v) {
              Value exact = groupLoop.getResult(r * vectors() + v);
              if (zeroPoints[v])
                exact = arith::SubIOp::create(
                    b, l, exact,
                    arith::MulIOp::create(b, l, zeroPoints[v], rowSum));
              Value sum =
                  arith::SIToFPOp::create(b, l, plan.vectorType, exact);
              Value scale = arith::MulFOp::create(b, l, rowScale, scales[v]);
              Value acc = sums[r * vectors() + v];
              next.push_back(
                  plan.fma
                      ? vector::FMAOp::create(b, l, sum, scale, acc).getResult()
                      : arith::AddFOp::create(
                            b, l, acc, arith::MulFOp::create(b, l, sum, scale))
                            .getResult());
            }
          }
          scf::YieldOp::create(b, l, next);
        });
    return llvm::to_vector_of<Value>(blockLoop.getResults());
  }

  /// A panel's dequantized chunk: Wc [KC, NR] f32 for k in [kc, kEnd).
  struct Chunk {
    Value values, kc, kEnd;
  };

  /// Wc[k - kc, j] = f32(q[k, n0 + j] - zp[kb, n0 + j]) * scale[kb, n0 + j]
  /// (kb = k / B) for k in [kc, kEnd): per byte group g of e k, its block's
  /// scale (and zero point) lanes, the panel's bytes dequantized as the
  /// tiles would in registers (dequantizeBytes), e rows written.
  Value dequantizeChunk(OpBuilder &b, Location l, Value panel, Value n0,
                        Value kc, Value kEnd) const {
    int64_t e = weights->perByte();
    Value ce = arith::ConstantIndexOp::create(b, l, e);
    Value cBlock = arith::ConstantIndexOp::create(b, l, weights->blockSize);
    Value empty = tensor::EmptyOp::create(
        b, l, ArrayRef<int64_t>{plan.chunkRows, plan.panelColumns},
        plan.vectorType.getElementType());
    return emitTensorLoop(
        b, l, arith::DivUIOp::create(b, l, kc, ce),
        arith::DivUIOp::create(b, l, kEnd, ce), c1, empty,
        [&](OpBuilder &b, Location l, Value g, Value chunk) {
          Value k0 = arith::MulIOp::create(b, l, g, ce);
          Value block = arith::DivUIOp::create(b, l, k0, cBlock);
          auto [scales, zeroPoints] = readBlockLanes(b, l, block, n0, panel);
          Value row0 = arith::SubIOp::create(b, l, k0, kc);
          SmallVector<SmallVector<Value>> lanes =
              dequantizeGroup(b, l, panel, g, scales, zeroPoints);
          for (int64_t t = 0; t < e; ++t) {
            Value row = arith::AddIOp::create(
                b, l, row0, arith::ConstantIndexOp::create(b, l, t));
            for (int64_t v = 0; v < vectors(); ++v)
              chunk = vector::TransferWriteOp::create(
                          b, l, lanes[t][v], chunk,
                          ValueRange{row, arith::ConstantIndexOp::create(
                                              b, l, v * plan.lanes)},
                          ArrayRef<bool>{true})
                          .getResult();
          }
          return chunk;
        });
  }

  /// The k loop of one tile over a dequantized chunk: the plain f32 steps.
  SmallVector<Value> accumulateChunk(OpBuilder &b, Location l, Value bi,
                                     ArrayRef<Value> rows, const Chunk &chunk,
                                     ValueRange inits) const {
    auto kLoop = scf::ForOp::create(
        b, l, chunk.kc, chunk.kEnd, c1, inits,
        [&](OpBuilder &b, Location l, Value k, ValueRange accs) {
          Value row = arith::SubIOp::create(b, l, k, chunk.kc);
          SmallVector<Value> bv;
          for (int64_t v = 0; v < vectors(); ++v)
            bv.push_back(vector::TransferReadOp::create(
                b, l, plan.vectorType, chunk.values,
                ValueRange{row, arith::ConstantIndexOp::create(
                                    b, l, v * plan.lanes)},
                pad, ArrayRef<bool>{true}));
          scf::YieldOp::create(b, l, step(b, l, bi, rows, k, bv, accs));
        });
    return llvm::to_vector_of<Value>(kLoop.getResults());
  }

  /// A chunked tile's sums at the start: c (the fill or c's lanes) in the
  /// first chunk, the partial sums it left in y after that.
  SmallVector<Value> chunkInitial(OpBuilder &b, Location l, Value y,
                                  ArrayRef<Value> rowsInY, Value columnInY,
                                  const Chunk &chunk) const {
    if (!fillValue) // y holds c's lanes, then the partial sums
      return initial(b, l, y, rowsInY, columnInY);
    Value first = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                        chunk.kc, c0);
    SmallVector<Type> types(rowsInY.size() * vectors(), plan.vectorType);
    auto branch = scf::IfOp::create(b, l, types, first, /*else=*/true);
    OpBuilder::InsertionGuard guard(b);
    for (bool fromFill : {true, false}) {
      b.setInsertionPointToStart(fromFill ? branch.thenBlock()
                                          : branch.elseBlock());
      scf::YieldOp::create(
          b, l, initial(b, l, y, rowsInY, columnInY, /*useFill=*/fromFill));
    }
    return llvm::to_vector_of<Value>(branch.getResults());
  }

  /// One tile into `y` (a slice whose (0, 0, 0) is (bi, mb, nBegin)); with
  /// `chunk`, its k rows only.
  Value emitTile(OpBuilder &b, Location l, Value bi, Value bb, Value m0,
                 Value n0, Value mb, Value nBegin, Value y,
                 const Chunk *chunk = nullptr) const {
    SmallVector<Value> rows, rowsInY;
    for (int64_t r = 0; r < plan.rows; ++r) {
      rows.push_back(row(b, l, m0, r));
      rowsInY.push_back(arith::SubIOp::create(b, l, rows.back(), mb));
    }
    Value columnInY = arith::SubIOp::create(b, l, n0, nBegin);
    Value panel = arith::DivUIOp::create(b, l, n0, cCols);
    SmallVector<Value> accs =
        chunk ? accumulateChunk(
                    b, l, bi, rows, *chunk,
                    chunkInitial(b, l, y, rowsInY, columnInY, *chunk))
              : accumulate(b, l, bi, bb, rows, n0, panel,
                           initial(b, l, y, rowsInY, columnInY));
    for (int64_t r = 0; r < plan.rows; ++r)
      for (int64_t v = 0; v < vectors(); ++v) {
        Value column = arith::AddIOp::create(
            b, l, columnInY,
            arith::ConstantIndexOp::create(b, l, v * plan.lanes));
        y = vector::TransferWriteOp::create(
                b, l, accs[r * vectors() + v], y,
                ValueRange{c0, rowsInY[r], column},
                ArrayRef<bool>{plan.columnsExact})
                .getResult();
      }
    return y;
  }

  /// One block of the tile nest: every panel of [nBegin, nEnd), in each
  /// the block's MR-row tiles (the panel's vectors stay in L1 across them).
  Value emitBlock(OpBuilder &b, Location l, Value bi, Value mb,
                  Value blockEnd, Value nBegin, Value nEnd, Value y) const {
    if (!plan.dequantizeChunks)
      return emitRegisterBlock(b, l, bi, mb, blockEnd, nBegin, nEnd, y);
    // Chunks where this block has kFloatDequantizeMinTiles row tiles or
    // more (known at run time only: M may be dynamic, and qops-distribute
    // may narrow the blocks), the register form otherwise (a gemv step).
    Value enough = arith::CmpIOp::create(
        b, l, arith::CmpIPredicate::uge,
        arith::SubIOp::create(b, l, blockEnd, mb),
        arith::ConstantIndexOp::create(
            b, l, kFloatDequantizeMinTiles * plan.rows));
    auto branch = scf::IfOp::create(b, l, TypeRange{y.getType()}, enough,
                                    /*else=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(branch.thenBlock());
    scf::YieldOp::create(
        b, l, emitChunkedBlock(b, l, bi, mb, blockEnd, nBegin, nEnd, y));
    b.setInsertionPointToStart(branch.elseBlock());
    scf::YieldOp::create(
        b, l, emitRegisterBlock(b, l, bi, mb, blockEnd, nBegin, nEnd, y));
    return branch.getResult(0);
  }

  /// The block's tiles with b's panels read (and the weight-only form's
  /// bytes dequantized) in each tile.
  Value emitRegisterBlock(OpBuilder &b, Location l, Value bi, Value mb,
                          Value blockEnd, Value nBegin, Value nEnd,
                          Value y) const {
    Value bb = weights ? c0 : bi;
    return emitTensorLoop(
        b, l, nBegin, nEnd, cCols, y,
        [&](OpBuilder &b, Location l, Value n0, Value y) {
          return emitTensorLoop(
              b, l, mb, blockEnd, cRows, y,
              [&](OpBuilder &b, Location l, Value m0, Value y) {
                return emitTile(b, l, bi, bb, m0, n0, mb, nBegin, y);
              });
        });
  }

  /// The weight-only block with dequantized chunks: per chunk of KC k rows
  /// (outermost, so that the block's KC columns of a stay in L2 across its
  /// panels, as in a Goto-style GEMM), per panel, the chunk dequantized
  /// once, then the block's tiles over it (their partial sums in y between
  /// chunks: f32 stored exactly, the k order unchanged, so the sums are the
  /// register form's bit for bit).
  Value emitChunkedBlock(OpBuilder &b, Location l, Value bi, Value mb,
                         Value blockEnd, Value nBegin, Value nEnd,
                         Value y) const {
    Value cChunk = arith::ConstantIndexOp::create(b, l, plan.chunkRows);
    return emitTensorLoop(
        b, l, c0, cK, cChunk, y,
        [&](OpBuilder &b, Location l, Value kc, Value y) {
          Value kEnd = arith::MinUIOp::create(
              b, l, arith::AddIOp::create(b, l, kc, cChunk), cK);
          return emitTensorLoop(
              b, l, nBegin, nEnd, cCols, y,
              [&](OpBuilder &b, Location l, Value n0, Value y) {
                Value panel = arith::DivUIOp::create(b, l, n0, cCols);
                Chunk chunk{dequantizeChunk(b, l, panel, n0, kc, kEnd), kc,
                            kEnd};
                return emitTensorLoop(
                    b, l, mb, blockEnd, cRows, y,
                    [&](OpBuilder &b, Location l, Value m0, Value y) {
                      return emitTile(b, l, bi, c0, m0, n0, mb, nBegin, y,
                                      &chunk);
                    });
              });
        });
  }
};

/// The plan for a [B, M, K] x [Bb, K, N] product (w: b, or the
/// dequantized weights' q for their N).
FloatPlan planFloatKernel(OpBuilder &b, Location loc, Value a, Value w,
                          Type element, FloatKernelConfig config,
                          unsigned vectorBits, bool fma, bool wIsConstant,
                          int64_t maxVectors, bool int8) {
  FloatPlan plan;
  plan.config = config;
  plan.fma = fma;
  plan.storage = cast<RankedTensorType>(a.getType()).getElementType();
  plan.lanes = vectorBits / element.getIntOrFloatBitWidth();
  // int8 activations: i32 sums beside the f32 ones (half the tile), in
  // vectors of 8 or 16 lanes (the dot products' shapes).
  int64_t budget = config.tileRows * config.vectorsPerRow / (int8 ? 2 : 1);
  if (int8) {
    plan.lanes = std::max<int64_t>(plan.lanes, 8);
    config.tileRows = budget / config.vectorsPerRow;
  }
  plan.vectorType = VectorType::get({plan.lanes}, element);
  auto wType = cast<RankedTensorType>(w.getType());
  plan.batch = tensor::getMixedSize(b, loc, a, 0);
  plan.m = tensor::getMixedSize(b, loc, a, 1);
  plan.k = tensor::getMixedSize(b, loc, a, 2);
  plan.n = tensor::getMixedSize(b, loc, w, wType.getRank() - 1);
  plan.staticM = getConstantIntValue(plan.m);
  plan.staticN = getConstantIntValue(plan.n);
  // Rows: as many tiles as MR-row tiles would need, as even as they can be
  // (16 rows: two tiles of 8, not 12 + 4 computed as 12); a short a gives
  // its accumulators to wider panels (up to 8 vectors: 1 x 128 f32 with
  // zmm), so that a gemv has 8 sums in flight, not 2; fewer for quantized
  // weights, whose scale and zero point lanes take registers too
  // (getFloatShortTileMaxVectors); no wider than b.
  plan.rows = planTileRows(plan.staticM, config.tileRows);
  plan.vectors = config.vectorsPerRow;
  plan.config = config;
  if (plan.staticM) {
    std::optional<int64_t> n = getConstantIntValue(plan.n);
    while (2 * plan.vectors <= maxVectors &&
           2 * plan.vectors * plan.rows <= budget &&
           (!n || plan.vectors * plan.lanes < *n))
      plan.vectors *= 2;
  }
  plan.panelColumns = plan.vectors * plan.lanes;
  plan.rowBlock =
      plan.rows * std::max<int64_t>(1, config.rowBlock / plan.rows);
  plan.packed = wIsConstant || !plan.staticM ||
                *plan.staticM >= kFloatPackMinRows;
  plan.mPadded = roundUpTo(b, loc, plan.m, plan.rows);
  plan.nPadded = roundUpTo(b, loc, plan.n, plan.panelColumns);
  plan.partialTiles = !plan.staticM || *plan.staticM % plan.rows != 0;
  plan.columnsExact = plan.staticN && *plan.staticN % plan.panelColumns == 0;
  return plan;
}

/// linalg.matmul / linalg.batch_matmul of one float type, default maps,
/// on tensors.
struct LowerFloatMatMul : OpInterfaceRewritePattern<linalg::LinalgOp> {
  LowerFloatMatMul(MLIRContext *ctx, unsigned vectorBits, unsigned registers,
                   bool splitsWide, bool fma, Int8KernelStrategy strategy,
                   int64_t defaultAccuracyLevel)
      : OpInterfaceRewritePattern(ctx), vectorBits(vectorBits),
        registers(registers), splitsWide(splitsWide), fma(fma),
        strategy(strategy), defaultAccuracyLevel(defaultAccuracyLevel) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation());
    auto batch = dyn_cast<linalg::BatchMatmulOp>(op.getOperation());
    if ((!matmul && !batch) || !op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not a matmul on tensors");
    if ((matmul && matmul.hasUserDefinedMaps()) ||
        (batch && batch.hasUserDefinedMaps()))
      return rewriter.notifyMatchFailure(op, "indexing maps of its own");
    // f32 or f64 sums of inputs of the same type, or f32 sums of f16 / bf16
    // inputs (both of one type).
    Type element = getElementTypeOrSelf(op->getResult(0).getType());
    Type storage = getElementTypeOrSelf(op.getDpsInputOperand(0)->get());
    if (!element.isF32() && !element.isF64())
      return rewriter.notifyMatchFailure(op, "not f32 or f64");
    if (getElementTypeOrSelf(op.getDpsInputOperand(1)->get()) != storage ||
        (storage != element &&
         !(element.isF32() && (storage.isF16() || storage.isBF16()))))
      return rewriter.notifyMatchFailure(op, "mixed element types");
    Location loc = op.getLoc();
    Value aIn = op.getDpsInputOperand(0)->get();
    Value wIn = op.getDpsInputOperand(1)->get();
    Value cIn = op.getDpsInitOperand(0)->get();
    // c a fill: its value starts every sum, its destination takes y.
    Value fillValue;
    if (auto fill = cIn.getDefiningOp<linalg::FillOp>()) {
      fillValue = fill.getInputs()[0];
      cIn = fill.getOutputs()[0];
    }
    // b = DequantizeLinear(q) of f32 weights: read q, dequantized in
    // registers (FloatMatMulWeights.cpp); with accuracy level 4 (MatMulNBits)
    // and 4-bit q, multiplied as bytes with int8 activations
    // (FloatMatMulInt8.cpp).
    FailureOr<QuantizedWeights> weights = failure();
    if (matmul && element.isF32() && storage.isF32())
      weights = matchQuantizedWeights(rewriter, loc, wIn);
    Value a = toBatched(rewriter, loc, aIn);
    auto aType = cast<RankedTensorType>(a.getType());
    // The node's level (MatMulNBits), else the default (a DQ -> MatMul).
    auto levelAttr = op->getAttrOfType<IntegerAttr>(kAccuracyLevelAttrName);
    int64_t level = levelAttr ? levelAttr.getInt() : defaultAccuracyLevel;
    bool int8 = succeeded(weights) && level == 4 &&
                !aType.isDynamicDim(2) &&
                takesInt8Activations(*weights, aType.getDimSize(2));
    Value w = succeeded(weights) ? weights->q : toBatched(rewriter, loc, wIn);
    Value c = toBatched(rewriter, loc, cIn);
    unsigned bits = vectorBits;
    if (splitsWide && !fma && !int8 &&
        usesNarrowFloatTiles(aType.isDynamicDim(1)
                                 ? std::nullopt
                                 : std::optional(aType.getDimSize(1)),
                             succeeded(weights)))
      bits = 256;
    FloatPlan plan = planFloatKernel(
        rewriter, loc, a, w, element,
        getFloatKernelConfig(bits, registers, succeeded(weights)),
        bits, fma, isComputedFromConstants(wIn),
        getFloatShortTileMaxVectors(registers, succeeded(weights), int8),
        int8);
    // The weight-only form (its packing, and dequantizeGroup reading a
    // panel row's sub-byte q as one vector) is written for V a power of
    // two: a temporary 4 x 24 tile there gave wrong sums (TuningTable.h).
    assert((failed(weights) || llvm::isPowerOf2_64(plan.vectors)) &&
           "weight-only tiles take a power of two of vectors per row");
    std::optional<Int8Activations> activations;
    if (succeeded(weights))
      packBlockedParams(rewriter, loc, plan, *weights);
    if (int8) {
      activations = quantizeActivations(rewriter, loc, a, weights->blockSize);
      w = packWeightLanes(rewriter, loc, plan, *weights, rewriter.getI32Type());
    } else if (succeeded(weights)) {
      w = packWeightLanes(rewriter, loc, plan, *weights, rewriter.getI8Type());
    } else if (plan.packed) {
      w = packFloatPanels(rewriter, loc, plan, w);
    }
    // Many row tiles per block: each panel dequantized once per block, a
    // chunk of k at a time, instead of in every tile's registers.
    // (Chosen per block at run time; emitted where some block can have
    // kFloatDequantizeMinTiles tiles.)
    if (succeeded(weights) && !int8 && weights->k > 0) {
      plan.dequantizeChunks =
          dequantizesChunks(plan.rows, plan.config.rowBlock, plan.staticM);
      if (plan.dequantizeChunks) {
        plan.rowBlock =
            plan.rows *
            std::max<int64_t>(1, kFloatDequantizeRowBlock / plan.rows);
        plan.chunkRows = getFloatDequantizeChunk(
            plan.panelColumns,
            plan.vectorType.getElementTypeBitWidth() / 8);
      }
    }
    FloatTiles tiles(rewriter, loc, plan, a, w, fillValue,
                     succeeded(weights) ? &*weights : nullptr);
    tiles.int8 = activations ? &*activations : nullptr;
    tiles.strategy = strategy;
    TileGrid grid{plan.batch,
                  plan.m,
                  plan.n,
                  plan.mPadded,
                  plan.nPadded,
                  plan.rowBlock,
                  plan.panelColumns,
                  static_cast<int64_t>(llvm::alignTo(
                      std::max(plan.config.columnChunk, 2 * plan.panelColumns),
                      plan.panelColumns)),
                  plan.staticM,
                  plan.staticN,
                  plan.rows};
    Value y = emitTileLoops(
        rewriter, loc, grid, c,
        [&](OpBuilder &b, Location l, Value bi, Value mb, Value blockEnd,
            Value nBegin, Value nEnd, Value slice) {
          return tiles.emitBlock(b, l, bi, mb, blockEnd, nBegin, nEnd, slice);
        });
    if (matmul)
      y = tensor::CollapseShapeOp::create(
          rewriter, loc, op->getResult(0).getType(), y,
          ArrayRef<ReassociationIndices>{{0, 1}, {2}});
    rewriter.replaceOp(op, y);
    return success();
  }

  unsigned vectorBits, registers;
  bool splitsWide; // 512-bit float arithmetic in two halves (Zen 4)
  bool fma;
  Int8KernelStrategy strategy;
  int64_t defaultAccuracyLevel;
};

struct LowerFloatContractionsPass
    : public qops::impl::QOpsLowerFloatContractionsBase<
          LowerFloatContractionsPass> {
  using Base::Base;
  void runOnOperation() override {
    Operation *module = getOperation();
    QOpsTarget requested = getTargetFor(module, QOpsTarget{});
    llvm::Expected<QOpsTarget> resolved = resolveTarget(requested);
    if (!resolved) {
      module->emitError() << llvm::toString(resolved.takeError());
      return signalPassFailure();
    }
    Int8KernelStrategy strategy = chooseInt8Strategy(*resolved);
    if (std::optional<ConfiguredTarget> configured =
            getConfiguredTarget(module))
      strategy = configured->int8Strategy;
    // Convolutions become matmuls first, which the kernel then takes.
    RewritePatternSet convolutions(&getContext());
    populateFloatConvolutionPatterns(convolutions);
    walkAndApplyPatterns(module, std::move(convolutions));
    RewritePatternSet patterns(&getContext());
    if (defaultAccuracyLevel < 0 || defaultAccuracyLevel > 4) {
      module->emitError() << "default-accuracy-level must be in 0..4, got "
                          << static_cast<int64_t>(defaultAccuracyLevel);
      return signalPassFailure();
    }
    populateFloatContractionPatterns(patterns, *resolved, fma, strategy,
                                     defaultAccuracyLevel);
    walkAndApplyPatterns(module, std::move(patterns));
  }
};

} // namespace

void qops::populateFloatContractionPatterns(RewritePatternSet &patterns,
                                            const QOpsTarget &target,
                                            bool fma,
                                            Int8KernelStrategy strategy,
                                            int64_t defaultAccuracyLevel) {
  llvm::Triple triple(target.triple);
  unsigned vectorBits = vectorRegisterBits(target);
  unsigned registers =
      vectorBits == 512 || triple.isAArch64() ? 32 : 16;
  bool splitsWide =
      vectorBits == 512 && splitsWideFloatArithmetic(target.cpu);
  patterns.add<LowerFloatMatMul>(patterns.getContext(), vectorBits, registers,
                                 splitsWide, fma, strategy,
                                 defaultAccuracyLevel);
}
