// RUN: quant-opt %s --convert-qops-to-linalg=int8-strategy=maddubs --qops-lower-packing --split-input-file | FileCheck %s
// RUN: quant-opt %s --convert-qops-to-linalg="target-triple=x86_64-unknown-linux-gnu target-cpu=znver3" --qops-lower-packing --split-input-file | FileCheck %s
// RUN: quant-opt %s --convert-qops-to-linalg=int8-strategy=madd --qops-lower-packing --split-input-file | FileCheck %s --check-prefix=MADD

// The maddubs strategy (x86 AVX2 without VNNI; znver3's): a constant b whose
// every pair of k rows (2q, 2q + 1) has, per column, positive parts and
// negative parts of b' that each sum to at most 128 gets the avxvnni kernel
// (u8 x s8 quads, 6 x 16 tiles, b packed into quads by the same IR as a b
// known only at run time: qops-hoist-constant-expressions runs it once) with
// its dot products marked pair_sums_fit_i16 (VPMADDUBSW + VPMADDWD by ones:
// 255 * 128 = 32640 fits i16, whatever a is). Here the pairs hit the bounds:
// (127, 1), (1, 127), (-128, 0), (-64, -64), (64, 64) and (-128, 127).
// CHECK-LABEL: func.func @bounds_fit
// CHECK: } -> (tensor<1x1x3x16xi32>, tensor<1x1x16xi32>)
// CHECK: scf.for {{.*}} -> (vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>)
// CHECK: qkernel.dot_u8s8_quads %{{.*}}, %{{.*}}, %{{.*}} {pair_sums_fit_i16} : vector<8xi32>
// MADD-LABEL: func.func @bounds_fit
// MADD-NOT: qkernel.dot_u8s8_quads
// MADD: qkernel.dot_i16_pairs %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi16> -> vector<8xi32>
func.func @bounds_fit(%a: tensor<7x12xui8>) -> tensor<7x16xui8> {
  %b = arith.constant dense<[
    [127, 1, -128, -64, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [1, 127, 0, -64, 64, 127, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [3, -3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [5, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9]]> : tensor<12x16xsi8>
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<0> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<7x12xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<12x16xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<7x16xui8>
  return %y : tensor<7x16xui8>
}

// -----

// One pair over a bound: positive parts 127 + 2 = 129 (255 * 129 = 32895
// saturates i16): the madd kernel, VPMADDWD on i16 pairs.
// CHECK-LABEL: func.func @positive_pair_over
// CHECK-NOT: qkernel.dot_u8s8_quads
// CHECK: qkernel.dot_i16_pairs %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi16> -> vector<8xi32>
func.func @positive_pair_over(%a: tensor<7x2xui8>) -> tensor<7x2xui8> {
  %b = arith.constant dense<[[127, 0], [2, 0]]> : tensor<2x2xsi8>
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<0> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<7x2xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<2x2xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<7x2xui8>
  return %y : tensor<7x2xui8>
}

// -----

// Negative parts 128 + 1 = 129: madd. The pairs are rows (2q, 2q + 1): rows
// 1 and 2 (-128, -1) are in different pairs and would fit; rows 2 and 3 are
// the pair that does not.
// CHECK-LABEL: func.func @negative_pair_over
// CHECK-NOT: qkernel.dot_u8s8_quads
func.func @negative_pair_over(%a: tensor<7x4xui8>) -> tensor<7x2xui8> {
  %b = arith.constant dense<[[0, 0], [-128, 0], [-1, 0], [-128, 0]]> : tensor<4x2xsi8>
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<0> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<7x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<4x2xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<7x2xui8>
  return %y : tensor<7x2xui8>
}

// -----

// A ui8 b is read as b' = b - 128: 255 and 1 (b' 127 and -127) in one pair
// fit (one positive, one negative part), as do 255 and 129 (b' 127 + 1 =
// 128); 255 with 130 (b' 127 + 2) does not.
// CHECK-LABEL: func.func @ui8_fits
// CHECK: qkernel.dot_u8s8_quads %{{.*}}, %{{.*}}, %{{.*}} {pair_sums_fit_i16}
// CHECK-LABEL: func.func @ui8_over
// CHECK-NOT: qkernel.dot_u8s8_quads
func.func @ui8_fits(%a: tensor<7x2xsi8>) -> tensor<7x2xsi8> {
  %b = arith.constant dense<[[255, 129], [1, 255]]> : tensor<2x2xui8>
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<si8>
  %zb = arith.constant dense<128> : tensor<ui8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<7x2xsi8>, tensor<f32>, tensor<si8>) b(%b, %s, %zb : tensor<2x2xui8>, tensor<f32>, tensor<ui8>) y(%s, %za : tensor<f32>, tensor<si8>) -> tensor<7x2xsi8>
  return %y : tensor<7x2xsi8>
}
func.func @ui8_over(%a: tensor<7x2xsi8>) -> tensor<7x2xsi8> {
  %b = arith.constant dense<[[255, 128], [130, 128]]> : tensor<2x2xui8>
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<si8>
  %zb = arith.constant dense<128> : tensor<ui8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<7x2xsi8>, tensor<f32>, tensor<si8>) b(%b, %s, %zb : tensor<2x2xui8>, tensor<f32>, tensor<ui8>) y(%s, %za : tensor<f32>, tensor<si8>) -> tensor<7x2xsi8>
  return %y : tensor<7x2xsi8>
}

// -----

// b an argument: nothing to prove, the madd kernel.
// CHECK-LABEL: func.func @runtime_b
// CHECK-NOT: qkernel.dot_u8s8_quads
// CHECK: qkernel.dot_i16_pairs %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi16> -> vector<8xi32>
func.func @runtime_b(%a: tensor<7x8xui8>, %b: tensor<8x16xsi8>) -> tensor<7x16xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<0> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<7x8xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<8x16xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<7x16xui8>
  return %y : tensor<7x16xui8>
}
