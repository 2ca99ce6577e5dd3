// RUN: quant-opt %s --qops-vector-to-scf --split-input-file | FileCheck %s
// Upstream's pass with its default options gives the same IR (the patterns
// are its; only the greedy driver's region walk is left out):
// RUN: quant-opt %s --convert-vector-to-scf --split-input-file | FileCheck %s

// A read of two dimensions: a loop over the rows, each a read of one
// (guarded: the rows may run past the buffer), into a stack buffer.
// CHECK-LABEL: func.func @read_2d
// CHECK: %[[BUF:.*]] = memref.alloca() : memref<vector<4x8xf32>>
// CHECK: %[[ROWS:.*]] = vector.type_cast %[[BUF]] : memref<vector<4x8xf32>> to memref<4xvector<8xf32>>
// CHECK: scf.for %[[R:.*]] =
// CHECK: scf.if
// CHECK: %[[ROW:.*]] = vector.transfer_read %arg0{{.*}} : memref<?x?xf32>, vector<8xf32>
// CHECK: memref.store %[[ROW]], %[[ROWS]][%[[R]]]
// CHECK: memref.load %[[BUF]][]
// CHECK-NOT: vector.transfer_read
func.func @read_2d(%m: memref<?x?xf32>, %i: index) -> vector<4x8xf32> {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%i, %i], %pad : memref<?x?xf32>, vector<4x8xf32>
  return %v : vector<4x8xf32>
}

// -----

// A read that broadcasts a dimension: the permutation map lowered to a
// read of the dimension it has and a broadcast.
// CHECK-LABEL: func.func @broadcast_read
// CHECK: %[[ROW:.*]] = vector.transfer_read %arg0{{.*}} {in_bounds = [true]} : memref<8xi32>, vector<8xi32>
// CHECK: vector.broadcast %[[ROW]] : vector<8xi32> to vector<4x8xi32>
func.func @broadcast_read(%m: memref<8xi32>) -> vector<4x8xi32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0 : i32
  %v = vector.transfer_read %m[%c0], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0) -> (0, d0)>} : memref<8xi32>, vector<4x8xi32>
  return %v : vector<4x8xi32>
}
