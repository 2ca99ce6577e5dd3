#!/usr/bin/env python3
"""Writes QDQ models with Debian's python3-onnx, plus an input and NumPy
references of both readings of the model (used by test/ONNX/qdq-models.test
and bench/).

  int8-mlp     x f32 [B, S, D0] -> Q -> DQ -> MatMul(DQ(W1 si8 per-column))
               -> Q -> DQ -> Add(bias) -> Q -> DQ -> MatMul(DQ(W2 si8
               per-tensor)) -> Q -> DQ -> y f32 [B, S, D2]        (opset 13)
  int4-weights x f32 [M, K] -> MatMul(x, DQ(W si4 [K, N] blocked along K,
               block 32, scale and zero point [K/32, N])) -> y f32 (opset 21)
  gemm         y = Gemm(A, B, C; alpha, beta, transB = 1), float   (opset 13)
  float-matmul y = MatMul(x f32 [M, K], W f32 [K, N] initializer) (opset 13)
  dq-matmul    x f32 [B, S, K] -> Q -> DQ -> MatMul(DQ(W si8 [K, N] per
               column)) -> y f32 (a QDQ model's last layer: no Q after the
               MatMul; opset 13)
  matmul-nbits x f32 [M, K] -> com.microsoft MatMulNBits(x, B packed
               [N, k_blocks, blob], scales [N * k_blocks], packed zero
               points or none (2^(bits-1)), bias or none; --bits, --block,
               --accuracy-level) -> y f32 [M, N]   (opset 21 + com.microsoft 1)
  qdq-conv     x f32 [N, C, H, W] -> Q -> DQ -> Conv(DQ(W si8 per output
               channel, axis 0), DQ(B int32, scale x_scale * w_scale, axis
               0); pads, strides, group from the options) -> Q -> DQ -> y f32
               (ONNX Runtime's quantize_static QDQ form of a Conv; opset 13)

References written next to the model (.npy), computed here with NumPy from
the ONNX definitions, never by the project:

  <name>.x.npy           the input
  <name>.unfused.npy     every node as ONNX defines it (DQ/Q/Add in f32;
                         MatMul accumulated in f32 in increasing k, the order
                         the project's linalg.matmul uses)
  <name>.fused.npy       int8-mlp only: each DQ -> MatMul -> Q as
                         QLinearMatMul (exact integer accumulation, one
                         rounding; qops_ref.qlinear_matmul); dq-matmul:
                         f32(exact integer sum) * fl(x_scale * w_scale)
                         (MatMulInteger with the dequantize clause);
                         qdq-conv: the
                         convolution as QLinearConv (qops_ref.qlinear_conv)
                         and its float Conv summed over (c, kh, kw) in
                         increasing order in f32 (the importer's loop order)

Usage: make_qdq_model.py KIND OUT_DIR [--dims ...] [--seed N]
"""

import argparse
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "test", "Integration", "reference"))
import qops_ref  # noqa: E402  (independent NumPy reference of the four ops)

INT4 = 22  # TensorProto.INT4 (python3-onnx 1.12 predates the enum)


def int4_tensor(name, values):
    """An INT4 TensorProto: two values per byte, low nibble first."""
    flat = values.astype(np.int8).reshape(-1)
    if flat.size % 2:
        flat = np.append(flat, np.int8(0))
    nibbles = (flat.astype(np.uint8) & 0xF).reshape(-1, 2)
    packed = (nibbles[:, 0] | (nibbles[:, 1] << 4)).astype(np.uint8)
    tensor = TensorProto()
    tensor.name = name
    tensor.data_type = INT4
    tensor.dims.extend(values.shape)
    tensor.raw_data = packed.tobytes()
    return tensor


def scalar(name, value, dtype):
    return numpy_helper.from_array(np.array(value, dtype=dtype), name)


