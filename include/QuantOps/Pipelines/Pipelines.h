//===- Pipelines.h - named QuantOps pass pipelines --------------*- C++ -*-===//
//
// The pipelines from qops on tensors to the LLVM dialect, as pieces and as a
// whole:
//
//   qops-lower-to-llvm  = convert-qops-to-linalg, canonicalize,
//                         qops-vectorize-elementwise, canonicalize,
//                         qops-bufferize, qops-linalg-to-llvm
//   qops-bufferize      = one-shot-bufferize (function boundaries, identity
//                         layouts) + buffer-deallocation-pipeline
//   qops-linalg-to-llvm = linalg -> loops, vector -> scf/LLVM, -> cf ->
//                         LLVM dialect
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_PIPELINES_PIPELINES_H
#define QUANTOPS_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"

namespace mlir::qops {

/// Bufferizes a module of tensor functions (results are returned as fresh
/// buffers with identity layouts, owned by the caller).
void buildQOpsBufferizePipeline(OpPassManager &pm);
/// Lowers bufferized linalg/arith/math/memref to the LLVM dialect.
void buildQOpsLinalgToLLVMPipeline(OpPassManager &pm);
/// The whole way from qops on tensors to the LLVM dialect.
void buildQOpsLowerToLLVMPipeline(OpPassManager &pm);

/// Registers the three pipelines with the global pass registry.
void registerQOpsPipelines();

/// Registers every QuantOps pass and pipeline.
void registerAllQuantOpsPasses();

} // namespace mlir::qops

#endif // QUANTOPS_PIPELINES_PIPELINES_H
