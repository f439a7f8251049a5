/* SPDX-License-Identifier: MIT */
/* The request-target splitter (include/simdhttp.h section 7): one state machine, fed a byte at
 * a time, so a target split across on_url spans gives the same parts and the same error offset
 * as one buffer. It records offsets only: the caller's bytes are never copied, except the at
 * most 63 bytes of an IP literal (validated at its ']', since "::" makes IPv6 need a look
 * back). Grammar: RFC 3986 section 3 (absolute-URI, authority, path-abempty, query) and
 * RFC 9112 section 3.2 (the four forms). */
#include <string.h>

#include "simdhttp.h"

#define NONE UINT32_MAX

/* Character sets of RFC 3986, one bit each (bytes >= 0x80 are in none). */
enum {
    K_SCHEME = 1,  /* ALPHA DIGIT "+" "-" "." */
    K_REG = 2,     /* unreserved sub-delims (reg-name, without pct-encoded) */
    K_USER = 4,    /* K_REG ":" (userinfo; IPvFuture's tail) */
    K_PCHAR = 8,   /* K_USER "@" */
    K_QUERY = 16,  /* K_PCHAR "/" "?" (query, fragment) */
    K_HEX = 32,
    K_DIGIT = 64,
    K_ALPHA = 128,
    K_PATH = 256   /* K_PCHAR "/" (a path's bytes that change no state) */
};
/* generated from the ABNF sets above; 256 entries, so a byte >= 0x80 needs no test */
static const uint16_t cls[256] = {
    0x000, 0x000, 0x000, 0x000, 0x000, 0x000, 0x000, 0x000, 0x000, 0x000, 0x000, 0x000, 0x000, 0x000, 0x000, 0x000,
    0x000, 0x000, 0x000, 0x000, 0x000, 0x000, 0x000, 0x000, 0x000, 0x000, 0x000, 0x000, 0x000, 0x000, 0x000, 0x000,
    0x000, 0x11e, 0x000, 0x000, 0x11e, 0x000, 0x11e, 0x11e, 0x11e, 0x11e, 0x11e, 0x11f, 0x11e, 0x11f, 0x11f, 0x110,
    0x17f, 0x17f, 0x17f, 0x17f, 0x17f, 0x17f, 0x17f, 0x17f, 0x17f, 0x17f, 0x11c, 0x11e, 0x000, 0x11e, 0x000, 0x010,
    0x118, 0x1bf, 0x1bf, 0x1bf, 0x1bf, 0x1bf, 0x1bf, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f,
    0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x000, 0x000, 0x000, 0x000, 0x11e,
    0x000, 0x1bf, 0x1bf, 0x1bf, 0x1bf, 0x1bf, 0x1bf, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f,
    0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x19f, 0x000, 0x000, 0x000, 0x11e, 0x000,
};
static inline unsigned cl(unsigned char c) { return cls[c]; }

/* The end of the run of bytes with class bit k from q: eight bytes a step with their classes
 * ANDed (one test per eight bytes: a target's path and query are most of its bytes, and a
 * byte-at-a-time loop cost about 7 instructions a byte), then byte by byte. */
static inline const unsigned char *run(const unsigned char *q, const unsigned char *end, unsigned k)
{
    while (end - q >= 8 &&
           (cls[q[0]] & cls[q[1]] & cls[q[2]] & cls[q[3]] & cls[q[4]] & cls[q[5]] & cls[q[6]] & cls[q[7]] & k))
        q += 8;
    while (q < end && (cls[*q] & k)) q++;
    return q;
}

enum {
    ST_START,
    ST_STAR,            /* after "*" */
    ST_PREFIX,          /* before the first ':': a scheme, a host, or both (_alive says) */
    ST_PORT_OR_PATH,    /* "x:" then DIGITs: an authority-form port, or a rootless path */
    ST_AFTER_SCHEME,    /* right after "scheme:" */
    ST_SCHEME_SLASH,    /* after "scheme:/" */
    ST_AUTH,            /* authority of an absolute URI: [userinfo "@"] host [":" port] */
    ST_IPLIT,           /* inside "[...]" */
    ST_AFTER_IPLIT,
    ST_PORT,            /* port DIGITs after a known host */
    ST_PATH,
    ST_QUERY,
    ST_FRAGMENT,
    ST_ERROR,
    ST_DONE             /* finish() succeeded: the result is final */
};

