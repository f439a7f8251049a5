/* SPDX-License-Identifier: MIT */
/* Every SIMD scanner against the scalar reference (src/isa/scalar/scan_scalar.h), which is itself checked
 * against the RFC definitions written out byte by byte:
 *   - every byte value at every position of spans of every length 0..NMAX (rest: passing bytes,
 *     varied), and every alignment modulo 64;
 *   - spans of one passing byte value repeated (every passing value, lengths around the
 *     vector widths), which must run to the end;
 *   - random spans with stops at several densities (first stop must win).
 * Inputs sit in exactly sized heap blocks and, under ASan, the bytes before the span are
 * poisoned, so a load outside [s, e) is reported. SIMDHTTP_ISA=<path> tests that path only.
 * Also the dispatcher: the default is the first supported path of the preference order
 * (avx2, avx512, sse42, sse2, neon, scalar: measured fastest first), refusals (isa_set, and
 * SIMDHTTP_ISA in a child process) leave the default running and say why. */
#define _POSIX_C_SOURCE 200809L /* popen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simd_paths.h"
#include "testlib.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define T_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define T_ASAN 1
#endif
#ifdef T_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#define NMAX_DEFAULT 150
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#define NMAX_DEFAULT 200 /* > 3 x 64 + 8: every loop/tail combination of every width */
#endif
/* SIMDHTTP_TEST_NMAX lowers it where only narrow vectors run slowly (NEON under qemu) */
static size_t NMAX = NMAX_DEFAULT;

