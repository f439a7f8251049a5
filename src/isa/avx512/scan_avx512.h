/* SPDX-License-Identifier: MIT */
/* AVX-512BW/VL span scanners: the AVX2 scanners with one difference: a span under 32 bytes
 * is one masked load instead of AVX2's 16/8/4-byte ladder.
 *
 * The unit (src/isa/avx512/isa_avx512.c) is compiled with -mavx2 only; the masked load alone is AVX-512
 * code (a target attribute, out of line: the core's spans run to the end of the buffer, so a
 * span under 32 bytes, and the call, come only near the end of the input). Measured on this AMD Zen 4 core (docs/simd.md, scan_bench):
 *   - the whole core built with -mavx512bw -mavx512vl ran 2-3% (gcc) and 3-13% (clang) slower
 *     than the AVX2 unit: clang rewrites compare + vpmovmskb into AVX-512 mask compares + kmov,
 *     and EVEX code is bigger;
 *   - 64-byte (zmm) steps: 12-18% slower per message than 32-byte ones. Fields are short and
 *     each scan sits on the parser's dependency chain, so latency counts, not width (an
 *     unaligned 64-byte load almost always spans two cache lines; Zen 4 splits 512-bit ops);
 *   - compares straight into mask registers (vpcmpub k + kmov): 3-9% slower than compare +
 *     vpmovmskb.
 * The dispatcher runs this unit only where CPUID and XGETBV report AVX-512BW/VL.
 *
 * The masked load: lanes outside [s, e) are not read (the CPU suppresses faults for them, and
 * ASan checks only the enabled lanes) and come back as zero. Zero is a stop byte in every
 * class, so the first zero lane, lane e - s, stands for "no stop before e": no mask needed,
 * and the result is never empty (m has bit e - s set when e - s < 32). */
#ifndef SIMDHTTP_SCAN_AVX512_H
#define SIMDHTTP_SCAN_AVX512_H

#include <immintrin.h>

#include "../avx2/scan_avx2.h"

/* bytes [p, p + n) (n < 32) in lanes 0..n-1, zero in the others; nothing else is read */
__attribute__((target("avx512bw,avx512vl"), noinline)) static __m256i sh_load_masked32(const uint8_t *p, size_t n)
{
    /* masked load: disabled lanes are neither read nor faulted on, and read as 0 */
    return _mm256_maskz_loadu_epi8(((__mmask32)1 << n) - 1, (const void *)p);
}

/* Body of an AVX-512 scanner for a span under 32 bytes: one masked load. (From 32 bytes on,
 * the AVX2 body: 32-byte steps and one overlapping load ending at e.) */
#define SH_X86_SHORT32K(stop32, s, e)                                                   \
    do {                                                                                \
        /* lanes [0, e - s) hold the span, the ones above read as 0: a stop byte, so the \
         * first of them (lane e - s) is exactly "no stop before e" and needs no mask */ \
        unsigned m_ = stop32(sh_load_masked32((s), (size_t)((e) - (s))));               \
        return (s) + SH_CTZ(m_);                                                        \
    } while (0)

SH_SCAN_INLINE const uint8_t *avx512_scan_token(const uint8_t *s, const uint8_t *e)
{
    if (e - s >= 32) SH_X86_LONG32(avx2_stop_token, s, e);
    SH_X86_SHORT32K(avx2_stop_token, s, e);
}

SH_SCAN_INLINE const uint8_t *avx512_scan_value(const uint8_t *s, const uint8_t *e)
{
    if (e - s >= 32) SH_X86_LONG32(avx2_stop_value, s, e);
    SH_X86_SHORT32K(avx2_stop_value, s, e);
}

SH_SCAN_INLINE const uint8_t *avx512_scan_target(const uint8_t *s, const uint8_t *e)
{
    if (e - s >= 32) SH_X86_LONG32(avx2_stop_target, s, e);
    SH_X86_SHORT32K(avx2_stop_target, s, e);
}

#endif
