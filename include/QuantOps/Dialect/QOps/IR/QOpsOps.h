//===- QOpsOps.h - qops operations ------------------------------*- C++ -*-===//
//
// The operations of the qops dialect (generated from QOpsOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_DIALECT_QOPS_IR_QOPSOPS_H
#define QUANTOPS_DIALECT_QOPS_IR_QOPSOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h"

#define GET_OP_CLASSES
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h.inc"

namespace mlir::qops {

/// The rules on zero-point values ONNX states, which need the value of an
/// operand and so are not part of the verifiers (a verifier sees the op
/// alone; valid IR must not stop verifying when a producer folds):
///   quantize_float8_zp    a float8 y's zero point is 0
///   dequantize_float8_zp  a float8 x's zero point is 0
///   dequantize_int32_zp   an int32 x's zero point is 0
/// Fails with the labelled error when `op`'s zero point is a constant that
/// breaks one (a value known only at run time passes: the lowering then
/// ignores a float8 zero point and subtracts an int32 one). Checked by the
/// ONNX importer and by convert-qops-to-linalg.
LogicalResult checkConstantZeroPoints(Operation *op);

/// Which quantization-parameter shapes an operand of a matmul accepts.
enum class MatMulParamRole { A, B, Y };

/// Whether a scale or zero point of a matmul fits its matrix `[..., R, C]`
/// (QLinearMatMul's and MatMulInteger's verifiers, qkernel.matmul's):
///   one element                               -> per-tensor (always)
///   A: [R] (matrix rank >= 2) or [..., R, 1]  -> per-row
///   B: [C] (matrix rank >= 2) or [..., 1, C]  -> per-column
///   Y: per-row [..., R, 1] or per-column [C] / [..., 1, C]
/// where `...` has the matrix's batch rank and each batch dim is 1 or the
/// matrix's.
bool isValidMatMulParamShape(RankedTensorType param, ArrayRef<int64_t> matrix,
                             MatMulParamRole role);

/// The output size of one spatial dimension of a convolution:
///   o = floor((D + pb + pe - ((K - 1) d + 1)) / s) + 1
/// kDynamic when D or K is; may be < 1 (the verifiers reject it).
int64_t convOutputSize(int64_t d, int64_t k, int64_t stride,
                       int64_t dilation, int64_t padBegin, int64_t padEnd);

} // namespace mlir::qops

#endif // QUANTOPS_DIALECT_QOPS_IR_QOPSOPS_H
