/* SPDX-License-Identifier: MIT */
/* The two parsers that stand apart from a head: simdhttp_parse_fields (a bare block of field
 * lines) and simdhttp_chunked_decode (a chunked body, in place), driven by the cases in
 * the .txt files in tests/blocks (the format of tests/cases, described in tests/test_parser.c, with
 * "type: fields" or "type: chunked" and, for chunked, "trailers: consume").
 *
 * Logs:
 *   fields:  off=N len=N span[header_field]="..."   each field, in order (an obs-fold
 *            off=N len=N span[header_value]="..."   continuation has no header_field line)
 *            fields len=N                           the block's length
 *   chunked: body="..."                             the decoded data
 *            rest="..."                             the bytes after the body (the end found)
 *   then "ok", "incomplete" (the input ended first) or "error NAME off=N".
 *
 * Checked for every case: the whole input gives the log; for fields, every prefix of the input
 * says INCOMPLETE up to the end of the block (or the error's offset) and then gives the same
 * log, each prefix in a malloc'd buffer of exactly its size (ASan sees a read past it), and
 * a buffer grown 1 and 4 bytes at a time through simdhttp_parse_fields_continue gives it too; for
 * chunked, the input fed in pieces of k bytes for every k (1: byte by byte; so every offset
 * is a piece boundary), decoded in place into one growing buffer as picohttpparser's README
 * loop does, gives the same log.
 * Then API edges that are not data (sticky errors, calls after the end, empty input). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#define MAXF 64

static void put_result(t_buf *b, const char *kind, simdhttp_errno e, uint64_t off)
{
    if (kind) t_buf_printf(b, "%s\n", kind);
    else t_buf_printf(b, "error %s off=%llu\n", simdhttp_errno_name(e), (unsigned long long)off);
}

/* ---- fields ---- */

static char *fields_log(const t_case *c, const char *in, size_t len, size_t last_len, long *ret)
{
    simdhttp_field f[MAXF];
    simdhttp_head h;
    memset(&h, 0, sizeof h);
    h.fields = f;
    h.fields_cap = MAXF;
    long r = last_len ? simdhttp_parse_fields_continue(&h, in, len, last_len, &c->cfg)
                      : simdhttp_parse_fields(&h, in, len, &c->cfg);
    t_buf b = {0};
    if (r > 0) {
        for (size_t i = 0; i < h.num_fields; i++) {
            if (f[i].name) {
                t_buf_printf(&b, "off=%td len=%zu span[header_field]=\"", f[i].name - in, f[i].name_len);
                t_buf_escaped(&b, f[i].name, f[i].name_len);
                t_buf_put(&b, "\"\n", 2);
            }
            t_buf_printf(&b, "off=%td len=%zu span[header_value]=\"", f[i].value - in, f[i].value_len);
            t_buf_escaped(&b, f[i].value, f[i].value_len);
            t_buf_put(&b, "\"\n", 2);
        }
        t_buf_printf(&b, "fields len=%ld\n", r);
        put_result(&b, "ok", 0, 0);
    } else {
        put_result(&b, r == SIMDHTTP_HEAD_INCOMPLETE ? "incomplete" : NULL, h.error, h.error_offset);
    }
    *ret = r;
    return b.s;
}

static void check_fields(const char *name, const t_case *c)
{
    long r, rp;
    char *whole = fields_log(c, c->in.s ? c->in.s : "", c->in.len, 0, &r);
    if (!t_check(strcmp(whole, c->log.s) == 0, name, "whole input:\n--- expected\n%s--- got\n%s", c->log.s, whole)) {
        free(whole);
        return;
    }
    /* where the result is decided: the block's end, or one byte past the error's offset */
    size_t decided = c->in.len;
    if (r > 0) decided = (size_t)r;
    else if (r == SIMDHTTP_HEAD_ERROR) sscanf(strstr(whole, " off=") + 5, "%zu", &decided), decided++;
    int bad = 0;
    for (size_t n = 0; n < c->in.len && !bad; n++) {
        char *s = malloc(n ? n : 1);
        memcpy(s, c->in.s, n);
        char *got = fields_log(c, s, n, 0, &rp);
        if (n < decided) bad = !t_check(rp == SIMDHTTP_HEAD_INCOMPLETE, name, "prefix %zu: %s", n, got);
        else bad = !t_check(strcmp(got, whole) == 0, name, "prefix %zu:\n%s", n, got);
        free(got);
        free(s);
    }
    /* one buffer growing by `step` bytes, each call with last_len: the same result once the
     * block's end is there (an error may wait until then: INCOMPLETE is allowed for it) */
    for (size_t step = 1; step <= 7 && !bad; step += 3) {
        size_t last = 0, n = 0;
        char *got = NULL;
        rp = SIMDHTTP_HEAD_INCOMPLETE;
        while (rp == SIMDHTTP_HEAD_INCOMPLETE && n < c->in.len) {
            n = n + step < c->in.len ? n + step : c->in.len;
            char *s = malloc(n);
            memcpy(s, c->in.s, n);
            free(got);
            got = fields_log(c, s, n, last, &rp);
            free(s);
            last = n;
        }
        bad = !t_check(strcmp(got, whole) == 0 || (r == SIMDHTTP_HEAD_ERROR && rp == SIMDHTTP_HEAD_INCOMPLETE), name,
                       "growing by %zu with last_len:\n%s", step, got);
        free(got);
    }
    free(whole);
}

