//===- NpyIO.cpp - reading and writing NumPy .npy files -------------------===//
//
// The .npy format (NumPy's numpy/lib/format.py documents it):
//
//   "\x93NUMPY" major minor  header_len  header  data
//
// header_len is a little-endian uint16 in version 1.0 and a uint32 in 2.0 and
// 3.0 (3.0 only allows UTF-8 in the header). The header is a Python dict
// literal with exactly the keys 'descr', 'fortran_order' and 'shape', padded
// with spaces and ended by '\n'. The header is parsed by a small recursive
// descent parser for the literals that can appear there; every size is
// checked against the file length and `maxBytes` before anything is
// allocated.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Runner/HostTensor.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <utility>

using namespace mlir::qops::runner;

namespace {

constexpr llvm::StringLiteral kMagic("\x93NUMPY");
/// Data is aligned to this many bytes from the start of the file.
constexpr size_t kArrayAlign = 64;
/// Nesting limit of the header parser (NumPy's headers nest at most 2 deep;
/// structured dtypes a little more).
constexpr unsigned kMaxNesting = 32;

llvm::Error fileError(llvm::StringRef name, const llvm::Twine &message) {
  return llvm::createStringError(name + ": " + message);
}

/// `text` quoted for a one-line message (a .npy header: 40 bytes shown).
std::string quote(llvm::StringRef text) { return quoteForMessage(text, 40); }

//===----------------------------------------------------------------------===//
// Header literal parser
//===----------------------------------------------------------------------===//

/// A Python literal as it can appear in a .npy header.
struct PyValue {
  enum class Kind { String, Int, Bool, None, Tuple, List, Dict };
  Kind kind = Kind::None;
  std::string string;            // String
  int64_t integer = 0;           // Int
  bool intOverflow = false;      // Int: did not fit in int64
  bool boolean = false;          // Bool
  std::vector<PyValue> items;    // Tuple, List; Dict: values
  std::vector<std::string> keys; // Dict (keys must be strings)
};

class HeaderParser {
public:
  explicit HeaderParser(llvm::StringRef text) : text(text) {}

  /// Parses the whole header as one literal followed only by whitespace.
  llvm::Expected<PyValue> parse() {
    PyValue value;
    if (!parseValue(value, 0))
      return takeError();
    skipSpace();
    if (pos != text.size()) {
      fail("unexpected " + quote(text.substr(pos, 1)) + " after the literal");
      return takeError();
    }
    return value;
  }

private:
  llvm::StringRef text;
  size_t pos = 0;
  std::string error;

  bool fail(const llvm::Twine &message) {
    if (error.empty())
      error = (message + " at header offset " + llvm::Twine(pos)).str();
    return false;
  }

  llvm::Error takeError() {
    return llvm::createStringError("bad header: " + error);
  }

  char peek() const { return pos < text.size() ? text[pos] : '\0'; }
  bool atEnd() const { return pos >= text.size(); }

  void skipSpace() {
    while (!atEnd() && llvm::isSpace(text[pos]))
      ++pos;
  }

  bool consume(char c) {
    skipSpace();
    if (peek() != c || atEnd())
      return false;
    ++pos;
    return true;
  }

  bool expect(char c) {
    if (consume(c))
      return true;
    return fail(llvm::Twine("expected '") + llvm::Twine(c) + "'");
  }

  bool parseValue(PyValue &value, unsigned depth) {
    if (depth > kMaxNesting)
      return fail("literal nested too deeply");
    skipSpace();
    if (atEnd())
      return fail("unexpected end of header");
    char c = peek();
    if (c == '\'' || c == '"')
      return parseString(value);
    if (llvm::isDigit(c) || c == '-' || c == '+')
      return parseInt(value);
    if (llvm::isAlpha(c) || c == '_')
      return parseName(value);
    if (c == '(')
      return parseSequence(value, ')', depth);
    if (c == '[')
      return parseSequence(value, ']', depth);
    if (c == '{')
      return parseDict(value, depth);
    return fail("unexpected " + quote(text.substr(pos, 1)));
  }

