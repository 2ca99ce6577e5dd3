//===- ParseModel.cpp - A ModelProto parsed without copying its weights ---===//
//
// parseModelBytes (OnnxTensor.h). protobuf copies every bytes field into a
// std::string of the message, the initializers' raw_data included: for a
// model of 28 MB of weights, 28 MB of fresh memory, a page fault per 4 KiB,
// before the importer copies them once more into the attribute. So the
// bytes are parsed without those payloads:
//
//   ModelProto    field 7 (graph), once
//   GraphProto    field 5 (initializer), each
//   TensorProto   field 9 (raw_data), at most once; at least
//                 kLeftRawDataBytes long
//
// A scan of the wire format (key varint; varint, 8-byte, length-delimited
// or 4-byte value) copies the model's bytes except those payloads, each
// replaced by an empty raw_data, with the lengths of the enclosing graph
// and initializer fixed up; protobuf parses that copy; each initializer
// that lost its payload is mapped to the payload's bytes where they were
// read. Anything else is copied as it is (node attributes' tensors, unknown
// fields), so the parse sees the same message but for those payloads.
//
// A first scan, which copies nothing, sums the payloads: when they are less
// than half of the bytes (many small initializers), the copy would cost
// more than it saves, and protobuf parses the bytes as they are.
//
// Whatever the scan does not expect, it leaves to protobuf: bytes that are
// not fields (a truncated message, groups, an unknown wire type), a second
// graph field (protobuf merges the two), a second raw_data in one tensor
// (protobuf keeps the last), no payload long enough: the bytes are parsed
// as they are, so an error or a merge is protobuf's own.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Target/ONNX/OnnxTensor.h"

#include "onnx_subset.pb.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <climits>
#include <optional>

using namespace mlir::qops::onnx;

namespace {

/// A raw_data at least this long is left in the bytes the model was read
/// into. Shorter ones cost protobuf less than a map entry would.
constexpr size_t kLeftRawDataBytes = 4096;

constexpr uint64_t kGraphField = 7;       // ModelProto.graph
constexpr uint64_t kInitializerField = 5; // GraphProto.initializer
constexpr uint64_t kRawDataField = 9;     // TensorProto.raw_data
constexpr unsigned kLengthDelimited = 2;

/// One field of a message in the wire format.
struct Field {
  uint64_t number = 0;
  unsigned wireType = 0;
  /// The whole field: key and value.
  llvm::StringRef bytes;
  /// A length-delimited field's value, without its length.
  llvm::StringRef payload;
  /// A varint field's value.
  uint64_t value = 0;
};

/// The fields of one message's bytes, in order.
class FieldReader {
public:
  explicit FieldReader(llvm::StringRef bytes) : rest(bytes) {}

  bool atEnd() const { return rest.empty(); }

  /// The next field; false when the bytes are not one (truncated, a group,
  /// a wire type protobuf does not define, field number 0).
  bool next(Field &field) {
    const char *start = rest.data();
    uint64_t key = 0;
    if (!readVarint(key) || (key >> 3) == 0)
      return false;
    field.number = key >> 3;
    field.wireType = unsigned(key & 7);
    field.payload = {};
    field.value = 0;
    uint64_t value = 0;
    switch (field.wireType) {
    case 0:
      if (!readVarint(field.value))
        return false;
      break;
    case 1:
    case 5: {
      size_t size = field.wireType == 1 ? 8 : 4;
      if (rest.size() < size)
        return false;
      rest = rest.drop_front(size);
      break;
    }
    case kLengthDelimited:
      if (!readVarint(value) || value > rest.size())
        return false;
      field.payload = rest.take_front(value);
      rest = rest.drop_front(value);
      break;
    default:
      return false;
    }
    field.bytes = llvm::StringRef(start, rest.data() - start);
    return true;
  }

private:
  bool readVarint(uint64_t &value) {
    value = 0;
    for (unsigned shift = 0; shift < 64 && !rest.empty(); shift += 7) {
      auto byte = uint8_t(rest.front());
      rest = rest.drop_front();
      value |= uint64_t(byte & 0x7f) << shift;
      if (!(byte & 0x80))
        return true;
    }
    return false;
  }

