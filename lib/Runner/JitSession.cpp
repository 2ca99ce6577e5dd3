//===- JitSession.cpp - JIT-compile and call a tensor function ------------===//
//
// The calling convention is mlir::ExecutionEngine's packed wrapper
// `_mlir_<name>(void **args)`: one pointer per expanded LLVM argument, then a
// pointer to the result. After bufferization and LLVM lowering a memref of
// rank r is passed as r-independent scalars
//
//   allocated ptr, aligned ptr, offset, sizes[r], strides[r]
//
// and returned as the struct of the same fields (several results: a struct
// of such structs). All fields are 8 bytes, so a descriptor is 3 + 2r words.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Runner/JitSession.h"
#include "QuantOps/Runner/ObjectCodegen.h"

#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h"
#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"
#include "QuantOps/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/bit.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/ExecutionEngine/JITEventListener.h"
#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/IndirectionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Memory.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <chrono>
#include <csetjmp>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <set>
#include <unordered_map>

using namespace mlir;
using namespace mlir::qops;
using namespace mlir::qops::runner;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static std::string typeToString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

//===----------------------------------------------------------------------===//
// Element types at the boundary
//===----------------------------------------------------------------------===//

llvm::Expected<ElementKind> runner::getHostElementKind(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type)) {
    bool isUnsigned = intType.isUnsigned();
    switch (intType.getWidth()) {
    case 2:
    case 4:
    case 8:
      return isUnsigned ? ElementKind::U8 : ElementKind::I8;
    case 16:
      return isUnsigned ? ElementKind::U16 : ElementKind::I16;
    case 32:
      if (!isUnsigned)
        return ElementKind::I32;
      break;
    case 64:
      if (!isUnsigned)
        return ElementKind::I64;
      break;
    default:
      break;
    }
  } else if (type.isF32()) {
    return ElementKind::F32;
  } else if (type.isF16()) {
    return ElementKind::F16;
  } else if (type.isBF16()) {
    return ElementKind::BF16;
  } else if (type.isF64()) {
    return ElementKind::F64;
  } else if (isFloat8Type(type) || isFloat4Type(type) ||
             isFloat8E8M0Type(type)) {
    return ElementKind::U8; // raw bit patterns
  }
  return makeError("element type " + typeToString(type) +
                   " cannot be passed to or from quant-runner");
}

/// Signless i8/i16 (already-lowered IR without ONNX types) take either
/// signedness; bf16 also takes its raw bits as u2 (numpy has no bf16).
static bool kindMatches(ElementKind got, ElementKind expected, Type type) {
  if (got == expected)
    return true;
  if (expected == ElementKind::BF16 && got == ElementKind::U16)
    return true;
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType || !intType.isSignless())
    return false;
  return (expected == ElementKind::I8 && got == ElementKind::U8) ||
         (expected == ElementKind::I16 && got == ElementKind::U16);
}

/// The range of values a one-element-per-byte sub-byte type may hold.
static std::optional<std::pair<int, int>> getSubByteRange(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type)) {
    if (intType.getWidth() >= 8)
      return std::nullopt;
    return std::make_pair(int(getIntegerTypeMin(type)),
                          int(getIntegerTypeMax(type)));
  }
  if (isFloat4Type(type))
    return std::make_pair(0, 15);
  return std::nullopt;
}

