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

// -----

// An op with more than 8 inputs (a depthwise convolution's taps and
// weights) takes the i32 lanes of one vector register of the target
// (vectorRegisterBits / 32), at most vector-width: 16 with AVX-512, 8 with
// AVX2, 4 on AArch64; vector-width (32) without qops.target
// (vectorize-elementwise.mlir, @many_inputs_keep_width).
// CHECK-LABEL: func.func @many_inputs_avx512
// CHECK-NOT: vector<32x
// CHECK: vector.transfer_write %{{.*}} : vector<16xi32>
// ZERO-LABEL: func.func @many_inputs_avx512
// ZERO: vector.transfer_write %{{.*}} : vector<16xi32>
#idm = affine_map<(d0, d1) -> (d0, d1)>
module attributes {qops.target = {cpu = "skylake-avx512", features = "", int8_strategy = #qops.int8_strategy<madd>, triple = "x86_64-unknown-linux-gnu"}} {
  func.func @many_inputs_avx512(%a: tensor<2x128xi8>, %b: tensor<2x128xi8>, %c: tensor<2x128xi8>,
      %d: tensor<2x128xi8>, %e: tensor<2x128xi8>, %f: tensor<2x128xi8>, %g: tensor<2x128xi8>,
      %h: tensor<2x128xi8>, %i: tensor<2x128xi8>) -> tensor<2x128xi32> {
    %init = tensor.empty() : tensor<2x128xi32>
    %y = linalg.generic {indexing_maps = [#idm, #idm, #idm, #idm, #idm, #idm, #idm, #idm, #idm, #idm], iterator_types = ["parallel", "parallel"]}
        ins(%a, %b, %c, %d, %e, %f, %g, %h, %i : tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>)
        outs(%init : tensor<2x128xi32>) {
    ^bb0(%va: i8, %vb: i8, %vc: i8, %vd: i8, %ve: i8, %vf: i8, %vg: i8, %vh: i8, %vi: i8, %o: i32):
      %s1 = arith.addi %va, %vb : i8
      %s2 = arith.addi %s1, %vc : i8
      %s3 = arith.addi %s2, %vd : i8
      %s4 = arith.addi %s3, %ve : i8
      %s5 = arith.addi %s4, %vf : i8
      %s6 = arith.addi %s5, %vg : i8
      %s7 = arith.addi %s6, %vh : i8
      %s8 = arith.addi %s7, %vi : i8
      %w = arith.extsi %s8 : i8 to i32
      linalg.yield %w : i32
    } -> tensor<2x128xi32>
    return %y : tensor<2x128xi32>
  }
}

// -----

// CHECK-LABEL: func.func @many_inputs_avx2
// CHECK-NOT: vector<16x
// CHECK: vector.transfer_write %{{.*}} : vector<8xi32>
#idm = affine_map<(d0, d1) -> (d0, d1)>
module attributes {qops.target = {cpu = "skylake-avx512", features = "-avx512f", int8_strategy = #qops.int8_strategy<madd>, triple = "x86_64-unknown-linux-gnu"}} {
  func.func @many_inputs_avx2(%a: tensor<2x128xi8>, %b: tensor<2x128xi8>, %c: tensor<2x128xi8>,
      %d: tensor<2x128xi8>, %e: tensor<2x128xi8>, %f: tensor<2x128xi8>, %g: tensor<2x128xi8>,
      %h: tensor<2x128xi8>, %i: tensor<2x128xi8>) -> tensor<2x128xi32> {
    %init = tensor.empty() : tensor<2x128xi32>
    %y = linalg.generic {indexing_maps = [#idm, #idm, #idm, #idm, #idm, #idm, #idm, #idm, #idm, #idm], iterator_types = ["parallel", "parallel"]}
        ins(%a, %b, %c, %d, %e, %f, %g, %h, %i : tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>)
        outs(%init : tensor<2x128xi32>) {
    ^bb0(%va: i8, %vb: i8, %vc: i8, %vd: i8, %ve: i8, %vf: i8, %vg: i8, %vh: i8, %vi: i8, %o: i32):
      %s1 = arith.addi %va, %vb : i8
      %s2 = arith.addi %s1, %vc : i8
      %s3 = arith.addi %s2, %vd : i8
      %s4 = arith.addi %s3, %ve : i8
      %s5 = arith.addi %s4, %vf : i8
      %s6 = arith.addi %s5, %vg : i8
      %s7 = arith.addi %s6, %vh : i8
      %s8 = arith.addi %s7, %vi : i8
      %w = arith.extsi %s8 : i8 to i32
      linalg.yield %w : i32
    } -> tensor<2x128xi32>
    return %y : tensor<2x128xi32>
  }
}

// -----

// CHECK-LABEL: func.func @many_inputs_aarch64
// CHECK-NOT: vector<8x
// CHECK: vector.transfer_write %{{.*}} : vector<4xi32>
#idm = affine_map<(d0, d1) -> (d0, d1)>
module attributes {qops.target = {cpu = "neoverse-v1", features = "", int8_strategy = #qops.int8_strategy<sdot>, triple = "aarch64-linux-gnu"}} {
  func.func @many_inputs_aarch64(%a: tensor<2x128xi8>, %b: tensor<2x128xi8>, %c: tensor<2x128xi8>,
      %d: tensor<2x128xi8>, %e: tensor<2x128xi8>, %f: tensor<2x128xi8>, %g: tensor<2x128xi8>,
      %h: tensor<2x128xi8>, %i: tensor<2x128xi8>) -> tensor<2x128xi32> {
    %init = tensor.empty() : tensor<2x128xi32>
    %y = linalg.generic {indexing_maps = [#idm, #idm, #idm, #idm, #idm, #idm, #idm, #idm, #idm, #idm], iterator_types = ["parallel", "parallel"]}
        ins(%a, %b, %c, %d, %e, %f, %g, %h, %i : tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>, tensor<2x128xi8>)
        outs(%init : tensor<2x128xi32>) {
    ^bb0(%va: i8, %vb: i8, %vc: i8, %vd: i8, %ve: i8, %vf: i8, %vg: i8, %vh: i8, %vi: i8, %o: i32):
      %s1 = arith.addi %va, %vb : i8
      %s2 = arith.addi %s1, %vc : i8
      %s3 = arith.addi %s2, %vd : i8
      %s4 = arith.addi %s3, %ve : i8
      %s5 = arith.addi %s4, %vf : i8
      %s6 = arith.addi %s5, %vg : i8
      %s7 = arith.addi %s6, %vh : i8
      %s8 = arith.addi %s7, %vi : i8
      %w = arith.extsi %s8 : i8 to i32
      linalg.yield %w : i32
    } -> tensor<2x128xi32>
    return %y : tensor<2x128xi32>
  }
}

