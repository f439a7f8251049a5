/* AVX-512BW/VL span scanners (compiled with -mavx512bw -mavx512vl): 32-byte vectors whose
 * compares go straight into mask registers (no movemask), and one masked load for the tail.
 *
 * Why 32 and not 64 bytes: fields are short and each scan sits on the parser's dependency
 * chain, so latency counts, not width. Measured on this AMD Zen core (docs/simd.md): the
 * 64-byte (zmm) version was 12-18% slower per message than this one (an unaligned 64-byte load
 * almost always spans two cache lines, and Zen splits 512-bit ops in two halves).
 *
 * The tail (under 32 bytes left) is a masked load: lanes outside [p, e) are not read (the CPU
 * suppresses faults for them, and ASan checks only the enabled lanes) and come back as zero,
 * which would be a stop byte, so the result is ANDed with the same lane mask. */
#ifndef SIMDHTTP_SCAN_AVX512_H
#define SIMDHTTP_SCAN_AVX512_H

#include <immintrin.h>

#include "scan_sse42.h"

/* Body of an AVX-512 scanner. */
#define SH_X86_SCAN32K(stop32, s, e)                                                     \
    do {                                                                                \
        const uint8_t *p_ = (s);                                                        \
        __mmask32 m_;                                                                   \
        while ((e) - p_ >= 32) {                                                        \
            m_ = stop32(_mm256_loadu_si256((const __m256i *)(const void *)p_));         \
            if (m_) return p_ + SH_CTZ(m_);                                             \
            p_ += 32;                                                                   \
        }                                                                               \
        if (p_ == (e)) return (e);                                                      \
        /* lanes [0, e - p) enabled */                                                  \
        __mmask32 k_ = ((__mmask32)1 << ((e)-p_)) - 1;                                  \
        /* masked load: disabled lanes are neither read nor faulted on, and read as 0 */ \
        m_ = stop32(_mm256_maskz_loadu_epi8(k_, (const void *)p_)) & k_;                \
        return m_ ? p_ + SH_CTZ(m_) : (e);                                              \
    } while (0)

/* not VCHAR */
SH_SCAN_INLINE __mmask32 avx512_stop_target(__m256i v)
{
    /* c - 0x21 > 0x5d unsigned (wrapping subtract maps VCHAR to 0x00..0x5d) */
    return _mm256_cmpgt_epu8_mask(_mm256_sub_epi8(v, _mm256_set1_epi8(0x21)), _mm256_set1_epi8(0x5d));
}

/* CTL except HTAB, or DEL: three independent compares */
SH_SCAN_INLINE __mmask32 avx512_stop_value(__m256i v)
{
    /* c < 0x20 unsigned */
    __mmask32 ctl = _mm256_cmplt_epu8_mask(v, _mm256_set1_epi8(0x20));
    /* c == HTAB */
    __mmask32 tab = _mm256_cmpeq_epi8_mask(v, _mm256_set1_epi8(0x09));
    /* (CTL and not HTAB) or c == DEL */
    return (ctl & ~tab) | _mm256_cmpeq_epi8_mask(v, _mm256_set1_epi8(0x7f));
}

/* not a tchar (nibble bitmap of scan_sse42.h, in both 128-bit lanes) */
SH_SCAN_INLINE __mmask32 avx512_stop_token(__m256i v)
{
    const __m256i lo_tab = _mm256_setr_epi8(SH_TCHAR_LO_BYTES, SH_TCHAR_LO_BYTES);
    const __m256i hi_tab = _mm256_setr_epi8(SH_TCHAR_HI_BYTES, SH_TCHAR_HI_BYTES);
    const __m256i nib = _mm256_set1_epi8(0x0f);
    /* low nibble of each byte */
    __m256i lo = _mm256_and_si256(v, nib);
    /* high nibble of each byte */
    __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), nib);
    /* (row bitmap for lo) AND (column bit for hi) == 0: not a tchar, straight into a mask */
    return _mm256_testn_epi8_mask(_mm256_shuffle_epi8(lo_tab, lo), _mm256_shuffle_epi8(hi_tab, hi));
}

SH_SCAN_INLINE const uint8_t *avx512_scan_token(const uint8_t *s, const uint8_t *e)
{
    SH_X86_SCAN32K(avx512_stop_token, s, e);
}

SH_SCAN_INLINE const uint8_t *avx512_scan_value(const uint8_t *s, const uint8_t *e)
{
    SH_X86_SCAN32K(avx512_stop_value, s, e);
}

SH_SCAN_INLINE const uint8_t *avx512_scan_target(const uint8_t *s, const uint8_t *e)
{
    SH_X86_SCAN32K(avx512_stop_target, s, e);
}

#endif
