// RUN: quant-opt %s --split-input-file --qops-configure-target="target-triple=x86_64-unknown-linux-gnu target-cpu=sapphirerapids" --qops-lower-float-contractions --canonicalize | FileCheck %s --check-prefixes=CHECK,ZMM
// RUN: quant-opt %s --split-input-file --qops-configure-target="target-triple=x86_64-unknown-linux-gnu target-cpu=znver3" --qops-lower-float-contractions --canonicalize | FileCheck %s --check-prefixes=CHECK,YMM
// RUN: quant-opt %s --split-input-file --qops-configure-target="target-triple=aarch64-linux-gnu target-cpu=neoverse-n1" --qops-lower-float-contractions --canonicalize | FileCheck %s --check-prefixes=CHECK,NEON
// RUN: quant-opt %s --split-input-file --qops-configure-target="target-triple=x86_64-unknown-linux-gnu target-cpu=znver4" --qops-lower-float-contractions=fma --canonicalize | FileCheck %s --check-prefix=FMA
// RUN: quant-opt %s --split-input-file --qops-configure-target="target-triple=x86_64-unknown-linux-gnu target-cpu=sapphirerapids" --qops-lower-float-contractions | FileCheck %s --check-prefix=MARK
// RUN: quant-opt %s --split-input-file --qops-configure-target="target-triple=x86_64-unknown-linux-gnu target-cpu=znver4" --qops-lower-float-contractions=default-accuracy-level=4 --canonicalize | FileCheck %s --check-prefix=LEVEL4
// RUN: quant-opt %s --split-input-file --qops-configure-target="target-triple=x86_64-unknown-linux-gnu target-cpu=znver4" --qops-lower-float-contractions --canonicalize | FileCheck %s --check-prefix=SPLIT

// qops-lower-float-contractions (FloatMatMulKernel.cpp): a float
// linalg.matmul / batch_matmul becomes b packed into NR-column panels and
// MR x NR register tiles, sized by the target's vector registers:
// AVX-512 (sapphirerapids) 12 x 32 f32 (2 x vector<16xf32> per row), AVX2
// (znver3) 6 x 16 (2 x vector<8xf32>), NEON (neoverse-n1) 6 x 16 (4 x
// vector<4xf32>). A Zen 4 (znver4) runs a 512-bit multiply or add as two
// halves: there the product-then-sum tiles that read b's values from
// memory are ymm ones, 4 x 24 (3 x vector<8xf32> per row) for a float b
// and 4 x 16 for dequantized chunks (SPLIT; TuningTable.h,
// splitsWideFloatArithmetic), while the fused ones (FMA), the int8
// activations (LEVEL4) and a gemv that dequantizes in registers keep zmm.

// A 128 x 64 x 96 product, its out a fill of 0: b packed to [1, Np/NR, K, NR]
// in a nest marked for threads; each tile's accumulators start at the fill
// value, every k step multiplies the broadcast a[row, k] with the panel's
// row k and adds (in that order); the tiles are the engine's nest.
// CHECK-LABEL: func.func @matmul_fill
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00>
// ZMM: tensor.empty() : tensor<1x3x64x32xf32>
// YMM: tensor.empty() : tensor<1x6x64x16xf32>
// NEON: tensor.empty() : tensor<1x6x64x16xf32>
// CHECK: vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<1x64x96xf32>
// CHECK: vector.transfer_write {{.*}} {in_bounds = [true]}
// CHECK: scf.for
// ZMM: scf.for %{{.*}} step %c12
// YMM: scf.for %{{.*}} step %c6
// NEON: scf.for %{{.*}} step %c6
// ZMM: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]{{.*}}) -> (vector<16xf32>, vector<16xf32>,
// YMM: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]{{.*}}) -> (vector<8xf32>, vector<8xf32>,
// NEON: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]{{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>,
// CHECK: %[[B0:.*]] = vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<1x{{3|6}}x64x{{32|16}}xf32>
// CHECK: %[[A:.*]] = tensor.extract %{{.*}} : tensor<1x128x64xf32>
// CHECK: %[[LANES:.*]] = vector.broadcast %[[A]]
// CHECK: %[[P:.*]] = arith.mulf %[[LANES]], %[[B0]]
// CHECK: arith.addf %{{.*}}, %[[P]]
// CHECK-NOT: vector.fma
// CHECK: vector.transfer_write {{.*}} {in_bounds = [true]}
// CHECK: tensor.collapse_shape {{.*}} into tensor<128x96xf32>
// SPLIT-LABEL: func.func @matmul_fill
// SPLIT: tensor.empty() : tensor<1x4x64x24xf32>
// SPLIT: scf.for %{{.*}} step %c4
// SPLIT: scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>,
// SPLIT: arith.mulf %{{.*}}, %{{.*}} : vector<8xf32>
// SPLIT-NOT: vector<16xf32>
// SPLIT: return
// FMA-LABEL: func.func @matmul_fill
// FMA: vector.fma {{.*}} : vector<16xf32>
// FMA-NOT: arith.mulf
// MARK-LABEL: func.func @matmul_fill
// MARK: qkernel.parallel_loops
// MARK: qkernel.tile_loops = {column_chunk = 256 : i64, m = 128 : i64, min_tasks = 64 : i64, n = 96 : i64, panel_columns = 32 : i64, tile_rows = 12 : i64}
func.func @matmul_fill(%a: tensor<128x64xf32>, %w: tensor<64x96xf32>) -> tensor<128x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x96xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<128x96xf32>) -> tensor<128x96xf32>
  %y = linalg.matmul ins(%a, %w : tensor<128x64xf32>, tensor<64x96xf32>) outs(%c : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %y : tensor<128x96xf32>
}

// -----

