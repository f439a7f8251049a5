/* SPDX-License-Identifier: MIT */
/* The http-parser layer's API beyond the event logs of diff.py: return values of execute()
 * (errors, pauses, upgrades), callback errors, http_body_is_final, the head size and chunk line
 * limits, names and strings, and http_parser_parse_url. */
#include <stdio.h>
#include <string.h>

#include "http_parser.h"
#include "testlib.h"

static int finals, bodies, fail_on_url, pause_on_header;

static int on_body(http_parser *p, const char *at, size_t n)
{
    (void)at, (void)n;
    bodies++;
    finals += http_body_is_final(p);
    return 0;
}
static int on_url(http_parser *p, const char *at, size_t n)
{
    (void)p, (void)at, (void)n;
    return fail_on_url;
}
static int on_header_field(http_parser *p, const char *at, size_t n)
{
    (void)at, (void)n;
    if (pause_on_header) http_parser_pause(p, 1);
    return 0;
}

/* pause_every: the log of field events, and a pause at the pause_at-th one */
static char plog[512];
static int pev, pause_at = -1;
static char pkind[2];
static const char *pend; /* the end of the last span */
static int plog_span(http_parser *p, char kind, const char *at, size_t n)
{
    size_t l = strlen(plog);
    snprintf(plog + l, sizeof plog - l, "%c[%.*s]", kind, (int)n, at);
    pkind[0] = kind, pkind[1] = n ? 'x' : '0', pend = at + n;
    if (pev++ == pause_at) http_parser_pause(p, 1);
    return 0;
}
static int plog_field(http_parser *p, const char *at, size_t n) { return plog_span(p, 'f', at, n); }
static int plog_value(http_parser *p, const char *at, size_t n) { return plog_span(p, 'v', at, n); }

/* A pause in any field callback stops where http-parser's does (after a name: after its ':';
 * after a value: after the CR that ends it; after an empty value: at the next line; checked
 * against http-parser 2.9.4 by diff.py --pauses) and the rest follows from there,
 * also for the lines simdhttp takes whole (the layer replays their rest) and for a framing
 * field's bad value (its spans, then the error at the same byte). */
static void pause_every(void)
{
    const char *req = "GET / HTTP/1.1\r\nA:\r\nB: x \r\nC:  \r\nContent-Length: 1z\r\n\r\n";
    size_t len = strlen(req), whole_off = 0;
    char whole[512];
    http_parser_settings s;
    http_parser_settings_init(&s);
    s.on_header_field = plog_field;
    s.on_header_value = plog_value;
    http_parser p;
    for (int at = -1; at < 12; at++) {
        plog[0] = 0, pev = 0, pause_at = at;
        http_parser_init(&p, HTTP_REQUEST);
        size_t off = 0;
        int where_ok = 1, pauses = 0;
        for (int i = 0; i < 20 && off < len; i++) {
            off += http_parser_execute(&p, &s, req + off, len - off);
            if (HTTP_PARSER_ERRNO(&p) != HPE_PAUSED) break;
            pauses++;
            where_ok &= pkind[1] == 'x' ? req + off == pend + (*pend == ':' || *pend == '\r') : req[off - 1] == '\n';
            http_parser_pause(&p, 0);
        }
        if (at < 0) {
            snprintf(whole, sizeof whole, "%s", plog);
            whole_off = off;
            t_check(HTTP_PARSER_ERRNO(&p) == HPE_INVALID_CONTENT_LENGTH && req[off] == 'z' &&
                        !strcmp(plog, "f[A]v[]f[B]v[x ]f[C]v[]f[Content-Length]v[1]"),
                    "field events without a pause", "%s at %zu: %s", http_errno_name(HTTP_PARSER_ERRNO(&p)), off, plog);
            continue;
        }
        t_check(pauses == (at < 8) && where_ok && off == whole_off && !strcmp(plog, whole) &&
                    HTTP_PARSER_ERRNO(&p) == HPE_INVALID_CONTENT_LENGTH,
                "pause in a field callback", "pause at %d: %d pauses, place %d, %s at %zu: %s", at, pauses,
                where_ok, http_errno_name(HTTP_PARSER_ERRNO(&p)), off, plog);
    }
    pause_at = -1;
}

