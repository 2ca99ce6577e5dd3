//===- TargetAttr.cpp - the target, configured once, on the module --------===//

#include "QuantOps/Target/TargetAttr.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;

DictionaryAttr qops::makeTargetAttr(MLIRContext *ctx,
                                    const ConfiguredTarget &configured) {
  auto entry = [&](StringRef name, StringRef value) {
    return NamedAttribute(StringAttr::get(ctx, name),
                          StringAttr::get(ctx, value));
  };
  return DictionaryAttr::get(
      ctx, {entry("cpu", configured.target.cpu),
            entry("features", configured.target.features),
            NamedAttribute(
                StringAttr::get(ctx, "int8_strategy"),
                Int8KernelStrategyAttr::get(ctx, configured.int8Strategy)),
            entry("triple", configured.target.triple)});
}

std::optional<qops::ConfiguredTarget>
qops::getConfiguredTarget(Operation *op) {
  Operation *module =
      isa<ModuleOp>(op) ? op : op->getParentOfType<ModuleOp>();
  if (!module)
    return std::nullopt;
  auto dict = module->getAttrOfType<DictionaryAttr>(kTargetAttrName);
  if (!dict)
    return std::nullopt;
  auto field = [&](StringRef name) -> std::optional<std::string> {
    if (auto value = dict.getAs<StringAttr>(name))
      return value.str();
    return std::nullopt;
  };
  std::optional<std::string> triple = field("triple"), cpu = field("cpu"),
                             features = field("features");
  auto strategy = dict.getAs<Int8KernelStrategyAttr>("int8_strategy");
  if (!triple || !cpu || !features || !strategy)
    return std::nullopt;
  return ConfiguredTarget{{*triple, *cpu, *features}, strategy.getValue()};
}

LogicalResult qops::verifyTargetAttr(Operation *module) {
  if (!module->hasAttr(kTargetAttrName) || getConfiguredTarget(module))
    return success();
  return module->emitError()
         << kTargetAttrName
         << " must be a dictionary of the strings cpu, features and triple "
            "and int8_strategy = #qops.int8_strategy<"
         << int8StrategyNames() << ">";
}

qops::QOpsTarget qops::getTargetFor(Operation *op, const QOpsTarget &options) {
  if (!options.triple.empty() || !options.cpu.empty() ||
      !options.features.empty())
    return options;
  if (std::optional<ConfiguredTarget> configured = getConfiguredTarget(op))
    return configured->target;
  return options;
}

std::string qops::getTripleFor(Operation *op, llvm::StringRef optionTriple) {
  if (!optionTriple.empty())
    return optionTriple.str();
  if (std::optional<ConfiguredTarget> configured = getConfiguredTarget(op))
    return configured->target.triple;
  return llvm::sys::getProcessTriple();
}
