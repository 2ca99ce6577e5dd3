//===- QLinearMatMulMadd.cpp - the madd strategy's run-time packing -------===//

#include "QLinearMatMulMadd.h"
#include "TileLoops.h"

#include "QLinearMatMulLanes.h"
#include "TuningTable.h"

#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::qops;

namespace {

// Columns of one panel: madd's NR (TuningTable.h).
constexpr int64_t kPanel =
    getInt8KernelConfig(Int8KernelStrategy::Madd).panelColumns;

/// Each lane of the columns 0-7 (`high` false) or 8-15 twice: the zero
/// point of a pair of rows.
SmallVector<int64_t> duplicateMask(bool high) {
  SmallVector<int64_t> mask;
  for (int64_t c = 0; c < kPanel / 2; ++c) {
    int64_t column = c + (high ? kPanel / 2 : 0);
    mask.append({column, column});
  }
  return mask;
}

Value indexConstant(OpBuilder &b, Location l, int64_t v) {
  return arith::ConstantIndexOp::create(b, l, v);
}

/// The madd packing of a run-time b, panel by panel: the values every panel
/// shares (created once, before the loops).
struct MaddPacker {
  Value bMatrix, zeroPoint;
  bool zeroPointPerColumn, isUnsigned, columnsExact;
  /// The byte pairs: lo8(b - zp), not extended.
  bool bytePairs;
  OpFoldResult k, wholePairs;
  std::optional<int64_t> staticK;
  VectorType bytesType, wordsType, lanesType;
  Value padI8, zeroRow;

  Value extend(OpBuilder &b, Location l, Value bytes) const {
    if (isUnsigned)
      return arith::ExtUIOp::create(b, l, wordsType, bytes);
    return arith::ExtSIOp::create(b, l, wordsType, bytes);
  }

  /// The pair q of the panel at column0: rows 2q and 2q + 1 (zeros when
  /// `secondRowEmpty`) interleaved, extended, the zero point pairs
  /// subtracted, written into `packed` ([1, 1, Kp/2, 16] i32); the byte
  /// pairs: interleaved, the zero point bytes subtracted, written into
  /// `packed` ([1, 1, Kp/2, 32] i8).
  Value emitPair(OpBuilder &b, Location l, Value bb, Value column0,
                 ArrayRef<Value> zpHalves, Value pair, Value packed,
                 bool secondRowEmpty) const {
    Value first = arith::MulIOp::create(b, l, pair, indexConstant(b, l, 2));
    auto row = [&](Value r) -> Value {
      return vector::TransferReadOp::create(
          b, l, bytesType, bMatrix, ValueRange{bb, r, column0}, padI8,
          ArrayRef<bool>{columnsExact});
    };
    Value even = row(first);
    Value odd = secondRowEmpty
                    ? zeroRow
                    : row(arith::AddIOp::create(b, l, first,
                                                indexConstant(b, l, 1)));
    for (int64_t h = 0; h < 2; ++h) {
      Value bytes = vector::ShuffleOp::create(b, l, even, odd,
                                              interleaveRowsMask(h == 1));
      Value lanes =
          bytePairs
              ? arith::SubIOp::create(b, l, bytes, zpHalves[h]).getResult()
              : vector::BitCastOp::create(
                    b, l, lanesType,
                    arith::SubIOp::create(b, l, extend(b, l, bytes),
                                          zpHalves[h]))
                    .getResult();
      int64_t lanesPerHalf = bytePairs ? kPanel : kPanel / 2;
      packed = vector::TransferWriteOp::create(
                   b, l, lanes, packed,
                   ValueRange{indexConstant(b, l, 0), indexConstant(b, l, 0),
                              pair, indexConstant(b, l, h * lanesPerHalf)},
                   ArrayRef<bool>{true})
                   .getResult();
    }
    return packed;
  }

