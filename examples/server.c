/* SPDX-License-Identifier: MIT */
/*
 * examples/server.c: a small HTTP/1.1 server on simdhttp's streaming API. Start here.
 *
 *   make examples                        (builds build/examples/server)
 *   build/examples/server 8080           (0 picks a free port and prints it)
 *   curl -d hello http://127.0.0.1:8080/anything
 *   {"method":"POST","target":"/anything","version":"1.1","fields":5,"trailers":0,
 *    "body_length":5,"body_fnv1a64":"a430d84680aabd0b","keep_alive":true}
 *
 * One thread, one epoll loop, non-blocking sockets, bound to 127.0.0.1 only. Every request is
 * answered with a JSON echo of what the parser saw (method, target, version, number of header
 * fields and trailer fields, decoded body length and its FNV-1a 64 hash), so a test can check
 * the parse from the outside; GET /page serves a small HTML page for browsers.
 *
 * How the parser is used (the part worth reading):
 *   - One simdhttp_parser per connection, initialised once with simdhttp_init() and a set of
 *     callbacks shared by all connections; parser->data points back at the connection.
 *   - Every received buffer goes to simdhttp_execute(). The parser never copies and never
 *     allocates: callbacks receive spans of our buffer, possibly split across reads, so we
 *     append each span to what we keep (method, target) and act on the *_complete events.
 *   - on_headers_complete is where framing is known: reject a body that is too large before it
 *     is sent, and answer "Expect: 100-continue" so the client sends the body.
 *   - on_body receives the decoded body (chunked framing already removed).
 *   - on_message_complete queues the reply. Pipelined requests in one buffer simply produce
 *     several on_message_complete calls, in order, so replies come out in order.
 *   - Returning SIMDHTTP_PAUSE from a callback stops execute() right after that message: we use
 *     it for back-pressure (too many queued replies) and after the last message of a connection.
 *     The unparsed rest stays in our input buffer; simdhttp_resume() and execute() again later.
 *   - Any other error sticks: we map it to a status code (431, 505, 400...), answer with
 *     "Connection: close", stop reading requests and close cleanly.
 *
 * What keeps it up against clients that misbehave on purpose:
 *   - Slow clients (slowloris): a request's head must arrive within --head-timeout seconds of
 *     its first byte (empty lines before it included), and its body at --min-rate bytes per
 *     second on average; otherwise 408 Request Timeout and close. Bytes do not refresh these,
 *     as they refresh the idle timeout between requests.
 *   - The descriptor limit: at EMFILE/ENFILE, accept4() fails while the listening socket stays
 *     readable, so a level-triggered loop would spin. We stop watching the listening socket
 *     until a connection closes (or a second passes), then accept again.
 */
#define _GNU_SOURCE /* accept4 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "simdhttp.h"

/* ---- limits (command-line options override them) ---- */
static struct {
    uint64_t max_body;  /* 413 above this (Content-Length checked before the body arrives) */
    size_t max_url;     /* 414 above this */
    uint32_t max_head;  /* parser limit: HEADER_OVERFLOW -> 431 */
    uint32_t max_fields; /* parser limit: TOO_MANY_HEADERS -> 431 */
    const char *capture_dir; /* if set: every received byte, one file per connection */
    uint64_t idle_ms;   /* idle keep-alive connection, no request in progress: close */
    uint64_t head_ms;   /* a request's head must be complete this long after its first byte */
    uint64_t min_rate;  /* a body must come at this many bytes/s on average (after head_ms) */
} opt = {8u << 20, 8192, 16384, 100, NULL, 15000, 10000, 1024};

#define IN_SIZE 16384        /* one read at most this much */
#define OUT_HIGH (256 * 1024) /* stop parsing new requests while this much is unsent */
#define DRAIN_MS 2000        /* wait this long for the peer's FIN after our error reply */
#define MAX_METHOD 32
#define MAX_URL_CAP 65536     /* --max-url at most this */

static const char PAGE[] =
    "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>simdhttp example</title></head>\n"
    "<body><h1>simdhttp example server</h1>\n"
    "<p id=\"static\">served by examples/server.c</p>\n<pre id=\"echo\">(no script)</pre>\n"
    "<script>\n"
    "// A synchronous request, so the answer is in the DOM before the load event: headless\n"
    "// Chromium's --dump-dom then shows how the server parsed a request the browser made.\n"
    "var x = new XMLHttpRequest();\n"
    "x.open('POST', '/from-browser?q=1', false);\n"
    "x.setRequestHeader('Content-Type', 'text/plain');\n"
    "x.send('hello from the browser');\n"
    "document.getElementById('echo').textContent = 'echo: ' + x.responseText;\n"
    "</script></body></html>\n";

