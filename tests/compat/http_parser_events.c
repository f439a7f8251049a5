/* SPDX-License-Identifier: MIT */
/* The http-parser side of tests/compat/diff.py: written only against http-parser 2.9's API,
 * built twice (Debian's libhttp-parser 2.9.4, and simdhttp's http-parser layer). It feeds one
 * input at the chunkings it is given and prints one event log per chunking (the contract is at
 * the top of diff.py):
 *
 *   message begin
 *   off=4 len=1 span[url]="/"              spans: absolute offset, escaped bytes; consecutive
 *                                           pieces of one span merged (len=0: only empty pieces)
 *   headers complete method=GET status=0 v=1.1 flags=... content_length=N upgrade=0 keep_alive=1
 *   chunk header len=N / chunk complete
 *   message complete keep_alive=1
 *   upgrade off=N / error NAME off=N / ok  the result: NAME is http_errno_name(); off is
 *                                           where http_parser_execute() stopped (EOF: the length)
 *
 * Lenient flags: "headers" sets lenient_http_headers, "chunked_length" allow_chunked_length;
 * http-parser has no other switch, so any other flag declines the input (exit 3).
 * -p N: a callback pauses the parser (http_parser_pause) at the N-th event; resumed at once. */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h" /* out, outf, out_escaped, read_file */
#include "http_parser.h"

/* the current execute() buffer and its absolute offset */
static const char *base;
static size_t base_off;
/* the open span: merged with the next piece of the same kind that starts where it ends */
static const char *open_kind;
static size_t open_off;
static char *open_bytes;
static size_t open_len, open_cap;
static int pause_at = -1, events;

static void flush(void)
{
    if (!open_kind) return;
    if (open_len) outf("off=%zu len=%zu span[%s]=\"", open_off, open_len, open_kind);
    else outf("off=- len=0 span[%s]=\"", open_kind); /* an empty span has no place */
    out_escaped(open_bytes, open_len);
    out("\"\n", 2);
    open_kind = NULL;
    open_len = 0;
}

static int event(http_parser *p)
{
    if (events++ == pause_at) {
        http_parser_pause(p, 1);
        flush();
        out("pause\n", 6);
    }
    return 0;
}

static int span(http_parser *p, const char *kind, const char *at, size_t n)
{
    size_t off = n ? base_off + (size_t)(at - base) : 0;
    /* pieces of one element (a run of one kind) are merged; an element whose pieces are all
     * empty is printed with len=0 (http-parser reports an empty value so; it also sends
     * empty pieces at buffer ends, which merge away) */
    if (open_kind == kind && (n == 0 || open_len == 0 || open_off + open_len == off)) {
        if (open_len == 0) open_off = off;
    } else {
        flush();
        open_kind = kind;
        open_off = off;
    }
    if (open_len + n > open_cap) {
        open_cap = (open_len + n) * 2;
        open_bytes = realloc(open_bytes, open_cap);
        if (!open_bytes) abort();
    }
    if (n) memcpy(open_bytes + open_len, at, n); /* (an empty piece may come with at == NULL) */
    open_len += n;
    return event(p);
}

static int note(http_parser *p, const char *what)
{
    flush();
    outf("%s\n", what);
    return event(p);
}

static const char *const kinds[] = {"url", "status", "header_field", "header_value", "body"};
static int on_url(http_parser *p, const char *at, size_t n) { return span(p, kinds[0], at, n); }
static int on_status(http_parser *p, const char *at, size_t n) { return span(p, kinds[1], at, n); }
static int on_header_field(http_parser *p, const char *at, size_t n) { return span(p, kinds[2], at, n); }
static int on_header_value(http_parser *p, const char *at, size_t n) { return span(p, kinds[3], at, n); }
static int on_body(http_parser *p, const char *at, size_t n) { return span(p, kinds[4], at, n); }
static int on_message_begin(http_parser *p) { return note(p, "message begin"); }
static int on_chunk_complete(http_parser *p) { return note(p, "chunk complete"); }

static int on_chunk_header(http_parser *p)
{
    flush();
    outf("chunk header len=%llu\n", (unsigned long long)p->content_length);
    return event(p);
}

static void out_flags(unsigned f)
{
    static const char *const names[] = {"CHUNKED", "CONNECTION_KEEP_ALIVE", "CONNECTION_CLOSE",
                                        "CONNECTION_UPGRADE", "TRAILING", "UPGRADE", "SKIPBODY",
                                        "CONTENTLENGTH"};
    int any = 0;
    for (int i = 0; i < 8; i++)
        if (f & (1u << i)) outf("%s%s", any++ ? "|" : "", names[i]);
    if (!any) out("0", 1);
}

static int on_headers_complete(http_parser *p)
{
    flush();
    outf("headers complete method=%s status=%u v=%u.%u flags=", p->type == HTTP_REQUEST ? http_method_str((enum http_method)p->method) : "-",
         p->status_code, p->http_major, p->http_minor);
    out_flags(p->flags);
    outf(" content_length=%lld upgrade=%u keep_alive=%d\n", (long long)p->content_length, p->upgrade,
         http_should_keep_alive(p));
    return event(p);
}

