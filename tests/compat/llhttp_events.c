/* SPDX-License-Identifier: MIT */
/* The llhttp side of tests/compat/diff.py: written only against llhttp's API, built twice (real
 * llhttp 8.1 from Debian's node-llhttp, and simdhttp's llhttp layer). It feeds one input at the
 * chunkings it is given and prints one event log per chunking (the contract is at the top of
 * diff.py):
 *
 *   message begin
 *   off=0 len=3 span[method]="GET"          spans: absolute offset, escaped bytes; consecutive
 *   method complete                          pieces of one span merged, a zero-length call a
 *                                            line of its own (span() says why)
 *   headers complete type=request method=GET v=1.1 flags=... content_length=0 upgrade=0
 *       keep_alive=1 needs_eof=0            (one line; a response says status=200)
 *   message complete keep_alive=1
 *   upgrade off=N / error NAME off=N / ok   the result (finish() errors: off=eof)
 *   pause off=N reason "..."                 (-p) where the pause left the program, and
 *                                            llhttp_get_error_reason() then
 *
 * A chunking "zSPEC" is SPEC with an llhttp_execute() of 0 bytes (at the piece's end) after each
 * piece: llhttp calls a span open there with length 0 (diff.py --extra-specs z1,z7).
 *
 * Options beyond the contract (for tests of callback return values, not used by diff.py):
 *   -p N   a callback returns HPE_PAUSED at the N-th event (0-based), resumed at once
 *   -h R   on_headers_complete returns R (1 skip body, 2 skip body and upgrade)
 *   -u     on HPE_PAUSED_UPGRADE call llhttp_resume_after_upgrade() and go on
 */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "llhttp.h"

#ifndef EVENTS_LOG_FN
#define EVENTS_LOG_FN llhttp_events_log
#endif
char *EVENTS_LOG_FN(const char *in, size_t len, int type, const char *lenient, int eof, const char *specs);

/* The switches llhttp 9.x added. Built with -DEVENTS_LLHTTP8_SWITCHES (as tests/compat does
 * for the layer, to compare it with Debian's 8.1), a 9.x build declines them as 8.1 must. */

/* ---- the recorder ---- */

static const char *piece;     /* the buffer of the current llhttp_execute() call */
static size_t piece_off;      /* its absolute offset */
static size_t piece_len;
static const char *span_kind; /* the open span (NULL: none) */
static size_t span_off, span_len;
static char *span_bytes;
static size_t span_cap;
static int events, pause_at = -1, hc_ret;

static int foreign; /* the open span's offset is not known yet */

static void flush(void)
{
    if (!span_kind) return;
    if (foreign) outf("off=- len=%zu span[%s]=\"", span_len, span_kind);
    else outf("off=%zu len=%zu span[%s]=\"", span_off, span_len, span_kind);
    out_escaped(span_bytes, span_len);
    out("\"\n", 2);
    span_kind = NULL;
}

static int event(void) { return events++ == pause_at ? HPE_PAUSED : 0; }

/* A zero-length call is an event and a line of its own (the open span flushed first): llhttp
 * calls on_header_value with length 0 for an empty field value, and a program that joins
 * consecutive on_header_field pieces into one name needs it (issue 33); and llhttp ends a span
 * that went on to the end of one execute() with a zero-length call at the next one's start
 * (after a pause at a buffer's end too, and in an execute() of no bytes), so such logs depend on
 * the chunking as llhttp's calls do. Other pieces of one span merge. A span outside the current
 * piece (bytes a library keeps itself, e.g. the "H" of a method split where "HTTP/" was still
 * possible) takes its offset from the piece of the same span that follows it: the log then does
 * not depend on where the bytes came from. */

static int span(const char *kind, const char *at, size_t n)
{
    if (n == 0) {
        flush();
        if (piece && at >= piece && at <= piece + piece_len)
            outf("off=%zu len=0 span[%s]=\"\"\n", piece_off + (size_t)(at - piece), kind);
        else outf("off=- len=0 span[%s]=\"\"\n", kind);
        return event();
    }
    int inside = at >= piece && at + n <= piece + piece_len;
    size_t off = inside ? piece_off + (size_t)(at - piece) : 0;
    if (span_kind == kind && foreign && inside) {
        span_off = off - span_len; /* the foreign bytes came right before these */
        foreign = 0;
    }
    if (!(span_kind == kind && (foreign ? !inside : span_off + span_len == off))) {
        flush();
        span_kind = kind;
        span_off = off;
        span_len = 0;
        foreign = !inside;
    }
    if (span_len + n > span_cap) {
        span_cap = (span_len + n) * 2;
        span_bytes = realloc(span_bytes, span_cap);
        if (!span_bytes) abort();
    }
    memcpy(span_bytes + span_len, at, n);
    span_len += n;
    return event();
}

