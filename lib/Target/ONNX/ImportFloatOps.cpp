//===- ImportFloatOps.cpp - the float glue of QDQ models ------------------===//
//
// The ai.onnx ops that QDQ models put between DequantizeLinear and
// QuantizeLinear, so that such models import whole. They become upstream ops
// that --qops-fuse-qdq recognizes:
//
//   MatMul     numpy matmul on f32/f64: Y[..., m, n] = sum_k A[..., m, k] *
//              B[..., k, n], accumulated in the element type in increasing k
//              (docs/Numerics.md, "Float MatMul"):
//                A 2-D, B 2-D    linalg.matmul
//                A N-D, B 2-D    collapse A's leading dims into the rows,
//                                linalg.matmul, expand back
//                A, B N-D        equal batch dims: collapse them,
//                                linalg.batch_matmul, expand back
//              1-D operands are promoted (A: 1xK, B: Kx1) and the unit dim
//              removed again; broadcast batch dims are rejected. A dynamic
//              K is checked when the function runs (cf.assert).
//   Gemm       Y = alpha * A' B' + beta * C, A' = transA ? A^T : A (likewise
//              B'); A, B 2-D; C broadcasts to [M, N] (unidirectionally).
//              linalg.transpose, linalg.matmul, then one elementwise
//              linalg.generic for alpha/beta/C. beta = 0 does not read C
//              (as BLAS, onnxruntime and ONNX's reference do), but C must
//              still have the right type and shape.
//   Transpose  linalg.transpose (perm defaults to reversed dims); any type.
//              A scalar is passed through.
//   Reshape    tensor.reshape to a static shape: the shape input must be a
//              constant, 0 copies the input dim (unless allowzero = 1, opset
//              14+), one -1 is inferred; the input must be static.
//   Add        numpy broadcasting addition (float or integer of >= 8 bits).
//
//===----------------------------------------------------------------------===//

#include "GraphImporter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FormatVariadic.h"

#include <numeric>

using namespace mlir;
using namespace mlir::qops;
using namespace mlir::qops::onnx;
namespace pb = ::quantops::onnx;

namespace {

using Node = GraphImporter::Node;

RankedTensorType tensorTypeOf(Value value) {
  return cast<RankedTensorType>(value.getType());
}

bool isMatMulElementType(Type type) {
  return type.isF32() || type.isF64() || type.isF16() || type.isBF16();
}

/// Groups dims [0, rank) as {0..split-1} and then one group per remaining
/// dim: collapses (or expands) the leading `split` dims.
SmallVector<ReassociationIndices> leadingGroup(int64_t rank, int64_t split) {
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices leading;
  for (int64_t d = 0; d < split; ++d)
    leading.push_back(d);
  groups.push_back(leading);
  for (int64_t d = split; d < rank; ++d)
    groups.push_back({d});
  return groups;
}

Value expandTo(OpBuilder &b, Location loc, Value value,
               ArrayRef<OpFoldResult> sizes,
               ArrayRef<ReassociationIndices> groups) {
  SmallVector<int64_t> staticShape;
  SmallVector<Value> dynamic;
  dispatchIndexOpFoldResults(sizes, dynamic, staticShape);
  auto type = RankedTensorType::get(staticShape,
                                    tensorTypeOf(value).getElementType());
  return tensor::ExpandShapeOp::create(b, loc, type, value, groups, sizes);
}

//===----------------------------------------------------------------------===//
// MatMul
//===----------------------------------------------------------------------===//

/// C[m, n] = sum_k A[m, k] * B[k, n] (2-D) or the same per batch (3-D).
/// f16 / bf16 operands are summed in f32 (the matmul extends them), then
/// rounded once to their type.
Value emitContraction(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  SmallVector<OpFoldResult> lhsSizes = tensor::getMixedSizes(b, loc, lhs);
  SmallVector<OpFoldResult> rhsSizes = tensor::getMixedSizes(b, loc, rhs);
  SmallVector<OpFoldResult> resultSizes(lhsSizes.begin(),
                                        std::prev(lhsSizes.end()));
  resultSizes.push_back(rhsSizes.back());
  Type elementType = tensorTypeOf(lhs).getElementType();
  Type sumType = elementType.isF16() || elementType.isBF16()
                     ? Type(b.getF32Type())
                     : elementType;
  Value init = createZeroInit(b, loc, resultSizes, sumType);
  Value sums =
      tensorTypeOf(lhs).getRank() == 2
          ? linalg::MatmulOp::create(b, loc, TypeRange{init.getType()},
                                     ValueRange{lhs, rhs}, ValueRange{init})
                .getResult(0)
          : linalg::BatchMatmulOp::create(b, loc, TypeRange{init.getType()},
                                          ValueRange{lhs, rhs},
                                          ValueRange{init})
                .getResult(0);
  if (sumType == elementType)
    return sums;
  Value empty = tensor::EmptyOp::create(b, loc, resultSizes, elementType);
  int64_t rank = tensorTypeOf(sums).getRank();
  auto identity = b.getMultiDimIdentityMap(rank);
  return linalg::GenericOp::create(
             b, loc, TypeRange{empty.getType()}, ValueRange{sums},
             ValueRange{empty}, ArrayRef<AffineMap>{identity, identity},
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &b, Location l, ValueRange args) {
               linalg::YieldOp::create(
                   b, l, arith::TruncFOp::create(b, l, elementType, args[0])
                             .getResult());
             })
      .getResult(0);
}

} // namespace

