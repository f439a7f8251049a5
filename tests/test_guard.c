/* SPDX-License-Identifier: MIT */
/* Guard pages: every input of length 0..300 is placed right before a PROT_NONE page (and, for
 * the scanners, also right after one), so any load past data + len (or before data) faults.
 * (mmap'd memory is invisible to ASan; this catches what its shadow cannot.)
 *
 *   - every scanner of every path this CPU supports, on spans that pass to the end, that stop
 *     at the last byte, and random bytes; results must equal the scalar reference;
 *   - every path's stage 1 (64-byte blocks, src/stage1.h) at every block position of every
 *     input, against scalar's;
 *   - the full parser, streaming and head API, on every prefix of several messages (so inputs
 *     end mid-method, mid-target, mid-name, mid-value, mid-body), strict and lenient, under
 *     every path; errno, error offset, head result and field count must match scalar's; so
 *     must simdhttp_parse_fields on the lines after the start line and the chunked decoder
 *     (in place) on the bytes after the head;
 *   - the cookie iterator (its AVX2 pair scan reads 32-byte windows) on random Cookie values
 *     of every length, at both guard pages: pairs and errors must match scalar's.
 * SIMDHTTP_ISA=<path> tests that path only (against scalar). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "simd_paths.h"
#include "testlib.h"

#define MAXLEN 300

static uint8_t *lo_guard_end; /* first byte after a PROT_NONE page */
static uint8_t *hi_guard;     /* first byte of a PROT_NONE page */

