//===- ObjectCodegen.cpp - A lowered module to object files ---------------===//
//
// See ObjectCodegen.h. For QLinearMatMul 128x768x3072 (one layer, AMX) the
// module is main, its two OpenMP bodies (the kernel, the packing of b) and
// a helper: two parts of 265 and 256 instructions, whose optimisation and
// code generation run side by side.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Runner/ObjectCodegen.h"
#include "QuantOps/Runner/LLVMOptimizer.h"

#include "QuantOps/Pipelines/Pipelines.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/DIExpressionLegalization.h"
#include "mlir/Dialect/LLVMIR/Transforms/LegalizeForExport.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Pass.h"
#include "llvm/Support/SmallVectorMemoryBuffer.h"
#include "llvm/Support/Threading.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>
#include <future>
#include <optional>
#include <thread>

using namespace mlir;
using namespace mlir::qops;
using namespace mlir::qops::runner;

namespace {

using Objects = std::vector<std::unique_ptr<llvm::MemoryBuffer>>;

/// A local constant of at most this many bytes is copied into every part
/// that uses it instead of being shared (a JIT has left the larger ones out
/// of the module: externalizeLargeConstants).
constexpr uint64_t kCopiedConstantBytes = 4096;

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// A mutable global of at least this many bytes that starts undefined is
/// left out of a JIT's objects (externalizeZeroFilledGlobals).
constexpr uint64_t kZeroFilledMinBytes = 65536;

/// Whether `global` is a definition whose initial value is undefined (an
/// initializer region that returns llvm.mlir.undef or llvm.mlir.poison:
/// what bufferization's uninitialized memref.global becomes) or zero.
bool startsUndefinedOrZero(LLVM::GlobalOp global) {
  if (global.getConstant() || global.getValueOrNull() ||
      global.getLinkage() == LLVM::Linkage::External ||
      !global.getInitializerRegion().hasOneBlock())
    return false;
  Block &body = global.getInitializerRegion().front();
  auto ret = dyn_cast<LLVM::ReturnOp>(body.getTerminator());
  if (!ret || ret.getNumOperands() != 1 ||
      !llvm::hasSingleElement(body.without_terminator()))
    return false;
  Operation *value = ret.getOperand(0).getDefiningOp();
  return isa_and_nonnull<LLVM::UndefOp, LLVM::PoisonOp, LLVM::ZeroOp>(value);
}

/// The large mutable globals of `module` that start undefined or zero (the
/// hoisted packed weights, which the first call writes) become external
/// declarations with their alignment; returns each one's size and
/// alignment, for a JIT to bind the symbol to fresh zero pages. Left in,
/// each is a .bss section that RuntimeDyld zero-fills page by page while it
/// links, on the compile's critical path: 2.4 MB for QLinearMatMul
/// 128x768x3072 (1.4 ms of a 2.1 ms link), 28 MB for FFN12 (about 13 ms).
/// Fresh pages are zero already and are touched first by the first call's
/// packing, which writes them anyway.
llvm::StringMap<ZeroFilledGlobal>
externalizeZeroFilledGlobals(ModuleOp module) {
  llvm::StringMap<ZeroFilledGlobal> globals;
  DataLayout layout(module);
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    if (!startsUndefinedOrZero(global))
      continue;
    uint64_t size = layout.getTypeSize(global.getGlobalType());
    if (size < kZeroFilledMinBytes)
      continue;
    globals[global.getSymName()] = {size, global.getAlignment().value_or(1)};
    global.getInitializerRegion().getBlocks().clear();
    global.setLinkage(LLVM::Linkage::External);
  }
  return globals;
}

/// One translation of the module, in its own context.
struct Part {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
};

llvm::Expected<Part> translate(ModuleOp module,
                               const ObjectCodegenOptions &options) {
  Part part;
  part.context = std::make_unique<llvm::LLVMContext>();
  part.module = translateModuleToLLVMIR(module, *part.context);
  if (!part.module)
    return makeError("translation to LLVM IR failed");
  if (options.prepare)
    options.prepare(*part.module);
  // Names for the unnamed (numbered) globals, the same in every part.
  unsigned index = 0;
  for (llvm::GlobalObject &object : part.module->global_objects())
    if (!object.hasName())
      object.setName("__qops_part_unnamed_" + llvm::Twine(index++));
  return part;
}

/// The names of the module's functions and globals, in order: two
/// translations of one module must agree on them.
std::vector<std::string> getSymbolNames(const llvm::Module &module) {
  std::vector<std::string> names;
  for (const llvm::GlobalObject &object : module.global_objects())
    names.push_back(object.getName().str());
  return names;
}

