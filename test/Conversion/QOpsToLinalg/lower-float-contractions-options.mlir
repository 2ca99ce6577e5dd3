// RUN: %expect_exit 1 quant-opt %s --qops-lower-float-contractions=default-accuracy-level=5 2>&1 | FileCheck %s
// RUN: %expect_exit 1 quant-opt %s --qops-lower-float-contractions=default-accuracy-level=-1 2>&1 | FileCheck %s --check-prefix=NEG

// qops-lower-float-contractions refuses an accuracy level outside 0..4
// with one line (and rewrites nothing).
// CHECK: error: default-accuracy-level must be in 0..4, got 5
// NEG: error: default-accuracy-level must be in 0..4, got -1
func.func @any(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %y = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
