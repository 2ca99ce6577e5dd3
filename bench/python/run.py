#!/usr/bin/env python3
"""The Python package's session beside quant-runner's per-call cost and
ONNX Runtime's session.run, paired rounds; writes bench/Python.md.

  run.py WORK QUANT_RUNNER OUT.md [ROUNDS]

Each round, per model: bench/python/session.py in a fresh Python process
(import, first session, its first run, the median of 50 runs, a second
session in the same process and its first run), quant-runner as a user
calls it once per result (the whole process, wall clock: start, library
loading, compile, one run, exit), the same with a warm --cache-dir, and
ONNX Runtime (bench/compile/ort_session.js --cold --runs=50: the first
session of a fresh process, a second one, the median run).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from report import cpu_model  # noqa: E402
from ort_sessions import feed_specs, ort_sessions, paired_rounds  # noqa: E402

MODELS = ["QMM_bert_constB", "QMM_bert"]
THREADS = 2
RUNS = 50


def quantops(work, name, inputs):
    env = dict(os.environ, PYTHONPATH=os.path.join(HERE, "..", "..", "build", "python_packages"))
    cmd = ["/usr/bin/python3", os.path.join(HERE, "session.py"),
           os.path.join(work, "models", name + ".onnx"), str(THREADS), str(RUNS)] + feed_specs(inputs)
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"quantops failed on {name}: {done.stderr[-500:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def quant_runner(runner, work, name, inputs):
    """Wall clock of one quant-runner process per result, without and with a
    warm object cache."""
    npy = [os.path.join(work, "qops-inputs", f"{name}.{i['name']}.npy") for i in inputs]
    cmd = [runner, os.path.join(work, "models", name + ".onnx"), "--threads", str(THREADS)]
    cmd += sum((["--input", p] for p in npy), [])
    row = {}
    with tempfile.TemporaryDirectory() as cache:
        for key, extra in (("cold", []), ("store", ["--cache-dir", cache]),
                           ("cached", ["--cache-dir", cache])):
            t = time.perf_counter()
            subprocess.run(cmd + extra, check=True, capture_output=True, timeout=600)
            row[key] = (time.perf_counter() - t) * 1e3
    return row


def main():
    work, runner, out = sys.argv[1:4]
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    samples = paired_rounds(work, MODELS, rounds, lambda name, inputs: (
        quantops(work, name, inputs), quant_runner(runner, work, name, inputs),
        ort_sessions(work, name, inputs, RUNS)))
    lines = [
        "# The Python package beside quant-runner and ONNX Runtime",
        "",
        f"Measured on {cpu_model()}, {subprocess.getoutput('nproc')} vCPUs, "
        f"`bash bench/run.sh` (bench/python/run.py), {rounds} paired rounds, medians, ms, "
        f"{THREADS} threads. **quantops**: a fresh Python process (bench/python/session.py): "
        "`import quantops` with its libraries, the first `InferenceSession` (import, lower, JIT), "
        f"its first run, the median of {RUNS} runs (the NumPy inputs checked and passed, the "
        "outputs copied into new arrays), a second session in the same process and its first "
        "run. **quant-runner**: the wall clock of one process per result, as a script calling "
        "it pays (start, libraries, compile, one run, exit), then with a warm `--cache-dir`. "
        f"**ONNX Runtime 1.30** (node): the first session of a fresh process, a second, its "
        f"first run, the median of {RUNS} `session.run`s.",
        "",
        "| model | import | first session | first run | **run** | second session | its first run | "
        "quant-runner per call | cached | ORT first session | ORT session | ORT first run | "
        "**ORT run** |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name in MODELS:
        rows = samples[name]
        q = lambda k: statistics.median(r[0][k] for r in rows)  # noqa: E731
        c = lambda k: statistics.median(r[1][k] for r in rows)  # noqa: E731
        o = lambda k: statistics.median(r[2][k] for r in rows)  # noqa: E731
        lines.append(f"| {name} | {q('import'):.0f} | {q('create'):.1f} | {q('first_run'):.2f} | "
                     f"**{q('run'):.3f}** | {q('second_create'):.1f} | "
                     f"{q('second_first_run'):.2f} | {c('cold'):.0f} | {c('cached'):.0f} | "
                     f"{o('first_session'):.1f} | {o('session'):.1f} | {o('first_run'):.2f} | "
                     f"**{o('run'):.3f}** |")
    lines.append("")
    open(out, "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
