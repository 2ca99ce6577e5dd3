//===- OnnxTensor.cpp - ONNX TensorProto decoding -------------------------===//
//
// Decodes TensorProto messages (onnx_subset.proto) into one storage unit per
// element, following SPEC.md "Storage in ONNX files (TensorProto)": raw_data
// little-endian, typed fields one value per element except the 4-bit and
// 2-bit types, which store one packed byte per int32; external data read
// from a file that must stay inside the model's directory.
//
// Every size is checked before anything is allocated: the decoded byte size
// against TensorLoadOptions::maxBytes, and the number of bytes or values the
// message actually holds against what the dims need. Hostile input yields an
// llvm::Error, never a crash.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Target/ONNX/OnnxTensor.h"

#include "onnx_subset.pb.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <climits>
#include <cstring>
#include <limits>
#include <optional>

using namespace mlir::qops::onnx;
using ::quantops::onnx::ModelProto;
using ::quantops::onnx::TensorProto;

namespace {

//===----------------------------------------------------------------------===//
// Messages
//===----------------------------------------------------------------------===//

/// `text` quoted for a one-line message (names, paths: 64 bytes shown).
std::string quote(llvm::StringRef text) {
  return mlir::qops::runner::quoteForMessage(text, 64);
}

/// "[2, 3]", at most a few dimensions shown (a hostile message may have
/// millions).
std::string formatDims(llvm::ArrayRef<int64_t> dims) {
  constexpr size_t kMaxShown = 8;
  std::string result = "[";
  llvm::raw_string_ostream os(result);
  for (size_t i = 0; i < dims.size() && i < kMaxShown; ++i)
    os << (i ? ", " : "") << dims[i];
  if (dims.size() > kMaxShown)
    os << ", ... (" << dims.size() << " dimensions)";
  os << ']';
  return result;
}

llvm::Error tensorError(llvm::StringRef name, const llvm::Twine &message) {
  return llvm::createStringError("tensor " + quote(name) + ": " + message);
}

llvm::Error fileError(llvm::StringRef path, const llvm::Twine &message) {
  return llvm::createStringError(path + ": " + message);
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// Elements per packed byte in raw_data and int32_data: 2 for the 4-bit
/// types, 4 for the 2-bit types, 0 for the rest (not packed).
unsigned getElementsPerPackedByte(int32_t dataType) {
  switch (OnnxDataType(dataType)) {
  case OnnxDataType::UInt4:
  case OnnxDataType::Int4:
  case OnnxDataType::Float4E2M1:
    return 2;
  case OnnxDataType::UInt2:
  case OnnxDataType::Int2:
    return 4;
  default:
    return 0;
  }
}

bool isSignedSubByte(int32_t dataType) {
  return dataType == int32_t(OnnxDataType::Int4) ||
         dataType == int32_t(OnnxDataType::Int2);
}

/// The bytes raw_data (or external data) holds for `count` elements whose
/// decoded size `decodedBytes` is already known to fit.
uint64_t getEncodedByteCount(int32_t dataType, uint64_t count,
                             uint64_t decodedBytes) {
  if (unsigned perByte = getElementsPerPackedByte(dataType))
    return llvm::divideCeil(count, perByte);
  return decodedBytes;
}

/// unpackSubByteElements for one width and signedness: signed, v = the
/// element's bits, (v ^ 2^(Bits-1)) - 2^(Bits-1). Whole bytes in a loop of
/// constant trip counts, which the compiler vectorizes (int4 weights are
/// millions of elements; docs/Performance.md, "Sub-byte weights without
/// copies"), then the last byte's elements.
template <unsigned Bits, bool Signed>
void unpackSubByteOf(const uint8_t *packed, uint64_t count, uint8_t *out) {
  constexpr unsigned perByte = 8 / Bits, mask = (1u << Bits) - 1;
  constexpr unsigned half = 1u << (Bits - 1);
  auto element = [](uint8_t byte, unsigned j) {
    unsigned value = (byte >> (Bits * j)) & mask;
    return uint8_t(Signed ? (value ^ half) - half : value);
  };
  uint64_t whole = count / perByte;
  for (uint64_t b = 0; b < whole; ++b)
    for (unsigned j = 0; j < perByte; ++j)
      out[b * perByte + j] = element(packed[b], j);
  for (unsigned j = 0; j < count % perByte; ++j)
    out[whole * perByte + j] = element(packed[whole], j);
}

/// Unpacks `count` elements of a 4-bit or 2-bit type from `packed`
/// (divideCeil(count, perByte) bytes) to one byte each in `out`.
void unpackSubByte(int32_t dataType, const uint8_t *packed, uint64_t count,
                   uint8_t *out) {
  mlir::qops::onnx::unpackSubByteElements(
      packed, count, 8 / getElementsPerPackedByte(dataType),
      isSignedSubByte(dataType), out);
}

/// Copies raw little-endian bytes (the raw_data / external data encoding)
/// into the decoded storage.
void decodeRawBytes(int32_t dataType, const uint8_t *bytes, uint64_t count,
                    std::vector<uint8_t> &out) {
  if (getElementsPerPackedByte(dataType))
    unpackSubByte(dataType, bytes, count, out.data());
  else if (!out.empty())
    std::memcpy(out.data(), bytes, out.size());
}

template <typename T> void store(std::vector<uint8_t> &out, size_t index, T v) {
  llvm::support::endian::write<T, llvm::endianness::little>(
      out.data() + index * sizeof(T), v);
}

//===----------------------------------------------------------------------===//
// Typed fields
//===----------------------------------------------------------------------===//

struct Int32Range {
  int64_t min, max;
};

/// The values int32_data may hold for `dataType`, std::nullopt if int32_data
/// does not belong to it.
std::optional<Int32Range> getInt32DataRange(int32_t dataType) {
  switch (OnnxDataType(dataType)) {
  case OnnxDataType::Int32:
    return Int32Range{INT32_MIN, INT32_MAX};
  case OnnxDataType::Int16:
    return Int32Range{INT16_MIN, INT16_MAX};
  case OnnxDataType::UInt16:
  case OnnxDataType::Float16:
  case OnnxDataType::BFloat16:
    return Int32Range{0, UINT16_MAX};
  case OnnxDataType::Int8:
    return Int32Range{INT8_MIN, INT8_MAX};
  case OnnxDataType::Bool:
    return Int32Range{0, 1};
  case OnnxDataType::UInt8:
  case OnnxDataType::Float8E4M3FN:
  case OnnxDataType::Float8E4M3FNUZ:
  case OnnxDataType::Float8E5M2:
  case OnnxDataType::Float8E5M2FNUZ:
  case OnnxDataType::Float8E8M0:
  // 4-bit and 2-bit: one packed byte per value.
  case OnnxDataType::UInt4:
  case OnnxDataType::Int4:
  case OnnxDataType::Float4E2M1:
  case OnnxDataType::UInt2:
  case OnnxDataType::Int2:
    return Int32Range{0, UINT8_MAX};
  default:
    return std::nullopt;
  }
}

/// Checks that typed field `field` has `actual` values where `expected` are
/// needed.
llvm::Error checkCount(llvm::StringRef name, llvm::StringRef field,
                       uint64_t actual, uint64_t expected) {
  if (actual == expected)
    return llvm::Error::success();
  return tensorError(name, field + " has " + llvm::Twine(actual) +
                               " values, expected " + llvm::Twine(expected));
}

llvm::Error decodeInt32Data(const TensorProto &proto, llvm::StringRef name,
                            uint64_t count, uint64_t decodedBytes,
                            std::vector<uint8_t> &out) {
  int32_t dataType = proto.data_type();
  std::optional<Int32Range> range = getInt32DataRange(dataType);
  if (!range)
    return tensorError(name, "int32_data is not valid for data_type " +
                                 getOnnxDataTypeName(dataType));
  unsigned perByte = getElementsPerPackedByte(dataType);
  uint64_t expected = perByte ? llvm::divideCeil(count, perByte) : count;
  const auto &values = proto.int32_data();
  if (llvm::Error err = checkCount(name, "int32_data", values.size(), expected))
    return err;
  for (int i = 0, e = values.size(); i < e; ++i) {
    int64_t v = values.Get(i);
    if (v < range->min || v > range->max)
      return tensorError(name, "int32_data[" + llvm::Twine(i) + "] = " +
                                   llvm::Twine(v) + " is out of range for " +
                                   getOnnxDataTypeName(dataType) + " (" +
                                   llvm::Twine(range->min) + ".." +
                                   llvm::Twine(range->max) + ")");
  }
  out.resize(decodedBytes);
  if (perByte) {
    std::vector<uint8_t> packed(values.begin(), values.end());
    unpackSubByte(dataType, packed.data(), count, out.data());
    return llvm::Error::success();
  }
  size_t unit = getOnnxStorageSize(dataType);
  for (int i = 0, e = values.size(); i < e; ++i) {
    int32_t v = values.Get(i);
    switch (unit) {
    case 1:
      out[i] = uint8_t(v);
      break;
    case 2:
      store<uint16_t>(out, i, uint16_t(v));
      break;
    default:
      store<uint32_t>(out, i, uint32_t(v));
      break;
    }
  }
  return llvm::Error::success();
}

/// Decodes typed field `field` (already known to be the only source) into
/// `out`, resized to `decodedBytes` once the value count has been checked.
llvm::Error decodeTypedField(const TensorProto &proto, llvm::StringRef field,
                             llvm::StringRef name, uint64_t count,
                             uint64_t decodedBytes, std::vector<uint8_t> &out) {
  int32_t dataType = proto.data_type();
  OnnxDataType type = OnnxDataType(dataType);
  auto wrongField = [&] {
    return tensorError(name, field + " is not valid for data_type " +
                                 getOnnxDataTypeName(dataType));
  };
  if (field == "int32_data")
    return decodeInt32Data(proto, name, count, decodedBytes, out);
  // One stored value per element, its bits as they are.
  auto copyValues = [&](OnnxDataType expected, const auto &values,
                        auto toBits) -> llvm::Error {
    if (type != expected)
      return wrongField();
    if (llvm::Error err = checkCount(name, field, values.size(), count))
      return err;
    out.resize(decodedBytes);
    for (int i = 0, e = values.size(); i < e; ++i)
      store(out, i, toBits(values[i]));
    return llvm::Error::success();
  };
  if (field == "float_data")
    return copyValues(OnnxDataType::Float, proto.float_data(),
                      [](float v) { return llvm::bit_cast<uint32_t>(v); });
  if (field == "double_data")
    return copyValues(OnnxDataType::Double, proto.double_data(),
                      [](double v) { return llvm::bit_cast<uint64_t>(v); });
  if (field == "int64_data")
    return copyValues(OnnxDataType::Int64, proto.int64_data(),
                      [](int64_t v) { return uint64_t(v); });
  if (field == "uint64_data") {
    if (type != OnnxDataType::UInt64 && type != OnnxDataType::UInt32)
      return wrongField();
    if (llvm::Error err =
            checkCount(name, field, proto.uint64_data_size(), count))
      return err;
    out.resize(decodedBytes);
    for (int i = 0, e = proto.uint64_data_size(); i < e; ++i) {
      uint64_t v = proto.uint64_data(i);
      if (type == OnnxDataType::UInt64) {
        store<uint64_t>(out, i, v);
        continue;
      }
      if (v > UINT32_MAX)
        return tensorError(name, "uint64_data[" + llvm::Twine(i) + "] = " +
                                     llvm::Twine(v) +
                                     " is out of range for UINT32");
      store<uint32_t>(out, i, uint32_t(v));
    }
    return llvm::Error::success();
  }
  // string_data: only for STRING, which is rejected before this point.
  return wrongField();
}

//===----------------------------------------------------------------------===//
// External data
//===----------------------------------------------------------------------===//

/// An open, checked slice of an external data file.
class ExternalSlice {
public:
  ExternalSlice(llvm::sys::fs::file_t fd, std::string location, uint64_t offset)
      : fd(fd), location(std::move(location)), offset(offset) {}
  ExternalSlice(const ExternalSlice &) = delete;
  ExternalSlice &operator=(const ExternalSlice &) = delete;
  ~ExternalSlice() { llvm::sys::fs::closeFile(fd); }

  /// Reads `size` bytes (the size the slice was checked for) into `dest`.
  llvm::Error read(llvm::StringRef name, uint8_t *dest, uint64_t size) {
    uint64_t done = 0;
    while (done < size) {
      llvm::Expected<size_t> readOrErr = llvm::sys::fs::readNativeFileSlice(
          fd,
          llvm::MutableArrayRef<char>(reinterpret_cast<char *>(dest) + done,
                                      size_t(size - done)),
          offset + done);
      if (!readOrErr)
        return tensorError(name, "cannot read external data file " +
                                     quote(location) + ": " +
                                     llvm::toString(readOrErr.takeError()));
      if (*readOrErr == 0)
        return tensorError(name, "external data file " + quote(location) +
                                     " ended early (changed while reading?)");
      done += *readOrErr;
    }
    return llvm::Error::success();
  }

private:
  llvm::sys::fs::file_t fd;
  std::string location;
  uint64_t offset;
};

/// Opens the external data of `proto` and checks that it holds exactly
/// `size` bytes: the location is relative, does not climb out of `baseDir`
/// lexically nor through symlinks, and names a regular file; offset and
/// length lie within the file. Nothing is read yet.
llvm::Expected<std::unique_ptr<ExternalSlice>>
openExternalData(const TensorProto &proto, llvm::StringRef name,
                 llvm::StringRef baseDir, uint64_t size) {
  std::optional<std::string> location;
  std::optional<uint64_t> offset, length;
  for (const auto &entry : proto.external_data()) {
    llvm::StringRef key = entry.key();
    llvm::StringRef value = entry.value();
    if (key == "location") {
      if (location)
        return tensorError(name, "external_data has two 'location' entries");
      location = value.str();
    } else if (key == "offset" || key == "length") {
      std::optional<uint64_t> &slot = key == "offset" ? offset : length;
      if (slot)
        return tensorError(name, "external_data has two " + quote(key) +
                                     " entries");
      uint64_t number;
      if (value.getAsInteger(10, number))
        return tensorError(name, "external_data " + key + " " + quote(value) +
                                     " is not a non-negative integer");
      slot = number;
    }
    // Other keys ("checksum", ...) are not needed to read the data.
  }
  if (!location || location->empty())
    return tensorError(name, "external data without a 'location'");
  llvm::StringRef loc = *location;
  if (loc.contains('\0'))
    return tensorError(name, "external data location " + quote(loc) +
                                 " contains a NUL byte");
  if (llvm::sys::path::is_absolute(loc) || loc.starts_with("/") ||
      llvm::sys::path::is_absolute(loc, llvm::sys::path::Style::windows))
    return tensorError(name, "external data location " + quote(loc) +
                                 " is an absolute path");
  // Lexically, the path must not climb above the model directory.
  int depth = 0;
  for (llvm::StringRef component : llvm::make_range(
           llvm::sys::path::begin(loc), llvm::sys::path::end(loc))) {
    if (component == "..") {
      if (--depth < 0)
        return tensorError(name, "external data location " + quote(loc) +
                                     " escapes the model directory");
    } else if (component != ".") {
      ++depth;
    }
  }
  if (baseDir.empty())
    return tensorError(name, "external data location " + quote(loc) +
                                 " cannot be resolved: no model directory");

  // After resolving symlinks, the file must still be inside the directory.
  llvm::SmallString<256> realBase, joined, realFile;
  if (std::error_code ec = llvm::sys::fs::real_path(baseDir, realBase))
    return tensorError(name, "cannot resolve the model directory " +
                                 quote(baseDir) + ": " + ec.message());
  joined = baseDir;
  llvm::sys::path::append(joined, loc);
  if (std::error_code ec = llvm::sys::fs::real_path(joined, realFile))
    return tensorError(name, "cannot open external data file " + quote(loc) +
                                 ": " + ec.message());
  llvm::StringRef base = realBase.str();
  llvm::StringRef file = realFile.str();
  // (The directory itself counts as inside; it fails as not a regular file.)
  bool inside = file == base ||
                (file.starts_with(base) &&
                 (base.ends_with("/") || file[base.size()] == '/'));
  if (!inside)
    return tensorError(name, "external data location " + quote(loc) +
                                 " resolves outside the model directory");

  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(realFile, status))
    return tensorError(name, "cannot open external data file " + quote(loc) +
                                 ": " + ec.message());
  if (status.type() != llvm::sys::fs::file_type::regular_file)
    return tensorError(name, "external data location " + quote(loc) +
                                 " is not a regular file");

  llvm::Expected<llvm::sys::fs::file_t> fileOrErr =
      llvm::sys::fs::openNativeFileForRead(realFile);
  if (!fileOrErr)
    return tensorError(name, "cannot open external data file " + quote(loc) +
                                 ": " + llvm::toString(fileOrErr.takeError()));
  uint64_t start = offset.value_or(0);
  auto slice = std::make_unique<ExternalSlice>(*fileOrErr, loc.str(), start);
  // The size of the file actually opened (it may have changed since the
  // status() above).
  if (std::error_code ec = llvm::sys::fs::status(*fileOrErr, status))
    return tensorError(name, "cannot stat external data file " + quote(loc) +
                                 ": " + ec.message());
  if (status.type() != llvm::sys::fs::file_type::regular_file)
    return tensorError(name, "external data location " + quote(loc) +
                                 " is not a regular file");
  uint64_t fileSize = status.getSize();
  std::string where = "external data file " + quote(loc) + " (" +
                      std::to_string(fileSize) + " bytes)";
  if (start > fileSize)
    return tensorError(name, "offset " + llvm::Twine(start) +
                                 " is beyond the end of " + where);
  if (length) {
    if (*length > fileSize - start)
      return tensorError(name, "offset " + llvm::Twine(start) + " + length " +
                                   llvm::Twine(*length) +
                                   " is beyond the end of " + where);
    if (*length != size)
      return tensorError(name, "external data length " + llvm::Twine(*length) +
                                   " does not match the " + llvm::Twine(size) +
                                   " bytes the dims need");
  } else if (fileSize - start != size) {
    return tensorError(name, "external data from offset " +
                                 llvm::Twine(start) + " to the end of " +
                                 where + " is " +
                                 llvm::Twine(fileSize - start) +
                                 " bytes, expected " + llvm::Twine(size));
  }
  return std::move(slice);
}

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

/// Reads a whole file for protobuf parsing (at most 2 GiB, protobuf's limit).
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readProtobufFile(llvm::StringRef path) {
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status))
    return fileError(path, "cannot read: " + ec.message());
  if (status.type() == llvm::sys::fs::file_type::directory_file)
    return fileError(path, "cannot read: is a directory");
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> bufferOrErr =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!bufferOrErr)
    return fileError(path, "cannot read: " + bufferOrErr.getError().message());
  if ((*bufferOrErr)->getBufferSize() > size_t(INT_MAX))
    return fileError(path, "file of " +
                               llvm::Twine((*bufferOrErr)->getBufferSize()) +
                               " bytes is over protobuf's 2 GiB limit");
  return std::move(*bufferOrErr);
}

} // namespace

