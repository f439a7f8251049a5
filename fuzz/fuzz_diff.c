/* SPDX-License-Identifier: MIT */
/* Differential fuzzer: the scalar reference against every scanner path, the streaming API
 * against the head API, one input against any chunking of it.
 *
 * One input = a 10-byte configuration header + the bytes of an HTTP stream:
 *   b0  bits 0-1 type (0 request, 1 response, 2-3 both); bit 2 finish() at the end;
 *       bit 3 resume_after_upgrade on PAUSED_UPGRADE (else stop there); bit 4 small limits
 *       (b3..b5); bits 5-7 chunking mode (see next_piece)
 *   b1  lenient flags, bits 0-7       b2  lenient flags, bits 8-10
 *   b3  max_head_size = b3 * 4 (0: default)        (only with b0 bit 4)
 *   b4  max_fields = b4 & 31 (0: default)          (only with b0 bit 4)
 *   b5  max_chunk_ext = b5 (0: default)            (only with b0 bit 4)
 *   b6  pause: 0 never, else pause at every event i with i % b6 == b6 - 1 (chunked runs only)
 *   b7  on_headers_complete return for messages 0..3, 2 bits each: 2 SKIP_BODY,
 *       3 SKIP_BODY_UPGRADE, else 0
 *   b8, b9  seed of the chunking PRNG; also picks the prefix length for the head API check
 *
 * Runs, all compared with (1):
 *   (1) the streaming parser, scalar path, the whole stream in one execute() call
 *   (2) for every path the CPU supports: the whole stream in one call, then the random
 *       chunking with the random pauses (each piece copied into its own malloc'd buffer of
 *       exactly its size, so ASan sees any read past it)
 *   (3) for every path: simdhttp_parse_head on the whole stream and on a prefix, against the
 *       streaming parser's view of the first head (scalar path, paused at headers complete);
 *       simdhttp_parse_head_continue on the stream arriving in random steps, against
 *       simdhttp_parse_head on each prefix (an error may come late, as INCOMPLETE)
 *   (4) for every path: the stream one byte per execute() call, no pauses: the resumable
 *       byte-at-a-time states only, never the structural pass (stage 2 needs whole lines),
 *       against that path's whole-buffer run, which takes the structural pass
 *   (5) for every path: the whole-field callback (on_header) set, whole and chunked with the
 *       pauses, against the scalar reference with every field line logged whole (name, value
 *       without OWS, their offsets) however it came: on_header or the span callbacks
 * Every parser starts from dirty memory (seeded bytes; the stack too, before parse_head), so a
 * member that init forgets changes a log.
 * A run is recorded as a text log: spans (kind, absolute offset, length, bytes; consecutive
 * pieces of one span merged, so chunking does not matter), notifications with the parser
 * state they expose, and the final result (error name, offset and reason). Any difference
 * prints both logs and traps.
 *
 * Build: `make fuzz` (libFuzzer, clang); `make fuzz-replay` and `make test` replay
 * fuzz/corpus/ through fuzz/replay_main.c, which works with gcc too. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simdhttp.h"
#include "fuzz_common.h"
#include "../tests/t_rec.h"

#define CFG_BYTES 10

/* (small helpers: fuzz/fuzz_common.h) */

/* ------------------------------------------------------------------ configuration ---- */

typedef struct fcfg {
    simdhttp_type type;
    int eof, resume_upgrade;
    unsigned mode;
    simdhttp_config cfg;
    unsigned pause_every;
    uint8_t hc_ret;
    uint32_t seed;
} fcfg;

static void read_cfg(fcfg *c, const uint8_t *d, size_t n)
{
    uint8_t b[CFG_BYTES] = {0};
    memcpy(b, d, n < CFG_BYTES ? n : CFG_BYTES);
    c->type = (b[0] & 3) == 0 ? SIMDHTTP_REQUEST : (b[0] & 3) == 1 ? SIMDHTTP_RESPONSE : SIMDHTTP_BOTH;
    c->eof = (b[0] >> 2) & 1;
    c->resume_upgrade = (b[0] >> 3) & 1;
    c->mode = b[0] >> 5;
    memset(&c->cfg, 0, sizeof c->cfg);
    c->cfg.lenient = ((uint32_t)b[1] | (uint32_t)b[2] << 8) & SIMDHTTP_LENIENT_ALL;
    if (b[0] & 16) {
        c->cfg.max_head_size = (uint32_t)b[3] * 4;
        c->cfg.max_fields = b[4] & 31;
        c->cfg.max_chunk_ext = b[5];
    }
    c->pause_every = b[6];
    c->hc_ret = b[7];
    c->seed = (uint32_t)b[8] | (uint32_t)b[9] << 8;
}

