/* SPDX-License-Identifier: MIT */
/* simdhttp_fields: every operation, equality against a brute-force reference, copy-on-write,
 * refusals, allocation counts (through the library's internal allocation counter), building
 * from every head in the corpus, and the Cookie iterator. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

/* library-internal (hidden, but linkable from the static library) */
extern atomic_ulong simdhttp__fields_mallocs;
extern atomic_ulong simdhttp__fields_mallocs_fail_at;
extern uint32_t simdhttp__fields_hash(const char *p, size_t len);
extern int simdhttp__fields_equal_by_sort;

static unsigned long mallocs(void) { return atomic_load(&simdhttp__fields_mallocs); }
/* make the next allocation of the collection fail */
static void fail_next_malloc(void) { atomic_store(&simdhttp__fields_mallocs_fail_at, mallocs() + 1); }
static void no_fail(void) { atomic_store(&simdhttp__fields_mallocs_fail_at, 0); }

/* ASCII case-insensitive compare of n bytes: 0 if equal (strncasecmp is not C11) */
static int ci_eq_n(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x >= 'A' && x <= 'Z') x += 32;
        if (y >= 'A' && y <= 'Z') y += 32;
        if (x != y) return 1;
    }
    return 0;
}

static int cmp(const void *p, const void *q)
{
    uint64_t a = *(const uint64_t *)p, b = *(const uint64_t *)q;
    return (a > b) - (a < b);
}

#define S(lit) lit, sizeof lit - 1
#define CHECK(cond, ...) t_check((cond), __func__, __VA_ARGS__)

/* the list rendered as "Name: value\n" lines */
static char *dump(const simdhttp_fields *f)
{
    t_buf b = {0};
    simdhttp_field x;
    t_buf_put(&b, "", 0);
    for (size_t i = 0; simdhttp_fields_at(f, i, &x) >= 0; i++) {
        t_buf_put(&b, x.name, x.name_len);
        t_buf_put(&b, ": ", 2);
        t_buf_escaped(&b, x.value, x.value_len);
        t_buf_put(&b, "\n", 1);
    }
    return b.s;
}

static int dump_is(const simdhttp_fields *f, const char *want)
{
    char *d = dump(f);
    int ok = strcmp(d, want) == 0;
    if (!ok) printf("# got:\n%s# want:\n%s", d, want);
    free(d);
    return ok;
}

static int get_is(const simdhttp_fields *f, const char *name, size_t len, const char *want)
{
    size_t vl = 12345;
    const char *v = simdhttp_fields_get(f, name, len, &vl);
    if (!want) return v == NULL && vl == 0; /* a miss sets *value_len too, as simdhttp_head_get */
    return v && vl == strlen(want) && memcmp(v, want, vl) == 0;
}

static void add(simdhttp_fields *f, const char *n, const char *v)
{
    int r = simdhttp_fields_append(f, n, strlen(n), v, strlen(v));
    if (r) printf("# append %s: %d\n", n, r);
}

/* ---- known names ---- */

static void test_known_ids(void)
{
    CHECK(SIMDHTTP_FIELD_ID_COUNT <= 128, "ids fit the bitmap");
    int bad = 0, fold_bad = 0;
    for (unsigned id = 1; id < SIMDHTTP_FIELD_ID_COUNT; id++) {
        const char *n = simdhttp_field_id_name(id);
        size_t len = n ? strlen(n) : 0;
        if (!n || simdhttp_field_id(n, len) != id) { bad++; continue; }
        char up[64], mixed[64];
        for (size_t i = 0; i < len; i++) {
            up[i] = (n[i] >= 'a' && n[i] <= 'z') ? n[i] - 32 : n[i];
            mixed[i] = (i & 1) ? up[i] : n[i];
        }
        if (simdhttp_field_id(up, len) != id || simdhttp_field_id(mixed, len) != id) bad++;
        /* every one-byte change that is not a case change must miss (the perfect hash only
         * picks a candidate; the compare must be exact) */
        for (size_t i = 0; i < len; i++)
            for (int c = 0; c < 256; c++) {
                char m[64];
                memcpy(m, n, len);
                if (c == (unsigned char)n[i]) continue;
                int case_twin = n[i] >= 'a' && n[i] <= 'z' && c == n[i] - 32;
                m[i] = (char)c;
                unsigned got = simdhttp_field_id(m, len);
                if (case_twin ? got != id : got == id) fold_bad++;
            }
        /* prefixes and extensions miss */
        if (simdhttp_field_id(n, len - 1) == id) bad++;
        char ext[64];
        memcpy(ext, n, len), ext[len] = 'x';
        if (simdhttp_field_id(ext, len + 1) == id) bad++;
    }
    CHECK(bad == 0, "%d known names do not map back to their id", bad);
    CHECK(fold_bad == 0, "%d one-byte variants resolved wrongly", fold_bad);
    CHECK(simdhttp_field_id(S("host")) == SIMDHTTP_FIELD_HOST, "host");
    CHECK(simdhttp_field_id(S("HoSt")) == SIMDHTTP_FIELD_HOST, "HoSt");
    CHECK(simdhttp_field_id(S("Cookie")) == SIMDHTTP_FIELD_COOKIE, "Cookie");
    CHECK(simdhttp_field_id(S("Sec-Fetch-Site")) == SIMDHTTP_FIELD_SEC_FETCH_SITE, "sec-fetch-site");
    CHECK(simdhttp_field_id(S("Sec-Fetch-Mode")) == SIMDHTTP_FIELD_SEC_FETCH_MODE, "sec-fetch-mode");
    CHECK(simdhttp_field_id(S("X-Forwarded-For")) == SIMDHTTP_FIELD_X_FORWARDED_FOR, "xff");
    CHECK(simdhttp_field_id(S("x\rforwarded-for")) == 0, "CR does not fold onto '-'");
    CHECK(simdhttp_field_id(S("x-my-thing")) == 0, "unknown");
    CHECK(simdhttp_field_id("", 0) == 0 && simdhttp_field_id(NULL, 4) == 0, "empty");
    CHECK(strcmp(simdhttp_field_id_name(SIMDHTTP_FIELD_CONTENT_TYPE), "content-type") == 0, "name");
    CHECK(simdhttp_field_id_name(0) == NULL && simdhttp_field_id_name(SIMDHTTP_FIELD_ID_COUNT) == NULL,
          "out of range");
    char longn[100];
    memset(longn, 'a', sizeof longn);
    CHECK(simdhttp_field_id(longn, sizeof longn) == 0, "long name");
}

/* ---- basic operations ---- */

