//===- DecomposeConvolutions.cpp - ConvInteger / QLinearConv as matmuls ---===//
//
// The decompose stage for the convolutions (NCHW, S = 1..3 spatial dims,
// group G): each becomes one qkernel.matmul, in one of three forms chosen
// by the shapes (Cg = C / G, Mg = M / G, K.. the kernel, P = prod(o), xp
// x padded with x_zero_point, so that a padded tap adds 0), or, depthwise
// (G = C = M, at most 64 taps), the direct form of DepthwiseConvolution.cpp
// (one elementwise op summing the taps, no matmul):
//
// pixel rows (G = 1): x made channels-last (xt, NHWC), the pixels' patches
// as a, the weights transposed as b, so that a constant w is the kernels'
// constant b (packed once, as QLinearMatMul's weights):
//   a[(n, o..), (k.., c)] = xtp[n, o s + k d, c]       [N P, K.. C]
//   b[(k.., c), m]        = w[m, c, k..]               [K.. C, M]
//   y[n, m, o..]          = p[(n, o..), m]             (a transpose)
//   x's zero point and scale are a's (per tensor), w's are b's (per
//   column), the bias y's per column.
//
// pointwise (a 1x1 convolution of one image, unit strides, no padding):
//   a = w [M, C], b = x [C, H W], y = p reshaped: no patches, no transposes.
//
// dense groups (1 < G <= kMaxDenseGroupsAmx / kMaxDenseGroupsVnni, Cg > 1,
// under the amx and vnni strategies, whose byte products are cheap): one
// pixel-rows (or pointwise) convolution of all C channels with the weights
// made block-diagonal, the blocks off the diagonal w's zero point:
//   wd[m, c, k..] = w[m, c - g Cg, k..]  where c / Cg = m / Mg = g,
//                   w_zp[m] (or 0) elsewhere
// (wd - w_zp = 0 across groups: the same sums; G times the multiply-adds,
// one kernel instead of G).
//
// split groups (1 < G <= kMaxSplitGroups, Cg > 1, not depthwise): G
// convolutions of one group each (x's channels [g Cg, (g + 1) Cg), w's rows
// [g Mg, (g + 1) Mg) and the matching slices of w's per-channel parameters,
// the bias and the dequantize clause), each its pixel-rows (or pointwise)
// form, inserted at y's channels [g Mg, (g + 1) Mg): each group runs the
// int8 kernel with its constant weights packed once, on every thread.
//
// grouped (any other G > 1): the images side by side in b's columns:
//   a[g, m', (c, k..)]       = w[g Mg + m', c, k..]      [G, Mg, Cg K..]
//   b[g, (c, k..), (n, o..)] = xp[n, g Cg + c, o s + k d] [G, Cg K.., N P]
//   y[n, g Mg + m', o..]     = p[g, m', (n, o..)]  (a transpose unless N = 1)
//   w's parameters and the bias are per row ([G, Mg, 1]).
//
// In every form acc = sum (a - a_zp)(b - b_zp) [+ bias] and the
// requantization is QLinearMatMul's (x_scale * w_scale / y_scale: the
// product of two f32 commutes exactly). ConvInteger's fused dequantize
// clause (y = f32(acc) * scale[m] + offset[m]) goes to qkernel.matmul as a
// per-output-channel parameter, like w's scale: per column (pixel rows) or
// per row (pointwise, grouped).
//
// The patches and reshapes are data movement on the storage types
// (builtin.unrealized_conversion_cast bridges, which the type conversion
// folds): the ONNX types stay on qkernel.matmul's operands.
//
// Not yet: dynamic spatial sizes (the op is left with an error; the batch
// may be dynamic).
//
//===----------------------------------------------------------------------===//

#include "ConvolutionForms.h"
#include "TileLoops.h"
#include "TuningTable.h"
#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"
#include "QuantOps/Conversion/QOpsToLinalg/QuantMath.h"

#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::qops;

namespace mlir::qops::conv {

RankedTensorType rankedType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// `value` as `type` through a storage cast (the identity when equal).
Value castTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return UnrealizedConversionCastOp::create(b, loc, type, value).getResult(0);
}

/// The sizes of `value`'s type, a tensor.dim where dynamic.
static SmallVector<OpFoldResult> mixedSizes(OpBuilder &b, Location loc,
                                             Value value) {
  return tensor::getMixedSizes(b, loc, value);
}

/// The dims begin .. end - 1, as one reassociation group.
ReassociationIndices dimRange(int64_t begin, int64_t end) {
  return llvm::to_vector(llvm::seq<int64_t>(begin, end));
}

/// A reshape of `value` (storage or ONNX typed) into `shape`, by
/// `reassociation` (collapse when `shape` has fewer dims, else expand).
Value reshape(OpBuilder &b, Location loc, Value value, Type onnxElement,
              ArrayRef<int64_t> shape,
              ArrayRef<ReassociationIndices> reassociation) {
  Value storage = castToStorage(b, loc, value);
  RankedTensorType in = rankedType(storage);
  auto out = RankedTensorType::get(shape, in.getElementType());
  Value result =
      in == out ? storage
      : static_cast<int64_t>(shape.size()) < in.getRank()
          ? tensor::CollapseShapeOp::create(b, loc, out, storage,
                                            reassociation)
                .getResult()
          : tensor::ExpandShapeOp::create(b, loc, out, storage, reassociation)
                .getResult();
  return castTo(b, loc, result, RankedTensorType::get(shape, onnxElement));
}

