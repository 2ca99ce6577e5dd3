//===- NontemporalStores.cpp - qops-nontemporal-stores --------------------===//
//
// Large results stream to memory: a returned memref.alloc of at least
// min-bytes (returned as it is or reshaped) gets its 1-D vector writes as
// aligned non-temporal stores, unless the loop nest that writes it reads a
// buffer an earlier loop nest read (a second pass over an input).
//
// The alignment claimed must hold, or MOVNTPS faults. Byte address of a
// write into a chain of subviews of an allocation `A` aligned to 2^a:
//
//   address = A + esize * (sum_subviews sum_d offset_d * sourceStride_d
//                          + sum_d index_d * stride_d)
//
// With tz(v) the number of trailing zero bits known of v (a lower bound:
// tz(c) of a constant, tz(lb) min tz(step) of an induction variable,
// tz(a) + tz(b) of a product, tz(a) min tz(b) of a sum),
//
//   alignment = 2^min(a, log2(esize) + min over the terms of tz(term))
//
// Then a fence after the loops that hold the stores: SFENCE on x86 (the
// stores are weakly ordered), a DMB elsewhere.
//
// A result of a dynamic shape has a size known only at run time:
//
//   bytes = esize * prod(static dims) * prod(dynamic sizes of the alloc)
//
// so the loop nest that writes it is versioned, the streaming copy taken
// when bytes >= min-bytes for every such result it writes:
//
//   scf.if (bytes >= min-bytes) { nest with streaming stores; fence }
//   else { nest as it was }
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "QuantOps/Target/TargetAttr.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSNONTEMPORALSTORES
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

/// Trailing zero bits of 0, or of anything as far as alignment goes.
constexpr unsigned kAllZeros = 63;
/// The alignment given to a streamed allocation that asks for less.
constexpr int64_t kStreamAlignment = 64;

unsigned trailingZerosOf(int64_t value) {
  return value == 0 ? kAllZeros : llvm::countr_zero(uint64_t(value));
}

unsigned knownTrailingZeros(Value value);

unsigned knownTrailingZeros(OpFoldResult ofr) {
  if (std::optional<int64_t> constant = getConstantIntValue(ofr))
    return trailingZerosOf(*constant);
  return knownTrailingZeros(cast<Value>(ofr));
}

unsigned addZeros(unsigned a, unsigned b) {
  return std::min(kAllZeros, a + b);
}

/// Trailing zeros of an affine expression whose dims and symbols have
/// `operandZeros` (dims first).
unsigned knownTrailingZeros(AffineExpr expr, ArrayRef<unsigned> operandZeros,
                            unsigned numDims) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return trailingZerosOf(constant.getValue());
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return operandZeros[dim.getPosition()];
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return operandZeros[numDims + symbol.getPosition()];
  auto binary = cast<AffineBinaryOpExpr>(expr);
  unsigned lhs = knownTrailingZeros(binary.getLHS(), operandZeros, numDims);
  unsigned rhs = knownTrailingZeros(binary.getRHS(), operandZeros, numDims);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return std::min(lhs, rhs);
  case AffineExprKind::Mul:
    return addZeros(lhs, rhs);
  default: // floordiv, ceildiv, mod: nothing known
    return 0;
  }
}

/// Trailing zero bits known of an index or integer value (0: nothing).
unsigned knownTrailingZeros(Value value) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return trailingZerosOf(*constant);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<LoopLikeOpInterface>(arg.getOwner()->getParentOp());
    if (!loop)
      return 0;
    std::optional<SmallVector<Value>> ivs = loop.getLoopInductionVars();
    std::optional<SmallVector<OpFoldResult>> lbs = loop.getLoopLowerBounds();
    std::optional<SmallVector<OpFoldResult>> steps = loop.getLoopSteps();
    if (!ivs || !lbs || !steps)
      return 0;
    for (auto [iv, lb, step] : llvm::zip(*ivs, *lbs, *steps))
      if (iv == value)
        return std::min(knownTrailingZeros(lb), knownTrailingZeros(step));
    return 0; // an iter_arg
  }
  Operation *op = value.getDefiningOp();
  if (auto mul = dyn_cast<arith::MulIOp>(op))
    return addZeros(knownTrailingZeros(mul.getLhs()),
                    knownTrailingZeros(mul.getRhs()));
  if (isa<arith::AddIOp, arith::SubIOp>(op))
    return std::min(knownTrailingZeros(op->getOperand(0)),
                    knownTrailingZeros(op->getOperand(1)));
  if (auto cast = dyn_cast<arith::IndexCastOp>(op))
    return knownTrailingZeros(cast.getIn());
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
    SmallVector<unsigned> operandZeros = llvm::map_to_vector(
        apply.getMapOperands(), [](Value v) { return knownTrailingZeros(v); });
    AffineMap map = apply.getAffineMap();
    return knownTrailingZeros(map.getResult(0), operandZeros,
                              map.getNumDims());
  }
  return 0;
}

