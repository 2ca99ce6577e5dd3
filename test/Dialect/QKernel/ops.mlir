// RUN: quant-opt %s | quant-opt | FileCheck %s
// RUN: quant-opt %s --mlir-print-op-generic | quant-opt | FileCheck %s

// The int8 kernels' dot op, 8 and 16 lanes, and with
// the maddubs strategy's pair_sums_fit_i16.
// CHECK-LABEL: func.func @dot_u8s8_quads
// CHECK: %{{.*}} = qkernel.dot_u8s8_quads %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK: %{{.*}} = qkernel.dot_u8s8_quads %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK: %{{.*}} = qkernel.dot_u8s8_quads %{{.*}}, %{{.*}}, %{{.*}} {pair_sums_fit_i16} : vector<8xi32>
func.func @dot_u8s8_quads(%acc: vector<8xi32>, %a: vector<8xi32>, %b: vector<8xi32>, %acc16: vector<16xi32>) -> (vector<8xi32>, vector<16xi32>, vector<8xi32>) {
  %r = qkernel.dot_u8s8_quads %acc, %a, %b : vector<8xi32>
  %r16 = qkernel.dot_u8s8_quads %acc16, %acc16, %acc16 : vector<16xi32>
  %rp = qkernel.dot_u8s8_quads %acc, %a, %b {pair_sums_fit_i16} : vector<8xi32>
  return %r, %r16, %rp : vector<8xi32>, vector<16xi32>, vector<8xi32>
}

// CHECK-LABEL: func.func @dot_s8s8_quads
// CHECK: %{{.*}} = qkernel.dot_s8s8_quads %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi32>
func.func @dot_s8s8_quads(%acc: vector<8xi32>) -> vector<8xi32> {
  %r = qkernel.dot_s8s8_quads %acc, %acc, %acc : vector<8xi32>
  return %r : vector<8xi32>
}

// CHECK-LABEL: func.func @mmla_u8s8
// CHECK: %{{.*}} = qkernel.mmla_u8s8 %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi32>
func.func @mmla_u8s8(%acc: vector<4xi32>, %a: vector<4xi32>, %b: vector<4xi32>) -> vector<4xi32> {
  %r = qkernel.mmla_u8s8 %acc, %a, %b : vector<4xi32>
  return %r : vector<4xi32>
}