static int setup(void)
{
    long page = sysconf(_SC_PAGESIZE);
    /* guard | data | guard */
    uint8_t *m = mmap(NULL, (size_t)page * 3, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return 0;
    if (mprotect(m, (size_t)page, PROT_NONE) || mprotect(m + 2 * page, (size_t)page, PROT_NONE)) return 0;
    lo_guard_end = m + page;
    hi_guard = m + 2 * page;
    return MAXLEN < page;
}

/* copy len bytes so they end at the upper guard page */
static const uint8_t *at_end(const void *src, size_t len)
{
    uint8_t *d = hi_guard - len;
    memcpy(d, src, len);
    return d;
}

/* copy len bytes so they start right after the lower guard page */
static const uint8_t *at_start(const void *src, size_t len)
{
    memcpy(lo_guard_end, src, len);
    return lo_guard_end;
}

static uint64_t rng = 0x2545f4914f6cdd1du;
static uint32_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static void scanners(const struct simd_path *p)
{
    static const uint8_t fill[3] = {'a', ' ', '/'}; /* passes token, value, target */
    uint8_t buf[MAXLEN];
    long bad = 0;
    char first[160] = "";
    for (int k = 0; k < 3; k++)
        for (size_t n = 0; n <= MAXLEN; n++)
            for (int variant = 0; variant < 3; variant++) {
                memset(buf, fill[k], n);
                if (variant == 1 && n) buf[n - 1] = '\n';
                if (variant == 2)
                    for (size_t i = 0; i < n; i++) buf[i] = (rnd() & 15) ? fill[k] : (uint8_t)rnd();
                for (int side = 0; side < 2; side++) {
                    const uint8_t *s = side ? at_start(buf, n) : at_end(buf, n);
                    const uint8_t *got = p->fn(k, s, s + n), *want = ref_scan(k, s, s + n);
                    if (got != want && bad++ == 0)
                        snprintf(first, sizeof first, "%s len %zu variant %d %s: got %td want %td",
                                 kind_names[k], n, variant, side ? "after guard" : "before guard",
                                 got - s, want - s);
                }
            }
    char name[64];
    snprintf(name, sizeof name, "%s scanners at guard pages", simdhttp_isa_to_name(p->isa));
    t_check(bad == 0, name, "%ld mismatches; first: %s", bad, first);
}

/* Stage 1 (src/stage1.h) of every block position of every input: [p, end) with the input's
 * start as the first readable byte, so a short last block takes the overlapping load or,
 * under 64 bytes in all, the copy; next to each guard page. Masks must equal scalar's. */
static void stage1(const struct stage1_path *p, stage1_fn scalar)
{
    uint8_t buf[MAXLEN];
    long bad = 0, runs = 0;
    char first[160] = "";
    for (size_t n = 0; n <= MAXLEN; n++) {
        for (size_t i = 0; i < n; i++) buf[i] = (rnd() & 7) ? (uint8_t)"a: \r\nb"[rnd() % 6] : (uint8_t)rnd();
        for (int side = 0; side < 2; side++) {
            const uint8_t *s = side ? at_start(buf, n) : at_end(buf, n);
            for (const uint8_t *q = s; q <= s + n; q++) {
                sh_masks got, want;
                p->fn(q, s, s + n, &got);
                scalar(q, s, s + n, &want);
                runs++;
                if (memcmp(&got, &want, sizeof got) != 0 && bad++ == 0)
                    snprintf(first, sizeof first, "len %zu block at %td %s", n, q - s,
                             side ? "after guard" : "before guard");
            }
        }
    }
    char name[64];
    snprintf(name, sizeof name, "%s stage 1 at guard pages (%ld blocks)", simdhttp_isa_to_name(p->isa), runs);
    t_check(bad == 0, name, "%ld differ from scalar; first: %s", bad, first);
}

/* ---- the full parser ---- */

static const char *const messages[] = {
    "GET /search?q=http+parser+simd&source=hp&ei=Zx8qZ9XnKcWa5NoP4q2hsQQ HTTP/1.1\r\n"
    "Host: www.example.com\r\nConnection: keep-alive\r\n"
    "sec-ch-ua: \"Chromium\";v=\"130\", \"Google Chrome\";v=\"130\"\r\n"
    "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0\r\n"
    "Accept-Encoding: gzip, deflate, br, zstd\r\n\r\n",
    "POST /api/v1/items HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n"
    "{\"a\":1,\"b\":[1,2,3],\"c\":\"xxxxxxxxxxxxxx\"}"
    "GET /x HTTP/1.0\r\nX-Custom-Header-With-A-Long-Name-That-Spans-Vectors: v\r\n\r\n",
    "HTTP/1.1 200 OK\r\nServer: nginx/1.25.3\r\nDate: Sun, 29 Nov 2026 20:00:00 GMT\r\n"
    "Transfer-Encoding: chunked\r\nCache-Control: private, max-age=0\r\n\r\n"
    "1a;name=\"val ue\"\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nTrailer-Field: t\r\n\r\n",
    /* errors at various depths */
    "GET /a\x01b HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET /ab HTTP/1.1\r\nHost: x\r\nBad Name: y\r\nX-Long-Value: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\x7f\r\n\r\n",
    "GET / HTTP/1.1\r\nX: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\x00zz\r\n\r\n",
    "HTTP/1.1 404 Not Found Because The Reason Phrase Is Long Enough For Two Vectors\r\nContent-Length: 3\r\n\r\nabc",
};

struct result {
    int err;
    uint64_t off;
    long head;
    size_t fields;
    size_t head_err_off;
    long block, chunked;     /* simdhttp_parse_fields after the start line; the chunked decoder */
    size_t block_fields, block_err_off, decoded;
    uint64_t chunked_err_off;
};

/* offset just past the first occurrence of pat in s[0..n), or n */
static size_t past(const uint8_t *s, size_t n, const char *pat)
{
    size_t k = strlen(pat);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(s + i, pat, k) == 0) return i + k;
    return n;
}

