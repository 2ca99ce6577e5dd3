//===- VectorizeElementwise.cpp - the qops-vectorize-elementwise pass -----===//
//
// Elementwise linalg.generic ops (all the Q/DQ forms, DynamicQuantizeLinear's
// second pass, the requantization of QLinearMatMul) become vector loops:
//
//   1. tile: every outer loop by 1, the innermost loop by W (vector-width,
//      widened so that each result's tile has result-tile-bytes)
//   2. peel the innermost loop: full tiles [1, .., 1, W] in one loop, the
//      last partial tile (D mod W elements) in a loop of at most one trip;
//      with a static D, each row is split at D - D mod W instead, and its
//      remainder vectorized whole (D mod W lanes)
//   3. linalg::vectorize the full-tile op (static shapes, no masks); the
//      partial tile of a dynamic D stays a scalar linalg.generic
//   4. drop the leading unit dims of the vectors and fold the tiled slices
//
// An innermost dimension with a static size below W is taken whole.
//
// Ops that reduce along outer loops (DynamicQuantizeLinear's lane-wise
// min/max) accumulate in registers: their innermost dimension is taken
// whole when static and at most kMaxAccumulatorLanes, so the tile loops are
// the reduction loops alone, and the accumulator's read and write, the same
// subset every iteration, are hoisted out of them (loop-carried vectors).
// Tiling it by W would leave a lane-tile loop inside each reduction step,
// whose accumulators go through memory every row (a store-to-load chain).
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Target/TargetAttr.h"
#include "QuantOps/Transforms/Passes.h"
#include "QuantOps/Utils/LoopAnnotations.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/FoldUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

#define DEBUG_TYPE "qops-vectorize-elementwise"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSVECTORIZEELEMENTWISE
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

/// The ops a rewriter inserted (and did not erase through it since): where
/// the clean-up looks (QOpsVectorizeElementwisePass::cleanUp).
struct InsertedOps : RewriterBase::Listener {
  llvm::DenseSet<Operation *> ops;
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint) override {
    ops.insert(op);
  }
  void notifyOperationErased(Operation *op) override { ops.erase(op); }
};

/// Elements per thread iteration of a distributed 1-D op.
constexpr int64_t kChunk = 16384;

/// The widest innermost dimension an outer reduction keeps whole: 64 f32
/// lanes are 4 zmm (AVX-512) per accumulator. (DynamicQuantizeLinear sizes
/// its lanes to 4 registers of the target: 32 on AVX2.)
constexpr int64_t kMaxAccumulatorLanes = 64;

/// The fewest full tiles of a row whose tile loop is kept rolled
/// (keepLoopRolled). LLVM fully unrolls a short row's loop, and the row
/// loop around it then holds every tile's reads and writes as straight-line
/// code: LoopLoadElimination alone took 10 ms (of 80 ms of LLVM passes) on
/// the 24 tiles of a 768-byte row of QLinearMatMul's a. Fewer tiles are
/// cheap to unroll.
constexpr int64_t kMinRolledRowTiles = 4;

/// The most inputs of an op whose tiles are widened to result-tile-bytes.
constexpr unsigned kMaxWidenedInputs = 8;

/// Marks, for the span of the pass, a tile loop of a reduction whose
/// accumulator subsets are to be hoisted.
constexpr llvm::StringLiteral kHoistAccumulators = "qops.hoist_accumulators";

bool hasReductionLoop(linalg::GenericOp op) {
  return llvm::is_contained(op.getIteratorTypesArray(),
                            utils::IteratorType::reduction);
}

/// The innermost loop parallel and indexing every output, on tensors.
bool hasElementwiseInnerLoop(linalg::GenericOp op) {
  unsigned numLoops = op.getNumLoops();
  if (numLoops == 0 || !op.hasPureTensorSemantics())
    return false;
  if (op.getIteratorTypesArray().back() != utils::IteratorType::parallel)
    return false;
  return llvm::all_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
    return op.getMatchingIndexingMap(&init).isFunctionOfDim(numLoops - 1);
  });
}

