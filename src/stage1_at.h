/* SPDX-License-Identifier: MIT */
/* Stage 1's shared tail handling (the contract: src/stage1.h), once per translation unit that
 * includes it: src/core.h in each ISA unit, and tests/test_stage1.c over its model. Before it,
 * the unit defines the block function this code calls:
 *   stage1_block(p, m)            the masks of the 64 bytes at p (src/isa/<isa>/isa_<isa>.c binds
 *                                 it to that ISA's <isa>_stage1), or, with SH_STAGE1_KEYED:
 *   stage1_keys, stage1_keys_load(), stage1_block_k(p, k, m)   the same with constants loaded
 *                                 once per head (AVX2)
 * and may define SH_STAGE1_PART, SH_STAGE1_SHORT, SH_STAGE1_ZERO64 (below). */
#ifndef SIMDHTTP_STAGE1_AT_H
#define SIMDHTTP_STAGE1_AT_H

#include "stage1.h"

/* The zeroed block of a buffer under 64 bytes: an ISA may store the zeros itself
 * (SH_STAGE1_ZERO64); gcc makes this memset a `rep stos` on the unlikely branch it sits on. */
#ifndef SH_STAGE1_ZERO64
#define SH_STAGE1_ZERO64(b) memset((b), 0, 64)
#endif

/* An ISA whose block function reads constants (AVX2: five 32-byte rows) may define
 * stage1_block_k(p, k, m), stage1_keys and stage1_keys_load() instead: the walk loads the constants once
 * per head and keeps them in registers, instead of once per block (gcc cannot hoist the loads
 * itself: the field stores between two blocks may alias them). */
#ifdef SH_STAGE1_KEYED
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
