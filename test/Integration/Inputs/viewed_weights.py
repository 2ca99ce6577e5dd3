"""For viewed-weights.test: a QLinearMatMul whose si8 b (300 x 256, 76800
bytes) is a constant above convert-qops-to-linalg's viewed-constant-bytes
(64 KiB), so that its storage form views the ONNX-typed constant's buffer
(a dense_resource) instead of copying it. Writes OUT/a.npy,
OUT/expected.npy (the NumPy reference) and OUT/viewed.mlir.

    viewed_weights.py OUT
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
import qops_ref  # noqa: E402

out = sys.argv[1]
m, k, n = 21, 300, 256
a = np.random.default_rng(3).integers(0, 256, (m, k)).astype(np.uint8)
b = np.random.default_rng(5).integers(-128, 128, (k, n)).astype(np.int8)
assert b.nbytes >= 64 * 1024
np.save(os.path.join(out, "a.npy"), a)
expected = qops_ref.qlinear_matmul(a, np.float32(0.02), np.uint8(128), b, np.float32(0.003),
                                   np.int8(2), np.float32(0.9), np.uint8(120))
assert expected.dtype == np.uint8 and expected.shape == (m, n)
np.save(os.path.join(out, "expected.npy"), expected)
rows = ", ".join("[" + ", ".join(str(v) for v in row) + "]" for row in b)
open(os.path.join(out, "viewed.mlir"), "w").write(f"""func.func @viewed(%a: tensor<{m}x{k}xui8>) -> tensor<{m}x{n}xui8> {{
  %as = arith.constant dense<0.02> : tensor<f32>
  %azp = arith.constant dense<128> : tensor<ui8>
  %b = arith.constant dense<[{rows}]> : tensor<{k}x{n}xsi8>
  %bs = arith.constant dense<0.003> : tensor<f32>
  %bzp = arith.constant dense<2> : tensor<si8>
  %ys = arith.constant dense<0.9> : tensor<f32>
  %yzp = arith.constant dense<120> : tensor<ui8>
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<{m}x{k}xui8>, tensor<f32>, tensor<ui8>)
                           b(%b, %bs, %bzp : tensor<{k}x{n}xsi8>, tensor<f32>, tensor<si8>)
                           y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<{m}x{n}xui8>
  return %y : tensor<{m}x{n}xui8>
}}
""")
