//===- quant-compile.cpp - ahead-of-time compilation of qops programs -----===//
//
//   quant-compile FILE.mlir|FILE.onnx -o OUT.o [--header OUT.h]
//       [--target-triple T] [--target-cpu C] [--target-features F] [-O N]
//       [--int8-strategy S] [--const-eval=false] [--parallel]
//       [--runtime-allocator]
//
// Lowers every public function with qops-lower-to-llvm for the target (its
// vector strategy and LLVM's code generation), with C entry points
// (`_mlir_ciface_<name>`, MLIR's C interface: each tensor becomes a pointer
// to a strided memref descriptor; results come first, through a pointer),
// and writes an object file for any triple LLVM knows, plus a C header with
// the descriptor types and prototypes. Results are allocated with
// aligned_alloc: the caller frees their `allocated` pointer with free().
// With --parallel the loops run on OpenMP threads (the object calls libomp's
// __kmpc_* entry points: link with -lomp); with --runtime-allocator every
// buffer, results included, comes from the linking program's
// _mlir_memref_to_llvm_aligned_alloc and goes back to its
// _mlir_memref_to_llvm_free (MLIR's generic allocation functions).
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Dialect/QOps/IR/QOpsDialect.h"
#include "QuantOps/Pipelines/Pipelines.h"
#include "QuantOps/Target/ONNX/OnnxImporter.h"
#include "QuantOps/Target/TargetInfo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory category("quant-compile options");
cl::opt<std::string> inputPath(cl::Positional, cl::desc("<FILE.mlir|FILE.onnx>"),
                               cl::Required, cl::cat(category));
cl::opt<std::string> outputPath("o", cl::desc("Object file to write"),
                                cl::value_desc("OUT.o"), cl::Required,
                                cl::cat(category));
cl::opt<std::string> headerPath("header",
                                cl::desc("C header with the entry points"),
                                cl::value_desc("OUT.h"), cl::cat(category));
cl::opt<std::string> targetTriple("target-triple",
                                  cl::desc("LLVM triple (default: the host)"),
                                  cl::cat(category));
cl::opt<std::string> targetCpu("target-cpu",
                               cl::desc("CPU, as llc -mcpu (default: the "
                                        "host's, or generic for another "
                                        "triple)"),
                               cl::cat(category));
cl::opt<std::string> targetFeatures("target-features",
                                    cl::desc("Features, as llc -mattr"),
                                    cl::cat(category));
cl::opt<std::string> int8Strategy(
    "int8-strategy",
    cl::desc("The int8 QLinearMatMul kernel: auto (the target's), madd, "
             "maddubs, vnni, avxvnni, amx, usmmla, usdot or sdot"),
    cl::init("auto"), cl::cat(category));
cl::opt<bool> constEval(
    "const-eval",
    cl::desc("Pack constant weights now, running their packing with the JIT "
             "on this host (qops-const-eval), so that the object holds them "
             "packed; off: the first call of each function packs them "
             "(default on; little-endian host and target)"),
    cl::init(true), cl::cat(category));
cl::opt<bool> parallel(
    "parallel",
    cl::desc("Run the parallel loops (the int8 kernels' tiles, packings, "
             "elementwise ops) on OpenMP threads: link the object with "
             "libomp (-lomp); OMP_NUM_THREADS or omp_set_num_threads sets "
             "the count (default off: single-threaded code, libc only)"),
    cl::init(false), cl::cat(category));
cl::opt<bool> runtimeAllocator(
    "runtime-allocator",
    cl::desc("Allocate through _mlir_memref_to_llvm_aligned_alloc / "
             "_mlir_memref_to_llvm_free, which the program linking the "
             "object defines (e.g. a cache that keeps large blocks between "
             "calls), instead of aligned_alloc / free"),
    cl::init(false), cl::cat(category));
cl::opt<unsigned> optLevel("O", cl::desc("LLVM optimization level (0-3)"),
                           cl::init(3), cl::Prefix, cl::cat(category));