llvm::Error runner::checkTensorMatchesType(const HostTensorView &tensor,
                                           RankedTensorType type,
                                           llvm::StringRef what) {
  Type element = type.getElementType();
  llvm::Expected<ElementKind> expected = getHostElementKind(element);
  if (!expected)
    return expected.takeError();
  if (!kindMatches(tensor.kind, *expected, element))
    return makeError(llvm::formatv(
        "{0}: dtype {1} does not match {2} (expects {3})", what,
        getKindName(tensor.kind), typeToString(type),
        getKindName(*expected)));
  bool shapeMatches = int64_t(tensor.shape.size()) == type.getRank();
  for (int64_t d = 0; shapeMatches && d < type.getRank(); ++d)
    shapeMatches = type.isDynamicDim(d) ||
                   type.getDimSize(d) == tensor.shape[d];
  if (!shapeMatches)
    return makeError(llvm::formatv("{0}: shape {1} does not match {2}", what,
                                   formatShape(tensor.shape),
                                   typeToString(type)));
  if (std::optional<std::pair<int, int>> range = getSubByteRange(element)) {
    bool isSigned = tensor.kind == ElementKind::I8;
    for (int64_t i = 0, e = tensor.numElements(); i < e; ++i) {
      int value = isSigned ? int(int8_t(tensor.data[i])) : int(tensor.data[i]);
      if (value < range->first || value > range->second)
        return makeError(llvm::formatv(
            "{0}: element {1} is {2}, outside the range [{3}, {4}] of {5}",
            what, formatShape(unflattenIndex(tensor.shape, i)), value,
            range->first, range->second, typeToString(element)));
    }
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Signature
//===----------------------------------------------------------------------===//

llvm::Expected<TensorSignature>
runner::getTensorSignature(ModuleOp module, llvm::StringRef funcName) {
  Operation *symbol = module.lookupSymbol(funcName);
  if (!symbol)
    return makeError("no function named '" + funcName + "' in the module");
  FunctionType type;
  if (auto attr = symbol->getAttrOfType<TypeAttr>(kSignatureAttrName))
    type = dyn_cast<FunctionType>(attr.getValue());
  else if (auto func = dyn_cast<func::FuncOp>(symbol))
    type = func.getFunctionType();
  if (!type)
    return makeError("function '" + funcName +
                     "' has no tensor signature (no '" + kSignatureAttrName +
                     "' attribute): lower it with quant-opt "
                     "--qops-lower-to-llvm, or run quant-runner without "
                     "--no-lower");
  return getTensorSignature(type, funcName);
}

llvm::Expected<TensorSignature>
runner::getTensorSignature(FunctionType type, llvm::StringRef funcName) {
  TensorSignature signature;
  auto collect = [&](TypeRange types, std::vector<RankedTensorType> &out,
                     StringRef what) -> llvm::Error {
    for (auto [i, t] : llvm::enumerate(types)) {
      auto tensorType = dyn_cast<RankedTensorType>(t);
      if (!tensorType)
        return makeError(llvm::formatv(
            "function '{0}': {1} #{2} has type {3}; only ranked tensors are "
            "supported",
            funcName, what, i, typeToString(t)));
      if (auto kind = getHostElementKind(tensorType.getElementType());
          !kind)
        return makeError(llvm::formatv("function '{0}': {1} #{2}: {3}",
                                       funcName, what, i,
                                       llvm::toString(kind.takeError())));
      out.push_back(tensorType);
    }
    return llvm::Error::success();
  };
  if (llvm::Error error =
          collect(type.getInputs(), signature.inputs, "argument"))
    return std::move(error);
  if (llvm::Error error =
          collect(type.getResults(), signature.results, "result"))
    return std::move(error);
  return signature;
}

//===----------------------------------------------------------------------===//
// Run-time checks
//===----------------------------------------------------------------------===//
//
// The lowering checks sizes it could not check statically with cf.assert,
// which becomes `puts(message); abort();`. The JIT resolves those two symbols
// to the functions below: the message is kept, and abort returns to the
// caller of the compiled function with longjmp (buffers the call allocated
// leak, which is fine for a failed call), so a failed check is an error,
// not a crash.

namespace {
thread_local std::jmp_buf *activeCall = nullptr;
thread_local std::string checkMessage;

extern "C" int quantRunnerPuts(const char *message) {
  if (!checkMessage.empty())
    checkMessage += "; ";
  checkMessage += message;
  return 0;
}

extern "C" [[noreturn]] void quantRunnerAbort() {
  if (activeCall)
    std::longjmp(*activeCall, 1);
  llvm::errs() << "quant-runner: run-time check failed: " << checkMessage
               << "\n";
  std::_Exit(2);
}

/// Calls the packed wrapper; a failed run-time check becomes an error.
llvm::Error invokeChecked(void (*function)(void **), void **args) {
  std::jmp_buf jump;
  checkMessage.clear();
  activeCall = &jump;
  if (setjmp(jump) != 0) {
    activeCall = nullptr;
    return makeError("run-time check failed: " + checkMessage);
  }
  function(args);
  activeCall = nullptr;
  return llvm::Error::success();
}
} // namespace

//===----------------------------------------------------------------------===//
// A caching allocator for the compiled code
//===----------------------------------------------------------------------===//
//
// Code lowered with `runtime-allocator` allocates through the three
// `_mlir_memref_to_llvm_*` functions. quant-runner keeps freed blocks by
// size and hands them out again, as ONNX Runtime's arena does: a result
// buffer of tens of MiB is not mapped (and page-faulted) afresh every call.

namespace {
/// The largest single allocation the compiled code may make: 8 GiB, or
/// QUANTOPS_MAX_ALLOC_BYTES.
size_t getAllocationLimit() {
  static size_t limit = [] {
    if (const char *env = std::getenv("QUANTOPS_MAX_ALLOC_BYTES"))
      return size_t(std::strtoull(env, nullptr, 10));
    return size_t(8) << 30;
  }();
  return limit;
}

[[noreturn]] void failAllocation(size_t size);

struct BlockCache {
  std::mutex mutex;
  std::unordered_multimap<size_t, void *> freeBlocks;
  std::unordered_map<void *, size_t> sizes;

  /// `limited`: the compiled code's allocations, bounded by
  /// QUANTOPS_MAX_ALLOC_BYTES (the runner's staged inputs are not).
  void *allocate(size_t size, bool limited = true) {
    size = std::max<size_t>(64, (size + 63) / 64 * 64);
    // A program may ask for more than the machine has (a huge static
    // result): fail the call with a message instead of dying out of memory.
    if (limited && size > getAllocationLimit())
      failAllocation(size);
    std::lock_guard<std::mutex> lock(mutex);
    auto it = freeBlocks.find(size);
    if (it != freeBlocks.end()) {
      void *block = it->second;
      freeBlocks.erase(it);
      return block;
    }
    void *block = std::aligned_alloc(64, size);
    if (block)
      sizes[block] = size;
    return block;
  }

  void release(void *block) {
    if (!block)
      return;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = sizes.find(block);
    if (it == sizes.end())
      return; // not ours
    freeBlocks.emplace(it->second, block);
  }
};

BlockCache &getBlockCache() {
  static BlockCache *cache = new BlockCache(); // lives as long as the JIT
  return *cache;
}

[[noreturn]] void failAllocation(size_t size) {
  quantRunnerPuts(("the program allocates " + std::to_string(size) +
                   " bytes, over the limit of " +
                   std::to_string(getAllocationLimit()) +
                   " (QUANTOPS_MAX_ALLOC_BYTES)")
                      .c_str());
  quantRunnerAbort();
}

extern "C" void *quantRunnerAlloc(uint64_t size) {
  return getBlockCache().allocate(size);
}
extern "C" void *quantRunnerAlignedAlloc(uint64_t alignment, uint64_t size) {
  // Every block is 64-byte aligned; larger alignments are not requested by
  // the pipeline.
  (void)alignment;
  return getBlockCache().allocate(size);
}
extern "C" void quantRunnerFree(void *block) { getBlockCache().release(block); }

/// f32 -> bf16 (LLVM calls __truncsfbf2 for an fptrunc to bfloat on x86
/// without AVX512-BF16; GCC 12's libgcc does not have it). Round to nearest
/// even: bias = 0x7fff + the kept part's lowest bit, bf16 = (bits + bias)
/// >> 16 (a carry into the exponent is the rounding up, to infinity past
/// the largest bf16). A NaN becomes the quiet NaN of its sign, 0x7fc0 or
/// 0xffc0, as MLIR's runner utilities made it (the library the JIT loaded
/// for it before: libmlir_float16_utils.so).
extern "C" __bf16 quantRunnerTruncSFBF2(float value) {
  uint32_t bits = llvm::bit_cast<uint32_t>(value);
  uint16_t result;
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    result = uint16_t(((bits >> 16) & 0x8000u) | 0x7fc0u);
  else
    result = uint16_t((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
  return llvm::bit_cast<__bf16>(result);
}

/// f64 -> bf16 through f32 (two roundings), as MLIR's runner utilities do.
extern "C" __bf16 quantRunnerTruncDFBF2(double value) {
  return quantRunnerTruncSFBF2(static_cast<float>(value));
}
} // namespace

/// The runtime the compiled code calls: output, abort, the memref
/// allocator (the session's block cache) and the bf16 truncations.
static llvm::orc::SymbolMap
getRuntimeSymbols(llvm::orc::MangleAndInterner interner) {
  const std::pair<const char *, void *> runtime[] = {
      {"puts", reinterpret_cast<void *>(&quantRunnerPuts)},
      {"abort", reinterpret_cast<void *>(&quantRunnerAbort)},
      {"_mlir_memref_to_llvm_alloc",
       reinterpret_cast<void *>(&quantRunnerAlloc)},
      {"_mlir_memref_to_llvm_aligned_alloc",
       reinterpret_cast<void *>(&quantRunnerAlignedAlloc)},
      {"_mlir_memref_to_llvm_free", reinterpret_cast<void *>(&quantRunnerFree)},
      {"__truncsfbf2", reinterpret_cast<void *>(&quantRunnerTruncSFBF2)},
      {"__truncdfbf2", reinterpret_cast<void *>(&quantRunnerTruncDFBF2)}};
  llvm::orc::SymbolMap symbols;
  for (auto [name, address] : runtime)
    symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                               llvm::JITSymbolFlags::Exported};
  return symbols;
}

/// Whether the code allocates through _mlir_memref_to_llvm_* (then its
/// results are released there too).
static bool isRuntimeAllocatorSymbol(llvm::StringRef name) {
  return name == "_mlir_memref_to_llvm_aligned_alloc" ||
         name == "_mlir_memref_to_llvm_alloc" ||
         name == "_mlir_memref_to_llvm_free";
}

/// The host's machine builder (triple, CPU name, features), detected once
/// per process: detection runs CPUID, which a virtual machine's hypervisor
/// answers slowly, and every part of every compile asks for it.
static llvm::Expected<llvm::orc::JITTargetMachineBuilder> detectHostOnce() {
  static const std::optional<llvm::orc::JITTargetMachineBuilder> host =
      []() -> std::optional<llvm::orc::JITTargetMachineBuilder> {
    auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!builder) {
      llvm::consumeError(builder.takeError());
      return std::nullopt;
    }
    return std::move(*builder);
  }();
  if (!host)
    return llvm::orc::JITTargetMachineBuilder::detectHost(); // its error
  return *host;
}

MachineFactory runner::getMachineFactory(unsigned optLevel) {
  return [optLevel]() -> llvm::Expected<std::unique_ptr<llvm::TargetMachine>> {
    qops::initializeNativeTarget();
    auto builder = detectHostOnce();
    if (!builder)
      return builder.takeError();
    builder->setRelocationModel(llvm::Reloc::PIC_);
    builder->setCodeGenOptLevel(
        static_cast<llvm::CodeGenOptLevel>(std::min(optLevel, 3u)));
    return builder->createTargetMachine();
  };
}

//===----------------------------------------------------------------------===//
// Session
//===----------------------------------------------------------------------===//

JitSession::~JitSession() = default;

/// The packed wrapper `_mlir_<name>(void **args)` of the entry point, as
/// mlir::ExecutionEngine writes it: args[i] points to argument i, and
/// args[n] to where the result goes.
///
///   define void @_mlir_f(ptr %args) {
///     %p0 = getelementptr ptr, ptr %args, i64 0
///     %a0 = load ptr, ptr %p0
///     %v0 = load <type of argument 0>, ptr %a0
///     ...
///     %r = call <result> @f(%v0, ...)
///     %pr = getelementptr ptr, ptr %args, i64 n
///     %ar = load ptr, ptr %pr
///     store <result> %r, ptr %ar         ; unless f returns void
///     ret void
///   }
static void addPackedWrapper(llvm::Module &module, llvm::StringRef funcName) {
  llvm::Function *function = module.getFunction(funcName);
  if (!function || function->isDeclaration())
    return;
  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> builder(context);
  auto *type = llvm::FunctionType::get(builder.getVoidTy(), builder.getPtrTy(),
                                       /*isVarArg=*/false);
  llvm::Function *wrapper =
      llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                             "_mlir_" + funcName, module);
  builder.SetInsertPoint(llvm::BasicBlock::Create(context, "", wrapper));
  llvm::Value *list = wrapper->getArg(0);
  auto pointerAt = [&](size_t index) {
    llvm::Value *slot =
        builder.CreateGEP(builder.getPtrTy(), list, builder.getInt64(index));
    return builder.CreateLoad(builder.getPtrTy(), slot);
  };
  llvm::SmallVector<llvm::Value *> arguments;
  for (llvm::Argument &argument : function->args())
    arguments.push_back(
        builder.CreateLoad(argument.getType(), pointerAt(argument.getArgNo())));
  llvm::Value *result = builder.CreateCall(function, arguments);
  if (!result->getType()->isVoidTy())
    builder.CreateStore(result, pointerAt(function->arg_size()));
  builder.CreateRetVoid();
}

/// The suffix of a constant's member in writeObject's archive.
static constexpr llvm::StringLiteral kConstantSuffix = ".data";
/// A zero-filled global's member in writeObject's archive (its size).
static constexpr llvm::StringLiteral kZeroFilledSuffix = ".zero";

/// `bytes` copied into 64-byte aligned memory, as constant `name`.
static JitSession::Constant copyConstant(llvm::StringRef name,
                                         llvm::ArrayRef<char> bytes) {
  size_t size = llvm::alignTo(std::max<size_t>(bytes.size(), 1), 64);
  std::shared_ptr<char> block(static_cast<char *>(std::aligned_alloc(64, size)),
                              std::free);
  if (!block)
    llvm::report_fatal_error("out of memory for a constant of the model");
  std::memcpy(block.get(), bytes.data(), bytes.size());
  return {name.str(), std::move(block), bytes.size()};
}

/// Fresh zero pages for zero-filled global `name` (CompiledModule::
/// zeroFilled): mapped, not touched, so that nothing is faulted in or
/// cleared before the code first writes them.
static llvm::Expected<JitSession::Constant>
mapZeroFilled(llvm::StringRef name, uint64_t size, uint64_t alignment) {
  if (alignment > llvm::sys::Process::getPageSizeEstimate())
    return makeError("global '" + name + "' asks for an alignment of " +
                     llvm::Twine(alignment) + " bytes");
  std::error_code code;
  llvm::sys::MemoryBlock block = llvm::sys::Memory::allocateMappedMemory(
      std::max<uint64_t>(size, 1), nullptr,
      llvm::sys::Memory::MF_READ | llvm::sys::Memory::MF_WRITE, code);
  if (code)
    return makeError("cannot map " + llvm::Twine(size) + " bytes for '" +
                     name + "': " + code.message());
  std::shared_ptr<char> pages(static_cast<char *>(block.base()),
                              [block](char *) mutable {
                                llvm::sys::Memory::releaseMappedMemory(block);
                              });
  return JitSession::Constant{name.str(), std::move(pages), size,
                              /*zeroFilled=*/true, alignment};
}

/// A constant's member in writeObject's archive: one byte p (at most 7),
/// p zero bytes, then the constant's bytes, which so start at a multiple of
/// 8 in the file (the archive's own layout only keeps members 2-byte
/// aligned), so that a load can use them where the file is mapped: the code
/// declares no alignment beyond the element type's, 8 at most.
static constexpr uint64_t kConstantAlignment = 8;

/// `bytes` themselves (an attribute's, in an MLIRContext that outlives the
/// session: JitOptions::borrowConstants), not owned, as constant `name`; the
/// code declares no alignment beyond the element type's.
static JitSession::Constant borrowConstant(llvm::StringRef name,
                                           llvm::ArrayRef<char> bytes) {
  std::shared_ptr<char> unowned(std::shared_ptr<char>(),
                                const_cast<char *>(bytes.data()));
  return {name.str(), std::move(unowned), bytes.size()};
}

/// The objects of a module compiled on another thread (prepareConstEval's
/// functions, prepareKernelsApart's kernel), for create to link.
struct runner::CompiledApart {
  std::optional<CompiledModule> compiled;
};

/// Compiles `module` into `into` (one part, at `optLevel`, a machine of
/// `machines` if one is left); `what` names the step in an error;
/// `kernelsModule`: the module is qops-kernels-apart's.
static LogicalResult compileApart(ModuleOp module, unsigned optLevel,
                                  MachineSupply *machines,
                                  std::function<void(llvm::Module &)> prepare,
                                  CompiledApart &into, llvm::StringRef what,
                                  bool kernelsModule = false) {
  ObjectCodegenOptions codegen;
  codegen.optLevel = optLevel;
  codegen.kernelsModule = kernelsModule;
  codegen.parts = 1;
  codegen.makeMachine = getMachineFactory(optLevel);
  codegen.machines = machines;
  codegen.externalizeConstants = true;
  codegen.prepare = std::move(prepare);
  llvm::Expected<CompiledModule> compiled = compileToObjects(module, codegen);
  if (!compiled) {
    module.emitError() << what << ": " << llvm::toString(compiled.takeError());
    return failure();
  }
  into.compiled = std::move(*compiled);
  return success();
}

void runner::prepareConstEval(JitOptions &options) {
  options.constEval = qops::makeConstEvalHandoff(qops::ConstEvalAt::Link);
  auto objects = std::make_shared<CompiledApart>();
  options.constEvalObjects = objects;
  qops::setConstEvalCompiler(
      *options.constEval,
      [objects](ModuleOp module, llvm::ArrayRef<std::string> functions) {
        // -O1: the code runs once.
        return compileApart(
            module, 1, /*machines=*/nullptr,
            [&](llvm::Module &llvmModule) {
              for (const std::string &function : functions)
                addPackedWrapper(llvmModule, function);
            },
            *objects, "qops-const-eval");
      });
}

void runner::prepareKernelsApart(JitOptions &options) {
  // One core: the kernel's thread would only take turns with the module's.
  if (getMostParts(options.compileThreads) < 2)
    return;
  auto objects = std::make_shared<CompiledApart>();
  options.kernelsApartObjects = objects;
  options.kernelsApart = qops::makeKernelsApartHandoff(
      [objects, optLevel = std::min(options.optLevel, 3u),
       machines = options.machines](ModuleOp module) {
        return compileApart(module, optLevel, machines.get(), nullptr, *objects,
                            "qops-kernels-apart", /*kernelsModule=*/true);
      });
}

/// Adds the objects `objects` holds to `compiled`, and their constants
/// and zero-filled globals; with `spent`, the names of those too.
static void addCompiledApart(CompiledApart *objects, CompiledModule &compiled,
                             std::vector<std::string> *spent) {
  if (!objects || !objects->compiled)
    return;
  CompiledModule &apart = *objects->compiled;
  for (auto &object : apart.objects)
    compiled.objects.push_back(std::move(object));
  for (const auto &entry : apart.constants) {
    compiled.constants[entry.getKey()] = entry.getValue();
    if (spent)
      spent->push_back(entry.getKey().str());
  }
  for (const auto &entry : apart.zeroFilled) {
    compiled.zeroFilled[entry.getKey()] = entry.getValue();
    if (spent)
      spent->push_back(entry.getKey().str());
  }
  objects->compiled.reset();
}

/// The const-eval functions' objects, compiled apart, added to `compiled`
/// once their compiler is done: all that they read is spent
/// (JitSession::Constant) once they ran.
static llvm::Error addConstEvalCompiledApart(const JitOptions &options,
                                             CompiledModule &compiled,
                                             std::vector<std::string> &spent) {
  if (!options.constEval)
    return llvm::Error::success();
  if (failed(qops::finishConstEval(*options.constEval)))
    return makeError("qops-const-eval failed");
  addCompiledApart(options.constEvalObjects.get(), compiled, &spent);
  return llvm::Error::success();
}

/// The kernels' objects, compiled apart, added to `compiled` once their
/// thread is done.
static llvm::Error addKernelsCompiledApart(const JitOptions &options,
                                           CompiledModule &compiled) {
  if (!options.kernelsApart)
    return llvm::Error::success();
  if (failed(qops::finishKernelsApart(*options.kernelsApart)))
    return makeError("qops-kernels-apart failed");
  addCompiledApart(options.kernelsApartObjects.get(), compiled, nullptr);
  return llvm::Error::success();
}

/// ORC's errors may refer to strings the session owns: copied into a new
/// error before the session goes.
static llvm::Error detachError(llvm::Error error) {
  return makeError(llvm::toString(std::move(error)));
}

/// Zeroed memory of the session's for each global the const-eval
/// functions fill (declareConstEvalGlobals): a constant once they ran, so
/// that a stored session keeps the values (writeObject).
static llvm::Error addConstEvalGlobals(const qops::ConstEvalLink &link,
                                       std::vector<JitSession::Constant> &out) {
  for (const qops::ConstEvalLink::Global &global : link.globals) {
    llvm::Expected<JitSession::Constant> pages =
        mapZeroFilled(global.name, global.bytes, global.alignment);
    if (!pages)
      return pages.takeError();
    pages->zeroFilled = false;
    out.push_back(std::move(*pages));
  }
  return llvm::Error::success();
}

/// The constants of `compiled` (borrowed or copied: JitOptions::
/// borrowConstants) and zeroed memory of the session's for its zero-filled
/// globals, appended to `out`.
static llvm::Error takeConstants(const CompiledModule &compiled,
                                 const JitOptions &options,
                                 std::vector<JitSession::Constant> &out) {
  for (const auto &entry : compiled.constants)
    out.push_back(options.borrowConstants
                      ? borrowConstant(entry.getKey(), entry.getValue())
                      : copyConstant(entry.getKey(), entry.getValue()));
  for (const auto &entry : compiled.zeroFilled) {
    llvm::Expected<JitSession::Constant> pages = mapZeroFilled(
        entry.getKey(), entry.getValue().size, entry.getValue().alignment);
    if (!pages)
      return pages.takeError();
    out.push_back(std::move(*pages));
  }
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<JitSession>>
JitSession::create(ModuleOp module, llvm::StringRef funcName,
                   const JitOptions &options) {
  llvm::Expected<TensorSignature> signature =
      getTensorSignature(module, funcName);
  if (!signature)
    return signature.takeError();
  if (!isa_and_nonnull<LLVM::LLVMFuncOp>(module.lookupSymbol(funcName)))
    return makeError("function '" + funcName +
                     "' is not in the LLVM dialect: the module was not "
                     "lowered");

  qops::initializeNativeTarget();
  unsigned optLevel = std::min(options.optLevel, 3u);
  ObjectCodegenOptions codegen;
  codegen.optLevel = optLevel;
  codegen.parts = options.compileThreads;
  // The kernels' module has a core of its own while it compiles.
  if (options.kernelsApart &&
      qops::isKernelsApartRunning(*options.kernelsApart))
    codegen.parts = std::max(1u, getMostParts(options.compileThreads) - 1);
  codegen.makeMachine = getMachineFactory(optLevel);
  codegen.machines = options.machines.get();
  // The weights are not compiled into the objects: the session holds their
  // bytes (Constant) and the code refers to them by symbol. So are the
  // packed ones, which the module's const-eval functions compute once
  // linked.
  codegen.externalizeConstants = true;
  qops::ConstEvalLink constEval;
  if (options.constEval)
    constEval = qops::declareConstEvalGlobals(module, *options.constEval);
  codegen.prepare = [&](llvm::Module &llvmModule) {
    addPackedWrapper(llvmModule, funcName);
    for (const std::string &function : constEval.functions)
      addPackedWrapper(llvmModule, function);
  };
  llvm::Expected<CompiledModule> compiled = compileToObjects(module, codegen);
  if (!compiled)
    return compiled.takeError();
  bool usesRuntimeAllocator =
      llvm::any_of(module.getOps<LLVM::LLVMFuncOp>(), [](LLVM::LLVMFuncOp f) {
        return isRuntimeAllocatorSymbol(f.getSymName());
      });
  // With the kernels on a thread of their own, the module is linked (and
  // its const-eval functions run) first, its calls of the kernels through
  // stubs: while that thread may still compile.
  if (options.kernelsApart && qops::areKernelsApart(*options.kernelsApart)) {
    std::vector<std::string> kernels = qops::getKernelsApartSymbols(module);
    if (!kernels.empty())
      return createBeforeKernels(std::move(*compiled), kernels, funcName,
                                 std::move(*signature), options, constEval,
                                 usesRuntimeAllocator);
  }
  std::vector<std::string> spent = constEval.usedOnlyByThem;
  if (llvm::Error error = addConstEvalCompiledApart(options, *compiled, spent))
    return error;
  if (llvm::Error error = addKernelsCompiledApart(options, *compiled))
    return error;
  std::vector<Constant> constants;
  if (llvm::Error error = takeConstants(*compiled, options, constants))
    return error;
  if (llvm::Error error = addConstEvalGlobals(constEval, constants))
    return error;
  for (Constant &constant : constants)
    constant.spent = llvm::is_contained(spent, constant.name);
  auto session =
      link(std::move(compiled->objects), std::move(constants), funcName,
           std::move(*signature), options, usesRuntimeAllocator);
  if (!session)
    return session.takeError();
  if (llvm::Error error = (*session)->runOnce(constEval.functions))
    return std::move(error);
  return session;
}

/// Where a kernel's stub points until the kernel is linked: nothing calls
/// a kernel before (createBeforeKernels).
[[noreturn]] static void quantRunnerKernelNotLinked() {
  llvm::errs() << "quant-runner: a kernel was called before it was linked\n";
  std::_Exit(2);
}

llvm::Error JitSession::stubKernels(llvm::ArrayRef<std::string> kernels) {
  stubs = llvm::orc::createLocalIndirectStubsManagerBuilder(
      llvm::Triple(llvm::sys::getProcessTriple()))();
  if (!stubs)
    return makeError("no indirect stubs for this host");
  llvm::orc::MangleAndInterner interner(jit->getExecutionSession(),
                                        jit->getDataLayout());
  llvm::orc::SymbolMap symbols;
  for (const std::string &kernel : kernels) {
    if (llvm::Error error = stubs->createStub(
            kernel,
            llvm::orc::ExecutorAddr::fromPtr(&quantRunnerKernelNotLinked),
            llvm::JITSymbolFlags::Exported))
      return detachError(std::move(error));
    symbols[interner(kernel)] = stubs->findStub(kernel, false);
  }
  if (llvm::Error error =
          jit->getMainJITDylib().define(llvm::orc::absoluteSymbols(symbols)))
    return detachError(std::move(error));
  return llvm::Error::success();
}

llvm::Error JitSession::linkKernels(
    llvm::ArrayRef<std::string> kernels,
    std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects,
    std::vector<Constant> constants, bool keepObject) {
  // A JITDylib of their own: they define the names the stubs have in
  // `main`, and find the rest (constants, the runtime) there.
  auto dylib = jit->createJITDylib("kernels");
  if (!dylib)
    return detachError(dylib.takeError());
  dylib->addToLinkOrder(jit->getMainJITDylib());
  if (llvm::Error error =
          add(std::move(objects), std::move(constants), keepObject, &*dylib))
    return error;
  for (const std::string &kernel : kernels) {
    auto address = jit->lookup(*dylib, kernel);
    if (!address)
      return detachError(address.takeError());
    if (llvm::Error error = stubs->updatePointer(kernel, *address))
      return detachError(std::move(error));
  }
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<JitSession>> JitSession::createBeforeKernels(
    CompiledModule compiled, llvm::ArrayRef<std::string> kernels,
    llvm::StringRef funcName, TensorSignature signature,
    const JitOptions &options, const qops::ConstEvalLink &constEval,
    bool usesRuntimeAllocator) {
  // The module's objects, and the const-eval functions' compiled apart.
  std::vector<std::string> spent = constEval.usedOnlyByThem;
  if (llvm::Error error = addConstEvalCompiledApart(options, compiled, spent))
    return std::move(error);
  std::vector<Constant> constants;
  if (llvm::Error error = takeConstants(compiled, options, constants))
    return std::move(error);
  if (llvm::Error error = addConstEvalGlobals(constEval, constants))
    return std::move(error);
  for (Constant &constant : constants)
    constant.spent = llvm::is_contained(spent, constant.name);
  auto session = start(options);
  if (!session)
    return session.takeError();
  if (llvm::Error error = (*session)->stubKernels(kernels))
    return std::move(error);
  if (llvm::Error error =
          (*session)->add(std::move(compiled.objects), std::move(constants),
                          options.keepObject))
    return std::move(error);
  if (llvm::Error error = (*session)->prepareEntry(
          funcName, std::move(signature), usesRuntimeAllocator))
    return std::move(error);
  // The kernels' thread has a core: the const-eval functions take the
  // other one only.
  if (llvm::Error error = (*session)->runOnce(
          constEval.functions,
          qops::isKernelsApartRunning(*options.kernelsApart)))
    return std::move(error);
  // Then the kernels, once their thread is done.
  CompiledModule apart;
  if (llvm::Error error = addKernelsCompiledApart(options, apart))
    return std::move(error);
  std::vector<Constant> later;
  if (llvm::Error error = takeConstants(apart, options, later))
    return std::move(error);
  if (llvm::Error error =
          (*session)->linkKernels(kernels, std::move(apart.objects),
                                  std::move(later), options.keepObject))
    return std::move(error);
  return session;
}

/// The object layer of a session: RuntimeDyld in section memory, with the
/// GDB and perf (jitdump) listeners, so that profiles and debuggers see the
/// code, compiled now or read from the cache.
static llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>>
createObjectLayer(llvm::orc::ExecutionSession &session) {
  auto layer = std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
      session, [](const llvm::MemoryBuffer &) {
        return std::make_unique<llvm::SectionMemoryManager>();
      });
  if (auto *gdb = llvm::JITEventListener::createGDBRegistrationListener())
    layer->registerJITEventListener(*gdb);
  if (auto *perf = llvm::JITEventListener::createPerfJITEventListener())
    layer->registerJITEventListener(*perf);
  else if (auto *intel = llvm::JITEventListener::createIntelJITEventListener())
    layer->registerJITEventListener(*intel);
  return layer;
}

llvm::Expected<std::unique_ptr<JitSession>>
JitSession::start(const JitOptions &options) {
  for (const std::string &library : options.sharedLibs) {
    std::string message;
    if (llvm::sys::DynamicLibrary::LoadLibraryPermanently(library.c_str(),
                                                          &message))
      return makeError("cannot load " + library + ": " + message);
  }
  // The session only links objects, so the builder makes no target
  // machine: the data layout comes from the triple, and the IR compiler
  // (never asked for) would make its machines when first asked. Left to
  // itself, LLJITBuilder detects the host (CPUID) and makes two target
  // machines that no session uses, compiled or cached. No platform (the
  // objects have no static initializers, and nothing calls initialize) and
  // no "<Process Symbols>" JITDylib: `main`'s own generator below finds the
  // process's symbols.
  llvm::Triple triple(llvm::sys::getProcessTriple());
  auto jit =
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(llvm::orc::JITTargetMachineBuilder(triple))
          .setDataLayout(llvm::DataLayout(triple.computeDataLayout()))
          .setCompileFunctionCreator(
              [](llvm::orc::JITTargetMachineBuilder builder)
                  -> llvm::Expected<
                      std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
                return std::make_unique<llvm::orc::ConcurrentIRCompiler>(
                    std::move(builder));
              })
          .setObjectLinkingLayerCreator(createObjectLayer)
          .setLinkProcessSymbolsByDefault(false)
          .setPlatformSetUp(llvm::orc::setUpInactivePlatform)
          .create();
  if (!jit)
    return detachError(jit.takeError());
  llvm::orc::JITDylib &main = (*jit)->getMainJITDylib();
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*jit)->getDataLayout().getGlobalPrefix());
  if (!process)
    return detachError(process.takeError());
  main.addGenerator(std::move(*process));
  llvm::orc::MangleAndInterner interner((*jit)->getExecutionSession(),
                                        (*jit)->getDataLayout());
  if (llvm::Error error =
          main.define(llvm::orc::absoluteSymbols(getRuntimeSymbols(interner))))
    return detachError(std::move(error));
  std::unique_ptr<JitSession> session(new JitSession());
  session->jit = std::move(*jit);
  return session;
}

