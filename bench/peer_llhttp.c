/* SPDX-License-Identifier: MIT */
/* llhttp 8.1 from Debian's node-llhttp package (its generated C in /usr/share/llhttp, header
 * in /usr/share/include/llhttp), compiled by mk/bench.mk twice, -O3 and -O3 -march=native,
 * each copy's symbols renamed with a prefix (o3_, native_) so both link into one program.
 * This adapter is compiled once per copy (-DLL_NATIVE=0 or 1).
 * Streaming row: llhttp_execute per piece, then llhttp_finish; span callbacks record what
 * simdhttp's streaming row records (method, target, version, reason, names, values, body) and
 * trim each value's trailing OWS at on_header_value_complete, as simdhttp's row does.
 * Workload: the current field name is tracked, the User-Agent value and the first cookie
 * kept; the method's name from llhttp_method_name. */
#include <stdlib.h>
#include <string.h>

#if LL_NATIVE
#define LL_PREFIX native_
#define LL_PEER_NAME "llhttp-native"
#define LL_PEER_SCALING 0
#else
#define LL_PREFIX o3_
#define LL_PEER_NAME "llhttp-O3"
#define LL_PEER_SCALING 1 /* the build the targets compare with: in the scaling tables */
#endif
#define LL_CAT_(a, b) a##b
#define LL_CAT(a, b) LL_CAT_(a, b)
#define LL(f) LL_CAT(LL_PREFIX, f)
#define llhttp_init LL(llhttp_init)
#define llhttp_settings_init LL(llhttp_settings_init)
#define llhttp_execute LL(llhttp_execute)
#define llhttp_finish LL(llhttp_finish)
#define llhttp_method_name LL(llhttp_method_name)
#include <llhttp.h>

#include "bench.h"

typedef struct ll_state {
    llhttp_t hp;
    llhttp_settings_t st, wl;
    bench_rec rec;
    /* workload */
    const char *name;
    size_t name_len;
    int last_was_value, want; /* want: 1 user-agent, 2 cookie (first one only), 0 none */
    bench_answer ans;
} ll_state;

#define LS(p) ((ll_state *)(p)->data)
static int ll_begin(llhttp_t *p) { LS(p)->rec.nspans = 0; return 0; }
static int ll_complete(llhttp_t *p) { LS(p)->rec.r.messages++; return 0; }
static int ll_method(llhttp_t *p, const char *at, size_t n) { bench_record(&LS(p)->rec, SP_METHOD, at, n); return 0; }
static int ll_url(llhttp_t *p, const char *at, size_t n) { bench_record(&LS(p)->rec, SP_URL, at, n); return 0; }
static int ll_version(llhttp_t *p, const char *at, size_t n) { bench_record(&LS(p)->rec, SP_VERSION, at, n); return 0; }
static int ll_status(llhttp_t *p, const char *at, size_t n) { bench_record(&LS(p)->rec, SP_STATUS, at, n); return 0; }
static int ll_name(llhttp_t *p, const char *at, size_t n) { bench_record(&LS(p)->rec, SP_NAME, at, n); return 0; }
static int ll_value(llhttp_t *p, const char *at, size_t n) { bench_record(&LS(p)->rec, SP_VALUE, at, n); return 0; }
static int ll_value_done(llhttp_t *p) { bench_trim_value(&LS(p)->rec); return 0; }
static int ll_body(llhttp_t *p, const char *at, size_t n)
{
    LS(p)->rec.r.body_bytes += n;
    bench_record(&LS(p)->rec, SP_BODY, at, n);
    return 0;
}

static int wl_begin(llhttp_t *p)
{
    ll_state *s = LS(p);
    memset(&s->ans, 0, sizeof s->ans);
    s->name = NULL;
    s->name_len = 0;
    s->last_was_value = 1;
    return 0;
}
static int wl_name(llhttp_t *p, const char *at, size_t n)
{
    ll_state *s = LS(p);
    if (s->last_was_value) { /* a new field begins */
        s->name = at;
        s->name_len = 0;
        s->last_was_value = 0;
    }
    s->name_len += n; /* spans of one name are contiguous in the one buffer given */
    return 0;
}
static int wl_value(llhttp_t *p, const char *at, size_t n)
{
    ll_state *s = LS(p);
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
static int wl_headers_done(llhttp_t *p)
{
    ll_state *s = LS(p);
    const char *m = llhttp_method_name((llhttp_method_t)p->method);
    s->ans.method = m;
    s->ans.method_len = strlen(m);
    if (s->ans.cookie) bench_first_cookie(s->ans.cookie, s->ans.cookie_len, &s->ans);
    return 0;
}
#undef LS

static void *ll_new(size_t max_input)
{
    (void)max_input;
    ll_state *s = calloc(1, sizeof *s);
    if (!s) abort();
    llhttp_settings_init(&s->st);
    s->st.on_message_begin = ll_begin;
    s->st.on_method = ll_method;
    s->st.on_url = ll_url;
    s->st.on_version = ll_version;
    s->st.on_status = ll_status;
    s->st.on_header_field = ll_name;
    s->st.on_header_value = ll_value;
    s->st.on_header_value_complete = ll_value_done;
    s->st.on_body = ll_body;
    s->st.on_message_complete = ll_complete;
    llhttp_settings_init(&s->wl);
    s->wl.on_message_begin = wl_begin;
    s->wl.on_header_field = wl_name;
    s->wl.on_header_value = wl_value;
    s->wl.on_headers_complete = wl_headers_done;
    s->wl.on_message_complete = ll_complete;
    return s;
}

static bench_result ll_run(void *st, const bench_input *in, size_t piece)
{
    ll_state *s = st;
    memset(&s->rec.r, 0, sizeof s->rec.r);
    llhttp_init(&s->hp, in->response ? HTTP_RESPONSE : HTTP_REQUEST, &s->st);
    s->hp.data = s;
    if (!piece) piece = in->len;
    for (size_t o = 0; o < in->len; o += piece) {
        size_t n = in->len - o < piece ? in->len - o : piece;
        if (llhttp_execute(&s->hp, in->buf + o, n) != HPE_OK) {
            s->rec.r.error = 1;
            return s->rec.r;
        }
    }
    s->rec.r.error = llhttp_finish(&s->hp) != HPE_OK;
    return s->rec.r;
}

static bench_result ll_workload(void *st, const bench_input *in, bench_answer *a)
{
    ll_state *s = st;
    memset(&s->rec.r, 0, sizeof s->rec.r);
    llhttp_init(&s->hp, HTTP_REQUEST, &s->wl);
    s->hp.data = s;
    if (llhttp_execute(&s->hp, in->buf, in->len) != HPE_OK || llhttp_finish(&s->hp) != HPE_OK)
        s->rec.r.error = 1;
    *a = s->ans;
    return s->rec.r;
}

#define LL_PEER_VAR LL(bench_peer_llhttp)
const bench_peer LL_PEER_VAR = {LL_PEER_NAME, LL_PEER_SCALING, NULL, ll_new, free, ll_run, ll_workload};