static void test_append_lookup(void)
{
    simdhttp_fields f = SIMDHTTP_FIELDS_INIT;
    CHECK(simdhttp_fields_count(&f) == 0 && !simdhttp_fields_contains(&f, S("host")), "empty");
    CHECK(get_is(&f, S("host"), NULL), "empty get");
    add(&f, "Host", "example.com");
    add(&f, "X-Trace", "1");
    add(&f, "accept", "text/html");
    add(&f, "x-trace", "2");
    add(&f, "ACCEPT", "*/*");
    CHECK(simdhttp_fields_count(&f) == 5, "count %zu", simdhttp_fields_count(&f));
    CHECK(dump_is(&f, "Host: example.com\nX-Trace: 1\naccept: text/html\nx-trace: 2\nACCEPT: */*\n"),
          "order and spelling kept");
    CHECK(simdhttp_fields_contains(&f, S("host")) && simdhttp_fields_contains(&f, S("HOST")), "contains known");
    CHECK(simdhttp_fields_contains(&f, S("x-TRACE")), "contains unknown, other case");
    CHECK(!simdhttp_fields_contains(&f, S("x-trac")) && !simdhttp_fields_contains(&f, S("x-tracee")),
          "contains: no prefix match");
    CHECK(!simdhttp_fields_contains(&f, S("cookie")), "contains miss known");
    CHECK(simdhttp_fields_contains(&f, NULL, SIMDHTTP_FIELD_HOST), "contains by id");
    CHECK(!simdhttp_fields_contains(&f, NULL, 0) && !simdhttp_fields_contains(&f, NULL, 9999), "bad id");
    CHECK(get_is(&f, S("HOST"), "example.com"), "get known");
    CHECK(get_is(&f, S("X-TRACE"), "1"), "get first of repeated unknown");
    CHECK(get_is(&f, NULL, SIMDHTTP_FIELD_ACCEPT, "text/html"), "get by id");
    CHECK(get_is(&f, S("x-nope"), NULL), "get miss");
    simdhttp_field x;
    CHECK(simdhttp_fields_at(&f, 0, &x) == SIMDHTTP_FIELD_HOST, "at: known id");
    CHECK(simdhttp_fields_at(&f, 1, &x) == 0 && x.name_len == 7 && memcmp(x.name, "X-Trace", 7) == 0, "at: unknown");
    CHECK(simdhttp_fields_at(&f, 5, &x) == -1, "at: out of range");

    /* values iterator */
    simdhttp_fields_iter it;
    const char *v;
    size_t vl;
    t_buf b = {0};
    t_buf_put(&b, "", 0);
    simdhttp_fields_values(&f, S("Accept"), &it);
    while (simdhttp_fields_next(&it, &v, &vl)) t_buf_put(&b, v, vl), t_buf_put(&b, "|", 1);
    CHECK(strcmp(b.s, "text/html|*/*|") == 0, "values known: %s", b.s);
    b.len = 0, b.s[0] = 0;
    simdhttp_fields_values(&f, S("x-trace"), &it);
    while (simdhttp_fields_next(&it, &v, &vl)) t_buf_put(&b, v, vl), t_buf_put(&b, "|", 1);
    CHECK(strcmp(b.s, "1|2|") == 0, "values unknown: %s", b.s);
    char tmpname[8] = "X-tRaCe";
    simdhttp_fields_values(&f, tmpname, 7, &it);
    memset(tmpname, 'z', sizeof tmpname); /* the name may go away after values() */
    b.len = 0, b.s[0] = 0;
    while (simdhttp_fields_next(&it, &v, &vl)) t_buf_put(&b, v, vl), t_buf_put(&b, "|", 1);
    CHECK(strcmp(b.s, "1|2|") == 0, "values: name not kept by the iterator: %s", b.s);
    simdhttp_fields_values(&f, S("cookie"), &it);
    CHECK(simdhttp_fields_next(&it, &v, &vl) == 0, "values none");
    simdhttp_fields_values(&f, S("x-none"), &it);
    CHECK(simdhttp_fields_next(&it, &v, &vl) == 0, "values none unknown");
    t_buf_free(&b);

    /* empty values and the NULL-id name form of append */
    CHECK(simdhttp_fields_append(&f, NULL, SIMDHTTP_FIELD_VIA, NULL, 0) == 0, "append by id, empty value");
    CHECK(simdhttp_fields_at(&f, 5, &x) == SIMDHTTP_FIELD_VIA && x.name_len == 3 && memcmp(x.name, "via", 3) == 0 &&
              x.value_len == 0, "stored canonical spelling");
    CHECK(get_is(&f, S("Via"), ""), "empty value found");
    CHECK(simdhttp_fields_append(&f, NULL, 0, S("x")) == SIMDHTTP_E_INVALID_ARGUMENT, "append id 0");
    CHECK(simdhttp_fields_append(&f, NULL, SIMDHTTP_FIELD_ID_COUNT, S("x")) == SIMDHTTP_E_INVALID_ARGUMENT,
          "append id out of range");
    simdhttp_fields_free(&f);
    CHECK(simdhttp_fields_count(&f) == 0, "free empties");
    simdhttp_fields_free(&f); /* twice is fine */
}

static void test_refusals(void)
{
    simdhttp_fields f = SIMDHTTP_FIELDS_INIT;
    add(&f, "A", "1");
    add(&f, "Set-Cookie", "s=1");
    char *before = dump(&f);
    static const struct { const char *n; size_t nl; const char *v; size_t vl; int err; } bad[] = {
        {"", 0, "x", 1, SIMDHTTP_E_INVALID_HEADER_TOKEN},
        {"a b", 3, "x", 1, SIMDHTTP_E_INVALID_HEADER_TOKEN},
        {"a:b", 3, "x", 1, SIMDHTTP_E_INVALID_HEADER_TOKEN},
        {"host\r", 5, "x", 1, SIMDHTTP_E_INVALID_HEADER_TOKEN},
        {"n\0x", 3, "x", 1, SIMDHTTP_E_INVALID_HEADER_TOKEN},
        {"(x)", 3, "x", 1, SIMDHTTP_E_INVALID_HEADER_TOKEN},
        {"\xc3\xa9", 2, "x", 1, SIMDHTTP_E_INVALID_HEADER_TOKEN},
        {"x", 1, "a\r\nEvil: 1", 10, SIMDHTTP_E_INVALID_HEADER_VALUE},
        {"x", 1, "a\nb", 3, SIMDHTTP_E_INVALID_HEADER_VALUE},
        {"x", 1, "a\rb", 3, SIMDHTTP_E_INVALID_HEADER_VALUE},
        {"x", 1, "a\0b", 3, SIMDHTTP_E_INVALID_HEADER_VALUE},
        {"x", 1, "0123456789abcdef\n", 17, SIMDHTTP_E_INVALID_HEADER_VALUE}, /* word path, tail */
        {"x", 1, "01234567\r9abcdef", 16, SIMDHTTP_E_INVALID_HEADER_VALUE},  /* word path */
        {"Set-Cookie", 10, "z\r", 2, SIMDHTTP_E_INVALID_HEADER_VALUE},
    };
    unsigned long m0 = mallocs();
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int r1 = simdhttp_fields_append(&f, bad[i].n, bad[i].nl, bad[i].v, bad[i].vl);
        int r2 = simdhttp_fields_set(&f, bad[i].n, bad[i].nl, bad[i].v, bad[i].vl);
        CHECK(r1 == bad[i].err && r2 == bad[i].err, "case %zu: append %d set %d want %d", i, r1, r2, bad[i].err);
    }
    CHECK(mallocs() == m0, "refusals allocate nothing");
    CHECK(dump_is(&f, before), "nothing half-added");
    /* accepted: HTAB and other bytes, as the lenient parser can produce them */
    CHECK(simdhttp_fields_append(&f, S("x"), S("a\tb\x01\x7f\xff")) == 0, "HTAB, CTL, obs-text accepted");
    CHECK(simdhttp_fields_append(&f, S("!#$%&'*+-.^_`|~09azAZ"), S(" padded ")) == 0, "every tchar");
    CHECK(get_is(&f, S("!#$%&'*+-.^_`|~09AZaz"), " padded "), "lookup of symbol name, OWS kept");
    /* names up to 65535 bytes */
    char *big = malloc(70000);
    memset(big, 'n', 70000);
    size_t cnt = simdhttp_fields_count(&f);
    CHECK(simdhttp_fields_append(&f, big, 65535, S("v")) == 0 && get_is(&f, big, 65535, "v"), "65535-byte name");
    CHECK(simdhttp_fields_append(&f, big, 65536, S("v")) == SIMDHTTP_E_INVALID_ARGUMENT &&
              simdhttp_fields_count(&f) == cnt + 1, "65536-byte name refused");
    simdhttp_field hf[1] = {{big, 65536, "v", 1}};
    simdhttp_head h = {0};
    h.fields = hf, h.num_fields = 1;
    CHECK(simdhttp_fields_from_head(&f, &h) == SIMDHTTP_E_INVALID_ARGUMENT && simdhttp_fields_count(&f) == cnt + 1,
          "from_head: long name refused");
    free(big);
    free(before);
    simdhttp_fields_free(&f);
}

