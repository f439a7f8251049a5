/* SPDX-License-Identifier: MIT */
/* SSE2 span scanners (the x86-64 baseline): compare, movemask, count trailing zeros.
 *
 * Same contract as scan_scalar.h (same return pointer for every input). Loads never leave
 * [s, e): spans of 16+ bytes use 16-byte loads, the last one overlapping the previous (it ends
 * at e; its bytes before the current position are already known to pass, so no mask is
 * needed); shorter spans use two 8-byte or two 4-byte loads (first and last bytes of the span,
 * overlapping) and only spans under 4 bytes use the scalar loop. Short fields are the common
 * case, so a byte loop after the wide loop would be the slow path of typical traffic.
 *
 * Also the shared x86 helpers: scan_sse42.h, scan_avx2.h and scan_avx512.h build on this. */
#ifndef SIMDHTTP_SCAN_SSE2_H
#define SIMDHTTP_SCAN_SSE2_H

#include <emmintrin.h>
#include <string.h>

#include "../scalar/scan_scalar.h"

#define SH_CTZ(m) ((unsigned)__builtin_ctz(m))

/* Scanners are inlined into the parser core even where GCC's size heuristics would not (the
 * core is one big function): an out-of-line call per span costs a call/ret, register spills
 * and the vector constants rebuilt on every call. */
#define SH_SCAN_INLINE static inline __attribute__((always_inline))

SH_SCAN_INLINE uint32_t sh_load_u32(const uint8_t *p)
{
    uint32_t w;
    memcpy(&w, p, 4); /* one unaligned 4-byte load */
    return w;
}

/* 16 lanes: a[0..7] then b[0..7] (two 8-byte loads, no byte outside them touched) */
SH_SCAN_INLINE __m128i sh_load_8x2(const uint8_t *a, const uint8_t *b)
{
    /* movq a | movq b << 64 */
    return _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(const void *)a),
                              _mm_loadl_epi64((const __m128i *)(const void *)b));
}

/* lanes 0..3: a[0..3], lanes 4..7: b[0..3], lanes 8..15: zero (callers mask them off) */
SH_SCAN_INLINE __m128i sh_load_4x2(const uint8_t *a, const uint8_t *b)
{
    /* movd a | movd b << 32 */
    return _mm_unpacklo_epi32(_mm_cvtsi32_si128((int)sh_load_u32(a)), _mm_cvtsi32_si128((int)sh_load_u32(b)));
}

/* Body of a scanner for a span of fewer than 16 bytes, given a 16-lane stop-mask function:
 * first and last 8 (or 4) bytes in one vector; the overlap needs no care because a stop in
 * the first half returns before the second half is looked at. */
#define SH_X86_SHORT16(stop16, scalar, s, e)                                            \
    do {                                                                                \
        size_t n_ = (size_t)((e) - (s));                                                \
        unsigned m_;                                                                    \
        if (n_ >= 8) {                                                                  \
            m_ = stop16(sh_load_8x2((s), (e)-8));                                       \
            if (m_ & 0xff) return (s) + SH_CTZ(m_);                                     \
            m_ >>= 8;                                                                   \
            return m_ ? (e)-8 + SH_CTZ(m_) : (e);                                       \
        }                                                                               \
        if (n_ >= 4) {                                                                  \
            m_ = stop16(sh_load_4x2((s), (e)-4)) & 0xff;                                \
            if (m_ & 0xf) return (s) + SH_CTZ(m_);                                      \
            m_ >>= 4;                                                                   \
            return m_ ? (e)-4 + SH_CTZ(m_) : (e);                                       \
        }                                                                               \
        return scalar((s), (e));                                                        \
    } while (0)

/* Body of a scanner for a span of 16 or more bytes (p starts at s): 16-byte steps, then one
 * last overlapping step ending at e. */