llvm::Expected<Value> onnx::emitMatMul(GraphImporter &importer,
                                       const Node &node, Value a,
                                       Value bMatrix) {
  OpBuilder &b = importer.getBuilder();
  Location loc = importer.getLoc(node);
  RankedTensorType aType = tensorTypeOf(a), bType = tensorTypeOf(bMatrix);
  if (aType.getElementType() != bType.getElementType())
    return importer.nodeError(node, "A and B have different element types");
  if (!isMatMulElementType(aType.getElementType()))
    return importer.nodeError(
        node, "only f32, f64, f16 and bf16 float MatMul is supported (quantized "
              "matmuls are QLinearMatMul or DequantizeLinear -> MatMul -> "
              "QuantizeLinear)");
  if (aType.getRank() == 0 || bType.getRank() == 0)
    return importer.nodeError(node, "MatMul of a scalar is not defined");

  // 1-D operands: A [K] -> [1, K], B [K] -> [K, 1]; the unit dim goes again.
  bool aVector = aType.getRank() == 1, bVector = bType.getRank() == 1;
  if (aVector)
    a = expandTo(b, loc, a,
                 {b.getIndexAttr(1), tensor::getMixedSize(b, loc, a, 0)},
                 {{0, 1}});
  if (bVector)
    bMatrix = expandTo(
        b, loc, bMatrix,
        {tensor::getMixedSize(b, loc, bMatrix, 0), b.getIndexAttr(1)},
        {{0, 1}});
  aType = tensorTypeOf(a);
  bType = tensorTypeOf(bMatrix);
  int64_t aRank = aType.getRank(), bRank = bType.getRank();

  int64_t kA = aType.getDimSize(aRank - 1), kB = bType.getDimSize(bRank - 2);
  if (!ShapedType::isDynamic(kA) && !ShapedType::isDynamic(kB) && kA != kB)
    return importer.nodeError(
        node, llvm::formatv("inner dimensions differ: A has {0}, B has {1}",
                            kA, kB));

  SmallVector<OpFoldResult> aSizes = tensor::getMixedSizes(b, loc, a);
  SmallVector<OpFoldResult> bSizes = tensor::getMixedSizes(b, loc, bMatrix);
  // A dynamic K is checked when the function runs (the contraction would
  // otherwise read out of bounds).
  if (ShapedType::isDynamic(kA) || ShapedType::isDynamic(kB)) {
    Value kAValue =
        getValueOrCreateConstantIndexOp(b, loc, aSizes[aRank - 1]);
    Value kBValue =
        getValueOrCreateConstantIndexOp(b, loc, bSizes[bRank - 2]);
    Value equal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        kAValue, kBValue);
    cf::AssertOp::create(b, loc, equal,
                         "node '" + node.name() + "' (" + node.op_type() +
                             "): the inner dimensions of A and B differ at "
                             "run time");
  }
  Value result;
  SmallVector<OpFoldResult> resultSizes;
  if (bRank == 2) {
    // Rows of every batch at once: [..., M, K] -> [prod(...) * M, K].
    Value rows = aRank == 2 ? a
                            : tensor::CollapseShapeOp::create(
                                  b, loc, a, leadingGroup(aRank, aRank - 1))
                                  .getResult();
    result = emitContraction(b, loc, rows, bMatrix);
    resultSizes.assign(aSizes.begin(), std::prev(aSizes.end()));
    resultSizes.push_back(bSizes.back());
    if (aRank > 2)
      result = expandTo(b, loc, result, resultSizes,
                        leadingGroup(aRank, aRank - 1) /*inverse grouping*/);
  } else {
    if (aRank != bRank ||
        aType.getShape().drop_back(2) != bType.getShape().drop_back(2) ||
        llvm::any_of(aType.getShape().drop_back(2), ShapedType::isDynamic))
      return importer.nodeError(
          node, "MatMul with batch dimensions that differ, broadcast or are "
                "dynamic is not supported (A " +
                    llvm::formatv("{0:$[x]}", llvm::make_range(
                                                   aType.getShape().begin(),
                                                   aType.getShape().end()))
                        .str() +
                    ", B " +
                    llvm::formatv("{0:$[x]}", llvm::make_range(
                                                   bType.getShape().begin(),
                                                   bType.getShape().end()))
                        .str() +
                    ")");
    int64_t batchRank = aRank - 2;
    auto collapseBatch = [&](Value value) -> Value {
      if (batchRank == 1)
        return value;
      return tensor::CollapseShapeOp::create(
          b, loc, value, leadingGroup(aRank, batchRank));
    };
    result = emitContraction(b, loc, collapseBatch(a), collapseBatch(bMatrix));
    resultSizes.assign(aSizes.begin(), std::prev(aSizes.end()));
    resultSizes.push_back(bSizes.back());
    if (batchRank != 1)
      result = expandTo(b, loc, result, resultSizes,
                        leadingGroup(aRank, batchRank));
  }

  // Drop the unit dims of promoted vectors: each kept dim gets a group, a
  // dropped dim joins the group before it (or the first one).
  if (aVector || bVector) {
    int64_t rank = tensorTypeOf(result).getRank();
    SmallVector<ReassociationIndices> groups;
    ReassociationIndices pending;
    for (int64_t d = 0; d < rank; ++d) {
      bool dropped = (aVector && d == rank - 2) || (bVector && d == rank - 1);
      if (dropped && groups.empty()) {
        pending.push_back(d);
      } else if (dropped) {
        groups.back().push_back(d);
      } else {
        pending.push_back(d);
        groups.push_back(pending);
        pending.clear();
      }
    }
    // vector . vector: every dim is dropped, the result is rank 0.
    result = tensor::CollapseShapeOp::create(b, loc, result, groups);
  }
  return result;
}

