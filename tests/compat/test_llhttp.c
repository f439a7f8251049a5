/* SPDX-License-Identifier: MIT */
/* The llhttp API contract, written against llhttp's API only and built twice: against
 * simdhttp's layer (compat/llhttp) and against Debian's llhttp 8.1. Both builds must pass, so
 * every expectation here is llhttp's documented behaviour, not the layer's idea of it. What only
 * 9.x has is under LLHTTP_VERSION_MAJOR >= 9 (the layer is 9.x); what only the layer does (its
 * RFC-strict defaults) is under LLHTTP_SIMDHTTP. */
#include <stdio.h>
#include <string.h>

#include "llhttp.h"
#include "testlib.h"

#define LIT(s) s, sizeof(s) - 1

/* ---- a recorder: counts events and keeps the last few values ---- */

typedef struct rec {
    int begin, url_spans, headers, body, complete, reset, chunk_headers;
    char url[64], body_bytes[64];
    size_t url_len, body_len;
    int pause_on_url, pause_on_complete, fail_on_url, fail_begin, hc_ret;
    uint8_t method_at_url, method_at_hc, upgrade_at_hc;
    uint16_t flags_at_hc;
    uint64_t cl_at_hc, chunk_len;
} rec;

static rec *R(llhttp_t *p) { return p->data; }

static int on_message_begin(llhttp_t *p) { R(p)->begin++; return R(p)->fail_begin; }
static int on_url(llhttp_t *p, const char *at, size_t n)
{
    rec *r = R(p);
    r->url_spans++;
    r->method_at_url = p->method;
    if (r->url_len + n < sizeof r->url) memcpy(r->url + r->url_len, at, n), r->url_len += n;
    if (r->fail_on_url) return r->fail_on_url;
    return r->pause_on_url ? HPE_PAUSED : 0;
}
static int on_headers_complete(llhttp_t *p)
{
    rec *r = R(p);
    r->headers++;
    r->method_at_hc = p->method;
    r->upgrade_at_hc = p->upgrade;
    r->flags_at_hc = p->flags;
    r->cl_at_hc = p->content_length;
    return r->hc_ret;
}
static int on_body(llhttp_t *p, const char *at, size_t n)
{
    rec *r = R(p);
    r->body++;
    if (r->body_len + n < sizeof r->body_bytes) memcpy(r->body_bytes + r->body_len, at, n), r->body_len += n;
    return 0;
}
static int on_message_complete(llhttp_t *p)
{
    R(p)->complete++;
    return R(p)->pause_on_complete ? HPE_PAUSED : 0;
}
static int on_reset(llhttp_t *p) { R(p)->reset++; return 0; }
static int on_chunk_header(llhttp_t *p) { R(p)->chunk_headers++; R(p)->chunk_len = p->content_length; return 0; }

static llhttp_settings_t settings;

static void setup(llhttp_t *p, rec *r, llhttp_type_t type)
{
    memset(r, 0, sizeof *r);
    llhttp_settings_init(&settings);
    settings.on_message_begin = on_message_begin;
    settings.on_url = on_url;
    settings.on_headers_complete = on_headers_complete;
    settings.on_body = on_body;
    settings.on_message_complete = on_message_complete;
    settings.on_reset = on_reset;
    settings.on_chunk_header = on_chunk_header;
    llhttp_init(p, type, &settings);
    p->data = r;
}

/* ---- names and enum values ---- */

static void test_names(void)
{
    int bad = 0;
#define XX(num, name, string) bad += strcmp(llhttp_method_name((llhttp_method_t)num), #string) != 0 || HTTP_##name != num;
    HTTP_ALL_METHOD_MAP(XX)
#undef XX
    t_check(bad == 0, "method names", "%d methods differ from HTTP_ALL_METHOD_MAP", bad);
#define XX(num, name, string) bad += strcmp(llhttp_errno_name((llhttp_errno_t)num), "HPE_" #string) != 0 || HPE_##name != num;
    HTTP_ERRNO_MAP(XX)
#undef XX
    t_check(bad == 0, "errno names", "%d errnos differ from HTTP_ERRNO_MAP", bad);
#define XX(num, name, string) bad += strcmp(llhttp_status_name((llhttp_status_t)num), #string) != 0 || HTTP_STATUS_##name != num;
    HTTP_STATUS_MAP(XX)
#undef XX
    t_check(bad == 0, "status names", "%d statuses differ from HTTP_STATUS_MAP", bad);
    t_check(HTTP_MSEARCH == 24 && HTTP_PURGE == 29 && HTTP_SOURCE == 33 && HTTP_PRI == 34 && HTTP_FLUSH == 45,
            "method ids", "llhttp's values");
    t_check(HPE_PAUSED == 21 && HPE_PAUSED_UPGRADE == 22 && HPE_USER == 24 && HPE_CR_EXPECTED == 25 &&
                HPE_CB_RESET == 31 && HPE_UNEXPECTED_SPACE == 30,
            "errno ids", "llhttp's values");
    t_check(F_CONNECTION_KEEP_ALIVE == 1 && F_CHUNKED == 8 && F_SKIPBODY == 0x40 && F_TRANSFER_ENCODING == 0x200 &&
                LENIENT_HEADERS == 1 && LENIENT_VERSION == 0x10 && HTTP_BOTH == 0 && HTTP_RESPONSE == 2,
            "flag values", "llhttp's values");
    t_check(strcmp(llhttp_method_name(HTTP_MSEARCH), "M-SEARCH") == 0 &&
                strcmp(llhttp_status_name(HTTP_STATUS_IM_A_TEAPOT), "IM_A_TEAPOT") == 0,
            "names", "M-SEARCH, IM_A_TEAPOT");
#if LLHTTP_VERSION_MAJOR >= 9
    t_check(HTTP_QUERY == 46 && strcmp(llhttp_method_name(HTTP_QUERY), "QUERY") == 0 && HPE_CB_PROTOCOL_COMPLETE == 38 &&
                LENIENT_HEADER_VALUE_RELAXED == 0x400 && LENIENT_OPTIONAL_CR_BEFORE_LF == 0x100,
            "9.x ids", "QUERY, CB_PROTOCOL_COMPLETE, lenient bits");
#endif
}

/* ---- the public fields programs read ---- */

static void test_fields(void)
{
    llhttp_t p;
    rec r;
    setup(&p, &r, HTTP_REQUEST);
    llhttp_errno_t e = llhttp_execute(&p, LIT("POST /x?y HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n"
                                             "Connection: keep-alive\r\n\r\nhello"));
    t_check(e == HPE_OK && r.complete == 1, "request", "%s, %d messages", llhttp_errno_name(e), r.complete);
    t_check(r.method_at_url == HTTP_POST && r.method_at_hc == HTTP_POST, "method is set before on_url", "%d %d",
            r.method_at_url, r.method_at_hc);
    t_check(r.url_len == 4 && memcmp(r.url, "/x?y", 4) == 0, "url", "%.*s", (int)r.url_len, r.url);
    t_check(r.cl_at_hc == 5 && (r.flags_at_hc & F_CONTENT_LENGTH) && (r.flags_at_hc & F_CONNECTION_KEEP_ALIVE),
            "flags and content_length", "flags %x cl %llu", r.flags_at_hc, (unsigned long long)r.cl_at_hc);
    t_check(r.body_len == 5 && memcmp(r.body_bytes, "hello", 5) == 0, "body", "%.*s", (int)r.body_len, r.body_bytes);
    t_check(p.http_major == 1 && p.http_minor == 1 && llhttp_get_method(&p) == HTTP_POST && llhttp_get_type(&p) == HTTP_REQUEST,
            "version and getters", "%d.%d", p.http_major, p.http_minor);
    t_check(llhttp_should_keep_alive(&p) == 1, "keep-alive", "HTTP/1.1");

    /* methods llhttp knows that are not in the IANA registry keep llhttp's ids */
    static const struct { const char *req; uint8_t id; } ms[] = {
        {"M-SEARCH * HTTP/1.1\r\n\r\n", HTTP_MSEARCH}, {"PURGE /a HTTP/1.1\r\n\r\n", HTTP_PURGE},
        {"NOTIFY /a HTTP/1.1\r\n\r\n", HTTP_NOTIFY}, {"SUBSCRIBE /a HTTP/1.1\r\n\r\n", HTTP_SUBSCRIBE},
        {"UNSUBSCRIBE /a HTTP/1.1\r\n\r\n", HTTP_UNSUBSCRIBE}, {"PROPFIND /a HTTP/1.1\r\n\r\n", HTTP_PROPFIND},
        {"MKCALENDAR /a HTTP/1.1\r\n\r\n", HTTP_MKCALENDAR}, {"SOURCE /a HTTP/1.1\r\n\r\n", HTTP_SOURCE},
        {"DELETE /a HTTP/1.1\r\n\r\n", HTTP_DELETE}, {"UNLINK /a HTTP/1.1\r\n\r\n", HTTP_UNLINK},
    };
    for (size_t i = 0; i < sizeof ms / sizeof *ms; i++) {
        for (size_t k = 1; k <= strlen(ms[i].req); k++) { /* split at every byte, whole last */
            size_t cut = k == strlen(ms[i].req) ? 0 : k;
            setup(&p, &r, HTTP_REQUEST);
            e = llhttp_execute(&p, ms[i].req, cut);
            if (e == HPE_OK) e = llhttp_execute(&p, ms[i].req + cut, strlen(ms[i].req) - cut);
            if (!t_check(e == HPE_OK && r.method_at_hc == ms[i].id, "method id", "%s split at %zu: %s, %d",
                         ms[i].req, cut, llhttp_errno_name(e), r.method_at_hc))
                break;
        }
    }
    /* a token llhttp does not know is an invalid method, as in llhttp */
    setup(&p, &r, HTTP_REQUEST);
    e = llhttp_execute(&p, LIT("FOO / HTTP/1.1\r\n\r\n"));
    t_check(e == HPE_INVALID_METHOD && llhttp_get_error_pos(&p) != NULL, "unknown method", "%s", llhttp_errno_name(e));
}

/* ---- pause / resume ---- */

/* on_method_complete pauses where the method's bytes ended one execute() and the next starts
 * with a byte that cannot follow it: llhttp pauses there, then fails the byte after the resume */
static int pmc_pause(llhttp_t *p) { (void)p; return HPE_PAUSED; }
static void test_pause_method_complete(void)
{
    llhttp_settings_t s;
    llhttp_settings_init(&s);
    s.on_method_complete = pmc_pause;
    llhttp_t p;
    llhttp_init(&p, HTTP_REQUEST, &s);
    static const char rest[] = "\x01 / HTTP/1.1\r\n\r\n";
    llhttp_errno_t e1 = llhttp_execute(&p, LIT("GET"));
    llhttp_errno_t e2 = llhttp_execute(&p, LIT(rest));
    const char *pos = llhttp_get_error_pos(&p);
    llhttp_resume(&p);
    llhttp_errno_t e3 = llhttp_execute(&p, pos, (size_t)(rest + sizeof rest - 1 - pos));
    const char *pos3 = llhttp_get_error_pos(&p);
    t_check(e1 == HPE_OK && e2 == HPE_PAUSED && pos == rest && e3 == HPE_INVALID_METHOD && pos3 == pos,
            "a pause in on_method_complete before an invalid byte", "%s, %s at %td, then %s at %td",
            llhttp_errno_name(e1), llhttp_errno_name(e2), pos - rest, llhttp_errno_name(e3), pos3 - rest);
}

