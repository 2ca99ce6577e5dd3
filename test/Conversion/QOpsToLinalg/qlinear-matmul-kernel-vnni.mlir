// RUN: quant-opt %s --convert-qops-to-linalg=int8-strategy=vnni --qops-lower-packing --canonicalize --split-input-file | FileCheck %s
// RUN: quant-opt %s --convert-qops-to-linalg=int8-strategy=avxvnni --qops-lower-packing --canonicalize --split-input-file | FileCheck %s --check-prefix=AVX

// The vnni strategy (QLinearMatMulKernel.cpp): si8 a becomes a' = a + 128
// (sign bit flipped) and ui8 b becomes b' = b - 128; row sums of a' (u8),
// b' packed as k-quads, four bytes per i32 lane, in 32-column panels (two
// zmm of 16 lanes per row), with the column sums of b' (s8) in the same
// pass, then the column term K zb' - colsum (K = 6 here); the k loop (K padded to 8: 2 quads) runs
// qkernel.dot_u8s8_quads on 5 rows x 2 halves (the tile is 12 rows, or a's row
// count when that is smaller and static); the epilogue adds
// za' * term - zb' * rowsum before requantizing. avxvnni (16 ymm registers)
// keeps 16-column panels of two 8-lane halves.
// CHECK-LABEL: func.func @si8_a_ui8_b
// CHECK-DAG: %[[FLIP:.*]] = arith.constant -128 : i8
// CHECK-DAG: %[[K:.*]] = arith.constant 6 : i32
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x5x6xi8>)
// CHECK: arith.xori %{{.*}}, %[[FLIP]] : i8
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: tensor.extract_slice %{{.*}}[0, 3, 0] [1, 2, 32] [1, 4, 1] : tensor<1x8x32xi8> to tensor<1x2x32xi8>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "parallel"]
// CHECK: arith.xori %{{.*}}, %[[FLIP]] : i8
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: arith.shli %{{.*}}, %{{.*}} : i32
// CHECK: -> (tensor<1x1x2x32xi32>, tensor<1x1x32xi32>)
// CHECK: arith.muli %{{.*}}, %[[K]] : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK-COUNT-10: qkernel.dot_u8s8_quads %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK: scf.yield
// CHECK: arith.muli %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK: arith.addi %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK: arith.muli %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK: arith.subi %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK: arith.sitofp %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK-NOT: qops.qlinear_matmul
// AVX-LABEL: func.func @si8_a_ui8_b
// AVX: tensor.extract_slice %{{.*}}[0, 3, 0] [1, 2, 16] [1, 4, 1] : tensor<1x8x16xi8> to tensor<1x2x16xi8>
// AVX: -> (tensor<1x1x2x16xi32>, tensor<1x1x16xi32>)
// AVX-COUNT-10: qkernel.dot_u8s8_quads %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi32>
// AVX: arith.sitofp %{{.*}} : vector<8xi32> to vector<8xf32>
func.func @si8_a_ui8_b(%a: tensor<5x6xsi8>, %b: tensor<6x3xui8>) -> tensor<5x3xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<-3> : tensor<si8>
  %zb = arith.constant dense<130> : tensor<ui8>
  %zy = arith.constant dense<100> : tensor<ui8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<5x6xsi8>, tensor<f32>, tensor<si8>) b(%b, %s, %zb : tensor<6x3xui8>, tensor<f32>, tensor<ui8>) y(%s, %zy : tensor<f32>, tensor<ui8>) -> tensor<5x3xui8>
  return %y : tensor<5x3xui8>
}

// -----

// ui8 a and si8 b are VPDPBUSD's own operand types: no sign flips.
// CHECK-LABEL: func.func @ui8_a_si8_b
// CHECK-NOT: arith.xori
// CHECK: qkernel.dot_u8s8_quads
func.func @ui8_a_si8_b(%a: tensor<5x6xui8>, %b: tensor<6x3xsi8>) -> tensor<5x3xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<-2> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<5x6xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<6x3xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<5x3xui8>
  return %y : tensor<5x3xui8>
}

// -----

// A constant b takes the packing of a b known at run time (the pipeline's
// qops-hoist-constant-expressions runs it once): quads [1, 1, 2, 32] and the
// column term K zb' - colsum, padded to [1, 32] (avxvnni: [1, 1, 2, 16],
// [1, 16]); its numbers are checked by the JIT tests
// (test/Integration/qlinear-matmul-constant-b.mlir).
// CHECK-LABEL: func.func @constant_b
// CHECK-DAG: } -> (tensor<1x1x2x32xi32>, tensor<1x1x32xi32>)
// CHECK-DAG: } : tensor<1x3xi32> to tensor<1x32xi32>
// AVX-LABEL: func.func @constant_b
// AVX-DAG: } -> (tensor<1x1x2x16xi32>, tensor<1x1x16xi32>)
// AVX-DAG: } : tensor<1x3xi32> to tensor<1x16xi32>
// CHECK: qkernel.dot_u8s8_quads
func.func @constant_b(%a: tensor<5x6xui8>) -> tensor<5x3xui8> {
  %b = arith.constant dense<1> : tensor<6x3xsi8>
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<-2> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<5x6xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<6x3xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<5x3xui8>
  return %y : tensor<5x3xui8>
}

// -----

