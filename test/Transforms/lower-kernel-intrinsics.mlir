// RUN: quant-opt %s --qops-lower-kernel-intrinsics=target-triple=x86_64-unknown-linux-gnu --split-input-file | FileCheck %s

// 8 lanes: the 256-bit VPDPBUSD, byte operands as LLVM 22 declares them.
// CHECK-LABEL: func.func @ymm
// CHECK-SAME: (%[[ACC:.*]]: vector<8xi32>, %[[A:.*]]: vector<8xi32>, %[[B:.*]]: vector<8xi32>)
// CHECK: %[[AB:.*]] = llvm.bitcast %[[A]] : vector<8xi32> to vector<32xi8>
// CHECK: %[[BB:.*]] = llvm.bitcast %[[B]] : vector<8xi32> to vector<32xi8>
// CHECK: %[[R:.*]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.256"(%[[ACC]], %[[AB]], %[[BB]]) : (vector<8xi32>, vector<32xi8>, vector<32xi8>) -> vector<8xi32>
// CHECK: return %[[R]]
func.func @ymm(%acc: vector<8xi32>, %a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi32> {
  %r = qkernel.dot_u8s8_quads %acc, %a, %b : vector<8xi32>
  return %r : vector<8xi32>
}

// -----

// 16 lanes: the 512-bit form.
// CHECK-LABEL: func.func @zmm
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"({{.*}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK-NOT: qkernel.dot_u8s8_quads
func.func @zmm(%acc: vector<16xi32>, %a: vector<16xi32>, %b: vector<16xi32>) -> vector<16xi32> {
  %r = qkernel.dot_u8s8_quads %acc, %a, %b : vector<16xi32>
  return %r : vector<16xi32>
}


// -----

// pair_sums_fit_i16 (the maddubs strategy, b checked when compiled): no
// VNNI needed: VPMADDUBSW (u8 a first, s8 b second; pairs into i16, which
// cannot saturate here), VPMADDWD by ones (pairs of pairs into i32), then
// the add.
// CHECK-LABEL: func.func @pair_sums_ymm
// CHECK-SAME: (%[[ACC:.*]]: vector<8xi32>, %[[A:.*]]: vector<8xi32>, %[[B:.*]]: vector<8xi32>)
// CHECK: %[[AB:.*]] = llvm.bitcast %[[A]] : vector<8xi32> to vector<32xi8>
// CHECK: %[[BB:.*]] = llvm.bitcast %[[B]] : vector<8xi32> to vector<32xi8>
// CHECK: %[[PAIRS:.*]] = llvm.call_intrinsic "llvm.x86.avx2.pmadd.ub.sw"(%[[AB]], %[[BB]]) : (vector<32xi8>, vector<32xi8>) -> vector<16xi16>
// CHECK: %[[ONES:.*]] = llvm.mlir.constant(dense<1> : vector<16xi16>) : vector<16xi16>
// CHECK: %[[QUADS:.*]] = llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"(%[[PAIRS]], %[[ONES]]) : (vector<16xi16>, vector<16xi16>) -> vector<8xi32>
// CHECK: %[[R:.*]] = llvm.add %[[ACC]], %[[QUADS]] : vector<8xi32>
// CHECK: return %[[R]]
// CHECK-NOT: vpdpbusd
func.func @pair_sums_ymm(%acc: vector<8xi32>, %a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi32> {
  %r = qkernel.dot_u8s8_quads %acc, %a, %b {pair_sums_fit_i16} : vector<8xi32>
  return %r : vector<8xi32>
}

// -----

// CHECK-LABEL: func.func @pair_sums_zmm
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.pmaddubs.w.512"({{.*}}) : (vector<64xi8>, vector<64xi8>) -> vector<32xi16>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"({{.*}}) : (vector<32xi16>, vector<32xi16>) -> vector<16xi32>
func.func @pair_sums_zmm(%acc: vector<16xi32>, %a: vector<16xi32>, %b: vector<16xi32>) -> vector<16xi32> {
  %r = qkernel.dot_u8s8_quads %acc, %a, %b {pair_sums_fit_i16} : vector<16xi32>
  return %r : vector<16xi32>
}

// -----

// dot_i16_pairs (the madd strategy), on every target: the products of the
// sign-extended lanes, the even and odd ones added (VPMADDWD), then the
// accumulator (VPADDD).
// On x86 the function is marked an int8 kernel (an LLVM function
// attribute: code generation leaves loop strength reduction out for it, as
// for the functions that call VPDPBUSD), its other attributes kept.
// CHECK-LABEL: func.func @i16_pairs
// CHECK-SAME: (%[[ACC:.*]]: vector<8xi32>, %[[A:.*]]: vector<16xi16>, %[[B:.*]]: vector<16xi16>)
// CHECK-SAME: attributes {passthrough = ["noinline", "qops-int8-kernel"]}
// CHECK: %[[AE:.*]] = llvm.sext %[[A]] : vector<16xi16> to vector<16xi32>
// CHECK: %[[BE:.*]] = llvm.sext %[[B]] : vector<16xi16> to vector<16xi32>
// CHECK: %[[P:.*]] = llvm.mul %[[AE]], %[[BE]] : vector<16xi32>
// CHECK: %[[EV:.*]] = llvm.shufflevector %[[P]], %[[P]] [0, 2, 4, 6, 8, 10, 12, 14] : vector<16xi32>
// CHECK: %[[OD:.*]] = llvm.shufflevector %[[P]], %[[P]] [1, 3, 5, 7, 9, 11, 13, 15] : vector<16xi32>
// CHECK: %[[S:.*]] = llvm.add %[[EV]], %[[OD]] : vector<8xi32>
// CHECK: %[[R:.*]] = llvm.add %[[ACC]], %[[S]] : vector<8xi32>
// CHECK: return %[[R]]
func.func @i16_pairs(%acc: vector<8xi32>, %a: vector<16xi16>, %b: vector<16xi16>) -> vector<8xi32> attributes {passthrough = ["noinline"]} {
  %r = qkernel.dot_i16_pairs %acc, %a, %b : vector<16xi16> -> vector<8xi32>
  return %r : vector<8xi32>
}

// -----

// The quads' function is marked the same way (one mark for every x86
// kernel); a function without a kernel op is not.
// CHECK-LABEL: func.func @quads_marked
// CHECK-SAME: attributes {passthrough = ["qops-int8-kernel"]}
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.256"
// CHECK-LABEL: func.func @no_kernel
// CHECK-NOT: qops-int8-kernel
// CHECK: return
func.func @quads_marked(%acc: vector<8xi32>, %a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi32> {
  %r = qkernel.dot_u8s8_quads %acc, %a, %b : vector<8xi32>
  return %r : vector<8xi32>
}
func.func @no_kernel(%acc: vector<8xi32>) -> vector<8xi32> {
  return %acc : vector<8xi32>
}