//===----------------------------------------------------------------------===//
// Public API
//===----------------------------------------------------------------------===//

void mlir::qops::onnx::unpackSubByteElements(const uint8_t *packed,
                                             uint64_t count, unsigned bits,
                                             bool isSigned, uint8_t *out) {
  assert((bits == 2 || bits == 4) && "2- or 4-bit elements");
  if (bits == 4)
    return isSigned ? unpackSubByteOf<4, true>(packed, count, out)
                    : unpackSubByteOf<4, false>(packed, count, out);
  return isSigned ? unpackSubByteOf<2, true>(packed, count, out)
                  : unpackSubByteOf<2, false>(packed, count, out);
}

std::string mlir::qops::onnx::getOnnxDataTypeName(int32_t dataType) {
  switch (OnnxDataType(dataType)) {
  case OnnxDataType::Undefined:
    return "UNDEFINED";
  case OnnxDataType::Float:
    return "FLOAT";
  case OnnxDataType::UInt8:
    return "UINT8";
  case OnnxDataType::Int8:
    return "INT8";
  case OnnxDataType::UInt16:
    return "UINT16";
  case OnnxDataType::Int16:
    return "INT16";
  case OnnxDataType::Int32:
    return "INT32";
  case OnnxDataType::Int64:
    return "INT64";
  case OnnxDataType::String:
    return "STRING";
  case OnnxDataType::Bool:
    return "BOOL";
  case OnnxDataType::Float16:
    return "FLOAT16";
  case OnnxDataType::Double:
    return "DOUBLE";
  case OnnxDataType::UInt32:
    return "UINT32";
  case OnnxDataType::UInt64:
    return "UINT64";
  case OnnxDataType::Complex64:
    return "COMPLEX64";
  case OnnxDataType::Complex128:
    return "COMPLEX128";
  case OnnxDataType::BFloat16:
    return "BFLOAT16";
  case OnnxDataType::Float8E4M3FN:
    return "FLOAT8E4M3FN";
  case OnnxDataType::Float8E4M3FNUZ:
    return "FLOAT8E4M3FNUZ";
  case OnnxDataType::Float8E5M2:
    return "FLOAT8E5M2";
  case OnnxDataType::Float8E5M2FNUZ:
    return "FLOAT8E5M2FNUZ";
  case OnnxDataType::UInt4:
    return "UINT4";
  case OnnxDataType::Int4:
    return "INT4";
  case OnnxDataType::Float4E2M1:
    return "FLOAT4E2M1";
  case OnnxDataType::Float8E8M0:
    return "FLOAT8E8M0";
  case OnnxDataType::UInt2:
    return "UINT2";
  case OnnxDataType::Int2:
    return "INT2";
  }
  return ("UNKNOWN(" + llvm::Twine(dataType) + ")").str();
}

