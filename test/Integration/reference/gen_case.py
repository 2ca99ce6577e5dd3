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
(|i1 signed, |u1 unsigned) with values in range; bf16 as its bit pattern <u2;
float8 and e8m0 codes |u1; float4 codes |u1, one per byte (low 4 bits).

The float forms (float8, float4, e8m0, bf16) take their expected values from
qops_float_ref.py. quant-runner does not accept a '<u2' array for a bf16
argument, so a bf16 input is declared as i16 in the test function and
bitcast to bf16 by a linalg.map before the op (bf16 results are compared
with '<u2' expectations directly).

    python3 gen_case.py --family FAMILY OUTDIR   writes every case of FAMILY
                                                 to OUTDIR/<case>/ (one process)
"""

import os
import sys
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import qops_ref as ref  # noqa: E402
import qops_float_ref as fref  # noqa: E402

NPY_DTYPE = {"u8": "|u1", "i8": "|i1", "u16": "<u2", "i16": "<i2", "u4": "|u1", "i4": "|i1",
             "u2": "|u1", "i2": "|i1", "i32": "<i4", "f32": "<f4", "f16": "<f2", "bf16": "<u2"}
IR_NAME = {"u8": "ui8", "i8": "si8", "u16": "ui16", "i16": "si16", "u4": "ui4", "i4": "si4",
           "u2": "ui2", "i2": "si2", "i32": "i32", "f32": "f32", "f16": "f16", "bf16": "bf16"}
for _t in fref.SMALL + (fref.E8M0,):
    NPY_DTYPE[_t] = "|u1"
    IR_NAME[_t] = _t
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
        if et in fref.SMALL or et in (fref.E8M0, "bf16"):
            assert arr.dtype == fref.storage(et), "%s wants its codes as %s" % (et, fref.storage(et))
        if et == fref.FLOAT4:
            assert arr.size == 0 or arr.max() < 16, "float4 codes are 4 bits"
        self.arr = np.array(arr.astype(np.dtype(NPY_DTYPE[et])), order="C")  # keeps rank 0
        self.et = et
        self.keep = ()  # dims of this tensor that stay static in a dynamic case

    def ir(self, dyn=False, keep=()):
        keep = tuple(keep) + self.keep
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
        # bf16 inputs arrive as i16 bit patterns and are bitcast (see the doc)
        sig = [t.replace("xbf16>", "xi16>").replace("<bf16>", "<i16>") if x.et == "bf16" else t
               for t, x in zip(ti, self.ins)]
        args = ", ".join("%%arg%d: %s" % (i, t) for i, t in enumerate(sig))
        res = to[0] if len(to) == 1 else "(" + ", ".join(to) + ")"
        attrs = "".join(" %s = %s" % kv for kv in self.attrs)
        a = ["%%arg%d" % i for i in range(len(ti))]
        pre = ""
        for i, x in enumerate(self.ins):
            if x.et != "bf16":
                continue
            assert "?" not in ti[i], "bf16 inputs take static shapes"
            pre += ("  %%e%d = tensor.empty() : %s\n"
                    "  %%b%d = linalg.map { arith.bitcast } ins(%%arg%d : %s) outs(%%e%d : %s)\n") % (
                i, ti[i], i, i, sig[i], i, ti[i])
            a[i] = "%%b%d" % i
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
        elif self.op == "qmatmul_layers":
            # a, a_scale, a_zp, b0, b0_scale, b0_zp, y_scale, y_zp, b1, b1_scale, b1_zp
            layer = ("  %%%d = qops.qlinear_matmul a(%s : %s)\n"
                     "                          b(%s : %s)\n"
                     "                          y(%s : %s) -> %s\n")
            body = "".join(layer % (k, ", ".join(a[0:3]), ", ".join(ti[0:3]), ", ".join(a[bs]),
                                    ", ".join(ti[bs]), ", ".join(a[6:8]), ", ".join(ti[6:8]), to[k])
                           for k, bs in ((0, slice(3, 6)), (1, slice(8, 11))))
            body += "  return %%0, %%1 : %s, %s\n" % (to[0], to[1])
        elif self.op == "mmi":
            # a, [a_zero_point], b, [b_zero_point]: the operands in argument order
            na = 2 if self.a_zp else 1
            body = ("  %%0 = qops.matmul_integer a(%s : %s)\n"
                    "                           b(%s : %s) -> %s\n"
                    "  return %%0 : %s\n") % (
                ", ".join(a[:na]), ", ".join(ti[:na]), ", ".join(a[na:]), ", ".join(ti[na:]), to[0], to[0])
        elif self.op == "conv":
            # ConvInteger: x, [x_zero_point], w, [w_zero_point];
            # QLinearConv: x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp
            attr_dict = " {%s}" % ", ".join("%s = %s" % kv for kv in self.attrs) if self.attrs else ""
            if self.quantized:
                bias = " bias(%s : %s)" % (a[8], ti[8]) if len(a) > 8 else ""
                body = ("  %%0 = qops.qlinear_conv x(%s : %s)\n"
                        "                          w(%s : %s)\n"
                        "                          y(%s : %s)%s%s -> %s\n"
                        "  return %%0 : %s\n") % (
                    ", ".join(a[0:3]), ", ".join(ti[0:3]), ", ".join(a[3:6]), ", ".join(ti[3:6]),
                    ", ".join(a[6:8]), ", ".join(ti[6:8]), bias, attr_dict, to[0], to[0])
            else:
                nx = 2 if self.x_zp else 1
                body = ("  %%0 = qops.conv_integer x(%s : %s)\n"
                        "                          w(%s : %s)%s -> %s\n"
                        "  return %%0 : %s\n") % (
                    ", ".join(a[:nx]), ", ".join(ti[:nx]), ", ".join(a[nx:]), ", ".join(ti[nx:]),
                    attr_dict, to[0], to[0])
        else:
            raise ValueError(self.op)
        return "func.func @%s(%s) -> %s {\n%s%s}\n" % (name, args, res, pre, body)

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


def qmm_layers(name, at, bt, yt, ashape, bshape, b_par=()):
    """Two QLinearMatMul layers of the same shape on one a, each with its own
    b (its values, scales and zero points): the same loop nests on different
    buffers, which qops-share-loop-nests compiles once as one function."""
    first = qmm_rand(name, at, bt, yt, ashape, bshape, b_par=b_par)
    rng = rng_for(name + "_layer1")
    lo, hi, npt = ref.QTYPES[bt]  # the draws of qmm_rand's b
    b1 = rng.integers(lo, hi + 1, size=bshape).astype(npt)
    bzp1 = ((lo + hi) // 2 + rng.integers(-40, 41, size=b_par)).astype(npt)
    bs1 = rng.uniform(0.002, 0.02, size=b_par).astype(f32)
    a, as_, azp, ys, yzp = (first.ins[i].arr for i in (0, 1, 2, 6, 7))
    y1 = ref.qlinear_matmul(a, as_, azp, b1, bs1, bzp1, ys, yzp)
    ins = first.ins + [Tensor(b1, bt), Tensor(bs1, "f32"), Tensor(bzp1, bt)]
    return Case("qmatmul_layers", ins, first.outs + [Tensor(y1, yt)])


def MMI(a, at, b, bt, azp=None, bzp=None, dyn=False):
    """MatMulInteger case: inputs a, [a_zero_point], b, [b_zero_point] (each
    zero point only when given), output int32 from ref.matmul_integer."""
    npt = {"u8": np.uint8, "i8": np.int8}
    lo = {"u8": (0, 255), "i8": (-128, 127)}
    a, b = np.asarray(a), np.asarray(b)
    for x, t in ((a, at), (b, bt), (azp, at), (bzp, bt)):
        assert x is None or np.size(x) == 0 or lo[t][0] <= np.min(x) and np.max(x) <= lo[t][1], "out of range"
    a, b = a.astype(npt[at]), b.astype(npt[bt])
    azp = None if azp is None else np.asarray(azp).astype(npt[at])
    bzp = None if bzp is None else np.asarray(bzp).astype(npt[bt])
    y = ref.matmul_integer(a, b, azp, bzp)
    ins = []
    for x, zp, t in ((a, azp, at), (b, bzp, bt)):
        ins.append(Tensor(x, t))
        if zp is not None:
            ins.append(Tensor(zp, t))
            # the unit dims of [..., M, 1] / [..., 1, N] stay static in a dynamic
            # case: the verifier takes only a static 1 there (as for QLinearMatMul)
            if zp.ndim >= 2:
                ins[-1].keep = tuple(i for i, d in enumerate(zp.shape) if d == 1)
    c = Case("mmi", ins, [Tensor(y, "i32")], dyn=dyn)
    c.a_zp = azp is not None
    return c


def CONV(x, xt, w, wt, xzp=None, wzp=None, strides=None, dilations=None, pads=None, group=1,
         q=None, dyn=False):
    """ConvInteger case (q None: inputs x, [x_zero_point], w, [w_zero_point],
    int32 y from ref.conv_integer) or QLinearConv case (q = (x_scale,
    w_scale, y_scale, y_zero_point, y type[, bias]); both zero points given;
    y from ref.qlinear_conv). dyn: the batch dimension is dynamic."""
    npt = {"u8": np.uint8, "i8": np.int8}
    x, w = np.asarray(x).astype(npt[xt]), np.asarray(w).astype(npt[wt])
    xzp = None if xzp is None else np.asarray(xzp).astype(npt[xt])
    wzp = None if wzp is None else np.asarray(wzp).astype(npt[wt])
    kw = dict(strides=strides, dilations=dilations, pads=pads, group=group)
    attrs = []
    for key in ("dilations", "group", "pads", "strides"):  # the printer's order
        if key == "group" and group != 1:
            attrs.append(("group", "%d : i64" % group))
        elif key != "group" and kw[key] is not None:
            attrs.append((key, "array<i64: %s>" % ", ".join(str(v) for v in kw[key])))
    if q is None:
        y = ref.conv_integer(x, w, xzp, wzp, **kw)
        ins = [Tensor(x, xt)] + ([Tensor(xzp, xt)] if xzp is not None else [])
        ins += [Tensor(w, wt)] + ([Tensor(wzp, wt)] if wzp is not None else [])
        out = Tensor(y, "i32")
    else:
        xs, ws, ys, yzp, yt = q[:5]
        bias = np.asarray(q[5]).astype(np.int32) if len(q) > 5 else None
        yzp = np.asarray(yzp).astype(npt[yt])
        y = ref.qlinear_conv(x, xs, xzp, w, ws, wzp, ys, yzp, bias, **kw)
        ins = [Tensor(x, xt), Tensor(xs, et_of(xs)), Tensor(xzp, xt),
               Tensor(w, wt), Tensor(ws, et_of(ws)), Tensor(wzp, wt),
               Tensor(ys, et_of(ys)), Tensor(yzp, yt)]
        if bias is not None:
            ins.append(Tensor(bias, "i32"))
        out = Tensor(y, yt)
    if dyn:  # only the batch (dim 0 of x and y) is dynamic
        for t in ins + [out]:
            t.keep = tuple(range(t.arr.ndim))
        ins[0].keep = out.keep = tuple(range(1, x.ndim))
    c = Case("conv", ins, [out], attrs, dyn)
    c.quantized = q is not None
    c.x_zp = xzp is not None
    return c


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


def qmm_rand(name, at, bt, yt, ashape, bshape, a_par=(), b_par=(), y_par=(), sdt=f32, dyn=False, yshrink=1.0,
             bzp_value=None, b_lim=None):
    """Random QLinearMatMul; *_par are the parameter shapes. y_scale and
    y_zero_point are fitted to the data so that the outputs spread over the
    output range, with a few saturating."""
    rng = rng_for(name)
    lim = {"u8": (0, 255), "i8": (-128, 127)}
    a = rng.integers(lim[at][0], lim[at][1] + 1, size=ashape)
    b_lo, b_hi = b_lim or lim[bt]  # b_lim: a narrower range of b
    b = rng.integers(b_lo, b_hi + 1, size=bshape)
    # zero points near the middle (+-40) keep the products of mixed sign
    azp = sum(lim[at]) // 2 + rng.integers(-40, 41, size=a_par)
    bzp = sum(lim[bt]) // 2 + rng.integers(-40, 41, size=b_par)
    if bzp_value is not None:  # a fixed b zero point (symmetric weights)
        bzp = np.full(b_par, bzp_value)
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



def batch_dyn(case):
    """Only the first dim dynamic, as an ONNX batch dim."""
    case.dyn, case.keep = True, tuple(range(1, case.ins[0].arr.ndim))
    return case


# Results of a dynamic shape whose rows are aligned: qops-nontemporal-stores
# versions their loop nests on the size at run time; make_lit.py runs these
# cases again with --nontemporal-min-bytes=64 so that the streaming branch
# runs too (the default 8 MiB takes the other).
add("quantize-linear", "quantize_dyn_batch_u8", lambda n: batch_dyn(qcase(n, (9, 64), "u8")))
add("quantize-linear", "quantize_dyn_1d_u8", lambda n: qcase(n, (1000,), "u8", dyn=True))

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
add("dequantize-linear", "dequantize_dyn_batch_u8", lambda n: batch_dyn(dqcase(n, (9, 64), "u8")))
add("dequantize-linear", "dequantize_dyn_1d_i8", lambda n: dqcase(n, (1000,), "i8", dyn=True))
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


# With threads, pass 1 reduces whole chunks of 1024 x 64 elements into
# partials, then the rows left over, then the N mod 64 tail. 1001 x 1003 =
# 1004003 elements: 15 chunks, 327 rows, a tail of 35. The extremes are put
# in one region each, so that a region left out changes the scale or the
# zero point.
def _dql_regions(n, lo_at, hi_at):
    x = rng_for(n).normal(0.1, 1.0, size=(1001, 1003)).astype(f32)
    flat = x.reshape(-1)
    flat[lo_at] = -37.5
    flat[hi_at] = 41.25
    return DYN(x, dyn=True)


# min in the rows left over after the chunks, max in the tail
add("dynamic-quantize-linear", "dql_dyn_leftover_rows_and_tail",
    lambda n: _dql_regions(n, 15 * 65536 + 200 * 64 + 5, 1004003 - 3))
# min and max in the chunks (the 8th and the last)
add("dynamic-quantize-linear", "dql_dyn_extremes_in_chunks",
    lambda n: _dql_regions(n, 7 * 65536 + 12345, 15 * 65536 - 1))


# Pass 1 keeps NaN out of its min/max lanes and ORs a NaN flag instead: a
# NaN in any region must still give scale NaN, zp 0, y 0.
def _dql_nan_at(n, at):
    x = rng_for(n).normal(0.1, 1.0, size=(1001, 1003)).astype(f32)
    x.reshape(-1)[at] = np.nan
    return DYN(x, dyn=True)


# NaN in a chunk (the 4th), in the rows left over, in the tail
add("dynamic-quantize-linear", "dql_dyn_nan_in_chunk",
    lambda n: _dql_nan_at(n, 3 * 65536 + 777))
add("dynamic-quantize-linear", "dql_dyn_nan_in_leftover_rows",
    lambda n: _dql_nan_at(n, 15 * 65536 + 100 * 64 + 63))
add("dynamic-quantize-linear", "dql_dyn_nan_in_tail",
    lambda n: _dql_nan_at(n, 1004003 - 1))


@case("dynamic-quantize-linear")
def dql_signed_zeros(n):
    # -0 and +0 in every lane order (min/max keep either zero): all-zero result
    x = np.zeros(200, f32)
    x[::3] = -0.0
    x[1::7] = -0.0
    return DYN(x)


@case("dynamic-quantize-linear")
def dql_signed_zero_min(n):
    # the only non-positive values are zeros of both signs: min is a zero
    x = rng_for(n).uniform(0.5, 9.0, size=300).astype(f32)
    x[17], x[130], x[299] = -0.0, 0.0, -0.0
    return DYN(x)


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
# Two layers of the same shape (a model's repeated blocks): their packing,
# kernel and epilogue nests are one function each, called per layer.
add("qlinear-matmul", "qmm_two_layers_48x96x80",
    lambda n: qmm_layers(n, "u8", "i8", "u8", (48, 96), (96, 80), b_par=(80,)))
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
# At most 4 rows of a with a b that is not constant take the streaming
# contraction instead of the packed kernel (gemv).
add("qlinear-matmul", "qmm_gemv_1x300x70", lambda n: qmm_rand(n, "u8", "i8", "u8", (1, 300), (300, 70), b_par=(70,)))
add("qlinear-matmul", "qmm_rows3_i8_u8", lambda n: qmm_rand(n, "i8", "u8", "i8", (3, 40), (40, 33)))


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
# A run-time b of 320 KiB (at least kColumnSumThreadBytes): with threads its
# column sums (the zero-point term, per-column zero points here) are summed
# in chunks of 64 columns on the threads (vnni, avxvnni, amx).
add("qlinear-matmul", "qmm_colsum_threads_40x512x640",
    lambda n: qmm_rand(n, "u8", "i8", "u8", (40, 512), (512, 640), b_par=(640,)))
# With threads: batches x row blocks (48 rows) x column chunks (256 columns):
# 3 x 3 x 2 tiles, the last ones partial, per-column b and y parameters.
add("qlinear-matmul", "qmm_batch_3x100x70x300",
    lambda n: qmm_rand(n, "i8", "u8", "i8", (3, 100, 70), (3, 70, 300), b_par=(300,), y_par=(300,)))
# Per-row a and y parameters where the last row tile is partial (M = 29:
# not a multiple of 12 or 6): its rows past M read row 28's parameters.
add("qlinear-matmul", "qmm_per_row_partial_tile",
    lambda n: qmm_rand(n, "u8", "i8", "u8", (29, 40), (40, 45), a_par=(29,), b_par=(45,), y_par=(29, 1)))
# A gemv with threads sums k in chunks of 1024 rows of b (3 here, so 2
# threads split them unevenly), partials added afterwards; run at 1-3
# threads by test/Runner/threads.mlir.
add("qlinear-matmul", "qmm_gemv_split_k",
    lambda n: qmm_rand(n, "i8", "u8", "i8", (3, 3072), (3072, 40)))
# The int8 gemv (at most 4 rows of a, a static 2-D b): an odd K (the last
# row of b alone), N a multiple of neither 16 nor 8 (masked reads and
# writes), a ui8 b with nonzero zero points (the b_zp * S[m] fold); per-row
# a and y with four rows; a batched a of two rows in all; K = 2048 in two
# chunks of 1024 rows with threads. Runner/threads.mlir and
# qlinear-matmul-constant-b.mlir run some at 1-3 threads, the latter the
# same cases with b a constant (packed into k-pairs under madd).
add("qlinear-matmul", "qmm_gemv_rows2_odd_k",
    lambda n: qmm_rand(n, "u8", "u8", "i8", (2, 33), (33, 50), b_par=(50,)))
add("qlinear-matmul", "qmm_gemv_rows4_per_row",
    lambda n: qmm_rand(n, "i8", "i8", "u8", (4, 19), (19, 130), a_par=(4,), b_par=(130,), y_par=(4, 1)))
add("qlinear-matmul", "qmm_gemv_batched_a",
    lambda n: qmm_rand(n, "u8", "i8", "u8", (2, 1, 40), (40, 21)))
add("qlinear-matmul", "qmm_gemv_2048x100",
    lambda n: qmm_rand(n, "u8", "i8", "u8", (1, 2048), (2048, 100), b_par=(100,)))
# K = 300 has no two 1024-row chunks: with threads the columns are split
# in blocks of 512 (N = 1100: three blocks, the last partial).
add("qlinear-matmul", "qmm_gemv_column_blocks",
    lambda n: qmm_rand(n, "i8", "u8", "u8", (2, 300), (300, 1100), b_par=(1100,), y_par=(1100,)))
# b zero points whose zb' is 0 (si8 0, ui8 128), given to the kernel as
# constants by qlinear-matmul-constant-b.mlir: the quad kernels drop a's row
# sums. Partial row tiles (M = 37, 100), masked columns (N = 45, 70).
add("qlinear-matmul", "qmm_symmetric_si8_b",
    lambda n: qmm_rand(n, "u8", "i8", "u8", (2, 37, 64), (2, 64, 45), bzp_value=0))
add("qlinear-matmul", "qmm_ui8_b_zero_point_128",
    lambda n: qmm_rand(n, "i8", "u8", "i8", (100, 36), (36, 70), b_par=(70,), y_par=(70,), bzp_value=128))

# Shapes for the amx kernel (x86 AMX-INT8: 32 x 32 register tiles of 2 x 2
# TDPBUSD tiles, k in steps of 64, blocks of 128 rows); other hosts run them
# with their own kernel. 33 x 130 x 40: a partial row tile (a's rows padded
# to 64), K padded to 192, 8 masked columns, an si8 a (sign bit flipped).
add("qlinear-matmul", "qmm_tiles_33x130x40", lambda n: qmm_rand(n, "i8", "i8", "u8", (33, 130), (130, 40)))
# Whole tiles, a ui8 a read in place, a ui8 b (sign bit flipped), per-row a
# and per-column b and y parameters.
add("qlinear-matmul", "qmm_tiles_64x128x64_per_channel",
    lambda n: qmm_rand(n, "u8", "u8", "i8", (64, 128), (128, 64), a_par=(64,), b_par=(64,), y_par=(64,)))
# Batches sharing a 2-D b, per-row y parameters, partial row tiles.
add("qlinear-matmul", "qmm_tiles_batch_3x70x96",
    lambda n: qmm_rand(n, "u8", "i8", "i8", (3, 70, 96), (96, 50), y_par=(1, 70, 1)))
# Two row blocks (128 + 32 rows), K = 256.
add("qlinear-matmul", "qmm_tiles_160x256x96", lambda n: qmm_rand(n, "u8", "i8", "u8", (160, 256), (256, 96)))


@case("qlinear-matmul")
def qmm_pairsum_trap(n):
    # u8 255 x i8 -128 pairs: a 16-bit pair sum 255*-128*2 overflows (VPMADDUBSW)
    rng = rng_for(n)
    a = np.where(rng.random((8, 64)) < 0.8, 255, rng.integers(0, 256, (8, 64)))
    b = np.where(rng.random((64, 8)) < 0.8, np.where(rng.random((64, 8)) < 0.5, -128, 127),
                 rng.integers(-128, 128, (64, 8)))
    return QMM(a, "u8", np.array(1.0, f32), 0, b, "i8", np.array(1.0, f32), 0,
               np.array(8000.0, f32), 128, "u8")


# Weights whose every pair of k rows has positive parts and negative parts
# of b' (b, or b - 128 for ui8) summing to at most 128: with b a constant,
# the maddubs strategy (x86 AVX2) multiplies them with VPMADDUBSW
# (qlinear-matmul-constant-b.mlir).
add("qlinear-matmul", "qmm_small_b_si8",
    lambda n: qmm_rand(n, "u8", "i8", "u8", (37, 70), (70, 45), b_par=(45,), y_par=(45,), b_lim=(-64, 63)))
add("qlinear-matmul", "qmm_small_b_ui8",
    lambda n: qmm_rand(n, "i8", "u8", "i8", (2, 20, 36), (2, 36, 30), b_lim=(64, 191)))


@case("qlinear-matmul")
def qmm_pair_sum_bounds(n):
    # The pairs at the bounds VPMADDUBSW takes exactly, one pair of k rows
    # per column, b zero elsewhere: (127, 1), (1, 127), (-128, 0),
    # (-64, -64), (64, 64), (-128, 127), (0, -128), (100, 28), against a =
    # 255 (row 0), 0 (row 1), random elsewhere: pair sums up to +-32640. With
    # y_scale 507, 32640 gives 64.38 -> 64 where a saturated 32767 would give
    # 64.63 -> 65, so the outputs tell an exact sum from a saturated one.
    rng = rng_for(n)
    k = 16
    pairs = [(127, 1), (1, 127), (-128, 0), (-64, -64), (64, 64), (-128, 127), (0, -128), (100, 28)]
    b = np.zeros((k, len(pairs)), dtype=np.int64)
    for c, (b0, b1) in enumerate(pairs):
        b[2 * c, c] = b0
        b[2 * c + 1, c] = b1
    a = np.where(rng.random((9, k)) < 0.7, 255, rng.integers(0, 256, (9, k)))
    a[0, :] = 255
    a[1, :] = 0
    return QMM(a, "u8", np.array(1.0, f32), 0, b, "i8", np.array(1.0, f32), 0,
               np.array(507.0, f32), 128, "u8")


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


@case("qlinear-matmul")
def qmm_special_multipliers(n):
    # Per-column multipliers a_s * b_s[n] / y_s that are NaN, +-Inf, past
    # 2^32 (+-1e30), 2^32 exactly, denormal and 0, beside normal ones; row 0
    # of a is a_zp everywhere (acc = 0: 0 * Inf is NaN, which gives y_zp),
    # the others random. 40 rows: the int8 kernel's tiles, not the gemv.
    return _special_multipliers_qmm(n, 64, (0.002, 0.02))


@case("qlinear-matmul")
def qmm_special_multipliers_deep_k(n):
    # As qmm_special_multipliers with K = 300: sums may pass 2^24 (300 * 255
    # * 255), so the epilogue requantizes in f64 (emitRequantizeSum) with the
    # multiplier made finite, not in f32 (K <= 258); b_s in [0.5, 2]: |acc|
    # ~ 1e5, so that y spreads.
    return _special_multipliers_qmm(n, 300, (0.5, 2.0))


def _f32_path(acc, m, yzp, lo, hi):
    """What emitRequantizeSmallSum computes: fma(f32(acc), m, 1.5 * 2^23)
    rounded once to f32 (exact in f64 before that rounding), clamped, less
    the magic number, plus y_zp. Equal to the reference when |acc| <= 2^24."""
    c = 1.5 * 2.0 ** 23
    p = (acc.astype(f32).astype(np.float64) * np.float64(f32(m)) + c).astype(f32)
    return np.clip(p.astype(np.float64) - c, lo - yzp, hi - yzp).astype(np.int64) + yzp


def _constant_b_columns(n, delta, d0):
    """K = 1024, u8 a (a_zp 0), u8 b = b_zp + d (per-column b_zp), |d| <=
    delta, column 0 of d all d0 but its last row (1); multiplier 2^-18
    (a_s 0.5, b_s 2^-11, y_s 64), u8 y around 128. Rows 0-1 of a are 255
    and 0, the others mostly 255."""
    rng = rng_for(n)
    k, cols = 1024, 24
    bzp = rng.integers(100, 150, size=cols)
    d = rng.integers(-delta, delta + 1, size=(k, cols))
    d[:, 0] = d0
    d[-1, 0] = 1
    d[:, 1] = -delta
    a = np.where(rng.random((40, k)) < 0.85, 255, rng.integers(0, 256, size=(40, k)))
    a[0], a[1] = 255, 0
    return a, bzp + d, bzp


def _qmm_constant_b(a, b, bzp):
    return QMM(a, "u8", np.array(0.5, f32), 0, b, "u8", np.full(b.shape[1], 2.0 ** -11, f32), bzp,
               np.array(64.0, f32), 128, "u8")


@case("qlinear-matmul")
def qmm_constant_b_small_columns(n):
    # |b - b_zp| <= 60, column 0 all +60: 255 * (1023 * 60 + 1) < 2^24, so
    # with b a constant (qlinear-matmul-constant-b.mlir) the epilogue
    # requantizes in f32; the sums reach ~1.57e7.
    a, b, bzp = _constant_b_columns(n, 60, 60)
    c = _qmm_constant_b(a, b, bzp)
    acc = a @ (b - bzp)
    assert 255 * np.abs(b - bzp).sum(0).max() <= 2 ** 24
    assert np.abs(acc).max() > 2 ** 23
    return c


@case("qlinear-matmul")
def qmm_constant_b_wide_columns(n):
    # Column 0 of b - b_zp all 101 (255 * 1024 * 101 > 2^24). Rows 2-39 of
    # a make that column's sums t +- 1 for ties t = j 2^18 + 2^17 of acc *
    # 2^-18 above 2^24, where f32(acc) (spacing 2) lands on the tie. The f32
    # epilogue would give other bytes there (asserted): the kernel must
    # requantize in f64 even with b a constant.
    a, b, bzp = _constant_b_columns(n, 60, 101)
    for row in range(2, 40):
        j = 64 + (row - 2) // 2
        target = j * 2 ** 18 + 2 ** 17 + (1 if row % 2 else -1)
        t = (target - 255) // 101 + 1  # sum of a over k < 1023
        a[row, :1023] = 0
        full, part = divmod(t, 255)
        a[row, :full] = 255
        a[row, full] = part
        a[row, 1023] = target - 101 * t
        assert 0 <= a[row, 1023] <= 255
    c = _qmm_constant_b(a, b, bzp)
    acc = a @ (b - bzp)
    assert acc[2:, 0].min() > 2 ** 24
    fast = _f32_path(acc, f32(0.5) * f32(2.0 ** -11) / f32(64.0), 128, 0, 255)
    assert np.count_nonzero(fast != c.outs[0].arr) >= 10
    return c


def _special_multipliers_qmm(n, k, bs_range):
    rng = rng_for(n)
    a = rng.integers(0, 256, size=(40, k))
    a[0] = 131
    b = rng.integers(-128, 128, size=(k, 16))
    bs = rng.uniform(*bs_range, size=16).astype(f32)
    bs[:8] = [np.nan, np.inf, -np.inf, 1e30, -1e30, 2.0 ** 32 * 40.0, 1e-45, 0.0]
    return QMM(a, "u8", np.array(0.025, f32), 131, b, "i8", bs, np.full(16, 3),
               np.array(40.0, f32), -7, "i8")


# ---- matmul-integer (MatMulInteger-10) ----
_MMI_LIM = {"u8": (0, 255), "i8": (-128, 127)}


def mmi_rand(name, at, bt, ashape, bshape, a_zp=None, b_zp=None, dyn=False):
    """Random MatMulInteger over the types' whole ranges. a_zp / b_zp: None
    (no zero point operand), an int (a rank-0 zero point of that value) or
    a shape (random zero points of that shape)."""
    rng = rng_for(name)

    def rand(t, shape):
        return rng.integers(_MMI_LIM[t][0], _MMI_LIM[t][1] + 1, size=shape)

    def zp(v, t):
        if v is None:
            return None
        return np.array(v) if isinstance(v, int) else rand(t, v)
    a, b = rand(at, ashape), rand(bt, bshape)
    return MMI(a, at, b, bt, zp(a_zp, at), zp(b_zp, bt), dyn)


# Every combination of u8 / i8 with nonzero rank-0 zero points (u8 a 131,
# i8 a -5, i8 b 7, u8 b 200); without zero points; with only one of them.
_MMI_ZP = {("a", "u8"): 131, ("a", "i8"): -5, ("b", "i8"): 7, ("b", "u8"): 200}
for _at in ("u8", "i8"):
    for _bt in ("u8", "i8"):
        add("matmul-integer", "mmi_%s_%s" % (_at, _bt),
            lambda n, a=_at, b=_bt: mmi_rand(n, a, b, (5, 9), (9, 6), _MMI_ZP["a", a], _MMI_ZP["b", b]))
add("matmul-integer", "mmi_no_zp", lambda n: mmi_rand(n, "u8", "i8", (5, 9), (9, 6)))
add("matmul-integer", "mmi_a_zp_only", lambda n: mmi_rand(n, "i8", "u8", (5, 9), (9, 6), a_zp=-77))
add("matmul-integer", "mmi_b_zp_only", lambda n: mmi_rand(n, "u8", "u8", (5, 9), (9, 6), b_zp=255))
# ONNX's test_matmulinteger (one-element zero points of shape [1])
add("matmul-integer", "mmi_onnx_example",
    lambda n: MMI([[11, 7, 3], [10, 6, 2], [9, 5, 1], [8, 4, 0]], "u8", [[1, 4], [2, 5], [3, 6]], "u8", [12], [0]))
# Per-row a zero points ([M]; [1, M, 1] and [B, M, 1] for a 3-D a), per-column
# b zero points ([N]; [1, N]; [B, 1, N] for a 3-D b), both per channel.
add("matmul-integer", "mmi_per_row_a_1d", lambda n: mmi_rand(n, "u8", "i8", (4, 10), (10, 5), a_zp=(4,)))
add("matmul-integer", "mmi_per_row_a_nd", lambda n: mmi_rand(n, "i8", "i8", (3, 4, 10), (10, 5), a_zp=(1, 4, 1)))
add("matmul-integer", "mmi_per_row_a_batch",
    lambda n: mmi_rand(n, "u8", "u8", (3, 4, 10), (3, 10, 5), a_zp=(3, 4, 1), b_zp=9))
add("matmul-integer", "mmi_per_col_b_1d", lambda n: mmi_rand(n, "u8", "u8", (4, 10), (10, 5), b_zp=(5,)))
add("matmul-integer", "mmi_per_col_b_2d", lambda n: mmi_rand(n, "i8", "i8", (4, 10), (10, 5), a_zp=3, b_zp=(1, 5)))
add("matmul-integer", "mmi_per_col_b_batch", lambda n: mmi_rand(n, "i8", "u8", (2, 4, 10), (2, 10, 5), b_zp=(2, 1, 5)))
add("matmul-integer", "mmi_per_channel",
    lambda n: mmi_rand(n, "u8", "i8", (6, 12), (12, 7), a_zp=(6,), b_zp=(7,)))
# numpy.matmul's 1-D operands and batch broadcasting, K = 1, N = 1
add("matmul-integer", "mmi_vec_a", lambda n: mmi_rand(n, "u8", "i8", (7,), (7, 5), a_zp=100, b_zp=(5,)))
add("matmul-integer", "mmi_vec_b", lambda n: mmi_rand(n, "i8", "u8", (3, 7), (7,), a_zp=(3,), b_zp=128))
add("matmul-integer", "mmi_vec_vec", lambda n: mmi_rand(n, "u8", "u8", (9,), (9,), a_zp=17, b_zp=250))
add("matmul-integer", "mmi_vec_a_batch_b", lambda n: mmi_rand(n, "i8", "i8", (7,), (2, 7, 5), b_zp=-3))
add("matmul-integer", "mmi_batch_broadcast",
    lambda n: mmi_rand(n, "u8", "i8", (2, 1, 5, 7), (3, 7, 4), a_zp=(5,), b_zp=(1, 1, 4)))
add("matmul-integer", "mmi_batch_a_2d", lambda n: mmi_rand(n, "u8", "u8", (3, 5), (4, 5, 6), a_zp=1, b_zp=2))
add("matmul-integer", "mmi_k1", lambda n: mmi_rand(n, "u8", "i8", (6, 1), (1, 5), a_zp=255, b_zp=-128))
add("matmul-integer", "mmi_n1", lambda n: mmi_rand(n, "i8", "u8", (5, 8), (8, 1), a_zp=(5,), b_zp=(1,)))
# A 3-D a with a shared 2-D b (the batched kernel), rows past the tiles.
add("matmul-integer", "mmi_batch_b_2d_3x20x33x37",
    lambda n: mmi_rand(n, "u8", "i8", (3, 20, 33), (33, 37), a_zp=(1, 20, 1), b_zp=(37,)))
# The int8 kernel's shapes: M = 7..64 (partial row tiles), N a multiple of
# neither 16 nor 32 (masked columns), odd K, K = 4096.
add("matmul-integer", "mmi_kernel_7x33x37", lambda n: mmi_rand(n, "u8", "i8", (7, 33), (33, 37), a_zp=131, b_zp=7))
add("matmul-integer", "mmi_kernel_13x64x45_per_channel",
    lambda n: mmi_rand(n, "i8", "u8", (13, 64), (64, 45), a_zp=(13,), b_zp=(45,)))
add("matmul-integer", "mmi_kernel_29x33x37_no_zp", lambda n: mmi_rand(n, "i8", "i8", (29, 33), (33, 37)))
add("matmul-integer", "mmi_kernel_64x33x37", lambda n: mmi_rand(n, "u8", "u8", (64, 33), (33, 37), a_zp=(64,), b_zp=200))
add("matmul-integer", "mmi_kernel_2x4096x40", lambda n: mmi_rand(n, "u8", "i8", (2, 4096), (4096, 40), a_zp=128, b_zp=(40,)))
add("matmul-integer", "mmi_kernel_9x4096x40", lambda n: mmi_rand(n, "i8", "i8", (9, 4096), (4096, 40), a_zp=-5))
# gemv shapes (at most 4 rows of a): M = 1 and M = 4, N = 300
add("matmul-integer", "mmi_gemv_1x64x300", lambda n: mmi_rand(n, "u8", "i8", (1, 64), (64, 300), a_zp=131, b_zp=(300,)))
add("matmul-integer", "mmi_gemv_4x33x300", lambda n: mmi_rand(n, "i8", "u8", (4, 33), (33, 300), a_zp=(4,), b_zp=200))


@case("matmul-integer")
def mmi_extreme_gemv(n):
    # a = 255 (a_zp 0) against b = -128 (column 0) and 127 (column 1), K =
    # 65536: sums -2139095040 and 2122383360, within int32; column 2 random.
    # Pairs of 255 * -128 overflow a 16-bit pair sum (VPMADDUBSW).
    k = 65536
    b = np.empty((k, 3), dtype=np.int64)
    b[:, 0], b[:, 1] = -128, 127
    b[:, 2] = rng_for(n).integers(-128, 128, size=k)
    return MMI(np.full((2, k), 255), "u8", b, "i8", np.array(0), np.array(0))


@case("matmul-integer")
def mmi_extreme_kernel(n):
    # (a - a_zp) = -128 - 127 = -255 in row 0 and (b - b_zp) = 0 - 255 = -255
    # in column 0: 65025 * 33025 = 2147450625, 33022 below 2^31 - 1; the
    # other rows and columns random. Five rows: the kernel, not the gemv.
    k = 33025
    rng = rng_for(n)
    a = rng.integers(-128, 128, size=(5, k))
    a[0] = -128
    b = rng.integers(0, 256, size=(k, 3))
    b[:, 0] = 0
    return MMI(a, "i8", b, "u8", np.array(127), np.array(255))


# Dynamic shapes: ?x? operands with a rank-0 a_zp and a ?-sized per-column
# b_zp; a batched one without zero points.
add("matmul-integer", "mmi_dyn", lambda n: mmi_rand(n, "u8", "i8", (6, 19), (19, 11), a_zp=131, b_zp=(11,), dyn=True))
add("matmul-integer", "mmi_dyn_batch", lambda n: mmi_rand(n, "i8", "u8", (2, 3, 8), (2, 8, 4), dyn=True))
add("matmul-integer", "mmi_dyn_40x33x37",
    lambda n: mmi_rand(n, "u8", "u8", (40, 33), (33, 37), a_zp=(40,), b_zp=(1, 37), dyn=True))


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


# ===========================================================================
# Float forms: float8 / float4 outputs and inputs, bf16 / f16 / e8m0 scales,
# precision, float8 QLinearMatMul. Expected values from qops_float_ref.py.
# ===========================================================================

F8 = fref.FLOAT8
F4 = fref.FLOAT4
E8M0 = fref.E8M0
_SHORT = {"f8E4M3FN": "e4m3fn", "f8E4M3FNUZ": "e4m3fnuz", "f8E5M2": "e5m2", "f8E5M2FNUZ": "e5m2fnuz",
          "f4E2M1FN": "f4"}


def enc(v, t):
    """Stored values of type t nearest to the float64 values v (saturating)."""
    v = np.asarray(v, np.float64)
    if t == "i32":
        return np.clip(np.rint(v), -2 ** 31, 2 ** 31 - 1).astype(np.int32)
    return fref.encode(v, t)


def FQ(x, xt, s, st, zp=None, yt="u8", axis=None, block_size=0, saturate=None, precision=None, dyn=False):
    """QuantizeLinear case of any type combination (x, scale and zero point
    given as stored arrays of the named types)."""
    x, s = np.asarray(x), np.asarray(s)
    y = fref.quantize_linear(x, xt, s, st, zp, yt, axis=axis, block_size=block_size,
                             saturate=True if saturate is None else saturate, precision=precision)
    ins = [Tensor(x, xt), Tensor(s, st)]
    if zp is not None:
        ins.append(Tensor(zp, yt))
    attrs = []
    if axis is not None:
        attrs.append(("axis", str(axis)))
    if block_size:
        attrs.append(("block_size", str(block_size)))
    if saturate is not None:
        attrs.append(("saturate", "true" if saturate else "false"))
    if zp is None:
        attrs.append(("output_dtype", IR_NAME[yt]))
    if precision:
        attrs.append(("precision", precision))
    keep = (ref._norm_axis(axis, x.ndim),) if block_size else ()
    return Case("quantize", ins, [Tensor(y, yt)], attrs, dyn, keep)


def FDQ(x, xt, s, st, zp=None, axis=None, block_size=0, yt=None, dyn=False):
    x, s = np.asarray(x), np.asarray(s)
    y = fref.dequantize_linear(x, xt, s, st, zp, axis=axis, block_size=block_size, yt=yt)
    ins = [Tensor(x, xt), Tensor(s, st)]
    if zp is not None:
        ins.append(Tensor(zp, xt))
    attrs = []
    if axis is not None:
        attrs.append(("axis", str(axis)))
    if block_size:
        attrs.append(("block_size", str(block_size)))
    if yt:
        attrs.append(("output_dtype", yt))
    keep = (ref._norm_axis(axis, x.ndim),) if block_size else ()
    return Case("dequantize", ins, [Tensor(y, yt or st)], attrs, dyn, keep)


def FQMM(a, at, as_, azp, b, bt, bs, bzp, ys, yzp, yt, st):
    y = fref.qlinear_matmul(a, at, as_, azp, b, bt, bs, bzp, ys, yzp, yt, st)
    ins = [Tensor(a, at), Tensor(as_, st), Tensor(azp, at), Tensor(b, bt), Tensor(bs, st), Tensor(bzp, bt),
           Tensor(ys, st), Tensor(yzp, yt)]
    return Case("qmatmul", ins, [Tensor(y, yt)])


def pshape_of(shape, axis, block_size, per_tensor_shape=()):
    if block_size:
        ax = ref._norm_axis(axis, len(shape))
        p = list(shape)
        p[ax] = -(-shape[ax] // block_size)
        return tuple(p)
    if axis is not None:
        return (shape[ref._norm_axis(axis, len(shape))],)
    return per_tensor_shape


def small_values(name):
    """Positive finite values of a float8/float4 type, ascending (float64)."""
    t = fref.decode_table(name)
    return np.unique(np.abs(t[np.isfinite(t)]))


def f8_points(name):
    """Every finite value, every midpoint, the step past max (where saturate=0
    starts to overflow) and its midpoint, twice that, tiny values."""
    fmt = fref.ffr.get_format(name)
    vals = [float(v) for v in fmt.values]  # includes the step past max
    pts = vals + [(a + b) / 2 for a, b in zip(vals, vals[1:])]
    pts += [2 * vals[-1], vals[1] / 4, vals[1] / 2, vals[1] * 3 / 4]
    return np.array(pts, np.float64)


def edge_x(name):
    """f32 edge values for a small-float type: the points and their f32
    neighbours, both signs, +-0, +-Inf, +-NaN, huge and f32-subnormal values."""
    p = f8_points(name).astype(f32)
    pos = np.concatenate([p, np.nextafter(p, f32(np.inf)), np.nextafter(p, f32(0)),
                          np.array([1e30, 3.4e38, 1e-45, 1e-30, 1e-8], f32)])
    pos = np.unique(pos)
    x = np.concatenate([pos, -pos, np.array([np.inf, -np.inf, np.nan, -np.nan], f32)])
    return x.astype(f32)


def small_quotients(rng, n, name, over=2.0, special=0.25):
    """Signed values for a small-float type: log-uniform over its range (from
    a quarter of the smallest subnormal to `over` x max), a fraction exactly on
    values and midpoints."""
    vals = small_values(name)
    pos = vals[vals > 0]
    mag = 2.0 ** rng.uniform(np.log2(pos[0]) - 2, np.log2(pos[-1] * over), n)
    cand = np.concatenate([vals, (vals[:-1] + vals[1:]) / 2])
    mag = np.where(rng.random(n) < special, cand[rng.integers(0, len(cand), n)], mag)
    return np.where(rng.random(n) < 0.5, -mag, mag)


def float_scales(rng, shape, st):
    if st == E8M0:
        return rng.integers(115, 135, size=shape).astype(np.uint8)  # 2^-12 .. 2^7
    return enc(scales(rng, shape, np.float64), st)


def fq_rand(name, shape, yt, xt="f32", st="f32", axis=None, block_size=0, saturate=None, precision=None,
            zp=False, dyn=False, per_tensor_shape=(), over=2.0, post=None):
    """Random QuantizeLinear case for a float8/float4 (or integer) output;
    post(x, s) may adjust the data before the expected values are computed."""
    rng = rng_for(name)
    pshape = pshape_of(shape, axis, block_size, per_tensor_shape)
    s = float_scales(rng, pshape, st)
    s_b = ref.broadcast_param(fref.decode(s, st), shape, axis, block_size)
    n = int(np.prod(shape))
    z = None
    if yt in fref.SMALL:
        q = small_quotients(rng, n, yt, over).reshape(shape)
        if zp:
            z = np.zeros(pshape, np.uint8)
            if yt == F4:
                z = rng.integers(0, 16, size=pshape).astype(np.uint8)
    else:
        lo, hi, npdt = ref.QTYPES[yt]
        zi = zps(rng, pshape, yt)
        zb = ref.broadcast_param(zi, shape, axis, block_size)
        q = rng.uniform(lo - 3, hi + 3, size=shape) - zb
        q = np.where(rng.random(shape) < 0.2, np.floor(q) + 0.5, q)
        if zp:
            z = zi.astype(npdt)
    x = enc(q * s_b, xt)
    if post:
        x, s = post(x, s)
    return FQ(x, xt, s, st, z, yt, axis, block_size, saturate, precision, dyn)


def differs(case, other):
    """The case's expected output differs from an alternative semantics."""
    return alt_differs(case, other)


