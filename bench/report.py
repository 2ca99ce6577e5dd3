#!/usr/bin/env python3
"""QuantOps vs. ONNX Runtime on the bench-anchors workloads, from one run:
bench/RESULTS.md (a markdown table) and bench/results.png (a chart).

  report.py WORK QOPS.json OUT_DIR
"""
import datetime
import json
import os
import platform
import subprocess
import sys


def cpu_model():
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor()


def main():
    work, qops_path, out_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    ours = {r["name"]: r for r in json.load(open(qops_path))["workloads"]}
    ort_rows = json.load(open(os.path.join(work, "results.json")))["workloads"]
    limits = json.load(open(os.path.join(work, "limits.json")))
    ort = {}
    for r in ort_rows:
        ort[(r["name"], r["threads"])] = r
    # ORT could not run the int4 rows through its Node binding; its
    # workaround rows measure the same kernel (see bench-anchors/RESULTS.md).
    workaround = {"Q_i4_block32": "Q_i4_block32_castI8", "DQ_i4_block32": "DQ_i4_block32_constX"}

    def limit(key, threads):
        v = limits.get(f"{key}@{threads}")
        return v["median"] if v else float("nan")

    lines = []
    P = lines.append
    P("| workload | QuantOps 1 thr: median ms | ORT 1 thr: median ms | speed-up vs ORT | QuantOps throughput | % of machine limit | ORT 2 thr: median ms |")
    P("|---|---|---|---|---|---|---|")
    chart = []
    for name, r in ours.items():
        o1 = ort.get((name, 1))
        if (not o1 or not o1.get("ok")) and name in workaround:
            o1 = ort.get((workaround[name], 1))
        o2 = ort.get((name, 2))
        if (not o2 or not o2.get("ok")) and name in workaround:
            o2 = ort.get((workaround[name], 2))
        ort1 = o1["kernel"]["median"] if o1 and o1.get("ok") else None
        ort2 = o2["kernel"]["median"] if o2 and o2.get("ok") else None
        if not r["ok"]:
            P(f"| {name} | failed | {ort1 or '-'} | | | | |")
            continue
        ms = r["median"]
        if r["metric"] == "gemm":
            thr = f"{r['ops'] / ms / 1e6:.1f} GOP/s"
            pct = 100 * (r["ops"] / ms / 1e6) / (limits["int8_u8s8_maddubs_madd_add@1"]["median"])
        else:
            gbs = r["bytes"] / ms / 1e6
            thr = f"{gbs:.2f} GB/s"
            key = "mem_copy_nt(stream-store)" if name.startswith("DQ") else "mem_read(sum)"
            pct = 100 * gbs / limit(key, 1)
        ratio = f"{ort1 / ms:.2f}x" if ort1 else "-"
        P(f"| {name} | {ms:.3f} | {f'{ort1:.3f}' if ort1 else '-'} | {ratio} | {thr} | {pct:.0f}% | "
          f"{f'{ort2:.3f}' if ort2 else '-'} |")
        if ort1:
            chart.append((name, ort1 / ms))
    flags = open("/proc/cpuinfo").read()
    isa = "AVX-512 + VNNI" if "avx512_vnni" in flags else ("AVX2" if "avx2" in flags else "?")
    header = [
        f"Measured {datetime.date.today().isoformat()} on {cpu_model()} ({isa}), "
        f"{subprocess.getoutput('nproc')} vCPUs, "
        "QuantOps and ONNX Runtime 1.30 (MLAS, kernel time from its profiler) in the same run "
        "(`bash bench/run.sh`). Medians; QuantOps runs 1 thread (threads are not implemented yet).",
        "Limits (same run, medians): elementwise rows vs. read bandwidth (quantize, DynQ) or NT-copy bandwidth "
        "(dequantize); QLinearMatMul vs. the u8s8 int8 register peak.",
        "",
    ]
    open(os.path.join(out_dir, "RESULTS.md"), "w").write("\n".join(header + lines) + "\n")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        names = [c[0] for c in chart]
        values = [c[1] for c in chart]
        fig, ax = plt.subplots(figsize=(10, 4))
        ax.bar(names, values, color=["tab:green" if v >= 1 else "tab:red" for v in values])
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_ylabel("speed-up vs ONNX Runtime (1 thread)")
        ax.set_yscale("log")
        plt.xticks(rotation=30, ha="right")
        plt.tight_layout()
        fig.savefig(os.path.join(out_dir, "results.png"), dpi=100)
    except ImportError:
        print("report.py: python3-matplotlib missing, no chart")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
