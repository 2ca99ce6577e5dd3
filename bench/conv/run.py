#!/usr/bin/env python3
"""The quantized convolutions and MatMulInteger against ONNX Runtime, paired,
on the same models and inputs in the same run; writes bench/Conv.md.

  run.py WORK QUANT_RUNNER OUT.md [ROUNDS]

Models (scripts/make_conv_models.py, python3-onnx; constant weights, as
ONNX Runtime's static quantizer writes them: u8 activations, si8 weights
per output channel, int32 bias):
  qconv3x3      QLinearConv 1x64x56x56 -> 64, 3x3, pads 1
  qconv1x1      QLinearConv 1x256x56x56 -> 64, 1x1
  qconv_dw3x3   QLinearConv 1x144x56x56, depthwise 3x3 (group 144), pads 1
  qconv3x3_s2   QLinearConv 1x64x56x56 -> 64, 3x3, stride 2, pads 1
  qconv3x3_g4   QLinearConv 1x64x56x56 -> 64, 3x3, group 4, pads 1 (the dense
                form under amx / vnni: one kernel, block-diagonal weights)
  convint3x3    ConvInteger 1x64x56x56 -> 64, 3x3, pads 1 (per-tensor w)
  mmi_bert      MatMulInteger 128x768 x 768x3072 (constant b)
  dyn_chain     a quantize_dynamic-style chain (scripts/make_dynamic_models.py
                conv-chain, f32 in and out): DynamicQuantizeLinear ->
                ConvInteger 3x3 64->64 (56x56, pads 1) -> Cast -> Mul -> Add
                -> Relu -> DynamicQuantizeLinear -> ConvInteger 1x1 64->64
                -> Cast -> Mul -> Add; QuantOps with --fuse-qdq (the
                dequantize clause in the kernel's epilogue) and without (the
                glue as separate loops); ORT runs the same graph

Per model and thread count (1, 2), ROUNDS paired rounds (default 3): each
round times QuantOps (quant-runner --repeat, the compiled function's median,
bench/qdq/run.py's run_qops, its output checked bit for bit against the
NumPy reference with --expect) and then ONNX Runtime 1.30 (the
onnxruntime-node of ../shared/bench-anchors, its profiler's model_run
median, bench/qdq/ort_qdq.js); the table gives the medians over rounds and
the median of the per-round ratios ORT / QuantOps, and how many of ORT's
outputs differ from the exact reference.
"""
import importlib.util
import json
import os
import statistics
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
_qdq = importlib.util.spec_from_file_location("qdq_run", os.path.join(HERE, "..", "qdq", "run.py"))
qdq_run = importlib.util.module_from_spec(_qdq)
_qdq.loader.exec_module(qdq_run)
run_qops = qdq_run.run_qops  # quant-runner --repeat, checked with --expect
run_ort = qdq_run.run_ort    # ort_qdq.js: its profiler's model_run median

MODELS = [
    # name, kind, dims, extra arguments, what
    ("qconv3x3", "qlinearconv", [1, 64, 56, 56, 64, 3], ["--pad", "1"], "QLinearConv 3x3 64->64, 56x56"),
    ("qconv1x1", "qlinearconv", [1, 256, 56, 56, 64, 1], [], "QLinearConv 1x1 256->64, 56x56"),
    ("qconv_dw3x3", "qlinearconv", [1, 144, 56, 56, 144, 3], ["--pad", "1", "--group", "144"],
     "QLinearConv depthwise 3x3, 144 ch, 56x56"),
    ("qconv3x3_s2", "qlinearconv", [1, 64, 56, 56, 64, 3], ["--pad", "1", "--stride", "2"],
     "QLinearConv 3x3 64->64 stride 2, 56x56"),
    ("qconv3x3_g4", "qlinearconv", [1, 64, 56, 56, 64, 3], ["--pad", "1", "--group", "4"],
     "QLinearConv 3x3 64->64 group 4, 56x56"),
    ("convint3x3", "convinteger", [1, 64, 56, 56, 64, 3], ["--pad", "1"], "ConvInteger 3x3 64->64, 56x56"),
    ("mmi_bert", "matmulinteger", [128, 768, 3072], [], "MatMulInteger 128x768x3072"),
    ("dyn_chain", "dynamic", [1, 64, 56, 56, 64, 64, 3], ["--fuse"],
     "dynamic ConvInteger 3x3 + 1x1 chain, fused"),
    ("dyn_chain", "dynamic", [1, 64, 56, 56, 64, 64, 3], [],
     "dynamic ConvInteger 3x3 + 1x1 chain, unfused"),
]


