#!/usr/bin/env python3
"""QDQ models, fused against unfused, with ONNX Runtime on the same models
and inputs in the same run; writes bench/QDQ.md.

  run.py WORK QUANT_RUNNER OUT.md

Models (scripts/make_qdq_model.py, python3-onnx):
  mlp_bert  int8 QDQ: x [1, 128, 768] -> MatMul 768x1024 -> Add -> MatMul
            1024x768, per-column / per-tensor si8 weights, ui8 activations
  w4_gemv   x [1, 4096] @ DQ(si4 [4096, 4096], blocked along K by 32)
  w4_gemm   x [16, 4096] @ the same kind of weight

  (w4_gemv and w4_gemm need no fusion any more: the float kernel reads the
  nibbles either way, so both columns run the same code.)

Then the float and weight-only contractions (second table): a plain f32
MatMul 128x768x3072 (constant W) against ORT's MLAS SGEMM; the QDQ int4
rows and MatMulNBits nodes (an LLM-sized 1x4096x11008 gemv, a
128x4096x4096 prefill, block 32) against ORT at accuracy level 1 (f32, the
same semantics) and level 4 (A quantized to int8); QuantOps in the
documented order and with --float-fma; GB/s (gemv: the bytes of the
weights, scales and zero points) against mem_read (limits.json), or GFLOP/s
against the float kernel's own tile ceilings (bench/isa.json, written by
bench/isa/run.sh earlier in bench/run.sh).

For each: quant-runner without and with --fuse-qdq (median of the compiled
function, inputs staged once) at 1 and 2 threads, each output checked
against its NumPy reading (--expect); ONNX Runtime 1.30 (the
onnxruntime-node that ../shared/bench-anchors/run.sh installs in WORK,
graph optimizations on: it fuses QDQ itself) with the median of its
profiler's model_run, and how far ORT's output is from each reading; and
ONNX Runtime again with graph optimizations off (the graph as written, node
by node: what QuantOps' unfused column runs), beside the unfused column.
"""
import json
import os
import re
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(HERE, ".."))
from report import cpu_model  # noqa: E402
PATTERN = re.compile(r"median time per call: ([0-9.]+) ms over (\d+) runs")

MODELS = [
    # name, kind, dims, output scale (int8) or None
    ("mlp_bert", "int8-mlp", [1, 128, 768, 1024, 768], 0.2),
    ("w4_gemv", "int4-weights", [1, 4096, 4096], None),
    ("w4_gemm", "int4-weights", [16, 4096, 4096], None),
]


def run_qops(runner, model, x, expect, threads, fuse, extra=()):
    """quant-runner's median for the model; `matches`: the output equals
    `expect` bit for bit (no check when `expect` is None)."""
    base = [runner, model, "--input", x, "--threads", str(threads)] + list(extra)
    if fuse:
        base.append("--fuse-qdq")
    matches = True
    if expect:
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


