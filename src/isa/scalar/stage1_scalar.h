/* SPDX-License-Identifier: MIT */
/* Stage 1, portable C (src/stage1.h has the contract): each byte's classes from one table,
 * eight bytes' classes packed into one word, then each class gathered into 8 bits by one
 * multiplication. Byte order does not matter: the word is assembled byte by byte. */
#ifndef SIMDHTTP_STAGE1_SCALAR_H
#define SIMDHTTP_STAGE1_SCALAR_H

#include "stage1.h"

/* bit 0: vbad, bit 1: ntok (tests/test_stage1.c checks every byte against the RFC) */
static const uint8_t sh_class[256] = {
    3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 3, 3, 3, 3, 3, 3, /* 0x00 */
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, /* 0x10 */
    2, 0, 2, 0, 0, 0, 0, 0, 2, 2, 0, 0, 2, 0, 0, 2, /* 0x20 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2, /* 0x30 */
    2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x40 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 0, 0, /* 0x50 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x60 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 3, /* 0x70 */
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, /* 0x80 */
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, /* 0x90 */
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, /* 0xa0 */
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, /* 0xb0 */
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, /* 0xc0 */
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, /* 0xd0 */
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, /* 0xe0 */
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, /* 0xf0 */
};

/* bit 0 of each byte of w (bits 0, 8, ..., 56) -> bits 0..7: each lands on bit 56 + i of the
 * product, no two partial products meet (tests/test_stage1.c checks every class at every
 * position) */
#define SH_GATHER(w) ((uint8_t)(((w)&0x0101010101010101ull) * 0x0102040810204080ull >> 56))

/* the classes of p[i + k], in byte k of a word */
#define SH_CLS(k) ((uint64_t)sh_class[p[i + k]] << (8 * k))

static inline __attribute__((always_inline)) void scalar_stage1(const uint8_t *p, sh_masks *m)
{
    uint64_t vbad = 0, ntok = 0;
    for (unsigned i = 0; i < 64; i += 8) {
        uint64_t w = SH_CLS(0) | SH_CLS(1) | SH_CLS(2) | SH_CLS(3) | SH_CLS(4) | SH_CLS(5) | SH_CLS(6) | SH_CLS(7);
        vbad |= (uint64_t)SH_GATHER(w) << i;
        ntok |= (uint64_t)SH_GATHER(w >> 1) << i;
    }
    m->vbad = vbad, m->ntok = ntok;
}

#endif
