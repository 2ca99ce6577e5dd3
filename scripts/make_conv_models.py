#!/usr/bin/env python3
"""Writes single-node convolution models as ONNX Runtime's static quantizer
writes them (QOperator form: u8 activations, si8 weights per output channel,
int32 bias, constant weights) with Debian's python3-onnx, plus an input and
the NumPy reference of the output (qops_ref.qlinear_conv / conv_integer /
matmul_integer, written from SPEC.md). Used by bench/conv/run.py.

  qlinearconv  x u8 [N, C, H, W] -> QLinearConv(w si8 [M, C/G, K, K] per
               channel, bias [M]; strides, pads, group) -> y u8  (opset 13)
  convinteger  x u8 -> ConvInteger(w si8 per tensor, x_zp) -> y int32
  matmulinteger  a u8 [M, K] -> MatMulInteger(b si8 [K, N] constant, zero
               points) -> y int32

  make_conv_models.py KIND OUT_DIR --name NAME --dims N C H W M K
                      [--stride S] [--pad P] [--group G] [--seed N]
  (matmulinteger: --dims M K N)

Writes OUT_DIR/NAME.onnx, NAME.x.npy (the input) and NAME.y.npy.
"""

import argparse
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "test", "Integration", "reference"))
import qops_ref  # noqa: E402


def write(model, out_dir, name, x, y):
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out_dir, name + ".onnx"))
    np.save(os.path.join(out_dir, name + ".x.npy"), x)
    np.save(os.path.join(out_dir, name + ".y.npy"), y)


def conv_model(kind, dims, stride, pad, group, rng):
    n, c, h, w, m, k = dims
    x = rng.integers(0, 256, size=(n, c, h, w), dtype=np.uint8)
    wt = rng.integers(-127, 128, size=(m, c // group, k, k), dtype=np.int8)
    attrs = dict(strides=[stride, stride], pads=[pad] * 4, group=group,
                 kernel_shape=[k, k])
    kw = dict(strides=[stride, stride], pads=[pad] * 4, group=group)
    xzp = np.array(rng.integers(100, 156), np.uint8)
    if kind == "convinteger":
        wzp = np.array(0, np.int8)
        y = qops_ref.conv_integer(x, wt, xzp, wzp, **kw)
        inits = [numpy_helper.from_array(wt, "w"), numpy_helper.from_array(xzp, "xzp"),
                 numpy_helper.from_array(wzp, "wzp")]
        node = helper.make_node("ConvInteger", ["x", "w", "xzp", "wzp"], ["y"], **attrs)
        out_type = TensorProto.INT32
    else:
        xs = np.array(0.02, np.float32)
        ws = rng.uniform(0.001, 0.004, size=m).astype(np.float32)
        wzp = np.zeros(m, np.int8)
        bias = rng.integers(-5000, 5000, size=m).astype(np.int32)
        taps = c // group * k * k
        ys = np.array(0.02 * 0.0025 * 128 * 128 * np.sqrt(taps) / 120, np.float32)  # y spread ~40 steps
        yzp = np.array(128, np.uint8)
        y = qops_ref.qlinear_conv(x, xs, xzp, wt, ws, wzp, ys, yzp, bias, **kw)
        inits = [numpy_helper.from_array(v, nm) for v, nm in
                 ((xs, "xs"), (xzp, "xzp"), (wt, "w"), (ws, "ws"), (wzp, "wzp"),
                  (ys, "ys"), (yzp, "yzp"), (bias, "b"))]
        node = helper.make_node("QLinearConv", ["x", "xs", "xzp", "w", "ws", "wzp", "ys", "yzp", "b"],
                                ["y"], **attrs)
        out_type = TensorProto.UINT8
    graph = helper.make_graph([node], "conv", [helper.make_tensor_value_info("x", TensorProto.UINT8, x.shape)],
                              [helper.make_tensor_value_info("y", out_type, y.shape)], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), x, y


def matmul_integer_model(dims, rng):
    m, k, n = dims
    a = rng.integers(0, 256, size=(m, k), dtype=np.uint8)
    b = rng.integers(-127, 128, size=(k, n), dtype=np.int8)
    azp, bzp = np.array(128, np.uint8), np.array(0, np.int8)
    y = qops_ref.matmul_integer(a, b, azp, bzp)
    inits = [numpy_helper.from_array(b, "b"), numpy_helper.from_array(azp, "azp"),
             numpy_helper.from_array(bzp, "bzp")]
    node = helper.make_node("MatMulInteger", ["a", "b", "azp", "bzp"], ["y"])
    graph = helper.make_graph([node], "mmi", [helper.make_tensor_value_info("a", TensorProto.UINT8, a.shape)],
                              [helper.make_tensor_value_info("y", TensorProto.INT32, y.shape)], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), a, y


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=["qlinearconv", "convinteger", "matmulinteger"])
    ap.add_argument("out_dir")
    ap.add_argument("--name", required=True)
    ap.add_argument("--dims", type=int, nargs="+", required=True)
    ap.add_argument("--stride", type=int, default=1)
    ap.add_argument("--pad", type=int, default=0)
    ap.add_argument("--group", type=int, default=1)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    if args.kind == "matmulinteger":
        model, x, y = matmul_integer_model(args.dims, rng)
    else:
        model, x, y = conv_model(args.kind, args.dims, args.stride, args.pad, args.group, rng)
    model.ir_version = 7
    write(model, args.out_dir, args.name, x, y)


if __name__ == "__main__":
    main()
