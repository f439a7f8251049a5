/* SPDX-License-Identifier: MIT */
/* The portable path: the parser core with the reference scanners. */
#include "internal.h"
#include "scan_scalar.h"
#include "stage1_scalar.h"

/* The names the generic code calls (src/core.h, src/stage1_at.h), bound to this ISA's kernels. */
#define SH_STAGE2_SCANNERS 1 /* core.h: stage 2 finds a line's ends with the scanners (measured, docs/simd.md) */
static SH_ALWAYS_INLINE const uint8_t *scan_token(const uint8_t *s, const uint8_t *e)
{
    return scalar_scan_token(s, e);
}
static SH_ALWAYS_INLINE const uint8_t *scan_value(const uint8_t *s, const uint8_t *e)
{
    return scalar_scan_value(s, e);
}
static SH_ALWAYS_INLINE const uint8_t *scan_target(const uint8_t *s, const uint8_t *e)
{
    return scalar_scan_target(s, e);
}
static SH_ALWAYS_INLINE void stage1_block(const uint8_t *p, sh_masks *m)
{
    scalar_stage1(p, m);
}
#include "core.h"

SH_INTERNAL simdhttp_errno simdhttp__execute_scalar(simdhttp_parser *p, const char *data, size_t len)
{
    return sh_execute(p, data, len);
}

SH_INTERNAL long simdhttp__head_scalar(simdhttp_head *h, simdhttp_type type, const char *buf, size_t len,
                                       const simdhttp_config *cfg, int fields)
{
    return sh_head(h, type, buf, len, cfg, fields);
}

/* Stage 1 out of line, for tests/test_stage1.c and tests/test_guard.c (hidden). */
SH_INTERNAL void simdhttp__stage1_scalar(const uint8_t *p, const uint8_t *lo, const uint8_t *end, sh_masks *m)
{
    sh_stage1_at(p, lo, end, m);
}