/* ---- one connection ---- */
struct conn {
    int fd, capture_fd;
    unsigned id;
    simdhttp_parser parser;
    struct conn *prev, *next; /* all connections, for the timeout sweep */
    uint64_t deadline;  /* ms: idle (refreshed by traffic) or drain deadline */
    uint64_t req_start; /* ms: first byte of the request in progress (0: between requests) */
    uint64_t body_start; /* ms: its head completed (0: head not complete) */
    uint64_t body_got;  /* body bytes received since */
    /* input: bytes read but not yet parsed (after a pause) are in[in_off..in_len) */
    char in[IN_SIZE];
    size_t in_off, in_len;
    /* output: replies not yet written are out[out_off..out_len) */
    char *out;
    size_t out_off, out_len, out_cap;
    int closing;    /* no more requests: close once the output is written */
    int draining;   /* write side shut down; reading and dropping until the peer's FIN */
    int peer_eof;
    uint32_t events; /* epoll interest currently registered */
    /* the request being parsed */
    char method[MAX_METHOD];
    size_t method_len;
    char *target;   /* opt.max_url bytes */
    size_t target_len;
    char name[16];  /* a field name's first bytes: enough to recognise Host and Expect */
    size_t name_len;
    char value[16]; /* an Expect value's first bytes */
    size_t value_len, value_end; /* all its bytes; up to its last non-SP/HTAB byte */
    int in_expect, expect_continue, expect_other, hosts;
    unsigned fields, trailers;
    uint64_t body_len, body_hash;
    int status;     /* set by a callback that rejects the request... */
    const char *why; /* ...and why */
};

static struct conn *all_conns;
static int epfd, listen_fd, accept_paused;
static volatile sig_atomic_t stop;
static unsigned long n_requests, n_errors;

/* ---- output helpers ---- */
static int out_put(struct conn *c, const void *s, size_t n)
{
    if (c->out_len + n > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : 4096;
        while (cap < c->out_len + n) cap *= 2;
        char *p = realloc(c->out, cap);
        if (!p) return -1;
        c->out = p;
        c->out_cap = cap;
    }
    memcpy(c->out + c->out_len, s, n);
    c->out_len += n;
    return 0;
}

static int out_printf(struct conn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int out_printf(struct conn *c, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof buf) return -1;
    return out_put(c, buf, (size_t)n);
}

/* FNV-1a 64: a tiny hash the tests recompute to check the decoded body byte for byte. */
#define FNV_OFFSET 0xcbf29ce484222325ull
static uint64_t fnv1a64(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    return h;
}

static const char *status_text(int status)
{
    switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 400: return "Bad Request";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 417: return "Expectation Failed";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 505: return "HTTP Version Not Supported";
    default: return "Error";
    }
}

/* ---- the parser callbacks: each gets the parser; parser->data is our connection ---- */
#define CONN(p) ((struct conn *)(p)->data)
/* Refuse the request: any non-zero return other than SIMDHTTP_PAUSE (or the SKIP_BODY values
 * of on_headers_complete) stops execute() with SIMDHTTP_E_USER; we remember the status. */
#define REFUSE(c, code, reason) ((c)->status = (code), (c)->why = (reason), -1)

static uint64_t now(void) /* ms, monotonic */
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int on_message_begin(simdhttp_parser *p)
{
    struct conn *c = CONN(p);
    if (!c->req_start) c->req_start = now(); /* the head clock (it may have started at an empty line) */
    c->method_len = c->target_len = 0;
    c->fields = c->trailers = 0;
    c->hosts = c->expect_continue = c->expect_other = 0;
    c->body_len = 0;
    c->body_hash = FNV_OFFSET;
    c->status = 0;
    c->why = NULL;
    return 0;
}

/* Spans may arrive in pieces (a method split across two reads): append. */
static int on_method(simdhttp_parser *p, const char *at, size_t len)
{
    struct conn *c = CONN(p);
    if (c->method_len + len > MAX_METHOD) /* RFC 9110 9.1: a method we cannot know */
        return REFUSE(c, 501, "method longer than this server knows");
    memcpy(c->method + c->method_len, at, len);
    c->method_len += len;
    return 0;
}

