// RUN: quant-opt %s --split-input-file --qops-set-llvm-target | FileCheck %s
// RUN: quant-opt %s --split-input-file --qops-set-llvm-target="target-triple=x86_64-unknown-linux-gnu target-cpu=znver3" | FileCheck %s --check-prefix=OPTION
// RUN: quant-opt %s --split-input-file --qops-lower-kernel-intrinsics | FileCheck %s --check-prefix=INTRINSICS

// The passes after qops-configure-target with no target option compile for
// the module's configured target (qops.target); an option still wins.
// qops-set-llvm-target, the last reader, moves the target onto the LLVM
// module and drops qops.target (stock mlir-translate reads the result).
// CHECK: module attributes {llvm.target_triple = "aarch64-linux-gnu"} {
// CHECK-NOT: qops.target
// CHECK: llvm.func @f() attributes {target_cpu = "neoverse-n1"}
// OPTION: module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu"} {
// OPTION-NOT: qops.target
// OPTION: llvm.func @f() attributes {target_cpu = "znver3"}
module attributes {qops.target = {cpu = "neoverse-n1", features = "", int8_strategy = #qops.int8_strategy<sdot>, triple = "aarch64-linux-gnu"}} {
  llvm.func @f() {
    llvm.return
  }
}

// -----

// qops-lower-kernel-intrinsics takes the configured AArch64 triple on this
// x86 host: SDOT per 4 lanes, not VPDPBUSD. (qops-set-llvm-target on this
// module, which holds no LLVM op, crashed before the pass declared its
// dependence on the LLVM dialect: the first RUN line runs it.)
// INTRINSICS-LABEL: func.func @quads
// INTRINSICS: llvm.call_intrinsic "llvm.aarch64.neon.sdot"
// INTRINSICS-NOT: vpdpbusd
module attributes {qops.target = {cpu = "neoverse-n1", features = "", int8_strategy = #qops.int8_strategy<sdot>, triple = "aarch64-linux-gnu"}} {
  func.func @quads(%acc: vector<8xi32>, %a: vector<8xi32>, %b: vector<8xi32>) -> vector<8xi32> {
    %r = qkernel.dot_s8s8_quads %acc, %a, %b : vector<8xi32>
    return %r : vector<8xi32>
  }
}
