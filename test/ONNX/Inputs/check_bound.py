#!/usr/bin/env python3
"""check_bound.py OURS.npy REFERENCE.npy BOUND.npy: prints how close OURS is
to REFERENCE against a per-output bound on their difference ("within the
bound, at most F of it" or "N outputs past the bound") and exits 1 past it.
matmul-nbits.test: MatMulNBits at accuracy level 4 (int8 activations)
against its f32 reading, with scripts/make_qdq_model.py's int8_error_bound.
"""
import sys

import numpy as np

ours = np.load(sys.argv[1]).astype(np.float64)
reference = np.load(sys.argv[2]).astype(np.float64)
bound = np.load(sys.argv[3]).reshape(ours.shape)
diff = np.abs(ours - reference)
past = int(np.count_nonzero(diff > bound))
if past:
    print("%d outputs past the bound" % past)
    sys.exit(1)
print("within the bound, at most %.2f of it" % (diff / bound).max())