/* _alive bits */
enum {
    A_SCHEME = 1, /* ST_PREFIX: the bytes so far are a valid scheme */
    A_HOST = 2,   /* ST_PREFIX: ... a valid host */
    A_HTTP = 4,   /* the scheme is "http" or "https" (any case) */
    A_AT = 8,     /* ST_AUTH: after the "@" */
    A_AUTHFORM = 16 /* the authority is the whole target (authority-form) */
};

static simdhttp_target_error fail(simdhttp_target *t, simdhttp_target_error e, uint32_t off)
{
    t->error = e;
    t->error_offset = off;
    t->form = 0;
    t->_state = ST_ERROR;
    return e;
}

static void set_part(simdhttp_target *t, int part, uint32_t off, uint32_t end)
{
    t->parts |= 1u << part;
    t->part[part].off = off;
    t->part[part].len = end - off;
}

/* dotted decimal, run alongside a host: _v4 counts dots (0xff: not IPv4) */
static void v4_reset(simdhttp_target *t) { t->_v4 = 0, t->_v4oct = 0, t->_v4val = 0; }
static void v4_step(simdhttp_target *t, unsigned char c)
{
    if (t->_v4 == 0xff) return;
    if (c >= '0' && c <= '9') {
        if (t->_v4oct && t->_v4val == 0) t->_v4 = 0xff; /* dec-octet has no leading zero */
        t->_v4val = (uint16_t)(t->_v4val * 10 + (c - '0'));
        if (t->_v4val > 255) t->_v4 = 0xff;
        t->_v4oct++;
    } else if (c == '.' && t->_v4oct && t->_v4 < 3) {
        t->_v4++, t->_v4oct = 0, t->_v4val = 0;
    } else {
        t->_v4 = 0xff;
    }
}
static int v4_done(const simdhttp_target *t) { return t->_v4 == 3 && t->_v4oct; }

/* One port DIGIT. @return 0 if the port is still at most 65535. */
static int port_digit(simdhttp_target *t, unsigned char c)
{
    t->_portv = t->_portv * 10 + (uint32_t)(c - '0');
    if (t->_digits < 255) t->_digits++;
    return t->_portv <= 65535;
}

/* IPv4address (RFC 3986 3.2.2). @return -1, or the index of the first byte that fails. */
static int check_v4(const char *s, int n)
{
    simdhttp_target v;
    v4_reset(&v);
    for (int i = 0; i < n; i++) {
        v4_step(&v, (unsigned char)s[i]);
        if (v._v4 == 0xff) return i;
    }
    return v4_done(&v) ? -1 : n;
}

/* IPv6address (RFC 3986 3.2.2): 8 h16 groups, or fewer around one "::", the last two may be
 * an IPv4address; then optionally "%25" ZoneID, ZoneID = 1*( unreserved / pct-encoded )
 * (RFC 6874). @return -1, or the index of the first byte that fails (n: too short). */
static int check_v6(const char *s, int n)
{
    for (int z = 0; z < n; z++) {
        if (s[z] != '%') continue;
        if (z + 3 >= n || s[z + 1] != '2' || s[z + 2] != '5') return z + 3 >= n ? n : z + 1;
        for (int i = z + 3; i < n; i++) {
            unsigned k = cl((unsigned char)s[i]);
            if (s[i] == '%') {
                if (i + 2 >= n || !(cl((unsigned char)s[i + 1]) & K_HEX) || !(cl((unsigned char)s[i + 2]) & K_HEX))
                    return i;
                i += 2;
            } else if (!(k & (K_ALPHA | K_DIGIT)) && s[i] != '-' && s[i] != '.' && s[i] != '_' && s[i] != '~') {
                return i;
            }
        }
        int r = check_v6(s, z);
        return r == z ? z : r; /* (the address part alone: a short one fails at the '%') */
    }
    int i = 0, groups = 0, dcolon = 0;
    if (n >= 2 && s[0] == ':' && s[1] == ':') {
        dcolon = 1, i = 2;
        if (i == n) return -1;
    }
    for (;;) {
        int j = i;
        while (j < n && (cl((unsigned char)s[j]) & K_HEX)) j++;
        if (j < n && s[j] == '.') { /* ls32 as an IPv4address: the end */
            int r = check_v4(s + i, n - i);
            if (r >= 0) return i + r;
            if (groups + 2 > (dcolon ? 7 : 8)) return i;
            groups += 2;
            break;
        }
        if (j == i) return i;
        if (j - i > 4) return i + 4;
        if (++groups > 8 || (dcolon && groups > 7)) return i;
        i = j;
        if (i == n) break;
        if (s[i] != ':') return i;
        if (++i == n) return i - 1; /* a trailing single ':' */
        if (s[i] == ':') {
            if (dcolon) return i;
            dcolon = 1;
            if (++i == n) break;
        }
    }
    return dcolon || groups == 8 ? -1 : n;
}

/* IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ) */
static int check_vfuture(const char *s, int n)
{
    int i = 1;
    while (i < n && (cl((unsigned char)s[i]) & K_HEX)) i++;
    if (i == 1 || i == n || s[i] != '.') return i;
    if (++i == n) return i;
    for (; i < n; i++)
        if (!(cl((unsigned char)s[i]) & K_USER)) return i;
    return -1;
}

/* The end of an absolute URI's authority at offset `end` (ST_AUTH): host and port. */
static simdhttp_target_error end_auth(simdhttp_target *t, uint32_t end)
{
    if (t->_bad != NONE) return fail(t, (simdhttp_target_error)t->_badpart, t->_bad);
    uint32_t host_end = t->_colon == NONE ? end : t->_colon;
    set_part(t, SIMDHTTP_URL_HOST, t->_mark, host_end);
    t->host_type = v4_done(t) ? SIMDHTTP_HOST_IPV4 : SIMDHTTP_HOST_REG_NAME;
    if (t->_colon != NONE) {
        set_part(t, SIMDHTTP_URL_PORT, t->_colon + 1, end);
        t->port = (uint16_t)t->_portv;
    }
    if ((t->_alive & A_HTTP) && host_end == t->_mark) return fail(t, SIMDHTTP_TARGET_E_HOST, t->_mark);
    return SIMDHTTP_TARGET_OK;
}

/* After the authority of an absolute URI: '/', '?' or '#' at off. */
static simdhttp_target_error after_auth(simdhttp_target *t, unsigned char c, uint32_t off)
{
    t->_mark = c == '/' ? off : off + 1;
    if (c == '/') {
        t->_state = ST_PATH;
    } else if (c == '?') {
        t->parts |= 1u << SIMDHTTP_URL_QUERY;
        t->_state = ST_QUERY;
    } else {
        if (!(t->_flags & SIMDHTTP_TARGET_FRAGMENT)) return fail(t, SIMDHTTP_TARGET_E_FRAGMENT, off);
        t->parts |= 1u << SIMDHTTP_URL_FRAGMENT;
        t->_state = ST_FRAGMENT;
    }
    return SIMDHTTP_TARGET_OK;
}

static void start_auth(simdhttp_target *t, uint32_t mark)
{
    t->_mark = mark;
    t->_colon = t->_bad = NONE;
    t->_portv = 0, t->_digits = 0;
    v4_reset(t);
}

/* "scheme:" ended at the ':' at offset colon */
static void end_scheme(simdhttp_target *t, uint32_t colon)
{
    set_part(t, SIMDHTTP_URL_SCHEME, 0, colon);
    if (t->_scheme == 4 || t->_scheme == 5) t->_alive |= A_HTTP;
    t->_form = SIMDHTTP_TARGET_ABSOLUTE;
}

/* SIMDHTTP_TARGET_LENIENT: a byte of a path, query or fragment that RFC 3986 leaves out and
 * http-parser takes (its parts end at the same '?' and '#' either way) */
static inline int lenient_byte(const simdhttp_target *t, unsigned char c)
{
    return (t->_flags & SIMDHTTP_TARGET_LENIENT) && c > 0x20 && c != 0x7f;
}

/* ... and a '%' there that starts no pct-encoded: only a byte (not in the authority) */
static inline int lenient_pct(const simdhttp_target *t)
{
    return (t->_flags & SIMDHTTP_TARGET_LENIENT) && t->_state >= ST_PATH;
}