static void execute_results(void)
{
    http_parser_settings s;
    http_parser_settings_init(&s);
    s.on_body = on_body;
    s.on_url = on_url;
    s.on_header_field = on_header_field;
    http_parser p;
    const char *req = "POST /x HTTP/1.1\r\nContent-Length: 5\r\n\r\nab";
    http_parser_init(&p, HTTP_REQUEST);
    size_t n = http_parser_execute(&p, &s, req, strlen(req));
    n += http_parser_execute(&p, &s, "cde", 3);
    t_check(n == strlen(req) + 3 && bodies == 2 && finals == 1, "body_is_final on the last piece only",
            "n %zu bodies %d finals %d", n, bodies, finals);

    /* a callback error: HPE_CB_url, sticky */
    fail_on_url = 1;
    http_parser_init(&p, HTTP_REQUEST);
    n = http_parser_execute(&p, &s, req, strlen(req));
    t_check(HTTP_PARSER_ERRNO(&p) == HPE_CB_url && n < strlen(req) && http_parser_execute(&p, &s, "x", 1) == 0,
            "callback error", "errno %s n %zu", http_errno_name(HTTP_PARSER_ERRNO(&p)), n);
    fail_on_url = 0;

    /* pause from a callback, resume from where execute() stopped */
    pause_on_header = 1;
    http_parser_init(&p, HTTP_REQUEST);
    n = http_parser_execute(&p, &s, req, strlen(req));
    int paused = HTTP_PARSER_ERRNO(&p) == HPE_PAUSED && n > 0 && n < strlen(req);
    pause_on_header = 0;
    http_parser_pause(&p, 0);
    size_t m = http_parser_execute(&p, &s, req + n, strlen(req) - n);
    t_check(paused && HTTP_PARSER_ERRNO(&p) == HPE_OK && n + m == strlen(req), "pause and resume",
            "paused %d n %zu m %zu errno %s", paused, n, m, http_errno_name(HTTP_PARSER_ERRNO(&p)));

    /* an upgrade: execute() stops after the head, upgrade = 1, the rest is not parsed */
    const char *up = "GET /chat HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n\x81\x05hello";
    http_parser_init(&p, HTTP_REQUEST);
    n = http_parser_execute(&p, &s, up, strlen(up));
    t_check(p.upgrade == 1 && HTTP_PARSER_ERRNO(&p) == HPE_OK && n == strlen(up) - 7, "upgrade stops after the head",
            "upgrade %u n %zu", p.upgrade, n);
    /* called again after the upgrade (the program is done with the other protocol): http-parser
     * parses the next message from the new bytes, upgrade 0 again */
    const char *next = "GET /a HTTP/1.1\r\n\r\n";
    n = http_parser_execute(&p, &s, next, strlen(next));
    t_check(p.upgrade == 0 && HTTP_PARSER_ERRNO(&p) == HPE_OK && n == strlen(next), "execute() after an upgrade",
            "upgrade %u n %zu errno %s", p.upgrade, n, http_errno_name(HTTP_PARSER_ERRNO(&p)));
    const char *conn = "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\nTLS";
    http_parser_init(&p, HTTP_REQUEST);
    n = http_parser_execute(&p, &s, conn, strlen(conn));
    t_check(p.upgrade == 1 && p.method == HTTP_CONNECT && n == strlen(conn) - 3, "CONNECT", "n %zu", n);
    http_parser_init(&p, HTTP_REQUEST);
    n = http_parser_execute(&p, &s, "CONNECT /x HTTP/1.1\r\n\r\n", 23);
    t_check(HTTP_PARSER_ERRNO(&p) == HPE_INVALID_URL, "CONNECT needs authority-form", "%s",
            http_errno_name(HTTP_PARSER_ERRNO(&p)));
    http_parser_init(&p, HTTP_REQUEST);
    n = http_parser_execute(&p, &s, "FOO / HTTP/1.1\r\n\r\n", 18);
    t_check(HTTP_PARSER_ERRNO(&p) == HPE_INVALID_METHOD && n == 0, "unknown method", "%s n %zu",
            http_errno_name(HTTP_PARSER_ERRNO(&p)), n);
    http_parser_init(&p, HTTP_REQUEST);
    n = http_parser_execute(&p, &s, "PROPFIND /d HTTP/1.1\r\n\r\n", 24);
    t_check(HTTP_PARSER_ERRNO(&p) == HPE_OK && p.method == HTTP_PROPFIND && n == 24, "a WebDAV method", "%s",
            http_errno_name(HTTP_PARSER_ERRNO(&p)));

    /* the head size limit, process-wide from the next init */
    http_parser_set_max_header_size(64);
    http_parser_init(&p, HTTP_REQUEST);
    char big[200];
    snprintf(big, sizeof big, "GET / HTTP/1.1\r\nX: %0100d\r\n\r\n", 0);
    http_parser_execute(&p, &s, big, strlen(big));
    t_check(HTTP_PARSER_ERRNO(&p) == HPE_HEADER_OVERFLOW, "max header size", "%s", http_errno_name(HTTP_PARSER_ERRNO(&p)));
    /* 0 is no room at all, as in http-parser (not simdhttp's "0: the default", nor unlimited) */
    http_parser_set_max_header_size(0);
    http_parser_init(&p, HTTP_REQUEST);
    n = http_parser_execute(&p, &s, "GET / HTTP/1.1\r\n\r\n", 18);
    t_check(HTTP_PARSER_ERRNO(&p) == HPE_HEADER_OVERFLOW && n <= 1, "max header size 0", "%s n %zu",
            http_errno_name(HTTP_PARSER_ERRNO(&p)), n);
    http_parser_set_max_header_size(HTTP_MAX_HEADER_SIZE);
    http_parser_init(&p, HTTP_REQUEST);
    http_parser_execute(&p, &s, big, strlen(big));
    t_check(HTTP_PARSER_ERRNO(&p) == HPE_OK, "default header size", "%s", http_errno_name(HTTP_PARSER_ERRNO(&p)));
    /* the end of a body that runs until the close */
    const char *res = "HTTP/1.1 200 OK\r\n\r\nabc";
    http_parser_init(&p, HTTP_RESPONSE);
    http_parser_execute(&p, &s, res, strlen(res));
    t_check(http_should_keep_alive(&p) == 0, "body until close: not kept alive", "wrong");
    t_check(http_parser_execute(&p, &s, NULL, 0) == 0 && HTTP_PARSER_ERRNO(&p) == HPE_OK, "EOF ends it", "%s",
            http_errno_name(HTTP_PARSER_ERRNO(&p)));
    /* the end of the stream inside a message: http-parser 2.9.4 returns 1 (more than the 0 bytes
     * given), so its README's check "nparsed != recved" sees the error at EOF too; 0 hid it */
    const char *cut[] = {"GET / HTTP/1.1\r\nContent-Length: 3\r\n\r\nab", "GET / HTTP/1.1\r\nHost: a", "G"};
    for (size_t i = 0; i < sizeof cut / sizeof *cut; i++) {
        http_parser_init(&p, HTTP_REQUEST);
        n = http_parser_execute(&p, &s, cut[i], strlen(cut[i]));
        size_t eof = http_parser_execute(&p, &s, NULL, 0);
        t_check(n == strlen(cut[i]) && eof == 1 && HTTP_PARSER_ERRNO(&p) == HPE_INVALID_EOF_STATE &&
                    http_parser_execute(&p, &s, NULL, 0) == 0,
                "EOF inside a message returns 1", "\"%s\": %zu, then %zu (%s)", cut[i], n, eof,
                http_errno_name(HTTP_PARSER_ERRNO(&p)));
    }
    http_parser_init(&p, HTTP_REQUEST);
    n = http_parser_execute(&p, &s, "GET / HTTP/1.1\r\n\r\n", 18);
    t_check(n == 18 && http_parser_execute(&p, &s, NULL, 0) == 0 && HTTP_PARSER_ERRNO(&p) == HPE_OK,
            "EOF between messages returns 0", "%s", http_errno_name(HTTP_PARSER_ERRNO(&p)));
    p.data = &p;
    http_parser_init(&p, HTTP_BOTH);
    t_check(p.data == &p, "init keeps data", "wrong");
}

