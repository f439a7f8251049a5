/* SPDX-License-Identifier: MIT */
/* http_parser.h: the http-parser 2.9 API over simdhttp (docs/compat.md).
 *
 * A program written for http-parser 2.9 (nodejs/http-parser; Debian's libhttp-parser-dev)
 * compiles against this header unchanged and links libsimdhttp-http-parser instead of
 * libhttp_parser:
 *     cc app.c $(pkg-config --cflags --libs simdhttp-http-parser)
 * Source compatible, not binary compatible: struct http_parser is larger (it holds a
 * simdhttp_parser), so rebuild the program. Every name, value and string of the original API
 * is here: the X-macro tables, the enums, the flags, the struct members, the functions.
 *
 * Behaviour is http-parser's (callback order, return values, errors, flags, the upgrade exit)
 * except where http-parser departs from RFC 9112/9110: there simdhttp's stricter rule wins,
 * and tests/compat/http_parser.known lists each such difference with its RFC section. The
 * request-target is checked against RFC 3986 and its form against the method (RFC 9112 3.2);
 * unknown methods are refused as http-parser refuses them (its method field has no value for
 * them). Where the RFCs let a recipient choose and http-parser chose to accept, the layer
 * accepts too: obs-fold (RFC 9112 5.2: delivered as one SP), HTTP/1.x with a higher minor
 * version (RFC 9110 2.5) and other HTTP/DIGIT.DIGIT versions. Not a bare LF as a line end
 * (RFC 9112 2.2 allows it in the head only; simdhttp's switch for it also covers chunk lines,
 * a smuggling vector): the layer keeps CRLF.
 * Parsing is simdhttp's single core; the layer only translates.
 */
#ifndef http_parser_h
#define http_parser_h

#include <stddef.h>
#include <stdint.h>

#include "simdhttp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the API implemented (http-parser_version() reports it too). */
#define HTTP_PARSER_VERSION_MAJOR 2
#define HTTP_PARSER_VERSION_MINOR 9
#define HTTP_PARSER_VERSION_PATCH 4
/* This layer's own version is simdhttp's: SIMDHTTP_VERSION_STRING. */
#define SIMDHTTP_HTTP_PARSER_LAYER 1

/* Accepted for source compatibility; the layer is always strict. */
#ifndef HTTP_PARSER_STRICT
#define HTTP_PARSER_STRICT 1
#endif
/* The default of http_parser_set_max_header_size(): start line + field lines (and a trailer
 * section) at most this many bytes, else HPE_HEADER_OVERFLOW. */
#ifndef HTTP_MAX_HEADER_SIZE
#define HTTP_MAX_HEADER_SIZE (80 * 1024)
#endif

typedef struct http_parser http_parser;
typedef struct http_parser_settings http_parser_settings;

/* Callbacks return 0 to go on; anything else stops parsing with HPE_CB_<name> (execute()
 * returns where it stopped). on_headers_complete may also return 1 (no body follows: e.g. the
 * answer to a HEAD request) or 2 (no body, and the connection is upgraded). Data callbacks get
 * spans of the buffer given to execute(); an element may come in several spans. */
typedef int (*http_data_cb)(http_parser *, const char *at, size_t length);
typedef int (*http_cb)(http_parser *);

