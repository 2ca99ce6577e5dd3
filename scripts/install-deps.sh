#!/usr/bin/env bash
# Installs everything QuantOps needs to build and test on Debian 12 (root or
# sudo): LLVM/MLIR 22, clang-22 + lld-22, CMake, Ninja, Python 3 with NumPy
# (the independent test reference), protobuf (ONNX import), Debian's ONNX
# conformance data and clang's sanitizer/libFuzzer runtimes.
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

PACKAGES=(
  build-essential cmake ninja-build
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22 lld-22
  python3 python3-numpy libomp-22-dev
  # What LLVM's static libraries use, for the tools linked with them
  # (QUANTOPS_STATIC_LLVM): zlib and zstd.
  zlib1g-dev libzstd-dev
  # The Python package's tests (test/Python).
  python3-pytest
  # QDQ models for the tests and bench (scripts/make_qdq_model.py).
  python3-onnx
  # Ahead-of-time code for AArch64 run under user-mode qemu (test/Target).
  qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross
  protobuf-compiler libprotobuf-dev
  libonnx-testdata
  # Sanitizer and libFuzzer runtimes (scripts/test-sanitizers.sh, fuzz.sh).
  libclang-rt-22-dev
)

$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y "${PACKAGES[@]}"