static int on_url(simdhttp_parser *p, const char *at, size_t len)
{
    struct conn *c = CONN(p);
    if (c->target_len + len > opt.max_url) return REFUSE(c, 414, "request-target longer than --max-url");
    memcpy(c->target + c->target_len, at, len);
    c->target_len += len;
    return 0;
}

/* Keep the first `cap` bytes of an element that arrives in spans; *have counts all of them. */
static void keep_prefix(char *dst, size_t cap, size_t *have, const char *at, size_t len)
{
    if (*have < cap) memcpy(dst + *have, at, len < cap - *have ? len : cap - *have);
    *have += len;
}

static int on_header_field(simdhttp_parser *p, const char *at, size_t len)
{
    struct conn *c = CONN(p);
    keep_prefix(c->name, sizeof c->name, &c->name_len, at, len);
    return 0;
}

static int name_is(const struct conn *c, const char *s)
{
    size_t n = strlen(s);
    return c->name_len == n && strncasecmp(c->name, s, n) == 0; /* field names are case-blind */
}

static int on_header_field_complete(simdhttp_parser *p)
{
    struct conn *c = CONN(p);
    c->in_expect = name_is(c, "expect");
    if (name_is(c, "host") && !(p->flags & SIMDHTTP_F_TRAILERS)) c->hosts++;
    c->value_len = c->value_end = 0;
    return 0;
}

static int on_header_value(simdhttp_parser *p, const char *at, size_t len)
{
    struct conn *c = CONN(p);
    if (c->in_expect) {
        /* The value span keeps trailing OWS (see simdhttp.h), of any length and possibly in
         * later spans: remember where the last non-SP/HTAB byte ends, and compare up to it. */
        for (size_t i = len; i > 0; i--)
            if (at[i - 1] != ' ' && at[i - 1] != '\t') {
                c->value_end = c->value_len + i;
                break;
            }
        keep_prefix(c->value, sizeof c->value, &c->value_len, at, len);
    }
    return 0;
}

static int on_header_value_complete(simdhttp_parser *p)
{
    struct conn *c = CONN(p);
    /* The same callbacks deliver trailer fields after a chunked body: F_TRAILERS tells. */
    if (p->flags & SIMDHTTP_F_TRAILERS) c->trailers++;
    else c->fields++;
    if (c->in_expect) {
        /* trimmed first: "100-continue" followed by any SP/HTAB is 100-continue */
        if (c->value_end == 12 && strncasecmp(c->value, "100-continue", 12) == 0)
            c->expect_continue = 1;
        else c->expect_other = 1;
    }
    c->name_len = 0;
    return 0;
}

static int on_headers_complete(simdhttp_parser *p)
{
    struct conn *c = CONN(p);
    int v11 = p->http_major == 1 && p->http_minor == 1;
    int has_body = (p->flags & SIMDHTTP_F_CHUNKED) || p->content_length > 0;

    /* RFC 9112 3.2: an HTTP/1.1 request without exactly one Host field is a 400. */
    if (v11 && c->hosts != 1) return REFUSE(c, 400, "HTTP/1.1 request without exactly one Host");
    /* CONNECT would turn the connection into a tunnel (the parser stops with
     * SIMDHTTP_E_PAUSED_UPGRADE after the head); this server does not do tunnels. */
    if (p->method == SIMDHTTP_METHOD_CONNECT) return REFUSE(c, 501, "CONNECT: no tunnels here");
    /* Framing is known here, before any body byte: refuse a declared body that is too large
     * now, so a client waiting for 100 Continue never sends it. */
    if ((p->flags & SIMDHTTP_F_CONTENT_LENGTH) && p->content_length > opt.max_body)
        return REFUSE(c, 413, "Content-Length over --max-body");
    /* RFC 9110 10.1.1: 417 for an expectation we do not know; for 100-continue, tell the
     * client to go on (only HTTP/1.1 clients wait for it, and only if a body follows). */
    if (c->expect_other) return REFUSE(c, 417, "an expectation other than 100-continue");
    if (c->expect_continue && v11 && has_body) {
        static const char cont[] = "HTTP/1.1 100 Continue\r\n\r\n";
        if (out_put(c, cont, sizeof cont - 1)) return -1;
    }
    c->body_start = now(); /* the head is in: from now on the body's rate counts */
    c->body_got = 0;
    return 0;
}

