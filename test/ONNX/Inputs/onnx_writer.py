"""A tiny hand-written ONNX protobuf encoder for the tests in test/ONNX.

It depends on nothing but the Python standard library (NumPy is optional, for
the helpers at the end) and deliberately not on the importer's own schema or
code: every message is encoded field by field from the field numbers that
SPEC.md ("Storage in ONNX files") and onnx.proto give.

Wire format: each field is a key varint (field_number << 3 | wire_type)
followed by a varint (wire type 0), 8 bytes (1), a length-prefixed byte string
(2) or 4 bytes (5). int32/int64 values are varints of their 64-bit two's
complement (so a negative number takes 10 bytes). Messages are byte strings
here, nested through length-delimited fields.
"""
import struct

# TensorProto.DataType numbers.
UNDEFINED, FLOAT, UINT8, INT8, UINT16, INT16, INT32, INT64, STRING, BOOL = range(10)
FLOAT16, DOUBLE, UINT32, UINT64, COMPLEX64, COMPLEX128, BFLOAT16 = range(10, 17)
FLOAT8E4M3FN, FLOAT8E4M3FNUZ, FLOAT8E5M2, FLOAT8E5M2FNUZ = range(17, 21)
UINT4, INT4, FLOAT4E2M1, FLOAT8E8M0, UINT2, INT2 = range(21, 27)

# AttributeProto.AttributeType numbers.
ATTR_FLOAT, ATTR_INT, ATTR_STRING, ATTR_TENSOR = 1, 2, 3, 4
ATTR_FLOATS, ATTR_INTS = 6, 7

# --------------------------------------------------------------------------
# Wire primitives
# --------------------------------------------------------------------------


def varint(value):
    """Base-128 varint of a (possibly negative) 64-bit integer."""
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def key(field, wire_type):
    return varint((field << 3) | wire_type)


def f_varint(field, value):
    return key(field, 0) + varint(int(value))


