// RUN: quant-opt %s --convert-qops-to-linalg="int8-kernel=false" --split-input-file | FileCheck %s --check-prefix=GEN
// RUN: quant-opt %s --convert-qops-to-linalg=int8-strategy=madd --split-input-file | FileCheck %s --check-prefix=MADD
// RUN: quant-opt %s --convert-qops-to-linalg=int8-strategy=vnni --split-input-file | FileCheck %s --check-prefix=VNNI
// RUN: quant-opt %s --convert-qops-to-linalg=int8-strategy=amx --split-input-file | FileCheck %s --check-prefix=AMX

// convert-qops-to-linalg lowers qkernel.matmul (what
// qops-decompose-contractions makes) whatever op it came from: the gemv, the
// strategy's packed kernel, or the generic form, chosen in that order. No
// qops op in these cases. The kernel's a and b are a qkernel.pack_a and a
// qkernel.pack_b in the strategy's layouts (TuningTable.h: madd's centered
// a and k-pairs of 16-column panels, vnni's a' bytes and quads of 32-column
// panels), left for qops-lower-packing.

// The sums alone: one i32 contraction; no requantization on any path.
// GEN-LABEL: func.func @sums
// GEN: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]
// GEN-SAME: outs(%{{.*}} : tensor<64x37xi32>)
// GEN-NOT: math.roundeven
// GEN-NOT: qkernel.matmul
// GEN-NOT: qkernel.pack_b
// MADD-LABEL: func.func @sums
// MADD: qkernel.pack_a centered %{{.*}}, %{{.*}} {a_unsigned, k_step = 2 : i64} : tensor<1x64x33xi8>, tensor<64xi8> -> tensor<1x64x34xi16>
// MADD: qkernel.pack_b pairs %{{.*}}, %{{.*}} {k_step = 2 : i64, panel_columns = 16 : i64} : tensor<1x33x37xi8>, tensor<i8> -> tensor<1x3x17x16xi32>
// MADD: scf.for {{.*}} -> (vector<8xi32>,
// MADD-NOT: math.roundeven
// MADD: vector.transfer_write %{{.*}} : vector<8xi32>, tensor<1x?x?xi32>
// MADD: qkernel.tile_loops
// VNNI-LABEL: func.func @sums
// VNNI: qkernel.pack_a bytes %{{.*}} {a_unsigned, k_step = 4 : i64} : tensor<1x64x33xi8> -> tensor<1x64x36xi8>
// VNNI: qkernel.pack_b quads %{{.*}}, %{{.*}} {k_step = 4 : i64, panel_columns = 32 : i64} : tensor<1x33x37xi8>, tensor<i8> -> tensor<1x2x9x32xi32>, tensor<1x64xi32>
// VNNI: qkernel.dot_u8s8_quads
// VNNI-NOT: math.roundeven
// VNNI: vector.transfer_write %{{.*}} : vector<16xi32>, tensor<1x?x?xi32>
func.func @sums(%a: tensor<64x33xui8>, %azp: tensor<64xui8>, %b: tensor<33x37xsi8>) -> tensor<64x37xi32> {
  %y = qkernel.matmul a(%a, %azp : tensor<64x33xui8>, tensor<64xui8>) b(%b : tensor<33x37xsi8>) -> tensor<64x37xi32>
  return %y : tensor<64x37xi32>
}

// -----

// Requantized: the contraction, then y = saturate(round(acc * multiplier) +
// y_zp) into ui8 storage (i8); the kernels requantize in the tile epilogue.
// GEN-LABEL: func.func @requantized
// GEN: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]
// GEN: linalg.generic
// GEN: math.roundeven
// GEN: arith.trunci %{{.*}} : i32 to i8
// GEN-NOT: qkernel.matmul
// MADD-LABEL: func.func @requantized
// MADD: scf.for {{.*}} -> (vector<8xi32>,
// MADD: math.fma %{{.*}} : vector<8xf32>
// MADD: qkernel.tile_loops
// VNNI-LABEL: func.func @requantized
// VNNI: qkernel.pack_a bytes %{{.*}} {a_unsigned, k_step = 4 : i64, row_sums} : tensor<1x64x33xi8> -> tensor<1x64x36xi8>, tensor<1x64xi32>
// VNNI: qkernel.dot_u8s8_quads
// VNNI: math.fma %{{.*}} : vector<16xf32>
func.func @requantized(%a: tensor<64x33xui8>, %azp: tensor<ui8>, %b: tensor<33x37xsi8>, %bzp: tensor<si8>, %s: tensor<f32>, %yzp: tensor<ui8>) -> tensor<64x37xui8> {
  %y = qkernel.matmul a(%a, %azp : tensor<64x33xui8>, tensor<ui8>) b(%b, %bzp : tensor<33x37xsi8>, tensor<si8>)
         requantize(%s, %s, %s, %yzp : tensor<f32>, tensor<f32>, tensor<f32>, tensor<ui8>) -> tensor<64x37xui8>
  return %y : tensor<64x37xui8>
}