# ---- float8-quantize: edge values, every float8 type x saturate ----
for _t in F8:
    for _sat in (1, 0):
        def _edges(n, t=_t, sat=_sat):
            x = edge_x(t)
            s = 1.0 if sat else 0.25  # exact divisions
            with np.errstate(over="ignore"):
                xs = (x.astype(np.float64) * s).astype(f32)
            return FQ(xs, "f32", np.array(s, f32), "f32", None, t, saturate=bool(sat) if not sat else None)
        add("float8-quantize", "f8q_edges_%s_sat%d" % (_SHORT[_t], _sat), _edges)


@case("float8-quantize")
def f8q_edges_e4m3fn_sat1_explicit_zp(n):
    # saturate = true spelled out, a float8 zero point 0 (ignored: -0 stays -0)
    x = edge_x("f8E4M3FN")
    return FQ(x, "f32", np.array(1.0, f32), "f32", np.array(0, np.uint8), "f8E4M3FN", saturate=True)


# ---- float8-quantize: granularity, x / scale types, precision ----
add("float8-quantize", "f8q_per_axis_e4m3fn_sat0_zp",
    lambda n: fq_rand(n, (5, 40), "f8E4M3FN", axis=0, saturate=False, zp=True))
add("float8-quantize", "f8q_per_axis_neg1_e5m2fnuz",
    lambda n: fq_rand(n, (3, 4, 6), "f8E5M2FNUZ", axis=-1))
