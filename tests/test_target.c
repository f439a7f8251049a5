/* SPDX-License-Identifier: MIT */
/* The request-target splitter (simdhttp.h section 7). Each case is a target and what it must
 * give: the form and every part present, or an error name and offset. Every case runs in one
 * call, fed in two pieces split at every offset, fed byte by byte, and placed right before and
 * right after a PROT_NONE page (an over-read or under-read faults). Then the form-vs-method
 * check (simdhttp_target_parse_for). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testlib.h"

#define C SIMDHTTP_TARGET_CONNECT
#define F SIMDHTTP_TARGET_FRAGMENT
#define L SIMDHTTP_TARGET_LENIENT

static const struct tcase {
    unsigned flags;
    const char *in, *want;
} cases[] = {
    /* origin-form: absolute-path [ "?" query ] */
    {0, "/", "origin path=/"},
    {0, "/a/b%2Fc;p=1/", "origin path=/a/b%2Fc;p=1/"},
    {0, "//x//", "origin path=//x//"},
    {0, "/p?", "origin path=/p query="},
    {0, "/p?a=1&b=/?x:@!$'()*+,;", "origin path=/p query=a=1&b=/?x:@!$'()*+,;"},
    {0, "/~user/-._", "origin path=/~user/-._"},
    {0, "/a:b@c", "origin path=/a:b@c"},
    {0, "/a b", "error PATH@2"},
    {0, "/a\"b", "error PATH@2"},
    {0, "/a<b>", "error PATH@2"},
    {0, "/a\\b", "error PATH@2"},
    {0, "/a^b", "error PATH@2"},
    {0, "/a`b", "error PATH@2"},
    {0, "/a{b}", "error PATH@2"},
    {0, "/a|b", "error PATH@2"},
    {0, "/a\x7f", "error PATH@2"},
    {0, "/a\x80", "error PATH@2"},
    {0, "/\xc3\xa9", "error PATH@1"},
    {0, "/a\tb", "error PATH@2"},
    {0, "/?a b", "error QUERY@3"},
    {0, "/?a|b", "error QUERY@3"},
    {0, "/?a[b]", "error QUERY@3"},
    {0, "/[", "error PATH@1"},
    {0, "/%41%7e", "origin path=/%41%7e"},
    {0, "/%4", "error PERCENT@3"},
    {0, "/%", "error PERCENT@2"},
    {0, "/%g1", "error PERCENT@2"},
    {0, "/%1g", "error PERCENT@3"},
    {0, "/?%zz", "error PERCENT@3"},
    {0, "/?q%", "error PERCENT@4"},
    {0, "", "error EMPTY@0"},
    /* lenient: what http-parser and browsers leave raw in a path, query or fragment */
    {L, "/a\\b^c`d{e}|f\"g", "origin path=/a\\b^c`d{e}|f\"g"},
    {L, "/caf\xc3\xa9?q=\xe2\x82\xac", "origin path=/caf\xc3\xa9 query=q=\xe2\x82\xac"},
    {L, "/?a[]=1&a[]=2", "origin path=/ query=a[]=1&a[]=2"},
    {L, "/%zz/%4", "origin path=/%zz/%4"},
    {L, "/?q%", "origin path=/ query=q%"},
    {L | F, "/p?q#f#g", "origin path=/p query=q fragment=f#g"},
    {L, "/p#f", "error FRAGMENT@2"},
    {L, "/a b", "error PATH@2"},
    {L, "/a\tb", "error PATH@2"},
    {L, "/a\x7f", "error PATH@2"},
    {L, "/?a\x01", "error QUERY@3"},
    {L, "http://h%zz/", "error PERCENT@9"},
    {L, "http://h|/", "error HOST@8"},
    /* fragments are not part of a request-target */
    {0, "/p#f", "error FRAGMENT@2"},
    {0, "/p?q#f", "error FRAGMENT@4"},
    {F, "/p#f", "origin path=/p fragment=f"},
    {F, "/p?q#", "origin path=/p query=q fragment="},
    {F, "/p#f?/:@", "origin path=/p fragment=f?/:@"},
    {F, "/p#f#g", "error FRAGMENT@4"},
    {F, "/p#%2", "error PERCENT@5"},
    /* asterisk-form */
    {0, "*", "asterisk"},
    {0, "*/", "error FORM@1"},
    {0, "**", "error FORM@1"},
    /* absolute-form */
    {0, "http://example.com", "absolute scheme=http host=example.com"},
    {0, "http://example.com/", "absolute scheme=http host=example.com path=/"},
    {0, "HTTPS://Example.COM:8443/a/b?c=d", "absolute scheme=HTTPS host=Example.COM port=8443 path=/a/b query=c=d"},
    {0, "http://u:p@h:1/x", "absolute scheme=http userinfo=u:p host=h port=1 path=/x"},
    {0, "http://u@h", "absolute scheme=http userinfo=u host=h"},
    {0, "http://:p:q@h", "absolute scheme=http userinfo=:p:q host=h"},
    {0, "http://@h", "absolute scheme=http userinfo= host=h"},
    {0, "http://%41b@h%2e/", "absolute scheme=http userinfo=%41b host=h%2e path=/"},
    {0, "http://h:/", "absolute scheme=http host=h port= path=/"},
    {0, "http://h:", "absolute scheme=http host=h port="},
    {0, "http://h?q", "absolute scheme=http host=h query=q"},
    {0, "http://h:8?q", "absolute scheme=http host=h port=8 query=q"},
    {0, "http://h:65535", "absolute scheme=http host=h port=65535"},
    {0, "http://h:65536", "error PORT@13"},
    {0, "http://h:99999/", "error PORT@13"},
    {0, "http://h:0000080", "absolute scheme=http host=h port=0000080"},
    {0, "http://h:8a/", "error PORT@10"},
    {0, "http://h:8:9/", "error PORT@10"},
    {0, "http://u@h:8a/", "error PORT@12"},
    {0, "http://u@h@i/", "error HOST@10"},
    {0, "http://h h/", "error HOST@8"},
    {0, "http://h\"/", "error HOST@8"},
    {0, "http://h_-~!$&'()*+,;=.x/", "absolute scheme=http host=h_-~!$&'()*+,;=.x path=/"},
    {0, "http://h%zz/", "error PERCENT@9"},
    {0, "http://h:8%41/", "error PORT@10"},
    {0, "http://1.2.3.4/", "absolute scheme=http host=1.2.3.4(ipv4) path=/"},
    {0, "http://255.255.255.255:80", "absolute scheme=http host=255.255.255.255(ipv4) port=80"},
    {0, "http://1.2.3.04/", "absolute scheme=http host=1.2.3.04 path=/"},
    {0, "http://1.2.3.256/", "absolute scheme=http host=1.2.3.256 path=/"},
    {0, "http://1.2.3/", "absolute scheme=http host=1.2.3 path=/"},
    {0, "http://1.2.3.4.5/", "absolute scheme=http host=1.2.3.4.5 path=/"},
    {0, "http://u@1.2.3.4", "absolute scheme=http userinfo=u host=1.2.3.4(ipv4)"},
    {0, "http://", "error HOST@7"},
    {0, "http:///x", "error HOST@7"},
    {0, "http://u@/x", "error HOST@9"},
    {0, "http://:80/", "error HOST@7"},
    {0, "http:/x", "error HOST@6"},
    {0, "http:x", "error HOST@5"},
    {0, "http:", "error HOST@5"},
    {0, "https:?q", "error HOST@6"},
    {0, "http:80/x", "error HOST@5"},
    {0, "http:/", "error HOST@6"},
    {0, "http://h/a b", "error PATH@10"},
    {0, "http://h/p?q#f", "error FRAGMENT@12"},
    {F, "http://h/p?q#f", "absolute scheme=http host=h path=/p query=q fragment=f"},
    {F, "http://h#f", "absolute scheme=http host=h fragment=f"},
    {0, "file:///etc/x", "absolute scheme=file host= path=/etc/x"},
    {0, "ftp://u:pw@ftp.example.org/a", "absolute scheme=ftp userinfo=u:pw host=ftp.example.org path=/a"},
    {0, "mailto:a@b.c", "absolute scheme=mailto path=a@b.c"},
    {0, "urn:isbn:0451450523", "absolute scheme=urn path=isbn:0451450523"},
    {0, "svn+ssh.x-y:/p", "absolute scheme=svn+ssh.x-y path=/p"},
    {0, "x:", "absolute scheme=x"},
    {0, "x:?q", "absolute scheme=x query=q"},
    {0, "x:/", "absolute scheme=x path=/"},
    {0, "x:80a", "absolute scheme=x path=80a"},
    {0, "x:80/", "absolute scheme=x path=80/"},
    {0, "x:99999", "absolute scheme=x path=99999"},
    {0, "x:%41", "absolute scheme=x path=%41"},
    {0, "x: ", "error PATH@2"},
    {0, "1x://h", "error PORT@3"}, /* no scheme: a host and a port */
    {0, "-x:/", "error PORT@3"},
    {0, "ht tp://h", "error SCHEME@2"},
    {0, "a%41:/", "error PORT@5"}, /* "%" is no scheme byte: a host, then a port */
    {0, "x", "error FORM@0"},
    {0, "index.html", "error FORM@0"},
    {0, ":80", "error FORM@0"},
    {0, "?q", "error FORM@0"},
    {0, "#f", "error FORM@0"},
    {0, " /", "error FORM@0"},
    /* IP literals in absolute-form */
    {0, "http://[::1]/", "absolute scheme=http host=::1(ipv6) path=/"},
    {0, "http://[::1]:8080/x", "absolute scheme=http host=::1(ipv6) port=8080 path=/x"},
    {0, "http://[::1]?q", "absolute scheme=http host=::1(ipv6) query=q"},
    {0, "http://[::1]", "absolute scheme=http host=::1(ipv6)"},
    {0, "http://u@[::1]:1", "absolute scheme=http userinfo=u host=::1(ipv6) port=1"},
    {0, "http://[1:2:3:4:5:6:7:8]/", "absolute scheme=http host=1:2:3:4:5:6:7:8(ipv6) path=/"},
    {0, "http://[1:2:3:4:5:6:1.2.3.4]/", "absolute scheme=http host=1:2:3:4:5:6:1.2.3.4(ipv6) path=/"},
    {0, "http://[::ffff:1.2.3.4]/", "absolute scheme=http host=::ffff:1.2.3.4(ipv6) path=/"},
    {0, "http://[::1.2.3.4]/", "absolute scheme=http host=::1.2.3.4(ipv6) path=/"},
    {0, "http://[fe80::1:2]/", "absolute scheme=http host=fe80::1:2(ipv6) path=/"},
    {0, "http://[1::]/", "absolute scheme=http host=1::(ipv6) path=/"},
    {0, "http://[::]/", "absolute scheme=http host=::(ipv6) path=/"},
    {0, "http://[ABCD:ef01::]/", "absolute scheme=http host=ABCD:ef01::(ipv6) path=/"},
    {0, "http://[1:2:3:4:5:6:7::]/", "absolute scheme=http host=1:2:3:4:5:6:7::(ipv6) path=/"},
    {0, "http://[v1.x:y]/", "absolute scheme=http host=v1.x:y(ipvfuture) path=/"},
    {0, "http://[VaF.!]/", "absolute scheme=http host=VaF.!(ipvfuture) path=/"},
    {0, "http://[v1.]/", "error HOST@11"},
    {0, "http://[v.x]/", "error HOST@9"},
    {0, "http://[vz.x]/", "error HOST@9"},
    {0, "http://[v1.x/]/", "error HOST@12"},
    {0, "http://[]/", "error HOST@8"},
    {0, "http://[1:2:3:4:5:6:7:8:9]/", "error HOST@24"},
    {0, "http://[1:2:3:4:5:6:7]/", "error HOST@21"},
    {0, "http://[1::2::3]/", "error HOST@13"},
    {0, "http://[:1]/", "error HOST@8"},
    {0, "http://[1:]/", "error HOST@9"},
    {0, "http://[12345::]/", "error HOST@12"},
    {0, "http://[::g]/", "error HOST@10"},
    {0, "http://[::1.2.3]/", "error HOST@15"},
    {0, "http://[::1.2.3.256]/", "error HOST@18"},
    {0, "http://[1:2:3:4:5:6:7:1.2.3.4]/", "error HOST@22"},
    {0, "http://[fe80::1%25eth0]/", "absolute scheme=http host=fe80::1%25eth0(ipv6) path=/"},
    {0, "http://[fe80::1%25en%410]/", "absolute scheme=http host=fe80::1%25en%410(ipv6) path=/"},
    {0, "http://[fe80::1%eth0]/", "error HOST@16"},
    {0, "http://[fe80::1%25]/", "error HOST@18"},
    {0, "http://[fe80::1%25a b]/", "error HOST@19"},
    {0, "http://[fe80::1%25a%2]/", "error HOST@19"},
    {0, "http://[fe80:%25x]/", "error HOST@12"},
    {0, "http://[::1]x/", "error HOST@12"},
    {0, "http://[::1]:8x/", "error PORT@14"},
    {0, "http://[::1]:65536/", "error PORT@17"},
    {0, "http://[::1", "error HOST@11"},
    {0, "http://a[::1]/", "error HOST@8"},
    {0, "http://[v1.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa]/", "error HOST@71"}, /* 64 bytes */
    {0, "http://[v1.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa]/", "absolute scheme=http host=v1.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa(ipvfuture) path=/"},
    /* authority-form (CONNECT); without the flag it is told apart from a scheme */
    {C, "example.com:443", "authority host=example.com port=443"},
    {C, "1.2.3.4:80", "authority host=1.2.3.4(ipv4) port=80"},
    {C, "[::1]:443", "authority host=::1(ipv6) port=443"},
    {C, "h%41:1", "authority host=h%41 port=1"},
    {C, "a_b:65535", "authority host=a_b port=65535"},
    {C, "h:65536", "error PORT@6"},
    {C, "example.com", "error PORT@11"},
    {C, "example.com:", "error PORT@12"},
    {C, "[::1]", "error PORT@5"},
    {C, "[::1]:", "error PORT@6"},
    {C, "[::1]/", "error PORT@5"},
    {C, "h:443/", "error PORT@5"},
    {C, "h:443?", "error PORT@5"},
    {C, "u@h:443", "error HOST@1"},
    {C, "/", "error FORM@0"},
    {C, "http://h:443/", "error PORT@5"},
    {C, ":443", "error FORM@0"},
    {C, "h h:1", "error HOST@1"},
    {0, "example.com:443", "authority host=example.com port=443"},
    {0, "localhost:8080", "authority host=localhost port=8080"},
    {0, "127.0.0.1:8080", "authority host=127.0.0.1(ipv4) port=8080"},
    {0, "a_b:80", "authority host=a_b port=80"},
    {0, "a_b:", "error PORT@4"},
    {0, "a_b:x", "error PORT@4"},
    {0, "[::1]:80", "authority host=::1(ipv6) port=80"},
    {0, "[::1]:80/", "error PORT@8"},
    {0, "[::1]", "error PORT@5"},
    {0, "[v1.x]:1", "authority host=v1.x(ipvfuture) port=1"},
};