/// `x` (storage, NCHW or, `channelsLast`, NHWC) padded on its spatial
/// dims with x's zero point, or `x` when no pad is > 0.
static Value padSpatial(OpBuilder &b, Location loc, const Convolution &c, Value x,
                 bool channelsLast) {
  if (llvm::all_of(c.pads, [](int64_t p) { return p == 0; }))
    return x;
  RankedTensorType type = rankedType(x);
  int64_t spatial = type.getRank() - 2, first = channelsLast ? 1 : 2;
  Value padValue;
  if (c.xZeroPoint) {
    Value zp = castToStorage(b, loc, c.xZeroPoint);
    SmallVector<Value> zeros(rankedType(zp).getRank(),
                             arith::ConstantIndexOp::create(b, loc, 0));
    padValue = tensor::ExtractOp::create(b, loc, zp, zeros);
  } else {
    padValue = arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(type.getElementType(), 0));
  }
  SmallVector<OpFoldResult> low(type.getRank(), b.getIndexAttr(0)),
      high = low;
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t i = 0; i < spatial; ++i) {
    low[first + i] = b.getIndexAttr(c.pads[i]);
    high[first + i] = b.getIndexAttr(c.pads[spatial + i]);
    if (!ShapedType::isDynamic(shape[first + i]))
      shape[first + i] += c.pads[i] + c.pads[spatial + i];
  }
  return tensor::PadOp::create(b, loc, type.clone(shape), x, low, high,
                               padValue)
      .getResult();
}

/// x (NCHW) padded with its zero point, in storage.
Value padInput(OpBuilder &b, Location loc, const Convolution &c) {
  return padSpatial(b, loc, c, castToStorage(b, loc, c.x), false);
}

/// The kernel tap number `tap` (row-major over `kernel`) as its offsets
/// k.. in each spatial dimension.
SmallVector<int64_t> kernelTap(int64_t tap, ArrayRef<int64_t> kernel) {
  SmallVector<int64_t> k(kernel.size());
  for (int64_t i = kernel.size() - 1; i >= 0; --i) {
    k[i] = tap % kernel[i];
    tap /= kernel[i];
  }
  return k;
}

OpFoldResult scaleOffset(OpBuilder &b, Location loc, OpFoldResult offset,
                         int64_t factor) {
  if (factor == 1)
    return offset;
  return affine::makeComposedFoldedAffineApply(
      b, loc, b.getAffineDimExpr(0) * factor, {offset});
}

Value forEachTap(
    OpBuilder &b, Location loc, ArrayRef<int64_t> kernel, Value slice,
    llvm::function_ref<Value(OpBuilder &, Location, ArrayRef<OpFoldResult>,
                             Value)>
        body) {
  // The tap's offsets: constants for a constant tap (folded), else one
  // affine.apply each.
  auto offsetsOf = [&](OpBuilder &b, Location l, OpFoldResult tap) {
    SmallVector<OpFoldResult> k(kernel.size());
    int64_t inner = 1;
    for (int64_t i = kernel.size() - 1; i >= 0; --i) {
      AffineExpr t = b.getAffineDimExpr(0).floorDiv(inner);
      k[i] = affine::makeComposedFoldedAffineApply(
          b, l, i == 0 ? t : t % kernel[i], {tap});
      inner *= kernel[i];
    }
    return k;
  };
  int64_t taps = llvm::product_of(kernel);
  if (taps <= kMaxUnrolledTaps) {
    for (int64_t tap = 0; tap < taps; ++tap)
      slice = body(b, loc, offsetsOf(b, loc, b.getIndexAttr(tap)), slice);
    return slice;
  }
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value count = arith::ConstantIndexOp::create(b, loc, taps);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, zero, count, one, ValueRange{slice},
      [&](OpBuilder &b, Location l, Value tap, ValueRange carried) {
        scf::YieldOp::create(
            b, l, body(b, l, offsetsOf(b, l, tap), carried.front()));
      });
  return loop.getResult(0);
}

} // namespace mlir::qops::conv

using namespace mlir::qops::conv;

