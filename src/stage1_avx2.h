/* SPDX-License-Identifier: MIT */
/* Stage 1, AVX2 (src/stage1.h has the contract): two 32-byte vectors per block; each class a
 * compare and a movemask (vbad and ntok: the stop classes of src/scan_avx2.h, with their
 * constants read from memory, src/tables.c: GCC otherwise rebuilds each splat with three
 * instructions in every inlined copy, about 9 per block). */
#ifndef SIMDHTTP_STAGE1_AVX2_H
#define SIMDHTTP_STAGE1_AVX2_H

#include "scan_avx2.h"
#include "stage1.h"
#include "tables.h"

#define SH_K(i) _mm256_load_si256((const __m256i *)(const void *)simdhttp_vconst[i])

/* bytes equal to c, one bit per byte */
#define SH_EQ32(v, c) ((uint64_t)(unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8((v), _mm256_set1_epi8(c))))

/* a CTL other than HTAB, or DEL (avx2_stop_value) */
SH_SCAN_INLINE uint64_t avx2_vbad32(__m256i v)
{
    /* c <= 0x1f unsigned, and not HTAB, or DEL */
    __m256i ctl = _mm256_cmpeq_epi8(_mm256_min_epu8(v, SH_K(SH_VK_1F)), v);
    __m256i bad = _mm256_or_si256(_mm256_andnot_si256(_mm256_cmpeq_epi8(v, SH_K(SH_VK_09)), ctl),
                                  _mm256_cmpeq_epi8(v, SH_K(SH_VK_7F)));
    return (uint32_t)_mm256_movemask_epi8(bad);
}

/* not a tchar (avx2_stop_token) */
SH_SCAN_INLINE uint64_t avx2_ntok32(__m256i v)
{
    /* row bitmap of the low nibble AND column bit of the high nibble (per-lane pshufb; the
     * low nibble's lookup takes v itself, as in ssse3_stop_token) */
    __m256i hit = _mm256_and_si256(_mm256_shuffle_epi8(SH_K(SH_VK_TCHAR_LO), v),
                                   _mm256_shuffle_epi8(SH_K(SH_VK_TCHAR_HI), _mm256_and_si256(_mm256_srli_epi16(v, 4), SH_K(SH_VK_0F))));
    /* no common bit: not a tchar */
    return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(hit, _mm256_setzero_si256()));
}

SH_SCAN_INLINE void avx2_stage1(const uint8_t *p, sh_masks *m)
{
    __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
    m->lf = SH_EQ32(a, '\n') | SH_EQ32(b, '\n') << 32;
    m->cr = SH_EQ32(a, '\r') | SH_EQ32(b, '\r') << 32;
    m->colon = SH_EQ32(a, ':') | SH_EQ32(b, ':') << 32;
    m->ws = SH_EQ32(a, ' ') | SH_EQ32(a, '\t') | (SH_EQ32(b, ' ') | SH_EQ32(b, '\t')) << 32;
    m->vbad = avx2_vbad32(a) | avx2_vbad32(b) << 32;
    m->ntok = avx2_ntok32(a) | avx2_ntok32(b) << 32;
}

#endif
