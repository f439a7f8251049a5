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
 * Only this stage differs per ISA: src/isa/<isa>/stage1_<isa>.h each define
 *   <isa>_stage1(p, m)   the masks of the 64 bytes p[0..63] (all of them readable)
 * and src/isa/<isa>/isa_<isa>.c binds it to the name the generic code calls, `stage1_block`
 * (or `stage1_block_k`, src/stage1_at.h). The shared code of src/stage1_at.h gives the masks
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

