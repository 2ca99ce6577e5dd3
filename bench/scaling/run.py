#!/usr/bin/env python3
"""Thread scaling of QuantOps' ahead-of-time objects against ONNX Runtime on
the same models and inputs, in the same process, paired (bench/scaling).

  run.py DIR [--threads 1,2,4,8,16] [--rounds 3] [--seconds 0.2]

DIR is what bench/scaling/build.sh wrote (lib/<workload>.<target>.so, and
lib/<workload>.<target>-<variant>.so to compare builds in the same rounds;
lib/libomp.so.5, gen_models.py, int8_ceiling). Needs NumPy and python3-onnx
(to write the models) and, for the comparison, the onnxruntime package
(without it QuantOps alone is timed). Writes DIR/scaling.json and prints
Markdown tables.

Per workload and thread count, each round times ONNX Runtime's session.run
(intra_op_num_threads = t) and then each target's C entry point through
ctypes (omp_set_num_threads(t)), each the median of as many calls as fill
--seconds; the speed-up is the median over rounds of ORT / QuantOps. Both
engines' idle threads spin for a while after a call (libomp: KMP_BLOCKTIME,
200 ms), so the engines take turns with a pause between them. Results are
released outside the timed call, into block_cache.c's cache of freed blocks
(as ONNX Runtime's arena keeps them); inputs are staged once. Every target's
output is compared with ONNX Runtime's once (mismatching elements and the
largest difference are reported, not asserted: ONNX Runtime's own
requantization is not ONNX's formula on every path).
"""
import argparse
import ctypes
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np

DTYPES = {"float32": np.float32, "uint8": np.uint8, "int8": np.int8, "int32": np.int32}
TARGETS = {  # target: /proc/cpuinfo flags it needs
    "amx": {"amx_tile", "amx_int8", "avx512_vnni", "avx512vl"},
    "vnni": {"avx512f", "avx512bw", "avx512vl", "avx512_vnni"},
    "avx2": {"avx2", "fma", "bmi2"},
}
# Each target's register ceiling (int8_ceiling's loop of its kernel; avx2:
# the exact madd form, which any b can take).
CEILING_LOOP = {"amx": "amx_32x32", "vnni": "vnni_zmm_12x32", "avx2": "madd_6x16"}


def cpu_flags():
    for line in open("/proc/cpuinfo"):
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def cpu_name():
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor()


def amx_granted():
    """Linux hands out the AMX tile state (arch_prctl ARCH_REQ_XCOMP_PERM)."""
    libc = ctypes.CDLL(None, use_errno=True)
    return libc.syscall(158, 0x1023, 18) == 0


