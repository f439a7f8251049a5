/* SPDX-License-Identifier: MIT */
/* The head API on a growing buffer (docs/head-api.md): a 64 KiB head parsed by one
 * simdhttp_parse_head call, against the same head arriving in 10-byte steps through
 * simdhttp_parse_head_continue (last_len), and through simdhttp_parse_head called again on
 * every longer buffer (the quadratic way, for scale).
 *
 *   head_continue SHAPE MODE [STEP]   one run of MODE (whole | continue | reparse | stream: the
 *                                     streaming API in the same steps), for callgrind:
 *       valgrind --tool=callgrind --toggle-collect=run_mode build/bench/head_continue long continue
 *   head_continue SHAPE time [STEP]   interleaved timings of whole and continue, 31 rounds, medians
 *
 * SHAPE: long (126 fields of 500 bytes: the default limits), short (2,900 fields of about 20
 * bytes; max_fields raised), one (one 64 KiB field). `make bench-head-continue` runs them all. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "simdhttp.h"

#define HEAD_SIZE 65536
#define MAXF 4096

static char head[HEAD_SIZE + 256];
static size_t head_len;
static simdhttp_config cfg = {.max_fields = MAXF};
static simdhttp_field fields[MAXF];
static volatile long sink;

static void add(const char *s, size_t n)
{
    memcpy(head + head_len, s, n);
    head_len += n;
}

/* a request head of exactly HEAD_SIZE bytes: fields of about `each` bytes, the last one padded */
static void build(size_t each)
{
    head_len = 0;
    static const char start[] = "GET /resource HTTP/1.1\r\nHost: example.com\r\n";
    add(start, sizeof start - 1);
    for (int i = 0;; i++) {
        char name[32];
        int n = snprintf(name, sizeof name, "X-Field-%d: ", i);
        size_t left = HEAD_SIZE - head_len - 2; /* room before the final CRLF */
        size_t v = each > (size_t)n + 2 ? each - (size_t)n - 2 : 1;
        if ((size_t)n + v + 2 + each > left) v = left - (size_t)n - 2; /* the last field fills it */
        add(name, (size_t)n);
        for (size_t k = 0; k < v; k++) head[head_len++] = "abcdefghijklmnopqrstuvwxyz0123456789"[(i + k) % 36];
        add("\r\n", 2);
        if (head_len + 2 == HEAD_SIZE) break;
    }
    add("\r\n", 2);
}

static long __attribute__((noinline)) whole(void)
{
    simdhttp_head h = {.fields = fields, .fields_cap = MAXF};
    return simdhttp_parse_head(&h, SIMDHTTP_REQUEST, head, head_len, &cfg);
}

static long __attribute__((noinline)) steps(size_t step, int cont)
{
    simdhttp_head h = {.fields = fields, .fields_cap = MAXF};
    size_t last = 0;
    for (size_t len = step;; len += step) {
        if (len > head_len) len = head_len;
        long r = cont ? simdhttp_parse_head_continue(&h, SIMDHTTP_REQUEST, head, len, last, &cfg)
                      : simdhttp_parse_head(&h, SIMDHTTP_REQUEST, head, len, &cfg);
        if (r != SIMDHTTP_HEAD_INCOMPLETE) return r;
        last = len;
    }
}

/* the streaming API on the same steps, no callbacks: what a call per step costs elsewhere */
static long __attribute__((noinline)) stream(size_t step)
{
    simdhttp_parser p;
    simdhttp_init(&p, SIMDHTTP_REQUEST, NULL, &cfg);
    for (size_t off = 0; off < head_len; off += step) {
        size_t n = head_len - off < step ? head_len - off : step;
        if (simdhttp_execute(&p, head + off, n) != SIMDHTTP_OK) return -1;
    }
    return (long)head_len;
}

/* the one function callgrind counts (--toggle-collect=run_mode) */
static long __attribute__((noinline)) run_mode(const char *mode, size_t step)
{
    if (strcmp(mode, "whole") == 0) return whole();
    if (strcmp(mode, "continue") == 0) return steps(step, 1);
    if (strcmp(mode, "stream") == 0) return stream(step);
    return steps(step, 0);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s long|short|one whole|continue|reparse|stream|time [step]\n", argv[0]);
        return 2;
    }
    size_t step = argc > 3 ? strtoul(argv[3], NULL, 10) : 10;
    build(strcmp(argv[1], "long") == 0 ? 520 : strcmp(argv[1], "short") == 0 ? 22 : HEAD_SIZE);
    if (whole() != (long)head_len || steps(step, 1) != (long)head_len) { /* not counted */
        fprintf(stderr, "the head does not parse (%zu bytes)\n", head_len);
        return 1;
    }
    if (strcmp(argv[2], "time") != 0) {
        sink = run_mode(argv[2], step);
        return 0;
    }
    enum { ROUNDS = 31, INNER = 20 };
    double tw[ROUNDS], tc[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) { /* interleaved, so drifts hit both alike */
        double t0 = now();
        for (int i = 0; i < INNER; i++) sink = whole();
        double t1 = now();
        for (int i = 0; i < INNER; i++) sink = steps(step, 1);
        double t2 = now();
        tw[r] = (t1 - t0) / INNER;
        tc[r] = (t2 - t1) / INNER;
    }
    qsort(tw, ROUNDS, sizeof *tw, cmp);
    qsort(tc, ROUNDS, sizeof *tc, cmp);
    printf("%s: %zu-byte head, isa %s: whole call %.1f us, %zu-byte steps (%zu calls) %.1f us: %.2fx (medians of %d)\n",
           argv[1], head_len, simdhttp_isa_name(), tw[ROUNDS / 2] * 1e6, step, (head_len + step - 1) / step,
           tc[ROUNDS / 2] * 1e6, tc[ROUNDS / 2] / tw[ROUNDS / 2], ROUNDS);
    return 0;
}
