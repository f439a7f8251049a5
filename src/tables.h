/* SPDX-License-Identifier: MIT */
/* Byte class tables (defined once in tables.c). */
#ifndef SIMDHTTP_TABLES_H
#define SIMDHTTP_TABLES_H

#include <stdint.h>

/* 1 for tchar: "!#$%&'*+-.^_`|~" DIGIT ALPHA (RFC 9110 section 5.6.2) */
extern const uint8_t simdhttp_tchar[256];
/* 1 for a byte that ends a field-value scan: CTL except HTAB, and DEL (RFC 9110 5.5) */
extern const uint8_t simdhttp_value_stop[256];

#endif
