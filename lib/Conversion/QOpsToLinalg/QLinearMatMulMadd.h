//===- QLinearMatMulMadd.h - the madd strategy's run-time packing -*- C++
//-*-===//
//
// The madd strategy of the int8 kernel (QLinearMatMulKernel.cpp) multiplies
// i16 k-pairs, packed as such or (b's zero point 0) as byte pairs that it
// extends as it reads them; a b known only at run time is packed per call.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_QLINEARMATMULMADD_H
#define QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_QLINEARMATMULMADD_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir::qops {

/// B16 of b [Bb, K, N] (storage) at run time: [Bb, Np/16, Kp/2, 16] i32,
/// lane c of (bb, panel p, pair q) = lo16(b[2q][16p + c] - b_zp) |
/// (b[2q + 1][16p + c] - b_zp) << 16 (the little-endian i16 pair the kernel
/// bitcasts). Per pair and panel: two rows of 16 bytes interleaved by byte
/// shuffles (VPUNPCKLBW / VPUNPCKHBW), extended to i16 (VPMOVSXBW or
/// VPMOVZXBW) and the zero point subtracted (VPSUBW): two 32-byte stores.
/// Rows past K and columns past N hold -b_zp (A16 is 0 there, and y's
/// columns past N are not written). `zeroPoint`: rank 0, or [Np] padded.
/// The loops over batches x panels are marked qkernel.parallel_loops:
/// qops-distribute makes them an scf.forall (OpenMP gives each thread a
/// contiguous range of panels).
///
/// With `bytePairs`, the byte pairs instead: [Bb, Np/16, Kp/2, 32] i8,
/// byte 2c + j of (bb, p, q) = lo8(b[2q + j][16p + c] - b_zp), the rows
/// interleaved as above and the zero point bytes subtracted (VPSUBB), not
/// extended: half the bytes, which the kernel extends as it reads them
/// (exact where b_zp is 0, where the kernel takes them).
Value packMaddB(OpBuilder &b, Location loc, Value bMatrix, Type bOnnx,
                Value zeroPoint, bool zeroPointPerColumn, OpFoldResult k,
                OpFoldResult n, OpFoldResult kPadded, OpFoldResult nPadded,
                bool bytePairs);

} // namespace mlir::qops

#endif // QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_QLINEARMATMULMADD_H
