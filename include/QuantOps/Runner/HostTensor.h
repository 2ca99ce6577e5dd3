//===- HostTensor.h - host tensors and .npy I/O for the runner --*- C++ -*-===//
//
// The tensors `quant-runner` moves across the JIT boundary: a dense, C-order
// buffer of little-endian elements plus its shape and element kind. This
// header also declares reading and writing them as NumPy .npy files, the
// bit-exact comparison used to check results, and the numpy-like printing
// used in reports.
//
// Nothing here throws or aborts on bad input: files and tensors that are
// malformed yield an llvm::Error with a one-line message.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_RUNNER_HOSTTENSOR_H
#define QUANTOPS_RUNNER_HOSTTENSOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::qops::runner {

/// The element kinds the runner moves across the JIT boundary.
enum class ElementKind { I8, U8, I16, U16, I32, I64, F16, BF16, F32, F64 };

/// The most dimensions a tensor may have (NumPy's own limit).
constexpr size_t kMaxRank = 64;

/// A dense host tensor.
struct HostTensor {
  ElementKind kind = ElementKind::F32;
  /// Dimensions, outermost first (C order).
  std::vector<int64_t> shape;
  /// Raw little-endian element bytes, densely packed in C order;
  /// size() == numElements() * elementSize() for a well-formed tensor.
  std::vector<uint8_t> data;

  /// Product of the shape (1 for rank 0, 0 if any dimension is 0).
  int64_t numElements() const;
  size_t elementSize() const;
};

/// A tensor in memory its caller owns (a HostTensor, or a buffer given to
/// the C API): what a call reads its inputs from without copying them first.
struct HostTensorView {
  ElementKind kind = ElementKind::F32;
  llvm::ArrayRef<int64_t> shape;
  llvm::ArrayRef<uint8_t> data;

  HostTensorView() = default;
  HostTensorView(ElementKind kind, llvm::ArrayRef<int64_t> shape,
                 llvm::ArrayRef<uint8_t> data)
      : kind(kind), shape(shape), data(data) {}
  /*implicit*/ HostTensorView(const HostTensor &tensor)
      : kind(tensor.kind), shape(tensor.shape), data(tensor.data) {}
  int64_t numElements() const;
};

/// Bytes per element of `kind`.
size_t getElementSize(ElementKind kind);
/// The NumPy descr a tensor of `kind` is written with: "|i1", "|u1", "<i2",
/// "<u2", "<i4", "<i8", "<f2", "<f4", "<f8"; bf16 is written as its raw bits,
/// "<u2" (NumPy has no bfloat16).
llvm::StringRef getNumpyDescr(ElementKind kind);
/// Short name used in messages, NumPy style: "i1", "u1", "i2", "u2", "i4",
/// "i8", "f2", "f4", "f8", and "bf16".
llvm::StringRef getKindName(ElementKind kind);
/// The kind of a NumPy descr such as "<f4", "=i2", "|u1" or "f8" (no byte
/// order means native); std::nullopt for anything that is not one of the
/// kinds above in little-endian (or native on a little-endian host) order.
/// "<u2" gives U16: a bf16 tensor read back from a file is U16 and the caller
/// reinterprets it.
std::optional<ElementKind> parseNumpyDescr(llvm::StringRef descr);

/// Checks that `tensor` is well formed: rank at most kMaxRank, no negative
/// dimension, an element count and byte size that fit in int64, and a data
/// buffer of exactly that byte size. The message names the problem only.
llvm::Error verifyHostTensor(const HostTensor &tensor);

/// `text` quoted for a one-line message about an input file: non-printable
/// bytes escaped, at most `maxShown` bytes shown ("..." after them).
std::string quoteForMessage(llvm::StringRef text, size_t maxShown);

/// The multi-index (C order) of flat element `flat` in `shape`. Expects
/// 0 <= flat < product(shape); out-of-range values do not crash but give an
/// unspecified index.
std::vector<int64_t> unflattenIndex(llvm::ArrayRef<int64_t> shape,
                                    int64_t flat);

