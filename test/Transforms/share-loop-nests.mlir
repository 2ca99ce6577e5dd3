// RUN: quant-opt %s --qops-share-loop-nests --split-input-file | FileCheck %s
// The printing options of the command line do not decide what is the same:
// RUN: quant-opt %s --qops-share-loop-nests --split-input-file --mlir-elide-elementsattrs-if-larger=2 --mlir-print-debuginfo | FileCheck %s --check-prefix=FLAGS

// Two layers of the same shape: one private function (internal, not
// inlined back by LLVM) holds the nest, each layer calls it with its own
// buffers; the constants it uses are copied in.
// CHECK-LABEL: func.func @two_layers
// CHECK-SAME: (%[[X0:[^:]*]]: memref<64xf32>, %[[Y0:[^:]*]]: memref<64xf32>, %[[X1:[^:]*]]: memref<64xf32>, %[[Y1:[^:]*]]: memref<64xf32>)
// CHECK-NOT: scf.for
// CHECK: call @two_layers_nest_0(%[[X0]], %[[Y0]]) : (memref<64xf32>, memref<64xf32>) -> ()
// CHECK-NEXT: call @two_layers_nest_0(%[[X1]], %[[Y1]]) : (memref<64xf32>, memref<64xf32>) -> ()
// CHECK-NEXT: return
// CHECK: func.func private @two_layers_nest_0(%[[X:[^:]*]]: memref<64xf32>, %[[Y:[^:]*]]: memref<64xf32>)
// CHECK-SAME: llvm.linkage = #llvm.linkage<internal>
// CHECK-SAME: passthrough = ["noinline"]
// CHECK-DAG: arith.constant 2.000000e+00 : f32
// CHECK-DAG: arith.constant 0 : index
// CHECK: scf.for
// CHECK: memref.load %[[X]]
// CHECK: memref.store %{{.*}}, %[[Y]]
// CHECK: return
// CHECK-NOT: func.func
func.func @two_layers(%x0: memref<64xf32>, %y0: memref<64xf32>,
                      %x1: memref<64xf32>, %y1: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %x0[%i] : memref<64xf32>
    %b = arith.mulf %a, %two : f32
    %c = arith.addf %b, %a : f32
    %d = arith.mulf %c, %c : f32
    %e = arith.subf %d, %a : f32
    memref.store %e, %y0[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %x1[%i] : memref<64xf32>
    %b = arith.mulf %a, %two : f32
    %c = arith.addf %b, %a : f32
    %d = arith.mulf %c, %c : f32
    %e = arith.subf %d, %a : f32
    memref.store %e, %y1[%i] : memref<64xf32>
  }
  return
}

// -----

// The same nest but for one constant: different code, both stay in place.
// CHECK-LABEL: func.func @different_constants
// CHECK: scf.for
// CHECK: arith.mulf %{{.*}}, %[[TWO:.*]] : f32
// CHECK: scf.for
// CHECK: arith.mulf %{{.*}}, %[[THREE:.*]] : f32
// CHECK-NOT: call
// CHECK-NOT: func.func
func.func @different_constants(%x0: memref<64xf32>, %y0: memref<64xf32>,
                               %x1: memref<64xf32>, %y1: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %x0[%i] : memref<64xf32>
    %b = arith.mulf %a, %two : f32
    %c = arith.addf %b, %a : f32
    %d = arith.mulf %c, %c : f32
    %e = arith.subf %d, %a : f32
    memref.store %e, %y0[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %x1[%i] : memref<64xf32>
    %b = arith.mulf %a, %three : f32
    %c = arith.addf %b, %a : f32
    %d = arith.mulf %c, %c : f32
    %e = arith.subf %d, %a : f32
    memref.store %e, %y1[%i] : memref<64xf32>
  }
  return
}

// -----

// The same ops, attributes and types, but one operand differs (c * c
// against c * a): the same structural hash, different code; both stay.
// CHECK-LABEL: func.func @different_operands
// CHECK: scf.for
// CHECK: arith.mulf %[[C0:.*]], %[[C0]] : f32
// CHECK: scf.for
// CHECK: arith.mulf %[[C1:.*]], %[[A1:.*]] : f32
// CHECK-NOT: call
// CHECK-NOT: func.func
func.func @different_operands(%x0: memref<64xf32>, %y0: memref<64xf32>,
                              %x1: memref<64xf32>, %y1: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %x0[%i] : memref<64xf32>
    %b = arith.mulf %a, %two : f32
    %c = arith.addf %b, %a : f32
    %d = arith.mulf %c, %c : f32
    %e = arith.subf %d, %a : f32
    memref.store %e, %y0[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %x1[%i] : memref<64xf32>
    %b = arith.mulf %a, %two : f32
    %c = arith.addf %b, %a : f32
    %d = arith.mulf %c, %a : f32
    %e = arith.subf %d, %a : f32
    memref.store %e, %y1[%i] : memref<64xf32>
  }
  return
}

