// RUN: quant-opt %s --qops-lower-to-llvm | FileCheck %s
// RUN: quant-opt %s --convert-qops-to-linalg --canonicalize --qops-bufferize --qops-linalg-to-llvm | FileCheck %s
// RUN: quant-opt %s --qops-lower-to-llvm | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR

// The whole pipeline, and the same as its named pieces, leaves nothing but
// the LLVM dialect; the ONNX signature survives on the llvm.func.

// CHECK-NOT: {{^ *(%[^ ]+ = )?"?(qops|linalg|tensor|memref|bufferization|scf|cf|arith|math|func)\.}}
// CHECK-LABEL: llvm.func @quantize
// CHECK-SAME: qops.signature = (tensor<?x4xf32>, tensor<4xf32>, tensor<4xsi4>) -> tensor<?x4xsi4>
// CHECK: llvm.intr.roundeven
// CHECK-LABEL: llvm.func @dequantize
// CHECK-LABEL: llvm.func @dynamic_quantize
// CHECK-SAME: -> !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, struct<(ptr, ptr, i64)>, struct<(ptr, ptr, i64)>)>
// CHECK-LABEL: llvm.func @qlinear_matmul
// CHECK-NOT: {{^ *(%[^ ]+ = )?"?(qops|linalg|tensor|memref|bufferization|scf|cf|arith|math|func)\.}}

// LLVMIR: define {{.*}} @quantize(
// LLVMIR: call {{.*}} @llvm.roundeven.{{(v[0-9]+)?}}f32(
// LLVMIR: define {{.*}} @qlinear_matmul(
// LLVMIR: call {{.*}} @llvm.roundeven.{{(v[0-9]+)?}}f64(

func.func @quantize(%x: tensor<?x4xf32>, %s: tensor<4xf32>, %zp: tensor<4xsi4>) -> tensor<?x4xsi4> {
  %y = qops.quantize_linear %x, %s, %zp axis = 1 : tensor<?x4xf32>, tensor<4xf32>, tensor<4xsi4> -> tensor<?x4xsi4>
  return %y : tensor<?x4xsi4>
}

func.func @dequantize(%x: tensor<2x70xsi4>, %s: tensor<2x3xf16>, %zp: tensor<2x3xsi4>) -> tensor<2x70xf16> {
  %y = qops.dequantize_linear %x, %s, %zp axis = 1 block_size = 32 : tensor<2x70xsi4>, tensor<2x3xf16>, tensor<2x3xsi4> -> tensor<2x70xf16>
  return %y : tensor<2x70xf16>
}

func.func @dynamic_quantize(%x: tensor<?xf32>) -> (tensor<?xui8>, tensor<f32>, tensor<ui8>) {
  %y, %s, %zp = qops.dynamic_quantize_linear %x : tensor<?xf32> -> tensor<?xui8>, tensor<f32>, tensor<ui8>
  return %y, %s, %zp : tensor<?xui8>, tensor<f32>, tensor<ui8>
}

func.func @qlinear_matmul(%a: tensor<2x2x4xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<4x3xsi8>, %bs: tensor<3xf32>, %bzp: tensor<3xsi8>, %ys: tensor<f32>, %yzp: tensor<si8>) -> tensor<2x2x3xsi8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<2x2x4xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<4x3xsi8>, tensor<3xf32>, tensor<3xsi8>) y(%ys, %yzp : tensor<f32>, tensor<si8>) -> tensor<2x2x3xsi8>
  return %y : tensor<2x2x3xsi8>
}
