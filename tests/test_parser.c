/* SPDX-License-Identifier: MIT */
/* The rule suite of the streaming parser, driven by readable cases (the .txt files in tests/cases), and
 * the chunking/head-API invariants on every case and every corpus file.
 *
 * ---- Case file format ---------------------------------------------------------------------
 *
 *   # a comment (anywhere but inside an input: block)
 *   === name of the case                       starts a case; the name must be unique
 *   type: request | response | both           default: request (tests/test_blocks.c reads
 *         | fields | chunked                   tests/blocks/: a bare field block, a chunked body)
 *   trailers: consume                          chunked: skip the trailer section (default keep)
 *   lenient: obs_fold, bare_lf                 lenient flags by name (simdhttp_lenient_from_name)
 *   max_head_size: 40                          limits (simdhttp_config); absent: the defaults
 *   max_fields: 2
 *   max_chunk_ext: 8
 *   eof: no                                    default yes: finish() after the last byte
 *   input:
 *   GET / HTTP/1.1\r\n                         the input: these lines joined WITHOUT the file's
 *   \r\n                                       newlines; escapes \r \n \t \\ \xNN; "\" at the
 *                                              end of a line is nothing (for a trailing space)
 *   log:
 *   message begin                              the expected event log, exactly as the
 *   off=0 len=3 span[method]="GET"             recorder (tests/testlib.h) writes it; lines
 *   ...                                        starting with '#' and empty lines are
 *   ok                                         comments; the last line is the result:
 *                                              "ok" or "error NAME off=N"
 *
 * The input block ends at "log:"; the log ends at the next "===" or the end of the file.
 *
 * ---- What is checked for every case ---------------------------------------------------------
 *   1. the whole input in one execute(): the log equals the expected log;
 *   2. the input split in two at every offset: the same log;
 *   3. the input byte by byte: the same log;
 *   4. simdhttp_parse_head on each message's head (from the start of the input or the end of
 *      the previous message) agrees with the streaming parser: the same error code and offset
 *      when the head is rejected, INCOMPLETE when the stream stops inside a head, otherwise the
 *      same method/target/version/status/reason, the same fields (streaming values with
 *      trailing SP/HTAB trimmed; an obs-fold starts a name-less entry), the same flags and
 *      content_length, and a head length ending where on_headers_complete happened; and on
 *      every prefix of the message the head API says INCOMPLETE until the head's end (or the
 *      error's offset), then the same result.
 *   5. a callback returns SIMDHTTP_PAUSE at event i, for every i in turn, and the parser is
 *      resumed at once: the log without its "pause" line is the expected log.
 * Every corpus file gets 1-4 too (as type both, no expected log: it must end in "ok").
 *
 * Expected logs were written by hand from RFC 9112/9110 and include/simdhttp.h.
 * Run one group: build/tests/test_parser NAME (the cases whose name contains NAME, no corpus).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

/* ---- 4: the head API against the streaming parser ---- */

#define MAXF 1024
typedef struct headcap {
    const char *buf;    /* the input (spans outside it are the obs-fold SP) */
    size_t buflen;
    int began, hc;      /* message begun / headers complete since the last message */
    int last;           /* 1: paused at on_headers_complete, 2: at on_message_complete */
    t_buf method, target, version, reason;
    size_t nf;
    int fold[MAXF];     /* entry i is an obs-fold continuation */
    t_buf name[MAXF], value[MAXF];
    int in_value;
} headcap;

static headcap *cap_of(simdhttp_parser *p) { return p->data; }

static void cap_clear(headcap *c)
{
    c->began = c->hc = 0;
    c->method.len = c->target.len = c->version.len = c->reason.len = 0;
    for (size_t i = 0; i < c->nf; i++) c->name[i].len = c->value[i].len = 0;
    c->nf = 0;
    c->in_value = 0;
}

