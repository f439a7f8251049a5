/* SPDX-License-Identifier: MIT */
/* Stage 1: one 64-byte block of input -> two bitmasks, bit i for byte i (simdjson's first
 * stage; the parser core's stage 2 walks them with plain integer code, src/core.h).
 *
 *   vbad   a byte not allowed in a field value: a CTL other than HTAB (0x00-0x08,
 *          0x0A-0x1F; so CR and LF too) or DEL (0x7F) (RFC 9110 section 5.5)
 *   ntok   a byte that is not a tchar (RFC 9110 section 5.6.2)
 *
 * That is all stage 2 reads: a field line's name ends at its first ntok bit (which must be
 * ':'), its value at the first vbad bit from the line start (which must be the CR of CRLF); OWS
 * is trimmed from the bytes. (The design had four more masks, LF, CR, ':' and SP/HTAB; nothing
 * read them, so they are gone: docs/simd.md.)
 *
 * Only this stage differs per ISA: src/stage1_<isa>.h each define
 *   <isa>_stage1(p, m)   the masks of the 64 bytes p[0..63] (all of them readable)
 * and src/isa_<name>.c names its one `stage1_block` (or `stage1_block_k`, below). The code below (shared) gives the masks
 * of a block that ends early, without reading outside what may be read:
 *
 *   sh_stage1_at(p, lo, end, m)   the masks of [p, end), p < end or p == end; bits of bytes at
 *                                 or past end (up to bit 63): vbad set (a stop: a value never
 *                                 runs past the data), every other mask clear (so a name's end,
 *                                 the first ntok bit, is always a byte of the data). Reads only
 *                                 [lo, end) (lo <= p: the start of the caller's buffer).
 * A short block is one overlapping load of the last 64 bytes of [lo, end), its masks shifted
 * (the usual case: a head's last block); only when the whole buffer is under 64 bytes is it
 * copied into a zeroed block first (a zero byte is vbad and ntok, nothing else: ntok is cleared
 * past the end), unless the ISA classifies such a buffer in place: SH_STAGE1_SHORT(lo, len,
 * keys, m), for 16 <= len < 64, gives the masks of the len bytes at lo in bits 0..len - 1 (the
 * bits above clear) from loads inside them (AVX2, NEON). An ISA with
 * masked loads (AVX-512) defines SH_STAGE1_PART(p, n, m) instead.
 *
 * Tested: tests/test_stage1.c (every path against the per-byte definition, every length and
 * alignment; the AVX-512 code also through a plain-C model of its intrinsics) and
 * tests/test_guard.c (the loads, next to PROT_NONE pages). */
#ifndef SIMDHTTP_STAGE1_H
#define SIMDHTTP_STAGE1_H

#include <stdint.h>
#include <string.h>

typedef struct sh_masks {
    uint64_t vbad, ntok;
} sh_masks;

#endif

/* The shared tail handling, once per ISA unit (needs that unit's stage1_block or
 * stage1_block_k). */
#if (defined(stage1_block) || defined(stage1_block_k)) && !defined(SH_STAGE1_AT_DONE)
#define SH_STAGE1_AT_DONE

/* The zeroed block of a buffer under 64 bytes: an ISA may store the zeros itself
 * (SH_STAGE1_ZERO64); gcc makes this memset a `rep stos` on the unlikely branch it sits on. */
#ifndef SH_STAGE1_ZERO64
#define SH_STAGE1_ZERO64(b) memset((b), 0, 64)
#endif

/* An ISA whose block function reads constants (AVX2: five 32-byte rows) may define
 * stage1_block_k(p, k, m), stage1_keys and stage1_keys_load() instead: the walk loads the constants once
 * per head and keeps them in registers, instead of once per block (gcc cannot hoist the loads
 * itself: the field stores between two blocks may alias them). */
#ifdef stage1_block_k
#define SH_S1KEYS_T stage1_keys
#define SH_S1KEYS_LOAD() stage1_keys_load()
#define SH_S1_BLOCK(p, k, m) stage1_block_k(p, k, m)
#else
#define SH_S1KEYS_T char
#define SH_S1KEYS_LOAD() 0
#define SH_S1_BLOCK(p, k, m) ((void)(k), stage1_block(p, m))
#endif

#ifndef SH_STAGE1_PART
/* A whole buffer under 64 bytes, n bytes at p, into a zeroed 64-byte block. Out of line: gcc
 * made an inlined memset of it a `rep stos` (the branch is unlikely, so compiled for size),
 * and inlined vector stores changed the register allocation of the walk, which never comes
 * here (AVX2 head API, get-4h: 746 instructions with the memset, 761 with the stores inline,
 * 754 with this call). */
static __attribute__((noinline)) void sh_stage1_pad(uint8_t *tmp, const uint8_t *p, size_t n)
{
    SH_STAGE1_ZERO64(tmp);
    if (n) memcpy(tmp, p, n);
}
#endif

static inline __attribute__((always_inline)) void sh_stage1_at_k(const uint8_t *p, const uint8_t *lo,
                                                                 const uint8_t *end, const SH_S1KEYS_T *keys,
                                                                 sh_masks *m)
{
    size_t n = (size_t)(end - p);
    if (__builtin_expect(n >= 64, 1)) {
        SH_S1_BLOCK(p, keys, m);
        return;
    }
#ifdef SH_STAGE1_PART
    SH_STAGE1_PART(p, n, m);
    (void)lo;
    (void)keys;
#else
    if ((size_t)(end - lo) >= 64 && n) {
        /* the 64 bytes ending at end, shifted down by the 64 - n bytes before p */
        unsigned k = (unsigned)(64 - n);
        uint64_t past = ~0ull << n;
        SH_S1_BLOCK(end - 64, keys, m);
        m->vbad = m->vbad >> k | past;
        m->ntok >>= k;
    } else {
        uint8_t tmp[64];
#ifdef SH_STAGE1_SHORT
        size_t len = (size_t)(end - lo);
        if (len >= 16 && len < 64) { /* the whole buffer in place, [p, end) cut out of it */
            SH_STAGE1_SHORT(lo, len, keys, m);
            m->vbad = m->vbad >> (len - n) | ~0ull << n; /* n < 64 */
            m->ntok >>= len - n;
            return;
        }
#endif
        sh_stage1_pad(tmp, p, n);
        SH_S1_BLOCK(tmp, keys, m);
        m->ntok &= ~(~0ull << n); /* n < 64 */
    }
#endif
}

static inline __attribute__((always_inline)) void sh_stage1_at(const uint8_t *p, const uint8_t *lo,
                                                               const uint8_t *end, sh_masks *m)
{
    const SH_S1KEYS_T keys = SH_S1KEYS_LOAD();
    sh_stage1_at_k(p, lo, end, &keys, m);
}
#endif