namespace {

/// A per-output-channel parameter ([M] or one element) reshaped to `shape`
/// (a form's per-row shape: [M, 1], [G, Mg, 1]; w's parameters, the
/// bias, the dequantize clause), or as it is when it has
/// one element or is null.
Value channelParam(OpBuilder &b, Location loc, Value param,
                   ArrayRef<int64_t> shape) {
  if (!param || rankedType(param).getNumElements() == 1)
    return param;
  return reshape(b, loc, param, rankedType(param).getElementType(), shape,
                 {dimRange(0, shape.size())});
}

/// b of the grouped form: the patches of x, [G, Cg, K.., N, o..] in
/// storage, as [G, Kg, N P], ONNX typed; written one channel (g, c) at a
/// time by a nest that qops-distribute gives to threads as it is
/// (emitSliceNest: one parallel region for all the taps), each kernel tap k
/// (K.. unrolled) one copy whose innermost dim is the output row
/// (contiguous on both sides for unit strides, so that
/// qops-vectorize-elementwise makes it vector loads and stores):
///   xg = tensor.expand_shape xp [N, C, D..] -> [N, G, Cg, D..]
///   scf.for %g, %c (qkernel.parallel_loops) slice [1, 1, K.., N, o..]
///     for each tap k:
///       src = tensor.extract_slice xg[0, %g, %c, k d..] [N, 1, 1, o..]
///                                                       [1, 1, 1, s..]
///       dst = tensor.extract_slice slice[0, 0, k.., 0, 0..]
///                                  [1, 1, 1.., N, o..] (rank-reduced)
///       slice = tensor.insert_slice (linalg.generic
///         ins(src: (g, c, n, o..) -> (n, g, c, o..)) outs(dst))
/// (a permutation map: qops-vectorize-elementwise takes it).
Value emitPatches(OpBuilder &b, Location loc, const Convolution &c,
                  ArrayRef<int64_t> outSizes) {
  RankedTensorType wType = rankedType(c.w);
  int64_t spatial = wType.getRank() - 2;
  int64_t cg = wType.getDimSize(1);
  ArrayRef<int64_t> kernel = wType.getShape().drop_front(2);
  Value xp = padInput(b, loc, c);
  OpFoldResult n = mixedSizes(b, loc, xp)[0];
  Type storage = rankedType(xp).getElementType();
  {
    SmallVector<int64_t> grouped(rankedType(xp).getShape());
    grouped[1] = cg;
    grouped.insert(grouped.begin() + 1, c.group);
    SmallVector<ReassociationIndices> groups = {{0}, {1, 2}};
    for (int64_t i = 0; i < spatial; ++i)
      groups.push_back({3 + i});
    xp = reshape(b, loc, xp, storage, grouped, groups);
  }
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(c.group),
                                     b.getIndexAttr(cg)};
  for (int64_t k : kernel)
    sizes.push_back(b.getIndexAttr(k));
  sizes.push_back(n);
  for (int64_t o : outSizes)
    sizes.push_back(b.getIndexAttr(o));
  Value patches = tensor::EmptyOp::create(b, loc, sizes, storage);
  int64_t rank = 3 + 2 * spatial;
  // The window of one tap of one channel [N, 1, 1, o..] and its place
  // [1, 1, N, o..].
  int64_t batch = rankedType(xp).getDimSize(0);
  SmallVector<int64_t> windowShape = {batch, 1, 1};
  windowShape.append(outSizes.begin(), outSizes.end());
  SmallVector<int64_t> placeShape = {1, 1, batch};
  placeShape.append(outSizes.begin(), outSizes.end());
  auto windowType = RankedTensorType::get(windowShape, storage);
  auto placeType = RankedTensorType::get(placeShape, storage);
  MLIRContext *ctx = b.getContext();
  int64_t placeRank = placeShape.size();
  SmallVector<AffineExpr> in = {getAffineDimExpr(2, ctx),
                                getAffineDimExpr(0, ctx),
                                getAffineDimExpr(1, ctx)};
  for (int64_t i = 0; i < spatial; ++i)
    in.push_back(getAffineDimExpr(3 + i, ctx));
  SmallVector<AffineMap> maps = {AffineMap::get(placeRank, 0, in, ctx),
                                 b.getMultiDimIdentityMap(placeRank)};
  SmallVector<utils::IteratorType> iterators(placeRank,
                                             utils::IteratorType::parallel);
  auto emitChannel = [&](OpBuilder &b, Location l, Value g, Value channel,
                         Value slice) {
    OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
    SmallVector<OpFoldResult> unitStrides(rank, one);
    auto copyTap = [&](OpBuilder &b, Location l, ArrayRef<OpFoldResult> k,
                       Value slice) -> Value {
      SmallVector<OpFoldResult> srcOffsets = {zero, g, channel},
                                srcStrides(3, one),
                                windowSizes = {n, one, one};
      for (int64_t i = 0; i < spatial; ++i) {
        srcOffsets.push_back(scaleOffset(b, l, k[i], c.dilations[i]));
        srcStrides.push_back(b.getIndexAttr(c.strides[i]));
        windowSizes.push_back(b.getIndexAttr(outSizes[i]));
      }
      Value src = tensor::ExtractSliceOp::create(b, l, windowType, xp,
                                                 srcOffsets, windowSizes,
                                                 srcStrides);
      SmallVector<OpFoldResult> dstOffsets(2, zero), dstSizes = {one, one};
      for (int64_t i = 0; i < spatial; ++i) {
        dstOffsets.push_back(k[i]);
        dstSizes.push_back(one);
      }
      dstOffsets.append(1 + spatial, zero);
      dstSizes.push_back(n);
      for (int64_t o : outSizes)
        dstSizes.push_back(b.getIndexAttr(o));
      Value dst = tensor::ExtractSliceOp::create(
          b, l, placeType, slice, dstOffsets, dstSizes, unitStrides);
      Value copy = linalg::GenericOp::create(
                       b, l, placeType, ValueRange{src}, ValueRange{dst},
                       maps, iterators,
                       [](OpBuilder &b, Location loc, ValueRange args) {
                         linalg::YieldOp::create(b, loc, args[0]);
                       })
                       .getResult(0);
      return tensor::InsertSliceOp::create(b, l, copy, slice, dstOffsets,
                                           dstSizes, unitStrides);
    };
    return forEachTap(b, l, kernel, slice, copyTap);
  };
  patches = emitSliceNest(b, loc, patches, sizes, emitChannel);
  // [G, Cg, K.., N, o..] -> [G, Kg, N P].
  ReassociationIndices kDims = dimRange(1, 2 + spatial),
                       columns = dimRange(2 + spatial, rank);
  int64_t kg = cg * llvm::product_of(kernel);
  int64_t np =
      ShapedType::isDynamic(batch) ? batch : batch * llvm::product_of(outSizes);
  return reshape(b, loc, patches, rankedType(c.x).getElementType(),
                 {c.group, kg, np}, {{0}, kDims, columns});
}

/// `value` (ONNX typed) transposed by `perm` in storage, ONNX typed
/// again.
Value transpose(OpBuilder &b, Location loc, Value value,
                ArrayRef<int64_t> perm) {
  Type onnx = rankedType(value).getElementType();
  Value result = emitTranspose(b, loc, castToStorage(b, loc, value), perm);
  return castTo(b, loc, result, rankedType(result).clone(onnx));
}

