/* SPDX-License-Identifier: MIT */
/* The SSE4.2-level path (pshufb tchar lookup; -msse4.2 from mk/simd.mk):
 * the parser core instantiated with this ISA's scanners inlined. */
#include "scan_sse42.h"
#include "stage1_sse42.h"

#define SH_ISA sse42
#define SH_VALUE_FROM_LINE_START 1 /* core.h: vector scans are latency-bound */
#define scan_token sse42_scan_token
#define scan_value sse42_scan_value
#define scan_target sse42_scan_target
#define stage1_block sse42_stage1
#define SH_STAGE2_SCANNERS 1 /* core.h: stage 2 finds a line's ends with the scanners (measured, docs/simd.md) */
#include "core.h"
#include "stage1.h" /* sh_stage1_at, with this unit's stage1_block */

/* The scanners themselves, out of line, for tests/test_scan.c and tests/test_guard.c
 * (hidden: not part of the shared library's ABI). kind: 0 token, 1 value, 2 target. */
SH_INTERNAL const uint8_t *simdhttp__scan_sse42(int kind, const uint8_t *s, const uint8_t *e)
{
    return kind == 0 ? scan_token(s, e) : kind == 1 ? scan_value(s, e) : scan_target(s, e);
}

/* Stage 1 out of line, for tests/test_stage1.c and tests/test_guard.c (hidden). */
SH_INTERNAL void simdhttp__stage1_sse42(const uint8_t *p, const uint8_t *lo, const uint8_t *end, sh_masks *m)
{
    sh_stage1_at(p, lo, end, m);
}