static int cap_begin(simdhttp_parser *p)
{
    cap_clear(cap_of(p));
    cap_of(p)->began = 1;
    return 0;
}
static int cap_method(simdhttp_parser *p, const char *at, size_t n) { t_buf_put(&cap_of(p)->method, at, n); return 0; }
static int cap_url(simdhttp_parser *p, const char *at, size_t n) { t_buf_put(&cap_of(p)->target, at, n); return 0; }
static int cap_version(simdhttp_parser *p, const char *at, size_t n) { t_buf_put(&cap_of(p)->version, at, n); return 0; }
static int cap_status(simdhttp_parser *p, const char *at, size_t n) { t_buf_put(&cap_of(p)->reason, at, n); return 0; }

static int cap_field(simdhttp_parser *p, const char *at, size_t n)
{
    headcap *c = cap_of(p);
    if (c->hc) return 0; /* trailers */
    if (c->in_value || c->nf == 0) {
        if (c->nf == MAXF) return -1;
        c->fold[c->nf] = 0;
        c->nf++;
        c->in_value = 0;
    }
    t_buf_put(&c->name[c->nf - 1], at, n);
    return 0;
}

static int cap_value(simdhttp_parser *p, const char *at, size_t n)
{
    headcap *c = cap_of(p);
    if (c->hc) return 0;
    if (at < c->buf || at >= c->buf + c->buflen) { /* the SP of an obs-fold: a new entry */
        if (c->nf == MAXF) return -1;
        c->fold[c->nf] = 1;
        c->nf++;
        c->in_value = 1;
        return 0;
    }
    if (!c->in_value && c->nf == 0) return -1;
    c->in_value = 1;
    t_buf_put(&c->value[c->nf - 1], at, n);
    return 0;
}

static int cap_value_start(simdhttp_parser *p)
{
    cap_of(p)->in_value = 1; /* an empty value has no span: the next name starts a new entry */
    return 0;
}

static int cap_hc(simdhttp_parser *p)
{
    cap_of(p)->hc = 1;
    cap_of(p)->last = 1;
    return SIMDHTTP_PAUSE;
}

static int cap_mc(simdhttp_parser *p)
{
    cap_of(p)->last = 2;
    return SIMDHTTP_PAUSE;
}

static const simdhttp_callbacks cap_callbacks = {
    .on_message_begin = cap_begin,
    .on_method = cap_method,
    .on_url = cap_url,
    .on_version = cap_version,
    .on_status = cap_status,
    .on_header_field = cap_field,
    .on_header_value = cap_value,
    .on_header_field_complete = cap_value_start,
    .on_headers_complete = cap_hc,
    .on_message_complete = cap_mc,
};

static size_t trimmed(const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    return n;
}

/* Render the streaming parser's view of the head just completed. */
static void render_stream_head(t_buf *b, const headcap *c, const simdhttp_parser *p, uint64_t head_len)
{
    if (p->type == SIMDHTTP_REQUEST) {
        t_buf_printf(b, "request method=");
        t_buf_escaped(b, c->method.s, c->method.len);
        t_buf_printf(b, " (%d) target=", p->method);
        t_buf_escaped(b, c->target.s, c->target.len);
    } else {
        t_buf_printf(b, "response status=%d reason=", p->status_code);
        t_buf_escaped(b, c->reason.s, c->reason.len);
    }
    t_buf_printf(b, " version=");
    t_buf_escaped(b, c->version.s, c->version.len);
    t_buf_printf(b, " (%d.%d)\n", p->http_major, p->http_minor);
    for (size_t i = 0; i < c->nf; i++) {
        if (c->fold[i]) t_buf_printf(b, "(fold)");
        else t_buf_escaped(b, c->name[i].s, c->name[i].len);
        t_buf_printf(b, ": ");
        t_buf_escaped(b, c->value[i].s, trimmed(c->value[i].s, c->value[i].len));
        t_buf_printf(b, "\n");
    }
    t_buf_printf(b, "flags=");
    t_buf_flags(b, p->flags);
    t_buf_printf(b, " content_length=%llu head_len=%llu", (unsigned long long)p->content_length,
                 (unsigned long long)head_len);
    t_buf_reasons(b, p->reasons);
    t_buf_printf(b, "\n");
}

