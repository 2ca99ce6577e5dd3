# -*- Python -*- lit configuration for the QuantOps test suite.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "QUANTOPS"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.quantops_obj_root, "test")
config.excludes = ["Inputs", "Utils", "consumer", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%quantops_src", config.quantops_src_root))
config.substitutions.append(("%quantops_obj", config.quantops_obj_root))
config.substitutions.append(("%mlir_cmake_dir", config.mlir_cmake_dir))
config.substitutions.append(("%cxx_compiler", config.cxx_compiler))

# The NumPy reference scripts need Debian's python3 with python3-numpy (a
# python3 earlier on PATH may lack numpy).
python = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else "python3"
config.substitutions.append(("%python", python))
# Debian's python3-onnx (scripts/install-deps.sh) writes the QDQ models.
import subprocess
if subprocess.call([python, "-c", "import onnx"], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL) == 0:
    config.available_features.add("python3-onnx")
# The build folder is the checkout's build/ (scripts/build.sh): then the
# package's sources import from the checkout's root (quantops/_capi.py finds
# build/lib).
if os.path.realpath(config.quantops_obj_root) == os.path.realpath(
        os.path.join(config.quantops_src_root, "build")):
    config.available_features.add("build-in-checkout")
# Debian's python3-pytest runs the Python package's tests (test/Python).
if subprocess.call([python, "-c", "import pytest"], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL) == 0:
    config.available_features.add("python3-pytest")
config.substitutions.append(
    ("%expect_exit", python + " " + os.path.join(config.quantops_src_root, "test", "Utils", "expect_exit.py")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.quantops_tools_dir, config.llvm_tools_dir]
tools = ["quant-opt", "quant-runner", "quant-compile", "quantops-capi-test", "mlir-translate", "mlir-opt", "opt", "llc", "llvm-objdump", "llvm-nm", "llvm-ar"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
# The plugin for stock mlir-opt (tools/qops-plugin).
config.substitutions.append(
    ("%qops_plugin", os.path.join(config.quantops_obj_root, "lib", "libQuantOpsPlugin.so")))

# Conformance data: ONNX's node tests in ../shared (beside the checkout) and
# Debian's libonnx-testdata (installed by scripts/install-deps.sh).
shared_dir = os.path.join(os.path.dirname(config.quantops_src_root), "shared")
node_tests = os.path.join(shared_dir, "onnx-node-tests")
if os.path.isdir(node_tests):
    config.available_features.add("onnx-node-tests")
config.substitutions.append(("%onnx_node_tests", node_tests))
debian_node_tests = "/usr/share/libonnx-testdata/data/node"
if os.path.isdir(debian_node_tests):
    config.available_features.add("libonnx-testdata")
config.substitutions.append(("%debian_node_tests", debian_node_tests))

# AArch64 cross compilation and user-mode emulation (test/Target/aot-*):
# Debian's qemu-user, gcc-aarch64-linux-gnu, libc6-dev-arm64-cross.
import shutil
if (shutil.which("qemu-aarch64") and shutil.which("aarch64-linux-gnu-gcc")
        and os.path.isdir("/usr/aarch64-linux-gnu/lib")):
    config.available_features.add("qemu-aarch64")

# libomp (Debian: libomp-22-dev), which quant-compile --parallel objects link
# against (test/Target/aot-host-parallel.test): %libomp_dir.
_libomp = getattr(config, "quantops_libomp", "")
if _libomp and os.path.exists(_libomp):
    config.available_features.add("libomp")
    config.substitutions.append(("%libomp_dir", os.path.dirname(_libomp)))

# A host that runs AMX-INT8 code (test/Integration/qlinear-matmul-amx.mlir):
# the CPU has it and the kernel hands out the tile state (Linux 5.16+,
# arch_prctl ARCH_GET_XCOMP_SUPP reports XFEATURE_XTILEDATA).
def host_runs_amx():
    try:
        flags = open("/proc/cpuinfo").read().split()
    except OSError:
        return False
    if "amx_int8" not in flags or "amx_tile" not in flags:
        return False
    import ctypes
    supported = ctypes.c_ulong(0)
    libc = ctypes.CDLL(None, use_errno=True)
    SYS_arch_prctl, ARCH_GET_XCOMP_SUPP, XFEATURE_XTILEDATA = 158, 0x1021, 18
    if libc.syscall(SYS_arch_prctl, ARCH_GET_XCOMP_SUPP, ctypes.byref(supported)) != 0:
        return False
    return bool((supported.value >> XFEATURE_XTILEDATA) & 1)


if host_runs_amx():
    config.available_features.add("amx")

# Hosts whose default int8 kernel uses VNNI: there a RUN line with
# --target-features=-avx512vnni,-avxvnni (madd / maddubs) runs another kernel
# than the default one; elsewhere it would repeat the default run, so the
# generated tests put such lines under %if avx512vnni || avxvnni.
#   avx512vnni  AVX512-VNNI with AVX512VL (the vnni strategy)
#   avxvnni     a host that runs the avxvnni strategy: AVX-VNNI (VEX), or
#               AVX512-VNNI with AVX512VL (its EVEX form)
def host_cpu_flags():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


_cpu_flags = host_cpu_flags()
# Hosts whose float kernel uses 512-bit registers (AVX-512 F and BW) or
# 256-bit ones (AVX2): there --target-features=-avx512f (-avx2) runs the
# narrower tile (test/Integration/float-matmul.mlir).
if {"avx512f", "avx512bw"} <= _cpu_flags:
    config.available_features.add("avx512")
if "avx2" in _cpu_flags:
    config.available_features.add("avx2")
if {"avx512_vnni", "avx512vl"} <= _cpu_flags:
    config.available_features.add("avx512vnni")
if "avx_vnni" in _cpu_flags or {"avx512_vnni", "avx512vl"} <= _cpu_flags:
    config.available_features.add("avxvnni")

# Tools linked with LLVM's and MLIR's static libraries (QUANTOPS_STATIC_LLVM,
# test/Runner/static-llvm.test).
if getattr(config, "quantops_static_llvm", "OFF").upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("static-llvm")

# ASan/UBSan builds (scripts/test-sanitizers.sh): an instrumented plugin
# cannot be loaded into Debian's uninstrumented mlir-opt.
if getattr(config, "quantops_sanitizers", "OFF").upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("sanitizers")
