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

/* vbad and ntok lanes of 16 bytes, as src/isa/avx2/stage1_avx2.h: a row table per class for the low
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

/* the masks of 64 bytes in four vectors (v0: bytes 0-15 ... v3: 48-63) */
SH_SCAN_INLINE void neon_masks4(uint8x16_t v0, uint8x16_t v1, uint8x16_t v2, uint8x16_t v3, sh_masks *m)
{
    uint8x16_t b0, b1, b2, b3, t0, t1, t2, t3;
    neon_classes16(v0, &b0, &t0);
    neon_classes16(v1, &b1, &t1);
    neon_classes16(v2, &b2, &t2);
    neon_classes16(v3, &b3, &t3);
    m->vbad = neon_mask64(b0, b1, b2, b3);
    m->ntok = neon_mask64(t0, t1, t2, t3);
}

SH_SCAN_INLINE void neon_stage1(const uint8_t *p, sh_masks *m)
{
    neon_masks4(vld1q_u8(p), vld1q_u8(p + 16), vld1q_u8(p + 32), vld1q_u8(p + 48), m);
}

/* The len bytes at lo, 16 <= len < 64 (src/stage1.h, SH_STAGE1_SHORT), as src/isa/avx2/stage1_avx2.h
 * does: the q = len / 16 whole pieces from lo, the last 16 bytes in the places of the rest,
 * moved to their bits after the gather. */
#define SH_STAGE1_SHORT(lo, len, k, m) ((void)(k), neon_stage1_short(lo, len, m))
SH_SCAN_INLINE void neon_stage1_short(const uint8_t *lo, size_t len, sh_masks *m)
{
    size_t q = len / 16, t = len - 16; /* 1 <= q <= 3 */
    neon_masks4(vld1q_u8(lo), vld1q_u8(lo + (q > 1 ? 16 : t)), vld1q_u8(lo + (q > 2 ? 32 : t)),
                vld1q_u8(lo + t), m);
    /* bits 0..16q - 1 are in place; the last 16 bytes' (bits 16q..16q + 15) go to t..t + 15 */
    uint64_t whole = ~0ull >> (64 - 16 * q);
    m->vbad = (m->vbad & whole) | (m->vbad >> (16 * q) & 0xffff) << t;
    m->ntok = (m->ntok & whole) | (m->ntok >> (16 * q) & 0xffff) << t;
}

#endif
