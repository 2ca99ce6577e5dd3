// The allocation functions of quant-compile --runtime-allocator objects,
// counting the calls (test/Target/aot-host.test): blocks from aligned_alloc,
// so that the driver's free() of a result stays valid; at exit, the count.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static long allocations;

void *_mlir_memref_to_llvm_aligned_alloc(uint64_t alignment, uint64_t size) {
  ++allocations;
  uint64_t rounded = (size + alignment - 1) / alignment * alignment;
  return aligned_alloc(alignment, rounded ? rounded : alignment);
}

void *_mlir_memref_to_llvm_alloc(uint64_t size) {
  return _mlir_memref_to_llvm_aligned_alloc(16, size);
}

void _mlir_memref_to_llvm_free(void *block) { free(block); }

__attribute__((destructor)) static void report(void) {
  printf("runtime allocator: %ld allocations\n", allocations);
}
