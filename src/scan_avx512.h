/* AVX-512BW/VL span scanners (compiled with -mavx512bw -mavx512vl): the AVX2 scanners with
 * one difference, the tail: under 32 bytes left, one masked load replaces AVX2's 16/8/4-byte
 * ladder.
 *
 * What was measured on this AMD Zen 4 core (docs/simd.md, scan_bench, thread CPU time):
 *   - 64-byte (zmm) steps: 12-18% slower per message than 32-byte ones. Fields are short and
 *     each scan sits on the parser's dependency chain, so latency counts, not width (an
 *     unaligned 64-byte load almost always spans two cache lines; Zen 4 splits 512-bit ops);
 *   - compares straight into mask registers (vpcmpub k + kmov): 3-9% slower than AVX2's
 *     compare + vpmovmskb, so the classifiers are AVX2's.
 *
 * The masked load: lanes outside [p, e) are not read (the CPU suppresses faults for them, and
 * ASan checks only the enabled lanes) and come back as zero, which would be a stop byte, so
 * the result is ANDed with the same lane mask. */
#ifndef SIMDHTTP_SCAN_AVX512_H
#define SIMDHTTP_SCAN_AVX512_H

#include <immintrin.h>

#include "scan_avx2.h"

/* Body of an AVX-512 scanner: the AVX2 classifiers (compare + movemask: measured faster here
 * than compares into mask registers + kmov, docs/simd.md) on 32-byte steps; the tail under
 * 32 bytes is one masked load instead of AVX2's 16/8/4-byte ladder. */
#define SH_X86_SCAN32K(stop32, s, e)                                                     \
    do {                                                                                \
        const uint8_t *p_ = (s);                                                        \
        unsigned m_;                                                                    \
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

SH_SCAN_INLINE const uint8_t *avx512_scan_token(const uint8_t *s, const uint8_t *e)
{
    SH_X86_SCAN32K(avx2_stop_token, s, e);
}

SH_SCAN_INLINE const uint8_t *avx512_scan_value(const uint8_t *s, const uint8_t *e)
{
    SH_X86_SCAN32K(avx2_stop_value, s, e);
}

SH_SCAN_INLINE const uint8_t *avx512_scan_target(const uint8_t *s, const uint8_t *e)
{
    SH_X86_SCAN32K(avx2_stop_target, s, e);
}

#endif
