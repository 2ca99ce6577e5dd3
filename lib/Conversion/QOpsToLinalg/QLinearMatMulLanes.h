//===- QLinearMatMulLanes.h - vector lanes of the int8 matmuls --*- C++ -*-===//
//
// The pieces the int8 QLinearMatMul kernel (QLinearMatMulKernel.cpp) and the
// int8 gemv (QLinearMatMulGemv.cpp) share: their quantization parameters,
// the pairwise multiply-add (VPMADDWD's shape) and the requantization of a
// vector of i32 sums:
//
//   multiplier = (a_scale * b_scale) / y_scale         in f32
//   y          = saturate(round_half_even(f64(acc) * f64(multiplier))
//                         + y_zp)
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_QLINEARMATMULLANES_H
#define QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_QLINEARMATMULLANES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir::qops {

/// A quantization parameter of the kernels: one element (a scalar read
/// once) or one value per row / per column (a 1-D tensor, padded to the
/// tile grid by the kernel that reads it).
struct KernelParam {
  Value tensor;    // rank 0, or 1-D
  bool perElement; // 1-D
};

/// The 1-D form of a per-row / per-column parameter: [R] as is, or
/// [1, .., R, 1] / [1, .., 1, C] collapsed; a one-element parameter as rank
/// 0. Fails for batched parameters.
FailureOr<KernelParam> prepareKernelParam(OpBuilder &b, Location loc,
                                          Value param);

/// `lanes` values of `param` for the outputs (row, column .. column + lanes):
/// a scalar or the row's value broadcast (`isRow`), or the columns read
/// (the tensor must hold them: padded).
Value readKernelParam(OpBuilder &b, Location loc, const KernelParam &param,
                      Value row, Value column, bool isRow, int64_t lanes);

/// x[2i] * y[2i] + x[2i+1] * y[2i+1] for the lanes of two vector<16xi16>,
/// in i32: the VPMADDWD shape (exact for any i16 operands but two pairs of
/// -32768).
Value emitPairwiseMultiplyAdd(OpBuilder &b, Location loc, Value x, Value y);

/// The scales and y's zero point of a QLinearMatMul, prepared.
struct RequantizeParams {
  KernelParam aScale, bScale, yScale, yZeroPoint;
  bool yScaleRow, yZeroPointRow; // [.., M, 1]: per row, not per column
  Type yOnnx;                    // si8 / ui8
};

/// The multiplier lanes (a_scale * b_scale) / y_scale, f32, of the outputs
/// (row, column .. column + lanes).
Value emitMultiplierLanes(OpBuilder &b, Location loc,
                          const RequantizeParams &params, Value row,
                          Value column, int64_t lanes);

/// y's stored lanes (i8) from the exact sums `acc` (vector<lanes x i32>) and
/// the multiplier lanes of the same outputs.
Value emitRequantizedLanes(OpBuilder &b, Location loc,
                           const RequantizeParams &params, Value acc,
                           Value multiplier, Value row, Value column);

} // namespace mlir::qops

#endif // QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_QLINEARMATMULLANES_H
