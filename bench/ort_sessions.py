"""ONNX Runtime's session creation and runs, timed by
bench/compile/ort_session.js in a fresh node process (shared by
bench/compile/run.py and bench/python/run.py)."""
import json
import os
import statistics
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))


def feed_specs(inputs):
    """The manifest's inputs as NAME=FILE.bin,DTYPE,DIMS arguments."""
    return [f"{i['name']}={i['file']},{i['type']},{'x'.join(map(str, i['dims']))}"
            for i in inputs]


def ort_sessions(work, name, inputs, runs=0, model=None):
    """Two sessions of `model` (default WORK/models/NAME.onnx) in a fresh
    process (--cold: the first includes ONNX Runtime's start): the first's
    creation time, the second's and its first run, and with `runs` the
    median of that many more runs of it (ms)."""
    model = model or os.path.join(work, "models", name + ".onnx")
    spec = ":".join([model] + feed_specs(inputs))
    cmd = ["node", os.path.join(HERE, "compile", "ort_session.js"),
           os.path.join(work, "node_modules", "onnxruntime-node"), "2", spec, "--cold",
           f"--runs={runs}"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"ONNX Runtime failed on {name}: {done.stderr[-500:]}")
    row = json.loads(done.stdout.strip().splitlines()[-1])
    times = {"first_session": row["create_ms"][0], "session": row["create_ms"][1],
             "first_run": row["first_run_ms"][1]}
    if runs:
        times["run"] = statistics.median(row["run_ms"])
    return times


def paired_rounds(work, models, rounds, measure, extra=None):
    """`measure(name, inputs)` for each model of WORK's manifest (or of
    `extra`, {name: workload} in the manifest's form), the models in turn,
    `rounds` times (paired rounds: both sides of a row measured back to
    back): {name: [result of each round]}."""
    with open(os.path.join(work, "models", "manifest.json")) as f:
        workloads = {w["name"]: w for w in json.load(f)["workloads"]}
    workloads.update(extra or {})
    samples = {name: [] for name in models}
    for _ in range(rounds):
        for name in models:
            samples[name].append(measure(name, workloads[name]["inputs"]))
    return samples
