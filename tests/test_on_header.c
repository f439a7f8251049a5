/* SPDX-License-Identifier: MIT */
/* The whole-field callback (simdhttp_callbacks.on_header): every case of tests/cases/ (every file) and
 * every corpus file parsed with on_header set gives the same fields (name, value without OWS),
 * in the same order among the other events, with the same result and error offset as with the
 * span callbacks alone: whole, split at every offset, byte by byte, and with on_header pausing
 * at every call. A field may come either way (on_header when its line is whole in one buffer,
 * spans otherwise); both are rendered as one "field name=value" line. Checks that both ways
 * were taken (so the test cannot pass with on_header never called) and that a line crossing a
 * split comes in spans. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

static t_buf fname, fval; /* the field in spans so far */
static long whole_calls, span_fields, pause_every, onh_count;

static void put_field(simdhttp_parser *p, const char *n, size_t nl, const char *v, size_t vl)
{
    t_rec *r = p->data;
    t_buf_put(&r->log, "field ", 6);
    t_buf_escaped(&r->log, n, nl);
    t_buf_put(&r->log, "=", 1);
    t_buf_escaped(&r->log, v, vl);
    t_buf_put(&r->log, "\n", 1);
}

static int s_field(simdhttp_parser *p, const char *at, size_t n)
{
    (void)p;
    t_buf_put(&fname, at, n);
    return 0;
}
static int s_value(simdhttp_parser *p, const char *at, size_t n)
{
    (void)p;
    t_buf_put(&fval, at, n);
    return 0;
}
static int s_note(simdhttp_parser *p)
{
    (void)p;
    return 0;
}
/* the value in spans excludes leading OWS but not trailing OWS: trimmed here */
static int s_value_done(simdhttp_parser *p)
{
    size_t vl = fval.len;
    while (vl && (fval.s[vl - 1] == ' ' || fval.s[vl - 1] == '\t')) vl--;
    put_field(p, fname.s ? fname.s : "", fname.len, fval.s ? fval.s : "", vl);
    fname.len = fval.len = 0;
    span_fields++;
    return 0;
}
static int s_whole(simdhttp_parser *p, const char *n, size_t nl, const char *v, size_t vl)
{
    if (!t_check(fname.len == 0 && fval.len == 0, "on_header", "called while a field in spans was open"))
        fname.len = fval.len = 0;
    put_field(p, n, nl, v, vl);
    whole_calls++;
    return pause_every && ++onh_count % pause_every == 0 ? SIMDHTTP_PAUSE : 0;
}

static simdhttp_callbacks spans_cb, whole_cb;

static char *run(const simdhttp_callbacks *cb, simdhttp_type type, const simdhttp_config *cfg, const char *in,
                 size_t len, const size_t *split, size_t nsplit, int eof)
{
    simdhttp_parser p;
    fname.len = fval.len = 0;
    simdhttp_init(&p, type, cb, cfg);
    char *log = t_stream_log_on(&p, 0, type, cfg, in, len, split, nsplit, eof, -1, 0);
    t_strip_pauses(log); /* "pause" lines are the paused run's own: the rest must be the same */
    if (fname.len || fval.len) {
        /* a field still open in spans when the run ended: its line's error came after its
         * spans (include/simdhttp.h promises that with on_header set too) */
        t_buf b = {0};
        t_buf_put(&b, log, strlen(log));
        t_buf_put(&b, "open field ", 11);
        t_buf_escaped(&b, fname.s ? fname.s : "", fname.len);
        t_buf_put(&b, "=", 1);
        t_buf_escaped(&b, fval.s ? fval.s : "", fval.len);
        t_buf_put(&b, "\n", 1);
        free(log);
        log = b.s;
    }
    return log;
}

static void compare(const char *name, const char *how, const char *want, char *got)
{
    if (!t_check(strcmp(want, got) == 0, name, "%s: the log differs from the span callbacks'", how)) {
        printf("--- span callbacks:\n%s--- with on_header (%s):\n%s", want, how, got);
    }
    free(got);
}

