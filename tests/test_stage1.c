/* SPDX-License-Identifier: MIT */
/* Stage 1 (src/stage1.h, src/stage1_at.h): every path's two masks against their definitions, written out byte
 * by byte from RFC 9110 (not from the library's tables):
 *   - every byte value at every position of a block;
 *   - random bytes (biased to HTTP's) for blocks starting at every offset 0..140 of a buffer
 *     and ending at every length 0..130 past it, both with the rest of the buffer readable
 *     before the block (the overlapping load of the last 64 bytes) and without (the copy);
 *     bits past the end must read as vbad only;
 *   - the AVX-512 code compiled against tests/avx512_model.h (a plain-C model of its
 *     intrinsics), the same checks, on every machine: no AVX-512 is needed to test its logic.
 * Guard pages for the loads: tests/test_guard.c. SIMDHTTP_ISA=<path> tests that path only. */
#include <stdio.h>
#include <string.h>

#include "simd_paths.h"
#include "stage1.h"
#include "testlib.h"

#include "avx512_model.h"
#include "isa/avx512/stage1_avx512.h"
static inline void stage1_block(const uint8_t *p, sh_masks *m)
{
    avx512_stage1(p, m);
}
#define SH_STAGE1_PART avx512_stage1_part
#include "stage1_at.h" /* sh_stage1_at over the model */

static void model_avx512(const uint8_t *p, const uint8_t *lo, const uint8_t *end, sh_masks *m)
{
    sh_stage1_at(p, lo, end, m);
}

/* RFC 9110 5.6.2: tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" /
 * "_" / "`" / "|" / "~" / DIGIT / ALPHA */
static int is_tchar(unsigned c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c && strchr("!#$%&'*+-.^_`|~", (int)c) != NULL);
}

/* the definition: bytes [p, p + n); bits from n on: vbad (a stop), nothing else */
static void ref(const uint8_t *p, size_t n, sh_masks *m)
{
    memset(m, 0, sizeof *m);
    for (unsigned i = 0; i < 64; i++) {
        uint64_t bit = 1ull << i;
        if (i >= n) {
            m->vbad |= bit;
            continue;
        }
        unsigned c = p[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f) m->vbad |= bit; /* RFC 9110 5.5 */
        if (!is_tchar(c)) m->ntok |= bit;
    }
}

static int same(const sh_masks *a, const sh_masks *b) { return memcmp(a, b, sizeof *a) == 0; }

static void show(const char *what, const sh_masks *m)
{
    printf("  %s: vbad %016llx ntok %016llx\n", what, (unsigned long long)m->vbad, (unsigned long long)m->ntok);
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static unsigned rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (unsigned)(rng >> 24);
}

/* mostly the bytes of HTTP heads, sometimes any byte */
static uint8_t http_byte(void)
{
    static const char common[] = "abcdefghijkLMNOPQ0123456789-_.:;,/= \t\r\n\"()<>?@[]{}\\'!#$%&*+^`|~";
    unsigned r = rnd();
    return (r & 3) ? (uint8_t)common[(r >> 2) % (sizeof common - 1)] : (uint8_t)(r >> 4);
}

static void test_path(const char *name, stage1_fn fn)
{
    uint8_t blk[64];
    sh_masks got, want;
    int bad = 0;
    /* every byte value at every position (the rest: 'a', a tchar in no other class) */
    for (unsigned c = 0; c < 256 && !bad; c++)
        for (unsigned i = 0; i < 64 && !bad; i++) {
            memset(blk, 'a', 64);
            blk[i] = (uint8_t)c;
            fn(blk, blk, blk + 64, &got);
            ref(blk, 64, &want);
            if (!t_check(same(&got, &want), name, "byte 0x%02x at %u", c, i)) show("got", &got), show("want", &want), bad = 1;
        }
    t_check(!bad, name, "every byte value at every position of a block");

    /* random blocks at every offset and length, with and without bytes before them */
    static uint8_t buf[300];
    for (int round = 0; round < 3 && !bad; round++) {
        for (size_t i = 0; i < sizeof buf; i++) buf[i] = http_byte();
        for (size_t off = 0; off <= 140 && !bad; off++)
            for (size_t n = 0; n <= 130 && !bad; n++)
                for (int own = 0; own < 2 && !bad; own++) {
                    const uint8_t *p = buf + off, *lo = own ? p : buf;
                    fn(p, lo, p + n, &got);
                    ref(p, n, &want);
                    if (!t_check(same(&got, &want), name, "offset %zu length %zu, %s", off, n,
                                 own ? "nothing readable before it" : "buffer readable before it"))
                        show("got", &got), show("want", &want), bad = 1;
                }
    }
    t_check(!bad, name, "random blocks at every offset 0..140 and length 0..130");
}

int main(void)
{
    const char *want = getenv("SIMDHTTP_ISA");
    for (const struct stage1_path *p = stage1_paths; p->fn; p++) {
        if (p->isa == SIMDHTTP_ISA_SCALAR ? want && *want && strcmp(want, "scalar") != 0 : !path_selected(p->isa))
            continue;
        printf("# %s\n", simdhttp_isa_to_name(p->isa));
        test_path(simdhttp_isa_to_name(p->isa), p->fn);
    }
    printf("# avx512 through a C model of its intrinsics\n");
    test_path("avx512 (C model of its intrinsics)", model_avx512);
    return t_summary();
}
