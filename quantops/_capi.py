"""ctypes declarations of libQuantOpsRuntime (include/QuantOps-c/Runtime.h).

Where the library is: QUANTOPS_RUNTIME_LIBRARY (a path) if set; else the
_config.py CMake writes beside an assembled or installed package names it
relative to this folder (build/python_packages -> build/lib, the install
prefix's lib); else, for the sources in a checkout (python3 run from its
root), the checkout's build/lib.
"""
import ctypes
import os

try:
    from . import _config
    _RELATIVE_LIBRARY = _config.LIBRARY
except ImportError:  # the checkout's sources
    _RELATIVE_LIBRARY = os.path.join("..", "build", "lib", "libQuantOpsRuntime.so")

API_VERSION = 1


class Status(ctypes.Structure):
    pass


class SessionOptions(ctypes.Structure):
    pass


class Session(ctypes.Structure):
    pass


class TensorInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("element_type", ctypes.c_int32),
                ("rank", ctypes.c_size_t), ("shape", ctypes.POINTER(ctypes.c_int64))]


class Tensor(ctypes.Structure):
    _fields_ = [("element_type", ctypes.c_int32), ("rank", ctypes.c_size_t),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("data", ctypes.c_void_p),
                ("byte_size", ctypes.c_size_t)]


FORMAT_ONNX, FORMAT_MLIR = 0, 1


def library_path():
    override = os.environ.get("QUANTOPS_RUNTIME_LIBRARY")
    if override:
        return override
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, _RELATIVE_LIBRARY))


def _declare(lib):
    status_p = ctypes.POINTER(Status)
    options_p = ctypes.POINTER(SessionOptions)
    session_p = ctypes.POINTER(Session)
    signatures = {
        "qopsGetApiVersion": (ctypes.c_int, []),
        "qopsStatusGetMessage": (ctypes.c_char_p, [status_p]),
        "qopsStatusDestroy": (None, [status_p]),
        "qopsSessionOptionsCreate": (options_p, []),
        "qopsSessionOptionsDestroy": (None, [options_p]),
        "qopsSessionOptionsSet": (status_p, [options_p, ctypes.c_char_p, ctypes.c_char_p]),
        "qopsSessionCreate": (status_p, [ctypes.c_char_p, options_p,
                                         ctypes.POINTER(session_p)]),
        "qopsSessionCreateFromBuffer": (status_p, [ctypes.c_void_p, ctypes.c_size_t,
                                                   ctypes.c_int, options_p,
                                                   ctypes.POINTER(session_p)]),
        "qopsSessionDestroy": (None, [session_p]),
        "qopsSessionGetInputCount": (ctypes.c_size_t, [session_p]),
        "qopsSessionGetOutputCount": (ctypes.c_size_t, [session_p]),
        "qopsSessionGetInputInfo": (status_p, [session_p, ctypes.c_size_t,
                                               ctypes.POINTER(TensorInfo)]),
        "qopsSessionGetOutputInfo": (status_p, [session_p, ctypes.c_size_t,
                                                ctypes.POINTER(TensorInfo)]),
        "qopsSessionRun": (status_p, [session_p, ctypes.POINTER(Tensor), ctypes.c_size_t,
                                      ctypes.POINTER(Tensor), ctypes.c_size_t]),
        "qopsTensorRelease": (None, [ctypes.POINTER(Tensor)]),
        "qopsCompileToObject": (status_p, [ctypes.c_char_p, options_p, ctypes.c_char_p,
                                           ctypes.c_char_p, ctypes.c_char_p]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype, function.argtypes = restype, argtypes
    return lib


_lib = None


def lib():
    """The loaded library (loaded on first use)."""
    global _lib
    if _lib is None:
        path = library_path()
        try:
            loaded = ctypes.CDLL(path)
        except OSError as error:
            raise ImportError(f"cannot load the QuantOps runtime library {path}: {error} "
                              "(set QUANTOPS_RUNTIME_LIBRARY to its path)") from None
        _lib = _declare(loaded)
        version = _lib.qopsGetApiVersion()
        if version != API_VERSION:
            raise ImportError(f"{path} has C API version {version}; this package "
                              f"needs {API_VERSION}")
    return _lib
