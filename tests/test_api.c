/* SPDX-License-Identifier: MIT */
/* The streaming API's control flow and the head API's details: pause/resume at every event,
 * user errors, reset, skip-body and upgrade returns, resume_after_upgrade, error and lenient
 * names, and the head API's fields_cap, INCOMPLETE and obs-fold behaviour. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#define LIT(s) s, sizeof(s) - 1


static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

/* ---- pause at every event index ---- */

static void test_pause_everywhere(const char *name, simdhttp_type type, const simdhttp_config *cfg, const char *in,
                                  size_t len)
{
    size_t one = 1;
    char *ref = t_stream_log(type, cfg, in, len, NULL, 0, 1, -1);
    size_t rl = strlen(ref);
    t_check(rl >= 3 && strcmp(ref + rl - 3, "ok\n") == 0, name, "reference parse failed:\n%s", ref);
    /* every callback is one event; the log has at most one line per event plus the result */
    int events = count_lines(ref) * 2 + 8, paused_total = 0, bad = 0;
    for (int i = 0; i < events && !bad; i++) {
        for (int mode = 0; mode < 2 && !bad; mode++) {
            char *l = mode ? t_stream_log(type, cfg, in, len, &one, 1, 1, i) : t_stream_log(type, cfg, in, len, NULL, 0, 1, i);
            int n = t_strip_pauses(l);
            paused_total += n;
            if (n > 1 || strcmp(l, ref) != 0) {
                bad = 1;
                t_check(0, name, "pause at event %d (%s): log differs (pauses=%d)\n--- expected:\n%s--- got:\n%s", i,
                        mode ? "byte by byte" : "whole", n, ref, l);
            }
            free(l);
        }
    }
    if (!bad) t_check(1, name, "pauses");
    /* pausing must actually have happened at many events (otherwise this test tests nothing) */
    t_check(paused_total >= count_lines(ref), name, "only %d pauses happened for %d log lines", paused_total,
            count_lines(ref));
    free(ref);
}

/* Pause at on_headers_complete: error_pos is the first body byte; execute on a paused parser
 * is refused; resume then execute from error_pos finishes the message. */
static int pause_hc(simdhttp_parser *p) { (void)p; return SIMDHTTP_PAUSE; }
static int count_mc(simdhttp_parser *p)
{
    (*(int *)p->data)++;
    return 0;
}
static size_t body_seen;
static int body_cb(simdhttp_parser *p, const char *at, size_t n)
{
    (void)p, (void)at;
    body_seen += n;
    return 0;
}

static void test_pause_position(void)
{
    static const char in[] = "POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcGET / HTTP/1.1\r\n\r\n";
    simdhttp_callbacks cb = {.on_headers_complete = pause_hc, .on_message_complete = count_mc, .on_body = body_cb};
    simdhttp_parser p;
    int done = 0;
    body_seen = 0;
    simdhttp_init(&p, SIMDHTTP_REQUEST, &cb, NULL);
    p.data = &done;
    simdhttp_errno e = simdhttp_execute(&p, LIT(in));
    t_check(e == SIMDHTTP_E_PAUSED, "pause position", "execute returned %s", simdhttp_errno_name(e));
    t_check(simdhttp_get_error_pos(&p) == in + 38, "pause position", "error_pos is +%td, want +38",
            simdhttp_get_error_pos(&p) - in);
    t_check(simdhttp_get_error_offset(&p) == 38, "pause position", "error_offset %llu",
            (unsigned long long)simdhttp_get_error_offset(&p));
    e = simdhttp_execute(&p, in + 38, sizeof in - 1 - 38);
    t_check(e == SIMDHTTP_E_PAUSED, "pause position", "execute on a paused parser returned %s, want PAUSED",
            simdhttp_errno_name(e));
    t_check(body_seen == 0 && done == 0, "pause position", "a paused parser consumed bytes");
    simdhttp_resume(&p);
    e = simdhttp_execute(&p, in + 38, sizeof in - 1 - 38);
    /* the second request pauses at its headers too */
    t_check(e == SIMDHTTP_E_PAUSED && body_seen == 3 && done == 1, "pause position",
            "after resume: %s, body %zu, messages %d", simdhttp_errno_name(e), body_seen, done);
    t_check(simdhttp_get_error_offset(&p) == sizeof in - 1, "pause position", "second pause at %llu",
            (unsigned long long)simdhttp_get_error_offset(&p));
    simdhttp_resume(&p);
    e = simdhttp_execute(&p, simdhttp_get_error_pos(&p), 0);
    t_check(e == SIMDHTTP_OK && done == 2, "pause position", "end: %s, messages %d", simdhttp_errno_name(e), done);
    t_check(simdhttp_finish(&p) == SIMDHTTP_OK, "pause position", "finish");
}

/* ---- empty input (issue 9, item 2) ----
 * execute(p, NULL, 0) and parse_head(h, t, NULL, 0, cfg) are defined: the same as any empty
 * buffer (the core computed NULL + 0, which UBSan aborts on); NULL with a length is refused. */
static void test_empty_input(void)
{
    simdhttp_callbacks cb = {.on_headers_complete = pause_hc, .on_message_complete = count_mc};
    simdhttp_parser p;
    int done = 0;
    simdhttp_init(&p, SIMDHTTP_REQUEST, &cb, NULL);
    p.data = &done;
    simdhttp_errno e = simdhttp_execute(&p, NULL, 0);
    t_check(e == SIMDHTTP_OK && done == 0, "execute(NULL, 0) before a message", "%s", simdhttp_errno_name(e));
    e = simdhttp_execute(&p, LIT("GET / HT"));
    e = e ? e : simdhttp_execute(&p, NULL, 0);
    t_check(e == SIMDHTTP_OK, "execute(NULL, 0) inside a message", "%s", simdhttp_errno_name(e));
    e = simdhttp_execute(&p, LIT("TP/1.1\r\n\r\n"));
    t_check(e == SIMDHTTP_E_PAUSED, "execute(NULL, 0) inside a message", "then %s", simdhttp_errno_name(e));
    e = simdhttp_execute(&p, NULL, 0);
    t_check(e == SIMDHTTP_E_PAUSED && done == 0, "execute(NULL, 0) on a paused parser", "%s, %d messages",
            simdhttp_errno_name(e), done);
    simdhttp_resume(&p);
    e = simdhttp_execute(&p, NULL, 0); /* completes the bodyless message, as any empty buffer */
    t_check(e == SIMDHTTP_OK && done == 1, "execute(NULL, 0) after resume", "%s, %d messages",
            simdhttp_errno_name(e), done);
    t_check(simdhttp_finish(&p) == SIMDHTTP_OK, "execute(NULL, 0) after resume", "finish");
    e = simdhttp_execute(&p, NULL, 5);
    t_check(e == SIMDHTTP_E_INVALID_ARGUMENT && simdhttp_get_errno(&p) == e &&
                simdhttp_get_error_reason(&p) != NULL && simdhttp_get_error_offset(&p) == 18,
            "execute(NULL, 5)", "%s at %llu", simdhttp_errno_name(e),
            (unsigned long long)simdhttp_get_error_offset(&p));

    simdhttp_field fields[4];
    simdhttp_head h = {.fields = fields, .fields_cap = 4};
    long r = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, NULL, 0, NULL);
    t_check(r == SIMDHTTP_HEAD_INCOMPLETE && h.error == SIMDHTTP_OK && h.num_fields == 0,
            "parse_head(NULL, 0)", "returned %ld (%s)", r, simdhttp_errno_name(h.error));
    /* after an error at a non-zero offset, the refused call's offset is its own (0) */
    r = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, LIT("GET / HTTP/1.1\r\nA\r\n\r\n"), NULL);
    t_check(r == SIMDHTTP_HEAD_ERROR && h.error_offset > 0, "parse_head, an error past 0", "returned %ld at %zu", r,
            h.error_offset);
    r = simdhttp_parse_head(&h, SIMDHTTP_BOTH, NULL, 3, NULL);
    t_check(r == SIMDHTTP_HEAD_ERROR && h.error == SIMDHTTP_E_INVALID_ARGUMENT && h.error_reason &&
                h.error_offset == 0,
            "parse_head(NULL, 3)", "returned %ld (%s) at %zu", r, simdhttp_errno_name(h.error), h.error_offset);

    /* a pause inside execute(NULL, 0): the position is NULL (the data given), not the library's
     * empty stand-in, so that the usual "len -= pos - data" gives 0, not the distance between
     * two unrelated objects (then a huge length on the next call) */
    simdhttp_callbacks pcb = {.on_headers_complete = pause_hc, .on_message_complete = pause_hc};
    simdhttp_init(&p, SIMDHTTP_REQUEST, &pcb, NULL);
    e = simdhttp_execute(&p, LIT("GET / HTTP/1.1\r\n\r\n"));
    simdhttp_resume(&p);
    e = e == SIMDHTTP_E_PAUSED ? simdhttp_execute(&p, NULL, 0) : e;
    t_check(e == SIMDHTTP_E_PAUSED && simdhttp_get_error_pos(&p) == NULL && simdhttp_get_error_offset(&p) == 18,
            "a pause in execute(NULL, 0)", "%s, position %p at %llu", simdhttp_errno_name(e),
            (const void *)simdhttp_get_error_pos(&p), (unsigned long long)simdhttp_get_error_offset(&p));
    simdhttp_resume(&p);
    t_check(simdhttp_finish(&p) == SIMDHTTP_OK, "a pause in execute(NULL, 0)", "finish");
}

/* A pause in on_status comes at the reason phrase's end, before its CR is consumed. An empty
 * execute() (documented: it consumes nothing) or finish() after resume read that CR and the
 * bytes after it, past the buffer given: parsing on in the caller's memory (the field lines
 * after it, then a bogus UNEXPECTED_SPACE) or past the library's empty stand-in. The input is
 * a malloc'd copy, so ASan sees a read past it too. */
static int reason_pauses, reason_done;
static int pause_reason(simdhttp_parser *p, const char *at, size_t n)
{
    (void)p, (void)at, (void)n;
    return reason_pauses++ == 0 ? SIMDHTTP_PAUSE : 0;
}
static int reason_mc(simdhttp_parser *p)
{
    (void)p;
    reason_done++;
    return 0;
}

static void test_pause_reason_end(void)
{
    static const char in[] = "HTTP/1.1 200 OK\r\nA: b\r\nContent-Length: 0\r\n\r\n";
    static const char *const how[] = {"execute(pos, 0)", "execute(NULL, 0)", "finish()"};
    simdhttp_callbacks cb = {.on_status = pause_reason, .on_message_complete = reason_mc};
    for (int mode = 0; mode < 3; mode++) {
        char *copy = malloc(sizeof in - 1);
        memcpy(copy, in, sizeof in - 1);
        simdhttp_parser p;
        simdhttp_init(&p, SIMDHTTP_RESPONSE, &cb, NULL);
        reason_pauses = reason_done = 0;
        simdhttp_errno e = simdhttp_execute(&p, copy, sizeof in - 1);
        size_t used = (size_t)(simdhttp_get_error_pos(&p) - copy);
        t_check(e == SIMDHTTP_E_PAUSED && used == 15, "pause at the reason's end", "%s at +%zu",
                simdhttp_errno_name(e), used);
        simdhttp_resume(&p);
        if (mode == 2) {
            e = simdhttp_finish(&p);
            t_check(e == SIMDHTTP_E_INVALID_EOF_STATE && reason_done == 0, "pause at the reason's end",
                    "then %s: %s, %d messages", how[mode], simdhttp_errno_name(e), reason_done);
        } else {
            e = simdhttp_execute(&p, mode ? NULL : copy + used, 0);
            t_check(e == SIMDHTTP_OK && reason_done == 0, "pause at the reason's end",
                    "then %s: %s (%s), %d messages", how[mode], simdhttp_errno_name(e),
                    e ? simdhttp_get_error_reason(&p) : "", reason_done);
            if (e == SIMDHTTP_OK) e = simdhttp_execute(&p, copy + used, sizeof in - 1 - used);
            t_check(e == SIMDHTTP_OK && reason_done == 1, "pause at the reason's end",
                    "then %s and the rest: %s, %d messages", how[mode], simdhttp_errno_name(e), reason_done);
        }
        free(copy);
    }
}

