// RUN: quant-opt %s --convert-qops-to-linalg=int8-strategy=madd --qops-lower-packing --split-input-file | FileCheck %s
// RUN: quant-opt %s --convert-qops-to-linalg="parallel int8-strategy=madd" --qops-lower-packing --qops-distribute --split-input-file | FileCheck %s --check-prefix=PAR

// The int8 micro-kernel (QLinearMatMulKernel.cpp): A packed as i16 with its
// zero point subtracted; B's even and odd k rows interleaved as i16 pairs in
// one i32, with its zero point subtracted, in 16-column panels (per panel
// and k-pair: two rows of 16 bytes interleaved by a byte shuffle, extended,
// the zero point pairs subtracted; QLinearMatMulMadd.h); 48-row
// blocks x 16-column panels x 6-row tiles x k-pairs, twelve vector<8xi32>
// accumulators of pairwise multiply-adds (qkernel.dot_i16_pairs); the requantization in the tile
// epilogue writes vector<8xi8> straight into the 64 x 32 result. 64 rows are
// not a multiple of 6: every tile takes its rows clamped to row 63 (one copy
// of the k loop and epilogue; no row-padded copy of a), which changes only
// the last one (rows 60 to 65): rows 64 and 65 compute row 63 again and
// write it there again.
// CHECK: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[ROLLED:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: func.func @kernel_u8_s8
// CHECK: %[[A16:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x64x128xi8>, tensor<i8>) outs(%{{.*}} : tensor<1x64x128xi16>)
// CHECK: arith.extui
// CHECK: arith.subi
// CHECK: arith.trunci %{{.*}} : i32 to i16
// CHECK: %[[BP:.*]] = scf.for {{.*}} -> (tensor<1x2x64x16xi32>)
// CHECK: scf.for %[[PANEL:[a-z0-9_]+]] = {{.*}} -> (tensor<1x2x64x16xi32>)
// CHECK: %[[ZB:.*]] = vector.transfer_read %{{.*}} : tensor<32xi8>, vector<16xi8>
// CHECK: %[[ZB16:.*]] = arith.extsi %[[ZB]] : vector<16xi8> to vector<16xi16>
// CHECK: %[[ZBLO:.*]] = vector.shuffle %[[ZB16]], %[[ZB16]] [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7]
// CHECK: scf.for %{{.*}} = %{{.*}} to %c64{{.*}} -> (tensor<1x1x64x16xi32>)
// CHECK: %[[EVEN:.*]] = vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<1x128x32xi8>, vector<16xi8>
// CHECK: %[[ODD:.*]] = vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<1x128x32xi8>, vector<16xi8>
// CHECK: %[[PAIRS:.*]] = vector.shuffle %[[EVEN]], %[[ODD]] [0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23]
// CHECK: %[[WORDS:.*]] = arith.extsi %[[PAIRS]] : vector<16xi8> to vector<16xi16>
// CHECK: %[[CENTERED:.*]] = arith.subi %[[WORDS]], %[[ZBLO]] : vector<16xi16>
// CHECK: vector.bitcast %[[CENTERED]] : vector<16xi16> to vector<8xi32>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[%{{.*}}, %[[PANEL]], 0, 0] [1, 1, 64, 16]
// CHECK: scf.for %[[B:.*]] = {{.*}} iter_args
// CHECK: scf.for %[[MB:.*]] = {{.*}} step %{{.*}} iter_args
// CHECK: scf.for %[[NC:.*]] = {{.*}} iter_args(%[[Y:.*]] = %{{.*}})
// CHECK: %[[YS:.*]] = tensor.extract_slice %[[Y]][%[[B]], %[[MB]], %[[NC]]]
// CHECK: scf.for %[[N0:.*]] = {{.*}} iter_args(%{{.*}} = %[[YS]])
// CHECK: scf.for %[[M0:.*]] = {{.*}} iter_args
// CHECK-NOT: scf.if
// B read through its flat view at an offset the k loop carries (the
// panel's first row, ((b * 2 + panel) * 64) * 16, then + 16 per k-pair):
// an address code generation needs no loop strength reduction for.
// CHECK: %[[PANEL_OF_N0:.*]] = arith.divui %[[N0]], %c16 : index
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[BP]] {{\[}}[0, 1, 2, 3]] : tensor<1x2x64x16xi32> into tensor<2048xi32>
// CHECK: %[[BATCH_PANELS:.*]] = arith.muli %{{.*}}, %c2{{.*}} : index
// CHECK: %[[PANEL_ROW:.*]] = arith.addi %[[BATCH_PANELS]], %[[PANEL_OF_N0]] : index
// CHECK: %[[K_ROWS:.*]] = arith.muli %[[PANEL_ROW]], %c64{{.*}} : index
// CHECK: %[[OFF0:.*]] = arith.muli %[[K_ROWS]], %c16{{.*}} : index
// CHECK: scf.for %[[KP:.*]] = {{.*}} iter_args({{.*}}, %[[OFF:.*]] = %[[OFF0]]) -> (vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, vector<8xi32>, index)
// CHECK: %[[LO_AT:.*]] = arith.addi %[[OFF]], %c0{{.*}} : index
// CHECK: %[[BLO:.*]] = vector.transfer_read %[[FLAT]][%[[LO_AT]]]{{.*}} : tensor<2048xi32>, vector<8xi32>
// CHECK: vector.bitcast %[[BLO]] : vector<8xi32> to vector<16xi16>
// CHECK: %[[HI_AT:.*]] = arith.addi %[[OFF]], %c8{{.*}} : index
// CHECK: vector.transfer_read %[[FLAT]][%[[HI_AT]]]{{.*}} : tensor<2048xi32>, vector<8xi32>
// CHECK: %[[ROW0:.*]] = arith.addi %[[M0]], %c0
// CHECK: %[[CLAMPED:.*]] = arith.minui %[[ROW0]], %[[LAST:.*]] : index
// CHECK: %[[PAIR:.*]] = vector.transfer_read %{{.*}}[%{{.*}}, %[[CLAMPED]], %{{.*}}]{{.*}} : tensor<1x64x128xi16>, vector<2xi16>
// CHECK: %[[BCAST:.*]] = vector.shuffle %[[PAIR]], %[[PAIR]] [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1] : vector<2xi16>, vector<2xi16>
// CHECK: qkernel.dot_i16_pairs %{{.*}}, %[[BCAST]], %{{.*}} : vector<16xi16> -> vector<8xi32>
// CHECK: qkernel.dot_i16_pairs %{{.*}}, %[[BCAST]], %{{.*}} : vector<16xi16> -> vector<8xi32>
// CHECK: %[[NEXT:.*]] = arith.addi %[[OFF]], %c16{{.*}} : index
// CHECK: scf.yield {{.*}}, %[[NEXT]] :
// The epilogue: the 12 accumulators parked in the block's buffer, then one
// loop over the tile's rows (clamped to M - 1, whose buffer row is then
// that of row M - 1), marked for LLVM not to unroll it (keepLoopRolled),
// then the requantization of the row's accumulators.
// CHECK: vector.store %{{.*}}, %[[BUF:.*]][%{{.*}}, %{{.*}}] : memref<6x16xi32>, vector<8xi32>
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: %[[ROW:.*]] = arith.addi %[[M0]], %[[R]]
// CHECK: %[[ROW_CLAMPED:.*]] = arith.minui %[[ROW]], %[[LAST]] : index
// CHECK: %[[LOCAL:.*]] = arith.subi %[[ROW_CLAMPED]], %[[M0]] : index
// CHECK: vector.load %[[BUF]][%[[LOCAL]], %{{.*}}] : memref<6x16xi32>, vector<8xi32>
// CHECK: arith.sitofp %{{.*}} : vector<8xi32> to vector<8xf32>
// CHECK: math.fma %{{.*}} : vector<8xf32>
// CHECK: %[[ROW_IN_Y:.*]] = arith.subi %[[ROW_CLAMPED]], %[[MB]]
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %[[ROW_IN_Y]], %{{.*}}] {in_bounds = [true]} : vector<8xi8>, tensor<1x?x?xi8>
// CHECK: scf.yield
// CHECK-NEXT: } {loop_annotation = #[[ROLLED]]}
// CHECK-NOT: tensor.extract_slice
// CHECK: tensor.insert_slice %{{.*}} into %[[Y]][%[[B]], %[[MB]], %[[NC]]]
// CHECK: return
func.func @kernel_u8_s8(%a: tensor<64x128xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<128x32xsi8>, %bs: tensor<32xf32>, %bzp: tensor<32xsi8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<64x32xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<64x128xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<128x32xsi8>, tensor<32xf32>, tensor<32xsi8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<64x32xui8>
  return %y : tensor<64x32xui8>
}