static struct result run(const uint8_t *s, size_t n, unsigned lenient)
{
    struct result r;
    memset(&r, 0, sizeof r); /* compared with memcmp: no stray padding bytes */
    simdhttp_config cfg = {0};
    cfg.lenient = lenient;
    simdhttp_parser p;
    simdhttp_init(&p, SIMDHTTP_BOTH, NULL, &cfg);
    r.err = (int)simdhttp_execute(&p, (const char *)s, n);
    r.off = r.err ? simdhttp_get_error_offset(&p) : 0;
    simdhttp_field f[32];
    simdhttp_head h;
    memset(&h, 0, sizeof h);
    h.fields = f;
    h.fields_cap = 32;
    r.head = simdhttp_parse_head(&h, SIMDHTTP_BOTH, (const char *)s, n, &cfg);
    r.fields = h.num_fields;
    r.head_err_off = r.head == SIMDHTTP_HEAD_ERROR ? h.error_offset : 0;
    /* the field lines as a bare block, and the body through the chunked decoder (in place: it
     * rewrites s, so it runs last; the caller copies the input again for the next run) */
    size_t k = past(s, n, "\r\n");
    r.block = simdhttp_parse_fields(&h, (const char *)s + k, n - k, &cfg);
    r.block_fields = h.num_fields;
    r.block_err_off = r.block == SIMDHTTP_HEAD_ERROR ? h.error_offset : 0;
    k = past(s, n, "\r\n\r\n");
    simdhttp_chunked d;
    simdhttp_chunked_init(&d, &cfg, lenient ? SIMDHTTP_CHUNKED_CONSUME_TRAILERS : 0);
    r.decoded = n - k;
    r.chunked = simdhttp_chunked_decode(&d, (char *)s + k, &r.decoded);
    r.chunked_err_off = d.error_offset;
    return r;
}

static void parser(simdhttp_isa isa)
{
    static const unsigned lenients[] = {0, SIMDHTTP_LENIENT_HEADERS};
    long bad = 0, runs = 0;
    char first[200] = "";
    for (size_t m = 0; m < sizeof messages / sizeof *messages; m++) {
        size_t len = strlen(messages[m]);
        if (m == 5) len += 3; /* the NUL inside the value and the bytes after it */
        for (size_t n = 0; n <= len && n <= MAXLEN; n++)
            for (size_t l = 0; l < sizeof lenients / sizeof *lenients; l++) {
                const uint8_t *s = at_end(messages[m], n);
                simdhttp_isa_set(SIMDHTTP_ISA_SCALAR);
                struct result want = run(s, n, lenients[l]);
                s = at_end(messages[m], n); /* the chunked decoder rewrote it */
                if (n == len && l == 0) /* the inputs are what they claim: 0-2 valid, 3-5 not */
                    t_check((m <= 2 || m == 6) == (want.err == 0 && want.head > 0), "guard message sane",
                            "message %zu: err %d head %ld", m, want.err, want.head);
                if (n == len && m == 2) /* the chunked one decodes to its end, trailers and all */
                    t_check(want.chunked == (l ? 0 : 20) && want.decoded == 26 && want.block > 0,
                            "guard chunked message sane", "chunked %ld decoded %zu block %ld", want.chunked,
                            want.decoded, want.block);
                simdhttp_isa_set(isa);
                struct result got = run(s, n, lenients[l]);
                runs++;
                if (memcmp(&want, &got, sizeof want) != 0 && bad++ == 0)
                    snprintf(first, sizeof first,
                             "message %zu prefix %zu lenient %u: err %d/%d off %llu/%llu head %ld/%ld fields %zu/%zu",
                             m, n, lenients[l], got.err, want.err, (unsigned long long)got.off,
                             (unsigned long long)want.off, got.head, want.head, got.fields, want.fields);
            }
    }
    char name[64];
    snprintf(name, sizeof name, "%s parser at guard page (%ld prefixes)", simdhttp_isa_to_name(isa), runs);
    t_check(bad == 0, name, "%ld differ from scalar; first: %s", bad, first);
}

/* A random Cookie value: pairs of names (tchar, now and then a byte that is not) and values
 * (cookie-octets, sometimes quoted, now and then a byte that is not), with the separators the
 * iterator accepts, of any length up to cap. */
static size_t cookie_value(char *b, size_t cap)
{
    static const char tch[] = "abcXYZ019_-.!#$%&'*+^`|~";
    static const char oct[] = "abcXYZ019_-.!#$%&'()*+/:<=>?@[]^`{|}~";
    static const char odd[] = " \t\";,\\\x7f\x80\x01=";
    size_t n = 0, want = rnd() % (cap + 1);
    while (n < want) {
        size_t nl = rnd() % 4 == 0 ? rnd() % 48 : rnd() % 12, vl = rnd() % 3 == 0 ? rnd() % 100 : rnd() % 24;
        int quote = rnd() % 8 == 0;
        for (size_t i = 0; i < nl && n < want; i++)
            b[n++] = rnd() % 64 == 0 ? odd[rnd() % (sizeof odd - 1)] : tch[rnd() % (sizeof tch - 1)];
        if (n < want && rnd() % 32) b[n++] = '=';
        if (quote && n < want) b[n++] = '"';
        for (size_t i = 0; i < vl && n < want; i++)
            b[n++] = rnd() % 64 == 0 ? odd[rnd() % (sizeof odd - 1)] : oct[rnd() % (sizeof oct - 1)];
        if (quote && n < want && rnd() % 8) b[n++] = '"';
        if (rnd() % 4 == 0 && n < want) b[n++] = ' ';
        if (n < want) b[n++] = ';';
        if (rnd() % 2 && n < want) b[n++] = ' ';
    }
    return n;
}

