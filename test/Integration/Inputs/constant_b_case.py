"""Writes OUT.mlir: function @NAME_constant_b, the QLinearMatMul of case
directory CASE (gen_case.py's in0..in7 = a, a_scale, a_zero_point, b,
b_scale, b_zero_point, y_scale, y_zero_point) with b, b_scale and
b_zero_point as constants and the others as arguments (in0, in1, in2, in6,
in7, in that order). The expected result stays the case's out0.npy, from
the NumPy reference.

    constant_b_case.py CASE NAME OUT.mlir
"""
import os
import sys

import numpy as np

case, name, out = sys.argv[1:4]
arrays = [np.load(os.path.join(case, "in%d.npy" % i)) for i in range(8)]
result = np.load(os.path.join(case, "out0.npy"))


def element(array):
    return {np.dtype(np.uint8): "ui8", np.dtype(np.int8): "si8",
            np.dtype(np.float32): "f32"}[array.dtype]


def tensor(array):
    return "tensor<" + "".join("%dx" % d for d in array.shape) + element(array) + ">"


def dense(array):
    fmt = (lambda v: repr(float(v))) if array.dtype == np.float32 else str
    if array.ndim == 0:
        return fmt(array[()])

    def rows(a):
        if a.ndim == 1:
            return "[" + ", ".join(fmt(v) for v in a) + "]"
        return "[" + ", ".join(rows(r) for r in a) + "]"
    return rows(array)


a, as_, azp, b, bs, bzp, ys, yzp = arrays
types = [tensor(x) for x in arrays]
args = ", ".join("%%%s: %s" % (n, tensor(x)) for n, x in
                 (("a", a), ("as", as_), ("azp", azp), ("ys", ys), ("yzp", yzp)))
text = f"""func.func @{name}_constant_b({args}) -> {tensor(result)} {{
  %b = arith.constant dense<{dense(b)}> : {types[3]}
  %bs = arith.constant dense<{dense(bs)}> : {types[4]}
  %bzp = arith.constant dense<{dense(bzp)}> : {types[5]}
  %y = qops.qlinear_matmul a(%a, %as, %azp : {types[0]}, {types[1]}, {types[2]})
                           b(%b, %bs, %bzp : {types[3]}, {types[4]}, {types[5]})
                           y(%ys, %yzp : {types[6]}, {types[7]}) -> {tensor(result)}
  return %y : {tensor(result)}
}}
"""
open(out, "w").write(text)