int fail(const llvm::Twine &message) {
  llvm::errs() << "quant-compile: " << message << "\n";
  return 1;
}

FailureOr<OwningOpRef<ModuleOp>> loadModule(MLIRContext *context) {
  if (StringRef(inputPath).ends_with(".onnx")) {
    auto module = qops::onnx::importOnnxFile(inputPath, context);
    if (!module) {
      llvm::errs() << "quant-compile: " << llvm::toString(module.takeError())
                   << "\n";
      return failure();
    }
    return std::move(*module);
  }
  llvm::SourceMgr sourceMgr;
  std::string error;
  if (sourceMgr.AddIncludeFile(inputPath, llvm::SMLoc(), error) == 0) {
    fail("cannot open '" + inputPath + "'");
    return failure();
  }
  SourceMgrDiagnosticHandler handler(sourceMgr, context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, context);
  if (!module)
    return failure();
  return module;
}

/// The C name of a storage element type.
std::string cType(Type type) {
  if (type.isF32())
    return "float";
  if (type.isF64())
    return "double";
  if (type.isF16() || type.isBF16())
    return "uint16_t";
  if (isa<FloatType>(type)) // float8 / float4 / e8m0 bit patterns
    return "uint8_t";
  auto intType = cast<IntegerType>(type);
  std::string base = intType.isUnsigned() ? "uint" : "int";
  unsigned width = std::max(8u, intType.getWidth());
  return base + std::to_string(width) + "_t";
}

/// `struct qops_memref_<ctype>_<rank>d` with MLIR's descriptor layout.
std::string descriptorName(RankedTensorType type) {
  return "qops_memref_" + cType(type.getElementType()) + "_" +
         std::to_string(type.getRank()) + "d";
}

