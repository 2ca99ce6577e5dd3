// RUN: quant-opt %s --split-input-file --qops-configure-target="target-triple=x86_64-unknown-linux-gnu target-cpu=znver3" | FileCheck %s --check-prefix=ZEN3
// RUN: quant-opt %s --split-input-file --qops-configure-target="target-triple=aarch64-linux-gnu target-cpu=neoverse-n1" | FileCheck %s --check-prefix=ARM
// RUN: quant-opt %s --split-input-file --qops-configure-target="target-triple=x86_64-unknown-linux-gnu target-cpu=icelake-server int8-strategy=madd" | FileCheck %s --check-prefix=NAMED
// RUN: quant-opt %s --split-input-file --qops-configure-target="target-triple=x86_64-unknown-linux-gnu target-cpu=icelake-server" --convert-qops-to-linalg | FileCheck %s --check-prefix=READ
// RUN: quant-opt %s --split-input-file --qops-configure-target | FileCheck %s --check-prefix=HOST
// RUN: quant-opt %s --split-input-file --qops-configure-target="target-triple=aarch64-linux-gnu target-cpu=neoverse-n1" --convert-qops-to-linalg=int8-strategy=madd | FileCheck %s --check-prefix=NAMED-STRATEGY
// RUN: %expect_exit 1 quant-opt %s --split-input-file --qops-configure-target="target-triple=x86_64-unknown-linux-gnu target-cpu=nosuchcpu" 2>&1 | FileCheck %s --check-prefix=BAD

// The configure step (qops-configure-target): the target and the int8
// strategy resolved once, recorded as the module's qops.target; a later
// pass with no target option (here convert-qops-to-linalg) takes both from
// it: icelake-server's vnni, 32-column panels of 16-lane quads.
// ZEN3: module attributes {qops.target = {cpu = "znver3", features = "", int8_strategy = #qops.int8_strategy<maddubs>, triple = "x86_64-unknown-linux-gnu"}}
// ARM: module attributes {qops.target = {cpu = "neoverse-n1", features = "", int8_strategy = #qops.int8_strategy<sdot>, triple = "aarch64-linux-gnu"}}
// NAMED: module attributes {qops.target = {cpu = "icelake-server", features = "", int8_strategy = #qops.int8_strategy<madd>, triple = "x86_64-unknown-linux-gnu"}}
// READ: module attributes {qops.target = {{{.*}}int8_strategy = #qops.int8_strategy<vnni>
// READ-LABEL: func.func @qmm
// READ: qkernel.dot_u8s8_quads %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi32>
// HOST: module attributes {qops.target = {cpu = "{{.+}}", features = "{{.*}}", int8_strategy = #qops.int8_strategy<{{[a-z]+}}>, triple = "{{.+}}"}}
// BAD: error: unknown CPU 'nosuchcpu'
func.func @qmm(%a: tensor<64x64xui8>, %b: tensor<64x64xsi8>) -> tensor<64x64xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<1> : tensor<ui8>
  %zb = arith.constant dense<0> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<64x64xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<64x64xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<64x64xui8>
  return %y : tensor<64x64xui8>
}

// -----

// A module configured already keeps its target when the pass has no option
// (the HOST run), and an option replaces it (the others).
// HOST: module attributes {qops.target = {cpu = "cortex-a72", features = "", int8_strategy = #qops.int8_strategy<madd>, triple = "aarch64-linux-gnu"}}
// ZEN3: module attributes {qops.target = {cpu = "znver3",
module attributes {qops.target = {cpu = "cortex-a72", features = "", int8_strategy = #qops.int8_strategy<madd>, triple = "aarch64-linux-gnu"}} {
  func.func @empty() {
    return
  }
}

// -----

// A strategy named to convert-qops-to-linalg replaces the configured one,
// the target stays the configured one: DynamicQuantizeLinear's min/max lanes
// are 4 registers of neoverse-n1 (16 f32 lanes), not of this host.
// NAMED-STRATEGY-LABEL: func.func @dq
// NAMED-STRATEGY: tensor.expand_shape {{.*}} into tensor<256x16xf32>
func.func @dq(%x: tensor<4096xf32>) -> (tensor<4096xui8>, tensor<f32>, tensor<ui8>) {
  %y, %s, %z = qops.dynamic_quantize_linear %x : tensor<4096xf32> -> tensor<4096xui8>, tensor<f32>, tensor<ui8>
  return %y, %s, %z : tensor<4096xui8>, tensor<f32>, tensor<ui8>
}
