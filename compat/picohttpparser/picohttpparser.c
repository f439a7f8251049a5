/* SPDX-License-Identifier: MIT */
/* picohttpparser's API over simdhttp's head API, field-block parser and chunked decoder: the
 * translation of arguments and results (compat/picohttpparser/include/picohttpparser.h says
 * what differs from picohttpparser). last_len > 0 first runs picohttpparser's own check (an
 * empty line in the bytes from last_len - 3 on, pw_complete) and returns as it does when that
 * fails, before simdhttp writes anything into the caller's header array; 0 (the first call on
 * a buffer, and most calls) goes straight to simdhttp. The other reading of bytes here is on -1
 * and -2 only: the partial outputs picohttpparser leaves there (pw_*, below). */
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "internal.h" /* the parser's states: what bytes_left_in_chunk shows in each */
#include "picohttpparser.h"

#define PHR_API __attribute__((visibility("default")))

/* The head API writes its fields straight into the caller's phr_header array: the two
 * structures are the same four members in the same order. */
_Static_assert(sizeof(struct phr_header) == sizeof(simdhttp_field) &&
                   offsetof(struct phr_header, name) == offsetof(simdhttp_field, name) &&
                   offsetof(struct phr_header, name_len) == offsetof(simdhttp_field, name_len) &&
                   offsetof(struct phr_header, value) == offsetof(simdhttp_field, value) &&
                   offsetof(struct phr_header, value_len) == offsetof(simdhttp_field, value_len),
               "struct phr_header and simdhttp_field differ");

/* picohttpparser has no limits but the caller's header array and the int it returns: the
 * head may be as long as an int counts, with as many fields as the array holds. It takes
 * bytes >= 0x80 in a request-target (it refuses only CTLs and DEL there): so does the layer
 * (target_obs_text; docs/compat.md, "The rule"). */
static inline void setup(simdhttp_head *h, simdhttp_config *cfg, struct phr_header *headers,
                         size_t *num_headers)
{
    h->fields = (simdhttp_field *)(void *)headers;
    h->fields_cap = *num_headers;
    *cfg = (simdhttp_config){.max_head_size = INT_MAX,
                             .max_fields = *num_headers < UINT32_MAX ? (uint32_t)*num_headers : UINT32_MAX,
                             .lenient = SIMDHTTP_LENIENT_TARGET_OBS_TEXT};
}

/* ---- after -1 and -2: the outputs picohttpparser leaves ----
 * picohttpparser writes its outputs as it reads: each element of the start line once its end
 * is seen (method and path at their SP, minor_version at its digit, status digit by digit,
 * msg at its CRLF), each field line's name when the line starts and name_len at its ':', the
 * value (with its trailing SP/HTAB) and *num_headers once the line's CRLF is there. After -1
 * or -2 a caller sees what was written up to the byte where it stopped; with last_len, when
 * its slowloris check (an empty line in the bytes from last_len - 3 on) fails first, only the
 * values set on entry. The functions below re-read the buffer by those rules, on -1 and -2
 * only (the layer's success path never runs them): `pw_` for "as picohttpparser writes".
 * They return picohttpparser's result: -2, -1, or 1 where it accepts the head. */

typedef struct pw_out {
    const char *method, *path, *msg;
    size_t method_len, path_len, msg_len;
    int minor, status;
    struct phr_header *hs; /* NULL: a dry run (the result only) */
    size_t nh, max;
} pw_out;

/* picohttpparser's check with last_len: two line ends in a row (CRLF or LF) from last_len - 3
 * on; -1 for a CR before another byte than LF, -2 if the buffer ends first; 0 if found. Run
 * before simdhttp on every call with last_len (the calls' entry below), so a call that fails
 * it leaves the header array as picohttpparser does: untouched. */
static int pw_complete(const char *b, size_t len, size_t last_len)
{
    int ends = 0;
    for (size_t i = last_len < 3 ? 0 : last_len - 3; i < len;) {
        if (b[i] == '\r') {
            if (i + 1 == len) return -2;
            if (b[i + 1] != '\n') return -1;
            i += 2, ends++;
        } else {
            ends = b[i++] == '\n' ? ends + 1 : 0;
        }
        if (ends == 2) return 0;
    }
    return -2;
}

/* a CTL other than HTAB, or DEL: what ends (or breaks) a value or the reason-phrase */
static int pw_ctl(unsigned char c) { return (c < 0x20 && c != '\t') || c == 0x7f; }

