/* SPDX-License-Identifier: MIT */
/* simdhttp parse: feed a raw byte stream to the streaming parser, print one JSON line per
 * complete message (see docs/cli.md for the format and every choice made here).
 *
 * Spans may arrive in pieces (--split), so everything is copied into growable buffers and
 * printed at on_message_complete. Memory grows with the largest message, never with a fixed
 * limit of our own: the parser's limits (--max-head-size, --max-fields, --max-chunk-ext) are
 * the only ones. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "simdhttp.h"

/* ---- growable byte buffer ---- */
typedef struct buf {
    char *s;
    size_t len, cap;
} buf;

static void die_oom(void)
{
    fprintf(stderr, "simdhttp parse: out of memory\n");
    exit(2);
}

static void buf_reserve(buf *b, size_t more)
{
    if (more <= b->cap - b->len) return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < more) {
        if (cap > SIZE_MAX / 2) die_oom();
        cap *= 2;
    }
    char *s = realloc(b->s, cap);
    if (!s) die_oom();
    b->s = s;
    b->cap = cap;
}

static void buf_put(buf *b, const char *s, size_t n)
{
    if (!n) return;
    buf_reserve(b, n);
    memcpy(b->s + b->len, s, n);
    b->len += n;
}

static void buf_puts(buf *b, const char *s) { buf_put(b, s, strlen(s)); }

/* A JSON string holding bytes, each byte one character U+0000..U+00FF, so that any byte
 * sequence round-trips (decode the JSON, encode as Latin-1). Only '"', '\\', bytes below 0x20
 * and bytes from 0x7F up are escaped, always as \u00XX: one rule, easy to check. */
static void buf_json_str(buf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    buf_reserve(b, n * 6 + 2);
    char *o = b->s + b->len;
    *o++ = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            *o++ = '\\';
            *o++ = (char)c;
        } else if (c < 0x20 || c >= 0x7f) {
            memcpy(o, "\\u00", 4);
            o[4] = hex[c >> 4];
            o[5] = hex[c & 15];
            o += 6;
        } else {
            *o++ = (char)c;
        }
    }
    *o++ = '"';
    b->len = (size_t)(o - b->s);
}

/* ---- one message being collected ---- */
typedef struct field {
    size_t name_off, name_len, value_off, value_len;
    int trailer;
} field;

typedef struct state {
    buf method, target, version, reason, body;
    buf fbytes;          /* names and values of all field lines, back to back */
    field *fields;       /* headers, then trailers */
    size_t nfields, capfields;
    int in_name;         /* inside a field name (the next name span continues it) */
    int skip_body;       /* --skip-body */
    uintptr_t in_lo, in_hi; /* the input: a value span outside it is the parser's obs-fold SP */
    buf out;             /* JSON lines not yet written */
    unsigned long messages;
} state;

static state *st_of(simdhttp_parser *p) { return (state *)p->data; }

static int on_message_begin(simdhttp_parser *p)
{
    state *s = st_of(p);
    s->method.len = s->target.len = s->version.len = s->reason.len = s->body.len = 0;
    s->fbytes.len = 0;
    s->nfields = 0;
    s->in_name = 0;
    return 0;
}

static int on_method(simdhttp_parser *p, const char *at, size_t n) { return buf_put(&st_of(p)->method, at, n), 0; }
static int on_url(simdhttp_parser *p, const char *at, size_t n) { return buf_put(&st_of(p)->target, at, n), 0; }
static int on_version(simdhttp_parser *p, const char *at, size_t n) { return buf_put(&st_of(p)->version, at, n), 0; }
static int on_status(simdhttp_parser *p, const char *at, size_t n) { return buf_put(&st_of(p)->reason, at, n), 0; }
static int on_body(simdhttp_parser *p, const char *at, size_t n) { return buf_put(&st_of(p)->body, at, n), 0; }

static int on_header_field(simdhttp_parser *p, const char *at, size_t n)
{
    state *s = st_of(p);
    if (!s->in_name) { /* first piece of a new field name */
        if (s->nfields == s->capfields) {
            size_t cap = s->capfields ? s->capfields * 2 : 32;
            field *f = realloc(s->fields, cap * sizeof *f);
            if (!f) die_oom();
            s->fields = f;
            s->capfields = cap;
        }
        field *f = &s->fields[s->nfields++];
        f->name_off = s->fbytes.len;
        f->name_len = f->value_len = 0;
        f->value_off = 0;
        f->trailer = (p->flags & SIMDHTTP_F_TRAILERS) != 0;
        s->in_name = 1;
    }
    buf_put(&s->fbytes, at, n);
    s->fields[s->nfields - 1].name_len += n;
    return 0;
}

