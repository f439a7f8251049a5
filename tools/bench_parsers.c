/* SPDX-License-Identifier: MIT */
/* The parsers under test, each doing the same work: every message of the stream, the head
 * parsed and every element made available to the caller, the body located (Content-Length)
 * or decoded (chunked), as a real user of each API would write it.
 *
 *   simdhttp[-isa]   streaming API; callbacks record every span into an array
 *   simdhttp-head    simdhttp_parse_head; body: Content-Length skip, or the chunk walker below
 *                    (locates chunk data in place, checks hex sizes and CRLFs, skips trailers)
 *   picohttpparser   phr_parse_request/response, Content-Length/Transfer-Encoding looked up
 *                    in the header array, phr_decode_chunked (in place, so on a copy: the copy
 *                    is part of its cost, as it is for a server that must keep the raw bytes)
 *   http-parser      http_parser_execute; callbacks record every span, like simdhttp's
 *
 * Peers are compiled in when mk/bench.mk finds them (HAVE_PICOHTTPPARSER, HAVE_HTTP_PARSER):
 * http-parser linked (statically when its archive exists), libh2o loaded at run time.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "bench.h"

#ifdef HAVE_HTTP_PARSER
#include <http_parser.h>
#endif

#ifdef HAVE_PICOHTTPPARSER
#include <dlfcn.h>
/* Debian's libh2o-dev ships the library (libh2o.so exports the phr_* symbols) but no
 * picohttpparser.h: these are its declarations as in h2o 2.2's deps/picohttpparser.
 * The library is loaded at run time (BENCH_PICO_SO, its soname, found by mk/bench.mk), so
 * the installed CLI does not depend on libh2o and its TLS/libuv stack; calls go through
 * pointers, as calls into any shared library do through the PLT. */
struct phr_header {
    const char *name;
    size_t name_len;
    const char *value;
    size_t value_len;
};
struct phr_chunked_decoder {
    size_t bytes_left_in_chunk;
    char consume_trailer;
    char _hex_count;
    char _state;
    char _room[32]; /* later picohttpparser versions add fields: never let them write past us */
};
static int (*phr_parse_request)(const char *buf, size_t len, const char **method,
                                size_t *method_len, const char **path, size_t *path_len,
                                int *minor_version, struct phr_header *headers,
                                size_t *num_headers, size_t last_len);
static int (*phr_parse_response)(const char *buf, size_t len, int *minor_version, int *status,
                                 const char **msg, size_t *msg_len, struct phr_header *headers,
                                 size_t *num_headers, size_t last_len);
static ssize_t (*phr_decode_chunked)(struct phr_chunked_decoder *decoder, char *buf,
                                     size_t *bufsz);
static char pico_error[256];

/* @return 1 if libh2o is loaded and has the three functions (once per process). */
static int pico_loaded(void)
{
    static int state; /* 0 not tried, 1 loaded, -1 missing */
    if (state) return state > 0;
    state = -1;
    void *h = dlopen(BENCH_PICO_SO, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(pico_error, sizeof pico_error, "picohttpparser: cannot load %s (%s)", BENCH_PICO_SO,
                 dlerror());
        return 0;
    }
    void *a = dlsym(h, "phr_parse_request"), *b = dlsym(h, "phr_parse_response"),
         *c = dlsym(h, "phr_decode_chunked");
    if (!a || !b || !c) {
        snprintf(pico_error, sizeof pico_error, "picohttpparser: %s lacks the phr_* functions",
                 BENCH_PICO_SO);
        return 0;
    }
    /* object pointer to function pointer: POSIX guarantees it for dlsym; memcpy keeps C11 quiet */
    memcpy(&phr_parse_request, &a, sizeof a);
    memcpy(&phr_parse_response, &b, sizeof b);
    memcpy(&phr_decode_chunked, &c, sizeof c);
    state = 1;
    return 1;
}
#endif

#define SPAN_CAP 1024
#define FIELD_CAP 256

enum { SP_METHOD = 1, SP_URL, SP_VERSION, SP_STATUS_CODE, SP_STATUS, SP_NAME, SP_VALUE, SP_BODY };

typedef struct span {
    const char *at;
    size_t len;
    int kind;
} span;

