/* SPDX-License-Identifier: MIT */
/* The event recorder of the tests (tests/testlib.c) and of the differential fuzzer
 * (fuzz/fuzz_diff.c): the streaming parser's callbacks as a text log, one line per event.
 *
 * A span is logged once it is whole: consecutive pieces of one kind are merged, so the log does
 * not depend on how the stream was split, as `off=N len=N span[KIND]="BYTES"` with its absolute
 * offset. A span whose first bytes are not from the input (in type both, the first bytes of a
 * method that looked like "HTTP/"; the SP an obs-fold becomes) has the offset `static_off`
 * ('-' or '?'), or with `backfill` the offset of its next input piece minus the bytes before
 * it. A notification is its name ("message begin"). The two logs differ only in what the
 * t_rec's settings say (static_off, backfill, escape, bad_span, the pause rule) and in the
 * callbacks the fuzzer replaces (headers and message complete, field lines whole).
 *
 * Static inline, so a program that leaves a function unused builds warning-free. */
#ifndef SIMDHTTP_T_REC_H
#define SIMDHTTP_T_REC_H

#include <stdint.h>
#include <stdio.h>

#include "simdhttp.h"
#include "t_buf.h"

typedef struct t_rec {
    t_buf log;
    const char *base;     /* buffer of the current execute() call */
    size_t base_len;      /* a span outside [base, base + base_len] holds static bytes */
    uint64_t base_off;    /* absolute offset of base[0] */
    int span_kind;        /* open (unflushed) span kind, -1 if none */
    int64_t span_off;     /* -1: its first piece was not from the input */
    t_buf span;
    unsigned events;      /* callbacks so far */
    int pause_at;         /* pause once on the event with this index (-1: never) */
    unsigned pause_every; /* pause on each event i with i % pause_every == pause_every - 1 (0: never) */
    int pending_pauses;   /* pauses to log ("pause") once the open span is flushed */
    int hc_ret;           /* t_rec_on_headers_complete returns this if non-zero (SIMDHTTP_SKIP_BODY...) */
    /* how the log is written */
    char static_off;      /* the offset written for a span that began with static bytes */
    int backfill;         /* ... unless a later piece of it gives its input offset */
    void (*escape)(t_buf *b, const char *s, size_t n);      /* a span's bytes */
    void (*bad_span)(const char *what); /* if set: called (it must not return) for an empty span
                                         * or one running past the execute() buffer */
    int verdict;          /* "message complete" gives the message's reasons (" reasons=...") */
} t_rec;

enum { T_K_METHOD, T_K_URL, T_K_VERSION, T_K_STATUS_CODE, T_K_STATUS, T_K_FIELD, T_K_VALUE, T_K_BODY,
       T_K_EXT_NAME, T_K_EXT_VALUE };

static inline const char *t_rec_kind_name(int kind)
{
    static const char *const names[] = {"method", "url", "version", "status_code", "status",
                                        "header_field", "header_value", "body", "chunk_extension_name",
                                        "chunk_extension_value"};
    return names[kind];
}

/* @return the absolute offset of at, -1 if it is not in the execute() buffer */
static inline int64_t t_rec_offset(const t_rec *r, const char *at)
{
    uintptr_t a = (uintptr_t)at, b0 = (uintptr_t)r->base;
    return a >= b0 && a <= b0 + r->base_len ? (int64_t)(r->base_off + (a - b0)) : -1;
}

static inline void t_rec_flush(t_rec *r)
{
    if (r->span_kind >= 0) {
        if (r->span_off < 0)
            t_buf_printf(&r->log, "off=%c len=%zu span[%s]=\"", r->static_off, r->span.len,
                         t_rec_kind_name(r->span_kind));
        else
            t_buf_printf(&r->log, "off=%lld len=%zu span[%s]=\"", (long long)r->span_off, r->span.len,
                         t_rec_kind_name(r->span_kind));
        r->escape(&r->log, r->span.s ? r->span.s : "", r->span.len);
        t_buf_put(&r->log, "\"\n", 2);
        r->span_kind = -1;
        r->span.len = 0;
    }
    /* a pause inside a span is logged after the whole (merged) span, so that removing the
     * "pause" lines gives exactly the unpaused log */
    for (; r->pending_pauses > 0; r->pending_pauses--) t_buf_printf(&r->log, "pause\n");
}

/* One more event. @return SIMDHTTP_PAUSE if the parser is to pause on it, else 0 */
static inline int t_rec_pause(t_rec *r)
{
    unsigned i = r->events++;
    if (r->pause_at >= 0 && i == (unsigned)r->pause_at) return SIMDHTTP_PAUSE;
    return r->pause_every && i % r->pause_every == r->pause_every - 1 ? SIMDHTTP_PAUSE : 0;
}

