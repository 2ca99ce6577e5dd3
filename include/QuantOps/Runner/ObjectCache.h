//===- ObjectCache.h - Compiled functions kept on disk ----------*- C++ -*-===//
//
// A folder of compiled functions, so that a model compiled once is linked,
// not lowered and code-generated again, the next time a process asks for it
// (as ONNX Runtime's users save an optimized model, or Triton keeps its
// kernels). An entry is two files named by its key:
//
//   <key>.o    the object the JIT generated, or an archive of the objects
//              of its parts and of the constants (the weights) the code
//              refers to by symbol (JitSession::writeObject)
//   <key>.sig  the function's tensor signature, as MLIR prints a
//              FunctionType: (tensor<4x8xui8>, ...) -> (tensor<4xsi8>, ...),
//              then "blake3 <digest of the object>"
//
// The key is a BLAKE3 hash of everything the code depends on: what the
// caller adds (the source bytes, the entry point, every lowering and JIT
// option) and what CacheKey adds itself (the executable and every shared
// library loaded so far, libMLIR and libLLVM among them, by path, size and
// modification time; the host CPU and its features). The .sig file also
// holds the object's BLAKE3 digest: a damaged object is not linked. A rebuilt compiler or another CPU therefore misses instead of
// running stale or foreign code. Entries are written to a temporary name and
// renamed, so concurrent processes see whole entries or none. A load marks
// its entry used (the object's modification time); a store removes the
// least recently used entries while the folder's entries exceed the bound
// (1 GiB by default).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_RUNNER_OBJECTCACHE_H
#define QUANTOPS_RUNNER_OBJECTCACHE_H

#include "QuantOps/Runner/JitSession.h"

#include "llvm/Support/BLAKE3.h"

#include <string>

namespace mlir::qops::runner {

/// Builds a cache key. Each part is added with its length, so the parts'
/// boundaries are part of the key.
class CacheKey {
public:
  CacheKey();
  CacheKey &add(llvm::StringRef part);
  /// Adds the compiler's build and the host, then returns the key as 64
  /// hex digits.
  std::string finish();

private:
  llvm::BLAKE3 hasher;
};

class ObjectCache {
public:
  /// The bound a cache keeps by default: 1 GiB of entries.
  static constexpr uint64_t kDefaultMaxBytes = uint64_t(1) << 30;

  /// A cache in `directory` that keeps its entries under `maxBytes` (0: no
  /// bound) by removing the least recently used ones when it stores.
  explicit ObjectCache(std::string directory,
                       uint64_t maxBytes = kDefaultMaxBytes)
      : directory(std::move(directory)), maxBytes(maxBytes) {}

  const std::string &getDirectory() const { return directory; }

  /// The session of entry `key`: nullptr when there is none; an error when
  /// the entry is there but cannot be used (the caller can recompile and
  /// store over it).
  llvm::Expected<std::unique_ptr<JitSession>>
  load(llvm::StringRef key, llvm::StringRef funcName, MLIRContext *context,
       const JitOptions &options) const;

  /// Stores `session` (created with JitOptions::keepObject) as entry `key`,
  /// creating the folder if needed; `context` holds the signature's types.
  /// Then removes the least recently used other entries (by the time their
  /// object was last written or loaded) while the entries take more than
  /// the bound.
  llvm::Error store(llvm::StringRef key, const JitSession &session,
                    MLIRContext *context) const;

private:
  std::string pathOf(llvm::StringRef key, llvm::StringRef extension) const;
  void evictBeyondBound(llvm::StringRef keep) const;

  std::string directory;
  uint64_t maxBytes;
};

} // namespace mlir::qops::runner

#endif // QUANTOPS_RUNNER_OBJECTCACHE_H
