"""The Python package `quantops` (quantops/ over libQuantOpsRuntime).

Run by test/Python/python-api.test (pytest from Debian's python3-pytest)
with PYTHONPATH set to the build tree's package, QUANTOPS_TEST_RUNNER to
quant-runner and QUANTOPS_TEST_TMP to a scratch folder. Expected numbers
come from ONNX's node test data or from NumPy formulas written here, never
from QuantOps itself (the one exception compares with quant-runner, which
is the point of that test).
"""
import glob
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import quantops

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Integration", "reference"))
import qops_ref  # noqa: E402  (the tiny TensorProto decoder)

SHARED_TESTS = os.path.join(HERE, "..", "..", "..", "shared", "onnx-node-tests")
DEBIAN_TESTS = "/usr/share/libonnx-testdata/data/node"
DEBIAN_CASES = ["test_basic_convinteger", "test_convinteger_with_padding",
                "test_convinteger_without_padding", "test_dequantizelinear",
                "test_dequantizelinear_axis", "test_dynamicquantizelinear",
                "test_matmulinteger", "test_qlinearconv", "test_qlinearmatmul_2D",
                "test_qlinearmatmul_3D", "test_quantizelinear", "test_quantizelinear_axis"]
TMP = os.environ.get("QUANTOPS_TEST_TMP", "/tmp")


def node_test_dirs():
    dirs = sorted(glob.glob(os.path.join(SHARED_TESTS, "test_*")))
    dirs += [os.path.join(DEBIAN_TESTS, c) for c in DEBIAN_CASES
             if os.path.isdir(os.path.join(DEBIAN_TESTS, c))]
    return dirs


def decode(path):
    """A TensorProto file as the array quantops takes or returns: the
    reference decoder's types, and the raw-bit ones (bfloat16 as uint16,
    float8 and e8m0 as uint8, float4 unpacked one per uint8)."""
    buf = open(path, "rb").read()
    fields = list(qops_ref.pb_fields(buf))
    data_type = (qops_ref._varints(fields, 2) or [0])[0]
    if data_type not in (16, 17, 18, 19, 20, 23, 24):
        return qops_ref.decode_tensor(buf)[1]
    dims = qops_ref._varints(fields, 1)
    count = int(np.prod(dims)) if dims else 1
    raw = b"".join(v for f, _, v in fields if f == 9)
    if not raw:
        ints = np.array(qops_ref._varints(fields, 5), dtype=np.int64)
        raw = ints.astype(np.uint16 if data_type == 16 else np.uint8).tobytes()
    if data_type == 16:
        array = np.frombuffer(raw, dtype="<u2").astype(np.uint16)
    elif data_type == 23:
        array = qops_ref.unpack_subbyte(raw, count, 4, signed=False)
    else:
        array = np.frombuffer(raw, dtype=np.uint8).copy()
    return array.reshape(dims)


def load_case(directory):
    data = os.path.join(directory, "test_data_set_0")
    inputs = [decode(p) for p in sorted(glob.glob(os.path.join(data, "input_*.pb")))]
    outputs = [decode(p) for p in sorted(glob.glob(os.path.join(data, "output_*.pb")))]
    return inputs, outputs


def assert_matches(got, want, name):
    """Integers and raw bits exactly; floats exactly or within ONNX's backend
    tolerance (rtol 1e-3, atol 1e-7), as quant-runner --onnx-test."""
    assert got.shape == want.shape, f"{name}: shape {got.shape} != {want.shape}"
    if got.dtype.kind == "f":
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                                   rtol=1e-3, atol=1e-7, err_msg=name)
    else:
        assert got.dtype == want.dtype, f"{name}: dtype {got.dtype} != {want.dtype}"
        np.testing.assert_array_equal(got, want, err_msg=name)


@pytest.mark.parametrize("directory", node_test_dirs(), ids=os.path.basename)
def test_onnx_node_case(directory):
    session = quantops.InferenceSession(os.path.join(directory, "model.onnx"), threads=1)
    inputs, expected = load_case(directory)
    feed = {arg.name: x for arg, x in zip(session.get_inputs(), inputs)}
    results = session.run(None, feed)
    assert len(results) == len(expected)
    for arg, got, want in zip(session.get_outputs(), results, expected):
        assert got.dtype == arg.dtype
        assert_matches(got, want, arg.name)