namespace {

/// The two inputs of an attribute-less binary op (MatMul, Add).
llvm::Expected<std::pair<Value, Value>>
getBinaryOpInputs(GraphImporter &importer, const Node &node) {
  if (llvm::Error error = importer.checkAttributes(node, {}))
    return std::move(error);
  if (node.input_size() != 2)
    return importer.nodeError(
        node, llvm::formatv("expects 2 inputs, got {0}", node.input_size()));
  auto lhs = importer.getRequiredInput(node, 0);
  if (!lhs)
    return lhs.takeError();
  auto rhs = importer.getRequiredInput(node, 1);
  if (!rhs)
    return rhs.takeError();
  return std::make_pair(*lhs, *rhs);
}

llvm::Error importMatMul(GraphImporter &importer, const Node &node) {
  auto inputs = getBinaryOpInputs(importer, node);
  if (!inputs)
    return inputs.takeError();
  auto result = emitMatMul(importer, node, inputs->first, inputs->second);
  if (!result)
    return result.takeError();
  importer.setOutput(node, 0, *result);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Gemm
//===----------------------------------------------------------------------===//

llvm::Expected<float> getFloatAttribute(GraphImporter &importer,
                                        const Node &node, StringRef name,
                                        float defaultValue) {
  const pb::AttributeProto *attr = importer.findAttribute(node, name);
  if (!attr)
    return defaultValue;
  // AttributeProto.type: FLOAT = 1. Older writers leave type unset.
  if ((attr->has_type() && attr->type() != 1) ||
      (!attr->has_type() && !attr->has_f()))
    return importer.nodeError(node, "attribute '" + name + "' must be a float");
  return attr->f();
}

/// "[2, ?, 3]".
std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text = "[";
  for (auto [i, dim] : llvm::enumerate(shape)) {
    if (i)
      text += ", ";
    text += ShapedType::isDynamic(dim) ? std::string("?") : std::to_string(dim);
  }
  return text + "]";
}

/// Whether C broadcasts unidirectionally to the product's [M, N], with the
/// result keeping [M, N]: each of C's dims (aligned right) is a static 1 or
/// equals the product's. A dynamic dim on either side is taken to match
/// (emitBroadcastElementwise checks it when the function runs), except a
/// dynamic C dim against a static 1, which could only broadcast the product.
bool broadcastsTo(ArrayRef<int64_t> cShape, ArrayRef<int64_t> shape) {
  if (cShape.size() > shape.size())
    return false;
  int64_t offset = shape.size() - cShape.size();
  for (auto [i, cDim] : llvm::enumerate(cShape)) {
    int64_t dim = shape[i + offset];
    if (cDim == 1 || cDim == dim)
      continue;
    if (ShapedType::isDynamic(dim))
      continue;
    if (ShapedType::isDynamic(cDim) && dim != 1)
      continue;
    return false;
  }
  return true;
}

Value emitTranspose2D(OpBuilder &b, Location loc, Value value) {
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, value);
  Value init = tensor::EmptyOp::create(
      b, loc, SmallVector<OpFoldResult>{sizes[1], sizes[0]},
      tensorTypeOf(value).getElementType());
  return linalg::TransposeOp::create(b, loc, value, init,
                                     ArrayRef<int64_t>{1, 0})
      .getResult()[0];
}

