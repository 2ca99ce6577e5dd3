//===- QLinearMatMulAmx.h - the amx strategy's tile -------------*- C++ -*-===//
//
// The int8 kernel's amx strategy (x86 AMX-INT8) shares the quad strategies'
// operands a' (u8), b' (s8), row sums and column term (QLinearMatMulVnni.h)
// and vnni's 32-column B32 panels; it differs in the k step, which runs on
// AMX tile registers:
//
//   TDPBUSD C, A, B: C[16 x 16] i32 += A[16 x 64] u8 . B[16 x 64] s8, where
//     B's row q holds, for each of 16 columns n, the four bytes of k-quad q
//     (exactly one row of 16 lanes of B32), and every dword sum wraps
//   register tile 32 x 32 = 2 x 2 tiles C_ij (4 of the 8 tile registers;
//     A_0, A_1, B_0, B_1 take the other 4)
//   for each 64-k step s:
//     A_i = A8[bi, m0 + 16 i .. +16, 64 s .. +64]      (row stride Kp)
//     B_j = B32[bb, panel, 16 s .. +16, 16 j .. +16]   (row stride 128 B)
//     C_ij = tdpbusd(C_ij, A_i, B_j)
//   C_ij stored to the block's 32 x 32 i32 epilogue buffer, whose rows the
//   kernel's epilogue loop reads as it reads every strategy's
//
// Tile loads read whole rows of 64 bytes and 32 rows, so Kp is a multiple
// of 64, and a last tile that reaches past M reads its rows from a copy
// padded with zero rows (the kernel's packAmxTail). TDPBUSD does
// not saturate: the i32 sums are exact, wrapping as ONNX permits.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_QLINEARMATMULAMX_H
#define QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_QLINEARMATMULAMX_H

#include "mlir/IR/Builders.h"

namespace mlir::qops {

/// Rows and columns of the amx register tile, and its k step.
constexpr int64_t kAmxTileRows = 32;
constexpr int64_t kAmxTileColumns = 32;
constexpr int64_t kAmxKStep = 64;

/// The buffer of `tensor` for the tile loads (bufferization.to_buffer,
/// read-only, any strides but a unit innermost one).
Value toReadOnlyBuffer(OpBuilder &b, Location loc, Value tensor);

/// The k loop of one register tile: the product of rows m0 .. m0 + 31 of
/// `aBuffer` (A8 [B, Mp, Kp] i8, batch `bi`) and `panel` of `bBuffer` (B32
/// [Bb, P, Kp/4, 32] i32, batch `bb`) over `kSteps` steps of 64, stored to
/// `accumulators` (a 32 x 32 i32 memref: row r holds the sums of row m0 + r).
void emitAmxTile(OpBuilder &b, Location loc, Value aBuffer, Value bBuffer,
                 Value accumulators, Value bi, Value bb, Value m0, Value panel,
                 Value kSteps);

} // namespace mlir::qops

#endif // QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_QLINEARMATMULAMX_H