static void test_pause(void)
{
    llhttp_t p;
    rec r;
    static const char in[] = "GET /abc HTTP/1.1\r\n\r\nGET /d HTTP/1.1\r\n\r\n";
    setup(&p, &r, HTTP_REQUEST);
    r.pause_on_url = 1;
    llhttp_errno_t e = llhttp_execute(&p, LIT(in));
    const char *pos = llhttp_get_error_pos(&p);
    t_check(e == HPE_PAUSED && llhttp_get_errno(&p) == HPE_PAUSED, "pause in a span callback", "%s", llhttp_errno_name(e));
    t_check(pos == in + 8, "pause position", "error_pos at %td, want 8 (after the url)", pos - in);
    t_check(llhttp_execute(&p, LIT("x")) == HPE_PAUSED, "paused sticks", "execute while paused");
    r.pause_on_url = 0;
    llhttp_resume(&p);
    e = llhttp_execute(&p, pos, (size_t)(in + sizeof in - 1 - pos));
    t_check(e == HPE_OK && r.complete == 2 && r.url_len == 6, "resume", "%s, %d messages, url %.*s", llhttp_errno_name(e),
            r.complete, (int)r.url_len, r.url);

    /* a pause in on_message_complete: the next message starts after the resume */
    setup(&p, &r, HTTP_REQUEST);
    r.pause_on_complete = 1;
    e = llhttp_execute(&p, LIT(in));
    pos = llhttp_get_error_pos(&p);
    t_check(e == HPE_PAUSED && r.complete == 1 && pos == in + 21, "pause in on_message_complete", "%s at %td",
            llhttp_errno_name(e), pos - in);
    r.pause_on_complete = 0;
    llhttp_resume(&p);
    e = llhttp_execute(&p, pos, (size_t)(in + sizeof in - 1 - pos));
    t_check(e == HPE_OK && r.complete == 2 && r.reset == 1, "resume after complete", "%s, %d messages, %d resets",
            llhttp_errno_name(e), r.complete, r.reset);

    /* llhttp_pause() between calls */
    setup(&p, &r, HTTP_REQUEST);
    llhttp_pause(&p);
    e = llhttp_execute(&p, LIT(in));
    t_check(e == HPE_PAUSED && r.begin == 0, "llhttp_pause", "%s, %d begun", llhttp_errno_name(e), r.begin);
    llhttp_resume(&p);
    /* resume leaves the reason as it was (llhttp's llhttp_resume clears the error only) */
    const char *why = llhttp_get_error_reason(&p);
    t_check(why && strcmp(why, "Paused") == 0, "resume keeps the reason", "%s", why ? why : "NULL");
    e = llhttp_execute(&p, LIT(in));
    t_check(e == HPE_OK && r.complete == 2, "resume after llhttp_pause", "%s", llhttp_errno_name(e));
#ifdef LLHTTP_SIMDHTTP
    /* an empty buffer may be NULL, as simdhttp_execute()'s (the layer computed NULL + 0, which
     * the UBSan build reports; llhttp's own llhttp_execute() does too: the layer only) */
    setup(&p, &r, HTTP_REQUEST);
    e = llhttp_execute(&p, NULL, 0);
    t_check(e == HPE_OK && r.begin == 0, "execute(NULL, 0)", "%s", llhttp_errno_name(e));
    e = llhttp_execute(&p, LIT(in));
    t_check(e == HPE_OK && r.complete == 2 && llhttp_execute(&p, NULL, 0) == HPE_OK, "execute(NULL, 0) then more",
            "%s, %d messages", llhttp_errno_name(e), r.complete);
    /* NULL with a length: an error, nothing read, no arithmetic on NULL (UBSan build) */
    setup(&p, &r, HTTP_REQUEST);
    e = llhttp_execute(&p, NULL, 5);
    t_check(e == HPE_INTERNAL && r.begin == 0, "execute(NULL, 5)", "%s", llhttp_errno_name(e));
#endif
}

/* ---- the reason after a pause, by the kind of callback that paused ---- */

/* Each callback is one event (a zero-length span is none: llhttp gives one where a span ends
 * at a buffer's start); pr.at lists the events that return HPE_PAUSED. llhttp 8.1 leaves the
 * reason as it was after a span callback's pause (NULL after init) and names a notification
 * ("on_header_value_complete pause"); resume leaves it too. */
static struct {
    int n, at[4];
    char log[256];
} pr;
static int pr_event(int span, size_t len)
{
    if (span && !len) return 0;
    int k = pr.n++;
    for (size_t i = 0; i < sizeof pr.at / sizeof *pr.at; i++)
        if (pr.at[i] == k) return HPE_PAUSED;
    return 0;
}
static int pr_span(llhttp_t *p, const char *at, size_t n) { (void)p, (void)at; return pr_event(1, n); }
static int pr_note(llhttp_t *p) { (void)p; return pr_event(0, 0); }

static void pr_append(const char *what, const char *why)
{
    size_t l = strlen(pr.log);
    snprintf(pr.log + l, sizeof pr.log - l, "%s%s%s", l ? "|" : "", what, why ? why : "(null)");
}

/* the input whole, resumed from llhttp_get_error_pos() after each pause; pre: llhttp_pause()
 * first. @return the log: each pause's reason, and after the last the reason once resumed */
static const char *pr_run(const char *in, size_t len, int pre, int a, int b)
{
    llhttp_settings_t s;
    llhttp_settings_init(&s);
    s.on_message_begin = s.on_header_value_complete = s.on_headers_complete = pr_note;
    s.on_chunk_header = s.on_message_complete = s.on_reset = pr_note;
    s.on_url = s.on_header_field = s.on_body = pr_span;
    llhttp_t p;
    llhttp_init(&p, HTTP_REQUEST, &s);
    memset(&pr, 0, sizeof pr);
    pr.at[0] = a, pr.at[1] = b, pr.at[2] = pr.at[3] = -1;
    if (pre) llhttp_pause(&p);
    const char *at = in;
    for (int i = 0; i < 8; i++) {
        llhttp_errno_t e = llhttp_execute(&p, at, (size_t)(in + len - at));
        if (e != HPE_PAUSED) {
            pr_append(e == HPE_OK ? "ok " : llhttp_errno_name(e), llhttp_get_error_reason(&p));
            break;
        }
        pr_append("", llhttp_get_error_reason(&p));
        if (!pre || i) at = llhttp_get_error_pos(&p);
        llhttp_resume(&p);
    }
    return pr.log;
}

static void test_pause_reasons(void)
{
    /* events: 0 begin, 1 url, 2 field, 3 value complete, 4 headers complete, 5 chunk header,
     * 6 body, 7 chunk header, 8 message complete, 9 reset, 10 begin, 11 url, 12 headers
     * complete, 13 message complete */
    static const char in[] = "POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n"
                             "GET /c HTTP/1.1\r\n\r\n";
    static const struct {
        int pre, a, b;
        const char *want, *what;
    } cases[] = {
        {0, 1, -1, "(null)|ok (null)", "a span callback's pause after init: NULL"},
        {0, 6, -1, "(null)|ok (null)", "a pause in on_body: NULL"},
        {0, 3, -1, "on_header_value_complete pause|ok on_header_value_complete pause", "a notification's pause"},
        {0, 0, -1, "on_message_begin pause|ok on_message_begin pause", "on_message_begin"},
        {0, 4, -1, "Paused by on_headers_complete|ok Paused by on_headers_complete", "on_headers_complete"},
        {0, 5, -1, "on_chunk_header pause|ok on_chunk_header pause", "on_chunk_header"},
        {0, 8, -1, "on_message_complete pause|ok on_message_complete pause", "on_message_complete"},
        {0, 9, -1, "on_reset pause|ok on_reset pause", "on_reset"},
        {0, 10, -1, "on_message_begin pause|ok on_message_begin pause", "on_message_begin after on_reset"},
        {0, 3, 6, "on_header_value_complete pause|on_header_value_complete pause|ok on_header_value_complete pause",
         "a span's pause after a resume keeps the notification's reason"},
        {0, 8, 11, "on_message_complete pause|on_message_complete pause|ok on_message_complete pause",
         "the same in the next message"},
        {0, 3, 8, "on_header_value_complete pause|on_message_complete pause|ok on_message_complete pause",
         "a notification's pause after a resume names the new one"},
        {1, 1, -1, "Paused|Paused|ok Paused", "a span's pause after llhttp_pause() and a resume: \"Paused\""},
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *got = pr_run(LIT(in), cases[i].pre, cases[i].a, cases[i].b);
        if (!t_check(strcmp(got, cases[i].want) == 0, "the reason after a pause", "%s: \"%s\", want \"%s\"",
                     cases[i].what, got, cases[i].want))
            bad++;
    }
    t_check(bad == 0, "the reasons after pauses in each kind of callback", "%d cases differ", bad);
}

/* ---- the field-line callbacks: a pause or an error in each ---- */

/* The log of the field-line events: '[' name bytes, ']' on_header_field_complete, '<' value
 * bytes, '>' on_header_value_complete, then 'H' headers complete, 'M' message complete. Spans
 * of one kind in a row are logged as one (the same log at every split). fl.cb (0-3, in that
 * order) returns fl.ret once, on the fl.line-th field line (from 0). */
static struct {
    char log[128];
    size_t len;
    int last, lines, cb, line, ret, fired;
} fl;

static int fl_event(int kind, const char *at, size_t n)
{
    /* an empty value's zero-length span is logged ("<>"): both give it, at the next line */
    if ((kind & 1) || kind != fl.last)
        if (fl.len < sizeof fl.log - 1) fl.log[fl.len++] = "[]<>HM"[kind];
    if (n > sizeof fl.log - 1 - fl.len) n = sizeof fl.log - 1 - fl.len;
    if (n) memcpy(fl.log + fl.len, at, n), fl.len += n;
    fl.last = kind;
    int hit = kind == fl.cb && fl.lines == fl.line && !fl.fired;
    if (kind == 3) fl.lines++;
    if (!hit) return 0;
    fl.fired = 1;
    return fl.ret;
}
static int fl_field(llhttp_t *p, const char *at, size_t n) { (void)p; return fl_event(0, at, n); }
static int fl_field_done(llhttp_t *p) { (void)p; return fl_event(1, NULL, 0); }
static int fl_value(llhttp_t *p, const char *at, size_t n) { (void)p; return fl_event(2, at, n); }
static int fl_value_done(llhttp_t *p) { (void)p; return fl_event(3, NULL, 0); }
static int fl_headers(llhttp_t *p) { (void)p; return fl_event(4, NULL, 0); }
static int fl_complete(llhttp_t *p) { (void)p; return fl_event(5, NULL, 0); }

/* in whole, then (after a pause) the rest in step-byte pieces (0: whole). @return the last
 * execute()'s result; *pauses and *at (the last stop's offset) */
static llhttp_errno_t fl_run(const char *in, size_t len, size_t step, int *pauses, ptrdiff_t *at,
                             const char **why)
{
    llhttp_settings_t s;
    llhttp_settings_init(&s);
    s.on_header_field = fl_field;
    s.on_header_field_complete = fl_field_done;
    s.on_header_value = fl_value;
    s.on_header_value_complete = fl_value_done;
    s.on_headers_complete = fl_headers;
    s.on_message_complete = fl_complete;
    llhttp_t p;
    llhttp_init(&p, HTTP_REQUEST, &s);
    fl.len = 0;
    fl.last = -1;
    fl.lines = fl.fired = 0;
    *pauses = 0;
    *at = -1;
    llhttp_errno_t e = llhttp_execute(&p, in, len);
    size_t off = len;
    while (e == HPE_PAUSED && *pauses < 8) {
        (*pauses)++;
        *at = llhttp_get_error_pos(&p) - in;
        llhttp_resume(&p);
        for (off = (size_t)*at, e = HPE_OK; off < len && e == HPE_OK; off += step ? step : len) {
            size_t n = step && step < len - off ? step : len - off;
            e = llhttp_execute(&p, in + off, n);
            if (e != HPE_OK) break;
        }
    }
    if (e != HPE_OK && e != HPE_PAUSED) *at = llhttp_get_error_pos(&p) - in;
    *why = llhttp_get_error_reason(&p);
    fl.log[fl.len] = 0;
    return e;
}

static void test_field_lines(void)
{
    /* lines 1 (OWS on both sides of the value) and 2 (an empty value) come whole */
    static const char in[] = "GET / HTTP/1.1\r\nA: 1\r\nBb:  two  \r\nC:\r\nD: x\r\n\r\n";
    static const char base[] = "[A]<1>[Bb]<two  >[C]<>[D]<x>HM";
    /* where each callback stops: somewhere in its line (22-33, 34-37) or at the next line's
     * start: llhttp's place, and the layer's, is one byte after a span (the ':', the CR), and
     * the next line's start for an empty value's span and a value's end) */
    static const ptrdiff_t line_at[2][2] = {{22, 34}, {34, 38}};
    static const ptrdiff_t stop_at[2][4] = {{25, 25, 33, 34}, {36, 36, 38, 38}}; /* both */
    static const char *const span_why[4] = {"Span callback error in on_header_field",
                                            "`on_header_field_complete` callback error",
                                            "Span callback error in on_header_value",
                                            "`on_header_value_complete` callback error"};
    int pauses, bad = 0;
    ptrdiff_t at;
    const char *why;
    fl.cb = -1;
    llhttp_errno_t e = fl_run(LIT(in), 0, &pauses, &at, &why);
    t_check(e == HPE_OK && strcmp(fl.log, base) == 0, "field lines: events", "%s: %s", llhttp_errno_name(e), fl.log);
    for (int line = 1; line <= 2; line++)
        for (int cb = 0; cb < 4; cb++) {
            ptrdiff_t want = stop_at[line - 1][cb], lo = line_at[line - 1][0], hi = line_at[line - 1][1];
#define FL_AT(at) ((want < 0 && (at) < 0) || (want >= 0 && (at) >= lo && (at) <= hi && (!want || (at) == want)))
            fl.line = line;
            fl.cb = cb;
            /* a pause: it stops where the span path stops, and the same events come after the
             * resume, whole or in pieces */
            for (size_t step = 0; step <= 3; step += step ? 2 : 1) {
                fl.ret = HPE_PAUSED;
                e = fl_run(LIT(in), step, &pauses, &at, &why);
                if (!t_check(e == HPE_OK && strcmp(fl.log, base) == 0 && pauses == (want >= 0) && FL_AT(at),
                             "field lines: a pause in each callback", "line %d callback %d, %zu-byte pieces: %s, "
                             "%d pauses at %td (want %td): %s", line, cb, step, llhttp_errno_name(e), pauses, at,
                             want, fl.log))
                    bad++;
            }
            /* an error: -1, and (a span) a code of its own */
            for (int k = 0; k < 2; k++) {
                fl.ret = k ? 42 : -1;
                e = fl_run(LIT(in), 0, &pauses, &at, &why);
                int span = !(cb & 1);
                llhttp_errno_t code = want < 0 ? HPE_OK : span ? (k ? (llhttp_errno_t)42 : HPE_USER)
                                    : cb == 1 ? HPE_CB_HEADER_FIELD_COMPLETE : HPE_CB_HEADER_VALUE_COMPLETE;
                int ok = e == code && strncmp(fl.log, base, fl.len) == 0;
                if (want >= 0) ok = ok && FL_AT(at) && (k && span ? 1 : why && strcmp(why, span_why[cb]) == 0);
                if (!t_check(ok, "field lines: an error in each callback", "line %d callback %d returns %d: %d at %td "
                             "(want %d at %td), \"%s\": %s", line, cb, fl.ret, (int)e, at, (int)code, want,
                             why ? why : "(null)", fl.log))
                    bad++;
            }
        }
#undef FL_AT
    t_check(bad == 0, "field lines: pauses and errors", "%d cases differ", bad);
}