// -----

// The epilogue: the accumulators parked in the block's [MR, NR] buffer, one
// loop over the tile's rows. What depends only on the column (here the
// multiplier of per-tensor scales) is computed before the loop; a per-row
// a_scale makes the multiplier the row's, inside it.
// VNNI-LABEL: func.func @epilogue_column_multiplier
// VNNI: %[[BUF:.*]] = memref.alloc() {alignment = 64 : i64} : memref<12x32xi32>
// VNNI: qkernel.dot_u8s8_quads
// VNNI: vector.store %{{.*}}, %[[BUF]][%{{.*}}, %{{.*}}] : memref<12x32xi32>, vector<16xi32>
// VNNI: arith.divf %{{.*}}, %{{.*}} : vector<16xf32>
// VNNI: arith.divf %{{.*}}, %{{.*}} : vector<16xf32>
// VNNI: scf.for %[[R:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<1x?x?xi8>)
// VNNI-NOT: arith.divf
// 64 rows are not a multiple of MR = 12: every tile's row m0 + r is clamped
// to M - 1, and the buffer's row is the clamped row's place in the tile.
// VNNI: %[[ROW:.*]] = arith.addi %{{.*}}, %[[R]] : index
// VNNI: %[[CLAMPED:.*]] = arith.minui %[[ROW]], %{{.*}} : index
// VNNI: %[[IN_TILE:.*]] = arith.subi %[[CLAMPED]], %{{.*}} : index
// VNNI-NOT: arith.divf
// VNNI: vector.load %[[BUF]][%[[IN_TILE]], %{{.*}}] : memref<12x32xi32>, vector<16xi32>
// VNNI-NOT: arith.divf
// VNNI: math.fma %{{.*}} : vector<16xf32>
// VNNI: scf.yield
func.func @epilogue_column_multiplier(%a: tensor<64x33xui8>, %azp: tensor<ui8>, %b: tensor<33x37xsi8>, %bzp: tensor<si8>, %s: tensor<f32>, %yzp: tensor<ui8>) -> tensor<64x37xui8> {
  %y = qkernel.matmul a(%a, %azp : tensor<64x33xui8>, tensor<ui8>) b(%b, %bzp : tensor<33x37xsi8>, tensor<si8>)
         requantize(%s, %s, %s, %yzp : tensor<f32>, tensor<f32>, tensor<f32>, tensor<ui8>) -> tensor<64x37xui8>
  return %y : tensor<64x37xui8>
}

// -----

// K = 300: a sum may exceed 2^24 (300 * 255 * 255), so the epilogue
// requantizes in f64 (emitRequantizeSum), not in f32 (K <= 258 above:
// emitRequantizeSmallSum).
// VNNI-LABEL: func.func @epilogue_row_multiplier
// VNNI: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<12x32xi32>, vector<16xi32>
// VNNI-NOT: arith.divf
// VNNI: scf.for %[[R:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<1x?x?xi8>)
// VNNI: %[[ROW:.*]] = arith.addi %{{.*}}, %[[R]] : index
// VNNI: %[[CLAMPED:.*]] = arith.minui %[[ROW]], %{{.*}} : index
// VNNI: %[[IN_TILE:.*]] = arith.subi %[[CLAMPED]], %{{.*}} : index
// VNNI: vector.load %{{.*}}[%[[IN_TILE]], %{{.*}}] : memref<12x32xi32>, vector<16xi32>
// VNNI: arith.divf %{{.*}}, %{{.*}} : vector<16xf32>
// VNNI: arith.sitofp %{{.*}} : vector<16xi32> to vector<16xf64>
// VNNI: math.roundeven %{{.*}} : vector<16xf64>
// VNNI: scf.yield
func.func @epilogue_row_multiplier(%a: tensor<64x300xui8>, %azp: tensor<ui8>, %b: tensor<300x37xsi8>, %bzp: tensor<si8>, %as: tensor<64xf32>, %s: tensor<f32>, %yzp: tensor<ui8>) -> tensor<64x37xui8> {
  %y = qkernel.matmul a(%a, %azp : tensor<64x300xui8>, tensor<ui8>) b(%b, %bzp : tensor<300x37xsi8>, tensor<si8>)
         requantize(%as, %s, %s, %yzp : tensor<64xf32>, tensor<f32>, tensor<f32>, tensor<ui8>) -> tensor<64x37xui8>
  return %y : tensor<64x37xui8>
}