static int note(const char *what)
{
    flush();
    outf("%s\n", what);
    return event();
}

static void out_flags(unsigned f)
{
    static const struct { unsigned bit; const char *name; } names[] = {
        {F_CONNECTION_KEEP_ALIVE, "CONNECTION_KEEP_ALIVE"}, {F_CONNECTION_CLOSE, "CONNECTION_CLOSE"},
        {F_CONNECTION_UPGRADE, "CONNECTION_UPGRADE"}, {F_CHUNKED, "CHUNKED"}, {F_UPGRADE, "UPGRADE"},
        {F_CONTENT_LENGTH, "CONTENT_LENGTH"}, {F_SKIPBODY, "SKIPBODY"}, {F_TRAILING, "TRAILING"},
        {F_TRANSFER_ENCODING, "TRANSFER_ENCODING"},
    };
    const char *sep = "";
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (f & names[i].bit) {
            outf("%s%s", sep, names[i].name);
            sep = "|";
            f &= ~names[i].bit;
        }
    if (f) outf("%s0x%x", sep, f);
    else if (!*sep) out("0", 1);
}

#define SPAN_CB(name) \
    static int on_##name(llhttp_t *p, const char *at, size_t n) { (void)p; return span(#name, at, n); }
#define NOTE_CB(name, text) \
    static int on_##name(llhttp_t *p) { (void)p; return note(text); }
SPAN_CB(method)
SPAN_CB(url)
SPAN_CB(version)
SPAN_CB(status)
SPAN_CB(header_field)
SPAN_CB(header_value)
SPAN_CB(body)
SPAN_CB(chunk_extension_name)
SPAN_CB(chunk_extension_value)
NOTE_CB(message_begin, "message begin")
NOTE_CB(method_complete, "method complete")
NOTE_CB(url_complete, "url complete")
NOTE_CB(version_complete, "version complete")
NOTE_CB(status_complete, "status complete")
NOTE_CB(header_field_complete, "header_field complete")
NOTE_CB(header_value_complete, "header_value complete")
NOTE_CB(chunk_extension_name_complete, "chunk_extension_name complete")
NOTE_CB(chunk_extension_value_complete, "chunk_extension_value complete")
NOTE_CB(chunk_complete, "chunk complete")
NOTE_CB(reset, "reset")

static int on_headers_complete(llhttp_t *p)
{
    flush();
    out("headers complete", 16);
    if (p->type == HTTP_REQUEST) outf(" type=request method=%s", llhttp_method_name((llhttp_method_t)p->method));
    else outf(" type=response status=%d", p->status_code);
    outf(" v=%d.%d flags=", p->http_major, p->http_minor);
    out_flags(p->flags);
    outf(" content_length=%llu upgrade=%d keep_alive=%d needs_eof=%d\n",
         (unsigned long long)p->content_length, p->upgrade, llhttp_should_keep_alive(p),
         llhttp_message_needs_eof(p));
    int rc = event();
    return rc ? rc : hc_ret;
}

static int on_chunk_header(llhttp_t *p)
{
    flush();
    outf("chunk header len=%llu\n", (unsigned long long)p->content_length);
    return event();
}

static int on_message_complete(llhttp_t *p)
{
    flush();
    outf("message complete keep_alive=%d\n", llhttp_should_keep_alive(p));
    return event();
}

/* ---- options ---- */

static int set_lenient(llhttp_t *p, const char *name)
{
    static const struct {
        const char *name;
        void (*set)(llhttp_t *, int);
    } switches[] = {
        {"headers", llhttp_set_lenient_headers},
        {"chunked_length", llhttp_set_lenient_chunked_length},
        {"keep_alive", llhttp_set_lenient_keep_alive},
        {"transfer_encoding", llhttp_set_lenient_transfer_encoding},
#if LLHTTP_VERSION_MAJOR >= 9 && !defined(EVENTS_LLHTTP8_SWITCHES)
        {"version", llhttp_set_lenient_version},
        {"data_after_close", llhttp_set_lenient_data_after_close},
        {"optional_lf_after_cr", llhttp_set_lenient_optional_lf_after_cr},
        {"optional_cr_before_lf", llhttp_set_lenient_optional_cr_before_lf},
        {"optional_crlf_after_chunk", llhttp_set_lenient_optional_crlf_after_chunk},
        {"spaces_after_chunk_size", llhttp_set_lenient_spaces_after_chunk_size},
#endif
    };
    for (size_t i = 0; i < sizeof switches / sizeof *switches; i++)
        if (strcmp(name, switches[i].name) == 0) {
            switches[i].set(p, 1);
            return 0;
        }
    return -1;
}