// An out that is not a fill: y = c + a w, each tile's accumulators read
// from c; N = 40 is not a multiple of NR, so the columns past N are masked
// (transfers not in bounds); M = 21 makes two tiles of 11 rows (as even
// as MR = 12 allows), the second passing M: its rows are clamped to row 20.
// CHECK-LABEL: func.func @matmul_accumulate
// FMA-LABEL: func.func @matmul_accumulate
// CHECK-NOT: tensor.empty() : tensor<21x40xf32>
// ZMM: scf.for %{{.*}} step %c11
// ZMM: arith.minui %{{.*}}, %c20
// CHECK: vector.transfer_read %{{.*}} : tensor<1x21x40xf32>, vector<
// CHECK: arith.mulf
// CHECK: vector.transfer_write %{{.*}} : vector<{{16|8|4}}xf32>, tensor<1x21x40xf32>
func.func @matmul_accumulate(%a: tensor<21x8xf32>, %w: tensor<8x40xf32>, %c: tensor<21x40xf32>) -> tensor<21x40xf32> {
  %y = linalg.matmul ins(%a, %w : tensor<21x8xf32>, tensor<8x40xf32>) outs(%c : tensor<21x40xf32>) -> tensor<21x40xf32>
  return %y : tensor<21x40xf32>
}

// -----

// A short a (M = 3 < kFloatPackMinRows) with a run-time b: b's rows are
// read in place (no packing); the tile is 3 rows high and its accumulators
// go to a wider panel: 3 x 8 vectors (128 columns) with zmm.
// CHECK-LABEL: func.func @matmul_short
// CHECK-NOT: qkernel.parallel_loops
// CHECK-NOT: tensor.empty() : tensor<1x
// CHECK: scf.for {{.*}} -> (vector<{{[0-9]+}}xf32>
// ZMM-SAME: , vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// ZMM: vector.transfer_read %{{.*}} : tensor<1x32x200xf32>, vector<16xf32>
// SPLIT-LABEL: func.func @matmul_short
// SPLIT: vector.transfer_read %{{.*}} : tensor<1x32x200xf32>, vector<16xf32>
func.func @matmul_short(%a: tensor<3x32xf32>, %w: tensor<32x200xf32>) -> tensor<3x200xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x200xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<3x200xf32>) -> tensor<3x200xf32>
  %y = linalg.matmul ins(%a, %w : tensor<3x32xf32>, tensor<32x200xf32>) outs(%c : tensor<3x200xf32>) -> tensor<3x200xf32>
  return %y : tensor<3x200xf32>
}

// -----

// A short a whose b is computed from constants: packed all the same (the
// pack is a constant expression, run once), in one panel as wide as b
// (64 columns: 4 vectors of 16 with zmm).
// CHECK-LABEL: func.func @matmul_constant_b
// ZMM: tensor.empty() : tensor<1x1x32x64xf32>
func.func @matmul_constant_b(%a: tensor<1x32xf32>) -> tensor<1x64xf32> {
  %w = arith.constant dense<0.5> : tensor<32x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %y = linalg.matmul ins(%a, %w : tensor<1x32xf32>, tensor<32x64xf32>) outs(%c : tensor<1x64xf32>) -> tensor<1x64xf32>
  return %y : tensor<1x64xf32>
}

// -----

// batch_matmul with dynamic sizes; f64 halves the lanes (NR = 16 on AVX-512).
// CHECK-LABEL: func.func @batch_f64_dynamic
// ZMM: tensor.empty({{.*}}) : tensor<?x?x?x16xf64>
// ZMM: vector.transfer_read {{.*}} : tensor<?x?x?xf64>, vector<8xf64>
// CHECK-NOT: tensor.collapse_shape
// CHECK: return %{{.*}} : tensor<?x?x?xf64>
func.func @batch_f64_dynamic(%a: tensor<?x?x?xf64>, %w: tensor<?x?x?xf64>, %c: tensor<?x?x?xf64>) -> tensor<?x?x?xf64> {
  %y = linalg.batch_matmul ins(%a, %w : tensor<?x?x?xf64>, tensor<?x?x?xf64>) outs(%c : tensor<?x?x?xf64>) -> tensor<?x?x?xf64>
  return %y : tensor<?x?x?xf64>
}

// -----

