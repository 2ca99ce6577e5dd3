"""Fortran-ordered .npy inputs, as np.save writes a transposed or
np.asfortranarray array, and the QuantizeLinear results they must give:
round_half_even(x / 0.5) saturated to uint8, computed from the C-order
values.

  make_fortran_npy.py OUT_DIR
"""
import os
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(5)
cases = {
    "matrix": rng.uniform(-10, 140, size=(5, 7)).astype(np.float32).T,
    "cube": np.asfortranarray(rng.uniform(-10, 140, size=(3, 4, 6)).astype(np.float32)),
}
for name, x in cases.items():
    np.save(os.path.join(out, f"{name}.npy"), x)
    with open(os.path.join(out, f"{name}.npy"), "rb") as f:
        assert b"'fortran_order': True" in f.read(128), name
    want = np.clip(np.rint(np.ascontiguousarray(x) / np.float32(0.5)), 0, 255).astype(np.uint8)
    np.save(os.path.join(out, f"{name}.expected.npy"), want)
np.save(os.path.join(out, "scale.npy"), np.float32(0.5))
