// RUN: quant-opt %s --qops-kernels-apart --split-input-file | FileCheck %s
// Without threads, nothing moves:
// RUN: quant-opt %s --qops-kernels-apart --split-input-file --mlir-disable-threading | FileCheck %s --check-prefix=SERIAL

// The kernel nest of a one-layer model: a public function in the
// nested module @kernels (without a JIT's handoff the module is nested, to
// be read), taking the tensors the nest reads and making its result from
// the tensor.empty it copies in; the function calls it through a private
// declaration whose tensors are only read and whose results are buffers
// it allocates (qops.fresh_results).
// CHECK-LABEL: func.func @one_kernel
// CHECK-SAME: (%[[A:[^:]*]]: tensor<4x16xi32>, %[[B:[^:]*]]: tensor<16xi32>)
// CHECK-NOT: scf.forall
// CHECK: %[[Y:.*]] = call @one_kernel_kernel(%[[A]], %[[B]]) : (tensor<4x16xi32>, tensor<16xi32>) -> tensor<4x16xi32>
// CHECK-NEXT: return %[[Y]]
// CHECK: func.func private @one_kernel_kernel(tensor<4x16xi32> {bufferization.access = "read"}, tensor<16xi32> {bufferization.access = "read"}) -> tensor<4x16xi32> attributes {qops.fresh_results}
// CHECK: module @kernels
// CHECK: func.func @one_kernel_kernel(%[[KA:[^:]*]]: tensor<4x16xi32> {bufferization.writable = false}, %[[KB:[^:]*]]: tensor<16xi32> {bufferization.writable = false}) -> tensor<4x16xi32>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4x16xi32>
// CHECK: scf.forall {{.*}} shared_outs(%{{.*}} = %[[EMPTY]])
// CHECK: tensor.extract_slice %[[KA]]
// CHECK: vector.transfer_read %[[KB]]
// CHECK: qkernel.dot_u8s8_quads
// CHECK: return
// SERIAL-LABEL: func.func @one_kernel
// SERIAL: scf.forall
// SERIAL-NOT: module @kernels
func.func @one_kernel(%a: tensor<4x16xi32>, %b: tensor<16xi32>) -> tensor<4x16xi32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %init = tensor.empty() : tensor<4x16xi32>
  %y = scf.forall (%i) in (4) shared_outs(%out = %init) -> (tensor<4x16xi32>) {
    %row = tensor.extract_slice %a[%i, 0] [1, 16] [1, 1] : tensor<4x16xi32> to tensor<16xi32>
    %va = vector.transfer_read %row[%c0], %zero {in_bounds = [true]} : tensor<16xi32>, vector<16xi32>
    %vb = vector.transfer_read %b[%c0], %zero {in_bounds = [true]} : tensor<16xi32>, vector<16xi32>
    %acc = arith.constant dense<0> : vector<16xi32>
    %d = qkernel.dot_u8s8_quads %acc, %va, %vb : vector<16xi32>
    %slice = tensor.extract_slice %out[%i, 0] [1, 16] [1, 1] : tensor<4x16xi32> to tensor<16xi32>
    %w = vector.transfer_write %d, %slice[%c0] {in_bounds = [true]} : vector<16xi32>, tensor<16xi32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %w into %out[%i, 0] [1, 16] [1, 1] : tensor<16xi32> into tensor<4x16xi32>
    }
  }
  return %y : tensor<4x16xi32>
}

// -----

// A loop without kernel ops stays.
// CHECK-LABEL: func.func @no_kernel
// CHECK: scf.forall
// CHECK-NOT: call
// CHECK-NOT: module @kernels
func.func @no_kernel(%a: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %init = tensor.empty() : tensor<4x16xi32>
  %y = scf.forall (%i) in (4) shared_outs(%out = %init) -> (tensor<4x16xi32>) {
    %row = tensor.extract_slice %a[%i, 0] [1, 16] [1, 1] : tensor<4x16xi32> to tensor<1x16xi32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %row into %out[%i, 0] [1, 16] [1, 1] : tensor<1x16xi32> into tensor<4x16xi32>
    }
  }
  return %y : tensor<4x16xi32>
}

// -----

