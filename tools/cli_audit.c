/* SPDX-License-Identifier: MIT */
/* simdhttp audit: desync verdicts for captured HTTP/1.x streams (docs/cli.md, docs/smuggling.md).
 *
 * Each input is one direction of one connection (a file; a directory as tcpflow writes it, one
 * file per flow; stdin). It is parsed in three readings, each a set of lenient flags over the
 * strict parser: strict (none), defensive (the deviations that still frame one way) and monitor
 * (everything that can be framed at all, reading on after a close). Per message (as the monitor
 * reading frames it) the reasons are the parser's verdict (parser->reasons: what it accepted,
 * and what the strict parser refused, found by parsing the message again with the refused
 * deviation's flag until it parses: peel), with two more of the audit's own: a name that is a
 * framing name's lookalike at any length ("Transfer---Encoding"; the parser notes those of the
 * framing names' own lengths) and a message after one that closed. Per stream, the first byte where
 * the readings frame the bytes differently is where a lenient front end and a strict back end
 * would desynchronise. */
#define _POSIX_C_SOURCE 200809L /* read(2), open(2), opendir(3), fstat(2) */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "simdhttp.h"

/* ---- the readings ---- */
enum { STRICT, DEFENSIVE, MONITOR, NREADINGS };
static const char *const reading_names[NREADINGS] = {"strict", "defensive", "monitor"};
/* the modes' lenient flags (include/simdhttp.h); defensive without its close after an
 * AMBIGUOUS message, so that the readings part only where they frame the bytes differently */
static const unsigned reading_flags[NREADINGS] = {
    SIMDHTTP_MODE_STRICT,
    SIMDHTTP_MODE_DEFENSIVE & ~(unsigned)SIMDHTTP_CLOSE_AFTER_AMBIGUOUS,
    SIMDHTTP_MODE_MONITOR,
};

typedef struct msg {
    uint64_t start, end, body; /* [start, end) of the stream; body bytes */
    uint64_t reasons;          /* SIMDHTTP_REASON_BIT(r) */
    int type, method, major, minor, status;
} msg;

typedef struct reading {
    msg *m;
    size_t n, cap;
    simdhttp_errno err;  /* where it stopped: an error, PAUSED_UPGRADE, INVALID_EOF_STATE, or OK */
    uint64_t err_off;
    const char *err_reason;
    uint32_t err_reasons; /* the parser's verdict at the error (what it refused among them) */
    /* while parsing */
    uint64_t base; /* where the reading began */
    msg cur;
    char name[64], value[512]; /* a field line that comes in spans (longer: cut, see on_field) */
    size_t nlen, vlen;
    const uint8_t *req; /* a response stream: the methods of the requests it answers, in order */
    size_t nreq, answered;
    int closed;   /* the last message closed the connection */
    int complete; /* on_message_complete came: the message ends where execute() stopped */
} reading;

static void die_oom(void)
{
    fprintf(stderr, "simdhttp audit: %s\n", strerror(ENOMEM));
    exit(CLI_EXIT_IO);
}

static reading *rd_of(simdhttp_parser *p) { return (reading *)p->data; }

static int ieq(const char *a, size_t n, const char *lit)
{
    if (strlen(lit) != n) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = a[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c + 32);
        if (c != lit[i]) return 0;
    }
    return 1;
}

/* A name that is not Content-Length or Transfer-Encoding but has their letters, its other
 * bytes aside ("Content_Length", "Transfer---Encoding", "Content-Length2"): hops that
 * normalise names (CGI-style '_' for '-') see the framing field the parser did not (RFC 9110
 * 5.1). */
static int framing_lookalike(const char *s, size_t n)
{
    char b[32];
    size_t k = 0;
    unsigned id = simdhttp_field_id(s, n);
    if (id == SIMDHTTP_FIELD_CONTENT_LENGTH || id == SIMDHTTP_FIELD_TRANSFER_ENCODING) return 0;
    for (size_t i = 0; i < n && k < sizeof b; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c + 32);
        if (c >= 'a' && c <= 'z') b[k++] = c;
    }
    return ieq(b, k, "contentlength") || ieq(b, k, "transferencoding");
}