static int on_header_field_complete(simdhttp_parser *p)
{
    state *s = st_of(p);
    s->in_name = 0;
    if (s->nfields) s->fields[s->nfields - 1].value_off = s->fbytes.len; /* an empty value has no span */
    return 0;
}

/* Drop trailing SP/HTAB from the value being collected (always the last bytes of fbytes). */
static void trim_value(state *s, field *f)
{
    while (f->value_len && (s->fbytes.s[f->value_off + f->value_len - 1] == ' ' ||
                            s->fbytes.s[f->value_off + f->value_len - 1] == '\t'))
        f->value_len--;
    s->fbytes.len = f->value_off + f->value_len;
}

static int on_header_value(simdhttp_parser *p, const char *at, size_t n)
{
    state *s = st_of(p);
    if (!s->nfields) return 0; /* cannot happen: a value always follows a name */
    field *f = &s->fields[s->nfields - 1];
    if ((uintptr_t)at < s->in_lo || (uintptr_t)at >= s->in_hi) {
        /* The SP the parser gives for an obs-fold (lenient obs_fold) is not in our input. The
         * whole fold, OWS CRLF RWS (RFC 9112 section 5.2), becomes one SP: the OWS before it
         * was already delivered as part of the value, so drop it here. */
        trim_value(s, f);
        if (f->value_len == 0) return 0; /* nor is a fold leading OWS */
    }
    buf_put(&s->fbytes, at, n);
    f->value_len += n;
    return 0;
}

static int on_header_value_complete(simdhttp_parser *p)
{
    state *s = st_of(p);
    if (!s->nfields) return 0;
    /* The streaming API leaves trailing OWS in the value (it cannot know a space is trailing
     * until the line ends): RFC 9112 section 5 excludes it from the field value. */
    trim_value(s, &s->fields[s->nfields - 1]);
    return 0;
}

static int on_headers_complete(simdhttp_parser *p)
{
    /* --skip-body: every response answers a HEAD (RFC 9110 section 9.3.2: no content). */
    if (st_of(p)->skip_body && p->type == SIMDHTTP_RESPONSE) return SIMDHTTP_SKIP_BODY;
    return 0;
}

static void put_fields(state *s, int trailers)
{
    int first = 1;
    buf_puts(&s->out, "[");
    for (size_t i = 0; i < s->nfields; i++) {
        const field *f = &s->fields[i];
        if (f->trailer != trailers) continue;
        buf_puts(&s->out, first ? "[" : ",[");
        first = 0;
        buf_json_str(&s->out, s->fbytes.s + f->name_off, f->name_len);
        buf_puts(&s->out, ",");
        buf_json_str(&s->out, s->fbytes.s + f->value_off, f->value_len);
        buf_puts(&s->out, "]");
    }
    buf_puts(&s->out, "]");
}

static int on_message_complete(simdhttp_parser *p)
{
    state *s = st_of(p);
    buf *o = &s->out;
    char num[32];
    if (p->type == SIMDHTTP_RESPONSE) {
        buf_puts(o, "{\"type\":\"response\",\"status\":");
        snprintf(num, sizeof num, "%u", (unsigned)p->status_code);
        buf_puts(o, num);
        buf_puts(o, ",\"reason\":");
        buf_json_str(o, s->reason.s, s->reason.len);
    } else {
        buf_puts(o, "{\"type\":\"request\",\"method\":");
        buf_json_str(o, s->method.s, s->method.len);
        buf_puts(o, ",\"target\":");
        buf_json_str(o, s->target.s, s->target.len);
    }
    buf_puts(o, ",\"version\":");
    buf_json_str(o, s->version.s, s->version.len);
    buf_puts(o, ",\"headers\":");
    put_fields(s, 0);
    buf_puts(o, ",\"body\":");
    buf_json_str(o, s->body.s, s->body.len);
    buf_puts(o, ",\"trailers\":");
    put_fields(s, 1);
    buf_puts(o, simdhttp_should_keep_alive(p) ? ",\"keep_alive\":true" : ",\"keep_alive\":false");
    buf_puts(o, (p->flags & SIMDHTTP_F_UPGRADE) ? ",\"upgrade\":true}\n" : ",\"upgrade\":false}\n");
    s->messages++;
    if (o->len >= 1u << 16) { /* write as we go: output must not grow with the stream */
        fwrite(o->s, 1, o->len, stdout);
        o->len = 0;
    }
    return 0;
}

