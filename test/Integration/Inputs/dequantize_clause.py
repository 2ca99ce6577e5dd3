"""For matmul-integer-dequantize.mlir: the dequantize clause of
qops.matmul_integer (y = f32(acc) * scale + offset, what --qops-fuse-qdq
makes of quantize_dynamic's Cast -> Mul -> Add) with b an argument. Writes
OUT/<case>_{a,b,scale,offset}.npy and OUT/<case>_expected.npy: the NumPy
reference's MatMulInteger (qops_ref.matmul_integer, written from SPEC.md),
then the f32 Cast, Mul and Add as ONNX's ops round them.

    dequantize_clause.py OUT

Cases (a ui8 with zero point 131, b si8):
  rows2      2 x 40 x 19: few rows and a b that is not constant, which the
             int8 kernels leave to the generic form; scale and offset per
             column
  rows70     70 x 45 x 37: the packed kernel (partial tiles and panels);
             scale one element, offset per column
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
import qops_ref  # noqa: E402

out = sys.argv[1]
rng = np.random.default_rng(77)
for name, (m, k, n), scale_shape in (("rows2", (2, 40, 19), (19,)), ("rows70", (70, 45, 37), ())):
    a = rng.integers(0, 256, size=(m, k), dtype=np.uint8)
    b = rng.integers(-128, 128, size=(k, n), dtype=np.int8)
    scale = rng.uniform(1e-4, 1e-3, size=scale_shape).astype(np.float32)
    offset = rng.standard_normal(n).astype(np.float32)
    acc = qops_ref.matmul_integer(a, b, np.uint8(131), None)
    y = (acc.astype(np.float32) * scale).astype(np.float32) + offset
    for suffix, value in (("a", a), ("b", b), ("scale", np.asarray(scale)), ("offset", offset),
                          ("expected", y.astype(np.float32))):
        np.save(os.path.join(out, "%s_%s.npy" % (name, suffix)), value)
    # One element one ulp off: the comparison is exact.
    y = y.astype(np.float32)
    y[0, 0] = np.nextafter(y[0, 0], np.float32(np.inf))
    np.save(os.path.join(out, "%s_ulp_off.npy" % name), y)
