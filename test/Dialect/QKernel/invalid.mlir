// RUN: quant-opt %s -split-input-file -verify-diagnostics

// qkernel.dot_u8s8_quads: 8 or 16 i32 lanes, all operands of the result's type.
func.func @dot_quads_lanes(%v: vector<4xi32>) {
  // expected-error @+1 {{operand #0 must be vector of 32-bit signless integer values of length 8/16}}
  %r = qkernel.dot_u8s8_quads %v, %v, %v : vector<4xi32>
  return
}

// -----

func.func @dot_quads_element(%v: vector<8xf32>) {
  // expected-error @+1 {{operand #0 must be vector of 32-bit signless integer values of length 8/16}}
  %r = qkernel.dot_u8s8_quads %v, %v, %v : vector<8xf32>
  return
}

// -----

func.func @dot_quads_mixed(%a: vector<8xi32>, %b: vector<16xi32>) {
  // expected-error @+1 {{all of {acc, a, b, result} have same type}}
  %r = "qkernel.dot_u8s8_quads"(%a, %a, %b) : (vector<8xi32>, vector<8xi32>, vector<16xi32>) -> vector<8xi32>
  return
}

// -----

func.func @dot_s8s8_quads_lanes(%v: vector<2xi32>) {
  // expected-error @+1 {{operand #0 must be vector of 32-bit signless integer values of length 8/16}}
  %r = qkernel.dot_s8s8_quads %v, %v, %v : vector<2xi32>
  return
}

// -----

func.func @dot_s8s8_quads_mixed(%a: vector<8xi32>, %b: vector<16xi32>) {
  // expected-error @+1 {{all of {acc, a, b, result} have same type}}
  %r = "qkernel.dot_s8s8_quads"(%a, %b, %a) : (vector<8xi32>, vector<16xi32>, vector<8xi32>) -> vector<8xi32>
  return
}

// -----

// qkernel.mmla_u8s8: one 128-bit register, 4 i32 lanes, all operands alike.
func.func @mmla_lanes(%v: vector<8xi32>) {
  // expected-error @+1 {{operand #0 must be vector of 32-bit signless integer values of length 4}}
  %r = qkernel.mmla_u8s8 %v, %v, %v : vector<8xi32>
  return
}

// -----

func.func @mmla_mixed(%a: vector<4xi32>, %b: vector<4xf32>) {
  // expected-error @+1 {{operand #2 must be vector of 32-bit signless integer values of length 4}}
  %r = "qkernel.mmla_u8s8"(%a, %a, %b) : (vector<4xi32>, vector<4xi32>, vector<4xf32>) -> vector<4xi32>
  return
}
