"""For weight-only-matmul.mlir: y = x DQ(q) with 2-, 4- and 8-bit q, which
the float kernel reads as integers and dequantizes in registers
(FloatMatMulWeights.cpp). Writes OUT/<case>_in<i>.npy (x, q, scale[, zp]),
OUT/<case>_out.npy (the graph as ONNX defines it: DequantizeLinear, then
MatMul summed in increasing k, a product rounded then added) and
OUT/<case>_fma.npy (the same weights, fused multiply-adds), with NumPy;
for the int8 cases (the matmul marked qops.accuracy_level = 4: A
quantized per block, qops_ref.matmul_nbits_int8) OUT/<case>_out.npy is that
arithmetic and there is no fma file. w4_chunks, u8_dynamic and w4_acc have
enough row tiles for the panels to be dequantized in chunks of 32 KB of
f32 (getFloatDequantizeChunk: 256 k with zmm, 512 with ymm or NEON): K
past one chunk, the last one partial, blocks
across chunks, a dynamic M, and w4_acc sums into a given c (its last
input: y = c + x DQ(q)); u8_dynamic_one is the same function on one row
(a decode step: the register form, chosen at run time); s2_nozp and u2_zp
are 2-bit weights without and with zero points (the 2-bit fields' masks,
shifts and biased zero points):

  w = f32(q - zp) * scale     (q - zp exact; the product rounded once)

    weight_only.py OUT
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
from float_matmul import matmul  # noqa: E402
import qops_ref  # noqa: E402

RANGES = {"si2": (-2, 1), "ui2": (0, 3), "si4": (-8, 7), "ui4": (0, 15),
          "si8": (-128, 127), "ui8": (0, 255)}

# name: (type, M, K, N, granularity, block, zero point)
CASES = {
    "w4_short": ("si4", 5, 64, 40, "blocked", 16, True),
    "w4_tall": ("ui4", 37, 96, 70, "blocked", 32, True),
    "w4_partial": ("si4", 3, 40, 33, "blocked", 16, False),
    "w2_blocked": ("si2", 4, 32, 20, "blocked", 8, True),
    "u2_column": ("ui2", 2, 16, 17, "column", 0, False),
    "w8_tensor": ("si8", 19, 24, 50, "tensor", 0, True),
    "u8_blocked": ("ui8", 1, 12, 9, "blocked", 4, True),
    "w4_chunks": ("si4", 41, 600, 70, "blocked", 48, True),
    "u8_dynamic": ("ui8", 30, 520, 40, "column", 0, True),
    "u8_dynamic_one": ("ui8", 1, 520, 40, "column", 0, True),
    "w4_acc": ("ui4", 50, 600, 33, "blocked", 64, False),
    "s2_nozp": ("si2", 6, 64, 40, "blocked", 16, False),
    "u2_zp": ("ui2", 6, 64, 40, "blocked", 16, True),
    "int8_zp": ("ui4", 5, 64, 40, "blocked", 16, True),
    "int8_nozp": ("ui4", 19, 32, 33, "blocked", 32, False),
}


def parameter_shape(granularity, k, n, block):
    if granularity == "tensor":
        return ()
    if granularity == "column":
        return (n,)
    return (-(-k // block), n)


def expand(param, granularity, k, block):
    """A parameter broadcast to [K, N]."""
    if granularity == "blocked":
        return np.repeat(param, block, axis=0)[:k]
    return param


out = sys.argv[1]
rng = np.random.default_rng(321)
for name, (qtype, m, k, n, granularity, block, with_zp) in CASES.items():
    lo, hi = RANGES[qtype]
    x = rng.standard_normal((m, k)).astype(np.float32)
    q = rng.integers(lo, hi + 1, size=(k, n)).astype(np.int8 if qtype[0] == "s" else np.uint8)
    shape = parameter_shape(granularity, k, n, block)
    scale = rng.uniform(0.01, 0.1, size=shape).astype(np.float32)
    zp = rng.integers(lo, hi + 1, size=shape).astype(q.dtype)
    zp_full = expand(zp, granularity, k, block).astype(np.int32) if with_zp else 0
    d = q.astype(np.int32) - zp_full
    w = d.astype(np.float32) * expand(scale, granularity, k, block)
    inputs = [x, q, np.asarray(scale)] + ([np.asarray(zp)] if with_zp else [])
    c = np.zeros((m, n), np.float32)
    if name.endswith("_acc"):
        c = rng.standard_normal((m, n)).astype(np.float32)
        inputs.append(c)
    for i, value in enumerate(inputs):
        np.save(os.path.join(out, "%s_in%d.npy" % (name, i)), value)
    if name.startswith("int8"):
        y = qops_ref.matmul_nbits_int8(x, q, zp if with_zp else None, scale, block)
        np.save(os.path.join(out, "%s_out.npy" % name), y)
        continue
    np.save(os.path.join(out, "%s_out.npy" % name), matmul(x, w, c, False))
    np.save(os.path.join(out, "%s_fma.npy" % name), matmul(x, w, c, True))