/* step's path, query and fragment states: their bytes, the '?' or '#' that ends one */
static inline __attribute__((always_inline)) simdhttp_target_error step_tail(simdhttp_target *t, unsigned char c, unsigned k, uint32_t off)
{
    if (t->_state == ST_PATH) {
        if ((k & K_PCHAR) || c == '/') return SIMDHTTP_TARGET_OK;
        if (c == '?' || c == '#') {
            if (off > t->_mark) set_part(t, SIMDHTTP_URL_PATH, t->_mark, off);
            return after_auth(t, c, off);
        }
    } else {
        if (k & K_QUERY) return SIMDHTTP_TARGET_OK;
        if (c == '#' && t->_state == ST_QUERY) {
            set_part(t, SIMDHTTP_URL_QUERY, t->_mark, off);
            return after_auth(t, c, off);
        }
    }
    if (c == '%') t->_pct = 2;
    else if (!lenient_byte(t, c))
        return fail(t, t->_state == ST_PATH ? SIMDHTTP_TARGET_E_PATH
                       : t->_state == ST_QUERY ? SIMDHTTP_TARGET_E_QUERY : SIMDHTTP_TARGET_E_FRAGMENT, off);
    return SIMDHTTP_TARGET_OK;
}

/* step's states before the path, one function each (ST_START .. ST_PORT). A byte that moves the
 * target into another state and is judged there is passed on by a call to that state's
 * function (step_tail for the path, query and fragment). The three called from more than one
 * place are always_inline: out of line, a parse cost 5 instructions more than the one switch
 * these came from; inlined, 41 fewer (callgrind, eight targets of the four forms). */

/* before the first ':': a scheme, a host, or both (_alive says which are still possible) */
static inline __attribute__((always_inline)) simdhttp_target_error step_prefix(simdhttp_target *t, unsigned char c, unsigned k, uint32_t off)
{
    if (c == ':') {
        if (t->_alive & A_HOST) set_part(t, SIMDHTTP_URL_HOST, 0, off);
        t->_colon = off;
        t->_portv = 0, t->_digits = 0;
        if (!(t->_alive & A_SCHEME)) { /* a host: authority-form */
            t->_form = SIMDHTTP_TARGET_AUTHORITY;
            t->_alive = A_AUTHFORM;
            t->host_type = v4_done(t) ? SIMDHTTP_HOST_IPV4 : SIMDHTTP_HOST_REG_NAME;
            t->_mark = off + 1;
            t->parts |= 1u << SIMDHTTP_URL_PORT;
            t->_state = ST_PORT;
        } else if (t->_alive & A_HOST) {
            t->_state = ST_PORT_OR_PATH;
        } else {
            end_scheme(t, off);
            t->_state = ST_AFTER_SCHEME;
        }
        return SIMDHTTP_TARGET_OK;
    }
    unsigned was = t->_alive;
    if (!(k & K_SCHEME)) t->_alive &= (uint8_t)~A_SCHEME;
    else if (t->_scheme != 0xff && off < 5 && (c | 0x20) == "https"[off]) t->_scheme++;
    else t->_scheme = 0xff;
    if (!(k & K_REG) && c != '%') t->_alive &= (uint8_t)~A_HOST;
    if (c == '%') t->_pct = 2;
    v4_step(t, c);
    if (!(t->_alive & (A_SCHEME | A_HOST)))
        return fail(t, was & A_SCHEME ? SIMDHTTP_TARGET_E_SCHEME : SIMDHTTP_TARGET_E_HOST, off);
    return SIMDHTTP_TARGET_OK;
}

/* the target's first byte: its form */
static simdhttp_target_error step_start(simdhttp_target *t, unsigned char c, unsigned k, uint32_t off)
{
    if (c == '/' && !(t->_flags & SIMDHTTP_TARGET_CONNECT)) {
        t->_form = SIMDHTTP_TARGET_ORIGIN;
        t->_mark = off;
        t->_state = ST_PATH;
    } else if (c == '*' && !(t->_flags & SIMDHTTP_TARGET_CONNECT)) {
        t->_form = SIMDHTTP_TARGET_ASTERISK;
        t->_state = ST_STAR;
    } else if (c == '[') {
        t->_form = SIMDHTTP_TARGET_AUTHORITY;
        t->_alive = A_AUTHFORM;
        t->_mark = off + 1;
        t->_state = ST_IPLIT;
    } else if ((k & K_REG) || c == '%') {
        t->_alive = A_HOST;
        if ((k & K_ALPHA) && !(t->_flags & SIMDHTTP_TARGET_CONNECT)) t->_alive |= A_SCHEME;
        t->_state = ST_PREFIX;
        return step_prefix(t, c, k, off);
    } else {
        return fail(t, SIMDHTTP_TARGET_E_FORM, off);
    }
    return SIMDHTTP_TARGET_OK;
}