// -----

// K = 300 with constant weights: every sum is at most 255 max_n sum_k |b -
// b_zp| in magnitude (getMaxAbsSumAlong, b traced through a transpose and a
// storage cast to its constant). b - b_zp = 100: 255 * 300 * 100 < 2^24,
// so the epilogue requantizes in f32 (one fma), where K alone (300 * 255 *
// 255) would not prove it.
// VNNI-LABEL: func.func @constant_b_small_sums
// VNNI: math.fma %{{.*}} : vector<16xf32>
// VNNI-NOT: math.roundeven
// VNNI: qkernel.tile_loops
func.func @constant_b_small_sums(%a: tensor<64x300xui8>, %s: tensor<f32>, %yzp: tensor<ui8>) -> tensor<64x37xui8> {
  %bt = arith.constant dense<103> : tensor<37x300xi8>
  %e = tensor.empty() : tensor<300x37xi8>
  %b8 = linalg.transpose ins(%bt : tensor<37x300xi8>) outs(%e : tensor<300x37xi8>) permutation = [1, 0]
  %b = builtin.unrealized_conversion_cast %b8 : tensor<300x37xi8> to tensor<300x37xsi8>
  %bzp = arith.constant dense<3> : tensor<37xsi8>
  %y = qkernel.matmul a(%a, %yzp : tensor<64x300xui8>, tensor<ui8>) b(%b, %bzp : tensor<300x37xsi8>, tensor<37xsi8>)
         requantize(%s, %s, %s, %yzp : tensor<f32>, tensor<f32>, tensor<f32>, tensor<ui8>) -> tensor<64x37xui8>
  return %y : tensor<64x37xui8>
}

// -----

// b - b_zp = 127 - (-100) = 227: 255 * 300 * 227 > 2^24, f64.
// VNNI-LABEL: func.func @constant_b_large_sums
// VNNI-NOT: math.fma
// VNNI: math.roundeven %{{.*}} : vector<16xf64>
func.func @constant_b_large_sums(%a: tensor<64x300xui8>, %s: tensor<f32>, %yzp: tensor<ui8>) -> tensor<64x37xui8> {
  %b = arith.constant dense<127> : tensor<300x37xsi8>
  %bzp = arith.constant dense<-100> : tensor<si8>
  %y = qkernel.matmul a(%a, %yzp : tensor<64x300xui8>, tensor<ui8>) b(%b, %bzp : tensor<300x37xsi8>, tensor<si8>)
         requantize(%s, %s, %s, %yzp : tensor<f32>, tensor<f32>, tensor<f32>, tensor<ui8>) -> tensor<64x37xui8>
  return %y : tensor<64x37xui8>
}

// -----

// The weights as a's rows (a pointwise convolution: y = w x), per-row zero
// points, and a per-row bias reshaped to [M, 1]: 255 * 300 * 50 + 7000 <
// 2^24 bounds every sum, f32.
// VNNI-LABEL: func.func @constant_a_rows_small_sums
// VNNI: math.fma %{{.*}} : vector<16xf32>
// VNNI-NOT: math.roundeven
func.func @constant_a_rows_small_sums(%b: tensor<300x37xui8>, %s: tensor<f32>, %yzp: tensor<ui8>) -> tensor<64x37xui8> {
  %a = arith.constant dense<-40> : tensor<64x300xsi8>
  %azp = arith.constant dense<10> : tensor<64xsi8>
  %bias64 = arith.constant dense<7000> : tensor<64xi32>
  %bias = tensor.expand_shape %bias64 [[0, 1]] output_shape [64, 1] : tensor<64xi32> into tensor<64x1xi32>
  %y = qkernel.matmul a(%a, %azp : tensor<64x300xsi8>, tensor<64xsi8>) b(%b, %yzp : tensor<300x37xui8>, tensor<ui8>)
         bias(%bias : tensor<64x1xi32>)
         requantize(%s, %s, %s, %yzp : tensor<f32>, tensor<f32>, tensor<f32>, tensor<ui8>) -> tensor<64x37xui8>
  return %y : tensor<64x37xui8>
}

// -----

