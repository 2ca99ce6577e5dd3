//===- OnnxTestMode.cpp - quant-runner --onnx-test DIR... -----------------===//
//
// Runs ONNX backend node tests: DIR/model.onnx with
// DIR/test_data_set_N/input_K.pb and output_K.pb. One line per case:
//
//   PASS name                      (float outputs: "(floats bit-exact)" or
//                                   "(floats within tolerance, largest
//                                   error E)")
//   FAIL name: output K: ...
//   UNSUPPORTED name: node '...' (QLinearConv, ...): unsupported operator
//
// and "N passed, N failed, N skipped" at the end (skipped = unsupported).
// Exit 0 only if nothing failed; an unsupported operator is a failure unless
// --allow-unsupported.
//
//===----------------------------------------------------------------------===//

#include "OnnxTestMode.h"
#include "QuantOps/Runner/Compile.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::qops;
using namespace mlir::qops::runner;

namespace {

struct Tally {
  int passed = 0, failed = 0, skipped = 0;
};

/// The test_data_set_N directories of a case, in N order.
std::vector<std::string> listDataSets(llvm::StringRef dir) {
  std::vector<std::pair<int, std::string>> sets;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    int index;
    if (name.consume_front("test_data_set_") && !name.getAsInteger(10, index))
      sets.emplace_back(index, it->path());
  }
  std::sort(sets.begin(), sets.end());
  std::vector<std::string> paths;
  for (auto &set : sets)
    paths.push_back(set.second);
  return paths;
}

/// FILE_K.pb for K = 0, 1, ... while they exist.
std::vector<std::string> listNumbered(llvm::StringRef dir,
                                      llvm::StringRef stem) {
  std::vector<std::string> paths;
  for (int k = 0;; ++k) {
    std::string path = llvm::formatv("{0}/{1}_{2}.pb", dir, stem, k).str();
    if (!llvm::sys::fs::exists(path))
      return paths;
    paths.push_back(path);
  }
}

/// Runs every data set of one case directory; prints one line per data set.
void runCase(llvm::StringRef dir, const OnnxTestOptions &options,
             Tally &tally) {
  llvm::SmallString<256> clean(dir);
  llvm::sys::path::remove_dots(clean, /*remove_dot_dot=*/true);
  while (clean.size() > 1 && llvm::sys::path::is_separator(clean.back()))
    clean.pop_back();
  std::string name = llvm::sys::path::filename(clean).str();
  auto fail = [&](llvm::StringRef caseName, const llvm::Twine &why) {
    llvm::outs() << "FAIL " << caseName << ": " << why << "\n";
    ++tally.failed;
  };

  DialectRegistry registry;
  registerRunnerDialects(registry);
  MLIRContext context(registry);
  context.getDiagEngine().registerHandler([](Diagnostic &) {
    return success(); // reported through the returned errors
  });
  std::string modelPath = (clean + "/model.onnx").str();
  auto module = loadModule(modelPath, &context);
  if (!module) {
    std::string message = llvm::toString(module.takeError());
    if (llvm::StringRef(message).contains("unsupported operator")) {
      llvm::outs() << "UNSUPPORTED " << name << ": " << message << "\n";
      if (options.allowUnsupported)
        ++tally.skipped;
      else
        ++tally.failed;
      return;
    }
    return fail(name, message);
  }
  LoweringOptions lowering;
  lowering.threads = options.threads;
  if (llvm::Error error = lowerForEntry(**module, "main", lowering))
    return fail(name, llvm::toString(std::move(error)));
  auto session =
      createSession(**module, "main", options.optLevel, options.threads);
  if (!session)
    return fail(name, llvm::toString(session.takeError()));

  std::vector<std::string> dataSets = listDataSets(clean);
  if (dataSets.empty())
    return fail(name, "no test_data_set_N directory");
  for (auto [index, setDir] : llvm::enumerate(dataSets)) {
    std::string caseName =
        dataSets.size() == 1 ? name : llvm::formatv("{0}[{1}]", name, index);
    std::vector<HostTensor> inputs;
    bool ok = true;
    for (const std::string &path : listNumbered(setDir, "input")) {
      auto tensor = loadTensorFile(path);
      if (!tensor) {
        fail(caseName, llvm::toString(tensor.takeError()));
        ok = false;
        break;
      }
      inputs.push_back(std::move(*tensor));
    }
    if (!ok)
      continue;
    const TensorSignature &signature = (*session)->getSignature();
    if (inputs.size() != signature.inputs.size()) {
      fail(caseName, llvm::formatv("{0} inputs, but the model takes {1}",
                                   inputs.size(), signature.inputs.size()));
      continue;
    }
    for (auto [k, tensor] : llvm::enumerate(inputs)) {
      std::string what = llvm::formatv("input {0}", k);
      if (llvm::Error error =
              checkTensorMatchesType(tensor, signature.inputs[k], what)) {
        fail(caseName, llvm::toString(std::move(error)));
        ok = false;
        break;
      }
    }
    if (!ok)
      continue;
    auto results = (*session)->call(inputs);
    if (!results) {
      fail(caseName, llvm::toString(results.takeError()));
      continue;
    }
    std::vector<std::string> expectedPaths = listNumbered(setDir, "output");
    if (expectedPaths.size() != results->size()) {
      fail(caseName, llvm::formatv("{0} expected outputs, but the model "
                                   "returns {1}",
                                   expectedPaths.size(), results->size()));
      continue;
    }
    bool anyFloat = false, allFloatsExact = true;
    double largestError = 0;
    std::string failure;
    for (auto [k, path] : llvm::enumerate(expectedPaths)) {
      auto expected = loadTensorFile(path);
      if (!expected) {
        failure = llvm::toString(expected.takeError());
        break;
      }
      ElementKind kind = (*results)[k].kind;
      bool isFloat = kind == ElementKind::F32 || kind == ElementKind::F16 ||
                     kind == ElementKind::BF16 || kind == ElementKind::F64;
      OutputCheck check =
          checkOutput((*results)[k], *expected, /*tolerant=*/true);
      if (!check.passed) {
        failure = llvm::formatv("output {0}: {1}", k, check.detail);
        break;
      }
      if (isFloat) {
        anyFloat = true;
        allFloatsExact &= check.bitExact;
        largestError = std::max(largestError, check.largestError);
      }
    }
    if (!failure.empty()) {
      fail(caseName, failure);
      continue;
    }
    llvm::outs() << "PASS " << caseName;
    if (anyFloat) {
      if (allFloatsExact)
        llvm::outs() << " (floats bit-exact)";
      else
        llvm::outs() << " (floats within tolerance, largest error "
                     << largestError << ")";
    }
    llvm::outs() << "\n";
    ++tally.passed;
  }
}

} // namespace

int runner::runOnnxTests(llvm::ArrayRef<std::string> dirs,
                         const OnnxTestOptions &options) {
  Tally tally;
  for (const std::string &dir : dirs) {
    // A shell glob over a test folder also matches its README and the like.
    if (!llvm::sys::fs::is_directory(dir)) {
      llvm::errs() << "quant-runner: skipping '" << dir
                   << "': not a test directory\n";
      continue;
    }
    runCase(dir, options, tally);
    llvm::outs().flush();
  }
  llvm::outs() << tally.passed << " passed, " << tally.failed << " failed";
  if (tally.skipped)
    llvm::outs() << ", " << tally.skipped << " skipped";
  llvm::outs() << "\n";
  return tally.failed == 0 ? 0 : 1;
}
