// LLVM's pipeline for the lowered code (LLVMOptimizer.cpp) starts by
// freezing the indices OpenMP's translation splits a collapsed loop's index
// into (a urem and a udiv by the inner loop's trip count, in the block
// omp_collapsed.body): the tile offsets are computed from the frozen
// values, which scalar evolution takes as opaque instead of analysing the
// remainder and quotient of the loop's index (half of IndVarSimplify's
// work on this kernel). Here the (row block, column chunk) nest of a
// QLinearMatMul 128x768x3072's kernel, distributed over threads. Compiled
// for a fixed x86 target: no host requirement.
// RUN: quant-compile %s --parallel --const-eval=false --target-triple=x86_64-unknown-linux-gnu --target-cpu=znver4 -o %t.o -print-before=early-cse 2>&1 | FileCheck %s

// CHECK: IR Dump Before EarlyCSEPass on qmm..omp_par
// CHECK: omp_collapsed.body:
// CHECK-NEXT: %[[INDEX:.*]] = add i64 %omp_collapsed.iv
// The row block (3 of 48 rows) and the column chunk (of 160 columns).
// CHECK-NEXT: %[[ROW:.*]] = urem i64 %[[INDEX]], 3
// CHECK-NEXT: %[[ROW_FROZEN:.*]] = freeze i64 %[[ROW]]
// CHECK-NEXT: %[[CHUNK:.*]] = udiv i64 %[[INDEX]], 3
// CHECK-NEXT: %[[CHUNK_FROZEN:.*]] = freeze i64 %[[CHUNK]]
// CHECK-NOT: %[[CHUNK]],
// CHECK: mul i64 %[[CHUNK_FROZEN]], 160
// CHECK-NOT: %[[ROW]],
// CHECK: mul i64 %[[ROW_FROZEN]], 48
func.func @qmm(%a: tensor<128x768xui8>, %sa: tensor<f32>, %za: tensor<ui8>, %b: tensor<768x3072xsi8>, %sb: tensor<f32>, %zb: tensor<si8>, %sy: tensor<f32>, %zy: tensor<ui8>) -> tensor<128x3072xui8> {
  %y = qops.qlinear_matmul a(%a, %sa, %za : tensor<128x768xui8>, tensor<f32>, tensor<ui8>) b(%b, %sb, %zb : tensor<768x3072xsi8>, tensor<f32>, tensor<si8>) y(%sy, %zy : tensor<f32>, tensor<ui8>) -> tensor<128x3072xui8>
  return %y : tensor<128x3072xui8>
}
