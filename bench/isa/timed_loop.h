// The timing shared by int8_ceiling.c and int8_ceiling_vnni.c: now(), N
// and TIMED_LOOP(name, body), a function that runs the inline-assembly
// `body` N times, three times over, and returns the best seconds per body.
// The includer defines CLOBBERS (its registers) and `mem` (the operand %0).
#ifndef QUANTOPS_BENCH_ISA_TIMED_LOOP_H
#define QUANTOPS_BENCH_ISA_TIMED_LOOP_H
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

#define N 4000000L

#define TIMED_LOOP(storage, name, body)                                       \
  storage double name(void) {                                                 \
    double best = 1;                                                          \
    for (int r = 0; r < 3; r++) {                                             \
      double t = now();                                                       \
      for (long i = 0; i < N; i++)                                            \
        __asm__ volatile(body CLOBBERS);                                       \
      t = (now() - t) / N;                                                    \
      if (t < best)                                                           \
        best = t;                                                             \
    }                                                                         \
    return best;                                                              \
  }
#endif