// Left as they are: integer matmuls, a and b of different types,
// user-defined maps (a transposed), memrefs.
// CHECK-LABEL: func.func @not_taken
// CHECK: linalg.matmul ins(%{{.*}} : tensor<4x4xi32>, tensor<4x4xi32>)
// CHECK: linalg.matmul ins(%{{.*}} : tensor<4x4xf16>, tensor<4x4xf32>) outs(%{{.*}} : tensor<4x4xf32>)
// CHECK: linalg.matmul indexing_maps
// CHECK: linalg.matmul ins(%{{.*}} : memref<4x4xf32>, memref<4x4xf32>)
func.func @not_taken(%i: tensor<4x4xi32>, %h: tensor<4x4xf16>, %f: tensor<4x4xf32>, %ci: tensor<4x4xi32>, %cf: tensor<4x4xf32>, %m: memref<4x4xf32>) -> (tensor<4x4xi32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = linalg.matmul ins(%i, %i : tensor<4x4xi32>, tensor<4x4xi32>) outs(%ci : tensor<4x4xi32>) -> tensor<4x4xi32>
  %1 = linalg.matmul ins(%h, %f : tensor<4x4xf16>, tensor<4x4xf32>) outs(%cf : tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
         ins(%f, %f : tensor<4x4xf32>, tensor<4x4xf32>) outs(%cf : tensor<4x4xf32>) -> tensor<4x4xf32>
  linalg.matmul ins(%m, %m : memref<4x4xf32>, memref<4x4xf32>) outs(%m : memref<4x4xf32>)
  return %0, %1, %2 : tensor<4x4xi32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Weight-only: b = DequantizeLinear(si4 q, blocked by 4 along K = 8, with
// zero points). The blocked scale and zero point are repacked in the
// panels' order ([1, panels, K / B, NR]: one forward stream per panel);
// q is packed two to a byte along k ([1, panels, K / 2, NR] i8: the even
// k in the low nibble); per block of k the tile reads its scale and zero
// point lanes once; per byte group it splits the nibbles (an xor that
// flips their sign bits, a mask, a logical shift right), subtracts the
// biased zero point as bytes (|q - zp| <= 15), widens, converts and scales
// them (DequantizeLinear's formula), then steps k and k + 1 as the plain
// form does.
// CHECK-LABEL: func.func @int4_blocked
// CHECK-SAME: %{{.*}}: tensor<3x8xf32>, %[[SCALES:[^:]*]]: tensor<2x2xf32>
// CHECK-DAG: %[[FLIP:.*]] = arith.constant dense<-120> : vector<[[PANEL:[0-9]+]]xi8>
// CHECK-DAG: %[[EIGHT:.*]] = arith.constant dense<8> : vector<[[L:[0-9]+]]xi8>
// CHECK-DAG: %[[FOUR:.*]] = arith.constant dense<4> : vector<[[PANEL]]xi8>
// CHECK-DAG: %[[MASK:.*]] = arith.constant dense<15> : vector<[[PANEL]]xi8>
// CHECK: %[[Q:.*]] = builtin.unrealized_conversion_cast %{{.*}} : tensor<8x2xsi4> to tensor<8x2xi8>
// CHECK: %[[ZP:.*]] = builtin.unrealized_conversion_cast %{{.*}} : tensor<2x2xsi4> to tensor<2x2xi8>
// CHECK: tensor.empty() : tensor<1x1x2x{{[0-9]+}}xf32>
// CHECK: %[[S0:.*]] = vector.transfer_read %[[SCALES]][%[[KB:.*]], %c0]
// CHECK: vector.transfer_write %[[S0]], %{{.*}}[%c0, %c0, %[[KB]], %c0]
// CHECK: tensor.empty() : tensor<1x1x2x{{[0-9]+}}xi8>
// CHECK: %[[Z0:.*]] = vector.transfer_read %[[ZP]][%[[KB2:.*]], %c0]
// CHECK: vector.transfer_write %[[Z0]], %{{.*}}[%c0, %c0, %[[KB2]], %c0]
// CHECK: tensor.empty() : tensor<1x1x4x{{[0-9]+}}xi8>
// CHECK: vector.transfer_read %[[Q]]
// CHECK: arith.andi
// CHECK: arith.shli
// CHECK: arith.ori
// CHECK: scf.for %[[BLOCK:.*]] = %c0 to %c2 step %c1
// CHECK: %[[SCALE:.*]] = vector.transfer_read %{{.*}}[%c0, %c0, %[[BLOCK]], %c0]{{.*}} : tensor<1x1x2x{{[0-9]+}}xf32>, vector<{{16|8|4}}xf32>
// CHECK: %[[ZPL:.*]] = vector.transfer_read %{{.*}}[%c0, %c0, %[[BLOCK]], %c0]{{.*}} : tensor<1x1x2x[[PANEL]]xi8>, vector<[[L]]xi8>
// The signed nibbles with their high bits flipped (x = bytes ^ 0x88), the
// zero point biased by 8 once per block: q - zp = (u ^ 8) - (zp + 8); the
// bytes of the panel row's vectors read and split as one vector (the zero
// points' lanes concatenated per block: two vectors with ymm and zmm, four
// with NEON), the widened lanes then taken per vector.
// CHECK: %[[ZPB:.*]] = arith.addi %[[ZPL]], %[[EIGHT]]
// CHECK: %[[ZPL1:.*]] = vector.transfer_read %{{.*}}[%c0, %c0, %[[BLOCK]], %c[[L]]]{{.*}} : tensor<1x1x2x[[PANEL]]xi8>, vector<[[L]]xi8>
// CHECK: %[[ZPB1:.*]] = arith.addi %[[ZPL1]], %[[EIGHT]]
// YMM: %[[ZPS:.*]] = vector.shuffle %[[ZPB]], %[[ZPB1]] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<8xi8>, vector<8xi8>
// ZMM: %[[ZPS:.*]] = vector.shuffle %[[ZPB]], %[[ZPB1]] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
// NEON: vector.shuffle %[[ZPB]], %[[ZPB1]]
// NEON: vector.shuffle
// NEON: %[[ZPS:.*]] = vector.shuffle {{.*}} : vector<12xi8>, vector<4xi8>
// CHECK: scf.for
// CHECK: %[[BYTES:.*]] = vector.transfer_read {{.*}} {in_bounds = [true]} : tensor<1x1x4x[[PANEL]]xi8>, vector<[[PANEL]]xi8>
// CHECK: %[[X:.*]] = arith.xori %[[BYTES]], %[[FLIP]]
// CHECK: %[[U0:.*]] = arith.andi %[[X]], %[[MASK]]
// CHECK: %[[D0:.*]] = arith.subi %[[U0]], %[[ZPS]] : vector<[[PANEL]]xi8>
// CHECK: %[[E0:.*]] = arith.extsi %[[D0]] : vector<[[PANEL]]xi8> to vector<[[PANEL]]xi32>
// CHECK: %[[H0:.*]] = vector.extract_strided_slice %[[E0]] {offsets = [0], sizes = [[[L]]], strides = [1]}
// CHECK: %[[F0:.*]] = arith.sitofp %[[H0]]
// CHECK: %[[W0:.*]] = arith.mulf %[[F0]], %[[SCALE]]
// CHECK: vector.extract_strided_slice %[[E0]] {offsets = [[[L]]], sizes = [[[L]]], strides = [1]}
// CHECK: %[[U1:.*]] = arith.shrui %[[X]], %[[FOUR]]
// CHECK: arith.subi %[[U1]], %[[ZPS]]
// CHECK: tensor.extract %{{.*}} : tensor<1x3x8xf32>
// CHECK: %[[P:.*]] = arith.mulf %{{.*}}, %[[W0]]
// CHECK: arith.addf %{{.*}}, %[[P]]
// CHECK-NOT: linalg.matmul
func.func @int4_blocked(%x: tensor<3x8xf32>, %scale: tensor<2x2xf32>, %zp: tensor<2x2xsi4>) -> tensor<3x2xf32> {
  %w = arith.constant dense<[[1, 7], [-2, -8], [0, 0], [0, 0], [1, 7], [-2, -8], [0, 0], [0, 0]]> : tensor<8x2xsi4>
  %dw = qops.dequantize_linear %w, %scale, %zp axis = 0 block_size = 4 : tensor<8x2xsi4>, tensor<2x2xf32>, tensor<2x2xsi4> -> tensor<8x2xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %y = linalg.matmul ins(%x, %dw : tensor<3x8xf32>, tensor<8x2xf32>) outs(%init : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

// -----

// Blocked parameters of several panels (N = 80): scale_p[0, p, kb, j] =
// scale[kb, p NR + j] (zero points likewise), and each tile reads its
// block's lanes at its own panel, n0 / NR.
// CHECK-LABEL: func.func @int4_blocked_panels
// CHECK-SAME: %[[SCALES:[^:]*]]: tensor<2x80xf32>
// CHECK: %[[SP:.*]] = scf.for %[[P:.*]] = %c0 to %c{{[0-9]+}} step %c1 iter_args(%{{.*}}) -> (tensor<1x{{[0-9]+}}x2x{{[0-9]+}}xf32>)
// CHECK: %[[N0:.*]] = arith.muli %[[P]], %c{{[0-9]+}}
// CHECK: scf.for %[[KB:.*]] = %c0 to %c2 step %c1
// CHECK: vector.transfer_read %[[SCALES]][%[[KB]], %[[N0]]]
// CHECK: %[[ZPP:.*]] = scf.for %{{.*}} -> (tensor<1x{{[0-9]+}}x2x{{[0-9]+}}xi8>)
// CHECK: %[[PANEL:.*]] = arith.divui %{{.*}}, %c{{[0-9]+}} : index
// CHECK: scf.for %[[BLOCK:.*]] = %c0 to %c2 step %c1
// CHECK: vector.transfer_read %[[SP]][%c0, %[[PANEL]], %[[BLOCK]], %c0]
// CHECK: vector.transfer_read %[[ZPP]][%c0, %[[PANEL]], %[[BLOCK]], %c0]
func.func @int4_blocked_panels(%x: tensor<3x8xf32>, %scale: tensor<2x80xf32>, %zp: tensor<2x80xsi4>) -> tensor<3x80xf32> {
  %w = arith.constant dense<1> : tensor<8x80xsi4>
  %dw = qops.dequantize_linear %w, %scale, %zp axis = 0 block_size = 4 : tensor<8x80xsi4>, tensor<2x80xf32>, tensor<2x80xsi4> -> tensor<8x80xf32>
  %e = tensor.empty() : tensor<3x80xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<3x80xf32>) -> tensor<3x80xf32>
  %y = linalg.matmul ins(%x, %dw : tensor<3x8xf32>, tensor<8x80xf32>) outs(%init : tensor<3x80xf32>) -> tensor<3x80xf32>
  return %y : tensor<3x80xf32>
}

// -----

// A weight-only gemv (one row of a) gives its row's accumulators to wider
// panels, as far as the registers hold them with their scale and zero
// point lanes (getFloatShortTileMaxVectors): 4 vectors with 32 registers
// (one 64-column panel with zmm, four of 16 on Neon), 2 with 16 (four
// panels of 16 with ymm), each tile then carrying two vector<8xf32> sums.
// CHECK-LABEL: func.func @int4_gemv_panels
// ZMM: tensor.empty() : tensor<1x1x4x64xi8>
// SPLIT-LABEL: func.func @int4_gemv_panels
// SPLIT: tensor.empty() : tensor<1x1x4x64xi8>
// YMM: tensor.empty() : tensor<1x4x4x16xi8>
// YMM: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>) {
// NEON: tensor.empty() : tensor<1x4x4x16xi8>
// NEON: scf.for {{.*}} iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
func.func @int4_gemv_panels(%x: tensor<1x8xf32>, %scale: tensor<2x64xf32>, %zp: tensor<2x64xsi4>) -> tensor<1x64xf32> {
  %w = arith.constant dense<1> : tensor<8x64xsi4>
  %dw = qops.dequantize_linear %w, %scale, %zp axis = 0 block_size = 4 : tensor<8x64xsi4>, tensor<2x64xf32>, tensor<2x64xsi4> -> tensor<8x64xf32>
  %e = tensor.empty() : tensor<1x64xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %y = linalg.matmul ins(%x, %dw : tensor<1x8xf32>, tensor<8x64xf32>) outs(%init : tensor<1x64xf32>) -> tensor<1x64xf32>
  return %y : tensor<1x64xf32>
}

// -----

// The int8-activation form (level 4) of a gemv keeps 4 vectors per row
// with 16 registers too: its i32 weight panels are 32 columns wide on ymm.
// CHECK-LABEL: func.func @int8_activations_gemv_panels
// ZMM: tensor.empty() : tensor<1x1x4x64xi32>
// YMM: tensor.empty() : tensor<1x2x4x32xi32>
func.func @int8_activations_gemv_panels(%x: tensor<1x32xf32>, %scale: tensor<2x64xf32>, %zp: tensor<2x64xui4>) -> tensor<1x64xf32> {
  %w = arith.constant dense<3> : tensor<32x64xui4>
  %dw = qops.dequantize_linear %w, %scale, %zp axis = 0 block_size = 16 : tensor<32x64xui4>, tensor<2x64xf32>, tensor<2x64xui4> -> tensor<32x64xf32>
  %e = tensor.empty() : tensor<1x64xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %y = linalg.matmul {qops.accuracy_level = 4 : i64} ins(%x, %dw : tensor<1x32xf32>, tensor<32x64xf32>) outs(%init : tensor<1x64xf32>) -> tensor<1x64xf32>
  return %y : tensor<1x64xf32>
}

// -----

// Weight-only with many row tiles (40 rows: 4 to 7 tiles): each panel is
// dequantized once per block, a chunk of 32 KB of f32 at a time
// (getFloatDequantizeChunk: 256 k of a 32-column zmm panel, 512 of a
// 16-column ymm or NEON one), into an f32 chunk that the block's tiles
// then read as the plain form reads a packed panel; the first chunk starts
// from the fill, later ones from the partial sums the tiles left in y.
// CHECK-LABEL: func.func @int4_chunks
// ZMM: scf.for %[[KC:.*]] = %c0 to %c1024 step %c256
// YMM: scf.for %[[KC:.*]] = %c0 to %c1024 step %c512
// NEON: scf.for %[[KC:.*]] = %c0 to %c1024 step %c512
// CHECK: %[[KEND:.*]] = arith.minui
// ZMM: %[[EMPTY:.*]] = tensor.empty() : tensor<256x32xf32>
// SPLIT-LABEL: func.func @int4_chunks
// SPLIT: tensor.empty() : tensor<512x16xf32>
// SPLIT: scf.for %{{.*}} step %c4
// YMM: %[[EMPTY:.*]] = tensor.empty() : tensor<512x16xf32>
// NEON: %[[EMPTY:.*]] = tensor.empty() : tensor<512x16xf32>
// CHECK: %[[CHUNK:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[EMPTY]])
// CHECK: arith.sitofp
// CHECK: arith.mulf
// CHECK: vector.transfer_write {{.*}} : vector<{{16|8|4}}xf32>, tensor<{{256|512}}x{{[0-9]+}}xf32>
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[KC]], %c0
// CHECK: scf.if %[[FIRST]]
// CHECK: } else {
// CHECK: vector.transfer_read
// CHECK: scf.for %[[K:.*]] = %[[KC]] to %[[KEND]] step %c1
// CHECK: %[[ROW:.*]] = arith.subi %[[K]], %[[KC]]
// CHECK: %[[W:.*]] = vector.transfer_read %[[CHUNK]][%[[ROW]], %c0]
// CHECK: %[[P:.*]] = arith.mulf %{{.*}}, %[[W]]
// CHECK: arith.addf %{{.*}}, %[[P]]
func.func @int4_chunks(%x: tensor<40x1024xf32>, %q: tensor<1024x64xui4>, %scale: tensor<32x64xf32>) -> tensor<40x64xf32> {
  %dw = qops.dequantize_linear %q, %scale axis = 0 block_size = 32 : tensor<1024x64xui4>, tensor<32x64xf32> -> tensor<1024x64xf32>
  %e = tensor.empty() : tensor<40x64xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<40x64xf32>) -> tensor<40x64xf32>
  %y = linalg.matmul ins(%x, %dw : tensor<40x1024xf32>, tensor<1024x64xf32>) outs(%init : tensor<40x64xf32>) -> tensor<40x64xf32>
  return %y : tensor<40x64xf32>
}

// -----

// The chunked form's row blocks are 192 rows (kFloatDequantizeRowBlock),
// not the float kernel's 96: every block dequantizes each chunk of its
// panels again (300 rows: 2 blocks, not 4).
// CHECK-LABEL: func.func @int4_chunks_row_block
// CHECK: scf.for %{{.*}} = %c0 to %c300 step %c192
// ZMM: scf.for %{{.*}} = %c0 to %c512 step %c256
// ZMM: tensor.empty() : tensor<256x32xf32>
// YMM: tensor.empty() : tensor<512x16xf32>
func.func @int4_chunks_row_block(%x: tensor<300x512xf32>, %q: tensor<512x64xui4>, %scale: tensor<16x64xf32>) -> tensor<300x64xf32> {
  %dw = qops.dequantize_linear %q, %scale axis = 0 block_size = 32 : tensor<512x64xui4>, tensor<16x64xf32> -> tensor<512x64xf32>
  %e = tensor.empty() : tensor<300x64xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<300x64xf32>) -> tensor<300x64xf32>
  %y = linalg.matmul ins(%x, %dw : tensor<300x512xf32>, tensor<512x64xf32>) outs(%init : tensor<300x64xf32>) -> tensor<300x64xf32>
  return %y : tensor<300x64xf32>
}

// -----

// Weight-only with a dynamic M (or blocks qops-distribute may narrow): per
// block, the chunks where it has 3 row tiles or more, the register form
// otherwise (a decode step of one row).
// CHECK-LABEL: func.func @int4_chunks_dynamic
// SPLIT-LABEL: func.func @int4_chunks_dynamic
// SPLIT: tensor.empty() : tensor<256x32xf32>
// CHECK: %[[ENOUGH:.*]] = arith.cmpi uge, %{{.*}}, %c{{[0-9]+}} : index
// CHECK: scf.if %[[ENOUGH]]
// CHECK: tensor.empty() : tensor<{{256|512}}x{{[0-9]+}}xf32>
// CHECK: scf.yield %{{.*}} : tensor<1x?x?xf32>
// CHECK-NEXT: } else {
// CHECK-NOT: tensor<{{256|512}}x{{8|16|32}}xf32>
// CHECK: arith.shrui
// CHECK: arith.sitofp
// CHECK: return
func.func @int4_chunks_dynamic(%x: tensor<?x512xf32>, %q: tensor<512x64xui4>, %scale: tensor<16x64xf32>) -> tensor<?x64xf32> {
  %dw = qops.dequantize_linear %q, %scale axis = 0 block_size = 32 : tensor<512x64xui4>, tensor<16x64xf32> -> tensor<512x64xf32>
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x512xf32>
  %e = tensor.empty(%m) : tensor<?x64xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<?x64xf32>) -> tensor<?x64xf32>
  %y = linalg.matmul ins(%x, %dw : tensor<?x512xf32>, tensor<512x64xf32>) outs(%init : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// -----

// Weight-only with one or two row tiles (8 rows): dequantized in the
// tiles' registers, no chunk.
// CHECK-LABEL: func.func @int4_few_tiles
// CHECK-NOT: tensor<{{256|512}}x{{8|16|32}}xf32>
// SPLIT-LABEL: func.func @int4_few_tiles
// SPLIT: arith.mulf %{{.*}}, %{{.*}} : vector<16xf32>
func.func @int4_few_tiles(%x: tensor<8x512xf32>, %q: tensor<512x64xui4>, %scale: tensor<16x64xf32>) -> tensor<8x64xf32> {
  %dw = qops.dequantize_linear %q, %scale axis = 0 block_size = 32 : tensor<512x64xui4>, tensor<16x64xf32> -> tensor<512x64xf32>
  %e = tensor.empty() : tensor<8x64xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %y = linalg.matmul ins(%x, %dw : tensor<8x512xf32>, tensor<512x64xf32>) outs(%init : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

// 11 rows: two or three tiles with 6, 11 or 12 rows, no chunk; on a Zen 4
// (SPLIT) too, where the 4-row tiles would dequantize chunks for three
// tiles (4, 4 and 3 rows) but only twelve rows or more fill three.
// CHECK-LABEL: func.func @int4_eleven_rows
// CHECK-NOT: tensor<{{256|512}}x{{8|16|32}}xf32>
// SPLIT-LABEL: func.func @int4_eleven_rows
// SPLIT-NOT: tensor<512x16xf32>
// SPLIT: arith.mulf %{{.*}}, %{{.*}} : vector<16xf32>
func.func @int4_eleven_rows(%x: tensor<11x512xf32>, %q: tensor<512x64xui4>, %scale: tensor<16x64xf32>) -> tensor<11x64xf32> {
  %dw = qops.dequantize_linear %q, %scale axis = 0 block_size = 32 : tensor<512x64xui4>, tensor<16x64xf32> -> tensor<512x64xf32>
  %e = tensor.empty() : tensor<11x64xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<11x64xf32>) -> tensor<11x64xf32>
  %y = linalg.matmul ins(%x, %dw : tensor<11x512xf32>, tensor<512x64xf32>) outs(%init : tensor<11x64xf32>) -> tensor<11x64xf32>
  return %y : tensor<11x64xf32>
}

// -----

// ui2 per column: four to a byte (masked, shifted by 0, 2, 4, 6 when
// packed; logical shifts and zero extension when read); one block of K
// (its loop folded away), the scale lanes read once.
// CHECK-LABEL: func.func @uint2_per_column
// CHECK: tensor.empty() : tensor<1x1x4x{{[0-9]+}}xi8>
// CHECK: vector.transfer_read %{{.*}}[%c0]{{.*}} : tensor<5xf32>
// CHECK: arith.shrui
// CHECK: arith.extui
// CHECK-NOT: arith.subi {{.*}} : vector
// CHECK: arith.sitofp
func.func @uint2_per_column(%x: tensor<4x16xf32>, %q: tensor<16x5xui2>, %scale: tensor<5xf32>) -> tensor<4x5xf32> {
  %dw = qops.dequantize_linear %q, %scale axis = 1 : tensor<16x5xui2>, tensor<5xf32> -> tensor<16x5xf32>
  %e = tensor.empty() : tensor<4x5xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x5xf32>) -> tensor<4x5xf32>
  %y = linalg.matmul ins(%x, %dw : tensor<4x16xf32>, tensor<16x5xf32>) outs(%init : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

// -----

// si8 per tensor with a zero point: a byte per k, no shifts; the zero point
// broadcast, widened and subtracted in i32 (|q - zp| reaches 255).
// CHECK-LABEL: func.func @int8_per_tensor
// CHECK: tensor.empty() : tensor<1x{{[0-9]+}}x6x{{[0-9]+}}xi8>
// CHECK: %[[ZP:.*]] = arith.extsi %{{.*}} : vector<{{16|8|4}}xi8> to vector<{{16|8|4}}xi32>
// CHECK: scf.for
// CHECK-NOT: arith.{{shrsi|shrui|xori}}
// CHECK: %[[E:.*]] = arith.extsi
// CHECK: arith.subi %[[E]], %[[ZP]] : vector<{{16|8|4}}xi32>
func.func @int8_per_tensor(%x: tensor<8x6xf32>, %q: tensor<6x40xsi8>, %scale: tensor<f32>, %zp: tensor<si8>) -> tensor<8x40xf32> {
  %dw = qops.dequantize_linear %q, %scale, %zp : tensor<6x40xsi8>, tensor<f32>, tensor<si8> -> tensor<6x40xf32>
  %e = tensor.empty() : tensor<8x40xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8x40xf32>) -> tensor<8x40xf32>
  %y = linalg.matmul ins(%x, %dw : tensor<8x6xf32>, tensor<6x40xf32>) outs(%init : tensor<8x40xf32>) -> tensor<8x40xf32>
  return %y : tensor<8x40xf32>
}

// -----

// Weights the weight-only form does not read (a block not a multiple of
// the two nibbles of a byte; a scale per row of b, axis 0): the float b
// that DequantizeLinear makes, read as f32 rows (a has 3 rows and b is
// not constant: its scale is an argument).
// CHECK-LABEL: func.func @weights_as_float
// CHECK: qops.dequantize_linear
// CHECK: vector.transfer_read %{{.*}} : tensor<1x6x2xf32>
// CHECK: qops.dequantize_linear
// CHECK: vector.transfer_read %{{.*}} : tensor<1x8x2xf32>
func.func @weights_as_float(%x: tensor<3x6xf32>, %scale: tensor<2x2xf32>, %x8: tensor<3x8xf32>, %rows: tensor<8xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %w = arith.constant dense<1> : tensor<6x2xsi4>
  %dw = qops.dequantize_linear %w, %scale axis = 0 block_size = 3 : tensor<6x2xsi4>, tensor<2x2xf32> -> tensor<6x2xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %y = linalg.matmul ins(%x, %dw : tensor<3x6xf32>, tensor<6x2xf32>) outs(%init : tensor<3x2xf32>) -> tensor<3x2xf32>
  %w8 = arith.constant dense<1> : tensor<8x2xsi4>
  %dh = qops.dequantize_linear %w8, %rows axis = 0 : tensor<8x2xsi4>, tensor<8xf32> -> tensor<8x2xf32>
  %y2 = linalg.matmul ins(%x8, %dh : tensor<3x8xf32>, tensor<8x2xf32>) outs(%init : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %y, %y2 : tensor<3x2xf32>, tensor<3x2xf32>
}

// -----

// qops.accuracy_level = 4 (MatMulNBits) with ui4 weights blocked by 16:
// int8 activations (FloatMatMulInt8.cpp), in vector code. A per row and
// block of two groups of eight: max |a| (vector<8xf32> lanes, then their
// maximum), sa = max / 127, qa = clamp(roundeven(a / sa)) as i8 (0 where
// sa = 0), row sums, and the quads (even k, odd k) of each group: its
// eight bytes shuffled even then odd and read as two i32; q eight nibbles
// to an i32 lane. Per group, the lanes' even and odd nibbles
// (& 0x0F0F0F0F after a shift by 4) times the broadcast quads, by the
// strategy's dot product; per block, f32 += f32(isum - zp rs) * (sa * scale).
// CHECK-LABEL: func.func @int8_activations
// CHECK: scf.for %[[ROW:.*]] = %c0 to %c2 step %c1 iter_args({{.*}}) -> (tensor<2x4x2xi32>, tensor<2x2xf32>, tensor<2x2xi32>)
// CHECK: scf.for %[[KB:.*]] = %c0 to %c2 step %c1
// CHECK: scf.for {{.*}} = %c0 to %c2 step %c1 iter_args(%[[AMAX:.*]] = %{{.*}}) -> (vector<8xf32>)
// CHECK: %[[A:.*]] = vector.transfer_read %{{.*}}[%[[ROW]], %{{.*}}]{{.*}} : tensor<2x32xf32>, vector<8xf32>
// CHECK: %[[ABS:.*]] = math.absf %[[A]] : vector<8xf32>
// CHECK: arith.maximumf %[[ABS]], %[[AMAX]] : vector<8xf32>
// CHECK: %[[MAX:.*]] = vector.reduction <maximumf>, %{{.*}} : vector<8xf32> into f32
// CHECK: %[[SA:.*]] = arith.divf %[[MAX]], %{{.*}} : f32
// CHECK: %[[ZERO_SCALE:.*]] = arith.cmpf oeq, %[[SA]], %{{.*}} : f32
// CHECK: scf.for {{.*}} -> (tensor<2x4x2xi32>, vector<8xi32>)
// CHECK: arith.divf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK: math.roundeven %{{.*}} : vector<8xf32>
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: arith.select %[[ZERO_SCALE]]
// CHECK: %[[QA:.*]] = arith.fptosi %{{.*}} : vector<8xf32> to vector<8xi8>
// CHECK: arith.extsi %[[QA]] : vector<8xi8> to vector<8xi32>
// CHECK: %[[EVEN_ODD:.*]] = vector.shuffle %[[QA]], %[[QA]] [0, 2, 4, 6, 1, 3, 5, 7] : vector<8xi8>, vector<8xi8>
// CHECK: %[[QUADS:.*]] = vector.bitcast %[[EVEN_ODD]] : vector<8xi8> to vector<2xi32>
// CHECK: vector.transfer_write %[[QUADS]], %{{.*}}[%[[ROW]], %{{.*}}, %c0] {in_bounds = [true]} : vector<2xi32>, tensor<2x4x2xi32>
// CHECK: vector.reduction <add>, %{{.*}} : vector<8xi32> into i32
// CHECK: tensor.insert %[[SA]] into %{{.*}}[%[[ROW]], %[[KB]]] : tensor<2x2xf32>
// CHECK: tensor.empty() : tensor<1x1x4x{{[0-9]+}}xi32>
// CHECK: arith.shli %{{.*}}, %{{.*}} : vector<{{8|16}}xi32>
// ZMM: qkernel.dot_u8s8_quads %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi32>
// YMM: qkernel.dot_u8s8_quads %{{.*}}, %{{.*}}, %{{.*}} {pair_sums_fit_i16} : vector<8xi32>
// NEON: qkernel.dot_s8s8_quads %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK: arith.muli
// CHECK: arith.subi
// CHECK: arith.sitofp
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @int8_activations(%x: tensor<2x32xf32>, %scale: tensor<2x5xf32>, %zp: tensor<2x5xui4>) -> tensor<2x5xf32> {
  %w = arith.constant dense<3> : tensor<32x5xui4>
  %dw = qops.dequantize_linear %w, %scale, %zp axis = 0 block_size = 16 : tensor<32x5xui4>, tensor<2x5xf32>, tensor<2x5xui4> -> tensor<32x5xf32>
  %e = tensor.empty() : tensor<2x5xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5xf32>) -> tensor<2x5xf32>
  %y = linalg.matmul {qops.accuracy_level = 4 : i64} ins(%x, %dw : tensor<2x32xf32>, tensor<32x5xf32>) outs(%init : tensor<2x5xf32>) -> tensor<2x5xf32>
  return %y : tensor<2x5xf32>
}

// -----

// Level 4, the activations' loops and indices: 3 rows, K = 64 in 4 blocks
// of 16 (2 groups of eight each). Block kb's group j is read at k = 16 kb +
// 8 j and written as quads group 2 kb + j; its scale and row sum at
// [row, kb].
// CHECK-LABEL: func.func @int8_activations_indices
// CHECK: scf.for %[[ROW:.*]] = %c0 to %c3 step %c1 iter_args({{.*}}) -> (tensor<3x8x2xi32>, tensor<3x4xf32>, tensor<3x4xi32>)
// CHECK: scf.for %[[KB:.*]] = %c0 to %c4 step %c1
// CHECK: %[[K0:.*]] = arith.muli %[[KB]], %c16
// CHECK: scf.for %[[J:.*]] = %c0 to %c2 step %c1 iter_args({{.*}}) -> (vector<8xf32>)
// CHECK: %[[J8:.*]] = arith.muli %[[J]], %c8
// CHECK: %[[K:.*]] = arith.addi %[[K0]], %[[J8]]
// CHECK: vector.transfer_read %{{.*}}[%[[ROW]], %[[K]]]{{.*}} : tensor<3x64xf32>, vector<8xf32>
// CHECK: vector.reduction <maximumf>
// CHECK: scf.for %[[JQ:.*]] = %c0 to %c2 step %c1 iter_args({{.*}}) -> (tensor<3x8x2xi32>, vector<8xi32>)
// CHECK: %[[G0:.*]] = arith.muli %[[KB]], %c2
// CHECK: %[[G:.*]] = arith.addi %[[G0]], %[[JQ]]
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%[[ROW]], %[[G]], %c0] {in_bounds = [true]} : vector<2xi32>, tensor<3x8x2xi32>
// CHECK: tensor.insert %{{.*}} into %{{.*}}[%[[ROW]], %[[KB]]] : tensor<3x4xf32>
// CHECK: tensor.insert %{{.*}} into %{{.*}}[%[[ROW]], %[[KB]]] : tensor<3x4xi32>
func.func @int8_activations_indices(%x: tensor<3x64xf32>, %scale: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %w = arith.constant dense<3> : tensor<64x5xui4>
  %dw = qops.dequantize_linear %w, %scale axis = 0 block_size = 16 : tensor<64x5xui4>, tensor<4x5xf32> -> tensor<64x5xf32>
  %e = tensor.empty() : tensor<3x5xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %y = linalg.matmul {qops.accuracy_level = 4 : i64} ins(%x, %dw : tensor<3x64xf32>, tensor<64x5xf32>) outs(%init : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}

// -----

// Level 4 with rows known at run time: the activations' buffers take M
// from a, and their loop runs to it.
// CHECK-LABEL: func.func @int8_activations_dynamic_rows
// CHECK: tensor.empty(%[[M:.*]]) : tensor<?x4x2xi32>
// CHECK: tensor.empty(%[[M]]) : tensor<?x2xf32>
// CHECK: tensor.empty(%[[M]]) : tensor<?x2xi32>
// CHECK: scf.for %{{.*}} = %c0 to %[[M]] step %c1
// CHECK: qkernel.dot_
func.func @int8_activations_dynamic_rows(%x: tensor<?x32xf32>, %scale: tensor<2x5xf32>) -> tensor<?x5xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x32xf32>
  %w = arith.constant dense<3> : tensor<32x5xui4>
  %dw = qops.dequantize_linear %w, %scale axis = 0 block_size = 16 : tensor<32x5xui4>, tensor<2x5xf32> -> tensor<32x5xf32>
  %e = tensor.empty(%m) : tensor<?x5xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<?x5xf32>) -> tensor<?x5xf32>
  %y = linalg.matmul {qops.accuracy_level = 4 : i64} ins(%x, %dw : tensor<?x32xf32>, tensor<32x5xf32>) outs(%init : tensor<?x5xf32>) -> tensor<?x5xf32>
  return %y : tensor<?x5xf32>
}

// -----

// Level 4 with signed 4-bit weights (int4): taken as q + 8, their nibble
// with the high bit flipped while packing, with zero point 8 (none given):
// q - zp is the same, and so are the sums.
// CHECK-LABEL: func.func @int8_activations_signed
// CHECK: %[[EIGHT:.*]] = arith.constant dense<8> : vector<[[N:[0-9]+]]xi32>
// CHECK: arith.xori %{{.*}}, %[[EIGHT]] : vector<[[N]]xi32>
// CHECK: qkernel.dot_{{[us]}}8s8_quads
// CHECK: arith.muli %{{.*}}, %[[EIGHT]] : vector<[[N]]xi32>
func.func @int8_activations_signed(%x: tensor<2x32xf32>, %scale: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %w = arith.constant dense<3> : tensor<32x5xsi4>
  %dw = qops.dequantize_linear %w, %scale axis = 0 block_size = 16 : tensor<32x5xsi4>, tensor<2x5xf32> -> tensor<32x5xf32>
  %e = tensor.empty() : tensor<2x5xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5xf32>) -> tensor<2x5xf32>
  %y = linalg.matmul {qops.accuracy_level = 4 : i64} ins(%x, %dw : tensor<2x32xf32>, tensor<32x5xf32>) outs(%init : tensor<2x5xf32>) -> tensor<2x5xf32>
  return %y : tensor<2x5xf32>
}

