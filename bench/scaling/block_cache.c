// The allocator the bench's objects call (quant-compile --runtime-allocator):
// freed blocks are kept, by size, and handed out again, as ONNX Runtime's
// arena and quant-runner's caching allocator do. With aligned_alloc / free,
// glibc maps a block over its mmap threshold (32 MiB at most) afresh at each
// call and unmaps it at free, and a heap block padded for alignment is not
// reused either: a 4096 x 4096 DequantizeLinear faulted in its 64 MiB result
// at every call (36-51 ms instead of 2.6 on a Zen 4 host).
//
// Each block: `pad` bytes (the alignment, at least 64) whose last 16 hold
// the pad and the size, then the caller's bytes.
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

enum { SLOTS = 64 };
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  char *user;
  uint64_t pad, size;
} freed[SLOTS];
static int count;

void *_mlir_memref_to_llvm_aligned_alloc(uint64_t alignment, uint64_t size) {
  uint64_t pad = alignment > 64 ? alignment : 64;
  pthread_mutex_lock(&lock);
  for (int i = 0; i < count; i++)
    if (freed[i].size == size && freed[i].pad == pad) {
      char *user = freed[i].user;
      freed[i] = freed[--count];
      pthread_mutex_unlock(&lock);
      return user;
    }
  pthread_mutex_unlock(&lock);
  char *base = aligned_alloc(pad, pad + (size + pad - 1) / pad * pad);
  if (!base)
    return NULL;
  char *user = base + pad;
  ((uint64_t *)user)[-2] = pad;
  ((uint64_t *)user)[-1] = size;
  return user;
}

void *_mlir_memref_to_llvm_alloc(uint64_t size) {
  return _mlir_memref_to_llvm_aligned_alloc(64, size);
}

void _mlir_memref_to_llvm_free(void *block) {
  if (!block)
    return;
  char *user = block;
  uint64_t pad = ((uint64_t *)user)[-2], size = ((uint64_t *)user)[-1];
  pthread_mutex_lock(&lock);
  if (count < SLOTS) {
    freed[count].user = user;
    freed[count].pad = pad;
    freed[count].size = size;
    count++;
    pthread_mutex_unlock(&lock);
    return;
  }
  pthread_mutex_unlock(&lock);
  free(user - pad);
}
