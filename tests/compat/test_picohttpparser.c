/* SPDX-License-Identifier: MIT */
/* picohttpparser's API at its edges, written against its API only and built twice: against
 * simdhttp's layer (compat/picohttpparser) and against Debian's picohttpparser (h2o 2.2.5). What
 * the two answer alike is checked alike; where the layer departs on purpose (docs/compat.md,
 * "What differs"), each build checks its own answer under PICOHTTPPARSER_SIMDHTTP, so the
 * difference stays pinned on both sides. diff.py's events program cannot express these: it
 * stops decoding at the body's end, as picohttpparser's users do. */
#include <stdio.h>
#include <string.h>

#include "picohttpparser.h"
#include "testlib.h"

/* decode `in` (a copy: the decoder works in place) with a decoder in its current state */
static ssize_t decode(struct phr_chunked_decoder *d, const char *in, char *buf, size_t *n)
{
    *n = strlen(in);
    memcpy(buf, in, *n);
    return phr_decode_chunked(d, buf, n);
}

/* phr_decode_chunked called again after it returned >= 0 (the body's end) */
static void test_decode_after_the_end(void)
{
    struct phr_chunked_decoder d;
    char b[128];
    size_t n;
    /* consume_trailer 0: the end is the last-chunk line; the trailer section follows, for
     * phr_parse_headers. picohttpparser, called again, skips one line (any bytes up to LF, not
     * checked) per call and returns what follows it, past the trailer section's end too: a
     * caller cannot tell where the body ended. The layer says -1: the body's decoding is over. */
    memset(&d, 0, sizeof d);
    ssize_t r = decode(&d, "1\r\nx\r\n0\r\n", b, &n);
    t_check(r == 0 && n == 1 && b[0] == 'x', "chunked: end at the last chunk", "r %zd n %zu", r, n);
    ssize_t again = decode(&d, "X: y\r\n\r\n", b, &n);
    ssize_t bare = decode(&d, "abc\nGET", b, &n);
#ifdef PICOHTTPPARSER_SIMDHTTP
    t_check(again == -1 && bare == -1, "chunked: called again after the end (layer: -1)", "%zd %zd", again, bare);
#else
    t_check(again == 2 && bare == 3, "chunked: called again after the end (picohttpparser: a line per call)",
            "%zd %zd", again, bare);
#endif
    /* consume_trailer 1: the end is after the trailer section; the bytes after it are the next
     * message (RFC 9112 7.1). picohttpparser, called again, reads them as another trailer
     * section: a pipelined request vanishes. The layer says -1. */
    memset(&d, 0, sizeof d);
    d.consume_trailer = 1;
    r = decode(&d, "0\r\nT: 1\r\n\r\n", b, &n);
    t_check(r == 0 && n == 0, "chunked consume: end after the trailers", "r %zd n %zu", r, n);
    again = decode(&d, "GET / HTTP/1.1\r\nHost: a\r\n\r\nabc", b, &n);
#ifdef PICOHTTPPARSER_SIMDHTTP
    t_check(again == -1, "chunked consume: called again after the end (layer: -1)", "%zd", again);
#else
    t_check(again == 3, "chunked consume: called again after the end (picohttpparser: a request read as trailers)",
            "%zd", again);
#endif
}

/* A chunked body into buf: a first chunk line of `zeros` '0's, "5", `ext` bytes of extension
 * (";a=x...", ext 0 or >= 4), "hello", the last chunk, then `trailers` bytes of trailer
 * section (T: x...CRLF CRLF; 0 or >= 7) or none. @return its length. */
