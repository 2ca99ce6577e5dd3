//===- ConstEval.cpp - qops-const-eval: constants at compile time ---------===//
//
// qops-hoist-constant-expressions leaves each function's constant tensor
// expressions (packed weights) in a guarded scf.if that runs at the first
// call. This pass runs them now instead, with the JIT, and stores their
// results as the globals' constant initial values:
//
//   1. a copy of the module keeps, per function, the compute scf.if's body
//      as a function of its own (@__qops_const_eval_N: the expressions and
//      their materialize_in_destination into the globals), for the host
//      (its qops.target dropped: the expressions hold no target
//      instruction, only the layout the target's strategy chose);
//   2. that copy is lowered (bufferization, scf.forall as loops, LLVM) and
//      run by the ExecutionEngine; the globals' bytes are read back. The
//      weights the expressions read are not copied into the JIT's code:
//      each large constant global becomes an external declaration whose
//      symbol is the attribute's own bytes (externalizeLargeConstants);
//   3. in the module, each value global gets them as its constant initial
//      value; the guard (the atomic claim, both scf.ifs) and the state
//      global are erased.
//
// The bytes are the host's: a big-endian target or host is left alone.
// Pipelines.cpp adds it after qops-hoist-constant-expressions when the
// pipeline option const-eval is set (quant-compile's default).
//
// In that pipeline (a ConstEvalAt::Join handoff, the context
// multithreaded), steps 1 and 3's erasing happen at once and step 2 runs on
// a thread of its own while the module goes on through bufferization and
// the LLVM conversions; qops-const-eval-join, before
// qops-byte-constant-globals, waits for it and gives the llvm.mlir.globals
// (private, uninitialized until then) the values: constant, as the
// conversion of a constant memref.global makes them.
//
// A JIT runs the expressions itself, once linked (ConstEvalAt::Link, or
// the option at-link): step 1 moves each compute scf.if's body into a
// function of the module (marked qops.hoisted_compute: its loops kept
// rolled, its stores in place), the guards go as in step 3, and the
// globals stay mutable and without a value; the session binds them to
// memory of its own (declareConstEvalGlobals) and calls the functions once
// before the first call: no ExecutionEngine of its own, no second
// compile of the host's code. With a compiler (setConstEvalCompiler) and
// many globals (a model of several layers), the functions are instead
// kept in a copy, lowered for the host (with the pipeline's threads) and
// compiled on a thread of their own while the module is lowered, and the
// session links their objects with the module's (finishConstEval).
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Pipelines/Pipelines.h"

#include "QuantOps/Target/TargetAttr.h"
#include "QuantOps/Transforms/Passes.h"
#include "QuantOps/Utils/ConstantBytes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/ArmNeon/ArmNeonToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ArmSVE/ArmSVEToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Triple.h"

#include <future>
#include <mutex>

using namespace mlir;