/* ---- callback errors ---- */

static void test_errors(void)
{
    llhttp_t p;
    rec r;
    setup(&p, &r, HTTP_REQUEST);
    r.fail_on_url = -1;
    llhttp_errno_t e = llhttp_execute(&p, LIT("GET / HTTP/1.1\r\n\r\n"));
    t_check(e == HPE_USER && llhttp_get_error_reason(&p) != NULL, "-1 from a span callback is HPE_USER", "%s",
            llhttp_errno_name(e));
    t_check(llhttp_execute(&p, LIT("GET / HTTP/1.1\r\n\r\n")) == HPE_USER, "errors stick", "second execute");
    t_check(llhttp_finish(&p) == HPE_OK, "finish after an error is HPE_OK (llhttp)", "finish");
    llhttp_reset(&p);
    t_check(p.data == &r && p.settings == &settings, "reset keeps data and settings", "reset");
    r.fail_on_url = 0;
    e = llhttp_execute(&p, LIT("GET / HTTP/1.1\r\n\r\n"));
    t_check(e == HPE_OK, "reset clears the error", "%s", llhttp_errno_name(e));

    setup(&p, &r, HTTP_REQUEST);
    r.fail_on_url = 42; /* any other value is returned as it is */
    e = llhttp_execute(&p, LIT("GET / HTTP/1.1\r\n\r\n"));
    t_check((int)e == 42 && (int)llhttp_get_errno(&p) == 42, "a span callback's own code", "%d", (int)e);

    setup(&p, &r, HTTP_REQUEST);
    r.fail_begin = -1;
    e = llhttp_execute(&p, LIT("GET / HTTP/1.1\r\n\r\n"));
    t_check(e == HPE_CB_MESSAGE_BEGIN, "a notification's error is its HPE_CB_ code", "%s", llhttp_errno_name(e));
    setup(&p, &r, HTTP_REQUEST);
    r.fail_begin = HPE_USER;
    e = llhttp_execute(&p, LIT("GET / HTTP/1.1\r\n\r\n"));
    t_check(e == HPE_CB_MESSAGE_BEGIN, "HPE_USER from a notification", "%s", llhttp_errno_name(e));
    llhttp_set_error_reason(&p, "mine");
    t_check(strcmp(llhttp_get_error_reason(&p), "mine") == 0, "set_error_reason", "reason");

    setup(&p, &r, HTTP_REQUEST);
    r.hc_ret = -1;
    e = llhttp_execute(&p, LIT("GET / HTTP/1.1\r\n\r\n"));
    t_check(e == HPE_CB_HEADERS_COMPLETE, "on_headers_complete -1", "%s", llhttp_errno_name(e));

    /* type both, a start that could still be "HEAD" or "HTTP/", then a byte that is no tchar:
     * llhttp is matching those words there and says INVALID_CONSTANT at that byte; after a
     * whole "HEAD" the same byte is a bad method. Whole and one byte per call. */
    static const struct {
        const char *in;
        size_t len, pos;
        llhttp_errno_t e;
    } both_bad[] = {
        {"HEA\0 / HTTP/1.1\r\n\r\n", 20, 3, HPE_INVALID_CONSTANT}, {"H\x01", 2, 1, HPE_INVALID_CONSTANT},
        {"HTT\r\n", 5, 3, HPE_INVALID_CONSTANT},                    {"HE@ /", 5, 2, HPE_INVALID_CONSTANT},
        {"HTTP\x80", 5, 4, HPE_INVALID_CONSTANT},                    {"HEAD\0 /", 7, 4, HPE_INVALID_METHOD},
    };
    for (size_t i = 0; i < sizeof both_bad / sizeof *both_bad; i++)
        for (size_t step = 1; step <= both_bad[i].len; step += both_bad[i].len - 1) {
            setup(&p, &r, HTTP_BOTH);
            e = HPE_OK;
            for (size_t k = 0; k < both_bad[i].len && e == HPE_OK; k += step)
                e = llhttp_execute(&p, both_bad[i].in + k, step < both_bad[i].len - k ? step : both_bad[i].len - k);
            const char *pos = llhttp_get_error_pos(&p), *why = llhttp_get_error_reason(&p);
            int at = pos && pos >= both_bad[i].in && pos < both_bad[i].in + both_bad[i].len;
            t_check(e == both_bad[i].e && at && (size_t)(pos - both_bad[i].in) == both_bad[i].pos &&
                        (e != HPE_INVALID_CONSTANT || (why && strcmp(why, "Invalid word encountered") == 0)),
                    "type both: a byte no method continues with", "input %zu, %zu-byte pieces: %s at %td (%s)", i,
                    step, llhttp_errno_name(e), at ? pos - both_bad[i].in : (ptrdiff_t)-1, why ? why : "(null)");
        }
}

/* ---- HPE_INVALID_URL: llhttp's text names the URL part the refused byte is in ---- */

/* [0, split) in one call, then the rest in pieces of `step` bytes (0: at once) */
/* One piece, resumed from llhttp_get_error_pos() after each pause (no empty execute after a
 * pause at the piece's end: llhttp 8.1 would call on_url again, with no bytes) */
static llhttp_errno_t url_piece_run(llhttp_t *p, const char *at, size_t n)
{
    llhttp_errno_t e = llhttp_execute(p, at, n);
    while (e == HPE_PAUSED) {
        const char *pos = llhttp_get_error_pos(p);
        llhttp_resume(p);
        e = pos == at + n ? HPE_OK : llhttp_execute(p, pos, (size_t)(at + n - pos));
    }
    return e;
}

/* with_url: 0 no on_url, 1 on_url, 2 an on_url that pauses at each span */
static void url_run(const char *in, size_t len, size_t split, size_t step, int with_url, llhttp_errno_t *e,
                    ptrdiff_t *at, const char **why)
{
    static llhttp_settings_t bare; /* no on_url */
    llhttp_t p;
    rec r;
    setup(&p, &r, HTTP_REQUEST);
    r.pause_on_url = with_url == 2;
    if (!with_url) {
        llhttp_settings_init(&bare);
        llhttp_init(&p, HTTP_REQUEST, &bare);
    }
    *e = split ? url_piece_run(&p, in, split) : HPE_OK;
    for (size_t k = split; k < len && *e == HPE_OK; k += step ? step : len) {
        size_t n = step && step < len - k ? step : len - k;
        *e = url_piece_run(&p, in + k, n);
    }
    const char *pos = llhttp_get_error_pos(&p);
    *at = pos && pos >= in && pos <= in + len ? pos - in : -1;
    *why = llhttp_get_error_reason(&p);
}

static void test_url_reasons(void)
{
    /* a bad byte in each part, first byte and later, of origin-, absolute-, authority- (CONNECT)
     * and asterisk-form: where llhttp refuses it and what it says (both builds) */
    static const struct {
        const char *in;
        ptrdiff_t at;
        const char *why;
    } cases[] = {
        {"GET \x01/ HTTP/1.1\r\n\r\n", 4, "Unexpected start char in url"},
        {"GET \x7f HTTP/1.1\r\n\r\n", 4, "Unexpected start char in url"},
        {"GET \x80/ HTTP/1.1\r\n\r\n", 4, "Unexpected start char in url"},
        {"GET \r\n\r\n", 5, "Invalid characters in url"},
        {"GET \n\n", 5, "Invalid characters in url"},
        {"GET h\x01tp://h/ HTTP/1.1\r\n\r\n", 5, "Unexpected char in url schema"},
        {"GET http\x7f://h/ HTTP/1.1\r\n\r\n", 8, "Unexpected char in url schema"},
        {"GET http:\x01// HTTP/1.1\r\n\r\n", 9, "Unexpected char in url schema"},
        {"GET http:/\x01/ HTTP/1.1\r\n\r\n", 10, "Unexpected char in url schema"},
        {"GET http://\x01/ HTTP/1.1\r\n\r\n", 11, "Unexpected char in url server"},
        {"GET http://h\x01/ HTTP/1.1\r\n\r\n", 12, "Unexpected char in url server"},
        {"GET http://u@h\t/ HTTP/1.1\r\n\r\n", 14, "Unexpected char in url server"},
        {"GET http://h:\x01/ HTTP/1.1\r\n\r\n", 13, "Unexpected char in url server"},
        {"GET http://h:8\x7f/ HTTP/1.1\r\n\r\n", 14, "Unexpected char in url server"},
        {"GET http://h/\x01 HTTP/1.1\r\n\r\n", 13, "Invalid char in url path"},
        {"GET http://h/p\x01 HTTP/1.1\r\n\r\n", 14, "Invalid char in url path"},
        {"GET http://h?\x01 HTTP/1.1\r\n\r\n", 13, "Invalid char in url query"},
        {"GET http://h/?q=\x7f HTTP/1.1\r\n\r\n", 16, "Invalid char in url query"},
        {"GET http://h/#\x01 HTTP/1.1\r\n\r\n", 14, "Invalid char in url fragment start"},
        {"GET http://h/?#f\x01 HTTP/1.1\r\n\r\n", 16, "Invalid char in url fragment start"},
        {"GET /\x01 HTTP/1.1\r\n\r\n", 5, "Invalid char in url path"},
        {"GET /p\x7f HTTP/1.1\r\n\r\n", 6, "Invalid char in url path"},
        {"GET /\xc3\xa9\x01 HTTP/1.1\r\n\r\n", 7, "Invalid char in url path"},
        {"GET /?\x01 HTTP/1.1\r\n\r\n", 6, "Invalid char in url query"},
        {"GET /p?q=1\x1f HTTP/1.1\r\n\r\n", 10, "Invalid char in url query"},
        {"GET /#\x01 HTTP/1.1\r\n\r\n", 6, "Invalid char in url fragment start"},
        {"GET /p?a#f\x7f HTTP/1.1\r\n\r\n", 10, "Invalid char in url fragment start"},
        {"OPTIONS *\x01 HTTP/1.1\r\n\r\n", 9, "Invalid char in url path"},
        {"CONNECT \x01h:80 HTTP/1.1\r\n\r\n", 8, "Unexpected char in url server"},
        {"CONNECT \x80h:80 HTTP/1.1\r\n\r\n", 8, "Unexpected char in url server"},
        {"CONNECT h\x01:80 HTTP/1.1\r\n\r\n", 9, "Unexpected char in url server"},
        {"CONNECT h:8\x7f HTTP/1.1\r\n\r\n", 11, "Unexpected char in url server"},
        {"CONNECT h:80/\x01 HTTP/1.1\r\n\r\n", 13, "Invalid char in url path"},
        {"CONNECT h:80?\x01 HTTP/1.1\r\n\r\n", 13, "Invalid char in url query"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *in = cases[i].in;
        size_t len = strlen(in);
        /* whole (split 0), split at every offset, and byte by byte (split == len); without
         * on_url, with it, and with one that pauses at each span (resumed where llhttp says) */
        int runs = 0, bad = 0;
        char first_bad[160] = "";
        for (int with_url = 2; with_url >= 0; with_url--)
            for (size_t split = 0; split <= len; split++) {
                llhttp_errno_t e;
                ptrdiff_t at;
                const char *why;
                url_run(in, len, split == len ? 0 : split, split == len, with_url, &e, &at, &why);
                runs++;
                if (e == HPE_INVALID_URL && at == cases[i].at && why && strcmp(why, cases[i].why) == 0) continue;
                if (!bad++)
                    snprintf(first_bad, sizeof first_bad, "%s, split %zu: %s at %td, \"%s\"",
                             with_url == 2 ? "on_url pausing" : with_url ? "on_url" : "no on_url", split, llhttp_errno_name(e), at, why ? why : "(null)");
            }
        t_check(bad == 0, "HPE_INVALID_URL: llhttp's reason for the URL part", "case %zu (want at %td, \"%s\"): "
                "%d of %d runs differ, first %s", i, cases[i].at, cases[i].why, bad, runs, first_bad);
    }
#ifdef LLHTTP_SIMDHTTP
    /* llhttp refuses "http:/x" at the x (its schema wants "//"); the core, at the control byte
     * after it: the layer gives llhttp's text for that target, at its own place */
    llhttp_errno_t e;
    ptrdiff_t at;
    const char *why;
    url_run(LIT("GET http:/x\x01 HTTP/1.1\r\n\r\n"), 0, 0, 1, &e, &at, &why);
    t_check(e == HPE_INVALID_URL && at == 11 && why && strcmp(why, "Unexpected char in url schema") == 0,
            "HPE_INVALID_URL: llhttp's text where it refuses an earlier byte", "%s at %td, \"%s\"",
            llhttp_errno_name(e), at, why ? why : "(null)");
#endif
}

static llhttp_errno_t feed(llhttp_t *p, const char *d, size_t n);

/* ---- a byte after "HTTP/" that is no digit: an empty version span, then the error ---- */

static struct {
    const char *base;
    int ret, versions, methods;
    ptrdiff_t version_at;
    size_t version_len;
} ev;
static int ev_version(llhttp_t *p, const char *at, size_t n)
{
    (void)p;
    ev.versions++, ev.version_at = at - ev.base, ev.version_len = n;
    return ev.ret;
}
static int ev_method(llhttp_t *p, const char *at, size_t n)
{
    (void)p, (void)at;
    ev.methods += (int)n;
    return 0;
}

static void test_version_empty_span(void)
{
    /* llhttp 8.1 calls on_version with no bytes at the refused byte, after "HTTP/" as a method
     * in type both; then fails there ("Invalid major version"). What the callback returns:
     * a pause (the error comes after the resume), -1 (HPE_USER), another value (returned). */
    static const struct {
        const char *in;
        ptrdiff_t at;
        int methods; /* on_method's bytes: "GET", or "HTTP/" in type both */
    } cs[] = {
        {"GET / HTTP/x.1\r\n\r\n", 11, 3},
        {"GET / HTTP/\r\n\r\n", 11, 3},
        {"HTTP/x.1 200 OK\r\n\r\n", 5, 5},
    };
    static const int rets[] = {0, HPE_PAUSED, -1, HPE_CB_HEADERS_COMPLETE};
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++)
        for (size_t k = 0; k < sizeof rets / sizeof *rets; k++)
            for (size_t cut = 0; cut < strlen(cs[i].in); cut++) {
                const char *in = cs[i].in;
                size_t len = strlen(in);
                llhttp_settings_t s;
                llhttp_settings_init(&s);
                s.on_version = ev_version;
                s.on_method = ev_method;
                llhttp_t p;
                llhttp_init(&p, HTTP_BOTH, &s);
                memset(&ev, 0, sizeof ev);
                ev.base = in, ev.ret = rets[k];
                llhttp_errno_t e = cut ? llhttp_execute(&p, in, cut) : HPE_OK;
                if (e == HPE_OK) e = llhttp_execute(&p, in + cut, len - cut);
                const char *pos = llhttp_get_error_pos(&p), *why = llhttp_get_error_reason(&p);
                llhttp_errno_t want = rets[k] == 0 ? HPE_INVALID_VERSION : rets[k] == -1 ? HPE_USER : (llhttp_errno_t)rets[k];
                const char *want_why = rets[k] == 0 ? "Invalid major version"
                                       : rets[k] == -1 ? "Span callback error in on_version" : NULL;
                int ok = e == want && pos == in + cs[i].at && (want_why ? why && strcmp(why, want_why) == 0 : !why) &&
                         ev.versions == 1 && ev.version_at == cs[i].at && ev.version_len == 0 &&
                         ev.methods == cs[i].methods;
                if (ok && e == HPE_PAUSED) { /* resumed where llhttp says: the error, no more calls */
                    llhttp_resume(&p);
                    e = llhttp_execute(&p, pos, (size_t)(in + len - pos));
                    why = llhttp_get_error_reason(&p);
                    ok = e == HPE_INVALID_VERSION && llhttp_get_error_pos(&p) == in + cs[i].at && why &&
                         strcmp(why, "Invalid major version") == 0 && ev.versions == 1;
                }
                if (!t_check(ok, "a byte after HTTP/ that is no digit: an empty version span, then the error",
                             "case %zu, return %d, split %zu: %s at %td \"%s\", %d version spans (at %td, %zu bytes), "
                             "%d method bytes", i, rets[k], cut, llhttp_errno_name(e), pos ? pos - in : -1,
                             why ? why : "(null)", ev.versions, ev.version_at, ev.version_len, ev.methods))
                    return;
            }
}

