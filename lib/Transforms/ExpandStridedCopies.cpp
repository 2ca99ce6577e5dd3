//===- ExpandStridedCopies.cpp - qops-expand-strided-copies ---------------===//
//
// memref.copy between buffers that are not both contiguous (padding,
// slicing, the convolutions' patches), instead of a call to the C runner's
// element-by-element memrefCopy:
//
// rows: when both innermost strides are 1 and the innermost size D is
// static, loops over the outer dims copy each row as vectors of W = min(D,
// kRowVectorBytes / element bytes) elements (the last one masked when W
// does not divide D):
//
//   scf.for %i0 = 0 to d0 { .. scf.for %j = 0 to D step W {
//     %v = vector.transfer_read %src[%i0, .., %j], %pad : vector<WxT>
//     vector.transfer_write %v, %dst[%i0, .., %j]
//   } .. } {loop_annotation = #llvm.loop_annotation<unroll = <disable>>}
//
// LLVM does not vectorize the scalar form of such copies itself: it cannot
// tell that the two buffers do not overlap (measured: a 3x3 convolution's
// nine tap copies ran byte by byte, 40% of its time). The outer loops of
// rows of at least kRowVectorBytes (and the transposes' loops below) carry
// llvm.loop.unroll.disable (keepLoopRolled, LoopAnnotations.h); the row's
// loop of D / W vectors does not, nor do the loops over shorter rows,
// whose copies are short enough for LLVM's partial unrolling to pay.
//
// otherwise: linalg.copy (loops after convert-linalg-to-loops).
//
// It also expands linalg.transpose of 8-, 16- and 32-bit elements that
// swaps two groups of trailing dims (perm [0, .., a - 1, b, .., r - 1, a,
// .., b - 1]; the convolutions' NCHW <-> NHWC) into blocks transposed in
// registers, when each group collapses to one dim of a static size that
// the block size n divides (n = 16 bytes for 8-bit, 8 elements otherwise):
//
//   src [.., R, C] (collapsed), dst [.., C, R]:
//   scf.for %c0 = 0 to C step n { scf.for %r0 = 0 to R step n {
//     row_i = vector.transfer_read src[.., r0 + i, c0] : vector<n x T>
//     log2(n) rounds: out[2i]     = shuffle(in[i], in[i + n/2], lo)
//                     out[2i + 1] = shuffle(in[i], in[i + n/2], hi)
//     vector.transfer_write out_j, dst[.., c0 + j, r0]
//   } }
//
// (lo: lanes 0, n, 1, n + 1, .. of the two rows interleaved; hi: the
// upper halves; x86: punpckl/punpckh). The scalar loops LLVM makes of the
// transpose otherwise gather one element per two instructions.
//
// With `parallel`, the outermost loop of a copy or transpose that is not
// inside a parallel loop already (and whose extent is not statically 1)
// is an scf.forall: distributed over the threads (a transpose's column
// blocks, each writing whole rows of dst, when its leading dims are 1: its
// row blocks wrote parts of the same dst lines from both threads, and a
// QLinearConv 3x3 stride 2 of 64 x 56 x 56, whose NCHW -> NHWC transpose
// that was, ran slower on 2 threads than on 1; Xeon with AMX).
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"
#include "QuantOps/Utils/LoopAnnotations.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSEXPANDSTRIDEDCOPIES
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

/// The bytes of one row vector: a zmm register.
constexpr int64_t kRowVectorBytes = 64;

/// An identity layout (any shape) or a static strided one that is row-major
/// contiguous anyway.
bool isContiguous(Value buffer) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  return type && (type.getLayout().isIdentity() ||
                  memref::isStaticShapeAndContiguousRowMajor(type));
}

/// Whether `type`'s innermost stride is 1.
bool hasUnitInnerStride(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         strides.back() == 1;
}

/// Whether `op` runs inside a parallel loop (a thread's part of one).
bool isInsideParallelLoop(Operation *op) {
  return op->getParentOfType<scf::ForallOp>() ||
         op->getParentOfType<scf::ParallelOp>();
}

