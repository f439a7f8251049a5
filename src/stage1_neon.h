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

/* A whole buffer [lo, end) of 16 to 63 bytes (p in it, or at end), classified in place as
 * src/stage1_avx2.h does: the q = len / 16 whole pieces from lo, then the last 16 bytes
 * (end - 16) in the places of the rest, moved to their bits after the gather; [p, end)'s
 * masks cut out of the buffer's. No zeroed copy read back at once. @return 0 (the caller
 * copies) for other lengths. */
#define SH_STAGE1_SHORT(p, lo, end, k, m) ((void)(k), neon_stage1_short(p, lo, end, m))
SH_SCAN_INLINE int neon_stage1_short(const uint8_t *p, const uint8_t *lo, const uint8_t *end, sh_masks *m)
{
    size_t len = (size_t)(end - lo), n = (size_t)(end - p), q = len / 16, t = len - 16;
    if (len >= 64 || len < 16) return 0;
    /* piece k from lo + 16k while whole (k < q), else from end - 16 */
    uint8x16_t v0 = vld1q_u8(lo), v1 = vld1q_u8(lo + (q > 1 ? 16 : t)), v2 = vld1q_u8(lo + (q > 2 ? 32 : t)),
               v3 = vld1q_u8(lo + t);
    uint8x16_t b0, b1, b2, b3, t0, t1, t2, t3;
    neon_classes16(v0, &b0, &t0);
    neon_classes16(v1, &b1, &t1);
    neon_classes16(v2, &b2, &t2);
    neon_classes16(v3, &b3, &t3);
    uint64_t vb = neon_mask64(b0, b1, b2, b3), nt = neon_mask64(t0, t1, t2, t3);
    /* bits 0..16q - 1 are in place; the last 16 bytes' (bits 16q..16q + 15) go to t..t + 15 */
    uint64_t whole = ~0ull >> (64 - 16 * q);
    vb = (vb & whole) | (vb >> (16 * q) & 0xffff) << t;
    nt = (nt & whole) | (nt >> (16 * q) & 0xffff) << t;
    m->vbad = vb >> (len - n) | ~0ull << n; /* past end: vbad only (n < 64) */
    m->ntok = nt >> (len - n);
    return 1;
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
