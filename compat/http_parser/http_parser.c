/* SPDX-License-Identifier: MIT */
/* The http-parser 2.9 API over simdhttp's streaming parser (compat/http_parser/include/
 * http_parser.h; docs/compat.md). No parsing here: simdhttp's callbacks are translated into
 * http-parser's, its errors into HPE_* codes, its flags into F_* bits. Two checks that
 * http-parser makes and simdhttp's core does not are made on native API calls: the method must
 * be one of http-parser's (its `method` field has no value for others), and the request-target
 * goes through simdhttp's target splitter (RFC 3986, and its form against the method). */
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "http_parser.h"
#include "method_names.h"

#define HP(sp) ((http_parser *)(sp)->data)
#if defined(__GNUC__)
#define HP_COLD __attribute__((cold, noinline))
#define HP_NOINLINE __attribute__((noinline))
#else
#define HP_COLD
#define HP_NOINLINE
#endif

static uint32_t max_header_size = HTTP_MAX_HEADER_SIZE;
static uint32_t max_chunk_ext; /* http_parser_set_max_chunk_ext; 0: simdhttp's default (4096) */

static const char *const method_strings[] = {
#define XX(num, name, string) #string,
    HTTP_METHOD_MAP(XX)
#undef XX
};
#define N_METHODS (sizeof method_strings / sizeof *method_strings)

/* simdhttp_method -> enum http_method + 1, for every method of the core's registry that
 * http-parser has (0: none; the core's classification is used, not a second one). The names
 * outside the registry (M-SEARCH, NOTIFY, SUBSCRIBE, UNSUBSCRIBE, PURGE, SOURCE) are looked up
 * in method_strings. */
#define ID(m) ((m) + 1)
static const uint8_t from_native[SIMDHTTP_METHOD_COUNT] = {
    [SIMDHTTP_METHOD_GET] = ID(HTTP_GET),         [SIMDHTTP_METHOD_HEAD] = ID(HTTP_HEAD),
    [SIMDHTTP_METHOD_POST] = ID(HTTP_POST),       [SIMDHTTP_METHOD_PUT] = ID(HTTP_PUT),
    [SIMDHTTP_METHOD_DELETE] = ID(HTTP_DELETE),   [SIMDHTTP_METHOD_CONNECT] = ID(HTTP_CONNECT),
    [SIMDHTTP_METHOD_OPTIONS] = ID(HTTP_OPTIONS), [SIMDHTTP_METHOD_TRACE] = ID(HTTP_TRACE),
    [SIMDHTTP_METHOD_PATCH] = ID(HTTP_PATCH),     [SIMDHTTP_METHOD_ACL] = ID(HTTP_ACL),
    [SIMDHTTP_METHOD_BIND] = ID(HTTP_BIND),       [SIMDHTTP_METHOD_CHECKOUT] = ID(HTTP_CHECKOUT),
    [SIMDHTTP_METHOD_COPY] = ID(HTTP_COPY),       [SIMDHTTP_METHOD_LINK] = ID(HTTP_LINK),
    [SIMDHTTP_METHOD_LOCK] = ID(HTTP_LOCK),       [SIMDHTTP_METHOD_MERGE] = ID(HTTP_MERGE),
    [SIMDHTTP_METHOD_MKACTIVITY] = ID(HTTP_MKACTIVITY), [SIMDHTTP_METHOD_MKCALENDAR] = ID(HTTP_MKCALENDAR),
    [SIMDHTTP_METHOD_MKCOL] = ID(HTTP_MKCOL),     [SIMDHTTP_METHOD_MOVE] = ID(HTTP_MOVE),
    [SIMDHTTP_METHOD_PROPFIND] = ID(HTTP_PROPFIND), [SIMDHTTP_METHOD_PROPPATCH] = ID(HTTP_PROPPATCH),
    [SIMDHTTP_METHOD_REBIND] = ID(HTTP_REBIND),   [SIMDHTTP_METHOD_REPORT] = ID(HTTP_REPORT),
    [SIMDHTTP_METHOD_SEARCH] = ID(HTTP_SEARCH),   [SIMDHTTP_METHOD_UNBIND] = ID(HTTP_UNBIND),
    [SIMDHTTP_METHOD_UNLINK] = ID(HTTP_UNLINK),   [SIMDHTTP_METHOD_UNLOCK] = ID(HTTP_UNLOCK),
};
#undef ID

/* The layer stops the parse itself (an unknown method, a bad target, a callback's error):
 * the trampoline records the code and where, and returns non-zero to simdhttp. */
static int stop(http_parser *hp, enum http_errno e, uint64_t abs_off)
{
    hp->_stop_errno = (uint8_t)e;
    hp->_stop_off = abs_off;
    return -1;
}

static uint64_t abs_of(const http_parser *hp, const char *at) { return hp->_buf_off + (uint64_t)(at - hp->_buf); }

/* After a user callback returned rc: 0 goes on; a pause (http_parser_pause(p, 1) inside the
 * callback) pauses simdhttp; anything else is HPE_CB_<name>. */
static int after_cb(http_parser *hp, int rc, enum http_errno cb_errno)
{
    if (rc) return stop(hp, cb_errno, UINT64_MAX);
    if (hp->http_errno == HPE_PAUSED) return SIMDHTTP_PAUSE;
    return 0;
}

/* The length of the longest prefix of m[0..n) that begins a known method. */
static size_t method_prefix(const char *m, size_t n) { return sh_name_prefix(method_strings, N_METHODS, m, n); }

/* An unknown method: the first byte that no known method has there (as http-parser finds it). */
static int bad_method(http_parser *hp, size_t ok)
{
    uint64_t off = hp->_mstart == UINT64_MAX ? hp->_buf_off : hp->_mstart + ok;
    return stop(hp, HPE_INVALID_METHOD, off < hp->_buf_off ? hp->_buf_off : off);
}