/* ---- finish() after a pause (issue 9, item 5) ---- */
static int mc_count;
static int count_mc2(simdhttp_parser *p)
{
    (void)p;
    mc_count++;
    return 0;
}
static int pause_mc(simdhttp_parser *p)
{
    (void)p;
    mc_count++;
    return SIMDHTTP_PAUSE;
}

/* pause at on_headers_complete, resume, then finish() with no other execute() */
static simdhttp_errno finish_after_hc_pause(simdhttp_type type, const char *in, size_t len)
{
    simdhttp_callbacks cb = {.on_headers_complete = pause_hc, .on_message_complete = count_mc2};
    simdhttp_parser p;
    mc_count = 0;
    simdhttp_init(&p, type, &cb, NULL);
    simdhttp_errno e = simdhttp_execute(&p, in, len);
    if (e != SIMDHTTP_E_PAUSED || simdhttp_get_error_offset(&p) != len) return SIMDHTTP_E_INVALID_ARGUMENT;
    simdhttp_resume(&p);
    return simdhttp_finish(&p);
}

static void test_finish_after_pause(void)
{
    simdhttp_errno e = finish_after_hc_pause(SIMDHTTP_RESPONSE, LIT("HTTP/1.1 200 OK\r\nA: b\r\n\r\n"));
    t_check(e == SIMDHTTP_OK && mc_count == 1, "finish after a pause: body until close",
            "%s, %d message complete", simdhttp_errno_name(e), mc_count);
    e = finish_after_hc_pause(SIMDHTTP_RESPONSE, LIT("HTTP/1.1 204 No Content\r\n\r\n"));
    t_check(e == SIMDHTTP_OK && mc_count == 1, "finish after a pause: no body", "%s, %d message complete",
            simdhttp_errno_name(e), mc_count);
    e = finish_after_hc_pause(SIMDHTTP_REQUEST, LIT("GET / HTTP/1.1\r\n\r\n"));
    t_check(e == SIMDHTTP_OK && mc_count == 1, "finish after a pause: bodyless request", "%s, %d",
            simdhttp_errno_name(e), mc_count);
    e = finish_after_hc_pause(SIMDHTTP_RESPONSE, LIT("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n"));
    t_check(e == SIMDHTTP_E_INVALID_EOF_STATE && mc_count == 0, "finish after a pause: body still due",
            "%s, %d", simdhttp_errno_name(e), mc_count);
    e = finish_after_hc_pause(SIMDHTTP_RESPONSE, LIT("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"));
    t_check(e == SIMDHTTP_E_INVALID_EOF_STATE && mc_count == 0, "finish after a pause: chunks still due",
            "%s, %d", simdhttp_errno_name(e), mc_count);
    /* finish() on a parser still paused: SIMDHTTP_E_PAUSED and nothing done (llhttp says OK
     * and does nothing, which hides a message left unfinished); after resume() it finishes */
    {
        simdhttp_callbacks pc = {.on_headers_complete = pause_hc, .on_message_complete = count_mc2};
        simdhttp_parser pp;
        mc_count = 0;
        simdhttp_init(&pp, SIMDHTTP_RESPONSE, &pc, NULL);
        simdhttp_errno a = simdhttp_execute(&pp, LIT("HTTP/1.1 200 OK\r\n\r\n"));
        simdhttp_errno b = simdhttp_finish(&pp), b2 = simdhttp_finish(&pp);
        int before = mc_count;
        simdhttp_resume(&pp);
        simdhttp_errno c = simdhttp_finish(&pp);
        t_check(a == SIMDHTTP_E_PAUSED && b == a && b2 == a && before == 0 && c == SIMDHTTP_OK && mc_count == 1,
                "finish on a paused parser", "%s %s %s, %d then %d message complete", simdhttp_errno_name(a),
                simdhttp_errno_name(b), simdhttp_errno_name(c), before, mc_count);
    }
    /* a pause at on_message_complete of an upgrade: the stream is not HTTP any more */
    simdhttp_callbacks cb = {.on_message_complete = pause_mc};
    simdhttp_parser p;
    mc_count = 0;
    simdhttp_init(&p, SIMDHTTP_REQUEST, &cb, NULL);
    e = simdhttp_execute(&p, LIT("GET / HTTP/1.1\r\nConnection: upgrade\r\nUpgrade: x\r\n\r\n"));
    simdhttp_resume(&p);
    e = e == SIMDHTTP_E_PAUSED ? simdhttp_finish(&p) : SIMDHTTP_E_INVALID_ARGUMENT;
    t_check(e == SIMDHTTP_OK && mc_count == 1, "finish after a pause at an upgrade's end", "%s, %d",
            simdhttp_errno_name(e), mc_count);
}

/* ---- error position after a sticky error (issue 9, item 5) ---- */
static void test_error_pos_sticky(void)
{
    simdhttp_parser p;
    simdhttp_init(&p, SIMDHTTP_REQUEST, NULL, NULL);
    static const char bad[] = "GET / HTTP/1.1\r\nA b: c\r\n\r\n";
    char *a = malloc(sizeof bad), *b = malloc(8);
    memcpy(a, bad, sizeof bad);
    memcpy(b, "GET / HT", 8);
    simdhttp_errno e = simdhttp_execute(&p, a, sizeof bad - 1);
    t_check(e == SIMDHTTP_E_UNEXPECTED_SPACE && simdhttp_get_error_pos(&p) == a + 17 &&
                simdhttp_get_error_offset(&p) == 17,
            "error position", "%s at +%td", simdhttp_errno_name(e), simdhttp_get_error_pos(&p) - a);
    e = simdhttp_execute(&p, b, 8);
    t_check(e == SIMDHTTP_E_UNEXPECTED_SPACE && simdhttp_get_error_pos(&p) == b &&
                simdhttp_get_error_offset(&p) == 17,
            "error position after a sticky error: in the last buffer, nothing consumed",
            "%s, pos %s, offset %llu", simdhttp_errno_name(e),
            simdhttp_get_error_pos(&p) == b ? "b" : "not in the last buffer",
            (unsigned long long)simdhttp_get_error_offset(&p));
    free(a);
    free(b);
    /* a paused parser keeps the pause's position: the caller goes on from it */
    simdhttp_callbacks cb = {.on_headers_complete = pause_hc};
    static const char in[] = "GET / HTTP/1.1\r\n\r\nGET";
    simdhttp_init(&p, SIMDHTTP_REQUEST, &cb, NULL);
    e = simdhttp_execute(&p, LIT(in));
    e = e == SIMDHTTP_E_PAUSED ? simdhttp_execute(&p, "x", 1) : e;
    t_check(e == SIMDHTTP_E_PAUSED && simdhttp_get_error_pos(&p) == in + 18, "error position while paused",
            "%s", simdhttp_errno_name(e));
}

/* ---- simdhttp_set_callbacks: from the next call, in whatever element the parse is ---- */
typedef struct {
    int a_headers, b_headers, b_urls, d_value_done, done;
    char value[16];
    size_t vlen;
} swap_log;
static const simdhttp_callbacks swap_b;
static int swap_a_url(simdhttp_parser *p, const char *at, size_t n)
{
    (void)at, (void)n;
    simdhttp_set_callbacks(p, &swap_b); /* from the next callback on */
    return 0;
}
static int swap_a_header(simdhttp_parser *p, const char *name, size_t nl, const char *v, size_t vl)
{
    (void)name, (void)nl, (void)v, (void)vl;
    ((swap_log *)p->data)->a_headers++;
    return 0;
}
static int swap_b_url(simdhttp_parser *p, const char *at, size_t n)
{
    (void)at, (void)n;
    ((swap_log *)p->data)->b_urls++;
    return 0;
}
static int swap_b_header(simdhttp_parser *p, const char *name, size_t nl, const char *v, size_t vl)
{
    (void)name, (void)nl, (void)v, (void)vl;
    ((swap_log *)p->data)->b_headers++;
    return 0;
}
static int swap_value(simdhttp_parser *p, const char *at, size_t n)
{
    swap_log *l = p->data;
    if (l->vlen + n < sizeof l->value) memcpy(l->value + l->vlen, at, n), l->vlen += n;
    return 0;
}
static int swap_value_done(simdhttp_parser *p)
{
    ((swap_log *)p->data)->d_value_done++;
    return 0;
}
static int swap_done(simdhttp_parser *p)
{
    ((swap_log *)p->data)->done++;
    return 0;
}
static const simdhttp_callbacks swap_b = {.on_url = swap_b_url, .on_header = swap_b_header};

static void test_set_callbacks(void)
{
    static const simdhttp_callbacks a = {.on_url = swap_a_url, .on_header = swap_a_header};
    simdhttp_parser p;
    swap_log l = {0};
    simdhttp_init(&p, SIMDHTTP_REQUEST, &a, NULL);
    p.data = &l;
    /* set from on_url: both field lines of the same call go to B (the field walk reads the
     * callbacks at each line, as every other callback site does), and the next call's */
    simdhttp_errno e = simdhttp_execute(&p, LIT("GET / HTTP/1.1\r\nX: y\r\nY: z\r\n\r\n"));
    t_check(e == SIMDHTTP_OK && l.a_headers == 0 && l.b_headers == 2 && l.b_urls == 0, "set_callbacks",
            "inside a callback: %s, A %d B %d fields", simdhttp_errno_name(e), l.a_headers, l.b_headers);
    e = simdhttp_execute(&p, LIT("GET /b HTTP/1.1\r\nX: y\r\n\r\n"));
    t_check(e == SIMDHTTP_OK && l.a_headers == 0 && l.b_headers == 3 && l.b_urls == 1, "set_callbacks",
            "next call: %s, A %d B %d fields, B %d urls", simdhttp_errno_name(e), l.a_headers, l.b_headers,
            l.b_urls);
    /* between calls, inside a field value: the rest of the value and its end go to the new ones */
    static const simdhttp_callbacks c = {.on_header_value = swap_value};
    static const simdhttp_callbacks d = {.on_header_value = swap_value,
                                         .on_header_value_complete = swap_value_done,
                                         .on_message_complete = swap_done};
    memset(&l, 0, sizeof l);
    simdhttp_init(&p, SIMDHTTP_REQUEST, &c, NULL);
    p.data = &l;
    e = simdhttp_execute(&p, LIT("GET / HTTP/1.1\r\nX: ab"));
    simdhttp_set_callbacks(&p, &d);
    e = e ? e : simdhttp_execute(&p, LIT("cd\r\n\r\n"));
    t_check(e == SIMDHTTP_OK && l.vlen == 4 && memcmp(l.value, "abcd", 4) == 0 && l.d_value_done == 1 && l.done == 1,
            "set_callbacks", "inside a value: %s, value '%.*s', %d value ends, %d messages", simdhttp_errno_name(e),
            (int)l.vlen, l.value, l.d_value_done, l.done);
    /* NULL: none (the parse goes on) */
    simdhttp_set_callbacks(&p, NULL);
    e = simdhttp_execute(&p, LIT("GET / HTTP/1.1\r\nX: ab\r\n\r\n"));
    t_check(e == SIMDHTTP_OK && l.done == 1 && l.vlen == 4, "set_callbacks", "NULL: %s, %d messages",
            simdhttp_errno_name(e), l.done);
}

/* ---- simdhttp_set_empty_spans: llhttp's zero-length spans, where llhttp gives them ---- */
typedef struct {
    char log[96];
    size_t len;
    int last; /* the last event: 1 a name's bytes, 2 a value's */
} empty_log;
/* '[' a name, '<' a value (one mark per run of spans of a kind), "0" a zero-length span, '>' a
 * value's end */
