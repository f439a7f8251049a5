/* SPDX-License-Identifier: MIT */
/* http-parser 2.9.4 as Debian ships it (libhttp-parser-dev, its static archive when present):
 * http_parser_execute on the stream, then the end-of-stream call; callbacks record every span
 * like simdhttp's streaming row. The workload tracks the current field name and keeps the
 * User-Agent value and the first cookie. */
#include <http_parser.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

typedef struct hp_state {
    http_parser hp;
    bench_rec rec;
    /* workload */
    const char *name;
    size_t name_len;
    int last_was_value, want; /* want: 1 user-agent, 2 cookie (first one only), 0 none */
    bench_answer ans;
} hp_state;

#define HS(p) ((hp_state *)(p)->data)
static int hp_begin(http_parser *p) { HS(p)->rec.nspans = 0; return 0; }
static int hp_complete(http_parser *p) { HS(p)->rec.r.messages++; return 0; }
static int hp_url(http_parser *p, const char *at, size_t n) { bench_record(&HS(p)->rec, SP_URL, at, n); return 0; }
static int hp_status(http_parser *p, const char *at, size_t n) { bench_record(&HS(p)->rec, SP_STATUS, at, n); return 0; }
static int hp_name(http_parser *p, const char *at, size_t n) { bench_record(&HS(p)->rec, SP_NAME, at, n); return 0; }
static int hp_value(http_parser *p, const char *at, size_t n) { bench_record(&HS(p)->rec, SP_VALUE, at, n); return 0; }
static int hp_body(http_parser *p, const char *at, size_t n)
{
    HS(p)->rec.r.body_bytes += n;
    bench_record(&HS(p)->rec, SP_BODY, at, n);
    return 0;
}

static const http_parser_settings hp_settings = {
    .on_message_begin = hp_begin,
    .on_url = hp_url,
    .on_status = hp_status,
    .on_header_field = hp_name,
    .on_header_value = hp_value,
    .on_body = hp_body,
    .on_message_complete = hp_complete,
};

static void *hp_new(size_t max_input)
{
    (void)max_input;
    hp_state *s = calloc(1, sizeof *s);
    if (!s) abort();
    return s;
}

static bench_result hp_run(void *st, const bench_input *in, size_t piece)
{
    hp_state *s = st;
    memset(&s->rec.r, 0, sizeof s->rec.r);
    http_parser_init(&s->hp, in->response ? HTTP_RESPONSE : HTTP_REQUEST);
    s->hp.data = s;
    if (!piece) piece = in->len;
    for (size_t o = 0; o < in->len; o += piece) {
        size_t n = in->len - o < piece ? in->len - o : piece;
        if (http_parser_execute(&s->hp, &hp_settings, in->buf + o, n) != n) {
            s->rec.r.error = 1;
            return s->rec.r;
        }
    }
    http_parser_execute(&s->hp, &hp_settings, NULL, 0); /* end of stream */
    s->rec.r.error = HTTP_PARSER_ERRNO(&s->hp) != HPE_OK;
    return s->rec.r;
}

static int wl_begin(http_parser *p)
{
    memset(&HS(p)->ans, 0, sizeof HS(p)->ans);
    HS(p)->name = NULL;
    HS(p)->name_len = 0;
    HS(p)->last_was_value = 1;
    return 0;
}
static int wl_name(http_parser *p, const char *at, size_t n)
{
    hp_state *s = HS(p);
    if (s->last_was_value) { /* a new field begins */
        s->name = at;
        s->name_len = 0;
        s->last_was_value = 0;
    }
    s->name_len += n; /* spans of one name are contiguous in the one buffer given */
    return 0;
}
static int wl_value(http_parser *p, const char *at, size_t n)
{
    hp_state *s = HS(p);
    if (!s->last_was_value) { /* the value of the name just read begins */
        s->last_was_value = 1;
        s->want = BENCH_EQ_LIT(s->name, s->name_len, "user-agent") ? 1
                  : !s->ans.cookie && BENCH_EQ_LIT(s->name, s->name_len, "cookie") ? 2 : 0;
        if (s->want == 1) {
            s->ans.ua = at;
            s->ans.ua_len = 0;
        } else if (s->want == 2) {
            s->ans.cookie = at;
            s->ans.cookie_len = 0;
        }
    }
    if (s->want == 1) s->ans.ua_len += n;
    else if (s->want == 2) s->ans.cookie_len += n;
    return 0;
}
static int wl_headers_done(http_parser *p)
{
    hp_state *s = HS(p);
    const char *m = http_method_str((enum http_method)p->method);
    s->ans.method = m;
    s->ans.method_len = strlen(m);
    if (s->ans.cookie) bench_first_cookie(s->ans.cookie, s->ans.cookie_len, &s->ans);
    return 0;
}
#undef HS

static const http_parser_settings wl_settings = {
    .on_message_begin = wl_begin,
    .on_header_field = wl_name,
    .on_header_value = wl_value,
    .on_headers_complete = wl_headers_done,
    .on_message_complete = hp_complete,
};

static bench_result hp_workload(void *st, const bench_input *in, bench_answer *a)
{
    hp_state *s = st;
    memset(&s->rec.r, 0, sizeof s->rec.r);
    http_parser_init(&s->hp, HTTP_REQUEST);
    s->hp.data = s;
    if (http_parser_execute(&s->hp, &wl_settings, in->buf, in->len) != in->len ||
        HTTP_PARSER_ERRNO(&s->hp) != HPE_OK)
        s->rec.r.error = 1;
    *a = s->ans;
    return s->rec.r;
}

const bench_peer bench_peer_http_parser = {"http-parser", 1, NULL, hp_new, free, hp_run, hp_workload};
