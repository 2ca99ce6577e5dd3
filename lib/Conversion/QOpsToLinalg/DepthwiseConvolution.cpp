//===- DepthwiseConvolution.cpp - the depthwise direct form ---------------===//
//
// A depthwise ConvInteger / QLinearConv (G = C = M: one input and one
// output channel per group) is no matmul worth the name: the grouped form
// multiplies a 1 x K.. row by K.. x P patches per channel, and copies x
// K.. times to build them. Here each output is one elementwise
// linalg.generic over (n, m, o..) that sums the T = prod(K..) taps, read
// from T strided windows of xp (x padded with x_zero_point, so that a
// padded tap adds 0):
//
//   w'[t, m] = w[m, 0, k_t..] - w_zp[m]                         i16 [T, M]
//   u(v)     = v (ui8) or v + 128 (si8: the top bit flipped), in [0, 255]
//   c[m]     = bias[m] - u(x_zp) * sum_t w'[t, m]                i32 [M]
//   acc[n, m, o..] = c[m] + sum_t u(xp[n, m, o s + k_t d]) * w'[t, m]
//                  = bias[m] + sum_t (xp[..] - x_zp)(w[m, 0, k_t] - w_zp[m])
//   (u(x) - u(x_zp) = x - x_zp; x_zp is 0 when absent). Each product is
//   zext(u(x)) * sext(w'), an operand with its upper 17 bits zero times one
//   of 16 significant bits: LLVM makes it one VPMADDWD (VPMULLD is two
//   uops; VPMADDWD with VPADDD is VPDPWSSD where LLVM fuses them).
//   exactly, in wrapping i32 as the matmul forms (|x - x_zp|, |w'| <= 255,
//   so no product or partial sum of T <= kMaxDirectTaps taps overflows);
//   then y as the matmul forms' epilogue:
//   QLinearConv  y = saturate(round_half_even(f64(acc) * f64(mult[m])) + y_zp)
//                mult[m] = (x_scale * w_scale[m]) / y_scale in f32
//                (in f32 with one rounding when |acc| <= 2^24 is provable:
//                no bias, or a constant one; emitRequantizeSmallSum)
//   ConvInteger  y = acc, or fused: y = f32(acc) * scale[m] [+ offset[m]]
//
// The IR (3x3, QLinearConv; w', c and mult are computed once per call, or
// at compile time for constant weights, by the hoisting and const-eval
// steps):
//   %xp    = tensor.pad %x low[0, 0, p..] high[0, 0, p..] (x_zp)
//   %w'    = linalg.generic (t, m) {trunc(ext(w) - ext(w_zp))} [T, M] i16
//   %c     = linalg.generic (m, t: reduction) {out - u(x_zp) * w'} (init
//            bias)
//   %mult  = linalg.generic (m) {(x_scale * w_scale) / y_scale}  [M] f32
//   %win_t = tensor.extract_slice %xp[0, 0, k_t d..] [N, M, o..] [1, 1, s..]
//   %w_t   = tensor.extract_slice %w'[t, 0] [1, M] [1, 1] : tensor<Mxi16>
// (taps major, so that each tap's weights are contiguous)
//   %y     = linalg.generic ins(%win_0.., %w_0.., %c, %mult, %y_zp)
//              maps (n, m, o..) -> (n, m, o..) | (m) | ()
// qops-vectorize-elementwise turns %y into vector loops along the output
// row, threads over m (or n), the accumulator in registers: the taps are
// loaded from x, widened and multiplied in place, the requantization
// follows in the same loop.
//
//===----------------------------------------------------------------------===//

#include "ConvolutionForms.h"

#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"
#include "QuantOps/Conversion/QOpsToLinalg/QuantMath.h"
#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::qops;
using namespace mlir::qops::conv;

namespace {

/// The most kernel taps the direct form sums in one loop body (7x7 = 49
/// fits; larger kernels take the grouped form).
constexpr int64_t kMaxDirectTaps = 64;

/// A parameter read per output channel: rank 0 (one element, collapsed)
/// or [M], in storage, with the map that reads it from the iteration space
/// (rank `rank`, channel dim `channelDim`).
struct ChannelParam {
  Value value;
  AffineMap map;
};

ChannelParam channelParam(OpBuilder &b, Location loc, Value param,
                          unsigned rank, unsigned channelDim) {
  Value storage = castToStorage(b, loc, param);
  MLIRContext *ctx = b.getContext();
  if (rankedType(storage).getNumElements() == 1)
    return {collapseToScalarTensor(b, loc, storage),
            AffineMap::get(rank, 0, {}, ctx)};
  Type element = rankedType(storage).getElementType();
  int64_t m = rankedType(storage).getNumElements();
  Value flat = reshape(b, loc, storage, element, {m},
                       {dimRange(0, rankedType(storage).getRank())});
  return {flat, AffineMap::get(rank, 0, getAffineDimExpr(channelDim, ctx))};
}

SmallVector<utils::IteratorType> parallelLoops(unsigned rank) {
  return SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel);
}

