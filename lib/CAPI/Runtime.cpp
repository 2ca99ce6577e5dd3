//===- Runtime.cpp - the QuantOps runtime C API ---------------------------===//
//
// include/QuantOps-c/Runtime.h over the runner library: a session is an
// MLIR context, the model's lowered and JIT-compiled entry point
// (JitSession) and its ONNX-typed inputs and outputs. Every C++ error
// (llvm::Error) becomes a QopsStatus with the same one-line message
// quant-runner prints.
//
//===----------------------------------------------------------------------===//

#include "QuantOps-c/Runtime.h"

#include "QuantOps/Pipelines/Pipelines.h"
#include "QuantOps/Runner/AotCompile.h"
#include "QuantOps/Runner/Compile.h"
#include "QuantOps/Target/ONNX/OnnxImporter.h"
#include "QuantOps/Target/ONNX/OnnxTensor.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <new>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::qops;
using namespace mlir::qops::runner;

struct QopsStatus {
  std::string message;
};

struct QopsSessionOptions {
  LoweringOptions lowering;
  unsigned threads = 0; // 0: every core
  unsigned optLevel = 3;
};

namespace {
/// One input or output as the model declares it.
struct TensorInfo {
  std::string name;
  int32_t elementType = QOPS_TYPE_UNDEFINED;
  std::vector<int64_t> shape; // -1: dynamic
};
} // namespace

struct QopsSession {
  /// Before `jit`, which refers to its constants (borrowConstants) and so
  /// must be destroyed first.
  MLIRContext context;
  std::unique_ptr<JitSession> jit;
  std::vector<TensorInfo> inputs, outputs;
  unsigned threads = 1;
  /// libomp's omp_set_num_threads when threads > 1: the team size is set
  /// before each run, so sessions with other counts share the process.
  void (*setNumThreads)(int) = nullptr;

  explicit QopsSession(const DialectRegistry &registry) : context(registry) {}
};