add("float8-quantize", "f8q_blocked_partial_e5m2_sat0",
    lambda n: fq_rand(n, (4, 70), "f8E5M2", axis=1, block_size=32, saturate=False))
add("float8-quantize", "f8q_blocked_axis0_e4m3fnuz_zp",
    lambda n: fq_rand(n, (37, 3), "f8E4M3FNUZ", axis=0, block_size=8, zp=True))
add("float8-quantize", "f8q_per_tensor_shape1_e5m2fnuz_sat0",
    lambda n: fq_rand(n, (50,), "f8E5M2FNUZ", saturate=False, per_tensor_shape=(1,)))
add("float8-quantize", "f8q_dyn_e4m3fn", lambda n: fq_rand(n, (6, 11), "f8E4M3FN", axis=1, dyn=True))
add("float8-quantize", "f8q_rank0_e5m2",
    lambda n: FQ(np.array(-61440.0, f32), "f32", np.array(1.0, f32), "f32", None, "f8E5M2", saturate=False))


@case("float8-quantize")
def f8q_x_f16_scale_f16_e4m3fn(n):
    # the division is in f16: the quotient is rounded to f16, then to float8
    c = fq_rand(n, (64,), "f8E4M3FN", xt="f16", st="f16")
    x, s = c.ins[0].arr, c.ins[1].arr
    return differs(c, fref.quantize_linear(x, "f16", s, "f16", yt="f8E4M3FN", precision="f32"))


