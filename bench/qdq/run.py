#!/usr/bin/env python3
"""QDQ models, fused against unfused, with ONNX Runtime on the same models
and inputs in the same run; writes bench/QDQ.md.

  run.py WORK QUANT_RUNNER OUT.md

Models (scripts/make_qdq_model.py, python3-onnx):
  mlp_bert  int8 QDQ: x [1, 128, 768] -> MatMul 768x1024 -> Add -> MatMul
            1024x768, per-column / per-tensor si8 weights, ui8 activations
  w4_gemv   x [1, 4096] @ DQ(si4 [4096, 4096], blocked along K by 32)
  w4_gemm   x [16, 4096] @ the same kind of weight

For each: quant-runner without and with --fuse-qdq (median of the compiled
function, inputs staged once) at 1 and 2 threads, each output checked
against its NumPy reading (--expect); ONNX Runtime 1.30 (the
onnxruntime-node that ../shared/bench-anchors/run.sh installs in WORK,
graph optimizations on: it fuses QDQ itself) with the median of its
profiler's model_run, and how far ORT's output is from each reading.
"""
import json
import os
import re
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
PATTERN = re.compile(r"median time per call: ([0-9.]+) ms over (\d+) runs")

MODELS = [
    # name, kind, dims, output scale (int8) or None
    ("mlp_bert", "int8-mlp", [1, 128, 768, 1024, 768], 0.2),
    ("w4_gemv", "int4-weights", [1, 4096, 4096], None),
    ("w4_gemm", "int4-weights", [16, 4096, 4096], None),
]


def run_qops(runner, model, x, expect, threads, fuse):
    base = [runner, model, "--input", x, "--threads", str(threads)]
    if fuse:
        base.append("--fuse-qdq")
    check = subprocess.run(base + ["--expect", expect], capture_output=True,
                           text=True, timeout=1800)
    matches = check.returncode == 0 and "all 1 results match" in check.stdout
    probe = subprocess.run(base + ["--repeat", "3"], capture_output=True,
                           text=True, timeout=1800)
    m = PATTERN.search(probe.stdout)
    if not m:
        return {"ok": False, "error": (probe.stderr or probe.stdout)[-300:]}
    repeat = max(5, min(500, int(2000.0 / max(float(m.group(1)), 0.01))))
    timed = subprocess.run(base + ["--repeat", str(repeat)], capture_output=True,
                           text=True, timeout=1800)
    m = PATTERN.search(timed.stdout)
    return {"ok": True, "median": float(m.group(1)), "runs": int(m.group(2)),
            "matches": matches}


ORT_DTYPES = {np.dtype(np.float32): "float32", np.dtype(np.uint8): "uint8",
              np.dtype(np.int8): "int8"}


def run_ort(work, model, x_npy, threads, out_dir, out_dtype=np.float32):
    """ONNX Runtime on the model (ort_qdq.js): its profiler's median and the
    first output, read as `out_dtype`. The input keeps its .npy dtype."""
    x = np.load(x_npy)
    raw = os.path.join(out_dir, "x.raw")
    x.tofile(raw)
    out = os.path.join(out_dir, "ort_out.raw")
    env = dict(os.environ, NODE_PATH=os.path.join(work, "node_modules"))
    proc = subprocess.run(
        ["node", os.path.join(HERE, "ort_qdq.js"), model, raw,
         ",".join(map(str, x.shape)), str(threads), out,
         os.path.join(out_dir, "profiles"), ORT_DTYPES[x.dtype]],
        capture_output=True, text=True, env=env, cwd="/", timeout=1800)
    if proc.returncode != 0:
        return {"ok": False, "error": proc.stderr[-300:]}
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["ok"] = True
    result["output"] = np.fromfile(out, out_dtype)
    return result


