// REQUIRES: amx
// The amx kernel (x86 AMX-INT8) run on this host: the qmm_tiles_* cases of
// qlinear-matmul.mlir (partial row tiles with a's rows padded, K padded to a
// multiple of 64, masked columns, sign-flipped operands, per-row and
// per-column parameters, batches, two row blocks) at 1, 2 and 3 threads, and
// the same cases with b, b_scale and b_zero_point as constants (b packed at
// compile time). Expected values: the NumPy reference (gen_case.py).
// qlinear-matmul.mlir runs these cases with the host's kernel (amx here)
// and with -amx-tile; this file adds the thread counts and constant b.
//
// RUN: rm -rf %t && mkdir -p %t
//
// The lowered program uses TDPBUSD tiles and asks Linux for the tile state.
// RUN: quant-runner %S/qlinear-matmul.mlir -e qmm_tiles_33x130x40 --dump-lowered | FileCheck %s --check-prefix=LOWERED
// LOWERED: llvm.call @__qops_request_amx_tile_data()
// LOWERED: llvm.call_intrinsic "llvm.x86.tdpbusd.internal"
// LOWERED: llvm.inline_asm has_side_effects "syscall"
//
// RUN: %python %S/reference/gen_case.py qmm_tiles_33x130x40 %t/qmm_tiles_33x130x40
// RUN: quant-runner %S/qlinear-matmul.mlir -e qmm_tiles_33x130x40 --input %t/qmm_tiles_33x130x40/in0.npy --input %t/qmm_tiles_33x130x40/in1.npy --input %t/qmm_tiles_33x130x40/in2.npy --input %t/qmm_tiles_33x130x40/in3.npy --input %t/qmm_tiles_33x130x40/in4.npy --input %t/qmm_tiles_33x130x40/in5.npy --input %t/qmm_tiles_33x130x40/in6.npy --input %t/qmm_tiles_33x130x40/in7.npy --expect %t/qmm_tiles_33x130x40/out0.npy --threads 1 | FileCheck %s
// RUN: quant-runner %S/qlinear-matmul.mlir -e qmm_tiles_33x130x40 --input %t/qmm_tiles_33x130x40/in0.npy --input %t/qmm_tiles_33x130x40/in1.npy --input %t/qmm_tiles_33x130x40/in2.npy --input %t/qmm_tiles_33x130x40/in3.npy --input %t/qmm_tiles_33x130x40/in4.npy --input %t/qmm_tiles_33x130x40/in5.npy --input %t/qmm_tiles_33x130x40/in6.npy --input %t/qmm_tiles_33x130x40/in7.npy --expect %t/qmm_tiles_33x130x40/out0.npy --threads 2 | FileCheck %s
// RUN: quant-runner %S/qlinear-matmul.mlir -e qmm_tiles_33x130x40 --input %t/qmm_tiles_33x130x40/in0.npy --input %t/qmm_tiles_33x130x40/in1.npy --input %t/qmm_tiles_33x130x40/in2.npy --input %t/qmm_tiles_33x130x40/in3.npy --input %t/qmm_tiles_33x130x40/in4.npy --input %t/qmm_tiles_33x130x40/in5.npy --input %t/qmm_tiles_33x130x40/in6.npy --input %t/qmm_tiles_33x130x40/in7.npy --expect %t/qmm_tiles_33x130x40/out0.npy --threads 3 | FileCheck %s
//
// RUN: %python %S/reference/gen_case.py qmm_tiles_64x128x64_per_channel %t/qmm_tiles_64x128x64_per_channel
// RUN: quant-runner %S/qlinear-matmul.mlir -e qmm_tiles_64x128x64_per_channel --input %t/qmm_tiles_64x128x64_per_channel/in0.npy --input %t/qmm_tiles_64x128x64_per_channel/in1.npy --input %t/qmm_tiles_64x128x64_per_channel/in2.npy --input %t/qmm_tiles_64x128x64_per_channel/in3.npy --input %t/qmm_tiles_64x128x64_per_channel/in4.npy --input %t/qmm_tiles_64x128x64_per_channel/in5.npy --input %t/qmm_tiles_64x128x64_per_channel/in6.npy --input %t/qmm_tiles_64x128x64_per_channel/in7.npy --expect %t/qmm_tiles_64x128x64_per_channel/out0.npy --threads 1 | FileCheck %s
// RUN: quant-runner %S/qlinear-matmul.mlir -e qmm_tiles_64x128x64_per_channel --input %t/qmm_tiles_64x128x64_per_channel/in0.npy --input %t/qmm_tiles_64x128x64_per_channel/in1.npy --input %t/qmm_tiles_64x128x64_per_channel/in2.npy --input %t/qmm_tiles_64x128x64_per_channel/in3.npy --input %t/qmm_tiles_64x128x64_per_channel/in4.npy --input %t/qmm_tiles_64x128x64_per_channel/in5.npy --input %t/qmm_tiles_64x128x64_per_channel/in6.npy --input %t/qmm_tiles_64x128x64_per_channel/in7.npy --expect %t/qmm_tiles_64x128x64_per_channel/out0.npy --threads 2 | FileCheck %s
// RUN: quant-runner %S/qlinear-matmul.mlir -e qmm_tiles_64x128x64_per_channel --input %t/qmm_tiles_64x128x64_per_channel/in0.npy --input %t/qmm_tiles_64x128x64_per_channel/in1.npy --input %t/qmm_tiles_64x128x64_per_channel/in2.npy --input %t/qmm_tiles_64x128x64_per_channel/in3.npy --input %t/qmm_tiles_64x128x64_per_channel/in4.npy --input %t/qmm_tiles_64x128x64_per_channel/in5.npy --input %t/qmm_tiles_64x128x64_per_channel/in6.npy --input %t/qmm_tiles_64x128x64_per_channel/in7.npy --expect %t/qmm_tiles_64x128x64_per_channel/out0.npy --threads 3 | FileCheck %s
//
// RUN: %python %S/reference/gen_case.py qmm_tiles_batch_3x70x96 %t/qmm_tiles_batch_3x70x96
// RUN: quant-runner %S/qlinear-matmul.mlir -e qmm_tiles_batch_3x70x96 --input %t/qmm_tiles_batch_3x70x96/in0.npy --input %t/qmm_tiles_batch_3x70x96/in1.npy --input %t/qmm_tiles_batch_3x70x96/in2.npy --input %t/qmm_tiles_batch_3x70x96/in3.npy --input %t/qmm_tiles_batch_3x70x96/in4.npy --input %t/qmm_tiles_batch_3x70x96/in5.npy --input %t/qmm_tiles_batch_3x70x96/in6.npy --input %t/qmm_tiles_batch_3x70x96/in7.npy --expect %t/qmm_tiles_batch_3x70x96/out0.npy --threads 1 | FileCheck %s
// RUN: quant-runner %S/qlinear-matmul.mlir -e qmm_tiles_batch_3x70x96 --input %t/qmm_tiles_batch_3x70x96/in0.npy --input %t/qmm_tiles_batch_3x70x96/in1.npy --input %t/qmm_tiles_batch_3x70x96/in2.npy --input %t/qmm_tiles_batch_3x70x96/in3.npy --input %t/qmm_tiles_batch_3x70x96/in4.npy --input %t/qmm_tiles_batch_3x70x96/in5.npy --input %t/qmm_tiles_batch_3x70x96/in6.npy --input %t/qmm_tiles_batch_3x70x96/in7.npy --expect %t/qmm_tiles_batch_3x70x96/out0.npy --threads 2 | FileCheck %s
// RUN: quant-runner %S/qlinear-matmul.mlir -e qmm_tiles_batch_3x70x96 --input %t/qmm_tiles_batch_3x70x96/in0.npy --input %t/qmm_tiles_batch_3x70x96/in1.npy --input %t/qmm_tiles_batch_3x70x96/in2.npy --input %t/qmm_tiles_batch_3x70x96/in3.npy --input %t/qmm_tiles_batch_3x70x96/in4.npy --input %t/qmm_tiles_batch_3x70x96/in5.npy --input %t/qmm_tiles_batch_3x70x96/in6.npy --input %t/qmm_tiles_batch_3x70x96/in7.npy --expect %t/qmm_tiles_batch_3x70x96/out0.npy --threads 3 | FileCheck %s
//
// RUN: %python %S/reference/gen_case.py qmm_tiles_160x256x96 %t/qmm_tiles_160x256x96
// RUN: quant-runner %S/qlinear-matmul.mlir -e qmm_tiles_160x256x96 --input %t/qmm_tiles_160x256x96/in0.npy --input %t/qmm_tiles_160x256x96/in1.npy --input %t/qmm_tiles_160x256x96/in2.npy --input %t/qmm_tiles_160x256x96/in3.npy --input %t/qmm_tiles_160x256x96/in4.npy --input %t/qmm_tiles_160x256x96/in5.npy --input %t/qmm_tiles_160x256x96/in6.npy --input %t/qmm_tiles_160x256x96/in7.npy --expect %t/qmm_tiles_160x256x96/out0.npy --threads 1 | FileCheck %s
// RUN: quant-runner %S/qlinear-matmul.mlir -e qmm_tiles_160x256x96 --input %t/qmm_tiles_160x256x96/in0.npy --input %t/qmm_tiles_160x256x96/in1.npy --input %t/qmm_tiles_160x256x96/in2.npy --input %t/qmm_tiles_160x256x96/in3.npy --input %t/qmm_tiles_160x256x96/in4.npy --input %t/qmm_tiles_160x256x96/in5.npy --input %t/qmm_tiles_160x256x96/in6.npy --input %t/qmm_tiles_160x256x96/in7.npy --expect %t/qmm_tiles_160x256x96/out0.npy --threads 2 | FileCheck %s
// RUN: quant-runner %S/qlinear-matmul.mlir -e qmm_tiles_160x256x96 --input %t/qmm_tiles_160x256x96/in0.npy --input %t/qmm_tiles_160x256x96/in1.npy --input %t/qmm_tiles_160x256x96/in2.npy --input %t/qmm_tiles_160x256x96/in3.npy --input %t/qmm_tiles_160x256x96/in4.npy --input %t/qmm_tiles_160x256x96/in5.npy --input %t/qmm_tiles_160x256x96/in6.npy --input %t/qmm_tiles_160x256x96/in7.npy --expect %t/qmm_tiles_160x256x96/out0.npy --threads 3 | FileCheck %s
//
// RUN: %python %S/Inputs/constant_b_case.py %t/qmm_tiles_64x128x64_per_channel qmm_tiles_64x128x64_per_channel %t/qmm_tiles_64x128x64_per_channel.mlir
// RUN: quant-opt %t/qmm_tiles_64x128x64_per_channel.mlir --convert-qops-to-linalg=int8-strategy=amx | FileCheck %s --check-prefix=PACKED
// RUN: quant-runner %t/qmm_tiles_64x128x64_per_channel.mlir -e qmm_tiles_64x128x64_per_channel_constant_b --input %t/qmm_tiles_64x128x64_per_channel/in0.npy --input %t/qmm_tiles_64x128x64_per_channel/in1.npy --input %t/qmm_tiles_64x128x64_per_channel/in2.npy --input %t/qmm_tiles_64x128x64_per_channel/in6.npy --input %t/qmm_tiles_64x128x64_per_channel/in7.npy --expect %t/qmm_tiles_64x128x64_per_channel/out0.npy --threads 1 | FileCheck %s
// RUN: quant-runner %t/qmm_tiles_64x128x64_per_channel.mlir -e qmm_tiles_64x128x64_per_channel_constant_b --input %t/qmm_tiles_64x128x64_per_channel/in0.npy --input %t/qmm_tiles_64x128x64_per_channel/in1.npy --input %t/qmm_tiles_64x128x64_per_channel/in2.npy --input %t/qmm_tiles_64x128x64_per_channel/in6.npy --input %t/qmm_tiles_64x128x64_per_channel/in7.npy --expect %t/qmm_tiles_64x128x64_per_channel/out0.npy --threads 2 | FileCheck %s
//
// RUN: %python %S/Inputs/constant_b_case.py %t/qmm_tiles_batch_3x70x96 qmm_tiles_batch_3x70x96 %t/qmm_tiles_batch_3x70x96.mlir
// RUN: quant-opt %t/qmm_tiles_batch_3x70x96.mlir --convert-qops-to-linalg=int8-strategy=amx | FileCheck %s --check-prefix=PACKED
// RUN: quant-runner %t/qmm_tiles_batch_3x70x96.mlir -e qmm_tiles_batch_3x70x96_constant_b --input %t/qmm_tiles_batch_3x70x96/in0.npy --input %t/qmm_tiles_batch_3x70x96/in1.npy --input %t/qmm_tiles_batch_3x70x96/in2.npy --input %t/qmm_tiles_batch_3x70x96/in6.npy --input %t/qmm_tiles_batch_3x70x96/in7.npy --expect %t/qmm_tiles_batch_3x70x96/out0.npy --threads 1 | FileCheck %s
// RUN: quant-runner %t/qmm_tiles_batch_3x70x96.mlir -e qmm_tiles_batch_3x70x96_constant_b --input %t/qmm_tiles_batch_3x70x96/in0.npy --input %t/qmm_tiles_batch_3x70x96/in1.npy --input %t/qmm_tiles_batch_3x70x96/in2.npy --input %t/qmm_tiles_batch_3x70x96/in6.npy --input %t/qmm_tiles_batch_3x70x96/in7.npy --expect %t/qmm_tiles_batch_3x70x96/out0.npy --threads 2 | FileCheck %s
//
// RUN: %python %S/Inputs/constant_b_case.py %t/qmm_tiles_160x256x96 qmm_tiles_160x256x96 %t/qmm_tiles_160x256x96.mlir
// RUN: quant-opt %t/qmm_tiles_160x256x96.mlir --convert-qops-to-linalg=int8-strategy=amx | FileCheck %s --check-prefix=PACKED
// RUN: quant-runner %t/qmm_tiles_160x256x96.mlir -e qmm_tiles_160x256x96_constant_b --input %t/qmm_tiles_160x256x96/in0.npy --input %t/qmm_tiles_160x256x96/in1.npy --input %t/qmm_tiles_160x256x96/in2.npy --input %t/qmm_tiles_160x256x96/in6.npy --input %t/qmm_tiles_160x256x96/in7.npy --expect %t/qmm_tiles_160x256x96/out0.npy --threads 1 | FileCheck %s
// RUN: quant-runner %t/qmm_tiles_160x256x96.mlir -e qmm_tiles_160x256x96_constant_b --input %t/qmm_tiles_160x256x96/in0.npy --input %t/qmm_tiles_160x256x96/in1.npy --input %t/qmm_tiles_160x256x96/in2.npy --input %t/qmm_tiles_160x256x96/in6.npy --input %t/qmm_tiles_160x256x96/in7.npy --expect %t/qmm_tiles_160x256x96/out0.npy --threads 2 | FileCheck %s
// PACKED: amx.tile_muli
// PACKED-NOT: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: all 1 results match
