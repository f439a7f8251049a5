/* SPDX-License-Identifier: MIT */
/* The AVX-512BW path (-mavx2 from mk/simd.mk; AVX-512 only in the masked tail load, see
 * scan_avx512.h; run only if CPUID and XGETBV report AVX-512BW/VL): the parser core
 * instantiated with this ISA's scanners inlined. */
#include "scan_avx512.h"

#define SH_ISA avx512
#define SH_VALUE_FROM_LINE_START 1 /* core.h: vector scans are latency-bound */
#define scan_token avx512_scan_token
#define scan_value avx512_scan_value
#define scan_target avx512_scan_target
#include "core.h"

/* The scanners themselves, out of line, for tests/test_scan.c and tests/test_guard.c
 * (hidden: not part of the shared library's ABI). kind: 0 token, 1 value, 2 target. */
SH_INTERNAL const uint8_t *simdhttp__scan_avx512(int kind, const uint8_t *s, const uint8_t *e)
{
    return kind == 0 ? scan_token(s, e) : kind == 1 ? scan_value(s, e) : scan_target(s, e);
}