/// Elementwise along the innermost loop: it is parallel and indexes every
/// output, and every map is a projected permutation. Outer loops may be
/// reductions (e.g. DynamicQuantizeLinear's lane-wise min/max), which then
/// accumulate in vectors.
bool isVectorizableElementwise(linalg::GenericOp op) {
  return hasElementwiseInnerLoop(op) &&
         llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
           return map.isProjectedPermutation();
         });
}

/// The broadcast unit dims of an input: the results of its map that are
/// the constant 0 where its dim is a static 1 (ONNX's numpy broadcasting:
/// a per-channel bias [1, C, 1, 1] over [N, C, H, W] reads through
/// (d0, d1, d2, d3) -> (d0, d1, 0, 0)). Empty when the map has any other
/// non-dim result.
SmallVector<int64_t> getBroadcastUnitDims(linalg::GenericOp op,
                                          OpOperand &input) {
  AffineMap map = op.getMatchingIndexingMap(&input);
  auto type = dyn_cast<RankedTensorType>(input.get().getType());
  SmallVector<int64_t> dims;
  if (!type)
    return dims;
  for (auto [d, result] : llvm::enumerate(map.getResults())) {
    if (isa<AffineDimExpr>(result))
      continue;
    auto constant = dyn_cast<AffineConstantExpr>(result);
    if (!constant || constant.getValue() != 0 || type.getDimSize(d) != 1)
      return {};
    dims.push_back(d);
  }
  return dims;
}

