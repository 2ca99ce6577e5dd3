"""For float-matmul.mlir: float MatMul through the engine's float kernel
(qops-lower-float-contractions). Writes OUT/<case>_in<i>.npy, the expected
result in the documented order OUT/<case>_out.npy and with fused
multiply-adds OUT/<case>_fma.npy, both computed here with NumPy:

  order  y = c; for k = 0 .. K - 1: y = y + a[:, k] * w[k, :]   (a product
         rounded, then the sum rounded, in the element type)
  fma    y = c; for k = 0 .. K - 1: y = fma(a[:, k], w[k, :], y)  (one
         rounding per step): exact, by rounding the exact f64 sum to odd
         before the f32 rounding (f32), or with Python's Fraction (f64)

    float_matmul.py OUT

Cases (a, w, [c] as the function takes them):
  tiles     37 x 50 x 45 f32: partial row tiles, masked columns, w packed
  short     3 x 64 x 100 f32: w read in place (M < 16), masked columns
  batch     3 x 20 x 33 x 70 f32 (batch_matmul)
  dynamic   29 x 31 x 66 f32 through tensor<?x?xf32>
  acc       25 x 17 x 48 f32 with c: y = c + a w
  f64       19 x 21 x 23 f64
  long      18 x 1000 x 40 f32: where the order of the sums shows
  half      21 x 40 x 37 f16 a and b, f32 sums (each value extended, the
            products and sums in f32)
  bhalf     21 x 40 x 37 bf16 a and b (given as their bits, i16), f32 sums
"""
import os
import sys
from fractions import Fraction

import numpy as np


def fma_f32(x, y, acc):
    """fma(x, y, acc) in f32, correctly rounded (x, y, acc f32 arrays)."""
    p = x.astype(np.float64) * y.astype(np.float64)  # exact
    c = np.broadcast_to(acc.astype(np.float64), p.shape)
    s = p + c
    bb = s - p
    err = (p - (s - bb)) + (c - bb)  # p + c = s + err exactly
    bits = s.view(np.int64)
    even = (bits & 1) == 0
    nudge = (err != 0) & even & np.isfinite(s)
    toward = np.where(err > 0, np.inf, -np.inf)
    s = np.where(nudge, np.nextafter(s, toward), s)  # rounded to odd
    return s.astype(np.float32)


def nearest_f32(v):
    """The f32 nearest the Fraction v, ties to even (by comparing the
    neighbours of a first guess exactly)."""
    guess = np.float32(float(v))
    best = None
    for cand in (np.nextafter(guess, np.float32(-np.inf)), guess,
                 np.nextafter(guess, np.float32(np.inf))):
        d = abs(Fraction(float(cand)) - v)
        key = (d, int(np.array(cand).view(np.int32)) & 1)
        if best is None or key < best[0]:
            best = (key, cand)
    return best[1]


def check_fma_f32(rng):
    """fma_f32 against exact rationals, on random values and on sums made to
    land near halfway between two f32 values."""
    x = rng.standard_normal(3000).astype(np.float32)
    y = rng.standard_normal(3000).astype(np.float32)
    c = rng.standard_normal(3000).astype(np.float32)
    c[:1000] = -(x[:1000] * y[:1000]).astype(np.float32)  # cancellation
    got = fma_f32(x, y, c)
    for i in range(len(x)):
        want = nearest_f32(Fraction(float(x[i])) * Fraction(float(y[i])) + Fraction(float(c[i])))
        assert got[i] == want or (got[i] == 0 and want == 0), (x[i], y[i], c[i], got[i], want)


def fma_f64(x, y, acc):
    out = np.empty(np.broadcast_shapes(x.shape, y.shape, acc.shape))
    xb, yb, cb = np.broadcast_arrays(x, y, acc)
    for i in np.ndindex(out.shape):
        out[i] = float(Fraction(float(xb[i])) * Fraction(float(yb[i])) + Fraction(float(cb[i])))
    return out


def matmul(a, w, c, fused):
    y = c.copy()
    for k in range(a.shape[-1]):
        x, r = a[..., :, k:k + 1], w[..., k:k + 1, :]
        if not fused:
            y = (y + (x * r).astype(a.dtype)).astype(a.dtype)
        elif a.dtype == np.float32:
            y = fma_f32(x, r, y)
        else:
            y = fma_f64(x, r, y)
    return y


CASES = {
    # name: (batch dims, M, K, N, dtype, with c)
    "tiles": ((), 37, 50, 45, np.float32, False),
    "short": ((), 3, 64, 100, np.float32, False),
    "batch": ((3,), 20, 33, 70, np.float32, False),
    "dynamic": ((), 29, 31, 66, np.float32, False),
    "acc": ((), 25, 17, 48, np.float32, True),
    "f64": ((), 19, 21, 23, np.float64, False),
    "long": ((), 18, 1000, 40, np.float32, False),
    "half": ((), 21, 40, 37, np.float16, False),
    "bhalf": ((), 21, 40, 37, "bf16", False),
}


def to_bf16_bits(x):
    """f32 -> bf16 bits, rounded to nearest even."""
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def main(out):
    rng = np.random.default_rng(2026)
    check_fma_f32(rng)
    for name, (batch, m, k, n, dtype, with_c) in CASES.items():
        if dtype in (np.float16, "bf16"):
            # Narrow inputs, f32 sums of their exact f32 values.
            a = rng.standard_normal(batch + (m, k)).astype(np.float32)
            w = rng.standard_normal(batch + (k, n)).astype(np.float32)
            if dtype == np.float16:
                a16, w16 = a.astype(np.float16), w.astype(np.float16)
                a, w = a16.astype(np.float32), w16.astype(np.float32)
            else:
                a16, w16 = to_bf16_bits(a), to_bf16_bits(w)
                a = (a16.astype(np.uint32) << 16).view(np.float32)
                w = (w16.astype(np.uint32) << 16).view(np.float32)
                a16, w16 = a16.view(np.int16), w16.view(np.int16)
            c = np.zeros(batch + (m, n), np.float32)
            for i, value in enumerate((a16, w16)):
                np.save(os.path.join(out, "%s_in%d.npy" % (name, i)), value)
            np.save(os.path.join(out, "%s_out.npy" % name), matmul(a, w, c, False))
            np.save(os.path.join(out, "%s_fma.npy" % name), matmul(a, w, c, True))
            continue
        a = rng.standard_normal(batch + (m, k)).astype(dtype)
        w = rng.standard_normal(batch + (k, n)).astype(dtype)
        c = rng.standard_normal(batch + (m, n)).astype(dtype) if with_c else np.zeros(batch + (m, n), dtype)
        inputs = [a, w] + ([c] if with_c else [])
        for i, value in enumerate(inputs):
            np.save(os.path.join(out, "%s_in%d.npy" % (name, i)), value)
        np.save(os.path.join(out, "%s_out.npy" % name), matmul(a, w, c, False))
        np.save(os.path.join(out, "%s_fma.npy" % name), matmul(a, w, c, True))


if __name__ == "__main__":
    main(sys.argv[1])