def run_ort(work, model, x_npy, threads, out_dir, out_dtype=np.float32, level=None,
            optimize=True):
    """ONNX Runtime on the model (ort_qdq.js): its profiler's median and the
    first output, read as `out_dtype`. The input keeps its .npy dtype.
    `optimize` False: graph optimizations off, so ORT runs the graph as
    written (DequantizeLinear, MatMul on MLAS SGEMM, QuantizeLinear)."""
    x = np.load(x_npy)
    raw = os.path.join(out_dir, "x.raw")
    x.tofile(raw)
    out = os.path.join(out_dir, "ort_out.raw")
    env = dict(os.environ, NODE_PATH=os.path.join(work, "node_modules"))
    if level is not None:  # ORT's QDQ -> MatMulNBits fusion's accuracy level
        env["ORT_ACCURACY_LEVEL"] = str(level)
    if not optimize:
        env["ORT_GRAPH_OPT"] = "disabled"
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
            written = run_ort(work, model, x, threads, model_dir, optimize=False)
            row = {"name": name, "threads": threads, "unfused": unfused,
                   "fused": fused,
                   "ort": {k: v for k, v in ort.items() if k != "output"},
                   "ort_written": {k: v for k, v in written.items() if k != "output"}}
            if ort["ok"]:
                row["ort_vs_unfused"] = compare(ort["output"], np.load(unfused_ref), out_scale)
                row["ort_vs_fused"] = compare(ort["output"], np.load(fused_ref), out_scale)
            if written["ok"]:
                row["written_vs_unfused"] = compare(written["output"], np.load(unfused_ref),
                                                    out_scale)
            print(json.dumps(row), flush=True)
            rows.append(row)
    json.dump(rows, open(os.path.join(work, "qdq-results.json"), "w"), indent=1)

    cpu = cpu_model()
    lines = [
        "# QDQ models: fused against unfused, and ONNX Runtime",
        "",
        "Written by `bench/qdq/run.py` (`bash bench/run.sh`), %s, %s, %d cores." %
        (subprocess.run(["date", "-u", "+%Y-%m-%d"], capture_output=True, text=True).stdout.strip(),
         cpu, os.cpu_count()),
        "Medians in ms; QuantOps: the compiled function, ORT: its profiler's model_run "
        "(graph optimizations on, so ORT fuses QDQ too: QLinearMatMul / MatMulNBits).",
        "\"exact\": the output equals the NumPy reading bit for bit (unfused: every node as ONNX "
        "defines it; fused: DQ -> MatMul -> Q as QLinearMatMul). The unfused float MatMul runs on "
        "the float kernel (f32, in increasing k); w4_gemv and w4_gemm need no fusion (the kernel "
        "reads the nibbles either way): both columns are the same code. ORT: its default "
        "(MatMulNBits at accuracy level 4 for the int4 rows; the second table has level 1). "
        "ORT as written: the same model with graph optimizations off (`graphOptimizationLevel: "
        "'disabled'`), so ORT runs the graph node by node as QuantOps' unfused column does "
        "(DequantizeLinear, MatMul on MLAS SGEMM, Add, QuantizeLinear); unfused vs ORT as "
        "written: ORT's time / QuantOps' (the float summation order is ONNX's to leave open, so "
        "its output may differ from the NumPy reading by a step).",
        "",
        "| model | threads | unfused ms | fused ms | fused speedup | ORT ms | fused vs ORT | "
        "ORT kernels | ORT vs unfused reading | ORT vs fused reading | ORT as written ms | "
        "unfused vs ORT as written | ORT as written vs unfused reading |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        u, f, o, w = r["unfused"], r["fused"], r["ort"], r["ort_written"]
        def ms(x):
            return ("%.3f%s" % (x["median"], "" if x.get("matches", True) else " (MISMATCH)")
                    if x.get("ok") else "failed")
        speed = "%.1fx" % (u["median"] / f["median"]) if u.get("ok") and f.get("ok") else "-"
        vs_ort = "%.2fx" % (o["median"] / f["median"]) if o.get("ok") and f.get("ok") else "-"
        vs_written = ("%.2fx" % (w["median"] / u["median"])
                      if w.get("ok") and u.get("ok") else "-")
        lines.append("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["name"], r["threads"], ms(u), ms(f), speed, ms(o), vs_ort,
            ", ".join(o.get("kernels", [])), r.get("ort_vs_unfused", "-"),
            r.get("ort_vs_fused", "-"), ms(w), vs_written,
            r.get("written_vs_unfused", "-")))
    lines.append("")
    lines += float_table(work, runner, model_dir)
    open(out_md, "w").write("\n".join(lines))
    print("\n".join(lines))


# name, make_qdq_model.py kind and args, M K N, ORT level-1 / level-4
# models (None: the same model with ORT_ACCURACY_LEVEL; "-": not applicable),
# what bounds it ("flop" or the bytes it must read)
FLOAT_ROWS = [
    ("f32_matmul", ["float-matmul", "--dims", "128", "768", "3072"], (128, 768, 3072)),
    ("w4_gemv", None, (1, 4096, 4096)),
    ("w4_gemm", None, (16, 4096, 4096)),
    ("nbits_gemv", ["matmul-nbits", "--dims", "1", "4096", "11008"], (1, 4096, 11008)),
    ("nbits_prefill", ["matmul-nbits", "--dims", "128", "4096", "4096"], (128, 4096, 4096)),
]


