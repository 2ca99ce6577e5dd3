//===- KernelsApart.cpp - qops-kernels-apart: the kernels on a thread -----===//
//
// A JIT compiles a model in two stretches: the module's lowering, one pass
// after another on one core (the other idle), then LLVM's code generation,
// in parts on every core. In a model made of int8 contractions the
// kernels' loop nests weigh about as much as the rest in both (QLinearMatMul
// 128x768x3072 with a constant b: the nest is 341 of the module's 434 ops
// after the pack stage). This pass, right after the pack stage, moves them
// into a module of their own, which the rest of the pipeline lowers and the
// JIT compiles on a thread of its own, beside the module's lowering and
// code generation:
//
//   1. each outermost loop L holding ops of the kernels' dialect (qkernel)
//      becomes f(L) (OutlineLoopNest.h, tensor.empty copied in as well: the
//      function makes its results); nests that are the same code (layers of
//      the same shape) share one, a public function @<function>_kernel, and
//      each L becomes a call of it. Only when the rest of the module is
//      small (kMostRestOps per nest) and the functions are few
//      (kMostKernels). Their tensor arguments are bufferization.writable =
//      false: a nest that writes a tensor from above writes a copy of it;
//   2. those functions move into a new module (the module's attributes: the
//      configured target); the module keeps private declarations of them,
//      their tensor arguments marked bufferization.access = "read" (one-shot
//      bufferization sees no body), the declarations qops.fresh_results
//      (qops-split-fresh-result-deallocs frees what they return without
//      run-time alias checks); a symbol they name (a function or a
//      memref global) is declared there, or copied (a small constant);
//   3. on a thread (std::async), the new module goes through the rest of
//      the pipeline (the module's passes, built by the caller) and to the
//      handoff's compiler (the JIT's code generation): the caller links its
//      objects with the module's (finishKernelsApart).
//
// A kernel's code is what it was inside its function (its packed b, sums
// and a come as arguments; it allocates its result, which the caller owns,
// as bufferization's function boundaries have it); a call is added. A
// model of several layers also lowers each kernel once instead of once per
// layer before qops-share-loop-nests would have shared them. Without a
// handoff (quant-opt), step 3 nests the new module in the module as
// `module @kernels`, to be read. A context without threads, or a handoff
// without a compiler: nothing happens.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Pipelines/Pipelines.h"

#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Transforms/Passes.h"
#include "QuantOps/Utils/OutlineLoopNest.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include <chrono>
#include <future>

using namespace mlir;

struct qops::KernelsApartHandoff {
  KernelsApartCompiler compile;
  /// The new module's lowering and compile, once started.
  std::future<LogicalResult> done;
};

