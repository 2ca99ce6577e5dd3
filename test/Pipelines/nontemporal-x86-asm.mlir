// Results of at least nontemporal-min-bytes (default 8 MiB) are written with
// aligned streaming stores: VMOVNTPS for the f32 rows of a DequantizeLinear
// (64-byte aligned), VMOVNTDQ for the u8 rows of a QuantizeLinear (32-byte
// aligned), and one SFENCE after the loops. nontemporal-min-bytes=0 turns
// them off.
//
// RUN: quant-opt %s --qops-lower-to-llvm="target-triple=x86_64-unknown-linux-gnu target-cpu=znver3" | mlir-translate --mlir-to-llvmir | llc -O3 -o %t.znver3.s
// RUN: FileCheck %s --check-prefix=ZNVER3 < %t.znver3.s
// ZNVER3-LABEL: dequantize_8mib:
// ZNVER3: vmovntps %ymm
// ZNVER3: sfence
// ZNVER3-LABEL: quantize_8mib:
// ZNVER3: vmovntdq %ymm
// ZNVER3: sfence
//
// RUN: quant-opt %s --qops-lower-to-llvm="target-triple=x86_64-unknown-linux-gnu target-cpu=sapphirerapids" | mlir-translate --mlir-to-llvmir | llc -O3 -o %t.spr.s
// RUN: FileCheck %s --check-prefix=SPR < %t.spr.s
// SPR-LABEL: dequantize_8mib:
// SPR: vmovntps %zmm
// SPR-LABEL: quantize_8mib:
// SPR: vmovntdq %ymm
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
