// RUN: quant-opt %s --qops-lower-to-llvm="const-eval=1" -o %t.threads.mlir
// RUN: quant-opt %s --qops-lower-to-llvm="const-eval=1" --mlir-disable-threading -o %t.serial.mlir
// RUN: FileCheck %s --input-file=%t.threads.mlir
// RUN: diff %t.threads.mlir %t.serial.mlir

// qops-const-eval in the whole pipeline. With threads, the expressions run
// on a thread of their own while the module is lowered and
// qops-const-eval-join gives the llvm.mlir.global its value at the end;
// without, they run in the pass itself (memref.global constant). The two
// lowered modules are the same, text for text (the diff). The global, 1 KiB
// of i64 (each weight doubled: 2, 4, 6, ...), ends as bytes
// (qops-byte-constant-globals); no guard is left.
// CHECK-NOT: llvm.mlir.global {{.*}}_state
// CHECK: llvm.mlir.global private constant @__qops_hoisted_packs(dense_resource<[[BYTES:[a-z_0-9]+]]> : tensor<1024xi8>)
// CHECK-NOT: llvm.mlir.global {{.*}}_state
// CHECK-LABEL: llvm.func @packs
// CHECK-NOT: llvm.atomicrmw
// CHECK: llvm.mlir.addressof @__qops_hoisted_packs
// CHECK-NOT: llvm.atomicrmw
// CHECK: llvm.return
// The resource's bytes: its alignment (8), then 2, 4, 6 as i64.
// CHECK: [[BYTES]]: "0x08000000020000000000000004000000000000000600000000000000

func.func @packs(%x: tensor<8x16xi64>) -> tensor<8x16xi64> {
  %w = arith.constant dense<[
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16],
      [17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32],
      [33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48],
      [49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64],
      [65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80],
      [81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96],
      [97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112],
      [113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128]]> : tensor<8x16xi64>
  %init = tensor.empty() : tensor<8x16xi64>
  %packed = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<8x16xi64>) outs(%init : tensor<8x16xi64>) {
  ^bb0(%in: i64, %out: i64):
    %twice = arith.addi %in, %in : i64
    linalg.yield %twice : i64
  } -> tensor<8x16xi64>
  %sum = linalg.add ins(%x, %packed : tensor<8x16xi64>, tensor<8x16xi64>)
      outs(%init : tensor<8x16xi64>) -> tensor<8x16xi64>
  return %sum : tensor<8x16xi64>
}
