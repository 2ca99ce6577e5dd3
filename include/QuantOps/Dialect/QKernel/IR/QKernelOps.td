//===- QKernelOps.td - the int8 kernels' internal ops ------*- tablegen -*-===//
//
// The qkernel dialect, the int8 engine's internal ops:
// - qkernel.matmul, the decomposed form of every integer contraction
//   (qops-decompose-contractions makes it from QLinearMatMul and
//   MatMulInteger; convert-qops-to-linalg lowers it: the gemv, the packed
//   kernel of the target's strategy, or the generic linalg form);
// - qkernel.pack_a and qkernel.pack_b, the packed kernel's operands in its
//   strategy's layouts (lowered by qops-lower-packing);
// - the int8 kernels' multiply-accumulate steps: the instructions LLVM does
//   not select from plain vector code (dot products of byte quads, 2x2
//   matrix multiply-accumulates), and the i16 pairs that it does (one op
//   through the pipeline instead of six, and what marks a kernel's loop
//   nest), lowered for the target by qops-lower-kernel-intrinsics
//   (populateLowerKernelIntrinsicsPatterns). They are ops rather than
//   intrinsic calls so that the kernels stay free of side effects for
//   bufferization.
// Created by the lowering, never by users or the importer. The user-facing
// `qops` dialect holds only ONNX operators.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_DIALECT_QKERNEL_IR_QKERNELOPS_TD
#define QUANTOPS_DIALECT_QKERNEL_IR_QKERNELOPS_TD

include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def QKernel_Dialect : Dialect {
  let name = "qkernel";
  let cppNamespace = "::mlir::qkernel";
  let summary = "Internal ops of QuantOps' int8 engine (the decomposed "
                "contraction, the packed operands, and multiply-accumulate "
                "instructions LLVM does not select from vector code)";
  let description = [{
    `qkernel.matmul` is made by `qops-decompose-contractions` and lowered by
    `convert-qops-to-linalg`; `qkernel.pack_a` / `qkernel.pack_b` are made
    by its int8 kernel and lowered by `qops-lower-packing`; the instruction
    ops are made by the int8
    kernels of `convert-qops-to-linalg` and lowered to the target's
    intrinsics by `qops-lower-kernel-intrinsics`. Not an interface for
    users. Every op is exact in wrapping i32 arithmetic.
  }];
}

class QKernel_Op<string mnemonic, list<Trait> traits = []>
    : Op<QKernel_Dialect, mnemonic, traits>;

