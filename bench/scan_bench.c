/* SPDX-License-Identifier: MIT */
/* scan_bench: the SIMD part's own measuring tool (docs/simd.md quotes it).
 *
 *   scan_bench [--rounds N] [FILE...]        every path this CPU supports, per file:
 *       ns per message (streaming execute, median of N interleaved rounds), ratio to scalar
 *       (median of the per-round ratios: each round runs every path back to back, in a rotating
 *       order, so machine noise hits them alike), and the same for the head API.
 *   scan_bench --isa NAME --iters N FILE     one path, N passes over FILE inside bench_loop(),
 *       for `valgrind --tool=callgrind --toggle-collect=bench_loop` (instructions per message).
 *   scan_bench --tsv ...                     machine-readable rows: file isa ns_stream ns_head
 *
 * Callbacks: only on_message_complete (to count messages), so the numbers are the parser's. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "simdhttp.h"

static const char *const default_files[] = {
    "corpus/browser-get.http", "corpus/get-32h.http", "corpus/get-4h.http", "corpus/seed-simple.http",
    "corpus/pipelined-16.http", "corpus/post-10k.http", "corpus/response-typical.http",
    "corpus/response-chunked.http"};

static long messages;
static int count_msg(simdhttp_parser *p)
{
    (void)p;
    messages++;
    return 0;
}
static simdhttp_callbacks cbs;

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    size_t r;
    while (b && (r = fread(b + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) b = realloc(b, cap *= 2);
    }
    fclose(f);
    *len = n;
    return b;
}

/* Thread CPU time, not wall time: on a shared machine a preempted sample would otherwise
 * count other processes' time (cache interference still shows; hence the medians). */
static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The measured loop (callgrind collects inside it only). */
__attribute__((noinline)) long bench_loop(const char *buf, size_t len, long iters, int head)
{
    long sink = 0;
    simdhttp_parser p;
    simdhttp_init(&p, SIMDHTTP_BOTH, &cbs, NULL);
    simdhttp_field fields[128];
    simdhttp_head h;
    h.fields = fields;
    h.fields_cap = 128;
    for (long i = 0; i < iters; i++) {
        if (head) {
            sink += simdhttp_parse_head(&h, SIMDHTTP_BOTH, buf, len, NULL);
        } else {
            simdhttp_reset(&p);
            sink += simdhttp_execute(&p, buf, len);
            sink += simdhttp_finish(&p);
        }
    }
    return sink;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define MAXR 101

int main(int argc, char **argv)
{
    int rounds = 15, tsv = 0;
    long iters = 0;
    const char *only_isa = NULL;
    const char *files[64];
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc) iters = atol(argv[++i]);
        else if (!strcmp(argv[i], "--isa") && i + 1 < argc) only_isa = argv[++i];
        else if (!strcmp(argv[i], "--tsv")) tsv = 1;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: scan_bench [--rounds N] [--tsv] [--isa NAME|best [--iters N]] [FILE...]\n");
            return 2;
        } else if (nfiles < 64) files[nfiles++] = argv[i];
    }
    if (rounds < 1) rounds = 1;
    if (rounds > MAXR) rounds = MAXR;
    if (!nfiles)
        for (size_t i = 0; i < sizeof default_files / sizeof *default_files; i++) files[nfiles++] = default_files[i];
    cbs.on_message_complete = count_msg;

    simdhttp_isa isas[8];
    int nisa = 0;
    simdhttp_isa dflt = simdhttp_isa_get();
    for (int i = SIMDHTTP_ISA_SCALAR; i <= SIMDHTTP_ISA_NEON; i++) {
        if (only_isa && strcmp(only_isa, simdhttp_isa_to_name((simdhttp_isa)i)) &&
            !(strcmp(only_isa, "best") == 0 && (simdhttp_isa)i == dflt))
            continue;
        /* isa_set refuses all but the fixed path in a SIMDHTTP_NATIVE build */
        if (simdhttp_isa_supported((simdhttp_isa)i) && simdhttp_isa_set((simdhttp_isa)i) == 0)
            isas[nisa++] = (simdhttp_isa)i;
    }
    simdhttp_isa_set(dflt);
    if (!nisa) {
        fprintf(stderr, "scan_bench: no such path here: %s\n", only_isa ? only_isa : "?");
        return 2;
    }

    if (only_isa && iters) { /* callgrind mode */
        simdhttp_isa_set(isas[0]);
        for (int f = 0; f < nfiles; f++) {
            size_t len;
            char *buf = read_file(files[f], &len);
            if (!buf) return 1;
            messages = 0;
            bench_loop(buf, len, 1, 0);
            long per = messages;
            bench_loop(buf, len, iters, 0);
            printf("%s %s messages/pass %ld passes %ld\n", files[f], simdhttp_isa_to_name(isas[0]), per, iters);
            free(buf);
        }
        return 0;
    }

    if (!tsv) {
        printf("path in use by default: %s\n", simdhttp_isa_name());
        printf("%-24s %-7s %10s %9s %10s %9s\n", "file", "path", "ns/msg", "x scalar", "head ns", "x scalar");
    }
    for (int f = 0; f < nfiles; f++) {
        size_t len;
        char *buf = read_file(files[f], &len);
        if (!buf) {
            fprintf(stderr, "scan_bench: cannot read %s\n", files[f]);
            return 1;
        }
        simdhttp_isa_set(isas[0]);
        messages = 0;
        bench_loop(buf, len, 1, 0);
        long per = messages ? messages : 1;
        /* iterations for ~2 ms per sample on the first (slowest) path */
        long it = 1;
        for (;;) {
            double t0 = now_ns();
            bench_loop(buf, len, it, 0);
            if (now_ns() - t0 > 2e6 || it > (1L << 26)) break;
            it *= 2;
        }
        static double ns[2][8][MAXR], ratio[2][8][MAXR];
        for (int r = 0; r < rounds; r++)
            for (int mode = 0; mode < 2; mode++) {
                double base = 0, t[8];
                for (int k = 0; k < nisa; k++) {
                    int j = (k + r) % nisa; /* rotate the order every round */
                    simdhttp_isa_set(isas[j]);
                    double t0 = now_ns();
                    bench_loop(buf, len, it, mode);
                    t[j] = (now_ns() - t0) / (double)it / (mode ? 1.0 : (double)per);
                }
                for (int j = 0; j < nisa; j++)
                    if (isas[j] == SIMDHTTP_ISA_SCALAR) base = t[j];
                for (int j = 0; j < nisa; j++) {
                    ns[mode][j][r] = t[j];
                    ratio[mode][j][r] = base > 0 ? base / t[j] : 0;
                }
            }
        const char *name = strrchr(files[f], '/') ? strrchr(files[f], '/') + 1 : files[f];
        for (int j = 0; j < nisa; j++) {
            double s = median(ns[0][j], rounds), sr = median(ratio[0][j], rounds);
            double h = median(ns[1][j], rounds), hr = median(ratio[1][j], rounds);
            if (tsv)
                printf("%s\t%s\t%.1f\t%.1f\n", name, simdhttp_isa_to_name(isas[j]), s, h);
            else
                printf("%-24s %-7s %10.1f %8.2fx %10.1f %8.2fx\n", j ? "" : name, simdhttp_isa_to_name(isas[j]), /* 0x: no scalar row */
                       s, sr, h, hr);
        }
        free(buf);
    }
    return 0;
}