/* the expected string for a result */
static void render(t_buf *b, const simdhttp_target *t, simdhttp_target_error rc, const char *in)
{
    static const char *const host_types[] = {"", "", "(ipv4)", "(ipv6)", "(ipvfuture)"};
    static const int order[] = {SIMDHTTP_URL_SCHEME, SIMDHTTP_URL_USERINFO, SIMDHTTP_URL_HOST,
                                SIMDHTTP_URL_PORT, SIMDHTTP_URL_PATH, SIMDHTTP_URL_QUERY,
                                SIMDHTTP_URL_FRAGMENT};
    static const char *const names[] = {"scheme", "host", "port", "path", "query", "fragment", "userinfo"};
    if (rc) {
        t_buf_printf(b, "error %s@%u", simdhttp_target_error_name(rc), t->error_offset);
        return;
    }
    t_buf_printf(b, "%s", simdhttp_target_form_name(t->form));
    for (int i = 0; i < SIMDHTTP_URL_PARTS; i++) {
        int p = order[i];
        if (!(t->parts & (1u << p))) continue;
        t_buf_printf(b, " %s=", names[p]);
        t_buf_put(b, in + t->part[p].off, t->part[p].len);
        if (p == SIMDHTTP_URL_HOST) t_buf_printf(b, "%s", host_types[t->host_type]);
    }
}