llvm::Error
JitSession::add(std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects,
                std::vector<Constant> constants, bool keepObject,
                llvm::orc::JITDylib *dylib) {
  // The constants are the main JITDylib's, which every other one searches.
  llvm::orc::MangleAndInterner interner(jit->getExecutionSession(),
                                        jit->getDataLayout());
  llvm::orc::SymbolMap symbols;
  for (const Constant &constant : constants)
    symbols[interner(constant.name)] = {
        llvm::orc::ExecutorAddr::fromPtr(constant.bytes.get()),
        llvm::JITSymbolFlags::Exported};
  if (!symbols.empty())
    if (llvm::Error error =
            jit->getMainJITDylib().define(llvm::orc::absoluteSymbols(symbols)))
      return detachError(std::move(error));
  for (Constant &constant : constants)
    this->constants.push_back(std::move(constant));
  for (std::unique_ptr<llvm::MemoryBuffer> &object : objects) {
    if (keepObject)
      this->objects.push_back(llvm::MemoryBuffer::getMemBufferCopy(
          object->getBuffer(), object->getBufferIdentifier()));
    if (llvm::Error error = jit->addObjectFile(
            dylib ? *dylib : jit->getMainJITDylib(), std::move(object)))
      return detachError(std::move(error));
  }
  return llvm::Error::success();
}