/* A chunked request whose first chunk line is `zeros` '0's, "5", then `ext` bytes of extension
 * (";a=x..."; ext 0 or >= 4) into buf; @return its length. */
#define CHUNKED_HEAD "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
static size_t chunked_req(char *buf, size_t zeros, size_t ext)
{
    size_t n = (size_t)sprintf(buf, CHUNKED_HEAD);
    memset(buf + n, '0', zeros), n += zeros;
    buf[n++] = '5';
    if (ext) {
        memcpy(buf + n, ";a=", 3);
        memset(buf + n + 3, 'x', ext - 3), n += ext;
    }
    return n + (size_t)sprintf(buf + n, "\r\nhello\r\n0\r\n\r\n");
}

/* One chunk line's bytes after the size, and a size's digits past the 16th, against
 * http_parser_set_max_chunk_ext (the layer's addition: http-parser has no bound, RFC 9112
 * 7.1.1 asks for one). want_stop: where execute() stops with HPE_HEADER_OVERFLOW (counted
 * from the chunk line's start), or 0 for the whole request parsed with its body. */
static void chunk_line_case(size_t zeros, size_t ext, size_t want_stop, const char *what)
{
    static char buf[16384];
    size_t n = chunked_req(buf, zeros, ext);
    http_parser_settings s;
    http_parser_settings_init(&s);
    s.on_body = on_body;
    http_parser p;
    http_parser_init(&p, HTTP_REQUEST);
    bodies = 0;
    size_t took = http_parser_execute(&p, &s, buf, n);
    size_t head = sizeof CHUNKED_HEAD - 1;
    if (want_stop)
        t_check(HTTP_PARSER_ERRNO(&p) == HPE_HEADER_OVERFLOW && took == head + want_stop && bodies == 0, what,
                "%s took %zu, want %zu", http_errno_name(HTTP_PARSER_ERRNO(&p)), took, head + want_stop);
    else
        t_check(HTTP_PARSER_ERRNO(&p) == HPE_OK && took == n && bodies == 1, what, "%s took %zu of %zu",
                http_errno_name(HTTP_PARSER_ERRNO(&p)), took, n);
}