// A ui8 b (b_unsigned: its bytes read as ui8) with a zero point per column,
// padded to the panels' columns (Np = 64 on vnni, 48 on madd).
// MADD-LABEL: func.func @unsigned_b_per_column
// MADD: qkernel.pack_b pairs %{{.*}}, %{{.*}} {b_unsigned, k_step = 2 : i64, panel_columns = 16 : i64} : tensor<1x33x37xi8>, tensor<48xi8> -> tensor<1x3x17x16xi32>
// VNNI-LABEL: func.func @unsigned_b_per_column
// VNNI: qkernel.pack_b quads %{{.*}}, %{{.*}} {b_unsigned, k_step = 4 : i64, panel_columns = 32 : i64} : tensor<1x33x37xi8>, tensor<64xi8> -> tensor<1x2x9x32xi32>, tensor<1x64xi32>
func.func @unsigned_b_per_column(%a: tensor<64x33xui8>, %b: tensor<33x37xui8>, %bzp: tensor<37xui8>) -> tensor<64x37xi32> {
  %y = qkernel.matmul a(%a : tensor<64x33xui8>) b(%b, %bzp : tensor<33x37xui8>, tensor<37xui8>) -> tensor<64x37xi32>
  return %y : tensor<64x37xi32>
}

// -----

// a without a zero point and an si8 b without one: no row sums (zb' = 0)
// on vnni (sums only); on amx a's 40 rows stay 40 (the kernel pads a copy
// of the last partial tile's rows alone), K is padded to 64.
// AMX-LABEL: func.func @amx_rows
// AMX: qkernel.pack_a bytes %{{.*}} {k_step = 64 : i64} : tensor<1x40x33xi8> -> tensor<1x40x64xi8>
// AMX: tensor.extract_slice %{{.*}}[0, 32, 0] [1, 8, 64] [1, 1, 1]
// AMX: qkernel.pack_b quads %{{.*}}, %{{.*}} {k_step = 64 : i64, panel_columns = 32 : i64} : tensor<1x33x37xi8>, tensor<i8> -> tensor<1x2x16x32xi32>, tensor<1x64xi32>
func.func @amx_rows(%a: tensor<40x33xsi8>, %b: tensor<33x37xsi8>) -> tensor<40x37xi32> {
  %y = qkernel.matmul a(%a : tensor<40x33xsi8>) b(%b : tensor<33x37xsi8>) -> tensor<40x37xi32>
  return %y : tensor<40x37xi32>
}

// -----

// float8 operands: the kernels decline ("not an int8 matmul"), the generic
// form sums the decoded values in f64.
// GEN-LABEL: func.func @float8
// GEN: linalg.generic {{.*}}outs(%{{.*}} : tensor<4x3xf64>)
// MADD-LABEL: func.func @float8
// MADD-NOT: qkernel.tile_loops
// MADD-NOT: qkernel.pack_b
// MADD: linalg.generic {{.*}}outs(%{{.*}} : tensor<4x3xf64>)
// VNNI-LABEL: func.func @float8
// VNNI-NOT: qkernel.dot_u8s8_quads
// VNNI: linalg.generic {{.*}}outs(%{{.*}} : tensor<4x3xf64>)
func.func @float8(%a: tensor<4x8xf8E4M3FN>, %azp: tensor<f8E4M3FN>, %b: tensor<8x3xf8E4M3FN>, %s: tensor<f32>, %yzp: tensor<f8E4M3FN>) -> tensor<4x3xf8E4M3FN> {
  %y = qkernel.matmul a(%a, %azp : tensor<4x8xf8E4M3FN>, tensor<f8E4M3FN>) b(%b, %azp : tensor<8x3xf8E4M3FN>, tensor<f8E4M3FN>)
         requantize(%s, %s, %s, %yzp : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f8E4M3FN>) -> tensor<4x3xf8E4M3FN>
  return %y : tensor<4x3xf8E4M3FN>
}

// -----

// A bias per row of y (QLinearConv's B, [M, 1]) is added to the exact sums
// before the multiplier: in the generic form's requantizing generic (an
// i32 addi before the sitofp), in the kernels' epilogue (the row's bias
// broadcast to the lanes). The gemv leaves a bias to the others.
// GEN-LABEL: func.func @bias_per_row
// GEN: linalg.generic
// GEN: ^bb0(%[[ACC:[a-z0-9_]+]]: i32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: i8, %[[BIAS:[a-z0-9_]+]]: i32, %{{.*}}: i8):
// GEN: %[[SUM:.*]] = arith.addi %[[ACC]], %[[BIAS]] : i32
// GEN: arith.sitofp %[[SUM]] : i32 to f64
// VNNI-LABEL: func.func @bias_per_row
// VNNI: qkernel.dot_u8s8_quads
// VNNI: %[[B:.*]] = tensor.extract %{{.*}}[%{{.*}}] : tensor<64xi32>
// VNNI: %[[LANES:.*]] = vector.broadcast %[[B]] : i32 to vector<16xi32>
// VNNI: %[[SUM:.*]] = arith.addi %{{.*}}, %[[LANES]] : vector<16xi32>
// VNNI: arith.sitofp %[[SUM]] : vector<16xi32> to vector<16xf64>
func.func @bias_per_row(%a: tensor<64x33xui8>, %b: tensor<33x37xsi8>, %s: tensor<f32>, %zp: tensor<ui8>, %bias: tensor<64x1xi32>) -> tensor<64x37xui8> {
  %y = qkernel.matmul a(%a : tensor<64x33xui8>) b(%b : tensor<33x37xsi8>) bias(%bias : tensor<64x1xi32>)
         requantize(%s, %s, %s, %zp : tensor<f32>, tensor<f32>, tensor<f32>, tensor<ui8>) -> tensor<64x37xui8>
  return %y : tensor<64x37xui8>
}


