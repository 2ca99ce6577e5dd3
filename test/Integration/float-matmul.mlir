// Integration tests of the float kernel (qops-lower-float-contractions,
// FloatMatMulKernel.cpp): linalg.matmul / batch_matmul as the importer
// writes them (out a fill of 0) or accumulating into c, through
// quant-runner, against the NumPy reference of Inputs/float_matmul.py in
// the documented order (a product rounded, then the sum, in increasing k)
// and, with --float-fma, in fused multiply-adds (exact emulation). Every
// comparison is bit-exact. Where the host's default tile is zmm (ymm),
// --target-features=-avx512f (-avx2) runs the ymm (xmm) tile too; 2 threads
// split the tiles.
//
// tiles: partial row tiles and masked columns, b packed; short: M < 16, b
// read in place; batch; dynamic sizes; acc: y = c + a w; f64; long:
// K = 1000, where the order of the sums shows; half / bhalf: f16 / bf16 a
// and b (bf16 given as i16 bits, bitcast), extended as they are read, f32
// sums.

// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/float_matmul.py %t

// RUN: quant-runner %s -e tiles --input %t/tiles_in0.npy --input %t/tiles_in1.npy --expect %t/tiles_out.npy | FileCheck %s
// RUN: quant-runner %s -e tiles --float-fma --input %t/tiles_in0.npy --input %t/tiles_in1.npy --expect %t/tiles_fma.npy | FileCheck %s
// RUN: quant-runner %s -e tiles --threads 2 --input %t/tiles_in0.npy --input %t/tiles_in1.npy --expect %t/tiles_out.npy | FileCheck %s
// RUN: %if avx512 %{ quant-runner %s -e tiles --target-features=-avx512f --input %t/tiles_in0.npy --input %t/tiles_in1.npy --expect %t/tiles_out.npy | FileCheck %s %}
// RUN: %if avx512 %{ quant-runner %s -e tiles --target-features=-avx512f --float-fma --input %t/tiles_in0.npy --input %t/tiles_in1.npy --expect %t/tiles_fma.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e tiles --target-features=-avx2 --input %t/tiles_in0.npy --input %t/tiles_in1.npy --expect %t/tiles_out.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e tiles --target-features=-avx2 --float-fma --input %t/tiles_in0.npy --input %t/tiles_in1.npy --expect %t/tiles_fma.npy | FileCheck %s %}
// RUN: quant-runner %s -e short --input %t/short_in0.npy --input %t/short_in1.npy --expect %t/short_out.npy | FileCheck %s
// RUN: quant-runner %s -e short --float-fma --input %t/short_in0.npy --input %t/short_in1.npy --expect %t/short_fma.npy | FileCheck %s
// RUN: quant-runner %s -e short --threads 2 --input %t/short_in0.npy --input %t/short_in1.npy --expect %t/short_out.npy | FileCheck %s
// RUN: %if avx512 %{ quant-runner %s -e short --target-features=-avx512f --input %t/short_in0.npy --input %t/short_in1.npy --expect %t/short_out.npy | FileCheck %s %}
// RUN: %if avx512 %{ quant-runner %s -e short --target-features=-avx512f --float-fma --input %t/short_in0.npy --input %t/short_in1.npy --expect %t/short_fma.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e short --target-features=-avx2 --input %t/short_in0.npy --input %t/short_in1.npy --expect %t/short_out.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e short --target-features=-avx2 --float-fma --input %t/short_in0.npy --input %t/short_in1.npy --expect %t/short_fma.npy | FileCheck %s %}
// RUN: quant-runner %s -e batch --input %t/batch_in0.npy --input %t/batch_in1.npy --expect %t/batch_out.npy | FileCheck %s
// RUN: quant-runner %s -e batch --float-fma --input %t/batch_in0.npy --input %t/batch_in1.npy --expect %t/batch_fma.npy | FileCheck %s
// RUN: quant-runner %s -e batch --threads 2 --input %t/batch_in0.npy --input %t/batch_in1.npy --expect %t/batch_out.npy | FileCheck %s
// RUN: %if avx512 %{ quant-runner %s -e batch --target-features=-avx512f --input %t/batch_in0.npy --input %t/batch_in1.npy --expect %t/batch_out.npy | FileCheck %s %}
// RUN: %if avx512 %{ quant-runner %s -e batch --target-features=-avx512f --float-fma --input %t/batch_in0.npy --input %t/batch_in1.npy --expect %t/batch_fma.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e batch --target-features=-avx2 --input %t/batch_in0.npy --input %t/batch_in1.npy --expect %t/batch_out.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e batch --target-features=-avx2 --float-fma --input %t/batch_in0.npy --input %t/batch_in1.npy --expect %t/batch_fma.npy | FileCheck %s %}
// RUN: quant-runner %s -e dynamic --input %t/dynamic_in0.npy --input %t/dynamic_in1.npy --expect %t/dynamic_out.npy | FileCheck %s
// RUN: quant-runner %s -e dynamic --float-fma --input %t/dynamic_in0.npy --input %t/dynamic_in1.npy --expect %t/dynamic_fma.npy | FileCheck %s
// RUN: quant-runner %s -e dynamic --threads 2 --input %t/dynamic_in0.npy --input %t/dynamic_in1.npy --expect %t/dynamic_out.npy | FileCheck %s
// RUN: %if avx512 %{ quant-runner %s -e dynamic --target-features=-avx512f --input %t/dynamic_in0.npy --input %t/dynamic_in1.npy --expect %t/dynamic_out.npy | FileCheck %s %}
// RUN: %if avx512 %{ quant-runner %s -e dynamic --target-features=-avx512f --float-fma --input %t/dynamic_in0.npy --input %t/dynamic_in1.npy --expect %t/dynamic_fma.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e dynamic --target-features=-avx2 --input %t/dynamic_in0.npy --input %t/dynamic_in1.npy --expect %t/dynamic_out.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e dynamic --target-features=-avx2 --float-fma --input %t/dynamic_in0.npy --input %t/dynamic_in1.npy --expect %t/dynamic_fma.npy | FileCheck %s %}
// RUN: quant-runner %s -e acc --input %t/acc_in0.npy --input %t/acc_in1.npy --input %t/acc_in2.npy --expect %t/acc_out.npy | FileCheck %s
// RUN: quant-runner %s -e acc --float-fma --input %t/acc_in0.npy --input %t/acc_in1.npy --input %t/acc_in2.npy --expect %t/acc_fma.npy | FileCheck %s
// RUN: quant-runner %s -e acc --threads 2 --input %t/acc_in0.npy --input %t/acc_in1.npy --input %t/acc_in2.npy --expect %t/acc_out.npy | FileCheck %s
// RUN: %if avx512 %{ quant-runner %s -e acc --target-features=-avx512f --input %t/acc_in0.npy --input %t/acc_in1.npy --input %t/acc_in2.npy --expect %t/acc_out.npy | FileCheck %s %}
// RUN: %if avx512 %{ quant-runner %s -e acc --target-features=-avx512f --float-fma --input %t/acc_in0.npy --input %t/acc_in1.npy --input %t/acc_in2.npy --expect %t/acc_fma.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e acc --target-features=-avx2 --input %t/acc_in0.npy --input %t/acc_in1.npy --input %t/acc_in2.npy --expect %t/acc_out.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e acc --target-features=-avx2 --float-fma --input %t/acc_in0.npy --input %t/acc_in1.npy --input %t/acc_in2.npy --expect %t/acc_fma.npy | FileCheck %s %}
// RUN: quant-runner %s -e f64 --input %t/f64_in0.npy --input %t/f64_in1.npy --expect %t/f64_out.npy | FileCheck %s
// RUN: quant-runner %s -e f64 --float-fma --input %t/f64_in0.npy --input %t/f64_in1.npy --expect %t/f64_fma.npy | FileCheck %s
// RUN: quant-runner %s -e f64 --threads 2 --input %t/f64_in0.npy --input %t/f64_in1.npy --expect %t/f64_out.npy | FileCheck %s
// RUN: %if avx512 %{ quant-runner %s -e f64 --target-features=-avx512f --input %t/f64_in0.npy --input %t/f64_in1.npy --expect %t/f64_out.npy | FileCheck %s %}
// RUN: %if avx512 %{ quant-runner %s -e f64 --target-features=-avx512f --float-fma --input %t/f64_in0.npy --input %t/f64_in1.npy --expect %t/f64_fma.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e f64 --target-features=-avx2 --input %t/f64_in0.npy --input %t/f64_in1.npy --expect %t/f64_out.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e f64 --target-features=-avx2 --float-fma --input %t/f64_in0.npy --input %t/f64_in1.npy --expect %t/f64_fma.npy | FileCheck %s %}
// RUN: quant-runner %s -e long --input %t/long_in0.npy --input %t/long_in1.npy --expect %t/long_out.npy | FileCheck %s
// RUN: quant-runner %s -e long --float-fma --input %t/long_in0.npy --input %t/long_in1.npy --expect %t/long_fma.npy | FileCheck %s
// RUN: quant-runner %s -e long --threads 2 --input %t/long_in0.npy --input %t/long_in1.npy --expect %t/long_out.npy | FileCheck %s
// RUN: %if avx512 %{ quant-runner %s -e long --target-features=-avx512f --input %t/long_in0.npy --input %t/long_in1.npy --expect %t/long_out.npy | FileCheck %s %}
// RUN: %if avx512 %{ quant-runner %s -e long --target-features=-avx512f --float-fma --input %t/long_in0.npy --input %t/long_in1.npy --expect %t/long_fma.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e long --target-features=-avx2 --input %t/long_in0.npy --input %t/long_in1.npy --expect %t/long_out.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e long --target-features=-avx2 --float-fma --input %t/long_in0.npy --input %t/long_in1.npy --expect %t/long_fma.npy | FileCheck %s %}
// RUN: quant-runner %s -e half --input %t/half_in0.npy --input %t/half_in1.npy --expect %t/half_out.npy | FileCheck %s
// RUN: quant-runner %s -e half --float-fma --input %t/half_in0.npy --input %t/half_in1.npy --expect %t/half_fma.npy | FileCheck %s
// RUN: quant-runner %s -e half --threads 2 --input %t/half_in0.npy --input %t/half_in1.npy --expect %t/half_out.npy | FileCheck %s
// RUN: %if avx512 %{ quant-runner %s -e half --target-features=-avx512f --input %t/half_in0.npy --input %t/half_in1.npy --expect %t/half_out.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e half --target-features=-avx2 --input %t/half_in0.npy --input %t/half_in1.npy --expect %t/half_out.npy | FileCheck %s %}
// RUN: quant-runner %s -e bhalf --input %t/bhalf_in0.npy --input %t/bhalf_in1.npy --expect %t/bhalf_out.npy | FileCheck %s
// RUN: quant-runner %s -e bhalf --float-fma --input %t/bhalf_in0.npy --input %t/bhalf_in1.npy --expect %t/bhalf_fma.npy | FileCheck %s
// RUN: quant-runner %s -e bhalf --threads 2 --input %t/bhalf_in0.npy --input %t/bhalf_in1.npy --expect %t/bhalf_out.npy | FileCheck %s
// RUN: %if avx512 %{ quant-runner %s -e bhalf --target-features=-avx512f --input %t/bhalf_in0.npy --input %t/bhalf_in1.npy --expect %t/bhalf_out.npy | FileCheck %s %}
// RUN: %if avx2 %{ quant-runner %s -e bhalf --target-features=-avx2 --input %t/bhalf_in0.npy --input %t/bhalf_in1.npy --expect %t/bhalf_out.npy | FileCheck %s %}
// One result with the other order's expected values: the comparison fails.
// RUN: %expect_exit 1 quant-runner %s -e long --input %t/long_in0.npy --input %t/long_in1.npy --expect %t/long_fma.npy | FileCheck %s --check-prefix=MISS
// CHECK: all 1 results match
// MISS: result 0: {{[0-9]+}} of 720 elements differ

