/* AVX-512BW span scanners (compiled with -mavx512bw): 64 bytes per step, compares straight
 * into mask registers (no movemask).
 *
 * The last partial step is a masked load: lanes outside [p, e) are not read (the CPU
 * suppresses faults for them, and ASan checks only the enabled lanes) and come back as zero,
 * which would be a stop byte, so the result is ANDed with the same lane mask. */
#ifndef SIMDHTTP_SCAN_AVX512_H
#define SIMDHTTP_SCAN_AVX512_H

#include <immintrin.h>

#include "scan_sse42.h"

#define SH_CTZ64(m) ((unsigned)__builtin_ctzll(m))

/* Body of an AVX-512 scanner. */
#define SH_X86_SCAN64(stop64, s, e)                                                      \
    do {                                                                                \
        const uint8_t *p_ = (s);                                                        \
        __mmask64 m_;                                                                   \
        while ((e) - p_ >= 64) {                                                        \
            m_ = stop64(_mm512_loadu_si512((const void *)p_));                          \
            if (m_) return p_ + SH_CTZ64(m_);                                           \
            p_ += 64;                                                                   \
        }                                                                               \
        if (p_ == (e)) return (e);                                                      \
        /* lanes [0, e - p) enabled */                                                  \
        __mmask64 k_ = ((__mmask64)1 << ((e)-p_)) - 1;                                  \
        /* masked load: disabled lanes are neither read nor faulted on, and read as 0 */ \
        m_ = stop64(_mm512_maskz_loadu_epi8(k_, (const void *)p_)) & k_;                \
        return m_ ? p_ + SH_CTZ64(m_) : (e);                                            \
    } while (0)

/* not VCHAR */
static inline __mmask64 avx512_stop_target(__m512i v)
{
    /* c - 0x21 > 0x5d unsigned (wrapping subtract maps VCHAR to 0x00..0x5d) */
    return _mm512_cmpgt_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8(0x21)), _mm512_set1_epi8(0x5d));
}

/* CTL except HTAB, or DEL */
static inline __mmask64 avx512_stop_value(__m512i v)
{
    /* c < 0x20 unsigned */
    __mmask64 ctl = _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(0x20));
    /* ... and c != HTAB (compare only in the CTL lanes) */
    ctl = _mm512_mask_cmpneq_epi8_mask(ctl, v, _mm512_set1_epi8(0x09));
    /* or c == DEL */
    return ctl | _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(0x7f));
}

/* not a tchar (nibble bitmap of scan_sse42.h, in all four 128-bit lanes) */
static inline __mmask64 avx512_stop_token(__m512i v)
{
    const __m512i lo_tab = _mm512_broadcast_i32x4(_mm_setr_epi8(SH_TCHAR_LO_BYTES));
    const __m512i hi_tab = _mm512_broadcast_i32x4(_mm_setr_epi8(SH_TCHAR_HI_BYTES));
    const __m512i nib = _mm512_set1_epi8(0x0f);
    /* low nibble of each byte */
    __m512i lo = _mm512_and_si512(v, nib);
    /* high nibble of each byte */
    __m512i hi = _mm512_and_si512(_mm512_srli_epi16(v, 4), nib);
    /* (row bitmap for lo) AND (column bit for hi) == 0: not a tchar */
    return _mm512_testn_epi8_mask(_mm512_shuffle_epi8(lo_tab, lo), _mm512_shuffle_epi8(hi_tab, hi));
}

static inline const uint8_t *avx512_scan_token(const uint8_t *s, const uint8_t *e)
{
    SH_X86_SCAN64(avx512_stop_token, s, e);
}

static inline const uint8_t *avx512_scan_value(const uint8_t *s, const uint8_t *e)
{
    SH_X86_SCAN64(avx512_stop_value, s, e);
}

static inline const uint8_t *avx512_scan_target(const uint8_t *s, const uint8_t *e)
{
    SH_X86_SCAN64(avx512_stop_target, s, e);
}

#endif
