"""Writes DIR/x.npy (f16 [3, 4]) and DIR/y.npy, the bf16 bit patterns (u2)
of ONNX's Cast(to=BFLOAT16) on it: each f16 widened to f32 exactly, then
rounded once to bf16, to nearest even (NaN stays a quiet NaN), computed on
the bit patterns with NumPy (which has no bf16).

    cast_f16_to_bf16.py DIR
"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
# 1/3 and 2/3 (inexact in bf16), the f16 maximum, the smallest f16
# subnormal, -0, +-Inf, NaN, a bf16 tie that rounds up to even (1 + 2^-8 +
# 2^-9 ... as f16: 1.00390625 + 0.001953125 = 1.005859375) and one that
# rounds down (1.001953125 = 1 + 2^-9), -2.5 (exact).
x = np.array([1 / 3, 2 / 3, 65504.0, 2.0 ** -24,
              -0.0, np.inf, -np.inf, np.nan,
              1.00390625, 1.01171875, -2.5, 100.0625], dtype=np.float16).reshape(3, 4)
bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
nan = np.isnan(x.astype(np.float32))
rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
rounded = np.where(nan, (bits >> 16) | 0x40, rounded)
np.save(os.path.join(out, "x.npy"), x)
np.save(os.path.join(out, "y.npy"), rounded.astype(np.uint16))