/// The copy of `src` into `dst` (the same type): an identity
/// linalg.generic whose innermost dim, the channels, is contiguous on both
/// sides, so that qops-vectorize-elementwise makes it vector loads and
/// stores.
static Value copyWindow(OpBuilder &b, Location loc, Value src, Value dst) {
  auto type = cast<RankedTensorType>(dst.getType());
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, type, ValueRange{src}, ValueRange{dst},
             ArrayRef<AffineMap>{identity, identity}, iterators,
             [](OpBuilder &b, Location loc, ValueRange args) {
               linalg::YieldOp::create(b, loc, args[0]);
             })
      .getResult(0);
}

/// a of the pixel-rows form (G = 1): x made channels-last (NHWC, one
/// transpose) and padded, then the patches [N, o.., K.., C], written one
/// output row (n, o1) at a time in a nest that qops-distribute gives to
/// threads as it is (emitSliceNest: one parallel region for all the taps):
/// each tap k copies its window of the row, the strided pixels
/// xp[n, o1 s1 + k1 d1, k.. d + o.. s, :], into patches[n, o1, o.., k.., :]
/// (copyWindow), as [N P, K C], ONNX typed:
///   scf.for %n, %o1 (qkernel.parallel_loops) slice [1, 1, o2.., K.., C]
///     for each tap k:   (K.. unrolled: 9 copies for 3x3)
///       src = tensor.extract_slice xp[%n, %o1 s1 + k1 d1, k2 d2.., 0]
///                                    [1, 1, o2.., C] [1, 1, s2.., 1]
///       slice = tensor.insert_slice (copyWindow src -> slice[0, 0, 0..,
///                                    k.., 0] [1, 1, o2.., 1.., C])
/// Copying each tap over the whole image instead took one parallel region
/// per tap (9 for 3x3, each a fork and join of the threads).
Value emitPixelRows(OpBuilder &b, Location loc, const Convolution &c,
                    ArrayRef<int64_t> outSizes) {
  RankedTensorType wType = rankedType(c.w);
  Type xOnnx = rankedType(c.x).getElementType();
  int64_t spatial = wType.getRank() - 2;
  int64_t channels = wType.getDimSize(1);
  ArrayRef<int64_t> kernel = wType.getShape().drop_front(2);
  SmallVector<int64_t> toChannelsLast = {0};
  toChannelsLast.append(dimRange(2, 2 + spatial));
  toChannelsLast.push_back(1);
  Value xt = castToStorage(b, loc, transpose(b, loc, c.x, toChannelsLast));
  Value xp = padSpatial(b, loc, c, xt, true);
  OpFoldResult n = mixedSizes(b, loc, xp)[0];
  Type storage = rankedType(xp).getElementType();
  SmallVector<OpFoldResult> patchSizes = {n};
  for (int64_t o : outSizes)
    patchSizes.push_back(b.getIndexAttr(o));
  for (int64_t k : kernel)
    patchSizes.push_back(b.getIndexAttr(k));
  patchSizes.push_back(b.getIndexAttr(channels));
  Value patches = tensor::EmptyOp::create(b, loc, patchSizes, storage);
  int64_t rank = 2 + 2 * spatial;
  // The window of one tap in one output row: [1, 1, o2.., C].
  SmallVector<int64_t> windowShape = {1, 1};
  windowShape.append(outSizes.begin() + 1, outSizes.end());
  windowShape.push_back(channels);
  auto windowType = RankedTensorType::get(windowShape, storage);
  auto emitRow = [&](OpBuilder &b, Location l, Value image, Value row,
                     Value slice) {
    OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
    auto copyTap = [&](OpBuilder &b, Location l, ArrayRef<OpFoldResult> k,
                       Value slice) -> Value {
      AffineExpr d0 = b.getAffineDimExpr(0), d1 = b.getAffineDimExpr(1);
      SmallVector<OpFoldResult> srcOffsets = {
          image, affine::makeComposedFoldedAffineApply(
                     b, l, d0 * c.strides[0] + d1 * c.dilations[0],
                     {OpFoldResult(row), k[0]})};
      SmallVector<OpFoldResult> srcSizes = {one, one}, srcStrides = {one, one};
      for (int64_t i = 1; i < spatial; ++i) {
        srcOffsets.push_back(scaleOffset(b, l, k[i], c.dilations[i]));
        srcSizes.push_back(b.getIndexAttr(outSizes[i]));
        srcStrides.push_back(b.getIndexAttr(c.strides[i]));
      }
      srcOffsets.push_back(zero);
      srcSizes.push_back(b.getIndexAttr(channels));
      srcStrides.push_back(one);
      Value src = tensor::ExtractSliceOp::create(
          b, l, windowType, xp, srcOffsets, srcSizes, srcStrides);
      SmallVector<OpFoldResult> dstOffsets(1 + spatial, zero),
          dstSizes = {one, one}, unitStrides(rank, one);
      for (int64_t i = 1; i < spatial; ++i)
        dstSizes.push_back(b.getIndexAttr(outSizes[i]));
      for (int64_t i = 0; i < spatial; ++i) {
        dstOffsets.push_back(k[i]);
        dstSizes.push_back(one);
      }
      dstOffsets.push_back(zero);
      dstSizes.push_back(b.getIndexAttr(channels));
      Value dst = tensor::ExtractSliceOp::create(
          b, l, windowType, slice, dstOffsets, dstSizes, unitStrides);
      return tensor::InsertSliceOp::create(b, l, copyWindow(b, l, src, dst),
                                           slice, dstOffsets, dstSizes,
                                           unitStrides);
    };
    return forEachTap(b, l, kernel, slice, copyTap);
  };
  patches = emitSliceNest(b, loc, patches, patchSizes, emitRow);
  // [N, o.., K.., C] -> [N P, K C].
  ReassociationIndices rows = dimRange(0, 1 + spatial),
                       taps = dimRange(1 + spatial, rank);
  int64_t batch = rankedType(c.x).getDimSize(0);
  int64_t np =
      ShapedType::isDynamic(batch) ? batch : batch * llvm::product_of(outSizes);
  return reshape(b, loc, patches, xOnnx,
                 {np, channels * llvm::product_of(kernel)}, {rows, taps});
}

