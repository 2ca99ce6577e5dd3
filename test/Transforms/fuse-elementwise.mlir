// RUN: quant-opt %s --qops-fuse-elementwise --split-input-file | FileCheck %s

// quantize_dynamic's glue after ConvInteger: Cast, Mul by the scale product
// (rank 0), Add of a per-channel bias (numpy broadcasting: (d0, d1, 0, 0)),
// Relu: one loop, the same ops in the same order.
// CHECK-LABEL: func.func @glue_chain
// CHECK: %[[Y:.*]] = linalg.generic
// CHECK-SAME: ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x8x4x4xi32>, tensor<f32>, tensor<1x8x1x1xf32>)
// CHECK: arith.sitofp
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.addf
// CHECK-NEXT: arith.maximumf
// CHECK-NOT: linalg.generic
// CHECK: return %[[Y]]
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#scalar = affine_map<(d0, d1, d2, d3) -> ()>
#chan = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
func.func @glue_chain(%acc: tensor<1x8x4x4xi32>, %s: tensor<f32>, %b: tensor<1x8x1x1xf32>) -> tensor<1x8x4x4xf32> {
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %f = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%acc : tensor<1x8x4x4xi32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%a: i32, %o: f32):
    %c = arith.sitofp %a : i32 to f32
    linalg.yield %c : f32
  } -> tensor<1x8x4x4xf32>
  %m = linalg.generic {indexing_maps = [#id, #scalar, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%f, %s : tensor<1x8x4x4xf32>, tensor<f32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%a: f32, %v: f32, %o: f32):
    %c = arith.mulf %a, %v : f32
    linalg.yield %c : f32
  } -> tensor<1x8x4x4xf32>
  %d = linalg.generic {indexing_maps = [#id, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%m, %b : tensor<1x8x4x4xf32>, tensor<1x8x1x1xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%a: f32, %v: f32, %o: f32):
    %c = arith.addf %a, %v : f32
    linalg.yield %c : f32
  } -> tensor<1x8x4x4xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%d : tensor<1x8x4x4xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %c = arith.maximumf %a, %z : f32
    linalg.yield %c : f32
  } -> tensor<1x8x4x4xf32>
  return %y : tensor<1x8x4x4xf32>
}

// -----

