/* SPDX-License-Identifier: MIT */
/* The picohttpparser side of tests/compat/diff.py: written only against picohttpparser's API,
 * built twice (the real picohttpparser from Debian's h2o source package, and simdhttp's layer).
 * The contract is at the top of diff.py; the input arrives the way picohttpparser's users read
 * a socket: one buffer that grows by one piece per read, re-parsed with last_len = its
 * previous length until the head is complete; bodies by Content-Length, chunked bodies through
 * phr_decode_chunked one piece at a time (in place, each piece a fresh copy), the trailer
 * section through phr_parse_headers; then the next message. Each call's buffer is a malloc'd
 * copy of exactly its length, so ASan sees a read past it.
 *
 *   request len=N minor=1 headers=2      a head (response: minor=1 status=200); its spans:
 *   off=0 len=3 span[method]="GET"       method, path (response: msg), each field's name
 *   off=16 len=4 span[name]="Host"       ("continuation" for name == NULL) and value,
 *   off=22 len=9 span[value]="a.b"       absolute offsets, escaped bytes
 *   body off=N len=N                     a Content-Length body, or the rest until EOF
 *   partial chunked left=N               after each phr_decode_chunked piece that returned -2:
 *                                        bytes_left_in_chunk (the size's digits so far in a
 *                                        chunk line, the data due in the data, else 0)
 *   in data off=N left=N                 after a phr_decode_chunked piece that stopped in data
 *   chunked data len=N "..."             the decoded body, then where the encoding ended and
 *   chunked end off=N left=0             bytes_left_in_chunk (-1: "error off=N left=N")
 *   flipped chunked data len=N "..."     the body decoded again from the same pieces, with
 *   flipped chunked end off=N left=0     consume_trailer flipped after the first call
 *                                        (picohttpparser reads it at the last chunk)
 *   trailers len=N headers=N             (the trailer section, if not consumed, follows as
 *                                        phr_parse_headers reads it)
 *   closed by the added empty line       the input ended inside a head: empty lines (4 CRLF)
 *                                        were delivered once more, silently, so that both
 *                                        builds decide on the head; then the end
 *   ok | incomplete | error off=N        the result: every byte consumed; the input ended
 *                                        inside a message; -1 in the message (or chunked
 *                                        body) at offset N; after a 101 response the rest is
 *                                        another protocol: "switching protocols off=N", ok
 *   partial method=0+3 path=NULL+0 ...   after each -1 or -2 of a head call: what it wrote
 *                                        in the outputs (below: "what a -1 or -2 leaves")
 *   error rest "..."                     after a chunked body's -1: the bytes after the data
 *
 * Types (-t): request, response, both (a message starting "HTTP/" is a response), and for
 * tests/blocks: fields (phr_parse_headers), chunked and chunked-consume (a chunked body alone,
 * consume_trailer 0 and 1). picohttpparser has no switches: any -l flag declines (exit 3);
 * -n changes nothing (it has no end-of-stream call). Limits are its caller's: 100 headers. */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r, strncasecmp */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "events.h"
#include "picohttpparser.h"

#define MAX_HEADERS 100

/* ---- the log (events.h) ---- */

static void out_str(const char *s, size_t n)
{
    out("\"", 1);
    out_escaped(s, n);
    out("\"\n", 2);
}

/* a span of the call buffer `base`, which holds the input from absolute offset `base_off` */
static void span(const char *kind, const char *at, size_t n, const char *base, size_t base_off)
{
    outf("off=%zu len=%zu span[%s]=", base_off + (size_t)(at - base), n, kind);
    out_str(at, n);
}

/* ---- the input, delivered piece by piece ---- */

static const char *in;       /* the input, then CLOSER */
static size_t in_len, in_end; /* the input's length; where the bytes delivered may end */
static size_t vis;            /* bytes delivered so far */
static size_t every, split;   /* chunking: pieces of `every` bytes (0: all), or two at `split` */

static int next_piece(void)
{
    if (vis == in_end) return 0;
    size_t n = every ? every : split && vis < split ? split - vis : in_end - vis;
    vis += n < in_end - vis ? n : in_end - vis;
    return 1;
}

/* The input ended inside a head: deliver empty lines once, so that both builds decide on the
 * head (picohttpparser checks some bytes only when more of the head is there, e.g. the version
 * with 9 bytes; simdhttp refuses a bad byte as it arrives: without this their logs would
 * differ by when, not by whether). */