static int on_message_begin(simdhttp_parser *p)
{
    reading *r = rd_of(p);
    r->cur.start = r->n ? r->m[r->n - 1].end : r->base;
    r->cur.body = 0;
    r->cur.reasons = r->closed ? SIMDHTTP_REASON_BIT(SIMDHTTP_R_DATA_AFTER_CLOSE) : 0;
    r->nlen = r->vlen = 0;
    return 0;
}

/* One field line of the head: a lookalike of any length (the parser's verdict has the rest). */
static void inspect_field(reading *r, const char *name, size_t nlen)
{
    if (framing_lookalike(name, nlen)) r->cur.reasons |= SIMDHTTP_REASON_BIT(SIMDHTTP_R_FRAMING_LOOKALIKE);
}

/* Framing fields that are one token come whole; lists, duplicates and lines that cross reads
 * come in spans. */
static int on_header(simdhttp_parser *p, const char *name, size_t nlen, const char *value, size_t vlen)
{
    (void)value, (void)vlen;
    if (!(p->flags & SIMDHTTP_F_TRAILERS)) inspect_field(rd_of(p), name, nlen);
    return 0;
}

static void keep(char *b, size_t cap, size_t *len, const char *at, size_t n)
{
    if (n > cap - *len) n = cap - *len;
    memcpy(b + *len, at, n);
    *len += n;
}

static int on_header_field(simdhttp_parser *p, const char *at, size_t n)
{
    reading *r = rd_of(p);
    keep(r->name, sizeof r->name, &r->nlen, at, n);
    return 0;
}

static int on_header_value(simdhttp_parser *p, const char *at, size_t n)
{
    reading *r = rd_of(p);
    keep(r->value, sizeof r->value, &r->vlen, at, n);
    return 0;
}

/* A name cut at 64 bytes names no framing field; a Transfer-Encoding value cut at 512 bytes
 * is inspected as far as it was kept. */
static int on_header_value_complete(simdhttp_parser *p)
{
    reading *r = rd_of(p);
    if (!(p->flags & SIMDHTTP_F_TRAILERS) && r->nlen < sizeof r->name) inspect_field(r, r->name, r->nlen);
    r->nlen = r->vlen = 0;
    return 0;
}

static int on_headers_complete(simdhttp_parser *p)
{
    reading *r = rd_of(p);
    msg *c = &r->cur;
    c->type = p->type;
    c->method = p->method;
    c->major = p->http_major;
    c->minor = p->http_minor;
    c->status = p->status_code;
    c->reasons |= p->reasons; /* the head's verdict (a message cut in its body keeps it) */
    /* a response: its request says whether a body follows (HEAD; a 2xx to CONNECT), as the
     * client reads it (RFC 9112 6.3); an interim 1xx answers none */
    if (p->type == SIMDHTTP_RESPONSE && r->req && (p->status_code >= 200 || p->status_code == 101)) {
        int method = r->answered < r->nreq ? r->req[r->answered] : -1;
        r->answered++;
        if (method == SIMDHTTP_METHOD_HEAD) return SIMDHTTP_SKIP_BODY;
        if (method == SIMDHTTP_METHOD_CONNECT && p->status_code / 100 == 2) return SIMDHTTP_SKIP_BODY_UPGRADE;
    }
    return 0;
}

static int on_body(simdhttp_parser *p, const char *at, size_t n)
{
    (void)at;
    rd_of(p)->cur.body += n;
    return 0;
}

/* Pauses: the message's end is where execute() stops. */
static int on_message_complete(simdhttp_parser *p)
{
    reading *r = rd_of(p);
    r->cur.reasons |= p->reasons;
    r->closed = !simdhttp_should_keep_alive(p) && !(p->flags & SIMDHTTP_F_UPGRADE);
    r->complete = 1;
    return SIMDHTTP_PAUSE;
}

static const simdhttp_callbacks callbacks = {
    .on_message_begin = on_message_begin,
    .on_header = on_header,
    .on_header_field = on_header_field,
    .on_header_value = on_header_value,
    .on_header_value_complete = on_header_value_complete,
    .on_headers_complete = on_headers_complete,
    .on_body = on_body,
    .on_message_complete = on_message_complete,
};

