//===- QOpsOps.td - qops operations ------------------------*- tablegen -*-===//
//
// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, QLinearMatMul and
// MatMulInteger.
// Operand element types are checked by the C++ verifiers (QOpsOps.cpp) so
// that every message carries its constraint label; the labels are listed in
// each op's description.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_DIALECT_QOPS_IR_QOPSOPS_TD
#define QUANTOPS_DIALECT_QOPS_IR_QOPSOPS_TD

include "QuantOps/Dialect/QOps/IR/QOpsBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// QuantizeLinearOp
//===----------------------------------------------------------------------===//

def QOps_QuantizeLinearOp : QOps_Op<"quantize_linear", [Pure]> {
  let summary = "ONNX QuantizeLinear: y = saturate(round(x / y_scale) + y_zero_point)";
  let description = [{
    ai.onnx QuantizeLinear (opsets 10 to 25) and com.microsoft
    QuantizeLinear-1.

    ```
    y = saturate(round_half_to_even(x / y_scale) + y_zero_point)
    ```

    The division is done in the type of `y_scale` (in f32 for an
    `f8E8M0FNU` or `i32` scale), or in `precision` when given. Float8
    outputs clip to the finite range when `saturate` is true (the default)
    and become NaN/Inf otherwise; see SPEC.md for the exact rules.

    Operands and attributes:
    - `x`: f32, f16, bf16 or i32/si32.
    - `y_scale`: f32, f16, bf16, i32/si32 or f8E8M0FNU.
    - `y_zero_point` (optional): the output's element type; a missing zero
      point means 0.
    - `axis` (optional): the quantization axis of per-axis and blocked
      scales, in [-r, r-1]; absent means per-tensor only (com.microsoft).
    - `block_size` (optional, 0 = not blocked).
    - `saturate` (optional, default true): float8 outputs only.
    - `output_dtype` (optional): the output element type when there is no
      zero point; it must agree with the zero point when both are given.
      With neither, the output is `ui8`.
    - `precision` (optional): f32, f16 or bf16, the type of the division.

    Output types: ui8, si8, ui16, si16, ui4, si4, ui2, si2, f8E4M3FN,
    f8E4M3FNUZ, f8E5M2, f8E5M2FNUZ, f4E2M1FN; `y` has the shape of `x`.

    Constraint labels used by the verifier:
    `quantize_x_type`, `quantize_scale_type`, `quantize_y_type`,
    `quantize_zp_type`, `quantize_output_dtype`, `quantize_precision`,
    `quantize_float8_zp`, `quantize_y_shape`, and the granularity labels
    shared with dequantize_linear: `quantize_scale_shape`,
    `quantize_axis_required`, `quantize_axis_range`,
    `quantize_per_axis_length`, `quantize_block_size_range`,
    `quantize_blocked_shape`, `quantize_blocked_range`, `quantize_zp_shape`.

    Example (blocked int4 along axis 1, block 32):

    ```mlir
    %y = qops.quantize_linear %x, %scale, %zp axis = 1 block_size = 32
        : tensor<4x64xf32>, tensor<4x2xf32>, tensor<4x2xsi4> -> tensor<4x64xsi4>
    ```
  }];

  let arguments = (ins
    AnyRankedTensor:$x,
    AnyRankedTensor:$y_scale,
    Optional<AnyRankedTensor>:$y_zero_point,
    OptionalAttr<I64Attr>:$axis,
    OptionalAttr<I64Attr>:$block_size,
    OptionalAttr<BoolAttr>:$saturate,
    OptionalAttr<TypeAttr>:$output_dtype,
    OptionalAttr<TypeAttr>:$precision
  );
  let results = (outs AnyRankedTensor:$y);

  let assemblyFormat = [{
    $x `,` $y_scale (`,` $y_zero_point^)?
    oilist(`axis` `=` $axis
         | `block_size` `=` $block_size
         | `saturate` `=` $saturate
         | `output_dtype` `=` $output_dtype
         | `precision` `=` $precision)
    attr-dict `:` type($x) `,` type($y_scale) (`,` type($y_zero_point)^)?
    `->` type($y)
  }];

  let builders = [
    // Infers the result type as ONNX does: the shape of x, the element type
    // of the zero point, else output_dtype, else ui8.
    OpBuilder<(ins "Value":$x, "Value":$y_scale, "Value":$y_zero_point,
                   CArg<"IntegerAttr", "{}">:$axis,
                   CArg<"IntegerAttr", "{}">:$block_size,
                   CArg<"BoolAttr", "{}">:$saturate,
                   CArg<"TypeAttr", "{}">:$output_dtype,
                   CArg<"TypeAttr", "{}">:$precision)>
  ];

  let extraClassDeclaration = [{
    /// The output element type ONNX determines from the operands.
    static Type inferOutputElementType(MLIRContext *ctx, Value zeroPoint,
                                       TypeAttr outputDtype);
    /// ONNX's default: saturate unless stated otherwise.
    bool getSaturateOrDefault() {
      return getSaturate() ? *getSaturate() : true;
    }
    /// block_size, 0 when absent.
    int64_t getBlockSizeOrZero() {
      return getBlockSize() ? *getBlockSize() : 0;
    }
    /// The type the division x / y_scale is computed in.
    Type getDivisionType();
  }];

  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// DequantizeLinearOp
//===----------------------------------------------------------------------===//

def QOps_DequantizeLinearOp : QOps_Op<"dequantize_linear", [Pure]> {
  let summary = "ONNX DequantizeLinear: y = (x - x_zero_point) * x_scale";
  let description = [{
    ai.onnx DequantizeLinear (opsets 10 to 25) and com.microsoft
    DequantizeLinear-1.

    ```
    y = (x - x_zero_point) * x_scale
    ```

    The subtraction is exact (integer) and the product is computed in the
    output type. Granularity, `axis` and `block_size` work as for
    `qops.quantize_linear`.

    Operands and attributes:
    - `x`: ui8, si8, ui16, si16, ui4, si4, ui2, si2, i32/si32, f8E4M3FN,
      f8E4M3FNUZ, f8E5M2, f8E5M2FNUZ or f4E2M1FN.
    - `x_scale`: f32, f16, bf16 or f8E8M0FNU.
    - `x_zero_point` (optional): x's element type. It must be 0 for int32 and
      float8 inputs (checked when it is a constant).
    - `output_dtype` (optional): f32, f16 or bf16. The output element type is
      `output_dtype` if given, else the scale's type; an `f8E8M0FNU` scale
      needs `output_dtype`.

    Constraint labels used by the verifier:
    `dequantize_x_type`, `dequantize_scale_type`, `dequantize_zp_type`,
    `dequantize_output_dtype`, `dequantize_int32_zp`, `dequantize_float8_zp`,
    `dequantize_y_type`, `dequantize_y_shape`, and the granularity labels
    `dequantize_scale_shape`, `dequantize_axis_required`,
    `dequantize_axis_range`, `dequantize_per_axis_length`,
    `dequantize_block_size_range`, `dequantize_blocked_shape`,
    `dequantize_blocked_range`, `dequantize_zp_shape`.

    Example (per-axis uint8 along axis 1):

    ```mlir
    %y = qops.dequantize_linear %x, %scale, %zp axis = 1
        : tensor<1x3x3x2xui8>, tensor<3xf32>, tensor<3xui8> -> tensor<1x3x3x2xf32>
    ```
  }];

  let arguments = (ins
    AnyRankedTensor:$x,
    AnyRankedTensor:$x_scale,
    Optional<AnyRankedTensor>:$x_zero_point,
    OptionalAttr<I64Attr>:$axis,
    OptionalAttr<I64Attr>:$block_size,
    OptionalAttr<TypeAttr>:$output_dtype
  );
  let results = (outs AnyRankedTensor:$y);

  let assemblyFormat = [{
    $x `,` $x_scale (`,` $x_zero_point^)?
    oilist(`axis` `=` $axis
         | `block_size` `=` $block_size
         | `output_dtype` `=` $output_dtype)
    attr-dict `:` type($x) `,` type($x_scale) (`,` type($x_zero_point)^)?
    `->` type($y)
  }];

  let builders = [
    // Infers the result type: the shape of x, output_dtype or the scale's
    // element type.
    OpBuilder<(ins "Value":$x, "Value":$x_scale, "Value":$x_zero_point,
                   CArg<"IntegerAttr", "{}">:$axis,
                   CArg<"IntegerAttr", "{}">:$block_size,
                   CArg<"TypeAttr", "{}">:$output_dtype)>
  ];

  let extraClassDeclaration = [{
    int64_t getBlockSizeOrZero() {
      return getBlockSize() ? *getBlockSize() : 0;
    }
  }];

  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// DynamicQuantizeLinearOp
//===----------------------------------------------------------------------===//

def QOps_DynamicQuantizeLinearOp
    : QOps_Op<"dynamic_quantize_linear", [Pure]> {
  let summary = "ONNX DynamicQuantizeLinear: uint8 quantization with computed scale and zero point";
  let description = [{
    ai.onnx DynamicQuantizeLinear-11.

    ```
    max = max(0, max(x)),  min = min(0, min(x))
    y_scale = (max - min) / 255                      (f32)
    y_zero_point = round_half_to_even(clip(0 - min / y_scale, 0, 255))
    y = saturate(round_half_to_even(x / y_scale) + y_zero_point)   (ui8)
    ```

    An all-zero input gives y_scale = 1/255 as the ONNX reference does.

    Constraint labels: `dynquant_x_type`, `dynquant_y_type`,
    `dynquant_y_shape`, `dynquant_scale_type`, `dynquant_zp_type`.

    ```mlir
    %y, %scale, %zp = qops.dynamic_quantize_linear %x
        : tensor<6xf32> -> tensor<6xui8>, tensor<f32>, tensor<ui8>
    ```
  }];

  let arguments = (ins AnyRankedTensor:$x);
  let results = (outs AnyRankedTensor:$y, AnyRankedTensor:$y_scale,
                      AnyRankedTensor:$y_zero_point);

  let assemblyFormat = [{
    $x attr-dict `:` type($x) `->` type($y) `,` type($y_scale) `,`
    type($y_zero_point)
  }];

  let builders = [
    // Infers the three result types from x.
    OpBuilder<(ins "Value":$x)>
  ];

  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// QLinearMatMulOp
//===----------------------------------------------------------------------===//

def QOps_QLinearMatMulOp : QOps_Op<"qlinear_matmul", [Pure]> {
  let summary = "ONNX QLinearMatMul: quantized numpy.matmul with requantization";
  let description = [{
    ai.onnx QLinearMatMul-10 and -21.

    ```
    acc[..., m, n] = sum_k (a[..., m, k] - a_zp) * (b[..., k, n] - b_zp)
    y = saturate(round_half_to_even(acc * (a_scale * b_scale / y_scale)) + y_zp)
    ```

    numpy.matmul semantics: batch dimensions broadcast, a 1-D `a` is a row
    vector and a 1-D `b` a column vector (the added dimension is dropped from
    the result). Integer operands (si8/ui8 in any combination) accumulate
    exactly in 32 bits; opset 21 adds the four float8 types.

    Quantization parameters, with `a : [..., M, K]`, `b : [..., K, N]`:
    - per-tensor: one element (`tensor<f32>`, `tensor<1xf32>`, ...);
    - `a` per-row: `[M]` or `[..., M, 1]` (rank of `a`, batch dims 1 or a's);
    - `b` per-column: `[N]` or `[..., 1, N]` (rank of `b`);
    - `y` per-row `[..., M, 1]` or per-column `[N]` / `[..., 1, N]`.
    Each zero point has its scale's shape (or one element when the scale
    has one). The three scales are f32, f16 or bf16, all of one type.

    Constraint labels: `qmatmul_a_type`, `qmatmul_b_type`, `qmatmul_y_type`,
    `qmatmul_zp_type`, `qmatmul_scale_type`, `qmatmul_rank`,
    `qmatmul_inner_dim`, `qmatmul_batch_broadcast`, `qmatmul_a_params_shape`,
    `qmatmul_b_params_shape`, `qmatmul_y_params_shape`, `qmatmul_zp_shape`,
    `qmatmul_y_shape`.

    ```mlir
    %y = qops.qlinear_matmul
        a(%a, %as, %azp : tensor<2x4xui8>, tensor<f32>, tensor<ui8>)
        b(%b, %bs, %bzp : tensor<4x3xsi8>, tensor<f32>, tensor<si8>)
        y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
    ```
  }];

  let arguments = (ins
    AnyRankedTensor:$a, AnyRankedTensor:$a_scale,
    AnyRankedTensor:$a_zero_point,
    AnyRankedTensor:$b, AnyRankedTensor:$b_scale,
    AnyRankedTensor:$b_zero_point,
    AnyRankedTensor:$y_scale, AnyRankedTensor:$y_zero_point
  );
  let results = (outs AnyRankedTensor:$y);

  let assemblyFormat = [{
    `a` `(` $a `,` $a_scale `,` $a_zero_point `:` type($a) `,`
        type($a_scale) `,` type($a_zero_point) `)`
    `b` `(` $b `,` $b_scale `,` $b_zero_point `:` type($b) `,`
        type($b_scale) `,` type($b_zero_point) `)`
    `y` `(` $y_scale `,` $y_zero_point `:` type($y_scale) `,`
        type($y_zero_point) `)`
    attr-dict `->` type($y)
  }];

  let builders = [
    // Infers the result type (broadcast batch dims, M, N; y_zp's element
    // type). Requires operands that verify.
    OpBuilder<(ins "Value":$a, "Value":$a_scale, "Value":$a_zero_point,
                   "Value":$b, "Value":$b_scale, "Value":$b_zero_point,
                   "Value":$y_scale, "Value":$y_zero_point)>
  ];

  let extraClassDeclaration = [{
    /// The result shape numpy.matmul gives, or failure if the shapes do not
    /// combine.
    static FailureOr<SmallVector<int64_t>>
    inferResultShape(ArrayRef<int64_t> aShape, ArrayRef<int64_t> bShape);
  }];

  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// MatMulIntegerOp
//===----------------------------------------------------------------------===//

def QOps_MatMulIntegerOp : QOps_Op<"matmul_integer",
    [Pure, AttrSizedOperandSegments]> {
  let summary = "ONNX MatMulInteger: numpy.matmul of int8 operands into int32";
  let description = [{
    ai.onnx MatMulInteger-10.

    ```
    y[..., m, n] = sum_k (a[..., m, k] - a_zp) * (b[..., k, n] - b_zp)
    ```

    exactly in 32 bits (each product fits 17 bits; ONNX lets the sum wrap
    in 32 bits, which the lowering does past K ~ 33000). numpy.matmul
    semantics: batch dimensions broadcast, a 1-D `a` is a row vector and a
    1-D `b` a column vector (the added dimension is dropped from the
    result).

    Operands, with `a : [..., M, K]`, `b : [..., K, N]`:
    - `a`, `b`: si8 or ui8, independently;
    - `a_zero_point` (optional, 0 when absent): a's element type, one
      element (per tensor), `[M]` or `[..., M, 1]` (per row; batch dims 1 or
      a's);
    - `b_zero_point` (optional, 0 when absent): b's element type, one
      element, `[N]` or `[..., 1, N]` (per column);
    - `y`: i32 (or si32).

    Fused form (not an ONNX op: what `--qops-fuse-qdq` makes of ONNX
    Runtime's dynamic quantization, `MatMulInteger -> Cast(float) ->
    Mul(scale) -> [Add(offset)]`): with `dequantize(%scale [, %offset])`,
    y is f32, `y = f32(acc) * scale [+ offset]`, rounded at each step as
    the unfused graph is (so bit-equal to it); `scale` and `offset` f32,
    one element or `[N]` (per column).

    Constraint labels: `matmulint_a_type`, `matmulint_b_type`,
    `matmulint_zp_type`, `matmulint_y_type`, `matmulint_rank`,
    `matmulint_inner_dim`, `matmulint_batch_broadcast`,
    `matmulint_a_zp_shape`, `matmulint_b_zp_shape`, `matmulint_y_shape`,
    `matmulint_dequantize`.

    ```mlir
    %y = qops.matmul_integer a(%a, %azp : tensor<2x4xui8>, tensor<ui8>)
                             b(%b : tensor<4x3xsi8>) -> tensor<2x3xi32>
    ```
  }];

  let arguments = (ins
    AnyRankedTensor:$a, Optional<AnyRankedTensor>:$a_zero_point,
    AnyRankedTensor:$b, Optional<AnyRankedTensor>:$b_zero_point,
    Optional<AnyRankedTensor>:$dequant_scale,
    Optional<AnyRankedTensor>:$dequant_offset
  );
  let results = (outs AnyRankedTensor:$y);

  let assemblyFormat = [{
    `a` `(` $a (`,` $a_zero_point^)? `:` type($a)
        (`,` type($a_zero_point)^)? `)`
    `b` `(` $b (`,` $b_zero_point^)? `:` type($b)
        (`,` type($b_zero_point)^)? `)`
    (`dequantize` `(` $dequant_scale^ (`,` $dequant_offset^)? `:`
        type($dequant_scale) (`,` type($dequant_offset)^)? `)`)?
    attr-dict `->` type($y)
  }];

  let builders = [
    // Infers the result type (broadcast batch dims, M, N; i32). Requires
    // operands that verify; either zero point may be null.
    OpBuilder<(ins "Value":$a, "Value":$a_zero_point, "Value":$b,
                   "Value":$b_zero_point)>
  ];

  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Convolutions (ConvInteger, QLinearConv)
//===----------------------------------------------------------------------===//

// The attributes both convolutions share, as ONNX Conv's with auto_pad
// resolved into explicit pads (the importer does it; SAME needs static
// spatial sizes there). Absent means ONNX's default: strides and dilations
// 1, pads 0, group 1.
defvar QOps_ConvAttrs = (ins
  OptionalAttr<DenseI64ArrayAttr>:$strides,
  OptionalAttr<DenseI64ArrayAttr>:$dilations,
  OptionalAttr<DenseI64ArrayAttr>:$pads,
  OptionalAttr<I64Attr>:$group
);

defvar QOps_ConvMethods = [{
    /// The number of spatial dimensions (x's rank - 2).
    int64_t getSpatialRank();
    /// The attributes with ONNX's defaults filled in: strides and
    /// dilations (S values), pads (2 S: begins, then ends), group.
    SmallVector<int64_t> getStridesOrDefault();
    SmallVector<int64_t> getDilationsOrDefault();
    SmallVector<int64_t> getPadsOrDefault();
    int64_t getGroupOrDefault();
}];

def QOps_ConvIntegerOp : QOps_Op<"conv_integer",
    [Pure, AttrSizedOperandSegments]> {
  let summary = "ONNX ConvInteger: an int8 convolution into int32";
  let description = [{
    ai.onnx ConvInteger-10, NCHW (1-D, 2-D and 3-D):

    ```
    y[n, m, o..] = sum_{c, k..} (xp[n, g Cg + c, o s + k d - pb] - x_zp)
                                * (w[m, c, k..] - w_zp[m])
    ```

    exactly in 32 bits, with `g = m / (M / group)`, `Cg = C / group`, `xp`
    x padded with x_zp (padded taps add 0), `s`, `d`, `pb` the strides,
    dilations and leading pads of each spatial dimension, and
    `o = floor((D + pb + pe - (K - 1) d - 1) / s) + 1` outputs per
    dimension.

    Operands, with `x : [N, C, D..]`, `w : [M, C / group, K..]`:
    - `x`, `w`: si8 or ui8, independently;
    - `x_zero_point` (optional, 0 when absent): x's element type, one
      element;
    - `w_zero_point` (optional): w's element type, one element or `[M]`
      (per output channel);
    - `y`: i32 (or si32) `[N, M, o..]`.
    Attributes: `strides`, `dilations` (S values each, >= 1), `pads` (2 S
    values >= 0: the begins, then the ends), `group` (>= 1, dividing C and
    M); absent: ONNX's defaults.

    Fused form (not an ONNX op: what `--qops-fuse-qdq` makes of ONNX
    Runtime's dynamic quantization, `ConvInteger -> Cast(float) ->
    Mul(scale) -> [Add(offset)]`): with `dequantize(%scale [, %offset])`,
    y is f32, `y = f32(acc) * scale[m] [+ offset[m]]`, rounded at each step
    as the unfused graph is (so bit-equal to it); `scale` and `offset` f32,
    one element or `[M]` (per output channel).

    Constraint labels: `conv_x_type`, `conv_w_type`, `conv_zp_type`,
    `conv_y_type`, `conv_rank`, `conv_attr_size`, `conv_attr_value`,
    `conv_group`, `conv_x_zp_shape`, `conv_w_zp_shape`, `conv_y_shape`,
    `conv_dequantize`.

    ```mlir
    %y = qops.conv_integer x(%x, %xzp : tensor<1x3x5x5xui8>, tensor<ui8>)
                           w(%w : tensor<2x3x3x3xsi8>)
                           {pads = array<i64: 1, 1, 1, 1>}
                           -> tensor<1x2x5x5xi32>
    ```
  }];

  let arguments = !con((ins
    AnyRankedTensor:$x, Optional<AnyRankedTensor>:$x_zero_point,
    AnyRankedTensor:$w, Optional<AnyRankedTensor>:$w_zero_point,
    Optional<AnyRankedTensor>:$dequant_scale,
    Optional<AnyRankedTensor>:$dequant_offset
  ), QOps_ConvAttrs);
  let results = (outs AnyRankedTensor:$y);

  let assemblyFormat = [{
    `x` `(` $x (`,` $x_zero_point^)? `:` type($x)
        (`,` type($x_zero_point)^)? `)`
    `w` `(` $w (`,` $w_zero_point^)? `:` type($w)
        (`,` type($w_zero_point)^)? `)`
    (`dequantize` `(` $dequant_scale^ (`,` $dequant_offset^)? `:`
        type($dequant_scale) (`,` type($dequant_offset)^)? `)`)?
    attr-dict `->` type($y)
  }];

  let extraClassDeclaration = QOps_ConvMethods;
  let hasVerifier = 1;
}

def QOps_QLinearConvOp : QOps_Op<"qlinear_conv", [Pure]> {
  let summary = "ONNX QLinearConv: a quantized convolution with "
                "requantization";
  let description = [{
    ai.onnx QLinearConv-10, NCHW (1-D, 2-D and 3-D): ConvInteger's sums
    (see qops.conv_integer) plus the optional bias, requantized:

    ```
    acc[n, m, o..] = conv(x - x_zp, w - w_zp[m])[n, m, o..] + bias[m]
    y = saturate(round_half_even(acc * (x_scale * w_scale[m] / y_scale))
                 + y_zp)
    ```

    `acc` exact in wrapping i32, the multiplier in f32 (the scales' type),
    the product in f64, as QLinearMatMul's (SPEC.md).

    Operands, with `x : [N, C, D..]`, `w : [M, C / group, K..]`:
    - `x`, `w`, `y`: si8 or ui8, each independently; each zero point has
      its tensor's element type;
    - `x_scale`, `y_scale`: f32, one element; `x_zero_point`,
      `y_zero_point`: one element;
    - `w_scale`: f32, one element or `[M]`; `w_zero_point`: one element or
      `[M]` (per output channel);
    - `bias` (optional): i32 `[M]`, quantized with scale
      `x_scale * w_scale` and zero point 0.
    Attributes as qops.conv_integer's.

    Constraint labels: those of qops.conv_integer, and
    `qlinearconv_scale_type`, `qlinearconv_params_shape`,
    `qlinearconv_bias`.

    ```mlir
    %y = qops.qlinear_conv x(%x, %xs, %xzp : tensor<1x1x7x7xui8>,
                                  tensor<f32>, tensor<ui8>)
                           w(%w, %ws, %wzp : tensor<1x1x1x1xui8>,
                                  tensor<1xf32>, tensor<1xui8>)
                           y(%ys, %yzp : tensor<f32>, tensor<ui8>)
                           -> tensor<1x1x7x7xui8>
    ```
  }];

  let arguments = !con((ins
    AnyRankedTensor:$x, AnyRankedTensor:$x_scale,
    AnyRankedTensor:$x_zero_point,
    AnyRankedTensor:$w, AnyRankedTensor:$w_scale,
    AnyRankedTensor:$w_zero_point,
    AnyRankedTensor:$y_scale, AnyRankedTensor:$y_zero_point,
    Optional<AnyRankedTensor>:$bias
  ), QOps_ConvAttrs);
  let results = (outs AnyRankedTensor:$y);

  let assemblyFormat = [{
    `x` `(` $x `,` $x_scale `,` $x_zero_point `:` type($x) `,`
        type($x_scale) `,` type($x_zero_point) `)`
    `w` `(` $w `,` $w_scale `,` $w_zero_point `:` type($w) `,`
        type($w_scale) `,` type($w_zero_point) `)`
    `y` `(` $y_scale `,` $y_zero_point `:` type($y_scale) `,`
        type($y_zero_point) `)`
    (`bias` `(` $bias^ `:` type($bias) `)`)?
    attr-dict `->` type($y)
  }];

  let extraClassDeclaration = QOps_ConvMethods;
  let hasVerifier = 1;
}

#endif // QUANTOPS_DIALECT_QOPS_IR_QOPSOPS_TD
