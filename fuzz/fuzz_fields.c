/* SPDX-License-Identifier: MIT */
/* Differential fuzzer for the APIs that read untrusted bytes after the head: the cookie
 * iterator, the simdhttp_fields collection and the head lookups, simdhttp_parse_fields (a bare
 * field block: a trailer section) and the standalone chunked decoder. fuzz_diff.c covers the
 * streaming parser and the head API; this one covers what they hand the bytes on to.
 *
 * One input = a 10-byte configuration (fuzz_diff.c's size, so fuzz/replay_main.c's boundary
 * edits fit) + bytes that each check reads its own way:
 *   b0  lenient flags, bits 0-7 (checks 3-5)
 *   b1  bits 0-3 lenient flags, bits 8-11; bit 4 SIMDHTTP_CHUNKED_CONSUME_TRAILERS (check 5);
 *       bits 5-7 how the decoder's pieces are cut (fuzz_diff.c's chunking modes)
 *   b2  bits 0-1 the head type of check 4 (0 request, 1 response, 2-3 both); bit 2 small
 *       limits (b3..b5); bits 3-4 the Cookie name's spelling in check 1's head; bit 5 another
 *       field between its Cookie fields; bit 6 a Set-Cookie field after each Cookie field
 *   b3  max_head_size = 44 + b3 * 4 (0: default)   (only with b2 bit 2; at least 48: the
 *       streaming runs' response head, 47 bytes, must pass it)
 *   b4  max_fields = b4 & 31 (0: default)          (only with b2 bit 2)
 *   b5  max_chunk_ext = b5 (0: default)            (only with b2 bit 2)
 *   b6, b7  unused
 *   b8, b9  seed of the decoder's pieces, the parse_fields_continue steps and the samples
 *
 * Checks; the path-dependent ones run on every path the CPU supports (simdhttp_isa_set) and
 * are compared with the scalar path's result:
 *   (1) cookies: simdhttp_cookies_of over the bytes (in place, and copied into a malloc of
 *       exactly their size, so ASan sees a read past them): every pair (spans as offsets),
 *       errors after each pair, the first error (pair, reason, field, offset), the end, and 0
 *       on a call after the end. The bytes' lines (without CR or NUL: no field value holds
 *       one) as the Cookie fields of a head: simdhttp_head_cookies and simdhttp_fields_cookies
 *       (on simdhttp_fields_from_head) walk the same pairs, with the same errors, as
 *       simdhttp_cookies_of over each value in turn; simdhttp_cookies_of over the combined
 *       value (simdhttp_fields_combined: joined with "; ") gives the same pairs and errors
 *   (2) a reference written from RFC 6265 section 4.2.1 and the separators the header allows
 *       (split at ';', SP/HTAB around it, empty pairs skipped; a pair is token "=" value,
 *       value *cookie-octet or quoted): the same pairs, error count, first bad pair and its
 *       field, on the bytes and on check 1's Cookie values; the error offset inside that pair
 *   (3) simdhttp_parse_fields on the bytes (a field block) against the streaming parser's
 *       trailer section after "0\r\n" of a chunked response; and where the bytes begin with
 *       a chunked body that the decoder ends (check 5, trailers left), on the bytes after it
 *       against the same response's trailer section: length, fields (the streaming
 *       value's trailing OWS trimmed; its obs-fold SP a field with name NULL), or the error
 *       (code, offset from the block's start, reason), or INCOMPLETE where the stream ends
 *       inside the section; simdhttp_parse_fields_continue in random steps against
 *       simdhttp_parse_fields on each prefix (an error may come late, as INCOMPLETE); a
 *       fields_cap below the block's field count: TOO_MANY_HEADERS with that many fields
 *   (4) lookups (plain C, the scalar path): the bytes as a head (else as a field block); for
 *       every field, simdhttp_head_find / simdhttp_head_get by name (ASCII case-insensitive)
 *       and by id, simdhttp_head_field_id, against a linear reference; the same lookups on
 *       simdhttp_fields_from_head (get, contains, values, combined, at) with obs-fold
 *       continuations joined by one SP; every known id looked up; the list built by
 *       simdhttp_fields_append equal to it
 *   (5) the chunked decoder on the bytes as a chunked body: in place in one call, and in
 *       random pieces (each copied into a malloc of exactly its size), against the streaming
 *       parser's on_body bytes and result for "HTTP/1.1 200 OK\r\nTransfer-Encoding:
 *       chunked\r\n\r\n" + the bytes: the same decoded bytes, the same end (the bytes after
 *       it handed back unchanged), the same error (code, offset from the body's start,
 *       reason), or both still going; an error or the end sticks
 * Where two APIs say the same thing differently by contract (include/simdhttp.h), the harness
 * maps one onto the other, never skips it:
 *   - a streaming field value keeps its trailing OWS, the head API's does not (on_header_field);
 *     an obs-fold is one SP span from constant memory in the stream, a field with name NULL
 *     in the head API (SIMDHTTP_LENIENT_OBS_FOLD): both rendered the head API's way;
 *   - the stream's offsets count from its first byte, the decoder's from the body's and
 *     parse_fields' from the block's (simdhttp_chunked, simdhttp_parse_fields): subtracted;
 *   - by default the decoder ends the body at the last chunk's line and leaves the trailer
 *     section (SIMDHTTP_CHUNKED_CONSUME_TRAILERS): the stream pauses there too, else at
 *     on_message_complete; parse_fields' INCOMPLETE is a stream that used every byte with no
 *     error inside the section;
 *   - max_head_size limits the stream's response head as well as the trailer section, so
 *     the configuration never sets it below that head's 48 bytes (b3 above);
 *   - an obs-fold continuation joins the previous value with one SP in simdhttp_fields
 *     (simdhttp_fields_from_head), and Cookie values combine with "; ", others with ", "
 *     (simdhttp_fields_combined).
 * Any difference prints both logs (the first differing line first) and traps.
 *
 * Build: make fuzz-fields (libFuzzer, clang); make test replays fuzz/corpus-fields/ through
 * fuzz/replay_main.c, which works with gcc too (tests/fuzz_replay.sh). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simdhttp.h"
#include "fuzz_common.h"

#define CFG_BYTES 10
#define MAX_VALUES 64 /* Cookie fields in check 1's head */

/* ------------------------------------------------------------------ small helpers ---- */
/* (and fuzz/fuzz_common.h) */

/* the log so far (never NULL) */
static char *done(t_buf *b)
{
    if (!b->s) t_buf_put(b, "", 0);
    return b->s;
}

