//===- ImportMatMulNBits.cpp - com.microsoft MatMulNBits ------------------===//
//
// MatMulNBits-1 (ONNX Runtime's contrib op for LLM weights, SPEC.md):
//
//   Y = A W (+ bias),   W[k, n] = (q[k, n] - zp[kb, n]) * scale[kb, n],
//   kb = k / block_size
//
// with q stored transposed and packed: B uint8 [N, k_blocks, blob_size],
// blob_size = block_size * bits / 8, element i of block kb of row n in
// byte i * bits / 8 of blob (n, kb), low bits first; scales [N * k_blocks]
// (or [N, k_blocks]); zero_points packed the same way along kb, [N *
// ceil(k_blocks * bits / 8)] uint8, 2^(bits - 1) when absent.
//
// Imported as what it computes, in the ops the engine already has:
//   q      constant [K, N] ui<bits> (unpacked, transposed)
//   scale  constant [k_blocks, N] f32, zp constant [k_blocks, N] ui<bits>
//   W      qops.dequantize_linear q, scale, zp axis = 0 block_size = B
//   Y      MatMul(A, W) (+ bias, broadcast over the last dim)
// which the float kernel multiplies reading q's integers
// (FloatMatMulWeights.cpp). accuracy_level names the lowest precision ONNX
// Runtime may use for A (0 unset, 1 f32, 2 f16, 3 bf16, 4 int8); it rides
// on the matmul as qops.accuracy_level: levels 0 to 3 run in f32, with
// ONNX's numbers (f32 is at least what each allows); level 4 with 4-bit
// weights quantizes A to int8 per block (FloatMatMulInt8.cpp).
// B, scales and zero_points must be initializers; A f32; zero points of A's
// type and g_idx are refused with a message.
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"
#include "QuantOps/Target/ONNX/OnnxTensor.h"
#include "QuantOps/Utils/ConstantBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstring>

using namespace mlir;
using namespace mlir::qops;
using namespace mlir::qops::onnx;
using Node = GraphImporter::Node;

