//===- FloatMatMulInt8.cpp - int8 activations for 4-bit weights -----------===//
//
// MatMulNBits at accuracy_level 4 (ONNX Runtime's "A may be int8"): the
// float kernel's weight-only form with A quantized per row and block of K
// to int8 and the 4-bit weights multiplied as bytes by the engine's dot
// products (qkernel.dot_u8s8_quads: VPDPBUSD, VPMADDUBSW pairs, USDOT;
// qkernel.dot_s8s8_quads: SDOT). Per row m and block kb of B k's:
//
//   amax[m, kb]  = max_k |a[m, k]|
//   sa[m, kb]    = fl(amax / 127)
//   qa[m, k]     = clamp(roundeven(fl(a[m, k] / sa)), -127, 127)  (0 if sa = 0)
//   rs[m, kb]    = sum_k qa[m, k]
//   isum         = sum_{k in kb} qa[m, k] q[k, n] - zp[kb, n] rs[m, kb]
//                  (= sum qa (q - zp), exact in i32)
//   y[m, n]      = sum_kb fl(f32(isum) * fl(sa[m, kb] * scale[kb, n]))
//                  in f32, kb increasing (one multiply then one add each,
//                  or one fma with --float-fma)
//
// Layouts: q packed eight to an i32 lane along k, nibble t = q[8g + t, n]
// ([1, Np / NR, K / 8, NR] i32: packWeightLanes, FloatMatMulWeights.cpp),
// so that lane & 0x0F0F0F0F holds the bytes
// q[8g], q[8g + 2], q[8g + 4], q[8g + 6] and (lane >> 4) & 0x0F0F0F0F the
// odd ones; qa in the same order, two i32 quads per group of eight
// ([M, K / 8, 2]: quads[m, g, h] = OR_i u8(qa[m, 8g + 2i + h]) << 8i).
// Products: q (u8, 0..15) x qa (s8): every pair sum is at most
// 2 * 15 * 127 = 3810, so VPMADDUBSW cannot saturate.
// Signed 4-bit weights (int4, -8..7) are taken as q + 8 (their nibble with
// the high bit flipped) with zero point zp + 8 (8 without one): q - zp, and
// so every sum, is the same.
//
//===----------------------------------------------------------------------===//

#include "FloatMatMulKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::qops;

namespace {

using utils::IteratorType;

Value emptyLike(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> shape,
                Type element, Attribute fill) {
  Value empty = tensor::EmptyOp::create(b, loc, shape, element);
  if (!fill)
    return empty;
  Value value = arith::ConstantOp::create(b, loc, cast<TypedAttr>(fill));
  return linalg::FillOp::create(b, loc, value, empty).getResult(0);
}

/// One linalg.generic over `ins` into `init` with identity-derived maps.
Value generic(OpBuilder &b, Location loc, ValueRange ins, Value init,
              ArrayRef<AffineMap> maps, ArrayRef<IteratorType> iterators,
              function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ins, ValueRange{init}, maps,
             iterators,
             [&](OpBuilder &b, Location l, ValueRange args) {
               linalg::YieldOp::create(b, l, body(b, l, args));
             })
      .getResult(0);
}

} // namespace

bool qops::takesInt8Activations(const QuantizedWeights &weights,
                                std::optional<int64_t> staticK) {
  return weights.bits == 4 && staticK &&
         *staticK == weights.k && weights.blockSize % 8 == 0 &&
         weights.k % weights.blockSize == 0;
}