static void push_msg(reading *r, uint64_t end)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 16;
        msg *m = realloc(r->m, cap * sizeof *m);
        if (!m) die_oom();
        r->m = m;
        r->cap = cap;
    }
    r->cur.end = end;
    r->m[r->n++] = r->cur;
}

/* One reading of s[0..n) from byte `from`, with lenient `flags`: at most `max` messages (the
 * peel's one), or all (max 0). */
static void read_stream(reading *r, const char *s, size_t n, size_t from, unsigned flags, size_t max,
                        const uint8_t *req, size_t nreq)
{
    simdhttp_config cfg = {0};
    simdhttp_parser p;
    cfg.lenient = flags;
    msg *keep = r->m;
    size_t cap = r->cap;
    memset(r, 0, sizeof *r);
    r->m = keep, r->cap = cap; /* the array is reused */
    r->base = from;
    r->req = req, r->nreq = nreq;
    simdhttp_init(&p, SIMDHTTP_BOTH, &callbacks, &cfg);
    p.data = r;
    for (size_t off = from;;) {
        simdhttp_errno e = simdhttp_execute(&p, s + off, n - off);
        uint64_t at = from + simdhttp_get_error_offset(&p);
        if (e == SIMDHTTP_E_PAUSED && r->complete) {
            r->complete = 0;
            push_msg(r, at);
            simdhttp_resume(&p);
            off = (size_t)at;
            if (r->n == max) return;
            continue;
        }
        if (e == SIMDHTTP_OK) e = simdhttp_finish(&p); /* completes a body that runs until close */
        if (r->complete) push_msg(r, n);
        if (e != SIMDHTTP_OK) {
            r->err = e;
            r->err_off = e == SIMDHTTP_E_INVALID_EOF_STATE ? n : from + simdhttp_get_error_offset(&p);
            r->err_reason = simdhttp_get_error_reason(&p);
            r->err_reasons = p.reasons;
        }
        return;
    }
}

/* ---- reasons from the strict parser's refusals ---- */

/* The lenient flag that lets the parser past a refused reason (0: none) */
static unsigned flag_of(int reason)
{
    switch (reason) {
    case SIMDHTTP_R_BARE_LF: return SIMDHTTP_LENIENT_BARE_LF;
    case SIMDHTTP_R_BARE_CR: return SIMDHTTP_LENIENT_OPTIONAL_LF_AFTER_CR;
    case SIMDHTTP_R_OBS_FOLD: return SIMDHTTP_LENIENT_OBS_FOLD;
    case SIMDHTTP_R_CTL_IN_VALUE: return SIMDHTTP_LENIENT_HEADERS;
    case SIMDHTTP_R_TARGET_OBS_TEXT: return SIMDHTTP_LENIENT_TARGET_OBS_TEXT;
    case SIMDHTTP_R_VERSION_MAJOR: return SIMDHTTP_LENIENT_VERSION;
    case SIMDHTTP_R_CL_AND_TE: return SIMDHTTP_LENIENT_CHUNKED_LENGTH;
    case SIMDHTTP_R_TE_NOT_CHUNKED: return SIMDHTTP_LENIENT_TRANSFER_ENCODING;
    case SIMDHTTP_R_CHUNK_SIZE_WS: return SIMDHTTP_LENIENT_SPACES_AFTER_CHUNK_SIZE;
    case SIMDHTTP_R_CHUNK_DATA_NO_CRLF: return SIMDHTTP_LENIENT_OPTIONAL_CRLF_AFTER_CHUNK;
    case SIMDHTTP_R_DATA_AFTER_CLOSE: return SIMDHTTP_LENIENT_DATA_AFTER_CLOSE;
    default: return 0;
    }
}

/* The reasons of the message at `from`: parse it alone, strict, then with each refused
 * deviation's flag, until it parses or a refusal has no flag. @return its reasons (those of
 * the strict refusals; the accepted ones come from the reading that framed it). */