/* Checks that hold for every success: parts lie inside the input, the port value is the
 * port's digits, the host type is known exactly when there is a host. */
static int consistent(const simdhttp_target *t, size_t len, char *why, size_t cap)
{
    for (int p = 0; p < SIMDHTTP_URL_PARTS; p++)
        if ((t->parts & (1u << p)) && (uint64_t)t->part[p].off + t->part[p].len > len)
            return snprintf(why, cap, "part %d out of bounds", p), 0;
    int has_host = (t->parts >> SIMDHTTP_URL_HOST) & 1;
    if (has_host != (t->host_type != SIMDHTTP_HOST_NONE))
        return snprintf(why, cap, "host type %d with host bit %d", t->host_type, has_host), 0;
    return 1;
}

static unsigned port_value(const simdhttp_target *t, const char *in)
{
    unsigned v = 0;
    if (!(t->parts & (1u << SIMDHTTP_URL_PORT))) return 0;
    for (uint32_t i = 0; i < t->part[SIMDHTTP_URL_PORT].len; i++)
        v = v * 10 + (unsigned)(in[t->part[SIMDHTTP_URL_PORT].off + i] - '0');
    return v;
}

static char *one(const char *in, size_t len, unsigned flags, size_t split, int bytewise)
{
    simdhttp_target t;
    simdhttp_target_error rc;
    if (bytewise) {
        simdhttp_target_init(&t, flags);
        for (size_t i = 0; i < len && !simdhttp_target_feed(&t, in + i, 1); i++)
            ;
        rc = t.error ? t.error : simdhttp_target_finish(&t);
    } else if (split) {
        simdhttp_target_init(&t, flags);
        rc = simdhttp_target_feed(&t, in, split);
        if (!rc) rc = simdhttp_target_feed(&t, in + split, len - split);
        if (!rc) rc = simdhttp_target_finish(&t);
    } else {
        rc = simdhttp_target_parse(&t, in, len, flags);
    }
    t_buf b = {0};
    render(&b, &t, rc, in);
    char why[100];
    if (rc == SIMDHTTP_TARGET_OK && !consistent(&t, len, why, sizeof why)) t_buf_printf(&b, " INCONSISTENT %s", why);
    if (rc == SIMDHTTP_TARGET_OK && t.port != port_value(&t, in)) t_buf_printf(&b, " PORT-VALUE %u", t.port);
    if (rc && (t.form || t.error != rc)) t_buf_printf(&b, " STALE form=%d error=%d", t.form, t.error);
    return b.s;
}