def matmul_sequential_f32(a, b):
    """sum_k a[..., m, k] * b[k, n] in f32, one rounding per product and per
    addition, k increasing from an initial +0.0."""
    acc = np.zeros(a.shape[:-1] + (b.shape[-1],), dtype=np.float32)
    for k in range(a.shape[-1]):
        acc = (acc + a[..., k:k + 1] * b[k:k + 1, :]).astype(np.float32)
    return acc


def save_model(graph, opset, path):
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", opset)],
        producer_name="quantops make_qdq_model.py")
    model.ir_version = 8 if opset < 21 else 10
    onnx.save(model, path)


def int8_mlp(out, name, batch, seq, d0, d1, d2, rng):
    sx, zx = np.float32(0.05), np.uint8(128)
    w1 = rng.integers(-127, 128, size=(d0, d1), dtype=np.int8)
    sw1 = (rng.random(d1, dtype=np.float32) * 0.004 + 0.001).astype(np.float32)
    zw1 = np.zeros(d1, dtype=np.int8)
    s1, z1 = np.float32(0.25), np.uint8(120)
    bias = (rng.standard_normal(d1) * 2).astype(np.float32)
    s1b, z1b = np.float32(0.3), np.uint8(110)
    w2 = rng.integers(-127, 128, size=(d1, d2), dtype=np.int8)
    sw2 = np.float32(0.002)
    s2, z2 = np.float32(0.2), np.uint8(128)

    inits = [
        scalar("sx", sx, np.float32), scalar("zx", zx, np.uint8),
        numpy_helper.from_array(w1, "W1"), numpy_helper.from_array(sw1, "sw1"),
        numpy_helper.from_array(zw1, "zw1"),
        scalar("s1", s1, np.float32), scalar("z1", z1, np.uint8),
        numpy_helper.from_array(bias, "bias"),
        scalar("s1b", s1b, np.float32), scalar("z1b", z1b, np.uint8),
        numpy_helper.from_array(w2, "W2"), scalar("sw2", sw2, np.float32),
        scalar("s2", s2, np.float32), scalar("z2", z2, np.uint8),
    ]
    n = helper.make_node
    nodes = [
        n("QuantizeLinear", ["x", "sx", "zx"], ["q0"], name="q_in"),
        n("DequantizeLinear", ["q0", "sx", "zx"], ["d0"], name="dq_in"),
        n("DequantizeLinear", ["W1", "sw1", "zw1"], ["dw1"], name="dq_w1",
          axis=1),
        n("MatMul", ["d0", "dw1"], ["m1"], name="matmul1"),
        n("QuantizeLinear", ["m1", "s1", "z1"], ["q1"], name="q1"),
        n("DequantizeLinear", ["q1", "s1", "z1"], ["d1"], name="dq1"),
        n("Add", ["d1", "bias"], ["a1"], name="bias1"),
        n("QuantizeLinear", ["a1", "s1b", "z1b"], ["q2"], name="q2"),
        n("DequantizeLinear", ["q2", "s1b", "z1b"], ["d2"], name="dq2"),
        n("DequantizeLinear", ["W2", "sw2"], ["dw2"], name="dq_w2"),
        n("MatMul", ["d2", "dw2"], ["m2"], name="matmul2"),
        n("QuantizeLinear", ["m2", "s2", "z2"], ["q3"], name="q3"),
        n("DequantizeLinear", ["q3", "s2", "z2"], ["y"], name="dq_out"),
    ]
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, seq, d0])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [batch, seq, d2])],
        initializer=inits)
    save_model(graph, 13, os.path.join(out, name + ".onnx"))

    x = (rng.standard_normal((batch, seq, d0)) * 3).astype(np.float32)
    r = qops_ref

    # Unfused: every node as ONNX defines it.
    q0 = r.quantize_linear(x, sx, zx)
    d0v = r.dequantize_linear(q0, sx, zx)
    dw1 = r.dequantize_linear(w1, sw1, zw1, axis=1)
    m1 = matmul_sequential_f32(d0v, dw1)
    q1 = r.quantize_linear(m1, s1, z1)
    a1 = (r.dequantize_linear(q1, s1, z1) + bias).astype(np.float32)
    q2 = r.quantize_linear(a1, s1b, z1b)
    d2v = r.dequantize_linear(q2, s1b, z1b)
    m2 = matmul_sequential_f32(d2v, r.dequantize_linear(w2, sw2))
    unfused = r.dequantize_linear(r.quantize_linear(m2, s2, z2), s2, z2)

    # Fused: DQ -> MatMul -> Q as QLinearMatMul.
    f1 = r.qlinear_matmul(q0, sx, zx, w1, sw1, zw1, s1, z1)
    fa1 = (r.dequantize_linear(f1, s1, z1) + bias).astype(np.float32)
    f2 = r.quantize_linear(fa1, s1b, z1b)
    f3 = r.qlinear_matmul(f2, s1b, z1b, w2, sw2, np.int8(0), s2, z2)
    fused = r.dequantize_linear(f3, s2, z2)

    np.save(os.path.join(out, name + ".x.npy"), x)
    np.save(os.path.join(out, name + ".unfused.npy"), unfused)
    np.save(os.path.join(out, name + ".fused.npy"), fused)
    # How far apart the two readings are, in units of the output scale.
    steps = np.abs(fused.astype(np.float64) - unfused) / float(s2)
    print("%s: fused and unfused differ in %d of %d outputs, by at most %g "
          "steps" % (name, int(np.count_nonzero(steps > 0.5)), steps.size,
                     steps.max()))


