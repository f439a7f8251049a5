/* SPDX-License-Identifier: MIT */
/* simdhttp parse: feed a raw byte stream to the streaming parser as it arrives, print one JSON
 * line per message as soon as it is complete (see docs/cli.md and simdhttp(1) for the format
 * and every choice made here).
 *
 * Input is read with read(2), so a pipe that stays open is parsed as far as it goes; spans may
 * arrive in pieces (reads, --split), so they are copied into growable buffers and printed at
 * on_message_complete. Memory grows with the largest message, never with a fixed limit of our
 * own: the parser's limits (--max-head-size, --max-fields, --max-chunk-ext) are the only ones. */
#define _POSIX_C_SOURCE 200809L /* read(2), open(2) with O_CLOEXEC, fstat(2) */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "simdhttp.h"

/* ---- growable byte buffer ---- */
typedef struct buf {
    char *s;
    size_t len, cap;
} buf;

static void die_oom(void)
{
    fprintf(stderr, "simdhttp parse: %s\n", strerror(ENOMEM));
    exit(CLI_EXIT_IO);
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
    int verdict;         /* --mode: each message's tier and reasons */
    int line_flush;      /* write and flush each line as it completes (input is not a file) */
    int write_errno;     /* a write failed: the callback stopped the parser (exit 3) */
    uintptr_t in_lo, in_hi; /* the input: a value span outside it is the parser's obs-fold SP */
    buf out;             /* JSON lines not yet written */
    unsigned long messages;
} state;

/* Writes the pending lines. @return 0, or -1 with errno set. */
static int flush_out(state *s)
{
    if (s->out.len && fwrite(s->out.s, 1, s->out.len, stdout) != s->out.len) return -1;
    s->out.len = 0;
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : -1;
}

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
    /* --skip-body: no message has a body, llhttp's meaning of the callback's answer. For a
     * response, the answer to a HEAD (RFC 9110 section 9.3.2); for a request, the bytes after
     * the head are the next message. */
    return st_of(p)->skip_body ? SIMDHTTP_SKIP_BODY : 0;
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

/* ,"tier":"NAME","reasons":["NAME",...] (include/simdhttp.h, docs/smuggling.md) */
static void put_verdict(buf *o, uint32_t reasons)
{
    const char *tier = simdhttp_tier_name(simdhttp_reasons_tier(reasons));
    buf_puts(o, ",\"tier\":");
    buf_json_str(o, tier, strlen(tier));
    buf_puts(o, ",\"reasons\":[");
    for (int r = 0, first = 1; r < SIMDHTTP_R_COUNT; r++)
        if (reasons >> r & 1) {
            const char *name = simdhttp_reason_name((simdhttp_reason)r);
            if (!first) buf_puts(o, ",");
            first = 0;
            buf_json_str(o, name, strlen(name));
        }
    buf_puts(o, "]");
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
    buf_puts(o, (p->flags & SIMDHTTP_F_UPGRADE) ? ",\"upgrade\":true" : ",\"upgrade\":false");
    if (s->verdict) put_verdict(o, p->reasons);
    buf_puts(o, "}\n");
    s->messages++;
    /* a live stream sees each message as it completes; a file's output is written in blocks */
    if ((s->line_flush || o->len >= 1u << 16) && flush_out(s)) {
        s->write_errno = errno;
        return -1; /* stops the parser (SIMDHTTP_E_USER); cli_parse reports the write error */
    }
    return 0;
}

/* ---- command line ---- */
#define SYNOPSIS                                                                                \
    "usage: simdhttp parse [--request|--response|--auto] [--mode MODE] [--lenient FLAG[,FLAG...]]\n" \
    "                      [--skip-body] [--split N] [--no-eof]\n"                             \
    "                      [--max-head-size N] [--max-fields N] [--max-chunk-ext N] [FILE|-]\n"

static void put_lenient_names(FILE *f)
{
    for (unsigned bit = 1; bit && bit <= SIMDHTTP_LENIENT_ALL; bit <<= 1)
        if (simdhttp_lenient_name(bit)) fprintf(f, " %s", simdhttp_lenient_name(bit));
    fprintf(f, " bare_lf\n");
}

