"""One fresh Python process's view of a quantops session: importing the
package (loads libQuantOpsRuntime, libMLIR, libLLVM), creating a first
session (import, lower, JIT), its first run, RUNS more runs (steady state),
and a second session created in the same process. Prints one JSON line.

  session.py MODEL.onnx THREADS RUNS NAME=FILE.bin,DTYPE,DIMS...
"""
import json
import sys
import time

t0 = time.perf_counter()
import numpy as np  # noqa: E402
import quantops  # noqa: E402

quantops._capi.lib()
ms = lambda t: (time.perf_counter() - t) * 1e3  # noqa: E731
imported = ms(t0)
model, threads, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
feed = {}
for spec in sys.argv[4:]:
    name, rest = spec.split("=")
    path, dtype, dims = rest.split(",")
    feed[name] = np.fromfile(path, dtype=dtype).reshape([int(d) for d in dims.split("x")])


def timed(action):
    """`action()` and its time in ms."""
    t = time.perf_counter()
    value = action()
    return value, ms(t)


session, create = timed(lambda: quantops.InferenceSession(model, threads=threads))
_, first = timed(lambda: session.run(None, feed))
steady = sorted(timed(lambda: session.run(None, feed))[1] for _ in range(runs))
second, create2 = timed(lambda: quantops.InferenceSession(model, threads=threads))
_, first2 = timed(lambda: second.run(None, feed))
print(json.dumps({"import": imported, "create": create, "first_run": first,
                  "run": steady[len(steady) // 2], "second_create": create2,
                  "second_first_run": first2}))
