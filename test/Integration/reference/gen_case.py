#!/usr/bin/env python3
"""Case generator for the qops integration tests.

    python3 gen_case.py CASE OUTDIR      writes OUTDIR/in0.npy, in1.npy, ... and
                                         OUTDIR/out0.npy, ... for the named case
    python3 gen_case.py --list           lists the cases (family and name)

Inputs come from fixed seeds (one per case name); expected outputs come from
the NumPy reference qops_ref.py, never from the compiler. Each case also knows
the qops IR of the function that the lit test runs on it (see make_lit.py,
which writes test/Integration/*.mlir from these definitions).

NPY dtypes (what quant-runner expects): u8 |u1, i8 |i1, u16 <u2, i16 <i2,
i32 <i4, f32 <f4, f16 <f2; 4-bit and 2-bit integers one element per byte
(|i1 signed, |u1 unsigned) with values in range.
"""

import os
import sys
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qops_ref as ref  # noqa: E402

NPY_DTYPE = {"u8": "|u1", "i8": "|i1", "u16": "<u2", "i16": "<i2", "u4": "|u1", "i4": "|i1",
             "u2": "|u1", "i2": "|i1", "i32": "<i4", "f32": "<f4", "f16": "<f2"}
IR_NAME = {"u8": "ui8", "i8": "si8", "u16": "ui16", "i16": "si16", "u4": "ui4", "i4": "si4",
           "u2": "ui2", "i2": "si2", "i32": "i32", "f32": "f32", "f16": "f16"}
f32, f16 = np.float32, np.float16


def et_of(arr):
    """Element type name of a float/int32 array."""
    return {np.dtype(f32): "f32", np.dtype(f16): "f16", np.dtype(np.int32): "i32"}[np.asarray(arr).dtype]


class Tensor:
    def __init__(self, arr, et):
        arr = np.asarray(arr)
        if et in ref.QTYPES:
            lo, hi, _ = ref.QTYPES[et]
            assert arr.size == 0 or (arr.min() >= lo and arr.max() <= hi), "values out of range for " + et
        self.arr = np.array(arr.astype(np.dtype(NPY_DTYPE[et])), order="C")  # keeps rank 0
        self.et = et

    def ir(self, dyn=False, keep=()):
        dims = ["?" if dyn and i not in keep else str(d) for i, d in enumerate(self.arr.shape)]
        return "tensor<" + "x".join(dims + [IR_NAME[self.et]]) + ">"


class Case:
    """One test function: op kind, typed inputs and outputs, attributes."""

    def __init__(self, op, ins, outs, attrs=(), dyn=False, keep=()):
        self.op, self.ins, self.outs = op, ins, outs
        self.attrs = list(attrs)  # [(name, text)], in the printer's order
        self.dyn, self.keep = dyn, tuple(keep)

    def types(self, tensors):
        return [t.ir(self.dyn, self.keep) for t in tensors]

    def mlir(self, name):
        ti, to = self.types(self.ins), self.types(self.outs)
        args = ", ".join("%%arg%d: %s" % (i, t) for i, t in enumerate(ti))
        res = to[0] if len(to) == 1 else "(" + ", ".join(to) + ")"
        attrs = "".join(" %s = %s" % kv for kv in self.attrs)
        a = ["%%arg%d" % i for i in range(len(ti))]
        if self.op in ("quantize", "dequantize"):
            opname = "qops.quantize_linear" if self.op == "quantize" else "qops.dequantize_linear"
            body = "  %%0 = %s %s%s : %s -> %s\n  return %%0 : %s\n" % (
                opname, ", ".join(a), attrs, ", ".join(ti), to[0], to[0])
        elif self.op == "dynamic":
            body = ("  %%y, %%s, %%zp = qops.dynamic_quantize_linear %%arg0 : %s -> %s\n"
                    "  return %%y, %%s, %%zp : %s\n") % (ti[0], ", ".join(to), ", ".join(to))
        elif self.op == "qmatmul":
            body = ("  %%0 = qops.qlinear_matmul a(%s : %s)\n"
                    "                          b(%s : %s)\n"
                    "                          y(%s : %s) -> %s\n"
                    "  return %%0 : %s\n") % (
                ", ".join(a[0:3]), ", ".join(ti[0:3]), ", ".join(a[3:6]), ", ".join(ti[3:6]),
                ", ".join(a[6:8]), ", ".join(ti[6:8]), to[0], to[0])
        else:
            raise ValueError(self.op)
        return "func.func @%s(%s) -> %s {\n%s}\n" % (name, args, res, body)

    def write(self, outdir):
        os.makedirs(outdir, exist_ok=True)
        for prefix, lst in (("in", self.ins), ("out", self.outs)):
            for i, t in enumerate(lst):
                np.save(os.path.join(outdir, "%s%d.npy" % (prefix, i)), t.arr, allow_pickle=False)


# ---------------------------------------------------------------------------
# builders: compute the expected outputs with the reference
# ---------------------------------------------------------------------------

def Q(x, s, zp=None, qtype=None, axis=None, block_size=0, precision=None, out_attr=None, dyn=False):
    """QuantizeLinear case. qtype is the output type; with no zero point the
    output_dtype attribute is written unless out_attr is False (default u8)."""
    x, s = np.asarray(x), np.asarray(s)
    if qtype is None:
        qtype = "u8"
    y = ref.quantize_linear(x, s, zp, axis=axis, block_size=block_size, out_dtype=qtype, precision=precision)
    ins = [Tensor(x, et_of(x)), Tensor(s, et_of(s))]
    if zp is not None:
        ins.append(Tensor(zp, qtype))
    attrs = []
    if axis is not None:
        attrs.append(("axis", str(axis)))
    if block_size:
        attrs.append(("block_size", str(block_size)))
    if zp is None and out_attr is not False:
        attrs.append(("output_dtype", IR_NAME[qtype]))
    if precision:
        attrs.append(("precision", precision))
    keep = (ref._norm_axis(axis, x.ndim),) if block_size else ()
    return Case("quantize", ins, [Tensor(y, qtype)], attrs, dyn, keep)