@case("float8-quantize")
def f8q_x_bf16_scale_bf16_e5m2_sat0(n):
    c = fq_rand(n, (80,), "f8E5M2", xt="bf16", st="bf16", saturate=False)
    x, s = c.ins[0].arr, c.ins[1].arr
    return differs(c, fref.quantize_linear(x, "bf16", s, "bf16", yt="f8E5M2", saturate=False, precision="f32"))


@case("float8-quantize")
def f8q_x_f32_scale_bf16_e4m3fnuz(n):
    # D = bf16: the f32 x is rounded to bf16 before the division. Column 0
    # (scale 0.5): q = 1.0625 (1 + 2^-10) is above the e4m3 midpoint in f32
    # (-> 1.125) but a tie in bf16 (-> 1.0)
    def post(x, s):
        s[0] = enc(0.5, "bf16")
        x[:, 0] = [1.0625 * (1 + 2.0 ** -10) * 0.5, -1.0625 * (1 + 2.0 ** -10) * 0.5, 1.1875 * 0.5]
        return x, s
    c = fq_rand(n, (3, 30), "f8E4M3FNUZ", st="bf16", axis=1, post=post)
    x, s = c.ins[0].arr, c.ins[1].arr
    return differs(c, fref.quantize_linear(x, "f32", s, "bf16", yt="f8E4M3FNUZ", axis=1, precision="f32"))


