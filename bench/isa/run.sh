#!/usr/bin/env bash
# Register-only int8 multiply-accumulate ceilings of this x86 CPU: exact
# VPMADDWD against ONNX Runtime's saturating VPMADDUBSW form (AVX2), and the
# VPDPBUSD tiles of the VNNI strategies and the TDPBUSD tiles of amx where
# the CPU has them (int8_ceiling.c, int8_ceiling_vnni.c, int8_ceiling_amx.c).
# Writes bench/ISA.md and bench/isa.json (GOP/s of one thread per loop;
# bench/report.py takes the ceiling of the host's int8 strategy from it).
#   bash bench/isa/run.sh        (from the project root; ~25 s)
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! grep -q ' avx2 ' /proc/cpuinfo; then
  echo "[isa] no AVX2 on this CPU; skipped" >&2
  exit 0
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cc -O2 -c -o "$out/main.o" bench/isa/int8_ceiling.c
# -mavx512f for the zmm16-31 clobbers only: that loop runs on AVX-512 CPUs.
cc -O2 -mavx512f -c -o "$out/vnni.o" bench/isa/int8_ceiling_vnni.c
cc -O2 -c -o "$out/amx.o" bench/isa/int8_ceiling_amx.c
cc -o "$out/int8_ceiling" "$out/main.o" "$out/vnni.o" "$out/amx.o"
# bench/report.py's cpu_model ("NAME (family F model M)"): the name in the
# header and in isa.json, which bench/qdq/run.py compares with its host's.
cpu=$(/usr/bin/python3 -c 'import sys; sys.path.insert(0, "bench"); from report import cpu_model; print(cpu_model())')
{
  echo "# int8 multiply-accumulate ceilings (bench/isa/run.sh)"
  echo
  echo "Measured $(date -u +%Y-%m-%d) on $cpu, one thread, registers"
  echo "only (int8_ceiling.c: best of 15 alternating rounds a second apart, cycles counted against a chain of"
  echo "dependent ADDs)."
  echo
  "$out/int8_ceiling" bench/isa.json
} > bench/ISA.md
# The host beside the ceilings, so that a reader of isa.json (bench/qdq/run.py)
# can tell a file measured on another machine.
CPU="$cpu" /usr/bin/python3 - <<'PYEOF'
import json, os
isa = json.load(open("bench/isa.json"))
isa["cpu"] = os.environ["CPU"]
json.dump(isa, open("bench/isa.json", "w"))
PYEOF
cat bench/ISA.md