func.func @tiles(%a: tensor<37x50xf32>, %w: tensor<50x45xf32>) -> tensor<37x45xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x45xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<37x45xf32>) -> tensor<37x45xf32>
  %y = linalg.matmul ins(%a, %w : tensor<37x50xf32>, tensor<50x45xf32>) outs(%c : tensor<37x45xf32>) -> tensor<37x45xf32>
  return %y : tensor<37x45xf32>
}

func.func @short(%a: tensor<3x64xf32>, %w: tensor<64x100xf32>) -> tensor<3x100xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x100xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<3x100xf32>) -> tensor<3x100xf32>
  %y = linalg.matmul ins(%a, %w : tensor<3x64xf32>, tensor<64x100xf32>) outs(%c : tensor<3x100xf32>) -> tensor<3x100xf32>
  return %y : tensor<3x100xf32>
}

func.func @batch(%a: tensor<3x20x33xf32>, %w: tensor<3x33x70xf32>) -> tensor<3x20x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x20x70xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<3x20x70xf32>) -> tensor<3x20x70xf32>
  %y = linalg.batch_matmul ins(%a, %w : tensor<3x20x33xf32>, tensor<3x33x70xf32>) outs(%c : tensor<3x20x70xf32>) -> tensor<3x20x70xf32>
  return %y : tensor<3x20x70xf32>
}