@case("float8-quantize")
def f8q_precision_f32_scale_f16_e5m2fnuz(n):
    # x = 1.125 + 2^-14 (scale 1): above the e5m2 midpoint in f32, a tie in f16
    def post(x, s):
        x[:4] = [1.125 + 2.0 ** -14, -1.125 - 2.0 ** -14, 1.125, 3.5 - 2.0 ** -13]
        return x, enc(1.0, "f16")
    c = fq_rand(n, (64,), "f8E5M2FNUZ", st="f16", precision="f32", post=post)
    x, s = c.ins[0].arr, c.ins[1].arr
    return differs(c, fref.quantize_linear(x, "f32", s, "f16", yt="f8E5M2FNUZ"))


@case("float8-quantize")
def f8q_precision_bf16_scale_f32_e4m3fn_sat0(n):
    c = fq_rand(n, (64,), "f8E4M3FN", precision="bf16", saturate=False)
    x, s = c.ins[0].arr, c.ins[1].arr
    return differs(c, fref.quantize_linear(x, "f32", s, "f32", yt="f8E4M3FN", saturate=False))


@case("discrepancy-bf16-to-f16")
def f8q_precision_f16_x_bf16_e5m2(n):
    # bf16 x and scale, division in f16 (x / scale rounded to f16; f16 overflow -> Inf -> max)
    c = fq_rand(n, (2, 40), "f8E5M2", xt="bf16", st="bf16", axis=0, precision="f16")
    x, s = c.ins[0].arr, c.ins[1].arr
    return differs(c, fref.quantize_linear(x, "bf16", s, "bf16", yt="f8E5M2", axis=0))


@case("float8-quantize")
def f8q_nan_sign_precision(n):
    # NaN keeps its sign through f16 / bf16 division types (E4M3FN 0x7F / 0xFF)
    x = np.array([np.nan, -np.nan, np.inf, -np.inf, 1e6, -1e6, -0.0, 0.0], f32)
    return FQ(x, "f32", np.array(2.0, f32), "f32", None, "f8E4M3FN", saturate=False, precision="bf16")


@case("float8-quantize")
def f8q_x_i32_e4m3fn_sat0(n):
    x = np.array([0, 1, -1, 3, 5, 17, -17, 448, 464, 465, -465, 480, 1000, 2 ** 31 - 1, -2 ** 31,
                  2 ** 24 + 1, 9, 11, 13], np.int32)
    return FQ(x, "i32", np.array(1.0, f32), "f32", None, "f8E4M3FN", saturate=False)


@case("float8-quantize")
def f8q_zero_scale_fnuz(n):
    # x / 0 = +-Inf (saturates), 0 / 0 = NaN (0x80 whatever its sign)
    x = np.array([[1.0, -1.0, 0.0, -0.0, np.nan], [1.0, -1.0, 0.0, -0.0, 3.0]], f32)
    return FQ(x, "f32", np.array([0.0, -0.0], f32), "f32", None, "f8E4M3FNUZ", axis=0)


# ---- float4 ----
@case("float8-quantize")
def f4q_edges_no_zp(n):
    return FQ(edge_x(F4), "f32", np.array(1.0, f32), "f32", None, F4)


@case("float8-quantize")
def f4q_edges_zp_zero(n):
    # -0 + (+0) = +0; negative values that round to 0 keep -0
    return FQ(edge_x(F4), "f32", np.array(1.0, f32), "f32", np.array(0, np.uint8), F4)


@case("float8-quantize")
def f4q_edges_zp_neg1_5(n):
    return FQ(edge_x(F4), "f32", np.array(1.0, f32), "f32", np.array([0xB], np.uint8), F4)  # zp -1.5


@case("float8-quantize")
def f4q_per_axis_zp(n):
    # zero points +1.5, -1, +0, -0, 6 per row; q + zp rounded to float4 (ties included)
    rng = rng_for(n)
    zp = np.array([0x3, 0xA, 0x0, 0x8, 0x7], np.uint8)
    s = np.array([0.5, 2.0, 1.0, 0.25, 3.0], f32)
    q = np.concatenate([small_quotients(rng, 5 * 30, F4, over=1.5).reshape(5, 30),
                        np.tile(np.array([-0.0, 0.0, 0.25, -0.25, 0.75, 2.5, -5.0]), (5, 1))], axis=1)
    x = enc(q * s.reshape(5, 1), "f32")
    return FQ(x, "f32", s, "f32", zp, F4, axis=0)


@case("float8-quantize")
def f4q_f16_zp(n):
    # D = f16: x / scale and + zp both rounded to f16
    return fq_rand(n, (4, 25), F4, xt="f16", st="f16", axis=0, zp=True)


@case("float8-quantize")
def f4q_bf16_precision_blocked_zp(n):
    c = fq_rand(n, (3, 50), F4, xt="bf16", st="f32", axis=1, block_size=16, precision="bf16", zp=True)
    x, s, z = c.ins[0].arr, c.ins[1].arr, c.ins[2].arr
    return differs(c, fref.quantize_linear(x, "bf16", s, "f32", z, F4, axis=1, block_size=16))


# ---- e8m0 scales (MX blocks) ----
def _mx_scales(rng, pshape, special=(0x00, 0xFE, 0x7F)):
    s = rng.integers(118, 136, size=pshape).astype(np.uint8)
    flat = s.reshape(-1)
    flat[:len(special)] = special
    return s


@case("float8-quantize")
def f8q_mx_e4m3fn_e8m0(n):
    # MX: block 32 along the last axis, e8m0 scales incl. 2^-127 (0x00, x * 2^127 overflows) and
    # 2^127 (0xFE, underflows to +-0); last block partial
    rng = rng_for(n)
    s = _mx_scales(rng, (3, 3))
    sb = ref.broadcast_param(fref.decode(s, E8M0), (3, 80), 1, 32)
    x = enc(small_quotients(rng, 240, "f8E4M3FN").reshape(3, 80) * sb, "f32")
    x[0, :4] = [1.0, -1.0, 1e-38, -0.0]
    return FQ(x, "f32", s, E8M0, None, "f8E4M3FN", axis=1, block_size=32)


@case("float8-quantize")
def f8q_mx_e5m2_e8m0_sat0(n):
    rng = rng_for(n)
    s = _mx_scales(rng, (2, 2))
    sb = ref.broadcast_param(fref.decode(s, E8M0), (2, 64), 1, 32)
    x = enc(small_quotients(rng, 128, "f8E5M2").reshape(2, 64) * sb, "f32")
    return FQ(x, "f32", s, E8M0, None, "f8E5M2", axis=1, block_size=32, saturate=False)


@case("float8-quantize")
def f8q_e8m0_nan_scale_fnuz(n):
    # scale 0xFF is NaN: x / NaN = NaN -> 0x80 (FNUZ has one NaN)
    x = np.array([[1.0, -2.0, 0.0, np.inf], [1.0, -2.0, 0.0, np.inf], [300.0, -1e-3, 0.0, -np.inf]], f32)
    return FQ(x, "f32", np.array([0xFF, 0x7F, 0x85], np.uint8), E8M0, None, "f8E5M2FNUZ", axis=0)


@case("float8-quantize")
def f4q_mx_e8m0(n):
    rng = rng_for(n)
    s = _mx_scales(rng, (4, 3), special=(0x00, 0xFE, 0xFF, 0x7F))
    sb = ref.broadcast_param(fref.decode(s, E8M0), (4, 70), 1, 32)
    with np.errstate(invalid="ignore"):
        x = enc(small_quotients(rng, 280, F4).reshape(4, 70) * np.nan_to_num(sb, nan=1.0), "f32")
    return FQ(x, "f32", s, E8M0, None, F4, axis=1, block_size=32)


# ---- bulk ----
add("float8-quantize", "f8q_bulk_e4m3fn_sat0_per_axis",
    lambda n: fq_rand(n, (1000, 100), "f8E4M3FN", axis=1, saturate=False))
add("float8-quantize", "f8q_bulk_e5m2fnuz_bf16_blocked",
    lambda n: fq_rand(n, (200, 500), "f8E5M2FNUZ", xt="bf16", st="bf16", axis=1, block_size=64))
add("float8-quantize", "f4q_bulk_mx_zp",
    lambda n: fq_rand(n, (400, 256), F4, st=E8M0, axis=1, block_size=32, zp=True))


# ---- float8-dequantize: every code of every type, to f32 / f16 / bf16 ----
def _all_codes(t):
    return np.arange(16 if t == F4 else 256, dtype=np.uint8)


_DQ_SCALE = {"f32": 0.3, "f16": 1.7, "bf16": 0.3}  # f16: 57344 * 1.7 overflows f16
for _t in F8 + (F4,):
    for _o in ("f32", "f16", "bf16"):
        add("float8-dequantize", "dq_codes_%s_%s" % (_SHORT[_t], _o),
            lambda n, t=_t, o=_o: FDQ(_all_codes(t), t, enc(_DQ_SCALE[o], o), o))


@case("float8-dequantize")
def dq_codes_e4m3fn_f32_scale_to_bf16(n):
    return FDQ(_all_codes("f8E4M3FN"), "f8E4M3FN", np.array(0.7, f32), "f32", yt="bf16")


@case("float8-dequantize")
def dq_codes_e5m2fnuz_bf16_scale_to_f16(n):
    return FDQ(_all_codes("f8E5M2FNUZ"), "f8E5M2FNUZ", enc(0.77, "bf16"), "bf16", yt="f16")


@case("float8-dequantize")
def dq_codes_f4_f16_scale_to_f32(n):
    return FDQ(_all_codes(F4), F4, enc(0.1, "f16"), "f16", yt="f32")


@case("discrepancy-bf16-subnormal")
def dq_subnormal_products_bf16(n):
    # f32 subnormal products, rounded to bf16 (grid 2^-133): some to 0
    x = np.tile(_all_codes("f8E4M3FN").reshape(1, 256), (2, 1))
    return FDQ(x, "f8E4M3FN", np.array([3e-39, 1.1e-36], f32), "f32", axis=0, yt="bf16")


@case("float8-dequantize")
def dq_per_axis_e4m3fnuz_zp(n):
    rng = rng_for(n)
    x = rng.integers(0, 256, size=(6, 5)).astype(np.uint8)
    return FDQ(x, "f8E4M3FNUZ", enc(rng.uniform(0.01, 5, 5), "f32"), "f32", np.zeros(5, np.uint8), axis=1)


@case("float8-dequantize")
def dq_blocked_partial_e5m2_f16(n):
    rng = rng_for(n)
    x = rng.integers(0, 256, size=(3, 70)).astype(np.uint8)
    return FDQ(x, "f8E5M2", enc(rng.uniform(0.01, 3, (3, 3)), "f16"), "f16", axis=1, block_size=32)


@case("float8-dequantize")
def dq_f4_zp_per_axis(n):
    # float4 x - zp (exact in f32), zero points +1.5, -1, -0, 6
    x = np.tile(_all_codes(F4).reshape(1, 16), (4, 1))
    return FDQ(x, F4, np.array([1.0, 0.3, 2.0, 1.7], f32), "f32", np.array([0x3, 0xA, 0x8, 0x7], np.uint8),
               axis=0)


@case("float8-dequantize")
def dq_f4_zp_blocked_bf16(n):
    rng = rng_for(n)
    x = rng.integers(0, 16, size=(2, 40)).astype(np.uint8)
    return FDQ(x, F4, enc(rng.uniform(0.1, 3, (2, 3)), "bf16"), "bf16",
               rng.integers(0, 16, size=(2, 3)).astype(np.uint8), axis=1, block_size=16)


@case("float8-dequantize")
def dq_mx_e4m3fn_e8m0_bf16(n):
    # scales >= 2^-117 keep every product a normal f32 (bf16 rounding of f32
    # subnormals: see regressions/)
    rng = rng_for(n)
    x = rng.integers(0, 256, size=(3, 80)).astype(np.uint8)
    s = _mx_scales(rng, (3, 3), special=(0x0A, 0xFE, 0xFF, 0x7F, 0x0B, 0xFD))
    return FDQ(x, "f8E4M3FN", s, E8M0, axis=1, block_size=32, yt="bf16")


@case("float8-dequantize")
def dq_mx_f4_e8m0_f32(n):
    rng = rng_for(n)
    x = rng.integers(0, 16, size=(4, 70)).astype(np.uint8)
    s = _mx_scales(rng, (4, 3), special=(0x00, 0xFE, 0xFF, 0x7F))
    return FDQ(x, F4, s, E8M0, axis=1, block_size=32, yt="f32")