/// Trailing zeros of sum_d index_d * stride_d in `type` (0 if a stride is
/// dynamic).
unsigned knownTrailingZerosOfOffset(MemRefType type,
                                    ArrayRef<OpFoldResult> indices) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return 0;
  unsigned zeros = kAllZeros;
  for (auto [index, stride] : llvm::zip(indices, strides)) {
    if (ShapedType::isDynamic(stride))
      return 0;
    zeros = std::min(zeros, addZeros(knownTrailingZeros(index),
                                     trailingZerosOf(stride)));
  }
  return zeros;
}

/// A streamed write: its allocation and the known trailing zero bits of its
/// element offset from the allocation's start.
struct StreamTarget {
  memref::AllocOp alloc;
  unsigned offsetZeros;
};

/// The allocation under `buffer` through memref.subview, with the offset's
/// known trailing zeros accumulated into `zeros`.
std::optional<StreamTarget> findAllocation(Value buffer, unsigned zeros) {
  while (auto subview = buffer.getDefiningOp<memref::SubViewOp>()) {
    zeros = std::min(zeros, knownTrailingZerosOfOffset(
                                subview.getSourceType(),
                                subview.getMixedOffsets()));
    buffer = subview.getSource();
  }
  auto alloc = buffer.getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return std::nullopt;
  // The allocation's own layout offset (0 for an identity layout).
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(alloc.getType().getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset))
    return StreamTarget{alloc, 0};
  return StreamTarget{alloc, std::min(zeros, trailingZerosOf(offset))};
}

/// `buffer`, or a reshape of it (blocked Q/DQ write [rows, blocks, block]
/// and return [rows, columns]), is returned.
bool isReturned(Value buffer) {
  return llvm::any_of(buffer.getUsers(), [](Operation *user) {
    if (isa<func::ReturnOp>(user))
      return true;
    if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp, memref::CastOp>(
            user))
      return isReturned(user->getResult(0));
    return false;
  });
}

/// Whether a write into `alloc` streams: only into a function result with
/// whole-byte elements (the offsets are counted in elements), of at least
/// `minBytes` (Large), or of a dynamic shape (Dynamic: decided at run time).
enum class ResultSize { Small, Large, Dynamic };

ResultSize classifyResult(memref::AllocOp alloc, int64_t minBytes) {
  MemRefType type = alloc.getType();
  if (!type.getElementType().isIntOrFloat() ||
      type.getElementTypeBitWidth() % 8 != 0 || !isReturned(alloc))
    return ResultSize::Small;
  if (!type.hasStaticShape())
    return ResultSize::Dynamic;
  int64_t bytes = type.getNumElements() * (type.getElementTypeBitWidth() / 8);
  return bytes >= minBytes ? ResultSize::Large : ResultSize::Small;
}

/// `alloc`'s size in bytes at run time, built before `rewriter`'s insertion
/// point: esize * prod(static dims) * prod(dynamic sizes).
Value emitAllocationBytes(RewriterBase &rewriter, Location loc,
                          memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  int64_t staticBytes = type.getElementTypeBitWidth() / 8;
  for (int64_t size : type.getShape())
    if (!ShapedType::isDynamic(size))
      staticBytes *= size;
  Value bytes = arith::ConstantIndexOp::create(rewriter, loc, staticBytes);
  for (Value size : alloc.getDynamicSizes())
    bytes = arith::MulIOp::create(rewriter, loc, bytes, size);
  return bytes;
}

/// A write that vector.store can express: 1-D, in bounds, unmasked, minor
/// identity, into a memref whose innermost stride is 1.
bool isPlainVectorWrite(vector::TransferWriteOp write) {
  auto memrefType = dyn_cast<MemRefType>(write.getBase().getType());
  if (!memrefType || write.getMask() || write.getVectorType().getRank() != 1 ||
      !write.getPermutationMap().isMinorIdentity() ||
      !write.getInBoundsValues()[0])
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(memrefType.getStridesAndOffset(strides, offset)) &&
         !strides.empty() && strides.back() == 1;
}

