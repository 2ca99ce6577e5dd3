// RUN: quant-opt %s --qops-split-fresh-result-deallocs --split-input-file | FileCheck %s

// The result of a kernel apart (qops.fresh_results), freed through its base
// buffer beside two allocations and retaining a third: its own dealloc,
// the rest left to upstream's simplification.
// CHECK-LABEL: func.func @split
// CHECK: %[[R:.*]] = call @kernel
// CHECK: %[[BASE:[^,]*]], {{.*}} = memref.extract_strided_metadata %[[R]]
// CHECK: %[[O:.*]] = bufferization.dealloc (%[[A:.*]], %[[B:.*]] : memref<4xi32>, memref<8xi32>) if (%{{.*}}, %{{.*}}) retain (%[[Y:.*]] : memref<4xi8>)
// CHECK: bufferization.dealloc (%[[BASE]] : memref<i32>) if (%{{.*}})
// CHECK-NOT: bufferization.dealloc
// CHECK: return %[[O]]
func.func private @kernel(memref<4xi32>) -> memref<4xi32> attributes {qops.fresh_results}
func.func @split(%c: i1) -> i1 {
  %a = memref.alloc() : memref<4xi32>
  %b = memref.alloc() : memref<8xi32>
  %r = call @kernel(%a) : (memref<4xi32>) -> memref<4xi32>
  %y = memref.alloc() : memref<4xi8>
  %base, %offset, %size, %stride = memref.extract_strided_metadata %r : memref<4xi32> -> memref<i32>, index, index, index
  %o = bufferization.dealloc (%a, %base, %b : memref<4xi32>, memref<i32>, memref<8xi32>) if (%c, %c, %c) retain (%y : memref<4xi8>)
  return %o : i1
}

// -----

// A function argument and a global are other buffers too; a view of the
// result (subview) is the result.
// CHECK-LABEL: func.func @arguments_and_globals
// CHECK: bufferization.dealloc (%{{.*}} : memref<4xi32>) if (%{{.*}}) retain (%{{.*}}, %{{.*}} : memref<4xi32>, memref<2xi32>)
// CHECK: bufferization.dealloc (%{{.*}} : memref<2xi32, strided<[1], offset: 1>>) if (%{{.*}})
memref.global "private" constant @g : memref<2xi32> = dense<1>
func.func private @kernel(memref<4xi32>) -> memref<4xi32> attributes {qops.fresh_results}
func.func @arguments_and_globals(%x: memref<4xi32>, %c: i1) -> (i1, i1) {
  %a = memref.alloc() : memref<4xi32>
  %r = call @kernel(%a) : (memref<4xi32>) -> memref<4xi32>
  %v = memref.subview %r[1] [2] [1] : memref<4xi32> to memref<2xi32, strided<[1], offset: 1>>
  %g = memref.get_global @g : memref<2xi32>
  %o:2 = bufferization.dealloc (%a, %v : memref<4xi32>, memref<2xi32, strided<[1], offset: 1>>) if (%c, %c) retain (%x, %g : memref<4xi32>, memref<2xi32>)
  return %o#0, %o#1 : i1, i1
}

// -----

// The result retained (returned by the caller): it may be what is kept,
// nothing is split.
// CHECK-LABEL: func.func @retained
// CHECK: bufferization.dealloc (%{{.*}}, %{{.*}} : memref<4xi32>, memref<i32>) if (%{{.*}}, %{{.*}}) retain (%{{.*}} : memref<4xi32>)
// CHECK-NOT: bufferization.dealloc
func.func private @kernel(memref<4xi32>) -> memref<4xi32> attributes {qops.fresh_results}
func.func @retained(%c: i1) -> (memref<4xi32>, i1) {
  %a = memref.alloc() : memref<4xi32>
  %r = call @kernel(%a) : (memref<4xi32>) -> memref<4xi32>
  %base, %offset, %size, %stride = memref.extract_strided_metadata %r : memref<4xi32> -> memref<i32>, index, index, index
  %o = bufferization.dealloc (%a, %base : memref<4xi32>, memref<i32>) if (%c, %c) retain (%r : memref<4xi32>)
  return %r, %o : memref<4xi32>, i1
}