static uint8_t *page_lo, *page_hi; /* first byte after a guard page; first byte of a guard page */

static void run_case(const struct tcase *c)
{
    size_t len = strlen(c->in);
    char name[200];
    snprintf(name, sizeof name, "target \"%s\" flags %u", c->in, c->flags);
    char *got = one(c->in, len, c->flags, 0, 0);
    t_check(strcmp(got, c->want) == 0, name, "got \"%s\", want \"%s\"", got, c->want);
    int same = 1;
    char *diff = NULL;
    for (size_t s = 1; s < len && same; s++) {
        char *g = one(c->in, len, c->flags, s, 0);
        if (strcmp(g, got)) same = 0, diff = g;
        else free(g);
    }
    if (same) {
        char *g = one(c->in, len, c->flags, 0, 1);
        if (strcmp(g, got)) same = 0, diff = g;
        else free(g);
    }
    /* at the end of the mapping (reads past it fault), then at its start (reads before it) */
    for (int side = 0; side < 2 && same; side++) {
        char *at = side ? (char *)page_lo : (char *)page_hi - len;
        memcpy(at, c->in, len);
        char *g = one(at, len, c->flags, 0, 0);
        if (strcmp(g, got)) same = 0, diff = g;
        else free(g);
    }
    t_check(same, name, "split, bytewise or guard-page run differs: \"%s\" vs \"%s\"", diff ? diff : "", got);
    free(diff);
    free(got);
}

