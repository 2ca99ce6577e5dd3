// RUN: quant-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(qops-nontemporal-stores{min-bytes=1024 target-triple=x86_64-unknown-linux-gnu}))' | FileCheck %s
// RUN: quant-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(qops-nontemporal-stores{target-triple=x86_64-unknown-linux-gnu}))' | FileCheck %s --check-prefix=DEF
// RUN: quant-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(qops-nontemporal-stores{min-bytes=1024 target-triple=aarch64-unknown-linux-gnu}))' | FileCheck %s --check-prefix=ARM

// The fence: SFENCE on x86, a DMB (llvm.fence seq_cst) elsewhere.
// ARM-LABEL: func.func @rows
// ARM: vector.store {{.*}} nontemporal = true
// ARM: llvm.fence seq_cst
// ARM-NOT: sfence

// A returned result: the vector writes become aligned non-temporal stores
// (row offset i * 4096 and column offset a multiple of 32 f32 elements:
// 128-byte multiples, so the allocation's 64), one fence after the loops.
// CHECK-LABEL: func.func @rows
// CHECK: %[[ALLOC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64x4096xf32>
// CHECK: scf.forall
// CHECK: scf.for
// CHECK-NOT: vector.transfer_write
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<1x32xf32, strided<[4096, 1], offset: ?>>, vector<32xf32>
// CHECK: }
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: llvm.call_intrinsic "llvm.x86.sse.sfence"() : () -> ()
// CHECK-NEXT: return %[[ALLOC]]
func.func @rows(%v: vector<32xf32>) -> memref<64x4096xf32> {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c4096 = arith.constant 4096 : index
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<64x4096xf32>
  scf.forall (%i) in (64) {
    %row = memref.subview %alloc[%i, 0] [1, 4096] [1, 1] : memref<64x4096xf32> to memref<1x4096xf32, strided<[4096, 1], offset: ?>>
    scf.for %j = %c0 to %c4096 step %c32 {
      %tile = memref.subview %row[0, %j] [1, 32] [1, 1] : memref<1x4096xf32, strided<[4096, 1], offset: ?>> to memref<1x32xf32, strided<[4096, 1], offset: ?>>
      vector.transfer_write %v, %tile[%c0, %c0] {in_bounds = [true]} : vector<32xf32>, memref<1x32xf32, strided<[4096, 1], offset: ?>>
    }
  }
  return %alloc : memref<64x4096xf32>
}

// -----

// An allocation that asks for less than 64 bytes is given 64; i8 tiles of
// 32 at offsets that are multiples of 32 are 32-byte aligned.
// CHECK-LABEL: func.func @raises_alignment
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<4096xi8>
// CHECK: vector.store {{.*}} {alignment = 32 : i64, nontemporal = true}
func.func @raises_alignment(%v: vector<32xi8>) -> memref<4096xi8> {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c4096 = arith.constant 4096 : index
  %alloc = memref.alloc() {alignment = 16 : i64} : memref<4096xi8>
  scf.for %j = %c0 to %c4096 step %c32 {
    %tile = memref.subview %alloc[%j] [32] [1] : memref<4096xi8> to memref<32xi8, strided<[1], offset: ?>>
    vector.transfer_write %v, %tile[%c0] {in_bounds = [true]} : vector<32xi8>, memref<32xi8, strided<[1], offset: ?>>
  }
  return %alloc : memref<4096xi8>
}

// -----

// Rows of 100 f32: a row starts at a multiple of 4 elements (16 bytes),
// which bounds the alignment though the column offset is a multiple of 32.
// CHECK-LABEL: func.func @odd_rows
// CHECK: vector.store {{.*}} {alignment = 16 : i64, nontemporal = true}
func.func @odd_rows(%v: vector<32xf32>) -> memref<8x100xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<8x100xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c64 step %c32 {
      vector.transfer_write %v, %alloc[%i, %j] {in_bounds = [true]} : vector<32xf32>, memref<8x100xf32>
    }
  }
  return %alloc : memref<8x100xf32>
}