  bool parseString(PyValue &value) {
    char delimiter = text[pos++];
    value.kind = PyValue::Kind::String;
    while (!atEnd() && text[pos] != delimiter) {
      char c = text[pos++];
      if (c == '\n')
        return fail("newline in string");
      if (c == '\\') {
        if (atEnd())
          break;
        c = text[pos++];
      }
      value.string.push_back(c);
    }
    if (atEnd())
      return fail("unterminated string");
    ++pos; // closing delimiter
    return true;
  }

  bool parseInt(PyValue &value) {
    value.kind = PyValue::Kind::Int;
    bool negative = false;
    if (peek() == '-' || peek() == '+') {
      negative = text[pos++] == '-';
      skipSpace();
    }
    if (!llvm::isDigit(peek()))
      return fail("expected a digit");
    uint64_t magnitude = 0;
    while (llvm::isDigit(peek())) {
      unsigned digit = text[pos++] - '0';
      if (magnitude > (UINT64_MAX - digit) / 10)
        value.intOverflow = true;
      else
        magnitude = magnitude * 10 + digit;
    }
    // Python 2 era writers appended 'L' to longs.
    if (peek() == 'L' || peek() == 'l')
      ++pos;
    if (llvm::isAlnum(peek()) || peek() == '.' || peek() == '_')
      return fail("unsupported number literal");
    if (magnitude > uint64_t(INT64_MAX))
      value.intOverflow = true;
    if (!value.intOverflow)
      value.integer = negative ? -int64_t(magnitude) : int64_t(magnitude);
    else
      value.integer = negative ? -1 : 1; // only the sign is meaningful
    return true;
  }

  bool parseName(PyValue &value) {
    size_t start = pos;
    while (llvm::isAlnum(peek()) || peek() == '_')
      ++pos;
    llvm::StringRef name = text.slice(start, pos);
    if (name == "True" || name == "False") {
      value.kind = PyValue::Kind::Bool;
      value.boolean = name == "True";
      return true;
    }
    if (name == "None") {
      value.kind = PyValue::Kind::None;
      return true;
    }
    pos = start;
    return fail("unexpected name " + quote(name));
  }

  /// '(' ... ')' or '[' ... ']'. "(x)" without a comma is x itself, as in
  /// Python.
  bool parseSequence(PyValue &value, char close, unsigned depth) {
    ++pos; // opening bracket
    bool isTuple = close == ')';
    value.kind = isTuple ? PyValue::Kind::Tuple : PyValue::Kind::List;
    bool sawComma = false;
    while (!consume(close)) {
      PyValue item;
      if (!parseValue(item, depth + 1))
        return false;
      value.items.push_back(std::move(item));
      if (consume(','))
        sawComma = true;
      else if (!expect(close))
        return false;
      else
        break;
    }
    if (isTuple && value.items.size() == 1 && !sawComma) {
      PyValue inner = std::move(value.items.front());
      value = std::move(inner);
    }
    return true;
  }

