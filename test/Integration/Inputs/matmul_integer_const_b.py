"""For matmul-integer-constant-b.mlir: MatMulInteger with a constant b (the
weights), as onnxruntime.quantization.quantize_dynamic writes it. Writes
OUT/<case>_a.npy, OUT/<case>_expected.npy (the NumPy reference's
MatMulInteger, qops_ref.matmul_integer, written from SPEC.md) and
OUT/constant_b.mlir, one function per case with b and b's zero point as
constants (generated together, so both see the same weights).

    matmul_integer_const_b.py OUT

Cases:
  small_b   b in [-64, 63] (si8, zero point 0): every pair of k rows has
            positive and negative parts of at most 128, so on an AVX2 host
            without VNNI (maddubs) the kernel multiplies with VPMADDUBSW
  wide_b    b over all of si8 with a per-column zero point: madd on AVX2
  ui8_b     a ui8 b with zero point 131 and a per-row a zero point
  gemv      2 rows of a (the gemv / short-tile shapes), K = 300
  equal_b   every weight 7, K = N = 64 (no padding): the packed b and its
            column sums are splats (one element repeated), which the
            pipeline's join of qops-const-eval gives the globals as
            splat attributes (the JIT binds the bytes instead)
  small_tall_b  b in [-64, 63] again, 70 rows of a, K = 24: like small_b,
            two packed globals on x86 (the pairs' proof holds)
  all_cases every case in one entry: at least eight packed globals on
            every x86 strategy (maddubs 9, vnni 11), what quant-runner
            --const-eval needs to compile the packing apart
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference"))
import qops_ref  # noqa: E402

out = sys.argv[1]
rng = np.random.default_rng(2026)


def hexdense(array):
    return '"0x' + array.tobytes().hex().upper() + '"'


def tensor(shape, elem):
    return "tensor<" + "x".join(str(d) for d in shape) + "x" + elem + ">"


CASES = []
# name, a, a_zp (None or array), b, b_zp (None or array), b element type
a = rng.integers(0, 256, (50, 64)).astype(np.uint8)
CASES.append(("small_b", a, np.uint8(128), rng.integers(-64, 64, (64, 40)).astype(np.int8), None, "si8"))
a = rng.integers(0, 256, (37, 45)).astype(np.uint8)
CASES.append(("wide_b", a, None, rng.integers(-128, 128, (45, 70)).astype(np.int8),
              rng.integers(-5, 6, 70).astype(np.int8), "si8"))
a = rng.integers(-128, 128, (20, 33)).astype(np.int8)
CASES.append(("ui8_b", a, rng.integers(-9, 10, 20).astype(np.int8),
              rng.integers(0, 256, (33, 17)).astype(np.uint8), np.uint8(131), "ui8"))
a = rng.integers(0, 256, (2, 300)).astype(np.uint8)
CASES.append(("gemv", a, np.uint8(3), rng.integers(-128, 128, (300, 48)).astype(np.int8), np.int8(-2), "si8"))
a = rng.integers(0, 256, (9, 64)).astype(np.uint8)
CASES.append(("equal_b", a, np.uint8(100), np.full((64, 64), 7, np.int8), np.int8(2), "si8"))
a = rng.integers(0, 256, (70, 24)).astype(np.uint8)
CASES.append(("small_tall_b", a, np.uint8(17), rng.integers(-64, 64, (24, 56)).astype(np.int8), None, "si8"))

mlir = []
for name, a, azp, b, bzp, belem in CASES:
    aelem = "ui8" if a.dtype == np.uint8 else "si8"
    np.save(os.path.join(out, name + "_a.npy"), a)
    expected = qops_ref.matmul_integer(a, b, azp, bzp)
    assert expected.dtype == np.int32
    np.save(os.path.join(out, name + "_expected.npy"), expected)
    m, k = a.shape
    n = b.shape[1]
    args = ["%a: " + tensor(a.shape, aelem)]
    body = []
    a_part = "%a"
    a_types = tensor(a.shape, aelem)
    if azp is not None:
        azp = np.asarray(azp)
        body.append("  %%azp = arith.constant dense<%s> : %s" % (
            hexdense(azp) if azp.ndim else str(int(azp)), tensor(azp.shape, aelem) if azp.ndim else "tensor<" + aelem + ">"))
        a_part += ", %azp"
        a_types += ", " + (tensor(azp.shape, aelem) if azp.ndim else "tensor<" + aelem + ">")
    body.append("  %%b = arith.constant dense<%s> : %s" % (hexdense(b), tensor(b.shape, belem)))
    b_part = "%b"
    b_types = tensor(b.shape, belem)
    if bzp is not None:
        bzp = np.asarray(bzp)
        ztype = tensor(bzp.shape, belem) if bzp.ndim else "tensor<" + belem + ">"
        body.append("  %%bzp = arith.constant dense<%s> : %s" % (hexdense(bzp) if bzp.ndim else str(int(bzp)), ztype))
        b_part += ", %bzp"
        b_types += ", " + ztype
    y = tensor((m, n), "i32")
    mlir.append("func.func @%s(%s) -> %s {\n%s\n  %%y = qops.matmul_integer a(%s : %s) b(%s : %s) -> %s\n  return %%y : %s\n}\n" % (
        name, ", ".join(args), y, "\n".join(body), a_part, a_types, b_part, b_types, y, y))
    # Two calls in one run: the second reads the packing the first computed
    # (qops-hoist-constant-expressions' guard in its ready state).
    a_type = tensor(a.shape, aelem)
    mlir.append("func.func @%s_twice(%%a: %s) -> (%s, %s) {\n"
                "  %%y0 = call @%s(%%a) : (%s) -> %s\n"
                "  %%y1 = call @%s(%%a) : (%s) -> %s\n"
                "  return %%y0, %%y1 : %s, %s\n}\n" % (
                    name, a_type, y, y, name, a_type, y, name, a_type, y, y, y))
# Every case in one entry: a module of many packed weights (a model of
# several layers), whose packing quant-runner --const-eval compiles apart.
types = [(tensor(a.shape, "ui8" if a.dtype == np.uint8 else "si8"),
          tensor((a.shape[0], b.shape[1]), "i32")) for _, a, _, b, _, _ in CASES]
mlir.append("func.func @all_cases(%s) -> (%s) {\n%s\n  return %s : %s\n}\n" % (
    ", ".join("%%a%d: %s" % (i, t[0]) for i, t in enumerate(types)),
    ", ".join(t[1] for t in types),
    "\n".join("  %%y%d = call @%s(%%a%d) : (%s) -> %s" % (i, c[0], i, t[0], t[1])
              for i, (c, t) in enumerate(zip(CASES, types))),
    ", ".join("%%y%d" % i for i in range(len(types))),
    ", ".join(t[1] for t in types)))
open(os.path.join(out, "constant_b.mlir"), "w").write("\n".join(mlir))