namespace {

/// The module's hoisted value globals, by name.
llvm::StringMap<memref::GlobalOp> valueGlobals(ModuleOp module) {
  llvm::StringMap<memref::GlobalOp> globals;
  for (auto global : module.getOps<memref::GlobalOp>())
    if (global->hasAttr(qops::kHoistedValueAttr))
      globals[global.getSymName()] = global;
  return globals;
}

/// A value global's bytes: an element per byte or per whole bytes (as
/// LLVM stores an array of i1 or i4: a byte each).
uint64_t getValueBytes(MemRefType type) {
  return type.getNumElements() *
         llvm::divideCeil(type.getElementTypeBitWidth(), 8);
}

/// Step 1 (and the at-link form's only step): each compute scf.if's body
/// but its final atomic store (the guard's "ready") moved into a function of
/// its own at the end of `module`, @__qops_const_eval_N, with no arguments
/// and no results, marked qops.hoisted_compute (and, for code generation,
/// passthrough "qops-run-once"); the constants it uses from the enclosing
/// function cloned in. Returns their names; fails where a body
/// uses another value from outside it.
FailureOr<SmallVector<std::string>> outlineComputeBodies(ModuleOp module) {
  SmallVector<scf::IfOp> computes;
  module.walk([&](scf::IfOp op) {
    if (op->hasAttr(qops::kHoistedComputeAttr))
      computes.push_back(op);
  });
  SymbolTable symbols(module);
  SmallVector<std::string> names;
  OpBuilder b(module.getContext());
  for (auto [i, compute] : llvm::enumerate(computes)) {
    b.setInsertionPointToEnd(module.getBody());
    auto func = func::FuncOp::create(b, compute.getLoc(),
                                     "__qops_const_eval_" + std::to_string(i),
                                     b.getFunctionType({}, {}));
    symbols.insert(func); // renamed if the name is taken
    b.setInsertionPointToStart(func.addEntryBlock());
    auto ret = func::ReturnOp::create(b, compute.getLoc());
    for (Operation &op :
         llvm::make_early_inc_range(compute.thenBlock()->without_terminator()))
      if (!isa<memref::AtomicRMWOp>(op))
        op.moveBefore(ret);
    llvm::SetVector<Value> outside;
    func.walk([&](Operation *op) {
      for (Value operand : op->getOperands())
        if (!func->isAncestor(operand.getParentRegion()->getParentOp()))
          outside.insert(operand);
    });
    for (Value value : outside) {
      Operation *def = value.getDefiningOp();
      if (!def || !def->hasTrait<OpTrait::ConstantLike>())
        return compute.emitError("qops-const-eval: the constant expressions "
                                 "use a value computed before them");
      b.setInsertionPointToStart(&func.getBody().front());
      Value copy =
          b.clone(*def)->getResult(cast<OpResult>(value).getResultNumber());
      value.replaceUsesWithIf(copy, [&](OpOperand &use) {
        return func->isProperAncestor(use.getOwner());
      });
    }
    // Code that runs once, as the guarded scf.if was (its loops kept
    // rolled, its stores into the globals in place).
    func->setAttr(qops::kHoistedComputeAttr, b.getUnitAttr());
    // (func-to-llvm carries `passthrough` over to the llvm.func.)
    func->setAttr(
        "passthrough",
        b.getArrayAttr({b.getStringAttr(qops::kRunOnceFunctionAttr)}));
    names.push_back(func.getSymName().str());
  }
  return names;
}

/// Step 1: `copy` reduced to the functions outlineComputeBodies makes.
FailureOr<SmallVector<std::string>> keepComputeBodies(ModuleOp copy) {
  FailureOr<SmallVector<std::string>> names = outlineComputeBodies(copy);
  if (failed(names))
    return failure();
  llvm::StringSet<> kept(llvm::from_range, *names);
  for (auto func : llvm::to_vector(copy.getOps<func::FuncOp>()))
    if (!kept.contains(func.getSymName()))
      func.erase();
  return names;
}

/// The value globals' types, by name: what step 2 reads back.
llvm::StringMap<MemRefType>
getTypes(const llvm::StringMap<memref::GlobalOp> &globals) {
  llvm::StringMap<MemRefType> types;
  for (const auto &entry : globals)
    types[entry.getKey()] = memref::GlobalOp(entry.getValue()).getType();
  return types;
}

/// The pipeline that lowers the copy: bufferization, scf.forall on buffers
/// as scf.parallel, which scf-to-cf runs as sequential loops (forall-to-for
/// would need the tensors' shared outputs, which it does not handle), and
/// the LLVM conversions for the host, serial, with malloc / free; or,
/// `parallel` (the at-link copy of a JIT that links OpenMP's runtime), the
/// scf.parallel loops as OpenMP's. Built once, on the thread that holds
/// the module, with the dialects it depends on loaded as its run would load
/// them (loading a dialect is not safe while other threads work in the
/// context), so that another thread can run it.
std::unique_ptr<PassManager> makeCopyPipeline(MLIRContext *context,
                                              bool parallel = false) {
  auto pm =
      std::make_unique<PassManager>(context, ModuleOp::getOperationName());
  qops::buildQOpsBufferizePipeline(*pm, parallel);
  pm->addNestedPass<func::FuncOp>(createForallToParallelLoopPass());
  qops::QOpsPipelineOptions options;
  options.parallel = parallel;
  qops::buildQOpsLinalgToLLVMPipeline(*pm, options);
  DialectRegistry registry;
  pm->getDependentDialects(registry);
  context->appendDialectRegistry(registry);
  for (StringRef name : registry.getDialectNames())
    context->getOrLoadDialect(name);
  return pm;
}

/// Step 2: lower `copy` for the host with `pipeline` (makeCopyPipeline) and
/// run `names`; reads each value global (`types`: the module's, whose names
/// the copy shares) back into a DenseElementsAttr.
FailureOr<llvm::StringMap<DenseElementsAttr>>
runOnHost(ModuleOp copy, PassManager &pipeline, ArrayRef<std::string> names,
          const llvm::StringMap<MemRefType> &types) {
  copy->removeAttr(qops::kTargetAttrName);
  // Private globals get internal linkage: public ones can be looked up.
  for (auto global : copy.getOps<memref::GlobalOp>())
    if (types.contains(global.getSymName()))
      global.setPublic();
  if (failed(pipeline.run(copy)))
    return failure();
  llvm::StringMap<ArrayRef<char>> constants =
      qops::externalizeLargeConstants(copy);
  qops::initializeNativeTarget();
  // -O1: the expressions run once.
  auto transformer = makeOptimizingTransformer(1, 0, nullptr);
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  auto engine = ExecutionEngine::create(copy, engineOptions);
  if (!engine) {
    copy.emitError() << "qops-const-eval: "
                     << llvm::toString(engine.takeError());
    return failure();
  }
  (*engine)->registerSymbols([&](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    for (const auto &constant : constants)
      symbols[interner(constant.getKey())] = {
          llvm::orc::ExecutorAddr::fromPtr(constant.getValue().data()),
          llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  for (const std::string &name : names)
    if (llvm::Error error = (*engine)->invokePacked(name)) {
      copy.emitError() << "qops-const-eval: "
                       << llvm::toString(std::move(error));
      return failure();
    }
  llvm::StringMap<DenseElementsAttr> values;
  for (const auto &entry : types) {
    StringRef name = entry.getKey();
    llvm::Expected<void *> address = (*engine)->lookup(name);
    if (!address) {
      copy.emitError() << "qops-const-eval: " << name << ": "
                       << llvm::toString(address.takeError());
      return failure();
    }
    MemRefType type = entry.getValue();
    values[name] = DenseElementsAttr::getFromRawBuffer(
        RankedTensorType::get(type.getShape(), type.getElementType()),
        ArrayRef<char>(static_cast<const char *>(*address),
                       getValueBytes(type)));
  }
  return values;
}

/// Drops the initializer of an uninitialized global (a block returning
/// undef, as MemRefToLLVM makes it).
void clearInitializer(LLVM::GlobalOp global) {
  global.getInitializerRegion().dropAllReferences();
  global.getInitializerRegion().getBlocks().clear();
}

/// A global the at-link functions write: an external, mutable declaration
/// whose symbol the caller binds to memory of its own.
void declareExternally(LLVM::GlobalOp global) {
  clearInitializer(global);
  global.setConstant(false);
  global.setLinkage(LLVM::Linkage::External);
  global.removeAlignmentAttr();
}

/// The at-link form's copy, lowered (step 1's functions) by `pipeline`
/// (makeCopyPipeline) as step 2 lowers it, to be linked with the module:
/// the value globals (`types`) external
/// declarations (the caller binds them, as in the module:
/// declareConstEvalGlobals), its other globals renamed apart from the
/// module's (bufferization names the constants of each module anew).
LogicalResult lowerCopyForLink(ModuleOp copy, PassManager &pipeline,
                               const llvm::StringMap<MemRefType> &types) {
  copy->removeAttr(qops::kTargetAttrName);
  if (failed(pipeline.run(copy)))
    return failure();
  SymbolTable symbols(copy);
  for (auto global : llvm::to_vector(copy.getOps<LLVM::GlobalOp>())) {
    if (types.contains(global.getSymName())) {
      declareExternally(global);
      continue;
    }
    if (failed(symbols.rename(
            global, ("__qops_const_eval." + global.getSymName()).str())))
      return failure();
  }
  return success();
}

/// Step 3: the values as the globals' constants.
void setValues(const llvm::StringMap<memref::GlobalOp> &globals,
               const llvm::StringMap<DenseElementsAttr> &values) {
  for (const auto &entry : globals) {
    memref::GlobalOp global = entry.getValue();
    global.setInitialValueAttr(values.lookup(entry.getKey()));
    global.setConstant(true);
  }
}

/// Step 3: the guards erased (the globals no longer hoisted values).
void eraseGuards(ModuleOp module,
                 const llvm::StringMap<memref::GlobalOp> &globals) {
  for (const auto &entry : globals)
    entry.getValue()->removeAttr(qops::kHoistedValueAttr);
  // (The scf.ifs: a function made of a compute's body stays.)
  SmallVector<Operation *> guards;
  module.walk([&](scf::IfOp op) {
    if (op->hasAttr(qops::kHoistedComputeAttr) ||
        op->hasAttr(qops::kHoistedWaitAttr))
      guards.push_back(op);
  });
  for (Operation *op : guards)
    op->erase();
  SmallVector<memref::AtomicRMWOp> claims;
  module.walk([&](memref::AtomicRMWOp op) {
    if (op->hasAttr(qops::kHoistedGuardAttr))
      claims.push_back(op);
  });
  for (memref::AtomicRMWOp op : claims) {
    // Its users were the two scf.ifs' conditions.
    Operation *state = op.getMemref().getDefiningOp();
    for (Operation *user : llvm::to_vector(op->getUsers()))
      if (user->use_empty())
        user->erase();
    if (op->use_empty())
      op->erase();
    if (state && state->use_empty())
      state->erase();
  }
  for (auto global : llvm::to_vector(module.getOps<memref::GlobalOp>()))
    if (global->hasAttr(qops::kHoistedStateAttr) &&
        SymbolTable::symbolKnownUseEmpty(global, module))
      global.erase();
}

} // namespace

/// What qops-const-eval hands on: at-link, the functions it made and the
/// globals they fill (for declareConstEvalGlobals); otherwise step 2's
/// result, on its way to qops-const-eval-join.
struct qops::ConstEvalHandoff {
  ConstEvalAt at = ConstEvalAt::Join;
  /// The globals the values are for, by name.
  llvm::StringMap<MemRefType> types;
  /// Join: step 2's result.
  std::future<FailureOr<llvm::StringMap<DenseElementsAttr>>> values;
  /// Link: the functions that compute them.
  std::vector<std::string> functions;
  /// Link, with a compiler: it compiles them, in a module of their own.
  ConstEvalCompiler compile;
  /// Link, with a compiler: lowered and compiled on a thread of their own.
  std::future<LogicalResult> compiled;
};

namespace {

/// At-link with a compiler: the functions are compiled apart from the
/// module (on the other core, while it is lowered) from this many value
/// globals on (a layer's packed b and its sums are two). Fewer are lowered
/// and compiled with the module: apart, one layer's packing costs more
/// than it saves (docs/Performance.md, "The packing at link").
constexpr size_t kApartMinGlobals = 8;

struct QOpsConstEvalPass
    : public PassWrapper<QOpsConstEvalPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(QOpsConstEvalPass)

  explicit QOpsConstEvalPass(
      std::shared_ptr<qops::ConstEvalHandoff> handoff = nullptr)
      : handoff(std::move(handoff)) {}
  QOpsConstEvalPass(const QOpsConstEvalPass &other)
      : PassWrapper(other), handoff(other.handoff), parallel(other.parallel) {}

  StringRef getArgument() const final { return "qops-const-eval"; }
  StringRef getDescription() const final {
    return "Run the expressions qops-hoist-constant-expressions guarded "
           "now, with the JIT, and make their results the globals' "
           "constant values (no computation at the first call); at-link: "
           "keep them as functions for the caller to run once linked";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect, memref::MemRefDialect>();
    // The forms that run the expressions now translate them for the JIT:
    // the dialects a module lowered for a CPU holds. Not upstream's
    // registerAllToLLVMIRTranslations: a pipeline loads every dialect its
    // passes depend on when it starts, and that list adds the GPU ones
    // (NVVM, ROCDL, SPIR-V, OpenACC, XeVM, ...), about 9 M instructions of
    // dialect set-up, and their patterns to the canonicalizers' sets.
    if (!atLink && !(handoff && handoff->at == qops::ConstEvalAt::Link))
      qops::registerCPUToLLVMIRTranslations(registry);
  }

  void runOnOperation() override;
  /// The at-link form: the expressions as functions of the module.
  LogicalResult outline(ModuleOp module,
                        const llvm::StringMap<memref::GlobalOp> &globals);
  /// The at-link form with a compiler: the functions in a copy, lowered
  /// and compiled on a thread of their own.
  LogicalResult compileApart(ModuleOp module,
                             const llvm::StringMap<memref::GlobalOp> &globals);

  Option<bool> atLink{
      *this, "at-link",
      llvm::cl::desc("Move the expressions into functions "
                     "@__qops_const_eval_N (marked qops.hoisted_compute) "
                     "that the caller runs once, after linking and before "
                     "the first call (a JIT), instead of running them now"),
      llvm::cl::init(false)};
  std::shared_ptr<qops::ConstEvalHandoff> handoff;
  /// At-link with a compiler: the functions' loops over threads (the
  /// pipeline's option parallel).
  bool parallel = false;
};

LogicalResult
QOpsConstEvalPass::outline(ModuleOp module,
                           const llvm::StringMap<memref::GlobalOp> &globals) {
  FailureOr<SmallVector<std::string>> names = outlineComputeBodies(module);
  if (failed(names))
    return failure();
  eraseGuards(module, globals);
  if (handoff) {
    handoff->types = getTypes(globals);
    handoff->functions.assign(names->begin(), names->end());
  }
  return success();
}

LogicalResult QOpsConstEvalPass::compileApart(
    ModuleOp module, const llvm::StringMap<memref::GlobalOp> &globals) {
  OwningOpRef<ModuleOp> copy = module.clone();
  FailureOr<SmallVector<std::string>> names = keepComputeBodies(*copy);
  if (failed(names))
    return failure();
  handoff->types = getTypes(globals);
  handoff->functions.assign(names->begin(), names->end());
  handoff->compiled =
      std::async(std::launch::async,
                 [copy = std::move(copy),
                  pipeline = makeCopyPipeline(&getContext(), parallel),
                  types = handoff->types, functions = handoff->functions,
                  compile = handoff->compile]() mutable -> LogicalResult {
                   if (failed(lowerCopyForLink(*copy, *pipeline, types)))
                     return failure();
                   return compile(*copy, functions);
                 });
  eraseGuards(module, globals);
  return success();
}

void QOpsConstEvalPass::runOnOperation() {
  ModuleOp module = getOperation();
  llvm::StringMap<memref::GlobalOp> globals = valueGlobals(module);
  if (globals.empty())
    return;
  if (atLink || (handoff && handoff->at == qops::ConstEvalAt::Link)) {
    bool onThread = handoff && handoff->compile &&
                    getContext().isMultithreadingEnabled() &&
                    globals.size() >= kApartMinGlobals;
    if (failed(onThread ? compileApart(module, globals)
                        : outline(module, globals)))
      signalPassFailure();
    return;
  }
  // The values are read as the host's bytes.
  if (!llvm::sys::IsLittleEndianHost ||
      !llvm::Triple(qops::getTripleFor(module, "")).isLittleEndian())
    return;
  // The copy is lowered and run while this pass holds the module, or on
  // another thread (it is a module of its own).
  OwningOpRef<ModuleOp> copy = module.clone();
  FailureOr<SmallVector<std::string>> names = keepComputeBodies(*copy);
  if (failed(names))
    return signalPassFailure();
  llvm::StringMap<MemRefType> types = getTypes(globals);
  std::unique_ptr<PassManager> pipeline = makeCopyPipeline(&getContext());
  if (handoff && getContext().isMultithreadingEnabled()) {
    handoff->types = types;
    handoff->values = std::async(
        std::launch::async,
        [copy = std::move(copy), pipeline = std::move(pipeline),
         names = std::move(*names), types = std::move(types)]() mutable {
          return runOnHost(*copy, *pipeline, names, types);
        });
    eraseGuards(module, globals);
    return;
  }
  FailureOr<llvm::StringMap<DenseElementsAttr>> values =
      runOnHost(*copy, *pipeline, *names, types);
  if (failed(values))
    return signalPassFailure();
  setValues(globals, *values);
  eraseGuards(module, globals);
}

/// The value of an llvm.mlir.global that MemRefToLLVM made of a constant
/// memref.global of `value`: the elements, or the element of a rank-0 one.
Attribute getGlobalValue(DenseElementsAttr value) {
  if (value.getType().getRank() == 0)
    return value.getSplatValue<Attribute>();
  return value;
}

/// Waits for the values and gives them to the globals of `module`.
LogicalResult join(ModuleOp module, qops::ConstEvalHandoff &handoff) {
  FailureOr<llvm::StringMap<DenseElementsAttr>> values = handoff.values.get();
  if (failed(values))
    return failure(); // runOnHost reported it
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    // (A global the lowering erased had no use left.)
    DenseElementsAttr value = values->lookup(global.getSymName());
    if (!value)
      continue;
    clearInitializer(global);
    global.setValueAttr(getGlobalValue(value));
    global.setConstant(true);
  }
  return success();
}

struct QOpsConstEvalJoinPass
    : public PassWrapper<QOpsConstEvalJoinPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(QOpsConstEvalJoinPass)

  explicit QOpsConstEvalJoinPass(
      std::shared_ptr<qops::ConstEvalHandoff> handoff)
      : handoff(std::move(handoff)) {}

  StringRef getArgument() const final { return "qops-const-eval-join"; }
  StringRef getDescription() const final {
    return "Wait for the values qops-const-eval computes on another thread "
           "and make them the llvm.mlir.globals' constant values";
  }

  void runOnOperation() override {
    // Nothing pending: qops-const-eval ran on this thread.
    if (handoff && handoff->values.valid() &&
        failed(join(getOperation(), *handoff)))
      signalPassFailure();
  }

  std::shared_ptr<qops::ConstEvalHandoff> handoff;
};

} // namespace

