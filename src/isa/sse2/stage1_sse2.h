/* SPDX-License-Identifier: MIT */
/* Stage 1, SSE2 (src/stage1.h has the contract): four 16-byte vectors per block; vbad and ntok
 * the scanners' stop classes (src/isa/sse2/scan_sse2.h), a movemask each. The SSE4.2-level unit passes
 * the pshufb tchar class of scan_sse42.h instead. */
#ifndef SIMDHTTP_STAGE1_SSE2_H
#define SIMDHTTP_STAGE1_SSE2_H

#include "scan_sse2.h"
#include "stage1.h"

/* The two classes of the 16 bytes at p into bits i..i+15 of m. */
#define SH_STAGE1_16(stop_ntok, p, i, m)                                                 \
    do {                                                                                \
        __m128i v_ = _mm_loadu_si128((const __m128i *)(const void *)((p) + (i)));       \
        (m)->vbad |= (uint64_t)sse2_stop_value(v_) << (i);                              \
        (m)->ntok |= (uint64_t)stop_ntok(v_) << (i);                                    \
    } while (0)

#define SH_STAGE1_64(stop_ntok, p, m)                                                   \
    do {                                                                                \
        (m)->vbad = (m)->ntok = 0;                                                      \
        SH_STAGE1_16(stop_ntok, p, 0, m);                                               \
        SH_STAGE1_16(stop_ntok, p, 16, m);                                              \
        SH_STAGE1_16(stop_ntok, p, 32, m);                                              \
        SH_STAGE1_16(stop_ntok, p, 48, m);                                              \
    } while (0)

SH_SCAN_INLINE void sse2_stage1(const uint8_t *p, sh_masks *m) { SH_STAGE1_64(sse2_stop_token, p, m); }

#endif