/* ------------------------------------------------------------------ the recorder ---- */

/* The tests' recorder (tests/t_rec.h) with the fuzzer's settings (stream_run): spans' bytes
 * \xNN-escaped, "off=?" for a span that began with static bytes, an empty span or one past the
 * buffer a divergence, a pause every pause_every events; and these callbacks of its own: message
 * begin counted, message and headers complete with the parser's state, and in fields mode (run
 * 5) each field line logged whole however it came. */
typedef struct rec {
    t_rec t;           /* first: p->data is both */
    unsigned messages;
    uint8_t hc_ret;
    int fields;        /* log field lines whole (run 5): "field" lines, from spans or on_header */
    t_buf fname, fval; /* the field line open in spans (fields mode) */
    int64_t fname_off, fval_off;
    int fname_done;    /* on_header_field_complete seen */
} rec;

static void bad_span(const char *what) { diverge(what, NULL, NULL); }

/* The length of s[0..n) without its trailing OWS (SP/HTAB): a streaming value keeps it, the
 * head API and on_header trim it. */
static size_t trim_ows_end(const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    return n;
}

/* Fields mode: one line per field, the same whichever way it came. */
static void put_field(rec *r, const char *name, size_t nl, int64_t noff, const char *value, size_t vl,
                      int64_t voff)
{
    vl = trim_ows_end(value, vl);
    t_buf_printf(&r->t.log, "field @%lld \"", (long long)noff);
    t_buf_hex_escaped(&r->t.log, name, nl);
    if (vl) t_buf_printf(&r->t.log, "\" @%lld \"", (long long)voff);
    else t_buf_put(&r->t.log, "\" \"", 3);
    t_buf_hex_escaped(&r->t.log, value, vl);
    t_buf_put(&r->t.log, "\"\n", 2);
}

/* A field line open in spans is logged when its value completes, or as "partial" where the
 * run ends inside it (an error, an upgrade stop). */
static void field_done(rec *r, const char *partial)
{
    if (!r->fname.len && !r->fval.len && !r->fname_done) return;
    if (partial) t_buf_printf(&r->t.log, "%s ", partial);
    put_field(r, r->fname.s ? r->fname.s : "", r->fname.len, r->fname_off, r->fval.s ? r->fval.s : "",
              r->fval.len, r->fval_off);
    r->fname.len = r->fval.len = 0;
    r->fname_done = 0;
}

static int on_header(simdhttp_parser *p, const char *name, size_t nl, const char *value, size_t vl)
{
    rec *r = p->data;
    if (r->fname.len || r->fval.len || r->fname_done) diverge("on_header while a field line is open in spans", NULL, NULL);
    int64_t no = t_rec_offset(&r->t, name), vo = t_rec_offset(&r->t, value);
    if (nl == 0 || no < 0 || vo < 0 || t_rec_offset(&r->t, name + nl) < 0 || t_rec_offset(&r->t, value + vl) < 0 ||
        (vl && (value[0] == ' ' || value[0] == '\t' || value[vl - 1] == ' ' || value[vl - 1] == '\t'))) {
        fprintf(stderr, "on_header name [%lld, +%zu) value [%lld, +%zu) in a buffer of %zu bytes\n", (long long)no,
                nl, (long long)vo, vl, r->t.base_len);
        diverge("on_header span outside the execute() buffer, empty name or value with OWS", NULL, NULL);
    }
    t_rec_flush(&r->t);
    put_field(r, name, nl, no, value, vl, vo); /* reads every byte: ASan checks them */
    return t_rec_pause(&r->t);
}

/* A name or value span: in fields mode, kept for the whole line */
static int field_span(simdhttp_parser *p, int kind, const char *at, size_t len)
{
    rec *r = p->data;
    if (!r->fields) return t_rec_span(&r->t, kind, at, len);
    int64_t off = t_rec_check(&r->t, kind, at, len);
    t_rec_flush(&r->t);
    t_buf *b = kind == T_K_FIELD ? &r->fname : &r->fval;
    if (kind == T_K_FIELD && (r->fval.len || r->fname_done)) field_done(r, "unended");
    if (b->len == 0) *(kind == T_K_FIELD ? &r->fname_off : &r->fval_off) = off;
    t_buf_put(b, at, len);
    return t_rec_pause(&r->t);
}