static uint64_t peel(reading *scratch, const char *s, size_t n, size_t from, const uint8_t *req, size_t nreq)
{
    uint64_t reasons = 0;
    unsigned flags = 0;
    for (int i = 0; i < SIMDHTTP_R_COUNT; i++) {
        read_stream(scratch, s, n, from, flags, 1, req, nreq);
        if (scratch->n || scratch->err == SIMDHTTP_OK || scratch->err == SIMDHTTP_E_PAUSED_UPGRADE) break;
        if (scratch->err == SIMDHTTP_E_INVALID_EOF_STATE) break; /* cut by the end of the capture */
        reasons |= scratch->err_reasons;
        unsigned more = 0; /* the flags of the reasons refused, not yet set */
        for (int r = 0; r < SIMDHTTP_R_COUNT; r++)
            if (scratch->err_reasons >> r & 1) more |= flag_of(r);
        if (!(more & ~flags)) break;
        flags |= more;
    }
    return reasons;
}

/* ---- one stream ---- */

typedef struct totals {
    unsigned long streams, messages, desync, tiers[4], reasons[SIMDHTTP_R_COUNT];
    int json;
} totals;

static int same_msg(const msg *a, const msg *b) { return a->start == b->start && a->end == b->end && a->body == b->body; }

/* The first message index where the readings frame the bytes differently, or -1. */
static long parting(const reading *rd)
{
    size_t most = 0;
    for (int k = 0; k < NREADINGS; k++)
        if (rd[k].n > most) most = rd[k].n;
    for (size_t i = 0; i < most; i++)
        for (int k = 1; k < NREADINGS; k++)
            if (i >= rd[k].n || i >= rd[0].n || !same_msg(&rd[k].m[i], &rd[0].m[i])) return (long)i;
    return -1;
}

static void put_json_str(const char *s)
{
    putchar('"');
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c < 0x20 || c >= 0x7f) printf("\\u%04x", c);
        else putchar(c);
    }
    putchar('"');
}

static void put_reasons(uint64_t reasons, int json)
{
    int first = 1;
    if (json) putchar('[');
    for (int r = 0; r < SIMDHTTP_R_COUNT; r++) {
        if (!(reasons >> r & 1)) continue;
        if (json) printf("%s\"%s\"", first ? "" : ",", simdhttp_reason_name((simdhttp_reason)r));
        else printf(" %s", simdhttp_reason_name((simdhttp_reason)r));
        first = 0;
    }
    if (json) putchar(']');
}

static void put_msg(size_t i, const msg *m, int json)
{
    simdhttp_tier t = simdhttp_reasons_tier(m->reasons);
    const char *what = m->type == SIMDHTTP_RESPONSE ? "response" : "request";
    const char *method = m->type == SIMDHTTP_REQUEST ? simdhttp_method_name((simdhttp_method)m->method) : NULL;
    if (json) {
        printf("%s{\"start\":%" PRIu64 ",\"end\":%" PRIu64 ",\"body\":%" PRIu64 ",\"type\":\"%s\",", i ? "," : "",
               m->start, m->end, m->body, what);
        if (m->type == SIMDHTTP_REQUEST) printf("\"method\":\"%s\",", method ? method : "");
        else printf("\"status\":%d,", m->status);
        printf("\"version\":\"%d.%d\",\"tier\":\"%s\",\"reasons\":", m->major, m->minor, simdhttp_tier_name(t));
        put_reasons(m->reasons, 1);
        putchar('}');
        return;
    }
    printf("  #%zu %" PRIu64 "..%" PRIu64 " %s ", i + 1, m->start, m->end, what);
    if (m->type == SIMDHTTP_REQUEST) printf("%s", method ? method : "?");
    else printf("%d", m->status);
    printf(" HTTP/%d.%d body %" PRIu64 ": %s", m->major, m->minor, m->body, simdhttp_tier_name(t));
    put_reasons(m->reasons, 0);
    putchar('\n');
}

/* What reading k did: its message count and where it stopped; with i >= 0 (text), what it
 * does with the bytes from message i on. */
