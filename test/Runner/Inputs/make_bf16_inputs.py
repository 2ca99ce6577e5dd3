"""Inputs of bf16-truncation.mlir: f32 and f64 values by their bits.

Usage: make_bf16_inputs.py DIR  (writes DIR/f32.npy and DIR/f64.npy)
"""
import sys

import numpy as np

F32_BITS = [
    0x3F800000,  # 1.0
    0x3F808000,  # halfway between bf16 0x3f80 and 0x3f81: to even, 0x3f80
    0x3F818000,  # halfway between 0x3f81 and 0x3f82: to even, 0x3f82
    0x3F808001,  # just above halfway: 0x3f81
    0x7FA00000,  # a NaN (quiet bit clear): the quiet NaN 0x7fc0
    0xFFC00001,  # a negative NaN: 0xffc0
    0x7F800000,  # +inf: 0x7f80
    0x7F7FFFFF,  # the largest f32: rounds up past the largest bf16, to +inf
    0x00000001,  # the smallest subnormal: 0x0000
    0x00018000,  # a subnormal halfway between 0x0001 and 0x0002: 0x0002
    0x80000000,  # -0.0: 0x8000
]

F64_VALUES = [1.0, -2.5, float("nan"), 3.0e38 * 10.0]


def main():
    out = sys.argv[1]
    np.save(f"{out}/f32.npy", np.array(F32_BITS, dtype=np.uint32).view(np.float32))
    np.save(f"{out}/f64.npy", np.array(F64_VALUES, dtype=np.float64))


if __name__ == "__main__":
    main()
