// The AMX loop of int8_ceiling.c, in a file of its own (no compiler flag is
// needed: the instructions are inline assembly). int8_ceiling.c calls it
// only when /proc/cpuinfo lists amx_tile and amx_int8 and amx_ready() got
// the tile state from Linux (arch_prctl ARCH_REQ_XCOMP_PERM, 5.16+).
//
//   amx_32x32   QuantOps' amx register tile: 2 x 2 accumulator tiles of
//               16 x 16 i32 (tmm0-3), two A tiles of 16 rows x 64 u8
//               (tmm4-5) and two B tiles of 16 k-quads x 64 s8 (tmm6-7);
//               per 64-k step 4 TDPBUSD of 16 x 16 x 64 = 16384 MACs each
//               (exact u8 x s8 -> i32), registers only
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "timed_loop.h"

static int mem[64] __attribute__((aligned(64)));

#define CLOBBERS                                                              \
  : /* no outputs */                                                          \
  : "r"(mem)                                                                  \
  : "memory"
#define LOOP(name, body) TIMED_LOOP(, name, body)

// tmm0 += tmm4 . tmm6, tmm1 += tmm4 . tmm7, tmm2 += tmm5 . tmm6,
// tmm3 += tmm5 . tmm7 (AT&T order: B, A, C).
LOOP(amx_32x32, "tdpbusd %%tmm6, %%tmm4, %%tmm0\n tdpbusd %%tmm7, %%tmm4, %%tmm1\n"
                "tdpbusd %%tmm6, %%tmm5, %%tmm2\n tdpbusd %%tmm7, %%tmm5, %%tmm3\n")

/// Asks Linux for the AMX tile state and configures tmm0-7 as 16 rows of
/// 64 bytes (palette 1), their contents zero; 0 where Linux refuses.
int amx_ready(void) {
  enum { ARCH_REQ_XCOMP_PERM = 0x1023, XFEATURE_XTILEDATA = 18 };
  if (syscall(SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) != 0)
    return 0;
  static uint8_t config[64] __attribute__((aligned(64)));
  memset(config, 0, sizeof config);
  config[0] = 1; // palette 1
  for (int t = 0; t < 8; t++) {
    config[16 + 2 * t] = 64; // bytes per row (little-endian u16)
    config[48 + t] = 16;     // rows
  }
  __asm__ volatile("ldtilecfg (%0)\n tilezero %%tmm0\n tilezero %%tmm1\n"
                   "tilezero %%tmm2\n tilezero %%tmm3\n tilezero %%tmm4\n"
                   "tilezero %%tmm5\n tilezero %%tmm6\n tilezero %%tmm7\n"
                   : : "r"(config) : "memory");
  return 1;
}
