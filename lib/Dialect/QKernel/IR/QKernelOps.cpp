//===- QKernelOps.cpp - the int8 kernels' internal ops --------------------===//
//
// Registers the qkernel operations; qkernel.matmul's verifier (the
// instruction ops are declarative: types and traits only).
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Dialect/QKernel/IR/QKernelOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsOps.h"
#include "QuantOps/Dialect/QOps/IR/QOpsTypeUtils.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::qkernel;

#include "QuantOps/Dialect/QKernel/IR/QKernelDialect.cpp.inc"
#include "QuantOps/Dialect/QKernel/IR/QKernelEnums.cpp.inc"

void QKernelDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "QuantOps/Dialect/QKernel/IR/QKernelOps.cpp.inc"
      >();
}

/// qkernel.matmul's rules, local to the op, so that whatever verifies can be
/// lowered: the requantization's four parameters come together; a and b
/// have rank >= 1 and si8/ui8 elements (float8 too when requantized,
/// QLinearMatMul-21), each zero point its operand's element type; the sums
/// are i32 (or si32), a requantized y si8/ui8/float8 with f32, f16 or bf16
/// scales of one type; the shapes combine as numpy.matmul's and each
/// parameter is per tensor, per row of a or per column of b (the qops
/// verifiers' predicates, QOpsTypeUtils.h, and
/// qops::isValidMatMulParamShape).
LogicalResult MatMulOp::verify() {
  int present = static_cast<bool>(getAScale()) +
                static_cast<bool>(getBScale()) +
                static_cast<bool>(getYScale()) +
                static_cast<bool>(getYZeroPoint());
  if (present != 0 && present != 4)
    return emitOpError() << "requantize takes a_scale, b_scale, y_scale and "
                            "y_zero_point together, got "
                         << present << " of them";
  bool requantized = present == 4;
  bool dequantized = static_cast<bool>(getDequantScale());
  if (getDequantOffset() && !dequantized)
    return emitOpError() << "a dequantize offset needs a dequantize scale";
  if (requantized && dequantized)
    return emitOpError() << "requantize and dequantize are exclusive";
  using Role = qops::MatMulParamRole;
  struct Operand {
    StringRef name;
    Value data, scale, zeroPoint;
    Role role;
  };
  Operand operands[] = {
      {"a", getA(), getAScale(), getAZeroPoint(), Role::A},
      {"b", getB(), getBScale(), getBZeroPoint(), Role::B},
      {"y", getY(), getYScale(), getYZeroPoint(), Role::Y}};
  for (const Operand &operand : operands) {
    auto type = cast<RankedTensorType>(operand.data.getType());
    Type element = type.getElementType();
    if (operand.role != Role::Y && type.getRank() < 1)
      return emitOpError() << operand.name << " must have rank 1 or more, got "
                           << type;
    if (operand.role == Role::Y && dequantized) {
      if (!element.isF32())
        return emitOpError() << "y with dequantize holds f32, got " << element;
      continue;
    }
    if (operand.role == Role::Y && !requantized) {
      if (!qops::isInt32Type(element))
        return emitOpError()
               << "y without requantize holds the i32 sums, got " << element;
      continue;
    }
    if (!qops::isInt8Type(element) &&
        !(requantized && qops::isFloat8Type(element)))
      return emitOpError() << operand.name << " must be "
                           << (requantized ? "si8, ui8 or float8"
                                           : "si8 or ui8")
                           << ", got " << element;
    if (operand.zeroPoint &&
        cast<RankedTensorType>(operand.zeroPoint.getType())
                .getElementType() != element)
      return emitOpError() << operand.name << "'s zero point must be "
                           << element;
  }
  if (requantized) {
    Type scale = getAScale().getType().getElementType();
    if (!qops::isFullPrecisionFloatType(scale) ||
        getBScale().getType().getElementType() != scale ||
        getYScale().getType().getElementType() != scale)
      return emitOpError()
             << "the scales must be f32, f16 or bf16, all of one type";
  }
  RankedTensorType yType = getY().getType();
  FailureOr<SmallVector<int64_t>> shape = qops::QLinearMatMulOp::inferResultShape(
      getA().getType().getShape(), getB().getType().getShape());
  if (failed(shape) ||
      yType.getRank() != static_cast<int64_t>(shape->size()) ||
      failed(verifyCompatibleShape(yType.getShape(), *shape)))
    return emitOpError() << "a of " << getA().getType() << " and b of "
                         << getB().getType() << " do not give y of " << yType;
  for (const Operand &operand : operands)
    for (Value param : {operand.scale, operand.zeroPoint})
      if (param &&
          !qops::isValidMatMulParamShape(
              cast<RankedTensorType>(param.getType()),
              cast<RankedTensorType>(operand.data.getType()).getShape(),
              operand.role))
        return emitOpError() << "a parameter of " << operand.name << ", "
                             << param.getType()
                             << ", is not per tensor, per row or per column";
  if (Value bias = getBias()) {
    auto biasType = cast<RankedTensorType>(bias.getType());
    if (!requantized || !qops::isInt8Type(getA().getType().getElementType()) ||
        !qops::isInt8Type(getB().getType().getElementType()))
      return emitOpError() << "a bias needs requantize and int8 operands";
    if (!qops::isInt32Type(biasType.getElementType()) ||
        !qops::isValidMatMulParamShape(biasType, yType.getShape(),
                                       Role::Y))
      return emitOpError() << "the bias must be i32, per tensor, per row or "
                              "per column of y, got "
                           << biasType;
  }
  for (Value param : {getDequantScale(), getDequantOffset()}) {
    if (!param)
      continue;
    auto type = cast<RankedTensorType>(param.getType());
    if (!type.getElementType().isF32() ||
        !qops::isValidMatMulParamShape(type, yType.getShape(), Role::Y))
      return emitOpError() << "the dequantize scale and offset must be f32, "
                              "per tensor, per row or per column of y, got "
                           << type;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// PackBOp
//===----------------------------------------------------------------------===//

namespace {

/// A static dim rounded up to a multiple; a dynamic one as it is.
int64_t roundUpDim(int64_t v, int64_t multiple) {
  return ShapedType::isDynamic(v) ? v
                                  : llvm::divideCeil(v, multiple) * multiple;
}

/// Whether a static dim differs from a static expected size.
bool staticMismatch(int64_t dim, int64_t expected) {
  return !ShapedType::isDynamic(dim) && !ShapedType::isDynamic(expected) &&
         dim != expected;
}

/// That a pack op's results have the types inferTypes gives for its
/// operand of `source` type: `packed`, and `second` (the column term, the
/// row sums) where it is not null.
LogicalResult verifyInferredTypes(Operation *op, RankedTensorType source,
                                  Value packedResult, RankedTensorType packed,
                                  Value secondResult, RankedTensorType second,
                                  StringRef secondName) {
  if (packedResult.getType() == packed &&
      (!second || secondResult.getType() == second))
    return success();
  InFlightDiagnostic diag = op->emitOpError()
                            << "the packed " << source << " has type "
                            << packed;
  if (second)
    diag << " and " << secondName << " of " << second;
  return diag;
}

/// The k rows one packed lane holds (pairs 2, quads 4, octets 8).
int64_t kGroupOf(PackLayout layout) {
  switch (layout) {
  case PackLayout::Pairs:
  case PackLayout::BytePairs:
    return 2;
  case PackLayout::Quads:
    return 4;
  case PackLayout::Octets:
    return 8;
  }
  return 1;
}

} // namespace

std::pair<RankedTensorType, RankedTensorType>
PackBOp::inferTypes(RankedTensorType bType, PackLayout layout,
                    int64_t panelColumns, int64_t kStep) {
  auto divide = [](int64_t v, int64_t d) {
    return ShapedType::isDynamic(v) ? v : v / d;
  };
  int64_t batches = bType.getDimSize(0);
  int64_t kPadded = roundUpDim(bType.getDimSize(1), kStep);
  int64_t nPadded = roundUpDim(bType.getDimSize(2), panelColumns);
  Type i32 = IntegerType::get(bType.getContext(), 32);
  bool bytePairs = layout == PackLayout::BytePairs;
  // Octets hold the quads of two k-quads side by side, byte pairs a pair
  // of bytes per column: twice the lanes.
  int64_t lanes = layout == PackLayout::Octets || bytePairs ? 2 * panelColumns
                                                            : panelColumns;
  auto packed = RankedTensorType::get(
      {batches, divide(nPadded, panelColumns),
       divide(kPadded, kGroupOf(layout)), lanes},
      bytePairs ? IntegerType::get(bType.getContext(), 8) : i32);
  if (layout == PackLayout::Pairs || bytePairs)
    return {packed, RankedTensorType()};
  return {packed, RankedTensorType::get({batches, nPadded}, i32)};
}

void PackBOp::build(OpBuilder &builder, OperationState &state, Value b,
                    Value zeroPoint, PackLayout layout, int64_t panelColumns,
                    int64_t kStep, bool bUnsigned) {
  auto [packed, columnTerm] = inferTypes(cast<RankedTensorType>(b.getType()),
                                         layout, panelColumns, kStep);
  build(builder, state, packed, columnTerm, b, zeroPoint, layout,
        panelColumns, kStep, bUnsigned);
}

/// The layout's rules: b is [Bb, K, N], its zero point one element or one
/// per column; k_step a positive multiple of the k rows a lane holds; the
/// pairs and octets panels 16 columns wide; the column term exactly for the
/// quads and octets; the result types inferTypes's.
LogicalResult PackBOp::verify() {
  RankedTensorType bType = getB().getType();
  if (bType.getRank() != 3)
    return emitOpError() << "b must be [Bb, K, N], got " << bType;
  if (getZeroPoint().getType().getRank() > 1)
    return emitOpError() << "the zero point must be one element or one per "
                            "column, got "
                         << getZeroPoint().getType();
  int64_t panel = getPanelColumns(), kStep = getKStep();
  PackLayout layout = getLayout();
  if (panel <= 0 || (layout != PackLayout::Quads && panel != 16))
    return emitOpError() << "panel_columns must be "
                         << (layout == PackLayout::Quads ? "positive"
                                                         : "16")
                         << " for " << stringifyPackLayout(layout)
                         << ", got " << panel;
  // The pairs: the packer writes the pairs of K rounded up to 2 only.
  bool pairs = layout == PackLayout::Pairs || layout == PackLayout::BytePairs;
  if (kStep <= 0 || kStep % kGroupOf(layout) != 0 || (pairs && kStep != 2))
    return emitOpError() << "k_step must be "
                         << (pairs ? "2"
                                   : "a positive multiple of " +
                                         std::to_string(kGroupOf(layout)))
                         << " for " << stringifyPackLayout(layout) << ", got "
                         << kStep;
  RankedTensorType zpType = getZeroPoint().getType();
  if (zpType.getRank() == 1 &&
      staticMismatch(zpType.getDimSize(0),
                     roundUpDim(bType.getDimSize(2), panel)))
    return emitOpError() << "a zero point per column has the padded "
                            "columns' length, "
                         << roundUpDim(bType.getDimSize(2), panel) << ", got "
                         << zpType;
  auto [packed, columnTerm] = inferTypes(bType, layout, panel, kStep);
  if (static_cast<bool>(getColumnTerm()) != static_cast<bool>(columnTerm))
    return emitOpError() << stringifyPackLayout(layout)
                         << (columnTerm ? " needs a column term"
                                        : " has no column term");
  return verifyInferredTypes(*this, bType, getPacked(), packed,
                             getColumnTerm(), columnTerm, "a column term");
}

//===----------------------------------------------------------------------===//
// PackAOp
//===----------------------------------------------------------------------===//

std::pair<RankedTensorType, RankedTensorType>
PackAOp::inferTypes(RankedTensorType aType, PackALayout layout, int64_t kStep,
                    bool rowSums, int64_t rowMultiple) {
  MLIRContext *ctx = aType.getContext();
  int64_t batches = aType.getDimSize(0), rows = aType.getDimSize(1);
  int64_t kPadded = roundUpDim(aType.getDimSize(2), kStep);
  if (layout == PackALayout::Centered)
    return {RankedTensorType::get({batches, rows, kPadded},
                                  IntegerType::get(ctx, 16)),
            RankedTensorType()};
  int64_t rowsPadded = rowMultiple > 0 ? roundUpDim(rows, rowMultiple) : rows;
  auto packed = RankedTensorType::get({batches, rowsPadded, kPadded},
                                      IntegerType::get(ctx, 8));
  if (!rowSums)
    return {packed, RankedTensorType()};
  return {packed, RankedTensorType::get({batches, rows},
                                        IntegerType::get(ctx, 32))};
}

void PackAOp::build(OpBuilder &builder, OperationState &state, Value a,
                    Value zeroPoint, PackALayout layout, int64_t kStep,
                    bool aUnsigned, bool signedA, bool rowSums,
                    int64_t rowMultiple) {
  auto [packed, rowSum] =
      inferTypes(cast<RankedTensorType>(a.getType()), layout, kStep, rowSums,
                 rowMultiple);
  build(builder, state, packed, rowSum, a, zeroPoint, layout, kStep,
        aUnsigned, signedA, rowSums, rowMultiple);
}

/// The layout's rules: a is [B, M, K]; centered takes a zero point (one
/// element or one per row) and nothing of the bytes' flags; bytes takes no
/// zero point; k_step is positive, row_multiple not negative; row sums
/// exactly with `row_sums`; the result types inferTypes's.
LogicalResult PackAOp::verify() {
  RankedTensorType aType = getA().getType();
  if (aType.getRank() != 3)
    return emitOpError() << "a must be [B, M, K], got " << aType;
  bool centered = getLayout() == PackALayout::Centered;
  if (centered != static_cast<bool>(getZeroPoint()))
    return emitOpError() << (centered ? "centered takes a's zero point"
                                      : "bytes takes no zero point");
  if (centered && (getZeroPoint().getType().getRank() > 1 ||
                   (getZeroPoint().getType().getRank() == 1 &&
                    staticMismatch(getZeroPoint().getType().getDimSize(0),
                                   aType.getDimSize(1)))))
    return emitOpError() << "the zero point must be one element or one per "
                            "row, got "
                         << getZeroPoint().getType() << " for a of " << aType;
  if (centered && (getSignedA() || getRowSums() || getRowMultiple() != 0))
    return emitOpError()
           << "signed_a, row_sums and row_multiple are the bytes' flags";
  if (getKStep() <= 0 || getRowMultiple() < 0)
    return emitOpError() << "k_step must be positive and row_multiple not "
                            "negative";
  if (static_cast<bool>(getRowSum()) != getRowSums())
    return emitOpError() << "the row sums are a result exactly with row_sums";
  auto [packed, rowSum] = inferTypes(aType, getLayout(), getKStep(),
                                     getRowSums(), getRowMultiple());
  return verifyInferredTypes(*this, aType, getPacked(), packed, getRowSum(),
                             rowSum, "row sums");
}

#define GET_OP_CLASSES
#include "QuantOps/Dialect/QKernel/IR/QKernelOps.cpp.inc"