size_t mlir::qops::onnx::getOnnxStorageSize(int32_t dataType) {
  switch (OnnxDataType(dataType)) {
  case OnnxDataType::Float:
  case OnnxDataType::Int32:
  case OnnxDataType::UInt32:
    return 4;
  case OnnxDataType::Double:
  case OnnxDataType::Int64:
  case OnnxDataType::UInt64:
    return 8;
  case OnnxDataType::UInt16:
  case OnnxDataType::Int16:
  case OnnxDataType::Float16:
  case OnnxDataType::BFloat16:
    return 2;
  case OnnxDataType::UInt8:
  case OnnxDataType::Int8:
  case OnnxDataType::Bool:
  case OnnxDataType::Float8E4M3FN:
  case OnnxDataType::Float8E4M3FNUZ:
  case OnnxDataType::Float8E5M2:
  case OnnxDataType::Float8E5M2FNUZ:
  case OnnxDataType::Float8E8M0:
  case OnnxDataType::UInt4:
  case OnnxDataType::Int4:
  case OnnxDataType::Float4E2M1:
  case OnnxDataType::UInt2:
  case OnnxDataType::Int2:
    return 1;
  case OnnxDataType::Undefined:
  case OnnxDataType::String:
  case OnnxDataType::Complex64:
  case OnnxDataType::Complex128:
    return 0;
  }
  return 0;
}