namespace {

QopsStatus *makeStatus(const llvm::Twine &message) {
  return new (std::nothrow) QopsStatus{message.str()};
}

QopsStatus *makeStatus(llvm::Error error) {
  return makeStatus(llvm::toString(std::move(error)));
}

/// The ONNX data type of an element type: the importer's mapping read
/// backwards; signless integers (MLIR input) as the signed type.
int32_t getOnnxDataType(Type type) {
  for (int32_t code = 1; code <= QOPS_TYPE_INT2; ++code)
    if (onnx::getOnnxHostElementKind(code) &&
        onnx::getOnnxElementType(type.getContext(), code) == type)
      return code;
  if (auto intType = dyn_cast<IntegerType>(type); intType &&
                                                  intType.isSignless()) {
    switch (intType.getWidth()) {
    case 8: return QOPS_TYPE_INT8;
    case 16: return QOPS_TYPE_INT16;
    case 32: return QOPS_TYPE_INT32;
    case 64: return QOPS_TYPE_INT64;
    default: break;
    }
  }
  return QOPS_TYPE_UNDEFINED;
}

/// An element type in messages, as onnxruntime names it: "float", "uint8".
std::string describeType(int32_t code) {
  return llvm::StringRef(onnx::getOnnxDataTypeName(code)).lower();
}

std::vector<TensorInfo> describe(llvm::ArrayRef<RankedTensorType> types,
                                 const std::vector<std::string> &names) {
  std::vector<TensorInfo> infos;
  for (auto [type, name] : llvm::zip(types, names)) {
    TensorInfo info{name, getOnnxDataType(type.getElementType()), {}};
    for (int64_t dim : type.getShape())
      info.shape.push_back(ShapedType::isDynamic(dim) ? -1 : dim);
    infos.push_back(std::move(info));
  }
  return infos;
}

/// Sessions are created one at a time: the LLVM target set-up and the
/// libomp environment are process-wide.
std::mutex &getCreateMutex() {
  static std::mutex mutex;
  return mutex;
}

LoweringOptions getLowering(const QopsSessionOptions *options,
                            unsigned threads) {
  LoweringOptions lowering = options ? options->lowering : LoweringOptions();
  lowering.threads = threads;
  return lowering;
}

/// Imports or parses the model, lowers it and compiles "main".
QopsStatus *createSession(llvm::StringRef bytes, bool isOnnx,
                          llvm::StringRef name,
                          const QopsSessionOptions *options,
                          QopsSession **result) {
  if (!result)
    return makeStatus("no place for the session (session is NULL)");
  *result = nullptr;
  std::lock_guard<std::mutex> lock(getCreateMutex());
  DialectRegistry registry;
  registerRunnerDialects(registry);
  auto session = std::make_unique<QopsSession>(registry);
  unsigned requested = options ? options->threads : 0;
  session->threads = requested ? requested : getDefaultThreadCount();
  LoweringOptions lowering = getLowering(options, session->threads);
  if (llvm::Error error = checkTargetRunsOnHost(lowering))
    return makeStatus(std::move(error));
  llvm::Expected<JitOptions> jitOptions =
      getJitOptions(options ? options->optLevel : 3, session->threads);
  if (!jitOptions)
    return makeStatus(jitOptions.takeError());
  // Loading the runtime's libraries overlaps parsing and lowering.
  std::future<void> libraries = preloadSharedLibraries(*jitOptions);

  auto module = loadModuleFromBuffer(bytes, isOnnx, name, &session->context);
  if (!module)
    return makeStatus(module.takeError());
  constexpr llvm::StringLiteral entry = "main";
  llvm::Expected<TensorSignature> signature =
      getTensorSignature(**module, entry);
  if (!signature)
    return makeStatus(signature.takeError());
  TensorNames names = getTensorNames(**module, entry, signature->inputs.size(),
                                     signature->results.size());
  session->inputs = describe(signature->inputs, names.inputs);
  session->outputs = describe(signature->results, names.outputs);
  // The target machines are made on the idle core while the module is
  // lowered.
  jitOptions->machines = startMachineSupply(*jitOptions, lowering);
  // const_eval: the weights are packed once the session links, before the
  // first call.
  if (lowering.constEval)
    runner::prepareConstEval(*jitOptions);
  // The int8 kernels are lowered and compiled on the idle core.
  runner::prepareKernelsApart(*jitOptions);
  if (llvm::Error error =
          lowerForEntry(**module, entry, lowering, jitOptions->constEval,
                        jitOptions->kernelsApart))
    return makeStatus(std::move(error));
  // The session's context outlives its JIT (QopsSession's members).
  jitOptions->borrowConstants = true;
  auto jit = JitSession::create(**module, entry, *jitOptions);
  if (!jit)
    return makeStatus(jit.takeError());
  session->jit = std::move(*jit);
  for (const std::string &lib : jitOptions->sharedLibs)
    if (llvm::StringRef(lib).contains("libomp"))
      if (void *handle = dlopen(lib.c_str(), RTLD_LAZY))
        session->setNumThreads = reinterpret_cast<void (*)(int)>(
            dlsym(handle, "omp_set_num_threads"));
  *result = session.release();
  return nullptr;
}

QopsStatus *getInfo(const std::vector<TensorInfo> &infos, size_t index,
                    QopsTensorInfo *info, const char *what) {
  if (!info)
    return makeStatus("no place for the information (info is NULL)");
  if (index >= infos.size())
    return makeStatus(llvm::formatv("{0} index {1} is out of range: the "
                                    "model has {2}",
                                    what, index, infos.size()));
  const TensorInfo &found = infos[index];
  *info = {found.name.c_str(), found.elementType, found.shape.size(),
           found.shape.data()};
  return nullptr;
}

/// The input `tensor` as a view of the caller's memory for argument
/// `index`, checked against the model's declaration as quant-runner checks
/// its files.
llvm::Expected<HostTensorView> toHostTensor(const QopsSession &session,
                                            size_t index,
                                            const QopsTensor &tensor) {
  const TensorInfo &info = session.inputs[index];
  RankedTensorType type = session.jit->getSignature().inputs[index];
  std::string what = llvm::formatv("input {0} ('{1}')", index, info.name);
  std::optional<ElementKind> kind =
      onnx::getOnnxHostElementKind(tensor.element_type);
  if (!kind)
    return llvm::createStringError(
        what + ": unknown element type " + std::to_string(tensor.element_type));
  // Signless integer arguments (MLIR input) take either signedness.
  if (!type.getElementType().isSignlessInteger() &&
      tensor.element_type != info.elementType)
    return llvm::createStringError(what + ": element type " +
                                   describeType(tensor.element_type) +
                                   " does not match the model's " +
                                   describeType(info.elementType));
  if (tensor.rank > kMaxRank || (tensor.rank && !tensor.shape))
    return llvm::createStringError(what + ": rank " +
                                   std::to_string(tensor.rank) +
                                   " with no shape, or over 64");
  llvm::ArrayRef<int64_t> shape(tensor.shape, tensor.rank);
  uint64_t expected = getElementSize(*kind);
  for (int64_t dim : shape)
    if (dim < 0 || __builtin_mul_overflow(expected, uint64_t(dim), &expected))
      return llvm::createStringError(what + ": invalid shape " +
                                     formatShape(shape));
  if (tensor.byte_size != expected || (expected && !tensor.data))
    return llvm::createStringError(llvm::formatv(
        "{0}: {1} bytes given for shape {2} of {3} ({4} bytes)", what,
        tensor.byte_size, formatShape(shape),
        describeType(tensor.element_type), expected));
  HostTensorView view(
      *kind, shape,
      llvm::ArrayRef<uint8_t>(static_cast<const uint8_t *>(tensor.data),
                              size_t(expected)));
  if (llvm::Error error = checkTensorMatchesType(view, type, what))
    return std::move(error);
  return view;
}

/// Moves result `index` into `out`: the caller's buffer, or a new block
/// (shape first, data 64-byte aligned after it) the caller releases.
llvm::Error placeOutput(const QopsSession &session, size_t index,
                        const HostTensor &result, QopsTensor &out) {
  const TensorInfo &info = session.outputs[index];
  int32_t type = info.elementType;
  if (out.data) {
    std::string what = llvm::formatv("output {0} ('{1}')", index, info.name);
    bool sameShape = out.rank == result.shape.size() &&
                     (out.rank == 0 ||
                      (out.shape && std::equal(result.shape.begin(),
                                               result.shape.end(), out.shape)));
    if (out.element_type != type || !sameShape)
      return llvm::createStringError(llvm::formatv(
          "{0}: the buffer is {1} {2}, the result {3} {4}", what,
          describeType(out.element_type),
          out.shape || !out.rank
              ? formatShape(llvm::ArrayRef<int64_t>(out.shape, out.rank))
              : "(no shape)",
          describeType(type), formatShape(result.shape)));
    if (out.byte_size < result.data.size())
      return llvm::createStringError(llvm::formatv(
          "{0}: the buffer has {1} bytes, the result {2}", what, out.byte_size,
          result.data.size()));
    if (!result.data.empty())
      std::memcpy(out.data, result.data.data(), result.data.size());
    return llvm::Error::success();
  }
  size_t shapeBytes = (result.shape.size() * sizeof(int64_t) + 63) / 64 * 64;
  size_t total = shapeBytes + std::max<size_t>(result.data.size(), 64);
  void *block = std::aligned_alloc(64, (total + 63) / 64 * 64);
  if (!block)
    return llvm::createStringError(llvm::formatv(
        "out of memory allocating output {0} ({1} bytes)", index, total));
  auto *shape = static_cast<int64_t *>(block);
  std::copy(result.shape.begin(), result.shape.end(), shape);
  uint8_t *data = static_cast<uint8_t *>(block) + shapeBytes;
  if (!result.data.empty())
    std::memcpy(data, result.data.data(), result.data.size());
  out = {type, result.shape.size(), shape, data, result.data.size()};
  return llvm::Error::success();
}

} // namespace

