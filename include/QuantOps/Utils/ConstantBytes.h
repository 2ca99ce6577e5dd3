//===- ConstantBytes.h - a constant's bytes, without copies -----*- C++ -*-===//
//
// A weight matrix is megabytes. A DenseElementsAttr made from its bytes
// copies and hashes all of them (DenseIntOrFPElementsAttr::getRaw), and the
// attribute stays in the context: the storage conversion, the fold of a
// reshape and the LLVM globals' byte form made three copies of every
// weight. A dense_resource attribute whose blob is the first attribute's
// own buffer costs neither: attributes live as long as their context.
//
//   arith.constant dense<...> : tensor<768x3072xsi8>        (the import's)
//   arith.constant dense_resource<qops_bytes> : tensor<768x3072xi8>
//                                   (the same buffer: viewConstantBytes)
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_UTILS_CONSTANTBYTES_H
#define QUANTOPS_UTILS_CONSTANTBYTES_H

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <optional>

namespace mlir::qops {

/// The storage conversion's default (convert-qops-to-linalg
/// viewed-constant-bytes): constants of at least this many bytes are viewed
/// (viewConstantBytes) rather than copied into a new attribute. Large
/// enough that the lit tests' constants print as dense<...>.
constexpr int64_t kViewedConstantBytes = 64 * 1024;

/// The bytes of a non-splat dense or dense_resource elements attribute of
/// whole-byte ints or floats, in memory order; none for anything else.
std::optional<ArrayRef<char>> getConstantBytes(Attribute value);

/// The buffer of a non-splat dense or dense_resource elements attribute of
/// any element type, as the attribute stores it (sub-byte elements one per
/// byte); none for a splat, another attribute or a resource without its
/// blob.
std::optional<ArrayRef<char>> getStoredBytes(Attribute value);

/// A dense_resource attribute of `type` whose blob is `bytes`, not copied:
/// `bytes` must live as long as the context (an attribute's own data) and
/// be aligned to `alignment`.
ElementsAttr viewConstantBytes(ShapedType type, ArrayRef<char> bytes,
                               size_t alignment);

/// A dense_resource attribute of `type` that owns `blob` (its bytes in
/// memory order, as viewConstantBytes would see them): bytes computed
/// for the constant, kept without the copy and the hash of a
/// DenseElementsAttr.
ElementsAttr ownConstantBytes(ShapedType type, AsmResourceBlob blob);

} // namespace mlir::qops

#endif // QUANTOPS_UTILS_CONSTANTBYTES_H