namespace {

/// The attributes of a MatMulNBits node.
struct NBitsShape {
  int64_t k, n, bits, blockSize, kBlocks, blobSize, accuracyLevel;
};

llvm::Expected<NBitsShape> readShape(GraphImporter &importer,
                                     const Node &node) {
  NBitsShape shape;
  auto get = [&](llvm::StringRef name, std::optional<int64_t> fallback,
                 int64_t &out) -> llvm::Error {
    llvm::Expected<std::optional<int64_t>> value =
        importer.getIntAttribute(node, name);
    if (!value)
      return value.takeError();
    if (!*value && !fallback)
      return importer.nodeError(node, "attribute '" + name + "' is required");
    out = value->value_or(fallback.value_or(0));
    return llvm::Error::success();
  };
  int64_t level = 0;
  for (auto [name, fallback, out] :
       {std::make_tuple("K", std::optional<int64_t>(), &shape.k),
        std::make_tuple("N", std::optional<int64_t>(), &shape.n),
        std::make_tuple("bits", std::optional<int64_t>(4), &shape.bits),
        std::make_tuple("block_size", std::optional<int64_t>(),
                        &shape.blockSize),
        std::make_tuple("accuracy_level", std::optional<int64_t>(0), &level)})
    if (llvm::Error error = get(name, fallback, *out))
      return error;
  // Below 2^31, the sizes below cannot overflow; B's element count (which
  // the file holds) then bounds what the import allocates.
  if (shape.k <= 0 || shape.n <= 0 || shape.k >= (int64_t(1) << 31) ||
      shape.n >= (int64_t(1) << 31))
    return importer.nodeError(node, "K and N must be in [1, 2^31)");
  if (!llvm::is_contained({2, 4, 8}, shape.bits))
    return importer.nodeError(
        node, llvm::formatv("bits {0} is not supported (2, 4 or 8)",
                            shape.bits));
  if (shape.blockSize < 16 || !llvm::isPowerOf2_64(shape.blockSize))
    return importer.nodeError(
        node, llvm::formatv("block_size {0} is not a power of 2 of at least 16",
                            shape.blockSize));
  if (level < 0 || level > 4)
    return importer.nodeError(
        node, llvm::formatv("accuracy_level {0} is not in 0..4", level));
  shape.accuracyLevel = level;
  shape.kBlocks = llvm::divideCeil(shape.k, shape.blockSize);
  shape.blobSize = shape.blockSize * shape.bits / 8;
  return shape;
}

/// The constant initializer behind input `index`, with `count` elements of
/// `element`.
llvm::Expected<DenseElementsAttr>
constantInput(GraphImporter &importer, const Node &node, int index,
              llvm::StringRef what, Type element, int64_t count) {
  llvm::Expected<Value> value = importer.getInput(node, index);
  if (!value)
    return value.takeError();
  DenseElementsAttr attr;
  if (!*value || !matchPattern(*value, m_Constant(&attr)))
    return importer.nodeError(node, what + " must be an initializer");
  if (attr.getElementType() != element || attr.getNumElements() != count)
    return importer.nodeError(
        node, llvm::formatv("{0} must hold {1} elements of {2}, not {3} of {4}",
                            what, count, element, attr.getNumElements(),
                            attr.getElementType()));
  return attr;
}

/// The bytes of a constant of whole-byte elements: its raw data in place,
/// or a splat's one element repeated into `storage`.
ArrayRef<uint8_t> bytesOf(DenseElementsAttr attr,
                          SmallVectorImpl<uint8_t> &storage) {
  ArrayRef<char> raw = attr.getRawData();
  if (attr.isSplat()) {
    int64_t count = attr.getNumElements();
    if (raw.size() == 1) { // u8 (B, zero points): one fill
      storage.assign(count, uint8_t(raw[0]));
      return storage;
    }
    storage.clear();
    storage.reserve(count * raw.size());
    for (int64_t i = 0; i < count; ++i)
      storage.append(raw.begin(), raw.end());
    return storage;
  }
  return ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(raw.data()),
                           raw.size());
}

/// Element `index` of a row of values packed `bits` wide, low bits first.
uint8_t unpack(ArrayRef<uint8_t> row, int64_t index, int64_t bits) {
  int64_t perByte = 8 / bits;
  return (row[index / perByte] >> ((index % perByte) * bits)) &
         ((1u << bits) - 1);
}

/// out[b E + e] = (in[b] >> (e bits)) & (2^bits - 1) for the `bytes`
/// bytes of `in`, E = 8 / bits elements per byte, low bits first.
void unpackRow(const uint8_t *in, int64_t bytes, int64_t bits,
               uint8_t *out) {
  if (bits == 8)
    std::copy(in, in + bytes, out);
  else
    unpackSubByteElements(in, bytes * (8 / bits), bits, /*isSigned=*/false,
                          out);
}

/// q[k, n] = element k % B of blob (n, k / B), for n in [nBegin, nEnd)
/// and k in [kBegin, kEnd) (kBegin a multiple of 8 / bits), written into
/// `q` (K x N bytes). Row n of B holds its elements in k order (blob kb: k
/// in [kb B, kb B + B)), element k in byte k / E (E = 8 / bits per byte).
/// Transposed in tiles of 256 x 256 elements: 256 rows of B, 256 / E
/// adjacent bytes of each, unpacked into unpacked[j][i] = q[k0 + i, n0 + j]
/// (its rows a cache line longer than 256 bytes, so that the reads down a
/// column fall in different cache sets), then written as runs of q's rows.
void unpackTransposedTiles(ArrayRef<uint8_t> blobs, const NBitsShape &s,
                           char *q, int64_t nBegin, int64_t nEnd,
                           int64_t kBegin, int64_t kEnd) {
  constexpr int64_t kTile = 256, kPitch = kTile + 64;
  int64_t perByte = 8 / s.bits;
  int64_t rowBytes = s.kBlocks * s.blobSize;
  std::vector<uint8_t> unpacked(kTile * kPitch);
  for (int64_t n0 = nBegin; n0 < nEnd; n0 += kTile) {
    int64_t width = std::min(kTile, nEnd - n0);
    for (int64_t k0 = kBegin; k0 < kEnd; k0 += kTile) {
      int64_t height = std::min(kTile, kEnd - k0);
      int64_t bytes = llvm::divideCeil(height, perByte);
      for (int64_t j = 0; j < width; ++j) {
        const uint8_t *in = blobs.data() + (n0 + j) * rowBytes + k0 / perByte;
        uint8_t *out = unpacked.data() + j * kPitch;
        unpackRow(in, bytes, s.bits, out);
      }
      for (int64_t i = 0; i < height; ++i) {
        char *out = q + (k0 + i) * s.n + n0;
        for (int64_t j = 0; j < width; ++j)
          out[j] = char(unpacked[j * kPitch + i]);
      }
    }
  }
}

