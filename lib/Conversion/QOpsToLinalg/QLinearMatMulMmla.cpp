//===- QLinearMatMulMmla.cpp - the usmmla strategy's layout and step ------===//
//
// Formulas in QLinearMatMulMmla.h.
//
//===----------------------------------------------------------------------===//

#include "QLinearMatMulMmla.h"

#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"
#include "TuningTable.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::qops;

namespace {
// Columns of one panel: usmmla's NR (TuningTable.h).
constexpr int64_t kPanelColumns =
    getInt8KernelConfig(Int8KernelStrategy::NeonUsmmla).panelColumns;
constexpr int64_t kColumnPairs = kPanelColumns / 2;
} // namespace

Value qops::reorderQuadsForMmla(OpBuilder &b, Location loc, Value quads) {
  Type i32 = b.getI32Type();
  // [Bb, P, Kq, 16] viewed as [Bb, P, Kq/2, 2 (w), 8 (j),
  // 2 (c)], permuted to [Bb, P, Kq/2, j, c, w] by a linalg.generic (which
  // the elementwise vectorizer handles), collapsed to [.., 32].
  OpFoldResult batches = tensor::getMixedSize(b, loc, quads, 0);
  OpFoldResult panels = tensor::getMixedSize(b, loc, quads, 1);
  AffineExpr s0 = b.getAffineSymbolExpr(0);
  OpFoldResult octets = affine::makeComposedFoldedAffineApply(
      b, loc, s0.floorDiv(2), {tensor::getMixedSize(b, loc, quads, 2)});
  auto staticOr = [](OpFoldResult v) {
    return getConstantIntValue(v).value_or(ShapedType::kDynamic);
  };
  OpFoldResult two = b.getIndexAttr(2), pairs = b.getIndexAttr(kColumnPairs);
  Value split = tensor::ExpandShapeOp::create(
      b, loc,
      RankedTensorType::get({staticOr(batches), staticOr(panels),
                             staticOr(octets), 2, kColumnPairs, 2},
                            i32),
      quads, ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}, {4, 5}},
      ArrayRef<OpFoldResult>{batches, panels, octets, two, pairs, two});
  Value init = tensor::EmptyOp::create(
      b, loc, ArrayRef<OpFoldResult>{batches, panels, octets, pairs, two, two},
      i32);
  MLIRContext *ctx = b.getContext();
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  // Output (bb, p, q, j, c, w) reads input (bb, p, q, w, j, c).
  AffineMap input = AffineMap::get(6, 0, {d(0), d(1), d(2), d(5), d(3), d(4)},
                                   ctx);
  AffineMap output = AffineMap::getMultiDimIdentityMap(6, ctx);
  Value permuted =
      linalg::GenericOp::create(
          b, loc, init.getType(), split, init,
          ArrayRef<AffineMap>{input, output},
          SmallVector<utils::IteratorType>(6, utils::IteratorType::parallel),
          [](OpBuilder &nb, Location nl, ValueRange args) {
            linalg::YieldOp::create(nb, nl, args[0]);
          })
          .getResult(0);
  return tensor::CollapseShapeOp::create(
      b, loc, permuted,
      ArrayRef<ReassociationIndices>{{0}, {1}, {2}, {3, 4, 5}});
}

SmallVector<Value> qops::emitMmlaStep(
    OpBuilder &b, Location loc, ValueRange blocks, Value aBytes,
    Value bOctets, Value bi, Value bb,
    function_ref<Value(OpBuilder &, Location, int64_t)> rowOf, Value panel,
    Value octet, int64_t rows) {
  Type i8 = b.getI8Type(), i32 = b.getI32Type();
  auto blockType = VectorType::get({4}, i32);
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value padI8 = arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(0));
  Value padI32 = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  Value k0 = arith::MulIOp::create(b, loc, octet, index(8));
  // Row pair r2: a' bytes k0 .. k0 + 7 of its two rows, as 4 i32 lanes.
  SmallVector<Value> rowPairs;
  SmallVector<int64_t> concat = llvm::to_vector(llvm::seq<int64_t>(0, 16));
  for (int64_t r2 = 0; r2 < rows / 2; ++r2) {
    auto readRow = [&](int64_t r) -> Value {
      Value row = rowOf(b, loc, r);
      return vector::TransferReadOp::create(
          b, loc, VectorType::get({8}, i8), aBytes, ValueRange{bi, row, k0},
          padI8, ArrayRef<bool>{true});
    };
    Value both = vector::ShuffleOp::create(b, loc, readRow(2 * r2),
                                           readRow(2 * r2 + 1), concat);
    rowPairs.push_back(vector::BitCastOp::create(b, loc, blockType, both));
  }
  SmallVector<Value> next(blocks.begin(), blocks.end());
  for (int64_t j = 0; j < kColumnPairs; ++j) {
    Value columns = vector::TransferReadOp::create(
        b, loc, blockType, bOctets, ValueRange{bb, panel, octet, index(4 * j)},
        padI32, ArrayRef<bool>{true});
    for (int64_t r2 = 0; r2 < rows / 2; ++r2) {
      Value &block = next[r2 * kColumnPairs + j];
      block = qkernel::MmlaU8S8Op::create(b, loc, blockType, block, rowPairs[r2],
                                 columns);
    }
  }
  return next;
}

SmallVector<Value> qops::mmlaBlocksToRowHalves(OpBuilder &b, Location loc,
                                               ValueRange blocks,
                                               int64_t rows) {
  // Blocks j, j + 1 of a row pair: [r0 c0 c1 | r1 c0 c1] each; interleaved
  // into [r0: 4 columns | r1: 4 columns], then two of those into rows.
  SmallVector<Value> halves(2 * rows);
  for (int64_t r2 = 0; r2 < rows / 2; ++r2)
    for (int64_t h = 0; h < 2; ++h) {
      auto quarter = [&](int64_t j) -> Value {
        return vector::ShuffleOp::create(
            b, loc, blocks[r2 * kColumnPairs + j],
            blocks[r2 * kColumnPairs + j + 1],
            ArrayRef<int64_t>{0, 1, 4, 5, 2, 3, 6, 7});
      };
      Value left = quarter(4 * h), right = quarter(4 * h + 2);
      halves[2 * (2 * r2) + h] = vector::ShuffleOp::create(
          b, loc, left, right, ArrayRef<int64_t>{0, 1, 2, 3, 8, 9, 10, 11});
      halves[2 * (2 * r2 + 1) + h] = vector::ShuffleOp::create(
          b, loc, left, right, ArrayRef<int64_t>{4, 5, 6, 7, 12, 13, 14, 15});
    }
  return halves;
}
