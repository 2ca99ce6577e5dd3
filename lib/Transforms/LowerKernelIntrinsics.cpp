//===- LowerKernelIntrinsics.cpp - qops-lower-kernel-intrinsics -----------===//
//
// The qkernel ops (the int8 kernels' multiply-accumulates) to the target's
// intrinsics, as rewrite patterns (populateLowerKernelIntrinsicsPatterns):
//   x86      dot_u8s8_quads -> VPDPBUSD (256 or 512 bits); with
//            pair_sums_fit_i16, VPMADDUBSW + VPMADDWD by ones + VPADDD
//   AArch64  dot_u8s8_quads -> USDOT, dot_s8s8_quads -> SDOT, per 4 lanes;
//            mmla_u8s8 -> USMMLA
//   any      dot_i16_pairs -> sext, mul, even + odd lanes, add: the plain
//            form LLVM selects as VPMADDWD + VPADDD on x86
// An op the target has no instruction for is left by the patterns; the pass
// then reports it.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "QuantOps/Target/TargetAttr.h"

#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSLOWERKERNELINTRINSICS
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

Value bitcastToBytes(OpBuilder &b, Location loc, Value lanes) {
  int64_t count = cast<VectorType>(lanes.getType()).getNumElements();
  return LLVM::BitcastOp::create(
      b, loc, VectorType::get({4 * count}, b.getI8Type()), lanes);
}

Value lanesOf(OpBuilder &b, Location loc, Value vector, int64_t first,
              int64_t count) {
  SmallVector<int32_t> mask;
  for (int64_t i = 0; i < count; ++i)
    mask.push_back(first + i);
  return LLVM::ShuffleVectorOp::create(b, loc, vector, vector, mask);
}

/// x86: one VPDPBUSD over all lanes.
Value lowerX86(OpBuilder &b, Location loc, Value acc, Value a, Value bq) {
  int64_t lanes = cast<VectorType>(acc.getType()).getNumElements();
  StringRef name = lanes == 16 ? "llvm.x86.avx512.vpdpbusd.512"
                               : "llvm.x86.avx512.vpdpbusd.256";
  // LLVM 22 declares the byte operands as <4N x i8>.
  return LLVM::CallIntrinsicOp::create(
             b, loc, acc.getType(), b.getStringAttr(name),
             ValueRange{acc, bitcastToBytes(b, loc, a),
                        bitcastToBytes(b, loc, bq)})
      .getResult(0);
}

/// x86 without VNNI, for quads whose pair sums fit i16 (pair_sums_fit_i16):
/// VPMADDUBSW (u8 a x s8 b, adjacent products summed into i16; exact, as
/// they cannot saturate), VPMADDWD by ones (adjacent i16 summed into i32),
/// VPADDD.
Value lowerX86PairSums(OpBuilder &b, Location loc, Value acc, Value a,
                       Value bq) {
  int64_t lanes = cast<VectorType>(acc.getType()).getNumElements();
  bool zmm = lanes == 16;
  auto words = VectorType::get({2 * lanes}, b.getIntegerType(16));
  Value pairs =
      LLVM::CallIntrinsicOp::create(
          b, loc, words,
          b.getStringAttr(zmm ? "llvm.x86.avx512.pmaddubs.w.512"
                              : "llvm.x86.avx2.pmadd.ub.sw"),
          ValueRange{bitcastToBytes(b, loc, a), bitcastToBytes(b, loc, bq)})
          .getResult(0);
  Value ones = LLVM::ConstantOp::create(
      b, loc, words, DenseElementsAttr::get(words, int16_t(1)));
  Value quads =
      LLVM::CallIntrinsicOp::create(
          b, loc, acc.getType(),
          b.getStringAttr(zmm ? "llvm.x86.avx512.pmaddw.d.512"
                              : "llvm.x86.avx2.pmadd.wd"),
          ValueRange{pairs, ones})
          .getResult(0);
  return LLVM::AddOp::create(b, loc, acc, quads);
}

