/* SPDX-License-Identifier: MIT */
/* The parsers under test, each doing the same work: every message of the stream, the head
 * parsed and every element made available to the caller, the body located (Content-Length)
 * or decoded (chunked), as a real user of each API would write it.
 *
 *   simdhttp[-isa]   streaming API; callbacks record every span into an array
 *   simdhttp-head    simdhttp_parse_head; body: Content-Length skip, or the chunk walker below
 *                    (locates chunk data in place, checks hex sizes and CRLFs, skips trailers)
 *   peers            registered by bench/compare.c (picohttpparser, llhttp, http-parser): the
 *                    simdhttp CLI links none of them, so `simdhttp bench` times simdhttp only
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "bench.h"

#define MAX_PEERS 8

static const bench_peer *const *peers;
static size_t npeers;
static const char *const *peers_missing;

void bench_set_peers(const bench_peer *const *p, size_t n, const char *const *missing)
{
    peers = p;
    npeers = n < MAX_PEERS ? n : MAX_PEERS;
    peers_missing = missing;
}

const bench_peer *bench_peer_of(const bench_parser *p) { return peers[p->peer]; }

struct bench_state {
    simdhttp_parser sp;
    bench_rec rec; /* streaming adapters */
    simdhttp_field fields[BENCH_FIELD_CAP];
    simdhttp_fields fl; /* the workload's collection: one per connection, reused */
    void *peer[MAX_PEERS]; /* each peer's own state, made at its first use */
    unsigned char made[MAX_PEERS];
    size_t max_input;
};

bench_state *bench_state_new(size_t max_input)
{
    bench_state *s = calloc(1, sizeof *s);
    if (!s) abort();
    s->max_input = max_input;
    return s;
}

/* A peer's state is made when a parser of it first runs, not for every peer up front: a run
 * that measures some parsers never executes the others' code (under valgrind, which lacks
 * AVX-512, a -march=native peer's setup would otherwise end a run that does not measure it).
 * Every measurement makes one untimed, uncounted pass first, so this is never measured. */
__attribute__((noinline, cold)) static void *peer_make(bench_state *s, size_t i)
{
    if (!s->made[i]) {
        s->made[i] = 1;
        if (!peers[i]->unavailable || !peers[i]->unavailable()) s->peer[i] = peers[i]->state_new(s->max_input);
    }
    return s->peer[i];
}

/* the measured path: the load and test it always had; the making is out of line */
static inline void *peer_state(bench_state *s, size_t i)
{
    void *ps = s->peer[i];
    return __builtin_expect(ps != NULL, 1) ? ps : peer_make(s, i);
}

void bench_state_free(bench_state *s)
{
    if (!s) return;
    for (size_t i = 0; i < npeers; i++)
        if (s->peer[i]) peers[i]->state_free(s->peer[i]);
    simdhttp_fields_free(&s->fl);
    free(s);
}

const char *const *bench_missing_peers(void)
{
    static const char *missing[2 * MAX_PEERS + 1];
    size_t n = 0;
    for (size_t i = 0; i < npeers; i++) {
        const char *why = peers[i]->unavailable ? peers[i]->unavailable() : NULL;
        if (why) missing[n++] = why;
    }
    for (size_t i = 0; peers_missing && peers_missing[i] && n < 2 * MAX_PEERS; i++) missing[n++] = peers_missing[i];
    missing[n] = NULL;
    return missing;
}

size_t bench_parsers(bench_parser *out, size_t cap, simdhttp_isa dispatched)
{
    size_t n = 0;
#define ADD(nm, k, i)                                                                       \
    do {                                                                                    \
        if (n < cap) {                                                                      \
            snprintf(out[n].name, sizeof out[n].name, "%s", nm);                            \
            out[n].kind = (k);                                                              \
            out[n].isa = (i);                                                               \
            n++;                                                                            \
        }                                                                                   \
    } while (0)
    ADD("simdhttp", BK_STREAM, dispatched);
    ADD("simdhttp-spans", BK_STREAM_SPANS, dispatched);
    ADD("simdhttp-head", BK_HEAD, dispatched);
    for (int i = SIMDHTTP_ISA_SCALAR; i <= SIMDHTTP_ISA_NEON; i++) {
        const char *nm = simdhttp_isa_to_name((simdhttp_isa)i);
        char full[32];
        if (!nm || !simdhttp_isa_supported((simdhttp_isa)i)) continue;
        snprintf(full, sizeof full, "simdhttp-%s", nm);
        ADD(full, BK_STREAM, (simdhttp_isa)i);
    }
    for (size_t i = 0; i < npeers; i++)
        if (!peers[i]->unavailable || !peers[i]->unavailable()) {
            ADD(peers[i]->name, BK_PEER, 0);
            if (n) out[n - 1].peer = (int)i;
        }
#undef ADD
    return n;
}