/* ---- on_status_complete: after the status line's LF, wherever a buffer ends ---- */

static struct {
    int ret, calls, completes;
} sc;
static int sc_status_complete(llhttp_t *p)
{
    (void)p;
    sc.calls++;
    return sc.ret;
}
static int sc_message_complete(llhttp_t *p)
{
    (void)p;
    sc.completes++;
    return 0;
}

static void test_status_complete_split(void)
{
    /* llhttp calls on_status_complete at the byte after the status line's CR: a buffer that ends
     * at the CR has not seen it yet. Its pause and error stop after that LF. */
    static const char *const ins[] = {"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
                                      "HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n"};
    static const int rets[] = {0, HPE_PAUSED, -1};
    for (size_t i = 0; i < sizeof ins / sizeof *ins; i++)
        for (size_t k = 0; k < sizeof rets / sizeof *rets; k++)
            for (size_t cut = 1; cut < strlen(ins[i]); cut++) {
                const char *in = ins[i];
                size_t len = strlen(in), lf = (size_t)(strchr(in, '\n') - in);
                llhttp_settings_t s;
                llhttp_settings_init(&s);
                s.on_status_complete = sc_status_complete;
                s.on_message_complete = sc_message_complete;
                llhttp_t p;
                llhttp_init(&p, HTTP_RESPONSE, &s);
                memset(&sc, 0, sizeof sc);
                sc.ret = rets[k];
                llhttp_errno_t e = llhttp_execute(&p, in, cut);
                int first = sc.calls; /* calls in the first buffer */
                const char *rest = in + cut;
                if (e == HPE_PAUSED) { /* resumed where llhttp says */
                    rest = llhttp_get_error_pos(&p);
                    llhttp_resume(&p);
                    e = HPE_OK;
                }
                if (e == HPE_OK) e = llhttp_execute(&p, rest, (size_t)(in + len - rest));
                if (e == HPE_PAUSED && llhttp_get_error_pos(&p) == in + lf + 1) {
                    llhttp_resume(&p);
                    e = llhttp_execute(&p, in + lf + 1, len - lf - 1);
                }
                const char *pos = llhttp_get_error_pos(&p);
                int ok = first == (cut > lf) && sc.calls == 1 &&
                         (rets[k] == -1 ? e == HPE_CB_STATUS_COMPLETE && pos == in + lf + 1 && sc.completes == 0
                                        : e == HPE_OK && sc.completes == 1);
                if (!t_check(ok, "on_status_complete after the status line's LF, at every split",
                             "input %zu, return %d, split %zu: %d call(s) in the first buffer, %d in all, %s at %td, "
                             "%d message(s)", i, rets[k], cut, first, sc.calls, llhttp_errno_name(e),
                             pos ? pos - in : -1, sc.completes))
                    return;
            }
}

/* ---- a span that runs to a buffer's end and ends at the next buffer's first byte ---- */

/* llhttp restarts an open span at each llhttp_execute() and ends it where the span's end is:
 * at the next buffer's first byte that is a call with no bytes there, and an execute() of no
 * bytes calls an open span with none. The spans that end at the byte after them (method, url,
 * header field and value, status, chunk extension name and value) get such a call; the version
 * and the body end at their last byte. The raw calls are logged (kind, offset, length); the
 * expected log comes from the whole input's spans by that rule, at every split, with and
 * without an empty execute() at the split; the zero-length call at a buffer's start pauses
 * (the program resumes where llhttp_get_error_pos() says) or fails (-1) where the same
 * callback at the same span's end does in the whole input. */
enum { ZK_METHOD, ZK_URL, ZK_VERSION, ZK_STATUS, ZK_FIELD, ZK_VALUE, ZK_BODY, ZK_EXT_NAME, ZK_EXT_VALUE, ZK_KINDS };
static const char *const zk_names[] = {"on_method", "on_url", "on_version", "on_status", "on_header_field",
                                       "on_header_value", "on_body", "on_chunk_extension_name",
                                       "on_chunk_extension_value"};
static const int zk_lookahead[] = {1, 1, 0, 1, 1, 1, 0, 1, 1};
typedef struct zcall {
    int kind;
    ptrdiff_t off;
    size_t len;
} zcall;
#define ZMAX 64
static struct {
    const char *base;
    zcall log[ZMAX];
    int n, stop_at, ret; /* the call stop_at (0-based) returns ret */
    ptrdiff_t paused_at; /* where the first pause left the program (-1: none) */
} zl;
static int zl_span(int kind, const char *at, size_t n)
{
    if (zl.n < ZMAX) zl.log[zl.n] = (zcall){kind, at - zl.base, n};
    return zl.n++ == zl.stop_at ? zl.ret : 0;
}
#define ZL_CB(name, kind) \
    static int zl_##name(llhttp_t *p, const char *at, size_t n) { (void)p; return zl_span(kind, at, n); }
ZL_CB(method, ZK_METHOD)
ZL_CB(url, ZK_URL)
ZL_CB(version, ZK_VERSION)
ZL_CB(status, ZK_STATUS)
ZL_CB(field, ZK_FIELD)
ZL_CB(value, ZK_VALUE)
ZL_CB(body, ZK_BODY)
ZL_CB(ext_name, ZK_EXT_NAME)
ZL_CB(ext_value, ZK_EXT_VALUE)

/* Feeds in[0..len) as [0, cut) (skipped if cut is 0), an execute() of no bytes at cut if
 * `empty`, then [cut, len), resuming after each pause from llhttp_get_error_pos() with the
 * rest of that buffer. @return the result; *pos: the error position (offset) */
static llhttp_errno_t zl_run(llhttp_type_t type, const char *in, size_t len, size_t cut, int empty, int stop_at,
                             int ret, ptrdiff_t *pos, const char **why)
{
    llhttp_settings_t s;
    llhttp_settings_init(&s);
    s.on_method = zl_method, s.on_url = zl_url, s.on_version = zl_version, s.on_status = zl_status;
    s.on_header_field = zl_field, s.on_header_value = zl_value, s.on_body = zl_body;
    s.on_chunk_extension_name = zl_ext_name, s.on_chunk_extension_value = zl_ext_value;
    llhttp_t p;
    llhttp_init(&p, type, &s);
    memset(&zl, 0, sizeof zl);
    zl.base = in, zl.stop_at = stop_at, zl.ret = ret, zl.paused_at = -1;
    const size_t from[3] = {0, cut, cut}, to[3] = {cut, cut, len};
    llhttp_errno_t e = HPE_OK;
    *pos = -1;
    for (int b = 0; b < 3 && e == HPE_OK; b++) {
        if ((b == 0 && cut == 0) || (b == 1 && !empty)) continue;
        const char *d = in + from[b];
        for (;;) {
            e = llhttp_execute(&p, d, (size_t)(in + to[b] - d));
            if (e != HPE_PAUSED) break;
            d = llhttp_get_error_pos(&p);
            if (zl.paused_at < 0) zl.paused_at = d - in;
            llhttp_resume(&p);
        }
    }
    if (e == HPE_OK) e = llhttp_finish(&p);
    else *pos = llhttp_get_error_pos(&p) - in;
    *why = llhttp_get_error_reason(&p);
    return e;
}

static int zl_same(const zcall *a, int na, const zcall *b, int nb)
{
    if (na != nb) return 0;
    for (int i = 0; i < na; i++)
        if (a[i].kind != b[i].kind || a[i].off != b[i].off || a[i].len != b[i].len) return 0;
    return 1;
}

static void zl_describe(char *buf, size_t cap, const zcall *c, int n)
{
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < n && i < ZMAX && k + 40 < cap; i++)
        k += (size_t)snprintf(buf + k, cap - k, " %s@%td+%zu", zk_names[c[i].kind] + 3, c[i].off, c[i].len);
}

