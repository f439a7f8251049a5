/* SPDX-License-Identifier: MIT */
/* Everything about the streaming parser that is not per ISA: setup, options, names, errors. */
#include <stddef.h>
#include <string.h>

#include "internal.h"
#include "method_names.h"

const simdhttp_callbacks simdhttp__no_callbacks;

const char *simdhttp_version(void) { return SIMDHTTP_VERSION_STRING; }

/* A pause value of 1 or 2 would be read as SIMDHTTP_SKIP_BODY(_UPGRADE) when on_headers_complete
 * returns it, so that one callback could not pause: refused, loudly (init cannot return an
 * error), with a sticky error that the first execute() or finish() returns. Here, not in
 * simdhttp__configure: the head API has no callbacks and keeps its setup short. */
static void check_config(simdhttp_parser *p)
{
    if (p->_pause_rc != SIMDHTTP_SKIP_BODY && p->_pause_rc != SIMDHTTP_SKIP_BODY_UPGRADE) return;
    p->_state = S_ERROR;
    p->_error = SIMDHTTP_E_INVALID_ARGUMENT;
    p->_reason = "config pause_value 1 or 2 is SIMDHTTP_SKIP_BODY or SIMDHTTP_SKIP_BODY_UPGRADE";
}

void simdhttp_init(simdhttp_parser *p, simdhttp_type type, const simdhttp_callbacks *cb,
                   const simdhttp_config *cfg)
{
    p->data = NULL;
    simdhttp__configure(p, type, cb, cfg);
    check_config(p);
}

void simdhttp_reset(simdhttp_parser *p)
{
    uint32_t opts = p->_lenient & SH_OPT_EMPTY_SPANS; /* an option, not a lenient flag: kept */
    simdhttp_config cfg = {p->_lenient, p->_max_head_size, p->_max_fields, p->_max_chunk_ext, p->_pause_rc};
    simdhttp__configure(p, (simdhttp_type)p->_init_type, p->_cb, &cfg);
    p->_lenient |= opts;
    check_config(p);
}

simdhttp_errno simdhttp_finish(simdhttp_parser *p)
{
    switch (p->_error) {
    case SIMDHTTP_OK: break;
    case SIMDHTTP_E_PAUSED_UPGRADE: return SIMDHTTP_OK; /* the stream is no longer HTTP */
    default: return p->_error;
    }
    /* Between messages (or after the last one): nothing to finish, and an empty execute()
     * would change nothing there (it returns at its first check) */
    if (p->_state == S_MSG_START || p->_state == S_DEAD) return SIMDHTTP_OK;
    /* First the steps that need no more bytes, as an empty execute() takes them: a message
     * paused at on_headers_complete (then resumed) whose body runs until the close, or that
     * has none, ends here instead of failing (issue 9). A pause at the end of the stream has
     * nothing to hold. */
    simdhttp_errno e = simdhttp_execute(p, NULL, 0);
    while (e == SIMDHTTP_E_PAUSED) {
        simdhttp_resume(p);
        e = simdhttp_execute(p, NULL, 0);
    }
    if (e == SIMDHTTP_E_PAUSED_UPGRADE) return SIMDHTTP_OK;
    if (e) return e;
    switch (p->_state) {
    case S_MSG_START:
    case S_DEAD:
        return SIMDHTTP_OK;
    case S_LINE_LF:
        if (p->_next == S_MSG_START) return SIMDHTTP_OK; /* a CR between messages, as llhttp */
        break;
    case S_BODY_EOF:
        p->_state = S_DEAD;
        int rc = p->_cb->on_message_complete ? p->_cb->on_message_complete(p) : 0;
        if (rc) {
            p->_cb_rc = rc;
            p->_cb_which = (uint8_t)(offsetof(simdhttp_callbacks, on_message_complete) / sizeof(void *));
        }
        if (rc && rc != p->_pause_rc) { /* a pause at the end of the stream has nothing to hold */
            p->_error = SIMDHTTP_E_USER;
            if (!p->_reason) p->_reason = "a callback returned an error"; /* else its own */
            p->_error_offset = p->_nread;
            p->_error_pos = NULL;
            return p->_error;
        }
        return SIMDHTTP_OK;
    default:
        break;
    }
    p->_state = S_ERROR;
    p->_error = SIMDHTTP_E_INVALID_EOF_STATE;
    p->_reason = "stream ended in the middle of a message";
    p->_error_offset = p->_nread;
    p->_error_pos = NULL;
    return p->_error;
}

/* _reason is NULL whenever _error is OK: a callback's simdhttp_set_error_reason is then
 * the only thing that sets it before the parser stops. */
void simdhttp_resume(simdhttp_parser *p)
{
    if (p->_error != SIMDHTTP_E_PAUSED) return;
    p->_error = SIMDHTTP_OK;
    p->_reason = NULL;
}