/* The user's on_message_begin runs before the message's first event, once its first byte is
 * known to start a message http-parser would begin (as http-parser calls it). */
static int begin(http_parser *hp, uint64_t start)
{
    if (hp->_begun) return 0;
    hp->_begun = 1;
    hp->state = 1;
    const http_parser_settings *s = hp->_settings;
    int rc = s->on_message_begin ? after_cb(hp, s->on_message_begin(hp), HPE_CB_message_begin) : 0;
    if (rc == SIMDHTTP_PAUSE && start != UINT64_MAX) {
        /* http-parser calls it on the message's first byte, which it has taken: execute()
         * returns the count up to that byte and one (stopped) */
        hp->_stop_errno = HPE_PAUSED;
        hp->_stop_off = start + 1;
    }
    return rc;
}

/* The first message of an HTTP_BOTH parser (the core has not told request from response yet):
 * http-parser begins it at an "H" at once, as a response or HEAD may follow, with its type
 * still HTTP_BOTH; any other byte begins a request once it starts a method (t_method). The
 * message's first byte is the first in this buffer that is no CR or LF: all before it in the
 * stream were empty lines. */
static __attribute__((noinline, cold)) int both_begin(http_parser *hp)
{
    const char *at = hp->_buf;
    while (at < hp->_buf_end && (*at == '\r' || *at == '\n')) at++;
    return at < hp->_buf_end && *at == 'H' ? begin(hp, abs_of(hp, at)) : 0;
}

static int t_message_begin(simdhttp_parser *sp)
{
    http_parser *hp = HP(sp);
    hp->flags = 0;
    hp->content_length = ULLONG_MAX;
    hp->uses_transfer_encoding = 0;
    hp->upgrade = 0;
    hp->_mlen = 0;
    hp->_begun = 0;
    hp->_body_final = 0;
    hp->_mstart = UINT64_MAX;
    hp->_got_value = hp->_in_fields = 0;
    if (sp->type == SIMDHTTP_RESPONSE) {
        hp->type = HTTP_RESPONSE;
        return begin(hp, UINT64_MAX);
    }
    if (__builtin_expect(sp->type == SIMDHTTP_BOTH, 0)) return both_begin(hp);
    return 0;
}

/* The first letters of http-parser's methods (A B C D G H L M N O P R S T U, from
 * HTTP_METHOD_MAP): a message begins (message_begin) with one. */
#define METHOD_INITIALS 0x1ef8cfu
static int method_initial(unsigned char c)
{
    return c >= 'A' && c <= 'Z' && ((METHOD_INITIALS >> (c - 'A')) & 1);
}

static int t_method(simdhttp_parser *sp, const char *at, size_t n)
{
    http_parser *hp = HP(sp);
    hp->type = HTTP_REQUEST;
    /* (with HTTP_BOTH, a method that began like "HTTP/" may come from simdhttp's constant
     * bytes, not from our buffer: its offset is then known from the next piece) */
    int ours = at >= hp->_buf && at <= hp->_buf_end;
    if (ours) hp->_mstart = abs_of(hp, at) - hp->_mlen;
    size_t first = hp->_mlen == 0, room = sizeof hp->_mbuf - hp->_mlen, k = n < room ? n : room;
    if (ours && k <= 8 && hp->_mlen == 0 && hp->_buf_end - at >= 8)
        memcpy(hp->_mbuf, at, 8); /* one 8-byte move, not a call (bytes past k are never read) */
    else
        memcpy(hp->_mbuf + hp->_mlen, at, k);
    hp->_mlen = (uint8_t)(hp->_mlen + k);
    /* http-parser begins a message once its first byte starts a known method */
    if (first && method_initial((unsigned char)hp->_mbuf[0])) {
        int rc = begin(hp, hp->_mstart);
        if (rc) return rc;
    }
    /* The method is checked when it is complete (t_method_complete), unless it goes on in the
     * next buffer: then now, so a bad byte stops this execute() as it stops http-parser's. */
    if (!ours || at + n < hp->_buf_end) return 0; /* (simdhttp's bytes: the next piece is ours) */
    size_t ok = method_prefix(hp->_mbuf, hp->_mlen);
    if (ok < hp->_mlen) return bad_method(hp, ok);
    return 0;
}

/* A method the core's classification does not give to http-parser: by name, one of its methods
 * outside the registry (M-SEARCH, ...). @return its number, or -1 after bad_method (out of
 * line: t_method_complete saves fewer registers for GET and the rest of the registry) */
static HP_NOINLINE int method_by_name(http_parser *hp)
{
    int i = sh_name_index(method_strings, N_METHODS, hp->_mbuf, hp->_mlen);
    /* the first byte no known method has there; for a prefix of one ("GE"), the SP */
    return i >= 0 ? i : bad_method(hp, method_prefix(hp->_mbuf, hp->_mlen));
}

static int t_method_complete(simdhttp_parser *sp)
{
    http_parser *hp = HP(sp);
    int i = (int)from_native[sp->method] - 1;
    if (i < 0 && (i = method_by_name(hp)) < 0) return -1;
    hp->method = (unsigned)i;
    /* the target check starts with the target (CONNECT takes the authority-form only) */
    /* http-parser's bytes: raw `[ ] | { }`, UTF-8 and a '#' fragment, which browsers send and
     * which change no part's end (SIMDHTTP_TARGET_LENIENT) */
    simdhttp_target_init(&hp->_target, SIMDHTTP_TARGET_LENIENT |
                                            (i == HTTP_CONNECT ? SIMDHTTP_TARGET_CONNECT : SIMDHTTP_TARGET_FRAGMENT));
    hp->_tstart = UINT64_MAX;
    return 0;
}

static int t_url(simdhttp_parser *sp, const char *at, size_t n)
{
    http_parser *hp = HP(sp);
    if (hp->_tstart == UINT64_MAX) hp->_tstart = abs_of(hp, at);
    if (simdhttp_target_feed(&hp->_target, at, n))
        return stop(hp, HPE_INVALID_URL, hp->_tstart + hp->_target.error_offset);
    const http_parser_settings *s = hp->_settings;
    return s->on_url ? after_cb(hp, s->on_url(hp, at, n), HPE_CB_url) : 0;
}

