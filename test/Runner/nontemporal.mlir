// Streaming stores (qops-nontemporal-stores) forced on every result with
// --nontemporal-min-bytes=1: integration cases of each family and shape
// (1-D chunks, odd rows whose stores are not 64-byte aligned, per-axis,
// blocked, f16 outputs, DynamicQuantizeLinear, the QLinearMatMul kernel)
// still give the NumPy reference's numbers, at 2 threads (and at 1 for four
// of them). The RUN lines are those of test/Integration with the flag
// added.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Integration/reference/gen_case.py quantize_large_1e6_u8 %t/quantize_large_1e6_u8
// RUN: quant-runner %S/../Integration/quantize-linear.mlir -e quantize_large_1e6_u8 --input %t/quantize_large_1e6_u8/in0.npy --input %t/quantize_large_1e6_u8/in1.npy --input %t/quantize_large_1e6_u8/in2.npy --expect %t/quantize_large_1e6_u8/out0.npy --nontemporal-min-bytes=1 --threads 1 | FileCheck %s
// RUN: quant-runner %S/../Integration/quantize-linear.mlir -e quantize_large_1e6_u8 --input %t/quantize_large_1e6_u8/in0.npy --input %t/quantize_large_1e6_u8/in1.npy --input %t/quantize_large_1e6_u8/in2.npy --expect %t/quantize_large_1e6_u8/out0.npy --nontemporal-min-bytes=1 --threads 2 | FileCheck %s
// RUN: %python %S/../Integration/reference/gen_case.py quantize_large_per_axis_i4 %t/quantize_large_per_axis_i4
// RUN: quant-runner %S/../Integration/quantize-linear.mlir -e quantize_large_per_axis_i4 --input %t/quantize_large_per_axis_i4/in0.npy --input %t/quantize_large_per_axis_i4/in1.npy --input %t/quantize_large_per_axis_i4/in2.npy --expect %t/quantize_large_per_axis_i4/out0.npy --nontemporal-min-bytes=1 --threads 2 | FileCheck %s
// RUN: %python %S/../Integration/reference/gen_case.py edge_size_1023_per_axis_u16 %t/edge_size_1023_per_axis_u16
// RUN: quant-runner %S/../Integration/edge-values.mlir -e edge_size_1023_per_axis_u16 --input %t/edge_size_1023_per_axis_u16/in0.npy --input %t/edge_size_1023_per_axis_u16/in1.npy --input %t/edge_size_1023_per_axis_u16/in2.npy --expect %t/edge_size_1023_per_axis_u16/out0.npy --nontemporal-min-bytes=1 --threads 2 | FileCheck %s
// RUN: %python %S/../Integration/reference/gen_case.py edge_large_1e6_special %t/edge_large_1e6_special
// RUN: quant-runner %S/../Integration/edge-values.mlir -e edge_large_1e6_special --input %t/edge_large_1e6_special/in0.npy --input %t/edge_large_1e6_special/in1.npy --input %t/edge_large_1e6_special/in2.npy --expect %t/edge_large_1e6_special/out0.npy --nontemporal-min-bytes=1 --threads 2 | FileCheck %s
// RUN: %python %S/../Integration/reference/gen_case.py dequantize_large_1e6_u8 %t/dequantize_large_1e6_u8
// RUN: quant-runner %S/../Integration/dequantize-linear.mlir -e dequantize_large_1e6_u8 --input %t/dequantize_large_1e6_u8/in0.npy --input %t/dequantize_large_1e6_u8/in1.npy --input %t/dequantize_large_1e6_u8/in2.npy --expect %t/dequantize_large_1e6_u8/out0.npy --nontemporal-min-bytes=1 --threads 2 | FileCheck %s
// RUN: %python %S/../Integration/reference/gen_case.py dequantize_blocked_partial_i4_f16 %t/dequantize_blocked_partial_i4_f16
// RUN: quant-runner %S/../Integration/dequantize-linear.mlir -e dequantize_blocked_partial_i4_f16 --input %t/dequantize_blocked_partial_i4_f16/in0.npy --input %t/dequantize_blocked_partial_i4_f16/in1.npy --input %t/dequantize_blocked_partial_i4_f16/in2.npy --expect %t/dequantize_blocked_partial_i4_f16/out0.npy --nontemporal-min-bytes=1 --threads 1 | FileCheck %s
// RUN: quant-runner %S/../Integration/dequantize-linear.mlir -e dequantize_blocked_partial_i4_f16 --input %t/dequantize_blocked_partial_i4_f16/in0.npy --input %t/dequantize_blocked_partial_i4_f16/in1.npy --input %t/dequantize_blocked_partial_i4_f16/in2.npy --expect %t/dequantize_blocked_partial_i4_f16/out0.npy --nontemporal-min-bytes=1 --threads 2 | FileCheck %s
// RUN: %python %S/../Integration/reference/gen_case.py dequantize_per_axis_last_u16 %t/dequantize_per_axis_last_u16
// RUN: quant-runner %S/../Integration/dequantize-linear.mlir -e dequantize_per_axis_last_u16 --input %t/dequantize_per_axis_last_u16/in0.npy --input %t/dequantize_per_axis_last_u16/in1.npy --input %t/dequantize_per_axis_last_u16/in2.npy --expect %t/dequantize_per_axis_last_u16/out0.npy --nontemporal-min-bytes=1 --threads 2 | FileCheck %s
// RUN: %python %S/../Integration/reference/gen_case.py dequantize_blocked_partial_i16 %t/dequantize_blocked_partial_i16
// RUN: quant-runner %S/../Integration/dequantize-linear.mlir -e dequantize_blocked_partial_i16 --input %t/dequantize_blocked_partial_i16/in0.npy --input %t/dequantize_blocked_partial_i16/in1.npy --input %t/dequantize_blocked_partial_i16/in2.npy --expect %t/dequantize_blocked_partial_i16/out0.npy --nontemporal-min-bytes=1 --threads 2 | FileCheck %s
// RUN: %python %S/../Integration/reference/gen_case.py dql_large_1e6 %t/dql_large_1e6
// RUN: quant-runner %S/../Integration/dynamic-quantize-linear.mlir -e dql_large_1e6 --input %t/dql_large_1e6/in0.npy --expect %t/dql_large_1e6/out0.npy --expect %t/dql_large_1e6/out1.npy --expect %t/dql_large_1e6/out2.npy --nontemporal-min-bytes=1 --threads 1 | FileCheck %s
// RUN: quant-runner %S/../Integration/dynamic-quantize-linear.mlir -e dql_large_1e6 --input %t/dql_large_1e6/in0.npy --expect %t/dql_large_1e6/out0.npy --expect %t/dql_large_1e6/out1.npy --expect %t/dql_large_1e6/out2.npy --nontemporal-min-bytes=1 --threads 2 | FileCheck %s
// RUN: %python %S/../Integration/reference/gen_case.py dql_2d %t/dql_2d
// RUN: quant-runner %S/../Integration/dynamic-quantize-linear.mlir -e dql_2d --input %t/dql_2d/in0.npy --expect %t/dql_2d/out0.npy --expect %t/dql_2d/out1.npy --expect %t/dql_2d/out2.npy --nontemporal-min-bytes=1 --threads 2 | FileCheck %s
// RUN: %python %S/../Integration/reference/gen_case.py qmm_batch_3x100x70x300 %t/qmm_batch_3x100x70x300
// RUN: quant-runner %S/../Integration/qlinear-matmul.mlir -e qmm_batch_3x100x70x300 --input %t/qmm_batch_3x100x70x300/in0.npy --input %t/qmm_batch_3x100x70x300/in1.npy --input %t/qmm_batch_3x100x70x300/in2.npy --input %t/qmm_batch_3x100x70x300/in3.npy --input %t/qmm_batch_3x100x70x300/in4.npy --input %t/qmm_batch_3x100x70x300/in5.npy --input %t/qmm_batch_3x100x70x300/in6.npy --input %t/qmm_batch_3x100x70x300/in7.npy --expect %t/qmm_batch_3x100x70x300/out0.npy --nontemporal-min-bytes=1 --threads 1 | FileCheck %s
// RUN: quant-runner %S/../Integration/qlinear-matmul.mlir -e qmm_batch_3x100x70x300 --input %t/qmm_batch_3x100x70x300/in0.npy --input %t/qmm_batch_3x100x70x300/in1.npy --input %t/qmm_batch_3x100x70x300/in2.npy --input %t/qmm_batch_3x100x70x300/in3.npy --input %t/qmm_batch_3x100x70x300/in4.npy --input %t/qmm_batch_3x100x70x300/in5.npy --input %t/qmm_batch_3x100x70x300/in6.npy --input %t/qmm_batch_3x100x70x300/in7.npy --expect %t/qmm_batch_3x100x70x300/out0.npy --nontemporal-min-bytes=1 --threads 2 | FileCheck %s
// CHECK: all {{[0-9]+}} results match
//
// The stores are streamed (the default 8 MiB keeps these small results
// cached, as --dump-lowered without the flag shows).
// RUN: quant-runner %S/../Integration/quantize-linear.mlir -e quantize_large_1e6_u8 --dump-lowered --nontemporal-min-bytes=1 | FileCheck %s --check-prefix=STREAM
// RUN: quant-runner %S/../Integration/quantize-linear.mlir -e quantize_large_1e6_u8 --dump-lowered | FileCheck %s --check-prefix=CACHED
// STREAM: llvm.store {{.*}} {alignment = {{32|64}} : i64, nontemporal} : vector<{{32|64}}xi8>, !llvm.ptr
// STREAM: llvm.call_intrinsic "llvm.x86.sse.sfence"
// CACHED-NOT: nontemporal
// CACHED-NOT: sfence
