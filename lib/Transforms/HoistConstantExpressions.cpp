//===- HoistConstantExpressions.cpp - qops-hoist-constant-expressions -----===//
//
// The constant tensor expressions of a function (packed weights, above all)
// computed once, at its first call, into globals; see the pass description
// in Passes.td for the IR it produces.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSHOISTCONSTANTEXPRESSIONS
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

/// The once-guard's states.
constexpr int32_t kNotComputed = 0, kComputing = 1, kReady = 2;

/// The marks qops-const-eval finds the guard by (Passes.h).
using qops::kHoistedComputeAttr, qops::kHoistedGuardAttr,
    qops::kHoistedStateAttr, qops::kHoistedValueAttr, qops::kHoistedWaitAttr;

/// Whether every value `op` uses, in its regions too, is defined inside it
/// or satisfies `isConstant`.
bool usesOnlyConstants(Operation &op, function_ref<bool(Value)> isConstant) {
  WalkResult result = op.walk([&](Operation *nested) {
    for (Value v : nested->getOperands())
      if (!op.isAncestor(v.getParentRegion()->getParentOp()) &&
          !isConstant(v))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// Whether `op` gives a buffer (bufferization.to_buffer): a view of a
/// tensor, not a tensor expression. It stays in the function, so that the
/// tensor it views is the one used outside and is hoisted (the amx kernel
/// reads its packed b through to_buffer: counted as constant itself, the
/// packing was recomputed at every call).
bool givesBuffer(Operation &op) {
  return llvm::any_of(op.getResultTypes(),
                      [](Type type) { return isa<BaseMemRefType>(type); });
}

/// The constant expressions of `body`, in order (see the pass description).
llvm::SetVector<Operation *> findConstantExpressions(Block &body) {
  llvm::SetVector<Operation *> found;
  auto isConstant = [&](Value v) {
    Operation *def = v.getDefiningOp();
    return def && found.contains(def);
  };
  for (Operation &op : body)
    if (op.getNumResults() > 0 && !op.hasTrait<OpTrait::IsTerminator>() &&
        !givesBuffer(op) && isMemoryEffectFree(&op) &&
        usesOnlyConstants(op, isConstant))
      found.insert(&op);
  return found;
}

/// Bytes of a static tensor of whole-byte ints or floats; 0 otherwise (i1
/// tensors are bit-packed in attributes, byte per element in memory: not
/// hoisted, so that qops-const-eval can read every global back as it is).
int64_t staticTensorBytes(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() ||
      !tensor.getElementType().isIntOrFloat() ||
      tensor.getElementType().getIntOrFloatBitWidth() % 8 != 0)
    return 0;
  return tensor.getNumElements() *
         (tensor.getElementType().getIntOrFloatBitWidth() / 8);
}

/// The results to hoist: see the pass description. An expression's work is
/// the largest static tensor among its operands and results and those of
/// the expressions it is computed from; only expressions computed with an
/// op that has regions count (others are constants and their reshapes),
/// and not a linalg.fill: a splat is written as fast as a hoisted copy of it
/// is read back (the generic contraction's zero init of 1.8 MB was copied
/// from a global at every call), so it stays in the function unless a
/// hoisted expression uses it.
SmallVector<Value> findRoots(Block &body,
                             const llvm::SetVector<Operation *> &found,
                             int64_t minBytes) {
  DenseMap<Operation *, int64_t> work; // the expressions that compute
  SmallVector<Value> roots;
  for (Operation *op : found) {
    bool computes = op->getNumRegions() > 0 && !isa<linalg::FillOp>(op);
    int64_t bytes = 0;
    op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands()) {
        bytes = std::max(bytes, staticTensorBytes(v.getType()));
        if (auto it = work.find(v.getDefiningOp()); it != work.end()) {
          computes = true;
          bytes = std::max(bytes, it->second);
        }
      }
    });
    if (!computes)
      continue;
    for (Type type : op->getResultTypes())
      bytes = std::max(bytes, staticTensorBytes(type));
    work[op] = bytes;
    if (bytes < minBytes)
      continue;
    for (Value result : op->getResults()) {
      bool usedOutside = llvm::any_of(result.getUsers(), [&](Operation *user) {
        return !found.contains(body.findAncestorOpInBlock(*user));
      });
      if (usedOutside && staticTensorBytes(result.getType()) > 0)
        roots.push_back(result);
    }
  }
  return roots;
}

/// The expressions `roots` are computed from, in `found`'s order.
SmallVector<Operation *> sliceOf(ArrayRef<Value> roots,
                                 const llvm::SetVector<Operation *> &found) {
  DenseSet<Operation *> needed;
  SmallVector<Operation *> worklist;
  for (Value root : roots)
    worklist.push_back(root.getDefiningOp());
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!needed.insert(op).second)
      continue;
    op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (Operation *def = v.getDefiningOp(); def && found.contains(def))
          worklist.push_back(def);
    });
  }
  return llvm::filter_to_vector(
      found, [&](Operation *op) { return needed.contains(op); });
}