// -----

// Buffers of different shapes: different types, different code.
// CHECK-LABEL: func.func @different_shapes
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: call
// CHECK-NOT: func.func
func.func @different_shapes(%x0: memref<64xf32>, %y0: memref<64xf32>,
                            %x1: memref<128xf32>, %y1: memref<128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %x0[%i] : memref<64xf32>
    %b = arith.mulf %a, %two : f32
    %c = arith.addf %b, %a : f32
    %d = arith.mulf %c, %c : f32
    %e = arith.subf %d, %a : f32
    memref.store %e, %y0[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %x1[%i] : memref<128xf32>
    %b = arith.mulf %a, %two : f32
    %c = arith.addf %b, %a : f32
    %d = arith.mulf %c, %c : f32
    %e = arith.subf %d, %a : f32
    memref.store %e, %y1[%i] : memref<128xf32>
  }
  return
}

// -----

// A loop's results are the function's; the views of the buffers are copied
// in, so that each call passes the buffer it views.
// CHECK-LABEL: func.func @views_and_results
// CHECK-SAME: (%[[X0:[^:]*]]: memref<2x64xf32>, %[[X1:[^:]*]]: memref<2x64xf32>)
// CHECK: %[[S0:.*]] = call @views_and_results_nest_0(%[[X0]]) : (memref<2x64xf32>) -> f32
// CHECK: %[[S1:.*]] = call @views_and_results_nest_0(%[[X1]]) : (memref<2x64xf32>) -> f32
// CHECK: arith.addf %[[S0]], %[[S1]]
// CHECK: func.func private @views_and_results_nest_0(%[[X:[^:]*]]: memref<2x64xf32>) -> f32
// CHECK: %[[ROW:.*]] = memref.subview %[[X]][1, 0] [1, 64] [1, 1]
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args
// CHECK: memref.load %[[ROW]]
// CHECK: return %[[SUM]] : f32
func.func @views_and_results(%x0: memref<2x64xf32>, %x1: memref<2x64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %row0 = memref.subview %x0[1, 0] [1, 64] [1, 1] : memref<2x64xf32> to memref<64xf32, strided<[1], offset: 64>>
  %row1 = memref.subview %x1[1, 0] [1, 64] [1, 1] : memref<2x64xf32> to memref<64xf32, strided<[1], offset: 64>>
  %s0 = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> f32 {
    %a = memref.load %row0[%i] : memref<64xf32, strided<[1], offset: 64>>
    %b = arith.mulf %a, %a : f32
    %c = arith.addf %acc, %b : f32
    %d = arith.addf %c, %a : f32
    %e = arith.mulf %d, %d : f32
    %f = arith.subf %e, %a : f32
    scf.yield %f : f32
  }
  %s1 = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> f32 {
    %a = memref.load %row1[%i] : memref<64xf32, strided<[1], offset: 64>>
    %b = arith.mulf %a, %a : f32
    %c = arith.addf %acc, %b : f32
    %d = arith.addf %c, %a : f32
    %e = arith.mulf %d, %d : f32
    %f = arith.subf %e, %a : f32
    scf.yield %f : f32
  }
  %s = arith.addf %s0, %s1 : f32
  return %s : f32
}

// -----

// Threaded nests (scf.forall) and a nest in another function: the same code
// is one function for the module. A run-time size is an argument.
// CHECK-LABEL: func.func @first
// CHECK-SAME: (%[[X:[^:]*]]: memref<?xf32>, %[[N:[^:]*]]: index)
// CHECK: call @first_nest_0(%[[N]], %[[X]]) : (index, memref<?xf32>) -> ()
// CHECK-LABEL: func.func private @first_nest_0
// CHECK: scf.forall
// CHECK-LABEL: func.func @second
// CHECK: call @first_nest_0
func.func @first(%x: memref<?xf32>, %n: index) {
  %two = arith.constant 2.0 : f32
  scf.forall (%i) in (%n) {
    %a = memref.load %x[%i] : memref<?xf32>
    %b = arith.mulf %a, %two : f32
    %c = arith.addf %b, %a : f32
    %d = arith.mulf %c, %c : f32
    %e = arith.subf %d, %a : f32
    memref.store %e, %x[%i] : memref<?xf32>
  }
  return
}
func.func @second(%x: memref<?xf32>, %n: index) {
  %two = arith.constant 2.0 : f32
  scf.forall (%i) in (%n) {
    %a = memref.load %x[%i] : memref<?xf32>
    %b = arith.mulf %a, %two : f32
    %c = arith.addf %b, %a : f32
    %d = arith.mulf %c, %c : f32
    %e = arith.subf %d, %a : f32
    memref.store %e, %x[%i] : memref<?xf32>
  }
  return
}

// -----