int cli_parse_usage(FILE *f)
{
    fputs(SYNOPSIS
          "Reads raw HTTP/1.x (one direction of one connection) from FILE, or standard input\n"
          "when FILE is - or absent, and prints one JSON line per message as soon as it is\n"
          "complete (each line flushed when the input is not a regular file). On a parse\n"
          "error: the messages before it, then {\"error\",\"reason\",\"offset\",\"byte\"}.\n"
          "  --auto               requests or responses, decided by the first message (default)\n"
          "  --request            the stream holds requests\n"
          "  --response           the stream holds responses\n"
          "  --mode MODE          strict (refuse every deviation), defensive (accept what every\n"
          "                       hop frames alike, close after an AMBIGUOUS message, refuse\n"
          "                       SEVERE) or monitor (accept what can be framed at all); each\n"
          "                       message and error then carries \"tier\" and \"reasons\"\n"
          "                       (docs/smuggling.md, \"Verdicts\" and \"Modes\")\n"
          "  --lenient F,G        accept what the named rules forbid (each reopens an attack,\n"
          "                       see simdhttp.h); may be repeated. Names:\n"
          "                      ",
          f);
    put_lenient_names(f);
    fputs("  --skip-body          no message has a body, whatever its fields say (llhttp's\n"
          "                       SKIP_BODY, for requests and responses: responses answer HEAD;\n"
          "                       after a request's head come the next request's bytes)\n"
          "  --split N            feed the parser N bytes at a time (same output for every N)\n"
          "  --no-eof             the input is a prefix: a message cut at its end is not an error\n"
          "  --max-head-size N    limit on a head, in bytes (default 81920)\n"
          "  --max-fields N       limit on the field lines of a head or trailers (default 128)\n"
          "  --max-chunk-ext N    limit on one chunk line's extensions, in bytes (default 4096)\n"
          "  -h, --help           this text\n"
          "Options with a value also take --opt=VALUE; -- ends the options.\n"
          "Exit status: 0 parsed, 1 parse error, 2 bad usage, 3 input/output error.\n",
          f);
    return 0;
}

static int usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "simdhttp parse: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n" SYNOPSIS "lenient flags:");
    put_lenient_names(stderr);
    fprintf(stderr, "'simdhttp parse --help' describes every option.\n");
    return CLI_EXIT_USAGE;
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

/* ---- input ---- */
enum { IN_SIZE = 1 << 16, LINE_LOOKAHEAD = 8192 };

typedef struct input {
    int fd;
    const char *label;
    char *buf;            /* the last read */
    size_t len;
    uint64_t base;        /* absolute offset of buf[0] */
    int eof;
    unsigned char first[16]; /* the stream's first bytes: to name a TLS or HTTP/2 client */
    size_t nfirst;
} input;

/* read(2), not stdio: returns what a pipe has now instead of waiting for a full buffer.
 * @return bytes read into dst, 0 at the end, -1 on error (errno set). */
static ssize_t read_some(input *in, char *dst, size_t cap)
{
    for (;;) {
        ssize_t r = read(in->fd, dst, cap);
        if (r >= 0 || errno != EINTR) return r;
    }
}

/* ---- errors people can act on ---- */

/* The request line from the error offset on ends in " HTTP/d.d": the parser took a space
 * inside the request-target for the end of the target, and the rest for the version. */
static int space_in_target(const char *rest, size_t n)
{
    size_t eol = 0;
    while (eol < n && rest[eol] != '\r' && rest[eol] != '\n') eol++;
    if (eol == n || eol < 9) return 0;
    const char *v = rest + eol - 9;
    return v[0] == ' ' && memcmp(v + 1, "HTTP/", 5) == 0 && v[6] >= '0' && v[6] <= '9' && v[7] == '.' &&
           v[8] >= '0' && v[8] <= '9';
}

