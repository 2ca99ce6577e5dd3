//===- LoopAnnotations.cpp - hints on loops for LLVM ----------------------===//
//
// See LoopAnnotations.h.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Utils/LoopAnnotations.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

void qops::keepLoopRolled(scf::ForOp loop) {
  MLIRContext *ctx = loop.getContext();
  assert(ctx->getLoadedDialect<LLVM::LLVMDialect>() &&
         "keepLoopRolled: the pass must declare the LLVM dialect");
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
  // llvm.br's inherent attribute (LoopAnnotations.h).
  loop->setAttr(LLVM::BrOp::getLoopAnnotationAttrName(
                    OperationName(LLVM::BrOp::getOperationName(), ctx)),
                annotation);
}
