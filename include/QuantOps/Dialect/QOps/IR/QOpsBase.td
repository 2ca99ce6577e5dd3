//===- QOpsBase.td - qops dialect definition ---------------*- tablegen -*-===//
//
// The qops dialect: the ONNX quantization operators (ai.onnx opsets 10-25 and
// the com.microsoft contrib variants) on tensors whose element types keep
// ONNX's signedness (ui8, si8, ui4, f8E4M3FN, ...).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_DIALECT_QOPS_IR_QOPSBASE_TD
#define QUANTOPS_DIALECT_QOPS_IR_QOPSBASE_TD

include "mlir/IR/OpBase.td"

def QOps_Dialect : Dialect {
  let name = "qops";
  let cppNamespace = "::mlir::qops";
  let summary = "The ONNX quantization operators, bit-exact to the ONNX spec";
  let description = [{
    The `qops` dialect models ONNX's QuantizeLinear, DequantizeLinear,
    DynamicQuantizeLinear and QLinearMatMul faithfully, up to ai.onnx opset 25,
    plus the com.microsoft QuantizeLinear-1 / DequantizeLinear-1 contrib ops.

    Element types say what ONNX says: `ui8`/`si8`/`ui16`/`si16`/`ui4`/`si4`/
    `ui2`/`si2` for the integer quantized types, `i32` (or `si32`) for int32,
    `f8E4M3FN`, `f8E4M3FNUZ`, `f8E5M2`, `f8E5M2FNUZ`, `f4E2M1FN` and
    `f8E8M0FNU` for the small float types, `f32`/`f16`/`bf16` for the full
    precision side.

    Granularity follows ONNX: it is decided by the shape of the scale. A scale
    with one element (`tensor<f32>` or `tensor<1xf32>`) is per-tensor, a 1-D
    scale with `block_size` absent or 0 is per-axis along `axis`, and a scale
    of the input's rank with `block_size > 0` is blocked along `axis`.

    ONNX attribute defaults are not implied by the IR: `axis` absent means "no
    axis", which allows only a per-tensor scale. This is exactly the
    com.microsoft contrib semantics, and an ai.onnx opset >= 13 model states
    its (default) axis explicitly when imported. Every verifier message
    starts with a short constraint label (e.g. `quantize_axis_range`) that the
    op documentation lists.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 0;
}

class QOps_Op<string mnemonic, list<Trait> traits = []>
    : Op<QOps_Dialect, mnemonic, traits>;

#endif // QUANTOPS_DIALECT_QOPS_IR_QOPSBASE_TD
