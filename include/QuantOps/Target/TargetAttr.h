//===- TargetAttr.h - the target, configured once, on the module -*- C++ -*-===//
//
// qops-configure-target resolves the target (TargetInfo.h) and the int8
// strategy once, at the start of the pipeline, and records them on the
// module:
//
//   module attributes {qops.target = {cpu = "znver3",
//       features = "+avx2,...", int8_strategy = #qops.int8_strategy<maddubs>,
//       triple = "x86_64-unknown-linux-gnu"}}
//
// Every later pass whose own target options are left empty reads this
// attribute instead of resolving the host again (convert-qops-to-linalg,
// qops-nontemporal-stores, qops-lower-kernel-intrinsics,
// qops-request-amx-tile-data, qops-set-llvm-target); an option given to a
// pass still wins, so a pass can be run alone as before.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_TARGET_TARGETATTR_H
#define QUANTOPS_TARGET_TARGETATTR_H

#include "QuantOps/Target/TargetInfo.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

#include <optional>

namespace mlir::qops {

/// The module attribute qops-configure-target writes.
inline constexpr llvm::StringLiteral kTargetAttrName = "qops.target";

/// A resolved target and the int8 strategy chosen for it.
struct ConfiguredTarget {
  QOpsTarget target;
  Int8KernelStrategy int8Strategy;
};

/// The attribute's dictionary for `configured`.
DictionaryAttr makeTargetAttr(MLIRContext *ctx,
                              const ConfiguredTarget &configured);

/// The target recorded on `op`'s module (or on `op` itself, if it is the
/// module), if any; nothing when the attribute is absent or malformed (a
/// field missing, or an int8_strategy that names no strategy).
std::optional<ConfiguredTarget> getConfiguredTarget(Operation *op);

/// Fails, with an error on the module, when `module` carries a qops.target
/// that getConfiguredTarget cannot read (rather than compiling for the host
/// unasked); succeeds when it has none or a well-formed one.
LogicalResult verifyTargetAttr(Operation *module);

/// The target of a pass with target options `options`: those options if any
/// is set, else the module's configured target, else `options` (empty
/// fields: the host, for resolveTarget).
QOpsTarget getTargetFor(Operation *op, const QOpsTarget &options);

/// The triple of a pass with a `target-triple` option: the option, else the
/// module's configured triple, else this process's.
std::string getTripleFor(Operation *op, llvm::StringRef optionTriple);

} // namespace mlir::qops

#endif // QUANTOPS_TARGET_TARGETATTR_H
