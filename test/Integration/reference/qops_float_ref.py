#!/usr/bin/env python3
"""Independent NumPy reference for the float forms of the qops ops.

Extends qops_ref.py (integer forms) to bf16, float8 (f8E4M3FN, f8E4M3FNUZ,
f8E5M2, f8E5M2FNUZ), float4 (f4E2M1FN) and e8m0 scales (f8E8M0FNU). Written
from SPEC.md ("Numerics") and the project's documented choices, not from the
compiler. The float8/float4 encodings reuse float_formats_ref.py (every code
decoded to an exact rational); here they are applied vectorized, by exact
comparisons in float64 (every small-float value and midpoint, every f32, f16
and bf16 value is exact in float64).

Storage (the .npy convention of quant-runner): f32 np.float32, f16
np.float16, bf16 np.uint16 (bit pattern), float8/e8m0 np.uint8 (code), float4
np.uint8 (code in the low 4 bits), integers as in qops_ref.

Semantics:
  QuantizeLinear
    D = precision, else the scale's type (f32 for an e8m0 scale)
    q = D(x_D / scale_D)            x and scale rounded to D first (nearest
                                    even; f16/bf16/e8m0 -> f32 exact), one
                                    correctly rounded division in D
    float8 y:  y = float8(q), rounded once from the D value, ties to even,
               `saturate` as in SPEC.md (float_formats_ref.Format.trunc);
               the zero point (must be 0) is ignored
    float4 y:  y = float4(D(q + zp_D)), always saturating to +-6; NaN -> 0x7
    integer y: y = saturate(round_half_even(q) + zp), NaN -> zp, +-Inf
               saturate (qops_ref._saturate_round)
  DequantizeLinear
    y = T(f32(x - zp) * f32(scale)), product in f32, rounded once to T;
    float8 x: f32(x) exact, zero point ignored; float4 x: f32(x) - f32(zp)
  QLinearMatMul with a float8 operand or output
    every element decoded exactly to f64; (a - a_zp), (b - b_zp) in f64;
    acc = sum over k in increasing k order, in f64 (a sequential loop)
    multiplier = (a_scale * b_scale) / y_scale, in the scales' type
    product = f64(acc) * f64(multiplier)
    float8 y:  float8(product + f64(y_zp)), saturating, rounded once from
               the f64 value
    int8 y:    saturate(round_half_even(product) + y_zp), NaN -> y_zp

bf16 arithmetic is exact emulation: every operation is done in float64 and
rounded once to bf16 (RNE on the bits, subnormals included); a single +,-,*,/
of two p-bit values done in float64 and rounded to p bits is correctly
rounded for p <= 25 (53 >= 2p + 2). f16 the same way, with numpy's
float64 -> float16 conversion (checked against exact rounding in --selftest).

`python3 qops_float_ref.py --selftest` checks the conversions against
float_formats_ref.py and exact rational rounding, hand-derived examples, and
the float8/float4 ONNX backend node tests (if shared/onnx-node-tests is found).
"""

import os
import sys
from fractions import Fraction

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import float_formats_ref as ffr  # noqa: E402
import qops_ref as iref  # noqa: E402

FLOAT8 = ("f8E4M3FN", "f8E4M3FNUZ", "f8E5M2", "f8E5M2FNUZ")
FLOAT4 = "f4E2M1FN"
SMALL = FLOAT8 + (FLOAT4,)
E8M0 = "f8E8M0FNU"
WIDE = ("f32", "f16", "bf16")
INT8 = ("u8", "i8")

STORAGE = {"f32": np.float32, "f16": np.float16, "bf16": np.uint16, "i32": np.int32, E8M0: np.uint8}
for _n in SMALL:
    STORAGE[_n] = np.uint8
for _n, (_lo, _hi, _dt) in iref.QTYPES.items():
    STORAGE[_n] = _dt


def storage(t):
    return STORAGE[t]


