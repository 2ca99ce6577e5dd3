// Register-only throughput of the int8 multiply-accumulate formulations on
// x86 AVX2 (bench/isa/run.sh): which exact form can match ONNX Runtime's
// VPMADDUBSW kernel? Each loop body is inline assembly (no memory operands
// but the broadcasts and B loads that the kernel itself has, always from L1),
// timed against a chain of dependent ADDs (one cycle each) to count cycles.
//
//   madd_6x16     QuantOps' madd tile: per k-pair 2 B loads, 6 broadcasts,
//                 12 VPMADDWD, 12 VPADDD into 12 accumulators (exact)
//   madd_regs     the same 12 VPMADDWD + 12 dependent VPADDD, registers only
//   madd_free     8 VPMADDWD + 8 VPADDD that do not consume them (the
//                 port limit without the dependency)
//   maddubs_6x16  ONNX Runtime's AVX2 U8S8 form: VPMADDUBSW (u8 x s8 pairs
//                 summed into i16, saturating), VPMADDWD with ones, VPADDD;
//                 the same 6 x 16 tile over k-quads (2x the MACs per
//                 broadcast)
//
//   vnni_zmm_12x32, vnni_ymm_6x16, avxvnni_6x16
//                 QuantOps' VPDPBUSD tiles (int8_ceiling_vnni.c), run where
//                 /proc/cpuinfo lists their features
//   f32_fma_6x16, f32_muladd_6x16, f32_fma_12x32, f32_muladd_12x32,
//   f32_muladd_4x24
//                 the float kernel's ymm and zmm tiles (FloatMatMulKernel.cpp)
//                 with --float-fma (VFMADD231PS) and in the documented order
//                 (VMULPS, then VADDPS): bench/qdq/run.py's f32 limits
//   amx_32x32     QuantOps' amx register tile, 4 TDPBUSD of 16 x 16 x 64
//                 (int8_ceiling_amx.c), where the CPU has AMX-INT8 and Linux
//                 hands out the tile state
//
// MACs per cycle = 16 per VPMADDWD (8 lanes x 2), 32 per VPMADDUBSW, 32 per
// VPDPBUSD ymm, 64 per VPDPBUSD zmm, 16384 per TDPBUSD; 8 (16) per f32
// FMA or VMULPS + VADDPS pair on ymm (zmm), run with denormals flushed.
// The GOP/s do not depend on the cycle estimate (2 MACs per body / seconds
// per body); the cycles do: where the CPU runs the ADD chain faster than
// one per cycle (Golden Cove's renamer folds dependent immediate ADDs), its
// GHz and MACs per cycle read high.
//
//   int8_ceiling [CEILINGS.json]   (the JSON: GOP/s of one thread per loop)
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <xmmintrin.h>

double vnni_zmm_12x32(void); // int8_ceiling_vnni.c
double f32_fma_12x32(void);    // int8_ceiling_vnni.c
double f32_muladd_12x32(void); // int8_ceiling_vnni.c
double f32_muladd_4x24(void);  // int8_ceiling_vnni.c
double amx_32x32(void);      // int8_ceiling_amx.c
int amx_ready(void);         // int8_ceiling_amx.c

/// Whether /proc/cpuinfo's flags hold every space-separated word of `needs`.
static int cpu_has(const char *needs) {
  static char flags[8192];
  if (!flags[0]) {
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[8192];
    while (f && fgets(line, sizeof line, f))
      if (!strncmp(line, "flags", 5)) {
        snprintf(flags, sizeof flags, " %s", strchr(line, ':') + 1);
        break;
      }
    if (f)
      fclose(f);
  }
  char word[64];
  for (const char *p = needs; sscanf(p, "%63s", word) == 1;) {
    char padded[70];
    snprintf(padded, sizeof padded, " %s", word);
    size_t n = strlen(padded);
    const char *at = flags;
    int found = 0;
    while ((at = strstr(at, padded)) && !found) {
      found = at[n] == ' ' || at[n] == '\n' || at[n] == 0;
      at += n;
    }
    if (!found)
      return 0;
    p = strstr(p, word) + strlen(word);
  }
  return 1;
}