// -----

// An index the pass knows nothing of: the element's own alignment.
// CHECK-LABEL: func.func @unknown_index
// CHECK: vector.store {{.*}} {alignment = 4 : i64, nontemporal = true}
// CHECK-NEXT: llvm.call_intrinsic "llvm.x86.sse.sfence"() : () -> ()
func.func @unknown_index(%v: vector<16xf32>, %k: index) -> memref<1024xf32> {
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
  vector.transfer_write %v, %alloc[%k] {in_bounds = [true]} : vector<16xf32>, memref<1024xf32>
  return %alloc : memref<1024xf32>
}

// -----

// Offsets through affine.apply (d0 * 16 elements of f32: 64 bytes) and
// index arithmetic (k * 8 + 4 elements: 16 bytes).
// CHECK-LABEL: func.func @index_arithmetic
// CHECK: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true}
// CHECK: vector.store {{.*}} {alignment = 16 : i64, nontemporal = true}
func.func @index_arithmetic(%v: vector<16xf32>) -> memref<1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c60 = arith.constant 60 : index
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
  scf.for %i = %c0 to %c60 step %c1 {
    %off = affine.apply affine_map<(d0) -> (d0 * 16)>(%i)
    vector.transfer_write %v, %alloc[%off] {in_bounds = [true]} : vector<16xf32>, memref<1024xf32>
    %k8 = arith.muli %i, %c8 : index
    %k = arith.addi %k8, %c4 : index
    vector.transfer_write %v, %alloc[%k] {in_bounds = [true]} : vector<16xf32>, memref<1024xf32>
  }
  return %alloc : memref<1024xf32>
}

// -----

// Element sizes that are not powers of two count exactly (16 x i24 = 48
// bytes: 16-byte aligned); an allocation whose layout has an offset of 5
// elements starts 4-byte aligned.
// CHECK-LABEL: func.func @element_sizes
// CHECK: vector.store {{.*}} {alignment = 16 : i64, nontemporal = true} : memref<4096xi24>
// CHECK: vector.store {{.*}} {alignment = 4 : i64, nontemporal = true} : memref<4096xf32, strided<[1], offset: 5>>
func.func @element_sizes(%v: vector<16xi24>, %w: vector<16xf32>)
    -> (memref<4096xi24>, memref<4096xf32, strided<[1], offset: 5>>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c4096 = arith.constant 4096 : index
  %a = memref.alloc() {alignment = 64 : i64} : memref<4096xi24>
  %b = memref.alloc() {alignment = 64 : i64} : memref<4096xf32, strided<[1], offset: 5>>
  scf.for %j = %c0 to %c4096 step %c16 {
    vector.transfer_write %v, %a[%j] {in_bounds = [true]} : vector<16xi24>, memref<4096xi24>
    vector.transfer_write %w, %b[%j] {in_bounds = [true]} : vector<16xf32>, memref<4096xf32, strided<[1], offset: 5>>
  }
  return %a, %b : memref<4096xi24>, memref<4096xf32, strided<[1], offset: 5>>
}

// -----

// Returned through a reshape (blocked Q/DQ write [rows, blocks, block]).
// CHECK-LABEL: func.func @reshaped_result
// CHECK: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true}
func.func @reshaped_result(%v: vector<32xf32>) -> memref<16x128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<16x4x32xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    vector.transfer_write %v, %alloc[%i, %c1, %c0] {in_bounds = [true]} : vector<32xf32>, memref<16x4x32xf32>
  }
  %flat = memref.collapse_shape %alloc [[0], [1, 2]] : memref<16x4x32xf32> into memref<16x128xf32>
  return %flat : memref<16x128xf32>
}

// -----

