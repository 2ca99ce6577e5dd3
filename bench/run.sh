#!/usr/bin/env bash
# The benchmark, one command: ONNX Runtime 1.30 and this machine's limits
# (../shared/bench-anchors/run.sh), then QuantOps on the same models and
# inputs, in the same run, then both again back to back in paired rounds
# (bench/paired.py); writes bench/RESULTS.md and bench/results.png, then the
# QDQ models fused and unfused against ONNX Runtime (bench/QDQ.md), the
# quantized convolutions and MatMulInteger (bench/Conv.md), and compile time
# beside ONNX Runtime's session creation (bench/CompileTime.md);
# the int8 register ceilings of the CPU (bench/ISA.md) come first.
#   bash bench/run.sh                    (from the project root; ~22 min)
#   PAIRED_ROUNDS=0 bash bench/run.sh    (no paired rounds; ~13 min)
set -euo pipefail
cd "$(dirname "$0")/.."
WORK="${WORK:-/tmp/anchors-work}"
export WORK
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
/usr/bin/python3 -c 'import matplotlib' 2>/dev/null || $SUDO apt-get install -y python3-matplotlib >/dev/null

# The anchors exit non-zero when ONNX Runtime cannot run a row (its int4
# workloads have fallback rows); their results are still written.
bash ../shared/bench-anchors/run.sh ||
  { [ -f "$WORK/results.json" ] &&
    echo "[bench] bench-anchors reported rows ONNX Runtime cannot run; continuing"; }
bash scripts/build.sh >/dev/null
/usr/bin/python3 bench/make_inputs.py "$WORK" "$WORK/qops-inputs"
/usr/bin/python3 bench/run_qops.py "$WORK" build/bin/quant-runner "$WORK/qops.json"
# The int8 multiply-accumulate ceilings of this CPU (AVX2, and VPDPBUSD
# where it has VNNI) -> bench/ISA.md, bench/isa.json (the report's int8
# limit).
bash bench/isa/run.sh
# Paired rounds: ORT and QuantOps back to back per row, PAIRED_ROUNDS times
# (default 3; 0 skips them), so that host drift between the two phases
# above does not enter the speed-up.
ROUNDS="${PAIRED_ROUNDS:-3}"
if [ "$ROUNDS" -gt 0 ]; then
  /usr/bin/python3 bench/paired.py "$WORK" build/bin/quant-runner "$WORK/qops.json" "$WORK/paired.json" "$ROUNDS"
  /usr/bin/python3 bench/report.py "$WORK" "$WORK/qops.json" bench "$WORK/paired.json"
else
  rm -f bench/paired-results.json
  /usr/bin/python3 bench/report.py "$WORK" "$WORK/qops.json" bench
fi
# QDQ models: fused vs unfused vs ONNX Runtime -> bench/QDQ.md.
/usr/bin/python3 bench/qdq/run.py "$WORK" build/bin/quant-runner bench/QDQ.md
# The quantized convolutions and MatMulInteger with constant weights, paired
# against ONNX Runtime -> bench/Conv.md.
CONV_ROUNDS=$ROUNDS; [ "$CONV_ROUNDS" -gt 0 ] || CONV_ROUNDS=1
/usr/bin/python3 bench/conv/run.py "$WORK" build/bin/quant-runner bench/Conv.md "$CONV_ROUNDS"
# Compile time beside ONNX Runtime's session creation -> bench/CompileTime.md.
/usr/bin/python3 bench/compile/run.py "$WORK" build/bin/quant-runner bench/CompileTime.md
# The Python package's session beside quant-runner per call and ONNX
# Runtime's session.run -> bench/Python.md.
/usr/bin/python3 bench/python/run.py "$WORK" build/bin/quant-runner bench/Python.md
