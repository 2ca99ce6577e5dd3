//===- FloatMatMulWeights.cpp - the float kernel's quantized weights ------===//
//
// The weight-only form of the float kernel (FloatMatMulKernel.cpp): a float
// matmul whose b is a DequantizeLinear of 2-, 4- or 8-bit integers (LLM
// weights, blocked along K as opset 21 writes them) reads the integers
// packed e = 8 / bits to a byte along k and dequantizes them in registers
// (or, for a tall a, into f32 chunks its row tiles share: FloatMatMulKernel.cpp),
// by the DequantizeLinear formula:
//
//   w[k, n] = f32(q[k, n] - zp[kb, n]) * scale[kb, n]     kb = k / B
//
// q - zp is exact in i32 and in f32, the product rounded once: the same
// f32 weights as the DequantizeLinear the graph spells, so the product is
// the unfused graph's, bit for bit (the k order is the same too).
//
//   packed[0, p, g, j] = OR_t (q[g e + t, p NR + j] & mask) << (t bits)
//                        (packWeightLanes with i8 lanes; the int8 form's
//                        eight nibbles per i32 lane are the same with i32)
//   scale_p[0, p, kb, j] = scale[kb, p NR + j], zp_p likewise (blocked
//                        parameters, packBlockedParams: a panel's blocks
//                        one after another; 0 past N)
//   bytes = packed[0, p, g, v L .. v L + L)                  vector<L x i8>
//   q_t   = (bytes << (8 - (t + 1) bits)) >> (8 - bits)     (arithmetic
//           shift for signed q, logical for unsigned)
//   w_t   = sitofp(ext(q_t - zp)) * scale    (2, 4 bits: q_t - zp exact in
//           i8)  or  sitofp(ext(q_t) - ext(zp)) * scale (8 bits)   <L x f32>
//
//===----------------------------------------------------------------------===//

#include "FloatMatMulKernel.h"

#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"
#include "QuantOps/Conversion/QOpsToLinalg/QuantMath.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"
#include "QuantOps/Dialect/QOps/IR/QuantParams.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::qops;

namespace {

/// L lanes of a rank-0 tensor or a per-column [N] parameter at column ..,
/// or of a blocked one, packed (packBlockedParams), at (0, panel, block,
/// v L ..) (column = panel NR + v L).
Value readParamLanes(OpBuilder &b, Location loc, const FloatPlan &plan,
                     const QuantizedWeights &weights, Value param,
                     VectorType type, Value block, Value panel, int64_t v,
                     Value column) {
  Type element = type.getElementType();
  Value pad = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  switch (weights.kind) {
  case QuantizedWeights::ScaleKind::Scalar:
    return vector::BroadcastOp::create(
        b, loc, type, tensor::ExtractOp::create(b, loc, param, ValueRange{}));
  case QuantizedWeights::ScaleKind::PerColumn:
    return vector::TransferReadOp::create(b, loc, type, param,
                                          ValueRange{column}, pad,
                                          ArrayRef<bool>{plan.columnsExact});
  case QuantizedWeights::ScaleKind::Blocked: {
    assert(cast<RankedTensorType>(param.getType()).getRank() == 4 &&
           "blocked parameters are read packed (packBlockedParams)");
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    Value offset = arith::ConstantIndexOp::create(b, loc, v * plan.lanes);
    return vector::TransferReadOp::create(b, loc, type, param,
                                          ValueRange{c0, panel, block, offset},
                                          pad, ArrayRef<bool>{true});
  }
  }
  return {};
}

} // namespace

FailureOr<QuantizedWeights>
qops::matchQuantizedWeights(OpBuilder &builder, Location loc, Value b) {
  auto dq = b.getDefiningOp<DequantizeLinearOp>();
  if (!dq)
    return failure();
  auto qType = cast<RankedTensorType>(dq.getX().getType());
  auto scaleType = cast<RankedTensorType>(dq.getXScale().getType());
  auto qInt = dyn_cast<IntegerType>(qType.getElementType());
  if (!qInt || qInt.isSignless() ||
      !llvm::is_contained({2u, 4u, 8u}, qInt.getWidth()) ||
      !scaleType.getElementType().isF32() || qType.getRank() != 2 ||
      !qType.hasStaticShape() ||
      !cast<RankedTensorType>(dq.getY().getType()).getElementType().isF32())
    return failure();
  QuantizedWeights weights;
  weights.bits = qInt.getWidth();
  weights.isSigned = qInt.isSigned();
  weights.k = qType.getDimSize(0);
  weights.blockSize = weights.k;
  if (weights.k % weights.perByte() != 0)
    return failure();
  // The op verified: the classification cannot fail.
  FailureOr<QuantGranularity> granularity = classifyQuantGranularity(
      qType, scaleType, dq.getAxis(), dq.getBlockSize(), "dequantize",
      [&] { return dq.emitOpError(); });
  if (failed(granularity))
    return failure();
  switch (granularity->kind) {
  case Granularity::PerTensor:
    weights.kind = QuantizedWeights::ScaleKind::Scalar;
    break;
  case Granularity::PerAxis:
    if (granularity->axis != 1)
      return failure();
    weights.kind = QuantizedWeights::ScaleKind::PerColumn;
    break;
  case Granularity::Blocked:
    if (granularity->axis != 0 ||
        granularity->blockSize % weights.perByte() != 0)
      return failure();
    weights.kind = QuantizedWeights::ScaleKind::Blocked;
    weights.blockSize = granularity->blockSize;
    break;
  }
  bool scalar = weights.kind == QuantizedWeights::ScaleKind::Scalar;
  weights.q = castToStorage(builder, loc, dq.getX());
  weights.scale = scalar ? collapseToScalarTensor(builder, loc, dq.getXScale())
                         : dq.getXScale();
  if (Value zp = dq.getXZeroPoint()) {
    zp = castToStorage(builder, loc, zp);
    weights.zeroPoint = scalar ? collapseToScalarTensor(builder, loc, zp) : zp;
  }
  return weights;
}

