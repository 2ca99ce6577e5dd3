// RUN: quant-opt %s --qops-vectorize-elementwise --split-input-file | FileCheck %s
// RUN: quant-opt %s --qops-vectorize-elementwise=result-tile-bytes=0 --split-input-file | FileCheck %s --check-prefix=ZERO

// Without result-tile-bytes, qops-vectorize-elementwise takes it from the
// module's qops.target (TargetInfo.h, elementwiseResultTileBytes): 64 bytes
// on x86 with AVX-512, so an i8 result is written a zmm register (a cache
// line) at a time; 0 (vector-width alone) on AVX2, AArch64 and without
// qops.target. A given option wins.

// CHECK-LABEL: func.func @avx512
// CHECK: arith.divf %{{.*}}, %{{.*}} : vector<64xf32>
// CHECK: vector.transfer_write %{{.*}} : vector<64xi8>
// ZERO-LABEL: func.func @avx512
// ZERO: arith.divf %{{.*}}, %{{.*}} : vector<32xf32>
// ZERO: vector.transfer_write %{{.*}} : vector<32xi8>
module attributes {qops.target = {cpu = "skylake-avx512", features = "", int8_strategy = #qops.int8_strategy<madd>, triple = "x86_64-unknown-linux-gnu"}} {
  func.func @avx512(%x: tensor<16x4096xf32>, %s: tensor<4096xf32>) -> tensor<16x4096xi8> {
    %e = tensor.empty() : tensor<16x4096xi8>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        ins(%x, %s : tensor<16x4096xf32>, tensor<4096xf32>) outs(%e : tensor<16x4096xi8>) {
    ^bb0(%xv: f32, %sv: f32, %o: i8):
      %q = arith.divf %xv, %sv : f32
      %i = arith.fptosi %q : f32 to i8
      linalg.yield %i : i8
    } -> tensor<16x4096xi8>
    return %y : tensor<16x4096xi8>
  }
}

// -----

// AVX-512 turned off by the features: 32-element tiles.
// CHECK-LABEL: func.func @avx512_off
// CHECK: arith.divf %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK: vector.transfer_write %{{.*}} : vector<32xi8>
module attributes {qops.target = {cpu = "skylake-avx512", features = "-avx512f", int8_strategy = #qops.int8_strategy<madd>, triple = "x86_64-unknown-linux-gnu"}} {
  func.func @avx512_off(%x: tensor<16x4096xf32>, %s: tensor<4096xf32>) -> tensor<16x4096xi8> {
    %e = tensor.empty() : tensor<16x4096xi8>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        ins(%x, %s : tensor<16x4096xf32>, tensor<4096xf32>) outs(%e : tensor<16x4096xi8>) {
    ^bb0(%xv: f32, %sv: f32, %o: i8):
      %q = arith.divf %xv, %sv : f32
      %i = arith.fptosi %q : f32 to i8
      linalg.yield %i : i8
    } -> tensor<16x4096xi8>
    return %y : tensor<16x4096xi8>
  }
}

// -----

// AArch64 (NEON): 32-element tiles.
// CHECK-LABEL: func.func @aarch64
// CHECK: arith.divf %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK: vector.transfer_write %{{.*}} : vector<32xi8>
module attributes {qops.target = {cpu = "neoverse-v1", features = "", int8_strategy = #qops.int8_strategy<sdot>, triple = "aarch64-linux-gnu"}} {
  func.func @aarch64(%x: tensor<16x4096xf32>, %s: tensor<4096xf32>) -> tensor<16x4096xi8> {
    %e = tensor.empty() : tensor<16x4096xi8>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        ins(%x, %s : tensor<16x4096xf32>, tensor<4096xf32>) outs(%e : tensor<16x4096xi8>) {
    ^bb0(%xv: f32, %sv: f32, %o: i8):
      %q = arith.divf %xv, %sv : f32
      %i = arith.fptosi %q : f32 to i8
      linalg.yield %i : i8
    } -> tensor<16x4096xi8>
    return %y : tensor<16x4096xi8>
  }
}
