// RUN: quant-opt %s --qops-request-amx-tile-data=target-triple=x86_64-unknown-linux-gnu --split-input-file --verify-diagnostics

// The names are reserved: a symbol of the program in their place is an
// error, not a silent call to it.
// expected-error @below {{symbol '__qops_request_amx_tile_data' is reserved for the AMX tile data request}}
func.func @__qops_request_amx_tile_data() {
  return
}
func.func @tiles_again() {
  %t = amx.tile_zero : !amx.tile<16x16xi32>
  return
}

// -----

// expected-error @below {{symbol '__qops_amx_tile_data_requested' is reserved for the AMX tile data request}}
llvm.mlir.global internal @__qops_amx_tile_data_requested(0 : i32) : i32
func.func @tiles_once_more() {
  %t = amx.tile_zero : !amx.tile<16x16xi32>
  return
}
