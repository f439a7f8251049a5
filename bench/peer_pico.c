/* SPDX-License-Identifier: MIT */
/* picohttpparser, compiled three times by mk/bench.mk:
 *   -DPICO_SRC  the source of Debian's h2o package (apt-get source h2o: deps/picohttpparser,
 *               fetched by bench/peers.sh into build/peers/), built -O3 -march=native so its
 *               SSE4.2/AVX2 paths are in; its symbols renamed native_phr_*
 *   -DPICO_SRC -DPICO_O3  the same source at -O3 without -march (its scalar loops: on this
 *               AMD core faster than pcmpestri on small heads), symbols renamed o3_phr_*;
 *               its best build is the faster of the two on each file
 *   -DPICO_DEB  libh2o as Debian ships it (built without -msse4.2: the byte loops), loaded
 *               at run time by soname (BENCH_PICO_SO), so the program does not depend on
 *               libh2o's TLS/libuv stack; calls go through pointers, as calls into any shared
 *               library go through the PLT.
 * The adapter: phr_parse_request/response with a 256-entry header array; Content-Length and
 * Transfer-Encoding looked up in that array (as h2o does); chunked bodies decoded by
 * phr_decode_chunked, which rewrites its buffer, so it runs on a copy made in the timed loop
 * (the copy is part of its cost, as for a server that must keep the raw bytes). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "bench.h"

#if defined(PICO_SRC) && defined(PICO_O3)
#define phr_parse_request o3_phr_parse_request
#define phr_parse_response o3_phr_parse_response
#define phr_parse_headers o3_phr_parse_headers
#define phr_decode_chunked o3_phr_decode_chunked
#define phr_decode_chunked_is_in_data o3_phr_decode_chunked_is_in_data
#include "picohttpparser.h"
#define PEER_NAME "pico-O3"
#define PEER_VAR bench_peer_pico_o3
#define PEER_SCALING 0
static const char *pico_unavailable(void) { return NULL; }
#elif defined(PICO_SRC)
#define phr_parse_request native_phr_parse_request
#define phr_parse_response native_phr_parse_response
#define phr_parse_headers native_phr_parse_headers
#define phr_decode_chunked native_phr_decode_chunked
#define phr_decode_chunked_is_in_data native_phr_decode_chunked_is_in_data
#include "picohttpparser.h"
#define PEER_NAME "pico-native"
#define PEER_VAR bench_peer_pico_native
#define PEER_SCALING 1 /* in the scaling tables */
static const char *pico_unavailable(void) { return NULL; }
#elif defined(PICO_DEB)
#include <dlfcn.h>
/* Debian's libh2o-dev ships the library (libh2o.so exports phr_*) but no picohttpparser.h:
 * its declarations as in h2o 2.2's deps/picohttpparser. */
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
#define PEER_NAME "pico-libh2o"
#define PEER_VAR bench_peer_pico_libh2o
#define PEER_SCALING 0

/* NULL once libh2o is loaded with the three functions, else why not (tried once). */
static const char *pico_unavailable(void)
{
    static int state; /* 0 not tried, 1 loaded, -1 missing */
    static char why[256];
    if (state) return state > 0 ? NULL : why;
    state = -1;
    void *h = dlopen(BENCH_PICO_SO, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(why, sizeof why, "pico-libh2o: cannot load %s (%s)", BENCH_PICO_SO, dlerror());
        return why;
    }
    void *a = dlsym(h, "phr_parse_request"), *b = dlsym(h, "phr_parse_response"),
         *c = dlsym(h, "phr_decode_chunked");
    if (!a || !b || !c) {
        snprintf(why, sizeof why, "pico-libh2o: %s lacks the phr_* functions", BENCH_PICO_SO);
        return why;
    }
    /* object pointer to function pointer: POSIX guarantees it for dlsym; memcpy keeps C11 quiet */
    memcpy(&phr_parse_request, &a, sizeof a);
    memcpy(&phr_parse_response, &b, sizeof b);
    memcpy(&phr_decode_chunked, &c, sizeof c);
    state = 1;
    return NULL;
}
#else
#error "define PICO_SRC or PICO_DEB"
#endif

typedef struct pico_state {
    struct phr_header h[BENCH_FIELD_CAP];
    char *scratch; /* phr_decode_chunked decodes in place: a copy to decode */
    char *scratch_mem;
} pico_state;