# ---------------------------------------------------------------------------
# Decoding: storage -> exact float64
# ---------------------------------------------------------------------------

def _decode_table(name):
    n = 16 if name == FLOAT4 else 256
    out = np.empty(n, np.float64)
    for code in range(n):
        sign, v = ffr.decode_small(name, code)
        if v == ffr.NAN:
            f = float("nan")
        elif v == ffr.INF:
            f = float("inf")
        else:
            f = float(v)  # exact: at most 4 significant bits, exponent >= -127
            assert Fraction(f) == v
        out[code] = -f if sign else f
    return out


_TABLES = {}


def decode_table(name):
    if name not in _TABLES:
        _TABLES[name] = _decode_table(name)
    return _TABLES[name]


def decode(arr, t):
    """Exact float64 values of a stored tensor of type t."""
    arr = np.asarray(arr)
    if t in ("f32", "f16"):
        return arr.astype(np.float64)
    if t == "bf16":
        return (arr.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)
    if t in SMALL or t == E8M0:
        mask = 0xF if t == FLOAT4 else 0xFF
        return decode_table(t)[arr.astype(np.int64) & mask]
    if t == "i32" or t in iref.QTYPES:
        return arr.astype(np.float64)
    raise ValueError("unknown type %r" % (t,))


# ---------------------------------------------------------------------------
# Rounding float64 -> f32 / f16 / bf16 (round to nearest, ties to even)
# ---------------------------------------------------------------------------

_M45 = np.uint64((1 << 45) - 1)