@case("float8-dequantize")
def dq_mx_e5m2_e8m0_f16(n):
    # f16 output: products beyond 65504 -> Inf, below 2^-24 -> 0, subnormals
    rng = rng_for(n)
    x = rng.integers(0, 256, size=(64, 4)).astype(np.uint8)
    s = np.array([[0x70, 0x85, 0x60, 0xFF], [0x8E, 0x67, 0x7F, 0x01]], np.uint8)
    return FDQ(x, "f8E5M2", s, E8M0, axis=0, block_size=32, yt="f16")


@case("float8-dequantize")
def dq_dyn_e4m3fn(n):
    rng = rng_for(n)
    x = rng.integers(0, 256, size=(5, 9)).astype(np.uint8)
    return FDQ(x, "f8E4M3FN", enc(rng.uniform(0.1, 2, 9), "f32"), "f32", axis=1, dyn=True)


add("float8-dequantize", "dq_bulk_e5m2_bf16",
    lambda n: FDQ(rng_for(n).integers(0, 256, size=(500, 200)).astype(np.uint8), "f8E5M2",
                  enc(rng_for(n + "s").uniform(0.001, 10, 200), "bf16"), "bf16", axis=1))


# ---- float-scales: integer forms with bf16 / f16 / e8m0 scales, precision ----
@case("float-scales")
def q_bf16_x_bf16_scale_u8(n):
    c = fq_rand(n, (70,), "u8", xt="bf16", st="bf16", zp=True)
    x, s, z = c.ins[0].arr, c.ins[1].arr, c.ins[2].arr
    return differs(c, fref.quantize_linear(x, "bf16", s, "bf16", z, "u8", precision="f32"))


@case("float-scales")
def q_bf16_specials_i8(n):
    # NaN -> zero point, +-Inf saturate, -0 -> zero point, ties to even in bf16
    x = np.concatenate([enc([np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0, 3e38, -3e38], "bf16"),
                        enc(np.arange(-20, 21) + 0.5, "bf16")])
    return FQ(x, "bf16", enc(0.5, "bf16"), "bf16", np.array(-3, np.int8), "i8")


@case("float-scales")
def q_f32_x_bf16_scale_per_axis_i8(n):
    c = fq_rand(n, (4, 16), "i8", st="bf16", axis=0, zp=True)
    x, s, z = c.ins[0].arr, c.ins[1].arr, c.ins[2].arr
    return differs(c, fref.quantize_linear(x, "f32", s, "bf16", z, "i8", axis=0, precision="f32"))


@case("float-scales")
def q_bf16_x_f32_scale_i16(n):
    return fq_rand(n, (60,), "i16", xt="bf16", st="f32", zp=True)


@case("float-scales")
def q_precision_bf16_scale_f32_u16(n):
    c = fq_rand(n, (64,), "u16", precision="bf16", zp=True)
    x, s, z = c.ins[0].arr, c.ins[1].arr, c.ins[2].arr
    return differs(c, fref.quantize_linear(x, "f32", s, "f32", z, "u16"))


@case("discrepancy-bf16-to-f16")
def q_precision_f16_x_bf16_blocked_i4(n):
    return fq_rand(n, (3, 40), "i4", xt="bf16", st="bf16", axis=1, block_size=16, precision="f16", zp=True)


@case("float-scales")
def q_precision_f32_bf16_scale_i8(n):
    c = fq_rand(n, (64,), "i8", xt="bf16", st="bf16", precision="f32", zp=True)
    x, s, z = c.ins[0].arr, c.ins[1].arr, c.ins[2].arr
    return differs(c, fref.quantize_linear(x, "bf16", s, "bf16", z, "i8"))


@case("discrepancy-i32-to-bf16")
def q_i32_x_bf16_scale_i16(n):
    # int32 -> bf16 must be one rounding: 2^24 + 2^16 + 1 is above the bf16
    # midpoint 2^24 + 2^16 (-> 2^24 + 2^17); via f32 it would become the
    # midpoint and then round to even (2^24)
    x = np.array([2 ** 24 + 2 ** 16 + 1, -(2 ** 24 + 2 ** 16 + 1), 2 ** 24 + 2 ** 16, 2 ** 24 + 3 * 2 ** 16 - 1,
                  2 ** 28 + 2 ** 20 + 3, 2 ** 31 - 1, -2 ** 31, 255, 257, 1, -1, 0], np.int32)
    return FQ(x, "i32", enc(2.0 ** 14, "bf16"), "bf16", np.array(0, np.int16), "i16")


@case("float-scales")
def q_e8m0_blocked_i4(n):
    rng = rng_for(n)
    s = _mx_scales(rng, (4, 3), special=(0x00, 0xFE, 0xFF, 0x7F))
    z = rng.integers(-8, 8, size=(4, 3)).astype(np.int8)
    sb = np.nan_to_num(ref.broadcast_param(fref.decode(s, E8M0), (4, 70), 1, 32), nan=1.0)
    x = enc(rng.uniform(-12, 12, size=(4, 70)) * sb, "f32")
    x[:, :3] = [1.0, -1.0, 0.0]
    return FQ(x, "f32", s, E8M0, z, "i4", axis=1, block_size=32)


@case("float-scales")
def q_e8m0_precision_bf16_i8(n):
    x = np.array([[1.0, -1.0, 0.0, 2e-38], [3.0, 200.0, -7.5, 1e30], [1e38, 0.0, -1.0, 2.0 ** -120]], f32)
    return FQ(x, "f32", np.array([0x00, 0x7E, 0xFE], np.uint8), E8M0, np.array([1, 2, 3], np.int8), "i8",
              axis=0, precision="bf16")


@case("float-scales")
def q_e8m0_precision_f16_u8(n):
    # e8m0 -> f16: 2^-127 -> 0 (x / 0 = +-Inf saturates, 0 / 0 -> zero point), 2^16 and 2^127 -> Inf
    x = np.tile(np.array([1.0, -1.0, 0.0, 600.0, 65504.0, 1e5], f32), (6, 1))
    s = np.array([0x00, 0x70, 0x7F, 0x8F, 0xFE, 0xFF], np.uint8)
    return FQ(x, "f32", s, E8M0, np.array([10, 20, 30, 40, 50, 60], np.uint8), "u8", axis=0, precision="f16")


@case("float-scales")
def dq_bf16_scale_i8(n):
    rng = rng_for(n)
    x = rng.integers(-128, 128, size=(3, 20)).astype(np.int8)
    return FDQ(x, "i8", enc(rng.uniform(0.001, 3, 3), "bf16"), "bf16", rng.integers(-5, 5, 3).astype(np.int8),
               axis=0)


@case("float-scales")
def dq_f16_scale_u8_to_bf16(n):
    rng = rng_for(n)
    x = rng.integers(0, 256, size=50).astype(np.uint8)
    return FDQ(x, "u8", enc(0.0123, "f16"), "f16", np.array(77, np.uint8), yt="bf16")


@case("float-scales")
def dq_e8m0_i4_blocked_bf16(n):
    rng = rng_for(n)
    x = rng.integers(-8, 8, size=(3, 70)).astype(np.int8)
    s = _mx_scales(rng, (3, 3), special=(0x02, 0xFE, 0xFF, 0x7F))  # 2^-125: products stay normal
    return FDQ(x, "i4", s, E8M0, rng.integers(-8, 8, (3, 3)).astype(np.int8), axis=1, block_size=32, yt="bf16")


@case("float-scales")
def dq_e8m0_u8_f16(n):
    x = np.tile(np.array([0, 1, 2, 127, 128, 200, 255], np.uint8), (5, 1))
    return FDQ(x, "u8", np.array([0x00, 0x67, 0x8E, 0xFE, 0xFF], np.uint8), E8M0, np.array([128] * 5, np.uint8),
               axis=0, yt="f16")


@case("float-scales")
def dq_i32_bf16_scale(n):
    x = np.array([2 ** 31 - 1, -2 ** 31, 2 ** 24 + 1, 123456789, -7, 0], np.int32)
    return FDQ(x, "i32", enc(1.5, "bf16"), "bf16")


add("float-scales", "q_bulk_bf16_per_axis_i8",
    lambda n: fq_rand(n, (1000, 100), "i8", xt="bf16", st="bf16", axis=1, zp=True))


@case("float-scales")
def q_i32_x_bf16_scale_small_i16(n):
    # |x| < 2^24: every int32 is exact in f32, one rounding to bf16 either way
    x = np.array([255, 257, 259, 511, 513, -515, 4095, 4097, 65537, -65539, 2 ** 24 - 1, 1, -1, 0], np.int32)
    return FQ(x, "i32", enc(2.0 ** 4, "bf16"), "bf16", np.array(0, np.int16), "i16")


# ---- regressions (regressions/): cases that found compiler bugs ----
@case("discrepancy-bf16-subnormal")
def dq_mx_e4m3fn_e8m0_bf16_tiny_scales(n):
    # e8m0 2^-127 and 2^-126: f32 subnormal products, rounded to bf16
    rng = rng_for(n)
    x = rng.integers(0, 256, size=(2, 64)).astype(np.uint8)
    return FDQ(x, "f8E4M3FN", np.array([[0x00, 0x01], [0x01, 0x00]], np.uint8), E8M0, axis=1, block_size=32,
               yt="bf16")


@case("discrepancy-bf16-subnormal")
def dq_e8m0_i4_bf16_tiny_scale(n):
    x = np.arange(-8, 8, dtype=np.int8).reshape(1, 16)
    return FDQ(x, "i4", np.array([[0x00]], np.uint8), E8M0, np.array([[0]], np.int8), axis=1, block_size=16,
               yt="bf16")


@case("discrepancy-bf16-subnormal")
def q_precision_bf16_subnormal_x_i8(n):
    # f32 subnormal x rounded to bf16 (division type), then / 2^-127
    x = np.array([1e-38, -1e-38, 3e-39, 5.877472e-39, 1e-40, 1.1754942e-38], f32)
    return FQ(x, "f32", np.array(0x00, np.uint8), E8M0, np.array(1, np.int8), "i8", precision="bf16")


@case("discrepancy-scale1-zp0")
def q_scale_shape1_zp_scalar_i8(n):
    # per-tensor scale of shape [1] with a rank-0 zero point (both per-tensor, SPEC.md)
    x = np.array([0.0, 1.0, -2.5, 300.0], f32)
    return FQ(x, "f32", np.array([0.5], f32), "f32", np.array(3, np.int8), "i8")


@case("discrepancy-scale1-zp0")
def dq_scale_shape1_zp_scalar_u8(n):
    x = np.array([0, 1, 128, 255], np.uint8)
    return FDQ(x, "u8", np.array([0.5], f32), "f32", np.array(128, np.uint8))

# ---- float8-qlinear-matmul ----
_YMAX = {"u8": 255.0, "i8": 127.0}


def f8_codes(rng, shape, t, maxmag=None):
    """Random finite values of a float8 type (codes) or int8 / uint8."""
    if t in ("u8", "i8"):
        lo, hi, npdt = ref.QTYPES[t]
        return rng.integers(lo, hi + 1, size=shape).astype(npdt)
    table = fref.decode_table(t)
    ok = np.isfinite(table)
    if maxmag is not None:
        ok &= np.abs(table) <= maxmag
    return rng.choice(np.nonzero(ok)[0], size=shape).astype(np.uint8)


def qmm_f8(name, at, bt, yt, ashape, bshape, a_par=(), b_par=(), y_par=(), st="f32", zp=True, sat_q=0.9):
    """Random float8 QLinearMatMul; y_scale is fitted so that about 10% of
    the outputs saturate."""
    rng = rng_for(name)
    a = f8_codes(rng, ashape, at)
    b = f8_codes(rng, bshape, bt)

    def zero_point(t, shape):
        if t in ("u8", "i8"):
            mid = 128 if t == "u8" else 0
            return (mid + rng.integers(-30, 31, size=shape) * (1 if zp else 0)).astype(ref.QTYPES[t][2])
        if not zp:
            return np.zeros(shape, np.uint8)
        return f8_codes(rng, shape, t, maxmag=2.0)

    azp, bzp = zero_point(at, a_par), zero_point(bt, b_par)
    as_ = enc(rng.uniform(0.25, 4, size=a_par), st)
    bs = enc(rng.uniform(0.25, 4, size=b_par), st)
    A = fref.decode(a.reshape(1, -1) if a.ndim == 1 else a, at) - fref._frame(fref.decode(azp, at), "a")
    B = fref.decode(b.reshape(-1, 1) if b.ndim == 1 else b, bt) - fref._frame(fref.decode(bzp, bt), "b")
    real = np.abs(np.matmul(A, B) * fref._frame(fref.decode(as_, st), "a") * fref._frame(fref.decode(bs, st), "b"))
    ymax = _YMAX[yt] if yt in _YMAX else float(small_values(yt)[-1])
    base = float(np.quantile(real, sat_q)) / (0.9 * ymax) or 1.0
    ys = enc(base * rng.uniform(0.85, 1.15, size=y_par), st)
    if yt in ("u8", "i8"):
        yzp = zero_point(yt, y_par)
    else:
        yzp = f8_codes(rng, y_par, yt, maxmag=4.0) if zp else np.zeros(y_par, np.uint8)
    return FQMM(a, at, as_, azp, b, bt, bs, bzp, ys, yzp, yt, st)


