/* SPDX-License-Identifier: MIT */
/* Stage 1, NEON (src/stage1.h has the contract): four 16-byte vectors per block; the class
 * lanes (0x00/0xFF) become one bit per byte by keeping bit i%8 of lane i and adding
 * neighbours pairwise three times (AArch64 has no movemask). vbad and ntok: two nibble
 * lookups that share the high nibble's (neon_classes16). */
#ifndef SIMDHTTP_STAGE1_NEON_H
#define SIMDHTTP_STAGE1_NEON_H

#include "scan_neon.h"
#include "stage1.h"
#include "tables.h"

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

/* vbad and ntok lanes of 16 bytes, as src/stage1_avx2.h: a row table per class for the low
 * nibble (src/tables.h: SH_VK_TCHAR_LO, SH_VK_VBAD_LO) AND one column lookup for the high
 * nibble (SH_VK_TCHAR_HI: bit h for h = 0..7, none from 0x80); vbad where they share a bit,
 * ntok where they do not (8 operations for both where neon_stop_value and neon_stop_token
 * take 11) */
SH_SCAN_INLINE void neon_classes16(uint8x16_t v, uint8x16_t *vbad, uint8x16_t *ntok)
{
    uint8x16_t lo = vandq_u8(v, vdupq_n_u8(0x0f));
    uint8x16_t col = vqtbl1q_u8(vld1q_u8(simdhttp_vconst[SH_VK_TCHAR_HI]), vshrq_n_u8(v, 4));
    *vbad = vtstq_u8(vqtbl1q_u8(vld1q_u8(simdhttp_vconst[SH_VK_VBAD_LO]), lo), col);
    *ntok = vceqzq_u8(vandq_u8(vqtbl1q_u8(vld1q_u8(simdhttp_vconst[SH_VK_TCHAR_LO]), lo), col));
}

SH_SCAN_INLINE void neon_stage1(const uint8_t *p, sh_masks *m)
{
    uint8x16_t v0 = vld1q_u8(p), v1 = vld1q_u8(p + 16), v2 = vld1q_u8(p + 32), v3 = vld1q_u8(p + 48);
    uint8x16_t b0, b1, b2, b3, t0, t1, t2, t3;
    neon_classes16(v0, &b0, &t0);
    neon_classes16(v1, &b1, &t1);
    neon_classes16(v2, &b2, &t2);
    neon_classes16(v3, &b3, &t3);
    m->vbad = neon_mask64(b0, b1, b2, b3);
    m->ntok = neon_mask64(t0, t1, t2, t3);
}

#endif