def f64_to_bf16_bits(v):
    """bf16 bits of float64 values, correctly rounded (RNE, subnormals, +-Inf
    on overflow; NaN -> 0x7FC0 with the sign)."""
    v = np.asarray(v, dtype=np.float64)
    shape = v.shape
    v = np.ascontiguousarray(v.reshape(-1))
    with np.errstate(all="ignore"):
        b = v.view(np.uint64)
        # keep 7 of the 52 fraction bits: RNE on the magnitude bits (the
        # exponent is unbounded here; overflow is handled below)
        r = (b + (np.uint64(1 << 44) - np.uint64(1)) + ((b >> np.uint64(45)) & np.uint64(1))) & ~_M45
        rn = r.view(np.float64)
        # subnormal range of bf16 (|v| < 2^-126): the grid is 2^-133
        rs = np.rint(v * 2.0 ** 133) * 2.0 ** -133
        res = np.where(np.abs(v) < 2.0 ** -126, rs, rn)
        res = np.where(np.abs(res) >= 2.0 ** 128, np.copysign(np.inf, v), res)
        res = np.where(np.isinf(v), v, res)
        bits = (res.astype(np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint16)
    sign = np.signbit(v).astype(np.uint16) << np.uint16(15)
    return np.where(np.isnan(v), np.uint16(0x7FC0) | sign, bits).astype(np.uint16).reshape(shape)


def round_to(v, t):
    """Stored values of type t (f32, f16, bf16) nearest to float64 v."""
    v = np.asarray(v, dtype=np.float64)
    with np.errstate(all="ignore"):
        if t == "f32":
            return v.astype(np.float32)
        if t == "f16":
            return v.astype(np.float16)
        if t == "f64":
            return v
    if t == "bf16":
        return f64_to_bf16_bits(v)
    raise ValueError("round_to: %r" % (t,))


def in_type(v, t):
    """float64 v rounded to the type t, as float64 (exact)."""
    return decode(round_to(v, t), t) if t != "f64" else np.asarray(v, np.float64)


def op_in(t, fn, *args):
    """One arithmetic operation of values of type t (given as float64), done
    in float64 and rounded once to t. For t = f32 numpy's f32 arithmetic."""
    with np.errstate(all="ignore"):
        if t == "f32":
            a32 = [np.asarray(a, np.float64).astype(np.float32) for a in args]
            return np.asarray(fn(*a32), np.float32).astype(np.float64)
        return in_type(fn(*[np.asarray(a, np.float64) for a in args]), t)


# ---------------------------------------------------------------------------
# Rounding float64 -> float8 / float4 (float_formats_ref semantics, vectorized)
# ---------------------------------------------------------------------------

class SmallRounder:
    """float_formats_ref.Format.trunc, vectorized, for float64 inputs."""

    def __init__(self, name):
        fmt = ffr.get_format(name)
        self.fmt = fmt
        self.vals = np.array([float(v) for v in fmt.values], np.float64)  # ascending, + next
        assert all(Fraction(float(v)) == v for v in fmt.values)
        self.codes = np.array(fmt.codes, np.int64)
        self.max_value = float(fmt.max_value)
        self.max_code = fmt.max_code
        self.kind = fmt.kind
        self.sign_shift = fmt.nbits - 1

    def __call__(self, v, saturate):
        v = np.asarray(v, dtype=np.float64)
        sign = np.signbit(v).astype(np.int64)
        nan = np.isnan(v)
        mag = np.abs(v)
        if self.kind == "none":
            saturate = True
        with np.errstate(invalid="ignore"):
            if saturate:
                mag = np.where(mag > self.max_value, self.max_value, mag)  # Inf too
            over = ~nan & (mag > self.vals[-1])  # beyond `next`: out of range
            m = np.where(nan | over, 0.0, mag)
        i = np.searchsorted(self.vals, m, side="left")  # vals[i-1] < m <= vals[i]
        i = np.minimum(i, len(self.vals) - 1)
        lo = np.maximum(i - 1, 0)
        exact = self.vals[i] == m
        mid = (self.vals[lo] + self.vals[i]) / 2.0  # exact in float64
        clo, chi = self.codes[lo], self.codes[i]
        even = np.where(clo % 2 == 0, clo, chi)
        code = np.where(exact, chi, np.where(m < mid, clo, np.where(m > mid, chi, even)))
        overflow = over | (code > self.max_code)
        if saturate:
            assert not np.any(overflow)
        # the sign: FNUZ has no -0
        signed = code | (sign << self.sign_shift)
        if self.kind == "fnuz":
            signed = np.where(code == 0, 0, signed)
        if self.kind in ("fn", "ieee"):
            nan_code = 0x7F | (sign << 7)
        elif self.kind == "fnuz":
            nan_code = np.full(v.shape, 0x80)
        else:
            nan_code = np.full(v.shape, 0x7)
        if self.kind == "fn":
            ovf_code = 0x7F | (sign << 7)
        elif self.kind == "fnuz":
            ovf_code = np.full(v.shape, 0x80)
        elif self.kind == "ieee":
            ovf_code = 0x7C | (sign << 7)
        else:
            ovf_code = signed
        out = np.where(nan, nan_code, np.where(overflow, ovf_code, signed))
        return out.astype(np.uint8)


_ROUNDERS = {}


def round_small(v, name, saturate=True):
    if name not in _ROUNDERS:
        _ROUNDERS[name] = SmallRounder(name)
    return _ROUNDERS[name](v, saturate)


def encode(v, t, saturate=True):
    """Stored values of type t nearest to float64 v (any float type)."""
    if t in SMALL:
        return round_small(v, t, saturate)
    return round_to(v, t)


# ---------------------------------------------------------------------------
# The operators
# ---------------------------------------------------------------------------

def division_type(scale_t, precision=None):
    if precision:
        return precision
    if scale_t == E8M0:
        return "f32"
    if scale_t == "i32":
        return "f64"
    return scale_t


def quantize_linear(x, xt, scale, st, zp=None, yt="u8", axis=None, block_size=0, saturate=True,
                    precision=None):
    """QuantizeLinear for every x/scale/y type combination (see the module doc)."""
    x, scale = np.asarray(x), np.asarray(scale)
    D = division_type(st, precision)
    xd = in_type(decode(x, xt), D)
    sd = iref.broadcast_param(in_type(decode(scale, st), D), x.shape, axis, block_size)
    q = op_in(D, np.divide, xd, sd)
    q = np.broadcast_to(q, x.shape)
    if yt in FLOAT8:
        return round_small(q, yt, saturate).reshape(x.shape)  # zero point ignored
    if yt == FLOAT4:
        if zp is not None:
            zd = iref.broadcast_param(in_type(decode(zp, FLOAT4), D), x.shape, axis, block_size)
            q = op_in(D, np.add, q, zd)
        return round_small(q, FLOAT4, True).reshape(x.shape)
    if yt in iref.QTYPES:
        zp_b = 0 if zp is None else iref.broadcast_param(np.asarray(zp).astype(np.int64), x.shape, axis,
                                                         block_size)
        with np.errstate(all="ignore"):
            return iref._saturate_round(q, zp_b, yt).reshape(x.shape)
    raise ValueError("quantize_linear: output type %r" % (yt,))


def dequantize_linear(x, xt, scale, st, zp=None, axis=None, block_size=0, yt=None):
    """DequantizeLinear: y = T(f32(x - zp) * f32(scale))."""
    x, scale = np.asarray(x), np.asarray(scale)
    if yt is None:
        assert st in WIDE, "an e8m0 scale needs the output type"
        yt = st
    with np.errstate(all="ignore"):
        if xt in SMALL:
            d = decode(x, xt).astype(np.float32)  # exact
            if xt == FLOAT4 and zp is not None:
                z = iref.broadcast_param(decode(zp, xt).astype(np.float32), x.shape, axis, block_size)
                d = np.subtract(d, z, dtype=np.float32)  # exact (float4 values)
        elif xt == "i32":
            d = x.astype(np.float64).astype(np.float32)
            if zp is not None:
                z = iref.broadcast_param(np.asarray(zp).astype(np.float64).astype(np.float32), x.shape,
                                         axis, block_size)
                d = np.subtract(d, z, dtype=np.float32)
        else:
            diff = x.astype(np.int64)
            if zp is not None:
                diff = diff - iref.broadcast_param(np.asarray(zp).astype(np.int64), x.shape, axis, block_size)
            d = np.asarray(diff).astype(np.float64).astype(np.float32)  # exact (< 2^17)
        s = iref.broadcast_param(decode(scale, st).astype(np.float32), x.shape, axis, block_size)
        y32 = np.multiply(d, s, dtype=np.float32)
    y32 = np.broadcast_to(y32, x.shape)
    return round_to(y32.astype(np.float64), yt).reshape(x.shape)


def _frame(p, role):
    """qops_ref's parameter frames: one element -> scalar; 1-D a -> [M, 1]."""
    p = np.asarray(p)
    if p.size == 1:
        return p.reshape(())
    if role == "a" and p.ndim == 1:
        return p.reshape(-1, 1)
    return p


def qlinear_matmul(a, at, a_scale, a_zp, b, bt, b_scale, b_zp, y_scale, y_zp, yt, st):
    """QLinearMatMul with float8 operands and/or output (module doc)."""
    a, b = np.asarray(a), np.asarray(b)
    assert at in FLOAT8 or bt in FLOAT8 or yt in FLOAT8
    assert st in WIDE
    a_vec, b_vec = a.ndim == 1, b.ndim == 1
    A = decode(a.reshape(1, -1) if a_vec else a, at)
    B = decode(b.reshape(-1, 1) if b_vec else b, bt)
    da = A - _frame(decode(a_zp, at), "a")
    db = B - _frame(decode(b_zp, bt), "b")
    k = A.shape[-1]
    assert B.shape[-2] == k
    shape = np.broadcast_shapes(da.shape[:-2], db.shape[:-2]) + (da.shape[-2], db.shape[-1])
    acc = np.zeros(shape, np.float64)
    with np.errstate(all="ignore"):
        for kk in range(k):  # sequential sum in increasing k, one rounding per step
            acc = acc + da[..., :, kk:kk + 1] * db[..., kk:kk + 1, :]
        mult = op_in(st, np.multiply, _frame(decode(a_scale, st), "a"), _frame(decode(b_scale, st), "b"))
        mult = op_in(st, np.divide, mult, _frame(decode(y_scale, st), "y"))
        prod = acc * mult
        if yt in FLOAT8:
            y = round_small(prod + _frame(decode(y_zp, yt), "y"), yt, True)
        else:
            y = iref._saturate_round(prod, _frame(np.asarray(y_zp).astype(np.int64), "y"), yt)
    y = np.broadcast_to(y, shape)
    if b_vec:
        y = y[..., 0]
    if a_vec:
        y = y[..., 0, :] if not b_vec else y[..., 0]
    return np.array(y, order="C")


# ---------------------------------------------------------------------------
# Self test
# ---------------------------------------------------------------------------

def _round_fraction(value, p, emin):
    """Nearest value (ties to even) to a Fraction with p significant bits and
    minimum normal exponent emin (unbounded above)."""
    if value == 0:
        return Fraction(0)
    s = -1 if value < 0 else 1
    a = abs(value)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, emin)
    ulp = Fraction(2) ** (e - p + 1)
    q = a / ulp
    n = q.numerator // q.denominator
    r = q - n
    if r > Fraction(1, 2) or (r == Fraction(1, 2) and n % 2 == 1):
        n += 1
    return s * n * ulp


