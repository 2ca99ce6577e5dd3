#!/usr/bin/env bash
# Configures and builds QuantOps in ./build (clang-22 + lld-22; the tools link
# LLVM's and MLIR's static libraries, QUANTOPS_STATIC_LLVM).
# Usage: scripts/build.sh [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${BUILD_DIR:-build}
LLVM_PREFIX=${LLVM_PREFIX:-/usr/lib/llvm-22}

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    "$@"
fi
cmake --build "$BUILD_DIR"
