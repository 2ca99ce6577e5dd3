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
// In that pipeline (a ConstEvalHandoff given, the context multithreaded),
// steps 1 and 3's erasing happen at once and step 2 runs on a thread of its
// own while the module goes on through bufferization and the LLVM
// conversions; qops-const-eval-join, before qops-byte-constant-globals,
// waits for it and gives the llvm.mlir.globals (private, uninitialized
// until then) the values: constant, as the conversion of a constant
// memref.global makes them. A JIT joins later still: given the handoff, the
// pipeline has no join, and the session declares the globals
// (declareConstEvalGlobals), generates the code and binds their symbols to
// the values when it links (takeConstEvalValues: the bytes where the
// ExecutionEngine wrote them, which the session's constants keep alive). Step 2 (30 to 48 ms for a
// 768 x 3072 b on a Zen 4, the copy's pipeline and the JIT) then overlaps
// the module's lowering and code generation on the other core.
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
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
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

/// Step 1: `copy` reduced to one function per compute scf.if, each
/// holding its body but the final atomic store. Returns their names.
SmallVector<std::string> keepComputeBodies(ModuleOp copy) {
  SmallVector<scf::IfOp> computes;
  copy.walk([&](scf::IfOp op) {
    if (op->hasAttr(qops::kHoistedComputeAttr))
      computes.push_back(op);
  });
  SmallVector<std::string> names;
  OpBuilder b(copy.getContext());
  for (auto [i, compute] : llvm::enumerate(computes)) {
    b.setInsertionPointToEnd(copy.getBody());
    std::string name = "__qops_const_eval_" + std::to_string(i);
    auto func = func::FuncOp::create(b, compute.getLoc(), name,
                                     b.getFunctionType({}, {}));
    b.setInsertionPointToStart(func.addEntryBlock());
    IRMapping mapping;
    for (Operation &op : compute.thenBlock()->without_terminator())
      if (!isa<memref::AtomicRMWOp>(op)) // the guard's "ready"
        b.clone(op, mapping);
    func::ReturnOp::create(b, compute.getLoc());
    names.push_back(name);
  }
  for (auto func : llvm::to_vector(copy.getOps<func::FuncOp>()))
    if (!StringRef(func.getSymName()).starts_with("__qops_const_eval_"))
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
/// the LLVM conversions for the host, serial, with malloc / free.
void buildCopyPipeline(PassManager &pm) {
  qops::buildQOpsBufferizePipeline(pm);
  pm.addNestedPass<func::FuncOp>(createForallToParallelLoopPass());
  qops::QOpsPipelineOptions options;
  qops::buildQOpsLinalgToLLVMPipeline(pm, options);
}

/// Step 2: lower `copy` for the host and run `names`; finds each value
/// global (`types`: the module's, whose names the copy shares) in the
/// engine's memory.
FailureOr<qops::ConstEvalBytes>
runOnHost(ModuleOp copy, ArrayRef<std::string> names,
          const llvm::StringMap<MemRefType> &types) {
  copy->removeAttr(qops::kTargetAttrName);
  // Private globals get internal linkage: public ones can be looked up.
  for (auto global : copy.getOps<memref::GlobalOp>())
    if (types.contains(global.getSymName()))
      global.setPublic();
  PassManager pm(copy.getContext(), ModuleOp::getOperationName());
  buildCopyPipeline(pm);
  if (failed(pm.run(copy)))
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
  qops::ConstEvalBytes values;
  for (const auto &entry : types) {
    StringRef name = entry.getKey();
    llvm::Expected<void *> address = (*engine)->lookup(name);
    if (!address) {
      copy.emitError() << "qops-const-eval: " << name << ": "
                       << llvm::toString(address.takeError());
      return failure();
    }
    MemRefType type = entry.getValue();
    int64_t bytes = type.getNumElements() *
                    llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    values.bytes[name] =
        ArrayRef<char>(static_cast<const char *>(*address), bytes);
  }
  values.owner = std::shared_ptr<ExecutionEngine>(std::move(*engine));
  return values;
}

/// The values as attributes of the module's context, by global name.
llvm::StringMap<DenseElementsAttr>
getAttributes(const qops::ConstEvalBytes &values,
              const llvm::StringMap<MemRefType> &types) {
  llvm::StringMap<DenseElementsAttr> attributes;
  for (const auto &entry : types) {
    MemRefType type = entry.getValue();
    auto tensorType =
        RankedTensorType::get(type.getShape(), type.getElementType());
    attributes[entry.getKey()] = DenseElementsAttr::getFromRawBuffer(
        tensorType, values.bytes.lookup(entry.getKey()));
  }
  return attributes;
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
  SmallVector<Operation *> guards;
  module.walk([&](Operation *op) {
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

/// Loads the dialects `pm` depends on, as its run would: on the thread
/// that holds the module, before another runs `pm` in the same context
/// (loading a dialect is not safe while other threads work in it).
void loadDependentDialects(PassManager &pm) {
  DialectRegistry registry;
  pm.getDependentDialects(registry);
  MLIRContext *context = pm.getContext();
  context->appendDialectRegistry(registry);
  for (StringRef name : registry.getDialectNames())
    context->getOrLoadDialect(name);
}

} // namespace

/// Step 2's result, on its way from qops-const-eval to qops-const-eval-join
/// or to a caller that joins it (declareConstEvalGlobals,
/// takeConstEvalValues).
struct qops::ConstEvalHandoff {
  std::future<FailureOr<ConstEvalBytes>> values;
  /// The globals whose values are on their way, by name.
  llvm::StringMap<MemRefType> types;
  /// Those declareConstEvalGlobals made external declarations.
  llvm::StringSet<> declared;
};

namespace {

struct QOpsConstEvalPass
    : public PassWrapper<QOpsConstEvalPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(QOpsConstEvalPass)

  explicit QOpsConstEvalPass(
      std::shared_ptr<qops::ConstEvalHandoff> handoff = nullptr)
      : handoff(std::move(handoff)) {}

  StringRef getArgument() const final { return "qops-const-eval"; }
  StringRef getDescription() const final {
    return "Run the expressions qops-hoist-constant-expressions guarded "
           "now, with the JIT, and make their results the globals' "
           "constant values (no computation at the first call)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect, memref::MemRefDialect>();
    registerAllToLLVMIRTranslations(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringMap<memref::GlobalOp> globals = valueGlobals(module);
    if (globals.empty() || !llvm::sys::IsLittleEndianHost ||
        !llvm::Triple(qops::getTripleFor(module, "")).isLittleEndian())
      return;
    // The copy is lowered and run while this pass holds the module, or
    // on another thread (it is a module of its own).
    OwningOpRef<ModuleOp> copy = module.clone();
    SmallVector<std::string> names = keepComputeBodies(*copy);
    llvm::StringMap<MemRefType> types = getTypes(globals);
    if (handoff && getContext().isMultithreadingEnabled()) {
      PassManager pm(&getContext(), ModuleOp::getOperationName());
      buildCopyPipeline(pm);
      loadDependentDialects(pm);
      handoff->types = types;
      handoff->values = std::async(
          std::launch::async, [copy = std::move(copy), names = std::move(names),
                               types = std::move(types)]() mutable {
            return runOnHost(*copy, names, types);
          });
      eraseGuards(module, globals);
      return;
    }
    FailureOr<qops::ConstEvalBytes> values = runOnHost(*copy, names, types);
    if (failed(values))
      return signalPassFailure();
    setValues(globals, getAttributes(*values, types));
    eraseGuards(module, globals);
  }

  std::shared_ptr<qops::ConstEvalHandoff> handoff;
};

/// The value of an llvm.mlir.global that MemRefToLLVM made of a constant
/// memref.global of `value`: the elements, or the element of a rank-0 one.
Attribute getGlobalValue(DenseElementsAttr value) {
  if (value.getType().getRank() == 0)
    return value.getSplatValue<Attribute>();
  return value;
}

/// Drops the initializer of an uninitialized global (a block returning
/// undef, as MemRefToLLVM makes it).
void clearInitializer(LLVM::GlobalOp global) {
  global.getInitializerRegion().dropAllReferences();
  global.getInitializerRegion().getBlocks().clear();
}

/// Waits for the values and gives them to the globals of `module`.
LogicalResult join(ModuleOp module, qops::ConstEvalHandoff &handoff) {
  FailureOr<qops::ConstEvalBytes> bytes = handoff.values.get();
  if (failed(bytes))
    return failure(); // runOnHost reported it
  llvm::StringMap<DenseElementsAttr> values =
      getAttributes(*bytes, handoff.types);
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    // (A global the lowering erased had no use left.)
    DenseElementsAttr value = values.lookup(global.getSymName());
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
qops::createQOpsConstEvalPass(std::shared_ptr<ConstEvalHandoff> handoff) {
  return std::make_unique<QOpsConstEvalPass>(std::move(handoff));
}

std::unique_ptr<Pass>
qops::createQOpsConstEvalJoinPass(std::shared_ptr<ConstEvalHandoff> handoff) {
  return std::make_unique<QOpsConstEvalJoinPass>(std::move(handoff));
}

std::shared_ptr<qops::ConstEvalHandoff> qops::makeConstEvalHandoff() {
  return std::make_shared<ConstEvalHandoff>();
}

LogicalResult qops::declareConstEvalGlobals(ModuleOp module,
                                            ConstEvalHandoff &handoff) {
  if (!handoff.values.valid())
    return success(); // nothing pending
  // A symbol binds bytes: elements of whole bytes only (i1 and 4-bit
  // elements wait for their values here).
  if (!llvm::all_of(handoff.types, [](const auto &entry) {
        return entry.getValue().getElementTypeBitWidth() % 8 == 0;
      }))
    return join(module, handoff);
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    if (!handoff.types.contains(global.getSymName()))
      continue;
    // As externalizeLargeConstants declares the weights.
    clearInitializer(global);
    global.setConstant(true);
    global.setLinkage(LLVM::Linkage::External);
    global.removeAlignmentAttr();
    handoff.declared.insert(global.getSymName());
  }
  return success();
}

FailureOr<qops::ConstEvalBytes>
qops::takeConstEvalValues(ConstEvalHandoff &handoff) {
  ConstEvalBytes declared;
  if (handoff.declared.empty())
    return declared;
  FailureOr<ConstEvalBytes> values = handoff.values.get();
  if (failed(values))
    return failure();
  declared.owner = values->owner;
  for (const auto &name : handoff.declared)
    declared.bytes[name.getKey()] = values->bytes.lookup(name.getKey());
  return declared;
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