/* Status codes: XX(number, NAME, reason phrase) */
#define HTTP_STATUS_MAP(XX)                                                       \
  XX(100, CONTINUE, Continue)                                            \
  XX(101, SWITCHING_PROTOCOLS, Switching Protocols)                      \
  XX(102, PROCESSING, Processing)                                        \
  XX(200, OK, OK)                                                        \
  XX(201, CREATED, Created)                                              \
  XX(202, ACCEPTED, Accepted)                                            \
  XX(203, NON_AUTHORITATIVE_INFORMATION, Non-Authoritative Information)  \
  XX(204, NO_CONTENT, No Content)                                        \
  XX(205, RESET_CONTENT, Reset Content)                                  \
  XX(206, PARTIAL_CONTENT, Partial Content)                              \
  XX(207, MULTI_STATUS, Multi-Status)                                    \
  XX(208, ALREADY_REPORTED, Already Reported)                            \
  XX(226, IM_USED, IM Used)                                              \
  XX(300, MULTIPLE_CHOICES, Multiple Choices)                            \
  XX(301, MOVED_PERMANENTLY, Moved Permanently)                          \
  XX(302, FOUND, Found)                                                  \
  XX(303, SEE_OTHER, See Other)                                          \
  XX(304, NOT_MODIFIED, Not Modified)                                    \
  XX(305, USE_PROXY, Use Proxy)                                          \
  XX(307, TEMPORARY_REDIRECT, Temporary Redirect)                        \
  XX(308, PERMANENT_REDIRECT, Permanent Redirect)                        \
  XX(400, BAD_REQUEST, Bad Request)                                      \
  XX(401, UNAUTHORIZED, Unauthorized)                                    \
  XX(402, PAYMENT_REQUIRED, Payment Required)                            \
  XX(403, FORBIDDEN, Forbidden)                                          \
  XX(404, NOT_FOUND, Not Found)                                          \
  XX(405, METHOD_NOT_ALLOWED, Method Not Allowed)                        \
  XX(406, NOT_ACCEPTABLE, Not Acceptable)                                \
  XX(407, PROXY_AUTHENTICATION_REQUIRED, Proxy Authentication Required)  \
  XX(408, REQUEST_TIMEOUT, Request Timeout)                              \
  XX(409, CONFLICT, Conflict)                                            \
  XX(410, GONE, Gone)                                                    \
  XX(411, LENGTH_REQUIRED, Length Required)                              \
  XX(412, PRECONDITION_FAILED, Precondition Failed)                      \
  XX(413, PAYLOAD_TOO_LARGE, Payload Too Large)                          \
  XX(414, URI_TOO_LONG, URI Too Long)                                    \
  XX(415, UNSUPPORTED_MEDIA_TYPE, Unsupported Media Type)                \
  XX(416, RANGE_NOT_SATISFIABLE, Range Not Satisfiable)                  \
  XX(417, EXPECTATION_FAILED, Expectation Failed)                        \
  XX(421, MISDIRECTED_REQUEST, Misdirected Request)                      \
  XX(422, UNPROCESSABLE_ENTITY, Unprocessable Entity)                    \
  XX(423, LOCKED, Locked)                                                \
  XX(424, FAILED_DEPENDENCY, Failed Dependency)                          \
  XX(426, UPGRADE_REQUIRED, Upgrade Required)                            \
  XX(428, PRECONDITION_REQUIRED, Precondition Required)                  \
  XX(429, TOO_MANY_REQUESTS, Too Many Requests)                          \
  XX(431, REQUEST_HEADER_FIELDS_TOO_LARGE, Request Header Fields Too Large)\
  XX(451, UNAVAILABLE_FOR_LEGAL_REASONS, Unavailable For Legal Reasons)  \
  XX(500, INTERNAL_SERVER_ERROR, Internal Server Error)                  \
  XX(501, NOT_IMPLEMENTED, Not Implemented)                              \
  XX(502, BAD_GATEWAY, Bad Gateway)                                      \
  XX(503, SERVICE_UNAVAILABLE, Service Unavailable)                      \
  XX(504, GATEWAY_TIMEOUT, Gateway Timeout)                              \
  XX(505, HTTP_VERSION_NOT_SUPPORTED, HTTP Version Not Supported)        \
  XX(506, VARIANT_ALSO_NEGOTIATES, Variant Also Negotiates)              \
  XX(507, INSUFFICIENT_STORAGE, Insufficient Storage)                    \
  XX(508, LOOP_DETECTED, Loop Detected)                                  \
  XX(510, NOT_EXTENDED, Not Extended)                                    \
  XX(511, NETWORK_AUTHENTICATION_REQUIRED, Network Authentication Required)\

enum http_status {
#define XX(num, name, string) HTTP_STATUS_##name = num,
    HTTP_STATUS_MAP(XX)
#undef XX
};

