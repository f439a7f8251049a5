/* SPDX-License-Identifier: MIT */
/* Stage 1, NEON (src/stage1.h has the contract): four 16-byte vectors per block; the compare
 * results (0x00/0xFF lanes) become one bit per byte by keeping bit i%8 of lane i and adding
 * neighbours pairwise three times (AArch64 has no movemask). vbad and ntok are the stop
 * classes of src/scan_neon.h. */
#ifndef SIMDHTTP_STAGE1_NEON_H
#define SIMDHTTP_STAGE1_NEON_H

#include "scan_neon.h"
#include "stage1.h"

/* 64 compare lanes (a: bytes 0-15 ... d: 48-63) -> 64 bits */
SH_SCAN_INLINE uint64_t neon_mask64(uint8x16_t a, uint8x16_t b, uint8x16_t c, uint8x16_t d)
{
    static const uint8_t w[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    const uint8x16_t wv = vld1q_u8(w);
    /* each lane keeps its own bit; then bytes 2k, 2k+1 add (disjoint bits: no carries) */
    uint8x16_t ab = vpaddq_u8(vandq_u8(a, wv), vandq_u8(b, wv));
    uint8x16_t cd = vpaddq_u8(vandq_u8(c, wv), vandq_u8(d, wv));
    uint8x16_t s = vpaddq_u8(ab, cd);
    s = vpaddq_u8(s, s);
    return vgetq_lane_u64(vreinterpretq_u64_u8(s), 0);
}

#define SH_NEON_CLASS(f) neon_mask64(f(v0), f(v1), f(v2), f(v3))
#define SH_NEON_EQ(c) neon_mask64(vceqq_u8(v0, vdupq_n_u8(c)), vceqq_u8(v1, vdupq_n_u8(c)), \
                                  vceqq_u8(v2, vdupq_n_u8(c)), vceqq_u8(v3, vdupq_n_u8(c)))

SH_SCAN_INLINE void neon_stage1(const uint8_t *p, sh_masks *m)
{
    uint8x16_t v0 = vld1q_u8(p), v1 = vld1q_u8(p + 16), v2 = vld1q_u8(p + 32), v3 = vld1q_u8(p + 48);
    m->lf = SH_NEON_EQ('\n');
    m->cr = SH_NEON_EQ('\r');
    m->colon = SH_NEON_EQ(':');
    m->ws = SH_NEON_EQ(' ') | SH_NEON_EQ('\t');
    m->vbad = SH_NEON_CLASS(neon_stop_value);
    m->ntok = SH_NEON_CLASS(neon_stop_token);
}

#endif