static int t_url_complete(simdhttp_parser *sp)
{
    http_parser *hp = HP(sp);
    uint64_t end = hp->_tstart + hp->_target._off;
    if (simdhttp_target_finish(&hp->_target)) return stop(hp, HPE_INVALID_URL, end);
    int form = hp->_target.form; /* (the origin-form fits every method but CONNECT) */
    if ((form != SIMDHTTP_TARGET_ORIGIN || sp->method == SIMDHTTP_METHOD_CONNECT) &&
        !simdhttp_target_form_fits(sp->method, form))
        return stop(hp, HPE_INVALID_URL, end);
    return 0;
}

static int t_version_complete(simdhttp_parser *sp)
{
    http_parser *hp = HP(sp);
    hp->http_major = sp->http_major;
    hp->http_minor = sp->http_minor;
    return 0;
}

static int t_status_code(simdhttp_parser *sp, const char *at, size_t n)
{
    (void)at, (void)n;
    HP(sp)->type = HTTP_RESPONSE;
    return begin(HP(sp), UINT64_MAX);
}

static int t_status_code_complete(simdhttp_parser *sp)
{
    HP(sp)->status_code = sp->status_code;
    return 0;
}

static int t_version(simdhttp_parser *sp, const char *at, size_t n)
{
    http_parser *hp = HP(sp);
    (void)n; /* a response: "HTTP/" came first, right before the version */
    return begin(hp, at >= hp->_buf + 5 && at <= hp->_buf_end ? abs_of(hp, at) - 5 : UINT64_MAX);
}

static int t_status(simdhttp_parser *sp, const char *at, size_t n)
{
    http_parser *hp = HP(sp);
    hp->_got_value = n != 0;
    const http_parser_settings *s = hp->_settings;
    return s->on_status ? after_cb(hp, s->on_status(hp, at, n), HPE_CB_status) : 0;
}

static int t_header_field(simdhttp_parser *sp, const char *at, size_t n)
{
    http_parser *hp = HP(sp);
    hp->_in_fields = 1;
    const http_parser_settings *s = hp->_settings;
    return s->on_header_field ? after_cb(hp, s->on_header_field(hp, at, n), HPE_CB_header_field) : 0;
}

static int t_header_value(simdhttp_parser *sp, const char *at, size_t n)
{
    http_parser *hp = HP(sp);
    hp->_got_value = 1;
    const http_parser_settings *s = hp->_settings;
    return s->on_header_value ? after_cb(hp, s->on_header_value(hp, at, n), HPE_CB_header_value) : 0;
}

/* http-parser reports an empty value (and an empty reason phrase) as one empty span: programs
 * such as httptools keep a field only once its value callback ran. */
static int t_header_value_complete(simdhttp_parser *sp)
{
    http_parser *hp = HP(sp);
    if (hp->_got_value) {
        hp->_got_value = 0;
        return 0;
    }
    int rc = t_header_value(sp, hp->_buf, 0); /* (a pause in it resumes at the next line) */
    hp->_got_value = 0;
    return rc;
}

/* A pause in one of a whole line's callbacks (t_header): the core is at the next line, http-parser
 * stops at `resume` (after the colon, or the CR). The caller's next execute() begins there; replay()
 * delivers what is left of the line from those bytes and skips them for the core. */
static int lag(http_parser *hp, const char *resume, const char *value, size_t vlen, const char *cr, int in_value)
{
    hp->_rp_left = (uint32_t)(cr + 2 - resume);
    hp->_rp_voff = (uint32_t)(value - resume);
    hp->_rp_vlen = (uint32_t)vlen;
    hp->_rp_empty = !in_value && vlen == 0; /* (a pause in the value's own callback: none) */
    return SIMDHTTP_PAUSE;
}

/* A callback of t_header's line stopped the parse (rc: its result; else it paused): where
 * http-parser stops, the ':' after the name or the value's end (kept out of t_header, whose
 * common path then needs fewer registers). */
static HP_COLD int header_stopped(http_parser *hp, int rc, int in_value, const char *value, size_t vlen)
{
    const char *colon = value, *cr = value + vlen;
    while (colon[-1] != ':') colon--; /* (only OWS between them) */
    colon--;
    if (rc) return in_value ? stop(hp, HPE_CB_header_value, vlen ? abs_of(hp, cr) : UINT64_MAX)
                            : stop(hp, HPE_CB_header_field, abs_of(hp, colon));
    /* http-parser has taken the byte that ended the span: the ':', the CR */
    if (!in_value) return lag(hp, colon + 1, value, vlen, cr, 0);
    return vlen ? lag(hp, cr + 1, cr + 1, 0, cr, 1) : SIMDHTTP_PAUSE; /* (an empty value: at the next line) */
}

/* A whole field line in one call (simdhttp's on_header; the lines it does not take come through
 * t_header_field and t_header_value): http-parser's two spans from one indirect call instead of
 * three. The value keeps its trailing OWS as http-parser's span does (on_header trims it: the line
 * is whole in the buffer, so the OWS up to its CR is there); an empty value is one empty span
 * (as t_header_value_complete gives it; value points at the CR then). */
static int t_header(simdhttp_parser *sp, const char *name, size_t nlen, const char *value, size_t vlen)
{
    http_parser *hp = HP(sp);
    int rc;
    hp->_in_fields = 1;
    while (value[vlen] == ' ' || value[vlen] == '\t') vlen++;
    if (hp->_settings->on_header_field &&
        ((rc = hp->_settings->on_header_field(hp, name, nlen)) || hp->http_errno == HPE_PAUSED))
        return header_stopped(hp, rc, 0, value, vlen);
    if (hp->_settings->on_header_value &&
        ((rc = hp->_settings->on_header_value(hp, value, vlen)) || hp->http_errno == HPE_PAUSED))
        return header_stopped(hp, rc, 1, value, vlen);
    return 0;
}