static void check_input(const char *name, simdhttp_type type, const simdhttp_config *cfg, const char *in,
                        size_t len, int eof, size_t stride)
{
    char *want = run(&spans_cb, type, cfg, in, len, NULL, 0, eof);
    compare(name, "whole", want, run(&whole_cb, type, cfg, in, len, NULL, 0, eof));
    for (size_t k = 1; k < len; k += stride) {
        size_t split[2] = {k, len};
        char how[64];
        snprintf(how, sizeof how, "split at %zu", k);
        compare(name, how, want, run(&whole_cb, type, cfg, in, len, split, 2, eof));
    }
    size_t one = 1;
    compare(name, "byte by byte", want, run(&whole_cb, type, cfg, in, len, &one, 1, eof));
    pause_every = 1;
    compare(name, "pause at every on_header", want, run(&whole_cb, type, cfg, in, len, NULL, 0, eof));
    pause_every = 3;
    compare(name, "pause at every 3rd on_header", want, run(&whole_cb, type, cfg, in, len, NULL, 0, eof));
    pause_every = 0;
    free(want);
}

int main(void)
{
    spans_cb = t_rec_callbacks;
    spans_cb.on_header_field = s_field;
    spans_cb.on_header_value = s_value;
    spans_cb.on_header_field_complete = s_note;
    spans_cb.on_header_value_complete = s_value_done;
    whole_cb = spans_cb;
    whole_cb.on_header = s_whole;

    size_t nfiles, ncases = 0, cap = 0;
    char **files = t_list_dir("tests/cases", ".txt", &nfiles);
    t_case *cases = NULL;
    for (size_t i = 0; i < nfiles; i++) t_load_cases(files[i], &cases, &ncases, &cap);
    t_check(ncases > 100, "cases", "only %zu cases in tests/cases", ncases);
    for (size_t i = 0; i < ncases; i++) {
        t_case *c = &cases[i];
        if (c->type >= T_FIELDS) continue;
        char name[512];
        snprintf(name, sizeof name, "%s (%s)", c->name, c->where);
        check_input(name, (simdhttp_type)c->type, &c->cfg, c->in.s ? c->in.s : "", c->in.len, c->eof, 1);
    }
    long whole_cases = whole_calls;
    size_t ncorpus;
    char **corpus = t_list_dir(t_corpus_dir(), ".http", &ncorpus);
    t_check(ncorpus >= 8, "corpus", "expected the corpus files in %s", t_corpus_dir());
    for (size_t i = 0; i < ncorpus; i++) {
        size_t len;
        char *in = t_read_file(corpus[i], &len);
        if (!t_check(in != NULL, corpus[i], "cannot read")) continue;
        check_input(corpus[i], SIMDHTTP_BOTH, NULL, in, len, 1, len > 2000 ? 13 : 3);
        free(in);
        free(corpus[i]);
    }
    free(corpus);
    for (size_t i = 0; i < ncases; i++) t_buf_free(&cases[i].in), t_buf_free(&cases[i].log);
    free(cases);
    for (size_t i = 0; i < nfiles; i++) free(files[i]);
    free(files);
    /* a field whose line crosses the split comes in spans; one whole in a buffer, at once */
    {
        static const char req[] = "GET / HTTP/1.1\r\nHost: a\r\nX-Long: 0123456789\r\nContent-Length: 0\r\n\r\n";
        size_t split[2] = {30, sizeof req};
        long w0 = whole_calls, s0 = span_fields;
        free(run(&whole_cb, SIMDHTTP_REQUEST, NULL, req, sizeof req - 1, split, 2, 1));
        t_check(span_fields - s0 == 1, "split line", "%ld fields in spans, want 1 (X-Long)", span_fields - s0);
        t_check(whole_calls - w0 == 2, "split line", "%ld fields whole, want 2 (Host, Content-Length)", whole_calls - w0);
    }
    t_check(whole_cases > 200, "on_header", "called %ld times on the cases: the whole-line path is not taken", whole_cases);
    t_check(span_fields > 1000, "spans", "only %ld fields came in spans", span_fields);
    printf("on_header: %ld fields whole, %ld in spans\n", whole_calls, span_fields);
    t_buf_free(&fname);
    t_buf_free(&fval);
    return t_summary();
}
