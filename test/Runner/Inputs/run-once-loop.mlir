// add-loop.mlir's loop in a function marked to run once, as
// qops-const-eval{at-link} marks the packing functions it makes
// (passthrough "qops-run-once"): its code generation leaves the pass out.
func.func @run_once_loop(%a: tensor<?x64xi8>, %b: tensor<?x64xi8>) -> tensor<16xi32>
    attributes {passthrough = ["qops-run-once"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0 : i8
  %n = tensor.dim %a, %c0 : tensor<?x64xi8>
  %zero = arith.constant dense<0> : vector<16xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> vector<16xi32> {
    %va = vector.transfer_read %a[%i, %c0], %pad {in_bounds = [true]} : tensor<?x64xi8>, vector<64xi8>
    %vb = vector.transfer_read %b[%i, %c0], %pad {in_bounds = [true]} : tensor<?x64xi8>, vector<64xi8>
    %wa = vector.bitcast %va : vector<64xi8> to vector<16xi32>
    %wb = vector.bitcast %vb : vector<64xi8> to vector<16xi32>
    %s = arith.addi %wa, %wb : vector<16xi32>
    %d = arith.addi %acc, %s : vector<16xi32>
    scf.yield %d : vector<16xi32>
  }
  %e = tensor.empty() : tensor<16xi32>
  %y = vector.transfer_write %r, %e[%c0] {in_bounds = [true]} : vector<16xi32>, tensor<16xi32>
  return %y : tensor<16xi32>
}