// -----

// Forms outside the kernel keep the generic contraction: f16 scales.
// CHECK-LABEL: func.func @generic_f16_scales
// CHECK-NOT: vector.shuffle
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
func.func @generic_f16_scales(%a: tensor<4x8xui8>, %as: tensor<f16>, %azp: tensor<ui8>, %b: tensor<8x16xsi8>, %bs: tensor<f16>, %bzp: tensor<si8>, %ys: tensor<f16>, %yzp: tensor<ui8>) -> tensor<4x16xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<4x8xui8>, tensor<f16>, tensor<ui8>) b(%b, %bs, %bzp : tensor<8x16xsi8>, tensor<f16>, tensor<si8>) y(%ys, %yzp : tensor<f16>, tensor<ui8>) -> tensor<4x16xui8>
  return %y : tensor<4x16xui8>
}

// -----

// With `parallel`, one scf.forall runs over batches x 48-row blocks x
// column chunks: 256 columns, narrower for static shapes that would give
// fewer than 64 tasks, two 16-column panels at the least (here 304 padded
// columns are 9 chunks of 32 and one of 16: 2 x 10 tasks, enough to keep
// the 48-row blocks); each tile's panel loop covers its own columns and it
// writes its own part of y, the column written offset by the chunk start.
// b is packed at run time and N >= M, so the column chunks are the outer
// dimension (a thread multiplies with the panels it packed).
// PAR-LABEL: func.func @kernel_parallel
// The tile's part of y stops at column 300: the panel loop runs to 304, and
// the writes are masked (not in_bounds).
// PAR: scf.forall (%[[BI:.*]], %[[NC:.*]], %[[MB:.*]]) = (0, 0, 0) to (1, 304, 96) step (1, 32, 48) shared_outs(%[[Y:.*]] = %{{.*}}) -> (tensor<1x96x300xi8>)
// PAR: %[[CHUNK_END:.*]] = arith.minui %{{.*}}, %c304
// PAR: %[[Y_COLUMNS_END:.*]] = arith.minui %{{.*}}, %c300
// PAR: %[[Y_COLUMNS:.*]] = arith.subi %[[Y_COLUMNS_END]], %[[NC]]
// PAR: %[[TILE:.*]] = tensor.extract_slice %[[Y]][%[[BI]], %[[MB]], %[[NC]]] [1, %{{.*}}, %[[Y_COLUMNS]]] [1, 1, 1] : tensor<1x96x300xi8> to tensor<1x?x?xi8>
// PAR: scf.for %[[N0:.*]] = %[[NC]] to %[[CHUNK_END]] step %c16
// PAR: %[[COL:.*]] = arith.addi %[[N0]], %c0
// PAR: %[[COL_IN_TILE:.*]] = arith.subi %[[COL]], %[[NC]]
// PAR: vector.transfer_write %{{.*}}, %{{.*}}[%{{c0[_0-9]*}}, %{{.*}}, %[[COL_IN_TILE]]] : vector<8xi8>, tensor<1x?x?xi8>
// PAR: scf.forall.in_parallel
// PAR: tensor.parallel_insert_slice %{{.*}} into %[[Y]][%[[BI]], %[[MB]], %[[NC]]] [1, %{{.*}}, %{{.*}}] [1, 1, 1]
// CHECK-LABEL: func.func @kernel_parallel
func.func @kernel_parallel(%a: tensor<96x64xui8>, %as: tensor<f32>, %azp: tensor<ui8>, %b: tensor<64x300xsi8>, %bs: tensor<f32>, %bzp: tensor<si8>, %ys: tensor<f32>, %yzp: tensor<ui8>) -> tensor<96x300xui8> {
  %y = qops.qlinear_matmul a(%a, %as, %azp : tensor<96x64xui8>, tensor<f32>, tensor<ui8>) b(%b, %bs, %bzp : tensor<64x300xsi8>, tensor<f32>, tensor<si8>) y(%ys, %yzp : tensor<f32>, tensor<ui8>) -> tensor<96x300xui8>
  return %y : tensor<96x300xui8>
}

