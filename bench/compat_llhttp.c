/* SPDX-License-Identifier: MIT */
/* make bench's llhttp layer table (issue 11): simdhttp's llhttp layer against llhttp itself,
 * the same program on the same inputs in one process.
 *
 * The parsing side below is written against llhttp's API only and compiled twice: against
 * Debian's llhttp 8.1 (-O3, symbols renamed real_, bench/peer_obj.sh) and against the layer as
 * the library ships it (symbols renamed layer_); SIDE is real or layer. Its callbacks record
 * what tools/bench.h records for every parser in make bench (method, target, version, reason,
 * field names and values with trailing OWS trimmed, body), so both sides do the same work; the
 * main part (SIDE=main) checks that both recorded the same spans, then times them:
 *
 *   compat_llhttp [--rounds N] [--ms N] FILE...      interleaved rounds, medians, ratio per file
 *   compat_llhttp --only real|layer --iters N FILE   one side only (for callgrind)
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

typedef size_t (*run_fn)(const char *buf, size_t len, size_t iters, bench_rec *rec);

#ifndef SIDE_MAIN
/* ------------------------------------------------------------------ one side ---- */
#define PFX(f) CAT(SIDE, CAT(_, f))
#define llhttp_init PFX(llhttp_init)
#define llhttp_settings_init PFX(llhttp_settings_init)
#define llhttp_execute PFX(llhttp_execute)
#define llhttp_finish PFX(llhttp_finish)
#include "llhttp.h"

#define REC(p) ((bench_rec *)(p)->data)
static int c_begin(llhttp_t *p) { REC(p)->nspans = 0; return 0; }
static int c_complete(llhttp_t *p) { REC(p)->r.messages++; return 0; }
static int c_method(llhttp_t *p, const char *at, size_t n) { bench_record(REC(p), SP_METHOD, at, n); return 0; }
static int c_url(llhttp_t *p, const char *at, size_t n) { bench_record(REC(p), SP_URL, at, n); return 0; }
static int c_version(llhttp_t *p, const char *at, size_t n) { bench_record(REC(p), SP_VERSION, at, n); return 0; }
static int c_status(llhttp_t *p, const char *at, size_t n) { bench_record(REC(p), SP_STATUS, at, n); return 0; }
static int c_name(llhttp_t *p, const char *at, size_t n) { bench_record(REC(p), SP_NAME, at, n); return 0; }
static int c_value(llhttp_t *p, const char *at, size_t n) { bench_record(REC(p), SP_VALUE, at, n); return 0; }
static int c_value_done(llhttp_t *p) { bench_trim_value(REC(p)); return 0; }
static int c_body(llhttp_t *p, const char *at, size_t n)
{
    REC(p)->r.body_bytes += n;
    bench_record(REC(p), SP_BODY, at, n);
    return 0;
}

/* Parse buf iters times (a fresh parser each time, as a server does per connection). @return
 * the messages of one pass; rec keeps the spans of the last message. */
size_t PFX(run)(const char *buf, size_t len, size_t iters, bench_rec *rec)
{
    llhttp_settings_t s;
    llhttp_settings_init(&s);
    s.on_message_begin = c_begin;
    s.on_method = c_method;
    s.on_url = c_url;
    s.on_version = c_version;
    s.on_status = c_status;
    s.on_header_field = c_name;
    s.on_header_value = c_value;
    s.on_header_value_complete = c_value_done;
    s.on_body = c_body;
    s.on_message_complete = c_complete;
    size_t msgs = 0;
    for (size_t i = 0; i < iters; i++) {
        llhttp_t p;
        llhttp_init(&p, HTTP_BOTH, &s);
        p.data = rec;
        rec->r.messages = 0;
        rec->r.body_bytes = 0;
        if (llhttp_execute(&p, buf, len) != HPE_OK || llhttp_finish(&p) != HPE_OK) return 0;
        msgs = rec->r.messages;
    }
    return msgs;
}

#else
/* ------------------------------------------------------------------ the driver ---- */
size_t real_run(const char *buf, size_t len, size_t iters, bench_rec *rec);
size_t layer_run(const char *buf, size_t len, size_t iters, bench_rec *rec);

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc(n > 0 ? (size_t)n : 1);
    *len = s ? fread(s, 1, (size_t)n, f) : 0;
    fclose(f);
    return s;
}

