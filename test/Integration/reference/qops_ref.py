#!/usr/bin/env python3
"""Independent NumPy reference for the integer forms of the qops ops.

Written from /work/shared/SPEC.md ("Numerics"), not from the compiler:

  quantize_linear          y = saturate(round_half_even(x / scale) + zp)
  dequantize_linear        y = (x - zp) * scale
  dynamic_quantize_linear  (y, scale, zp) of uint8 from the data range
  qlinear_matmul           y = saturate(round_half_even(acc * a_s*b_s/y_s) + y_zp)
  matmul_integer           y = sum_k (a - a_zp)(b - b_zp)   (int32, MatMulInteger-10)

Quantized types are named by strings: 'u8','i8','u16','i16','u4','i4','u2','i2'.
4-bit and 2-bit values are held one per element in np.uint8 / np.int8 arrays.
Float types: 'f32' (np.float32) and 'f16' (np.float16). bf16, float8, float4
and e8m0 are in qops_float_ref.py (which reuses this module).

Decisions (the spec leaves them open; the project picked these):
  * NaN quotient in an integer QuantizeLinear counts as 0: y = saturate(zp).
  * +Inf / -Inf and any huge quotient saturate to the max / min of the type.
  * QLinearMatMul multiplier a_scale * b_scale / y_scale is computed left to
    right in the scales' type (f32 or f16); the product acc * multiplier and
    the rounding are done in float64.

`python3 qops_ref.py --selftest [--onnx-dir DIR]` checks the reference against
the SPEC/seed examples and the ONNX backend node tests (if DIR is found).
"""

import functools
import os
import sys

import numpy as np

# name -> (min, max, numpy storage dtype)
QTYPES = {
    "u8": (0, 255, np.uint8),
    "i8": (-128, 127, np.int8),
    "u16": (0, 65535, np.uint16),
    "i16": (-32768, 32767, np.int16),
    "u4": (0, 15, np.uint8),
    "i4": (-8, 7, np.int8),
    "u2": (0, 3, np.uint8),
    "i2": (-2, 1, np.int8),
}
FTYPES = {"f32": np.float32, "f16": np.float16}

# Quotients are clamped to this range in float64 before the (well defined)
# conversion to int64; it is far outside every output range.
_CLAMP = 2.0 ** 40