#define CLOSER "\r\n\r\n\r\n\r\n"
static int close_head(void)
{
    if (in_end > in_len) return 0;
    in_end = in_len + sizeof CLOSER - 1;
    vis = in_end;
    return 1;
}

static char *copy_of(size_t from, size_t n)
{
    char *c = malloc(n ? n : 1);
    if (!c) abort();
    memcpy(c, in + from, n);
    return c;
}

/* ---- what the program itself reads from the fields (the same code in both builds) ---- */

static int name_is(const struct phr_header *h, const char *name)
{
    return h->name && h->name_len == strlen(name) && strncasecmp(h->name, name, h->name_len) == 0;
}

/* the value without surrounding SP/HTAB (picohttpparser keeps trailing ones) */
static void trimmed(const struct phr_header *h, const char **v, size_t *n)
{
    *v = h->value;
    *n = h->value_len;
    while (*n && ((*v)[*n - 1] == ' ' || (*v)[*n - 1] == '\t')) (*n)--;
    while (*n && (**v == ' ' || **v == '\t')) (*v)++, (*n)--;
}

enum { BODY_NONE, BODY_LENGTH, BODY_CHUNKED, BODY_EOF, BODY_BAD, BODY_SWITCH };

static int framing(const struct phr_header *hs, size_t nh, int response, int status, unsigned long long *cl)
{
    int te = 0, have_cl = 0;
    for (size_t i = 0; i < nh; i++) {
        const char *v;
        size_t n;
        trimmed(&hs[i], &v, &n);
        if (name_is(&hs[i], "transfer-encoding")) {
            size_t k = n;
            while (k && v[k - 1] != ',' && v[k - 1] != ' ' && v[k - 1] != '\t') k--;
            te = n - k == 7 && strncasecmp(v + k, "chunked", 7) == 0 ? 2 : 1;
        } else if (name_is(&hs[i], "content-length") && !have_cl) {
            char tmp[32];
            if (n == 0 || n >= sizeof tmp || strspn(v, "0123456789") < n) return BODY_BAD;
            memcpy(tmp, v, n);
            tmp[n] = 0;
            *cl = strtoull(tmp, NULL, 10);
            have_cl = 1;
        }
    }
    if (response && (status < 200 || status == 204 || status == 304)) return BODY_NONE;
    if (te == 2) return BODY_CHUNKED;
    if (te) return response ? BODY_EOF : BODY_BAD;
    if (have_cl) return BODY_LENGTH;
    return response ? BODY_EOF : BODY_NONE;
}

/* ---- one message ---- */

enum { T_REQUEST, T_RESPONSE, T_BOTH, T_FIELDS, T_CHUNKED, T_CHUNKED_CONSUME, T_TRAILERS };

/* ---- what a -1 or -2 leaves in the outputs ----
 * Before each call every output holds a sentinel ("untouched"); after a -1 or -2 the log has
 * one line (diff.py compares these lines call by call, as far as both builds made calls):
 *   partial method=0+3 path=4+1 minor=1 headers=1 h[0]=16+4:22+9
 * (a response: minor, status, msg; a field block: headers only) the spans as absolute
 * offset+length, NULL or "untouched"; an entry of the header array below *num_headers only
 * when it changed since the head's last partial line (a head read byte by byte logs each entry
 * once), as name:value. Then every entry past *num_headers that the call wrote (its members not
 * all the sentinel), as past[i]=name:value: picohttpparser writes the name of the line it
 * stopped in there (name at the line's start, name_len at its ':'), and a caller that reads the
 * array past the count sees what either left. Not logged: that entry's value and value_len
 * (shown as "*"), which picohttpparser writes only once the line's end is there, with
 * *num_headers (so never on -1 or -2), and the layer's simdhttp as it reads the value (its
 * start, then its end at the CR: docs/compat.md, API details). */
static const char untouched[1];
#define UNTOUCHED ((size_t)0x5e5e5e5e)

static void prefill(const char **p1, size_t *n1, const char **p2, size_t *n2, int *i1, int *i2,
                    struct phr_header *hs)
{
    *p1 = *p2 = untouched;
    *n1 = *n2 = UNTOUCHED;
    *i1 = *i2 = (int)UNTOUCHED;
    for (size_t i = 0; i < MAX_HEADERS; i++) hs[i] = (struct phr_header){untouched, UNTOUCHED, untouched, UNTOUCHED};
}

