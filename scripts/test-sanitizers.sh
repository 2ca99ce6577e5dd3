#!/usr/bin/env bash
# Builds QuantOps with AddressSanitizer + UndefinedBehaviorSanitizer in
# ./build-asan (QUANTOPS_ENABLE_SANITIZERS=ON, clang-22) and runs the whole
# lit suite (dialect, conversion, runner, ONNX import and conformance,
# integration, package) with the instrumented tools. Passes only if every
# test passes AND no sanitizer wrote a report: reports go to files under
# build-asan/sanitizer-logs, so a report from a command a test expects to
# fail (`not quant-opt ...`) is not masked by the expected failure.
# Ends with "N passed, N failed, N sanitizer reports". See docs/Hardening.md.
set -uo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${ASAN_BUILD_DIR:-build-asan}
LLVM_PREFIX=${LLVM_PREFIX:-/usr/lib/llvm-22}
JOBS=${JOBS:-2}

start=$(date +%s)
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DQUANTOPS_STATIC_LLVM=OFF \
    -DQUANTOPS_ENABLE_SANITIZERS=ON \
    "$@" || { echo "configure failed"; echo "0 passed, 1 failed"; exit 1; }
fi
cmake --build "$BUILD_DIR" -j "$JOBS" ||
  { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
built=$(date +%s)

logs="$PWD/$BUILD_DIR/sanitizer-logs"
rm -rf "$logs" && mkdir -p "$logs"
supp="$PWD/test/Sanitizers"
# halt_on_error/-fno-sanitize-recover: the first report ends the process.
# LeakSanitizer stays on; the suppressions name the LLVM/MLIR/protobuf
# allocations that live until exit by design (see the file).
export ASAN_OPTIONS="log_path=$logs/asan:log_exe_name=1:detect_leaks=1:halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1:detect_odr_violation=2"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="log_path=$logs/ubsan:log_exe_name=1:print_stacktrace=1:halt_on_error=1"
export ASAN_SYMBOLIZER_PATH="$LLVM_PREFIX/bin/llvm-symbolizer"

log=$(mktemp)
"$LLVM_PREFIX/bin/lit" -sv "$BUILD_DIR/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
done_at=$(date +%s)

# lit pads the labels when other kinds are listed ("Passed     : 67").
passed=$(sed -nE 's/^ *Passed *: *([0-9]+).*/\1/p' "$log")
failed=0
for kind in Failed "Unexpectedly Passed" Unresolved "Timed Out"; do
  n=$(grep -E "^ *$kind *:" "$log" | sed -E 's/.*: *([0-9]+).*/\1/')
  failed=$((failed + ${n:-0}))
done
rm -f "$log"

reports=$(find "$logs" -type f | wc -l)
if [ "$reports" -ne 0 ]; then
  echo "sanitizer reports ($reports files in $logs):"
  for f in "$logs"/*; do
    echo "=== $f"
    head -n 60 "$f"
  done
fi
echo "sanitizer build: $((built - start)) s, lit under ASan+UBSan: $((done_at - built)) s"
echo "${passed:-0} passed, ${failed} failed, ${reports} sanitizer reports"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "${passed:-0}" -eq 0 ] ||
   [ "$reports" -ne 0 ]; then
  exit 1
fi
