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

    The zero-point rules that need an operand's value (a float8 zero point
    is 0, an int32 DequantizeLinear takes none but 0) are checked first
    (checkConstantZeroPoints); a constant that breaks one is an error with
    its constraint label. The int8 kernels' multiply-accumulates are
    `qkernel` ops, left for qops-lower-kernel-intrinsics; the int8 kernel's
    a and b are a `qkernel.pack_a` and a `qkernel.pack_b` in the strategy's
    layouts, left for qops-lower-packing. The contractions are decomposed first
    (qops-decompose-contractions' patterns) and lowered as qkernel.matmul.
  }];
  let options = [
    Option<"int8Kernel", "int8-kernel", "bool", /*default=*/"true",
           "Lower si8/ui8 QLinearMatMul with f32 scales and MatMulInteger "
           "to packing + the register-blocked micro-kernel "
           "(QLinearMatMulKernel.cpp) or the int8 gemv instead of one "
           "linalg.generic contraction">,
    Option<"parallel", "parallel", "bool", /*default=*/"false",
           "Distribute the micro-kernel's row blocks over threads "
           "(scf.forall)">,
    Option<"int8Strategy", "int8-strategy", "std::string",
           /*default=*/"\"auto\"",
           "The int8 micro-kernel: madd (i16 pairs, VPMADDWD shape), "
           "maddubs (x86 AVX2: VPMADDUBSW on avxvnni's quads for a constant b "
           "whose pair sums provably fit i16, madd otherwise), vnni "
           "(VPDPBUSD on u8 x s8 quads with row/column-sum zero-point "
           "corrections, 12-row tiles; x86 AVX512-VNNI+VL), avxvnni (the "
           "same, 6-row tiles; AVX-VNNI without AVX-512), amx (TDPBUSD on "
           "AMX tiles, 32 x 32 register tiles; x86 AMX-INT8), usmmla (AArch64 "
           "i8mm USMMLA, 2x2 blocks), usdot (AArch64 i8mm USDOT), sdot "
           "(AArch64 dotprod SDOT), or auto (from "
           "target-triple / target-cpu / target-features)">,
    Option<"targetTriple", "target-triple", "std::string", /*default=*/"",
           "Target triple for int8-strategy=auto (default: the host's)">,
    Option<"targetCpu", "target-cpu", "std::string", /*default=*/"",
           "Target CPU for int8-strategy=auto (default: the host's)">,
    Option<"targetFeatures", "target-features", "std::string",
           /*default=*/"", "Extra target features (+a,-b)">,
    Option<"viewedConstantBytes", "viewed-constant-bytes", "int64_t",
           /*default=*/"::mlir::qops::kViewedConstantBytes",
           "8- and 16-bit integer constants of at least this many bytes "
           "become a dense_resource viewing the ONNX-typed constant's "
           "buffer instead of a copy of it (ConstantBytes.h)">
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::amx::AMXDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect",
    "::mlir::qkernel::QKernelDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def QOpsDecomposeContractions
    : Pass<"qops-decompose-contractions", "ModuleOp"> {
  let summary = "Decompose the integer contractions (QLinearMatMul, "
                "MatMulInteger, ConvInteger, QLinearConv) into "
                "qkernel.matmul, the engine's one contraction";
  let description = [{
    The engine's first stage, target-independent: each integer contraction
    op becomes `qkernel.matmul`, which says only what is computed (the
    operands, their zero points, and the requantization of QLinearMatMul)
    and is what every later stage reads: convert-qops-to-linalg lowers it
    to the gemv, the packed kernel of the configured strategy or the
    generic linalg form. A new contraction op needs only its pattern here
    (populateDecomposeContractionsPatterns). The convolutions become one
    on the patches of x (DecomposeConvolutions.cpp): for one group, x made
    channels-last and padded with its zero point, one copy per kernel tap
    into a [N o.., K.. C], times w transposed [K.. C, M], y transposed back
    to NCHW; a 1x1 convolution of one image multiplies w [M, C] and x
    [C, H W]; groups batch the product over G.

    ```mlir
    %y = qops.matmul_integer a(%a, %azp : tensor<2x4xui8>, tensor<ui8>)
                             b(%b : tensor<4x3xsi8>) -> tensor<2x3xi32>
    // becomes
    %y = qkernel.matmul a(%a, %azp : tensor<2x4xui8>, tensor<ui8>)
                        b(%b : tensor<4x3xsi8>) -> tensor<2x3xi32>
    ```

    convert-qops-to-linalg runs the same patterns first, so that it still
    takes the qops ops alone.

    A convolution of a few groups becomes one convolution with
    block-diagonal weights (G times the multiply-adds, one kernel) where
    the configured target's int8 strategy is amx (up to 8 groups) or vnni
    (up to 4); `max-dense-groups` sets that bound for any target (0: always
    the split form; tests use it to run the dense form on every host).
  }];
  let options = [
    Option<"maxDenseGroups", "max-dense-groups", "int64_t", /*default=*/"-1",
           "Most groups of a convolution made one with block-diagonal "
           "weights (-1: by the configured target's int8 strategy)">,
  ];
  let dependentDialects = ["::mlir::qkernel::QKernelDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def QOpsLowerPacking : Pass<"qops-lower-packing"> {
  let summary = "Lower qkernel.pack_a / pack_b (the pack stage) to the "
                "linalg / vector IR of their layouts";
  let description = [{
    convert-qops-to-linalg's int8 kernel says how a and b are packed with
    one `qkernel.pack_a` and one `qkernel.pack_b` (layout, panel width, k
    step: the strategy's row of TuningTable.h); this pass writes the IR
    that packs them (populateLowerPackingPatterns): madd's centered a and
    k-pairs, the dot strategies' a' bytes with row sums and quads with
    their column term, usmmla's octets. It is the only
    packer: a constant b is packed by running this IR once
    (qops-hoist-constant-expressions) or at compile time (qops-const-eval).
    Run it before qops-distribute (madd's panels are a marked loop nest).

    ```mlir
    %p, %t = qkernel.pack_b quads %b, %zp {k_step = 4 : i64, panel_columns = 16 : i64}
        : tensor<1x33x37xi8>, tensor<i8> -> tensor<1x3x9x16xi32>, tensor<1x48xi32>
    // becomes: one linalg.generic over b padded to [36, 48] (with 0x80, b' =
    // 0) that ORs four stride-4 row slices of b' (sign bit flipped for ui8)
    // into each i32 lane and sums b' per column, then K zb' - colsum padded
    // to 48 columns
    ```
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def QOpsLowerFloatContractions
    : Pass<"qops-lower-float-contractions", "ModuleOp"> {
  let summary = "Lower f32 / f64 linalg.matmul and linalg.batch_matmul to "
                "the engine's packed register-tile kernel";
  let description = [{
    The float contraction of the engine (FloatMatMulKernel.cpp has the
    formulas): a float `linalg.matmul` or `linalg.batch_matmul` on tensors
    (default indexing maps, one element type: what the ONNX importer writes
    for MatMul and Gemm) becomes b packed into NR-column panels
    `[Bb, Np / NR, K, NR]` (a nest marked `qkernel.parallel_loops`; for a b
    computed from constants a constant expression, packed once) and
    MR x NR register tiles of broadcast multiply-adds in the vector dialect,
    in the nest of tiles marked `qkernel.tile_loops` that qops-distribute
    gives to threads. MR and NR come from the configured target's vector
    registers (TuningTable.h: 12 x 32 f32 with AVX-512, 6 x 16 with AVX2 or
    NEON-sized registers).

    A float 2-D convolution (`linalg.conv_2d_nchw_fchw`, f32 / f64, a
    fill init: the importer's ONNX Conv with group 1) is taken first
    (FloatConvolutions.cpp): the patches of x become the rows of a
    `[N * OH * OW, C * KH * KW]`, w^T its b (constant: packed once), and
    the product is transposed back to NCHW; k = (c, kh, kw) is the
    convolution's own order.

    Each output is summed in increasing k from the out operand (a
    `linalg.fill` is read as its value), each product rounded before it is
    added, as the loops it replaces: the result is the same for every
    target and thread count. `fma=true` uses `vector.fma` instead (one
    rounding per step; results then differ in the last bits).

    A matmul whose b is a DequantizeLinear of 4-bit weights blocked along
    k (int4 or uint4) marked `qops.accuracy_level = 4` (MatMulNBits at
    level 4), or carrying no level with `default-accuracy-level=4`,
    quantizes A to int8 per row and block and multiplies bytes
    (FloatMatMulInt8.cpp; docs/Numerics.md): not ONNX's numbers for a
    DequantizeLinear -> MatMul graph, which is why the default is 0.

    ```mlir
    %y = linalg.matmul ins(%a, %w : tensor<128x768xf32>, tensor<768x3072xf32>)
                       outs(%zero : tensor<128x3072xf32>) -> tensor<128x3072xf32>
    // becomes (AVX-512): w packed to tensor<1x96x768x32xf32>; per tile
    // scf.for %k iter_args(24 x vector<16xf32>) {
    //   2 x vector.transfer_read of the panel's row k
    //   12 x (tensor.extract a[row, k], vector.broadcast, 2 x mulf + addf)
    // }
    // 24 x vector.transfer_write into y
    ```
  }];
  let options = [
    Option<"fma", "fma", "bool", /*default=*/"false",
           "One vector.fma per step (a single rounding) instead of a "
           "multiply and an add">,
    Option<"defaultAccuracyLevel", "default-accuracy-level", "int64_t",
           /*default=*/"0",
           "The accuracy level (0..4) of a matmul of dequantized weights "
           "that carries no qops.accuracy_level (a DequantizeLinear -> "
           "MatMul graph; ONNX Runtime's "
           "session.qdq_matmulnbits_accuracy_level): 4 quantizes A to int8 "
           "per block for 4-bit blocked weights, as MatMulNBits at level 4; "
           "0 to 3 keep ONNX's f32 numbers">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::qkernel::QKernelDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def ConvertQuantToQOps : Pass<"qops-from-quant", "ModuleOp"> {
  let summary = "Convert upstream quant.qcast/quant.dcast to ONNX-exact qops ops";
  let description = [{
    Rewrites `quant.qcast` and `quant.dcast` on tensors of `!quant.uniform`
    types (per-layer, per-axis and sub-channel) into `qops.quantize_linear`
    and `qops.dequantize_linear` with `arith.constant` scale and zero-point
    tensors, so that they get ONNX's numerics (round half to even,
    saturation) instead of upstream `--lower-quant-ops`'s truncation.
    Quantized tensor types become qops storage types (`si8`, `ui4`, ...)
    on the casts, on function signatures and on `func.call` results.

    ```mlir
    %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<i8:f32, 0.5:3>>
    // becomes
    %s = arith.constant dense<5.000000e-01> : tensor<f32>
    %z = arith.constant dense<3> : tensor<si8>
    %q = qops.quantize_linear %x, %s, %z : tensor<4xf32>, tensor<f32>, tensor<si8> -> tensor<4xsi8>
    ```

    The module is checked first and left unchanged on any error (reported
    at the op's location): `quant.scast`, other ops using quantized types,
    scalar or unranked quantized values, narrow storage ranges
    (`i8<-127:127>`), storage widths other than 2/4/8/16, f64 expressed
    types, `!quant.any`/`!quant.calibrated`, sub-channel types blocked
    along more than one dimension. See docs/QuantInterop.md.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::qops::QOpsDialect",
    "::mlir::quant::QuantDialect"
  ];
}

def ConvertQOpsToQuant : Pass<"qops-to-quant", "ModuleOp"> {
  let summary = "Convert qops Q/DQ with constant parameters to quant.qcast/quant.dcast";
  let description = [{
    Rewrites `qops.quantize_linear` / `qops.dequantize_linear` whose scale
    and zero point are constants into `quant.qcast` / `quant.dcast` on the
    equivalent `!quant.uniform` type (per-tensor, per-axis, or sub-channel
    for blocked scales). A quantized value is converted as a whole: the
    result of a quantize used only by dequantizes with the same parameters
    (and by the return of an uncalled function), or an argument of an
    uncalled function used only by such dequantizes. Other ops are left
    alone: non-constant parameters, float8/float4/int32 types, scales of a
    type other than the data's, `precision`, partial blocks.
    Note that the quant dialect's own lowering does not follow ONNX's
    rounding; see docs/QuantInterop.md.
  }];
  let options = [
    Option<"emitRemarks", "emit-remarks", "bool", /*default=*/"false",
           "Emit a remark on every qops Q/DQ op left unconverted, with the "
           "reason">
  ];
  let dependentDialects = [
    "::mlir::func::FuncDialect",
    "::mlir::quant::QuantDialect"
  ];
}

#endif // QUANTOPS_CONVERSION_PASSES_TD
