// The JIT's f32 -> bf16 and f64 -> bf16 truncations: LLVM calls
// __truncsfbf2 / __truncdfbf2 on an x86 host without AVX512-BF16 (GCC 12's
// libgcc has neither); the session defines them (JitSession.cpp). Round to
// nearest, ties to even; a NaN becomes the quiet NaN of its sign. The
// expected bf16 bits are worked out by hand from the inputs' bits
// (Inputs/make_bf16_inputs.py says which case each is).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/make_bf16_inputs.py %t
// RUN: quant-runner %s -e from_f32 --input %t/f32.npy --print \
// RUN:   | FileCheck %s --check-prefix=F32
// RUN: quant-runner %s -e from_f64 --input %t/f64.npy --print \
// RUN:   | FileCheck %s --check-prefix=F64

// 0x3f80 0x3f80 0x3f82 0x3f81 0x7fc0 0xffc0 0x7f80 0x7f80 0x0000 0x0002 0x8000
// F32: tensor<11xi16> = [16256, 16256, 16258, 16257, 32704, -64, 32640, 32640, 0, 2, -32768]
func.func @from_f32(%x: tensor<11xf32>) -> tensor<11xi16> {
  %e = tensor.empty() : tensor<11xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<11xf32>) outs(%e : tensor<11xi16>) {
  ^bb0(%a: f32, %o: i16):
    %t = arith.truncf %a : f32 to bf16
    %b = arith.bitcast %t : bf16 to i16
    linalg.yield %b : i16
  } -> tensor<11xi16>
  return %r : tensor<11xi16>
}

// 1.0: 0x3f80; -2.5: 0xc020; NaN: 0x7fc0; 3e39 (+inf as f32): 0x7f80
// F64: tensor<4xi16> = [16256, -16352, 32704, 32640]
func.func @from_f64(%x: tensor<4xf64>) -> tensor<4xi16> {
  %e = tensor.empty() : tensor<4xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<4xf64>) outs(%e : tensor<4xi16>) {
  ^bb0(%a: f64, %o: i16):
    %t = arith.truncf %a : f64 to bf16
    %b = arith.bitcast %t : bf16 to i16
    linalg.yield %b : i16
  } -> tensor<4xi16>
  return %r : tensor<4xi16>
}
