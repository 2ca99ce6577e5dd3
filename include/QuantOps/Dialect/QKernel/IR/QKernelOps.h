//===- QKernelOps.h - the int8 kernels' internal ops ------------*- C++ -*-===//
//
// The qkernel dialect and its operations (generated from QKernelOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_DIALECT_QKERNEL_IR_QKERNELOPS_H
#define QUANTOPS_DIALECT_QKERNEL_IR_QKERNELOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "QuantOps/Dialect/QKernel/IR/QKernelDialect.h.inc"
#include "QuantOps/Dialect/QKernel/IR/QKernelEnums.h.inc"

#define GET_OP_CLASSES
#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h.inc"

namespace mlir::qkernel {

/// Marks the outer loop of an int8 kernel's nest of tiles (batches x row
/// blocks x column chunks, each iteration writing its own slice of y),
/// which qops-distribute turns into an scf.forall. The dictionary
/// holds what its policy reads: panel_columns (NR), column_chunk (a
/// thread's widest chunk), min_tasks, and m, n when both are static.
inline constexpr llvm::StringLiteral kTileLoopsAttrName =
    "qkernel.tile_loops";

/// Marks the outer loop of a perfect scf.for nest whose iterations each
/// write their own slice of the one tensor it carries (b's packing panels),
/// which qops-distribute turns into an scf.forall as it is.
inline constexpr llvm::StringLiteral kParallelLoopsAttrName =
    "qkernel.parallel_loops";

} // namespace mlir::qkernel

#endif // QUANTOPS_DIALECT_QKERNEL_IR_QKERNELOPS_H