  bool parseDict(PyValue &value, unsigned depth) {
    ++pos; // '{'
    value.kind = PyValue::Kind::Dict;
    while (!consume('}')) {
      PyValue key;
      if (!parseValue(key, depth + 1))
        return false;
      if (key.kind != PyValue::Kind::String)
        return fail("dict key is not a string");
      if (!expect(':'))
        return false;
      PyValue item;
      if (!parseValue(item, depth + 1))
        return false;
      value.keys.push_back(std::move(key.string));
      value.items.push_back(std::move(item));
      if (!consume(',')) {
        if (!expect('}'))
          return false;
        break;
      }
    }
    return true;
  }
};

//===----------------------------------------------------------------------===//
// Header interpretation
//===----------------------------------------------------------------------===//

struct NpyHeader {
  ElementKind kind;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
};

llvm::Expected<ElementKind> interpretDescr(const PyValue &descr) {
  if (descr.kind == PyValue::Kind::List)
    return llvm::createStringError("structured dtypes are not supported");
  if (descr.kind != PyValue::Kind::String)
    return llvm::createStringError("'descr' is not a string");
  llvm::StringRef text = descr.string;
  if (std::optional<ElementKind> kind = parseNumpyDescr(text))
    return *kind;
  llvm::StringRef type = text;
  char order = '=';
  if (!type.empty() && llvm::StringRef("<>=|!").contains(type.front())) {
    order = type.front();
    type = type.drop_front();
  }
  if (type == "O")
    return llvm::createStringError("object arrays (dtype " + quote(text) +
                                   ") are not supported");
  // Known kind, wrong byte order.
  if (parseNumpyDescr(("<" + type).str())) {
    if (order == '>' || order == '!' || order == '=')
      return llvm::createStringError("big-endian dtype " + quote(text) +
                                     " is not supported");
    return llvm::createStringError("dtype " + quote(text) +
                                   " has no byte order");
  }
  return llvm::createStringError(
      "unsupported dtype " + quote(text) +
      " (supported: |i1 |u1 <i2 <u2 <i4 <i8 <f2 <f4 <f8)");
}

llvm::Expected<NpyHeader> interpretHeader(const PyValue &dict) {
  if (dict.kind != PyValue::Kind::Dict)
    return llvm::createStringError("bad header: header is not a dict");
  const PyValue *descr = nullptr, *fortran = nullptr, *shape = nullptr;
  for (auto [key, value] : llvm::zip_equal(dict.keys, dict.items)) {
    const PyValue **slot = key == "descr"           ? &descr
                           : key == "fortran_order" ? &fortran
                           : key == "shape"         ? &shape
                                                    : nullptr;
    if (!slot)
      return llvm::createStringError("bad header: unexpected key " +
                                     quote(key));
    if (*slot)
      return llvm::createStringError("bad header: duplicate key " + quote(key));
    *slot = &value;
  }
  for (auto [value, key] :
       {std::pair(descr, "descr"), std::pair(fortran, "fortran_order"),
        std::pair(shape, "shape")})
    if (!value)
      return llvm::createStringError(llvm::Twine("bad header: no '") + key +
                                     "' key");

  NpyHeader header;
  llvm::Expected<ElementKind> kind = interpretDescr(*descr);
  if (!kind)
    return kind.takeError();
  header.kind = *kind;

  if (fortran->kind != PyValue::Kind::Bool)
    return llvm::createStringError(
        "bad header: 'fortran_order' is not True or False");
  header.fortranOrder = fortran->boolean;

  if (shape->kind != PyValue::Kind::Tuple)
    return llvm::createStringError(
        "bad header: 'shape' is not a tuple of integers");
  if (shape->items.size() > kMaxRank)
    return llvm::createStringError(
        llvm::Twine("shape has ") + llvm::Twine(shape->items.size()) +
        " dimensions, at most " + llvm::Twine(kMaxRank) + " are supported");
  for (const PyValue &dim : shape->items) {
    if (dim.kind != PyValue::Kind::Int)
      return llvm::createStringError(
          "bad header: 'shape' is not a tuple of integers");
    if (dim.intOverflow)
      return llvm::createStringError("shape dimension does not fit in int64");
    header.shape.push_back(dim.integer);
  }
  for (int64_t dim : header.shape)
    if (dim < 0)
      return llvm::createStringError("negative dimension in shape " +
                                     formatShape(header.shape));
  return header;
}

/// The data size in bytes of `header`, checked as NumPy does (the product of
/// the non-zero dimensions times the element size must fit in int64) and
/// against `maxBytes`.
llvm::Expected<uint64_t> dataSize(const NpyHeader &header, uint64_t maxBytes) {
  int64_t count = 1;
  bool zeroSized = false;
  for (int64_t dim : header.shape) {
    if (dim == 0) {
      zeroSized = true;
      continue;
    }
    std::optional<int64_t> product = llvm::checkedMul(count, dim);
    if (!product)
      return llvm::createStringError("element count of shape " +
                                     formatShape(header.shape) +
                                     " overflows int64");
    count = *product;
  }
  std::optional<int64_t> bytes =
      llvm::checkedMul(count, int64_t(getElementSize(header.kind)));
  if (!bytes)
    return llvm::createStringError(
        "byte size of shape " + formatShape(header.shape) + " of " +
        getKindName(header.kind) + " overflows int64");
  // An empty array is held to the limit too, its zero dimensions counted as
  // 1: code that walks its other dimensions (the JIT's outer loops) does that
  // many iterations, so shape (10**18, 0) is no cheaper than 10**18 bytes.
  if (uint64_t(*bytes) > maxBytes) {
    std::string what =
        zeroSized ? "empty array: the non-zero dimensions of shape " +
                        formatShape(header.shape) + " span " +
                        std::to_string(*bytes) + " bytes, which"
                  : "data size " + std::to_string(*bytes) +
                        " bytes of shape " + formatShape(header.shape);
    return llvm::createStringError(what + " exceeds the limit of " +
                                   llvm::Twine(maxBytes) + " bytes");
  }
  if (zeroSized)
    return 0;
  return uint64_t(*bytes);
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

/// The header dict as NumPy writes it, e.g.
/// "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }".
std::string headerDict(const HostTensor &tensor) {
  std::string dict;
  llvm::raw_string_ostream os(dict);
  os << "{'descr': '" << getNumpyDescr(tensor.kind)
     << "', 'fortran_order': False, 'shape': (";
  llvm::interleave(tensor.shape, os, ", ");
  if (tensor.shape.size() == 1)
    os << ',';
  os << "), }";
  return dict;
}

/// The preamble and padded header of a .npy file for `tensor`.
std::string npyPrefix(const HostTensor &tensor) {
  std::string dict = headerDict(tensor);
  for (unsigned major : {1u, 2u}) {
    size_t lengthBytes = major == 1 ? 2 : 4;
    size_t unpadded = kMagic.size() + 2 + lengthBytes + dict.size() + 1;
    size_t padding = (kArrayAlign - unpadded % kArrayAlign) % kArrayAlign;
    uint64_t headerLength = dict.size() + padding + 1;
    if (major == 1 && headerLength > 0xFFFF)
      continue;
    std::string prefix(kMagic);
    prefix.push_back(char(major));
    prefix.push_back(0);
    for (size_t i = 0; i < lengthBytes; ++i)
      prefix.push_back(char((headerLength >> (8 * i)) & 0xFF));
    prefix += dict;
    prefix.append(padding, ' ');
    prefix.push_back('\n');
    return prefix;
  }
  llvm_unreachable("a version 2.0 header always fits");
}

} // namespace

//===----------------------------------------------------------------------===//
// Public entry points
//===----------------------------------------------------------------------===//

/// The bytes of a Fortran-order array (first index fastest) in C order
/// (last index fastest), as np.save writes a transposed array:
///   c[((i0 * d1 + i1) * d2 + i2) ...] = f[i0 + d0 * (i1 + d1 * (i2 ...))].
/// Walks the C order with a counter over the index and the Fortran offset
/// kept up to date: stepping index k adds the Fortran stride of k
/// (prod of d_j for j < k) and a carry resets it.
static std::vector<uint8_t> fortranToC(const uint8_t *fortran,
                                       llvm::ArrayRef<int64_t> shape,
                                       size_t elementSize) {
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  std::vector<uint8_t> out(size_t(count) * elementSize);
  if (count == 0)
    return out;
  size_t rank = shape.size();
  std::vector<int64_t> stride(rank), index(rank, 0);
  for (size_t k = 0, s = 1; k < rank; s *= size_t(shape[k]), ++k)
    stride[k] = int64_t(s);
  int64_t offset = 0;
  for (int64_t c = 0; c < count; ++c) {
    std::memcpy(&out[size_t(c) * elementSize],
                fortran + size_t(offset) * elementSize, elementSize);
    for (size_t k = rank; k-- > 0;) {
      if (++index[k] < shape[k]) {
        offset += stride[k];
        break;
      }
      offset -= stride[k] * (shape[k] - 1);
      index[k] = 0;
    }
  }
  return out;
}

llvm::Expected<HostTensor> mlir::qops::runner::parseNpy(llvm::StringRef bytes,
                                                        llvm::StringRef name,
                                                        uint64_t maxBytes) {
  if (bytes.empty())
    return fileError(name, "not a .npy file (empty file)");
  if (!bytes.starts_with(kMagic))
    return fileError(name,
                     bytes.size() < kMagic.size() && kMagic.starts_with(bytes)
                         ? "not a .npy file (truncated magic)"
                         : "not a .npy file (bad magic)");
  if (bytes.size() < kMagic.size() + 2)
    return fileError(name, "truncated header: no format version");
  unsigned major = uint8_t(bytes[kMagic.size()]);
  unsigned minor = uint8_t(bytes[kMagic.size() + 1]);
  if (major < 1 || major > 3 || minor != 0)
    return fileError(name, "unsupported .npy format version " +
                               llvm::Twine(major) + "." + llvm::Twine(minor));
  size_t lengthBytes = major == 1 ? 2 : 4;
  size_t lengthOffset = kMagic.size() + 2;
  if (bytes.size() < lengthOffset + lengthBytes)
    return fileError(name, "truncated header: no header length");
  const char *lengthPtr = bytes.data() + lengthOffset;
  uint64_t headerLength =
      major == 1
          ? llvm::support::endian::read<uint16_t, llvm::endianness::little>(
                lengthPtr)
          : llvm::support::endian::read<uint32_t, llvm::endianness::little>(
                lengthPtr);
  uint64_t headerOffset = lengthOffset + lengthBytes;
  if (bytes.size() - headerOffset < headerLength)
    return fileError(name, "truncated header: header length says " +
                               llvm::Twine(headerLength) + " bytes, file has " +
                               llvm::Twine(bytes.size() - headerOffset));

  llvm::StringRef headerText = bytes.substr(headerOffset, headerLength);
  llvm::Expected<PyValue> dict = HeaderParser(headerText).parse();
  if (!dict)
    return fileError(name, llvm::toString(dict.takeError()));
  llvm::Expected<NpyHeader> header = interpretHeader(*dict);
  if (!header)
    return fileError(name, llvm::toString(header.takeError()));
  llvm::Expected<uint64_t> size = dataSize(*header, maxBytes);
  if (!size)
    return fileError(name, llvm::toString(size.takeError()));

  uint64_t available = bytes.size() - headerOffset - headerLength;
  if (available < *size)
    return fileError(name, "truncated data: header says " + llvm::Twine(*size) +
                               " bytes, file has " + llvm::Twine(available));
  if (available > *size)
    return fileError(name, "extra bytes after the data: header says " +
                               llvm::Twine(*size) + " bytes, file has " +
                               llvm::Twine(available));

  HostTensor tensor;
  tensor.kind = header->kind;
  tensor.shape = std::move(header->shape);
  const uint8_t *data = reinterpret_cast<const uint8_t *>(bytes.data()) +
                        headerOffset + headerLength;
  if (header->fortranOrder)
    tensor.data = fortranToC(data, tensor.shape, tensor.elementSize());
  else
    tensor.data.assign(data, data + *size);
  return tensor;
}

llvm::Expected<HostTensor> mlir::qops::runner::readNpy(llvm::StringRef path,
                                                       uint64_t maxBytes) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (std::error_code ec = buffer.getError())
    return fileError(path, "cannot read file: " + ec.message());
  return parseNpy((*buffer)->getBuffer(), path, maxBytes);
}

