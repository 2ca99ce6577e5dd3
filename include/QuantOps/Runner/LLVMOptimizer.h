//===- LLVMOptimizer.h - LLVM's pipeline for the lowered code ---*- C++ -*-===//
//
// The LLVM IR optimisation the JIT (JitSession) and the object writer
// (AotCompile) run on a lowered module: LLVM's default per-module pipeline
// at the optimisation level, as mlir::makeOptimizingTransformer builds it,
// but without the SLP vectorizer. The kernels reach LLVM as vector code
// already (the qops pipeline vectorizes them), so SLP finds nothing to gain
// there while it takes most of the pipeline's time on their large unrolled
// blocks: on Zen 4, QLinearConv 3x3 1x64x56x56 compiled in 241-263 ms with
// it and 169-173 ms without, calls within noise of each other on every
// bench row (docs/Performance.md, "Compile time"). Loops that hold another
// loop are not unrolled by run-time counts (llvm.loop.unroll.runtime.disable,
// added at the pipeline's start): a thread's share of a distributed nest
// became 3 to 5 copies of its inner loop, with no gain at run time
// (docs/Performance.md, "One tile copy, no outer-loop copies").
//
// At -O3, a function that no call names and whose every innermost loop
// computes on vectors (the kernels, packings and elementwise nests the qops
// pipeline vectorized), or that has no loop (the entry's glue), gets a
// short pipeline instead (clean-up, loop rotation, LICM, induction
// variables, GVN, LLVM's unroller): -O3's vectorizers, loop idiom and
// unswitching passes and its interprocedural passes take about half of
// LLVM's optimisation time there and leave the same inner loops. Scalar
// loops (the depthwise QLinearConv's, which -O3 vectorizes) and AMX code
// keep -O3 (docs/Performance.md, "-O3 where it can add something").
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_RUNNER_LLVMOPTIMIZER_H
#define QUANTOPS_RUNNER_LLVMOPTIMIZER_H

#include "llvm/Support/Error.h"

#include <functional>

namespace llvm {
class Function;
class Module;
class TargetMachine;
} // namespace llvm

namespace mlir::qops::runner {

/// A module transformer for the JIT and for object files (ObjectCodegen.h):
/// LLVM's -O`optLevel` pipeline (0-3) without SLP vectorization and
/// without run-time unrolling of outer loops (at -O3 the short pipeline for
/// vector code, above), the indices of OpenMP's collapsed loops frozen first
/// (above -O0: scalar evolution takes them as opaque values), for
/// `targetMachine`, which must outlive it. `kernelsModule`: the module is
/// qops-kernels-apart's (the int8 kernels' nests alone), whose vector code
/// gets the short pipeline without IndVarSimplify on x86.
std::function<llvm::Error(llvm::Module *)>
makeLLVMOptimizer(unsigned optLevel, llvm::TargetMachine *targetMachine,
                  bool kernelsModule = false);

/// Whether LLVM's loop strength reduction can be left out of the code
/// generation of `module`: every defined function with a loop is an x86
/// int8 kernel, a function qops-lower-kernel-intrinsics marked
/// "qops-int8-kernel" (it holds VPDPBUSD, VPMADDUBSW or madd's pair sums;
/// the madd tile's k loop carries b's offset so that its address needs no
/// multiply, the gemv's calls were the same without the pass on Zen 3:
/// docs/Performance.md, "The madd kernel without loop strength
/// reduction"), or code that runs
/// once (the "qops-run-once" attribute of qops-const-eval{at-link}'s
/// packing functions and of their OpenMP regions). The kernels' loops address
/// memory with the offsets the qops pipeline computed; the pass took about
/// 3 ms of the 12 of QLinearMatMul 128x768x3072's kernel part (Zen 4) and
/// left calls of the same speed on every int8 bench row. It is kept
/// wherever another loop is: the float and 4-bit tiles ran up to 12%
/// slower without it, and the packing and elementwise loops were not
/// measured one by one; AMX and AArch64 kernels keep it too (not measured
/// either). docs/Performance.md, "Loop strength reduction where it pays".
bool canSkipLoopStrengthReduction(const llvm::Module &module);

/// Marks the optimized functions of `module` that run once per session
/// (the "qops-run-once" attribute: qops-const-eval{at-link}'s packing
/// functions and their OpenMP regions) noinline and optnone, so that code
/// generation selects their instructions with FastISel and passes them by
/// in its optimizations. QLinearMatMul 128x768x3072's packing part: llc
/// 108.6 -> 81.1 M instructions (31.8 M for an empty module); FFN12's
/// packing, compiled apart beside the lowering, -12.5 ms of its compile,
/// the packing itself as fast (it moves memory). Functions with AMX
/// intrinsics are left as they are (LLVM's AMX lowering needs -O3).
/// docs/Performance.md, "Run-once code selected fast".
void markRunOnceForFastCodegen(llvm::Module &module);

/// Whether `function` is one of LLVM's AMX intrinsics
/// (llvm.x86.tileloadd64.internal, llvm.x86.tdpbusd.internal, ...).
bool isAmxIntrinsic(const llvm::Function &function);

} // namespace mlir::qops::runner

#endif // QUANTOPS_RUNNER_LLVMOPTIMIZER_H