#include "timed_loop.h"

static int32_t mem[128] __attribute__((aligned(64)));

static double cycle_seconds(void) {
  double best = 1;
  for (int r = 0; r < 3; r++) {
    double t = now();
    long x = 0;
    for (long i = 0; i < N; i++)
      __asm__ volatile("add $1,%0\n add $1,%0\n add $1,%0\n add $1,%0\n"
                       "add $1,%0\n add $1,%0\n add $1,%0\n add $1,%0\n"
                       : "+r"(x));
    t = (now() - t) / (N * 8.0);
    if (t < best)
      best = t;
  }
  return best;
}

#define CLOBBERS                                                              \
  : /* no outputs */                                                          \
  : "r"(mem)                                                                  \
  : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",   \
    "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "memory"
#define LOOP(name, body) TIMED_LOOP(static, name, body)

#define ROW(a0, a1, off)                                                      \
  "vpbroadcastd " off "(%0), %%ymm2\n"                                        \
  "vpmaddwd %%ymm0, %%ymm2, %%ymm3\n vpmaddwd %%ymm1, %%ymm2, %%ymm2\n"      \
  "vpaddd %%ymm3, %%" a0 ", %%" a0 "\n vpaddd %%ymm2, %%" a1 ", %%" a1 "\n"
LOOP(madd_6x16, "vmovdqa 64(%0), %%ymm0\n vmovdqa 96(%0), %%ymm1\n"
                ROW("ymm4", "ymm5", "0") ROW("ymm6", "ymm7", "4")
                ROW("ymm8", "ymm9", "8") ROW("ymm10", "ymm11", "12")
                ROW("ymm12", "ymm13", "16") ROW("ymm14", "ymm15", "20"))

#define PAIR(acc, t, a, b)                                                    \
  "vpmaddwd %%" a ", %%" b ", %%" t "\n vpaddd %%" t ", %%" acc ", %%" acc "\n"
LOOP(madd_regs,
     PAIR("ymm4", "ymm14", "ymm0", "ymm2") PAIR("ymm5", "ymm15", "ymm1", "ymm2")
     PAIR("ymm6", "ymm14", "ymm0", "ymm3") PAIR("ymm7", "ymm15", "ymm1", "ymm3")
     PAIR("ymm8", "ymm14", "ymm0", "ymm2") PAIR("ymm9", "ymm15", "ymm1", "ymm2")
     PAIR("ymm10", "ymm14", "ymm0", "ymm3") PAIR("ymm11", "ymm15", "ymm1", "ymm3")
     PAIR("ymm12", "ymm14", "ymm0", "ymm2") PAIR("ymm13", "ymm15", "ymm1", "ymm2")
     PAIR("ymm4", "ymm14", "ymm0", "ymm3") PAIR("ymm5", "ymm15", "ymm1", "ymm3"))

#define FREE(t, acc)                                                          \
  "vpmaddwd %%ymm0, %%ymm1, %%" t "\n vpaddd %%ymm0, %%" acc ", %%" acc "\n"
LOOP(madd_free, FREE("ymm2", "ymm10") FREE("ymm3", "ymm11") FREE("ymm4", "ymm12")
                FREE("ymm5", "ymm13") FREE("ymm6", "ymm14") FREE("ymm7", "ymm15")
                FREE("ymm8", "ymm10") FREE("ymm9", "ymm11"))

#define TRIPLE(a0, a1, off)                                                   \
  "vpbroadcastd " off "(%0), %%ymm2\n"                                        \
  "vpmaddubsw %%ymm0, %%ymm2, %%ymm3\n vpmaddubsw %%ymm1, %%ymm2, %%ymm2\n"  \
  "vpmaddwd 256(%0), %%ymm3, %%ymm3\n vpmaddwd 256(%0), %%ymm2, %%ymm2\n"    \
  "vpaddd %%ymm3, %%" a0 ", %%" a0 "\n vpaddd %%ymm2, %%" a1 ", %%" a1 "\n"