#define SH_X86_LONG16(stop16, p, e)                                                     \
    do {                                                                                \
        unsigned m_;                                                                    \
        do {                                                                            \
            m_ = stop16(_mm_loadu_si128((const __m128i *)(const void *)(p)));           \
            if (m_) return (p) + SH_CTZ(m_);                                            \
            (p) += 16;                                                                  \
        } while ((e) - (p) >= 16);                                                      \
        if ((p) == (e)) return (e);                                                     \
        m_ = stop16(_mm_loadu_si128((const __m128i *)(const void *)((e)-16)));          \
        return m_ ? (e)-16 + SH_CTZ(m_) : (e);                                          \
    } while (0)

/* ---- stop masks (bit i set: byte i ends the span) ---- */

/* not VCHAR: c <= 0x20 or c >= 0x7f */
SH_SCAN_INLINE unsigned sse2_stop_target(__m128i v)
{
    /* t = c - 0x21 (wraps): VCHAR maps to 0x00..0x5d */
    __m128i t = _mm_sub_epi8(v, _mm_set1_epi8(0x21));
    /* t >= 0x5e unsigned  <=>  max(t, 0x5e) == t */
    __m128i stop = _mm_cmpeq_epi8(_mm_max_epu8(t, _mm_set1_epi8(0x5e)), t);
    /* one bit per byte */
    return (unsigned)_mm_movemask_epi8(stop);
}

/* CTL except HTAB, or DEL */
SH_SCAN_INLINE unsigned sse2_stop_value(__m128i v)
{
    /* c <= 0x1f unsigned  <=>  min(c, 0x1f) == c */
    __m128i ctl = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
    /* c == HTAB */
    __m128i tab = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x09));
    /* c == DEL */
    __m128i del = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f));
    /* (CTL and not HTAB) or DEL, one bit per byte */
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_andnot_si128(tab, ctl), del));
}

/* not a tchar. SSE2 has no byte shuffle, so: outside 0x21..0x7e, or one of the delimiters
 * DQUOTE ( ) , / : ; < = > ? @ [ \ ] { } (RFC 9110 5.6.2), each range one compare. */
SH_SCAN_INLINE unsigned sse2_stop_token(__m128i v)
{
    /* outside VCHAR: c - 0x21 >= 0x5e unsigned */
    __m128i t = _mm_sub_epi8(v, _mm_set1_epi8(0x21));
    __m128i stop = _mm_cmpeq_epi8(_mm_max_epu8(t, _mm_set1_epi8(0x5e)), t);
    /* ":;<=>?@": c - 0x3a <= 6 unsigned */
    t = _mm_sub_epi8(v, _mm_set1_epi8(0x3a));
    stop = _mm_or_si128(stop, _mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8(6)), t));
    /* "[\]": c - 0x5b <= 2 unsigned */
    t = _mm_sub_epi8(v, _mm_set1_epi8(0x5b));
    stop = _mm_or_si128(stop, _mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8(2)), t));
    /* "()": c & ~1 == 0x28 */
    stop = _mm_or_si128(stop, _mm_cmpeq_epi8(_mm_and_si128(v, _mm_set1_epi8((char)0xfe)), _mm_set1_epi8(0x28)));
    /* the single delimiters DQUOTE , / { } */
    __m128i d = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x22)), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x2c)));
    d = _mm_or_si128(d, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x2f)));
    d = _mm_or_si128(d, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x7b)), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7d))));
    /* one bit per byte */
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(stop, d));
}

/* ---- scanners ---- */

SH_SCAN_INLINE const uint8_t *sse2_scan_token(const uint8_t *s, const uint8_t *e)
{
    if (e - s >= 16) SH_X86_LONG16(sse2_stop_token, s, e);
    SH_X86_SHORT16(sse2_stop_token, scalar_scan_token, s, e);
}

SH_SCAN_INLINE const uint8_t *sse2_scan_value(const uint8_t *s, const uint8_t *e)
{
    if (e - s >= 16) SH_X86_LONG16(sse2_stop_value, s, e);
    SH_X86_SHORT16(sse2_stop_value, scalar_scan_value, s, e);
}

SH_SCAN_INLINE const uint8_t *sse2_scan_target(const uint8_t *s, const uint8_t *e)
{
    if (e - s >= 16) SH_X86_LONG16(sse2_stop_target, s, e);
    SH_X86_SHORT16(sse2_stop_target, scalar_scan_target, s, e);
}

#endif