static size_t chunked_body(char *buf, size_t zeros, size_t ext, size_t trailers)
{
    size_t n = 0;
    memset(buf, '0', zeros), n += zeros;
    buf[n++] = '5';
    if (ext) {
        memcpy(buf + n, ";a=", 3);
        memset(buf + n + 3, 'x', ext - 3), n += ext;
    }
    n += (size_t)sprintf(buf + n, "\r\nhello\r\n0\r\n");
    if (trailers) {
        memcpy(buf + n, "T: ", 3);
        memset(buf + n + 3, 'x', trailers - 7), n += trailers - 4;
        n += (size_t)sprintf(buf + n, "\r\n");
    }
    return n + (size_t)sprintf(buf + n, "\r\n");
}

/* decode chunked_body(zeros, ext, trailers) whole with d; @return 1 if it decoded "hello" and
 * found the end, 0 if it returned -1, else -1 (a failure for every caller) */
static int decodes(struct phr_chunked_decoder *d, size_t zeros, size_t ext, size_t trailers)
{
    static char b[200000];
    size_t len = chunked_body(b, zeros, ext, trailers);
    ssize_t r = phr_decode_chunked(d, b, &len);
    return r >= 0 && len == 5 && memcmp(b, "hello", 5) == 0 ? 1 : r == -1 ? 0 : -1;
}

/* picohttpparser's decoder bounds nothing: a 5000-byte chunk extension and a 92 KB trailer
 * section decode. The layer bounds both by default (4096 bytes of chunk line, 80 KiB of
 * trailer section: RFC 9112 7.1.1), and decodes them with the limits raised. */
static void test_decoder_limits(void)
{
    static char in[120000], b[120000];
    struct phr_chunked_decoder d;
    memset(&d, 0, sizeof d);
    int ext = decodes(&d, 0, 5000, 0);
    size_t n = (size_t)sprintf(in, "5\r\nhello\r\n0\r\n");
    for (int i = 0; i < 200; i++) n += (size_t)sprintf(in + n, "T%d: %0450d\r\n", i, i);
    n += (size_t)sprintf(in + n, "\r\n");
    memset(&d, 0, sizeof d);
    d.consume_trailer = 1;
    size_t len = n;
    memcpy(b, in, n);
    ssize_t r = phr_decode_chunked(&d, b, &len);
#ifdef PICOHTTPPARSER_SIMDHTTP
    t_check(ext == 0, "chunked: a 5000-byte extension (layer: -1 by default)", "%d", ext);
    t_check(r == -1, "chunked consume: 200 trailer fields, 92 KB (layer: -1 by default)", "r %zd", r);
    memset(&d, 0, sizeof d);
    phr_decode_chunked_set_max_chunk_ext(&d, 5000);
    ext = decodes(&d, 0, 5000, 0);
    memset(&d, 0, sizeof d);
    d.consume_trailer = 1;
    phr_decode_chunked_set_max_trailer_size(&d, 100000);
    len = n;
    memcpy(b, in, n);
    r = phr_decode_chunked(&d, b, &len);
#endif
    t_check(ext == 1, "chunked: a 5000-byte extension (layer: with the limit 5000)", "%d", ext);
    t_check(r == 0 && len == 5 && memcmp(b, "hello", 5) == 0,
            "chunked consume: 200 trailer fields, 92 KB (layer: with the limit 100000)", "r %zd len %zu", r, len);
}

#ifdef PICOHTTPPARSER_SIMDHTTP
/* The layer's limits at their edges: a zeroed decoder has the defaults; the setters move them
 * (0: the default again; a size_t past UINT32_MAX: in effect none). */