static int on_header_field(simdhttp_parser *p, const char *at, size_t len)
{
    return field_span(p, T_K_FIELD, at, len);
}
static int on_header_value(simdhttp_parser *p, const char *at, size_t len)
{
    return field_span(p, T_K_VALUE, at, len);
}

static int on_header_field_complete(simdhttp_parser *p)
{
    rec *r = p->data;
    if (!r->fields) return t_rec_note(&r->t, "header_field complete");
    r->fname_done = 1;
    return t_rec_pause(&r->t);
}

static int on_header_value_complete(simdhttp_parser *p)
{
    rec *r = p->data;
    if (!r->fields) return t_rec_note(&r->t, "header_value complete");
    field_done(r, NULL);
    return t_rec_pause(&r->t);
}

static int on_message_begin(simdhttp_parser *p)
{
    rec *r = p->data;
    r->messages++;
    return t_rec_note(&r->t, "message begin");
}

static int on_message_complete(simdhttp_parser *p)
{
    rec *r = p->data;
    t_rec_flush(&r->t);
    t_buf_printf(&r->t.log, "message complete keep_alive=%d reasons=0x%x\n", simdhttp_should_keep_alive(p),
                 (unsigned)p->reasons);
    return t_rec_pause(&r->t);
}

static int on_headers_complete(simdhttp_parser *p)
{
    rec *r = p->data;
    t_rec_flush(&r->t);
    t_buf_printf(&r->t.log,
                 "headers complete type=%d method=%d v=%d.%d status=%d flags=0x%x content_length=%llu keep_alive=%d\n",
                 p->type, p->method, p->http_major, p->http_minor, p->status_code, p->flags,
                 (unsigned long long)p->content_length, simdhttp_should_keep_alive(p));
    unsigned m = r->messages - 1;
    unsigned v = m < 4 ? (r->hc_ret >> (2 * m)) & 3 : 0;
    if (v >= 2) {
        r->t.events++; /* counted like any event, never paused (the return value is the answer) */
        return v == 2 ? SIMDHTTP_SKIP_BODY : SIMDHTTP_SKIP_BODY_UPGRADE;
    }
    return t_rec_pause(&r->t);
}

/* The tests' callbacks with the ones above; run 5's with the whole-field callback (on_header) */
static simdhttp_callbacks rec_callbacks, whole_callbacks;

static void make_callbacks(void)
{
    if (rec_callbacks.on_message_begin) return;
    rec_callbacks = (simdhttp_callbacks)T_REC_CALLBACKS;
    rec_callbacks.on_message_begin = on_message_begin;
    rec_callbacks.on_header_field = on_header_field;
    rec_callbacks.on_header_value = on_header_value;
    rec_callbacks.on_header_field_complete = on_header_field_complete;
    rec_callbacks.on_header_value_complete = on_header_value_complete;
    rec_callbacks.on_headers_complete = on_headers_complete;
    rec_callbacks.on_message_complete = on_message_complete;
    whole_callbacks = rec_callbacks;
    whole_callbacks.on_header = on_header;
}

static void put_result(t_buf *log, simdhttp_parser *p, const char *what, simdhttp_errno e)
{
    if (e == SIMDHTTP_OK) {
        t_buf_printf(log, "%s ok\n", what);
    } else {
        const char *why = simdhttp_get_error_reason(p);
        t_buf_printf(log, "%s %s off=%llu reason=%s reasons=0x%x\n", what, simdhttp_errno_name(e),
             (unsigned long long)simdhttp_get_error_offset(p), why ? why : "(null)", (unsigned)p->reasons);
    }
}

/* One streaming run. chunked == 0: one execute() call, no pauses. fields: 0 log every span,
 * 1 log field lines whole (run 5's reference), 2 the same with on_header set. Returns the log
 * (malloc'd). */
