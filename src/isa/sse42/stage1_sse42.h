/* SPDX-License-Identifier: MIT */
/* Stage 1, SSE4.2 level (src/stage1.h has the contract): the SSE2 block with the SSSE3 pshufb
 * nibble lookup for ntok (scan_sse42.h). */
#ifndef SIMDHTTP_STAGE1_SSE42_H
#define SIMDHTTP_STAGE1_SSE42_H

#include "scan_sse42.h"
#include "../sse2/stage1_sse2.h"

SH_SCAN_INLINE void sse42_stage1(const uint8_t *p, sh_masks *m) { SH_STAGE1_64(ssse3_stop_token, p, m); }

#endif