static void test_layer_limits(void)
{
    struct phr_chunked_decoder d = {0};
    t_check(decodes(&d, 0, 4096, 0) == 1, "layer: 4096 bytes of extensions (a {0} decoder)", "wrong");
    memset(&d, 0, sizeof d);
    t_check(decodes(&d, 0, 4097, 0) == 0, "layer: 4097 bytes of extensions: -1 (a zeroed decoder)", "wrong");
    memset(&d, 0, sizeof d);
    t_check(decodes(&d, 16 + 4095, 0, 0) == 1, "layer: 4096 size digits past the 16th", "wrong");
    memset(&d, 0, sizeof d);
    t_check(decodes(&d, 16 + 4096, 0, 0) == 0, "layer: 4097 size digits past the 16th: -1", "wrong");

    struct phr_chunked_decoder e = {0};
    phr_decode_chunked_set_max_chunk_ext(&e, 5000);
    t_check(decodes(&e, 0, 5000, 0) == 1, "layer: 5000 bytes of extensions with the limit 5000", "wrong");
    memset(&e, 0, sizeof e);
    phr_decode_chunked_set_max_chunk_ext(&e, 5000);
    t_check(decodes(&e, 0, 5001, 0) == 0, "layer: 5001 bytes of extensions with the limit 5000: -1", "wrong");
    memset(&e, 0, sizeof e);
    phr_decode_chunked_set_max_chunk_ext(&e, 5000);
    t_check(decodes(&e, 16 + 4999, 0, 0) == 1, "layer: 5000 size digits past the 16th with the limit 5000", "wrong");
    memset(&e, 0, sizeof e);
    phr_decode_chunked_set_max_chunk_ext(&e, 5000);
    t_check(decodes(&e, 16 + 5000, 0, 0) == 0, "layer: 5001 size digits past the 16th with the limit 5000: -1",
            "wrong");
    memset(&e, 0, sizeof e);
    phr_decode_chunked_set_max_chunk_ext(&e, (size_t)UINT32_MAX + 1);
    t_check(decodes(&e, 0, 100000, 0) == 1, "layer: 100000 bytes of extensions with the limit 2^32", "wrong");
    memset(&e, 0, sizeof e);
    phr_decode_chunked_set_max_chunk_ext(&e, 5000);
    phr_decode_chunked_set_max_chunk_ext(&e, 0);
    t_check(decodes(&e, 0, 4097, 0) == 0, "layer: 4097 bytes of extensions with the limit 0 (default): -1", "wrong");

    /* the trailer section (consume_trailer): its lines and the empty line that ends it */
    struct phr_chunked_decoder t = {0};
    t.consume_trailer = 1;
    t_check(decodes(&t, 0, 0, 81920) == 1, "layer consume: an 81920-byte trailer section (a {0} decoder)", "wrong");
    memset(&t, 0, sizeof t);
    t.consume_trailer = 1;
    t_check(decodes(&t, 0, 0, 81921) == 0, "layer consume: an 81921-byte trailer section: -1", "wrong");
    memset(&t, 0, sizeof t);
    t.consume_trailer = 1;
    phr_decode_chunked_set_max_trailer_size(&t, 100);
    t_check(decodes(&t, 0, 0, 100) == 1, "layer consume: a 100-byte trailer section with the limit 100", "wrong");
    memset(&t, 0, sizeof t);
    t.consume_trailer = 1;
    phr_decode_chunked_set_max_trailer_size(&t, 100);
    t_check(decodes(&t, 0, 0, 101) == 0, "layer consume: a 101-byte trailer section with the limit 100: -1", "wrong");
    memset(&t, 0, sizeof t);
    t.consume_trailer = 1;
    phr_decode_chunked_set_max_trailer_size(&t, 150000);
    t_check(decodes(&t, 0, 0, 150000) == 1, "layer consume: a 150000-byte trailer section with the limit 150000",
            "wrong");
}
#endif

/* ---- what -1 and -2 leave in the outputs: picohttpparser's partial results, the same on both
 * builds (docs/compat.md, API details). Each case: a head (or a prefix of one), the last_len
 * of the call (counted back from its end), the header array's capacity, and the outputs as
 * text: the result, then the start line's outputs and every field below *num_headers. ---- */

static void show(char *o, size_t cap, const char *what, const char *at, size_t n, const char *buf)
{
    size_t k = strlen(o);
    if (!at) snprintf(o + k, cap - k, " %s=NULL+%zu", what, n);
    else snprintf(o + k, cap - k, " %s=%zu+%zu", what, (size_t)(at - buf), n);
}