static void put_reading(const reading *r, int k, long i, int json)
{
    int stopped = r->err != SIMDHTTP_OK && r->err != SIMDHTTP_E_PAUSED_UPGRADE;
    if (json) {
        printf("%s\"%s\":{\"messages\":%zu,\"stop\":", k ? "," : "", reading_names[k], r->n);
        if (!stopped) {
            printf("null}");
            return;
        }
        printf("{\"error\":\"%s\",\"offset\":%" PRIu64 ",\"reason\":", simdhttp_errno_name(r->err), r->err_off);
        put_json_str(r->err_reason);
        printf("}}");
        return;
    }
    printf("    %-9s ", reading_names[k]);
    if (i >= 0 && (size_t)i < r->n) {
        const msg *m = &r->m[i];
        printf("message %" PRIu64 "..%" PRIu64 " body %" PRIu64 "\n", m->start, m->end, m->body);
    } else if (stopped) {
        printf("stops: %s at %" PRIu64 " (%s)\n", simdhttp_errno_name(r->err), r->err_off,
               r->err_reason ? r->err_reason : "");
    } else {
        printf("ends after %zu messages\n", r->n);
    }
}

/* The bytes after the monitor reading's last message, when it stopped before the end: a
 * message cut by the end of the capture (its reasons so far), or bytes no reading frames (the
 * strict refusals', MALFORMED if none maps). @return 1 if there are such bytes. */
static int tail_msg(msg *tail, const reading *mon, reading *scratch, const char *s, size_t n, const uint8_t *req,
                    size_t nreq)
{
    if (mon->err == SIMDHTTP_OK || mon->err == SIMDHTTP_E_PAUSED_UPGRADE) return 0;
    int cut = mon->err == SIMDHTTP_E_INVALID_EOF_STATE;
    size_t answered = mon->n < nreq ? mon->n : nreq;
    memset(tail, 0, sizeof *tail);
    if (cut) *tail = mon->cur; /* its head's reasons, type and method if the head is whole */
    tail->start = mon->n ? mon->m[mon->n - 1].end : 0;
    tail->end = n;
    tail->reasons |= peel(scratch, s, n, (size_t)tail->start, req ? req + answered : NULL, nreq - answered);
    if (!cut && !tail->reasons) tail->reasons = SIMDHTTP_REASON_BIT(SIMDHTTP_R_MALFORMED);
    return 1;
}

static void put_tail(size_t i, const msg *m, int cut, int json)
{
    simdhttp_tier tier = simdhttp_reasons_tier(m->reasons);
    if (json) {
        printf("%s{\"start\":%" PRIu64 ",\"end\":%" PRIu64 ",\"type\":null,\"cut\":%s,\"tier\":\"%s\",\"reasons\":",
               i ? "," : "", m->start, m->end, cut ? "true" : "false", simdhttp_tier_name(tier));
        put_reasons(m->reasons, 1);
        putchar('}');
        return;
    }
    printf("  #%zu %" PRIu64 "..%" PRIu64 " %s: %s", i + 1, m->start, m->end,
           cut ? "cut by the end of the stream" : "no reading frames it", simdhttp_tier_name(tier));
    put_reasons(m->reasons, 0);
    putchar('\n');
}

/* Audits one stream s[0..n) named `name`; req[0..nreq): the methods of the requests a response
 * stream answers (its other direction), or NULL. @return 1 if it has findings, else 0. */
