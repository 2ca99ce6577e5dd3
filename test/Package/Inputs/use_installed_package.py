"""Imports `quantops` from an install prefix (lib/python3.X/site-packages)
and runs an ONNX node test case through it, checking ONNX's expected output:
the installed package finds the installed runtime library, which finds
LLVM's and MLIR's libraries.

  use_installed_package.py PREFIX CASE_DIR
"""
import glob
import os
import sys

import numpy as np

prefix, case = sys.argv[1], sys.argv[2]
(site,) = glob.glob(os.path.join(prefix, "lib", "python3*", "site-packages"))
sys.path.insert(0, site)
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "Integration", "reference"))
import qops_ref  # noqa: E402
import quantops  # noqa: E402

print("package:", os.path.relpath(quantops.__file__, prefix))
print("library:", os.path.relpath(os.path.realpath(quantops.get_library_path()), prefix))
session = quantops.InferenceSession(os.path.join(case, "model.onnx"), threads=1)
data = os.path.join(case, "test_data_set_0")
inputs = [qops_ref.decode_tensor(open(p, "rb").read())[1]
          for p in sorted(glob.glob(os.path.join(data, "input_*.pb")))]
(want,) = [qops_ref.decode_tensor(open(p, "rb").read())[1]
           for p in sorted(glob.glob(os.path.join(data, "output_*.pb")))]
(got,) = session.run(None, {a.name: x for a, x in zip(session.get_inputs(), inputs)})
print("matches ONNX's output:", got.dtype == want.dtype and np.array_equal(got, want))