// Left alone: a buffer the function does not return (it reads it back), a
// result below min-bytes, a write that may be out of bounds, a 2-D vector,
// a column (innermost stride 4096), sub-byte elements.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: vector.store
// CHECK-NOT: nontemporal
// CHECK-NOT: sfence
// CHECK: return
func.func @left_alone(%v: vector<32xf32>, %w: vector<2x32xf32>, %k: index, %nibbles: vector<32xi4>)
    -> (memref<1024xf32>, memref<8xf32>, memref<1024xf32>, memref<64x64xf32>, memref<64x4096xf32>, memref<8192xi4>) {
  %c0 = arith.constant 0 : index
  %packed = memref.alloc() {alignment = 64 : i64} : memref<8192xi4>
  vector.transfer_write %nibbles, %packed[%c0] {in_bounds = [true]} : vector<32xi4>, memref<8192xi4>
  %scratch = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
  vector.transfer_write %v, %scratch[%c0] {in_bounds = [true]} : vector<32xf32>, memref<1024xf32>
  %copy = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
  memref.copy %scratch, %copy : memref<1024xf32> to memref<1024xf32>
  %small = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
  %v8 = vector.extract_strided_slice %v {offsets = [0], sizes = [8], strides = [1]} : vector<32xf32> to vector<8xf32>
  vector.transfer_write %v8, %small[%c0] {in_bounds = [true]} : vector<8xf32>, memref<8xf32>
  %edge = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
  vector.transfer_write %v, %edge[%k] : vector<32xf32>, memref<1024xf32>
  %square = memref.alloc() {alignment = 64 : i64} : memref<64x64xf32>
  vector.transfer_write %w, %square[%c0, %c0] {in_bounds = [true, true]} : vector<2x32xf32>, memref<64x64xf32>
  %wide = memref.alloc() {alignment = 64 : i64} : memref<64x4096xf32>
  %column = memref.subview %wide[0, 5] [64, 1] [1, 1] : memref<64x4096xf32> to memref<64xf32, strided<[4096], offset: 5>>
  %c = arith.constant dense<1.0> : vector<64xf32>
  vector.transfer_write %c, %column[%c0] {in_bounds = [true]} : vector<64xf32>, memref<64xf32, strided<[4096], offset: 5>>
  memref.dealloc %scratch : memref<1024xf32>
  return %copy, %small, %edge, %square, %wide, %packed : memref<1024xf32>, memref<8xf32>, memref<1024xf32>, memref<64x64xf32>, memref<64x4096xf32>, memref<8192xi4>
}

// -----

// A dynamic shape (an ONNX batch dim): the size is 16384 bytes per row, so
// the nest is versioned on %n * 16384 >= min-bytes; the streaming copy
// ends with the fence, the other keeps its writes.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK-SAME: (%[[V:.*]]: vector<32xf32>, %[[N:.*]]: index)
// CHECK: %[[ALLOC:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x4096xf32>
// CHECK-DAG: %[[MIN:.*]] = arith.constant 1024 : index
// CHECK-DAG: %[[ROW:.*]] = arith.constant 16384 : index
// CHECK: %[[BYTES:.*]] = arith.muli %[[ROW]], %[[N]] : index
// CHECK: %[[LARGE:.*]] = arith.cmpi uge, %[[BYTES]], %[[MIN]] : index
// CHECK: scf.if %[[LARGE]] {
// CHECK: scf.forall
// CHECK: scf.for
// CHECK: vector.store %[[V]], %{{.*}} {alignment = 64 : i64, nontemporal = true} : memref<1x32xf32, strided<[4096, 1], offset: ?>>, vector<32xf32>
// CHECK: llvm.call_intrinsic "llvm.x86.sse.sfence"() : () -> ()
// CHECK-NEXT: } else {
// CHECK: scf.forall
// CHECK: scf.for
// CHECK: vector.transfer_write %[[V]], %{{.*}} {in_bounds = [true]} : vector<32xf32>, memref<1x32xf32, strided<[4096, 1], offset: ?>>
// CHECK-NOT: sfence
// CHECK: return %[[ALLOC]]
// The default min-bytes (8 MiB) in the condition:
// DEF-LABEL: func.func @dynamic_rows
// DEF: arith.constant 8388608 : index
// DEF: scf.if
// DEF: nontemporal = true
// DEF: sfence
// DEF: } else {
// ARM-LABEL: func.func @dynamic_rows
// ARM: scf.if
// ARM: nontemporal = true
// ARM: llvm.fence seq_cst
// ARM-NEXT: } else {
func.func @dynamic_rows(%v: vector<32xf32>, %n: index) -> memref<?x4096xf32> {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c4096 = arith.constant 4096 : index
  %alloc = memref.alloc(%n) {alignment = 64 : i64} : memref<?x4096xf32>
  scf.forall (%i) in (%n) {
    scf.for %j = %c0 to %c4096 step %c32 {
      %tile = memref.subview %alloc[%i, %j] [1, 32] [1, 1] : memref<?x4096xf32> to memref<1x32xf32, strided<[4096, 1], offset: ?>>
      vector.transfer_write %v, %tile[%c0, %c0] {in_bounds = [true]} : vector<32xf32>, memref<1x32xf32, strided<[4096, 1], offset: ?>>
    }
  }
  return %alloc : memref<?x4096xf32>
}

