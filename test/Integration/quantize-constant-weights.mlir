// Float weights quantized in the graph (a QuantizeLinear of a constant, as
// quantization-aware-training exports write them) feeding QLinearMatMul:
// the quantization and the packing of its result are one constant
// expression, computed once at the first call (qops-hoist-constant-
// expressions). The weights hold ties of w / scale and values past the si8
// range. Expected bytes from the NumPy reference (Inputs/qat_weights.py:
// quantize_linear, then qlinear_matmul), never from the compiler.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/qat_weights.py %t
// RUN: quant-opt %t/qat.mlir --qops-configure-target --convert-qops-to-linalg --qops-lower-packing --canonicalize --qops-hoist-constant-expressions | FileCheck %s --check-prefix=HOISTED
// HOISTED-LABEL: func.func @qat_weights
// HOISTED: memref.atomic_rmw maxs
// HOISTED: scf.if
// HOISTED: math.roundeven
// HOISTED: } -> tensor<64x48xi8>
// HOISTED: bufferization.materialize_in_destination
// HOISTED: memref.atomic_rmw assign
//
// RUN: quant-runner %t/qat.mlir -e qat_weights --input %t/a.npy --expect %t/expected.npy | FileCheck %s
// RUN: quant-runner %t/qat.mlir -e qat_weights_twice --input %t/a.npy --expect %t/expected.npy --expect %t/expected.npy | FileCheck %s
// RUN: quant-runner %t/qat.mlir -e qat_weights_twice --threads 1 --input %t/a.npy --expect %t/expected.npy --expect %t/expected.npy | FileCheck %s
// Quantized and packed while compiling (qops-const-eval):
// RUN: quant-runner %t/qat.mlir -e qat_weights_twice --const-eval --input %t/a.npy --expect %t/expected.npy --expect %t/expected.npy | FileCheck %s
// RUN: quant-runner %t/qat.mlir -e qat_weights --const-eval --dump-lowered | FileCheck %s --check-prefix=EVALUATED
// EVALUATED-NOT: llvm.atomicrmw
// EVALUATED: llvm.mlir.global private constant @__qops_hoisted_qat_weights
// EVALUATED-NOT: llvm.atomicrmw
// CHECK: all {{[0-9]+}} results match