void simdhttp_set_error_reason(simdhttp_parser *p, const char *reason) { p->_reason = reason; }

void simdhttp_set_callbacks(simdhttp_parser *p, const simdhttp_callbacks *cb) { simdhttp__set_cb(p, cb); }

void simdhttp_resume_after_upgrade(simdhttp_parser *p)
{
    if (p->_error != SIMDHTTP_E_PAUSED_UPGRADE) return;
    p->_error = SIMDHTTP_OK;
    p->_reason = NULL;
    p->upgrade = 0;
    p->_state = S_MSG_START;
    p->_head_left = p->_max_head_size;
}

simdhttp_errno simdhttp_get_errno(const simdhttp_parser *p) { return p->_error; }
int simdhttp_get_callback_result(const simdhttp_parser *p, size_t *which)
{
    if (which) *which = (size_t)p->_cb_which * sizeof(void *);
    return p->_cb_rc;
}
const char *simdhttp_get_error_reason(const simdhttp_parser *p) { return p->_error ? p->_reason : NULL; }
uint64_t simdhttp_get_error_offset(const simdhttp_parser *p) { return p->_error_offset; }
const char *simdhttp_get_error_pos(const simdhttp_parser *p) { return p->_error_pos; }
int simdhttp_should_keep_alive(const simdhttp_parser *p) { return (p->flags & SIMDHTTP_F_KEEP_ALIVE) != 0; }
int simdhttp_message_needs_eof(const simdhttp_parser *p)
{
    return (p->flags & SIMDHTTP_F_BODY_UNTIL_CLOSE) && !(p->flags & SIMDHTTP_F_SKIP_BODY) &&
           p->_state != S_DEAD && p->_state != S_ERROR;
}

static const char *const method_names[SIMDHTTP_METHOD_COUNT] = {
    NULL, "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH",
    "ACL", "BASELINE-CONTROL", "BIND", "CHECKIN", "CHECKOUT", "COPY", "LABEL", "LINK", "LOCK",
    "MERGE", "MKACTIVITY", "MKCALENDAR", "MKCOL", "MKREDIRECTREF", "MKWORKSPACE", "MOVE",
    "ORDERPATCH", "PRI", "PROPFIND", "PROPPATCH", "REBIND", "REPORT", "SEARCH", "UNBIND",
    "UNCHECKOUT", "UNLINK", "UNLOCK", "UPDATE", "UPDATEREDIRECTREF", "VERSION-CONTROL",
};

const char *simdhttp_method_name(simdhttp_method m)
{
    return (unsigned)m < SIMDHTTP_METHOD_COUNT ? method_names[m] : NULL;
}

/* The core classifies the common methods inline and calls this for the rest (rare: a linear
 * scan of 30 names, a length compare each). */
int simdhttp__method_lookup(const uint8_t *s, size_t n)
{
    int m = sh_name_index(method_names, SIMDHTTP_METHOD_COUNT, (const char *)s, n);
    return m < 0 ? SIMDHTTP_METHOD_OTHER : m; /* (method_names[OTHER] is NULL: never matched) */
}

simdhttp_method simdhttp_method_from_name(const char *name, size_t len)
{
    return name ? (simdhttp_method)simdhttp__method_lookup((const uint8_t *)name, len)
                : SIMDHTTP_METHOD_OTHER;
}

/* RFC 9110 section 15 and the IANA registry (permanent entries; 306 and 418 are "(Unused)"). */
const char *simdhttp_status_name(unsigned code)
{
    static const char *const s1[] = {"Continue", "Switching Protocols", "Processing", "Early Hints"};
    static const char *const s2[] = {"OK", "Created", "Accepted", "Non-Authoritative Information",
                                     "No Content", "Reset Content", "Partial Content",
                                     "Multi-Status", "Already Reported"};
    static const char *const s3[] = {"Multiple Choices", "Moved Permanently", "Found", "See Other",
                                     "Not Modified", "Use Proxy", NULL, "Temporary Redirect",
                                     "Permanent Redirect"};
    static const char *const s4[] = {
        "Bad Request", "Unauthorized", "Payment Required", "Forbidden", "Not Found",
        "Method Not Allowed", "Not Acceptable", "Proxy Authentication Required",
        "Request Timeout", "Conflict", "Gone", "Length Required", "Precondition Failed",
        "Content Too Large", "URI Too Long", "Unsupported Media Type", "Range Not Satisfiable",
        "Expectation Failed", NULL, NULL, NULL, "Misdirected Request", "Unprocessable Content",
        "Locked", "Failed Dependency", "Too Early", "Upgrade Required", NULL,
        "Precondition Required", "Too Many Requests", NULL, "Request Header Fields Too Large"};
    static const char *const s5[] = {"Internal Server Error", "Not Implemented", "Bad Gateway",
                                     "Service Unavailable", "Gateway Timeout",
                                     "HTTP Version Not Supported", "Variant Also Negotiates",
                                     "Insufficient Storage", "Loop Detected", NULL, "Not Extended",
                                     "Network Authentication Required"};
#define IN(tab, base) if (code >= base && code < base + sizeof tab / sizeof *tab) return tab[code - base]
    IN(s1, 100);
    IN(s2, 200);
    IN(s3, 300);
    IN(s4, 400);
    IN(s5, 500);
#undef IN
    if (code == 226) return "IM Used";
    if (code == 451) return "Unavailable For Legal Reasons";
    return NULL;
}