#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define QUANTOPS_BYTE_VECTORS 1

/// Sixteen bytes in one vector register (SSE2 / NEON width).
using Bytes16 = uint8_t __attribute__((vector_size(16)));

Bytes16 interleaveLow(Bytes16 a, Bytes16 b) {
  return __builtin_shufflevector(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5,
                                 21, 6, 22, 7, 23);
}

Bytes16 interleaveHigh(Bytes16 a, Bytes16 b) {
  return __builtin_shufflevector(a, b, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28,
                                 13, 29, 14, 30, 15, 31);
}

/// rows[r][c] -> rows[c][r] for a 16 x 16 byte matrix. One round
/// interleaves rows i and i + 8 into rows 2i and 2i + 1; with the row and
/// column indices as bits (r3 r2 r1 r0 c3 c2 c1 c0), element (r, c) moves to
/// (r2 r1 r0 c3, c2 c1 c0 r3): the eight bits rotate left by one, and
/// four rounds swap r and c (64 unpacks, PUNPCKLBW / PUNPCKHBW on x86).
/// Unrolled whole, so that the rows stay in registers.
void transpose16(Bytes16 (&rows)[16]) {
#pragma GCC unroll 4
  for (int round = 0; round < 4; ++round) {
    Bytes16 next[16];
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) {
      next[2 * i] = interleaveLow(rows[i], rows[i + 8]);
      next[2 * i + 1] = interleaveHigh(rows[i], rows[i + 8]);
    }
#pragma GCC unroll 16
    for (int i = 0; i < 16; ++i)
      rows[i] = next[i];
  }
}

/// unpackTransposedTiles for bits 4 and 8 over n in [0, 16 floor(N / 16))
/// and k in [0, kEnd), kEnd a multiple of 16 E, in blocks of 16 rows n and
/// 16 E elements k: each row's 16 bytes split into its low and high
/// nibbles (4-bit: elements 2t and 2t + 1 of byte t, interleaved back into
/// k order), then transposed in registers (transpose16) and stored as 16
/// bytes of each q row k. n blocks go four at a time, so that the stores
/// fill whole 64-byte lines of q.
void unpackTransposedBlocks(ArrayRef<uint8_t> blobs, const NBitsShape &s,
                            char *q, int64_t nEnd, int64_t kEnd) {
  int64_t perByte = 8 / s.bits, kStep = 16 * perByte;
  int64_t rowBytes = s.kBlocks * s.blobSize;
  const Bytes16 low = {0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F,
                       0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F, 0x0F};
  for (int64_t nPanel = 0; nPanel < nEnd; nPanel += 64) {
    int64_t panelEnd = std::min(nPanel + 64, nEnd);
    for (int64_t k0 = 0; k0 < kEnd; k0 += kStep) {
      for (int64_t n0 = nPanel; n0 < panelEnd; n0 += 16) {
        Bytes16 first[16], second[16];
        for (int j = 0; j < 16; ++j) {
          Bytes16 bytes;
          std::memcpy(&bytes, blobs.data() + (n0 + j) * rowBytes + k0 / perByte,
                      16);
          if (perByte == 1) {
            first[j] = bytes;
            continue;
          }
          Bytes16 even = bytes & low, odd = bytes >> 4;
          first[j] = interleaveLow(even, odd);
          second[j] = interleaveHigh(even, odd);
        }
        transpose16(first);
        for (int i = 0; i < 16; ++i)
          std::memcpy(q + (k0 + i) * s.n + n0, &first[i], 16);
        if (perByte == 1)
          continue;
        transpose16(second);
        for (int i = 0; i < 16; ++i)
          std::memcpy(q + (k0 + 16 + i) * s.n + n0, &second[i], 16);
      }
    }
  }
}
#endif