def conv_sequential_f32(x, w, bias, stride, pad, group, dilation=1):
    """ONNX Conv, 2-D NCHW, in f32: per output, +0.0 then each product
    added in increasing (c, kh, kw) order, one rounding per product and per
    addition; then + bias."""
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - dilation * (kh - 1) - 1) // stride + 1
    ow = (wd + 2 * pad - dilation * (kw - 1) - 1) // stride + 1
    y = np.zeros((n, m, oh, ow), np.float32)
    mg = m // group
    for g in range(group):
        for ci in range(cg):
            for i in range(kh):
                for j in range(kw):
                    di, dj = i * dilation, j * dilation
                    window = xp[:, g * cg + ci, di:di + stride * oh:stride, dj:dj + stride * ow:stride]
                    wv = w[g * mg:(g + 1) * mg, ci, i, j].reshape(1, mg, 1, 1)
                    prod = (window[:, None] * wv).astype(np.float32)
                    y[:, g * mg:(g + 1) * mg] = (y[:, g * mg:(g + 1) * mg] + prod).astype(np.float32)
    return (y + bias.reshape(1, m, 1, 1)).astype(np.float32)


def qdq_conv(out, name, n, c, h, w, m, k, rng, stride=1, pad=1, group=1, dilation=1):
    sx, zx = np.float32(0.03), np.uint8(120)
    wq = rng.integers(-127, 128, size=(m, c // group, k, k), dtype=np.int8)
    sw = (rng.random(m, dtype=np.float32) * 0.004 + 0.001).astype(np.float32)
    zw = np.zeros(m, dtype=np.int8)
    sb = (sx * sw).astype(np.float32)  # quantize_static's bias scale
    bq = rng.integers(-3000, 3000, size=m).astype(np.int32)
    taps = c // group * k * k
    sy = np.float32(0.03 * 0.003 * 64 * np.sqrt(taps) / 40)
    zy = np.uint8(128)
    inits = [scalar("sx", sx, np.float32), scalar("zx", zx, np.uint8),
             numpy_helper.from_array(wq, "W"), numpy_helper.from_array(sw, "sw"),
             numpy_helper.from_array(zw, "zw"), numpy_helper.from_array(bq, "B"),
             numpy_helper.from_array(sb, "sb"), numpy_helper.from_array(np.zeros(m, np.int32), "zb"),
             scalar("sy", sy, np.float32), scalar("zy", zy, np.uint8)]
    nd = helper.make_node
    nodes = [
        nd("QuantizeLinear", ["x", "sx", "zx"], ["q0"], name="q_in"),
        nd("DequantizeLinear", ["q0", "sx", "zx"], ["d0"], name="dq_in"),
        nd("DequantizeLinear", ["W", "sw", "zw"], ["dw"], name="dq_w", axis=0),
        nd("DequantizeLinear", ["B", "sb", "zb"], ["db"], name="dq_b", axis=0),
        nd("Conv", ["d0", "dw", "db"], ["c"], name="conv", pads=[pad] * 4,
           strides=[stride, stride], group=group, kernel_shape=[k, k],
           dilations=[dilation, dilation]),
        nd("QuantizeLinear", ["c", "sy", "zy"], ["q1"], name="q_out"),
        nd("DequantizeLinear", ["q1", "sy", "zy"], ["y"], name="dq_out"),
    ]
    oh = (h + 2 * pad - dilation * (k - 1) - 1) // stride + 1
    ow = (w + 2 * pad - dilation * (k - 1) - 1) // stride + 1
    graph = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, [n, c, h, w])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [n, m, oh, ow])], initializer=inits)
    save_model(graph, 13, os.path.join(out, name + ".onnx"))
    x = (rng.standard_normal((n, c, h, w)) * 1.5).astype(np.float32)
    r = qops_ref
    q0 = r.quantize_linear(x, sx, zx)
    conv = conv_sequential_f32(r.dequantize_linear(q0, sx, zx),
                               r.dequantize_linear(wq, sw, zw, axis=0),
                               r.dequantize_linear(bq, sb, None, axis=0), stride, pad, group,
                               dilation)
    unfused = r.dequantize_linear(r.quantize_linear(conv, sy, zy), sy, zy)
    fq = r.qlinear_conv(q0, sx, zx, wq, sw, zw, sy, zy, bq, strides=[stride, stride],
                        pads=[pad] * 4, group=group, dilations=[dilation, dilation])
    fused = r.dequantize_linear(fq, sy, zy)
    np.save(os.path.join(out, name + ".x.npy"), x)
    np.save(os.path.join(out, name + ".unfused.npy"), unfused)
    np.save(os.path.join(out, name + ".fused.npy"), fused)
    steps = np.abs(fused.astype(np.float64) - unfused) / float(sy)
    print("%s: fused and unfused differ in %d of %d outputs, by at most %g "
          "steps" % (name, int(np.count_nonzero(steps > 0.5)), steps.size,
                     steps.max()))


