#!/usr/bin/env python3
"""Writes, for the ahead-of-time tests:
- kernels.mlir: the three kernels of aot-kernels.mlir plus qmm_constant_b, the
  same QLinearMatMul with this script's b as a constant (packed at compile
  time);
- driver.c: their inputs and expected outputs from the NumPy reference
  (qops_ref.py, written from SPEC.md), as C arrays; main() calls the C entry
  points quant-compile made (aot.h), compares every byte and prints
  "qmm: N of N match", "qmm_constant_b: ...", "quantize_blocked: ..." and
  "mmi: ..." (MatMulInteger's i32 sums, element by element).

Usage: make_aot_driver.py OUT_DIR [ROWS]   (rows of a: 13 by default)
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "Integration", "reference"))
import qops_ref  # noqa: E402


def c_array(name, ctype, values):
    flat = ", ".join(str(v) for v in np.asarray(values).reshape(-1).tolist())
    return "static %s %s[] = {%s};\n" % (ctype, name, flat)


def c_floats(name, values):
    flat = ", ".join(repr(float(v)) + "f" for v in np.asarray(values, np.float32).reshape(-1))
    return "static float %s[] = {%s};\n" % (name, flat)


def main():
    out = sys.argv[1]
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 13
    rng = np.random.default_rng(11)
    a = rng.integers(0, 256, (rows, 70)).astype(np.uint8)
    b = rng.integers(-128, 128, (70, 33)).astype(np.int8)
    a[0, :] = 255
    b[:, 0] = -128
    sb = np.array([0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.10, 0.11] * 3, np.float32)
    y = qops_ref.qlinear_matmul(a, np.float32(0.05), np.uint8(7), b, sb,
                                np.full(33, -3, np.int8), np.float32(1.5), np.uint8(120))
    x = (rng.standard_normal((4, 64)) * 4).astype(np.float32)
    x[0, :4] = [0.5, 1.5, 2.5, -2.5]
    s = (rng.random((4, 2)) + 0.25).astype(np.float32)
    zp = rng.integers(-2, 3, (4, 2)).astype(np.int8)
    q = qops_ref.quantize_linear(x, s, zp, axis=1, block_size=32, out_dtype="i4")
    zb = np.array([-3, 0, 5, -128, 127] * 6 + [-3, 0, 5], np.int8)
    mmi = qops_ref.matmul_integer(a, b, np.uint8(7), zb)

    with open(os.path.join(HERE, "aot-kernels.mlir")) as fh:
        kernels = fh.read().replace("13x", "%dx" % rows)
    qmm = kernels[kernels.index("func.func @qmm("):kernels.index("func.func @quantize_blocked")]
    assert "13x" not in kernels[kernels.index("func.func @mmi("):].replace("%dx" % rows, "")
    dense = "[" + ", ".join("[" + ", ".join(str(v) for v in row) + "]" for row in b.tolist()) + "]"
    constant = qmm.replace("func.func @qmm(%%a: tensor<%dx70xui8>, %%b: tensor<70x33xsi8>)" % rows,
                           "func.func @qmm_constant_b(%%a: tensor<%dx70xui8>)" % rows)
    constant = constant.replace("  %sa = ", "  %%b = arith.constant dense<%s> : tensor<70x33xsi8>\n  %%sa = " % dense, 1)
    assert constant != qmm
    with open(os.path.join(out, "kernels.mlir"), "w") as fh:
        fh.write(kernels + "\n" + constant)

    src = ['#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include "aot.h"\n\n']
    src += [c_array("a", "uint8_t", a), c_array("b", "int8_t", b),
            c_array("y_expected", "uint8_t", y), c_floats("x", x), c_floats("s", s),
            c_array("zp", "int8_t", zp), c_array("q_expected", "int8_t", q),
            c_array("mmi_expected", "int32_t", mmi)]
    src.append("#define ROWS %d\n" % rows)
    src.append("""
#define DESC2(T, NAME, DATA, R, C) \\
  T NAME = {DATA, DATA, 0, {R, C}, {C, 1}}

static int report(const char *name, const void *got, const void *want, int n) {
  int same = 0;
  for (int i = 0; i < n; ++i)
    same += ((const unsigned char *)got)[i] == ((const unsigned char *)want)[i];
  printf("%s: %d of %d match\\n", name, same, n);
  return same == n ? 0 : 1;
}

int main(void) {
  int status = 0;
  DESC2(qops_memref_uint8_t_2d, da, a, ROWS, 70);
  DESC2(qops_memref_int8_t_2d, db, b, 70, 33);
  qops_memref_uint8_t_2d dy;
  _mlir_ciface_qmm(&dy, &da, &db);
  if (dy.sizes[0] != ROWS || dy.sizes[1] != 33) {
    printf("qmm: wrong result shape\\n");
    return 1;
  }
  status |= report("qmm", dy.aligned + dy.offset, y_expected, ROWS * 33);
  free(dy.allocated);
  _mlir_ciface_qmm_constant_b(&dy, &da);
  status |= report("qmm_constant_b", dy.aligned + dy.offset, y_expected, ROWS * 33);
  free(dy.allocated);

  DESC2(qops_memref_float_2d, dx, x, 4, 64);
  DESC2(qops_memref_float_2d, ds, s, 4, 2);
  DESC2(qops_memref_int8_t_2d, dzp, zp, 4, 2);
  qops_memref_int8_t_2d dq;
  _mlir_ciface_quantize_blocked(&dq, &dx, &ds, &dzp);
  status |= report("quantize_blocked", dq.aligned + dq.offset, q_expected, 4 * 64);
  free(dq.allocated);

  qops_memref_int32_t_2d dm;
  _mlir_ciface_mmi(&dm, &da, &db);
  int same = 0;
  for (int i = 0; i < ROWS * 33; ++i)
    same += dm.aligned[dm.offset + i] == mmi_expected[i];
  printf("mmi: %d of %d match\\n", same, ROWS * 33);
  status |= same == ROWS * 33 ? 0 : 1;
  free(dm.allocated);
  return status;
}
""")
    with open(os.path.join(out, "driver.c"), "w") as fh:
        fh.write("".join(src))


if __name__ == "__main__":
    main()