size_t bench_workload_parsers(bench_parser *out, size_t cap, simdhttp_isa dispatched)
{
    bench_parser all[16];
    size_t n = 0, na = bench_parsers(all, 16, dispatched);
    if (n < cap) out[n++] = (bench_parser){"simdhttp", BK_LOOKUP, dispatched, 0};
    if (n < cap) out[n++] = (bench_parser){"simdhttp-fields", BK_FIELDS, dispatched, 0};
    for (size_t i = 0; i < na && n < cap; i++)
        if (all[i].kind == BK_HEAD || (all[i].kind == BK_PEER && peers[all[i].peer]->workload))
            out[n++] = all[i];
    return n;
}

/* ---- input files ---- */

/* NULL with errno set when the file cannot be opened or read (a directory opens, then fails
 * to read: EISDIR). */
char *bench_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    for (;;) {
        if (n == cap) b = realloc(b, cap *= 2);
        if (!b) abort();
        size_t k = fread(b + n, 1, cap - n, f);
        if (k == 0) break;
        n += k;
    }
    if (ferror(f)) {
        int e = errno;
        fclose(f);
        free(b);
        errno = e;
        return NULL;
    }
    fclose(f);
    *len = n;
    return b;
}

/* ---- the chunk walker of simdhttp-head ---- */

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    c |= 0x20;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* Walks a chunked body in place: sizes, extensions skipped to the line end, data located,
 * CRLF after data checked, trailer lines skipped to the empty line.
 * @return bytes of chunked framing + data consumed, or -1 (malformed or incomplete). */
static long walk_chunked(const char *p, size_t len, size_t *body)
{
    size_t i = 0;
    for (;;) {
        uint64_t size = 0;
        size_t start = i;
        int h;
        while (i < len && (h = hexval((unsigned char)p[i])) >= 0) {
            if (size >> 60) return -1;
            size = size << 4 | (uint64_t)h;
            i++;
        }
        if (i == start) return -1;
        const char *lf = memchr(p + i, '\n', len - i);
        if (!lf || lf[-1] != '\r') return -1; /* i > start: lf[-1] is in the line */
        i = (size_t)(lf - p) + 1;
        if (size == 0) break;
        if (size > len - i || len - i - size < 2) return -1;
        *body += size;
        i += size;
        if (p[i] != '\r' || p[i + 1] != '\n') return -1;
        i += 2;
    }
    for (;;) { /* trailer section: lines until an empty one */
        const char *lf = memchr(p + i, '\n', len - i);
        if (!lf || lf == p + i || lf[-1] != '\r') return -1;
        size_t line = (size_t)(lf - p) + 1 - i;
        i += line;
        if (line == 2) return (long)i;
    }
}

/* ---- simdhttp streaming: callbacks record every span ---- */

#define ST(p) (&((bench_state *)(p)->data)->rec)
static int sh_begin(simdhttp_parser *p) { ST(p)->nspans = 0; return 0; }
static int sh_complete(simdhttp_parser *p) { ST(p)->r.messages++; return 0; }
static int sh_method(simdhttp_parser *p, const char *at, size_t n) { bench_record(ST(p), SP_METHOD, at, n); return 0; }
static int sh_url(simdhttp_parser *p, const char *at, size_t n) { bench_record(ST(p), SP_URL, at, n); return 0; }
static int sh_version(simdhttp_parser *p, const char *at, size_t n) { bench_record(ST(p), SP_VERSION, at, n); return 0; }
static int sh_code(simdhttp_parser *p, const char *at, size_t n) { bench_record(ST(p), SP_STATUS_CODE, at, n); return 0; }
static int sh_status(simdhttp_parser *p, const char *at, size_t n) { bench_record(ST(p), SP_STATUS, at, n); return 0; }
static int sh_name(simdhttp_parser *p, const char *at, size_t n) { bench_record(ST(p), SP_NAME, at, n); return 0; }
static int sh_value(simdhttp_parser *p, const char *at, size_t n) { bench_record(ST(p), SP_VALUE, at, n); return 0; }
static int sh_body(simdhttp_parser *p, const char *at, size_t n)
{
    ST(p)->r.body_bytes += n;
    bench_record(ST(p), SP_BODY, at, n);
    return 0;
}
/* Values include trailing OWS in the streaming API: trim it, as a user must. */
static int sh_value_done(simdhttp_parser *p) { bench_trim_value(ST(p)); return 0; }
/* A whole field line: the same two spans the span callbacks record (the value trimmed). */
static int sh_whole(simdhttp_parser *p, const char *n, size_t nl, const char *v, size_t vl)
{
    bench_record(ST(p), SP_NAME, n, nl);
    if (vl) bench_record(ST(p), SP_VALUE, v, vl);
    return 0;
}