/* After a pause inside t_header: the rest of that line, from data[0] (where execute() stopped),
 * delivered as the span callbacks would: the value (or what data holds of it), then an empty
 * value once the next line's first byte is there. @return the bytes taken; a pause or an error
 * in a callback sets http_errno. */
static size_t replay(http_parser *hp, const char *data, size_t len)
{
    const http_parser_settings *s = hp->_settings;
    size_t k = len < hp->_rp_left ? len : hp->_rp_left;
    if (hp->_rp_vlen && hp->_rp_voff < k) {
        size_t v = hp->_rp_voff, e = v + hp->_rp_vlen < k ? v + hp->_rp_vlen : k;
        hp->_rp_vlen -= (uint32_t)(e - v);
        hp->_rp_voff = (uint32_t)e;
        if (s->on_header_value) {
            if (s->on_header_value(hp, data + v, e - v)) {
                hp->http_errno = HPE_CB_header_value;
                return e;
            }
            if (hp->http_errno == HPE_PAUSED) {
                hp->_rp_left -= (uint32_t)e, hp->_rp_voff -= (uint32_t)e;
                return e;
            }
        }
    }
    hp->_rp_left -= (uint32_t)k, hp->_rp_voff = hp->_rp_voff > k ? hp->_rp_voff - (uint32_t)k : 0;
    if (hp->_rp_left || !hp->_rp_empty || len == k) return k; /* (the empty value: at the next byte) */
    hp->_rp_empty = 0;
    if (s->on_header_value && s->on_header_value(hp, data + k, 0)) hp->http_errno = HPE_CB_header_value;
    return k;
}

static int t_status_complete(simdhttp_parser *sp)
{
    http_parser *hp = HP(sp);
    if (hp->_got_value) {
        hp->_got_value = 0;
        return 0;
    }
    return t_status(sp, hp->_buf, 0);
}

/* simdhttp's message flags as http-parser's F_* (F_SKIPBODY and F_TRAILING are the layer's): the
 * six that map are simdhttp's bits 0-5, so one table entry per combination */
#define HP_FLAGS(f)                                                                                  \
    (((f) & SIMDHTTP_F_CHUNKED ? F_CHUNKED : 0) |                                                    \
     ((f) & SIMDHTTP_F_CONNECTION_KEEP_ALIVE ? F_CONNECTION_KEEP_ALIVE : 0) |                        \
     ((f) & SIMDHTTP_F_CONNECTION_CLOSE ? F_CONNECTION_CLOSE : 0) |                                  \
     ((f) & SIMDHTTP_F_CONNECTION_UPGRADE ? F_CONNECTION_UPGRADE : 0) |                              \
     ((f) & SIMDHTTP_F_UPGRADE ? F_UPGRADE : 0) | ((f) & SIMDHTTP_F_CONTENT_LENGTH ? F_CONTENTLENGTH : 0))
#define HP_FLAGS4(f) HP_FLAGS(f), HP_FLAGS((f) + 1), HP_FLAGS((f) + 2), HP_FLAGS((f) + 3)
#define HP_FLAGS16(f) HP_FLAGS4(f), HP_FLAGS4((f) + 4), HP_FLAGS4((f) + 8), HP_FLAGS4((f) + 12)
static const uint8_t hp_flags[64] = {HP_FLAGS16(0), HP_FLAGS16(16), HP_FLAGS16(32), HP_FLAGS16(48)};
_Static_assert((SIMDHTTP_F_CHUNKED | SIMDHTTP_F_CONNECTION_KEEP_ALIVE | SIMDHTTP_F_CONNECTION_CLOSE |
                SIMDHTTP_F_CONNECTION_UPGRADE | SIMDHTTP_F_UPGRADE | SIMDHTTP_F_CONTENT_LENGTH) == 63,
               "hp_flags is indexed by simdhttp's flag bits 0-5");

static int t_headers_complete(simdhttp_parser *sp)
{
    http_parser *hp = HP(sp);
    uint32_t f = sp->flags;
    hp->flags = hp_flags[f & 63];
    hp->uses_transfer_encoding = (f & SIMDHTTP_F_TRANSFER_ENCODING) != 0;
    hp->content_length = f & SIMDHTTP_F_CONTENT_LENGTH ? sp->content_length : ULLONG_MAX;
    hp->http_major = sp->http_major;
    hp->http_minor = sp->http_minor;
    hp->upgrade = (f & SIMDHTTP_F_UPGRADE) != 0;
    const http_parser_settings *s = hp->_settings;
    if (!s->on_headers_complete) return 0;
    switch (s->on_headers_complete(hp)) {
    case 0:
        return hp->http_errno == HPE_PAUSED ? SIMDHTTP_PAUSE : 0;
    case 1:
        hp->flags |= F_SKIPBODY;
        return SIMDHTTP_SKIP_BODY;
    case 2:
        hp->flags |= F_SKIPBODY;
        hp->upgrade = 1;
        return SIMDHTTP_SKIP_BODY_UPGRADE;
    default:
        return stop(hp, HPE_CB_headers_complete, UINT64_MAX);
    }
}

static int t_body(simdhttp_parser *sp, const char *at, size_t n)
{
    http_parser *hp = HP(sp);
    if (!(sp->flags & (SIMDHTTP_F_CHUNKED | SIMDHTTP_F_BODY_UNTIL_CLOSE))) {
        hp->content_length = sp->content_length; /* what is left after this piece */
        hp->_body_final = sp->content_length == 0;
    }
    const http_parser_settings *s = hp->_settings;
    int rc = s->on_body ? after_cb(hp, s->on_body(hp, at, n), HPE_CB_body) : 0;
    hp->_body_final = 0;
    return rc;
}

static const simdhttp_callbacks trampolines[4]; /* (below: they name these functions) */

