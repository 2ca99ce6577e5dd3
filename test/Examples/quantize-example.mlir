// The README's example file stays valid IR.
// RUN: quant-opt %quantops_src/examples/quantize.mlir | FileCheck %s

// CHECK-LABEL: func.func @quantize_per_tensor
// CHECK: qops.quantize_linear
// CHECK-LABEL: func.func @dequantize_blocked_int4
// CHECK: qops.dequantize_linear {{.*}} axis = -1 block_size = 32
// CHECK-LABEL: func.func @dynamic_quantize
// CHECK: qops.dynamic_quantize_linear
// CHECK-LABEL: func.func @qlinear_matmul
// CHECK: qops.qlinear_matmul