/// x (or its zero point) as the u8 value of the product: x itself for
/// ui8, x + 128 for si8 (the bits with the top one flipped), zero-extended
/// to i32: x_u - x_zp_u = x - x_zp, and x_u is in [0, 255], which lets
/// LLVM multiply x_u by an i16 weight with VPMADDWD (an operand with its
/// upper 17 bits zero times one of at most 16 significant bits) instead of
/// VPMULLD: one uop instead of two, VPDPWSSD with the sum on AVX512-VNNI.
Value emitUnsignedX(OpBuilder &b, Location loc, Value x, Type xOnnx) {
  if (cast<IntegerType>(xOnnx).isSigned())
    x = arith::XOrIOp::create(
        b, loc, x,
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(x.getType(), -128)));
  return arith::ExtUIOp::create(b, loc, b.getI32Type(), x);
}

/// w'[t, m] = w[m, 0, k_t..] - w_zp[m] in i16 (|w'| <= 255), [T, M].
Value emitShiftedWeights(OpBuilder &b, Location loc, const Convolution &c) {
  RankedTensorType wType = rankedType(c.w);
  Type wOnnx = wType.getElementType();
  int64_t m = wType.getDimSize(0), taps = wType.getNumElements() / m;
  Value w = castToStorage(
      b, loc,
      reshape(b, loc, c.w, wOnnx, {m, taps},
              {{0}, dimRange(1, wType.getRank())}));
  MLIRContext *ctx = b.getContext();
  AffineExpr t = getAffineDimExpr(0, ctx), channel = getAffineDimExpr(1, ctx);
  SmallVector<Value> inputs{w};
  SmallVector<AffineMap> maps{AffineMap::get(2, 0, {channel, t}, ctx)};
  if (c.wZeroPoint) {
    ChannelParam zp = channelParam(b, loc, c.wZeroPoint, 2, 1);
    inputs.push_back(zp.value);
    maps.push_back(zp.map);
  }
  maps.push_back(b.getMultiDimIdentityMap(2));
  Value init = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{taps, m},
                                       b.getI16Type());
  return linalg::GenericOp::create(
             b, loc, init.getType(), inputs, init, maps, parallelLoops(2),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value d = emitExtendToI32(nb, l, args[0], wOnnx);
               if (inputs.size() == 2)
                 d = arith::SubIOp::create(
                     nb, l, d, emitExtendToI32(nb, l, args[1], wOnnx));
               linalg::YieldOp::create(
                   nb, l, arith::TruncIOp::create(nb, l, nb.getI16Type(), d)
                              .getResult());
             })
      .getResult(0);
}

/// c[m] = bias[m] - x_zp_u * sum_t w'[t, m] in wrapping i32, [M]
/// (x_zp_u: emitUnsignedX of x_zp, or of 0 without one).
Value emitChannelTerm(OpBuilder &b, Location loc, const Convolution &c,
                      Value bias, Value shifted) {
  int64_t m = rankedType(shifted).getDimSize(1);
  Type i32 = b.getI32Type();
  Value init;
  if (bias) { // [M] int32 (the verifier's), the sums' start
    Value storage = castToStorage(b, loc, bias);
    init = reshape(b, loc, storage, i32, {m},
                   {dimRange(0, rankedType(storage).getRank())});
  } else {
    Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
    Value empty = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{m}, i32);
    init = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  }
  Type xOnnx = rankedType(c.x).getElementType();
  bool signedX = cast<IntegerType>(xOnnx).isSigned();
  if (!c.xZeroPoint && !signedX)
    return init;
  Value zpValue = c.xZeroPoint;
  if (!zpValue) { // x_zp = 0, whose unsigned view is 128
    Type storage = getStorageElementType(xOnnx);
    zpValue = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(RankedTensorType::get({}, storage),
                                       b.getIntegerAttr(storage, 0)));
  }
  ChannelParam zp = channelParam(b, loc, zpValue, 2, 0);
  MLIRContext *ctx = b.getContext();
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{shifted, zp.value}, init,
             ArrayRef<AffineMap>{
                 AffineMap::get(2, 0,
                                {getAffineDimExpr(1, ctx),
                                 getAffineDimExpr(0, ctx)},
                                ctx),
                 zp.map, AffineMap::get(2, 0, getAffineDimExpr(0, ctx))},
             {utils::IteratorType::parallel, utils::IteratorType::reduction},
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value term = arith::MulIOp::create(
                   nb, l, emitUnsignedX(nb, l, args[1], xOnnx),
                   arith::ExtSIOp::create(nb, l, nb.getI32Type(), args[0]));
               linalg::YieldOp::create(
                   nb, l, arith::SubIOp::create(nb, l, args[2], term)
                              .getResult());
             })
      .getResult(0);
}