def qlinearconv_case():
    return os.path.join(SHARED_TESTS, "test_qlinearconv")


def test_same_numbers_as_quant_runner():
    """The same model and inputs through quant-runner and through the
    package give the same bytes."""
    directory = qlinearconv_case()
    data = os.path.join(directory, "test_data_set_0")
    pbs = sorted(glob.glob(os.path.join(data, "input_*.pb")))
    out = os.path.join(TMP, "runner-out.npy")
    command = [os.environ["QUANTOPS_TEST_RUNNER"], os.path.join(directory, "model.onnx"),
               "--threads", "2", "--output", out]
    for pb in pbs:
        command += ["--input", pb]
    subprocess.run(command, check=True)
    session = quantops.InferenceSession(os.path.join(directory, "model.onnx"), threads=2)
    inputs, _ = load_case(directory)
    got = session.run(None, {a.name: x for a, x in zip(session.get_inputs(), inputs)})[0]
    want = np.load(out)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


def dequantize_model(dims, qtype="uint8"):
    """DequantizeLinear(x, scale, zero_point) with x of shape `dims` (strings
    are dynamic), written with python3-onnx."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper
    elem = {"uint8": TensorProto.UINT8, "int8": TensorProto.INT8}[qtype]
    x = helper.make_tensor_value_info("x", elem, dims)
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, dims)
    scale = helper.make_tensor("scale", TensorProto.FLOAT, [], [0.25])
    zero = helper.make_tensor("zero_point", elem, [], [3])
    node = helper.make_node("DequantizeLinear", ["x", "scale", "zero_point"], ["y"])
    graph = helper.make_graph([node], "dq", [x], [y], [scale, zero])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    return model.SerializeToString()


def dequantize_reference(x):
    """DequantizeLinear's formula: (x - 3) * 0.25 in float32, exact here."""
    return ((x.astype(np.int32) - 3).astype(np.float32) * np.float32(0.25)).astype(np.float32)


def test_describes_inputs_and_outputs():
    session = quantops.InferenceSession(dequantize_model(["N", 4]), threads=1)
    (x,), (y,) = session.get_inputs(), session.get_outputs()
    assert (x.name, x.type, x.shape) == ("x", "tensor(uint8)", [None, 4])
    assert (y.name, y.type, y.shape) == ("y", "tensor(float)", [None, 4])


def test_dynamic_shapes():
    session = quantops.InferenceSession(dequantize_model(["N", "M"]), threads=1)
    rng = np.random.default_rng(7)
    for rows, cols in [(1, 1), (3, 5), (0, 4), (17, 33)]:
        x = rng.integers(0, 256, size=(rows, cols), dtype=np.uint8)
        (y,) = session.run(["y"], {"x": x})
        assert y.shape == (rows, cols)
        np.testing.assert_array_equal(y, dequantize_reference(x))


def test_non_contiguous_and_fortran_inputs():
    session = quantops.InferenceSession(dequantize_model(["N", "M"]), threads=1)
    base = np.arange(96, dtype=np.uint8).reshape(8, 12)
    for x in (base[:, ::3], base.T, np.asfortranarray(base), base[::-1, 2:7]):
        (y,) = session.run(None, {"x": x})
        np.testing.assert_array_equal(y, dequantize_reference(np.array(x)))


def test_bytes_and_path_give_the_same_session(tmp_path):
    model = dequantize_model([2, 3])
    path = tmp_path / "dq.onnx"
    path.write_bytes(model)
    x = np.array([[0, 3, 255], [1, 2, 4]], dtype=np.uint8)
    from_path = quantops.InferenceSession(str(path)).run(None, {"x": x})[0]
    from_bytes = quantops.InferenceSession(model).run(None, {"x": x})[0]
    np.testing.assert_array_equal(from_path, dequantize_reference(x))
    np.testing.assert_array_equal(from_bytes, from_path)


def test_mlir_text():
    text = b"""func.func @main(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xui8> {
  %0 = qops.quantize_linear %x, %s : tensor<4xf32>, tensor<f32> -> tensor<4xui8>
  return %0 : tensor<4xui8>
}"""
    session = quantops.InferenceSession(text, format="mlir", threads=1)
    x = np.array([1.0, 3.0, 5.0, 600.0], dtype=np.float32)
    # round_half_even(x / 2), saturated to uint8
    (y,) = session.run(None, {"input_0": x, "input_1": np.float32(2.0)})
    np.testing.assert_array_equal(y, np.array([0, 2, 2, 255], dtype=np.uint8))


