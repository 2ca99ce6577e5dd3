#!/usr/bin/env python3
"""make_float_models.py OUTDIR: writes the models of import-float-ops.test
(the float ops MatMul, Gemm, Transpose, Reshape, Add, Mul, Relu and Conv
of ai.onnx) with
Debian's python3-onnx, plus their inputs and expected outputs as .npy:

  NAME.onnx          the model
  NAME.x0.npy, ...   its graph inputs, in order (initializers are in the
                     model)
  NAME.y.npy         the expected output, computed here with NumPy from the
                     ONNX definitions, never by the project

Float MatMul (and Gemm's product) is accumulated in the element type in
increasing k starting from +0.0, one rounding per product and per addition
(docs/Numerics.md, "Float MatMul"), so the results are bit-exact.
Gemm rounds after each of alpha * AB, beta * C and their sum. Conv sums
each output's products in increasing (c, k..) order from +0.0, one rounding
per product and per addition, then adds B (the importer's linalg named
convolution's loop order).

The error models (prefix err_) have no data: the importer must reject them
with one line naming the node.
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
rng = np.random.default_rng(2024)

ONNX_TYPE = {
    np.dtype(np.float32): TensorProto.FLOAT,
    np.dtype(np.float64): TensorProto.DOUBLE,
    np.dtype(np.float16): TensorProto.FLOAT16,
    np.dtype(np.int8): TensorProto.INT8,
    np.dtype(np.uint8): TensorProto.UINT8,
    np.dtype(np.int32): TensorProto.INT32,
    np.dtype(np.int64): TensorProto.INT64,
}


def matmul_sequential(a, b):
    """numpy.matmul as ONNX defines it (1-D operands promoted, batch dims
    broadcast), accumulated in a's dtype in increasing k from +0.0 (f16:
    in f32, rounded once to f16 at the end, as the importer writes it)."""
    if a.dtype == np.float16:
        return matmul_sequential(a.astype(np.float32),
                                 b.astype(np.float32)).astype(np.float16)
    dtype = a.dtype
    a2 = a[None, :] if a.ndim == 1 else a
    b2 = b[:, None] if b.ndim == 1 else b
    batch = np.broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
    acc = np.zeros(batch + (a2.shape[-2], b2.shape[-1]), dtype=dtype)
    for k in range(a2.shape[-1]):
        acc = (acc + a2[..., :, k:k + 1] * b2[..., k:k + 1, :]).astype(dtype)
    if a.ndim == 1:
        acc = acc[..., 0, :]
    if b.ndim == 1:
        acc = acc[..., 0]
    return acc


def randn(shape, dtype=np.float32):
    return (rng.standard_normal(shape) * 2).astype(dtype)


def vinfo(name, dtype, shape):
    return helper.make_tensor_value_info(name, ONNX_TYPE[np.dtype(dtype)],
                                         shape)


def save(name, nodes, inputs, output, opset=13, initializers=(),
         input_infos=None):
    """inputs: [(name, array)] graph inputs; output: (name, array) or
    (name, dtype, shape) for the error models; initializers: [(name,
    array)]."""
    if input_infos is None:
        input_infos = [vinfo(n, a.dtype, list(a.shape)) for n, a in inputs]
    if len(output) == 2:
        out_info = vinfo(output[0], output[1].dtype, list(output[1].shape))
    else:
        out_info = vinfo(*output)
    graph = helper.make_graph(
        nodes, name, input_infos, [out_info],
        initializer=[numpy_helper.from_array(np.asarray(a), n)
                     for n, a in initializers])
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", opset)],
        producer_name="quantops make_float_models.py")
    model.ir_version = 8
    onnx.save(model, os.path.join(OUT, name + ".onnx"))
    for i, (_, a) in enumerate(inputs):
        np.save(os.path.join(OUT, "%s.x%d.npy" % (name, i)), a)
    if len(output) == 2:
        np.save(os.path.join(OUT, name + ".y.npy"), output[1])


def node(op, inputs, outputs=("y",), **attrs):
    return helper.make_node(op, list(inputs), list(outputs), name="n_" + op,
                            **attrs)


# ---------------------------------------------------------------------------
# MatMul
# ---------------------------------------------------------------------------

def matmul_case(name, a_shape, b_shape, dtype=np.float32, b_init=False):
    a, b = randn(a_shape, dtype), randn(b_shape, dtype)
    y = matmul_sequential(a, b)
    if b_init:  # B an initializer, as in QDQ models
        save(name, [node("MatMul", ["a", "b"])], [("a", a)], ("y", y),
             initializers=[("b", b)])
    else:
        save(name, [node("MatMul", ["a", "b"])], [("a", a), ("b", b)],
             ("y", y))


matmul_case("mm_2d", (3, 5), (5, 4))
matmul_case("mm_2d_init", (4, 7), (7, 3), b_init=True)
matmul_case("mm_3d_2d", (2, 3, 5), (5, 4))
matmul_case("mm_4d_2d", (2, 3, 2, 5), (5, 3))
matmul_case("mm_batch3", (2, 3, 5), (2, 5, 4))
matmul_case("mm_batch4", (2, 2, 3, 4), (2, 2, 4, 3))
matmul_case("mm_1d_2d", (5,), (5, 3))
matmul_case("mm_2d_1d", (3, 5), (5,))
matmul_case("mm_3d_1d", (2, 3, 5), (5,))
matmul_case("mm_1d_1d", (6,), (6,))
matmul_case("mm_f64", (3, 5), (5, 4), np.float64)
matmul_case("mm_f64_3d", (2, 3, 5), (5, 2), np.float64)
# f16: f32 sums of the extended values, rounded once (the float kernel's
# 21 x 40 x 37 tiles, and a batch).
matmul_case("mm_f16", (21, 40), (40, 37), np.float16)
matmul_case("mm_f16_batch", (2, 3, 50), (2, 50, 4), np.float16)
# Long accumulation: the sequential order matters bit-wise.
matmul_case("mm_long", (4, 300), (300, 5))

# ---------------------------------------------------------------------------
# Gemm: Y = alpha * A' B' + beta * C
# ---------------------------------------------------------------------------


def gemm_case(name, m, k, n, c_shape=None, alpha=1.0, beta=1.0, trans_a=0,
              trans_b=0, c_input=False, opset=13, dtype=np.float32, c=None):
    a = randn((k, m) if trans_a else (m, k), dtype)
    b = randn((n, k) if trans_b else (k, n), dtype)
    ab = matmul_sequential(a.T.copy() if trans_a else a,
                           b.T.copy() if trans_b else b)
    attrs = {}
    if alpha != 1.0:
        attrs["alpha"] = alpha
    if beta != 1.0:
        attrs["beta"] = beta
    if trans_a:
        attrs["transA"] = 1
    if trans_b:
        attrs["transB"] = 1
    # The attributes are FLOATs: their f32 values, widened for f64 data.
    alpha_t, beta_t = dtype(np.float32(alpha)), dtype(np.float32(beta))
    y = (alpha_t * ab).astype(dtype)
    inputs, inits = [("a", a)], [("b", b)]
    names = ["a", "b"]
    if c_shape is not None:
        if c is None:
            c = randn(c_shape, dtype)
        if beta != 0:  # beta = 0 ignores C (as BLAS and onnxruntime do)
            y = (y + (beta_t * c).astype(dtype)).astype(dtype)
        (inputs if c_input else inits).append(("c", c))
        names.append("c")
    save(name, [node("Gemm", names, **attrs)], inputs, ("y", y), opset=opset,
         initializers=inits)


gemm_case("gemm_plain", 3, 4, 5, c_shape=(5,))
gemm_case("gemm_transa", 3, 4, 5, c_shape=(3, 5), trans_a=1)
gemm_case("gemm_transb", 3, 4, 5, c_shape=(5,), trans_b=1)
gemm_case("gemm_transab", 4, 6, 3, c_shape=(4, 3), trans_a=1, trans_b=1,
          alpha=0.75, beta=-1.5)
gemm_case("gemm_alpha_beta", 3, 4, 5, c_shape=(5,), alpha=0.5, beta=2.0)
gemm_case("gemm_c_mn", 3, 4, 5, c_shape=(3, 5), beta=0.25, c_input=True)
gemm_case("gemm_c_1n", 3, 4, 5, c_shape=(1, 5), alpha=-2.0)
gemm_case("gemm_c_m1", 3, 4, 5, c_shape=(3, 1))
gemm_case("gemm_c_scalar", 3, 4, 5, c_shape=(), beta=3.0)
gemm_case("gemm_c_scalar_input", 3, 4, 5, c_shape=(), c_input=True)
gemm_case("gemm_no_c", 3, 4, 5, alpha=2.0, trans_b=1)
gemm_case("gemm_no_c_plain", 2, 3, 4)
gemm_case("gemm_opset11", 3, 4, 5, c_shape=(5,), alpha=1.5, opset=11)
gemm_case("gemm_f64", 3, 4, 5, c_shape=(3, 1), alpha=0.1, beta=0.3,
          trans_b=1, dtype=np.float64)
# beta = 0: C is not read, so an Inf in it does not make NaNs.
gemm_case("gemm_beta0", 2, 3, 4, c_shape=(4,), beta=0.0,
          c=np.array([np.inf, -np.inf, np.nan, 1], np.float32))
gemm_case("gemm_beta0_alpha", 2, 3, 4, c_shape=(2, 4), alpha=3.0, beta=0.0)

# ---------------------------------------------------------------------------
# Transpose
# ---------------------------------------------------------------------------


def transpose_case(name, x, perm=None):
    attrs = {} if perm is None else {"perm": list(perm)}
    save(name, [node("Transpose", ["x"], **attrs)], [("x", x)],
         ("y", np.transpose(x, perm).copy()))


transpose_case("tr_default_2d", randn((3, 5)))
transpose_case("tr_default_3d", randn((2, 3, 4)))
transpose_case("tr_perm", randn((2, 3, 4)), (1, 2, 0))
transpose_case("tr_perm4", randn((2, 3, 4, 5)), (0, 2, 3, 1))
transpose_case("tr_identity", randn((2, 3)), (0, 1))
transpose_case("tr_u8", rng.integers(0, 256, (2, 3, 4), dtype=np.uint8),
               (2, 0, 1))
transpose_case("tr_i8", rng.integers(-128, 128, (3, 4), dtype=np.int8))
transpose_case("tr_i32", rng.integers(-2**31, 2**31, (3, 4), dtype=np.int32),
               (1, 0))
transpose_case("tr_1d", randn((5,)))
transpose_case("tr_scalar", randn(()))

# ---------------------------------------------------------------------------
# Reshape (shape a constant initializer)
# ---------------------------------------------------------------------------


def reshape_case(name, x, shape, expected_shape, allowzero=None, opset=13):
    attrs = {} if allowzero is None else {"allowzero": allowzero}
    y = x.reshape(expected_shape)
    save(name, [node("Reshape", ["x", "shape"], **attrs)], [("x", x)],
         ("y", y), opset=opset,
         initializers=[("shape", np.array(shape, dtype=np.int64))])


reshape_case("rs_plain", randn((2, 3, 4)), [4, 6], (4, 6))
reshape_case("rs_zero", randn((2, 3, 4)), [0, 12], (2, 12))
reshape_case("rs_zero_mid", randn((2, 3, 4)), [4, 0, 2], (4, 3, 2))
reshape_case("rs_minus1", randn((2, 3, 4)), [-1, 4], (6, 4))
reshape_case("rs_zero_minus1", randn((2, 3, 4)), [0, -1], (2, 12))
reshape_case("rs_flatten", randn((2, 3, 4)), [-1], (24,))
reshape_case("rs_to_scalar", randn((1, 1)), [], ())
reshape_case("rs_from_scalar", randn(()), [1, 1, 1], (1, 1, 1))
# allowzero = 1 (opset 14): a 0 is a 0; with an empty input.
reshape_case("rs_allowzero", randn((0, 3)), [3, 0], (3, 0), allowzero=1,
             opset=14)
# allowzero = 1 without zeros behaves as usual.
reshape_case("rs_allowzero_nz", randn((2, 6)), [3, -1], (3, 4), allowzero=1,
             opset=14)
# allowzero = 0 written out at opset 14: 0 copies.
reshape_case("rs_allowzero0", randn((2, 6)), [0, 3, 2], (2, 3, 2),
             allowzero=0, opset=14)
reshape_case("rs_u8", rng.integers(0, 256, (4, 6), dtype=np.uint8),
             [2, -1, 3], (2, 4, 3))
reshape_case("rs_i8", rng.integers(-128, 128, (4, 6), dtype=np.int8),
             [0, 2, 3], (4, 2, 3))

# ---------------------------------------------------------------------------
# Add (numpy broadcasting)
# ---------------------------------------------------------------------------


def add_case(name, a, b, b_init=False):
    with np.errstate(over="ignore"):
        y = np.add(a, b)
    assert y.dtype == a.dtype
    if b_init:
        save(name, [node("Add", ["a", "b"])], [("a", a)], ("y", y),
             initializers=[("b", b)])
    else:
        save(name, [node("Add", ["a", "b"])], [("a", a), ("b", b)], ("y", y))


add_case("add_same", randn((2, 3)), randn((2, 3)))
add_case("add_bcast_row", randn((2, 3, 4)), randn((4,)), b_init=True)
add_case("add_bcast_both", randn((2, 1, 4)), randn((3, 1)))
add_case("add_scalar", randn((2, 3)), randn(()))
add_case("add_f64", randn((3, 1), np.float64), randn((1, 4), np.float64))
add_case("add_i32", rng.integers(-1000, 1000, (2, 3), dtype=np.int32),
         rng.integers(-1000, 1000, (3,), dtype=np.int32))
add_case("add_i32_wrap", np.array([2**31 - 1, -2**31, 5], dtype=np.int32),
         np.array([1, -1, 7], dtype=np.int32))
add_case("add_i8_wrap", np.array([[127, -128, 100], [-100, 0, 1]], np.int8),
         np.array([1, -1, 100], np.int8))
add_case("add_u8_wrap", np.array([[255, 0, 200]], np.uint8),
         np.array([[1], [2]], np.uint8))
add_case("add_f16", np.array([1, 2, 65504, 0.1], np.float16),
         np.array([0.5, -2, 65504, 0.2], np.float16))

# ---------------------------------------------------------------------------
# Mul (numpy broadcasting), Relu
# ---------------------------------------------------------------------------


def elementwise_case(name, op, arrays, y):
    save(name, [node(op, ["a", "b"][:len(arrays)])],
         list(zip(["a", "b"], arrays)), ("y", y))


a, b = randn((2, 3, 4)), randn((3, 1))
elementwise_case("mul_bcast", "Mul", [a, b], (a * b).astype(np.float32))
a = rng.integers(-2**31, 2**31, (5,), dtype=np.int64).astype(np.int32)
b = rng.integers(-2**31, 2**31, (5,), dtype=np.int64).astype(np.int32)
with np.errstate(over="ignore"):
    elementwise_case("mul_i32_wrap", "Mul", [a, b], np.multiply(a, b))
a = randn((3, 5))
elementwise_case("relu", "Relu", [a], np.maximum(a, np.float32(0)))
a = rng.integers(-128, 128, (7,), dtype=np.int8)
elementwise_case("relu_i8", "Relu", [a], np.maximum(a, np.int8(0)))

# ---------------------------------------------------------------------------
# Conv (f32 / f64), 1-D to 3-D
# ---------------------------------------------------------------------------


def conv_sequential(x, w, b, strides, dilations, pads, group):
    """ONNX Conv in x's dtype: +0.0, then each product added in increasing
    (c, k..) order (one rounding each), then + B."""
    dtype, s = x.dtype, x.ndim - 2
    m, cg = w.shape[:2]
    xp = np.pad(x, [(0, 0), (0, 0)] + [(pads[i], pads[s + i]) for i in range(s)])
    out = [(xp.shape[2 + i] - (w.shape[2 + i] - 1) * dilations[i] - 1) // strides[i] + 1
           for i in range(s)]
    y = np.zeros((x.shape[0], m) + tuple(out), dtype)
    mg = m // group
    for g in range(group):
        for c in range(cg):
            for k in np.ndindex(*w.shape[2:]):
                window = xp[(slice(None), g * cg + c) + tuple(
                    slice(k[i] * dilations[i], k[i] * dilations[i] + strides[i] * (out[i] - 1) + 1,
                          strides[i]) for i in range(s))]
                wv = w[(slice(g * mg, (g + 1) * mg), c) + k].reshape((1, mg) + (1,) * s)
                part = y[:, g * mg:(g + 1) * mg]
                y[:, g * mg:(g + 1) * mg] = (part + (window[:, None] * wv).astype(dtype)).astype(dtype)
    if b is not None:
        y = (y + b.reshape((1, m) + (1,) * s)).astype(dtype)
    return y


def conv_case(name, xshape, wshape, bias=True, dtype=np.float32, strides=None,
              dilations=None, pads=None, group=1, auto_pad=None, infos=None, **extra):
    s = len(xshape) - 2
    x, w = randn(xshape, dtype), randn(wshape, dtype)
    b = randn((wshape[0],), dtype) if bias else None
    attrs = dict(group=group) if group != 1 else {}
    for key, value in (("strides", strides), ("dilations", dilations), ("pads", pads),
                       ("auto_pad", auto_pad)):
        if value is not None:
            attrs[key] = value
    attrs.update(extra)
    strides = strides or [1] * s
    dilations = dilations or [1] * s
    if auto_pad == "SAME_UPPER":
        pads = [0] * (2 * s)
        for i in range(s):
            o = -(-xshape[2 + i] // strides[i])
            total = max(0, (o - 1) * strides[i] + (wshape[2 + i] - 1) * dilations[i] + 1 - xshape[2 + i])
            pads[i], pads[s + i] = total // 2, total - total // 2
    y = conv_sequential(x, w, b, strides, dilations, pads or [0] * (2 * s), group)
    inits = [("w", w)] + ([("b", b)] if bias else [])
    save(name, [node("Conv", ["x", "w"] + (["b"] if bias else []), **attrs)], [("x", x)],
         ("y", y), initializers=inits, input_infos=infos)


conv_case("conv_1d", (2, 3, 11), (4, 3, 3), strides=[2], pads=[1, 2])
conv_case("conv_2d_groups", (1, 4, 7, 8), (6, 2, 3, 2), bias=False, group=2,
          dilations=[2, 1], pads=[1, 0, 2, 1])
conv_case("conv_2d_depthwise", (2, 3, 6, 6), (3, 1, 3, 3), group=3, pads=[1, 1, 1, 1],
          strides=[2, 2])
conv_case("conv_3d", (1, 2, 4, 5, 5), (3, 2, 2, 3, 3), pads=[1, 0, 1, 0, 1, 1])
conv_case("conv_f64", (1, 2, 5, 5), (2, 2, 3, 3), dtype=np.float64, kernel_shape=[3, 3])
conv_case("conv_same_upper", (1, 2, 7, 6), (3, 2, 3, 3), strides=[2, 2], auto_pad="SAME_UPPER")
conv_case("conv_dyn_batch", (2, 3, 6, 6), (4, 3, 3, 3), pads=[1, 1, 1, 1],
          infos=[vinfo("x", np.float32, ["n", 3, 6, 6])])

# ---------------------------------------------------------------------------
# Dynamic dims (dim_param): the data below gives their run-time sizes
# ---------------------------------------------------------------------------


def dyn_case(name, nodes, infos, inputs, y, initializers=()):
    save(name, nodes, inputs, ("y", y), input_infos=infos,
         initializers=initializers)
    # The output is declared with y's static shape; where the computed
    # dims are dynamic, the importer has nothing to compare it with.


a, b = randn((2, 3, 5)), randn((5, 4))
dyn_case("mm_dyn_rows", [node("MatMul", ["a", "b"])],
         [vinfo("a", np.float32, ["n", 3, 5]), vinfo("b", np.float32, [5, 4])],
         [("a", a), ("b", b)], matmul_sequential(a, b))
a, b = randn((2, 3)), randn((3, 4))
dyn_case("mm_dyn_k", [node("MatMul", ["a", "b"])],
         [vinfo("a", np.float32, [2, "k"]), vinfo("b", np.float32, ["k2", 4])],
         [("a", a), ("b", b)], matmul_sequential(a, b))
np.save(os.path.join(OUT, "mm_dyn_k.bad.npy"), randn((4, 4)))
a, b = randn((4,)), randn((4,))
dyn_case("mm_dyn_1d", [node("MatMul", ["a", "b"])],
         [vinfo("a", np.float32, ["k"]), vinfo("b", np.float32, ["k2"])],
         [("a", a), ("b", b)], matmul_sequential(a, b))
np.save(os.path.join(OUT, "mm_dyn_1d.bad.npy"), randn((3,)))
# C [3, 5] against a dynamic M: M must be 3 when it runs.
a, b, c = randn((3, 4)), randn((4, 5)), randn((3, 5))
dyn_case("gemm_dyn_c", [node("Gemm", ["a", "b", "c"])],
         [vinfo("a", np.float32, ["m", 4])], [("a", a)],
         (matmul_sequential(a, b) + c).astype(np.float32),
         initializers=[("b", b), ("c", c)])
np.save(os.path.join(OUT, "gemm_dyn_c.bad.npy"), randn((1, 4)))

# ---------------------------------------------------------------------------
# Chains: the ops of a QDQ model's float glue together
# ---------------------------------------------------------------------------

x = randn((2, 3, 4))
w = randn((6, 4))  # Gemm-style weight [N, K]
bias = randn((6,))
xr = x.reshape(6, 4)
y = matmul_sequential(xr, np.ascontiguousarray(w.T))
y = (y + bias).astype(np.float32).reshape(2, 3, 6)
y = np.ascontiguousarray(np.transpose(y, (0, 2, 1)))
save("chain", [node("Reshape", ["x", "s1"], ["r"]),
               node("Transpose", ["w"], ["wt"]),
               node("MatMul", ["r", "wt"], ["m"]),
               node("Add", ["m", "bias"], ["a"]),
               node("Reshape", ["a", "s2"], ["r2"]),
               helper.make_node("Transpose", ["r2"], ["y"], name="n_tr2",
                                perm=[0, 2, 1])],
     [("x", x)], ("y", y),
     initializers=[("w", w), ("bias", bias),
                   ("s1", np.array([-1, 4], np.int64)),
                   ("s2", np.array([2, 3, 6], np.int64))])

# ---------------------------------------------------------------------------
# Errors (no data)
# ---------------------------------------------------------------------------

F32 = np.float32


def err(name, nodes, input_infos, opset=13, initializers=(),
        out=("y", F32, None)):
    save(name, nodes, [], out, opset=opset, initializers=initializers,
         input_infos=input_infos)


def mm_err(name, a_type, a_shape, b_type, b_shape):
    err(name, [node("MatMul", ["a", "b"])],
        [vinfo("a", a_type, a_shape), vinfo("b", b_type, b_shape)])


mm_err("err_mm_bcast", F32, [2, 3, 4], F32, [1, 4, 5])
mm_err("err_mm_bcast_rank", F32, [3, 4], F32, [2, 4, 5])
mm_err("err_mm_batch_differ", F32, [2, 3, 4], F32, [3, 4, 5])
mm_err("err_mm_inner", F32, [2, 3], F32, [4, 5])
mm_err("err_mm_inner_1d", F32, [3], F32, [4])
mm_err("err_mm_int8", np.int8, [2, 3], np.int8, [3, 4])
mm_err("err_mm_types", F32, [2, 3], np.float64, [3, 4])
mm_err("err_mm_scalar", F32, [], F32, [3])


def gemm_err(name, a_shape, b_shape, c_shape=None, opset=13, **attrs):
    infos = [vinfo("a", F32, a_shape), vinfo("b", F32, b_shape)]
    names = ["a", "b"]
    if c_shape is not None:
        infos.append(vinfo("c", F32, c_shape))
        names.append("c")
    err(name, [node("Gemm", names, **attrs)], infos, opset=opset)


gemm_err("err_gemm_3d", [2, 3, 4], [4, 5], [5])
gemm_err("err_gemm_1d", [4], [4, 5], [5])
gemm_err("err_gemm_inner", [3, 4], [5, 4], [5])
gemm_err("err_gemm_c_bad", [3, 4], [4, 5], [4])
gemm_err("err_gemm_c_rows", [3, 4], [4, 5], [2, 5])
# C [2, 5] broadcasts with [1, 5] both ways, but not to [M, N] = [1, 5].
gemm_err("err_gemm_c_uni", [1, 4], [4, 5], [2, 5])
gemm_err("err_gemm_c_3d", [3, 4], [4, 5], [1, 3, 5])
gemm_err("err_gemm_no_c_opset9", [3, 4], [4, 5], None, opset=9)
err("err_gemm_c_type", [node("Gemm", ["a", "b", "c"], alpha=2.0)],
    [vinfo("a", F32, [3, 4]), vinfo("b", F32, [4, 5]),
     vinfo("c", np.float64, [5])])
gemm_err("err_gemm_c_beta0", [3, 4], [4, 5], [2, 5], beta=0.0)
gemm_err("err_gemm_c_dyn", [1, 4], [4, 5], ["m", 5])
err("err_gemm_alpha_int", [node("Gemm", ["a", "b"], alpha=2)],
    [vinfo("a", F32, [3, 4]), vinfo("b", F32, [4, 5])])


def tr_err(name, perm, shape=(2, 3, 4)):
    err(name, [node("Transpose", ["x"], perm=perm)],
        [vinfo("x", F32, list(shape))])


tr_err("err_tr_dup", [0, 0, 1])
tr_err("err_tr_range", [0, 1, 3])
tr_err("err_tr_negative", [-1, 0, 1])
tr_err("err_tr_short", [1, 0])
tr_err("err_tr_long", [0, 1, 2, 3])


def rs_err(name, shape, x_shape=(2, 3, 4), opset=13, **attrs):
    err(name, [node("Reshape", ["x", "shape"], **attrs)],
        [vinfo("x", F32, list(x_shape))], opset=opset,
        initializers=[("shape", np.array(shape, np.int64))])


err("err_rs_nonconst", [node("Reshape", ["x", "shape"])],
    [vinfo("x", F32, [2, 3, 4]), vinfo("shape", np.int64, [2])])
rs_err("err_rs_two_minus1", [-1, -1])
rs_err("err_rs_count", [5, 5])
rs_err("err_rs_negative", [-2, 12])
rs_err("err_rs_zero_rank", [0, 0, 0, 0])
rs_err("err_rs_infer", [-1, 5])
rs_err("err_rs_infer_zero", [-1, 0], x_shape=(0, 3), opset=14, allowzero=1)
rs_err("err_rs_dynamic", [-1], x_shape=("n", 3))
rs_err("err_rs_allowzero13", [4, 6], allowzero=1)
rs_err("err_rs_opset4", [4, 6], opset=4)
rs_err("err_rs_shape_0d", 24)


def add_err(name, a_type, a_shape, b_type, b_shape):
    err(name, [node("Add", ["a", "b"])],
        [vinfo("a", a_type, a_shape), vinfo("b", b_type, b_shape)])


add_err("err_add_types", F32, [2, 3], np.float64, [2, 3])
add_err("err_add_int_types", np.int32, [2, 3], np.int8, [2, 3])
add_err("err_add_shapes", F32, [2, 3], F32, [4])
add_err("err_add_shapes2", F32, [2, 3, 4], F32, [3, 1, 5])
err("err_add_bool", [node("Add", ["a", "b"])],
    [helper.make_tensor_value_info("a", TensorProto.BOOL, [2]),
     helper.make_tensor_value_info("b", TensorProto.BOOL, [2])])
# Add-6's broadcast attribute (axis-aligned broadcasting) is not numpy's.
err("err_add_broadcast_attr", [node("Add", ["a", "b"], broadcast=1)],
    [vinfo("a", F32, [2, 3]), vinfo("b", F32, [3])], opset=6)
err("err_mm_attr", [node("MatMul", ["a", "b"], transA=1)],
    [vinfo("a", F32, [2, 3]), vinfo("b", F32, [3, 4])])

# Conv
err("err_conv_int", [node("Conv", ["x", "w"])],
    [vinfo("x", np.int8, [1, 2, 4, 4]), vinfo("w", np.int8, [2, 2, 3, 3])])
err("err_conv_types", [node("Conv", ["x", "w"])],
    [vinfo("x", F32, [1, 2, 4, 4]), vinfo("w", np.float64, [2, 2, 3, 3])])
err("err_conv_group_1d", [node("Conv", ["x", "w"], group=2)],
    [vinfo("x", F32, [1, 4, 9]), vinfo("w", F32, [2, 2, 3])])
err("err_conv_group", [node("Conv", ["x", "w"], group=3)],
    [vinfo("x", F32, [1, 4, 9, 9]), vinfo("w", F32, [3, 2, 3, 3])])
err("err_conv_bias", [node("Conv", ["x", "w", "b"])],
    [vinfo("x", F32, [1, 2, 4, 4]), vinfo("w", F32, [2, 2, 3, 3]), vinfo("b", F32, [3])])
err("err_conv_dynamic", [node("Conv", ["x", "w"])],
    [vinfo("x", F32, [1, 2, "h", 4]), vinfo("w", F32, [2, 2, 3, 3])])
err("err_relu_u8", [node("Relu", ["x"])], [vinfo("x", np.uint8, [3])],
    out=("y", np.uint8, None))
