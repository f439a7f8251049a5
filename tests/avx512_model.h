/* SPDX-License-Identifier: MIT */
/* A plain-C model of the AVX-512BW intrinsics src/isa/avx512/stage1_avx512.h uses, so that its code runs
 * (and is tested, tests/test_stage1.c) on machines without AVX-512, valgrind included. Each
 * function does what Intel's intrinsics guide says of the instruction, lane by lane. The
 * masked load reads only the enabled lanes, as the instruction does. */
#ifndef SIMDHTTP_AVX512_MODEL_H
#define SIMDHTTP_AVX512_MODEL_H

#include <stdint.h>
#include <string.h>

#define SH_AVX512_MODEL 1
typedef struct {
    uint8_t b[64];
} sh_model_m512i;
#define __m512i sh_model_m512i
#define __mmask64 uint64_t

static inline __m512i _mm512_loadu_si512(const void *p)
{
    __m512i v;
    memcpy(v.b, p, 64);
    return v;
}
/* lanes whose mask bit is clear: not read, zero */
static inline __m512i _mm512_maskz_loadu_epi8(__mmask64 k, const void *p)
{
    __m512i v;
    for (int i = 0; i < 64; i++) v.b[i] = (k >> i & 1) ? ((const uint8_t *)p)[i] : 0;
    return v;
}
static inline __m512i _mm512_set1_epi8(char c)
{
    __m512i v;
    memset(v.b, (uint8_t)c, 64);
    return v;
}
/* vptestmb: bit i set where a[i] & b[i] != 0 */
static inline __mmask64 _mm512_test_epi8_mask(__m512i a, __m512i b)
{
    __mmask64 k = 0;
    for (int i = 0; i < 64; i++) k |= (uint64_t)((a.b[i] & b.b[i]) != 0) << i;
    return k;
}
/* vptestnmb: bit i set where a[i] & b[i] is zero */
static inline __mmask64 _mm512_testn_epi8_mask(__m512i a, __m512i b)
{
    __mmask64 k = 0;
    for (int i = 0; i < 64; i++) k |= (uint64_t)((a.b[i] & b.b[i]) == 0) << i;
    return k;
}
static inline __m512i _mm512_and_si512(__m512i a, __m512i b)
{
    for (int i = 0; i < 64; i++) a.b[i] &= b.b[i];
    return a;
}
/* each 16-bit lane shifted right (bits cross from the high byte into the low one) */
static inline __m512i _mm512_srli_epi16(__m512i a, int n)
{
    for (int i = 0; i < 64; i += 2) {
        unsigned w = (unsigned)(a.b[i] | a.b[i + 1] << 8) >> n;
        a.b[i] = (uint8_t)w;
        a.b[i + 1] = (uint8_t)(w >> 8);
    }
    return a;
}
/* vpshufb: within each 128-bit lane, byte i = bit 7 of b[i] ? 0 : a[lane + (b[i] & 15)] */
static inline __m512i _mm512_shuffle_epi8(__m512i a, __m512i b)
{
    __m512i r;
    for (int i = 0; i < 64; i++) r.b[i] = (b.b[i] & 0x80) ? 0 : a.b[(i & ~15) + (b.b[i] & 15)];
    return r;
}

#endif