Int8Activations qops::quantizeActivations(OpBuilder &b, Location loc,
                                          Value a, int64_t blockSize) {
  auto aType = cast<RankedTensorType>(a.getType()); // [1, M, K] f32, M any
  int64_t staticM = aType.getDimSize(1), k = aType.getDimSize(2);
  OpFoldResult m = tensor::getMixedSize(b, loc, a, 1);
  int64_t blocks = k / blockSize;
  auto size = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type(), i8 = b.getI8Type(), i32 = b.getI32Type();
  // a as [M, nb, B].
  Value rows = tensor::CollapseShapeOp::create(
      b, loc, a, ArrayRef<ReassociationIndices>{{0, 1}, {2}});
  Value blocked = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({staticM, blocks, blockSize}, f32), rows,
      ArrayRef<ReassociationIndices>{{0}, {1, 2}},
      ArrayRef<OpFoldResult>{m, size(blocks), size(blockSize)});
  AffineExpr d0, d1, d2, d3;
  bindDims(ctx, d0, d1, d2, d3);
  auto map3 = [&](ArrayRef<AffineExpr> e) { return AffineMap::get(3, 0, e, ctx); };
  SmallVector<IteratorType> reduce{IteratorType::parallel,
                                   IteratorType::parallel,
                                   IteratorType::reduction};
  SmallVector<IteratorType> parallel3(3, IteratorType::parallel);
  // amax, then sa = amax / 127.
  Value amax = generic(
      b, loc, blocked, emptyLike(b, loc, {m, size(blocks)}, f32, b.getF32FloatAttr(0)),
      {map3({d0, d1, d2}), map3({d0, d1})}, reduce,
      [](OpBuilder &b, Location l, ValueRange args) -> Value {
        return arith::MaximumFOp::create(
            b, l, math::AbsFOp::create(b, l, args[0]), args[1]);
      });
  auto map2 = AffineMap::getMultiDimIdentityMap(2, ctx);
  Value scale = generic(
      b, loc, amax, emptyLike(b, loc, {m, size(blocks)}, f32, nullptr),
      {map2, map2}, {IteratorType::parallel, IteratorType::parallel},
      [](OpBuilder &b, Location l, ValueRange args) -> Value {
        return arith::DivFOp::create(
            b, l, args[0],
            arith::ConstantOp::create(b, l, b.getF32FloatAttr(127.0f)));
      });
  // qa = clamp(roundeven(a / sa), -127, 127), 0 where sa = 0.
  Value qa = generic(
      b, loc, ValueRange{blocked, scale},
      emptyLike(b, loc, {m, size(blocks), size(blockSize)}, i8, nullptr),
      {map3({d0, d1, d2}), map3({d0, d1}), map3({d0, d1, d2})}, parallel3,
      [&](OpBuilder &b, Location l, ValueRange args) -> Value {
        Value zero = arith::ConstantOp::create(b, l, b.getF32FloatAttr(0));
        Value bound = arith::ConstantOp::create(b, l, b.getF32FloatAttr(127));
        Value negBound =
            arith::ConstantOp::create(b, l, b.getF32FloatAttr(-127));
        Value isZero = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ,
                                             args[1], zero);
        Value q = math::RoundEvenOp::create(
            b, l, arith::DivFOp::create(b, l, args[0], args[1]));
        q = arith::MinimumFOp::create(
            b, l, arith::MaximumFOp::create(b, l, q, negBound), bound);
        q = arith::SelectOp::create(b, l, isZero, zero, q);
        return arith::FPToSIOp::create(b, l, i8, q);
      });
  // rs = sum qa.
  Value rowSum = generic(
      b, loc, qa, emptyLike(b, loc, {m, size(blocks)}, i32, b.getI32IntegerAttr(0)),
      {map3({d0, d1, d2}), map3({d0, d1})}, reduce,
      [&](OpBuilder &b, Location l, ValueRange args) -> Value {
        return arith::AddIOp::create(
            b, l, arith::ExtSIOp::create(b, l, i32, args[0]), args[1]);
      });
  // quads[m, g, h] = OR_i u8(qa[m, g, i, h]) << 8i.
  Value octets = tensor::CollapseShapeOp::create(
      b, loc, qa, ArrayRef<ReassociationIndices>{{0}, {1, 2}});
  Value split = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({staticM, k / 8, 4, 2}, i8), octets,
      ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}},
      ArrayRef<OpFoldResult>{m, size(k / 8), size(4), size(2)});
  auto map4 = [&](ArrayRef<AffineExpr> e) { return AffineMap::get(4, 0, e, ctx); };
  Value quads = generic(
      b, loc, split, emptyLike(b, loc, {m, size(k / 8), size(2)}, i32, b.getI32IntegerAttr(0)),
      {map4({d0, d1, d3, d2}), map4({d0, d1, d2})},
      {IteratorType::parallel, IteratorType::parallel, IteratorType::parallel,
       IteratorType::reduction},
      [&](OpBuilder &b, Location l, ValueRange args) -> Value {
        Value i = arith::IndexCastOp::create(b, l, i32,
                                             linalg::IndexOp::create(b, l, 3));
        Value shift = arith::MulIOp::create(
            b, l, i, arith::ConstantOp::create(b, l, b.getI32IntegerAttr(8)));
        Value byte = arith::ExtUIOp::create(b, l, i32, args[0]);
        return arith::OrIOp::create(
            b, l, args[1], arith::ShLIOp::create(b, l, byte, shift));
      });
  return {quads, scale, rowSum};
}