/* ---- command line ---- */
static int usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "simdhttp parse: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr,
            "\nusage: simdhttp parse [--request|--response|--auto] [--lenient FLAG[,FLAG...]]\n"
            "                      [--skip-body] [--split N] [--no-eof]\n"
            "                      [--max-head-size N] [--max-fields N] [--max-chunk-ext N] [FILE|-]\n"
            "lenient flags:");
    for (unsigned bit = 1; bit && bit <= SIMDHTTP_LENIENT_ALL; bit <<= 1)
        if (simdhttp_lenient_name(bit)) fprintf(stderr, " %s", simdhttp_lenient_name(bit));
    fprintf(stderr, " bare_lf\n");
    return 2;
}

/* A positive decimal number up to `max`. @return 0 on success. */
static int parse_count(const char *s, unsigned long long max, unsigned long long *out)
{
    if (*s < '0' || *s > '9') return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v == 0 || v > max) return -1;
    *out = v;
    return 0;
}

/* "a,b,c": every name must be one simdhttp_lenient_from_name() knows. */
static int parse_lenient(const char *list, uint32_t *flags, const char **bad)
{
    const char *s = list;
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        unsigned f = n ? simdhttp_lenient_from_name(s, n) : 0;
        if (!f) {
            *bad = s;
            return -1;
        }
        *flags |= f;
        if (!comma) return 0;
        s = comma + 1;
    }
}

static int read_all(FILE *f, buf *in)
{
    for (;;) {
        buf_reserve(in, 1u << 16);
        size_t n = fread(in->s + in->len, 1, in->cap - in->len, f);
        in->len += n;
        if (n == 0) return ferror(f) ? -1 : 0;
    }
}

