/* SPDX-License-Identifier: MIT */
/* The growable string of the tests (tests/testlib.h) and the fuzzers (fuzz/fuzz_common.h): their
 * logs, spans and copies. Static inline, so a program that leaves a function unused builds
 * warning-free and the fuzzers link nothing of the tests. The string is NUL-terminated after
 * len once anything was put; realloc failing aborts. */
#ifndef SIMDHTTP_T_BUF_H
#define SIMDHTTP_T_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct t_buf {
    char *s;
    size_t len, cap;
} t_buf;

static inline void t_buf_put(t_buf *b, const void *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1) cap *= 2;
        b->s = realloc(b->s, cap);
        if (!b->s) abort();
        b->cap = cap;
    }
    if (n) memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

/* (at most 1023 bytes per call: every format of the tests and fuzzers stays below) */
static inline void t_buf_printf(t_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void t_buf_printf(t_buf *b, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    t_buf_put(b, tmp, n < (int)sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* Bytes escaped as the tests' logs show them: printable ASCII as is, \r \n \t \" \\ and \xNN
 * for the rest */
static inline void t_buf_escaped(t_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char tmp[8];
        if (c == '\r') t_buf_put(b, "\\r", 2);
        else if (c == '\n') t_buf_put(b, "\\n", 2);
        else if (c == '\t') t_buf_put(b, "\\t", 2);
        else if (c == '"' || c == '\\') { tmp[0] = '\\'; tmp[1] = (char)c; t_buf_put(b, tmp, 2); }
        else if (c < 0x20 || c >= 0x7f) { snprintf(tmp, sizeof tmp, "\\x%02x", c); t_buf_put(b, tmp, 4); }
        else t_buf_put(b, &c, 1);
    }
}

/* Bytes escaped as the fuzzers' logs show them: printable ASCII as is but '"' and '\\', \xNN
 * for every other byte */
static inline void t_buf_hex_escaped(t_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
            t_buf_put(b, &c, 1);
        } else {
            char tmp[8];
            snprintf(tmp, sizeof tmp, "\\x%02x", c);
            t_buf_put(b, tmp, 4);
        }
    }
}

static inline void t_buf_free(t_buf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

#endif