/* The bytes of the current line from absolute offset `at` on: what is left of the last read,
 * then more reads until the line ends (bounded; a live stream usually sends the rest of a line
 * at once). Reading ahead is harmless: nothing is parsed after an error. */
static size_t line_from(input *in, uint64_t at, char *dst, size_t cap)
{
    size_t n = 0;
    if (at >= in->base && at < in->base + in->len) {
        n = (size_t)(in->base + in->len - at);
        if (n > cap) n = cap;
        memcpy(dst, in->buf + (at - in->base), n);
    }
    while (!in->eof && n < cap && !memchr(dst, '\n', n)) {
        ssize_t r = read_some(in, dst + n, cap - n);
        if (r <= 0) { /* the end, or a read error: judge by what arrived */
            in->eof = 1;
            break;
        }
        n += (size_t)r;
    }
    return n;
}

static void report_error(state *s, input *in, simdhttp_parser *p, simdhttp_errno err)
{
    const char *name = simdhttp_errno_name(err);
    const char *reason = simdhttp_get_error_reason(p);
    if (!reason) reason = simdhttp_errno_reason(err);
    uint64_t at = simdhttp_get_error_offset(p);
    int have_byte = at >= in->base && at < in->base + in->len;
    unsigned char byte = have_byte ? (unsigned char)in->buf[at - in->base] : 0;
    const unsigned char *f = in->first;

    if (s->messages == 0 && in->nfirst >= 3 && f[0] == 0x16 && f[1] == 0x03 && f[2] <= 0x04) {
        /* a TLS record header: content type 22 (handshake), version 3.x; type 1 = ClientHello */
        reason = in->nfirst >= 6 && f[5] == 0x01
                     ? "a TLS ClientHello: the client speaks TLS (HTTPS) to this plain-HTTP stream"
                     : "a TLS handshake record: the peer speaks TLS (HTTPS) to this plain-HTTP stream";
    } else if (s->messages == 0 && in->nfirst >= 14 && memcmp(f, "PRI * HTTP/2.0", 14) == 0) {
        reason = "the HTTP/2 connection preface: the client speaks HTTP/2 (prior knowledge), not HTTP/1.x";
    } else if (err == SIMDHTTP_E_INVALID_VERSION && s->method.len && s->target.len && at > 0) {
        char rest[LINE_LOOKAHEAD];
        size_t n = line_from(in, at, rest, sizeof rest);
        if (space_in_target(rest, n)) {
            name = simdhttp_errno_name(SIMDHTTP_E_INVALID_URL);
            reason = "space inside the request-target (RFC 9112 section 3.2: send it as %20)";
            at--; /* the space that ended the target early */
            have_byte = 1;
            byte = ' ';
        }
    }

    char num[48];
    buf_puts(&s->out, "{\"error\":");
    buf_json_str(&s->out, name, strlen(name));
    buf_puts(&s->out, ",\"reason\":");
    buf_json_str(&s->out, reason, strlen(reason));
    snprintf(num, sizeof num, ",\"offset\":%" PRIu64 ",\"byte\":", at);
    buf_puts(&s->out, num);
    if (have_byte) buf_json_str(&s->out, (const char *)&byte, 1);
    else buf_puts(&s->out, "null");
    if (s->verdict) put_verdict(&s->out, p->reasons);
    buf_puts(&s->out, "}\n");
    if (flush_out(s)) {
        s->write_errno = errno; /* the caller reports it */
        return;
    }

    /* the same for people, on stderr */
    if (!have_byte) snprintf(num, sizeof num, "end of input");
    else if (byte > 0x20 && byte < 0x7f) snprintf(num, sizeof num, "byte 0x%02x '%c'", byte, byte);
    else snprintf(num, sizeof num, "byte 0x%02x%s", byte, byte == ' ' ? " (space)" : "");
    fprintf(stderr, "simdhttp parse: %s at offset %" PRIu64 " (%s): %s\n", name, at, num, reason);
}

/* What the command line asked for. */
typedef struct options {
    simdhttp_type type;
    simdhttp_config cfg;
    unsigned long long split;
    int no_eof, skip_body, verdict;
    const char *path;
} options;