static int on_body(simdhttp_parser *p, const char *at, size_t len)
{
    struct conn *c = CONN(p);
    c->body_len += len;
    c->body_got += len;
    if (c->body_len > opt.max_body) /* a chunked body can grow past the limit */
        return REFUSE(c, 413, "chunked body over --max-body");
    c->body_hash = fnv1a64(c->body_hash, at, len);
    return 0;
}

/* The echo: JSON, so a test (or a person with curl) sees exactly what was parsed. */
static int on_message_complete(simdhttp_parser *p)
{
    struct conn *c = CONN(p);
    int keep = simdhttp_should_keep_alive(p);
    static char body[512 + 2 * MAX_URL_CAP]; /* one thread: one buffer is enough */
    size_t n = 0;
    const char *ctype = "application/json";

    n_requests++;
    c->req_start = c->body_start = 0; /* between requests: only the idle timeout applies */
    if (p->method == SIMDHTTP_METHOD_GET && c->target_len == 5 && memcmp(c->target, "/page", 5) == 0) {
        ctype = "text/html; charset=utf-8";
        n = sizeof PAGE - 1;
        memcpy(body, PAGE, n);
    } else {
        n = (size_t)snprintf(body, sizeof body, "{\"method\":\"%.*s\",\"target\":\"",
                             (int)c->method_len, c->method);
        for (size_t i = 0; i < c->target_len; i++) { /* the target is VCHAR only: escape 2 */
            if (c->target[i] == '"' || c->target[i] == '\\') body[n++] = '\\';
            body[n++] = c->target[i];
        }
        n += (size_t)snprintf(body + n, sizeof body - n,
                              "\",\"version\":\"%u.%u\",\"fields\":%u,\"trailers\":%u,"
                              "\"body_length\":%llu,\"body_fnv1a64\":\"%016llx\","
                              "\"keep_alive\":%s}\n",
                              p->http_major, p->http_minor, c->fields, c->trailers,
                              (unsigned long long)c->body_len, (unsigned long long)c->body_hash,
                              keep ? "true" : "false");
    }
    /* We answer HTTP/1.1 even to 1.0 clients (RFC 9110 6.2); a 1.0 client that asked for
     * keep-alive must be told it got it. */
    if (out_printf(c, "HTTP/1.1 200 OK\r\nServer: simdhttp-example\r\nContent-Type: %s\r\n"
                      "Content-Length: %zu\r\n%s\r\n", ctype, n,
                   !keep ? "Connection: close\r\n"
                   : p->http_minor == 0 ? "Connection: keep-alive\r\n" : ""))
        return -1;
    if (p->method != SIMDHTTP_METHOD_HEAD && out_put(c, body, n)) return -1;

    if (!keep) c->closing = 1;
    /* Pause after this message if the connection ends here (anything after it is not to be
     * parsed) or if the client pipelines faster than it reads our replies (back-pressure). */
    if (c->closing || c->out_len - c->out_off > OUT_HIGH) return SIMDHTTP_PAUSE;
    return 0;
}

static const simdhttp_callbacks callbacks = {
    .on_message_begin = on_message_begin,
    .on_method = on_method,
    .on_url = on_url,
    .on_header_field = on_header_field,
    .on_header_field_complete = on_header_field_complete,
    .on_header_value = on_header_value,
    .on_header_value_complete = on_header_value_complete,
    .on_headers_complete = on_headers_complete,
    .on_body = on_body,
    .on_message_complete = on_message_complete,
};

/* ---- errors: a parser error becomes one reply, then the connection closes ---- */
static int status_for(const struct conn *c, simdhttp_errno err)
{
    switch (err) {
    case SIMDHTTP_E_USER: return c->status ? c->status : 500; /* 500: out of memory */
    case SIMDHTTP_E_HEADER_OVERFLOW:
    case SIMDHTTP_E_TOO_MANY_HEADERS: return 431;
    case SIMDHTTP_E_INVALID_VERSION: return 505;
    default: return 400;
    }
}

