/* SPDX-License-Identifier: MIT */
/* Differential fuzzer: simdhttp's picohttpparser layer against the real picohttpparser, in one
 * process (the real one built from Debian's h2o source package with its symbols renamed
 * real_phr_*: mk/compat-picohttpparser.mk).
 *
 * One input = the 10-byte header of fuzz/fuzz_diff.c (so fuzz/corpus seeds it) + bytes:
 *   b0 bits 0-1  what the bytes are: 0 a request head, 1 a response head (each with its
 *                chunked body if it has one), 2 a field block, 3 a chunked body;
 *                bit 2 consume_trailer (kind 3; else the seed's bit 0)   b8, b9  a split seed
 *
 * The layer may refuse what picohttpparser accepts (tests/compat/picohttpparser.known lists why,
 * each with its RFC section), so the checks are one-sided where the rules differ:
 *   heads:   when the layer accepts, picohttpparser accepts the same head (length, start line,
 *            every field's spans; its values may end in SP/HTAB, which the layer trims), except
 *            for several empty lines before a request-line, or any before a status-line
 *            (simdhttp skips them: RFC 9112 2.2, issue 9); when the layer waits for more,
 *            picohttpparser does not accept; when the layer refuses and picohttpparser
 *            accepts, simdhttp's own error is one of the listed kinds; the layer on a buffer
 *            grown from a cut (last_len) gives the whole buffer's result (an error may show
 *            as INCOMPLETE, as last_len allows); when both refuse or wait, the outputs they
 *            leave are the same (start line, *num_headers and the fields below it, and the
 *            entries past it but the value of the one at it and the cases past_listed names);
 *   chunked: whole and in random pieces the layer decodes the same; where both end, the data
 *            and the bytes after it are the same; where the layer goes on or ends,
 *            picohttpparser went on or ended with the same data, unless it refused a chunk
 *            size of over 16 hex digits; where the layer refuses, what it decoded is a prefix
 *            of picohttpparser's data; both in the same pieces (consume_trailer flipped after
 *            the first call when the seed's bit 1 says so), bytes_left_in_chunk after each
 *            call where both returned -2 (or both -1), and where both end, the same body.
 * Any other difference prints both results and traps. make test replays fuzz/corpus through
 * fuzz/replay_main.c (tests/compat/picohttpparser.sh); make fuzz-pico runs libFuzzer. */
#define _DEFAULT_SOURCE /* strncasecmp */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "picohttpparser.h"

#define CFG_BYTES 10
#define NH 12 /* small: TOO_MANY_HEADERS is reached too */

/* the real picohttpparser, renamed */
struct real_decoder {
    size_t bytes_left_in_chunk;
    char consume_trailer, _hex_count, _state;
    char _room[32]; /* later versions have more members */
};
int real_phr_parse_request(const char *buf, size_t len, const char **method, size_t *method_len,
                           const char **path, size_t *path_len, int *minor_version,
                           struct phr_header *headers, size_t *num_headers, size_t last_len);
int real_phr_parse_response(const char *buf, size_t len, int *minor_version, int *status,
                            const char **msg, size_t *msg_len, struct phr_header *headers,
                            size_t *num_headers, size_t last_len);
int real_phr_parse_headers(const char *buf, size_t len, struct phr_header *headers,
                           size_t *num_headers, size_t last_len);
ssize_t real_phr_decode_chunked(struct real_decoder *decoder, char *buf, size_t *bufsz);

static void diverge(const char *what, const char *detail) __attribute__((noreturn));
static void diverge(const char *what, const char *detail)
{
    fprintf(stderr, "\n==== DIVERGENCE: %s ====\n%s\n", what, detail ? detail : "");
    fflush(stderr);
    __builtin_trap();
}

/* ---- heads ---- */

typedef struct head {
    int r, minor, status;
    const char *m, *p; /* method and path, or msg */
    size_t ml, pl, nh;
    struct phr_header h[NH];
} head;