/* method and request-target: any bytes but CTLs (HTAB too) and DEL, up to a SP, whose index
 * goes to *i; @return 0, or -1 / -2 */
static int pw_token(const char *b, size_t len, size_t *i)
{
    for (; *i < len; ++*i) {
        unsigned char c = (unsigned char)b[*i];
        if (c == ' ') return 0;
        if (c < 0x20 || c == 0x7f) return -1;
    }
    return -2;
}

/* "HTTP/1." and a digit, at i with at least 9 bytes there (else -2): the digit is written */
static int pw_version(const char *b, size_t len, size_t *i, int *minor)
{
    if (len - *i < 9) return -2;
    if (memcmp(b + *i, "HTTP/1.", 7) != 0 || b[*i + 7] < '0' || b[*i + 7] > '9') return -1;
    *minor = b[*i + 7] - '0';
    *i += 8;
    return 0;
}

/* a CRLF or LF at i; -2 after a CR at the end */
static int pw_eol(const char *b, size_t len, size_t *i)
{
    if (*i == len) return -2;
    if (b[*i] == '\n') return ++*i, 0;
    if (b[*i] != '\r') return -1;
    if (++*i == len) return -2;
    return b[(*i)++] == '\n' ? 0 : -1;
}

/* the rest of a line from i (a value, the reason-phrase) up to its line end: [*at, +*n) */
static int pw_to_eol(const char *b, size_t len, size_t *i, const char **at, size_t *n)
{
    size_t start = *i;
    while (*i < len && !pw_ctl((unsigned char)b[*i])) ++*i;
    if (*i == len) return -2;
    size_t end = *i;
    int r = pw_eol(b, len, i);
    if (r) return r;
    *at = b + start;
    *n = end - start;
    return 0;
}