/// q[k, n] = element k % B of blob (n, k / B) for k < K, n < N: every byte
/// of `q` (K x N) written. 4- and 8-bit weights in register-transposed
/// blocks (unpackTransposedBlocks) where the compiler has byte vectors, the
/// rest (2-bit, the edges) in tiles (unpackTransposedTiles); the measured
/// costs are in docs/Performance.md ("Sub-byte weights without copies").
void unpackTransposed(ArrayRef<uint8_t> blobs, const NBitsShape &s,
                      char *q) {
  int64_t nBlocked = 0, kBlocked = 0;
#ifdef QUANTOPS_BYTE_VECTORS
  if (s.bits == 4 || s.bits == 8) {
    int64_t kStep = 16 * (8 / s.bits);
    nBlocked = s.n / 16 * 16;
    kBlocked = s.k / kStep * kStep;
    unpackTransposedBlocks(blobs, s, q, nBlocked, kBlocked);
  }
#endif
  // The k edge of the blocked rows, then every k of the remaining rows.
  unpackTransposedTiles(blobs, s, q, 0, nBlocked, kBlocked, s.k);
  unpackTransposedTiles(blobs, s, q, nBlocked, s.n, 0, s.k);
}

/// The bytes of input `index` (B, scales, zero_points), `count` elements
/// of `element`: where the parse left them when no constant was made of
/// the initializer (its only uses are as these inputs of MatMulNBits:
/// GraphImporter::getUnmaterializedInitializer; `tensor` keeps the decoded
/// tensor), else the constant's (bytesOf, `splat` its storage).
llvm::Expected<ArrayRef<uint8_t>>
initializerBytes(GraphImporter &importer, const Node &node, int index,
                 llvm::StringRef what, Type element, int64_t count,
                 SmallVectorImpl<uint8_t> &splat,
                 std::optional<OnnxTensor> &tensor) {
  MLIRContext *ctx = importer.getContext();
  const auto *proto = importer.getUnmaterializedInitializer(node, index);
  if (!proto) {
    auto attr = constantInput(importer, node, index, what, element, count);
    if (!attr)
      return attr.takeError();
    return bytesOf(*attr, splat);
  }
  llvm::Expected<OnnxTensor> decoded =
      importer.decodeInitializer(*proto, "initializer '" + proto->name() + "'");
  if (!decoded)
    return decoded.takeError();
  Type type = getOnnxElementType(ctx, decoded->dataType);
  if (type != element || decoded->numElements() != count) {
    std::string name = getOnnxDataTypeName(decoded->dataType);
    if (type) {
      name.clear();
      llvm::raw_string_ostream(name) << type;
    }
    return importer.nodeError(
        node,
        llvm::formatv("{0} must hold {1} elements of {2}, not {3} of {4}", what,
                      count, element, decoded->numElements(), name));
  }
  tensor = std::move(*decoded);
  return tensor->getBytes();
}

/// q [K, N], scale [k_blocks, N], zp [k_blocks, N] as constants.
struct NBitsWeights {
  Value q, scale, zeroPoint;
};

