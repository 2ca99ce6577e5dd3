// RUN: quant-opt %s -split-input-file --qops-from-quant -verify-diagnostics

// Every unsupported input is reported at its location; the module is left
// unchanged.

func.func @narrow_range(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{storage range [-127, 127] of '!quant.uniform<i8<-127:127>:f32, 1.000000e+00>' is narrower than the full range [-128, 127]: ONNX types saturate to their full range, so it cannot be represented exactly}}
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<i8<-127:127>:f32, 1.0>>
  // expected-error@+1 {{storage range [-127, 127]}}
  %d = quant.dcast %q : tensor<4x!quant.uniform<i8<-127:127>:f32, 1.0>> to tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

func.func @storage_cast(%x: tensor<4xf32>) -> tensor<4xi8> {
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<i8:f32, 1.0>>
  // expected-error@+1 {{'quant.scast' op is not supported: qops has no op to reinterpret storage integers}}
  %s = quant.scast %q : tensor<4x!quant.uniform<i8:f32, 1.0>> to tensor<4xi8>
  return %s : tensor<4xi8>
}

// -----

func.func @other_op() -> tensor<4xf32> {
  // expected-error@+1 {{'tensor.empty' op uses a quantized type; --qops-from-quant converts only quant.qcast, quant.dcast, func.func, func.call and func.return}}
  %e = tensor.empty() : tensor<4x!quant.uniform<i8:f32, 1.0>>
  %d = quant.dcast %e : tensor<4x!quant.uniform<i8:f32, 1.0>> to tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// expected-error@+1 {{'func.func' op scalar quantized type '!quant.uniform<i8:f32, 1.000000e+00>' is not supported: qops operates on ranked tensors}}
func.func @scalar(%x: f32) -> !quant.uniform<i8:f32, 1.0> {
  // expected-error@+1 {{'quant.qcast' op on '!quant.uniform<i8:f32, 1.000000e+00>' is not supported: qops operates on ranked tensors}}
  %q = quant.qcast %x : f32 to !quant.uniform<i8:f32, 1.0>
  return %q : !quant.uniform<i8:f32, 1.0>
}

// -----

// expected-error@+1 {{'func.func' op type 'tensor<*x!quant.uniform<i8:f32, 1.000000e+00>>' is not supported: only ranked tensors of quantized types are converted}}
func.func @unranked(%x: tensor<*xf32>) -> tensor<*x!quant.uniform<i8:f32, 1.0>> {
  // expected-error@+1 {{'quant.qcast' op on 'tensor<*x!quant.uniform<i8:f32, 1.000000e+00>>' is not supported}}
  %q = quant.qcast %x : tensor<*xf32> to tensor<*x!quant.uniform<i8:f32, 1.0>>
  return %q : tensor<*x!quant.uniform<i8:f32, 1.0>>
}

// -----

func.func @storage_i32(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{storage type of '!quant.uniform<i32:f32, 1.000000e+00>' has no ONNX equivalent (supported: signed or unsigned 2, 4, 8 and 16-bit integers)}}
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<i32:f32, 1.0>>
  // expected-error@+1 {{has no ONNX equivalent}}
  %d = quant.dcast %q : tensor<4x!quant.uniform<i32:f32, 1.0>> to tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

func.func @expressed_f64(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error@+1 {{expressed type of '!quant.uniform<i8:f64, 1.000000e+00>' is not supported (f32, f16 or bf16)}}
  %q = quant.qcast %x : tensor<4xf64> to tensor<4x!quant.uniform<i8:f64, 1.0>>
  // expected-error@+1 {{is not supported (f32, f16 or bf16)}}
  %d = quant.dcast %q : tensor<4x!quant.uniform<i8:f64, 1.0>> to tensor<4xf64>
  return %d : tensor<4xf64>
}

// -----

func.func @any_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{quantized type '!quant.any<i8:f32>' is not supported: only !quant.uniform types (per-layer, per-axis, sub-channel) have ONNX equivalents}}
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.any<i8:f32>>
  // expected-error@+1 {{only !quant.uniform types}}
  %d = quant.dcast %q : tensor<4x!quant.any<i8:f32>> to tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

func.func @zero_point_out_of_range(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{zero point 300 is outside the range [0, 255] of 'ui8'}}
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<u8:f32, 1.0:300>>
  // expected-error@+1 {{zero point 300 is outside the range [0, 255] of 'ui8'}}
  %d = quant.dcast %q : tensor<4x!quant.uniform<u8:f32, 1.0:300>> to tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

func.func @blocks_on_two_axes(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // expected-error@+1 {{blocks along dimensions 0 and 1: ONNX blocked quantization has one blocked axis}}
  %q = quant.qcast %x : tensor<4x64xf32> to tensor<4x64x!quant.uniform<i8:f32:{0:2,1:32}, {{1.0,2.0},{3.0,4.0}}>>
  // expected-error@+1 {{blocks along dimensions 0 and 1}}
  %d = quant.dcast %q : tensor<4x64x!quant.uniform<i8:f32:{0:2,1:32}, {{1.0,2.0},{3.0,4.0}}>> to tensor<4x64xf32>
  return %d : tensor<4x64xf32>
}

// -----

func.func @shared_scale_on_dynamic_dim(%x: tensor<?x64xf32>) -> tensor<?x64x!quant.uniform<i8:f32:{1:32}, {{1.0,2.0}}>> {
  // expected-error@+1 {{dimension 0 is dynamic and shares one scale: ONNX blocked scales need the data's size in every non-blocked dimension}}
  %q = quant.qcast %x : tensor<?x64xf32> to tensor<?x64x!quant.uniform<i8:f32:{1:32}, {{1.0,2.0}}>>
  return %q : tensor<?x64x!quant.uniform<i8:f32:{1:32}, {{1.0,2.0}}>>
}

// -----

func.func @block_argument(%x: tensor<4xf32>) -> tensor<4xf32> {
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<i8:f32, 1.0>>
  // expected-error@+1 {{'cf.br' op uses a quantized type}}
  cf.br ^next(%q : tensor<4x!quant.uniform<i8:f32, 1.0>>)
^next(%v: tensor<4x!quant.uniform<i8:f32, 1.0>>):
  %d = quant.dcast %v : tensor<4x!quant.uniform<i8:f32, 1.0>> to tensor<4xf32>
  return %d : tensor<4xf32>
}
