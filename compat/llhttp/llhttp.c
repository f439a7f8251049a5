/* SPDX-License-Identifier: MIT */
/* The llhttp 9.x API over simdhttp: llhttp_t holds a simdhttp_parser; simdhttp's callbacks are
 * trampolines that fill llhttp's public fields and call the user's llhttp callbacks, mapping
 * their return values both ways. No parsing happens here: every byte is judged by the simdhttp
 * core (src/core.h); this file only translates names, codes and fields.
 *
 * Trampolines are installed only for the callbacks the user's settings have, plus the few this
 * layer needs to keep llhttp's fields current (method, version, status code, headers complete,
 * message begin and complete): a callback nobody listens to costs nothing. The table is the
 * parser's own, so a trampoline that has done its part for the message steps aside: once
 * on_method has set the method (its SP in the same buffer), the core calls the user's
 * on_method_complete directly, and once the type is decided, the user's on_version. Each
 * trampoline stays correct wherever the core calls it. */
#include <stdlib.h>
#include <string.h>

#include "internal.h" /* S_URL: the core's state inside a target (url_tail) */
#include "llhttp.h"
#include "method_names.h"

#define LP(p) ((llhttp_t *)(void *)((char *)(p) - offsetof(llhttp_t, _sh)))
/* the user's settings, read live as llhttp does (a trampoline exists only while it is set) */
#define US(lp) ((lp)->_us)
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
/* llhttp_t._owe: callbacks a pause held back, delivered at the next execute() (owed()); and
 * OWE_STATUS, on_status_complete held back while the buffer ends at the status line's CR
 * (status_probe: OWE_PROBE marks its pause); OWE_PRI, HTTP/2's preface awaited after a PRI
 * request line (pri_preface: OWE_PRI_NOW marks the pause that starts it) */
enum { OWE_BEGIN = 1, OWE_VERSION = 2, OWE_METHOD_ERROR = 4, OWE_SHIFT = 8, OWE_METHOD = 16, OWE_EXT_ERROR = 32,
       OWE_VERSION_SPAN = 64, OWE_VERSION_ERROR = 128, OWE_STATUS = 256, OWE_PROBE = 512,
       OWE_VERSION_DOT = 1024, OWE_VERSION_MINOR = 2048, OWE_PRI = 4096, OWE_PRI_NOW = 8192 };

/* ---- names and codes ---------------------------------------------------------------- */

const char *llhttp_errno_name(llhttp_errno_t err)
{
    switch (err) {
#define XX(num, name, string) case HPE_##name: return "HPE_" #string;
        HTTP_ERRNO_MAP(XX)
#undef XX
    }
    return "HPE_UNKNOWN";
}

/* Every method name llhttp's request parser matches (its trie), by llhttp's number: its names,
 * and the match (method_prefix) where the core's classification is not enough (a method
 * outside the registry, one split across execute() calls) */
static const char *const method_names[] = {
#define XX(num, name, string) [num] = #string,
    HTTP_ALL_METHOD_MAP(XX)
#undef XX
};
#define N_METHODS (sizeof method_names / sizeof *method_names)
#define LONGEST_METHOD 13 /* GET_PARAMETER */

const char *llhttp_method_name(llhttp_method_t method)
{
    return (unsigned)method < N_METHODS && method_names[method] ? method_names[method] : "<unknown>";
}

const char *llhttp_status_name(llhttp_status_t status)
{
    switch (status) {
#define XX(num, name, string) case HTTP_STATUS_##name: return #string;
        HTTP_STATUS_MAP(XX)
#undef XX
    }
    return NULL;
}

#define NO_ID 0
#define ID(m) ((m) + 1)

/* simdhttp_method -> llhttp_method + 1, as in llhttp_t._mid (NO_ID: a registered method llhttp
 * does not know) */
static const uint8_t method_mids[SIMDHTTP_METHOD_COUNT] = {
    [SIMDHTTP_METHOD_OTHER] = NO_ID,
    [SIMDHTTP_METHOD_GET] = ID(HTTP_GET),
    [SIMDHTTP_METHOD_HEAD] = ID(HTTP_HEAD),
    [SIMDHTTP_METHOD_POST] = ID(HTTP_POST),
    [SIMDHTTP_METHOD_PUT] = ID(HTTP_PUT),
    [SIMDHTTP_METHOD_DELETE] = ID(HTTP_DELETE),
    [SIMDHTTP_METHOD_CONNECT] = ID(HTTP_CONNECT),
    [SIMDHTTP_METHOD_OPTIONS] = ID(HTTP_OPTIONS),
    [SIMDHTTP_METHOD_TRACE] = ID(HTTP_TRACE),
    [SIMDHTTP_METHOD_PATCH] = ID(HTTP_PATCH),
    [SIMDHTTP_METHOD_ACL] = ID(HTTP_ACL),
    [SIMDHTTP_METHOD_BASELINE_CONTROL] = NO_ID,
    [SIMDHTTP_METHOD_BIND] = ID(HTTP_BIND),
    [SIMDHTTP_METHOD_CHECKIN] = NO_ID,
    [SIMDHTTP_METHOD_CHECKOUT] = ID(HTTP_CHECKOUT),
    [SIMDHTTP_METHOD_COPY] = ID(HTTP_COPY),
    [SIMDHTTP_METHOD_LABEL] = NO_ID,
    [SIMDHTTP_METHOD_LINK] = ID(HTTP_LINK),
    [SIMDHTTP_METHOD_LOCK] = ID(HTTP_LOCK),
    [SIMDHTTP_METHOD_MERGE] = ID(HTTP_MERGE),
    [SIMDHTTP_METHOD_MKACTIVITY] = ID(HTTP_MKACTIVITY),
    [SIMDHTTP_METHOD_MKCALENDAR] = ID(HTTP_MKCALENDAR),
    [SIMDHTTP_METHOD_MKCOL] = ID(HTTP_MKCOL),
    [SIMDHTTP_METHOD_MKREDIRECTREF] = NO_ID,
    [SIMDHTTP_METHOD_MKWORKSPACE] = NO_ID,
    [SIMDHTTP_METHOD_MOVE] = ID(HTTP_MOVE),
    [SIMDHTTP_METHOD_ORDERPATCH] = NO_ID,
    [SIMDHTTP_METHOD_PRI] = ID(HTTP_PRI),
    [SIMDHTTP_METHOD_PROPFIND] = ID(HTTP_PROPFIND),
    [SIMDHTTP_METHOD_PROPPATCH] = ID(HTTP_PROPPATCH),
    [SIMDHTTP_METHOD_REBIND] = ID(HTTP_REBIND),
    [SIMDHTTP_METHOD_REPORT] = ID(HTTP_REPORT),
    [SIMDHTTP_METHOD_SEARCH] = ID(HTTP_SEARCH),
    [SIMDHTTP_METHOD_UNBIND] = ID(HTTP_UNBIND),
    [SIMDHTTP_METHOD_UNCHECKOUT] = NO_ID,
    [SIMDHTTP_METHOD_UNLINK] = ID(HTTP_UNLINK),
    [SIMDHTTP_METHOD_UNLOCK] = ID(HTTP_UNLOCK),
    [SIMDHTTP_METHOD_UPDATE] = NO_ID,
    [SIMDHTTP_METHOD_UPDATEREDIRECTREF] = NO_ID,
    [SIMDHTTP_METHOD_VERSION_CONTROL] = NO_ID,
};
#undef ID

/* @return 1 if s[0..n) begins some llhttp method name; *id = that method if it is one. A
 * parser of type both that has not seen a message yet takes a first 'H' for HEAD or "HTTP/"
 * only (llhttp then says INVALID_CONSTANT). */
static int method_prefix(const llhttp_t *lp, const char *s, size_t n, int *id)
{
    *id = -1;
    if (n && s[0] == 'H' && lp->type == HTTP_BOTH) {
        if (n <= 4 && memcmp("HEAD", s, n) == 0) *id = n == 4 ? HTTP_HEAD : -1;
        else if (!(n <= 5 && memcmp("HTTP/", s, n) == 0)) return 0;
        return 1;
    }
    *id = sh_name_index(method_names, N_METHODS, s, n);
    return sh_name_prefix(method_names, N_METHODS, s, n) == n;
}

/* simdhttp_errno -> llhttp_errno for parse errors (pauses and callback errors are handled
 * apart). The limits llhttp does not have become HPE_INTERNAL with simdhttp's reason. */
static const uint8_t errno_ids[SIMDHTTP_ERRNO_COUNT] = {
    [SIMDHTTP_OK] = HPE_OK,
    [SIMDHTTP_E_PAUSED] = HPE_PAUSED,
    [SIMDHTTP_E_PAUSED_UPGRADE] = HPE_PAUSED_UPGRADE,
    [SIMDHTTP_E_USER] = HPE_USER,
    [SIMDHTTP_E_INVALID_METHOD] = HPE_INVALID_METHOD,
    [SIMDHTTP_E_INVALID_URL] = HPE_INVALID_URL,
    [SIMDHTTP_E_INVALID_VERSION] = HPE_INVALID_VERSION,
    [SIMDHTTP_E_INVALID_STATUS] = HPE_INVALID_STATUS,
    [SIMDHTTP_E_UNEXPECTED_SPACE] = HPE_UNEXPECTED_SPACE,
    [SIMDHTTP_E_INVALID_HEADER_TOKEN] = HPE_INVALID_HEADER_TOKEN,
    [SIMDHTTP_E_INVALID_HEADER_VALUE] = HPE_INVALID_HEADER_TOKEN, /* llhttp: "Invalid header value char" */
    [SIMDHTTP_E_CR_EXPECTED] = HPE_CR_EXPECTED,
    [SIMDHTTP_E_LF_EXPECTED] = HPE_LF_EXPECTED,
    [SIMDHTTP_E_INVALID_CONTENT_LENGTH] = HPE_INVALID_CONTENT_LENGTH,
    [SIMDHTTP_E_UNEXPECTED_CONTENT_LENGTH] = HPE_UNEXPECTED_CONTENT_LENGTH,
    [SIMDHTTP_E_INVALID_TRANSFER_ENCODING] = HPE_INVALID_TRANSFER_ENCODING,
    [SIMDHTTP_E_INVALID_CHUNK_SIZE] = HPE_INVALID_CHUNK_SIZE,
    [SIMDHTTP_E_INVALID_CHUNK_EXTENSION] = HPE_STRICT,
    [SIMDHTTP_E_HEADER_OVERFLOW] = HPE_INTERNAL,
    [SIMDHTTP_E_TOO_MANY_HEADERS] = HPE_INTERNAL,
    [SIMDHTTP_E_CHUNK_EXTENSIONS_OVERFLOW] = HPE_INTERNAL,
    [SIMDHTTP_E_INVALID_EOF_STATE] = HPE_INVALID_EOF_STATE,
    [SIMDHTTP_E_CLOSED_CONNECTION] = HPE_CLOSED_CONNECTION,
    [SIMDHTTP_E_INVALID_ARGUMENT] = HPE_INTERNAL,
};

