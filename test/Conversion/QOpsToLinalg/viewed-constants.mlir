// RUN: quant-opt %s --convert-qops-to-linalg="viewed-constant-bytes=4" --split-input-file | FileCheck %s
// RUN: quant-opt %s --convert-qops-to-linalg --split-input-file | FileCheck %s --check-prefix=COPY

// An 8- or 16-bit integer constant of at least viewed-constant-bytes bytes
// becomes a dense_resource on the ONNX-typed constant's buffer (no copy of
// the weights); a smaller one, and every one below the default (64 KiB),
// a dense copy. The resource holds the same bytes.
// CHECK-LABEL: func.func @large_si8
// CHECK: arith.constant dense_resource<[[BLOB:qops_bytes[_0-9]*]]> : tensor<2x2xi8>
// CHECK: arith.constant dense<[1, 2]> : tensor<2xi8>
// COPY-LABEL: func.func @large_si8
// COPY: arith.constant dense<{{\[\[}}-1, 2], [3, -128]]> : tensor<2x2xi8>
func.func @large_si8() -> (tensor<2x2xsi8>, tensor<2xsi8>) {
  %w = arith.constant dense<[[-1, 2], [3, -128]]> : tensor<2x2xsi8>
  %s = arith.constant dense<[1, 2]> : tensor<2xsi8>
  return %w, %s : tensor<2x2xsi8>, tensor<2xsi8>
}
// CHECK: dialect_resources
// CHECK: [[BLOB]]: "0x01000000FF020380"

// -----

// 16-bit: the blob keeps the elements' alignment (2), little-endian bytes.
// CHECK-LABEL: func.func @large_ui16
// CHECK: arith.constant dense_resource<[[BLOB:qops_bytes[_0-9]*]]> : tensor<2xi16>
func.func @large_ui16() -> tensor<2xui16> {
  %w = arith.constant dense<[65535, 1]> : tensor<2xui16>
  return %w : tensor<2xui16>
}
// CHECK: [[BLOB]]: "0x02000000FFFF0100"