static void methods(void)
{
    static const struct {
        simdhttp_method m;
        const char *in, *want;
    } m[] = {
        {SIMDHTTP_METHOD_GET, "/", "OK origin"},
        {SIMDHTTP_METHOD_GET, "http://h/", "OK absolute"},
        {SIMDHTTP_METHOD_GET, "h:443", "FORM@0 authority"},
        {SIMDHTTP_METHOD_GET, "*", "FORM@0 asterisk"},
        {SIMDHTTP_METHOD_OPTIONS, "*", "OK asterisk"},
        {SIMDHTTP_METHOD_OPTIONS, "/x", "OK origin"},
        {SIMDHTTP_METHOD_OPTIONS, "h:1", "FORM@0 authority"},
        {SIMDHTTP_METHOD_CONNECT, "h:443", "OK authority"},
        {SIMDHTTP_METHOD_CONNECT, "[::1]:443", "OK authority"},
        {SIMDHTTP_METHOD_CONNECT, "/path", "FORM@0 -"},
        {SIMDHTTP_METHOD_CONNECT, "*", "PORT@1 -"},
        {SIMDHTTP_METHOD_CONNECT, "http://h:443/", "PORT@5 -"},
        {SIMDHTTP_METHOD_OTHER, "*", "FORM@0 asterisk"},
        {SIMDHTTP_METHOD_OTHER, "/a", "OK origin"},
        {SIMDHTTP_METHOD_POST, "/a b", "PATH@2 -"},
    };
    for (size_t i = 0; i < sizeof m / sizeof *m; i++) {
        simdhttp_target t;
        simdhttp_target_error rc = simdhttp_target_parse_for(&t, m[i].m, m[i].in, strlen(m[i].in));
        char got[80];
        if (rc)
            snprintf(got, sizeof got, "%s@%u %s", simdhttp_target_error_name(rc), t.error_offset,
                     t.form ? simdhttp_target_form_name(t.form) : "-");
        else
            snprintf(got, sizeof got, "OK %s", simdhttp_target_form_name(t.form));
        char name[120];
        snprintf(name, sizeof name, "parse_for %s \"%s\"",
                 simdhttp_method_name(m[i].m) ? simdhttp_method_name(m[i].m) : "OTHER", m[i].in);
        t_check(strcmp(got, m[i].want) == 0, name, "got \"%s\", want \"%s\"", got, m[i].want);
    }
    t_check(simdhttp_target_form_fits(SIMDHTTP_METHOD_CONNECT, SIMDHTTP_TARGET_AUTHORITY) &&
                !simdhttp_target_form_fits(SIMDHTTP_METHOD_CONNECT, SIMDHTTP_TARGET_ORIGIN) &&
                !simdhttp_target_form_fits(SIMDHTTP_METHOD_GET, 0),
            "form_fits", "wrong");
}