def _quiet(fn):
    """Run fn with floating-point warnings off: overflow to +-inf, NaN and
    conversions of non-finite values are part of the defined behaviour here."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)
    return wrapper


def ftype_name(dtype):
    dtype = np.dtype(dtype)
    if dtype == np.float32:
        return "f32"
    if dtype == np.float16:
        return "f16"
    raise ValueError("unsupported float type %s" % dtype)


def _default_qtype(zp):
    """Output type when only a zero point array is given (8/16-bit only)."""
    m = {np.dtype(np.uint8): "u8", np.dtype(np.int8): "i8",
         np.dtype(np.uint16): "u16", np.dtype(np.int16): "i16"}
    return m[np.asarray(zp).dtype]


def _norm_axis(axis, rank):
    if axis is None:
        axis = 1  # ai.onnx default (opset >= 13); the dialect always spells it
    if not -rank <= axis < rank:
        raise ValueError("axis %d out of range for rank %d" % (axis, rank))
    return axis + rank if axis < 0 else axis


def broadcast_param(p, x_shape, axis=None, block_size=0):
    """Reshape a scale or zero point so that it broadcasts against x.

    Granularity is decided by the parameter's shape (SPEC.md):
      * one element (shape [] or [1])         -> per-tensor
      * block_size > 0, rank == rank(x)       -> blocked along `axis`:
            element i on the axis uses index floor(i / block_size);
            p.shape[axis] == ceil(D / block_size) (last block may be partial)
      * 1-D of length x.shape[axis]           -> per-axis
    """
    p = np.asarray(p)
    if p.size == 1:
        return p.reshape(())
    rank = len(x_shape)
    ax = _norm_axis(axis, rank)
    d = x_shape[ax]
    if block_size and block_size > 0:
        if p.ndim != rank:
            raise ValueError("blocked parameter must have the rank of x")
        nblocks = -(-d // block_size)
        for i in range(rank):
            want = nblocks if i == ax else x_shape[i]
            if p.shape[i] != want:
                raise ValueError("blocked parameter shape %s does not fit x %s "
                                 "(axis %d, block %d)" % (p.shape, x_shape, ax, block_size))
        # index of the block of each element on the axis: floor(i / B)
        idx = np.arange(d) // block_size
        return np.take(p, idx, axis=ax)
    if p.ndim != 1 or p.shape[0] != d:
        raise ValueError("per-axis parameter %s does not fit x %s on axis %d" % (p.shape, x_shape, ax))
    shape = [1] * rank
    shape[ax] = d
    return p.reshape(shape)


def _saturate_round(q, zp_b, qtype):
    """y = saturate(round_half_even(q) + zp); NaN counts as 0; +-Inf and huge clamp."""
    lo, hi, npdt = QTYPES[qtype]
    q64 = np.asarray(q).astype(np.float64)       # exact widening of the quotient
    q64 = np.where(np.isnan(q64), 0.0, q64)      # decided: NaN -> 0 (y = zp)
    q64 = np.clip(q64, -_CLAMP, _CLAMP)          # +-Inf / huge: saturate below
    r = np.rint(q64).astype(np.int64)            # round half to even, exact int
    y = r + np.asarray(zp_b).astype(np.int64)    # zero point added in integers
    return np.clip(y, lo, hi).astype(npdt)       # saturate to the output range


@_quiet
def quantize_linear(x, scale, zp=None, axis=None, block_size=0, out_dtype=None, precision=None):
    """QuantizeLinear, integer outputs.

    y = saturate(round_half_even(x / y_scale) + y_zero_point)
      division type T = precision if given, else the scale's type (f32 or f16);
      x is converted to T first (int32 x: round to nearest, here via exact float64);
      the quotient x_T / scale_T is one correctly rounded operation in T;
      NaN -> 0 (y = zp), +-Inf / huge quotients saturate.
    Output type: out_dtype, else the zero point's (8/16-bit arrays), else 'u8'.
    """
    x = np.asarray(x)
    scale = np.asarray(scale)
    if out_dtype is None:
        out_dtype = _default_qtype(zp) if zp is not None else "u8"
    if out_dtype not in QTYPES:
        raise ValueError("unsupported output type %r" % (out_dtype,))
    if precision is not None:
        dt = FTYPES[precision]
    else:
        dt = FTYPES[ftype_name(scale.dtype)]
    # x in the division type (int32 -> float64 is exact, then one rounding)
    if x.dtype.kind in "iu":
        xd = x.astype(np.float64).astype(dt)
    else:
        xd = x.astype(dt)
    # the scale in the division type, broadcast to x by its granularity
    sd = broadcast_param(scale.astype(dt), x.shape, axis, block_size)
    # q = x / scale in T (numpy float16 division is correctly rounded: it is
    # computed in float32, which has >= 2p+2 bits, then rounded once to f16)
    with np.errstate(all="ignore"):
        q = np.asarray(np.divide(xd, sd, dtype=dt))
    assert q.dtype == dt
    zp_b = 0 if zp is None else broadcast_param(np.asarray(zp), x.shape, axis, block_size)
    y = _saturate_round(q, zp_b, out_dtype)
    return y.reshape(x.shape)


@_quiet
def dequantize_linear(x, scale, zp=None, axis=None, block_size=0, out_dtype=None):
    """DequantizeLinear from an integer type (or int32).

    y = (x - x_zero_point) * x_scale
      x - zp exactly in int64, converted to f32 (round to nearest),
      times the scale converted to f32, in f32,
      then rounded to the output type (out_dtype, else the scale's type).
    """
    x = np.asarray(x)
    scale = np.asarray(scale)
    if out_dtype is None:
        out_dtype = ftype_name(scale.dtype)
    zp_b = 0 if zp is None else broadcast_param(np.asarray(zp), x.shape, axis, block_size).astype(np.int64)
    diff = x.astype(np.int64) - zp_b                        # exact
    d32 = np.asarray(diff).astype(np.float64).astype(np.float32)  # one rounding to f32
    s32 = broadcast_param(scale.astype(np.float32), x.shape, axis, block_size)
    with np.errstate(all="ignore"):
        y32 = np.multiply(d32, s32, dtype=np.float32)        # product in f32
    return np.asarray(y32).astype(FTYPES[out_dtype]).reshape(x.shape)


@_quiet
def dynamic_quantize_linear(x):
    """DynamicQuantizeLinear-11: x f32 -> (y u8, scale f32 scalar, zp u8 scalar).

    max = max(0, max(x)), min = min(0, min(x))      (NaN propagates; empty x: 0, 0)
    scale = (max - min) / 255 in f32, except max == min: scale = 1/255 (ONNX reference)
    zp = round_half_even(clip(0 - min / scale, 0, 255)) in f32, NaN -> 0
    y = saturate(round_half_even(x / scale) + zp), NaN -> zp
    """
    x = np.asarray(x, dtype=np.float32)
    f = np.float32
    with np.errstate(all="ignore"):
        if x.size == 0:
            xmax, xmin = f(0), f(0)
        else:
            xmax = np.maximum(f(0), np.max(x))
            xmin = np.minimum(f(0), np.min(x))
        if xmax == xmin:
            scale = f(1) / f(255)
        else:
            scale = f(xmax - xmin) / f(255)
        scale = f(scale)
        zpf = f(f(0) - f(xmin / scale))
        zpf = np.clip(zpf, f(0), f(255))
        zpf = f(0) if np.isnan(zpf) else np.rint(zpf)
        zp = np.uint8(int(zpf))
        q = np.divide(x, scale, dtype=np.float32)
    y = _saturate_round(q, np.int64(zp), "u8").reshape(x.shape)
    return y, np.array(scale, dtype=np.float32), np.array(zp, dtype=np.uint8)


def _int8_name(a):
    return {np.dtype(np.uint8): "u8", np.dtype(np.int8): "i8"}[np.asarray(a).dtype]


@_quiet
def qlinear_matmul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp):
    """QLinearMatMul (int8/uint8 in any combination), numpy.matmul semantics.

    acc = sum_k (a - a_zp) * (b - b_zp)           exact (must fit int32)
    multiplier = a_scale * b_scale / y_scale      in the scales' type, left to right
    y = saturate(round_half_even(float64(acc) * float64(multiplier)) + y_zp)
    Parameters: one element = per-tensor; a: [M] or [..., M, 1] (per row);
    b: [N] or [..., 1, N] (per column); y: [N] / [..., 1, N] (per column) or
    [..., M, 1] (per row). 1-D operands are vectors (as numpy.matmul).
    """
    a = np.asarray(a)
    b = np.asarray(b)
    a_scale, a_zp = np.asarray(a_scale), np.asarray(a_zp)
    b_scale, b_zp = np.asarray(b_scale), np.asarray(b_zp)
    y_scale, y_zp = np.asarray(y_scale), np.asarray(y_zp)
    sdt = a_scale.dtype
    assert b_scale.dtype == sdt and y_scale.dtype == sdt and sdt in (np.float32, np.float16)
    ytype = _int8_name(y_zp)
    a_vec, b_vec = a.ndim == 1, b.ndim == 1
    A = a.reshape(1, -1) if a_vec else a          # [..., M, K]
    B = b.reshape(-1, 1) if b_vec else b          # [..., K, N]

    def frame(p, role):
        # one element -> scalar; 1-D -> [M, 1] for a (per row), [N] for b / y
        if p.size == 1:
            return p.reshape(())
        if role == "a" and p.ndim == 1:
            return p.reshape(-1, 1)
        return p

    if a_vec:
        assert a_scale.size == 1 and a_zp.size == 1, "a vector takes per-tensor params"
    if b_vec:
        assert b_scale.size == 1 and b_zp.size == 1, "b vector takes per-tensor params"
    if a_vec or b_vec:
        assert y_scale.size == 1 and y_zp.size == 1, "vector y takes per-tensor params"

    da = A.astype(np.int64) - frame(a_zp, "a").astype(np.int64)
    db = B.astype(np.int64) - frame(b_zp, "b").astype(np.int64)
    k = A.shape[-1]
    # float64 matmul is exact here: every partial sum is an integer < 2^53
    assert k * 255 * 255 < 2 ** 53
    acc = np.matmul(da.astype(np.float64), db.astype(np.float64))
    acc = np.rint(acc).astype(np.int64)
    assert np.all(acc >= -2 ** 31) and np.all(acc < 2 ** 31), "accumulator exceeds int32"
    with np.errstate(all="ignore"):
        mult = (frame(a_scale, "a") * frame(b_scale, "b")).astype(sdt)   # a_s * b_s in T
        mult = np.divide(mult, frame(y_scale, "y"), dtype=sdt)          # / y_s in T
        prod = acc.astype(np.float64) * np.asarray(mult).astype(np.float64)
    y = _saturate_round(prod, frame(y_zp, "y"), ytype)
    y = np.broadcast_to(y, acc.shape)
    if b_vec:
        y = y[..., 0]
    if a_vec:
        y = y[..., 0, :] if not b_vec else y[..., 0]
    return np.array(y, order="C")  # (ascontiguousarray would make rank 0 rank 1)


def _matmul_integer_zp(zp, x, role):
    """A MatMulInteger zero point framed to broadcast against x (a as [..., M, K]
    or b as [..., K, N], both of rank >= 2) in int64; None -> 0.

    a: one element (per tensor), [M] or [..., M, 1] (per row);
    b: one element (per tensor), [N] or [..., 1, N] (per column);
    the batch dimensions of an N-D zero point are 1 or x's (aligned right)."""
    if zp is None:
        return np.int64(0)
    zp = np.asarray(zp)
    assert zp.dtype == x.dtype, "a zero point has its operand's type"
    if zp.size == 1:
        return zp.reshape(()).astype(np.int64)
    if role == "a":
        m = x.shape[-2]
        if zp.ndim == 1:
            assert zp.shape[0] == m, "per-row a_zero_point %s does not fit a %s" % (zp.shape, x.shape)
            return zp.reshape(m, 1).astype(np.int64)
        assert zp.shape[-2:] == (m, 1), "a_zero_point %s is not [..., M, 1] for a %s" % (zp.shape, x.shape)
    else:
        n = x.shape[-1]
        if zp.ndim == 1:
            assert zp.shape[0] == n, "per-column b_zero_point %s does not fit b %s" % (zp.shape, x.shape)
            return zp.astype(np.int64)
        assert zp.shape[-2:] == (1, n), "b_zero_point %s is not [..., 1, N] for b %s" % (zp.shape, x.shape)
    assert zp.ndim <= x.ndim, "zero point %s has a higher rank than its operand %s" % (zp.shape, x.shape)
    for dz, dx in zip(zp.shape[:-2][::-1], x.shape[:-2][::-1]):
        assert dz in (1, dx), "zero point batch dims %s do not fit %s" % (zp.shape, x.shape)
    return zp.astype(np.int64)


def matmul_integer(a, b, a_zp=None, b_zp=None):
    """MatMulInteger-10 (SPEC.md): a, b uint8 or int8 (independently),
    numpy.matmul semantics (1-D a is a row vector, 1-D b a column vector, the
    added dimension dropped; batch dimensions broadcast), int32 result

        y = sum_k (a - a_zp) * (b - b_zp)

    Each product is exact (|.| <= 255 * 255); the sum is computed exactly in
    int64 and then wrapped to 32 bits (ONNX: the accumulation may overflow
    only in 32 bits). Zero points are optional (0), of their operand's type:
    see _matmul_integer_zp for their shapes; a 1-D operand takes a
    one-element zero point only."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype in (np.uint8, np.int8) and b.dtype in (np.uint8, np.int8), (a.dtype, b.dtype)
    assert a.ndim >= 1 and b.ndim >= 1, "matmul operands have rank >= 1"
    a_vec, b_vec = a.ndim == 1, b.ndim == 1
    A = a.reshape(1, -1) if a_vec else a          # [..., M, K]
    B = b.reshape(-1, 1) if b_vec else b          # [..., K, N]
    assert A.shape[-1] == B.shape[-2], "inner dimensions differ: %s x %s" % (a.shape, b.shape)
    if a_vec:
        assert a_zp is None or np.size(a_zp) == 1, "a vector takes a per-tensor a_zero_point"
    if b_vec:
        assert b_zp is None or np.size(b_zp) == 1, "a vector takes a per-tensor b_zero_point"
    da = A.astype(np.int64) - _matmul_integer_zp(a_zp, A, "a")
    db = B.astype(np.int64) - _matmul_integer_zp(b_zp, B, "b")
    # a zero point's batch dims never widen its operand beyond numpy's
    # broadcast of the two operands' batch dims
    batch = np.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    assert np.broadcast_shapes(da.shape[:-2], db.shape[:-2]) == batch, "zero point widens the batch"
    acc = np.matmul(da, db)                        # int64: exact for any K < 2^47
    y = ((acc + 2 ** 31) % 2 ** 32 - 2 ** 31).astype(np.int32)
    if b_vec:
        y = y[..., 0]
    if a_vec:
        y = y[..., 0, :] if not b_vec else y[..., 0]
    return np.array(y, order="C")


# ---------------------------------------------------------------------------
# 4-bit / 2-bit packing (ONNX storage), used to read the node tests
# ---------------------------------------------------------------------------

def _conv_sums(x, w, x_zp, w_zp, strides, dilations, pads, group):
    """The exact sums of ConvInteger / QLinearConv (SPEC.md), NCHW with S =
    x.ndim - 2 spatial dims, int64, before any wrap:

        acc[n, m, o..] = sum_{c, k..} (xp[n, g Cg + c, o s + k d] - x_zp)
                                      * (w[m, c, k..] - w_zp[m])

    g = m // (M // group), Cg = C // group, xp = x padded with x_zp
    (pads: S begins, then S ends). Summed tap by tap (one strided slice of
    the padded input per kernel offset), not through patches."""
    x, w = np.asarray(x), np.asarray(w)
    s_dims = x.ndim - 2
    n, c = x.shape[:2]
    m, cg = w.shape[:2]
    kernel = w.shape[2:]
    assert c == cg * group and m % group == 0, (x.shape, w.shape, group)
    xz = 0 if x_zp is None else int(np.asarray(x_zp).reshape(-1)[0])
    wz = np.zeros(m, np.int64) if w_zp is None else \
        np.broadcast_to(np.asarray(w_zp).astype(np.int64).reshape(-1), (m,))
    xp = np.pad(x.astype(np.int64) - xz,
                [(0, 0), (0, 0)] + [(pads[i], pads[s_dims + i]) for i in range(s_dims)])
    out = [(xp.shape[2 + i] - ((kernel[i] - 1) * dilations[i] + 1)) // strides[i] + 1
           for i in range(s_dims)]
    assert all(o >= 1 for o in out), "the kernel does not fit"
    dw = w.astype(np.int64) - wz.reshape((m,) + (1,) * (w.ndim - 1))
    acc = np.zeros((n, m) + tuple(out), np.int64)
    mg = m // group
    for k in np.ndindex(*kernel):
        window = tuple(slice(k[i] * dilations[i],
                             k[i] * dilations[i] + (out[i] - 1) * strides[i] + 1, strides[i])
                       for i in range(s_dims))
        tap = xp[(slice(None), slice(None)) + window]           # [N, C, o..]
        for g in range(group):
            xs = tap[:, g * cg:(g + 1) * cg]                      # [N, Cg, o..]
            ws = dw[g * mg:(g + 1) * mg][(slice(None), slice(None)) + k]   # [Mg, Cg]
            acc[:, g * mg:(g + 1) * mg] += np.einsum("nc...,mc->nm...", xs, ws)
    return acc


def conv_integer(x, w, x_zp=None, w_zp=None, strides=None, dilations=None, pads=None, group=1):
    """ConvInteger-10 (SPEC.md): x, w uint8 or int8; x_zp one element, w_zp
    one element or [M] (both optional, 0); int32 y, the sums wrapped to 32
    bits as ONNX allows."""
    s_dims = np.ndim(x) - 2
    strides = strides or [1] * s_dims
    dilations = dilations or [1] * s_dims
    pads = pads or [0] * (2 * s_dims)
    acc = _conv_sums(x, w, x_zp, w_zp, strides, dilations, pads, group)
    return ((acc + 2 ** 31) % 2 ** 32 - 2 ** 31).astype(np.int32)


def qlinear_conv(x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, bias=None,
                 strides=None, dilations=None, pads=None, group=1):
    """QLinearConv-10 (SPEC.md): acc = conv(x - x_zp, w - w_zp) + bias exactly,
    multiplier = x_scale * w_scale / y_scale in f32 (per output channel when
    w_scale is), y = saturate(round_half_even(f64(acc) * f64(multiplier)) + y_zp)
    -- QLinearMatMul's requantization."""
    s_dims = np.ndim(x) - 2
    strides = strides or [1] * s_dims
    dilations = dilations or [1] * s_dims
    pads = pads or [0] * (2 * s_dims)
    acc = _conv_sums(x, w, x_zp, w_zp, strides, dilations, pads, group)
    m = acc.shape[1]
    chan = (1, m) + (1,) * s_dims
    if bias is not None:
        acc = acc + np.asarray(bias).astype(np.int64).reshape(chan)
    assert np.all(acc >= -2 ** 31) and np.all(acc < 2 ** 31), "accumulator exceeds int32"
    xs = np.asarray(x_scale, np.float32).reshape(())
    ws = np.broadcast_to(np.asarray(w_scale, np.float32).reshape(-1), (m,))
    ys = np.asarray(y_scale, np.float32).reshape(())
    with np.errstate(all="ignore"):
        mult = np.divide((xs * ws).astype(np.float32), ys, dtype=np.float32)
        prod = acc.astype(np.float64) * mult.astype(np.float64).reshape(chan)
    y_zp = np.asarray(y_zp)
    return np.array(_saturate_round(prod, y_zp.reshape(()), _int8_name(y_zp)), order="C")


def matmul_nbits_int8(x, q, zp, scale, block):
    """MatMulNBits at accuracy level 4 as the float kernel computes it
    (lib/Conversion/QOpsToLinalg/FloatMatMulInt8.cpp): x quantized per row
    and block to int8, exact integer sums, then the block's scales in f32.
    q [K, N], zp (or None: 0) and scale [K / block, N]. Not an ONNX
    operator's definition: com.microsoft MatMulNBits at accuracy_level 4
    lets the runtime quantize A so (docs/Numerics.md gives the formula)."""
    m, k = x.shape
    blocks = x.reshape(m, k // block, block)
    amax = np.abs(blocks).max(axis=2)
    sa = (amax / np.float32(127)).astype(np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        qa = np.clip(np.round(blocks / sa[:, :, None]), -127, 127)
    qa = np.where(sa[:, :, None] == 0, 0, qa).astype(np.int64)
    rs = qa.sum(axis=2)
    qb = q.astype(np.int64).reshape(k // block, block, -1)
    y = np.zeros((m, q.shape[1]), np.float32)
    for kb in range(k // block):
        isum = qa[:, kb, :] @ qb[kb]
        if zp is not None:
            isum = isum - zp[kb].astype(np.int64)[None, :] * rs[:, kb, None]
        s = (sa[:, kb, None] * scale[kb][None, :]).astype(np.float32)
        y = (y + (isum.astype(np.float32) * s).astype(np.float32)).astype(np.float32)
    return y


def unpack_subbyte(data_bytes, count, bits, signed):
    """ONNX packing: 4-bit two per byte (first element in the low nibble),
    2-bit four per byte (x0 | x1<<2 | x2<<4 | x3<<6)."""
    raw = np.frombuffer(bytes(data_bytes), dtype=np.uint8)
    per = 8 // bits
    mask = (1 << bits) - 1
    vals = np.stack([(raw >> (bits * i)) & mask for i in range(per)], axis=-1).reshape(-1)[:count]
    vals = vals.astype(np.int16)
    if signed:
        vals = np.where(vals >= (1 << (bits - 1)), vals - (1 << bits), vals)
        return vals.astype(np.int8)
    return vals.astype(np.uint8)


# ---------------------------------------------------------------------------
# A tiny protobuf decoder (TensorProto / ModelProto fields we need)
# ---------------------------------------------------------------------------

def _varint(buf, i):
    shift = 0
    v = 0
    while True:
        c = buf[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if not c & 0x80:
            return v, i


def pb_fields(buf):
    """Yield (field number, wire type, value) for one serialized message."""
    i = 0
    while i < len(buf):
        key, i = _varint(buf, i)
        fn, wt = key >> 3, key & 7
        if wt == 0:
            v, i = _varint(buf, i)
        elif wt == 1:
            v = bytes(buf[i:i + 8])
            i += 8
        elif wt == 2:
            n, i = _varint(buf, i)
            v = bytes(buf[i:i + n])
            i += n
        elif wt == 5:
            v = bytes(buf[i:i + 4])
            i += 4
        else:
            raise ValueError("unsupported wire type %d" % wt)
        yield fn, wt, v


def _signed64(v):
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >= 1 << 63 else v


def _varints(fields, fn):
    out = []
    for f, wt, v in fields:
        if f != fn:
            continue
        if wt == 0:
            out.append(_signed64(v))
        else:  # packed
            i = 0
            while i < len(v):
                x, i = _varint(v, i)
                out.append(_signed64(x))
    return out


# TensorProto.DataType -> (name, numpy dtype, bits for packed types)
ONNX_DT = {
    1: ("f32", np.float32), 2: ("u8", np.uint8), 3: ("i8", np.int8),
    4: ("u16", np.uint16), 5: ("i16", np.int16), 6: ("i32", np.int32),
    7: ("i64", np.int64), 10: ("f16", np.float16), 11: ("f64", np.float64),
    21: ("u4", np.uint8), 22: ("i4", np.int8), 25: ("u2", np.uint8), 26: ("i2", np.int8),
}
ONNX_OUT_OF_SCOPE = {16: "bf16", 17: "f8E4M3FN", 18: "f8E4M3FNUZ", 19: "f8E5M2",
                     20: "f8E5M2FNUZ", 23: "f4E2M1FN", 24: "f8E8M0FNU"}


def decode_tensor(buf):
    """Decode a TensorProto: returns (type name, ndarray) or (type name, None)
    for types out of scope. Fields: dims 1, data_type 2, float_data 4,
    int32_data 5, raw_data 9."""
    fields = list(pb_fields(buf))
    dims = _varints(fields, 1)
    dtn = _varints(fields, 2)
    dt = dtn[0] if dtn else 0
    if dt in ONNX_OUT_OF_SCOPE:
        return ONNX_OUT_OF_SCOPE[dt], None
    name, npdt = ONNX_DT[dt]
    count = int(np.prod(dims)) if dims else 1
    raw = b"".join(v for f, wt, v in fields if f == 9)
    i32 = _varints(fields, 5)
    fdata = []
    for f, wt, v in fields:
        if f == 4:
            fdata.append(np.frombuffer(v, dtype="<f4"))
    if name in ("u4", "i4", "u2", "i2"):
        bits = 4 if name.endswith("4") else 2
        data = raw if raw else bytes(np.array(i32, dtype=np.int64).astype(np.uint8))
        arr = unpack_subbyte(data, count, bits, name.startswith("i"))
    elif raw:
        arr = np.frombuffer(raw, dtype=np.dtype(npdt).newbyteorder("<")).astype(npdt)
    elif name == "f32":
        arr = np.concatenate(fdata) if fdata else np.zeros(0, np.float32)
    elif name == "f16":
        arr = np.array(i32, dtype=np.int64).astype(np.uint16).view(np.float16)
    else:
        arr = np.array(i32, dtype=np.int64).astype(npdt)
    return name, arr.reshape(dims)


def decode_node_attrs(model_buf):
    """(op_type, {attr: int, or list of ints, or bytes}) of the first node of
    a ModelProto's graph."""
    for f, wt, graph in pb_fields(model_buf):
        if f != 7:
            continue
        for g, gwt, node in pb_fields(graph):
            if g != 1:
                continue
            op, attrs = None, {}
            for n, nwt, v in pb_fields(node):
                if n == 4:
                    op = v.decode()
                elif n == 5:
                    aname, aval, ints = None, None, []
                    for a, awt, av in pb_fields(v):
                        if a == 1:
                            aname = av.decode()
                        elif a == 3:
                            aval = _signed64(av)
                        elif a == 4:
                            aval = bytes(av)
                        elif a == 8 and awt == 0:
                            ints.append(_signed64(av))
                        elif a == 8:  # packed
                            j = 0
                            while j < len(av):
                                iv, j = _varint(av, j)
                                ints.append(_signed64(iv))
                    attrs[aname] = ints if aval is None and ints else aval
            return op, attrs
    return None, {}


# ---------------------------------------------------------------------------
# Examples from SPEC.md, the seed pages and the ONNX node tests (hand copied)
# ---------------------------------------------------------------------------

def seed_examples():
    """name -> (function, args, kwargs, expected outputs tuple).

    Inputs and expected outputs hand-copied from SPEC.md, the seed pages in
    shared/seeds/ and the ONNX backend node tests (shared/onnx-node-tests/).
    """
    f32, f16, u8, i8, i16, u16 = np.float32, np.float16, np.uint8, np.int8, np.int16, np.uint16
    A = np.array
    ex = {}
    ex["quantizelinear"] = (
        quantize_linear, (A([0, 2, 3, 1000, -254, -1000], f32), A(2, f32), A(128, u8)), {},
        (A([128, 129, 130, 255, 1, 0], u8),))
    x_axis = A([[[[-162, 10], [-100, 232], [-20, -50]],
                 [[-76, 0], [0, 252], [32, -44]],
                 [[245, -485], [-960, -270], [-375, -470]]]], f32)
    q_axis = A([[[[3, 89], [34, 200], [74, 59]],
                 [[5, 24], [24, 87], [32, 13]],
                 [[245, 99], [4, 142], [121, 102]]]], u8)
    ex["quantizelinear_axis"] = (
        quantize_linear, (x_axis, A([2, 4, 5], f32), A([84, 24, 196], u8)), {"axis": 1}, (q_axis,))
    s_blk = A([[1.5, 2.5], [3.0, 4.9], [5.1, 6.9]], f32)
    ex["quantizelinear_blocked_asymmetric"] = (
        quantize_linear, (A([[6, 12, 50, 5], [1, 8, 4, 5], [0, 20, 10, 4]], f32), s_blk, A([[0, 1], [1, 0], [2, 3]], u8)),
        {"axis": 1, "block_size": 2},
        (A([[4, 8, 21, 3], [1, 4, 1, 1], [2, 6, 4, 4]], u8),))
    ex["quantizelinear_blocked_symmetric"] = (
        quantize_linear, (A([[6, -8, -10, 5], [1, 8, 4, 5], [0, 20, 10, 4]], f32), s_blk),
        {"axis": 1, "block_size": 2, "out_dtype": "i16"},
        (A([[4, -5, -4, 2], [0, 3, 1, 1], [0, 4, 1, 1]], i16),))
    ex["quantizelinear_int16"] = (
        quantize_linear, (A([0, -514, 3, -3, 2.9, -2.9, 3.1, -3.1, 65022, -66046, 65023, -66047,
                             65024, -66048, 70000, -70000], f32), A(2, f32), A(256, i16)), {},
        (A([256, -1, 258, 254, 257, 255, 258, 254, 32767, -32767, 32767, -32768, 32767, -32768,
            32767, -32768], i16),))
    ex["quantizelinear_uint16"] = (
        quantize_linear, (A([0, -128, 3, -3, 2.9, -2.9, 3.1, -3.1, 65536, -65534, 70000, -70000], f32),
                          A(2, f32), A(32767, u16)), {},
        (A([32767, 32703, 32769, 32765, 32768, 32766, 32769, 32765, 65535, 0, 65535, 0], u16),))
    s3 = A([2, 3, 4], f32)
    row0 = [0.0, 2.5, 4.8, 8.6]
    ex["quantizelinear_int4"] = (
        quantize_linear, (A([row0, [-30, -20, 6, 9], [12, 15, 16, 40]], f32), s3, A([1, 1, 1], i8)),
        {"axis": 0, "out_dtype": "i4"}, (A([[1, 2, 3, 5], [-8, -6, 3, 4], [4, 5, 5, 7]], i8),))
    ex["quantizelinear_uint4"] = (
        quantize_linear, (A([row0, [-30, -20, 6, 9], [12, 15, 16, 40]], f32), s3, A([1, 1, 1], u8)),
        {"axis": 0, "out_dtype": "u4"}, (A([[1, 2, 3, 5], [0, 0, 3, 4], [4, 5, 5, 11]], u8),))
    ex["quantizelinear_int2"] = (
        quantize_linear, (A([row0, [-4, -3, 1, 2], [-0.0, -2.5, -4.8, -8.6]], f32), s3, A([0, 0, 0], i8)),
        {"axis": 0, "out_dtype": "i2"}, (A([[0, 1, 1, 1], [-1, -1, 0, 1], [0, -1, -1, -2]], i8),))
    ex["quantizelinear_uint2"] = (
        quantize_linear, (A([row0, [-2, -1, 1, 3], [4, 5, 6, 7]], f32), s3, A([0, 0, 0], u8)),
        {"axis": 0, "out_dtype": "u2"}, (A([[0, 1, 2, 3], [0, 0, 0, 1], [1, 1, 2, 2]], u8),))

    ex["dequantizelinear"] = (
        dequantize_linear, (A([0, 3, 128, 255], u8), A(2, f32), A(128, u8)), {},
        (A([-256, -250, 0, 254], f32),))
    ex["dequantizelinear_axis"] = (
        dequantize_linear, (q_axis, A([2, 4, 5], f32), A([84, 24, 196], u8)), {"axis": 1}, (x_axis,))
    ex["dequantizelinear_blocked"] = (
        dequantize_linear,
        (A([[[[3, 89], [34, 200], [74, 59]], [[5, 24], [24, 87], [32, 13]],
             [[5, 12], [12, 33], [65, 42]], [[245, 99], [4, 142], [121, 102]]]], u8),
         A([[[[3, 2], [4, 1], [2, 2]], [[5, 2], [4, 3], [5, 2]]]], f32),
         A([[[[1, 0], [0, 1], [2, 20]], [[3, 2], [4, 3], [15, 2]]]], u8)),
        {"axis": 1, "block_size": 2},
        (A([[[[6, 178], [136, 199], [144, 78]], [[12, 48], [96, 86], [60, -14]],
             [[10, 20], [32, 90], [250, 80]], [[1210, 194], [0, 417], [530, 200]]]], f32),))
    ex["dequantizelinear_int16"] = (
        dequantize_linear, (A([-300, -30, -1025, 1270], i16), A(2, f32), A(-1024, i16)), {},
        (A([1448, 1988, -2, 4588], f32),))
    ex["dequantizelinear_uint16"] = (
        dequantize_linear, (A([30000, 31000, 32768, 33000], u16), A(2, f32), A(32767, u16)), {},
        (A([-5534, -3534, 2, 466], f32),))
    ex["dequantizelinear_int4"] = (
        dequantize_linear, (A([0, 1, 7, -4, -8], i8), A(2, f32), A([1], i8)), {"axis": 0},
        (A([-2, 0, 12, -10, -18], f32),))
    ex["dequantizelinear_uint4"] = (
        dequantize_linear, (A([0, 1, 7, 10, 15], u8), A(2, f32), A([1], u8)), {"axis": 0},
        (A([-2, 0, 12, 18, 28], f32),))
    ex["dequantizelinear_int2"] = (
        dequantize_linear, (A([0, 1, -1, -2], i8), A(2, f32), A([1], i8)), {"axis": 0},
        (A([-2, 0, -4, -6], f32),))
    ex["dequantizelinear_uint2"] = (
        dequantize_linear, (A([0, 1, 2, 3], u8), A(2, f32), A([1], u8)), {"axis": 0},
        (A([-2, 0, 2, 4], f32),))

    ex["dynamicquantizelinear"] = (
        dynamic_quantize_linear, (A([0, 2, -3, -2.5, 1.34, 0.5], f32),), {},
        (A([153, 255, 0, 26, 221, 179], u8), A(0.019607844, f32), A(153, u8)))
    ex["dynamicquantizelinear_max_adjusted"] = (
        dynamic_quantize_linear, (A([-1.0, -2.1, -1.3, -2.5, -3.34, -4.0], f32),), {},
        (A([191, 121, 172, 96, 42, 0], u8), A(0.015686275, f32), A(255, u8)))
    ex["dynamicquantizelinear_min_adjusted"] = (
        dynamic_quantize_linear, (A([[1, 2.1, 1.3, 2.5], [3.34, 4.0, 1.5, 2.6], [3.9, 4.0, 3.0, 2.345]], f32),), {},
        (A([[64, 134, 83, 159], [213, 255, 96, 166], [249, 255, 191, 149]], u8), A(0.015686275, f32), A(0, u8)))

    def qmm(a, azp, b, bzp, yzp, sdt, batch):
        s = [A([v], sdt) for v in (0.0066, 0.00705, 0.0107)]
        if batch:
            a, b = np.stack([a, a]), np.stack([b, b])
        return (a, s[0], azp, b, s[1], bzp, s[2], yzp)

    ua = A([[208, 236, 0, 238], [3, 214, 255, 29]], u8)
    ub = A([[152, 51, 244], [60, 26, 255], [0, 127, 246], [127, 254, 247]], u8)
    uy = A([[168, 115, 255], [1, 66, 151]], u8)
    sa = A([[81, 109, -127, 111], [-124, 87, -128, -98]], i8)
    sb = A([[25, -76, 117], [-67, -101, -128], [-127, 0, 119], [0, 127, 120]], i8)
    sy = A([[41, -12, -9], [1, -75, -128]], i8)
    sy3 = A([[-86, -128, -128], [115, 39, -121]], i8)  # b_zero_point 114 (pre-#7991 data)
    for sdt, sn in ((f32, "float32"), (f16, "float16")):
        ex["qlinearmatmul_2D_uint8_" + sn] = (
            qlinear_matmul, qmm(ua, A([113], u8), ub, A([114], u8), A([118], u8), sdt, False), {}, (uy,))
        ex["qlinearmatmul_3D_uint8_" + sn] = (
            qlinear_matmul, qmm(ua, A([113], u8), ub, A([114], u8), A([118], u8), sdt, True), {},
            (np.stack([uy, uy]),))
        ex["qlinearmatmul_2D_int8_" + sn] = (
            qlinear_matmul, qmm(sa, A([-14], i8), sb, A([-13], i8), A([-9], i8), sdt, False), {}, (sy,))
        ex["qlinearmatmul_3D_int8_" + sn] = (
            qlinear_matmul, qmm(sa, A([-14], i8), sb, A([114], i8), A([-9], i8), sdt, True), {},
            (np.stack([sy3, sy3]),))
    return ex


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape or got.dtype != want.dtype:
        return False
    if got.dtype.kind == "f":
        return bool(np.array_equal(got, want, equal_nan=True))
    return bool(np.array_equal(got, want))


def _find_onnx_dir(explicit=None):
    cands = []
    if explicit:
        cands.append(explicit)
    if os.environ.get("QOPS_ONNX_NODE_TESTS"):
        cands.append(os.environ["QOPS_ONNX_NODE_TESTS"])
    here = os.path.dirname(os.path.abspath(__file__))
    cands.append(os.path.join(here, "..", "..", "..", "..", "shared", "onnx-node-tests"))
    cands.append("/work/shared/onnx-node-tests")
    for c in cands:
        if os.path.isdir(c):
            return os.path.abspath(c)
    return None


DEBIAN_NODE_TESTS = "/usr/share/libonnx-testdata/data/node"


def run_node_test(d):
    """Run one ONNX node test directory; returns (status, message)."""
    name = os.path.basename(d)
    base = name[len("test_"):]
    with open(os.path.join(d, "model.onnx"), "rb") as fh:
        op, attrs = decode_node_attrs(fh.read())
    ds = os.path.join(d, "test_data_set_0")
    ins, outs = [], []
    for prefix, lst in (("input_", ins), ("output_", outs)):
        i = 0
        while os.path.exists(os.path.join(ds, "%s%d.pb" % (prefix, i))):
            with open(os.path.join(ds, "%s%d.pb" % (prefix, i)), "rb") as fh:
                lst.append(decode_tensor(fh.read()))
            i += 1
    for tname, arr in ins + outs:
        if arr is None:
            return "skip", "type %s out of scope" % tname
    xs = [a for _, a in ins]
    types = [t for t, _ in ins]
    if base.startswith("quantizelinear"):
        qtype = types[2] if len(xs) > 2 else None
        if "output_dtype" in attrs:
            qtype = ONNX_DT[attrs["output_dtype"]][0]
        if qtype is None:
            qtype = "u8"
        prec = None
        if attrs.get("precision"):
            prec = ONNX_DT[attrs["precision"]][0]
        got = (quantize_linear(xs[0], xs[1], xs[2] if len(xs) > 2 else None, axis=attrs.get("axis", 1),
                               block_size=attrs.get("block_size", 0), out_dtype=qtype, precision=prec),)
    elif base.startswith("dequantizelinear"):
        od = ONNX_DT[attrs["output_dtype"]][0] if attrs.get("output_dtype") else None
        got = (dequantize_linear(xs[0], xs[1], xs[2] if len(xs) > 2 else None, axis=attrs.get("axis", 1),
                                 block_size=attrs.get("block_size", 0), out_dtype=od),)
    elif base.startswith("dynamicquantizelinear"):
        got = dynamic_quantize_linear(xs[0])
    elif base.startswith("qlinearmatmul"):
        got = (qlinear_matmul(*xs),)
    elif base.startswith("matmulinteger"):
        got = (matmul_integer(*xs),)  # inputs A, B, a_zero_point, b_zero_point
    elif base.startswith(("convinteger", "basic_convinteger", "qlinearconv")):
        conv = {k: attrs.get(k) for k in ("strides", "dilations", "pads")}
        conv["group"] = attrs.get("group") or 1
        if attrs.get("auto_pad") not in (None, b"NOTSET"):
            return "skip", "auto_pad is resolved by the importer, not here"
        if base.startswith("qlinearconv"):
            got = (qlinear_conv(*xs, **conv),)
        else:  # inputs x, w, x_zero_point, w_zero_point
            got = (conv_integer(xs[0], xs[1], *xs[2:], **conv),)
    else:
        return "skip", "op %s is not one of the four" % op
    bad = []
    for i, ((tname, want), g) in enumerate(zip(outs, got)):
        if not _same(g, want):
            bad.append("output %d: got %s want %s" % (i, np.asarray(g).tolist(), want.tolist()))
    if bad:
        return "FAIL", "; ".join(bad)
    return "ok", ""


def selftest(onnx_dir=None, verbose=True):
    failures = 0
    for name, (fn, args, kwargs, want) in seed_examples().items():
        got = fn(*args, **kwargs)
        if not isinstance(got, tuple):
            got = (got,)
        ok = all(_same(g, w) for g, w in zip(got, want))
        if not ok:
            failures += 1
            print("FAIL seed %s: got %s" % (name, [np.asarray(g).tolist() for g in got]))
        elif verbose:
            print("ok   seed %s" % name)

    # hand-made checks of the decided behaviour and of the formulas
    f32, f16 = np.float32, np.float16
    checks = []
    # ties to even, negative ties, -0
    checks.append(("ties", quantize_linear(np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, -0.0], f32),
                                           np.array(1, f32), np.array(0, np.int8)),
                   np.array([0, 2, 2, 0, -2, -2, 0], np.int8)))
    # NaN -> zp, +-Inf saturate, huge saturate
    checks.append(("nonfinite", quantize_linear(np.array([np.nan, np.inf, -np.inf, 3e38, -3e38], f32),
                                                np.array(1, f32), np.array(5, np.int8), out_dtype="i8"),
                   np.array([5, 127, -128, 127, -128], np.int8)))
    checks.append(("nan_zp_saturated", quantize_linear(np.array([np.nan], f32), np.array(1, f32),
                                                       np.array(1, np.int8), out_dtype="i2"),
                   np.array([1], np.int8)))
    # f16 division differs from f32 division: 1000/3 in f16 = 333.25 -> 333; x rounded to f16 first
    checks.append(("f16_div", quantize_linear(np.array([2049.0], f32), np.array(2, f16), out_dtype="i16"),
                   np.array([1024], np.int16)))  # 2049 -> f16 2048 -> 1024
    checks.append(("precision_f32", quantize_linear(np.array([2049.0], f32), np.array(2, f16),
                                                    out_dtype="i16", precision="f32"),
                   np.array([1024], np.int16)))  # 1024.5 -> ties to even 1024
    checks.append(("precision_f32b", quantize_linear(np.array([2051.0], f32), np.array(2, f16),
                                                     out_dtype="i16", precision="f32"),
                   np.array([1026], np.int16)))  # 1025.5 -> 1026
    checks.append(("f16_div_b", quantize_linear(np.array([2051.0], f32), np.array(2, f16), out_dtype="i16"),
                   np.array([1026], np.int16)))  # 2051 -> f16 2052 -> 1026
    # int32 x converted with round to nearest (2^24+1 -> 2^24 in f32)
    checks.append(("i32_x", quantize_linear(np.array([16777217, 7], np.int32), np.array(1, f32),
                                            out_dtype="i16"), np.array([32767, 7], np.int16)))
    # blocked with a partial last block
    xb = np.arange(5, dtype=f32).reshape(1, 5)
    checks.append(("blocked_partial", quantize_linear(xb, np.array([[1, 0.5]], f32), axis=1, block_size=3),
                   np.array([[0, 1, 2, 6, 8]], np.uint8)))
    # dequantize int32 rounds to nearest f32
    checks.append(("deq_i32", dequantize_linear(np.array([16777217, 2147483647], np.int32), np.array(1, f32)),
                   np.array([16777216, 2147483648.0], f32)))
    checks.append(("deq_i4_axis", dequantize_linear(np.array([[-8, 7], [0, 1]], np.int8), np.array([2, 3], f32),
                                                    np.array([1, -1], np.int8), axis=-1),
                   np.array([[-18, 24], [-2, 6]], f32)))
    # dynamic quantize corner cases
    y, s, z = dynamic_quantize_linear(np.zeros(4, f32))
    checks.append(("dql_zero", np.array([s, z.astype(f32)], f32), np.array([f32(1) / f32(255), 0], f32)))
    y, s, z = dynamic_quantize_linear(np.zeros(0, f32))
    checks.append(("dql_empty", np.array([y.size, s == f32(1) / f32(255), z], np.int64), np.array([0, 1, 0])))
    y, s, z = dynamic_quantize_linear(np.array([1, np.nan], f32))
    checks.append(("dql_nan", np.array([np.isnan(s), z, y[0], y[1]], np.int64), np.array([1, 0, 0, 0])))
    # per-row a, per-column b, per-column y, with numpy broadcasting
    a = np.array([[1, 2], [3, 4]], np.uint8)
    b = np.array([[1, 0], [0, 1]], np.int8)
    checks.append(("qmm_params", qlinear_matmul(a, np.array([1, 2], f32), np.array([0, 1], np.uint8),
                                                b, np.array([1, 0.5], f32), np.array([0, 0], np.int8),
                                                np.array([1, 1], f32), np.array([10, 20], np.uint8)),
                   np.array([[11, 21], [14, 23]], np.uint8)))  # row 1: [2,3]*[2,1]+[10,20]
    checks.append(("qmm_vec", qlinear_matmul(np.array([1, 2], np.uint8), np.array(1, f32), np.array(0, np.uint8),
                                             b, np.array(1, f32), np.array(0, np.int8),
                                             np.array(1, f32), np.array(0, np.int8)),
                   np.array([1, 2], np.int8)))
    # MatMulInteger: ONNX's example (test_matmulinteger, hand copied), then
    # per-row / per-column zero points, vectors, batches and the 32-bit wrap
    u8, i8, i32 = np.uint8, np.int8, np.int32
    mi_a = np.array([[11, 7, 3], [10, 6, 2], [9, 5, 1], [8, 4, 0]], u8)
    mi_b = np.array([[1, 4], [2, 5], [3, 6]], u8)
    checks.append(("mmi_onnx_example", matmul_integer(mi_a, mi_b, np.array([12], u8), np.array([0], u8)),
                   np.array([[-38, -83], [-44, -98], [-50, -113], [-56, -128]], i32)))
    checks.append(("mmi_no_zp", matmul_integer(np.array([[255, 0]], u8), np.array([[-128], [127]], i8)),
                   np.array([[-32640]], i32)))
    a2 = np.array([[1, 2], [3, 4]], i8)
    b2 = np.array([[1, 0], [0, 1]], u8)
    checks.append(("mmi_per_row_a", matmul_integer(a2, b2, np.array([1, -1], i8)),
                   np.array([[0, 1], [4, 5]], i32)))
    checks.append(("mmi_per_row_a_nd", matmul_integer(np.stack([a2, a2]), b2, np.array([[[1], [-1]], [[0], [0]]], i8)),
                   np.array([[[0, 1], [4, 5]], [[1, 2], [3, 4]]], i32)))
    checks.append(("mmi_per_col_b", matmul_integer(a2, b2, None, np.array([1, 2], u8)),
                   np.array([[-2, -4], [-4, -10]], i32)))  # b - zp = [[0, -2], [-1, -1]]
    checks.append(("mmi_per_col_b_2d", matmul_integer(a2, b2, None, np.array([[1, 2]], u8)),
                   np.array([[-2, -4], [-4, -10]], i32)))
    checks.append(("mmi_vec_a", matmul_integer(np.array([1, 2], i8), b2, np.array(1, i8)),
                   np.array([0, 1], i32)))
    checks.append(("mmi_vec_b", matmul_integer(a2, np.array([2, 3], u8), None, np.array([2], u8)),
                   np.array([2, 4], i32)))
    checks.append(("mmi_vec_vec", matmul_integer(np.array([1, 2], i8), np.array([2, 3], u8)),
                   np.array(8, i32)))
    checks.append(("mmi_batch", matmul_integer(np.ones((2, 1, 1, 3), u8), np.ones((4, 3, 2), i8)),
                   np.full((2, 4, 1, 2), 3, i32)))
    # (-128 - 127) * (0 - 255) = 65025; 65025 * 33025 = 2147450625 < 2^31 fits,
    # 65025 * 33026 = 2147515650 = 2^31 + 32002 wraps to -2^31 + 32002
    checks.append(("mmi_not_wrapped", matmul_integer(np.full((1, 33025), -128, i8), np.zeros((33025, 1), u8),
                                                     np.array(127, i8), np.array(255, u8)),
                   np.array([[2147450625]], i32)))
    checks.append(("mmi_wrap", matmul_integer(np.full((1, 33026), -128, i8), np.zeros((33026, 1), u8),
                                              np.array(127, i8), np.array(255, u8)),
                   np.array([[-2 ** 31 + 32002]], i32)))
    for name, got, want in checks:
        if not _same(got, want):
            failures += 1
            print("FAIL check %s: got %s want %s" % (name, np.asarray(got).tolist(), np.asarray(want).tolist()))
        elif verbose:
            print("ok   check %s" % name)

    # Debian's libonnx-testdata has the node tests of MatMulInteger and the
    # integer convolutions (shared/ has only test_qlinearconv)
    for case in ("test_matmulinteger", "test_basic_convinteger", "test_convinteger_with_padding",
                 "test_convinteger_without_padding", "test_qlinearconv"):
        deb = os.path.join(DEBIAN_NODE_TESTS, case)
        if not os.path.isdir(deb):
            continue
        status, msg = run_node_test(deb)
        if status == "FAIL":
            failures += 1
        if verbose or status == "FAIL":
            print("%-4s node %s (Debian)%s" % (status, os.path.basename(deb), (": " + msg) if msg else ""))

    d = _find_onnx_dir(onnx_dir)
    if d is None:
        print("note: ONNX node tests not found; skipped")
    else:
        for sub in sorted(os.listdir(d)):
            p = os.path.join(d, sub)
            if not os.path.isdir(p) or not sub.startswith("test_"):
                continue
            status, msg = run_node_test(p)
            if status == "FAIL":
                failures += 1
            if verbose or status == "FAIL":
                print("%-4s node %s%s" % (status, sub, (": " + msg) if msg else ""))
    print("selftest: %s" % ("PASSED" if failures == 0 else "%d FAILED" % failures))
    return failures == 0


if __name__ == "__main__":
    if "--selftest" in sys.argv:
        od = None
        if "--onnx-dir" in sys.argv:
            od = sys.argv[sys.argv.index("--onnx-dir") + 1]
        sys.exit(0 if selftest(od) else 1)
    print(__doc__)