static const struct {
    const char *name, *reason;
} errnos[SIMDHTTP_ERRNO_COUNT] = {
    [SIMDHTTP_OK] = {"OK", "success"},
    [SIMDHTTP_E_PAUSED] = {"PAUSED", "paused by a callback"},
    [SIMDHTTP_E_PAUSED_UPGRADE] = {"PAUSED_UPGRADE", "connection upgraded"},
    [SIMDHTTP_E_USER] = {"USER", "a callback returned an error"},
    [SIMDHTTP_E_INVALID_METHOD] = {"INVALID_METHOD", "invalid method"},
    [SIMDHTTP_E_INVALID_URL] = {"INVALID_URL", "invalid request-target"},
    [SIMDHTTP_E_INVALID_VERSION] = {"INVALID_VERSION", "invalid HTTP version"},
    [SIMDHTTP_E_INVALID_STATUS] = {"INVALID_STATUS", "invalid status line"},
    [SIMDHTTP_E_UNEXPECTED_SPACE] = {"UNEXPECTED_SPACE", "unexpected whitespace"},
    [SIMDHTTP_E_INVALID_HEADER_TOKEN] = {"INVALID_HEADER_TOKEN", "invalid field name"},
    [SIMDHTTP_E_INVALID_HEADER_VALUE] = {"INVALID_HEADER_VALUE", "invalid field value"},
    [SIMDHTTP_E_CR_EXPECTED] = {"CR_EXPECTED", "expected CR"},
    [SIMDHTTP_E_LF_EXPECTED] = {"LF_EXPECTED", "expected LF"},
    [SIMDHTTP_E_INVALID_CONTENT_LENGTH] = {"INVALID_CONTENT_LENGTH", "invalid Content-Length"},
    [SIMDHTTP_E_UNEXPECTED_CONTENT_LENGTH] = {"UNEXPECTED_CONTENT_LENGTH", "unexpected Content-Length"},
    [SIMDHTTP_E_INVALID_TRANSFER_ENCODING] = {"INVALID_TRANSFER_ENCODING", "invalid Transfer-Encoding"},
    [SIMDHTTP_E_INVALID_CHUNK_SIZE] = {"INVALID_CHUNK_SIZE", "invalid chunk size"},
    [SIMDHTTP_E_INVALID_CHUNK_EXTENSION] = {"INVALID_CHUNK_EXTENSION", "invalid chunk extension"},
    [SIMDHTTP_E_HEADER_OVERFLOW] = {"HEADER_OVERFLOW", "head larger than max_head_size"},
    [SIMDHTTP_E_TOO_MANY_HEADERS] = {"TOO_MANY_HEADERS", "more fields than max_fields"},
    [SIMDHTTP_E_CHUNK_EXTENSIONS_OVERFLOW] = {"CHUNK_EXTENSIONS_OVERFLOW", "chunk extensions longer than max_chunk_ext"},
    [SIMDHTTP_E_INVALID_EOF_STATE] = {"INVALID_EOF_STATE", "stream ended in the middle of a message"},
    [SIMDHTTP_E_CLOSED_CONNECTION] = {"CLOSED_CONNECTION", "data after the connection closed"},
    [SIMDHTTP_E_INVALID_ARGUMENT] = {"INVALID_ARGUMENT", "invalid argument"},
};

const char *simdhttp_errno_name(simdhttp_errno e)
{
    return (unsigned)e < SIMDHTTP_ERRNO_COUNT ? errnos[e].name : "UNKNOWN";
}

const char *simdhttp_errno_reason(simdhttp_errno e)
{
    return (unsigned)e < SIMDHTTP_ERRNO_COUNT ? errnos[e].reason : "unknown error";
}

/* ---- lenient flags ---- */

