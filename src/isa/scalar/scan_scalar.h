/* SPDX-License-Identifier: MIT */
/* Portable span scanners: the reference every SIMD path is tested against.
 *
 * Contract shared by every scan_<isa>.h (each defines the same three functions, static inline):
 *   scan_token(s, e)  first p in [s, e) whose byte is not a tchar (RFC 9110 5.6.2), else e
 *   scan_value(s, e)  first p whose byte is a CTL other than HTAB, or DEL (0x00-0x08,
 *                     0x0A-0x1F, 0x7F), else e. SP, HTAB, VCHAR and obs-text pass.
 *   scan_target(s, e) first p whose byte is not VCHAR (<= 0x20 or >= 0x7F), else e
 * None may read a byte outside [s, e) in a way that can fault or that ASan can see. */
#ifndef SIMDHTTP_SCAN_SCALAR_H
#define SIMDHTTP_SCAN_SCALAR_H

#include <string.h>

#include "tables.h"

static inline __attribute__((always_inline)) const uint8_t *scalar_scan_token(const uint8_t *s, const uint8_t *e)
{
    while (e - s >= 4) {
        if (!simdhttp_tchar[s[0]]) return s;
        if (!simdhttp_tchar[s[1]]) return s + 1;
        if (!simdhttp_tchar[s[2]]) return s + 2;
        if (!simdhttp_tchar[s[3]]) return s + 3;
        s += 4;
    }
    while (s < e && simdhttp_tchar[*s]) s++;
    return s;
}

/* SWAR: 8 bytes per step, exact per byte (no carries cross a byte: every sum stays < 0x100).
 * Each mask has bit 7 of a byte set where that byte stops the scan. */
#define SH_B(x) (0x0101010101010101ull * (x))

static inline uint64_t scalar_load8(const uint8_t *s)
{
    uint64_t v;
    memcpy(&v, s, 8);
    return v;
}

/* first stop byte of a mask; the lowest address is the least significant byte on LE */
static inline unsigned scalar_first(uint64_t m)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return (unsigned)__builtin_clzll(m) >> 3;
#else
    return (unsigned)__builtin_ctzll(m) >> 3;
#endif
}

/* bit 7 set in each byte of x that is zero */
static inline uint64_t scalar_zero_bytes(uint64_t x)
{
    return ~(((x & SH_B(0x7f)) + SH_B(0x7f)) | x) & SH_B(0x80);
}

static inline const uint8_t *scalar_scan_value(const uint8_t *s, const uint8_t *e)
{
    while (e - s >= 8) {
        uint64_t x = scalar_load8(s);
        uint64_t ctl = ~(x | ((x & SH_B(0x7f)) + SH_B(0x60))) & SH_B(0x80); /* byte < 0x20 */
        uint64_t m = (ctl & ~scalar_zero_bytes(x ^ SH_B(0x09))) | scalar_zero_bytes(x ^ SH_B(0x7f));
        if (m) return s + scalar_first(m);
        s += 8;
    }
    while (s < e && !simdhttp_value_stop[*s]) s++;
    return s;
}

static inline const uint8_t *scalar_scan_target(const uint8_t *s, const uint8_t *e)
{
    while (e - s >= 8) {
        uint64_t x = scalar_load8(s), lo = x & SH_B(0x7f);
        /* ok: high bit clear, low 7 bits >= 0x21 and < 0x7f */
        uint64_t ok = ~x & (lo + SH_B(0x5f)) & ~(lo + SH_B(0x01)) & SH_B(0x80);
        uint64_t m = ~ok & SH_B(0x80);
        if (m) return s + scalar_first(m);
        s += 8;
    }
    /* (uint8_t)(c - 0x21) < 0x5e  <=>  0x21 <= c <= 0x7e */
    while (s < e && (uint8_t)(*s - 0x21) < 0x5e) s++;
    return s;
}

#endif