def test_const_eval_packs_while_compiling():
    """A constant b (as quantize_dynamic writes MatMulInteger's weights),
    packed at the first call and, with const_eval, while the session is
    created (the packing functions run once linked): NumPy's MatMulInteger,
    on one thread and on two."""
    rng = np.random.default_rng(7)
    a = rng.integers(0, 256, (33, 96)).astype(np.uint8)
    b = rng.integers(-128, 128, (96, 80)).astype(np.int8)
    hexb = b.tobytes().hex().upper()
    text = f"""func.func @main(%a: tensor<33x96xui8>) -> tensor<33x80xi32> {{
  %b = arith.constant dense<"0x{hexb}"> : tensor<96x80xsi8>
  %y = qops.matmul_integer a(%a : tensor<33x96xui8>) b(%b : tensor<96x80xsi8>) -> tensor<33x80xi32>
  return %y : tensor<33x80xi32>
}}""".encode()
    want = qops_ref.matmul_integer(a, b, None, None)
    for threads in (1, 2):
        for const_eval in (False, True):
            session = quantops.InferenceSession(text, format="mlir", threads=threads,
                                                const_eval=const_eval)
            for _ in range(2):
                (y,) = session.run(None, {"input_0": a})
                np.testing.assert_array_equal(y, want)


@pytest.mark.parametrize("make, message", [
    (lambda: quantops.InferenceSession("/nonexistent/model.onnx"),
     "cannot open '/nonexistent/model.onnx'"),
    (lambda: quantops.InferenceSession(b"\x08\x07\x12\x04junk\x3a\xff\xff"),
     "not a valid ONNX model"),
    (lambda: quantops.InferenceSession(b"\x08\x07", threads=-1), "non-negative integer"),
    (lambda: quantops.InferenceSession(dequantize_model([2]), target_cpu="no-such-cpu"),
     "no-such-cpu"),
])
def test_session_errors(make, message):
    with pytest.raises(quantops.QuantOpsError, match=message):
        make()


def test_qdq_accuracy_level():
    """qdq_accuracy_level=4 (onnxruntime's session.qdq_matmulnbits_accuracy_level):
    a DequantizeLinear(int4) -> MatMul with A quantized to int8 per block,
    bit-exact to the NumPy emulation; the default keeps the graph's f32
    numbers; a level outside 0..4 is an error."""
    pytest.importorskip("onnx")
    make = os.path.join(HERE, "..", "..", "scripts", "make_qdq_model.py")
    out = os.path.join(TMP, "qdq-level")
    subprocess.run([sys.executable, make, "int4-weights", out, "--dims", "3", "128", "40"],
                   check=True)
    model = os.path.join(out, "int4-weights.onnx")
    x = np.load(os.path.join(out, "int4-weights.x.npy"))
    for level, reference in ((4, "int8"), (0, "unfused")):
        session = quantops.InferenceSession(model, threads=1, qdq_accuracy_level=level)
        (y,) = session.run(None, {"x": x})
        want = np.load(os.path.join(out, "int4-weights.%s.npy" % reference))
        assert y.tobytes() == want.tobytes(), (level, reference)
    with pytest.raises(quantops.QuantOpsError, match="accuracy level"):
        quantops.InferenceSession(model, qdq_accuracy_level=5)


def test_large_sub_byte_weights():
    """Large 4-bit weights (a MatMulNBits q of 512 x 256, an int4
    DequantizeLinear initializer of 131072 elements) are imported as
    resources that own their unpacked bytes and that the session's compiled
    code reads: the f32 reading of the graph bit for bit, on every run, also
    after the model's path, its bytes and the Python objects are gone."""
    pytest.importorskip("onnx")
    import gc
    make = os.path.join(HERE, "..", "..", "scripts", "make_qdq_model.py")
    out = os.path.join(TMP, "large-sub-byte")
    cases = (("matmul-nbits", "nbits"), ("int4-weights", "int4"))
    for kind, name in cases:
        subprocess.run([sys.executable, make, kind, out, "--name", name,
                        "--dims", "3", "512", "256"], check=True)
    for kind, name in cases:
        model = os.path.join(out, name + ".onnx")
        x = np.load(os.path.join(out, name + ".x.npy"))
        want = np.load(os.path.join(out, name + ".unfused.npy"))
        with open(model, "rb") as f:
            session = quantops.InferenceSession(f.read(), threads=1)
        gc.collect()
        for _ in range(3):
            (y,) = session.run(None, {session.get_inputs()[0].name: x})
            assert y.tobytes() == want.tobytes(), name
            gc.collect()