// -----

// A per-column bias (the pixel-rows convolution's, [N]) is padded to the
// panels like y's parameters; the kernels read its lanes once per tile,
// before the epilogue's loop over the rows, and add them to every row.
// VNNI-LABEL: func.func @bias_per_column
// VNNI: %[[PADDED:.*]] = tensor.pad %{{.*}} low[0] high[27]
// VNNI: %[[LANES:.*]] = vector.transfer_read %[[PADDED]][%{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<64xi32>, vector<16xi32>
// VNNI: scf.for %{{.*}} = %c0 to %c12 step %c1
// VNNI: %[[SUM:.*]] = arith.addi %{{.*}}, %[[LANES]] : vector<16xi32>
// VNNI: arith.sitofp %[[SUM]] : vector<16xi32> to vector<16xf64>
func.func @bias_per_column(%a: tensor<64x33xui8>, %b: tensor<33x37xsi8>, %s: tensor<f32>, %zp: tensor<ui8>, %bias: tensor<37xi32>) -> tensor<64x37xui8> {
  %y = qkernel.matmul a(%a : tensor<64x33xui8>) b(%b : tensor<33x37xsi8>) bias(%bias : tensor<37xi32>)
         requantize(%s, %s, %s, %zp : tensor<f32>, tensor<f32>, tensor<f32>, tensor<ui8>) -> tensor<64x37xui8>
  return %y : tensor<64x37xui8>
}

// -----

// The dequantize clause (quantize_dynamic's Cast -> Mul -> Add, fused):
// y = f32(acc) * scale + offset. The kernels read a per-column scale's
// lanes once per tile (padded to the panels with 1.0) and a per-row
// offset's value per row, then convert, multiply and add in f32, in that
// order; the generic form does the same per element after the sums.
// GEN-LABEL: func.func @dequantize_scale_per_column_offset_per_row
// GEN: linalg.generic
// GEN: arith.sitofp %{{.*}} : i32 to f32
// GEN-NEXT: arith.mulf
// GEN-NEXT: arith.addf
// GEN: -> tensor<64x37xf32>
// VNNI-LABEL: func.func @dequantize_scale_per_column_offset_per_row
// VNNI: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// VNNI: %[[PADDED:.*]] = tensor.pad %{{.*}} low[0] high[27]
// VNNI: tensor.yield %[[ONE]] : f32
// VNNI: %[[SCALE:.*]] = vector.transfer_read %[[PADDED]][%{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<64xf32>, vector<16xf32>
// VNNI: scf.for %{{.*}} = %c0 to %c12 step %c1
// VNNI: %[[F:.*]] = arith.sitofp %{{.*}} : vector<16xi32> to vector<16xf32>
// VNNI: %[[P:.*]] = arith.mulf %[[F]], %[[SCALE]] : vector<16xf32>
// VNNI: %[[OFFSET:.*]] = vector.broadcast %{{.*}} : f32 to vector<16xf32>
// VNNI: arith.addf %[[P]], %[[OFFSET]] : vector<16xf32>
// VNNI: vector.transfer_write {{.*}} : vector<16xf32>, tensor<{{.*}}xf32>
func.func @dequantize_scale_per_column_offset_per_row(%a: tensor<64x33xui8>, %b: tensor<33x37xsi8>, %s: tensor<37xf32>, %o: tensor<64x1xf32>) -> tensor<64x37xf32> {
  %y = qkernel.matmul a(%a : tensor<64x33xui8>) b(%b : tensor<33x37xsi8>) dequantize(%s, %o : tensor<37xf32>, tensor<64x1xf32>) -> tensor<64x37xf32>
  return %y : tensor<64x37xf32>
}