/* right after "scheme:" */
static inline __attribute__((always_inline)) simdhttp_target_error step_after_scheme(simdhttp_target *t, unsigned char c, unsigned k, uint32_t off)
{
    if ((t->_alive & A_HTTP) && c != '/') return fail(t, SIMDHTTP_TARGET_E_HOST, off);
    if (c == '/') {
        t->_mark = off;
        t->_state = ST_SCHEME_SLASH;
        return SIMDHTTP_TARGET_OK;
    }
    if (c == '?' || c == '#') return after_auth(t, c, off);
    t->_mark = off;
    t->_state = ST_PATH;
    return step_tail(t, c, k, off);
}

/* "x:" then DIGITs: an authority-form port, or a rootless path */
static simdhttp_target_error step_port_or_path(simdhttp_target *t, unsigned char c, unsigned k, uint32_t off)
{
    if ((k & K_DIGIT) && port_digit(t, c)) return SIMDHTTP_TARGET_OK;
    /* not a port: "scheme:" and a path */
    t->parts &= ~(1u << SIMDHTTP_URL_HOST);
    end_scheme(t, t->_colon);
    if (t->_digits == 0) {
        t->_state = ST_AFTER_SCHEME;
        return step_after_scheme(t, c, k, off);
    }
    if (t->_alive & A_HTTP) return fail(t, SIMDHTTP_TARGET_E_HOST, t->_colon + 1);
    t->_mark = t->_colon + 1;
    t->_state = ST_PATH;
    return step_tail(t, c, k, off);
}

/* after "scheme:/" */
static simdhttp_target_error step_scheme_slash(simdhttp_target *t, unsigned char c, unsigned k, uint32_t off)
{
    if (c == '/') {
        start_auth(t, off + 1);
        t->_state = ST_AUTH;
        return SIMDHTTP_TARGET_OK;
    }
    if (t->_alive & A_HTTP) return fail(t, SIMDHTTP_TARGET_E_HOST, off);
    t->_state = ST_PATH;
    return step_tail(t, c, k, off);
}

/* the authority of an absolute URI: [userinfo "@"] host [":" port] */
static simdhttp_target_error step_auth(simdhttp_target *t, unsigned char c, unsigned k, uint32_t off)
{
    if (c == '/' || c == '?' || c == '#') {
        if (end_auth(t, off)) return t->error;
        return after_auth(t, c, off);
    }
    if (c == '@') {
        if (t->_alive & A_AT) return fail(t, SIMDHTTP_TARGET_E_HOST, off);
        set_part(t, SIMDHTTP_URL_USERINFO, t->_mark, off);
        t->_alive |= A_AT;
        start_auth(t, off + 1);
        return SIMDHTTP_TARGET_OK;
    }
    if (c == '[' && off == t->_mark) {
        t->_mark = off + 1;
        t->_iplen = 0;
        t->_state = ST_IPLIT;
        return SIMDHTTP_TARGET_OK;
    }
    if (t->_colon == NONE) { /* host (or userinfo) */
        if (c == ':') {
            t->_colon = off;
        } else if ((k & K_REG) || c == '%') {
            if (c == '%') t->_pct = 2;
            v4_step(t, c);
        } else {
            return fail(t, SIMDHTTP_TARGET_E_HOST, off);
        }
        return SIMDHTTP_TARGET_OK;
    }
    /* port (or a password) */
    if ((k & K_DIGIT) && port_digit(t, c)) return SIMDHTTP_TARGET_OK;
    if (!(k & K_USER) && c != '%') return fail(t, SIMDHTTP_TARGET_E_PORT, off);
    if (c == '%') t->_pct = 2;
    if (t->_alive & A_AT) return fail(t, SIMDHTTP_TARGET_E_PORT, off);
    if (t->_bad == NONE) t->_bad = off, t->_badpart = SIMDHTTP_TARGET_E_PORT; /* unless an '@' follows */
    return SIMDHTTP_TARGET_OK;
}

