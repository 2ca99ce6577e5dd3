// LLVM's loop strength reduction is left out of the code generation of a
// part whose every function with a loop is an x86 int8 kernel (one
// qops-lower-kernel-intrinsics marked "qops-int8-kernel": it holds VPDPBUSD
// here, the madd kernel's pair sums in Inputs/pairs-loop.mlir):
// canSkipLoopStrengthReduction in LLVMOptimizer.cpp, the part's code
// generation passes built without it (CodegenPassManager in
// ObjectCodegen.cpp), so that the analysis only it requires (induction
// variable users) is not run either. The same loop with an add instead of
// the dot product keeps both; in a function marked to run once (the
// "qops-run-once" attribute of qops-const-eval{at-link}'s packing
// functions) it leaves them out too. -opt-bisect-limit=-1 runs every pass
// and names each one it is asked about; -debug-pass=Structure prints the code
// generation pipeline. Compiled for a fixed x86 target: no host requirement.
// Code generation also selects the run-once function's instructions with
// FastISel: it is optnone from there on (markRunOnceForFastCodegen), which
// LLVM's IR printer shows before CodeGen Prepare; the kernel is not.
//
// RUN: quant-compile %s --target-triple=x86_64-unknown-linux-gnu --target-cpu=znver4 --const-eval=false -o %t.o -opt-bisect-limit=-1 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: quant-compile %S/Inputs/add-loop.mlir --target-triple=x86_64-unknown-linux-gnu --target-cpu=znver4 --const-eval=false -o %t.add.o -opt-bisect-limit=-1 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: quant-compile %s --target-triple=x86_64-unknown-linux-gnu --target-cpu=znver4 --const-eval=false -o %t.o -debug-pass=Structure 2>&1 | FileCheck %s --check-prefix=KERNEL-PIPELINE
// RUN: quant-compile %S/Inputs/add-loop.mlir --target-triple=x86_64-unknown-linux-gnu --target-cpu=znver4 --const-eval=false -o %t.add.o -debug-pass=Structure 2>&1 | FileCheck %s --check-prefix=OTHER-PIPELINE
// RUN: quant-compile %S/Inputs/pairs-loop.mlir --target-triple=x86_64-unknown-linux-gnu --target-cpu=znver3 --const-eval=false -o %t.pairs.o -opt-bisect-limit=-1 2>&1 | FileCheck %s --check-prefix=PAIRS
// RUN: quant-compile %S/Inputs/pairs-loop.mlir --target-triple=x86_64-unknown-linux-gnu --target-cpu=znver3 --const-eval=false -o %t.pairs.o -debug-pass=Structure 2>&1 | FileCheck %s --check-prefix=PAIRS-PIPELINE
// RUN: quant-compile %S/Inputs/run-once-loop.mlir --target-triple=x86_64-unknown-linux-gnu --target-cpu=znver4 --const-eval=false -o %t.once.o -opt-bisect-limit=-1 2>&1 | FileCheck %s --check-prefix=ONCE
// RUN: quant-compile %S/Inputs/run-once-loop.mlir --target-triple=x86_64-unknown-linux-gnu --target-cpu=znver4 --const-eval=false -o %t.once.o -debug-pass=Structure 2>&1 | FileCheck %s --check-prefix=ONCE-PIPELINE
// RUN: quant-compile %S/Inputs/run-once-loop.mlir --target-triple=x86_64-unknown-linux-gnu --target-cpu=znver4 --const-eval=false -o %t.once.o -print-before=codegenprepare 2>&1 | FileCheck %s --check-prefix=ONCE-FAST
// RUN: quant-compile %s --target-triple=x86_64-unknown-linux-gnu --target-cpu=znver4 --const-eval=false -o %t.o -print-before=codegenprepare 2>&1 | FileCheck %s --check-prefix=KERNEL-FAST

// The optimiser's passes are still there, and still asked about.
// KERNEL: BISECT: running pass ({{[0-9]+}}) instcombine on dot
// KERNEL-NOT: Loop Strength Reduction
// OTHER: BISECT: running pass ({{[0-9]+}}) instcombine on add_loop
// OTHER: BISECT: running pass ({{[0-9]+}}) Loop Strength Reduction on loop
// ONCE: BISECT: running pass ({{[0-9]+}}) instcombine on run_once_loop
// PAIRS: BISECT: running pass ({{[0-9]+}}) instcombine on pairs
// PAIRS-NOT: Loop Strength Reduction
// ONCE-NOT: Loop Strength Reduction

// The loop passes come before instruction selection.
// KERNEL-PIPELINE-NOT: Induction Variable Users
// KERNEL-PIPELINE-NOT: Loop Strength Reduction
// KERNEL-PIPELINE: X86 DAG->DAG Instruction Selection
// OTHER-PIPELINE: Induction Variable Users
// OTHER-PIPELINE: Loop Strength Reduction
// OTHER-PIPELINE: X86 DAG->DAG Instruction Selection
// PAIRS-PIPELINE-NOT: Induction Variable Users
// PAIRS-PIPELINE-NOT: Loop Strength Reduction
// PAIRS-PIPELINE: X86 DAG->DAG Instruction Selection
// ONCE-PIPELINE-NOT: Induction Variable Users
// ONCE-PIPELINE-NOT: Loop Strength Reduction
// ONCE-PIPELINE: X86 DAG->DAG Instruction Selection

// The run-once function reaches code generation optnone; the kernel does not.
// ONCE-FAST: ; Function Attrs: {{.*}}noinline {{.*}}optnone
// ONCE-FAST-NEXT: define {{.*}} @run_once_loop(
// KERNEL-FAST-NOT: optnone
// KERNEL-FAST: define {{.*}} @dot(
// KERNEL-FAST-NOT: optnone
func.func @dot(%a: tensor<?x64xi8>, %b: tensor<?x64xi8>) -> tensor<16xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0 : i8
  %n = tensor.dim %a, %c0 : tensor<?x64xi8>
  %zero = arith.constant dense<0> : vector<16xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> vector<16xi32> {
    %va = vector.transfer_read %a[%i, %c0], %pad {in_bounds = [true]} : tensor<?x64xi8>, vector<64xi8>
    %vb = vector.transfer_read %b[%i, %c0], %pad {in_bounds = [true]} : tensor<?x64xi8>, vector<64xi8>
    %wa = vector.bitcast %va : vector<64xi8> to vector<16xi32>
    %wb = vector.bitcast %vb : vector<64xi8> to vector<16xi32>
    %d = qkernel.dot_u8s8_quads %acc, %wa, %wb : vector<16xi32>
    scf.yield %d : vector<16xi32>
  }
  %e = tensor.empty() : tensor<16xi32>
  %y = vector.transfer_write %r, %e[%c0] {in_bounds = [true]} : vector<16xi32>, tensor<16xi32>
  return %y : tensor<16xi32>
}