static void test_combined(void)
{
    simdhttp_fields f = SIMDHTTP_FIELDS_INIT;
    add(&f, "Accept", "a");
    add(&f, "Cookie", "x=1");
    add(&f, "accept", "b, c");
    add(&f, "COOKIE", "y=2; z=3");
    add(&f, "X-Empty", "");
    add(&f, "x-empty", "");
    add(&f, "ACCEPT", "d");
    char buf[64];
    memset(buf, '#', sizeof buf);
    long n = simdhttp_fields_combined(&f, S("accept"), buf, sizeof buf);
    CHECK(n == 10 && strcmp(buf, "a, b, c, d") == 0, "', ' join: %ld %.*s", n, (int)(n > 0 ? n : 0), buf);
    n = simdhttp_fields_combined(&f, S("cookie"), buf, sizeof buf);
    CHECK(n == 13 && strcmp(buf, "x=1; y=2; z=3") == 0, "'; ' join for Cookie: %ld", n);
    n = simdhttp_fields_combined(&f, NULL, SIMDHTTP_FIELD_COOKIE, buf, sizeof buf);
    CHECK(n == 13, "by id");
    n = simdhttp_fields_combined(&f, S("X-EMPTY"), buf, sizeof buf);
    CHECK(n == 2 && memcmp(buf, ", ", 3) == 0, "empty values still joined: %ld", n);
    CHECK(simdhttp_fields_combined(&f, S("x-empty"), NULL, 0) == 2, "empty values, NULL buffer");
    n = simdhttp_fields_combined(&f, S("set-cookie"), buf, sizeof buf);
    CHECK(n == -1, "absent: -1");
    n = simdhttp_fields_combined(&f, S("x-nope"), buf, sizeof buf);
    CHECK(n == -1, "absent unknown: -1");
    memset(buf, '#', sizeof buf);
    n = simdhttp_fields_combined(&f, S("accept"), buf, 4);
    CHECK(n == 10 && buf[4] == '#', "small buffer: needed length, nothing past cap");
    n = simdhttp_fields_combined(&f, S("accept"), NULL, 0);
    CHECK(n == 10, "length query with NULL buffer");
    memset(buf, '#', sizeof buf);
    n = simdhttp_fields_combined(&f, S("accept"), buf, 10);
    CHECK(n == 10 && memcmp(buf, "a, b, c, d", 10) == 0 && buf[10] == '#', "exact fit, no NUL");
    simdhttp_fields_free(&f);
}

static void test_set_remove(void)
{
    simdhttp_fields f = SIMDHTTP_FIELDS_INIT;
    add(&f, "A", "1");
    add(&f, "x-b", "1");
    add(&f, "Accept", "2");
    add(&f, "X-B", "2");
    add(&f, "c", "3");
    add(&f, "x-b", "3");
    CHECK(simdhttp_fields_set(&f, S("X-b"), S("new")) == 0, "set unknown");
    CHECK(dump_is(&f, "A: 1\nX-b: new\nAccept: 2\nc: 3\n"), "set keeps the first position");
    CHECK(simdhttp_fields_set(&f, S("accept"), S("v")) == 0, "set known");
    CHECK(dump_is(&f, "A: 1\nX-b: new\naccept: v\nc: 3\n"), "set known in place");
    CHECK(simdhttp_fields_set(&f, S("Host"), S("h")) == 0, "set absent");
    CHECK(dump_is(&f, "A: 1\nX-b: new\naccept: v\nc: 3\nHost: h\n"), "set absent appends");
    /* set from a value inside the list itself (aliasing its own storage) */
    size_t vl;
    const char *v = simdhttp_fields_get(&f, S("x-b"), &vl);
    CHECK(simdhttp_fields_set(&f, S("c"), v, vl) == 0, "set aliasing");
    CHECK(get_is(&f, S("c"), "new"), "aliasing value copied");
    for (int i = 0; i < 50; i++) { /* force growth while aliasing */
        v = simdhttp_fields_get(&f, S("host"), &vl);
        CHECK(simdhttp_fields_append(&f, S("host"), v, vl) == 0, "append aliasing");
    }
    CHECK(simdhttp_fields_remove(&f, S("HOST")) == 51, "remove counts");
    CHECK(!simdhttp_fields_contains(&f, S("host")), "known bit cleared");
    CHECK(dump_is(&f, "A: 1\nX-b: new\naccept: v\nc: new\n"), "remove keeps order");
    unsigned long m0 = mallocs();
    CHECK(simdhttp_fields_remove(&f, S("host")) == 0 && simdhttp_fields_remove(&f, S("x-zz")) == 0,
          "remove absent");
    CHECK(simdhttp_fields_remove(&f, NULL, 0) == 0, "remove bad id");
    CHECK(mallocs() == m0, "remove of an absent name allocates nothing");
    CHECK(simdhttp_fields_set(&f, NULL, SIMDHTTP_FIELD_VIA, S("1.1 proxy")) == 0 && get_is(&f, S("VIA"), "1.1 proxy"),
          "set by id");
    CHECK(simdhttp_fields_remove(&f, NULL, SIMDHTTP_FIELD_VIA) == 1 && !simdhttp_fields_contains(&f, S("via")),
          "remove by id");
    CHECK(simdhttp_fields_remove(&f, S("x-B")) == 1, "remove unknown");
    CHECK(simdhttp_fields_remove(&f, S("a")) == 1 && simdhttp_fields_remove(&f, S("accept")) == 1 &&
              simdhttp_fields_remove(&f, S("C")) == 1, "remove all");
    CHECK(simdhttp_fields_count(&f) == 0, "empty after removes");
    add(&f, "a", "again");
    CHECK(dump_is(&f, "a: again\n"), "usable after");
    simdhttp_fields_free(&f);
}

/* ---- equality ---- */

/* reference: O(n^2), straight from the definition */
static int ref_equal(const simdhttp_fields *a, const simdhttp_fields *b)
{
    size_t n = simdhttp_fields_count(a);
    if (n != simdhttp_fields_count(b)) return 0;
    for (size_t i = 0; i < n; i++) {
        simdhttp_field x;
        simdhttp_fields_at(a, i, &x);
        /* the k-th occurrence of x's name in a must equal the k-th in b */
        size_t k = 0;
        for (size_t j = 0; j < i; j++) {
            simdhttp_field y;
            simdhttp_fields_at(a, j, &y);
            if (y.name_len == x.name_len && ci_eq_n(y.name, x.name, x.name_len) == 0) k++;
        }
        int found = 0;
        for (size_t j = 0; j < n && !found; j++) {
            simdhttp_field y;
            simdhttp_fields_at(b, j, &y);
            if (y.name_len == x.name_len && ci_eq_n(y.name, x.name, x.name_len) == 0) {
                if (k == 0) {
                    if (y.value_len != x.value_len || memcmp(y.value, x.value, x.value_len)) return 0;
                    found = 1;
                } else {
                    k--;
                }
            }
        }
        if (!found) return 0;
    }
    return 1;
}

static uint64_t rng = 88172645463325252ull;
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (unsigned)(rng % n);
}

static void test_equal_basic(void)
{
    simdhttp_fields a = SIMDHTTP_FIELDS_INIT, b = SIMDHTTP_FIELDS_INIT;
    CHECK(simdhttp_fields_equal(&a, &b) == 1, "empty == empty");
    add(&a, "Host", "h"), add(&a, "X-A", "1"), add(&a, "Accept", "x"), add(&a, "x-a", "2");
    add(&b, "host", "h"), add(&b, "x-a", "1"), add(&b, "ACCEPT", "x"), add(&b, "X-A", "2");
    CHECK(simdhttp_fields_equal(&a, &b) == 1 && simdhttp_fields_equal(&b, &a) == 1, "same order, name case differs");
    simdhttp_fields_free(&b);
    add(&b, "x-a", "1"), add(&b, "Accept", "x"), add(&b, "x-a", "2"), add(&b, "host", "h");
    CHECK(simdhttp_fields_equal(&a, &b) == 1 && simdhttp_fields_equal(&b, &a) == 1, "different order of names");
    simdhttp_fields_free(&b);
    add(&b, "x-a", "2"), add(&b, "Accept", "x"), add(&b, "x-a", "1"), add(&b, "host", "h");
    CHECK(simdhttp_fields_equal(&a, &b) == 0 && simdhttp_fields_equal(&b, &a) == 0, "values of one name swapped");
    simdhttp_fields_free(&b);
    add(&b, "Host", "H"), add(&b, "X-A", "1"), add(&b, "Accept", "x"), add(&b, "x-a", "2");
    CHECK(simdhttp_fields_equal(&a, &b) == 0, "value case matters");
    simdhttp_fields_free(&b);
    add(&b, "Host", "h"), add(&b, "X-A", "1"), add(&b, "Accept", "x");
    CHECK(simdhttp_fields_equal(&a, &b) == 0 && simdhttp_fields_equal(&b, &a) == 0, "count differs");
    add(&b, "x-b", "2");
    CHECK(simdhttp_fields_equal(&a, &b) == 0 && simdhttp_fields_equal(&b, &a) == 0, "name differs");
    simdhttp_fields_free(&b);
    add(&b, "Host", "h"), add(&b, "X-A", "1"), add(&b, "Accept", "x"), add(&b, "x-a", "2 ");
    CHECK(simdhttp_fields_equal(&a, &b) == 0, "value length differs");
    simdhttp_fields c = SIMDHTTP_FIELDS_INIT;
    simdhttp_fields_copy(&c, &a);
    CHECK(simdhttp_fields_equal(&a, &c) == 1, "copy equal (shared storage)");
    simdhttp_fields_free(&a), simdhttp_fields_free(&b), simdhttp_fields_free(&c);
}