def _check_wide_rounding(fail, rng):
    """round_to(f64 -> bf16 / f16) against exact rational rounding."""
    vals = []
    for t, p, emin, emax in (("bf16", 8, -126, 127), ("f16", 11, -14, 15)):
        vals = list(rng.standard_normal(300) * 10.0 ** rng.integers(-45, 39, 300))
        # exact ties and neighbours: (k + 1/2) ulp at random exponents, +- a little
        for _ in range(300):
            e = int(rng.integers(emin - p - 2, emax + 1))
            ee = max(e, emin)
            k = int(rng.integers(0, 2 ** p))
            base = (2 ** (p - 1) + k % 2 ** (p - 1)) if e >= emin else k % 2 ** (p - 1)
            tie = (base + 0.5) * 2.0 ** (ee - p + 1)
            for d in (0.0, 2.0 ** -60, -(2.0 ** -60)):
                vals.append((tie + d * tie) if tie else d)
                vals.append(-(tie + d * tie))
        top = (2 - 2.0 ** (1 - p)) * 2.0 ** emax
        half = 2.0 ** (emax - p)
        vals += [top, top + half, top + half * (1 - 2.0 ** -40), top + 2 * half, 0.0, -0.0, 5e-324,
                 2.0 ** (emin - p), 2.0 ** (emin - p) * (1 + 2.0 ** -30), 3 * 2.0 ** (emin - p)]
        v = np.array(vals, np.float64)
        got = decode(round_to(v, t), t)
        for x, g in zip(v.tolist(), got.tolist()):
            want = _round_fraction(Fraction(x), p, emin)
            if abs(want) > Fraction(top):
                want = float("inf") if x > 0 else float("-inf")
            else:
                want = float(want)
                if want == 0 and np.signbit(x):
                    want = -0.0
            if not (g == want and np.signbit(g) == np.signbit(want)):
                fail("round %s %r: got %r want %r" % (t, x, g, want))
                break


