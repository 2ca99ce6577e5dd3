//===- ObjectCache.cpp - Compiled functions kept on disk ------------------===//

#include "QuantOps/Runner/ObjectCache.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>

using namespace mlir;
using namespace mlir::qops::runner;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// Key
//===----------------------------------------------------------------------===//

/// A function of this library: its address names the file QuantOps is
/// linked into (the tool, or a Python extension).
static void quantOpsAnchor() {}

/// "path size mtime" of the file that holds `address` (a shared library or
/// the executable), or "?" when it cannot be found.
static std::string getFileIdentity(const void *address) {
  Dl_info info;
  std::string path;
  if (dladdr(address, &info) && info.dli_fname && *info.dli_fname)
    path = info.dli_fname;
  llvm::sys::fs::file_status status;
  // The executable itself may be named as it was invoked (relative).
  if (path.empty() || llvm::sys::fs::status(path, status)) {
    path = llvm::sys::fs::getMainExecutable(nullptr,
                                            const_cast<void *>(address));
    if (llvm::sys::fs::status(path, status))
      return "?";
  }
  // One file, however it was named.
  llvm::SmallString<256> real;
  if (!llvm::sys::fs::real_path(path, real))
    path = std::string(real);
  return path + " " + std::to_string(status.getSize()) + " " +
         std::to_string(status.getLastModificationTime()
                            .time_since_epoch()
                            .count());
}

CacheKey::CacheKey() { add("quantops-object-cache-1"); }

CacheKey &CacheKey::add(llvm::StringRef part) {
  uint64_t size = part.size();
  hasher.update(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(&size), sizeof(size)));
  hasher.update(part);
  return *this;
}

llvm::Error CacheKey::addFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError("cannot read " + path + ": " +
                     buffer.getError().message());
  add((*buffer)->getBuffer());
  return llvm::Error::success();
}

std::string CacheKey::finish() {
  add(getFileIdentity(reinterpret_cast<const void *>(&quantOpsAnchor)));
  add(getFileIdentity(reinterpret_cast<const void *>(
      static_cast<Type (*)(llvm::StringRef, MLIRContext *, size_t *, bool)>(
          &mlir::parseType))));
  add(getFileIdentity(
      reinterpret_cast<const void *>(&llvm::sys::getHostCPUName)));
  add(llvm::sys::getHostCPUName());
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  std::vector<std::string> enabled;
  for (const auto &feature : features)
    if (feature.getValue())
      enabled.push_back(feature.getKey().str());
  llvm::sort(enabled);
  add(llvm::join(enabled, ","));
  return llvm::toHex(hasher.final(), /*LowerCase=*/true);
}

//===----------------------------------------------------------------------===//
// Entries
//===----------------------------------------------------------------------===//

std::string ObjectCache::pathOf(llvm::StringRef key,
                                llvm::StringRef extension) const {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, key + extension);
  return std::string(path);
}

llvm::Expected<std::unique_ptr<JitSession>>
ObjectCache::load(llvm::StringRef key, llvm::StringRef funcName,
                  MLIRContext *context, const JitOptions &options) const {
  std::string objectPath = pathOf(key, ".o");
  std::string signaturePath = pathOf(key, ".sig");
  if (!llvm::sys::fs::exists(objectPath) ||
      !llvm::sys::fs::exists(signaturePath))
    return nullptr;
  auto text = llvm::MemoryBuffer::getFile(signaturePath, /*IsText=*/true);
  if (!text)
    return makeError("cannot read " + signaturePath + ": " +
                     text.getError().message());
  auto type = dyn_cast_or_null<FunctionType>(
      parseType((*text)->getBuffer().trim(), context));
  if (!type)
    return makeError(signaturePath + " does not hold a function type");
  llvm::Expected<TensorSignature> signature =
      getTensorSignature(type, funcName);
  if (!signature)
    return signature.takeError();
  auto object = llvm::MemoryBuffer::getFile(objectPath, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!object)
    return makeError("cannot read " + objectPath + ": " +
                     object.getError().message());
  auto session = JitSession::load(std::move(*object), funcName,
                                  std::move(*signature), options);
  if (!session)
    return makeError(objectPath + ": " + llvm::toString(session.takeError()));
  // Used now: the last entry a store evicts.
  (void)::utimensat(AT_FDCWD, objectPath.c_str(), /*times=*/nullptr, 0);
  return session;
}

