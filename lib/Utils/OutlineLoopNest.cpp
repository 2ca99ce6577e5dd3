//===- OutlineLoopNest.cpp - a loop nest as a function --------------------===//
//
// See OutlineLoopNest.h.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Utils/OutlineLoopNest.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace {

/// Ops outside a nest that are copied into its function instead of passed:
/// constants, and views of buffers (subview, expand_shape, cast, ...).
bool isCopiedIn(Operation *op) {
  if (op->getNumRegions() != 0)
    return false;
  if (op->hasTrait<OpTrait::ConstantLike>())
    return op->getNumOperands() == 0;
  return isa<ViewLikeOpInterface>(op) &&
         op->getDialect()->getNamespace() == "memref" && isMemoryEffectFree(op);
}

/// captured(L) and the ops copied in (constants and views, each after the
/// ops its operands come from), in the order of first use.
void collectUsesFromAbove(Operation *loop, SmallVector<Value> &captured,
                          SmallVector<Operation *> &copied,
                          llvm::function_ref<bool(Operation *)> alsoCopied) {
  llvm::SetVector<Value> seen;
  llvm::SetVector<Operation *> copiedSet;
  std::function<void(Value)> use = [&](Value value) {
    if (loop->isAncestor(value.getParentRegion()->getParentOp()) ||
        !seen.insert(value))
      return;
    Operation *def = value.getDefiningOp();
    if (!def || !(isCopiedIn(def) || (alsoCopied && alsoCopied(def)))) {
      captured.push_back(value);
      return;
    }
    if (!copiedSet.insert(def))
      return;
    for (Value operand : def->getOperands())
      use(operand);
    copied.push_back(def);
  };
  loop->walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (Value value : op->getOperands())
      use(value);
  });
}

} // namespace

qops::OutlinedLoopNest
qops::outlineLoopNest(Operation *loop, StringRef name,
                      llvm::function_ref<bool(Operation *)> alsoCopied) {
  OutlinedLoopNest nest{loop, {}, nullptr};
  SmallVector<Operation *> copied;
  collectUsesFromAbove(loop, nest.captured, copied, alsoCopied);
  MLIRContext *context = loop->getContext();
  auto type = FunctionType::get(context, ValueRange(nest.captured).getTypes(),
                                loop->getResultTypes());
  nest.outlined = func::FuncOp::create(loop->getLoc(), name, type);
  nest.outlined.setPrivate();
  Block *entry = nest.outlined.addEntryBlock();
  IRMapping mapping;
  mapping.map(nest.captured, entry->getArguments());
  OpBuilder builder = OpBuilder::atBlockEnd(entry);
  for (Operation *op : copied)
    builder.clone(*op, mapping);
  Operation *clone = builder.clone(*loop, mapping);
  func::ReturnOp::create(builder, loop->getLoc(), clone->getResults());
  return nest;
}

func::CallOp qops::replaceLoopNestByCall(const OutlinedLoopNest &nest,
                                         func::FuncOp callee,
                                         IRMapping &replaced) {
  OpBuilder builder(nest.loop);
  SmallVector<Value> operands = llvm::map_to_vector(
      nest.captured, [&](Value v) { return replaced.lookupOrDefault(v); });
  auto call =
      func::CallOp::create(builder, nest.loop->getLoc(), callee, operands);
  replaced.map(nest.loop->getResults(), call.getResults());
  nest.loop->replaceAllUsesWith(call.getResults());
  nest.loop->erase();
  return call;
}

llvm::hash_code qops::hashOutlinedLoopNest(func::FuncOp outlined) {
  llvm::hash_code hash = hash_value(Type(outlined.getFunctionType()));
  outlined.getBody().walk([&](Operation *op) {
    hash =
        llvm::hash_combine(hash, OperationEquivalence::computeHash(
                                     op, OperationEquivalence::ignoreHashValue,
                                     OperationEquivalence::ignoreHashValue,
                                     OperationEquivalence::IgnoreLocations));
  });
  return hash;
}

bool qops::isSameOutlinedLoopNest(func::FuncOp lhs, func::FuncOp rhs) {
  return OperationEquivalence::isEquivalentTo(
      lhs, rhs, OperationEquivalence::IgnoreLocations);
}