static const simdhttp_callbacks sh_cb_spans = {
    .on_message_begin = sh_begin,
    .on_method = sh_method,
    .on_url = sh_url,
    .on_version = sh_version,
    .on_status_code = sh_code,
    .on_status = sh_status,
    .on_header_field = sh_name,
    .on_header_value = sh_value,
    .on_header_value_complete = sh_value_done,
    .on_body = sh_body,
    .on_message_complete = sh_complete,
};
#undef ST

static const simdhttp_callbacks sh_cb = {
    .on_message_begin = sh_begin,
    .on_method = sh_method,
    .on_url = sh_url,
    .on_version = sh_version,
    .on_status_code = sh_code,
    .on_status = sh_status,
    .on_header_field = sh_name,
    .on_header_value = sh_value,
    .on_header_value_complete = sh_value_done,
    .on_body = sh_body,
    .on_message_complete = sh_complete,
    .on_header = sh_whole,
};

static bench_result run_stream(bench_state *s, const bench_input *in, size_t piece, const simdhttp_callbacks *cb)
{
    memset(&s->rec.r, 0, sizeof s->rec.r);
    simdhttp_init(&s->sp, in->response ? SIMDHTTP_RESPONSE : SIMDHTTP_REQUEST, cb, NULL);
    s->sp.data = s; /* init clears it */
    simdhttp_errno e = SIMDHTTP_OK;
    if (!piece) piece = in->len;
    for (size_t o = 0; o < in->len && e == SIMDHTTP_OK; o += piece)
        e = simdhttp_execute(&s->sp, in->buf + o, in->len - o < piece ? in->len - o : piece);
    if (e == SIMDHTTP_OK) e = simdhttp_finish(&s->sp);
    s->rec.r.error = e != SIMDHTTP_OK;
    return s->rec.r;
}

/* ---- head-style parsers: re-parse the head when more bytes arrive, as their users do ---- */

static bench_result run_head(bench_state *s, const bench_input *in, size_t piece)
{
    bench_result r = {0};
    simdhttp_type type = in->response ? SIMDHTTP_RESPONSE : SIMDHTTP_REQUEST;
    size_t off = 0, avail = piece ? 0 : in->len;
    if (!piece) piece = in->len;
    while (off < in->len) {
        simdhttp_head h;
        h.fields = s->fields;
        h.fields_cap = BENCH_FIELD_CAP;
        long n;
        bench_arrive(&avail, off + 1, piece, in->len);
        while ((n = simdhttp_parse_head(&h, type, in->buf + off, avail - off, NULL)) ==
                   SIMDHTTP_HEAD_INCOMPLETE && avail < in->len)
            bench_arrive(&avail, avail + 1, piece, in->len);
        if (n <= 0) {
            r.error = 1;
            return r;
        }
        off += (size_t)n;
        r.spans += h.num_fields;
        if (h.flags & SIMDHTTP_F_CHUNKED) {
            bench_arrive(&avail, in->len, piece, in->len); /* the walker wants the whole body */
            long c = walk_chunked(in->buf + off, in->len - off, &r.body_bytes);
            if (c < 0) {
                r.error = 1;
                return r;
            }
            off += (size_t)c;
        } else if (h.flags & SIMDHTTP_F_CONTENT_LENGTH) {
            if (h.content_length > in->len - off) {
                r.error = 1;
                return r;
            }
            off += h.content_length;
            r.body_bytes += h.content_length;
            bench_arrive(&avail, off, piece, in->len);
        } else if (h.flags & SIMDHTTP_F_BODY_UNTIL_CLOSE) {
            r.body_bytes += in->len - off;
            off = in->len;
        }
        r.messages++;
    }
    return r;
}