// -----

// Two dynamic results written by one nest: both must be large. A 1-D one
// written at multiples of 32 elements streams with the allocation's
// alignment, a static one of 64 bytes stays below min-bytes.
// CHECK-LABEL: func.func @dynamic_two_results
// CHECK-SAME: (%[[V:.*]]: vector<32xi8>, %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK-DAG: %[[A:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xi8>
// CHECK-DAG: %[[B:.*]] = memref.alloc(%[[M]]) {alignment = 64 : i64} : memref<?x64xi8>
// CHECK-DAG: %[[BYTES_A:.*]] = arith.muli %{{.*}}, %[[N]] : index
// CHECK-DAG: %[[LARGE_A:.*]] = arith.cmpi uge, %[[BYTES_A]], %{{.*}} : index
// CHECK-DAG: %[[BYTES_B:.*]] = arith.muli %{{.*}}, %[[M]] : index
// CHECK-DAG: %[[LARGE_B:.*]] = arith.cmpi uge, %[[BYTES_B]], %{{.*}} : index
// CHECK: %[[BOTH:.*]] = arith.andi
// CHECK: scf.if %[[BOTH]] {
// CHECK-COUNT-2: nontemporal = true
// CHECK: vector.transfer_write %[[V]], %{{.*}} : vector<32xi8>, memref<64xi8>
// CHECK: sfence
// CHECK: } else {
// CHECK-NOT: nontemporal
// CHECK: return
func.func @dynamic_two_results(%v: vector<32xi8>, %n: index, %m: index)
    -> (memref<?xi8>, memref<?x64xi8>, memref<64xi8>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %a = memref.alloc(%n) {alignment = 16 : i64} : memref<?xi8>
  %b = memref.alloc(%m) {alignment = 64 : i64} : memref<?x64xi8>
  %small = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
  scf.for %j = %c0 to %n step %c32 {
    vector.transfer_write %v, %a[%j] {in_bounds = [true]} : vector<32xi8>, memref<?xi8>
    vector.transfer_write %v, %b[%c0, %c32] {in_bounds = [true]} : vector<32xi8>, memref<?x64xi8>
    vector.transfer_write %v, %small[%c0] {in_bounds = [true]} : vector<32xi8>, memref<64xi8>
  }
  return %a, %b, %small : memref<?xi8>, memref<?x64xi8>, memref<64xi8>
}

// -----

