#!/usr/bin/env python3
"""Writes models the way onnxruntime.quantization.quantize_dynamic writes
them (its ConvInteger and MatMulInteger quantizers, onnxruntime 1.x), with
Debian's python3-onnx, plus an input and the NumPy reference (used by
test/ONNX/dynamic-models.test and bench/conv):

  conv-chain  x f32 [N, C, H, W] -> two dynamically quantized convolutions,
              each   DynamicQuantizeLinear(x) -> ConvInteger(xq, w si8
                     per tensor, x_zp, w_zp) -> Cast(float) -> Mul(x_scale,
                     w_scale) -> Mul -> Add(Reshape(bias, [1, -1, 1, 1]))
              the first K x K (pads K // 2) then Relu, the second 1x1;
              y f32 [N, M2, H, W]                                (opset 13)
  mlp         x f32 [B, S, D0] -> DynamicQuantizeLinear -> MatMulInteger(W1
              si8 per column: quantize_dynamic(per_channel=True)) -> Cast ->
              Mul(x_scale, w_scale [D1]) -> Mul -> Add(bias, as the model's
              own Add node) -> Relu -> DynamicQuantizeLinear ->
              MatMulInteger(W2 per tensor) -> Cast -> Mul -> Mul -> y f32
              [B, S, D2]                                          (opset 13)

The reference, <name>.y.npy, is computed here with NumPy from the ONNX
definitions (qops_ref for DynamicQuantizeLinear and the integer sums, then
float32 NumPy for Cast, Mul, Add and Relu, each rounded as ONNX's f32
ops), never by the project. Fusing the Cast -> Mul -> Add after each
integer op (--qops-fuse-qdq) keeps each rounding, so both readings must
give these bits.

Usage: make_dynamic_models.py KIND OUT_DIR [--dims ...] [--seed N]
"""

import argparse
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "test", "Integration", "reference"))
import qops_ref  # noqa: E402  (independent NumPy reference)


def quantize_weight(w, axis=None):
    """quantize_dynamic's symmetric int8 weights (QInt8, reduce_range off):
    scale = max|w| / 127 per tensor or along `axis`, zero point 0."""
    if axis is None:
        scale = np.array(np.abs(w).max() / 127.0, np.float32)
    else:
        other = tuple(d for d in range(w.ndim) if d != axis)
        scale = (np.abs(w).max(axis=other) / 127.0).astype(np.float32)
    shape = [1] * w.ndim
    if axis is not None:
        shape[axis] = -1
    q = np.clip(np.rint(w / scale.reshape(shape)), -127, 127).astype(np.int8)
    return q, scale, np.zeros(scale.shape, np.int8)


class Graph:
    def __init__(self):
        self.nodes, self.inits = [], []

    def init(self, name, value):
        self.inits.append(numpy_helper.from_array(value, name))
        return name

    def node(self, op, inputs, outputs, **attrs):
        self.nodes.append(helper.make_node(op, inputs, outputs, name=outputs[0] + "_node", **attrs))
        return outputs[0]


def dynamic_layer(g, x, name, op, wq, w_scale, w_zp, bias=None, **attrs):
    """One layer as quantize_dynamic writes it; returns the output name.
    A conv bias goes through Reshape [1, -1, 1, ...] and Add (its
    ConvInteger quantizer), a matmul bias is the model's own Add after it."""
    g.node("DynamicQuantizeLinear", [x], [x + "_q", x + "_scale", x + "_zp"])
    w = g.init(name + "_w", wq)
    ws = g.init(name + "_w_scale", w_scale)
    wzp = g.init(name + "_w_zp", w_zp)
    g.node(op, [x + "_q", w, x + "_zp", wzp], [name + "_int"], **attrs)
    g.node("Cast", [name + "_int"], [name + "_float"], to=TensorProto.FLOAT)
    g.node("Mul", [x + "_scale", ws], [name + "_scales"])
    out = g.node("Mul", [name + "_float", name + "_scales"], [name + "_scaled"])
    if bias is None:
        return out
    b = g.init(name + "_bias", bias)
    if op == "ConvInteger":
        shape = g.init(name + "_bias_shape", np.array([1, -1] + [1] * (wq.ndim - 2), np.int64))
        b = g.node("Reshape", [b, shape], [name + "_bias_reshaped"])
    return g.node("Add", [out, b], [name + "_out"])