  llvm::StringRef rest;
};

void appendVarint(std::string &out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(char(uint8_t(value) | 0x80));
    value >>= 7;
  }
  out.push_back(char(value));
}

void appendLengthDelimited(std::string &out, uint64_t number,
                           llvm::StringRef payload) {
  appendVarint(out, (number << 3) | kLengthDelimited);
  appendVarint(out, payload.size());
  out.append(payload.data(), payload.size());
}

/// Appends `bytes` to `out` unless `out` is null (a scan that only finds
/// what would be left out).
void append(std::string *out, llvm::StringRef bytes) {
  if (out)
    out->append(bytes.data(), bytes.size());
}

/// Calls `visit(field)` on each field of a message in order; false when the
/// bytes are not fields or when `visit` returns false.
template <typename Visit>
bool forEachField(llvm::StringRef bytes, Visit visit) {
  FieldReader reader(bytes);
  Field field;
  while (!reader.atEnd())
    if (!reader.next(field) || !visit(field))
      return false;
  return true;
}

/// A TensorProto's bytes into `out`, its raw_data left out (into `left`)
/// when it is long enough. False when the bytes are not as expected.
bool copyTensor(llvm::StringRef bytes, std::string *out,
                llvm::StringRef &left) {
  unsigned rawDataFields = 0;
  return forEachField(bytes, [&](const Field &field) {
    if (field.number == kRawDataField && field.wireType == kLengthDelimited) {
      if (++rawDataFields > 1)
        return false;
      if (field.payload.size() >= kLeftRawDataBytes) {
        left = field.payload;
        if (out)
          appendLengthDelimited(*out, kRawDataField, "");
        return true;
      }
    }
    append(out, field.bytes);
    return true;
  });
}

/// A message's bytes into `out` (null: a scan only), each length-delimited
/// field `number` rewritten by `nested(payload, out)` (which writes the new
/// payload into its `out` and returns false when the bytes are not as
/// expected), the other fields as they are.
template <typename Nested>
bool copyFields(llvm::StringRef bytes, std::string *out, uint64_t number,
                Nested nested) {
  std::string payload;
  return forEachField(bytes, [&](const Field &field) {
    if (field.number != number || field.wireType != kLengthDelimited) {
      append(out, field.bytes);
      return true;
    }
    payload.clear();
    if (!nested(field.payload, out ? &payload : nullptr))
      return false;
    if (out)
      appendLengthDelimited(*out, number, payload);
    return true;
  });
}

/// A GraphProto's bytes into `out`, with copyTensor's for its initializers;
/// `left` gets one entry per initializer (empty: nothing left out).
bool copyGraph(llvm::StringRef bytes, std::string *out,
               std::vector<llvm::StringRef> &left) {
  return copyFields(bytes, out, kInitializerField,
                    [&](llvm::StringRef tensor, std::string *tensorOut) {
                      left.emplace_back();
                      return copyTensor(tensor, tensorOut, left.back());
                    });
}

/// The model's bytes into `out` (null: a scan only) without its
/// initializers' long raw_data, and those (one entry per initializer);
/// false when the bytes are not as expected (a second graph included).
bool copyModel(llvm::StringRef bytes, std::string *out,
               std::vector<llvm::StringRef> &left) {
  bool seenGraph = false;
  return copyFields(bytes, out, kGraphField,
                    [&](llvm::StringRef graph, std::string *graphOut) {
                      if (seenGraph)
                        return false;
                      seenGraph = true;
                      return copyGraph(graph, graphOut, left);
                    });
}

/// The model's bytes without its initializers' long raw_data, and those;
/// nullopt when the bytes are not as expected or when that would leave out
/// less than half of them (the copy would cost more than it saves: a model
/// of many small initializers).
std::optional<std::string> copyWithoutRawData(
    llvm::StringRef bytes, std::vector<llvm::StringRef> &left) {
  if (!copyModel(bytes, nullptr, left))
    return std::nullopt;
  uint64_t leftBytes = 0;
  for (llvm::StringRef data : left)
    leftBytes += data.size();
  if (leftBytes == 0 || leftBytes < bytes.size() / 2)
    return std::nullopt;
  left.clear();
  std::string out;
  out.reserve(bytes.size() - leftBytes + 64);
  if (!copyModel(bytes, &out, left))
    return std::nullopt;
  return out;
}