int64_t OnnxTensor::numElements() const {
  uint64_t count = 1;
  for (int64_t dim : dims) {
    if (dim <= 0)
      return 0;
    count = llvm::SaturatingMultiply(count, uint64_t(dim));
  }
  return int64_t(
      std::min<uint64_t>(count, std::numeric_limits<int64_t>::max()));
}

llvm::Expected<OnnxTensor>
mlir::qops::onnx::decodeTensorProto(const TensorProto &proto,
                                    const TensorLoadOptions &options) {
  OnnxTensor tensor;
  tensor.name = proto.name();
  tensor.dataType = proto.data_type();
  llvm::StringRef name = tensor.name;
  int32_t dataType = tensor.dataType;

  size_t unit = getOnnxStorageSize(dataType);
  if (unit == 0) {
    if (!proto.has_data_type() || dataType == 0)
      return tensorError(name, "data_type is missing or UNDEFINED");
    if (dataType == int32_t(OnnxDataType::String) ||
        dataType == int32_t(OnnxDataType::Complex64) ||
        dataType == int32_t(OnnxDataType::Complex128))
      return tensorError(name, getOnnxDataTypeName(dataType) +
                                   " tensors are not supported");
    return tensorError(name, "unknown data_type " + llvm::Twine(dataType));
  }

  // Element count and decoded size, as NumPy: the product of the non-zero
  // dimensions times the element size must fit in int64 even when some
  // dimension is zero.
  tensor.dims.assign(proto.dims().begin(), proto.dims().end());
  int64_t bytes = int64_t(unit);
  bool zeroSized = false;
  for (int64_t dim : tensor.dims) {
    if (dim < 0)
      return tensorError(name, "negative dimension " + llvm::Twine(dim) +
                                   " in dims " + formatDims(tensor.dims));
    if (dim == 0) {
      zeroSized = true;
      continue;
    }
    std::optional<int64_t> product = llvm::checkedMul(bytes, dim);
    if (!product)
      return tensorError(name, "dims " + formatDims(tensor.dims) +
                                   " are too large (byte size overflows)");
    bytes = *product;
  }
  uint64_t count = zeroSized ? 0 : uint64_t(bytes) / unit;
  uint64_t decodedBytes = zeroSized ? 0 : uint64_t(bytes);
  if (decodedBytes > options.maxBytes)
    return tensorError(name, "dims " + formatDims(tensor.dims) + " need " +
                                 llvm::Twine(decodedBytes) +
                                 " bytes, more than the limit of " +
                                 llvm::Twine(options.maxBytes));
  // An empty tensor is held to the limit too, its zero dimensions counted as
  // 1: code that walks its other dimensions (the JIT's outer loops) does that
  // many iterations, so dims [10^18, 0] are no cheaper than 10^18 bytes.
  if (zeroSized && uint64_t(bytes) > options.maxBytes)
    return tensorError(name, "empty tensor: the non-zero dims of " +
                                 formatDims(tensor.dims) + " span " +
                                 llvm::Twine(bytes) +
                                 " bytes, more than the limit of " +
                                 llvm::Twine(options.maxBytes));
  uint64_t encodedBytes = getEncodedByteCount(dataType, count, decodedBytes);

  // Exactly one data source (none for an empty tensor).
  if (proto.data_location() != 0 && proto.data_location() != 1)
    return tensorError(name, "unknown data_location " +
                                 llvm::Twine(proto.data_location()));
  llvm::SmallVector<llvm::StringRef, 4> sources;
  if (proto.has_raw_data())
    sources.push_back("raw_data");
  if (proto.float_data_size())
    sources.push_back("float_data");
  if (proto.int32_data_size())
    sources.push_back("int32_data");
  if (proto.string_data_size())
    sources.push_back("string_data");
  if (proto.int64_data_size())
    sources.push_back("int64_data");
  if (proto.double_data_size())
    sources.push_back("double_data");
  if (proto.uint64_data_size())
    sources.push_back("uint64_data");
  bool external = proto.data_location() == 1;
  if (external)
    sources.push_back("external data");
  if (sources.size() > 1)
    return tensorError(name, "more than one data source (" +
                                 llvm::join(sources, ", ") + ")");
  if (sources.empty()) {
    if (count == 0)
      return std::move(tensor);
    return tensorError(name, "no data for " + llvm::Twine(count) +
                                 " elements (no raw_data, typed field or "
                                 "external data)");
  }
  llvm::StringRef source = sources.front();

  if (source == "raw_data") {
    llvm::StringRef raw =
        options.rawData ? *options.rawData : llvm::StringRef(proto.raw_data());
    if (raw.size() != encodedBytes)
      return tensorError(name, "raw_data has " + llvm::Twine(raw.size()) +
                                   " bytes, expected " +
                                   llvm::Twine(encodedBytes) + " for " +
                                   getOnnxDataTypeName(dataType) +
                                   formatDims(tensor.dims));
    if (options.borrowRawData && !getElementsPerPackedByte(dataType)) {
      tensor.borrowed = llvm::ArrayRef<uint8_t>(
          reinterpret_cast<const uint8_t *>(raw.data()), raw.size());
      return std::move(tensor);
    }
    tensor.data.resize(decodedBytes);
    decodeRawBytes(dataType, reinterpret_cast<const uint8_t *>(raw.data()),
                   count, tensor.data);
    return std::move(tensor);
  }

  if (source == "external data") {
    llvm::Expected<std::unique_ptr<ExternalSlice>> slice =
        openExternalData(proto, name, options.baseDir, encodedBytes);
    if (!slice)
      return slice.takeError();
    if (getElementsPerPackedByte(dataType)) {
      std::vector<uint8_t> packed(encodedBytes);
      if (llvm::Error err = (*slice)->read(name, packed.data(), encodedBytes))
        return std::move(err);
      tensor.data.resize(decodedBytes);
      decodeRawBytes(dataType, packed.data(), count, tensor.data);
      return std::move(tensor);
    }
    tensor.data.resize(decodedBytes);
    if (llvm::Error err =
            (*slice)->read(name, tensor.data.data(), encodedBytes))
      return std::move(err);
    return std::move(tensor);
  }

  // A typed field: its value count is checked before anything is
  // allocated, so the allocation is bounded by the message's own size.
  if (llvm::Error err =
          decodeTypedField(proto, source, name, count, decodedBytes,
                           tensor.data))
    return std::move(err);
  return std::move(tensor);
}