/* The copy goes to the same offset in its page as the source has in its own: glibc's memcpy
 * of a chunked body (8 KB: `rep movsb`) runs 3.5x slower on this AMD core when the destination
 * sits 1-31 bytes past the source modulo 4096, and where each build's scratch buffer fell
 * decided that, not the parser (one layout made the picohttpparser layer's response-chunked
 * 5.2 us against 0.9). Every build of this adapter now pays the same copy. */
static char *scratch_for(pico_state *s, const char *src)
{
    return s->scratch + ((uintptr_t)src & 4095);
}

static void *pico_new(size_t max_input)
{
    pico_state *s = calloc(1, sizeof *s);
    if (!s || !(s->scratch_mem = malloc(max_input + 2 * 4096))) abort();
    s->scratch = (char *)(((uintptr_t)s->scratch_mem + 4095) & ~(uintptr_t)4095);
    return s;
}

static void pico_free(void *st)
{
    pico_state *s = st;
    free(s->scratch_mem);
    free(s);
}

static bench_result pico_run(void *st, const bench_input *in, size_t piece)
{
    pico_state *s = st;
    bench_result r = {0};
    size_t off = 0, avail = piece ? 0 : in->len;
    if (!piece) piece = in->len;
    while (off < in->len) {
        const char *method, *path, *msg;
        size_t method_len, path_len, msg_len, num, last_len = 0;
        int minor, status = 0, n;
        bench_arrive(&avail, off + 1, piece, in->len);
        for (;;) {
            num = BENCH_FIELD_CAP;
            if (in->response)
                n = phr_parse_response(in->buf + off, avail - off, &minor, &status, &msg, &msg_len,
                                       s->h, &num, last_len);
            else
                n = phr_parse_request(in->buf + off, avail - off, &method, &method_len, &path,
                                      &path_len, &minor, s->h, &num, last_len);
            if (n != -2 || avail >= in->len) break;
            last_len = avail - off;
            bench_arrive(&avail, avail + 1, piece, in->len);
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
            const struct phr_header *f = &s->h[i];
            if (BENCH_EQ_LIT(f->name, f->name_len, "content-length")) {
                if (bench_parse_decimal(f->value, f->value_len, &cl) != 0) {
                    r.error = 1;
                    return r;
                }
                has_cl = 1;
            } else if (BENCH_EQ_LIT(f->name, f->name_len, "transfer-encoding")) {
                chunked = BENCH_EQ_LIT(f->value, f->value_len, "chunked");
            }
        }
        int no_body = in->response && (status / 100 == 1 || status == 204 || status == 304);
        if (no_body) {
        } else if (chunked) {
            bench_arrive(&avail, in->len, piece, in->len);
            struct phr_chunked_decoder dec;
            memset(&dec, 0, sizeof dec);
            dec.consume_trailer = 1;
            size_t sz = in->len - off;
            char *copy = scratch_for(s, in->buf + off);
            memcpy(copy, in->buf + off, sz);
            ssize_t left = phr_decode_chunked(&dec, copy, &sz);
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
            bench_arrive(&avail, off, piece, in->len);
        } else if (in->response) {
            r.body_bytes += in->len - off;
            off = in->len;
        }
        r.messages++;
    }
    return r;
}

/* The workload: the header array, scanned for User-Agent and the first Cookie. */
static bench_result pico_workload(void *st, const bench_input *in, bench_answer *a)
{
    pico_state *s = st;
    bench_result r = {0};
    size_t off = 0;
    while (off < in->len) {
        const char *method, *path;
        size_t method_len, path_len, num = BENCH_FIELD_CAP;
        int minor;
        int n = phr_parse_request(in->buf + off, in->len - off, &method, &method_len, &path,
                                  &path_len, &minor, s->h, &num, 0);
        if (n <= 0) {
            r.error = 1;
            return r;
        }
        memset(a, 0, sizeof *a);
        a->method = method;
        a->method_len = method_len;
        uint64_t cl = 0;
        for (size_t i = 0; i < num; i++) {
            const struct phr_header *f = &s->h[i];
            if (BENCH_EQ_LIT(f->name, f->name_len, "user-agent")) {
                a->ua = f->value;
                a->ua_len = f->value_len;
            } else if (!a->cookie && BENCH_EQ_LIT(f->name, f->name_len, "cookie")) {
                bench_first_cookie(f->value, f->value_len, a);
            } else if (BENCH_EQ_LIT(f->name, f->name_len, "content-length")) {
                if (bench_parse_decimal(f->value, f->value_len, &cl) != 0) {
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

const bench_peer PEER_VAR = {PEER_NAME, PEER_SCALING, pico_unavailable, pico_new, pico_free, pico_run, pico_workload};
