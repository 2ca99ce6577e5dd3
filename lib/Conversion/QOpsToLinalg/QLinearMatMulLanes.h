//===- QLinearMatMulLanes.h - vector lanes of the int8 matmuls --*- C++ -*-===//
//
// The pieces the int8 QLinearMatMul kernel (QLinearMatMulKernel.cpp) and the
// int8 gemv (QLinearMatMulGemv.cpp) share: their quantization parameters,
// the pairwise multiply-add (VPMADDWD's shape) and the requantization of a
// vector of i32 sums:
//
//   multiplier = (a_scale * b_scale) / y_scale         in f32
//   y          = saturate(round_half_even(f64(acc) * f64(multiplier))
//                         + y_zp)
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_QLINEARMATMULLANES_H
#define QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_QLINEARMATMULLANES_H

#include "QuantOps/Conversion/QOpsToLinalg/QOpsToLinalg.h"
#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir::qops {

/// A quantization parameter of the kernels: one element (a scalar read
/// once) or one value per row / per column (a 1-D tensor, padded to the
/// tile grid by the kernel that reads it).
struct KernelParam {
  Value tensor;    // rank 0, or 1-D
  bool perElement; // 1-D
};

/// Whether prepareKernelParam takes a parameter of this type: one element,
/// 1-D, or one dimension that is not 1 (checked before a pattern builds IR).
bool isKernelParamType(RankedTensorType type);

/// The 1-D form of a per-row / per-column parameter: [R] as is, or
/// [1, .., R, 1] / [1, .., 1, C] collapsed; a one-element parameter as rank
/// 0. Fails for batched parameters.
FailureOr<KernelParam> prepareKernelParam(OpBuilder &b, Location loc,
                                          Value param);

/// `lanes` values of `param` for the outputs (row, column .. column + lanes):
/// a scalar or the row's value broadcast (`isRow`), or the columns read
/// (the tensor must hold them: padded).
Value readKernelParam(OpBuilder &b, Location loc, const KernelParam &param,
                      Value row, Value column, bool isRow, int64_t lanes);

/// acc[i] + x[2i] * y[2i] + x[2i+1] * y[2i+1] for the lanes of two
/// vector<16xi16>, in i32: one qkernel.dot_i16_pairs (the VPMADDWD shape,
/// exact for any i16 operands but two pairs of -32768).
Value emitPairDotStep(OpBuilder &b, Location loc, Value acc, Value x, Value y);

/// The scales and y's zero point of a QLinearMatMul, prepared.
struct RequantizeParams {
  KernelParam aScale, bScale, yScale, yZeroPoint;
  bool yScaleRow, yZeroPointRow; // [.., M, 1]: per row, not per column
  Type yOnnx;                    // si8 / ui8
};

/// An int8 matmul as the kernels see it (a qkernel.matmul, whichever op it
/// came from):
///   acc[.., m, n] = sum_k (a[.., m, k] - a_zp) (b[.., k, n] - b_zp)
/// exact in i32, then requantized into an si8/ui8 y (QLinearMatMul) or
/// stored as it is into an i32 y (MatMulInteger). Each value is the op's
/// (ONNX-typed, for constants and parameter shapes) with its converted
/// storage beside it; an absent zero point (MatMulInteger) is null and
/// means 0.
struct Int8Contraction {
  Operation *op;
  Value a, aZeroPoint, b, bZeroPoint;
  Value aStorage, aZeroPointStorage, bStorage, bZeroPointStorage;
  /// Requantization (null for MatMulInteger), and the bias added to the
  /// sums before it (null when absent).
  Value aScale, bScale, yScale, yZeroPoint, bias;
  Value aScaleStorage, bScaleStorage, yScaleStorage, yZeroPointStorage,
      biasStorage;
  /// The dequantize clause (y = f32(acc) * scale [+ offset]; null when
  /// absent).
  Value dequantScale, dequantOffset;
  Value dequantScaleStorage, dequantOffsetStorage;
  RankedTensorType yType; // the op's result type (ONNX)

