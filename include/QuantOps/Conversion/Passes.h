//===- Passes.h - QuantOps conversion passes --------------------*- C++ -*-===//
//
// Declarations and registration of the conversion passes (Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_CONVERSION_PASSES_H
#define QUANTOPS_CONVERSION_PASSES_H

#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h"
#include "QuantOps/Utils/ConstantBytes.h" // kViewedConstantBytes

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::qops {

#define GEN_PASS_DECL
#include "QuantOps/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "QuantOps/Conversion/Passes.h.inc"

} // namespace mlir::qops

#endif // QUANTOPS_CONVERSION_PASSES_H
