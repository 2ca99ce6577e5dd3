// RUN: quant-opt %s --split-input-file --verify-diagnostics --qops-configure-target
// RUN: quant-opt %s --split-input-file --verify-diagnostics --convert-qops-to-linalg
// RUN: %expect_exit 1 quant-opt %s --split-input-file --qops-configure-target=int8-strategy=sse 2>&1 | FileCheck %s --check-prefix=NAME

// A qops.target that names no strategy (or lacks a field) is an error for
// the passes that read it, not a silent compile for the host.
// expected-error @+1 {{qops.target must be a dictionary of strings cpu, features, int8_strategy (madd, maddubs, vnni, avxvnni, amx, usmmla, usdot or sdot) and triple}}
module attributes {qops.target = {cpu = "znver3", features = "", int8_strategy = "sse", triple = "x86_64-unknown-linux-gnu"}} {
  func.func @unknown_strategy() {
    return
  }
}

// -----

// expected-error @+1 {{qops.target must be a dictionary of strings}}
module attributes {qops.target = {cpu = "znver3", int8_strategy = "vnni", triple = "x86_64-unknown-linux-gnu"}} {
  func.func @no_features() {
    return
  }
}

// -----

// A strategy option that names none of them.
// NAME: error: int8-strategy must be auto, madd, maddubs, vnni, avxvnni, amx, usmmla, usdot or sdot, not 'sse'
module {
  func.func @any() {
    return
  }
}
