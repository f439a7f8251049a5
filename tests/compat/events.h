/* SPDX-License-Identifier: MIT */
/* The log of an events program (tests/compat/<name>_events.c; the contract is at the top of
 * tests/compat/diff.py): an output buffer, printf into it, escaped bytes, and the input file.
 * Static functions: include once, in the program's one .c file. */
#ifndef SIMDHTTP_COMPAT_EVENTS_H
#define SIMDHTTP_COMPAT_EVENTS_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *logbuf;
static size_t loglen, logcap;

static void out(const char *s, size_t n)
{
    if (loglen + n + 1 > logcap) {
        logcap = (loglen + n + 1) * 2;
        logbuf = realloc(logbuf, logcap);
        if (!logbuf) abort();
    }
    memcpy(logbuf + loglen, s, n);
    loglen += n;
    logbuf[loglen] = 0;
}

static void outf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void outf(const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    out(tmp, n < (int)sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void out_escaped(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') out((const char *)&c, 1);
        else if (c == '\r') out("\\r", 2);
        else if (c == '\n') out("\\n", 2);
        else if (c == '\t') out("\\t", 2);
        else if (c == '"') out("\\\"", 2);
        else if (c == '\\') out("\\\\", 2);
        else outf("\\x%02x", c);
    }
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *s = NULL;
    size_t n = 0, cap = 0, k;
    do {
        if (n + 4096 > cap) s = realloc(s, cap = (n + 4096) * 2);
        if (!s) abort();
        k = fread(s + n, 1, cap - n, f);
        n += k;
    } while (k);
    fclose(f);
    *len = n;
    return s;
}

#endif
