/* SPDX-License-Identifier: MIT */
/* SSE4.2-level span scanners (compiled with -msse4.2, which includes SSSE3).
 *
 * Differs from SSE2 only in the tchar class: two pshufb (SSSE3) nibble lookups replace the
 * SSE2 chain of range compares. The SSE4.2 string instructions (pcmpestri) are not used: they
 * are microcoded and slow on AMD Zen (docs/simd.md has the numbers). value and target are the
 * SSE2 code, compiled here with SSE4.2 enabled. */
#ifndef SIMDHTTP_SCAN_SSE42_H
#define SIMDHTTP_SCAN_SSE42_H

#include <tmmintrin.h>

#include "../sse2/scan_sse2.h"
#include "tables.h" /* SH_TCHAR_LO_BYTES, SH_TCHAR_HI_BYTES: tchar as a nibble bitmap */

/* not a tchar */
SH_SCAN_INLINE unsigned ssse3_stop_token(__m128i v)
{
    const __m128i lo_tab = _mm_setr_epi8(SH_TCHAR_LO_BYTES);
    const __m128i hi_tab = _mm_setr_epi8(SH_TCHAR_HI_BYTES);
    const __m128i nib = _mm_set1_epi8(0x0f);
    /* high nibble of each byte (16-bit shift, then drop the bits shifted in) */
    __m128i hi = _mm_and_si128(_mm_srli_epi16(v, 4), nib);
    /* row bitmap for the low nibble AND column bit for the high nibble; the low nibble's
     * lookup takes v itself, unmasked: pshufb reads an index's low four bits (and gives 0
     * where bit 7 is set: a byte >= 0x80, whose high-nibble column is 0 anyway) */
    __m128i hit = _mm_and_si128(_mm_shuffle_epi8(lo_tab, v), _mm_shuffle_epi8(hi_tab, hi));
    /* no common bit: not a tchar; one bit per byte */
    return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(hit, _mm_setzero_si128()));
}

SH_SCAN_INLINE const uint8_t *sse42_scan_token(const uint8_t *s, const uint8_t *e)
{
    if (e - s >= 16) SH_X86_LONG16(ssse3_stop_token, s, e);
    SH_X86_SHORT16(ssse3_stop_token, scalar_scan_token, s, e);
}

/* scan_value and scan_target: SSE2's (sse2_scan_value, sse2_scan_target; isa_sse42.c calls them) */

#endif
