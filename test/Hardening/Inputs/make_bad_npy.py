"""Writes the malformed and hostile .npy files of npy-rejections.test into
OUTDIR (headers written by hand, so every problem is exactly the one named)
and a good x.npy (f32 [6])."""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def npy(name, header, data=b"", version=(1, 0)):
    """A .npy file with the dict text `header` (padded as NumPy does)."""
    len_bytes = 2 if version[0] == 1 else 4
    unpadded = 6 + 2 + len_bytes + len(header) + 1
    text = header + " " * ((64 - unpadded % 64) % 64) + "\n"
    blob = b"\x93NUMPY" + bytes(version) + len(text).to_bytes(len_bytes, "little")
    with open(os.path.join(out, name), "wb") as f:
        f.write(blob + text.encode("latin-1") + data)


def dims(shape):
    return "(" + "".join("%d, " % d for d in shape) + ")"


def std(descr, shape, fortran="False"):
    return "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, dims(shape))


np.save(os.path.join(out, "x.npy"), np.zeros(6, np.float32))
npy("big_endian.npy", std(">f4", [6]), b"\0" * 24)
npy("bool.npy", std("|b1", [6]), b"\0" * 6)
npy("object.npy", std("|O", [6]), b"\0" * 48)
npy("structured.npy", "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (6,), }", b"\0" * 24)
npy("rank65.npy", std("<f4", [1] * 65), b"\0" * 4)
npy("negative_dim.npy", std("<f4", [-1]))
npy("dim_overflow.npy", std("<f4", [2 ** 64]))
npy("count_overflow.npy", std("<f4", [2 ** 62, 4]))
npy("bytes_overflow.npy", std("<f4", [2 ** 62]))
npy("over_limit.npy", std("<f4", [2 ** 40]))
npy("empty_huge.npy", std("<f4", [10 ** 18, 0]))
npy("extra_bytes.npy", std("<f4", [6]), b"\0" * 25)
npy("truncated.npy", std("<f4", [6]), b"\0" * 23)
npy("version.npy", std("<f4", [6]), b"\0" * 24, version=(4, 0))
npy("duplicate_key.npy", "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (6,), }", b"\0" * 24)
npy("unknown_key.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), 'x': 1, }", b"\0" * 24)
npy("missing_key.npy", "{'descr': '<f4', 'fortran_order': False, }", b"\0" * 24)
npy("nested.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': " + "(" * 100 + ")" * 100 + "}")
npy("shape_float.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (6.0,), }", b"\0" * 24)
with open(os.path.join(out, "bad_magic.npy"), "wb") as f:
    f.write(b"\x93NUMPZ\x01\x00")
np.save(os.path.join(out, "s.npy"), np.array(1.0, np.float32))
# Empty, within the limit: printed as NumPy does, "[]", not 100000 "[]"s.
np.save(os.path.join(out, "empty_100000x0.npy"), np.zeros((100000, 0), np.float32))