static char *stream_run(const fcfg *c, const uint8_t *in, size_t len, int chunked, int fields)
{
    rec r;
    memset(&r, 0, sizeof r);
    r.t.span_kind = -1;
    r.t.pause_at = -1;
    r.t.pause_every = chunked ? c->pause_every : 0;
    r.t.static_off = '?';
    r.t.escape = t_buf_hex_escaped;
    r.t.bad_span = bad_span;
    r.hc_ret = c->hc_ret;
    r.fields = fields != 0;
    simdhttp_parser p;
    dirty(&p, sizeof p, c->seed * 2654435761u + (uint32_t)chunked + 2u * (uint32_t)fields);
    make_callbacks();
    simdhttp_init(&p, c->type, fields == 2 ? &whole_callbacks : &rec_callbacks, &c->cfg);
    p.data = &r;
    uint32_t st = c->seed;
    size_t off = 0, k = 0;
    unsigned pauses = 0, upgrades = 0;
    simdhttp_errno e = SIMDHTTP_OK;
    int stopped = 0;
    do {
        size_t n = chunked ? next_piece(c->mode, &st, len - off, len, k) : len - off;
        k++;
        char *piece = exact_copy(in + off, n);
        size_t used = 0;
        for (;;) {
            r.t.base = piece + used;
            r.t.base_len = n - used;
            r.t.base_off = off + used;
            e = simdhttp_execute(&p, piece + used, n - used);
            if (e != SIMDHTTP_E_PAUSED && e != SIMDHTTP_E_PAUSED_UPGRADE) break;
            const char *ep = simdhttp_get_error_pos(&p);
            if ((uintptr_t)ep < (uintptr_t)(piece + used) || (uintptr_t)ep > (uintptr_t)(piece + n) ||
                simdhttp_get_error_offset(&p) != off + (size_t)(ep - piece)) {
                t_rec_flush(&r.t);
                fprintf(stderr, "%s: error_pos %p outside [%p, %p] or offset %llu != %zu\n",
                        simdhttp_errno_name(e), (const void *)ep, (void *)(piece + used), (void *)(piece + n),
                        (unsigned long long)simdhttp_get_error_offset(&p), off + (size_t)(ep - piece));
                diverge("pause position", NULL, NULL);
            }
            used = (size_t)(ep - piece);
            if (e == SIMDHTTP_E_PAUSED) {
                pauses++;
                simdhttp_resume(&p);
                continue;
            }
            t_rec_flush(&r.t);
            field_done(&r, "partial");
            t_buf_printf(&r.t.log, "upgrade off=%llu\n", (unsigned long long)simdhttp_get_error_offset(&p));
            if (!c->resume_upgrade || ++upgrades > 64) {
                stopped = 1;
                break;
            }
            simdhttp_resume_after_upgrade(&p);
        }
        free(piece);
        r.t.base = NULL;
        r.t.base_len = 0;
        if (stopped || (e != SIMDHTTP_OK && e != SIMDHTTP_E_PAUSED_UPGRADE)) break;
        off += n;
        if (k > 4 * len + 64) break; /* mode 7 makes empty pieces; bound the loop */
    } while (off < len);
    t_rec_flush(&r.t);
    field_done(&r, "partial");
    if (stopped) e = SIMDHTTP_OK;
    put_result(&r.t.log, &p, "execute", e);
    if (e != SIMDHTTP_OK) {
        /* an error sticks: execute and finish both return it, and the offset stays */
        uint64_t o = simdhttp_get_error_offset(&p);
        simdhttp_errno e2 = simdhttp_execute(&p, "GET / HTTP/1.1\r\n\r\n", 18);
        simdhttp_errno e3 = simdhttp_finish(&p);
        if (e2 != e || e3 != e || simdhttp_get_error_offset(&p) != o) {
            fprintf(stderr, "error %s then execute -> %s, finish -> %s, offset %llu -> %llu\n",
                    simdhttp_errno_name(e), simdhttp_errno_name(e2), simdhttp_errno_name(e3),
                    (unsigned long long)o, (unsigned long long)simdhttp_get_error_offset(&p));
            diverge("error is not sticky", NULL, NULL);
        }
    } else if (c->eof && off >= len) {
        r.t.pause_every = 0; /* finish() has no resume: a pause there would be an error */
        e = simdhttp_finish(&p);
        t_rec_flush(&r.t);
        field_done(&r, "partial");
        put_result(&r.t.log, &p, "finish", e);
    }
    t_buf_free(&r.t.span), t_buf_free(&r.fname), t_buf_free(&r.fval);
    (void)pauses;
    return r.t.log.s ? r.t.log.s : calloc(1, 1);
}

/* ------------------------------------------------------------------ the first head ---- */

/* The first head as the streaming parser sees it (scalar path, whole buffer, paused at
 * on_headers_complete), rendered the way the head API's result is rendered below. */
typedef struct hrec {
    const char *base;
    size_t len;
    t_buf method, target, reason;
    t_buf out;       /* fields rendered: "name: value\n", "(fold): value\n" */
    t_buf name, value;
    int in_value;  /* a field value is open */
    int64_t method_off, target_off, reason_off;
    uint8_t type, meth, maj, min;
    uint16_t status;
    uint32_t flags, reasons;
    uint64_t content_length;
} hrec;

static int h_in(hrec *h, const char *at) { return (uintptr_t)at >= (uintptr_t)h->base && (uintptr_t)at <= (uintptr_t)h->base + h->len; }