func.func @dynamic(%a: tensor<?x?xf32>, %w: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %w, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %y = linalg.matmul ins(%a, %w : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @acc(%a: tensor<25x17xf32>, %w: tensor<17x48xf32>, %c: tensor<25x48xf32>) -> tensor<25x48xf32> {
  %y = linalg.matmul ins(%a, %w : tensor<25x17xf32>, tensor<17x48xf32>) outs(%c : tensor<25x48xf32>) -> tensor<25x48xf32>
  return %y : tensor<25x48xf32>
}

func.func @f64(%a: tensor<19x21xf64>, %w: tensor<21x23xf64>) -> tensor<19x23xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<19x23xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<19x23xf64>) -> tensor<19x23xf64>
  %y = linalg.matmul ins(%a, %w : tensor<19x21xf64>, tensor<21x23xf64>) outs(%c : tensor<19x23xf64>) -> tensor<19x23xf64>
  return %y : tensor<19x23xf64>
}

func.func @long(%a: tensor<18x1000xf32>, %w: tensor<1000x40xf32>) -> tensor<18x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<18x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<18x40xf32>) -> tensor<18x40xf32>
  %y = linalg.matmul ins(%a, %w : tensor<18x1000xf32>, tensor<1000x40xf32>) outs(%c : tensor<18x40xf32>) -> tensor<18x40xf32>
  return %y : tensor<18x40xf32>
}

