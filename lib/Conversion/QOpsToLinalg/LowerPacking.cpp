//===- LowerPacking.cpp - the qops-lower-packing pass ---------------------===//
//
// The pack stage's IR: each qkernel.pack_b and qkernel.pack_a becomes the
// linalg / vector IR of its layout (the formulas are the ops'
// descriptions):
//   pack_b pairs     packMaddB             (QLinearMatMulMadd.cpp)
//   pack_b byte_pairs  packMaddB, bytePairs (QLinearMatMulMadd.cpp)
//   pack_b quads     packVnniB             (QLinearMatMulVnni.cpp)
//   pack_b octets    packVnniB, then reorderQuadsForMmla
//   (QLinearMatMulMmla.cpp) pack_a centered  emitCenteredA16, padded
//   (QLinearMatMulLanes.cpp) pack_a bytes     packVnniA (QLinearMatMulVnni.cpp)
// with K (and N, M) read from the operand and padded to multiples of
// k_step (panel_columns, row_multiple):
//   Kp = ceil(K / k_step) k_step,  Np = ceil(N / panel_columns) panel_columns
// That IR is the kernels' only packer: a constant b is packed by running it
// (qops-hoist-constant-expressions, qops-const-eval). (The gemv packs its
// constant b itself, packGemvPairs.)
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Conversion/Passes.h"
#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"

#include "QLinearMatMulLanes.h"
#include "QLinearMatMulMadd.h"
#include "QLinearMatMulMmla.h"
#include "QLinearMatMulVnni.h"
#include "QuantOps/Conversion/QOpsToLinalg/QuantMath.h"
#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSLOWERPACKING
#include "QuantOps/Conversion/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;
using namespace mlir::qops;

namespace {

/// The ONNX type whose storage bytes an op packs: ui8 or si8.
Type int8Onnx(MLIRContext *ctx, bool isUnsigned) {
  return IntegerType::get(ctx, 8,
                          isUnsigned ? IntegerType::Unsigned
                                     : IntegerType::Signed);
}

/// Replaces `op` with `results`, each cast to the op's declared type where
/// the packer knew less (or more) of the shape.
void replaceWithDeclaredTypes(PatternRewriter &rewriter, Operation *op,
                              SmallVector<Value, 2> results) {
  for (auto [result, declared] : llvm::zip(results, op->getResults()))
    if (result.getType() != declared.getType())
      result = tensor::CastOp::create(rewriter, op->getLoc(),
                                      declared.getType(), result);
  rewriter.replaceOp(op, results);
}

struct LowerPackB : OpRewritePattern<qkernel::PackBOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(qkernel::PackBOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value b = op.getB();
    Value zeroPoint = op.getZeroPoint();
    bool perColumn = op.getZeroPoint().getType().getRank() == 1;
    Type bOnnx = int8Onnx(rewriter.getContext(), op.getBUnsigned());
    OpFoldResult k = tensor::getMixedSize(rewriter, loc, b, 1);
    OpFoldResult n = tensor::getMixedSize(rewriter, loc, b, 2);
    OpFoldResult kPadded = roundUpTo(rewriter, loc, k, op.getKStep());
    OpFoldResult nPadded = roundUpTo(rewriter, loc, n, op.getPanelColumns());
    SmallVector<Value, 2> results;
    if (op.getLayout() == qkernel::PackLayout::Pairs ||
        op.getLayout() == qkernel::PackLayout::BytePairs) {
      results.push_back(packMaddB(
          rewriter, loc, b, bOnnx, zeroPoint, perColumn, k, n, kPadded, nPadded,
          op.getLayout() == qkernel::PackLayout::BytePairs));
    } else {
      VnniPackedB packed = packVnniB(rewriter, loc, b, bOnnx, zeroPoint,
                                     perColumn, k, n, kPadded, nPadded,
                                     op.getPanelColumns());
      results.push_back(op.getLayout() == qkernel::PackLayout::Octets
                            ? reorderQuadsForMmla(rewriter, loc, packed.quads)
                            : packed.quads);
      results.push_back(packed.columnTerm);
    }
    replaceWithDeclaredTypes(rewriter, op, results);
    return success();
  }
};

struct LowerPackA : OpRewritePattern<qkernel::PackAOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(qkernel::PackAOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value a = op.getA();
    Type aOnnx = int8Onnx(rewriter.getContext(), op.getAUnsigned());
    auto size = [&](int64_t d) {
      return tensor::getMixedSize(rewriter, loc, a, d);
    };
    OpFoldResult kPadded = roundUpTo(rewriter, loc, size(2), op.getKStep());
    SmallVector<Value, 2> results;
    if (op.getLayout() == qkernel::PackALayout::Centered) {
      Value zeroPoint = op.getZeroPoint();
      KernelParam param{zeroPoint,
                        cast<RankedTensorType>(zeroPoint.getType())
                                .getRank() == 1};
      results.push_back(padHighTo(rewriter, loc,
                                  emitCenteredA16(rewriter, loc, a, aOnnx,
                                                  param),
                                  {size(0), size(1), kPadded},
                                  rewriter.getI16IntegerAttr(0)));
    } else {
      OpFoldResult rowsPadded;
      if (op.getRowMultiple() > 0)
        rowsPadded = roundUpTo(rewriter, loc, size(1), op.getRowMultiple());
      VnniPackedA packed =
          packVnniA(rewriter, loc, a, aOnnx, op.getSignedA(), kPadded,
                    op.getRowSums(), rowsPadded);
      results.push_back(packed.bytes);
      if (op.getRowSums())
        results.push_back(packed.rowSum);
    }
    replaceWithDeclaredTypes(rewriter, op, results);
    return success();
  }
};

struct LowerPackingPass
    : public qops::impl::QOpsLowerPackingBase<LowerPackingPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateLowerPackingPatterns(patterns);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace

void qops::populateLowerPackingPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerPackA, LowerPackB>(patterns.getContext());
}