def dq_matmul(out, name, batch, seq, k, n, rng):
    sx, zx = np.float32(0.04), np.uint8(125)
    w = rng.integers(-127, 128, size=(k, n), dtype=np.int8)
    sw = (rng.random(n, dtype=np.float32) * 0.004 + 0.001).astype(np.float32)
    zw = np.zeros(n, dtype=np.int8)
    nd = helper.make_node
    nodes = [nd("QuantizeLinear", ["x", "sx", "zx"], ["q0"], name="q_in"),
             nd("DequantizeLinear", ["q0", "sx", "zx"], ["d0"], name="dq_in"),
             nd("DequantizeLinear", ["W", "sw", "zw"], ["dw"], name="dq_w", axis=1),
             nd("MatMul", ["d0", "dw"], ["y"], name="matmul")]
    inits = [scalar("sx", sx, np.float32), scalar("zx", zx, np.uint8),
             numpy_helper.from_array(w, "W"), numpy_helper.from_array(sw, "sw"),
             numpy_helper.from_array(zw, "zw")]
    graph = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, seq, k])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [batch, seq, n])], initializer=inits)
    save_model(graph, 13, os.path.join(out, name + ".onnx"))
    x = (rng.standard_normal((batch, seq, k)) * 3).astype(np.float32)
    r = qops_ref
    q0 = r.quantize_linear(x, sx, zx)
    unfused = matmul_sequential_f32(r.dequantize_linear(q0, sx, zx),
                                    r.dequantize_linear(w, sw, zw, axis=1))
    acc = r.matmul_integer(q0, w, zx, zw)
    fused = (acc.astype(np.float32) * (sx * sw).astype(np.float32)).astype(np.float32)
    np.save(os.path.join(out, name + ".x.npy"), x)
    np.save(os.path.join(out, name + ".unfused.npy"), unfused)
    np.save(os.path.join(out, name + ".fused.npy"), fused)
    rel = np.abs(fused.astype(np.float64) - unfused) / max(np.abs(fused).max(), 1e-30)
    print("%s: fused and unfused differ in %d of %d outputs, by at most %.1e of the largest"
          % (name, int(np.count_nonzero(fused != unfused)), fused.size, rel.max()))


