// MatMulInteger with constant weights (b and its zero point constants, as
// quantize_dynamic writes them): b is packed once, at the first call. Expected values
// from the NumPy reference (Inputs/matmul_integer_const_b.py), never from
// the compiler. small_b's weights are in [-64, 63]: on an AVX2 host without
// VNNI (maddubs) its kernel multiplies with VPMADDUBSW, which the PAIRS
// check shows; the other cases keep madd there.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/matmul_integer_const_b.py %t
// RUN: quant-opt %t/constant_b.mlir --convert-qops-to-linalg=int8-strategy=maddubs | FileCheck %s --check-prefix=PAIRS
// PAIRS-LABEL: func.func @small_b
// PAIRS: qkernel.dot_u8s8_quads {{.*}} {pair_sums_fit_i16}
// PAIRS-LABEL: func.func @wide_b
// PAIRS-NOT: qkernel.dot_u8s8_quads
// PAIRS-LABEL: func.func @wide_b_twice
//
// RUN: quant-runner %t/constant_b.mlir -e small_b --input %t/small_b_a.npy --expect %t/small_b_expected.npy | FileCheck %s
// RUN: quant-runner %t/constant_b.mlir -e wide_b --input %t/wide_b_a.npy --expect %t/wide_b_expected.npy | FileCheck %s
// RUN: quant-runner %t/constant_b.mlir -e ui8_b --input %t/ui8_b_a.npy --expect %t/ui8_b_expected.npy | FileCheck %s
// RUN: quant-runner %t/constant_b.mlir -e gemv --input %t/gemv_a.npy --expect %t/gemv_expected.npy | FileCheck %s
// Two calls in one run (the packing is computed by the first, read by the
// second), on every core and on one:
// RUN: quant-runner %t/constant_b.mlir -e small_b_twice --input %t/small_b_a.npy --expect %t/small_b_expected.npy --expect %t/small_b_expected.npy | FileCheck %s
// RUN: quant-runner %t/constant_b.mlir -e wide_b_twice --threads 1 --input %t/wide_b_a.npy --expect %t/wide_b_expected.npy --expect %t/wide_b_expected.npy | FileCheck %s
// RUN: quant-runner %t/constant_b.mlir -e gemv_twice --input %t/gemv_a.npy --expect %t/gemv_expected.npy --expect %t/gemv_expected.npy | FileCheck %s
// Packed while the session is made instead (qops-const-eval: the packing
// IR run before the first call), on every core and on one:
// RUN: quant-runner %t/constant_b.mlir -e small_b_twice --const-eval --input %t/small_b_a.npy --expect %t/small_b_expected.npy --expect %t/small_b_expected.npy | FileCheck %s
// RUN: quant-runner %t/constant_b.mlir -e wide_b_twice --const-eval --threads 1 --input %t/wide_b_a.npy --expect %t/wide_b_expected.npy --expect %t/wide_b_expected.npy | FileCheck %s
// RUN: quant-runner %t/constant_b.mlir -e gemv_twice --const-eval --input %t/gemv_a.npy --expect %t/gemv_expected.npy --expect %t/gemv_expected.npy | FileCheck %s
// RUN: quant-runner %t/constant_b.mlir -e equal_b_twice --input %t/equal_b_a.npy --expect %t/equal_b_expected.npy --expect %t/equal_b_expected.npy | FileCheck %s
// RUN: quant-runner %t/constant_b.mlir -e equal_b_twice --const-eval --input %t/equal_b_a.npy --expect %t/equal_b_expected.npy --expect %t/equal_b_expected.npy | FileCheck %s
// Lowered alone (--dump-lowered: the pipeline's join), the two packed
// values are splat constants:
// RUN: quant-runner %t/constant_b.mlir -e equal_b --const-eval --dump-lowered | FileCheck %s --check-prefix=SPLATS
// SPLATS-COUNT-2: llvm.mlir.global private constant @__qops_hoisted_equal_b{{(_[0-9]+)?}}(dense<{{-?[0-9]+}}> : tensor<
// SPLATS-NOT: @__qops_hoisted_equal_b{{.*}}_state
// quant-runner keeps the packing as functions of the module
// (qops-const-eval{at-link}) and runs them once linked, into memory of the
// session's that the packed globals are bound to: the object cache stores
// the values, a member of the entry's archive, and a hit binds them again
// (the functions do not run again).
// RUN: quant-runner %t/constant_b.mlir -e wide_b_twice --const-eval --cache-dir %t/cache --timing --input %t/wide_b_a.npy --expect %t/wide_b_expected.npy --expect %t/wide_b_expected.npy 2>&1 | FileCheck %s --check-prefixes=CHECK,STORE
// STORE: cache store
// RUN: llvm-ar t %t/cache/*.o | FileCheck %s --check-prefix=MEMBERS
// MEMBERS: __qops_hoisted_wide_b.data
// RUN: quant-runner %t/constant_b.mlir -e wide_b_twice --const-eval --cache-dir %t/cache --timing --input %t/wide_b_a.npy --expect %t/wide_b_expected.npy --expect %t/wide_b_expected.npy 2>&1 | FileCheck %s --check-prefixes=CHECK,HIT
// HIT: object cache hit
// The weights before packing (the gemv's 300 x 48, stored outside the code)
// are read by the packing only: stored as zero pages, never read again.
// RUN: quant-runner %t/constant_b.mlir -e gemv_twice --const-eval --cache-dir %t/cache-gemv --timing --input %t/gemv_a.npy --expect %t/gemv_expected.npy --expect %t/gemv_expected.npy 2>&1 | FileCheck %s --check-prefixes=CHECK,STORE
// RUN: llvm-ar t %t/cache-gemv/*.o | FileCheck %s --check-prefix=SPENT
// SPENT-DAG: __constant_{{(1x)?}}300x48xi8.zero
// SPENT-DAG: __qops_hoisted_gemv{{.*}}.data
// RUN: quant-runner %t/constant_b.mlir -e gemv_twice --const-eval --cache-dir %t/cache-gemv --timing --input %t/gemv_a.npy --expect %t/gemv_expected.npy --expect %t/gemv_expected.npy 2>&1 | FileCheck %s --check-prefixes=CHECK,HIT
// Every case in one entry: its packed globals (at least eight on every x86
// strategy: maddubs 9, vnni 11) are many enough that
// quant-runner compiles the packing apart, on the other core while the
// module is lowered (its globals renamed apart from the module's), and
// links it with the module's code.
// DEFINE: %{all} = --input %t/small_b_a.npy --input %t/wide_b_a.npy --input %t/ui8_b_a.npy --input %t/gemv_a.npy --input %t/equal_b_a.npy --input %t/small_tall_b_a.npy --expect %t/small_b_expected.npy --expect %t/wide_b_expected.npy --expect %t/ui8_b_expected.npy --expect %t/gemv_expected.npy --expect %t/equal_b_expected.npy --expect %t/small_tall_b_expected.npy
// RUN: quant-runner %t/constant_b.mlir -e all_cases --const-eval %{all} | FileCheck %s
// RUN: quant-runner %t/constant_b.mlir -e all_cases --const-eval --threads 1 %{all} | FileCheck %s
// RUN: quant-runner %t/constant_b.mlir -e all_cases --const-eval --cache-dir %t/cache-all --timing %{all} 2>&1 | FileCheck %s --check-prefixes=CHECK,STORE
// RUN: llvm-ar t %t/cache-all/*.o | FileCheck %s --check-prefix=APART
// APART-DAG: __qops_const_eval.__constant_{{(1x)?}}300x48xi8.zero
// APART-DAG: __qops_hoisted_gemv{{.*}}.data
// RUN: quant-runner %t/constant_b.mlir -e all_cases --const-eval --cache-dir %t/cache-all --timing %{all} 2>&1 | FileCheck %s --check-prefixes=CHECK,HIT
// One thread (the default uses every core: the scf.forall form):
// RUN: quant-runner %t/constant_b.mlir -e small_b --threads 1 --input %t/small_b_a.npy --expect %t/small_b_expected.npy | FileCheck %s
// RUN: quant-runner %t/constant_b.mlir -e wide_b --threads 1 --input %t/wide_b_a.npy --expect %t/wide_b_expected.npy | FileCheck %s
// On VNNI hosts, the madd / maddubs kernels as well:
// RUN: %if avx512vnni || avxvnni %{ quant-runner %t/constant_b.mlir -e small_b --target-features=-avx512vnni,-avxvnni --input %t/small_b_a.npy --expect %t/small_b_expected.npy | FileCheck %s %}
// RUN: %if avx512vnni || avxvnni %{ quant-runner %t/constant_b.mlir -e wide_b --target-features=-avx512vnni,-avxvnni --input %t/wide_b_a.npy --expect %t/wide_b_expected.npy | FileCheck %s %}
// CHECK: all {{[0-9]+}} results match
