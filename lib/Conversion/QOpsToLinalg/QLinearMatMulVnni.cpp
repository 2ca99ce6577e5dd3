//===- QLinearMatMulVnni.cpp - the vnni strategy's packing ----------------===//
//
// See QLinearMatMulVnni.h; formulas in QLinearMatMulKernel.cpp's header.
//
//===----------------------------------------------------------------------===//

#include "QLinearMatMulVnni.h"

#include "QuantOps/Conversion/QOpsToLinalg/QuantMath.h"
#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::qops;

namespace {

bool isSignedInt(Type onnxType) {
  return cast<IntegerType>(onnxType).isSigned();
}

int64_t staticOr(OpFoldResult value) {
  return getConstantIntValue(value).value_or(ShapedType::kDynamic);
}

SmallVector<utils::IteratorType> iterators(ArrayRef<bool> reduction) {
  SmallVector<utils::IteratorType> result;
  for (bool r : reduction)
    result.push_back(r ? utils::IteratorType::reduction
                       : utils::IteratorType::parallel);
  return result;
}

/// sum over dim `reduced` of a [B, R, C] byte tensor, each byte zero- or
/// sign-extended to i32: [B, C] (reduced = 1) or [B, R] (reduced = 2).
Value sumBytesAlong(OpBuilder &b, Location loc, Value bytes, unsigned reduced,
                    bool isSigned) {
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type();
  SmallVector<OpFoldResult> sizes;
  SmallVector<AffineExpr> kept;
  for (unsigned d = 0; d < 3; ++d) {
    if (d == reduced)
      continue;
    sizes.push_back(tensor::getMixedSize(b, loc, bytes, d));
    kept.push_back(b.getAffineDimExpr(d));
  }
  Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  Value init = linalg::FillOp::create(
                   b, loc, zero, tensor::EmptyOp::create(b, loc, sizes, i32)
                                     .getResult())
                   .getResult(0);
  SmallVector<bool> isReduction(3, false);
  isReduction[reduced] = true;
  return linalg::GenericOp::create(
             b, loc, init.getType(), bytes, init,
             ArrayRef<AffineMap>{b.getMultiDimIdentityMap(3),
                                 AffineMap::get(3, 0, kept, ctx)},
             iterators(isReduction),
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               Value wide =
                   isSigned
                       ? arith::ExtSIOp::create(nb, nl, i32, args[0]).getResult()
                       : arith::ExtUIOp::create(nb, nl, i32, args[0])
                             .getResult();
               linalg::YieldOp::create(
                   nb, nl,
                   arith::AddIOp::create(nb, nl, args[1], wide).getResult());
             })
      .getResult(0);
}

/// One elementwise generic: `value` (i8 storage) mapped by `body` to i8.
Value mapBytes(OpBuilder &b, Location loc, Value value,
               function_ref<Value(OpBuilder &, Location, Value)> body) {
  auto type = cast<RankedTensorType>(value.getType());
  Value init = createEmptyLike(b, loc, value, b.getI8Type());
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  return linalg::GenericOp::create(
             b, loc, init.getType(), value, init,
             ArrayRef<AffineMap>{id, id},
             iterators(SmallVector<bool>(type.getRank(), false)),
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl, body(nb, nl, args[0]));
             })
      .getResult(0);
}

/// An integer constant of `type` (a scalar or a vector splat).
Value integerConstant(OpBuilder &b, Location loc, Type type, int64_t value) {
  if (auto vectorType = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(
                    vectorType, b.getIntegerAttr(vectorType.getElementType(),
                                                 value)));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

Value flipSignBit(OpBuilder &b, Location loc, Value stored) {
  return arith::XOrIOp::create(
      b, loc, stored, integerConstant(b, loc, stored.getType(), 0x80));
}

/// A stored int8 value (scalar or vector) extended to i32 by its ONNX
/// signedness.
Value extendToI32(OpBuilder &b, Location loc, Value stored, Type onnx) {
  Type i32 = b.getI32Type();
  if (auto vectorType = dyn_cast<VectorType>(stored.getType()))
    i32 = vectorType.clone(i32);
  if (isSignedInt(onnx))
    return arith::ExtSIOp::create(b, loc, i32, stored);
  return arith::ExtUIOp::create(b, loc, i32, stored);
}

} // namespace

// a + 128 for an si8 a is its bit pattern with the sign bit flipped, read
// as u8 (likewise b - 128 for a ui8 b, read as s8).
Value qops::emitOperandA(OpBuilder &b, Location loc, Value stored,
                         Type aOnnx, bool signedA) {
  return isSignedInt(aOnnx) == signedA ? stored
                                       : flipSignBit(b, loc, stored);
}

Value qops::emitSignedOperandB(OpBuilder &b, Location loc, Value stored,
                               Type bOnnx) {
  return isSignedInt(bOnnx) ? stored : flipSignBit(b, loc, stored);
}