/* The same from simdhttp_parse_head. @return its return value. */
static long render_head_api(t_buf *b, simdhttp_type type, const simdhttp_config *cfg, const char *in,
                            size_t len, simdhttp_head *h)
{
    static simdhttp_field fields[MAXF];
    memset(h, 0, sizeof *h);
    h->fields = fields;
    h->fields_cap = MAXF;
    long r = simdhttp_parse_head(h, type, in, len, cfg);
    if (r == SIMDHTTP_HEAD_INCOMPLETE) {
        t_buf_printf(b, "incomplete\n");
        return r;
    }
    if (r < 0) {
        t_buf_printf(b, "error %s off=%zu%s", simdhttp_errno_name(h->error), h->error_offset,
                     h->error_reason && *h->error_reason ? "" : " (no error_reason!)");
        t_buf_reasons(b, h->reasons);
        t_buf_printf(b, "\n");
        return r;
    }
    if (h->type == SIMDHTTP_REQUEST) {
        t_buf_printf(b, "request method=");
        t_buf_escaped(b, h->method_str, h->method_len);
        t_buf_printf(b, " (%d) target=", h->method);
        t_buf_escaped(b, h->target, h->target_len);
    } else {
        t_buf_printf(b, "response status=%d reason=", h->status_code);
        t_buf_escaped(b, h->reason, h->reason_len);
    }
    t_buf_printf(b, " version=%d.%d (%d.%d)\n", h->http_major, h->http_minor, h->http_major, h->http_minor);
    for (size_t i = 0; i < h->num_fields; i++) {
        if (h->fields[i].name == NULL) {
            t_buf_printf(b, "(fold)");
            if (h->fields[i].name_len) t_buf_printf(b, "(name_len %zu!)", h->fields[i].name_len);
        } else {
            t_buf_escaped(b, h->fields[i].name, h->fields[i].name_len);
        }
        t_buf_printf(b, ": ");
        t_buf_escaped(b, h->fields[i].value, h->fields[i].value_len);
        t_buf_printf(b, "\n");
    }
    t_buf_printf(b, "flags=");
    t_buf_flags(b, h->flags);
    t_buf_printf(b, " content_length=%llu head_len=%ld", (unsigned long long)h->content_length, r);
    t_buf_reasons(b, h->reasons);
    t_buf_printf(b, "\n");
    return r;
}

static int head_compared; /* comparisons made: each case with a message must make one */

static void compare_head(const char *name, const char *what, uint64_t msg_off, t_buf *sb, t_buf *hb)
{
    head_compared++;
    if (!t_check(strcmp(sb->s ? sb->s : "", hb->s ? hb->s : "") == 0, name,
                 "head API disagrees with the streaming parser on the message at offset %llu (%s)\n"
                 "--- streaming:\n%s--- head API:\n%s",
                 (unsigned long long)msg_off, what, sb->s ? sb->s : "", hb->s ? hb->s : ""))
        return;
}

/* The head API on every prefix of buf (each copied to an exact allocation, so that ASan sees a
 * read past it): INCOMPLETE before the head's end (or before the error's offset), then the
 * same result. want > 0: the head length; want < 0: an error `code` at offset -want - 1. */