/// A loop from 0 to `upper` by `step` whose body `body` builds (given the
/// induction variable): scf.for (with `rolled`, kept rolled:
/// keepLoopRolled), or scf.forall when `distribute`. LLVM fully unrolls a
/// copy loop of a static trip count otherwise: a stride-2 3x3
/// convolution's nine taps of 28 pixels became one block of 252 copies,
/// on which the machine schedulers spent most of its JIT time (Zen 3:
/// QLinearConv 1x64x56x56 3x3 stride 2, JIT 1.26 s -> 0.20 s). A copy
/// gains nothing from it: loads and stores bound it.
void emitLoop(OpBuilder &b, Location loc, Value upper, Value step,
              bool distribute, bool rolled,
              function_ref<void(OpBuilder &, Location, Value)> body) {
  if (!distribute) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    auto loop = scf::ForOp::create(
        b, loc, zero, upper, step, ValueRange{},
        [&](OpBuilder &b, Location l, Value iv, ValueRange) {
          body(b, l, iv);
          scf::YieldOp::create(b, l);
        });
    if (rolled)
      qops::keepLoopRolled(loop);
    return;
  }
  auto forall = scf::ForallOp::create(
      b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{upper}, ArrayRef<OpFoldResult>{step},
      ValueRange{}, std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forall.getBody());
  body(b, loc, forall.getInductionVar(0));
}

/// The row-vector copy of the file comment, or failure (nothing built)
/// when the rows are not contiguous or D is dynamic.
LogicalResult emitRowCopy(IRRewriter &rewriter, memref::CopyOp copy,
                          bool parallel) {
  auto source = cast<MemRefType>(copy.getSource().getType());
  auto target = cast<MemRefType>(copy.getTarget().getType());
  int64_t rank = source.getRank();
  int64_t rowSize = source.getDimSize(rank - 1);
  Type element = source.getElementType();
  // Whole-byte elements only: an i1 memref holds a byte per element, a
  // vector<Nxi1> load would read bits.
  if (ShapedType::isDynamic(rowSize) || rowSize == 0 ||
      !element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0 ||
      !hasUnitInnerStride(source) || !hasUnitInnerStride(target))
    return failure();
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  int64_t width = std::min(rowSize, std::max<int64_t>(1, kRowVectorBytes / bytes));
  bool inBounds = rowSize % width == 0;
  Location loc = copy.getLoc();
  rewriter.setInsertionPoint(copy);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value pad = arith::ConstantOp::create(rewriter, loc,
                                        rewriter.getZeroAttr(element));
  auto vectorType = VectorType::get({width}, element);
  // The distributed loop: the outermost outer dim not statically 1.
  int64_t distributed = -1;
  if (parallel && !isInsideParallelLoop(copy))
    for (int64_t d = 0; d + 1 < rank && distributed < 0; ++d)
      if (source.getDimSize(d) != 1)
        distributed = d;
  SmallVector<Value> indices;
  std::function<void(OpBuilder &, Location, int64_t)> nest =
      [&](OpBuilder &b, Location l, int64_t dim) {
        bool inner = dim == rank - 1;
        Value upper = inner ? arith::ConstantIndexOp::create(b, l, rowSize)
                                  .getResult()
                            : memref::DimOp::create(b, l, copy.getSource(),
                                                    dim)
                                  .getResult();
        Value step =
            inner ? arith::ConstantIndexOp::create(b, l, width).getResult()
                  : one;
        // The outer loops over full-vector rows stay loops; the row's few
        // vectors may unroll (see the file comment).
        emitLoop(b, l, upper, step, dim == distributed,
                 /*rolled=*/!inner && rowSize * bytes >= kRowVectorBytes,
                 [&](OpBuilder &b, Location l, Value iv) {
                   indices.push_back(iv);
                   if (inner) {
                     Value row = vector::TransferReadOp::create(
                         b, l, vectorType, copy.getSource(), indices, pad,
                         ArrayRef<bool>{inBounds});
                     vector::TransferWriteOp::create(
                         b, l, row, copy.getTarget(), indices,
                         ArrayRef<bool>{inBounds});
                   } else {
                     nest(b, l, dim + 1);
                   }
                   indices.pop_back();
                 });
      };
  nest(rewriter, loc, 0);
  rewriter.eraseOp(copy);
  return success();
}

