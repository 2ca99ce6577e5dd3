// The 4-bit gemv's inner loop in AVX-512 intrinsics, outside the compiler,
// in three summation orders: what one thread of this CPU can do with the
// bytes bench/QDQ.md's w4_gemv must read (x [1, 4096] times DQ(q), q si4
// [4096, 4096] blocked along k by 32, f32 scales), to tell the kernel's
// limit from the order's.
//
//   documented  w = f32(q) * s; acc = acc + x_k * w   (a product rounded,
//               then the sum, k increasing: what the float kernel does and
//               ONNX's graph reads; two multiplies and an add per weight)
//   fma         acc = fma(x_k, f32(q) * s, acc)       (--float-fma)
//   factored    per block of 32 k: t = sum fma(x_k, f32(q)); then
//               acc = fma(t, s, acc)                  (the block's scale out
//               of the inner sum: one fma per weight; an order ONNX's float
//               tolerance allows, which QuantOps does not implement)
//
// The weights are packed as the float kernel packs them
// (FloatMatMulWeights.cpp): a panel of 32 columns (two zmm), a byte per
// column holding k = 2g (low nibble) and 2g + 1 (high nibble), biased by 8.
// Best of 60 runs. The data (8 MB of nibbles, 2 MB of scales) fits in a
// large L3 (32 MB on the Zen 4 of docs/Performance.md), so after the first
// run it may come from there, as in bench/QDQ.md's runs: a loop below the
// memory's rate is then bound by its own work. "% of read" compares with
// bench-anchors' mem_read, as bench/QDQ.md does.
//
//   clang-22 -O2 -march=native bench/qdq/w4_gemv_orders.c -o /tmp/w4
//   /tmp/w4 [MEM_READ_GBS]    (an AVX-512 CPU; MEM_READ_GBS: limits.json's
//                              mem_read(sum)@1 median)
// (clang-22, as the project; GCC 12 makes slower code of the same loops.)
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { K = 4096, N = 4096, BLOCK = 32, NR = 32 };

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint8_t *packed; // [N / NR][K / 2][NR]
static float *scales;   // [N / NR][K / BLOCK][NR]
static float x[K];
float y[N]; // global: the result is used

// 16 columns' nibbles of k = 2g (low) and 2g + 1 (high) as f32: each
// nibble is q + 8, so the bias is subtracted to give the si4 value q.
static inline void weights(const uint8_t *bytes, __m512 *low, __m512 *high) {
  const __m128i mask = _mm_set1_epi8(0x0f), bias = _mm_set1_epi8(8);
  __m128i b = _mm_loadu_si128((const __m128i *)bytes);
  __m128i l = _mm_sub_epi8(_mm_and_si128(b, mask), bias);
  __m128i h = _mm_sub_epi8(_mm_and_si128(_mm_srli_epi16(b, 4), mask), bias);
  *low = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(l));
  *high = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(h));
}

__attribute__((noinline)) static void gemv(int order) {
  for (int p = 0; p < N / NR; ++p) {
    const uint8_t *panel = packed + (size_t)p * (K / 2) * NR;
    const float *panelScales = scales + (size_t)p * (K / BLOCK) * NR;
    __m512 acc[2] = {_mm512_setzero_ps(), _mm512_setzero_ps()};
    for (int kb = 0; kb < K / BLOCK; ++kb) {
      __m512 s[2] = {_mm512_loadu_ps(panelScales + kb * NR),
                     _mm512_loadu_ps(panelScales + kb * NR + 16)};
      __m512 t[4] = {_mm512_setzero_ps(), _mm512_setzero_ps(),
                     _mm512_setzero_ps(), _mm512_setzero_ps()};
      for (int g = kb * BLOCK / 2; g < (kb + 1) * BLOCK / 2; ++g) {
        __m512 xe = _mm512_set1_ps(x[2 * g]), xo = _mm512_set1_ps(x[2 * g + 1]);
        for (int v = 0; v < 2; ++v) {
          __m512 low, high;
          weights(panel + (size_t)g * NR + 16 * v, &low, &high);
          if (order == 0) {
            acc[v] = _mm512_add_ps(acc[v],
                                   _mm512_mul_ps(xe, _mm512_mul_ps(low, s[v])));
            acc[v] = _mm512_add_ps(
                acc[v], _mm512_mul_ps(xo, _mm512_mul_ps(high, s[v])));
          } else if (order == 1) {
            acc[v] = _mm512_fmadd_ps(xe, _mm512_mul_ps(low, s[v]), acc[v]);
            acc[v] = _mm512_fmadd_ps(xo, _mm512_mul_ps(high, s[v]), acc[v]);
          } else {
            t[2 * v] = _mm512_fmadd_ps(xe, low, t[2 * v]);
            t[2 * v + 1] = _mm512_fmadd_ps(xo, high, t[2 * v + 1]);
          }
        }
      }
      if (order == 2)
        for (int v = 0; v < 2; ++v)
          acc[v] = _mm512_fmadd_ps(_mm512_add_ps(t[2 * v], t[2 * v + 1]), s[v],
                                   acc[v]);
    }
    _mm512_storeu_ps(y + p * NR, acc[0]);
    _mm512_storeu_ps(y + p * NR + 16, acc[1]);
  }
}

int main(int argc, char **argv) {
  double memRead = argc > 1 ? atof(argv[1]) : 0;
  packed = aligned_alloc(64, (size_t)K / 2 * N);
  scales = aligned_alloc(64, (size_t)K / BLOCK * N * sizeof(float));
  srand(1);
  for (size_t i = 0; i < (size_t)K / 2 * N; ++i)
    packed[i] = (uint8_t)rand();
  for (size_t i = 0; i < (size_t)K / BLOCK * N; ++i)
    scales[i] = 0.01f * (1 + i % 7);
  for (int i = 0; i < K; ++i)
    x[i] = 0.5f + i % 3;
  double bytes = (double)K / 2 * N + (double)K / BLOCK * N * sizeof(float);
  const char *names[] = {"documented", "fma", "factored"};
  for (int order = 0; order < 3; ++order) {
    double best = 1e9;
    for (int run = 0; run < 60; ++run) {
      double start = now();
      gemv(order);
      double time = now() - start;
      if (time < best)
        best = time;
    }
    double sum = 0;
    for (int n = 0; n < N; ++n)
      sum += y[n];
    printf("%-10s %.3f ms  %.1f GB/s", names[order], best * 1e3,
           bytes / best / 1e9);
    if (memRead > 0)
      printf("  %.0f%% of read", 100 * bytes / best / 1e9 / memRead);
    printf("  (checksum %g)\n", sum);
  }
  return 0;
}