def int4_weights(out, name, m, k, n, rng, block=32, zero_points=True):
    """DequantizeLinear(int4 W, blocked along k) -> MatMul, with the f32
    reading of the graph (<name>.unfused.npy) and, for quant-runner
    --qdq-accuracy-level=4 (ONNX Runtime's QDQ -> MatMulNBits fusion at its
    default level), the int8-activation arithmetic (<name>.int8.npy,
    qops_ref.matmul_nbits_int8: its q - zp is the same for int4 and for
    the uint4 q + 8, zp + 8 that the kernel multiplies)."""
    w = rng.integers(-8, 8, size=(k, n), dtype=np.int8)
    scale = (rng.random((k // block, n), dtype=np.float32) * 0.02 + 0.005)
    scale = scale.astype(np.float32)
    zp = rng.integers(-2, 3, size=(k // block, n), dtype=np.int8)
    inits = [int4_tensor("W", w), numpy_helper.from_array(scale, "ws")]
    dq_inputs = ["W", "ws"]
    if zero_points:
        inits.append(int4_tensor("wz", zp))
        dq_inputs.append("wz")
    nodes = [
        helper.make_node("DequantizeLinear", dq_inputs, ["dw"],
                         name="dq_w", axis=0, block_size=block),
        helper.make_node("MatMul", ["x", "dw"], ["y"], name="matmul"),
    ]
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [m, k])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [m, n])],
        initializer=inits)
    save_model(graph, 21, os.path.join(out, name + ".onnx"))

    x = rng.standard_normal((m, k)).astype(np.float32)
    zp_used = zp if zero_points else None
    dw = qops_ref.dequantize_linear(w, scale, zp_used, axis=0, block_size=block)
    np.save(os.path.join(out, name + ".x.npy"), x)
    np.save(os.path.join(out, name + ".unfused.npy"),
            matmul_sequential_f32(x, dw))
    if k % block == 0:
        np.save(os.path.join(out, name + ".int8.npy"),
                qops_ref.matmul_nbits_int8(x, w, zp_used, scale, block))


def pack_low_first(values, bits):
    """Rows of `bits`-wide values packed into bytes, low bits first (the
    last byte of a row padded with 0)."""
    per = 8 // bits
    rows, count = values.shape
    width = -(-count // per)
    padded = np.zeros((rows, width * per), np.uint8)
    padded[:, :count] = values
    packed = np.zeros((rows, width), np.uint8)
    for t in range(per):
        packed |= (padded[:, t::per] << (t * bits)).astype(np.uint8)
    return packed


def matmul_nbits(out, name, m, k, n, rng, bits=4, block=32, zero_points=True,
                 bias=False, accuracy_level=None, dynamic_rows=False):
    """MatMulNBits as ONNX Runtime's contrib schema stores it; the
    reference dequantizes W[k, n] = (q - zp) * scale (f32, one rounding) and
    sums in increasing k (the unfused reading); at accuracy level 4 with
    4-bit weights also <name>.int8.npy, the int8-activation arithmetic
    (qops_ref.matmul_nbits_int8)."""
    k_blocks = -(-k // block)
    q = rng.integers(0, 1 << bits, size=(n, k_blocks * block)).astype(np.uint8)
    q[:, k:] = 0  # the padding of the last block
    scale = (rng.random((n, k_blocks), dtype=np.float32) * 0.02 + 0.005).astype(np.float32)
    zp = (rng.integers(0, 1 << bits, size=(n, k_blocks)).astype(np.uint8)
          if zero_points else np.full((n, k_blocks), 1 << (bits - 1), np.uint8))
    b_packed = pack_low_first(q, bits).reshape(n, k_blocks, block * bits // 8)
    inits = [numpy_helper.from_array(b_packed, "B"),
             numpy_helper.from_array(scale.reshape(-1), "scales")]
    inputs = ["x", "B", "scales"]
    if zero_points:
        inits.append(numpy_helper.from_array(pack_low_first(zp, bits).reshape(-1), "zp"))
        inputs.append("zp")
    bias_values = rng.standard_normal(n).astype(np.float32)
    if bias:
        inputs += [""] * (4 - len(inputs)) + ["", "bias"]
        inits.append(numpy_helper.from_array(bias_values, "bias"))
    attrs = dict(K=k, N=n, bits=bits, block_size=block)
    if accuracy_level is not None:
        attrs["accuracy_level"] = accuracy_level
    nodes = [helper.make_node("MatMulNBits", inputs, ["y"], name="nbits",
                              domain="com.microsoft", **attrs)]
    rows = "M" if dynamic_rows else m  # a symbolic dim: M known at run time
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [rows, k])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [rows, n])],
        initializer=inits)
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 21),
                              helper.make_opsetid("com.microsoft", 1)],
        producer_name="quantops make_qdq_model.py")
    model.ir_version = 10
    onnx.save(model, os.path.join(out, name + ".onnx"))

    x = rng.standard_normal((m, k)).astype(np.float32)
    d = q[:, :k].astype(np.int32) - np.repeat(zp.astype(np.int32), block, axis=1)[:, :k]
    w = (d.astype(np.float32) * np.repeat(scale, block, axis=1)[:, :k]).T.copy()
    y = matmul_sequential_f32(x, w)
    if bias:
        y = (y + bias_values).astype(np.float32)
    np.save(os.path.join(out, name + ".x.npy"), x)
    np.save(os.path.join(out, name + ".unfused.npy"), y)
    if accuracy_level == 4 and bits == 4 and k % block == 0:
        y8 = qops_ref.matmul_nbits_int8(x, q[:, :k].T, zp.T, scale.T, block)
        if bias:
            y8 = (y8 + bias_values).astype(np.float32)
        np.save(os.path.join(out, name + ".int8.npy"), y8)
        np.save(os.path.join(out, name + ".int8-bound.npy"), int8_error_bound(x, w, block))