static void chunk_line_limit(void)
{
    /* the default, 4096: extensions at it pass, one byte more stops at that byte */
    chunk_line_case(0, 4096, 0, "chunk line: 4096 bytes of extensions by default");
    chunk_line_case(0, 4097, 1 + 4096, "chunk line: 4097 bytes of extensions refused by default");
    chunk_line_case(0, 5000, 1 + 4096, "chunk line: 5000 bytes of extensions refused by default");
    /* leading zeros: the digits past the 16th count */
    chunk_line_case(16 + 4095, 0, 0, "chunk line: 4096 digits past the 16th by default");
    chunk_line_case(16 + 4096, 0, 16 + 4096, "chunk line: 4097 digits past the 16th refused by default");
    /* raised for parsers initialised from now on */
    http_parser_set_max_chunk_ext(5000);
    chunk_line_case(0, 5000, 0, "chunk line: 5000 bytes of extensions with the limit 5000");
    chunk_line_case(0, 5001, 1 + 5000, "chunk line: 5001 bytes of extensions refused with the limit 5000");
    chunk_line_case(16 + 4999, 0, 0, "chunk line: 5000 digits past the 16th with the limit 5000");
    chunk_line_case(16 + 5000, 0, 16 + 5000, "chunk line: 5001 digits past the 16th refused with the limit 5000");
    http_parser_set_max_chunk_ext(UINT32_MAX);
    chunk_line_case(0, 12000, 0, "chunk line: 12000 bytes of extensions with the limit UINT32_MAX");
    /* 0: the default again */
    http_parser_set_max_chunk_ext(0);
    chunk_line_case(0, 4096, 0, "chunk line: 4096 bytes of extensions after set(0)");
    chunk_line_case(0, 4097, 1 + 4096, "chunk line: 4097 bytes of extensions refused after set(0)");
}

/* http_parser_set_layer_mode and http_parser_get_layer_reasons (the layer's additions): an
 * obs-fold (the layer's default accepts it, as http-parser does) is refused in strict mode,
 * accepted in defensive mode with the connection closed after it, and read on in monitor mode;
 * the verdict names it. */
