/* SPDX-License-Identifier: MIT */
/* The AVX2 path (-mavx2 from mk/simd.mk; run only if CPUID and XGETBV say so):
 * the parser core instantiated with this ISA's scanners inlined. */
#include "scan_avx2.h"
#include "stage1_avx2.h"

#define SH_ISA avx2
#define SH_VALUE_FROM_LINE_START 1 /* core.h: vector scans are latency-bound */
#define scan_token avx2_scan_token
#define scan_value avx2_scan_value
#define scan_target avx2_scan_target
#define stage1_block avx2_stage1
#define stage1_block_k avx2_stage1_k
#define stage1_keys avx2_stage1_keys
#define stage1_keys_load avx2_stage1_keys_load
#include "core.h"
#include "stage1.h" /* sh_stage1_at, with this unit's stage1_block */

/* The scanners themselves, out of line, for tests/test_scan.c and tests/test_guard.c
 * (hidden: not part of the shared library's ABI). kind: 0 token, 1 value, 2 target. */
SH_INTERNAL const uint8_t *simdhttp__scan_avx2(int kind, const uint8_t *s, const uint8_t *e)
{
    return kind == 0 ? scan_token(s, e) : kind == 1 ? scan_value(s, e) : scan_target(s, e);
}

/* Stage 1 out of line, for tests/test_stage1.c and tests/test_guard.c (hidden). */
SH_INTERNAL void simdhttp__stage1_avx2(const uint8_t *p, const uint8_t *lo, const uint8_t *end, sh_masks *m)
{
    sh_stage1_at(p, lo, end, m);
}