Value qops::emitZeroPointA(OpBuilder &b, Location loc, Value stored,
                           Type aOnnx, bool signedA) {
  Value zp = extendToI32(b, loc, stored, aOnnx);
  if (isSignedInt(aOnnx) == signedA)
    return zp;
  Value bias = integerConstant(b, loc, zp.getType(), 128);
  if (signedA) // ui8 a read as s8: a - 128
    return arith::SubIOp::create(b, loc, zp, bias);
  return arith::AddIOp::create(b, loc, zp, bias);
}

Value qops::emitZeroPointB(OpBuilder &b, Location loc, Value stored,
                           Type bOnnx) {
  Value zp = extendToI32(b, loc, stored, bOnnx);
  if (isSignedInt(bOnnx))
    return zp;
  return arith::SubIOp::create(b, loc, zp,
                               integerConstant(b, loc, zp.getType(), 128));
}

VnniPackedA qops::packVnniA(OpBuilder &b, Location loc, Value a, Type aOnnx,
                            bool signedA, OpFoldResult kPadded,
                            bool withRowSums, OpFoldResult rowsPadded) {
  Value bytes = mapBytes(b, loc, a, [&](OpBuilder &nb, Location nl, Value x) {
    return emitOperandA(nb, nl, x, aOnnx, signedA);
  });
  VnniPackedA packed;
  packed.bytes = padHighTo(
      b, loc, bytes,
      {tensor::getMixedSize(b, loc, a, 0),
       rowsPadded ? rowsPadded : tensor::getMixedSize(b, loc, a, 1), kPadded},
      b.getI8IntegerAttr(0));
  // rowsum[b, m] = sum_k a'[b, m, k] (zero- or sign-extended)
  if (withRowSums)
    packed.rowSum = sumBytesAlong(b, loc, bytes, /*reduced=*/2, signedA);
  return packed;
}

bool qops::isZeroSignedOperandB(Value zeroPoint, Type bOnnx) {
  DenseElementsAttr values;
  if (!matchPattern(zeroPoint, m_Constant(&values)))
    return false;
  // zb' = zb (si8) or zb - 128 (ui8).
  int64_t zero = isSignedInt(bOnnx) ? 0 : 128;
  return llvm::all_of(values.getValues<APInt>(), [&](const APInt &v) {
    return (isSignedInt(bOnnx) ? v.getSExtValue()
                               : int64_t(v.getZExtValue())) == zero;
  });
}

