//===- OutlineLoopNest.h - a loop nest as a function ------------*- C++ -*-===//
//
// A loop nest L, on buffers or on tensors, read as the function it would be
// outlined to (qops-share-loop-nests, qops-kernels-apart):
//
//   copied(L)    = the constants and memref views (subview, expand_shape,
//                  cast, ...) outside L that L uses, directly or through
//                  another copied op
//   captured(L)  = the other values from outside that L or copied(L) use,
//                  in the order of first use (pre-order walk)
//   f(L)         = func.func (captured(L) types) -> (L's result types)
//                  { clones of copied(L); clone of L; return its results }
//
// Constants and views are copied rather than passed, so that a call
// passes the buffer itself, and two layers that view their buffers alike
// are the same code.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPS_UTILS_OUTLINELOOPNEST_H
#define QUANTOPS_UTILS_OUTLINELOOPNEST_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/Hashing.h"

namespace mlir::qops {

/// An outermost loop and the function it would be outlined to.
struct OutlinedLoopNest {
  Operation *loop;
  SmallVector<Value> captured;
  func::FuncOp outlined;
};

/// f(`loop`) named `name`, private, in no symbol table (the caller inserts
/// it); `loop` is left as it is. Ops `alsoCopied` accepts are copied in
/// too (with what their operands need).
OutlinedLoopNest
outlineLoopNest(Operation *loop, StringRef name,
                llvm::function_ref<bool(Operation *)> alsoCopied = nullptr);

/// A hash of f(L) that equivalent functions share: each op's name,
/// attributes, properties and result types, in walk order, without the
/// values it uses or defines and without locations (cheaper than printing
/// f(L) as the key: docs/Performance.md, "Models of many layers").
llvm::hash_code hashOutlinedLoopNest(func::FuncOp outlined);

/// Whether two outlined nests are the same code (OperationEquivalence,
/// locations aside).
bool isSameOutlinedLoopNest(func::FuncOp lhs, func::FuncOp rhs);

/// Replaces `nest.loop` by a call of `callee` (f(L) or a function with its
/// signature) with captured(L), each read through `replaced` (a loop
/// result -> call result map of the nests replaced before, whose results
/// this nest may use), and records the call's results there.
func::CallOp replaceLoopNestByCall(const OutlinedLoopNest &nest,
                                   func::FuncOp callee, IRMapping &replaced);

} // namespace mlir::qops

#endif // QUANTOPS_UTILS_OUTLINELOOPNEST_H