def test_onnxruntime_style_providers():
    session = quantops.InferenceSession(dequantize_model([2]), providers=["CPUExecutionProvider"])
    assert session.get_providers() == ["CPUExecutionProvider"]
    with pytest.raises(quantops.QuantOpsError, match="provider 'CUDAExecutionProvider' is not"):
        quantops.InferenceSession(dequantize_model([2]), providers=["CUDAExecutionProvider"])


def test_run_errors():
    session = quantops.InferenceSession(dequantize_model([2, 3]), threads=1)
    good = np.zeros((2, 3), dtype=np.uint8)
    cases = [
        (None, {"x": good.astype(np.float32)},
         "input 'x': tensor\\(uint8\\) is passed as NumPy uint8, got float32"),
        (None, {"x": np.zeros((3, 2), dtype=np.uint8)},
         "input 0 \\('x'\\): shape \\[3, 2\\] does not match tensor<2x3xui8>"),
        (["z"], {"x": good}, "unknown output 'z'"),
        (None, {"x": good, "w": good}, "unknown input 'w'"),
        (None, {}, "missing input 'x'"),
    ]
    for names, feed, message in cases:
        with pytest.raises(quantops.QuantOpsError, match=message):
            session.run(names, feed)
    # The session still runs after the errors.
    np.testing.assert_array_equal(session.run(None, {"x": good})[0], dequantize_reference(good))


def test_sub_byte_inputs_are_range_checked():
    session = quantops.InferenceSession(os.path.join(SHARED_TESTS, "test_dequantizelinear_int4",
                                                     "model.onnx"), threads=1)
    inputs, _ = load_case(os.path.join(SHARED_TESTS, "test_dequantizelinear_int4"))
    feed = {a.name: x for a, x in zip(session.get_inputs(), inputs)}
    first = session.get_inputs()[0].name
    feed[first] = np.full_like(feed[first], 9)
    with pytest.raises(quantops.QuantOpsError, match="out of range|outside"):
        session.run(None, feed)


def test_concurrent_runs_are_identical():
    directory = os.path.join(SHARED_TESTS, "test_qlinearmatmul_3D_int8_float32")
    session = quantops.InferenceSession(os.path.join(directory, "model.onnx"), threads=2)
    inputs, expected = load_case(directory)
    feed = {a.name: x for a, x in zip(session.get_inputs(), inputs)}
    results, errors = [], []

    def work():
        try:
            for _ in range(100):
                results.append(session.run(None, feed)[0].tobytes())
        except Exception as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(results) == 400 and set(results) == {expected[0].tobytes()}


def resident_bytes():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_many_runs_do_not_grow_memory():
    session = quantops.InferenceSession(dequantize_model([4, 16]), threads=1)
    x = np.arange(64, dtype=np.uint8).reshape(4, 16)
    for _ in range(1000):
        session.run(None, {"x": x})
    before = resident_bytes()
    for _ in range(10000):
        session.run(None, {"x": x})
    grown = resident_bytes() - before
    assert grown < 2 << 20, f"resident memory grew by {grown} bytes over 10,000 runs"


def test_compile_writes_an_object(tmp_path):
    model = os.path.join(SHARED_TESTS, "test_qlinearmatmul_2D_uint8_float32", "model.onnx")
    obj, header = tmp_path / "qmm.o", tmp_path / "qmm.h"
    quantops.compile(model, str(obj), header=str(header))
    assert obj.read_bytes()[:4] == b"\x7fELF"
    assert "_mlir_ciface_main" in header.read_text()
    with pytest.raises(quantops.QuantOpsError, match="unknown target triple"):
        quantops.compile(model, str(obj), target_triple="nothing-at-all")