/// The pixel-rows product [N P, M] as y [N, M, o..]:
///   [N P, M] -> [N, P, M] -(linalg.transpose)-> [N, M, P] -> [N, M, o..]
Value pixelRowsToY(OpBuilder &b, Location loc, Value product,
                   RankedTensorType yType) {
  Type yOnnx = yType.getElementType();
  int64_t n = yType.getDimSize(0), m = yType.getDimSize(1);
  ArrayRef<int64_t> outSizes = yType.getShape().drop_front(2);
  int64_t p = llvm::product_of(outSizes);
  Value npm = reshape(b, loc, product, yOnnx, {n, p, m}, {{0, 1}, {2}});
  Value nmp = transpose(b, loc, npm, {0, 2, 1});
  ReassociationIndices oDims = dimRange(2, yType.getRank());
  return reshape(b, loc, nmp, yOnnx, yType.getShape(), {{0}, {1}, oDims});
}

/// The grouped product [G, Mg, N P] as y [N, M, o..]: reshaped, and
/// transposed to put the batch first unless N = 1.
///   [G, Mg, N P] -> [M, N, P] -(linalg.transpose)-> [N, M, P] -> [N, M, o..]
Value groupedToY(OpBuilder &b, Location loc, Value product,
                 RankedTensorType yType) {
  Type yOnnx = yType.getElementType();
  int64_t n = yType.getDimSize(0), m = yType.getDimSize(1);
  ArrayRef<int64_t> outSizes = yType.getShape().drop_front(2);
  int64_t p = llvm::product_of(outSizes);
  ReassociationIndices oDims = dimRange(2, yType.getRank());
  product = reshape(b, loc, product, yOnnx,
                    {m, rankedType(product).getDimSize(2)}, {{0, 1}, {2}});
  if (n == 1) // [M, P] -> [1, M, o..]
    return reshape(b, loc, product, yOnnx, yType.getShape(),
                   {{0, 1}, oDims});
  Value mnp = reshape(b, loc, product, yOnnx, {m, n, p}, {{0}, {1, 2}});
  Value nmp = transpose(b, loc, mnp, {1, 0, 2});
  return reshape(b, loc, nmp, yOnnx, yType.getShape(), {{0}, {1}, oDims});
}

/// The form's qkernel.matmul of `type`: the sums alone (ConvInteger), or
/// requantized with a's and b's scales (x's and w's, in the form's order),
/// y's parameters and the bias (QLinearConv), or with the dequantize clause
/// (`dequant`: its scale and offset as the form's per-row or per-column
/// parameters; ConvInteger fused). `type`'s element type is y's.
Value emitProduct(OpBuilder &b, Location loc, RankedTensorType type, Value a,
                  Value aZeroPoint, Value bOperand, Value bZeroPoint,
                  const ConvParams &params, Value aScale, Value bScale,
                  Value bias, std::pair<Value, Value> dequant) {
  return qkernel::MatMulOp::create(
      b, loc, type, a, aZeroPoint, bOperand, bZeroPoint, aScale, bScale,
      params.scale(2), params.scale(3), bias, dequant.first, dequant.second);
}

/// w as [M, Kg] (ONNX typed).
Value weightRows(OpBuilder &b, Location loc, const Convolution &c) {
  RankedTensorType wType = rankedType(c.w);
  int64_t m = wType.getDimSize(0);
  return reshape(b, loc, c.w, wType.getElementType(),
                 {m, wType.getNumElements() / m},
                 {{0}, dimRange(1, wType.getRank())});
}

/// G = 1: a = the pixels' patches [N P, Kg], b = w transposed [Kg, M] (a
/// constant w is then b's constant, packed once, as QLinearMatMul's
/// weights); w's per-channel parameters and QLinearConv's bias are b's and
/// y's per-column ones.
Value decomposePixelRows(PatternRewriter &rewriter, const Convolution &c,
                         const ConvParams &params, RankedTensorType yType) {
  Location loc = c.op->getLoc();
  Value a = emitPixelRows(rewriter, loc, c, yType.getShape().drop_front(2));
  // w [M, C, K..] -> [K.., C, M] -> [K C, M]: a's column order.
  RankedTensorType wType = rankedType(c.w);
  int64_t rank = wType.getRank();
  SmallVector<int64_t> perm = dimRange(2, rank);
  perm.append({1, 0});
  int64_t m = wType.getDimSize(0);
  Value b = reshape(rewriter, loc, transpose(rewriter, loc, c.w, perm),
                    wType.getElementType(), {wType.getNumElements() / m, m},
                    {dimRange(0, rank - 1), {rank - 1}});
  auto productType = RankedTensorType::get(
      {rankedType(a).getDimSize(0), rankedType(b).getDimSize(1)},
      yType.getElementType());
  Value product = emitProduct(
      rewriter, loc, productType, a, c.xZeroPoint, b, c.wZeroPoint, params,
      params.scale(0), params.scale(1), params.bias,
      {params.dequantScale, params.dequantOffset});
  return pixelRowsToY(rewriter, loc, product, yType);
}

