// Stock mlir-opt (Debian's mlir-opt-22, not quant-opt) with the QuantOps
// plugin: the dialect plugin makes qops parse and verify, the pass plugin
// adds the project's passes and named pipelines. mlir-opt parses its own
// flags before it loads pass plugins, so plugin passes are named in
// --pass-pipeline (a plain --convert-qops-to-linalg flag is not known yet).
// An ASan-instrumented plugin cannot load into the uninstrumented mlir-opt:
// UNSUPPORTED: sanitizers
//
// RUN: mlir-opt --load-dialect-plugin=%qops_plugin %s | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: mlir-opt --load-dialect-plugin=%qops_plugin --load-pass-plugin=%qops_plugin --pass-pipeline='builtin.module(convert-qops-to-linalg)' %s | FileCheck %s --check-prefix=LINALG
// RUN: mlir-opt --load-dialect-plugin=%qops_plugin --load-pass-plugin=%qops_plugin --pass-pipeline='builtin.module(qops-lower-to-llvm{vector-width=16})' %s | FileCheck %s --check-prefix=LLVM
// RUN: mlir-opt --load-dialect-plugin=%qops_plugin --load-pass-plugin=%qops_plugin --pass-pipeline='builtin.module(qops-lower-to-llvm)' %s | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR
// The README's integrator command: fuse a QDQ matmul, lower with threads.
// RUN: mlir-opt --load-dialect-plugin=%qops_plugin --load-pass-plugin=%qops_plugin --pass-pipeline='builtin.module(func.func(qops-fuse-qdq))' %S/Inputs/qdq-matmul.mlir | FileCheck %s --check-prefix=FUSED
// RUN: mlir-opt --load-dialect-plugin=%qops_plugin --load-pass-plugin=%qops_plugin --pass-pipeline='builtin.module(func.func(qops-fuse-qdq), qops-lower-to-llvm{parallel})' %S/Inputs/qdq-matmul.mlir | FileCheck %s --check-prefix=FUSED-LLVM
// FUSED-LABEL: func.func @qdq_matmul
// FUSED: qops.qlinear_matmul
// FUSED-NOT: linalg.matmul
// FUSED-LLVM-LABEL: llvm.func @qdq_matmul
// FUSED-LLVM: omp.parallel
// Without the dialect plugin, stock mlir-opt does not know qops.
// RUN: %expect_exit 1 mlir-opt %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// The plugin's verifier runs in mlir-opt as in quant-opt.
// RUN: mlir-opt --load-dialect-plugin=%qops_plugin %S/Inputs/invalid-in-plugin.mlir -verify-diagnostics

// ROUNDTRIP-LABEL: func.func @quantize
// ROUNDTRIP: qops.quantize_linear %{{.*}}, %{{.*}}, %{{.*}} : tensor<64xf32>, tensor<f32>, tensor<ui8> -> tensor<64xui8>
// LINALG-LABEL: func.func @quantize
// LINALG-SAME: -> tensor<64xi8>
// LINALG: linalg.generic
// LINALG: math.roundeven
// LINALG-NOT: qops.
// LLVM-LABEL: llvm.func @quantize
// LLVM-SAME: qops.signature = (tensor<64xf32>) -> tensor<64xui8>
// LLVM-NOT: qops.{{[a-z_]+}} 
// LLVMIR-LABEL: define {{.*}} @quantize
// NOPLUGIN: Dialect `qops' not found for custom op 'qops.quantize_linear'
func.func @quantize(%x: tensor<64xf32>) -> tensor<64xui8> {
  %s = arith.constant dense<0.25> : tensor<f32>
  %zp = arith.constant dense<128> : tensor<ui8>
  %y = qops.quantize_linear %x, %s, %zp : tensor<64xf32>, tensor<f32>, tensor<ui8> -> tensor<64xui8>
  return %y : tensor<64xui8>
}