/* Random lists from a small alphabet of names and values; b is a, shuffled in a way that keeps
 * (or, sometimes, breaks) the per-name order, or a small edit of it. The result must match the
 * reference, in both orders. */
static void test_equal_random(void)
{
    static const char *names[] = {"Host", "x-a", "X-B", "accept", "Cookie", "x-c", "Via", "x-dd"};
    static const char *vals[] = {"1", "2", "3", "", "long value 0123456789"};
    int mismatch = 0, equal_seen = 0, unequal_seen = 0;
    for (int round = 0; round < 3000; round++) {
        size_t n = 1 + rnd(round < 2900 ? 12 : 300); /* a few over the 256 stack limit */
        int nm[320], vv[320], perm[320];
        for (size_t i = 0; i < n; i++) nm[i] = (int)rnd(8), vv[i] = (int)rnd(5), perm[i] = (int)i;
        simdhttp_fields a = SIMDHTTP_FIELDS_INIT, b = SIMDHTTP_FIELDS_INIT;
        for (size_t i = 0; i < n; i++) add(&a, names[nm[i]], vals[vv[i]]);
        int mode = (int)rnd(4);
        if (mode >= 1) { /* random shuffle; mode 1: then restore per-name order (equal) */
            for (size_t i = n - 1; i > 0; i--) {
                size_t j = rnd((unsigned)i + 1);
                int t = perm[i];
                perm[i] = perm[j], perm[j] = t;
            }
            if (mode == 1) { /* per name, reassign positions in original order */
                for (int k = 0; k < 8; k++) {
                    int next = 0;
                    int orig[320], cnt = 0;
                    for (size_t i = 0; i < n; i++) if (nm[i] == k) orig[cnt++] = (int)i;
                    for (size_t i = 0; i < n; i++) if (nm[perm[i]] == k) perm[i] = orig[next++];
                }
            }
        }
        for (size_t i = 0; i < n; i++) {
            char up[32];
            const char *nn = names[nm[perm[i]]];
            size_t l = strlen(nn);
            for (size_t c = 0; c <= l; c++) up[c] = (rnd(2) && nn[c] >= 'a' && nn[c] <= 'z') ? nn[c] - 32 : nn[c];
            add(&b, up, vals[vv[perm[i]]]);
        }
        if (mode == 3 && n > 1) { /* one edit */
            simdhttp_field x;
            simdhttp_fields_at(&b, rnd((unsigned)n), &x);
            char nn[64];
            memcpy(nn, x.name, x.name_len);
            simdhttp_fields_set(&b, nn, x.name_len, S("edited"));
            add(&b, "x-a", "1");
        }
        int want = ref_equal(&a, &b), got1 = simdhttp_fields_equal(&a, &b), got2 = simdhttp_fields_equal(&b, &a);
        if (got1 != want || got2 != want) {
            if (mismatch++ < 3) printf("# round %d n=%zu mode %d: want %d got %d/%d\n", round, n, mode, want, got1, got2);
        }
        want ? equal_seen++ : unequal_seen++;
        simdhttp_fields_free(&a), simdhttp_fields_free(&b);
    }
    CHECK(mismatch == 0, "%d rounds disagree with the reference", mismatch);
    CHECK(equal_seen > 500 && unequal_seen > 500, "both outcomes exercised (%d equal, %d not)", equal_seen,
          unequal_seen);
}

/* Two distinct unknown names with the same 32-bit hash: the sort must still group by name. */
static void test_equal_collision(void)
{
    enum { N = 1 << 18 };
    uint64_t *h = malloc(N * sizeof *h);
    char x[16] = "", y[16] = "";
    for (uint32_t i = 0; i < N; i++) {
        char nm[16];
        snprintf(nm, sizeof nm, "x-%06x", i);
        h[i] = (uint64_t)simdhttp__fields_hash(nm, 8) << 32 | i;
    }
    qsort(h, N, sizeof *h, cmp);
    int found = 0;
    for (uint32_t i = 0; i + 1 < N && !found; i++)
        if (h[i] >> 32 == h[i + 1] >> 32) {
            snprintf(x, sizeof x, "x-%06x", (unsigned)(uint32_t)h[i]);
            snprintf(y, sizeof y, "X-%06X", (unsigned)(uint32_t)h[i + 1]);
            found = 1;
        }
    free(h);
    if (!CHECK(found, "no 32-bit collision among %d names (unexpected)", N)) return;
    CHECK(simdhttp__fields_hash(x, 8) == simdhttp__fields_hash(y, 8), "%s and %s collide", x, y);
    simdhttp_fields a = SIMDHTTP_FIELDS_INIT, b = SIMDHTTP_FIELDS_INIT, c = SIMDHTTP_FIELDS_INIT;
    add(&a, x, "1"), add(&a, y, "1"), add(&a, x, "2"), add(&a, y, "2");
    add(&b, y, "1"), add(&b, x, "1"), add(&b, y, "2"), add(&b, x, "2");
    add(&c, y, "1"), add(&c, x, "2"), add(&c, y, "2"), add(&c, x, "1");
    CHECK(simdhttp_fields_equal(&a, &b) == 1 && simdhttp_fields_equal(&b, &a) == 1, "colliding names, equal");
    CHECK(simdhttp_fields_equal(&a, &c) == 0 && simdhttp_fields_equal(&c, &a) == 0, "colliding names, unequal");
    CHECK(get_is(&a, y, 8, "1") && simdhttp_fields_remove(&a, x, 8) == 2 && get_is(&a, y, 8, "1") &&
              !simdhttp_fields_contains(&a, x, 8), "lookups tell colliding names apart");
    simdhttp_fields_free(&a), simdhttp_fields_free(&b), simdhttp_fields_free(&c);
}
/* ---- random operations against a plain model (with copies taken and mutated) ---- */

typedef struct model {
    int n;
    char name[64][16], value[64][16];
} model;

static int model_same_name(const char *a, const char *b) { return strlen(a) == strlen(b) && ci_eq_n(a, b, strlen(a)) == 0; }

static char *model_dump(const model *m)
{
    t_buf b = {0};
    t_buf_put(&b, "", 0);
    for (int i = 0; i < m->n; i++) t_buf_printf(&b, "%s: %s\n", m->name[i], m->value[i]);
    return b.s;
}

