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

#include "tables.h"

static inline const uint8_t *scalar_scan_token(const uint8_t *s, const uint8_t *e)
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

static inline const uint8_t *scalar_scan_value(const uint8_t *s, const uint8_t *e)
{
    while (e - s >= 4) {
        if (simdhttp_value_stop[s[0]]) return s;
        if (simdhttp_value_stop[s[1]]) return s + 1;
        if (simdhttp_value_stop[s[2]]) return s + 2;
        if (simdhttp_value_stop[s[3]]) return s + 3;
        s += 4;
    }
    while (s < e && !simdhttp_value_stop[*s]) s++;
    return s;
}

static inline const uint8_t *scalar_scan_target(const uint8_t *s, const uint8_t *e)
{
    /* (uint8_t)(c - 0x21) < 0x5e  <=>  0x21 <= c <= 0x7e */
    while (e - s >= 4) {
        if ((uint8_t)(s[0] - 0x21) >= 0x5e) return s;
        if ((uint8_t)(s[1] - 0x21) >= 0x5e) return s + 1;
        if ((uint8_t)(s[2] - 0x21) >= 0x5e) return s + 2;
        if ((uint8_t)(s[3] - 0x21) >= 0x5e) return s + 3;
        s += 4;
    }
    while (s < e && (uint8_t)(*s - 0x21) < 0x5e) s++;
    return s;
}

#endif