/* @return the offset of a span about to be recorded (t_rec_offset), after the bad_span checks */
static inline int64_t t_rec_check(const t_rec *r, int kind, const char *at, size_t len)
{
    if (r->bad_span && len == 0) {
        fprintf(stderr, "empty %s span\n", t_rec_kind_name(kind));
        r->bad_span("a data callback got an empty span");
    }
    int64_t off = t_rec_offset(r, at);
    if (r->bad_span && off >= 0 && t_rec_offset(r, at + len) < 0) {
        fprintf(stderr, "%s span [%llu, +%zu) runs past the buffer of %zu bytes\n", t_rec_kind_name(kind),
                (unsigned long long)(off - (int64_t)r->base_off), len, r->base_len);
        r->bad_span("span outside the execute() buffer");
    }
    return off;
}

static inline int t_rec_span(t_rec *r, int kind, const char *at, size_t len)
{
    int64_t off = t_rec_check(r, kind, at, len);
    if (r->span_kind != kind) {
        t_rec_flush(r);
        r->span_kind = kind;
        r->span_off = off;
    } else if (r->backfill && r->span_off < 0 && off >= 0) {
        r->span_off = off - (int64_t)r->span.len;
    }
    t_buf_put(&r->span, at, len); /* reads every byte of the span: ASan checks them */
    return t_rec_pause(r);
}

static inline int t_rec_note(t_rec *r, const char *what)
{
    t_rec_flush(r);
    t_buf_printf(&r->log, "%s\n", what);
    return t_rec_pause(r);
}

#define T_REC_SPAN_CB(fn, kind) \
    static inline int fn(simdhttp_parser *p, const char *at, size_t len) { return t_rec_span(p->data, kind, at, len); }
T_REC_SPAN_CB(t_rec_on_method, T_K_METHOD)
T_REC_SPAN_CB(t_rec_on_url, T_K_URL)
T_REC_SPAN_CB(t_rec_on_version, T_K_VERSION)
T_REC_SPAN_CB(t_rec_on_status_code, T_K_STATUS_CODE)
T_REC_SPAN_CB(t_rec_on_status, T_K_STATUS)
T_REC_SPAN_CB(t_rec_on_header_field, T_K_FIELD)
T_REC_SPAN_CB(t_rec_on_header_value, T_K_VALUE)
T_REC_SPAN_CB(t_rec_on_body, T_K_BODY)
T_REC_SPAN_CB(t_rec_on_ext_name, T_K_EXT_NAME)
T_REC_SPAN_CB(t_rec_on_ext_value, T_K_EXT_VALUE)
#undef T_REC_SPAN_CB

#define T_REC_NOTE_CB(fn, text) \
    static inline int fn(simdhttp_parser *p) { return t_rec_note(p->data, text); }
T_REC_NOTE_CB(t_rec_on_message_begin, "message begin")
T_REC_NOTE_CB(t_rec_on_method_complete, "method complete")
T_REC_NOTE_CB(t_rec_on_url_complete, "url complete")
T_REC_NOTE_CB(t_rec_on_version_complete, "version complete")
T_REC_NOTE_CB(t_rec_on_status_code_complete, "status_code complete")
T_REC_NOTE_CB(t_rec_on_status_complete, "status complete")
T_REC_NOTE_CB(t_rec_on_header_field_complete, "header_field complete")
T_REC_NOTE_CB(t_rec_on_header_value_complete, "header_value complete")
T_REC_NOTE_CB(t_rec_on_ext_name_complete, "chunk_extension_name complete")
T_REC_NOTE_CB(t_rec_on_ext_value_complete, "chunk_extension_value complete")
T_REC_NOTE_CB(t_rec_on_chunk_complete, "chunk complete")
#undef T_REC_NOTE_CB

/* " reasons=NAME|NAME" (SIMDHTTP_R_ without the prefix) for a verdict with reasons, nothing
 * for a compliant one */
static inline void t_buf_reasons(t_buf *b, uint32_t reasons)
{
    const char *sep = " reasons=";
    for (int i = 0; i < SIMDHTTP_R_COUNT; i++)
        if (reasons >> i & 1) {
            t_buf_printf(b, "%s%s", sep, simdhttp_reason_name((simdhttp_reason)i));
            sep = "|";
        }
}