def int8_error_bound(x, w, block):
    """A bound on |int8 reading - f32 reading| per output: each a moves by
    at most half its block's step sa = max|a| / 127 when quantized, so the
    sum moves by at most sum_kb sa / 2 sum_{k in kb} |w[k, n]|; plus
    2^-20 sum_k |x w| for the f32 roundings of both readings."""
    m, k = x.shape
    sa = np.abs(x.reshape(m, k // block, block)).max(axis=2).astype(np.float64) / 127
    wa = np.abs(w.astype(np.float64)).reshape(k // block, block, -1).sum(axis=1)
    return sa @ wa / 2 + np.abs(x.astype(np.float64)) @ np.abs(w.astype(np.float64)) * 2.0 ** -20


def float_matmul(out, name, m, k, n, rng):
    w = rng.standard_normal((k, n)).astype(np.float32)
    nodes = [helper.make_node("MatMul", ["x", "w"], ["y"], name="matmul")]
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [m, k])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [m, n])],
        initializer=[numpy_helper.from_array(w, "w")])
    save_model(graph, 13, os.path.join(out, name + ".onnx"))
    x = rng.standard_normal((m, k)).astype(np.float32)
    np.save(os.path.join(out, name + ".x.npy"), x)
    np.save(os.path.join(out, name + ".unfused.npy"), matmul_sequential_f32(x, w))