static void reply_error(struct conn *c, simdhttp_errno err)
{
    char body[512];
    int status = status_for(c, err);
    int n = snprintf(body, sizeof body, "%d %s: %s at byte %llu: %s\n", status,
                     status_text(status), simdhttp_errno_name(err),
                     (unsigned long long)simdhttp_get_error_offset(&c->parser),
                     err == SIMDHTTP_E_USER ? (c->why ? c->why : "out of memory")
                                            : simdhttp_get_error_reason(&c->parser));
    if (n < 0) n = 0;
    if ((size_t)n >= sizeof body) n = sizeof body - 1;
    n_errors++;
    out_printf(c, "HTTP/1.1 %d %s\r\nServer: simdhttp-example\r\nContent-Type: text/plain\r\n"
                  "Content-Length: %d\r\nConnection: close\r\n\r\n",
               status, status_text(status), n);
    out_put(c, body, (size_t)n);
    c->closing = 1;
}

/* Parse what is buffered, until it is all consumed, the connection is closing, or too many
 * replies wait to be written. */
static void conn_parse(struct conn *c)
{
    while (c->in_off < c->in_len && !c->closing && c->out_len - c->out_off <= OUT_HIGH) {
        const char *start = c->in + c->in_off;
        simdhttp_errno err = simdhttp_execute(&c->parser, start, c->in_len - c->in_off);
        if (err == SIMDHTTP_OK) {
            c->in_off = c->in_len; /* every byte consumed */
        } else if (err == SIMDHTTP_E_PAUSED) {
            /* A callback paused: error_pos is the first byte not consumed. */
            c->in_off = (size_t)(simdhttp_get_error_pos(&c->parser) - c->in);
            simdhttp_resume(&c->parser);
        } else if (err == SIMDHTTP_E_PAUSED_UPGRADE) {
            /* "Connection: upgrade" + "Upgrade: x": we answered in plain HTTP/1.1, which
             * declines the upgrade (RFC 9110 7.8), so the next bytes are HTTP/1.1 again. */
            c->in_off = (size_t)(simdhttp_get_error_pos(&c->parser) - c->in);
            simdhttp_resume_after_upgrade(&c->parser);
        } else {
            reply_error(c, err);
        }
    }
    if (c->in_off == c->in_len) c->in_off = c->in_len = 0;
}

/* ---- sockets ---- */
static void conn_close(struct conn *c)
{
    epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    if (c->capture_fd >= 0) close(c->capture_fd);
    if (c->prev) c->prev->next = c->next;
    else all_conns = c->next;
    if (c->next) c->next->prev = c->prev;
    free(c->out);
    free(c->target);
    free(c);
    /* a descriptor is free again: accept what waits in the backlog */
    if (accept_paused) {
        struct epoll_event e = {.events = EPOLLIN, .data.ptr = NULL};
        epoll_ctl(epfd, EPOLL_CTL_MOD, listen_fd, &e);
        accept_paused = 0;
    }
}

/* Register what we wait for: input unless parsing is held back; output while some is left. */
static void conn_update(struct conn *c)
{
    uint32_t ev = 0;
    if (c->draining || (!c->closing && !c->peer_eof && c->in_len == 0)) ev |= EPOLLIN;
    if (c->out_off < c->out_len) ev |= EPOLLOUT;
    if (ev != c->events) {
        struct epoll_event e = {.events = ev, .data.ptr = c};
        epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &e);
        c->events = ev;
    }
}

/* Write what we can. @return -1 if the connection was closed. */
static int conn_flush(struct conn *c)
{
    while (c->out_off < c->out_len) {
        ssize_t n = write(c->fd, c->out + c->out_off, c->out_len - c->out_off);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        if (n <= 0) return conn_close(c), -1; /* peer gone */
        c->out_off += (size_t)n;
        c->deadline = now() + opt.idle_ms;
    }
    if (c->out_off == c->out_len) c->out_off = c->out_len = 0;
    if (c->out_len == 0 && (c->closing || c->peer_eof) && !c->draining) {
        if (c->peer_eof) return conn_close(c), -1;
        /* Closing with unread input makes the kernel send RST, which can destroy our reply
         * in the client's receive buffer. Send FIN instead, then read and drop until the
         * client closes too (bounded by DRAIN_MS). */
        shutdown(c->fd, SHUT_WR);
        c->draining = 1;
        c->deadline = now() + DRAIN_MS;
    }
    return 0;
}

