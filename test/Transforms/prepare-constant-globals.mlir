// RUN: quant-opt %s --qops-prepare-constant-globals | FileCheck %s
// RUN: quant-opt %s --qops-prepare-constant-globals --one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s --check-prefix=BUF
// RUN: quant-opt %s --qops-prepare-constant-globals=alignment=16 | FileCheck %s --check-prefix=ALIGN

// Each tensor constant's global, named in the module's order (one-shot
// bufferization's names: the second constant of a shape takes `_0`); each
// is inserted at the module's start, so they read in reverse. The same
// value twice shares one global; scalars get none.
// CHECK: memref.global "private" constant @__constant_2x2xf32 : memref<2x2xf32> = dense<5.000000e-01> {alignment = 64 : i64}
// CHECK-NEXT: memref.global "private" constant @__constant_4xi8_0 : memref<4xi8> = dense<[1, 2, 3, 4]> {alignment = 64 : i64}
// CHECK-NEXT: memref.global "private" constant @__constant_4xi8 : memref<4xi8> = dense<7> {alignment = 64 : i64}
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @first
// CHECK-LABEL: func.func @second
// CHECK-LABEL: func.func @third

// Bufferization reuses them: no other global, each function reads its own.
// BUF-COUNT-3: memref.global
// BUF-NOT: memref.global
// BUF-LABEL: func.func @first
// BUF: memref.get_global @__constant_4xi8 : memref<4xi8>
// BUF-LABEL: func.func @second
// BUF: memref.get_global @__constant_4xi8_0 : memref<4xi8>
// BUF: memref.get_global @__constant_4xi8 : memref<4xi8>
// BUF-LABEL: func.func @third
// BUF: memref.get_global @__constant_2x2xf32 : memref<2x2xf32>

// A global of another alignment than bufferization's would not be reused:
// the option follows one-shot-bufferize's buffer-alignment.
// ALIGN: memref.global "private" constant @__constant_4xi8 : memref<4xi8> = dense<7> {alignment = 16 : i64}

func.func @first() -> tensor<4xi8> {
  %c = arith.constant dense<7> : tensor<4xi8>
  %i = arith.constant 1 : i32
  return %c : tensor<4xi8>
}

func.func @second() -> (tensor<4xi8>, tensor<4xi8>) {
  %c = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi8>
  %d = arith.constant dense<7> : tensor<4xi8>
  return %c, %d : tensor<4xi8>, tensor<4xi8>
}

func.func @third() -> tensor<2x2xf32> {
  %c = arith.constant dense<0.5> : tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}
