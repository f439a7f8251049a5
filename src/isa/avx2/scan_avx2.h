/* SPDX-License-Identifier: MIT */
/* AVX2 span scanners (compiled with -mavx2): 32 bytes per step.
 *
 * Same classifiers as SSE2 (value, target) and SSSE3 (tchar nibble lookup), widened. A span of
 * 32+ bytes ends with one overlapping 32-byte load ending at e; a shorter one takes one
 * 16-byte step (plus an overlapping one) and then the 8x2 / 4x2 loads of scan_sse2.h, so no
 * load leaves [s, e) and no byte loop runs for spans of 4+ bytes. */
#ifndef SIMDHTTP_SCAN_AVX2_H
#define SIMDHTTP_SCAN_AVX2_H

#include <immintrin.h>

#include "../sse42/scan_sse42.h"

/* Body of a scanner for a span of 32 or more bytes (p starts at s). */
#define SH_X86_LONG32(stop32, p, e)                                                     \
    do {                                                                                \
        unsigned m_;                                                                    \
        do {                                                                            \
            m_ = stop32(_mm256_loadu_si256((const __m256i *)(const void *)(p)));        \
            if (m_) return (p) + SH_CTZ(m_);                                            \
            (p) += 32;                                                                  \
        } while ((e) - (p) >= 32);                                                      \
        if ((p) == (e)) return (e);                                                     \
        m_ = stop32(_mm256_loadu_si256((const __m256i *)(const void *)((e)-32)));       \
        return m_ ? (e)-32 + SH_CTZ(m_) : (e);                                          \
    } while (0)

/* Body for a span of 16..31 bytes: first 16, then the last 16 (overlapping). */
#define SH_X86_MID16(stop16, s, e)                                                      \
    do {                                                                                \
        unsigned m_ = stop16(_mm_loadu_si128((const __m128i *)(const void *)(s)));      \
        if (m_) return (s) + SH_CTZ(m_);                                                \
        m_ = stop16(_mm_loadu_si128((const __m128i *)(const void *)((e)-16)));          \
        return m_ ? (e)-16 + SH_CTZ(m_) : (e);                                          \
    } while (0)

/* not VCHAR */
SH_SCAN_INLINE unsigned avx2_stop_target(__m256i v)
{
    /* t = c - 0x21 (wraps): VCHAR maps to 0x00..0x5d */
    __m256i t = _mm256_sub_epi8(v, _mm256_set1_epi8(0x21));
    /* t >= 0x5e unsigned  <=>  max(t, 0x5e) == t; one bit per byte */
    return (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(t, _mm256_set1_epi8(0x5e)), t));
}

/* CTL except HTAB, or DEL */
SH_SCAN_INLINE unsigned avx2_stop_value(__m256i v)
{
    /* c <= 0x1f unsigned */
    __m256i ctl = _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x1f)), v);
    /* c == HTAB */
    __m256i tab = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x09));
    /* c == DEL */
    __m256i del = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x7f));
    /* (CTL and not HTAB) or DEL, one bit per byte */
    return (unsigned)_mm256_movemask_epi8(_mm256_or_si256(_mm256_andnot_si256(tab, ctl), del));
}

/* not a tchar (nibble bitmap of scan_sse42.h, in both 128-bit lanes) */
SH_SCAN_INLINE unsigned avx2_stop_token(__m256i v)
{
    const __m256i lo_tab = _mm256_setr_epi8(SH_TCHAR_LO_BYTES, SH_TCHAR_LO_BYTES);
    const __m256i hi_tab = _mm256_setr_epi8(SH_TCHAR_HI_BYTES, SH_TCHAR_HI_BYTES);
    const __m256i nib = _mm256_set1_epi8(0x0f);
    /* high nibble of each byte */
    __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), nib);
    /* row bitmap for the low nibble AND column bit for the high nibble (per-lane pshufb; the
     * low nibble's lookup as in ssse3_stop_token) */
    __m256i hit = _mm256_and_si256(_mm256_shuffle_epi8(lo_tab, v), _mm256_shuffle_epi8(hi_tab, hi));
    /* no common bit: not a tchar; one bit per byte */
    return (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(hit, _mm256_setzero_si256()));
}

SH_SCAN_INLINE const uint8_t *avx2_scan_token(const uint8_t *s, const uint8_t *e)
{
    if (e - s >= 32) SH_X86_LONG32(avx2_stop_token, s, e);
    if (e - s >= 16) SH_X86_MID16(ssse3_stop_token, s, e);
    SH_X86_SHORT16(ssse3_stop_token, scalar_scan_token, s, e);
}

SH_SCAN_INLINE const uint8_t *avx2_scan_value(const uint8_t *s, const uint8_t *e)
{
    if (e - s >= 32) SH_X86_LONG32(avx2_stop_value, s, e);
    if (e - s >= 16) SH_X86_MID16(sse2_stop_value, s, e);
    SH_X86_SHORT16(sse2_stop_value, scalar_scan_value, s, e);
}

SH_SCAN_INLINE const uint8_t *avx2_scan_target(const uint8_t *s, const uint8_t *e)
{
    if (e - s >= 32) SH_X86_LONG32(avx2_stop_target, s, e);
    if (e - s >= 16) SH_X86_MID16(sse2_stop_target, s, e);
    SH_X86_SHORT16(sse2_stop_target, scalar_scan_target, s, e);
}

#endif