llvm::Error importGemm(GraphImporter &importer, const Node &node) {
  int64_t opset = importer.getOpsetVersion(node);
  if (llvm::Error error = importer.checkAttributes(
          node, {"alpha", "beta", "transA", "transB"}))
    return error;
  if (node.input_size() < 2 || node.input_size() > 3)
    return importer.nodeError(
        node, llvm::formatv("expects 2 or 3 inputs, got {0}", node.input_size()));
  auto a = importer.getRequiredInput(node, 0);
  if (!a)
    return a.takeError();
  auto bMatrix = importer.getRequiredInput(node, 1);
  if (!bMatrix)
    return bMatrix.takeError();
  auto c = importer.getInput(node, 2);
  if (!c)
    return c.takeError();
  if (!*c && opset < 11)
    return importer.nodeError(node, "input C is required before opset 11");
  if (tensorTypeOf(*a).getRank() != 2 || tensorTypeOf(*bMatrix).getRank() != 2)
    return importer.nodeError(node, "A and B must be 2-D");
  auto alpha = getFloatAttribute(importer, node, "alpha", 1.0f);
  if (!alpha)
    return alpha.takeError();
  auto beta = getFloatAttribute(importer, node, "beta", 1.0f);
  if (!beta)
    return beta.takeError();
  auto transA = importer.getIntAttribute(node, "transA");
  if (!transA)
    return transA.takeError();
  auto transB = importer.getIntAttribute(node, "transB");
  if (!transB)
    return transB.takeError();

  OpBuilder &b = importer.getBuilder();
  Location loc = importer.getLoc(node);
  Value lhs = transA->value_or(0) ? emitTranspose2D(b, loc, *a) : *a;
  Value rhs = transB->value_or(0) ? emitTranspose2D(b, loc, *bMatrix)
                                  : *bMatrix;
  auto product = emitMatMul(importer, node, lhs, rhs);
  if (!product)
    return product.takeError();
  RankedTensorType productType = tensorTypeOf(*product);
  Type elementType = productType.getElementType();
  if (*c) {
    RankedTensorType cType = tensorTypeOf(*c);
    if (cType.getElementType() != elementType)
      return importer.nodeError(node,
                                "C has another element type than A and B");
    if (!broadcastsTo(cType.getShape(), productType.getShape()))
      return importer.nodeError(
          node, "C of shape " + formatShape(cType.getShape()) +
                    " does not broadcast to [M, N] = " +
                    formatShape(productType.getShape()));
  }
  // beta = 0 ignores C, as BLAS, onnxruntime and ONNX's reference do.
  if (*alpha == 1.0f && (!*c || *beta == 0.0f)) {
    importer.setOutput(node, 0, *product);
    return llvm::Error::success();
  }

  // Y = alpha * AB + beta * C, rounded after each operation.
  auto scaled = [&](OpBuilder &nb, Location nl, Value v, float factor) {
    if (factor == 1.0f)
      return v;
    Value f = arith::ConstantOp::create(
        nb, nl, nb.getFloatAttr(elementType, factor));
    return arith::MulFOp::create(nb, nl, f, v).getResult();
  };
  SmallVector<Value> operands{*product};
  bool addC = *c && *beta != 0.0f;
  if (addC)
    operands.push_back(*c);
  auto result = emitBroadcastElementwise(
      importer, node, operands, elementType,
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        Value y = scaled(nb, nl, args[0], *alpha);
        if (!addC)
          return y;
        return arith::AddFOp::create(nb, nl, y,
                                     scaled(nb, nl, args[1], *beta));
      });
  if (!result)
    return result.takeError();
  importer.setOutput(node, 0, *result);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Transpose, Reshape, Add
