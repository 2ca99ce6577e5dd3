//===- QOpsAttrs.td - qops attributes --------------------*- tablegen -*-===//
//
// The int8 kernel strategy as an enum attribute: qops.target's int8_strategy
// (qops-configure-target, QuantOps/Target/TargetAttr.h), printed
// `#qops.int8_strategy<vnni>`. Its cases are the one list of the strategies
// and their names (QuantOps/Target/TargetInfo.h describes each).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_DIALECT_QOPS_IR_QOPSATTRS_TD
#define QUANTOPS_DIALECT_QOPS_IR_QOPSATTRS_TD

include "QuantOps/Dialect/QOps/IR/QOpsBase.td"
include "mlir/IR/EnumAttr.td"

def QOps_Int8KernelStrategy : I32EnumAttr<"Int8KernelStrategy",
    "the int8 micro-kernel of the quantized contractions", [
      I32EnumAttrCase<"Madd", 0, "madd">,
      I32EnumAttrCase<"Maddubs", 1, "maddubs">,
      I32EnumAttrCase<"Vnni", 2, "vnni">,
      I32EnumAttrCase<"AvxVnni", 3, "avxvnni">,
      I32EnumAttrCase<"Amx", 4, "amx">,
      I32EnumAttrCase<"NeonUsmmla", 5, "usmmla">,
      I32EnumAttrCase<"NeonUsdot", 6, "usdot">,
      I32EnumAttrCase<"NeonSdot", 7, "sdot">]> {
  let cppNamespace = "::mlir::qops";
  let genSpecializedAttr = 0;
}

def QOps_Int8KernelStrategyAttr
    : EnumAttr<QOps_Dialect, QOps_Int8KernelStrategy, "int8_strategy"> {
  let assemblyFormat = "`<` $value `>`";
}

#endif // QUANTOPS_DIALECT_QOPS_IR_QOPSATTRS_TD