static void test_zero_length_spans(void)
{
    static const struct {
        llhttp_type_t type;
        const char *in;
    } cs[] = {
        {HTTP_REQUEST, "GET /a?b HTTP/1.1\r\nHost: a b\r\nX-Y: zz\r\n\r\n"},
        {HTTP_RESPONSE, "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc"},
        {HTTP_RESPONSE, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ab=cd\r\nhello\r\n0\r\n\r\n"},
        {HTTP_REQUEST, "GET / HTTP/1.1\r\nX-E:\r\n\r\n"}, /* an empty value's own zero-length call */
    };
    int seen[ZK_KINDS] = {0};
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
        const char *in = cs[i].in;
        size_t len = strlen(in);
        ptrdiff_t pos;
        const char *why;
        /* the whole input: one call per span, and where a pause or -1 in each leaves the parser */
        zcall whole[ZMAX];
        llhttp_errno_t e = zl_run(cs[i].type, in, len, 0, 0, -1, 0, &pos, &why);
        int nw = zl.n;
        memcpy(whole, zl.log, sizeof whole);
        if (!t_check(e == HPE_OK && nw > 0 && nw <= ZMAX / 3, "zero-length spans: the whole input parses",
                     "case %zu: %s, %d calls", i, llhttp_errno_name(e), nw))
            return;
        ptrdiff_t pause_pos[ZMAX], fail_pos[ZMAX];
        for (int j = 0; j < nw; j++) {
            zl_run(cs[i].type, in, len, 0, 0, j, HPE_PAUSED, &pos, &why);
            pause_pos[j] = zl.paused_at;
            zl_run(cs[i].type, in, len, 0, 0, j, -1, &fail_pos[j], &why);
        }
        for (size_t cut = 1; cut < len; cut++)
            for (int empty = 0; empty < 2; empty++) {
                zcall want[ZMAX];
                int src[ZMAX]; /* each expected call's span in the whole input */
                int nwant = 0, zero_at = -1; /* zero_at: the call at the second buffer's start */
                for (int j = 0; j < nw; j++) {
                    const zcall w = whole[j];
                    ptrdiff_t s = w.off, end = w.off + (ptrdiff_t)w.len, k = (ptrdiff_t)cut;
                    if (s < k && (k < end || (k == end && zk_lookahead[w.kind]))) {
                        src[nwant] = j, want[nwant++] = (zcall){w.kind, s, (size_t)(k - s)};
                        if (empty) src[nwant] = j, want[nwant++] = (zcall){w.kind, k, 0};
                        if (k == end) zero_at = nwant;
                        src[nwant] = j, want[nwant++] = (zcall){w.kind, k, (size_t)(end - k)};
                        if (k == end) seen[w.kind]++;
                    } else {
                        src[nwant] = j, want[nwant++] = w;
                    }
                }
                e = zl_run(cs[i].type, in, len, cut, empty, -1, 0, &pos, &why);
                int ok = e == HPE_OK && zl_same(zl.log, zl.n, want, nwant);
                char got[1024], exp[1024];
                zl_describe(got, sizeof got, zl.log, zl.n);
                zl_describe(exp, sizeof exp, want, nwant);
                if (!t_check(ok, "zero-length spans: llhttp's calls at every split",
                             "case %zu, split %zu%s: %s, calls%s; expected%s", i, cut, empty ? " + empty execute" : "",
                             llhttp_errno_name(e), got, exp))
                    return;
                if (zero_at < 0 || empty) continue;
                /* that zero-length call pauses: the same place as a pause at the span's end in the
                 * whole input, then the same calls (a pause is no call more) */
                int span = src[zero_at];
                e = zl_run(cs[i].type, in, len, cut, 0, zero_at, HPE_PAUSED, &pos, &why);
                ok = e == HPE_OK && zl_same(zl.log, zl.n, want, nwant) && zl.paused_at == pause_pos[span];
                zl_describe(got, sizeof got, zl.log, zl.n);
                if (!t_check(ok, "zero-length spans: a pause in the call at the buffer's start",
                             "case %zu, split %zu (%s): %s, paused at %td (whole input: %td), calls%s; expected%s", i,
                             cut, zk_names[want[zero_at].kind], llhttp_errno_name(e), zl.paused_at, pause_pos[span],
                             got, exp))
                    return;
                /* -1: HPE_USER where -1 at that span's end stops the whole input */
                e = zl_run(cs[i].type, in, len, cut, 0, zero_at, -1, &pos, &why);
                char want_why[64];
                snprintf(want_why, sizeof want_why, "Span callback error in %s", zk_names[want[zero_at].kind]);
                ok = e == HPE_USER && pos == fail_pos[span] && zl.n == zero_at + 1 && why && strcmp(why, want_why) == 0;
                if (!t_check(ok, "zero-length spans: -1 from the call at the buffer's start",
                             "case %zu, split %zu (%s): %s at %td (whole input: %td), \"%s\", %d calls", i, cut,
                             zk_names[want[zero_at].kind], llhttp_errno_name(e), pos, fail_pos[span],
                             why ? why : "(null)", zl.n))
                    return;
            }
    }
    /* a version that ends at a refused byte starting the next buffer: llhttp ends the span
     * with no bytes there, then fails there (after the resume, if that call pauses) */
    static const struct {
        const char *in;
        size_t bad;
        const char *why;
    } vs[] = {{"GET / HTTP/1x\r\n\r\n", 12, "Expected dot"}, {"GET / HTTP/1.x\r\n\r\n", 13, "Invalid minor version"}};
    static const int vrets[] = {0, HPE_PAUSED, -1};
    for (size_t i = 0; i < sizeof vs / sizeof *vs; i++)
        for (size_t k = 0; k < sizeof vrets / sizeof *vrets; k++) {
            ptrdiff_t pos;
            const char *why;
            /* calls: method, url, the version's bytes, then its empty end (index 3) */
            llhttp_errno_t e = zl_run(HTTP_REQUEST, vs[i].in, strlen(vs[i].in), vs[i].bad, 0, 3, vrets[k], &pos, &why);
            int ok = zl.n == 4 && zl.log[3].kind == ZK_VERSION && zl.log[3].off == (ptrdiff_t)vs[i].bad &&
                     zl.log[3].len == 0 && pos == (ptrdiff_t)vs[i].bad &&
                     (vrets[k] == -1 ? e == HPE_USER && why && strcmp(why, "Span callback error in on_version") == 0
                                     : e == HPE_INVALID_VERSION && why && strcmp(why, vs[i].why) == 0) &&
                     (vrets[k] != HPE_PAUSED || zl.paused_at == (ptrdiff_t)vs[i].bad);
            if (!t_check(ok, "zero-length spans: a version's empty end before its error",
                         "%s, return %d: %s at %td \"%s\", %d calls", vs[i].in, vrets[k], llhttp_errno_name(e), pos,
                         why ? why : "(null)", zl.n))
                return;
            /* whole, a pause in the version's span with bytes: the error after the resume, and
             * no empty span (it has ended) */
            e = zl_run(HTTP_REQUEST, vs[i].in, strlen(vs[i].in), 0, 0, 2, HPE_PAUSED, &pos, &why);
            ok = zl.n == 3 && e == HPE_INVALID_VERSION && pos == (ptrdiff_t)vs[i].bad && why && strcmp(why, vs[i].why) == 0;
            if (!t_check(ok, "a pause in a version's span before its error", "%s: %s at %td, %d calls", vs[i].in,
                         llhttp_errno_name(e), pos, zl.n))
                return;
        }
    /* every kind llhttp ends at the next byte met a split there */
    for (int k = 0; k < ZK_KINDS; k++)
        if (!t_check(!zk_lookahead[k] || seen[k] > 0, "zero-length spans: each kind split", "%s never", zk_names[k]))
            return;
}

/* A quoted chunk extension value without a quoted-pair is one on_chunk_extension_value call
 * from its opening quote to its closing one, as llhttp 8.1 makes it (the layer once gave the
 * opening quote a call of its own: a program counting calls, or pausing in them, saw one more) */
static void test_quoted_ext_value_one_call(void)
{
    static const char in[] = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;a=\"b c\";d=\"\"\r\nhello\r\n0\r\n\r\n";
    ptrdiff_t pos;
    const char *why;
    llhttp_errno_t e = zl_run(HTTP_RESPONSE, in, sizeof in - 1, 0, 0, -1, 0, &pos, &why);
    const char *q1 = strstr(in, "\"b c\""), *q2 = strstr(in, "\"\"\r");
    const zcall want[2] = {{ZK_EXT_VALUE, q1 - in, 5}, {ZK_EXT_VALUE, q2 - in, 2}};
    zcall got[2] = {{0, 0, 0}, {0, 0, 0}};
    int n = 0;
    for (int i = 0; i < zl.n && i < ZMAX; i++)
        if (zl.log[i].kind == ZK_EXT_VALUE && n < 2) got[n++] = zl.log[i];
        else if (zl.log[i].kind == ZK_EXT_VALUE) n++;
    char g[256];
    zl_describe(g, sizeof g, got, n < 2 ? n : 2);
    t_check(e == HPE_OK && zl_same(got, n, want, 2), "a quoted chunk extension value is one call",
            "%s, %d value calls:%s", llhttp_errno_name(e), n, g);
}

/* ---- a pause or an error in on_method / on_method_complete, the method split anywhere ---- */

static struct {
    int mode, stopped, mcs, completes;
    char method[16];
} mp;
static int mp_method(llhttp_t *p, const char *at, size_t n)
{
    (void)p;
    size_t k = strlen(mp.method);
    if (k + n < sizeof mp.method) memcpy(mp.method + k, at, n), mp.method[k + n] = 0;
    if (mp.mode != 0 || mp.stopped) return 0;
    mp.stopped = 1;
    return HPE_PAUSED;
}
static int mp_method_complete(llhttp_t *p)
{
    (void)p;
    mp.mcs++;
    if (mp.mode == 0 || mp.stopped) return 0;
    mp.stopped = 1;
    return mp.mode == 1 ? HPE_PAUSED : -1;
}
static int mp_message_complete(llhttp_t *p)
{
    (void)p;
    mp.completes++;
    return 0;
}

static void test_method_pause_split(void)
{
    /* llhttp matches a method with its trie: "GETX" is GET, then a byte that is no SP. A pause
     * in on_method or on_method_complete there stands at that byte and refuses it after the
     * resume; an error there is at that byte too. Every split, resumed where llhttp says. */
    static const struct {
        const char *in, *method;
        ptrdiff_t bad; /* the refused byte, or -1 */
    } cs[] = {
        {"GETX / HTTP/1.1\r\n\r\n", "GET", 3},
        {"POSTX / HTTP/1.1\r\n\r\n", "POST", 4},
        {"PUTGeT / HTTP/1.1\r\n\r\n", "PUT", 3},
        {"POST / HTTP/1.1\r\n\r\n", "POST", -1},
        {"M-SEARCH * HTTP/1.1\r\n\r\n", "M-SEARCH", -1},
    };
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++)
        for (int mode = 0; mode < 3; mode++) /* on_method pauses; on_method_complete pauses; it fails */
            for (size_t cut = 1; cut < strlen(cs[i].in); cut++) {
                const char *in = cs[i].in;
                size_t len = strlen(in);
                llhttp_settings_t s;
                llhttp_settings_init(&s);
                s.on_method = mp_method;
                s.on_method_complete = mp_method_complete;
                s.on_message_complete = mp_message_complete;
                llhttp_t p;
                llhttp_init(&p, HTTP_REQUEST, &s);
                memset(&mp, 0, sizeof mp);
                mp.mode = mode;
                llhttp_errno_t e = feed(&p, in, cut);
                if (e == HPE_OK) e = feed(&p, in + cut, len - cut);
                const char *pos = llhttp_get_error_pos(&p), *why = llhttp_get_error_reason(&p);
                int ok = mp.mcs == 1 && strcmp(mp.method, cs[i].method) == 0;
                if (mode == 2)
                    ok = ok && e == HPE_CB_METHOD_COMPLETE && (cs[i].bad < 0 || pos == in + cs[i].bad);
                else if (cs[i].bad >= 0)
                    ok = ok && e == HPE_INVALID_METHOD && pos == in + cs[i].bad && why &&
                         strcmp(why, "Expected space after method") == 0;
                else
                    ok = ok && e == HPE_OK && mp.completes == 1;
                if (!t_check(ok, "a pause or an error in the method's callbacks, the method split anywhere",
                             "input %zu, mode %d, split %zu: %s at %td \"%s\", method \"%s\", %d on_method_complete, "
                             "%d message(s)", i, mode, cut, llhttp_errno_name(e), pos ? pos - in : -1,
                             why ? why : "(null)", mp.method, mp.mcs, mp.completes))
                    return;
            }
}

/* ---- type both: the method span while telling a request from a response ---- */

static struct {
    const char *in;
    size_t len, pieces, out;
    int outside;
    char bytes[16];
} bm;
static int bm_method(llhttp_t *p, const char *at, size_t n)
{
    (void)p;
    if (at < bm.in || at + n > bm.in + bm.len || (size_t)(at - bm.in) != bm.out) bm.outside++;
    if (n) bm.pieces++;
    if (bm.out + n <= sizeof bm.bytes) memcpy(bm.bytes + bm.out, at, n);
    bm.out += n;
    return 0;
}

static void test_both_method_pieces(void)
{
    /* llhttp begins a method span at the "H" of a type-both parser's first message and gives
     * it as it comes, from the program's buffer: "HTTP/" of a response, or "HEAD". Split
     * anywhere, with and without an execute() of no bytes at the split. */
    static const struct {
        const char *in, *method;
    } cs[] = {
        {"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", "HTTP/"},
        {"\r\nHTTP/1.0 204 No\r\n\r\n", "HTTP/"},
        {"HEAD / HTTP/1.1\r\n\r\n", "HEAD"},
    };
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++)
        for (int empty = 0; empty < 2; empty++)
            for (size_t cut = 1; cut < strlen(cs[i].in); cut++) {
                const char *in = cs[i].in;
                size_t len = strlen(in), mstart = strcspn(in, "H"), mlen = strlen(cs[i].method);
                llhttp_settings_t s;
                llhttp_settings_init(&s);
                s.on_method = bm_method;
                llhttp_t p;
                llhttp_init(&p, HTTP_BOTH, &s);
                memset(&bm, 0, sizeof bm);
                bm.in = in, bm.len = len, bm.out = mstart;
                llhttp_errno_t e = llhttp_execute(&p, in, cut);
                if (e == HPE_OK && empty) e = llhttp_execute(&p, in + cut, 0);
                if (e == HPE_OK) e = llhttp_execute(&p, in + cut, len - cut);
                size_t want = cut > mstart && cut < mstart + mlen ? 2 : 1;
                int ok = e == HPE_OK && !bm.outside && bm.out == mstart + mlen && bm.pieces == want &&
                         memcmp(bm.bytes + mstart, cs[i].method, mlen) == 0;
                if (!t_check(ok, "type both: the method span from the buffer, as it comes",
                             "input %zu, empty %d, split %zu: %s, %zu piece(s), %d outside or out of order, %zu bytes",
                             i, empty, cut, llhttp_errno_name(e), bm.pieces, bm.outside, bm.out - mstart))
                    return;
            }
}

