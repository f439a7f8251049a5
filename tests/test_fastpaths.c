/* SPDX-License-Identifier: MIT */
/* The core's fast paths against its byte states, on inputs generated around their thresholds:
 *
 *   A. chunk-size lines (the one-pass read of 1-15 digits + CRLF when 17 bytes are in the
 *      buffer, the jump from chunk data's CRLF when 19 are): sizes of 1 to 17 digits, leading
 *      zeros, 2^60 and the 64-bit overflow, each line ended by every line end the byte states
 *      know (CRLF, LF, CR, CR CR LF, SP CRLF, an extension, a NUL), strict and under the chunk
 *      lenient flags;
 *   B. max_chunk_ext swept over every value up to a chunk line's length, for extension lines
 *      with tokens, quoted-strings, quoted-pairs, BWS and leading zeros (the closing quote as
 *      the first byte past the limit once failed differently after a pause there);
 *   C. framing fields (Content-Length, Transfer-Encoding, Connection, Upgrade) with one-token,
 *      list, empty and invalid values, repeated, and followed by an obs-fold, through the
 *      whole-field on_header path.
 *
 * Every input is checked against the scalar path's log of it whole (tests/testlib.h's
 * recorder; this process's path is the one SIMDHTTP_ISA forced, tests/run.sh runs each):
 * whole, split in two at every offset (so the buffer ends at every distance from every line
 * start: 16/17/18/19/20 bytes left included), in three pieces around each chunk line, byte by
 * byte, and paused at every event (SIMDHTTP_SPLIT_STRIDE=N: every Nth two-piece split only, as
 * test_parser takes it). For C, with on_header set too: its calls are turned back
 * into the span events they stand for (name, value with its trailing OWS, at their offsets),
 * so the log must be the span callbacks' exactly, whatever the split and with on_header
 * pausing at every call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

static simdhttp_isa isa_under_test;
static size_t stride = 1; /* SIMDHTTP_SPLIT_STRIDE (tests/run.sh, tests/aarch64.sh): every Nth two-piece split */
static long runs, onh_calls;
static int onh_pause;

/* "pause" lines are the paused run's own: the rest must be the same */
static char *strip_pauses(char *log)
{
    t_strip_pauses(log);
    return log;
}

/* on_header as the span events it stands for: the value span runs to the line's CR (its
 * trailing OWS included), as on_header_value gives it */
static int onh(simdhttp_parser *p, const char *n, size_t nl, const char *v, size_t vl)
{
    const char *t = v + vl;
    while (*t == ' ' || *t == '\t') t++;
    if (*t != '\r') t_check(0, "on_header", "value not followed by OWS and CR");
    t_rec_callbacks.on_header_field(p, n, nl);
    t_rec_callbacks.on_header_field_complete(p);
    if (t > v) t_rec_callbacks.on_header_value(p, v, (size_t)(t - v));
    t_rec_callbacks.on_header_value_complete(p);
    onh_calls++;
    return onh_pause ? SIMDHTTP_PAUSE : 0;
}

static const char *show(const char *in, size_t len)
{
    static char out[2048];
    size_t o = 0;
    for (size_t i = 0; i < len && o + 5 < sizeof out; i++) {
        unsigned char c = (unsigned char)in[i];
        if (c >= 0x20 && c < 0x7f && c != '\\') out[o++] = (char)c;
        else o += (size_t)snprintf(out + o, sizeof out - o, c == '\r' ? "\\r" : c == '\n' ? "\\n" : "\\x%02x", c);
    }
    out[o] = 0;
    return out;
}

static int same(const char *what, const simdhttp_config *cfg, const char *in, size_t len, const char *want, char *got)
{
    runs++;
    int ok = strcmp(want, got) == 0;
    if (!ok && !t_check(0, what, "lenient %#x max_chunk_ext %u: the log differs from the scalar path's whole run on \"%s\"",
                 cfg->lenient, cfg->max_chunk_ext, show(in, len)))
        printf("--- want:\n%s--- got:\n%s", want, got);
    free(got);
    return ok;
}

/* One input, every way. `at`: a chunk line's start (0: none); two pieces cut from `at` - 1 on
 * (else at every offset); three pieces cut first at `at` - 1, `at` or `at` + 1, then up to 24
 * bytes after that. */