def f_bytes(field, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    return key(field, 2) + varint(len(data)) + bytes(data)


def f_float(field, value):
    return key(field, 5) + struct.pack("<f", value)


def f_double(field, value):
    return key(field, 1) + struct.pack("<d", value)


def f_packed_varints(field, values):
    """A packed repeated int32/int64/uint64 field."""
    return f_bytes(field, b"".join(varint(int(v)) for v in values))


def f_repeated_varints(field, values):
    """The same, unpacked: one key per value."""
    return b"".join(f_varint(field, v) for v in values)


def f_packed_floats(field, values):
    return f_bytes(field, b"".join(struct.pack("<f", v) for v in values))


def f_packed_doubles(field, values):
    return f_bytes(field, b"".join(struct.pack("<d", v) for v in values))


# --------------------------------------------------------------------------
# Messages
# --------------------------------------------------------------------------


def pack_int4(values):
    """4-bit values (signed or unsigned), two per byte, first in the low
    nibble; an odd count pads the last high nibble with 0."""
    values = list(values)
    if len(values) % 2:
        values.append(0)
    return bytes((values[i] & 0xF) | ((values[i + 1] & 0xF) << 4)
                 for i in range(0, len(values), 2))


def pack_int2(values):
    values = list(values) + [0] * (-len(values) % 4)
    return bytes(sum((values[i + j] & 3) << (2 * j) for j in range(4))
                 for i in range(0, len(values), 4))


def make_tensor(name, data_type, dims, raw_data=None, float_data=None,
                int32_data=None, int64_data=None, double_data=None,
                string_data=None, external_data=None, data_location=None,
                packed=True):
    """TensorProto: dims 1, data_type 2, float_data 4, int32_data 5,
    string_data 6, int64_data 7, name 8, raw_data 9, double_data 10,
    external_data 13 (list of (key, value)), data_location 14."""
    out = b"".join(f_varint(1, d) for d in dims)
    if data_type is not None:
        out += f_varint(2, data_type)
    if float_data is not None:
        out += f_packed_floats(4, float_data)
    if int32_data is not None:
        out += (f_packed_varints if packed else f_repeated_varints)(5, int32_data)
    if string_data is not None:
        out += b"".join(f_bytes(6, s) for s in string_data)
    if int64_data is not None:
        out += (f_packed_varints if packed else f_repeated_varints)(7, int64_data)
    if name is not None:
        out += f_bytes(8, name)
    if raw_data is not None:
        out += f_bytes(9, raw_data)
    if double_data is not None:
        out += f_packed_doubles(10, double_data)
    for k, v in external_data or []:
        out += f_bytes(13, f_bytes(1, k) + f_bytes(2, v))
    if data_location is not None:
        out += f_varint(14, data_location)
    return out


def attr_int(name, value, typed=True):
    """AttributeProto: name 1, i 3, type 20 (INT = 2)."""
    return f_bytes(1, name) + f_varint(3, value) + (f_varint(20, ATTR_INT) if typed else b"")


def attr_float(name, value):
    return f_bytes(1, name) + f_float(2, value) + f_varint(20, ATTR_FLOAT)


def attr_ints(name, values):
    return f_bytes(1, name) + b"".join(f_varint(8, v) for v in values) + f_varint(20, ATTR_INTS)


def attr_floats(name, values):
    return f_bytes(1, name) + b"".join(f_float(7, v) for v in values) + f_varint(20, ATTR_FLOATS)


def attr_string(name, value):
    return f_bytes(1, name) + f_bytes(4, value) + f_varint(20, ATTR_STRING)


def attr_tensor(name, tensor):
    return f_bytes(1, name) + f_bytes(5, tensor) + f_varint(20, ATTR_TENSOR)


def make_node(op_type, inputs, outputs, name="", domain=None, attrs=()):
    """NodeProto: input 1, output 2, name 3, op_type 4, attribute 5, domain 7."""
    out = b"".join(f_bytes(1, i) for i in inputs)
    out += b"".join(f_bytes(2, o) for o in outputs)
    if name:
        out += f_bytes(3, name)
    out += f_bytes(4, op_type)
    out += b"".join(f_bytes(5, a) for a in attrs)
    if domain is not None:
        out += f_bytes(7, domain)
    return out


def make_value_info(name, elem_type, shape=None):
    """ValueInfoProto{name 1, type 2: TypeProto{tensor_type 1: {elem_type 1,
    shape 2: TensorShapeProto{dim 1: {dim_value 1 | dim_param 2}}}}}.
    shape None leaves the shape out (unranked); a str dimension is a
    dim_param (dynamic)."""
    tensor_type = f_varint(1, elem_type)
    if shape is not None:
        dims = b""
        for d in shape:
            dim = f_bytes(2, d) if isinstance(d, str) else f_varint(1, d)
            dims += f_bytes(1, dim)
        tensor_type += f_bytes(2, dims)
    return f_bytes(1, name) + f_bytes(2, f_bytes(1, tensor_type))


def make_graph(nodes, name, inputs, outputs, initializers=(), value_info=()):
    """GraphProto: node 1, name 2, initializer 5, input 11, output 12,
    value_info 13."""
    out = b"".join(f_bytes(1, n) for n in nodes)
    out += f_bytes(2, name)
    out += b"".join(f_bytes(5, t) for t in initializers)
    out += b"".join(f_bytes(11, i) for i in inputs)
    out += b"".join(f_bytes(12, o) for o in outputs)
    out += b"".join(f_bytes(13, v) for v in value_info)
    return out


def make_model(graph, opsets=(("", 13),), ir_version=8):
    """ModelProto: ir_version 1, graph 7, opset_import 8
    (OperatorSetIdProto: domain 1, version 2)."""
    out = f_varint(1, ir_version)
    out += f_bytes(7, graph)
    for domain, version in opsets:
        out += f_bytes(8, f_bytes(1, domain) + f_varint(2, version))
    return out


def save(path, data):
    with open(path, "wb") as f:
        f.write(data)


# --------------------------------------------------------------------------
# NumPy helpers (raw_data tensors and .pb test data)
# --------------------------------------------------------------------------

NUMPY_TYPES = {
    "float32": FLOAT, "uint8": UINT8, "int8": INT8, "uint16": UINT16,
    "int16": INT16, "int32": INT32, "int64": INT64, "float16": FLOAT16,
    "float64": DOUBLE,
}


def tensor_from_numpy(name, array, data_type=None):
    """A raw_data TensorProto of a NumPy array (little-endian)."""
    import numpy as np
    array = np.asarray(array)
    if data_type is None:
        data_type = NUMPY_TYPES[str(array.dtype)]
    raw = array.astype(array.dtype.newbyteorder("<")).tobytes()
    return make_tensor(name, data_type, array.shape, raw_data=raw)


def save_pb(path, name, array, data_type=None):
    save(path, tensor_from_numpy(name, array, data_type))
