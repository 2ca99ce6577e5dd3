// RUN: quant-opt %s --qops-lower-kernel-intrinsics=target-triple=aarch64-linux-gnu --split-input-file | FileCheck %s --check-prefix=ARM
// RUN: %expect_exit 1 quant-opt %s --qops-lower-kernel-intrinsics=target-triple=x86_64-unknown-linux-gnu --split-input-file 2>&1 | FileCheck %s --check-prefix=NOX86

// AArch64: each 4-lane quarter is one USDOT (u8 x s8) or SDOT (s8 x s8) on
// <16 x i8>, the quarters joined again.
// ARM-LABEL: func.func @neon
// ARM: llvm.call_intrinsic "llvm.aarch64.neon.usdot"({{.*}}) : (vector<4xi32>, vector<16xi8>, vector<16xi8>) -> vector<4xi32>
// ARM: llvm.call_intrinsic "llvm.aarch64.neon.usdot"({{.*}}) : (vector<4xi32>, vector<16xi8>, vector<16xi8>) -> vector<4xi32>
// ARM: llvm.shufflevector {{.*}} [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xi32>
// ARM: llvm.call_intrinsic "llvm.aarch64.neon.sdot"
// ARM: llvm.call_intrinsic "llvm.aarch64.neon.sdot"
func.func @neon(%acc: vector<8xi32>, %a: vector<8xi32>, %b: vector<8xi32>) -> (vector<8xi32>, vector<8xi32>) {
  %r = qkernel.dot_u8s8_quads %acc, %a, %b : vector<8xi32>
  %s = qkernel.dot_s8s8_quads %acc, %a, %b : vector<8xi32>
  return %r, %s : vector<8xi32>, vector<8xi32>
}

// -----

// USMMLA: the op is one 128-bit register.
// ARM-LABEL: func.func @neon_mmla
// ARM: %[[A:.*]] = llvm.bitcast %{{.*}} : vector<4xi32> to vector<16xi8>
// ARM: %[[B:.*]] = llvm.bitcast %{{.*}} : vector<4xi32> to vector<16xi8>
// ARM: llvm.call_intrinsic "llvm.aarch64.neon.usmmla"(%{{.*}}, %[[A]], %[[B]]) : (vector<4xi32>, vector<16xi8>, vector<16xi8>) -> vector<4xi32>
func.func @neon_mmla(%acc: vector<4xi32>, %a: vector<4xi32>, %b: vector<4xi32>) -> vector<4xi32> {
  %r = qkernel.mmla_u8s8 %acc, %a, %b : vector<4xi32>
  return %r : vector<4xi32>
}

// -----

// x86 has no USMMLA.
// NOX86: error: 'qkernel.mmla_u8s8' op has no instruction on target 'x86_64-unknown-linux-gnu'
func.func @mmla_on_x86(%v: vector<4xi32>) -> vector<4xi32> {
  %s = qkernel.mmla_u8s8 %v, %v, %v : vector<4xi32>
  return %s : vector<4xi32>
}

// -----

// x86 has no s8 x s8 quad instruction here (VPDPBSSD is AVX-VNNI-INT8).
// NOX86: error: 'qkernel.dot_s8s8_quads' op has no instruction on target 'x86_64-unknown-linux-gnu'
func.func @signed_on_x86(%v: vector<8xi32>) -> vector<8xi32> {
  %s = qkernel.dot_s8s8_quads %v, %v, %v : vector<8xi32>
  return %s : vector<8xi32>
}

// -----

// dot_i16_pairs is lowered on AArch64 too (LLVM selects SMULL / SMLAL
// pairs there); the function is not marked an int8 kernel (the mark
// leaves loop strength reduction out, measured on x86 only).
// ARM-LABEL: func.func @pairs_on_arm
// ARM-NOT: qops-int8-kernel
// ARM: llvm.mul %{{.*}}, %{{.*}} : vector<8xi32>
// ARM: llvm.add %{{.*}}, %{{.*}} : vector<4xi32>
// ARM-NOT: qkernel.dot_i16_pairs
func.func @pairs_on_arm(%acc: vector<4xi32>, %a: vector<8xi16>) -> vector<4xi32> {
  %r = qkernel.dot_i16_pairs %acc, %a, %a : vector<8xi16> -> vector<4xi32>
  return %r : vector<4xi32>
}