/* ---- chunked ---- */

/* Decode in[0..len) fed in pieces of `piece` bytes (0: one piece) into one buffer. */
static char *chunked_log(const t_case *c, const char *in, size_t len, size_t piece)
{
    char *buf = malloc(len + 1);
    size_t size = 0, off = 0;
    long r = SIMDHTTP_CHUNKED_INCOMPLETE;
    simdhttp_chunked d;
    memset(&d, 0xa5, sizeof d); /* init owns every member: nothing may depend on this */
    simdhttp_chunked_init(&d, &c->cfg, c->consume_trailers ? SIMDHTTP_CHUNKED_CONSUME_TRAILERS : 0);
    while (off < len && r == SIMDHTTP_CHUNKED_INCOMPLETE) {
        size_t n = piece && piece < len - off ? piece : len - off;
        memcpy(buf + size, in + off, n);
        off += n;
        size_t got = n;
        r = simdhttp_chunked_decode(&d, buf + size, &got);
        size += got;
        if (r >= 0) { /* the rest: this piece's tail (moved after the data) and later input */
            memmove(buf + size + r, in + off, len - off);
            r += (long)(len - off);
        }
    }
    t_buf b = {0};
    t_buf_put(&b, "body=\"", 6);
    t_buf_escaped(&b, buf, size);
    t_buf_put(&b, "\"\n", 2);
    if (r >= 0) {
        t_buf_put(&b, "rest=\"", 6);
        t_buf_escaped(&b, buf + size, (size_t)r);
        t_buf_put(&b, "\"\n", 2);
    }
    put_result(&b, r >= 0 ? "ok" : r == SIMDHTTP_CHUNKED_INCOMPLETE ? "incomplete" : NULL, d.error,
               d.error_offset);
    free(buf);
    return b.s;
}

static void check_chunked(const char *name, const t_case *c)
{
    const char *in = c->in.s ? c->in.s : "";
    char *got = chunked_log(c, in, c->in.len, 0);
    int ok = t_check(strcmp(got, c->log.s) == 0, name, "whole input:\n--- expected\n%s--- got\n%s", c->log.s, got);
    free(got);
    if (!ok) return;
    for (size_t k = 1; k < c->in.len; k++) {
        /* two pieces: k bytes, then the rest (pieces of k bytes when k is small: many calls) */
        got = chunked_log(c, in, c->in.len, k);
        ok = t_check(strcmp(got, c->log.s) == 0, name, "pieces of %zu bytes:\n%s", k, got);
        free(got);
        if (!ok) return;
    }
}

/* ---- API edges ---- */

