// loop-strength-reduction.mlir's loop with the madd kernel's pair sums
// (qkernel.dot_i16_pairs, lowered to plain LLVM ops that LLVM selects as
// VPMADDWD): the function is marked an int8 kernel as the VPDPBUSD one is,
// so its code generation leaves the pass out as well.
func.func @pairs(%a: tensor<?x16xi16>, %b: tensor<?x16xi16>) -> tensor<8xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0 : i16
  %n = tensor.dim %a, %c0 : tensor<?x16xi16>
  %zero = arith.constant dense<0> : vector<8xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> vector<8xi32> {
    %va = vector.transfer_read %a[%i, %c0], %pad {in_bounds = [true]} : tensor<?x16xi16>, vector<16xi16>
    %vb = vector.transfer_read %b[%i, %c0], %pad {in_bounds = [true]} : tensor<?x16xi16>, vector<16xi16>
    %d = qkernel.dot_i16_pairs %acc, %va, %vb : vector<16xi16> -> vector<8xi32>
    scf.yield %d : vector<8xi32>
  }
  %e = tensor.empty() : tensor<8xi32>
  %y = vector.transfer_write %r, %e[%c0] {in_bounds = [true]} : vector<8xi32>, tensor<8xi32>
  return %y : tensor<8xi32>
}