// Every zb' a constant 0 (si8 b with zero point 0, ui8 b with 128, per
// column too): the term zb' * rowsum vanishes, so a's row sums (the
// reduction over k) are not computed, and the epilogue has one multiply
// (za' * term) instead of two. A u8 a with K a multiple of 4 is then read in
// place. zb = 1 keeps them.
// CHECK-LABEL: func.func @symmetric_si8_b
// CHECK-NOT: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "parallel"]
// CHECK: qkernel.dot_u8s8_quads
// CHECK: scf.yield
// CHECK: arith.muli %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK-NEXT: arith.addi %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK-NEXT: arith.sitofp
func.func @symmetric_si8_b(%a: tensor<5x8xui8>, %b: tensor<8x3xsi8>) -> tensor<5x3xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<0> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<5x8xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<8x3xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<5x3xui8>
  return %y : tensor<5x3xui8>
}
// CHECK-LABEL: func.func @ui8_b_zero_point_128_per_column
// CHECK-NOT: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: qkernel.dot_u8s8_quads
func.func @ui8_b_zero_point_128_per_column(%a: tensor<5x8xui8>, %b: tensor<8x3xui8>) -> tensor<5x3xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<128> : tensor<3xui8>
  %bs = arith.constant dense<0.25> : tensor<3xf32>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<5x8xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %zb : tensor<8x3xui8>, tensor<3xf32>, tensor<3xui8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<5x3xui8>
  return %y : tensor<5x3xui8>
}
// CHECK-LABEL: func.func @one_nonzero_zero_point
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: qkernel.dot_u8s8_quads
func.func @one_nonzero_zero_point(%a: tensor<5x8xui8>, %b: tensor<8x3xsi8>) -> tensor<5x3xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<[0, 0, 1]> : tensor<3xsi8>
  %bs = arith.constant dense<0.25> : tensor<3xf32>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<5x8xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %zb : tensor<8x3xsi8>, tensor<3xf32>, tensor<3xsi8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<5x3xui8>
  return %y : tensor<5x3xui8>
}

// -----

// An unknown strategy name is an error.
// RUN: %expect_exit 1 quant-opt %s --convert-qops-to-linalg=int8-strategy=sse 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: int8-strategy must be auto, madd, maddubs, vnni, avxvnni, amx, usmmla, usdot or sdot, not 'sse'
func.func @any() {
  return
}

// -----

// With threads, N >= M puts the column chunks outside the row blocks, for
// the quad strategies as for madd, whether b is packed at run time or at
// compile time. One 48-row block would make 2 tasks of 256 columns: static
// shapes get chunks narrow enough for 64 tasks, two 32-column panels at the
// least (TuningTable.h kMinParallelTasks); with 5 chunks, fewer than a
// quarter of 64 tasks, the row blocks narrow too, to one 12-row tile (Mp =
// 24: 10 tasks). b's column sums (8 x 300 bytes) stay on one thread.
// RUN: quant-opt %s --convert-qops-to-linalg="parallel int8-strategy=vnni" --qops-lower-packing --qops-distribute --split-input-file | FileCheck %s --check-prefix=PAR
// PAR-LABEL: func.func @threads_runtime_b
// PAR-NOT: scf.forall ({{.*}}) = (0, 0) to
// PAR: scf.forall ({{.*}}) = (0, 0, 0) to (1, 320, 24) step (1, 64, 12)
// PAR-LABEL: func.func @threads_constant_b
// PAR: scf.forall ({{.*}}) = (0, 0, 0) to (1, 320, 24) step (1, 64, 12)
// CHECK-LABEL: func.func @threads_runtime_b
func.func @threads_runtime_b(%a: tensor<20x8xui8>, %b: tensor<8x300xsi8>) -> tensor<20x300xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<-1> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<20x8xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<8x300xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<20x300xui8>
  return %y : tensor<20x300xui8>
}
func.func @threads_constant_b(%a: tensor<20x8xui8>) -> tensor<20x300xui8> {
  %b = arith.constant dense<2> : tensor<8x300xsi8>
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<-1> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<20x8xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<8x300xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<20x300xui8>
  return %y : tensor<20x300xui8>
}

// -----

// A run-time b (256 x 1024): its quads and column sums (the zero-point
// term) are one generic with two results, reduction over the quads, which
// qops-vectorize-elementwise distributes over the 32 panels
// (vectorize-elementwise.mlir, @pack_quads_parallel); the term K zb' -
// colsum reads the sums. 16 chunks of 64 columns are tasks enough (a
// quarter of 64 or more): the row block stays 48.
// PAR-LABEL: func.func @threads_column_sums
// PAR: %[[PACK:.*]]:2 = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "parallel"]{{.*}}outs(%{{.*}}, %{{.*}} : tensor<1x32x64x32xi32>, tensor<1x32x32xi32>)
// PAR: %[[SUMS:.*]] = tensor.collapse_shape %[[PACK]]#1
// PAR: linalg.generic {{.*}} ins(%[[SUMS]], %{{.*}} : tensor<1x1024xi32>, tensor<i8>)
// PAR: scf.forall ({{.*}}) = (0, 0, 0) to (1, 1024, 24) step (1, 64, 48)
// CHECK-LABEL: func.func @threads_column_sums
func.func @threads_column_sums(%a: tensor<16x256xui8>, %b: tensor<256x1024xsi8>) -> tensor<16x1024xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<-1> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<16x256xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<256x1024xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<16x1024xui8>
  return %y : tensor<16x1024xui8>
}