static void test_model(void)
{
    static const char *names[] = {"Host", "host", "X-A", "x-a", "Cookie", "Via", "x-b", "Accept"};
    int bad = 0;
    for (int round = 0; round < 200; round++) {
        model m = {0}, mc;
        simdhttp_fields f = SIMDHTTP_FIELDS_INIT, c = SIMDHTTP_FIELDS_INIT;
        int have_copy = 0;
        for (int step = 0; step < 40 && !bad; step++) {
            const char *nm = names[rnd(8)];
            char v[16];
            snprintf(v, sizeof v, "v%u", rnd(1000));
            int op = (int)rnd(10);
            if (op < 5 && m.n < 60) { /* append */
                simdhttp_fields_append(&f, nm, strlen(nm), v, strlen(v));
                strcpy(m.name[m.n], nm), strcpy(m.value[m.n], v), m.n++;
            } else if (op < 7) { /* set */
                simdhttp_fields_set(&f, nm, strlen(nm), v, strlen(v));
                int first = -1, w = 0;
                for (int i = 0; i < m.n; i++) {
                    if (model_same_name(m.name[i], nm)) {
                        if (first >= 0) continue;
                        first = w;
                        strcpy(m.name[i], nm), strcpy(m.value[i], v);
                    }
                    if (w != i) strcpy(m.name[w], m.name[i]), strcpy(m.value[w], m.value[i]);
                    w++;
                }
                m.n = w;
                if (first < 0 && m.n < 64) strcpy(m.name[m.n], nm), strcpy(m.value[m.n], v), m.n++;
            } else if (op < 8) { /* remove */
                long r = simdhttp_fields_remove(&f, nm, strlen(nm));
                int w = 0;
                for (int i = 0; i < m.n; i++) {
                    if (model_same_name(m.name[i], nm)) continue;
                    if (w != i) strcpy(m.name[w], m.name[i]), strcpy(m.value[w], m.value[i]);
                    w++;
                }
                if (r != m.n - w) bad++;
                m.n = w;
            } else if (op < 9) { /* take a copy; the model remembers it */
                simdhttp_fields_copy(&c, &f);
                mc = m, have_copy = 1;
            } else if (have_copy) { /* mutate the copy: the original must not change */
                simdhttp_fields_append(&c, S("x-copy"), S("1"));
                if (mc.n < 64) strcpy(mc.name[mc.n], "x-copy"), strcpy(mc.value[mc.n], "1"), mc.n++;
            }
            char *want = model_dump(&m), *got = dump(&f);
            if (strcmp(want, got)) {
                if (bad++ < 3) printf("# round %d step %d op %d:\n# got:\n%s# want:\n%s", round, step, op, got, want);
            }
            free(want), free(got);
            if (have_copy) {
                want = model_dump(&mc), got = dump(&c);
                if (strcmp(want, got) && bad++ < 3) printf("# copy differs at round %d step %d\n", round, step);
                free(want), free(got);
            }
            /* the known-name bitmap agrees with a scan */
            for (int k = 0; k < 8; k++) {
                int in_model = 0;
                for (int i = 0; i < m.n; i++) in_model |= model_same_name(m.name[i], names[k]);
                if (simdhttp_fields_contains(&f, names[k], strlen(names[k])) != in_model) bad++;
            }
        }
        simdhttp_fields_free(&f), simdhttp_fields_free(&c);
    }
    CHECK(bad == 0, "%d disagreements with the model", bad);
}

/* ---- copies ---- */

static void test_copy_on_write(void)
{
    simdhttp_fields a = SIMDHTTP_FIELDS_INIT, b = SIMDHTTP_FIELDS_INIT;
    add(&a, "Host", "h"), add(&a, "X-A", "1"), add(&a, "Cookie", "c=1");
    unsigned long m0 = mallocs();
    simdhttp_fields_copy(&b, &a);
    CHECK(mallocs() == m0, "copy allocates nothing");
    size_t l1, l2;
    CHECK(simdhttp_fields_get(&a, S("host"), &l1) == simdhttp_fields_get(&b, S("host"), &l2), "storage shared");
    const char *A = "Host: h\nX-A: 1\nCookie: c=1\n";
    CHECK(simdhttp_fields_append(&b, S("New"), S("n")) == 0, "append to copy");
    CHECK(mallocs() == m0 + 1, "one allocation to detach");
    CHECK(dump_is(&a, A), "original intact after append to copy");
    CHECK(dump_is(&b, "Host: h\nX-A: 1\nCookie: c=1\nNew: n\n"), "copy changed");
    simdhttp_fields_copy(&b, &a);
    CHECK(simdhttp_fields_set(&b, S("x-a"), S("2")) == 0 && dump_is(&a, A), "set on copy");
    simdhttp_fields_copy(&b, &a);
    CHECK(simdhttp_fields_remove(&b, S("host")) == 1 && dump_is(&a, A) && dump_is(&b, "X-A: 1\nCookie: c=1\n"),
          "remove on copy");
    CHECK(simdhttp_fields_contains(&a, S("host")) && !simdhttp_fields_contains(&b, S("host")), "known bits separate");
    /* and the other way round */
    simdhttp_fields_copy(&b, &a);
    CHECK(simdhttp_fields_set(&a, S("Host"), S("changed")) == 0 && dump_is(&b, A), "mutating the original");
    simdhttp_fields_copy(&b, &a);
    simdhttp_fields_free(&a);
    CHECK(dump_is(&b, "Host: changed\nX-A: 1\nCookie: c=1\n"), "copy outlives the original");
    simdhttp_fields_copy(&b, &b);
    CHECK(simdhttp_fields_count(&b) == 3, "self copy");
    simdhttp_fields e = SIMDHTTP_FIELDS_INIT;
    simdhttp_fields_copy(&b, &e);
    CHECK(simdhttp_fields_count(&b) == 0, "copy of empty releases");
    /* a chain of copies, each mutated differently */
    simdhttp_fields c[5];
    simdhttp_fields_init(&c[0]);
    add(&c[0], "base", "0");
    for (int i = 1; i < 5; i++) simdhttp_fields_init(&c[i]), simdhttp_fields_copy(&c[i], &c[i - 1]);
    for (int i = 1; i < 5; i++) {
        char v[4];
        snprintf(v, sizeof v, "%d", i);
        simdhttp_fields_append(&c[i], S("n"), v, 1);
    }
    int ok = simdhttp_fields_count(&c[0]) == 1;
    for (int i = 1; i < 5; i++) {
        char v[4];
        snprintf(v, sizeof v, "%d", i);
        ok &= simdhttp_fields_count(&c[i]) == 2 && get_is(&c[i], S("n"), v);
    }
    CHECK(ok, "each copy sees only its own change");
    for (int i = 0; i < 5; i++) simdhttp_fields_free(&c[i]);
}

struct thr {
    simdhttp_fields f;
    int ok;
};
static void *thr_main(void *arg)
{
    struct thr *t = arg;
    t->ok = 1;
    for (int i = 0; i < 2000; i++) {
        simdhttp_fields c = SIMDHTTP_FIELDS_INIT;
        simdhttp_fields_copy(&c, &t->f);
        t->ok &= get_is(&c, S("host"), "h");
        if (i % 100 == 0) { t->ok &= simdhttp_fields_append(&c, S("x"), S("y")) == 0; }
        simdhttp_fields_free(&c);
    }
    simdhttp_fields_free(&t->f);
    return NULL;
}

/* copies of one storage read, copied, mutated and released from two threads at once */
static void test_threads(void)
{
    simdhttp_fields base = SIMDHTTP_FIELDS_INIT;
    add(&base, "Host", "h");
    struct thr t[2];
    pthread_t th[2];
    for (int i = 0; i < 2; i++) simdhttp_fields_init(&t[i].f), simdhttp_fields_copy(&t[i].f, &base);
    simdhttp_fields_free(&base); /* the threads hold the last references */
    for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, thr_main, &t[i]);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    CHECK(t[0].ok && t[1].ok, "threads saw consistent copies");
}

/* ---- allocation counts and failures ---- */

