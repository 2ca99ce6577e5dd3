// The same quant.qcast (scale 1, int8, zero point 0 and 3) on
// x = [0.5, 1.5, 2.5, -0.5, -1.5, 300, -300], run two ways:
//   (a) --qops-from-quant, then quant-runner (the qops lowering): ONNX's
//       y = clip(rint(x / s) + zp, -128, 127), checked bit-exactly against
//       NumPy (Inputs/rounding_cases.py), never against the compiler;
//   (b) upstream --lower-quant-ops (Inputs/upstream-quantize.mlir, the same
//       casts ending in quant.scast), then quant-runner: it computes
//       fptosi(x / s + zp), i.e. truncates toward zero after adding the zero
//       point, and does not clamp to the full i8 range (out-of-range values
//       are poison in LLVM; on x86 they wrap).

// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/rounding_cases.py make %t

// (a) qops: exact ONNX results.
// RUN: quant-opt %s --qops-from-quant -o %t/qops.mlir
// RUN: quant-runner %t/qops.mlir -e quantize_zp0 --input %t/x.npy --expect %t/onnx_zp0.npy | FileCheck %s --check-prefix=QOPS
// RUN: quant-runner %t/qops.mlir -e quantize_zp3 --input %t/x.npy --expect %t/onnx_zp3.npy | FileCheck %s --check-prefix=QOPS
// QOPS: all {{[0-9]+}} results match

// (b) upstream: the arithmetic it emits ...
// RUN: quant-opt %S/Inputs/upstream-quantize.mlir --pass-pipeline='builtin.module(func.func(lower-quant-ops))' | FileCheck %s --check-prefix=UPSTREAM-IR
// UPSTREAM-IR-LABEL: func.func @quantize_zp0
// UPSTREAM-IR-NOT: math.roundeven
// UPSTREAM-IR: arith.divf
// UPSTREAM-IR-NOT: math.roundeven
// UPSTREAM-IR: arith.fptosi %{{.*}} : tensor<7xf32> to tensor<7xi8>
// UPSTREAM-IR-NOT: arith.maxsi
// UPSTREAM-IR-NOT: arith.minsi
// UPSTREAM-IR-LABEL: func.func @quantize_zp3
// UPSTREAM-IR: arith.divf
// UPSTREAM-IR: arith.addf
// UPSTREAM-IR-NOT: math.roundeven
// UPSTREAM-IR: arith.fptosi %{{.*}} : tensor<7xf32> to tensor<7xi8>
// UPSTREAM-IR-NOT: arith.maxsi

// ... and what it computes, compared with ONNX's rule by NumPy.
// RUN: quant-opt %S/Inputs/upstream-quantize.mlir --pass-pipeline='builtin.module(func.func(lower-quant-ops),canonicalize,func.func(convert-elementwise-to-linalg))' -o %t/upstream.mlir
// RUN: quant-runner %t/upstream.mlir -e quantize_zp0 --input %t/x.npy --output %t/upstream_zp0.npy
// RUN: %python %S/Inputs/rounding_cases.py compare %t %t/upstream_zp0.npy 0 | FileCheck %s --check-prefix=ZP0
// Ties: ONNX rounds to even, upstream truncates toward zero.
// ZP0: x=0.5: onnx=0 upstream=0 same
// ZP0: x=1.5: onnx=2 upstream=1 differs
// ZP0: x=2.5: onnx=2 upstream=2 same
// ZP0: x=-0.5: onnx=0 upstream=0 same
// ZP0: x=-1.5: onnx=-2 upstream=-1 differs
// Out of range: ONNX saturates, upstream does not.
// ZP0: x=300.0: onnx=127 upstream={{-?[0-9]+}} differs (out of range: no saturation)
// ZP0: x=-300.0: onnx=-128 upstream={{-?[0-9]+}} differs (out of range: no saturation)

// RUN: quant-runner %t/upstream.mlir -e quantize_zp3 --input %t/x.npy --output %t/upstream_zp3.npy
// RUN: %python %S/Inputs/rounding_cases.py compare %t %t/upstream_zp3.npy 3 | FileCheck %s --check-prefix=ZP3
// The zero point is added before the truncation: -0.5 + 3 = 2.5 -> 2, where
// ONNX gives rint(-0.5) + 3 = 3.
// ZP3: x=0.5: onnx=3 upstream=3 same
// ZP3: x=1.5: onnx=5 upstream=4 differs
// ZP3: x=2.5: onnx=5 upstream=5 same
// ZP3: x=-0.5: onnx=3 upstream=2 differs
// ZP3: x=-1.5: onnx=1 upstream=1 same
// ZP3: x=300.0: onnx=127 upstream={{-?[0-9]+}} differs (out of range: no saturation)
// ZP3: x=-300.0: onnx=-128 upstream={{-?[0-9]+}} differs (out of range: no saturation)

func.func @quantize_zp0(%x: tensor<7xf32>) -> tensor<7x!quant.uniform<i8:f32, 1.0>> {
  %q = quant.qcast %x : tensor<7xf32> to tensor<7x!quant.uniform<i8:f32, 1.0>>
  return %q : tensor<7x!quant.uniform<i8:f32, 1.0>>
}

func.func @quantize_zp3(%x: tensor<7xf32>) -> tensor<7x!quant.uniform<i8:f32, 1.0:3>> {
  %q = quant.qcast %x : tensor<7xf32> to tensor<7x!quant.uniform<i8:f32, 1.0:3>>
  return %q : tensor<7x!quant.uniform<i8:f32, 1.0:3>>
}