struct bench_state {
    simdhttp_parser sp;
#ifdef HAVE_HTTP_PARSER
    http_parser hp;
#endif
    bench_result r;
    size_t nspans;
    span spans[SPAN_CAP];
    simdhttp_field fields[FIELD_CAP];
#ifdef HAVE_PICOHTTPPARSER
    struct phr_header pico[FIELD_CAP];
#endif
    /* workload, callback style: the current field name and what was found */
    const char *name; size_t name_len;
    int last_was_value, want; /* want: 1 user-agent, 2 cookie (first one only), 0 none */
    bench_answer ans;
    simdhttp_fields fl; /* the workload's collection: one per connection, reused */
    char *scratch; /* picohttpparser decodes chunked bodies in place: a copy to decode */
    size_t scratch_len;
};

bench_state *bench_state_new(size_t max_input)
{
    bench_state *s = calloc(1, sizeof *s);
    if (!s) abort();
    s->scratch_len = max_input;
    s->scratch = malloc(max_input ? max_input : 1);
    if (!s->scratch) abort();
    return s;
}

void bench_state_free(bench_state *s)
{
    if (!s) return;
    simdhttp_fields_free(&s->fl);
    free(s->scratch);
    free(s);
}

const char *const *bench_missing_peers(void)
{
    static const char *missing[3];
    size_t n = 0;
#ifdef HAVE_PICOHTTPPARSER
    if (!pico_loaded()) missing[n++] = pico_error;
#else
    missing[n++] = "picohttpparser: not built in (make bench-deps, or install libh2o-dev; then make bench)";
#endif
#ifndef HAVE_HTTP_PARSER
    missing[n++] = "http-parser: not built in (make bench-deps, or install libhttp-parser-dev; then make bench)";
#endif
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
    ADD("simdhttp-head", BK_HEAD, dispatched);
    for (int i = SIMDHTTP_ISA_SCALAR; i <= SIMDHTTP_ISA_NEON; i++) {
        const char *nm = simdhttp_isa_to_name((simdhttp_isa)i);
        char full[32];
        if (!nm || !simdhttp_isa_supported((simdhttp_isa)i)) continue;
        snprintf(full, sizeof full, "simdhttp-%s", nm);
        ADD(full, BK_STREAM, (simdhttp_isa)i);
    }
#ifdef HAVE_PICOHTTPPARSER
    if (pico_loaded()) ADD("picohttpparser", BK_PICO, 0);
#endif
#ifdef HAVE_HTTP_PARSER
    ADD("http-parser", BK_HTTP_PARSER, 0);
#endif
#undef ADD
    return n;
}

size_t bench_workload_parsers(bench_parser *out, size_t cap, simdhttp_isa dispatched)
{
    bench_parser all[16];
    size_t n = 0, na = bench_parsers(all, 16, dispatched);
    if (n < cap) out[n++] = (bench_parser){"simdhttp", BK_FIELDS, dispatched};
    for (size_t i = 0; i < na && n < cap; i++)
        if (all[i].kind != BK_STREAM) out[n++] = all[i];
    return n;
}

/* ---- helpers shared by every adapter (so no parser gets a better one) ---- */

static int eq_nocase(const char *s, size_t n, const char *lower, size_t ln)
{
    if (n != ln) return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 'A' && c <= 'Z') c = (unsigned char)(c + 32);
        if (c != (unsigned char)lower[i]) return 0;
    }
    return 1;
}
#define EQ_LIT(s, n, lit) eq_nocase((s), (n), lit, sizeof lit - 1)

/* The first cookie's name in a Cookie value ("a=1; b=2" gives "a"), RFC 6265 section 4.2.1. */
static void first_cookie(const char *v, size_t n, bench_answer *a)
{
    size_t i = 0;
    while (i < n && (v[i] == ' ' || v[i] == '\t')) i++;
    size_t b = i;
    while (i < n && v[i] != '=' && v[i] != ';') i++;
    a->cookie = v + b;
    a->cookie_len = i - b;
}

#ifdef HAVE_PICOHTTPPARSER
static int parse_decimal(const char *s, size_t n, uint64_t *out)
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
#endif

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

/* ---- simdhttp streaming and http-parser: callbacks record every span ---- */

static inline void record(bench_state *s, int kind, const char *at, size_t len)
{
    /* A span continuing the previous one (the element crossed an execute() call) extends it:
     * the buffer is contiguous here, as in a server's receive buffer. */
    if (s->nspans) {
        span *last = &s->spans[s->nspans - 1];
        if (last->kind == kind && last->at + last->len == at) {
            last->len += len;
            return;
        }
    }
    if (s->nspans < SPAN_CAP) s->spans[s->nspans++] = (span){at, len, kind};
    s->r.spans++;
}

