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

#include "QuantOps/Runner/AotCompile.h"
#include "QuantOps/Runner/Compile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

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

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "QuantOps ahead-of-time compiler\n");

  DialectRegistry registry;
  qops::runner::registerRunnerDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  auto module = qops::runner::loadModule(inputPath, &context);
  if (!module)
    return fail(llvm::toString(module.takeError()));

  qops::runner::AotOptions options;
  options.targetTriple = targetTriple;
  options.targetCpu = targetCpu;
  options.targetFeatures = targetFeatures;
  options.int8Strategy = int8Strategy;
  options.constEval = constEval;
  options.parallel = parallel;
  options.runtimeAllocator = runtimeAllocator;
  options.optLevel = optLevel;
  options.sourceName = inputPath;
  if (llvm::Error error = qops::runner::compileToObject(
          **module, options, outputPath, headerPath))
    return fail(llvm::toString(std::move(error)));
  return 0;
}