static void parse(int layer, int kind, const char *b, size_t n, size_t last_len, head *o)
{
    memset(o, 0, sizeof *o);
    o->nh = NH;
    if (kind == 0)
        o->r = layer ? phr_parse_request(b, n, &o->m, &o->ml, &o->p, &o->pl, &o->minor, o->h, &o->nh, last_len)
                     : real_phr_parse_request(b, n, &o->m, &o->ml, &o->p, &o->pl, &o->minor, o->h, &o->nh, last_len);
    else if (kind == 1)
        o->r = layer ? phr_parse_response(b, n, &o->minor, &o->status, &o->p, &o->pl, o->h, &o->nh, last_len)
                     : real_phr_parse_response(b, n, &o->minor, &o->status, &o->p, &o->pl, o->h, &o->nh, last_len);
    else
        o->r = layer ? phr_parse_headers(b, n, o->h, &o->nh, last_len) : real_phr_parse_headers(b, n, o->h, &o->nh, last_len);
}

static int ws_only(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t') return 0;
    return 1;
}

/* @return NULL if `real` is the same head as `lay` (values: the layer's may be shorter by
 * trailing SP/HTAB), else what differs */
static const char *same_head(const head *real, const head *lay)
{
    if (real->r != lay->r) return "length";
    if (real->minor != lay->minor || real->status != lay->status) return "version or status";
    if (real->m != lay->m || real->ml != lay->ml || real->p != lay->p || real->pl != lay->pl) return "start line";
    if (real->nh != lay->nh) return "number of fields";
    for (size_t i = 0; i < lay->nh; i++) {
        const struct phr_header *a = &real->h[i], *b = &lay->h[i];
        if (a->name != b->name || a->name_len != b->name_len || a->value != b->value) return "a field";
        if (a->value_len < b->value_len || !ws_only(a->value + b->value_len, a->value_len - b->value_len))
            return "a field's value";
    }
    return NULL;
}

/* @return 1 if the outputs left by a -1 or -2 are the same: the header array below the count,
 * and past it (`past`) but the value and value_len of the entry at the count, which simdhttp
 * writes as it reads and picohttpparser only with the count (docs/compat.md, API details) */
static int same_partial(const head *real, const head *lay, int past)
{
    if (real->minor != lay->minor || real->status != lay->status || real->m != lay->m || real->ml != lay->ml ||
        real->p != lay->p || real->pl != lay->pl || real->nh != lay->nh)
        return 0;
    if (lay->nh > NH) return 1;
    if (memcmp(real->h, lay->h, lay->nh * sizeof *lay->h) != 0) return 0;
    for (size_t i = lay->nh; past && i < NH; i++) {
        const struct phr_header *a = &real->h[i], *b = &lay->h[i];
        if (a->name != b->name || a->name_len != b->name_len ||
            (i > lay->nh && (a->value != b->value || a->value_len != b->value_len)))
            return 0;
    }
    return 1;
}

/* the two cases picohttpparser.known lists (partial: yes) where simdhttp read fields past the
 * count before the layer's answer: empty lines before a start line that picohttpparser refuses
 * (simdhttp skips them all), a status-line without the SP before an empty reason (simdhttp's
 * head API takes it) */
static int past_listed(int kind, const char *b, size_t n)
{
    if (kind == 0) return n >= 4 && memcmp(b, "\r\n\r\n", 4) == 0;
    if (kind != 1) return 0;
    if (n >= 2 && memcmp(b, "\r\n", 2) == 0) return 1;
    return n >= 13 && memcmp(b, "HTTP/1.", 7) == 0 && b[12] == '\r';
}