for _t in F8:
    add("float8-qlinear-matmul", "qmm_f8_all_%s" % _SHORT[_t],
        lambda n, t=_t: qmm_f8(n, t, t, t, (5, 12), (12, 7)))
add("float8-qlinear-matmul", "qmm_f8_e4m3fn_i8_to_u8", lambda n: qmm_f8(n, "f8E4M3FN", "i8", "u8", (4, 16), (16, 6)))
add("float8-qlinear-matmul", "qmm_f8_u8_e5m2_to_e4m3fnuz",
    lambda n: qmm_f8(n, "u8", "f8E5M2", "f8E4M3FNUZ", (6, 10), (10, 5)))
add("float8-qlinear-matmul", "qmm_f8_i8_i8_to_e5m2", lambda n: qmm_f8(n, "i8", "i8", "f8E5M2", (3, 20), (20, 4)))
add("float8-qlinear-matmul", "qmm_f8_e5m2fnuz_e4m3fnuz_to_i8_params",
    lambda n: qmm_f8(n, "f8E5M2FNUZ", "f8E4M3FNUZ", "i8", (5, 8), (8, 6), a_par=(5, 1), b_par=(1, 6),
                     y_par=(6,)))
add("float8-qlinear-matmul", "qmm_f8_per_row_col_e4m3fn",
    lambda n: qmm_f8(n, "f8E4M3FN", "f8E4M3FN", "f8E4M3FN", (6, 9), (9, 5), a_par=(6,), b_par=(5,),
                     y_par=(6, 1)))
add("float8-qlinear-matmul", "qmm_f8_batch_broadcast",
    lambda n: qmm_f8(n, "f8E4M3FNUZ", "f8E5M2FNUZ", "f8E5M2", (2, 3, 4, 9), (3, 9, 5)))
add("float8-qlinear-matmul", "qmm_f8_batch_b_params",
    lambda n: qmm_f8(n, "f8E5M2", "f8E4M3FN", "f8E4M3FNUZ", (4, 9), (2, 9, 5), b_par=(5,), y_par=(2, 4, 1)))
add("float8-qlinear-matmul", "qmm_f8_vector_a",
    lambda n: qmm_f8(n, "f8E4M3FN", "i8", "u8", (9,), (9, 5)))
add("float8-qlinear-matmul", "qmm_f8_64x128x32",
    lambda n: qmm_f8(n, "f8E4M3FN", "f8E5M2", "f8E4M3FN", (64, 128), (128, 32), a_par=(64,), b_par=(32,)))


@case("float8-qlinear-matmul")
def qmm_f8_bf16_scales(n):
    c = qmm_f8(n, "f8E4M3FN", "f8E4M3FN", "i8", (5, 16), (16, 7), a_par=(5,), b_par=(7,), y_par=(7,), st="bf16")
    return differs(c, _qmm_f32_mult(c, "bf16"))


def _qmm_f32_mult(c, st):
    """The case recomputed with the multiplier in f32 instead of st."""
    args = [t.arr for t in c.ins]
    for i in (1, 4, 6):
        args[i] = fref.decode(args[i], st).astype(f32)
    return fref.qlinear_matmul(args[0], c.ins[0].et, args[1], args[2], args[3], c.ins[3].et, args[4], args[5],
                               args[6], args[7], c.outs[0].et, "f32")


@case("float8-qlinear-matmul")
def qmm_f8_f16_scales(n):
    c = qmm_f8(n, "f8E5M2", "u8", "i8", (8, 16), (16, 8), st="f16")
    return differs(c, _qmm_f32_mult(c, "f16"))


@case("float8-qlinear-matmul")
def qmm_f8_sum_order(n):
    # E5M2 products 57344^2, 2^-32, -57344^2, 0: summed in increasing k the
    # 2^-32 is absorbed (acc = 0); any other order keeps it (x 2^32 = 1)
    big, tiny, nbig, one = 0x7B, 0x01, 0xFB, 0x3C
    a = np.array([[big, tiny, nbig, 0], [tiny, big, nbig, 0], [big, nbig, tiny, 0], [0, big, tiny, nbig]],
                 np.uint8)
    b = np.array([[big, tiny], [tiny, big], [big, big], [one, one]], np.uint8)
    return FQMM(a, "f8E5M2", np.array(2.0 ** 16, f32), np.array(0, np.uint8), b, "f8E5M2",
                np.array(2.0 ** 16, f32), np.array(0, np.uint8), np.array(1.0, f32), np.array(0x38, np.uint8),
                "f8E4M3FN", "f32")


@case("float8-qlinear-matmul")
def qmm_f8_round_once_from_f64(n):
    # acc = midpoint +- 2^-32 (f64-exact): rounding to f32 first would land on
    # the midpoint and round to even; rounded once from f64 it goes the right way
    one, h16, h316, tiny = 0x3C, 0x2C, 0x32, 0x01  # E5M2 1, 1/16, 3/16, 2^-16
    rows = []
    for h in (h16, h316):
        for t in (tiny, tiny | 0x80, 0):
            rows.append([one, h, t])
            rows.append([one | 0x80, h | 0x80, t ^ 0x80 if t else 0])
    a = np.array(rows, np.uint8)
    b = np.array([[one], [one], [tiny]], np.uint8)
    return FQMM(a, "f8E5M2", np.array(1.0, f32), np.array(0, np.uint8), b, "f8E5M2", np.array(1.0, f32),
                np.array(0, np.uint8), np.array(1.0, f32), np.array(0, np.uint8), "f8E4M3FN", "f32")


@case("float8-qlinear-matmul")
def qmm_f8_round_int_from_f64(n):
    # int8 y: round_half_even of the f64 product 2.5 +- 2^-32
    two, half, tiny = 0x40, 0x38, 0x01
    rows = [[two, half, tiny], [two, half, tiny | 0x80], [two, half, 0], [two | 0x80, half | 0x80, tiny],
            [two | 0x80, half | 0x80, 0]]
    a = np.array(rows, np.uint8)
    b = np.array([[0x3C], [0x3C], [tiny]], np.uint8)
    return FQMM(a, "f8E5M2", np.array(1.0, f32), np.array(0, np.uint8), b, "f8E5M2", np.array(1.0, f32),
                np.array(0, np.uint8), np.array(1.0, f32), np.array(0, np.int8), "i8", "f32")


def _nonfinite_ab():
    inf, ninf, nan, one, two = 0x7C, 0xFC, 0x7E, 0x3C, 0x40
    a = np.array([[inf, one], [ninf, one], [nan, one], [inf, ninf], [one, two], [0, one]], np.uint8)
    b = np.array([[one, 0, two], [two, one, inf]], np.uint8)
    return a, b


@case("float8-qlinear-matmul")
def qmm_f8_nonfinite_to_fnuz(n):
    a, b = _nonfinite_ab()
    return FQMM(a, "f8E5M2", np.array(1.0, f32), np.array(0, np.uint8), b, "f8E5M2", np.array(1.0, f32),
                np.array(0, np.uint8), np.array(0.5, f32), np.array(0, np.uint8), "f8E4M3FNUZ", "f32")


@case("float8-qlinear-matmul")
def qmm_f8_nonfinite_to_u8(n):
    a, b = _nonfinite_ab()
    return FQMM(a, "f8E5M2", np.array(1.0, f32), np.array(0, np.uint8), b, "f8E5M2", np.array(1.0, f32),
                np.array(0, np.uint8), np.array(0.5, f32), np.array(100, np.uint8), "u8", "f32")


# ---------------------------------------------------------------------------
# ConvInteger and QLinearConv (family "conv")
# ---------------------------------------------------------------------------

def conv_rand(name, xt, wt, xshape, wshape, xzp=True, wzp="tensor", q=None, dyn=False, bias=False, **kw):
    """Random convolution over the types' whole ranges. xzp: a random
    one-element zero point or none; wzp: "tensor" (one element), "channel"
    ([M]) or None. q: None (ConvInteger) or (w_scale "tensor" / "channel",
    y type) for QLinearConv, with scales that keep most outputs inside y's
    range (some saturate); bias: a random int32 B [M] of about the sums'
    spread."""
    rng = rng_for(name)

    def rand(t, shape):
        return rng.integers(_MMI_LIM[t][0], _MMI_LIM[t][1] + 1, size=shape)

    x, w = rand(xt, xshape), rand(wt, wshape)
    m = wshape[0]
    x_zp = rand(xt, ()) if xzp or q else None
    w_zp = {"tensor": lambda: rand(wt, ()), "channel": lambda: rand(wt, (m,)),
            None: lambda: None}[wzp if not q or wzp else "tensor"]()
    if q is None:
        return CONV(x, xt, w, wt, x_zp, w_zp, dyn=dyn, **kw)
    ws_kind, yt = q
    xs = np.array(rng.uniform(0.01, 0.05), f32)
    ws = np.array(rng.uniform(0.002, 0.02, size=() if ws_kind == "tensor" else (m,)), f32)
    # y_scale and y_zero_point from the sums' spread, so that most outputs
    # fall inside y's range (about 2.5 standard deviations; a few saturate)
    s_dims = len(xshape) - 2
    acc = ref._conv_sums(x, w, x_zp, w_zp, kw.get("strides") or [1] * s_dims,
                         kw.get("dilations") or [1] * s_dims, kw.get("pads") or [0] * (2 * s_dims),
                         kw.get("group", 1)).astype(np.float64)
    b = None
    if bias:
        b = rng.integers(-int(acc.std()) - 1, int(acc.std()) + 2, size=m)
        acc = acc + b.reshape((1, m) + (1,) * s_dims)
    mult = 50.0 / max(acc.std(), 1.0)
    ys = np.array(float(xs) * float(np.mean(ws)) / mult, f32)
    lo, hi = _MMI_LIM[yt]
    yzp = np.array(int(np.clip(round((lo + hi) / 2 - acc.mean() * mult), lo, hi)))
    q = (xs, ws, ys, yzp, yt) + ((b,) if bias else ())
    return CONV(x, xt, w, wt, x_zp, w_zp, q=q, dyn=dyn, **kw)


