"""QuantOps from Python: compile an ONNX model once, run it on NumPy arrays.

    import numpy as np, quantops
    session = quantops.InferenceSession("model.onnx", threads=2)
    print([i.name for i in session.get_inputs()])
    outputs = session.run(None, {"x": np.zeros((1, 64), np.float32)})

The interface follows onnxruntime's InferenceSession: get_inputs() and
get_outputs() describe the model (name, shape with None for a dynamic
dimension, type as "tensor(float)"), run(output_names, input_feed) returns a
list of arrays. Element types map to NumPy dtypes; bfloat16 travels as its
raw bits in uint16, the float8 types, float4e2m1 and float8e8m0 as theirs in
uint8, 4-bit and 2-bit integers one element per int8 / uint8 (range-checked).
Every error raises QuantOpsError with the one-line message quant-runner
prints. The compiled code runs without the GIL: run() may be called from
several threads on one session.
"""
import ctypes
import os
import tempfile

import numpy as np

from . import _capi

__all__ = ["InferenceSession", "NodeArg", "QuantOpsError", "compile", "get_library_path"]


class QuantOpsError(RuntimeError):
    """A model that cannot be imported, compiled or run, or a wrong input."""


# ONNX TensorProto.DataType -> (name, NumPy dtype that holds it).
_TYPES = {
    1: ("float", np.float32), 2: ("uint8", np.uint8), 3: ("int8", np.int8),
    4: ("uint16", np.uint16), 5: ("int16", np.int16), 6: ("int32", np.int32),
    7: ("int64", np.int64), 10: ("float16", np.float16), 11: ("double", np.float64),
    16: ("bfloat16", np.uint16), 17: ("float8e4m3fn", np.uint8),
    18: ("float8e4m3fnuz", np.uint8), 19: ("float8e5m2", np.uint8),
    20: ("float8e5m2fnuz", np.uint8), 21: ("uint4", np.uint8), 22: ("int4", np.int8),
    23: ("float4e2m1", np.uint8), 24: ("float8e8m0", np.uint8), 25: ("uint2", np.uint8),
    26: ("int2", np.int8),
}


def get_library_path():
    """The libQuantOpsRuntime this package uses."""
    return _capi.library_path()


def _check(status):
    if status:
        lib = _capi.lib()
        message = lib.qopsStatusGetMessage(status).decode("utf-8", "replace")
        lib.qopsStatusDestroy(status)
        raise QuantOpsError(message)


class NodeArg:
    """An input or output: name, shape (None for a dynamic dimension) and
    type ("tensor(int8)"), as onnxruntime's NodeArg."""

    def __init__(self, name, element_type, shape):
        self.name = name
        self.element_type = element_type
        self.shape = shape
        type_name = _TYPES.get(element_type, (f"type{element_type}",))[0]
        self.type = f"tensor({type_name})"

    @property
    def dtype(self):
        """The NumPy dtype that holds this tensor's elements."""
        return np.dtype(_TYPES[self.element_type][1])

    def __repr__(self):
        return f"NodeArg(name={self.name!r}, type={self.type!r}, shape={self.shape!r})"


def _make_options(threads, target_cpu, target_features, fuse_qdq, float_fma,
                  const_eval, nontemporal_min_bytes, opt_level, qdq_accuracy_level=0):
    lib = _capi.lib()
    options = lib.qopsSessionOptionsCreate()
    if not options:
        raise MemoryError("cannot allocate session options")
    values = {
        "threads": threads, "target_cpu": target_cpu, "target_features": target_features,
        "fuse_qdq": fuse_qdq, "float_fma": float_fma, "const_eval": const_eval,
        "nontemporal_min_bytes": nontemporal_min_bytes, "opt_level": opt_level,
        "qdq_accuracy_level": qdq_accuracy_level,
    }
    try:
        for name, value in values.items():
            if value is None:
                continue
            if isinstance(value, bool):
                value = int(value)
            elif name in ("threads", "nontemporal_min_bytes", "opt_level",
                          "qdq_accuracy_level") and (
                    not isinstance(value, (int, np.integer)) or value < 0):
                raise QuantOpsError(f"option '{name}': {value!r} is not a non-negative integer")
            _check(lib.qopsSessionOptionsSet(options, name.encode(), str(value).encode()))
    except BaseException:
        lib.qopsSessionOptionsDestroy(options)
        raise
    return options