llvm::Expected<OnnxTensor>
mlir::qops::onnx::readTensorProtoFile(llvm::StringRef path,
                                      uint64_t maxBytes) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> bufferOrErr =
      readProtobufFile(path);
  if (!bufferOrErr)
    return bufferOrErr.takeError();
  const llvm::MemoryBuffer &buffer = **bufferOrErr;
  TensorProto proto;
  if (!proto.ParseFromArray(buffer.getBufferStart(),
                            int(buffer.getBufferSize())))
    return fileError(path, "not a valid TensorProto (truncated or corrupt "
                           "protobuf data)");
  TensorLoadOptions options;
  options.maxBytes = maxBytes;
  options.baseDir = llvm::sys::path::parent_path(path).str();
  if (options.baseDir.empty())
    options.baseDir = ".";
  llvm::Expected<OnnxTensor> tensor = decodeTensorProto(proto, options);
  if (!tensor)
    return fileError(path, llvm::toString(tensor.takeError()));
  return tensor;
}

llvm::Expected<ParsedModel>
mlir::qops::onnx::readModelFile(llvm::StringRef path) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      readProtobufFile(path);
  if (!buffer)
    return buffer.takeError();
  llvm::Expected<ParsedModel> parsed =
      parseModelBytes((*buffer)->getBuffer(), path);
  if (parsed)
    parsed->file = std::move(*buffer);
  return parsed;
}

