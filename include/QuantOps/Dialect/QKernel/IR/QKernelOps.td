//===- QKernelOps.td - the int8 kernels' internal ops ------*- tablegen -*-===//
//
// The qkernel dialect: instructions the int8 kernels of convert-qops-to-linalg
// need that LLVM does not select from plain vector code (dot products of byte
// quads, 2x2 matrix multiply-accumulates). Created by the lowering, never by
// users or the importer; lowered to LLVM intrinsics for the target by
// qops-lower-kernel-intrinsics (populateLowerKernelIntrinsicsPatterns). They
// are ops rather than intrinsic calls so that the kernels stay free of side
// effects for bufferization. The user-facing `qops` dialect holds only ONNX
// operators.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_DIALECT_QKERNEL_IR_QKERNELOPS_TD
#define QUANTOPS_DIALECT_QKERNEL_IR_QKERNELOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def QKernel_Dialect : Dialect {
  let name = "qkernel";
  let cppNamespace = "::mlir::qkernel";
  let summary = "Internal ops of QuantOps' int8 kernels (multiply-accumulate "
                "instructions LLVM does not select from vector code)";
  let description = [{
    Created by the int8 kernels of `convert-qops-to-linalg` and lowered to
    the target's intrinsics by `qops-lower-kernel-intrinsics`; not an
    interface for users. Every op is exact in wrapping i32 arithmetic.
  }];
}

class QKernel_Op<string mnemonic, list<Trait> traits = []>
    : Op<QKernel_Dialect, mnemonic, traits>;

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