/* Methods: XX(number, NAME, string). Any other method is HPE_INVALID_METHOD. */
#define HTTP_METHOD_MAP(XX)              \
  XX(0, DELETE, DELETE)         \
  XX(1, GET, GET)               \
  XX(2, HEAD, HEAD)             \
  XX(3, POST, POST)             \
  XX(4, PUT, PUT)               \
  XX(5, CONNECT, CONNECT)       \
  XX(6, OPTIONS, OPTIONS)       \
  XX(7, TRACE, TRACE)           \
  XX(8, COPY, COPY)             \
  XX(9, LOCK, LOCK)             \
  XX(10, MKCOL, MKCOL)          \
  XX(11, MOVE, MOVE)            \
  XX(12, PROPFIND, PROPFIND)    \
  XX(13, PROPPATCH, PROPPATCH)  \
  XX(14, SEARCH, SEARCH)        \
  XX(15, UNLOCK, UNLOCK)        \
  XX(16, BIND, BIND)            \
  XX(17, REBIND, REBIND)        \
  XX(18, UNBIND, UNBIND)        \
  XX(19, ACL, ACL)              \
  XX(20, REPORT, REPORT)        \
  XX(21, MKACTIVITY, MKACTIVITY)\
  XX(22, CHECKOUT, CHECKOUT)    \
  XX(23, MERGE, MERGE)          \
  XX(24, MSEARCH, M-SEARCH)     \
  XX(25, NOTIFY, NOTIFY)        \
  XX(26, SUBSCRIBE, SUBSCRIBE)  \
  XX(27, UNSUBSCRIBE, UNSUBSCRIBE)\
  XX(28, PATCH, PATCH)          \
  XX(29, PURGE, PURGE)          \
  XX(30, MKCALENDAR, MKCALENDAR)\
  XX(31, LINK, LINK)            \
  XX(32, UNLINK, UNLINK)        \
  XX(33, SOURCE, SOURCE)        \

enum http_method {
#define XX(num, name, string) HTTP_##name = num,
    HTTP_METHOD_MAP(XX)
#undef XX
};

enum http_parser_type { HTTP_REQUEST, HTTP_RESPONSE, HTTP_BOTH };

/* http_parser.flags */
enum flags {
    F_CHUNKED = 1 << 0,
    F_CONNECTION_KEEP_ALIVE = 1 << 1,
    F_CONNECTION_CLOSE = 1 << 2,
    F_CONNECTION_UPGRADE = 1 << 3,
    F_TRAILING = 1 << 4,
    F_UPGRADE = 1 << 5,
    F_SKIPBODY = 1 << 6,
    F_CONTENTLENGTH = 1 << 7
};

/* Errors: XX(NAME, description); the enum is HPE_<NAME>. */
#define HTTP_ERRNO_MAP(XX)                                                               \
  XX(OK, "success")                                                             \
  XX(CB_message_begin, "the on_message_begin callback failed")                  \
  XX(CB_url, "the on_url callback failed")                                      \
  XX(CB_header_field, "the on_header_field callback failed")                    \
  XX(CB_header_value, "the on_header_value callback failed")                    \
  XX(CB_headers_complete, "the on_headers_complete callback failed")            \
  XX(CB_body, "the on_body callback failed")                                    \
  XX(CB_message_complete, "the on_message_complete callback failed")            \
  XX(CB_status, "the on_status callback failed")                                \
  XX(CB_chunk_header, "the on_chunk_header callback failed")                    \
  XX(CB_chunk_complete, "the on_chunk_complete callback failed")                \
  XX(INVALID_EOF_STATE, "stream ended at an unexpected time")                   \
  XX(HEADER_OVERFLOW, "too many header bytes seen; overflow detected")          \
  XX(CLOSED_CONNECTION, "data received after completed connection: close message")\
  XX(INVALID_VERSION, "invalid HTTP version")                                   \
  XX(INVALID_STATUS, "invalid HTTP status code")                                \
  XX(INVALID_METHOD, "invalid HTTP method")                                     \
  XX(INVALID_URL, "invalid URL")                                                \
  XX(INVALID_HOST, "invalid host")                                              \
  XX(INVALID_PORT, "invalid port")                                              \
  XX(INVALID_PATH, "invalid path")                                              \
  XX(INVALID_QUERY_STRING, "invalid query string")                              \
  XX(INVALID_FRAGMENT, "invalid fragment")                                      \
  XX(LF_EXPECTED, "LF character expected")                                      \
  XX(INVALID_HEADER_TOKEN, "invalid character in header")                       \
  XX(INVALID_CONTENT_LENGTH, "invalid character in content-length header")      \
  XX(UNEXPECTED_CONTENT_LENGTH, "unexpected content-length header")             \
  XX(INVALID_CHUNK_SIZE, "invalid character in chunk size header")              \
  XX(INVALID_CONSTANT, "invalid constant string")                               \
  XX(INVALID_INTERNAL_STATE, "encountered unexpected internal state")           \
  XX(STRICT, "strict mode assertion failed")                                    \
  XX(PAUSED, "parser is paused")                                                \
  XX(UNKNOWN, "an unknown error occurred")                                      \
  XX(INVALID_TRANSFER_ENCODING, "request has invalid transfer-encoding")        \

