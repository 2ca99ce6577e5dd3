// RUN: quant-opt %s --qops-roll-run-once-loops --split-input-file | FileCheck %s

// The loops inside the hoisted compute (qops.hoisted_compute, from
// qops-hoist-constant-expressions), nested ones too, are marked not to be
// unrolled; the function's own loops are not.
// CHECK: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[ROLLED:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: func.func @transpose_once
// CHECK: scf.if
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.store
// CHECK-NEXT: } {loop_annotation = #[[ROLLED]]}
// CHECK-NEXT: } {loop_annotation = #[[ROLLED]]}
// CHECK-NEXT: } {qops.hoisted_compute}
// CHECK: scf.for
// CHECK: memref.store
// CHECK-NEXT: }{{$}}
// CHECK-NEXT: return
func.func @transpose_once(%first: i1, %w: memref<4x9xi8>, %packed: memref<9x4xi8>, %y: memref<8xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  scf.if %first {
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %c9 step %c1 {
        %v = memref.load %w[%i, %j] : memref<4x9xi8>
        memref.store %v, %packed[%j, %i] : memref<9x4xi8>
      }
    }
  } {qops.hoisted_compute}
  %zero = arith.constant 0 : i8
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %zero, %y[%i] : memref<8xi8>
  }
  return
}

// -----

// Another scf.if (the guard's wait, or any other) is left alone.
// CHECK-LABEL: func.func @other_if
// CHECK-NOT: loop_annotation
func.func @other_if(%c: i1, %y: memref<8xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i8
  scf.if %c {
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %zero, %y[%i] : memref<8xi8>
    }
  } {qops.hoisted_wait}
  return
}

// -----

// A function every use of which is inside the hoisted compute (a nest
// qops-share-loop-nests made of two layers' packings) runs once too: its
// loops are marked. One that is also called outside is not.
// CHECK: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[ROLLED:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: func.func private @shared_packing
// CHECK: memref.store
// CHECK-NEXT: } {loop_annotation = #[[ROLLED]]}
// CHECK-LABEL: func.func private @shared_elsewhere
// CHECK-NOT: loop_annotation
// CHECK-LABEL: func.func @two_layers
func.func private @shared_packing(%w: memref<8xi8>, %p: memref<8xi8>) attributes {no_inline} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %w[%i] : memref<8xi8>
    memref.store %v, %p[%i] : memref<8xi8>
  }
  return
}
func.func private @shared_elsewhere(%y: memref<8xi8>) attributes {no_inline} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i8
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %zero, %y[%i] : memref<8xi8>
  }
  return
}
func.func @two_layers(%first: i1, %w0: memref<8xi8>, %w1: memref<8xi8>, %p0: memref<8xi8>, %p1: memref<8xi8>, %y: memref<8xi8>) {
  scf.if %first {
    func.call @shared_packing(%w0, %p0) : (memref<8xi8>, memref<8xi8>) -> ()
    func.call @shared_packing(%w1, %p1) : (memref<8xi8>, memref<8xi8>) -> ()
    func.call @shared_elsewhere(%p0) : (memref<8xi8>) -> ()
  } {qops.hoisted_compute}
  func.call @shared_elsewhere(%y) : (memref<8xi8>) -> ()
  return
}

// -----

// A function qops-const-eval{at-link} made of a hoisted compute (marked
// qops.hoisted_compute itself) runs once: its loops too.
// CHECK: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[ROLLED:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: func.func @__qops_const_eval_0
// CHECK: scf.for
// CHECK: memref.store
// CHECK-NEXT: } {loop_annotation = #[[ROLLED]]}
// CHECK-NEXT: return
memref.global "private" @__qops_hoisted_w : memref<9xi8> = uninitialized
func.func @__qops_const_eval_0() attributes {qops.hoisted_compute} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %zero = arith.constant 0 : i8
  %g = memref.get_global @__qops_hoisted_w : memref<9xi8>
  scf.for %i = %c0 to %c9 step %c1 {
    memref.store %zero, %g[%i] : memref<9xi8>
  }
  return
}