/// Whether a part can be given less than the whole module.
bool canSplit(const llvm::Module &module) {
  if (!module.alias_empty() || !module.ifunc_empty())
    return false;
  for (const llvm::GlobalObject &object : module.global_objects())
    if (object.hasComdat() || object.hasAppendingLinkage())
      return false;
  return true;
}

/// A small local constant whose initializer names no other global: copied
/// into each part.
bool isCopiedConstant(const llvm::GlobalVariable &global) {
  if (!global.isConstant() || !global.hasLocalLinkage() ||
      !global.hasInitializer())
    return false;
  const llvm::DataLayout &layout = global.getParent()->getDataLayout();
  if (layout.getTypeAllocSize(global.getValueType()) > kCopiedConstantBytes)
    return false;
  llvm::SmallVector<const llvm::Constant *> work{global.getInitializer()};
  while (!work.empty()) {
    const llvm::Constant *constant = work.pop_back_val();
    if (isa<llvm::GlobalValue>(constant))
      return false;
    for (const llvm::Use &operand : constant->operands())
      work.push_back(cast<llvm::Constant>(operand.get()));
  }
  return true;
}

/// Which part keeps the body of each function, by name; part 0 keeps the
/// definitions of the globals that are not copied (initializers cost
/// translation and linking, which are not on threads, more than
/// optimisation; a JIT leaves the largest out: externalizeConstants).
struct Plan {
  unsigned parts = 1;
  llvm::StringMap<unsigned> partOf;
};

/// Groups the functions that call one another directly (a noinline callee
/// excepted) and deals the groups, largest first (instructions), to the
/// least loaded of at most `most` parts.
Plan makePlan(llvm::Module &module, unsigned most) {
  Plan plan;
  if (most < 2 || !canSplit(module))
    return plan;
  llvm::DenseMap<llvm::Function *, llvm::Function *> parent;
  std::vector<llvm::Function *> functions;
  for (llvm::Function &function : module)
    if (!function.isDeclaration()) {
      parent[&function] = &function;
      functions.push_back(&function);
    }
  auto find = [&](llvm::Function *function) {
    while (parent.lookup(function) != function)
      function = parent.lookup(function);
    return function;
  };
  for (llvm::Function *function : functions)
    for (llvm::Instruction &inst : llvm::instructions(*function))
      if (auto *call = dyn_cast<llvm::CallBase>(&inst))
        if (llvm::Function *callee = call->getCalledFunction())
          if (parent.count(callee) &&
              !callee->hasFnAttribute(llvm::Attribute::NoInline))
            parent[find(callee)] = find(function);

  // The groups by size, largest first, then in module order; a group is
  // named by its root.
  llvm::DenseMap<llvm::Function *, size_t> size, order;
  std::vector<llvm::Function *> roots;
  for (llvm::Function *function : functions) {
    llvm::Function *root = find(function);
    if (!size.count(root)) {
      order[root] = roots.size();
      roots.push_back(root);
    }
    size[root] += function->getInstructionCount();
  }
  if (roots.size() < 2)
    return plan;
  llvm::sort(roots, [&](llvm::Function *a, llvm::Function *b) {
    return std::make_pair(size.lookup(b), order.lookup(a)) <
           std::make_pair(size.lookup(a), order.lookup(b));
  });
  plan.parts = std::min<size_t>(most, roots.size());
  std::vector<size_t> load(plan.parts, 0);
  llvm::DenseMap<llvm::Function *, unsigned> partOfRoot;
  for (llvm::Function *root : roots) {
    unsigned part = std::min_element(load.begin(), load.end()) - load.begin();
    partOfRoot[root] = part;
    load[part] += size.lookup(root);
  }
  for (llvm::Function *function : functions)
    plan.partOf[function->getName()] = partOfRoot.lookup(find(function));
  return plan;
}

/// The part of the function an instruction or constant that uses a global is
/// in; -1 for a use all parts share (a copied constant's initializer).
void collectUserParts(const llvm::Value *value, const Plan &plan,
                      llvm::SmallVectorImpl<int> &parts) {
  for (const llvm::User *user : value->users()) {
    if (auto *inst = dyn_cast<llvm::Instruction>(user))
      parts.push_back(plan.partOf.lookup(inst->getFunction()->getName()));
    else if (auto *global = dyn_cast<llvm::GlobalVariable>(user))
      parts.push_back(isCopiedConstant(*global)
                          ? -1
                          : plan.partOf.lookup(global->getName()));
    else if (isa<llvm::Constant>(user))
      collectUserParts(user, plan, parts);
    else
      parts.push_back(-1);
  }
}

