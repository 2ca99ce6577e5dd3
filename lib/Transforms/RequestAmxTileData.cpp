//===- RequestAmxTileData.cpp - qops-request-amx-tile-data ----------------===//
//
// Functions with AMX instructions ask Linux for the AMX tile data state at entry:
//
//   llvm.func internal @__qops_request_amx_tile_data() {
//     if (atomic_load_monotonic(@__qops_amx_tile_data_requested) == 0) {
//       syscall(SYS_arch_prctl = 158, ARCH_REQ_XCOMP_PERM = 0x1023,
//               XFEATURE_XTILEDATA = 18)
//       atomic_store_monotonic(@__qops_amx_tile_data_requested, 1)
//     }
//   }
//
// Two threads that race to the first call both ask; the request is
// idempotent.
//
//===----------------------------------------------------------------------===//

#include "QuantOps/Transforms/Passes.h"

#include "QuantOps/Target/TargetAttr.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

namespace mlir::qops {
#define GEN_PASS_DEF_QOPSREQUESTAMXTILEDATA
#include "QuantOps/Transforms/Passes.h.inc"
} // namespace mlir::qops

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kRequestName = "__qops_request_amx_tile_data";
constexpr llvm::StringLiteral kFlagName = "__qops_amx_tile_data_requested";
constexpr int64_t kSysArchPrctl = 158;
constexpr int64_t kArchReqXcompPerm = 0x1023;
constexpr int64_t kXfeatureXtiledata = 18;

/// AMX instructions: amx ops, or their LLVM intrinsics once lowered
/// (llvm.x86.tileloadd64.internal, llvm.x86.tdpbusd.internal, ...).
bool isAmxInstruction(Operation *op) {
  if (op->getName().getDialectNamespace() == "amx")
    return true;
  auto intrinsic = dyn_cast<LLVM::CallIntrinsicOp>(op);
  if (!intrinsic)
    return false;
  StringRef name = intrinsic.getIntrin();
  return name.starts_with("llvm.x86.tile") || name.starts_with("llvm.x86.tdp");
}

bool holdsAmxOps(Operation *function) {
  return function
      ->walk([](Operation *op) {
        return isAmxInstruction(op) ? WalkResult::interrupt()
                                    : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The flag and the request function (see the file header), at the end of
/// `module`.
void defineRequest(ModuleOp module) {
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = module.getLoc();
  MLIRContext *ctx = module.getContext();
  Type i8 = b.getI8Type(), i64 = b.getI64Type();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  LLVM::GlobalOp::create(b, loc, i8, /*isConstant=*/false,
                         LLVM::Linkage::Internal, kFlagName,
                         b.getI8IntegerAttr(0), /*alignment=*/1);
  auto function = LLVM::LLVMFuncOp::create(
      b, loc, kRequestName,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {}),
      LLVM::Linkage::Internal);
  Block *entry = function.addEntryBlock(b);
  Block *ask = &function.getBody().emplaceBlock();
  Block *done = &function.getBody().emplaceBlock();

  b.setInsertionPointToStart(entry);
  Value flag = LLVM::AddressOfOp::create(b, loc, ptr, kFlagName);
  Value requested =
      LLVM::LoadOp::create(b, loc, i8, flag, /*alignment=*/1,
                           /*isVolatile=*/false, /*isNonTemporal=*/false,
                           /*isInvariant=*/false, /*isInvariantGroup=*/false,
                           LLVM::AtomicOrdering::monotonic);
  Value zero = LLVM::ConstantOp::create(b, loc, i8, b.getI8IntegerAttr(0));
  Value isDone = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne,
                                      requested, zero);
  LLVM::CondBrOp::create(b, loc, isDone, done, ask);

  b.setInsertionPointToStart(ask);
  auto constant = [&](int64_t v) -> Value {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
  };
  LLVM::InlineAsmOp::create(
      b, loc, i64,
      ValueRange{constant(kSysArchPrctl), constant(kArchReqXcompPerm),
                 constant(kXfeatureXtiledata)},
      "syscall", "={rax},{rax},{rdi},{rsi},~{rcx},~{r11},~{memory}",
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, /*asm_dialect=*/nullptr,
      /*operand_attrs=*/nullptr);
  Value one = LLVM::ConstantOp::create(b, loc, i8, b.getI8IntegerAttr(1));
  LLVM::StoreOp::create(b, loc, one, flag, /*alignment=*/1,
                        /*isVolatile=*/false, /*isNonTemporal=*/false,
                        /*isInvariantGroup=*/false,
                        LLVM::AtomicOrdering::monotonic);
  LLVM::BrOp::create(b, loc, done);

  b.setInsertionPointToStart(done);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
}

struct QOpsRequestAmxTileDataPass
    : public qops::impl::QOpsRequestAmxTileDataBase<
          QOpsRequestAmxTileDataPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The option, else the configured module's (qops-configure-target).
    llvm::Triple triple(qops::getTripleFor(getOperation(), targetTriple));
    if (triple.getArch() != llvm::Triple::x86_64 || !triple.isOSLinux())
      return;
    SmallVector<Region *> bodies;
    for (Operation &op : module.getOps()) {
      auto func = dyn_cast<FunctionOpInterface>(&op);
      if (func && !func.isExternal() && holdsAmxOps(func))
        bodies.push_back(&func.getFunctionBody());
    }
    if (bodies.empty())
      return;
    Operation *existing = module.lookupSymbol(kRequestName);
    if (!existing) {
      // The flag comes with the function: a flag alone is someone else's.
      if (Operation *flag = module.lookupSymbol(kFlagName)) {
        flag->emitError() << "symbol '" << kFlagName
                          << "' is reserved for the AMX tile data request";
        return signalPassFailure();
      }
      defineRequest(module);
    }
    auto request = module.lookupSymbol<LLVM::LLVMFuncOp>(kRequestName);
    if (!request) {
      existing->emitError() << "symbol '" << kRequestName
                            << "' is reserved for the AMX tile data request";
      return signalPassFailure();
    }
    for (Region *body : bodies) {
      OpBuilder b = OpBuilder::atBlockBegin(&body->front());
      LLVM::CallOp::create(b, body->getLoc(), request, ValueRange{});
    }
  }
};

} // namespace