// A write that is itself the top-level op is versioned too; the fence ends
// the streaming branch.
// CHECK-LABEL: func.func @dynamic_single_write
// CHECK: scf.if
// CHECK-NEXT: vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<?xf32>, vector<16xf32>
// CHECK-NEXT: llvm.call_intrinsic "llvm.x86.sse.sfence"() : () -> ()
// CHECK-NEXT: } else {
// CHECK-NEXT: vector.transfer_write %{{.*}} : vector<16xf32>, memref<?xf32>
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: return
func.func @dynamic_single_write(%v: vector<16xf32>, %n: index) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %alloc = memref.alloc(%n) {alignment = 64 : i64} : memref<?xf32>
  vector.transfer_write %v, %alloc[%c0] {in_bounds = [true]} : vector<16xf32>, memref<?xf32>
  return %alloc : memref<?xf32>
}

// -----

// Left alone with a dynamic shape: rows of a dynamic length (no alignment
// known for a row's start), a nest that yields a value, an index that is
// not a known multiple of the vector.
// CHECK-LABEL: func.func @dynamic_left_alone
// CHECK-NOT: scf.if
// CHECK-NOT: nontemporal
// CHECK-NOT: sfence
// CHECK: return
func.func @dynamic_left_alone(%v: vector<32xi8>, %n: index, %m: index, %k: index)
    -> (memref<?x?xi8>, memref<?xi8>, memref<?xi8>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %rows = memref.alloc(%n, %m) {alignment = 64 : i64} : memref<?x?xi8>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %m step %c32 {
      %tile = memref.subview %rows[%i, %j] [1, 32] [1, 1] : memref<?x?xi8> to memref<1x32xi8, strided<[?, 1], offset: ?>>
      vector.transfer_write %v, %tile[%c0, %c0] {in_bounds = [true]} : vector<32xi8>, memref<1x32xi8, strided<[?, 1], offset: ?>>
    }
  }
  %yielding = memref.alloc(%n) {alignment = 64 : i64} : memref<?xi8>
  %count = scf.for %j = %c0 to %n step %c32 iter_args(%acc = %c0) -> (index) {
    vector.transfer_write %v, %yielding[%j] {in_bounds = [true]} : vector<32xi8>, memref<?xi8>
    %next = arith.addi %acc, %c1 : index
    scf.yield %next : index
  }
  %odd = memref.alloc(%n) {alignment = 64 : i64} : memref<?xi8>
  vector.transfer_write %v, %odd[%k] {in_bounds = [true]} : vector<32xi8>, memref<?xi8>
  return %rows, %yielding, %odd, %count : memref<?x?xi8>, memref<?xi8>, memref<?xi8>, index
}

// -----

// A second pass over an input (DynamicQuantizeLinear: min/max over x, then
// quantize x): the nest that reads x again, through another view of it,
// keeps ordinary stores; a result of a single pass over y streams.
// CHECK-LABEL: func.func @second_pass_over_input
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: nontemporal
// CHECK: vector.transfer_write %{{.*}} : vector<32xi8>, memref<64x128xi8>
// CHECK: scf.for
// CHECK: vector.store %{{.*}} {alignment = 64 : i64, nontemporal = true} : memref<64x128xi8>, vector<32xi8>
// CHECK: sfence
// CHECK: return
func.func @second_pass_over_input(%x: memref<64x128xf32>, %y: memref<64x128xf32>, %q: vector<32xi8>)
    -> (memref<64x128xi8>, memref<64x128xi8>, vector<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c8192 = arith.constant 8192 : index
  %pad = arith.constant 0.0 : f32
  %init = arith.constant dense<0.0> : vector<32xf32>
  %flat = memref.collapse_shape %x [[0, 1]] : memref<64x128xf32> into memref<8192xf32>
  %max = scf.for %i = %c0 to %c8192 step %c32 iter_args(%acc = %init) -> (vector<32xf32>) {
    %v = vector.transfer_read %flat[%i], %pad {in_bounds = [true]} : memref<8192xf32>, vector<32xf32>
    %m = arith.maximumf %acc, %v : vector<32xf32>
    scf.yield %m : vector<32xf32>
  }
  %again = memref.alloc() {alignment = 64 : i64} : memref<64x128xi8>
  scf.for %r = %c0 to %c64 step %c1 {
    %row = memref.subview %x[%r, 0] [1, 128] [1, 1] : memref<64x128xf32> to memref<128xf32, strided<[1], offset: ?>>
    %v = vector.transfer_read %row[%c0], %pad {in_bounds = [true]} : memref<128xf32, strided<[1], offset: ?>>, vector<32xf32>
    vector.transfer_write %q, %again[%r, %c0] {in_bounds = [true]} : vector<32xi8>, memref<64x128xi8>
  }
  %once = memref.alloc() {alignment = 64 : i64} : memref<64x128xi8>
  scf.for %r = %c0 to %c64 step %c1 {
    %v = vector.transfer_read %y[%r, %c0], %pad {in_bounds = [true]} : memref<64x128xf32>, vector<32xf32>
    vector.transfer_write %q, %once[%r, %c0] {in_bounds = [true]} : vector<32xi8>, memref<64x128xi8>
  }
  return %again, %once, %max : memref<64x128xi8>, memref<64x128xi8>, vector<32xf32>
}

