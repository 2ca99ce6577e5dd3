"""Writes the inputs of scale-edge-values.mlir into OUTDIR: x tensors and
the edge-case scales (0, -0, negative, +Inf, -Inf, NaN) as .npy files. The
expected results are in the test's CHECK lines, derived by hand."""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
p = lambda name: os.path.join(out, name)
f32 = np.float32

# QuantizeLinear per-tensor: x, zp = 128 (ui8).
np.save(p("q_x.npy"), np.array([-2.0, -0.5, 0.0, 0.5, 2.0, np.inf, -np.inf, np.nan], f32))
np.save(p("q_zp.npy"), np.array(128, np.uint8))
# DequantizeLinear per-tensor: x - zp = [-128, -1, 0, 1, 127].
np.save(p("dq_x.npy"), np.array([0, 127, 128, 129, 255], np.uint8))
np.save(p("dq_zp.npy"), np.array(128, np.uint8))
# The scales, one file each.
scales = {"zero": 0.0, "negzero": -0.0, "neg": -0.5, "inf": np.inf,
          "neginf": -np.inf, "nan": np.nan}
for name, value in scales.items():
    np.save(p("s_%s.npy" % name), np.array(value, f32))
# Per-axis (axis 0): one row per scale kind, rows [-1, 0, 1].
axis_scales = np.array([0.0, -0.0, -0.5, np.inf, -np.inf, np.nan], f32)
np.save(p("axis_s.npy"), axis_scales)
np.save(p("axis_q_x.npy"), np.tile(np.array([-1.0, 0.0, 1.0], f32), (6, 1)))
np.save(p("axis_q_zp.npy"), np.zeros(6, np.int8))
np.save(p("axis_dq_x.npy"), np.tile(np.array([-1, 0, 1], np.int8), (6, 1)))
# QLinearMatMul: a = [[1, -1]], b = [[1, 0, 0], [0, 0, 1]] (si8, zp 0), so
# acc = [1, 0, -1]; a_scale = b_scale = 1, y_zp = 128 (ui8).
np.save(p("mm_a.npy"), np.array([[1, -1]], np.int8))
np.save(p("mm_b.npy"), np.array([[1, 0, 0], [0, 0, 1]], np.int8))
np.save(p("mm_zp8.npy"), np.array(0, np.int8))
np.save(p("mm_one.npy"), np.array(1.0, f32))
np.save(p("mm_yzp.npy"), np.array(128, np.uint8))
