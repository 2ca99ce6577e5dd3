// Loops kept rolled (keepLoopRolled, LoopAnnotations.h): qops-expand-strided-copies
// marks the outer loops of the copies it expands, qops-roll-run-once-loops
// the loops of the code that runs once per session.
// The mark survives the pipeline to the LLVM dialect (the latch's
// loop_annotation) and LLVM IR, and opt -O3, as the JIT runs it, keeps the
// loop: one 64-byte load and store per row instead of all 28 of them
// unrolled into one block (a stride-2 3x3 convolution's nine taps of 28
// pixels made a block of 252 such copies, which took the machine
// schedulers most of its JIT time).
//
// RUN: quant-opt %s --qops-lower-to-llvm="target-triple=x86_64-unknown-linux-gnu target-cpu=znver3" > %t.mlir
// RUN: FileCheck %s --check-prefix=DIALECT < %t.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.mlir | opt -O3 -S | FileCheck %s --check-prefix=O3
//
// DIALECT: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// DIALECT: #[[ANNOTATION:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// DIALECT-LABEL: llvm.func @tap_copy
// DIALECT: llvm.load {{.*}} -> vector<64xi8>
// DIALECT: llvm.br ^{{.*}} {loop_annotation = #[[ANNOTATION]]}
//
// O3-LABEL: define void @tap_copy
// O3: load <64 x i8>
// O3-NOT: load <64 x i8>
// O3: br i1 {{.*}}, !llvm.loop ![[LOOP:[0-9]+]]
// O3: ![[LOOP]] = distinct !{![[LOOP]], ![[DISABLE:[0-9]+]]}
// O3: ![[DISABLE]] = !{!"llvm.loop.unroll.disable"}
//
// A constant's transpose, hoisted (computed at the first call): its four
// loops are marked, the add's loops in the function are not.
// DIALECT-LABEL: llvm.func @weights_once
// DIALECT: llvm.load {{.*}} -> i8
// DIALECT: llvm.store {{.*}} : i8, !llvm.ptr
// DIALECT-COUNT-4: llvm.br ^{{.*}} {loop_annotation = #[[ANNOTATION]]}
// DIALECT: llvm.atomicrmw xchg
// DIALECT-NOT: loop_annotation
// DIALECT: llvm.return

// One tap of a stride-2 convolution's patches: 28 pixels of 64 channels,
// every second one of a row, into rows of 9 x 64 bytes.
func.func @tap_copy(%src: memref<56x64xi8>, %dst: memref<28x576xi8>) {
  %s = memref.subview %src[0, 0] [28, 64] [2, 1] : memref<56x64xi8> to memref<28x64xi8, strided<[128, 1]>>
  %d = memref.subview %dst[0, 0] [28, 64] [1, 1] : memref<28x576xi8> to memref<28x64xi8, strided<[576, 1]>>
  memref.copy %s, %d : memref<28x64xi8, strided<[128, 1]>> to memref<28x64xi8, strided<[576, 1]>>
  return
}

// A [64, 64, 3, 3] constant to [3, 3, 64, 64] (a convolution's weights).
func.func @weights_once(%x: tensor<3x3x64x64xi8>) -> tensor<3x3x64x64xi8> {
  %w = arith.constant dense<7> : tensor<64x64x3x3xi8>
  %e = tensor.empty() : tensor<3x3x64x64xi8>
  %t = linalg.transpose ins(%w : tensor<64x64x3x3xi8>) outs(%e : tensor<3x3x64x64xi8>) permutation = [2, 3, 1, 0]
  %e2 = tensor.empty() : tensor<3x3x64x64xi8>
  %s = linalg.add ins(%x, %t : tensor<3x3x64x64xi8>, tensor<3x3x64x64xi8>) outs(%e2 : tensor<3x3x64x64xi8>) -> tensor<3x3x64x64xi8>
  return %s : tensor<3x3x64x64xi8>
}