  /// The panel p of batch bb into `dest` ([1, 1, Kp/2, 16] i32, or
  /// [1, 1, Kp/2, 32] i8 for the byte pairs).
  Value emitPanel(OpBuilder &b, Location l, Value bb, Value panel,
                  Value dest) const {
    auto getIndex = [&](OpFoldResult v) {
      return getValueOrCreateConstantIndexOp(b, l, v);
    };
    Value column0 =
        arith::MulIOp::create(b, l, panel, indexConstant(b, l, kPanel));
    Value zp;
    if (zeroPointPerColumn)
      zp = vector::TransferReadOp::create(b, l, bytesType, zeroPoint,
                                          ValueRange{column0}, padI8,
                                          ArrayRef<bool>{true});
    else
      zp = vector::BroadcastOp::create(
          b, l, bytesType,
          tensor::ExtractOp::create(b, l, zeroPoint, ValueRange{}));
    Value zpWords = bytePairs ? zp : extend(b, l, zp);
    Value zpHalves[] = {
        vector::ShuffleOp::create(b, l, zpWords, zpWords, duplicateMask(false)),
        vector::ShuffleOp::create(b, l, zpWords, zpWords, duplicateMask(true))};
    auto pairLoop = scf::ForOp::create(
        b, l, indexConstant(b, l, 0), getIndex(wholePairs),
        indexConstant(b, l, 1), ValueRange{dest},
        [&](OpBuilder &b, Location l, Value pair, ValueRange args) {
          scf::YieldOp::create(b, l,
                               emitPair(b, l, bb, column0, zpHalves, pair,
                                        args[0], false));
        });
    Value packed = pairLoop.getResult(0);
    // K odd: the last row with a zero row after it.
    if (staticK && *staticK % 2 == 0)
      return packed;
    Value last = getIndex(wholePairs);
    if (staticK)
      return emitPair(b, l, bb, column0, zpHalves, last, packed, true);
    Value odd = arith::CmpIOp::create(
        b, l, arith::CmpIPredicate::ne,
        arith::RemUIOp::create(b, l, getIndex(k), indexConstant(b, l, 2)),
        indexConstant(b, l, 0));
    auto ifOdd = scf::IfOp::create(
        b, l, odd,
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l,
                               emitPair(b, l, bb, column0, zpHalves, last,
                                        packed, true));
        },
        [&](OpBuilder &b, Location l) { scf::YieldOp::create(b, l, packed); });
    return ifOdd.getResult(0);
  }
};

} // namespace

Value qops::packMaddB(OpBuilder &b, Location loc, Value bMatrix, Type bOnnx,
                      Value zeroPoint, bool zeroPointPerColumn, OpFoldResult k,
                      OpFoldResult n, OpFoldResult kPadded,
                      OpFoldResult nPadded, bool bytePairs) {
  Type i8 = b.getI8Type(), i16 = b.getIntegerType(16), i32 = b.getI32Type();
  MaddPacker packer;
  packer.bytePairs = bytePairs;
  packer.bMatrix = bMatrix;
  packer.zeroPoint = zeroPoint;
  packer.zeroPointPerColumn = zeroPointPerColumn;
  packer.isUnsigned = cast<IntegerType>(bOnnx).isUnsigned();
  packer.k = k;
  packer.bytesType = VectorType::get({kPanel}, i8);
  packer.wordsType = VectorType::get({kPanel}, i16);
  packer.lanesType = VectorType::get({kPanel / 2}, i32);
  AffineExpr s0 = b.getAffineSymbolExpr(0);
  OpFoldResult batches = tensor::getMixedSize(b, loc, bMatrix, 0);
  OpFoldResult pairs = affine::makeComposedFoldedAffineApply(
      b, loc, s0.floorDiv(2), {kPadded});
  packer.wholePairs =
      affine::makeComposedFoldedAffineApply(b, loc, s0.floorDiv(2), {k});
  OpFoldResult panels = affine::makeComposedFoldedAffineApply(
      b, loc, s0.floorDiv(kPanel), {nPadded});
  std::optional<int64_t> staticN = getConstantIntValue(n);
  packer.staticK = getConstantIntValue(k);
  packer.columnsExact = staticN && *staticN % kPanel == 0;
  packer.padI8 = arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(0));
  packer.zeroRow = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(packer.bytesType, int8_t(0)));

  return emitPanelNest(
      b, loc, batches, panels, pairs, bytePairs ? 2 * kPanel : kPanel,
      bytePairs ? i8 : i32,
      [&](OpBuilder &b, Location l, Value bb, Value panel, Value slice) {
        return packer.emitPanel(b, l, bb, panel, slice);
      });
}