/* the kinds of refusal tests/compat/picohttpparser.known lists where picohttpparser accepts */
static int listed_refusal(int kind, const char *b, size_t n)
{
    simdhttp_field f[NH];
    simdhttp_head h;
    memset(&h, 0, sizeof h);
    h.fields = f;
    h.fields_cap = NH;
    simdhttp_config cfg = {.max_head_size = 0x7fffffff, .max_fields = NH, .lenient = SIMDHTTP_LENIENT_TARGET_OBS_TEXT};
    long r = kind == 2 ? simdhttp_parse_fields(&h, b, n, &cfg)
                       : simdhttp_parse_head(&h, kind ? SIMDHTTP_RESPONSE : SIMDHTTP_REQUEST, b, n, &cfg);
    if (r > 0) return kind == 1 && h.reason_len == 0; /* the layer's status-line without SP */
    switch (h.error) {
    case SIMDHTTP_E_CR_EXPECTED:           /* bare LF */
    case SIMDHTTP_E_UNEXPECTED_SPACE:      /* obs-fold, an empty target */
    case SIMDHTTP_E_INVALID_METHOD:
    case SIMDHTTP_E_INVALID_URL:           /* a byte above 0x7f first in the target */
    case SIMDHTTP_E_INVALID_VERSION:       /* HTTP/1.2 and up */
    case SIMDHTTP_E_INVALID_STATUS:        /* 000-099 */
    case SIMDHTTP_E_INVALID_CONTENT_LENGTH:
    case SIMDHTTP_E_UNEXPECTED_CONTENT_LENGTH:
    case SIMDHTTP_E_INVALID_TRANSFER_ENCODING:
        return 1;
    default:
        return 0;
    }
}

static void check_chunked(int consume, const uint8_t *in, size_t len, uint32_t seed);

/* @return 1 if the head's last Transfer-Encoding field ends with "chunked" */
static int chunked_body(const head *h)
{
    int yes = 0;
    for (size_t i = 0; i < h->nh; i++)
        if (h->h[i].name && h->h[i].name_len == 17 && strncasecmp(h->h[i].name, "transfer-encoding", 17) == 0)
            yes = h->h[i].value_len >= 7 && strncasecmp(h->h[i].value + h->h[i].value_len - 7, "chunked", 7) == 0;
    return yes;
}

static void check_head(int kind, const uint8_t *in, size_t len, uint32_t seed)
{
    static char detail[512];
    char *b = malloc(len ? len : 1); /* exactly len bytes: ASan sees a read past them */
    if (len) memcpy(b, in, len);
    head real, lay, cut1, cut2;
    parse(0, kind, b, len, 0, &real);
    parse(1, kind, b, len, 0, &lay);
    snprintf(detail, sizeof detail, "kind %d: real %d, layer %d", kind, real.r, lay.r);
    if (lay.r > 0) {
        const char *why = real.r > 0 ? same_head(&real, &lay) : "picohttpparser does not accept it";
        int empty_lines = (kind == 0 && len >= 4 && memcmp(b, "\r\n\r\n", 4) == 0) ||
                          (kind == 1 && len >= 2 && memcmp(b, "\r\n", 2) == 0); /* listed */
        if (why && !(real.r == -1 && empty_lines)) diverge(why, detail);
        if (kind < 2 && real.r > 0 && chunked_body(&lay)) /* and its body */
            check_chunked(seed & 1, in + lay.r, len - (size_t)lay.r, seed);
    } else if (lay.r == -2) {
        if (real.r > 0) diverge("the layer waits for more, picohttpparser accepts", detail);
    } else if (real.r > 0 && !listed_refusal(kind, b, len)) {
        diverge("the layer refuses what picohttpparser accepts, not for a listed reason", detail);
    }
    /* both refuse or wait: the outputs are picohttpparser's (the entries below *num_headers, and
     * past it but where picohttpparser.known lists why) */
    if (lay.r < 0 && real.r < 0 && !same_partial(&real, &lay, !past_listed(kind, b, len)))
        diverge("the outputs after -1/-2 differ", detail);
    /* a cut, then the whole buffer with last_len */
    size_t k = len ? seed % (len + 1) : 0;
    parse(1, kind, b, k, 0, &cut1);
    if (cut1.r == -2) {
        parse(1, kind, b, len, k, &cut2);
        if (!(cut2.r == lay.r && (lay.r <= 0 || !same_head(&cut2, &lay))) && !(cut2.r == -2 && lay.r == -1)) {
            snprintf(detail, sizeof detail, "kind %d cut %zu: whole %d, grown %d", kind, k, lay.r, cut2.r);
            diverge("last_len changed the result", detail);
        }
    } else if (cut1.r != lay.r) {
        snprintf(detail, sizeof detail, "kind %d cut %zu: whole %d, prefix %d", kind, k, lay.r, cut1.r);
        diverge("a prefix decided otherwise", detail);
    }
    free(b);
}