/* llhttp lenient flags -> simdhttp's (the meanings are documented at the setters in llhttp.h) */
static uint32_t lenient_bits(unsigned f)
{
    uint32_t l = SIMDHTTP_LENIENT_TARGET_OBS_TEXT; /* llhttp's default (layer_config) */
    if (f & (LENIENT_HEADERS | LENIENT_HEADER_VALUE_RELAXED)) l |= SIMDHTTP_LENIENT_HEADERS;
    if (f & LENIENT_HEADERS) l |= SIMDHTTP_LENIENT_OBS_FOLD | SIMDHTTP_LENIENT_FIELD_BARE_CR;
    if (f & LENIENT_CHUNKED_LENGTH) l |= SIMDHTTP_LENIENT_CHUNKED_LENGTH | SIMDHTTP_LENIENT_TRANSFER_ENCODING;
    if (f & LENIENT_KEEP_ALIVE) l |= SIMDHTTP_LENIENT_KEEP_ALIVE;
    if (f & LENIENT_TRANSFER_ENCODING) l |= SIMDHTTP_LENIENT_TRANSFER_ENCODING;
    if (f & LENIENT_VERSION) l |= SIMDHTTP_LENIENT_VERSION;
    if (f & LENIENT_DATA_AFTER_CLOSE) l |= SIMDHTTP_LENIENT_DATA_AFTER_CLOSE;
    if (f & LENIENT_OPTIONAL_LF_AFTER_CR) l |= SIMDHTTP_LENIENT_OPTIONAL_LF_AFTER_CR;
    if (f & LENIENT_OPTIONAL_CR_BEFORE_LF) l |= SIMDHTTP_LENIENT_OPTIONAL_CR_BEFORE_LF;
    if (f & LENIENT_OPTIONAL_CRLF_AFTER_CHUNK) l |= SIMDHTTP_LENIENT_OPTIONAL_CRLF_AFTER_CHUNK;
    if (f & LENIENT_SPACES_AFTER_CHUNK_SIZE) l |= SIMDHTTP_LENIENT_SPACES_AFTER_CHUNK_SIZE;
    return l;
}

/* simdhttp flags -> llhttp's: five bits are the same, three move */
_Static_assert((unsigned)SIMDHTTP_F_CONNECTION_UPGRADE == (unsigned)F_CONNECTION_UPGRADE &&
                   (unsigned)SIMDHTTP_F_CHUNKED == (unsigned)F_CHUNKED &&
                   (unsigned)SIMDHTTP_F_UPGRADE == (unsigned)F_UPGRADE &&
                   (unsigned)SIMDHTTP_F_CONTENT_LENGTH == (unsigned)F_CONTENT_LENGTH &&
                   (unsigned)SIMDHTTP_F_TRAILERS == (unsigned)F_TRAILING && SIMDHTTP_F_CONNECTION_CLOSE == 1 &&
                   SIMDHTTP_F_CONNECTION_KEEP_ALIVE == 2 && SIMDHTTP_F_TRANSFER_ENCODING == 0x40,
               "flag bits");
#define LLF(f) (uint16_t)(((f) & 0xbc) | ((f) & 1) << 1 | ((f) >> 1 & 1) | ((f) & 0x40) << 3)
#define LLF4(f) LLF(f), LLF((f) + 1), LLF((f) + 2), LLF((f) + 3)
#define LLF16(f) LLF4(f), LLF4((f) + 4), LLF4((f) + 8), LLF4((f) + 12)
#define LLF64(f) LLF16(f), LLF16((f) + 16), LLF16((f) + 32), LLF16((f) + 48)
/* by the low 8 bits, the ones llhttp has (a load instead of ten operations per message) */
static const uint16_t llhttp_flags_of[256] = {LLF64(0), LLF64(64), LLF64(128), LLF64(192)};
#undef LLF
#undef LLF4
#undef LLF16
#undef LLF64

/* ---- callback return values --------------------------------------------------------- */

/* A data callback returned rc != 0: HPE_PAUSED pauses; -1 is HPE_USER; any other value is
 * the error execute() returns (llhttp's contract). */
static int span_stop(llhttp_t *lp, int rc, const char *why)
{
    if (rc == HPE_PAUSED) return HPE_PAUSED; /* simdhttp's pause value here (init_core) */
    if (rc == -1) {
        rc = HPE_USER;
        lp->reason = why;
    }
    lp->_cb_err = rc;
    return -1;
}

/* The same where the layer calls a data callback outside the core's execute() (what it held
 * back, or a span llhttp gives before an error): the error is set here. -1 is HPE_USER with the
 * reason `why`; a pause or any other value is that code, with the reason as it was.
 * @return the error. */
static int span_failed(llhttp_t *lp, int rc, const char *why)
{
    if (rc == -1) {
        rc = HPE_USER;
        lp->reason = why;
    }
    lp->error = rc;
    return rc;
}

/* A notification returned rc != 0: HPE_PAUSED pauses, with llhttp's reason for a pause in that
 * notification (`paused`: stopped() keeps it where the core's slot is a span callback's, as
 * method_slow's on_method_complete); anything else fails with its HPE_CB_*. */
static int note_stop(llhttp_t *lp, int rc, int code, const char *why, const char *paused)
{
    if (rc == HPE_PAUSED) {
        lp->reason = paused;
        return HPE_PAUSED;
    }
    lp->_cb_err = code;
    lp->reason = why;
    return -1;
}