/* The event log of `in` fed at one chunking (spec: "N" pieces of N bytes, 0 the whole input;
 * "@K" two pieces split at K), as the contract in diff.py says, appended to the log buffer.
 * @return 0, or 3 if a lenient name has no switch in this llhttp (nothing appended). */
static int log_chunking(const llhttp_settings_t *s, llhttp_type_t type, const char *lenient, int eof,
                        int resume_upgrade, const char *in, size_t len, const char *spec)
{
    llhttp_t p;
    llhttp_init(&p, type, s);
    if (lenient) {
        char *names = strdup(lenient), *sv;
        int declined = 0;
        for (char *n = strtok_r(names, ",", &sv); n && !declined; n = strtok_r(NULL, ",", &sv))
            declined = set_lenient(&p, n) != 0;
        free(names);
        if (declined) return 3; /* the library has no such switch */
    }
    size_t every = 0, at = 0;
    int empty = spec[0] == 'z'; /* "z" + a spec: each piece followed by an execute() of 0 bytes */
    const char *sp = spec + empty;
    if (sp[0] == '@') at = strtoul(sp + 1, NULL, 10);
    else every = strtoul(sp, NULL, 10);
    events = 0;
    span_kind = NULL;
    outf("=== chunking %s\n", spec);
    llhttp_errno_t err = HPE_OK;
    size_t pos = 0;
    while (pos < len) {
        size_t n = every ? every : at ? (pos < at ? at : len) - pos : len - pos;
        if (n > len - pos) n = len - pos;
        char *copy = malloc(n); /* exactly n bytes: ASan sees a read past the piece */
        if (!copy) abort();
        memcpy(copy, in + pos, n);
        piece = copy;
        piece_off = pos;
        piece_len = n;
        size_t done = 0;
        int empty_left = empty; /* then copy + n, 0 bytes: llhttp calls an open span there */
        for (;;) {
            err = llhttp_execute(&p, copy + done, n - done);
            if (err == HPE_OK && done == n && empty_left) empty_left = 0;
            else if (err == HPE_OK && empty_left) {
                done = n;
                continue;
            }
            if (err == HPE_PAUSED) {
                flush();
                size_t stop = (size_t)(llhttp_get_error_pos(&p) - copy);
                /* and the reason, which llhttp sets by the callback's kind (issue 33) */
                const char *why = llhttp_get_error_reason(&p);
                outf("pause off=%zu reason \"%s\"\n", piece_off + stop, why ? why : "(null)");
                llhttp_resume(&p);
                done = stop;
                continue;
            }
            if (err == HPE_PAUSED_UPGRADE && resume_upgrade) {
                flush();
                size_t stop = (size_t)(llhttp_get_error_pos(&p) - copy);
                outf("upgrade off=%zu\n", piece_off + stop);
                llhttp_resume_after_upgrade(&p);
                done = stop;
                err = HPE_OK;
                continue;
            }
            break;
        }
        if (err != HPE_OK) {
            flush();
            const char *ep = llhttp_get_error_pos(&p);
            size_t off = ep ? piece_off + (size_t)(ep - copy) : (size_t)-1;
            free(copy);
            if (err == HPE_PAUSED_UPGRADE) outf("upgrade off=%zu\nok\n", off);
            else outf("error %s off=%zu\nreason \"%s\"\n", llhttp_errno_name(err), off,
                      llhttp_get_error_reason(&p) ? llhttp_get_error_reason(&p) : "(null)");
            break;
        }
        free(copy);
        pos += n;
    }
    if (err == HPE_OK) {
        if (eof) {
            piece = NULL;
            piece_len = 0;
            err = llhttp_finish(&p);
            flush();
        }
        if (err == HPE_OK) out("ok\n", 3);
        else outf("error %s off=eof\nreason \"%s\"\n", llhttp_errno_name(err),
                  llhttp_get_error_reason(&p) ? llhttp_get_error_reason(&p) : "(null)");
    }
    return 0;
}

