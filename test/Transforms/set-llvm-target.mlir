// RUN: quant-opt %s --qops-set-llvm-target="target-triple=x86_64-unknown-linux-gnu target-cpu=znver3" | FileCheck %s
// RUN: quant-opt %s --qops-set-llvm-target="target-triple=aarch64-linux-gnu target-cpu=neoverse-n1 target-features=+i8mm" | FileCheck %s --check-prefix=ARM
// RUN: %expect_exit 1 quant-opt %s --qops-set-llvm-target="target-triple=x86_64-unknown-linux-gnu target-cpu=cortex-a53" 2>&1 | FileCheck %s --check-prefix=WRONG-CPU
// RUN: %expect_exit 1 quant-opt %s --qops-set-llvm-target="target-triple=nonsense-unknown-none" 2>&1 | FileCheck %s --check-prefix=WRONG-TRIPLE

// The module gets the triple, each definition the CPU (and features when
// given); declarations are left alone.
// CHECK: module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu"}
// CHECK-LABEL: llvm.func @kernel
// CHECK-SAME: target_cpu = "znver3"
// CHECK-NOT: target_features
// CHECK: llvm.func @external
// CHECK-NOT: target_cpu
// ARM: module attributes {llvm.target_triple = "aarch64-linux-gnu"}
// ARM-LABEL: llvm.func @kernel
// ARM-SAME: target_cpu = "neoverse-n1"
// ARM-SAME: target_features = #llvm.target_features<["+i8mm"]>
// WRONG-CPU: error: unknown CPU 'cortex-a53' for target 'x86_64-unknown-linux-gnu'
// WRONG-TRIPLE: error: unknown target triple 'nonsense-unknown-none'
llvm.func @kernel() {
  llvm.return
}
llvm.func @external()
