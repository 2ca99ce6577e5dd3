#!/usr/bin/env python3
"""The convolution and MatMulInteger rows of bench/conv on a machine without
LLVM (the lent Xeon with AMX): QuantOps ahead-of-time objects through ctypes
(bench/scaling/run.py's QuantOpsCall) against ONNX Runtime's Python package
in the same process, paired rounds, outputs compared with the NumPy
reference bit for bit.

  DIR/scaling/     what bench/scaling/build.sh writes (run.py, lib/libomp.so.5)
  DIR/conv/        NAME.onnx, NAME.x.npy, NAME.y.npy (scripts/make_conv_models.py,
                   as bench/conv/run.py makes them) and NAME.<target>.so:
      quant-compile NAME.onnx -o NAME.amx.o --parallel --runtime-allocator \
          --target-cpu=sapphirerapids          (vnni: x86-64-v4 +avx512vnni)
      cc -shared -o NAME.amx.so NAME.amx.o block_cache.o -L../scaling/lib \
          -l:libomp.so.5 -Wl,-rpath,'$ORIGIN/../scaling/lib'
  python3 DIR/run_conv.py [THREADS]    (copied into DIR; THREADS: 1,4,16)
"""
import importlib.util, os, sys, time, statistics, ctypes, json
import numpy as np
HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("srun", os.path.join(HERE, "scaling", "run.py"))
srun = importlib.util.module_from_spec(spec); spec.loader.exec_module(srun)
import onnxruntime as ort
omp = ctypes.CDLL(os.path.join(HERE, "scaling", "lib", "libomp.so.5"), mode=ctypes.RTLD_GLOBAL)
names = ["qconv3x3", "qconv1x1", "qconv_dw3x3", "qconv3x3_s2", "convint3x3", "mmi_bert"]
threads = [int(t) for t in sys.argv[1].split(",")] if len(sys.argv) > 1 else [1, 2, 4, 8, 16]
rounds = 2  # paired rounds per row
targets = ["amx", "vnni"] if srun.amx_granted() else ["vnni"]
print("host:", srun.cpu_name(), os.cpu_count(), "targets", targets, "ort", ort.__version__, flush=True)
rows = []
for name in names:
    d = os.path.join(HERE, "conv")
    x = np.load(os.path.join(d, name + ".x.npy")); y = np.load(os.path.join(d, name + ".y.npy"))
    out = {"dims": list(y.shape), "type": {np.dtype(np.uint8): "uint8", np.dtype(np.int32): "int32"}[y.dtype]}
    calls = {t: srun.QuantOpsCall(os.path.join(d, "%s.%s.so" % (name, t)), [x], out) for t in targets}
    for t in threads:
        omp.omp_set_num_threads(t)
        sess = srun.ort_session(ort, os.path.join(d, name + ".onnx"), t)
        feed = {sess.get_inputs()[0].name: x}
        want = sess.run(None, feed)[0]
        row = {"name": name, "threads": t, "ort_differ": int((want != y).sum())}
        for tg, call in calls.items():
            row[tg + "_exact"] = bool((call.value() == y).all())
        per = {k: [] for k in ["ort"] + targets}
        for _ in range(rounds):
            per["ort"].append(srun.median_ms(lambda: (lambda t0: (sess.run(None, feed), time.perf_counter() - t0)[1])(time.perf_counter()), 0.15)[0])
            time.sleep(0.05)
            for tg, call in calls.items():
                per[tg].append(srun.median_ms(call.timed, 0.15)[0]); time.sleep(0.25)
        for k, v in per.items():
            row[k] = statistics.median(v)
        for tg in targets:
            row["ratio_" + tg] = statistics.median(o / q for o, q in zip(per["ort"], per[tg]))
        print(json.dumps(row), flush=True)
        rows.append(row)
        del sess
print("| row | threads | ORT ms | " + " | ".join("%s ms (ORT/%s, exact)" % (t, t) for t in targets) + " | ORT differs |")
print("|---|---|---|" + "---|" * len(targets) + "---|")
for r in rows:
    print("| %s | %d | %.3f | %s | %d |" % (r["name"], r["threads"], r["ort"], " | ".join(
        "%.3f (%.2fx, %s)" % (r[t], r["ratio_" + t], "yes" if r[t + "_exact"] else "NO") for t in targets), r["ort_differ"]))
