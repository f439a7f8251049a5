/* SPDX-License-Identifier: MIT */
/* Stage 1, AVX2 (src/stage1.h has the contract): two 32-byte vectors per block; vbad and ntok
 * two nibble lookups that share the high nibble's (9 vector instructions for both where the
 * stop classes of src/isa/avx2/scan_avx2.h take 12; AVX2 callgrind, per message: browser-get head API 2293 -> 2204, get-32h 3249 -> 3102). The
 * constants are read from memory (src/tables.c): GCC otherwise rebuilds each splat with three
 * instructions in every inlined copy, about 9 per block. */
#ifndef SIMDHTTP_STAGE1_AVX2_H
#define SIMDHTTP_STAGE1_AVX2_H

#include "scan_avx2.h"
#include "stage1.h"
#include "tables.h"

#define SH_K(i) _mm256_load_si256((const __m256i *)(const void *)simdhttp_vconst[i])

/* vbad and ntok of 32 bytes from one lookup of the high nibble: each class is a row bitmap of
 * the low nibble (pshufb on v itself: 0 for bytes from 0x80, which are obs-text: not tchar, not
 * vbad) AND the column bit of the high nibble (SH_VK_TCHAR_HI: bit h for h = 0..7). A tchar has
 * a common bit; a vbad byte too, and the saturating add of 0x7f moves "any bit" to bit 7. */
/* a short buffer's zeroed block: two stores, not the `rep stos` gcc makes of a memset there */
#define SH_STAGE1_ZERO64(b)                                                                 \
    (_mm256_storeu_si256((__m256i *)(void *)(b), _mm256_setzero_si256()),                  \
     _mm256_storeu_si256((__m256i *)(void *)((b) + 32), _mm256_setzero_si256()))

/* the five rows, loaded once per head by the head API's walk (src/stage1.h, stage1_block_k) */
typedef struct avx2_stage1_keys {
    __m256i k7f, k0f, tchar_lo, tchar_hi, vbad_lo;
} avx2_stage1_keys;

SH_SCAN_INLINE avx2_stage1_keys avx2_stage1_keys_load(void)
{
    avx2_stage1_keys k = {SH_K(SH_VK_7F), SH_K(SH_VK_0F), SH_K(SH_VK_TCHAR_LO), SH_K(SH_VK_TCHAR_HI),
                          SH_K(SH_VK_VBAD_LO)};
    return k;
}

/* the column bits of v's high nibbles (SH_VK_TCHAR_HI), which every row table is ANDed with
 * (also the cookie pair scan's, src/isa/avx2/isa_avx2.c) */
SH_SCAN_INLINE __m256i avx2_col32(__m256i v, __m256i tchar_hi, __m256i k0f)
{
    return _mm256_shuffle_epi8(tchar_hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), k0f));
}

SH_SCAN_INLINE void avx2_classes32(__m256i v, const avx2_stage1_keys *k, uint64_t *vbad, uint64_t *ntok)
{
    __m256i col = avx2_col32(v, k->tchar_hi, k->k0f);
    __m256i tok = _mm256_and_si256(_mm256_shuffle_epi8(k->tchar_lo, v), col);
    __m256i bad = _mm256_and_si256(_mm256_shuffle_epi8(k->vbad_lo, v), col);
    *ntok = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(tok, _mm256_setzero_si256()));
    *vbad = (uint32_t)_mm256_movemask_epi8(_mm256_adds_epu8(bad, k->k7f));
}

/* The len bytes at lo, 16 <= len < 64 (src/stage1.h, SH_STAGE1_SHORT): two overlapping
 * 32-byte loads, or under 32 bytes two overlapping 16-byte halves of one vector, instead of a
 * zeroed copy read back at once (a store-forwarding stall on each load). */
#define SH_STAGE1_SHORT(lo, len, k, m) avx2_stage1_short(lo, len, k, m)
SH_SCAN_INLINE void avx2_stage1_short(const uint8_t *lo, size_t len, const avx2_stage1_keys *k, sh_masks *m)
{
    uint64_t va, na, vb, nb;
    if (len >= 32) { /* bits 0..31 from lo, len - 32..len - 1 from its last 32 bytes */
        avx2_classes32(_mm256_loadu_si256((const __m256i *)(const void *)lo), k, &va, &na);
        avx2_classes32(_mm256_loadu_si256((const __m256i *)(const void *)(lo + len - 32)), k, &vb, &nb);
        m->vbad = va | vb << (len - 32);
        m->ntok = na | nb << (len - 32);
    } else { /* lane 0 from lo, lane 1 its last 16 bytes: bits 0..15 and len - 16..len - 1 */
        __m256i x = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)lo)),
            _mm_loadu_si128((const __m128i *)(const void *)(lo + len - 16)), 1);
        avx2_classes32(x, k, &va, &na);
        m->vbad = (va & 0xffff) | (va >> 16) << (len - 16);
        m->ntok = (na & 0xffff) | (na >> 16) << (len - 16);
    }
}

SH_SCAN_INLINE void avx2_stage1_k(const uint8_t *p, const avx2_stage1_keys *k, sh_masks *m)
{
    __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
    uint64_t vbad_a, ntok_a, vbad_b, ntok_b;
    avx2_classes32(a, k, &vbad_a, &ntok_a);
    avx2_classes32(b, k, &vbad_b, &ntok_b);
    m->vbad = vbad_a | vbad_b << 32;
    m->ntok = ntok_a | ntok_b << 32;
}
#endif