/* The length limit, 2^32 - 2 bytes (32-bit offsets, 2^32 - 1 reserved): a 4 GiB mapping that
 * costs no memory (only its first page is touched: the zero byte after "/a" stops the parse),
 * so that the limit itself is accepted (the parse then fails on the bytes, not the length) and
 * one byte more is TOO_LONG at the first byte past the limit, in one piece or after another. */
static void too_long(void)
{
    if (sizeof(size_t) < 8) return;
    size_t big = (size_t)1 << 32;
    char *m = mmap(NULL, big, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
        printf("note: no 4 GiB mapping here: the target length limit is not tested\n");
        return;
    }
    memcpy(m, "/a", 2);
    simdhttp_target t;
    simdhttp_target_error e = simdhttp_target_parse(&t, m, 0xfffffffeu, 0);
    t_check(e == SIMDHTTP_TARGET_E_PATH && t.error_offset == 2, "too long: 2^32 - 2 bytes are not", "%s@%u",
            simdhttp_target_error_name(e), t.error_offset);
    e = simdhttp_target_parse(&t, m, 0xffffffffu, 0);
    t_check(e == SIMDHTTP_TARGET_E_TOO_LONG && t.error_offset == 0xfffffffeu, "too long: 2^32 - 1 bytes",
            "%s@%u", simdhttp_target_error_name(e), t.error_offset);
    simdhttp_target_init(&t, 0);
    simdhttp_target_feed(&t, "/x", 2);
    e = simdhttp_target_feed(&t, m, 0xfffffffcu);
    t_check(e == SIMDHTTP_TARGET_E_PATH && t.error_offset == 4, "too long in pieces: 2^32 - 2 bytes are not",
            "%s@%u", simdhttp_target_error_name(e), t.error_offset);
    simdhttp_target_init(&t, 0);
    simdhttp_target_feed(&t, "/x", 2);
    e = simdhttp_target_feed(&t, m, 0xfffffffdu);
    t_check(e == SIMDHTTP_TARGET_E_TOO_LONG && t.error_offset == 0xfffffffeu, "too long in pieces: 2^32 - 1 bytes",
            "%s@%u", simdhttp_target_error_name(e), t.error_offset);
    munmap(m, big);
}