/// A 1x1 convolution of one image with unit strides and no padding needs
/// no patches: x itself is a matmul operand.
bool isPointwise(const Convolution &c) {
  auto isOne = [](int64_t v) { return v == 1; };
  return c.group == 1 && rankedType(c.x).getDimSize(0) == 1 &&
         llvm::all_of(rankedType(c.w).getShape().drop_front(2), isOne) &&
         llvm::all_of(c.strides, isOne) &&
         llvm::all_of(c.pads, [](int64_t v) { return v == 0; });
}

/// The pointwise form: a = w [M, C], b = x [C, P], y = the product [M, P]
/// reshaped to [1, M, o..] (no patches, no transposes; b is packed at each
/// call); w's per-channel parameters are a's per-row ones, the bias y's
/// ([M, 1]).
Value decomposePointwise(PatternRewriter &rewriter, const Convolution &c,
                         const ConvParams &params, RankedTensorType yType) {
  Location loc = c.op->getLoc();
  RankedTensorType xType = rankedType(c.x);
  int64_t m = yType.getDimSize(1);
  int64_t p = llvm::product_of(yType.getShape().drop_front(2));
  Value a = weightRows(rewriter, loc, c);
  Value b = reshape(rewriter, loc, c.x, xType.getElementType(),
                    {xType.getDimSize(1), p},
                    {{0, 1}, dimRange(2, xType.getRank())});
  auto productType = RankedTensorType::get({m, p}, yType.getElementType());
  auto perRow = [&](Value param) {
    return channelParam(rewriter, loc, param, {m, 1});
  };
  Value product = emitProduct(
      rewriter, loc, productType, a, c.wZeroPoint, b, c.xZeroPoint, params,
      params.scale(1), params.scale(0), perRow(params.bias),
      {perRow(params.dequantScale), perRow(params.dequantOffset)});
  return reshape(rewriter, loc, product, yType.getElementType(),
                 yType.getShape(), {{0, 1}, dimRange(2, yType.getRank())});
}

/// G > 1: a = w [G, Mg, Kg], b = the patches [G, Kg, N P]; w's per-channel
/// parameters and the bias are a's and y's per-row ones ([G, Mg, 1]).
Value decomposeGrouped(PatternRewriter &rewriter, const Convolution &c,
                       const ConvParams &params, RankedTensorType yType) {
  Location loc = c.op->getLoc();
  RankedTensorType wType = rankedType(c.w);
  int64_t m = wType.getDimSize(0), g = c.group;
  int64_t kg = wType.getNumElements() / m;
  Value a = reshape(rewriter, loc, weightRows(rewriter, loc, c),
                    wType.getElementType(), {g, m / g, kg}, {{0, 1}, {2}});
  Value b = emitPatches(rewriter, loc, c, yType.getShape().drop_front(2));
  auto productType = RankedTensorType::get(
      {g, m / g, rankedType(b).getDimSize(2)}, yType.getElementType());
  auto perRow = [&](Value param) {
    return channelParam(rewriter, loc, param, {g, m / g, 1});
  };
  Value product = emitProduct(
      rewriter, loc, productType, a, perRow(c.wZeroPoint), b, c.xZeroPoint,
      params, perRow(params.scale(1)), params.scale(0), perRow(params.bias),
      {perRow(params.dequantScale), perRow(params.dequantOffset)});
  return groupedToY(rewriter, loc, product, yType);
}