// -----

// Level 4 with 8-bit weights: the f32 weight-only form (the int8 form takes
// 4-bit weights only).
// CHECK-LABEL: func.func @int8_activations_not_taken
// CHECK-NOT: qkernel.dot
// CHECK: arith.sitofp
func.func @int8_activations_not_taken(%x: tensor<2x32xf32>, %scale: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %w = arith.constant dense<3> : tensor<32x5xsi8>
  %dw = qops.dequantize_linear %w, %scale axis = 0 block_size = 16 : tensor<32x5xsi8>, tensor<2x5xf32> -> tensor<32x5xf32>
  %e = tensor.empty() : tensor<2x5xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5xf32>) -> tensor<2x5xf32>
  %y = linalg.matmul {qops.accuracy_level = 4 : i64} ins(%x, %dw : tensor<2x32xf32>, tensor<32x5xf32>) outs(%init : tensor<2x5xf32>) -> tensor<2x5xf32>
  return %y : tensor<2x5xf32>
}

// f16 a and b with f32 sums (the importer's f16 MatMul): b packed as f16
// panels; every value read is extended to f32 before the multiply.
// CHECK-LABEL: func.func @half_storage
// ZMM: tensor.empty() : tensor<1x2x8x32xf16>
// ZMM: %[[B:.*]] = vector.transfer_read {{.*}} : tensor<1x2x8x32xf16>, vector<16xf16>
// ZMM: %[[BW:.*]] = arith.extf %[[B]] : vector<16xf16> to vector<16xf32>
// ZMM: %[[A:.*]] = tensor.extract %{{.*}} : tensor<1x20x8xf16>
// ZMM: %[[AW:.*]] = arith.extf %[[A]] : f16 to f32
// ZMM: %[[L:.*]] = vector.broadcast %[[AW]] : f32 to vector<16xf32>
// ZMM: arith.mulf %[[L]], %[[BW]] : vector<16xf32>
func.func @half_storage(%a: tensor<20x8xf16>, %w: tensor<8x40xf16>) -> tensor<20x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<20x40xf32>) -> tensor<20x40xf32>
  %y = linalg.matmul ins(%a, %w : tensor<20x8xf16>, tensor<8x40xf16>) outs(%c : tensor<20x40xf32>) -> tensor<20x40xf32>
  return %y : tensor<20x40xf32>
}