std::unique_ptr<Pass>
qops::createQOpsConstEvalPass(std::shared_ptr<ConstEvalHandoff> handoff,
                              bool parallel) {
  auto pass = std::make_unique<QOpsConstEvalPass>(std::move(handoff));
  pass->parallel = parallel;
  return pass;
}

std::unique_ptr<Pass>
qops::createQOpsConstEvalJoinPass(std::shared_ptr<ConstEvalHandoff> handoff) {
  return std::make_unique<QOpsConstEvalJoinPass>(std::move(handoff));
}

std::shared_ptr<qops::ConstEvalHandoff>
qops::makeConstEvalHandoff(ConstEvalAt at) {
  auto handoff = std::make_shared<ConstEvalHandoff>();
  handoff->at = at;
  return handoff;
}

/// The globals that only `functions`, and the functions only they call,
/// refer to.
static std::vector<std::string>
getGlobalsOnlyUsedBy(ModuleOp module, ArrayRef<std::string> functions) {
  llvm::StringSet<> reached;
  SmallVector<LLVM::LLVMFuncOp> work;
  for (auto function : module.getOps<LLVM::LLVMFuncOp>())
    if (!llvm::is_contained(functions, function.getSymName()) &&
        reached.insert(function.getSymName()).second)
      work.push_back(function);
  llvm::StringSet<> used;
  while (!work.empty())
    work.pop_back_val().walk([&](Operation *op) {
      if (auto address = dyn_cast<LLVM::AddressOfOp>(op))
        used.insert(address.getGlobalName());
      auto call = dyn_cast<LLVM::CallOp>(op);
      if (!call || !call.getCallee() ||
          !reached.insert(*call.getCallee()).second)
        return;
      if (auto callee =
              module.lookupSymbol<LLVM::LLVMFuncOp>(*call.getCallee()))
        work.push_back(callee);
    });
  std::vector<std::string> unused;
  for (auto global : module.getOps<LLVM::GlobalOp>())
    if (!used.contains(global.getSymName()))
      unused.push_back(global.getSymName().str());
  return unused;
}