static int empty_put(simdhttp_parser *p, int kind, const char *s, size_t n)
{
    empty_log *l = p->data;
    char mark[2];
    size_t k = 0;
    if (kind == 3) mark[k++] = '>';
    else if (kind != l->last) mark[k++] = kind == 1 ? '[' : '<';
    if (kind != 3 && n == 0) mark[k++] = '0';
    if (l->len + k + n < sizeof l->log) {
        memcpy(l->log + l->len, mark, k);
        memcpy(l->log + l->len + k, s, n);
        l->len += k + n;
    }
    l->last = kind;
    return 0;
}
static int empty_field(simdhttp_parser *p, const char *at, size_t n) { return empty_put(p, 1, at, n); }
static int empty_value(simdhttp_parser *p, const char *at, size_t n) { return empty_put(p, 2, at, n); }
static int empty_value_done(simdhttp_parser *p) { return empty_put(p, 3, "", 0); }

static void test_empty_spans(void)
{
    static const simdhttp_callbacks cb = {.on_header_field = empty_field, .on_header_value = empty_value,
                                          .on_header_value_complete = empty_value_done};
    /* an empty value between two names: "X-A:" then Transfer-Encoding, whole (stage 2 hands
     * the line to the general path), in 1-byte pieces, and whitespace only */
    static const char in[] = "POST / HTTP/1.1\r\nX-A:\r\nTransfer-Encoding: chunked\r\nB: \t \r\n\r\n0\r\n\r\n";
    for (int on = 0; on <= 1; on++)
        for (size_t step = 1; step <= sizeof in - 1; step += step == 1 ? sizeof in - 2 : 1) {
            simdhttp_parser p;
            empty_log l = {0};
            simdhttp_init(&p, SIMDHTTP_REQUEST, &cb, NULL);
            p.data = &l;
            simdhttp_set_empty_spans(&p, on);
            simdhttp_set_lenient(&p, ~0u, 0); /* clears lenient flags only, not the option */
            simdhttp_reset(&p);               /* keeps it */
            p.data = &l;
            simdhttp_errno e = SIMDHTTP_OK;
            for (size_t i = 0; i < sizeof in - 1 && e == SIMDHTTP_OK; i += step)
                e = simdhttp_execute(&p, in + i, step < sizeof in - 1 - i ? step : sizeof in - 1 - i);
            l.log[l.len] = 0;
            /* in pieces, a name or value the next piece's first byte ends gets its end there with
             * no bytes too (llhttp restarts an open span at each execute()) */
            const char *want = !on ? "[X-A>[Transfer-Encoding<chunked>[B>"
                               : step == 1 ? "[X-A0<0>[Transfer-Encoding0<chunked0>[B0<0>"
                                           : "[X-A<0>[Transfer-Encoding<chunked>[B<0>";
            t_check(e == SIMDHTTP_OK && strcmp(l.log, want) == 0, "set_empty_spans",
                    "option %d, %zu-byte pieces: %s, log %s (want %s)", on, step, simdhttp_errno_name(e), l.log, want);
        }
}

/* ---- a callback's own error reason (issue 9, item 5) ---- */
static int reason_field(simdhttp_parser *p, const char *at, size_t n)
{
    (void)at, (void)n;
    simdhttp_set_error_reason(p, "field not allowed here");
    return *(int *)p->data;
}

static int plain_err(simdhttp_parser *p, const char *at, size_t n)
{
    (void)p, (void)at, (void)n;
    return -1;
}

static void test_set_error_reason(void)
{
    simdhttp_callbacks cb = {.on_header_field = reason_field};
    simdhttp_parser p;
    int ret = -1;
    simdhttp_init(&p, SIMDHTTP_REQUEST, &cb, NULL);
    p.data = &ret;
    simdhttp_errno e = simdhttp_execute(&p, LIT("GET / HTTP/1.1\r\nX: y\r\n\r\n"));
    const char *r = simdhttp_get_error_reason(&p);
    t_check(e == SIMDHTTP_E_USER && r && strcmp(r, "field not allowed here") == 0, "set_error_reason",
            "%s: %s", simdhttp_errno_name(e), r ? r : "(null)");
    simdhttp_reset(&p);
    t_check(simdhttp_get_error_reason(&p) == NULL, "set_error_reason", "reset keeps a reason");
    /* a pause takes the reason too; resume clears it, and the next error without one is generic */
    ret = SIMDHTTP_PAUSE;
    e = simdhttp_execute(&p, LIT("GET / HTTP/1.1\r\nX: y\r\n\r\n"));
    r = simdhttp_get_error_reason(&p);
    t_check(e == SIMDHTTP_E_PAUSED && r && strcmp(r, "field not allowed here") == 0, "set_error_reason, pause",
            "%s: %s", simdhttp_errno_name(e), r ? r : "(null)");
    simdhttp_resume(&p);
    t_check(simdhttp_get_error_reason(&p) == NULL, "set_error_reason", "resume keeps the reason");
    simdhttp_callbacks plain = {.on_header_field = plain_err};
    simdhttp_init(&p, SIMDHTTP_REQUEST, &plain, NULL);
    e = simdhttp_execute(&p, LIT("GET / HTTP/1.1\r\nX: y\r\n\r\n"));
    r = simdhttp_get_error_reason(&p);
    t_check(e == SIMDHTTP_E_USER && r && strcmp(r, "a callback returned an error") == 0, "no reason set",
            "%s: %s", simdhttp_errno_name(e), r ? r : "(null)");
}

/* ---- user errors ---- */

static int user_err_field(simdhttp_parser *p, const char *at, size_t n)
{
    (void)at, (void)n;
    return *(int *)p->data;
}

/* A callback's result: what it returned and which member it was; a pause value of the
 * caller's choice (a layer installs callbacks written for another API's contract). */
static int ret_data(simdhttp_parser *p, const char *at, size_t n) { (void)at, (void)n; return *(int *)p->data; }
static int ret_note(simdhttp_parser *p) { return *(int *)p->data; }
static void test_callback_result(void)
{
    static const char in[] = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";
    simdhttp_parser p;
    int ret = 21;
    size_t which = 99;
    simdhttp_callbacks cb = {.on_url = ret_data};
    simdhttp_init(&p, SIMDHTTP_REQUEST, &cb, NULL);
    t_check(simdhttp_get_callback_result(&p, &which) == 0 && which == 0, "callback result", "none after init");
    p.data = &ret;
    simdhttp_errno e = simdhttp_execute(&p, LIT(in));
    t_check(e == SIMDHTTP_E_USER && simdhttp_get_callback_result(&p, &which) == 21 &&
                which == offsetof(simdhttp_callbacks, on_url),
            "callback result", "%s, which %zu", simdhttp_errno_name(e), which);
    simdhttp_config cfg = {.pause_value = 21};
    simdhttp_init(&p, SIMDHTTP_REQUEST, &cb, &cfg);
    p.data = &ret;
    e = simdhttp_execute(&p, LIT(in));
    t_check(e == SIMDHTTP_E_PAUSED && simdhttp_get_error_offset(&p) == 5, "pause_value", "%s at %llu",
            simdhttp_errno_name(e), (unsigned long long)simdhttp_get_error_offset(&p));
    simdhttp_reset(&p); /* reset keeps the pause value */
    ret = SIMDHTTP_PAUSE; /* which is then an error like any other value */
    e = simdhttp_execute(&p, LIT(in));
    t_check(e == SIMDHTTP_E_USER && simdhttp_get_callback_result(&p, NULL) == SIMDHTTP_PAUSE, "pause_value",
            "SIMDHTTP_PAUSE is not a pause then: %s", simdhttp_errno_name(e));
    /* 1 and 2 are on_headers_complete's SKIP_BODY values: such a config is refused at once,
     * through reset too, instead of a pause that never happens in that one callback */
    for (int v = 1; v <= 2; v++) {
        simdhttp_config bad = {.pause_value = v};
        simdhttp_init(&p, SIMDHTTP_REQUEST, &cb, &bad);
        p.data = &ret;
        ret = v;
        e = simdhttp_execute(&p, LIT(in));
        simdhttp_errno f = simdhttp_finish(&p);
        const char *why = simdhttp_get_error_reason(&p);
        simdhttp_reset(&p);
        simdhttp_errno g = simdhttp_execute(&p, LIT(in));
        t_check(e == SIMDHTTP_E_INVALID_ARGUMENT && f == e && g == e && why && strstr(why, "pause_value") &&
                    simdhttp_get_error_offset(&p) == 0,
                "pause_value 1 or 2 refused", "%d: %s, %s, after reset %s", v, simdhttp_errno_name(e),
                simdhttp_errno_name(f), simdhttp_errno_name(g));
    }
    simdhttp_callbacks cb2 = {.on_header_value_complete = ret_note, .on_message_complete = ret_note};
    ret = -5;
    simdhttp_init(&p, SIMDHTTP_REQUEST, &cb2, NULL);
    p.data = &ret;
    e = simdhttp_execute(&p, LIT(in));
    t_check(e == SIMDHTTP_E_USER && simdhttp_get_callback_result(&p, &which) == -5 &&
                which == offsetof(simdhttp_callbacks, on_header_value_complete),
            "callback result", "notification: which %zu", which);
    simdhttp_callbacks cb3 = {.on_message_complete = ret_note};
    simdhttp_init(&p, SIMDHTTP_RESPONSE, &cb3, NULL);
    p.data = &ret;
    e = simdhttp_execute(&p, LIT("HTTP/1.1 200 OK\r\n\r\nbody"));
    t_check(e == SIMDHTTP_OK && simdhttp_finish(&p) == SIMDHTTP_E_USER &&
                simdhttp_get_callback_result(&p, &which) == -5 && which == offsetof(simdhttp_callbacks, on_message_complete),
            "callback result", "in finish: which %zu", which);
}

static void test_user_error(void)
{
    static const char in[] = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";
    simdhttp_callbacks cb = {.on_header_field = user_err_field};
    simdhttp_parser p;
    int ret = 7;
    simdhttp_init(&p, SIMDHTTP_REQUEST, &cb, NULL);
    p.data = &ret;
    simdhttp_errno e = simdhttp_execute(&p, LIT(in));
    t_check(e == SIMDHTTP_E_USER, "user error", "execute returned %s", simdhttp_errno_name(e));
    t_check(simdhttp_get_errno(&p) == SIMDHTTP_E_USER, "user error", "get_errno");
    t_check(simdhttp_get_error_offset(&p) == 20, "user error", "offset %llu, want 20 (after the name)",
            (unsigned long long)simdhttp_get_error_offset(&p));
    t_check(simdhttp_get_error_reason(&p) != NULL, "user error", "no reason");
    /* sticky: execute, resume and finish do not clear it */
    simdhttp_resume(&p);
    e = simdhttp_execute(&p, LIT("GET / HTTP/1.1\r\n\r\n"));
    t_check(e == SIMDHTTP_E_USER, "user error sticks", "second execute returned %s", simdhttp_errno_name(e));
    t_check(simdhttp_finish(&p) == SIMDHTTP_E_USER, "user error sticks", "finish");
    /* -1 is a user error too; a parse error sticks the same way */
    ret = -1;
    simdhttp_reset(&p);
    t_check(p.data == &ret, "reset keeps data", "p->data lost");
    e = simdhttp_execute(&p, LIT(in));
    t_check(e == SIMDHTTP_E_USER, "user error -1", "execute returned %s", simdhttp_errno_name(e));
    ret = 0;
    simdhttp_reset(&p);
    t_check(simdhttp_get_errno(&p) == SIMDHTTP_OK, "reset clears the error", "errno %s",
            simdhttp_errno_name(simdhttp_get_errno(&p)));
    e = simdhttp_execute(&p, LIT(in));
    t_check(e == SIMDHTTP_OK, "reset reuses the parser", "execute returned %s", simdhttp_errno_name(e));
    e = simdhttp_execute(&p, LIT("GET / HTTP/1.1\r\n\r"));
    e = simdhttp_execute(&p, LIT("X"));
    t_check(e == SIMDHTTP_E_LF_EXPECTED && simdhttp_get_error_offset(&p) == 27 + 17, "parse error offsets span calls",
            "%s at %llu", simdhttp_errno_name(e), (unsigned long long)simdhttp_get_error_offset(&p));
    e = simdhttp_execute(&p, LIT("GET / HTTP/1.1\r\n\r\n"));
    t_check(e == SIMDHTTP_E_LF_EXPECTED, "parse error sticks", "%s", simdhttp_errno_name(e));
    t_check(simdhttp_finish(&p) == SIMDHTTP_E_LF_EXPECTED, "parse error sticks", "finish");
    simdhttp_reset(&p);
    e = simdhttp_execute(&p, LIT("GET / HTTP/1.1\r\n\r"));
    t_check(e == SIMDHTTP_OK, "reset restarts offsets", "%s", simdhttp_errno_name(e));
    e = simdhttp_execute(&p, LIT("X"));
    t_check(e == SIMDHTTP_E_LF_EXPECTED && simdhttp_get_error_offset(&p) == 17, "reset restarts offsets",
            "%s at %llu", simdhttp_errno_name(e), (unsigned long long)simdhttp_get_error_offset(&p));
}