static int check(const char *what, simdhttp_type type, const simdhttp_config *cfg, const char *in, size_t len, int eof,
                 size_t at, int with_onh)
{
    int bad = 0;
    simdhttp_isa_set(SIMDHTTP_ISA_SCALAR);
    char *want = t_stream_log(type, cfg, in, len, NULL, 0, eof, -1);
    simdhttp_isa_set(isa_under_test);
    int events = 0;
    for (const char *c = want; *c; c++) events += *c == '\n';

    bad |= !same(what, cfg, in, len, want, t_stream_log(type, cfg, in, len, NULL, 0, eof, -1));
    size_t one = 1;
    bad |= !same(what, cfg, in, len, want, t_stream_log(type, cfg, in, len, &one, 1, eof, -1));
    for (size_t k = at ? at - 1 : 1; k < len && !bad; k += stride) {
        size_t sp[2] = {k, len};
        bad |= !same(what, cfg, in, len, want, t_stream_log(type, cfg, in, len, sp, 2, eof, -1));
    }
    for (size_t a = at ? at - 1 : 0; at && a <= at + 1 && a < len && !bad; a++)
        for (size_t b = a + 1; b <= a + 24 && b < len && !bad; b++) {
            size_t sp[3] = {a, b - a, len};
            bad |= !same(what, cfg, in, len, want, t_stream_log(type, cfg, in, len, sp, 3, eof, -1));
        }
    for (int i = 0; i < events && !bad; i++)
        bad |= !same(what, cfg, in, len, want, strip_pauses(t_stream_log(type, cfg, in, len, NULL, 0, eof, i)));
    if (with_onh && !bad) {
        simdhttp_callbacks cb = t_rec_callbacks;
        simdhttp_parser p;
        cb.on_header = onh;
        simdhttp_init(&p, type, &cb, cfg);
        for (onh_pause = 0; onh_pause < 2 && !bad; onh_pause++) {
            bad |= !same(what, cfg, in, len, want,
                         strip_pauses(t_stream_log_on(&p, 0, type, cfg, in, len, NULL, 0, eof, -1, 0)));
            for (size_t k = 1; k < len && !bad; k += stride) {
                size_t sp[2] = {k, len};
                bad |= !same(what, cfg, in, len, want,
                             strip_pauses(t_stream_log_on(&p, 0, type, cfg, in, len, sp, 2, eof, -1, 0)));
            }
        }
        onh_pause = 0;
    }
    free(want);
    return !bad;
}

#define HEAD "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"

/* A. chunk-size lines */
static void chunk_sizes(void)
{
    static const char *sizes[] = {
        "1", "a", "F", "0", "00", "10", "0001", "fffffff", "00000000000000a", /* 15 digits: the fast read's longest */
        "100000000000000", "fffffffffffffff", "000000000000001", "1000000000000000", /* 16 digits */
        "0000000000000001", "ffffffffffffffff", "10000000000000000", /* 17 digits: overflow */
        "00000000000000001", "000000000000000000001", "g", "x1", "-1", "+1", "1g"};
    static const char *ends[] = {"\r\n", "\n", "\r", "\r\r\n", " \r\n", "\t\r\n", ";a\r\n", ";a=\"b\"\r\n", " ;a=b\r\n",
                                 "\0\r\n", "\r\n\r\n", "\n\r\n"};
    static const uint32_t lenient[] = {0,
                                       SIMDHTTP_LENIENT_OPTIONAL_CR_BEFORE_LF | SIMDHTTP_LENIENT_OPTIONAL_LF_AFTER_CR |
                                           SIMDHTTP_LENIENT_SPACES_AFTER_CHUNK_SIZE |
                                           SIMDHTTP_LENIENT_OPTIONAL_CRLF_AFTER_CHUNK};
    int ok = 1, n = 0;
    /* the line right after the head, and after a chunk's data CRLF (the jump from there) */
    for (int after_data = 0; after_data < 2; after_data++)
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes * (sizeof ends / sizeof *ends); i++)
            for (size_t l = 0; l < sizeof lenient / sizeof *lenient; l++) {
                const char *size = sizes[i / (sizeof ends / sizeof *ends)];
                size_t e = i % (sizeof ends / sizeof *ends);
                char in[256];
                size_t len = sizeof HEAD - 1;
                simdhttp_config cfg = {0};
                cfg.lenient = lenient[l];
                memcpy(in, HEAD, len);
                if (after_data) memcpy(in + len, "1\r\nx\r\n", 6), len += 6;
                size_t line = len;
                len += (size_t)snprintf(in + len, sizeof in - len, "%s", size);
                size_t el = e == 9 ? 3 : strlen(ends[e]); /* (the one with a NUL) */
                memcpy(in + len, ends[e], el), len += el;
                /* the chunk's data (a size over 32 bytes: what the buffer holds of it), its
                 * CRLF, a second chunk line (the data's CRLF jumps to it) and the last chunk */
                unsigned long long v = strtoull(size, NULL, 16);
                size_t data = v > 32 ? 20 : (size_t)v;
                for (size_t k = 0; k < data; k++) in[len++] = (char)('a' + k % 26);
                if (v <= 32) {
                    static const char tail[] = "\r\n3\r\nxyz\r\n0\r\n\r\n";
                    memcpy(in + len, tail, sizeof tail - 1), len += sizeof tail - 1;
                }
                ok &= check("chunk size line", SIMDHTTP_REQUEST, &cfg, in, len, v <= 32, line, 0);
                n++;
            }
    t_check(ok, "chunk size lines", "%d inputs", n);
}

