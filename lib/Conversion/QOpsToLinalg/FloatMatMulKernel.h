//===- FloatMatMulKernel.h - pieces of the float kernel ---------*- C++ -*-===//
//
// What FloatMatMulKernel.cpp (the tiles) and FloatMatMulWeights.cpp (the
// weight-only form: b = DequantizeLinear of 2-, 4- or 8-bit integers) share:
// the plan of one contraction and the packing of b's panels.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_FLOATMATMULKERNEL_H
#define QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_FLOATMATMULKERNEL_H

#include "TuningTable.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace mlir::qops {

/// What the float kernel decided for one [B, M, K] x [Bb, K, N] product.
struct FloatPlan {
  FloatKernelConfig config;
  int64_t lanes, rows, vectors, panelColumns, rowBlock;
  bool packed, columnsExact, partialTiles, fma;
  bool dequantizeChunks = false; // weight-only: panels dequantized a chunk
                                 // of k at a time (FloatMatMulKernel.cpp)
  int64_t chunkRows = 0;         // its k rows (getFloatDequantizeChunk)
  OpFoldResult batch, m, k, n, mPadded, nPadded;
  std::optional<int64_t> staticM, staticN;
  VectorType vectorType; // vector<lanes x element>, element f32 or f64
  Type storage;          // a's and b's element: element, or f16 / bf16 (f32
                         // sums of values extended as they are read)
  VectorType storageVector() const {
    return VectorType::get({lanes}, storage);
  }
};

/// Writes k row `row` of the panel at column `n0` (of b's batch `bb`) into
/// `slice` ([1, 1, rows, NR]); returns the written slice.
using PanelRowWriter = function_ref<Value(OpBuilder &b, Location loc,
                                          Value bb, Value n0, Value row,
                                          Value slice)>;

/// b's panels [batches, Np / NR, rows, NR] of `element`: one perfect nest
/// over batches x panels, marked qkernel.parallel_loops (each panel its own
/// slice, for qops-distribute), in each panel a loop over its `rows` rows.
Value packPanels(OpBuilder &b, Location loc, const FloatPlan &plan,
                 OpFoldResult batches, OpFoldResult rows, Type element,
                 PanelRowWriter writeRow);

/// Panels [batches, Np / NR, rows, NR] of `src` ([batches, rows, N], or
/// [rows, N] for one batch): row r of panel p of batch bb holds
/// src[bb, r, p NR .. p NR + NR), 0 past N (packPanels, V vector
/// transfers per row).
Value packRowPanels(OpBuilder &b, Location loc, const FloatPlan &plan,
                    Value src, OpFoldResult batches, OpFoldResult rows);

/// The weight-only form's b: y = x DQ(q), with
///   DQ(q)[k, n] = f32(q[k, n] - zp[kb, n]) * scale[kb, n],  kb = k / B
/// q 2-, 4- or 8-bit (signed or not, one element per byte in storage),
/// scale f32 per tensor, per column or blocked along K (B; B = K
/// otherwise), zp optional and shaped as scale.
struct QuantizedWeights {
  enum class ScaleKind { Scalar, PerColumn, Blocked };
  Value q;         // [K, N] i8 storage
  Value scale;     // rank 0, [N] or [ceil(K / B), N], f32; blocked, after
                   // packBlockedParams: [1, Np / NR, ceil(K / B), NR]
  Value zeroPoint; // null, or shaped as scale, i8 storage
  ScaleKind kind;
  int64_t bits, blockSize, k;
  bool isSigned;
  int64_t perByte() const { return 8 / bits; }
};

/// `b` as quantized weights, or failure (then the kernel multiplies the
/// float b that DequantizeLinear makes, as any other).
FailureOr<QuantizedWeights> matchQuantizedWeights(OpBuilder &builder,
                                                  Location loc, Value b);