llvm::Error JitSession::prepareEntry(llvm::StringRef funcName,
                                     TensorSignature signature,
                                     bool usesRuntimeAllocator) {
  // Looking up the packed wrapper links the objects.
  auto address = jit->lookup(("_mlir_" + funcName).str());
  if (!address)
    return detachError(address.takeError());
  using PackedFunction = void (*)(void **);
  function = address->toPtr<PackedFunction>();
  this->usesRuntimeAllocator = usesRuntimeAllocator;
  this->funcName = funcName.str();
  this->signature = std::move(signature);
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<JitSession>>
JitSession::link(std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects,
                 std::vector<Constant> constants, llvm::StringRef funcName,
                 TensorSignature signature, const JitOptions &options,
                 bool usesRuntimeAllocator) {
  auto session = start(options);
  if (!session)
    return session.takeError();
  if (llvm::Error error = (*session)->add(
          std::move(objects), std::move(constants), options.keepObject))
    return std::move(error);
  if (llvm::Error error = (*session)->prepareEntry(
          funcName, std::move(signature), usesRuntimeAllocator))
    return std::move(error);
  return session;
}

namespace {
/// omp_set_num_threads(1) for the life of the object when `one`, and libomp
/// is loaded; the count it had is set again after (the calling thread's).
class TeamOfOne {
public:
  explicit TeamOfOne(bool one) {
    if (!one)
      return;
    set = reinterpret_cast<void (*)(int)>(
        llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(
            "omp_set_num_threads"));
    auto get = reinterpret_cast<int (*)()>(
        llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(
            "omp_get_max_threads"));
    if (!set || !get)
      return;
    threads = get();
    set(1);
  }
  ~TeamOfOne() {
    if (threads)
      set(threads);
  }

private:
  void (*set)(int) = nullptr;
  int threads = 0;
};
} // namespace

llvm::Error JitSession::runOnce(llvm::ArrayRef<std::string> functions,
                                bool oneThread) {
  TeamOfOne team(oneThread && !functions.empty());
  for (const std::string &function : functions) {
    auto address = jit->lookup("_mlir_" + function);
    if (!address)
      return detachError(address.takeError());
    if (llvm::Error error = invokeChecked(address->toPtr<void (*)(void **)>(),
                                          /*args=*/nullptr))
      return makeError("qops-const-eval: @" + function + ": " +
                       llvm::toString(std::move(error)));
  }
  return llvm::Error::success();
}

/// What writeObject wrote: an object, or an archive of the objects
/// (`part<N>.o`), the constants (`<symbol>.data`) and the zero-filled
/// globals' sizes (`<symbol>.zero`).
struct StoredSession {
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> objects;
  std::vector<JitSession::Constant> constants;
};

/// A `.data` or `.zero` member (writeArchive) without its byte p and its p
/// bytes of padding; none when they do not fit.
static std::optional<llvm::StringRef> getMemberPayload(llvm::StringRef member) {
  if (member.empty() || uint8_t(member[0]) >= kConstantAlignment ||
      member.size() < 1 + size_t(uint8_t(member[0])))
    return std::nullopt;
  return member.drop_front(1 + uint8_t(member[0]));
}

/// A constant's member (writeArchive) as constant `name`: its bytes
/// where `file` holds them when they are 8-byte aligned there (the session
/// then shares the file: mapped, it is not copied), else a copy.
static llvm::Expected<JitSession::Constant>
readConstant(llvm::StringRef name, llvm::StringRef member,
             const std::shared_ptr<llvm::MemoryBuffer> &file) {
  std::optional<llvm::StringRef> payload = getMemberPayload(member);
  if (!payload)
    return makeError("constant '" + name + "' is damaged");
  llvm::StringRef bytes = *payload;
  if (reinterpret_cast<uintptr_t>(bytes.data()) % kConstantAlignment)
    return copyConstant(name, llvm::ArrayRef<char>(bytes.data(), bytes.size()));
  std::shared_ptr<char> shared(file, const_cast<char *>(bytes.data()));
  return JitSession::Constant{name.str(), std::move(shared), bytes.size()};
}

/// A zero-filled global's member (writeObject) as fresh pages.
static llvm::Expected<JitSession::Constant>
readZeroFilled(llvm::StringRef name, llvm::StringRef member) {
  uint64_t size = 0, alignment = 0;
  std::optional<llvm::StringRef> payload = getMemberPayload(member);
  if (!payload)
    return makeError("global '" + name + "' is damaged");
  auto [sizeText, alignmentText] = payload->split(' ');
  if (sizeText.getAsInteger(10, size) ||
      alignmentText.getAsInteger(10, alignment) || alignment == 0)
    return makeError("global '" + name + "' is damaged");
  return mapZeroFilled(name, size, alignment);
}

static llvm::Expected<StoredSession>
readStored(std::unique_ptr<llvm::MemoryBuffer> unique) {
  StoredSession stored;
  if (llvm::identify_magic(unique->getBuffer()) != llvm::file_magic::archive) {
    stored.objects.push_back(std::move(unique));
    return stored;
  }
  std::shared_ptr<llvm::MemoryBuffer> file = std::move(unique);
  auto archive = llvm::object::Archive::create(file->getMemBufferRef());
  if (!archive)
    return archive.takeError();
  llvm::Error error = llvm::Error::success();
  for (const llvm::object::Archive::Child &child : (*archive)->children(error)) {
    auto name = child.getName();
    auto member = child.getMemoryBufferRef();
    if (!name || !member) {
      llvm::consumeError(name.takeError());
      llvm::consumeError(member.takeError());
      return makeError("an unreadable member in the archive");
    }
    if (name->ends_with(kConstantSuffix)) {
      llvm::Expected<JitSession::Constant> constant = readConstant(
          name->drop_back(kConstantSuffix.size()), member->getBuffer(), file);
      if (!constant)
        return constant.takeError();
      stored.constants.push_back(std::move(*constant));
    } else if (name->ends_with(kZeroFilledSuffix)) {
      llvm::Expected<JitSession::Constant> pages = readZeroFilled(
          name->drop_back(kZeroFilledSuffix.size()), member->getBuffer());
      if (!pages)
        return pages.takeError();
      stored.constants.push_back(std::move(*pages));
    } else
      stored.objects.push_back(llvm::MemoryBuffer::getMemBufferCopy(
          member->getBuffer(), *name));
  }
  if (error)
    return std::move(error);
  if (stored.objects.empty())
    return makeError("an archive without objects");
  return stored;
}

llvm::Expected<std::unique_ptr<JitSession>>
JitSession::load(std::unique_ptr<llvm::MemoryBuffer> file,
                 llvm::StringRef funcName, TensorSignature signature,
                 const JitOptions &options) {
  auto stored = readStored(std::move(file));
  if (!stored)
    return detachError(stored.takeError());
  bool usesRuntimeAllocator = false;
  for (const std::unique_ptr<llvm::MemoryBuffer> &object : stored->objects) {
    auto parsed = llvm::object::ObjectFile::createObjectFile(*object);
    if (!parsed)
      return detachError(parsed.takeError());
    for (const llvm::object::SymbolRef &symbol : (*parsed)->symbols())
      if (auto name = symbol.getName())
        usesRuntimeAllocator |= isRuntimeAllocatorSymbol(*name);
      else
        llvm::consumeError(name.takeError());
  }
  qops::initializeNativeTarget();
  return link(std::move(stored->objects), std::move(stored->constants),
              funcName, std::move(signature), options, usesRuntimeAllocator);
}

/// The archive of members `names` with `contents`, the first `objects` of
/// them objects, the others constants, written to `os` as GNU ar (what
/// llvm::writeArchiveToBuffer writes without a symbol table, deterministic,
/// and llvm::object::Archive reads): "!<arch>\n"; a member "//" of the names
/// over 15 characters, each followed by "/\n"; then each member: a 60-byte
/// header (name, date 0, uid 0, gid 0, mode 644, size, "`\n"), its bytes, a
/// '\n' after an odd size. A constant's member is one byte p < 8, p zero
/// bytes and the constant's bytes, which so start at a multiple of 8 in the
/// file; they are written from where they are, not copied first.
static void writeArchive(llvm::raw_ostream &os,
                         llvm::ArrayRef<std::string> names,
                         llvm::ArrayRef<llvm::StringRef> contents,
                         size_t objects) {
  constexpr uint64_t kHeaderBytes = 60;
  std::string table;
  std::vector<std::string> fields;
  for (const std::string &name : names) {
    if (name.size() <= 15) {
      fields.push_back(name + "/");
      continue;
    }
    fields.push_back("/" + std::to_string(table.size()));
    table += name + "/\n";
  }
  uint64_t offset = 0;
  auto write = [&](llvm::StringRef bytes) {
    os << bytes;
    offset += bytes.size();
  };
  auto header = [&](llvm::StringRef name, uint64_t size) {
    std::string text;
    llvm::raw_string_ostream(text)
        << llvm::left_justify(name, 16) << llvm::left_justify("0", 12)
        << llvm::left_justify("0", 6) << llvm::left_justify("0", 6)
        << llvm::left_justify("644", 8)
        << llvm::left_justify(std::to_string(size), 10) << "`\n";
    write(text);
  };
  auto member = [&](llvm::StringRef name, llvm::StringRef prefix,
                    llvm::StringRef bytes) {
    uint64_t size = prefix.size() + bytes.size();
    header(name, size);
    write(prefix);
    write(bytes);
    if (size & 1)
      write("\n");
  };
  write("!<arch>\n");
  if (!table.empty())
    member("//", "", table);
  for (size_t index = 0; index < names.size(); ++index) {
    if (index < objects) {
      member(fields[index], "", contents[index]);
      continue;
    }
    // The constant's bytes after the member's header and the byte p.
    uint64_t start = offset + kHeaderBytes + 1;
    auto padding = uint8_t(llvm::alignTo(start, kConstantAlignment) - start);
    std::string prefix(1 + padding, '\0');
    prefix[0] = char(padding);
    member(fields[index], prefix, contents[index]);
  }
}

llvm::Error JitSession::writeObject(llvm::StringRef path) const {
  if (objects.empty())
    return makeError("the session did not keep its objects (create it with "
                     "keepObject)");
  bool isArchive = objects.size() > 1 || !constants.empty();
  std::vector<std::string> names;
  std::vector<llvm::StringRef> contents;
  std::vector<std::string> sizes; // the zero-filled globals' members
  sizes.reserve(constants.size());
  for (size_t index = 0; isArchive && index < objects.size(); ++index) {
    names.push_back("part" + std::to_string(index) + ".o");
    contents.push_back(objects[index]->getBuffer());
  }
  for (const Constant &constant : constants) {
    // An archive member's name has no '/'.
    if (constant.name.find('/') != std::string::npos)
      return makeError("constant '" + constant.name +
                       "' cannot be named in an archive");
    if (constant.zeroFilled || constant.spent) {
      names.push_back(constant.name + kZeroFilledSuffix.str());
      sizes.push_back(std::to_string(constant.size) + " " +
                      std::to_string(constant.alignment));
      contents.push_back(sizes.back());
      continue;
    }
    names.push_back(constant.name + kConstantSuffix.str());
    contents.push_back(llvm::StringRef(constant.bytes.get(), constant.size));
  }
  std::error_code code;
  llvm::raw_fd_ostream stream(path, code, llvm::sys::fs::OF_None);
  if (code)
    return makeError("cannot write " + path + ": " + code.message());
  if (isArchive)
    writeArchive(stream, names, contents, objects.size());
  else
    stream << objects.front()->getBuffer();
  stream.close();
  if (stream.has_error())
    return makeError("cannot write " + path + ": " + stream.error().message());
  return llvm::Error::success();
}

namespace {
/// 64-byte aligned host memory for one argument, from the block cache: a
/// large input staged at every call is not mapped (and page-faulted) afresh.
struct AlignedBuffer {
  void *ptr = nullptr;
  explicit AlignedBuffer(size_t bytes) {
    ptr = getBlockCache().allocate(bytes, /*limited=*/false);
  }
  ~AlignedBuffer() { getBlockCache().release(ptr); }
  AlignedBuffer(const AlignedBuffer &) = delete;
  AlignedBuffer &operator=(const AlignedBuffer &) = delete;
};

/// The arguments of one call, staged in aligned buffers, with the packed
/// pointer array the ExecutionEngine wrapper takes, and room for the result
/// descriptors.
struct StagedCall {
  std::vector<std::unique_ptr<AlignedBuffer>> buffers;
  std::set<void *> inputAllocations;
  std::vector<int64_t> words;  // expanded argument descriptors
  std::vector<int64_t> result; // result descriptors
  std::vector<void *> packed;
};

llvm::Expected<std::unique_ptr<StagedCall>>
stageCall(const TensorSignature &signature,
          llvm::ArrayRef<HostTensorView> inputs,
          llvm::StringRef funcName) {
  if (inputs.size() != signature.inputs.size())
    return makeError(llvm::formatv("'{0}' takes {1} inputs, got {2}",
                                   funcName, signature.inputs.size(),
                                   inputs.size()));
  auto staged = std::make_unique<StagedCall>();
  size_t numWords = 0;
  for (RankedTensorType type : signature.inputs)
    numWords += 3 + 2 * type.getRank();
  staged->words.reserve(numWords);
  for (const HostTensorView &tensor : inputs) {
    auto buffer = std::make_unique<AlignedBuffer>(tensor.data.size());
    if (!buffer->ptr)
      return makeError("out of memory allocating an input");
    if (!tensor.data.empty())
      std::memcpy(buffer->ptr, tensor.data.data(), tensor.data.size());
    staged->inputAllocations.insert(buffer->ptr);
    std::vector<int64_t> &words = staged->words;
    words.push_back(reinterpret_cast<intptr_t>(buffer->ptr));
    words.push_back(reinterpret_cast<intptr_t>(buffer->ptr));
    words.push_back(0);
    for (int64_t size : tensor.shape)
      words.push_back(size);
    std::vector<int64_t> strides(tensor.shape.size());
    int64_t stride = 1;
    for (size_t d = tensor.shape.size(); d-- > 0;) {
      strides[d] = stride;
      stride *= tensor.shape[d];
    }
    words.insert(words.end(), strides.begin(), strides.end());
    staged->buffers.push_back(std::move(buffer));
  }
  size_t resultWords = 0;
  for (RankedTensorType type : signature.results)
    resultWords += 3 + 2 * type.getRank();
  staged->result.assign(std::max<size_t>(resultWords, 1), 0);
  for (int64_t &word : staged->words)
    staged->packed.push_back(&word);
  if (!signature.results.empty())
    staged->packed.push_back(staged->result.data());
  return staged;
}

/// Walks the result descriptors of a finished call: copies each result out
/// (if `outputs` is given) and frees what the call allocated. Globals carry
/// 0xdeadbeef as their allocated pointer; results that alias an input or an
/// earlier result are not freed twice.
void takeResults(const TensorSignature &signature, StagedCall &staged,
                 std::vector<HostTensor> *outputs, bool runtimeAllocator) {
  std::set<void *> released;
  const int64_t *word = staged.result.data();
  for (RankedTensorType type : signature.results) {
    int64_t rank = type.getRank();
    void *allocated = reinterpret_cast<void *>(word[0]);
    auto *aligned = reinterpret_cast<const uint8_t *>(word[1]);
    int64_t offset = word[2];
    ArrayRef<int64_t> sizes(word + 3, rank), strides(word + 3 + rank, rank);
    word += 3 + 2 * rank;

    if (outputs) {
      HostTensor tensor;
      tensor.kind = *getHostElementKind(type.getElementType());
      tensor.shape.assign(sizes.begin(), sizes.end());
      size_t elementSize = tensor.elementSize();
      int64_t count = tensor.numElements();
      tensor.data.resize(count * elementSize);
      bool contiguous = true;
      for (int64_t d = rank - 1, expected = 1; d >= 0; --d) {
        contiguous &= sizes[d] == 1 || strides[d] == expected;
        expected *= sizes[d];
      }
      if (contiguous) {
        if (count > 0)
          std::memcpy(tensor.data.data(), aligned + offset * elementSize,
                      count * elementSize);
      } else {
        std::vector<int64_t> index(rank, 0);
        for (int64_t flat = 0; flat < count; ++flat) {
          int64_t position = offset;
          for (int64_t d = 0; d < rank; ++d)
            position += index[d] * strides[d];
          std::memcpy(&tensor.data[flat * elementSize],
                      aligned + position * elementSize, elementSize);
          for (int64_t d = rank - 1; d >= 0; --d) {
            if (++index[d] < sizes[d])
              break;
            index[d] = 0;
          }
        }
      }
      outputs->push_back(std::move(tensor));
    }

    bool isGlobal = allocated == reinterpret_cast<void *>(0xdeadbeef);
    if (allocated && !isGlobal && !staged.inputAllocations.count(allocated) &&
        released.insert(allocated).second) {
      if (runtimeAllocator)
        quantRunnerFree(allocated);
      else
        std::free(allocated);
    }
  }
}
} // namespace

llvm::Expected<std::vector<HostTensor>>
JitSession::call(llvm::ArrayRef<HostTensorView> inputs) {
  auto staged = stageCall(signature, inputs, funcName);
  if (!staged)
    return staged.takeError();
  if (llvm::Error error = invokeChecked(function, (*staged)->packed.data()))
    return std::move(error);
  std::vector<HostTensor> outputs;
  takeResults(signature, **staged, &outputs, usesRuntimeAllocator);
  return outputs;
}

llvm::Expected<std::vector<double>>
JitSession::timeCalls(llvm::ArrayRef<HostTensorView> inputs,
                      unsigned repeat) {
  auto staged = stageCall(signature, inputs, funcName);
  if (!staged)
    return staged.takeError();
  std::vector<double> samples;
  for (unsigned i = 0; i < repeat; ++i) {
    auto start = std::chrono::steady_clock::now();
    if (llvm::Error error =
            invokeChecked(function, (*staged)->packed.data()))
      return std::move(error);
    auto end = std::chrono::steady_clock::now();
    samples.push_back(
        std::chrono::duration<double, std::milli>(end - start).count());
    takeResults(signature, **staged, /*outputs=*/nullptr,
                usesRuntimeAllocator);
  }
  return samples;
}

FunctionType runner::getFunctionType(const TensorSignature &signature,
                                     MLIRContext *context) {
  SmallVector<Type> inputs(signature.inputs.begin(), signature.inputs.end());
  SmallVector<Type> results(signature.results.begin(),
                            signature.results.end());
  return FunctionType::get(context, inputs, results);
}