static void h_value_done(hrec *h)
{
    if (!h->in_value) return;
    t_buf_hex_escaped(&h->out, h->value.s ? h->value.s : "", trim_ows_end(h->value.s, h->value.len));
    t_buf_put(&h->out, "\n", 1);
    h->value.len = 0;
    h->in_value = 0;
}

static int h_span_keep(t_buf *b, int64_t *off, hrec *h, const char *at, size_t len)
{
    if (b->len == 0) *off = h_in(h, at) ? (int64_t)((uintptr_t)at - (uintptr_t)h->base) : -1;
    t_buf_put(b, at, len);
    return 0;
}

static int h_method(simdhttp_parser *p, const char *at, size_t len) { hrec *h = p->data; return h_span_keep(&h->method, &h->method_off, h, at, len); }
static int h_url(simdhttp_parser *p, const char *at, size_t len) { hrec *h = p->data; return h_span_keep(&h->target, &h->target_off, h, at, len); }
static int h_status(simdhttp_parser *p, const char *at, size_t len) { hrec *h = p->data; return h_span_keep(&h->reason, &h->reason_off, h, at, len); }

static int h_field(simdhttp_parser *p, const char *at, size_t len)
{
    hrec *h = p->data;
    h_value_done(h);
    t_buf_put(&h->name, at, len);
    return 0;
}

static int h_field_complete(simdhttp_parser *p)
{
    hrec *h = p->data;
    t_buf_hex_escaped(&h->out, h->name.s ? h->name.s : "", h->name.len);
    t_buf_put(&h->out, ": ", 2);
    h->name.len = 0;
    h->in_value = 1;
    return 0;
}

static int h_value(simdhttp_parser *p, const char *at, size_t len)
{
    hrec *h = p->data;
    if (!h_in(h, at)) {
        /* the SP that stands for an obs-fold: the head API starts a new (fold) field here */
        h_value_done(h);
        t_buf_put(&h->out, "(fold): ", 8);
        h->in_value = 1;
        return 0;
    }
    t_buf_put(&h->value, at, len);
    return 0;
}

static int h_value_complete(simdhttp_parser *p)
{
    h_value_done(p->data);
    return 0;
}

static int h_headers_complete(simdhttp_parser *p)
{
    hrec *h = p->data;
    h_value_done(h);
    h->type = p->type;
    h->meth = p->method;
    h->maj = p->http_major;
    h->min = p->http_minor;
    h->status = p->status_code;
    h->flags = p->flags;
    h->content_length = p->content_length;
    h->reasons = p->reasons;
    return SIMDHTTP_PAUSE;
}

static const simdhttp_callbacks head_callbacks = {
    .on_method = h_method,
    .on_url = h_url,
    .on_status = h_status,
    .on_header_field = h_field,
    .on_header_field_complete = h_field_complete,
    .on_header_value = h_value,
    .on_header_value_complete = h_value_complete,
    .on_headers_complete = h_headers_complete,
};

static void render_head_common(t_buf *b, int type, int meth, int maj, int min, int status, uint32_t flags,
                               uint64_t cl, const char *ms, size_t ml, int64_t mo, const char *ts,
                               size_t tl, int64_t to, const char *rs, size_t rl, int64_t ro)
{
    t_buf_printf(b, "type=%d v=%d.%d flags=0x%x content_length=%llu\n", type, maj, min, flags,
         (unsigned long long)(flags & SIMDHTTP_F_CONTENT_LENGTH ? cl : 0));
    if (type == SIMDHTTP_REQUEST) {
        t_buf_printf(b, "method=%d ", meth);
        if (mo >= 0) t_buf_printf(b, "@%lld ", (long long)mo);
        t_buf_put(b, "\"", 1);
        t_buf_hex_escaped(b, ms, ml);
        t_buf_put(b, "\" target=", 9);
        if (to >= 0) t_buf_printf(b, "@%lld ", (long long)to);
        t_buf_put(b, "\"", 1);
        t_buf_hex_escaped(b, ts, tl);
        t_buf_put(b, "\"\n", 2);
    } else {
        t_buf_printf(b, "status=%d reason=", status);
        if (ro >= 0 && rl) t_buf_printf(b, "@%lld ", (long long)ro);
        t_buf_put(b, "\"", 1);
        t_buf_hex_escaped(b, rs, rl);
        t_buf_put(b, "\"\n", 2);
    }
}

