"""For quantize-constant-weights.mlir: float weights quantized in the graph
(QuantizeLinear of a constant, as quantization-aware-training exports write
them) feeding QLinearMatMul. Writes OUT/a.npy, OUT/expected.npy (the NumPy
reference: quantize_linear, then qlinear_matmul) and OUT/qat.mlir, whose
@qat_weights holds the float weights as a constant and @qat_weights_twice
calls it twice.

    qat_weights.py OUT
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
import qops_ref  # noqa: E402

out = sys.argv[1]
rng = np.random.default_rng(23)
a = rng.integers(0, 256, (20, 64)).astype(np.uint8)
w = rng.normal(0.0, 0.4, (64, 48)).astype(np.float32)
# Ties of w / 0.01 (x.5 steps, round half to even) and values past the si8
# range (saturation).
w[0, :8] = np.float32(0.01) * np.array([0.5, 1.5, 2.5, -0.5, -1.5, 126.5, 200, -300], np.float32)
ws, wzp = np.float32(0.01), np.int8(0)
as_, azp, ys, yzp = np.float32(0.02), np.uint8(128), np.float32(0.25), np.uint8(120)
q = qops_ref.quantize_linear(w, ws, wzp)
assert q.dtype == np.int8
expected = qops_ref.qlinear_matmul(a, as_, azp, q, ws, wzp, ys, yzp)
assert expected.dtype == np.uint8 and expected.shape == (20, 48)
np.save(os.path.join(out, "a.npy"), a)
np.save(os.path.join(out, "expected.npy"), expected)


def hexdense(array):
    return '"0x' + np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes().hex().upper() + '"'


mlir = f"""func.func @qat_weights(%a: tensor<20x64xui8>) -> tensor<20x48xui8> {{
  %w = arith.constant dense<{hexdense(w)}> : tensor<64x48xf32>
  %ws = arith.constant dense<{float(ws)!r}> : tensor<f32>
  %wzp = arith.constant dense<0> : tensor<si8>
  %as = arith.constant dense<{float(as_)!r}> : tensor<f32>
  %azp = arith.constant dense<128> : tensor<ui8>
  %ys = arith.constant dense<{float(ys)!r}> : tensor<f32>
  %yzp = arith.constant dense<120> : tensor<ui8>
  %q = qops.quantize_linear %w, %ws, %wzp : tensor<64x48xf32>, tensor<f32>, tensor<si8> -> tensor<64x48xsi8>
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<20x64xui8>, tensor<f32>, tensor<ui8>)
                           b(%q, %ws, %wzp : tensor<64x48xsi8>, tensor<f32>, tensor<si8>)
                           y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<20x48xui8>
  return %y : tensor<20x48xui8>
}}

func.func @qat_weights_twice(%a: tensor<20x64xui8>) -> (tensor<20x48xui8>, tensor<20x48xui8>) {{
  %y0 = call @qat_weights(%a) : (tensor<20x64xui8>) -> tensor<20x48xui8>
  %y1 = call @qat_weights(%a) : (tensor<20x64xui8>) -> tensor<20x48xui8>
  return %y0, %y1 : tensor<20x48xui8>, tensor<20x48xui8>
}}
"""
open(os.path.join(out, "qat.mlir"), "w").write(mlir)
