// The zmm loop of int8_ceiling.c, in a file of its own: bench/isa/run.sh
// compiles it with -mavx512f, which the clobbers of zmm16-31 need (the rest
// of int8_ceiling.c must run on AVX2 CPUs). int8_ceiling.c calls it only
// when /proc/cpuinfo lists avx512f and avx512_vnni.
//
//   vnni_zmm_12x32   QuantOps' vnni tile (AVX-512 VNNI): per k-quad 2 B
//                    loads, 12 broadcasts, 24 VPDPBUSD zmm into 24
//                    accumulators (exact u8 x s8 -> i32), 64 MACs each
#include "timed_loop.h"

static int mem[64] __attribute__((aligned(64)));

#define CLOBBERS                                                              \
  : /* no outputs */                                                          \
  : "r"(mem)                                                                  \
  : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",   \
    "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16",    \
    "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24",   \
    "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31", "memory"
#define LOOP(name, body) TIMED_LOOP(, name, body)

#define ZROW(a0, a1, off)                                                     \
  "vpbroadcastd " off "(%0), %%zmm2\n"                                        \
  "vpdpbusd %%zmm0, %%zmm2, %%" a0 "\n vpdpbusd %%zmm1, %%zmm2, %%" a1 "\n"
LOOP(vnni_zmm_12x32, "vmovdqa64 128(%0), %%zmm0\n vmovdqa64 192(%0), %%zmm1\n"
     ZROW("zmm8", "zmm9", "0") ZROW("zmm10", "zmm11", "4")
     ZROW("zmm12", "zmm13", "8") ZROW("zmm14", "zmm15", "12")
     ZROW("zmm16", "zmm17", "16") ZROW("zmm18", "zmm19", "20")
     ZROW("zmm20", "zmm21", "24") ZROW("zmm22", "zmm23", "28")
     ZROW("zmm24", "zmm25", "32") ZROW("zmm26", "zmm27", "36")
     ZROW("zmm28", "zmm29", "40") ZROW("zmm30", "zmm31", "44"))

// The float kernel's zmm tile (12 x 32 f32): per k 2 B loads, 12
// broadcasts, 24 VFMADD231PS zmm, or 24 VMULPS + 24 VADDPS zmm.
#define FZROW(a0, a1, off)                                                    \
  "vbroadcastss " off "(%0), %%zmm2\n"                                        \
  "vfmadd231ps %%zmm0, %%zmm2, %%" a0 "\n vfmadd231ps %%zmm1, %%zmm2, %%" a1 "\n"
LOOP(f32_fma_12x32, "vmovaps 128(%0), %%zmm0\n vmovaps 192(%0), %%zmm1\n"
     FZROW("zmm8", "zmm9", "0") FZROW("zmm10", "zmm11", "4")
     FZROW("zmm12", "zmm13", "8") FZROW("zmm14", "zmm15", "12")
     FZROW("zmm16", "zmm17", "16") FZROW("zmm18", "zmm19", "20")
     FZROW("zmm20", "zmm21", "24") FZROW("zmm22", "zmm23", "28")
     FZROW("zmm24", "zmm25", "32") FZROW("zmm26", "zmm27", "36")
     FZROW("zmm28", "zmm29", "40") FZROW("zmm30", "zmm31", "44"))
#define MZROW(a0, a1, off)                                                    \
  "vbroadcastss " off "(%0), %%zmm2\n"                                        \
  "vmulps %%zmm0, %%zmm2, %%zmm3\n vmulps %%zmm1, %%zmm2, %%zmm2\n"          \
  "vaddps %%zmm3, %%" a0 ", %%" a0 "\n vaddps %%zmm2, %%" a1 ", %%" a1 "\n"
LOOP(f32_muladd_12x32, "vmovaps 128(%0), %%zmm0\n vmovaps 192(%0), %%zmm1\n"
     MZROW("zmm8", "zmm9", "0") MZROW("zmm10", "zmm11", "4")
     MZROW("zmm12", "zmm13", "8") MZROW("zmm14", "zmm15", "12")
     MZROW("zmm16", "zmm17", "16") MZROW("zmm18", "zmm19", "20")
     MZROW("zmm20", "zmm21", "24") MZROW("zmm22", "zmm23", "28")
     MZROW("zmm24", "zmm25", "32") MZROW("zmm26", "zmm27", "36")
     MZROW("zmm28", "zmm29", "40") MZROW("zmm30", "zmm31", "44"))

// The float kernel's ymm tile of a float b on a Zen 4 (4 x 24 f32, the
// documented order; TuningTable.h): per k 3 B loads, 4 broadcasts, 12
// VMULPS + 12 VADDPS ymm into 12 accumulators, the products in ymm16-17
// (AVX-512VL registers, as the kernel's code uses them).
#define MYROW(a0, a1, a2, off)                                                \
  "vbroadcastss " off "(%0), %%ymm3\n"                                        \
  "vmulps %%ymm0, %%ymm3, %%ymm16\n vmulps %%ymm1, %%ymm3, %%ymm17\n"        \
  "vmulps %%ymm2, %%ymm3, %%ymm3\n"                                           \
  "vaddps %%ymm16, %%" a0 ", %%" a0 "\n vaddps %%ymm17, %%" a1 ", %%" a1 "\n" \
  "vaddps %%ymm3, %%" a2 ", %%" a2 "\n"
LOOP(f32_muladd_4x24, "vmovaps 128(%0), %%ymm0\n vmovaps 160(%0), %%ymm1\n"
                      "vmovaps 192(%0), %%ymm2\n"
     MYROW("ymm4", "ymm5", "ymm6", "0") MYROW("ymm7", "ymm8", "ymm9", "4")
     MYROW("ymm10", "ymm11", "ymm12", "8")
     MYROW("ymm13", "ymm14", "ymm15", "12"))