// Two layers of the same shape: their nests are the same code, one
// function apart that both call.
// CHECK-LABEL: func.func @two_layers
// CHECK-SAME: (%[[X:[^:]*]]: vector<16xi32>, %[[Y:[^:]*]]: vector<16xi32>)
// CHECK-NOT: scf.for
// CHECK: call @two_layers_kernel(%[[X]], %[[Y]])
// CHECK-NEXT: call @two_layers_kernel(%[[Y]], %[[X]])
// CHECK: func.func private @two_layers_kernel(vector<16xi32>, vector<16xi32>) -> vector<16xi32>
// CHECK: module @kernels
// CHECK: func.func @two_layers_kernel(%[[A:[^:]*]]: vector<16xi32>, %[[B:[^:]*]]: vector<16xi32>) -> vector<16xi32>
// CHECK: scf.for
// CHECK: qkernel.dot_u8s8_quads %{{.*}}, %[[A]], %[[B]]
// CHECK-NOT: func.func
func.func @two_layers(%va: vector<16xi32>, %vb: vector<16xi32>) -> (vector<16xi32>, vector<16xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %acc = arith.constant dense<0> : vector<16xi32>
  %r0 = scf.for %k = %c0 to %c4 step %c1 iter_args(%x = %acc) -> (vector<16xi32>) {
    %d = qkernel.dot_u8s8_quads %x, %va, %vb : vector<16xi32>
    scf.yield %d : vector<16xi32>
  }
  %r1 = scf.for %k = %c0 to %c4 step %c1 iter_args(%x = %acc) -> (vector<16xi32>) {
    %d = qkernel.dot_u8s8_quads %x, %vb, %va : vector<16xi32>
    scf.yield %d : vector<16xi32>
  }
  return %r0, %r1 : vector<16xi32>, vector<16xi32>
}

// -----

// Three different kernels (three depths of k): they stay, their module
// would be compiled in one part beside the rest's.
// CHECK-LABEL: func.func @three_kernels
// CHECK-COUNT-3: qkernel.dot_u8s8_quads
// CHECK-NOT: module @kernels
func.func @three_kernels(%va: vector<16xi32>, %vb: vector<16xi32>) -> (vector<16xi32>, vector<16xi32>, vector<16xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %acc = arith.constant dense<0> : vector<16xi32>
  %r0 = scf.for %k = %c0 to %c4 step %c1 iter_args(%x = %acc) -> (vector<16xi32>) {
    %d = qkernel.dot_u8s8_quads %x, %va, %vb : vector<16xi32>
    scf.yield %d : vector<16xi32>
  }
  %r1 = scf.for %k = %c0 to %c5 step %c1 iter_args(%x = %acc) -> (vector<16xi32>) {
    %d = qkernel.dot_u8s8_quads %x, %va, %vb : vector<16xi32>
    scf.yield %d : vector<16xi32>
  }
  %r2 = scf.for %k = %c0 to %c6 step %c1 iter_args(%x = %acc) -> (vector<16xi32>) {
    %d = qkernel.dot_u8s8_quads %x, %va, %vb : vector<16xi32>
    scf.yield %d : vector<16xi32>
  }
  return %r0, %r1, %r2 : vector<16xi32>, vector<16xi32>, vector<16xi32>
}

// -----

// A nest that writes a tensor from above (its own init here) goes apart
// too: the kernel's argument is not writable, so bufferization gives the
// nest a copy to write, and the caller's tensor is only read, as its
// declaration says.
// CHECK-LABEL: func.func @writes_argument
// CHECK: call @writes_argument_kernel
// CHECK: func.func private @writes_argument_kernel(tensor<4x16xi32> {bufferization.access = "read"}, tensor<16xi32> {bufferization.access = "read"})
// CHECK: module @kernels
// CHECK: func.func @writes_argument_kernel(%{{.*}}: tensor<4x16xi32> {bufferization.writable = false}, %{{.*}}: tensor<16xi32> {bufferization.writable = false})
// CHECK: scf.forall
func.func @writes_argument(%a: tensor<4x16xi32>, %b: tensor<16xi32>) -> tensor<4x16xi32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %y = scf.forall (%i) in (4) shared_outs(%out = %a) -> (tensor<4x16xi32>) {
    %vb = vector.transfer_read %b[%c0], %zero {in_bounds = [true]} : tensor<16xi32>, vector<16xi32>
    %acc = arith.constant dense<0> : vector<16xi32>
    %d = qkernel.dot_u8s8_quads %acc, %vb, %vb : vector<16xi32>
    %slice = tensor.extract_slice %out[%i, 0] [1, 16] [1, 1] : tensor<4x16xi32> to tensor<16xi32>
    %w = vector.transfer_write %d, %slice[%c0] {in_bounds = [true]} : vector<16xi32>, tensor<16xi32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %w into %out[%i, 0] [1, 16] [1, 1] : tensor<16xi32> into tensor<4x16xi32>
    }
  }
  return %y : tensor<4x16xi32>
}