  bool requantizes() const { return static_cast<bool>(yScale); }
  bool dequantizes() const { return static_cast<bool>(dequantScale); }
};

/// What qkernel.matmul computes, with its converted operands (`storage`).
Int8Contraction describeInt8Contraction(qkernel::MatMulOp op,
                                        qkernel::MatMulOp::Adaptor storage);

/// A lowering of an int8 contraction (the kernel, the gemv): failure before
/// any IR is built when it does not apply.
using Int8ContractionLowering = LogicalResult (*)(
    const Int8Contraction &, ConversionPatternRewriter &,
    const TypeConverter &, bool parallel, Int8KernelStrategy);

/// The int8 gemv and the int8 kernel (QLinearMatMulGemv.cpp,
/// QLinearMatMulKernel.cpp), as Int8ContractionLowerings.
LogicalResult lowerInt8Gemv(const Int8Contraction &op,
                            ConversionPatternRewriter &rewriter,
                            const TypeConverter &converter, bool parallel,
                            Int8KernelStrategy strategy);
LogicalResult lowerInt8Kernel(const Int8Contraction &op,
                              ConversionPatternRewriter &rewriter,
                              const TypeConverter &converter, bool parallel,
                              Int8KernelStrategy strategy);

/// The generic form (QLinearMatMul.cpp): the decomposition as linalg ops,
/// for every operand type and shape qkernel.matmul takes.
LogicalResult lowerMatMulGeneric(qkernel::MatMulOp op,
                                 qkernel::MatMulOp::Adaptor adaptor,
                                 ConversionPatternRewriter &rewriter,
                                 const TypeConverter &converter,
                                 bool parallel);

/// qkernel.matmul, the whole lowering: the first of `paths` that takes the
/// op (each says why not before it builds IR), else the generic form. The
/// choice is this order, not pattern benefits.
struct Int8ContractionPattern : OpConversionPattern<qkernel::MatMulOp> {
  Int8ContractionPattern(const TypeConverter &converter, MLIRContext *ctx,
                         ArrayRef<Int8ContractionLowering> paths,
                         bool parallel, Int8KernelStrategy strategy)
      : OpConversionPattern(converter, ctx), paths(paths), parallel(parallel),
        strategy(strategy) {}

  SmallVector<Int8ContractionLowering, 2> paths;
  /// Distribute over threads (scf.forall).
  bool parallel;
  /// How the micro-kernel multiplies.
  Int8KernelStrategy strategy;

  LogicalResult
  matchAndRewrite(qkernel::MatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Int8Contraction contraction = describeInt8Contraction(op, adaptor);
    for (Int8ContractionLowering lower : paths)
      if (succeeded(lower(contraction, rewriter, *getTypeConverter(),
                          parallel, strategy)))
        return success();
    return lowerMatMulGeneric(op, adaptor, rewriter, *getTypeConverter(),
                              parallel);
  }
};

/// Why the int8 kernels do not take `c` ("not an int8 matmul", "scales are
/// not f32", "batched parameters"), or "" when they may: si8/ui8 operands
/// and an si8/ui8 (requantized) or i32 result, f32 scales, parameters
/// prepareKernelParam takes. Checked before a pattern builds IR.
StringRef int8MatMulUnsupportedReason(const Int8Contraction &c);

/// Whether b's zero point is a constant (or absent) whose zb' (zb for si8,
/// zb - 128 for ui8) is 0 everywhere.
bool isZeroSignedOperandB(const Int8Contraction &c);

/// Whether `zeroPoint` is absent or a constant 0 everywhere.
bool isZeroZeroPoint(Value zeroPoint);

/// Whether a parameter of y has the shape [.., M, 1] (per row) rather than
/// one element or [.., 1, N] / [N] (per column).
bool isPerRowParam(Value param);