static void test_allocations(void)
{
    simdhttp_fields f = SIMDHTTP_FIELDS_INIT;
    for (unsigned n = 1; n <= 512; n *= 2) {
        simdhttp_fields_free(&f);
        unsigned long m0 = mallocs();
        for (unsigned i = 0; i < n; i++) {
            char nm[32], v[64];
            snprintf(nm, sizeof nm, "x-field-%u", i);
            snprintf(v, sizeof v, "value number %u with some text", i * 7919);
            add(&f, nm, v);
        }
        unsigned long used = mallocs() - m0;
        unsigned lg = 0;
        while ((1u << lg) < n) lg++;
        CHECK(used <= lg + 2, "append-build of %u fields: %lu mallocs > log2(N)+2", n, used);
        m0 = mallocs();
        char buf[8];
        simdhttp_fields_iter it;
        const char *v;
        size_t vl;
        simdhttp_fields_contains(&f, S("x-field-3")), simdhttp_fields_contains(&f, S("host"));
        simdhttp_fields_get(&f, S("x-field-0"), &vl), simdhttp_fields_combined(&f, S("x-field-1"), buf, sizeof buf);
        simdhttp_fields_values(&f, S("x-field-0"), &it);
        while (simdhttp_fields_next(&it, &v, &vl)) {}
        CHECK(mallocs() == m0, "lookups allocate nothing (n=%u)", n);
    }
    /* reserve: then appends do not allocate */
    simdhttp_fields_free(&f);
    CHECK(simdhttp_fields_reserve(&f, 100, 100 * 40) == 0, "reserve");
    unsigned long m0 = mallocs();
    for (int i = 0; i < 100; i++) add(&f, "x-something", "0123456789012345678901234567");
    CHECK(mallocs() == m0, "no allocation after reserve (%lu)", mallocs() - m0);
    /* past the storage limits: refused, nothing allocated, the list unchanged */
    CHECK(simdhttp_fields_reserve(&f, (size_t)1 << 24, 0) == SIMDHTTP_E_INVALID_ARGUMENT &&
              simdhttp_fields_reserve(&f, 1, (size_t)UINT32_MAX) == SIMDHTTP_E_INVALID_ARGUMENT &&
              simdhttp_fields_reserve(&f, SIZE_MAX, SIZE_MAX) == SIMDHTTP_E_INVALID_ARGUMENT &&
              mallocs() == m0 && simdhttp_fields_count(&f) == 100,
          "reserve past the limits");

    /* allocation failures leave the list unchanged */
    char *before = dump(&f);
    simdhttp_fields c = SIMDHTTP_FIELDS_INIT;
    simdhttp_fields_copy(&c, &f); /* shared: every mutation must allocate */
    fail_next_malloc();
    CHECK(simdhttp_fields_append(&c, S("a"), S("b")) == SIMDHTTP_FIELDS_NOMEM, "append NOMEM");
    fail_next_malloc();
    CHECK(simdhttp_fields_set(&c, S("x-something"), S("b")) == SIMDHTTP_FIELDS_NOMEM, "set NOMEM");
    fail_next_malloc();
    CHECK(simdhttp_fields_remove(&c, S("x-something")) == SIMDHTTP_FIELDS_NOMEM, "remove NOMEM");
    simdhttp_head h = {0};
    simdhttp_field hf[1] = {{"a", 1, "b", 1}};
    h.fields = hf, h.num_fields = 1, h.fields_cap = 1;
    fail_next_malloc();
    CHECK(simdhttp_fields_from_head(&c, &h) == SIMDHTTP_FIELDS_NOMEM, "from_head NOMEM");
    no_fail();
    CHECK(dump_is(&c, before) && dump_is(&f, before), "unchanged after failures");
    CHECK(simdhttp_fields_append(&c, S("a"), S("b")) == 0, "works again");
    free(before);
    simdhttp_fields_free(&f), simdhttp_fields_free(&c);
}

/* ---- building from heads ---- */

static void test_from_head_corpus(void)
{
    static const char *const files[] = {"browser-get.http", "get-32h.http", "get-4h.http", "pipelined-16.http",
                                        "post-10k.http", "response-chunked.http", "response-typical.http",
                                        "seed-simple.http"};
    int heads = 0, cookie_pairs = 0;
    for (size_t fi = 0; fi < sizeof files / sizeof *files; fi++) {
        char path[512];
        size_t len;
        snprintf(path, sizeof path, "%s/%s", t_corpus_dir(), files[fi]);
        char *in = t_read_file(path, &len);
        if (!t_check(in != NULL, files[fi], "cannot read %s", path)) continue;
        size_t off = 0;
        while (off < len) {
            simdhttp_field hf[256];
            simdhttp_head h = {0};
            h.fields = hf, h.fields_cap = 256;
            long r = simdhttp_parse_head(&h, SIMDHTTP_BOTH, in + off, len - off, NULL);
            if (!t_check(r > 0, files[fi], "parse_head at %zu: %ld", off, r)) break;
            heads++;
            simdhttp_fields f = SIMDHTTP_FIELDS_INIT;
            add(&f, "stale", "replaced by the build");
            unsigned long m0 = mallocs();
            int e = simdhttp_fields_from_head(&f, &h);
            t_check(e == 0 && mallocs() - m0 <= 1, files[fi], "from_head: %d, %lu mallocs", e, mallocs() - m0);
            {
                /* again into the same handle: refilled in place, no allocation */
                char *was = dump(&f);
                unsigned long m1 = mallocs();
                t_check(simdhttp_fields_from_head(&f, &h) == 0 && mallocs() == m1 && dump_is(&f, was),
                        files[fi], "from_head into its own handle: %lu mallocs", mallocs() - m1);
                /* a shared handle is never refilled in place: the copy keeps its contents */
                simdhttp_fields g = SIMDHTTP_FIELDS_INIT;
                simdhttp_fields_copy(&g, &f);
                simdhttp_field one[1] = {{"a", 1, "b", 1}};
                simdhttp_head h1 = {0};
                h1.fields = one, h1.num_fields = 1, h1.fields_cap = 1;
                m1 = mallocs();
                t_check(simdhttp_fields_from_head(&f, &h1) == 0 && mallocs() - m1 == 1 && dump_is(&g, was) &&
                            simdhttp_fields_count(&f) == 1,
                        files[fi], "from_head into a shared handle: copy-on-write");
                simdhttp_fields_free(&g);
                free(was);
                simdhttp_fields_from_head(&f, &h); /* back to this head for the checks below */
            }
            int same = simdhttp_fields_count(&f) == h.num_fields;
            for (size_t i = 0; same && i < h.num_fields; i++) {
                simdhttp_field x;
                int id = simdhttp_fields_at(&f, i, &x);
                same = x.name_len == hf[i].name_len && memcmp(x.name, hf[i].name, x.name_len) == 0 &&
                       x.value_len == hf[i].value_len && memcmp(x.value, hf[i].value, x.value_len) == 0 &&
                       x.name != hf[i].name && (unsigned)id == simdhttp_field_id(hf[i].name, hf[i].name_len);
                /* each field is found by its own name, in any case, with its first value */
                char up[256];
                size_t nl = hf[i].name_len < sizeof up ? hf[i].name_len : sizeof up;
                for (size_t c = 0; c < nl; c++)
                    up[c] = hf[i].name[c] >= 'a' && hf[i].name[c] <= 'z' ? hf[i].name[c] - 32 : hf[i].name[c];
                size_t vl;
                const char *v = simdhttp_fields_get(&f, up, nl, &vl);
                size_t j = 0;
                while (j < i && !(hf[j].name_len == nl && ci_eq_n(hf[j].name, up, nl) == 0)) j++;
                same = same && v && vl == hf[j].value_len && memcmp(v, hf[j].value, vl) == 0;
            }
            t_check(same, files[fi], "fields differ from the head at offset %zu", off);
            /* the copy is independent of the input buffer */
            simdhttp_fields g = SIMDHTTP_FIELDS_INIT;
            for (size_t i = 0; i < h.num_fields; i++)
                simdhttp_fields_append(&g, hf[i].name, hf[i].name_len, hf[i].value, hf[i].value_len);
            t_check(simdhttp_fields_equal(&f, &g) == 1, files[fi], "from_head == appends");
            /* every cookie the corpus sends is well-formed */
            simdhttp_cookie_iter ci;
            simdhttp_field cp;
            int pairs = 0;
            simdhttp_fields_cookies(&f, &ci);
            while (simdhttp_cookie_next(&ci, &cp) == 1) pairs++;
            cookie_pairs += pairs;
            t_check(ci.errors == 0, files[fi], "%zu malformed cookie pairs: %s", ci.errors,
                    ci.error_reason ? ci.error_reason : "");
            simdhttp_fields_free(&f), simdhttp_fields_free(&g);
            off += (size_t)r;
            if (h.flags & SIMDHTTP_F_CONTENT_LENGTH) off += h.content_length;
            else if (h.flags & (SIMDHTTP_F_CHUNKED | SIMDHTTP_F_BODY_UNTIL_CLOSE)) break;
        }
        free(in);
    }
    CHECK(heads >= 8 + 15, "%d heads built", heads);
    CHECK(cookie_pairs >= 5, "%d cookie pairs walked in the corpus", cookie_pairs);

    /* seed-simple: the documented workload */
    char path[512];
    size_t len;
    snprintf(path, sizeof path, "%s/seed-simple.http", t_corpus_dir());
    char *in = t_read_file(path, &len);
    if (in) {
        simdhttp_field hf[64];
        simdhttp_head h = {0};
        h.fields = hf, h.fields_cap = 64;
        simdhttp_parse_head(&h, SIMDHTTP_REQUEST, in, len, NULL);
        simdhttp_fields f = SIMDHTTP_FIELDS_INIT;
        simdhttp_fields_from_head(&f, &h);
        free(in); /* the collection holds its own copy */
        CHECK(get_is(&f, NULL, SIMDHTTP_FIELD_USER_AGENT,
                      "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"), "user-agent");
        simdhttp_cookie_iter it;
        simdhttp_field c;
        simdhttp_fields_cookies(&f, &it);
        CHECK(simdhttp_cookie_next(&it, &c) == 1 && c.name_len == 10 && memcmp(c.name, "session_id", 10) == 0,
              "first cookie name");
        simdhttp_fields_free(&f);
    }
}