/// The buffer a view (subview, reshape, cast) is taken of.
Value viewedBuffer(Value buffer) {
  while (Operation *def = buffer.getDefiningOp()) {
    if (!isa<memref::SubViewOp, memref::CollapseShapeOp,
             memref::ExpandShapeOp, memref::CastOp,
             memref::ReinterpretCastOp>(def))
      break;
    buffer = def->getOperand(0);
  }
  return buffer;
}

/// At least `minBytes`, or of a size not known here.
bool isLargeBuffer(Value buffer, int64_t minBytes) {
  auto type = cast<MemRefType>(buffer.getType());
  if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return true;
  return type.getNumElements() * type.getElementTypeBitWidth() / 8 >=
         minBytes;
}

/// The top-level ops of `func` (loop nests, mostly) that read a buffer of at
/// least `minBytes` an earlier top-level op read too: DynamicQuantizeLinear's
/// second pass over x. Their writes stay cached: part of x is still in the
/// cache from the first pass, and streaming y there measured 1.08-1.10x the
/// time at 2 threads (1.00x at 1; Zen 5, 4096 x 4096). Small buffers read
/// again (scales, zero points) do not count.
llvm::SmallPtrSet<Operation *, 4> rereadingTopLevelOps(func::FuncOp func,
                                                       int64_t minBytes) {
  llvm::SmallPtrSet<Operation *, 4> rereading;
  llvm::SmallPtrSet<Value, 8> readBefore;
  for (Operation &top : func.getBody().getOps()) {
    llvm::SmallPtrSet<Value, 8> reads;
    top.walk([&](Operation *op) {
      Value source;
      if (auto read = dyn_cast<vector::TransferReadOp>(op))
        source = read.getBase();
      else if (auto load = dyn_cast<vector::LoadOp>(op))
        source = load.getBase();
      else if (auto load = dyn_cast<memref::LoadOp>(op))
        source = load.getMemRef();
      if (!source || !isa<MemRefType>(source.getType()))
        return;
      Value buffer = viewedBuffer(source);
      if (isLargeBuffer(buffer, minBytes))
        reads.insert(buffer);
    });
    if (llvm::any_of(reads, [&](Value v) { return readBefore.contains(v); }))
      rereading.insert(&top);
    readBefore.insert(reads.begin(), reads.end());
  }
  return rereading;
}

/// The allocation a plain vector write writes into, or nullopt.
std::optional<StreamTarget> findWriteTarget(vector::TransferWriteOp write) {
  auto memrefType = cast<MemRefType>(write.getBase().getType());
  return findAllocation(write.getBase(),
                        knownTrailingZerosOfOffset(
                            memrefType, getAsOpFoldResult(write.getIndices())));
}

/// log2 of the alignment of `write`'s address once its allocation is
/// aligned to at least kStreamAlignment.
unsigned provenAlignmentZeros(vector::TransferWriteOp write,
                              const StreamTarget &target) {
  auto memrefType = cast<MemRefType>(write.getBase().getType());
  memref::AllocOp alloc = target.alloc;
  unsigned allocZeros = llvm::Log2_64(std::max<uint64_t>(
      alloc.getAlignment().value_or(0), kStreamAlignment));
  unsigned elementZeros =
      trailingZerosOf(memrefType.getElementTypeBitWidth() / 8);
  return std::min(allocZeros, addZeros(elementZeros, target.offsetZeros));
}

/// Whether `write`'s address is proved aligned to its vector's size (at
/// most kStreamAlignment): a whole MOVNTPS / VMOVNTDQ, not the 8-byte
/// MOVNTI pieces LLVM splits a less aligned streaming store into. Required
/// for a dynamic shape, whose inner dims usually leave the rows' alignment
/// unknown (a ?x? result); the versioning would not pay there.
bool isVectorAligned(vector::TransferWriteOp write,
                     const StreamTarget &target) {
  VectorType type = write.getVectorType();
  int64_t bytes = type.getNumElements() * type.getElementTypeBitWidth() / 8;
  return (uint64_t(1) << provenAlignmentZeros(write, target)) >=
         uint64_t(std::min(bytes, kStreamAlignment));
}

