/* SPDX-License-Identifier: MIT */
/* scan_micro: one question, measured: should the SSE4.2 path use the string instructions?
 * (make scan-micro; built with -msse4.2, opt-in only.)
 *
 * Scans a buffer of field lines ("Name: value\r\n", lengths as in corpus/get-32h.http and
 * browser-get.http) the way the parser does: the next scan starts where the previous one
 * stopped, so each scan's latency is on the chain. Compares, in ns per line (median of
 * interleaved rounds):
 *   sse2      scan_value of scan_sse2.h (compare + movemask)
 *   pcmpestri the same stop set as _SIDD_CMP_RANGES (0x00-0x08, 0x0a-0x1f, 0x7f-0x7f)
 *   pcmpistri the implicit-length form (cannot see NUL: NUL ends the "string"; kept only as a
 *             lower bound, it would need a separate NUL check to be correct)
 *   sse2-tok / ssse3-tok   scan_token of SSE2 (range compares) vs SSSE3 (pshufb nibble lookup) */
#define _POSIX_C_SOURCE 199309L
#include <nmmintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "isa/sse42/scan_sse42.h"

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* value stop set as pcmpestri ranges */
static inline const uint8_t *estri_scan_value(const uint8_t *s, const uint8_t *e)
{
    const __m128i ranges = _mm_setr_epi8(0x00, 0x08, 0x0a, 0x1f, 0x7f, 0x7f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    while (e - s >= 16) {
        /* index of the first byte inside one of the 3 ranges, 16 if none */
        int i = _mm_cmpestri(ranges, 6, _mm_loadu_si128((const __m128i *)(const void *)s), 16,
                             _SIDD_UBYTE_OPS | _SIDD_CMP_RANGES | _SIDD_LEAST_SIGNIFICANT);
        if (i != 16) return s + i;
        s += 16;
    }
    return scalar_scan_value(s, e);
}

static inline const uint8_t *istri_scan_value(const uint8_t *s, const uint8_t *e)
{
    const __m128i ranges = _mm_setr_epi8(0x01, 0x08, 0x0a, 0x1f, 0x7f, 0x7f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    while (e - s >= 16) {
        /* implicit length: stops at a NUL too (index of the NUL if no range byte before) */
        int i = _mm_cmpistri(ranges, _mm_loadu_si128((const __m128i *)(const void *)s),
                             _SIDD_UBYTE_OPS | _SIDD_CMP_RANGES | _SIDD_LEAST_SIGNIFICANT);
        if (i != 16) return s + i;
        s += 16;
    }
    return scalar_scan_value(s, e);
}

enum { V_SSE2, V_ESTRI, V_ISTRI, T_SSE2, T_SSSE3, NV };
static const char *const names[NV] = {"sse2", "pcmpestri", "pcmpistri", "sse2-tok", "ssse3-tok"};

/* the chain: token scan to ':', value scan to CR, skip CRLF */
__attribute__((noinline)) static size_t run(int v, const uint8_t *b, const uint8_t *e)
{
    size_t lines = 0;
    const uint8_t *p = b;
    while (p < e) {
        const uint8_t *q;
        if (v >= T_SSE2) {
            q = v == T_SSE2 ? sse2_scan_token(p, e) : sse42_scan_token(p, e);
            q = sse2_scan_value(q + 2, e);
        } else {
            q = v == V_SSE2 ? sse2_scan_value(p, e) : v == V_ESTRI ? estri_scan_value(p, e) : istri_scan_value(p, e);
        }
        p = q + 2;
        lines++;
    }
    return lines;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void)
{
    static const char *const lines[] = {
        "Host: www.example.com", "X-Custom-Header-01: value-01-abcdefghij",
        "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
        "Accept-Language: en-US,en;q=0.9", "sec-ch-ua-mobile: ?0", "Accept-Encoding: gzip, deflate, br, zstd",
        "Connection: keep-alive", "Cache-Control: max-age=0"};
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    while (n < cap - 256)
        for (size_t i = 0; i < sizeof lines / sizeof *lines && n < cap - 256; i++) {
            size_t l = strlen(lines[(i * 5 + n) % 8]);
            memcpy(buf + n, lines[(i * 5 + n) % 8], l);
            memcpy(buf + n + l, "\r\n", 2);
            n += l + 2;
        }
    enum { R = 31 };
    static double t[NV][R];
    size_t nl = 0;
    for (int r = 0; r < R; r++)
        for (int k = 0; k < NV; k++) {
            int v = (k + r) % NV;
            double t0 = now_ns();
            for (int rep = 0; rep < 20; rep++) nl = run(v, buf, buf + n);
            t[v][r] = (now_ns() - t0) / 20 / (double)nl;
        }
    printf("%-10s %10s   (field lines of 21-110 bytes, %zu lines per pass)\n", "scanner", "ns/line", nl);
    for (int v = 0; v < NV; v++) {
        qsort(t[v], R, sizeof(double), cmp_d);
        printf("%-10s %10.2f\n", names[v], t[v][R / 2]);
    }
    free(buf);
    return 0;
}