/* the same, for a notification the layer always listens to (the user's may be NULL) */
#define USER_NOTE(lp, name, code)                                                           \
    do {                                                                                    \
        llhttp_cb cb_ = US(lp)->name;                                                       \
        if (cb_) {                                                                          \
            int rc_ = cb_(lp);                                                              \
            if (UNLIKELY(rc_ != 0))                                                         \
                return note_stop(lp, rc_, code, "`" #name "` callback error", #name " pause"); \
        }                                                                                   \
    } while (0)

/* ---- the URL part a refused target byte is in (llhttp's reason text) -------------------- */

/* llhttp 8.1 checks a target's URL syntax byte by byte (its url_* states) and names the part
 * where it refuses a byte; the core checks bytes only. On the error path the layer runs the
 * target's bytes before the refused one through those states (url_step) to give llhttp's text.
 * A target that arrives in pieces: each piece that ends at a buffer's end is fed when
 * llhttp_execute() returns with the core inside the target (url_tail), with on_url or without
 * it; the state is one byte, _vlen, unused until the version and 0 at each message's begin
 * (t_on_message_begin's one store). */
#define URL_STATE(lp) ((lp)->_vlen)
enum {
    U_FRESH,                      /* nothing of this message's target seen */
    U_START, U_SCHEMA, U_DELIM, U_DELIM1, U_SERVER, U_SERVER_AT, U_PATH, U_QUERY, U_FRAGMENT,
    U_REFUSED                     /* + R_*: llhttp refused a byte before the core's */
};
enum { R_START, R_SCHEMA, R_SERVER, R_DOUBLE_AT, R_PATH, R_QUERY, R_FRAGMENT, R_CHARS };
static const char *const url_texts[] = {
    [R_START] = "Unexpected start char in url",   [R_SCHEMA] = "Unexpected char in url schema",
    [R_SERVER] = "Unexpected char in url server",  [R_DOUBLE_AT] = "Double @ in url",
    [R_PATH] = "Invalid char in url path",         [R_QUERY] = "Invalid char in url query",
    [R_FRAGMENT] = "Invalid char in url fragment start",
    [R_CHARS] = "Invalid characters in url", /* (llhttp's place for it: one byte after) */
};

static int url_alpha(unsigned char c) { return (unsigned char)((c | 0x20) - 'a') < 26; }

/* llhttp's server bytes (url_server's table): unreserved, sub-delims, ':', '[', ']' */
static int url_server_byte(unsigned char c)
{
    return url_alpha(c) || (c >= '0' && c <= ';') || (c >= '$' && c <= '.') || (c && strchr("!=[]_~", c));
}

/* The reason llhttp gives for byte c in state s (a live state: whatever c is, the part's text) */
static unsigned url_reason_of(unsigned s, unsigned char c)
{
    int ws = c == '\r' || c == '\n' || c == ' ';
    switch (s) {
    case U_START: return ws ? R_CHARS : R_START;
    case U_SCHEMA: case U_DELIM: return ws ? R_CHARS : R_SCHEMA;
    case U_DELIM1: return R_SCHEMA;
    case U_SERVER: return R_SERVER;
    case U_SERVER_AT: return c == '@' ? R_DOUBLE_AT : R_SERVER;
    case U_PATH: return R_PATH;
    case U_QUERY: return R_QUERY;
    case U_FRAGMENT: return R_FRAGMENT;
    default: return s - U_REFUSED; /* refused before */
    }
}

/* llhttp's URL states (llhttp.c 8.1, the default non-strict build): the state after byte c */
static unsigned url_step(unsigned s, unsigned char c)
{
    /* path, query and fragment take HTAB, FF, VCHAR and bytes >= 0x80 */
    int text = c == '\t' || c == '\f' || (c > ' ' && c != 0x7f);
    unsigned next = 0;
    switch (s) {
    case U_START: next = c == '/' || c == '*' ? U_PATH : url_alpha(c) ? U_SCHEMA : 0; break;
    case U_SCHEMA: next = url_alpha(c) ? U_SCHEMA : c == ':' ? U_DELIM : 0; break;
    case U_DELIM: next = c == '/' ? U_DELIM1 : 0; break;
    case U_DELIM1: next = c == '/' ? U_SERVER : 0; break;
    case U_SERVER: case U_SERVER_AT:
        next = c == '/' ? U_PATH : c == '?' ? U_QUERY : c == '@' ? (s == U_SERVER ? U_SERVER_AT : 0)
             : url_server_byte(c) ? U_SERVER : 0;
        break;
    case U_PATH: next = c == '?' ? U_QUERY : c == '#' ? U_FRAGMENT : text ? U_PATH : 0; break;
    case U_QUERY: next = c == '#' ? U_FRAGMENT : text ? U_QUERY : 0; break;
    case U_FRAGMENT: next = text ? U_FRAGMENT : 0; break;
    default: return s; /* refused: stays */
    }
    return next ? next : U_REFUSED + url_reason_of(s, c);
}

/* the state after bytes [at, at + n) of the target, from s (U_FRESH: the target's first byte;
 * CONNECT's is its server, as llhttp's url_entry_connect) */
static unsigned url_feed(const llhttp_t *lp, unsigned s, const char *at, size_t n)
{
    if (s == U_FRESH) s = lp->method == HTTP_CONNECT ? U_SERVER : U_START;
    for (size_t i = 0; i < n; i++) s = url_step(s, (unsigned char)at[i]);
    return s;
}

/* The buffer [lp->_data, lp->_end) ends inside a target (the core's state is S_URL): its piece
 * of the target, from the SP before it or the buffer's start (a target has no SP), is fed; more
 * may come in the next buffer. The piece may be empty (a pause in on_url at the buffer's end
 * fed it already, and the next buffer was empty). */
static __attribute__((noinline, cold)) void url_tail(llhttp_t *lp)
{
    const char *from = lp->_end;
    while (from > lp->_data && from[-1] != ' ') from--;
    URL_STATE(lp) = (uint8_t)url_feed(lp, URL_STATE(lp), from, (size_t)(lp->_end - from));
}

/* The core refused the target's byte at lp->error_pos (SIMDHTTP_E_INVALID_URL): llhttp's text
 * for it, and llhttp's place for "Invalid characters in url" (after the byte). The bytes before
 * it: the pieces fed so far (url_tail) and this buffer's up to it, or (nothing fed) this
 * buffer's from the SP before the target. */
static __attribute__((noinline, cold)) void url_refused(llhttp_t *lp)
{
    const char *pos = lp->error_pos;
    if (!pos || pos < lp->_data || pos >= lp->_end) {
        lp->reason = url_texts[R_PATH];
        return;
    }
    unsigned s = URL_STATE(lp);
    const char *from = lp->_data;
    if (s == U_FRESH)
        for (from = pos; from > lp->_data && from[-1] != ' ';) from--;
    s = url_feed(lp, s, from, (size_t)(pos - from));
    unsigned r = url_reason_of(s, (unsigned char)*pos);
    lp->reason = url_texts[r];
    if (r == R_CHARS) lp->error_pos = pos + 1;
}

/* on_url: the user's callback is called for a span the core ends with the SP; not for the
 * piece before a refused byte (llhttp calls it only once the span ends), which the layer
 * classifies (url_refused) */
static int t_on_url(simdhttp_parser *p, const char *at, size_t n)
{
    llhttp_t *lp = LP(p);
    if (at + n < lp->_end && UNLIKELY(at[n] != ' ') && at >= lp->_data) return 0;
    llhttp_data_cb cb = US(lp)->on_url;
    return cb ? cb(lp, at, n) : 0; /* its errors: direct_error, as if called directly */
}

static int t_on_chunk_header(simdhttp_parser *p)
{
    llhttp_t *lp = LP(p);
    lp->content_length = p->content_length;
    USER_NOTE(lp, on_chunk_header, HPE_CB_CHUNK_HEADER);
    return 0;
}

/* ---- the callbacks the layer always listens to --------------------------------------- */

/* on_reset, then on_message_begin (out of line: most parsers have no on_reset, and the common
 * path then needs no stack frame) */
static __attribute__((noinline)) int reset_then_begin(llhttp_t *lp)
{
    int rc = US(lp)->on_reset(lp);
    if (UNLIKELY(rc != 0)) {
        if (rc != HPE_PAUSED) return note_stop(lp, rc, HPE_CB_RESET, "`on_reset` callback error", NULL);
        lp->_owe |= OWE_BEGIN; /* on_message_begin comes first thing after the resume */
        lp->reason = "on_reset pause"; /* (pause_reason: kept, OWE_BEGIN) */
        return HPE_PAUSED;
    }
    llhttp_cb cb = US(lp)->on_message_begin;
    return cb ? cb(lp) : 0; /* its errors: direct_error */
}

static int t_on_message_begin(simdhttp_parser *p)
{
    llhttp_t *lp = LP(p);
    lp->_mlen = lp->_mid = lp->_proto = 0;
    lp->_vlen = 0; /* (nothing is owed, no target seen: URL_STATE; with the three, one store) */
    lp->flags = 0;
    lp->upgrade = 0;
    lp->finish = HTTP_FINISH_UNSAFE;
    if (lp->initial_message_completed && US(lp)->on_reset) return reset_then_begin(lp);
    llhttp_cb cb = US(lp)->on_message_begin;
    return cb ? cb(lp) : 0; /* its errors: direct_error */
}

/* The method is known to be llhttp's method `id`: the fields llhttp has set from
 * on_method_complete on. The type is decided, so on_version needs the layer no more unless the
 * protocol is reported (_on_version_typed, chosen by sync_callbacks). */
static inline void method_fields(llhttp_t *lp, int id)
{
    lp->method = (uint8_t)id;
    lp->type = HTTP_REQUEST;
    lp->_cb.on_version = lp->_on_version_typed;
}

/* The method ended (SP or another byte next) at a known llhttp method: llhttp's fields and
 * on_method_complete. */
static int method_done(llhttp_t *lp, int id)
{
    method_fields(lp, id);
    USER_NOTE(lp, on_method_complete, HPE_CB_METHOD_COMPLETE);
    return 0;
}

static int t_on_method_complete(simdhttp_parser *p);
/* in _mid: on_method_complete came at the buffer's end (method_slow); the core's call at the SP
 * is llhttp's second, swallowed by t_on_method_complete */
#define MID_DELIVERED 0x80

/* The method's fields are owed to on_method_complete: a method span ended without the SP
 * after it (in a later buffer), or a callback stopped the parser. The trampoline sets them
 * and puts the user's callback back; while the method and its SP come in one buffer (the
 * common case), on_method sets them and the core calls the user's on_method_complete
 * directly. */
static inline void owe_method(llhttp_t *lp) { lp->_cb.on_method_complete = t_on_method_complete; }
/* ... and once they are set, the user's own again (called directly: see sync_callbacks) */
static inline void paid_method(llhttp_t *lp)
{
    lp->_cb.on_method_complete = (simdhttp_cb)(void (*)(void))US(lp)->on_method_complete;
}

static int invalid_method(llhttp_t *lp, const char *at)
{
    int both = lp->type == HTTP_BOTH && lp->_mbuf[0] == 'H';
    lp->_cb_err = both ? HPE_INVALID_CONSTANT : HPE_INVALID_METHOD;
    lp->reason = both ? "Invalid word encountered"
                 : lp->_mid ? "Expected space after method" /* a whole method, then not SP */
                            : "Invalid method encountered";
    /* bytes simdhttp kept itself (type both) have no place in the buffer: simdhttp's position */
    lp->_err_pos = at >= lp->_data && at <= lp->_end ? at : NULL;
    return -1;
}

/* Type both, the first message: llhttp begins a method span at an "H" and gives it as it
 * comes, whether "HTTP/" (a response) or a method follows; the core holds those bytes until it
 * can tell. Those of earlier buffers went at their ends (both_tail: _hsent). The core gives
 * the request's as a constant first (`at` outside the buffer): those not given yet are the
 * bytes of this buffer just before the method's next piece, which gets them (_hback).
 * @return 1 if there is nothing to give now */
static __attribute__((noinline, cold)) int both_method(llhttp_t *lp, const char **at, size_t *n)
{
    if (!(*at >= lp->_data && *at <= lp->_end)) {
        lp->_hback = (uint8_t)(*n - lp->_hsent);
        lp->_hsent = 0;
        return 1;
    }
    if (lp->_hback && *at - lp->_hback >= lp->_data) *at -= lp->_hback, *n += lp->_hback;
    lp->_hback = 0;
    return 0;
}

/* Methods are llhttp's set, matched as llhttp's trie does: an error at the first byte no
 * method name continues with, the method span delivered only if a whole method came before
 * it. The common case (the method and its SP in one buffer, classified by simdhttp as one of
 * llhttp's) costs a few tests (t_on_method); the rest comes here. */
static int user_method(llhttp_t *lp, const char *at, size_t n)
{
    if (UNLIKELY(lp->type == HTTP_BOTH) && both_method(lp, &at, &n)) return 0;
    llhttp_data_cb cb = US(lp)->on_method;
    int rc = cb ? cb(lp, at, n) : 0;
    return LIKELY(rc == 0) ? 0 : span_stop(lp, rc, "Span callback error in on_method");
}

/* 1 if a method name longer than s[0..n) begins with it (llhttp's trie reads on: "GET" may be
 * "GET_PARAMETER") */
static int method_goes_on(const char *s, size_t n)
{
    for (size_t i = 0; i < N_METHODS; i++)
        if (method_names[i] && strlen(method_names[i]) > n && memcmp(method_names[i], s, n) == 0) return 1;
    return 0;
}

/* on_method or on_method_complete stopped the parser (rc) where the method ends at a byte `at`
 * no method goes on with: llhttp stands at that byte, and after a pause refuses it (owed); the
 * core, stopped in on_method, stands after the bytes it took. */
static __attribute__((noinline, cold)) int method_stopped(llhttp_t *lp, int rc, const char *at)
{
    if (rc == HPE_PAUSED) lp->_owe |= OWE_METHOD_ERROR;
    lp->_err_pos = at >= lp->_data && at <= lp->_end ? at : NULL;
    return rc;
}

static __attribute__((noinline)) int method_slow(llhttp_t *lp, const char *at, size_t n)
{
    int id = -1;
    size_t k = lp->_mlen;
    if (lp->_mid & MID_DELIVERED) /* no method goes on past that one */
        return n ? invalid_method(lp, at) : 0;
    owe_method(lp); /* set back to the user's on_method_complete only where the SP is seen */
    if (n == 0) /* a span open at this buffer's start: its end at an empty buffer's end, or at
                 * the byte after a method (llhttp's trie refuses a byte after less) */
        return at == lp->_end || (k <= LONGEST_METHOD && method_prefix(lp, lp->_mbuf, k, &id) && id >= 0)
                   ? user_method(lp, at, 0) : 0;
    for (size_t i = 0; i < n; i++) {
        if (k + i < LONGEST_METHOD) lp->_mbuf[k + i] = at[i];
        if (k + i >= LONGEST_METHOD || !method_prefix(lp, lp->_mbuf, k + i + 1, &id)) {
            /* no llhttp method goes on with this byte */
            method_prefix(lp, lp->_mbuf, k + i, &id);
            if (id < 0) return invalid_method(lp, at + i);
            lp->_mid = (uint8_t)(id + 1);
            /* (none of it in this buffer: llhttp still ends a span open at its start) */
            int rc = i || at == lp->_data ? user_method(lp, at, i) : 0;
            if (rc == 0) rc = method_done(lp, id);
            else if (rc == HPE_PAUSED) lp->_owe |= OWE_METHOD; /* on_method_complete after the resume */
            return rc ? method_stopped(lp, rc, at + i) : invalid_method(lp, at + i);
        }
    }
    lp->_mlen = (uint8_t)(k + n);
    if (at + n < lp->_end && at >= lp->_data) {
        /* the method ended here: by its SP, or by a byte simdhttp refuses next */
        if (id < 0) return at[n] == ' ' ? invalid_method(lp, at + n) : 0;
    } else if (id >= 0 && !method_goes_on(lp->_mbuf, lp->_mlen)) {
        /* the buffer ends with a method no other goes on from: llhttp's trie ends the span and
         * calls on_method_complete here; the core calls it again at the SP (swallowed) */
        int rc = user_method(lp, at, n);
        lp->_mid = (uint8_t)(id + 1) | MID_DELIVERED;
        if (rc == HPE_PAUSED) lp->_owe |= OWE_METHOD; /* llhttp calls it first thing after the resume */
        return rc ? rc : method_done(lp, id);
    } else {
        id = -1; /* it may go on in the next buffer */
    }
    int rc = user_method(lp, at, n);
    if (rc) return rc;
    lp->_mid = (uint8_t)(id + 1);
    if (id < 0) return 0;
    if (at[n] != ' ') return method_done(lp, id); /* simdhttp fails at at[n] next */
    method_fields(lp, id);
    paid_method(lp);
    return 0;
}

static __attribute__((noinline)) int method_stop(llhttp_t *lp, int rc)
{
    owe_method(lp);
    return span_stop(lp, rc, "Span callback error in on_method");
}

static int t_on_method(simdhttp_parser *p, const char *at, size_t n)
{
    llhttp_t *lp = LP(p);
    uint8_t mid = method_mids[p->method];
    /* the method and its SP in this buffer, classified by simdhttp as one of llhttp's */
    if (LIKELY(lp->_mlen == 0 && at + n < lp->_end && at >= lp->_data && at[n] == ' ' && mid != NO_ID)) {
        lp->_mid = mid;
        llhttp_data_cb cb = US(lp)->on_method;
        if (cb) {
            int rc = cb(lp, at, n);
            if (UNLIKELY(rc != 0)) return method_stop(lp, rc);
        }
        method_fields(lp, lp->_mid - 1); /* (not mid: one register fewer across the call); nothing
                                          * runs between here and on_method_complete */
        return 0;
    }
    return method_slow(lp, at, n);
}

static int t_on_method_complete(simdhttp_parser *p)
{
    llhttp_t *lp = LP(p);
    int id = lp->_mid - 1;
    paid_method(lp);
    if (lp->_mid & MID_DELIVERED) { /* llhttp called it at the method's last byte */
        lp->_mid &= (uint8_t)~MID_DELIVERED;
        return 0;
    }
    if (id < 0) { /* the method ended at a buffer's end: the SP is this buffer's first byte */
        if (!method_prefix(lp, lp->_mbuf, lp->_mlen, &id) || id < 0) return invalid_method(lp, lp->_data);
    }
    return method_done(lp, id);
}

static const char protocol_name[4] = {'H', 'T', 'T', 'P'};

static const char http_slash[5] = {'H', 'T', 'T', 'P', '/'};

/* Type both, a response: the rest of "HTTP/" as a method span, what both_tail has not given
 * of it (the bytes of this buffer before the version at `at`) */
static __attribute__((noinline, cold)) int both_version_method(llhttp_t *lp, const char *at)
{
    size_t k = sizeof http_slash - lp->_hsent;
    const char *h = http_slash + lp->_hsent;
    lp->_hsent = 0;
    if (!US(lp)->on_method) return 0;
    if (at - k >= lp->_data && at <= lp->_end) h = at - k; /* (the core took them just before it) */
    int rc = US(lp)->on_method(lp, h, k);
    return rc ? span_stop(lp, rc, "Span callback error in on_method") : 0;
}

/* What llhttp reports before the version: in type both, deciding between a request and a
 * response, "HTTP/" as a method; else (9.3+) the protocol name. */
static inline int version_first(llhttp_t *lp, const simdhttp_parser *p, const char *at)
{
    int rc = 0;
    lp->_proto = 1;
    if (lp->type == HTTP_BOTH && p->type == SIMDHTTP_RESPONSE) {
        rc = both_version_method(lp, at);
    } else {
        if (US(lp)->on_protocol) {
            rc = US(lp)->on_protocol(lp, protocol_name, sizeof protocol_name);
            if (rc) rc = span_stop(lp, rc, "Span callback error in on_protocol");
        }
        if (!rc && US(lp)->on_protocol_complete) {
            rc = US(lp)->on_protocol_complete(lp);
            if (rc)
                rc = note_stop(lp, rc, HPE_CB_PROTOCOL_COMPLETE, "`on_protocol_complete` callback error",
                               "on_protocol_complete pause");
        }
    }
    return rc;
}

/* A pause in version_first comes while the core delivers the version span, and the core
 * resumes past it: the span (DIGIT "." DIGIT at most, the bytes after "HTTP/") is kept and
 * delivered first thing at the next execute() (owed()). */
static __attribute__((noinline, cold)) int owe_version(llhttp_t *lp, const char *at, size_t n)
{
    if (US(lp)->on_version) {
        lp->_vlen = (uint8_t)(n < sizeof lp->_vbuf ? n : sizeof lp->_vbuf);
        memcpy(lp->_vbuf, at, lp->_vlen);
        lp->_owe |= OWE_VERSION;
    }
    if (at >= lp->_data && at + n <= lp->_end) {
        /* llhttp stands before the version (after "HTTP/"); the core, after it: the program
         * resumes there, and the core skips what it has taken (shift) */
        lp->_err_pos = at;
        lp->_skip = (uint8_t)n;
        lp->_owe |= OWE_SHIFT;
    }
    return HPE_PAUSED;
}

static int t_on_version(simdhttp_parser *p, const char *at, size_t n)
{
    llhttp_t *lp = LP(p);
    if (!lp->_proto) {
        int rc = version_first(lp, p, at);
        if (UNLIKELY(rc != 0)) return rc == HPE_PAUSED ? owe_version(lp, at, n) : rc;
    }
    llhttp_data_cb cb = US(lp)->on_version;
    return cb ? cb(lp, at, n) : 0; /* its errors: direct_error */
}

static int t_on_version_complete(simdhttp_parser *p)
{
    llhttp_t *lp = LP(p);
    lp->http_major = p->http_major;
    lp->http_minor = p->http_minor;
    llhttp_cb cb = US(lp)->on_version_complete;
    int rc = cb ? cb(lp) : 0; /* its errors: direct_error */
    if (UNLIKELY(p->method == SIMDHTTP_METHOD_PRI) && p->type == SIMDHTTP_REQUEST && (rc == 0 || rc == HPE_PAUSED)) {
        /* llhttp reads the rest of the line as HTTP/2's preface (pri_preface): after a pause
         * here, from the next execute()'s first byte; else at once, from the core's place */
        lp->_owe |= rc ? OWE_PRI : OWE_PRI | OWE_PRI_NOW;
        lp->_pri = 0;
        return HPE_PAUSED;
    }
    return rc;
}

/* on_status_complete (a trampoline only for a program that has it): the core calls it at the
 * status line's CR, llhttp at the byte after it. Where the buffer ends with a CR, the core is
 * paused to see whether it stands at that last byte (status_probe); else the user's is called
 * at once. */
static int t_on_status_complete(simdhttp_parser *p)
{
    llhttp_t *lp = LP(p);
    if (UNLIKELY(lp->_end > lp->_data && lp->_end[-1] == '\r')) {
        lp->_owe |= OWE_PROBE;
        return HPE_PAUSED;
    }
    llhttp_cb cb = US(lp)->on_status_complete;
    return cb ? cb(lp) : 0; /* its errors: direct_error */
}

static int t_on_status_code_complete(simdhttp_parser *p)
{
    llhttp_t *lp = LP(p);
    lp->status_code = p->status_code;
    lp->type = HTTP_RESPONSE;
    lp->_cb.on_version = lp->_on_version_typed; /* the type is decided (method_fields) */
    return 0;
}

/* The user's on_headers_complete and its return value (out of line: without it, the fields'
 * part needs no stack frame) */
static __attribute__((noinline)) int user_headers_complete(llhttp_t *lp, llhttp_cb cb)
{
    int rc = cb(lp);
    switch (rc) {
    case 0: return 0;
    case 1: lp->flags |= F_SKIPBODY; return SIMDHTTP_SKIP_BODY;
    case 2: lp->flags |= F_SKIPBODY; lp->upgrade = 1; return SIMDHTTP_SKIP_BODY_UPGRADE;
    default: return note_stop(lp, rc, HPE_CB_HEADERS_COMPLETE, "User callback error", "Paused by on_headers_complete");
    }
}

static int t_on_headers_complete(simdhttp_parser *p)
{
    llhttp_t *lp = LP(p);
    uint32_t f = p->flags;
    lp->flags = llhttp_flags_of[f & 0xff];
    lp->content_length = p->content_length; /* (http_major, minor: t_on_version_complete) */
    if (p->type == SIMDHTTP_REQUEST) {
        lp->type = HTTP_REQUEST;
        lp->upgrade = (f & SIMDHTTP_F_UPGRADE) != 0;
        if (p->method == SIMDHTTP_METHOD_CONNECT) lp->flags &= (uint16_t)~F_UPGRADE; /* llhttp: no field */
    } else {
        lp->type = HTTP_RESPONSE;
        lp->upgrade = p->status_code == 101;
    }
    llhttp_cb cb = US(lp)->on_headers_complete;
    return cb ? user_headers_complete(lp, cb) : 0;
}

static int t_on_message_complete(simdhttp_parser *p)
{
    llhttp_t *lp = LP(p);
    lp->initial_message_completed = 1;
    lp->finish = HTTP_FINISH_SAFE;
    int rc = US(lp)->on_message_complete ? US(lp)->on_message_complete(lp) : 0;
    lp->flags = 0; /* llhttp clears them once the message is complete */
    if (UNLIKELY(rc != 0)) {
        if (lp->_in_finish) { /* llhttp_finish returns the callback's value as it is */
            lp->_cb_err = rc;
            return 0;
        }
        return note_stop(lp, rc, HPE_CB_MESSAGE_COMPLETE, "`on_message_complete` callback error",
                         "on_message_complete pause");
    }
    return 0;
}

static const llhttp_settings_t no_settings;

/* Build the trampoline table for the callbacks the settings have now. It is built at the first
 * execute() after init or reset and whenever parser->settings points elsewhere; a callback
 * added to the same settings later is seen after llhttp_reset() (one that is cleared is
 * skipped at once where a trampoline calls it: trampolines read the settings live).
 * on_method_complete and on_version change hands during a message (owe_method,
 * method_fields). */
/* Adjacent slots that are the layer's, two at a time (sync_callbacks) */
static const struct {
    simdhttp_cb on_message_begin;
    simdhttp_data_cb on_method;
} slots_begin_method = {t_on_message_begin, t_on_method};
static const struct {
    simdhttp_cb on_version_complete, on_status_code_complete;
} slots_version_status = {t_on_version_complete, t_on_status_code_complete};
static const struct {
    simdhttp_cb on_message_complete;
    /* NULL: llhttp has no whole-field callback, fields come in spans */
    int (*on_header)(simdhttp_parser *, const char *, size_t, const char *, size_t);
} slots_complete_header = {t_on_message_complete, NULL};

/* Two adjacent slots from two adjacent settings (one 16-byte copy): the two function types
 * differ only in the parser pointer's type (below). */
#define PAIR(dst, src) memcpy(&c->dst, &s->src, 2 * sizeof(void *))

#define SLOT_PAIR(T, a, b) (offsetof(T, b) == offsetof(T, a) + sizeof(void *))
_Static_assert(SLOT_PAIR(simdhttp_callbacks, on_header_field, on_header_value) &&
                   SLOT_PAIR(llhttp_settings_t, on_header_field, on_header_value) &&
                   SLOT_PAIR(simdhttp_callbacks, on_header_field_complete, on_header_value_complete) &&
                   SLOT_PAIR(llhttp_settings_t, on_header_field_complete, on_header_value_complete) &&
                   SLOT_PAIR(simdhttp_callbacks, on_chunk_extension_name, on_chunk_extension_value) &&
                   SLOT_PAIR(llhttp_settings_t, on_chunk_extension_name, on_chunk_extension_value) &&
                   SLOT_PAIR(simdhttp_callbacks, on_chunk_extension_name_complete, on_chunk_extension_value_complete) &&
                   SLOT_PAIR(llhttp_settings_t, on_chunk_extension_name_complete, on_chunk_extension_value_complete) &&
                   SLOT_PAIR(simdhttp_callbacks, on_message_begin, on_method) &&
                   sizeof slots_begin_method == 2 * sizeof(void *) &&
                   SLOT_PAIR(simdhttp_callbacks, on_version_complete, on_status_code_complete) &&
                   sizeof slots_version_status == 2 * sizeof(void *) &&
                   SLOT_PAIR(simdhttp_callbacks, on_message_complete, on_header) &&
                   sizeof slots_complete_header == 2 * sizeof(void *) &&
                   sizeof(simdhttp_callbacks) == 25 * sizeof(void *),
               "sync_callbacks assigns all 25 slots, seven of the pairs by one copy each");
#undef SLOT_PAIR

/* out of line: a branch, not a conditional move, in sync_callbacks */
static __attribute__((noinline, cold)) void status_trampoline(simdhttp_callbacks *c)
{
    c->on_status_complete = t_on_status_complete;
}

static void sync_callbacks(llhttp_t *lp)
{
    const llhttp_settings_t *s = lp->settings ? (const llhttp_settings_t *)lp->settings : &no_settings;
    simdhttp_callbacks *c = &lp->_cb;
    /* settings that change between two execute() calls: a method's fields still owed stay so */
    int owed = lp->_synced_for != &no_settings && c->on_method_complete == t_on_method_complete;
    lp->_us = s;
    lp->_synced_for = lp->settings;
    /* every member assigned (no memset first: this runs once per parser) */
    memcpy(&c->on_message_begin, &slots_begin_method, sizeof slots_begin_method);
    memcpy(&c->on_version_complete, &slots_version_status, sizeof slots_version_status);
    c->on_status_code = NULL;
    c->on_headers_complete = t_on_headers_complete;
    memcpy(&c->on_message_complete, &slots_complete_header, sizeof slots_complete_header);
    /* on_version needs the layer only to report the protocol (9.3) or, in type both, "HTTP/"
     * as a method first */
    simdhttp_data_cb typed = (simdhttp_data_cb)(void (*)(void))s->on_version;
    if (((uintptr_t)s->on_protocol | (uintptr_t)s->on_protocol_complete) != 0) /* (one test, no branch) */
        typed = t_on_version;
    lp->_on_version_typed = typed;
    c->on_version = s->on_method && lp->_init_type == HTTP_BOTH ? t_on_version : typed;
    c->on_url = s->on_url ? t_on_url : NULL;
    c->on_chunk_header = s->on_chunk_header ? t_on_chunk_header : NULL;
    /* The rest are called directly: simdhttp passes its parser, which is at the start of
     * llhttp_t, so the pointer is the llhttp_t * they expect, and HPE_PAUSED is simdhttp's pause
     * value here. The two function types differ only in that pointer's type (the same
     * representation in every ABI this builds for); stopped() maps their errors. */
#define DIRECT(name, type) c->name = (type)(void (*)(void))s->name
    if (owed) c->on_method_complete = t_on_method_complete; /* owe_method */
    else DIRECT(on_method_complete, simdhttp_cb);
    DIRECT(on_status, simdhttp_data_cb);
    PAIR(on_header_field, on_header_field);                   /* and on_header_value */
    PAIR(on_header_field_complete, on_header_field_complete); /* and on_header_value_complete */
    PAIR(on_chunk_extension_name, on_chunk_extension_name);   /* and on_chunk_extension_value */
    PAIR(on_chunk_extension_name_complete, on_chunk_extension_name_complete); /* and value's */
    DIRECT(on_body, simdhttp_data_cb);
    DIRECT(on_url_complete, simdhttp_cb);
    DIRECT(on_status_complete, simdhttp_cb);
    if (UNLIKELY(s->on_status_complete != NULL)) status_trampoline(c); /* (a test and a branch) */
    DIRECT(on_chunk_complete, simdhttp_cb);
#undef DIRECT
}
#undef PAIR

static inline void check_callbacks(llhttp_t *lp)
{
    if (UNLIKELY(lp->_synced_for != lp->settings)) sync_callbacks(lp);
}

/* ---- the API ------------------------------------------------------------------------ */

/* Every public field from error to initial_message_completed, and the private ones from
 * _err_pos up to _init_type, are 0 after init (two runs of stores, padding included): HPE_OK,
 * HTTP_FINISH_SAFE, no method, flags or message yet, nothing owed. */
_Static_assert(HPE_OK == 0 && HTTP_FINISH_SAFE == 0, "clear_fields: 0 is each field's initial value");
#define CLEAR_RANGE(lp, first, end) \
    memset(&(lp)->first, 0, offsetof(llhttp_t, end) - offsetof(llhttp_t, first))
static inline void clear_fields(llhttp_t *lp)
{
    CLEAR_RANGE(lp, error, settings);
    CLEAR_RANGE(lp, _err_pos, _init_type);
}
#undef CLEAR_RANGE

_Static_assert(offsetof(llhttp_t, _sh) == 0, "callbacks installed directly get the llhttp_t");

/* The core, for the parser's type, lenient flags and limits. The limits llhttp lacks: simdhttp's
 * head and chunk line sizes (the defaults unless llhttp_set_layer_limits changed them), and a
 * field count bounded only by the head size. */
static const simdhttp_config layer_config = {
    .lenient = SIMDHTTP_LENIENT_TARGET_OBS_TEXT, /* llhttp takes raw UTF-8 in a target */
    .max_fields = 0xffffffffu,
    .pause_value = HPE_PAUSED};

static inline __attribute__((always_inline)) void init_core(llhttp_t *parser, uint8_t t, uint32_t max_head,
                                                            uint32_t max_ext, uint16_t lenient)
{
    _Static_assert((int)HTTP_REQUEST == (int)SIMDHTTP_REQUEST && (int)HTTP_RESPONSE == (int)SIMDHTTP_RESPONSE &&
                       HTTP_REQUEST == 1 && HTTP_RESPONSE == 2,
                   "llhttp's request and response are simdhttp's");
    simdhttp_type st = (unsigned)t - 1u < 2u ? (simdhttp_type)t : SIMDHTTP_BOTH; /* (one compare) */
    /* init runs once per message in some servers: from llhttp_init (all three 0, constants
     * here) it costs what it did before the limits could be set */
    if (LIKELY(!(max_head | max_ext))) {
        simdhttp_init(&parser->_sh, st, &parser->_cb, &layer_config);
    } else {
        simdhttp_config cfg = layer_config;
        cfg.max_head_size = max_head;
        cfg.max_chunk_ext = max_ext;
        simdhttp_init(&parser->_sh, st, &parser->_cb, &cfg);
    }
    if (lenient) simdhttp_set_lenient(&parser->_sh, lenient_bits(lenient), 1);
    /* llhttp calls on_header_value with length 0 for an empty value: a program that joins
     * on_header_field pieces into one name needs that call between two names */
    simdhttp_set_empty_spans(&parser->_sh, 1);
}

/* llhttp_init after clear_fields, without what llhttp_reset keeps (data, lenient flags, the
 * layer's limits) */
static inline __attribute__((always_inline)) void setup(llhttp_t *parser, llhttp_type_t type,
                                                        const llhttp_settings_t *settings, uint32_t max_head,
                                                        uint32_t max_ext, uint16_t lenient)
{
    parser->type = parser->_init_type = (uint8_t)type;
    parser->settings = (void *)settings;
    parser->_us = &no_settings;
    parser->_synced_for = &no_settings; /* never a settings pointer: the first execute() builds the table */
    init_core(parser, (uint8_t)type, max_head, max_ext, lenient);
}

void llhttp_init(llhttp_t *parser, llhttp_type_t type, const llhttp_settings_t *settings)
{
    clear_fields(parser); /* data and lenient_flags too */
    parser->_max_head = parser->_max_ext = 0;
    setup(parser, type, settings, 0, 0, 0);
}

void llhttp_reset(llhttp_t *parser)
{
    void *data = parser->data;
    uint16_t lenient = parser->lenient_flags;
    clear_fields(parser);
    parser->data = data;
    parser->lenient_flags = lenient;
    setup(parser, (llhttp_type_t)parser->_init_type, parser->settings, parser->_max_head, parser->_max_ext, lenient);
}

void llhttp_set_layer_limits(llhttp_t *parser, uint32_t max_head_size, uint32_t max_chunk_ext)
{
    parser->_max_head = max_head_size;
    parser->_max_ext = max_chunk_ext;
    init_core(parser, parser->_init_type, max_head_size, max_chunk_ext, parser->lenient_flags);
}

int llhttp_set_layer_mode(llhttp_t *parser, const char *mode)
{
    long m = mode ? simdhttp_mode_from_name(mode, strlen(mode)) : -1;
    if (m < 0) return -1;
    simdhttp_set_mode(&parser->_sh, (unsigned)m);
    return 0;
}

uint32_t llhttp_get_layer_reasons(const llhttp_t *parser) { return parser->_sh.reasons; }

llhttp_t *llhttp_alloc(llhttp_type_t type)
{
    llhttp_t *p = malloc(sizeof *p);
    if (p) llhttp_init(p, type, NULL);
    return p;
}

void llhttp_free(llhttp_t *parser) { free(parser); }

void llhttp_settings_init(llhttp_settings_t *settings) { memset(settings, 0, sizeof *settings); }

uint8_t llhttp_get_type(llhttp_t *parser) { return parser->type; }
uint8_t llhttp_get_http_major(llhttp_t *parser) { return parser->http_major; }
uint8_t llhttp_get_http_minor(llhttp_t *parser) { return parser->http_minor; }
uint8_t llhttp_get_method(llhttp_t *parser) { return parser->method; }
int llhttp_get_status_code(llhttp_t *parser) { return parser->status_code; }
uint8_t llhttp_get_upgrade(llhttp_t *parser) { return parser->upgrade; }

/* A callback installed directly (sync_callbacks), or one a trampoline returns to the core as it
 * is (its last call), stopped simdhttp with an error: llhttp's code for it. Data callbacks: -1
 * is HPE_USER, any other value is the error; notifications: their HPE_CB_* code. */
static int direct_error(llhttp_t *lp)
{
    size_t which;
    int rc = simdhttp_get_callback_result(&lp->_sh, &which);
#define SPAN_ERR(name)                                                                      \
    if (which == offsetof(simdhttp_callbacks, name)) {                                      \
        if (rc != -1) return rc;                                                            \
        lp->reason = "Span callback error in " #name;                                       \
        return HPE_USER;                                                                    \
    }
#define NOTE_ERR(name, code)                                                                \
    if (which == offsetof(simdhttp_callbacks, name)) {                                      \
        lp->reason = "`" #name "` callback error";                                          \
        return code;                                                                        \
    }
    SPAN_ERR(on_url)
    SPAN_ERR(on_version)
    SPAN_ERR(on_status)
    SPAN_ERR(on_header_field)
    SPAN_ERR(on_header_value)
    SPAN_ERR(on_body)
    SPAN_ERR(on_chunk_extension_name)
    SPAN_ERR(on_chunk_extension_value)
    NOTE_ERR(on_message_begin, HPE_CB_MESSAGE_BEGIN)
    NOTE_ERR(on_url_complete, HPE_CB_URL_COMPLETE)
    NOTE_ERR(on_version_complete, HPE_CB_VERSION_COMPLETE)
    NOTE_ERR(on_method_complete, HPE_CB_METHOD_COMPLETE)
    NOTE_ERR(on_status_complete, HPE_CB_STATUS_COMPLETE)
    NOTE_ERR(on_header_field_complete, HPE_CB_HEADER_FIELD_COMPLETE)
    NOTE_ERR(on_header_value_complete, HPE_CB_HEADER_VALUE_COMPLETE)
    NOTE_ERR(on_chunk_extension_name_complete, HPE_CB_CHUNK_EXTENSION_NAME_COMPLETE)
    NOTE_ERR(on_chunk_extension_value_complete, HPE_CB_CHUNK_EXTENSION_VALUE_COMPLETE)
    NOTE_ERR(on_chunk_complete, HPE_CB_CHUNK_COMPLETE)
#undef SPAN_ERR
#undef NOTE_ERR
    return HPE_USER;
}

/* llhttp's reason text for the parse error simdhttp names by `why` (its own reason): a program
 * that shows or compares llhttp's text (aiohttp puts it in its 400 responses) sees the same.
 * The cold path of an error only. */
static const struct {
    const char *simdhttp, *llhttp;
} reasons[] = {
    {"Content-Length together with Transfer-Encoding", "Content-Length can't be present with Transfer-Encoding"},
    {"Content-Length is not a decimal number", "Invalid character in Content-Length"},
    {"Content-Length is empty", "Empty Content-Length"},
    {"Content-Length overflows 64 bits", "Content-Length overflow"},
    {"two Content-Length fields differ", "Duplicate Content-Length"},
    {"Transfer-Encoding is not a list of transfer codings", "Invalid `Transfer-Encoding` header value"},
    {"Transfer-Encoding applies chunked more than once", "Invalid `Transfer-Encoding` header value"},
    {"Transfer-Encoding has an unterminated quoted-string", "Invalid `Transfer-Encoding` header value"},
    {"Transfer-Encoding has a parameter without a value", "Invalid `Transfer-Encoding` header value"},
    {"request's final transfer coding is not chunked", "Request has invalid `Transfer-Encoding`"},
    {"CR not followed by LF", "Missing expected LF after header value"},
    {"NUL in a field value", "Invalid header value char"},
    {"control byte in a field value", "Invalid header value char"},
    {"empty field name", "Invalid header token"},
    {"field line has no ':'", "Invalid header token"},
    {"invalid byte in field name", "Invalid header token"},
    {"whitespace between field name and ':'", "Invalid header field char"},
    {"chunk size is not a hex number", "Invalid character in chunk size"},
    {"junk after the chunk size", "Invalid character in chunk size"},
    {"chunk size overflows 64 bits", "Chunk size overflow"},
    {"chunk extension name is not a token", "Invalid character in chunk extensions name"},
    {"chunk extension value is not a token or quoted-string", "Invalid character in chunk extensions value"},
    {"control byte in a quoted chunk extension value", "Invalid character in chunk extensions quoted value"},
    {"expected ';' or CRLF after a chunk extension value", "Invalid character in chunk extensions quote value"},
    {"expected '=', ';' or CRLF after a chunk extension name", "Invalid character in chunk extensions"},
    {"chunk data not followed by CRLF", "Expected LF after chunk data"},
    {"empty method", "Invalid method encountered"},
    {"status code is not three digits from 100 to 999", "Invalid response status"},
    {"status-line has no status code", "Invalid response status"},
    {"expected '.' in the HTTP version", "Expected dot"},
    {"HTTP major version is not 1", "Invalid major version"},
    {"HTTP minor version is not a digit", "Invalid minor version"},
    {"expected \"HTTP/\"", "Expected HTTP/"},
    {"request-line has no HTTP version", "Expected HTTP/"},
    {"data after a message that closed the connection", "Data after `Connection: close`"},
};

static const char *llhttp_reason(const llhttp_t *lp, simdhttp_errno e, const char *why)
{
    if (e == SIMDHTTP_E_INVALID_METHOD) /* a whole method, then a byte that is not its SP */
        return lp->_mid ? "Expected space after method" : "Invalid method encountered";
    if (why && strcmp(why, "junk after the HTTP version") == 0)
        return lp->_sh.type == SIMDHTTP_RESPONSE ? "Expected space after version" : "Expected CRLF after version";
    for (size_t i = 0; why && i < sizeof reasons / sizeof *reasons; i++)
        if (strcmp(why, reasons[i].simdhttp) == 0) return reasons[i].llhttp;
    return why; /* simdhttp's own (the limits llhttp does not have) */
}

/* After a pause in some callbacks llhttp 8.1 stands elsewhere than the core: before the SP
 * after a method (on_method_complete: the core has taken it), after the CR that ends a reason
 * phrase (on_status), after the CRLF of the status line (on_status_complete). A program resumes
 * from llhttp_get_error_pos(), so the layer reports llhttp's place and makes up the difference
 * at the next execute(): the byte the core took is skipped, the bytes it did not take yet are
 * kept (_hold) and given to it first (shift). `cp` is the core's place in the buffer being
 * parsed, [lp->_data, lp->_end); `more`, `nmore`: the buffer that follows it (the program's,
 * when that buffer is the layer's _hold). After a callback's error (pause 0) only the place
 * moves: the error sticks. */
static void pause_shift(llhttp_t *lp, const char *cp, const char *more, size_t nmore, int pause)
{
    size_t which;
    simdhttp_get_callback_result(&lp->_sh, &which);
    if (!cp || cp < lp->_data || cp > lp->_end) return;
    size_t left = (size_t)(lp->_end - cp), k = 0;
    if (which == offsetof(simdhttp_callbacks, on_method_complete)) {
        if (cp > lp->_data && cp[-1] == ' ' && !more) {
            lp->error_pos = cp - 1;
            if (pause) lp->_skip = 1, lp->_owe |= OWE_SHIFT;
        }
        return;
    }
    char at = left ? *cp : nmore ? *more : 0;
    const char *ends = "\r"; /* the bytes llhttp takes before it calls back */
    if (which == offsetof(simdhttp_callbacks, on_status)) k = 1, ends = "\r\n";
    else if (which == offsetof(simdhttp_callbacks, on_status_complete)) k = at == '\n' ? 1 : 2, ends = "\r\n";
    else if (which == offsetof(simdhttp_callbacks, on_header_field)) k = 1, ends = ":";
    else if (which == offsetof(simdhttp_callbacks, on_header_value)) /* at the value's end, not an
                                                                        * empty one's span */
        k = cp > lp->_data ? cp[-1] != '\n' : !(lp->_sh._want & 8); /* (SH_VALUE_COMPLETE_OR_EXIT) */
    else if (which == offsetof(simdhttp_callbacks, on_chunk_extension_name) ||
             which == offsetof(simdhttp_callbacks, on_chunk_extension_value))
        k = 1, ends = NULL; /* whatever byte ends it */
    else if (which == offsetof(simdhttp_callbacks, on_chunk_extension_name_complete)) k = 1, ends = "=;\r";
    else if (which == offsetof(simdhttp_callbacks, on_chunk_extension_value_complete)) k = 1, ends = ";\r";
    if (!k || (ends && (!at || !strchr(ends, at))) || (!ends && !left && !nmore)) return;
    if (!pause) {
        lp->error_pos = cp + (k < left ? k : left);
        return;
    }
    /* the k bytes from cp: what is left of this buffer, then the next one's */
    size_t n = 0;
    for (; n < k && n < left; n++) lp->_hold[n] = cp[n];
    size_t from_more = 0;
    for (; n < k && more && from_more < nmore; n++) lp->_hold[n] = more[from_more++];
    lp->_nhold = (uint8_t)n;
    lp->error_pos = more ? more + from_more : cp + n;
    lp->_owe |= OWE_SHIFT;
}

/* The reason after a pause in the callback in core slot `which`, as llhttp 8.1 sets it: a
 * notification names itself ("on_url_complete pause"; a chunk extension's two *_complete are
 * "on_chunk_extension_name pause" and "..._value pause"; on_headers_complete has a sentence of
 * its own); a span callback's pause leaves the reason as it was (NULL after init or reset, or
 * an earlier pause's), and so does a pause a trampoline has named already (note_stop, on_reset:
 * OWE_BEGIN). */
static const char *pause_reason(const llhttp_t *lp, size_t which)
{
#define NOTE(slot, text) case offsetof(simdhttp_callbacks, slot): return text;
    switch (which) {
    case offsetof(simdhttp_callbacks, on_message_begin):
        return lp->_owe & OWE_BEGIN ? lp->reason : "on_message_begin pause";
    NOTE(on_method_complete, "on_method_complete pause")
    NOTE(on_url_complete, "on_url_complete pause")
    NOTE(on_version_complete, "on_version_complete pause")
    NOTE(on_status_complete, "on_status_complete pause")
    NOTE(on_header_field_complete, "on_header_field_complete pause")
    NOTE(on_header_value_complete, "on_header_value_complete pause")
    NOTE(on_headers_complete, "Paused by on_headers_complete")
    NOTE(on_chunk_header, "on_chunk_header pause")
    NOTE(on_chunk_extension_name_complete, "on_chunk_extension_name pause")
    NOTE(on_chunk_extension_value_complete, "on_chunk_extension_value pause")
    NOTE(on_chunk_complete, "on_chunk_complete pause")
    NOTE(on_message_complete, "on_message_complete pause")
    default: return lp->reason;
    }
#undef NOTE
}

/* The core refused a chunk extension name's first byte (lp->error_pos; not a tchar, '=' and
 * ';' aside, which the core gives an empty span itself). llhttp ends an empty name span there
 * and fails one byte after it; a CR there is "Invalid character in chunk extensions", no span.
 * @return 1 if the empty span's callback stopped the parser (error fields set). */
static __attribute__((noinline, cold)) int ext_name_refused(llhttp_t *lp)
{
    const char *pos = lp->error_pos;
    if (!pos || pos < lp->_data || pos >= lp->_end || (pos > lp->_data && pos[-1] != ';') || *pos == '=' ||
        *pos == ';')
        return 0;
    lp->error_pos = pos + 1;
    if (*pos == '\r') {
        lp->error = HPE_STRICT;
        lp->reason = "Invalid character in chunk extensions";
        return 1;
    }
    llhttp_data_cb cb = US(lp)->on_chunk_extension_name;
    int rc = cb ? cb(lp, pos, 0) : 0;
    if (rc == 0) return 0;
    if (rc == HPE_PAUSED) lp->_owe |= OWE_EXT_ERROR; /* the error comes after the resume */
    span_failed(lp, rc, "Span callback error in on_chunk_extension_name");
    return 1;
}

/* The core refused the byte after "HTTP/" (at), no digit. llhttp first reports "HTTP/" as a
 * method in type both, or the protocol (version_first, unless done), then ends an empty version
 * span there, then fails at that byte. A pause in one of those callbacks holds the rest back to
 * the next execute() (owed: OWE_VERSION_SPAN, the span and the error; OWE_VERSION_ERROR, the
 * error). Sets the error fields. The same for a byte refused after "HTTP/" DIGIT or "HTTP/"
 * DIGIT "." (OWE_VERSION_DOT, _MINOR: which) that starts a buffer: llhttp ends the span it
 * restarted there with no bytes, then fails. */
static __attribute__((noinline, cold)) void version_refused(llhttp_t *lp, const char *at)
{
    static const char *const texts[] = {"Invalid major version", "Expected dot", "Invalid minor version"};
    unsigned owe = lp->_owe & (OWE_VERSION_SPAN | OWE_VERSION_ERROR);
    unsigned which = lp->_owe & OWE_VERSION_DOT ? 1 : lp->_owe & OWE_VERSION_MINOR ? 2 : 0;
    lp->_owe &= (uint16_t)~(OWE_VERSION_SPAN | OWE_VERSION_ERROR | OWE_VERSION_DOT | OWE_VERSION_MINOR);
    lp->error_pos = at;
    int rc = 0;
    if (!owe && !lp->_proto && (rc = version_first(lp, &lp->_sh, at)) != 0) {
        if (rc == HPE_PAUSED) lp->_owe |= OWE_VERSION_SPAN;
        lp->error = rc == HPE_PAUSED ? HPE_PAUSED : lp->_cb_err; /* (the reason: span_stop, note_stop) */
        return;
    }
    llhttp_data_cb cb = US(lp)->on_version;
    if (owe != OWE_VERSION_ERROR && cb && (rc = cb(lp, at, 0)) != 0) {
        if (rc == HPE_PAUSED) lp->_owe |= OWE_VERSION_ERROR | (which == 1 ? OWE_VERSION_DOT : which ? OWE_VERSION_MINOR : 0);
        span_failed(lp, rc, "Span callback error in on_version");
        return;
    }
    lp->error = HPE_INVALID_VERSION;
    lp->reason = texts[which];
}

/* The core refused a version's byte after a digit of it (not the major one), at a buffer's
 * start: 1 for the dot's place, 2 for the minor digit's; else 0 */
static int version_open_refused(const llhttp_t *lp, simdhttp_errno e)
{
    const char *why = simdhttp_get_error_reason(&lp->_sh);
    if (e != SIMDHTTP_E_INVALID_VERSION || !why || lp->error_pos != lp->_data || lp->_data == lp->_end) return 0;
    return strcmp(why, "expected '.' in the HTTP version") == 0 ? 1
           : strcmp(why, "HTTP minor version is not a digit") == 0 ? 2 : 0;
}

/* 1 if the core refused the byte right after "HTTP/", not a digit (a major digit other than 1
 * llhttp takes into the span) */
static int version_empty(const llhttp_t *lp, simdhttp_errno e)
{
    const char *why = simdhttp_get_error_reason(&lp->_sh), *pos = lp->error_pos;
    return e == SIMDHTTP_E_INVALID_VERSION && why && strcmp(why, "HTTP major version is not 1") == 0 && pos &&
           pos >= lp->_data && pos < lp->_end && (unsigned char)(*pos - '0') > 9;
}

/* The core paused in t_on_status_complete at the status line's CR (its error position): at the
 * buffer's last byte the user's on_status_complete waits for the next byte (OWE_STATUS, at the
 * next execute()); before it, it is called now. Then the core goes on with the CR.
 * @return the core's result, as simdhttp_execute()'s (a stop in the user's callback: as if the
 * core had called it, paused there, or SIMDHTTP_E_USER with its llhttp code in _cb_err). */
static __attribute__((noinline, cold)) simdhttp_errno status_probe(llhttp_t *lp)
{
    simdhttp_errno e;
    do {
        lp->_owe &= (uint16_t)~OWE_PROBE;
        const char *cr = simdhttp_get_error_pos(&lp->_sh);
        if (cr + 1 == lp->_end) {
            lp->_owe |= OWE_STATUS;
        } else {
            llhttp_cb cb = US(lp)->on_status_complete;
            int rc = cb ? cb(lp) : 0;
            if (rc == HPE_PAUSED) return SIMDHTTP_E_PAUSED; /* the core is paused there already */
            if (rc) {
                lp->_cb_err = HPE_CB_STATUS_COMPLETE;
                lp->reason = "`on_status_complete` callback error";
                return SIMDHTTP_E_USER;
            }
        }
        simdhttp_resume(&lp->_sh);
        e = simdhttp_execute(&lp->_sh, cr, (size_t)(lp->_end - cr));
    } while (e == SIMDHTTP_E_PAUSED && (lp->_owe & OWE_PROBE));
    return e;
}

/* on_status_complete held back (OWE_STATUS): `data` has the byte after the CR, where llhttp
 * calls it. @return 1 if it stopped the parser (error fields set; llhttp's place is after that
 * byte, which the core has still to take: held, as pause_shift does). */
static __attribute__((noinline, cold)) int status_owed(llhttp_t *lp, const char *data)
{
    lp->_owe &= (uint16_t)~OWE_STATUS;
    llhttp_cb cb = US(lp)->on_status_complete;
    int rc = cb ? cb(lp) : 0;
    if (rc == 0) return 0;
    lp->error_pos = data + 1;
    if (rc == HPE_PAUSED) {
        lp->error = HPE_PAUSED;
        lp->reason = "on_status_complete pause";
        lp->_hold[0] = data[0];
        lp->_nhold = 1;
        lp->_owe |= OWE_SHIFT;
    } else {
        lp->error = HPE_CB_STATUS_COMPLETE;
        lp->reason = "`on_status_complete` callback error";
    }
    return 1;
}

/* The rest of HTTP/2's connection preface ("PRI * HTTP/2.0" CRLF CRLF "SM" CRLF CRLF, RFC 9113
 * section 3.4), which llhttp expects after a PRI request line of any version, from the line's
 * CR on and over as many execute() calls as it takes (_pri: the bytes matched so far). Then it
 * stops for good: HPE_PAUSED_H2_UPGRADE after the preface, HPE_INVALID_VERSION at the first byte
 * that differs. The core stays paused at the CR, never to run again until init or reset.
 * @return llhttp_execute()'s value for n bytes at `at` */
static __attribute__((noinline, cold)) llhttp_errno_t pri_preface(llhttp_t *lp, const char *at, size_t n)
{
    static const char rest[10] = {'\r', '\n', '\r', '\n', 'S', 'M', '\r', '\n', '\r', '\n'};
    lp->_owe = OWE_PRI;
    for (size_t i = 0; i < n; i++) {
        if (at[i] != rest[lp->_pri]) {
            lp->error = HPE_INVALID_VERSION;
            lp->reason = "Expected HTTP/2 Connection Preface";
            lp->error_pos = at + i;
            return HPE_INVALID_VERSION;
        }
        if (++lp->_pri == sizeof rest) {
            lp->error = HPE_PAUSED_H2_UPGRADE;
            lp->reason = "Pause on PRI/Upgrade";
            lp->error_pos = at + i + 1;
            return HPE_PAUSED_H2_UPGRADE;
        }
    }
    lp->error = HPE_OK;
    return HPE_OK;
}

/* simdhttp stopped: set llhttp's error fields. */
static llhttp_errno_t stopped(llhttp_t *lp, simdhttp_errno e)
{
    if (UNLIKELY(lp->_owe & OWE_PRI_NOW)) {
        const char *cr = simdhttp_get_error_pos(&lp->_sh);
        return pri_preface(lp, cr, (size_t)(lp->_end - cr));
    }
    if (e == SIMDHTTP_E_PAUSED && (lp->_owe & OWE_PROBE) && (e = status_probe(lp)) == SIMDHTTP_OK)
        return HPE_OK;
    if (e == SIMDHTTP_E_INVALID_METHOD && lp->_mid == 0 && lp->_mlen) {
        /* a whole method, then a byte that is not SP in a later buffer: llhttp has reported
         * the method before it fails */
        int id;
        if (method_prefix(lp, lp->_mbuf, lp->_mlen, &id) && id >= 0) {
            lp->_mid = (uint8_t)(id + 1); /* llhttp_reason: "Expected space after method" */
            int rc = method_done(lp, id);
            if (rc == HPE_PAUSED) {
                /* llhttp pauses before the byte and fails it after the resume: the core's
                 * error is held back until the next execute() (owed) */
                lp->_owe |= OWE_METHOD_ERROR;
                lp->error = HPE_PAUSED;
                lp->reason = "on_method_complete pause";
                lp->error_pos = simdhttp_get_error_pos(&lp->_sh);
                return HPE_PAUSED;
            }
            if (rc) e = SIMDHTTP_E_USER;
        }
    }
    if (e == SIMDHTTP_E_INVALID_METHOD && lp->type == HTTP_BOTH && lp->_mlen && lp->_mbuf[0] == 'H') {
        /* type both, a proper prefix of "HEAD" or "HTTP/" and then a byte no token continues
         * with ("HEA\0"): simdhttp stops at that byte before the layer sees it, llhttp is still
         * matching those two words there (invalid_method for a token byte) */
        int id;
        if (method_prefix(lp, lp->_mbuf, lp->_mlen, &id) && id < 0) {
            lp->_cb_err = HPE_INVALID_CONSTANT;
            lp->reason = "Invalid word encountered";
            e = SIMDHTTP_E_USER;
        }
    }
    const char *own_pos = lp->_err_pos; /* the layer's own place for the stop, if it knows one */
    lp->error_pos = own_pos ? own_pos : simdhttp_get_error_pos(&lp->_sh);
    lp->_err_pos = NULL;
    switch (e) {
    case SIMDHTTP_E_PAUSED:
        lp->error = HPE_PAUSED;
        if (lp->_sh._state == S_URL) url_tail(lp); /* on_url paused at the buffer's end */
        {
            size_t which;
            simdhttp_get_callback_result(&lp->_sh, &which);
            lp->reason = pause_reason(lp, which);
            /* the version's span before a byte the core refuses after "HTTP/" DIGIT (and "."):
             * llhttp fails at that byte after the resume, with no span more (version_refused) */
            if (UNLIKELY(which == offsetof(simdhttp_callbacks, on_version)) && !own_pos &&
                lp->_sh._state == S_VERSION && (lp->_sh._idx == 6 || lp->_sh._idx == 7) &&
                lp->error_pos >= lp->_data && lp->error_pos < lp->_end && !(lp->_owe & OWE_VERSION))
                lp->_owe |= OWE_VERSION_ERROR | (lp->_sh._idx == 6 ? OWE_VERSION_DOT : OWE_VERSION_MINOR);
        }
        if (!own_pos && !(lp->_owe & OWE_SHIFT)) pause_shift(lp, lp->error_pos, NULL, 0, 1);
        break;
    case SIMDHTTP_E_PAUSED_UPGRADE:
        lp->error = HPE_PAUSED_UPGRADE;
        lp->reason = "Pause on CONNECT/Upgrade";
        lp->upgrade = 1;
        break;
    case SIMDHTTP_E_USER:
        lp->error = lp->_cb_err ? lp->_cb_err : direct_error(lp);
        if (!own_pos) pause_shift(lp, lp->error_pos, NULL, 0, 0);
        break;
    default:
        if (e == SIMDHTTP_E_INVALID_CHUNK_EXTENSION && simdhttp_get_error_reason(&lp->_sh) &&
            strcmp(simdhttp_get_error_reason(&lp->_sh), "chunk extension name is not a token") == 0 &&
            ext_name_refused(lp))
            break;
        if (version_empty(lp, e)) {
            version_refused(lp, lp->error_pos);
            break;
        }
        {
            unsigned which = (unsigned)version_open_refused(lp, e);
            if (which) {
                lp->_owe |= which == 1 ? OWE_VERSION_DOT : OWE_VERSION_MINOR;
                version_refused(lp, lp->error_pos);
                break;
            }
        }
        if (UNLIKELY(lp->type == HTTP_BOTH) && e == SIMDHTTP_E_INVALID_VERSION && lp->_sh.type == SIMDHTTP_RESPONSE &&
            !lp->_proto) {
            /* a version the core refuses at its first byte: llhttp has ended "HTTP/" as a method
             * span before it reads the version (the rest of it: version_first) */
            int rc = version_first(lp, &lp->_sh, lp->error_pos);
            if (rc) { /* the error after a pause: version_refused, owed */
                if (rc == HPE_PAUSED) lp->_owe |= OWE_VERSION_ERROR;
                lp->error = rc == HPE_PAUSED ? HPE_PAUSED : lp->_cb_err;
                break;
            }
        }
        lp->error = (unsigned)e < SIMDHTTP_ERRNO_COUNT ? errno_ids[e] : HPE_INTERNAL;
        lp->reason = llhttp_reason(lp, e, simdhttp_get_error_reason(&lp->_sh));
        if (e == SIMDHTTP_E_INVALID_URL) url_refused(lp);
        break;
    }
    return (llhttp_errno_t)lp->error;
}

/* llhttp's error at a byte no method goes on with, where a pause held it back (OWE_METHOD_ERROR) */
static int method_error(llhttp_t *lp)
{
    lp->error = HPE_INVALID_METHOD;
    lp->reason = "Expected space after method";
    return 1;
}

/* Callbacks a pause held back (OWE_*), delivered before the core goes on. @return 1 if one of
 * them stopped the parser again: error, reason and error_pos (data: nothing consumed) set. */
static __attribute__((noinline)) int owed(llhttp_t *parser, const char *data, size_t len)
{
    int rc = 0;
    unsigned keep = 0; /* what stays owed after a pause here */
    const char *stop = data; /* where a stop here leaves the program */
    if (parser->_owe & OWE_BEGIN) { /* on_reset paused before on_message_begin */
        if (US(parser)->on_message_begin && (rc = US(parser)->on_message_begin(parser)) != 0) {
            parser->error = rc == HPE_PAUSED ? HPE_PAUSED : HPE_CB_MESSAGE_BEGIN;
            parser->reason = rc == HPE_PAUSED ? "on_message_begin pause" : "`on_message_begin` callback error";
        }
    } else if (parser->_owe & OWE_METHOD) { /* a pause in on_method before the method's end */
        if ((rc = method_done(parser, (parser->_mid & ~MID_DELIVERED) - 1)) != 0)
            parser->error = rc == HPE_PAUSED ? HPE_PAUSED : parser->_cb_err; /* (reason: note_stop) */
        parser->_cb_err = 0;
        if (parser->_owe & OWE_METHOD_ERROR) { /* then the byte no method goes on with (method_slow) */
            if (rc == HPE_PAUSED) keep = OWE_METHOD_ERROR;
            else if (rc == 0) rc = method_error(parser);
        }
    } else if (parser->_owe & OWE_METHOD_ERROR) { /* a pause before an invalid byte (stopped, method_slow) */
        rc = method_error(parser);
    } else if (parser->_owe & OWE_EXT_ERROR) { /* a pause in an empty name's span (ext_name_refused) */
        parser->error = HPE_STRICT;
        parser->reason = "Invalid character in chunk extensions name";
        rc = 1;
    } else if (parser->_owe & (OWE_VERSION_SPAN | OWE_VERSION_ERROR)) { /* version_refused */
        version_refused(parser, data);
        return 1;
    } else if (parser->_owe & OWE_VERSION) { /* a pause before the version span (version_first) */
        /* from the program's buffer when it resumes at the version (owe_version), as llhttp's */
        const char *v = (parser->_owe & OWE_SHIFT) && parser->_skip == parser->_vlen && len >= parser->_vlen
                            ? data : parser->_vbuf;
        if (US(parser)->on_version && (rc = US(parser)->on_version(parser, v, parser->_vlen)) != 0) {
            span_failed(parser, rc, "Span callback error in on_version");
            if (v == data) { /* the core has taken these bytes: the stop is after them */
                stop = data + parser->_vlen;
                parser->_skip = 0, parser->_owe &= (uint16_t)~OWE_SHIFT;
            }
        }
    }
    parser->_owe &= OWE_SHIFT | OWE_STATUS | keep;
    if (rc) parser->error_pos = stop;
    return rc != 0;
}

/* What pause_shift left for the next execute(): skip the byte the core took, or give it the
 * bytes it has not taken first. @return 1 if the core stopped again in those (a pause in the
 * next callback: its place is mapped into the program's buffer); SHIFT_ALL if the skip took
 * all the bytes given (nothing more to do in this call) */
enum { SHIFT_ALL = 2 };
static __attribute__((noinline)) int shift(llhttp_t *parser, const char **data, size_t *len)
{
    parser->_owe &= (uint16_t)~OWE_SHIFT;
    if (parser->_skip) {
        size_t k = parser->_skip <= *len ? parser->_skip : *len;
        *data += k, *len -= k;
        parser->_skip = (uint8_t)(parser->_skip - k);
        if (parser->_skip) parser->_owe |= OWE_SHIFT; /* fewer bytes given than the core took */
        /* every byte given was one the core had taken before the pause: llhttp's call ends
         * with them, not with an execute() of no bytes (no zero-length span) */
        return k && !*len && !(parser->_owe & OWE_STATUS) ? SHIFT_ALL : 0;
    }
    char hold[sizeof parser->_hold];
    size_t n = parser->_nhold;
    memcpy(hold, parser->_hold, n);
    parser->_nhold = 0;
    parser->_data = hold;
    parser->_end = hold + n;
    simdhttp_errno e = simdhttp_execute(&parser->_sh, hold, n);
    if (e == SIMDHTTP_E_PAUSED && (parser->_owe & OWE_PROBE)) e = status_probe(parser);
    if (e == SIMDHTTP_OK) return 0;
    const char *cp = simdhttp_get_error_pos(&parser->_sh);
    parser->_err_pos = NULL;
    stopped(parser, e); /* (a pause there shifts nothing: pause_shift below does, knowing *data) */
    parser->_owe &= (uint16_t)~OWE_SHIFT, parser->_skip = parser->_nhold = 0;
    parser->error_pos = *data;
    if (e == SIMDHTTP_E_PAUSED && cp >= hold && cp <= hold + n) {
        pause_shift(parser, cp, *data, *len, 1);
        if (!(parser->_owe & OWE_SHIFT) && cp < hold + n) {
            /* no shift for that callback, and bytes of the hold are still to come: keep them */
            memcpy(parser->_hold, cp, (size_t)(hold + n - cp));
            parser->_nhold = (uint8_t)(hold + n - cp);
            parser->_owe |= OWE_SHIFT;
        }
    }
    return 1;
}

/* Type both, the first message's start line at this buffer's end: llhttp ends its method
 * span's piece here, also with no byte: the bytes of "HTTP/" matched so far (the core is
 * telling a request from a response), or the rest of a whole "HTTP/" whose version begins in
 * a later buffer. A pause or an error there stands at the buffer's end. */
static __attribute__((noinline, cold)) llhttp_errno_t both_tail(llhttp_t *lp)
{
    const simdhttp_parser *p = &lp->_sh;
    size_t n;
    if (p->_state == S_DETECT) {
        n = p->_idx - lp->_hsent;
        lp->_hsent = p->_idx;
    } else if (p->type == SIMDHTTP_RESPONSE && p->_state == S_VERSION && !lp->_proto) {
        n = sizeof http_slash - lp->_hsent;
        lp->_hsent = 0;
        lp->_proto = 1; /* (version_first's part is done) */
    } else {
        return HPE_OK;
    }
    llhttp_data_cb cb = US(lp)->on_method;
    int rc = cb ? cb(lp, lp->_end - n, n) : 0;
    if (LIKELY(rc == 0)) return HPE_OK;
    lp->error_pos = lp->_end;
    return (llhttp_errno_t)span_failed(lp, rc, "Span callback error in on_method");
}

/* The buffer ended inside a start line (one test on the common path for both): a target's
 * piece (url_tail: llhttp's URL state, which url_refused needs if a later buffer has a byte
 * the core refuses), or type both's method span (both_tail). */
static __attribute__((noinline, cold)) llhttp_errno_t start_line_tail(llhttp_t *lp)
{
    if (lp->_sh._state == S_URL) url_tail(lp);
    return lp->type == HTTP_BOTH ? both_tail(lp) : HPE_OK;
}

llhttp_errno_t llhttp_execute(llhttp_t *parser, const char *data, size_t len)
{
    if (UNLIKELY(parser->error != HPE_OK)) return (llhttp_errno_t)parser->error;
    check_callbacks(parser);
    if (UNLIKELY(parser->_owe)) {
        if (parser->_owe & OWE_PRI) return pri_preface(parser, data, len);
        if ((parser->_owe & ~(OWE_SHIFT | OWE_STATUS)) && owed(parser, data, len)) return (llhttp_errno_t)parser->error;
        if (parser->_owe & OWE_SHIFT) {
            int r = shift(parser, &data, &len);
            if (r) return r == SHIFT_ALL ? HPE_OK : (llhttp_errno_t)parser->error;
        }
        if ((parser->_owe & OWE_STATUS) && len && status_owed(parser, data)) return (llhttp_errno_t)parser->error;
    }
    parser->_data = data;
    /* (as integers: data may be NULL, with len 0, or with a length the core refuses, and C
     * allows no arithmetic on NULL) */
    parser->_end = (const char *)((uintptr_t)data + len);
    simdhttp_errno e = simdhttp_execute(&parser->_sh, data, len);
    if (LIKELY(e == SIMDHTTP_OK)) {
        /* the buffer ended inside a start line: a target's piece, type both's method span */
        unsigned st = parser->_sh._state;
        if (UNLIKELY(st - S_DETECT <= S_VERSION - S_DETECT)) return start_line_tail(parser);
        return (llhttp_errno_t)e; /* (HPE_OK, in the register that holds it) */
    }
    return stopped(parser, e);
}

/* llhttp_finish in the middle of a message (out of line: most streams end between messages,
 * and that path then needs no stack frame) */
static __attribute__((noinline)) llhttp_errno_t finish_message(llhttp_t *parser)
{
    if (UNLIKELY(parser->_owe & OWE_PRI)) { /* awaiting HTTP/2's preface (pri_preface) */
        parser->reason = "Invalid EOF state";
        return HPE_INVALID_EOF_STATE;
    }
    check_callbacks(parser);
    parser->_cb_err = 0;
    parser->_in_finish = 1;
    parser->_data = parser->_end = NULL; /* no buffer (trampolines read them) */
    /* llhttp's finish in the middle of a message returns HPE_INVALID_EOF_STATE and changes
     * nothing: bytes given after it go on parsing. The core's finish would make that error
     * stick, so it runs only where it ends the message: after the steps that need no bytes (an
     * empty execute, as the core's finish takes first), the message is complete (llhttp's
     * finish field), or its body runs until the close. */
    simdhttp_errno e = simdhttp_execute(&parser->_sh, NULL, 0);
    while (e == SIMDHTTP_E_PAUSED) { /* (a pause at the end of the stream holds nothing) */
        simdhttp_resume(&parser->_sh);
        e = simdhttp_execute(&parser->_sh, NULL, 0);
    }
    if (e == SIMDHTTP_OK && parser->finish != HTTP_FINISH_SAFE && !simdhttp_message_needs_eof(&parser->_sh))
        e = SIMDHTTP_E_INVALID_EOF_STATE;
    else if (e == SIMDHTTP_OK || e == SIMDHTTP_E_PAUSED_UPGRADE)
        e = simdhttp_finish(&parser->_sh);
    parser->_in_finish = 0;
    if (e == SIMDHTTP_OK) { /* (cleared: a later stop must not take it for its own) */
        int rc = parser->_cb_err;
        parser->_cb_err = 0;
        return (llhttp_errno_t)rc;
    }
    if (e == SIMDHTTP_E_INVALID_EOF_STATE) {
        parser->reason = "Invalid EOF state";
        return HPE_INVALID_EOF_STATE;
    }
    return stopped(parser, e);
}

llhttp_errno_t llhttp_finish(llhttp_t *parser)
{
    /* As llhttp: an error state finishes quietly. Between messages (no message begun since
     * init or the last one completed) the end of the stream has nothing to complete: llhttp
     * decides by this field too, and the core's finish (an empty execute() first) would find
     * nothing to do. */
    if (parser->error != HPE_OK || parser->finish == HTTP_FINISH_SAFE) return HPE_OK;
    return finish_message(parser);
}

int llhttp_message_needs_eof(const llhttp_t *parser) { return simdhttp_message_needs_eof(&parser->_sh); }
int llhttp_should_keep_alive(const llhttp_t *parser) { return simdhttp_should_keep_alive(&parser->_sh); }

void llhttp_pause(llhttp_t *parser)
{
    if (parser->error != HPE_OK) return;
    parser->error = HPE_PAUSED;
    parser->reason = "Paused";
}

/* Both leave parser->reason as it was, as llhttp's do (a program may log it after resuming). */
void llhttp_resume(llhttp_t *parser)
{
    if (parser->error != HPE_PAUSED) return;
    parser->error = HPE_OK;
    simdhttp_resume(&parser->_sh);
}

void llhttp_resume_after_upgrade(llhttp_t *parser)
{
    if (parser->error != HPE_PAUSED_UPGRADE) return;
    parser->error = HPE_OK;
    simdhttp_resume_after_upgrade(&parser->_sh);
}

llhttp_errno_t llhttp_get_errno(const llhttp_t *parser) { return (llhttp_errno_t)parser->error; }
const char *llhttp_get_error_reason(const llhttp_t *parser) { return parser->reason; }
void llhttp_set_error_reason(llhttp_t *parser, const char *reason) { parser->reason = reason; }
const char *llhttp_get_error_pos(const llhttp_t *parser) { return parser->error_pos; }

/* ---- lenient switches ---------------------------------------------------------------- */

static void set_lenient(llhttp_t *parser, unsigned flag, int enabled)
{
    if (enabled) parser->lenient_flags = (uint16_t)(parser->lenient_flags | flag);
    else parser->lenient_flags = (uint16_t)(parser->lenient_flags & ~flag);
    simdhttp_set_lenient(&parser->_sh, SIMDHTTP_LENIENT_ALL, 0);
    simdhttp_set_lenient(&parser->_sh, lenient_bits(parser->lenient_flags), 1);
}

#define SETTER(name, flag) \
    void llhttp_set_lenient_##name(llhttp_t *parser, int enabled) { set_lenient(parser, flag, enabled); }
SETTER(headers, LENIENT_HEADERS)
SETTER(chunked_length, LENIENT_CHUNKED_LENGTH)
SETTER(keep_alive, LENIENT_KEEP_ALIVE)
SETTER(transfer_encoding, LENIENT_TRANSFER_ENCODING)
SETTER(version, LENIENT_VERSION)
SETTER(data_after_close, LENIENT_DATA_AFTER_CLOSE)
SETTER(optional_lf_after_cr, LENIENT_OPTIONAL_LF_AFTER_CR)
SETTER(optional_cr_before_lf, LENIENT_OPTIONAL_CR_BEFORE_LF)
SETTER(optional_crlf_after_chunk, LENIENT_OPTIONAL_CRLF_AFTER_CHUNK)
SETTER(spaces_after_chunk_size, LENIENT_SPACES_AFTER_CHUNK_SIZE)
SETTER(header_value_relaxed, LENIENT_HEADER_VALUE_RELAXED)