/* B. max_chunk_ext at every value over a chunk line's extension bytes */
static void chunk_ext_limits(void)
{
    static const char *lines[] = {"5;a=b", "5;a=\"b\"", "5;ab=\"c\\\"d\"", "5 ; a = b ;c", "5;a=\"x y\";b",
                                  "000000000000000000005;a=\"q\"", "5;a=\"\\\\\"", "5;a=\"b\" ", "5;a;b;c"};
    int ok = 1, n = 0;
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        size_t ll = strlen(lines[i]);
        for (uint32_t lim = 1; lim <= ll; lim++) {
            char in[256];
            size_t len = (size_t)snprintf(in, sizeof in, HEAD "%s\r\nhello\r\n0\r\n\r\n", lines[i]);
            simdhttp_config cfg = {0};
            cfg.max_chunk_ext = lim;
            cfg.lenient = SIMDHTTP_LENIENT_SPACES_AFTER_CHUNK_SIZE * (lines[i][ll - 1] == ' ');
            ok &= check("max_chunk_ext", SIMDHTTP_REQUEST, &cfg, in, len, 1, sizeof HEAD - 1, 0);
            n++;
        }
    }
    t_check(ok, "max_chunk_ext sweep", "%d inputs", n);
}

/* C. framing fields through on_header */
static void framing_fields(void)
{
    static const char *fields[] = {
        "Content-Length: 5", "Content-Length:5", "content-length: 5 ", "Content-Length: 05", "Content-Length: 5, 5",
        "Content-Length: ", "Content-Length: 5a", "Content-Length: 18446744073709551615",
        "Content-Length: 18446744073709551616", "Content-Length: 1234567890123456789",
        "Content-Length: 12345678901234567890", "Transfer-Encoding: chunked", "transfer-encoding: CHUNKED\t",
        "Transfer-Encoding: gzip, chunked", "Transfer-Encoding: chunked, gzip", "Transfer-Encoding: chunked;a=b",
        "Transfer-Encoding: ,chunked", "Transfer-Encoding: chunke", "Connection: close", "Connection: keep-alive",
        "Connection: Upgrade", "Connection: close, upgrade", "Connection: closed", "Connection:", "Upgrade: h2c",
        "Upgrade:", "X-A: b", "Content-Lengths: 5", "Connection\t: close"};
    static const char *after[] = {"", "Content-Length: 5\r\n", "Transfer-Encoding: chunked\r\n", " 5\r\n", "\t, chunked\r\n",
                                  " close\r\n", "Connection: close\r\n"};
    int ok = 1, n = 0;
    long calls0 = onh_calls;
    for (size_t f = 0; f < sizeof fields / sizeof *fields; f++)
        for (size_t a = 0; a < sizeof after / sizeof *after; a++)
            for (int fold = 0; fold < 2; fold++) {
                if (fold && after[a][0] != ' ' && after[a][0] != '\t') continue;
                char in[512];
                size_t len = (size_t)snprintf(in, sizeof in, "POST / HTTP/1.1\r\nHost: a\r\n%s\r\n%sX: y\r\n\r\n"
                                                             "5\r\nhello\r\n0\r\n\r\nGET / HTTP/1.1\r\n\r\n",
                                              fields[f], after[a]);
                simdhttp_config cfg = {0};
                if (fold) cfg.lenient = SIMDHTTP_LENIENT_OBS_FOLD;
                ok &= check("framing field", SIMDHTTP_REQUEST, &cfg, in, len, 1, 0, 1);
                n++;
            }
    t_check(ok, "framing fields through on_header", "%d inputs", n);
    t_check(onh_calls - calls0 > 1000, "on_header", "called %ld times: the whole-field path is not taken",
            onh_calls - calls0);
}

int main(void)
{
    const char *st = getenv("SIMDHTTP_SPLIT_STRIDE");
    isa_under_test = simdhttp_isa_get();
    if (st && atoi(st) > 1) stride = (size_t)atoi(st);
    chunk_sizes();
    chunk_ext_limits();
    framing_fields();
    printf("fast paths (%s): %ld runs\n", simdhttp_isa_name(), runs);
    return t_summary();
}