/// A constant of `type` whose `size` bytes (its attribute's buffer: one
/// element per byte for sub-byte types) `fill` writes. From
/// kViewedConstantBytes on, a dense_resource that owns the buffer `fill`
/// wrote (ownConstantBytes): a DenseElementsAttr would copy the bytes into
/// the context once more and hash them (45 MB of fresh pages for the
/// unpacked q of a 4096 x 11008 4-bit layer). Below, a dense attribute, as
/// the lit tests print it.
Value createFilledConstant(OpBuilder &b, Location loc, RankedTensorType type,
                           size_t size, llvm::function_ref<void(char *)> fill) {
  if (static_cast<int64_t>(size) >= kViewedConstantBytes) {
    AsmResourceBlob blob =
        HeapAsmResourceBlob::allocate(size, alignof(std::max_align_t));
    fill(blob.getMutableData().data());
    return arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(ownConstantBytes(type, std::move(blob))));
  }
  std::vector<char> bytes(size);
  fill(bytes.data());
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::getFromRawBuffer(type, bytes));
}

llvm::Expected<NBitsWeights> importWeights(GraphImporter &importer,
                                           const Node &node,
                                           const NBitsShape &s) {
  OpBuilder &b = importer.getBuilder();
  Location loc = importer.getLoc(node);
  MLIRContext *ctx = importer.getContext();
  Type u8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  Type qType = IntegerType::get(ctx, s.bits, IntegerType::Unsigned);
  SmallVector<uint8_t> splat, scaleSplat, zpSplat;
  std::optional<OnnxTensor> blob, scaleTensor, zpTensor;
  llvm::Expected<ArrayRef<uint8_t>> bytes = initializerBytes(
      importer, node, 1, "B", u8, s.n * s.kBlocks * s.blobSize, splat, blob);
  if (!bytes)
    return bytes.takeError();
  llvm::Expected<ArrayRef<uint8_t>> scales =
      initializerBytes(importer, node, 2, "scales", b.getF32Type(),
                       s.n * s.kBlocks, scaleSplat, scaleTensor);
  if (!scales)
    return scales.takeError();
  // Zero points: packed along kb per row, or 2^(bits - 1).
  int64_t zpRowBytes = llvm::divideCeil(s.kBlocks * s.bits, 8);
  std::optional<ArrayRef<uint8_t>> zpBytes;
  if (node.input_size() > 3 && !node.input(3).empty()) {
    Type zpElement;
    if (const auto *proto = importer.getUnmaterializedInitializer(node, 3)) {
      zpElement = getOnnxElementType(ctx, proto->data_type());
    } else {
      llvm::Expected<Value> zpInput = importer.getInput(node, 3);
      if (!zpInput)
        return zpInput.takeError();
      if (*zpInput)
        zpElement = getElementTypeOrSelf(zpInput->getType());
    }
    if (zpElement && zpElement != u8)
      return importer.nodeError(
          node, "zero_points of A's type (not packed uint8) are not supported");
    llvm::Expected<ArrayRef<uint8_t>> zps =
        initializerBytes(importer, node, 3, "zero_points", u8, s.n * zpRowBytes,
                         zpSplat, zpTensor);
    if (!zps)
      return zps.takeError();
    zpBytes = *zps;
  }

  NBitsWeights weights;
  // Unpacked: one element per byte (the attribute's storage of ui2 / ui4),
  // q[k, n] = unpack(blob(n, k / B), k % B), transposed in tiles
  // (unpackTransposed), which writes every byte.
  weights.q = createFilledConstant(
      b, loc, RankedTensorType::get({s.k, s.n}, qType), s.k * s.n,
      [&](char *q) { unpackTransposed(*bytes, s, q); });
  // scale[kb, n] = scales[n, kb].
  weights.scale = createFilledConstant(
      b, loc, RankedTensorType::get({s.kBlocks, s.n}, b.getF32Type()),
      s.kBlocks * s.n * sizeof(float), [&](char *out) {
        const char *in = reinterpret_cast<const char *>(scales->data());
        for (int64_t n = 0; n < s.n; ++n)
          for (int64_t kb = 0; kb < s.kBlocks; ++kb)
            std::memcpy(out + (kb * s.n + n) * sizeof(float),
                        in + (n * s.kBlocks + kb) * sizeof(float),
                        sizeof(float));
      });
  // zp[kb, n] = element kb of row n of zero_points.
  weights.zeroPoint = createFilledConstant(
      b, loc, RankedTensorType::get({s.kBlocks, s.n}, qType), s.kBlocks * s.n,
      [&](char *zp) {
        if (!zpBytes) {
          std::memset(zp, 1 << (s.bits - 1), s.kBlocks * s.n);
          return;
        }
        for (int64_t n = 0; n < s.n; ++n)
          for (int64_t kb = 0; kb < s.kBlocks; ++kb)
            zp[kb * s.n + n] = char(
                unpack(zpBytes->slice(n * zpRowBytes, zpRowBytes), kb, s.bits));
      });
  return weights;
}