#define ST(p) ((bench_state *)(p)->data)
static int sh_begin(simdhttp_parser *p) { ST(p)->nspans = 0; return 0; }
static int sh_complete(simdhttp_parser *p) { ST(p)->r.messages++; return 0; }
static int sh_method(simdhttp_parser *p, const char *at, size_t n) { record(ST(p), SP_METHOD, at, n); return 0; }
static int sh_url(simdhttp_parser *p, const char *at, size_t n) { record(ST(p), SP_URL, at, n); return 0; }
static int sh_version(simdhttp_parser *p, const char *at, size_t n) { record(ST(p), SP_VERSION, at, n); return 0; }
static int sh_code(simdhttp_parser *p, const char *at, size_t n) { record(ST(p), SP_STATUS_CODE, at, n); return 0; }
static int sh_status(simdhttp_parser *p, const char *at, size_t n) { record(ST(p), SP_STATUS, at, n); return 0; }
static int sh_name(simdhttp_parser *p, const char *at, size_t n) { record(ST(p), SP_NAME, at, n); return 0; }
static int sh_value(simdhttp_parser *p, const char *at, size_t n) { record(ST(p), SP_VALUE, at, n); return 0; }
static int sh_body(simdhttp_parser *p, const char *at, size_t n)
{
    ST(p)->r.body_bytes += n;
    record(ST(p), SP_BODY, at, n);
    return 0;
}
/* Values include trailing OWS in the streaming API: trim it, as a user must. */
static int sh_value_done(simdhttp_parser *p)
{
    bench_state *s = ST(p);
    span *v = s->nspans ? &s->spans[s->nspans - 1] : NULL;
    if (v && v->kind == SP_VALUE)
        while (v->len && (v->at[v->len - 1] == ' ' || v->at[v->len - 1] == '\t')) v->len--;
    return 0;
}
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
};

static bench_result run_stream(bench_state *s, const bench_input *in, size_t piece)
{
    memset(&s->r, 0, sizeof s->r);
    simdhttp_init(&s->sp, in->response ? SIMDHTTP_RESPONSE : SIMDHTTP_REQUEST, &sh_cb, NULL);
    s->sp.data = s; /* init clears it */
    simdhttp_errno e = SIMDHTTP_OK;
    if (!piece) piece = in->len;
    for (size_t o = 0; o < in->len && e == SIMDHTTP_OK; o += piece)
        e = simdhttp_execute(&s->sp, in->buf + o, in->len - o < piece ? in->len - o : piece);
    if (e == SIMDHTTP_OK) e = simdhttp_finish(&s->sp);
    s->r.error = e != SIMDHTTP_OK;
    return s->r;
}

#ifdef HAVE_HTTP_PARSER
#define HS(p) ((bench_state *)(p)->data)
static int hp_begin(http_parser *p) { HS(p)->nspans = 0; return 0; }
static int hp_complete(http_parser *p) { HS(p)->r.messages++; return 0; }
static int hp_url(http_parser *p, const char *at, size_t n) { record(HS(p), SP_URL, at, n); return 0; }
static int hp_status(http_parser *p, const char *at, size_t n) { record(HS(p), SP_STATUS, at, n); return 0; }
static int hp_name(http_parser *p, const char *at, size_t n) { record(HS(p), SP_NAME, at, n); return 0; }
static int hp_value(http_parser *p, const char *at, size_t n) { record(HS(p), SP_VALUE, at, n); return 0; }
static int hp_body(http_parser *p, const char *at, size_t n)
{
    HS(p)->r.body_bytes += n;
    record(HS(p), SP_BODY, at, n);
    return 0;
}

static const http_parser_settings hp_settings = {
    .on_message_begin = hp_begin,
    .on_url = hp_url,
    .on_status = hp_status,
    .on_header_field = hp_name,
    .on_header_value = hp_value,
    .on_body = hp_body,
    .on_message_complete = hp_complete,
};

