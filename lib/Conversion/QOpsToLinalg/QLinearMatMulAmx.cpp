//===- QLinearMatMulAmx.cpp - the amx strategy's tile ---------------------===//
//
// See QLinearMatMulAmx.h; formulas in QLinearMatMulKernel.cpp's header.
//
//===----------------------------------------------------------------------===//

#include "QLinearMatMulAmx.h"

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::qops;

namespace {

/// Rows and bytes of an operand tile (A_i, B_j), columns of an accumulator
/// tile (C_ij).
constexpr int64_t kTileRows = 16;
constexpr int64_t kTileBytes = 64;
constexpr int64_t kAccumulatorColumns = 16;

} // namespace

Value qops::toReadOnlyBuffer(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  // Tile loads need unit strides along the rows they read.
  SmallVector<int64_t> strides(type.getRank(), ShapedType::kDynamic);
  strides.back() = 1;
  auto layout =
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, strides);
  auto memrefType =
      MemRefType::get(type.getShape(), type.getElementType(), layout);
  return bufferization::ToBufferOp::create(b, loc, memrefType, tensor,
                                           /*read_only=*/true);
}

void qops::emitAmxTile(OpBuilder &b, Location loc, Value aBuffer,
                       Value bBuffer, Value accumulators, Value bi, Value bb,
                       Value m0, Value panel, Value kSteps) {
  auto index = [](OpBuilder &b, Location l, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, l, v);
  };
  auto operandTile = amx::TileType::get({kTileRows, kTileBytes}, b.getI8Type());
  auto accumulatorTile =
      amx::TileType::get({kTileRows, kAccumulatorColumns}, b.getI32Type());
  constexpr int64_t kTilesPerSide = kAmxTileRows / kTileRows; // 2
  // One tile_zero per accumulator: each is its own register from the start.
  SmallVector<Value> inits;
  for (int64_t t = 0; t < kTilesPerSide * kTilesPerSide; ++t)
    inits.push_back(amx::TileZeroOp::create(b, loc, accumulatorTile));
  auto kLoop = scf::ForOp::create(
      b, loc, index(b, loc, 0), kSteps, index(b, loc, 1), inits,
      [&](OpBuilder &b, Location l, Value step, ValueRange sums) {
        Value k0 = arith::MulIOp::create(b, l, step, index(b, l, kAmxKStep));
        Value quad0 =
            arith::MulIOp::create(b, l, step, index(b, l, kAmxKStep / 4));
        // Each operand tile is loaded just before its first product, so
        // that a load of the next step waits only for the products that
        // read its register (tiles are not renamed).
        SmallVector<Value> aTiles, bTiles(kTilesPerSide);
        SmallVector<Value> next(kTilesPerSide * kTilesPerSide);
        for (int64_t i = 0; i < kTilesPerSide; ++i) {
          Value row = arith::AddIOp::create(b, l, m0,
                                            index(b, l, i * kTileRows));
          aTiles.push_back(amx::TileLoadOp::create(
              b, l, operandTile, aBuffer, ValueRange{bi, row, k0}));
          for (int64_t j = 0; j < kTilesPerSide; ++j) {
            if (i == 0)
              bTiles[j] = amx::TileLoadOp::create(
                  b, l, operandTile, bBuffer,
                  ValueRange{bb, panel, quad0,
                             index(b, l, j * kAccumulatorColumns)});
            next[i * kTilesPerSide + j] = amx::TileMulIOp::create(
                b, l, accumulatorTile, aTiles[i], bTiles[j],
                sums[i * kTilesPerSide + j],
                /*isZextLhs=*/true, /*isZextRhs=*/false);
          }
        }
        scf::YieldOp::create(b, l, next);
      });
  for (int64_t i = 0; i < kTilesPerSide; ++i)
    for (int64_t j = 0; j < kTilesPerSide; ++j)
      amx::TileStoreOp::create(
          b, loc, accumulators,
          ValueRange{index(b, loc, i * kTileRows),
                     index(b, loc, j * kAccumulatorColumns)},
          kLoop.getResult(i * kTilesPerSide + j));
}
