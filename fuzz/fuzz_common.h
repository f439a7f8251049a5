/* SPDX-License-Identifier: MIT */
/* What the differential fuzzers share (fuzz/fuzz_diff.c, fuzz/fuzz_fields.c): growing text
 * logs (tests/t_buf.h), exact-size copies, dirty memory, the divergence report, and the seeded
 * chunking. The functions are static inline so that a harness that leaves one unused builds
 * warning-free. */
#ifndef SIMDHTTP_FUZZ_COMMON_H
#define SIMDHTTP_FUZZ_COMMON_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simdhttp.h"
#include "../tests/t_buf.h"

/* Growing text logs: t_buf, t_buf_put, t_buf_printf, t_buf_hex_escaped, t_buf_free, shared with
 * the tests (tests/t_buf.h) */

/* A copy of s[0..n) in a buffer of exactly n bytes (ASan flags any byte outside it). */
static inline char *exact_copy(const void *s, size_t n)
{
    char *c = malloc(n ? n : 1);
    if (!c) abort();
    if (n) memcpy(c, s, n);
    return c;
}

/* Parsers start from dirty memory (issue 9: a member that init forgot made the result depend
 * on what the memory held): the parser objects are filled with seeded bytes before init, and
 * the stack below the caller before simdhttp_parse_head. Under MemorySanitizer the memory is
 * left as it is: uninitialised, which MSan reports when read, a stronger check than any fill. */
#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define FUZZ_MSAN 1
#endif
#endif

static inline void dirty(void *m, size_t n, uint32_t seed)
{
#ifdef FUZZ_MSAN
    (void)m, (void)n, (void)seed;
#else
    static uint32_t dirty_runs; /* each fill differs: the reference and a path never share one */
    volatile uint8_t *d = m;    /* the stores must happen */
    uint32_t x = (seed + ++dirty_runs * 0x9e3779b9u) | 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        d[i] = (uint8_t)(x >> 11);
    }
#endif
}

/* 4 KiB: simdhttp_parse_head's frame and the core's are a few hundred bytes */
static __attribute__((noinline, unused)) void dirty_stack(uint32_t seed)
{
    uint8_t junk[4096];
    dirty(junk, sizeof junk, seed);
    __asm__ volatile("" : : "r"(junk) : "memory");
}

/* What the run is, for the divergence report. */
static const char *cur_what = "";

static inline void diverge(const char *what, const char *a, const char *b) __attribute__((noreturn));
static inline void diverge(const char *what, const char *a, const char *b)
{
    /* point at the first differing line */
    size_t i = 0, line = 1, ls = 0;
    if (a && b) {
        while (a[i] && a[i] == b[i]) {
            if (a[i] == '\n') line++, ls = i + 1;
            i++;
        }
    }
    fprintf(stderr, "\n==== DIVERGENCE: %s (%s) ====\n", what, cur_what);
    if (a && b) {
        const char *ea = strchr(a + ls, '\n'), *eb = strchr(b + ls, '\n');
        fprintf(stderr, "first difference at line %zu:\n  reference: %.*s\n  this run:  %.*s\n", line,
                (int)(ea ? (size_t)(ea - a - ls) : strlen(a + ls)), a + ls,
                (int)(eb ? (size_t)(eb - b - ls) : strlen(b + ls)), b + ls);
        fprintf(stderr, "---- reference log ----\n%s---- this run's log ----\n%s", a, b);
    }
    fflush(stderr);
    __builtin_trap();
}

/* xorshift32, seeded per run: every path sees the same chunking */
static inline uint32_t rnd(uint32_t *s)
{
    uint32_t x = *s ? *s : 0x9e3779b9u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}


/* Length of the next piece. Modes: 0 whole, 1 one byte, 2 1..4, 3 1..16, 4 1..64,
 * 5 1..512, 6 two pieces split at a random offset, 7 0..8 (empty execute() calls too). */
static inline size_t next_piece(unsigned mode, uint32_t *st, size_t left, size_t total, size_t k)
{
    size_t n;
    switch (mode) {
    case 0: n = left; break;
    case 1: n = 1; break;
    case 2: n = 1 + rnd(st) % 4; break;
    case 3: n = 1 + rnd(st) % 16; break;
    case 4: n = 1 + rnd(st) % 64; break;
    case 5: n = 1 + rnd(st) % 512; break;
    case 6: n = k == 0 ? (total ? rnd(st) % (total + 1) : 0) : left; break;
    default: n = rnd(st) % 9; break;
    }
    return n < left ? n : left;
}


static inline void check(const char *what, const char *ref, char *got)
{
    if (strcmp(ref, got) != 0) diverge(what, ref, got);
    free(got);
}


static const simdhttp_isa all_isas[] = {SIMDHTTP_ISA_SCALAR, SIMDHTTP_ISA_SSE2, SIMDHTTP_ISA_SSE42,
                                        SIMDHTTP_ISA_AVX2, SIMDHTTP_ISA_AVX512, SIMDHTTP_ISA_NEON};

/* which paths this run compares, for LLVMFuzzerInitialize (fuzz/run.sh reports the line) */
static inline void print_paths(const char *harness)
{
    fprintf(stderr, "%s: paths:", harness);
    for (size_t i = 0; i < sizeof all_isas / sizeof *all_isas; i++)
        if (simdhttp_isa_supported(all_isas[i])) fprintf(stderr, " %s", simdhttp_isa_to_name(all_isas[i]));
    fprintf(stderr, "\n");
}

#endif