def _check_small_rounding(fail, rng):
    """round_small against float_formats_ref (exact rationals)."""
    for name in SMALL:
        fmt = ffr.get_format(name)
        pts = list(fmt.values) + [(lo + hi) / 2 for lo, hi in zip(fmt.values, fmt.values[1:])]
        pts += [2 * fmt.next_value, fmt.values[1] / 4, fmt.values[1] * 3 / 4]
        bits = set()
        for p in pts:
            for n in ffr.neighbours(ffr.encode_f32(0, p)):
                bits.add(n & 0x7FFFFFFF)
                bits.add((n & 0x7FFFFFFF) | 0x80000000)
        bits.update([0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F7FFFFF, 0xFF7FFFFF, 1, 0x80000001])
        bits.update(rng.integers(0, 1 << 32, 500, dtype=np.uint64).astype(np.uint32).tolist())
        barr = np.array(sorted(bits), np.uint32)
        with np.errstate(invalid="ignore"):
            v = barr.view(np.float32).astype(np.float64)
        for sat in (False, True):
            got = round_small(v, name, sat)
            want = np.array([ffr.trunc(name, int(b), sat) for b in barr.tolist()], np.uint8)
            bad = np.nonzero(got != want)[0]
            if len(bad):
                i = bad[0]
                fail("round_small %s sat=%d x=0x%08x: got 0x%02x want 0x%02x"
                     % (name, sat, barr[i], got[i], want[i]))
        # float64 inputs between f32 values (QLinearMatMul rounds once from f64)
        x = rng.uniform(-1, 1, 400) * 2.0 ** rng.integers(-20, 18, 400)
        mids = np.array([float((lo + hi) / 2) for lo, hi in zip(fmt.values, fmt.values[1:])])
        sel = mids[rng.integers(0, len(mids), 200)]
        x = np.concatenate([x, sel * (1 + 2.0 ** -45), sel * (1 - 2.0 ** -45), -sel * (1 + 2.0 ** -45)])
        for sat in (False, True):
            got = round_small(x, name, sat)
            for xv, g in zip(x.tolist(), got.tolist()):
                sign, val = (1 if xv < 0 else 0), abs(Fraction(xv))
                if sat or fmt.kind == "none":
                    val = min(val, fmt.max_value)
                code = fmt.round_magnitude(val)
                if code is None or code > fmt.max_code:
                    want = fmt.overflow_code(sign)
                else:
                    want = fmt.with_sign(sign, code)
                if g != want:
                    fail("round_small f64 %s sat=%d x=%r: got 0x%02x want 0x%02x" % (name, sat, xv, g, want))
                    break


