#!/usr/bin/env bash
# Builds the thread-scaling bench (bench/scaling/run.py) into one folder that
# runs on another x86-64 Linux machine without LLVM, MLIR or this checkout:
# each bench-anchors workload ahead of time (quant-compile --parallel
# --runtime-allocator, one shared library per workload and target, with
# block_cache.c's allocator), libomp, the anchors' model
# generator (the same seed: the same models and inputs there) and the int8
# register ceilings (bench/isa). run.py times them there against ONNX
# Runtime at 1, 2, 4, ... threads.
#   bash bench/scaling/build.sh OUT [WORK]     (from the project root; ~1 min)
#
# Targets (the int8 strategy each one's CPU gets, Tools.md):
#   avx2   x86-64-v3                 maddubs / madd
#   vnni   x86-64-v4 + avx512vnni    vnni
#   amx    sapphirerapids            amx (vnni for fewer than 32 rows)
# run.py runs a target only where /proc/cpuinfo has its features. The
# QMM_gemv_constB object (16 MiB of weights) is built for vnni only, to keep
# the folder small enough to travel.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT="${1:?usage: build.sh OUT [WORK]}"
WORK="${2:-/tmp/anchors-work}"
mkdir -p "$OUT/lib"
[ -f "$WORK/models/manifest.json" ] ||
  /usr/bin/python3 ../shared/bench-anchors/gen_models.py --work "$WORK" >/dev/null
bash scripts/build.sh >/dev/null
LIBOMP=$(ls /usr/lib/llvm-22/lib/libomp.so.5)
cp "$LIBOMP" "$OUT/lib/libomp.so.5"
cp ../shared/bench-anchors/gen_models.py bench/scaling/run.py "$OUT/"
# The allocator the objects call (--runtime-allocator): freed blocks kept.
cc -O2 -fPIC -c -o "$OUT/block_cache.o" bench/scaling/block_cache.c

QMM="QMM_1024 QMM_bert QMM_gemv QMM_batch QMM_1024_constB QMM_bert_constB QMM_batch_constB"
ELEMENTWISE="Q_u8_tensor Q_i8_axis1 DQ_u8_tensor"
build() { # target cpu features workload
  local obj="$OUT/lib/$4.$1.o"
  build/bin/quant-compile "$WORK/models/$4.onnx" -o "$obj" --parallel \
    --runtime-allocator --target-cpu="$2" ${3:+--target-features=$3}
  cc -shared -o "$OUT/lib/$4.$1.so" "$obj" "$OUT/block_cache.o" \
    -L"$OUT/lib" -l:libomp.so.5 -Wl,-rpath,'$ORIGIN'
  rm "$obj"
}
for w in $QMM; do
  build avx2 x86-64-v3 "" "$w"
  build vnni x86-64-v4 +avx512vnni "$w"
  build amx sapphirerapids "" "$w"
done
build vnni x86-64-v4 +avx512vnni QMM_gemv_constB
for w in $ELEMENTWISE; do
  build vnni x86-64-v4 +avx512vnni "$w"
done

# The register ceilings, linked statically (glibc there may be older).
cc -O2 -c -o "$OUT/main.o" bench/isa/int8_ceiling.c
cc -O2 -mavx512f -c -o "$OUT/vnni.o" bench/isa/int8_ceiling_vnni.c
cc -O2 -c -o "$OUT/amx.o" bench/isa/int8_ceiling_amx.c
cc -static -o "$OUT/int8_ceiling" "$OUT/main.o" "$OUT/vnni.o" "$OUT/amx.o"
rm "$OUT"/*.o
du -sh "$OUT"