static void test_from_head_special(void)
{
    /* obs-fold through the parser (lenient) */
    static const char req[] = "GET / HTTP/1.1\r\nHost: h\r\nX-Long: a\r\n  b\r\n\tc\r\nAccept: *\r\n\r\n";
    simdhttp_config cfg = {0};
    cfg.lenient = SIMDHTTP_LENIENT_OBS_FOLD;
    simdhttp_field hf[16];
    simdhttp_head h = {0};
    h.fields = hf, h.fields_cap = 16;
    long r = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, req, sizeof req - 1, &cfg);
    simdhttp_fields f = SIMDHTTP_FIELDS_INIT;
    int e = simdhttp_fields_from_head(&f, &h);
    CHECK(r > 0 && e == 0 && dump_is(&f, "Host: h\nX-Long: a b c\nAccept: *\n"), "obs-fold joined with one SP (r=%ld e=%d)",
          r, e);
    char *before = dump(&f);
    /* hand-made heads: structure errors are refused, the list unchanged */
    simdhttp_field bad1[] = {{NULL, 0, "x", 1}};
    simdhttp_field bad2[] = {{"ok", 2, "v", 1}, {"", 0, "v", 1}};
    simdhttp_field bad3[] = {{"ok", 2, "v", 1}, {"n", 1, NULL, 3}};
    /* a NULL name with a length is a NULL span with a length, not an obs-fold continuation
     * (those have name_len 0): it was joined to "ok"'s value as one */
    simdhttp_field bad4[] = {{"ok", 2, "v", 1}, {NULL, 3, "x", 1}};
    /* a value length near SIZE_MAX is a list over 4 GiB: the sums of lengths wrapped, so the
     * one-block path kept a 4 GiB span over a few bytes and the span-by-span one copied it */
    static const char spans[] = "a: bcd\r\nX: y\r\n";
    simdhttp_field bad5[] = {{spans, 1, spans + 3, SIZE_MAX}, {spans + 8, 1, spans + 11, 1}};
    simdhttp_field bad6[] = {{spans, 1, spans + 3, 3}, {spans + 8, 1, spans + 11, SIZE_MAX - 7}};
    struct { simdhttp_field *f; size_t n; int err; } cases[] = {
        {bad1, 1, SIMDHTTP_E_UNEXPECTED_SPACE},
        {bad2, 2, SIMDHTTP_E_INVALID_HEADER_TOKEN},
        {bad3, 2, SIMDHTTP_E_INVALID_ARGUMENT},
        {bad4, 2, SIMDHTTP_E_INVALID_ARGUMENT},
        {bad5, 2, SIMDHTTP_E_INVALID_ARGUMENT},
        {bad6, 2, SIMDHTTP_E_INVALID_ARGUMENT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        simdhttp_head hh = {0};
        hh.fields = cases[i].f, hh.num_fields = hh.fields_cap = cases[i].n;
        e = simdhttp_fields_from_head(&f, &hh);
        CHECK(e == cases[i].err && dump_is(&f, before), "bad head %zu: %d, list unchanged", i, e);
    }
    /* the one-block copy (spans in one buffer) and the span-by-span copy (spans apart) agree */
    static const char blockbuf[] = "Host: a\r\nX-Y:  b c \r\nAccept:\r\nCookie: k=v\r\n";
    simdhttp_field inbuf[] = {{blockbuf, 4, blockbuf + 6, 1},
                              {blockbuf + 9, 3, blockbuf + 15, 3},
                              {blockbuf + 21, 6, blockbuf + 28, 0},
                              {blockbuf + 30, 6, blockbuf + 38, 3}};
    char *sep[4][2];
    simdhttp_field apart[4];
    for (int i = 0; i < 4; i++) { /* each span in its own allocation */
        sep[i][0] = malloc(inbuf[i].name_len + 1), sep[i][1] = malloc(inbuf[i].value_len + 1);
        memcpy(sep[i][0], inbuf[i].name, inbuf[i].name_len), memcpy(sep[i][1], inbuf[i].value, inbuf[i].value_len);
        apart[i] = (simdhttp_field){sep[i][0], inbuf[i].name_len, sep[i][1], inbuf[i].value_len};
    }
    simdhttp_fields g = SIMDHTTP_FIELDS_INIT;
    simdhttp_head h1 = {0}, h2 = {0};
    h1.fields = inbuf, h1.num_fields = 4, h2.fields = apart, h2.num_fields = 4;
    const char *want = "Host: a\nX-Y: b c\nAccept: \nCookie: k=v\n";
    CHECK(simdhttp_fields_from_head(&f, &h1) == 0 && dump_is(&f, want), "one block");
    CHECK(simdhttp_fields_from_head(&g, &h2) == 0 && dump_is(&g, want), "span by span");
    CHECK(simdhttp_fields_equal(&f, &g) == 1 && get_is(&f, S("cookie"), "k=v") && get_is(&g, S("x-y"), "b c") &&
              simdhttp_fields_contains(&g, S("accept")), "same lists");
    for (int i = 0; i < 4; i++) free(sep[i][0]), free(sep[i][1]);
    simdhttp_fields_free(&g);
    simdhttp_fields_free(&f);
    simdhttp_fields_append(&f, S("Host"), S("h"));
    simdhttp_fields_append(&f, S("X-Long"), S("a b c"));
    simdhttp_fields_append(&f, S("Accept"), S("*"));
    CHECK(simdhttp_fields_from_head(&f, NULL) == SIMDHTTP_E_INVALID_ARGUMENT, "NULL head");
    simdhttp_head empty = {0};
    CHECK(simdhttp_fields_from_head(&f, &empty) == 0 && simdhttp_fields_count(&f) == 0, "empty head");
    CHECK(simdhttp_fields_append(&f, S("a"), S("b")) == 0 && simdhttp_fields_count(&f) == 1, "usable after");
    free(before);
    simdhttp_fields_free(&f);
}

/* ---- cookies ---- */

/* The documented loop: pairs rendered "name=value|"; then, if pairs were malformed,
 * "!<count> <field>.<offset>:<first malformed pair>" */
static char *cookies(const simdhttp_fields *f)
{
    t_buf b = {0};
    t_buf_put(&b, "", 0);
    simdhttp_cookie_iter it;
    simdhttp_field c;
    int r, guard = 0;
    simdhttp_fields_cookies(f, &it);
    while ((r = simdhttp_cookie_next(&it, &c)) == 1 && guard++ < 100) {
        t_buf_put(&b, c.name, c.name_len), t_buf_put(&b, "=", 1), t_buf_put(&b, c.value, c.value_len);
        t_buf_put(&b, "|", 1);
    }
    if (r != 0) t_buf_printf(&b, "?BAD return %d", r);
    if (it.errors) {
        t_buf_printf(&b, "!%zu %zu.%zu:", it.errors, it.error_field, it.error_offset);
        t_buf_put(&b, it.error_pair, it.error_pair_len);
        if (!it.error_reason) t_buf_put(&b, "?NO REASON", 10);
    }
    return b.s;
}

