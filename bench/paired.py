#!/usr/bin/env python3
"""Paired rounds: ONNX Runtime and QuantOps measured back to back, row by
row, several times over; writes paired.json.

  paired.py WORK QUANT_RUNNER QOPS.json OUT.json [ROUNDS]

The main table compares ONNX Runtime's medians, all measured first (by
../shared/bench-anchors/run.sh), with QuantOps' medians measured minutes
later. On a shared VM the speed of the host drifts over minutes (the same
code moved by up to 2x between runs), so a ratio of two medians taken at
different times carries that drift. Here each round measures every row and
thread count twice in a row, ONNX Runtime (bench-anchors' run_ort.js on
that row alone: kernel time from its profiler, as in the main table) then
QuantOps (quant-runner --repeat, about 1 s of calls), and the speed-up of a
row is the median over the rounds of ORT ms / QuantOps ms. Rounds go
through all rows before the next starts, so each row is sampled at ROUNDS
moments spread over the whole run.
"""
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUN_ORT = os.path.join(HERE, "..", "..", "shared", "bench-anchors", "run_ort.js")
PATTERN = re.compile(r"median time per call: ([0-9.]+) ms")
# ORT cannot run the int4 rows through its Node binding; its workaround rows
# measure the same kernel (bench-anchors/RESULTS.md).
ORT_WORKAROUND = {"Q_i4_block32": "Q_i4_block32_castI8", "DQ_i4_block32": "DQ_i4_block32_constX"}


def ort_kernel_ms(work, name, threads, slow, scratch):
    out = os.path.join(scratch, "ort.json")
    cmd = ["node", RUN_ORT, "--manifest", os.path.join(work, "models", "manifest.json"),
           "--threads", str(threads), "--only", name, "--no-extra",
           "--min-runs", "5" if slow else "10", "--min-time", "0.5", "--max-time", "2",
           "--warmup", "2" if slow else "3", "--prof-runs", "10" if slow else "30",
           "--out", out, "--prof-dir", os.path.join(scratch, "profiles"),
           "--quiet-wait", "0", "--quiet-budget", "0"]
    env = dict(os.environ, NODE_PATH=os.path.join(work, "node_modules"))
    done = subprocess.run(cmd, cwd="/", env=env, capture_output=True, text=True, timeout=900)
    if not os.path.exists(out):
        return None
    rows = json.load(open(out))["workloads"]
    os.remove(out)
    row = rows[0] if rows else None
    if done.returncode != 0 and not (row and row.get("ok")):
        return None
    return row["kernel"]["median"] if row and row.get("ok") else None


def qops_ms(runner, model, inputs, threads, repeat):
    cmd = [runner, model] + sum((["--input", i] for i in inputs), []) + \
        ["--repeat", str(repeat), "--threads", str(threads)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    match = PATTERN.search(done.stdout)
    return float(match.group(1)) if done.returncode == 0 and match else None


def main():
    work, runner, qops_path, out_path = sys.argv[1:5]
    rounds = int(sys.argv[5]) if len(sys.argv) > 5 else 3
    scratch = os.path.join(work, "paired")
    os.makedirs(scratch, exist_ok=True)
    manifest = json.load(open(os.path.join(work, "models", "manifest.json")))
    workloads = {w["name"]: w for w in manifest["workloads"]}
    main_table = {(r["name"], r["threads"]): r for r in json.load(open(qops_path))["workloads"]}
    ort_main = {(r["name"], r["threads"]): r
                for r in json.load(open(os.path.join(work, "results.json")))["workloads"]}
    rows = [(name, threads) for (name, threads), r in main_table.items() if r.get("ok")]
    samples = {row: {"ort": [], "qops": []} for row in rows}
    for round_index in range(rounds):
        for name, threads in rows:
            w = workloads[name]
            ort_name = name
            if not ort_main.get((name, threads), {}).get("ok") and name in ORT_WORKAROUND:
                ort_name = ORT_WORKAROUND[name]
            earlier = ort_main.get((ort_name, threads), {})
            slow = earlier.get("ok") and earlier["kernel"]["median"] > 50
            ort = ort_kernel_ms(work, ort_name, threads, slow, scratch)
            inputs = [os.path.join(work, "qops-inputs", f"{name}.{i['name']}.npy") for i in w["inputs"]]
            repeat = max(10, min(1000, int(1000.0 / max(main_table[(name, threads)]["median"], 0.01))))
            ours = qops_ms(runner, w["model"], inputs, threads, repeat)
            samples[(name, threads)]["ort"].append(ort)
            samples[(name, threads)]["qops"].append(ours)
            ratio = f"{ort / ours:.2f}x" if ort and ours else "-"
            print(f"round {round_index + 1}/{rounds} {name:18s} t={threads} ORT {ort} ms, "
                  f"QuantOps {ours} ms: {ratio}", flush=True)
    result = []
    for (name, threads), s in samples.items():
        ratios = [o / q for o, q in zip(s["ort"], s["qops"]) if o and q]
        result.append({"name": name, "threads": threads, "ort_ms": s["ort"], "qops_ms": s["qops"],
                       "ratios": ratios,
                       "ratio_median": statistics.median(ratios) if ratios else None})
    json.dump({"rounds": rounds, "rows": result}, open(out_path, "w"), indent=1)


if __name__ == "__main__":
    main()