namespace {

/// A constant global at most this large is copied into the kernel's
/// module (its value stays known to LLVM there); a larger one, or a
/// mutable one, is shared by symbol.
constexpr int64_t kMostCopiedConstantBytes = 64;

/// The kernels' nests go apart only when the rest of the module holds at
/// most this many ops per nest after the pack stage: a model made of its
/// contractions, whose rest is their packings (run once, compiled fast)
/// and a little glue. With more, the rest's own code generation needs both
/// cores while the kernels' thread holds one: QLinearConv 3x3 64x56x56 (a
/// nest of 346 ops beside 183: its input's transform, compiled at -O3 for
/// every call) compiled 13 ms slower apart; the one-layer QLinearMatMul
/// rows (a nest of 167-341 ops beside 90-93) 4-5 ms faster, FFN12 (24
/// nests, two kernels, beside 1,121 ops) 9-14 ms (Zen 4;
/// docs/Performance.md, "The kernel apart").
constexpr int64_t kMostRestOps = 128;

/// At most this many different kernels go apart: their module is compiled
/// in one part, beside the rest's.
constexpr size_t kMostKernels = 2;

/// Whether `loop` holds an op of the int8 kernels' dialect.
bool holdsKernel(Operation *loop) {
  return loop
      ->walk([](Operation *op) {
        return isa_and_nonnull<qkernel::QKernelDialect>(op->getDialect())
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether every symbol `op` and the ops in it name is a function or a
/// memref global of `module` (what step 2 can declare or copy).
bool namesOnlyMovable(Operation *op, ModuleOp module) {
  std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(op);
  if (!uses)
    return false;
  for (const SymbolTable::SymbolUse &use : *uses) {
    Operation *def = SymbolTable::lookupSymbolIn(
        module, use.getSymbolRef().getRootReference());
    if (!isa_and_nonnull<func::FuncOp, memref::GlobalOp>(def))
      return false;
  }
  return true;
}

int64_t countOps(Operation *op) {
  int64_t count = 0;
  op->walk([&](Operation *) { ++count; });
  return count;
}

/// Step 1: the kernels' nests as public functions of `module`, one per
/// class of nests that are the same code, if the module's nests are to move
/// (none otherwise; the module unchanged).
SmallVector<func::FuncOp> outlineKernels(ModuleOp module) {
  SmallVector<Operation *> nests;
  int64_t nestOps = 0;
  for (auto function : module.getOps<func::FuncOp>())
    function.getFunctionBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!isa<LoopLikeOpInterface>(op))
        return WalkResult::advance();
      if (holdsKernel(op)) {
        nests.push_back(op);
        nestOps += countOps(op);
      }
      return WalkResult::skip();
    });
  if (nests.empty() || countOps(module) - nestOps >
                           kMostRestOps * static_cast<int64_t>(nests.size()))
    return {};
  SmallVector<qops::OutlinedLoopNest> outlined;
  auto dropAll = [&] {
    for (qops::OutlinedLoopNest &nest : outlined)
      nest.outlined->erase();
    return SmallVector<func::FuncOp>();
  };
  for (Operation *nest : nests) {
    if (!namesOnlyMovable(nest, module))
      return dropAll();
    auto function = nest->getParentOfType<func::FuncOp>();
    outlined.push_back(qops::outlineLoopNest(
        nest, (function.getName() + "_kernel").str(),
        [](Operation *op) { return isa<tensor::EmptyOp>(op); }));
  }
  // One function per class of nests that are the same code.
  SmallVector<size_t> leader(outlined.size());
  SmallVector<size_t> leaders;
  llvm::DenseMap<llvm::hash_code, SmallVector<size_t>> byHash;
  for (size_t index = 0; index < outlined.size(); ++index) {
    SmallVector<size_t> &candidates =
        byHash[qops::hashOutlinedLoopNest(outlined[index].outlined)];
    auto same = llvm::find_if(candidates, [&](size_t other) {
      return qops::isSameOutlinedLoopNest(outlined[other].outlined,
                                          outlined[index].outlined);
    });
    leader[index] = same == candidates.end() ? index : *same;
    if (same == candidates.end()) {
      candidates.push_back(index);
      leaders.push_back(index);
    }
  }
  if (leaders.size() > kMostKernels)
    return dropAll();
  SymbolTable symbols(module);
  SmallVector<func::FuncOp> kernels;
  for (size_t index : leaders) {
    func::FuncOp kernel = outlined[index].outlined;
    kernel.setPublic();
    auto function = outlined[index].loop->getParentOfType<func::FuncOp>();
    symbols.insert(kernel, std::next(Block::iterator(function.getOperation())));
    kernels.push_back(kernel);
  }
  IRMapping replaced;
  for (size_t index = 0; index < outlined.size(); ++index) {
    func::FuncOp kernel = outlined[leader[index]].outlined;
    func::FuncOp own = outlined[index].outlined;
    qops::replaceLoopNestByCall(outlined[index], kernel, replaced);
    if (own != kernel)
      own->erase();
  }
  return kernels;
}

/// In `apart`, the symbol `name` of `module`: a declaration of a function,
/// a copy of a small constant global, or a declaration of another global,
/// which `module` then exports.
void declareIn(ModuleOp apart, ModuleOp module, StringAttr name) {
  Operation *def = SymbolTable::lookupSymbolIn(module, name);
  OpBuilder builder = OpBuilder::atBlockBegin(apart.getBody());
  if (auto function = dyn_cast<func::FuncOp>(def)) {
    auto declaration = func::FuncOp::create(builder, function.getLoc(), name,
                                            function.getFunctionType());
    declaration.setPrivate();
    if (!function.isExternal())
      function.setPublic();
    return;
  }
  auto global = cast<memref::GlobalOp>(def);
  auto value = dyn_cast_or_null<ElementsAttr>(global.getInitialValueAttr());
  MemRefType type = global.getType();
  if (global.getConstant() && value && type.hasStaticShape() &&
      type.getNumElements() * type.getElementTypeBitWidth() <=
          kMostCopiedConstantBytes * 8) {
    builder.clone(*global);
    return;
  }
  memref::GlobalOp::create(builder, global.getLoc(), name,
                           /*sym_visibility=*/StringAttr(), type,
                           /*initial_value=*/Attribute(), global.getConstant(),
                           global.getAlignmentAttr());
  global.setPublic();
}

/// Step 2: the kernels in a module of their own.
OwningOpRef<ModuleOp> moveApart(ModuleOp module,
                                ArrayRef<func::FuncOp> kernels) {
  OwningOpRef<ModuleOp> apart = ModuleOp::create(module.getLoc());
  for (NamedAttribute attribute : module->getAttrs())
    if (attribute.getName() != SymbolTable::getSymbolAttrName())
      (*apart)->setAttr(attribute.getName(), attribute.getValue());
  llvm::SetVector<StringAttr> named;
  for (func::FuncOp kernel : kernels) {
    OpBuilder builder(kernel);
    auto declaration = func::FuncOp::create(
        builder, kernel.getLoc(), kernel.getName(), kernel.getFunctionType());
    declaration.setPrivate();
    // Its results are buffers it allocates (its own tensor.empty, or
    // copies: the ownership-based deallocation returns owned buffers), so
    // the caller frees them without run-time alias checks.
    declaration->setAttr(qops::kFreshResultsAttr, builder.getUnitAttr());
    // The kernel only reads its tensors (it writes copies of them, were it
    // to write them), which bufferization cannot see in a declaration.
    for (unsigned index = 0; index < declaration.getNumArguments(); ++index)
      if (isa<TensorType>(declaration.getArgumentTypes()[index])) {
        declaration.setArgAttr(
            index, bufferization::BufferizationDialect::kBufferAccessAttrName,
            builder.getStringAttr("read"));
        kernel.setArgAttr(
            index, bufferization::BufferizationDialect::kWritableAttrName,
            builder.getBoolAttr(false));
      }
    kernel->moveBefore(apart->getBody(), apart->getBody()->end());
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(kernel.getOperation()))
      for (const SymbolTable::SymbolUse &use : *uses)
        named.insert(use.getSymbolRef().getRootReference());
  }
  SymbolTable symbols(*apart);
  for (StringAttr name : named)
    if (!symbols.lookup(name))
      declareIn(*apart, module, name);
  return apart;
}