static int t_chunk_header(simdhttp_parser *sp)
{
    http_parser *hp = HP(sp);
    hp->content_length = sp->content_length;
    if (sp->content_length == 0) hp->flags |= F_TRAILING;
    const http_parser_settings *s = hp->_settings;
    if (!(hp->_passed & 4) && !s->on_chunk_complete) { /* none to forward to (from the next callback) */
        simdhttp_set_callbacks(sp, &trampolines[hp->_both * 2 + 1]);
        hp->_passed |= 4;
    }
    return s->on_chunk_header ? after_cb(hp, s->on_chunk_header(hp), HPE_CB_chunk_header) : 0;
}

static int t_chunk_complete(simdhttp_parser *sp)
{
    http_parser *hp = HP(sp);
    const http_parser_settings *s = hp->_settings;
    return s->on_chunk_complete ? after_cb(hp, s->on_chunk_complete(hp), HPE_CB_chunk_complete) : 0;
}

static int t_message_complete(simdhttp_parser *sp)
{
    http_parser *hp = HP(sp);
    hp->state = 0;
    hp->_begun = 0;
    const http_parser_settings *s = hp->_settings;
    return s->on_message_complete ? after_cb(hp, s->on_message_complete(hp), HPE_CB_message_complete) : 0;
}

/* The trampolines. on_version and on_status_code only begin a response message of an HTTP_BOTH
 * parser: a request parser begins at the method, a response parser at on_message_begin, so
 * theirs leave the two out. t_chunk_complete only forwards to the user's: when that is NULL,
 * t_chunk_header switches to a table without it (AVX2 callgrind, response-chunked: 3,351 ->
 * 3,269 instructions a message, nine chunks), and the next execute() with settings that have
 * one switches back (pass). */
#define HP_TRAMPOLINES \
    .on_message_begin = t_message_begin,                        \
    .on_method = t_method,                                      \
    .on_method_complete = t_method_complete,                    \
    .on_url = t_url,                                            \
    .on_url_complete = t_url_complete,                          \
    .on_version_complete = t_version_complete,                  \
    .on_status_code_complete = t_status_code_complete,          \
    .on_status = t_status,                                      \
    .on_header_field = t_header_field,                          \
    .on_header_value = t_header_value,                          \
    .on_header_value_complete = t_header_value_complete,        \
    .on_status_complete = t_status_complete,                    \
    .on_headers_complete = t_headers_complete,                  \
    .on_body = t_body,                                          \
    .on_chunk_header = t_chunk_header,                          \
    .on_message_complete = t_message_complete,                  \
    .on_header = t_header
#define HP_BOTH .on_version = t_version, .on_status_code = t_status_code
#define HP_CHUNK_COMPLETE .on_chunk_complete = t_chunk_complete
/* indexed by _both * 2 + (_passed >> 2): HTTP_BOTH, no on_chunk_complete trampoline */
static const simdhttp_callbacks trampolines[4] = {
    {HP_TRAMPOLINES, HP_CHUNK_COMPLETE},
    {HP_TRAMPOLINES},
    {HP_TRAMPOLINES, HP_BOTH, HP_CHUNK_COMPLETE},
    {HP_TRAMPOLINES, HP_BOTH},
};

/* ---------------------------------------------------------------------------------------- */

unsigned long http_parser_version(void)
{
    return HTTP_PARSER_VERSION_MAJOR * 0x10000 | HTTP_PARSER_VERSION_MINOR * 0x00100 |
           HTTP_PARSER_VERSION_PATCH * 0x00001;
}

void http_parser_init(http_parser *parser, enum http_parser_type t)
{
    void *data = parser->data;
    /* all but _sh, which simdhttp_init sets member by member */
    _Static_assert(offsetof(http_parser, _target) == offsetof(http_parser, _sh) + sizeof(simdhttp_parser),
                   "_target follows _sh: nothing between them is left unset");
    memset(parser, 0, offsetof(http_parser, _sh));
    /* the members after _sh one by one: a memset of them (the 172-byte _target among them)
     * was a `rep stos`, paid once per message where a server inits a parser per request */
    simdhttp_target_init(&parser->_target, 0);
    parser->_settings = NULL;
    parser->_buf = parser->_buf_end = NULL;
    parser->_buf_off = parser->_stop_off = 0;
    parser->_rp_left = parser->_rp_voff = parser->_rp_vlen = 0;
    parser->_mlen = parser->_stop_errno = parser->_begun = parser->_body_final = parser->_got_value = 0;
    parser->_in_fields = parser->_rp_empty = 0;
    parser->_passed = 0;
    parser->_skip = parser->_nhold = 0;
    parser->_hold = 0;
    parser->_both = t == HTTP_BOTH;
    memset(parser->_mbuf, 0, sizeof parser->_mbuf);
    _Static_assert(offsetof(http_parser, _settings) < offsetof(http_parser, _target) + sizeof(simdhttp_target) + 8 &&
                       offsetof(http_parser, _mbuf) == offsetof(http_parser, _settings) + 7 * 8 + 3 * 4 + 9 &&
                       sizeof(http_parser) < offsetof(http_parser, _mbuf) + sizeof parser->_mbuf + 8,
                   "http_parser_init assigns every member after _sh (a new one: assign it there)");
    parser->data = data;
    parser->type = t;
    parser->content_length = ULLONG_MAX;
    simdhttp_config cfg = {0};
    /* 0 refuses every head, as in http-parser (simdhttp's 0 would mean its default: 1 refuses
     * them too, after the first byte) */
    cfg.max_head_size = max_header_size ? max_header_size : 1;
    cfg.max_fields = UINT32_MAX; /* http-parser has no field count limit: the head size bounds it */
    /* http-parser skips a chunk line's extensions to the CR, unbounded; the layer bounds them
     * (RFC 9112 7.1.1): 0 is simdhttp's default */
    cfg.max_chunk_ext = max_chunk_ext;
    /* what http-parser accepts and RFC 9112 lets a recipient accept (http_parser.h); not a
     * bare LF: simdhttp's switch for it covers chunk lines too, where RFC 9112 7.1 has none */
    cfg.lenient = SIMDHTTP_LENIENT_OBS_FOLD | SIMDHTTP_LENIENT_VERSION | SIMDHTTP_LENIENT_TARGET_OBS_TEXT;
    simdhttp_init(&parser->_sh,
                  t == HTTP_REQUEST ? SIMDHTTP_REQUEST : t == HTTP_RESPONSE ? SIMDHTTP_RESPONSE : SIMDHTTP_BOTH,
                  t == HTTP_BOTH ? &trampolines[2] : &trampolines[0], &cfg);
    parser->_sh.data = parser;
    parser->_mstart = parser->_tstart = UINT64_MAX;
}