/// mult[m] = (x_scale * w_scale[m]) / y_scale in f32, [M] or one element,
/// made finite (emitFiniteMultiplier).
ChannelParam emitMultiplier(OpBuilder &b, Location loc,
                            const ConvParams &params, unsigned rank) {
  ChannelParam xs = channelParam(b, loc, params.scale(0), 1, 0);
  ChannelParam ws = channelParam(b, loc, params.scale(1), 1, 0);
  ChannelParam ys = channelParam(b, loc, params.scale(2), 1, 0);
  RankedTensorType wsType = rankedType(ws.value);
  Value init = tensor::EmptyOp::create(b, loc, wsType.getShape(),
                                       b.getF32Type());
  unsigned loops = wsType.getRank();
  auto mapFor = [&](const ChannelParam &p) {
    return AffineMap::get(loops, 0, p.map.getResults(), b.getContext());
  };
  Value mult =
      linalg::GenericOp::create(
          b, loc, init.getType(), ValueRange{xs.value, ws.value, ys.value},
          init,
          ArrayRef<AffineMap>{mapFor(xs), mapFor(ws), mapFor(ys),
                              b.getMultiDimIdentityMap(loops)},
          parallelLoops(loops),
          [](OpBuilder &nb, Location l, ValueRange args) {
            Value product = emitFloatBinary(nb, l, FloatBinaryOp::Mul,
                                            args[0], args[1]);
            linalg::YieldOp::create(
                nb, l,
                emitFiniteMultiplier(nb, l,
                                     emitFloatBinary(nb, l,
                                                     FloatBinaryOp::Div,
                                                     product, args[2])));
          })
          .getResult(0);
  MLIRContext *ctx = b.getContext();
  return {mult, loops == 0 ? AffineMap::get(rank, 0, {}, ctx)
                           : AffineMap::get(rank, 0, getAffineDimExpr(1, ctx))};
}

} // namespace

bool conv::isDepthwise(const Convolution &c) {
  RankedTensorType wType = rankedType(c.w);
  int64_t m = wType.getDimSize(0);
  return c.group > 1 && wType.getDimSize(1) == 1 && m == c.group &&
         wType.getNumElements() / m <= kMaxDirectTaps;
}