LOOP(maddubs_6x16, "vmovdqa 64(%0), %%ymm0\n vmovdqa 96(%0), %%ymm1\n"
                   TRIPLE("ymm4", "ymm5", "0") TRIPLE("ymm6", "ymm7", "4")
                   TRIPLE("ymm8", "ymm9", "8") TRIPLE("ymm10", "ymm11", "12")
                   TRIPLE("ymm12", "ymm13", "16") TRIPLE("ymm14", "ymm15", "20"))

#define YROW(prefix, a0, a1, off)                                             \
  "vpbroadcastd " off "(%0), %%ymm2\n"                                        \
  prefix "vpdpbusd %%ymm0, %%ymm2, %%" a0 "\n"                                \
  prefix "vpdpbusd %%ymm1, %%ymm2, %%" a1 "\n"
#define YTILE(prefix)                                                         \
  "vmovdqa 128(%0), %%ymm0\n vmovdqa 160(%0), %%ymm1\n"                       \
  YROW(prefix, "ymm4", "ymm5", "0") YROW(prefix, "ymm6", "ymm7", "4")         \
  YROW(prefix, "ymm8", "ymm9", "8") YROW(prefix, "ymm10", "ymm11", "12")      \
  YROW(prefix, "ymm12", "ymm13", "16") YROW(prefix, "ymm14", "ymm15", "20")
// QuantOps' avxvnni tile (6 x 16, 12 VPDPBUSD ymm per k-quad), in the EVEX
// encoding (AVX512-VL + VNNI) and the VEX one (AVX-VNNI alone).
LOOP(vnni_ymm_6x16, YTILE("%{evex%} "))
LOOP(avxvnni_6x16, YTILE("%{vex%} "))

// The float kernel's tile (6 x 16 f32 with ymm): per k 2 B loads, 6
// broadcasts, 12 VFMADD231PS (--float-fma), or 12 VMULPS + 12 VADDPS (the
// documented order: a product rounded, then added).
#define FROW(a0, a1, off)                                                     \
  "vbroadcastss " off "(%0), %%ymm2\n"                                        \
  "vfmadd231ps %%ymm0, %%ymm2, %%" a0 "\n vfmadd231ps %%ymm1, %%ymm2, %%" a1 "\n"
LOOP(f32_fma_6x16, "vmovaps 64(%0), %%ymm0\n vmovaps 96(%0), %%ymm1\n"
                   FROW("ymm4", "ymm5", "0") FROW("ymm6", "ymm7", "4")
                   FROW("ymm8", "ymm9", "8") FROW("ymm10", "ymm11", "12")
                   FROW("ymm12", "ymm13", "16") FROW("ymm14", "ymm15", "20"))
#define MROW(a0, a1, off)                                                     \
  "vbroadcastss " off "(%0), %%ymm2\n"                                        \
  "vmulps %%ymm0, %%ymm2, %%ymm3\n vmulps %%ymm1, %%ymm2, %%ymm2\n"          \
  "vaddps %%ymm3, %%" a0 ", %%" a0 "\n vaddps %%ymm2, %%" a1 ", %%" a1 "\n"
LOOP(f32_muladd_6x16, "vmovaps 64(%0), %%ymm0\n vmovaps 96(%0), %%ymm1\n"
                      MROW("ymm4", "ymm5", "0") MROW("ymm6", "ymm7", "4")
                      MROW("ymm8", "ymm9", "8") MROW("ymm10", "ymm11", "12")
                      MROW("ymm12", "ymm13", "16") MROW("ymm14", "ymm15", "20"))