static int audit_stream(const char *name, const char *s, size_t n, const uint8_t *req, size_t nreq, totals *t)
{
    static reading rd[NREADINGS], scratch;
    for (int k = 0; k < NREADINGS; k++) read_stream(&rd[k], s, n, 0, reading_flags[k], 0, req, nreq);
    reading *mon = &rd[MONITOR];
    int findings = 0;
    /* the reasons: accepted deviations from the monitor reading's callbacks; refused ones by
     * peeling where the strict reading did not frame the same message */
    for (size_t i = 0; i < mon->n; i++) {
        msg *m = &mon->m[i];
        if (!(i < rd[STRICT].n && same_msg(&rd[STRICT].m[i], m)))
            m->reasons |= peel(&scratch, s, n, (size_t)m->start, req ? req + (i < nreq ? i : nreq) : NULL, i < nreq ? nreq - i : 0);
    }
    msg tail;
    int has_tail = tail_msg(&tail, mon, &scratch, s, n, req, nreq), cut = mon->err == SIMDHTTP_E_INVALID_EOF_STATE;
    long part = parting(rd);
    /* the readings agree on every message before it: they part where the last one ends */
    uint64_t part_off = part > 0 ? rd[STRICT].m[part - 1].end : 0;
    if (part >= 0) findings = 1, t->desync++;
    t->streams++;
    if (t->json) {
        printf("{\"file\":");
        put_json_str(name);
        printf(",\"messages\":[");
    } else {
        printf("%s: %zu messages (strict %zu, defensive %zu, monitor %zu)\n", name, mon->n + has_tail,
               rd[STRICT].n, rd[DEFENSIVE].n, mon->n);
    }
    for (size_t i = 0; i < mon->n + (size_t)has_tail; i++) {
        const msg *m = i < mon->n ? &mon->m[i] : &tail;
        simdhttp_tier tier = simdhttp_reasons_tier(m->reasons);
        t->messages++;
        t->tiers[tier]++;
        for (int r = 0; r < SIMDHTTP_R_COUNT; r++) t->reasons[r] += m->reasons >> r & 1;
        if (tier != SIMDHTTP_TIER_COMPLIANT) findings = 1;
        if (m == &tail) put_tail(i, m, cut, t->json);
        else put_msg(i, m, t->json);
    }
    if (t->json) {
        printf("],\"readings\":{");
        for (int k = 0; k < NREADINGS; k++) put_reading(&rd[k], k, -1, 1);
        printf("},\"desync\":");
        if (part < 0) printf("null}\n");
        else printf("{\"offset\":%" PRIu64 ",\"message\":%ld}}\n", part_off, part + 1);
    } else if (part >= 0) {
        printf("  the readings part at byte %" PRIu64 " (message #%ld):\n", part_off, part + 1);
        for (int k = 0; k < NREADINGS; k++) put_reading(&rd[k], k, part, 0);
    }
    return findings;
}

/* ---- inputs ---- */

/* The whole of fd into *s (malloc'd), its length in *n. @return 0, or -1 with errno set. */
static int slurp(int fd, char **s, size_t *n)
{
    size_t cap = 1 << 16, len = 0;
    char *b = malloc(cap);
    if (!b) return -1;
    for (;;) {
        if (len == cap) {
            char *nb = cap > SIZE_MAX / 2 ? NULL : realloc(b, cap * 2);
            if (!nb) return free(b), errno = ENOMEM, -1;
            b = nb, cap *= 2;
        }
        ssize_t k = read(fd, b + len, cap - len);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return free(b), -1;
        if (k == 0) break;
        len += (size_t)k;
    }
    *s = b, *n = len;
    return 0;
}

/* The whole file at path ("-": stdin) into *s, *n. @return 0, or CLI_EXIT_IO (reported). */
static int load(const char *path, char **s, size_t *n)
{
    int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
    if (fd < 0 || slurp(fd, s, n) < 0) {
        fprintf(stderr, "simdhttp audit: %s: %s\n", path, strerror(errno));
        if (fd > 0) close(fd);
        return CLI_EXIT_IO;
    }
    if (fd > 0) close(fd);
    return 0;
}

/* The methods of the requests in s[0..n), as the monitor reading frames them, into *req.
 * @return how many. */
static size_t request_methods(const char *s, size_t n, uint8_t **req)
{
    static reading r;
    read_stream(&r, s, n, 0, reading_flags[MONITOR], 0, NULL, 0);
    *req = malloc(r.n + 1);
    if (!*req) die_oom();
    size_t k = 0;
    for (size_t i = 0; i < r.n; i++)
        if (r.m[i].type == SIMDHTTP_REQUEST) (*req)[k++] = (uint8_t)r.m[i].method;
    return k;
}

/* Audits one file; pair: the connection's other direction (a response stream's requests say
 * which responses have no body), or NULL. @return 0 compliant, 1 findings, 3 an input error. */
