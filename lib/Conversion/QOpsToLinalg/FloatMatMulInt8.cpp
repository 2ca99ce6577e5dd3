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
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::qops;

bool qops::takesInt8Activations(const QuantizedWeights &weights,
                                std::optional<int64_t> staticK) {
  return weights.bits == 4 && staticK &&
         *staticK == weights.k && weights.blockSize % 8 == 0 &&
         weights.k % weights.blockSize == 0;
}

/// The activations in vector code, per row m and block kb (G = B / 8
/// groups of eight k), three loops of vector<8xf32> each:
///
///   scf.for %m = 0 to M iter_args(%q, %s, %r) {
///     scf.for %kb = 0 to nb iter_args(..) {
///       amax8 = scf.for %j = 0 to G: max(|a[m, kb B + 8j ..]|, amax8)
///       sa    = vector.reduction <maximumf> amax8 / 127
///       scf.for %j = 0 to G iter_args(%q, %rs8) {
///         qa8  = fptosi(select(sa == 0, 0,
///                  clamp(roundeven(a[m, kb B + 8j ..] / sa), -127, 127)))
///         rs8 += extsi(qa8)
///         q[m, kb G + j, 0 .. 2] = bitcast(shuffle(qa8, [0, 2, 4, 6,
///                                   1, 3, 5, 7]) : vector<8xi8> to
///                                   vector<2xi32>)
///       }
///       s[m, kb] = sa, r[m, kb] = vector.reduction <add> rs8
///     }
///   }
///
/// The maximum is exact in any order (|a| >= +0, NaN propagates either
/// way) and the row sums are integers, so the values are those of the
/// element-wise definition in the file comment. The bitcast reads the
/// shuffled bytes little-endian (x86-64, AArch64): the quads' byte i at
/// bits 8i. (As linalg.generic reductions, -O3 vectorized these across
/// blocks with gathers and unrolled each block's elements: two blocks of
/// 885 instructions in the 1 x 4096 x 11008 gemv's main.)
Int8Activations qops::quantizeActivations(OpBuilder &b, Location loc,
                                          Value a, int64_t blockSize) {
  auto aType = cast<RankedTensorType>(a.getType()); // [1, M, K] f32, M any
  int64_t k = aType.getDimSize(2);
  OpFoldResult m = tensor::getMixedSize(b, loc, a, 1);
  int64_t blocks = k / blockSize, groups = blockSize / 8;
  Type f32 = b.getF32Type(), i8 = b.getI8Type(), i32 = b.getI32Type();
  auto v8f32 = VectorType::get({8}, f32), v8i8 = VectorType::get({8}, i8);
  auto v8i32 = VectorType::get({8}, i32), v2i32 = VectorType::get({2}, i32);
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  auto f32Constant = [&](float v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v)).getResult();
  };
  Value rows = tensor::CollapseShapeOp::create(
      b, loc, a, ArrayRef<ReassociationIndices>{{0, 1}, {2}});
  auto empty = [&](ArrayRef<int64_t> shape, Type element) -> Value {
    SmallVector<OpFoldResult> sizes{m};
    for (int64_t d : shape)
      sizes.push_back(b.getIndexAttr(d));
    return tensor::EmptyOp::create(b, loc, sizes, element);
  };
  Value c0 = index(0), c1 = index(1), c8 = index(8);
  Value cBlock = index(blockSize), cGroups = index(groups);
  Value zero8 = arith::ConstantOp::create(b, loc, DenseElementsAttr::get(
                                                      v8f32, 0.0f));
  Value rsZero = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(v8i32, int32_t(0)));
  Value c127 = f32Constant(127.0f), zero = f32Constant(0.0f);
  Value bound = vector::BroadcastOp::create(b, loc, v8f32, c127);
  Value negBound =
      vector::BroadcastOp::create(b, loc, v8f32, f32Constant(-127.0f));
  auto read = [&](OpBuilder &b, Location l, Value row, Value k0, Value j) {
    Value kj = arith::AddIOp::create(b, l, k0,
                                     arith::MulIOp::create(b, l, j, c8));
    return vector::TransferReadOp::create(b, l, v8f32, rows,
                                          ValueRange{row, kj}, zero,
                                          ArrayRef<bool>{true})
        .getResult();
  };
  SmallVector<Value> inits{empty({k / 8, 2}, i32), empty({blocks}, f32),
                           empty({blocks}, i32)};
  auto rowLoop = scf::ForOp::create(
      b, loc, c0, getValueOrCreateConstantIndexOp(b, loc, m), c1, inits,
      [&](OpBuilder &b, Location l, Value row, ValueRange perRow) {
        auto blockLoop = scf::ForOp::create(
            b, l, c0, index(blocks), c1, perRow,
            [&](OpBuilder &b, Location l, Value kb, ValueRange acc) {
              Value k0 = arith::MulIOp::create(b, l, kb, cBlock);
              auto maxLoop = scf::ForOp::create(
                  b, l, c0, cGroups, c1, ValueRange{zero8},
                  [&](OpBuilder &b, Location l, Value j, ValueRange m8) {
                    Value abs = math::AbsFOp::create(b, l, read(b, l, row, k0, j));
                    scf::YieldOp::create(
                        b, l, arith::MaximumFOp::create(b, l, abs, m8[0])
                                  .getResult());
                  });
              Value amax = vector::ReductionOp::create(
                  b, l, vector::CombiningKind::MAXIMUMF,
                  maxLoop.getResult(0));
              Value sa = arith::DivFOp::create(b, l, amax, c127);
              Value isZero = arith::CmpFOp::create(
                  b, l, arith::CmpFPredicate::OEQ, sa, zero);
              Value sa8 = vector::BroadcastOp::create(b, l, v8f32, sa);
              auto quantLoop = scf::ForOp::create(
                  b, l, c0, cGroups, c1, ValueRange{acc[0], rsZero},
                  [&](OpBuilder &b, Location l, Value j, ValueRange qr) {
                    Value q = math::RoundEvenOp::create(
                        b, l, arith::DivFOp::create(
                                  b, l, read(b, l, row, k0, j), sa8));
                    q = arith::MinimumFOp::create(
                        b, l, arith::MaximumFOp::create(b, l, q, negBound),
                        bound);
                    q = arith::SelectOp::create(b, l, isZero, zero8, q);
                    Value qa = arith::FPToSIOp::create(b, l, v8i8, q);
                    Value rs = arith::AddIOp::create(
                        b, l, qr[1], arith::ExtSIOp::create(b, l, v8i32, qa));
                    Value pairs = vector::BitCastOp::create(
                        b, l, v2i32,
                        vector::ShuffleOp::create(
                            b, l, qa, qa,
                            ArrayRef<int64_t>{0, 2, 4, 6, 1, 3, 5, 7}));
                    Value g = arith::AddIOp::create(
                        b, l, arith::MulIOp::create(b, l, kb, cGroups), j);
                    Value quads = vector::TransferWriteOp::create(
                                      b, l, pairs, qr[0],
                                      ValueRange{row, g, c0},
                                      ArrayRef<bool>{true})
                                      .getResult();
                    scf::YieldOp::create(b, l, ValueRange{quads, rs});
                  });
              Value rowSum = vector::ReductionOp::create(
                  b, l, vector::CombiningKind::ADD, quantLoop.getResult(1));
              Value scales = tensor::InsertOp::create(b, l, sa, acc[1],
                                                      ValueRange{row, kb});
              Value sums = tensor::InsertOp::create(b, l, rowSum, acc[2],
                                                    ValueRange{row, kb});
              scf::YieldOp::create(
                  b, l, ValueRange{quantLoop.getResult(0), scales, sums});
            });
        scf::YieldOp::create(b, l, blockLoop.getResults());
      });
  return {rowLoop.getResult(0), rowLoop.getResult(1), rowLoop.getResult(2)};
}
