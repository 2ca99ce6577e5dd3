//===- ObjectCache.cpp - Compiled functions kept on disk ------------------===//

#include "QuantOps/Runner/ObjectCache.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <chrono>
#include <fcntl.h>
#include <link.h>
#include <unistd.h>
#include <sys/stat.h>

using namespace mlir;
using namespace mlir::qops::runner;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// Key
//===----------------------------------------------------------------------===//

/// A function of this library, for the executable's path.
static void quantOpsAnchor() {}

/// "path size mtime" of a file, or "" when it cannot be found.
static std::string getFileIdentity(llvm::StringRef path) {
  llvm::sys::fs::file_status status;
  llvm::SmallString<256> real;
  if (path.empty() || llvm::sys::fs::real_path(path, real) ||
      llvm::sys::fs::status(real, status))
    return "";
  return std::string(real) + " " + std::to_string(status.getSize()) + " " +
         std::to_string(status.getLastModificationTime()
                            .time_since_epoch()
                            .count());
}

/// The identities of the executable and of every shared library loaded so
/// far (libMLIR, libLLVM, QuantOps' own when built shared, a Python
/// extension that links it), sorted: a rebuilt or upgraded one changes
/// the key.
static std::vector<std::string> getLoadedFileIdentities() {
  std::vector<std::string> identities{getFileIdentity(
      llvm::sys::fs::getMainExecutable(
          nullptr, reinterpret_cast<void *>(&quantOpsAnchor)))};
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) {
        if (info->dlpi_name && *info->dlpi_name)
          static_cast<std::vector<std::string> *>(data)->push_back(
              getFileIdentity(info->dlpi_name));
        return 0;
      },
      &identities);
  llvm::sort(identities);
  return identities;
}

CacheKey::CacheKey() { add("quantops-object-cache-2"); }

CacheKey &CacheKey::add(llvm::StringRef part) {
  uint64_t size = part.size();
  hasher.update(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(&size), sizeof(size)));
  hasher.update(part);
  return *this;
}

std::string CacheKey::finish() {
  for (const std::string &identity : getLoadedFileIdentities())
    add(identity);
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

/// The BLAKE3 digest of `bytes`, as 64 hex digits.
static std::string digestOf(llvm::StringRef bytes) {
  llvm::BLAKE3 hasher;
  hasher.update(bytes);
  return llvm::toHex(hasher.final(), /*LowerCase=*/true);
}

/// An error unless `directory`, if it exists, belongs to this user and no
/// one else can write it (whoever can write it can run code in this
/// process through it).
static llvm::Error checkFolderIsPrivate(llvm::StringRef directory) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(directory, status))
    return llvm::Error::success();
  using namespace llvm::sys::fs;
  if (status.getUser() != ::getuid() ||
      (status.permissions() & (group_write | others_write)))
    return makeError("the cache folder " + directory +
                     " is not this user's alone (others can write it)");
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<JitSession>>
ObjectCache::load(llvm::StringRef key, llvm::StringRef funcName,
                  MLIRContext *context, const JitOptions &options) const {
  if (llvm::Error error = checkFolderIsPrivate(directory))
    return std::move(error);
  std::string objectPath = pathOf(key, ".o");
  std::string signaturePath = pathOf(key, ".sig");
  if (!llvm::sys::fs::exists(objectPath) ||
      !llvm::sys::fs::exists(signaturePath))
    return nullptr;
  auto text = llvm::MemoryBuffer::getFile(signaturePath, /*IsText=*/true);
  if (!text)
    return makeError("cannot read " + signaturePath + ": " +
                     text.getError().message());
  // Line 1: the function type; line 2: "blake3 <digest of the object>".
  auto [typeLine, digestLine] = (*text)->getBuffer().split('\n');
  auto type = dyn_cast_or_null<FunctionType>(
      parseType(typeLine.trim(), context));
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
  // A damaged object is not linked (RuntimeDyld trusts what it reads).
  if (digestLine.trim() != "blake3 " + digestOf((*object)->getBuffer()))
    return makeError(objectPath + " does not match the digest in " +
                     signaturePath);
  auto session = JitSession::load(std::move(*object), funcName,
                                  std::move(*signature), options);
  if (!session)
    return makeError(objectPath + ": " + llvm::toString(session.takeError()));
  // Used now: the last entry a store evicts.
  (void)::utimensat(AT_FDCWD, objectPath.c_str(), /*times=*/nullptr, 0);
  return session;
}