/* ---- resumed in pieces smaller than what the parser took before the pause ---- */

static struct {
    char log[512];
    size_t n;
    int events, pause_at, last;
} rs;
static void rs_put(int kind, const char *at, size_t n)
{
    if (kind != rs.last && rs.n < sizeof rs.log) rs.log[rs.n++] = (char)('A' + kind);
    rs.last = kind;
    for (size_t i = 0; i < n && rs.n < sizeof rs.log; i++) rs.log[rs.n++] = at[i];
}
static int rs_ret(void) { return rs.events++ == rs.pause_at ? HPE_PAUSED : 0; }
#define RS_SPAN(name, kind) \
    static int rs_##name(llhttp_t *p, const char *at, size_t n) { (void)p; rs_put(kind, at, n); return rs_ret(); }
#define RS_NOTE(name, kind) \
    static int rs_##name(llhttp_t *p) { (void)p; rs_put(kind, NULL, 0); rs.last = -1; return rs_ret(); }
RS_SPAN(method, 0)
RS_SPAN(url, 1)
RS_SPAN(version, 2)
RS_SPAN(status, 3)
RS_SPAN(field, 4)
RS_SPAN(value, 5)
RS_SPAN(body, 6)
RS_NOTE(version_complete, 7)
RS_NOTE(headers_complete, 8)
RS_NOTE(message_complete, 9)

static void test_resume_in_small_pieces(void)
{
    /* After a pause the program resumes where llhttp_get_error_pos() says, one byte per call:
     * fewer bytes than the layer's core may have taken before the pause. The spans' bytes and
     * the events are the same as without a pause (against both libraries). */
    static const struct {
        const char *in;
        llhttp_type_t type;
    } cs[] = {
        {"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nab", HTTP_BOTH},
        {"GET /a?b HTTP/1.1\r\nHost: x\r\nX:  y \r\n\r\n", HTTP_REQUEST},
        {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n", HTTP_REQUEST},
    };
    llhttp_settings_t s;
    llhttp_settings_init(&s);
    s.on_method = rs_method, s.on_url = rs_url, s.on_version = rs_version, s.on_status = rs_status;
    s.on_header_field = rs_field, s.on_header_value = rs_value, s.on_body = rs_body;
    s.on_version_complete = rs_version_complete, s.on_headers_complete = rs_headers_complete;
    s.on_message_complete = rs_message_complete;
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
        const char *in = cs[i].in;
        size_t len = strlen(in);
        llhttp_t p;
        memset(&rs, 0, sizeof rs);
        rs.pause_at = -1, rs.last = -1;
        llhttp_init(&p, cs[i].type, &s);
        llhttp_errno_t e = llhttp_execute(&p, in, len);
        char want[sizeof rs.log];
        size_t wn = rs.n;
        memcpy(want, rs.log, wn);
        int total = rs.events;
        if (!t_check(e == HPE_OK, "resumed in pieces: the input parses", "input %zu: %s", i, llhttp_errno_name(e)))
            continue;
        for (int k = 0; k < total; k++) {
            memset(&rs, 0, sizeof rs);
            rs.pause_at = k, rs.last = -1;
            llhttp_init(&p, cs[i].type, &s);
            e = llhttp_execute(&p, in, len);
            if (e == HPE_PAUSED) {
                const char *pos = llhttp_get_error_pos(&p);
                llhttp_resume(&p);
                e = HPE_OK;
                for (const char *c = pos; c < in + len && e == HPE_OK; c++) e = llhttp_execute(&p, c, 1);
                if (e == HPE_OK && pos == in + len) e = llhttp_execute(&p, in + len, 0); /* what follows the pause */
            }
            if (!t_check(e == HPE_OK && rs.n == wn && memcmp(rs.log, want, wn) == 0,
                         "resumed one byte at a time after a pause: the same spans and events",
                         "input %zu, pause at event %d: %s, log \"%.*s\" against \"%.*s\"", i, k,
                         llhttp_errno_name(e), (int)rs.n, rs.log, (int)wn, want))
                break;
        }
    }
}

/* ---- PRI: the start of HTTP/2's connection preface ---- */

static int pri_pause;
static int pri_version_complete(llhttp_t *p) { (void)p; return pri_pause ? HPE_PAUSED : 0; }

static void test_pri_preface(void)
{
    /* llhttp takes a PRI request line of any version as the start of HTTP/2's preface (RFC
     * 9113 section 3.4) and expects its rest from the line's CR on: after it, the sticky
     * HPE_PAUSED_H2_UPGRADE; at the first byte that differs, HPE_INVALID_VERSION; no head
     * callbacks either way. Split anywhere, with and without a pause in on_version_complete. */
    static const struct {
        const char *in;
        llhttp_errno_t e;
        ptrdiff_t at; /* the error's position; -1: the input ends inside the preface */
        llhttp_type_t type;
    } cs[] = {
        {"PRI * HTTP/1.1\r\n\r\nSM\r\n\r\nGET", HPE_PAUSED_H2_UPGRADE, 24, HTTP_REQUEST},
        {"PRI * HTTP/1.0\r\n\r\nSM\r\n\r\n", HPE_PAUSED_H2_UPGRADE, 24, HTTP_BOTH},
        {"PRI / HTTP/1.1\r\nHost: a\r\n\r\n", HPE_INVALID_VERSION, 16, HTTP_REQUEST},
        {"PRI * HTTP/1.1\r\n\r\nSX\r\n\r\n", HPE_INVALID_VERSION, 19, HTTP_BOTH},
        {"PRI * HTTP/1.1\r\n\r\nSM\r\n", HPE_OK, -1, HTTP_REQUEST},
    };
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++)
        for (pri_pause = 0; pri_pause < 2; pri_pause++)
            for (size_t cut = 1; cut <= strlen(cs[i].in); cut++) {
                const char *in = cs[i].in;
                size_t len = strlen(in);
                rec r;
                llhttp_t p;
                setup(&p, &r, cs[i].type);
                settings.on_version_complete = pri_version_complete;
                llhttp_errno_t e = feed(&p, in, cut);
                if (e == HPE_OK && cut < len) e = feed(&p, in + cut, len - cut);
                const char *pos = llhttp_get_error_pos(&p), *why = llhttp_get_error_reason(&p);
                int ok = e == cs[i].e && r.headers == 0 && r.complete == 0;
                if (cs[i].at >= 0) {
                    const char *want = e == HPE_PAUSED_H2_UPGRADE ? "Pause on PRI/Upgrade" : "Expected HTTP/2 Connection Preface";
                    ok = ok && pos == in + cs[i].at && why && strcmp(why, want) == 0 &&
                         llhttp_execute(&p, LIT("GET / HTTP/1.1\r\n\r\n")) == e && r.headers == 0;
                } else {
                    ok = ok && llhttp_finish(&p) == HPE_INVALID_EOF_STATE && llhttp_get_errno(&p) == HPE_OK;
                }
                if (!t_check(ok, "PRI: HTTP/2's preface awaited after the request line",
                             "input %zu, pause %d, split %zu: %s at %td \"%s\", %d head(s)", i, pri_pause, cut,
                             llhttp_errno_name(e), pos ? pos - in : -1, why ? why : "(null)", r.headers))
                    return;
            }
}

/* ---- on_headers_complete's return values, upgrades ---- */

static void test_skip_and_upgrade(void)
{
    llhttp_t p;
    rec r;
    /* 1: no body (the answer to a HEAD request), the next message follows at once */
    setup(&p, &r, HTTP_RESPONSE);
    r.hc_ret = 1;
    llhttp_errno_t e = llhttp_execute(&p, LIT("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"
                                             "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"));
    t_check(e == HPE_OK && r.complete == 2 && r.body == 0 && (p.flags & F_SKIPBODY) == 0, "skip body",
            "%s, %d messages, %d body spans", llhttp_errno_name(e), r.complete, r.body);

    /* 2: no body, and execute returns HPE_PAUSED_UPGRADE after the message */
    static const char up[] = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nrest";
    setup(&p, &r, HTTP_RESPONSE);
    r.hc_ret = 2;
    e = llhttp_execute(&p, LIT(up));
    t_check(e == HPE_PAUSED_UPGRADE && r.complete == 1 && llhttp_get_error_pos(&p) == up + 38, "skip body and upgrade",
            "%s, %d messages, at %td", llhttp_errno_name(e), r.complete, llhttp_get_error_pos(&p) - up);

    /* an Upgrade request: the bytes after the head are the other protocol */
    static const char ws[] = "GET /chat HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n\x81\x05hello";
    setup(&p, &r, HTTP_REQUEST);
    e = llhttp_execute(&p, LIT(ws));
    t_check(e == HPE_PAUSED_UPGRADE && p.upgrade == 1 && r.upgrade_at_hc == 1 && r.complete == 1 &&
                llhttp_get_error_pos(&p) == ws + 63 && (r.flags_at_hc & F_CONNECTION_UPGRADE),
            "upgrade request", "%s upgrade=%d at %td", llhttp_errno_name(e), p.upgrade, llhttp_get_error_pos(&p) - ws);
    t_check(llhttp_finish(&p) == HPE_OK, "finish after an upgrade", "finish");

    /* CONNECT: a tunnel follows the head */
    static const char co[] = "CONNECT a:443 HTTP/1.1\r\n\r\nxyz";
    setup(&p, &r, HTTP_REQUEST);
    e = llhttp_execute(&p, LIT(co));
    t_check(e == HPE_PAUSED_UPGRADE && r.upgrade_at_hc == 1 && llhttp_get_error_pos(&p) == co + 26, "CONNECT",
            "%s at %td", llhttp_errno_name(e), llhttp_get_error_pos(&p) - co);

    /* declining the upgrade: go on parsing HTTP */
    static const char two[] = "GET / HTTP/1.1\r\nConnection: upgrade\r\nUpgrade: h2c\r\n\r\nGET /2 HTTP/1.1\r\n\r\n";
    setup(&p, &r, HTTP_REQUEST);
    e = llhttp_execute(&p, LIT(two));
    const char *pos = llhttp_get_error_pos(&p);
    t_check(e == HPE_PAUSED_UPGRADE, "upgrade h2c", "%s", llhttp_errno_name(e));
    const char *why = llhttp_get_error_reason(&p);
    llhttp_resume_after_upgrade(&p);
    t_check(why && llhttp_get_error_reason(&p) == why, "resume_after_upgrade keeps the reason", "%s",
            llhttp_get_error_reason(&p) ? llhttp_get_error_reason(&p) : "NULL");
    e = llhttp_execute(&p, pos, (size_t)(two + sizeof two - 1 - pos));
    t_check(e == HPE_OK && r.complete == 2, "resume_after_upgrade", "%s, %d messages", llhttp_errno_name(e), r.complete);
}

/* ---- bodies, chunked, finish ---- */
static int sl_pause_url(llhttp_t *p, const char *at, size_t n) { (void)p, (void)at, (void)n; return HPE_PAUSED; }

