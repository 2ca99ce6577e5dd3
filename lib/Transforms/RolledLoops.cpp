//===- RolledLoops.cpp - loops LLVM is not to unroll ----------------------===//
//
// See keepLoopRolled in Passes.h.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

using namespace mlir;

void qops::keepLoopRolled(scf::ForOp loop) {
  MLIRContext *ctx = loop.getContext();
  auto unroll = LLVM::LoopUnrollAttr::get(
      ctx, /*disable=*/BoolAttr::get(ctx, true), /*count=*/{},
      /*runtimeDisable=*/{}, /*full=*/{}, /*followupUnrolled=*/{},
      /*followupRemainder=*/{}, /*followupAll=*/{});
  auto annotation = LLVM::LoopAnnotationAttr::get(
      ctx, /*disableNonforced=*/{}, /*vectorize=*/{}, /*interleave=*/{},
      unroll, /*unrollAndJam=*/{}, /*licm=*/{}, /*distribute=*/{},
      /*pipeline=*/{}, /*peeled=*/{}, /*unswitch=*/{}, /*mustProgress=*/{},
      /*isVectorized=*/{}, /*startLoc=*/{}, /*endLoc=*/{},
      /*parallelAccesses=*/{});
  // The name of llvm.br's inherent attribute: scf-to-cf copies the loop's
  // attributes to its latch branch, and cf-to-llvm gives them to llvm.br,
  // whose loop_annotation becomes the branch's !llvm.loop.
  loop->setAttr(LLVM::BrOp::getLoopAnnotationAttrName(
                    OperationName(LLVM::BrOp::getOperationName(), ctx)),
                annotation);
}