// -----

// A small buffer read by two nests (a table of scales, below min-bytes) is
// not a second pass over an input: the result of the second nest streams.
// CHECK-LABEL: func.func @small_buffer_read_twice
// CHECK: scf.for
// CHECK: scf.for
// CHECK: vector.store %{{.*}} nontemporal = true
// CHECK: sfence
func.func @small_buffer_read_twice(%scales: memref<32xf32>, %q: vector<32xi8>)
    -> (memref<64x128xi8>, vector<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f32
  %init = arith.constant dense<0.0> : vector<32xf32>
  %sum = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (vector<32xf32>) {
    %v = vector.transfer_read %scales[%c0], %pad {in_bounds = [true]} : memref<32xf32>, vector<32xf32>
    %a = arith.addf %acc, %v : vector<32xf32>
    scf.yield %a : vector<32xf32>
  }
  %y = memref.alloc() {alignment = 64 : i64} : memref<64x128xi8>
  scf.for %r = %c0 to %c64 step %c1 {
    %v = vector.transfer_read %scales[%c0], %pad {in_bounds = [true]} : memref<32xf32>, vector<32xf32>
    vector.transfer_write %q, %y[%r, %c0] {in_bounds = [true]} : vector<32xi8>, memref<64x128xi8>
  }
  return %y, %sum : memref<64x128xi8>, vector<32xf32>
}

// -----

// A declaration has no body: nothing to do.
// CHECK-LABEL: func.func private @declaration
func.func private @declaration(memref<8xf32>) -> memref<8xf32>

// -----

// The default min-bytes is 8 MiB: 2048 x 1024 f32 streams, 2047 rows do not.
// DEF-LABEL: func.func @default_threshold
// DEF: vector.store {{.*}} nontemporal = true
// DEF: sfence
// DEF-LABEL: func.func @below_default_threshold
// DEF-NOT: nontemporal
// DEF: return
func.func @default_threshold(%v: vector<32xf32>) -> memref<2048x1024xf32> {
  %c0 = arith.constant 0 : index
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<2048x1024xf32>
  vector.transfer_write %v, %alloc[%c0, %c0] {in_bounds = [true]} : vector<32xf32>, memref<2048x1024xf32>
  return %alloc : memref<2048x1024xf32>
}
func.func @below_default_threshold(%v: vector<32xf32>) -> memref<2047x1024xf32> {
  %c0 = arith.constant 0 : index
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<2047x1024xf32>
  vector.transfer_write %v, %alloc[%c0, %c0] {in_bounds = [true]} : vector<32xf32>, memref<2047x1024xf32>
  return %alloc : memref<2047x1024xf32>
}