/// A key: 64 hex digits (other files in the folder are not entries).
static bool isKey(llvm::StringRef name) {
  return name.size() == 64 && llvm::all_of(name, llvm::isHexDigit);
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

/// A temporary file of an entry (`<key>.o.tmp-XXXXXXXX`) that a write left
/// behind when its process died: more than an hour old.
static bool isOrphanedTemporary(llvm::StringRef path) {
  auto [entry, suffix] = llvm::sys::path::filename(path).split(".tmp-");
  llvm::sys::fs::file_status status;
  if (suffix.empty() || !isKey(llvm::sys::path::stem(entry)) ||
      llvm::sys::fs::status(path, status))
    return false;
  return std::chrono::system_clock::now() - status.getLastModificationTime() >
         std::chrono::hours(1);
}

void ObjectCache::evictBeyondBound(llvm::StringRef keep) const {
  std::vector<CacheEntry> entries;
  uint64_t total = 0;
  std::error_code code;
  for (llvm::sys::fs::directory_iterator it(directory, code), end;
       it != end && !code; it.increment(code)) {
    llvm::StringRef path = it->path();
    if (isOrphanedTemporary(path)) {
      (void)llvm::sys::fs::remove(path);
      continue;
    }
    if (llvm::sys::path::extension(path) != ".o")
      continue;
    llvm::sys::fs::file_status object, signature;
    std::string key = llvm::sys::path::stem(path).str();
    if (!isKey(key) || llvm::sys::fs::status(path, object))
      continue;
    uint64_t bytes = object.getSize();
    if (!llvm::sys::fs::status(pathOf(key, ".sig"), signature))
      bytes += signature.getSize();
    entries.push_back({key, bytes, object.getLastModificationTime()});
    total += bytes;
  }
  if (maxBytes == 0)
    return;
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

/// Writes `write`'s output to `path` through a temporary file of a unique
/// name in the same folder and a rename, so a reader sees the whole file or
/// none.
static llvm::Error
writeAtomically(llvm::StringRef path,
                llvm::function_ref<llvm::Error(llvm::StringRef)> write) {
  llvm::SmallString<256> temporary;
  if (std::error_code code =
          llvm::sys::fs::createUniqueFile(path + ".tmp-%%%%%%%%", temporary))
    return makeError("cannot write " + path + ": " + code.message());
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

/// Writes `text` to `path`, reporting a failed write (a full disk) as an
/// error rather than at the stream's destruction.
static llvm::Error writeText(llvm::StringRef path, llvm::StringRef text) {
  std::error_code code;
  llvm::raw_fd_ostream os(path, code);
  if (!code) {
    os << text;
    os.close();
    code = os.error();
    os.clear_error();
  }
  if (code)
    return makeError("cannot write " + path + ": " + code.message());
  return llvm::Error::success();
}

llvm::Error ObjectCache::store(llvm::StringRef key, const JitSession &session,
                               MLIRContext *context) const {
  if (std::error_code code = llvm::sys::fs::create_directories(
          directory, /*IgnoreExisting=*/true, llvm::sys::fs::owner_all))
    return makeError("cannot create the cache folder " + directory + ": " +
                     code.message());
  if (llvm::Error error = checkFolderIsPrivate(directory))
    return error;
  // The object under a temporary name first, for its digest; then the
  // signature; the entry counts once its object is renamed into place.
  if (llvm::Error error = writeAtomically(
          pathOf(key, ".o"), [&](llvm::StringRef object) -> llvm::Error {
            if (llvm::Error error = session.writeObject(object))
              return error;
            auto bytes = llvm::MemoryBuffer::getFile(
                object, /*IsText=*/false, /*RequiresNullTerminator=*/false);
            if (!bytes)
              return makeError("cannot read " + object + ": " +
                               bytes.getError().message());
            std::string text;
            llvm::raw_string_ostream(text)
                << getFunctionType(session.getSignature(), context)
                << "\nblake3 " << digestOf((*bytes)->getBuffer()) << "\n";
            return writeAtomically(pathOf(key, ".sig"),
                                   [&](llvm::StringRef temporary) {
                                     return writeText(temporary, text);
                                   });
          }))
    return error;
  evictBeyondBound(key);
  return llvm::Error::success();
}