qops::ConstEvalLink qops::declareConstEvalGlobals(ModuleOp module,
                                                  ConstEvalHandoff &handoff) {
  ConstEvalLink link;
  if (handoff.at != ConstEvalAt::Link)
    return link;
  link.functions = handoff.functions;
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    auto type = handoff.types.find(global.getSymName());
    if (type == handoff.types.end())
      continue;
    // Written once, by the functions, then only read.
    ConstEvalLink::Global declared;
    declared.name = global.getSymName().str();
    declared.bytes = getValueBytes(type->getValue());
    declared.alignment = global.getAlignment().value_or(1);
    link.globals.push_back(std::move(declared));
    declareExternally(global);
  }
  link.usedOnlyByThem = getGlobalsOnlyUsedBy(module, link.functions);
  return link;
}

void qops::setConstEvalCompiler(ConstEvalHandoff &handoff,
                                ConstEvalCompiler compile) {
  handoff.compile = std::move(compile);
}

LogicalResult qops::finishConstEval(ConstEvalHandoff &handoff) {
  if (!handoff.compiled.valid())
    return success();
  return handoff.compiled.get();
}

void qops::registerCPUToLLVMIRTranslations(DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  registerArmNeonDialectTranslation(registry);
  registerArmSVEDialectTranslation(registry);
}

void qops::initializeNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // Inline assembly (the AMX permission request) needs the parser.
    llvm::InitializeNativeTargetAsmParser();
  });
}

void qops::registerQOpsConstEvalPass() {
  PassRegistration<QOpsConstEvalPass>();
}

llvm::StringMap<ArrayRef<char>>
qops::externalizeLargeConstants(ModuleOp module, int64_t minBytes) {
  llvm::StringMap<ArrayRef<char>> bytes;
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    std::optional<ArrayRef<char>> raw =
        getConstantBytes(global.getValueOrNull());
    if (!global.getConstant() || !raw ||
        static_cast<int64_t>(raw->size()) < minBytes)
      continue;
    bytes[global.getSymName()] = *raw;
    global->removeAttr(global.getValueAttrName());
    global.removeAlignmentAttr();
    global.setLinkage(LLVM::Linkage::External);
  }
  return bytes;
}