static void show_span(char *o, size_t cap, const char *at, size_t n, const char *b, size_t blen, size_t base_off)
{
    char a[32], l[32];
    if (at == untouched) snprintf(a, sizeof a, "untouched");
    else if (at == NULL) snprintf(a, sizeof a, "NULL");
    else if (at >= b && at <= b + blen) snprintf(a, sizeof a, "%zu", base_off + (size_t)(at - b));
    else snprintf(a, sizeof a, "outside");
    if (n == UNTOUCHED) snprintf(l, sizeof l, "untouched");
    else snprintf(l, sizeof l, "%zu", n);
    snprintf(o, cap, "%s+%s", a, l);
}

static void show_int(char *o, size_t cap, int v)
{
    if (v == (int)UNTOUCHED) snprintf(o, cap, "untouched");
    else snprintf(o, cap, "%d", v);
}

static char shown[MAX_HEADERS][160]; /* each entry as last logged in this head */

static void partial(int type, const char *m, size_t ml, const char *p, size_t pl, int minor, int status,
                    const struct phr_header *hs, size_t nh, const char *b, size_t blen, size_t base_off)
{
    char s1[72], s2[72], i1[16], i2[16];
    show_int(i1, sizeof i1, minor);
    show_int(i2, sizeof i2, status);
    out("partial", 7);
    if (type == T_REQUEST) {
        show_span(s1, sizeof s1, m, ml, b, blen, base_off);
        show_span(s2, sizeof s2, p, pl, b, blen, base_off);
        outf(" method=%s path=%s minor=%s", s1, s2, i1);
    } else if (type == T_RESPONSE) {
        show_span(s1, sizeof s1, p, pl, b, blen, base_off);
        outf(" minor=%s status=%s msg=%s", i1, i2, s1);
    }
    if (nh == UNTOUCHED) outf(" headers=untouched");
    else outf(" headers=%zu", nh);
    for (size_t i = 0; nh != UNTOUCHED && i < nh && i < MAX_HEADERS; i++) {
        char e[160];
        show_span(s1, sizeof s1, hs[i].name, hs[i].name_len, b, blen, base_off);
        show_span(s2, sizeof s2, hs[i].value, hs[i].value_len, b, blen, base_off);
        snprintf(e, sizeof e, "%s:%s", s1, s2);
        if (strcmp(e, shown[i]) != 0) {
            outf(" h[%zu]=%s", i, e);
            memcpy(shown[i], e, sizeof e);
        }
    }
    for (size_t i = nh == UNTOUCHED ? 0 : nh; i < MAX_HEADERS; i++) {
        if (hs[i].name == untouched && hs[i].name_len == UNTOUCHED && hs[i].value == untouched &&
            hs[i].value_len == UNTOUCHED)
            continue;
        show_span(s1, sizeof s1, hs[i].name, hs[i].name_len, b, blen, base_off);
        if (i == nh) snprintf(s2, sizeof s2, "*");
        else show_span(s2, sizeof s2, hs[i].value, hs[i].value_len, b, blen, base_off);
        outf(" past[%zu]=%s:%s", i, s1, s2);
    }
    out("\n", 1);
}

/* Parse the head (or a bare field block) at pos on the growing buffer.
 * @return the new pos, or (size_t)-1 when the log has its result line. */
