/* SPDX-License-Identifier: MIT */
/* Zero-copy lookups on a parsed head (simdhttp_head_find/get/field_id) and the cookie iterator
 * over a head or one value span (simdhttp_head_cookies, simdhttp_cookies_of):
 *   - against a plain loop (the first field whose name is equal ignoring ASCII case; the first
 *     whose simdhttp_field_id is the id) for every name and every known id, on every corpus
 *     request and a head with mixed case, repeated names and an obs-fold continuation;
 *   - every span returned lies in the input buffer (nothing copied);
 *   - the cookie pairs and errors equal those of simdhttp_fields_cookies over the same fields
 *     built into a simdhttp_fields, for well-formed and malformed Cookie values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

#define CAP 256

static int eq_ci(const char *a, size_t al, const char *b, size_t bl)
{
    if (al != bl) return 0;
    for (size_t i = 0; i < al; i++) {
        int x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x >= 'A' && x <= 'Z') x += 32;
        if (y >= 'A' && y <= 'Z') y += 32;
        if (x != y) return 0;
    }
    return 1;
}

static int inside(const char *p, size_t n, const char *buf, size_t len)
{
    return p && (uintptr_t)p >= (uintptr_t)buf && (uintptr_t)(p + n) <= (uintptr_t)(buf + len);
}

/* every lookup on one head against the plain loop */
static void check_head(const char *name, const simdhttp_head *h, const char *buf, size_t len)
{
    int bad = 0;
    for (size_t i = 0; i < h->num_fields && !bad; i++) {
        const simdhttp_field *f = &h->fields[i];
        unsigned id = f->name ? simdhttp_field_id(f->name, f->name_len) : 0;
        bad |= !t_check(simdhttp_head_field_id(h, i) == id, name, "field %zu: id %u, want %u", i,
                        simdhttp_head_field_id(h, i), id);
        if (!f->name) continue;
        for (size_t from = 0; from <= i + 1 && !bad; from++) {
            long want = -1;
            for (size_t j = from; j < h->num_fields && want < 0; j++)
                if (h->fields[j].name && eq_ci(h->fields[j].name, h->fields[j].name_len, f->name, f->name_len))
                    want = (long)j;
            long got = simdhttp_head_find(h, f->name, f->name_len, from);
            bad |= !t_check(got == want, name, "find '%.*s' from %zu: %ld, want %ld", (int)f->name_len,
                            f->name, from, got, want);
        }
    }
    for (unsigned id = 0; id <= SIMDHTTP_FIELD_ID_COUNT && !bad; id++) {
        long want = -1;
        for (size_t j = 0; j < h->num_fields && want < 0 && id && id < SIMDHTTP_FIELD_ID_COUNT; j++)
            if (h->fields[j].name && simdhttp_field_id(h->fields[j].name, h->fields[j].name_len) == id)
                want = (long)j;
        long got = simdhttp_head_find(h, NULL, id, 0);
        bad |= !t_check(got == want, name, "find id %u: %ld, want %ld", id, got, want);
        size_t vl = 99;
        const char *v = simdhttp_head_get(h, NULL, id, &vl);
        if (want < 0) bad |= !t_check(v == NULL && vl == 0, name, "get id %u: not NULL", id);
        else
            bad |= !t_check(v == h->fields[want].value && vl == h->fields[want].value_len &&
                                (vl == 0 || inside(v, vl, buf, len)),
                            name, "get id %u: not the field's value span", id);
    }
    t_check(!bad, name, "every name and id looked up as the plain loop does");
}

/* the head's cookies against simdhttp_fields' cookies over the same fields */
static void check_cookies(const char *name, const simdhttp_head *h, const char *buf, size_t len)
{
    simdhttp_fields fl = SIMDHTTP_FIELDS_INIT;
    if (!t_check(simdhttp_fields_from_head(&fl, h) == 0, name, "fields_from_head failed")) return;
    simdhttp_cookie_iter a, b;
    simdhttp_head_cookies(h, &a);
    simdhttp_fields_cookies(&fl, &b);
    int n = 0, bad = 0;
    for (;;) {
        simdhttp_field x = {0}, y = {0};
        int ra = simdhttp_cookie_next(&a, &x), rb = simdhttp_cookie_next(&b, &y);
        bad |= !t_check(ra == rb, name, "cookie %d: result %d, fields give %d", n, ra, rb);
        if (ra != rb || ra == 0) break;
        bad |= !t_check(x.name_len == y.name_len && memcmp(x.name, y.name, x.name_len) == 0 &&
                            x.value_len == y.value_len && (x.value == NULL) == (y.value == NULL) &&
                            (!x.value || memcmp(x.value, y.value, x.value_len) == 0),
                        name, "cookie %d differs", n);
        bad |= !t_check(inside(x.name, x.name_len, buf, len), name, "cookie %d: name not in the buffer", n);
        if (++n > 1000 || bad) break;
    }
    /* malformed pairs are skipped and counted (issue 9): the same count, the same first one */
    bad |= !t_check(a.errors == b.errors && a.error_reason == b.error_reason &&
                        a.error_offset == b.error_offset && a.error_pair_len == b.error_pair_len &&
                        (!a.errors || memcmp(a.error_pair, b.error_pair, a.error_pair_len) == 0),
                    name, "malformed pairs differ: %zu and %zu", a.errors, b.errors);
    simdhttp_fields_free(&fl);
    t_check(!bad, name, "%d cookie results equal simdhttp_fields_cookies'", n);
}