def limits(work):
    try:
        return json.load(open(os.path.join(work, "limits.json")))
    except OSError:
        return {}


def float_limits(work, threads):
    """The f32 ceilings of the float kernel's tile on this host, GFLOP/s for
    `threads` threads: (fused multiply-adds, products then sums) of its zmm
    tile where the CPU has AVX-512 (the kernel's width there), else of its
    ymm tile, as bench/isa/run.sh measured them (bench/isa.json, one thread,
    times the threads); without them the anchors' f32_fma (a ymm FMA loop:
    on AVX-512 hosts half of what the zmm kernel can reach) and no limit for
    the documented order. Products then sums: the fastest of the zmm and ymm
    tiles (with AVX-512 also the 4 x 24 ymm one), since a CPU that splits
    512-bit float arithmetic in two (Zen 4) runs the kernel's many-row tiles
    of that order in ymm (TuningTable.h, splitsWideFloatArithmetic)."""
    try:
        isa = json.load(open(os.path.join(ROOT, "bench", "isa.json")))
    except (OSError, ValueError):
        isa = {}
    if isa and isa.get("cpu") != cpu_model():
        print("[qdq] bench/isa.json was measured on %s, not on this %s (bash bench/isa/run.sh "
              "measures this one); no float kernel ceiling" % (isa.get("cpu", "another CPU"),
                                                                cpu_model()), file=sys.stderr)
        isa = {}
    keys = [("f32_fma_6x16", "f32_muladd_6x16")]
    muladd_keys = ["f32_muladd_6x16"]
    if "avx512f" in open("/proc/cpuinfo").read().split():
        keys.insert(0, ("f32_fma_12x32", "f32_muladd_12x32"))
        muladd_keys += ["f32_muladd_12x32", "f32_muladd_4x24"]
    muladd = max(isa.get(key, 0) for key in muladd_keys) if isa else 0
    for fma_key, _ in keys:
        if fma_key in isa:
            return isa[fma_key] * threads, muladd * threads or None
    return limits(work).get("f32_fma@%d" % threads, {}).get("median"), None


