// RUN: quant-opt %s --qops-lower-to-llvm="target-triple=x86_64-unknown-linux-gnu target-cpu=x86-64-v3" | FileCheck %s
// RUN: quant-opt %s --qops-lower-to-llvm="target-triple=x86_64-unknown-linux-gnu target-cpu=x86-64-v3" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR
// RUN: quant-opt %s --qops-lower-to-llvm="target-triple=x86_64-unknown-linux-gnu target-cpu=x86-64-v3 share-loop-nests=0" | FileCheck %s --check-prefix=OFF

// Two QLinearMatMul layers of the same shape (a model's repeated blocks):
// each loop nest they have in common (b's packing, the kernel's tiles, the
// epilogue) is one internal function that both layers call, compiled once;
// LLVM does not inline it back. Pipeline option share-loop-nests=0: every
// nest in place.
// CHECK-LABEL: llvm.func @two_layers
// CHECK: llvm.call @[[N0:two_layers_nest_[0-9]+]](
// CHECK: llvm.call @[[N1:two_layers_nest_[0-9]+]](
// CHECK: llvm.call @[[N2:two_layers_nest_[0-9]+]](
// CHECK: llvm.call @[[N0]](
// CHECK: llvm.call @[[N1]](
// CHECK: llvm.call @[[N2]](
// CHECK: llvm.return
// The kernel's nest (x86-64-v3: the madd tile) is also marked an int8
// kernel (qops-lower-kernel-intrinsics), the others are not.
// CHECK-DAG: llvm.func internal @[[N0]]({{.*}}passthrough = ["noinline"]
// CHECK-DAG: llvm.func internal @[[N1]]({{.*}}passthrough = ["noinline"]
// CHECK-DAG: llvm.func internal @[[N2]]({{.*}}passthrough = ["noinline", "qops-int8-kernel"]
// A layer of other shapes (a, b and y), alone: it compiles as before, in
// place.
// CHECK-LABEL: llvm.func @one_layer
// CHECK-NOT: llvm.call @{{.*}}_nest_
// CHECK: llvm.return

// LLVMIR: define {{.*}} @two_layers(
// LLVMIR: define internal void @two_layers_nest_{{[0-9]+}}({{.*}}) #[[ATTRS:[0-9]+]]
// LLVMIR: attributes #[[ATTRS]] = { noinline

// OFF-NOT: _nest_

func.func @two_layers(%a: tensor<48x96xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b0: tensor<96x80xsi8>, %b1: tensor<96x80xsi8>, %bs: tensor<f32>, %bzp: tensor<si8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> (tensor<48x80xui8>, tensor<48x80xui8>) {
  %y0 = qops.qlinear_matmul a(%a, %as, %azp : tensor<48x96xui8>, tensor<f32>, tensor<ui8>) b(%b0, %bs, %bzp : tensor<96x80xsi8>, tensor<f32>, tensor<si8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<48x80xui8>
  %y1 = qops.qlinear_matmul a(%a, %as, %azp : tensor<48x96xui8>, tensor<f32>, tensor<ui8>) b(%b1, %bs, %bzp : tensor<96x80xsi8>, tensor<f32>, tensor<si8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<48x80xui8>
  return %y0, %y1 : tensor<48x80xui8>, tensor<48x80xui8>
}

func.func @one_layer(%a: tensor<40x72xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b0: tensor<72x64xsi8>, %bs: tensor<f32>, %bzp: tensor<si8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<40x64xui8> {
  %y0 = qops.qlinear_matmul a(%a, %as, %azp : tensor<40x72xui8>, tensor<f32>, tensor<ui8>) b(%b0, %bs, %bzp : tensor<72x64xsi8>, tensor<f32>, tensor<si8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<40x64xui8>
  return %y0 : tensor<40x64xui8>
}
