"""Writes MatMulNBits models for matmul-nbits.test into OUT: splat.onnx,
whose B, scales and zero points are splat initializers (one value each:
protobuf's raw data of a repeated value), with its input and expected
output (splat.x.npy, splat.y.npy, NumPy); splat_b_out.onnx, the same with
B also a graph output (splat.b.npy); and models the importer refuses,
one per file, each with one thing wrong:

  bits3          bits = 3
  block8         block_size = 8 (not a power of 2 of at least 16)
  level7         accuracy_level = 7
  g_idx          a g_idx input
  float_zp       zero points of A's type (f32)
  b_input        B a graph input, not an initializer
  a_f16          A f16
  scales_count   scales with one element too few
  b_count        B with one blob byte too few per block
  b_type         B int8, not uint8
  k_mismatch     A's last dim 64, K = 32
  no_k           no K attribute
  huge_n         N = 2^40

    make_nbits_models.py OUT
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
K, N, BLOCK = 32, 4, 16


def model(name, attrs=None, a_type=TensorProto.FLOAT, a_k=K, inputs=None,
          inits=None, extra_inputs=(), extra_outputs=()):
    attrs = dict(dict(K=K, N=N, bits=4, block_size=BLOCK), **(attrs or {}))
    attrs = {k: v for k, v in attrs.items() if v is not None}
    b = numpy_helper.from_array(np.zeros((N, 2, 8), np.uint8), "B")
    s = numpy_helper.from_array(np.ones(N * 2, np.float32), "s")
    inits = [b, s] if inits is None else inits
    node = helper.make_node("MatMulNBits", inputs or ["a", "B", "s"], ["y"],
                            name=name, domain="com.microsoft", **attrs)
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info("a", a_type, [2, a_k])] + list(extra_inputs),
        [helper.make_tensor_value_info("y", a_type, [2, N])] + list(extra_outputs),
        initializer=inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21),
                                                helper.make_opsetid("com.microsoft", 1)])
    m.ir_version = 10
    onnx.save(m, os.path.join(out, name + ".onnx"))


model("bits3", {"bits": 3})
model("block8", {"block_size": 8})
model("level7", {"accuracy_level": 7})
model("g_idx", inputs=["a", "B", "s", "", "g"],
      inits=[numpy_helper.from_array(np.zeros((N, 2, 8), np.uint8), "B"),
             numpy_helper.from_array(np.ones(N * 2, np.float32), "s"),
             numpy_helper.from_array(np.zeros(K, np.int32), "g")])
model("float_zp", inputs=["a", "B", "s", "z"],
      inits=[numpy_helper.from_array(np.zeros((N, 2, 8), np.uint8), "B"),
             numpy_helper.from_array(np.ones(N * 2, np.float32), "s"),
             numpy_helper.from_array(np.zeros(N * 2, np.float32), "z")])
model("b_input", inits=[numpy_helper.from_array(np.ones(N * 2, np.float32), "s")],
      extra_inputs=[helper.make_tensor_value_info("B", TensorProto.UINT8, [N, 2, 8])])
model("a_f16", a_type=TensorProto.FLOAT16,
      inits=[numpy_helper.from_array(np.zeros((N, 2, 8), np.uint8), "B"),
             numpy_helper.from_array(np.ones(N * 2, np.float16), "s")])
model("scales_count", inits=[numpy_helper.from_array(np.zeros((N, 2, 8), np.uint8), "B"),
                             numpy_helper.from_array(np.ones(N * 2 - 1, np.float32), "s")])
model("b_count", inits=[numpy_helper.from_array(np.zeros((N, 2, 7), np.uint8), "B"),
                        numpy_helper.from_array(np.ones(N * 2, np.float32), "s")])
model("b_type", inits=[numpy_helper.from_array(np.zeros((N, 2, 8), np.int8), "B"),
                       numpy_helper.from_array(np.ones(N * 2, np.float32), "s")])
model("k_mismatch", a_k=64)
model("no_k", {"K": None})
model("huge_n", {"N": 1 << 40})


# splat: every B byte 0x21 (q = 1 at even k, 2 at odd k), scales 0.5, zero
# points 0x53 per row (block 0: 3, block 1: 5).
inits = [numpy_helper.from_array(np.full((N, 2, 8), 0x21, np.uint8), "B"),
         numpy_helper.from_array(np.full(N * 2, 0.5, np.float32), "s"),
         numpy_helper.from_array(np.full(N, 0x53, np.uint8), "z")]
model("splat", inputs=["a", "B", "s", "z"], inits=inits)
# B also a graph output: a constant is made of it, which the kernel reads.
model("splat_b_out", inputs=["a", "B", "s", "z"], inits=inits,
      extra_outputs=[helper.make_tensor_value_info("B", TensorProto.UINT8, [N, 2, 8])])
np.save(os.path.join(out, "splat.b.npy"), np.full((N, 2, 8), 0x21, np.uint8))
a = (np.arange(2 * K, dtype=np.float32).reshape(2, K) / 7).astype(np.float32)
q = np.tile(np.array([1, 2], np.int32), K // 2)
zp = np.repeat(np.array([3, 5]), BLOCK)
w = (q - zp).astype(np.float32) * np.float32(0.5)
y = np.zeros((2, N), np.float32)
for k in range(K):
    y = (y + (a[:, k:k + 1] * w[k]).astype(np.float32)).astype(np.float32)
np.save(os.path.join(out, "splat.x.npy"), a)
np.save(os.path.join(out, "splat.y.npy"), y)
