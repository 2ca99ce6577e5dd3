// makeLLVMOptimizer (lib/Runner/LLVMOptimizer.cpp) sets functions whose
// loops compute on vectors aside from -O3 for a short pipeline: LLVM's
// scalar clean-up, loop rotation and LICM, indvars, gvn, the unroller,
// instcombine. An x86 int8 kernel (a function qops-lower-kernel-intrinsics
// marked "qops-int8-kernel") gets that pipeline without the unroller: the
// qops pipeline unrolled its loops already, and the unroller's work was
// the optimiser's time on the kernels' thread for no change in their code.
// The two functions below are the same vector loop, one marked: both are
// set aside (no call names them; no -O3 pass such as the vectorizer runs
// on them), both get indvars and gvn, only the unmarked one the unroller.
// -opt-bisect-limit=-1 runs every pass and names each one it is asked
// about. Compiled for a fixed x86 target: no host requirement.
//
// RUN: quant-compile %s --target-triple=x86_64-unknown-linux-gnu --target-cpu=znver3 --const-eval=false -o %t.o -opt-bisect-limit=-1 2>&1 | FileCheck %s

// Set aside: no -O3 pass is run on either.
// CHECK-NOT: loop-vectorize on {{kernel|other}}
// The kernel: indvars, gvn, then instcombine.
// CHECK: BISECT: running pass ({{[0-9]+}}) indvars on loop {{.*}} in function kernel
// CHECK-NEXT: BISECT: running pass ({{[0-9]+}}) gvn on kernel
// CHECK-NEXT: BISECT: running pass ({{[0-9]+}}) instcombine on kernel
// CHECK-NEXT: BISECT: running pass ({{[0-9]+}}) simplifycfg on kernel
// The other: the unroller between gvn and instcombine.
// CHECK: BISECT: running pass ({{[0-9]+}}) indvars on loop {{.*}} in function other
// CHECK-NEXT: BISECT: running pass ({{[0-9]+}}) gvn on other
// CHECK-NEXT: BISECT: running pass ({{[0-9]+}}) loop-unroll on other
// CHECK-NEXT: BISECT: running pass ({{[0-9]+}}) instcombine on other
// CHECK-NOT: loop-unroll on kernel

// The sum of %n vectors of 8 i32 from %p.
llvm.func @kernel(%p: !llvm.ptr, %n: i64) -> vector<8xi32> attributes {passthrough = ["qops-int8-kernel"]} {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %zero = llvm.mlir.constant(dense<0> : vector<8xi32>) : vector<8xi32>
  llvm.br ^loop(%c0, %zero : i64, vector<8xi32>)
^loop(%i: i64, %acc: vector<8xi32>):
  %more = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %more, ^body, ^exit
^body:
  %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, vector<8xi32>
  %v = llvm.load %q : !llvm.ptr -> vector<8xi32>
  %s = llvm.add %acc, %v : vector<8xi32>
  %next = llvm.add %i, %c1 : i64
  llvm.br ^loop(%next, %s : i64, vector<8xi32>)
^exit:
  llvm.return %acc : vector<8xi32>
}

llvm.func @other(%p: !llvm.ptr, %n: i64) -> vector<8xi32> {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %zero = llvm.mlir.constant(dense<0> : vector<8xi32>) : vector<8xi32>
  llvm.br ^loop(%c0, %zero : i64, vector<8xi32>)
^loop(%i: i64, %acc: vector<8xi32>):
  %more = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %more, ^body, ^exit
^body:
  %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, vector<8xi32>
  %v = llvm.load %q : !llvm.ptr -> vector<8xi32>
  %s = llvm.add %acc, %v : vector<8xi32>
  %next = llvm.add %i, %c1 : i64
  llvm.br ^loop(%next, %s : i64, vector<8xi32>)
^exit:
  llvm.return %acc : vector<8xi32>
}