static void api(void)
{
    simdhttp_chunked d;
    char b[64];
    size_t n;
    long r;

    simdhttp_chunked_init(&d, NULL, 0);
    n = 0;
    t_check(simdhttp_chunked_decode(&d, NULL, &n) == SIMDHTTP_CHUNKED_INCOMPLETE && n == 0, "chunked: empty input",
            "not INCOMPLETE");
    memcpy(b, "5\r\nhe", n = 5);
    r = simdhttp_chunked_decode(&d, b, &n);
    t_check(r == SIMDHTTP_CHUNKED_INCOMPLETE && n == 2 && memcmp(b, "he", 2) == 0, "chunked: partial data", "r %ld n %zu", r, n);
    t_check(simdhttp_chunked_in_data(&d) && d.chunk_left == 3, "chunked: in data", "in_data %d left %llu",
            simdhttp_chunked_in_data(&d), (unsigned long long)d.chunk_left);
    memcpy(b, "llo", n = 3);
    r = simdhttp_chunked_decode(&d, b, &n);
    t_check(r == SIMDHTTP_CHUNKED_INCOMPLETE && n == 3 && !simdhttp_chunked_in_data(&d) && d.chunk_left == 0,
            "chunked: data done, CRLF due", "r %ld n %zu in_data %d", r, n, simdhttp_chunked_in_data(&d));
    memcpy(b, "\r\n0\r\n\r\nX", n = 8);
    r = simdhttp_chunked_decode(&d, b, &n);
    t_check(r == 3 && n == 0 && memcmp(b, "\r\nX", 3) == 0, "chunked: end, trailer section left", "r %ld n %zu", r, n);
    n = 1;
    r = simdhttp_chunked_decode(&d, b, &n);
    t_check(r == SIMDHTTP_CHUNKED_ERROR && d.error == SIMDHTTP_E_INVALID_ARGUMENT && n == 0, "chunked: call after the end",
            "r %ld error %s", r, simdhttp_errno_name(d.error));

    simdhttp_chunked_init(&d, NULL, 0);
    memcpy(b, "3\r\nabc\r\nz", n = 9);
    r = simdhttp_chunked_decode(&d, b, &n);
    t_check(r == SIMDHTTP_CHUNKED_ERROR && n == 3 && d.error == SIMDHTTP_E_INVALID_CHUNK_SIZE && d.error_offset == 8 &&
                d.error_reason != NULL,
            "chunked: error after data", "r %ld n %zu %s off %llu", r, n, simdhttp_errno_name(d.error),
            (unsigned long long)d.error_offset);
    memcpy(b, "0\r\n\r\n", n = 5);
    r = simdhttp_chunked_decode(&d, b, &n);
    t_check(r == SIMDHTTP_CHUNKED_ERROR && n == 0 && d.error == SIMDHTTP_E_INVALID_CHUNK_SIZE, "chunked: error sticks",
            "r %ld", r);

    /* a caller's pause_value does not change how the decoder stops (1, which the streaming
     * parser refuses, is ignored here too) */
    for (int v = 7; v >= 1; v -= 6) {
        simdhttp_config pv = {.pause_value = v};
        simdhttp_chunked_init(&d, &pv, 0);
        memcpy(b, "1\r\nx\r\n0\r\n\r\n", n = 11);
        r = simdhttp_chunked_decode(&d, b, &n);
        t_check(r == 2 && n == 1 && b[0] == 'x', "chunked: cfg.pause_value", "%d: r %ld %s", v, r,
                simdhttp_errno_name(d.error));
    }

    /* a reused decoder starts over at init */
    simdhttp_chunked_init(&d, NULL, SIMDHTTP_CHUNKED_CONSUME_TRAILERS);
    memcpy(b, "0\r\nA: b\r\n\r\n", n = 11);
    r = simdhttp_chunked_decode(&d, b, &n);
    t_check(r == 0 && n == 0 && d.error == SIMDHTTP_OK, "chunked: init resets", "r %ld %s", r, simdhttp_errno_name(d.error));

    /* fields: empty input, and the caller's array smaller than max_fields */
    simdhttp_field f[2];
    simdhttp_head h;
    memset(&h, 0xff, sizeof h);
    h.fields = f;
    h.fields_cap = 2;
    t_check(simdhttp_parse_fields(&h, NULL, 0, NULL) == SIMDHTTP_HEAD_INCOMPLETE && h.num_fields == 0, "fields: empty input",
            "not INCOMPLETE");
    r = simdhttp_parse_fields(&h, "A: 1\r\nB: 2\r\nC: 3\r\n\r\n", 20, NULL);
    t_check(r == SIMDHTTP_HEAD_ERROR && h.error == SIMDHTTP_E_TOO_MANY_HEADERS && h.error_offset == 12 && h.num_fields == 2,
            "fields: fields_cap", "r %ld %s off %zu", r, simdhttp_errno_name(h.error), h.error_offset);
    /* a growing buffer whose first byte was CR: the empty block, however many bytes follow */
    t_check(simdhttp_parse_fields(&h, "\r", 1, NULL) == SIMDHTTP_HEAD_INCOMPLETE, "fields: lone CR", "not INCOMPLETE");
    r = simdhttp_parse_fields_continue(&h, "\r\nA: 1\r\nB: 22", 13, 1, NULL);
    t_check(r == 2 && h.num_fields == 0, "fields: continue after a lone CR", "r %ld", r);
    r = simdhttp_parse_fields(&h, "A: 1\r\nB: 2\r\n\r\n", 14, NULL);
    t_check(r == 14 && h.num_fields == 2 && h.error == SIMDHTTP_OK && f[1].value_len == 1 && f[1].value[0] == '2',
            "fields: exactly fields_cap", "r %ld n %zu", r, h.num_fields);
}

int main(int argc, char **argv)
{
    const char *dir = getenv("SIMDHTTP_BLOCKS");
    if (!dir || !*dir) dir = "tests/blocks";
    const char *only = argc > 1 ? argv[1] : NULL;
    size_t nfiles, ncases = 0, cap = 0, ran = 0;
    char **files = t_list_dir(dir, ".txt", &nfiles);
    t_check(nfiles > 0, "cases", "no case files in %s", dir);
    t_case *cases = NULL;
    for (size_t i = 0; i < nfiles; i++) t_load_cases(files[i], &cases, &ncases, &cap);
    for (size_t i = 0; i < ncases; i++) {
        t_case *c = &cases[i];
        if (only && !strstr(c->name, only)) continue;
        char name[512];
        snprintf(name, sizeof name, "%s (%s)", c->name, c->where);
        if (!t_check(c->type == T_FIELDS || c->type == T_CHUNKED, name, "type must be fields or chunked")) continue;
        if (!t_check(c->log.len > 0, name, "no log: block")) continue;
        ran++;
        if (c->type == T_FIELDS) check_fields(name, c);
        else check_chunked(name, c);
    }
    printf("%zu cases from %zu files\n", ran, nfiles);
    if (!only) api();
    for (size_t i = 0; i < ncases; i++) t_buf_free(&cases[i].in), t_buf_free(&cases[i].log);
    free(cases);
    for (size_t i = 0; i < nfiles; i++) free(files[i]);
    free(files);
    return t_summary();
}