def ref_layer(x, kind, wq, w_scale, w_zp, bias=None, **conv):
    """The same layer in NumPy: f32 at every float step, as ONNX's ops."""
    q, s, zp = qops_ref.dynamic_quantize_linear(x)
    if kind == "ConvInteger":
        acc = qops_ref.conv_integer(q, wq, zp, w_zp, **conv)
        cshape = (1, -1) + (1,) * (wq.ndim - 2)
    else:
        acc = qops_ref.matmul_integer(q, wq, zp, w_zp)
        cshape = (-1,)
    scales = (np.float32(s) * w_scale).astype(np.float32)
    y = acc.astype(np.float32) * scales.reshape(cshape if scales.ndim else ())
    if bias is not None:
        y = y + bias.reshape(cshape)
    return y.astype(np.float32)


def conv_chain(out, name, n, c, h, w, m1, m2, k, rng):
    x = rng.standard_normal((n, c, h, w)).astype(np.float32)
    w1, s1, z1 = quantize_weight(rng.standard_normal((m1, c, k, k)).astype(np.float32) * 0.1)
    w2, s2, z2 = quantize_weight(rng.standard_normal((m2, m1, 1, 1)).astype(np.float32) * 0.1)
    b1 = rng.standard_normal(m1).astype(np.float32) * 0.1
    b2 = rng.standard_normal(m2).astype(np.float32) * 0.1
    pads = [k // 2] * 4
    g = Graph()
    h1 = dynamic_layer(g, "x", "conv1", "ConvInteger", w1, s1, z1, b1, pads=pads)
    r = g.node("Relu", [h1], ["relu1"])
    y = dynamic_layer(g, r, "conv2", "ConvInteger", w2, s2, z2, b2)
    g.node("Identity", [y], ["y"])
    conv = dict(pads=pads)
    ref = ref_layer(x, "ConvInteger", w1, s1, z1, b1, **conv)
    ref = np.maximum(ref, np.float32(0))
    ref = ref_layer(ref, "ConvInteger", w2, s2, z2, b2)
    save(out, name, g, x, ref)


def mlp(out, name, b, s, d0, d1, d2, rng):
    x = rng.standard_normal((b, s, d0)).astype(np.float32)
    w1, s1, z1 = quantize_weight(rng.standard_normal((d0, d1)).astype(np.float32) * 0.1, axis=1)
    w2, s2, z2 = quantize_weight(rng.standard_normal((d1, d2)).astype(np.float32) * 0.1)
    b1 = rng.standard_normal(d1).astype(np.float32) * 0.1
    g = Graph()
    h1 = dynamic_layer(g, "x", "fc1", "MatMulInteger", w1, s1, z1, b1)
    r = g.node("Relu", [h1], ["relu1"])
    y = dynamic_layer(g, r, "fc2", "MatMulInteger", w2, s2, z2)
    g.node("Identity", [y], ["y"])
    ref = np.maximum(ref_layer(x, "MatMulInteger", w1, s1, z1, b1), np.float32(0))
    ref = ref_layer(ref, "MatMulInteger", w2, s2, z2)
    save(out, name, g, x, ref)


def save(out, name, g, x, y):
    graph = helper.make_graph(
        g.nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, y.shape)], g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, name + ".onnx"))
    np.save(os.path.join(out, name + ".x.npy"), x)
    np.save(os.path.join(out, name + ".y.npy"), y)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kind", choices=["conv-chain", "mlp"])
    parser.add_argument("out")
    parser.add_argument("--dims", type=int, nargs="+")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--name")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    name = args.name or args.kind
    if args.kind == "conv-chain":
        dims = args.dims or [1, 8, 10, 10, 16, 8, 3]
        conv_chain(args.out, name, *dims, rng)
    else:
        dims = args.dims or [2, 5, 64, 48, 24]
        mlp(args.out, name, *dims, rng)


if __name__ == "__main__":
    main()
