/* SPDX-License-Identifier: MIT */
/* NEON span scanners (AArch64: NEON is baseline, no extra flags).
 *
 * AArch64 has no movemask; "shift right and narrow" by 4 turns a 16-byte compare result into a
 * 64-bit word with 4 bits per byte, whose trailing zero count / 4 is the first stop lane.
 * Tails as on x86 (scan_sse2.h): overlapping last 16-byte load, then two 8-byte or two 4-byte
 * loads for short spans, scalar only under 4 bytes; no load leaves [s, e). */
#ifndef SIMDHTTP_SCAN_NEON_H
#define SIMDHTTP_SCAN_NEON_H

#include <arm_neon.h>
#include <string.h>

#include "../scalar/scan_scalar.h"
#include "tables.h"

/* inlined into the core whatever the size heuristics say (see scan_sse2.h) */
#define SH_SCAN_INLINE static inline __attribute__((always_inline))

/* 4 bits per byte of a compare result (0x00/0xff lanes) */
SH_SCAN_INLINE uint64_t neon_bits(uint8x16_t stop)
{
    /* narrow each 16-bit pair by 4: byte i -> bits 4i..4i+3 */
    return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(stop), 4)), 0);
}

#define SH_NEON_FIRST(m) ((unsigned)__builtin_ctzll(m) >> 2)

SH_SCAN_INLINE uint32_t sh_neon_load_u32(const uint8_t *p)
{
    uint32_t w;
    memcpy(&w, p, 4); /* one unaligned 4-byte load */
    return w;
}

#define SH_NEON_SCAN(stop16, scalar, s, e)                                              \
    do {                                                                                \
        const uint8_t *p_ = (s);                                                        \
        uint64_t m_;                                                                    \
        size_t n_ = (size_t)((e)-p_);                                                   \
        if (n_ >= 16) {                                                                 \
            do {                                                                        \
                m_ = neon_bits(stop16(vld1q_u8(p_)));                                   \
                if (m_) return p_ + SH_NEON_FIRST(m_);                                  \
                p_ += 16;                                                               \
            } while ((e)-p_ >= 16);                                                     \
            if (p_ == (e)) return (e);                                                  \
            /* last 16 bytes, overlapping the ones already passed */                    \
            m_ = neon_bits(stop16(vld1q_u8((e)-16)));                                   \
            return m_ ? (e)-16 + SH_NEON_FIRST(m_) : (e);                               \
        }                                                                               \
        if (n_ >= 8) {                                                                  \
            /* first 8 and last 8 bytes */                                              \
            m_ = neon_bits(stop16(vcombine_u8(vld1_u8(p_), vld1_u8((e)-8))));           \
            if (m_ & 0xffffffffu) return p_ + SH_NEON_FIRST(m_);                        \
            m_ >>= 32;                                                                  \
            return m_ ? (e)-8 + SH_NEON_FIRST(m_) : (e);                                \
        }                                                                               \
        if (n_ >= 4) {                                                                  \
            /* first 4 and last 4 bytes in lanes 0..7 (lanes 8..15 masked off) */      \
            uint64_t w_ = sh_neon_load_u32(p_) | (uint64_t)sh_neon_load_u32((e)-4) << 32; \
            m_ = neon_bits(stop16(vcombine_u8(vcreate_u8(w_), vdup_n_u8('a')))) & 0xffffffffu; \
            if (m_ & 0xffff) return p_ + SH_NEON_FIRST(m_);                             \
            m_ >>= 16;                                                                  \
            return m_ ? (e)-4 + SH_NEON_FIRST(m_) : (e);                                \
        }                                                                               \
        return scalar(p_, (e));                                                         \
    } while (0)

/* not VCHAR */
SH_SCAN_INLINE uint8x16_t neon_stop_target(uint8x16_t v)
{
    /* c - 0x21 > 0x5d unsigned */
    return vcgtq_u8(vsubq_u8(v, vdupq_n_u8(0x21)), vdupq_n_u8(0x5d));
}

/* CTL except HTAB, or DEL */
SH_SCAN_INLINE uint8x16_t neon_stop_value(uint8x16_t v)
{
    /* c < 0x20 and not c == HTAB */
    uint8x16_t ctl = vbicq_u8(vcltq_u8(v, vdupq_n_u8(0x20)), vceqq_u8(v, vdupq_n_u8(0x09)));
    /* or c == DEL */
    return vorrq_u8(ctl, vceqq_u8(v, vdupq_n_u8(0x7f)));
}

/* not a tchar: the nibble bitmap of src/tables.h (simdhttp_vconst's rows) with TBL lookups */
SH_SCAN_INLINE uint8x16_t neon_stop_token(uint8x16_t v)
{
    /* row bitmap for the low nibble */
    uint8x16_t row = vqtbl1q_u8(vld1q_u8(simdhttp_vconst[SH_VK_TCHAR_LO]), vandq_u8(v, vdupq_n_u8(0x0f)));
    /* column bit for the high nibble */
    uint8x16_t col = vqtbl1q_u8(vld1q_u8(simdhttp_vconst[SH_VK_TCHAR_HI]), vshrq_n_u8(v, 4));
    /* no common bit: not a tchar */
    return vceqzq_u8(vandq_u8(row, col));
}

SH_SCAN_INLINE const uint8_t *neon_scan_token(const uint8_t *s, const uint8_t *e)
{
    SH_NEON_SCAN(neon_stop_token, scalar_scan_token, s, e);
}

SH_SCAN_INLINE const uint8_t *neon_scan_value(const uint8_t *s, const uint8_t *e)
{
    SH_NEON_SCAN(neon_stop_value, scalar_scan_value, s, e);
}

SH_SCAN_INLINE const uint8_t *neon_scan_target(const uint8_t *s, const uint8_t *e)
{
    SH_NEON_SCAN(neon_stop_target, scalar_scan_target, s, e);
}

#endif
