//===- ByteConstantGlobals.cpp - the qops-byte-constant-globals pass ------===//
//
// Large constant LLVM globals as i8 arrays of the same bytes. LLVM's
// AsmPrinter writes an [N x i8] ConstantDataArray with one emitBytes call; a
// nested [1 x [192 x [384 x [16 x i32]]]] is 73728 uniqued
// ConstantDataArrays under ConstantArrays, each element written by its own
// emitIntValue call. The bytes are the same on a little-endian target.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"
#include "QuantOps/Utils/ConstantBytes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SwapByteOrder.h"
#include "llvm/TargetParser/Triple.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSBYTECONSTANTGLOBALS
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

/// Whether the module's code is for a little-endian target: its
/// llvm.target_triple, or the host's when it has none.
bool targetIsLittleEndian(ModuleOp module) {
  auto triple = module->getAttrOfType<StringAttr>(
      LLVM::LLVMDialect::getTargetTripleAttrName());
  return !triple || llvm::Triple(triple.getValue()).isLittleEndian();
}

/// The bytes of `global`'s initial value when it qualifies (see the pass
/// description), with the element's size in bytes; nothing otherwise.
std::optional<std::pair<ArrayRef<char>, int64_t>>
qualifyingBytes(LLVM::GlobalOp global, int64_t minBytes) {
  if (!global.getConstant())
    return std::nullopt;
  std::optional<ArrayRef<char>> raw =
      qops::getConstantBytes(global.getValueOrNull());
  if (!raw || int64_t(raw->size()) < minBytes)
    return std::nullopt;
  Type element = cast<ElementsAttr>(global.getValueOrNull()).getElementType();
  return std::make_pair(*raw, int64_t(element.getIntOrFloatBitWidth() / 8));
}

struct QOpsByteConstantGlobalsPass
    : public qops::impl::QOpsByteConstantGlobalsBase<
          QOpsByteConstantGlobalsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // DenseElementsAttr holds its data in the host's byte order.
    if (!llvm::sys::IsLittleEndianHost || !targetIsLittleEndian(module))
      return;
    auto i8 = IntegerType::get(&getContext(), 8);
    module.walk([&](LLVM::GlobalOp global) {
      auto bytes = qualifyingBytes(global, minBytes);
      if (!bytes)
        return;
      auto [raw, elementBytes] = *bytes;
      auto type = RankedTensorType::get({int64_t(raw.size())}, i8);
      // The same bytes viewed, not copied: the old value is an attribute
      // (or a blob) of this context.
      global.setValueAttr(qops::viewConstantBytes(type, raw, elementBytes));
      global.setGlobalType(LLVM::LLVMArrayType::get(i8, raw.size()));
      if (!global.getAlignment())
        global.setAlignment(llvm::PowerOf2Ceil(elementBytes));
    });
  }
};

} // namespace
