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
    BK_STREAM = 1, /* simdhttp streaming API, callbacks record every span; whole field lines
                      through on_header (name and trimmed value in one call) */
    BK_STREAM_SPANS, /* the same with span callbacks only (on_header NULL) */
    BK_HEAD,       /* simdhttp_parse_head + body located by a chunk walker / Content-Length */
    BK_FIELDS,     /* workload only: simdhttp_parse_head + simdhttp_fields + cookie iterator */
    BK_LOOKUP,     /* workload only: simdhttp_parse_head + simdhttp_head_get by id + the head's
                      cookie iterator (zero-copy: no byte copied) */
    BK_PEER        /* another parser (bench/compare.c registers them; the CLI has none) */
};

typedef struct bench_parser {
    char name[32];
    int kind;         /* enum bench_kind */
    simdhttp_isa isa; /* BK_STREAM/BK_HEAD: the path forced for this row; 0: the dispatched one */
    int peer;         /* BK_PEER: index into the registered peers */
} bench_parser;

/* A peer parser: an adapter that does the same work as simdhttp's rows (bench/compare.c). */
typedef struct bench_peer {
    const char *name;
    int scaling; /* 1: also in the scaling, streaming and thread tables (each peer's best build) */
    /* NULL when the peer can run, else one line saying why not (checked once) */
    const char *(*unavailable)(void);
    void *(*state_new)(size_t max_input);
    void (*state_free)(void *st);
    bench_result (*run)(void *st, const bench_input *in, size_t piece);
    /* the workload; NULL if the peer has no row there */
    bench_result (*workload)(void *st, const bench_input *in, bench_answer *ans);
} bench_peer;

/* Register the peers (before cli_bench; `missing` lists, NULL-terminated, those this build
 * could not include and why). The simdhttp CLI registers none: it times simdhttp only. */
void bench_set_peers(const bench_peer *const *peers, size_t n, const char *const *missing);
/* bench/peer_list.c: the peers mk/bench.mk built in, registered (the comparison programs). */
void bench_register_peers(void);

/* The parsers this binary can run, in table order; returns how many (at most cap). */
size_t bench_parsers(bench_parser *out, size_t cap, simdhttp_isa dispatched);
/* The workload's rows: simdhttp (zero-copy lookups), simdhttp-fields, simdhttp-head, the peers. */
size_t bench_workload_parsers(bench_parser *out, size_t cap, simdhttp_isa dispatched);
/* Peers missing from this run, one line each (NULL-terminated list). */
const char *const *bench_missing_peers(void);
/* The registered peer of a BK_PEER row. */
const bench_peer *bench_peer_of(const bench_parser *p);

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

/* ---- helpers every adapter uses (so no parser gets a better one) ---- */

enum { SP_METHOD = 1, SP_URL, SP_VERSION, SP_STATUS_CODE, SP_STATUS, SP_NAME, SP_VALUE, SP_BODY };

#define BENCH_SPAN_CAP 1024
#define BENCH_FIELD_CAP 256

typedef struct bench_span {
    const char *at;
    size_t len;
    int kind;
} bench_span;

/* What a streaming adapter records: every span of the current message. */
typedef struct bench_rec {
    bench_result r;
    size_t nspans;
    bench_span spans[BENCH_SPAN_CAP];
} bench_rec;

static inline void bench_record(bench_rec *s, int kind, const char *at, size_t len)
{
    /* A span continuing the previous one (the element crossed an execute() call) extends it:
     * the buffer is contiguous here, as in a server's receive buffer. */
    if (s->nspans) {
        bench_span *last = &s->spans[s->nspans - 1];
        if (last->kind == kind && last->at + last->len == at) {
            last->len += len;
            return;
        }
    }
    if (s->nspans < BENCH_SPAN_CAP) s->spans[s->nspans++] = (bench_span){at, len, kind};
    s->r.spans++;
}

/* At the end of a value: drop its trailing OWS, as a user of a streaming parser must. */
static inline void bench_trim_value(bench_rec *s)
{
    bench_span *v = s->nspans ? &s->spans[s->nspans - 1] : NULL;
    if (v && v->kind == SP_VALUE)
        while (v->len && (v->at[v->len - 1] == ' ' || v->at[v->len - 1] == '\t')) v->len--;
}

static inline int bench_eq_nocase(const char *s, size_t n, const char *lower, size_t ln)
{
    if (n != ln) return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 'A' && c <= 'Z') c = (unsigned char)(c + 32);
        if (c != (unsigned char)lower[i]) return 0;
    }
    return 1;
}
#define BENCH_EQ_LIT(s, n, lit) bench_eq_nocase((s), (n), lit, sizeof lit - 1)

/* The first cookie's name in a Cookie value ("a=1; b=2" gives "a"), RFC 6265 section 4.2.1. */
static inline void bench_first_cookie(const char *v, size_t n, bench_answer *a)
{
    size_t i = 0;
    while (i < n && (v[i] == ' ' || v[i] == '\t')) i++;
    size_t b = i;
    while (i < n && v[i] != '=' && v[i] != ';') i++;
    a->cookie = v + b;
    a->cookie_len = i - b;
}

static inline int bench_parse_decimal(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    if (n == 0 || n > 19) return -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return 0;
}

/* With pieces, `*avail` is how much of the stream has arrived; grow it to cover `need`. */
static inline void bench_arrive(size_t *avail, size_t need, size_t piece, size_t len)
{
    while (*avail < need && *avail < len) *avail = len - *avail < piece ? len : *avail + piece;
}

/* simdhttp bench's entry point (tools/cli_bench.c): the CLI and bench/compare.c call it. */
/* The whole file at path (malloc'd, *len bytes), or NULL with errno set when it cannot be opened
 * or read (a directory opens, then fails to read: EISDIR). */
char *bench_read_file(const char *path, size_t *len);

int cli_bench(int argc, char **argv);

#endif