/// AArch64: USDOT / SDOT on each quarter of 4 lanes (128-bit registers).
Value lowerAArch64(OpBuilder &b, Location loc, Value acc, Value a, Value bq,
                   bool signedA) {
  int64_t lanes = cast<VectorType>(acc.getType()).getNumElements();
  StringRef name =
      signedA ? "llvm.aarch64.neon.sdot" : "llvm.aarch64.neon.usdot";
  auto quarter = VectorType::get({4}, b.getI32Type());
  SmallVector<Value> parts;
  for (int64_t first = 0; first < lanes; first += 4) {
    Value part = LLVM::CallIntrinsicOp::create(
                     b, loc, quarter, b.getStringAttr(name),
                     ValueRange{lanesOf(b, loc, acc, first, 4),
                                bitcastToBytes(b, loc, lanesOf(b, loc, a, first, 4)),
                                bitcastToBytes(b, loc,
                                               lanesOf(b, loc, bq, first, 4))})
                     .getResult(0);
    parts.push_back(part);
  }
  // Concatenate the quarters again.
  while (parts.size() > 1) {
    SmallVector<Value> joined;
    for (size_t i = 0; i + 1 < parts.size(); i += 2) {
      int64_t width = cast<VectorType>(parts[i].getType()).getNumElements();
      SmallVector<int32_t> mask;
      for (int64_t j = 0; j < 2 * width; ++j)
        mask.push_back(j);
      joined.push_back(
          LLVM::ShuffleVectorOp::create(b, loc, parts[i], parts[i + 1], mask));
    }
    parts = joined;
  }
  return parts.front();
}

/// AArch64: one USMMLA (the op is one 128-bit register).
Value lowerAArch64Mmla(OpBuilder &b, Location loc, Value acc, Value a,
                       Value bq) {
  return LLVM::CallIntrinsicOp::create(
             b, loc, acc.getType(), b.getStringAttr("llvm.aarch64.neon.usmmla"),
             ValueRange{acc, bitcastToBytes(b, loc, a),
                        bitcastToBytes(b, loc, bq)})
      .getResult(0);
}

/// qkernel.dot_u8s8_quads: VPDPBUSD, the VPMADDUBSW form where its pair sums
/// provably fit i16, or USDOT.
struct LowerUnsignedQuads : OpRewritePattern<qkernel::DotU8S8QuadsOp> {
  LowerUnsignedQuads(MLIRContext *ctx, llvm::Triple triple)
      : OpRewritePattern(ctx), triple(std::move(triple)) {}
  llvm::Triple triple;

  LogicalResult matchAndRewrite(qkernel::DotU8S8QuadsOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value lowered;
    if (triple.isAArch64())
      lowered = lowerAArch64(rewriter, loc, op.getAcc(), op.getA(), op.getB(),
                             /*signedA=*/false);
    else if (triple.isX86() && op.getPairSumsFitI16())
      lowered =
          lowerX86PairSums(rewriter, loc, op.getAcc(), op.getA(), op.getB());
    else if (triple.isX86())
      lowered = lowerX86(rewriter, loc, op.getAcc(), op.getA(), op.getB());
    else
      return rewriter.notifyMatchFailure(op, "no instruction on the target");
    rewriter.replaceOp(op, lowered);
    return success();
  }
};

/// qkernel.dot_s8s8_quads: SDOT (AArch64 only).
struct LowerSignedQuads : OpRewritePattern<qkernel::DotS8S8QuadsOp> {
  LowerSignedQuads(MLIRContext *ctx, llvm::Triple triple)
      : OpRewritePattern(ctx), triple(std::move(triple)) {}
  llvm::Triple triple;

  LogicalResult matchAndRewrite(qkernel::DotS8S8QuadsOp op,
                                PatternRewriter &rewriter) const override {
    if (!triple.isAArch64())
      return rewriter.notifyMatchFailure(op, "no instruction on the target");
    rewriter.replaceOp(op, lowerAArch64(rewriter, op.getLoc(), op.getAcc(),
                                        op.getA(), op.getB(),
                                        /*signedA=*/true));
    return success();
  }
};

/// qkernel.mmla_u8s8: USMMLA (AArch64 only).
struct LowerMmla : OpRewritePattern<qkernel::MmlaU8S8Op> {
  LowerMmla(MLIRContext *ctx, llvm::Triple triple)
      : OpRewritePattern(ctx), triple(std::move(triple)) {}
  llvm::Triple triple;