//===----------------------------------------------------------------------===//
// The C functions
//===----------------------------------------------------------------------===//

extern "C" {

int qopsGetApiVersion(void) { return QOPS_API_VERSION; }

const char *qopsStatusGetMessage(const QopsStatus *status) {
  return status ? status->message.c_str() : "";
}

void qopsStatusDestroy(QopsStatus *status) { delete status; }

QopsSessionOptions *qopsSessionOptionsCreate(void) {
  return new (std::nothrow) QopsSessionOptions();
}

void qopsSessionOptionsDestroy(QopsSessionOptions *options) { delete options; }

QopsStatus *qopsSessionOptionsSet(QopsSessionOptions *options,
                                  const char *name, const char *value) {
  if (!options || !name || !value)
    return makeStatus("qopsSessionOptionsSet: options, name and value must "
                      "not be NULL");
  llvm::StringRef key(name), text(value);
  auto invalid = [&](const char *expected) {
    return makeStatus("option '" + key + "': '" + text + "' is not " +
                      expected);
  };
  auto setFlag = [&](bool &flag) -> QopsStatus * {
    if (text != "0" && text != "1")
      return invalid("0 or 1");
    flag = text == "1";
    return nullptr;
  };
  LoweringOptions &lowering = options->lowering;
  if (key == "target_cpu") {
    lowering.targetCpu = text.str();
    return nullptr;
  }
  if (key == "target_features") {
    lowering.targetFeatures = text.str();
    return nullptr;
  }
  if (key == "fuse_qdq")
    return setFlag(lowering.fuseQDQ);
  if (key == "float_fma")
    return setFlag(lowering.floatFma);
  if (key == "const_eval")
    return setFlag(lowering.constEval);
  uint64_t number = 0;
  bool isNumber = !text.getAsInteger(10, number);
  if (key == "threads") {
    if (!isNumber || number > 4096)
      return invalid("a thread count (0 to 4096)");
    options->threads = unsigned(number);
    return nullptr;
  }
  if (key == "qdq_accuracy_level") {
    if (!isNumber || number > 4)
      return invalid("an accuracy level (0 to 4)");
    lowering.qdqAccuracyLevel = int64_t(number);
    return nullptr;
  }
  if (key == "opt_level") {
    if (!isNumber || number > 3)
      return invalid("an optimisation level (0 to 3)");
    options->optLevel = unsigned(number);
    return nullptr;
  }
  if (key == "nontemporal_min_bytes") {
    if (!isNumber || number > uint64_t(INT64_MAX))
      return invalid("a byte count");
    lowering.nontemporalMinBytes = int64_t(number);
    return nullptr;
  }
  return makeStatus("unknown option '" + key +
                    "' (threads, target_cpu, target_features, fuse_qdq, "
                    "float_fma, qdq_accuracy_level, const_eval, "
                    "nontemporal_min_bytes, opt_level)");
}

QopsStatus *qopsSessionCreate(const char *path,
                              const QopsSessionOptions *options,
                              QopsSession **session) {
  if (!path)
    return makeStatus("no model path (path is NULL)");
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeStatus(llvm::Twine("cannot open '") + path +
                      "': " + buffer.getError().message());
  return createSession((*buffer)->getBuffer(),
                       llvm::StringRef(path).ends_with(".onnx"), path, options,
                       session);
}

QopsStatus *qopsSessionCreateFromBuffer(const void *data, size_t size,
                                        QopsModelFormat format,
                                        const QopsSessionOptions *options,
                                        QopsSession **session) {
  if (!data && size)
    return makeStatus("no model bytes (data is NULL)");
  if (format != QOPS_FORMAT_ONNX && format != QOPS_FORMAT_MLIR)
    return makeStatus("unknown model format " + std::to_string(format));
  llvm::StringRef bytes(static_cast<const char *>(data), size);
  bool isOnnx = format == QOPS_FORMAT_ONNX;
  return createSession(bytes, isOnnx, isOnnx ? "<model bytes>" : "<mlir text>",
                       options, session);
}

void qopsSessionDestroy(QopsSession *session) { delete session; }

size_t qopsSessionGetInputCount(const QopsSession *session) {
  return session ? session->inputs.size() : 0;
}

size_t qopsSessionGetOutputCount(const QopsSession *session) {
  return session ? session->outputs.size() : 0;
}

QopsStatus *qopsSessionGetInputInfo(const QopsSession *session, size_t index,
                                    QopsTensorInfo *info) {
  if (!session)
    return makeStatus("no session (session is NULL)");
  return getInfo(session->inputs, index, info, "input");
}

QopsStatus *qopsSessionGetOutputInfo(const QopsSession *session, size_t index,
                                     QopsTensorInfo *info) {
  if (!session)
    return makeStatus("no session (session is NULL)");
  return getInfo(session->outputs, index, info, "output");
}

QopsStatus *qopsSessionRun(QopsSession *session, const QopsTensor *inputs,
                           size_t numInputs, QopsTensor *outputs,
                           size_t numOutputs) {
  if (!session)
    return makeStatus("no session (session is NULL)");
  if (numInputs != session->inputs.size() || (numInputs && !inputs))
    return makeStatus(llvm::formatv("the model takes {0} inputs, {1} given",
                                    session->inputs.size(), numInputs));
  if (numOutputs != session->outputs.size() || (numOutputs && !outputs))
    return makeStatus(llvm::formatv("the model has {0} outputs, room for {1} "
                                    "given",
                                    session->outputs.size(), numOutputs));
  std::vector<HostTensorView> arguments;
  for (size_t i = 0; i < numInputs; ++i) {
    llvm::Expected<HostTensorView> host = toHostTensor(*session, i, inputs[i]);
    if (!host)
      return makeStatus(host.takeError());
    arguments.push_back(std::move(*host));
  }
  std::vector<bool> allocatedHere;
  if (session->setNumThreads)
    session->setNumThreads(int(session->threads));
  llvm::Expected<std::vector<HostTensor>> results =
      session->jit->call(arguments);
  if (!results)
    return makeStatus(results.takeError());
  for (size_t i = 0; i < numOutputs; ++i) {
    bool allocates = !outputs[i].data;
    if (llvm::Error error =
            placeOutput(*session, i, (*results)[i], outputs[i])) {
      for (size_t j = 0; j < i; ++j) // what this call allocated
        if (allocatedHere[j])
          qopsTensorRelease(&outputs[j]);
      return makeStatus(std::move(error));
    }
    allocatedHere.push_back(allocates);
  }
  return nullptr;
}

QopsStatus *qopsCompileToObject(const char *modelPath,
                                const QopsSessionOptions *options,
                                const char *targetTriple,
                                const char *objectPath,
                                const char *headerPath) {
  if (!modelPath || !objectPath)
    return makeStatus("qopsCompileToObject: the model and object paths must "
                      "not be NULL");
  std::lock_guard<std::mutex> lock(getCreateMutex());
  DialectRegistry registry;
  registerRunnerDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  auto module = loadModule(modelPath, &context);
  if (!module)
    return makeStatus(module.takeError());
  AotOptions aot;
  aot.targetTriple = targetTriple ? targetTriple : "";
  if (options) {
    aot.targetCpu = options->lowering.targetCpu;
    aot.targetFeatures = options->lowering.targetFeatures;
    aot.constEval = options->lowering.constEval;
    aot.fuseQDQ = options->lowering.fuseQDQ;
    aot.floatFma = options->lowering.floatFma;
    aot.qdqAccuracyLevel = options->lowering.qdqAccuracyLevel;
    aot.parallel = options->threads > 1;
    aot.optLevel = options->optLevel;
  }
  aot.sourceName = modelPath;
  if (llvm::Error error = compileToObject(**module, aot, objectPath,
                                          headerPath ? headerPath : ""))
    return makeStatus(std::move(error));
  return nullptr;
}

void qopsTensorRelease(QopsTensor *tensor) {
  if (!tensor)
    return;
  std::free(tensor->shape); // the block starts with the shape
  *tensor = QopsTensor{};
}

} // extern "C"