/// The local functions and globals that another part refers to: they
/// become external, with one definition.
llvm::StringSet<> getSharedLocals(llvm::Module &module, const Plan &plan) {
  llvm::StringSet<> shared;
  for (llvm::GlobalObject &object : module.global_objects()) {
    if (object.isDeclaration() || !object.hasLocalLinkage())
      continue;
    auto *global = dyn_cast<llvm::GlobalVariable>(&object);
    if (global && isCopiedConstant(*global))
      continue;
    int home = plan.partOf.lookup(object.getName());
    llvm::SmallVector<int> parts;
    collectUserParts(&object, plan, parts);
    if (llvm::any_of(parts, [&](int part) { return part != home; }))
      shared.insert(object.getName());
  }
  return shared;
}

/// Keeps part `part` of the module: the bodies of its functions, the
/// definitions of its shared globals (globals are not in the plan: part 0);
/// the rest declared.
void keepPart(llvm::Module &module, const Plan &plan,
              const llvm::StringSet<> &shared, unsigned part) {
  for (llvm::GlobalObject &object : module.global_objects()) {
    if (object.isDeclaration())
      continue;
    auto *global = dyn_cast<llvm::GlobalVariable>(&object);
    if (global && isCopiedConstant(*global))
      continue;
    unsigned home = plan.partOf.lookup(object.getName());
    bool isShared = shared.contains(object.getName());
    if (home == part) {
      if (isShared) {
        object.setLinkage(llvm::GlobalValue::ExternalLinkage);
        object.setVisibility(llvm::GlobalValue::DefaultVisibility);
        object.setDSOLocal(true);
      }
      continue;
    }
    if (auto *function = dyn_cast<llvm::Function>(&object))
      function->deleteBody();
    else
      global->setInitializer(nullptr);
    object.setLinkage(llvm::GlobalValue::ExternalLinkage);
    object.setVisibility(llvm::GlobalValue::DefaultVisibility);
    object.setDSOLocal(false);
  }
}

/// Whether the module calls AMX intrinsics (llvm.x86.tileloadd64.internal,
/// llvm.x86.tdpbusd.internal, ...).
bool usesAmx(const llvm::Module &module) {
  return llvm::any_of(module, isAmxIntrinsic);
}

/// The code generation passes of a part, less LLVM's loop strength
/// reduction where `skipLoopStrengthReduction` (canSkipLoopStrengthReduction):
/// the pass is not added, so that the analysis only it requires (induction
/// variable users: 2 ms of QLinearMatMul 128x768x3072's kernel part, Zen 4)
/// is not computed either.
class CodegenPassManager : public llvm::legacy::PassManager {
public:
  explicit CodegenPassManager(bool skipLoopStrengthReduction)
      : skipLoopStrengthReduction(skipLoopStrengthReduction) {}
  void add(llvm::Pass *pass) override {
    if (skipLoopStrengthReduction &&
        pass->getPassName() == "Loop Strength Reduction") {
      delete pass;
      return;
    }
    llvm::legacy::PassManager::add(pass);
  }

private:
  bool skipLoopStrengthReduction;
};

/// A part's code generation passes for one machine, writing into `bytes`.
struct CodegenSetup {
  explicit CodegenSetup(bool skipLoopStrengthReduction)
      : passes(skipLoopStrengthReduction) {}
  llvm::SmallVector<char, 0> bytes;
  llvm::raw_svector_ostream stream{bytes};
  CodegenPassManager passes;
};

llvm::Expected<std::unique_ptr<CodegenSetup>>
setUpCodegen(llvm::TargetMachine &machine, bool skipLoopStrengthReduction) {
  auto setup = std::make_unique<CodegenSetup>(skipLoopStrengthReduction);
  if (machine.addPassesToEmitFile(setup->passes, setup->stream, nullptr,
                                  llvm::CodeGenFileType::ObjectFile))
    return makeError("the target cannot emit object files");
  return setup;
}

} // namespace

/// A machine and its code generation passes, without and with loop
/// strength reduction (which one a part uses is known after its
/// optimisation). The passes refer to the machine: declared after it, they
/// are destroyed before it.
struct mlir::qops::runner::PreparedMachine {
  std::unique_ptr<llvm::TargetMachine> machine;
  std::unique_ptr<CodegenSetup> codegen[2]; // [skipLoopStrengthReduction]
};