static int on_message_complete(http_parser *p)
{
    flush();
    outf("message complete keep_alive=%d\n", http_should_keep_alive(p));
    return event(p);
}

/* Feed [at, at+n) as one execute() call; resumes pauses at once. @return 0 to go on, 1 to stop */
static int feed(http_parser *p, const http_parser_settings *s, const char *at, size_t n, size_t off)
{
    for (;;) {
        base = at;
        base_off = off;
        size_t r = http_parser_execute(p, s, at, n);
        enum http_errno e = HTTP_PARSER_ERRNO(p);
        if (e == HPE_PAUSED) {
            flush();
            outf("resume off=%zu\n", off + r); /* what execute() returned: the program resumes there */
            http_parser_pause(p, 0);
            at += r, n -= r, off += r;
            if (n == 0) return 0;
            continue;
        }
        if (e != HPE_OK) {
            flush();
            outf("error %s off=%zu\n", http_errno_name(e), off + r);
            return 1;
        }
        if (p->upgrade) {
            flush();
            outf("upgrade off=%zu\n", off + r);
            return 1;
        }
        if (r != n) {
            flush();
            outf("short off=%zu\n", off + r);
            return 1;
        }
        return 0;
    }
}

int main(int argc, char **argv)
{
    enum http_parser_type type = HTTP_BOTH;
    const char *lenient = NULL, *chunks = "0", *file = NULL;
    int eof = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-t") && i + 1 < argc) {
            const char *t = argv[++i];
            type = !strcmp(t, "request") ? HTTP_REQUEST : !strcmp(t, "response") ? HTTP_RESPONSE : HTTP_BOTH;
        } else if (!strcmp(argv[i], "-l") && i + 1 < argc) {
            lenient = argv[++i];
        } else if (!strcmp(argv[i], "-n")) {
            eof = 0;
        } else if (!strcmp(argv[i], "-c") && i + 1 < argc) {
            chunks = argv[++i];
        } else if (!strcmp(argv[i], "-p") && i + 1 < argc) {
            pause_at = atoi(argv[++i]);
        } else {
            file = argv[i];
        }
    }
    int len_headers = 0, len_chunked = 0, declined = 0;
    if (lenient) {
        char *l = strdup(lenient), *save = NULL;
        for (char *tok = strtok_r(l, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            if (!strcmp(tok, "headers")) len_headers = 1;
            else if (!strcmp(tok, "chunked_length")) len_chunked = 1;
            else declined = 1;
        }
        free(l);
        if (declined) return 3; /* a switch http-parser does not have */
    }
    size_t len = 0;
    char *data = file ? read_file(file, &len) : NULL;
    if (!data) {
        fprintf(stderr, "usage: %s [-t request|response|both] [-l FLAGS] [-n] -c SPEC,... FILE\n", argv[0]);
        return 2;
    }

    http_parser_settings s;
    memset(&s, 0, sizeof s);
    s.on_message_begin = on_message_begin;
    s.on_url = on_url;
    s.on_status = on_status;
    s.on_header_field = on_header_field;
    s.on_header_value = on_header_value;
    s.on_headers_complete = on_headers_complete;
    s.on_body = on_body;
    s.on_message_complete = on_message_complete;
    s.on_chunk_header = on_chunk_header;
    s.on_chunk_complete = on_chunk_complete;
    /* chunking "sN": pieces of N bytes, the odd ones with settings that have no
     * on_chunk_complete (settings may change between calls: the layer then changes the
     * callbacks it gives simdhttp, which this compares with http-parser at every split) */
    http_parser_settings s_odd = s;
    s_odd.on_chunk_complete = NULL;

    char *specs = strdup(chunks), *save = NULL;
    for (char *spec = strtok_r(specs, ",", &save); spec; spec = strtok_r(NULL, ",", &save)) {
        http_parser p;
        http_parser_init(&p, type);
        p.lenient_http_headers = len_headers;
        p.allow_chunked_length = len_chunked;
        events = 0;
        loglen = 0;
        outf("=== chunking %s\n", spec);
        int stop = 0;
        if (spec[0] == '@') {
            size_t k = strtoul(spec + 1, NULL, 10);
            if (k > len) k = len;
            stop = feed(&p, &s, data, k, 0) || feed(&p, &s, data + k, len - k, k);
        } else {
            int alt = spec[0] == 's';
            size_t step = strtoul(spec + alt, NULL, 10);
            if (step == 0) step = len ? len : 1;
            for (size_t off = 0; off < len && !stop; off += step)
                stop = feed(&p, alt && (off / step) % 2 ? &s_odd : &s, data + off, len - off < step ? len - off : step, off);
        }
        if (!stop && eof) {
            base = NULL;
            size_t r = http_parser_execute(&p, &s, NULL, 0);
            flush();
            if (HTTP_PARSER_ERRNO(&p) != HPE_OK) {
                outf("error %s off=%zu\n", http_errno_name(HTTP_PARSER_ERRNO(&p)), len);
                stop = 1;
            }
            (void)r;
        }
        flush();
        if (!stop) out("ok\n", 3);
        fwrite(logbuf, 1, loglen, stdout);
    }
    free(specs);
    free(data);
    free(open_bytes);
    return 0;
}