//===----------------------------------------------------------------------===//

llvm::Error importTranspose(GraphImporter &importer, const Node &node) {
  if (llvm::Error error = importer.checkAttributes(node, {"perm"}))
    return error;
  auto data = importer.getRequiredInput(node, 0);
  if (!data)
    return data.takeError();
  RankedTensorType type = tensorTypeOf(*data);
  int64_t rank = type.getRank();
  SmallVector<int64_t> perm;
  if (const pb::AttributeProto *attr = importer.findAttribute(node, "perm"))
    perm.assign(attr->ints().begin(), attr->ints().end());
  else
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  SmallVector<bool> seen(rank, false);
  if ((int64_t)perm.size() != rank)
    return importer.nodeError(node, "perm does not have one entry per dim");
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p])
      return importer.nodeError(node, "perm is not a permutation");
    seen[p] = true;
  }
  // linalg.transpose needs a dim to permute: a scalar is its own transpose.
  if (rank == 0) {
    importer.setOutput(node, 0, *data);
    return llvm::Error::success();
  }
  OpBuilder &b = importer.getBuilder();
  Location loc = importer.getLoc(node);
  Value input = importer.asStorageType(*data, loc);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, input);
  SmallVector<OpFoldResult> resultSizes;
  for (int64_t p : perm)
    resultSizes.push_back(sizes[p]);
  Value init = tensor::EmptyOp::create(b, loc, resultSizes,
                                       tensorTypeOf(input).getElementType());
  Value result =
      linalg::TransposeOp::create(b, loc, input, init, perm).getResult()[0];
  importer.setOutput(node, 0,
                     importer.asOnnxType(result, type.getElementType(), loc));
  return llvm::Error::success();
}