namespace {
/// One entry of the folder: its key, bytes (object and signature) and the
/// time it was last stored or loaded.
struct CacheEntry {
  std::string key;
  uint64_t bytes;
  llvm::sys::TimePoint<> used;
};
} // namespace

void ObjectCache::evictBeyondBound(llvm::StringRef keep) const {
  if (maxBytes == 0)
    return;
  std::vector<CacheEntry> entries;
  uint64_t total = 0;
  std::error_code code;
  for (llvm::sys::fs::directory_iterator it(directory, code), end;
       it != end && !code; it.increment(code)) {
    llvm::StringRef path = it->path();
    if (llvm::sys::path::extension(path) != ".o")
      continue;
    llvm::sys::fs::file_status object, signature;
    std::string key = llvm::sys::path::stem(path).str();
    if (llvm::sys::fs::status(path, object))
      continue;
    uint64_t bytes = object.getSize();
    if (!llvm::sys::fs::status(pathOf(key, ".sig"), signature))
      bytes += signature.getSize();
    entries.push_back({key, bytes, object.getLastModificationTime()});
    total += bytes;
  }
  llvm::sort(entries, [](const CacheEntry &a, const CacheEntry &b) {
    return a.used < b.used;
  });
  for (const CacheEntry &entry : entries) {
    if (total <= maxBytes)
      break;
    if (entry.key == keep)
      continue;
    // The object first: without it the entry is gone for readers.
    (void)llvm::sys::fs::remove(pathOf(entry.key, ".o"));
    (void)llvm::sys::fs::remove(pathOf(entry.key, ".sig"));
    total -= entry.bytes;
  }
}

/// Writes `write`'s output to `path` through a temporary file in the same
/// folder and a rename, so a reader sees the whole file or none.
static llvm::Error
writeAtomically(llvm::StringRef path,
                llvm::function_ref<llvm::Error(llvm::StringRef)> write) {
  std::string temporary =
      (path + ".tmp" + llvm::Twine(llvm::sys::Process::getProcessId())).str();
  if (llvm::Error error = write(temporary)) {
    (void)llvm::sys::fs::remove(temporary);
    return error;
  }
  if (std::error_code code = llvm::sys::fs::rename(temporary, path)) {
    (void)llvm::sys::fs::remove(temporary);
    return makeError("cannot write " + path + ": " + code.message());
  }
  return llvm::Error::success();
}

llvm::Error ObjectCache::store(llvm::StringRef key, const JitSession &session,
                               MLIRContext *context) const {
  if (std::error_code code = llvm::sys::fs::create_directories(directory))
    return makeError("cannot create the cache folder " + directory + ": " +
                     code.message());
  const TensorSignature &signature = session.getSignature();
  std::string type;
  llvm::raw_string_ostream(type)
      << getFunctionType(signature, context) << "\n";
  // The signature first: an entry counts once its object is there.
  if (llvm::Error error = writeAtomically(
          pathOf(key, ".sig"), [&](llvm::StringRef temporary) -> llvm::Error {
            std::error_code code;
            llvm::raw_fd_ostream os(temporary, code);
            if (code)
              return makeError("cannot write " + temporary + ": " +
                               code.message());
            os << type;
            return llvm::Error::success();
          }))
    return error;
  if (llvm::Error error =
          writeAtomically(pathOf(key, ".o"), [&](llvm::StringRef temporary) {
            return session.writeObject(temporary);
          }))
    return error;
  evictBeyondBound(key);
  return llvm::Error::success();
}
