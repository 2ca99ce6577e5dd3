//===- ShareLoopNests.cpp - qops-share-loop-nests -------------------------===//
//
// Layers of the same shape lower to the same loop nests; each copy costs the
// later passes and LLVM as much as the first (a 12-layer model compiled 12
// copies of two kernels). Each outermost loop L of a function is read as the
// function it would be outlined to, f(L) (OutlineLoopNest.h).
//
// Two nests are the same code when their f(L) are equivalent ops
// (OperationEquivalence, locations aside: the same ops, attributes,
// properties and types, with the same use-def structure), found among the
// f with the same structural hash. For every class of two or more nests,
// one f goes into the module and each nest L becomes
// `func.call @f(captured(L))`, its results replaced by the call's.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"
#include "QuantOps/Utils/OutlineLoopNest.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSSHARELOOPNESTS
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

/// A nest smaller than this stays where it is even when it has a twin: a
/// call would cost more than compiling the few ops twice.
constexpr int64_t kMinSharedNestOps = 8;

bool isLoop(Operation *op) {
  return isa<scf::ForOp, scf::ForallOp, scf::ParallelOp, scf::WhileOp>(op);
}

using Nest = qops::OutlinedLoopNest;

/// The outermost loops of `func` with at least kMinSharedNestOps ops.
SmallVector<Operation *> collectOutermostLoops(func::FuncOp func) {
  SmallVector<Operation *> loops;
  func.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isLoop(op))
      return WalkResult::advance();
    int64_t count = 0;
    op->walk([&](Operation *) { ++count; });
    if (count >= kMinSharedNestOps)
      loops.push_back(op);
    return WalkResult::skip();
  });
  return loops;
}

/// f(L), not inserted anywhere; `loop` is left as it is. Internal to the
/// object (no C wrapper, no exported symbol) and not inlined back into its
/// callers, which would compile it once per call.
Nest outline(Operation *loop) {
  Nest nest = qops::outlineLoopNest(loop, "nest");
  MLIRContext *context = loop->getContext();
  nest.outlined->setAttr("llvm.linkage",
                         LLVM::LinkageAttr::get(context, LLVM::Linkage::Internal));
  // (func-to-llvm carries `passthrough` over, not `no_inline`.)
  nest.outlined->setAttr(
      "passthrough",
      ArrayAttr::get(context, {StringAttr::get(context, "noinline")}));
  return nest;
}

struct ShareLoopNests
    : qops::impl::QOpsShareLoopNestsBase<ShareLoopNests> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The groups in the order of their first nest: the output is the same
    // on every run.
    llvm::DenseMap<llvm::hash_code, SmallVector<size_t>> byHash;
    SmallVector<SmallVector<Nest>> groups;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      for (Operation *loop : collectOutermostLoops(func)) {
        Nest nest = outline(loop);
        SmallVector<size_t> &candidates =
            byHash[qops::hashOutlinedLoopNest(nest.outlined)];
        auto same = llvm::find_if(candidates, [&](size_t group) {
          return qops::isSameOutlinedLoopNest(groups[group].front().outlined,
                                              nest.outlined);
        });
        if (same == candidates.end()) {
          candidates.push_back(groups.size());
          groups.emplace_back();
          groups.back().push_back(nest);
        } else {
          groups[*same].push_back(nest);
        }
      }
    }
    SymbolTable symbols(module);
    int64_t counter = 0;
    // A nest may use the results of one replaced before it: the values its
    // call passes are read through this map (loop result -> call result).
    IRMapping replaced;
    for (SmallVector<Nest> &nests : groups) {
      if (nests.size() < 2) {
        nests.front().outlined->erase();
        continue;
      }
      func::FuncOp shared = nests.front().outlined;
      auto parent = nests.front().loop->getParentOfType<func::FuncOp>();
      shared.setName(
          (parent.getName() + "_nest_" + llvm::Twine(counter++)).str());
      symbols.insert(shared, std::next(Block::iterator(parent.getOperation())));
      for (Nest &nest : nests) {
        func::FuncOp outlined = nest.outlined;
        qops::replaceLoopNestByCall(nest, shared, replaced);
        if (outlined != shared)
          outlined->erase();
      }
    }
  }
};

} // namespace
