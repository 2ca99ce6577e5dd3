// Programs that would allocate more than the run allows (8 GiB by default,
// QUANTOPS_MAX_ALLOC_BYTES) fail with one line and exit 2, before compiling
// (static tensors) or when the allocation is asked for (dynamic sizes).
//
// RUN: %expect_exit 2 quant-runner %s -e huge_static_result 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: quant-runner: {{.*}}: tensor<100000x100000xui8> has 10000000000 bytes, over the limit of 8589934592 (QUANTOPS_MAX_ALLOC_BYTES)
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.zeros(100000, np.float32))"
// RUN: env QUANTOPS_MAX_ALLOC_BYTES=4096 %expect_exit 2 quant-runner %s -e dynamic_result --input %t/x.npy 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: quant-runner: run-time check failed: the program allocates 100032 bytes, over the limit of 4096 (QUANTOPS_MAX_ALLOC_BYTES)

func.func @huge_static_result() -> tensor<100000x100000xui8> {
  %c = arith.constant dense<7> : tensor<100000x100000xui8>
  return %c : tensor<100000x100000xui8>
}

func.func @dynamic_result(%x: tensor<?xf32>) -> tensor<?xui8> {
  %s = arith.constant dense<0.5> : tensor<f32>
  %y = qops.quantize_linear %x, %s : tensor<?xf32>, tensor<f32> -> tensor<?xui8>
  return %y : tensor<?xui8>
}