def DQ(x, xtype, s, zp=None, axis=None, block_size=0, out_dtype=None, dyn=False):
    s = np.asarray(s)
    y = ref.dequantize_linear(x, s, zp, axis=axis, block_size=block_size, out_dtype=out_dtype)
    ins = [Tensor(x, xtype), Tensor(s, et_of(s))]
    if zp is not None:
        ins.append(Tensor(zp, xtype))
    attrs = []
    if axis is not None:
        attrs.append(("axis", str(axis)))
    if block_size:
        attrs.append(("block_size", str(block_size)))
    if out_dtype:
        attrs.append(("output_dtype", out_dtype))
    keep = (ref._norm_axis(axis, np.ndim(x)),) if block_size else ()
    return Case("dequantize", ins, [Tensor(y, et_of(y))], attrs, dyn, keep)


def DYN(x, dyn=False):
    x = np.asarray(x, dtype=f32)
    y, s, zp = ref.dynamic_quantize_linear(x)
    return Case("dynamic", [Tensor(x, "f32")], [Tensor(y, "u8"), Tensor(s, "f32"), Tensor(zp, "u8")], dyn=dyn)


def QMM(a, at, as_, azp, b, bt, bs, bzp, ys, yzp, yt, dyn=False):
    npt = {"u8": np.uint8, "i8": np.int8}
    a, b = np.asarray(a).astype(npt[at]), np.asarray(b).astype(npt[bt])
    azp, bzp, yzp = (np.asarray(azp).astype(npt[at]), np.asarray(bzp).astype(npt[bt]),
                     np.asarray(yzp).astype(npt[yt]))
    y = ref.qlinear_matmul(a, as_, azp, b, bs, bzp, ys, yzp)
    ins = [Tensor(a, at), Tensor(as_, et_of(as_)), Tensor(azp, at),
           Tensor(b, bt), Tensor(bs, et_of(bs)), Tensor(bzp, bt),
           Tensor(ys, et_of(ys)), Tensor(yzp, yt)]
    return Case("qmatmul", ins, [Tensor(y, yt)], dyn=dyn)


# ---------------------------------------------------------------------------
# data helpers
# ---------------------------------------------------------------------------

def rng_for(name):
    return np.random.default_rng(zlib.crc32(name.encode()))


def scales(rng, shape, dt=f32):
    """Mix of powers of two (exact ties) and arbitrary values."""
    pw = 2.0 ** rng.integers(-5, 3, size=shape)
    ar = rng.uniform(0.01, 3.0, size=shape)
    return np.where(rng.random(shape) < 0.5, pw, ar).astype(dt)


def zps(rng, shape, qtype):
    lo, hi, _ = ref.QTYPES[qtype]
    return rng.integers(lo, hi + 1, size=shape).astype(np.int64)


def qdata(rng, shape, s_b, zp_b, qtype, xdt=f32, over=None, tie_frac=0.15):
    """x such that x/scale + zp spans the output range (a bit beyond, for
    saturation), with a fraction of exact .5 quotients where the scale allows."""
    lo, hi, _ = ref.QTYPES[qtype]
    if over is None:
        over = min(6.0, 0.15 * (hi - lo + 1))
    lo_t = lo - np.asarray(zp_b, dtype=np.float64) - over
    hi_t = hi - np.asarray(zp_b, dtype=np.float64) + over
    u = rng.random(shape)
    t = lo_t + u * (hi_t - lo_t)
    ties = rng.random(shape) < tie_frac
    t = np.where(ties, np.floor(t) + 0.5, t)
    x = t * np.asarray(s_b, dtype=np.float64)
    if np.dtype(xdt) == np.int32:
        return np.clip(np.rint(x), -2 ** 31, 2 ** 31 - 1).astype(np.int32)
    return x.astype(xdt)