/* inside "[...]": the bytes are kept, and judged at the ']' */
static simdhttp_target_error step_iplit(simdhttp_target *t, unsigned char c, uint32_t off)
{
    if (c == ']') {
        int n = t->_iplen, r = n && (t->_ip[0] | 0x20) == 'v' ? check_vfuture(t->_ip, n) : check_v6(t->_ip, n);
        if (r >= 0) return fail(t, SIMDHTTP_TARGET_E_HOST, t->_mark + (uint32_t)r);
        set_part(t, SIMDHTTP_URL_HOST, t->_mark, off);
        t->host_type = (t->_ip[0] | 0x20) == 'v' ? SIMDHTTP_HOST_IPVFUTURE : SIMDHTTP_HOST_IPV6;
        t->_state = ST_AFTER_IPLIT;
        return SIMDHTTP_TARGET_OK;
    }
    if (t->_iplen == sizeof t->_ip - 1) return fail(t, SIMDHTTP_TARGET_E_HOST, off);
    t->_ip[t->_iplen++] = (char)c;
    return SIMDHTTP_TARGET_OK;
}

static simdhttp_target_error step_after_iplit(simdhttp_target *t, unsigned char c, uint32_t off)
{
    if (c == ':') {
        t->_mark = off + 1;
        t->_portv = 0, t->_digits = 0;
        t->parts |= 1u << SIMDHTTP_URL_PORT;
        t->_state = ST_PORT;
        return SIMDHTTP_TARGET_OK;
    }
    if (t->_alive & A_AUTHFORM) return fail(t, SIMDHTTP_TARGET_E_PORT, off);
    if (c == '/' || c == '?' || c == '#') return after_auth(t, c, off);
    return fail(t, SIMDHTTP_TARGET_E_HOST, off);
}

/* port DIGITs after a known host */
static simdhttp_target_error step_port(simdhttp_target *t, unsigned char c, unsigned k, uint32_t off)
{
    if (k & K_DIGIT) return port_digit(t, c) ? SIMDHTTP_TARGET_OK : fail(t, SIMDHTTP_TARGET_E_PORT, off);
    if (!(t->_alive & A_AUTHFORM) && (c == '/' || c == '?' || c == '#')) {
        set_part(t, SIMDHTTP_URL_PORT, t->_mark, off);
        t->port = (uint16_t)t->_portv;
        return after_auth(t, c, off);
    }
    return fail(t, SIMDHTTP_TARGET_E_PORT, off);
}

/* One byte c at offset off, in the state the bytes before it left. */
static simdhttp_target_error step(simdhttp_target *t, unsigned char c, uint32_t off)
{
    unsigned k = cl(c);
    if (t->_pct) {
        if (k & K_HEX) {
            t->_pct--;
            return SIMDHTTP_TARGET_OK;
        }
        if (!lenient_pct(t)) return fail(t, SIMDHTTP_TARGET_E_PERCENT, off);
        t->_pct = 0; /* lenient: the '%' was only a byte; this one is judged as any other */
    }
    switch (t->_state) {
    case ST_START: return step_start(t, c, k, off);
    case ST_STAR: return fail(t, SIMDHTTP_TARGET_E_FORM, off);
    case ST_PREFIX: return step_prefix(t, c, k, off);
    case ST_PORT_OR_PATH: return step_port_or_path(t, c, k, off);
    case ST_AFTER_SCHEME: return step_after_scheme(t, c, k, off);
    case ST_SCHEME_SLASH: return step_scheme_slash(t, c, k, off);
    case ST_AUTH: return step_auth(t, c, k, off);
    case ST_IPLIT: return step_iplit(t, c, off);
    case ST_AFTER_IPLIT: return step_after_iplit(t, c, off);
    case ST_PORT: return step_port(t, c, k, off);
    case ST_PATH:
    case ST_QUERY:
    case ST_FRAGMENT: return step_tail(t, c, k, off);
    default: return t->error;
    }
}