/// The header: descriptor structs and one prototype per function, from the
/// ONNX-typed signatures (before lowering).
std::string makeHeader(ArrayRef<func::FuncOp> functions) {
  std::string text = "/* Generated by quant-compile: C entry points of " +
                     inputPath + ". */\n#pragma once\n#include <stdint.h>\n\n";
  llvm::StringSet<> declared;
  auto declare = [&](RankedTensorType type) {
    std::string name = descriptorName(type);
    if (!declared.insert(name).second)
      return;
    std::string element = cType(type.getElementType());
    int64_t rank = type.getRank();
    text += "typedef struct {\n  " + element + " *allocated;\n  " + element +
            " *aligned;\n  int64_t offset;\n";
    if (rank > 0)
      text += "  int64_t sizes[" + std::to_string(rank) +
              "];\n  int64_t strides[" + std::to_string(rank) + "];\n";
    text += "} " + name + ";\n\n";
  };
  for (func::FuncOp func : functions) {
    FunctionType type = func.getFunctionType();
    for (Type t : llvm::concat<const Type>(type.getInputs(), type.getResults()))
      declare(cast<RankedTensorType>(t));
    std::string name = func.getSymName().str();
    std::string resultParam;
    if (type.getNumResults() == 1) {
      resultParam = descriptorName(cast<RankedTensorType>(type.getResult(0))) +
                    " *result";
    } else if (type.getNumResults() > 1) {
      text += "typedef struct {\n";
      for (auto [i, t] : llvm::enumerate(type.getResults()))
        text += "  " + descriptorName(cast<RankedTensorType>(t)) + " r" +
                std::to_string(i) + ";\n";
      text += "} " + name + "_results;\n\n";
      resultParam = name + "_results *results";
    }
    text += runtimeAllocator
                ? "/* Results are allocated with your "
                  "_mlir_memref_to_llvm_aligned_alloc: release x.allocated "
                  "with your _mlir_memref_to_llvm_free. */\n"
                : "/* Results are allocated with aligned_alloc: "
                  "free(x.allocated). */\n";
    text += "void _mlir_ciface_" + name + "(";
    SmallVector<std::string> params;
    if (!resultParam.empty())
      params.push_back(resultParam);
    for (auto [i, t] : llvm::enumerate(type.getInputs()))
      params.push_back(descriptorName(cast<RankedTensorType>(t)) + " *arg" +
                       std::to_string(i));
    text += llvm::join(params, ", ") + ");\n\n";
  }
  return text;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargets();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmPrinters();
  // Inline assembly (the AMX permission request) needs the parsers.
  llvm::InitializeAllAsmParsers();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "QuantOps ahead-of-time compiler\n");

  DialectRegistry registry;
  registry.insert<qops::QOpsDialect>();
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  auto module = loadModule(&context);
  if (failed(module))
    return 1;

  // The target: another triple starts from its generic CPU, the host's
  // from this CPU.
  qops::QOpsTarget wanted{targetTriple, targetCpu, targetFeatures};
  if (!targetTriple.empty() && targetCpu.empty())
    wanted.cpu = "generic";
  llvm::Expected<qops::QOpsTarget> target = qops::resolveTarget(wanted);
  if (!target)
    return fail(llvm::toString(target.takeError()));
  llvm::Expected<std::optional<qops::Int8KernelStrategy>> named =
      qops::parseInt8StrategyOption(int8Strategy);
  if (!named)
    return fail("--" + llvm::toString(named.takeError()));
  if (*named) {
    std::string unsupported =
        qops::int8StrategyUnsupportedReason(*target, **named);
    if (!unsupported.empty())
      return fail("--int8-strategy=" + int8Strategy +
                  " cannot run on target '" + target->triple + "' (CPU '" +
                  target->cpu + "'): it " + unsupported);
  }

  SmallVector<func::FuncOp> functions;
  for (auto func : (*module)->getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal()) {
      FunctionType type = func.getFunctionType();
      for (Type t :
           llvm::concat<const Type>(type.getInputs(), type.getResults()))
        if (!isa<RankedTensorType>(t))
          return fail("function '" + func.getSymName() +
                      "': only ranked tensor arguments and results have a C "
                      "entry point");
      func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    UnitAttr::get(&context));
      functions.push_back(func);
    }
  std::string header = makeHeader(functions);

  PassManager pm(&context, ModuleOp::getOperationName());
  qops::QOpsPipelineOptions options;
  options.targetTriple = target->triple;
  options.targetCpu = target->cpu;
  options.targetFeatures = target->features;
  options.int8Strategy = int8Strategy;
  options.constEval = constEval;
  options.parallel = parallel;
  options.runtimeAllocator = runtimeAllocator;
  qops::buildQOpsLowerToLLVMPipeline(pm, options);
  if (failed(pm.run(**module)))
    return fail("lowering failed");

  std::string error;
  llvm::Triple triple(target->triple);
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget)
    return fail(error);
  std::unique_ptr<llvm::TargetMachine> machine(llvmTarget->createTargetMachine(
      triple, target->cpu, target->features, llvm::TargetOptions(),
      llvm::Reloc::PIC_));
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(**module, llvmContext);
  if (!llvmModule)
    return fail("translation to LLVM IR failed");
  llvmModule->setDataLayout(machine->createDataLayout());
  llvmModule->setTargetTriple(triple);
  auto optimize = makeOptimizingTransformer(optLevel, 0, machine.get());
  if (llvm::Error err = optimize(llvmModule.get()))
    return fail(llvm::toString(std::move(err)));

  std::error_code ec;
  llvm::ToolOutputFile object(outputPath, ec, llvm::sys::fs::OF_None);
  if (ec)
    return fail("cannot write '" + outputPath + "': " + ec.message());
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, object.os(), nullptr,
                                   llvm::CodeGenFileType::ObjectFile))
    return fail("the target cannot emit object files");
  codegen.run(*llvmModule);
  object.keep();

  if (!headerPath.empty()) {
    llvm::ToolOutputFile headerFile(headerPath, ec, llvm::sys::fs::OF_Text);
    if (ec)
      return fail("cannot write '" + headerPath + "': " + ec.message());
    headerFile.os() << header;
    headerFile.keep();
  }
  return 0;
}
