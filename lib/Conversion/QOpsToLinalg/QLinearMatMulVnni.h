//===- QLinearMatMulVnni.h - the vnni strategy's packing --------*- C++ -*-===//
//
// Packing, dot step and zero-point correction of the int8 kernel's vnni
// strategy (formulas in QLinearMatMulKernel.cpp's header).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_QLINEARMATMULVNNI_H
#define QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_QLINEARMATMULVNNI_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir::qops {

/// The a operand of the quad dot product: with `signedA` false (VPDPBUSD,
/// USDOT) a' = a + 128 (si8) or a (ui8), a u8; with `signedA` true (SDOT)
/// a' = a (si8) or a - 128 (ui8), an s8. Either is the sign bit flipped or
/// the byte itself.
Value emitOperandA(OpBuilder &b, Location loc, Value stored, Type aOnnx,
                   bool signedA);
/// b' = b (si8) or b - 128 (ui8), as the i8 storage of an s8.
Value emitSignedOperandB(OpBuilder &b, Location loc, Value stored,
                         Type bOnnx);
/// za' (i32) from a stored zero point of a's type, for emitOperandA's a';
/// zb' likewise for b'.
Value emitZeroPointA(OpBuilder &b, Location loc, Value stored, Type aOnnx,
                     bool signedA);
Value emitZeroPointB(OpBuilder &b, Location loc, Value stored, Type bOnnx);

struct VnniPackedA {
  Value bytes;  // [B, M or Mp, Kp] i8: a', zero padded (a itself for a
                // u8 a with K = Kp and no row padding)
  Value rowSum; // [B, M] i32: sum_k a'; null when not asked for
};
/// A8 and the row sums of a [B, M, K] (storage); A8 has `rowsPadded` rows
/// (zero rows past M) when given, M otherwise.
VnniPackedA packVnniA(OpBuilder &b, Location loc, Value a, Type aOnnx,
                      bool signedA, OpFoldResult kPadded, bool withRowSums,
                      OpFoldResult rowsPadded = {});

/// Whether b's zero point is a constant whose every zb' (emitZeroPointB) is
/// 0: the row-sum term of the quad strategies vanishes.
bool isZeroSignedOperandB(Value zeroPoint, Type bOnnx);

struct VnniPackedB {
  Value quads;      // [Bb, Np/16, Kp/4, 16] i32
  Value columnTerm; // [Bb, Np] i32: K zb'[n] - sum_k b'[k, n]
};
/// B32 and the column term of b [Bb, K, N] (storage) at run time, in one
/// pass over b. The zero point is rank 0 or [Np] (padded); `k` is the true
/// K.
VnniPackedB packVnniB(OpBuilder &b, Location loc, Value bMatrix, Type bOnnx,
                      Value zeroPoint, bool zeroPointPerColumn,
                      OpFoldResult k, OpFoldResult n, OpFoldResult kPadded,
                      OpFoldResult nPadded, int64_t panelColumns);
/// acc + the products of four adjacent bytes per i32 lane, u8 x s8
/// (qkernel.dot_u8s8_quads: VPDPBUSD, USDOT) or s8 x s8 with `signedA`
/// (qkernel.dot_s8s8_quads: SDOT). `aQuads`, `bQuads`: vector<8xi32> of
/// packed bytes. `pairSumsFitI16`: b's pairs are known not to overflow i16
/// with any u8 a (the maddubs strategy: VPMADDUBSW on x86).
Value emitVnniDotStep(OpBuilder &b, Location loc, Value acc, Value aQuads,
                      Value bQuads, bool signedA, bool pairSumsFitI16 = false);

} // namespace mlir::qops

#endif // QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_QLINEARMATMULVNNI_H