/* The streaming parser's first head over in[0..len): "incomplete", "error ..." or the head. */
static char *head_ref(const fcfg *c, const uint8_t *in, size_t len)
{
    hrec h;
    memset(&h, 0, sizeof h);
    h.method_off = h.target_off = h.reason_off = -1;
    char *copy = exact_copy(in, len);
    h.base = copy;
    h.len = len;
    simdhttp_parser p;
    dirty(&p, sizeof p, c->seed ^ (uint32_t)len);
    simdhttp_init(&p, c->type, &head_callbacks, &c->cfg);
    p.data = &h;
    simdhttp_errno e = simdhttp_execute(&p, copy, len);
    t_buf b = {0};
    if (e == SIMDHTTP_OK) {
        t_buf_put(&b, "incomplete\n", 11);
    } else if (e == SIMDHTTP_E_PAUSED) {
        uint64_t hl = simdhttp_get_error_offset(&p);
        t_buf_printf(&b, "head_len=%llu reasons=0x%x\n", (unsigned long long)hl, (unsigned)h.reasons);
        /* a request's "HTTP/"-prefixed method came from static bytes: its offset is 0 after
         * any leading empty lines, which the head API points at directly */
        render_head_common(&b, h.type, h.meth, h.maj, h.min, h.status, h.flags, h.content_length,
                           h.method.s ? h.method.s : "", h.method.len, h.method_off,
                           h.target.s ? h.target.s : "", h.target.len, h.target_off,
                           h.reason.s ? h.reason.s : "", h.reason.len, h.reason_off);
        t_buf_put(&b, h.out.s ? h.out.s : "", h.out.len);
    } else {
        t_buf_printf(&b, "error %s off=%llu reason=%s reasons=0x%x\n", simdhttp_errno_name(e),
             (unsigned long long)simdhttp_get_error_offset(&p), simdhttp_get_error_reason(&p), (unsigned)p.reasons);
    }
    free(copy);
    t_buf_free(&h.method), t_buf_free(&h.target), t_buf_free(&h.reason);
    t_buf_free(&h.out), t_buf_free(&h.name), t_buf_free(&h.value);
    return b.s;
}

/* The head API over in[0..len), rendered like head_ref; last_len > 0: through
 * simdhttp_parse_head_continue, as after a call on in[0..last_len). fields: an array of
 * cap >= len + 1 (the walk below reuses one: a fresh one per call cost half the run under
 * ASan), or NULL for a fresh one. */
static char *head_api_at(const fcfg *c, const uint8_t *in, size_t len, size_t last_len, simdhttp_field *fields,
                         size_t cap)
{
    char *copy = exact_copy(in, len);
    simdhttp_field *own = NULL;
    if (!fields) {
        cap = len + 1; /* never the binding limit: max_fields is (obs-fold lines count here only) */
        fields = own = malloc(cap * sizeof *fields);
        if (!own) abort();
    }
    simdhttp_head h;
    memset(&h, 0xA5, sizeof h); /* out fields must all be written */
    h.fields = fields;
    h.fields_cap = cap;
    if (!last_len) dirty_stack(c->seed + (uint32_t)len); /* parse_head's parser lives there */
    long r = last_len ? simdhttp_parse_head_continue(&h, c->type, copy, len, last_len, &c->cfg)
                      : simdhttp_parse_head(&h, c->type, copy, len, &c->cfg);
    t_buf b = {0};
    if (r == SIMDHTTP_HEAD_INCOMPLETE) {
        t_buf_put(&b, "incomplete\n", 11);
    } else if (r == SIMDHTTP_HEAD_ERROR) {
        t_buf_printf(&b, "error %s off=%zu reason=%s reasons=0x%x\n", simdhttp_errno_name(h.error), h.error_offset,
             h.error_reason ? h.error_reason : "(null)", (unsigned)h.reasons);
    } else if (r <= 0 || (size_t)r > len) {
        t_buf_printf(&b, "bad return %ld\n", r);
    } else {
        t_buf_printf(&b, "head_len=%ld reasons=0x%x\n", r, (unsigned)h.reasons);
        const char *ms = h.type == SIMDHTTP_REQUEST ? h.method_str : "";
        size_t ml = h.type == SIMDHTTP_REQUEST ? h.method_len : 0;
        const char *ts = h.type == SIMDHTTP_REQUEST ? h.target : "";
        size_t tl = h.type == SIMDHTTP_REQUEST ? h.target_len : 0;
        const char *rs = h.type == SIMDHTTP_RESPONSE ? h.reason : "";
        size_t rl = h.type == SIMDHTTP_RESPONSE ? h.reason_len : 0;
        int64_t mo = h.type == SIMDHTTP_REQUEST ? (int64_t)(ms - copy) : -1;
        int64_t to = h.type == SIMDHTTP_REQUEST ? (int64_t)(ts - copy) : -1;
        int64_t ro = h.type == SIMDHTTP_RESPONSE ? (int64_t)(rs - copy) : -1;
        /* a method that starts with "HTTP/" bytes (type BOTH) has no offset in the reference */
        if (h.type == SIMDHTTP_REQUEST && c->type == SIMDHTTP_BOTH && ml && ms[0] == 'H') mo = -1;
        if ((mo >= 0 && (size_t)mo + ml > (size_t)r) || (to >= 0 && (size_t)to + tl > (size_t)r) ||
            (ro >= 0 && (size_t)ro + rl > (size_t)r))
            diverge("head API span outside the head", NULL, NULL);
        render_head_common(&b, h.type, h.method, h.http_major, h.http_minor, h.status_code, h.flags,
                           h.content_length, ms, ml, mo, ts, tl, to, rs, rl, ro);
        if (h.num_fields > cap) diverge("head API num_fields > fields_cap", NULL, NULL);
        for (size_t i = 0; i < h.num_fields; i++) {
            simdhttp_field *f = &fields[i];
            if ((f->name && (uintptr_t)f->name < (uintptr_t)copy) ||
                (uintptr_t)f->value < (uintptr_t)copy ||
                (uintptr_t)f->value + f->value_len > (uintptr_t)copy + (size_t)r ||
                (f->name && (uintptr_t)f->name + f->name_len > (uintptr_t)copy + (size_t)r))
                diverge("head API field outside the head", NULL, NULL);
            if (f->name) t_buf_hex_escaped(&b, f->name, f->name_len);
            else t_buf_put(&b, "(fold)", 6);
            t_buf_put(&b, ": ", 2);
            t_buf_hex_escaped(&b, f->value, f->value_len);
            t_buf_put(&b, "\n", 1);
        }
    }
    free(own);
    free(copy);
    return b.s;
}