static int audit_file(const char *path, const char *pair, totals *t)
{
    char *s, *q = NULL;
    size_t n, qn = 0, nreq = 0, i = 0;
    uint8_t *req = NULL;
    if (load(path, &s, &n)) return CLI_EXIT_IO;
    while (i < n && (s[i] == '\r' || s[i] == '\n')) i++;
    if (pair && n - i >= 5 && !memcmp(s + i, "HTTP/", 5) && load(pair, &q, &qn) == 0) {
        nreq = request_methods(q, qn, &req);
        free(q);
    }
    int r = audit_stream(strcmp(path, "-") ? path : "(stdin)", s, n, req, nreq, t);
    free(req);
    free(s);
    return r;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* A directory as tcpflow writes it: each regular file but its report (*.xml), in name order,
 * a response stream with its requests (the other direction's file). */
static int audit_dir(const char *path, totals *t)
{
    DIR *d = opendir(path);
    if (!d) return fprintf(stderr, "simdhttp audit: %s: %s\n", path, strerror(errno)), CLI_EXIT_IO;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || (len > 4 && !strcmp(e->d_name + len - 4, ".xml"))) continue;
        if (n == cap) {
            char **nn = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *names);
            if (!nn) die_oom();
            names = nn;
        }
        names[n] = malloc(strlen(path) + len + 2);
        if (!names[n]) die_oom();
        sprintf(names[n++], "%s/%s", path, e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    int worst = CLI_EXIT_OK;
    char *pair = malloc(strlen(path) + 512);
    if (!pair) die_oom();
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        /* tcpflow names a flow SRC-DST (address.port each): the other direction is DST-SRC */
        const char *base = names[i] + strlen(path) + 1, *dash = strchr(base, '-');
        int paired = 0;
        if (dash && !strchr(dash + 1, '-') && strlen(base) < 500) {
            sprintf(pair, "%s/%s-%.*s", path, dash + 1, (int)(dash - base), base);
            paired = bsearch(&pair, names, n, sizeof *names, by_name) != NULL;
        }
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            int r = audit_file(names[i], paired ? pair : NULL, t);
            if (r > worst) worst = r;
        }
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(pair);
    free(names);
    return worst;
}

static void put_summary(const totals *t)
{
    if (t->json) {
        printf("{\"summary\":{\"streams\":%lu,\"messages\":%lu,\"desync\":%lu,\"tiers\":{", t->streams, t->messages, t->desync);
        for (int k = 0; k < 4; k++) printf("%s\"%s\":%lu", k ? "," : "", simdhttp_tier_name((simdhttp_tier)k), t->tiers[k]);
        printf("},\"reasons\":{");
        for (int r = 0, first = 1; r < SIMDHTTP_R_COUNT; r++)
            if (t->reasons[r]) printf("%s\"%s\":%lu", first ? "" : ",", simdhttp_reason_name((simdhttp_reason)r), t->reasons[r]), first = 0;
        printf("}}}\n");
        return;
    }
    printf("\nsummary: %lu streams, %lu messages, readings part in %lu streams\n", t->streams, t->messages, t->desync);
    printf("  %-20s %8s\n", "tier", "messages");
    for (int k = 0; k < 4; k++) printf("  %-20s %8lu\n", simdhttp_tier_name((simdhttp_tier)k), t->tiers[k]);
    int any = 0;
    for (int r = 0; r < SIMDHTTP_R_COUNT; r++) {
        if (!t->reasons[r]) continue;
        if (!any++) printf("  %-20s %8s  %s\n", "reason", "messages", "tier");
        printf("  %-20s %8lu  %s\n", simdhttp_reason_name((simdhttp_reason)r), t->reasons[r],
               simdhttp_tier_name(simdhttp_reason_tier((simdhttp_reason)r)));
    }
}