// A producer with another user (DynamicQuantizeLinear reads a Relu twice,
// its min/max and its quantization) stays: fusing it would compute it
// twice.
// CHECK-LABEL: func.func @two_users
// CHECK: arith.maximumf
// CHECK: linalg.generic
// CHECK: arith.minimumf
// CHECK: linalg.generic
// CHECK: arith.mulf
#i1 = affine_map<(d0) -> (d0)>
func.func @two_users(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [#i1, #i1], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %c = arith.maximumf %a, %z : f32
    linalg.yield %c : f32
  } -> tensor<64xf32>
  %m = linalg.generic {indexing_maps = [#i1, #i1], iterator_types = ["parallel"]}
      ins(%r : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %z = arith.constant 1.0 : f32
    %c = arith.minimumf %a, %z : f32
    linalg.yield %c : f32
  } -> tensor<64xf32>
  %q = linalg.generic {indexing_maps = [#i1, #i1], iterator_types = ["parallel"]}
      ins(%r : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.mulf %a, %a : f32
    linalg.yield %c : f32
  } -> tensor<64xf32>
  return %m, %q : tensor<64xf32>, tensor<64xf32>
}

// -----

// A reduction (DynamicQuantizeLinear's min/max) takes no producer, even one
// of one use.
// CHECK-LABEL: func.func @reduction_consumer
// CHECK: arith.maximumf
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["reduction"]
// CHECK: arith.minimumf
#i1r = affine_map<(d0) -> (d0)>
#r1 = affine_map<(d0) -> ()>
func.func @reduction_consumer(%x: tensor<64xf32>, %init: tensor<f32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [#i1r, #i1r], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %c = arith.maximumf %a, %z : f32
    linalg.yield %c : f32
  } -> tensor<64xf32>
  %min = linalg.generic {indexing_maps = [#i1r, #r1], iterator_types = ["reduction"]}
      ins(%r : tensor<64xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.minimumf %a, %o : f32
    linalg.yield %c : f32
  } -> tensor<f32>
  return %min : tensor<f32>
}

// -----

// A consumer reading the producer through a window (a depthwise
// convolution's tap, d0 + d1) is not fused into: each element would be
// computed once per tap.
// CHECK-LABEL: func.func @windowed_consumer
// CHECK: linalg.generic
// CHECK: arith.sitofp
// CHECK: linalg.generic
// CHECK: arith.addf
#w = affine_map<(d0, d1) -> (d0 + d1)>
#o2 = affine_map<(d0, d1) -> (d0, d1)>
#i1w = affine_map<(d0) -> (d0)>
func.func @windowed_consumer(%x: tensor<10xi32>) -> tensor<8x3xf32> {
  %e = tensor.empty() : tensor<10xf32>
  %f = linalg.generic {indexing_maps = [#i1w, #i1w], iterator_types = ["parallel"]}
      ins(%x : tensor<10xi32>) outs(%e : tensor<10xf32>) {
  ^bb0(%a: i32, %o: f32):
    %c = arith.sitofp %a : i32 to f32
    linalg.yield %c : f32
  } -> tensor<10xf32>
  %e2 = tensor.empty() : tensor<8x3xf32>
  %y = linalg.generic {indexing_maps = [#w, #o2], iterator_types = ["parallel", "parallel"]}
      ins(%f : tensor<10xf32>) outs(%e2 : tensor<8x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.addf %a, %a : f32
    linalg.yield %c : f32
  } -> tensor<8x3xf32>
  return %y : tensor<8x3xf32>
}

// -----

// A rank-0 producer (the scale product x_scale * w_scale) stays its own
// op: fused, it would be computed at every element.
// CHECK-LABEL: func.func @rank0_producer
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = []
// CHECK: arith.mulf
// CHECK: linalg.generic
// CHECK: arith.mulf
#r0 = affine_map<() -> ()>
#s1 = affine_map<(d0) -> ()>
#v1 = affine_map<(d0) -> (d0)>
func.func @rank0_producer(%a: tensor<f32>, %b: tensor<f32>, %x: tensor<16xf32>) -> tensor<16xf32> {
  %e0 = tensor.empty() : tensor<f32>
  %s = linalg.generic {indexing_maps = [#r0, #r0, #r0], iterator_types = []}
      ins(%a, %b : tensor<f32>, tensor<f32>) outs(%e0 : tensor<f32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %c = arith.mulf %u, %v : f32
    linalg.yield %c : f32
  } -> tensor<f32>
  %e = tensor.empty() : tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#v1, #s1, #v1], iterator_types = ["parallel"]}
      ins(%x, %s : tensor<16xf32>, tensor<f32>) outs(%e : tensor<16xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %c = arith.mulf %u, %v : f32
    linalg.yield %c : f32
  } -> tensor<16xf32>
  return %y : tensor<16xf32>
}

// -----

// A producer of constants alone (a dequantized constant) stays its own op:
// qops-hoist-constant-expressions computes it once; fused, it would run at
// every call.
// CHECK-LABEL: func.func @constant_producer
// CHECK: linalg.generic
// CHECK: arith.sitofp
// CHECK: linalg.generic
// CHECK: arith.mulf
#c1 = affine_map<(d0) -> (d0)>
func.func @constant_producer(%x: tensor<16xf32>) -> tensor<16xf32> {
  %w = arith.constant dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]> : tensor<16xi32>
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.generic {indexing_maps = [#c1, #c1], iterator_types = ["parallel"]}
      ins(%w : tensor<16xi32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: i32, %o: f32):
    %c = arith.sitofp %a : i32 to f32
    linalg.yield %c : f32
  } -> tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#c1, #c1, #c1], iterator_types = ["parallel"]}
      ins(%x, %f : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.mulf %a, %b : f32
    linalg.yield %c : f32
  } -> tensor<16xf32>
  return %y : tensor<16xf32>
}
