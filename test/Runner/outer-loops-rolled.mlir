// LLVM's pipeline for the lowered code (LLVMOptimizer.cpp, used by the JIT
// and quant-compile) gives every loop that holds another loop
// llvm.loop.unroll.runtime.disable before its loop unroller runs: the loop a
// thread runs over its share of a distributed nest (here the packing of the
// constant b, a 768 x 3072 splat, hoisted to the first call; its bounds
// come from the OpenMP runtime) is not copied per unrolled step, with a
// remainder copy (`.epil` blocks) besides. Before, LLVM's -O3 made three
// copies of that packing loop and five of the packing of a.
// RUN: quant-compile %s --parallel --const-eval=false -o %t.o -print-after=loop-unroll -filter-print-funcs=qmm_constant_b..omp_par 2>&1 | FileCheck %s --check-prefix=PACK
// RUN: quant-compile %s --parallel --const-eval=false -o %t.o -print-after=loop-unroll -print-module-scope 2>&1 | FileCheck %s --check-prefix=META
// PACK: IR Dump After LoopUnrollPass on qmm_constant_b..omp_par
// PACK-NOT: .epil:
// (LLVM marks loops it vectorized with the same string without an operand.)
// META: !{!"llvm.loop.unroll.runtime.disable", i32 0}
func.func @qmm_constant_b(%a: tensor<128x768xui8>, %sa: tensor<f32>, %za: tensor<ui8>, %sb: tensor<f32>, %zb: tensor<si8>, %sy: tensor<f32>, %zy: tensor<ui8>) -> tensor<128x3072xui8> {
  %b = arith.constant dense<5> : tensor<768x3072xsi8>
  %y = qops.qlinear_matmul a(%a, %sa, %za : tensor<128x768xui8>, tensor<f32>, tensor<ui8>) b(%b, %sb, %zb : tensor<768x3072xsi8>, tensor<f32>, tensor<si8>) y(%sy, %zy : tensor<f32>, tensor<ui8>) -> tensor<128x3072xui8>
  return %y : tensor<128x3072xui8>
}