#define HTTP_ERRNO_GEN(n, s) HPE_##n,
enum http_errno { HTTP_ERRNO_MAP(HTTP_ERRNO_GEN) };
#undef HTTP_ERRNO_GEN

#define HTTP_PARSER_ERRNO(p) ((enum http_errno)(p)->http_errno)

struct http_parser {
    /** PRIVATE (as in http-parser; flags is read by programs) **/
    unsigned int type : 2;         /* enum http_parser_type */
    unsigned int flags : 8;        /* F_* */
    unsigned int state : 7;        /* 0 between messages, 1 inside one (layer) */
    unsigned int header_state : 7; /* unused */
    unsigned int index : 5;        /* unused */
    unsigned int uses_transfer_encoding : 1; /* Transfer-Encoding present */
    unsigned int allow_chunked_length : 1;   /* set to 1 after init: allow Content-Length
                                                with Transfer-Encoding: chunked (lenient) */
    unsigned int lenient_http_headers : 1;   /* set to 1 after init: allow any byte but CR, LF
                                                and NUL in field values (lenient) */
    uint32_t nread;          /* head bytes read so far */
    uint64_t content_length; /* Content-Length (body bytes left), the chunk's size, or
                                ULLONG_MAX when there is none */

    /** READ-ONLY **/
    unsigned short http_major;
    unsigned short http_minor;
    unsigned int status_code : 16; /* responses only */
    unsigned int method : 8;       /* requests only */
    unsigned int http_errno : 7;
    /* 1 = the message asked for an upgrade (or was CONNECT) and execute() stopped after it:
     * the bytes from its return value on are not HTTP. Check it when execute() returns. */
    unsigned int upgrade : 1;

    /** PUBLIC **/
    void *data;

    /* ---- private to the layer ---- */
    simdhttp_parser _sh;
    simdhttp_target _target;
    const http_parser_settings *_settings;
    const char *_buf, *_buf_end; /* the current execute() buffer */
    uint64_t _buf_off;           /* absolute offset of _buf[0] */
    uint64_t _mstart, _tstart;   /* absolute offsets of the method and of the target */
    uint64_t _stop_off;          /* where the layer itself stopped the parse (absolute) */
    uint32_t _rp_left, _rp_voff, _rp_vlen; /* a field line to replay after a pause (replay()) */
    uint8_t _mlen, _stop_errno, _begun, _body_final, _got_value, _in_fields, _rp_empty;
    uint8_t _passed;             /* what was last passed to _sh: bit 0 lenient headers, bit 1
                                    lenient chunked length, bit 2 callbacks without the
                                    on_chunk_complete trampoline (t_chunk_header) */
    uint8_t _both;               /* an HTTP_BOTH parser (its callbacks: two more trampolines) */
    char _mbuf[12];              /* the method's bytes (the longest known one has 11) */
    uint8_t _skip, _nhold;       /* after a pause, http-parser's place is not the core's (stopped) */
    char _hold;
};

struct http_parser_settings {
    http_cb on_message_begin;
    http_data_cb on_url;
    http_data_cb on_status;
    http_data_cb on_header_field;
    http_data_cb on_header_value;
    http_cb on_headers_complete;
    http_data_cb on_body;
    http_cb on_message_complete;
    /* parser->content_length is the chunk's size (0 for the last chunk) */
    http_cb on_chunk_header;
    http_cb on_chunk_complete;
};

enum http_parser_url_fields {
    UF_SCHEMA = 0,
    UF_HOST = 1,
    UF_PORT = 2,
    UF_PATH = 3,
    UF_QUERY = 4,
    UF_FRAGMENT = 5,
    UF_USERINFO = 6,
    UF_MAX = 7
};

/* The result of http_parser_parse_url: offsets and lengths into the buffer given. */
struct http_parser_url {
    uint16_t field_set; /* (1 << UF_*) of each field present */
    uint16_t port;      /* UF_PORT's value */
    struct {
        uint16_t off;
        uint16_t len;
    } field_data[UF_MAX];
};

/* @return the API version as major * 0x10000 | minor * 0x100 | patch (2.9.4). */
unsigned long http_parser_version(void);