llvm::Error importReshape(GraphImporter &importer, const Node &node) {
  int64_t opset = importer.getOpsetVersion(node);
  if (opset < 5)
    return importer.nodeError(node, "Reshape before opset 5 (shape as an "
                                    "attribute) is not supported");
  if (llvm::Error error = importer.checkAttributes(
          node, opset >= 14 ? ArrayRef<StringRef>{"allowzero"}
                            : ArrayRef<StringRef>{}))
    return error;
  auto data = importer.getRequiredInput(node, 0);
  if (!data)
    return data.takeError();
  auto shapeInput = importer.getRequiredInput(node, 1);
  if (!shapeInput)
    return shapeInput.takeError();
  auto allowZero = importer.getIntAttribute(node, "allowzero");
  if (!allowZero)
    return allowZero.takeError();
  DenseIntElementsAttr shapeAttr;
  if (!matchPattern(*shapeInput, m_Constant(&shapeAttr)))
    return importer.nodeError(node, "the shape must be a constant");
  if (shapeAttr.getType().getRank() != 1)
    return importer.nodeError(node, "the shape must be 1-D");
  RankedTensorType type = tensorTypeOf(*data);
  if (!type.hasStaticShape())
    return importer.nodeError(
        node, "Reshape of a tensor with dynamic dimensions is not supported");

  // 0 copies the input's dim (allowzero = 0), one -1 takes what is left.
  SmallVector<int64_t> shape;
  int64_t inferred = -1, known = 1;
  for (const APInt &dimValue : shapeAttr.getValues<APInt>()) {
    int64_t dim = dimValue.getSExtValue();
    int64_t index = shape.size();
    if (dim == 0 && allowZero->value_or(0) == 0) {
      if (index >= type.getRank())
        return importer.nodeError(node, "a 0 in the shape has no input dim");
      dim = type.getDimSize(index);
    } else if (dim == -1) {
      if (inferred >= 0)
        return importer.nodeError(node, "the shape has more than one -1");
      inferred = index;
      shape.push_back(1);
      continue;
    } else if (dim < 0) {
      return importer.nodeError(node, "the shape has a negative dim");
    }
    if (dim != 0 && known > std::numeric_limits<int64_t>::max() / dim)
      return importer.nodeError(node, "the shape is too large");
    known *= dim;
    shape.push_back(dim);
  }
  int64_t elements = type.getNumElements();
  if (inferred >= 0) {
    if (known == 0 || elements % known != 0)
      return importer.nodeError(node, "the -1 dim cannot be inferred");
    shape[inferred] = elements / known;
  } else if (known != elements) {
    return importer.nodeError(
        node, llvm::formatv("the shape has {0} elements, the input {1}",
                            known, elements));
  }

  OpBuilder &b = importer.getBuilder();
  Location loc = importer.getLoc(node);
  Value input = importer.asStorageType(*data, loc);
  auto shapeType =
      RankedTensorType::get({(int64_t)shape.size()}, b.getI64Type());
  Value shapeValue = arith::ConstantOp::create(
      b, loc, DenseIntElementsAttr::get(shapeType, shape));
  auto resultType =
      RankedTensorType::get(shape, tensorTypeOf(input).getElementType());
  Value result =
      tensor::ReshapeOp::create(b, loc, resultType, input, shapeValue);
  importer.setOutput(node, 0,
                     importer.asOnnxType(result, type.getElementType(), loc));
  return llvm::Error::success();
}

llvm::Error importAdd(GraphImporter &importer, const Node &node) {
  auto inputs = getBinaryOpInputs(importer, node);
  if (!inputs)
    return inputs.takeError();
  Value lhs = inputs->first, rhs = inputs->second;
  Type elementType = tensorTypeOf(lhs).getElementType();
  if (tensorTypeOf(rhs).getElementType() != elementType)
    return importer.nodeError(node, "inputs have different element types");
  bool isFloat = isa<FloatType>(elementType);
  if (!(isFloat ? (elementType.isF32() || elementType.isF64() ||
                   elementType.isF16() || elementType.isBF16())
                : isa<IntegerType>(elementType) &&
                      elementType.getIntOrFloatBitWidth() >= 8))
    return importer.nodeError(node, "element type is not supported");
  auto result = emitBroadcastElementwise(
      importer, node, {lhs, rhs}, elementType,
      [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
        if (isFloat)
          return arith::AddFOp::create(b, loc, args[0], args[1]);
        return arith::AddIOp::create(b, loc, args[0], args[1]); // wraps
      });
  if (!result)
    return result.takeError();
  importer.setOutput(node, 0, *result);
  return llvm::Error::success();
}

} // namespace

Value onnx::createZeroInit(OpBuilder &b, Location loc,
                           ArrayRef<OpFoldResult> sizes, Type elementType) {
  Value empty = tensor::EmptyOp::create(b, loc, sizes, elementType);
  Value zero =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(elementType));
  return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
}

const NodeImporter *onnx::lookupFloatOpImporter(llvm::StringRef domain,
                                                llvm::StringRef opType) {
  if (!isDefaultDomain(domain))
    return nullptr;
  static const llvm::StringMap<NodeImporter> importers = [] {
    llvm::StringMap<NodeImporter> map;
    map["MatMul"] = importMatMul;
    map["Gemm"] = importGemm;
    map["Transpose"] = importTranspose;
    map["Reshape"] = importReshape;
    map["Add"] = importAdd;
    return map;
  }();
  auto it = importers.find(opType);
  return it == importers.end() ? nullptr : &it->second;
}