void http_parser_settings_init(http_parser_settings *settings) { memset(settings, 0, sizeof *settings); }

/* simdhttp's error codes as http-parser's */
static enum http_errno from_native_errno(simdhttp_errno e)
{
    switch (e) {
    case SIMDHTTP_OK: return HPE_OK;
    case SIMDHTTP_E_PAUSED: return HPE_PAUSED;
    case SIMDHTTP_E_INVALID_METHOD: return HPE_INVALID_METHOD;
    case SIMDHTTP_E_INVALID_URL: return HPE_INVALID_URL;
    case SIMDHTTP_E_INVALID_VERSION: return HPE_INVALID_VERSION;
    case SIMDHTTP_E_INVALID_STATUS: return HPE_INVALID_STATUS;
    case SIMDHTTP_E_UNEXPECTED_SPACE:
    case SIMDHTTP_E_INVALID_HEADER_TOKEN:
    case SIMDHTTP_E_INVALID_HEADER_VALUE: return HPE_INVALID_HEADER_TOKEN;
    case SIMDHTTP_E_CR_EXPECTED:
    case SIMDHTTP_E_LF_EXPECTED: return HPE_LF_EXPECTED;
    case SIMDHTTP_E_INVALID_CONTENT_LENGTH: return HPE_INVALID_CONTENT_LENGTH;
    case SIMDHTTP_E_UNEXPECTED_CONTENT_LENGTH: return HPE_UNEXPECTED_CONTENT_LENGTH;
    case SIMDHTTP_E_INVALID_TRANSFER_ENCODING: return HPE_INVALID_TRANSFER_ENCODING;
    case SIMDHTTP_E_INVALID_CHUNK_SIZE:
    case SIMDHTTP_E_INVALID_CHUNK_EXTENSION: return HPE_INVALID_CHUNK_SIZE;
    case SIMDHTTP_E_HEADER_OVERFLOW:
    case SIMDHTTP_E_TOO_MANY_HEADERS:
    case SIMDHTTP_E_CHUNK_EXTENSIONS_OVERFLOW: return HPE_HEADER_OVERFLOW;
    case SIMDHTTP_E_INVALID_EOF_STATE: return HPE_INVALID_EOF_STATE;
    case SIMDHTTP_E_CLOSED_CONNECTION: return HPE_CLOSED_CONNECTION;
    default: return HPE_UNKNOWN;
    }
}

/* A pause where http-parser's place is not the core's `off` (a whole field line's is t_header's
 * lag): on_message_begin, which http-parser calls on the message's first byte and so counts it;
 * on_headers_complete and on_chunk_complete, before the LF they have not taken; a span, after
 * the byte that ended it (SP, ':', CR); a Content-Length body's end, before its last byte. The caller's next execute() begins at http-parser's place: the bytes the
 * core has taken past it are skipped then, the one it has not taken yet is kept and given to it
 * first (execute_pending). @return http-parser's place. */
static uint64_t pause_place(http_parser *parser, uint64_t off, size_t len)
{
    uint64_t want = off;
    size_t which;
    simdhttp_get_callback_result(&parser->_sh, &which);
    const char *at = off >= parser->_buf_off && off - parser->_buf_off < len ? parser->_buf + (off - parser->_buf_off) : NULL;
    if (parser->_stop_errno == HPE_PAUSED) { /* begin() */
        want = parser->_stop_off;
        parser->_stop_errno = 0;
    } else if (which == offsetof(simdhttp_callbacks, on_message_begin)) {
        if (at) want = off + 1; /* a response's (t_message_begin), at its first byte */
    } else if (which == offsetof(simdhttp_callbacks, on_headers_complete)) {
        if (off > parser->_buf_off) want = off - 1;
    } else if ((which == offsetof(simdhttp_callbacks, on_url) && at && *at == ' ') ||
               (which == offsetof(simdhttp_callbacks, on_status) && at && (*at == '\r' || *at == '\n')) ||
               (which == offsetof(simdhttp_callbacks, on_header_field) && at && *at == ':') ||
               (which == offsetof(simdhttp_callbacks, on_header_value) && at && *at == '\r' && off > parser->_buf_off &&
                at[-1] != '\n')) {
        want = off + 1; /* the byte that ended the span */
    } else if (which == offsetof(simdhttp_callbacks, on_body)) {
        if (parser->_sh.flags & SIMDHTTP_F_CHUNKED) {
            if (at && *at == '\r') want = off + 1; /* a chunk's data: at its CR, which it has taken */
        } else if (parser->_sh.content_length == 0 && off > parser->_buf_off) {
            want = off - 1; /* a Content-Length body's last byte, which it has not counted yet */
        }
    } else if (which == offsetof(simdhttp_callbacks, on_chunk_complete)) {
        /* the last chunk's, at the LF that ends the trailer section */
        if ((parser->_sh.flags & SIMDHTTP_F_TRAILERS) && off > parser->_buf_off &&
            parser->_buf[off - 1 - parser->_buf_off] == '\n')
            want = off - 1;
    }
    if (want < off && off - want < 256 && want >= parser->_buf_off) {
        parser->_skip = (uint8_t)(off - want);
    } else if (want == off + 1 && at) {
        parser->_hold = *at;
        parser->_nhold = 1;
    } else {
        want = off;
    }
    return want;
}