/* argv into o. @return -1 when it parsed, else the exit status (--help: 0; bad usage). */
static int parse_options(int argc, char **argv, options *o)
{
    unsigned long long v;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        char name[32];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return cli_parse_usage(stdout);
        /* --opt VALUE or --opt=VALUE for the options that take one */
        const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        if (eq && (size_t)(eq - a) < sizeof name) {
            memcpy(name, a, (size_t)(eq - a));
            name[eq - a] = 0;
            val = eq + 1;
            a = name;
        }
        int takes = !strcmp(a, "--lenient") || !strcmp(a, "--mode") || !strcmp(a, "--split") || !strcmp(a, "--max-head-size") ||
                    !strcmp(a, "--max-fields") || !strcmp(a, "--max-chunk-ext");
        if (val && !takes) return usage("option '%s' takes no value", a);
        if (takes && !val) {
            if (i + 1 >= argc) return usage("option '%s' needs a value", a);
            val = argv[++i];
        }
        if (!strcmp(a, "--request")) o->type = SIMDHTTP_REQUEST;
        else if (!strcmp(a, "--response")) o->type = SIMDHTTP_RESPONSE;
        else if (!strcmp(a, "--auto")) o->type = SIMDHTTP_BOTH;
        else if (!strcmp(a, "--skip-body")) o->skip_body = 1;
        else if (!strcmp(a, "--no-eof")) o->no_eof = 1;
        else if (!strcmp(a, "--mode")) {
            long m = simdhttp_mode_from_name(val, strlen(val));
            if (m < 0) return usage("--mode wants strict, defensive or monitor, not '%s'", val);
            o->cfg.lenient |= (uint32_t)m;
            o->verdict = 1;
        } else if (!strcmp(a, "--lenient")) {
            const char *bad;
            if (parse_lenient(val, &o->cfg.lenient, &bad)) return usage("unknown lenient flag in '%s'", bad);
        } else if (!strcmp(a, "--split")) {
            if (parse_count(val, SIZE_MAX, &o->split)) return usage("--split wants a number >= 1, not '%s'", val);
        } else if (!strcmp(a, "--max-head-size")) {
            if (parse_count(val, UINT32_MAX, &v)) return usage("--max-head-size wants a number from 1 to 4294967295, not '%s'", val);
            o->cfg.max_head_size = (uint32_t)v;
        } else if (!strcmp(a, "--max-fields")) {
            if (parse_count(val, UINT32_MAX, &v)) return usage("--max-fields wants a number from 1 to 4294967295, not '%s'", val);
            o->cfg.max_fields = (uint32_t)v;
        } else if (!strcmp(a, "--max-chunk-ext")) {
            if (parse_count(val, UINT32_MAX, &v)) return usage("--max-chunk-ext wants a number from 1 to 4294967295, not '%s'", val);
            o->cfg.max_chunk_ext = (uint32_t)v;
        } else if (!strcmp(a, "--")) {
            if (i + 2 < argc) return usage("%s", "more than one input");
            if (i + 1 < argc) o->path = argv[i + 1];
            break;
        } else if (a[0] == '-' && a[1] != 0) {
            return usage("unknown option '%s'", argv[i]);
        } else {
            if (o->path) return usage("more than one input ('%s')", a);
            o->path = a;
        }
    }
    return -1;
}

/* Read the whole stream into the parser, `split` bytes a call (0: each read at once), until
 * the end, an error or an upgrade. @return the parser's last result; *read_errno is set if a
 * read failed, *upgraded if the stream switched protocols. */
