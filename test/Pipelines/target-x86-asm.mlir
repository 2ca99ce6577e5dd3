// The target chooses the int8 kernel in MLIR and LLVM's code generation:
// compiled for znver3 (AVX2, no VNNI) the kernel multiplies a b known only
// at run time with VPMADDWD and never VPMADDUBSW (which saturates; for a
// constant b that proves it cannot, see target-x86-maddubs.mlir); for
// icelake-server (AVX512-VNNI)
// with VPDPBUSD; for sapphirerapids (AMX-INT8) with TDPBUSD on AMX tiles.
// The CPU reaches the LLVM IR as function attributes, so llc needs no -mcpu.
// Instructions per k step: madd 6 rows x 2 halves, vnni 12 rows x 2 halves
// of 16 lanes (zmm; AVX-512 has 32 vector registers), amx 2 x 2 tiles.
//
// RUN: quant-opt %s --qops-lower-to-llvm="target-triple=x86_64-unknown-linux-gnu target-cpu=znver3" | mlir-translate --mlir-to-llvmir > %t.znver3.ll
// RUN: FileCheck %s --check-prefix=IR-ZNVER3 < %t.znver3.ll
// RUN: llc -O3 %t.znver3.ll -o %t.znver3.s
// RUN: FileCheck %s --check-prefix=ZNVER3 < %t.znver3.s
// RUN: FileCheck %s --check-prefix=ZNVER3-NONE < %t.znver3.s
// IR-ZNVER3: target triple = "x86_64-unknown-linux-gnu"
// IR-ZNVER3: "target-cpu"="znver3"
// ZNVER3-LABEL: qmm:
// ZNVER3-COUNT-12: vpmaddwd
// Nowhere in the whole output (a prefix of NOT lines alone):
// ZNVER3-NONE-NOT: vpmaddubsw
// ZNVER3-NONE-NOT: vpdpbusd
//
// RUN: quant-opt %s --qops-lower-to-llvm="target-triple=x86_64-unknown-linux-gnu target-cpu=icelake-server" | mlir-translate --mlir-to-llvmir > %t.icx.ll
// RUN: llc -O3 %t.icx.ll -o %t.icx.s
// RUN: FileCheck %s --check-prefix=ICX < %t.icx.s
// RUN: FileCheck %s --check-prefix=ICX-NONE < %t.icx.s
// ICX-LABEL: qmm:
// ICX-COUNT-24: vpdpbusd {{.*}}%zmm
// ICX-NONE-NOT: vpmaddwd
// ICX-NONE-NOT: tdpbusd
// ICX-NONE-NOT: __qops_request_amx_tile_data
//
// sapphirerapids: the tile configuration (LDTILECFG, which LLVM writes from
// the tiles' shapes), four TDPBUSD per 64-k step, and first of all the call
// that asks Linux for the tile state (one SYSCALL, in the request
// function). Without AMX (-amx-tile) the same CPU gets the vnni kernel.
// RUN: quant-opt %s --qops-lower-to-llvm="target-triple=x86_64-unknown-linux-gnu target-cpu=sapphirerapids" | mlir-translate --mlir-to-llvmir > %t.spr.ll
// RUN: llc -O3 %t.spr.ll -o %t.spr.s
// RUN: FileCheck %s --check-prefix=SPR < %t.spr.s
// RUN: FileCheck %s --check-prefix=SPR-NONE < %t.spr.s
// SPR-LABEL: qmm:
// SPR: callq __qops_request_amx_tile_data
// SPR: ldtilecfg
// SPR-COUNT-4: tdpbusd %tmm{{[0-7]}}, %tmm{{[0-7]}}, %tmm{{[0-7]}}
// SPR: tilerelease
// SPR-LABEL: __qops_request_amx_tile_data:
// SPR: syscall
// SPR-NONE-NOT: vpmaddwd
// SPR-NONE-NOT: vpdpbusd
// RUN: quant-opt %s --qops-lower-to-llvm="target-triple=x86_64-unknown-linux-gnu target-cpu=sapphirerapids target-features=-amx-tile" | mlir-translate --mlir-to-llvmir | llc -O3 -o %t.spr-noamx.s
// RUN: FileCheck %s --check-prefix=ICX < %t.spr-noamx.s
// RUN: FileCheck %s --check-prefix=ICX-NONE < %t.spr-noamx.s
//
// AVX-VNNI without AVX-512 (alderlake): the same intrinsic, VEX-encoded,
// 6-row tiles (16 registers).
// RUN: quant-opt %s --qops-lower-to-llvm="target-triple=x86_64-unknown-linux-gnu target-cpu=alderlake" | mlir-translate --mlir-to-llvmir | llc -O3 -o - | FileCheck %s --check-prefix=ADL
// ADL-LABEL: qmm:
// ADL: {vex} vpdpbusd
//
// Features switch the strategy off again:
// RUN: quant-opt %s --qops-lower-to-llvm="target-triple=x86_64-unknown-linux-gnu target-cpu=sapphirerapids target-features=-avx512vnni,-avxvnni" | mlir-translate --mlir-to-llvmir | llc -O3 -o %t.novnni.s
// RUN: FileCheck %s --check-prefix=NOVNNI < %t.novnni.s
// RUN: FileCheck %s --check-prefix=NOVNNI-NONE < %t.novnni.s
// NOVNNI-LABEL: qmm:
// NOVNNI: vpmaddwd
// NOVNNI-NONE-NOT: vpdpbusd
//
// An unknown CPU is an error, not a silent fallback.
// RUN: %expect_exit 1 quant-opt %s --qops-lower-to-llvm="target-cpu=pentium-pro-max" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: unknown CPU 'pentium-pro-max' for target

func.func @qmm(%a: tensor<64x256xui8>, %b: tensor<256x64xsi8>) -> tensor<64x64xui8> {
  %sa = arith.constant dense<0.05> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %sb = arith.constant dense<0.02> : tensor<f32>
  %zb = arith.constant dense<-2> : tensor<si8>
  %sy = arith.constant dense<0.5> : tensor<f32>
  %zy = arith.constant dense<100> : tensor<ui8>
  %y = qops.qlinear_matmul a(%a, %sa, %za : tensor<64x256xui8>, tensor<f32>, tensor<ui8>) b(%b, %sb, %zb : tensor<256x64xsi8>, tensor<f32>, tensor<si8>) y(%sy, %zy : tensor<f32>, tensor<ui8>) -> tensor<64x64xui8>
  return %y : tensor<64x64xui8>
}