/* reset of a type-both parser detects the type again */
static void test_reset_both(void)
{
    static const char resp[] = "HTTP/1.1 204 No Content\r\n\r\n";
    static const char req[] = "GET / HTTP/1.1\r\n\r\n";
    simdhttp_parser p;
    simdhttp_init(&p, SIMDHTTP_BOTH, NULL, NULL);
    t_check(simdhttp_execute(&p, LIT(resp)) == SIMDHTTP_OK && p.type == SIMDHTTP_RESPONSE, "reset both",
            "response not detected");
    t_check(simdhttp_execute(&p, LIT(req)) == SIMDHTTP_E_INVALID_VERSION, "reset both",
            "a request after a response on one stream must fail");
    simdhttp_reset(&p);
    t_check(p.type == SIMDHTTP_BOTH, "reset both", "type after reset is %d", p.type);
    t_check(simdhttp_execute(&p, LIT(req)) == SIMDHTTP_OK && p.type == SIMDHTTP_REQUEST, "reset both",
            "request not detected after reset");
}

/* ---- on_headers_complete return values ---- */

static void expect_log(const char *name, const char *got, const char *want)
{
    if (!t_check(strcmp(got, want) == 0, name, "log differs\n--- expected:\n%s--- got:\n%s", want, got)) return;
}