std::optional<mlir::qops::runner::ElementKind>
mlir::qops::onnx::getOnnxHostElementKind(int32_t dataType) {
  using mlir::qops::runner::ElementKind;
  switch (OnnxDataType(dataType)) {
  case OnnxDataType::Float:
    return ElementKind::F32;
  case OnnxDataType::Double:
    return ElementKind::F64;
  case OnnxDataType::Float16:
    return ElementKind::F16;
  case OnnxDataType::BFloat16:
    return ElementKind::BF16;
  case OnnxDataType::Int8:
  case OnnxDataType::Int4:
  case OnnxDataType::Int2:
    return ElementKind::I8;
  case OnnxDataType::UInt8:
  case OnnxDataType::UInt4:
  case OnnxDataType::UInt2:
  case OnnxDataType::Bool:
  case OnnxDataType::Float8E4M3FN:
  case OnnxDataType::Float8E4M3FNUZ:
  case OnnxDataType::Float8E5M2:
  case OnnxDataType::Float8E5M2FNUZ:
  case OnnxDataType::Float4E2M1:
  case OnnxDataType::Float8E8M0:
    return ElementKind::U8;
  case OnnxDataType::Int16:
    return ElementKind::I16;
  case OnnxDataType::UInt16:
    return ElementKind::U16;
  case OnnxDataType::Int32:
    return ElementKind::I32;
  case OnnxDataType::Int64:
    return ElementKind::I64;
  default:
    return std::nullopt;
  }
}

llvm::Expected<mlir::qops::runner::HostTensor>
mlir::qops::onnx::toHostTensor(const OnnxTensor &tensor) {
  std::optional<mlir::qops::runner::ElementKind> kind =
      getOnnxHostElementKind(tensor.dataType);
  if (!kind)
    return tensorError(tensor.name,
                       getOnnxDataTypeName(tensor.dataType) +
                           " has no runner element kind");
  mlir::qops::runner::HostTensor host;
  host.kind = *kind;
  host.shape = tensor.dims;
  host.data = tensor.data;
  if (llvm::Error err = mlir::qops::runner::verifyHostTensor(host))
    return tensorError(tensor.name, llvm::toString(std::move(err)));
  return std::move(host);
}
