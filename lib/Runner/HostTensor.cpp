//===- HostTensor.cpp - host tensors: kinds, printing, comparison ---------===//
//
// Element kinds and their NumPy names, the well-formedness check, element
// formatting (f16 and bf16 are decoded in software), numpy-like printing with
// summarization, and the bit-exact comparison that treats all NaNs as equal.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Runner/HostTensor.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SwapByteOrder.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace mlir::qops::runner;

namespace {

//===----------------------------------------------------------------------===//
// Element access and decoding
//===----------------------------------------------------------------------===//

template <typename T> T load(const uint8_t *p) {
  return llvm::support::endian::read<T, llvm::endianness::little>(p);
}

float bitsToFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

double bitsToDouble(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof(d));
  return d;
}

/// IEEE binary16: 1 sign, 5 exponent (bias 15), 10 mantissa bits.
float decodeF16(uint16_t h) {
  uint32_t sign = uint32_t(h >> 15) << 31;
  uint32_t exponent = (h >> 10) & 0x1F;
  uint32_t mantissa = h & 0x3FF;
  if (exponent == 0x1F) // inf / NaN: keep the payload's top bits
    return bitsToFloat(sign | 0x7F800000u | (mantissa << 13));
  if (exponent == 0) { // zero / subnormal: mantissa * 2^-24, exact in f32
    float magnitude = std::ldexp(float(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  return bitsToFloat(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
}

/// bfloat16 is the top half of an f32.
float decodeBF16(uint16_t b) { return bitsToFloat(uint32_t(b) << 16); }

bool isNaNF16(uint64_t bits) {
  return (bits & 0x7C00) == 0x7C00 && (bits & 0x03FF) != 0;
}
bool isNaNBF16(uint64_t bits) {
  return (bits & 0x7F80) == 0x7F80 && (bits & 0x007F) != 0;
}
bool isNaNF32(uint64_t bits) {
  return (bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0;
}
bool isNaNF64(uint64_t bits) {
  return (bits & 0x7FF0000000000000ull) == 0x7FF0000000000000ull &&
         (bits & 0x000FFFFFFFFFFFFFull) != 0;
}
bool isNaNNever(uint64_t) { return false; }

/// The element's raw bits, zero-extended.
uint64_t loadBits(const uint8_t *p, size_t size) {
  switch (size) {
  case 1:
    return *p;
  case 2:
    return load<uint16_t>(p);
  case 4:
    return load<uint32_t>(p);
  default:
    return load<uint64_t>(p);
  }
}

/// Shortest "%.<p>g" rendering (p <= 9 for f32, <= 17 for f64) that reads
/// back to the same value.
std::string formatFloating(double value, bool isDouble) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  char buf[64];
  int maxDigits = isDouble ? 17 : 9;
  for (int digits = 1; digits <= maxDigits; ++digits) {
    std::snprintf(buf, sizeof(buf), "%.*g", digits, value);
    bool exact = isDouble ? std::strtod(buf, nullptr) == value
                          : std::strtof(buf, nullptr) == float(value);
    if (exact)
      break;
  }
  return buf;
}

std::string formatElementUnchecked(const HostTensor &t, int64_t flatIndex) {
  const uint8_t *p = t.data.data() + flatIndex * t.elementSize();
  switch (t.kind) {
  case ElementKind::I8:
    return std::to_string(int(int8_t(*p)));
  case ElementKind::U8:
    return std::to_string(unsigned(*p));
  case ElementKind::I16:
    return std::to_string(load<int16_t>(p));
  case ElementKind::U16:
    return std::to_string(load<uint16_t>(p));
  case ElementKind::I32:
    return std::to_string(load<int32_t>(p));
  case ElementKind::I64:
    return std::to_string(load<int64_t>(p));
  case ElementKind::F16:
    return formatFloating(decodeF16(load<uint16_t>(p)), /*isDouble=*/false);
  case ElementKind::BF16:
    return formatFloating(decodeBF16(load<uint16_t>(p)), /*isDouble=*/false);
  case ElementKind::F32:
    return formatFloating(bitsToFloat(load<uint32_t>(p)), /*isDouble=*/false);
  case ElementKind::F64:
    return formatFloating(bitsToDouble(load<uint64_t>(p)), /*isDouble=*/true);
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

/// NumPy's defaults: summarize above 1000 elements, keep 3 at each edge.
constexpr int64_t kSummarizeThreshold = 1000;
constexpr int64_t kEdgeItems = 3;

struct TensorPrinter {
  llvm::raw_ostream &os;
  const HostTensor &t;
  std::vector<int64_t> strides;
  bool summarize;

  void print(size_t dim, int64_t offset) {
    if (dim == t.shape.size()) {
      os << formatElementUnchecked(t, offset);
      return;
    }
    int64_t size = t.shape[dim];
    bool cut = summarize && size > 2 * kEdgeItems;
    os << '[';
    for (int64_t i = 0; i < size; ++i) {
      if (i > 0)
        os << ", ";
      if (cut && i == kEdgeItems) {
        os << "..., ";
        i = size - kEdgeItems;
      }
      print(dim + 1, offset + i * strides[dim]);
    }
    os << ']';
  }
};

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

void compareElements(const HostTensor &got, const HostTensor &expected,
                     size_t maxReported, bool (*isNaN)(uint64_t),
                     CompareResult &result) {
  size_t size = got.elementSize();
  int64_t n = got.numElements();
  const uint8_t *g = got.data.data();
  const uint8_t *e = expected.data.data();
  for (int64_t i = 0; i < n; ++i, g += size, e += size) {
    if (std::memcmp(g, e, size) == 0)
      continue;
    if (isNaN(loadBits(g, size)) && isNaN(loadBits(e, size)))
      continue;
    ++result.mismatchCount;
    if (result.first.size() < maxReported)
      result.first.push_back({unflattenIndex(got.shape, i),
                              formatElementUnchecked(got, i),
                              formatElementUnchecked(expected, i)});
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Kinds and shapes
//===----------------------------------------------------------------------===//

size_t mlir::qops::runner::getElementSize(ElementKind kind) {
  switch (kind) {
  case ElementKind::I8:
  case ElementKind::U8:
    return 1;
  case ElementKind::I16:
  case ElementKind::U16:
  case ElementKind::F16:
  case ElementKind::BF16:
    return 2;
  case ElementKind::I32:
  case ElementKind::F32:
    return 4;
  case ElementKind::I64:
  case ElementKind::F64:
    return 8;
  }
  return 1;
}

llvm::StringRef mlir::qops::runner::getNumpyDescr(ElementKind kind) {
  switch (kind) {
  case ElementKind::I8:
    return "|i1";
  case ElementKind::U8:
    return "|u1";
  case ElementKind::I16:
    return "<i2";
  case ElementKind::U16:
  case ElementKind::BF16:
    return "<u2";
  case ElementKind::I32:
    return "<i4";
  case ElementKind::I64:
    return "<i8";
  case ElementKind::F16:
    return "<f2";
  case ElementKind::F32:
    return "<f4";
  case ElementKind::F64:
    return "<f8";
  }
  return "";
}

llvm::StringRef mlir::qops::runner::getKindName(ElementKind kind) {
  if (kind == ElementKind::BF16)
    return "bf16";
  return getNumpyDescr(kind).drop_front();
}

std::optional<ElementKind>
mlir::qops::runner::parseNumpyDescr(llvm::StringRef descr) {
  char order = '=';
  if (!descr.empty() && llvm::StringRef("<>=|!").contains(descr.front())) {
    order = descr.front();
    descr = descr.drop_front();
  }
  std::optional<ElementKind> kind =
      llvm::StringSwitch<std::optional<ElementKind>>(descr)
          .Case("i1", ElementKind::I8)
          .Case("u1", ElementKind::U8)
          .Case("i2", ElementKind::I16)
          .Case("u2", ElementKind::U16)
          .Case("i4", ElementKind::I32)
          .Case("i8", ElementKind::I64)
          .Case("f2", ElementKind::F16)
          .Case("f4", ElementKind::F32)
          .Case("f8", ElementKind::F64)
          .Default(std::nullopt);
  if (!kind)
    return std::nullopt;
  // Byte order does not matter for one-byte elements.
  if (getElementSize(*kind) == 1)
    return kind;
  bool littleEndian =
      order == '<' || (order == '=' && llvm::sys::IsLittleEndianHost);
  if (!littleEndian)
    return std::nullopt;
  return kind;
}

int64_t HostTensor::numElements() const {
  return HostTensorView(*this).numElements();
}

int64_t HostTensorView::numElements() const {
  // Saturating and never negative, so that a malformed shape cannot make
  // callers index out of bounds; verifyHostTensor reports such shapes.
  uint64_t count = 1;
  for (int64_t dim : shape) {
    if (dim <= 0)
      return 0;
    count = llvm::SaturatingMultiply(count, uint64_t(dim));
  }
  return int64_t(
      std::min<uint64_t>(count, std::numeric_limits<int64_t>::max()));
}

size_t HostTensor::elementSize() const { return getElementSize(kind); }

llvm::Error mlir::qops::runner::verifyHostTensor(const HostTensor &tensor) {
  if (tensor.shape.size() > kMaxRank)
    return llvm::createStringError(
        llvm::Twine("rank ") + llvm::Twine(tensor.shape.size()) +
        " exceeds the maximum of " + llvm::Twine(kMaxRank));
  // As NumPy: the product of the non-zero dimensions times the element size
  // must fit, even when some dimension is zero.
  int64_t bytes = int64_t(tensor.elementSize());
  bool zeroSized = false;
  for (int64_t dim : tensor.shape) {
    if (dim < 0)
      return llvm::createStringError("negative dimension in shape " +
                                     formatShape(tensor.shape));
    if (dim == 0) {
      zeroSized = true;
      continue;
    }
    std::optional<int64_t> product = llvm::checkedMul(bytes, dim);
    if (!product)
      return llvm::createStringError("shape " + formatShape(tensor.shape) +
                                     " is too large");
    bytes = *product;
  }
  if (zeroSized)
    bytes = 0;
  if (tensor.data.size() != uint64_t(bytes))
    return llvm::createStringError(
        llvm::Twine("data has ") + llvm::Twine(uint64_t(tensor.data.size())) +
        " bytes, shape " + formatShape(tensor.shape) + " of " +
        getKindName(tensor.kind) + " needs " + llvm::Twine(bytes));
  return llvm::Error::success();
}

std::vector<int64_t>
mlir::qops::runner::unflattenIndex(llvm::ArrayRef<int64_t> shape,
                                   int64_t flat) {
  std::vector<int64_t> index(shape.size(), 0);
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] <= 0)
      continue;
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  return index;
}

std::string mlir::qops::runner::formatShape(llvm::ArrayRef<int64_t> shape) {
  std::string result = "[";
  llvm::raw_string_ostream os(result);
  llvm::interleave(shape, os, ", ");
  os << ']';
  return result;
}

//===----------------------------------------------------------------------===//
// Formatting, printing, comparison
//===----------------------------------------------------------------------===//

std::string mlir::qops::runner::formatElement(const HostTensor &t,
                                              int64_t flatIndex) {
  size_t size = t.elementSize();
  if (flatIndex < 0 || flatIndex >= t.numElements() ||
      uint64_t(flatIndex) >= t.data.size() / size)
    return "<out of range>";
  return formatElementUnchecked(t, flatIndex);
}

double mlir::qops::runner::getElementAsDouble(const HostTensor &t,
                                              int64_t flatIndex) {
  size_t size = t.elementSize();
  if (flatIndex < 0 || flatIndex >= t.numElements() ||
      uint64_t(flatIndex) >= t.data.size() / size)
    return std::nan("");
  const uint8_t *p = t.data.data() + flatIndex * size;
  switch (t.kind) {
  case ElementKind::I8:
    return int8_t(*p);
  case ElementKind::U8:
    return *p;
  case ElementKind::I16:
    return load<int16_t>(p);
  case ElementKind::U16:
    return load<uint16_t>(p);
  case ElementKind::I32:
    return load<int32_t>(p);
  case ElementKind::I64:
    return double(load<int64_t>(p));
  case ElementKind::F16:
    return decodeF16(load<uint16_t>(p));
  case ElementKind::BF16:
    return decodeBF16(load<uint16_t>(p));
  case ElementKind::F32:
    return bitsToFloat(load<uint32_t>(p));
  case ElementKind::F64:
    return bitsToDouble(load<uint64_t>(p));
  }
  return std::nan("");
}

void mlir::qops::runner::printTensor(llvm::raw_ostream &os,
                                     const HostTensor &t) {
  if (llvm::Error err = verifyHostTensor(t)) {
    os << "<invalid tensor: " << llvm::toString(std::move(err)) << '>';
    return;
  }
  // An empty tensor prints "[]" whatever its shape, as NumPy does: walking
  // the dimensions before the zero one could take time without bound (shape
  // [1000000000, 0]: found by quantops-fuzz-tensorproto).
  if (t.numElements() == 0) {
    os << "[]";
    return;
  }
  TensorPrinter printer{os, t, std::vector<int64_t>(t.shape.size(), 1),
                        t.numElements() > kSummarizeThreshold};
  for (size_t d = t.shape.size(); d-- > 1;)
    printer.strides[d - 1] = printer.strides[d] * t.shape[d];
  printer.print(0, 0);
}

llvm::Expected<CompareResult> mlir::qops::runner::compareBitExact(
    const HostTensor &got, const HostTensor &expected, size_t maxReported) {
  if (llvm::Error err = verifyHostTensor(got))
    return llvm::createStringError("compare: result tensor is malformed: " +
                                   llvm::toString(std::move(err)));
  if (llvm::Error err = verifyHostTensor(expected))
    return llvm::createStringError("compare: expected tensor is malformed: " +
                                   llvm::toString(std::move(err)));
  if (got.kind != expected.kind)
    return llvm::createStringError("compare: element kinds differ: got " +
                                   getKindName(got.kind) + ", expected " +
                                   getKindName(expected.kind));
  if (got.shape != expected.shape)
    return llvm::createStringError("compare: shapes differ: got " +
                                   formatShape(got.shape) + ", expected " +
                                   formatShape(expected.shape));

  CompareResult result;
  if (got.data == expected.data)
    return result;
  bool (*isNaN)(uint64_t) = isNaNNever;
  switch (got.kind) {
  case ElementKind::F16:
    isNaN = isNaNF16;
    break;
  case ElementKind::BF16:
    isNaN = isNaNBF16;
    break;
  case ElementKind::F32:
    isNaN = isNaNF32;
    break;
  case ElementKind::F64:
    isNaN = isNaNF64;
    break;
  default:
    break;
  }
  compareElements(got, expected, maxReported, isNaN, result);
  return result;
}

std::string mlir::qops::runner::quoteForMessage(llvm::StringRef text,
                                                size_t maxShown) {
  std::string result = "'";
  llvm::raw_string_ostream os(result);
  llvm::printEscapedString(text.take_front(maxShown), os);
  if (text.size() > maxShown)
    os << "...";
  os << '\'';
  return result;
}
