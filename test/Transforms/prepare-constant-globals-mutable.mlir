// RUN: quant-opt %s --qops-prepare-constant-globals | FileCheck %s
// RUN: quant-opt %s --qops-prepare-constant-globals --one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s --check-prefix=BUF

// A mutable global whose initial value and alignment equal a constant's
// (here a state that a function's first call sets to 2): one-shot
// bufferization's getGlobalFor matches value and alignment only, and would
// read the constant from it. The constant gets a constant global of its
// own, first in the module, where bufferization looks first.
// CHECK: memref.global "private" constant @__constant_value : memref<i32> = dense<0> {alignment = 64 : i64}
// CHECK-NEXT: memref.global "private" @state : memref<i32> = dense<0> {alignment = 64 : i64}
// BUF-LABEL: func.func @reads_zero
// BUF: memref.get_global @__constant_value : memref<i32>
// BUF-NOT: memref.get_global @state
memref.global "private" @state : memref<i32> = dense<0> {alignment = 64 : i64}

func.func @reads_zero() -> tensor<i32> {
  %c2 = arith.constant 2 : i32
  %state = memref.get_global @state : memref<i32>
  memref.store %c2, %state[] : memref<i32>
  %zero = arith.constant dense<0> : tensor<i32>
  return %zero : tensor<i32>
}
