//===- QLinearMatMulMmla.h - the usmmla strategy's layout and step -*- C++ -*-===//
//
// The int8 kernel's usmmla strategy (AArch64 i8mm) shares the quad
// strategies' operands a', b', row sums and column term
// (QLinearMatMulVnni.h); it differs in the B layout and the k step:
//
//   USMMLA: C[2x2] += A[2x8] (u8, rows) * B[8x2] (s8, columns)
//   B8[bb, p, q, 4j + 2c + w] = B32[bb, p, 2q + w, 2j + c]   (i32 lanes of
//     four bytes): for each k-octet q of panel p, column pair j's 16 bytes,
//     the 8 k of column 2j then those of 2j + 1
//   6 x 16 tile = 3 row pairs x 8 column pairs = 24 blocks of vector<4xi32>
//   each octet q: block(r2, j) = usmmla(block, a'[rows 2r2, 2r2 + 1,
//                 k 8q..8q+7], B8[bb, p, q, 4j..4j+3])
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_QLINEARMATMULMMLA_H
#define QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_QLINEARMATMULMMLA_H

#include "mlir/IR/Builders.h"

namespace mlir::qops {

/// B32 [Bb, P, Kq, 16] i32 (Kq even) reordered to B8 [Bb, P, Kq/2, 32].
Value reorderQuadsForMmla(OpBuilder &b, Location loc, Value quads);

/// One k-octet of the 2x2 blocks of a `rows` x 16 tile (rows even):
/// `blocks[r2 * 8 + j]` (vector<4xi32>) gets the tile's rows 2 r2 and
/// 2 r2 + 1 of `aBytes` [B, M, Kp] i8 (batch `bi`; `rowOf(r)` is the index
/// of the tile's row r in it) times column pair j of `bOctets` B8 (batch
/// `bb`, `panel`, octet `octet`).
SmallVector<Value>
emitMmlaStep(OpBuilder &b, Location loc, ValueRange blocks, Value aBytes,
             Value bOctets, Value bi, Value bb,
             function_ref<Value(OpBuilder &, Location, int64_t)> rowOf,
             Value panel, Value octet, int64_t rows);

/// The blocks as the kernel's row halves: result[2 r + h] is vector<8xi32>
/// of row r, columns 8h .. 8h + 7 of the panel.
SmallVector<Value> mmlaBlocksToRowHalves(OpBuilder &b, Location loc,
                                         ValueRange blocks, int64_t rows);

} // namespace mlir::qops

#endif // QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_QLINEARMATMULMMLA_H
