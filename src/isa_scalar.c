/* SPDX-License-Identifier: MIT */
/* The portable path: the parser core with the reference scanners. */
#include "scan_scalar.h"
#include "stage1_scalar.h"

#define SH_ISA scalar
#define scan_token scalar_scan_token
#define scan_value scalar_scan_value
#define scan_target scalar_scan_target
#define stage1_block scalar_stage1
#define SH_STAGE2_SCANNERS 1 /* core.h: stage 2 finds a line's ends with the scanners (measured, docs/simd.md) */
#include "core.h"
#include "stage1.h" /* sh_stage1_at, with this unit's stage1_block */

/* Stage 1 out of line, for tests/test_stage1.c and tests/test_guard.c (hidden). */
SH_INTERNAL void simdhttp__stage1_scalar(const uint8_t *p, const uint8_t *lo, const uint8_t *end, sh_masks *m)
{
    sh_stage1_at(p, lo, end, m);
}
