// The README's quick start runs and prints what ONNX's own examples say
// (test_quantizelinear, test_dynamicquantizelinear, test_qlinearmatmul_2D)
// and the hand-derived blocked int4 values.
// RUN: quant-runner %quantops_src/examples/quickstart.mlir --print | FileCheck %s

// CHECK: result 0: tensor<6xui8> = [128, 129, 130, 255, 1, 0]
// CHECK: result 1: tensor<2x4xsi4> = {{\[\[}}1, -2, 6, 7], [-8, 1, 2, -2]]
// CHECK: result 2: tensor<6xui8> = [153, 255, 0, 26, 221, 179]
// CHECK: result 3: tensor<f32> = 0.019607844
// CHECK: result 4: tensor<ui8> = 153
// CHECK: result 5: tensor<2x3xui8> = {{\[\[}}168, 115, 255], [1, 66, 151]]
