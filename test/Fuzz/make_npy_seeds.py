#!/usr/bin/env python3
"""Seed corpus for quantops-fuzz-npy: small .npy files of every dtype the
runner reads (and a few it rejects), format versions 1.0/2.0/3.0, C and
Fortran order, rank 0 to 4, empty shapes. Usage: make_npy_seeds.py OUTDIR.
Needs Debian's python3-numpy (/usr/bin/python3)."""
import io
import os
import sys

import numpy as np
from numpy.lib import format as npf

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(5)
count = 0


def save(name, array, version=None):
    global count
    buf = io.BytesIO()
    if version is None:
        np.save(buf, array, allow_pickle=False)
    else:
        npf.write_array(buf, array, version=version, allow_pickle=False)
    with open(os.path.join(out, name), "wb") as f:
        f.write(buf.getvalue())
    count += 1


dtypes = ["i1", "u1", "<i2", "<u2", "<i4", "<i8", "<f2", "<f4", "<f8"]
shapes = [(), (1,), (6,), (2, 3), (2, 0), (1, 2, 1, 2)]
for dt in dtypes:
    for shape in shapes:
        a = (rng.standard_normal(shape) * 50).astype(dt)
        save("c_%s_%s.npy" % (dt.strip("<"), "x".join(map(str, shape)) or "s"), a)
    save("v2_%s.npy" % dt.strip("<"), np.arange(4).astype(dt), version=(2, 0))
    save("v3_%s.npy" % dt.strip("<"), np.arange(3).astype(dt), version=(3, 0))
# Fortran order (accepted only when at most one dimension exceeds 1).
save("f_2x3.npy", np.asfortranarray(np.arange(6, dtype="<f4").reshape(2, 3)))
save("f_1x3.npy", np.asfortranarray(np.arange(3, dtype="<f4").reshape(1, 3)))
# Special floats.
save("special_f4.npy", np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45], "<f4"))
save("special_f2.npy", np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 6e-8], "<f2"))
# Rejected kinds: big-endian, bool, complex, unicode, structured.
save("be_f4.npy", np.arange(3, dtype=">f4"))
save("bool.npy", np.array([True, False]))
save("c8.npy", np.arange(2, dtype="<c8"))
save("u4_str.npy", np.array(["ab", "c"]))
save("struct.npy", np.zeros(2, dtype=[("a", "<i4"), ("b", "<f4")]))
print("%d seeds in %s" % (count, out))