def float_table(work, runner, model_dir):
    """The float and weight-only rows (the module docstring)."""
    lim = limits(work)
    make = os.path.join(ROOT, "scripts", "make_qdq_model.py")
    rows = []
    for name, spec, (m, k, n) in FLOAT_ROWS:
        models = {}
        if spec is None:  # the QDQ model of the first table
            models = {1: os.path.join(model_dir, name + ".onnx")}
        elif spec[0] == "matmul-nbits":
            for level in (1, 4):
                stem = "%s_l%d" % (name, level)
                subprocess.run(["/usr/bin/python3", make] + spec[:1] + [
                    model_dir, "--name", stem, "--accuracy-level", str(level)] + spec[1:],
                    check=True)
                models[level] = os.path.join(model_dir, stem + ".onnx")
        else:
            subprocess.run(["/usr/bin/python3", make] + spec[:1] + [model_dir, "--name", name] +
                           spec[1:], check=True)
            models = {1: os.path.join(model_dir, name + ".onnx")}
        stem = os.path.splitext(models[1])[0]
        x, ref = stem + ".x.npy", stem + ".unfused.npy"
        weights = spec is None or spec[0] == "matmul-nbits"
        # gemv: the weights' bytes (4-bit, f32 scales and 4-bit zero points
        # per block of 32); otherwise flops.
        gemv = m == 1
        work_units = (k * n / 2 + (k // 32) * n * 4.5) if gemv else 2.0 * m * k * n
        for threads in (1, 2):
            ours = run_qops(runner, models[1], x, ref, threads, False)
            fma = run_qops(runner, models[1], x, None, threads, False, ["--float-fma"])
            ours4 = {"ok": False}
            if 4 in models:
                ours4 = run_qops(runner, models[4], x,
                                 os.path.splitext(models[4])[0] + ".int8.npy", threads, False)
            elif spec is None:  # the QDQ model at ORT's default level
                ours4 = run_qops(runner, models[1], x, stem + ".int8.npy", threads, False,
                                 ["--qdq-accuracy-level", "4"])
            ort1 = run_ort(work, models[1], x, threads, model_dir,
                           level=1 if spec is None else None)
            ort4 = {"ok": False}
            if weights:
                ort4 = run_ort(work, models.get(4, models[1]), x, threads, model_dir,
                               level=4 if spec is None else None)
            fma_limit, muladd_limit = float_limits(work, threads)
            if gemv:
                fma_limit = lim.get("mem_read(sum)@%d" % threads, {}).get("median")
                muladd_limit = fma_limit
            row = {"name": name, "threads": threads, "ours": ours, "fma": fma, "ours4": ours4,
                   "ort1": {k2: v for k2, v in ort1.items() if k2 != "output"},
                   "ort4": {k2: v for k2, v in ort4.items() if k2 != "output"},
                   "units": work_units, "gemv": gemv, "limit": fma_limit,
                   "muladd_limit": muladd_limit}
            print(json.dumps(row), flush=True)
            rows.append(row)
    json.dump(rows, open(os.path.join(work, "float-results.json"), "w"), indent=1)
    return float_lines(rows)


def float_lines(rows):
    """The float table of `rows` (float_table's, or WORK/float-results.json
    read back) as markdown lines."""
    def ms(x):
        if not x.get("ok"):
            return "-"
        return "%.3f%s" % (x["median"], "" if x.get("matches", True) else " (MISMATCH)")

    def ratio(o, q):
        return "%.2fx" % (o["median"] / q["median"]) if o.get("ok") and q.get("ok") else "-"

    def rate(r, x, limit=None):
        if not x.get("ok"):
            return "-", "-"
        value = r["units"] / (x["median"] * 1e-3) / 1e9
        share = "%.0f%%" % (100.0 * value / limit) if limit else "-"
        return "%.1f %s" % (value, "GB/s" if r["gemv"] else "GFLOP/s"), share

    lines = [
        "## Float and weight-only contractions",
        "",
        "The float kernel (qops-lower-float-contractions). QuantOps f32: the documented order "
        "(a product rounded, then the sum, k increasing; \"exact\" = equal to the NumPy reading "
        "of the graph); fma: `--float-fma` (one rounding per step, not that order); level 4: "
        "MatMulNBits nodes with accuracy_level 4, and the QDQ int4 rows with "
        "`--qdq-accuracy-level 4` (ORT's session.qdq_matmulnbits_accuracy_level, 4 its "
        "default), A quantized to int8 per block "
        "(FloatMatMulInt8.cpp; checked against the NumPy emulation of that arithmetic). ORT "
        "level 1: f32, the same semantics (f32_matmul: MLAS SGEMM); level 4: A quantized to "
        "int8 per block. Ratios: ORT time / QuantOps time. Rate: GB/s of the weights' bytes "
        "(gemv) or GFLOP/s (of the f32 multiply-adds the product stands for); % of limit: of "
        "mem_read (limits.json) for the gemv rows (weights that can stay in this machine's L3: "
        "above 100% is possible), else of the ceiling of the float kernel's own tile on this "
        "host (bench/ISA.md: VFMADD231PS for fma, zmm where the CPU has AVX-512; VMULPS + VADDPS "
        "for the documented order, the faster of zmm and ymm: a Zen 4 runs that order's tiles "
        "in ymm; times the threads).",
        "",
        "| model | threads | QuantOps f32 ms | fma ms | level 4 ms | ORT level 1 ms | "
        "ORT level 4 ms | f32 vs ORT L1 | fma vs ORT L1 | level 4 vs ORT L4 | f32 % of limit | "
        "rate (fma) | fma % of limit | rate (level 4) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        _, f32_share = rate(r, r["ours"], r.get("muladd_limit"))
        fma_rate, fma_share = rate(r, r["fma"], r["limit"])
        l4_rate, _ = rate(r, r["ours4"])  # int8 work: no f32 limit
        lines.append("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["name"], r["threads"], ms(r["ours"]), ms(r["fma"]), ms(r["ours4"]),
            ms(r["ort1"]), ms(r["ort4"]), ratio(r["ort1"], r["ours"]),
            ratio(r["ort1"], r["fma"]), ratio(r["ort4"], r["ours4"]), f32_share, fma_rate,
            fma_share, l4_rate))
    lines.append("")
    return lines


if __name__ == "__main__":
    main()
