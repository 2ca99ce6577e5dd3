//===- ConstantBytes.cpp - a constant's bytes, without copies -------------===//

#include "QuantOps/Utils/ConstantBytes.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;

std::optional<ArrayRef<char>> qops::getStoredBytes(Attribute value) {
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(value)) {
    if (dense.isSplat())
      return std::nullopt;
    return dense.getRawData();
  }
  if (auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(value))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return blob->getData();
  return std::nullopt;
}

std::optional<ArrayRef<char>> qops::getConstantBytes(Attribute value) {
  auto elements = dyn_cast_or_null<ElementsAttr>(value);
  if (!elements)
    return std::nullopt;
  Type element = elements.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  return getStoredBytes(value);
}

ElementsAttr qops::viewConstantBytes(ShapedType type, ArrayRef<char> bytes,
                                     size_t alignment) {
  return DenseResourceElementsAttr::get(
      type, "qops_bytes",
      UnmanagedAsmResourceBlob::allocateWithAlign(bytes, alignment));
}

ElementsAttr qops::ownConstantBytes(ShapedType type, AsmResourceBlob blob) {
  return DenseResourceElementsAttr::get(type, "qops_bytes", std::move(blob));
}
