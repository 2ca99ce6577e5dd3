// --threads N: results are identical for every thread count (the outer
// loops run under OpenMP when N > 1), and --threads 1 needs no libomp.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Integration/reference/gen_case.py quantize_large_per_axis_i4 %t/q
// RUN: quant-runner %S/../Integration/quantize-linear.mlir -e quantize_large_per_axis_i4 --input %t/q/in0.npy --input %t/q/in1.npy --input %t/q/in2.npy --expect %t/q/out0.npy --threads 1 | FileCheck %s
// RUN: quant-runner %S/../Integration/quantize-linear.mlir -e quantize_large_per_axis_i4 --input %t/q/in0.npy --input %t/q/in1.npy --input %t/q/in2.npy --expect %t/q/out0.npy --threads 2 | FileCheck %s
// RUN: quant-runner %S/../Integration/quantize-linear.mlir -e quantize_large_per_axis_i4 --input %t/q/in0.npy --input %t/q/in1.npy --input %t/q/in2.npy --expect %t/q/out0.npy --threads=3 | FileCheck %s
// RUN: quant-runner %S/../Integration/quantize-linear.mlir -e quantize_large_per_axis_i4 --dump-lowered --threads 2 | FileCheck %s --check-prefix=OMP
// CHECK: all 1 results match
// OMP: omp.parallel
// A 1-D op is distributed in chunks of 16384 elements.
// RUN: %python %S/../Integration/reference/gen_case.py quantize_large_1e6_u8 %t/flat
// RUN: quant-runner %S/../Integration/quantize-linear.mlir -e quantize_large_1e6_u8 --input %t/flat/in0.npy --input %t/flat/in1.npy --input %t/flat/in2.npy --expect %t/flat/out0.npy --threads 2 | FileCheck %s
