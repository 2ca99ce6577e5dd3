//===- QLinearMatMulVnni.cpp - the vnni strategy's packing ----------------===//
//
// See QLinearMatMulVnni.h; formulas in QLinearMatMulKernel.cpp's header.
//
//===----------------------------------------------------------------------===//

#include "QLinearMatMulVnni.h"
#include "TuningTable.h"

#include "QuantOps/Conversion/QOpsToLinalg/QuantMath.h"
#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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

/// colsum[b, n] = sum_k bytes[b, k, n] (signed) with threads: one scf.forall
/// task per batch and chunk of kColumnSumColumns columns, each summing its
/// slice [1, K, w] with sumBytesAlong:
///   scf.forall (bi, nc) = (0, 0) to (B, N) step (1, C) shared_outs(%s)
///     w = min(C, N - nc)             (C where C divides a static N)
///     %part = sumBytesAlong(bytes[bi, 0:K, nc:nc+w])      // [1, w]
///     parallel_insert_slice %part into %s[bi, nc][1, w]
/// (A reduction is not an elementwise op: qops-vectorize-elementwise leaves
/// it on one thread.)
Value sumColumnsOverThreads(OpBuilder &b, Location loc, Value bytes) {
  OpFoldResult batches = tensor::getMixedSize(b, loc, bytes, 0);
  OpFoldResult k = tensor::getMixedSize(b, loc, bytes, 1);
  OpFoldResult n = tensor::getMixedSize(b, loc, bytes, 2);
  Value init = tensor::EmptyOp::create(b, loc, {batches, n}, b.getI32Type());
  auto forall = scf::ForallOp::create(
      b, loc,
      ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{batches, n},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1),
                             b.getIndexAttr(kColumnSumColumns)},
      ValueRange{init}, std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forall.getBody());
  Value bi = forall.getInductionVar(0), nc = forall.getInductionVar(1);
  AffineExpr d0 = b.getAffineDimExpr(0), s0 = b.getAffineSymbolExpr(0);
  // A static N that the chunks divide gives every slice a static width (the
  // sum's inner loop then has a constant trip count).
  std::optional<int64_t> staticN = getConstantIntValue(n);
  OpFoldResult width =
      staticN && *staticN % kColumnSumColumns == 0
          ? OpFoldResult(b.getIndexAttr(kColumnSumColumns))
          : affine::makeComposedFoldedAffineMin(
                b, loc,
                AffineMap::get(1, 1,
                               {b.getAffineConstantExpr(kColumnSumColumns),
                                s0 - d0},
                               b.getContext()),
                {nc, n});
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  Value slice = tensor::ExtractSliceOp::create(
      b, loc, bytes, ArrayRef<OpFoldResult>{bi, zero, nc},
      ArrayRef<OpFoldResult>{one, k, width},
      ArrayRef<OpFoldResult>{one, one, one});
  Value part = sumBytesAlong(b, loc, slice, /*reduced=*/1, /*isSigned=*/true);
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(
      b, loc, part, forall.getRegionIterArgs()[0],
      ArrayRef<OpFoldResult>{bi, nc}, ArrayRef<OpFoldResult>{one, width},
      ArrayRef<OpFoldResult>{one, one});
  return forall.getResult(0);
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
                            OpFoldResult nPadded, int64_t panelColumns,
                            bool parallel) {
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type();
  AffineExpr d0, d1, d2, d3;
  bindDims(ctx, d0, d1, d2, d3);
  Value bytes =
      mapBytes(b, loc, bMatrix, [&](OpBuilder &nb, Location nl, Value x) {
        return emitSignedOperandB(nb, nl, x, bOnnx);
      });
  OpFoldResult batches = tensor::getMixedSize(b, loc, bMatrix, 0);

  // colsum[b, n] = sum_k sext(b'[b, k, n])
  // On threads only for a b large enough to pay for the extra parallel
  // region (TuningTable.h).
  std::optional<int64_t> staticK = getConstantIntValue(k),
                         staticN = getConstantIntValue(n);
  bool sumOnThreads = parallel && staticK && staticN &&
                      *staticK * *staticN >= kColumnSumThreadBytes;
  Value columnSum =
      sumOnThreads
          ? sumColumnsOverThreads(b, loc, bytes)
          : sumBytesAlong(b, loc, bytes, /*reduced=*/1, /*isSigned=*/true);

  // term[b, n] = K zb'[n] - colsum[b, n]
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

  // B32[b, p, q, c] = b'[4q] | b'[4q+1] << 8 | b'[4q+2] << 16 | b'[4q+3] << 24
  // of column 16p + c: the four k rows of each quad are stride-4 slices of
  // the padded b', with the columns split into [Np/16, 16].
  Value padded = padHighTo(b, loc, bytes, {batches, kPadded, nPadded},
                         b.getI8IntegerAttr(0));
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
  AffineMap rowsMap = AffineMap::get(4, 0, {d0, d2, d1, d3}, ctx);
  AffineMap packedMap = b.getMultiDimIdentityMap(4);
  Value packed =
      linalg::GenericOp::create(
          b, loc, quadInit.getType(), rows, quadInit,
          ArrayRef<AffineMap>{rowsMap, rowsMap, rowsMap, rowsMap, packedMap},
          iterators({false, false, false, false}),
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            Value lane;
            for (int64_t byte = 0; byte < 4; ++byte) {
              Value wide = arith::ExtUIOp::create(nb, nl, i32, args[byte]);
              if (byte > 0)
                wide = arith::ShLIOp::create(
                    nb, nl, wide,
                    arith::ConstantOp::create(
                        nb, nl, nb.getI32IntegerAttr(8 * byte)));
              lane = lane ? arith::OrIOp::create(nb, nl, lane, wide).getResult()
                          : wide;
            }
            linalg::YieldOp::create(nb, nl, lane);
          })
          .getResult(0);
  return {packed, padHighTo(b, loc, columnTerm, {batches, nPadded},
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