/* Reset parser for a new stream of `type` (parser->data is kept). The lenient members are
 * cleared: set them after this call. */
void http_parser_init(http_parser *parser, enum http_parser_type type);
void http_parser_settings_init(http_parser_settings *settings);

/* Parse len bytes; len 0 signals the end of the stream (a body that runs until the close ends
 * there). @return the number of bytes parsed: len, or less when the parser stopped (an error:
 * HTTP_PARSER_ERRNO(parser) says which; a pause; or an upgrade: parser->upgrade is 1 and the
 * bytes from there on belong to the new protocol); at the end of the stream inside a message,
 * 1 (HPE_INVALID_EOF_STATE), as http-parser: more than len, so "parsed != len" sees it. An
 * error sticks: later calls return 0. */
size_t http_parser_execute(http_parser *parser, const http_parser_settings *settings,
                           const char *data, size_t len);

/* @return 1 if the connection may carry another message after this one, else 0 (the
 * caller should close it). Valid from on_headers_complete on. */
int http_should_keep_alive(const http_parser *parser);
/* @return "GET" etc., "<unknown>" for a value outside the table. */
const char *http_method_str(enum http_method m);
/* @return the reason phrase of a status ("Not Found"), "<unknown>" for others. */
const char *http_status_str(enum http_status s);
/* @return "HPE_OK" etc. */
const char *http_errno_name(enum http_errno err);
/* @return the description of an error. */
const char *http_errno_description(enum http_errno err);

void http_parser_url_init(struct http_parser_url *u);
/* Split a URL (is_connect: a CONNECT target, "host:port" only) into *u, on simdhttp's
 * request-target splitter (RFC 3986; docs/compat.md lists where http-parser accepts more).
 * Fragments are accepted. @return 0, or 1 if buf is not a valid URL (or is over 65535 bytes,
 * which the 16-bit offsets cannot hold). */
int http_parser_parse_url(const char *buf, size_t buflen, int is_connect, struct http_parser_url *u);

/* paused = 1: stop at once with HPE_PAUSED (call it from a callback); 0: clear the pause, then
 * call execute() again with the bytes from where it stopped. */
void http_parser_pause(http_parser *parser, int paused);
/* @return 1 from on_body when this is the body's last piece (a Content-Length body), else 0. */
int http_body_is_final(const http_parser *parser);
/* The maximum head size for parsers initialised from now on (process-wide, as in http-parser;
 * default HTTP_MAX_HEADER_SIZE). 0 refuses every message with HPE_HEADER_OVERFLOW, as in
 * http-parser (which stops before the first byte; this layer after it). */
void http_parser_set_max_header_size(uint32_t size);
/* This layer's addition (http-parser has no chunk line limit; a program can test
 * SIMDHTTP_HTTP_PARSER_LAYER): the maximum of one chunk line's bytes after its size (its
 * extensions), and of a size's leading zeros past 16 digits, for parsers initialised from now
 * on (process-wide, as the head size); 0 for the default, 4096 (RFC 9112 7.1.1: a server ought
 * to limit chunk extensions). Exceeding it is HPE_HEADER_OVERFLOW, execute() returning where
 * the line went over. UINT32_MAX effectively removes the bound, as in http-parser. */
void http_parser_set_max_chunk_ext(uint32_t size);

/* This layer's addition: simdhttp's modes (docs/smuggling.md, "Modes"). "strict", "defensive"
 * or "monitor" replaces the layer's lenient choices (http-parser's defaults: obs-fold, other
 * major versions, bytes >= 0x80 in a target) with the mode's, for this parser until
 * http_parser_init(); "defensive" also closes the connection after a message with an AMBIGUOUS
 * reason (http_should_keep_alive() 0, the next bytes HPE_CLOSED_CONNECTION). A later change of
 * the struct's lenient_http_headers or allow_chunked_length switches that rule on top of it.
 * @return 0, or -1 for another name (nothing changed). */
int http_parser_set_layer_mode(http_parser *parser, const char *mode);

/* This layer's addition: the current message's verdict, simdhttp's SIMDHTTP_REASON_BIT(r) of
 * each deviation read (include/simdhttp.h; simdhttp_reasons_tier() gives its tier): known at
 * on_headers_complete for the head, at on_message_complete for the whole message, and after an
 * error for the refused one. */
uint32_t http_parser_get_layer_reasons(const http_parser *parser);

#ifdef __cplusplus
}
#endif
#endif