/// `value` ([M] per output channel, or any shape of M elements; one
/// element or null: returned as is) sliced to the channels [first, first +
/// count), ONNX typed, [count].
Value sliceChannels(OpBuilder &b, Location loc, Value value, int64_t first,
                    int64_t count) {
  if (!value || rankedType(value).getNumElements() == 1)
    return value;
  RankedTensorType type = rankedType(value);
  int64_t m = type.getNumElements();
  Value flat = castToStorage(
      b, loc,
      reshape(b, loc, value, type.getElementType(), {m},
              {dimRange(0, type.getRank())}));
  Value slice = tensor::ExtractSliceOp::create(
      b, loc, flat, ArrayRef<OpFoldResult>{b.getIndexAttr(first)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(count)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  return castTo(b, loc, slice,
                RankedTensorType::get({count}, type.getElementType()));
}

/// `value` (ONNX typed) sliced along `dim` to [first, first + count), ONNX
/// typed: x's channels (dim 1 of [N, C, D..]) or w's output channels (dim 0
/// of [M, Cg, K..]).
Value sliceDim(OpBuilder &b, Location loc, Value value, int64_t dim,
               int64_t first, int64_t count) {
  Type onnx = rankedType(value).getElementType();
  Value storage = castToStorage(b, loc, value);
  SmallVector<OpFoldResult> offsets(rankedType(storage).getRank(),
                                    b.getIndexAttr(0)),
      sizes = tensor::getMixedSizes(b, loc, storage),
      strides(rankedType(storage).getRank(), b.getIndexAttr(1));
  offsets[dim] = b.getIndexAttr(first);
  sizes[dim] = b.getIndexAttr(count);
  Value slice = tensor::ExtractSliceOp::create(b, loc, storage, offsets,
                                               sizes, strides);
  return castTo(b, loc, slice, rankedType(slice).clone(onnx));
}

/// G = 1: the pointwise form or the pixel rows.
Value decomposeUngrouped(PatternRewriter &rewriter, const Convolution &c,
                         const ConvParams &params, RankedTensorType yType) {
  if (isPointwise(c))
    return decomposePointwise(rewriter, c, params, yType);
  return decomposePixelRows(rewriter, c, params, yType);
}

/// 1 < G <= kMaxSplitGroups, Cg > 1 (one input channel per group, a
/// depthwise convolution with a channel multiplier or a kernel too large
/// for the direct form, keeps the grouped form): G convolutions of one group
/// each, y's channels [g Mg, (g + 1) Mg) from x's [g Cg, (g + 1) Cg) and
/// w's rows [g Mg, (g + 1) Mg) (and those of w's per-channel parameters,
/// the bias and the dequantize clause), each its pixel-rows or pointwise
/// form, inserted into y:
///   y = tensor.empty [N, M, o..]
///   for each g (unrolled): y = tensor.insert_slice (the convolution of
///     x[:, g Cg : (g + 1) Cg], w[g Mg : (g + 1) Mg]) into y[:, g Mg, ..]
Value decomposeSplitGroups(PatternRewriter &rewriter, const Convolution &c,
                           const ConvParams &params, RankedTensorType yType) {
  Location loc = c.op->getLoc();
  int64_t m = yType.getDimSize(1), g = c.group;
  int64_t mg = m / g, cg = rankedType(c.w).getDimSize(1);
  SmallVector<OpFoldResult> ySizes = {
      tensor::getMixedSizes(rewriter, loc, castToStorage(rewriter, loc, c.x))
          .front()};
  for (int64_t d : yType.getShape().drop_front(1))
    ySizes.push_back(rewriter.getIndexAttr(d));
  Value yStorage = tensor::EmptyOp::create(
      rewriter, loc, ySizes, getStorageElementType(yType.getElementType()));
  for (int64_t group = 0; group < g; ++group) {
    auto slice = [&](Value param) {
      return sliceChannels(rewriter, loc, param, group * mg, mg);
    };
    Convolution one = c;
    one.x = sliceDim(rewriter, loc, c.x, 1, group * cg, cg);
    one.w = sliceDim(rewriter, loc, c.w, 0, group * mg, mg);
    one.wZeroPoint = slice(c.wZeroPoint);
    one.group = 1;
    SmallVector<Value> scales(params.scales);
    if (!scales.empty())
      scales[1] = slice(scales[1]);
    ConvParams oneParams{scales, slice(params.bias),
                         slice(params.dequantScale),
                         slice(params.dequantOffset)};
    SmallVector<int64_t> shape(yType.getShape());
    shape[1] = mg;
    Value part = castToStorage(
        rewriter, loc,
        decomposeUngrouped(rewriter, one, oneParams, yType.clone(shape)));
    SmallVector<OpFoldResult> offsets(yType.getRank(),
                                      rewriter.getIndexAttr(0)),
        sizes = tensor::getMixedSizes(rewriter, loc, part),
        strides(yType.getRank(), rewriter.getIndexAttr(1));
    offsets[1] = rewriter.getIndexAttr(group * mg);
    yStorage = tensor::InsertSliceOp::create(rewriter, loc, part, yStorage,
                                             offsets, sizes, strides);
  }
  return castTo(rewriter, loc, yStorage, yType);
}

/// wd, w made block-diagonal over all C input channels (ONNX typed like
/// w, [M, C, K..]):
///   wd[m, c, k..] = w[m, c - g Cg, k..]   where c / Cg = m / Mg = g
///                 = w_zp[m] (0 without)   elsewhere
/// so that wd - w_zp is 0 outside each output channel's own group:
///   wd = w_zp broadcast (a linalg.fill, or a linalg.generic from [M])
///   for each g: wd = tensor.insert_slice w[g Mg : (g + 1) Mg]
///                      into wd[g Mg, g Cg, 0..] [Mg, Cg, K..]
/// From a constant w, a constant expression (computed once).
Value blockDiagonalWeights(OpBuilder &b, Location loc, const Convolution &c,
                           int64_t channels) {
  RankedTensorType wType = rankedType(c.w);
  Value w = castToStorage(b, loc, c.w);
  Type byte = rankedType(w).getElementType();
  int64_t m = wType.getDimSize(0), cg = wType.getDimSize(1);
  int64_t mg = m / c.group, rank = wType.getRank();
  SmallVector<int64_t> shape(wType.getShape());
  shape[1] = channels;
  Value dense = tensor::EmptyOp::create(b, loc, shape, byte);
  Value zp = c.wZeroPoint ? castToStorage(b, loc, c.wZeroPoint) : Value();
  if (zp && rankedType(zp).getNumElements() > 1) {
    Value perChannel = castToStorage(
        b, loc,
        reshape(b, loc, c.wZeroPoint, wType.getElementType(), {m},
                {dimRange(0, rankedType(zp).getRank())}));
    AffineMap all = b.getMultiDimIdentityMap(rank);
    AffineMap channel = AffineMap::get(rank, 0, b.getAffineDimExpr(0));
    dense = linalg::GenericOp::create(
                b, loc, dense.getType(), perChannel, dense,
                ArrayRef<AffineMap>{channel, all},
                SmallVector<utils::IteratorType>(
                    rank, utils::IteratorType::parallel),
                [](OpBuilder &nb, Location nl, ValueRange args) {
                  linalg::YieldOp::create(nb, nl, args[0]);
                })
                .getResult(0);
  } else {
    Value fill = zp ? tensor::ExtractOp::create(
                          b, loc, zp,
                          SmallVector<Value>(
                              rankedType(zp).getRank(),
                              arith::ConstantIndexOp::create(b, loc, 0)))
                          .getResult()
                    : arith::ConstantOp::create(b, loc, b.getIntegerAttr(byte, 0))
                          .getResult();
    dense = linalg::FillOp::create(b, loc, fill, dense).getResult(0);
  }
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, w),
                            strides(rank, b.getIndexAttr(1));
  sizes[0] = b.getIndexAttr(mg);
  for (int64_t group = 0; group < c.group; ++group) {
    SmallVector<OpFoldResult> from(rank, b.getIndexAttr(0)), to = from;
    from[0] = to[0] = b.getIndexAttr(group * mg);
    to[1] = b.getIndexAttr(group * cg);
    Value rows =
        tensor::ExtractSliceOp::create(b, loc, w, from, sizes, strides);
    dense = tensor::InsertSliceOp::create(b, loc, rows, dense, to, sizes,
                                          strides);
  }
  return castTo(b, loc, dense,
                RankedTensorType::get(shape, wType.getElementType()));
}

/// 1 < G <= maxDenseGroupsFor(strategy), Cg > 1: one pixel-rows (or pointwise)
/// convolution over all C channels with the block-diagonal weights wd
/// (blockDiagonalWeights): acc[m] = sum over every c of (x - x_zp)(wd -
/// w_zp), whose terms outside m's group are 0, so the same sums as the
/// group's alone; G times the multiply-adds, but one patches nest and one
/// kernel nest instead of G of each, every parameter per output channel
/// as it is.
Value decomposeDenseGroups(PatternRewriter &rewriter, const Convolution &c,
                           const ConvParams &params, RankedTensorType yType) {
  Convolution dense = c;
  dense.w = blockDiagonalWeights(rewriter, c.op->getLoc(), c,
                                 rankedType(c.x).getDimSize(1));
  dense.group = 1;
  return decomposeUngrouped(rewriter, dense, params, yType);
}

/// The convolution as qkernel.matmul (`scales`: x_scale, w_scale, y_scale,
/// y_zero_point for QLinearConv, empty for ConvInteger; `bias`: QLinearConv's
/// B [M] or null); returns y.
FailureOr<Value> decompose(PatternRewriter &rewriter, const Convolution &c,
                           int64_t maxDenseGroups, ArrayRef<Value> scales,
                           Value bias, RankedTensorType yType,
                           std::pair<Value, Value> dequant = {}) {
  RankedTensorType xType = rankedType(c.x), wType = rankedType(c.w);
  if (llvm::any_of(xType.getShape().drop_front(1), ShapedType::isDynamic) ||
      !wType.hasStaticShape())
    return c.op->emitOpError()
           << "is lowered for static channels, spatial sizes and weights "
              "only (the batch may be dynamic), got "
           << xType << " and " << wType;
  ConvParams params{scales, bias, dequant.first, dequant.second};
  if (c.group == 1)
    return decomposeUngrouped(rewriter, c, params, yType);
  if (isDepthwise(c))
    return decomposeDepthwise(rewriter, c, params, yType);
  if (c.group <= maxDenseGroups && wType.getDimSize(1) > 1)
    return decomposeDenseGroups(rewriter, c, params, yType);
  if (c.group <= kMaxSplitGroups && wType.getDimSize(1) > 1)
    return decomposeSplitGroups(rewriter, c, params, yType);
  return decomposeGrouped(rewriter, c, params, yType);
}

template <typename OpTy>
Convolution describe(OpTy op) {
  return {op, op.getX(), op.getXZeroPoint(), op.getW(), op.getWZeroPoint(),
          op.getStridesOrDefault(), op.getDilationsOrDefault(),
          op.getPadsOrDefault(), op.getGroupOrDefault()};
}

/// The most groups of the dense form (decomposeDenseGroups) under
/// `strategy`, where byte products are cheap (TDPBUSD, VPDPBUSD zmm: G
/// times the multiply-adds cost less than G kernels; TuningTable.h has the
/// figures); none elsewhere (madd's VPMADDWD rate would pay G times for
/// them in full) or without a target.
int64_t maxDenseGroupsFor(std::optional<Int8KernelStrategy> strategy) {
  if (strategy == Int8KernelStrategy::Amx)
    return kMaxDenseGroupsAmx;
  if (strategy == Int8KernelStrategy::Vnni)
    return kMaxDenseGroupsVnni;
  return 0;
}

struct DecomposeConvInteger : OpRewritePattern<ConvIntegerOp> {
  DecomposeConvInteger(MLIRContext *ctx, int64_t maxDenseGroups)
      : OpRewritePattern(ctx), maxDenseGroups(maxDenseGroups) {}

  LogicalResult matchAndRewrite(ConvIntegerOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<Value> y =
        decompose(rewriter, describe(op), maxDenseGroups, {}, Value(),
                  op.getY().getType(),
                  {op.getDequantScale(), op.getDequantOffset()});
    if (failed(y))
      return failure();
    rewriter.replaceOp(op, *y);
    return success();
  }

  int64_t maxDenseGroups;
};

struct DecomposeQLinearConv : OpRewritePattern<QLinearConvOp> {
  DecomposeQLinearConv(MLIRContext *ctx, int64_t maxDenseGroups)
      : OpRewritePattern(ctx), maxDenseGroups(maxDenseGroups) {}

  LogicalResult matchAndRewrite(QLinearConvOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<Value> y = decompose(
        rewriter, describe(op), maxDenseGroups,
        {op.getXScale(), op.getWScale(), op.getYScale(), op.getYZeroPoint()},
        op.getBias(), op.getY().getType());
    if (failed(y))
      return failure();
    rewriter.replaceOp(op, *y);
    return success();
  }

  int64_t maxDenseGroups;
};

} // namespace

void qops::populateDecomposeConvolutionsPatterns(
    RewritePatternSet &patterns,
    std::optional<Int8KernelStrategy> strategy, int64_t maxDenseGroups) {
  patterns.add<DecomposeConvInteger, DecomposeQLinearConv>(
      patterns.getContext(),
      maxDenseGroups >= 0 ? maxDenseGroups : maxDenseGroupsFor(strategy));
}
