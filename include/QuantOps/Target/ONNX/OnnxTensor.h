//===- OnnxTensor.h - ONNX TensorProto decoding ----------------*- C++ -*-===//
//
// Decoding of ONNX TensorProto messages (initializers, Constant attributes,
// the test_data_set_N/*.pb files of the ONNX node tests) into dense host
// buffers, and reading of ModelProto files. The messages are those of the
// project's own schema, lib/Target/ONNX/onnx_subset.proto (package
// quantops.onnx); this header only forward-declares them. Code that looks
// inside a ModelProto includes the generated "onnx_subset.pb.h" (on the
// include path of everything that links QuantOpsONNXProto).
//
// Nothing here throws or aborts on malformed or hostile input: every problem
// is an llvm::Error with a one-line message naming the file and/or tensor.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_TARGET_ONNX_ONNXTENSOR_H
#define QUANTOPS_TARGET_ONNX_ONNXTENSOR_H

#include "QuantOps/Runner/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace quantops::onnx {
class TensorProto;
class ModelProto;
} // namespace quantops::onnx

namespace llvm {
class MemoryBuffer;
} // namespace llvm

namespace mlir::qops::onnx {

/// ONNX TensorProto.DataType numbers (SPEC.md).
enum class OnnxDataType : int32_t {
  Undefined = 0,
  Float = 1,
  UInt8 = 2,
  Int8 = 3,
  UInt16 = 4,
  Int16 = 5,
  Int32 = 6,
  Int64 = 7,
  String = 8,
  Bool = 9,
  Float16 = 10,
  Double = 11,
  UInt32 = 12,
  UInt64 = 13,
  Complex64 = 14,  // not supported by the decoder
  Complex128 = 15, // not supported by the decoder
  BFloat16 = 16,
  Float8E4M3FN = 17,
  Float8E4M3FNUZ = 18,
  Float8E5M2 = 19,
  Float8E5M2FNUZ = 20,
  UInt4 = 21,
  Int4 = 22,
  Float4E2M1 = 23,
  Float8E8M0 = 24,
  UInt2 = 25,
  Int2 = 26
};

/// ONNX's name of a DataType number: "FLOAT", "FLOAT8E4M3FN", "INT4", ...;
/// "UNKNOWN(99)" for a number that is not one.
std::string getOnnxDataTypeName(int32_t dataType);

/// How a tensor of `dataType` is held on the host (one element per byte for
/// 4/2-bit integers and float4, the raw bits of bfloat16, float8 and e8m0;
/// BOOL as bytes), or std::nullopt for a type the runner cannot pass.
std::optional<runner::ElementKind> getOnnxHostElementKind(int32_t dataType);

/// Bytes per element of a decoded tensor of `dataType` (see OnnxTensor), or
/// 0 for a type the decoder does not support (UNDEFINED, STRING, COMPLEX*,
/// unknown numbers).
size_t getOnnxStorageSize(int32_t dataType);

/// A decoded tensor: one storage unit per element, little-endian, C order:
///   FLOAT f32, DOUBLE f64, FLOAT16/BFLOAT16 2 bytes (bits), INT8/UINT8/BOOL
///   1 byte, INT16/UINT16 2, INT32/UINT32 4, INT64/UINT64 8, FLOAT8* and
///   FLOAT8E8M0 1 byte (bit pattern), INT4/UINT4/FLOAT4E2M1/INT2/UINT2
///   UNPACKED to one byte per element (INT4/INT2 sign-extended to int8,
///   UINT4/UINT2 and FLOAT4E2M1 zero-extended: FLOAT4 keeps its 4-bit pattern
///   in the low nibble).
struct OnnxTensor {
  std::string name;
  int32_t dataType = 0;
  std::vector<int64_t> dims;
  /// numElements() * getOnnxStorageSize(dataType) bytes, unless they are
  /// borrowed.
  std::vector<uint8_t> data;
  /// With TensorLoadOptions::borrowRawData, a byte-aligned type's raw_data
  /// itself (its encoding is the decoded form), in the proto: `data` is then
  /// empty.
  llvm::ArrayRef<uint8_t> borrowed;

  /// The decoded bytes: `borrowed` or `data`.
  llvm::ArrayRef<uint8_t> getBytes() const {
    return borrowed.data() ? borrowed : llvm::ArrayRef<uint8_t>(data);
  }