static int mode_messages;
static uint32_t mode_reasons;
static int mode_keep_alive;
static int mode_on_message_complete(http_parser *p)
{
    mode_messages++;
    mode_reasons = http_parser_get_layer_reasons(p);
    mode_keep_alive = http_should_keep_alive(p);
    return 0;
}

static void layer_mode(void)
{
    static const char in[] = "GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\nGET / HTTP/1.1\r\n\r\n";
    static const char *const modes[3] = {"strict", "defensive", "monitor"};
    static const int want_msgs[3] = {0, 1, 2}, want_err[3] = {1, 1, 0};
    http_parser_settings s;
    http_parser_settings_init(&s);
    s.on_message_complete = mode_on_message_complete;
    for (int i = 0; i < 3; i++) {
        http_parser p;
        http_parser_init(&p, HTTP_REQUEST);
        int rc = http_parser_set_layer_mode(&p, modes[i]);
        mode_messages = 0, mode_reasons = 0, mode_keep_alive = -1;
        http_parser_execute(&p, &s, in, sizeof in - 1);
        enum http_errno e = HTTP_PARSER_ERRNO(&p);
        int ok = rc == 0 && mode_messages == want_msgs[i] && (e != HPE_OK) == want_err[i];
        if (i == 1) ok = ok && e == HPE_CLOSED_CONNECTION && mode_keep_alive == 0 && mode_reasons == 1u << 2;
        if (i == 2) ok = ok && mode_keep_alive == 1 && mode_reasons == 0;
        if (i == 0) ok = ok && http_parser_get_layer_reasons(&p) == 1u << 2; /* OBS_FOLD, refused */
        t_check(ok, "http_parser_set_layer_mode", "%s: rc %d, %d messages, %s, keep-alive %d, reasons 0x%x", modes[i],
                rc, mode_messages, http_errno_name(e), mode_keep_alive, (unsigned)mode_reasons);
    }
    http_parser p;
    http_parser_init(&p, HTTP_REQUEST);
    t_check(http_parser_set_layer_mode(&p, "lenient") == -1 && http_parser_set_layer_mode(&p, NULL) == -1,
            "http_parser_set_layer_mode: an unknown mode", "accepted");
}

static void names(void)
{
    t_check(http_parser_version() == 0x020904, "version", "%lx", http_parser_version());
    t_check(!strcmp(http_method_str(HTTP_MSEARCH), "M-SEARCH") && !strcmp(http_method_str(HTTP_SOURCE), "SOURCE") &&
                !strcmp(http_method_str((enum http_method)99), "<unknown>"),
            "method_str", "wrong");
    t_check(!strcmp(http_status_str(HTTP_STATUS_NOT_FOUND), "Not Found") &&
                !strcmp(http_status_str((enum http_status)999), "<unknown>"),
            "status_str", "wrong");
    t_check(!strcmp(http_errno_name(HPE_INVALID_URL), "HPE_INVALID_URL") &&
                !strcmp(http_errno_description(HPE_PAUSED), "parser is paused") &&
                HPE_INVALID_TRANSFER_ENCODING == 33 && HTTP_SOURCE == 33 && F_CONTENTLENGTH == 128,
            "errno names and values", "wrong");
}

