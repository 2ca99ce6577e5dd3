//===- ConvolutionForms.h - what the convolution forms share ----*- C++ -*-===//
//
// The convolution decomposition (DecomposeConvolutions.cpp) chooses a form
// by the shapes; the forms that are not a qkernel.matmul (the depthwise
// direct form, DepthwiseConvolution.cpp) live in their own files and share
// the op's description and these helpers with it. Private to
// QuantOpsQOpsToLinalg.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_CONVOLUTIONFORMS_H
#define QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_CONVOLUTIONFORMS_H

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::qops::conv {

/// What the decomposition reads of either convolution op (ConvInteger,
/// QLinearConv), ONNX typed.
struct Convolution {
  Operation *op;
  Value x, xZeroPoint, w, wZeroPoint;
  SmallVector<int64_t> strides, dilations, pads;
  int64_t group;
};

/// What every form takes besides x and w.
struct ConvParams {
  ArrayRef<Value> scales; // x_scale, w_scale, y_scale, y_zero_point or none
  Value bias;
  Value dequantScale, dequantOffset; // ConvInteger's fused clause, or null

  /// scales[i], or null for ConvInteger.
  Value scale(int i) const { return scales.empty() ? Value() : scales[i]; }
};

RankedTensorType rankedType(Value v);

/// `value` as `type` through a storage cast (the identity when equal).
Value castTo(OpBuilder &b, Location loc, Value value, Type type);

/// The dims begin .. end - 1, as one reassociation group.
ReassociationIndices dimRange(int64_t begin, int64_t end);

/// A reshape of `value` (storage or ONNX typed) into `shape`, by
/// `reassociation` (collapse when `shape` has fewer dims, else expand; none
/// when it is `value`'s shape), typed with `onnxElement`.
Value reshape(OpBuilder &b, Location loc, Value value, Type onnxElement,
              ArrayRef<int64_t> shape,
              ArrayRef<ReassociationIndices> reassociation);

/// x (NCHW) padded with its zero point, in storage.
Value padInput(OpBuilder &b, Location loc, const Convolution &c);

/// The kernel tap number `tap` (row-major over `kernel`) as its offsets
/// k.. in each spatial dimension.
SmallVector<int64_t> kernelTap(int64_t tap, ArrayRef<int64_t> kernel);

/// `offset` * `factor` (a tap's offset times a dilation): `offset` itself
/// for 1, else folded or one affine.apply.
OpFoldResult scaleOffset(OpBuilder &b, Location loc, OpFoldResult offset,
                         int64_t factor);

/// Threads `slice` through `body` once per tap of `kernel` (row-major),
/// given the tap's offsets k..: unrolled, k.. constants, up to
/// kMaxUnrolledTaps taps (TuningTable.h); beyond, one scf.for over the
/// taps t with `slice` as its iteration argument and
///   k_i = (t floordiv prod(K_{i+1}..)) mod K_i   (affine.apply; no mod
///   for k_0).
Value forEachTap(
    OpBuilder &b, Location loc, ArrayRef<int64_t> kernel, Value slice,
    llvm::function_ref<Value(OpBuilder &, Location, ArrayRef<OpFoldResult>,
                             Value)>
        body);

/// The depthwise direct form (DepthwiseConvolution.cpp) takes `c`: one
/// input and one output channel per group (G = C = M > 1), at most
/// kMaxDirectTaps kernel taps.
bool isDepthwise(const Convolution &c);

/// The depthwise direct form: y itself, ONNX typed (`yType`).
Value decomposeDepthwise(PatternRewriter &rewriter, const Convolution &c,
                         const ConvParams &params, RankedTensorType yType);

} // namespace mlir::qops::conv

#endif // QUANTOPS_LIB_CONVERSION_QOPSTOLINALG_CONVOLUTIONFORMS_H
