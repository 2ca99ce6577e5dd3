// RUN: quant-opt %s -split-input-file --qops-to-quant | FileCheck %s
// RUN: quant-opt %s -split-input-file --pass-pipeline='builtin.module(qops-to-quant{emit-remarks=1})' -verify-diagnostics > /dev/null

// qops Q/DQ with constant parameters -> quant.qcast / quant.dcast on the
// equivalent !quant.uniform type. The remarks (second RUN line) say why an
// op stays in qops.

// CHECK-LABEL: func.func @per_tensor_pair
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT: arith.constant
// CHECK: %[[Q:.*]] = quant.qcast %[[X]] : tensor<4xf32> to tensor<4x!quant.uniform<u8:f32, 5.000000e-01:128>>
// CHECK: %[[D:.*]] = quant.dcast %[[Q]] : tensor<4x!quant.uniform<u8:f32, 5.000000e-01:128>> to tensor<4xf32>
// CHECK: return %[[D]]
func.func @per_tensor_pair(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %z = arith.constant dense<128> : tensor<ui8>
  %q = qops.quantize_linear %x, %s, %z : tensor<4xf32>, tensor<f32>, tensor<ui8> -> tensor<4xui8>
  %d = qops.dequantize_linear %q, %s, %z : tensor<4xui8>, tensor<f32>, tensor<ui8> -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// A returned quantized value changes the function's result type; no zero
// point means 0; a one-element 1-D scale is per-tensor.
// CHECK-LABEL: func.func @returned_si4
// CHECK-SAME: -> tensor<3x!quant.uniform<i4:f32, 2.500000e-01>>
// CHECK: quant.qcast %{{.*}} : tensor<3xf32> to tensor<3x!quant.uniform<i4:f32, 2.500000e-01>>
func.func @returned_si4(%x: tensor<3xf32>) -> tensor<3xsi4> {
  %s = arith.constant dense<[0.25]> : tensor<1xf32>
  %q = qops.quantize_linear %x, %s output_dtype = si4 : tensor<3xf32>, tensor<1xf32> -> tensor<3xsi4>
  return %q : tensor<3xsi4>
}

// -----

// CHECK-LABEL: func.func @per_axis_argument
// CHECK-SAME: (%[[A:.*]]: tensor<?x3x!quant.uniform<i8:f32:1, {1.000000e+00:-1,2.000000e+00,5.000000e-01:7}>>) -> tensor<?x3xf32>
// CHECK: quant.dcast %[[A]] : tensor<?x3x!quant.uniform<i8:f32:1, {1.000000e+00:-1,2.000000e+00,5.000000e-01:7}>> to tensor<?x3xf32>
func.func @per_axis_argument(%a: tensor<?x3xsi8>) -> tensor<?x3xf32> {
  %s = arith.constant dense<[1.0, 2.0, 0.5]> : tensor<3xf32>
  %z = arith.constant dense<[-1, 0, 7]> : tensor<3xsi8>
  %d = qops.dequantize_linear %a, %s, %z axis = -1 : tensor<?x3xsi8>, tensor<3xf32>, tensor<3xsi8> -> tensor<?x3xf32>
  return %d : tensor<?x3xf32>
}

// -----

// Blocked -> sub-channel with block size 1 on the other dimensions.
// CHECK-LABEL: func.func @blocked
// CHECK: quant.qcast %{{.*}} : tensor<2x8xf32> to tensor<2x8x!quant.uniform<u8:f32:{0:1, 1:4}, {{\{\{}}1.000000e+00:1, 2.000000e+00:2}, {3.000000e+00:3, 4.000000e+00:4}}>>
// CHECK: quant.dcast
func.func @blocked(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %s = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %z = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xui8>
  %q = qops.quantize_linear %x, %s, %z axis = 1 block_size = 4 : tensor<2x8xf32>, tensor<2x2xf32>, tensor<2x2xui8> -> tensor<2x8xui8>
  %d = qops.dequantize_linear %q, %s, %z axis = 1 block_size = 4 : tensor<2x8xui8>, tensor<2x2xf32>, tensor<2x2xui8> -> tensor<2x8xf32>
  return %d : tensor<2x8xf32>
}

// -----

// CHECK-LABEL: func.func @non_constant_scale
// CHECK: qops.quantize_linear
// CHECK-NOT: quant.qcast
func.func @non_constant_scale(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xui8> {
  // expected-remark@+1 {{left as qops: the scale is not a constant}}
  %q = qops.quantize_linear %x, %s : tensor<4xf32>, tensor<f32> -> tensor<4xui8>
  return %q : tensor<4xui8>
}

// -----

// CHECK-LABEL: func.func @non_constant_zero_point
// CHECK: qops.dequantize_linear
func.func @non_constant_zero_point(%a: tensor<4xui8>, %z: tensor<ui8>) -> tensor<4xf32> {
  %s = arith.constant dense<0.5> : tensor<f32>
  // expected-remark@+1 {{left as qops: the zero point is not a constant}}
  %d = qops.dequantize_linear %a, %s, %z : tensor<4xui8>, tensor<f32>, tensor<ui8> -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @float8
// CHECK: qops.quantize_linear
func.func @float8(%x: tensor<4xf32>) -> tensor<4xf8E4M3FN> {
  %s = arith.constant dense<0.5> : tensor<f32>
  // expected-remark@+1 {{left as qops: element type has no !quant.uniform storage type in MLIR 22}}
  %q = qops.quantize_linear %x, %s output_dtype = f8E4M3FN : tensor<4xf32>, tensor<f32> -> tensor<4xf8E4M3FN>
  return %q : tensor<4xf8E4M3FN>
}

// -----

// CHECK-LABEL: func.func @float4_and_int32
// CHECK: qops.quantize_linear
// CHECK: qops.dequantize_linear
func.func @float4_and_int32(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf4E2M1FN>, tensor<4xf32>) {
  %s = arith.constant dense<0.5> : tensor<f32>
  // expected-remark@+1 {{left as qops: element type has no !quant.uniform storage type}}
  %q = qops.quantize_linear %x, %s output_dtype = f4E2M1FN : tensor<4xf32>, tensor<f32> -> tensor<4xf4E2M1FN>
  // expected-remark@+1 {{left as qops: element type has no !quant.uniform storage type}}
  %d = qops.dequantize_linear %i, %s : tensor<4xi32>, tensor<f32> -> tensor<4xf32>
  return %q, %d : tensor<4xf4E2M1FN>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @scale_type_differs
// CHECK: qops.quantize_linear
func.func @scale_type_differs(%x: tensor<4xf32>) -> tensor<4xui8> {
  %s = arith.constant dense<0.5> : tensor<f16>
  // expected-remark@+1 {{left as qops: the scale's type differs from the float type}}
  %q = qops.quantize_linear %x, %s : tensor<4xf32>, tensor<f16> -> tensor<4xui8>
  return %q : tensor<4xui8>
}

// -----

// CHECK-LABEL: func.func @precision
// CHECK: qops.quantize_linear
func.func @precision(%x: tensor<4xf32>) -> tensor<4xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  // expected-remark@+1 {{left as qops: 'precision' has no !quant.uniform equivalent}}
  %q = qops.quantize_linear %x, %s precision = f16 : tensor<4xf32>, tensor<f32> -> tensor<4xui8>
  return %q : tensor<4xui8>
}

// -----

// The last block is partial (10 = 4 + 4 + 2): quant needs full blocks.
// CHECK-LABEL: func.func @partial_block
// CHECK: qops.quantize_linear
func.func @partial_block(%x: tensor<2x10xf32>) -> tensor<2x10xui8> {
  %s = arith.constant dense<1.0> : tensor<2x3xf32>
  // expected-remark@+1 {{left as qops: blocked quantization needs a static shape whose blocked dimension is a multiple of block_size}}
  %q = qops.quantize_linear %x, %s axis = 1 block_size = 4 : tensor<2x10xf32>, tensor<2x3xf32> -> tensor<2x10xui8>
  return %q : tensor<2x10xui8>
}

// -----

// Dequantizations with other parameters than the quantization: the value
// cannot have one quant type.
// CHECK-LABEL: func.func @mismatched_parameters
// CHECK: qops.quantize_linear
// CHECK: qops.dequantize_linear
func.func @mismatched_parameters(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %s2 = arith.constant dense<0.25> : tensor<f32>
  // expected-remark@+1 {{left as qops: a qops.dequantize_linear using the result has other or non-convertible parameters}}
  %q = qops.quantize_linear %x, %s : tensor<4xf32>, tensor<f32> -> tensor<4xui8>
  // expected-remark@+1 {{left as qops: its input is neither a converted qops.quantize_linear result nor a function argument used only by matching dequantizations}}
  %d = qops.dequantize_linear %q, %s2 : tensor<4xui8>, tensor<f32> -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// A function with callers keeps its signature.
// CHECK-LABEL: func.func @called
// CHECK: qops.quantize_linear
func.func @called(%x: tensor<4xf32>) -> tensor<4xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  // expected-remark@+1 {{left as qops: returned from a function that has callers or several blocks, whose result type cannot change}}
  %q = qops.quantize_linear %x, %s : tensor<4xf32>, tensor<f32> -> tensor<4xui8>
  return %q : tensor<4xui8>
}
func.func @calls(%x: tensor<4xf32>) -> tensor<4xui8> {
  %q = func.call @called(%x) : (tensor<4xf32>) -> tensor<4xui8>
  return %q : tensor<4xui8>
}

// -----

// A quantized value used by another op stays in qops.
// CHECK-LABEL: func.func @other_user
// CHECK: qops.quantize_linear
func.func @other_user(%x: tensor<4xf32>) -> tensor<2xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  // expected-remark@+1 {{left as qops: used by 'tensor.extract_slice', which cannot take a !quant type}}
  %q = qops.quantize_linear %x, %s : tensor<4xf32>, tensor<f32> -> tensor<4xui8>
  %e = tensor.extract_slice %q[0] [2] [1] : tensor<4xui8> to tensor<2xui8>
  return %e : tensor<2xui8>
}