int cli_parse(int argc, char **argv)
{
    simdhttp_type type = SIMDHTTP_BOTH;
    simdhttp_config cfg = {0};
    unsigned long long split = 0, v;
    int no_eof = 0, skip_body = 0;
    const char *path = NULL;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        char name[32];
        /* --opt VALUE or --opt=VALUE for the options that take one */
        const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        if (eq && (size_t)(eq - a) < sizeof name) {
            memcpy(name, a, (size_t)(eq - a));
            name[eq - a] = 0;
            val = eq + 1;
            a = name;
        }
        int takes = !strcmp(a, "--lenient") || !strcmp(a, "--split") || !strcmp(a, "--max-head-size") ||
                    !strcmp(a, "--max-fields") || !strcmp(a, "--max-chunk-ext");
        if (val && !takes) return usage("option '%s' takes no value", a);
        if (takes && !val) {
            if (i + 1 >= argc) return usage("option '%s' needs a value", a);
            val = argv[++i];
        }
        if (!strcmp(a, "--request")) type = SIMDHTTP_REQUEST;
        else if (!strcmp(a, "--response")) type = SIMDHTTP_RESPONSE;
        else if (!strcmp(a, "--auto")) type = SIMDHTTP_BOTH;
        else if (!strcmp(a, "--skip-body")) skip_body = 1;
        else if (!strcmp(a, "--no-eof")) no_eof = 1;
        else if (!strcmp(a, "--lenient")) {
            const char *bad;
            if (parse_lenient(val, &cfg.lenient, &bad)) return usage("unknown lenient flag in '%s'", bad);
        } else if (!strcmp(a, "--split")) {
            if (parse_count(val, SIZE_MAX, &split)) return usage("--split wants a number >= 1, not '%s'", val);
        } else if (!strcmp(a, "--max-head-size")) {
            if (parse_count(val, UINT32_MAX, &v)) return usage("--max-head-size wants a number >= 1, not '%s'", val);
            cfg.max_head_size = (uint32_t)v;
        } else if (!strcmp(a, "--max-fields")) {
            if (parse_count(val, UINT32_MAX, &v)) return usage("--max-fields wants a number >= 1, not '%s'", val);
            cfg.max_fields = (uint32_t)v;
        } else if (!strcmp(a, "--max-chunk-ext")) {
            if (parse_count(val, UINT32_MAX, &v)) return usage("--max-chunk-ext wants a number >= 1, not '%s'", val);
            cfg.max_chunk_ext = (uint32_t)v;
        } else if (!strcmp(a, "--")) {
            if (i + 2 < argc) return usage("%s", "more than one input");
            if (i + 1 < argc) path = argv[i + 1];
            break;
        } else if (a[0] == '-' && a[1] != 0) {
            return usage("unknown option '%s'", argv[i]);
        } else {
            if (path) return usage("more than one input ('%s')", a);
            path = a;
        }
    }

    buf in = {0};
    FILE *f = stdin;
    if (path && strcmp(path, "-") != 0) {
        f = fopen(path, "rb");
        if (!f) {
            fprintf(stderr, "simdhttp parse: %s: %s\n", path, strerror(errno));
            return 2;
        }
    }
    int rerr = read_all(f, &in);
    if (f != stdin) fclose(f);
    if (rerr) {
        fprintf(stderr, "simdhttp parse: %s: read error\n", path ? path : "-");
        free(in.s);
        return 2;
    }

    static const simdhttp_callbacks cb = {
        .on_message_begin = on_message_begin,
        .on_method = on_method,
        .on_url = on_url,
        .on_version = on_version,
        .on_status = on_status,
        .on_header_field = on_header_field,
        .on_header_value = on_header_value,
        .on_header_field_complete = on_header_field_complete,
        .on_header_value_complete = on_header_value_complete,
        .on_headers_complete = on_headers_complete,
        .on_body = on_body,
        .on_message_complete = on_message_complete,
    };
    state s = {0};
    s.skip_body = skip_body;
    s.in_lo = (uintptr_t)in.s;
    s.in_hi = (uintptr_t)in.s + in.len;
    simdhttp_parser p;
    simdhttp_init(&p, type, &cb, &cfg);
    p.data = &s;

    size_t step = split && split < in.len ? (size_t)split : in.len;
    size_t off = 0;
    simdhttp_errno err = SIMDHTTP_OK;
    int upgraded = 0;
    while (off < in.len) {
        size_t n = in.len - off < step ? in.len - off : step;
        err = simdhttp_execute(&p, in.s + off, n);
        if (err == SIMDHTTP_E_PAUSED_UPGRADE) {
            /* The bytes after the head belong to another protocol: stop here (docs/cli.md). */
            upgraded = 1;
            err = SIMDHTTP_OK;
            break;
        }
        if (err != SIMDHTTP_OK) break;
        off += n;
    }
    if (err == SIMDHTTP_OK && !upgraded && !no_eof) err = simdhttp_finish(&p);
    if (err != SIMDHTTP_OK) {
        const char *reason = simdhttp_get_error_reason(&p);
        char num[32];
        buf_puts(&s.out, "{\"error\":");
        buf_json_str(&s.out, simdhttp_errno_name(err), strlen(simdhttp_errno_name(err)));
        buf_puts(&s.out, ",\"reason\":");
        if (!reason) reason = simdhttp_errno_reason(err);
        buf_json_str(&s.out, reason, strlen(reason));
        snprintf(num, sizeof num, ",\"offset\":%" PRIu64 "}\n", simdhttp_get_error_offset(&p));
        buf_puts(&s.out, num);
    }
    fwrite(s.out.s ? s.out.s : "", 1, s.out.len, stdout);
    int werr = fflush(stdout) != 0 || ferror(stdout);
    if (upgraded) {
        uint64_t at = simdhttp_get_error_offset(&p);
        if (at < in.len)
            fprintf(stderr, "simdhttp parse: connection upgraded at offset %" PRIu64 ": %" PRIu64
                            " bytes after it are not HTTP/1 and were not parsed\n",
                    at, (uint64_t)in.len - at);
    }
    free(in.s);
    free(s.method.s), free(s.target.s), free(s.version.s), free(s.reason.s), free(s.body.s);
    free(s.fbytes.s), free(s.fields), free(s.out.s);
    if (werr) {
        fprintf(stderr, "simdhttp parse: write error\n");
        return 2;
    }
    return err == SIMDHTTP_OK ? 0 : 1;
}