static void conn_readable(struct conn *c)
{
    if (c->draining) { /* after our error reply: drop what comes until the peer's FIN */
        char drop[4096];
        ssize_t n = read(c->fd, drop, sizeof drop);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) conn_close(c);
        return;
    }
    if (c->in_len) return; /* the previous read is not fully parsed yet (paused) */
    ssize_t n = read(c->fd, c->in, sizeof c->in);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (n < 0) return conn_close(c);
    if (n == 0) {
        /* The client finished sending. finish() tells whether it stopped inside a message (a
         * response body delimited by the close would end here; requests have none). */
        c->peer_eof = 1;
        if (!c->closing && simdhttp_finish(&c->parser) != SIMDHTTP_OK) n_errors++;
    } else {
        if (c->capture_fd >= 0 && write(c->capture_fd, c->in, (size_t)n) != n) {
            close(c->capture_fd);
            c->capture_fd = -1;
        }
        c->in_off = 0;
        c->in_len = (size_t)n;
        c->deadline = now() + opt.idle_ms;
        if (!c->req_start) c->req_start = now(); /* a request (or an empty line) begins */
        conn_parse(c);
    }
    if (conn_flush(c) == 0) conn_update(c);
}

static int conn_writable(struct conn *c)
{
    if (conn_flush(c)) return -1;
    /* Back-pressure released: go on with the requests still buffered. */
    if (c->in_len && !c->closing && c->out_len - c->out_off <= OUT_HIGH) {
        conn_parse(c);
        if (conn_flush(c)) return -1;
    }
    conn_update(c);
    return 0;
}

static void accept_all(int lfd)
{
    static unsigned next_id;
    for (;;) {
        int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED || errno == EPROTO) continue;
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                /* Out of descriptors (or memory): the listening socket stays readable, so
                 * level-triggered epoll would wake us at once, forever. Stop watching it until
                 * a connection closes (conn_close) or the next sweep; the clients wait in the
                 * backlog meanwhile. */
                struct epoll_event e = {.events = 0, .data.ptr = NULL};
                epoll_ctl(epfd, EPOLL_CTL_MOD, lfd, &e);
                accept_paused = 1;
            }
            return; /* EAGAIN: no more for now */
        }
        struct conn *c = calloc(1, sizeof *c);
        char *target = malloc(opt.max_url);
        if (!c || !target) {
            free(c);
            free(target);
            close(fd);
            continue;
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        c->fd = fd;
        c->target = target;
        c->id = next_id++;
        c->capture_fd = -1;
        if (opt.capture_dir) {
            char path[4096];
            snprintf(path, sizeof path, "%s/conn-%06u.raw", opt.capture_dir, c->id);
            c->capture_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        }
        /* One parser per connection: requests only, strict defaults plus our limits. */
        simdhttp_config cfg = {0};
        cfg.max_head_size = opt.max_head;
        cfg.max_fields = opt.max_fields;
        simdhttp_init(&c->parser, SIMDHTTP_REQUEST, &callbacks, &cfg);
        c->parser.data = c;
        c->deadline = now() + opt.idle_ms;
        c->next = all_conns;
        if (all_conns) all_conns->prev = c;
        all_conns = c;
        c->events = EPOLLIN;
        struct epoll_event e = {.events = EPOLLIN, .data.ptr = c};
        if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &e) < 0) conn_close(c);
    }
}

/* A request too slow to be served: 408 if we may still answer it (no error reply is on its
 * way), then close as after an error. @return -1 if the connection was closed. */
static int conn_timeout(struct conn *c, const char *why)
{
    if (c->closing || c->draining) return conn_close(c), -1;
    char body[160];
    int n = snprintf(body, sizeof body, "408 Request Timeout: %s\n", why);
    n_errors++;
    out_printf(c, "HTTP/1.1 408 Request Timeout\r\nServer: simdhttp-example\r\nContent-Type: text/plain\r\n"
                  "Content-Length: %d\r\nConnection: close\r\n\r\n%s", n, body);
    c->closing = 1;
    c->in_off = c->in_len = 0; /* what was read of the request is dropped */
    if (conn_flush(c)) return -1;
    conn_update(c);
    return 0;
}