/* A copy of s[0..n) in a buffer of exactly n bytes (ASan flags any byte outside it). */
static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* ASCII case-insensitive equality (the header's rule for names) */
static int ci_eq(const char *a, size_t al, const char *b, size_t bl)
{
    if (al != bl) return 0;
    for (size_t i = 0; i < al; i++)
        if (lower((unsigned char)a[i]) != lower((unsigned char)b[i])) return 0;
    return 1;
}

static int same(const char *a, size_t al, const char *b, size_t bl) { return al == bl && (!al || memcmp(a, b, al) == 0); }

/* Objects start from dirty memory (as in fuzz_diff.c: a member that init forgets changes a
 * log); under MemorySanitizer they stay uninitialised, which MSan reports when read. */

/* What the run is, for the divergence report. */

/* A broken promise with no second log: print the details, then trap. */
static void fail(const char *what, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
static void fail(const char *what, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    diverge(what, NULL, NULL);
}

/* xorshift32 */
/* Length of the next piece (fuzz_diff.c's modes): 0 whole, 1 one byte, 2 1..4, 3 1..16,
 * 4 1..64, 5 1..512, 6 two pieces split at a random offset, 7 0..8 (empty pieces too). */
/* ------------------------------------------------------------------ configuration ---- */

typedef struct fcfg {
    simdhttp_config cfg; /* checks 3-5 (and 4's head) */
    unsigned consume;    /* SIMDHTTP_CHUNKED_CONSUME_TRAILERS or 0 */
    unsigned mode;       /* the decoder's pieces */
    simdhttp_type head_type;
    unsigned spelling, between, set_cookie;
    uint32_t seed;
} fcfg;

static void read_cfg(fcfg *c, const uint8_t *d, size_t n)
{
    uint8_t b[CFG_BYTES] = {0};
    memcpy(b, d, n < CFG_BYTES ? n : CFG_BYTES);
    memset(&c->cfg, 0, sizeof c->cfg);
    c->cfg.lenient = ((uint32_t)b[0] | (uint32_t)b[1] << 8) & SIMDHTTP_LENIENT_ALL;
    c->consume = b[1] & 16 ? SIMDHTTP_CHUNKED_CONSUME_TRAILERS : 0;
    c->mode = b[1] >> 5;
    c->head_type = (b[2] & 3) == 0 ? SIMDHTTP_REQUEST : (b[2] & 3) == 1 ? SIMDHTTP_RESPONSE : SIMDHTTP_BOTH;
    if (b[2] & 4) {
        c->cfg.max_head_size = b[3] ? 44 + (uint32_t)b[3] * 4 : 0;
        c->cfg.max_fields = b[4] & 31;
        c->cfg.max_chunk_ext = b[5];
    }
    c->spelling = (b[2] >> 3) & 3;
    c->between = (b[2] >> 5) & 1;
    c->set_cookie = (b[2] >> 6) & 1;
    c->seed = (uint32_t)b[8] | (uint32_t)b[9] << 8;
}

/* ------------------------------------------------------------------ (1) cookie logs ---- */

/* The Cookie values an iteration walks, in order. */
typedef struct vset {
    size_t n;
    const char *p[MAX_VALUES];
    size_t len[MAX_VALUES];
} vset;

static void vset_add(vset *v, const char *p, size_t len)
{
    if (v->n == MAX_VALUES) fail("more Cookie values than the harness made", "%zu", v->n);
    v->p[v->n] = p;
    v->len[v->n++] = len;
}

/* the index of the value that holds [s, s + n) */
static size_t vset_find(const vset *v, const char *s, size_t n)
{
    for (size_t i = 0; i < v->n; i++)
        if ((uintptr_t)s >= (uintptr_t)v->p[i] && (uintptr_t)s + n <= (uintptr_t)v->p[i] + v->len[i]) return i;
    fail("a cookie span outside every Cookie value", "span %p + %zu, %zu values", (const void *)s, n, v->n);
}

/* Three renderings: FULL is everything the iterator says; REF leaves out what the reference
 * of check 2 does not compute (the reason, the exact error offset); BYTES leaves out where
 * the spans are (check 1's combined value has other offsets), and the error's field and offset. */
enum { CL_FULL, CL_REF, CL_BYTES };

static void put_span(t_buf *b, const vset *v, const char *s, size_t n, int mode)
{
    if (mode != CL_BYTES) {
        size_t i = vset_find(v, s, n);
        t_buf_printf(b, "%zu@%zu+%zu", i, (size_t)(s - v->p[i]), n);
    }
    t_buf_put(b, "\"", 1);
    t_buf_hex_escaped(b, s, n);
    t_buf_put(b, "\"", 1);
}

static void cl_pair(t_buf *b, const vset *v, int mode, const simdhttp_field *c, size_t errors)
{
    t_buf_put(b, "pair ", 5);
    put_span(b, v, c->name, c->name_len, mode);
    t_buf_put(b, " = ", 3);
    put_span(b, v, c->value, c->value_len, mode);
    t_buf_printf(b, " errors=%zu\n", errors);
}

/* The end: the error count and the first error (field: an index into v). */
static void cl_end(t_buf *b, const vset *v, int mode, size_t errors, const char *pair, size_t pair_len,
                   const char *reason, size_t field, size_t offset)
{
    t_buf_printf(b, "end errors=%zu\n", errors);
    if (!errors) return;
    t_buf_put(b, "first error: ", 13);
    if (mode != CL_BYTES) {
        if (field >= v->n || vset_find(v, pair, pair_len) != field || offset > v->len[field] ||
            offset < (size_t)(pair - v->p[field]))
            fail("cookie error fields disagree", "error_field %zu, error_offset %zu, pair at %p + %zu", field,
                 offset, (const void *)pair, pair_len);
        t_buf_printf(b, "field=%zu ", field);
    }
    put_span(b, v, pair, pair_len, mode);
    if (mode != CL_REF) t_buf_printf(b, " reason=%s", reason ? reason : "(null)");
    if (mode == CL_FULL) t_buf_printf(b, " offset=%zu", offset);
    t_buf_put(b, "\n", 1);
}

/* Runs an iterator to its end. fmap[i]: the index into v of the iterator's field i (its
 * error_field); NULL: the same index. */
static char *cookie_log(simdhttp_cookie_iter *it, const vset *v, const size_t *fmap, size_t nmap, int mode)
{
    t_buf b = {0};
    simdhttp_field c;
    size_t pairs = 0, errors = 0;
    for (;;) {
        memset(&c, 0xA5, sizeof c);
        int r = simdhttp_cookie_next(it, &c);
        if (r == 0) break;
        if (r != 1) fail("simdhttp_cookie_next returned neither 0 nor 1", "%d", r);
        if (it->errors < errors) fail("cookie errors went down", "%zu -> %zu", errors, it->errors);
        errors = it->errors;
        cl_pair(&b, v, mode, &c, it->errors);
        if (++pairs > 8192) fail("more cookie pairs than bytes", "%zu", pairs);
    }
    size_t field = it->error_field;
    if (it->errors && fmap) {
        if (field >= nmap || fmap[field] == (size_t)-1) fail("error_field is no Cookie field", "%zu", field);
        field = fmap[field];
    }
    cl_end(&b, v, mode, it->errors, it->error_pair, it->error_pair_len, it->error_reason, field, it->error_offset);
    /* 0 at the end and on every later call, nothing changed */
    size_t e = it->errors;
    if (simdhttp_cookie_next(it, &c) != 0 || simdhttp_cookie_next(it, &c) != 0 || it->errors != e)
        fail("simdhttp_cookie_next after the end", "errors %zu -> %zu", e, it->errors);
    return done(&b);
}

/* simdhttp_cookies_of over each value in turn (each copied into a malloc of exactly its
 * size), logged as one iteration over all: what simdhttp_head_cookies and
 * simdhttp_fields_cookies must say over Cookie fields with these values. */
static char *cookie_chain_log(const vset *v, int mode, uint32_t seed)
{
    vset cp = {0};
    for (size_t i = 0; i < v->n; i++) vset_add(&cp, exact_copy(v->p[i], v->len[i]), v->len[i]);
    t_buf b = {0};
    size_t base = 0;
    simdhttp_cookie_iter first; /* the iterator of the first error */
    size_t first_field = 0;
    memset(&first, 0, sizeof first);
    for (size_t i = 0; i < cp.n; i++) {
        simdhttp_cookie_iter it;
        dirty(&it, sizeof it, seed + (uint32_t)i);
        simdhttp_cookies_of(cp.p[i], cp.len[i], &it);
        simdhttp_field c;
        int r;
        while ((r = simdhttp_cookie_next(&it, &c)) == 1) cl_pair(&b, &cp, mode, &c, base + it.errors);
        if (r != 0) fail("simdhttp_cookie_next returned neither 0 nor 1", "%d", r);
        if (it.errors && !base) first = it, first_field = i;
        if (it.errors && it.error_field != 0) fail("simdhttp_cookies_of: error_field is not 0", "%zu", it.error_field);
        base += it.errors;
    }
    if (base) cl_end(&b, &cp, mode, base, first.error_pair, first.error_pair_len, first.error_reason, first_field, first.error_offset);
    else cl_end(&b, &cp, mode, 0, NULL, 0, NULL, 0, 0);
    for (size_t i = 0; i < cp.n; i++) free((void *)cp.p[i]);
    return done(&b);
}

/* ------------------------------------------------------------------ (2) the reference ---- */

/* RFC 9110 section 5.6.2 tchar */
static int ref_tchar(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* RFC 6265 section 4.2.1 cookie-octet = %x21 / %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E */
static int ref_octet(unsigned char c)
{
    return c == 0x21 || (c >= 0x23 && c <= 0x2b) || (c >= 0x2d && c <= 0x3a) || (c >= 0x3c && c <= 0x5b) ||
           (c >= 0x5d && c <= 0x7e);
}

static int ref_ws(char c) { return c == ' ' || c == '\t'; }

/* One cookie-pair s[0..n) (no ';' in it, trailing SP/HTAB already cut): cookie-name "="
 * cookie-value, cookie-name = token, cookie-value = *cookie-octet / DQUOTE *cookie-octet
 * DQUOTE. @return 1 and the name's length and the value's start if it is one. */
static int ref_pair(const char *s, size_t n, size_t *name_len, size_t *vs)
{
    size_t i = 0;
    while (i < n && ref_tchar((unsigned char)s[i])) i++;
    if (i == 0 || i == n || s[i] != '=') return 0;
    *name_len = i;
    *vs = ++i;
    if (i < n && s[i] == '"') {
        size_t j = i + 1;
        while (j < n && ref_octet((unsigned char)s[j])) j++;
        return j + 1 == n && s[j] == '"';
    }
    while (i < n && ref_octet((unsigned char)s[i])) i++;
    return i == n;
}

/* The cookie-pairs of the values v, CL_REF-rendered: each value split at ';', SP/HTAB around
 * a pair dropped, empty pairs skipped (the separators the header lets through); a pair that
 * is not well-formed is an error, the first one reported with its bytes (up to the next ';',
 * trailing SP/HTAB cut) and its value's index. *err_lo, *err_hi: where the first error's pair
 * begins and where its ';' (or the value's end) is: its error_offset lies in between. */
static char *cookie_ref_log(const vset *v, size_t *err_lo, size_t *err_hi)
{
    t_buf b = {0};
    size_t errors = 0, ef = 0;
    const char *ep = NULL;
    size_t epl = 0;
    for (size_t f = 0; f < v->n; f++) {
        const char *s = v->p[f];
        size_t n = v->len[f], p = 0;
        for (;;) {
            while (p < n && (ref_ws(s[p]) || s[p] == ';')) p++;
            if (p == n) break;
            size_t q = p, e;
            while (q < n && s[q] != ';') q++;
            for (e = q; e > p && ref_ws(s[e - 1]); e--) {
            }
            size_t nl, vs;
            if (ref_pair(s + p, e - p, &nl, &vs)) {
                simdhttp_field c = {s + p, nl, s + p + vs, e - p - vs};
                cl_pair(&b, v, CL_REF, &c, errors);
            } else if (!errors++) {
                ep = s + p, epl = e - p, ef = f;
                *err_lo = p, *err_hi = q;
            }
            p = q;
        }
    }
    cl_end(&b, v, CL_REF, errors, ep, epl, NULL, ef, ep ? (size_t)(ep - v->p[ef]) : 0);
    return done(&b);
}

/* ------------------------------------------------------------------ (1) the checks ---- */

/* Check 1's head: "GET / HTTP/1.1", Host, then each value as a Cookie field (spelled as the
 * configuration says; another field between them, a Set-Cookie after each, if it says so). */
static char *cookie_head_text(const fcfg *c, const vset *pieces, size_t *len)
{
    static const char *const spelling[] = {"Cookie", "cookie", "COOKIE", "cOoKiE"};
    t_buf b = {0};
    t_buf_put(&b, "GET / HTTP/1.1\r\nHost: h\r\n", 25);
    for (size_t i = 0; i < pieces->n; i++) {
        if (c->between && i) t_buf_printf(&b, "X-Between: %zu\r\n", i);
        t_buf_printf(&b, "%s: ", spelling[c->spelling]);
        t_buf_put(&b, pieces->p[i], pieces->len[i]);
        t_buf_put(&b, "\r\n", 2);
        if (c->set_cookie) {
            t_buf_put(&b, "Set-Cookie: ", 12);
            t_buf_put(&b, pieces->p[i], pieces->len[i]);
            t_buf_put(&b, "\r\n", 2);
        }
    }
    t_buf_put(&b, "\r\n", 2);
    *len = b.len;
    return b.s;
}

/* The input's lines (split at LF, one CR before it dropped) that a field value can hold (no
 * CR, no NUL), at most MAX_VALUES; v points into in. */
static void cookie_lines(const uint8_t *in, size_t len, vset *v)
{
    v->n = 0;
    size_t s = 0;
    while (s <= len && v->n < MAX_VALUES) {
        const uint8_t *lf = memchr(in + s, '\n', len - s);
        size_t e = lf ? (size_t)(lf - in) : len, ve = e;
        if (ve > s && in[ve - 1] == '\r') ve--;
        if (!memchr(in + s, '\r', ve - s) && !memchr(in + s, 0, ve - s)) vset_add(v, (const char *)in + s, ve - s);
        if (!lf) break;
        s = e + 1;
    }
}

/* The values as the head API gives them: SP/HTAB cut at both ends. */
static void trim(const char **p, size_t *n)
{
    while (*n && ref_ws((*p)[0])) (*p)++, (*n)--;
    while (*n && ref_ws((*p)[*n - 1])) (*n)--;
}

typedef struct cookie_refs {
    char *raw, *raw_ref;    /* the bytes as one value: CL_FULL, CL_REF */
    char *chain, *chain_bytes; /* check 1's values, one iterator each: CL_FULL, CL_BYTES */
    char *chain_ref;        /* the same, CL_REF */
} cookie_refs;

/* The library on the bytes as one value (in place if inplace, else an exact copy). */
static char *cookies_raw(const uint8_t *in, size_t len, int inplace, int mode, uint32_t seed)
{
    const char *p = inplace ? (const char *)in : exact_copy(in, len);
    vset v = {0};
    vset_add(&v, p, len);
    simdhttp_cookie_iter it;
    dirty(&it, sizeof it, seed);
    simdhttp_cookies_of(p, len, &it);
    char *log = cookie_log(&it, &v, NULL, 0, mode);
    if (!inplace) free((void *)p);
    return log;
}

/* The head of check 1 on this path: its Cookie values through simdhttp_head_cookies,
 * simdhttp_fields_cookies, the chain of simdhttp_cookies_of and the combined value. */
static void cookies_in_head(const fcfg *c, const char *text, size_t tlen, const vset *pieces, const cookie_refs *r,
                            int scalar)
{
    size_t cap = 4 * MAX_VALUES + 8;
    simdhttp_field fields[4 * MAX_VALUES + 8];
    simdhttp_head h;
    memset(&h, 0xA5, sizeof h);
    h.fields = fields;
    h.fields_cap = cap;
    simdhttp_config hc = {0};
    hc.lenient = SIMDHTTP_LENIENT_HEADERS; /* any byte but CR, LF and NUL in the values */
    hc.max_fields = (uint32_t)cap;
    char *copy = exact_copy(text, tlen);
    long rl = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, copy, tlen, &hc);
    if (rl != (long)tlen)
        fail("check 1's head did not parse", "parse_head %ld of %zu bytes: %s at %zu (%s)", rl, tlen,
             simdhttp_errno_name(h.error), h.error_offset, h.error_reason ? h.error_reason : "");
    /* its Cookie values, and where each field index points among them */
    vset hv = {0};
    size_t hmap[4 * MAX_VALUES + 8];
    for (size_t i = 0; i < h.num_fields; i++) {
        hmap[i] = (size_t)-1;
        if (h.fields[i].name && ci_eq(h.fields[i].name, h.fields[i].name_len, "cookie", 6)) {
            hmap[i] = hv.n;
            vset_add(&hv, h.fields[i].value, h.fields[i].value_len);
        }
    }
    if (hv.n != pieces->n) fail("check 1's head: Cookie fields", "%zu fields for %zu values", hv.n, pieces->n);
    for (size_t i = 0; i < hv.n; i++) {
        const char *p = pieces->p[i];
        size_t n = pieces->len[i];
        trim(&p, &n);
        if (!same(hv.p[i], hv.len[i], p, n)) fail("check 1's head: a Cookie value is not the line, trimmed", "value %zu", i);
    }
    /* the chain itself: the reference was computed on scalar */
    if (!scalar) check("cookies_of over each value in turn", r->chain, cookie_chain_log(&hv, CL_FULL, c->seed));

    simdhttp_cookie_iter it;
    dirty(&it, sizeof it, c->seed ^ 1u);
    simdhttp_head_cookies(&h, &it);
    check("head_cookies vs cookies_of over each value", r->chain, cookie_log(&it, &hv, hmap, h.num_fields, CL_FULL));

    simdhttp_fields f = SIMDHTTP_FIELDS_INIT;
    int rc = simdhttp_fields_from_head(&f, &h);
    if (rc) fail("simdhttp_fields_from_head on check 1's head", "%d", rc);
    free(copy); /* the collection keeps its own bytes */
    vset fv = {0};
    size_t fmap[4 * MAX_VALUES + 8];
    simdhttp_field x;
    size_t nf = 0;
    for (int id; (id = simdhttp_fields_at(&f, nf, &x)) >= 0; nf++) {
        fmap[nf] = (size_t)-1;
        if (id == SIMDHTTP_FIELD_COOKIE) {
            fmap[nf] = fv.n;
            vset_add(&fv, x.value, x.value_len);
        }
    }
    dirty(&it, sizeof it, c->seed ^ 2u);
    simdhttp_fields_cookies(&f, &it);
    check("fields_cookies vs cookies_of over each value", r->chain, cookie_log(&it, &fv, fmap, nf, CL_FULL));

    /* the combined value ("; " between the values): the same pairs and errors */
    char one;
    long cl = simdhttp_fields_combined(&f, NULL, SIMDHTTP_FIELD_COOKIE, &one, 0);
    if (!pieces->n) {
        if (cl != -1) fail("fields_combined of no Cookie field", "%ld", cl);
    } else {
        if (cl < 0) fail("fields_combined of the Cookie fields", "%ld", cl);
        char *comb = malloc(cl ? (size_t)cl : 1);
        if (!comb) abort();
        if (simdhttp_fields_combined(&f, NULL, SIMDHTTP_FIELD_COOKIE, comb, (size_t)cl) != cl)
            fail("fields_combined returned another length", "%ld", cl);
        vset cv = {0};
        vset_add(&cv, comb, (size_t)cl);
        dirty(&it, sizeof it, c->seed ^ 3u);
        simdhttp_cookies_of(comb, (size_t)cl, &it);
        check("cookies_of on the combined value vs each value", r->chain_bytes, cookie_log(&it, &cv, NULL, 0, CL_BYTES));
        free(comb);
    }
    simdhttp_fields_free(&f);
}

/* ------------------------------------------------------------------ (3) field blocks ---- */

static const char chunked_head[] = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
#define CHUNKED_HEAD_LEN (sizeof chunked_head - 1)
static const char last_chunk[] = "0\r\n";

/* The streaming parser over a prefix + the input: trailer fields, body bytes, the result. */
typedef struct srec {
    const char *base;
    size_t len;
    t_buf fields, name, value; /* trailer fields: "name: value\n", "(fold): value\n" */
    int in_value;
    t_buf body;
    int stop_last_chunk; /* pause at the last chunk's header, as the decoder stops by default */
} srec;

static void s_value_done(srec *r)
{
    if (!r->in_value) return;
    /* the streaming value keeps trailing OWS; parse_fields trims it */
    size_t n = r->value.len;
    while (n && ref_ws(r->value.s[n - 1])) n--;
    t_buf_hex_escaped(&r->fields, r->value.s ? r->value.s : "", n);
    t_buf_put(&r->fields, "\n", 1);
    r->value.len = 0;
    r->in_value = 0;
}

static int s_trailer(simdhttp_parser *p) { return (p->flags & SIMDHTTP_F_TRAILERS) != 0; }

static int s_field(simdhttp_parser *p, const char *at, size_t len)
{
    srec *r = p->data;
    if (!s_trailer(p)) return 0;
    s_value_done(r);
    t_buf_put(&r->name, at, len);
    return 0;
}

static int s_field_complete(simdhttp_parser *p)
{
    srec *r = p->data;
    if (!s_trailer(p)) return 0;
    t_buf_hex_escaped(&r->fields, r->name.s ? r->name.s : "", r->name.len);
    t_buf_put(&r->fields, ": ", 2);
    r->name.len = 0;
    r->in_value = 1;
    return 0;
}

static int s_value(simdhttp_parser *p, const char *at, size_t len)
{
    srec *r = p->data;
    if (!s_trailer(p)) return 0;
    if ((uintptr_t)at < (uintptr_t)r->base || (uintptr_t)at > (uintptr_t)r->base + r->len) {
        /* the SP that stands for an obs-fold: the head API starts a field with name NULL */
        s_value_done(r);
        t_buf_put(&r->fields, "(fold): ", 8);
        r->in_value = 1;
        return 0;
    }
    t_buf_put(&r->value, at, len);
    return 0;
}

static int s_value_complete(simdhttp_parser *p)
{
    if (s_trailer(p)) s_value_done(p->data);
    return 0;
}

static int s_body(simdhttp_parser *p, const char *at, size_t len)
{
    srec *r = p->data;
    t_buf_put(&r->body, at, len);
    return 0;
}

static int s_chunk_header(simdhttp_parser *p)
{
    srec *r = p->data;
    return r->stop_last_chunk && p->content_length == 0 ? SIMDHTTP_PAUSE : 0;
}

static int s_message_complete(simdhttp_parser *p)
{
    s_value_done(p->data);
    return SIMDHTTP_PAUSE;
}

static const simdhttp_callbacks s_callbacks = {
    .on_header_field = s_field,
    .on_header_field_complete = s_field_complete,
    .on_header_value = s_value,
    .on_header_value_complete = s_value_complete,
    .on_body = s_body,
    .on_chunk_header = s_chunk_header,
    .on_message_complete = s_message_complete,
};

enum { S_INCOMPLETE, S_END, S_ERROR, S_IN_PREFIX };

typedef struct sres {
    int kind;
    uint64_t off; /* S_END, S_ERROR: from the input's start */
    simdhttp_errno e;
    const char *reason;
    char *fields, *body;
    size_t body_len;
} sres;

/* One streaming run over prefix + in[0..len), whole, from dirty memory; offsets from in[from].
 * S_IN_PREFIX: it failed before in[from]. */
static sres stream_after(const fcfg *c, const char *prefix, size_t plen, const uint8_t *in, size_t len, size_t from,
                         int stop_last_chunk)
{
    char *all = malloc(plen + len ? plen + len : 1);
    if (!all) abort();
    memcpy(all, prefix, plen);
    if (len) memcpy(all + plen, in, len);
    srec r;
    memset(&r, 0, sizeof r);
    r.base = all;
    r.len = plen + len;
    r.stop_last_chunk = stop_last_chunk;
    simdhttp_parser p;
    dirty(&p, sizeof p, c->seed * 2654435761u);
    simdhttp_init(&p, SIMDHTTP_RESPONSE, &s_callbacks, &c->cfg);
    p.data = &r;
    simdhttp_errno e = simdhttp_execute(&p, all, plen + len);
    sres s;
    memset(&s, 0, sizeof s);
    s.e = e;
    if (e == SIMDHTTP_OK) {
        s.kind = S_INCOMPLETE;
    } else {
        uint64_t o = simdhttp_get_error_offset(&p);
        s.kind = o < plen + from ? S_IN_PREFIX : e == SIMDHTTP_E_PAUSED ? S_END : S_ERROR;
        s.off = o < plen + from ? 0 : o - plen - from;
        s.reason = simdhttp_get_error_reason(&p);
        if (!s.reason) s.reason = "(null)";
    }
    s_value_done(&r);
    s.fields = done(&r.fields);
    s.body_len = r.body.len;
    s.body = done(&r.body);
    free(r.name.s);
    free(r.value.s);
    free(all);
    return s;
}

static void sres_free(sres *s)
{
    free(s->fields);
    free(s->body);
}

/* The streaming parser's trailer section in[from..len), after prefix + in[0..from) (a chunked
 * response's head and its body up to the last chunk), rendered as parse_fields' result is
 * below. */
static char *trailers_ref(const fcfg *c, const char *prefix, size_t plen, const uint8_t *in, size_t len, size_t from)
{
    sres s = stream_after(c, prefix, plen, in, len, from, 0);
    if (s.kind == S_IN_PREFIX)
        fail("the streaming parser failed before the trailer section", "%s at %llu: %s", simdhttp_errno_name(s.e),
             (unsigned long long)s.off, s.reason);
    t_buf b = {0};
    switch (s.kind) {
    case S_INCOMPLETE: t_buf_put(&b, "incomplete\n", 11); break;
    case S_END:
        t_buf_printf(&b, "len=%llu\n", (unsigned long long)s.off);
        t_buf_put(&b, s.fields, strlen(s.fields)); /* not putf: it cuts at 512 bytes */
        break;
    case S_ERROR:
        t_buf_printf(&b, "error %s off=%llu reason=%s\n", simdhttp_errno_name(s.e), (unsigned long long)s.off, s.reason);
        break;
    default: break;
    }
    sres_free(&s);
    return done(&b);
}

/* simdhttp_parse_fields (last_len 0) or simdhttp_parse_fields_continue on in[0..len),
 * rendered; fields: cap entries. */
static char *fields_api_at(const fcfg *c, const uint8_t *in, size_t len, size_t last_len, simdhttp_field *fields,
                           size_t cap)
{
    char *copy = exact_copy(in, len);
    simdhttp_head h;
    memset(&h, 0xA5, sizeof h);
    h.fields = fields;
    h.fields_cap = cap;
    long r = last_len ? simdhttp_parse_fields_continue(&h, copy, len, last_len, &c->cfg)
                      : simdhttp_parse_fields(&h, copy, len, &c->cfg);
    t_buf b = {0};
    if (r == SIMDHTTP_HEAD_INCOMPLETE) {
        t_buf_put(&b, "incomplete\n", 11);
    } else if (r == SIMDHTTP_HEAD_ERROR) {
        t_buf_printf(&b, "error %s off=%zu reason=%s\n", simdhttp_errno_name(h.error), h.error_offset,
             h.error_reason ? h.error_reason : "(null)");
    } else if (r <= 0 || (size_t)r > len) {
        t_buf_printf(&b, "bad return %ld\n", r);
    } else {
        t_buf_printf(&b, "len=%ld\n", r);
        if (h.num_fields > cap) fail("parse_fields: num_fields > fields_cap", "%zu > %zu", h.num_fields, cap);
        for (size_t i = 0; i < h.num_fields; i++) {
            const simdhttp_field *f = &fields[i];
            if ((f->name && ((uintptr_t)f->name < (uintptr_t)copy || (uintptr_t)f->name + f->name_len > (uintptr_t)copy + (size_t)r)) ||
                (uintptr_t)f->value < (uintptr_t)copy || (uintptr_t)f->value + f->value_len > (uintptr_t)copy + (size_t)r)
                fail("parse_fields: a field outside the block", "field %zu", i);
            if (f->name) t_buf_hex_escaped(&b, f->name, f->name_len);
            else t_buf_put(&b, "(fold)", 6);
            t_buf_put(&b, ": ", 2);
            t_buf_hex_escaped(&b, f->value, f->value_len);
            t_buf_put(&b, "\n", 1);
        }
    }
    free(copy);
    return done(&b);
}

/* What parse_fields says on in[0..k), known from its answer on the whole input (as
 * fuzz_diff.c's head_on_prefix): a block of B bytes is INCOMPLETE before B and the same after;
 * INCOMPLETE stays so. NULL where that cannot tell: after an error, and at B when the block
 * ends in a bare CR (lenient), as an LF may follow. */
static const char *fields_on_prefix(const char *whole, const uint8_t *in, size_t len, size_t k)
{
    if (strcmp(whole, "incomplete\n") == 0) return whole;
    if (strncmp(whole, "len=", 4) != 0) return NULL;
    size_t n = (size_t)strtoull(whole + 4, NULL, 10);
    if (k < n) return "incomplete\n";
    return k > n || k == len || in[n - 1] != '\r' ? whole : NULL;
}

/* The block arriving in random steps through simdhttp_parse_fields_continue: each answer is
 * parse_fields' on that prefix, except that an error may come late as INCOMPLETE. */
static void fields_continue_walk(const fcfg *c, const uint8_t *in, size_t len, const char *whole,
                                 simdhttp_field *fields, size_t cap)
{
    uint32_t st = c->seed ^ 0x2545f491u, sst = c->seed ^ 0x68e31da4u;
    size_t last = 0;
    unsigned samples = 0;
    for (size_t k = 0;;) {
        k += 1 + rnd(&st) % (c->mode & 1 ? 3 : 24);
        if (k > len) k = len;
        char *got = fields_api_at(c, in, k, last, fields, cap);
        int decided = strcmp(got, "incomplete\n") != 0;
        const char *known = fields_on_prefix(whole, in, len, k);
        int sample = samples < 4 && rnd(&sst) % 16 == 0;
        if (decided || k == len || sample || (known && strcmp(known, got) != 0)) {
            samples += sample;
            char *want = fields_api_at(c, in, k, 0, fields, cap);
            int late = !decided && strncmp(want, "error ", 6) == 0;
            if (strcmp(want, got) != 0 && !late) diverge("parse_fields_continue vs parse_fields", want, got);
            if (known && strcmp(known, want) != 0) diverge("parse_fields on a prefix vs on the whole input", known, want);
            free(want);
        }
        free(got);
        if (decided || k == len) break;
        last = k;
    }
}

/* A fields_cap below the block's field count: TOO_MANY_HEADERS, the head filled as far as it
 * goes (num_fields is the capacity), those fields the same. */
static void fields_small_cap(const fcfg *c, const uint8_t *in, size_t len, const char *whole)
{
    if (strncmp(whole, "len=", 4) != 0) return;
    size_t nf = 0;
    for (const char *s = strchr(whole, '\n') + 1; *s; s = strchr(s, '\n') + 1) nf++;
    if (!nf) return;
    size_t cap = c->seed % nf;
    simdhttp_field *fields = malloc((cap ? cap : 1) * sizeof *fields);
    if (!fields) abort();
    char *copy = exact_copy(in, len);
    simdhttp_head h;
    memset(&h, 0xA5, sizeof h);
    h.fields = fields;
    h.fields_cap = cap;
    long r = simdhttp_parse_fields(&h, copy, len, &c->cfg);
    if (r != SIMDHTTP_HEAD_ERROR || h.error != SIMDHTTP_E_TOO_MANY_HEADERS || h.num_fields != cap)
        fail("parse_fields with fields_cap below the field count", "cap %zu of %zu fields: %ld %s num_fields %zu", cap,
             nf, r, simdhttp_errno_name(h.error), h.num_fields);
    t_buf b = {0};
    for (size_t i = 0; i < cap; i++) {
        if (fields[i].name) t_buf_hex_escaped(&b, fields[i].name, fields[i].name_len);
        else t_buf_put(&b, "(fold)", 6);
        t_buf_put(&b, ": ", 2);
        t_buf_hex_escaped(&b, fields[i].value, fields[i].value_len);
        t_buf_put(&b, "\n", 1);
    }
    const char *first = strchr(whole, '\n') + 1;
    if (strncmp(first, b.s ? b.s : "", b.len) != 0) diverge("parse_fields fields up to a small fields_cap", first, done(&b));
    free(b.s);
    free(copy);
    free(fields);
}

/* Check 3 on one field block, in[from..len): the stream reads it as the trailer section after
 * prefix + in[0..from); parse_fields on it alone (copied). *scalar_ref: the scalar path's
 * parse_fields result (set on scalar, compared on the others). */
static void check_block(const fcfg *c, const char *prefix, size_t plen, const uint8_t *in, size_t len, size_t from,
                        char **scalar_ref, int scalar, simdhttp_field *fields)
{
    char *t = trailers_ref(c, prefix, plen, in, len, from);
    char *fb = fields_api_at(c, in + from, len - from, 0, fields, len + 1);
    if (strcmp(t, fb) != 0) diverge("parse_fields vs the streaming trailer section", t, fb);
    free(t);
    if (scalar) *scalar_ref = fb;
    else check("parse_fields vs scalar", *scalar_ref, fb);
    fields_continue_walk(c, in + from, len - from, *scalar_ref, fields, len + 1);
    fields_small_cap(c, in + from, len - from, *scalar_ref);
}

/* ------------------------------------------------------------------ (4) lookups ---- */

/* the value of head field i as simdhttp_fields keeps it: its obs-fold continuations joined
 * with one SP each (header, simdhttp_fields_from_head) */
static void joined(const simdhttp_head *h, size_t i, t_buf *out)
{
    out->len = 0;
    t_buf_put(out, h->fields[i].value, h->fields[i].value_len);
    for (size_t j = i + 1; j < h->num_fields && !h->fields[j].name; j++) {
        t_buf_put(out, " ", 1);
        t_buf_put(out, h->fields[j].value, h->fields[j].value_len);
    }
}

/* the first field at or after `from` whose name is (ASCII case-insensitively) name */
static long ref_find(const simdhttp_head *h, const char *name, size_t len, size_t from)
{
    for (size_t i = from; i < h->num_fields; i++)
        if (h->fields[i].name && ci_eq(h->fields[i].name, h->fields[i].name_len, name, len)) return (long)i;
    return -1;
}

/* the known id of a name: the one whose canonical spelling it is, any case */
static unsigned ref_id(const char *name, size_t len)
{
    for (unsigned x = 1; x < SIMDHTTP_FIELD_ID_COUNT; x++) {
        const char *cn = simdhttp_field_id_name(x);
        if (cn && ci_eq(cn, strlen(cn), name, len)) return x;
    }
    return 0;
}

/* one lookup of a name (or an id: name NULL, len the id) on the head and the collection
 * against ref_find; index: where the collection keeps each head field (-1: a continuation) */
static void lookup(const simdhttp_head *h, const simdhttp_fields *f, const char *name, size_t len, t_buf *tmp)
{
    const char *cn = name;
    size_t cl = len;
    if (!name) cn = simdhttp_field_id_name((unsigned)len), cl = strlen(cn);
    long want = ref_find(h, cn, cl, 0);
    long got = simdhttp_head_find(h, name, len, 0);
    if (got != want) fail("simdhttp_head_find", "%s \"%.*s\": %ld, want %ld", name ? "name" : "id", (int)cl, cn, got, want);
    size_t vl = 12345;
    const char *v = simdhttp_head_get(h, name, len, &vl);
    if (want < 0 ? v || vl : v != h->fields[want].value || vl != h->fields[want].value_len)
        fail("simdhttp_head_get", "\"%.*s\"", (int)cl, cn);
    vl = 12345;
    v = simdhttp_fields_get(f, name, len, &vl);
    int has = simdhttp_fields_contains(f, name, len);
    if (want < 0) {
        if (v || vl || has) fail("simdhttp_fields_get/contains of an absent name", "\"%.*s\"", (int)cl, cn);
        return;
    }
    joined(h, (size_t)want, tmp);
    if (!v || !same(v, vl, tmp->s, tmp->len) || has != 1)
        fail("simdhttp_fields_get/contains", "\"%.*s\": got \"%.*s\"", (int)cl, cn, (int)(v ? vl : 0), v ? v : "");
}

/* The values of a name, in order, and the combined value, against the head's fields. */
static void values_of(const simdhttp_head *h, const simdhttp_fields *f, const char *name, size_t len, t_buf *tmp)
{
    simdhttp_fields_iter it;
    simdhttp_fields_values(f, name, len, &it);
    int cookie = ci_eq(name, len, "cookie", 6);
    t_buf comb = {0};
    size_t k = 0;
    for (long i = ref_find(h, name, len, 0); i >= 0; i = ref_find(h, name, len, (size_t)i + 1), k++) {
        joined(h, (size_t)i, tmp);
        if (k) t_buf_put(&comb, cookie ? "; " : ", ", 2);
        t_buf_put(&comb, tmp->s, tmp->len);
        const char *v;
        size_t vl;
        if (simdhttp_fields_next(&it, &v, &vl) != 1 || !same(v, vl, tmp->s, tmp->len))
            fail("simdhttp_fields_next", "value %zu of \"%.*s\"", k, (int)len, name);
    }
    const char *v;
    size_t vl;
    if (simdhttp_fields_next(&it, &v, &vl) != 0) fail("simdhttp_fields_next after the last value", "\"%.*s\"", (int)len, name);
    char *out = malloc(comb.len ? comb.len : 1); /* exactly: ASan sees a NUL written past cap */
    if (!out) abort();
    long n = simdhttp_fields_combined(f, name, len, out, comb.len); /* exactly its size: no NUL */
    long small = simdhttp_fields_combined(f, name, len, out, comb.len ? comb.len - 1 : 0);
    if (n != (long)comb.len || small != n || (n > 0 && memcmp(out, comb.s, comb.len) != 0))
        fail("simdhttp_fields_combined", "\"%.*s\": %ld (%ld with less room), want %zu", (int)len, name, n, small, comb.len);
    free(out);
    free(comb.s);
}

/* Check 4 on a head (or a field block) the parser filled. */
static void check_lookups(const simdhttp_head *h)
{
    const simdhttp_field *F = h->fields;
    simdhttp_fields f = SIMDHTTP_FIELDS_INIT, g = SIMDHTTP_FIELDS_INIT;
    int rc = simdhttp_fields_from_head(&f, h);
    if (rc) fail("simdhttp_fields_from_head on a parsed head", "%d", rc);
    t_buf tmp = {0};
    size_t k = 0;
    for (size_t i = 0; i < h->num_fields; i++) {
        if (!F[i].name) continue;
        /* the collection's field k is head field i, continuations joined */
        joined(h, i, &tmp);
        simdhttp_field x;
        int id = simdhttp_fields_at(&f, k, &x);
        unsigned hid = simdhttp_head_field_id(h, i);
        if (id < 0 || !same(x.name, x.name_len, F[i].name, F[i].name_len) || !same(x.value, x.value_len, tmp.s, tmp.len))
            fail("simdhttp_fields_at vs the head", "field %zu (head %zu)", k, i);
        if ((unsigned)id != hid || simdhttp_field_id(F[i].name, F[i].name_len) != hid || ref_id(F[i].name, F[i].name_len) != hid)
            fail("known ids disagree", "\"%.*s\": fields_at %d, head_field_id %u, field_id %u, reference %u",
                 (int)F[i].name_len, F[i].name, id, hid, simdhttp_field_id(F[i].name, F[i].name_len),
                 ref_id(F[i].name, F[i].name_len));
        if ((rc = simdhttp_fields_append(&g, F[i].name, F[i].name_len, tmp.s, tmp.len)) != 0)
            fail("simdhttp_fields_append of a parsed field", "field %zu: %d", i, rc);
        long first = ref_find(h, F[i].name, F[i].name_len, 0), next = ref_find(h, F[i].name, F[i].name_len, i + 1);
        if (simdhttp_head_find(h, F[i].name, F[i].name_len, i) != (long)i ||
            simdhttp_head_find(h, F[i].name, F[i].name_len, i + 1) != next)
            fail("simdhttp_head_find from an index", "field %zu", i);
        if (hid && (simdhttp_head_find(h, NULL, hid, i) != (long)i || simdhttp_head_find(h, NULL, hid, i + 1) != next))
            fail("simdhttp_head_find by id from an index", "field %zu", i);
        if (first == (long)i) {
            lookup(h, &f, F[i].name, F[i].name_len, &tmp);
            if (hid) lookup(h, &f, NULL, hid, &tmp);
            values_of(h, &f, F[i].name, F[i].name_len, &tmp);
            /* a near miss: the last byte changed (hash, length and compare paths) */
            char *m = exact_copy(F[i].name, F[i].name_len);
            m[F[i].name_len - 1] ^= 1;
            lookup(h, &f, m, F[i].name_len, &tmp);
            free(m);
        }
        k++;
    }
    if (simdhttp_fields_count(&f) != k || simdhttp_fields_count(&g) != k) fail("simdhttp_fields_count", "%zu, %zu, want %zu", simdhttp_fields_count(&f), simdhttp_fields_count(&g), k);
    if (simdhttp_fields_equal(&f, &g) != 1) fail("fields_from_head vs fields_append: not equal", "%zu fields", k);
    for (unsigned x = 1; x < SIMDHTTP_FIELD_ID_COUNT; x++) lookup(h, &f, NULL, x, &tmp);
    free(tmp.s);
    simdhttp_fields_free(&f);
    simdhttp_fields_free(&g);
}

/* The input as a head of the configured type, else as a field block: check 4 where it parses. */
static void lookups(const fcfg *c, const uint8_t *in, size_t len)
{
    simdhttp_field *fields = malloc((len + 1) * sizeof *fields);
    if (!fields) abort();
    char *copy = exact_copy(in, len);
    simdhttp_head h;
    memset(&h, 0xA5, sizeof h);
    h.fields = fields;
    h.fields_cap = len + 1;
    if (simdhttp_parse_head(&h, c->head_type, copy, len, &c->cfg) > 0 || simdhttp_parse_fields(&h, copy, len, &c->cfg) > 0)
        check_lookups(&h);
    free(copy);
    free(fields);
}

/* ------------------------------------------------------------------ (5) chunked ---- */

static void put_outcome(t_buf *b, const char *what, const uint8_t *body, size_t n)
{
    t_buf_printf(b, "%s: decoded %zu bytes \"", what, n);
    t_buf_hex_escaped(b, (const char *)body, n);
    t_buf_put(b, "\"\n", 2);
}

/* The streaming parser's view of the body: decoded bytes and result. */
static char *chunked_ref(const fcfg *c, const uint8_t *in, size_t len)
{
    sres s = stream_after(c, chunked_head, CHUNKED_HEAD_LEN, in, len, 0, !c->consume);
    if (s.kind == S_IN_PREFIX)
        fail("the streaming parser failed in the response head", "%s: %s", simdhttp_errno_name(s.e), s.reason);
    t_buf b = {0};
    put_outcome(&b, "body", (const uint8_t *)s.body, s.body_len);
    if (s.kind == S_INCOMPLETE) t_buf_put(&b, "incomplete\n", 11);
    else if (s.kind == S_END) t_buf_printf(&b, "end off=%llu\n", (unsigned long long)s.off);
    else t_buf_printf(&b, "error %s off=%llu reason=%s\n", simdhttp_errno_name(s.e), (unsigned long long)s.off, s.reason);
    sres_free(&s);
    return b.s;
}

/* The decoder over in[0..len): whole (mode 0, in place in one exact-size copy) or in pieces,
 * rendered as chunked_ref; *state gets what only the decoder says (chunk_left, in_data). */
static char *chunked_run(const fcfg *c, const uint8_t *in, size_t len, unsigned mode, t_buf *state, long *end_out)
{
    simdhttp_chunked d;
    dirty(&d, sizeof d, c->seed ^ mode);
    simdhttp_chunked_init(&d, &c->cfg, c->consume);
    t_buf out = {0};
    uint32_t st = c->seed;
    size_t off = 0, k = 0;
    long r = SIMDHTTP_CHUNKED_INCOMPLETE;
    uint64_t end = 0;
    do {
        size_t n = next_piece(mode, &st, len - off, len, k++);
        char *piece = exact_copy(in + off, n);
        size_t dl = n;
        r = simdhttp_chunked_decode(&d, piece, &dl);
        if (dl > n) fail("chunked_decode: more bytes out than in", "%zu > %zu", dl, n);
        t_buf_put(&out, piece, dl);
        if (r >= 0) {
            /* the bytes after the body, moved to piece[dl ..], unchanged */
            if ((size_t)r > n - dl || memcmp(piece + dl, in + off + n - (size_t)r, (size_t)r) != 0)
                fail("chunked_decode: the bytes after the body", "%ld after %zu decoded of %zu", r, dl, n);
            end = off + n - (size_t)r;
        }
        free(piece);
        if (r == SIMDHTTP_CHUNKED_INCOMPLETE) {
            if (simdhttp_chunked_in_data(&d) != (d.chunk_left != 0))
                fail("chunked_in_data vs chunk_left", "in_data %d, chunk_left %llu", simdhttp_chunked_in_data(&d),
                     (unsigned long long)d.chunk_left);
        } else if (r < 0 && r != SIMDHTTP_CHUNKED_ERROR) {
            fail("chunked_decode returned an unknown value", "%ld", r);
        }
        off += n;
        if (k > 4 * len + 64) break; /* mode 7 makes empty pieces; bound the loop */
    } while (r == SIMDHTTP_CHUNKED_INCOMPLETE && off < len);
    t_buf b = {0};
    put_outcome(&b, "body", (const uint8_t *)out.s, out.len);
    *end_out = r >= 0 ? (long)end : -1;
    if (r == SIMDHTTP_CHUNKED_INCOMPLETE) {
        t_buf_put(&b, "incomplete\n", 11);
        t_buf_printf(state, "chunk_left=%llu in_data=%d\n", (unsigned long long)d.chunk_left, simdhttp_chunked_in_data(&d));
    } else if (r >= 0) {
        t_buf_printf(&b, "end off=%llu\n", (unsigned long long)end);
        if (d.chunk_left || simdhttp_chunked_in_data(&d)) fail("chunked decoder: chunk data left after the end", "%llu", (unsigned long long)d.chunk_left);
    } else {
        t_buf_printf(&b, "error %s off=%llu reason=%s\n", simdhttp_errno_name(d.error), (unsigned long long)d.error_offset,
             d.error_reason ? d.error_reason : "(null)");
    }
    if (r != SIMDHTTP_CHUNKED_INCOMPLETE) {
        /* it sticks: an error stays, the end becomes INVALID_ARGUMENT; nothing decoded */
        simdhttp_errno e = d.error;
        uint64_t eo = d.error_offset;
        char more[] = "1\r\nx\r\n";
        size_t ml = sizeof more - 1;
        long r2 = simdhttp_chunked_decode(&d, more, &ml);
        if (r2 != SIMDHTTP_CHUNKED_ERROR || ml != 0 ||
            (r < 0 ? d.error != e || d.error_offset != eo : d.error != SIMDHTTP_E_INVALID_ARGUMENT))
            fail("chunked decoder: a call after the end or an error", "%ld, %zu bytes, %s", r2, ml, simdhttp_errno_name(d.error));
    }
    free(out.s);
    return done(&b);
}

/* ------------------------------------------------------------------ the entry point ---- */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    print_paths("fuzz_fields");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fcfg c;
    read_cfg(&c, data, size);
    const uint8_t *in = size > CFG_BYTES ? data + CFG_BYTES : data + size;
    size_t len = size > CFG_BYTES ? size - CFG_BYTES : 0;
    char what[96];
    static int verbose = -1;
    if (verbose < 0) verbose = getenv("FUZZ_FIELDS_VERBOSE") != NULL;

    /* the references, on the scalar path */
    if (simdhttp_isa_set(SIMDHTTP_ISA_SCALAR) != 0) diverge("scalar path refused", NULL, NULL);
    cur_what = "reference: scalar";
    vset pieces, one = {0};
    cookie_lines(in, len, &pieces);
    vset tv = pieces; /* the values as the head API gives them */
    for (size_t i = 0; i < tv.n; i++) trim(&tv.p[i], &tv.len[i]);
    vset_add(&one, (const char *)in, len);
    cookie_refs cr;
    cr.raw = cookies_raw(in, len, 1, CL_FULL, c.seed);
    cr.raw_ref = cookies_raw(in, len, 1, CL_REF, c.seed);
    cr.chain = cookie_chain_log(&tv, CL_FULL, c.seed);
    cr.chain_bytes = cookie_chain_log(&tv, CL_BYTES, c.seed);
    cr.chain_ref = cookie_chain_log(&tv, CL_REF, c.seed);
    /* (2) the reference of RFC 6265 + the header's separators, on the bytes and on the lines */
    size_t lo = 0, hi = 0;
    char *ref = cookie_ref_log(&one, &lo, &hi);
    if (strcmp(ref, cr.raw_ref) != 0) diverge("cookies_of vs the RFC 6265 reference, on the bytes", ref, cr.raw_ref);
    free(ref);
    {
        simdhttp_cookie_iter it;
        simdhttp_field x;
        simdhttp_cookies_of((const char *)in, len, &it);
        while (simdhttp_cookie_next(&it, &x) == 1) {
        }
        if (it.errors && (it.error_offset < lo || it.error_offset > hi))
            fail("cookie error_offset outside the first bad pair", "%zu not in [%zu, %zu]", it.error_offset, lo, hi);
    }
    ref = cookie_ref_log(&tv, &lo, &hi);
    if (strcmp(ref, cr.chain_ref) != 0) diverge("cookies_of vs the RFC 6265 reference, on the lines", ref, cr.chain_ref);
    free(ref);
    size_t tlen;
    char *text = cookie_head_text(&c, &pieces, &tlen);
    char *cref = chunked_ref(&c, in, len);
    char trailer_prefix[CHUNKED_HEAD_LEN + 3]; /* the input as a trailer section: after "0" CRLF */
    memcpy(trailer_prefix, chunked_head, CHUNKED_HEAD_LEN);
    memcpy(trailer_prefix + CHUNKED_HEAD_LEN, last_chunk, 3);
    char *fref = NULL, *rref = NULL; /* parse_fields on scalar: the input, the rest after the body */
    long body_end = -1;              /* where the decoder (on scalar) ended the body, -1: it did not */
    simdhttp_field *fields = malloc((len + 1) * sizeof *fields);
    if (!fields) abort();
    if (verbose) {
        char *t = trailers_ref(&c, trailer_prefix, sizeof trailer_prefix, in, len, 0);
        fprintf(stderr, "---- cookies (bytes)\n%s---- cookies (%zu lines)\n%s---- trailers\n%s---- chunked\n%s",
                cr.raw, pieces.n, cr.chain, t, cref);
        free(t);
    }

    /* (4) lookups: plain C, the same on every path */
    cur_what = "lookups";
    lookups(&c, in, len);

    for (size_t i = 0; i < sizeof all_isas / sizeof *all_isas; i++) {
        simdhttp_isa isa = all_isas[i];
        if (!simdhttp_isa_supported(isa)) continue;
        if (simdhttp_isa_set(isa) != 0 || simdhttp_isa_get() != isa) diverge("simdhttp_isa_set did not take", NULL, NULL);
        const char *name = simdhttp_isa_to_name(isa);
        int scalar = isa == SIMDHTTP_ISA_SCALAR; /* first: every reference is its */

        /* (1) cookies */
        snprintf(what, sizeof what, "%s, cookies", name);
        cur_what = what;
        if (!scalar) check("cookies_of on the bytes, in place", cr.raw, cookies_raw(in, len, 1, CL_FULL, c.seed));
        check("cookies_of on the bytes, exact copy", cr.raw, cookies_raw(in, len, 0, CL_FULL, c.seed));
        cookies_in_head(&c, text, tlen, &pieces, &cr, scalar);

        /* (5) the chunked decoder */
        snprintf(what, sizeof what, "%s, chunked decoder, whole", name);
        t_buf st_whole = {0}, st_pieces = {0};
        long end = -1, end2 = -1;
        char *dw = chunked_run(&c, in, len, 0, &st_whole, &end);
        if (strcmp(cref, dw) != 0) diverge("chunked decoder vs streaming on_body", cref, dw);
        if (scalar) body_end = end;
        else check("streaming chunked body vs scalar", cref, chunked_ref(&c, in, len));
        snprintf(what, sizeof what, "%s, chunked decoder, pieces mode %u seed %u", name, c.mode, (unsigned)c.seed);
        check("chunked decoder in pieces vs whole", dw, chunked_run(&c, in, len, c.mode, &st_pieces, &end2));
        check("chunked decoder state, pieces vs whole", done(&st_whole), done(&st_pieces));
        free(st_whole.s);
        free(dw);

        /* (3) the input as a field block; and what follows its chunked body, if it has one
         * that ends at the last chunk (the decoder leaves the trailer section to parse_fields) */
        snprintf(what, sizeof what, "%s, parse_fields vs streaming trailers, seed %u", name, (unsigned)c.seed);
        check_block(&c, trailer_prefix, sizeof trailer_prefix, in, len, 0, &fref, scalar, fields);
        if (body_end >= 0 && !c.consume) {
            snprintf(what, sizeof what, "%s, parse_fields after the chunked body (%ld bytes), seed %u", name, body_end,
                     (unsigned)c.seed);
            check_block(&c, chunked_head, CHUNKED_HEAD_LEN, in, len, (size_t)body_end, &rref, scalar, fields);
        }
    }
    simdhttp_isa_set(SIMDHTTP_ISA_SCALAR);
    cur_what = "";
    free(cr.raw), free(cr.raw_ref), free(cr.chain), free(cr.chain_bytes), free(cr.chain_ref);
    free(text), free(cref), free(fref), free(rref), free(fields);
    return 0;
}
