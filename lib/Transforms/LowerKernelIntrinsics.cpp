//===- LowerKernelIntrinsics.cpp - qops-lower-kernel-intrinsics -----------===//
//
// qops.dot_u8s8_quads -> llvm.call_intrinsic of VPDPBUSD (256 or 512 bits).
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSLOWERKERNELINTRINSICS
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

struct QOpsLowerKernelIntrinsicsPass
    : public qops::impl::QOpsLowerKernelIntrinsicsBase<
          QOpsLowerKernelIntrinsicsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation()->walk([&](qops::DotU8S8QuadsOp dot) {
      int64_t lanes = cast<VectorType>(dot.getType()).getNumElements();
      StringRef name = lanes == 16 ? "llvm.x86.avx512.vpdpbusd.512"
                                   : "llvm.x86.avx512.vpdpbusd.256";
      rewriter.setInsertionPoint(dot);
      // LLVM 22 declares the byte operands as <4N x i8>.
      auto bytesType = VectorType::get({4 * lanes}, rewriter.getI8Type());
      Value a = LLVM::BitcastOp::create(rewriter, dot.getLoc(), bytesType,
                                        dot.getA());
      Value b = LLVM::BitcastOp::create(rewriter, dot.getLoc(), bytesType,
                                        dot.getB());
      auto call = LLVM::CallIntrinsicOp::create(
          rewriter, dot.getLoc(), dot.getType(), rewriter.getStringAttr(name),
          ValueRange{dot.getAcc(), a, b});
      rewriter.replaceOp(dot, call.getResults());
    });
  }
};

} // namespace