static void test_skip_body(void)
{
    /* the answer to a HEAD: Content-Length says 5 but no body follows; the next response does */
    static const char in[] = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n";
    static const char want[] =
        "message begin\n"
        "off=5 len=3 span[version]=\"1.1\"\n"
        "version complete\n"
        "off=9 len=3 span[status_code]=\"200\"\n"
        "status_code complete\n"
        "off=13 len=2 span[status]=\"OK\"\n"
        "status complete\n"
        "off=17 len=14 span[header_field]=\"Content-Length\"\n"
        "header_field complete\n"
        "off=33 len=1 span[header_value]=\"5\"\n"
        "header_value complete\n"
        "headers complete status=200 v=1.1 flags=CONTENT_LENGTH|KEEP_ALIVE content_length=5\n"
        "message complete\n"
        "message begin\n"
        "off=43 len=3 span[version]=\"1.1\"\n"
        "version complete\n"
        "off=47 len=3 span[status_code]=\"204\"\n"
        "status_code complete\n"
        "off=51 len=10 span[status]=\"No Content\"\n"
        "status complete\n"
        "headers complete status=204 v=1.1 flags=SKIP_BODY|KEEP_ALIVE content_length=0\n"
        "message complete\n"
        "ok\n";
    size_t one = 1;
    char *l = t_stream_log_ex(SIMDHTTP_RESPONSE, NULL, LIT(in), NULL, 0, 1, -1, SIMDHTTP_SKIP_BODY);
    expect_log("SKIP_BODY (answer to HEAD)", l, want);
    free(l);
    l = t_stream_log_ex(SIMDHTTP_RESPONSE, NULL, LIT(in), &one, 1, 1, -1, SIMDHTTP_SKIP_BODY);
    expect_log("SKIP_BODY (answer to HEAD), byte by byte", l, want);
    free(l);

    /* a chunked answer to HEAD: no chunk parsing either */
    static const char in2[] = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
    l = t_stream_log_ex(SIMDHTTP_RESPONSE, NULL, LIT(in2), NULL, 0, 1, -1, SIMDHTTP_SKIP_BODY);
    t_check(strstr(l, "message complete\nok\n") != NULL && !strstr(l, "chunk header"), "SKIP_BODY chunked", "%s", l);
    free(l);
    /* body until close: SKIP_BODY means the message ends at the head and keep-alive holds */
    static const char in3[] = "HTTP/1.1 200 OK\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n";
    l = t_stream_log_ex(SIMDHTTP_RESPONSE, NULL, LIT(in3), NULL, 0, 1, -1, SIMDHTTP_SKIP_BODY);
    t_check(strstr(l, "off=32 len=10 span[status]=\"No Content\"") != NULL && strstr(l, "\nok\n"), "SKIP_BODY until close",
            "%s", l);
    free(l);
    /* ... and so does a Transfer-Encoding other than chunked in an HTTP/1.1 response */
    static const char in3b[] = "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n";
    l = t_stream_log_ex(SIMDHTTP_RESPONSE, NULL, LIT(in3b), NULL, 0, 1, -1, SIMDHTTP_SKIP_BODY);
    t_check(strstr(l, "span[status]=\"No Content\"") != NULL && strstr(l, "\nok\n"), "SKIP_BODY gzip keep-alive", "%s", l);
    free(l);
    /* but not the close RFC 9112 6.1 asks after faulty framing: HTTP/1.0 with Transfer-Encoding,
     * Content-Length with Transfer-Encoding (lenient chunked_length), nor 6.3 rule 4's close
     * after a request whose final coding is not chunked (lenient transfer_encoding), nor the
     * close the response itself asks for (Connection: close; HTTP/1.0 without keep-alive):
     * skipping the body must not turn them into persistent connections */
    static const struct {
        simdhttp_type type;
        uint32_t lenient;
        const char *in;
    } faulty[] = {
        {SIMDHTTP_RESPONSE, SIMDHTTP_LENIENT_CHUNKED_LENGTH,
         "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"},
        {SIMDHTTP_RESPONSE, SIMDHTTP_LENIENT_CHUNKED_LENGTH,
         "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: gzip\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"},
        {SIMDHTTP_RESPONSE, 0,
         "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"},
        {SIMDHTTP_REQUEST, SIMDHTTP_LENIENT_CHUNKED_LENGTH,
         "POST / HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\nGET / HTTP/1.1\r\n\r\n"},
        {SIMDHTTP_REQUEST, SIMDHTTP_LENIENT_TRANSFER_ENCODING,
         "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\nGET / HTTP/1.1\r\n\r\n"},
        {SIMDHTTP_RESPONSE, 0, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"},
        {SIMDHTTP_RESPONSE, 0, "HTTP/1.0 200 OK\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"},
    };
    for (size_t i = 0; i < sizeof faulty / sizeof faulty[0]; i++) {
        simdhttp_config cfg = {0};
        cfg.lenient = faulty[i].lenient;
        const char *in5 = faulty[i].in, *second = strstr(in5, "\r\n\r\n") + 4;
        l = t_stream_log_ex(faulty[i].type, &cfg, in5, strlen(in5), NULL, 0, 1, -1, SIMDHTTP_SKIP_BODY);
        char want5[64];
        snprintf(want5, sizeof want5, "\nerror CLOSED_CONNECTION off=%zu reasons=", (size_t)(second - in5));
        t_check(strstr(l, want5) != NULL && strstr(l, "DATA_AFTER_CLOSE\n"), "SKIP_BODY keeps the close", "input %zu:\n%s",
                i, l);
        free(l);
    }

    /* SKIP_BODY_UPGRADE: the head is the whole message, then the stream is not HTTP */
    static const char in4[] = "POST /x HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello";
    l = t_stream_log_ex(SIMDHTTP_REQUEST, NULL, LIT(in4), NULL, 0, 1, -1, SIMDHTTP_SKIP_BODY_UPGRADE);
    t_check(strstr(l, "message complete\nupgrade off=39\nok\n") != NULL && !strstr(l, "span[body]"), "SKIP_BODY_UPGRADE",
            "%s", l);
    free(l);
    l = t_stream_log_ex(SIMDHTTP_REQUEST, NULL, LIT(in4), &one, 1, 1, -1, SIMDHTTP_SKIP_BODY_UPGRADE);
    t_check(strstr(l, "message complete\nupgrade off=39\nok\n") != NULL && !strstr(l, "span[body]"),
            "SKIP_BODY_UPGRADE byte by byte", "%s", l);
    free(l);
}

/* ---- resume_after_upgrade ---- */

static void test_resume_after_upgrade(void)
{
    static const char in[] = "CONNECT a:1 HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n";
    simdhttp_parser p;
    int done = 0;
    simdhttp_callbacks cb = {.on_message_complete = count_mc};
    simdhttp_init(&p, SIMDHTTP_REQUEST, &cb, NULL);
    p.data = &done;
    simdhttp_errno e = simdhttp_execute(&p, LIT(in));
    t_check(e == SIMDHTTP_E_PAUSED_UPGRADE && p.upgrade == 1 && done == 1, "upgrade", "%s upgrade=%d done=%d",
            simdhttp_errno_name(e), p.upgrade, done);
    t_check(simdhttp_get_error_pos(&p) == in + 24 && simdhttp_get_error_offset(&p) == 24, "upgrade",
            "error pos +%td offset %llu", simdhttp_get_error_pos(&p) - in,
            (unsigned long long)simdhttp_get_error_offset(&p));
    /* still upgraded: more bytes are refused the same way, finish is clean */
    e = simdhttp_execute(&p, in + 24, sizeof in - 1 - 24);
    t_check(e == SIMDHTTP_E_PAUSED_UPGRADE && done == 1, "upgrade sticks", "%s", simdhttp_errno_name(e));
    t_check(simdhttp_finish(&p) == SIMDHTTP_OK, "finish after upgrade", "not OK");
    /* declining the upgrade: parse the rest as HTTP */
    simdhttp_resume_after_upgrade(&p);
    t_check(p.upgrade == 0 && simdhttp_get_errno(&p) == SIMDHTTP_OK, "resume_after_upgrade", "state not cleared");
    e = simdhttp_execute(&p, in + 24, sizeof in - 1 - 24);
    t_check(e == SIMDHTTP_OK && done == 2 && p.method == SIMDHTTP_METHOD_GET, "resume_after_upgrade", "%s done=%d",
            simdhttp_errno_name(e), done);
    t_check(simdhttp_finish(&p) == SIMDHTTP_OK, "resume_after_upgrade", "finish");
    /* resume_after_upgrade on a parser that is not upgraded changes nothing */
    simdhttp_reset(&p);
    e = simdhttp_execute(&p, LIT("GET / HTTP/1.1\r\n\r"));
    simdhttp_resume_after_upgrade(&p);
    e = simdhttp_execute(&p, LIT("\n"));
    t_check(e == SIMDHTTP_OK && done == 3, "resume_after_upgrade no-op", "%s", simdhttp_errno_name(e));
}

/* a parser that was never initialised is refused, not run */
static void test_uninitialised(void)
{
    simdhttp_parser z;
    memset(&z, 0, sizeof z);
    simdhttp_errno e = simdhttp_execute(&z, LIT("GET / HTTP/1.1\r\n\r\n"));
    t_check(e == SIMDHTTP_E_INVALID_ARGUMENT, "uninitialised parser", "execute returned %s", simdhttp_errno_name(e));
    t_check(simdhttp_get_error_reason(&z) != NULL, "uninitialised parser", "no reason");
}

/* message_needs_eof and should_keep_alive */
static int needs_eof_seen = -1;
static int record_needs_eof(simdhttp_parser *p)
{
    needs_eof_seen = simdhttp_message_needs_eof(p);
    return 0;
}
static int record_needs_eof_body(simdhttp_parser *p, const char *at, size_t len)
{
    (void)at, (void)len;
    return record_needs_eof(p);
}

static void test_needs_eof(void)
{
    /* asked from the callbacks, as llhttp users do */
    static const simdhttp_callbacks ask_hc = {.on_headers_complete = record_needs_eof};
    static const simdhttp_callbacks ask_body = {.on_body = record_needs_eof_body};
    simdhttp_parser q;
    simdhttp_init(&q, SIMDHTTP_RESPONSE, &ask_hc, NULL);
    simdhttp_execute(&q, LIT("HTTP/1.1 200 OK\r\n\r\nabc"));
    t_check(needs_eof_seen == 1, "message_needs_eof", "in on_headers_complete of a body until close");
    needs_eof_seen = -1;
    simdhttp_init(&q, SIMDHTTP_RESPONSE, &ask_body, NULL);
    simdhttp_execute(&q, LIT("HTTP/1.1 200 OK\r\n\r\nabc"));
    t_check(needs_eof_seen == 1, "message_needs_eof", "in on_body of a body until close");
    needs_eof_seen = -1;
    simdhttp_init(&q, SIMDHTTP_RESPONSE, &ask_body, NULL);
    simdhttp_execute(&q, LIT("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc"));
    t_check(needs_eof_seen == 0, "message_needs_eof", "in on_body of a Content-Length body");

    simdhttp_parser p;
    simdhttp_init(&p, SIMDHTTP_RESPONSE, NULL, NULL);
    simdhttp_execute(&p, LIT("HTTP/1.1 200 OK\r\n\r\nabc"));
    t_check(simdhttp_message_needs_eof(&p) == 1, "message_needs_eof", "body until close needs EOF");
    t_check(simdhttp_should_keep_alive(&p) == 0, "should_keep_alive", "body until close cannot keep alive");
    t_check(simdhttp_finish(&p) == SIMDHTTP_OK && simdhttp_message_needs_eof(&p) == 0, "message_needs_eof",
            "after finish");
    simdhttp_init(&p, SIMDHTTP_RESPONSE, NULL, NULL);
    simdhttp_execute(&p, LIT("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n"));
    t_check(simdhttp_message_needs_eof(&p) == 0 && simdhttp_should_keep_alive(&p) == 1, "message_needs_eof",
            "Content-Length body");
}

/* ---- names ---- */

static void test_names(void)
{
    static const char *const names[SIMDHTTP_ERRNO_COUNT] = {
        "OK", "PAUSED", "PAUSED_UPGRADE", "USER", "INVALID_METHOD", "INVALID_URL", "INVALID_VERSION",
        "INVALID_STATUS", "UNEXPECTED_SPACE", "INVALID_HEADER_TOKEN", "INVALID_HEADER_VALUE", "CR_EXPECTED",
        "LF_EXPECTED", "INVALID_CONTENT_LENGTH", "UNEXPECTED_CONTENT_LENGTH", "INVALID_TRANSFER_ENCODING",
        "INVALID_CHUNK_SIZE", "INVALID_CHUNK_EXTENSION", "HEADER_OVERFLOW", "TOO_MANY_HEADERS",
        "CHUNK_EXTENSIONS_OVERFLOW", "INVALID_EOF_STATE", "CLOSED_CONNECTION", "INVALID_ARGUMENT"};
    t_check(SIMDHTTP_E_INVALID_ARGUMENT == SIMDHTTP_ERRNO_COUNT - 1, "errno count", "SIMDHTTP_ERRNO_COUNT");
    for (int i = 0; i < SIMDHTTP_ERRNO_COUNT; i++) {
        const char *n = simdhttp_errno_name((simdhttp_errno)i), *r = simdhttp_errno_reason((simdhttp_errno)i);
        t_check(n && strcmp(n, names[i]) == 0, "errno name", "%d: %s, want %s", i, n ? n : "NULL", names[i]);
        t_check(r && strlen(r) > 3, "errno reason", "%d: empty", i);
        for (int j = 0; j < i; j++)
            t_check(strcmp(r, simdhttp_errno_reason((simdhttp_errno)j)) != 0, "errno reason", "%d and %d share \"%s\"", i,
                    j, r);
    }
    t_check(strcmp(simdhttp_errno_name((simdhttp_errno)SIMDHTTP_ERRNO_COUNT), "UNKNOWN") == 0, "errno name",
            "out of range");
    t_check(simdhttp_errno_reason((simdhttp_errno)999) != NULL, "errno reason", "out of range");

    static const struct {
        const char *name;
        unsigned flag;
        void (*set)(simdhttp_parser *, int);
    } lf[] = {
        {"headers", SIMDHTTP_LENIENT_HEADERS, simdhttp_set_lenient_headers},
        {"chunked_length", SIMDHTTP_LENIENT_CHUNKED_LENGTH, simdhttp_set_lenient_chunked_length},
        {"keep_alive", SIMDHTTP_LENIENT_KEEP_ALIVE, simdhttp_set_lenient_keep_alive},
        {"transfer_encoding", SIMDHTTP_LENIENT_TRANSFER_ENCODING, simdhttp_set_lenient_transfer_encoding},
        {"version", SIMDHTTP_LENIENT_VERSION, simdhttp_set_lenient_version},
        {"data_after_close", SIMDHTTP_LENIENT_DATA_AFTER_CLOSE, simdhttp_set_lenient_data_after_close},
        {"optional_lf_after_cr", SIMDHTTP_LENIENT_OPTIONAL_LF_AFTER_CR, simdhttp_set_lenient_optional_lf_after_cr},
        {"optional_cr_before_lf", SIMDHTTP_LENIENT_OPTIONAL_CR_BEFORE_LF, simdhttp_set_lenient_optional_cr_before_lf},
        {"optional_crlf_after_chunk", SIMDHTTP_LENIENT_OPTIONAL_CRLF_AFTER_CHUNK,
         simdhttp_set_lenient_optional_crlf_after_chunk},
        {"spaces_after_chunk_size", SIMDHTTP_LENIENT_SPACES_AFTER_CHUNK_SIZE,
         simdhttp_set_lenient_spaces_after_chunk_size},
        {"obs_fold", SIMDHTTP_LENIENT_OBS_FOLD, simdhttp_set_lenient_obs_fold},
        {"field_bare_cr", SIMDHTTP_LENIENT_FIELD_BARE_CR, simdhttp_set_lenient_field_bare_cr},
        {"target_obs_text", SIMDHTTP_LENIENT_TARGET_OBS_TEXT, simdhttp_set_lenient_target_obs_text},
        {"bare_lf", SIMDHTTP_LENIENT_BARE_LF, simdhttp_set_lenient_bare_lf},
    };
    unsigned all = 0;
    for (size_t i = 0; i < sizeof lf / sizeof *lf; i++) {
        unsigned f = simdhttp_lenient_from_name(lf[i].name, strlen(lf[i].name));
        t_check(f == lf[i].flag, "lenient from name", "%s -> 0x%x, want 0x%x", lf[i].name, f, lf[i].flag);
        t_check((f & (f - 1)) == 0 && f, "lenient flag", "%s is not one bit", lf[i].name);
        all |= f;
        if (strcmp(lf[i].name, "bare_lf") != 0) {
            const char *n = simdhttp_lenient_name(f);
            t_check(n && strcmp(n, lf[i].name) == 0, "lenient name", "0x%x -> %s, want %s", f, n ? n : "NULL",
                    lf[i].name);
        }
        simdhttp_parser p;
        simdhttp_init(&p, SIMDHTTP_REQUEST, NULL, NULL);
        lf[i].set(&p, 1);
        simdhttp_config cfg = {.lenient = lf[i].flag};
        simdhttp_parser q;
        simdhttp_init(&q, SIMDHTTP_REQUEST, NULL, &cfg);
        t_check(p._lenient == q._lenient, "lenient setter", "set_lenient_%s differs from the config", lf[i].name);
        lf[i].set(&p, 0);
        t_check(p._lenient == 0, "lenient setter", "set_lenient_%s(0) leaves 0x%x", lf[i].name, p._lenient);
    }
    t_check(all == SIMDHTTP_LENIENT_ALL, "lenient all", "names cover 0x%x, ALL is 0x%x", all, SIMDHTTP_LENIENT_ALL);
    t_check(simdhttp_lenient_from_name(LIT("head")) == 0, "lenient from name", "prefix accepted");
    t_check(simdhttp_lenient_from_name(LIT("headersx")) == 0, "lenient from name", "longer name accepted");
    t_check(simdhttp_lenient_from_name(LIT("HEADERS")) == 0, "lenient from name", "names are lower case");
    t_check(simdhttp_lenient_from_name("headers", 0) == 0, "lenient from name", "empty name accepted");
    t_check(simdhttp_lenient_from_name(NULL, 7) == 0, "lenient from name", "NULL with a length");
    t_check(simdhttp_lenient_name(3) == NULL && simdhttp_lenient_name(0) == NULL, "lenient name", "not one flag");
    /* the setter works: bare LF accepted after set_lenient_bare_lf */
    simdhttp_parser p;
    simdhttp_init(&p, SIMDHTTP_REQUEST, NULL, NULL);
    simdhttp_set_lenient_bare_lf(&p, 1);
    t_check(simdhttp_execute(&p, LIT("GET / HTTP/1.1\nA: b\n\n")) == SIMDHTTP_OK, "lenient setter", "bare LF refused");
    simdhttp_reset(&p);
    t_check(simdhttp_execute(&p, LIT("GET / HTTP/1.1\nA: b\n\n")) == SIMDHTTP_OK, "lenient setter",
            "reset dropped a flag set with a setter");
    simdhttp_set_lenient(&p, SIMDHTTP_LENIENT_ALL, 0);
    t_check(simdhttp_execute(&p, LIT("GET / HTTP/1.1\n")) == SIMDHTTP_E_CR_EXPECTED, "lenient setter",
            "bare LF accepted after clearing");

    /* The IANA HTTP Method Registry, written out here from RFC 9110 section 9, RFC 7237 and
     * RFC 9113 section 11.6 (PRI), in id order: the ids are API, they must not move. */
    static const char *const methods[SIMDHTTP_METHOD_COUNT] = {
        NULL, "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH",
        "ACL", "BASELINE-CONTROL", "BIND", "CHECKIN", "CHECKOUT", "COPY", "LABEL", "LINK",
        "LOCK", "MERGE", "MKACTIVITY", "MKCALENDAR", "MKCOL", "MKREDIRECTREF", "MKWORKSPACE",
        "MOVE", "ORDERPATCH", "PRI", "PROPFIND", "PROPPATCH", "REBIND", "REPORT", "SEARCH",
        "UNBIND", "UNCHECKOUT", "UNLINK", "UNLOCK", "UPDATE", "UPDATEREDIRECTREF",
        "VERSION-CONTROL"};
    t_check(SIMDHTTP_METHOD_COUNT == 40 && SIMDHTTP_METHOD_VERSION_CONTROL == 39 &&
                SIMDHTTP_METHOD_PATCH == 9 && SIMDHTTP_METHOD_ACL == 10,
            "method ids", "the registry has 39 methods; ids are stable");
    for (int m = 0; m < SIMDHTTP_METHOD_COUNT; m++) {
        const char *n = simdhttp_method_name((simdhttp_method)m);
        t_check(m == 0 ? n == NULL : (n && strcmp(n, methods[m]) == 0), "method name", "%d", m);
        if (!m) continue;
        t_check(simdhttp_method_from_name(methods[m], strlen(methods[m])) == (simdhttp_method)m,
                "method from name", "%s", methods[m]);
        simdhttp_field f[1];
        simdhttp_head h = {.fields = f, .fields_cap = 1};
        char buf[64];
        int l = snprintf(buf, sizeof buf, "%s / HTTP/1.1\r\n\r\n", methods[m]);
        t_check(simdhttp_parse_head(&h, SIMDHTTP_REQUEST, buf, (size_t)l, NULL) == l && h.method == m,
                "method id", "%s -> %d", methods[m], h.method);
        /* streaming, the method split after each of its bytes (the core classifies the
         * method from its kept first bytes then) */
        for (size_t k = 1; k < strlen(methods[m]); k++) {
            simdhttp_parser p2;
            simdhttp_init(&p2, SIMDHTTP_REQUEST, NULL, NULL);
            simdhttp_errno want = m == SIMDHTTP_METHOD_CONNECT ? SIMDHTTP_E_PAUSED_UPGRADE : SIMDHTTP_OK;
            int ok = simdhttp_execute(&p2, buf, k) == SIMDHTTP_OK &&
                     simdhttp_execute(&p2, buf + k, (size_t)l - k) == want;
            t_check(ok && p2.method == m, "method id split", "%s at %zu -> %d", methods[m], k, p2.method);
        }
    }
    /* not in the registry: extension methods, the reserved "*", wrong case, near misses */
    static const char *const others[] = {"M-SEARCH", "PURGE", "QUERY", "*", "get", "Get", "GETS", "GE",
                                         "POSTS", "POS", "PROPFINDX", "UPDATEREDIRECTREFX", "VERSION_CONTROL", "ACLS"};
    for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
        t_check(simdhttp_method_from_name(others[i], strlen(others[i])) == SIMDHTTP_METHOD_OTHER,
                "method from name", "%s is not registered", others[i]);
        simdhttp_field f[1];
        simdhttp_head h = {.fields = f, .fields_cap = 1};
        char buf[64];
        int l = snprintf(buf, sizeof buf, "%s / HTTP/1.1\r\n\r\n", others[i]);
        t_check(simdhttp_parse_head(&h, SIMDHTTP_REQUEST, buf, (size_t)l, NULL) == l &&
                    h.method == SIMDHTTP_METHOD_OTHER && h.method_len == strlen(others[i]),
                "method id", "%s -> %d (%zu bytes)", others[i], h.method, h.method_len);
    }
    t_check(simdhttp_method_from_name("GET", 2) == SIMDHTTP_METHOD_OTHER &&
                simdhttp_method_from_name(NULL, 3) == SIMDHTTP_METHOD_OTHER,
            "method from name", "length is exact; NULL is OTHER");
    t_check(simdhttp_method_name((simdhttp_method)SIMDHTTP_METHOD_COUNT) == NULL &&
                simdhttp_method_name((simdhttp_method)200) == NULL,
            "method name", "out of range");

    /* status names: RFC 9110 section 15's phrases; unassigned and "(Unused)" codes are NULL */
    static const struct { unsigned code; const char *name; } statuses[] = {
        {100, "Continue"}, {103, "Early Hints"}, {200, "OK"}, {203, "Non-Authoritative Information"},
        {208, "Already Reported"}, {226, "IM Used"}, {304, "Not Modified"}, {308, "Permanent Redirect"},
        {404, "Not Found"}, {413, "Content Too Large"}, {417, "Expectation Failed"},
        {421, "Misdirected Request"}, {422, "Unprocessable Content"}, {428, "Precondition Required"},
        {431, "Request Header Fields Too Large"}, {451, "Unavailable For Legal Reasons"},
        {500, "Internal Server Error"}, {508, "Loop Detected"}, {510, "Not Extended"},
        {511, "Network Authentication Required"},
        {0, NULL}, {99, NULL}, {104, NULL}, {199, NULL}, {209, NULL}, {306, NULL}, {309, NULL},
        {418, NULL}, {420, NULL}, {427, NULL}, {430, NULL}, {432, NULL}, {509, NULL}, {512, NULL},
        {600, NULL}, {999, NULL}, {4294967295u, NULL}};
    for (size_t i = 0; i < sizeof statuses / sizeof *statuses; i++) {
        const char *n = simdhttp_status_name(statuses[i].code);
        t_check(statuses[i].name ? n && strcmp(n, statuses[i].name) == 0 : n == NULL, "status name",
                "%u -> %s", statuses[i].code, n ? n : "NULL");
    }
    int named = 0;
    for (unsigned c = 0; c < 1000; c++) named += simdhttp_status_name(c) != NULL;
    t_check(named == 61, "status name", "%d codes named, the registry has 61", named);
}