static llhttp_settings_t recorder;

static void recorder_init(void)
{
    llhttp_settings_t s;
    llhttp_settings_init(&s);
    s.on_message_begin = on_message_begin;
    s.on_method = on_method;
    s.on_url = on_url;
    s.on_version = on_version;
    s.on_status = on_status;
    s.on_header_field = on_header_field;
    s.on_header_value = on_header_value;
    s.on_body = on_body;
    s.on_chunk_extension_name = on_chunk_extension_name;
    s.on_chunk_extension_value = on_chunk_extension_value;
    s.on_method_complete = on_method_complete;
    s.on_url_complete = on_url_complete;
    s.on_version_complete = on_version_complete;
    s.on_status_complete = on_status_complete;
    s.on_header_field_complete = on_header_field_complete;
    s.on_header_value_complete = on_header_value_complete;
    s.on_chunk_extension_name_complete = on_chunk_extension_name_complete;
    s.on_chunk_extension_value_complete = on_chunk_extension_value_complete;
    s.on_headers_complete = on_headers_complete;
    s.on_chunk_header = on_chunk_header;
    s.on_chunk_complete = on_chunk_complete;
    s.on_message_complete = on_message_complete;
    s.on_reset = on_reset;
    recorder = s;
}

/* For a program that links two builds of this file (fuzz/fuzz_llhttp.c, with EVENTS_NO_MAIN
 * and EVENTS_LOG_FN set): the logs of `in` at the chunkings of the comma list `specs`, in
 * memory the caller frees; NULL if a lenient name has no switch in this llhttp. */
char *EVENTS_LOG_FN(const char *in, size_t len, int type, const char *lenient, int eof, const char *specs)
{
    if (!recorder.on_message_begin) recorder_init();
    loglen = 0;
    out("", 0);
    char *list = strdup(specs), *sv;
    int rc = 0;
    for (char *spec = strtok_r(list, ",", &sv); spec && !rc; spec = strtok_r(NULL, ",", &sv))
        rc = log_chunking(&recorder, (llhttp_type_t)type, lenient, eof, 0, in, len, spec);
    free(list);
    char *res = rc ? NULL : logbuf;
    if (rc) free(logbuf);
    logbuf = NULL;
    loglen = logcap = 0;
    return res;
}

#ifndef EVENTS_NO_MAIN
static void usage(void)
{
    fprintf(stderr, "usage: llhttp_events [-t request|response|both] [-l NAME,...] [-n] "
                    "[-p N] [-h R] [-u] -c SPEC[,SPEC...] FILE\n");
    exit(2);
}

int main(int argc, char **argv)
{
    llhttp_type_t type = HTTP_BOTH;
    const char *lenient = NULL, *specs = NULL, *path = NULL;
    int eof = 1, resume_upgrade = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-n") == 0) eof = 0;
        else if (strcmp(a, "-u") == 0) resume_upgrade = 1;
        else if (a[0] == '-' && i + 1 < argc) {
            const char *v = argv[++i];
            switch (a[1]) {
            case 't': type = strcmp(v, "request") == 0 ? HTTP_REQUEST : strcmp(v, "response") == 0 ? HTTP_RESPONSE : HTTP_BOTH; break;
            case 'l': lenient = v; break;
            case 'c': specs = v; break;
            case 'p': pause_at = atoi(v); break;
            case 'h': hc_ret = atoi(v); break;
            default: usage();
            }
        } else if (!path) path = a;
        else usage();
    }
    if (!path || !specs) usage();
    size_t len;
    char *in = read_file(path, &len);
    if (!in) {
        perror(path);
        return 2;
    }

    recorder_init();

    char *speclist = strdup(specs), *sv;
    for (char *spec = strtok_r(speclist, ",", &sv); spec; spec = strtok_r(NULL, ",", &sv)) {
        loglen = 0;
        if (log_chunking(&recorder, type, lenient, eof, resume_upgrade, in, len, spec)) {
            free(speclist);
            free(in);
            free(logbuf);
            free(span_bytes);
            return 3;
        }
        fwrite(logbuf, 1, loglen, stdout);
    }
    free(speclist);
    free(in);
    free(logbuf);
    free(span_bytes);
    return 0;
}
#endif