/* type 'q' request, 's' response, 'f' field block */
static void outputs(char type, const char *in, size_t back, size_t cap, char *o, size_t ocap)
{
    const char *m = "?", *p = "?";
    size_t ml = 99, pl = 99, len = strlen(in), nh = cap;
    int minor = 99, status = 99, r;
    struct phr_header hs[8];
    memset(hs, 0, sizeof hs);
    if (type == 'q') r = phr_parse_request(in, len, &m, &ml, &p, &pl, &minor, hs, &nh, back ? len - back : 0);
    else if (type == 's') r = phr_parse_response(in, len, &minor, &status, &p, &pl, hs, &nh, back ? len - back : 0);
    else r = phr_parse_headers(in, len, hs, &nh, back ? len - back : 0);
    snprintf(o, ocap, "%d", r);
    if (type == 'q') show(o, ocap, "method", m, ml, in);
    if (type != 'f') snprintf(o + strlen(o), ocap - strlen(o), " minor=%d", minor);
    if (type == 's') snprintf(o + strlen(o), ocap - strlen(o), " status=%d", status);
    if (type != 'f') show(o, ocap, type == 'q' ? "path" : "msg", p, pl, in);
    snprintf(o + strlen(o), ocap - strlen(o), " nh=%zu", nh);
    for (size_t i = 0; i < nh && i < 8; i++) {
        show(o, ocap, "name", hs[i].name, hs[i].name_len, in);
        show(o, ocap, "value", hs[i].value, hs[i].value_len, in);
    }
}