VnniPackedB qops::packVnniB(OpBuilder &b, Location loc, Value bMatrix,
                            Type bOnnx, Value zeroPoint,
                            bool zeroPointPerColumn, OpFoldResult k,
                            OpFoldResult n, OpFoldResult kPadded,
                            OpFoldResult nPadded, int64_t panelColumns) {
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type();
  AffineExpr d0, d1, d2, d3;
  bindDims(ctx, d0, d1, d2, d3);
  OpFoldResult batches = tensor::getMixedSize(b, loc, bMatrix, 0);

  // B32 and the column sums in one pass over b: one linalg.generic with
  // two results over (bb, p, q, c) = (batch, panel, quad of k, column of
  // the panel), q a reduction for the sums:
  //   r_j  = bp[bb, 4q + j, P p + c]   j = 0..3; bp = b padded to [Kp, Np]
  //          with the byte whose b' is 0 (0x80 for ui8, 0 for si8)
  //   b'_j = r_j (si8) or r_j ^ 0x80 (ui8)
  //   B32[bb, p, q, c]   = b'_0 | b'_1 << 8 | b'_2 << 16 | b'_3 << 24
  //   colsum[bb, p, c]  += sext(b'_0) + sext(b'_1) + sext(b'_2) + sext(b'_3)
  // The four k rows of each quad are stride-4 slices of bp, the columns
  // split into [Np/P, P].
  bool bSigned = isSignedInt(bOnnx);
  Value padded = padHighTo(b, loc, bMatrix, {batches, kPadded, nPadded},
                           b.getI8IntegerAttr(bSigned ? 0 : -128));
  AffineExpr s0 = b.getAffineSymbolExpr(0);
  OpFoldResult quads =
      affine::makeComposedFoldedAffineApply(b, loc, s0.floorDiv(4), {kPadded});
  OpFoldResult panels = affine::makeComposedFoldedAffineApply(
      b, loc, s0.floorDiv(panelColumns), {nPadded});
  SmallVector<Value> rows;
  for (int64_t which = 0; which < 4; ++which) {
    Value slice = tensor::ExtractSliceOp::create(
        b, loc, padded,
        ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(which),
                               b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{batches, quads, nPadded},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(4),
                               b.getIndexAttr(1)});
    rows.push_back(tensor::ExpandShapeOp::create(
        b, loc,
        RankedTensorType::get({staticOr(batches), staticOr(quads),
                               staticOr(panels), panelColumns},
                              b.getI8Type()),
        slice, ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}},
        ArrayRef<OpFoldResult>{batches, quads, panels,
                               b.getIndexAttr(panelColumns)}));
  }
  Value quadInit = tensor::EmptyOp::create(
      b, loc,
      ArrayRef<OpFoldResult>{batches, panels, quads,
                             b.getIndexAttr(panelColumns)},
      i32);
  Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  Value sumInit =
      linalg::FillOp::create(
          b, loc, zero,
          tensor::EmptyOp::create(
              b, loc,
              ArrayRef<OpFoldResult>{batches, panels,
                                     b.getIndexAttr(panelColumns)},
              i32)
              .getResult())
          .getResult(0);
  AffineMap rowsMap = AffineMap::get(4, 0, {d0, d2, d1, d3}, ctx);
  AffineMap packedMap = b.getMultiDimIdentityMap(4);
  AffineMap sumMap = AffineMap::get(4, 0, {d0, d1, d3}, ctx);
  auto pack = linalg::GenericOp::create(
      b, loc, TypeRange{quadInit.getType(), sumInit.getType()}, rows,
      ValueRange{quadInit, sumInit},
      ArrayRef<AffineMap>{rowsMap, rowsMap, rowsMap, rowsMap, packedMap,
                          sumMap},
      iterators({false, false, true, false}),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value lane, sum;
        for (int64_t byte = 0; byte < 4; ++byte) {
          Value prime = emitSignedOperandB(nb, nl, args[byte], bOnnx);
          Value wide = arith::ExtUIOp::create(nb, nl, i32, prime);
          if (byte > 0)
            wide = arith::ShLIOp::create(
                nb, nl, wide,
                arith::ConstantOp::create(nb, nl,
                                          nb.getI32IntegerAttr(8 * byte)));
          lane = lane ? arith::OrIOp::create(nb, nl, lane, wide).getResult()
                      : wide;
          Value value = arith::ExtSIOp::create(nb, nl, i32, prime);
          sum = sum ? arith::AddIOp::create(nb, nl, sum, value).getResult()
                    : value;
        }
        linalg::YieldOp::create(
            nb, nl,
            ValueRange{lane,
                       arith::AddIOp::create(nb, nl, args[5], sum).getResult()});
      });

  // term[b, n] = K zb'[n] - colsum[b, n] for n < N, 0 past N.
  Value columnSum = tensor::CollapseShapeOp::create(
      b, loc, pack.getResult(1), ArrayRef<ReassociationIndices>{{0}, {1, 2}});
  std::optional<int64_t> staticN = getConstantIntValue(n);
  if (!staticN || staticN != getConstantIntValue(nPadded))
    columnSum = tensor::ExtractSliceOp::create(
        b, loc, columnSum,
        ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{batches, n},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
  Value zp = zeroPoint;
  AffineMap zpMap = AffineMap::get(2, 0, {}, ctx);
  if (zeroPointPerColumn) {
    zp = tensor::ExtractSliceOp::create(
        b, loc, zeroPoint, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{n}, ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
    zpMap = AffineMap::get(2, 0, {d1}, ctx);
  }
  Value kI32 = arith::IndexCastOp::create(
      b, loc, i32, getValueOrCreateConstantIndexOp(b, loc, k));
  Value termInit = tensor::EmptyOp::create(b, loc, {batches, n}, i32);
  AffineMap id2 = b.getMultiDimIdentityMap(2);
  Value columnTerm =
      linalg::GenericOp::create(
          b, loc, termInit.getType(), ValueRange{columnSum, zp}, termInit,
          ArrayRef<AffineMap>{id2, zpMap, id2}, iterators({false, false}),
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            Value zbPrime = emitZeroPointB(nb, nl, args[1], bOnnx);
            Value scaled = arith::MulIOp::create(nb, nl, kI32, zbPrime);
            linalg::YieldOp::create(
                nb, nl, arith::SubIOp::create(nb, nl, scaled, args[0])
                            .getResult());
          })
          .getResult(0);
  return {pack.getResult(0), padHighTo(b, loc, columnTerm, {batches, nPadded},
                                       b.getI32IntegerAttr(0))};
}

Value qops::emitVnniDotStep(OpBuilder &b, Location loc, Value acc,
                            Value aQuads, Value bQuads, bool signedA,
                            bool pairSumsFitI16) {
  if (signedA)
    return qkernel::DotS8S8QuadsOp::create(b, loc, acc.getType(), acc, aQuads, bQuads);
  return qkernel::DotU8S8QuadsOp::create(b, loc, acc.getType(), acc, aQuads, bQuads,
                                pairSumsFitI16);
}
