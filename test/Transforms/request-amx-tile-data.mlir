// RUN: quant-opt %s --qops-request-amx-tile-data=target-triple=x86_64-unknown-linux-gnu --split-input-file | FileCheck %s
// RUN: quant-opt %s --qops-request-amx-tile-data=target-triple=aarch64-linux-gnu --split-input-file | FileCheck %s --check-prefix=OTHER
// RUN: quant-opt %s --qops-request-amx-tile-data=target-triple=x86_64-pc-windows-msvc --split-input-file | FileCheck %s --check-prefix=OTHER
// OTHER-NOT: __qops_

// A function with amx ops asks Linux for the tile data state at entry; the
// request is defined once per module: a monotonic load of its flag, and
// when it is 0, arch_prctl(ARCH_REQ_XCOMP_PERM = 0x1023, XFEATURE_XTILEDATA
// = 18) (system call 158) and a monotonic store of 1. A function without
// AMX code gets nothing.
// CHECK-LABEL: func.func @with_tiles
// CHECK-NEXT: llvm.call @__qops_request_amx_tile_data() : () -> ()
// CHECK: amx.tile_zero
// CHECK-LABEL: func.func @without_tiles
// CHECK-NOT: llvm.call
// CHECK: return
// CHECK: llvm.mlir.global internal @__qops_amx_tile_data_requested(0 : i8) {addr_space = 0 : i32, alignment = 1 : i64} : i8
// CHECK-LABEL: llvm.func internal @__qops_request_amx_tile_data()
// CHECK: %[[FLAG:.*]] = llvm.mlir.addressof @__qops_amx_tile_data_requested
// CHECK: llvm.load %[[FLAG]] atomic monotonic {alignment = 1 : i64} : !llvm.ptr -> i8
// CHECK: llvm.cond_br
// CHECK-DAG: llvm.mlir.constant(158 : i64)
// CHECK-DAG: llvm.mlir.constant(4131 : i64)
// CHECK-DAG: llvm.mlir.constant(18 : i64)
// CHECK: llvm.inline_asm has_side_effects "syscall", "={rax},{rax},{rdi},{rsi},~{rcx},~{r11},~{memory}"
// CHECK: llvm.store %{{.*}}, %[[FLAG]] atomic monotonic {alignment = 1 : i64} : i8, !llvm.ptr
func.func @with_tiles(%m: memref<16x16xi32>) {
  %c0 = arith.constant 0 : index
  %t = amx.tile_zero : !amx.tile<16x16xi32>
  amx.tile_store %m[%c0, %c0], %t : memref<16x16xi32>, !amx.tile<16x16xi32>
  return
}
func.func @without_tiles() {
  return
}

// -----

// AMX code already lowered to its LLVM intrinsics counts too, in an
// llvm.func; the request is not defined twice.
// CHECK-LABEL: llvm.func @lowered
// CHECK-NEXT: llvm.call @__qops_request_amx_tile_data()
// CHECK-LABEL: llvm.func @lowered_too
// CHECK-NEXT: llvm.call @__qops_request_amx_tile_data()
// CHECK-COUNT-1: llvm.func internal @__qops_request_amx_tile_data()
// CHECK-NOT: llvm.func internal @__qops_request_amx_tile_data()
llvm.func @lowered() {
  %r = llvm.mlir.constant(16 : i16) : i16
  %c = llvm.mlir.constant(64 : i16) : i16
  %t = llvm.call_intrinsic "llvm.x86.tilezero.internal"(%r, %c) : (i16, i16) -> !llvm.x86_amx
  llvm.return
}
llvm.func @lowered_too() {
  %r = llvm.mlir.constant(16 : i16) : i16
  %c = llvm.mlir.constant(64 : i16) : i16
  %t = llvm.call_intrinsic "llvm.x86.tilezero.internal"(%r, %c) : (i16, i16) -> !llvm.x86_amx
  llvm.return
}