/* simdhttp stopped with e in a call of len bytes that began at the stream's byte _buf_off
 * (replay()'s bytes among them): http-parser's bytes parsed and errno. */
static size_t stopped(http_parser *parser, simdhttp_errno e, size_t len)
{
    simdhttp_parser *sp = &parser->_sh;
    uint64_t off = simdhttp_get_error_offset(sp);
    if (e == SIMDHTTP_E_PAUSED) off -= parser->_rp_left; /* paused in t_header: http-parser's place */
    if (e == SIMDHTTP_E_PAUSED && !parser->_rp_left) off = pause_place(parser, off, len);
    if (e == SIMDHTTP_E_USER && parser->_stop_off != UINT64_MAX) off = parser->_stop_off;
    if (e == SIMDHTTP_E_INVALID_METHOD && parser->_mlen && parser->_mstart != UINT64_MAX) {
        /* http-parser stops at the first byte no known method has there */
        uint64_t first = parser->_mstart + method_prefix(parser->_mbuf, parser->_mlen);
        if (first < off) off = first < parser->_buf_off ? parser->_buf_off : first;
    }
    size_t done = off <= parser->_buf_off ? 0 : off - parser->_buf_off > len ? len : (size_t)(off - parser->_buf_off);
    if (e == SIMDHTTP_E_PAUSED_UPGRADE) {
        parser->upgrade = 1;
    } else if (e == SIMDHTTP_E_PAUSED) {
        parser->http_errno = HPE_PAUSED;
    } else {
        parser->http_errno = e == SIMDHTTP_E_USER ? parser->_stop_errno : from_native_errno(e);
        /* a stray space in the request line is a bad target for http-parser */
        if (e == SIMDHTTP_E_UNEXPECTED_SPACE && !parser->_in_fields && parser->type == HTTP_REQUEST)
            parser->http_errno = HPE_INVALID_URL;
    }
    parser->_buf_off += done;
    parser->nread = (uint32_t)parser->_buf_off;
    return done;
}

/* The end of every call that ran the core on its len bytes: all parsed, or where it stopped. */
static inline size_t ended(http_parser *parser, simdhttp_errno e, size_t len)
{
    if (e != SIMDHTTP_OK) return stopped(parser, e, len);
    parser->_buf_off += len;
    parser->nread = (uint32_t)parser->_buf_off;
    return len;
}

/* The two lenient switches a program may flip between calls changed (passed on), or the
 * callbacks lack the on_chunk_complete trampoline: back with it if these settings have one
 * (t_chunk_header took it away). */
static HP_NOINLINE void pass(http_parser *parser, const http_parser_settings *settings, uint8_t lenient)
{
    if ((lenient ^ parser->_passed) & 3) {
        simdhttp_set_lenient(&parser->_sh, SIMDHTTP_LENIENT_HEADERS, parser->lenient_http_headers);
        simdhttp_set_lenient(&parser->_sh, SIMDHTTP_LENIENT_CHUNKED_LENGTH, parser->allow_chunked_length);
    }
    if ((parser->_passed & 4) && settings && settings->on_chunk_complete)
        simdhttp_set_callbacks(&parser->_sh, &trampolines[parser->_both * 2]);
    else
        lenient |= parser->_passed & 4;
    parser->_passed = lenient;
}

/* A call with bytes after an upgrade or with a line paused in t_header to replay. */
static HP_NOINLINE size_t execute_pending(http_parser *parser, const char *data, size_t len)
{
    simdhttp_parser *sp = &parser->_sh;
    /* called again after an upgrade (sp->upgrade is set with that state: no call otherwise) */
    if (sp->upgrade && simdhttp_get_errno(sp) == SIMDHTTP_E_PAUSED_UPGRADE) {
        simdhttp_resume_after_upgrade(sp);
        parser->upgrade = 0;
    }
    if (parser->_nhold) { /* the byte the core has not taken where http-parser has */
        char hold = parser->_hold;
        parser->_nhold = 0;
        parser->_buf_off -= 1, parser->_buf = &hold, parser->_buf_end = &hold + 1;
        simdhttp_errno e = simdhttp_execute(sp, &hold, 1);
        parser->_buf_off += 1, parser->_buf = data, parser->_buf_end = data + len;
        if (e != SIMDHTTP_OK) return stopped(parser, e, len); /* (its place: this buffer's start) */
    }
    size_t k = 0;
    if (parser->_skip) { /* bytes the core took past where a pause left http-parser */
        if (parser->_mlen && parser->_mstart != UINT64_MAX && parser->_mstart + parser->_mlen > parser->_buf_off) {
            /* among them a method's bytes (a pause in on_message_begin at its first byte, in
             * t_method): http-parser fails at the first that no known method has there now */
            uint64_t bad = parser->_mstart + method_prefix(parser->_mbuf, parser->_mlen);
            if (bad < parser->_mstart + parser->_mlen && bad >= parser->_buf_off && bad - parser->_buf_off < len) {
                size_t done = (size_t)(bad - parser->_buf_off);
                parser->_skip = 0;
                parser->http_errno = HPE_INVALID_METHOD;
                parser->_buf_off += done;
                parser->nread = (uint32_t)parser->_buf_off;
                return done;
            }
        }
        k = parser->_skip < len ? parser->_skip : len;
        parser->_skip = (uint8_t)(parser->_skip - k);
    } else if (parser->_rp_left || parser->_rp_empty) { /* a line paused in t_header */
        k = replay(parser, data, len);
        if (parser->http_errno != HPE_OK) {
            parser->_buf_off += k;
            parser->nread = (uint32_t)parser->_buf_off;
            return k;
        }
    }
    simdhttp_errno e = k == len ? SIMDHTTP_OK : simdhttp_execute(sp, data + k, len - k);
    return ended(parser, e, len);
}