def _onnx_float_node_tests(fail, verbose):
    d = iref._find_onnx_dir()
    if d is None:
        print("note: ONNX node tests not found; skipped")
        return
    names = {17: "f8E4M3FN", 18: "f8E4M3FNUZ", 19: "f8E5M2", 20: "f8E5M2FNUZ", 23: FLOAT4, 1: "f32", 10: "f16"}
    count = 0
    for sub in sorted(os.listdir(d)):
        if not any(k in sub for k in ("e4m3", "e5m2", "float4")):
            continue
        with open(os.path.join(d, sub, "model.onnx"), "rb") as fh:
            op, attrs = iref.decode_node_attrs(fh.read())
        ds = os.path.join(d, sub, "test_data_set_0")
        tensors = {}
        for f in sorted(os.listdir(ds)):
            with open(os.path.join(ds, f), "rb") as fh:
                fields = list(iref.pb_fields(fh.read()))
            dims = iref._varints(fields, 1)
            dt = iref._varints(fields, 2)[0]
            i32 = iref._varints(fields, 5)
            raw = b"".join(v for fn, wt, v in fields if fn == 9)
            count_el = int(np.prod(dims)) if dims else 1
            t = names[dt]
            if t == FLOAT4:
                arr = iref.unpack_subbyte(bytes(np.array(i32, np.int64).astype(np.uint8)), count_el, 4, False)
            elif t in FLOAT8:
                arr = np.array(i32, np.int64).astype(np.uint8)
            else:
                arr = np.frombuffer(raw, dtype=np.dtype(STORAGE[t]).newbyteorder("<")).astype(STORAGE[t])
            tensors[f[:-3]] = (t, arr.reshape(dims))
        ins = [tensors["input_%d" % i] for i in range(3) if "input_%d" % i in tensors]
        yt, want = tensors["output_0"]
        axis = attrs.get("axis", 1)
        if op == "QuantizeLinear":
            got = quantize_linear(ins[0][1], ins[0][0], ins[1][1], ins[1][0],
                                  ins[2][1] if len(ins) > 2 else None, yt, axis=axis)
        else:
            got = dequantize_linear(ins[0][1], ins[0][0], ins[1][1], ins[1][0],
                                    ins[2][1] if len(ins) > 2 else None, axis=axis)
        count += 1
        if not np.array_equal(got.view(np.uint8) if got.dtype == np.uint8 else got, want):
            fail("node %s: got %s want %s" % (sub, got.tolist(), want.tolist()))
        elif verbose:
            print("ok   node %s" % sub)
    if count != 8:
        fail("expected 8 float8/float4 node tests, found %d" % count)


