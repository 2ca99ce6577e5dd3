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
config.substitutions.append(
    ("%expect_exit", python + " " + os.path.join(config.quantops_src_root, "test", "Utils", "expect_exit.py")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.quantops_tools_dir, config.llvm_tools_dir]
tools = ["quant-opt", "quant-runner", "mlir-translate"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