Value conv::decomposeDepthwise(PatternRewriter &rewriter, const Convolution &c,
                               const ConvParams &params,
                               RankedTensorType yType) {
  Location loc = c.op->getLoc();
  RankedTensorType wType = rankedType(c.w);
  Type xOnnx = rankedType(c.x).getElementType();
  Type yOnnx = yType.getElementType();
  int64_t spatial = wType.getRank() - 2;
  unsigned rank = yType.getRank();
  ArrayRef<int64_t> kernel = wType.getShape().drop_front(2);
  ArrayRef<int64_t> outSizes = yType.getShape().drop_front(2);
  Value xp = padInput(rewriter, loc, c);
  Value shifted = emitShiftedWeights(rewriter, loc, c);
  Value term = emitChannelTerm(rewriter, loc, c, params.bias, shifted);

  // The windows of the taps, then their weights, the channel term and the
  // epilogue's parameters.
  OpFoldResult n = tensor::getMixedSizes(rewriter, loc, xp)[0];
  SmallVector<int64_t> windowShape(yType.getShape());
  auto windowType =
      RankedTensorType::get(windowShape, rankedType(xp).getElementType());
  int64_t taps = llvm::product_of(kernel);
  SmallVector<Value> inputs;
  for (int64_t tap = 0; tap < taps; ++tap) {
    SmallVector<int64_t> k = kernelTap(tap, kernel);
    SmallVector<OpFoldResult> offsets(2, rewriter.getIndexAttr(0)),
        sizes = {n, rewriter.getIndexAttr(yType.getDimSize(1))},
        strides(2, rewriter.getIndexAttr(1));
    for (int64_t i = 0; i < spatial; ++i) {
      offsets.push_back(rewriter.getIndexAttr(k[i] * c.dilations[i]));
      sizes.push_back(rewriter.getIndexAttr(outSizes[i]));
      strides.push_back(rewriter.getIndexAttr(c.strides[i]));
    }
    inputs.push_back(tensor::ExtractSliceOp::create(
        rewriter, loc, windowType, xp, offsets, sizes, strides));
  }
  MLIRContext *ctx = rewriter.getContext();
  AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
  AffineMap perChannel = AffineMap::get(rank, 0, getAffineDimExpr(1, ctx));
  SmallVector<AffineMap> maps(taps, identity);
  int64_t m = wType.getDimSize(0);
  auto columnType = RankedTensorType::get({m}, rewriter.getI16Type());
  for (int64_t tap = 0; tap < taps; ++tap) {
    SmallVector<OpFoldResult> offsets = {rewriter.getIndexAttr(tap),
                                         rewriter.getIndexAttr(0)},
                              sizes = {rewriter.getIndexAttr(1),
                                       rewriter.getIndexAttr(m)},
                              strides(2, rewriter.getIndexAttr(1));
    inputs.push_back(tensor::ExtractSliceOp::create(
        rewriter, loc, columnType, shifted, offsets, sizes, strides));
    maps.push_back(perChannel);
  }
  inputs.push_back(term);
  maps.push_back(perChannel);
  bool requantizes = !params.scales.empty();
  SmallVector<Value> epilogue;
  if (requantizes) {
    ChannelParam mult = emitMultiplier(rewriter, loc, params, rank);
    epilogue = {mult.value};
    maps.push_back(mult.map);
    ChannelParam zp = channelParam(rewriter, loc, params.scale(3), rank, 1);
    epilogue.push_back(zp.value);
    maps.push_back(zp.map);
  } else {
    for (Value p : {params.dequantScale, params.dequantOffset}) {
      if (!p)
        continue;
      ChannelParam param = channelParam(rewriter, loc, p, rank, 1);
      epilogue.push_back(param.value);
      maps.push_back(param.map);
    }
  }
  inputs.append(epilogue);
  maps.push_back(identity);

  SmallVector<OpFoldResult> ySizes = {n};
  for (int64_t d : yType.getShape().drop_front(1))
    ySizes.push_back(rewriter.getIndexAttr(d));
  Type yStorage = getStorageElementType(yOnnx);
  Value init = tensor::EmptyOp::create(rewriter, loc, ySizes, yStorage);
  bool dequantizes = static_cast<bool>(params.dequantScale);
  bool smallSums = provesSmallSums(taps, params.bias) && fmaIsNative(c.op);
  Value y =
      linalg::GenericOp::create(
          rewriter, loc, init.getType(), inputs, init, maps,
          parallelLoops(rank),
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value acc = args[2 * taps];
            for (int64_t t = 0; t < taps; ++t) {
              Value product = arith::MulIOp::create(
                  b, l, emitUnsignedX(b, l, args[t], xOnnx),
                  arith::ExtSIOp::create(b, l, b.getI32Type(),
                                         args[taps + t]));
              acc = arith::AddIOp::create(b, l, acc, product);
            }
            ValueRange rest = args.drop_front(2 * taps + 1);
            Value result = acc;
            if (requantizes) {
              result = smallSums ? emitRequantizeSmallSum(b, l, acc, rest[0],
                                                          rest[1], yOnnx)
                                 : emitRequantizeSum(b, l, acc, rest[0],
                                                     rest[1], yOnnx);
            } else if (dequantizes) {
              result = arith::SIToFPOp::create(b, l, b.getF32Type(), acc);
              result = arith::MulFOp::create(b, l, result, rest[0]);
              if (rest.size() > 2)
                result = arith::AddFOp::create(b, l, result, rest[1]);
            }
            linalg::YieldOp::create(b, l, result);
          })
          .getResult(0);
  return castTo(rewriter, loc, y, yType);
}
