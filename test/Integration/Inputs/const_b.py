"""For qlinear-matmul-constant-b.mlir: writes a, b, b_scale and b_zero_point
as .npy files, OUT/expected.npy (the NumPy reference's QLinearMatMul of them
with the function's constant a_scale 0.02, a_zero_point 128, y_scale 0.5 and
y_zero_point 120) and OUT/constant_b.mlir, the same function with b, b_scale
and b_zero_point as constants (generated together, so both see the same
weights).

    const_b.py OUT
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
import qops_ref  # noqa: E402

out = sys.argv[1]
a = np.random.default_rng(7).integers(0, 256, (13, 37)).astype(np.uint8)
np.save(os.path.join(out, "a.npy"), a)
rng = np.random.default_rng(11)
b = rng.integers(-128, 128, (37, 19)).astype(np.int8)
bs = (0.01 * (1 + rng.random(19))).astype(np.float32)
bzp = rng.integers(-3, 4, 19).astype(np.int8)
np.save(os.path.join(out, "b.npy"), b)
np.save(os.path.join(out, "bs.npy"), bs)
np.save(os.path.join(out, "bzp.npy"), bzp)
expected = qops_ref.qlinear_matmul(a, np.float32(0.02), np.uint8(128), b, bs, bzp, np.float32(0.5), np.uint8(120))
assert expected.dtype == np.uint8 and expected.shape == (13, 19)
np.save(os.path.join(out, "expected.npy"), expected)


def dense(array, fmt):
    if array.ndim == 1:
        return "[" + ", ".join(fmt(v) for v in array) + "]"
    return "[" + ", ".join(dense(row, fmt) for row in array) + "]"


mlir = f"""func.func @per_column_constant_b(%a: tensor<13x37xui8>) -> tensor<13x19xui8> {{
  %as = arith.constant dense<0.02> : tensor<f32>
  %azp = arith.constant dense<128> : tensor<ui8>
  %b = arith.constant dense<{dense(b, str)}> : tensor<37x19xsi8>
  %bs = arith.constant dense<{dense(bs, lambda v: repr(float(v)))}> : tensor<19xf32>
  %bzp = arith.constant dense<{dense(bzp, str)}> : tensor<19xsi8>
  %ys = arith.constant dense<0.5> : tensor<f32>
  %yzp = arith.constant dense<120> : tensor<ui8>
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<13x37xui8>, tensor<f32>, tensor<ui8>)
                           b(%b, %bs, %bzp : tensor<37x19xsi8>, tensor<19xf32>, tensor<19xsi8>)
                           y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<13x19xui8>
  return %y : tensor<13x19xui8>
}}
"""
open(os.path.join(out, "constant_b.mlir"), "w").write(mlir)