int main(int argc, char **argv) {
  struct {
    const char *name;
    double (*loop)(void);
    int macs; // per loop body
    const char *what;
    const char *needs; // /proc/cpuinfo flags
  } loops[] = {
      {"madd_6x16", madd_6x16, 12 * 16, "exact (QuantOps madd)", "avx2"},
      {"madd_regs", madd_regs, 12 * 16, "exact, registers only", "avx2"},
      {"madd_free", madd_free, 8 * 16, "8 + 8, adds not consuming the products", "avx2"},
      {"maddubs_6x16", maddubs_6x16, 12 * 32, "saturating (ONNX Runtime AVX2)", "avx2"},
      {"vnni_zmm_12x32", vnni_zmm_12x32, 24 * 64, "exact (QuantOps vnni, VPDPBUSD zmm)",
       "avx512f avx512_vnni"},
      {"vnni_ymm_6x16", vnni_ymm_6x16, 12 * 32, "exact (QuantOps avxvnni tile, EVEX VPDPBUSD ymm)",
       "avx512vl avx512_vnni"},
      {"avxvnni_6x16", avxvnni_6x16, 12 * 32, "exact (QuantOps avxvnni, VEX VPDPBUSD ymm)",
       "avx_vnni"},
      {"amx_32x32", amx_32x32, 4 * 16 * 16 * 64,
       "exact (QuantOps amx, TDPBUSD 2 x 2 tiles)", "amx_tile amx_int8"},
      {"f32_fma_6x16", f32_fma_6x16, 12 * 8, "f32 fused (float kernel --float-fma, ymm)",
       "avx fma"},
      {"f32_muladd_6x16", f32_muladd_6x16, 12 * 8,
       "f32 product then sum (float kernel, ymm)", "avx"},
      {"f32_fma_12x32", f32_fma_12x32, 24 * 16,
       "f32 fused (float kernel --float-fma, zmm)", "avx512f"},
      {"f32_muladd_12x32", f32_muladd_12x32, 24 * 16,
       "f32 product then sum (float kernel, zmm)", "avx512f"},
      {"f32_muladd_4x24", f32_muladd_4x24, 12 * 8,
       "f32 product then sum (float kernel, Zen 4's ymm tile)", "avx512vl"},
  };
  enum { COUNT = sizeof(loops) / sizeof(loops[0]), ROUNDS = 15 };
  _mm_setcsr(_mm_getcsr() | 0x8040); // FTZ | DAZ: no denormal assists
  double best[COUNT];
  int runs[COUNT];
  double ghz = 0;
  for (int i = 0; i < COUNT; i++) {
    best[i] = 1e9;
    runs[i] = cpu_has(loops[i].needs);
  }
  // AMX also needs the tile state from the kernel (and the tiles configured).
  for (int i = 0; i < COUNT; i++)
    if (runs[i] && !strcmp(loops[i].name, "amx_32x32") && !amx_ready()) {
      runs[i] = 0;
      loops[i].needs = "amx_tile amx_int8, and Linux's tile state";
    }
  // Alternate the loops so that a busy moment hits them all alike; keep the
  // best cycles per body of each. The rounds are a second apart: on a
  // shared VM (Zen 3, 2026-11-28) the product-then-sum loop ran either at
  // the FMA loop's rate or 1.65x slower for whole runs of a few seconds
  // (it needs the multiply and the add pipes, VFMADD231PS only the first:
  // likely another guest's thread on the same core taking some), so that
  // a run of back-to-back rounds read one state or the other.
  for (int round = 0; round < ROUNDS; round++, sleep(1))
    for (int i = 0; i < COUNT; i++) {
      if (!runs[i])
        continue;
      double cycle = cycle_seconds();
      double cycles = loops[i].loop() / cycle;
      if (cycles < best[i])
        best[i] = cycles;
      if (1e-9 / cycle > ghz)
        ghz = 1e-9 / cycle;
    }
  FILE *json = argc > 1 ? fopen(argv[1], "w") : NULL;
  if (json)
    fprintf(json, "{\"ghz\": %.3f", ghz);
  printf("| loop | what | cycles per body | MACs per cycle | GOP/s at %.2f GHz |\n",
         ghz);
  printf("|---|---|---|---|---|\n");
  for (int i = 0; i < COUNT; i++) {
    if (!runs[i]) {
      printf("| %s | %s | not on this CPU (%s) | | |\n", loops[i].name,
             loops[i].what, loops[i].needs);
      continue;
    }
    double gops = 2 * loops[i].macs / best[i] * ghz;
    printf("| %s | %s | %.2f | %.1f | %.0f |\n", loops[i].name, loops[i].what,
           best[i], loops[i].macs / best[i], gops);
    if (json)
      fprintf(json, ", \"%s\": %.1f", loops[i].name, gops);
  }
  if (json) {
    fprintf(json, "}\n");
    fclose(json);
  }
  return 0;
}