/// The rows of an n x n block, transposed (see the file comment).
SmallVector<Value> transposeBlock(OpBuilder &b, Location loc,
                                  SmallVector<Value> rows) {
  int64_t n = rows.size();
  SmallVector<int64_t> lo, hi;
  for (int64_t i = 0; i < n / 2; ++i) {
    lo.append({i, n + i});
    hi.append({n / 2 + i, n + n / 2 + i});
  }
  for (int64_t round = 1; round < n; round *= 2) {
    SmallVector<Value> next(n);
    for (int64_t i = 0; i < n / 2; ++i) {
      next[2 * i] =
          vector::ShuffleOp::create(b, loc, rows[i], rows[i + n / 2], lo);
      next[2 * i + 1] =
          vector::ShuffleOp::create(b, loc, rows[i], rows[i + n / 2], hi);
    }
    rows = std::move(next);
  }
  return rows;
}

/// `value` with its dims grouped by `groups` (memref.collapse_shape), or
/// null when they do not collapse.
Value collapse(OpBuilder &b, Location loc, Value value,
               ArrayRef<ReassociationIndices> groups) {
  auto type = cast<MemRefType>(value.getType());
  if (!memref::CollapseShapeOp::isGuaranteedCollapsible(type, groups))
    return {};
  return memref::CollapseShapeOp::create(b, loc, value, groups);
}