static void test_partial_outputs(void)
{
    static const struct {
        char type;
        const char *in;
        size_t back, cap;
        const char *want, *layer; /* layer: the layer's answer where it refuses on purpose */
    } cases[] = {
        /* h2o's test.c: incomplete 1 to 8 */
        {'q', "GET", 0, 4, "-2 method=NULL+0 minor=-1 path=NULL+0 nh=0", NULL},
        {'q', "GET ", 0, 4, "-2 method=0+3 minor=-1 path=NULL+0 nh=0", NULL},
        {'q', "GET / ", 0, 4, "-2 method=0+3 minor=-1 path=4+1 nh=0", NULL},
        {'q', "GET / HTTP/1.0", 0, 4, "-2 method=0+3 minor=-1 path=4+1 nh=0", NULL},
        {'q', "GET / HTTP/1.0\r", 0, 4, "-2 method=0+3 minor=0 path=4+1 nh=0", NULL},
        /* fields: complete ones counted, untrimmed; the one being read is not */
        {'q', "GET / HTTP/1.1\r\nA: 1  \r\nB: 2", 0, 4, "-2 method=0+3 minor=1 path=4+1 nh=1 name=16+1 value=19+3", NULL},
        {'q', "GET / HTTP/1.1\r\nA: 1\r", 0, 4, "-2 method=0+3 minor=1 path=4+1 nh=0", NULL},
        /* with last_len: no empty line from last_len - 3 on, so nothing is parsed */
        {'q', "GET / HTTP/1.1\r\nA: 1\r\n", 1, 4, "-2 method=NULL+0 minor=-1 path=NULL+0 nh=0", NULL},
        {'q', "GET / HTTP/1.1\r\nA: 1\r\n", 0, 4, "-2 method=0+3 minor=1 path=4+1 nh=1 name=16+1 value=19+1", NULL},
        /* -1: what was set before it */
        {'q', "GET / HTTP/1.1\r\nA: 1\r\nB\x01: 2\r\n\r\n", 0, 4, "-1 method=0+3 minor=1 path=4+1 nh=1 name=16+1 value=19+1", NULL},
        {'q', "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\n\r\n", 0, 1, "-1 method=0+3 minor=1 path=4+1 nh=1 name=16+1 value=19+1", NULL},
        {'q', "GET / HTTX/1.1\r\n\r\n", 0, 4, "-1 method=0+3 minor=-1 path=4+1 nh=0", NULL},
        /* picohttpparser accepts, the layer refuses: what picohttpparser had before that byte */
        {'q', "GET \xd0\xbf HTTP/1.1\r\n\r\n", 0, 4, "19 method=0+3 minor=1 path=4+2 nh=0", "-1 method=0+3 minor=-1 path=NULL+0 nh=0"},
        {'q', "GET  HTTP/1.1\r\n\r\n", 0, 4, "17 method=0+3 minor=1 path=4+0 nh=0", "-1 method=0+3 minor=-1 path=NULL+0 nh=0"},
        /* bytes above 0x7f after the target's first byte: both accept (h2o's "accept MSB chars") */
        {'q', "GET /\xa0 HTTP/1.0\r\n\r\n", 0, 4, "19 method=0+3 minor=0 path=4+2 nh=0", NULL},
        /* h2o's test.c: incomplete 4 to 12 */
        {'s', "HTTP/1.1", 0, 4, "-2 minor=-1 status=0 msg=NULL+0 nh=0", NULL},
        {'s', "HTTP/1.1 ", 0, 4, "-2 minor=1 status=0 msg=NULL+0 nh=0", NULL},
        {'s', "HTTP/1.1 200", 0, 4, "-2 minor=1 status=0 msg=NULL+0 nh=0", NULL},
        {'s', "HTTP/1.1 200 ", 0, 4, "-2 minor=1 status=200 msg=NULL+0 nh=0", NULL},
        {'s', "HTTP/1.1 200 OK\r", 0, 4, "-2 minor=1 status=200 msg=NULL+0 nh=0", NULL},
        {'s', "HTTP/1.1 200 OK\r\n", 0, 4, "-2 minor=1 status=200 msg=13+2 nh=0", NULL},
        {'s', "HTTP/1.1 200 OK\n", 0, 4, "-2 minor=1 status=200 msg=13+2 nh=0", "-1 minor=1 status=200 msg=13+2 nh=0"},
        {'s', "HTTP/1.1 200 OK\r\nA: 1\r\n", 0, 4, "-2 minor=1 status=200 msg=13+2 nh=1 name=17+1 value=20+1", NULL},
        /* the status digit by digit */
        {'s', "HTTP/1.1 2x0 OK\r\n\r\n", 0, 4, "-1 minor=1 status=200 msg=NULL+0 nh=0", NULL},
        {'s', "HTTP/1.1 20x OK\r\n\r\n", 0, 4, "-1 minor=1 status=200 msg=NULL+0 nh=0", NULL},
        {'s', "HTTP/1.1 200\r\n\r\n", 0, 4, "-1 minor=1 status=200 msg=NULL+0 nh=0", NULL},
        {'f', "A: 1\r\nB: 2\r\n", 0, 4, "-2 nh=2 name=0+1 value=3+1 name=6+1 value=9+1", NULL},
        {'f', "A: 1\r\n:B\r\n\r\n", 0, 4, "-1 nh=1 name=0+1 value=3+1", NULL},
    };
    char got[512];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *want = cases[i].want;
#ifdef PICOHTTPPARSER_SIMDHTTP
        if (cases[i].layer) want = cases[i].layer;
#endif
        outputs(cases[i].type, cases[i].in, cases[i].back, cases[i].cap, got, sizeof got);
        t_check(strcmp(got, want) == 0, "outputs after -1/-2", "case %zu: got \"%s\", want \"%s\"", i, got, want);
    }
#ifdef PICOHTTPPARSER_SIMDHTTP
    /* buf NULL with len > 0: -1, the values of entry (picohttpparser reads through it) */
    const char *m = "?", *p = "?";
    size_t ml = 9, pl = 9, nh = 0;
    int minor = 9;
    int r = phr_parse_request(NULL, 5, &m, &ml, &p, &pl, &minor, NULL, &nh, 0);
    t_check(r == -1 && !m && !ml && !p && !pl && minor == -1 && nh == 0, "layer: buf NULL is -1 with the values of entry",
            "r %d", r);