bench_result bench_run(bench_state *s, const bench_parser *p, const bench_input *in, size_t piece)
{
    bench_result none = {0, 0, 0, 1};
    switch (p->kind) {
    case BK_STREAM: return run_stream(s, in, piece, &sh_cb);
    case BK_STREAM_SPANS: return run_stream(s, in, piece, &sh_cb_spans);
    case BK_HEAD: return run_head(s, in, piece);
    case BK_PEER: {
        void *ps = peer_state(s, p->peer);
        return ps ? peers[p->peer]->run(ps, in, piece) : none;
    }
    default: return none;
    }
}

/* ---- the workload: method, User-Agent value, first cookie name of every request ---- */

/* One loop for simdhttp's three ways to answer it; `kind` is a constant in each caller, so each
 * gets its own copy of the loop with one way inlined, as if written out three times:
 *   BK_HEAD    a user's loop over the head's field array (names compared as peers do);
 *   BK_FIELDS  the statement of it: the field collection built from the head, a lookup
 *              by known id, the collection's cookie iterator;
 *   BK_LOOKUP  lookups by known id on the parsed head and the head's cookie iterator, no copy:
 *              every answer is a span of the input. */
static inline __attribute__((always_inline)) bench_result wl_loop(bench_state *s, const bench_input *in,
                                                                  bench_answer *a, int kind)
{
    bench_result r = {0};
    size_t off = 0;
    while (off < in->len) {
        simdhttp_head h;
        h.fields = s->fields;
        h.fields_cap = BENCH_FIELD_CAP;
        long n = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, in->buf + off, in->len - off, NULL);
        if (n <= 0 || (h.flags & SIMDHTTP_F_CHUNKED) ||
            (kind == BK_FIELDS && simdhttp_fields_from_head(&s->fl, &h) != 0)) {
            r.error = 1;
            return r;
        }
        memset(a, 0, sizeof *a);
        a->method = h.method_str;
        a->method_len = h.method_len;
        if (kind == BK_HEAD) {
            for (size_t i = 0; i < h.num_fields; i++) {
                const simdhttp_field *f = &h.fields[i];
                if (BENCH_EQ_LIT(f->name, f->name_len, "user-agent")) {
                    a->ua = f->value;
                    a->ua_len = f->value_len;
                } else if (!a->cookie && BENCH_EQ_LIT(f->name, f->name_len, "cookie")) {
                    bench_first_cookie(f->value, f->value_len, a);
                }
            }
        } else {
            simdhttp_cookie_iter it;
            simdhttp_field c;
            if (kind == BK_FIELDS) {
                a->ua = simdhttp_fields_get(&s->fl, NULL, SIMDHTTP_FIELD_USER_AGENT, &a->ua_len);
                simdhttp_fields_cookies(&s->fl, &it);
            } else {
                a->ua = simdhttp_head_get(&h, NULL, SIMDHTTP_FIELD_USER_AGENT, &a->ua_len);
                simdhttp_head_cookies(&h, &it);
            }
            if (simdhttp_cookie_next(&it, &c) == 1) {
                a->cookie = c.name;
                a->cookie_len = c.name_len;
            }
        }
        off += (size_t)n;
        if (h.flags & SIMDHTTP_F_CONTENT_LENGTH) off += h.content_length;
        r.messages++;
    }
    if (off != in->len) r.error = 1;
    return r;
}

static bench_result wl_head(bench_state *s, const bench_input *in, bench_answer *a) { return wl_loop(s, in, a, BK_HEAD); }
static bench_result wl_fields(bench_state *s, const bench_input *in, bench_answer *a) { return wl_loop(s, in, a, BK_FIELDS); }
static bench_result wl_lookup(bench_state *s, const bench_input *in, bench_answer *a) { return wl_loop(s, in, a, BK_LOOKUP); }

bench_result bench_workload(bench_state *s, const bench_parser *p, const bench_input *in,
                            bench_answer *a)
{
    bench_result none = {0, 0, 0, 1};
    switch (p->kind) {
    case BK_FIELDS: return wl_fields(s, in, a);
    case BK_LOOKUP: return wl_lookup(s, in, a);
    case BK_HEAD: return wl_head(s, in, a);
    case BK_PEER: {
        void *ps = peers[p->peer]->workload ? peer_state(s, p->peer) : NULL;
        return ps ? peers[p->peer]->workload(ps, in, a) : none;
    }
    default: return none;
    }
}