/// The block transpose of the file comment, or failure (nothing built).
LogicalResult emitBlockTranspose(IRRewriter &rewriter, linalg::TransposeOp op,
                                 bool parallel) {
  if (!op.hasPureBufferSemantics())
    return failure();
  Value source = op.getInput(), target = op.getInit();
  auto sourceType = cast<MemRefType>(source.getType());
  Type element = sourceType.getElementType();
  unsigned bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
  if (bits != 8 && bits != 16 && bits != 32)
    return failure();
  int64_t n = bits == 8 ? 16 : 8;
  // perm = [0, .., a - 1, b, .., r - 1, a, .., b - 1]
  ArrayRef<int64_t> perm = op.getPermutation();
  int64_t rank = perm.size(), a = 0;
  while (a < rank && perm[a] == a)
    ++a;
  if (a >= rank - 1)
    return failure();
  int64_t b = perm[a];
  for (int64_t i = a; i < rank; ++i)
    if (perm[i] != (i - a < rank - b ? b + (i - a) : a + (i - a) - (rank - b)))
      return failure();
  auto group = [](int64_t begin, int64_t end) {
    return ReassociationIndices(llvm::to_vector(llvm::seq(begin, end)));
  };
  SmallVector<ReassociationIndices> sourceGroups, targetGroups;
  for (int64_t i = 0; i < a; ++i) {
    sourceGroups.push_back({i});
    targetGroups.push_back({i});
  }
  sourceGroups.append({group(a, b), group(b, rank)});
  targetGroups.append({group(a, a + rank - b), group(a + rank - b, rank)});
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  auto sizeOf = [&](ArrayRef<int64_t> dims) {
    int64_t size = 1;
    for (int64_t d : dims)
      size = ShapedType::isDynamic(size) || ShapedType::isDynamic(d)
                 ? ShapedType::kDynamic
                 : size * d;
    return size;
  };
  int64_t rows = sizeOf(sourceType.getShape().slice(a, b - a));
  int64_t columns = sizeOf(sourceType.getShape().drop_front(b));
  if (ShapedType::isDynamic(rows) || ShapedType::isDynamic(columns) ||
      rows % n != 0 || columns % n != 0)
    return failure();
  Value src = collapse(rewriter, loc, source, sourceGroups);
  Value dst = src ? collapse(rewriter, loc, target, targetGroups) : Value();
  if (!src || !dst) {
    // Nothing uses a collapse that was built.
    if (src)
      rewriter.eraseOp(src.getDefiningOp());
    return failure();
  }
  auto rowType = VectorType::get({n}, element);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value step = arith::ConstantIndexOp::create(rewriter, loc, n);
  // The distributed loop: the outermost leading dim not statically 1, else
  // the row blocks.
  int64_t distributed = -1;
  if (parallel && !isInsideParallelLoop(op)) {
    distributed = a;
    for (int64_t d = 0; d < a && distributed == a; ++d)
      if (sourceType.getDimSize(d) != 1)
        distributed = d;
  }
  Value pad =
      arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
  SmallVector<Value> outer;
  std::function<void(OpBuilder &, Location, int64_t)> nest =
      [&](OpBuilder &b, Location l, int64_t dim) {
        if (dim < a) {
          Value upper = memref::DimOp::create(b, l, src, dim);
          emitLoop(b, l, upper, one, dim == distributed, /*rolled=*/true,
                   [&](OpBuilder &b, Location l, Value iv) {
                     outer.push_back(iv);
                     nest(b, l, dim + 1);
                     outer.pop_back();
                   });
          return;
        }
        auto blockLoop = [&](OpBuilder &b, Location l, int64_t size,
                             bool distribute,
                             function_ref<void(OpBuilder &, Location, Value)>
                                 body) {
          emitLoop(b, l, arith::ConstantIndexOp::create(b, l, size), step,
                   distribute, /*rolled=*/true, body);
        };
        // Column blocks outermost: each writes n whole rows of dst (with
        // row blocks outermost, threads wrote n-element pieces of the same
        // dst rows, sharing their cache lines).
        blockLoop(b, l, columns, distributed == a,
                  [&](OpBuilder &b, Location l, Value c0) {
          blockLoop(b, l, rows, false,
                    [&](OpBuilder &b, Location l, Value r0) {
            auto at = [&](Value first, int64_t offset, Value second) {
              SmallVector<Value> indices(outer);
              indices.push_back(arith::AddIOp::create(
                  b, l, first, arith::ConstantIndexOp::create(b, l, offset)));
              indices.push_back(second);
              return indices;
            };
            SmallVector<Value> block;
            for (int64_t i = 0; i < n; ++i)
              block.push_back(vector::TransferReadOp::create(
                  b, l, rowType, src, at(r0, i, c0), pad,
                  ArrayRef<bool>{true}));
            block = transposeBlock(b, l, block);
            for (int64_t j = 0; j < n; ++j)
              vector::TransferWriteOp::create(b, l, block[j], dst,
                                              at(c0, j, r0),
                                              ArrayRef<bool>{true});
          });
        });
      };
  nest(rewriter, loc, 0);
  rewriter.eraseOp(op);
  return success();
}

struct QOpsExpandStridedCopiesPass
    : public qops::impl::QOpsExpandStridedCopiesBase<
          QOpsExpandStridedCopiesPass> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      if (isContiguous(copy.getSource()) && isContiguous(copy.getTarget()))
        return;
      auto sourceType = dyn_cast<MemRefType>(copy.getSource().getType());
      if (!sourceType || sourceType.getRank() == 0)
        return;
      copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      if (succeeded(emitRowCopy(rewriter, copy, parallel)))
        continue;
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    }
    SmallVector<linalg::TransposeOp> transposes;
    getOperation().walk(
        [&](linalg::TransposeOp op) { transposes.push_back(op); });
    for (linalg::TransposeOp op : transposes)
      (void)emitBlockTranspose(rewriter, op, parallel);
  }
};

} // namespace