/* The RFC definitions, independent of the tables in src/tables.c. */
static int stops(int kind, unsigned c)
{
    if (kind == 0) { /* RFC 9110 5.6.2 tchar */
        if ((c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')) return 0;
        return c == 0 || !strchr("!#$%&'*+-.^_`|~", (int)c);
    }
    if (kind == 1) return (c < 0x20 && c != '\t') || c == 0x7f; /* RFC 9110 5.5 */
    return c <= 0x20 || c >= 0x7f;                            /* not VCHAR */
}

static const uint8_t *naive(int kind, const uint8_t *s, const uint8_t *e)
{
    while (s < e && !stops(kind, *s)) s++;
    return s;
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint32_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static uint8_t pass_set[3][256], stop_set[3][256];
static int npass[3], nstop[3];

/* A test block: [a, a + n) of an exactly sized heap block of a + n bytes, front poisoned. */
static uint8_t *block(size_t a, size_t n)
{
    uint8_t *b = malloc(a + n ? a + n : 1);
    if (!b) abort();
    POISON(b, a);
    return b;
}
static void unblock(uint8_t *b, size_t a)
{
    UNPOISON(b, a);
    free(b);
}

struct tally {
    long bad;
    char first[200];
};

static void compare(struct tally *t, const char *what, scan_fn fn, int kind, const uint8_t *s, size_t n)
{
    const uint8_t *want = ref_scan(kind, s, s + n);
    const uint8_t *got = fn ? fn(kind, s, s + n) : naive(kind, s, s + n);
    if (got != want && t->bad++ == 0)
        snprintf(t->first, sizeof t->first, "%s: len %zu align %u: got %td, want %td", what, n,
                 (unsigned)((uintptr_t)s & 63), got - s, want - s);
}

static void report(struct tally *t, const char *path, int kind, const char *what)
{
    char name[96];
    snprintf(name, sizeof name, "%s %s %s", path, kind_names[kind], what);
    t_check(t->bad == 0, name, "%ld mismatches; first: %s", t->bad, t->first);
}

/* every byte value at every position, the other bytes passing (cycled through the pass set) */
static void every_byte_every_pos(const char *path, scan_fn fn, int kind)
{
    struct tally t = {0, ""};
    for (size_t n = 0; n <= NMAX; n++) {
        size_t a = n % 64; /* every alignment over the lengths */
        uint8_t *b = block(a, n), *s = b + a;
        for (size_t i = 0; i < n; i++) s[i] = pass_set[kind][(i * 7 + n) % (size_t)npass[kind]];
        compare(&t, "all passing", fn, kind, s, n);
        for (size_t pos = 0; pos < n; pos++) {
            uint8_t keep = s[pos];
            for (unsigned c = 0; c < 256; c++) {
                s[pos] = (uint8_t)c;
                compare(&t, "one byte", fn, kind, s, n);
            }
            s[pos] = keep;
        }
        unblock(b, a);
    }
    report(&t, path, kind, "every byte at every position");
}

/* one passing value repeated: must reach e whatever the value */
static void every_passing_value(const char *path, scan_fn fn, int kind)
{
    static const size_t lens[] = {1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 127, 128, 129, 130};
    struct tally t = {0, ""};
    for (int v = 0; v < npass[kind]; v++)
        for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
            size_t n = lens[li], a = (size_t)v % 64;
            uint8_t *b = block(a, n), *s = b + a;
            memset(s, pass_set[kind][v], n);
            compare(&t, "repeated", fn, kind, s, n);
            s[n - 1] = stop_set[kind][(size_t)v % (size_t)nstop[kind]];
            compare(&t, "repeated, stop last", fn, kind, s, n);
            unblock(b, a);
        }
    report(&t, path, kind, "every passing value repeated");
}

/* random spans, stops at densities 0, 1/256, 1/32, 1/4, 1/2 */
static void random_spans(const char *path, scan_fn fn, int kind, int rounds)
{
    static const unsigned density[] = {0, 1, 8, 64, 128};
    struct tally t = {0, ""};
    for (int r = 0; r < rounds; r++) {
        size_t n = rnd() % 301, a = rnd() % 64;
        unsigned d = density[rnd() % 5];
        uint8_t *b = block(a, n), *s = b + a;
        for (size_t i = 0; i < n; i++)
            s[i] = (rnd() & 255) < d ? stop_set[kind][rnd() % (unsigned)nstop[kind]]
                                     : pass_set[kind][rnd() % (unsigned)npass[kind]];
        compare(&t, "random", fn, kind, s, n);
        unblock(b, a);
    }
    report(&t, path, kind, "random spans");
}

/* The dispatcher: what it claims is consistent, and SIMDHTTP_ISA is obeyed or refused with a
 * reason (checked in a child process: the choice is made once per process). */
/* the dispatcher's policy: measured fastest first (src/dispatch.c) */
static simdhttp_isa preferred_isa(void)
{
    static const simdhttp_isa order[] = {SIMDHTTP_ISA_AVX2, SIMDHTTP_ISA_AVX512, SIMDHTTP_ISA_SSE42,
                                         SIMDHTTP_ISA_SSE2, SIMDHTTP_ISA_NEON};
    for (unsigned i = 0; i < sizeof order / sizeof *order; i++)
        if (simdhttp_isa_supported(order[i])) return order[i];
    return SIMDHTTP_ISA_SCALAR;
}

static void dispatch_checks(const char *self)
{
    t_check(simdhttp_isa_supported(SIMDHTTP_ISA_SCALAR), "dispatch: scalar", "scalar not supported");
#if defined(__x86_64__)
    t_check(simdhttp_isa_supported(SIMDHTTP_ISA_SSE2) && !simdhttp_isa_supported(SIMDHTTP_ISA_NEON),
            "dispatch: x86-64 paths", "sse2 missing or neon claimed");
#elif defined(__aarch64__)
    t_check(simdhttp_isa_supported(SIMDHTTP_ISA_NEON) && !simdhttp_isa_supported(SIMDHTTP_ISA_SSE2),
            "dispatch: aarch64 paths", "neon missing or sse2 claimed");
#endif
    t_check(!simdhttp_isa_supported((simdhttp_isa)0) && !simdhttp_isa_supported((simdhttp_isa)99) &&
                simdhttp_isa_to_name((simdhttp_isa)99) == NULL,
            "dispatch: unknown values", "an unknown path claimed");
    /* a wider path implies the narrower ones (each is a superset of features) */
    int ladder_ok = 1;
    for (int i = SIMDHTTP_ISA_SSE42; i <= SIMDHTTP_ISA_AVX512; i++)
        if (simdhttp_isa_supported((simdhttp_isa)i) && !simdhttp_isa_supported((simdhttp_isa)(i - 1))) ladder_ok = 0;
    t_check(ladder_ok, "dispatch: ladder", "a path without the narrower one");
    const char *want = getenv("SIMDHTTP_ISA");
    simdhttp_isa got = simdhttp_isa_get();
    if (want && *want) {
        t_check(strcmp(simdhttp_isa_name(), want) == 0 || simdhttp_isa_error() != NULL, "dispatch: forced path",
                "SIMDHTTP_ISA=%s but running %s and no error", want, simdhttp_isa_name());
    } else {
        simdhttp_isa pref = preferred_isa();
        t_check(got == pref && simdhttp_isa_error() == NULL, "dispatch: default is the preferred path",
                "running %s, preferred %s", simdhttp_isa_name(), simdhttp_isa_to_name(pref));
    }
    /* isa_set refuses what the CPU lacks and changes nothing */
    simdhttp_isa lacking = 0;
    for (int i = SIMDHTTP_ISA_SCALAR; i <= SIMDHTTP_ISA_NEON; i++)
        if (!simdhttp_isa_supported((simdhttp_isa)i)) lacking = (simdhttp_isa)i;
    if (lacking)
        t_check(simdhttp_isa_set(lacking) == -1 && simdhttp_isa_get() == got, "dispatch: isa_set refuses",
                "isa_set(%s) accepted", simdhttp_isa_to_name(lacking));
    /* child processes: an unknown name and a lacking path are refused with a reason */
    const char *noexec = getenv("SIMDHTTP_TEST_NO_EXEC"); /* qemu-user cannot exec from sh */
    if (noexec && *noexec) return;
    const char *names[2] = {"bogus", lacking ? simdhttp_isa_to_name(lacking) : NULL};
    for (int i = 0; i < 2 && names[i]; i++) {
        char cmd[600], line[300] = "";
        snprintf(cmd, sizeof cmd, "SIMDHTTP_ISA=%s '%s' --dispatch-child", names[i], self);
        FILE *f = popen(cmd, "r");
        if (f) {
            if (!fgets(line, sizeof line, f)) line[0] = 0;
            pclose(f);
        }
        /* the child runs the default (preferred) path and says why the request was refused */
        char expect[64];
        snprintf(expect, sizeof expect, "%s|SIMDHTTP_ISA", simdhttp_isa_to_name(preferred_isa()));
        t_check(strncmp(line, expect, strlen(expect)) == 0, "dispatch: refusal",
                "SIMDHTTP_ISA=%s: child said '%s'", names[i], line);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--dispatch-child") == 0) {
        const char *err = simdhttp_isa_error();
        printf("%s|%s\n", simdhttp_isa_name(), err ? err : "");
        return 0;
    }
    dispatch_checks(argv[0]);
    const char *nmax = getenv("SIMDHTTP_TEST_NMAX");
    if (nmax && atoi(nmax) > 0 && atoi(nmax) < NMAX_DEFAULT) NMAX = (size_t)atoi(nmax);
    for (int k = 0; k < 3; k++)
        for (unsigned c = 0; c < 256; c++) {
            if (stops(k, c)) stop_set[k][nstop[k]++] = (uint8_t)c;
            else pass_set[k][npass[k]++] = (uint8_t)c;
        }
    /* sanity of the definitions: 77 tchars, 32 value stops, 94 VCHAR */
    t_check(npass[0] == 77 && nstop[1] == 32 && npass[2] == 94, "RFC classes",
            "tchar %d, value stops %d, VCHAR %d", npass[0], nstop[1], npass[2]);

    /* the scalar reference against the byte-by-byte RFC definitions (fn NULL: naive) */
    const char *want = getenv("SIMDHTTP_ISA");
    int all = !want || !*want;
    if (all || simdhttp_isa_get() == SIMDHTTP_ISA_SCALAR)
        for (int k = 0; k < 3; k++) {
            every_byte_every_pos("scalar", NULL, k);
            random_spans("scalar", NULL, k, 20000);
        }

    int tested = 0;
    for (const struct simd_path *p = simd_paths; p->fn; p++) {
        if (!path_selected(p->isa)) continue;
        tested++;
        const char *name = simdhttp_isa_to_name(p->isa);
        for (int k = 0; k < 3; k++) {
            every_byte_every_pos(name, p->fn, k);
            every_passing_value(name, p->fn, k);
            random_spans(name, p->fn, k, 50000);
        }
    }
    printf("SIMD paths tested: %d (forced: %s)\n", tested, all ? "none" : want);
    return t_summary();
}