def ops_of(kind, dims, extra):
    """Multiply-adds x 2 of one call."""
    if kind == "matmulinteger":
        m, k, n = dims
        return 2 * m * k * n
    if kind == "dynamic":  # k x k (pads k // 2) then 1x1
        n, c, h, w, m1, m2, k = dims
        return 2 * n * h * w * (m1 * c * k * k + m2 * m1)
    n, c, h, w, m, k = dims
    stride = int(extra[extra.index("--stride") + 1]) if "--stride" in extra else 1
    pad = int(extra[extra.index("--pad") + 1]) if "--pad" in extra else 0
    group = int(extra[extra.index("--group") + 1]) if "--group" in extra else 1
    oh = (h + 2 * pad - k) // stride + 1
    ow = (w + 2 * pad - k) // stride + 1
    return 2 * n * m * oh * ow * (c // group) * k * k


def main():
    work, runner, out_md = sys.argv[1], sys.argv[2], sys.argv[3]
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    model_dir = os.path.join(work, "conv")
    os.makedirs(model_dir, exist_ok=True)
    rows = []
    for name, kind, dims, extra, what in MODELS:
        fuse = "--fuse" in extra
        if kind == "dynamic":
            command = ["make_dynamic_models.py", "conv-chain"]
        else:
            command = ["make_conv_models.py", kind] + extra
        subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", command[0])] + command[1:] +
                       [model_dir, "--name", name, "--dims"] + [str(d) for d in dims], check=True)
        model = os.path.join(model_dir, name + ".onnx")
        x = os.path.join(model_dir, name + ".x.npy")
        ref_path = os.path.join(model_dir, name + ".y.npy")
        ref = np.load(ref_path)
        for threads in (1, 2):
            per_round = []
            for _ in range(rounds):
                q = run_qops(runner, model, x, ref_path, threads, fuse)
                o = run_ort(work, model, x, threads, model_dir, ref.dtype)
                per_round.append((q, o))
            ok = [(q, o) for q, o in per_round if q["ok"] and o["ok"]]
            row = {"name": name, "what": what, "threads": threads,
                   "gop": ops_of(kind, dims, extra) / 1e9,
                   "exact": all(q.get("matches") for q, _ in per_round if q["ok"]),
                   "errors": [q.get("error") or o.get("error") for q, o in per_round
                              if not (q["ok"] and o["ok"])]}
            if ok:
                row["qops"] = statistics.median(q["median"] for q, _ in ok)
                row["ort"] = statistics.median(o["median"] for _, o in ok)
                row["ratio"] = statistics.median(o["median"] / q["median"] for q, o in ok)
                out = ok[-1][1]["output"]
                row["ort_differ"] = int(np.count_nonzero(out != ref.reshape(-1)))
                row["ort_kernels"] = ok[-1][1].get("kernels", [])
            print(json.dumps(row), flush=True)
            rows.append(row)
    json.dump(rows, open(os.path.join(work, "conv-results.json"), "w"), indent=1)
    write_markdown(rows, out_md, rounds)


def write_markdown(rows, out_md, rounds):
    cpu = ""
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    date = subprocess.run(["date", "-u", "+%Y-%m-%d"], capture_output=True, text=True).stdout.strip()
    lines = [
        "# Quantized convolutions and MatMulInteger against ONNX Runtime",
        "",
        "Written by `bench/conv/run.py` (`bash bench/run.sh`), %s, %s, %d cores, %d paired rounds." %
        (date, cpu, os.cpu_count(), rounds),
        "Constant weights (u8 x, si8 w per channel, int32 bias: ORT's static quantizer's QOperator form). "
        "Medians in ms; QuantOps: the compiled function (quant-runner --repeat); ORT 1.30: its profiler's "
        "model_run; speed-up: the median of the per-round ORT / QuantOps. \"exact\": QuantOps' output equals "
        "the NumPy reference (SPEC.md) bit for bit; \"ORT differs\": ORT's outputs that do not. "
        "The dynamic chain rows: f32 in and out, quantize_dynamic's layout (scripts/make_dynamic_models.py; "
        "x quantized at run time by DynamicQuantizeLinear, si8 w per tensor, f32 bias); \"fused\": "
        "--qops-fuse-qdq (Cast, Mul and Add in the kernel's epilogue), \"unfused\": the float glue as "
        "separate loops; ORT runs the same graph (its kernels listed).",
        "",
        "| row | threads | QuantOps ms | ORT ms | speed-up | QuantOps GOP/s | exact | ORT differs | ORT kernels |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if "qops" not in r:
            lines.append("| %s | %d | failed: %s | | | | | | |" % (r["what"], r["threads"], (r["errors"] or [""])[0]))
            continue
        lines.append("| %s | %d | %.3f | %.3f | %.2fx | %.0f | %s | %d | %s |" % (
            r["what"], r["threads"], r["qops"], r["ort"], r["ratio"], r["gop"] / (r["qops"] / 1e3),
            "yes" if r["exact"] else "NO", r["ort_differ"], ", ".join(r["ort_kernels"])))
    open(out_md, "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