// -----

// A callee without qops.fresh_results may return its argument: nothing is
// split.
// CHECK-LABEL: func.func @unknown_callee
// CHECK: bufferization.dealloc (%{{.*}}, %{{.*}} : memref<4xi32>, memref<4xi32>) if (%{{.*}}, %{{.*}}) retain (%{{.*}} : memref<4xi8>)
// CHECK-NOT: bufferization.dealloc
func.func private @callee(memref<4xi32>) -> memref<4xi32>
func.func @unknown_callee(%c: i1) -> i1 {
  %a = memref.alloc() : memref<4xi32>
  %r = call @callee(%a) : (memref<4xi32>) -> memref<4xi32>
  %y = memref.alloc() : memref<4xi8>
  %o = bufferization.dealloc (%a, %r : memref<4xi32>, memref<4xi32>) if (%c, %c) retain (%y : memref<4xi8>)
  return %o : i1
}

// -----

// Another operand of unknown origin (a loop's iteration argument): nothing
// is split.
// CHECK-LABEL: func.func @unknown_origin
// CHECK: scf.for
// CHECK: bufferization.dealloc (%{{.*}}, %{{.*}} : memref<4xi32>, memref<4xi32>) if
// CHECK-NOT: bufferization.dealloc
func.func private @kernel(memref<4xi32>) -> memref<4xi32> attributes {qops.fresh_results}
func.func @unknown_origin(%c: i1, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<4xi32>
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%m = %a) -> (memref<4xi32>) {
    %r = func.call @kernel(%m) : (memref<4xi32>) -> memref<4xi32>
    bufferization.dealloc (%m, %r : memref<4xi32>, memref<4xi32>) if (%c, %c)
    scf.yield %m : memref<4xi32>
  }
  return
}

// -----

// Two results of one call: the callee might return one buffer twice;
// nothing is split.
// CHECK-LABEL: func.func @two_results
// CHECK: bufferization.dealloc (%{{.*}}, %{{.*}} : memref<4xi32>, memref<4xi32>) if (%{{.*}}, %{{.*}}) retain (%{{.*}} : memref<4xi8>)
// CHECK-NOT: bufferization.dealloc
func.func private @pair(memref<4xi32>) -> (memref<4xi32>, memref<4xi32>) attributes {qops.fresh_results}
func.func @two_results(%c: i1) -> i1 {
  %a = memref.alloc() : memref<4xi32>
  %r:2 = call @pair(%a) : (memref<4xi32>) -> (memref<4xi32>, memref<4xi32>)
  %y = memref.alloc() : memref<4xi8>
  %o = bufferization.dealloc (%r#0, %r#1 : memref<4xi32>, memref<4xi32>) if (%c, %c) retain (%y : memref<4xi8>)
  return %o : i1
}

// -----

// A block argument other than the function's (here the fresh result
// itself, passed by cf.br): unknown origin, nothing is split.
// CHECK-LABEL: func.func @block_argument
// CHECK: ^bb1(%{{.*}}: memref<4xi32>):
// CHECK: bufferization.dealloc (%{{.*}}, %{{.*}} : memref<4xi32>, memref<4xi32>) if (%{{.*}}, %{{.*}}) retain (%{{.*}} : memref<4xi32>)
// CHECK-NOT: bufferization.dealloc
func.func private @kernel(memref<4xi32>) -> memref<4xi32> attributes {qops.fresh_results}
func.func @block_argument(%c: i1) -> (memref<4xi32>, i1) {
  %a = memref.alloc() : memref<4xi32>
  %r = call @kernel(%a) : (memref<4xi32>) -> memref<4xi32>
  cf.br ^bb1(%r : memref<4xi32>)
^bb1(%m: memref<4xi32>):
  %o = bufferization.dealloc (%a, %r : memref<4xi32>, memref<4xi32>) if (%c, %c) retain (%m : memref<4xi32>)
  return %m, %o : memref<4xi32>, i1
}