// -----

// A taller a than b is wide (M > N): the row blocks are the outer
// dimension (7 x 2 tasks of 48 rows, fewer than a quarter of 64: 12-row
// blocks, 25 x 2).
// A compile-time b with N >= M keeps the column chunks outside.
// PAR-LABEL: func.func @kernel_parallel_tall
// PAR: scf.forall ({{.*}}) = (0, 0, 0) to (1, 300, 48) step (1, 12, 32)
// PAR-LABEL: func.func @kernel_parallel_constant_b
// PAR: scf.forall ({{.*}}) = (0, 0, 0) to (1, 304, 96) step (1, 32, 48)
// CHECK-LABEL: func.func @kernel_parallel_tall
func.func @kernel_parallel_tall(%a: tensor<300x64xui8>, %b: tensor<64x40xsi8>) -> tensor<300x40xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<-1> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<300x64xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<64x40xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<300x40xui8>
  return %y : tensor<300x40xui8>
}
func.func @kernel_parallel_constant_b(%a: tensor<96x64xui8>) -> tensor<96x300xui8> {
  %b = arith.constant dense<2> : tensor<64x300xsi8>
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<-1> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<96x64xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<64x300xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<96x300xui8>
  return %y : tensor<96x300xui8>
}

// -----

// A statically short a with a constant b that the gemv does not take
// (batched): the packed kernel, with a 1-row tile (2 accumulators) instead
// of 6 rows of which 5 would be padding. (Two-dimensional gemvs:
// qlinear-matmul-gemv.mlir.)
// CHECK-LABEL: func.func @short_a_constant_batched_b
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (vector<8xi32>, vector<8xi32>, index)
// CHECK: vector.transfer_write %{{.*}} : vector<8xi8>, tensor<1x?x?xi8>
// CHECK: tensor.insert_slice %{{.*}} : tensor<1x?x?xi8> into tensor<2x1x32xi8>
func.func @short_a_constant_batched_b(%a: tensor<2x1x64xui8>) -> tensor<2x1x32xui8> {
  %b = arith.constant dense<3> : tensor<2x64x32xsi8>
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<ui8>
  %zb = arith.constant dense<-1> : tensor<si8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<2x1x64xui8>, tensor<f32>, tensor<ui8>) b(%b, %s, %zb : tensor<2x64x32xsi8>, tensor<f32>, tensor<si8>) y(%s, %za : tensor<f32>, tensor<ui8>) -> tensor<2x1x32xui8>
  return %y : tensor<2x1x32xui8>
}

