// RUN: quant-opt %s -split-input-file --qops-byte-constant-globals="min-bytes=16" | FileCheck %s

// A 2x2 i32 constant becomes its 16 bytes, little-endian, aligned as i32,
// viewed (a dense_resource on the attribute's buffer, ConstantBytes.h), not
// copied; the access through addressof is unchanged. (The blob prints its
// alignment, 4, before the bytes.)
// CHECK-LABEL: llvm.mlir.global private constant @w_i32(
// CHECK-SAME: dense_resource<[[BLOB:.*]]> : tensor<16xi8>) {addr_space = 0 : i32, alignment = 4 : i64} : !llvm.array<16 x i8>
// CHECK: llvm.mlir.addressof @w_i32 : !llvm.ptr
// CHECK: [[BLOB]]: "0x040000000100000002000000FDFFFFFF04000000"
llvm.mlir.global private constant @w_i32(dense<[[1, 2], [-3, 4]]> : tensor<2x2xi32>) : !llvm.array<2 x array<2 x i32>>
llvm.func @reads_i32() -> !llvm.ptr {
  %0 = llvm.mlir.addressof @w_i32 : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}

// -----

// An alignment already set is kept; f32 values keep their bits.
// CHECK-LABEL: llvm.mlir.global private constant @w_f32(
// CHECK-SAME: dense_resource<[[BLOB:.*]]> : tensor<16xi8>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<16 x i8>
// CHECK: [[BLOB]]: "0x040000000000803F000000C00000404000008040"
llvm.mlir.global private constant @w_f32(dense<[1.0, -2.0, 3.0, 4.0]> : tensor<4xf32>) {alignment = 64 : i64} : !llvm.array<4 x f32>

// -----

// Fewer bytes than min-bytes: left alone.
// CHECK-LABEL: llvm.mlir.global private constant @small(
// CHECK-SAME: dense<[1, 2, 3]> : tensor<3xi32>) {{.*}}: !llvm.array<3 x i32>
llvm.mlir.global private constant @small(dense<[1, 2, 3]> : tensor<3xi32>) : !llvm.array<3 x i32>

// -----

// A splat (LLVM writes a fill): left alone.
// CHECK-LABEL: llvm.mlir.global private constant @splat(
// CHECK-SAME: dense<7> : tensor<8xi32>) {{.*}}: !llvm.array<8 x i32>
llvm.mlir.global private constant @splat(dense<7> : tensor<8xi32>) : !llvm.array<8 x i32>

// -----

// i1 elements (not whole bytes): left alone.
// CHECK-LABEL: llvm.mlir.global private constant @bits(
// CHECK-SAME: tensor<16xi1>) {{.*}}: !llvm.array<16 x i1>
llvm.mlir.global private constant @bits(dense<[true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false]> : tensor<16xi1>) : !llvm.array<16 x i1>

// -----

// A mutable global: left alone.
// CHECK-LABEL: llvm.mlir.global private @mutable(
// CHECK-SAME: dense<[1, 2, 3, 4]> : tensor<4xi32>) {{.*}}: !llvm.array<4 x i32>
llvm.mlir.global private @mutable(dense<[1, 2, 3, 4]> : tensor<4xi32>) : !llvm.array<4 x i32>

// -----

// A big-endian target would need the bytes swapped: left alone.
// CHECK-LABEL: llvm.mlir.global private constant @big_endian(
// CHECK-SAME: dense<[1, 2, 3, 4]> : tensor<4xi32>) {{.*}}: !llvm.array<4 x i32>
module attributes {llvm.target_triple = "s390x-unknown-linux-gnu"} {
  llvm.mlir.global private constant @big_endian(dense<[1, 2, 3, 4]> : tensor<4xi32>) : !llvm.array<4 x i32>
}

// -----

// A dense_resource (a weight the storage conversion viewed) is viewed
// again: the same blob's bytes as i8.
// CHECK-LABEL: llvm.mlir.global private constant @w_viewed(
// CHECK-SAME: dense_resource<[[BLOB:.*]]> : tensor<16xi8>) {addr_space = 0 : i32, alignment = 2 : i64} : !llvm.array<16 x i8>
// CHECK: [[BLOB]]: "0x0200000001000200030004000500060007000800"
llvm.mlir.global private constant @w_viewed(dense_resource<w16> : tensor<2x4xi16>) : !llvm.array<2 x array<4 x i16>>

{-#
  dialect_resources: {
    builtin: {
      w16: "0x0200000001000200030004000500060007000800"
    }
  }
#-}