Value qops::packWeightLanes(OpBuilder &b, Location loc, const FloatPlan &plan,
                            const QuantizedWeights &weights,
                            Type laneElement) {
  int64_t width = laneElement.getIntOrFloatBitWidth();
  int64_t perLane = width / weights.bits;
  auto bytesType = VectorType::get({plan.lanes}, b.getI8Type());
  auto lanesType = VectorType::get({plan.lanes}, laneElement);
  auto splat = [&](OpBuilder &b, Location l, int64_t value) -> Value {
    return arith::ConstantOp::create(
        b, l,
        DenseElementsAttr::get(lanesType,
                               b.getIntegerAttr(laneElement, value)));
  };
  Value pad = arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(0));
  auto write = [&](OpBuilder &b, Location l, Value, Value n0, Value g,
                   Value slice) {
    Value c0 = arith::ConstantIndexOp::create(b, l, 0);
    Value k0 = arith::MulIOp::create(
        b, l, g, arith::ConstantIndexOp::create(b, l, perLane));
    for (int64_t v = 0; v < plan.vectors; ++v) {
      Value offset = arith::ConstantIndexOp::create(b, l, v * plan.lanes);
      Value column = arith::AddIOp::create(b, l, n0, offset);
      Value lanes;
      for (int64_t t = 0; t < perLane; ++t) {
        Value k = arith::AddIOp::create(
            b, l, k0, arith::ConstantIndexOp::create(b, l, t));
        Value part = vector::TransferReadOp::create(
            b, l, bytesType, weights.q, ValueRange{k, column}, pad,
            ArrayRef<bool>{plan.columnsExact});
        if (width > 8)
          part = arith::ExtUIOp::create(b, l, lanesType, part);
        if (weights.bits < width)
          part = arith::AndIOp::create(b, l, part,
                                       splat(b, l, (1 << weights.bits) - 1));
        // The int8 form's lanes (i32) hold a signed q as q + 2^(bits - 1):
        // the two's complement nibble with its high bit flipped.
        if (width > 8 && weights.isSigned)
          part = arith::XOrIOp::create(b, l, part,
                                       splat(b, l, 1 << (weights.bits - 1)));
        if (t > 0)
          part = arith::ShLIOp::create(b, l, part,
                                       splat(b, l, t * weights.bits));
        lanes = lanes ? arith::OrIOp::create(b, l, lanes, part).getResult()
                      : part;
      }
      slice = vector::TransferWriteOp::create(b, l, lanes, slice,
                                              ValueRange{c0, c0, g, offset},
                                              ArrayRef<bool>{true})
                  .getResult();
    }
    return slice;
  };
  return packPanels(b, loc, plan, b.getIndexAttr(1),
                    b.getIndexAttr(weights.k / perLane), laneElement, write);
}

void qops::packBlockedParams(OpBuilder &b, Location loc,
                             const FloatPlan &plan,
                             QuantizedWeights &weights) {
  if (weights.kind != QuantizedWeights::ScaleKind::Blocked)
    return;
  int64_t blocks = llvm::divideCeil(weights.k, weights.blockSize);
  // packed[0, p, kb, j] = param[kb, p NR + j]   (0 past N)
  auto pack = [&](Value param) {
    return packRowPanels(b, loc, plan, param, b.getIndexAttr(1),
                         b.getIndexAttr(blocks));
  };
  weights.scale = pack(weights.scale);
  if (weights.zeroPoint)
    weights.zeroPoint = pack(weights.zeroPoint);
}

Value qops::readScaleLanes(OpBuilder &b, Location loc, const FloatPlan &plan,
                           const QuantizedWeights &weights, Value block,
                           Value panel, int64_t v, Value column) {
  return readParamLanes(b, loc, plan, weights, weights.scale,
                        VectorType::get({plan.lanes}, b.getF32Type()), block,
                        panel, v, column);
}