def compare(ort_out, reference, out_scale):
    """How far ORT is from a reading: differing outputs, and the largest
    difference (in output steps for int8 models, relative otherwise)."""
    reference = reference.reshape(-1).astype(np.float64)
    diff = np.abs(ort_out.astype(np.float64) - reference)
    if out_scale:
        steps = diff / out_scale
        return "%d differ, max %.0f step" % (np.count_nonzero(steps > 0.5),
                                             steps.max())
    rel = diff.max() / max(np.abs(reference).max(), 1e-30)
    return "%d differ, max rel %.1e" % (np.count_nonzero(diff), rel)


def main():
    work, runner, out_md = sys.argv[1], sys.argv[2], sys.argv[3]
    model_dir = os.path.join(work, "qdq")
    os.makedirs(model_dir, exist_ok=True)
    rows = []
    for name, kind, dims, out_scale in MODELS:
        subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "make_qdq_model.py"),
                        kind, model_dir, "--name", name, "--dims"] + [str(d) for d in dims],
                       check=True)
        model = os.path.join(model_dir, name + ".onnx")
        x = os.path.join(model_dir, name + ".x.npy")
        unfused_ref = os.path.join(model_dir, name + ".unfused.npy")
        fused_ref = os.path.join(model_dir, name + ".fused.npy")
        if not os.path.exists(fused_ref):
            fused_ref = unfused_ref  # weight-only: both readings are the same
        for threads in (1, 2):
            unfused = run_qops(runner, model, x, unfused_ref, threads, False)
            fused = run_qops(runner, model, x, fused_ref, threads, True)
            ort = run_ort(work, model, x, threads, model_dir)
            row = {"name": name, "threads": threads, "unfused": unfused,
                   "fused": fused,
                   "ort": {k: v for k, v in ort.items() if k != "output"}}
            if ort["ok"]:
                row["ort_vs_unfused"] = compare(ort["output"], np.load(unfused_ref), out_scale)
                row["ort_vs_fused"] = compare(ort["output"], np.load(fused_ref), out_scale)
            print(json.dumps(row), flush=True)
            rows.append(row)
    json.dump(rows, open(os.path.join(work, "qdq-results.json"), "w"), indent=1)

    cpu = ""
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    lines = [
        "# QDQ models: fused against unfused, and ONNX Runtime",
        "",
        "Written by `bench/qdq/run.py` (`bash bench/run.sh`), %s, %s, %d cores." %
        (subprocess.run(["date", "-u", "+%Y-%m-%d"], capture_output=True, text=True).stdout.strip(),
         cpu, os.cpu_count()),
        "Medians in ms; QuantOps: the compiled function, ORT: its profiler's model_run "
        "(graph optimizations on, so ORT fuses QDQ too: QLinearMatMul / MatMulNBits).",
        "\"exact\": the output equals the NumPy reading bit for bit (unfused: every node as ONNX "
        "defines it; fused: DQ -> MatMul -> Q as QLinearMatMul). The unfused float MatMul is "
        "plain loops (the project optimizes the quantized paths), so the fused speedup is large.",
        "",
        "| model | threads | unfused ms | fused ms | fused speedup | ORT ms | fused vs ORT | "
        "ORT kernels | ORT vs unfused reading | ORT vs fused reading |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        u, f, o = r["unfused"], r["fused"], r["ort"]
        def ms(x):
            return ("%.3f%s" % (x["median"], "" if x.get("matches", True) else " (MISMATCH)")
                    if x.get("ok") else "failed")
        speed = "%.1fx" % (u["median"] / f["median"]) if u.get("ok") and f.get("ok") else "-"
        vs_ort = "%.2fx" % (o["median"] / f["median"]) if o.get("ok") and f.get("ok") else "-"
        lines.append("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["name"], r["threads"], ms(u), ms(f), speed, ms(o), vs_ort,
            ", ".join(o.get("kernels", [])), r.get("ort_vs_unfused", "-"),
            r.get("ort_vs_fused", "-")))
    lines.append("")
    open(out_md, "w").write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