// -----

// A DequantizeLinear -> MatMul of 4-bit blocked weights carries no level:
// f32 (ONNX's numbers) by default; default-accuracy-level=4 (ONNX
// Runtime's session.qdq_matmulnbits_accuracy_level, quant-runner
// --qdq-accuracy-level) gives it int8 activations, as MatMulNBits at level
// 4.
// CHECK-LABEL: func.func @qdq_weights_no_level
// CHECK-NOT: qkernel.dot
// CHECK: arith.sitofp
// LEVEL4-LABEL: func.func @qdq_weights_no_level
// LEVEL4: arith.xori
// LEVEL4: qkernel.dot_u8s8_quads
func.func @qdq_weights_no_level(%x: tensor<2x32xf32>, %scale: tensor<2x5xf32>, %zp: tensor<2x5xsi4>) -> tensor<2x5xf32> {
  %w = arith.constant dense<-3> : tensor<32x5xsi4>
  %dw = qops.dequantize_linear %w, %scale, %zp axis = 0 block_size = 16 : tensor<32x5xsi4>, tensor<2x5xf32>, tensor<2x5xsi4> -> tensor<32x5xf32>
  %e = tensor.empty() : tensor<2x5xf32>
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5xf32>) -> tensor<2x5xf32>
  %y = linalg.matmul ins(%x, %dw : tensor<2x32xf32>, tensor<32x5xf32>) outs(%init : tensor<2x5xf32>) -> tensor<2x5xf32>
  return %y : tensor<2x5xf32>
}
