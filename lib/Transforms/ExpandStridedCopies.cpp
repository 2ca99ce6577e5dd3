//===- ExpandStridedCopies.cpp - qops-expand-strided-copies ---------------===//
//
// memref.copy between buffers that are not both contiguous -> linalg.copy
// (loops after convert-linalg-to-loops, vectorized by LLVM), instead of a
// call to the C runner's element-by-element memrefCopy.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSEXPANDSTRIDEDCOPIES
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

/// An identity layout (any shape) or a static strided one that is row-major
/// contiguous anyway.
bool isContiguous(Value buffer) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  return type && (type.getLayout().isIdentity() ||
                  memref::isStaticShapeAndContiguousRowMajor(type));
}

struct QOpsExpandStridedCopiesPass
    : public qops::impl::QOpsExpandStridedCopiesBase<
          QOpsExpandStridedCopiesPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation().walk([&](memref::CopyOp copy) {
      if (isContiguous(copy.getSource()) && isContiguous(copy.getTarget()))
        return;
      auto sourceType = dyn_cast<MemRefType>(copy.getSource().getType());
      if (!sourceType || sourceType.getRank() == 0)
        return;
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    });
  }
};

} // namespace