static size_t head(int type, size_t pos, int *body, unsigned long long *cl)
{
    const char *method, *path, *msg;
    size_t method_len, path_len, msg_len, nh, last = 0;
    int minor, status, r;
    struct phr_header hs[MAX_HEADERS];
    char *b;
    for (size_t i = 0; i < MAX_HEADERS; i++) snprintf(shown[i], sizeof shown[i], "untouched+untouched:untouched+untouched");
    for (;;) {
        if (vis == pos) {
            if (!next_piece() && !close_head()) goto incomplete;
            continue;
        }
        b = copy_of(pos, vis - pos);
        prefill(&method, &method_len, &path, &path_len, &minor, &status, hs);
        msg = path, msg_len = path_len; /* (a response's msg: the sentinel too) */
        nh = MAX_HEADERS;
        if (type == T_REQUEST)
            r = phr_parse_request(b, vis - pos, &method, &method_len, &path, &path_len, &minor, hs, &nh, last);
        else if (type == T_RESPONSE)
            r = phr_parse_response(b, vis - pos, &minor, &status, &msg, &msg_len, hs, &nh, last);
        else
            r = phr_parse_headers(b, vis - pos, hs, &nh, last);
        if (r < 0)
            partial(type, method, method_len, type == T_RESPONSE ? msg : path, type == T_RESPONSE ? msg_len : path_len,
                    minor, status, hs, nh, b, vis - pos, pos);
        if (r != -2) break;
        free(b);
        last = vis - pos;
        if (!next_piece() && !close_head()) goto incomplete;
    }
    if (r < 0) {
        free(b);
        outf("error off=%zu\n", pos);
        return (size_t)-1;
    }
    if (type == T_REQUEST) {
        outf("request len=%d minor=%d headers=%zu\n", r, minor, nh);
        span("method", method, method_len, b, pos);
        span("path", path, path_len, b, pos);
    } else if (type == T_RESPONSE) {
        outf("response len=%d minor=%d status=%d headers=%zu\n", r, minor, status, nh);
        span("msg", msg, msg_len, b, pos);
    } else {
        outf("%s len=%d headers=%zu\n", type == T_FIELDS ? "fields" : "trailers", r, nh);
    }
    for (size_t i = 0; i < nh; i++) {
        if (hs[i].name) span("name", hs[i].name, hs[i].name_len, b, pos);
        else out("continuation\n", 13);
        span("value", hs[i].value, hs[i].value_len, b, pos);
    }
    if (in_end > in_len) { /* it took the added empty line: the input ends here */
        free(b);
        out("closed by the added empty line\n", 31);
        return (size_t)-1;
    }
    *body = type >= T_FIELDS ? BODY_NONE
          : type == T_RESPONSE && status == 101 ? BODY_SWITCH
          : framing(hs, nh, type == T_RESPONSE, type == T_RESPONSE ? status : 0, cl);
    free(b);
    return pos + (size_t)r;
incomplete:
    out("incomplete\n", 11);
    return (size_t)-1;
}

/* One decoding of a chunked body at pos, one piece at a time; flip: consume_trailer is flipped
 * after the first call (picohttpparser reads it at the last chunk's line end, so a program may
 * set or clear it late). Each line is logged after `tag`, but the partial lines (after each -2:
 * bytes_left_in_chunk, which picohttpparser also uses while it reads a chunk line). @return the
 * result (-2: the input ended first); *end: where the body ended (r >= 0). */
static ssize_t decode_body(size_t pos, int consume, int flip, const char *tag, size_t *end)
{
    size_t start = pos;
    struct phr_chunked_decoder d;
    memset(&d, 0, sizeof d);
    d.consume_trailer = (char)consume;
    char *data = NULL, *after = NULL;
    size_t ndata = 0, nafter = 0;
    ssize_t r = -2;
    for (int calls = 0;; ) {
        if (vis > pos) {
            size_t n = vis - pos;
            char *b = copy_of(pos, n);
            r = phr_decode_chunked(&d, b, &n);
            if (flip && calls++ == 0) d.consume_trailer = (char)!consume;
            if (r == -1) { /* the bytes after this call's data, logged after the result */
                nafter = vis - pos - n;
                if (!(after = malloc(nafter + 1))) abort();
                memcpy(after, b + n, nafter);
            }
            data = realloc(data, ndata + n + 1);
            if (!data) abort();
            memcpy(data + ndata, b, n);
            ndata += n;
            free(b);
            if (r != -2) break;
            pos = vis;
            outf("partial chunked left=%zu\n", d.bytes_left_in_chunk);
            if (phr_decode_chunked_is_in_data(&d)) outf("%sin data off=%zu left=%zu\n", tag, vis, d.bytes_left_in_chunk);
        }
        if (!next_piece()) break;
    }
    outf("%schunked data len=%zu ", tag, ndata);
    out_str(data ? data : "", ndata);
    free(data);
    if (r == -2) {
        outf("%sincomplete\n", tag);
    } else if (r == -1) {
        outf("%serror off=%zu left=%zu\n%serror rest ", tag, start, d.bytes_left_in_chunk, tag);
        out_str(after, nafter);
        free(after);
    } else {
        *end = vis - (size_t)r;
        outf("%schunked end off=%zu left=%zu\n", tag, *end, d.bytes_left_in_chunk);
    }
    return r;
}

/* A chunked body at pos: decoded as the program asks (consume), then once more with
 * consume_trailer flipped after the first call (its lines tagged "flipped "), from the same
 * pieces; then the trailer section, if not consumed. @return the new pos or (size_t)-1. */