/* Once a second: idle and drain deadlines; a head not complete in time; a body too slow. */
static void sweep(uint64_t t)
{
    for (struct conn *c = all_conns, *next; c; c = next) {
        next = c->next;
        if (t >= c->deadline) {
            conn_close(c);
        } else if (c->req_start && !c->closing && !c->draining) {
            if (!c->body_start && t - c->req_start >= opt.head_ms)
                conn_timeout(c, "the request head did not arrive in time");
            else if (c->body_start && t - c->body_start >= opt.head_ms &&
                     c->body_got < opt.min_rate * (t - c->body_start) / 1000)
                conn_timeout(c, "the request body comes slower than the minimum rate");
        }
    }
}

static void on_signal(int sig) { (void)sig; stop = 1; }

static int usage(void)
{
    fprintf(stderr, "usage: server [--capture DIR] [--max-body N] [--max-url N] [--max-head N]\n"
                    "              [--max-fields N] [--idle-timeout S] [--head-timeout S]\n"
                    "              [--min-rate BYTES_PER_S] PORT   (PORT 0: any free port)\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *port_arg = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        unsigned long long v = 0;
        if (strcmp(a, "--capture") == 0 && i + 1 < argc) { opt.capture_dir = argv[++i]; continue; }
        if (a[0] == '-' && a[1] == '-' && i + 1 < argc) {
            char *end;
            v = strtoull(argv[++i], &end, 10);
            if (*end || v == 0 || v > UINT32_MAX) return usage();
            if (strcmp(a, "--max-body") == 0) opt.max_body = v;
            else if (strcmp(a, "--max-url") == 0 && v <= MAX_URL_CAP) opt.max_url = (size_t)v;
            else if (strcmp(a, "--max-head") == 0) opt.max_head = (uint32_t)v;
            else if (strcmp(a, "--max-fields") == 0) opt.max_fields = (uint32_t)v;
            else if (strcmp(a, "--idle-timeout") == 0) opt.idle_ms = v * 1000;
            else if (strcmp(a, "--head-timeout") == 0) opt.head_ms = v * 1000;
            else if (strcmp(a, "--min-rate") == 0) opt.min_rate = v;
            else return usage();
            continue;
        }
        if (port_arg || a[0] == '-') return usage();
        port_arg = a;
    }
    if (!port_arg) return usage();
    char *end;
    unsigned long port = strtoul(port_arg, &end, 10);
    if (*end || port > 65535) return usage();

    int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK); /* an example: never reachable from outside */
    socklen_t alen = sizeof addr;
    if (lfd < 0 || bind(lfd, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(lfd, 128) < 0 ||
        getsockname(lfd, (struct sockaddr *)&addr, &alen) < 0) {
        perror("server: listen");
        return 1;
    }
    printf("listening on http://127.0.0.1:%u/ (isa: %s)\n", ntohs(addr.sin_port), simdhttp_isa_name());
    fflush(stdout);

    struct sigaction sa = {.sa_handler = on_signal}; /* no SA_RESTART: epoll_wait returns */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN); /* a write to a closed peer is an error return, not a kill */

    epfd = epoll_create1(EPOLL_CLOEXEC);
    listen_fd = lfd;
    struct epoll_event le = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(epfd, EPOLL_CTL_ADD, lfd, &le);

    uint64_t last_sweep = now();
    while (!stop) {
        struct epoll_event ev[64];
        int n = epoll_wait(epfd, ev, 64, 1000);
        for (int i = 0; i < n; i++) {
            struct conn *c = ev[i].data.ptr;
            if (!c) { accept_all(lfd); continue; }
            /* A connection closed by an earlier event in this batch cannot be here: each
             * connection has one registration, so it appears at most once per batch. */
            /* Each handler returns -1 once it closed (and freed) the connection. */
            if ((ev[i].events & EPOLLOUT) && conn_writable(c)) continue;
            if (ev[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) conn_readable(c);
        }
        uint64_t t = now();
        if (t - last_sweep >= 1000) {
            last_sweep = t;
            sweep(t);
            if (accept_paused) { /* a descriptor may have been freed elsewhere: try again */
                struct epoll_event e = {.events = EPOLLIN, .data.ptr = NULL};
                epoll_ctl(epfd, EPOLL_CTL_MOD, lfd, &e);
                accept_paused = 0;
            }
        }
    }
    while (all_conns) conn_close(all_conns);
    close(epfd);
    close(lfd);
    fprintf(stderr, "server: %lu requests, %lu errors\n", n_requests, n_errors);
    return 0;
}