/// The parameters of an int8 contraction, prepared for the kernels
/// (int8MatMulUnsupportedReason(c) must be "").
struct Int8MatMulParams {
  KernelParam aScale, aZeroPoint, bScale, bZeroPoint, yScale, yZeroPoint;
  KernelParam bias; // empty when absent
  KernelParam dequantScale, dequantOffset; // empty when absent
  bool yScaleRow, yZeroPointRow, biasRow; // [.., M, 1]: per row
  bool dequantScaleRow, dequantOffsetRow;
  Type yOnnx;

  /// The scales and y's zero point stay empty when `c` does not
  /// requantize, the bias when it has none; an absent zero point becomes
  /// a scalar 0.
  Int8MatMulParams(OpBuilder &b, Location loc, const Int8Contraction &c);
  /// Pads the per-column parameters (b's, y's unless per row) to `columns`
  /// (scale 1, zero point 0), so that the kernels read them in bounds.
  void padColumns(OpBuilder &b, Location loc, OpFoldResult columns);
  RequantizeParams requantize() const {
    return {aScale, bScale, yScale, yZeroPoint, yScaleRow, yZeroPointRow,
            yOnnx};
  }
};

/// The interleave of two rows of 16 bytes into k-pairs (x[c], y[c]): the
/// columns c = 0-7 (`high` false; VPUNPCKLBW) or 8-15 (VPUNPCKHBW).
SmallVector<int64_t> interleaveRowsMask(bool high);

/// ceil(v / multiple) * multiple, an affine.apply folded where v is static
/// (the padded sizes of the kernel's plan and of the pack stage).
OpFoldResult roundUpTo(OpBuilder &b, Location loc, OpFoldResult v,
                       int64_t multiple);

/// A16 = a - a_zp in i16 (exact: |a - a_zp| <= 255) for an a of rank 2
/// ([M, K]) or 3 ([B, M, K]); a per-row zero point (1-D) is read at M.
///   linalg.generic ins(a, a_zp) outs(tensor.empty : i16)
///     { extsi/extui(a) - extsi/extui(a_zp), trunci to i16 }
Value emitCenteredA16(OpBuilder &b, Location loc, Value a, Type aOnnx,
                      const KernelParam &aZeroPoint);

/// The multiplier lanes (a_scale * b_scale) / y_scale, f32, of the outputs
/// (row, column .. column + lanes), made finite (emitFiniteMultiplier).
Value emitMultiplierLanes(OpBuilder &b, Location loc,
                          const RequantizeParams &params, Value row,
                          Value column, int64_t lanes);

/// The dequantize clause on the lanes of the outputs (row, column ..
/// column + lanes), f32: sitofp(acc) * scale [+ offset]; `scale` and
/// `offset` are the lanes when read already (per column), else read here.
Value emitDequantizedLanes(OpBuilder &b, Location loc,
                           const Int8MatMulParams &params, Value acc,
                           Value row, Value column, Value scale, Value offset);

/// acc + bias lanes of the outputs (row, column .. column + lanes), or acc
/// when there is no bias (i32, wrapping).
Value addBiasLanes(OpBuilder &b, Location loc, const Int8MatMulParams &params,
                   Value acc, Value row, Value column);

/// y's stored lanes (i8) from the exact sums `acc` (vector<lanes x i32>) and
/// the multiplier lanes of the same outputs; in f32 (emitRequantizeSmallSum)
/// when `smallSums` (provesSmallSums of the contraction).
Value emitRequantizedLanes(OpBuilder &b, Location loc,
                           const RequantizeParams &params, Value acc,
                           Value multiplier, Value row, Value column,
                           bool smallSums = false);

/// Whether every sum of `c` is provably small enough for
/// emitRequantizeSmallSum: a static K whose K products and the bias
/// (absent or constant) stay within kMaxSmallSum, or a constant b (a)
/// whose columns' (rows') sums of |b - b_zp| bound them
/// (getMaxAbsSumAlong), with a native fma.
bool hasSmallSums(const Int8Contraction &c);

} // namespace mlir::qops

#endif // QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_QLINEARMATMULLANES_H