static void test_bodies(void)
{
    llhttp_t p;
    rec r;
    setup(&p, &r, HTTP_RESPONSE);
    llhttp_errno_t e = llhttp_execute(&p, LIT("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                             "3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"));
    t_check(e == HPE_OK && r.complete == 1 && r.chunk_headers == 3 && r.chunk_len == 0 && r.body_len == 5 &&
                memcmp(r.body_bytes, "abcde", 5) == 0 && (r.flags_at_hc & F_CHUNKED),
            "chunked", "%s, %d chunk headers, body %.*s", llhttp_errno_name(e), r.chunk_headers, (int)r.body_len,
            r.body_bytes);

    setup(&p, &r, HTTP_RESPONSE);
    e = llhttp_execute(&p, LIT("HTTP/1.1 200 OK\r\n\r\nuntil close"));
    t_check(e == HPE_OK && r.complete == 0 && llhttp_message_needs_eof(&p) == 1 && llhttp_should_keep_alive(&p) == 0,
            "body until close", "%s needs_eof=%d", llhttp_errno_name(e), llhttp_message_needs_eof(&p));
    e = llhttp_finish(&p);
    t_check(e == HPE_OK && r.complete == 1 && r.body_len == 11, "finish completes it", "%s, %d", llhttp_errno_name(e),
            r.complete);
    /* After the close ended that body (RFC 9112 6.3: the message ends at the close), the layer
     * completes it once and takes no more bytes for it. llhttp 8.1 and 9.x leave the parser in
     * the body: each further finish calls on_message_complete again, and bytes given after
     * the close are more body (docs/compat.md, "What differs"). */
    llhttp_errno_t f2 = llhttp_finish(&p);
    int after_f2 = r.complete;
    e = llhttp_execute(&p, LIT("more"));
#ifdef LLHTTP_SIMDHTTP
    t_check(f2 == HPE_OK && after_f2 == 1 && e == HPE_CLOSED_CONNECTION && r.body_len == 11 &&
                llhttp_finish(&p) == HPE_OK && r.complete == 1,
            "after the close", "finish again %s (%d complete), then execute %s, body %zu", llhttp_errno_name(f2),
            after_f2, llhttp_errno_name(e), r.body_len);
#else
    t_check(f2 == HPE_OK && after_f2 == 2 && e == HPE_OK && r.body_len == 15 && llhttp_finish(&p) == HPE_OK &&
                r.complete == 3,
            "after the close (llhttp: more body, more completions)", "finish again %s (%d complete), then execute %s",
            llhttp_errno_name(f2), after_f2, llhttp_errno_name(e));
#endif

    setup(&p, &r, HTTP_REQUEST);
    e = llhttp_execute(&p, LIT("GET / HTTP/1.1\r\nHost:"));
    t_check(e == HPE_OK && llhttp_finish(&p) == HPE_INVALID_EOF_STATE, "finish in a head", "INVALID_EOF_STATE");
    /* finish's error leaves the position as the last execute left it (none here), in llhttp and
     * in the layer: the layer's header said NULL, true only when no execute had stopped */
    t_check(llhttp_get_error_pos(&p) == NULL, "finish in a head: error_pos", "%p",
            (const void *)llhttp_get_error_pos(&p));
    /* and changes nothing else: the error is finish's answer, not the parser's, and bytes given
     * after it go on parsing (llhttp 8.1; the layer's finish made it stick before) */
    e = llhttp_execute(&p, LIT(" a\r\n\r\n"));
    t_check(e == HPE_OK && llhttp_get_errno(&p) == HPE_OK && r.complete == 1, "finish in a head, then more bytes",
            "%s, %d complete", llhttp_errno_name(e), r.complete);
    {
        static const char in[] = "GET / HTTP/1.1\r\nHost: a";
        llhttp_settings_t ps;
        llhttp_settings_init(&ps);
        ps.on_url = sl_pause_url;
        llhttp_init(&p, HTTP_REQUEST, &ps);
        e = llhttp_execute(&p, in, sizeof in - 1);
        llhttp_resume(&p);
        llhttp_errno_t f = e == HPE_PAUSED ? llhttp_finish(&p) : e;
        t_check(f == HPE_INVALID_EOF_STATE && llhttp_get_error_pos(&p) == in + 5, "finish after a pause: error_pos",
                "%s, %s at +%td", llhttp_errno_name(e), llhttp_errno_name(f), llhttp_get_error_pos(&p) - in);
    }

    setup(&p, &r, HTTP_REQUEST);
    t_check(llhttp_execute(&p, LIT("GET / HTTP/1.1\r\n\r\n")) == HPE_OK && llhttp_finish(&p) == HPE_OK,
            "finish between messages", "OK");

    /* on_reset before every message but the first */
    setup(&p, &r, HTTP_REQUEST);
    e = llhttp_execute(&p, LIT("GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n"));
    t_check(e == HPE_OK && r.begin == 3 && r.reset == 2, "on_reset", "%d begins, %d resets", r.begin, r.reset);

    /* type both becomes the first message's type */
    setup(&p, &r, HTTP_BOTH);
    e = llhttp_execute(&p, LIT("HTTP/1.1 204 No Content\r\n\r\n"));
    t_check(e == HPE_OK && p.type == HTTP_RESPONSE && p.status_code == 204 && llhttp_get_status_code(&p) == 204,
            "type both", "type %d status %d", p.type, p.status_code);
}

/* ---- the start line's fields at its notifications ----
 * The layer sets method and type in on_method when the SP follows in the same buffer, and
 * calls on_method_complete and (once the type is decided) on_version without code of its own
 * between: every split, with and without a pause in the first method span, must give what
 * llhttp gives. */

#define SL_MSGS 2
static struct sl {
    int msg, pause_method, mc[SL_MSGS], mc_type[SL_MSGS], vc[SL_MSGS];
    char method[SL_MSGS][12], version[SL_MSGS][8];
} sl;
static void sl_add(char *dst, size_t cap, const char *at, size_t n)
{
    size_t k = strlen(dst);
    if (k + n < cap) memcpy(dst + k, at, n), dst[k + n] = 0;
}
static int sl_begin(llhttp_t *p) { (void)p; sl.msg++; return 0; }
static int sl_method(llhttp_t *p, const char *at, size_t n)
{
    (void)p;
    if (sl.msg <= SL_MSGS) sl_add(sl.method[sl.msg - 1], sizeof sl.method[0], at, n);
    if (!sl.pause_method) return 0;
    sl.pause_method = 0;
    return HPE_PAUSED;
}
static int sl_method_complete(llhttp_t *p)
{
    if (sl.msg <= SL_MSGS) sl.mc[sl.msg - 1] = 100 + p->method, sl.mc_type[sl.msg - 1] = p->type;
    return 0;
}
static int sl_version(llhttp_t *p, const char *at, size_t n)
{
    (void)p;
    if (sl.msg <= SL_MSGS) sl_add(sl.version[sl.msg - 1], sizeof sl.version[0], at, n);
    return 0;
}
static int sl_version_complete(llhttp_t *p)
{
    if (sl.msg <= SL_MSGS) sl.vc[sl.msg - 1] = p->http_major * 10 + p->http_minor;
    return 0;
}
static int sl_mc_ret;
static int sl_fail_method_complete(llhttp_t *p) { (void)p; return sl_mc_ret; }
static int sl_fail_version_complete(llhttp_t *p) { (void)p; return -1; }
static int sl_pause_method(llhttp_t *p, const char *at, size_t n) { (void)p, (void)at, (void)n; return HPE_PAUSED; }
static int sl_version_ret;
static int sl_fail_version(llhttp_t *p, const char *at, size_t n) { (void)p, (void)at, (void)n; return sl_version_ret; }
static llhttp_errno_t feed(llhttp_t *p, const char *d, size_t n)
{
    llhttp_errno_t e = llhttp_execute(p, d, n);
    while (e == HPE_PAUSED) {
        const char *pos = llhttp_get_error_pos(p);
        llhttp_resume(p);
        e = llhttp_execute(p, pos, (size_t)(d + n - pos));
    }
    return e;
}

static void test_start_line(void)
{
    static const struct {
        const char *in;
        llhttp_type_t type;
        int mc[SL_MSGS], vc[SL_MSGS]; /* 100 + method at on_method_complete (0: none); 10 * major + minor */
        const char *method[SL_MSGS];
    } cs[] = {
        {"GET / HTTP/1.1\r\n\r\nM-SEARCH * HTTP/1.0\r\n\r\n", HTTP_REQUEST, {100 + HTTP_GET, 100 + HTTP_MSEARCH}, {11, 10}, {"GET", "M-SEARCH"}},
        {"GET / HTTP/1.1\r\n\r\nM-SEARCH * HTTP/1.0\r\n\r\n", HTTP_BOTH, {100 + HTTP_GET, 100 + HTTP_MSEARCH}, {11, 10}, {"GET", "M-SEARCH"}},
        {"HEAD / HTTP/1.1\r\n\r\nPURGE /a HTTP/1.0\r\n\r\n", HTTP_BOTH, {100 + HTTP_HEAD, 100 + HTTP_PURGE}, {11, 10}, {"HEAD", "PURGE"}},
        {"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.0 204 No\r\n\r\n", HTTP_BOTH, {0, 0}, {11, 10}, {"HTTP/", ""}},
    };
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
        size_t len = strlen(cs[i].in);
        for (size_t cut = 0; cut <= len; cut++)
            for (int pause = 0; pause < 2; pause++) {
                llhttp_t p;
                rec r;
                setup(&p, &r, cs[i].type);
                settings.on_message_begin = sl_begin;
                settings.on_method = sl_method;
                settings.on_method_complete = sl_method_complete;
                settings.on_version = sl_version;
                settings.on_version_complete = sl_version_complete;
                memset(&sl, 0, sizeof sl);
                sl.pause_method = pause;
                llhttp_errno_t e = feed(&p, cs[i].in, cut);
                if (e == HPE_OK) e = feed(&p, cs[i].in + cut, len - cut);
                int ok = e == HPE_OK && sl.msg == SL_MSGS;
                for (int m = 0; m < SL_MSGS; m++)
                    ok = ok && sl.mc[m] == cs[i].mc[m] && (sl.mc[m] == 0 || sl.mc_type[m] == HTTP_REQUEST) &&
                         sl.vc[m] == cs[i].vc[m] && strcmp(sl.method[m], cs[i].method[m]) == 0 &&
                         strcmp(sl.version[m], cs[i].vc[m] == 11 ? "1.1" : "1.0") == 0;
                if (!t_check(ok, "start line fields at every split", "%zu split at %zu, pause %d: %s, %d messages, "
                             "method %d/%d type %d \"%s\" \"%s\", version %d/%d \"%s\" \"%s\"", i, cut, pause,
                             llhttp_errno_name(e), sl.msg, sl.mc[0], sl.mc[1], sl.mc_type[0], sl.method[0], sl.method[1],
                             sl.vc[0], sl.vc[1], sl.version[0], sl.version[1]))
                    return;
            }
    }
    /* on_method_complete's own return values */
    llhttp_t p;
    rec r;
    llhttp_errno_t e;
    setup(&p, &r, HTTP_REQUEST);
    settings.on_method_complete = sl_fail_method_complete;
    sl_mc_ret = -1;
    e = llhttp_execute(&p, LIT("GET / HTTP/1.1\r\n\r\n"));
    t_check(e == HPE_CB_METHOD_COMPLETE && llhttp_get_error_pos(&p) != NULL && llhttp_get_error_reason(&p) != NULL,
            "on_method_complete -1", "%s", llhttp_errno_name(e));
    /* new settings between the method and its SP: on_method_complete still sees the method
     * ("GET" may go on as "GET_PARAMETER": llhttp completes it at the SP, with the new ones; the
     * layer takes them at the next execute()) */
    static llhttp_settings_t other;
    llhttp_settings_init(&other);
    other.on_method_complete = sl_method_complete;
    setup(&p, &r, HTTP_REQUEST);
    memset(&sl, 0, sizeof sl);
    sl.msg = 1;
    e = llhttp_execute(&p, LIT("GET"));
    p.settings = &other;
    if (e == HPE_OK) e = llhttp_execute(&p, LIT(" / HTTP/1.1\r\n\r\n"));
    t_check(e == HPE_OK && sl.mc[0] == 100 + HTTP_GET && sl.mc_type[0] == HTTP_REQUEST, "settings changed in a method",
            "%s, method %d type %d", llhttp_errno_name(e), sl.mc[0] - 100, sl.mc_type[0]);
    /* "PUT" no method goes on from: llhttp completes it at its last letter, with the settings
     * of that execute() (none here), and not again at the SP */
    setup(&p, &r, HTTP_REQUEST);
    memset(&sl, 0, sizeof sl);
    sl.msg = 1;
    e = llhttp_execute(&p, LIT("PUT"));
    p.settings = &other;
    if (e == HPE_OK) e = llhttp_execute(&p, LIT(" / HTTP/1.1\r\n\r\n"));
    t_check(e == HPE_OK && sl.mc[0] == 0, "a method completed at a buffer's end", "%s, method %d",
            llhttp_errno_name(e), sl.mc[0] - 100);
    /* type both's "HTTP/" method span paused: the version span still comes after the resume,
     * and its own result counts */
    static const char resp[] = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    for (int ret = 0; ret < 3; ret++) {
        setup(&p, &r, HTTP_BOTH);
        settings.on_method = sl_pause_method;
        settings.on_version = sl_fail_version;
        sl_version_ret = 0;
        e = llhttp_execute(&p, LIT(resp));
        const char *pos = llhttp_get_error_pos(&p);
        int ok = e == HPE_PAUSED && pos && pos > resp && pos <= resp + 8;
        settings.on_method = NULL;
        sl_version_ret = ret == 0 ? 0 : ret == 1 ? -1 : HPE_PAUSED;
        llhttp_resume(&p);
        if (ok) e = llhttp_execute(&p, pos, (size_t)(resp + sizeof resp - 1 - pos));
        const char *epos = llhttp_get_error_pos(&p);
        if (ret == 0) ok = ok && e == HPE_OK && r.complete == 1;
        else if (ret == 1) ok = ok && e == HPE_USER && epos == resp + 8 && r.complete == 0;
        else {
            ok = ok && e == HPE_PAUSED && epos && epos <= resp + 8;
            sl_version_ret = 0;
            llhttp_resume(&p);
            if (ok) e = llhttp_execute(&p, epos, (size_t)(resp + sizeof resp - 1 - epos));
            ok = ok && e == HPE_OK && r.complete == 1;
        }
        t_check(ok, "pause before the version span", "on_version returns %d: %s at %td, %d complete", sl_version_ret,
                llhttp_errno_name(e), epos ? epos - resp : -1, r.complete);
    }
    setup(&p, &r, HTTP_RESPONSE);
    settings.on_version_complete = sl_fail_version_complete;
    e = llhttp_execute(&p, LIT("HTTP/1.1 200 OK\r\n\r\n"));
    t_check(e == HPE_CB_VERSION_COMPLETE && llhttp_get_error_reason(&p) != NULL, "on_version_complete -1", "%s",
            llhttp_errno_name(e));
    setup(&p, &r, HTTP_REQUEST);
    settings.on_method_complete = sl_fail_method_complete;
    sl_mc_ret = HPE_PAUSED;
    static const char two[] = "GET /a HTTP/1.1\r\n\r\nPOST /b HTTP/1.1\r\n\r\n";
    e = llhttp_execute(&p, LIT(two));
    const char *pos = llhttp_get_error_pos(&p);
    const char *want = two + 3; /* at the SP, which llhttp has not taken yet (the layer too) */
    t_check(e == HPE_PAUSED && pos == want && r.url_spans == 0, "pause in on_method_complete", "%s at %td",
            llhttp_errno_name(e), pos - two);
    sl_mc_ret = 0;
    llhttp_resume(&p);
    e = llhttp_execute(&p, pos, (size_t)(two + sizeof two - 1 - pos));
    t_check(e == HPE_OK && r.complete == 2 && r.method_at_url == HTTP_POST, "resume after on_method_complete",
            "%s, %d messages", llhttp_errno_name(e), r.complete);
}

/* ---- lenient switches: the state they keep; what 8.1 and 9.x share ---- */

static void test_lenient(void)
{
    llhttp_t p;
    rec r;
    static const char cl_te[] = "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n";
    setup(&p, &r, HTTP_REQUEST);
    t_check(llhttp_execute(&p, LIT(cl_te)) != HPE_OK, "CL with TE is refused", "strict");
    setup(&p, &r, HTTP_REQUEST);
    llhttp_set_lenient_chunked_length(&p, 1);
    t_check(p.lenient_flags == LENIENT_CHUNKED_LENGTH && llhttp_execute(&p, LIT(cl_te)) == HPE_OK,
            "lenient chunked_length", "flags %x", p.lenient_flags);
    llhttp_reset(&p);
    t_check(p.lenient_flags == LENIENT_CHUNKED_LENGTH && llhttp_execute(&p, LIT(cl_te)) == HPE_OK,
            "reset keeps lenient flags", "flags %x", p.lenient_flags);
    llhttp_set_lenient_chunked_length(&p, 0);
    t_check(p.lenient_flags == 0, "lenient off", "flags %x", p.lenient_flags);

    static const char ctl[] = "GET / HTTP/1.1\r\nX: a\x01z\r\n\r\n";
    setup(&p, &r, HTTP_REQUEST);
    t_check(llhttp_execute(&p, LIT(ctl)) == HPE_INVALID_HEADER_TOKEN, "a control byte in a value", "strict");
    setup(&p, &r, HTTP_REQUEST);
    llhttp_set_lenient_headers(&p, 1);
    t_check(llhttp_execute(&p, LIT(ctl)) == HPE_OK, "lenient headers: control byte", "lenient");

    /* lenient headers also ends an empty value at a CR without LF */
    static const char bare_cr[] = "GET / HTTP/1.1\r\nX:\rY: b\r\n\r\n";
#if LLHTTP_VERSION_MAJOR >= 9 /* 8.1 takes it even without the switch (its loose mode) */
    setup(&p, &r, HTTP_REQUEST);
    t_check(llhttp_execute(&p, LIT(bare_cr)) != HPE_OK, "a bare CR ending a field line", "strict");
#endif
    setup(&p, &r, HTTP_REQUEST);
    llhttp_set_lenient_headers(&p, 1);
    t_check(llhttp_execute(&p, LIT(bare_cr)) == HPE_OK && r.headers == 1, "lenient headers: bare CR", "%d heads",
            r.headers);

    static const char close2[] = "GET / HTTP/1.1\r\nConnection: close\r\n\r\nGET / HTTP/1.1\r\n\r\n";
    setup(&p, &r, HTTP_REQUEST);
    llhttp_set_lenient_keep_alive(&p, 1);
    t_check(llhttp_execute(&p, LIT(close2)) == HPE_OK && r.complete == 2, "lenient keep_alive", "%d messages",
            r.complete);

    static const char te[] = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\nabc";
    setup(&p, &r, HTTP_REQUEST);
    llhttp_set_lenient_transfer_encoding(&p, 1);
    t_check(llhttp_execute(&p, LIT(te)) == HPE_OK && r.body_len == 3, "lenient transfer_encoding", "body %zu",
            r.body_len);

#if LLHTTP_VERSION_MAJOR >= 9
    /* 9.x: the switches 8.1 does not have */
    static const struct { void (*set)(llhttp_t *, int); unsigned flag; const char *in; } sw[] = {
        /* 1.2 is HTTP/1.1 to simdhttp without a switch (RFC 9110 2.5); 2.0 needs it */
        {llhttp_set_lenient_version, LENIENT_VERSION, "GET / HTTP/2.0\r\n\r\n"},
        {llhttp_set_lenient_optional_cr_before_lf, LENIENT_OPTIONAL_CR_BEFORE_LF, "GET / HTTP/1.1\nA: b\n\n"},
        {llhttp_set_lenient_optional_lf_after_cr, LENIENT_OPTIONAL_LF_AFTER_CR, "GET / HTTP/1.1\rA: b\r\n\r\n"},
        {llhttp_set_lenient_spaces_after_chunk_size, LENIENT_SPACES_AFTER_CHUNK_SIZE,
         "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1 \r\nx\r\n0\r\n\r\n"},
        {llhttp_set_lenient_optional_crlf_after_chunk, LENIENT_OPTIONAL_CRLF_AFTER_CHUNK,
         "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx0\r\n\r\n"},
        {llhttp_set_lenient_header_value_relaxed, LENIENT_HEADER_VALUE_RELAXED, "GET / HTTP/1.1\r\nX: a\x01z\r\n\r\n"},
        /* chunked_length also lets a non-chunked Transfer-Encoding through (llhttp's meaning) */
        {llhttp_set_lenient_chunked_length, LENIENT_CHUNKED_LENGTH, "POST / HTTP/1.1\r\nTransfer-Encoding: identity\r\n\r\n"},
        /* headers also accepts obs-fold */
        {llhttp_set_lenient_headers, LENIENT_HEADERS, "GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n"},
    };
    for (size_t i = 0; i < sizeof sw / sizeof *sw; i++) {
        setup(&p, &r, HTTP_REQUEST);
        llhttp_errno_t strict = llhttp_execute(&p, sw[i].in, strlen(sw[i].in));
        setup(&p, &r, HTTP_REQUEST);
        sw[i].set(&p, 1);
        llhttp_errno_t lenient = llhttp_execute(&p, sw[i].in, strlen(sw[i].in));
        t_check(strict != HPE_OK && lenient == HPE_OK && p.lenient_flags == sw[i].flag, "9.x lenient switch",
                "%zu: strict %s, lenient %s, flags %x", i, llhttp_errno_name(strict), llhttp_errno_name(lenient),
                p.lenient_flags);
    }
    static const char close3[] = "GET / HTTP/1.1\r\nConnection: close\r\n\r\nGET / HTTP/1.1\r\n\r\n";
    setup(&p, &r, HTTP_REQUEST);
    llhttp_set_lenient_data_after_close(&p, 1);
    t_check(llhttp_execute(&p, LIT(close3)) == HPE_OK && r.complete == 1, "9.x data_after_close", "%d messages",
            r.complete);
#endif
}

#if LLHTTP_VERSION_MAJOR >= 9
/* 9.3+: on_protocol before the version; 9.x: QUERY */
static int protocol_spans;
static char protocol[8];
static int on_protocol(llhttp_t *p, const char *at, size_t n)
{
    (void)p;
    if (n < sizeof protocol) memcpy(protocol, at, n), protocol[n] = 0;
    protocol_spans++;
    return 0;
}
static void test_9x(void)
{
    llhttp_t p;
    rec r;
    setup(&p, &r, HTTP_REQUEST);
    settings.on_protocol = on_protocol;
    llhttp_errno_t e = llhttp_execute(&p, LIT("QUERY /q HTTP/1.1\r\nContent-Length: 1\r\n\r\nx"));
    t_check(e == HPE_OK && r.method_at_hc == HTTP_QUERY, "QUERY", "%s, method %d", llhttp_errno_name(e), r.method_at_hc);
    t_check(protocol_spans == 1 && strcmp(protocol, "HTTP") == 0, "on_protocol", "%d spans, %s", protocol_spans, protocol);
}
#endif

#ifdef LLHTTP_SIMDHTTP
/* The layer's limits (llhttp has none): the defaults, llhttp_set_layer_limits at a limit and one
 * past it, kept by llhttp_reset, restored by llhttp_init. */
static int run_limits(llhttp_t *p, const char *in, size_t n)
{
    llhttp_errno_t e = llhttp_execute(p, in, n);
    return e == HPE_OK ? 0 : e == HPE_INTERNAL ? 1 : 2;
}

static void test_layer_limits(void)
{
    static char big[100000];
    llhttp_t p;
    rec r;
    size_t n = (size_t)sprintf(big, "GET / HTTP/1.1\r\nX: ");
    memset(big + n, 'v', 90000), n += 90000;
    memcpy(big + n, "\r\n\r\n", 4), n += 4; /* a 90023-byte head */
    setup(&p, &r, HTTP_REQUEST);
    int d = run_limits(&p, big, n);
    setup(&p, &r, HTTP_REQUEST);
    llhttp_set_layer_limits(&p, (uint32_t)n, 0);
    int at = run_limits(&p, big, n);
    llhttp_reset(&p);
    int reset = run_limits(&p, big, n);
    setup(&p, &r, HTTP_REQUEST);
    llhttp_set_layer_limits(&p, (uint32_t)n - 1, 0);
    int past = run_limits(&p, big, n);
    llhttp_init(&p, HTTP_REQUEST, &settings);
    p.data = &r;
    int init = run_limits(&p, big, n);
    t_check(d == 1 && at == 0 && reset == 0 && past == 1 && init == 1, "llhttp_set_layer_limits: head",
            "default %d, at %d, after reset %d, past %d, after init %d (0 ok, 1 HPE_INTERNAL)", d, at, reset, past,
            init);
    static const char ext[] = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;abcdefg\r\nhello\r\n0\r\n\r\n";
    setup(&p, &r, HTTP_REQUEST);
    llhttp_set_layer_limits(&p, 0, 8);
    at = run_limits(&p, LIT(ext));
    setup(&p, &r, HTTP_REQUEST);
    llhttp_set_layer_limits(&p, 0, 7);
    past = run_limits(&p, LIT(ext));
    t_check(at == 0 && past == 1, "llhttp_set_layer_limits: chunk line", "at %d, past %d", at, past);
}

/* llhttp_set_layer_mode and llhttp_get_layer_reasons: an obs-fold is refused in strict mode,
 * accepted in defensive mode with the connection closed after it (the verdict names it), and
 * read on in monitor mode. */
static void test_layer_mode(void)
{
    static const char in[] = "GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\nGET / HTTP/1.1\r\n\r\n";
    static const char *const modes[3] = {"strict", "defensive", "monitor"};
    static const unsigned want_msgs[3] = {0, 1, 2};
    static const llhttp_errno_t want_err[3] = {HPE_UNEXPECTED_SPACE, HPE_CLOSED_CONNECTION, HPE_OK};
    llhttp_t p;
    rec r;
    for (int i = 0; i < 3; i++) {
        setup(&p, &r, HTTP_REQUEST);
        int rc = llhttp_set_layer_mode(&p, modes[i]);
        llhttp_errno_t e = llhttp_execute(&p, LIT(in));
        uint32_t reasons = llhttp_get_layer_reasons(&p); /* the refused bytes' (strict: OBS_FOLD) */
        int ok = rc == 0 && (unsigned)r.complete == want_msgs[i] && e == want_err[i];
        if (i == 0) ok = ok && reasons == 1u << 2;
        if (i == 1) ok = ok && reasons == 1u << 30; /* DATA_AFTER_CLOSE */
        if (i == 2) ok = ok && reasons == 0 && llhttp_should_keep_alive(&p);
        t_check(ok, "llhttp_set_layer_mode", "%s: rc %d, %d messages, %s, reasons 0x%x", modes[i], rc, r.complete,
                llhttp_errno_name(e), (unsigned)reasons);
    }
    setup(&p, &r, HTTP_REQUEST);
    t_check(llhttp_set_layer_mode(&p, "lenient") == -1 && llhttp_set_layer_mode(&p, NULL) == -1,
            "llhttp_set_layer_mode: an unknown mode", "accepted");
}
#endif

int main(void)
{
    test_names();
    test_fields();
    test_pause();
    test_pause_method_complete();
    test_pause_reasons();
    test_field_lines();
    test_errors();
    test_url_reasons();
    test_version_empty_span();
    test_status_complete_split();
    test_zero_length_spans();
    test_quoted_ext_value_one_call();
    test_method_pause_split();
    test_pri_preface();
    test_both_method_pieces();
    test_resume_in_small_pieces();
    test_skip_and_upgrade();
    test_bodies();
    test_start_line();
    test_lenient();
#ifdef LLHTTP_SIMDHTTP
    test_layer_limits();
    test_layer_mode();
#endif
#if LLHTTP_VERSION_MAJOR >= 9
    test_9x();
#endif
    return t_summary();
}