// -----

// The run-time B16 packing with threads: an scf.forall over batches x
// panels (OpenMP gives each thread a contiguous range of panels). N = 40 is
// not a multiple of 16: rows of b are read with masks (in_bounds false). A
// dynamic K may be odd: the last row alone, with a zero row after it, when
// it is. A ui8 b is zero-extended.
// PAR-LABEL: func.func @pack_threads_dynamic_k
// PAR: scf.forall (%{{.*}}, %{{.*}}) in (1, 3) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<1x3x?x16xi32>)
// PAR: vector.transfer_read %{{.*}} : tensor<1x?x40xi8>, vector<16xi8>
// PAR: arith.extui %{{.*}} : vector<16xi8> to vector<16xi16>
// PAR: %[[KMOD2:.*]] = arith.remui %{{.*}}, %c2{{.*}} : index
// PAR: %[[ODD:.*]] = arith.cmpi ne, %[[KMOD2]], %c0{{.*}} : index
// PAR: scf.if %[[ODD]]
// PAR: vector.shuffle %{{.*}}, %cst{{.*}} [0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23]
// PAR: tensor.parallel_insert_slice
func.func @pack_threads_dynamic_k(%a: tensor<7x?xsi8>, %b: tensor<?x40xui8>) -> tensor<7x40xsi8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %za = arith.constant dense<3> : tensor<si8>
  %zb = arith.constant dense<100> : tensor<ui8>
  %y = qops.qlinear_matmul a(%a, %s, %za : tensor<7x?xsi8>, tensor<f32>, tensor<si8>) b(%b, %s, %zb : tensor<?x40xui8>, tensor<f32>, tensor<ui8>) y(%s, %za : tensor<f32>, tensor<si8>) -> tensor<7x40xsi8>
  return %y : tensor<7x40xsi8>
}