static void test_cookies(void)
{
    static const struct { const char *fields[3]; const char *want; } cases[] = {
        {{"a=b; c=d"}, "a=b|c=d|"},
        {{"a=b", "c=d; e=f"}, "a=b|c=d|e=f|"},                  /* across Cookie fields */
        {{"sid=\"quoted\"; e="}, "sid=\"quoted\"|e=|"},         /* quotes kept, empty value */
        {{"a=b;c=d"}, "a=b|c=d|"},                              /* no SP: lenient */
        {{" a=b ;  c=d; "}, "a=b|c=d|"},                        /* extra SP */
        {{";;a=b;;"}, "a=b|"},                                  /* empty pairs */
        {{""}, ""},
        {{"a=b=c; d=e"}, "a=b=c|d=e|"},                         /* '=' is a cookie-octet */
        {{"__Secure-x=1; 1P_JAR=2026"}, "__Secure-x=1|1P_JAR=2026|"},
        {{"a b=c; d=e"}, "d=e|!1 1.1:a b=c"},                   /* name not a token: skipped */
        {{"=c; d=e"}, "d=e|!1 1.0:=c"},                         /* empty name */
        {{"flag; d=e"}, "d=e|!1 1.4:flag"},                     /* no '=' */
        {{"a=b c; d=e"}, "d=e|!1 1.4:a=b c"},                   /* SP inside value */
        {{"a=b,c"}, "!1 1.3:a=b,c"},                            /* comma */
        {{"a=\"b; c=d"}, "c=d|!1 1.4:a=\"b"},                   /* unbalanced quote */
        {{"a=\"b\"c"}, "!1 1.5:a=\"b\"c"},                      /* junk after the quote */
        {{"a=x\\y", "ok=1"}, "ok=1|!1 1.3:a=x\\y"},             /* backslash; next field fine */
        {{"a=\x80"}, "!1 1.2:a=\x80"},                          /* non-ASCII */
        /* issue 9: the documented loop goes on after a bad pair, to the last good one */
        {{"a=1; b c; d=2", "e f; g=3"}, "a=1|d=2|g=3|!2 1.6:b c"},
        {{"x;y;z=1 ;w"}, "z=1|!3 1.1:x"},                       /* several: the first reported */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        simdhttp_fields f = SIMDHTTP_FIELDS_INIT;
        add(&f, "Host", "h");
        for (int k = 0; k < 3 && cases[i].fields[k]; k++) {
            add(&f, k ? "cookie" : "Cookie", cases[i].fields[k]);
            add(&f, "X-Other", "not=cookie");
        }
        char *got = cookies(&f);
        CHECK(strcmp(got, cases[i].want) == 0, "case %zu: got %s want %s", i, got, cases[i].want);
        free(got);
        simdhttp_fields_free(&f);
    }
    simdhttp_fields f = SIMDHTTP_FIELDS_INIT;
    add(&f, "Set-Cookie", "a=b");
    char *got = cookies(&f);
    CHECK(strcmp(got, "") == 0, "no Cookie field: no pairs (Set-Cookie is not walked)");
    free(got);
    simdhttp_cookie_iter it;
    simdhttp_field c;
    add(&f, "Cookie", "x");
    simdhttp_fields_cookies(&f, &it);
    CHECK(simdhttp_cookie_next(&it, &c) == 0 && it.errors == 1 && it.error_field == 1 && it.error_reason &&
              strstr(it.error_reason, "'='"), "error reason says what");
    CHECK(simdhttp_cookie_next(&it, &c) == 0 && simdhttp_cookie_next(&it, &c) == 0 && it.errors == 1,
          "end stays end, the count too");
    simdhttp_fields_free(&f);
}

/* The cookie scans run words, then bytes (src/fields.c): every byte value at every position of
 * names and values (plain and quoted) of every length up to 40, so that each byte lands at
 * every place of a word and of the byte tail. What the iterator must say follows from RFC 6265
 * section 4.2's grammar and its documented recovery (include/simdhttp.h). */
static int is_octet(int b) { return b >= 0x21 && b <= 0x7e && b != '"' && b != ',' && b != ';' && b != '\\'; }
static int is_tchar(int b) { return b > 0x20 && b < 0x7f && !strchr("\"(),/:;<=>?@[\\]{}", b); }

static void test_cookie_bytes(void)
{
    char buf[64];
    simdhttp_cookie_iter it;
    simdhttp_field c;
    int bad = 0;
    for (int b = 0; b < 256 && bad < 5; b++) {
        for (size_t len = 1; len <= 40; len++) {
            for (size_t i = 0; i < len; i++) {
                /* a plain value: "n=" value, byte b at value offset i */
                memcpy(buf, "n=", 2);
                memset(buf + 2, 'a', len);
                buf[2 + i] = (char)b;
                simdhttp_cookies_of(buf, 2 + len, &it);
                int r = simdhttp_cookie_next(&it, &c);
                int ok;
                if (is_octet(b))
                    ok = r == 1 && c.value_len == len && it.errors == 0;
                else if (b == '"' && i == 0) /* an opening quote that never closes */
                    ok = r == 0 && it.errors >= 1 && it.error_offset == 2 + len;
                else if (b == ';' || ((b == ' ' || b == '\t') && i == len - 1))
                    ok = r == 1 && c.value_len == i && it.errors == 0;
                else if (b == ' ' || b == '\t')
                    ok = r == 0 && it.errors >= 1 && it.error_offset == 2 + i + 1;
                else
                    ok = r == 0 && it.errors >= 1 && it.error_offset == 2 + i;
                if (!ok && bad++ < 5)
                    CHECK(0, "plain value: byte 0x%02x at %zu of %zu: r %d value_len %zu errors %zu offset %zu", b, i,
                          len, r, r == 1 ? c.value_len : 0, it.errors, (size_t)it.error_offset);
                /* a quoted value: "n=\"" value "\"" */
                memcpy(buf, "n=\"", 3);
                memset(buf + 3, 'a', len);
                buf[3 + i] = (char)b;
                buf[3 + len] = '"';
                simdhttp_cookies_of(buf, 4 + len, &it);
                r = simdhttp_cookie_next(&it, &c);
                if (is_octet(b))
                    ok = r == 1 && c.value_len == len + 2 && it.errors == 0;
                else if (b == '"') /* closes early: what follows is no ';' */
                    ok = r == 0 && it.errors >= 1 && it.error_offset == 3 + i + 1;
                else
                    ok = r == 0 && it.errors >= 1 && it.error_offset == 3 + i;
                if (!ok && bad++ < 5)
                    CHECK(0, "quoted value: byte 0x%02x at %zu of %zu: r %d errors %zu offset %zu", b, i, len, r,
                          it.errors, (size_t)it.error_offset);
                /* a name: name "=v", byte b at name offset i > 0 (a first byte may be a separator) */
                if (i == 0) continue;
                memset(buf, 'a', len);
                buf[i] = (char)b;
                memcpy(buf + len, "=v", 2);
                simdhttp_cookies_of(buf, len + 2, &it);
                r = simdhttp_cookie_next(&it, &c);
                if (is_tchar(b))
                    ok = r == 1 && c.name_len == len && c.value_len == 1 && it.errors == 0;
                else if (b == '=')
                    ok = r == 1 && c.name_len == i && it.errors == 0;
                else if (b == ';') /* the bad pair ends there: the rest is the next pair */
                    ok = i == len - 1 ? r == 0 && it.errors == 2 && it.error_offset == i /* "=v": no name */
                                      : r == 1 && c.name_len == len - i - 1 && it.errors == 1 && it.error_offset == i;
                else
                    ok = r == 0 && it.errors >= 1 && it.error_offset == i;
                if (!ok && bad++ < 5)
                    CHECK(0, "name: byte 0x%02x at %zu of %zu: r %d name_len %zu errors %zu offset %zu", b, i, len, r,
                          r == 1 ? c.name_len : 0, it.errors, (size_t)it.error_offset);
            }
        }
    }
    CHECK(bad == 0, "every byte at every place of cookie names and values of 1-40 bytes");
}

int main(void)
{
    test_known_ids();
    test_append_lookup();
    test_refusals();
    test_combined();
    test_set_remove();
    /* both general paths: the hash table (default) and the sort (its fallback) */
    for (simdhttp__fields_equal_by_sort = 0; simdhttp__fields_equal_by_sort < 2; simdhttp__fields_equal_by_sort++) {
        test_equal_basic();
        test_equal_random();
        test_equal_collision();
    }
    simdhttp__fields_equal_by_sort = 0;
    test_model();
    test_copy_on_write();
    test_threads();
    test_allocations();
    test_from_head_corpus();
    test_from_head_special();
    test_cookies();
    test_cookie_bytes();
    return t_summary();
}
