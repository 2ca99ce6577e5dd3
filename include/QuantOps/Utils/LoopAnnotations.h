//===- LoopAnnotations.h - hints on loops for LLVM --------------*- C++ -*-===//
//
// Loop metadata the passes give LLVM through MLIR's `loop_annotation`
// (llvm.br's inherent attribute: scf-to-cf copies an scf.for's attributes
// of the LLVM dialect to its latch branch, cf-to-llvm gives them to
// llvm.br, and the LLVM IR translation writes it as the branch's
// !llvm.loop).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_UTILS_LOOPANNOTATIONS_H
#define QUANTOPS_UTILS_LOOPANNOTATIONS_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::qops {

/// Marks `loop` not to be unrolled by LLVM (`llvm.loop.unroll.disable`).
/// For loops that gain nothing from unrolling while LLVM's copies of their
/// body cost compile time: qops-expand-strided-copies' row copies, the
/// code that runs once per session (qops-roll-run-once-loops), the int8
/// kernel's epilogue loop over a tile's rows, qops-vectorize-elementwise's
/// tile loops of rows of 4 tiles or more. The LLVM dialect must be
/// loaded (a pass that calls it declares it: dependentDialects).
void keepLoopRolled(scf::ForOp loop);

} // namespace mlir::qops

#endif // QUANTOPS_UTILS_LOOPANNOTATIONS_H