// A nest without a twin stays where it is; so do nests of fewer than eight
// ops, twins or not (a call would cost more than the copy).
// CHECK-LABEL: func.func @alone_and_small
// CHECK: scf.for
// CHECK: arith.addf
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: call
// CHECK-NOT: func.func
func.func @alone_and_small(%x: memref<64xf32>, %y: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %x[%i] : memref<64xf32>
    %b = arith.addf %a, %a : f32
    %c = arith.addf %b, %a : f32
    %d = arith.mulf %c, %c : f32
    %e = arith.subf %d, %a : f32
    memref.store %e, %y[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %x[%i] : memref<64xf32>
    memref.store %a, %y[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %x[%i] : memref<64xf32>
    memref.store %a, %y[%i] : memref<64xf32>
  }
  return
}

// -----

// A nest that uses another's result: the second pair's calls take the first
// pair's call results (the loops they replaced are gone).
// CHECK-LABEL: func.func @chained
// CHECK: %[[S0:.*]] = call @chained_nest_0(%{{.*}}) : (memref<64xf32>) -> f32
// CHECK: %[[S1:.*]] = call @chained_nest_0(%{{.*}}) : (memref<64xf32>) -> f32
// CHECK: call @chained_nest_1(%{{.*}}, %[[S0]]) : (memref<64xf32>, f32) -> ()
// CHECK: call @chained_nest_1(%{{.*}}, %[[S1]]) : (memref<64xf32>, f32) -> ()
func.func @chained(%x0: memref<64xf32>, %x1: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %s0 = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> f32 {
    %a = memref.load %x0[%i] : memref<64xf32>
    %b = arith.mulf %a, %a : f32
    %c = arith.addf %acc, %b : f32
    %d = arith.addf %c, %a : f32
    %e = arith.mulf %d, %d : f32
    %f = arith.subf %e, %a : f32
    scf.yield %f : f32
  }
  %s1 = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> f32 {
    %a = memref.load %x1[%i] : memref<64xf32>
    %b = arith.mulf %a, %a : f32
    %c = arith.addf %acc, %b : f32
    %d = arith.addf %c, %a : f32
    %e = arith.mulf %d, %d : f32
    %f = arith.subf %e, %a : f32
    scf.yield %f : f32
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %x0[%i] : memref<64xf32>
    %b = arith.divf %a, %s0 : f32
    %c = arith.addf %b, %a : f32
    %d = arith.mulf %c, %c : f32
    %e = arith.subf %d, %a : f32
    memref.store %e, %x0[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %x1[%i] : memref<64xf32>
    %b = arith.divf %a, %s1 : f32
    %c = arith.addf %b, %a : f32
    %d = arith.mulf %c, %c : f32
    %e = arith.subf %d, %a : f32
    memref.store %e, %x1[%i] : memref<64xf32>
  }
  return
}

// -----

// Nests that differ only in a vector constant stay apart (attributes are
// compared in full, whatever the command line elides in what it prints);
// nests that differ only in their locations are shared (locations are
// ignored, even when the command line prints them).
// FLAGS-LABEL: func.func @printing_options
// FLAGS: scf.for
// FLAGS: scf.for
// FLAGS: call @printing_options_nest_0
// FLAGS: call @printing_options_nest_0
// FLAGS: func.func private @printing_options_nest_0
func.func @printing_options(%x: memref<64xvector<4xf32>>, %y: memref<64xvector<4xf32>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %k0 = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  %k1 = arith.constant dense<[1.0, 2.0, 3.0, 5.0]> : vector<4xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %x[%i] : memref<64xvector<4xf32>>
    %b = arith.mulf %a, %k0 : vector<4xf32>
    %c = arith.addf %b, %a : vector<4xf32>
    %d = arith.mulf %c, %c : vector<4xf32>
    %e = arith.subf %d, %a : vector<4xf32>
    memref.store %e, %y[%i] : memref<64xvector<4xf32>>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %x[%i] : memref<64xvector<4xf32>>
    %b = arith.mulf %a, %k1 : vector<4xf32>
    %c = arith.addf %b, %a : vector<4xf32>
    %d = arith.mulf %c, %c : vector<4xf32>
    %e = arith.subf %d, %a : vector<4xf32>
    memref.store %e, %y[%i] : memref<64xvector<4xf32>>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %x[%i] : memref<64xvector<4xf32>> loc("first")
    %b = arith.addf %a, %a : vector<4xf32>
    %c = arith.addf %b, %a : vector<4xf32>
    %d = arith.mulf %c, %c : vector<4xf32>
    %e = arith.subf %d, %a : vector<4xf32>
    memref.store %e, %x[%i] : memref<64xvector<4xf32>>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %y[%i] : memref<64xvector<4xf32>> loc("second")
    %b = arith.addf %a, %a : vector<4xf32>
    %c = arith.addf %b, %a : vector<4xf32>
    %d = arith.mulf %c, %c : vector<4xf32>
    %e = arith.subf %d, %a : vector<4xf32>
    memref.store %e, %y[%i] : memref<64xvector<4xf32>>
  }
  return
}
