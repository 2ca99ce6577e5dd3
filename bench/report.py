#!/usr/bin/env python3
"""QuantOps vs. ONNX Runtime on the bench-anchors workloads, from one run:
bench/RESULTS.md (a markdown table) and bench/results.png (a chart).

  report.py WORK QOPS.json OUT_DIR [PAIRED.json]

With PAIRED.json (bench/paired.py) the table also gives the paired
speed-up: the median over rounds of ORT / QuantOps measured back to back.
"""
import datetime
import json
import os
import shutil
import platform
import statistics
import subprocess
import sys


def cpu_model():
    """'AMD EPYC (family 26 model 2)': the name alone does not tell which
    generation a VM was given, and sessions land on different ones."""
    fields = {}
    for line in open("/proc/cpuinfo"):
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), value.strip())
    name = fields.get("model name") or platform.processor()
    if "cpu family" in fields and "model" in fields:
        name += f" (family {fields['cpu family']} model {fields['model']})"
    return name


def main():
    work, qops_path, out_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    paired_path = sys.argv[4] if len(sys.argv) > 4 else None
    paired = {}
    if paired_path:
        paired_data = json.load(open(paired_path))
        rounds = paired_data["rounds"]
        paired = {(r["name"], r["threads"]): r for r in paired_data["rows"]}
    ours = {}
    for r in json.load(open(qops_path))["workloads"]:
        ours.setdefault(r["name"], {})[r.get("threads", 1)] = r
    ort_rows = json.load(open(os.path.join(work, "results.json")))["workloads"]
    limits = json.load(open(os.path.join(work, "limits.json")))
    ort = {}
    for r in ort_rows:
        ort[(r["name"], r["threads"])] = r
    # ORT could not run the int4 rows through its Node binding; its
    # workaround rows measure the same kernel (see bench-anchors/RESULTS.md).
    workaround = {"Q_i4_block32": "Q_i4_block32_castI8", "DQ_i4_block32": "DQ_i4_block32_constX"}

    # The int8 rows' ceiling: the tile of the host's strategy where
    # bench/isa/run.sh measured one (TDPBUSD on AMX hosts, VPDPBUSD on VNNI
    # hosts: the anchors' u8s8 peak is the AVX2 VPMADDUBSW form, which
    # neither kernel runs), per thread times the threads; else the anchors'
    # u8s8 peak.
    isa_path = os.path.join(out_dir, "isa.json")
    isa = json.load(open(isa_path)) if os.path.exists(isa_path) else {}
    vnni_loop = next((k for k in ("amx_32x32", "vnni_zmm_12x32", "vnni_ymm_6x16", "avxvnni_6x16") if k in isa), None)

    def limit(key, threads):
        if key == "int8" and vnni_loop:
            return isa[vnni_loop] * threads
        if key == "int8":
            key = "int8_u8s8_maddubs_madd_add"
        v = limits.get(f"{key}@{threads}")
        return v["median"] if v else float("nan")

    def throughput(r, ms):
        if r["metric"] == "gemm":
            return f"{r['ops'] / ms / 1e6:.1f} GOP/s", r["ops"] / ms / 1e6, "int8"
        key = "mem_copy_nt(stream-store)" if r["name"].startswith("DQ") else "mem_read(sum)"
        return f"{r['bytes'] / ms / 1e6:.2f} GB/s", r["bytes"] / ms / 1e6, key

    def ort_ms(name, threads):
        o = ort.get((name, threads))
        if (not o or not o.get("ok")) and name in workaround:
            o = ort.get((workaround[name], threads))
        return o["kernel"]["median"] if o and o.get("ok") else None

    lines = []
    P = lines.append
    paired_head = f" paired speed-up ({rounds} rounds) [range] |" if paired else ""
    P("| workload | thr | QuantOps median ms | ORT median ms | speed-up vs ORT |" + paired_head +
      " QuantOps throughput | % of limit | 2 thr / 1 thr |" + (" 2 thr / 1 thr, paired |" if paired else ""))
    P("|---|---|---|---|---|" + ("---|" if paired else "") + "---|---|---|" + ("---|" if paired else ""))

    def paired_cell(name, threads):
        if not paired:
            return ""
        ratios = (paired.get((name, threads)) or {}).get("ratios") or []
        if not ratios:
            return " - |"
        return (f" {statistics.median(ratios):.2f}x [{min(ratios):.2f}-{max(ratios):.2f}] |")

    def paired_scaling_cell(name, threads):
        """Median over rounds of QuantOps' 1-thread / 2-thread time, the two
        measured seconds apart in the same round."""
        if not paired:
            return ""
        one, two = paired.get((name, 1)), paired.get((name, 2))
        if threads != 2 or not one or not two:
            return " |"
        ratios = [a / b for a, b in zip(one["qops_ms"], two["qops_ms"]) if a and b]
        return f" {statistics.median(ratios):.2f}x |" if ratios else " - |"

    chart = []
    for name, by_threads in ours.items():
        for threads in sorted(by_threads):
            r = by_threads[threads]
            ort_t = ort_ms(name, threads)
            if not r["ok"]:
                P(f"| {name} | {threads} | failed | {ort_t or '-'} | |{paired_cell(name, threads)} | | |"
                  f"{paired_scaling_cell(name, threads)}")
                continue
            ms = r["median"]
            text, value, key = throughput(r, ms)
            pct = 100 * value / limit(key, threads)
            ratio = f"{ort_t / ms:.2f}x" if ort_t else "-"
            scaling = ""
            if threads == 2 and by_threads.get(1, {}).get("ok"):
                scaling = f"{by_threads[1]['median'] / ms:.2f}x"
            P(f"| {name} | {threads} | {ms:.3f} | {f'{ort_t:.3f}' if ort_t else '-'} | {ratio} |"
              f"{paired_cell(name, threads)} {text} | {pct:.0f}% | {scaling} |{paired_scaling_cell(name, threads)}")
            paired_ratios = (paired.get((name, threads)) or {}).get("ratios") or []
            if paired_ratios:
                chart.append((f"{name} t{threads}", statistics.median(paired_ratios)))
            elif ort_t:
                chart.append((f"{name} t{threads}", ort_t / ms))
    flags = open("/proc/cpuinfo").read()
    isa = "AVX-512 + VNNI" if "avx512_vnni" in flags else ("AVX2" if "avx2" in flags else "?")
    header = [
        f"Measured {datetime.date.today().isoformat()} on {cpu_model()} ({isa}), "
        f"{subprocess.getoutput('nproc')} vCPUs, "
        "QuantOps and ONNX Runtime 1.30 (MLAS, kernel time from its profiler) in the same run "
        "(`bash bench/run.sh`). Medians; `thr` = threads (QuantOps `--threads`, ORT intra-op threads).",
        "Limits (same run, medians): elementwise rows vs. read bandwidth (quantize, DynQ) or NT-copy bandwidth "
        "(dequantize); QLinearMatMul vs. the u8s8 int8 register peak"
        + (f" of the host's VPDPBUSD tile ({vnni_loop}, bench/ISA.md, times the threads)." if vnni_loop
           else " (the anchors' VPMADDUBSW form).") ,
    ] + ([
        f"Paired speed-up (`bench/paired.py`): {rounds} rounds, each measuring every row with ONNX Runtime and "
        "then QuantOps back to back; the median over the rounds of ORT / QuantOps, with the lowest and highest "
        "round. The speed-up column before it divides medians measured minutes apart.",
    ] if paired else []) + [
        "",
    ]
    open(os.path.join(out_dir, "RESULTS.md"), "w").write("\n".join(header + lines) + "\n")
    # The raw data of this table, next to it.
    for source, name in ((os.path.join(work, "limits.json"), "limits.json"),
                         (os.path.join(work, "results.json"), "ort-results.json"),
                         (qops_path, "qops-results.json")) + \
            (((paired_path, "paired-results.json"),) if paired_path else ()):
        shutil.copyfile(source, os.path.join(out_dir, name))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        names = [c[0] for c in chart]
        values = [c[1] for c in chart]
        fig, ax = plt.subplots(figsize=(14, 5))
        ax.bar(names, values, color=["tab:green" if v >= 1 else "tab:red" for v in values])
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_ylabel("speed-up vs ONNX Runtime (same threads)" + (", paired" if paired else ""))
        ax.set_yscale("log")
        plt.xticks(rotation=30, ha="right")
        plt.tight_layout()
        fig.savefig(os.path.join(out_dir, "results.png"), dpi=100)
    except ImportError:
        print("report.py: python3-matplotlib missing, no chart")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