//===----------------------------------------------------------------------===//
// .npy files
//===----------------------------------------------------------------------===//

/// Reads a .npy file (format versions 1.0, 2.0 and 3.0) of one of the kinds
/// above. Accepts byte-order prefixes '<' and '=' ('|' and any prefix for
/// one-byte kinds); reads fortran_order True (np.save of a transposed
/// array) into C order; rejects big-endian data, object and structured
/// dtypes, negative dimensions, more than
/// kMaxRank dimensions, shapes whose element count or byte size overflows
/// int64 or whose byte size exceeds `maxBytes` (checked before anything is
/// allocated; for an empty array, the byte size with its zero dimensions
/// counted as 1, which bounds the loops over its other dimensions), truncated
/// data and extra bytes after the data. "-" reads stdin. Errors are one line,
/// "<path>: <problem>".
llvm::Expected<HostTensor> readNpy(llvm::StringRef path,
                                   uint64_t maxBytes = (uint64_t(16) << 30));

/// The same from an in-memory buffer; `name` stands for the file in messages.
llvm::Expected<HostTensor> parseNpy(llvm::StringRef bytes, llvm::StringRef name,
                                    uint64_t maxBytes = (uint64_t(16) << 30));

/// Writes `tensor` as a version 1.0 .npy file (2.0 if the header does not fit
/// in 65535 bytes), with the header padded so the data is 64-byte aligned.
/// "-" writes to stdout. A failed write removes the partial file; a malformed
/// tensor (see verifyHostTensor) is an error and writes nothing.
llvm::Error writeNpy(llvm::StringRef path, const HostTensor &tensor);

//===----------------------------------------------------------------------===//
// Comparison and printing
//===----------------------------------------------------------------------===//

/// One differing element.
struct Mismatch {
  std::vector<int64_t> index;
  std::string got, expected;
};

struct CompareResult {
  /// Number of differing elements.
  int64_t mismatchCount = 0;
  /// The first differing elements in C order, at most `maxReported`.
  std::vector<Mismatch> first;
};

/// Bit-exact comparison. Floats (f16, bf16, f32, f64) compare by bit pattern,
/// except that any NaN equals any NaN (so +0 and -0 differ). The caller is
/// expected to have checked kind and shape; if they differ, or a tensor is
/// malformed, the result is an llvm::Error.
llvm::Expected<CompareResult> compareBitExact(const HostTensor &got,
                                              const HostTensor &expected,
                                              size_t maxReported = 10);

/// Formats element `flatIndex` of `t` as a number: integers in decimal; f32
/// and f64 with the fewest digits that read back to the same value (at most
/// %.9g / %.17g); f16 and bf16 decoded to f32 and printed like f32; NaN as
/// "nan", infinities as "inf" / "-inf", negative zero as "-0". An index
/// outside the tensor's data gives "<out of range>".
std::string formatElement(const HostTensor &t, int64_t flatIndex);

/// One element as a double (exact for every kind but I64 beyond 2^53); NaN
/// for an index out of range.
double getElementAsDouble(const HostTensor &t, int64_t flatIndex);

/// Prints `t` numpy-like on one line: nested brackets per dimension, elements
/// separated by ", " (e.g. "[[1, 2], [3, 4]]"), rank 0 as a bare number. A
/// tensor of more than 1000 elements is summarized as NumPy does: along each
/// dimension longer than 6 only the first and last 3 entries are printed,
/// with "..." between them. A tensor with no elements prints "[]" (NumPy
/// too), whatever its shape. A malformed tensor prints
/// "<invalid tensor: ...>".
void printTensor(llvm::raw_ostream &os, const HostTensor &t);

/// Formats a shape as "[2, 3]" (rank 0: "[]").
std::string formatShape(llvm::ArrayRef<int64_t> shape);

} // namespace mlir::qops::runner

#endif // QUANTOPS_RUNNER_HOSTTENSOR_H