def gemm(out, name, m, k, n, rng):
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((n, k)).astype(np.float32)
    c = rng.standard_normal(n).astype(np.float32)
    alpha, beta = 0.5, 2.0
    nodes = [helper.make_node("Gemm", ["a", "b", "c"], ["y"], name="gemm",
                              alpha=alpha, beta=beta, transB=1)]
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [m, k])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [m, n])],
        initializer=[numpy_helper.from_array(b, "b"),
                     numpy_helper.from_array(c, "c")])
    save_model(graph, 13, os.path.join(out, name + ".onnx"))
    ab = matmul_sequential_f32(a, b.T.copy())
    y = (np.float32(alpha) * ab + np.float32(beta) * c).astype(np.float32)
    np.save(os.path.join(out, name + ".x.npy"), a)
    np.save(os.path.join(out, name + ".unfused.npy"), y)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kind", choices=["int8-mlp", "int4-weights", "gemm", "qdq-conv",
                                         "dq-matmul", "matmul-nbits", "float-matmul"])
    parser.add_argument("out_dir")
    parser.add_argument("--name", help="file name stem (default: the kind)")
    parser.add_argument("--dims", type=int, nargs="+",
                        help="int8-mlp: B S D0 D1 D2; int4-weights, "
                             "matmul-nbits, float-matmul and gemm: M K N; "
                             "qdq-conv: N C H W "
                             "M K; dq-matmul: B S K N")
    parser.add_argument("--stride", type=int, default=1, help="qdq-conv")
    parser.add_argument("--pad", type=int, default=1, help="qdq-conv")
    parser.add_argument("--group", type=int, default=1, help="qdq-conv")
    parser.add_argument("--dilation", type=int, default=1, help="qdq-conv")
    parser.add_argument("--bits", type=int, default=4, help="matmul-nbits")
    parser.add_argument("--block", type=int, default=32, help="matmul-nbits, int4-weights")
    parser.add_argument("--no-zero-points", action="store_true",
                        help="matmul-nbits, int4-weights")
    parser.add_argument("--bias", action="store_true", help="matmul-nbits")
    parser.add_argument("--accuracy-level", type=int, help="matmul-nbits")
    parser.add_argument("--dynamic-rows", action="store_true",
                        help="matmul-nbits: x's rows a symbolic dim")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    name = args.name or args.kind
    if args.kind == "int8-mlp":
        dims = args.dims or [2, 8, 64, 96, 32]
        int8_mlp(args.out_dir, name, *dims, rng)
    elif args.kind == "dq-matmul":
        dq_matmul(args.out_dir, name, *(args.dims or [2, 6, 96, 40]), rng)
    elif args.kind == "qdq-conv":
        dims = args.dims or [1, 8, 9, 9, 12, 3]
        qdq_conv(args.out_dir, name, *dims, rng, stride=args.stride, pad=args.pad,
                 group=args.group, dilation=args.dilation)
    elif args.kind == "float-matmul":
        float_matmul(args.out_dir, name, *(args.dims or [5, 16, 7]), rng)
    elif args.kind == "matmul-nbits":
        matmul_nbits(args.out_dir, name, *(args.dims or [4, 128, 48]), rng,
                     bits=args.bits, block=args.block,
                     zero_points=not args.no_zero_points, bias=args.bias,
                     accuracy_level=args.accuracy_level, dynamic_rows=args.dynamic_rows)
    elif args.kind == "int4-weights":
        int4_weights(args.out_dir, name, *(args.dims or [4, 128, 48]), rng,
                     block=args.block, zero_points=not args.no_zero_points)
    else:
        gemm(args.out_dir, name, *(args.dims or [5, 16, 7]), rng)


if __name__ == "__main__":
    main()
