//===- quant-runner.cpp - JIT-execute qops IR and check the numbers -------===//
//
//   quant-runner FILE.mlir|FILE.onnx [-e FUNC] [--input X.npy|X.pb]...
//                [--output Y.npy]... [--expect Y.npy|Y.pb]... [--print]
//                [--repeat N] [--no-lower]
//   quant-runner --onnx-test DIR...
//
// Lowers FILE (qops on tensors, or an ONNX model imported into qops) with
// the qops-lower-to-llvm pipeline, unless --no-lower says it already is in
// the LLVM dialect, JIT-compiles it, calls FUNC on the inputs and writes,
// prints or checks its results. --onnx-test runs ONNX backend node-test
// directories (OnnxTestMode.cpp).
//
// Exit codes: 0 all good; 1 a result differs from its --expect; 2 usage,
// input or compilation errors (one line each, no crash).
//
//===----------------------------------------------------------------------===//

#include "OnnxTestMode.h"
#include "QuantOps/Pipelines/Pipelines.h"
#include "QuantOps/Runner/Compile.h"

#include "QuantOps/Runner/HostTensor.h"
#include "QuantOps/Runner/JitSession.h"
#include "QuantOps/Runner/ObjectCache.h"
#include "QuantOps/Target/ONNX/OnnxTensor.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <future>
#include <optional>

using namespace mlir;
using namespace mlir::qops;
using namespace mlir::qops::runner;
namespace cl = llvm::cl;