static char *head_api(const fcfg *c, const uint8_t *in, size_t len) { return head_api_at(c, in, len, 0, NULL, 0); }

/* What simdhttp_parse_head says on the prefix in[0..k), known from its answer on the whole
 * input (whole, checked against the streaming parser before the walk): a head of H bytes is
 * "incomplete" before H and the same head after H; "incomplete" stays "incomplete" on every
 * prefix. NULL where it cannot tell: after an error a prefix gets "incomplete" or an error,
 * depending on where the error is seen; at H itself, a head that ends in a CR (lenient bare
 * CR) is "incomplete", as an LF may follow, unless that CR is the buffer's last byte. */
static const char *head_on_prefix(const char *whole, const uint8_t *in, size_t len, size_t k)
{
    if (strcmp(whole, "incomplete\n") == 0) return whole;
    if (strncmp(whole, "head_len=", 9) != 0) return NULL;
    size_t h = (size_t)strtoull(whole + 9, NULL, 10);
    if (k < h) return "incomplete\n";
    return k > h || k == len || in[h - 1] != '\r' ? whole : NULL;
}

/* The head arriving in random steps through simdhttp_parse_head_continue: each answer is
 * parse_head's on that prefix, except that an error may come late as "incomplete". Calling
 * parse_head on every prefix made the walk quadratic (16 exec/s on 4 KiB inputs), so the
 * prefix's answer comes from the whole input's (head_on_prefix); parse_head itself runs only
 * where that cannot say (an error), where the answers differ (to tell which side is wrong),
 * at the last step, and at a few random steps, which check head_on_prefix's rule too. */
static void head_continue_walk(const fcfg *c, const uint8_t *in, size_t len, const char *whole)
{
    uint32_t st = c->seed ^ 0x2545f491u, sst = c->seed ^ 0x68e31da4u; /* steps, samples */
    size_t last = 0;
    unsigned samples = 0;
    simdhttp_field *fields = malloc((len + 1) * sizeof *fields);
    if (!fields) abort();
    for (size_t k = 0;;) {
        k += 1 + rnd(&st) % (c->mode & 1 ? 3 : 24);
        if (k > len) k = len;
        char *got = head_api_at(c, in, k, last, fields, len + 1);
        int done = strcmp(got, "incomplete\n") != 0;
        const char *known = head_on_prefix(whole, in, len, k);
        int sample = samples < 4 && rnd(&sst) % 16 == 0;
        if (done || k == len || sample || (known && strcmp(known, got) != 0)) {
            samples += sample;
            char *want = head_api_at(c, in, k, 0, fields, len + 1);
            int late = !done && strncmp(want, "error ", 6) == 0;
            if (strcmp(want, got) != 0 && !late) diverge("parse_head_continue vs parse_head", want, got);
            if (known && strcmp(known, want) != 0) diverge("parse_head on a prefix vs on the whole input", known, want);
            free(want);
        }
        free(got);
        if (done || k == len) break;
        last = k;
    }
    free(fields);
}

