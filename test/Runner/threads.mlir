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
// QLinearMatMul's kernel: one scf.forall over batches x 48-row blocks x
// 256-column chunks; every thread count and the x86 strategies (vnni's
// 32-column zmm panels, avxvnni's 16-column ymm ones, madd) give the
// reference's numbers (the forced strategies only on hosts with VNNI: lit
// features avx512vnni, avxvnni; elsewhere they would repeat the default).
// RUN: %python %S/../Integration/reference/gen_case.py qmm_batch_3x100x70x300 %t/qmm
// RUN: quant-runner %S/../Integration/qlinear-matmul.mlir -e qmm_batch_3x100x70x300 --input %t/qmm/in0.npy --input %t/qmm/in1.npy --input %t/qmm/in2.npy --input %t/qmm/in3.npy --input %t/qmm/in4.npy --input %t/qmm/in5.npy --input %t/qmm/in6.npy --input %t/qmm/in7.npy --expect %t/qmm/out0.npy --threads 1 | FileCheck %s
// RUN: %if avx512vnni || avxvnni %{ quant-runner %S/../Integration/qlinear-matmul.mlir -e qmm_batch_3x100x70x300 --input %t/qmm/in0.npy --input %t/qmm/in1.npy --input %t/qmm/in2.npy --input %t/qmm/in3.npy --input %t/qmm/in4.npy --input %t/qmm/in5.npy --input %t/qmm/in6.npy --input %t/qmm/in7.npy --expect %t/qmm/out0.npy --threads 1 --target-features=-avx512vnni,-avxvnni | FileCheck %s %}
// RUN: quant-runner %S/../Integration/qlinear-matmul.mlir -e qmm_batch_3x100x70x300 --input %t/qmm/in0.npy --input %t/qmm/in1.npy --input %t/qmm/in2.npy --input %t/qmm/in3.npy --input %t/qmm/in4.npy --input %t/qmm/in5.npy --input %t/qmm/in6.npy --input %t/qmm/in7.npy --expect %t/qmm/out0.npy --threads 2 | FileCheck %s
// RUN: %if avx512vnni || avxvnni %{ quant-runner %S/../Integration/qlinear-matmul.mlir -e qmm_batch_3x100x70x300 --input %t/qmm/in0.npy --input %t/qmm/in1.npy --input %t/qmm/in2.npy --input %t/qmm/in3.npy --input %t/qmm/in4.npy --input %t/qmm/in5.npy --input %t/qmm/in6.npy --input %t/qmm/in7.npy --expect %t/qmm/out0.npy --threads 2 --target-features=-avx512vnni,-avxvnni | FileCheck %s %}
// RUN: %if avx512vnni %{ quant-runner %S/../Integration/qlinear-matmul.mlir -e qmm_batch_3x100x70x300 --input %t/qmm/in0.npy --input %t/qmm/in1.npy --input %t/qmm/in2.npy --input %t/qmm/in3.npy --input %t/qmm/in4.npy --input %t/qmm/in5.npy --input %t/qmm/in6.npy --input %t/qmm/in7.npy --expect %t/qmm/out0.npy --threads 2 --target-features=-avx512vnni | FileCheck %s %}
// RUN: quant-runner %S/../Integration/qlinear-matmul.mlir -e qmm_batch_3x100x70x300 --input %t/qmm/in0.npy --input %t/qmm/in1.npy --input %t/qmm/in2.npy --input %t/qmm/in3.npy --input %t/qmm/in4.npy --input %t/qmm/in5.npy --input %t/qmm/in6.npy --input %t/qmm/in7.npy --expect %t/qmm/out0.npy --threads 3 | FileCheck %s
// RUN: %if avx512vnni || avxvnni %{ quant-runner %S/../Integration/qlinear-matmul.mlir -e qmm_batch_3x100x70x300 --input %t/qmm/in0.npy --input %t/qmm/in1.npy --input %t/qmm/in2.npy --input %t/qmm/in3.npy --input %t/qmm/in4.npy --input %t/qmm/in5.npy --input %t/qmm/in6.npy --input %t/qmm/in7.npy --expect %t/qmm/out0.npy --threads 3 --target-features=-avx512vnni,-avxvnni | FileCheck %s %}
// A gemv (3 rows of a, b an argument) with threads: k in 3 chunks of 1024
// rows of b, summed apart and added.
// RUN: %python %S/../Integration/reference/gen_case.py qmm_gemv_split_k %t/gemv
// RUN: quant-runner %S/../Integration/qlinear-matmul.mlir -e qmm_gemv_split_k --input %t/gemv/in0.npy --input %t/gemv/in1.npy --input %t/gemv/in2.npy --input %t/gemv/in3.npy --input %t/gemv/in4.npy --input %t/gemv/in5.npy --input %t/gemv/in6.npy --input %t/gemv/in7.npy --expect %t/gemv/out0.npy --threads 1 | FileCheck %s
// RUN: quant-runner %S/../Integration/qlinear-matmul.mlir -e qmm_gemv_split_k --input %t/gemv/in0.npy --input %t/gemv/in1.npy --input %t/gemv/in2.npy --input %t/gemv/in3.npy --input %t/gemv/in4.npy --input %t/gemv/in5.npy --input %t/gemv/in6.npy --input %t/gemv/in7.npy --expect %t/gemv/out0.npy --threads 2 | FileCheck %s
// RUN: quant-runner %S/../Integration/qlinear-matmul.mlir -e qmm_gemv_split_k --input %t/gemv/in0.npy --input %t/gemv/in1.npy --input %t/gemv/in2.npy --input %t/gemv/in3.npy --input %t/gemv/in4.npy --input %t/gemv/in5.npy --input %t/gemv/in6.npy --input %t/gemv/in7.npy --expect %t/gemv/out0.npy --threads 3 | FileCheck %s
// A gemv whose K has no two 1024-row chunks: the columns split in blocks
// of 512 (three, the last partial).
// RUN: %python %S/../Integration/reference/gen_case.py qmm_gemv_column_blocks %t/gcb
// RUN: quant-runner %S/../Integration/qlinear-matmul.mlir -e qmm_gemv_column_blocks --input %t/gcb/in0.npy --input %t/gcb/in1.npy --input %t/gcb/in2.npy --input %t/gcb/in3.npy --input %t/gcb/in4.npy --input %t/gcb/in5.npy --input %t/gcb/in6.npy --input %t/gcb/in7.npy --expect %t/gcb/out0.npy --threads 1 | FileCheck %s
// RUN: quant-runner %S/../Integration/qlinear-matmul.mlir -e qmm_gemv_column_blocks --input %t/gcb/in0.npy --input %t/gcb/in1.npy --input %t/gcb/in2.npy --input %t/gcb/in3.npy --input %t/gcb/in4.npy --input %t/gcb/in5.npy --input %t/gcb/in6.npy --input %t/gcb/in7.npy --expect %t/gcb/out0.npy --threads 2 | FileCheck %s
// RUN: quant-runner %S/../Integration/qlinear-matmul.mlir -e qmm_gemv_column_blocks --input %t/gcb/in0.npy --input %t/gcb/in1.npy --input %t/gcb/in2.npy --input %t/gcb/in3.npy --input %t/gcb/in4.npy --input %t/gcb/in5.npy --input %t/gcb/in6.npy --input %t/gcb/in7.npy --expect %t/gcb/out0.npy --threads 3 | FileCheck %s
// DynamicQuantizeLinear: with threads, pass 1 reduces chunks into
// partials; each region (chunks, rows left over, tail) holds an extreme.
// RUN: %python %S/../Integration/reference/gen_case.py dql_dyn_leftover_rows_and_tail %t/dql_dyn_leftover_rows_and_tail
// RUN: quant-runner %S/../Integration/dynamic-quantize-linear.mlir -e dql_dyn_leftover_rows_and_tail --input %t/dql_dyn_leftover_rows_and_tail/in0.npy --expect %t/dql_dyn_leftover_rows_and_tail/out0.npy --expect %t/dql_dyn_leftover_rows_and_tail/out1.npy --expect %t/dql_dyn_leftover_rows_and_tail/out2.npy --threads 1 | FileCheck %s --check-prefix=DQL
// RUN: quant-runner %S/../Integration/dynamic-quantize-linear.mlir -e dql_dyn_leftover_rows_and_tail --input %t/dql_dyn_leftover_rows_and_tail/in0.npy --expect %t/dql_dyn_leftover_rows_and_tail/out0.npy --expect %t/dql_dyn_leftover_rows_and_tail/out1.npy --expect %t/dql_dyn_leftover_rows_and_tail/out2.npy --threads 2 | FileCheck %s --check-prefix=DQL
// RUN: quant-runner %S/../Integration/dynamic-quantize-linear.mlir -e dql_dyn_leftover_rows_and_tail --input %t/dql_dyn_leftover_rows_and_tail/in0.npy --expect %t/dql_dyn_leftover_rows_and_tail/out0.npy --expect %t/dql_dyn_leftover_rows_and_tail/out1.npy --expect %t/dql_dyn_leftover_rows_and_tail/out2.npy --threads 3 | FileCheck %s --check-prefix=DQL
// RUN: %python %S/../Integration/reference/gen_case.py dql_dyn_extremes_in_chunks %t/dql_dyn_extremes_in_chunks
// RUN: quant-runner %S/../Integration/dynamic-quantize-linear.mlir -e dql_dyn_extremes_in_chunks --input %t/dql_dyn_extremes_in_chunks/in0.npy --expect %t/dql_dyn_extremes_in_chunks/out0.npy --expect %t/dql_dyn_extremes_in_chunks/out1.npy --expect %t/dql_dyn_extremes_in_chunks/out2.npy --threads 1 | FileCheck %s --check-prefix=DQL
// RUN: quant-runner %S/../Integration/dynamic-quantize-linear.mlir -e dql_dyn_extremes_in_chunks --input %t/dql_dyn_extremes_in_chunks/in0.npy --expect %t/dql_dyn_extremes_in_chunks/out0.npy --expect %t/dql_dyn_extremes_in_chunks/out1.npy --expect %t/dql_dyn_extremes_in_chunks/out2.npy --threads 2 | FileCheck %s --check-prefix=DQL
// RUN: quant-runner %S/../Integration/dynamic-quantize-linear.mlir -e dql_dyn_extremes_in_chunks --input %t/dql_dyn_extremes_in_chunks/in0.npy --expect %t/dql_dyn_extremes_in_chunks/out0.npy --expect %t/dql_dyn_extremes_in_chunks/out1.npy --expect %t/dql_dyn_extremes_in_chunks/out2.npy --threads 3 | FileCheck %s --check-prefix=DQL
// A NaN in any region (a chunk, the rows left over, the tail) makes the scale
// NaN and y 0 (the NaN flag is reduced beside min and max).
// RUN: %python %S/../Integration/reference/gen_case.py dql_dyn_nan_in_chunk %t/dql_dyn_nan_in_chunk
// RUN: quant-runner %S/../Integration/dynamic-quantize-linear.mlir -e dql_dyn_nan_in_chunk --input %t/dql_dyn_nan_in_chunk/in0.npy --expect %t/dql_dyn_nan_in_chunk/out0.npy --expect %t/dql_dyn_nan_in_chunk/out1.npy --expect %t/dql_dyn_nan_in_chunk/out2.npy --threads 1 | FileCheck %s --check-prefix=DQL
// RUN: quant-runner %S/../Integration/dynamic-quantize-linear.mlir -e dql_dyn_nan_in_chunk --input %t/dql_dyn_nan_in_chunk/in0.npy --expect %t/dql_dyn_nan_in_chunk/out0.npy --expect %t/dql_dyn_nan_in_chunk/out1.npy --expect %t/dql_dyn_nan_in_chunk/out2.npy --threads 2 | FileCheck %s --check-prefix=DQL
// RUN: quant-runner %S/../Integration/dynamic-quantize-linear.mlir -e dql_dyn_nan_in_chunk --input %t/dql_dyn_nan_in_chunk/in0.npy --expect %t/dql_dyn_nan_in_chunk/out0.npy --expect %t/dql_dyn_nan_in_chunk/out1.npy --expect %t/dql_dyn_nan_in_chunk/out2.npy --threads 3 | FileCheck %s --check-prefix=DQL
// RUN: %python %S/../Integration/reference/gen_case.py dql_dyn_nan_in_leftover_rows %t/dql_dyn_nan_in_leftover_rows
// RUN: quant-runner %S/../Integration/dynamic-quantize-linear.mlir -e dql_dyn_nan_in_leftover_rows --input %t/dql_dyn_nan_in_leftover_rows/in0.npy --expect %t/dql_dyn_nan_in_leftover_rows/out0.npy --expect %t/dql_dyn_nan_in_leftover_rows/out1.npy --expect %t/dql_dyn_nan_in_leftover_rows/out2.npy --threads 1 | FileCheck %s --check-prefix=DQL
// RUN: quant-runner %S/../Integration/dynamic-quantize-linear.mlir -e dql_dyn_nan_in_leftover_rows --input %t/dql_dyn_nan_in_leftover_rows/in0.npy --expect %t/dql_dyn_nan_in_leftover_rows/out0.npy --expect %t/dql_dyn_nan_in_leftover_rows/out1.npy --expect %t/dql_dyn_nan_in_leftover_rows/out2.npy --threads 2 | FileCheck %s --check-prefix=DQL
// RUN: quant-runner %S/../Integration/dynamic-quantize-linear.mlir -e dql_dyn_nan_in_leftover_rows --input %t/dql_dyn_nan_in_leftover_rows/in0.npy --expect %t/dql_dyn_nan_in_leftover_rows/out0.npy --expect %t/dql_dyn_nan_in_leftover_rows/out1.npy --expect %t/dql_dyn_nan_in_leftover_rows/out2.npy --threads 3 | FileCheck %s --check-prefix=DQL
// RUN: %python %S/../Integration/reference/gen_case.py dql_dyn_nan_in_tail %t/dql_dyn_nan_in_tail
// RUN: quant-runner %S/../Integration/dynamic-quantize-linear.mlir -e dql_dyn_nan_in_tail --input %t/dql_dyn_nan_in_tail/in0.npy --expect %t/dql_dyn_nan_in_tail/out0.npy --expect %t/dql_dyn_nan_in_tail/out1.npy --expect %t/dql_dyn_nan_in_tail/out2.npy --threads 1 | FileCheck %s --check-prefix=DQL
// RUN: quant-runner %S/../Integration/dynamic-quantize-linear.mlir -e dql_dyn_nan_in_tail --input %t/dql_dyn_nan_in_tail/in0.npy --expect %t/dql_dyn_nan_in_tail/out0.npy --expect %t/dql_dyn_nan_in_tail/out1.npy --expect %t/dql_dyn_nan_in_tail/out2.npy --threads 2 | FileCheck %s --check-prefix=DQL
// RUN: quant-runner %S/../Integration/dynamic-quantize-linear.mlir -e dql_dyn_nan_in_tail --input %t/dql_dyn_nan_in_tail/in0.npy --expect %t/dql_dyn_nan_in_tail/out0.npy --expect %t/dql_dyn_nan_in_tail/out1.npy --expect %t/dql_dyn_nan_in_tail/out2.npy --threads 3 | FileCheck %s --check-prefix=DQL
// DQL: all 3 results match
// OMP: omp.parallel
// A 1-D op is distributed in chunks of 16384 elements.
// RUN: %python %S/../Integration/reference/gen_case.py quantize_large_1e6_u8 %t/flat
// RUN: quant-runner %S/../Integration/quantize-linear.mlir -e quantize_large_1e6_u8 --input %t/flat/in0.npy --input %t/flat/in1.npy --input %t/flat/in2.npy --expect %t/flat/out0.npy --threads 2 | FileCheck %s
