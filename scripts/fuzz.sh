#!/usr/bin/env bash
# Builds the libFuzzer targets in ./build-fuzz (QUANTOPS_ENABLE_FUZZERS=ON:
# clang-22, ASan + UBSan, libFuzzer from libclang-rt-22-dev), assembles their
# seed corpora from the test data, replays the checked-in regression inputs
# (test/Fuzz/regressions/<fuzzer>/) and then fuzzes each target for
# FUZZ_SECONDS (default 45) seconds. Fails if a fuzzer finds a crash, a
# sanitizer report, a leak, an input over the RSS limit or a slow input; the
# input is left in build-fuzz/artifacts/<fuzzer>/ (turn it into a regression
# test: docs/Hardening.md). Ends with one line per fuzzer:
# "<fuzzer>: N executions, corpus N, result".
#
# Usage: scripts/fuzz.sh [fuzzer...]   (default: all four)
set -uo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${FUZZ_BUILD_DIR:-build-fuzz}
LLVM_PREFIX=${LLVM_PREFIX:-/usr/lib/llvm-22}
JOBS=${JOBS:-2}
SECONDS_EACH=${FUZZ_SECONDS:-45}
RSS_LIMIT_MB=${FUZZ_RSS_LIMIT_MB:-2048}
# One input taking longer than this is a finding (an unbounded loop).
TIMEOUT=${FUZZ_TIMEOUT:-25}
SHARED_DIR=${SHARED_DIR:-$(dirname "$PWD")/shared}
FUZZERS=("$@")
if [ ${#FUZZERS[@]} -eq 0 ]; then
  FUZZERS=(quantops-fuzz-npy quantops-fuzz-tensorproto
           quantops-fuzz-onnx-import quantops-fuzz-qops-ir)
fi

start=$(date +%s)
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DQUANTOPS_STATIC_LLVM=OFF \
    -DQUANTOPS_ENABLE_FUZZERS=ON || { echo "fuzz: configure failed"; exit 1; }
fi
cmake --build "$BUILD_DIR" -j "$JOBS" --target quantops-fuzzers ||
  { echo "fuzz: build failed"; exit 1; }
built=$(date +%s)

#===- Seed corpora ---------------------------------------------------------===#
python=/usr/bin/python3
[ -x "$python" ] || python=python3
seeds="$BUILD_DIR/fuzz-seeds"
rm -rf "$seeds" && mkdir -p "$seeds"
node_test_dirs=()
[ -d "$SHARED_DIR/onnx-node-tests" ] && node_test_dirs+=("$SHARED_DIR/onnx-node-tests")
[ -d /usr/share/libonnx-testdata/data/node ] &&
  node_test_dirs+=(/usr/share/libonnx-testdata/data/node)

# .npy: generated with NumPy.
"$python" test/Fuzz/make_npy_seeds.py "$seeds/quantops-fuzz-npy" >/dev/null
# ONNX models: the node tests' model.onnx (the quantization ones and a few
# others) and the models the lit tests generate.
mkdir -p "$seeds/quantops-fuzz-onnx-import" "$seeds/quantops-fuzz-tensorproto"
models="$seeds/models"
for group in hostile initializers microsoft versions dynamic run; do
  "$python" test/ONNX/Inputs/make_models.py "$group" "$models/$group" \
    >/dev/null 2>&1 || true
done
n=0
while IFS= read -r -d '' f; do
  n=$((n + 1)); cp "$f" "$seeds/quantops-fuzz-onnx-import/m$n.onnx"
done < <(find "$models" "${node_test_dirs[@]}" -name '*.onnx' \
           -size -64k -print0 2>/dev/null)
# TensorProtos: the node tests' input_K.pb / output_K.pb and the lit
# tests' generated .pb files.
n=0
while IFS= read -r -d '' f; do
  n=$((n + 1)); cp "$f" "$seeds/quantops-fuzz-tensorproto/t$n.pb"
done < <(find "$models" "${node_test_dirs[@]}" -name '*.pb' \
           -size -64k -print0 2>/dev/null)
# qops IR: the lit tests' modules.
"$python" test/Fuzz/make_ir_seeds.py . "$seeds/quantops-fuzz-qops-ir" >/dev/null

#===- Sanitizer settings ---------------------------------------------------===#
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1"
export LSAN_OPTIONS="suppressions=$PWD/test/Sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export ASAN_SYMBOLIZER_PATH="$LLVM_PREFIX/bin/llvm-symbolizer"

declare -A dict=([quantops-fuzz-qops-ir]=test/Fuzz/qops-ir.dict
                 [quantops-fuzz-onnx-import]=test/Fuzz/onnx.dict)
summary=()
status=0
for fuzzer in "${FUZZERS[@]}"; do
  bin="$BUILD_DIR/bin/$fuzzer"
  if [ ! -x "$bin" ]; then
    echo "fuzz: no such fuzzer $fuzzer"; status=1; continue
  fi
  log="$BUILD_DIR/fuzz-logs/$fuzzer.log"
  artifacts="$BUILD_DIR/artifacts/$fuzzer/"
  corpus="$BUILD_DIR/corpus/$fuzzer"
  mkdir -p "$(dirname "$log")" "$artifacts" "$corpus"
  common=(-rss_limit_mb="$RSS_LIMIT_MB" -malloc_limit_mb="$RSS_LIMIT_MB"
          -timeout="$TIMEOUT" -max_len=4096 -artifact_prefix="$artifacts")
  [ -n "${dict[$fuzzer]:-}" ] && common+=(-dict="${dict[$fuzzer]}")

  # 1. The regression inputs (crashes found earlier) must pass.
  regressions="test/Fuzz/regressions/$fuzzer"
  if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
    if ! "$bin" "${common[@]}" "$regressions"/* >"$log.regressions" 2>&1; then
      echo "fuzz: $fuzzer fails on a regression input:"; tail -n 40 "$log.regressions"
      summary+=("$fuzzer: REGRESSION FAILED"); status=1; continue
    fi
  fi

  # 2. Fuzz for a bounded time; new inputs go to $corpus (the first
  #    directory), the seeds are read only.
  echo "fuzz: $fuzzer for ${SECONDS_EACH}s"
  "$bin" "${common[@]}" -max_total_time="$SECONDS_EACH" -print_final_stats=1 \
    "$corpus" "$seeds/$fuzzer" >"$log" 2>&1
  rc=$?
  execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -n 1)
  size=$(ls -A "$corpus" | wc -l)
  if [ "$rc" -ne 0 ]; then
    echo "fuzz: $fuzzer FAILED (exit $rc); the end of its log:"
    tail -n 60 "$log"
    ls -l "$artifacts"
    summary+=("$fuzzer: ${execs:-?} executions, corpus $size, FAILED (see $log)")
    status=1
  else
    summary+=("$fuzzer: ${execs:-?} executions, corpus $size, no findings")
  fi
done
done_at=$(date +%s)
echo "fuzz build: $((built - start)) s, fuzzing: $((done_at - built)) s"
printf '%s\n' "${summary[@]}"
exit $status
