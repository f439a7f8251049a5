/* SPDX-License-Identifier: MIT */
/* Stage 1, AVX-512BW (src/stage1.h has the contract): the block in one 64-byte register, each
 * class one compare straight into a 64-bit mask register, ntok the pshufb nibble lookup of
 * scan_sse42.h across four lanes; a short block is one masked load (lanes past the end are
 * neither read nor faulted on and read as zero, a stop byte: exactly the contract's padding).
 *
 * The unit (src/isa_avx512.c) is compiled with -mavx2 (docs/simd.md: EVEX code throughout the
 * core measured slower), so these two functions carry the AVX-512 target themselves and stay
 * out of line: one call per block (inlined into a unit built with AVX-512 flags it measured
 * level with AVX2, not faster: docs/simd.md). Where the CPU lacks AVX-512, and under valgrind,
 * tests/test_stage1.c checks this file compiled against tests/avx512_model.h, a plain-C model
 * of the nine intrinsics below (SH_AVX512_MODEL), like every path. */
#ifndef SIMDHTTP_STAGE1_AVX512_H
#define SIMDHTTP_STAGE1_AVX512_H

#ifndef SH_AVX512_MODEL
#include <immintrin.h>
#define SH_AVX512_FN __attribute__((target("avx512f,avx512bw"), noinline)) static
#else
#define SH_AVX512_FN static
#endif

#include "stage1.h"

/* the tchar nibble bitmap of scan_sse42.h (SH_TCHAR_LO_BYTES / SH_TCHAR_HI_BYTES), once per
 * 128-bit lane: vpshufb looks up within each lane */
#define SH_X4(...) __VA_ARGS__, __VA_ARGS__, __VA_ARGS__, __VA_ARGS__
static const uint8_t sh_avx512_tchar_lo[64] __attribute__((aligned(64))) = {SH_X4(
    0xe8, 0xfc, 0xf8, 0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0xf8, 0xf8, 0xf4, 0x54, 0xd0, 0x54, 0xf4, 0x70)};
static const uint8_t sh_avx512_tchar_hi[64] __attribute__((aligned(64))) = {SH_X4(
    0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0, 0, 0, 0, 0, 0, 0, 0)};

#define SH_AVX512_CLASSIFY(v, m)                                                         \
    do {                                                                                \
        const __m512i nib_ = _mm512_set1_epi8(0x0f);                                    \
        /* HTAB: in ws, the one CTL allowed in a value */                               \
        __mmask64 tab_ = _mm512_cmpeq_epi8_mask((v), _mm512_set1_epi8('\t'));           \
        (m)->lf = _mm512_cmpeq_epi8_mask((v), _mm512_set1_epi8('\n'));                  \
        (m)->cr = _mm512_cmpeq_epi8_mask((v), _mm512_set1_epi8('\r'));                  \
        (m)->colon = _mm512_cmpeq_epi8_mask((v), _mm512_set1_epi8(':'));                \
        (m)->ws = _mm512_cmpeq_epi8_mask((v), _mm512_set1_epi8(' ')) | tab_;            \
        /* c <= 0x1f unsigned and not HTAB, or DEL */                                   \
        (m)->vbad = (_mm512_cmple_epu8_mask((v), _mm512_set1_epi8(0x1f)) & ~tab_) |     \
                    _mm512_cmpeq_epi8_mask((v), _mm512_set1_epi8(0x7f));                \
        /* row bitmap of the low nibble (v itself: as in ssse3_stop_token) AND column   \
         * bit of the high nibble */                                                    \
        __m512i hit_ = _mm512_and_si512(                                                \
            _mm512_shuffle_epi8(_mm512_loadu_si512(sh_avx512_tchar_lo), (v)),            \
            _mm512_shuffle_epi8(_mm512_loadu_si512(sh_avx512_tchar_hi),                 \
                                _mm512_and_si512(_mm512_srli_epi16((v), 4), nib_)));    \
        /* no common bit: not a tchar */                                                \
        (m)->ntok = _mm512_testn_epi8_mask(hit_, hit_);                                 \
    } while (0)

/* the 64 bytes at p */
SH_AVX512_FN void avx512_stage1(const uint8_t *p, sh_masks *m)
{
    __m512i v = _mm512_loadu_si512((const void *)p);
    SH_AVX512_CLASSIFY(v, m);
}

/* the n < 64 bytes at p, the lanes past them zero (masked load: not read); a zero byte is
 * vbad and ntok: ntok is cleared past the end (src/stage1.h) */
SH_AVX512_FN void avx512_stage1_part(const uint8_t *p, size_t n, sh_masks *m)
{
    __mmask64 in = (__mmask64)((1ull << n) - 1);
    __m512i v = _mm512_maskz_loadu_epi8(in, (const void *)p);
    SH_AVX512_CLASSIFY(v, m);
    m->ntok &= in;
}

#endif