/* ---- head API ---- */

static void test_head_fields_cap(void)
{
    static const char in[] = "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n";
    simdhttp_field f[3];
    simdhttp_head h = {.fields = f, .fields_cap = 2};
    long r = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, LIT(in), NULL);
    t_check(r == SIMDHTTP_HEAD_ERROR && h.error == SIMDHTTP_E_TOO_MANY_HEADERS && h.error_offset == 28, "fields_cap",
            "r=%ld %s at %zu, want TOO_MANY_HEADERS at 28", r, simdhttp_errno_name(h.error), h.error_offset);
    /* the rest of the head is set, not left as the memory was (MSan; the header's zeros) */
    memset(&h.num_fields, 0xa5, sizeof h - offsetof(simdhttp_head, num_fields));
    r = simdhttp_parse_head(&h, SIMDHTTP_BOTH, LIT(in), NULL);
    t_check(r == SIMDHTTP_HEAD_ERROR && h.error == SIMDHTTP_E_TOO_MANY_HEADERS && h.type == SIMDHTTP_REQUEST &&
                h.method == 0 && h.http_major == 0 && h.http_minor == 0 && h.status_code == 0 && h.flags == 0 &&
                h.content_length == 0 && h.num_fields == 2 && h.method_len == 3 && h.target_len == 1,
            "fields_cap: the head's other members", "type %d method %d version %d.%d status %d flags %x", h.type,
            h.method, h.http_major, h.http_minor, h.status_code, (unsigned)h.flags);
    static const char resp[] = "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nA: 1\r\nB: 2\r\n\r\n";
    memset(&h.num_fields, 0xa5, sizeof h - offsetof(simdhttp_head, num_fields));
    r = simdhttp_parse_head(&h, SIMDHTTP_BOTH, LIT(resp), NULL);
    t_check(r == SIMDHTTP_HEAD_ERROR && h.error == SIMDHTTP_E_TOO_MANY_HEADERS && h.type == SIMDHTTP_RESPONSE &&
                h.status_code == 0 && h.content_length == 0 && h.flags == 0 && h.reason_len == 2 &&
                h.method_str == NULL && h.target == NULL,
            "fields_cap: a response's other members", "type %d status %d", h.type, h.status_code);
    memset(&h.num_fields, 0xa5, sizeof h - offsetof(simdhttp_head, num_fields));
    r = simdhttp_parse_head(&h, SIMDHTTP_BOTH, LIT("G@T / HTTP/1.1\r\n\r\n"), NULL);
    t_check(r == SIMDHTTP_HEAD_ERROR && h.error == SIMDHTTP_E_INVALID_METHOD && h.type == SIMDHTTP_REQUEST &&
                h.method == 0 && h.flags == 0 && h.target == NULL && h.reason == NULL,
            "an error's other members", "type %d", h.type);
    h.fields_cap = 3;
    r = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, LIT(in), NULL);
    t_check(r == (long)sizeof in - 1 && h.num_fields == 3 && memcmp(h.fields[2].name, "C", 1) == 0, "fields_cap exact",
            "r=%ld n=%zu", r, h.num_fields);
    /* fields_cap below max_fields: the smaller one wins; and max_fields below fields_cap */
    simdhttp_config cfg = {.max_fields = 2};
    r = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, LIT(in), &cfg);
    t_check(r == SIMDHTTP_HEAD_ERROR && h.error == SIMDHTTP_E_TOO_MANY_HEADERS && h.error_offset == 28, "max_fields head",
            "r=%ld %s", r, simdhttp_errno_name(h.error));
    /* a full array with a syntax error earlier still reports the syntax error */
    static const char bad[] = "GET / HTTP/1.1\r\nA : 1\r\nB: 2\r\nC: 3\r\n\r\n";
    h.fields_cap = 1;
    r = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, LIT(bad), NULL);
    t_check(r == SIMDHTTP_HEAD_ERROR && h.error == SIMDHTTP_E_UNEXPECTED_SPACE && h.error_offset == 17, "fields_cap",
            "syntax error first: %s at %zu", simdhttp_errno_name(h.error), h.error_offset);
    /* no fields needed: cap 0 and no array */
    simdhttp_head h0 = {0};
    r = simdhttp_parse_head(&h0, SIMDHTTP_REQUEST, LIT("GET / HTTP/1.1\r\n\r\n"), NULL);
    t_check(r == 18 && h0.num_fields == 0, "fields_cap 0", "r=%ld", r);
    /* no array and a field line: no room, not NULL + 0 in the core (UBSan), not a write */
    r = simdhttp_parse_head(&h0, SIMDHTTP_REQUEST, LIT("GET / HTTP/1.1\r\nA: 1\r\n\r\n"), NULL);
    t_check(r == SIMDHTTP_HEAD_ERROR && h0.error == SIMDHTTP_E_TOO_MANY_HEADERS && h0.error_offset == 16 &&
                h0.num_fields == 0 && h0.fields == NULL && h0.method_len == 3,
            "fields NULL, cap 0", "r=%ld %s at %zu, n=%zu", r, simdhttp_errno_name(h0.error), h0.error_offset,
            h0.num_fields);
    r = simdhttp_parse_fields(&h0, LIT("A: 1\r\n\r\n"), NULL);
    t_check(r == SIMDHTTP_HEAD_ERROR && h0.error == SIMDHTTP_E_TOO_MANY_HEADERS && h0.fields == NULL,
            "parse_fields, fields NULL, cap 0", "r=%ld %s", r, simdhttp_errno_name(h0.error));
    r = simdhttp_parse_fields(&h0, LIT("\r\n"), NULL);
    t_check(r == 2 && h0.num_fields == 0, "parse_fields, fields NULL, no field", "r=%ld", r);
    /* no array but room claimed: a named error, not a write through NULL */
    h0.fields_cap = 2;
    r = simdhttp_parse_head(&h0, SIMDHTTP_REQUEST, LIT("GET / HTTP/1.1\r\nA: 1\r\n\r\n"), NULL);
    t_check(r == SIMDHTTP_HEAD_ERROR && h0.error == SIMDHTTP_E_INVALID_ARGUMENT && h0.num_fields == 0,
            "fields NULL, cap 2", "r=%ld %s", r, simdhttp_errno_name(h0.error));
    r = simdhttp_parse_fields_continue(&h0, LIT("A: 1\r\n\r\n"), 4, NULL);
    t_check(r == SIMDHTTP_HEAD_ERROR && h0.error == SIMDHTTP_E_INVALID_ARGUMENT,
            "parse_fields_continue, fields NULL, cap 2", "r=%ld %s", r, simdhttp_errno_name(h0.error));
    /* those two refusals set the head's other members as any error does (the type argument,
     * zeros, no spans), not leave the caller's memory: a logger reads them after any error */
    for (int k = 0; k < 2; k++) {
        simdhttp_head hn;
        memset(&hn, 0xa5, sizeof hn);
        hn.fields = k ? NULL : f, hn.fields_cap = 2;
        r = simdhttp_parse_head(&hn, SIMDHTTP_BOTH, k ? in : NULL, k ? sizeof in - 1 : 3, NULL);
        t_check(r == SIMDHTTP_HEAD_ERROR && hn.error == SIMDHTTP_E_INVALID_ARGUMENT && hn.error_reason &&
                    hn.error_offset == 0 && hn.num_fields == 0 && hn.type == SIMDHTTP_BOTH && hn.method == 0 &&
                    hn.http_major == 0 && hn.http_minor == 0 && hn.status_code == 0 && hn.flags == 0 &&
                    hn.content_length == 0 && hn.method_str == NULL && hn.method_len == 0 && hn.target == NULL &&
                    hn.target_len == 0 && hn.reason == NULL && hn.reason_len == 0,
                "INVALID_ARGUMENT: the head's other members", "%s: r=%ld type %d method %d flags %x spans %p %p %p",
                k ? "fields NULL" : "buf NULL", r, hn.type, hn.method, (unsigned)hn.flags, (const void *)hn.method_str,
                (const void *)hn.target, (const void *)hn.reason);
    }
    /* an obs-fold continuation takes an entry too */
    static const char fold[] = "GET / HTTP/1.1\r\nA: 1\r\n 2\r\n\r\n";
    simdhttp_config lf = {.lenient = SIMDHTTP_LENIENT_OBS_FOLD};
    h.fields_cap = 1;
    r = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, LIT(fold), &lf);
    t_check(r == SIMDHTTP_HEAD_ERROR && h.error == SIMDHTTP_E_TOO_MANY_HEADERS && h.error_offset == 22,
            "fields_cap obs-fold", "r=%ld %s at %zu", r, simdhttp_errno_name(h.error), h.error_offset);
}

