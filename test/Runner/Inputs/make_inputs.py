"""Writes the good and bad input files of test/Runner/errors.mlir into OUTDIR."""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
p = lambda name: os.path.join(out, name)

np.save(p("x.npy"), np.array([0.0, 2.0, 3.0, 1000.0, -254.0, -1000.0], dtype=np.float32))
np.save(p("s.npy"), np.array(2.0, dtype=np.float32))
np.save(p("zp.npy"), np.array(128, dtype=np.uint8))
np.save(p("y.npy"), np.array([128, 129, 130, 255, 1, 0], dtype=np.uint8))
np.save(p("y_wrong.npy"), np.array([128, 129, 131, 255, 2, 0], dtype=np.uint8))
np.save(p("y_shape.npy"), np.array([128, 129, 130], dtype=np.uint8))
np.save(p("x_f64.npy"), np.zeros(6, dtype=np.float64))
np.save(p("x_2d.npy"), np.zeros((2, 3), dtype=np.float32))
np.save(p("x_5.npy"), np.zeros(5, dtype=np.float32))
np.save(p("zp_i4_bad.npy"), np.array(9, dtype=np.int8))
np.save(p("c64.npy"), np.zeros(3, dtype=np.complex64))

good = open(p("x.npy"), "rb").read()
open(p("truncated.npy"), "wb").write(good[:-5])
open(p("bad_magic.npy"), "wb").write(b"NOTNUMPY" + good[8:])
bad_header = good.replace(b"'descr'", b"'dscr '")
open(p("bad_header.npy"), "wb").write(bad_header)
open(p("empty.npy"), "wb").write(b"")
open(p("garbage.mlir"), "w").write("func.func @main( {\n")