/* every pair and the first error, as offsets into s */
static size_t cookie_render(const uint8_t *s, size_t n, uint32_t *out, size_t cap)
{
    simdhttp_cookie_iter it;
    simdhttp_field c;
    size_t k = 0;
    simdhttp_cookies_of((const char *)s, n, &it);
    while (simdhttp_cookie_next(&it, &c) == 1 && k + 4 <= cap) {
        out[k++] = (uint32_t)((const uint8_t *)c.name - s), out[k++] = (uint32_t)c.name_len;
        out[k++] = (uint32_t)((const uint8_t *)c.value - s), out[k++] = (uint32_t)c.value_len;
    }
    out[k++] = (uint32_t)it.errors;
    out[k++] = (uint32_t)it.error_offset;
    out[k++] = (uint32_t)(it.errors ? (const uint8_t *)it.error_pair - s : 0);
    out[k++] = (uint32_t)it.error_pair_len;
    return k;
}

static void cookies(simdhttp_isa isa)
{
    char v[MAXLEN];
    uint32_t want[4 * MAXLEN + 8], got[4 * MAXLEN + 8];
    long bad = 0, runs = 0;
    char first[200] = "";
    for (int r = 0; r < 3000; r++) {
        size_t n = cookie_value(v, r < MAXLEN ? (size_t)r : MAXLEN - 1);
        for (int side = 0; side < 2; side++) {
            const uint8_t *s = side ? at_start(v, n) : at_end(v, n);
            simdhttp_isa_set(SIMDHTTP_ISA_SCALAR);
            size_t kw = cookie_render(s, n, want, sizeof want / sizeof *want);
            simdhttp_isa_set(isa);
            size_t kg = cookie_render(s, n, got, sizeof got / sizeof *got);
            runs++;
            if ((kw != kg || memcmp(want, got, kw * sizeof *want) != 0) && bad++ == 0)
                snprintf(first, sizeof first, "value %.*s: %zu/%zu words", (int)(n < 120 ? n : 120), v, kg, kw);
        }
    }
    char name[64];
    snprintf(name, sizeof name, "%s cookie iterator at guard page (%ld values)", simdhttp_isa_to_name(isa), runs);
    t_check(bad == 0, name, "%ld differ from scalar; first: %s", bad, first);
}

int main(void)
{
    if (!t_check(setup(), "mmap guard pages", "mmap/mprotect failed")) return t_summary();
    simdhttp_isa chosen = simdhttp_isa_get();
    /* the scalar path too: its scanners are what the others are compared to */
    const char *want = getenv("SIMDHTTP_ISA");
    if (!want || !*want || chosen == SIMDHTTP_ISA_SCALAR) parser(SIMDHTTP_ISA_SCALAR);
    const struct simd_path *sel[8];
    int nsel = 0;
    for (const struct simd_path *p = simd_paths; p->fn; p++)
        if (path_selected(p->isa)) sel[nsel++] = p; /* before any isa_set changes the choice */
    for (int i = 0; i < nsel; i++) {
        scanners(sel[i]);
        parser(sel[i]->isa);
        cookies(sel[i]->isa);
    }
    for (const struct stage1_path *p = stage1_paths; p->fn; p++)
        if (p->isa == SIMDHTTP_ISA_SCALAR ? !want || !*want || chosen == SIMDHTTP_ISA_SCALAR
                                          : simdhttp_isa_supported(p->isa) && (!want || !*want || chosen == p->isa))
            stage1(p, simdhttp__stage1_scalar);
    simdhttp_isa_set(chosen);
    return t_summary();
}
