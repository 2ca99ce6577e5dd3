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
t = time.perf_counter()
session = quantops.InferenceSession(model, threads=threads)
create = ms(t)
t = time.perf_counter()
session.run(None, feed)
first = ms(t)
steady = []
for _ in range(runs):
    t = time.perf_counter()
    session.run(None, feed)
    steady.append(ms(t))
t = time.perf_counter()
second = quantops.InferenceSession(model, threads=threads)
create2 = ms(t)
t = time.perf_counter()
second.run(None, feed)
first2 = ms(t)
print(json.dumps({"import": imported, "create": create, "first_run": first,
                  "run": sorted(steady)[len(steady) // 2], "second_create": create2,
                  "second_first_run": first2}))