static size_t chunked(size_t pos, int consume)
{
    size_t end = 0, end2 = 0, from = vis;
    ssize_t r = decode_body(pos, consume, 0, "", &end);
    size_t to = vis;
    vis = from; /* the same pieces again: next_piece() depends on vis only */
    decode_body(pos, consume, 1, "flipped ", &end2);
    vis = to;
    if (r < 0) return (size_t)-1;
    if (consume) return end;
    int body;
    unsigned long long cl;
    return head(T_TRAILERS, end, &body, &cl);
}

static void run(int type)
{
    size_t pos = 0;
    next_piece();
    if (type == T_CHUNKED || type == T_CHUNKED_CONSUME) {
        pos = chunked(0, type == T_CHUNKED_CONSUME);
        if (pos != (size_t)-1) outf("rest off=%zu\nok\n", pos);
        return;
    }
    while (pos < in_end) {
        int t = type, body;
        unsigned long long cl = 0;
        if (t == T_BOTH) { /* "HTTP/" starts a response: wait until it can be told */
            while (vis - pos < 5 && memcmp(in + pos, "HTTP/", vis - pos) == 0)
                if (!next_piece()) {
                    out("incomplete\n", 11);
                    return;
                }
            t = vis - pos >= 5 && memcmp(in + pos, "HTTP/", 5) == 0 ? T_RESPONSE : T_REQUEST;
        }
        if ((pos = head(t, pos, &body, &cl)) == (size_t)-1) return;
        if (t == T_FIELDS) {
            outf("rest off=%zu\n", pos);
            break;
        }
        switch (body) {
        case BODY_LENGTH:
            while (vis - pos < cl)
                if (!next_piece()) {
                    out("incomplete\n", 11);
                    return;
                }
            if (cl) outf("body off=%zu len=%llu\n", pos, cl);
            pos += cl;
            break;
        case BODY_EOF:
            while (next_piece()) {}
            outf("body off=%zu len=%zu\n", pos, in_end - pos);
            pos = in_end;
            break;
        case BODY_CHUNKED:
            if ((pos = chunked(pos, 0)) == (size_t)-1) return;
            break;
        case BODY_BAD:
            out("framing not understood\n", 23);
            return;
        case BODY_SWITCH: /* 101: the bytes that follow are another protocol's */
            outf("switching protocols off=%zu\nok\n", pos);
            return;
        }
    }
    out("ok\n", 3);
}

static void usage(void)
{
    fprintf(stderr, "usage: picohttpparser_events [-t request|response|both|fields|chunked|chunked-consume] "
                    "[-l NAME,...] [-n] -c SPEC[,SPEC...] FILE\n");
    exit(2);
}

int main(int argc, char **argv)
{
    static const char *const types[] = {"request", "response", "both", "fields", "chunked", "chunked-consume"};
    int type = T_BOTH;
    const char *specs = NULL, *path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-n") == 0) continue;
        if (a[0] == '-' && i + 1 < argc) {
            const char *v = argv[++i];
            if (a[1] == 'l') return 3; /* picohttpparser has no lenient switches */
            if (a[1] == 'c') specs = v;
            else if (a[1] == 't') {
                type = -1;
                for (int k = 0; k < (int)(sizeof types / sizeof *types); k++)
                    if (strcmp(v, types[k]) == 0) type = k;
                if (type < 0) usage();
            } else usage();
        } else if (!path) path = a;
        else usage();
    }
    if (!path || !specs) usage();
    char *input = read_file(path, &in_len);
    if (!input) {
        perror(path);
        return 2;
    }
    input = realloc(input, in_len + sizeof CLOSER - 1);
    if (!input) abort();
    memcpy(input + in_len, CLOSER, sizeof CLOSER - 1);
    in = input;
    char *speclist = strdup(specs), *sv;
    for (char *spec = strtok_r(speclist, ",", &sv); spec; spec = strtok_r(NULL, ",", &sv)) {
        every = split = 0;
        if (spec[0] == '@') split = strtoul(spec + 1, NULL, 10);
        else every = strtoul(spec, NULL, 10);
        vis = 0;
        in_end = in_len;
        loglen = 0;
        outf("=== chunking %s\n", spec);
        run(type);
        fwrite(logbuf, 1, loglen, stdout);
    }
    free(speclist);
    free(input);
    free(logbuf);
    return 0;
}
