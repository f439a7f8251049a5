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

/* picohttpparser's decoder has no limits of its own: a chunk extension and a trailer section
 * larger than simdhttp's defaults (4096 bytes of extensions; 128 fields, 80 KiB of trailers)
 * decode in both. */
static void test_decoder_limits(void)
{
    static char in[120000], b[120000];
    struct phr_chunked_decoder d;
    size_t n = 0;
    n += (size_t)sprintf(in + n, "5;a=");
    memset(in + n, 'x', 5000), n += 5000;
    n += (size_t)sprintf(in + n, "\r\nhello\r\n0\r\n");
    for (int i = 0; i < 200; i++) n += (size_t)sprintf(in + n, "T%d: %0450d\r\n", i, i);
    n += (size_t)sprintf(in + n, "\r\n");
    memset(&d, 0, sizeof d);
    d.consume_trailer = 1;
    size_t len = n;
    memcpy(b, in, n);
    ssize_t r = phr_decode_chunked(&d, b, &len);
    t_check(r == 0 && len == 5 && memcmp(b, "hello", 5) == 0,
            "chunked: a 5000-byte extension and 200 trailer fields (92 KB)", "r %zd len %zu", r, len);
}

int main(void)
{
    test_decode_after_the_end();
    test_decoder_limits();
    return t_summary();
}
