// RUN: quant-opt %s --convert-qops-to-linalg --split-input-file | FileCheck %s

// ONNX element types become storage types on function boundaries, calls and
// constants; the ONNX signature is kept in qops.signature.
// CHECK-LABEL: func.func @callee
// CHECK-SAME: (%{{.*}}: tensor<4xi8>, %{{.*}}: tensor<2xi16>) -> tensor<4xi8>
// CHECK-SAME: qops.signature = (tensor<4xsi4>, tensor<2xui16>) -> tensor<4xsi4>
func.func @callee(%x: tensor<4xsi4>, %y: tensor<2xui16>) -> tensor<4xsi4> {
  return %x : tensor<4xsi4>
}

// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[X:.*]]: tensor<4xi8>) -> tensor<4xi8>
// CHECK-DAG: %[[U16:.*]] = arith.constant dense<[-1, 1]> : tensor<2xi16>
// CHECK: %[[R:.*]] = call @callee(%[[X]], %[[U16]]) : (tensor<4xi8>, tensor<2xi16>) -> tensor<4xi8>
// CHECK: return %[[R]] : tensor<4xi8>
func.func @caller(%x: tensor<4xsi4>) -> tensor<4xsi4> {
  %c = arith.constant dense<[65535, 1]> : tensor<2xui16>
  %r = call @callee(%x, %c) : (tensor<4xsi4>, tensor<2xui16>) -> tensor<4xsi4>
  return %r : tensor<4xsi4>
}

// -----

// Sub-byte constants are widened by their signedness (byte by byte from
// the attribute's buffer: widenSubByteElements; below viewed-constant-bytes
// a dense copy, viewed-constants.mlir has the large ones); float8 and
// float4 constants keep their bit patterns.
// CHECK-LABEL: func.func @constants
// CHECK-DAG: arith.constant dense<[-8, 7, -1]> : tensor<3xi8>
// CHECK-DAG: arith.constant dense<[15, 0]> : tensor<2xi8>
// CHECK-DAG: arith.constant dense<[56, -72]> : tensor<2xi8>
// CHECK-DAG: arith.constant dense<[-2, 1, -1]> : tensor<3xi8>
// CHECK-DAG: arith.constant dense<[3, 0, 2]> : tensor<3xi8>
// CHECK-DAG: arith.constant dense<[2, 15, 0]> : tensor<3xi8>
func.func @constants() -> (tensor<3xsi4>, tensor<2xui4>, tensor<2xf8E4M3FN>, tensor<3xsi2>, tensor<3xui2>, tensor<3xf4E2M1FN>) {
  %a = arith.constant dense<[-8, 7, -1]> : tensor<3xsi4>
  %b = arith.constant dense<[15, 0]> : tensor<2xui4>
  %c = arith.constant dense<[1.0, -1.0]> : tensor<2xf8E4M3FN>
  %d = arith.constant dense<[-2, 1, -1]> : tensor<3xsi2>
  %e = arith.constant dense<[3, 0, 2]> : tensor<3xui2>
  %f = arith.constant dense<[1.0, -6.0, 0.0]> : tensor<3xf4E2M1FN>
  return %a, %b, %c, %d, %e, %f : tensor<3xsi4>, tensor<2xui4>, tensor<2xf8E4M3FN>, tensor<3xsi2>, tensor<3xui2>, tensor<3xf4E2M1FN>
}

// -----

// A constant zero point feeds the generic directly.
// CHECK-LABEL: func.func @constant_zero_point
// CHECK: %[[ZP:.*]] = arith.constant dense<-3> : tensor<i8>
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %{{.*}}, %[[ZP]] : tensor<4xf32>, tensor<f32>, tensor<i8>)
func.func @constant_zero_point(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xsi8> {
  %zp = arith.constant dense<-3> : tensor<si8>
  %y = qops.quantize_linear %x, %s, %zp : tensor<4xf32>, tensor<f32>, tensor<si8> -> tensor<4xsi8>
  return %y : tensor<4xsi8>
}

// -----

// Casts between an ONNX type and its storage type (the importer's bridges
// around upstream ops) fold away.
// CHECK-LABEL: func.func @storage_casts
// CHECK-SAME: (%[[X:.*]]: tensor<4xi8>) -> tensor<4xi8>
// CHECK-NOT: unrealized_conversion_cast
// CHECK: return %[[X]] : tensor<4xi8>
func.func @storage_casts(%x: tensor<4xui8>) -> tensor<4xui8> {
  %0 = builtin.unrealized_conversion_cast %x : tensor<4xui8> to tensor<4xi8>
  %1 = builtin.unrealized_conversion_cast %0 : tensor<4xi8> to tensor<4xui8>
  return %1 : tensor<4xui8>
}

// -----

// A splat constant stays a splat in storage, however many elements it has
// (10^10 here: expanding it element by element cannot work).
// CHECK-LABEL: func.func @huge_splat_constant
// CHECK: %[[C:.*]] = arith.constant dense<-7> : tensor<100000x100000xi8>
// CHECK: return %[[C]] : tensor<100000x100000xi8>
func.func @huge_splat_constant() -> tensor<100000x100000xui8> {
  %c = arith.constant dense<249> : tensor<100000x100000xui8>
  return %c : tensor<100000x100000xui8>
}
