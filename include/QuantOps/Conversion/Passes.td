//===- Passes.td - QuantOps conversion passes --------------*- tablegen -*-===//
//
// Conversions out of the qops dialect.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_CONVERSION_PASSES_TD
#define QUANTOPS_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertQOpsToLinalg : Pass<"convert-qops-to-linalg", "ModuleOp"> {
  let summary = "Lower qops ops to linalg + arith/math on signless storage types";
  let description = [{
    Rewrites every qops op into `linalg.generic` (elementwise and
    contraction forms) plus `arith`/`math`/`tensor` ops, bit-exact to the
    ONNX specification (round half to even, saturation, exact int32
    accumulation). ONNX element types become their storage types, on the
    ops and on function boundaries:

    | ONNX type in the IR | storage |
    |---|---|
    | ui8, si8, ui4, si4, ui2, si2 | i8 (4/2-bit: one element per byte, value in range) |
    | ui16, si16 | i16 |
    | si32 | i32 |
    | float8 / f4E2M1FN / f8E8M0FNU | i8 (bit pattern) |

    Each `func.func` keeps its ONNX-typed signature in the discardable
    attribute `qops.signature`, so that tools (quant-runner) still know
    signedness and element types after lowering.

    Before:
    ```mlir
    %y = qops.quantize_linear %x, %s, %zp : tensor<4xf32>, tensor<f32>, tensor<ui8> -> tensor<4xui8>
    ```
    After (sketch):
    ```mlir
    %y = linalg.generic {indexing_maps = [(d0) -> (d0), (d0) -> (), (d0) -> (), (d0) -> (d0)], ...}
        ins(%x, %s, %zp : tensor<4xf32>, tensor<f32>, tensor<i8>) outs(%e : tensor<4xi8>) {
      ^bb0(%xv: f32, %sv: f32, %zv: i8, %o: i8):
        %q = arith.divf %xv, %sv : f32
        %r = math.roundeven %q : f32
        ... NaN -> 0, clamp to [qmin - zp, qmax - zp], fptosi, + zp, trunci
    }
    ```
    Sizes the verifier cannot check because they are dynamic (`?`) are
    checked at run time with `cf.assert`, whose message starts with the
    verifier's constraint label.

    Float8/float4 values are converted bit-exactly with integer arithmetic
    on their bit patterns (FloatFormats.cpp); see docs/Numerics.md.
  }];
  let options = [
    Option<"int8Kernel", "int8-kernel", "bool", /*default=*/"true",
           "Lower si8/ui8 QLinearMatMul with f32 scales to packing + the "
           "register-blocked micro-kernel (QLinearMatMulKernel.cpp) instead "
           "of one linalg.generic contraction">,
    Option<"parallel", "parallel", "bool", /*default=*/"false",
           "Distribute the micro-kernel's row blocks over threads "
           "(scf.forall)">
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect"
  ];
}

#endif // QUANTOPS_CONVERSION_PASSES_TD
