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

References written next to the model (.npy), computed here with NumPy from
the ONNX definitions, never by the project:

  <name>.x.npy           the input
  <name>.unfused.npy     every node as ONNX defines it (DQ/Q/Add in f32;
                         MatMul accumulated in f32 in increasing k, the order
                         the project's linalg.matmul uses)
  <name>.fused.npy       int8-mlp only: each DQ -> MatMul -> Q as
                         QLinearMatMul (exact integer accumulation, one
                         rounding; qops_ref.qlinear_matmul)

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


def int4_weights(out, name, m, k, n, rng, block=32):
    w = rng.integers(-8, 8, size=(k, n), dtype=np.int8)
    scale = (rng.random((k // block, n), dtype=np.float32) * 0.02 + 0.005)
    scale = scale.astype(np.float32)
    zp = rng.integers(-2, 3, size=(k // block, n), dtype=np.int8)
    inits = [int4_tensor("W", w), numpy_helper.from_array(scale, "ws"),
             int4_tensor("wz", zp)]
    nodes = [
        helper.make_node("DequantizeLinear", ["W", "ws", "wz"], ["dw"],
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
    dw = qops_ref.dequantize_linear(w, scale, zp, axis=0, block_size=block)
    np.save(os.path.join(out, name + ".x.npy"), x)
    np.save(os.path.join(out, name + ".unfused.npy"),
            matmul_sequential_f32(x, dw))


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
    parser.add_argument("kind", choices=["int8-mlp", "int4-weights", "gemm"])
    parser.add_argument("out_dir")
    parser.add_argument("--name", help="file name stem (default: the kind)")
    parser.add_argument("--dims", type=int, nargs="+",
                        help="int8-mlp: B S D0 D1 D2; int4-weights and "
                             "gemm: M K N")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    name = args.name or args.kind
    if args.kind == "int8-mlp":
        dims = args.dims or [2, 8, 64, 96, 32]
        int8_mlp(args.out_dir, name, *dims, rng)
    elif args.kind == "int4-weights":
        int4_weights(args.out_dir, name, *(args.dims or [4, 128, 48]), rng)
    else:
        gemm(args.out_dir, name, *(args.dims or [5, 16, 7]), rng)


if __name__ == "__main__":
    main()
