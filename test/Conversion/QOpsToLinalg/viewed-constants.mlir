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

// -----

// Sub-byte elements, one per byte in its low bits. Unsigned integers and
// floats are their own storage bytes: viewed like si8. Signed ones are
// widened by sign (-8 -> 0xF8, 7 -> 0x07, -1 -> 0xFF, 0 -> 0x00) into a
// resource of their own, not a dense copy.
// CHECK-LABEL: func.func @large_sub_byte
// CHECK: arith.constant dense_resource<[[U4:qops_bytes[_0-9]*]]> : tensor<4xi8>
// CHECK: arith.constant dense_resource<[[F4:qops_bytes[_0-9]*]]> : tensor<4xi8>
// CHECK: arith.constant dense_resource<[[S4:qops_bytes[_0-9]*]]> : tensor<4xi8>
// CHECK: arith.constant dense_resource<[[S2:qops_bytes[_0-9]*]]> : tensor<4xi8>
// COPY-LABEL: func.func @large_sub_byte
// COPY: arith.constant dense<[15, 0, 7, 8]> : tensor<4xi8>
// COPY: arith.constant dense<[2, 15, 0, 8]> : tensor<4xi8>
// COPY: arith.constant dense<[-8, 7, -1, 0]> : tensor<4xi8>
// COPY: arith.constant dense<[-2, 1, -1, 0]> : tensor<4xi8>
func.func @large_sub_byte() -> (tensor<4xui4>, tensor<4xf4E2M1FN>, tensor<4xsi4>, tensor<4xsi2>) {
  %u4 = arith.constant dense<[15, 0, 7, 8]> : tensor<4xui4>
  %f4 = arith.constant dense<[1.0, -6.0, 0.0, -0.0]> : tensor<4xf4E2M1FN>
  %s4 = arith.constant dense<[-8, 7, -1, 0]> : tensor<4xsi4>
  %s2 = arith.constant dense<[-2, 1, -1, 0]> : tensor<4xsi2>
  return %u4, %f4, %s4, %s2 : tensor<4xui4>, tensor<4xf4E2M1FN>, tensor<4xsi4>, tensor<4xsi2>
}
// CHECK: dialect_resources
// CHECK-DAG: [[U4]]: "0x010000000F000708"
// CHECK-DAG: [[F4]]: "0x01000000020F0008"
// CHECK-DAG: [[S4]]: "0x01000000F807FF00"
// CHECK-DAG: [[S2]]: "0x01000000FE01FF00"

// -----

// A signed sub-byte buffer already sign-extended (as the ONNX decoder
// writes one; the hex form keeps the bytes): its own storage, viewed; the
// same bytes as the widened copy.
// CHECK-LABEL: func.func @large_si4_sign_extended
// CHECK: arith.constant dense_resource<[[S4:qops_bytes[_0-9]*]]> : tensor<4xi8>
// COPY-LABEL: func.func @large_si4_sign_extended
// COPY: arith.constant dense<[-8, 7, -1, 0]> : tensor<4xi8>
func.func @large_si4_sign_extended() -> tensor<4xsi4> {
  %s4 = arith.constant dense<"0xF807FF00"> : tensor<4xsi4>
  return %s4 : tensor<4xsi4>
}
// CHECK: [[S4]]: "0x01000000F807FF00"

// -----

// dense_resource constants (the MatMulNBits import writes its large
// unpacked weights so, without a copy into a dense attribute): viewed or
// widened like a dense buffer of any size, never copied into a dense
// attribute. ui4 zero-extended: viewed; si4 in its low bits only: widened
// by sign into a resource of its own; si8: viewed.
// CHECK-LABEL: func.func @resource_inputs
// CHECK: arith.constant dense_resource<[[U4:qops_bytes[_0-9]*]]> : tensor<4xi8>
// CHECK: arith.constant dense_resource<[[S4:qops_bytes[_0-9]*]]> : tensor<4xi8>
// CHECK: arith.constant dense_resource<[[S8:qops_bytes[_0-9]*]]> : tensor<2xi8>
// COPY-LABEL: func.func @resource_inputs
// COPY: arith.constant dense_resource<[[U4:qops_bytes[_0-9]*]]> : tensor<4xi8>
// COPY: arith.constant dense_resource<[[S4:qops_bytes[_0-9]*]]> : tensor<4xi8>
// COPY: arith.constant dense_resource<[[S8:qops_bytes[_0-9]*]]> : tensor<2xi8>
func.func @resource_inputs() -> (tensor<4xui4>, tensor<4xsi4>, tensor<2xsi8>) {
  %u4 = arith.constant dense_resource<nbits_q> : tensor<4xui4>
  %s4 = arith.constant dense_resource<low_bits> : tensor<4xsi4>
  %s8 = arith.constant dense_resource<bytes8> : tensor<2xsi8>
  return %u4, %s4, %s8 : tensor<4xui4>, tensor<4xsi4>, tensor<2xsi8>
}
{-#
  dialect_resources: {
    builtin: {
      nbits_q: "0x010000000F000708",
      low_bits: "0x0100000008070F00",
      bytes8: "0x01000000FF80"
    }
  }
#-}
// CHECK: dialect_resources
// CHECK-DAG: [[U4]]: "0x010000000F000708"
// CHECK-DAG: [[S4]]: "0x01000000F807FF00"
// CHECK-DAG: [[S8]]: "0x01000000FF80"
// COPY: dialect_resources
// COPY-DAG: [[U4]]: "0x010000000F000708"
// COPY-DAG: [[S4]]: "0x01000000F807FF00"
// COPY-DAG: [[S8]]: "0x01000000FF80"
