/* SPDX-License-Identifier: MIT */
/* The SSE2 path (the x86-64 baseline; no extra flags):
 * the parser core (src/core.h) compiled with this ISA's scanners inlined. */
#include "internal.h"
#include "scan_sse2.h"
#include "stage1_sse2.h"

/* The names the generic code calls (src/core.h, src/stage1_at.h), bound to this ISA's kernels. */
#define SH_VALUE_FROM_LINE_START 1 /* core.h: vector scans are latency-bound */
#define SH_STAGE2_SCANNERS 1 /* core.h: stage 2 finds a line's ends with the scanners (measured, docs/simd.md) */
static SH_ALWAYS_INLINE const uint8_t *scan_token(const uint8_t *s, const uint8_t *e)
{
    return sse2_scan_token(s, e);
}
static SH_ALWAYS_INLINE const uint8_t *scan_value(const uint8_t *s, const uint8_t *e)
{
    return sse2_scan_value(s, e);
}
static SH_ALWAYS_INLINE const uint8_t *scan_target(const uint8_t *s, const uint8_t *e)
{
    return sse2_scan_target(s, e);
}
static SH_ALWAYS_INLINE void stage1_block(const uint8_t *p, sh_masks *m)
{
    sse2_stage1(p, m);
}
#include "core.h"

SH_INTERNAL simdhttp_errno simdhttp__execute_sse2(simdhttp_parser *p, const char *data, size_t len)
{
    return sh_execute(p, data, len);
}

SH_INTERNAL long simdhttp__head_sse2(simdhttp_head *h, simdhttp_type type, const char *buf, size_t len,
                                     const simdhttp_config *cfg, int fields)
{
    return sh_head(h, type, buf, len, cfg, fields);
}

/* The scanners themselves, out of line, for tests/test_scan.c and tests/test_guard.c
 * (hidden: not part of the shared library's ABI). kind: 0 token, 1 value, 2 target. */
SH_INTERNAL const uint8_t *simdhttp__scan_sse2(int kind, const uint8_t *s, const uint8_t *e)
{
    return kind == 0 ? scan_token(s, e) : kind == 1 ? scan_value(s, e) : scan_target(s, e);
}

/* Stage 1 out of line, for tests/test_stage1.c and tests/test_guard.c (hidden). */
SH_INTERNAL void simdhttp__stage1_sse2(const uint8_t *p, const uint8_t *lo, const uint8_t *end, sh_masks *m)
{
    sh_stage1_at(p, lo, end, m);
}