#endif
}

/* A raw UTF-8 request-target (a client that does not percent-encode): picohttpparser takes
 * bytes >= 0x80 there, and so does the layer (docs/compat.md, "The rule"), the path's bytes as
 * they came, whole and grown byte by byte with last_len. */
static void test_utf8_target(void)
{
    static const char req[] = "GET /\xd0\xbf\xd1\x83\xd1\x82\xd1\x8c?q=\xe2\x82\xac HTTP/1.1\r\nHost: a\r\n\r\n";
    static const char path_want[] = "/\xd0\xbf\xd1\x83\xd1\x82\xd1\x8c?q=\xe2\x82\xac";
    const size_t len = sizeof req - 1, starts[] = {len, 1}; /* whole; then grown byte by byte */
    for (size_t i = 0; i < 2; i++) {
        const char *m = NULL, *p = NULL;
        size_t ml = 0, pl = 0, nh = 0, last = 0;
        int minor = -1, r = -2;
        struct phr_header hs[4];
        for (size_t k = starts[i]; k <= len && r == -2; last = k, k++) {
            nh = 4;
            r = phr_parse_request(req, k, &m, &ml, &p, &pl, &minor, hs, &nh, last);
        }
        t_check(r == (int)len && ml == 3 && memcmp(m, "GET", 3) == 0 && p == req + 4 && pl == sizeof path_want - 1 &&
                    memcmp(p, path_want, pl) == 0 && minor == 1 && nh == 1 && hs[0].name_len == 4 &&
                    memcmp(hs[0].name, "Host", 4) == 0 && hs[0].value_len == 1 && hs[0].value[0] == 'a',
                "a raw UTF-8 target (GET /\\xd0\\xbf...) is accepted, its bytes intact", "%s: r %d path_len %zu nh %zu",
                i ? "byte by byte" : "whole", r, pl, nh);
    }
}

/* With last_len, picohttpparser checks the bytes from last_len - 3 on for an empty line first
 * and returns -2 (-1 for a CR before another byte than LF) before parsing: the header array
 * stays as the caller left it. So does the layer's, which runs the same check before simdhttp
 * reads fields into it. */