static void check_head_prefixes(const char *name, uint64_t msg_off, simdhttp_type type, const simdhttp_config *cfg,
                                const char *buf, size_t len, long want, simdhttp_errno code)
{
    static simdhttp_field fields[MAXF];
    size_t at = want > 0 ? (size_t)want : (size_t)(-want - 1);
    size_t last = at + 64 < len ? at + 64 : len;
    for (size_t k = 0; k <= last; k++) {
        char *copy = malloc(k ? k : 1);
        memcpy(copy, buf, k);
        simdhttp_head h = {.fields = fields, .fields_cap = MAXF};
        long r = simdhttp_parse_head(&h, type, copy, k, cfg);
        free(copy);
        int ok;
        if (k < at || (k == at && want < 0 && r == SIMDHTTP_HEAD_INCOMPLETE)) ok = r == SIMDHTTP_HEAD_INCOMPLETE;
        else if (want > 0) ok = r == want;
        else ok = r == SIMDHTTP_HEAD_ERROR && h.error == code && h.error_offset == at;
        if (!ok) {
            t_check(0, name, "head API on the first %zu bytes of the message at %llu: %ld (%s at %zu), want %s", k,
                    (unsigned long long)msg_off, r, r == SIMDHTTP_HEAD_ERROR ? simdhttp_errno_name(h.error) : "-",
                    h.error_offset, k < at ? "INCOMPLETE" : "the whole head's result");
            return;
        }
    }
    t_check(1, name, "head prefixes");

    /* simdhttp_parse_head_continue on the same bytes arriving in steps (last_len = the previous
     * call's len): never a result simdhttp_parse_head would not give, a complete head never
     * late; an error may come late (INCOMPLETE until the head ends), then exactly. */
    static const size_t steps[] = {1, 2, 3, 5, 10, 64};
    for (size_t si = 0; si < sizeof steps / sizeof *steps; si++) {
        size_t prev = 0;
        for (size_t k = steps[si] < last ? steps[si] : last;; k = k + steps[si] < last ? k + steps[si] : last) {
            char *copy = malloc(k ? k : 1);
            memcpy(copy, buf, k);
            simdhttp_head h = {.fields = fields, .fields_cap = MAXF};
            long r = simdhttp_parse_head_continue(&h, type, copy, k, prev, cfg);
            free(copy);
            int ok;
            if (k < at) ok = r == SIMDHTTP_HEAD_INCOMPLETE;
            else if (want > 0) ok = r == want;
            else ok = r == SIMDHTTP_HEAD_INCOMPLETE ||
                      (r == SIMDHTTP_HEAD_ERROR && h.error == code && h.error_offset == at);
            if (!ok) {
                t_check(0, name, "parse_head_continue in steps of %zu, %zu bytes of the message at %llu (last_len %zu): "
                        "%ld (%s at %zu), want %s", steps[si], k, (unsigned long long)msg_off, prev, r,
                        r == SIMDHTTP_HEAD_ERROR ? simdhttp_errno_name(h.error) : "-", h.error_offset,
                        k < at ? "INCOMPLETE" : "the whole head's result");
                return;
            }
            if (r != SIMDHTTP_HEAD_INCOMPLETE || k == last) break;
            prev = k;
        }
    }
    t_check(1, name, "head continue");
}

/* Walk the stream message by message; compare each head with the head API. */
static void check_head_api(const char *name, simdhttp_type type, const simdhttp_config *cfg, const char *in,
                           size_t len)
{
    static headcap c; /* big: static */
    cap_clear(&c);
    c.buf = in;
    c.buflen = len;
    simdhttp_parser p;
    simdhttp_init(&p, type, &cap_callbacks, cfg);
    p.data = &c;
    uint64_t msg_off = 0, pos = 0;
    simdhttp_type msg_type = type;
    int compared = 0;
    simdhttp_errno e;
    t_buf sb = {0}, hb = {0};
    simdhttp_head h;
    for (;;) {
        c.last = 0;
        e = simdhttp_execute(&p, in + pos, len - pos);
        if (e != SIMDHTTP_E_PAUSED) break;
        pos = simdhttp_get_error_offset(&p);
        simdhttp_resume(&p);
        if (c.last == 1) {
            sb.len = hb.len = 0;
            render_stream_head(&sb, &c, &p, pos - msg_off);
            long r = render_head_api(&hb, msg_type, cfg, in + msg_off, len - msg_off, &h);
            compare_head(name, "head", msg_off, &sb, &hb);
            if (r > 0) check_head_prefixes(name, msg_off, msg_type, cfg, in + msg_off, len - msg_off, r, SIMDHTTP_OK);
            compared = 1;
        } else if (c.last == 2) {
            msg_off = pos;
            msg_type = (simdhttp_type)p.type;
            cap_clear(&c);
            compared = 0;
        }
    }
    if (e != SIMDHTTP_OK && e != SIMDHTTP_E_PAUSED_UPGRADE) {
        const char *why = simdhttp_get_error_reason(&p);
        t_check(why && *why, name, "error %s has no reason", simdhttp_errno_name(e));
        t_check(simdhttp_get_error_pos(&p) == in + simdhttp_get_error_offset(&p), name,
                "error_pos is not the byte at error_offset %llu", (unsigned long long)simdhttp_get_error_offset(&p));
    }
    if (!compared && e != SIMDHTTP_E_PAUSED_UPGRADE && e != SIMDHTTP_E_CLOSED_CONNECTION &&
        (c.began || e != SIMDHTTP_OK)) {
        sb.len = hb.len = 0;
        if (e == SIMDHTTP_OK) t_buf_printf(&sb, "incomplete\n");
        else {
            t_buf_printf(&sb, "error %s off=%llu", simdhttp_errno_name(e),
                         (unsigned long long)(simdhttp_get_error_offset(&p) - msg_off));
            t_buf_reasons(&sb, p.reasons);
            t_buf_printf(&sb, "\n");
        }
        long r = render_head_api(&hb, msg_type, cfg, in + msg_off, len - msg_off, &h);
        compare_head(name, e == SIMDHTTP_OK ? "stream stops inside the head" : "rejected head", msg_off, &sb, &hb);
        if (r == SIMDHTTP_HEAD_ERROR)
            check_head_prefixes(name, msg_off, msg_type, cfg, in + msg_off, len - msg_off, -(long)h.error_offset - 1,
                                h.error);
    }
    t_buf_free(&sb);
    t_buf_free(&hb);
    for (size_t i = 0; i < MAXF; i++) t_buf_free(&c.name[i]), t_buf_free(&c.value[i]);
    t_buf_free(&c.method), t_buf_free(&c.target), t_buf_free(&c.version), t_buf_free(&c.reason);
}