/* Every member but _ip, assigned one by one (_ip is read only up to _iplen, set to 0 here):
 * gcc makes a memset of the struct, or of all but _ip, a `rep stos`, whose start-up cost the
 * http-parser layer paid twice per request (its init and its method callback start a target
 * here); these stores, and the 56-byte memset of part[], it merges into a few wide ones (17
 * instructions; the loop over part[] it had kept made 44). */
void simdhttp_target_init(simdhttp_target *t, unsigned flags)
{
    t->form = t->host_type = 0;
    t->port = 0;
    t->parts = 0;
    memset(t->part, 0, sizeof t->part);
    t->error = SIMDHTTP_TARGET_OK;
    t->error_offset = 0;
    t->_off = t->_mark = t->_portv = 0;
    t->_colon = t->_bad = NONE;
    t->_state = ST_START;
    t->_flags = (uint8_t)flags;
    t->_alive = t->_pct = t->_badpart = t->_scheme = t->_v4 = t->_v4oct = t->_digits = t->_iplen = t->_form = 0;
    t->_v4val = 0;
}

_Static_assert(sizeof(simdhttp_target) <= offsetof(simdhttp_target, _ip) + sizeof ((simdhttp_target *)0)->_ip + 3 &&
                   offsetof(simdhttp_target, _ip) == 8 + SIMDHTTP_URL_PARTS * 8 + 2 * 4 + 5 * 4 + 11 + 1 + 2,
               "simdhttp_target_init assigns every member before _ip (a new one: assign it there)");

simdhttp_target_error simdhttp_target_feed(simdhttp_target *t, const char *piece, size_t len)
{
    if (t->_state >= ST_ERROR) {
        /* a piece after finish() would extend a target already reported whole */
        return t->_state == ST_ERROR ? t->error : fail(t, SIMDHTTP_TARGET_E_FINISHED, t->_off);
    }
    /* NULL is no bytes (a response head's target is NULL, 0); NULL + 0 is undefined in C */
    if (!piece) return len ? fail(t, SIMDHTTP_TARGET_E_INVALID_ARGUMENT, t->_off) : SIMDHTTP_TARGET_OK;
    /* offsets are 32 bits and NONE is reserved: at most NONE - 1 bytes; the error is at the
     * first byte past them, as every limit's */
    if (len >= NONE - t->_off) return fail(t, SIMDHTTP_TARGET_E_TOO_LONG, NONE - 1);
    const unsigned char *q = (const unsigned char *)piece, *end = q + len;
    while (q < end) {
        /* the bulk of a target: path and query bytes that change no state */
        if ((t->_state == ST_PATH || t->_state == ST_QUERY) && !t->_pct) {
            const unsigned char *r = run(q, end, t->_state == ST_PATH ? K_PATH : K_QUERY);
            t->_off += (uint32_t)(r - q), q = r;
        }
        if (q == end) break;
        if (step(t, *q++, t->_off++)) return t->error;
    }
    return SIMDHTTP_TARGET_OK;
}

