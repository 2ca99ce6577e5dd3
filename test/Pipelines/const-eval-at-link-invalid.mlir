// RUN: quant-opt %s --qops-const-eval="at-link=1" -verify-diagnostics

// Expressions that use a value computed at the call (an argument) cannot
// run before it.
memref.global "private" @__qops_hoisted_bad : memref<i32> = uninitialized {qops.hoisted_value}
func.func @argument(%x: i32, %claimed: i1) {
  // expected-error @below {{qops-const-eval: the constant expressions use a value computed before them}}
  scf.if %claimed {
    %square = arith.muli %x, %x : i32
    %target = memref.get_global @__qops_hoisted_bad : memref<i32>
    memref.store %square, %target[] : memref<i32>
  } {qops.hoisted_compute}
  return
}
