"""make_models.py GROUP OUTDIR: writes the ONNX models (and .pb/.npy data) of
one group of tests in test/ONNX into OUTDIR, encoded with onnx_writer.py.

Groups: versions, microsoft, matmul, conv, initializers, run, onnxtest,
dynamic, hostile.
Expected outputs are derived by hand (the values are in the comments) or with
NumPy, never with the project's code.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_writer import *  # noqa: E402,F403

GROUP, OUT = sys.argv[1], sys.argv[2]
os.makedirs(OUT, exist_ok=True)


def path(name):
    return os.path.join(OUT, name)


def write(name, model):
    save(path(name), model)


def f32(name, values, shape=None):
    a = np.array(values, dtype=np.float32)
    return tensor_from_numpy(name, a if shape is None else a.reshape(shape))


def single_node_model(node, inputs, outputs, initializers=(), opsets=(("", 13),)):
    graph = make_graph([node], "g", inputs, outputs, initializers)
    return make_model(graph, opsets)


def qdq_model(op, opset, attrs=(), x_type=FLOAT, x_shape=(2, 3), scale=None,
              zero_point=None, domain=None, name="n0", opsets=None, inputs=None):
    """One QuantizeLinear/DequantizeLinear node; x is the graph input, scale
    and zero_point (TensorProtos or None) are initializers 's' and 'zp'."""
    inits, node_inputs = [], ["x", "s"]
    if scale is None:
        scale = f32("s", 0.5)
    inits.append(scale)
    if zero_point is not None:
        inits.append(zero_point)
        node_inputs.append("zp")
    node = make_node(op, inputs or node_inputs, ["y"], name=name, domain=domain, attrs=attrs)
    if opsets is None:
        opsets = [("", opset)] + ([("com.microsoft", 1)] if domain == "com.microsoft" else [])
    return single_node_model(node, [make_value_info("x", x_type, x_shape)],
                             [make_value_info("y", UNDEFINED)], inits, opsets)


QL, DQL = "QuantizeLinear", "DequantizeLinear"


def zp(data_type, values, shape=()):
    return make_tensor("zp", data_type, shape, int32_data=values)


# --------------------------------------------------------------------------
# versions: ai.onnx QuantizeLinear / DequantizeLinear across opsets
# --------------------------------------------------------------------------
if GROUP == "versions":
    # QuantizeLinear-10: per-tensor, no axis at all.
    write("q10.onnx", qdq_model(QL, 10, zero_point=zp(UINT8, [3])))
    # ... so a 1-D scale has no axis to go along.
    write("q10_peraxis.onnx", qdq_model(QL, 10, name="q10_axis", scale=f32("s", [0.5, 1, 2]),
                                        zero_point=zp(UINT8, [0, 0, 0], (3,))))
    write("q10_axis_attr.onnx", qdq_model(QL, 10, attrs=[attr_int("axis", 0)], name="q10_attr"))
    # Opset 9 has no QuantizeLinear.
    write("q9.onnx", qdq_model(QL, 9, name="old"))
    # QuantizeLinear-13 without axis: axis = 1 written out.
    write("q13_default.onnx", qdq_model(QL, 13, scale=f32("s", [0.5, 1, 2]),
                                        zero_point=zp(INT8, [-1, 0, 1], (3,))))
    write("q13_axis0.onnx", qdq_model(QL, 13, attrs=[attr_int("axis", 0)],
                                      scale=f32("s", [0.5, 1]), zero_point=zp(UINT8, [0, 9], (2,))))
    write("q13_negaxis.onnx", qdq_model(QL, 13, attrs=[attr_int("axis", -1)],
                                        scale=f32("s", [0.5, 1, 2])))
    # An untyped INT attribute (old writers leave AttributeProto.type unset).
    write("q13_untyped_axis.onnx", qdq_model(QL, 13, attrs=[attr_int("axis", 0, typed=False)],
                                             scale=f32("s", [0.5, 1])))
    # QuantizeLinear-19: f16 x and scale, float8 output, saturate.
    write("q19_saturate.onnx", qdq_model(QL, 19, attrs=[attr_int("saturate", 0)], x_type=FLOAT16,
                                         scale=tensor_from_numpy("s", np.array(2.0, np.float16)),
                                         zero_point=zp(FLOAT8E4M3FN, [0])))
    # QuantizeLinear-21: blocked int4 through output_dtype.
    write("q21_blocked.onnx", qdq_model(QL, 21, x_shape=(2, 4),
                                        attrs=[attr_int("axis", 1), attr_int("block_size", 2),
                                               attr_int("output_dtype", INT4)],
                                        scale=f32("s", [1, 2, 3, 4], (2, 2))))
    write("q21_int16.onnx", qdq_model(QL, 21, zero_point=zp(INT16, [-300])))
    # QuantizeLinear-23: precision (the type of the division).
    write("q23_precision.onnx", qdq_model(QL, 23, attrs=[attr_int("precision", FLOAT)], x_type=FLOAT16,
                                          scale=tensor_from_numpy("s", np.array(0.5, np.float16)),
                                          zero_point=zp(UINT8, [128])))
    # QuantizeLinear-25: int2.
    write("q25_int2.onnx", qdq_model(QL, 25, attrs=[attr_int("output_dtype", INT2)]))
    # Opset 22 resolves to QuantizeLinear-21: precision is not yet allowed.
    write("q22_precision.onnx", qdq_model(QL, 22, attrs=[attr_int("precision", FLOAT)], name="q22"))
    # Attributes not part of the version.
    write("q13_block.onnx", qdq_model(QL, 13, attrs=[attr_int("block_size", 2)], name="q13_blk"))
    write("q13_saturate.onnx", qdq_model(QL, 13, attrs=[attr_int("saturate", 1)], name="q13_sat"))
    write("q21_precision.onnx", qdq_model(QL, 21, attrs=[attr_int("precision", FLOAT)], name="q21_prec"))
    write("q21_unknown.onnx", qdq_model(QL, 21, attrs=[attr_int("rounding", 1)], name="q21_unk"))
    # Wrong attribute kind and value.
    write("q13_float_axis.onnx", qdq_model(QL, 13, attrs=[attr_float("axis", 1.0)], name="fa"))
    write("q21_bad_dtype.onnx", qdq_model(QL, 21, attrs=[attr_int("output_dtype", 99)], name="bd"))
    write("q21_string_dtype.onnx", qdq_model(QL, 21, attrs=[attr_int("output_dtype", STRING)], name="sd"))
    # zero point and output_dtype disagree: the verifier's message, at the node.
    write("q21_zp_dtype.onnx", qdq_model(QL, 21, attrs=[attr_int("output_dtype", INT8)],
                                         zero_point=zp(UINT8, [0]), name="zd"))
    # Axis out of range: the verifier's message, at the node.
    write("q13_axis_range.onnx", qdq_model(QL, 13, attrs=[attr_int("axis", 2)],
                                           scale=f32("s", [0.5, 1, 2]), name="ar"))

    # DequantizeLinear across versions.
    write("dq10.onnx", qdq_model(DQL, 10, x_type=UINT8, zero_point=zp(UINT8, [3])))
    write("dq10_axis_attr.onnx", qdq_model(DQL, 10, x_type=UINT8, attrs=[attr_int("axis", 1)], name="dq10"))
    write("dq10_peraxis.onnx", qdq_model(DQL, 10, x_type=UINT8, scale=f32("s", [0.5, 1, 2]), name="dq10_axis"))
    write("dq13_default.onnx", qdq_model(DQL, 13, x_type=INT8, scale=f32("s", [0.5, 1, 2]),
                                         zero_point=zp(INT8, [-1, 0, 1], (3,))))
    write("dq13_int32.onnx", qdq_model(DQL, 13, x_type=INT32))
    write("dq19_saturate.onnx", qdq_model(DQL, 19, x_type=FLOAT8E4M3FN, attrs=[attr_int("saturate", 1)], name="dq19"))
    write("dq19_float8.onnx", qdq_model(DQL, 19, x_type=FLOAT8E5M2, scale=tensor_from_numpy("s", np.array(1.0, np.float16))))
    write("dq21_blocked.onnx", qdq_model(DQL, 21, x_type=INT4, x_shape=(2, 4),
                                         attrs=[attr_int("axis", 1), attr_int("block_size", 2)],
                                         scale=f32("s", [1, 2, 3, 4], (2, 2))))
    write("dq21_output_dtype.onnx", qdq_model(DQL, 21, x_type=UINT8, attrs=[attr_int("output_dtype", FLOAT16)], name="dq21"))
    write("dq23_output_dtype.onnx", qdq_model(DQL, 23, x_type=UINT8, attrs=[attr_int("output_dtype", FLOAT16)]))
    # e8m0 scale (24) needs output_dtype.
    write("dq24_e8m0.onnx", qdq_model(DQL, 24, x_type=FLOAT4E2M1, x_shape=(2, 4),
                                      attrs=[attr_int("axis", 1), attr_int("block_size", 2),
                                             attr_int("output_dtype", BFLOAT16)],
                                      scale=make_tensor("s", FLOAT8E8M0, (2, 2), int32_data=[127, 128, 126, 127])))
    write("dq25_int2.onnx", qdq_model(DQL, 25, x_type=UINT2, x_shape=(4,), zero_point=zp(UINT2, [1])))
    write("dq23_precision.onnx", qdq_model(DQL, 23, x_type=UINT8, attrs=[attr_int("precision", FLOAT)], name="dq23"))

# --------------------------------------------------------------------------
# microsoft: com.microsoft QuantizeLinear-1 / DequantizeLinear-1
# --------------------------------------------------------------------------
elif GROUP == "microsoft":
    MS = "com.microsoft"
    write("ms_q_int16.onnx", qdq_model(QL, 13, domain=MS, zero_point=zp(INT16, [-100])))
    write("ms_q_uint16_axis.onnx", qdq_model(QL, 13, domain=MS, attrs=[attr_int("axis", 0)],
                                             scale=f32("s", [0.5, 0.25]),
                                             zero_point=zp(UINT16, [0, 65535], (2,))))
    write("ms_q_int4_f16.onnx", qdq_model(QL, 13, domain=MS, x_type=FLOAT16,
                                          scale=tensor_from_numpy("s", np.array(0.5, np.float16)),
                                          zero_point=make_tensor("zp", INT4, (), int32_data=[0x0F])))
    write("ms_dq_uint4_f16.onnx", qdq_model(DQL, 13, domain=MS, x_type=UINT4, attrs=[attr_int("axis", 1)],
                                            scale=tensor_from_numpy("s", np.array([1, 2, 4], np.float16)),
                                            zero_point=make_tensor("zp", UINT4, (3,), int32_data=[0x21, 0x03])))
    write("ms_dq_int32.onnx", qdq_model(DQL, 13, domain=MS, x_type=INT32))
    # The ai.onnx opset does not matter to com.microsoft: no default axis
    # even at opset 21, and only 'axis' is allowed.
    write("ms_q_opset21.onnx", qdq_model(QL, 21, domain=MS, zero_point=zp(UINT8, [7])))
    write("ms_q_peraxis_noaxis.onnx", qdq_model(QL, 21, domain=MS, name="ms_q", scale=f32("s", [0.5, 1, 2]),
                                                zero_point=zp(INT8, [0, 0, 0], (3,))))
    write("ms_q_block.onnx", qdq_model(QL, 21, domain=MS, name="ms_blk", attrs=[attr_int("block_size", 2)]))
    write("ms_dq_output_dtype.onnx", qdq_model(DQL, 23, domain=MS, name="ms_od", x_type=UINT8,
                                               attrs=[attr_int("output_dtype", FLOAT16)]))
    # No opset_import for com.microsoft.
    write("ms_no_opset.onnx", qdq_model(QL, 13, domain=MS, name="ms_nop", opsets=[("", 13)]))
    # "ai.onnx" spelled out is the default domain.
    write("aionnx_domain.onnx", qdq_model(QL, 13, domain="ai.onnx", opsets=[("ai.onnx", 13)]))

# --------------------------------------------------------------------------
# matmul: QLinearMatMul-10/21, DynamicQuantizeLinear, its expanded body
# --------------------------------------------------------------------------
elif GROUP == "matmul":
    def qlmm(opset, a_type, b_type, a_shape, b_shape, scale_dtype=np.float32, name="mm"):
        s = lambda n, v: tensor_from_numpy(n, np.array(v, scale_dtype))
        inits = [s("as", 0.5), zp_t("azp", a_type, 1), s("bs", 0.25), zp_t("bzp", b_type, 2),
                 s("ys", 0.125), zp_t("yzp", a_type, 3)]
        node = make_node("QLinearMatMul", ["a", "as", "azp", "b", "bs", "bzp", "ys", "yzp"], ["y"], name=name)
        return single_node_model(node, [make_value_info("a", a_type, a_shape), make_value_info("b", b_type, b_shape)],
                                 [make_value_info("y", a_type)], inits, [("", opset)])

    def zp_t(n, t, v):
        return make_tensor(n, t, (), int32_data=[v])

    write("qlmm10.onnx", qlmm(10, UINT8, INT8, (2, 4), (4, 3)))
    write("qlmm21.onnx", qlmm(21, INT8, INT8, (5, 2, 4), (4, 3), scale_dtype=np.float16))
    write("qlmm_shapes.onnx", qlmm(10, UINT8, UINT8, (2, 4), (5, 3), name="mm_bad"))
    write("qlmm9.onnx", qlmm(9, UINT8, UINT8, (2, 4), (4, 3), name="mm9"))
    write("dql.onnx", single_node_model(
        make_node("DynamicQuantizeLinear", ["x"], ["y", "y_scale", "y_zp"], name="dql"),
        [make_value_info("x", FLOAT, ("N", 3))],
        [make_value_info(n, UNDEFINED) for n in ("y", "y_scale", "y_zp")], opsets=[("", 11)]))
    write("dql10.onnx", single_node_model(
        make_node("DynamicQuantizeLinear", ["x"], ["y", "y_scale", "y_zp"], name="dql10"),
        [make_value_info("x", FLOAT, (3,))], [make_value_info("y", UNDEFINED)], opsets=[("", 10)]))

# --------------------------------------------------------------------------
# conv: ConvInteger / QLinearConv attributes (auto_pad resolved into pads)
# --------------------------------------------------------------------------
elif GROUP == "conv":
    def conv(name, attrs, x_shape=(1, 2, 5, 5), w_shape=(3, 2, 3, 3), opset=10, op="ConvInteger"):
        w = make_tensor("w", INT8, w_shape, int32_data=[1] * int(np.prod(w_shape)))
        if op == "ConvInteger":
            node = make_node(op, ["x", "w"], ["y"], name=name, attrs=attrs)
            inits = [w]
        else:
            s = lambda n, v: tensor_from_numpy(n, np.array(v, np.float32))
            inits = [s("xs", 0.5), make_tensor("xzp", UINT8, (), int32_data=[3]), w,
                     s("ws", 0.25), make_tensor("wzp", INT8, (), int32_data=[0]),
                     s("ys", 0.125), make_tensor("yzp", UINT8, (), int32_data=[7])]
            node = make_node(op, ["x", "xs", "xzp", "w", "ws", "wzp", "ys", "yzp"], ["y"],
                             name=name, attrs=attrs)
        return single_node_model(node, [make_value_info("x", UINT8, x_shape)],
                                 [make_value_info("y", UNDEFINED)], inits, [("", opset)])

    write("same_upper.onnx", conv("su", [attr_string("auto_pad", "SAME_UPPER"), attr_ints("strides", [2, 2])],
                                  x_shape=(1, 2, 6, 5), w_shape=(3, 2, 3, 4)))
    write("same_lower.onnx", conv("sl", [attr_string("auto_pad", "SAME_LOWER"), attr_ints("strides", [2, 2])],
                                  x_shape=(1, 2, 6, 5), w_shape=(3, 2, 3, 4)))
    write("valid.onnx", conv("v", [attr_string("auto_pad", "VALID"), attr_ints("kernel_shape", [3, 3])]))
    write("notset.onnx", conv("ns", [attr_string("auto_pad", "NOTSET"), attr_ints("pads", [0, 1, 2, 1]),
                                     attr_ints("dilations", [2, 1]), attr_int("group", 1)]))
    write("qconv_1d.onnx", conv("q1", [attr_ints("pads", [1, 1]), attr_int("group", 2)], x_shape=("N", 4, 9),
                                w_shape=(6, 2, 3), op="QLinearConv"))
    write("bad_kernel_shape.onnx", conv("ks", [attr_ints("kernel_shape", [2, 3])]))
    write("pads_and_auto_pad.onnx", conv("pa", [attr_string("auto_pad", "VALID"), attr_ints("pads", [0, 0, 0, 0])]))
    write("bad_auto_pad.onnx", conv("bap", [attr_string("auto_pad", "SAME")]))
    write("same_dynamic.onnx", conv("sd", [attr_string("auto_pad", "SAME_UPPER")], x_shape=(1, 2, "H", 5)))
    write("pads_size.onnx", conv("ps", [attr_ints("pads", [1, 1])]))
    write("rank2.onnx", conv("r2", [], x_shape=(2, 5), w_shape=(3, 5)))
    write("conv9.onnx", conv("c9", [], opset=9))
    write("bad_group.onnx", conv("bg", [attr_int("group", 4)]))
    # several unsupported operators: one message lists them all
    write("unsupported_many.onnx", make_model(make_graph(
        [make_node("Tanh", ["x"], ["a"], name="t0"), make_node("Tanh", ["a"], ["b"], name="t1"),
         make_node("Sigmoid", ["b"], ["y"], name="s0")], "g",
        [make_value_info("x", FLOAT, (2, 3))], [make_value_info("y", UNDEFINED)], []), [("", 13)]))

# --------------------------------------------------------------------------
# initializers: every TensorProto storage form -> arith.constant
# --------------------------------------------------------------------------
elif GROUP == "initializers":
    inits = [
        # raw_data, little-endian: 1.5 = 0x3FC00000, -2.0 = 0xC0000000.
        make_tensor("raw_f32", FLOAT, (2,), raw_data=bytes.fromhex("0000c03f000000c0")),
        make_tensor("float_data", FLOAT, (3,), float_data=[0.25, -0.5, 4.0]),
        make_tensor("i32_u8", UINT8, (3,), int32_data=[0, 128, 255]),
        make_tensor("i32_i8", INT8, (2, 2), int32_data=[-128, -1, 0, 127]),
        make_tensor("i32_u16", UINT16, (2,), int32_data=[65535, 1]),
        make_tensor("i32_i16", INT16, (2,), int32_data=[-32768, 32767]),
        make_tensor("i32_i32", INT32, (2,), int32_data=[-2147483648, 2147483647], packed=False),
        # f16 bit patterns: 0x3C00 = 1.0, 0xC000 = -2.0.
        make_tensor("i32_f16", FLOAT16, (2,), int32_data=[0x3C00, 0xC000]),
        # int4, one packed byte per int32: [-8, 7, 1, -1, 3] -> 0x78, 0xF1, 0x03.
        make_tensor("i32_i4", INT4, (5,), int32_data=[0x78, 0xF1, 0x03]),
        # uint4 in raw_data: [1, 2, 15] -> 0x21, 0x0F.
        make_tensor("raw_u4", UINT4, (3,), raw_data=bytes([0x21, 0x0F])),
        # int2 in raw_data: [-2, -1, 0, 1, 1] -> 0b01001110 = 0x4E, 0x01.
        make_tensor("raw_i2", INT2, (5,), raw_data=bytes([0x4E, 0x01])),
        # float8e4m3fn bit patterns: 0x38 = 1.0, 0xC0 = -2.0.
        make_tensor("i32_f8", FLOAT8E4M3FN, (2,), int32_data=[0x38, 0xC0]),
        make_tensor("i64", INT64, (2,), int64_data=[-5, 1 << 40]),
        make_tensor("f64", DOUBLE, (1,), double_data=[0.125]),
        # a scalar and an empty tensor (no data at all)
        make_tensor("scalar_u8", UINT8, (), raw_data=bytes([42])),
        make_tensor("empty_f32", FLOAT, (0, 3)),
        # external data in w.bin next to the model: int8 [1, -2, 3] at offset 4
        # (length given), f32 [0.5, 2] from offset 8 to the end of the file.
        make_tensor("ext_i8", INT8, (3,), data_location=1,
                    external_data=[("location", "w.bin"), ("offset", "4"), ("length", "3")]),
        make_tensor("ext_f32", FLOAT, (2,), data_location=1,
                    external_data=[("location", "./sub/../w.bin"), ("offset", "8")]),
        make_tensor("ext_u4", UINT4, (3,), data_location=1,
                    external_data=[("location", "w.bin"), ("offset", "0"), ("length", "2")]),
        # float4e2m1 in raw_data: [1.0, -6.0, 0.5] -> codes 2, 15, 1 -> 0xF2, 0x01.
        make_tensor("raw_f4", FLOAT4E2M1, (3,), raw_data=bytes([0xF2, 0x01])),
        # sub-byte splat, one element, empty: ui4 [3, 3, 3]; si4 [-3]; si4 0x2.
        make_tensor("splat_u4", UINT4, (3,), raw_data=bytes([0x33, 0x03])),
        make_tensor("one_i4", INT4, (1,), raw_data=bytes([0x0D])),
        make_tensor("empty_i4", INT4, (0, 2)),
    ]
    os.makedirs(path("sub"), exist_ok=True)
    save(path("w.bin"), bytes([0x21, 0x0F, 0xEE, 0xEE, 1, 0xFE, 3, 0xEE])
         + np.array([0.5, 2.0], "<f4").tobytes())
    graph = make_graph([], "inits", [], [make_value_info(f"{n}", UNDEFINED) for n in [
        "raw_f32", "float_data", "i32_u8", "i32_i8", "i32_u16", "i32_i16", "i32_i32", "i32_f16",
        "i32_i4", "raw_u4", "raw_i2", "i32_f8", "i64", "f64", "scalar_u8", "empty_f32",
        "ext_i8", "ext_f32", "ext_u4", "raw_f4", "splat_u4", "one_i4", "empty_i4"]], inits)
    write("inits.onnx", make_model(graph, [("", 13)]))
    # raw_data of byte-aligned types is read in place (not copied): bool,
    # int8, little-endian int64 and f16 (0x3C00 = 1.0, 0xC000 = -2.0), an
    # empty raw_data.
    raw = [
        make_tensor("raw_bool", BOOL, (3,), raw_data=bytes([1, 0, 1])),
        make_tensor("raw_i8", INT8, (2,), raw_data=bytes([0x80, 0x7F])),
        make_tensor("raw_i64", INT64, (2,), raw_data=np.array([-5, 1 << 40], "<i8").tobytes()),
        make_tensor("raw_f16", FLOAT16, (2,), raw_data=bytes.fromhex("003c00c0")),
        make_tensor("raw_empty_u8", UINT8, (0,), raw_data=b""),
    ]
    graph = make_graph([], "raw", [], [make_value_info(n, UNDEFINED) for n in [
        "raw_bool", "raw_i8", "raw_i64", "raw_f16", "raw_empty_u8"]], raw)
    write("raw_inits.onnx", make_model(graph, [("", 13)]))
    # IR version 3: initializers are listed as graph inputs too; they are not
    # function arguments.
    graph = make_graph([make_node("QuantizeLinear", ["x", "s", "zp"], ["y"])], "ir3",
                       [make_value_info("x", FLOAT, (4,)), make_value_info("s", FLOAT, ()),
                        make_value_info("zp", UINT8, ())],
                       [make_value_info("y", UINT8, (4,))],
                       [f32("s", 2.0), make_tensor("zp", UINT8, (), int32_data=[10])])
    write("ir3.onnx", make_model(graph, [("", 10)], ir_version=3))
    # A Constant node with each kind of value attribute.
    nodes = [
        make_node("Constant", [], ["c_t"], name="ct", attrs=[attr_tensor("value", make_tensor("", INT16, (2,), int32_data=[-7, 7]))]),
        make_node("Constant", [], ["c_f"], name="cf", attrs=[attr_float("value_float", 2.5)]),
        make_node("Constant", [], ["c_fs"], name="cfs", attrs=[attr_floats("value_floats", [1.0, -1.0])]),
        make_node("Constant", [], ["c_i"], name="ci", attrs=[attr_int("value_int", -3)]),
        make_node("Constant", [], ["c_is"], name="cis", attrs=[attr_ints("value_ints", [4, 5, 6])]),
    ]
    graph = make_graph(nodes, "consts", [], [make_value_info(n, UNDEFINED) for n in ("c_t", "c_f", "c_fs", "c_i", "c_is")])
    write("constants.onnx", make_model(graph, [("", 13)]))

    # raw_data of 4 KiB or more, which the parse leaves in the file
    # (ParseModel.cpp), dequantized with scale 1 so that the expected outputs
    # are the values: int8 64 x 80 (5120 bytes), int4 8200 (4100 bytes,
    # packed), next to a small raw_data that protobuf copies (4 bytes).
    big_i8 = ((np.arange(64 * 80) * 37) % 256 - 128).astype(np.int8).reshape(64, 80)
    big_i4 = ((np.arange(8200) * 5) % 16 - 8).astype(np.int8)
    one = f32("one", 1.0)

    def dequantize_model(weights, outputs, graphs=None):
        nodes = [make_node("DequantizeLinear", [w, "one"], [y], name=y) for w, y in outputs]
        graph = make_graph(nodes, "big", [], [make_value_info(y, FLOAT) for _, y in outputs],
                           list(weights) + [one])
        model = make_model(graph, [("", 21)])
        return model if graphs is None else graphs(graph)

    big_i8_tensor = tensor_from_numpy("w8", big_i8)
    big_i4_tensor = make_tensor("w4", INT4, big_i4.shape, raw_data=pack_int4(big_i4.tolist()))
    write("big.onnx", dequantize_model([big_i8_tensor, big_i4_tensor],
                                       [("w8", "y8"), ("w4", "y4")]))
    np.save(path("big.y8.npy"), big_i8.astype(np.float32))
    np.save(path("big.y4.npy"), big_i4.astype(np.float32))
    # Sub-byte initializers of 65536 elements or more: the import keeps the
    # decoder's unpacked bytes (INT4 / INT2 sign-extended) in a dense_resource
    # instead of a dense copy, and the storage conversion views them. Scale 1:
    # the expected outputs are the values.
    large = [("l_i4", INT4, (np.arange(76800) * 5) % 16 - 8, pack_int4),
             ("l_u4", UINT4, (np.arange(76800) * 7) % 16, pack_int4),
             ("l_i2", INT2, (np.arange(70000) * 3) % 4 - 2, pack_int2),
             ("l_u2", UINT2, (np.arange(70000) * 5) % 4, pack_int2)]
    nodes = [make_node("DequantizeLinear", [w, "one"], ["y" + w], name="y" + w) for w, _, _, _ in large]
    graph = make_graph(nodes, "large_sub_byte", [], [make_value_info("y" + w, FLOAT) for w, _, _, _ in large],
                       [make_tensor(w, t, v.shape, raw_data=pack(v.tolist())) for w, t, v, pack in large] + [one])
    write("large_sub_byte.onnx", make_model(graph, [("", 25)]))
    for w, _, v, _ in large:
        np.save(path("large_sub_byte.%s.npy" % w), v.astype(np.float32))
    # Byte-aligned initializers of 64 KiB or more read from a file: the
    # import views them where the file holds them (a dense_resource that
    # keeps the file's buffer), int8 256 x 320 and uint8 81920, scale 1.
    large_bytes = [("l_i8", ((np.arange(256 * 320) * 37) % 256 - 128).astype(np.int8).reshape(256, 320)),
                   ("l_u8", ((np.arange(81920) * 11) % 256).astype(np.uint8))]
    write("large_bytes.onnx", dequantize_model([tensor_from_numpy(w, v) for w, v in large_bytes],
                                               [(w, "y" + w) for w, _ in large_bytes]))
    for w, v in large_bytes:
        np.save(path("large_bytes.%s.npy" % w), v.astype(np.float32))
    # The same int8 weights after a first raw_data of other bytes: protobuf
    # keeps the last one.
    twice = (f_varint(1, 64) + f_varint(1, 80) + f_varint(2, INT8) + f_bytes(8, "w8")
             + f_bytes(9, bytes([0x55]) * 5120) + f_bytes(9, big_i8.tobytes()))
    write("big_twice.onnx", dequantize_model([twice], [("w8", "y8")]))
    # Two graph fields, which protobuf merges: the initializers in the first,
    # the node, output and scale in the second.
    first = make_graph([], "big", [], [], [big_i8_tensor])
    second = make_graph([make_node("DequantizeLinear", ["w8", "one"], ["y8"], name="y8")], "big",
                        [], [make_value_info("y8", FLOAT)], [one])
    write("big_graphs.onnx", f_varint(1, 8) + f_bytes(7, first) + f_bytes(7, second)
          + f_bytes(8, f_bytes(1, "") + f_varint(2, 21)))
    # Weights less than half of the file (a graph name of 12000 bytes): not
    # worth a copy of the rest, protobuf parses the bytes as they are.
    nodes = [make_node("DequantizeLinear", ["w8", "one"], ["y8"], name="y8")]
    graph = make_graph(nodes, "g" * 12000, [], [make_value_info("y8", FLOAT)], [big_i8_tensor, one])
    write("big_small_part.onnx", make_model(graph, [("", 21)]))
    # For the object cache's check of external data (onnx::mayReadExternalData):
    # a Constant node whose value is in w.bin (int8 [1, -2, 3] at offset 4),
    # and weights whose bytes spell an external_data entry's key "location"
    # (no external data).
    ext = make_tensor("", INT8, (3,), data_location=1,
                      external_data=[("location", "w.bin"), ("offset", "4"), ("length", "3")])
    graph = make_graph([make_node("Constant", [], ["c"], name="c", attrs=[attr_tensor("value", ext)]),
                        make_node("DequantizeLinear", ["c", "one"], ["y"], name="y")],
                       "ext_const", [], [make_value_info("y", FLOAT)], [one])
    write("ext_const.onnx", make_model(graph, [("", 21)]))
    spelled = np.frombuffer((b"\x0a\x08location" * 512)[:5120], np.int8).reshape(64, 80)
    graph = make_graph([make_node("DequantizeLinear", ["w8", "one"], ["y8"], name="y8")], "spelled",
                       [], [make_value_info("y8", FLOAT)], [tensor_from_numpy("w8", spelled), one])
    write("location_bytes.onnx", make_model(graph, [("", 21)]))
    np.save(path("location_bytes.y8.npy"), spelled.astype(np.float32))
    # raw_data of the wrong length (5000 bytes for 64 x 80), and the model
    # cut inside the weights.
    short = make_tensor("w8", INT8, (64, 80), raw_data=big_i8.tobytes()[:5000])
    write("big_short.onnx", dequantize_model([short], [("w8", "y8")]))
    save(path("big_cut.onnx"), dequantize_model([big_i8_tensor], [("w8", "y8")])[:3000])
    # The weights as a Constant node's value: protobuf copies them.
    node = make_node("Constant", [], ["w8"], name="c", attrs=[attr_tensor("value", big_i8_tensor)])
    graph = make_graph([node, make_node("DequantizeLinear", ["w8", "one"], ["y8"], name="y8")],
                       "big", [], [make_value_info("y8", FLOAT)], [one])
    write("big_constant.onnx", make_model(graph, [("", 21)]))

# --------------------------------------------------------------------------
# run: models with inputs and independently derived expected outputs
# --------------------------------------------------------------------------
elif GROUP == "run":
    # (1) ai.onnx QuantizeLinear-13, per-axis, no axis attribute: axis 1.
    #     scale [0.5, 1, 2], zp [10, 20, 30] (uint8), x 2x3:
    #     row 0: [1, 2.5, -3] / s = [2, 2.5, -1.5] -> rne [2, 2, -2] + zp = [12, 22, 28]
    #     row 1: [-10, 300, 600] / s = [-20, 300, 300] -> [-10, 320, 330] -> sat [0, 255, 255]
    node = make_node("QuantizeLinear", ["x", "s", "zp"], ["y"], name="q_axis")
    write("q13_axis.onnx", single_node_model(
        node, [make_value_info("x", FLOAT, (2, 3))], [make_value_info("y", UINT8, (2, 3))],
        [f32("s", [0.5, 1, 2]), make_tensor("zp", UINT8, (3,), raw_data=bytes([10, 20, 30]))]))
    x = np.array([[1, 2.5, -3], [-10, 300, 600]], np.float32)
    y = np.array([[12, 22, 28], [0, 255, 255]], np.uint8)
    save_pb(path("q13_x.pb"), "x", x)
    save_pb(path("q13_y.pb"), "y", y)
    np.save(path("q13_x.npy"), x)
    np.save(path("q13_y.npy"), y)
    save_pb(path("q13_y_wrong.pb"), "y", np.array([[12, 22, 28], [0, 255, 254]], np.uint8))

    # (2) com.microsoft QuantizeLinear-1, per-tensor int16, scale 0.5, zp -100:
    #     x / 0.5 = [0, 2.5, -3.5, 40000, -40000, 6] -> rne [0, 2, -4, 40000, -40000, 6]
    #     + zp = [-100, -98, -104, 39900, -40100, -94] -> sat int16.
    node = make_node("QuantizeLinear", ["x", "s", "zp"], ["y"], name="ms_q", domain="com.microsoft")
    write("ms_int16.onnx", single_node_model(
        node, [make_value_info("x", FLOAT, (6,))], [make_value_info("y", INT16, (6,))],
        [f32("s", 0.5), make_tensor("zp", INT16, (), int32_data=[-100])],
        [("", 13), ("com.microsoft", 1)]))
    x = np.array([0, 1.25, -1.75, 20000, -20000, 3], np.float32)
    y = np.array([-100, -98, -104, 32767, -32768, -94], np.int16)
    save_pb(path("ms_x.pb"), "x", x)
    save_pb(path("ms_y.pb"), "y", y)
    np.save(path("ms_x.npy"), x)
    np.save(path("ms_y.npy"), y)

    # (3) QLinearMatMul-10, multiplier 0.5 * 0.25 / 0.125 = 1 exactly:
    #     y = sat_u8(sum_k (a - 1)(b - 2) + 3).
    inits = [f32("as", 0.5), make_tensor("azp", UINT8, (), int32_data=[1]),
             f32("bs", 0.25), make_tensor("bzp", INT8, (), int32_data=[2]),
             f32("ys", 0.125), make_tensor("yzp", UINT8, (), int32_data=[3])]
    node = make_node("QLinearMatMul", ["a", "as", "azp", "b", "bs", "bzp", "ys", "yzp"], ["y"], name="mm")
    write("qlmm.onnx", single_node_model(
        node, [make_value_info("a", UINT8, (2, 3)), make_value_info("b", INT8, (3, 2))],
        [make_value_info("y", UINT8, (2, 2))], inits, [("", 10)]))
    a = np.array([[1, 2, 3], [255, 0, 10]], np.uint8)
    b = np.array([[2, 3], [4, -128], [0, 127]], np.int8)
    acc = (a.astype(np.int64) - 1) @ (b.astype(np.int64) - 2)
    # by hand: row 0: [0*0 + 1*2 + 2*-2, 0*1 + 1*-130 + 2*125] = [-2, 120]
    #          row 1: [254*0 + -1*2 + 9*-2, 254*1 + -1*-130 + 9*125] = [-20, 1509]
    assert acc.tolist() == [[-2, 120], [-20, 1509]]
    y = np.clip(acc + 3, 0, 255).astype(np.uint8)  # [[1, 123], [0, 255]]
    save_pb(path("mm_a.pb"), "a", a)
    save_pb(path("mm_b.pb"), "b", b)
    save_pb(path("mm_y.pb"), "y", y)

    # (4) DynamicQuantizeLinear and its expanded function body (opset 11),
    #     on ONNX's example x = [0, 2, -3, -2.5, 1.34, 0.5]:
    #     scale = (2 - -3) / 255 in f32, zp = rne(clip(3 / scale, 0, 255)) = 153.
    x = np.array([0, 2, -3, -2.5, 1.34, 0.5], np.float32)
    scale = np.float32(np.float32(2) - np.float32(-3)) / np.float32(255)
    zero_point = np.uint8(np.rint(np.clip(np.float32(0) - np.float32(-3) / scale, 0, 255)))
    y = np.clip(np.rint(x / scale) + zero_point, 0, 255).astype(np.uint8)
    assert zero_point == 153 and y.tolist() == [153, 255, 0, 26, 221, 179]
    save_pb(path("dql_x.pb"), "x", x)
    save_pb(path("dql_y.pb"), "y", y)
    save_pb(path("dql_scale.pb"), "y_scale", np.array(scale, np.float32))
    save_pb(path("dql_zp.pb"), "y_zero_point", np.array(zero_point, np.uint8))
    outputs = [make_value_info("y", UINT8, (6,)), make_value_info("y_scale", FLOAT, ()),
               make_value_info("y_zero_point", UINT8, ())]
    write("dql.onnx", single_node_model(
        make_node("DynamicQuantizeLinear", ["x"], ["y", "y_scale", "y_zero_point"], name="dql"),
        [make_value_info("x", FLOAT, (6,))], outputs, opsets=[("", 11)]))
    body = [
        make_node("Constant", [], ["Q_Min"], name="qmin", attrs=[attr_tensor("value", make_tensor("", FLOAT, (), float_data=[0.0]))]),
        make_node("Constant", [], ["Q_Max"], name="qmax", attrs=[attr_tensor("value", make_tensor("", FLOAT, (), float_data=[255.0]))]),
        make_node("ReduceMin", ["x"], ["X_Min"], name="rmin", attrs=[attr_int("keepdims", 0)]),
        make_node("Min", ["X_Min", "Q_Min"], ["X_Min_Adjusted"], name="min"),
        make_node("ReduceMax", ["x"], ["X_Max"], name="rmax", attrs=[attr_int("keepdims", 0)]),
        make_node("Max", ["X_Max", "Q_Min"], ["X_Max_Adjusted"], name="max"),
        make_node("Sub", ["X_Max_Adjusted", "X_Min_Adjusted"], ["X_Range"], name="range"),
        make_node("Div", ["X_Range", "Q_Max"], ["Scale"], name="scale"),
        make_node("Div", ["X_Min_Adjusted", "Scale"], ["Min_Scaled"], name="min_scaled"),
        make_node("Sub", ["Q_Min", "Min_Scaled"], ["Initial_ZeroPoint_FP"], name="zp_fp"),
        make_node("Clip", ["Initial_ZeroPoint_FP", "Q_Min", "Q_Max"], ["Clipped_ZeroPoint_FP"], name="clip"),
        make_node("Round", ["Clipped_ZeroPoint_FP"], ["Rounded_ZeroPoint_FP"], name="round"),
        make_node("Cast", ["Rounded_ZeroPoint_FP"], ["Zeropoint"], name="cast", attrs=[attr_int("to", UINT8)]),
        make_node("Identity", ["Scale"], ["y_scale"], name="id_scale"),
        make_node("Identity", ["Zeropoint"], ["y_zero_point"], name="id_zp"),
        make_node("QuantizeLinear", ["x", "Scale", "Zeropoint"], ["y"], name="q"),
    ]
    graph = make_graph(body, "dql_expanded", [make_value_info("x", FLOAT, (6,))], outputs)
    write("dql_expanded.onnx", make_model(graph, [("", 11)]))
    # The same at opset 18: ReduceMax takes its axes as a (constant) input
    # and keeps the reduced dims here; the rest as above.
    body18 = list(body)
    body18[2:3] = [
        make_node("Constant", [], ["axes"], name="axes", attrs=[attr_ints("value_ints", [0])]),
        make_node("ReduceMin", ["x", "axes"], ["X_Min1"], name="rmin", attrs=[attr_int("keepdims", 1)]),
        # [1] -> []: ReduceMax with no axes and keepdims=0 reduces everything.
        make_node("ReduceMax", ["X_Min1"], ["X_Min"], name="squeeze", attrs=[attr_int("keepdims", 0)]),
    ]
    graph = make_graph(body18, "dql_expanded18", [make_value_info("x", FLOAT, (6,))], outputs)
    write("dql_expanded18.onnx", make_model(graph, [("", 18)]))

    # (6) Cast-25 from 4-bit and 2-bit integer initializers (packed, the
    #     first element in the low bits) to wider types: a value, its C-style
    #     wrap into uint8 for a signed source (-8 -> 248), its float.
    w4 = [-8, -1, 0, 3, 7]
    u4 = [0, 1, 8, 14, 15]
    w2 = [-2, -1, 0, 1, 1]
    u2 = [0, 1, 2, 3, 3]
    inits = [make_tensor("w4", INT4, (5,), raw_data=pack_int4(w4)),
             make_tensor("u4", UINT4, (5,), raw_data=pack_int4(u4)),
             make_tensor("w2", INT2, (5,), raw_data=pack_int2(w2)),
             make_tensor("u2", UINT2, (5,), raw_data=pack_int2(u2))]
    casts = [("w4", INT8, np.int8), ("w4", FLOAT, np.float32), ("w4", UINT8, np.uint8),
             ("u4", INT16, np.int16), ("u4", FLOAT, np.float32), ("w2", INT32, np.int32),
             ("u2", FLOAT, np.float32)]
    sources = {"w4": w4, "u4": u4, "w2": w2, "u2": u2}
    nodes, outputs = [], []
    for i, (src, to, dtype) in enumerate(casts):
        nodes.append(make_node("Cast", [src], ["y%d" % i], name="cast%d" % i, attrs=[attr_int("to", to)]))
        outputs.append(make_value_info("y%d" % i, to, (5,)))
        values = np.array(sources[src], np.int64)
        expected = (values & 0xFF).astype(dtype) if dtype == np.uint8 else values.astype(dtype)
        save_pb(path("cast4_y%d.pb" % i), "y%d" % i, expected)
    assert np.array_equal(np.array(w4, np.int64).astype(np.uint8), [248, 255, 0, 3, 7])
    write("cast4.onnx", make_model(make_graph(nodes, "cast4", [], outputs, inits), [("", 25)]))
    # The same with the sub-byte tensors as graph inputs (.pb data), not
    # folded as constants.
    write("cast4_inputs.onnx", make_model(make_graph(
        nodes, "cast4_inputs", [make_value_info(n, t, (5,)) for n, t in
                                (("w4", INT4), ("u4", UINT4), ("w2", INT2), ("u2", UINT2))],
        outputs), [("", 25)]))
    for init, name in zip(inits, ("w4", "u4", "w2", "u2")):
        save(path("cast4_%s.pb" % name), init)

    # (5) A .pb whose dtype (f64) or shape does not fit, and a corrupt one.
    save_pb(path("x_f64.pb"), "x", np.zeros((2, 3), np.float64))
    save_pb(path("x_shape.pb"), "x", np.zeros((3, 2), np.float32))
    good = open(path("q13_x.pb"), "rb").read()
    save(path("x_truncated.pb"), good[:-3])
    save(path("x_garbage.pb"), b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff")
    save(path("x_bad_type.pb"), make_tensor("x", 99, (2, 3), raw_data=bytes(24)))
    save(path("x_short.pb"), make_tensor("x", FLOAT, (2, 3), raw_data=bytes(20)))

# --------------------------------------------------------------------------
# onnxtest: directories in the ONNX backend node-test layout
# --------------------------------------------------------------------------
elif GROUP == "onnxtest":
    def case(name, model, data_sets):
        d = path(name)
        os.makedirs(d, exist_ok=True)
        save(os.path.join(d, "model.onnx"), model)
        for i, (inputs, outputs) in enumerate(data_sets):
            s = os.path.join(d, f"test_data_set_{i}")
            os.makedirs(s, exist_ok=True)
            for k, a in enumerate(inputs):
                save_pb(os.path.join(s, f"input_{k}.pb"), f"in{k}", a)
            for k, a in enumerate(outputs):
                save_pb(os.path.join(s, f"output_{k}.pb"), f"out{k}", a)

    # QuantizeLinear-10 then DequantizeLinear-10: scale 0.25, zp 128.
    # x = [0, 0.3, -1, 40, -40, 0.125]: q = rne(x * 4) + 128 = [128, 129, 124, 288 -> 255,
    # -32 -> 0, 128 (0.5 rounds to 0)]; dq = (q - 128) * 0.25.
    nodes = [make_node("QuantizeLinear", ["x", "s", "zp"], ["q"], name="q"),
             make_node("DequantizeLinear", ["q", "s", "zp"], ["y"], name="dq")]
    graph = make_graph(nodes, "qdq", [make_value_info("x", FLOAT, (6,))],
                       [make_value_info("q", UINT8, (6,)), make_value_info("y", FLOAT, (6,))],
                       [f32("s", 0.25), make_tensor("zp", UINT8, (), int32_data=[128])])
    model = make_model(graph, [("", 10)])
    x0 = np.array([0, 0.3, -1, 40, -40, 0.125], np.float32)
    q0 = np.array([128, 129, 124, 255, 0, 128], np.uint8)
    y0 = np.array([0, 0.25, -1, 31.75, -32, 0], np.float32)
    x1 = np.array([0.375, 0.625, 1.1, -0.375, -0.625, 100], np.float32)
    # 1.5 -> 2, 2.5 -> 2, 4.4 -> 4, -1.5 -> -2, -2.5 -> -2, 400 -> 255
    q1 = np.array([130, 130, 132, 126, 126, 255], np.uint8)
    y1 = np.array([0.5, 0.5, 1, -0.5, -0.5, 31.75], np.float32)
    case("test_qdq_pair", model, [([x0], [q0, y0]), ([x1], [q1, y1])])
    # The same model with a wrong expected q in its only data set.
    bad = q0.copy()
    bad[2] = 125
    case("test_qdq_wrong", model, [([x0], [bad, y0])])
    # A wrong dtype of input in data set 1.
    case("test_qdq_dtype", model, [([x0], [q0, y0]), ([x0.astype(np.float64)], [q0, y0])])
    # One expected output too few; a corrupt input_0.pb.
    case("test_qdq_outputs", model, [([x0], [q0])])
    case("test_qdq_corrupt_pb", model, [([x0], [q0, y0])])
    save(path("test_qdq_corrupt_pb/test_data_set_0/input_0.pb"), b"\x0a\xff\xff")
    # A truncated model, a model without data sets, an unsupported operator.
    case("test_bad_model", model[:40], [([x0], [q0, y0])])
    case("test_no_data", model, [])
    sigmoid = make_model(make_graph([make_node("Sigmoid", ["x"], ["y"], name="sig")], "sigmoid",
                                    [make_value_info("x", FLOAT, (1, 1, 3))],
                                    [make_value_info("y", FLOAT, (1, 1, 3))], []), [("", 13)])
    x_sig = x0[:3].reshape(1, 1, 3)
    case("test_sigmoid", sigmoid, [([x_sig], [x_sig])])

# --------------------------------------------------------------------------
# dynamic: dynamic dimensions whose runtime sizes disagree with the static
# ones (known bugs: see xfail-dynamic-dims.test)
# --------------------------------------------------------------------------
elif GROUP == "dynamic":
    y_any = [make_value_info("y", UNDEFINED)]
    # Sub(x[N], w[4]) with N = 1 at run time: numpy broadcasting gives
    # [1] - [1, 2, 3, 4] = [0, -1, -2, -3].
    write("sub_static.onnx", single_node_model(
        make_node("Sub", ["x", "w"], ["y"], name="sub"), [make_value_info("x", FLOAT, ("N",))], y_any,
        [f32("w", [1, 2, 3, 4])]))
    np.save(path("x1.npy"), np.array([1], np.float32))
    np.save(path("sub_static_y.npy"), np.array([0, -1, -2, -3], np.float32))
    # Sub(x[N], w[M]) with N = 5, M = 1: [1..5] - [1] = [0, 1, 2, 3, 4].
    write("sub_dynamic.onnx", single_node_model(
        make_node("Sub", ["x", "w"], ["y"], name="sub"),
        [make_value_info("x", FLOAT, ("N",)), make_value_info("w", FLOAT, ("M",))], y_any))
    np.save(path("x5.npy"), np.array([1, 2, 3, 4, 5], np.float32))
    np.save(path("sub_dynamic_y.npy"), np.array([0, 1, 2, 3, 4], np.float32))
    # QuantizeLinear axis 0 with a [3] scale on x[N], N = 5: not a valid call.
    write("q_axis.onnx", single_node_model(
        make_node("QuantizeLinear", ["x", "s", "zp"], ["y"], name="q", attrs=[attr_int("axis", 0)]),
        [make_value_info("x", FLOAT, ("N",))], y_any,
        [f32("s", [1, 2, 3]), make_tensor("zp", UINT8, (3,), int32_data=[1, 2, 3])]))
    # QLinearMatMul a[2, K] x b[K2, 3] with K = 4, K2 = 1: not a valid call.
    inits = [f32("as", 0.5), make_tensor("azp", UINT8, (), int32_data=[0]),
             f32("bs", 0.5), make_tensor("bzp", UINT8, (), int32_data=[0]),
             f32("ys", 0.5), make_tensor("yzp", UINT8, (), int32_data=[0])]
    write("qlmm.onnx", single_node_model(
        make_node("QLinearMatMul", ["a", "as", "azp", "b", "bs", "bzp", "ys", "yzp"], ["y"], name="mm"),
        [make_value_info("a", UINT8, (2, "K")), make_value_info("b", UINT8, ("K2", 3))], y_any, inits))
    np.save(path("a.npy"), np.ones((2, 4), np.uint8))
    np.save(path("b.npy"), np.ones((1, 3), np.uint8))

# --------------------------------------------------------------------------
# hostile: corrupt and malicious models
# --------------------------------------------------------------------------
elif GROUP == "hostile":
    x_in = [make_value_info("x", FLOAT, (4,))]
    y_out = [make_value_info("y", UINT8, (4,))]

    def q_model(scale, name="q", opset=13):
        node = make_node("QuantizeLinear", ["x", "s"], ["y"], name=name)
        return single_node_model(node, x_in, y_out, [scale], [("", opset)])

    good = q_model(f32("s", 0.5))
    write("good.onnx", good)
    save_pb(path("x.pb"), "x", np.array([1, 2, 3, 200], np.float32))
    save_pb(path("y.pb"), "y", np.array([2, 4, 6, 255], np.uint8))
    # .pb inputs: int8 instead of float, 3 elements instead of 4, truncated.
    save_pb(path("x_i8.pb"), "x", np.array([1, 2, 3, 4], np.int8))
    save_pb(path("x_3.pb"), "x", np.array([1, 2, 3], np.float32))
    save(path("x_trunc.pb"), open(path("x.pb"), "rb").read()[:9])
    # Truncated in the middle of the graph; random bytes (fixed seed).
    write("truncated.onnx", good[: len(good) // 2])
    write("random.onnx", bytes(np.random.default_rng(7).integers(0, 256, 512, dtype=np.uint8)))
    # A length prefix far beyond the end of the file.
    write("huge_length.onnx", key(7, 2) + varint(1 << 40) + b"\x00" * 8)
    # A valid but empty ModelProto.
    write("empty.onnx", b"")
    # Scale initializers with bad storage.
    write("dtype99.onnx", q_model(make_tensor("s", 99, (), raw_data=bytes(4))))
    write("dtype0.onnx", q_model(make_tensor("s", None, (), raw_data=bytes(4))))
    write("string.onnx", q_model(make_tensor("s", STRING, (1,), string_data=[b"0.5"])))
    write("uint64.onnx", q_model(make_tensor("s", UINT64, (), raw_data=bytes(8))))
    write("dims_overflow.onnx", q_model(make_tensor("s", FLOAT, (1 << 62, 4), raw_data=bytes(4))))
    write("dims_huge.onnx", q_model(make_tensor("s", FLOAT, (1 << 40,), raw_data=bytes(4))))
    write("dims_negative.onnx", q_model(make_tensor("s", FLOAT, (-1,), raw_data=bytes(4))))
    write("raw_short.onnx", q_model(make_tensor("s", FLOAT, (2,), raw_data=bytes(7))))
    write("raw_long_int4.onnx", q_model(make_tensor("s", INT4, (3,), raw_data=bytes(3))))
    write("float_count.onnx", q_model(make_tensor("s", FLOAT, (3,), float_data=[1.0, 2.0])))
    write("float_on_int8.onnx", q_model(make_tensor("s", INT8, (1,), float_data=[1.0])))
    write("int4_range.onnx", q_model(make_tensor("s", INT4, (2,), int32_data=[256])))
    write("int4_negative.onnx", q_model(make_tensor("s", INT4, (2,), int32_data=[-1])))
    write("int8_range.onnx", q_model(make_tensor("s", INT8, (2,), int32_data=[1, 128])))
    write("two_sources.onnx", q_model(make_tensor("s", FLOAT, (1,), raw_data=bytes(4), float_data=[1.0])))
    write("no_data.onnx", q_model(make_tensor("s", FLOAT, (2,))))
    write("data_location.onnx", q_model(make_tensor("s", FLOAT, (), raw_data=bytes(4), data_location=7)))

    # External data: escapes, absolute, past the end, missing, symlinked out.
    os.makedirs(path("ext"), exist_ok=True)
    save(path("ext/w.bin"), np.array([0.5, 0.25], "<f4").tobytes())
    save(path("outside.bin"), np.array([0.5], "<f4").tobytes())

    def ext_model(name, entries):
        write("ext/" + name, q_model(make_tensor("s", FLOAT, (), data_location=1, external_data=entries)))

    # The good case: scale 0.25 at offset 4; y = sat(x / 0.25) = [4, 8, 12, 255].
    ext_model("good.onnx", [("location", "w.bin"), ("offset", "4"), ("length", "4")])
    save_pb(path("ext/y.pb"), "y", np.array([4, 8, 12, 255], np.uint8))
    ext_model("dotdot.onnx", [("location", "../outside.bin")])
    ext_model("dotdot_deep.onnx", [("location", "a/../../outside.bin")])
    ext_model("absolute.onnx", [("location", os.path.abspath(path("outside.bin")))])
    ext_model("past_end.onnx", [("location", "w.bin"), ("offset", "4"), ("length", "8")])
    ext_model("offset_beyond.onnx", [("location", "w.bin"), ("offset", "100")])
    ext_model("wrong_length.onnx", [("location", "w.bin"), ("offset", "0"), ("length", "8")])
    ext_model("rest_too_long.onnx", [("location", "w.bin")])
    ext_model("missing.onnx", [("location", "nope.bin")])
    ext_model("no_location.onnx", [("offset", "0")])
    ext_model("bad_offset.onnx", [("location", "w.bin"), ("offset", "-4")])
    ext_model("directory.onnx", [("location", ".")])
    if os.path.lexists(path("ext/link.bin")):
        os.remove(path("ext/link.bin"))
    os.symlink("../outside.bin", path("ext/link.bin"))
    ext_model("symlink.onnx", [("location", "link.bin")])

    # Graph structure.
    def graph_model(nodes, inputs, outputs, inits=(), opsets=(("", 13),)):
        return make_model(make_graph(nodes, "g", inputs, outputs, inits), opsets)

    write("unknown_input.onnx", graph_model(
        [make_node("QuantizeLinear", ["x", "nope"], ["y"], name="q_nope")], x_in, y_out))
    write("later_input.onnx", graph_model(
        [make_node("QuantizeLinear", ["x", "s2"], ["y"], name="q_first"),
         make_node("Identity", ["s"], ["s2"], name="id")], x_in, y_out, [f32("s", 0.5)]))
    write("unknown_output.onnx", graph_model(
        [make_node("QuantizeLinear", ["x", "s"], ["y"], name="q")], x_in,
        [make_value_info("z", UINT8, (4,))], [f32("s", 0.5)]))
    write("output_type.onnx", graph_model(
        [make_node("QuantizeLinear", ["x", "s"], ["y"], name="q")], x_in,
        [make_value_info("y", INT8, (4,))], [f32("s", 0.5)]))
    # ... with another rank; with another size of a known dim; a dim_param
    # or a negative size (an exporter's "unknown") where the size is known
    # declares nothing (output_dim_param and output_neg_dim run).
    write("output_rank.onnx", graph_model(
        [make_node("QuantizeLinear", ["x", "s"], ["y"], name="q")], x_in,
        [make_value_info("y", UINT8, (2, 2))], [f32("s", 0.5)]))
    write("output_dim.onnx", graph_model(
        [make_node("QuantizeLinear", ["x", "s"], ["y"], name="q")], x_in,
        [make_value_info("y", UINT8, (5,))], [f32("s", 0.5)]))
    write("output_dim_param.onnx", graph_model(
        [make_node("QuantizeLinear", ["x", "s"], ["y"], name="q")], x_in,
        [make_value_info("y", UINT8, ("n",))], [f32("s", 0.5)]))
    write("output_neg_dim.onnx", graph_model(
        [make_node("QuantizeLinear", ["x", "s"], ["y"], name="q")], x_in,
        [make_value_info("y", UINT8, (-1,))], [f32("s", 0.5)]))
    write("one_input.onnx", graph_model(
        [make_node("QuantizeLinear", ["x"], ["y"], name="q_one")], x_in, y_out))
    write("empty_scale_name.onnx", graph_model(
        [make_node("QuantizeLinear", ["x", ""], ["y"], name="q_empty")], x_in, y_out))
    write("sigmoid.onnx", graph_model(
        [make_node("Sigmoid", ["x"], ["y"], name="sig0")], x_in, y_out))
    write("domain.onnx", graph_model(
        [make_node("QuantizeLinear", ["x", "s"], ["y"], name="q_dom", domain="com.example")],
        x_in, y_out, [f32("s", 0.5)], [("", 13), ("com.example", 1)]))
    write("no_shape.onnx", graph_model(
        [make_node("QuantizeLinear", ["x", "s"], ["y"], name="q")],
        [make_value_info("x", FLOAT)], y_out, [f32("s", 0.5)]))
    write("input_type.onnx", graph_model(
        [], [make_value_info("x", COMPLEX64, (4,))], [make_value_info("x", UNDEFINED)]))
    write("neg_dim.onnx", graph_model(
        [], [make_value_info("x", FLOAT, (-3,))], [make_value_info("x", UNDEFINED)]))
    # A graph input of a type no tensor is (TypeProto without tensor_type).
    write("not_tensor.onnx", make_model(
        make_graph([], "g", [f_bytes(1, "x") + f_bytes(2, b"")], [make_value_info("x", UNDEFINED)])))
    write("no_graph.onnx", f_varint(1, 8) + f_bytes(8, f_bytes(1, "") + f_varint(2, 13)))
    # Function-body ops with bad arguments.
    write("cast_no_to.onnx", graph_model([make_node("Cast", ["x"], ["y"], name="cast")], x_in, y_out))
    write("cast_to_int4.onnx", graph_model(
        [make_node("Cast", ["x"], ["y"], name="cast", attrs=[attr_int("to", INT4)])], x_in,
        [make_value_info("y", INT4, (4,))], opsets=[("", 21)]))
    write("reduce_axis.onnx", graph_model(
        [make_node("ReduceMin", ["x"], ["y"], name="rmin", attrs=[attr_ints("axes", [3])])],
        x_in, [make_value_info("y", FLOAT)], opsets=[("", 13)]))
    write("sub_broadcast.onnx", graph_model(
        [make_node("Sub", ["x", "w"], ["y"], name="sub")], x_in, [make_value_info("y", FLOAT)],
        [f32("w", [1, 2, 3])]))
    write("sub_attr.onnx", graph_model(
        [make_node("Sub", ["x", "w"], ["y"], name="sub", attrs=[attr_int("broadcast", 1)])],
        x_in, [make_value_info("y", FLOAT)], [f32("w", [1, 2, 3, 4], (4,))]))
    write("sub_types.onnx", graph_model(
        [make_node("Sub", ["x", "w"], ["y"], name="sub")], x_in, [make_value_info("y", FLOAT)],
        [make_tensor("w", INT32, (4,), int32_data=[1, 2, 3, 4])]))
    write("constant_two.onnx", graph_model(
        [make_node("Constant", [], ["y"], name="c2", attrs=[attr_int("value_int", 1), attr_int("value_int", 2)])],
        [], [make_value_info("y", UNDEFINED)]))
    write("constant_bad.onnx", graph_model(
        [make_node("Constant", [], ["y"], name="cbad",
                   attrs=[attr_tensor("value", make_tensor("", FLOAT, (2,), raw_data=bytes(3)))])],
        [], [make_value_info("y", UNDEFINED)]))
