#!/usr/bin/env bash
# Builds QuantOps if needed and runs the whole test suite (lit: dialect,
# conversion, integration and package tests). Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${BUILD_DIR:-build}
LLVM_PREFIX=${LLVM_PREFIX:-/usr/lib/llvm-22}

start=$(date +%s)
bash scripts/build.sh || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
built=$(date +%s)

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
echo "build: $((built - start)) s, lit: $((done_at - built)) s"
echo "${passed:-0} passed, ${failed} failed"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "${passed:-0}" -eq 0 ]; then
  exit 1
fi
