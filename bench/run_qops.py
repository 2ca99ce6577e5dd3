#!/usr/bin/env python3
"""Times quant-runner on the bench-anchors workloads (the same .onnx models
and inputs ONNX Runtime runs) and writes qops.json.

  run_qops.py WORK QUANT_RUNNER OUT.json

Each workload: quant-runner MODEL --input ... --repeat N, where N gives at
least 20 calls and about 2 s; quant-runner reports the median and the min
of the compiled function alone (inputs staged once, results released
untimed, as ONNX Runtime's kernel time counts the kernel alone).
"""
import json
import os
import re
import subprocess
import sys

PATTERN = re.compile(r"median time per call: ([0-9.]+) ms over (\d+) runs \(min ([0-9.]+) ms\)")


def time_workload(runner, model, inputs, repeat, threads):
    cmd = [runner, model] + sum((["--input", i] for i in inputs), []) + \
        ["--repeat", str(repeat), "--threads", str(threads)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    match = PATTERN.search(out.stdout)
    if out.returncode != 0 or not match:
        return {"ok": False, "error": (out.stderr or out.stdout).strip().splitlines()[-1:]}
    return {"ok": True, "median": float(match.group(1)), "runs": int(match.group(2)),
            "min": float(match.group(3))}


def main():
    work, runner, out_path = sys.argv[1], sys.argv[2], sys.argv[3]
    manifest = json.load(open(os.path.join(work, "models", "manifest.json")))
    inputs_dir = os.path.join(work, "qops-inputs")
    results = []
    for w in manifest["workloads"]:
        if w.get("fallback_for"):
            continue  # ORT-binding workarounds; QuantOps runs the primary rows
        inputs = [os.path.join(inputs_dir, f"{w['name']}.{i['name']}.npy") for i in w["inputs"]]
        for threads in (1, 2):
            # Probe once to size the repetition count (>= 20 calls, ~2 s).
            probe = time_workload(runner, w["model"], inputs, 3, threads)
            if probe["ok"]:
                repeat = max(20, min(2000, int(2000.0 / max(probe["median"], 0.01))))
                row = time_workload(runner, w["model"], inputs, repeat, threads)
            else:
                row = probe
            row.update({"name": w["name"], "threads": threads, "metric": w["metric"],
                        "bytes": w["bytes"], "ops": w["ops"], "extra": w["extra"]})
            print(f"{w['name']:22s} t={threads} " +
                  (f"median {row['median']:.3f} ms (min {row['min']:.3f}, n={row['runs']})"
                   if row["ok"] else f"FAILED {row['error']}"), flush=True)
            results.append(row)
    json.dump({"workloads": results}, open(out_path, "w"), indent=1)


if __name__ == "__main__":
    main()
