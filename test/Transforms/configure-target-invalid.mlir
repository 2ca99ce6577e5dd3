// RUN: quant-opt %s --split-input-file --verify-diagnostics --qops-configure-target
// RUN: quant-opt %s --split-input-file --verify-diagnostics --convert-qops-to-linalg
// RUN: %expect_exit 1 quant-opt %s --split-input-file --qops-configure-target=int8-strategy=sse 2>&1 | FileCheck %s --check-prefix=NAME

// qops.target's int8_strategy is an enum attribute: a name that is no
// strategy does not parse.
// expected-error @+2 {{expected ::mlir::qops::Int8KernelStrategy to be one of: madd, maddubs, vnni, avxvnni, amx, usmmla, usdot, sdot}}
// expected-error @+1 {{failed to parse QOps_Int8KernelStrategyAttr parameter 'value'}}
module attributes {qops.target = {cpu = "znver3", features = "", int8_strategy = #qops.int8_strategy<sse>, triple = "x86_64-unknown-linux-gnu"}} {
  func.func @unknown_strategy() {
    return
  }
}

// -----

// A qops.target with a string for the strategy, or a field missing, is an
// error for the passes that read it, not a silent compile for the host.
// expected-error @+1 {{qops.target must be a dictionary of the strings cpu, features and triple and int8_strategy = #qops.int8_strategy<madd, maddubs, vnni, avxvnni, amx, usmmla, usdot or sdot>}}
module attributes {qops.target = {cpu = "znver3", features = "", int8_strategy = "vnni", triple = "x86_64-unknown-linux-gnu"}} {
  func.func @string_strategy() {
    return
  }
}

// -----

// expected-error @+1 {{qops.target must be a dictionary}}
module attributes {qops.target = {cpu = "znver3", int8_strategy = #qops.int8_strategy<vnni>, triple = "x86_64-unknown-linux-gnu"}} {
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