static bench_result run_http_parser(bench_state *s, const bench_input *in, size_t piece)
{
    memset(&s->r, 0, sizeof s->r);
    http_parser_init(&s->hp, in->response ? HTTP_RESPONSE : HTTP_REQUEST);
    s->hp.data = s;
    if (!piece) piece = in->len;
    for (size_t o = 0; o < in->len; o += piece) {
        size_t n = in->len - o < piece ? in->len - o : piece;
        if (http_parser_execute(&s->hp, &hp_settings, in->buf + o, n) != n) {
            s->r.error = 1;
            return s->r;
        }
    }
    http_parser_execute(&s->hp, &hp_settings, NULL, 0); /* end of stream */
    s->r.error = HTTP_PARSER_ERRNO(&s->hp) != HPE_OK;
    return s->r;
}
#undef HS
#endif

/* ---- head-style parsers: re-parse the head when more bytes arrive, as their users do ---- */

/* With pieces, `*avail` is how much of the stream has arrived; grow it to cover `need`. */
static inline void arrive(size_t *avail, size_t need, size_t piece, size_t len)
{
    while (*avail < need && *avail < len) *avail = len - *avail < piece ? len : *avail + piece;
}

static bench_result run_head(bench_state *s, const bench_input *in, size_t piece)
{
    bench_result r = {0};
    simdhttp_type type = in->response ? SIMDHTTP_RESPONSE : SIMDHTTP_REQUEST;
    size_t off = 0, avail = piece ? 0 : in->len;
    if (!piece) piece = in->len;
    while (off < in->len) {
        simdhttp_head h;
        h.fields = s->fields;
        h.fields_cap = FIELD_CAP;
        long n;
        arrive(&avail, off + 1, piece, in->len);
        while ((n = simdhttp_parse_head(&h, type, in->buf + off, avail - off, NULL)) ==
                   SIMDHTTP_HEAD_INCOMPLETE && avail < in->len)
            arrive(&avail, avail + 1, piece, in->len);
        if (n <= 0) {
            r.error = 1;
            return r;
        }
        off += (size_t)n;
        r.spans += h.num_fields;
        if (h.flags & SIMDHTTP_F_CHUNKED) {
            arrive(&avail, in->len, piece, in->len); /* the walker wants the whole body */
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
            arrive(&avail, off, piece, in->len);
        } else if (h.flags & SIMDHTTP_F_BODY_UNTIL_CLOSE) {
            r.body_bytes += in->len - off;
            off = in->len;
        }
        r.messages++;
    }
    return r;
}

#ifdef HAVE_PICOHTTPPARSER
static bench_result run_pico(bench_state *s, const bench_input *in, size_t piece)
{
    bench_result r = {0};
    size_t off = 0, avail = piece ? 0 : in->len;
    if (!piece) piece = in->len;
    while (off < in->len) {
        const char *method, *path, *msg;
        size_t method_len, path_len, msg_len, num, last_len = 0;
        int minor, status = 0, n;
        arrive(&avail, off + 1, piece, in->len);
        for (;;) {
            num = FIELD_CAP;
            if (in->response)
                n = phr_parse_response(in->buf + off, avail - off, &minor, &status, &msg, &msg_len,
                                       s->pico, &num, last_len);
            else
                n = phr_parse_request(in->buf + off, avail - off, &method, &method_len, &path,
                                      &path_len, &minor, s->pico, &num, last_len);
            if (n != -2 || avail >= in->len) break;
            last_len = avail - off;
            arrive(&avail, avail + 1, piece, in->len);
        }
        if (n <= 0) {
            r.error = 1;
            return r;
        }
        off += (size_t)n;
        r.spans += num;
        /* Framing from the header array (RFC 9112 section 6.3), as h2o does. */
        uint64_t cl = 0;
        int has_cl = 0, chunked = 0;
        for (size_t i = 0; i < num; i++) {
            const struct phr_header *f = &s->pico[i];
            if (EQ_LIT(f->name, f->name_len, "content-length")) {
                if (parse_decimal(f->value, f->value_len, &cl) != 0) {
                    r.error = 1;
                    return r;
                }
                has_cl = 1;
            } else if (EQ_LIT(f->name, f->name_len, "transfer-encoding")) {
                chunked = EQ_LIT(f->value, f->value_len, "chunked");
            }
        }
        int no_body = in->response && (status / 100 == 1 || status == 204 || status == 304);
        if (no_body) {
        } else if (chunked) {
            arrive(&avail, in->len, piece, in->len);
            struct phr_chunked_decoder dec;
            memset(&dec, 0, sizeof dec);
            dec.consume_trailer = 1;
            size_t sz = in->len - off;
            memcpy(s->scratch, in->buf + off, sz);
            ssize_t left = phr_decode_chunked(&dec, s->scratch, &sz);
            if (left < 0) {
                r.error = 1;
                return r;
            }
            r.body_bytes += sz;
            off = in->len - (size_t)left;
        } else if (has_cl) {
            if (cl > in->len - off) {
                r.error = 1;
                return r;
            }
            off += cl;
            r.body_bytes += cl;
            arrive(&avail, off, piece, in->len);
        } else if (in->response) {
            r.body_bytes += in->len - off;
            off = in->len;
        }
        r.messages++;
    }
    return r;
}
#endif