llvm::Error mlir::qops::runner::writeNpy(llvm::StringRef path,
                                         const HostTensor &tensor) {
  if (llvm::Error err = verifyHostTensor(tensor))
    return fileError(path, "cannot write malformed tensor: " +
                               llvm::toString(std::move(err)));
  std::string prefix = npyPrefix(tensor);
  auto write = [&](llvm::raw_fd_ostream &os) -> std::error_code {
    os << prefix;
    os.write(reinterpret_cast<const char *>(tensor.data.data()),
             tensor.data.size());
    os.flush();
    // Hand back a failed write as an error instead of the fatal error a
    // stream destroyed with an error pending raises.
    std::error_code ec = os.error();
    os.clear_error();
    return ec;
  };

  if (path == "-") {
    if (std::error_code ec = write(llvm::outs()))
      return fileError(path, "cannot write to stdout: " + ec.message());
    return llvm::Error::success();
  }

  // Written in place (as np.save does), so that devices, pipes and symlinks
  // behave as targets do for any other tool.
  std::error_code ec;
  {
    llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
    if (ec)
      return fileError(path, "cannot open for writing: " + ec.message());
    ec = write(os);
    if (!ec) {
      os.close();
      ec = os.error();
      os.clear_error();
    }
  }
  if (ec) {
    // Leave no partial .npy behind.
    if (llvm::sys::fs::is_regular_file(path))
      (void)llvm::sys::fs::remove(path);
    return fileError(path, "cannot write file: " + ec.message());
  }
  return llvm::Error::success();
}