def QKernel_MatMulOp : QKernel_Op<"matmul",
    [Pure, AttrSizedOperandSegments]> {
  let summary = "an integer contraction, decomposed: exact i32 sums of the "
                "centered operands, optionally requantized";
  let description = [{
    What every integer contraction of the engine becomes before it is
    lowered (qops-decompose-contractions): QLinearMatMul with `requantize`,
    MatMulInteger without. With `a : [..., M, K]`, `b : [..., K, N]`
    (numpy.matmul: batch dimensions broadcast, a 1-D `a` is a row and a 1-D
    `b` a column, the added dimension dropped from `y`):

    ```
    acc[..., m, n] = sum_k (a[..., m, k] - a_zp) * (b[..., k, n] - b_zp)
                     + bias[..., m, n]                   (bias: optional)
    y = acc                                              (no requantize; i32)
    y = saturate(round_half_even(acc * (a_scale * b_scale / y_scale))
                 + y_zp)                                 (requantize)
    y = f32(acc) * scale [+ offset]                      (dequantize; f32)
    ```

    exact: `acc` in wrapping i32 (int8 operands), the multiplier in the
    scales' type, the product in f64 (SPEC.md, QLinearMatMul). Float8
    operands (QLinearMatMul-21) accumulate in f64 instead.

    The operands keep their ONNX element types (si8, ui8, float8): the
    signedness is part of the math, so convert-qops-to-linalg reads it here
    and lowers the op to storage types. Zero points: absent means 0; one
    element, per row of `a` (`[M]` or `[..., M, 1]`) or per column of `b`
    (`[N]` or `[..., 1, N]`); the scales and `y_zero_point` likewise. The
    `bias` (QLinearConv's B), only with `requantize` and int8 operands: i32,
    one element, per row of y (`[..., M, 1]`) or per column (`[N]` or
    `[..., 1, N]`), added to the exact sums (wrapping in i32) before the
    requantization. `dequantize` (the fused form of ONNX Runtime's dynamic
    quantization, `Cast(int32 -> float) -> Mul(scale) -> [Add(offset)]`):
    f32 `scale` and optional `offset`, one element, per row or per column
    of y; the sum is rounded to f32 (nearest even), multiplied, then added,
    each in f32 and in that order (no fused multiply-add), so that the
    result equals the unfused graph's bits. The verifier checks the static
    shapes (with the qops verifiers' rules); dynamic ones are checked at run
    time by the lowering.

    ```mlir
    %y = qkernel.matmul a(%a, %azp : tensor<2x4xui8>, tensor<ui8>)
                        b(%b : tensor<4x3xsi8>) -> tensor<2x3xi32>
    %y = qkernel.matmul a(%a, %azp : tensor<2x4xui8>, tensor<ui8>)
                        b(%b, %bzp : tensor<4x3xsi8>, tensor<si8>)
           requantize(%as, %bs, %ys, %yzp
                      : tensor<f32>, tensor<f32>, tensor<f32>, tensor<ui8>)
           -> tensor<2x3xui8>
    ```
  }];
  let arguments = (ins
    AnyRankedTensor:$a, Optional<AnyRankedTensor>:$a_zero_point,
    AnyRankedTensor:$b, Optional<AnyRankedTensor>:$b_zero_point,
    Optional<AnyRankedTensor>:$a_scale, Optional<AnyRankedTensor>:$b_scale,
    Optional<AnyRankedTensor>:$y_scale,
    Optional<AnyRankedTensor>:$y_zero_point,
    Optional<AnyRankedTensor>:$bias,
    Optional<AnyRankedTensor>:$dequant_scale,
    Optional<AnyRankedTensor>:$dequant_offset
  );
  let results = (outs AnyRankedTensor:$y);
  let assemblyFormat = [{
    `a` `(` $a (`,` $a_zero_point^)? `:` type($a)
        (`,` type($a_zero_point)^)? `)`
    `b` `(` $b (`,` $b_zero_point^)? `:` type($b)
        (`,` type($b_zero_point)^)? `)`
    (`bias` `(` $bias^ `:` type($bias) `)`)?
    (`requantize` `(` $a_scale^ `,` $b_scale `,` $y_scale `,` $y_zero_point
        `:` type($a_scale) `,` type($b_scale) `,` type($y_scale) `,`
        type($y_zero_point) `)`)?
    (`dequantize` `(` $dequant_scale^ (`,` $dequant_offset^)? `:`
        type($dequant_scale) (`,` type($dequant_offset)^)? `)`)?
    attr-dict `->` type($y)
  }];
  let extraClassDeclaration = [{
    /// Whether y is requantized (QLinearMatMul) rather than the sums.
    bool requantizes() { return static_cast<bool>(getYScale()); }
    /// Whether y is the f32 sums scaled (and offset): `dequantize`.
    bool dequantizes() { return static_cast<bool>(getDequantScale()); }
  }];
  let hasVerifier = 1;
}

def QKernel_PackLayout : I32EnumAttr<"PackLayout",
    "a packed layout of a contraction's b", [
      I32EnumAttrCase<"Pairs", 0, "pairs">,
      I32EnumAttrCase<"Quads", 1, "quads">,
      I32EnumAttrCase<"Octets", 2, "octets">,
      I32EnumAttrCase<"BytePairs", 3, "byte_pairs">]> {
  let cppNamespace = "::mlir::qkernel";
}

def QKernel_PackBOp : QKernel_Op<"pack_b", [Pure]> {
  let summary = "b of an int8 contraction in a kernel's packed layout";
  let description = [{
    The pack stage: made by convert-qops-to-linalg's int8 kernel (the
    layout, panel width and k step of the target's strategy, TuningTable.h)
    and lowered to linalg / vector IR by qops-lower-packing
    (populateLowerPackingPatterns). A constant b's packing is then computed
    once (qops-hoist-constant-expressions) or at compile time
    (qops-const-eval) by that same IR. `b` is `[Bb, K, N]` storage bytes
    whose ONNX type is ui8 with `b_unsigned`, si8 otherwise;
    `zero_point` is b's, one element (rank 0) or one per column padded to
    Np (rank 1). K is padded with zeros to Kp, a multiple of `k_step`;
    N to Np, a multiple of `panel_columns` (P); p is a panel, c a column
    in it.

    ```
    pairs  (madd, P = 16)   packed [Bb, Np/16, Kp/2, 16] i32:
      lane (bb, p, q, c) = lo16(b[2q][16p + c] - zp) | (b[2q + 1][16p + c] - zp) << 16
      (rows past K and columns past N hold -zp; a zero point per column is 0 past N)
    quads  (the u8 x s8 / s8 x s8 dot strategies)   packed [Bb, Np/P, Kp/4, P] i32:
      lane (bb, p, q, c) = b'[4q] | b'[4q+1] << 8 | b'[4q+2] << 16 | b'[4q+3] << 24
      of column P p + c, b' = b (si8) or b - 128 (ui8), padding 0
      column_term [Bb, Np] i32 = K zb'[n] - sum_k b'[k, n] (0 past N)
    octets (usmmla, P = 16)  the quads reordered, packed [Bb, Np/16, Kp/8, 32] i32:
      two quads of k per column, column pairs side by side; column_term as quads
    byte_pairs (madd, P = 16)  packed [Bb, Np/16, Kp/2, 32] i8:
      byte (bb, p, q, 2c + j) = lo8(b[2q + j][16p + c] - zp), padding as pairs
      (the kernel extends them by b's signedness: b - zp exactly where zp is 0)
    ```

    ```mlir
    %p, %t = qkernel.pack_b quads %b, %zp {k_step = 4 : i64, panel_columns = 32 : i64}
        : tensor<1x768x3072xi8>, tensor<i8> -> tensor<1x96x192x32xi32>, tensor<1x3072xi32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[I8]>:$b,
                       RankedTensorOf<[I8]>:$zero_point,
                       QKernel_PackLayout:$layout, I64Attr:$panel_columns,
                       I64Attr:$k_step, UnitAttr:$b_unsigned);
  let results = (outs RankedTensorOf<[I8, I32]>:$packed,
                      Optional<RankedTensorOf<[I32]>>:$column_term);
  let assemblyFormat = [{
    $layout $b `,` $zero_point attr-dict `:` type($b) `,` type($zero_point)
    `->` type($packed) (`,` type($column_term)^)?
  }];
  let builders = [
    // The result types from b's type and the layout (inferTypes).
    OpBuilder<(ins "Value":$b, "Value":$zero_point, "PackLayout":$layout,
                   "int64_t":$panel_columns, "int64_t":$k_step,
                   "bool":$b_unsigned)>
  ];
  let extraClassDeclaration = [{
    /// The packed type (and the column term's, null for the pairs) of a b of
    /// `bType` [Bb, K, N]: dims static where b's are.
    static std::pair<RankedTensorType, RankedTensorType>
    inferTypes(RankedTensorType bType, PackLayout layout,
               int64_t panelColumns, int64_t kStep);
  }];
  let hasVerifier = 1;
}

def QKernel_PackALayout : I32EnumAttr<"PackALayout",
    "a packed layout of a contraction's a", [
      I32EnumAttrCase<"Centered", 0, "centered">,
      I32EnumAttrCase<"Bytes", 1, "bytes">]> {
  let cppNamespace = "::mlir::qkernel";
}

def QKernel_PackAOp : QKernel_Op<"pack_a", [Pure]> {
  let summary = "a of an int8 contraction in a kernel's layout";
  let description = [{
    The pack stage's a, beside `qkernel.pack_b`: made by
    convert-qops-to-linalg's int8 kernel and lowered by qops-lower-packing.
    `a` is `[B, M, K]` storage bytes whose ONNX type is ui8 with
    `a_unsigned`, si8 otherwise. K is padded with zeros to Kp, a multiple
    of `k_step`.

    ```
    centered (madd)   packed [B, M, Kp] i16 = a - zero_point
                      (the zero point one element, or one per row [M])
    bytes    (the dot strategies)   packed [B, Mp, Kp] i8 = a':
                      a' = a + 128 (si8) or a (ui8), a u8, or with
                      `signed_a` (SDOT) a' = a (si8) or a - 128 (ui8), an s8;
                      Mp = M, or M padded to a multiple of `row_multiple`
                      with zero rows (for a consumer whose loads read
                      whole tiles of rows; the amx kernel pads a copy of
                      its last partial tile alone instead)
                      row_sums [B, M] i32 = sum_k a' (with `row_sums`)
    ```

    ```mlir
    %a16 = qkernel.pack_a centered %a, %zp {a_unsigned, k_step = 2 : i64}
        : tensor<1x64x33xi8>, tensor<i8> -> tensor<1x64x34xi16>
    %a8, %sums = qkernel.pack_a bytes %a {k_step = 4 : i64, row_sums}
        : tensor<1x64x33xi8> -> tensor<1x64x36xi8>, tensor<1x64xi32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[I8]>:$a,
                       Optional<RankedTensorOf<[I8]>>:$zero_point,
                       QKernel_PackALayout:$layout, I64Attr:$k_step,
                       UnitAttr:$a_unsigned, UnitAttr:$signed_a,
                       UnitAttr:$row_sums,
                       DefaultValuedAttr<I64Attr, "0">:$row_multiple);
  let results = (outs AnyRankedTensor:$packed,
                      Optional<RankedTensorOf<[I32]>>:$row_sum);
  let assemblyFormat = [{
    $layout $a (`,` $zero_point^)? attr-dict `:` type($a)
    (`,` type($zero_point)^)? `->` type($packed) (`,` type($row_sum)^)?
  }];
  let builders = [
    // The result types from a's type and the layout (inferTypes).
    OpBuilder<(ins "Value":$a, "Value":$zero_point, "PackALayout":$layout,
                   "int64_t":$k_step, "bool":$a_unsigned, "bool":$signed_a,
                   "bool":$row_sums, "int64_t":$row_multiple)>
  ];
  let extraClassDeclaration = [{
    /// The packed type (and the row sums', null without `row_sums`) of an a
    /// of `aType` [B, M, K]: dims static where a's are.
    static std::pair<RankedTensorType, RankedTensorType>
    inferTypes(RankedTensorType aType, PackALayout layout, int64_t kStep,
               bool rowSums, int64_t rowMultiple);
  }];
  let hasVerifier = 1;
}

def QKernel_DotU8S8QuadsOp : QKernel_Op<"dot_u8s8_quads",
    [Pure, AllTypesMatch<["acc", "a", "b", "result"]>]> {
  let summary = "i32 lanes += u8 x s8 products of four bytes (VPDPBUSD)";
  let description = [{
    Created by the int8 kernel's quad strategies (vnni, avxvnni, amx's
    short matrices, usdot, maddubs); lowered to
    `llvm.x86.avx512.vpdpbusd.256` / `.512` on x86 and USDOT on AArch64.
    Each i32 lane of `a` and `b` holds four bytes, lowest first:

    ```
    result[i] = acc[i] + sum_{j < 4} u8(byte j of a[i]) * s8(byte j of b[i])
    ```

    exact in wrapping i32 arithmetic (no saturation).

    `pair_sums_fit_i16` (set by the kernel's maddubs strategy, for a
    constant b it has checked) states that every sum of two adjacent
    products, bytes 0-1 and 2-3 of a lane, lies in [-32768, 32767] for any
    u8 a: x86 without VNNI then computes the quads exactly as VPMADDUBSW
    (u8 x s8 pairs into i16, saturating, which cannot happen), VPMADDWD by
    ones (pairs of pairs into i32) and VPADDD.

    ```mlir
    %r = qkernel.dot_u8s8_quads %acc, %a, %b : vector<8xi32>
    %r = qkernel.dot_u8s8_quads %acc, %a, %b {pair_sums_fit_i16} : vector<8xi32>
    ```
  }];
  let arguments = (ins VectorOfLengthAndType<[8, 16], [I32]>:$acc,
                       VectorOfLengthAndType<[8, 16], [I32]>:$a,
                       VectorOfLengthAndType<[8, 16], [I32]>:$b,
                       UnitAttr:$pair_sums_fit_i16);
  let results = (outs VectorOfLengthAndType<[8, 16], [I32]>:$result);
  let assemblyFormat = "$acc `,` $a `,` $b attr-dict `:` type($result)";
}

def QKernel_DotS8S8QuadsOp : QKernel_Op<"dot_s8s8_quads",
    [Pure, AllTypesMatch<["acc", "a", "b", "result"]>]> {
  let summary = "i32 lanes += s8 x s8 products of four bytes (SDOT)";
  let description = [{
    The signed-by-signed twin of `qkernel.dot_u8s8_quads`, created by the
    int8 kernel's sdot strategy (AArch64 with dotprod) and lowered to
    `llvm.aarch64.neon.sdot`:

    ```
    result[i] = acc[i] + sum_{j < 4} s8(byte j of a[i]) * s8(byte j of b[i])
    ```

    ```mlir
    %r = qkernel.dot_s8s8_quads %acc, %a, %b : vector<8xi32>
    ```
  }];
  let arguments = (ins VectorOfLengthAndType<[8, 16], [I32]>:$acc,
                       VectorOfLengthAndType<[8, 16], [I32]>:$a,
                       VectorOfLengthAndType<[8, 16], [I32]>:$b);
  let results = (outs VectorOfLengthAndType<[8, 16], [I32]>:$result);
  let assemblyFormat = "$acc `,` $a `,` $b attr-dict `:` type($result)";
}

def QKernel_DotI16PairsOp : QKernel_Op<"dot_i16_pairs",
    [Pure, AllTypesMatch<["acc", "result"]>, AllTypesMatch<["a", "b"]>,
     TypesMatchWith<"a has two i16 lanes per lane of acc", "acc", "a",
                    "VectorType::get({2 * cast<VectorType>($_self)"
                    ".getNumElements()}, IntegerType::get($_self.getContext(), "
                    "16))">]> {
  let summary = "i32 lanes += i16 x i16 products of adjacent pairs (VPMADDWD)";
  let description = [{
    Created by the int8 kernel's madd strategy (its register tile and its
    gemv), whose operands are the centered values a - a_zp and b - b_zp in
    i16, two k per i32 lane:

    ```
    result[i] = acc[i] + a[2i] * b[2i] + a[2i+1] * b[2i+1]
    ```

    in i32, wrapping (exact for any i16 operands but two pairs of -32768,
    which the kernel's operands in [-255, 255] never are). Lowered on every
    target to the plain form LLVM selects as VPMADDWD + VPADDD on x86
    (sign extension, multiplication, the even and odd lanes added), one op
    in the kernel's loop until then instead of six.

    ```mlir
    %r = qkernel.dot_i16_pairs %acc, %a, %b : vector<16xi16> -> vector<8xi32>
    ```
  }];
  let arguments = (ins VectorOfLengthAndType<[4, 8, 16], [I32]>:$acc,
                       VectorOfLengthAndType<[8, 16, 32], [I16]>:$a,
                       VectorOfLengthAndType<[8, 16, 32], [I16]>:$b);
  let results = (outs VectorOfLengthAndType<[4, 8, 16], [I32]>:$result);
  let assemblyFormat =
      "$acc `,` $a `,` $b attr-dict `:` type($a) `->` type($result)";
}

def QKernel_MmlaU8S8Op : QKernel_Op<"mmla_u8s8",
    [Pure, AllTypesMatch<["acc", "a", "b", "result"]>]> {
  let summary = "a 2x2 i32 block += u8 2x8 times s8 8x2 (USMMLA)";
  let description = [{
    Created by the int8 kernel's usmmla strategy (AArch64 with i8mm) and
    lowered to `llvm.aarch64.neon.usmmla`. The 16 bytes of `a` are two rows
    of eight u8 (lanes 0-1 row 0, lanes 2-3 row 1, lowest byte first); the
    16 bytes of `b` are two columns of eight s8 (lanes 0-1 column 0, lanes
    2-3 column 1); `acc` and the result are the 2x2 block, row-major:

    ```
    result[2i + j] = acc[2i + j] + sum_{k < 8} u8(a row i, byte k) *
                                               s8(b column j, byte k)
    ```

    exact in wrapping i32 arithmetic.

    ```mlir
    %r = qkernel.mmla_u8s8 %acc, %a, %b : vector<4xi32>
    ```
  }];
  let arguments = (ins VectorOfLengthAndType<[4], [I32]>:$acc,
                       VectorOfLengthAndType<[4], [I32]>:$a,
                       VectorOfLengthAndType<[4], [I32]>:$b);
  let results = (outs VectorOfLengthAndType<[4], [I32]>:$result);
  let assemblyFormat = "$acc `,` $a `,` $b attr-dict `:` type($result)";
}

#endif // QUANTOPS_DIALECT_QKERNEL_IR_QKERNELOPS_TD
