/* SPDX-License-Identifier: MIT */
/* Method names matched against a table of them: one body for the core's method registry
 * (src/parser.c) and for the layers' tables (compat/llhttp, compat/http_parser), whose sets are
 * their libraries' and differ from the registry. Static inline, so a layer's library needs
 * only the core's public API at link time, as before. */
#ifndef SIMDHTTP_METHOD_NAMES_H
#define SIMDHTTP_METHOD_NAMES_H

#include <stddef.h>
#include <string.h>

/* @return the index of s[0..n) in names[0..count) (exact, case-sensitive; NULL entries are
 * holes), -1 if it is none of them */
static inline int sh_name_index(const char *const *names, size_t count, const char *s, size_t n)
{
    for (size_t i = 0; i < count; i++)
        if (names[i] && strlen(names[i]) == n && memcmp(names[i], s, n) == 0) return (int)i;
    return -1;
}

/* @return the length of the longest prefix of s[0..n) that begins some name of names[0..count)
 * (n: s[0..n) may still become one): where a method stops being any known one */
static inline size_t sh_name_prefix(const char *const *names, size_t count, const char *s, size_t n)
{
    size_t best = 0;
    for (size_t i = 0; i < count; i++) {
        const char *m = names[i];
        size_t k = 0;
        if (m)
            while (k < n && m[k] && m[k] == s[k]) k++;
        if (k > best) best = k;
    }
    return best;
}

#endif