def qcase(name, shape, qtype, axis=None, block_size=0, zp=True, xdt=f32, sdt=f32, precision=None,
          per_tensor_shape=(), dyn=False, out_attr=None):
    """Random QuantizeLinear case of the given granularity."""
    rng = rng_for(name)
    if block_size:
        ax = ref._norm_axis(axis, len(shape))
        pshape = list(shape)
        pshape[ax] = -(-shape[ax] // block_size)
        pshape = tuple(pshape)
    elif axis is not None:
        pshape = (shape[ref._norm_axis(axis, len(shape))],)
    else:
        pshape = per_tensor_shape
    s = scales(rng, pshape, sdt)
    if np.dtype(xdt) == np.int32:
        s = (s * 64).astype(sdt)  # integer inputs want larger scales
    z = zps(rng, pshape, qtype) if zp else None
    s_b = ref.broadcast_param(s.astype(f32), shape, axis, block_size)
    z_b = ref.broadcast_param(z, shape, axis, block_size) if zp else 0
    x = qdata(rng, shape, s_b, z_b, qtype, xdt)
    zarr = None if z is None else z.astype(ref.QTYPES[qtype][2])
    return Q(x, s, zarr, qtype, axis, block_size, precision, out_attr=out_attr, dyn=dyn)


def alt_differs(case, other):
    """Assert that a case's expected output differs from an alternative
    computation somewhere (so the test discriminates the two semantics)."""
    assert not np.array_equal(case.outs[0].arr, np.asarray(other)), "case does not discriminate"
    return case


def dqcase(name, shape, xtype, axis=None, block_size=0, zp=True, sdt=f32, out_dtype=None, dyn=False,
           per_tensor_shape=()):
    rng = rng_for(name)
    if xtype == "i32":
        x = rng.integers(-2 ** 31, 2 ** 31, size=shape, dtype=np.int64).astype(np.int32)
    else:
        lo, hi, npdt = ref.QTYPES[xtype]
        x = rng.integers(lo, hi + 1, size=shape).astype(npdt)
    if block_size:
        ax = ref._norm_axis(axis, len(shape))
        pshape = list(shape)
        pshape[ax] = -(-shape[ax] // block_size)
        pshape = tuple(pshape)
    elif axis is not None:
        pshape = (shape[ref._norm_axis(axis, len(shape))],)
    else:
        pshape = per_tensor_shape
    s = scales(rng, pshape, sdt)
    z = None
    if zp:
        if xtype == "i32":
            z = np.zeros(pshape, np.int32)
        else:
            z = zps(rng, pshape, xtype).astype(ref.QTYPES[xtype][2])
    return DQ(x, xtype, s, z, axis, block_size, out_dtype, dyn)


def qmm_rand(name, at, bt, yt, ashape, bshape, a_par=(), b_par=(), y_par=(), sdt=f32, dyn=False, yshrink=1.0):
    """Random QLinearMatMul; *_par are the parameter shapes. y_scale and
    y_zero_point are fitted to the data so that the outputs spread over the
    output range, with a few saturating."""
    rng = rng_for(name)
    lim = {"u8": (0, 255), "i8": (-128, 127)}
    a = rng.integers(lim[at][0], lim[at][1] + 1, size=ashape)
    b = rng.integers(lim[bt][0], lim[bt][1] + 1, size=bshape)
    # zero points near the middle (+-40) keep the products of mixed sign
    azp = sum(lim[at]) // 2 + rng.integers(-40, 41, size=a_par)
    bzp = sum(lim[bt]) // 2 + rng.integers(-40, 41, size=b_par)
    as_ = rng.uniform(0.002, 0.02, size=a_par).astype(sdt)
    bs = rng.uniform(0.002, 0.02, size=b_par).astype(sdt)

    def frame(p, role):  # the reference's parameter frames (see qops_ref.qlinear_matmul)
        p = np.asarray(p, dtype=np.float64)
        if p.size == 1:
            return p.reshape(())
        return p.reshape(-1, 1) if role == "a" and p.ndim == 1 else p

    A = a.reshape(1, -1) if a.ndim == 1 else a
    B = b.reshape(-1, 1) if b.ndim == 1 else b
    real = np.matmul(A - frame(azp, "a"), B - frame(bzp, "b")) * frame(as_, "a") * frame(bs, "b")
    lo, hi = lim[yt]
    span = float(real.max() - real.min()) if real.size else 0.0
    base = span / (0.9 * (hi - lo)) if span > 0 else (abs(float(real.flat[0])) / 50.0 + 1e-3)
    ys = (base * yshrink * rng.uniform(0.85, 1.15, size=y_par)).astype(sdt)
    mid = float(real.max() + real.min()) / 2.0 if real.size else 0.0
    yzp = np.clip(np.rint((lo + hi) / 2.0 - mid / (base * yshrink) + rng.integers(-6, 7, size=y_par)), lo, hi)
    return QMM(a, at, as_, azp, b, bt, bs, bzp, ys, yzp, yt, dyn)


# ---------------------------------------------------------------------------
# the cases
# ---------------------------------------------------------------------------

CASES = {}  # name -> (family, builder)
QT = ["u8", "i8", "u16", "i16", "u4", "i4", "u2", "i2"]


def case(family, name=None):
    def deco(fn):
        CASES[name or fn.__name__] = (family, fn)
        return fn
    return deco


def add(family, name, fn):
    CASES[name] = (family, fn)


# ---- quantize-linear: per-tensor, each output type, with and without zp ----
_PT_SHAPES = {"u8": (6, 7), "i8": (37,), "u16": (4, 9), "i16": (50,), "u4": (33,), "i4": (2, 3, 5),
              "u2": (19,), "i2": (21,)}
for _q in QT:
    add("quantize-linear", "quantize_per_tensor_" + _q,
        lambda n, q=_q: qcase(n, _PT_SHAPES[q], q, per_tensor_shape=() if q in ("u8", "i16", "u4") else (1,)))
    add("quantize-linear", "quantize_no_zp_" + _q,
        lambda n, q=_q: qcase(n, (29,), q, zp=False))
add("quantize-linear", "quantize_no_zp_default_u8", lambda n: qcase(n, (3, 11), "u8", zp=False, out_attr=False))
add("quantize-linear", "quantize_scalar_x", lambda n: Q(np.array(-3.5, f32), np.array(0.5, f32), np.array(3, np.int8), "i8"))

# ---- x / scale types, precision ----
add("quantize-linear", "quantize_x_f16_scale_f32_u8", lambda n: qcase(n, (40,), "u8", xdt=f16))
add("quantize-linear", "quantize_x_f16_scale_f16_i8", lambda n: qcase(n, (40,), "i8", xdt=f16, sdt=f16))
add("quantize-linear", "quantize_x_i32_scale_f32_i16", lambda n: qcase(n, (45,), "i16", xdt=np.int32))
add("quantize-linear", "quantize_x_i32_scale_f32_per_axis_i8",
    lambda n: qcase(n, (4, 9), "i8", axis=1, xdt=np.int32))


@case("quantize-linear")
def quantize_x_f32_scale_f16_i16(n):
    # division in f16: x is rounded to f16 first, the quotient is an f16
    rng = rng_for(n)
    s = np.array(0.75, f16)
    x = rng.uniform(-30000, 30000, size=64).astype(f32)
    c = Q(x, s, np.array(-5, np.int16), "i16")
    return alt_differs(c, ref.quantize_linear(x, s.astype(f32), np.array(-5, np.int16), out_dtype="i16"))


@case("quantize-linear")
def quantize_x_f32_scale_f16_per_axis_u8(n):
    rng = rng_for(n)
    s = np.array([0.1, 0.3, 1.7, 0.01], f16)
    x = (rng.uniform(-140, 140, size=(5, 4)) * s.astype(np.float64)).astype(f32)
    x[0] = [12.345, 33.33, 101.1, 0.77]
    zp = np.array([128, 100, 0, 255], np.uint8)
    c = Q(x, s, zp, "u8", axis=-1)
    return alt_differs(c, ref.quantize_linear(x, s.astype(f32), zp, axis=-1))


@case("quantize-linear")
def quantize_x_i32_scale_f16_u16(n):
    rng = rng_for(n)
    x = rng.integers(-5000, 100000, size=50).astype(np.int32)  # > 65519 is inf in f16
    x[:6] = [2 ** 31 - 1, -2 ** 31, 65519, 65520, 2049, -2049]
    s = np.array(3.0, f16)
    c = Q(x, s, np.array(1000, np.uint16), "u16")
    return alt_differs(c, ref.quantize_linear(x, s.astype(f32), np.array(1000, np.uint16)))


@case("quantize-linear")
def quantize_precision_f32_scale_f16_i16(n):
    # precision = f32 with an f16 scale: x stays f32, the scale widens exactly
    rng = rng_for(n)
    s = np.array(0.75, f16)
    x = rng.uniform(-20000, 20000, size=64).astype(f32)
    c = Q(x, s, np.array(7, np.int16), "i16", precision="f32")
    return alt_differs(c, ref.quantize_linear(x, s, np.array(7, np.int16), out_dtype="i16"))


@case("quantize-linear")
def quantize_precision_f32_x_f16_scale_f16_u8(n):
    rng = rng_for(n)
    s = np.array([0.0999, 0.333, 2.5], f16)
    x = (rng.uniform(-120, 120, size=(6, 3)) * s.astype(np.float64)).astype(f16)
    zp = np.array([128, 3, 250], np.uint8)
    c = Q(x, s, zp, "u8", axis=1, precision="f32")
    return c


@case("quantize-linear")
def quantize_precision_f16_scale_f32_i8(n):
    rng = rng_for(n)
    s = np.array(0.0123, f32)
    x = rng.uniform(-1.6, 1.6, size=48).astype(f32)
    c = Q(x, s, np.array(-3, np.int8), "i8", precision="f16")
    return alt_differs(c, ref.quantize_linear(x, s, np.array(-3, np.int8)))


# ---- per-axis ----
add("quantize-linear", "quantize_per_axis_u8", lambda n: qcase(n, (2, 3, 4), "u8", axis=1))
add("quantize-linear", "quantize_per_axis_axis0_i8", lambda n: qcase(n, (5, 6), "i8", axis=0))
add("quantize-linear", "quantize_per_axis_last_u16", lambda n: qcase(n, (3, 4, 6), "u16", axis=2))
add("quantize-linear", "quantize_per_axis_neg1_i16", lambda n: qcase(n, (4, 7), "i16", axis=-1))
add("quantize-linear", "quantize_per_axis_neg3_i4", lambda n: qcase(n, (3, 5, 2), "i4", axis=-3))
add("quantize-linear", "quantize_per_axis_neg2_u4", lambda n: qcase(n, (2, 6, 3), "u4", axis=-2))
add("quantize-linear", "quantize_per_axis_last_u2", lambda n: qcase(n, (5, 4), "u2", axis=1))
add("quantize-linear", "quantize_per_axis_axis0_i2", lambda n: qcase(n, (4, 5), "i2", axis=0))
add("quantize-linear", "quantize_per_axis_no_zp_i8", lambda n: qcase(n, (3, 8), "i8", axis=1, zp=False))
add("quantize-linear", "quantize_per_axis_rank1_u8", lambda n: qcase(n, (9,), "u8", axis=0))

# ---- blocked ----
add("quantize-linear", "quantize_blocked_u8", lambda n: qcase(n, (3, 4), "u8", axis=1, block_size=2))
add("quantize-linear", "quantize_blocked_partial_i4", lambda n: qcase(n, (4, 70), "i4", axis=-1, block_size=32))
add("quantize-linear", "quantize_blocked_axis0_partial_u8", lambda n: qcase(n, (70, 3), "u8", axis=0, block_size=32))
add("quantize-linear", "quantize_blocked_rank3_i8", lambda n: qcase(n, (2, 10, 3), "i8", axis=1, block_size=4))
add("quantize-linear", "quantize_blocked_no_zp_i16", lambda n: qcase(n, (3, 5), "i16", axis=1, block_size=2, zp=False))
add("quantize-linear", "quantize_blocked_partial_u16", lambda n: qcase(n, (5, 3), "u16", axis=0, block_size=3))
add("quantize-linear", "quantize_blocked_neg2_u4", lambda n: qcase(n, (7, 4), "u4", axis=-2, block_size=3))
add("quantize-linear", "quantize_blocked_i2", lambda n: qcase(n, (2, 9), "i2", axis=1, block_size=4))
add("quantize-linear", "quantize_blocked_u2", lambda n: qcase(n, (6, 2), "u2", axis=0, block_size=4))
add("quantize-linear", "quantize_blocked_bs1_i8", lambda n: qcase(n, (3, 4), "i8", axis=1, block_size=1))
add("quantize-linear", "quantize_blocked_f16_i4",
    lambda n: qcase(n, (3, 40), "i4", axis=1, block_size=16, xdt=f16, sdt=f16))

# ---- dynamic shapes ----
add("quantize-linear", "quantize_dyn_per_tensor_u8", lambda n: qcase(n, (7, 13), "u8", dyn=True))
add("quantize-linear", "quantize_dyn_per_axis_i8", lambda n: qcase(n, (6, 5), "i8", axis=0, dyn=True))
add("quantize-linear", "quantize_dyn_rank3_i4", lambda n: qcase(n, (2, 3, 11), "i4", axis=-1, dyn=True))
add("quantize-linear", "quantize_dyn_blocked_u4", lambda n: qcase(n, (5, 64), "u4", axis=1, block_size=32, dyn=True))

# ---- large ----
add("quantize-linear", "quantize_large_1e6_u8", lambda n: qcase(n, (1000000,), "u8"))
add("quantize-linear", "quantize_large_per_axis_i4", lambda n: qcase(n, (1000, 1000), "i4", axis=1))


# ---- dequantize-linear ----
def _all_values(q, reps=1):
    lo, hi, npdt = ref.QTYPES[q]
    if hi - lo > 255:
        v = np.concatenate([np.arange(lo, lo + 40), np.arange(hi - 39, hi + 1),
                            np.linspace(lo, hi, 101).astype(np.int64)])
    else:
        v = np.arange(lo, hi + 1)
    return np.tile(v, reps).astype(npdt)


for _q in QT:
    add("dequantize-linear", "dequantize_per_tensor_" + _q,
        lambda n, q=_q: DQ(_all_values(q), q, scales(rng_for(n), ()),
                           zps(rng_for(n + "z"), (), q).astype(ref.QTYPES[q][2])))
for _q in ("u8", "i8", "u16", "i16", "u4", "i4", "u2", "i2"):
    add("dequantize-linear", "dequantize_no_zp_" + _q,
        lambda n, q=_q: dqcase(n, (3, 7), q, zp=False))


@case("dequantize-linear")
def dequantize_i32(n):
    rng = rng_for(n)
    x = rng.integers(-2 ** 31, 2 ** 31, size=60, dtype=np.int64)
    x[:10] = [2 ** 31 - 1, -2 ** 31, 16777217, -16777217, 16777219, 33554435, 0, 1, -1, 2 ** 30 + 65]
    return DQ(x.astype(np.int32), "i32", np.array(0.0001, f32))


@case("dequantize-linear")
def dequantize_i32_zp0(n):
    rng = rng_for(n)
    x = rng.integers(-2 ** 24, 2 ** 24, size=(4, 5)).astype(np.int32)
    return DQ(x, "i32", np.array([0.5, 3.0, 1e-3, 7.25, 2.0 ** -20], f32), np.zeros(5, np.int32), axis=1)


@case("dequantize-linear")
def dequantize_i32_scale_f16(n):
    rng = rng_for(n)
    x = rng.integers(-200000, 200000, size=30).astype(np.int32)
    return DQ(x, "i32", np.array(0.3, f16))


add("dequantize-linear", "dequantize_per_axis_u8", lambda n: dqcase(n, (1, 3, 3, 2), "u8", axis=1))
add("dequantize-linear", "dequantize_per_axis_neg1_i8", lambda n: dqcase(n, (4, 6), "i8", axis=-1))
add("dequantize-linear", "dequantize_per_axis_axis0_i4", lambda n: dqcase(n, (5, 4), "i4", axis=0))
add("dequantize-linear", "dequantize_per_axis_last_u16", lambda n: dqcase(n, (2, 3, 5), "u16", axis=2))
add("dequantize-linear", "dequantize_per_axis_i16", lambda n: dqcase(n, (3, 4, 2), "i16", axis=-2))
add("dequantize-linear", "dequantize_per_axis_u4", lambda n: dqcase(n, (6, 3), "u4", axis=1))
add("dequantize-linear", "dequantize_per_axis_i2", lambda n: dqcase(n, (4, 3), "i2", axis=-1))
add("dequantize-linear", "dequantize_per_axis_u2", lambda n: dqcase(n, (5, 2), "u2", axis=0))
add("dequantize-linear", "dequantize_blocked_u8", lambda n: dqcase(n, (1, 4, 3, 2), "u8", axis=1, block_size=2))
add("dequantize-linear", "dequantize_blocked_partial_i4_f16",
    lambda n: dqcase(n, (70, 4), "i4", axis=0, block_size=32, sdt=f16))
add("dequantize-linear", "dequantize_blocked_partial_i16", lambda n: dqcase(n, (3, 11), "i16", axis=-1, block_size=4))
add("dequantize-linear", "dequantize_blocked_u2", lambda n: dqcase(n, (9, 2), "u2", axis=0, block_size=4))
add("dequantize-linear", "dequantize_blocked_no_zp_i8", lambda n: dqcase(n, (2, 7), "i8", axis=1, block_size=3, zp=False))
add("dequantize-linear", "dequantize_scale_f16_i8", lambda n: dqcase(n, (40,), "i8", sdt=f16))
add("dequantize-linear", "dequantize_output_dtype_f16", lambda n: dqcase(n, (40,), "u16", out_dtype="f16"))
add("dequantize-linear", "dequantize_output_dtype_f32_scale_f16", lambda n: dqcase(n, (40,), "i16", sdt=f16, out_dtype="f32"))


@case("dequantize-linear")
def dequantize_f16_overflow(n):
    # (x - zp) * scale exceeds the f16 range: the f32 product rounds to +-inf
    x = np.array([-128, -100, 0, 50, 127, 1, -1], np.int8)
    return DQ(x, "i8", np.array(600.0, f16), np.array(-2, np.int8))


add("dequantize-linear", "dequantize_dyn_per_axis_i8", lambda n: dqcase(n, (5, 8), "i8", axis=1, dyn=True))
add("dequantize-linear", "dequantize_dyn_per_tensor_u16", lambda n: dqcase(n, (3, 4, 5), "u16", dyn=True))
add("dequantize-linear", "dequantize_dyn_blocked_u4", lambda n: dqcase(n, (3, 64), "u4", axis=1, block_size=32, dyn=True))
add("dequantize-linear", "dequantize_large_1e6_u8", lambda n: dqcase(n, (1000, 1000), "u8", axis=0))


# ---- dynamic-quantize-linear ----
@case("dynamic-quantize-linear")
def dql_random(n):
    return DYN(rng_for(n).normal(0.3, 2.0, size=1000))


@case("dynamic-quantize-linear")
def dql_all_positive(n):
    return DYN(rng_for(n).uniform(0.5, 9.0, size=37))


@case("dynamic-quantize-linear")
def dql_all_negative(n):
    return DYN(rng_for(n).uniform(-7.0, -0.1, size=41))


@case("dynamic-quantize-linear")
def dql_all_zero(n):
    return DYN(np.zeros(16))


@case("dynamic-quantize-linear")
def dql_pos_inf(n):
    x = rng_for(n).normal(0, 3, size=10)
    x[3] = np.inf
    return DYN(x)


@case("dynamic-quantize-linear")
def dql_neg_inf(n):
    x = rng_for(n).normal(0, 3, size=10)
    x[7] = -np.inf
    return DYN(x)


@case("dynamic-quantize-linear")
def dql_nan(n):
    x = rng_for(n).normal(0, 3, size=10)
    x[5] = np.nan
    return DYN(x)


@case("dynamic-quantize-linear")
def dql_empty(n):
    return DYN(np.zeros(0))


@case("dynamic-quantize-linear")
def dql_2d(n):
    return DYN(rng_for(n).normal(-1, 4, size=(17, 23)))


@case("dynamic-quantize-linear")
def dql_dyn_2d(n):
    return DYN(rng_for(n).uniform(-3, 11, size=(13, 7)), dyn=True)


@case("dynamic-quantize-linear")
def dql_single(n):
    return DYN(np.array([-2.75]))


@case("dynamic-quantize-linear")
def dql_rank0(n):
    return DYN(np.array(3.25))


@case("dynamic-quantize-linear")
def dql_range_overflow(n):
    # max - min overflows f32: scale = inf, every x/scale is 0 (zp 0)
    return DYN(np.array([3e38, -3e38, 1.0, -1.0, 0.0]))


@case("dynamic-quantize-linear")
def dql_denormal(n):
    # (max - min) / 255 underflows to 0: zp = clip(+inf) = 255, x/0 = +-inf or NaN
    return DYN(np.array([1e-45, -1e-45, 0.0, 2.8e-45, -4.2e-45], f32))


@case("dynamic-quantize-linear")
def dql_ties(n):
    # range 255 -> scale 1: x/scale ties of both parities
    return DYN(np.array([-100.0, 155.0, 0.5, 1.5, 2.5, -0.5, -1.5, -99.5, 154.5], f32))


@case("dynamic-quantize-linear")
def dql_large_1e6(n):
    return DYN(rng_for(n).normal(0.1, 1.0, size=(1000, 1000)))


# ---- qlinear-matmul ----
for _at in ("u8", "i8"):
    for _bt in ("u8", "i8"):
        for _yt in ("u8", "i8"):
            add("qlinear-matmul", "qmm_%s_%s_%s" % (_at, _bt, _yt),
                lambda n, a=_at, b=_bt, y=_yt: qmm_rand(n, a, b, y, (5, 9), (9, 6)))
add("qlinear-matmul", "qmm_per_row_a_1d", lambda n: qmm_rand(n, "u8", "i8", "u8", (4, 10), (10, 5), a_par=(4,)))
add("qlinear-matmul", "qmm_per_row_a_nd", lambda n: qmm_rand(n, "i8", "i8", "i8", (3, 4, 10), (10, 5), a_par=(3, 4, 1)))
add("qlinear-matmul", "qmm_per_col_b_1d", lambda n: qmm_rand(n, "u8", "u8", "u8", (4, 10), (10, 5), b_par=(5,)))
add("qlinear-matmul", "qmm_per_col_b_nd", lambda n: qmm_rand(n, "u8", "i8", "i8", (2, 4, 10), (2, 10, 5), b_par=(1, 1, 5)))
add("qlinear-matmul", "qmm_per_col_b_batch", lambda n: qmm_rand(n, "i8", "u8", "u8", (2, 4, 10), (2, 10, 5), b_par=(2, 1, 5)))
add("qlinear-matmul", "qmm_per_col_y_1d", lambda n: qmm_rand(n, "u8", "i8", "u8", (4, 10), (10, 5), b_par=(5,), y_par=(5,)))
add("qlinear-matmul", "qmm_per_col_y_nd", lambda n: qmm_rand(n, "i8", "i8", "u8", (4, 10), (10, 5), y_par=(1, 5)))
add("qlinear-matmul", "qmm_per_row_y", lambda n: qmm_rand(n, "u8", "i8", "i8", (4, 10), (10, 5), a_par=(4,), y_par=(4, 1)))
add("qlinear-matmul", "qmm_all_per_channel",
    lambda n: qmm_rand(n, "u8", "i8", "u8", (6, 12), (12, 7), a_par=(6,), b_par=(7,), y_par=(7,)))
add("qlinear-matmul", "qmm_batch_broadcast", lambda n: qmm_rand(n, "u8", "i8", "u8", (2, 1, 5, 7), (3, 7, 4)))
add("qlinear-matmul", "qmm_batch_b_2d", lambda n: qmm_rand(n, "i8", "u8", "i8", (4, 3, 5), (5, 6)))
add("qlinear-matmul", "qmm_batch_a_2d", lambda n: qmm_rand(n, "u8", "u8", "u8", (3, 5), (4, 5, 6)))
add("qlinear-matmul", "qmm_vec_a", lambda n: qmm_rand(n, "u8", "i8", "u8", (7,), (7, 5), b_par=(5,)))
add("qlinear-matmul", "qmm_vec_b", lambda n: qmm_rand(n, "i8", "i8", "i8", (3, 7), (7,), a_par=(3,)))
add("qlinear-matmul", "qmm_vec_vec", lambda n: qmm_rand(n, "u8", "u8", "i8", (9,), (9,)))
add("qlinear-matmul", "qmm_vec_a_batch_b", lambda n: qmm_rand(n, "i8", "u8", "u8", (7,), (2, 7, 5)))
add("qlinear-matmul", "qmm_k1", lambda n: qmm_rand(n, "u8", "i8", "u8", (6, 1), (1, 5)))
add("qlinear-matmul", "qmm_n1", lambda n: qmm_rand(n, "i8", "u8", "u8", (5, 8), (8, 1)))
add("qlinear-matmul", "qmm_odd_7x33x13", lambda n: qmm_rand(n, "u8", "i8", "i8", (7, 33), (33, 13)))


def _f16_multiplier_matters(c):
    # the multiplier is computed in f16 here: the f32 one must give other results
    args = [t.arr for t in c.ins]
    for i in (1, 4, 6):
        args[i] = args[i].astype(f32)
    return alt_differs(c, ref.qlinear_matmul(*args))


add("qlinear-matmul", "qmm_f16_scales",
    lambda n: _f16_multiplier_matters(qmm_rand(n, "u8", "i8", "u8", (5, 16), (16, 7), sdt=f16)))
add("qlinear-matmul", "qmm_f16_scales_per_channel",
    lambda n: _f16_multiplier_matters(qmm_rand(n, "i8", "i8", "i8", (5, 16), (16, 7), a_par=(5,), b_par=(7,),
                                               y_par=(7,), sdt=f16)))
add("qlinear-matmul", "qmm_saturate", lambda n: qmm_rand(n, "i8", "u8", "i8", (6, 20), (20, 9), yshrink=0.3))


@case("qlinear-matmul")
def qmm_ties(n):
    # multiplier 0.5 * 0.25 / 1 = 1/8: acc = 4 (mod 8) gives exact .5 products
    rng = rng_for(n)
    a = rng.integers(-20, 21, size=(6, 5))
    b = rng.integers(-20, 21, size=(5, 8))
    c = QMM(a, "i8", np.array(0.5, f32), 0, b, "i8", np.array(0.25, f32), 0, np.array(1.0, f32), 0, "i8")
    acc = a @ b
    assert np.sum(acc % 8 == 4) >= 5
    return c
add("qlinear-matmul", "qmm_dyn", lambda n: qmm_rand(n, "u8", "i8", "u8", (6, 19), (19, 11), b_par=(11,), dyn=True))
add("qlinear-matmul", "qmm_dyn_batch", lambda n: qmm_rand(n, "i8", "i8", "u8", (2, 3, 8), (2, 8, 4), dyn=True))
add("qlinear-matmul", "qmm_large_256x512x384", lambda n: qmm_rand(n, "u8", "i8", "u8", (256, 512), (512, 384)))


@case("qlinear-matmul")
def qmm_pairsum_trap(n):
    # u8 255 x i8 -128 pairs: a 16-bit pair sum 255*-128*2 overflows (VPMADDUBSW)
    rng = rng_for(n)
    a = np.where(rng.random((8, 64)) < 0.8, 255, rng.integers(0, 256, (8, 64)))
    b = np.where(rng.random((64, 8)) < 0.8, np.where(rng.random((64, 8)) < 0.5, -128, 127),
                 rng.integers(-128, 128, (64, 8)))
    return QMM(a, "u8", np.array(1.0, f32), 0, b, "i8", np.array(1.0, f32), 0,
               np.array(8000.0, f32), 128, "u8")


@case("qlinear-matmul")
def qmm_extreme_zp(n):
    # |a - a_zp| = |b - b_zp| = 255 everywhere reachable
    rng = rng_for(n)
    a = np.where(rng.random((5, 300)) < 0.7, 127, -128)
    b = np.where(rng.random((300, 4)) < 0.7, 0, 255)
    return QMM(a, "i8", np.array(0.5, f32), -128, b, "u8", np.array(0.25, f32), 255,
               np.array(40000.0, f32), -3, "i8")


@case("qlinear-matmul")
def qmm_acc_near_int32(n):
    # acc reaches 255*255*33000 = 2145825000 (< 2^31): needs exact 32-bit sums
    k = 33000
    a = np.full((2, k), 255)
    a[1, ::7] = 3
    b = np.full((k, 3), -128)
    b[::5, 1] = 101
    b[:, 2] = np.arange(k) % 256 - 128
    return QMM(a, "u8", np.array(1.0, f32), 0, b, "i8", np.array(1.0, f32), 127,
               np.array(2.0 ** 24, f32), 10, "i8")


# ---- edge-values ----
def _edge_x(q, zp):
    """Saturation boundaries around the range, ties, non-finite, huge values."""
    lo, hi, _ = ref.QTYPES[q]
    a, b = lo - zp, hi - zp  # quotients that land exactly on the range ends
    v = [a - 1, a - 0.5, a - 0.49, a, a + 0.5, b - 0.5, b, b + 0.49, b + 0.5, b + 1,
         0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf,
         3e38, -3e38, 2.0 ** 31, -2.0 ** 31, 2.0 ** 32 + 2 ** 9, -2.0 ** 63, 1e-45, -1e-45, 1e20]
    return np.array(v, f32)


_EDGE_ZP = {"u8": 200, "i8": -100, "u16": 1000, "i16": 32000, "u4": 9, "i4": -7, "u2": 2, "i2": -1}
for _q in QT:
    add("edge-values", "edge_special_" + _q,
        lambda n, q=_q: Q(_edge_x(q, _EDGE_ZP[q]), np.array(1.0, f32),
                          np.array(_EDGE_ZP[q], ref.QTYPES[q][2]), q))


@case("edge-values")
def edge_special_no_zp_i8(n):
    with np.errstate(over="ignore"):
        x = _edge_x("i8", 0) * f32(4)  # 3e38 * 4 -> inf, as intended
    return Q(x, np.array(4.0, f32), None, "i8")


@case("edge-values")
def edge_ties_u8(n):
    x = np.arange(-260, 260, dtype=np.float64) + 0.5
    return Q(x.astype(f32), np.array(1.0, f32), np.array(128, np.uint8), "u8")


@case("edge-values")
def edge_ties_div_i16(n):
    # odd / 2 and odd * 0.25 / 0.5 give exact .5 quotients
    x = np.arange(-41, 42, dtype=np.float64)
    return Q(x.astype(f32), np.array(2.0, f32), np.array(-3, np.int16), "i16")


@case("edge-values")
def edge_ties_f16(n):
    x = (np.arange(-30, 31) + 0.5).astype(f16) * f16(0.25)
    return Q(x, np.array(0.25, f16), np.array(1, np.int8), "i8")


@case("edge-values")
def edge_ties_per_axis_i4(n):
    x = np.array([[-8.5, -7.5, -0.5, 0.5, 1.5, 6.5, 7.5],
                  [-17.0, -15.0, -1.0, 1.0, 3.0, 13.0, 15.0],
                  [-4.25, -3.75, -0.25, 0.25, 0.75, 3.25, 3.75]], f32)
    return Q(x, np.array([1.0, 2.0, 0.5], f32), np.array([0, 1, -1], np.int8), "i4", axis=0)


@case("edge-values")
def edge_nan_per_axis_u4(n):
    x = np.array([[np.nan, np.inf, -np.inf, -0.0], [np.nan, np.inf, -np.inf, 2.0]], f32)
    return Q(x, np.array([1.0, 3.0], f32), np.array([0, 15], np.uint8), "u4", axis=0)


@case("edge-values")
def edge_denormal_x(n):
    # x = k * 2^-149 (denormals), scale 2^-147 (denormal): quotient k/4, ties
    k = np.arange(-60, 61)
    x = (k * 2.0 ** -149).astype(f32)
    return Q(x, np.array(2.0 ** -147, f32), np.array(0, np.int8), "i8")


@case("edge-values")
def edge_denormal_scale(n):
    x = np.array([1e-40, -1e-40, 1e-38, 1.0, -1.0, 0.0, 3e-43, 1e-45], f32)
    return Q(x, np.array(1e-42, f32), np.array(0, np.int16), "i16")


@case("edge-values")
def edge_zero_scale(n):
    x = np.array([[1.0, -1.0, 0.0, np.nan], [1.0, -1.0, 0.0, 5.0]], f32)
    return Q(x, np.array([0.0, 2.0], f32), np.array([10, 20], np.uint8), "u8", axis=0)


@case("edge-values")
def edge_f16_overflow(n):
    # x rounded to f16 overflows to inf (> 65519.99) before the division
    x = np.array([65504.0, 65519.0, 65520.0, 1e5, -1e5, -65520.0, 3e38, np.nan], f32)
    return Q(x, np.array(1024.0, f16), np.array(0, np.int8), "i8")


@case("edge-values")
def edge_f16_subnormal(n):
    x = (np.arange(-20, 21) * 2.0 ** -24).astype(f16)  # f16 denormals
    return Q(x, np.array(2.0 ** -23, f16), np.array(0, np.int8), "i8")  # quotient k/2


@case("edge-values")
def edge_i32_extremes(n):
    x = np.array([2 ** 31 - 1, -2 ** 31, 2 ** 24 + 1, -(2 ** 24 + 1), 2 ** 24 + 3, 0, 1, -1,
                  1048576 * 3 + 524288, -(1048576 * 5 + 524288)], np.int32)
    return Q(x, np.array(2.0 ** 20, f32), np.array(0, np.int16), "i16")


@case("edge-values")
def edge_i32_saturate_u16(n):
    x = np.array([2 ** 31 - 1, -2 ** 31, 65535, 65536, -1, 32768, 16777217], np.int32)
    return Q(x, np.array(1.0, f32), np.array(0, np.uint16), "u16")


@case("edge-values")
def edge_empty_quantize_1d(n):
    return Q(np.zeros(0, f32), np.array(0.5, f32), np.array(3, np.uint8), "u8")


@case("edge-values")
def edge_empty_quantize_3x0(n):
    return Q(np.zeros((3, 0), f32), np.array([0.5, 1.0, 2.0], f32), np.array([1, 2, 3], np.int8), "i8", axis=0)


@case("edge-values")
def edge_empty_dequantize(n):
    return DQ(np.zeros((0, 4), np.int8), "i4", np.array([0.5, 1.0, 2.0, 4.0], f32), np.array([1, 2, 3, -8], np.int8), axis=1)


@case("edge-values")
def edge_empty_qmm_k0(n):
    # K = 0: acc = 0, y = saturate(y_zp)
    return QMM(np.zeros((3, 0)), "u8", np.array(0.5, f32), 7, np.zeros((0, 4)), "i8", np.array(0.5, f32), 1,
               np.array(0.25, f32), 42, "u8")


@case("edge-values")
def edge_empty_qmm_m0(n):
    return QMM(np.zeros((0, 5)), "i8", np.array(0.5, f32), 7, np.ones((5, 4)), "i8", np.array(0.5, f32), 1,
               np.array(0.25, f32), 42, "i8")


add("edge-values", "edge_size_1_u8", lambda n: qcase(n, (1,), "u8"))
add("edge-values", "edge_size_3_i4", lambda n: qcase(n, (3,), "i4"))
add("edge-values", "edge_size_17_u2", lambda n: qcase(n, (17,), "u2"))
add("edge-values", "edge_size_1023_i8", lambda n: qcase(n, (1023,), "i8"))
add("edge-values", "edge_size_1023_per_axis_u16", lambda n: qcase(n, (3, 1023), "u16", axis=0))
add("edge-values", "edge_size_17_dequantize_i4", lambda n: dqcase(n, (17,), "i4"))
add("edge-values", "edge_size_1023_dequantize_u2", lambda n: dqcase(n, (1023,), "u2"))
add("edge-values", "edge_size_3_dequantize_i16", lambda n: dqcase(n, (3,), "i16"))


@case("edge-values")
def edge_dequantize_denormal(n):
    x = np.array([-128, -1, 0, 1, 2, 3, 127], np.int8)
    return DQ(x, "i8", np.array(2.0 ** -140, f32), np.array(1, np.int8))


@case("edge-values")
def edge_large_1e6_special(n):
    rng = rng_for(n)
    x = rng.uniform(-13, 19, size=1000000)
    idx = rng.permutation(x.size)[:200000]
    x[idx[:500]] = np.nan
    x[idx[500:1000]] = np.inf
    x[idx[1000:1500]] = -np.inf
    x[idx[1500:2000]] = -0.0
    x[idx[2000:2500]] = 1e-45
    x[idx[2500:]] = 2 * np.floor(x[idx[2500:]] / 2) + 1  # odd integers: x / 2 is a tie
    return Q(x.astype(f32), np.array(2.0, f32), np.array(-2, np.int8), "i4")


# ---- seed-examples (SPEC.md / seeds / ONNX node tests) ----
def _seed_case(key):
    def build(n):
        fn, args, kwargs, want = ref.seed_examples()[key]
        if fn is ref.quantize_linear:
            x, s = args[0], args[1]
            zp = args[2] if len(args) > 2 else None
            qt = kwargs.get("out_dtype") or ref._default_qtype(zp)
            c = Q(x, s, zp, qt, kwargs.get("axis"), kwargs.get("block_size", 0))
        elif fn is ref.dequantize_linear:
            x, s, zp = args
            qt = {"dequantizelinear_int4": "i4", "dequantizelinear_uint4": "u4",
                  "dequantizelinear_int2": "i2", "dequantizelinear_uint2": "u2"}.get(key) or ref._default_qtype(zp)
            c = DQ(x, qt, s, zp, kwargs.get("axis"), kwargs.get("block_size", 0))
        elif fn is ref.dynamic_quantize_linear:
            c = DYN(args[0])
        else:
            a, as_, azp, b, bs, bzp, ys, yzp = args
            c = QMM(a, ref._int8_name(a), as_, azp, b, ref._int8_name(b), bs, bzp, ys, yzp, ref._int8_name(yzp))
        # the reference must reproduce the published outputs
        for t, w in zip(c.outs, want):
            assert np.array_equal(t.arr, w), "seed %s: reference disagrees with the published output" % key
        return c
    return build


def _register_seeds():
    # the ONNX per-axis examples spell axis explicitly in the IR (the dialect needs it)
    for key in ref.seed_examples():
        add("seed-examples", "seed_" + key, _seed_case(key))


_register_seeds()


def build(name):
    family, fn = CASES[name]
    return fn(name)


def main(argv):
    if len(argv) == 2 and argv[1] == "--list":
        for name, (family, _) in CASES.items():
            print(family, name)
        return 0
    if len(argv) != 3:
        print(__doc__)
        return 2
    name, outdir = argv[1], argv[2]
    if name not in CASES:
        print("unknown case %r (see --list)" % name, file=sys.stderr)
        return 2
    build(name).write(outdir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