static int same_spans(const bench_rec *a, const bench_rec *b)
{
    if (a->nspans != b->nspans || a->r.body_bytes != b->r.body_bytes) return 0;
    for (size_t i = 0; i < a->nspans; i++)
        if (a->spans[i].kind != b->spans[i].kind || a->spans[i].len != b->spans[i].len ||
            a->spans[i].at != b->spans[i].at)
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    int rounds = 21, ms = 40, first = 1;
    const char *only = NULL;
    size_t iters = 0;
    while (first < argc && argv[first][0] == '-' && first + 1 < argc) {
        if (strcmp(argv[first], "--rounds") == 0) rounds = atoi(argv[first + 1]);
        else if (strcmp(argv[first], "--ms") == 0) ms = atoi(argv[first + 1]);
        else if (strcmp(argv[first], "--only") == 0) only = argv[first + 1];
        else if (strcmp(argv[first], "--iters") == 0) iters = (size_t)atol(argv[first + 1]);
        else break;
        first += 2;
    }
    if (first >= argc || rounds < 1) {
        fprintf(stderr, "usage: compat_llhttp [--rounds N] [--ms N] FILE... | --only real|layer --iters N FILE\n");
        return 2;
    }
    static bench_rec ra, rb;
    if (only) { /* one side, a fixed count: for callgrind */
        size_t len;
        char *buf = read_file(argv[first], &len);
        if (!buf) return 2;
        size_t m = (strcmp(only, "real") == 0 ? real_run : layer_run)(buf, len, iters, &ra);
        printf("%s %s: %zu messages x %zu\n", only, argv[first], m, iters);
        free(buf);
        return m ? 0 : 1;
    }
    printf("llhttp layer vs llhttp 8.1 -O3, same program (span callbacks recording the same data), "
           "%d interleaved rounds, median ns per message\n", rounds);
    printf("%-22s %8s %12s %12s %8s  %s\n", "file", "messages", "llhttp-O3", "layer", "ratio", "target >= 2x");
    int missed = 0, bad = 0;
    for (int f = first; f < argc; f++) {
        size_t len;
        char *buf = read_file(argv[f], &len);
        if (!buf) {
            fprintf(stderr, "%s: cannot read\n", argv[f]);
            bad++;
            continue;
        }
        size_t ma = real_run(buf, len, 1, &ra), mb = layer_run(buf, len, 1, &rb);
        if (!ma || ma != mb || !same_spans(&ra, &rb)) {
            printf("%-22s FAIL: the two sides did not record the same (%zu vs %zu messages)\n", argv[f], ma, mb);
            bad++;
            free(buf);
            continue;
        }
        /* iterations per timed run: about `ms` milliseconds of llhttp */
        double t0 = now_ns();
        size_t n = 1;
        while (now_ns() - t0 < 2e6) real_run(buf, len, n, &ra), n *= 2;
        double per = (now_ns() - t0) / (double)(2 * n);
        size_t it = (size_t)((double)ms * 1e6 / (per > 0 ? per : 1)) + 1;
        double *ta = malloc(sizeof(double) * (size_t)rounds), *tb = malloc(sizeof(double) * (size_t)rounds);
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < 2; k++) { /* alternate which side goes first */
                int real_side = (r + k) % 2 == 0;
                double s = now_ns();
                (real_side ? real_run : layer_run)(buf, len, it, real_side ? &ra : &rb);
                double d = (now_ns() - s) / (double)(it * ma);
                if (real_side) ta[r] = d;
                else tb[r] = d;
            }
        }
        qsort(ta, (size_t)rounds, sizeof *ta, cmp_double);
        qsort(tb, (size_t)rounds, sizeof *tb, cmp_double);
        double a = ta[rounds / 2], b = tb[rounds / 2], ratio = a / b;
        const char *slash = strrchr(argv[f], '/');
        printf("%-22s %8zu %12.1f %12.1f %7.2fx  %s\n", slash ? slash + 1 : argv[f], ma, a, b, ratio,
               ratio >= 2.0 ? "met" : "MISSED");
        missed += ratio < 2.0;
        free(ta);
        free(tb);
        free(buf);
    }
    printf("%d of %d files below 2x\n", missed, argc - first - bad);
    return bad ? 1 : 0;
}
#endif
