// AArch64 targets choose: i8mm -> USMMLA (2x2 blocks; USDOT quads on
// request), dotprod -> SDOT, plain NEON -> SMULL pair products (llc on the
// LLVM IR, whose functions carry the CPU and features). Executed under qemu
// in test/Target/aot-aarch64.test.
//
// RUN: quant-opt %S/target-x86-asm.mlir --qops-lower-to-llvm="target-triple=aarch64-linux-gnu target-cpu=neoverse-n1 target-features=+i8mm" | mlir-translate --mlir-to-llvmir | llc -O3 -o %t.i8mm.s
// RUN: FileCheck %s --check-prefix=I8MM < %t.i8mm.s
// RUN: FileCheck %s --check-prefix=I8MM-NONE < %t.i8mm.s
// A 6 x 16 tile: 3 row pairs x 8 column pairs of 2x2 blocks per k-octet.
// I8MM-LABEL: qmm:
// I8MM-COUNT-24: usmmla v{{[0-9]+}}.4s, v{{[0-9]+}}.16b, v{{[0-9]+}}.16b
// I8MM-NONE-NOT: {{usdot|sudot}}
// RUN: quant-opt %S/target-x86-asm.mlir --qops-lower-to-llvm="target-triple=aarch64-linux-gnu target-cpu=neoverse-n1 target-features=+i8mm int8-strategy=usdot" | mlir-translate --mlir-to-llvmir | llc -O3 -o - | FileCheck %s --check-prefix=USDOT
// USDOT-LABEL: qmm:
// USDOT with a broadcast a may print as its by-element twin SUDOT.
// USDOT-COUNT-12: {{usdot|sudot}}
// RUN: quant-opt %S/target-x86-asm.mlir --qops-lower-to-llvm="target-triple=aarch64-linux-gnu target-cpu=neoverse-n1" | mlir-translate --mlir-to-llvmir | llc -O3 -o %t.dotprod.s
// RUN: FileCheck %s --check-prefix=DOTPROD < %t.dotprod.s
// RUN: FileCheck %s --check-prefix=DOTPROD-NONE < %t.dotprod.s
// DOTPROD-LABEL: qmm:
// DOTPROD-COUNT-12: sdot
// DOTPROD-NONE-NOT: {{usdot|sudot|usmmla}}
// RUN: quant-opt %S/target-x86-asm.mlir --qops-lower-to-llvm="target-triple=aarch64-linux-gnu target-cpu=cortex-a72" | mlir-translate --mlir-to-llvmir | llc -O3 -o %t.neon.s
// RUN: FileCheck %s --check-prefix=NEON < %t.neon.s
// RUN: FileCheck %s --check-prefix=NEON-NONE < %t.neon.s
// NEON-LABEL: qmm:
// NEON: smull
// NEON-NONE-NOT: {{s|u}}dot
