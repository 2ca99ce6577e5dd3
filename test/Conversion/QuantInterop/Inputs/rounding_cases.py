"""Inputs and ONNX-rule expectations for jit-rounding-vs-upstream.mlir.

  rounding_cases.py make DIR               x.npy, onnx_zp0.npy, onnx_zp3.npy
  rounding_cases.py compare DIR OUT.npy ZP  prints one line per element,
                                            comparing OUT (upstream's result)
                                            with ONNX's rule

ONNX QuantizeLinear (scale 1, int8):  y = clip(rint(x / 1) + zp, -128, 127),
np.rint rounds half to even. Nothing here comes from the code under test.
"""
import sys

import numpy as np

X = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 300.0, -300.0], dtype=np.float32)
SCALE = np.float32(1.0)


def onnx_quantize(x, zero_point):
    return np.clip(np.rint(x / SCALE) + zero_point, -128, 127).astype(np.int8)


def main():
    mode, out_dir = sys.argv[1], sys.argv[2]
    if mode == "make":
        np.save(f"{out_dir}/x.npy", X)
        np.save(f"{out_dir}/onnx_zp0.npy", onnx_quantize(X, 0))
        np.save(f"{out_dir}/onnx_zp3.npy", onnx_quantize(X, 3))
        return
    upstream = np.load(sys.argv[3]).astype(np.int64)
    zero_point = int(sys.argv[4])
    expected = onnx_quantize(X, zero_point).astype(np.int64)
    for x, want, got in zip(X, expected, upstream):
        in_range = -128 <= x / SCALE + zero_point <= 127
        verdict = "same" if want == got else "differs"
        note = "" if in_range else " (out of range: no saturation)"
        print(f"x={x}: onnx={want} upstream={got} {verdict}{note}")


if __name__ == "__main__":
    main()