def _hand_examples(fail):
    A = np.array
    u8 = np.uint8

    def eq(name, got, want):
        got, want = np.asarray(got), np.asarray(want)
        ok = got.shape == want.shape and (np.array_equal(got, want, equal_nan=True)
                                          if got.dtype.kind == "f" else np.array_equal(got, want))
        if not ok:
            fail("%s: got %s want %s" % (name, got.tolist(), want.tolist()))

    one = A(1.0, np.float32)
    # SPEC.md float8 rules, hand derived
    x = A([465.0, 464.0, -465.0, np.inf, -np.inf, np.nan, -0.0, 2.0 ** -10, -(2.0 ** -10)], np.float32)
    eq("e4m3fn sat1", quantize_linear(x, "f32", one, "f32", yt="f8E4M3FN"),
       A([0x7E, 0x7E, 0xFE, 0x7E, 0xFE, 0x7F, 0x80, 0x00, 0x80], u8))
    eq("e4m3fn sat0", quantize_linear(x, "f32", one, "f32", yt="f8E4M3FN", saturate=False),
       A([0x7F, 0x7E, 0xFF, 0x7F, 0xFF, 0x7F, 0x80, 0x00, 0x80], u8))
    eq("e4m3fnuz sat0", quantize_linear(x, "f32", one, "f32", yt="f8E4M3FNUZ", saturate=False),
       A([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x01, 0x81], u8))  # FNUZ min subnormal 2^-10
    eq("e5m2 sat0", quantize_linear(A([61440.0, 61439.0, -np.inf], np.float32), "f32", one, "f32",
                                    yt="f8E5M2", saturate=False), A([0x7C, 0x7B, 0xFC], u8))
    # float4: -0 + (+0) = +0; without a zero point -0 stays 0x8; NaN -> 0x7
    x4 = A([-0.0, -0.1, 5.0, 5.1, np.nan, -np.inf], np.float32)
    eq("f4 no zp", quantize_linear(x4, "f32", one, "f32", yt=FLOAT4), A([0x8, 0x8, 0x6, 0x7, 0x7, 0xF], u8))
    eq("f4 zp +0", quantize_linear(x4, "f32", one, "f32", zp=A(0, u8), yt=FLOAT4),
       A([0x0, 0x8, 0x6, 0x7, 0x7, 0xF], u8))
    eq("f4 zp 1.5", quantize_linear(x4, "f32", one, "f32", zp=A(0x3, u8), yt=FLOAT4),  # +1.5
       A([0x3, 0x3, 0x7, 0x7, 0x7, 0xF], u8))
    # precision bf16: x = 1 + 2^-4 + 2^-9 is 1 + 2^-4 in bf16 (a quarter ulp dropped), an e4m3 tie
    # -> even -> 1.0; divided in f32 it is just above the tie -> 1.125
    xb = A([1 + 2.0 ** -4 + 2.0 ** -9], np.float32)
    for prec, want in (("bf16", 1.0), ("f32", 1.125)):
        eq("precision " + prec, decode(quantize_linear(xb, "f32", A(1, np.float32), "f32", yt="f8E4M3FN",
                                                       precision=prec), "f8E4M3FN"), A([want]))
    # e8m0 scales: 0x00 = 2^-127, 0xFE = 2^127, 0xFF NaN
    s = A([0x00, 0xFE, 0xFF, 127], u8)
    xs = A([1.0, 2.0 ** 120, 3.0, 448.0], np.float32)
    eq("e8m0 q fnuz", quantize_linear(xs, "f32", s, E8M0, yt="f8E4M3FNUZ", axis=0),
       A([0x7F, 0x08, 0x80, 0x7F], u8))  # 2^127 saturates, 2^-7 (min normal), NaN, 448 -> 240
    eq("e8m0 q i8", quantize_linear(xs, "f32", s, E8M0, zp=A([1, 2, 3, 4], np.int8), yt="i8", axis=0),
       A([127, 2, 3, 127], np.int8))
    eq("e8m0 dq", dequantize_linear(A([0x38, 0x38, 0x38, 0x7E], u8), "f8E4M3FN", s, E8M0, axis=0, yt="f32"),
       A([2.0 ** -127, 2.0 ** 127, np.nan, 448.0], np.float32))
    eq("dq bf16", dequantize_linear(A([0x7E], u8), "f8E4M3FN", A(0x3E9A, np.uint16), "bf16"),  # 448*0.30078125
       A([0x4307], np.uint16))  # 134.75 -> bf16 134 (0x4306) or 135 (0x4307)? 134.75 -> 135
    # QLinearMatMul: the sum is sequential (big + tiny - big = 0), then + y_zp
    a = A([[0x7B, 0x01, 0xFB]], u8)  # E5M2: 57344, 2^-16, -57344
    b = A([[0x7B], [0x01], [0x7B]], u8)
    f = np.float32
    y = qlinear_matmul(a, "f8E5M2", A(2.0 ** 16, f), A(0, u8), b, "f8E5M2", A(2.0 ** 16, f), A(0, u8),
                       A(1.0, f), A(0x38, u8), "f8E4M3FN", "f32")
    eq("qmm sum order", y, A([[0x38]], u8))  # 0 * 2^32 + 1 -> 1.0 (not 2.0)


