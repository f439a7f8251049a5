/* SPDX-License-Identifier: MIT */
/* Byte class tables (defined once in tables.c). */
#ifndef SIMDHTTP_TABLES_H
#define SIMDHTTP_TABLES_H

#include <stdint.h>

/* 1 for tchar: "!#$%&'*+-.^_`|~" DIGIT ALPHA (RFC 9110 section 5.6.2) */
extern const uint8_t simdhttp_tchar[256];
/* 1 for a byte that ends a field-value scan: CTL except HTAB, and DEL (RFC 9110 5.5) */
extern const uint8_t simdhttp_value_stop[256];

/* a hex digit's value plus one, 0 for any other byte: `simdhttp_hex1[c] - 1u` > 15 for a non-digit */
extern const uint8_t simdhttp_hex1[256];

/* Vector constants of stage 1, 32 bytes each (NEON uses the first 16), defined here so the
 * ISA units load them (one memory operand) instead of rebuilding each splat in every inlined
 * copy (src/stage1_avx2.h). Rows: SH_VK_* below. */
extern const uint8_t simdhttp_vconst[5][32];
enum { SH_VK_7F, SH_VK_0F, SH_VK_TCHAR_LO, SH_VK_TCHAR_HI, SH_VK_VBAD_LO };

#endif