/* ------------------------------------------------------------------ the entry point ---- */

/* libFuzzer calls this once: say which paths this run compares (fuzz/run.sh reports it). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    print_paths("fuzz_diff");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fcfg c;
    read_cfg(&c, data, size);
    const uint8_t *in = size > CFG_BYTES ? data + CFG_BYTES : data + size;
    size_t len = size > CFG_BYTES ? size - CFG_BYTES : 0;
    char what[96];

    if (simdhttp_isa_set(SIMDHTTP_ISA_SCALAR) != 0) diverge("scalar path refused", NULL, NULL);
    cur_what = "reference: scalar, whole";
    char *ref = stream_run(&c, in, len, 0, 0);
    char *fref = stream_run(&c, in, len, 0, 1);
    static int verbose = -1;
    if (verbose < 0) verbose = getenv("FUZZ_DIFF_VERBOSE") != NULL;

    /* the first head, whole and cut at a random point (incomplete / same error / same head) */
    uint32_t st = c.seed ^ 0x5bd1e995u;
    size_t cut = len ? rnd(&st) % (len + 1) : 0;
    char *href = head_ref(&c, in, len);
    char *hcut = head_ref(&c, in, cut);
    if (verbose)
        fprintf(stderr, "---- type %d eof %d lenient 0x%x mode %u pause %u hc 0x%x cut %zu\n%s---- fields whole\n%s"
                "---- head\n%s---- head of prefix\n%s",
                c.type, c.eof, c.cfg.lenient, c.mode, c.pause_every, c.hc_ret, cut, ref, fref, href, hcut);

    for (size_t i = 0; i < sizeof all_isas / sizeof *all_isas; i++) {
        simdhttp_isa isa = all_isas[i];
        if (!simdhttp_isa_supported(isa)) continue;
        if (simdhttp_isa_set(isa) != 0 || simdhttp_isa_get() != isa)
            diverge("simdhttp_isa_set did not take", NULL, NULL);
        const char *name = simdhttp_isa_to_name(isa);
        snprintf(what, sizeof what, "%s, whole", name);
        cur_what = what;
        if (isa != SIMDHTTP_ISA_SCALAR) check("streaming, whole buffer", ref, stream_run(&c, in, len, 0, 0));
        snprintf(what, sizeof what, "%s, chunking mode %u seed %u, pause every %u", name, c.mode,
                 (unsigned)c.seed, c.pause_every);
        check("streaming, chunked", ref, stream_run(&c, in, len, 1, 0));
        snprintf(what, sizeof what, "%s, head API, %zu bytes", name, len);
        check("head API vs streaming head", href, head_api(&c, in, len));
        snprintf(what, sizeof what, "%s, head API, prefix of %zu bytes", name, cut);
        check("head API vs streaming head (prefix)", hcut, head_api(&c, in, cut));
        snprintf(what, sizeof what, "%s, parse_head_continue in steps, seed %u", name, (unsigned)c.seed);
        head_continue_walk(&c, in, len, href);
        /* (4) structural (whole, checked above against ref) against byte at a time */
        fcfg bytewise = c;
        bytewise.mode = 1;
        bytewise.pause_every = 0;
        snprintf(what, sizeof what, "%s, one byte per execute", name);
        check("streaming, one byte per execute (no structural pass)", ref, stream_run(&bytewise, in, len, 1, 0));
        /* (5) the whole-field callback, whole and chunked with the pauses */
        snprintf(what, sizeof what, "%s, on_header, whole", name);
        check("on_header vs span callbacks, whole", fref, stream_run(&c, in, len, 0, 2));
        snprintf(what, sizeof what, "%s, on_header, chunking mode %u seed %u, pause every %u", name, c.mode,
                 (unsigned)c.seed, c.pause_every);
        check("on_header vs span callbacks, chunked", fref, stream_run(&c, in, len, 1, 2));
    }
    simdhttp_isa_set(SIMDHTTP_ISA_SCALAR);
    cur_what = "";
    free(ref);
    free(fref);
    free(href);
    free(hcut);
    return 0;
}