llvm::Error importMatMulNBits(GraphImporter &importer, const Node &node) {
  if (llvm::Error error = importer.checkAttributes(
          node, {"K", "N", "bits", "block_size", "accuracy_level"}, 1))
    return error;
  if (node.input_size() > 6)
    return importer.nodeError(
        node, llvm::formatv("expects at most 6 inputs, got {0}",
                            node.input_size()));
  llvm::Expected<NBitsShape> shape = readShape(importer, node);
  if (!shape)
    return shape.takeError();
  llvm::Expected<Value> a = importer.getRequiredInput(node, 0);
  if (!a)
    return a.takeError();
  auto aType = cast<RankedTensorType>(a->getType());
  if (!aType.getElementType().isF32())
    return importer.nodeError(node, "only an f32 A is supported");
  if (aType.getRank() < 1 || (!aType.isDynamicDim(aType.getRank() - 1) &&
                              aType.getDimSize(aType.getRank() - 1) !=
                                  shape->k))
    return importer.nodeError(
        node, llvm::formatv("A's last dimension must be K = {0}", shape->k));
  llvm::Expected<Value> gIdx = importer.getInput(node, 4);
  if (!gIdx)
    return gIdx.takeError();
  if (*gIdx)
    return importer.nodeError(node, "g_idx is not supported");
  llvm::Expected<NBitsWeights> weights = importWeights(importer, node, *shape);
  if (!weights)
    return weights.takeError();
  OpBuilder &b = importer.getBuilder();
  Location loc = importer.getLoc(node);
  auto w = DequantizeLinearOp::create(
      b, loc, RankedTensorType::get({shape->k, shape->n}, b.getF32Type()),
      weights->q, weights->scale, weights->zeroPoint,
      b.getI64IntegerAttr(0), b.getI64IntegerAttr(shape->blockSize),
      TypeAttr());
  if (llvm::Error error = importer.verifyNodeOp(node, w))
    return error;
  llvm::Expected<Value> y = emitMatMul(importer, node, *a, w.getY());
  if (!y)
    return y.takeError();
  // The level rides on the matmul, for the float kernel.
  for (Operation *user : w.getY().getUsers())
    if (isa<linalg::MatmulOp>(user))
      user->setAttr(kAccuracyLevelAttrName,
                    b.getI64IntegerAttr(shape->accuracyLevel));
  llvm::Expected<Value> bias = importer.getInput(node, 5);
  if (!bias)
    return bias.takeError();
  Value result = *y;
  if (*bias) {
    auto biasType = cast<RankedTensorType>(bias->getType());
    if (biasType != RankedTensorType::get({shape->n}, b.getF32Type()))
      return importer.nodeError(node, llvm::formatv("bias must be f32 [{0}]",
                                                    shape->n));
    llvm::Expected<Value> sum = emitBroadcastElementwise(
        importer, node, ValueRange{*y, *bias}, b.getF32Type(),
        [](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::AddFOp::create(b, l, args[0], args[1]);
        });
    if (!sum)
      return sum.takeError();
    result = *sum;
  }
  importer.setOutput(node, 0, result);
  return llvm::Error::success();
}

} // namespace

const NodeImporter *onnx::lookupContribOpImporter(llvm::StringRef domain,
                                                  llvm::StringRef opType) {
  static const NodeImporter matmulNBits = importMatMulNBits;
  if (domain == "com.microsoft" && opType == "MatMulNBits")
    return &matmulNBits;
  return nullptr;
}