/* The usual calls short (bytes with nothing pending, and the end of the stream, len 0); the
 * rest out of line, so that these save two registers, not six. */
size_t http_parser_execute(http_parser *parser, const http_parser_settings *settings, const char *data,
                           size_t len)
{
    if (parser->http_errno != HPE_OK) return 0;
    parser->_settings = settings;
    uint8_t lenient = (uint8_t)(parser->lenient_http_headers | parser->allow_chunked_length << 1);
    if (lenient != parser->_passed) pass(parser, settings, lenient);
    parser->_buf = data;
    simdhttp_errno e;
    if (!len) { /* the end of the stream (data may be NULL: no NULL + 0) */
        parser->_buf_end = data;
        e = simdhttp_finish(&parser->_sh);
        /* inside a message: 1, as http-parser, more than the 0 bytes given, so that a caller's
         * "parsed != len" check sees this error as it sees the others */
        if (e == SIMDHTTP_E_INVALID_EOF_STATE) return stopped(parser, e, 0) + 1;
    } else {
        parser->_buf_end = (const char *)((uintptr_t)data + len); /* (NULL data: the core refuses it) */
        if (parser->_sh.upgrade || parser->_rp_left || parser->_rp_empty || (parser->_skip | parser->_nhold))
            return execute_pending(parser, data, len);
        e = simdhttp_execute(&parser->_sh, data, len);
    }
    return ended(parser, e, len);
}

int http_should_keep_alive(const http_parser *parser)
{
    if (parser->_sh.flags & SIMDHTTP_F_CLOSE_AFTER) return 0; /* http_parser_set_layer_mode */
    if (parser->http_major > 0 && parser->http_minor > 0) {
        if (parser->flags & F_CONNECTION_CLOSE) return 0;
    } else if (!(parser->flags & F_CONNECTION_KEEP_ALIVE)) {
        return 0;
    }
    /* a body that runs until the close cannot be followed by another message */
    if (parser->type == HTTP_REQUEST) return 1;
    if (parser->status_code / 100 == 1 || parser->status_code == 204 || parser->status_code == 304 ||
        (parser->flags & F_SKIPBODY))
        return 1;
    if (parser->uses_transfer_encoding && !(parser->flags & F_CHUNKED)) return 0;
    return (parser->flags & F_CHUNKED) || parser->content_length != ULLONG_MAX;
}

const char *http_method_str(enum http_method m)
{
    return (unsigned)m < N_METHODS ? method_strings[m] : "<unknown>";
}

const char *http_status_str(enum http_status s)
{
    switch (s) {
#define XX(num, name, string) \
    case HTTP_STATUS_##name: return #string;
        HTTP_STATUS_MAP(XX)
#undef XX
    default: return "<unknown>";
    }
}

static const struct {
    const char *name, *description;
} errno_tab[] = {
#define XX(n, s) {"HPE_" #n, s},
    HTTP_ERRNO_MAP(XX)
#undef XX
};

const char *http_errno_name(enum http_errno err)
{
    return (unsigned)err < sizeof errno_tab / sizeof *errno_tab ? errno_tab[err].name : "HPE_UNKNOWN";
}

const char *http_errno_description(enum http_errno err)
{
    return (unsigned)err < sizeof errno_tab / sizeof *errno_tab ? errno_tab[err].description
                                                               : "an unknown error occurred";
}

void http_parser_url_init(struct http_parser_url *u) { memset(u, 0, sizeof *u); }

int http_parser_parse_url(const char *buf, size_t buflen, int is_connect, struct http_parser_url *u)
{
    simdhttp_target t;
    if (buflen == 0 || buflen > UINT16_MAX) return 1;
    if (simdhttp_target_parse(&t, buf, buflen,
                              SIMDHTTP_TARGET_LENIENT | (is_connect ? SIMDHTTP_TARGET_CONNECT : SIMDHTTP_TARGET_FRAGMENT)))
        return 1;
    /* http-parser takes no authority-form without is_connect (RFC 9112 3.2.3: CONNECT only) */
    if (!is_connect && t.form == SIMDHTTP_TARGET_AUTHORITY) return 1;
    /* "*" is a path to http-parser */
    if (t.form == SIMDHTTP_TARGET_ASTERISK) t.parts = 1u << SIMDHTTP_URL_PATH, t.part[UF_PATH].off = 0, t.part[UF_PATH].len = 1;
    u->field_set = 0;
    u->port = t.port;
    for (int i = 0; i < UF_MAX; i++) {
        /* an empty part is absent for http-parser ("http://h:/" has no port) */
        if ((t.parts & (1u << i)) && t.part[i].len) {
            u->field_set |= (uint16_t)(1u << i);
            u->field_data[i].off = (uint16_t)t.part[i].off;
            u->field_data[i].len = (uint16_t)t.part[i].len;
        } else {
            u->field_data[i].off = u->field_data[i].len = 0;
        }
    }
    return 0;
}

void http_parser_pause(http_parser *parser, int paused)
{
    if (parser->http_errno != HPE_OK && parser->http_errno != HPE_PAUSED) return;
    parser->http_errno = paused ? HPE_PAUSED : HPE_OK;
    if (!paused) simdhttp_resume(&parser->_sh);
}

int http_body_is_final(const http_parser *parser) { return parser->_body_final; }

void http_parser_set_max_header_size(uint32_t size) { max_header_size = size; }

void http_parser_set_max_chunk_ext(uint32_t size) { max_chunk_ext = size; }

int http_parser_set_layer_mode(http_parser *parser, const char *mode)
{
    long m = mode ? simdhttp_mode_from_name(mode, strlen(mode)) : -1;
    if (m < 0) return -1;
    simdhttp_set_mode(&parser->_sh, (unsigned)m);
    return 0;
}

uint32_t http_parser_get_layer_reasons(const http_parser *parser) { return parser->_sh.reasons; }
