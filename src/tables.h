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

/* Byte classes as nibble bitmaps, for the vector units' pshufb / tbl lookups (one 16-byte row
 * each; written out here once for every unit and src/tables.c):
 *   SH_TCHAR_LO_BYTES, SH_TCHAR_HI_BYTES: byte c is a tchar iff LO[c & 15] & HI[c >> 4] != 0
 *     (bit h of LO[l]: (h << 4 | l) is a tchar; HI[h] is 1 << h for h < 8, 0 above, so no
 *     byte from 0x80 is a tchar);
 *   SH_VBAD_LO_BYTES: the bytes not allowed in a field value (CTL but HTAB, DEL) in the same
 *     form, against the same HI row: column 0 but HTAB (low nibble 9), all of column 1, DEL
 *     (column 7, low nibble 0xf);
 *   SH_COOKIE_LO_BYTES: RFC 6265 section 4.2.1's cookie-octet (VCHAR but DQUOTE, ',', ';',
 *     '\\'), against the same HI row (the cookie iterator's AVX2 pair scan, src/isa/avx2/isa_avx2.c). */
#define SH_TCHAR_LO_BYTES 0xe8, 0xfc, 0xf8, 0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0xf8, 0xf8, 0xf4, 0x54, 0xd0, 0x54, 0xf4, 0x70
#define SH_TCHAR_HI_BYTES 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0, 0, 0, 0, 0, 0, 0, 0
#define SH_VBAD_LO_BYTES 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x02, 0x03, 0x03, 0x03, 0x03, 0x03, 0x83
#define SH_COOKIE_LO_BYTES 0xf8, 0xfc, 0xf8, 0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0xf4, 0xd8, 0xfc, 0xfc, 0x7c

/* Vector constants of stage 1, 32 bytes each (NEON uses the first 16), defined here so the
 * ISA units load them (one memory operand) instead of rebuilding each splat in every inlined
 * copy (src/isa/avx2/stage1_avx2.h). Rows: SH_VK_* below. */
extern const uint8_t simdhttp_vconst[6][32];
enum { SH_VK_7F, SH_VK_0F, SH_VK_TCHAR_LO, SH_VK_TCHAR_HI, SH_VK_VBAD_LO, SH_VK_COOKIE_LO };

#endif