/* --bench: each reading's speed over the files (read whole first), in interleaved rounds; the
 * median of the rounds. make bench prints it (docs/benchmarks.md). */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int audit_bench(int argc, char **argv)
{
    enum { ROUNDS = 11 };
    char **s = calloc((size_t)argc, sizeof *s);
    size_t *n = calloc((size_t)argc, sizeof *n), total = 0;
    double rate[NREADINGS][ROUNDS];
    static reading r;
    if (!s || !n) die_oom();
    for (int i = 0; i < argc; i++) {
        int fd = open(argv[i], O_RDONLY | O_CLOEXEC);
        if (fd < 0 || slurp(fd, &s[i], &n[i]) < 0)
            return fprintf(stderr, "simdhttp audit: %s: %s\n", argv[i], strerror(errno)), CLI_EXIT_IO;
        close(fd);
        total += n[i];
    }
    for (int round = 0; round < ROUNDS; round++)
        for (int k = 0; k < NREADINGS; k++) {
            double t0 = now(), t;
            unsigned long passes = 0;
            do {
                for (int i = 0; i < argc; i++) read_stream(&r, s[i], n[i], 0, reading_flags[k], 0, NULL, 0);
                passes++;
            } while ((t = now() - t0) < 0.05);
            rate[k][round] = (double)total * passes / t / 1e9;
        }
    printf("simdhttp audit --bench: %d files, %zu bytes, median of %d interleaved rounds\n", argc, total, ROUNDS);
    for (int k = 0; k < NREADINGS; k++) {
        qsort(rate[k], ROUNDS, sizeof rate[k][0], cmp_double);
        printf("  reading %-9s %6.2f GB/s\n", reading_names[k], rate[k][ROUNDS / 2]);
    }
    for (int i = 0; i < argc; i++) free(s[i]);
    free(s);
    free(n);
    free(r.m);
    return CLI_EXIT_OK;
}

int cli_audit_usage(FILE *f)
{
    fputs("usage: simdhttp audit [--json] [FILE|DIR|-]...\n"
          "  Desync verdicts for raw HTTP/1.x streams: each FILE one direction of one connection,\n"
          "  each DIR a tcpflow output directory (one file per flow; *.xml skipped), - or none:\n"
          "  stdin. Each stream is parsed in three readings (strict; defensive: bare_lf, obs_fold,\n"
          "  headers, target_obs_text, version, spaces_after_chunk_size, chunked_length; monitor:\n"
          "  every lenient flag but data_after_close). Per message (as monitor frames it): its\n"
          "  tier (COMPLIANT, ACCEPTABLE, AMBIGUOUS, SEVERE) and reasons; per stream: where the\n"
          "  readings frame the bytes differently. Then a summary (messages per tier and reason).\n"
          "  --json    one JSON object per stream, then {\"summary\":...}\n"
          "  --bench   time each reading over the FILEs (GB/s, median of 11 rounds); no verdicts\n"
          "  Exit: 0 every message compliant and the readings agree, 1 findings, 2 usage, 3 I/O.\n",
          f);
    return CLI_EXIT_OK;
}

int cli_audit(int argc, char **argv)
{
    totals t;
    memset(&t, 0, sizeof t);
    int i = 1, worst = CLI_EXIT_OK, bench = 0;
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        if (!strcmp(argv[i], "--")) {
            i++;
            break;
        }
        if (!strcmp(argv[i], "--json")) t.json = 1;
        else if (!strcmp(argv[i], "--bench")) bench = 1;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return cli_audit_usage(stdout);
        else return fprintf(stderr, "simdhttp audit: unknown option '%s'\n", argv[i]), cli_audit_usage(stderr), CLI_EXIT_USAGE;
    }
    if (bench) {
        if (i == argc) return fprintf(stderr, "simdhttp audit: --bench needs files\n"), CLI_EXIT_USAGE;
        return audit_bench(argc - i, argv + i);
    }
    if (i == argc) worst = audit_file("-", NULL, &t);
    for (; i < argc; i++) {
        struct stat st;
        int r = strcmp(argv[i], "-") && stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode) ? audit_dir(argv[i], &t)
                                                                                      : audit_file(argv[i], NULL, &t);
        if (r > worst) worst = r;
    }
    put_summary(&t);
    if (fflush(stdout) != 0 || ferror(stdout)) return fprintf(stderr, "simdhttp audit: %s\n", strerror(errno)), CLI_EXIT_IO;
    return worst;
}