static int pw_tchar(unsigned char c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ||
           (c && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* field lines from i up to the empty line; o->nh counts the complete ones */
static int pw_fields(const char *b, size_t len, size_t i, pw_out *o)
{
    for (;; o->nh++) {
        if (i == len) return -2;
        if (b[i] == '\r' || b[i] == '\n') {
            int r = pw_eol(b, len, &i);
            return r ? r : 1;
        }
        if (o->nh == o->max) return -1;
        struct phr_header tmp, *h = o->hs ? &o->hs[o->nh] : &tmp;
        if (o->nh && (b[i] == ' ' || b[i] == '\t')) { /* obs-fold: a continuation line */
            h->name = NULL;
            h->name_len = 0;
        } else {
            h->name = b + i;
            for (;; i++) {
                if (i == len) return -2;
                if (b[i] == ':') break;
                if (!pw_tchar((unsigned char)b[i])) return -1;
            }
            if ((h->name_len = (size_t)(b + i - h->name)) == 0) return -1;
            for (i++; i < len && (b[i] == ' ' || b[i] == '\t'); i++) {}
            if (i == len) return -2;
        }
        const char *v = NULL;
        size_t vn = 0;
        int r = pw_to_eol(b, len, &i, &v, &vn);
        if (r) return r;
        h->value = v;
        h->value_len = vn;
    }
}

static int pw_request(const char *b, size_t len, pw_out *o)
{
    size_t i = 0, sp;
    int r;
    if (len && (b[0] == '\r' || b[0] == '\n') && (r = pw_eol(b, len, &i)) != 0) return r; /* one empty line */
    if (len == 0) return -2;
    sp = i;
    if ((r = pw_token(b, len, &sp)) != 0) return r;
    o->method = b + i, o->method_len = sp - i, i = sp + 1;
    sp = i;
    if ((r = pw_token(b, len, &sp)) != 0) return r;
    o->path = b + i, o->path_len = sp - i, i = sp + 1;
    if ((r = pw_version(b, len, &i, &o->minor)) != 0) return r;
    if ((r = pw_eol(b, len, &i)) != 0) return r;
    return pw_fields(b, len, i, o);
}

static int pw_response(const char *b, size_t len, pw_out *o)
{
    size_t i = 0;
    int r;
    if ((r = pw_version(b, len, &i, &o->minor)) != 0) return r;
    if (b[i++] != ' ') return -1;
    if (len - i < 4) return -2;
    for (int k = 0, mul = 100; k < 3; k++, mul /= 10) { /* digit by digit */
        if (b[i] < '0' || b[i] > '9') return -1;
        o->status = k ? o->status + mul * (b[i++] - '0') : mul * (b[i++] - '0');
    }
    if (b[i++] != ' ') return -1;
    if ((r = pw_to_eol(b, len, &i, &o->msg, &o->msg_len)) != 0) return r;
    return pw_fields(b, len, i, o);
}

enum { PW_REQUEST, PW_RESPONSE, PW_FIELDS };

/* the call's buffer, for the -1/-2 path (buf NULL: the values of entry) */
typedef struct pw_in {
    const char *buf;
    size_t len;
} pw_in;

static int pw_parse(int kind, const char *b, size_t len, pw_out *o)
{
    return kind == PW_REQUEST ? pw_request(b, len, o) : kind == PW_RESPONSE ? pw_response(b, len, o) : pw_fields(b, len, 0, o);
}

/* The layer's simdhttp call on in->buf failed (error: SIMDHTTP_OK for -2, else -1, at
 * error_offset): fills *o with what picohttpparser leaves there, writing o->hs (the caller's
 * array) as it does. Where picohttpparser would accept the head (a difference docs/compat.md
 * lists), what it had written before the byte the layer refused; after a -2 there (which it
 * would not wait for), the values set on entry. @return -1 or -2 */
static int pw_failed(int kind, simdhttp_errno error, size_t error_offset, const pw_in *in, pw_out *o)
{
    const pw_out entry = {.minor = -1, .max = o->max, .hs = o->hs};
    const char *buf = in->buf;
    size_t len = in->len;
    int r = error == SIMDHTTP_OK ? -2 : -1;
    *o = entry;
    if (!buf) return r; /* the layer's -1 (with last_len, pw_complete passed before simdhttp ran) */
    o->hs = NULL; /* a dry run: picohttpparser's result */
    if (pw_parse(kind, buf, len, o) > 0) {
        if (r == -2) {
            *o = entry;
            return r;
        }
        if (error_offset < len) len = error_offset;
    }
    *o = entry;
    pw_parse(kind, buf, len, o);
    return r;
}

/* The three calls' -1 and -2, out of their way: across simdhttp's call a call keeps its
 * buffer in memory (pw_in: two stores) and the outputs as before; the success path pays that
 * and one more saved register (callgrind, get-4h: 879 -> 885 with three stores; one fewer
 * since the third, last_len, went). */
#define PW_COLD __attribute__((noinline, cold))

/* A call with last_len: picohttpparser's check before simdhttp's parse, which would write the
 * fields it reads into the caller's array where picohttpparser returns first and leaves the
 * array as it was. Out of line: the first call on a buffer (last_len 0) pays one test. buf
 * NULL goes on to simdhttp (its -1). @return 0 to parse, else picohttpparser's -1 or -2. */
static __attribute__((noinline)) int pw_check(const char *buf, size_t len, size_t last_len)
{
    return buf ? pw_complete(buf, len, last_len) : 0;
}

/* pw_failed's error for a check's -1 or -2, and its input: the values of entry */
#define PW_CHECK_ERROR(c) ((c) == -2 ? SIMDHTTP_OK : SIMDHTTP_E_LF_EXPECTED)
static const pw_in pw_entry = {NULL, 0};

static PW_COLD int request_failed(simdhttp_errno error, size_t error_offset, const pw_in *in,
                                  const char **method, size_t *method_len,
                                  const char **path, size_t *path_len, int *minor_version,
                                  struct phr_header *headers, size_t *num_headers)
{
    pw_out o = {.hs = headers, .max = *num_headers};
    int r = pw_failed(PW_REQUEST, error, error_offset, in, &o);
    *method = o.method;
    *method_len = o.method_len;
    *path = o.path;
    *path_len = o.path_len;
    *minor_version = o.minor;
    *num_headers = o.nh;
    return r;
}

static PW_COLD int response_failed(simdhttp_errno error, size_t error_offset, const pw_in *in,
                                   int *minor_version, int *status,
                                   const char **msg, size_t *msg_len, struct phr_header *headers, size_t *num_headers)
{
    pw_out o = {.hs = headers, .max = *num_headers};
    int r = pw_failed(PW_RESPONSE, error, error_offset, in, &o);
    *minor_version = o.minor;
    *status = o.status;
    *msg = o.msg;
    *msg_len = o.msg_len;
    *num_headers = o.nh;
    return r;
}

static PW_COLD int fields_failed(simdhttp_errno error, size_t error_offset, const pw_in *in,
                                 struct phr_header *headers,
                                 size_t *num_headers)
{
    pw_out o = {.hs = headers, .max = *num_headers};
    int r = pw_failed(PW_FIELDS, error, error_offset, in, &o);
    *num_headers = o.nh;
    return r;
}

PHR_API int phr_parse_request(const char *buf, size_t len, const char **method, size_t *method_len,
                              const char **path, size_t *path_len, int *minor_version,
                              struct phr_header *headers, size_t *num_headers, size_t last_len)
{
    simdhttp_head h;
    simdhttp_config cfg;
    const pw_in in = {buf, len};
    int c;
    if (last_len && (c = pw_check(buf, len, last_len)) != 0)
        return request_failed(PW_CHECK_ERROR(c), 0, &pw_entry, method, method_len, path, path_len, minor_version, headers,
                              num_headers);
    setup(&h, &cfg, headers, num_headers);
    long r = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, buf, len, &cfg);
    if (r <= 0) return request_failed(h.error, h.error_offset, &in, method, method_len, path, path_len, minor_version, headers, num_headers);
    *method = h.method_str;
    *method_len = h.method_len;
    *path = h.target;
    *path_len = h.target_len;
    *minor_version = h.http_minor;
    *num_headers = h.num_fields;
    return (int)r;
}

PHR_API int phr_parse_response(const char *buf, size_t len, int *minor_version, int *status,
                               const char **msg, size_t *msg_len, struct phr_header *headers,
                               size_t *num_headers, size_t last_len)
{
    simdhttp_head h;
    simdhttp_config cfg;
    const pw_in in = {buf, len};
    int c;
    if (last_len && (c = pw_check(buf, len, last_len)) != 0)
        return response_failed(PW_CHECK_ERROR(c), 0, &pw_entry, minor_version, status, msg, msg_len, headers, num_headers);
    setup(&h, &cfg, headers, num_headers);
    long r = simdhttp_parse_head(&h, SIMDHTTP_RESPONSE, buf, len, &cfg);
    /* simdhttp accepts "HTTP/1.1 200" CRLF, as most clients do; RFC 9112 section 4's
     * grammar and picohttpparser want the SP before the (empty) reason-phrase */
    if (r > 0 && h.reason_len == 0 && h.reason[-1] != ' ') {
        r = SIMDHTTP_HEAD_ERROR;
        h.error = SIMDHTTP_E_INVALID_STATUS;
        h.error_offset = (size_t)(h.reason - buf);
    }
    if (r <= 0) return response_failed(h.error, h.error_offset, &in, minor_version, status, msg, msg_len, headers, num_headers);
    *minor_version = h.http_minor;
    *status = h.status_code;
    *msg = h.reason;
    *msg_len = h.reason_len;
    *num_headers = h.num_fields;
    return (int)r;
}

PHR_API int phr_parse_headers(const char *buf, size_t len, struct phr_header *headers,
                              size_t *num_headers, size_t last_len)
{
    simdhttp_head h;
    simdhttp_config cfg;
    const pw_in in = {buf, len};
    int c;
    /* an empty block (CRLF first) is complete; picohttpparser's check wants two line ends and
     * never passes it in two pieces (docs/compat.md: the layer completes it) */
    if (last_len && !(buf && len >= 2 && buf[0] == '\r' && buf[1] == '\n') && (c = pw_check(buf, len, last_len)) != 0)
        return fields_failed(PW_CHECK_ERROR(c), 0, &pw_entry, headers, num_headers);
    setup(&h, &cfg, headers, num_headers);
    long r = simdhttp_parse_fields(&h, buf, len, &cfg);
    if (r <= 0) return fields_failed(h.error, h.error_offset, &in, headers, num_headers);
    *num_headers = h.num_fields;
    return (int)r;
}

/* picohttpparser's decoder skips a chunk line's extensions and, with consume_trailer, the
 * trailer lines without a bound, and without the caller seeing the bytes to count them; the
 * layer bounds both (RFC 9112 7.1.1), with simdhttp's defaults for a zeroed decoder (0) or the
 * setters' values. The trailer section's field count is bounded by its size only. The config
 * lives in the decoder: a zeroed one is the defaults, and nothing is built per body.
 *
 * bytes_left_in_chunk is picohttpparser's accumulator as well as its count: while it reads a
 * chunk line, the size's digits so far (then the size, through the extensions and the line
 * end); in the data, what is still due; 0 from the data's end on (the CRLF, the next line's
 * first byte) and in the trailer section. simdhttp keeps the digits in its parser (_acc) and
 * the data due in chunk_left, so the layer reads the parser's state after each call: the
 * chunk-line states (src/internal.h) show _acc, the others chunk_left (0 outside the data). */
#define PW_CHUNK_LINE_STATES                                                                    \
    ((1ull << S_CHUNK_SIZE) | (1ull << S_CHUNK_SIZE_COUNTED) | (1ull << S_CHUNK_SIZE_WS) |        \
     (1ull << S_EXT_NAME_START) | (1ull << S_EXT_NAME) | (1ull << S_EXT_NAME_END) |               \
     (1ull << S_EXT_AFTER_NAME) | (1ull << S_EXT_VALUE_START) | (1ull << S_EXT_VALUE) |           \
     (1ull << S_EXT_VALUE_END) | (1ull << S_EXT_AFTER_VALUE) | (1ull << S_LINE_LF))
_Static_assert(S_TRAILERS_DONE < 64, "the parser's states fit the mask");

/* a line end's CR read (S_LINE_LF): a chunk line's (the size then) or another's (0) */
static PW_COLD size_t chunk_line_end_left(const simdhttp_chunked *d)
{
    return d->_p._next == S_CHUNK_HEADER ? (size_t)d->_p._acc : 0;
}

/* bytes_left_in_chunk after a -2 (the parser is in the state where the bytes ran out) */
static inline size_t chunk_left(const simdhttp_chunked *d)
{
    unsigned st = d->_p._state;
    if (__builtin_expect(PW_CHUNK_LINE_STATES >> st & 1, 0))
        return st == S_LINE_LF ? chunk_line_end_left(d) : (size_t)d->_p._acc;
    return (size_t)d->chunk_left;
}

/* consume_trailer: picohttpparser reads it at the last chunk's line end, so a program may set
 * or clear it after the first call. The layer starts simdhttp's decoder in the mode the first
 * call asks for: consuming the trailer section (no callback per chunk), or stopping at the last
 * chunk (simdhttp's keep-trailers mode: a callback per chunk that pauses at the last one).
 * _state: 0 before the first call, then one of these. */
enum { PW_KEEP = 1, PW_CONSUME, PW_TRAILERS, PW_OVER };

/* bytes_left_in_chunk after the layer's -1: what picohttpparser held before the refused byte
 * (prev: the byte before it in this call's buffer, -1 if none). The error's state is gone
 * (S_ERROR); its code and bytes tell which part refused it. In a chunk line (digits,
 * extensions, its line end) the size so far, _acc; at a chunk line's first byte, at the data's
 * end and in the trailer section (the TRAILERS flag; _acc may be an earlier line's) 0. */
static size_t chunk_left_at_error(const struct phr_chunked_decoder *decoder, char refused, int prev)
{
    const simdhttp_chunked *d = &decoder->_d;
    switch (d->error) {
    case SIMDHTTP_E_INVALID_CHUNK_SIZE: /* no hex digit at the line's start (after the LF), or
                                           the size's end: overflow, junk or SP before CRLF */
        if (prev < 0) return decoder->bytes_left_in_chunk; /* unchanged since the last call */
        return prev == '\n' ? 0 : (size_t)d->_p._acc;
    case SIMDHTTP_E_CR_EXPECTED: /* a bare LF at a line end, or chunk data without its CRLF */
        return refused == '\n' ? chunk_line_end_left(d) : 0;
    case SIMDHTTP_E_LF_EXPECTED: /* a CR without LF at a line end */
        return chunk_line_end_left(d);
    default: /* a chunk line's extensions (_acc: its size), or the trailer section (0: the core's
              * fast path reads the last chunk's size line without storing _acc) */
        return d->_p.flags & SIMDHTTP_F_TRAILERS ? 0 : (size_t)d->_p._acc;
    }
}

/* The layer's -1, the first: picohttpparser moves the bytes from the one it refused on to
 * follow the data decoded (as it moves the bytes after the body's end); in place, simdhttp left
 * them where they were (the data only moves backwards). n: the data decoded; in: the call's
 * bytes. Every later call is -1 too (simdhttp's error sticks; after the end, it refuses) and
 * changes nothing. */
static PW_COLD ssize_t chunked_failed(struct phr_chunked_decoder *decoder, char *buf, size_t n, size_t in)
{
    if (decoder->_state == PW_OVER) return -1;
    decoder->_state = PW_OVER;
    const char *refused = simdhttp_get_error_pos(&decoder->_d._p);
    if (!refused || refused < buf + n || refused > buf + in) return -1;
    size_t k = (size_t)(refused - buf);
    if (k < in) /* the framing after the data moved is intact: the byte before is the input's */
        decoder->bytes_left_in_chunk = chunk_left_at_error(decoder, *refused, k > n ? (unsigned char)buf[k - 1] : -1);
    memmove(buf + n, refused, in - k);
    return -1;
}

/* Keep mode, paused at the last chunk (the rest bytes moved to follow the data at buf +
 * *bufsz), consume_trailer set: the parser goes on through the trailer section (its callbacks
 * pause again at the message's end). */
static PW_COLD ssize_t chunked_trailers(struct phr_chunked_decoder *decoder, char *buf, size_t *bufsz, long rest)
{
    simdhttp_chunked *d = &decoder->_d;
    char *t = buf + *bufsz;
    size_t n = (size_t)rest;
    decoder->_state = PW_TRAILERS;
    d->_end = 0; /* simdhttp_chunked_decode's end, undone: the paused parser goes on */
    simdhttp_resume(&d->_p);
    long r = simdhttp_chunked_decode(d, t, &n); /* no data there: n is 0 again */
    if (r == SIMDHTTP_CHUNKED_ERROR) return chunked_failed(decoder, t, 0, (size_t)rest);
    if (r >= 0) decoder->_state = PW_OVER;
    return r;
}

/* Consume mode, consume_trailer cleared since: unless the parser read the last chunk already
 * (then picohttpparser read the flag set), it takes keep mode's callbacks, which stop there. */
static PW_COLD void chunked_keep(struct phr_chunked_decoder *decoder)
{
    simdhttp_chunked keep; /* keep mode's callbacks, from a decoder started in it */
    if (decoder->_d._p.flags & SIMDHTTP_F_TRAILERS) {
        decoder->_state = PW_TRAILERS;
        return;
    }
    simdhttp_chunked_init(&keep, NULL, 0);
    simdhttp_set_callbacks(&decoder->_d._p, keep._p._cb);
    decoder->_state = PW_KEEP;
}

PHR_API ssize_t phr_decode_chunked(struct phr_chunked_decoder *decoder, char *buf, size_t *bufsz)
{
    if (!decoder->_state) { /* zero-filled by the caller: start */
        decoder->_cfg.max_fields = UINT32_MAX; /* the rest: zeroed, or set by the setters */
        decoder->_state = decoder->consume_trailer ? PW_CONSUME : PW_KEEP;
        simdhttp_chunked_init(&decoder->_d, &decoder->_cfg,
                              decoder->consume_trailer ? SIMDHTTP_CHUNKED_CONSUME_TRAILERS : 0);
    } else if (decoder->_state == PW_CONSUME && !decoder->consume_trailer) {
        chunked_keep(decoder);
    }
    size_t in = *bufsz;
    long r = simdhttp_chunked_decode(&decoder->_d, buf, bufsz);
    if (r == SIMDHTTP_CHUNKED_INCOMPLETE) {
        decoder->bytes_left_in_chunk = chunk_left(&decoder->_d);
        return r; /* -2, as picohttpparser's */
    }
    if (r == SIMDHTTP_CHUNKED_ERROR) return chunked_failed(decoder, buf, *bufsz, in);
    decoder->bytes_left_in_chunk = 0;
    if (decoder->_state == PW_KEEP && decoder->consume_trailer) return chunked_trailers(decoder, buf, bufsz, r);
    decoder->_state = PW_OVER;
    return r;
}

static uint32_t limit(size_t max) { return max < UINT32_MAX ? (uint32_t)max : UINT32_MAX; }

PHR_API void phr_decode_chunked_set_max_chunk_ext(struct phr_chunked_decoder *decoder, size_t max)
{
    decoder->_cfg.max_chunk_ext = limit(max);
}

PHR_API void phr_decode_chunked_set_max_trailer_size(struct phr_chunked_decoder *decoder, size_t max)
{
    decoder->_cfg.max_head_size = limit(max);
}

PHR_API int phr_decode_chunked_is_in_data(struct phr_chunked_decoder *decoder)
{
    return simdhttp_chunked_in_data(&decoder->_d);
}
