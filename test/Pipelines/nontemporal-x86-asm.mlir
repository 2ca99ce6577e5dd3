// Results of at least nontemporal-min-bytes (default 8 MiB) are written with
// aligned streaming stores: VMOVNTPS for the f32 rows of a DequantizeLinear
// (64-byte aligned), VMOVNTDQ for the 8-bit rows of a QuantizeLinear, and
// one SFENCE after the loops. nontemporal-min-bytes=0 turns them off.
//
// On AVX-512 targets the pipeline tiles 8-bit results by 64 elements
// (result-tile-bytes=64), one zmm store per cache line. With 32-element
// tiles, once opt -O3 has unrolled the loop (as the JIT does), LLVM writes
// each truncated half with a VPMOVDB truncating store, which has no
// non-temporal form: the streaming hint is lost (the NOTILE run; the u8
// function keeps its VMOVNTDQ there because its last operation is an XOR
// with 0x80 after the truncation).
//
// RUN: quant-opt %s --qops-lower-to-llvm="target-triple=x86_64-unknown-linux-gnu target-cpu=znver3" | mlir-translate --mlir-to-llvmir | llc -O3 -o %t.znver3.s
// RUN: FileCheck %s --check-prefix=ZNVER3 < %t.znver3.s
// ZNVER3-LABEL: dequantize_8mib:
// ZNVER3: vmovntps %ymm
// ZNVER3: sfence
// ZNVER3-LABEL: quantize_8mib:
// ZNVER3: vmovntdq %ymm
// ZNVER3: sfence
// ZNVER3-LABEL: quantize_8mib_i8:
// ZNVER3: vmovntdq %ymm
// ZNVER3: sfence
//
// RUN: quant-opt %s --qops-lower-to-llvm="target-triple=x86_64-unknown-linux-gnu target-cpu=sapphirerapids" | mlir-translate --mlir-to-llvmir | opt -O3 | llc -O3 -o %t.spr.s
// RUN: FileCheck %s --check-prefix=SPR < %t.spr.s
// SPR-LABEL: dequantize_8mib:
// SPR: vmovntps %zmm
// SPR-LABEL: quantize_8mib:
// SPR: vmovntdq %zmm
// SPR-LABEL: quantize_8mib_i8:
// SPR-NOT: vpmovdb %zmm{{[0-9]+}}, {{.*}}(
// SPR: vmovntdq %zmm
// SPR-NOT: vpmovdb %zmm{{[0-9]+}}, {{.*}}(
// SPR: sfence
//
// RUN: quant-opt %s --qops-lower-to-llvm="target-triple=x86_64-unknown-linux-gnu target-cpu=sapphirerapids result-tile-bytes=0" | mlir-translate --mlir-to-llvmir | opt -O3 | llc -O3 -o %t.notile.s
// RUN: FileCheck %s --check-prefix=NOTILE < %t.notile.s
// NOTILE-LABEL: quantize_8mib:
// NOTILE: vmovntdq %ymm
// NOTILE-LABEL: quantize_8mib_i8:
// NOTILE-NOT: vmovnt
// NOTILE: vpmovdb %zmm{{[0-9]+}}, {{.*}}(
// NOTILE-NOT: vmovnt
// NOTILE: sfence
//
// RUN: quant-opt %s --qops-lower-to-llvm="target-triple=x86_64-unknown-linux-gnu target-cpu=znver3 nontemporal-min-bytes=0" | mlir-translate --mlir-to-llvmir | llc -O3 -o %t.off.s
// RUN: FileCheck %s --check-prefix=OFF < %t.off.s
// OFF-NOT: vmovnt
// OFF-NOT: sfence

func.func @dequantize_8mib(%x: tensor<2048x1024xui8>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<2048x1024xf32> {
  %y = qops.dequantize_linear %x, %s, %zp : tensor<2048x1024xui8>, tensor<f32>, tensor<ui8> -> tensor<2048x1024xf32>
  return %y : tensor<2048x1024xf32>
}

func.func @quantize_8mib(%x: tensor<4096x2048xf32>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<4096x2048xui8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<4096x2048xf32>, tensor<f32>, tensor<ui8> -> tensor<4096x2048xui8>
  return %y : tensor<4096x2048xui8>
}

// Symmetric int8 per column (zero points 0): the truncation is the last
// operation.
func.func @quantize_8mib_i8(%x: tensor<4096x2048xf32>, %s: tensor<2048xf32>) -> tensor<4096x2048xsi8> {
  %zp = arith.constant dense<0> : tensor<2048xsi8>
  %y = qops.quantize_linear %x, %s, %zp axis = 1 : tensor<4096x2048xf32>, tensor<2048xf32>, tensor<2048xsi8> -> tensor<4096x2048xsi8>
  return %y : tensor<4096x2048xsi8>
}