static void parse_url(void)
{
    static const struct {
        const char *url;
        int connect, rc;
        const char *want; /* field:value ... port=N */
    } u[] = {
        {"http://user:pw@example.com:8080/p/a?q=1#frag", 0, 0,
         "schema=http host=example.com port=8080 path=/p/a query=q=1 fragment=frag userinfo=user:pw port#8080"},
        {"/just/a/path?x", 0, 0, "path=/just/a/path query=x port#0"},
        {"http://[::1]:443/", 0, 0, "schema=http host=::1 port=443 path=/ port#443"},
        {"example.com:443", 1, 0, "host=example.com port=443 port#443"},
        {"example.com:443", 0, 1, ""},
        {"/path", 1, 1, ""},
        {"http://h:65536/", 0, 1, ""},
        {"http://a b/", 0, 1, ""},
        {"", 0, 1, ""},
        {"http:///x", 0, 1, ""},
        {"*", 0, 0, "path=* port#0"}, /* a path to http-parser */
    };
    static const char *const names[] = {"schema", "host", "port", "path", "query", "fragment", "userinfo"};
    for (size_t i = 0; i < sizeof u / sizeof *u; i++) {
        struct http_parser_url r;
        http_parser_url_init(&r);
        int rc = http_parser_parse_url(u[i].url, strlen(u[i].url), u[i].connect, &r);
        t_buf b = {0};
        if (rc == 0) {
            for (int f = 0; f < UF_MAX; f++)
                if (r.field_set & (1 << f)) {
                    t_buf_printf(&b, "%s=", names[f]);
                    t_buf_put(&b, u[i].url + r.field_data[f].off, r.field_data[f].len);
                    t_buf_put(&b, " ", 1);
                }
            t_buf_printf(&b, "port#%u", r.port);
        }
        char name[120];
        snprintf(name, sizeof name, "parse_url \"%s\" connect=%d", u[i].url, u[i].connect);
        t_check(rc == u[i].rc && (rc || !strcmp(b.s, u[i].want)), name, "rc %d got \"%s\"", rc, b.s ? b.s : "");
        t_buf_free(&b);
    }
}

/* Settings may change between execute() calls, as in http-parser, which reads them at each
 * callback: a chunk that completes under settings with on_chunk_complete gets the call, also
 * after settings without one (the layer then drops that callback from simdhttp's table,
 * t_chunk_header, and takes it back at the next call that has one, pass). */
static int cc_headers, cc_completes;
static int cc_header(http_parser *p)
{
    (void)p;
    cc_headers++;
    return 0;
}
static int cc_complete(http_parser *p)
{
    (void)p;
    cc_completes++;
    return 0;
}
static void chunk_complete_settings(void)
{
    static const char res[] = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                              "3\r\nabc\r\n3\r\ndef\r\n0\r\n\r\n";
    const size_t len = sizeof res - 1, cut = (size_t)(strstr(res, "def") - res); /* in the 2nd chunk */
    http_parser_settings without, with;
    http_parser_settings_init(&without);
    without.on_chunk_header = cc_header;
    with = without;
    with.on_chunk_complete = cc_complete;
    http_parser p;
    http_parser_init(&p, HTTP_RESPONSE);
    cc_headers = cc_completes = 0;
    size_t n = http_parser_execute(&p, &without, res, cut);
    n += http_parser_execute(&p, &with, res + cut, len - cut);
    t_check(n == len && p.http_errno == HPE_OK && cc_headers == 3 && cc_completes == 2,
            "settings change: on_chunk_complete from the next call", "%zu of %zu bytes, %s, %d headers, %d completes", n, len, http_errno_name((enum http_errno)p.http_errno), cc_headers, cc_completes);
    /* the other way: nothing after the settings lost it, and every one with it throughout */
    http_parser_init(&p, HTTP_RESPONSE);
    cc_completes = 0;
    n = http_parser_execute(&p, &with, res, cut);
    n += http_parser_execute(&p, &without, res + cut, len - cut);
    n += http_parser_execute(&p, &with, res, len); /* the same response again, whole */
    t_check(n == 2 * len && p.http_errno == HPE_OK && cc_completes == 1 + 3,
            "settings change: on_chunk_complete dropped, then back", "%zu of %zu bytes, %d completes", n, 2 * len,
            cc_completes);
}

/* NULL data with a length: an error (the core's INVALID_ARGUMENT), no arithmetic on NULL (the
 * UBSan build of make test traps on it) and nothing read */
static void null_data(void)
{
    http_parser p;
    http_parser_settings s;
    http_parser_settings_init(&s);
    http_parser_init(&p, HTTP_REQUEST);
    size_t n = http_parser_execute(&p, &s, NULL, 5);
    t_check(n == 0 && HTTP_PARSER_ERRNO(&p) != HPE_OK, "NULL data with a length", "%zu, %s", n,
            http_errno_name(HTTP_PARSER_ERRNO(&p)));
}

int main(void)
{
    execute_results();
    chunk_line_limit();
    layer_mode();
    pause_every();
    chunk_complete_settings();
    null_data();
    names();
    parse_url();
    return t_summary();
}
