#!/usr/bin/env python3
"""scanned_sums_case.py: the constant b's of the @constant_b_scanned_* cases
of test/Conversion/QOpsToLinalg/qkernel-matmul.mlir, and the check of their
column sums in NumPy. Prints, per case, the hex of b [300, 19] and its zero
points; asserts that the largest sum_k |b[k, n] - zp[n]| is the target, in
column 17 (65793 = floor(2^24 / 255) proves the f32 requantization, 65794
does not).

    /usr/bin/python3 test/Utils/scanned_sums_case.py
"""
import numpy as np

K, N, COLUMN = 300, 19, 17


def make(rng, signed, target):
    if signed:  # zero points near -128, so that |b - zp| reaches 255
        zp = np.array([-128 + (n % 9) for n in range(N)], dtype=np.int64)
        lo, hi = -128, 127
    else:
        zp = np.zeros(N, dtype=np.int64)
        lo, hi = 0, 255
    b = np.empty((K, N), dtype=np.int64)
    for n in range(N):  # sums far below the bound
        b[:, n] = np.clip(zp[n] + rng.integers(0, 200, K), lo, hi)
    d = np.full(K, 230)  # column 17: 230 a row, trimmed to the target
    extra, i = int(d.sum()) - target, 0
    while extra > 0:
        take = min(extra, int(d[i]))
        d[i] -= take
        extra -= take
        i += 1
    b[:, COLUMN] = zp[COLUMN] + d
    assert b.min() >= lo and b.max() <= hi
    sums = np.abs(b - zp[None, :]).sum(axis=0)
    assert sums.max() == target and sums.argmax() == COLUMN
    raw = b.astype(np.int8 if signed else np.uint8).tobytes()
    return "0x" + raw.hex().upper(), zp


rng = np.random.default_rng(7)
for name, signed, target in [("at_bound", True, 65793),
                             ("above_bound", True, 65794),
                             ("unsigned_at_bound", False, 65793)]:
    hexed, zp = make(rng, signed, target)
    print(name, ", ".join(str(int(v)) for v in zp))
    print(hexed)