static void misc(void)
{
    simdhttp_target t;
    /* an error sticks: later pieces are not looked at */
    simdhttp_target_init(&t, 0);
    int a = simdhttp_target_feed(&t, "/a b", 4), b = simdhttp_target_feed(&t, "/ok", 3),
        c = simdhttp_target_finish(&t);
    t_check(a == SIMDHTTP_TARGET_E_PATH && b == a && c == a && t.error_offset == 2, "sticky error",
            "%d %d %d off %u", a, b, c, t.error_offset);
    /* re-init clears everything */
    simdhttp_target_parse(&t, "http://u@[::1]:9/p?q", 20, 0);
    simdhttp_target_parse(&t, "/", 1, 0);
    t_check(t.parts == 1u << SIMDHTTP_URL_PATH && t.port == 0 && t.host_type == 0, "re-init", "parts %x", t.parts);
    t_check(strcmp(simdhttp_target_error_name((simdhttp_target_error)99), "UNKNOWN") == 0 &&
                simdhttp_target_form_name(9) == NULL && simdhttp_target_form_name(0) == NULL,
            "names out of range", "wrong");
    /* NULL is no bytes with len 0 (not NULL + 0, which UBSan reports), a named error with more */
    t_check(simdhttp_target_parse(&t, NULL, 0, 0) == SIMDHTTP_TARGET_E_EMPTY && t.error_offset == 0, "NULL, 0",
            "%s", simdhttp_target_error_name(t.error));
    simdhttp_target_init(&t, 0);
    a = simdhttp_target_feed(&t, "/a", 2), b = simdhttp_target_feed(&t, NULL, 0), c = simdhttp_target_finish(&t);
    t_check(a == 0 && b == 0 && c == 0 && t.part[SIMDHTTP_URL_PATH].len == 2, "feed NULL, 0", "%d %d %d", a, b, c);
    simdhttp_target_init(&t, 0);
    a = simdhttp_target_feed(&t, "/a", 2), b = simdhttp_target_feed(&t, NULL, 3), c = simdhttp_target_finish(&t);
    t_check(a == 0 && b == SIMDHTTP_TARGET_E_INVALID_ARGUMENT && c == b && t.error_offset == 2 && t.form == 0 &&
                strcmp(simdhttp_target_error_name(t.error), "INVALID_ARGUMENT") == 0,
            "feed NULL, 3", "%d %d %d off %u", a, b, c, t.error_offset);
    t_check(simdhttp_target_parse(&t, NULL, 5, 0) == SIMDHTTP_TARGET_E_INVALID_ARGUMENT && t.error_offset == 0,
            "parse NULL, 5", "%s", simdhttp_target_error_name(t.error));
    /* after a successful finish the result is final: finish again is the same result; feed
     * (even of no bytes) is a sticky FINISHED error, not more target */
    simdhttp_target_init(&t, 0);
    a = simdhttp_target_feed(&t, "/a", 2), b = simdhttp_target_finish(&t), c = simdhttp_target_finish(&t);
    t_check(a == 0 && b == 0 && c == 0 && t.form == SIMDHTTP_TARGET_ORIGIN && t.part[SIMDHTTP_URL_PATH].len == 2,
            "finish twice", "%d %d %d", a, b, c);
    a = simdhttp_target_feed(&t, "?q", 2), b = simdhttp_target_finish(&t);
    t_check(a == SIMDHTTP_TARGET_E_FINISHED && b == a && (int)t.error == a && t.error_offset == 2 && t.form == 0 &&
                !(t.parts & (1u << SIMDHTTP_URL_QUERY)) && strcmp(simdhttp_target_error_name(t.error), "FINISHED") == 0,
            "feed after finish", "%d %d off %u parts %x", a, b, t.error_offset, t.parts);
    simdhttp_target_init(&t, 0);
    simdhttp_target_feed(&t, "/", 1), simdhttp_target_finish(&t);
    t_check(simdhttp_target_feed(&t, NULL, 0) == SIMDHTTP_TARGET_E_FINISHED, "empty feed after finish", "%s",
            simdhttp_target_error_name(t.error));
    /* parse_for's form error sticks too, t->form saying what it was */
    a = simdhttp_target_parse_for(&t, SIMDHTTP_METHOD_GET, "*", 1);
    b = simdhttp_target_finish(&t), c = simdhttp_target_feed(&t, "x", 1);
    t_check(a == SIMDHTTP_TARGET_E_FORM && b == a && c == a && t.form == SIMDHTTP_TARGET_ASTERISK, "parse_for sticks",
            "%d %d %d form %d", a, b, c, t.form);
    /* init sets every member it must (it assigns them one by one, no memset): a struct full of
     * junk parses as a zeroed one does, public members and all seven parts alike */
    static const char *const junk_in[] = {"http://u@[::1]:9/p?q#f", "/a?b", "h:1", "*", "/a b", "http://h:99999/"};
    int junk_bad = 0;
    for (size_t i = 0; i < sizeof junk_in / sizeof *junk_in; i++) {
        simdhttp_target z, j;
        memset(&z, 0, sizeof z), memset(&j, 0xa5, sizeof j);
        unsigned fl = i == 2 ? SIMDHTTP_TARGET_CONNECT : SIMDHTTP_TARGET_FRAGMENT;
        int rz = simdhttp_target_parse(&z, junk_in[i], strlen(junk_in[i]), fl);
        int rj = simdhttp_target_parse(&j, junk_in[i], strlen(junk_in[i]), fl);
        junk_bad += rz != rj || z.form != j.form || z.host_type != j.host_type || z.port != j.port ||
                    z.parts != j.parts || memcmp(z.part, j.part, sizeof z.part) != 0 || z.error != j.error ||
                    z.error_offset != j.error_offset;
    }
    t_check(junk_bad == 0, "init over junk", "%d of %zu differ", junk_bad, sizeof junk_in / sizeof *junk_in);
    /* a NUL byte is just a bad byte */
    t_check(simdhttp_target_parse(&t, "/a\0b", 4, 0) == SIMDHTTP_TARGET_E_PATH && t.error_offset == 2, "NUL", "%u",
            t.error_offset);
}

int main(void)
{
    long page = sysconf(_SC_PAGESIZE);
    uint8_t *m = mmap(NULL, (size_t)page * 3, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED || mprotect(m, (size_t)page, PROT_NONE) || mprotect(m + 2 * page, (size_t)page, PROT_NONE)) {
        printf("mmap failed\n0 passed, 1 failed\n");
        return 1;
    }
    page_lo = m + page;
    page_hi = m + 2 * page;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) run_case(&cases[i]);
    methods();
    misc();
    too_long();
    return t_summary();
}
