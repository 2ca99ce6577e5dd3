#!/usr/bin/env python3
"""Writes test/Integration/<family>.mlir from the cases in gen_case.py.

    python3 make_lit.py            rewrite the .mlir files
    python3 make_lit.py --check    exit 1 if any file differs from what it would write

Each case becomes one function in the qops dialect (argument order = in0, in1,
...; results = out0, ...) with RUN lines that generate its data, run it with
quant-runner and check the `all N results match` line.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_case  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = os.path.dirname(HERE)

TITLES = {
    "quantize-linear": "QuantizeLinear, integer outputs (u8 i8 u16 i16 u4 i4 u2 i2): per-tensor,\n"
                       "// per-axis, blocked, x f32/f16/i32, scale f32/f16, precision, dynamic shapes.",
    "dequantize-linear": "DequantizeLinear from every integer type and from int32: per-tensor,\n"
                         "// per-axis, blocked, f16 scales and outputs, dynamic shapes.",
    "dynamic-quantize-linear": "DynamicQuantizeLinear: random, one-signed, all-zero, +-Inf, NaN, empty,\n"
                               "// 2-D, rank 0, denormal and overflowing ranges, 1e6 elements.",
    "qlinear-matmul": "QLinearMatMul: u8/i8 in all 8 combinations, per-row a, per-column b,\n"
                      "// per-row/per-column y, batch broadcast, 1-D operands, K=1, odd and large sizes.",
    "matmul-integer": "MatMulInteger: u8/i8 in all 4 combinations, rank-0,\n"
                      "// per-row and per-column zero points or none, 1-D operands, batch broadcast,\n"
                      "// the int8 kernel's and the gemv's shapes (K = 4096), sums near the int32\n"
                      "// bounds, dynamic shapes.",
    "conv": "ConvInteger and QLinearConv: u8/i8 in every combination, 1-D, 2-D and 3-D,\n"
            "// pads (asymmetric), strides, dilations, groups and depthwise, per-channel w\n"
            "// zero points and scales, batches (and a dynamic batch), 1x1, the int8\n"
            "// kernel's tiles (M >= 32), ties and saturation.",
    "edge-values": "Edge values: ties, saturation at both ends, -0, +-Inf, NaN, denormals,\n"
                   "// zero scales, zero-size tensors, sizes 1/3/17/1023, a 1e6-element tensor.",
    "seed-examples": "The examples of SPEC.md, shared/seeds/ and the ONNX backend node tests\n"
                     "// (integer forms); gen_case.py also asserts the reference reproduces them.",
    "float8-quantize": "QuantizeLinear to float8 (all four types, saturate 0/1) and float4:\n"
                       "// every code, midpoint and neighbour, overflow, +-Inf, NaN, -0, tiny values;\n"
                       "// per-axis, blocked, f16/bf16 x and scales, precision, e8m0 (MX) scales,\n"
                       "// float4 zero points, 1e5-element tensors.",
    "float8-dequantize": "DequantizeLinear from every float8 type and float4 (every code) to\n"
                         "// f32/f16/bf16, per-axis, blocked, float4 zero points, e8m0 (MX) scales.",
    "float-scales": "Integer QuantizeLinear/DequantizeLinear with bf16/f16 x and scales, precision\n"
                    "// and e8m0 scales (incl. 2^-127, 2^127 and NaN).",
    "float8-qlinear-matmul": "QLinearMatMul with float8 operands and outputs, mixed with int8:\n"
                             "// per-row/per-column params, batch broadcast, bf16/f16 scales, the sum order,\n"
                             "// rounding once from f64, Inf/NaN operands, 64x128x32.",
}
# Regressions: cases that found compiler bugs (their expected values derived
# from SPEC.md, see the comments in gen_case.py), kept in regressions/ with a
# description of the bug they caught.
DISCREPANCIES = {
    "discrepancy-bf16-to-f16": "bf16 x or scale with precision = f16: the lowering emits an invalid\n"
                               "// arith.truncf bf16 -> f16 (the conversion must go through f32).",
    "discrepancy-bf16-subnormal": "f32 subnormals rounded to bf16 (DequantizeLinear bf16 outputs, precision\n"
                                  "// bf16): on a host with AVX512-BF16 LLVM selects vcvtneps2bf16, which\n"
                                  "// treats subnormal inputs as zero; the correctly rounded bf16 is a subnormal.",
    "discrepancy-i32-to-bf16": "int32 x with a bf16 division type: sitofp i32 -> bf16 is lowered as\n"
                               "// i32 -> f32 -> bf16, two roundings (2^24 + 2^16 + 1 -> 2^24, not 2^24 + 2^17).",
    "discrepancy-scale1-zp0": "a per-tensor scale of shape [1] with a rank-0 zero point crashes the\n"
                              "// lowering (run-time size check reads dimension 0 of the rank-0 zero point).",
}
TITLES.update({k: "REGRESSION (fixed): " + v for k, v in DISCREPANCIES.items()})
ORDER = ["quantize-linear", "dequantize-linear", "dynamic-quantize-linear", "qlinear-matmul",
         "matmul-integer", "conv", "edge-values", "seed-examples",
         "float8-quantize", "float8-dequantize", "float-scales", "float8-qlinear-matmul"] + list(DISCREPANCIES)
# Families whose data is written by one gen_case.py process (--family): the
# float forms, which take their expected values from qops_float_ref.py.
BATCHED = {"float8-quantize", "float8-dequantize", "float-scales", "float8-qlinear-matmul"} | set(DISCREPANCIES)


# The int8 kernel's strategies (QLinearMatMul and MatMulInteger): the host's
# (amx on an x86 with AMX-INT8, vnni with AVX512-VNNI or AVX-VNNI, else madd
# or maddubs) and, forced by switching the VNNI features off, madd/maddubs.
# A variant is (lit condition, extra flags): the forced run is a different
# kernel only on a host with VNNI (lit features avx512vnni / avxvnni, see
# test/lit.cfg.py), so elsewhere it is not run (lit reports the RUN line as
# having no command) rather than repeating the default run. A matrix the amx
# kernel takes (32 rows of a or more, or a dynamic count) also runs with AMX
# switched off on an AMX host, so that it tests vnni there too.
FORCE_MADD_VARIANT = ("avx512vnni || avxvnni", " --target-features=-avx512vnni,-avxvnni")
STRATEGY_VARIANTS = {"qlinear-matmul": [(None, ""), FORCE_MADD_VARIANT],
                     "matmul-integer": [(None, ""), FORCE_MADD_VARIANT],
                     "conv": [(None, ""), FORCE_MADD_VARIANT]}
NO_AMX_VARIANT = ("amx", " --target-features=-amx-tile")


def amx_applies(case):
    """Whether the amx kernel would take this int8 case's a (a convolution's
    a is its weights: M rows, y's channels)."""
    if case.op == "conv":
        return case.outs[0].arr.shape[1] >= 32
    a = case.ins[0].arr
    return a.ndim >= 2 and (case.dyn or a.shape[-2] >= 32)