struct QOpsKernelsApartPass
    : public PassWrapper<QOpsKernelsApartPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(QOpsKernelsApartPass)

  QOpsKernelsApartPass() = default;
  QOpsKernelsApartPass(std::shared_ptr<qops::KernelsApartHandoff> handoff,
                       std::function<void(OpPassManager &)> buildRest)
      : handoff(std::move(handoff)), buildRest(std::move(buildRest)) {}

  StringRef getArgument() const final { return "qops-kernels-apart"; }
  StringRef getDescription() const final {
    return "Move the int8 kernel's loop nest into a module of its own, "
           "lowered and compiled on a thread of its own (without a JIT's "
           "handoff: nested in the module as `module @kernels`)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<bufferization::BufferizationDialect, func::FuncDialect,
                    tensor::TensorDialect>();
  }

  void runOnOperation() override {
    bool compiled = handoff && handoff->compile && buildRest;
    if ((handoff && (!compiled || handoff->done.valid())) ||
        !getContext().isMultithreadingEnabled())
      return;
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> kernels = outlineKernels(module);
    if (kernels.empty())
      return;
    OwningOpRef<ModuleOp> apart = moveApart(module, kernels);
    if (!compiled) {
      (*apart)->setAttr(SymbolTable::getSymbolAttrName(),
                        StringAttr::get(&getContext(), "kernels"));
      module.getBody()->push_back(apart.release());
      return;
    }
    auto rest = std::make_unique<PassManager>(&getContext(),
                                              ModuleOp::getOperationName());
    buildRest(*rest);
    rest->enableVerifier(false);
    // Every dialect the thread's passes use, loaded here: none may be loaded
    // while the module's own passes run.
    DialectRegistry dialects;
    rest->getDependentDialects(dialects);
    getContext().appendDialectRegistry(dialects);
    for (StringRef name : dialects.getDialectNames())
      getContext().getOrLoadDialect(name);
    handoff->done =
        std::async(std::launch::async,
                   [apart = std::move(apart), rest = std::move(rest),
                    compile = handoff->compile]() mutable -> LogicalResult {
                     if (failed(rest->run(*apart)) || failed(verify(*apart)))
                       return failure();
                     return compile(*apart);
                   });
  }

  std::shared_ptr<qops::KernelsApartHandoff> handoff;
  std::function<void(OpPassManager &)> buildRest;
};

} // namespace

std::shared_ptr<qops::KernelsApartHandoff>
qops::makeKernelsApartHandoff(KernelsApartCompiler compile) {
  auto handoff = std::make_shared<KernelsApartHandoff>();
  handoff->compile = std::move(compile);
  return handoff;
}

bool qops::isKernelsApartRunning(const KernelsApartHandoff &handoff) {
  return handoff.done.valid() &&
         handoff.done.wait_for(std::chrono::seconds(0)) !=
             std::future_status::ready;
}

bool qops::areKernelsApart(const KernelsApartHandoff &handoff) {
  return handoff.done.valid();
}

LogicalResult qops::finishKernelsApart(KernelsApartHandoff &handoff) {
  return handoff.done.valid() ? handoff.done.get() : success();
}

std::vector<std::string> qops::getKernelsApartSymbols(ModuleOp module) {
  std::vector<std::string> names;
  for (Operation &op : module.getBody()->getOperations())
    if (auto symbol = dyn_cast<SymbolOpInterface>(op))
      if (op.hasAttr(kFreshResultsAttr))
        names.push_back(symbol.getName().str());
  return names;
}

void qops::registerQOpsKernelsApartPass() {
  PassRegistration<QOpsKernelsApartPass>();
}

std::unique_ptr<Pass> qops::createQOpsKernelsApartPass(
    std::shared_ptr<KernelsApartHandoff> handoff,
    std::function<void(OpPassManager &)> buildRest) {
  return std::make_unique<QOpsKernelsApartPass>(std::move(handoff),
                                                std::move(buildRest));
}
