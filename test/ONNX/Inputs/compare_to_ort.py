#!/usr/bin/env python3
"""Prints how far an output is from ONNX Runtime's on the same model and
input: "N of M differ, max K steps" (int8 outputs, given the output scale)
or "N of M differ, max rel E" (float outputs).

The ONNX Runtime outputs in ort-outputs/ were written by ONNX Runtime 1.30
(bench/qdq/ort_qdq.js, graph optimizations on) on the models that
scripts/make_qdq_model.py writes with the seeds in their names:
  int8-mlp-seed3.ort.npy      int8-mlp --dims 4 16 256 256 64 --seed 3
  int4-weights-seed7.ort.npy  int4-weights (default dims and seed)
  matmul-nbits-level1-seed11.ort.npy
      matmul-nbits --dims 8 256 96 --bias --accuracy-level 1 --seed 11
  matmul-nbits-level4-seed11.ort.npy
      matmul-nbits --dims 8 256 96 --bias --accuracy-level 4 --seed 11

Usage: compare_to_ort.py OURS.npy ORT.npy [OUTPUT_SCALE]
"""
import sys

import numpy as np

ours = np.load(sys.argv[1]).astype(np.float64).reshape(-1)
ort = np.load(sys.argv[2]).astype(np.float64).reshape(-1)
diff = np.abs(ours - ort)
if len(sys.argv) > 3:
    steps = diff / float(sys.argv[3])
    print("%d of %d differ, max %.0f steps" %
          (np.count_nonzero(steps > 0.5), steps.size, steps.max()))
else:
    print("%d of %d differ, max rel %.0e" %
          (np.count_nonzero(diff), diff.size, diff.max() / np.abs(ort).max()))