bench_result bench_run(bench_state *s, const bench_parser *p, const bench_input *in, size_t piece)
{
    bench_result none = {0, 0, 0, 1};
    switch (p->kind) {
    case BK_STREAM: return run_stream(s, in, piece);
    case BK_HEAD: return run_head(s, in, piece);
#ifdef HAVE_PICOHTTPPARSER
    case BK_PICO: return run_pico(s, in, piece);
#endif
#ifdef HAVE_HTTP_PARSER
    case BK_HTTP_PARSER: return run_http_parser(s, in, piece);
#endif
    default: return none;
    }
}

/* ---- the workload: method, User-Agent value, first cookie name of every request ---- */

static bench_result wl_head(bench_state *s, const bench_input *in, bench_answer *a)
{
    bench_result r = {0};
    size_t off = 0;
    while (off < in->len) {
        simdhttp_head h;
        h.fields = s->fields;
        h.fields_cap = FIELD_CAP;
        long n = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, in->buf + off, in->len - off, NULL);
        if (n <= 0 || (h.flags & SIMDHTTP_F_CHUNKED)) {
            r.error = 1;
            return r;
        }
        memset(a, 0, sizeof *a);
        a->method = h.method_str;
        a->method_len = h.method_len;
        for (size_t i = 0; i < h.num_fields; i++) {
            const simdhttp_field *f = &h.fields[i];
            if (EQ_LIT(f->name, f->name_len, "user-agent")) {
                a->ua = f->value;
                a->ua_len = f->value_len;
            } else if (!a->cookie && EQ_LIT(f->name, f->name_len, "cookie")) {
                first_cookie(f->value, f->value_len, a);
            }
        }
        off += (size_t)n;
        if (h.flags & SIMDHTTP_F_CONTENT_LENGTH) off += h.content_length;
        r.messages++;
    }
    if (off != in->len) r.error = 1;
    return r;
}

/* simdhttp as the workload states it: the parser, the field collection built from the
 * head, a lookup by known id, the cookie iterator. */
static bench_result wl_fields(bench_state *s, const bench_input *in, bench_answer *a)
{
    bench_result r = {0};
    size_t off = 0;
    while (off < in->len) {
        simdhttp_head h;
        h.fields = s->fields;
        h.fields_cap = FIELD_CAP;
        long n = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, in->buf + off, in->len - off, NULL);
        if (n <= 0 || (h.flags & SIMDHTTP_F_CHUNKED) || simdhttp_fields_from_head(&s->fl, &h) != 0) {
            r.error = 1;
            return r;
        }
        memset(a, 0, sizeof *a);
        a->method = h.method_str;
        a->method_len = h.method_len;
        a->ua = simdhttp_fields_get(&s->fl, NULL, SIMDHTTP_FIELD_USER_AGENT, &a->ua_len);
        simdhttp_cookie_iter it;
        simdhttp_field c;
        simdhttp_fields_cookies(&s->fl, &it);
        if (simdhttp_cookie_next(&it, &c) == 1) {
            a->cookie = c.name;
            a->cookie_len = c.name_len;
        }
        off += (size_t)n;
        if (h.flags & SIMDHTTP_F_CONTENT_LENGTH) off += h.content_length;
        r.messages++;
    }
    if (off != in->len) r.error = 1;
    return r;
}

