/* SPDX-License-Identifier: MIT */
/* Stage 1, AVX-512BW (src/stage1.h has the contract): the block in one 64-byte register; vbad
 * and ntok the nibble lookups of src/isa/avx2/stage1_avx2.h (two row tables for the low nibble AND one
 * column lookup for the high nibble, across four lanes), each tested straight into a 64-bit
 * mask register; a short block is one masked load (lanes past the end are neither read nor
 * faulted on and read as zero, a stop byte: exactly the contract's padding).
 *
 * The unit (src/isa/avx512/isa_avx512.c) is compiled with -mavx2 (docs/simd.md: EVEX code throughout the
 * core measured slower), so these two functions carry the AVX-512 target themselves and stay
 * out of line: one call per block (inlined into a unit built with AVX-512 flags it measured
 * level with AVX2, not faster: docs/simd.md). Where the CPU lacks AVX-512, and under valgrind,
 * tests/test_stage1.c checks this file compiled against tests/avx512_model.h, a plain-C model
 * of the intrinsics below (SH_AVX512_MODEL), like every path. */
#ifndef SIMDHTTP_STAGE1_AVX512_H
#define SIMDHTTP_STAGE1_AVX512_H

#ifndef SH_AVX512_MODEL
#include <immintrin.h>
#define SH_AVX512_FN __attribute__((target("avx512f,avx512bw"), noinline)) static
#else
#define SH_AVX512_FN static
#endif

#include "stage1.h"
#include "tables.h"

/* the nibble bitmaps of tables.h, once per 128-bit lane: vpshufb looks up within each lane */
#define SH_X4(...) __VA_ARGS__, __VA_ARGS__, __VA_ARGS__, __VA_ARGS__
static const uint8_t sh_avx512_tchar_lo[64] __attribute__((aligned(64))) = {SH_X4(SH_TCHAR_LO_BYTES)};
static const uint8_t sh_avx512_tchar_hi[64] __attribute__((aligned(64))) = {SH_X4(SH_TCHAR_HI_BYTES)};
static const uint8_t sh_avx512_vbad_lo[64] __attribute__((aligned(64))) = {SH_X4(SH_VBAD_LO_BYTES)};

#define SH_AVX512_CLASSIFY(v, m)                                                         \
    do {                                                                                \
        /* the column bit of the high nibble; the row bitmaps of the low nibble take v  \
         * itself (pshufb reads an index's low four bits and gives 0 from 0x80: obs-text \
         * is no tchar and no vbad byte) */                                             \
        __m512i col_ = _mm512_shuffle_epi8(                                             \
            _mm512_loadu_si512(sh_avx512_tchar_hi),                                     \
            _mm512_and_si512(_mm512_srli_epi16((v), 4), _mm512_set1_epi8(0x0f)));        \
        /* a common bit: a vbad byte; none: not a tchar */                              \
        (m)->vbad = _mm512_test_epi8_mask(                                              \
            _mm512_shuffle_epi8(_mm512_loadu_si512(sh_avx512_vbad_lo), (v)), col_);      \
        (m)->ntok = _mm512_testn_epi8_mask(                                             \
            _mm512_shuffle_epi8(_mm512_loadu_si512(sh_avx512_tchar_lo), (v)), col_);     \
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