class InferenceSession:
    """A model compiled once for this machine, run as often as needed.

    path_or_bytes: a .onnx file (other names are read as MLIR text), or the
    bytes of an ONNX model (MLIR text with format="mlir").
    threads: 0 (default) every core; 1 single-threaded code.
    target_cpu, target_features: as quant-runner's --target-cpu and
    --target-features (the code must run on this CPU).
    fuse_qdq, float_fma, const_eval, nontemporal_min_bytes, opt_level: as
    quant-runner's flags of the same names.
    qdq_accuracy_level: as quant-runner's --qdq-accuracy-level (onnxruntime's
    session option session.qdq_matmulnbits_accuracy_level): 4 runs a
    DequantizeLinear(4-bit) -> MatMul with A quantized to int8 per block,
    as onnxruntime does by default; 0 (the default) keeps ONNX's f32 numbers.
    providers: as onnxruntime's, so that its users' code runs unchanged;
    QuantOps is one CPU provider, "CPUExecutionProvider" (any other is an
    error, not silently ignored).
    """

    PROVIDERS = ["CPUExecutionProvider"]

    def __init__(self, path_or_bytes, threads=0, target_cpu=None, target_features=None,
                 fuse_qdq=False, float_fma=False, const_eval=False,
                 nontemporal_min_bytes=None, opt_level=3, format=None, providers=None,
                 qdq_accuracy_level=0):
        self._session = None
        lib = self._lib = _capi.lib()
        if format not in (None, "onnx", "mlir"):
            raise QuantOpsError(f"format must be 'onnx' or 'mlir', not {format!r}")
        for provider in providers or []:
            name = provider[0] if isinstance(provider, (tuple, list)) else provider
            if name not in self.PROVIDERS:
                raise QuantOpsError(f"provider {name!r} is not available (QuantOps runs on "
                                    "the CPU: CPUExecutionProvider)")
        options = _make_options(threads, target_cpu, target_features, fuse_qdq, float_fma,
                                const_eval, nontemporal_min_bytes, opt_level,
                                qdq_accuracy_level)
        session = ctypes.POINTER(_capi.Session)()
        try:
            if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
                data = bytes(path_or_bytes)
                kind = _capi.FORMAT_MLIR if format == "mlir" else _capi.FORMAT_ONNX
                status = lib.qopsSessionCreateFromBuffer(data, len(data), kind, options,
                                                         ctypes.byref(session))
            elif isinstance(path_or_bytes, (str, os.PathLike)):
                path = os.fspath(path_or_bytes)
                status = lib.qopsSessionCreate(path.encode(), options, ctypes.byref(session))
            else:
                raise QuantOpsError("path_or_bytes must be a path or the model's bytes, not "
                                    f"{type(path_or_bytes).__name__}")
            _check(status)
        finally:
            lib.qopsSessionOptionsDestroy(options)
        self._session = session
        self._inputs = self._describe(lib.qopsSessionGetInputCount, lib.qopsSessionGetInputInfo)
        self._outputs = self._describe(lib.qopsSessionGetOutputCount,
                                       lib.qopsSessionGetOutputInfo)

    def _describe(self, count, get_info):
        args = []
        for i in range(count(self._session)):
            info = _capi.TensorInfo()
            _check(get_info(self._session, i, ctypes.byref(info)))
            shape = [None if info.shape[d] < 0 else int(info.shape[d]) for d in range(info.rank)]
            args.append(NodeArg(info.name.decode("utf-8", "replace"), info.element_type, shape))
        return args

    def __del__(self):
        if getattr(self, "_session", None):
            self._lib.qopsSessionDestroy(self._session)
            self._session = None

    def get_providers(self):
        return list(self.PROVIDERS)

    def get_inputs(self):
        return list(self._inputs)

    def get_outputs(self):
        return list(self._outputs)

    def _stage_input(self, arg, value):
        want = arg.dtype
        array = np.asarray(value)
        if array.dtype.kind != want.kind or array.dtype.itemsize != want.itemsize:
            raise QuantOpsError(f"input '{arg.name}': {arg.type} is passed as NumPy "
                                f"{want.name}, got {array.dtype.name}")
        # C order and little-endian: copies only what is not already so
        # (np.ascontiguousarray would make a 0-d array 1-d).
        return np.asarray(array, dtype=want.newbyteorder("<"), order="C")

    def run(self, output_names, input_feed, run_options=None):
        """Runs the model on `input_feed` (input name -> array) and returns the
        outputs named in `output_names` (None: all), in that order."""
        if not isinstance(input_feed, dict):
            raise QuantOpsError("input_feed must be a dict of input name -> array")
        known = {arg.name for arg in self._inputs}
        for name in input_feed:
            if name not in known:
                raise QuantOpsError(f"unknown input '{name}' (the model's inputs: "
                                    f"{', '.join(sorted(known)) or 'none'})")
        positions = {arg.name: i for i, arg in enumerate(self._outputs)}
        if output_names is None:
            selected = list(range(len(self._outputs)))
        else:
            selected = []
            for name in output_names:
                if name not in positions:
                    raise QuantOpsError(f"unknown output '{name}' (the model's outputs: "
                                        f"{', '.join(positions) or 'none'})")
                selected.append(positions[name])
        arrays, tensors = [], (_capi.Tensor * max(1, len(self._inputs)))()
        shapes = []
        for i, arg in enumerate(self._inputs):
            if arg.name not in input_feed:
                raise QuantOpsError(f"missing input '{arg.name}'")
            array = self._stage_input(arg, input_feed[arg.name])
            arrays.append(array)
            shape = (ctypes.c_int64 * max(1, array.ndim))(*array.shape)
            shapes.append(shape)
            tensors[i] = _capi.Tensor(arg.element_type, array.ndim, shape,
                                      array.ctypes.data if array.nbytes else None,
                                      array.nbytes)
        results = (_capi.Tensor * max(1, len(self._outputs)))()
        _check(self._lib.qopsSessionRun(self._session, tensors, len(self._inputs),
                                        results, len(self._outputs)))
        outputs = []
        try:
            for i, arg in enumerate(self._outputs):
                tensor = results[i]
                shape = tuple(tensor.shape[d] for d in range(tensor.rank))
                out = np.empty(shape, dtype=arg.dtype)
                if tensor.byte_size:
                    ctypes.memmove(out.ctypes.data, tensor.data, tensor.byte_size)
                outputs.append(out)
        finally:
            for i in range(len(self._outputs)):
                self._lib.qopsTensorRelease(ctypes.byref(results[i]))
        return [outputs[i] for i in selected]


def compile(model, output, target_triple=None, header=None, threads=1, target_cpu=None,
            target_features=None, fuse_qdq=False, float_fma=False, const_eval=True,
            opt_level=3, qdq_accuracy_level=0):
    """Compiles `model` (a path, or an ONNX model's bytes) ahead of time into
    the object file `output` (and the C header `header`), as quant-compile
    does: target_triple None for this machine; threads > 1 writes a parallel
    object that links libomp."""
    lib = _capi.lib()
    options = _make_options(threads, target_cpu, target_features, fuse_qdq, float_fma,
                            const_eval, None, opt_level, qdq_accuracy_level)
    scratch = None
    try:
        if isinstance(model, (bytes, bytearray, memoryview)):
            scratch = tempfile.NamedTemporaryFile(suffix=".onnx", delete=False)
            scratch.write(bytes(model))
            scratch.close()
            model = scratch.name
        _check(lib.qopsCompileToObject(os.fspath(model).encode(), options,
                                       (target_triple or "").encode(),
                                       os.fspath(output).encode(),
                                       os.fspath(header).encode() if header else None))
    finally:
        lib.qopsSessionOptionsDestroy(options)
        if scratch is not None:
            os.unlink(scratch.name)