simdhttp_target_error simdhttp_target_finish(simdhttp_target *t)
{
    uint32_t end = t->_off;
    if (t->_state == ST_ERROR) return t->error;
    if (t->_state == ST_DONE) return SIMDHTTP_TARGET_OK; /* the same result again */
    if (end == 0) return fail(t, SIMDHTTP_TARGET_E_EMPTY, 0);
    if (t->_pct && !lenient_pct(t)) return fail(t, SIMDHTTP_TARGET_E_PERCENT, end);
    switch (t->_state) {
    case ST_STAR:
        break;
    case ST_PREFIX: /* no ':': neither a host:port nor a scheme */
        return t->_flags & SIMDHTTP_TARGET_CONNECT ? fail(t, SIMDHTTP_TARGET_E_PORT, end)
                                                   : fail(t, SIMDHTTP_TARGET_E_FORM, 0);
    case ST_PORT_OR_PATH:
        if (t->_digits) {
            t->_form = SIMDHTTP_TARGET_AUTHORITY;
            t->host_type = v4_done(t) ? SIMDHTTP_HOST_IPV4 : SIMDHTTP_HOST_REG_NAME;
            set_part(t, SIMDHTTP_URL_PORT, t->_colon + 1, end);
            t->port = (uint16_t)t->_portv;
            break;
        }
        t->parts &= ~(1u << SIMDHTTP_URL_HOST);
        end_scheme(t, t->_colon);
        /* "scheme:" alone */
        /* fall through */
    case ST_AFTER_SCHEME:
        if (t->_alive & A_HTTP) return fail(t, SIMDHTTP_TARGET_E_HOST, end);
        break;
    case ST_SCHEME_SLASH:
        if (t->_alive & A_HTTP) return fail(t, SIMDHTTP_TARGET_E_HOST, end);
        set_part(t, SIMDHTTP_URL_PATH, t->_mark, end);
        break;
    case ST_AUTH:
        if (end_auth(t, end)) return t->error;
        break;
    case ST_IPLIT:
        return fail(t, SIMDHTTP_TARGET_E_HOST, end);
    case ST_AFTER_IPLIT:
        if (t->_alive & A_AUTHFORM) return fail(t, SIMDHTTP_TARGET_E_PORT, end);
        break;
    case ST_PORT:
        if ((t->_alive & A_AUTHFORM) && !t->_digits) return fail(t, SIMDHTTP_TARGET_E_PORT, end);
        set_part(t, SIMDHTTP_URL_PORT, t->_mark, end);
        t->port = (uint16_t)t->_portv;
        break;
    case ST_PATH:
        if (end > t->_mark) set_part(t, SIMDHTTP_URL_PATH, t->_mark, end);
        break;
    case ST_QUERY:
        set_part(t, SIMDHTTP_URL_QUERY, t->_mark, end);
        break;
    case ST_FRAGMENT:
        set_part(t, SIMDHTTP_URL_FRAGMENT, t->_mark, end);
        break;
    default:
        return fail(t, SIMDHTTP_TARGET_E_FORM, 0);
    }
    if ((t->_flags & SIMDHTTP_TARGET_CONNECT) && t->_form != SIMDHTTP_TARGET_AUTHORITY)
        return fail(t, SIMDHTTP_TARGET_E_FORM, 0);
    t->form = t->_form;
    t->_state = ST_DONE;
    return SIMDHTTP_TARGET_OK;
}

simdhttp_target_error simdhttp_target_parse(simdhttp_target *t, const char *target, size_t len,
                                            unsigned flags)
{
    simdhttp_target_init(t, flags);
    if (simdhttp_target_feed(t, target, len)) return t->error;
    return simdhttp_target_finish(t);
}

int simdhttp_target_form_fits(simdhttp_method method, int form)
{
    if (method == SIMDHTTP_METHOD_CONNECT) return form == SIMDHTTP_TARGET_AUTHORITY;
    if (form == SIMDHTTP_TARGET_ASTERISK) return method == SIMDHTTP_METHOD_OPTIONS;
    return form == SIMDHTTP_TARGET_ORIGIN || form == SIMDHTTP_TARGET_ABSOLUTE;
}

simdhttp_target_error simdhttp_target_parse_for(simdhttp_target *t, simdhttp_method method,
                                                const char *target, size_t len)
{
    unsigned flags = method == SIMDHTTP_METHOD_CONNECT ? SIMDHTTP_TARGET_CONNECT : 0;
    if (simdhttp_target_parse(t, target, len, flags)) return t->error;
    if (!simdhttp_target_form_fits(method, t->form)) {
        t->error = SIMDHTTP_TARGET_E_FORM;
        t->error_offset = 0;
        t->_state = ST_ERROR; /* sticks, as any error (t->form kept: it says what it was) */
        return t->error;
    }
    return SIMDHTTP_TARGET_OK;
}

const char *simdhttp_target_error_name(simdhttp_target_error e)
{
    static const char *const names[] = {"OK", "EMPTY", "FORM", "SCHEME", "HOST",
                                        "PORT", "PATH", "QUERY", "FRAGMENT", "PERCENT", "TOO_LONG",
                                        "INVALID_ARGUMENT", "FINISHED"};
    return (unsigned)e < sizeof names / sizeof *names ? names[e] : "UNKNOWN";
}

const char *simdhttp_target_form_name(int form)
{
    static const char *const names[] = {NULL, "origin", "absolute", "authority", "asterisk"};
    return form >= 0 && form <= SIMDHTTP_TARGET_ASTERISK ? names[form] : NULL;
}