for _name, _args, _kw in [
        ("conv_u8_u8_pads", ("u8", "u8", (1, 3, 7, 7), (4, 3, 3, 3)), dict(pads=[1, 1, 1, 1])),
        ("conv_i8_u8_strides_dilations", ("i8", "u8", (1, 3, 11, 10), (5, 3, 3, 2)),
         dict(strides=[2, 3], dilations=[2, 1], pads=[0, 1, 2, 1])),
        ("conv_u8_i8_channel_zp", ("u8", "i8", (1, 4, 6, 6), (6, 4, 3, 3)), dict(wzp="channel", pads=[1, 0, 1, 2])),
        ("conv_i8_i8_no_zp", ("i8", "i8", (1, 2, 5, 5), (3, 2, 2, 2)), dict(xzp=False, wzp=None)),
        ("conv_1d", ("u8", "i8", (2, 4, 11), (3, 4, 3)), dict(strides=[2], pads=[1, 2])),
        ("conv_3d", ("u8", "u8", (1, 2, 4, 5, 5), (3, 2, 2, 3, 3)), dict(pads=[1, 0, 1, 0, 1, 1], dilations=[1, 1, 2])),
        ("conv_groups", ("u8", "i8", (1, 4, 6, 6), (6, 2, 3, 3)), dict(group=2, pads=[1, 1, 1, 1])),
        # more groups than kMaxSplitGroups (8): the one grouped product
        ("conv_groups_10", ("i8", "u8", (2, 20, 5, 6), (30, 2, 3, 3)),
         dict(group=10, wzp="channel", strides=[1, 2], pads=[1, 0, 1, 1])),
        ("qconv_groups_10_bias", ("u8", "i8", (1, 20, 6, 6), (10, 2, 3, 3)),
         dict(q=("channel", "u8"), wzp="channel", group=10, bias=True, pads=[1, 1, 1, 1])),
        # split groups (each one pixel-rows convolution) with a dynamic
        # batch, and 1x1 groups (each the pointwise form)
        ("qconv_groups_dyn_batch", ("u8", "i8", (2, 8, 6, 6), (12, 2, 3, 3)),
         dict(q=("channel", "i8"), group=4, bias=True, pads=[1, 1, 1, 1], dyn=True)),
        ("qconv_groups_pointwise", ("u8", "i8", (1, 12, 5, 7), (9, 4, 1, 1)),
         dict(q=("channel", "u8"), wzp="channel", group=3)),
        ("conv_depthwise", ("u8", "i8", (1, 8, 7, 7), (8, 1, 3, 3)), dict(group=8, wzp="channel", pads=[1, 1, 1, 1])),
        # the depthwise direct form: 1-D rows of 40 (a 32-lane tile and an
        # 8-lane remainder), 3-D, dilations, a 5x5 and an 8x8 (64 taps,
        # the most it takes) kernel
        ("conv_depthwise_1d", ("i8", "u8", (2, 6, 40), (6, 1, 5)), dict(group=6, pads=[2, 2])),
        ("conv_depthwise_3d", ("u8", "u8", (1, 4, 4, 5, 6), (4, 1, 2, 2, 3)),
         dict(group=4, wzp="channel", dilations=[1, 2, 1], pads=[0, 1, 1, 1, 0, 1])),
        ("conv_depthwise_8x8", ("u8", "i8", (1, 3, 11, 12), (3, 1, 8, 8)), dict(group=3, pads=[1, 2, 3, 0])),
        ("conv_batch3", ("i8", "u8", (3, 3, 6, 5), (4, 3, 3, 3)), dict(strides=[1, 2], pads=[1, 1, 1, 1])),
        ("conv_pointwise", ("u8", "i8", (1, 16, 5, 7), (8, 16, 1, 1)), dict(wzp="channel")),
        ("conv_pointwise_batch2", ("u8", "i8", (2, 16, 5, 7), (8, 16, 1, 1)), dict()),
        ("conv_kernel_tiles", ("u8", "i8", (1, 16, 12, 12), (40, 16, 3, 3)), dict(wzp="channel", pads=[1, 1, 1, 1])),
        ("conv_dyn_batch", ("u8", "i8", (2, 3, 6, 6), (4, 3, 3, 3)), dict(pads=[1, 1, 1, 1], dyn=True)),
        ("qconv_u8_u8_u8", ("u8", "u8", (1, 3, 8, 8), (4, 3, 3, 3)), dict(q=("tensor", "u8"), pads=[1, 1, 1, 1])),
        ("qconv_u8_u8_i8", ("u8", "u8", (1, 3, 6, 6), (4, 3, 3, 3)), dict(q=("tensor", "i8"))),
        ("qconv_u8_i8_u8", ("u8", "i8", (1, 3, 6, 6), (4, 3, 3, 3)), dict(q=("channel", "u8"), wzp="channel")),
        ("qconv_u8_i8_i8", ("u8", "i8", (1, 3, 6, 6), (4, 3, 3, 3)), dict(q=("channel", "i8"))),
        ("qconv_i8_u8_u8", ("i8", "u8", (1, 3, 6, 6), (4, 3, 3, 3)), dict(q=("tensor", "u8"), strides=[2, 2])),
        ("qconv_i8_u8_i8", ("i8", "u8", (1, 3, 6, 6), (4, 3, 3, 3)), dict(q=("channel", "i8"), wzp="channel")),
        ("qconv_i8_i8_u8", ("i8", "i8", (1, 3, 6, 6), (4, 3, 3, 3)), dict(q=("tensor", "u8"), dilations=[2, 2])),
        ("qconv_i8_i8_i8", ("i8", "i8", (1, 3, 6, 6), (4, 3, 3, 3)), dict(q=("channel", "i8"), pads=[2, 0, 0, 2])),
        ("qconv_groups_channel", ("u8", "i8", (1, 6, 7, 7), (9, 2, 3, 3)),
         dict(q=("channel", "u8"), wzp="channel", group=3, pads=[1, 1, 1, 1])),
        # six groups of u8 weights with per-channel zero points: dense under
        # amx (the blocks off the diagonal hold each row's zero point),
        # split under vnni and madd
        ("qconv_groups_6_u8", ("u8", "u8", (1, 12, 7, 6), (18, 2, 3, 3)),
         dict(q=("channel", "u8"), wzp="channel", group=6, strides=[1, 2], pads=[1, 1, 1, 1])),
        ("qconv_depthwise", ("u8", "i8", (1, 8, 9, 9), (8, 1, 3, 3)),
         dict(q=("channel", "u8"), wzp="channel", group=8, strides=[2, 2], pads=[1, 1, 1, 1])),
        ("qconv_depthwise_bias_i8", ("i8", "i8", (1, 16, 20, 37), (16, 1, 3, 3)),
         dict(q=("channel", "i8"), wzp="channel", group=16, bias=True, dilations=[2, 2], pads=[2, 1, 2, 3])),
        ("qconv_depthwise_5x5_u8_u8", ("u8", "u8", (1, 5, 12, 70), (5, 1, 5, 5)),
         dict(q=("tensor", "u8"), group=5, pads=[2, 2, 2, 2])),
        ("qconv_depthwise_dyn_batch", ("u8", "i8", (3, 8, 9, 9), (8, 1, 3, 3)),
         dict(q=("channel", "u8"), group=8, pads=[1, 1, 1, 1], dyn=True)),
        ("qconv_kernel_tiles", ("u8", "i8", (2, 32, 10, 10), (48, 32, 3, 3)),
         dict(q=("channel", "u8"), wzp="channel", pads=[1, 1, 1, 1])),
        ("qconv_1d", ("i8", "i8", (1, 5, 17), (7, 5, 4)), dict(q=("tensor", "i8"), strides=[3], pads=[2, 1])),
        ("qconv_3d", ("u8", "i8", (1, 3, 4, 4, 4), (4, 3, 2, 2, 2)), dict(q=("channel", "u8"), pads=[1, 1, 1, 0, 0, 0])),
        ("qconv_dyn_batch", ("u8", "i8", (3, 4, 5, 5), (6, 4, 3, 3)), dict(q=("tensor", "u8"), pads=[1, 1, 1, 1], dyn=True)),
        ("qconv_bias", ("u8", "i8", (1, 3, 6, 6), (4, 3, 3, 3)), dict(q=("channel", "u8"), bias=True, pads=[1, 1, 1, 1])),
        ("qconv_bias_kernel_tiles", ("u8", "i8", (2, 16, 8, 8), (40, 16, 3, 3)),
         dict(q=("channel", "i8"), wzp="channel", bias=True, pads=[1, 1, 1, 1])),
        ("qconv_bias_groups", ("i8", "i8", (1, 4, 6, 6), (6, 2, 3, 3)), dict(q=("tensor", "u8"), bias=True, group=2)),
        ("qconv_bias_pointwise", ("u8", "u8", (1, 8, 4, 4), (6, 8, 1, 1)), dict(q=("tensor", "u8"), bias=True)),
        # More taps than the patch forms unroll (kMaxUnrolledTaps): one loop
        # over the taps. A depthwise 9x9 (more taps than the direct form's
        # 64: the grouped form), a dense 5x5 (pixel rows), a grouped 7x7.
        ("conv_depthwise_9x9", ("u8", "i8", (1, 4, 12, 11), (4, 1, 9, 9)),
         dict(group=4, wzp="channel", pads=[4, 4, 4, 3])),
        ("qconv_5x5_dense", ("u8", "i8", (1, 6, 9, 10), (7, 6, 5, 5)),
         dict(q=("channel", "u8"), wzp="channel", strides=[1, 2], pads=[2, 2, 2, 2])),
        ("qconv_7x7_groups_2", ("i8", "i8", (1, 4, 10, 10), (6, 2, 7, 7)),
         dict(q=("tensor", "i8"), group=2, dilations=[1, 2], pads=[3, 3, 3, 3])),
]:
    add("conv", _name, (lambda a, k: lambda n: conv_rand(n, *a, **k))(_args, _kw))


@case("conv")
def qconv_ties_saturation(n):
    # x_scale * w_scale / y_scale = 0.5 exactly: every odd sum is a tie
    # (round half to even); a 1x1 kernel over sums from -255 * 255 to
    # 255 * 255 saturates y at both ends.
    # Small values elsewhere, so that most sums are ties or near them; the
    # first pixel 255 in both channels, so that its outputs (255 (w0 + w1)
    # / 2 + 128) saturate at 0 or 255 where |w0 + w1| > 1.
    rng = rng_for(n)
    x = rng.integers(0, 24, size=(1, 2, 6, 6))
    w = rng.integers(-8, 8, size=(6, 2, 1, 1))
    x[0, :, 0, 0] = 255
    q = (np.array(0.5, f32), np.array(1.0, f32), np.array(1.0, f32), np.array(128), "u8")
    return CONV(x, "u8", w, "i8", np.array(0), np.array(0), q=q)


@case("conv")
def qconv_depthwise_ties_saturation(n):
    # The depthwise direct form's f32 requantization (no bias: every sum is
    # at most 9 * 255 * 255): multipliers 0.5, 0.25, 1.5 and 0.125 per
    # channel make many sums ties (round half to even); small x and w
    # elsewhere, the first rows 255 against weights of one sign, so that
    # outputs saturate at both ends of i8.
    rng = rng_for(n)
    x = rng.integers(0, 12, size=(2, 4, 7, 9))
    x[:, :, :2] = 255
    w = rng.integers(-6, 7, size=(4, 1, 3, 3))
    w[0, 0, 0] = 120
    w[1, 0, 0] = -120
    ws = np.array([0.5, 0.25, 1.5, 0.125], f32)
    q = (np.array(1.0, f32), ws, np.array(1.0, f32), np.array(-3), "i8")
    return CONV(x, "u8", w, "i8", np.array(0), np.array(0), q=q, group=4, pads=[1, 1, 1, 1])


@case("conv")
def conv_extreme_sums(n):
    # (x - x_zp) = -255 and (w - w_zp) = -255 on every tap of output 0:
    # 1 x 32 x 5 x 5 taps = 800 * 65025 = 52020000 (far inside int32);
    # the other outputs random.
    rng = rng_for(n)
    x = rng.integers(0, 256, size=(1, 32, 5, 5))
    w = rng.integers(-128, 128, size=(4, 32, 5, 5))
    x[0] = 0
    w[0] = -128
    return CONV(x, "u8", w, "i8", np.array(255), np.array(127))


@case("conv")
def qconv_special_multipliers(n):
    # Per-channel multipliers x_s * w_s[m] / y_s that are NaN, +-Inf, past
    # 2^32, denormal and 0, beside normal ones, in the depthwise direct form
    # (group 8) and the pixel-rows kernel (group 1, below); the top rows of
    # x are x_zp (sums of 0 where w is centred: 0 * Inf gives y_zp).
    return _special_multipliers_conv(n, (1, 8, 9, 10), (8, 1, 3, 3), 8)


@case("conv")
def qconv_special_multipliers_kernel(n):
    return _special_multipliers_conv(n, (1, 4, 9, 10), (8, 4, 3, 3), 1)


@case("conv")
def qconv_special_multipliers_deep_k(n):
    # 32 channels x 3 x 3 = K 288 > 258: the kernel's f64 requantization
    return _special_multipliers_conv(n, (1, 32, 9, 10), (8, 32, 3, 3), 1, ys=0.6)


def _special_multipliers_conv(n, xshape, wshape, group, ys=60.0):
    rng = rng_for(n)
    x = rng.integers(0, 256, size=xshape)
    x[:, :, :3] = 100
    w = rng.integers(-128, 128, size=wshape)
    ws = rng.uniform(0.002, 0.02, size=8).astype(f32)
    ws[:7] = [np.nan, np.inf, -np.inf, 1e30, -1e30, 1e-45, 0.0]
    q = (np.array(0.03, f32), ws, np.array(ys, f32), np.array(120), "u8")
    return CONV(x, "u8", w, "i8", np.array(100), np.array(-5), q=q,
                pads=[1, 1, 1, 1], group=group)


def build(name):
    family, fn = CASES[name]
    return fn(name)


def main(argv):
    if len(argv) == 2 and argv[1] == "--list":
        for name, (family, _) in CASES.items():
            print(family, name)
        return 0
    if len(argv) == 4 and argv[1] == "--family":
        names = [n for n, (f, _) in CASES.items() if f == argv[2]]
        if not names:
            print("unknown family %r (see --list)" % argv[2], file=sys.stderr)
            return 2
        for name in names:
            build(name).write(os.path.join(argv[3], name))
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