constexpr uint64_t kNodeField = 1;              // GraphProto.node
constexpr uint64_t kSparseInitializerField = 15; // GraphProto
constexpr uint64_t kAttributeField = 5;          // NodeProto.attribute
constexpr uint64_t kAttributeTensorField = 5;    // AttributeProto.t
constexpr uint64_t kAttributeGraphField = 6;     // AttributeProto.g
constexpr uint64_t kAttributeTensorsField = 10;  // AttributeProto.tensors
constexpr uint64_t kAttributeGraphsField = 11;   // AttributeProto.graphs
constexpr uint64_t kExternalDataField = 13;      // TensorProto.external_data
constexpr uint64_t kDataLocationField = 14;      // TensorProto.data_location

/// Whether a TensorProto names external data: external_data entries, or a
/// data_location that is not the default (decodeTensorProto reads external
/// data for 1 and refuses other values). True when its bytes are not fields.
bool tensorMayReadExternalData(llvm::StringRef bytes) {
  bool external = false;
  bool fields = forEachField(bytes, [&](const Field &field) {
    if (field.number == kExternalDataField ||
        (field.number == kDataLocationField &&
         (field.wireType != 0 || field.value != 0)))
      external = true;
    return !external;
  });
  return external || !fields;
}

bool graphMayReadExternalData(llvm::StringRef bytes, unsigned depth);

/// The same for a NodeProto's attributes: their tensors and subgraphs.
bool nodeMayReadExternalData(llvm::StringRef bytes, unsigned depth) {
  return !forEachField(bytes, [&](const Field &node) {
    if (node.number != kAttributeField)
      return true;
    return forEachField(node.payload, [&](const Field &attribute) {
      switch (attribute.number) {
      case kAttributeTensorField:
      case kAttributeTensorsField:
        return !tensorMayReadExternalData(attribute.payload);
      case kAttributeGraphField:
      case kAttributeGraphsField:
        return !graphMayReadExternalData(attribute.payload, depth + 1);
      default:
        return true;
      }
    });
  });
}

/// The same for a GraphProto: its initializers (sparse ones counted as
/// external: they are not read here) and its nodes, subgraphs up to a depth
/// of 16 (deeper: true).
bool graphMayReadExternalData(llvm::StringRef bytes, unsigned depth) {
  if (depth > 16)
    return true;
  return !forEachField(bytes, [&](const Field &field) {
    switch (field.number) {
    case kInitializerField:
      return !tensorMayReadExternalData(field.payload);
    case kSparseInitializerField:
      return false;
    case kNodeField:
      return !nodeMayReadExternalData(field.payload, depth);
    default:
      return true;
    }
  });
}

llvm::Error parseError(llvm::StringRef path) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      path + ": not a valid ONNX model (truncated or corrupt protobuf data)");
}

} // namespace

ParsedModel::ParsedModel() = default;
ParsedModel::ParsedModel(ParsedModel &&) = default;
ParsedModel::~ParsedModel() = default;

llvm::Expected<ParsedModel>
mlir::qops::onnx::parseModelBytes(llvm::StringRef bytes, llvm::StringRef path) {
  ParsedModel parsed;
  parsed.model = std::make_unique<::quantops::onnx::ModelProto>();
  if (bytes.size() > size_t(INT_MAX))
    return parseError(path);
  std::vector<llvm::StringRef> left;
  std::optional<std::string> copy = copyWithoutRawData(bytes, left);
  if (copy && parsed.model->ParseFromArray(copy->data(), int(copy->size())) &&
      size_t(parsed.model->graph().initializer_size()) == left.size()) {
    for (auto [index, data] : llvm::enumerate(left))
      if (!data.empty())
        parsed.rawData[&parsed.model->graph().initializer(int(index))] = data;
    return std::move(parsed);
  }
  // As protobuf reads them (its error, its merge of repeated fields).
  parsed.model->Clear();
  if (!parsed.model->ParseFromArray(bytes.data(), int(bytes.size())))
    return parseError(path);
  return std::move(parsed);
}

bool mlir::qops::onnx::mayReadExternalData(llvm::StringRef bytes) {
  return !forEachField(bytes, [](const Field &field) {
    return field.number != kGraphField ||
           !graphMayReadExternalData(field.payload, 0);
  });
}
