//===- QOpsTypeUtils.h - element types of the qops dialect ------*- C++ -*-===//
//
// Predicates over the element types ONNX allows for quantization, shared by
// the verifiers, the lowering and the importer.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_DIALECT_QOPS_IR_QOPSTYPEUTILS_H
#define QUANTOPS_DIALECT_QOPS_IR_QOPSTYPEUTILS_H

#include "mlir/IR/Types.h"

namespace mlir::qops {

/// ui8, si8, ui16, si16, ui4, si4, ui2, si2: the quantized integer types.
bool isQuantizedIntegerType(Type type);
/// f8E4M3FN, f8E4M3FNUZ, f8E5M2, f8E5M2FNUZ.
bool isFloat8Type(Type type);
/// f4E2M1FN.
bool isFloat4Type(Type type);
/// f8E8M0FNU (a scale type only).
bool isFloat8E8M0Type(Type type);
/// ONNX int32: signless i32 or si32.
bool isInt32Type(Type type);
/// f32, f16, bf16: the full-precision float types.
bool isFullPrecisionFloatType(Type type);
/// Any type QuantizeLinear may produce: quantized integers, float8, float4.
bool isQuantizeOutputType(Type type);
/// Any type DequantizeLinear may consume: the above plus int32.
bool isDequantizeInputType(Type type);
/// si8 or ui8.
bool isInt8Type(Type type);

/// The smallest and largest values of a quantized integer type.
int64_t getIntegerTypeMin(Type type);
int64_t getIntegerTypeMax(Type type);

} // namespace mlir::qops

#endif // QUANTOPS_DIALECT_QOPS_IR_QOPSTYPEUTILS_H
