/* SPDX-License-Identifier: MIT */
/* Stage 1, AVX2 (src/stage1.h has the contract): two 32-byte vectors per block; each class a
 * compare and a movemask (vbad and ntok: the stop classes of src/scan_avx2.h). */
#ifndef SIMDHTTP_STAGE1_AVX2_H
#define SIMDHTTP_STAGE1_AVX2_H

#include "scan_avx2.h"
#include "stage1.h"

/* bytes equal to c, one bit per byte */
#define SH_EQ32(v, c) ((uint64_t)(unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8((v), _mm256_set1_epi8(c))))

SH_SCAN_INLINE void avx2_stage1(const uint8_t *p, sh_masks *m)
{
    __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
    m->lf = SH_EQ32(a, '\n') | SH_EQ32(b, '\n') << 32;
    m->cr = SH_EQ32(a, '\r') | SH_EQ32(b, '\r') << 32;
    m->colon = SH_EQ32(a, ':') | SH_EQ32(b, ':') << 32;
    m->ws = SH_EQ32(a, ' ') | SH_EQ32(a, '\t') | (SH_EQ32(b, ' ') | SH_EQ32(b, '\t')) << 32;
    m->vbad = (uint64_t)avx2_stop_value(a) | (uint64_t)avx2_stop_value(b) << 32;
    m->ntok = (uint64_t)avx2_stop_token(a) | (uint64_t)avx2_stop_token(b) << 32;
}

#endif