static void test_head_obs_fold(void)
{
    static const char in[] = "GET / HTTP/1.1\r\nA: 1 \r\n \t2\r\n\t3\r\nB: 4\r\n\r\n";
    simdhttp_field f[8];
    simdhttp_head h = {.fields = f, .fields_cap = 8};
    simdhttp_config cfg = {.lenient = SIMDHTTP_LENIENT_OBS_FOLD};
    long r = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, LIT(in), &cfg);
    int ok = r == (long)sizeof in - 1 && h.num_fields == 4;
    t_check(ok, "head obs-fold", "r=%ld n=%zu", r, h.num_fields);
    if (!ok) return;
    t_check(f[0].name_len == 1 && f[0].name[0] == 'A' && f[0].value_len == 1 && f[0].value[0] == '1', "head obs-fold",
            "first line");
    t_check(f[1].name == NULL && f[1].name_len == 0 && f[1].value_len == 1 && f[1].value == in + 25, "head obs-fold",
            "first continuation: name %p len %zu value +%td len %zu", (const void *)f[1].name, f[1].name_len,
            f[1].value - in, f[1].value_len);
    t_check(f[2].name == NULL && f[2].value_len == 1 && f[2].value[0] == '3', "head obs-fold", "second continuation");
    t_check(f[3].name_len == 1 && f[3].name[0] == 'B', "head obs-fold", "next field");
    r = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, LIT(in), NULL);
    t_check(r == SIMDHTTP_HEAD_ERROR && h.error == SIMDHTTP_E_UNEXPECTED_SPACE && h.error_offset == 23, "head obs-fold",
            "strict: %s at %zu", simdhttp_errno_name(h.error), h.error_offset);
}

/* Every proper prefix of a valid head is INCOMPLETE; the whole head gives its length, and
 * bytes after it do not change that. */
static void test_head_prefixes(const char *name, simdhttp_type type, const simdhttp_config *cfg, const char *in,
                               size_t len)
{
    simdhttp_field f[256];
    simdhttp_head h = {.fields = f, .fields_cap = 256};
    long full = simdhttp_parse_head(&h, type, in, len, cfg);
    if (!t_check(full > 0, name, "head does not parse: %s", simdhttp_errno_name(h.error))) return;
    int bad = 0;
    for (long k = 0; k < full && !bad; k++) {
        char *copy = malloc((size_t)k + 1); /* exact size: ASan sees a read past the prefix */
        memcpy(copy, in, (size_t)k);
        long r = simdhttp_parse_head(&h, type, copy, (size_t)k, cfg);
        if (r != SIMDHTTP_HEAD_INCOMPLETE) {
            bad = 1;
            t_check(0, name, "prefix of %ld bytes: %ld (%s at %zu), want INCOMPLETE", k, r,
                    r == SIMDHTTP_HEAD_ERROR ? simdhttp_errno_name(h.error) : "-", h.error_offset);
        }
        free(copy);
    }
    if (!bad) t_check(1, name, "prefixes");
    t_check(simdhttp_parse_head(&h, type, in, (size_t)full, cfg) == full, name, "head alone");
}

static void test_head_misc(void)
{
    simdhttp_field f[4];
    simdhttp_head h = {.fields = f, .fields_cap = 4};
    static const char resp[] = "HTTP/1.0 404 Not Found\r\nA: b \r\n\r\nbody";
    long r = simdhttp_parse_head(&h, SIMDHTTP_BOTH, LIT(resp), NULL);
    t_check(r == 33 && h.type == SIMDHTTP_RESPONSE && h.status_code == 404 && h.http_major == 1 && h.http_minor == 0 &&
                h.reason_len == 9 && memcmp(h.reason, "Not Found", 9) == 0 && h.num_fields == 1 &&
                h.fields[0].value_len == 1 && (h.flags & SIMDHTTP_F_BODY_UNTIL_CLOSE),
            "head response", "r=%ld", r);
    static const char req[] = "\r\nPOST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n";
    r = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, LIT(req), NULL);
    t_check(r == 50 && h.type == SIMDHTTP_REQUEST && h.method == SIMDHTTP_METHOD_POST && h.method_len == 4 &&
                h.method_str == req + 2 && h.target_len == 2 && h.target == req + 7 && (h.flags & SIMDHTTP_F_CHUNKED),
            "head request", "r=%ld", r);
    r = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, LIT("GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"),
                            NULL);
    t_check(r == SIMDHTTP_HEAD_ERROR && h.error == SIMDHTTP_E_UNEXPECTED_CONTENT_LENGTH && h.error_reason &&
                h.error_offset == 52,
            "head error", "r=%ld %s at %zu", r, simdhttp_errno_name(h.error), h.error_offset);
    /* a limit reached before the end of the buffer is an error, not INCOMPLETE */
    simdhttp_config cfg = {.max_head_size = 10};
    r = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, LIT("GET /abcdefghijkl"), &cfg);
    t_check(r == SIMDHTTP_HEAD_ERROR && h.error == SIMDHTTP_E_HEADER_OVERFLOW && h.error_offset == 10, "head limit",
            "r=%ld %s at %zu", r, simdhttp_errno_name(h.error), h.error_offset);
    r = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, LIT("GET /abcd"), &cfg);
    t_check(r == SIMDHTTP_HEAD_INCOMPLETE, "head limit", "below the limit: r=%ld", r);
}

static const char *const pause_inputs[][2] = {
    {"request chunked", "POST /p?q HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                        "5;a=b;c=\"d\\\"e\"\r\nhello\r\n0\r\nT: 1\r\n\r\nGET / HTTP/1.1\r\n\r\n"},
    {"request body", "\r\nPUT / HTTP/1.1\r\nContent-Length: 3\r\nX:  y \r\n\r\nabcHEAD / HTTP/1.0\r\n\r\n"},
    {"response", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nA: b\r\n\r\nbody until close"},
    {"upgrade", "GET / HTTP/1.1\r\nConnection: upgrade\r\nUpgrade: x\r\n\r\n\x00junk"},
};

/* Every byte as a chunk-size digit, first and after a "1": HEXDIG (RFC 5234: 0-9 A-F, and
 * RFC 9110 2.1 lets a-f match too) gives its value, any other byte ends the size (then a CR
 * ends the line; a first byte that is no digit is INVALID_CHUNK_SIZE). The core decodes
 * digits through a table (src/tables.c), so every entry is checked here. */
static int chunk_hc(simdhttp_parser *p)
{
    *(uint64_t *)p->data = p->content_length;
    return SIMDHTTP_PAUSE;
}

static void test_chunk_size_digits(void)
{
    simdhttp_callbacks cb = {.on_chunk_header = chunk_hc};
    int bad = 0;
    for (int b = 0; b < 256; b++) {
        int v = b >= '0' && b <= '9' ? b - '0' : b >= 'a' && b <= 'f' ? b - 'a' + 10 : b >= 'A' && b <= 'F' ? b - 'A' + 10 : -1;
        for (int second = 0; second < 2; second++) {
            char in[128];
            int n = snprintf(in, sizeof in, "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n%s", second ? "1" : "");
            in[n++] = (char)b;
            in[n++] = '\r';
            in[n++] = '\n';
            simdhttp_parser p;
            uint64_t size = 99;
            simdhttp_init(&p, SIMDHTTP_REQUEST, &cb, NULL);
            p.data = &size;
            simdhttp_errno e = simdhttp_execute(&p, in, (size_t)n);
            int ok;
            if (v >= 0) ok = e == SIMDHTTP_E_PAUSED && size == (uint64_t)(second ? 16 + v : v);
            else if (second) /* the size is 1 then, whatever the line's fate */
                ok = e == SIMDHTTP_E_PAUSED ? size == 1 : e != SIMDHTTP_OK && size == 99;
            else ok = e == SIMDHTTP_E_INVALID_CHUNK_SIZE;
            if (!ok && bad++ < 5)
                t_check(0, "chunk-size digits", "byte 0x%02x %s: %s, size %llu", (unsigned)b, second ? "second" : "first",
                        simdhttp_errno_name(e), (unsigned long long)size);
        }
    }
    if (!bad) t_check(1, "chunk-size digits", "all 256 bytes, first and second digit");
}

/* in[0..n) through both APIs with cfg: the whole head (want OK), or error `want` at offset `at` */
static void head_both_apis(const char *in, size_t n, const simdhttp_config *cfg, const char *name,
                           const char *who, simdhttp_errno want, size_t at)
{
    static simdhttp_field f[200];
    simdhttp_head h = {.fields = f, .fields_cap = 200};
    long r = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, in, n, cfg);
    simdhttp_parser p;
    simdhttp_init(&p, SIMDHTTP_REQUEST, NULL, cfg);
    simdhttp_errno e = simdhttp_execute(&p, in, n);
    if (want == SIMDHTTP_OK)
        t_check(r == (long)n && e == SIMDHTTP_OK, name, "%s: head %ld, stream %s", who, r, simdhttp_errno_name(e));
    else
        t_check(r == SIMDHTTP_HEAD_ERROR && h.error == want && h.error_offset == at && e == want &&
                    simdhttp_get_error_offset(&p) == at,
                name, "%s: head %ld %s at %zu, stream %s at %llu", who, r, simdhttp_errno_name(h.error),
                h.error_offset, simdhttp_errno_name(e), (unsigned long long)simdhttp_get_error_offset(&p));
}

/* The defaults a zero limit stands for (include/simdhttp.h section 3; docs/limits.md): NULL and a
 * zeroed config both get them, at the limit and one past it, in both APIs and the decoder. */