  LogicalResult matchAndRewrite(qkernel::MmlaU8S8Op op,
                                PatternRewriter &rewriter) const override {
    if (!triple.isAArch64())
      return rewriter.notifyMatchFailure(op, "no instruction on the target");
    rewriter.replaceOp(op, lowerAArch64Mmla(rewriter, op.getLoc(),
                                            op.getAcc(), op.getA(),
                                            op.getB()));
    return success();
  }
};

/// qkernel.dot_i16_pairs, on every target (LLVM's instruction selection
/// finds the pairs):
///   %xe = sext %x to vector<2Nxi32>      %ye = sext %y
///   %p = mul %xe, %ye
///   %r = add %acc, (add (shufflevector %p [0, 2, ..]),
///                       (shufflevector %p [1, 3, ..]))
struct LowerPairs : OpRewritePattern<qkernel::DotI16PairsOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(qkernel::DotI16PairsOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t lanes = op.getAcc().getType().getNumElements();
    auto wide = VectorType::get({2 * lanes}, rewriter.getI32Type());
    Value x = LLVM::SExtOp::create(rewriter, loc, wide, op.getA());
    Value y = LLVM::SExtOp::create(rewriter, loc, wide, op.getB());
    Value product = LLVM::MulOp::create(rewriter, loc, x, y);
    SmallVector<int32_t> even, odd;
    for (int64_t i = 0; i < lanes; ++i) {
      even.push_back(2 * i);
      odd.push_back(2 * i + 1);
    }
    Value evens =
        LLVM::ShuffleVectorOp::create(rewriter, loc, product, product, even);
    Value odds =
        LLVM::ShuffleVectorOp::create(rewriter, loc, product, product, odd);
    Value sum = LLVM::AddOp::create(rewriter, loc, evens, odds);
    rewriter.replaceOpWithNewOp<LLVM::AddOp>(op, op.getAcc(), sum);
    return success();
  }
};

/// Marks each function that holds an x86 int8 kernel's step (the quads'
/// VPDPBUSD or VPMADDUBSW, madd's pair sums) with the LLVM function
/// attribute qops::kInt8KernelAttr (`passthrough`, which func-to-llvm
/// carries over and LLVM's OpenMP outlining copies to the parallel
/// regions): how code generation knows a kernel, whose loops it compiles
/// without loop strength reduction (runner::canSkipLoopStrengthReduction).
void markX86Kernels(Operation *root) {
  root->walk([](Operation *op) {
    if (!isa<qkernel::DotU8S8QuadsOp, qkernel::DotI16PairsOp>(op))
      return;
    Operation *function = op->getParentOfType<FunctionOpInterface>();
    if (!function)
      return;
    auto kernel = StringAttr::get(op->getContext(), qops::kInt8KernelAttr);
    SmallVector<Attribute> passthrough;
    if (auto existing = function->getAttrOfType<ArrayAttr>("passthrough"))
      passthrough.append(existing.begin(), existing.end());
    if (llvm::is_contained(passthrough, kernel))
      return;
    passthrough.push_back(kernel);
    function->setAttr("passthrough",
                      ArrayAttr::get(op->getContext(), passthrough));
  });
}

struct QOpsLowerKernelIntrinsicsPass
    : public qops::impl::QOpsLowerKernelIntrinsicsBase<
          QOpsLowerKernelIntrinsicsPass> {
  using Base::Base;

  void runOnOperation() override {
    // The option, else the configured module's (qops-configure-target).
    llvm::Triple triple(qops::getTripleFor(getOperation(), targetTriple));
    if (triple.isX86())
      markX86Kernels(getOperation());
    RewritePatternSet patterns(&getContext());
    qops::populateLowerKernelIntrinsicsPatterns(patterns, triple);
    // One walk (no folding, no dead-code removal): the rest of the IR stays
    // as it is.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    // What no pattern took has no instruction on this target.
    WalkResult result = getOperation()->walk([&](Operation *op) {
      if (!isa<qkernel::QKernelDialect>(op->getDialect()))
        return WalkResult::advance();
      op->emitOpError() << "has no instruction on target '" << triple.str()
                        << "'";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

void qops::populateLowerKernelIntrinsicsPatterns(RewritePatternSet &patterns,
                                                 const llvm::Triple &triple) {
  patterns.add<LowerUnsignedQuads, LowerSignedQuads, LowerMmla>(
      patterns.getContext(), triple);
  patterns.add<LowerPairs>(patterns.getContext());
}
