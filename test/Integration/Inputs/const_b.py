"""For qlinear-matmul-constant-b.mlir: writes b, b_scale and b_zero_point as
.npy files and OUT/constant_b.mlir, the same function with those numbers as
constants (generated together, so both see the same weights)."""
import os
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(11)
b = rng.integers(-128, 128, (37, 19)).astype(np.int8)
bs = (0.01 * (1 + rng.random(19))).astype(np.float32)
bzp = rng.integers(-3, 4, 19).astype(np.int8)
np.save(os.path.join(out, "b.npy"), b)
np.save(os.path.join(out, "bs.npy"), bs)
np.save(os.path.join(out, "bzp.npy"), bzp)


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
