// Malformed inputs to quant-runner: one-line errors, exit code 2, no crash.
// A result that differs from --expect: exit code 1 with the first mismatches.
//
// RUN: rm -rf %t && %python %S/Inputs/make_inputs.py %t
//
// Good run (exit 0):
// RUN: quant-runner %s --input %t/x.npy --input %t/s.npy --input %t/zp.npy --expect %t/y.npy | FileCheck %s --check-prefix=OK
// OK: all 1 results match
//
// Mismatch (exit 1):
// RUN: %expect_exit 1 quant-runner %s --input %t/x.npy --input %t/s.npy --input %t/zp.npy --expect %t/y_wrong.npy | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: result 0: 2 of 6 elements differ from {{.*}}y_wrong.npy
// MISMATCH-NEXT: at [2]: got 130, expected 131
// MISMATCH-NEXT: at [4]: got 1, expected 2
// RUN: %expect_exit 1 quant-runner %s --input %t/x.npy --input %t/s.npy --input %t/zp.npy --expect %t/y_shape.npy | FileCheck %s --check-prefix=SHAPE-MISMATCH
// SHAPE-MISMATCH: result 0: got u1 [6], expected u1 [3]
//
// Usage and input errors (exit 2):
// RUN: %expect_exit 2 quant-runner %t/missing.mlir 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: quant-runner: cannot open '{{.*}}missing.mlir'
// RUN: %expect_exit 2 quant-runner %t/garbage.mlir 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: garbage.mlir:1:
// PARSE: quant-runner: cannot parse
// An op of a dialect outside the runner's registry (RunnerRegistry.cpp):
// RUN: printf 'func.func @main() {\n  %%%%0 = "gpu.thread_id"() {dimension = #gpu<dim x>} : () -> index\n  return\n}\n' > %t/gpu.mlir
// RUN: %expect_exit 2 quant-runner %t/gpu.mlir 2>&1 | FileCheck %s --check-prefix=DIALECT
// DIALECT: gpu.mlir:2:{{[0-9]+}}: error: operation being parsed with an unregistered dialect
// DIALECT: quant-runner: cannot parse
// RUN: %expect_exit 2 quant-runner %s --input %t/x.npy --input %t/s.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: quant-runner: 'main' takes 3 arguments but 2 --input files were given
// RUN: %expect_exit 2 quant-runner %s --input %t/nope.npy --input %t/s.npy --input %t/zp.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: quant-runner: {{.*}}nope.npy: cannot read file
// RUN: %expect_exit 2 quant-runner %s --input %t/truncated.npy --input %t/s.npy --input %t/zp.npy 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: quant-runner: {{.*}}truncated.npy: truncated data
// RUN: %expect_exit 2 quant-runner %s --input %t/bad_magic.npy --input %t/s.npy --input %t/zp.npy 2>&1 | FileCheck %s --check-prefix=MAGIC
// MAGIC: quant-runner: {{.*}}bad_magic.npy: {{.*}}magic
// RUN: %expect_exit 2 quant-runner %s --input %t/bad_header.npy --input %t/s.npy --input %t/zp.npy 2>&1 | FileCheck %s --check-prefix=HEADER
// HEADER: quant-runner: {{.*}}bad_header.npy: {{.*}}header
// RUN: %expect_exit 2 quant-runner %s --input %t/empty.npy --input %t/s.npy --input %t/zp.npy 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: quant-runner: {{.*}}empty.npy:
// RUN: %expect_exit 2 quant-runner %s --input %t/c64.npy --input %t/s.npy --input %t/zp.npy 2>&1 | FileCheck %s --check-prefix=COMPLEX
// COMPLEX: quant-runner: {{.*}}c64.npy: {{.*}}c8
// RUN: %expect_exit 2 quant-runner %s --input %t/x_f64.npy --input %t/s.npy --input %t/zp.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: quant-runner: input 0 ({{.*}}x_f64.npy): dtype f8 does not match tensor<6xf32> (expects f4)
// RUN: %expect_exit 2 quant-runner %s --input %t/x_5.npy --input %t/s.npy --input %t/zp.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: quant-runner: input 0 ({{.*}}x_5.npy): shape [5] does not match tensor<6xf32>
// RUN: %expect_exit 2 quant-runner %s --input %t/x_2d.npy --input %t/s.npy --input %t/zp.npy 2>&1 | FileCheck %s --check-prefix=RANK
// RANK: quant-runner: input 0 ({{.*}}x_2d.npy): shape [2, 3] does not match tensor<6xf32>
// RUN: %expect_exit 2 quant-runner %s -e int4 --input %t/x.npy --input %t/s.npy --input %t/zp_i4_bad.npy 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: quant-runner: input 2 ({{.*}}zp_i4_bad.npy): element [] is 9, outside the range [-8, 7] of si4
// RUN: %expect_exit 2 quant-runner %s -e nosuch 2>&1 | FileCheck %s --check-prefix=NOFUNC
// NOFUNC: quant-runner: no function named 'nosuch' in the module
// RUN: %expect_exit 2 quant-runner %s --input %t/x.npy --input %t/s.npy --input %t/zp.npy --expect %t/y.npy --expect %t/y.npy 2>&1 | FileCheck %s --check-prefix=EXPECTS
// EXPECTS: quant-runner: 'main' returns 1 results but 0 --output and 2 --expect files were given
// RUN: %expect_exit 2 quant-runner %s --no-lower --input %t/x.npy --input %t/s.npy --input %t/zp.npy 2>&1 | FileCheck %s --check-prefix=NOLOWER
// NOLOWER: quant-runner: {{.*}}'main' is not in the LLVM dialect
// RUN: %expect_exit 2 quant-runner %s --bogus-flag 2>&1 | FileCheck %s --check-prefix=FLAG
// FLAG: Unknown command line argument '--bogus-flag'
// RUN: %expect_exit 2 quant-runner 2>&1 | FileCheck %s --check-prefix=NOARGS
// NOARGS: quant-runner: no input file (usage: quant-runner FILE.mlir|FILE.onnx [options]; see --help)
// RUN: %expect_exit 2 quant-runner %s -e vector_arg 2>&1 | FileCheck %s --check-prefix=NOTENSOR
// NOTENSOR: quant-runner: function 'vector_arg': argument #0 has type vector<4xf32>; only ranked tensors are supported

func.func @main(%x: tensor<6xf32>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<6xui8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<6xf32>, tensor<f32>, tensor<ui8> -> tensor<6xui8>
  return %y : tensor<6xui8>
}

func.func @int4(%x: tensor<6xf32>, %s: tensor<f32>, %zp: tensor<si4>) -> tensor<6xsi4> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<6xf32>, tensor<f32>, tensor<si4> -> tensor<6xsi4>
  return %y : tensor<6xsi4>
}

func.func @vector_arg(%v: vector<4xf32>) -> vector<4xf32> {
  return %v : vector<4xf32>
}