/* ---- chunked ---- */

#define CALLS 64 /* calls whose result and bytes_left_in_chunk are kept */

typedef struct dec {
    long r;         /* -2, -1, or the bytes after the end */
    char *data;     /* decoded, then the bytes after the end */
    size_t n;       /* decoded bytes */
    size_t calls;   /* calls made */
    long rs[CALLS]; /* each call's result and bytes_left_in_chunk after it */
    size_t left[CALLS];
    char last[24];  /* a -1's piece afterwards (pieces of up to 23 bytes): the bytes from the
                       refused one moved after the data, so the same refused byte leaves the same */
} dec;

/* decode in[0..len) in pieces (seed 0: whole), each piece a fresh buffer of its size; flip:
 * consume_trailer flipped after the first call (picohttpparser reads it at the last chunk) */
static void decode(int layer, int consume, int flip, const uint8_t *in, size_t len, uint32_t seed, dec *o)
{
    struct phr_chunked_decoder ld;
    struct real_decoder rd;
    memset(&ld, 0, sizeof ld);
    memset(&rd, 0, sizeof rd);
    ld.consume_trailer = rd.consume_trailer = (char)consume;
    o->data = malloc(len + 1);
    memset(o->last, 0, sizeof o->last);
    o->n = o->calls = 0;
    o->r = -2;
    for (size_t off = 0; off < len && o->r == -2;) {
        size_t p = seed ? 1 + (seed = seed * 1103515245u + 12345u) % 23 : len;
        if (p > len - off) p = len - off;
        char *b = malloc(p);
        memcpy(b, in + off, p);
        size_t n = p;
        o->r = layer ? phr_decode_chunked(&ld, b, &n) : real_phr_decode_chunked(&rd, b, &n);
        if (o->calls < CALLS) {
            o->rs[o->calls] = o->r;
            o->left[o->calls] = layer ? ld.bytes_left_in_chunk : rd.bytes_left_in_chunk;
        }
        if (o->calls++ == 0 && flip) ld.consume_trailer = rd.consume_trailer = (char)!consume;
        if (o->r == -1 && p <= sizeof o->last) memcpy(o->last, b, p);
        off += p;
        if (o->r >= 0) { /* the bytes after the end: this piece's tail, then the rest */
            memcpy(o->data + o->n, b, n + (size_t)o->r);
            memcpy(o->data + o->n + n + o->r, in + off, len - off);
            o->r += (long)(len - off);
        } else {
            memcpy(o->data + o->n, b, n);
        }
        o->n += n;
        free(b);
    }
}

static int long_hex_run(const uint8_t *s, size_t n)
{
    for (size_t i = 0, run = 0; i < n; i++) {
        run = ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'f') || (s[i] >= '0' && s[i] <= '9') ? run + 1 : 0;
        if (run > 16) return 1;
    }
    return 0;
}

static int same_dec(const dec *a, const dec *b)
{
    return a->r == b->r && a->n == b->n && memcmp(a->data, b->data, a->n + (a->r > 0 ? (size_t)a->r : 0)) == 0;
}

/* Both in the same pieces, consume_trailer flipped after the first call when the seed's bit 1
 * says so: bytes_left_in_chunk after each call where both returned -2, or both -1 at the same
 * byte (the same data decoded and the same piece left; not where picohttpparser refused a run
 * of over 16 hex digits, a listed difference); where both end, the same body and the same
 * bytes after it. */
