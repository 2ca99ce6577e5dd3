// quant-runner --target-cpu / --target-features: the kernel strategy and
// LLVM's code follow them; results are the same bytes; a target this CPU
// cannot run, or an unknown one, is a one-line error (exit 2).
//
// RUN: quant-runner %s --print | FileCheck %s
// RUN: quant-runner %s --print --target-features=-avx512vnni,-avxvnni | FileCheck %s
// RUN: quant-runner %s --print --target-cpu=x86-64 | FileCheck %s
// RUN: quant-runner %s --dump-lowered --target-features=-avx512vnni,-avxvnni > %t.madd.mlir
// RUN: FileCheck %s --check-prefix=MADD < %t.madd.mlir
// RUN: FileCheck %s --check-prefix=MADD-NONE < %t.madd.mlir
// MADD: target_features = #llvm.target_features<[{{.*}}"-avx512vnni", "-avxvnni"]>
// MADD-NONE-NOT: vpdpbusd
// CHECK: result 0: tensor<2x3xui8> = {{\[\[}}168, 115, 255], [1, 66, 151]]
//
// RUN: %expect_exit 2 quant-runner %s --target-cpu=no-such-cpu 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: quant-runner: unknown CPU 'no-such-cpu' for target
// RUN: %expect_exit 2 quant-runner %s --target-features=+avx10.2 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: quant-runner: the target ({{.*}}) needs features this CPU lacks, so its code cannot run here: {{.*}}+avx10.2

// ONNX's test_qlinearmatmul_2D (uint8).
func.func @main() -> tensor<2x3xui8> {
  %a = arith.constant dense<[[208, 236, 0, 238], [3, 214, 255, 29]]> : tensor<2x4xui8>
  %as = arith.constant dense<0.0066> : tensor<f32>
  %az = arith.constant dense<113> : tensor<ui8>
  %b = arith.constant dense<[[152, 51, 244], [60, 26, 255], [0, 127, 246], [127, 254, 247]]> : tensor<4x3xui8>
  %bs = arith.constant dense<0.00705> : tensor<f32>
  %bz = arith.constant dense<114> : tensor<ui8>
  %ys = arith.constant dense<0.0107> : tensor<f32>
  %yz = arith.constant dense<118> : tensor<ui8>
  %y = qops.qlinear_matmul a(%a, %as, %az : tensor<2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bz : tensor<4x3xui8>, tensor<f32>, tensor<ui8>) y(%ys, %yz : tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %y : tensor<2x3xui8>
}