def descriptor_type(rank):
    fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
              ("offset", ctypes.c_int64)]
    if rank:
        fields += [("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]
    return type("Memref%dD" % rank, (ctypes.Structure,), {"_fields_": fields})


def descriptor(array):
    d = descriptor_type(array.ndim)()
    d.allocated = d.aligned = array.ctypes.data
    d.offset = 0
    for i, (size, stride) in enumerate(zip(array.shape, array.strides)):
        d.sizes[i] = size
        d.strides[i] = stride // array.itemsize
    return d


class QuantOpsCall:
    """The workload's `_mlir_ciface_main` in lib/<name>.<target>.so."""

    def __init__(self, path, inputs, output):
        self.lib = ctypes.CDLL(path)
        self.entry = self.lib._mlir_ciface_main
        self.args = [descriptor(a) for a in inputs]
        self.keep = inputs
        self.output = output
        self.result = descriptor_type(len(output["dims"]))()
        self.refs = [ctypes.byref(self.result)] + [ctypes.byref(a) for a in self.args]
        # The objects allocate through block_cache.c (--runtime-allocator).
        self.free = self.lib._mlir_memref_to_llvm_free
        self.free.argtypes = [ctypes.c_void_p]

    def timed(self):
        t = time.perf_counter()
        self.entry(*self.refs)
        t = time.perf_counter() - t
        self.free(self.result.allocated)
        return t

    def value(self):
        self.entry(*self.refs)
        dims = self.output["dims"]
        count = int(np.prod(dims)) if dims else 1
        dtype = np.dtype(DTYPES[self.output["type"]])
        buf = (ctypes.c_char * (count * dtype.itemsize)).from_address(
            self.result.aligned + self.result.offset * dtype.itemsize)
        out = np.frombuffer(bytes(buf), dtype).reshape(dims)
        self.free(self.result.allocated)
        return out


def median_ms(fn, seconds):
    fn()  # warm: first-call work, threads started
    times = [fn()]
    while sum(times) < seconds or len(times) < 5:
        times.append(fn())
    return 1e3 * statistics.median(times), len(times)


def load_inputs(workload):
    arrays = []
    for entry in workload["inputs"]:
        count = int(np.prod(entry["dims"])) if entry["dims"] else 1
        raw = np.fromfile(entry["file"], dtype=DTYPES[entry["type"]])
        arrays.append(np.ascontiguousarray(raw[:count].reshape(entry["dims"])))
    return arrays


def ort_session(ort, model, threads):
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    return ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--threads", default="1,2,4,8,16")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=0.2)
    ap.add_argument("--only", default="", help="comma-separated workload names")
    args = ap.parse_args()
    root = os.path.abspath(args.dir)
    work = os.path.join(root, "work")
    if not os.path.exists(os.path.join(work, "models", "manifest.json")):
        subprocess.run([sys.executable, os.path.join(root, "gen_models.py"), "--work", work],
                       check=True, stdout=subprocess.DEVNULL)
    manifest = json.load(open(os.path.join(work, "models", "manifest.json")))
    try:
        import onnxruntime as ort
    except ImportError:
        ort = None
    omp = ctypes.CDLL(os.path.join(root, "lib", "libomp.so.5"), mode=ctypes.RTLD_GLOBAL)
    flags = cpu_flags()
    runnable = [t for t, needs in TARGETS.items() if needs <= flags and
                (t != "amx" or amx_granted())]
    # Targets as the files name them: <workload>.<target>[-<variant>].so (a
    # variant: the same target built otherwise, e.g. before and after a
    # change, timed in the same rounds).
    targets = sorted({f.split(".")[-2] for f in os.listdir(os.path.join(root, "lib"))
                      if f.endswith(".so") and f.split(".")[-2].split("-")[0] in runnable},
                     key=lambda t: (list(TARGETS).index(t.split("-")[0]), t))
    threads = [t for t in map(int, args.threads.split(",")) if t <= os.cpu_count()]
    ceilings = {}
    if os.path.exists(os.path.join(root, "int8_ceiling")):
        ceiling_json = os.path.join(root, "isa.json")
        text = subprocess.run([os.path.join(root, "int8_ceiling"), ceiling_json],
                              capture_output=True, text=True).stdout
        print(text)
        if os.path.exists(ceiling_json):
            ceilings = json.load(open(ceiling_json))
    print(f"host: {cpu_name()}, {os.cpu_count()} CPUs, targets run: {targets}, "
          f"onnxruntime {ort.__version__ if ort else 'absent'}", flush=True)

    only = set(filter(None, args.only.split(",")))
    rows = []
    for w in manifest["workloads"]:
        libs = {t: os.path.join(root, "lib", f"{w['name']}.{t}.so") for t in targets}
        libs = {t: p for t, p in libs.items() if os.path.exists(p)}
        if not libs or (only and w["name"] not in only):
            continue
        inputs = load_inputs(w)
        calls = {t: QuantOpsCall(p, inputs, w["outputs"][0]) for t, p in libs.items()}
        feed = {e["name"]: a for e, a in zip(w["inputs"], inputs)}
        check = {}
        for t in threads:
            omp.omp_set_num_threads(t)
            sess = ort_session(ort, w["model"], t) if ort else None
            if sess is not None and not check:
                want = sess.run(None, feed)[0]
                for target, call in calls.items():
                    got = call.value()
                    wide = np.float64 if got.dtype.kind == "f" else np.int64
                    diff = np.abs(got.astype(wide) - want.astype(wide))
                    check[target] = {"mismatches": int((got != want).sum()),
                                     "max_diff": diff.max().item()}
            rounds = []
            for _ in range(args.rounds):
                r = {}
                if sess is not None:
                    r["ort"], r["ort_n"] = median_ms(
                        lambda: (lambda t0: (sess.run(None, feed), time.perf_counter() - t0)[1])(
                            time.perf_counter()), args.seconds)
                    time.sleep(0.05)  # ORT's pool stops spinning
                for target, call in calls.items():
                    r[target], r[target + "_n"] = median_ms(call.timed, args.seconds)
                    time.sleep(0.25)  # libomp's pool stops spinning (KMP_BLOCKTIME)
                rounds.append(r)
            row = {"name": w["name"], "threads": t, "ops": w["ops"], "bytes": w["bytes"],
                   "metric": w["metric"], "check": check}
            for key in ["ort"] + list(calls):
                if key in rounds[0]:
                    row[key] = statistics.median(r[key] for r in rounds)
            for target in calls:
                if "ort" in rounds[0]:
                    row["ratio_" + target] = statistics.median(r["ort"] / r[target] for r in rounds)
            rows.append(row)
            print(json.dumps(row), flush=True)
            del sess
    result = {"host": cpu_name(), "cpus": os.cpu_count(), "targets": targets,
              "onnxruntime": ort.__version__ if ort else None, "ceilings": ceilings,
              "threads": threads, "rounds": args.rounds, "rows": rows}
    json.dump(result, open(os.path.join(root, "scaling.json"), "w"), indent=1)
    print(markdown(result))


def markdown(result):
    """Per workload: ms at each thread count for ORT and each target, the
    speed-up over ORT, and the speed-up of the target fastest at the first
    thread count (1) over its own time there."""
    lines = []
    names = list(dict.fromkeys(r["name"] for r in result["rows"]))
    targets = result["targets"]
    head = "| workload | threads | ORT ms | " + " | ".join(f"{t} ms (ORT/{t})" for t in targets) + \
        " | best: x 1 thread | best: GOP/s or GB/s (% of ceiling x threads) |"
    lines += [head, "|" + "---|" * (head.count("|") - 1)]
    for name in names:
        rows = [r for r in result["rows"] if r["name"] == name]
        present = [t for t in targets if t in rows[0]]
        best = min(present, key=lambda t: rows[0][t])
        for r in rows:
            cells = []
            for t in targets:
                if t in r:
                    ratio = f" ({r['ratio_' + t]:.2f}x)" if "ratio_" + t in r else ""
                    cells.append(f"{r[t]:.3f}{ratio}")
                else:
                    cells.append("")
            rate = (r["ops"] / r[best] / 1e6 if r["metric"] == "gemm" else r["bytes"] / r[best] / 1e6)
            unit = "GOP/s" if r["metric"] == "gemm" else "GB/s"
            ceiling = result["ceilings"].get(CEILING_LOOP[best.split("-")[0]])
            if r["metric"] == "gemm" and ceiling:
                unit += f" ({100 * rate / (ceiling * r['threads']):.0f}%)"
            ort_ms = f"{r['ort']:.3f}" if "ort" in r else ""
            lines.append(f"| {name} | {r['threads']} | {ort_ms} | " + " | ".join(cells) +
                         f" | {rows[0][best] / r[best]:.2f} ({best}) | {rate:.0f} {unit} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