static void check_calls(int consume, const uint8_t *in, size_t len, uint32_t seed)
{
    static char detail[256];
    dec real, lay;
    int flip = (seed >> 1) & 1;
    decode(0, consume, flip, in, len, seed | 1, &real);
    decode(1, consume, flip, in, len, seed | 1, &lay);
    for (size_t i = 0; i < real.calls && i < lay.calls && i < CALLS; i++) {
        if (real.rs[i] != lay.rs[i] || real.rs[i] >= 0) break;
        if (real.rs[i] == -1 && (long_hex_run(in, len) || real.n != lay.n || memcmp(real.last, lay.last, sizeof real.last) != 0))
            break; /* not the same refused byte */
        if (real.left[i] != lay.left[i]) {
            snprintf(detail, sizeof detail, "consume %d flip %d, call %zu: result %ld, bytes_left_in_chunk real %zu, layer %zu",
                     consume, flip, i, real.rs[i], real.left[i], lay.left[i]);
            diverge("bytes_left_in_chunk differs", detail);
        }
    }
    if (real.r >= 0 && lay.r >= 0 && !same_dec(&real, &lay)) {
        snprintf(detail, sizeof detail, "consume %d flip %d: real %ld (%zu bytes), layer %ld (%zu bytes)", consume, flip,
                 real.r, real.n, lay.r, lay.n);
        diverge("the decoded bodies differ (same pieces)", detail);
    }
    free(real.data);
    free(lay.data);
}

static void check_chunked(int consume, const uint8_t *in, size_t len, uint32_t seed)
{
    static char detail[256];
    dec real, lay, lay2;
    decode(0, consume, 0, in, len, 0, &real);
    decode(1, consume, 0, in, len, 0, &lay);
    decode(1, consume, 0, in, len, seed | 1, &lay2);
    snprintf(detail, sizeof detail, "consume %d: real %ld (%zu bytes), layer %ld (%zu bytes), layer in pieces %ld (%zu bytes)",
             consume, real.r, real.n, lay.r, lay.n, lay2.r, lay2.n);
    if (!same_dec(&lay, &lay2)) diverge("the layer decodes differently in pieces", detail);
    if (lay.r == -1) {
        if (real.r != -1 && (lay.n > real.n || memcmp(lay.data, real.data, lay.n) != 0))
            diverge("what the layer decoded before refusing is not picohttpparser's", detail);
    } else if (real.r == -1) {
        if (!long_hex_run(in, len)) diverge("picohttpparser refuses what the layer decodes", detail);
    } else if (lay.r >= 0 || real.r >= 0) {
        if (!same_dec(&real, &lay)) diverge("the decoded bodies differ", detail);
    } else if (real.n != lay.n || memcmp(real.data, lay.data, lay.n) != 0) {
        diverge("the data decoded so far differ", detail);
    }
    if (lay.r > 0 && !consume) check_head(2, (const uint8_t *)lay.data + lay.n, (size_t)lay.r, seed); /* trailers */
    free(real.data);
    free(lay.data);
    free(lay2.data);
    check_calls(consume, in, len, seed);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "fuzz_pico: the real picohttpparser against the layer (paths: %s)\n", simdhttp_isa_name());
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t b[CFG_BYTES] = {0};
    memcpy(b, data, size < CFG_BYTES ? size : CFG_BYTES);
    const uint8_t *in = size > CFG_BYTES ? data + CFG_BYTES : data + size;
    size_t len = size > CFG_BYTES ? size - CFG_BYTES : 0;
    uint32_t seed = (uint32_t)b[8] | (uint32_t)b[9] << 8;
    int kind = b[0] & 3;
    if (kind == 3) check_chunked((b[0] >> 2) & 1, in, len, seed);
    else check_head(kind, in, len, seed);
    return 0;
}
