/* SPDX-License-Identifier: MIT */
/*
 * headparse: parse a captured byte stream through the zero-copy head API (simdhttp_parse_head)
 * and print each message's head as one JSON line, in the shape `simdhttp parse` prints, so
 * tests/e2e/e2e.py can check that both APIs read real clients' and servers' bytes alike.
 *
 *   headparse [--response] [--skip-body] [--no-eof] [--max-head-size N] [--max-fields N] FILE
 *
 * The head API does not frame bodies, so the streaming parser (no field callbacks at all) finds
 * where each message starts; the head API then parses the head found there on its own. Only
 * messages the streaming parser completed are printed. A streaming error prints
 * {"error":"NAME","offset":N} last, as the CLI does, and exits 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simdhttp.h"

#define MAX_MSGS 1000000

static size_t *starts;  /* offsets of the messages the streaming parser completed */
static size_t n_starts;
static long cur_start;  /* -1 until the current message's start line is seen */
static const char *base;
static int skip_body;

static int on_begin(simdhttp_parser *p) { (void)p; cur_start = -1; return 0; }

/* A request starts at its method's first byte (leading empty lines are skipped by both APIs). */
static int on_method(simdhttp_parser *p, const char *at, size_t len)
{
    (void)p, (void)len;
    if (cur_start < 0) cur_start = at - base;
    return 0;
}

/* A status line starts 5 bytes ("HTTP/") before the version's digits. */
static int on_version(simdhttp_parser *p, const char *at, size_t len)
{
    (void)len;
    if (p->type == SIMDHTTP_RESPONSE && cur_start < 0) cur_start = at - base - 5;
    return 0;
}

static int on_headers_complete(simdhttp_parser *p) { (void)p; return skip_body ? SIMDHTTP_SKIP_BODY : 0; }

static int on_complete(simdhttp_parser *p)
{
    (void)p;
    if (cur_start >= 0 && n_starts < MAX_MSGS) starts[n_starts++] = (size_t)cur_start;
    return 0;
}

/* Every byte is one character U+0000..U+00FF, as the CLI writes strings. */
static void json_str(const char *s, size_t n)
{
    putchar('"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c < 0x20 || c >= 0x7f) printf("\\u%04x", c);
        else putchar(c);
    }
    putchar('"');
}

int main(int argc, char **argv)
{
    simdhttp_type type = SIMDHTTP_REQUEST;
    int no_eof = 0;
    const char *path = NULL;
    simdhttp_config cfg = {0}; /* the same limits for both APIs */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--max-head-size") == 0 && i + 1 < argc) cfg.max_head_size = (uint32_t)atol(argv[++i]);
        else if (strcmp(argv[i], "--max-fields") == 0 && i + 1 < argc) cfg.max_fields = (uint32_t)atol(argv[++i]);
        else if (strcmp(argv[i], "--response") == 0) type = SIMDHTTP_RESPONSE;
        else if (strcmp(argv[i], "--skip-body") == 0) skip_body = 1;
        else if (strcmp(argv[i], "--no-eof") == 0) no_eof = 1;
        else path = argv[i];
    }
    if (!path) {
        fprintf(stderr, "usage: headparse [--response] [--skip-body] [--no-eof] [--max-head-size N] "
                        "[--max-fields N] FILE\n");
        return 2;
    }
    FILE *f = fopen(path, "rb");
    if (!f) return perror(path), 2;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (size_t n; buf && (n = fread(buf + len, 1, cap - len, f)) > 0;)
        if ((len += n) == cap) buf = realloc(buf, cap *= 2);
    fclose(f);
    starts = malloc(MAX_MSGS * sizeof *starts);
    if (!buf || !starts) return 2;
    base = buf;

    static const simdhttp_callbacks cb = {
        .on_message_begin = on_begin, .on_method = on_method, .on_version = on_version,
        .on_headers_complete = on_headers_complete, .on_message_complete = on_complete};
    simdhttp_parser p;
    simdhttp_init(&p, type, &cb, &cfg);
    simdhttp_errno err = simdhttp_execute(&p, buf, len);
    if (err == SIMDHTTP_OK && !no_eof) err = simdhttp_finish(&p);
    if (err == SIMDHTTP_E_PAUSED_UPGRADE) err = SIMDHTTP_OK; /* the rest is not HTTP */

    static simdhttp_field fields[1024];
    for (size_t m = 0; m < n_starts; m++) {
        simdhttp_head h = {.fields = fields, .fields_cap = 1024};
        long r = simdhttp_parse_head(&h, type, buf + starts[m], len - starts[m], &cfg);
        if (r <= 0) {
            printf("{\"head_api_error\":\"%s\",\"at\":%zu}\n",
                   r == SIMDHTTP_HEAD_INCOMPLETE ? "INCOMPLETE" : simdhttp_errno_name(h.error),
                   starts[m]);
            continue;
        }
        printf("{\"type\":\"%s\",", type == SIMDHTTP_REQUEST ? "request" : "response");
        if (type == SIMDHTTP_REQUEST) {
            printf("\"method\":"), json_str(h.method_str, h.method_len);
            printf(",\"target\":"), json_str(h.target, h.target_len);
        } else {
            printf("\"status\":%u,\"reason\":", h.status_code), json_str(h.reason, h.reason_len);
        }
        printf(",\"version\":\"%u.%u\",\"headers\":[", h.http_major, h.http_minor);
        for (size_t i = 0; i < h.num_fields; i++) {
            printf(i ? ",[" : "[");
            json_str(fields[i].name, fields[i].name_len);
            putchar(',');
            json_str(fields[i].value, fields[i].value_len);
            putchar(']');
        }
        printf("]}\n");
    }
    /* The message the streaming parser rejected: if its head is what is wrong, the head API must
     * say the same thing at the same place (its offsets count from the start it was given). */
    if (err != SIMDHTTP_OK && err != SIMDHTTP_E_INVALID_EOF_STATE && cur_start >= 0) {
        simdhttp_head h = {.fields = fields, .fields_cap = 1024};
        if (simdhttp_parse_head(&h, type, buf + cur_start, len - (size_t)cur_start, &cfg) == SIMDHTTP_HEAD_ERROR)
            printf("{\"head_error\":\"%s\",\"offset\":%llu}\n", simdhttp_errno_name(h.error),
                   (unsigned long long)cur_start + h.error_offset);
    }
    if (err != SIMDHTTP_OK)
        printf("{\"error\":\"%s\",\"offset\":%llu}\n", simdhttp_errno_name(err),
               (unsigned long long)simdhttp_get_error_offset(&p));
    free(buf);
    free(starts);
    return err != SIMDHTTP_OK;
}
