/* SPDX-License-Identifier: MIT */
/* One side of fuzz/fuzz_http_parser.c, written against http-parser's API only. SIDE_RUN names
 * the entry point (real_side_run, layer_side_run); mk/compat-http-parser.mk compiles it against
 * Debian's http_parser.h with fuzz/http_parser_real.h included first (http_parser_* ->
 * real_http_parser_*), and against the layer's header. */
#include <stdlib.h>
#include <string.h>

#include "http_parser.h"
#include "http_parser_side.h"

typedef struct side {
    http_parser p;
    side_log *log;
    int last; /* 1 url, 2 name, 3 value, 4 body */
    int space;   /* the last value byte stored was a collapsed SP */
    size_t vlen; /* bytes of the current value stored */
} side;

static side_msg *cur(http_parser *p)
{
    side_log *l = ((side *)p->data)->log;
    return l->nmsgs && l->nmsgs <= SIDE_MAX_MSGS ? &l->msg[l->nmsgs - 1] : NULL; /* the first ones */
}

static side_state *cur_state(http_parser *p)
{
    side_log *l = ((side *)p->data)->log;
    return l->nmsgs && l->nmsgs <= SIDE_MAX_STATES ? &l->st[l->nmsgs - 1] : NULL; /* zeroed by SIDE_RUN */
}

static void put(side_msg *m, const char *at, size_t n)
{
    if (m->head_len + n > SIDE_BYTES) {
        m->truncated = 1;
        n = SIDE_BYTES - m->head_len;
    }
    if (n) memcpy(m->head + m->head_len, at, n);
    m->head_len += n;
}

static int on_begin(http_parser *p)
{
    side_log *l = ((side *)p->data)->log;
    ((side *)p->data)->last = 0;
    if (l->nmsgs++ >= SIDE_MAX_MSGS) return 0;
    side_msg *m = &l->msg[l->nmsgs - 1];
    memset(m, 0, sizeof *m);
    m->body_hash = 0xcbf29ce484222325u;
    return 0;
}

/* an element ends: a value loses its trailing SP; a NUL separates elements */
static void end_element(side *s, side_msg *m)
{
    if (s->last == 3 && s->space && m->head_len && !m->truncated) m->head_len--;
    put(m, "", 1);
}

static int span(http_parser *p, int kind, const char *at, size_t n)
{
    side *s = p->data;
    side_msg *m = cur(p);
    if (!m) return 0;
    if (s->last != kind && s->last) end_element(s, m);
    if (s->last != kind) s->space = 0, s->vlen = 0;
    s->last = kind;
    if (kind != 3) {
        put(m, at, n);
        return 0;
    }
    for (size_t i = 0; i < n; i++) { /* values: trimmed, SP/HTAB runs as one SP (obs-fold) */
        int ws = at[i] == ' ' || at[i] == '\t';
        if (ws && (s->space || s->vlen == 0)) continue;
        s->space = ws;
        put(m, ws ? " " : at + i, 1);
        s->vlen++;
    }
    return 0;
}

static int on_body(http_parser *p, const char *at, size_t n);
static int on_url(http_parser *p, const char *at, size_t n) { return span(p, 1, at, n); }
/* after the head, field lines are trailers: their bytes but SP/HTAB (an obs-fold is one SP in
 * the layer) are counted with the body, compared when it is */
static int trailer(http_parser *p, const char *at, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (at[i] != ' ' && at[i] != '\t') on_body(p, at + i, 1);
    return 0;
}
static int on_field(http_parser *p, const char *at, size_t n)
{
    return ((side *)p->data)->last == 4 ? trailer(p, at, n) : span(p, 2, at, n);
}
static int on_value(http_parser *p, const char *at, size_t n)
{
    return ((side *)p->data)->last == 4 ? trailer(p, at, n) : span(p, 3, at, n);
}
static int on_body(http_parser *p, const char *at, size_t n)
{
    side_msg *m = cur(p);
    if (!m) return 0;
    m->body_len += n;
    for (size_t i = 0; i < n; i++) m->body_hash = (m->body_hash ^ (unsigned char)at[i]) * 0x100000001b3u;
    return 0;
}
static int on_headers(http_parser *p)
{
    side_msg *m = cur(p);
    side *s = p->data;
    if (m && s->last && s->last != 4) end_element(s, m);
    if (m) {
        m->method = p->type == HTTP_REQUEST ? p->method : 0;
        m->status = p->status_code;
        m->major = p->http_major;
        m->minor = p->http_minor;
        m->framing = p->flags & (F_CHUNKED | F_CONTENTLENGTH);
        m->headed = 1;
    }
    side_state *st = cur_state(p);
    if (st) {
        st->framing = p->flags & (F_CHUNKED | F_CONTENTLENGTH);
        st->headed = 1;
    }
    ((side *)p->data)->last = 4;
    return 0;
}
static int on_complete(http_parser *p)
{
    side_msg *m = cur(p);
    if (m) m->complete = 1;
    side_state *st = cur_state(p);
    if (st) st->complete = 1;
    return 0;
}

static const http_parser_settings settings = {
    .on_message_begin = on_begin,
    .on_url = on_url,
    .on_header_field = on_field,
    .on_header_value = on_value,
    .on_headers_complete = on_headers,
    .on_body = on_body,
    .on_message_complete = on_complete,
};

void SIDE_RUN(const uint8_t *data, size_t len, int type, size_t split, side_log *out)
{
    side *s = calloc(1, sizeof *s);
    if (!s) abort();
    memset(out, 0, sizeof *out);
    s->log = out;
    http_parser_init(&s->p, type == 0 ? HTTP_REQUEST : type == 1 ? HTTP_RESPONSE : HTTP_BOTH);
    s->p.data = s;
    size_t cuts[2] = {split && split < len ? split : len, len}, off = 0;
    out->stopped = len;
    for (int i = 0; i < 2 && off < len; i++) {
        size_t n = cuts[i] - off;
        /* each piece in its own buffer, so ASan sees a read past it */
        char *piece = malloc(n ? n : 1);
        if (!piece) abort();
        memcpy(piece, data + off, n);
        size_t r = http_parser_execute(&s->p, &settings, piece, n);
        free(piece);
        if (HTTP_PARSER_ERRNO(&s->p) != HPE_OK || s->p.upgrade || r != n) {
            out->stopped = off + r;
            break;
        }
        off += n;
    }
    if (out->stopped == len && !s->p.upgrade) http_parser_execute(&s->p, &settings, NULL, 0);
    out->error = HTTP_PARSER_ERRNO(&s->p);
    out->errname = http_errno_name(HTTP_PARSER_ERRNO(&s->p));
    out->upgrade = s->p.upgrade;
    free(s);
}