# Cases with a dynamic-shaped result that qops-nontemporal-stores versions:
# also run with a threshold they exceed, which takes the streaming branch.
STREAMING_VARIANT = (None, " --nontemporal-min-bytes=64")
STREAMING_CASES = {"quantize_dyn_batch_u8", "quantize_dyn_1d_u8", "dequantize_dyn_batch_u8",
                   "dequantize_dyn_1d_i8"}


def variants(family, name, case):
    result = list(STRATEGY_VARIANTS.get(family, [(None, "")]))
    if name in STREAMING_CASES:
        result.append(STREAMING_VARIANT)
    if family in ("qlinear-matmul", "matmul-integer", "conv") and amx_applies(case):
        result.insert(1, NO_AMX_VARIANT)
    return result


def family_path(family):
    if family in DISCREPANCIES:
        return os.path.join(OUT_DIR, "regressions", family + ".mlir")
    return os.path.join(OUT_DIR, family + ".mlir")


def render(family):
    names = [n for n, (f, _) in gen_case.CASES.items() if f == family]
    batched = family in BATCHED
    refname = "reference/qops_float_ref.py" if batched else "reference/qops_ref.py"
    up = "../" if family in DISCREPANCIES else ""
    lines = [
        "// Integration tests. " + TITLES[family],
        "//",
        "// GENERATED by reference/make_lit.py from the cases in reference/gen_case.py:",
        "// edit the cases there and regenerate. Expected values come from the NumPy",
        "// reference %s (written from SPEC.md), never from the compiler." % refname,
        "",
        "// RUN: rm -rf %t && mkdir -p %t",
        "",
    ]
    if batched:
        lines[-1:-1] = ["// RUN: %%python %%S/%sreference/gen_case.py --family %s %%t" % (up, family)]
    for name in names:
        case = gen_case.build(name)
        d = "%t/" + name
        if not batched:
            lines.append("// RUN: %%python %%S/reference/gen_case.py %s %s" % (name, d))
        for cond, variant in variants(family, name, case):
            parts = ["quant-runner %s -e " + name + variant]
            if cond:
                parts[0] = "%%if %s %%{ %s" % (cond, parts[0])
            parts += ["--input %s/in%d.npy" % (d, i) for i in range(len(case.ins))]
            parts += ["--expect %s/out%d.npy" % (d, i) for i in range(len(case.outs))]
            parts.append("| FileCheck %%s --check-prefix=OK_%s" % name + (" %}" if cond else ""))
            # RUN lines continue with a trailing backslash; keep them readable
            cur = "// RUN: " + parts[0]
            for p in parts[1:]:
                if len(cur) + 1 + len(p) > 110:
                    lines.append(cur + " \\")
                    cur = "// RUN:   " + p
                else:
                    cur += " " + p
            lines.append(cur)
        lines.append("// OK_%s: all {{[0-9]+}} results match" % name)
        lines.append(case.mlir(name))
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv):
    check = "--check" in argv
    bad = 0
    for family in ORDER:
        path = family_path(family)
        text = render(family)
        if check:
            old = open(path).read() if os.path.exists(path) else None
            if old != text:
                print("out of date: " + path)
                bad += 1
        else:
            with open(path, "w") as fh:
                fh.write(text)
            print("wrote " + path)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