static const struct {
    const char *name;
    unsigned flag;
} lenient_names[] = {
    {"headers", SIMDHTTP_LENIENT_HEADERS},
    {"chunked_length", SIMDHTTP_LENIENT_CHUNKED_LENGTH},
    {"keep_alive", SIMDHTTP_LENIENT_KEEP_ALIVE},
    {"transfer_encoding", SIMDHTTP_LENIENT_TRANSFER_ENCODING},
    {"version", SIMDHTTP_LENIENT_VERSION},
    {"data_after_close", SIMDHTTP_LENIENT_DATA_AFTER_CLOSE},
    {"optional_lf_after_cr", SIMDHTTP_LENIENT_OPTIONAL_LF_AFTER_CR},
    {"optional_cr_before_lf", SIMDHTTP_LENIENT_OPTIONAL_CR_BEFORE_LF},
    {"optional_crlf_after_chunk", SIMDHTTP_LENIENT_OPTIONAL_CRLF_AFTER_CHUNK},
    {"spaces_after_chunk_size", SIMDHTTP_LENIENT_SPACES_AFTER_CHUNK_SIZE},
    {"obs_fold", SIMDHTTP_LENIENT_OBS_FOLD},
    {"field_bare_cr", SIMDHTTP_LENIENT_FIELD_BARE_CR},
    {"bare_lf", SIMDHTTP_LENIENT_BARE_LF},
    {"target_obs_text", SIMDHTTP_LENIENT_TARGET_OBS_TEXT},
};

unsigned simdhttp_lenient_from_name(const char *name, size_t len)
{
    if (!name) return 0; /* as simdhttp_method_from_name and simdhttp_field_id */
    for (size_t i = 0; i < sizeof lenient_names / sizeof *lenient_names; i++)
        if (strlen(lenient_names[i].name) == len && memcmp(lenient_names[i].name, name, len) == 0)
            return lenient_names[i].flag;
    return 0;
}

const char *simdhttp_lenient_name(unsigned flag)
{
    for (size_t i = 0; i < sizeof lenient_names / sizeof *lenient_names; i++)
        if (lenient_names[i].flag == flag) return lenient_names[i].name;
    return NULL;
}

void simdhttp_set_lenient(simdhttp_parser *p, unsigned flags, int enabled)
{
    if (enabled) p->_lenient |= flags & SIMDHTTP_LENIENT_ALL;
    else p->_lenient &= ~(flags & SIMDHTTP_LENIENT_ALL);
}

void simdhttp_set_mode(simdhttp_parser *p, unsigned mode)
{
    p->_lenient = (p->_lenient & SH_OPT_EMPTY_SPANS) | (mode & SH_CONFIG_LENIENT);
}

long simdhttp_mode_from_name(const char *name, size_t len)
{
    static const struct {
        const char *name;
        unsigned mode;
    } modes[] = {{"strict", SIMDHTTP_MODE_STRICT}, {"defensive", SIMDHTTP_MODE_DEFENSIVE}, {"monitor", SIMDHTTP_MODE_MONITOR}};
    for (size_t i = 0; name && i < sizeof modes / sizeof *modes; i++)
        if (strlen(modes[i].name) == len && memcmp(modes[i].name, name, len) == 0) return (long)modes[i].mode;
    return -1;
}

void simdhttp_set_empty_spans(simdhttp_parser *p, int enabled)
{
    if (enabled) p->_lenient |= SH_OPT_EMPTY_SPANS;
    else p->_lenient &= ~SH_OPT_EMPTY_SPANS;
}

#define SETTER(name, flag) \
    void simdhttp_set_lenient_##name(simdhttp_parser *p, int enabled) { simdhttp_set_lenient(p, flag, enabled); }
SETTER(headers, SIMDHTTP_LENIENT_HEADERS)
SETTER(chunked_length, SIMDHTTP_LENIENT_CHUNKED_LENGTH)
SETTER(keep_alive, SIMDHTTP_LENIENT_KEEP_ALIVE)
SETTER(transfer_encoding, SIMDHTTP_LENIENT_TRANSFER_ENCODING)
SETTER(version, SIMDHTTP_LENIENT_VERSION)
SETTER(data_after_close, SIMDHTTP_LENIENT_DATA_AFTER_CLOSE)
SETTER(optional_lf_after_cr, SIMDHTTP_LENIENT_OPTIONAL_LF_AFTER_CR)
SETTER(optional_cr_before_lf, SIMDHTTP_LENIENT_OPTIONAL_CR_BEFORE_LF)
SETTER(optional_crlf_after_chunk, SIMDHTTP_LENIENT_OPTIONAL_CRLF_AFTER_CHUNK)
SETTER(spaces_after_chunk_size, SIMDHTTP_LENIENT_SPACES_AFTER_CHUNK_SIZE)
SETTER(obs_fold, SIMDHTTP_LENIENT_OBS_FOLD)
SETTER(field_bare_cr, SIMDHTTP_LENIENT_FIELD_BARE_CR)
SETTER(bare_lf, SIMDHTTP_LENIENT_BARE_LF)
SETTER(target_obs_text, SIMDHTTP_LENIENT_TARGET_OBS_TEXT)
