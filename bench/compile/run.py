#!/usr/bin/env python3
"""Compile time beside ONNX Runtime's session creation, paired rounds;
writes bench/CompileTime.md.

  run.py WORK QUANT_RUNNER OUT.md [ROUNDS]

WORK is the bench-anchors directory (models, data, node_modules with
onnxruntime-node), with the .npy inputs of bench/make_inputs.py in
WORK/qops-inputs. Each round, per model: quant-runner --timing with an
empty --cache-dir (set-up from main, parse, lower, JIT code generation,
storing the object, first call) in a fresh process, again with that folder
(the cached object linked, first call), the same two with --const-eval, then ONNX Runtime in a
fresh process (bench/compile/ort_session.js: the first session of the
process, which includes its runtime's start, then a second one, and their
first runs). Medians over the rounds. Neither side counts loading its
shared libraries (quant-runner: what the loader does before main, its
static constructors included; node: require); both count their runtime's
start (quant-runner: the set-up, its options, dialect registry and MLIR
context).
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from report import cpu_model  # noqa: E402
from ort_sessions import ort_sessions, paired_rounds  # noqa: E402

MODELS = ["QMM_bert_constB", "QMM_1024_constB", "QMM_gemv_constB", "QMM_batch_constB", "QMM_bert"]
# Models of many layers, written by scripts/make_layer_models.py into
# WORK/compile-models: name -> layers (a transformer's feed-forward blocks,
# 768 -> 3072 -> 768, constant weights: two shapes, repeated).
LAYER_MODELS = {"FFN12_constB": 12}
COLD = re.compile(r"timing: set-up ([0-9.]+) ms, parse ([0-9.]+) ms, lower ([0-9.]+) ms, JIT compile ([0-9.]+) ms, "
                  r"cache store ([0-9.]+) ms, first call ([0-9.]+) ms")
WARM = re.compile(r"timing: set-up ([0-9.]+) ms, object cache hit, load ([0-9.]+) ms, "
                  r"first call ([0-9.]+) ms")
MEDIAN = re.compile(r"median time per call: ([0-9.]+) ms")


def run_quantops(runner, work, name, inputs, cache, pattern, extra):
    npy = [i.get("npy") or os.path.join(work, "qops-inputs", f"{name}.{i['name']}.npy")
           for i in inputs]
    model = inputs[0].get("model") or os.path.join(work, "models", name + ".onnx")
    cmd = [runner, model, "--timing", "--repeat", "5",
           "--cache-dir", cache] + extra
    cmd += sum((["--input", p] for p in npy), [])
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    timing, median = pattern.search(done.stderr), MEDIAN.search(done.stdout)
    if done.returncode != 0 or not timing or not median:
        raise SystemExit(f"quant-runner failed on {name} {extra}: {done.stderr[-500:]}")
    return list(map(float, timing.groups())), float(median.group(1))


def quantops(runner, work, name, inputs):
    """A compile into an empty cache, then a run that links the cached object;
    the same with --const-eval."""
    row = {}
    for prefix, extra in (("", []), ("ce_", ["--const-eval"])):
        with tempfile.TemporaryDirectory() as cache:
            (setup, parse, lower, jit, store, first), call = run_quantops(
                runner, work, name, inputs, cache, COLD, extra)
            (warm_setup, load, warm_first), _ = run_quantops(
                runner, work, name, inputs, cache, WARM, extra)
        row.update({prefix + "setup": setup, prefix + "parse": parse, prefix + "lower": lower,
                    prefix + "jit": jit, prefix + "compile": setup + parse + lower + jit,
                    prefix + "store": store, prefix + "first_call": first,
                    prefix + "load": warm_setup + load,
                    prefix + "warm_first_call": warm_first, prefix + "call": call})
    return row


def layer_models(work):
    """LAYER_MODELS written into WORK/compile-models, as manifest workloads
    (each input also names its .npy and the model, for quant-runner)."""
    folder = os.path.join(work, "compile-models")
    script = os.path.join(HERE, "..", "..", "scripts", "make_layer_models.py")
    workloads = {}
    for name, layers in LAYER_MODELS.items():
        model = os.path.join(folder, name + ".onnx")
        if not os.path.exists(model):
            subprocess.run([sys.executable, script, folder, "--name", name,
                            "--layers", str(layers)], check=True)
        workloads[name] = {"name": name, "inputs": [{
            "name": "x", "type": "uint8", "dims": [128, 768], "model": model,
            "file": os.path.join(folder, name + ".x.bin"),
            "npy": os.path.join(folder, name + ".x.npy")}]}
    return workloads


def npy_workload(name, model, npy):
    """A one-input manifest workload `x` from its .npy, whose bytes are
    written beside it as .bin for ONNX Runtime."""
    x = np.load(npy)
    raw = os.path.splitext(npy)[0] + ".bin"
    x.tofile(raw)
    return {"name": name, "inputs": [{
        "name": "x", "type": str(x.dtype), "dims": list(x.shape), "model": model,
        "file": raw, "npy": npy}]}


# A 4-bit LLM layer: the MatMulNBits gemv 1 x 4096 x 11008 (block 32,
# accuracy level 1) that bench/qdq/run.py writes into WORK/qdq; its 45M
# weights are where per-element constant handling shows.
WEIGHT_ONLY_MODELS = {"NBits_gemv_4096x11008": "nbits_gemv_l1"}


def weight_only_models(work):
    """WEIGHT_ONLY_MODELS as manifest workloads, where bench/qdq/run.py has
    written them (bash bench/run.sh runs it first); x's bytes as .bin for
    ONNX Runtime."""
    workloads = {}
    for name, stem in WEIGHT_ONLY_MODELS.items():
        model = os.path.join(work, "qdq", stem + ".onnx")
        npy = os.path.join(work, "qdq", stem + ".x.npy")
        if not (os.path.exists(model) and os.path.exists(npy)):
            print(f"[compile] {model} not found (bench/qdq/run.py writes it); skipping {name}")
            continue
        workloads[name] = npy_workload(name, model, npy)
    return workloads


# Convolutions as ONNX Runtime's static quantizer writes them
# (scripts/make_conv_models.py, into WORK/compile-models; bench/Conv.md
# times their calls): name -> (dims N C H W M k, extra arguments).
CONV_MODELS = {"QConv3x3_64x56x56": ([1, 64, 56, 56, 64, 3], ["--pad", "1"]),
               "QConv3x3_s2_64x56x56": ([1, 64, 56, 56, 64, 3],
                                        ["--pad", "1", "--stride", "2"])}


def conv_models(work):
    """CONV_MODELS written into WORK/compile-models, as manifest workloads."""
    folder = os.path.join(work, "compile-models")
    script = os.path.join(HERE, "..", "..", "scripts", "make_conv_models.py")
    workloads = {}
    for name, (dims, args) in CONV_MODELS.items():
        model = os.path.join(folder, name + ".onnx")
        npy = os.path.join(folder, name + ".x.npy")
        if not os.path.exists(model):
            subprocess.run([sys.executable, script, "qlinearconv", folder, "--name", name,
                            "--dims"] + [str(d) for d in dims] + args, check=True)
        workloads[name] = npy_workload(name, model, npy)
    return workloads


def main():
    work, runner, out = sys.argv[1:4]
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    extra = layer_models(work)
    extra.update(weight_only_models(work))
    extra.update(conv_models(work))
    samples = paired_rounds(work, MODELS + list(extra), rounds, lambda name, inputs: (
        quantops(runner, work, name, inputs),
        ort_sessions(work, name, inputs, model=inputs[0].get("model"))), extra)
    med = lambda rows, side, key: statistics.median(r[side][key] for r in rows)  # noqa: E731
    lines = [
        "# Compile time beside ONNX Runtime's session creation",
        "",
        f"Measured on {cpu_model()}, {subprocess.getoutput('nproc')} vCPUs, "
        f"`bash bench/run.sh` (bench/compile/run.py), {rounds} paired rounds, medians, ms. "
        "QuantOps: `quant-runner --timing`, each round a fresh process with an empty "
        "`--cache-dir`: set-up (from `main`: options, the dialect registry, the MLIR context, "
        "the target's check), parse (ONNX import), lower (the qops-lower-to-llvm pipeline), JIT "
        "(LLVM IR, optimisation and code generation), their sum **compile**, then writing the "
        "object to the cache (store); then a fresh process with that cache: **cached**, its "
        "set-up and the time to hash the model and options and link the stored object. Its first call packs constant "
        "weights (qops-hoist-constant-expressions), unless the model was compiled with "
        "`--const-eval`, which packs them when the session is made (right half: the packing "
        "code runs once the JIT has linked, in the JIT time; for many packed weights it is "
        "compiled apart, beside the lowering; the cache stores the values with the object, "
        "so a cached load does not pack). "
        "ONNX Runtime 1.30: the first session of a fresh process (its environment and thread "
        "pools start with it), a second session (prepacking included), the second session's "
        "first run. Neither side counts loading its shared libraries. FFN12_constB: twelve "
        "QLinearMatMul layers, a transformer's feed-forward blocks (768 -> 3072 -> 768 on "
        "[128, 768], 28 MB of constant si8 weights per column; scripts/make_layer_models.py): "
        "two shapes, whose loop nests qops-share-loop-nests compiles once each. "
        "NBits_gemv_4096x11008: one com.microsoft MatMulNBits, 4-bit weights of an LLM's "
        "feed-forward layer (block 32, accuracy level 1; bench/qdq/run.py). "
        "QConv3x3_64x56x56, QConv3x3_s2_64x56x56: one QLinearConv 3x3 of 64 channels on "
        "56 x 56, pads 1, stride 1 / 2, constant per-channel weights "
        "(scripts/make_conv_models.py). **const-eval - ORT**: the median of each round's "
        "difference between the `--const-eval` compile and ONNX Runtime's first session "
        "(measured back to back), and in how many rounds the compile was the shorter.",
        "",
        "| model | set-up | parse | lower | JIT | **compile** | store | **cached** | first call | "
        "const-eval: compile | store | **cached** | first call | call | "
        "ORT first session | **ORT session** | ORT first run | **const-eval - ORT** |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name in MODELS + list(extra):
        rows = samples[name]
        q = lambda key: med(rows, 0, key)  # noqa: E731
        o = lambda key: med(rows, 1, key)  # noqa: E731
        gaps = [r[0]["ce_compile"] - r[1]["first_session"] for r in rows]
        lines.append(f"| {name} | {q('setup'):.1f} | {q('parse'):.1f} | {q('lower'):.1f} | {q('jit'):.1f} | "
                     f"**{q('compile'):.1f}** | {q('store'):.1f} | **{q('load'):.1f}** | "
                     f"{q('warm_first_call'):.1f} | {q('ce_compile'):.1f} | {q('ce_store'):.1f} | "
                     f"**{q('ce_load'):.1f}** | {q('ce_warm_first_call'):.1f} | {q('call'):.2f} | "
                     f"{o('first_session'):.1f} | **{o('session'):.1f}** | {o('first_run'):.1f} | "
                     f"**{statistics.median(gaps):+.1f}** ({sum(g < 0 for g in gaps)} of "
                     f"{len(gaps)} shorter) |")
    lines.append("")
    open(out, "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
