#!/usr/bin/env python3
"""Writes a stack of quantized layers as ONNX Runtime's static quantizer
writes them in QOperator form (Debian's python3-onnx): a transformer's
feed-forward blocks, L QLinearMatMul layers alternating 768 -> 3072 and
3072 -> 768 on a u8 activation [128, 768], constant si8 weights per output
column; plus its input (.npy for quant-runner, raw .bin for ONNX Runtime).
The layers repeat two shapes, as a model's blocks do: bench/compile/run.py
times its compilation (qops-share-loop-nests compiles each shape once).

  make_layer_models.py OUT_DIR --name NAME --layers L [--seed N]

Writes OUT_DIR/NAME.onnx, NAME.x.npy and NAME.x.bin.
"""

import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def ffn_stack(layers, rng):
    inits, nodes = [], []

    def const(name, value):
        inits.append(numpy_helper.from_array(value, name))
        return name

    const("x_scale", np.array(0.05, np.float32))
    const("x_zero_point", np.array(128, np.uint8))
    x = "x"
    for i in range(layers):
        k, n = (768, 3072) if i % 2 == 0 else (3072, 768)
        w = const(f"w{i}", rng.integers(-127, 128, (k, n), dtype=np.int8))
        ws = const(f"w{i}_scale", rng.uniform(0.0005, 0.002, n).astype(np.float32))
        wz = const(f"w{i}_zero_point", np.zeros(n, np.int8))
        y = f"y{i}"
        nodes.append(helper.make_node(
            "QLinearMatMul", [x, "x_scale", "x_zero_point", w, ws, wz, "x_scale", "x_zero_point"],
            [y], name=f"layer{i}"))
        x = y
    width = 3072 if layers % 2 else 768
    graph = helper.make_graph(
        nodes, "ffn_stack", [helper.make_tensor_value_info("x", TensorProto.UINT8, [128, 768])],
        [helper.make_tensor_value_info(x, TensorProto.UINT8, [128, width])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    return model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out_dir")
    parser.add_argument("--name", required=True)
    parser.add_argument("--layers", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    os.makedirs(args.out_dir, exist_ok=True)
    onnx.save(ffn_stack(args.layers, rng), os.path.join(args.out_dir, args.name + ".onnx"))
    x = rng.integers(0, 256, (128, 768), dtype=np.uint8)
    np.save(os.path.join(args.out_dir, args.name + ".x.npy"), x)
    x.tofile(os.path.join(args.out_dir, args.name + ".x.bin"))


if __name__ == "__main__":
    main()