/// Reads every input with broadcast unit dims through the input collapsed
/// to its other dims and the map without those results: the same elements
/// (along a unit dim the one index is 0), and the map becomes a projected
/// permutation that linalg::vectorize reads as a broadcast.
///   %b: tensor<1x64x1x1xf32>, (d0, d1, d2, d3) -> (d0, d1, 0, 0)
///   -> tensor.collapse_shape %b [[0], [1, 2, 3]] : ... into tensor<1x64xf32>,
///      (d0, d1, d2, d3) -> (d0, d1)
/// Each dropped dim joins the group of the next kept dim (the last group
/// when none follows); with no dim kept, the input becomes rank 0.
/// Returns whether any input changed.
bool collapseBroadcastUnitDims(IRRewriter &rewriter, linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics())
    return false;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  bool changed = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    SmallVector<int64_t> dropped = getBroadcastUnitDims(op, *input);
    if (dropped.empty())
      continue;
    auto type = cast<RankedTensorType>(input->get().getType());
    AffineMap map = maps[input->getOperandNumber()];
    SmallVector<ReassociationIndices> groups;
    SmallVector<int64_t> shape;
    SmallVector<AffineExpr> results;
    ReassociationIndices pending;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      pending.push_back(d);
      if (llvm::is_contained(dropped, d))
        continue;
      groups.push_back(pending);
      pending.clear();
      shape.push_back(type.getDimSize(d));
      results.push_back(map.getResult(d));
    }
    if (!groups.empty())
      llvm::append_range(groups.back(), pending);
    rewriter.setInsertionPoint(op);
    Value collapsed = tensor::CollapseShapeOp::create(
        rewriter, op.getLoc(),
        RankedTensorType::get(shape, type.getElementType()), input->get(),
        groups);
    rewriter.modifyOpInPlace(op, [&] { input->set(collapsed); });
    maps[input->getOperandNumber()] =
        AffineMap::get(map.getNumDims(), 0, results, op.getContext());
    changed = true;
  }
  if (changed)
    rewriter.modifyOpInPlace(op, [&] {
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
  return changed;
}

/// Tiles `op` by `sizes` (0: a loop left whole) into loops of `type` and
/// replaces it by the tiled nest; failure leaves `op` as it is.
FailureOr<scf::SCFTilingResult>
tileAndReplace(IRRewriter &rewriter, linalg::GenericOp op,
               ArrayRef<OpFoldResult> sizes,
               scf::SCFTilingOptions::LoopType type) {
  scf::SCFTilingOptions options;
  options.setTileSizes(sizes);
  options.setLoopType(type);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (succeeded(tiled))
    rewriter.replaceOp(op, tiled->replacements);
  return tiled;
}

/// The linalg.generic nested in `loop` (the tiled op), if there is one.
linalg::GenericOp findTiledGeneric(scf::ForOp loop) {
  linalg::GenericOp found;
  loop.getBody()->walk([&](linalg::GenericOp op) {
    found = op;
    return WalkResult::interrupt();
  });
  return found;
}

struct QOpsVectorizeElementwisePass
    : public qops::impl::QOpsVectorizeElementwiseBase<
          QOpsVectorizeElementwisePass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // Tiling goes through linalg's TilingInterface models, which a tool
    // that registers only some dialects may not have attached.
    linalg::registerTilingInterfaceExternalModels(registry);
  }

  /// Elements per tile of the innermost loop: vector-width, or more so
  /// that every result of 8 bits or more per element gets at least
  /// result-tile-bytes per tile. With 64 (the configured target's on AVX-512
  /// targets) an i8 result is written a whole zmm register, one cache line,
  /// at a time: x86 then streams it with one VMOVNTDQ per line, where
  /// 32-element tiles give 32-byte halves that LLVM turns into VPMOVDB
  /// truncating stores, which have no non-temporal form.
  /// An op with more than kMaxWidenedInputs inputs (the depthwise
  /// convolution: 9 taps and their 9 broadcast weights for 3x3) takes one
  /// vector register of i32 per value (manyInputsWidth: 16 lanes on
  /// AVX-512, 8 on AVX2), so that the weights stay in registers across the
  /// row loop: at 32 lanes (two zmm each) they did not fit the register
  /// file, and LLVM rebuilt their broadcasts inside the loop
  /// (vmovd + 3 vpinsrd + 3 vinserti per weight; QLinearConv depthwise 144
  /// x 56 x 56, Xeon (Emerald Rapids), 1 thread: 0.83 ms at 32 lanes, 0.45
  /// ms at 16).
  int64_t tileWidth(linalg::GenericOp op) const {
    if (op.getNumDpsInputs() > kMaxWidenedInputs)
      return manyInputsWidth;
    int64_t width = vectorWidth;
    if (tileBytes <= 0)
      return width;
    for (Value init : op.getDpsInits()) {
      Type element = getElementTypeOrSelf(init.getType());
      if (!element.isIntOrFloat())
        continue;
      unsigned bits = element.getIntOrFloatBitWidth();
      if (bits >= 8 && bits % 8 == 0)
        width = std::max(width, tileBytes / int64_t(bits / 8));
    }
    return width;
  }

  /// Distributes one parallel loop with scf.forall and returns the op
  /// inside:
  ///   - a 1-D op: chunks of kChunk elements;
  ///   - otherwise the outermost parallel loop that is not the innermost
  ///     and not statically of extent 1 (a unit batch dim would leave every
  ///     other thread idle: e.g. the panels of a packing whose batch is
  ///     1), one index per iteration. Loops before it stay whole inside.
  /// The innermost loop of a multi-dimensional op is not split: for a gemv
  /// (m = 1, k, n) one thread already streams b at about the read
  /// bandwidth, and 512-column chunks over 2 threads measured no faster
  /// (QMM_gemv medians 0.89-0.97 ms unsplit, 1.0-1.4 ms split).
  FailureOr<linalg::GenericOp> distribute(IRRewriter &rewriter,
                                          linalg::GenericOp op) {
    unsigned numLoops = op.getNumLoops();
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    std::optional<unsigned> chosen;
    if (numLoops == 1) {
      if (iterators[0] == utils::IteratorType::parallel)
        chosen = 0;
    } else {
      for (unsigned d = 0; d + 1 < numLoops && !chosen; ++d)
        if (iterators[d] == utils::IteratorType::parallel && ranges[d] != 1)
          chosen = d;
    }
    if (!chosen)
      return op;
    int64_t tile = numLoops == 1 ? kChunk : 1;
    SmallVector<OpFoldResult> tileSizes(numLoops, rewriter.getIndexAttr(0));
    tileSizes[*chosen] = rewriter.getIndexAttr(tile);
    FailureOr<scf::SCFTilingResult> tiled =
        tileAndReplace(rewriter, op, tileSizes,
                       scf::SCFTilingOptions::LoopType::ForallOp);
    if (failed(tiled))
      return op.emitOpError("could not be distributed over threads");
    return cast<linalg::GenericOp>(tiled->tiledOps.front());
  }

  LogicalResult vectorizeOne(IRRewriter &rewriter, linalg::GenericOp op) {
    // Nothing to do for a statically empty op (and tiling it would divide
    // by its zero extent).
    if (llvm::is_contained(op.getStaticLoopRanges(), 0))
      return success();
    // An op inside a distributed loop (a slice nest of qops-distribute) is
    // one thread's part already: splitting it again would nest parallel
    // regions.
    if (parallel && !op->getParentOfType<scf::ForallOp>()) {
      FailureOr<linalg::GenericOp> inner = distribute(rewriter, op);
      if (failed(inner))
        return failure();
      op = *inner;
    }
    // A static innermost extent D that W does not divide: each row (the
    // outer loops tiled by 1 first, so that a row's two parts are done
    // together) is split at D - D mod W into the full tiles and a remainder
    // of D mod W elements, which is vectorized whole (a shorter vector)
    // instead of staying a scalar loop after peeling.
    int64_t inner = op.getStaticLoopRanges().back();
    int64_t width = tileWidth(op);
    if (hasReductionLoop(op) || ShapedType::isDynamic(inner) ||
        inner <= width || inner % width == 0)
      return tileAndVectorize(rewriter, op, width);
    if (op.getNumLoops() > 1) {
      SmallVector<OpFoldResult> rowTiles(op.getNumLoops() - 1,
                                         rewriter.getIndexAttr(1));
      rowTiles.push_back(rewriter.getIndexAttr(0));
      FailureOr<scf::SCFTilingResult> rows = tileAndReplace(
          rewriter, op, rowTiles, scf::SCFTilingOptions::LoopType::ForOp);
      if (failed(rows))
        return op.emitOpError("could not be tiled for vectorization");
      op = cast<linalg::GenericOp>(rows->tiledOps.front());
    }
    rewriter.setInsertionPoint(op);
    auto [head, tail] = linalg::splitOp(
        rewriter, cast<TilingInterface>(op.getOperation()),
        op.getNumLoops() - 1, rewriter.getIndexAttr(inner - inner % width));
    if (!head || !tail)
      return op.emitOpError("could not be split for vectorization");
    if (failed(tileAndVectorize(
            rewriter, cast<linalg::GenericOp>(head.getOperation()), width)))
      return failure();
    return tileAndVectorize(rewriter,
                            cast<linalg::GenericOp>(tail.getOperation()),
                            width);
  }

  /// Tiles `op` by `width` along its innermost loop (its extent when
  /// smaller) and by 1 along the others, peels the innermost tile loop and
  /// vectorizes the full tiles.
  LogicalResult tileAndVectorize(IRRewriter &rewriter, linalg::GenericOp op,
                                 int64_t width) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t inner = ranges.back();
    bool reduces = hasReductionLoop(op);
    if (!ShapedType::isDynamic(inner) &&
        (inner < width || (reduces && inner <= kMaxAccumulatorLanes)))
      width = inner;
    if (width <= 0)
      return success();

    SmallVector<OpFoldResult> tileSizes(ranges.size() - 1,
                                        rewriter.getIndexAttr(1));
    tileSizes.push_back(rewriter.getIndexAttr(width));
    FailureOr<scf::SCFTilingResult> tiled = tileAndReplace(
        rewriter, op, tileSizes, scf::SCFTilingOptions::LoopType::ForOp);
    if (failed(tiled))
      return op.emitOpError("could not be tiled for vectorization");

    SmallVector<linalg::GenericOp> fullTiles;
    if (tiled->loops.empty()) {
      fullTiles.push_back(cast<linalg::GenericOp>(tiled->tiledOps.front()));
    } else {
      auto innermost = cast<scf::ForOp>(tiled->loops.back());
      scf::ForOp partial;
      // Peeling fails (harmlessly) when the trip count is a known multiple.
      if (succeeded(scf::peelForLoopAndSimplifyBounds(rewriter, innermost,
                                                      partial))) {
        // The full tiles now have static sizes behind tensor.casts: fold the
        // casts into the op so that it has static shapes.
        RewritePatternSet patterns(&getContext());
        linalg::GenericOp::getCanonicalizationPatterns(patterns,
                                                       &getContext());
        tensor::CastOp::getCanonicalizationPatterns(patterns, &getContext());
        tensor::ExtractSliceOp::getCanonicalizationPatterns(patterns,
                                                            &getContext());
        tensor::InsertSliceOp::getCanonicalizationPatterns(patterns,
                                                           &getContext());
        // Linalg's dialect-level canonicalizations fold tensor.cast
        // producers and consumers into linalg ops.
        getContext()
            .getLoadedDialect<linalg::LinalgDialect>()
            ->getCanonicalizationPatterns(patterns);
        if (failed(applyPatternsGreedily(innermost, std::move(patterns))))
          return op.emitOpError("could not simplify the peeled loop");
      }
      if (linalg::GenericOp tile = findTiledGeneric(innermost))
        fullTiles.push_back(tile);
      std::optional<APInt> trips = innermost.getStaticTripCount();
      if (tiled->loops.size() > 1 && trips &&
          trips->getZExtValue() >= uint64_t(kMinRolledRowTiles))
        qops::keepLoopRolled(innermost);
    }
    for (linalg::GenericOp tile : fullTiles) {
      if (!tile.hasPureTensorSemantics() ||
          llvm::any_of(tile.getStaticLoopRanges(), ShapedType::isDynamic) ||
          failed(linalg::vectorizeOpPrecondition(tile)))
        continue; // stays scalar
      rewriter.setInsertionPoint(tile);
      FailureOr<linalg::VectorizationResult> vectorized =
          linalg::vectorize(rewriter, tile);
      if (failed(vectorized))
        continue;
      rewriter.replaceOp(tile, vectorized->replacements);
    }
    // The accumulators of a whole-width reduction: the same subset is read
    // and written every iteration of the tile loops. Marked here, hoisted
    // after the clean-up (runOnOperation).
    if (reduces && width == inner)
      for (LoopLikeOpInterface loop : llvm::reverse(tiled->loops))
        if (isa<scf::ForOp>(loop.getOperation()))
          loop->setAttr(kHoistAccumulators, rewriter.getUnitAttr());
    return success();
  }

  /// result-tile-bytes, resolved: the option, or with -1 the configured
  /// target's (TargetInfo.h), 0 without one.
  int64_t tileBytes = 0;
  /// The tile of an op with many inputs: the i32 lanes of one of the
  /// configured target's vector registers (TargetInfo.h), or vector-width
  /// without a target (or when vector-width is smaller).
  int64_t manyInputsWidth = 0;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    std::optional<qops::ConfiguredTarget> configured =
        qops::getConfiguredTarget(func);
    tileBytes = resultTileBytes;
    if (tileBytes < 0)
      tileBytes = configured
                      ? qops::elementwiseResultTileBytes(configured->target)
                      : 0;
    manyInputsWidth = vectorWidth;
    if (configured)
      manyInputsWidth = std::min<int64_t>(
          vectorWidth, qops::vectorRegisterBits(configured->target) / 32);
    InsertedOps inserted;
    IRRewriter rewriter(&getContext(), &inserted);
    SmallVector<linalg::GenericOp> candidates;
    func.walk([&](linalg::GenericOp op) {
      if (isVectorizableElementwise(op) ||
          (hasElementwiseInnerLoop(op) &&
           collapseBroadcastUnitDims(rewriter, op) &&
           isVectorizableElementwise(op)))
        candidates.push_back(op);
    });
    for (linalg::GenericOp op : candidates)
      if (failed(vectorizeOne(rewriter, op)))
        return signalPassFailure();

    if (failed(cleanUp(func, inserted)))
      return signalPassFailure();
    // Accumulators into loop-carried vectors, innermost loop first (a
    // post-order walk), once the slices of the tiles are folded; then the
    // clean-up again for the hoisted reads and writes.
    inserted.ops.clear();
    func.walk([&](scf::ForOp loop) {
      if (loop->removeAttr(kHoistAccumulators))
        hoistLoopInvariantSubsets(rewriter, loop);
    });
    if (!inserted.ops.empty() && failed(cleanUp(func, inserted)))
      return signalPassFailure();
  }

  /// Folds the slices of the tiles, drops unit vector dims, lowers
  /// broadcast reads (permutation maps) to plain reads + broadcasts, as a
  /// greedy rewrite of the whole function would, but without visiting the
  /// loop nests the pass did not touch: the kernels' nests, lowered
  /// already and many times larger than the rest, where these patterns
  /// find nothing (visiting them was 70% of the pass's instructions for
  /// FFN12). The objects of the bench's 29 models are byte for byte the
  /// same.
  LogicalResult cleanUp(func::FuncOp func, const InsertedOps &inserted) {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    vector::populateVectorTransferDropUnitDimsPatterns(patterns);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    tensor::populateFoldTensorEmptyPatterns(patterns);
    scf::ForOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::ExtractSliceOp::getCanonicalizationPatterns(patterns, ctx);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns, ctx);
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns, ctx);
    vector::MultiDimReductionOp::getCanonicalizationPatterns(patterns, ctx);
    // First what the region driver does at the start of each iteration:
    // every constant of the function uniqued and moved to its entry (so
    // that a read's padding, ub.poison, is defined outside the tile loops,
    // which the hoisting of accumulators needs).
    hoistConstants(func);
    // Every op of the function but those inside a loop that holds nothing
    // the pass inserted (a pointer may be stale: a nested driver erases ops
    // without telling the listener, so the recorded pointers are only
    // compared): the kernels' nests, which these patterns leave as they
    // are. In the function's post-order, as the region driver adds them.
    llvm::DenseSet<Operation *> touched;
    func.walk([&](Operation *op) {
      if ((inserted.ops.contains(op) || touched.contains(op)) &&
          op->getParentOp())
        touched.insert(op->getParentOp());
    });
    llvm::DenseSet<Operation *> kept;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == func.getOperation())
        return WalkResult::advance();
      kept.insert(op);
      bool untouchedLoop = isa<LoopLikeOpInterface>(op) &&
                           !inserted.ops.contains(op) && !touched.contains(op);
      return untouchedLoop ? WalkResult::skip() : WalkResult::advance();
    });
    SmallVector<Operation *> worklist;
    func.walk([&](Operation *op) {
      if (kept.contains(op))
        worklist.push_back(op);
    });
    if (failed(applyOpPatternsGreedily(
            worklist, std::move(patterns),
            GreedyRewriteConfig().setStrictness(
                GreedyRewriteStrictness::AnyOp))))
      return failure();
    // And at its last: the constants the patterns made, in the loops.
    hoistConstants(func);
    return success();
  }

  /// Uniques the constants of `func` and moves them to its entry, in
  /// post-order, as the region driver does (OperationFolder).
  static void hoistConstants(func::FuncOp func) {
    SmallVector<Operation *> constants;
    func.walk([&](Operation *op) {
      if (op->hasTrait<OpTrait::ConstantLike>())
        constants.push_back(op);
    });
    OperationFolder folder(func.getContext());
    for (Operation *constant : constants)
      folder.insertKnownConstant(constant);
  }
};

} // namespace