namespace {

/// LLVM's pipeline and code generation of one part, on the calling thread,
/// with a machine from the supply if there is one. AMX code is generated at
/// O1 at least: LLVM 22's O0 lowering of AMX tiles gives IR its verifier
/// rejects (llc -O0 stops in the Module Verifier on
/// qmm_two_layers_48x96x80's kernel; -O1 compiles it); its passes are then
/// set up again.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
optimizeAndEmit(llvm::Module &module, const ObjectCodegenOptions &options) {
  std::unique_ptr<PreparedMachine> prepared =
      options.machines ? options.machines->take() : nullptr;
  if (!prepared) {
    llvm::Expected<std::unique_ptr<llvm::TargetMachine>> made =
        options.makeMachine();
    if (!made)
      return made.takeError();
    prepared = std::make_unique<PreparedMachine>();
    prepared->machine = std::move(*made);
  }
  llvm::TargetMachine &machine = *prepared->machine;
  module.setDataLayout(machine.createDataLayout());
  module.setTargetTriple(machine.getTargetTriple());
  if (options.optLevel == 0 && usesAmx(module)) {
    machine.setOptLevel(llvm::CodeGenOptLevel::Less);
    for (std::unique_ptr<CodegenSetup> &setup : prepared->codegen)
      setup.reset();
  }
  if (llvm::Error error = makeLLVMOptimizer(options.optLevel, &machine,
                                            options.kernelsModule)(&module))
    return std::move(error);
  markRunOnceForFastCodegen(module);
  bool skip = options.optLevel > 0 && canSkipLoopStrengthReduction(module);
  std::unique_ptr<CodegenSetup> &codegen = prepared->codegen[skip];
  if (!codegen) {
    llvm::Expected<std::unique_ptr<CodegenSetup>> setup =
        setUpCodegen(machine, skip);
    if (!setup)
      return setup.takeError();
    codegen = std::move(*setup);
  }
  codegen->passes.run(module);
  return std::make_unique<llvm::SmallVectorMemoryBuffer>(
      std::move(codegen->bytes), module.getModuleIdentifier() + ".o",
      /*RequiresNullTerminator=*/false);
}

/// The plan of the parts, made from part 0's translation, and what every
/// part needs from it.
struct SharedPlan {
  Plan plan;
  llvm::StringSet<> shared;       // getSharedLocals
  std::vector<std::string> names; // getSymbolNames
};

/// Generates the objects of at most `most` parts, each part on a thread of
/// its own (part 0 on this one), each thread translating the module first:
/// the translations run side by side, the other threads then wait for part
/// 0's plan (a thread the plan leaves without a part stops there). The
/// translations only read the module: what translateModuleToLLVMIR would
/// change in it (distinct successors, DI expressions) is done before, when
/// there are other threads.
llvm::Expected<Objects> emitParts(ModuleOp module, unsigned most,
                                  const ObjectCodegenOptions &options) {
  if (most > 1) {
    LLVM::ensureDistinctSuccessors(module);
    LLVM::legalizeDIExpressionsRecursively(module);
  }
  Objects objects(most);
  std::vector<std::string> errors(most);
  std::promise<const SharedPlan *> planned; // nullptr: no plan, stop
  std::shared_future<const SharedPlan *> plan = planned.get_future().share();
  auto emit = [&](unsigned index, llvm::Module &part, const SharedPlan &p) {
    if (p.plan.parts > 1)
      keepPart(part, p.plan, p.shared, index);
    auto object = optimizeAndEmit(part, options);
    if (object)
      objects[index] = std::move(*object);
    else
      errors[index] = llvm::toString(object.takeError());
  };
  auto translateAndEmit = [&](unsigned index) {
    llvm::Expected<Part> part = translate(module, options);
    const SharedPlan *p = plan.get();
    if (!p || index >= p->plan.parts) {
      if (!part)
        llvm::consumeError(part.takeError());
      return;
    }
    if (!part)
      errors[index] = llvm::toString(part.takeError());
    // The parts refer to one another's symbols by name (never seen).
    else if (getSymbolNames(*part->module) != p->names)
      errors[index] = "two translations of the module to LLVM IR differ";
    else
      emit(index, *part->module, *p);
  };
  std::vector<std::thread> threads;
  for (unsigned index = 1; index < most; ++index)
    threads.emplace_back(translateAndEmit, index);
  llvm::Expected<Part> first = translate(module, options);
  std::optional<SharedPlan> shared;
  if (first) {
    shared.emplace(SharedPlan{makePlan(*first->module, most), {}, {}});
    if (shared->plan.parts > 1) {
      shared->shared = getSharedLocals(*first->module, shared->plan);
      shared->names = getSymbolNames(*first->module);
    }
    planned.set_value(&*shared);
    emit(0, *first->module, *shared);
  } else {
    planned.set_value(nullptr);
  }
  for (std::thread &thread : threads)
    thread.join();
  if (!first)
    return first.takeError();
  objects.resize(shared->plan.parts);
  for (const std::string &error : errors)
    if (!error.empty())
      return makeError(error);
  return objects;
}

/// The most functions the translation of `module` defines: its own, the
/// bodies OpenMP's translation outlines (one per omp.parallel) and the
/// wrapper a JIT adds (ObjectCodegenOptions::prepare). A bound on the parts
/// known before the translation that makes the plan.
unsigned countFunctionDefinitions(ModuleOp module) {
  unsigned count = 1;
  module.walk([&](Operation *op) {
    if (auto function = dyn_cast<LLVM::LLVMFuncOp>(op))
      count += !function.isExternal();
    else if (isa<omp::ParallelOp>(op))
      ++count;
  });
  return count;
}

} // namespace