def selftest(verbose=True):
    failures = []

    def fail(msg):
        failures.append(msg)
        print("FAIL " + msg)

    rng = np.random.default_rng(20250501)
    _check_wide_rounding(fail, rng)
    _check_small_rounding(fail, rng)
    # the integer forms agree with qops_ref
    for t, dt in (("f32", np.float32), ("f16", np.float16)):
        x = (rng.standard_normal(500) * 100).astype(dt)
        x[:4] = [np.nan, np.inf, -np.inf, -0.0]
        s = np.array(0.37, dt)
        for q in ("u8", "i4", "i16"):
            zp = np.array(3, iref.QTYPES[q][2])
            w = iref.quantize_linear(x, s, zp, out_dtype=q)
            g = quantize_linear(x, t, s, t, zp, q)
            if not np.array_equal(w, g):
                fail("integer quantize %s %s disagrees with qops_ref" % (t, q))
            xi = rng.integers(iref.QTYPES[q][0], iref.QTYPES[q][1] + 1, 50).astype(iref.QTYPES[q][2])
            w = iref.dequantize_linear(xi, s, zp)
            g = dequantize_linear(xi, q, s, t, zp)
            if not np.array_equal(w, g):
                fail("integer dequantize %s %s disagrees with qops_ref" % (t, q))
    _hand_examples(fail)
    _onnx_float_node_tests(fail, verbose)
    print("selftest: %s" % ("PASSED" if not failures else "%d FAILED" % len(failures)))
    return not failures


if __name__ == "__main__":
    if "--selftest" in sys.argv:
        sys.exit(0 if selftest("-q" not in sys.argv) else 1)
    print(__doc__)