/* ---- 1-3: chunking ---- */

static void show_diff(const char *expect, const char *got)
{
    /* print both logs with the first differing line marked */
    const char *a = expect, *b = got;
    int line = 1;
    while (*a && *a == *b) {
        if (*a == '\n') line++;
        a++, b++;
    }
    printf("    first difference at log line %d\n--- expected:\n%s--- got:\n%s", line, expect, got);
}

/* Runs 1-3. expect NULL: the whole-input log is the reference and must end in "ok". */
static void check_chunking(const char *name, simdhttp_type type, const simdhttp_config *cfg, const char *in,
                           size_t len, int eof, const char *expect, size_t stride)
{
    char *whole = t_stream_log(type, cfg, in, len, NULL, 0, eof, -1);
    int shown = 0; /* print one diff per case */
    if (expect) {
        if (!t_check(strcmp(whole, expect) == 0, name, "whole input: log differs")) show_diff(expect, whole), shown = 1;
    } else {
        size_t wl = strlen(whole);
        t_check(wl >= 3 && strcmp(whole + wl - 3, "ok\n") == 0, name, "does not parse: %s",
                whole + (wl > 300 ? wl - 300 : 0));
    }
    const char *ref = expect ? expect : whole;
    int bad = 0;
    for (size_t k = 1; k < len && !bad; k++) {
        if (stride > 1 && k % stride && k > 64 && k + 64 < len) continue; /* ends always */
        size_t split[2] = {k, 0};
        char *l = t_stream_log(type, cfg, in, len, split, 2, eof, -1);
        if (strcmp(l, ref) != 0) {
            bad = 1;
            t_check(0, name, "split at offset %zu: log differs", k);
            if (!shown) show_diff(ref, l), shown = 1;
        }
        free(l);
    }
    if (!bad) t_check(1, name, "splits");
    size_t one = 1;
    char *bytes = t_stream_log(type, cfg, in, len, &one, 1, eof, -1);
    if (!t_check(strcmp(bytes, ref) == 0, name, "byte by byte: log differs") && !shown) show_diff(ref, bytes);
    free(bytes);
    free(whole);
}

/* 5: a callback pausing at event i (each i in turn), resumed at once: the log with the
 * "pause" lines removed is the expected log, and exactly one pause happened. */
static void check_pauses(const char *name, simdhttp_type type, const simdhttp_config *cfg, const char *in, size_t len,
                         int eof, const char *expect)
{
    int lines = 0, paused = 0;
    for (const char *s = expect; *s; s++) lines += *s == '\n';
    for (int i = 0; i < 2 * lines + 4; i++) {
        char *l = t_stream_log(type, cfg, in, len, NULL, 0, eof, i);
        int n = t_strip_pauses(l); /* drop "pause" lines */
        paused += n;
        int ok = n <= 1 && strcmp(l, expect) == 0;
        if (!ok) t_check(0, name, "paused at event %d (%d pauses): log differs", i, n), show_diff(expect, l);
        free(l);
        if (!ok) return;
    }
    /* every log line but the result is an event (a pause in finish() is not logged) */
    t_check(paused >= lines - 3, name, "only %d of the events paused (%d log lines)", paused, lines);
}