static void test_last_len_check_leaves_the_array(void)
{
    static const struct {
        const char *in;
        size_t back;
        int want;
    } cases[] = {
        {"GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\n", 1, -2},
        {"GET / HTTP/1.1\r\nA: 1\r\nB: 2", 5, -2},
        {"GET / HTTP/1.1\r\nA: 1\r\nB: 2\rx", 3, -1},
        /* a bare LF before the new bytes: the layer refuses it (-1) only once the check passes */
        {"GET / HTTP/1.1\r\nA: 1\nB: 2\r\n", 2, -2},
        {"GET / HTTP/1.1\r\nX: a\n\r", 1, -2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct phr_header hs[4];
        const char *m, *p;
        size_t ml, pl, nh = 4, len = strlen(cases[i].in);
        int minor, r, same = 1;
        memset(hs, 0x5a, sizeof hs);
        r = phr_parse_request(cases[i].in, len, &m, &ml, &p, &pl, &minor, hs, &nh, len - cases[i].back);
        for (size_t k = 0; k < sizeof hs; k++) same &= ((unsigned char *)hs)[k] == 0x5a;
        t_check(r == cases[i].want && nh == 0 && same, "last_len: the check's -2/-1 leaves the header array untouched",
                "case %zu: r %d nh %zu array %s", i, r, nh, same ? "untouched" : "written");
    }
}

/* bytes_left_in_chunk after each call, a body fed byte by byte: picohttpparser accumulates the
 * size in it while it reads a chunk line (the digits so far, then the size through the
 * extensions and the line end), counts the data down, and holds 0 from the data's end on. A
 * program reading it between calls sees the same in both builds. */
static void test_bytes_left_by_byte(void)
{
    static const char body[] = "1a;x=y\r\nabcdefghijklmnopqrstuvwxyz\r\n10\r\n0123456789abcdef\r\n0\r\nT: v\r\n\r\n";
    /* after byte i: "1" 1, "1a" 26 through the line's LF, the data 25..0, then 0; "10" 1, 16 */
    size_t want[sizeof body - 1], bad = 0, at = 0;
    for (size_t i = 0; i < sizeof body - 1; i++) want[i] = 0;
    want[0] = 1;
    for (size_t i = 1; i <= 7; i++) want[i] = 26;
    for (size_t i = 8; i < 8 + 26; i++) want[i] = 8 + 26 - 1 - i;
    want[36] = 1;
    for (size_t i = 37; i <= 39; i++) want[i] = 16;
    for (size_t i = 40; i < 40 + 16; i++) want[i] = 40 + 16 - 1 - i;
    for (int consume = 0; consume <= 1; consume++) {
        struct phr_chunked_decoder d;
        memset(&d, 0, sizeof d);
        d.consume_trailer = (char)consume;
        ssize_t r = -2;
        for (size_t i = 0; i < sizeof body - 1 && r == -2; i++) {
            char c = body[i];
            size_t n = 1;
            r = phr_decode_chunked(&d, &c, &n);
            if (d.bytes_left_in_chunk != want[i] && !bad++) at = i;
        }
        t_check(bad == 0 && r == 0,
                consume ? "chunked consume: bytes_left_in_chunk after each byte" : "chunked: bytes_left_in_chunk after each byte",
                "r %zd, %zu wrong, first after byte %zu", r, bad, at);
        bad = 0;
    }
}

/* decode the pieces of `in` (split at '|') with one decoder; @return the last result */
static ssize_t decode_pieces(struct phr_chunked_decoder *d, const char *in)
{
    char b[128];
    ssize_t r = -2;
    while (r == -2 && *in) {
        size_t n = strcspn(in, "|");
        memcpy(b, in, n);
        in += n + (in[n] == '|');
        r = phr_decode_chunked(d, b, &n);
    }
    return r;
}

/* bytes_left_in_chunk after -1: where both refuse, picohttpparser's; where only the layer does
 * (a difference docs/compat.md lists), what picohttpparser held before the refused byte, which
 * it shows there after a -2. Each case: the body, picohttpparser's result, bytes_left_in_chunk. */
static void test_bytes_left_at_error(void)
{
    static const struct {
        const char *in;
        int pico; /* picohttpparser's result: -1, or -2 (the layer's -1 is a listed difference) */
        size_t left;
    } cases[] = {
        {"1\r\na\r\nx", -1, 0},                   /* no hex digit at a line's start */
        {"1\r\na\r\n|x", -1, 0},                  /* the same, the call's first byte */
        {"11111111111111111", -1, 0x1111111111111111u}, /* a 17th digit */
        {"1\r\naX", -1, 0},                       /* chunk data without CRLF */
        {"1\r\na\rX", -1, 0},                     /* CR without LF after the data */
        {"5;a b", -2, 5},                         /* a malformed extension */
        {"5x", -2, 5},                            /* junk after the size */
        {"5|x", -2, 5},                           /* the same, the call's first byte */
        {"12 \r\n", -2, 0x12},                    /* SP before the line end */
        {"5\n", -2, 5},                           /* a bare LF after the size */
        {"5\rx", -2, 5},                          /* a CR without LF after the size */
        {"1\r\na\n", -2, 0},                      /* a bare LF after the data */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct phr_chunked_decoder d;
        memset(&d, 0, sizeof d);
        ssize_t r = decode_pieces(&d, cases[i].in);
#ifdef PICOHTTPPARSER_SIMDHTTP
        int want = -1;
#else
        int want = cases[i].pico;
#endif
        t_check(r == want && d.bytes_left_in_chunk == cases[i].left, "chunked: bytes_left_in_chunk at an error",
                "case %zu: r %zd (want %d), left %zu (want %zu)", i, r, want, d.bytes_left_in_chunk, cases[i].left);
    }
}

/* A trailer section consume_trailer reads: picohttpparser skips its lines unread, so a bad byte
 * there is a listed difference (the layer's -1); bytes_left_in_chunk is 0 in both, what
 * picohttpparser holds from the last chunk's size on. The chunk line before it takes the byte
 * states (an extension), the last one the fast path (20 bytes after the data). */
static void test_bytes_left_in_trailers(void)
{
    static const char in[] = "1;a=b\r\nx\r\n0\r\nAAAAAAAAAAAAAAAAAAAAAAAA: \x01\r\n\r\n";
    struct phr_chunked_decoder d;
    memset(&d, 0, sizeof d);
    d.consume_trailer = 1;
    char b[sizeof in];
    size_t n = sizeof in - 1;
    memcpy(b, in, n);
    ssize_t r = phr_decode_chunked(&d, b, &n);
#ifdef PICOHTTPPARSER_SIMDHTTP
    int ok = r == -1;
#else
    int ok = r == 0;
#endif
    t_check(ok && d.bytes_left_in_chunk == 0, "chunked: bytes_left_in_chunk in the trailer section",
            "r %zd, left %zu (want 0)", r, d.bytes_left_in_chunk);
}

/* consume_trailer is read at the last chunk's line end (a program may set or clear it after the
 * first call): each case gives the flag before the first call and after it, the pieces, and
 * the result (the bytes after the trailer section when consumed, else the trailer section and
 * what follows it). */
static void test_consume_trailer_late(void)
{
    static const struct {
        int first, then;
        const char *in;
        ssize_t want;
    } cases[] = {
        {0, 1, "1\r\na\r\n|0\r\nT: v\r\n\r\nREST", 4},    /* set after the first call */
        {1, 0, "1\r\na\r\n|0\r\nT: v\r\n\r\nREST", 12},   /* cleared after it */
        {0, 1, "1\r\na\r\n0\r|\nT: v\r\n\r\nREST", 4},    /* set before the last chunk's LF */
        {1, 0, "1\r\na\r\n0\r\nT|: v\r\n\r\nREST", 4},    /* cleared inside the trailer section: too late */
        {1, 1, "1\r\na\r\n0\r\n|T: v\r\n\r\nREST", 4},
        {0, 1, "1\r\na\r\n0\r\nT|: v\r\n\r\nREST", 1},     /* set after the body's end: too late */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct phr_chunked_decoder d;
        char b[128];
        const char *in = cases[i].in;
        size_t n = strcspn(in, "|");
        memset(&d, 0, sizeof d);
        d.consume_trailer = (char)cases[i].first;
        memcpy(b, in, n);
        ssize_t r = phr_decode_chunked(&d, b, &n);
        d.consume_trailer = (char)cases[i].then;
        if (r == -2) r = decode_pieces(&d, in + strcspn(in, "|") + 1);
        t_check(r == cases[i].want, "chunked: consume_trailer read at the last chunk", "case %zu: r %zd (want %zd)", i, r,
                cases[i].want);
    }
}

int main(void)
{
    test_bytes_left_by_byte();
    test_bytes_left_at_error();
    test_bytes_left_in_trailers();
    test_consume_trailer_late();
    test_last_len_check_leaves_the_array();
    test_partial_outputs();
    test_utf8_target();
    test_decode_after_the_end();
    test_decoder_limits();
#ifdef PICOHTTPPARSER_SIMDHTTP
    test_layer_limits();
#endif
    return t_summary();
}