#ifdef HAVE_PICOHTTPPARSER
static bench_result wl_pico(bench_state *s, const bench_input *in, bench_answer *a)
{
    bench_result r = {0};
    size_t off = 0;
    while (off < in->len) {
        const char *method, *path;
        size_t method_len, path_len, num = FIELD_CAP;
        int minor;
        int n = phr_parse_request(in->buf + off, in->len - off, &method, &method_len, &path,
                                  &path_len, &minor, s->pico, &num, 0);
        if (n <= 0) {
            r.error = 1;
            return r;
        }
        memset(a, 0, sizeof *a);
        a->method = method;
        a->method_len = method_len;
        uint64_t cl = 0;
        for (size_t i = 0; i < num; i++) {
            const struct phr_header *f = &s->pico[i];
            if (EQ_LIT(f->name, f->name_len, "user-agent")) {
                a->ua = f->value;
                a->ua_len = f->value_len;
            } else if (!a->cookie && EQ_LIT(f->name, f->name_len, "cookie")) {
                first_cookie(f->value, f->value_len, a);
            } else if (EQ_LIT(f->name, f->name_len, "content-length")) {
                if (parse_decimal(f->value, f->value_len, &cl) != 0) {
                    r.error = 1;
                    return r;
                }
            }
        }
        off += (size_t)n + cl;
        r.messages++;
    }
    if (off != in->len) r.error = 1;
    return r;
}
#endif

#ifdef HAVE_HTTP_PARSER
#define HS(p) ((bench_state *)(p)->data)
static int wl_begin(http_parser *p)
{
    memset(&HS(p)->ans, 0, sizeof HS(p)->ans);
    HS(p)->name = NULL;
    HS(p)->name_len = 0;
    HS(p)->last_was_value = 1;
    return 0;
}
static int wl_name(http_parser *p, const char *at, size_t n)
{
    bench_state *s = HS(p);
    if (s->last_was_value) { /* a new field begins */
        s->name = at;
        s->name_len = 0;
        s->last_was_value = 0;
    }
    s->name_len += n; /* spans of one name are contiguous in the one buffer given */
    return 0;
}
static int wl_value(http_parser *p, const char *at, size_t n)
{
    bench_state *s = HS(p);
    if (!s->last_was_value) { /* the value of the name just read begins */
        s->last_was_value = 1;
        s->want = EQ_LIT(s->name, s->name_len, "user-agent") ? 1
                  : !s->ans.cookie && EQ_LIT(s->name, s->name_len, "cookie") ? 2 : 0;
        if (s->want == 1) {
            s->ans.ua = at;
            s->ans.ua_len = 0;
        } else if (s->want == 2) {
            s->ans.cookie = at;
            s->ans.cookie_len = 0;
        }
    }
    if (s->want == 1) s->ans.ua_len += n;
    else if (s->want == 2) s->ans.cookie_len += n;
    return 0;
}
static int wl_headers_done(http_parser *p)
{
    bench_state *s = HS(p);
    const char *m = http_method_str((enum http_method)p->method);
    s->ans.method = m;
    s->ans.method_len = strlen(m);
    if (s->ans.cookie) first_cookie(s->ans.cookie, s->ans.cookie_len, &s->ans);
    return 0;
}
static int wl_complete(http_parser *p) { HS(p)->r.messages++; return 0; }
#undef HS

static const http_parser_settings wl_settings = {
    .on_message_begin = wl_begin,
    .on_header_field = wl_name,
    .on_header_value = wl_value,
    .on_headers_complete = wl_headers_done,
    .on_message_complete = wl_complete,
};

static bench_result wl_http_parser(bench_state *s, const bench_input *in, bench_answer *a)
{
    memset(&s->r, 0, sizeof s->r);
    http_parser_init(&s->hp, HTTP_REQUEST);
    s->hp.data = s;
    if (http_parser_execute(&s->hp, &wl_settings, in->buf, in->len) != in->len ||
        HTTP_PARSER_ERRNO(&s->hp) != HPE_OK)
        s->r.error = 1;
    *a = s->ans;
    return s->r;
}
#endif

bench_result bench_workload(bench_state *s, const bench_parser *p, const bench_input *in,
                            bench_answer *a)
{
    bench_result none = {0, 0, 0, 1};
    switch (p->kind) {
    case BK_FIELDS: return wl_fields(s, in, a);
    case BK_HEAD: return wl_head(s, in, a);
#ifdef HAVE_PICOHTTPPARSER
    case BK_PICO: return wl_pico(s, in, a);
#endif
#ifdef HAVE_HTTP_PARSER
    case BK_HTTP_PARSER: return wl_http_parser(s, in, a);
#endif
    default: return none;
    }
}
