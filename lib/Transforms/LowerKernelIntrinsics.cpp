//===- LowerKernelIntrinsics.cpp - qops-lower-kernel-intrinsics -----------===//
//
// The int8 kernel's quad dot products to the target's intrinsic:
//   x86      dot_u8s8_quads -> VPDPBUSD (256 or 512 bits); with
//            pair_sums_fit_i16, VPMADDUBSW + VPMADDWD by ones + VPADDD
//   AArch64  dot_u8s8_quads -> USDOT, dot_s8s8_quads -> SDOT, per 4 lanes;
//            mmla_u8s8 -> USMMLA
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"
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

struct QOpsLowerKernelIntrinsicsPass
    : public qops::impl::QOpsLowerKernelIntrinsicsBase<
          QOpsLowerKernelIntrinsicsPass> {
  using Base::Base;

  void runOnOperation() override {
    llvm::Triple triple(targetTriple.empty() ? llvm::sys::getProcessTriple()
                                             : targetTriple);
    IRRewriter rewriter(&getContext());
    WalkResult result = getOperation()->walk([&](Operation *op) {
      auto unsignedDot = dyn_cast<qops::DotU8S8QuadsOp>(op);
      auto signedDot = dyn_cast<qops::DotS8S8QuadsOp>(op);
      auto mmla = dyn_cast<qops::MmlaU8S8Op>(op);
      if (!unsignedDot && !signedDot && !mmla)
        return WalkResult::advance();
      rewriter.setInsertionPoint(op);
      Value acc = op->getOperand(0), a = op->getOperand(1),
            b = op->getOperand(2);
      Value lowered;
      if (mmla) {
        if (triple.isAArch64())
          lowered = lowerAArch64Mmla(rewriter, op->getLoc(), acc, a, b);
      } else if (triple.isAArch64())
        lowered = lowerAArch64(rewriter, op->getLoc(), acc, a, b,
                               static_cast<bool>(signedDot));
      else if (triple.isX86() && unsignedDot &&
               unsignedDot.getPairSumsFitI16())
        lowered = lowerX86PairSums(rewriter, op->getLoc(), acc, a, b);
      else if (triple.isX86() && unsignedDot)
        lowered = lowerX86(rewriter, op->getLoc(), acc, a, b);
      if (!lowered) {
        op->emitOpError() << "has no instruction on target '" << triple.str()
                          << "'";
        return WalkResult::interrupt();
      }
      rewriter.replaceOp(op, lowered);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