static void test_default_limits(void)
{
    static char in[90000], body[9000];
    const simdhttp_config zero = {0};
    for (int z = 0; z < 2; z++) {
        const simdhttp_config *cfg = z ? &zero : NULL;
        const char *who = z ? "zeroed config" : "NULL config";
        /* max_head_size: a head of exactly 81920 bytes, then one of 81921 */
        for (size_t extra = 0; extra < 2; extra++) {
            size_t v = 81920 - 23 + extra, n = 0;
            n += (size_t)sprintf(in, "GET / HTTP/1.1\r\nX: ");
            memset(in + n, 'v', v), n += v;
            memcpy(in + n, "\r\n\r\n", 4), n += 4;
            head_both_apis(in, n, cfg, extra ? "default max_head_size 81920 + 1" : "default max_head_size 81920", who,
                           extra ? SIMDHTTP_E_HEADER_OVERFLOW : SIMDHTTP_OK, 81920);
        }
        /* max_fields: 128 field lines, then 129 (the error at the 129th line's first byte) */
        for (int extra = 0; extra < 2; extra++) {
            size_t n = (size_t)sprintf(in, "GET / HTTP/1.1\r\n");
            for (int i = 0; i < 128 + extra; i++) n += (size_t)sprintf(in + n, "A: 1\r\n");
            n += (size_t)sprintf(in + n, "\r\n");
            head_both_apis(in, n, cfg, extra ? "default max_fields 128 + 1" : "default max_fields 128", who,
                           extra ? SIMDHTTP_E_TOO_MANY_HEADERS : SIMDHTTP_OK, 16 + 128 * 6);
        }
        /* max_chunk_ext: 4096 bytes after the size, then 4097; and 16 + 4096 digits of a size,
         * then one more (the decoder, the streaming parser's chunk code) */
        for (int kind = 0; kind < 2; kind++)
            for (size_t extra = 0; extra < 2; extra++) {
                size_t n = 0, at;
                if (kind == 0) {
                    body[n++] = '5', body[n++] = ';';
                    memset(body + n, 'a', 4095 + extra), n += 4095 + extra;
                    at = 4097;
                } else {
                    memset(body, '0', 16 + 4096 - 1 + extra), n += 16 + 4096 - 1 + extra;
                    body[n++] = '5';
                    at = 16 + 4096;
                }
                n += (size_t)sprintf(body + n, "\r\nhello\r\n0\r\n\r\n");
                simdhttp_chunked d;
                simdhttp_chunked_init(&d, cfg, SIMDHTTP_CHUNKED_CONSUME_TRAILERS);
                size_t len = n;
                long r = simdhttp_chunked_decode(&d, body, &len);
                if (!extra)
                    t_check(r == 0 && len == 5 && memcmp(body, "hello", 5) == 0, "default max_chunk_ext 4096",
                            "%s, %s: %ld, %zu bytes", who, kind ? "leading zeros" : "extension", r, len);
                else
                    t_check(r == SIMDHTTP_CHUNKED_ERROR && d.error == SIMDHTTP_E_CHUNK_EXTENSIONS_OVERFLOW &&
                                d.error_offset == at,
                            "default max_chunk_ext 4096 + 1", "%s, %s: %ld %s at %llu", who,
                            kind ? "leading zeros" : "extension", r, simdhttp_errno_name(d.error),
                            (unsigned long long)d.error_offset);
            }
    }
}

/* The chunked decoder moves each chunk's data down over the framing before it, in place:
 * chunks of every size from 0 to 40 bytes (a short one by loads and stores, a longer one by
 * memmove), with the distance from the data to its destination growing by a chunk extension
 * of 0 or 2 to 10 bytes, so the source and destination overlap in every way. The decoded bytes must
 * be the data, in order. */
static void test_chunked_moves(void)
{
    char in[256], want[128];
    size_t bad = 0, runs = 0;
    for (size_t ext = 0; ext <= 10; ext += 1 + !ext) /* 0, or ";" and a name of 1 to 9 bytes */
        for (size_t size = 1; size <= 40; size++) {
            /* each body alone: its first chunk's data lies 3 to 14 bytes past its destination */
            size_t n = 0, w = 0;
            for (size_t rep = 0; rep < 2; rep++) {
                n += (size_t)sprintf(in + n, "%zx", size);
                if (ext) {
                    in[n++] = ';';
                    memset(in + n, 'e', ext - 1), n += ext - 1;
                }
                in[n++] = '\r', in[n++] = '\n';
                for (size_t i = 0; i < size; i++, w++) in[n++] = want[w] = (char)('!' + (w * 7 + size) % 90);
                in[n++] = '\r', in[n++] = '\n';
            }
            n += (size_t)sprintf(in + n, "0\r\n\r\nnext");
            simdhttp_chunked d;
            simdhttp_chunked_init(&d, NULL, SIMDHTTP_CHUNKED_CONSUME_TRAILERS);
            size_t len = n;
            long r = simdhttp_chunked_decode(&d, in, &len);
            runs++;
            if (!(r == 4 && len == w && memcmp(in, want, w) == 0 && memcmp(in + w, "next", 4) == 0) && bad++ < 3)
                t_check(0, "chunked decoder: data moved down intact",
                        "chunks of %zu, an extension of %zu bytes: %ld, %zu of %zu bytes", size, ext, r, len, w);
        }
    t_check(bad == 0, "chunked decoder: data moved down intact", "%zu of %zu bodies wrong", bad, runs);
}

/* The modes and the verdict through the API (tests/cases/80-verdicts.txt has the streaming
 * logs): names, simdhttp_set_mode keeping simdhttp_set_empty_spans, the head API's reasons and
 * close rule, the reason and tier tables. */
static void test_modes(void)
{
    t_check(simdhttp_mode_from_name("strict", 6) == SIMDHTTP_MODE_STRICT &&
                simdhttp_mode_from_name("defensive", 9) == SIMDHTTP_MODE_DEFENSIVE &&
                simdhttp_mode_from_name("monitor", 7) == SIMDHTTP_MODE_MONITOR &&
                simdhttp_mode_from_name("monitors", 8) == -1 && simdhttp_mode_from_name(NULL, 0) == -1,
            "simdhttp_mode_from_name", "a name mapped wrongly");
    static const char fold[] = "GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n";
    simdhttp_field f[4];
    simdhttp_head h = {.fields = f, .fields_cap = 4};
    simdhttp_config cfg = {.lenient = SIMDHTTP_MODE_DEFENSIVE};
    long r = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, LIT(fold), &cfg);
    t_check(r == (long)sizeof fold - 1 && h.reasons == SIMDHTTP_REASON_BIT(SIMDHTTP_R_OBS_FOLD) &&
                (h.flags & SIMDHTTP_F_CLOSE_AFTER) && !(h.flags & SIMDHTTP_F_KEEP_ALIVE),
            "head API: defensive closes after an obs-fold", "%ld, reasons 0x%x, flags 0x%x", r, (unsigned)h.reasons,
            (unsigned)h.flags);
    cfg.lenient = SIMDHTTP_MODE_MONITOR;
    r = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, LIT(fold), &cfg);
    t_check(r > 0 && h.reasons == SIMDHTTP_REASON_BIT(SIMDHTTP_R_OBS_FOLD) && (h.flags & SIMDHTTP_F_KEEP_ALIVE),
            "head API: monitor keeps the connection", "%ld, reasons 0x%x, flags 0x%x", r, (unsigned)h.reasons,
            (unsigned)h.flags);
    r = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, LIT(fold), NULL);
    t_check(r == SIMDHTTP_HEAD_ERROR && h.reasons == SIMDHTTP_REASON_BIT(SIMDHTTP_R_OBS_FOLD),
            "head API: strict refuses an obs-fold and names it", "%ld, reasons 0x%x", r, (unsigned)h.reasons);
    simdhttp_parser p;
    simdhttp_init(&p, SIMDHTTP_REQUEST, NULL, NULL);
    simdhttp_set_empty_spans(&p, 1);
    simdhttp_set_mode(&p, SIMDHTTP_MODE_DEFENSIVE);
    simdhttp_errno e = simdhttp_execute(&p, LIT(fold));
    t_check(e == SIMDHTTP_OK && !simdhttp_should_keep_alive(&p) && p.reasons == SIMDHTTP_REASON_BIT(SIMDHTTP_R_OBS_FOLD),
            "simdhttp_set_mode: defensive", "%s, keep-alive %d, reasons 0x%x", simdhttp_errno_name(e),
            simdhttp_should_keep_alive(&p), (unsigned)p.reasons);
    simdhttp_set_mode(&p, SIMDHTTP_MODE_STRICT);
    simdhttp_reset(&p);
    e = simdhttp_execute(&p, LIT(fold));
    t_check(e == SIMDHTTP_E_UNEXPECTED_SPACE, "simdhttp_set_mode: strict again", "%s", simdhttp_errno_name(e));
    /* every reason has a name and a tier; the tier of a set is its highest */
    int named = 1;
    for (int i = 0; i < SIMDHTTP_R_COUNT; i++)
        named &= simdhttp_reason_name((simdhttp_reason)i) != NULL &&
                 simdhttp_reasons_tier(SIMDHTTP_REASON_BIT(i)) == simdhttp_reason_tier((simdhttp_reason)i);
    t_check(named && simdhttp_reason_name(SIMDHTTP_R_COUNT) == NULL &&
                simdhttp_reasons_tier(SIMDHTTP_REASON_BIT(SIMDHTTP_R_BARE_LF) | SIMDHTTP_REASON_BIT(SIMDHTTP_R_BARE_CR)) ==
                    SIMDHTTP_TIER_SEVERE &&
                simdhttp_reasons_tier(0) == SIMDHTTP_TIER_COMPLIANT,
            "reason tables", "a name or tier missing");
}

int main(void)
{
    for (size_t i = 0; i < sizeof pause_inputs / sizeof *pause_inputs; i++) {
        const char *in = pause_inputs[i][1];
        size_t len = strlen(in) + (strcmp(pause_inputs[i][0], "upgrade") == 0 ? 5 : 0);
        char name[64];
        snprintf(name, sizeof name, "pause everywhere: %s", pause_inputs[i][0]);
        test_pause_everywhere(name, SIMDHTTP_BOTH, NULL, in, len);
    }
    simdhttp_config fold = {.lenient = SIMDHTTP_LENIENT_OBS_FOLD | SIMDHTTP_LENIENT_SPACES_AFTER_CHUNK_SIZE};
    static const char folded[] = "POST / HTTP/1.1\r\nA: 1\r\n 2\r\nTransfer-Encoding: chunked\r\n\r\n1 ; x = y \r\nz\r\n0\r\n\r\n";
    test_pause_everywhere("pause everywhere: obs-fold and BWS", SIMDHTTP_REQUEST, &fold, LIT(folded));
    test_pause_position();
    test_pause_reason_end();
    test_chunk_size_digits();
    test_empty_input();
    test_finish_after_pause();
    test_error_pos_sticky();
    test_set_error_reason();
    test_set_callbacks();
    test_empty_spans();
    test_user_error();
    test_callback_result();
    test_reset_both();
    test_skip_body();
    test_resume_after_upgrade();
    test_needs_eof();
    test_uninitialised();
    test_names();
    test_head_fields_cap();
    test_default_limits();
    test_head_obs_fold();
    test_head_misc();
    test_modes();
    test_chunked_moves();
    test_head_prefixes("head prefixes: chunked request", SIMDHTTP_REQUEST, NULL, pause_inputs[0][1],
                       strlen(pause_inputs[0][1]));
    test_head_prefixes("head prefixes: leading CRLF", SIMDHTTP_REQUEST, NULL, pause_inputs[1][1],
                       strlen(pause_inputs[1][1]));
    test_head_prefixes("head prefixes: obs-fold", SIMDHTTP_REQUEST, &fold, LIT(folded));
    static const char *const corpus[] = {"browser-get.http", "get-32h.http", "get-4h.http", "pipelined-16.http",
                                         "post-10k.http", "response-chunked.http", "response-typical.http",
                                         "seed-simple.http"};
    for (size_t i = 0; i < sizeof corpus / sizeof *corpus; i++) {
        char path[512];
        size_t len;
        snprintf(path, sizeof path, "%s/%s", t_corpus_dir(), corpus[i]);
        char *in = t_read_file(path, &len);
        if (!t_check(in != NULL, path, "cannot read")) continue;
        char name[600];
        snprintf(name, sizeof name, "head prefixes: %s", corpus[i]);
        test_head_prefixes(name, SIMDHTTP_BOTH, NULL, in, len);
        free(in);
    }
    return t_summary();
}
