/* SPDX-License-Identifier: MIT */
/* simdhttp bench: shared declarations of the benchmark suite (tools/bench_*.c, cli_bench.c). */
#ifndef SIMDHTTP_BENCH_H
#define SIMDHTTP_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "simdhttp.h"

/* ---- statistics (tools/bench_stats.c) ---- */

double bench_median(const double *x, size_t n); /* x is not modified */
/* Distribution-free 95% interval of the median: order statistics x_(j), x_(n+1-j) with j the
 * largest rank such that P(Binomial(n, 1/2) < j) <= 0.025 (the sign-test interval; coverage
 * >= 95% for any continuous distribution). Needs n >= 6, else it returns [min, max]. */
void bench_median_ci(const double *x, size_t n, double *lo, double *hi);
/* Two-sided p-value of Welch's unequal-variance t-test of mean(a) == mean(b). */
double bench_welch_p(const double *a, size_t na, const double *b, size_t nb);
/* Regularized incomplete beta I_x(a, b) (exposed for the self-check). */
double bench_ibeta(double a, double b, double x);

/* ---- the parsers under test (tools/bench_parsers.c) ---- */

/* One input: a file or a generated message stream. */
typedef struct bench_input {
    const char *name;
    const char *buf;
    size_t len;
    int response; /* 1 if the stream holds responses */
} bench_input;

/* What a pass over an input found: the same for every correct parser of the same input. */
typedef struct bench_result {
    size_t messages;
    size_t body_bytes;
    size_t spans; /* data spans recorded (streaming parsers) or fields found: not compared */
    int error;    /* non-zero: the parser rejected the input */
} bench_result;

/* The "method + User-Agent + first cookie name" workload's answer for the last message. */
typedef struct bench_answer {
    const char *method; size_t method_len;
    const char *ua; size_t ua_len;
    const char *cookie; size_t cookie_len;
} bench_answer;

enum bench_kind {
    BK_STREAM = 1, /* simdhttp streaming API, callbacks record every span */
    BK_HEAD,       /* simdhttp_parse_head + body located by a chunk walker / Content-Length */
    BK_PICO,       /* picohttpparser (phr_parse_request/response + phr_decode_chunked) */
    BK_HTTP_PARSER, /* http-parser 2.9 (callbacks record every span) */
    BK_FIELDS       /* workload only: simdhttp_parse_head + simdhttp_fields + cookie iterator */
};

typedef struct bench_parser {
    char name[32];
    int kind;         /* enum bench_kind */
    simdhttp_isa isa; /* BK_STREAM/BK_HEAD: the path forced for this row; 0: the dispatched one */
} bench_parser;

/* The parsers this binary can run, in table order; returns how many (at most cap). */
size_t bench_parsers(bench_parser *out, size_t cap, simdhttp_isa dispatched);
/* The workload's rows: simdhttp (fields), simdhttp-head, the peers. */
size_t bench_workload_parsers(bench_parser *out, size_t cap, simdhttp_isa dispatched);
/* Peers missing from this build, one line each (NULL-terminated list). */
const char *const *bench_missing_peers(void);

/* Per-thread scratch state of every adapter (parser objects, span arrays, buffers). */
typedef struct bench_state bench_state;
bench_state *bench_state_new(size_t max_input);
void bench_state_free(bench_state *s);

/* One pass over the whole input: every message, body located or decoded.
 * `piece` > 0 feeds the input in pieces of that many bytes (streaming test); 0: whole. */
bench_result bench_run(bench_state *s, const bench_parser *p, const bench_input *in, size_t piece);
/* The workload on every message of a request stream; the answer is the last message's. */
bench_result bench_workload(bench_state *s, const bench_parser *p, const bench_input *in,
                            bench_answer *ans);

#endif
