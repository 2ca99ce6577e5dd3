// --print, --output, --repeat and --no-lower on IR lowered by quant-opt.
//
// RUN: rm -rf %t && %python %S/Inputs/make_inputs.py %t
// RUN: quant-runner %s --input %t/x.npy --input %t/s.npy --input %t/zp.npy --print | FileCheck %s --check-prefix=PRINT
// PRINT: result 0: tensor<6xui8> = [128, 129, 130, 255, 1, 0]
//
// RUN: quant-runner %s --input %t/x.npy --input %t/s.npy --input %t/zp.npy --output %t/y_out.npy
// RUN: %python -c "import numpy as np; y = np.load('%t/y_out.npy'); print(y.dtype, y.tolist())" | FileCheck %s --check-prefix=OUTPUT
// OUTPUT: uint8 [128, 129, 130, 255, 1, 0]
//
// RUN: quant-runner %s --input %t/x.npy --input %t/s.npy --input %t/zp.npy --repeat 5 --expect %t/y.npy | FileCheck %s --check-prefix=REPEAT
// REPEAT: median time per call: {{[0-9.]+}} ms over 5 runs
// REPEAT: all 1 results match
//
// RUN: quant-opt %s --qops-lower-to-llvm -o %t/lowered.mlir
// RUN: quant-runner %t/lowered.mlir --no-lower --input %t/x.npy --input %t/s.npy --input %t/zp.npy --expect %t/y.npy | FileCheck %s --check-prefix=NOLOWER
// NOLOWER: all 1 results match

// ONNX's test_quantizelinear: x / 2 + 128, rounded half to even, saturated.
func.func @main(%x: tensor<6xf32>, %s: tensor<f32>, %zp: tensor<ui8>) -> tensor<6xui8> {
  %y = qops.quantize_linear %x, %s, %zp : tensor<6xf32>, tensor<f32>, tensor<ui8> -> tensor<6xui8>
  return %y : tensor<6xui8>
}
