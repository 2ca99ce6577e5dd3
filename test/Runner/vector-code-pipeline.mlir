// LLVM's pipeline for the lowered code (LLVMOptimizer.cpp, used by the JIT
// and quant-compile) at -O3: a function whose every innermost loop computes
// on vectors (the int8 kernel's and the packings' OpenMP bodies), or that
// has no loop (the C wrapper), and that no call names, gets a short
// pipeline (scalar clean-up, loop rotation, LICM, induction variables, GVN,
// the unroller); -O3's other passes (here the loop vectorizer) do not run
// on it. A function with a scalar innermost loop, or one that a call names
// (the entry, which its C wrapper calls), gets -O3. Below -O3 every
// function gets the level's pipeline. SROA is not in the short pipeline
// (the lowered code leaves it no alloca to promote), -O3 runs it.
// RUN: quant-compile %s --parallel --const-eval=false -o %t.o -print-after=loop-vectorize,loop-unroll,sroa 2>&1 | FileCheck %s --implicit-check-not="LoopVectorizePass on qmm_constant_b..omp_par" --implicit-check-not="SROAPass on qmm_constant_b..omp_par"
// RUN: quant-compile %s --parallel --const-eval=false -O2 -o %t.o -print-after=loop-vectorize 2>&1 | FileCheck %s --check-prefix=O2

// CHECK-LABEL: IR Dump After SROAPass on scalar_loop ***
// CHECK: IR Dump After LoopVectorizePass on scalar_loop ***
// O2: IR Dump After LoopVectorizePass on scalar_loop ***
func.func @scalar_loop(%x: tensor<1000xi32>) -> tensor<1000xi32> {
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  %y = scf.for %i = %c1 to %c1000 step %c1 iter_args(%acc = %x) -> tensor<1000xi32> {
    %im1 = arith.subi %i, %c1 : index
    %p = tensor.extract %acc[%im1] : tensor<1000xi32>
    %v = tensor.extract %acc[%i] : tensor<1000xi32>
    %w = arith.addi %v, %p : i32
    %r = tensor.insert %w into %acc[%i] : tensor<1000xi32>
    scf.yield %r : tensor<1000xi32>
  }
  return %y : tensor<1000xi32>
}

// CHECK-LABEL: IR Dump After LoopVectorizePass on qmm_constant_b ***
// CHECK-DAG: IR Dump After LoopUnrollPass on qmm_constant_b..omp_par ***
// CHECK-DAG: IR Dump After LoopUnrollPass on qmm_constant_b..omp_par.1 ***
// O2: IR Dump After LoopVectorizePass on qmm_constant_b..omp_par
func.func @qmm_constant_b(%a: tensor<32x64xui8>, %sa: tensor<f32>, %za: tensor<ui8>, %sb: tensor<f32>, %zb: tensor<si8>, %sy: tensor<f32>, %zy: tensor<ui8>) -> tensor<32x128xui8> {
  %b = arith.constant dense<5> : tensor<64x128xsi8>
  %y = qops.qlinear_matmul a(%a, %sa, %za : tensor<32x64xui8>, tensor<f32>, tensor<ui8>) b(%b, %sb, %zb : tensor<64x128xsi8>, tensor<f32>, tensor<si8>) y(%sy, %zy : tensor<f32>, tensor<ui8>) -> tensor<32x128xui8>
  return %y : tensor<32x128xui8>
}