int main(int argc, char **argv)
{
    const char *cases_dir = getenv("SIMDHTTP_CASES");
    if (!cases_dir || !*cases_dir) cases_dir = "tests/cases";
    const char *only = argc > 1 ? argv[1] : NULL; /* run the cases whose name contains this */
    /* Every split offset of every corpus file, in every build (measured: about 1.3 s of CPU
     * normally, 3.4 s under ASan+UBSan); SIMDHTTP_SPLIT_STRIDE=N tries every Nth offset only. */
    const char *st = getenv("SIMDHTTP_SPLIT_STRIDE");
    size_t corpus_stride = st && *st ? (size_t)strtoul(st, NULL, 10) : 1;
    if (corpus_stride == 0) corpus_stride = 1;

    size_t nfiles;
    char **files = t_list_dir(cases_dir, ".txt", &nfiles);
    t_check(nfiles > 0, "cases", "no case files in %s", cases_dir);
    t_case *cases = NULL;
    size_t ncases = 0, cap = 0;
    for (size_t i = 0; i < nfiles; i++) t_load_cases(files[i], &cases, &ncases, &cap);
    for (size_t i = 0; i < ncases; i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp(cases[i].name, cases[j].name) == 0)
                t_check(0, cases[i].where, "duplicate case name '%s'", cases[i].name);

    size_t ran = 0;
    for (size_t i = 0; i < ncases; i++) {
        t_case *c = &cases[i];
        if (only && !strstr(c->name, only)) continue;
        ran++;
        char name[512];
        snprintf(name, sizeof name, "%s (%s)", c->name, c->where);
        if (!t_check(c->log.len > 0, name, "no log: block")) continue;
        if (!t_check(c->type < T_FIELDS, name, "fields/chunked cases belong in tests/blocks")) continue;
        const char *lastl = c->log.s + c->log.len - 1; /* the log's last line: the result */
        while (lastl > c->log.s && lastl[-1] != '\n') lastl--;
        t_check(strcmp(lastl, "ok\n") == 0 || strncmp(lastl, "error ", 6) == 0, name,
                "the log must end with \"ok\" or \"error NAME off=N\", not: %s", lastl);
        check_chunking(name, c->type, &c->cfg, c->in.s ? c->in.s : "", c->in.len, c->eof, c->log.s, 1);
        check_pauses(name, c->type, &c->cfg, c->in.s ? c->in.s : "", c->in.len, c->eof, c->log.s);
        int before = head_compared;
        check_head_api(name, c->type, &c->cfg, c->in.s ? c->in.s : "", c->in.len);
        if (strstr(c->log.s, "message begin"))
            t_check(head_compared > before, name, "the head API was not compared");
    }
    printf("%zu cases from %zu files\n", ran, nfiles);

    if (!only) {
        size_t ncorpus;
        char **corpus = t_list_dir(t_corpus_dir(), ".http", &ncorpus);
        t_check(ncorpus >= 8, "corpus", "expected the 8 corpus files in %s, found %zu", t_corpus_dir(), ncorpus);
        for (size_t i = 0; i < ncorpus; i++) {
            size_t len;
            char *in = t_read_file(corpus[i], &len);
            if (!t_check(in != NULL, corpus[i], "cannot read")) continue;
            check_chunking(corpus[i], SIMDHTTP_BOTH, NULL, in, len, 1, NULL, len > 2000 ? corpus_stride : 1);
            check_head_api(corpus[i], SIMDHTTP_BOTH, NULL, in, len);
            free(in);
            free(corpus[i]);
        }
        free(corpus);
    }
    for (size_t i = 0; i < ncases; i++) t_buf_free(&cases[i].in), t_buf_free(&cases[i].log);
    free(cases);
    for (size_t i = 0; i < nfiles; i++) free(files[i]);
    free(files);
    return t_summary();
}