func.func @half(%a: tensor<21x40xf16>, %w: tensor<40x37xf16>) -> tensor<21x37xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<21x37xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<21x37xf32>) -> tensor<21x37xf32>
  %y = linalg.matmul ins(%a, %w : tensor<21x40xf16>, tensor<40x37xf16>) outs(%c : tensor<21x37xf32>) -> tensor<21x37xf32>
  return %y : tensor<21x37xf32>
}

func.func @bhalf(%ai: tensor<21x40xi16>, %wi: tensor<40x37xi16>) -> tensor<21x37xf32> {
  %ae = tensor.empty() : tensor<21x40xbf16>
  %a = linalg.map { arith.bitcast } ins(%ai : tensor<21x40xi16>) outs(%ae : tensor<21x40xbf16>)
  %we = tensor.empty() : tensor<40x37xbf16>
  %w = linalg.map { arith.bitcast } ins(%wi : tensor<40x37xi16>) outs(%we : tensor<40x37xbf16>)
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<21x37xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<21x37xf32>) -> tensor<21x37xf32>
  %y = linalg.matmul ins(%a, %w : tensor<21x40xbf16>, tensor<40x37xbf16>) outs(%c : tensor<21x37xf32>) -> tensor<21x37xf32>
  return %y : tensor<21x37xf32>
}
