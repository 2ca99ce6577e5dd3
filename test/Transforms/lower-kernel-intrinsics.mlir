// RUN: quant-opt %s --qops-lower-kernel-intrinsics=target-triple=x86_64-unknown-linux-gnu --split-input-file | FileCheck %s

// 8 lanes: the 256-bit VPDPBUSD, byte operands as LLVM 22 declares them.
// CHECK-LABEL: func.func @ymm
// CHECK-SAME: (%[[ACC:.*]]: vector<8xi32>, %[[A:.*]]: vector<8xi32>, %[[B:.*]]: vector<8xi32>)
// CHECK: %[[AB:.*]] = llvm.bitcast %[[A]] : vector<8xi32> to vector<32xi8>
// CHECK: %[[BB:.*]] = llvm.bitcast %[[B]] : vector<8xi32> to vector<32xi8>
// CHECK: %[[R:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.256"(%[[ACC]], %[[AB]], %[[BB]]) : (vector<8xi32>, vector<32xi8>, vector<32xi8>) -> vector<8xi32>
// CHECK: return %[[R]]
func.func @ymm(%acc: vector<8xi32>, %a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi32> {
  %r = qops.dot_u8s8_quads %acc, %a, %b : vector<8xi32>
  return %r : vector<8xi32>
}

// -----

// 16 lanes: the 512-bit form.
// CHECK-LABEL: func.func @zmm
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"({{.*}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK-NOT: qops.dot_u8s8_quads
func.func @zmm(%acc: vector<16xi32>, %a: vector<16xi32>, %b: vector<16xi32>) -> vector<16xi32> {
  %r = qops.dot_u8s8_quads %acc, %a, %b : vector<16xi32>
  return %r : vector<16xi32>
}