/// q packed along k into lanes of `laneElement` (i8 or i32), e =
/// width / bits values of k to a lane: [1, Np / NR, K / e, NR], lane (g, j)
/// of panel p holding q[g e + t, p NR + j] in bits [t bits, (t + 1) bits)
/// for t = 0 .. e - 1 (0 past N). i8: the weight-only form's bytes; i32
/// with 4-bit q: the int8 form's eight nibbles per lane (a signed q as
/// q + 8).
Value packWeightLanes(OpBuilder &b, Location loc, const FloatPlan &plan,
                      const QuantizedWeights &weights, Type laneElement);

/// A blocked scale and zero point ([ceil(K / B), N]) repacked in the
/// panels' order, [1, Np / NR, ceil(K / B), NR] (0 past N), so that a
/// panel's k loop reads its blocks' parameters as one forward stream: in
/// [ceil(K / B), N] each block of a panel is N elements past the last, a
/// page or more apart for LLM widths, which the hardware prefetchers do
/// not follow. Constant parameters are packed once, as the weights are
/// (the pack is a constant expression); run-time ones on every call, as
/// q is (a read and a write of 4 / B of q's elements' count in f32).
/// Other kinds are left as they are. readScaleLanes and
/// readZeroPointLanes read blocked parameters in this layout only.
void packBlockedParams(OpBuilder &b, Location loc, const FloatPlan &plan,
                       QuantizedWeights &weights);

/// The scale (or zero point: i8 for 2- and 4-bit q, widened to i32 for
/// 8-bit) lanes of columns column .. column + lanes of block `block`;
/// `column` is lane v * lanes of panel `panel` (which packed parameters
/// are read by).
Value readScaleLanes(OpBuilder &b, Location loc, const FloatPlan &plan,
                     const QuantizedWeights &weights, Value block,
                     Value panel, int64_t v, Value column);
Value readZeroPointLanes(OpBuilder &b, Location loc, const FloatPlan &plan,
                         const QuantizedWeights &weights, Value block,
                         Value panel, int64_t v, Value column);

/// A zero point's lanes as dequantizeBytes takes them: zp + 2^(bits - 1)
/// for signed 2- and 4-bit q (exact in i8), zp otherwise.
Value biasZeroPointLanes(OpBuilder &b, Location loc,
                         const QuantizedWeights &weights, Value zeroPoint);

/// The weight vectors of the packed bytes of V = scales.size() adjacent
/// vectors of a panel row, `bytes` (vector<V lanes x i8>; V = 1 for 8-bit
/// q): result[t][v] = f32(q_t - zp) * scales[v] for field t = 0 .. e - 1
/// and lanes v lanes .. v lanes + lanes - 1 (zeroPoint may be null; given,
/// V lanes wide, biased by biasZeroPointLanes).
SmallVector<SmallVector<Value>>
dequantizeBytes(OpBuilder &b, Location loc, const FloatPlan &plan,
                const QuantizedWeights &weights, Value bytes,
                ArrayRef<Value> scales, Value zeroPoint);

/// A quantized per row and block of K to int8 (FloatMatMulInt8.cpp, which
/// has the formulas): the quads [M, K / 8, 2] i32 (two per group of eight
/// k, even k then odd k), the scale sa [M, K / B] f32 and the row sums
/// rs [M, K / B] i32.
struct Int8Activations {
  Value quads, scale, rowSum;
};

/// Whether `weights` can be multiplied with int8 activations: 4-bit
/// (unsigned, or signed packed as q + 8), blocked along a static K by a
/// multiple of 8 that divides K.
bool takesInt8Activations(const QuantizedWeights &weights,
                          std::optional<int64_t> staticK);

/// The int8 activations of `a` ([1, M, K] f32, K static, M any).
Int8Activations quantizeActivations(OpBuilder &b, Location loc, Value a,
                                    int64_t blockSize);

} // namespace mlir::qops

#endif // QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_FLOATMATMULKERNEL_H