namespace {

enum ExitCode { kSuccess = 0, kMismatch = 1, kUsageError = 2 };

cl::OptionCategory runnerCategory("quant-runner options");

cl::list<std::string> positional(cl::Positional,
                                 cl::desc("<FILE.mlir|FILE.onnx> or, with "
                                          "--onnx-test, <DIR>..."),
                                 cl::cat(runnerCategory));
cl::opt<bool> onnxTest("onnx-test",
                       cl::desc("Run ONNX node-test directories (model.onnx, "
                                "test_data_set_N/input_K.pb, output_K.pb)"),
                       cl::cat(runnerCategory));
cl::opt<bool> allowUnsupported(
    "allow-unsupported",
    cl::desc("With --onnx-test: count models with an unsupported operator "
             "as skipped instead of failed"),
    cl::cat(runnerCategory));
cl::opt<std::string> entryPoint("e", cl::desc("The function to call"),
                                cl::value_desc("FUNC"), cl::init("main"),
                                cl::cat(runnerCategory));
cl::list<std::string> inputs("input",
                             cl::desc("An argument, one per function "
                                      "argument in order (.npy or "
                                      "TensorProto .pb)"),
                             cl::value_desc("X.npy|X.pb"),
                             cl::cat(runnerCategory));
cl::list<std::string> outputs("output",
                              cl::desc("Where to write a result, one per "
                                       "function result in order (.npy)"),
                              cl::value_desc("Y.npy"),
                              cl::cat(runnerCategory));
cl::list<std::string> expects("expect",
                              cl::desc("Expected result, one per function "
                                       "result in order (.npy or .pb), "
                                       "compared bit-exactly"),
                              cl::value_desc("Y.npy|Y.pb"),
                              cl::cat(runnerCategory));
cl::opt<bool> printResults("print", cl::desc("Print the results"),
                           cl::cat(runnerCategory));
cl::opt<unsigned> repeat("repeat",
                         cl::desc("Call the function N times and print the "
                                  "median time of one call"),
                         cl::value_desc("N"), cl::init(0),
                         cl::cat(runnerCategory));
cl::opt<bool> noLower("no-lower",
                      cl::desc("FILE is already in the LLVM dialect"),
                      cl::cat(runnerCategory));
cl::opt<unsigned> optLevel("O", cl::desc("LLVM optimization level (0-3)"),
                           cl::init(3), cl::Prefix, cl::cat(runnerCategory));
// libLLVM already registers a global "-threads" option, so ours is
// registered as --qops-threads and main() maps --threads onto it.
cl::opt<unsigned> threads("qops-threads",
                          cl::desc("Threads for the outer loops (default: "
                                   "every core); results are identical for "
                                   "every count"),
                          cl::value_desc("N"), cl::init(0),
                          cl::cat(runnerCategory));
cl::opt<unsigned> compileThreads(
    "compile-threads",
    cl::desc("Threads for LLVM's optimisation and code generation, each on "
             "a part of the module (default: every core); the code is the "
             "same for every count"),
    cl::value_desc("N"), cl::init(0), cl::cat(runnerCategory));
cl::opt<bool> fuseQDQ(
    "fuse-qdq",
    cl::desc("Fuse DequantizeLinear -> MatMul / Conv -> QuantizeLinear "
             "into qlinear_matmul / qlinear_conv before lowering "
             "(qops-fuse-qdq; the fused int8 contraction rounds once, as "
             "QLinearMatMul does)"),
    cl::cat(runnerCategory));
cl::opt<bool> floatFma(
    "float-fma",
    cl::desc("Float MatMul / Gemm steps as fused multiply-adds (one "
             "rounding per step) instead of a multiply and an add in "
             "increasing k (the default: the same result everywhere)"),
    cl::cat(runnerCategory));
cl::opt<unsigned> qdqAccuracyLevel(
    "qdq-accuracy-level",
    cl::desc("Accuracy level (0-4) of a DequantizeLinear -> MatMul of 4-bit "
             "weights blocked along k, as ONNX Runtime's "
             "session.qdq_matmulnbits_accuracy_level: 4 quantizes A to int8 "
             "per block (ONNX Runtime's default; not ONNX's numbers), 0-3 "
             "keep f32 (the default, 0: exactly the graph)"),
    cl::value_desc("N"), cl::init(0), cl::cat(runnerCategory));
cl::opt<std::string> targetCpu(
    "target-cpu",
    cl::desc("CPU to compile for, as llc -mcpu (default: this one); it "
             "must be able to run here"),
    cl::value_desc("NAME"), cl::cat(runnerCategory));
cl::opt<std::string> targetFeatures(
    "target-features",
    cl::desc("Target features on top of the CPU's, llc -mattr style; e.g. "
             "-avx512vnni,-avxvnni for the AVX2 int8 kernels on a VNNI "
             "machine"),
    cl::value_desc("+a,-b"), cl::cat(runnerCategory));
cl::opt<int64_t> nontemporalMinBytes(
    "nontemporal-min-bytes",
    cl::desc("Results of at least this many bytes are written with "
             "non-temporal (streaming) vector stores; 0: never"),
    cl::value_desc("BYTES"), cl::init(8 << 20), cl::cat(runnerCategory));
cl::opt<bool> constEval(
    "const-eval",
    cl::desc("Pack constant weights while compiling (qops-const-eval: the "
             "packing IR run with the JIT) instead of at the first call"),
    cl::cat(runnerCategory));
cl::opt<bool> showTiming("timing",
                         cl::desc("Print set-up/parse/lower/compile/run "
                                  "times to stderr"),
                         cl::cat(runnerCategory));
cl::opt<std::string> cacheDir(
    "cache-dir",
    cl::desc("Keep compiled objects in DIR and link them instead of "
             "compiling again when the same file is run with the same "
             "options on this CPU with this build (default: "
             "$QUANTOPS_CACHE_DIR; without either, no cache)"),
    cl::value_desc("DIR"),
    cl::init(std::getenv("QUANTOPS_CACHE_DIR")
                 ? std::getenv("QUANTOPS_CACHE_DIR")
                 : ""),
    cl::cat(runnerCategory));
cl::opt<uint64_t> cacheMaxBytes(
    "cache-max-bytes",
    cl::desc("With --cache-dir: remove the least recently used entries "
             "while the folder's entries take more than this (default 1 "
             "GiB; 0: no bound)"),
    cl::value_desc("BYTES"), cl::init(ObjectCache::kDefaultMaxBytes),
    cl::cat(runnerCategory));
cl::opt<bool> dumpLowered("dump-lowered",
                          cl::desc("Print the lowered module to stdout and "
                                   "exit"),
                          cl::cat(runnerCategory));

using Clock = std::chrono::steady_clock;
/// When main started: after the shared libraries were loaded and their
/// static constructors ran, which --timing does not count.
Clock::time_point mainStart;
double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Prints "quant-runner: <message>" and returns the usage error code.
int fail(const llvm::Twine &message) {
  llvm::errs() << "quant-runner: " << message << "\n";
  return kUsageError;
}
int fail(llvm::Error error) { return fail(llvm::toString(std::move(error))); }

unsigned threadCount() {
  return threads == 0 ? getDefaultThreadCount() : unsigned(threads);
}

int checkResults(llvm::ArrayRef<HostTensor> results) {
  int status = kSuccess;
  for (auto [i, path] : llvm::enumerate(expects)) {
    llvm::Expected<HostTensor> expected = loadTensorFile(path);
    if (!expected)
      return fail(expected.takeError());
    const HostTensor &got = results[i];
    // numpy has no bf16: expected bf16 values are stored as their u2 bits.
    if (got.kind == ElementKind::BF16 && expected->kind == ElementKind::U16)
      expected->kind = ElementKind::BF16;
    if (got.kind != expected->kind || got.shape != expected->shape) {
      llvm::outs() << llvm::formatv(
          "result {0}: got {1} {2}, expected {3} {4} ({5})\n", i,
          getKindName(got.kind), formatShape(got.shape),
          getKindName(expected->kind), formatShape(expected->shape), path);
      status = kMismatch;
      continue;
    }
    llvm::Expected<CompareResult> comparison =
        compareBitExact(got, *expected);
    if (!comparison)
      return fail(comparison.takeError());
    if (comparison->mismatchCount == 0)
      continue;
    status = kMismatch;
    llvm::outs() << llvm::formatv(
        "result {0}: {1} of {2} elements differ from {3}\n", i,
        comparison->mismatchCount, got.numElements(), path);
    for (const Mismatch &mismatch : comparison->first)
      llvm::outs() << llvm::formatv("  at {0}: got {1}, expected {2}\n",
                                    formatShape(mismatch.index), mismatch.got,
                                    mismatch.expected);
  }
  if (status == kSuccess && !expects.empty())
    llvm::outs() << "all " << expects.size() << " results match\n";
  return status;
}

/// Reads the --input files and checks them against the signature.
llvm::Expected<std::vector<HostTensor>>
loadArguments(const TensorSignature &signature) {
  if (inputs.size() != signature.inputs.size())
    return makeError(llvm::formatv("'{0}' takes {1} arguments but {2} "
                                   "--input files were given",
                                   entryPoint, signature.inputs.size(),
                                   inputs.size()));
  if (outputs.size() > signature.results.size() ||
      expects.size() > signature.results.size())
    return makeError(llvm::formatv("'{0}' returns {1} results but {2} "
                                   "--output and {3} --expect files were "
                                   "given",
                                   entryPoint, signature.results.size(),
                                   outputs.size(), expects.size()));
  std::vector<HostTensor> arguments;
  for (auto [i, path] : llvm::enumerate(inputs)) {
    llvm::Expected<HostTensor> tensor = loadTensorFile(path);
    if (!tensor)
      return tensor.takeError();
    std::string what = llvm::formatv("input {0} ({1})", i, path);
    if (llvm::Error error =
            checkTensorMatchesType(*tensor, signature.inputs[i], what))
      return std::move(error);
    arguments.push_back(std::move(*tensor));
  }
  return arguments;
}

/// Calls the session: times, writes, prints and checks its results.
/// `timing` is what came before the first call ("set-up ... ms, parse ...
/// ms, ...").
int callSession(JitSession &session, llvm::ArrayRef<HostTensor> arguments,
                const std::string &timing) {
  auto start = Clock::now();
  auto results = session.call(arguments);
  if (!results)
    return fail(results.takeError());
  double firstCallMs = millisecondsSince(start);
  if (showTiming)
    llvm::errs() << llvm::formatv("timing: {0}, first call {1:f2} ms\n",
                                  timing, firstCallMs);

  if (repeat > 0) {
    auto times = session.timeCalls(arguments, repeat);
    if (!times)
      return fail(times.takeError());
    std::sort(times->begin(), times->end());
    size_t n = times->size();
    double median = n % 2 ? (*times)[n / 2]
                          : ((*times)[n / 2 - 1] + (*times)[n / 2]) / 2;
    llvm::outs() << llvm::formatv(
        "median time per call: {0:f4} ms over {1} runs (min {2:f4} ms)\n",
        median, repeat, times->front());
  }

  for (auto [i, path] : llvm::enumerate(outputs))
    if (llvm::Error error = writeNpy(path, (*results)[i]))
      return fail(std::move(error));
  if (printResults) {
    for (auto [i, tensor] : llvm::enumerate(*results)) {
      llvm::outs() << "result " << i << ": "
                   << session.getSignature().results[i] << " = ";
      printTensor(llvm::outs(), tensor);
      llvm::outs() << "\n";
    }
  }
  return checkResults(*results);
}

LoweringOptions getLoweringOptions() {
  LoweringOptions lowering;
  lowering.threads = threadCount();
  lowering.fuseQDQ = fuseQDQ;
  lowering.floatFma = floatFma;
  lowering.qdqAccuracyLevel = qdqAccuracyLevel;
  lowering.targetCpu = targetCpu;
  lowering.targetFeatures = targetFeatures;
  lowering.nontemporalMinBytes = nontemporalMinBytes;
  lowering.constEval = constEval;
  return lowering;
}

/// The command line as given (after the --threads rewrite), for the cache
/// key: an option of libLLVM or libMLIR (-force-vector-width=4, ...)
/// changes the code as much as one of quant-runner's.
std::vector<std::string> commandLine;

/// Adds the command line to `key`, less what does not change the code: the
/// input file's name (its bytes are in the key), the argument and result
/// files, printing, timing and cache options, and the compile's threads (an
/// object compiled in parts links and runs as the same code in one).
void addCommandLine(CacheKey &key, llvm::StringRef inputFile) {
  static const llvm::StringSet<> withValue{"input", "output", "expect",
                                           "repeat", "cache-dir",
                                           "cache-max-bytes",
                                           "compile-threads"};
  static const llvm::StringSet<> flags{"print", "timing"};
  for (size_t i = 1; i < commandLine.size(); ++i) {
    llvm::StringRef token = commandLine[i];
    if (token == inputFile)
      continue;
    auto [name, value] = token.ltrim('-').split('=');
    if (token.starts_with("-") && withValue.contains(name)) {
      if (!token.contains('='))
        ++i; // its value is the next token
      continue;
    }
    if (!token.starts_with("-") || !flags.contains(name))
      key.add(token);
  }
}

/// The cache key of this compile: the file's bytes, how it is read, every
/// option the code depends on (the lowering's as resolved, the command
/// line as given), or nothing for a model whose import may read external
/// data files (onnx::mayReadExternalData): their bytes would not be in the
/// key.
llvm::Expected<std::optional<std::string>>
getCacheKey(llvm::StringRef inputFile) {
  auto buffer = llvm::MemoryBuffer::getFile(inputFile, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError("cannot read " + inputFile + ": " +
                     buffer.getError().message());
  llvm::StringRef bytes = (*buffer)->getBuffer();
  if (inputFile.ends_with(".onnx") && onnx::mayReadExternalData(bytes))
    return std::nullopt;
  CacheKey key;
  key.add(bytes).add(llvm::sys::path::extension(inputFile));
  addToCacheKey(key, getLoweringOptions());
  addCommandLine(key, inputFile);
  return key.finish();
}

int run(llvm::StringRef inputFile) {
  LoweringOptions lowering = getLoweringOptions();
  // The target's check (LLVM's subtarget tables of the target and of the
  // host; no MLIR, about 0.75 ms) on the idle core while this one makes the
  // dialect registry and the context (docs/Performance.md "The set-up
  // counted", "The runner's registry").
  std::future<llvm::Error> targetChecked =
      std::async(std::launch::async,
                 [&lowering] { return checkTargetRunsOnHost(lowering); });
  DialectRegistry registry;
  registerRunnerDialects(registry);
  MLIRContext context(registry);
  if (llvm::Error error = targetChecked.get())
    return fail(std::move(error));
  llvm::Expected<JitOptions> jitOptions =
      getJitOptions(optLevel, threadCount());
  if (!jitOptions)
    return fail(jitOptions.takeError());
  jitOptions->compileThreads = compileThreads;
  jitOptions->borrowConstants = true; // `context` outlives the session

  // The set-up (options, the dialect registry, the context, the target's
  // check): what the process does before the cache key's hashing of the
  // file and its lookup, and the parse.
  double setupMs = millisecondsSince(mainStart);
  // A cached object of the same compile: linked, not compiled again.
  std::optional<ObjectCache> cache;
  std::string key;
  auto start = Clock::now();
  if (!cacheDir.empty() && !dumpLowered) {
    llvm::Expected<std::optional<std::string>> computed =
        getCacheKey(inputFile);
    if (!computed)
      return fail(computed.takeError());
    if (!*computed)
      llvm::errs() << "quant-runner: warning: not caching " << inputFile
                   << ": its weights are in external data files, which the "
                      "cache key does not cover\n";
    else
      key = **computed;
  }
  // Loading the runtime's libraries (and starting libomp's runtime) is not
  // compiling or linking: on the idle core, beside the cached object's load
  // or the parsing. (After the cache key, which covers the libraries loaded
  // so far.)
  std::future<void> libraries = preloadSharedLibraries(*jitOptions);
  if (!key.empty()) {
    cache.emplace(cacheDir, cacheMaxBytes);
    auto session = cache->load(key, entryPoint, &context, *jitOptions);
    if (!session) {
      llvm::errs() << "quant-runner: warning: ignoring the cached object ("
                   << llvm::toString(session.takeError())
                   << "); compiling again\n";
    } else if (*session) {
      double loadMs = millisecondsSince(start);
      auto arguments = loadArguments((*session)->getSignature());
      if (!arguments)
        return fail(arguments.takeError());
      return callSession(**session, *arguments,
                         llvm::formatv("set-up {0:f2} ms, object cache hit, "
                                       "load {1:f2} ms",
                                       setupMs, loadMs));
    }
  }

  start = Clock::now();
  auto module = loadModule(inputFile, &context);
  if (!module)
    return fail(module.takeError());
  double parseMs = millisecondsSince(start);
  // The target machines are made on the idle core while the module is
  // lowered (after parsing, which the libraries' loading overlaps).
  if (!dumpLowered)
    jitOptions->machines = startMachineSupply(*jitOptions, lowering);

  // Check the command line against the signature before compiling.
  llvm::Expected<TensorSignature> signature =
      getTensorSignature(**module, entryPoint);
  if (!signature)
    return fail(signature.takeError());
  std::vector<HostTensor> arguments;
  if (!dumpLowered) {
    auto loaded = loadArguments(*signature);
    if (!loaded)
      return fail(loaded.takeError());
    arguments = std::move(*loaded);
  }

  // The packed weights (--const-eval) are computed by the module's own
  // code once the session links it, before the first call.
  if (lowering.constEval && !dumpLowered)
    runner::prepareConstEval(*jitOptions);
  // The int8 kernels are lowered and compiled on the idle core.
  if (!dumpLowered)
    runner::prepareKernelsApart(*jitOptions);
  start = Clock::now();
  if (!noLower)
    if (llvm::Error error =
            lowerForEntry(**module, entryPoint, lowering, jitOptions->constEval,
                          jitOptions->kernelsApart))
      return fail(std::move(error));
  double lowerMs = millisecondsSince(start);
  if (dumpLowered) {
    (*module)->print(llvm::outs());
    return kSuccess;
  }

  start = Clock::now();
  jitOptions->keepObject = cache.has_value();
  auto session = JitSession::create(**module, entryPoint, *jitOptions);
  if (!session)
    return fail(session.takeError());
  double compileMs = millisecondsSince(start);
  std::string timing = llvm::formatv(
      "set-up {0:f2} ms, parse {1:f2} ms, lower {2:f2} ms, JIT compile {3:f2} "
      "ms",
      setupMs, parseMs, lowerMs, compileMs);
  if (cache) {
    start = Clock::now();
    if (llvm::Error error = cache->store(key, **session, &context))
      llvm::errs() << "quant-runner: warning: the compiled object was not "
                      "cached: "
                   << llvm::toString(std::move(error)) << "\n";
    timing += llvm::formatv(", cache store {0:f2} ms", millisecondsSince(start));
  }
  return callSession(**session, arguments, timing);
}

} // namespace

int main(int argc, char **argv) {
  mainStart = Clock::now();
  llvm::InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(runnerCategory);
  // --threads N / --threads=N / -threads ... -> --qops-threads.
  std::vector<std::string> storage(argv, argv + argc);
  for (std::string &arg : storage) {
    llvm::StringRef ref(arg);
    for (llvm::StringRef prefix : {"--threads", "-threads"})
      if (ref == prefix || ref.starts_with((prefix + "=").str()))
        arg = "--qops-threads" + ref.drop_front(prefix.size()).str();
  }
  commandLine = storage;
  std::vector<char *> rewritten;
  for (std::string &arg : storage)
    rewritten.push_back(arg.data());
  argc = int(rewritten.size());
  argv = rewritten.data();
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "quant-runner: JIT-execute qops IR\n",
                                   &llvm::errs()))
    return kUsageError;
  if (qdqAccuracyLevel > 4)
    return fail("--qdq-accuracy-level must be 0 to 4, got " +
                llvm::Twine(qdqAccuracyLevel.getValue()));
  if (onnxTest) {
    if (positional.empty())
      return fail("--onnx-test needs at least one directory");
    OnnxTestOptions options;
    options.optLevel = optLevel;
    options.threads = threadCount();
    options.allowUnsupported = allowUnsupported;
    return runOnnxTests(positional, options);
  }
  if (positional.size() != 1)
    return fail(positional.empty()
                    ? "no input file (usage: quant-runner FILE.mlir|FILE.onnx "
                      "[options]; see --help)"
                    : "exactly one input file expected");
  return run(positional.front());
}