  /// Product of dims (1 for rank 0, 0 if any dimension is 0 or negative);
  /// saturates at INT64_MAX.
  int64_t numElements() const;
};

struct TensorLoadOptions {
  /// Directory of the model, for external data. Empty: external data is an
  /// error.
  std::string baseDir;
  /// Largest decoded tensor (numElements * storage size) accepted; checked
  /// before anything is allocated.
  uint64_t maxBytes = uint64_t(4) << 30;
  /// Byte-aligned raw_data is not copied (OnnxTensor::borrowed): the proto
  /// must outlive the tensor. A model's weights are otherwise copied once
  /// more, into memory whose first touch costs a page fault per 4 KiB.
  bool borrowRawData = false;
  /// raw_data's bytes when the parse left them where it read them
  /// (ParsedModel::rawData): the proto's raw_data is empty.
  std::optional<llvm::StringRef> rawData;
};

/// Decodes the data of `proto` from raw_data, from the typed field that
/// belongs to its type, or from external data:
///  - float_data: FLOAT. int64_data: INT64. double_data: DOUBLE.
///    uint64_data: UINT64, UINT32.
///  - int32_data: INT32; INT16/UINT16/INT8/UINT8/BOOL one value per element;
///    FLOAT16/BFLOAT16 one 16-bit pattern (0..65535) per element; FLOAT8* and
///    FLOAT8E8M0 one 8-bit pattern (0..255) per element; INT4/UINT4/FLOAT4E2M1
///    one PACKED BYTE (0..255) per int32 (two elements, low nibble first);
///    INT2/UINT2 one packed byte per int32 (four elements,
///    x0 | x1<<2 | x2<<4 | x3<<6).
///  - raw_data: little-endian, 4-bit and 2-bit types packed as above.
///  - External data (data_location == 1, external_data keys "location",
///    "offset", "length"; others ignored): the location must be a relative
///    path that stays inside options.baseDir, lexically and after resolving
///    symlinks (llvm::sys::fs::real_path of both), and name a regular file;
///    offset and length are checked against the file size, and the bytes
///    are the raw_data encoding.
/// Errors (one line, "tensor '<name>': <problem>"): UNDEFINED, STRING,
/// COMPLEX and unknown data types; negative dimensions; dims whose element
/// count or byte size overflows int64 or whose byte size exceeds
/// options.maxBytes (before allocating; for an empty tensor, the byte size
/// with its zero dims counted as 1, which bounds loops over the others);
/// raw_data or external data of the wrong length; a typed field with the
/// wrong number of values, or one that does not belong to the data type;
/// int32_data / uint64_data values out of range for the type; more than one
/// data source (raw_data, typed fields, external data); no data for a
/// non-empty tensor.
llvm::Expected<OnnxTensor>
decodeTensorProto(const ::quantops::onnx::TensorProto &proto,
                  const TensorLoadOptions &options);

/// Unpacks `count` elements `bits` wide (2 or 4) from `packed`
/// (divideCeil(count, 8 / bits) bytes, each byte's elements from its low
/// bits up, as ONNX packs INT4 / UINT4 / INT2 / UINT2 and MatMulNBits its
/// weights) to one byte each in `out`: signed ones sign-extended to 8 bits,
/// unsigned ones (and float4's bits) zero-extended.
void unpackSubByteElements(const uint8_t *packed, uint64_t count,
                           unsigned bits, bool isSigned, uint8_t *out);

/// Reads a serialized TensorProto file (a .pb as in ONNX's
/// test_data_set_N/input_K.pb) and decodes it, with the file's directory as
/// baseDir. Errors are "<path>: <problem>".
llvm::Expected<OnnxTensor> readTensorProtoFile(llvm::StringRef path,
                                               uint64_t maxBytes = uint64_t(4)
                                                                   << 30);

/// The raw_data that parseModelBytes left where it read it, by initializer.
using LeftRawData =
    llvm::DenseMap<const ::quantops::onnx::TensorProto *, llvm::StringRef>;

/// A parsed ModelProto. The initializers in `rawData` hold an empty raw_data:
/// their bytes are in the bytes parsed (`file`, when readModelFile read
/// them), which must outlive any use of them.
struct ParsedModel {
  ParsedModel();
  ParsedModel(ParsedModel &&);
  ~ParsedModel();
  std::unique_ptr<::quantops::onnx::ModelProto> model;
  LeftRawData rawData;
  /// The file readModelFile read (rawData points into it); shared, so that
  /// the constants an import makes can keep viewing it.
  std::shared_ptr<llvm::MemoryBuffer> file;
};

/// Parses the ModelProto in `bytes` without copying the raw_data of its
/// graph's initializers of 4 KiB or more (ParseModel.cpp); errors are
/// "<path>: <problem>". Fields outside onnx_subset.proto are kept as unknown
/// fields. Only parses: the graph is not checked. Using the model needs
/// "onnx_subset.pb.h".
llvm::Expected<ParsedModel> parseModelBytes(llvm::StringRef bytes,
                                            llvm::StringRef path);

/// Whether importing the ModelProto in `bytes` may read external data
/// files: a tensor of its graph (an initializer, a node attribute's tensor,
/// in subgraphs too) with external_data entries or a data_location other
/// than the default, or a sparse initializer; true as well when the bytes
/// are not protobuf fields. A scan of the wire format that steps over the
/// tensors' data (an object cache keys a model by its file's bytes, which
/// do not cover external data).
bool mayReadExternalData(llvm::StringRef bytes);

/// Reads a ModelProto file and parses it (parseModelBytes). Errors ("<path>:
/// <problem>") on an unreadable file, a file over protobuf's 2 GiB message
/// limit, or a protobuf parse failure (truncated file, garbage).
llvm::Expected<ParsedModel> readModelFile(llvm::StringRef path);

/// Converts a decoded tensor to the runner's host tensor (same shape and
/// bytes): FLOAT->F32, DOUBLE->F64, FLOAT16->F16, BFLOAT16->BF16,
/// INT8/INT4/INT2->I8, UINT8/UINT4/UINT2/BOOL/FLOAT8*/FLOAT4E2M1/
/// FLOAT8E8M0->U8, INT16->I16, UINT16->U16, INT32->I32, INT64->I64. UINT32,
/// UINT64 and the unsupported types are errors, as is a tensor that fails
/// runner::verifyHostTensor (rank over 64, data of the wrong size).
llvm::Expected<mlir::qops::runner::HostTensor>
toHostTensor(const OnnxTensor &tensor);

} // namespace mlir::qops::onnx

#endif // QUANTOPS_TARGET_ONNX_ONNXTENSOR_H