static inline int t_rec_on_message_complete(simdhttp_parser *p)
{
    t_rec *r = p->data;
    if (!r->verdict || !p->reasons) return t_rec_note(r, "message complete");
    t_buf b = {0};
    t_buf_printf(&b, "message complete");
    t_buf_reasons(&b, p->reasons);
    int rc = t_rec_note(r, b.s);
    t_buf_free(&b);
    return rc;
}

/* Append flags as NAME|NAME (SIMDHTTP_F_ without the prefix), "0" for none. */
static inline void t_buf_flags(t_buf *b, uint32_t flags)
{
    static const char *const names[] = {"CONNECTION_CLOSE", "CONNECTION_KEEP_ALIVE", "CONNECTION_UPGRADE",
                                        "CHUNKED", "UPGRADE", "CONTENT_LENGTH", "TRANSFER_ENCODING",
                                        "TRAILERS", "SKIP_BODY", "BODY_UNTIL_CLOSE", "KEEP_ALIVE", "CLOSE_AFTER"};
    int first = 1;
    for (unsigned i = 0; i < 32; i++) {
        if (!(flags >> i & 1)) continue;
        if (!first) t_buf_put(b, "|", 1);
        first = 0;
        if (i < sizeof names / sizeof *names) t_buf_printf(b, "%s", names[i]);
        else t_buf_printf(b, "0x%x", 1u << i);
    }
    if (first) t_buf_put(b, "0", 1);
}

/* "headers complete" names the start line's meaning and the framing decision:
 *   headers complete method=GET v=1.1 flags=KEEP_ALIVE|SKIP_BODY content_length=0
 *   headers complete status=200 v=1.0 flags=BODY_UNTIL_CLOSE content_length=0 */
static inline int t_rec_on_headers_complete(simdhttp_parser *p)
{
    t_rec *r = p->data;
    t_rec_flush(r);
    if (p->type == SIMDHTTP_REQUEST) {
        const char *m = simdhttp_method_name((simdhttp_method)p->method);
        t_buf_printf(&r->log, "headers complete method=%s", m ? m : "OTHER");
    } else {
        t_buf_printf(&r->log, "headers complete status=%d", p->status_code);
    }
    t_buf_printf(&r->log, " v=%d.%d flags=", p->http_major, p->http_minor);
    t_buf_flags(&r->log, p->flags);
    t_buf_printf(&r->log, " content_length=%llu\n", (unsigned long long)p->content_length);
    if (simdhttp_should_keep_alive(p) != !!(p->flags & SIMDHTTP_F_KEEP_ALIVE))
        t_buf_printf(&r->log, "should_keep_alive disagrees with flags\n");
    int rc = t_rec_pause(r);
    return r->hc_ret ? r->hc_ret : rc;
}

static inline int t_rec_on_chunk_header(simdhttp_parser *p)
{
    t_rec *r = p->data;
    t_rec_flush(r);
    t_buf_printf(&r->log, "chunk header len=%llu\n", (unsigned long long)p->content_length);
    return t_rec_pause(r);
}

/* The callbacks that record into the t_rec in parser->data (an initializer) */
#define T_REC_CALLBACKS                                                        \
    {                                                                          \
        .on_message_begin = t_rec_on_message_begin,                            \
        .on_method = t_rec_on_method,                                          \
        .on_url = t_rec_on_url,                                                \
        .on_version = t_rec_on_version,                                        \
        .on_status_code = t_rec_on_status_code,                                \
        .on_status = t_rec_on_status,                                          \
        .on_header_field = t_rec_on_header_field,                              \
        .on_header_value = t_rec_on_header_value,                              \
        .on_method_complete = t_rec_on_method_complete,                        \
        .on_url_complete = t_rec_on_url_complete,                              \
        .on_version_complete = t_rec_on_version_complete,                      \
        .on_status_code_complete = t_rec_on_status_code_complete,              \
        .on_status_complete = t_rec_on_status_complete,                        \
        .on_header_field_complete = t_rec_on_header_field_complete,            \
        .on_header_value_complete = t_rec_on_header_value_complete,            \
        .on_headers_complete = t_rec_on_headers_complete,                      \
        .on_body = t_rec_on_body,                                              \
        .on_chunk_header = t_rec_on_chunk_header,                              \
        .on_chunk_extension_name = t_rec_on_ext_name,                          \
        .on_chunk_extension_value = t_rec_on_ext_value,                        \
        .on_chunk_extension_name_complete = t_rec_on_ext_name_complete,        \
        .on_chunk_extension_value_complete = t_rec_on_ext_value_complete,      \
        .on_chunk_complete = t_rec_on_chunk_complete,                          \
        .on_message_complete = t_rec_on_message_complete,                      \
    }

#endif