static simdhttp_errno feed_stream(simdhttp_parser *p, input *in, unsigned long long split, int *upgraded,
                                  int *read_errno)
{
    simdhttp_errno err = SIMDHTTP_OK;
    while (err == SIMDHTTP_OK && !*upgraded) {
        ssize_t r = read_some(in, in->buf, IN_SIZE);
        if (r < 0) {
            *read_errno = errno;
            break;
        }
        in->base += in->len;
        in->len = (size_t)(r > 0 ? r : 0);
        if (r == 0) {
            in->eof = 1;
            break;
        }
        for (size_t k = 0; in->nfirst < sizeof in->first && k < in->len; k++)
            in->first[in->nfirst++] = (unsigned char)in->buf[k];
        size_t step = split && split < in->len ? (size_t)split : in->len;
        for (size_t off = 0; off < in->len; off += step) {
            size_t n = in->len - off < step ? in->len - off : step;
            err = simdhttp_execute(p, in->buf + off, n);
            if (err == SIMDHTTP_E_PAUSED_UPGRADE) {
                /* The bytes after the head belong to another protocol: stop here (docs/cli.md). */
                *upgraded = 1;
                err = SIMDHTTP_OK;
            }
            if (err != SIMDHTTP_OK || *upgraded) break;
        }
    }
    return err;
}

/* After the stream: the end of input (unless --no-eof), the error if any, write errors, the
 * upgrade note. @return the exit status. */
static int finish_stream(state *s, input *in, simdhttp_parser *p, simdhttp_errno err, const options *o,
                         int upgraded, int read_errno)
{
    int rc = CLI_EXIT_OK;
    if (read_errno) { /* the messages before it are printed; the stream ended in a read error */
        fprintf(stderr, "simdhttp parse: %s: %s\n", in->label, strerror(read_errno));
        rc = CLI_EXIT_IO;
    } else if (!s->write_errno) {
        if (err == SIMDHTTP_OK && !upgraded && !o->no_eof) err = simdhttp_finish(p);
        if (err != SIMDHTTP_OK && !s->write_errno) {
            report_error(s, in, p, err);
            rc = CLI_EXIT_PARSE;
        }
    }
    if (!s->write_errno && flush_out(s)) s->write_errno = errno;
    if (s->write_errno) {
        fprintf(stderr, "simdhttp parse: write error: %s\n", strerror(s->write_errno));
        rc = CLI_EXIT_IO;
    }
    if (upgraded) {
        uint64_t at = simdhttp_get_error_offset(p), end = in->base + in->len;
        if (at < end)
            fprintf(stderr, "simdhttp parse: connection upgraded at offset %" PRIu64 ": the %" PRIu64
                            " bytes read after it (and any that follow) are not HTTP/1 and were not parsed\n",
                    at, end - at);
    }
    return rc;
}

int cli_parse(int argc, char **argv)
{
    options o = {.type = SIMDHTTP_BOTH};
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0) return rc;

    input in = {.fd = 0, .label = "-"};
    if (o.path && strcmp(o.path, "-") != 0) {
        in.fd = open(o.path, O_RDONLY | O_CLOEXEC);
        if (in.fd < 0) {
            fprintf(stderr, "simdhttp parse: %s: %s\n", o.path, strerror(errno));
            return CLI_EXIT_IO;
        }
        in.label = o.path;
    }
    struct stat sb;
    in.buf = malloc(IN_SIZE);
    if (!in.buf) die_oom();

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
    s.skip_body = o.skip_body;
    s.verdict = o.verdict;
    s.line_flush = !(fstat(in.fd, &sb) == 0 && S_ISREG(sb.st_mode));
    s.in_lo = (uintptr_t)in.buf;
    s.in_hi = (uintptr_t)in.buf + IN_SIZE;
    simdhttp_parser p;
    simdhttp_init(&p, o.type, &cb, &o.cfg);
    p.data = &s;

    int upgraded = 0, read_errno = 0;
    simdhttp_errno err = feed_stream(&p, &in, o.split, &upgraded, &read_errno);
    rc = finish_stream(&s, &in, &p, err, &o, upgraded, read_errno);
    if (in.fd != 0) close(in.fd);
    free(in.buf);
    free(s.method.s), free(s.target.s), free(s.version.s), free(s.reason.s), free(s.body.s);
    free(s.fbytes.s), free(s.fields), free(s.out.s);
    return rc;
}