struct QOpsHoistConstantExpressionsPass
    : public qops::impl::QOpsHoistConstantExpressionsBase<
          QOpsHoistConstantExpressionsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>()))
      if (!func.isExternal())
        hoist(func, symbols);
  }

  /// A private global of `type` named after `name` (renamed when taken),
  /// aligned to `alignment` bytes.
  memref::GlobalOp addGlobal(SymbolTable &symbols, Location loc,
                             StringRef name, MemRefType type,
                             Attribute initialValue, int64_t alignment) {
    OpBuilder b(&getContext());
    auto global = memref::GlobalOp::create(
        b, loc, name, b.getStringAttr("private"), type, initialValue,
        /*constant=*/false, b.getI64IntegerAttr(alignment));
    symbols.insert(global, getOperation().getBody()->begin());
    return global;
  }

  void hoist(func::FuncOp func, SymbolTable &symbols);
};

void QOpsHoistConstantExpressionsPass::hoist(func::FuncOp func,
                                             SymbolTable &symbols) {
  Block &body = func.getBody().front();
  llvm::SetVector<Operation *> found = findConstantExpressions(body);
  SmallVector<Value> roots = findRoots(body, found, minBytes);
  if (roots.empty())
    return;
  Location loc = func.getLoc();
  std::string prefix = ("__qops_hoisted_" + func.getSymName()).str();
  SmallVector<memref::GlobalOp> globals;
  for (Value root : roots) {
    auto type = cast<RankedTensorType>(root.getType());
    globals.push_back(addGlobal(
        symbols, loc, prefix,
        MemRefType::get(type.getShape(), type.getElementType()),
        UnitAttr::get(&getContext()), /*alignment=*/64));
    globals.back()->setAttr(kHoistedValueAttr, UnitAttr::get(&getContext()));
  }
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  Type i32 = b.getI32Type();
  auto stateType = MemRefType::get({}, i32);
  // Aligned as an i32 (4), not as the constants' globals (64): one-shot
  // bufferization reuses a global of a constant's value and alignment,
  // mutable or not, and this one starts as dense<0> : memref<i32>.
  memref::GlobalOp stateGlobal = addGlobal(
      symbols, loc, prefix + "_state", stateType,
      DenseElementsAttr::get(RankedTensorType::get({}, i32), kNotComputed),
      /*alignment=*/4);
  stateGlobal->setAttr(kHoistedStateAttr, b.getUnitAttr());
  auto constant = [&](int32_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  Value notComputed = constant(kNotComputed);
  Value computing = constant(kComputing), ready = constant(kReady);
  Value state = memref::GetGlobalOp::create(b, loc, stateType,
                                            stateGlobal.getSymName());
  auto atomic = [&](OpBuilder &ob, arith::AtomicRMWKind kind, Value v) {
    return memref::AtomicRMWOp::create(ob, loc, kind, v, state, ValueRange{})
        .getResult();
  };
  auto stateIs = [&](Value s, Value v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, s, v);
  };
  // 0 -> 1 claims the computation; 1 and 2 stay.
  Value old = atomic(b, arith::AtomicRMWKind::maxs, computing);
  old.getDefiningOp()->setAttr(kHoistedGuardAttr, b.getUnitAttr());
  auto compute = scf::IfOp::create(b, loc, stateIs(old, notComputed),
                                   /*withElseRegion=*/false);
  compute->setAttr(kHoistedComputeAttr, b.getUnitAttr());
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(compute.thenBlock()->getTerminator());
    IRMapping mapping;
    for (Operation *op : sliceOf(roots, found))
      b.clone(*op, mapping);
    for (auto [root, global] : llvm::zip(roots, globals)) {
      Value buffer = memref::GetGlobalOp::create(b, loc, global.getType(),
                                                 global.getSymName());
      bufferization::MaterializeInDestinationOp::create(
          b, loc, /*result=*/Type(), mapping.lookup(root), buffer,
          /*restrict=*/true, /*writable=*/true);
    }
    atomic(b, arith::AtomicRMWKind::assign, ready);
  }
  // A caller that found it being computed waits until it is ready.
  auto wait = scf::IfOp::create(b, loc, stateIs(old, computing),
                                /*withElseRegion=*/false);
  wait->setAttr(kHoistedWaitAttr, b.getUnitAttr());
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(wait.thenBlock()->getTerminator());
    scf::WhileOp::create(
        b, loc, TypeRange{}, ValueRange{},
        [&](OpBuilder &ob, Location l, ValueRange) {
          Value now = atomic(ob, arith::AtomicRMWKind::ori, notComputed);
          Value notReady = arith::CmpIOp::create(
              ob, l, arith::CmpIPredicate::ne, now, ready);
          scf::ConditionOp::create(ob, l, notReady, ValueRange{});
        },
        [&](OpBuilder &ob, Location l, ValueRange) {
          scf::YieldOp::create(ob, l);
        });
  }
  // The users read the globals.
  for (auto [root, global] : llvm::zip(roots, globals)) {
    Value buffer = memref::GetGlobalOp::create(b, loc, global.getType(),
                                               global.getSymName());
    Value tensor = bufferization::ToTensorOp::create(
        b, loc, root.getType(), buffer, /*restrict=*/true, /*writable=*/false);
    root.replaceUsesWithIf(tensor, [&](OpOperand &use) {
      return !found.contains(body.findAncestorOpInBlock(*use.getOwner()));
    });
  }
  for (Operation *op : llvm::reverse(found))
    if (op->use_empty())
      op->erase();
}

} // namespace