/// Replaces `write` into `target` by an aligned non-temporal vector.store
/// (raising the allocation's alignment to kStreamAlignment); returns it.
Operation *streamWrite(RewriterBase &rewriter, vector::TransferWriteOp write,
                       const StreamTarget &target) {
  unsigned zeros = provenAlignmentZeros(write, target);
  memref::AllocOp alloc = target.alloc;
  if (alloc.getAlignment().value_or(0) < kStreamAlignment)
    alloc.setAlignment(kStreamAlignment);
  rewriter.setInsertionPoint(write);
  Operation *store = vector::StoreOp::create(
      rewriter, write.getLoc(), write.getVector(), write.getBase(),
      write.getIndices(), /*nontemporal=*/true,
      llvm::Align(uint64_t(1) << zeros));
  rewriter.eraseOp(write);
  return store;
}

struct QOpsNontemporalStoresPass
    : public qops::impl::QOpsNontemporalStoresBase<QOpsNontemporalStoresPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<vector::TransferWriteOp> writes;
    func.walk([&](vector::TransferWriteOp write) {
      if (isPlainVectorWrite(write))
        writes.push_back(write);
    });
    IRRewriter rewriter(&getContext());
    llvm::SetVector<Operation *> fenceAfter;
    llvm::SmallPtrSet<Operation *, 4> rereading = rereadingTopLevelOps(func, minBytes);
    auto outermostOf = [&](Operation *op) {
      while (op->getParentOp() != func)
        op = op->getParentOp();
      return op;
    };
    // Writes into results of a dynamic shape with their targets, by the
    // top-level op (loop nest) that holds them: versioned below.
    llvm::MapVector<Operation *,
                    SmallVector<std::pair<vector::TransferWriteOp, StreamTarget>>>
        dynamicWrites;
    for (vector::TransferWriteOp write : writes) {
      Operation *top = outermostOf(write);
      if (rereading.contains(top))
        continue;
      std::optional<StreamTarget> target = findWriteTarget(write);
      if (!target)
        continue;
      switch (classifyResult(target->alloc, minBytes)) {
      case ResultSize::Small:
        continue;
      case ResultSize::Dynamic:
        if (isVectorAligned(write, *target))
          dynamicWrites[top].push_back({write, *target});
        continue;
      case ResultSize::Large:
        // The outermost op of the function that holds the store (the
        // write itself may have been that op).
        fenceAfter.insert(outermostOf(streamWrite(rewriter, write, *target)));
        continue;
      }
    }
    for (auto &[top, topWrites] : dynamicWrites) {
      // A nest that yields values would need them through the scf.if.
      if (top->getNumResults() != 0)
        continue;
      Location loc = top->getLoc();
      rewriter.setInsertionPoint(top);
      llvm::SetVector<Operation *> allocs;
      for (auto &[write, target] : topWrites)
        allocs.insert(target.alloc);
      Value minimum = arith::ConstantIndexOp::create(rewriter, loc, minBytes);
      Value large;
      for (Operation *alloc : allocs) {
        Value bytes =
            emitAllocationBytes(rewriter, loc, cast<memref::AllocOp>(alloc));
        Value isLarge = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::uge, bytes, minimum);
        large = large ? arith::AndIOp::create(rewriter, loc, large, isLarge)
                            .getResult()
                      : isLarge;
      }
      auto version = scf::IfOp::create(rewriter, loc, large,
                                       /*withElseRegion=*/true);
      rewriter.setInsertionPoint(version.thenBlock()->getTerminator());
      IRMapping mapping;
      rewriter.clone(*top, mapping);
      rewriter.moveOpBefore(top, version.elseBlock()->getTerminator());
      // The copy writes the same allocation (defined before the nest) at
      // the same offsets: the original's target holds for it.
      for (auto &[write, target] : topWrites)
        streamWrite(rewriter,
                    cast<vector::TransferWriteOp>(mapping.lookup(write)),
                    target);
      // The copied nest may have been a write itself, now erased: the
      // fence goes at the end of the branch.
      rewriter.setInsertionPoint(version.thenBlock()->getTerminator());
      emitFence(rewriter, loc);
    }
    for (Operation *op : fenceAfter) {
      rewriter.setInsertionPointAfter(op);
      emitFence(rewriter, op->getLoc());
    }
  }

  /// Orders the streaming stores before later stores.
  void emitFence(RewriterBase &rewriter, Location loc) {
    // The option, else the configured module's (qops-configure-target).
    llvm::Triple triple(qops::getTripleFor(getOperation(), targetTriple));
    if (triple.isX86())
      LLVM::CallIntrinsicOp::create(
          rewriter, loc, rewriter.getStringAttr("llvm.x86.sse.sfence"),
          ValueRange{}, LLVM::FastmathFlagsAttr{});
    else
      LLVM::FenceOp::create(rewriter, loc, LLVM::AtomicOrdering::seq_cst);
  }
};

} // namespace