static long parse(simdhttp_head *h, simdhttp_field *f, const char *buf, size_t len, unsigned lenient)
{
    simdhttp_config cfg = {0};
    cfg.lenient = lenient;
    memset(h, 0, sizeof *h);
    h->fields = f;
    h->fields_cap = CAP;
    return simdhttp_parse_head(h, SIMDHTTP_REQUEST, buf, len, &cfg);
}

int main(void)
{
    static simdhttp_field f[CAP];
    simdhttp_head h;
    size_t ncorpus;
    char **corpus = t_list_dir(t_corpus_dir(), ".http", &ncorpus);
    for (size_t i = 0; i < ncorpus; i++) {
        size_t len;
        char *in = t_read_file(corpus[i], &len);
        if (in && len > 5 && memcmp(in, "HTTP/", 5) != 0 && parse(&h, f, in, len, 0) > 0) {
            check_head(corpus[i], &h, in, len);
            check_cookies(corpus[i], &h, in, len);
        }
        free(in);
        free(corpus[i]);
    }
    free(corpus);

    static const char mixed[] =
        "GET / HTTP/1.1\r\nHost: a\r\nX-A: 1\r\nCOOKIE: a=1; b=\"2\"\r\nx-a: 2\r\nUser-Agent: u\r\n"
        "X-Fold: first\r\n  continued\r\ncookie: c=3;;d=4 ; bad pair; e=\"x\r\nX-A:3\r\n\r\n";
    size_t ml = sizeof mixed - 1;
    char *copy = malloc(ml); /* exactly sized: ASan sees a read past it */
    memcpy(copy, mixed, ml);
    long r = parse(&h, f, copy, ml, SIMDHTTP_LENIENT_OBS_FOLD);
    if (t_check(r == (long)ml, "mixed head", "parse_head returned %ld", r)) {
        check_head("mixed head", &h, copy, ml);
        check_cookies("mixed head", &h, copy, ml);
        t_check(simdhttp_head_find(&h, "x-A", 3, 0) == 1 && simdhttp_head_find(&h, "X-a", 3, 2) == 3 &&
                    simdhttp_head_find(&h, "x-a", 3, 4) == 8 && simdhttp_head_find(&h, "x-a", 3, 9) == -1,
                "mixed head", "X-A at 1, 3, 8");
        size_t vl;
        const char *v = simdhttp_head_get(&h, NULL, SIMDHTTP_FIELD_USER_AGENT, &vl);
        t_check(v && vl == 1 && *v == 'u', "mixed head", "User-Agent by id");
        t_check(simdhttp_head_field_id(&h, 6) == 0 && h.fields[6].name == NULL, "mixed head",
                "an obs-fold continuation has id 0");
        /* a folded value: the lookups give its first line, fields_from_head joins it (simdhttp.h) */
        v = simdhttp_head_get(&h, "x-fold", 6, &vl);
        t_check(v && vl == 5 && memcmp(v, "first", 5) == 0, "mixed head", "X-Fold: the first line's span");
        {
            simdhttp_fields fl = SIMDHTTP_FIELDS_INIT;
            size_t jl = 0;
            const char *j = simdhttp_fields_from_head(&fl, &h) == 0 ? simdhttp_fields_get(&fl, "x-fold", 6, &jl) : NULL;
            t_check(j && jl == 15 && memcmp(j, "first continued", 15) == 0, "mixed head", "X-Fold joined: '%.*s'",
                    (int)jl, j ? j : "");
            simdhttp_fields_free(&fl);
        }
        /* one value span */
        simdhttp_cookie_iter it;
        simdhttp_field c;
        v = simdhttp_head_get(&h, "cookie", 6, &vl);
        simdhttp_cookies_of(v, vl, &it);
        int n = 0;
        while (simdhttp_cookie_next(&it, &c) == 1) n++;
        t_check(n == 2 && c.name_len == 1 && c.name[0] == 'b' && c.value_len == 3, "cookies_of",
                "a=1; b=\"2\": %d pairs", n);
        simdhttp_cookies_of(NULL, 5, &it);
        t_check(simdhttp_cookie_next(&it, &c) == 0, "cookies_of", "NULL span: no pair");
        /* each starter resets the whole iterator (members are assigned one by one, not
         * memset): reused after a malformed pair, it reports no error and the same pairs */
        for (int k = 0; k < 3; k++) {
            static const char badv[] = "x; a=1";
            simdhttp_fields fl = SIMDHTTP_FIELDS_INIT;
            int from_head = 0;
            simdhttp_cookies_of(badv, sizeof badv - 1, &it);
            while (simdhttp_cookie_next(&it, &c) == 1) {}
            if (!t_check(it.errors == 1 && it.error_pair, "cookie iterator reuse", "no error to clear")) break;
            if (k == 0) simdhttp_cookies_of(v, vl, &it);
            else if (k == 1) simdhttp_head_cookies(&h, &it), from_head = 1;
            else if (t_check(simdhttp_fields_from_head(&fl, &h) == 0, "cookie iterator reuse", "fields"))
                simdhttp_fields_cookies(&fl, &it), from_head = 1;
            t_check(it.errors == 0 && it.error_pair == NULL && it.error_pair_len == 0 && it.error_reason == NULL &&
                        it.error_field == 0 && it.error_offset == 0,
                    "cookie iterator reuse", "starter %d left an error member set", k);
            n = 0;
            while (simdhttp_cookie_next(&it, &c) == 1) n++;
            /* the head's: a=1, b="2" (first Cookie), c=3, d=4 (second; "bad pair" skipped, e
             * unbalanced) */
            t_check(n == (from_head ? 4 : 2), "cookie iterator reuse", "starter %d: %d pairs", k, n);
            simdhttp_fields_free(&fl);
        }
    }
    free(copy);
    t_check(simdhttp_head_find(NULL, "a", 1, 0) == -1 && simdhttp_head_get(NULL, "a", 1, NULL) == NULL,
            "NULL head", "no field");
    /* a hand-made head with num_fields > 0 and fields NULL (the parser never makes one): no
     * field, no crash */
    simdhttp_head hand;
    memset(&hand, 0, sizeof hand);
    hand.num_fields = 3;
    size_t hvl = 7;
    simdhttp_cookie_iter hit;
    simdhttp_field hc;
    simdhttp_head_cookies(&hand, &hit);
    t_check(simdhttp_head_find(&hand, "a", 1, 0) == -1 && simdhttp_head_find(&hand, NULL, SIMDHTTP_FIELD_HOST, 0) == -1 &&
                simdhttp_head_get(&hand, "a", 1, &hvl) == NULL && hvl == 0 && simdhttp_head_field_id(&hand, 1) == 0 &&
                simdhttp_cookie_next(&hit, &hc) == 0,
            "fields NULL, num_fields 3", "a field found");
    /* a head whose num_fields shrinks between two calls ends the iteration: no field past the
     * new count is read (the array holds exactly two, so ASan sees a read past it) */
    simdhttp_field *two = malloc(2 * sizeof *two);
    if (t_check(two != NULL, "head shrinks", "malloc")) {
        two[0] = (simdhttp_field){"Cookie", 6, "a=1", 3};
        two[1] = (simdhttp_field){"Cookie", 6, "b=2", 3};
        simdhttp_head sh = {.fields = two, .fields_cap = 2, .num_fields = 2};
        simdhttp_cookie_iter si;
        simdhttp_field sc;
        simdhttp_head_cookies(&sh, &si);
        int r1 = simdhttp_cookie_next(&si, &sc), r2 = simdhttp_cookie_next(&si, &sc);
        t_check(r1 == 1 && r2 == 1 && sc.name[0] == 'b', "head shrinks", "the two pairs before: %d %d", r1, r2);
        sh.num_fields = 0;
        t_check(simdhttp_cookie_next(&si, &sc) == 0 && simdhttp_cookie_next(&si, &sc) == 0, "head shrinks",
                "a pair after num_fields went to 0");
        free(two);
    }
    return t_summary();
}