MachineSupply::MachineSupply(unsigned count, MachineFactory factory,
                             std::string cpu, std::string features) {
  thread = std::thread([this, count, factory = std::move(factory),
                        cpu = std::move(cpu), features = std::move(features)] {
    make(count, factory, cpu, features);
  });
}

MachineSupply::~MachineSupply() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  thread.join();
}

void MachineSupply::make(unsigned count, const MachineFactory &factory,
                         const std::string &cpu, const std::string &features) {
  // A function with the attributes of the ones to compile: the subtarget
  // is made for it, and kept by the machine for theirs.
  llvm::LLVMContext context;
  llvm::Module module("machine-supply", context);
  auto *function = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), false),
      llvm::GlobalValue::ExternalLinkage, "f", module);
  if (!cpu.empty())
    function->addFnAttr("target-cpu", cpu);
  if (!features.empty())
    function->addFnAttr("target-features", features);
  for (unsigned index = 0; index < count; ++index) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (stopping)
        break;
    }
    llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine = factory();
    if (!machine) {
      llvm::consumeError(machine.takeError()); // the part's own call says it
      break;
    }
    auto prepared = std::make_unique<PreparedMachine>();
    prepared->machine = std::move(*machine);
    prepared->machine->getSubtargetImpl(*function);
    for (bool skip : {false, true}) {
      llvm::Expected<std::unique_ptr<CodegenSetup>> setup =
          setUpCodegen(*prepared->machine, skip);
      if (!setup) {
        llvm::consumeError(setup.takeError()); // the part says it
        break;
      }
      prepared->codegen[skip] = std::move(*setup);
    }
    std::lock_guard<std::mutex> lock(mutex);
    ready.push_back(std::move(prepared));
    changed.notify_all();
  }
  std::lock_guard<std::mutex> lock(mutex);
  making = false;
  changed.notify_all();
}

std::unique_ptr<PreparedMachine> MachineSupply::take() {
  std::unique_lock<std::mutex> lock(mutex);
  changed.wait(lock, [&] { return !ready.empty() || !making; });
  if (ready.empty())
    return nullptr;
  std::unique_ptr<PreparedMachine> machine = std::move(ready.back());
  ready.pop_back();
  return machine;
}

unsigned runner::getMostParts(unsigned parts) {
  return parts ? parts
               : std::max(1u,
                          llvm::hardware_concurrency().compute_thread_count());
}

llvm::Expected<CompiledModule>
runner::compileToObjects(ModuleOp module, const ObjectCodegenOptions &options) {
  CompiledModule compiled;
  // The copy shares the constants' attributes: it copies operations only.
  OwningOpRef<ModuleOp> copy;
  if (options.externalizeConstants) {
    copy = module.clone();
    compiled.constants = externalizeLargeConstants(*copy);
    compiled.zeroFilled = externalizeZeroFilledGlobals(*copy);
    module = *copy;
  }
  unsigned most =
      std::min(getMostParts(options.parts), countFunctionDefinitions(module));
  // LLVM's pass timers (-time-passes) are not for several threads.
  if (llvm::TimePassesIsEnabled)
    most = 1;
  llvm::Expected<Objects> objects = emitParts(module, most, options);
  if (!objects)
    return objects.takeError();
  compiled.objects = std::move(*objects);
  return compiled;
}