Value qops::readZeroPointLanes(OpBuilder &b, Location loc,
                               const FloatPlan &plan,
                               const QuantizedWeights &weights, Value block,
                               Value panel, int64_t v, Value column) {
  Value bytes = readParamLanes(b, loc, plan, weights, weights.zeroPoint,
                               VectorType::get({plan.lanes}, b.getI8Type()),
                               block, panel, v, column);
  // 2- and 4-bit: q - zp fits i8 (|q - zp| < 16), subtracted as bytes.
  if (weights.bits < 8)
    return bytes;
  auto wide = VectorType::get({plan.lanes}, b.getI32Type());
  if (weights.isSigned)
    return arith::ExtSIOp::create(b, loc, wide, bytes);
  return arith::ExtUIOp::create(b, loc, wide, bytes);
}

Value qops::biasZeroPointLanes(OpBuilder &b, Location loc,
                               const QuantizedWeights &weights,
                               Value zeroPoint) {
  if (!weights.isSigned || weights.bits >= 8)
    return zeroPoint;
  auto type = cast<VectorType>(zeroPoint.getType());
  Value half = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(type,
                             b.getI8IntegerAttr(1 << (weights.bits - 1))));
  return arith::AddIOp::create(b, loc, zeroPoint, half);
}

// Sub-byte fields, with h = 2^(bits - 1) and x = bytes ^ (h in every
// field) for signed q (once per byte vector):
//   u_t = (x >> t bits) & (2^bits - 1)     (no shift for t = 0, no mask
//                                          for the top field)
//   signed:   q_t = u_t - h  (u_t = q_t + h: the two's complement field
//             with its high bit flipped), so q_t - zp = u_t - (zp + h),
//             the zero point biased where its lanes are read
//             (biasZeroPointLanes: once per block in the tiles' registers,
//             per byte group in the dequantized chunks)
//   unsigned: q_t = u_t
// in i8 (|q - zp| <= 15), then sign-extended. (A field extracted with a
// left and an arithmetic right shift cost x86, which shifts no bytes, a
// word shift, a mask, an xor and a subtraction for each shift.) The byte
// operations run once on all V vectors' bytes (16 with two ymm vectors of
// f32: one xmm operation instead of two), the widened lanes are split per
// vector for the conversion and the scale.
SmallVector<SmallVector<Value>>
qops::dequantizeBytes(OpBuilder &b, Location loc, const FloatPlan &plan,
                      const QuantizedWeights &weights, Value bytes,
                      ArrayRef<Value> scales, Value zeroPoint) {
  auto bytesType = cast<VectorType>(bytes.getType());
  int64_t vectors = scales.size(), lanes = plan.lanes;
  assert((weights.bits < 8 || vectors == 1) &&
         "8-bit q: one vector at a time (its zero point is i32 lanes)");
  auto wide = VectorType::get({vectors * lanes}, b.getI32Type());
  auto splat = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(bytesType, b.getI8IntegerAttr(value)));
  };
  int64_t e = weights.perByte(), bits = weights.bits;
  int64_t half = int64_t(1) << (bits - 1);
  Value x = bytes;
  if (bits < 8 && weights.isSigned) {
    int64_t pattern = 0;
    for (int64_t t = 0; t < e; ++t)
      pattern |= half << (t * bits);
    x = arith::XOrIOp::create(b, loc, bytes, splat(int8_t(pattern)));
  }
  SmallVector<SmallVector<Value>> result(e);
  for (int64_t t = 0; t < e; ++t) {
    Value d;
    if (bits < 8) {
      Value u = x;
      if (t > 0)
        u = arith::ShRUIOp::create(b, loc, u, splat(t * bits));
      if (t < e - 1)
        u = arith::AndIOp::create(b, loc, u, splat((1 << bits) - 1));
      if (zeroPoint)
        u = arith::SubIOp::create(b, loc, u, zeroPoint);
      else if (weights.isSigned)
        u = arith::SubIOp::create(b, loc, u, splat(half));
      d = weights.isSigned || zeroPoint
              ? arith::ExtSIOp::create(b, loc, wide, u).getResult()
              : arith::ExtUIOp::create(b, loc, wide, u).getResult();
    } else {
      d = weights.isSigned
              ? arith::ExtSIOp::create(b, loc, wide, x).getResult()
              : arith::ExtUIOp::create(b, loc, wide, x).getResult();
      if (zeroPoint)
        d = arith::SubIOp::create(b, loc, d, zeroPoint);
    }
    for (int64_t v = 0; v < vectors; ++v) {
      Value part = d;
      if (vectors > 1)
        part = vector::ExtractStridedSliceOp::create(
            b, loc, d, ArrayRef<int64_t>{v * lanes}, ArrayRef<int64_t>{lanes},
            ArrayRef<int64_t>{1});
      Value f = arith::SIToFPOp::create(b, loc, plan.vectorType, part);
      result[t].push_back(arith::MulFOp::create(b, loc, f, scales[v]));
    }
  }
  return result;
}
