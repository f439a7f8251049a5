/* SPDX-License-Identifier: MIT */
/* The parser core: the one source of truth for every rule.
 *
 * Included once by each ISA's unit, src/isa/<isa>/isa_<isa>.c, after it has defined the names
 * this code calls, bound to that ISA's kernels (the way simdjson's generic code is compiled
 * into each implementation): scan_token, scan_value, scan_target (the contract is in
 * src/isa/scalar/scan_scalar.h) and stage 1's block function (src/stage1_at.h).
 * It gives the unit two static always-inline bodies, sh_execute (streaming) and sh_head (head
 * API), which the unit's literally named entry points call (simdhttp__execute_avx2, ...); both
 * are sh_core(), specialised by the constant `headmode`: the head API gets the same rules with
 * spans recorded into the head instead of callbacks, and returns INCOMPLETE wherever the
 * streaming parser would wait for more bytes.
 *
 * Shape: one state per resume point; the hot states consume a whole span with one scanner call
 * and one callback (no per-byte switch). Byte loops remain only where spans are a few bytes
 * (version, status code, chunk lines) or where a special field's value must be interpreted.
 * sh_core is a driver over the message's parts (sh_start_line, sh_version_status, sh_line_end,
 * sh_field_lines with stage 2's sh_fields, sh_head_done, sh_body, sh_chunked, sh_chunk_ext and
 * sh_chunk_ext_value):
 * the state picks the part, each part returns where to go on (SH_GO_*), and all are inlined
 * into the one function, where a code returned at a constant becomes a direct jump.
 */
#include <string.h>

#include "internal.h"
#include "stage1_at.h"
#include "tables.h"
#include "verdict.h"

#ifndef SH_CORE_SHARED
#define SH_CORE_SHARED
/* ---- helpers that do not depend on the scanners: compiled per ISA, but identical ---- */

#define SH_LIKELY(x) __builtin_expect(!!(x), 1)
#define SH_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define SH_IS_WS(c) ((c) == ' ' || (c) == '\t')
/* x[0], x[1] are CR LF (one 16-bit compare) */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define SH_IS_CRLF(x) (sh_load16(x) == 0x0d0a)
#else
#define SH_IS_CRLF(x) (sh_load16(x) == 0x0a0d)
#endif

static inline uint64_t sh_load64(const void *s)
{
    uint64_t v;
    memcpy(&v, s, 8);
    return v;
}

static inline uint16_t sh_load16(const void *s)
{
    uint16_t v;
    memcpy(&v, s, 2);
    return v;
}

static inline uint32_t sh_load32(const void *s)
{
    uint32_t v;
    memcpy(&v, s, 4);
    return v;
}

/* Case-insensitive compare of a validated token with a lower-case literal, with (overlapping)
 * word loads: `| 0x20` lower-cases letters and maps no other tchar onto a letter or '-', so it
 * is exact for tokens. Literals fold to constants. */
#define SH_EQ8(s, i, lit) ((sh_load64((s) + (i)) | 0x2020202020202020ull) == sh_load64(lit))
#define SH_EQ4(s, i, lit) ((sh_load32((s) + (i)) | 0x20202020u) == sh_load32(lit))

/* ---- the verdict ---- */

/* Flags f after reason r was read: the message's verdict gets r; under
 * SIMDHTTP_CLOSE_AFTER_AMBIGUOUS, a reason of tier AMBIGUOUS or worse closes the connection after
 * the message. Only the paths that already handle a deviation call it. */
static SH_ALWAYS_INLINE uint32_t sh_reason_flags(simdhttp_parser *p, int r, uint32_t f)
{
    uint32_t bit = (uint32_t)SIMDHTTP_REASON_BIT(r);
    p->reasons |= bit;
    if ((bit & SH_CLOSING_REASONS) && (p->_lenient & SIMDHTTP_CLOSE_AFTER_AMBIGUOUS))
        f = (f | SIMDHTTP_F_CLOSE_AFTER) & ~(uint32_t)SIMDHTTP_F_KEEP_ALIVE;
    return f;
}
/* The message read deviation NAME (SIMDHTTP_R_NAME) and goes on */
#define SH_REASON(p, NAME) ((p)->flags = sh_reason_flags((p), SIMDHTTP_R_##NAME, (p)->flags))

/* GET, HEAD, OPTIONS, TRACE: a body means nothing to them (RFC 9110 9.3). Method ids are below
 * 64 (the _Static_assert in src/verdict.h); 64 bits: the ids past 31 shift within the word. */
#define SH_BODILESS(m)                                                                                \
    ((1ull << SIMDHTTP_METHOD_GET | 1ull << SIMDHTTP_METHOD_HEAD | 1ull << SIMDHTTP_METHOD_OPTIONS |   \
      1ull << SIMDHTTP_METHOD_TRACE) >> (m) & 1)

/* The word v (8 bytes loaded from memory) without its byte 7 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define SH_BYTES_0_TO_6(v) ((v) >> 8)
#else
#define SH_BYTES_0_TO_6(v) ((v) << 8)
#endif

#define SH_SPECIAL_NAME_LENGTHS (1u << 7 | 1u << 10 | 1u << 14 | 1u << 17)
#define SH_SPECIAL_NAME_LENGTHS64 ((uint64_t)SH_SPECIAL_NAME_LENGTHS)

/* Whether the field name s (n bytes, a token, 14 or 17 of them) is Content-Length or
 * Transfer-Encoding but for its dash, which is another byte: what a hop that maps '_' or '.'
 * to '-' takes for that field. */
static __attribute__((noinline, cold)) int sh_name_lookalike(const uint8_t *s, size_t n)
{
    const char *lit = n == 14 ? "content-length" : "transfer-encoding";
    size_t dash = n == 14 ? 7 : 8;
    if ((uint8_t)((s[dash] | 0x20) - 'a') <= 25) return 0; /* "ContentXLength": other letters */
    for (size_t i = 0; i < n; i++)
        if (lit[i] != '-' && (s[i] | 0x20) != lit[i]) return 0;
    return 1;
}

/* p->_hstate is H_LOOKALIKE for the name s (n bytes): an ordinary field, in the verdict if it
 * is one */
static __attribute__((noinline, cold)) void sh_lookalike_line(simdhttp_parser *p, const uint8_t *s, size_t n)
{
    p->_hstate = H_NONE;
    if (sh_name_lookalike(s, n)) SH_REASON(p, FRAMING_LOOKALIKE);
}

/* What the field name s (n bytes) means to framing (H_*). H_LOOKALIKE: maybe a framing name's
 * lookalike, for sh_lookalike_line to decide out of stage 2's loop (the general path's
 * sh_field_name_end; the head API's framing-field block): a call here cost the head API 2-3%
 * of its instructions. */
static inline __attribute__((always_inline)) int sh_classify_name(const uint8_t *s, size_t n)
{
    switch (n) {
    case 7: return SH_EQ4(s, 0, "upgr") && SH_EQ4(s, 3, "rade") ? H_UPGRADE : H_NONE;
    case 10: return SH_EQ8(s, 0, "connecti") && SH_EQ4(s, 6, "tion") ? H_CONNECTION : H_NONE;
    case 14: {
        /* "Content_Length", "Content.Length": a hop that normalises names (CGI's '_' for
         * '-') reads the framing field: a name whose first 7 bytes are "content" (the first
         * word's compare without the dash's byte) is looked at again */
        uint64_t w = (sh_load64(s) | 0x2020202020202020ull) ^ sh_load64("content-");
        if (w == 0 && SH_EQ8(s, 6, "t-length")) return H_CONTENT_LENGTH;
        return SH_UNLIKELY(SH_BYTES_0_TO_6(w) == 0) ? H_LOOKALIKE : H_NONE;
    }
    case 17:
        if (!SH_EQ8(s, 0, "transfer")) return H_NONE;
        if (SH_EQ8(s, 8, "-encodin") && SH_EQ8(s, 9, "encoding")) return H_TRANSFER_ENCODING;
        return H_LOOKALIKE; /* "Transfer_Encoding" and other names beginning "transfer" */
    default: return H_NONE;
    }
}

static __attribute__((noinline)) int sh_classify_method(const uint8_t *s, size_t n)
{
#define M(lit, id) if (memcmp(s, lit, n) == 0) return id
    switch (n) {
    case 3: M("GET", SIMDHTTP_METHOD_GET); M("PUT", SIMDHTTP_METHOD_PUT); break;
    case 4: M("POST", SIMDHTTP_METHOD_POST); M("HEAD", SIMDHTTP_METHOD_HEAD); break;
    case 5: M("PATCH", SIMDHTTP_METHOD_PATCH); M("TRACE", SIMDHTTP_METHOD_TRACE); break;
    case 6: M("DELETE", SIMDHTTP_METHOD_DELETE); break;
    case 7: M("CONNECT", SIMDHTTP_METHOD_CONNECT); M("OPTIONS", SIMDHTTP_METHOD_OPTIONS); break;
    }
#undef M
    return simdhttp__method_lookup(s, n); /* the rest of the registry: out of line, rare */
}

/* The same for a method followed by its SP in the buffer (s[n] == ' '): GET and POST, most
 * requests, with one word compare and no call (sh_classify_method is out of line). */
static inline int sh_classify_method_sp(const uint8_t *s, size_t n)
{
    if (n == 3 && sh_load32(s) == sh_load32("GET ")) return SIMDHTTP_METHOD_GET;
    if (n == 4 && sh_load32(s) == sh_load32("POST")) return SIMDHTTP_METHOD_POST;
    return sh_classify_method(s, n);
}

/* Keep the first bytes of a method or name that crosses execute() calls, for classification. */
static inline void sh_keep(simdhttp_parser *p, const uint8_t *s, size_t n)
{
    if (p->_nlen + n <= sizeof p->_nbuf) memcpy(p->_nbuf + p->_nlen, s, n);
    p->_nlen = (uint8_t)(p->_nlen + n > 255 ? 255 : p->_nlen + n);
}

/* ---- special field values, interpreted byte by byte (they are short) ---- */

/* _sub while a special field's value is read; its meaning depends on _hstate. Each set starts
 * at 0 (sh_special_begin). */
enum { CL_NONE, CL_DIGITS, CL_AFTER }; /* Content-Length: no digit yet, in the digits, OWS after */
enum {                                 /* Transfer-Encoding (RFC 9112 section 7, RFC 9110 10.1.4) */
    TES_BEFORE,        /* before a transfer-coding: OWS and empty list elements */
    TES_NAME,          /* in a coding's name (_idx: its bytes so far, up to 15; _cand: sh_codings it may be) */
    TES_AFTER_NAME,    /* OWS after the name */
    TES_AFTER_SEMI,    /* after ';' and its OWS: a parameter's name must come */
    TES_QUOTED,        /* in a parameter's quoted-string value */
    TES_QUOTED_PAIR,   /* after a backslash in it */
    TES_PARAM_NAME,    /* in a parameter's name */
    TES_BWS_BEFORE_EQ, /* BWS between the name and '=' */
    TES_BWS_AFTER_EQ,  /* BWS after '=': a token or quoted-string must come */
    TES_TOKEN_VALUE,   /* in a parameter's token value */
    TES_AFTER_VALUE    /* after a parameter's value: OWS, then ',' or ';' */
};
enum { CS_BEFORE, CS_WORD, CS_AFTER }; /* Connection: before an option, in it, OWS after it */

static const char *const sh_conn_words[3] = {"close", "keep-alive", "upgrade"};
static const uint8_t sh_conn_lens[3] = {5, 10, 7};
static const uint32_t sh_conn_flags[3] = {SIMDHTTP_F_CONNECTION_CLOSE,
                                          SIMDHTTP_F_CONNECTION_KEEP_ALIVE,
                                          SIMDHTTP_F_CONNECTION_UPGRADE};

static inline void sh_conn_element_end(simdhttp_parser *p)
{
    for (int k = 0; k < 3; k++)
        if ((p->_cand >> k & 1) && p->_idx == sh_conn_lens[k]) p->flags |= sh_conn_flags[k];
    p->_cand = 0;
}

/* The transfer codings RFC 9112 section 7 registers (bit k of _cand: still sh_codings[k] after
 * _idx bytes of a coding's name); chunked first. Another one is in the verdict. */
static const char *const sh_codings[6] = {"chunked", "gzip", "x-gzip", "deflate", "compress", "x-compress"};
static const uint8_t sh_coding_lens[6] = {7, 4, 6, 7, 8, 10};

/* One byte c (a tchar) of a coding's name */
static inline void sh_te_name_byte(simdhttp_parser *p, uint8_t c)
{
    for (int k = 0; k < 6; k++)
        if ((p->_cand >> k & 1) && (p->_idx >= sh_coding_lens[k] || (c | 0x20) != (uint8_t)sh_codings[k][p->_idx]))
            p->_cand &= (uint8_t)~(1u << k);
    if (p->_idx < 15) p->_idx++;
}

/* End of one transfer-coding token. @return 0, or -1 if chunked is applied twice. */
static inline int sh_te_token_end(simdhttp_parser *p)
{
    int known = 0;
    for (int k = 0; k < 6; k++) known |= (p->_cand >> k & 1) && p->_idx == sh_coding_lens[k];
    if (!known) SH_REASON(p, TE_UNKNOWN_CODING);
    if ((p->_cand & 1) && p->_idx == 7) {
        if (p->_te & TE_SEEN_CHUNKED) return -1;
        p->_te = TE_SEEN_CHUNKED | TE_LAST_CHUNKED;
    } else {
        p->_te &= (uint8_t)~TE_LAST_CHUNKED;
    }
    return 0;
}

/* A special field's name was read (p->_hstate set): start interpreting its value. This is
 * the owner of the value matchers' state (_sub, _acc, _idx, _cand): each must start here, never
 * from what an earlier field, message or parser left (a stale _cand with the _idx of
 * "chunked" turned "Connection: ," into "upgrade": issue 9). */
static inline void sh_special_begin(simdhttp_parser *p)
{
    p->_sub = 0; /* CL_NONE, TES_BEFORE, CS_BEFORE */
    p->_acc = 0;
    p->_idx = 0;
    p->_cand = 0;
    if (p->_hstate == H_UPGRADE) p->flags |= SIMDHTTP_F_UPGRADE;
}

/* sh_special_feed's three matchers, one per special field: each takes value bytes [s, e) and
 * returns NULL, or the offending byte with p->_error and p->_reason set. */

/* Content-Length: one decimal number; SP and HTAB around it are taken */
static inline const uint8_t *sh_cl_feed(simdhttp_parser *p, const uint8_t *s, const uint8_t *e)
{
    for (; s < e; s++) {
        uint8_t c = *s;
        if (c >= '0' && c <= '9') {
            uint64_t d = (uint64_t)(c - '0');
            if (p->_sub == CL_AFTER) goto bad;
            if (p->_acc > (UINT64_MAX - d) / 10) {
                p->_reason = "Content-Length overflows 64 bits";
                goto err;
            }
            p->_acc = p->_acc * 10 + d;
            p->_sub = CL_DIGITS;
        } else if (SH_IS_WS(c)) {
            if (p->_sub == CL_DIGITS) p->_sub = CL_AFTER;
        } else {
            goto bad;
        }
    }
    return NULL;
bad:
    p->_reason = "Content-Length is not a decimal number";
err:
    p->_error = SIMDHTTP_E_INVALID_CONTENT_LENGTH;
    return s;
}

/* Transfer-Encoding: a list of codings with their parameters, every byte checked */
static inline const uint8_t *sh_te_feed(simdhttp_parser *p, const uint8_t *s, const uint8_t *e)
{
    for (; s < e; s++) {
        uint8_t c = *s;
        switch (p->_sub) {
        case TES_BEFORE: /* before an element */
            if (c == ',' || SH_IS_WS(c)) break;
            if (!simdhttp_tchar[c]) goto bad;
            p->_sub = TES_NAME;
            p->_idx = 0;
            p->_cand = 0x3f; /* any of sh_codings */
            /* fall through */
        case TES_NAME: /* in the coding's name */
            if (simdhttp_tchar[c]) {
                sh_te_name_byte(p, c);
                break;
            }
            /* check the byte before the token end changes _te: a pause in the error's
             * value span resumes at this byte, which must fail the same way again */
            if (c != ',' && c != ';' && !SH_IS_WS(c)) goto bad;
            if (sh_te_token_end(p)) goto twice;
            if (c == ',') p->_sub = TES_BEFORE;
            else if (SH_IS_WS(c)) p->_sub = TES_AFTER_NAME;
            else if (c == ';') p->_sub = TES_AFTER_SEMI;
            else goto bad;
            break;
        case TES_AFTER_NAME: /* after the name */
            if (c == ',') p->_sub = TES_BEFORE;
            else if (c == ';') p->_sub = TES_AFTER_SEMI;
            else if (!SH_IS_WS(c)) goto bad;
            break;
        /* transfer-parameter = token BWS "=" BWS ( token / quoted-string ), after
         * OWS ";" OWS (RFC 9112 section 7, RFC 9110 section 10.1.4): every byte is
         * checked, so no two readers split "a=\"b, chunked\"" differently */
        case TES_AFTER_SEMI: /* after ';' */
            if (SH_IS_WS(c)) break;
            if (!simdhttp_tchar[c]) goto bad;
            p->_sub = TES_PARAM_NAME;
            break;
        case TES_QUOTED: /* quoted-string in a parameter */
            if (c == '"') p->_sub = TES_AFTER_VALUE;
            else if (c == '\\') p->_sub = TES_QUOTED_PAIR;
            else if ((c < ' ' && c != '\t') || c == 0x7f) SH_REASON(p, CTL_IN_VALUE); /* lenient headers */
            break;
        case TES_QUOTED_PAIR: /* quoted-pair */
            if ((c < ' ' && c != '\t') || c == 0x7f) SH_REASON(p, CTL_IN_VALUE); /* lenient headers */
            p->_sub = TES_QUOTED;
            break;
        case TES_PARAM_NAME: /* in the parameter's name */
            if (simdhttp_tchar[c]) break;
            if (c == '=') p->_sub = TES_BWS_AFTER_EQ;
            else if (SH_IS_WS(c)) p->_sub = TES_BWS_BEFORE_EQ;
            else goto bad;
            break;
        case TES_BWS_BEFORE_EQ: /* BWS before '=' */
            if (c == '=') p->_sub = TES_BWS_AFTER_EQ;
            else if (!SH_IS_WS(c)) goto bad;
            break;
        case TES_BWS_AFTER_EQ: /* BWS after '=' */
            if (c == '"') p->_sub = TES_QUOTED;
            else if (simdhttp_tchar[c]) p->_sub = TES_TOKEN_VALUE;
            else if (!SH_IS_WS(c)) goto bad;
            break;
        case TES_TOKEN_VALUE: /* in a token value */
            if (simdhttp_tchar[c]) break;
            /* fall through */
        case TES_AFTER_VALUE:
        default: /* (no other value is ever set) */
            if (c == ',') p->_sub = TES_BEFORE;
            else if (c == ';') p->_sub = TES_AFTER_SEMI;
            else if (SH_IS_WS(c)) p->_sub = TES_AFTER_VALUE;
            else goto bad;
            break;
        }
    }
    return NULL;
bad:
    p->_error = SIMDHTTP_E_INVALID_TRANSFER_ENCODING;
    p->_reason = "Transfer-Encoding is not a list of transfer codings";
    return s;
twice:
    p->_error = SIMDHTTP_E_INVALID_TRANSFER_ENCODING;
    p->_reason = "Transfer-Encoding applies chunked more than once";
    return s;
}

/* Connection: a list of options, of which close, keep-alive and upgrade are matched (any
 * other byte is taken: the field has no error) */
static inline const uint8_t *sh_conn_feed(simdhttp_parser *p, const uint8_t *s, const uint8_t *e)
{
    if (p->_sub == CS_BEFORE) {
        /* The usual whole value "keep-alive" / "close" / "upgrade": the same state as the
         * byte loop reaches after the token (bytes that follow in a later piece then
         * cancel the match exactly as they would in the loop). */
        const uint8_t *t = e;
        while (t > s && SH_IS_WS(t[-1])) t--;
        size_t n = (size_t)(t - s);
        int k = n == 10 && SH_EQ8(s, 0, "keep-ali") && SH_EQ4(s, 6, "live") ? 1
              : n == 5 && SH_EQ4(s, 0, "clos") && (s[4] | 0x20) == 'e' ? 0
              : n == 7 && SH_EQ4(s, 0, "upgr") && SH_EQ4(s, 3, "rade") ? 2 : -1;
        if (k >= 0) {
            p->_cand = (uint8_t)(1u << k);
            p->_idx = (uint16_t)n;
            p->_sub = CS_AFTER;
            return NULL;
        }
    }
    for (; s < e; s++) {
        uint8_t c = *s;
        if (c == ',') {
            sh_conn_element_end(p);
            p->_sub = CS_BEFORE;
        } else if (SH_IS_WS(c)) {
            if (p->_sub == CS_WORD) p->_sub = CS_AFTER;
        } else if (p->_sub == CS_BEFORE || p->_sub == CS_WORD) {
            if (p->_sub == CS_BEFORE) { /* an option's first byte */
                p->_sub = CS_WORD;
                p->_idx = 0;
                p->_cand = 7;
            }
            for (int k = 0; k < 3; k++)
                if (p->_idx >= sh_conn_lens[k] || (c | 0x20) != (uint8_t)sh_conn_words[k][p->_idx])
                    p->_cand &= (uint8_t)~(1u << k);
            p->_idx++;
        } else {
            p->_cand = 0; /* "close foo": not an option we know */
        }
    }
    return NULL;
}

/* Feed value bytes [s, e) of a special field. @return NULL, or the offending byte (the error
 * is set in p->_error / p->_reason). */
static __attribute__((noinline)) const uint8_t *sh_special_feed(simdhttp_parser *p, const uint8_t *s, const uint8_t *e)
{
    switch (p->_hstate) {
    case H_CONTENT_LENGTH: return sh_cl_feed(p, s, e);
    case H_TRANSFER_ENCODING: return sh_te_feed(p, s, e);
    case H_CONNECTION: return sh_conn_feed(p, s, e);
    default: return NULL;
    }
}

/* The value of a special field ended (at a line end). @return 0 or -1 (error set). */
static __attribute__((noinline)) int sh_special_end(simdhttp_parser *p)
{
    switch (p->_hstate) {
    case H_CONTENT_LENGTH:
        if (p->_sub == CL_NONE) {
            p->_error = SIMDHTTP_E_INVALID_CONTENT_LENGTH;
            p->_reason = "Content-Length is empty";
            return -1;
        }
        if (p->flags & SIMDHTTP_F_CONTENT_LENGTH) {
            if (p->content_length != p->_acc) {
                p->_error = SIMDHTTP_E_UNEXPECTED_CONTENT_LENGTH;
                p->_reason = "two Content-Length fields differ";
                return -1;
            }
            SH_REASON(p, CL_DUPLICATE);
        }
        p->content_length = p->_acc;
        p->flags |= SIMDHTTP_F_CONTENT_LENGTH;
        return 0;
    case H_TRANSFER_ENCODING:
        p->flags |= SIMDHTTP_F_TRANSFER_ENCODING;
        if (p->_sub == TES_NAME && sh_te_token_end(p)) {
            p->_error = SIMDHTTP_E_INVALID_TRANSFER_ENCODING;
            p->_reason = "Transfer-Encoding applies chunked more than once";
            return -1;
        }
        if (p->_sub == TES_QUOTED || p->_sub == TES_QUOTED_PAIR) {
            p->_error = SIMDHTTP_E_INVALID_TRANSFER_ENCODING;
            p->_reason = "Transfer-Encoding has an unterminated quoted-string";
            return -1;
        }
        if (p->_sub == TES_AFTER_SEMI || (p->_sub >= TES_PARAM_NAME && p->_sub <= TES_BWS_AFTER_EQ)) {
            p->_error = SIMDHTTP_E_INVALID_TRANSFER_ENCODING;
            p->_reason = "Transfer-Encoding has a parameter without a value";
            return -1;
        }
        /* an obs-fold continuation may follow (as one SP): after a coding's name or a
         * parameter it must start with ',' or ';', after a ',' it may start the next coding */
        if (p->_sub == TES_NAME) p->_sub = TES_AFTER_NAME;
        else if (p->_sub == TES_TOKEN_VALUE) p->_sub = TES_AFTER_VALUE;
        return 0;
    case H_CONNECTION:
        if (p->_sub != CS_BEFORE) {
            sh_conn_element_end(p);
            p->_sub = CS_AFTER;
        }
        return 0;
    default:
        return 0;
    }
}

/* Lenient target_obs_text: the target goes on past bytes >= 0x80 (from q, one) to the byte that
 * ends it or is refused. Out of line: the usual target stops at its SP, and a loop back into
 * the request-line cost the head API 8-36 instructions a message in register moves. */
static __attribute__((noinline, cold)) const uint8_t *sh_target_obs_text(const uint8_t *q, const uint8_t *e)
{
    do q = scan_target(q + 1, e);
    while (q < e && *q >= 0x80);
    return q;
}

/* The end of a value [v, x) without its trailing OWS (x: its CR; x[-1] is a value byte, OWS
 * or the ':', so it may be read even when the value is empty). */
static inline __attribute__((always_inline)) const uint8_t *sh_ows_end(const uint8_t *v, const uint8_t *x)
{
    if (SH_UNLIKELY(x[-1] <= ' '))
        while (x > v && SH_IS_WS(x[-1])) x--;
    return x;
}

/* A framing field's whole value [v, t) (no OWS around it), when no obs-fold follows: the
 * usual values at once, with the flags and content length sh_special_feed + sh_special_end
 * would leave. @return 1 if done, 0 if the caller must run those (anything else: lists,
 * errors, a second Content-Length, chunked applied before). */
static inline __attribute__((always_inline)) int sh_special_whole_inline(simdhttp_parser *p, int hs, const uint8_t *v,
                                                                      const uint8_t *t)
{
    size_t n = (size_t)(t - v);
    switch (hs) {
    case H_CONNECTION:
        if (n == 10 && SH_EQ8(v, 0, "keep-ali") && SH_EQ4(v, 6, "live")) p->flags |= SIMDHTTP_F_CONNECTION_KEEP_ALIVE;
        else if (n == 5 && SH_EQ4(v, 0, "clos") && (v[4] | 0x20) == 'e') p->flags |= SIMDHTTP_F_CONNECTION_CLOSE;
        else if (n == 7 && SH_EQ4(v, 0, "upgr") && SH_EQ4(v, 3, "rade")) p->flags |= SIMDHTTP_F_CONNECTION_UPGRADE;
        else return 0;
        return 1;
    case H_CONTENT_LENGTH: {
        uint64_t acc = 0;
        if (n == 0 || n > 19 || (p->flags & SIMDHTTP_F_CONTENT_LENGTH)) return 0; /* 19 digits: no overflow */
        for (; v < t; v++) { /* (v to t, no index: one register less where stage 2 runs out) */
            unsigned d = (unsigned)(*v - '0');
            if (d > 9) return 0;
            acc = acc * 10 + d;
        }
        p->content_length = acc;
        p->flags |= SIMDHTTP_F_CONTENT_LENGTH;
        return 1;
    }
    case H_TRANSFER_ENCODING:
        if (p->_te || n != 7 || !SH_EQ4(v, 0, "chun") || !SH_EQ4(v, 3, "nked")) return 0;
        p->_te = TE_SEEN_CHUNKED | TE_LAST_CHUNKED;
        p->flags |= SIMDHTTP_F_TRANSFER_ENCODING;
        return 1;
    default: /* H_UPGRADE: its value means nothing to framing (H_LOOKALIKE never comes here) */
        p->flags |= SIMDHTTP_F_UPGRADE;
        return 1;
    }
}

/* The same out of line, for the streaming walk: inlined there too, it made the streaming
 * paths 3-10% slower in time (the llhttp layer's response-chunked 132 -> 147 ns) while it
 * saved the head API 30-50 instructions and time (see the walk) */
static __attribute__((noinline)) int sh_special_whole(simdhttp_parser *p, int hs, const uint8_t *v, const uint8_t *t)
{
    if (hs == H_LOOKALIKE) return 0; /* to the general path (sh_field_name_end) */
    return sh_special_whole_inline(p, hs, v, t);
}

/* Whether the connection persists after a message with flags f, by its version and fields
 * alone, before its framing is known. RFC 9112 9.3: "close" wins; else 1.1 persists, 1.0 only
 * with "keep-alive" and without Transfer-Encoding (6.1: faulty framing, close after it, even
 * where no body follows). */
static SH_ALWAYS_INLINE int sh_persists(const simdhttp_parser *p, uint32_t f)
{
    int v11 = p->http_major > 1 || (p->http_major == 1 && p->http_minor >= 1);
    return !(f & (SIMDHTTP_F_CONNECTION_CLOSE | SIMDHTTP_F_CLOSE_AFTER)) &&
           (v11 || (f & (SIMDHTTP_F_CONNECTION_KEEP_ALIVE | SIMDHTTP_F_TRANSFER_ENCODING)) ==
                       SIMDHTTP_F_CONNECTION_KEEP_ALIVE);
}

/* Framing of a complete head (RFC 9112 section 6). Sets flags and content_length.
 * @return 0, or -1 with the error set. */
static inline __attribute__((always_inline)) int sh_head_framing(simdhttp_parser *p)
{
    uint32_t f = p->flags;
    int request = p->type == SIMDHTTP_REQUEST;

    /* Most requests: HTTP/1.1, no Transfer-Encoding, Upgrade nor "close", not CONNECT. What
     * the rules below give them (it persists; no body without Content-Length) in a third of
     * their instructions. */
    if (SH_LIKELY(request) &&
        !(f & (SIMDHTTP_F_TRANSFER_ENCODING | SIMDHTTP_F_UPGRADE | SIMDHTTP_F_CONNECTION_CLOSE | SIMDHTTP_F_CLOSE_AFTER)) &&
        p->http_major == 1 && p->http_minor >= 1 && p->method != SIMDHTTP_METHOD_CONNECT &&
        !((f & SIMDHTTP_F_CONTENT_LENGTH) && p->content_length && SH_BODILESS(p->method))) {
        p->flags = f | SIMDHTTP_F_KEEP_ALIVE | (f & SIMDHTTP_F_CONTENT_LENGTH ? 0 : SIMDHTTP_F_SKIP_BODY);
        return 0;
    }

    /* a body on a method that gives it no meaning (RFC 9110 9.3.1): hops may drop it */
    if (request && SH_BODILESS(p->method) &&
        ((f & SIMDHTTP_F_TRANSFER_ENCODING) || ((f & SIMDHTTP_F_CONTENT_LENGTH) && p->content_length)))
        f = sh_reason_flags(p, SIMDHTTP_R_BODY_ON_GET, f);
    /* Transfer-Encoding in HTTP/1.0 (RFC 9112 6.1): faulty framing, closed after */
    if ((f & SIMDHTTP_F_TRANSFER_ENCODING) && p->http_major == 1 && p->http_minor == 0)
        f = sh_reason_flags(p, SIMDHTTP_R_TE_IN_HTTP10, f);
    if (sh_persists(p, f)) f |= SIMDHTTP_F_KEEP_ALIVE;

    /* Both framings: refused whatever the message (even one without a body: a hop that
     * reads the other framing would desynchronise). Under lenient chunked_length, chunked
     * wins and the connection closes after this message (RFC 9112 6.1). */
    if ((f & SIMDHTTP_F_TRANSFER_ENCODING) && (f & SIMDHTTP_F_CONTENT_LENGTH)) {
        if (!(p->_lenient & SIMDHTTP_LENIENT_CHUNKED_LENGTH)) {
            p->_error = SIMDHTTP_E_UNEXPECTED_CONTENT_LENGTH;
            p->_reason = "Content-Length together with Transfer-Encoding";
            return -1;
        }
        f = sh_reason_flags(p, SIMDHTTP_R_CL_AND_TE, f) & ~(uint32_t)SIMDHTTP_F_KEEP_ALIVE;
    }

    if (!request && (p->status_code < 200 || p->status_code == 204 || p->status_code == 304)) {
        /* no body, whatever the fields say (RFC 9112 6.3 rule 1) */
        f |= SIMDHTTP_F_SKIP_BODY;
        if (p->status_code == 101) f |= SIMDHTTP_F_UPGRADE;
        else f &= ~(uint32_t)SIMDHTTP_F_UPGRADE; /* only a 101 switches (RFC 9110 7.8) */
        p->flags = f;
        return 0;
    }
    if (request && p->method == SIMDHTTP_METHOD_CONNECT) {
        f |= SIMDHTTP_F_SKIP_BODY | SIMDHTTP_F_UPGRADE; /* a tunnel follows the head */
        p->flags = f;
        return 0;
    }
    if (request && !((f & SIMDHTTP_F_UPGRADE) && (f & SIMDHTTP_F_CONNECTION_UPGRADE)))
        f &= ~(uint32_t)SIMDHTTP_F_UPGRADE;
    if (!request) f &= ~(uint32_t)SIMDHTTP_F_UPGRADE;

    if (f & SIMDHTTP_F_TRANSFER_ENCODING) {
        f &= ~(uint32_t)SIMDHTTP_F_CONTENT_LENGTH;
        p->content_length = 0;
        if (p->_te & TE_LAST_CHUNKED) {
            f |= SIMDHTTP_F_CHUNKED;
        } else if (request && !(p->_lenient & SIMDHTTP_LENIENT_TRANSFER_ENCODING)) {
            p->_error = SIMDHTTP_E_INVALID_TRANSFER_ENCODING;
            p->_reason = "request's final transfer coding is not chunked";
            return -1;
        } else {
            if (request) f = sh_reason_flags(p, SIMDHTTP_R_TE_NOT_CHUNKED, f);
            f |= SIMDHTTP_F_BODY_UNTIL_CLOSE;
            f &= ~(uint32_t)SIMDHTTP_F_KEEP_ALIVE;
        }
    } else if (!(f & SIMDHTTP_F_CONTENT_LENGTH)) {
        if (request) {
            f |= SIMDHTTP_F_SKIP_BODY;
        } else {
            f |= SIMDHTTP_F_BODY_UNTIL_CLOSE;
            f &= ~(uint32_t)SIMDHTTP_F_KEEP_ALIVE;
        }
    }
    p->flags = f;
    return 0;
}

static const uint8_t sh_http_prefix[5] = {'H', 'T', 'T', 'P', '/'};


#endif /* SH_CORE_SHARED */

/* ======================================================================================= */

/* The macros below leave the code they are used in, and their names say so: _EXIT, through
 * one of sh_core's exits (out_error, out_more, cb_stop, at its end); _OR_GOTO(STOP), to the
 * label STOP of the function they are used in. */

/* The error CODE at byte AT, for the reason WHY: leave through out_error. */
#define SH_ERR_EXIT(code, at, why)                                                          \
    do {                                                                                    \
        p->_error = (code);                                                                 \
        p->_reason = (why);                                                                 \
        x->errpos = (at);                                                                   \
        SH_ERROR_GOTO();                                                                    \
    } while (0)

/* Which callback stopped the parser (simdhttp_get_callback_result): its member's index. */
#define SH_CB_ID(NAME) ((uint8_t)(offsetof(simdhttp_callbacks, NAME) / sizeof(void *)))

/* Data callback. RESUME is the state to continue in after a pause, at byte NEXT (stored only
 * when the callback stops the parser: nothing reads the state while a callback runs); a
 * callback that stops it jumps to STOP (sh_core's cb_stop, stage 2's stop). */
#define SH_SPAN_OR_GOTO(STOP, NAME, AT, N, RESUME, NEXT) SH_SPAN_IF_OR_GOTO(STOP, NAME, AT, N, RESUME, NEXT, (N))
/* The same for an element llhttp delivers even when empty (simdhttp_set_empty_spans): the
 * length is tested first, so the option is read only for an empty one. */
#define SH_SPAN0_OR_GOTO(STOP, NAME, AT, N, RESUME, NEXT) \
    SH_SPAN_IF_OR_GOTO(STOP, NAME, AT, N, RESUME, NEXT, (N) || (p->_lenient & SH_OPT_EMPTY_SPANS))
#define SH_SPAN0_OR_EXIT(NAME, AT, N, RESUME, NEXT) SH_SPAN0_OR_GOTO(cb_stop, NAME, AT, N, RESUME, NEXT)
/* The span of an element whose error follows (a pause there resumes into the same error). The
 * resumed parser meets the element again, now empty: _want bit 2 says its span was given. */
#define SH_SPAN0_BEFORE_ERR_OR_EXIT(NAME, AT, N, RESUME, NEXT)                              \
    do {                                                                                     \
        if (!headmode && p->_cb->NAME &&                                                     \
            ((N) || ((p->_lenient & SH_OPT_EMPTY_SPANS) && !(p->_want & 4)))) {              \
            p->_want |= 4;                                                                   \
            SH_SPAN_IF_OR_GOTO(cb_stop, NAME, AT, N, RESUME, NEXT, 1);                       \
        }                                                                                    \
    } while (0)
#define SH_SPAN_IF_OR_GOTO(STOP, NAME, AT, N, RESUME, NEXT, COND)                            \
    do {                                                                                     \
        if (!headmode && p->_cb->NAME && (COND)) {                                           \
            rc = p->_cb->NAME(p, (const char *)(AT), (size_t)(N));                           \
            if (SH_UNLIKELY(rc)) {                                                           \
                p->_state = (RESUME);                                                        \
                pos = (NEXT);                                                                \
                p->_cb_which = SH_CB_ID(NAME);                                               \
                goto STOP;                                                                   \
            }                                                                                \
        }                                                                                    \
    } while (0)
#define SH_SPAN_OR_EXIT(NAME, AT, N, RESUME, NEXT) SH_SPAN_OR_GOTO(cb_stop, NAME, AT, N, RESUME, NEXT)
/* The same where a span ends, or a buffer ends inside it. With no bytes it is called only if
 * the span was open when this call began (SH_SPAN_WAS_OPEN) and simdhttp_set_empty_spans is
 * on: llhttp restarts an open span at each execute() and so ends it with length 0 when the
 * buffer's first byte ends it (or the buffer is empty). The test runs only for an empty span. */
#define SH_SPAN_END_OR_EXIT(NAME, AT, N, RESUME, NEXT, OPEN) \
    SH_SPAN_IF_OR_GOTO(cb_stop, NAME, AT, N, RESUME, NEXT, (N) || SH_SPAN_WAS_OPEN(AT, OPEN))
/* The same before an error llhttp gives after it ends the span: a pause there resumes into
 * the same error, where the span is not given again (_want bit 2, as SH_SPAN0_BEFORE_ERR). */
#define SH_SPAN_END_BEFORE_ERR_OR_EXIT(NAME, AT, N, RESUME, NEXT, OPEN)                    \
    do {                                                                                    \
        if ((N) || (SH_SPAN_WAS_OPEN(AT, OPEN) && !(p->_want & 4))) {                      \
            if (!headmode) p->_want |= 4;                                                   \
            SH_SPAN_IF_OR_GOTO(cb_stop, NAME, AT, N, RESUME, NEXT, 1);                      \
        }                                                                                   \
    } while (0)
/* A span at AT was open when this call began: AT is the buffer's first byte and the call
 * resumed in the span's state OPEN (p->_state keeps the state a call began in until it leaves;
 * the few stores before that, at a message's or a head's end, come after bytes were taken, so
 * AT is then past the buffer's start). For an empty span only: the caller tests N first.
 * Never in the head API, which parses one buffer and gives no spans. */
#define SH_SPAN_WAS_OPEN(AT, OPEN) \
    (!headmode && (p->_lenient & SH_OPT_EMPTY_SPANS) && (const uint8_t *)(AT) == x->data && p->_state == (OPEN))

/* Notification callback, same resume convention. */
#define SH_NOTE_OR_GOTO(STOP, NAME, RESUME, NEXT)                                           \
    do {                                                                                    \
        if (!headmode && p->_cb->NAME) {                                                    \
            rc = p->_cb->NAME(p);                                                           \
            if (SH_UNLIKELY(rc)) {                                                          \
                p->_state = (RESUME);                                                       \
                pos = (NEXT);                                                               \
                p->_cb_which = SH_CB_ID(NAME);                                              \
                goto STOP;                                                                  \
            }                                                                               \
        }                                                                                   \
    } while (0)
#define SH_NOTE_OR_EXIT(NAME, RESUME, NEXT) SH_NOTE_OR_GOTO(cb_stop, NAME, RESUME, NEXT)

/* At the next line's first byte (pos), once it is no obs-fold: the value owed (_want bit 0)
 * is complete. An empty one (bit 1) first gets its zero-length span there, where llhttp gives
 * it (simdhttp_set_empty_spans); a pause in that span resumes with the completion still owed.
 * Bit 3 tells a layer that stopped callback's span from a value's end (SH_SPAN_WAS_OPEN). */
#define SH_VALUE_COMPLETE_OR_EXIT()                                                                  \
    do {                                                                                     \
        if (SH_UNLIKELY(p->_want & 2)) {                                                     \
            p->_want = 1 | 8;                                                                \
            SH_SPAN0_OR_EXIT(on_header_value, pos, 0, S_FIELD_START, pos);                           \
        }                                                                                    \
        p->_want = 0;                                                                        \
        SH_NOTE_OR_EXIT(on_header_value_complete, S_FIELD_START, pos);                               \
    } while (0)

/* Deliver what the buffer holds (pos < end: the caller tested it) of the LEFT bytes left (a
 * local holding p->content_length, never 0 here: so n_ is not either); wait in MORE unless they
 * are all here, then go on (to the code that follows) in state DONE. LEFT is not read back from
 * p after on_body: the parser's fields are for reading in callbacks (include/simdhttp.h). */
#define SH_BODY_BYTES_OR_EXIT(LEFT, MORE, DONE)                                             \
    do {                                                                                    \
        uint64_t n_;                                                                        \
        n_ = (uint64_t)(end - pos) < (LEFT) ? (uint64_t)(end - pos) : (LEFT);               \
        (LEFT) -= n_;                                                                       \
        p->content_length = (LEFT);                                                         \
        mark = pos;                                                                         \
        pos += n_;                                                                          \
        SH_SPAN_IF_OR_GOTO(cb_stop, on_body, mark, n_, (LEFT) ? (MORE) : (DONE), pos, 1);   \
        if (SH_UNLIKELY(LEFT)) SH_MORE_EXIT(MORE);                                          \
    } while (0)

/* The state before a chunk's first byte (the resume state of on_chunk_header: evaluated only
 * where it stops the parser) */
#define SH_CHUNK_DATA_START ((x->lenient & SH_OPT_EMPTY_SPANS) ? S_CHUNK_DATA0 : S_CHUNK_DATA)

/* The chunk line's extensions reached max_chunk_ext at pos: leave through out_error. */
#define SH_EXT_OVERFLOW_EXIT() \
    SH_ERR_EXIT(SIMDHTTP_E_CHUNK_EXTENSIONS_OVERFLOW, pos, "chunk extensions longer than max_chunk_ext")

/* Consume one byte of a chunk line's extensions, within max_chunk_ext (else to the part's
 * ext_overflow label, which leaves through SH_EXT_OVERFLOW_EXIT). */
#define SH_EXT_TAKE_OR_EXIT()                                                               \
    do {                                                                                    \
        if (p->_ext_left == 0) goto ext_overflow;                                           \
        p->_ext_left--;                                                                     \
        pos++;                                                                              \
    } while (0)

/* The bytes of per-message state that msg_start clears for each message and the head API's
 * set-up (sh_head) clears beside _state: one list, so that the two cannot drift apart. */
#define SH_CLEAR_MSG_BYTES(P)                                                               \
    do {                                                                                    \
        (P)->_idx = 0;                                                                      \
        (P)->_hstate = (P)->_want = (P)->_te = 0;                                           \
        (P)->_nlen = 0;                                                                     \
    } while (0)

/* Wait for more input in state ST (the caller delivered any partial span already). */
#define SH_MORE_EXIT(ST)                                                                    \
    do {                                                                                    \
        p->_state = (ST);                                                                   \
        goto out_more;                                                                      \
    } while (0)


/* ---- stage 2: the field lines of a head, walked with stage 1's masks ---- */

#ifndef SH_WALK_DEFINED
#define SH_WALK_DEFINED
/* What sh_fields_* walked to (in sh_core's frame across calls, so a block is read once). */
typedef struct sh_walk {
    const uint8_t *pos; /* in: a line start; out: see the return values */
    uintptr_t bb;       /* the block: its first byte; "none" if pos - bb >= 64 for every pos */
    uint64_t vbad, ntok; /* its masks, bit i for byte bb + i (bytes at or past hend: vbad) */
    int rc;             /* SH_WALK_STOP: what the callback returned */
} sh_walk;
enum {
    SH_WALK_GENERAL,     /* pos: the start of a line the general path must take */
    SH_WALK_FIELD_START, /* pos: after a field line's CRLF, at a byte <= SP (a fold, the end of
                            the head, an error): field_start decides (_want is 1) */
    SH_WALK_HEAD_END,    /* pos: after the empty line that ends the head (nothing pending) */
    SH_WALK_ERROR,       /* a framing field's value is wrong; pos: the error byte */
    SH_WALK_STOP         /* streaming: a callback stopped the parser; pos: where to resume,
                            p->_state set */
};

/* What sh_core and its parts share for one call: the input, the head budget, stage 2's walk
 * and what an exit reports. (The cursor itself, pos, is passed and returned: it stays in a
 * register.) Inlined parts keep it in registers too: nothing takes its address out of line. */
typedef struct sh_ctx {
    const uint8_t *data, *end; /* this call's input */
    const uint8_t *hend;       /* scans in a head stop here (the head budget's end, or end) */
    const uint8_t *hbase;      /* where the head budget was entered; NULL outside a head */
    const uint8_t *errpos;     /* the error's byte, for sh_exit_error */
    simdhttp_head *h;          /* the head API's result; NULL in the streaming API */
    uint32_t lenient;          /* p->_lenient */
    int rc;                    /* what a callback that stopped the parser returned */
} sh_ctx;
#endif
/* pos[0..1] are CR LF, both before e */
#define SH_IS_CRLF_AT(pos, e) ((e) - (pos) >= 2 && SH_IS_CRLF(pos))
/* the index of the lowest set bit of m != 0 (with BMI1, tzcnt's 64-bit result: no sign
 * extension of the builtin's int) */
#undef SH_CTZ64
#if defined(__BMI__)
#define SH_CTZ64(m) ((size_t)__builtin_ia32_tzcnt_u64(m))
#else
#define SH_CTZ64(m) ((size_t)__builtin_ctzll(m))
#endif
/* The same for a mask m that dies here: with BMI1, tzcnt into m's own register. gcc breaks
 * tzcnt's false dependency on its destination with an xor when the two registers differ, and
 * which they are is its register allocator's draw: one instruction per field line in stage 2
 * when it loses (AVX2 callgrind, the head API's get-32h.http: +30 per head). */
#ifndef SH_CTZ64_DEAD_DEFINED
#define SH_CTZ64_DEAD_DEFINED
static SH_ALWAYS_INLINE size_t sh_ctz64_dead(uint64_t m)
{
#if defined(__BMI__) && (defined(__x86_64__) || defined(_M_X64))
    __asm__("tzcnt %0, %0" : "+r"(m) : : "cc");
    return (size_t)m;
#else
    return (size_t)__builtin_ctzll(m);
#endif
}
#endif

/* OWS from v, bounded by the value's end x (x is at least v; *x is CR). @return the value's
 * first byte. */
static SH_ALWAYS_INLINE const uint8_t *sh_ows_skip(const uint8_t *v, const uint8_t *x)
{
    v += *v == ' '; /* the usual single SP */
    if (SH_UNLIKELY(*v <= ' '))
        while (v < x && SH_IS_WS(*v)) v++;
    return v;
}

/* The head API's field: the name of n bytes at name, the value [v, t). */
static SH_ALWAYS_INLINE void sh_field_set(simdhttp_field *f, const uint8_t *name, size_t n, const uint8_t *v,
                                          const uint8_t *t)
{
    f->name = (const char *)name;
    f->name_len = n;
    f->value = (const char *)v;
    f->value_len = (size_t)(t - v);
}

/* Stage 1's two masks of the block from b (data: the buffer's start, hend: the head's end),
 * into *vbad and *ntok. @return b, the block's address. */
static SH_ALWAYS_INLINE uintptr_t sh_block_at(const uint8_t *b, const uint8_t *data, const uint8_t *hend,
                                              const SH_S1KEYS_T *keys, uint64_t *vbad, uint64_t *ntok,
                                              const int headmode)
{
    sh_masks m;
    if (headmode)
        sh_stage1_at_k(b, data, hend, keys, &m);
    else
        sh_stage1_at(b, data, hend, &m);
    *vbad = m.vbad;
    *ntok = m.ntok;
    return (uintptr_t)b;
}

/* The head API's fields that stage 2 may still take: min(max_fields left, room in the head).
 * @return the end of that run of h->fields. */
static SH_ALWAYS_INLINE simdhttp_field *sh_fields_limit(simdhttp_head *h, uint32_t left)
{
    return h->fields_cap - h->num_fields < left ? h->fields + h->fields_cap : h->fields + h->num_fields + left;
}

/* The head API's fields [f0, f) were taken by stage 2: the counts, and _hstate, which the last
 * line taken decides (what an obs-fold after it continues; fspecial: after a framing field's,
 * special_hs). */
static SH_ALWAYS_INLINE void sh_fields_taken(simdhttp_parser *p, simdhttp_head *h, simdhttp_field *f0,
                                             simdhttp_field *f, simdhttp_field *fspecial, uint8_t special_hs,
                                             uint32_t left)
{
    if (f != f0) p->_hstate = f == fspecial ? special_hs : (uint8_t)H_NONE;
    p->_fields_left = left - (uint32_t)(f - f0);
    h->num_fields = (size_t)(f - h->fields);
}

/* Where stage 2 stopped and the block it holds, for the next run. */
static SH_ALWAYS_INLINE void sh_walk_keep(sh_walk *w, const uint8_t *pos, uintptr_t bb, uint64_t vbad, uint64_t ntok)
{
    w->pos = pos;
    w->bb = bb;
    w->vbad = vbad;
    w->ntok = ntok;
}

/* Stage 2, the name of the line at pos: its end, the first byte that is no tchar, which must be
 * ':'. The block the walk holds (*bb, its masks *bvb and *bnt) moves on to the block that
 * holds that end; *voff is where the value's search starts in it (the line start, or the
 * block's first byte when the name crossed into it). @return NULL when the general path must
 * take the line: it is not all here, its name is 64 bytes or more, or no ':' ends it (with
 * the span scanners: also an empty name). */
static SH_ALWAYS_INLINE const uint8_t *sh_walk_name_end(const uint8_t *pos, uintptr_t *bb, uint64_t *bvb,
                                                        uint64_t *bnt, size_t *voff, const uint8_t *data,
                                                        const uint8_t *hend, const SH_S1KEYS_T *k,
                                                        const int headmode)
{
#ifdef SH_STAGE2_SCANNERS
    /* the two ends from this unit's span scanners instead of stage 1's masks (measured
     * cheaper where stage 1 costs more than two short scans: docs/simd.md) */
    const uint8_t *nq = scan_token(pos, hend);
    (void)bb, (void)bvb, (void)bnt, (void)voff, (void)data, (void)k, (void)headmode;
    return nq == hend || *nq != ':' || nq == pos ? NULL : nq;
#else
    size_t off = (size_t)((uintptr_t)pos - *bb);
    uint64_t m;
    if (SH_UNLIKELY(off >= 64)) { /* the line starts past the block: the next one, or */
        if (off < 128 && (size_t)((uintptr_t)hend - *bb) > 64) {
            *bb = sh_block_at((const uint8_t *)*bb + 64, data, hend, k, bvb, bnt, headmode);
            off -= 64;
        } else { /* a block from the line start (the first line; after the general path) */
            *bb = sh_block_at(pos, data, hend, k, bvb, bnt, headmode);
            off = 0;
        }
    }
    /* up to the first non-tchar (bits past hend are never set here) */
    m = *bnt >> off;
    if (SH_UNLIKELY(!m)) { /* it runs into the next block */
        if ((size_t)((uintptr_t)hend - *bb) <= 64) return NULL; /* the line is not all here */
        *bb = sh_block_at((const uint8_t *)*bb + 64, data, hend, k, bvb, bnt, headmode);
        off = 0;
        m = *bnt;
        if (!m) return NULL; /* a name of 64 bytes or more: the general path */
    } /* a first byte that is no tchar: an error, or ':' (an empty name, found by the caller) */
    *voff = off;
    const uint8_t *nq = (const uint8_t *)*bb + off + sh_ctz64_dead(m);
    return *nq != ':' ? NULL : nq; /* (no branch hint: with one, gcc's registers moved, +9) */
#endif
}

/* Stage 2, the value of the line at pos whose name ends at nq (a ':'): its end, the first byte
 * not allowed in a value (the caller checks that it is the CR of a CRLF before hend2), with the
 * walk's block moved on to the block that holds it. @return its address as an integer (a stop
 * past hend is past the data), or UINTPTR_MAX when the general path must take the line: it
 * is not all here, or no CRLF can end it. */
static SH_ALWAYS_INLINE uintptr_t sh_walk_value_end(const uint8_t *pos, const uint8_t *nq, size_t voff,
                                                    uintptr_t *bb, uint64_t *bvb, uint64_t *bnt,
                                                    const uint8_t *data, const uint8_t *hend, uintptr_t hend2,
                                                    const SH_S1KEYS_T *k, const int headmode)
{
#ifdef SH_STAGE2_SCANNERS
    /* A vector scanner starts at the line start ([pos, nq] never stops it): it is
     * latency-bound, and this keeps the name scan off the line-to-line dependency chain
     * (docs/simd.md) */
    (void)pos, (void)nq, (void)voff, (void)bb, (void)bvb, (void)bnt, (void)data, (void)hend2, (void)k,
        (void)headmode;
#ifdef SH_VALUE_FROM_LINE_START
    return (uintptr_t)scan_value(pos, hend);
#else
    return (uintptr_t)scan_value(nq + 1, hend);
#endif
#else
    /* Searched from the line start (or the block's first byte, inside the name): a name, its
     * ':' and OWS hold no such byte, so it is the same byte as from nq + 1, and the search does
     * not wait for the name's end (the walk is a chain of lines: each line's end gives the next
     * line's start). Bits past hend are such bytes. */
    uint64_t m = *bvb >> voff;
    uintptr_t xu;
    (void)pos, (void)nq;
    if (SH_LIKELY(m)) return *bb + voff + sh_ctz64_dead(m);
    /* the value runs past the block: the next one (it usually ends there and holds the lines
     * after it) */
    if ((size_t)((uintptr_t)hend - *bb) <= 64) return UINTPTR_MAX; /* the line is not all here */
    *bb = sh_block_at((const uint8_t *)*bb + 64, data, hend, k, bvb, bnt, headmode);
    if (SH_UNLIKELY(!*bvb)) {
        /* and past that one too: this unit's value scanner finds its end (stage 1 of the
         * blocks in between would give only their vbad masks, at twice the cost), then the
         * block that holds it (bb stays 64-aligned) */
        if ((size_t)((uintptr_t)hend - *bb) <= 64) return UINTPTR_MAX;
        xu = (uintptr_t)scan_value((const uint8_t *)*bb + 64, hend);
        if (SH_UNLIKELY(xu >= hend2)) return UINTPTR_MAX; /* not all here, or no CRLF can end it */
        *bb = sh_block_at((const uint8_t *)*bb + ((xu - *bb) & ~(uintptr_t)63), data, hend, k, bvb, bnt, headmode);
    }
    return *bb + SH_CTZ64(*bvb);
#endif
}

/* Stage 2: a run of whole, ordinary field lines from w->pos (a token, ':', OWS, a value,
 * CRLF, and the next line's first byte in the buffer; in the streaming API not a framing
 * field; no limit reached), walked with stage 1's masks of 64-byte blocks (src/stage1.h): the
 * name ends at the first non-tchar bit from the line start, which must be ':'; the value at
 * the first bit of a byte not allowed in a value, which must be the CR of CRLF. No byte loop,
 * no scanner call. Blocks follow one another; a line that crosses into the next block carries
 * on there. It emits exactly what the general path in sh_core would (same spans, same resume
 * states after a pause); anything else ends the walk at the start of the line, and the
 * general path takes that line from its first byte.
 * A function of its own for the reader; inlined into sh_core (see below). */
static SH_ALWAYS_INLINE int sh_fields(simdhttp_parser *p, simdhttp_head *h, sh_walk *w,
                                              const uint8_t *data, const uint8_t *hend,
                                              const int headmode)
{
    const uint8_t *pos = w->pos;
    const uintptr_t hend2 = (uintptr_t)hend - 2; /* a line's CR must lie before it */
    uintptr_t bb = w->bb;
    uint64_t bvb = w->vbad, bnt = w->ntok;
    uint32_t left = p->_fields_left;
    simdhttp_field *f = NULL, *f0 = NULL, *flim = NULL, *fspecial = NULL;
    int ret = SH_WALK_GENERAL, rc;
    uint8_t special_hs = H_NONE;
    const SH_S1KEYS_T s1keys = SH_S1KEYS_LOAD();
    (void)s1keys; /* unused with SH_STAGE2_SCANNERS */

    if (headmode) {
        f0 = f = h->fields + h->num_fields;
        flim = sh_fields_limit(h, left);
    }

    (void)data; /* stage 1's buffer start: unused with SH_STAGE2_SCANNERS */
    if (!headmode) p->_hstate = H_NONE; /* a line taken here in spans is an ordinary one */
    for (;;) {
        const uint8_t *nq, *v, *x;
        uintptr_t xu;
        size_t n, voff = 0;
        int hs = H_NONE;
        nq = sh_walk_name_end(pos, &bb, &bvb, &bnt, &voff, data, hend, &s1keys, headmode);
        if (SH_UNLIKELY(!nq)) break;
        n = (size_t)(nq - pos);
        if (headmode ? SH_UNLIKELY(f == flim) : SH_UNLIKELY(!left)) break;
        xu = sh_walk_value_end(pos, nq, voff, &bb, &bvb, &bnt, data, hend, hend2, &s1keys, headmode);
        /* it must be CRLF, and the next line's first byte here (it decides
         * on_header_value_complete); an integer until then: a stop past hend is past the data */
        if (SH_UNLIKELY(xu >= hend2)) break;
        x = (const uint8_t *)xu;
        if (SH_UNLIKELY(!SH_IS_CRLF(x))) break;
        v = sh_ows_skip(nq + 1, x);
        /* framing fields (a few name lengths): interpreted below when whole */
        /* an empty name (": v", an error) shares the test: bit 0 (one test less per line) */
        if (SH_UNLIKELY(((SH_SPECIAL_NAME_LENGTHS64 | 1) >> (n & 63)) & 1)) {
            if (SH_UNLIKELY(!n)) break; /* the general path reports it */
            hs = sh_classify_name(pos, n);
        }
        if (headmode) {
            const uint8_t *t = sh_ows_end(v, x);
            if (SH_UNLIKELY(hs) && (SH_IS_WS(x[2]) || hs == H_LOOKALIKE || !sh_special_whole_inline(p, hs, v, t))) {
                /* a framing field, whole: interpret it here (no callbacks to resume) */
                const uint8_t *bad;
                p->_hstate = (uint8_t)hs;
                if (SH_UNLIKELY(hs == H_LOOKALIKE)) sh_lookalike_line(p, pos, n);
                sh_special_begin(p);
                if ((bad = sh_special_feed(p, v, x)) != NULL || sh_special_end(p)) {
                    pos = bad ? bad : x;
                    ret = SH_WALK_ERROR;
                    goto out;
                }
                /* an obs-fold right after this line continues it: _hstate stays (see out) */
                special_hs = p->_hstate;
                fspecial = f + 1;
            }
            sh_field_set(f, pos, n, v, t);
            f++;
            pos = x + 2;
        } else if (p->_cb->on_header && !SH_IS_WS(x[2])) {
            /* the whole line in one call (not continued by an obs-fold: x[2] is no SP/HTAB) */
            const uint8_t *t = sh_ows_end(v, x);
            /* a framing field whose value is one token is interpreted here (sh_special_whole
             * changes nothing when it declines); a list, or an invalid value, goes to the
             * general path, so that its spans come before its error (include/simdhttp.h) */
            if (SH_UNLIKELY(hs) && !sh_special_whole(p, hs, v, t)) break;
            p->_fields_left = --left; /* in step before the callback can pause */
            pos = x + 2;
            rc = p->_cb->on_header(p, (const char *)nq - n, n, (const char *)v, (size_t)(t - v));
            if (SH_UNLIKELY(rc)) {
                p->_state = S_FIELD_START; /* the next line, nothing pending (_want is 0) */
                p->_cb_which = SH_CB_ID(on_header);
                goto stop;
            }
            if (SH_UNLIKELY(*pos <= ' ')) { /* the end of the head or an error */
                ret = SH_WALK_FIELD_START;
                if (SH_IS_CRLF_AT(pos, hend)) pos += 2, ret = SH_WALK_HEAD_END;
                goto out;
            }
            continue;
        } else {
            /* a framing field whose value is one token, with no obs-fold after it, is
             * interpreted here, before its spans: a pause between them resumes in the general
             * path, which sees an ordinary field (_hstate is H_NONE). Anything else (a list,
             * an invalid value, a fold) goes to the general path: its spans before its error */
            if (SH_UNLIKELY(hs) && (SH_IS_WS(x[2]) || !sh_special_whole(p, hs, v, sh_ows_end(v, x)))) break;
            p->_fields_left = left - 1; /* in step before any callback can pause */
            left--;
            SH_SPAN_OR_GOTO(stop, on_header_field, pos, n, S_NAME_END, nq);
            SH_NOTE_OR_GOTO(stop, on_header_field_complete, S_OWS, nq + 1);
            if (SH_UNLIKELY(x == v)) { /* empty: set_empty_spans gives its span at the next line */
                if (p->_lenient & SH_OPT_EMPTY_SPANS) { /* (the general path: SH_VALUE_COMPLETE) */
                    pos = x + 2, p->_want = 3, ret = SH_WALK_FIELD_START;
                    goto out;
                }
            } else {
                SH_SPAN_OR_GOTO(stop, on_header_value, v, x - v, S_VALUE_END, x);
            }
            pos = x + 2;
        }
        if (SH_UNLIKELY(*pos <= ' ')) { /* a fold, the end of the head or an error */
            if (SH_IS_CRLF_AT(pos, hend)) { /* the end of the head: what field_start does */
                SH_NOTE_OR_GOTO(stop, on_header_value_complete, S_FIELD_START, pos);
                pos += 2;
                ret = SH_WALK_HEAD_END;
                if (headmode) goto out_head_end;
                goto out;
            }
            p->_want = 1;
            ret = SH_WALK_FIELD_START;
            goto out;
        }
        SH_NOTE_OR_GOTO(stop, on_header_value_complete, S_FIELD_START, pos);
    }
out:
    if (headmode) sh_fields_taken(p, h, f0, f, fspecial, special_hs, left);
    sh_walk_keep(w, pos, bb, bvb, bnt);
    return ret;
out_head_end:
    /* the head API at the head's end: it returns, so the walk's block, _hstate and the field
     * budget are dead (AVX2 callgrind: 26 instructions per head). (The same for the streaming
     * API, whose next head enters the budget afresh, moved its register allocation: +11.) */
    h->num_fields = (size_t)(f - h->fields);
    w->pos = pos;
    return ret;
stop:
    w->rc = rc;
    ret = SH_WALK_STOP;
    goto out;
}

/* The two instantiations sh_core calls. Inlined there: as separate functions (noinline) they
 * cost 1-4% more instructions per message (the call, the walk state through memory; AVX2
 * callgrind: browser-get head 2552 inlined, 2581 called; get-4h 962 / 1002; docs/simd.md). */
static SH_ALWAYS_INLINE int sh_fields_head(simdhttp_parser *p, simdhttp_head *h, sh_walk *w,
                                                            const uint8_t *data, const uint8_t *hend)
{
    return sh_fields(p, h, w, data, hend, 1);
}

static SH_ALWAYS_INLINE int sh_fields_stream(simdhttp_parser *p, sh_walk *w,
                                                              const uint8_t *data, const uint8_t *hend)
{
    return sh_fields(p, NULL, w, data, hend, 0);
}

/* ---- the chunked body (RFC 9112 section 7.1) ---- */

/* A size line of 1 to 15 digits and its CRLF, all in the buffer (the caller tested end - pos
 * >= 17: the 16 digit reads and the CRLF after 15 digits): the digits unrolled, with no end or
 * overflow test and no state stored: the size goes to *size (a local of the caller, so it stays
 * in a register up to the chunk data). @return the byte after the CRLF, or NULL: any other
 * line (no digit, a 16th digit, extensions, whitespace, a bare LF) takes the byte states from
 * its first byte, so every error and its offset is theirs. */
static SH_ALWAYS_INLINE const uint8_t *sh_chunk_size_fast(uint64_t *size, const uint8_t *pos)
{
    uint64_t acc = 0;
    unsigned i;
#pragma GCC unroll 16
    for (i = 0; i < 16; i++) {
        unsigned v = simdhttp_hex1[pos[i]];
        if (!v) break;
        acc = (acc << 4) + v - 1u; /* an add: shift and add in one lea */
    }
    if (SH_LIKELY(i - 1u < 15u && SH_IS_CRLF(pos + i))) {
        /* _idx and _ext_left, which a leading zero sets for the counting loop and the
         * extensions, are read by neither here: the line ends at its size */
        *size = acc;
        return pos + i + 2;
    }
    return NULL;
}

/* ---- the start line and field names ---- */

/* A method's last bytes [mark, q) were read, q at its SP: which method it is (the head API:
 * the whole method is in the buffer from h->method_str; streaming: the bytes kept from earlier
 * calls, if any, come first). */
static SH_ALWAYS_INLINE void sh_method_end(simdhttp_parser *p, simdhttp_head *h, const uint8_t *mark,
                                           const uint8_t *q, const int headmode)
{
    if (headmode) {
        h->method_len = (size_t)((const char *)q - h->method_str);
        p->method = (uint8_t)sh_classify_method_sp((const uint8_t *)h->method_str, h->method_len);
    } else if (p->_nlen == 0) {
        p->method = (uint8_t)sh_classify_method_sp(mark, (size_t)(q - mark));
    } else {
        sh_keep(p, mark, (size_t)(q - mark));
        p->method = p->_nlen <= sizeof p->_nbuf
                        ? (uint8_t)sh_classify_method((const uint8_t *)p->_nbuf, p->_nlen)
                        : SIMDHTTP_METHOD_OTHER;
    }
}

/* A field name's last bytes [mark, q) were read, q at its ':': whether it is a framing field
 * (p->_hstate), whose value is then interpreted. */
static SH_ALWAYS_INLINE void sh_field_name_end(simdhttp_parser *p, const uint8_t *mark, const uint8_t *q)
{
    const uint8_t *name = mark;
    size_t n = (size_t)(q - mark);
    if (p->flags & SIMDHTTP_F_TRAILERS) {
        p->_hstate = H_NONE; /* framing fields mean nothing in trailers (RFC 9110 6.5.1) */
    } else if (p->_nlen == 0) {
        p->_hstate = (uint8_t)sh_classify_name(mark, n);
    } else {
        sh_keep(p, mark, n);
        name = (const uint8_t *)p->_nbuf;
        n = p->_nlen;
        p->_hstate = n <= sizeof p->_nbuf ? (uint8_t)sh_classify_name(name, n) : H_NONE;
    }
    if (SH_UNLIKELY(p->_hstate)) {
        if (SH_UNLIKELY(p->_hstate == H_LOOKALIKE)) sh_lookalike_line(p, name, n);
        else sh_special_begin(p);
    }
}

/* ---- message begin and end ---- */

/* A new message in the streaming API: what the last one left in the parser is cleared. */
static SH_ALWAYS_INLINE void sh_message_reset(simdhttp_parser *p)
{
    p->flags = 0;
    p->content_length = 0;
    p->method = 0;
    p->status_code = 0;
    p->http_major = p->http_minor = 0;
    p->reasons = 0;
    p->_fields_left = p->_max_fields;
    SH_CLEAR_MSG_BYTES(p); /* (the head API's: sh_head, in merged stores) */
}

/* on_headers_complete returned SIMDHTTP_SKIP_BODY (or _UPGRADE: upgrade set). No body: lift
 * the close that only a body until close forced (a response to HEAD without framing, or with
 * a coding other than chunked), never the close of faulty framing (RFC 9112 6.1: HTTP/1.0
 * with Transfer-Encoding, Content-Length with it under chunked_length) or of a request without
 * a reliable length (6.3 rule 4, lenient transfer_encoding). */
static SH_ALWAYS_INLINE void sh_skip_body(simdhttp_parser *p, int upgrade)
{
    uint32_t f = p->flags;
    if ((f & SIMDHTTP_F_BODY_UNTIL_CLOSE) && sh_persists(p, f) &&
        (!(f & SIMDHTTP_F_TRANSFER_ENCODING) ||
         (p->type == SIMDHTTP_RESPONSE && !(p->_lenient & SIMDHTTP_LENIENT_CHUNKED_LENGTH))))
        f |= SIMDHTTP_F_KEEP_ALIVE;
    f |= SIMDHTTP_F_SKIP_BODY;
    f &= ~(uint32_t)(SIMDHTTP_F_BODY_UNTIL_CLOSE | SIMDHTTP_F_CHUNKED);
    if (upgrade) f |= SIMDHTTP_F_UPGRADE;
    p->flags = f;
}

/* The state after a complete message: upgraded, the next message, or dead (the connection
 * closes: only CR and LF may follow). */
static SH_ALWAYS_INLINE uint8_t sh_after_message(const simdhttp_parser *p, uint32_t lenient)
{
    if (p->flags & SIMDHTTP_F_UPGRADE) return S_UPGRADED;
    if ((p->flags & SIMDHTTP_F_KEEP_ALIVE) || (lenient & SIMDHTTP_LENIENT_KEEP_ALIVE) ||
        (p->type == SIMDHTTP_RESPONSE && p->status_code < 200 && p->status_code != 101))
        return S_MSG_START;
    return S_DEAD;
}

/* ---- the exits of sh_core: each returns what sh_core returns ---- */

/* Enter the head budget at pos: scans in the head stop at x->hend, and stage 2 drops the
 * block it read before (walk). */
static SH_ALWAYS_INLINE void sh_head_enter(simdhttp_parser *p, sh_ctx *x, sh_walk *walk, const uint8_t *pos,
                                           const uint8_t *end)
{
    x->hbase = pos;
    x->hend = (size_t)(end - pos) > p->_head_left ? pos + p->_head_left : end;
    walk->bb = (uintptr_t)end + 1;
}

/* Leave the head budget at pos: what was read of it counts against max_head_size. */
static SH_ALWAYS_INLINE void sh_head_leave(simdhttp_parser *p, sh_ctx *x, const uint8_t *pos, const int headmode)
{
    /* the head API's parser ends with its call: nothing reads its budget after the head, so
     * x->hbase is no value the head API keeps (in a register) throughout */
    if (headmode) return;
    if (x->hbase) {
        p->_head_left -= (uint32_t)(pos - x->hbase);
        x->hbase = NULL;
        x->hend = x->end;
    }
}

/* All len bytes taken. */
static SH_ALWAYS_INLINE long sh_exit_ok(simdhttp_parser *p, size_t len)
{
    p->_nread += len;
    return SIMDHTTP_OK;
}

/* The error in p->_error and p->_reason at errpos: the parser stays in S_ERROR. h: the head
 * API's result (headmode). */
static SH_ALWAYS_INLINE long sh_error_exit(simdhttp_parser *p, simdhttp_head *h, const uint8_t *data,
                                           const uint8_t *errpos, int byte, const int headmode)
{
    p->_state = S_ERROR;
    p->_error_pos = (const char *)errpos;
    p->_error_offset = p->_nread + (uint64_t)(errpos - data);
    if (headmode) {
        h->error = p->_error;
        h->error_reason = p->_reason;
        h->error_offset = (size_t)p->_error_offset;
        /* set, not left as the caller's memory held it: the header promises the zeros with
         * TOO_MANY_HEADERS, and a 431 answer needs the type to read method_str or reason */
        h->type = p->type;
        h->method = h->http_major = h->http_minor = 0;
        h->status_code = 0;
        h->flags = 0;
        h->content_length = 0;
        /* what was refused, last: nothing is live across the call (h kept across it cost the
         * head API a register throughout) */
        simdhttp__refusal(p, h, byte);
        return SIMDHTTP_HEAD_ERROR;
    }
    simdhttp__refusal(p, NULL, byte);
    return p->_error;
}

static SH_ALWAYS_INLINE long sh_exit_error(simdhttp_parser *p, sh_ctx *x, const uint8_t *pos, const int headmode)
{
    sh_head_leave(p, x, pos, headmode);
    /* the error's byte (hend: end, or the head budget's end, where an error's byte is never
     * past; the head API keeps no `end` in a register) */
    return sh_error_exit(p, x->h, x->data, x->errpos, x->errpos < x->hend ? *x->errpos : -1, headmode);
}

/* The input ends at pos: whether the scan stopped at the head budget, not at the end of the
 * input. @return 1 with the error set (the head is too large), else 0. */
static SH_ALWAYS_INLINE int sh_over_budget(simdhttp_parser *p, sh_ctx *x, const uint8_t *pos, const int headmode)
{
    /* (the head API is in its head until it returns) */
    if (SH_LIKELY((!headmode && !x->hbase) || x->hend == x->end)) return 0;
    p->_error = SIMDHTTP_E_HEADER_OVERFLOW;
    p->_reason = (p->flags & SIMDHTTP_F_TRAILERS) ? "trailer section larger than max_head_size"
                                                  : "head larger than max_head_size";
    x->errpos = pos;
    return 1;
}

/* The input ends at pos, p->_state set, within the head budget: wait for more (the head API:
 * INCOMPLETE). */
static SH_ALWAYS_INLINE long sh_exit_more(simdhttp_parser *p, sh_ctx *x, const uint8_t *pos, size_t len,
                                          const int headmode)
{
    sh_head_leave(p, x, pos, headmode);
    if (headmode) return SIMDHTTP_HEAD_INCOMPLETE;
    return sh_exit_ok(p, len);
}

/* A callback returned rc != 0 (p->_cb_which says which), pos where to resume (p->_state
 * set): a pause, or the user's error. */
static SH_ALWAYS_INLINE long sh_exit_stop(simdhttp_parser *p, sh_ctx *x, const uint8_t *pos, int rc)
{
    sh_head_leave(p, x, pos, 0);
    p->_error_pos = (const char *)pos;
    p->_error_offset = p->_nread + (uint64_t)(pos - x->data);
    p->_cb_rc = rc;
    /* a reason the callback gave (simdhttp_set_error_reason) is kept: _reason is NULL while
     * the parser runs */
    if (rc == p->_pause_rc) {
        p->_error = SIMDHTTP_E_PAUSED;
        if (!p->_reason) p->_reason = "paused by a callback";
        p->_nread = p->_error_offset; /* the caller passes the rest again after resume */
        return SIMDHTTP_E_PAUSED;
    }
    p->_error = SIMDHTTP_E_USER;
    if (!p->_reason) p->_reason = "a callback returned an error";
    p->_state = S_ERROR;
    return SIMDHTTP_E_USER;
}

/* The message before pos switched protocols: the parser stops there for good
 * (SIMDHTTP_E_PAUSED_UPGRADE), the bytes from pos on are the new protocol's. */
static SH_ALWAYS_INLINE long sh_exit_upgraded(simdhttp_parser *p, sh_ctx *x, const uint8_t *pos)
{
    p->upgrade = 1;
    p->_state = S_UPGRADED;
    p->_error = SIMDHTTP_E_PAUSED_UPGRADE;
    p->_reason = "connection upgraded: the following bytes are not HTTP/1";
    p->_error_pos = (const char *)pos;
    p->_error_offset = p->_nread + (uint64_t)(pos - x->data);
    p->_nread = p->_error_offset;
    return SIMDHTTP_E_PAUSED_UPGRADE;
}

/* ---- the parts of sh_core ----
 * One function per part of the message, each over the call's context x: it starts in the
 * state st (one of its own), moves pos (*pp in and out) and returns where sh_core goes on, an
 * SH_GO_* code; the exits (MORE, STOP, ERROR) leave p->_state, x->rc and x->errpos set. All
 * are always_inline: sh_core stays one function, and a code a part returns at a constant
 * becomes a jump straight to the next part. */
enum {
    SH_GO_ERROR,       /* the error at x->errpos (p->_error set) */
    SH_GO_MORE,        /* the input ends: wait in p->_state */
    SH_GO_STOP,        /* a callback returned x->rc: p->_state, pos where to resume */
    SH_GO_OK,          /* all the input taken, the next message not begun (p->_state set) */
    SH_GO_LINE_END,    /* pos at the CR or LF that ends a line; then p->_next */
    SH_GO_MSG_START,   /* the start line of a message, from pos (empty lines first) */
    SH_GO_NEXT_MSG,    /* the same after a message (the head budget entered at pos first) */
    SH_GO_VERSION,     /* the HTTP version of a start line (p->_idx bytes of it matched) */
    SH_GO_FIELD_START, /* a field line, the end of a head or an obs-fold, from pos */
    SH_GO_HEAD_DONE,   /* pos after the empty line that ends a head or a trailer section */
    SH_GO_HEAD_RETURN, /* the head API: its head ends at pos */
    SH_GO_BODY,        /* the body after on_headers_complete */
    SH_GO_CHUNKED,     /* a chunked body, from its first chunk line */
    SH_GO_CHUNK_EXT,   /* a chunk line's extensions, pos at SP, HTAB or ';' after the size */
    SH_GO_EXT_NAME,    /* the next chunk extension, after its ';' */
    SH_GO_EXT_VALUE,   /* a chunk extension's value, after its '=' */
    SH_GO_CHUNK_HEADER, /* a chunk line ended at pos */
    SH_GO_CHUNK_DONE,  /* a chunk's CRLF ended at pos */
    SH_GO_TRAILERS,    /* the last chunk: the trailer section from pos */
    SH_GO_TRAILERS_DONE, /* the trailer section ended at pos */
    SH_GO_MSG_DONE,    /* the message ends at pos */
    SH_GO_DISPATCH     /* go on in p->_state */
};

/* A label the paths to which are unlikely (gcc's cold label; clang has none) */
#if defined(__clang__)
#define SH_COLD_LABEL __attribute__((unused))
#else
#define SH_COLD_LABEL __attribute__((unused, cold))
#endif

/* The exits of a part, where its _EXIT macros jump: pos back to sh_core, which takes the exit
 * (SH_PART_STOP: a callback stopped the parser, rc its result). */
#define SH_PART_EXITS()                                                                     \
out_more: __attribute__((unused));                                                          \
    *pp = pos;                                                                              \
    return SH_GO_MORE;                                                                      \
out_error: __attribute__((unused));                                                         \
    *pp = pos;                                                                              \
    return SH_GO_ERROR;                                                                     \
out_error_cold: SH_COLD_LABEL;                                                              \
    *pp = pos;                                                                              \
    return SH_GO_ERROR
#define SH_PART_STOP()                                                                      \
cb_stop:                                                                                    \
    *pp = pos;                                                                              \
    x->rc = rc;                                                                             \
    return SH_GO_STOP
/* To the part's error exit: a cold path in the streaming API (measured: -0.3..-1.5%
 * instructions per message there; in the head API's function, +0.9% on post-10k.http). */
#define SH_ERROR_GOTO()                                                                     \
    do {                                                                                    \
        if (!headmode) goto out_error_cold;                                                 \
        goto out_error;                                                                     \
    } while (0)
/* Leave the part for sh_core's next step GO at pos. */
#define SH_PART_RETURN(GO)                                                                  \
    do {                                                                                    \
        *pp = pos;                                                                          \
        return (GO);                                                                        \
    } while (0)
/* ---- the start line (RFC 9112 sections 2.2, 3): empty lines before it, message begin, the
 * type of a BOTH parser, and a request-line's method and target; the version is the next
 * part's (a status-line's too) ---- */
static SH_ALWAYS_INLINE int sh_start_line(simdhttp_parser *p, sh_ctx *x, const uint8_t **pp, unsigned st,
                                        const int headmode)
{
    simdhttp_head *const h = x->h;
    const uint8_t *mark, *q, *pos = *pp;
    int rc;
    uint8_t c;

    switch (st) {
    case S_MSG_BEGUN: goto msg_begun;
    case S_DETECT: goto detect;
    case S_METHOD: goto method;
    case S_METHOD_END: goto method_end;
    case S_URL_START: goto url_start;
    case S_URL: goto url;
    case S_URL_END: goto url_end;
    default: break; /* S_MSG_START */
    }
    /* S_MSG_START: */
    /* RFC 9112 2.2: a server SHOULD ignore empty lines before the request-line; a client
     * gets them before a status-line too (a server's CRLF after a 100 Continue) and skips
     * them alike. */
    if (pos == x->hend) SH_MORE_EXIT(S_MSG_START);
    c = *pos;
    if (SH_UNLIKELY(c <= ' ') && (c == '\r' || c == '\n')) { /* (one test for every start line) */
        p->_next = S_MSG_START;
        SH_PART_RETURN(SH_GO_LINE_END);
    }
    if (!headmode) sh_message_reset(p); /* the head API's parser is fresh from simdhttp__configure_head */
    SH_NOTE_OR_EXIT(on_message_begin, S_MSG_BEGUN, pos);
msg_begun:
    if (p->type == SIMDHTTP_REQUEST) goto method_first;
    if (p->type == SIMDHTTP_RESPONSE) {
        p->_idx = 0;
        SH_PART_RETURN(SH_GO_VERSION);
    }
detect:
    /* BOTH: "HTTP/" starts a response; anything else is a request's method. A whole
     * "HTTP/" goes to the version from its first byte (its fast path takes "HTTP/1.x"). */
    if (p->_idx == 0 && SH_LIKELY(x->hend - pos >= 5)) {
        if (memcmp(pos, "HTTP/", 5) == 0) {
            p->type = SIMDHTTP_RESPONSE;
            SH_PART_RETURN(SH_GO_VERSION);
        }
        if (*pos != 'H') { /* a request whose method shares no byte with "HTTP/" (the loop below
                            * would match none) */
            p->type = SIMDHTTP_REQUEST;
            goto method_first;
        }
    }
    while (pos < x->hend && p->_idx < 5 && *pos == sh_http_prefix[p->_idx]) {
        pos++;
        p->_idx++;
    }
    if (p->_idx == 5) {
        p->type = SIMDHTTP_RESPONSE;
        SH_PART_RETURN(SH_GO_VERSION);
    }
    if (pos == x->hend) SH_MORE_EXIT(S_DETECT);
    p->type = SIMDHTTP_REQUEST;
    if (p->_idx) {
        /* the bytes matched so far were the method's first bytes */
        size_t k = p->_idx;
        if (headmode) {
            h->method_str = (const char *)pos - k; /* one buffer: they are right here */
        } else {
            sh_keep(p, sh_http_prefix, k);
            SH_SPAN_OR_EXIT(on_method, sh_http_prefix, k, S_METHOD, pos);
        }
        goto method;
    }
method_first:
    if (headmode) h->method_str = (const char *)pos;
    /* The two methods most requests use, whole with their SP: one compare instead of the
     * token scan and the classification (the SP is checked by the compare itself). */
    if (SH_LIKELY(x->hend - pos >= 5)) {
        mark = pos;
        if (sh_load32(pos) == sh_load32("GET ")) {
            p->method = SIMDHTTP_METHOD_GET;
            q = pos + 3;
            if (headmode) h->method_len = 3;
            goto method_span;
        }
        if (sh_load32(pos) == sh_load32("POST") && pos[4] == ' ') {
            p->method = SIMDHTTP_METHOD_POST;
            q = pos + 4;
            if (headmode) h->method_len = 4;
            goto method_span;
        }
    }
method:
    mark = pos;
    q = scan_token(pos, x->hend);
    if (SH_UNLIKELY(q == x->hend)) {
        sh_keep(p, mark, (size_t)(q - mark));
        SH_SPAN_END_OR_EXIT(on_method, mark, q - mark, S_METHOD, q, S_METHOD);
        pos = q;
        SH_MORE_EXIT(S_METHOD);
    }
    if (SH_UNLIKELY(*q != ' ' || (headmode ? q == (const uint8_t *)h->method_str
                                              : q == mark && p->_nlen == 0))) {
        SH_SPAN_END_BEFORE_ERR_OR_EXIT(on_method, mark, q - mark, S_METHOD, q, S_METHOD);
        SH_ERR_EXIT(SIMDHTTP_E_INVALID_METHOD, q, *q == ' ' ? "empty method" : "method is not a token");
    }
    sh_method_end(p, h, mark, q, headmode);
method_span:
    SH_SPAN_END_OR_EXIT(on_method, mark, q - mark, S_METHOD_END, q, S_METHOD);
    pos = q;
method_end:
    pos++; /* the SP */
    SH_NOTE_OR_EXIT(on_method_complete, S_URL_START, pos);
url_start:
    if (pos == x->hend) SH_MORE_EXIT(S_URL_START);
    if (*pos == ' ') SH_ERR_EXIT(SIMDHTTP_E_UNEXPECTED_SPACE, pos, "more than one SP after the method");
    if ((uint8_t)(*pos - 0x21) >= 0x5e) SH_ERR_EXIT(SIMDHTTP_E_INVALID_URL, pos, "empty or invalid request-target");
    if (headmode) h->target = (const char *)pos;
url:
    mark = pos;
    q = scan_target(pos, x->hend);
    if (SH_UNLIKELY(q == x->hend)) {
        SH_SPAN_END_OR_EXIT(on_url, mark, q - mark, S_URL, q, S_URL);
        pos = q;
        SH_MORE_EXIT(S_URL);
    }
    if (SH_UNLIKELY(*q != ' ')) {
        if (*q >= 0x80 && (x->lenient & SIMDHTTP_LENIENT_TARGET_OBS_TEXT)) {
            SH_REASON(p, TARGET_OBS_TEXT);
            q = sh_target_obs_text(q, x->hend);
            if (q < x->hend && *q == ' ') goto url_scanned;
            if (q == x->hend) {
                SH_SPAN_END_OR_EXIT(on_url, mark, q - mark, S_URL, q, S_URL);
                pos = q;
                SH_MORE_EXIT(S_URL);
            }
        }
        SH_SPAN_OR_EXIT(on_url, mark, q - mark, S_URL, q);
        if (*q == '\r' || *q == '\n')
            SH_ERR_EXIT(SIMDHTTP_E_INVALID_VERSION, q, "request-line has no HTTP version");
        SH_ERR_EXIT(SIMDHTTP_E_INVALID_URL, q, "invalid byte in request-target");
    }
url_scanned:
    if (headmode) h->target_len = (size_t)((const char *)q - h->target);
    /* The head API (no spans to give, no state to leave between): " HTTP/1.x" CRLF, the rest
     * of the usual request-line, in three compares; what url_end, version and after_version
     * do with it, and the same for anything else */
    if (headmode && SH_LIKELY(x->hend - q >= 11) && sh_load64(q) == sh_load64(" HTTP/1.") &&
        (uint8_t)(q[8] - '0') <= 1 && SH_IS_CRLF(q + 9)) { /* (1.2 and up: the verdict, below) */
        p->http_major = 1;
        p->http_minor = (uint8_t)(q[8] - '0');
        pos = q + 11;
        SH_PART_RETURN(SH_GO_FIELD_START);
    }
    SH_SPAN_END_OR_EXIT(on_url, mark, q - mark, S_URL_END, q, S_URL);
    pos = q;
url_end:
    pos++; /* the SP */
    p->_idx = 0;
    SH_NOTE_OR_EXIT(on_url_complete, S_VERSION, pos);
    SH_PART_RETURN(SH_GO_VERSION);

    SH_PART_EXITS();
    SH_PART_STOP();
}

/* ---- a start line's HTTP version (RFC 9112 section 2.3) and the rest of a status-line:
 * status code and reason phrase (section 4) ---- */
static SH_ALWAYS_INLINE int sh_version_status(simdhttp_parser *p, sh_ctx *x, const uint8_t **pp, unsigned st,
                                            const int headmode)
{
    simdhttp_head *const h = x->h;
    const uint8_t *mark = *pp, *q, *pos = *pp;
    int rc;
    uint8_t c;

    switch (st) {
    case S_VERSION_END: goto version_end;
    case S_AFTER_VERSION: goto after_version;
    case S_STATUS_CODE: goto status_code;
    case S_STATUS_CODE_END: goto status_code_end;
    case S_STATUS_SP: goto status_sp;
    case S_REASON: goto reason;
    case S_REASON_END: goto reason_end;
    default: break; /* S_VERSION */
    }
    /* S_VERSION: */
    /* "HTTP/" DIGIT "." DIGIT; the span is the DIGIT "." DIGIT part. Major version 1 only
     * (unless lenient); any minor: a higher one is processed as 1.1 (RFC 9110 2.5) and
     * http_minor says which it was. */
    if (p->_idx == 0 && SH_LIKELY(x->hend - pos >= 8) && memcmp(pos, "HTTP/1.", 7) == 0 &&
        (uint8_t)(pos[7] - '0') <= 1) { /* (1.2 and up: the verdict, below) */
        p->http_major = 1;
        p->http_minor = (uint8_t)(pos[7] - '0');
        SH_SPAN_OR_EXIT(on_version, pos + 5, 3, S_VERSION_END, pos + 8);
        pos += 8;
        goto version_end;
    }
    mark = pos;
    while (pos < x->hend && p->_idx < 8) {
        c = *pos;
        if (p->_idx < 5) {
            if (c != sh_http_prefix[p->_idx]) SH_ERR_EXIT(SIMDHTTP_E_INVALID_VERSION, pos, "expected \"HTTP/\"");
            mark = pos + 1;
        } else if (p->_idx == 6) {
            if (c != '.') goto version_bad;
        } else {
            if (c < '0' || c > '9') goto version_bad;
            if (p->_idx == 5) {
                p->http_major = (uint8_t)(c - '0');
                if (c != '1') {
                    if (!(x->lenient & SIMDHTTP_LENIENT_VERSION)) goto version_bad;
                    SH_REASON(p, VERSION_MAJOR);
                }
            } else {
                p->http_minor = (uint8_t)(c - '0');
                if (c > '1' && p->http_major == 1) SH_REASON(p, VERSION_MINOR);
            }
        }
        pos++;
        p->_idx++;
    }
    if (pos > mark || (p->_idx > 5 && SH_SPAN_WAS_OPEN(mark, S_VERSION))) /* (after "HTTP/" and a digit) */
        SH_SPAN_IF_OR_GOTO(cb_stop, on_version, mark, pos - mark, p->_idx < 8 ? S_VERSION : S_VERSION_END, pos, 1);
    if (p->_idx < 8) SH_MORE_EXIT(S_VERSION);
version_end:
    SH_NOTE_OR_EXIT(on_version_complete, S_AFTER_VERSION, pos);
after_version:
    if (pos == x->hend) SH_MORE_EXIT(S_AFTER_VERSION);
    c = *pos;
    if (p->type == SIMDHTTP_REQUEST) {
        p->_want = 0;
        if (SH_LIKELY(c == '\r') && x->hend - pos >= 2 && pos[1] == '\n') { /* what line_end does */
            pos += 2;
            SH_PART_RETURN(SH_GO_FIELD_START);
        }
        if (c != '\r' && c != '\n') SH_ERR_EXIT(SIMDHTTP_E_INVALID_VERSION, pos, "junk after the HTTP version");
        p->_next = S_FIELD_START;
        SH_PART_RETURN(SH_GO_LINE_END);
    }
    if (c != ' ') {
        if (c == '\r' || c == '\n') SH_ERR_EXIT(SIMDHTTP_E_INVALID_STATUS, pos, "status-line has no status code");
        SH_ERR_EXIT(SIMDHTTP_E_INVALID_VERSION, pos, "junk after the HTTP version");
    }
    pos++;
    p->_idx = 0;
    p->status_code = 0;
status_code:
    mark = pos;
    if (p->_idx == 0 && SH_LIKELY(x->hend - pos >= 3) && (uint8_t)(pos[0] - '1') <= 8 &&
        (uint8_t)(pos[1] - '0') <= 9 && (uint8_t)(pos[2] - '0') <= 9) { /* the usual case */
        p->status_code = (uint16_t)(pos[0] * 100 + pos[1] * 10 + pos[2] - '0' * 111);
        SH_SPAN_OR_EXIT(on_status_code, pos, 3, S_STATUS_CODE_END, pos + 3);
        pos += 3;
        goto status_code_end;
    }
    while (pos < x->hend && p->_idx < 3) {
        c = *pos;
        if (c < '0' || c > '9' || (p->_idx == 0 && c == '0')) {
            SH_SPAN_OR_EXIT(on_status_code, mark, pos - mark, S_STATUS_CODE, pos);
            SH_ERR_EXIT(SIMDHTTP_E_INVALID_STATUS, pos, "status code is not three digits from 100 to 999");
        }
        p->status_code = (uint16_t)(p->status_code * 10 + (c - '0'));
        pos++;
        p->_idx++;
    }
    SH_SPAN_OR_EXIT(on_status_code, mark, pos - mark, p->_idx < 3 ? S_STATUS_CODE : S_STATUS_CODE_END, pos);
    if (p->_idx < 3) SH_MORE_EXIT(S_STATUS_CODE);
status_code_end:
    SH_NOTE_OR_EXIT(on_status_code_complete, S_STATUS_SP, pos);
status_sp:
    if (pos == x->hend) SH_MORE_EXIT(S_STATUS_SP);
    c = *pos;
    if (c == '\r' || c == '\n') { /* no reason phrase, no SP: accepted, as by most clients */
        if (headmode) h->reason = (const char *)pos, h->reason_len = 0;
        goto reason_end;
    }
    if (c != ' ') SH_ERR_EXIT(SIMDHTTP_E_INVALID_STATUS, pos, "status code is not three digits from 100 to 999");
    pos++;
    if (headmode) h->reason = (const char *)pos;
reason:
    mark = pos;
    q = scan_value(pos, x->hend);
    if (q == x->hend) {
        SH_SPAN_END_OR_EXIT(on_status, mark, q - mark, S_REASON, q, S_REASON);
        pos = q;
        /* no byte of it yet, unless in an earlier call: S_REASON0 says which */
        if (!headmode && q == mark && (x->lenient & SH_OPT_EMPTY_SPANS) && !SH_SPAN_WAS_OPEN(mark, S_REASON))
            SH_MORE_EXIT(S_REASON0);
        SH_MORE_EXIT(S_REASON);
    }
    if (*q != '\r' && *q != '\n') {
        SH_SPAN_OR_EXIT(on_status, mark, q - mark, S_REASON, q);
        SH_ERR_EXIT(SIMDHTTP_E_INVALID_STATUS, q, "control byte in the reason phrase");
    }
    if (headmode) h->reason_len = (size_t)((const char *)q - h->reason);
    SH_SPAN_END_OR_EXIT(on_status, mark, q - mark, S_REASON_END, q, S_REASON);
    pos = q;
reason_end:
    p->_want = 0;
    p->_next = S_FIELD_START;
    SH_NOTE_OR_EXIT(on_status_complete, S_LINE_END, pos);
    SH_PART_RETURN(SH_GO_LINE_END);

version_bad:
    if (pos > mark) SH_SPAN_OR_EXIT(on_version, mark, pos - mark, S_VERSION, pos);
    SH_ERR_EXIT(SIMDHTTP_E_INVALID_VERSION, pos,
           p->_idx == 6 ? "expected '.' in the HTTP version"
                        : p->_idx == 5 ? "HTTP major version is not 1" : "HTTP minor version is not a digit");

    SH_PART_EXITS();
    SH_PART_STOP();
}

/* ---- a line end (RFC 9112 section 2.2): CRLF, or what the lenient flags allow, at pos; then
 * the part p->_next says ---- */
static SH_ALWAYS_INLINE int sh_line_end(simdhttp_parser *p, sh_ctx *x, const uint8_t **pp, unsigned st,
                                       const int headmode)
{
    const uint8_t *pos = *pp;

    switch (st) {
    case S_LINE_LF: goto line_lf;
    default: break; /* S_LINE_END */
    }
    /* S_LINE_END: */
    /* at a CR or LF that ends a line; then continue at p->_next */
    if (*pos == '\n') {
        if (!(x->lenient & SIMDHTTP_LENIENT_OPTIONAL_CR_BEFORE_LF))
            SH_ERR_EXIT(SIMDHTTP_E_CR_EXPECTED, pos, "LF without CR (bare LF)");
        /* (empty lines before a start line belong to no message: RFC 9112 2.2 lets a
         * recipient skip them; the verdict does not count them) */
        if (p->_next != S_MSG_START) SH_REASON(p, BARE_LF);
        pos++;
        goto line_next;
    }
    pos++;
line_lf:
    if (pos == x->hend) SH_MORE_EXIT(S_LINE_LF);
    if (*pos == '\n') {
        pos++;
    } else if (!(x->lenient & SIMDHTTP_LENIENT_OPTIONAL_LF_AFTER_CR) &&
               !((x->lenient & SIMDHTTP_LENIENT_FIELD_BARE_CR) && p->_next == S_FIELD_START && p->_want)) {
        /* _want (a field line's end) is owned by message begin: test _next first, as a CR
         * among the empty lines before a start line comes before any message begins */
        SH_ERR_EXIT(SIMDHTTP_E_LF_EXPECTED, pos, "CR not followed by LF");
    } else if (p->_next != S_MSG_START) {
        SH_REASON(p, BARE_CR);
    }
line_next:
    switch (p->_next) {
    case S_MSG_START: SH_PART_RETURN(SH_GO_MSG_START);
    case S_FIELD_START: SH_PART_RETURN(SH_GO_FIELD_START);
    case S_HEAD_DONE: SH_PART_RETURN(SH_GO_HEAD_DONE);
    case S_CHUNK_HEADER: SH_PART_RETURN(SH_GO_CHUNK_HEADER);
    default: SH_PART_RETURN(SH_GO_CHUNK_DONE);
    }

    SH_PART_EXITS();
}

/* ---- field lines (RFC 9112 section 5) of a head or a trailer section: stage 2 takes the
 * runs of ordinary ones (sh_fields_*), the states below the rest, byte by byte where they
 * must ---- */
static SH_ALWAYS_INLINE int sh_field_lines(simdhttp_parser *p, sh_ctx *x, sh_walk *walk, const uint8_t **pp, unsigned st,
                                         const int headmode)
{
    simdhttp_head *const h = x->h;
    simdhttp_field *f = NULL;
    const uint8_t *mark, *q, *pos = *pp;
    int rc;
    uint8_t c;

    switch (st) {
    case S_FOLD_WS: goto fold_ws;
    case S_FIELD_NAME: goto field_name;
    case S_NAME_END: goto name_end;
    case S_OWS: goto ows;
    case S_FIELD_VALUE: goto field_value;
    case S_VALUE_END: goto value_end;
    default: break; /* S_FIELD_START */
    }
field_start:
    if (SH_UNLIKELY(pos == x->hend)) SH_MORE_EXIT(S_FIELD_START);
    c = *pos;
    if (SH_LIKELY(c > ' ')) {
        /* a field name's first byte (or an invalid one): no fold, not the end of the head */
        if (p->_want) SH_VALUE_COMPLETE_OR_EXIT();
        goto field_line;
    }
    if (SH_UNLIKELY(SH_IS_WS(c))) {
        if (!p->_want || !(x->lenient & SIMDHTTP_LENIENT_OBS_FOLD))
            SH_ERR_EXIT(SIMDHTTP_E_UNEXPECTED_SPACE, pos,
                   p->_want ? "obs-fold (field line continued on the next line)"
                            : "whitespace before the first field line");
        /* obs-fold: the line break and leading whitespace become one SP of the value */
        SH_REASON(p, OBS_FOLD);
        if (headmode) {
            if (h->num_fields == h->fields_cap)
                SH_ERR_EXIT(SIMDHTTP_E_TOO_MANY_HEADERS, pos, "more field lines than head->fields_cap");
            f = &h->fields[h->num_fields++];
            f->name = NULL;
            f->name_len = 0;
        }
        if (p->_hstate) sh_special_feed(p, (const uint8_t *)" ", (const uint8_t *)" " + 1);
        p->_want = 1; /* the fold's SP: not empty */
        SH_SPAN_OR_EXIT(on_header_value, " ", 1, S_FOLD_WS, pos);
        goto fold_ws;
    }
    if (p->_want) SH_VALUE_COMPLETE_OR_EXIT();
    if (SH_UNLIKELY(c == '\r' || c == '\n')) {
        p->_next = S_HEAD_DONE;
        SH_PART_RETURN(SH_GO_LINE_END);
    }
field_line:
    /* Stage 2 (sh_fields_*, above): a run of whole, ordinary field lines; it stops at the
     * start of the first line it does not take, which the general path below takes from its
     * first byte (the error, the partial line, the special field in the streaming API). */
    if (SH_LIKELY(!(p->flags & SIMDHTTP_F_TRAILERS))) {
        walk->pos = pos;
        rc = headmode ? sh_fields_head(p, h, walk, x->data, x->hend)
                      : sh_fields_stream(p, walk, x->data, x->hend);
        pos = walk->pos;
        if (SH_UNLIKELY(rc != SH_WALK_GENERAL)) {
            if (rc == SH_WALK_HEAD_END) SH_PART_RETURN(SH_GO_HEAD_DONE);
            if (rc == SH_WALK_FIELD_START) goto field_start;
            if (rc == SH_WALK_ERROR) {
                x->errpos = pos;
                SH_ERROR_GOTO();
            }
            rc = walk->rc;
            goto cb_stop;
        }
    }
    if (SH_UNLIKELY(p->_fields_left == 0))
        SH_ERR_EXIT(SIMDHTTP_E_TOO_MANY_HEADERS, pos, "more field lines than max_fields");
    p->_fields_left--;
    if (headmode) {
        if (h->num_fields == h->fields_cap)
            SH_ERR_EXIT(SIMDHTTP_E_TOO_MANY_HEADERS, pos, "more field lines than head->fields_cap");
        f = &h->fields[h->num_fields++];
        f->name = (const char *)pos;
    }
    p->_nlen = 0;
field_name:
    mark = pos;
    q = scan_token(pos, x->hend);
    if (SH_UNLIKELY(q == x->hend)) {
        sh_keep(p, mark, (size_t)(q - mark));
        SH_SPAN_END_OR_EXIT(on_header_field, mark, q - mark, S_FIELD_NAME, q, S_FIELD_NAME);
        pos = q;
        SH_MORE_EXIT(S_FIELD_NAME);
    }
    if (SH_UNLIKELY(*q != ':' || (q == mark && p->_nlen == 0))) {
        if (q == mark && p->_nlen == 0 && *q == ':') {
            SH_SPAN0_BEFORE_ERR_OR_EXIT(on_header_field, mark, 0, S_FIELD_NAME, q);
            SH_ERR_EXIT(SIMDHTTP_E_INVALID_HEADER_TOKEN, q, "empty field name");
        }
        SH_SPAN_OR_EXIT(on_header_field, mark, q - mark, S_FIELD_NAME, q);
        if (SH_IS_WS(*q)) SH_ERR_EXIT(SIMDHTTP_E_UNEXPECTED_SPACE, q, "whitespace between field name and ':'");
        if (*q == '\r' || *q == '\n') SH_ERR_EXIT(SIMDHTTP_E_INVALID_HEADER_TOKEN, q, "field line has no ':'");
        SH_ERR_EXIT(SIMDHTTP_E_INVALID_HEADER_TOKEN, q, "invalid byte in field name");
    }
    sh_field_name_end(p, mark, q);
    if (headmode) f->name_len = (size_t)((const char *)q - f->name);
    SH_SPAN_END_OR_EXIT(on_header_field, mark, q - mark, S_NAME_END, q, S_FIELD_NAME);
    pos = q;
name_end:
    pos++; /* the ':' */
    p->_want = 2; /* the value is empty until a byte of it comes (SH_VALUE_COMPLETE) */
    SH_NOTE_OR_EXIT(on_header_field_complete, S_OWS, pos);
ows:
    while (pos < x->hend && SH_IS_WS(*pos)) pos++;
    if (SH_UNLIKELY(pos == x->hend)) SH_MORE_EXIT(S_OWS);
field_value:
    mark = pos;
    if (headmode) f->value = (const char *)pos;
    q = scan_value(pos, x->hend);
    if (SH_UNLIKELY(x->lenient & SIMDHTTP_LENIENT_HEADERS))
        while (q < x->hend && *q != '\r' && *q != '\n' && *q != 0) {
            /* a control byte: in the verdict, but not in Content-Length or Transfer-Encoding,
             * whose values the feed below reads, and may refuse before that byte (were it in
             * the verdict here, where the stream was split would change it); the one place
             * they take one, a coding parameter's quoted-string, notes it (sh_special_feed) */
            if ((unsigned)(p->_hstate - H_CONTENT_LENGTH) > H_TRANSFER_ENCODING - H_CONTENT_LENGTH)
                SH_REASON(p, CTL_IN_VALUE);
            q = scan_value(q + 1, x->hend);
        }
    if (SH_UNLIKELY(p->_hstate)) {
        const uint8_t *bad = sh_special_feed(p, mark, q);
        if (bad) {
            SH_SPAN0_BEFORE_ERR_OR_EXIT(on_header_value, mark, bad - mark, S_FIELD_VALUE, bad);
            x->errpos = bad;
            SH_ERROR_GOTO();
        }
    }
    if (SH_UNLIKELY(q == x->hend)) {
        p->_want = 1; /* a byte of the value came: not empty */
        SH_SPAN_END_OR_EXIT(on_header_value, mark, q - mark, S_FIELD_VALUE, q, S_FIELD_VALUE);
        pos = q;
        SH_MORE_EXIT(S_FIELD_VALUE);
    }
    c = *q;
    if (SH_UNLIKELY(c != '\r' && c != '\n')) {
        SH_SPAN0_BEFORE_ERR_OR_EXIT(on_header_value, mark, q - mark, S_FIELD_VALUE, q);
        SH_ERR_EXIT(SIMDHTTP_E_INVALID_HEADER_VALUE, q,
               c == 0 ? "NUL in a field value" : "control byte in a field value");
    }
    if (SH_UNLIKELY(p->_hstate) && sh_special_end(p)) {
        SH_SPAN_OR_EXIT(on_header_value, mark, q - mark, S_FIELD_VALUE, q);
        x->errpos = q;
        SH_ERROR_GOTO();
    }
    if (headmode) {
        const uint8_t *t = q;
        while (t > (const uint8_t *)f->value && SH_IS_WS(t[-1])) t--;
        f->value_len = (size_t)(t - (const uint8_t *)f->value);
    }
    if (q != mark) p->_want = 1; /* a byte of the value came: not empty */
    SH_SPAN_END_OR_EXIT(on_header_value, mark, q - mark, S_VALUE_END, q, S_FIELD_VALUE);
    pos = q;
value_end:
    p->_want |= 1; /* on_header_value_complete once the next line is not an obs-fold */
    if (SH_LIKELY(*pos == '\r' && x->hend - pos >= 2 && pos[1] == '\n')) {
        pos += 2;
        goto field_start;
    }
    p->_next = S_FIELD_START;
    SH_PART_RETURN(SH_GO_LINE_END);

fold_ws: /* an obs-fold's leading whitespace, after the one SP it becomes */
    while (pos < x->hend && SH_IS_WS(*pos)) pos++;
    if (pos == x->hend) SH_MORE_EXIT(S_FOLD_WS);
    goto field_value;

    SH_PART_EXITS();
    SH_PART_STOP();
}

/* ---- the end of a head (the empty line read): its framing (RFC 9112 section 6.3), then
 * on_headers_complete; or the end of a trailer section ---- */
static SH_ALWAYS_INLINE int sh_head_done(simdhttp_parser *p, sh_ctx *x, const uint8_t **pp, const int headmode)
{
    const uint8_t *pos = *pp;
    int rc;

    sh_head_leave(p, x, pos, headmode);
    if (p->flags & SIMDHTTP_F_TRAILERS) {
        if (headmode) SH_PART_RETURN(SH_GO_HEAD_RETURN); /* a bare field block (simdhttp_parse_fields) */
        SH_PART_RETURN(SH_GO_TRAILERS_DONE);
    }
    if (sh_head_framing(p)) {
        x->errpos = pos;
        SH_ERROR_GOTO();
    }
    if (headmode) SH_PART_RETURN(SH_GO_HEAD_RETURN);
    if (p->_cb->on_headers_complete) {
        p->_state = S_HEAD_DONE; /* resumed into after a pause: goes on with the body */
        rc = p->_cb->on_headers_complete(p);
        if (rc == SIMDHTTP_SKIP_BODY || rc == SIMDHTTP_SKIP_BODY_UPGRADE) {
            sh_skip_body(p, rc == SIMDHTTP_SKIP_BODY_UPGRADE);
            rc = 0;
        }
        if (SH_UNLIKELY(rc)) {
            p->_cb_which = SH_CB_ID(on_headers_complete);
            goto cb_stop;
        }
    }
    SH_PART_RETURN(SH_GO_BODY);

    SH_PART_EXITS();
    SH_PART_STOP();
}

/* ---- the body (RFC 9112 section 6.3) when not chunked, the message's end, and the bytes
 * after a message that closed the connection ---- */
static SH_ALWAYS_INLINE int sh_body(simdhttp_parser *p, sh_ctx *x, const uint8_t **pp, unsigned st,
                                  const int headmode)
{
    const uint8_t *pos = *pp, *const end = x->end, *mark;
    int rc;

    switch (st) {
    case S_BODY_CL: goto body_cl_resumed;
    case S_BODY_EOF: goto body_eof;
    case S_MSG_DONE: goto msg_done;
    case S_DEAD: goto dead;
    default: break; /* S_HEAD_DONE */
    }
    /* S_HEAD_DONE: */
    if (p->flags & SIMDHTTP_F_SKIP_BODY) goto msg_done;
    if (p->flags & SIMDHTTP_F_CHUNKED) {
        SH_PART_RETURN(SH_GO_CHUNKED);
    }
    if (p->flags & SIMDHTTP_F_BODY_UNTIL_CLOSE) goto body_eof;
    if (p->content_length == 0) goto msg_done;
    /* no byte of the body yet: S_HEAD_DONE, where S_BODY_CL would say a span is open */
    if (pos == end) SH_MORE_EXIT(S_HEAD_DONE);
    goto body_cl;

    /* ---------------------------------------------------------------- bodies ---- */
body_cl_resumed:
    if (pos == end) {
        SH_SPAN_END_OR_EXIT(on_body, pos, 0, S_BODY_CL, pos, S_BODY_CL);
        SH_MORE_EXIT(S_BODY_CL);
    }
body_cl: {
    uint64_t left = p->content_length;
    SH_BODY_BYTES_OR_EXIT(left, S_BODY_CL, S_MSG_DONE);
}
    goto msg_done;

body_eof:
    if (pos < end) {
        mark = pos;
        pos = end;
        SH_SPAN_OR_EXIT(on_body, mark, end - mark, S_BODY_EOF, end);
        SH_MORE_EXIT(S_BODY_EOF);
    }
    /* No byte: the span is open only if it was when this call began. Before the body's first
     * byte the state is S_HEAD_DONE where empty spans are given (simdhttp_finish() takes that
     * state as S_BODY_EOF: its empty execute() gives none). */
    SH_SPAN_END_OR_EXIT(on_body, pos, 0, S_BODY_EOF, pos, S_BODY_EOF);
    if ((p->_lenient & SH_OPT_EMPTY_SPANS) && !SH_SPAN_WAS_OPEN(pos, S_BODY_EOF)) SH_MORE_EXIT(S_HEAD_DONE);
    SH_MORE_EXIT(S_BODY_EOF);

msg_done: {
    uint8_t next = sh_after_message(p, x->lenient);
    p->_head_left = p->_max_head_size;
    SH_NOTE_OR_EXIT(on_message_complete, next, pos);
    p->_state = next;
    /* The usual next message: dispatch's case without its switch; and when the buffer is
     * used up (a keep-alive connection's next request comes in a later call), what msg_start
     * and out_more do then, without entering and leaving the head budget (31 instructions per
     * message, AVX2 callgrind). The head API never gets here: !headmode leaves its function
     * as it was (its register allocation moved by up to +32 without it). */
    if (!headmode && SH_LIKELY(next == S_MSG_START)) {
        if (pos == end) SH_PART_RETURN(SH_GO_OK);
        SH_PART_RETURN(SH_GO_NEXT_MSG);
    }
    SH_PART_RETURN(SH_GO_DISPATCH);
}

dead:
    /* after Connection: close. CR and LF are tolerated (some clients add CRLF after a body). */
    while (pos < end && (*pos == '\r' || *pos == '\n')) pos++;
    if (pos < end && (x->lenient & SIMDHTTP_LENIENT_DATA_AFTER_CLOSE)) {
        SH_REASON(p, DATA_AFTER_CLOSE); /* (the last message's verdict: no message begins) */
        pos = end;
    }
    if (pos < end) {
        p->reasons = 0; /* the refused bytes' verdict, not the closed message's */
        SH_ERR_EXIT(SIMDHTTP_E_CLOSED_CONNECTION, pos, "data after a message that closed the connection");
    }
    SH_MORE_EXIT(S_DEAD);

    SH_PART_EXITS();
    SH_PART_STOP();
}

/* ---- the chunked body (RFC 9112 section 7.1): chunk lines without extensions (the next
 * part takes those), chunk data, the last chunk; from state st (a chunk state, or
 * S_TRAILERS_DONE after the trailer section) ---- */
static SH_ALWAYS_INLINE int sh_chunked(simdhttp_parser *p, sh_ctx *x, const uint8_t **pp, unsigned st,
                                     const int headmode)
{
    const uint8_t *pos = *pp, *const end = x->end, *mark, *q;
    uint64_t left;
    int rc;
    uint8_t c;

    switch (st) {
    case S_CHUNK_SIZE: goto chunk_size;
    case S_CHUNK_SIZE_COUNTED: goto chunk_size_counted;
    case S_CHUNK_HEADER: goto chunk_header;
    case S_CHUNK_DATA: goto chunk_data;
    case S_CHUNK_DATA_END: goto chunk_data_end;
    case S_CHUNK_DONE: goto chunk_done;
    case S_TRAILERS_DONE: goto trailers_done;
    default: break; /* S_CHUNK_SIZE_START */
    }
chunk_size_start:
    /* Fast path: the usual size line at once (sh_chunk_size_fast); any other takes the byte
     * states below from its first byte. The head API never gets here: !headmode leaves its
     * function as it was. */
    if (!headmode && SH_LIKELY(end - pos >= 17) && (q = sh_chunk_size_fast(&left, pos)) != NULL) {
        pos = q;
        goto chunk_header_left;
    }
chunk_size_bytes:
    if (pos == end) SH_MORE_EXIT(S_CHUNK_SIZE_START);
    c = *pos;
    if (simdhttp_hex1[c] - 1u > 15) SH_ERR_EXIT(SIMDHTTP_E_INVALID_CHUNK_SIZE, pos, "chunk size is not a hex number");
    p->_acc = simdhttp_hex1[c] - 1u;
    pos++;
    /* every byte of a chunk line past the 16 digits a 64-bit size needs counts against
     * max_chunk_ext: leading zeros beyond them too, so that no chunk line is unbounded (each
     * of its bytes is taken with no callback a caller could count). Only a size that starts
     * with a zero can have more than 16 digits (otherwise the overflow test stops it first):
     * such a size takes the counting loop, every other the loop of one test per digit. */
    if (SH_UNLIKELY(p->_acc == 0)) {
        p->_idx = 1; /* the digits so far, up to 16 (then the budget counts) */
        p->_ext_left = p->_max_chunk_ext;
        goto chunk_size_counted;
    }
chunk_size:
    { /* the digits, in a register (p->_acc between calls) */
        uint64_t acc = p->_acc;
        while (pos < end) {
            unsigned v = simdhttp_hex1[*pos] - 1u;
            if (v > 15) {
                p->_acc = acc;
                c = *pos;
                goto chunk_size_end;
            }
            if (acc >> 60) {
                p->_acc = acc;
                SH_ERR_EXIT(SIMDHTTP_E_INVALID_CHUNK_SIZE, pos, "chunk size overflows 64 bits");
            }
            acc = acc << 4 | v;
            pos++;
        }
        p->_acc = acc;
    }
    SH_MORE_EXIT(S_CHUNK_SIZE);
chunk_size_counted:
    { /* the same, counting: p->_idx digits so far up to 16, the line's budget past them */
        uint64_t acc = p->_acc;
        unsigned nd = p->_idx;
        while (pos < end) {
            unsigned v = simdhttp_hex1[*pos] - 1u;
            if (v > 15) {
                p->_acc = acc;
                c = *pos;
                goto chunk_size_end_counted;
            }
            if (acc >> 60) {
                p->_acc = acc;
                SH_ERR_EXIT(SIMDHTTP_E_INVALID_CHUNK_SIZE, pos, "chunk size overflows 64 bits");
            }
            if (nd == 16) { /* a 17th digit or more: a leading zero was one */
                if (p->_ext_left == 0) {
                    p->_acc = acc;
                    SH_ERR_EXIT(SIMDHTTP_E_CHUNK_EXTENSIONS_OVERFLOW, pos,
                           "chunk size has more leading zeros than max_chunk_ext allows");
                }
                p->_ext_left--;
            } else {
                nd++;
            }
            acc = acc << 4 | v;
            pos++;
        }
        p->_acc = acc;
        p->_idx = (uint16_t)nd;
    }
    SH_MORE_EXIT(S_CHUNK_SIZE_COUNTED);
chunk_size_end:
    if (c != '\r' && c != '\n') {
        p->_ext_left = p->_max_chunk_ext; /* the line's whole budget */
        SH_PART_RETURN(SH_GO_CHUNK_EXT);
    }
    goto chunk_size_crlf;
chunk_size_end_counted: /* the budget is what the size's leading zeros left */
    if (c != '\r' && c != '\n') SH_PART_RETURN(SH_GO_CHUNK_EXT);
chunk_size_crlf:
    if (SH_LIKELY(SH_IS_CRLF_AT(pos, end))) { /* what line_end does */
        pos += 2;
        goto chunk_header;
    }
    p->_next = S_CHUNK_HEADER;
    SH_PART_RETURN(SH_GO_LINE_END);
chunk_header:
    left = p->_acc;
chunk_header_left: /* the size in left (the fast path's lines store no _acc) */
    p->content_length = left;
    if (left == 0) goto last_chunk;
    SH_NOTE_OR_EXIT(on_chunk_header, SH_CHUNK_DATA_START, pos);
    goto chunk_data_left;
last_chunk:
    /* the trailer section follows, with the head's limits */
    p->flags |= SIMDHTTP_F_TRAILERS;
    p->_head_left = p->_max_head_size;
    p->_fields_left = p->_max_fields;
    p->_want = 0;
    SH_NOTE_OR_EXIT(on_chunk_header, S_FIELD_START, pos);
    *pp = pos;
    return SH_GO_TRAILERS;
chunk_data:
    left = p->content_length;
    if (pos == end) SH_SPAN_END_OR_EXIT(on_body, pos, 0, S_CHUNK_DATA, pos, S_CHUNK_DATA);
chunk_data_left:
    if (pos == end) {
        /* no byte of it yet, unless in an earlier call: S_CHUNK_DATA0 says which */
        if ((x->lenient & SH_OPT_EMPTY_SPANS) && !SH_SPAN_WAS_OPEN(pos, S_CHUNK_DATA)) SH_MORE_EXIT(S_CHUNK_DATA0);
        SH_MORE_EXIT(S_CHUNK_DATA);
    }
chunk_data_bytes: /* pos < end */
    SH_BODY_BYTES_OR_EXIT(left, S_CHUNK_DATA, S_CHUNK_DATA_END);
chunk_data_end:
    /* the usual CRLF, tested first (what line_end does), with the bound of the next size line
     * and one byte after it: its chunk's data starts in the buffer (chunk_data_bytes). (The
     * bound as pos + 20 <= end: one lea and a compare, where end - pos took a copy too.) */
    if (!headmode && SH_LIKELY((uintptr_t)pos + 20 <= (uintptr_t)end && SH_IS_CRLF(pos))) {
        pos += 2;
        SH_NOTE_OR_EXIT(on_chunk_complete, S_CHUNK_SIZE_START, pos);
        if ((q = sh_chunk_size_fast(&left, pos)) != NULL) { /* the bound is tested */
            pos = q;
            p->content_length = left;
            if (left == 0) goto last_chunk;
            SH_NOTE_OR_EXIT(on_chunk_header, SH_CHUNK_DATA_START, pos);
            goto chunk_data_bytes;
        }
        goto chunk_size_bytes;
    }
    if (SH_LIKELY(SH_IS_CRLF_AT(pos, end))) {
        pos += 2;
        goto chunk_done;
    }
    if (pos == end) SH_MORE_EXIT(S_CHUNK_DATA_END);
    c = *pos;
    if (c == '\r' || c == '\n') {
        p->_next = S_CHUNK_DONE;
        SH_PART_RETURN(SH_GO_LINE_END);
    }
    if (!(x->lenient & SIMDHTTP_LENIENT_OPTIONAL_CRLF_AFTER_CHUNK))
        SH_ERR_EXIT(SIMDHTTP_E_CR_EXPECTED, pos, "chunk data not followed by CRLF");
    SH_REASON(p, CHUNK_DATA_NO_CRLF);
chunk_done:
    SH_NOTE_OR_EXIT(on_chunk_complete, S_CHUNK_SIZE_START, pos);
    goto chunk_size_start;

trailers_done:
    SH_NOTE_OR_EXIT(on_chunk_complete, S_MSG_DONE, pos);
    *pp = pos;
    return SH_GO_MSG_DONE;

    SH_PART_EXITS();
    SH_PART_STOP();
}

/* ---- a chunk line's extensions (RFC 9112 section 7.1.1): chunk-ext = *( BWS ";" BWS
 * chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ), and a recipient parses and removes BWS (RFC
 * 9110 5.6.3). SP/HTAB right before the line end belongs to no rule: refused unless lenient
 * spaces_after_chunk_size. Every byte after the size counts against max_chunk_ext. Here: the
 * whitespace after the size, each ';' and name; sh_chunk_ext_value below takes a value ---- */
static SH_ALWAYS_INLINE int sh_chunk_ext(simdhttp_parser *p, sh_ctx *x, const uint8_t **pp, unsigned st,
                                       const int headmode)
{
    const uint8_t *pos = *pp, *const end = x->end, *mark;
    int rc;
    uint8_t c;

    switch (st) {
    case S_EXT_NAME_START: goto ext_name_start;
    case S_EXT_NAME: goto ext_name;
    case S_EXT_NAME_END: goto ext_name_end;
    case S_EXT_AFTER_NAME: goto ext_after_name;
    default: break; /* S_CHUNK_SIZE_WS, pos at SP, HTAB or ';' */
    }
    /* S_CHUNK_SIZE_WS: */
    while (pos < end && SH_IS_WS(*pos)) SH_EXT_TAKE_OR_EXIT();
    if (pos == end) SH_MORE_EXIT(S_CHUNK_SIZE_WS);
    c = *pos;
    if (c == '\r' || c == '\n') {
        if (!(x->lenient & SIMDHTTP_LENIENT_SPACES_AFTER_CHUNK_SIZE))
            SH_ERR_EXIT(SIMDHTTP_E_INVALID_CHUNK_SIZE, pos, "whitespace at the end of a chunk line");
        SH_REASON(p, CHUNK_SIZE_WS);
        p->_next = S_CHUNK_HEADER;
        SH_PART_RETURN(SH_GO_LINE_END);
    }
    if (c != ';') SH_ERR_EXIT(SIMDHTTP_E_INVALID_CHUNK_SIZE, pos, "junk after the chunk size");
ext_next: /* at a ';' */
    SH_EXT_TAKE_OR_EXIT();
ext_name_start:
    for (;;) { /* BWS */
        if (pos == end) SH_MORE_EXIT(S_EXT_NAME_START);
        c = *pos;
        if (!SH_IS_WS(c)) break;
        SH_EXT_TAKE_OR_EXIT();
    }
    if (!simdhttp_tchar[c]) {
        if (c == '=' || c == ';') SH_SPAN0_BEFORE_ERR_OR_EXIT(on_chunk_extension_name, pos, 0, S_EXT_NAME_START, pos);
        SH_ERR_EXIT(SIMDHTTP_E_INVALID_CHUNK_EXTENSION, pos, "chunk extension name is not a token");
    }
ext_name:
    mark = pos;
    while (pos < end && simdhttp_tchar[*pos]) {
        if (p->_ext_left == 0) {
            SH_SPAN_OR_EXIT(on_chunk_extension_name, mark, pos - mark, S_EXT_NAME, pos);
            goto ext_overflow;
        }
        SH_EXT_TAKE_OR_EXIT();
    }
    SH_SPAN_END_OR_EXIT(on_chunk_extension_name, mark, pos - mark, pos == end ? S_EXT_NAME : S_EXT_NAME_END, pos, S_EXT_NAME);
    if (pos == end) SH_MORE_EXIT(S_EXT_NAME);
ext_name_end:
    p->_sub = 0; /* 1 once BWS follows the name: then only '=' or ';' may come */
    SH_NOTE_OR_EXIT(on_chunk_extension_name_complete, S_EXT_AFTER_NAME, pos);
ext_after_name:
    for (;;) {
        if (pos == end) SH_MORE_EXIT(S_EXT_AFTER_NAME);
        c = *pos;
        if (c == '\r' || c == '\n') {
            if (p->_sub) {
                if (!(x->lenient & SIMDHTTP_LENIENT_SPACES_AFTER_CHUNK_SIZE))
                    SH_ERR_EXIT(SIMDHTTP_E_INVALID_CHUNK_EXTENSION, pos, "whitespace at the end of a chunk line");
                SH_REASON(p, CHUNK_SIZE_WS);
            }
            p->_next = S_CHUNK_HEADER;
            SH_PART_RETURN(SH_GO_LINE_END);
        }
        if (c == ';') goto ext_next;
        if (c == '=') {
            SH_EXT_TAKE_OR_EXIT();
            SH_PART_RETURN(SH_GO_EXT_VALUE);
        }
        if (!SH_IS_WS(c))
            SH_ERR_EXIT(SIMDHTTP_E_INVALID_CHUNK_EXTENSION, pos, "expected '=', ';' or CRLF after a chunk extension name");
        p->_sub = 1;
        SH_EXT_TAKE_OR_EXIT();
    }
ext_overflow:
    SH_EXT_OVERFLOW_EXIT();

    SH_PART_EXITS();
    SH_PART_STOP();
}

/* ---- a chunk extension's value (a token or a quoted-string), after its '=' and BWS, up to
 * the next ';' or the line's end ---- */
static SH_ALWAYS_INLINE int sh_chunk_ext_value(simdhttp_parser *p, sh_ctx *x, const uint8_t **pp, unsigned st,
                                             const int headmode)
{
    const uint8_t *pos = *pp, *const end = x->end, *mark;
    int rc;
    uint8_t c;

    switch (st) {
    case S_EXT_VALUE: goto ext_value;
    case S_EXT_VALUE_END: goto ext_value_end;
    case S_EXT_AFTER_VALUE: goto ext_after_value;
    default: break; /* S_EXT_VALUE_START */
    }
    /* S_EXT_VALUE_START: */
    for (;;) { /* BWS */
        if (pos == end) SH_MORE_EXIT(S_EXT_VALUE_START);
        c = *pos;
        if (!SH_IS_WS(c)) break;
        SH_EXT_TAKE_OR_EXIT();
    }
    if (c == '"') p->_sub = 1;
    else if (simdhttp_tchar[c]) p->_sub = 0;
    else {
        SH_SPAN0_BEFORE_ERR_OR_EXIT(on_chunk_extension_value, pos, 0, S_EXT_VALUE_START, pos);
        SH_ERR_EXIT(SIMDHTTP_E_INVALID_CHUNK_EXTENSION, pos, "chunk extension value is not a token or quoted-string");
    }
    if (p->_sub == 1) { /* the opening quote is part of the value span, as llhttp's */
        SH_EXT_TAKE_OR_EXIT();
        p->_sub = 2;
        mark = pos - 1;
        goto ext_value_bytes;
    }
ext_value:
    mark = pos;
ext_value_bytes:
    /* _sub: 0 token, 2 inside quotes, 3 after a backslash, 4 after the closing quote */
    while (pos < end) {
        /* the byte's next _sub, stored only once the byte is taken: the span before an
         * overflow may pause, and the resumed parser reads this byte again in the same state
         * (a closing quote stored first made it a value already closed: INVALID_CHUNK_EXTENSION
         * after a pause where CHUNK_EXTENSIONS_OVERFLOW without) */
        uint8_t sub = p->_sub;
        c = *pos;
        if (sub == 0) {
            if (!simdhttp_tchar[c]) break;
        } else if (sub == 2) {
            if (c == '"') sub = 4;
            else if (c == '\\') sub = 3;
            else if (c != '\t' && (c < 0x20 || c == 0x7f)) goto ext_bad_quoted;
        } else if (sub == 3) {
            if (c != '\t' && (c < 0x20 || c == 0x7f)) goto ext_bad_quoted;
            sub = 2;
        } else {
            break; /* after the closing quote */
        }
        if (p->_ext_left == 0) {
            SH_SPAN_OR_EXIT(on_chunk_extension_value, mark, pos - mark, S_EXT_VALUE, pos);
            goto ext_overflow;
        }
        p->_sub = sub;
        SH_EXT_TAKE_OR_EXIT();
    }
    if (pos == end && p->_sub != 4) {
        SH_SPAN_END_OR_EXIT(on_chunk_extension_value, mark, pos - mark, S_EXT_VALUE, pos, S_EXT_VALUE);
        SH_MORE_EXIT(S_EXT_VALUE);
    }
    SH_SPAN_END_OR_EXIT(on_chunk_extension_value, mark, pos - mark, S_EXT_VALUE_END, pos, S_EXT_VALUE);
ext_value_end:
    p->_sub = 0; /* 1 once BWS follows the value: then only ';' may come */
    SH_NOTE_OR_EXIT(on_chunk_extension_value_complete, S_EXT_AFTER_VALUE, pos);
ext_after_value:
    for (;;) {
        if (pos == end) SH_MORE_EXIT(S_EXT_AFTER_VALUE);
        c = *pos;
        if (c == '\r' || c == '\n') {
            if (p->_sub) {
                if (!(x->lenient & SIMDHTTP_LENIENT_SPACES_AFTER_CHUNK_SIZE))
                    SH_ERR_EXIT(SIMDHTTP_E_INVALID_CHUNK_EXTENSION, pos, "whitespace at the end of a chunk line");
                SH_REASON(p, CHUNK_SIZE_WS);
            }
            p->_next = S_CHUNK_HEADER;
            SH_PART_RETURN(SH_GO_LINE_END);
        }
        if (c == ';') {
            SH_EXT_TAKE_OR_EXIT();
            SH_PART_RETURN(SH_GO_EXT_NAME);
        }
        if (!SH_IS_WS(c))
            SH_ERR_EXIT(SIMDHTTP_E_INVALID_CHUNK_EXTENSION, pos, "expected ';' or CRLF after a chunk extension value");
        p->_sub = 1;
        SH_EXT_TAKE_OR_EXIT();
    }
ext_overflow:
    SH_EXT_OVERFLOW_EXIT();
ext_bad_quoted:
    SH_SPAN_OR_EXIT(on_chunk_extension_value, mark, pos - mark, S_EXT_VALUE, pos);
    SH_ERR_EXIT(SIMDHTTP_E_INVALID_CHUNK_EXTENSION, pos, "control byte in a quoted chunk extension value");


    SH_PART_EXITS();
    SH_PART_STOP();
}

/* The exits of sh_core's part calls that leave sh_core */
#define SH_GO_LEAVE_CASES                                                                   \
    case SH_GO_MORE:                                                                        \
        goto out_more;                                                                      \
    case SH_GO_STOP:                                                                        \
        goto cb_stop;                                                                       \
    default:                                                                                \
        goto out_error

/* A head's state S, resumed in PART: the head budget entered (_AT_BYTE: a state at a byte
 * that must be there) */
#define SH_HEAD_STATE(S, PART)                                                              \
    case S:                                                                                 \
        sh_head_enter(p, x, &walk, pos, end);                                               \
        st = S;                                                                             \
        goto PART
#define SH_HEAD_STATE_AT_BYTE(S, PART)                                                      \
    case S:                                                                                 \
        sh_head_enter(p, x, &walk, pos, end);                                               \
        if (pos == end) SH_MORE_EXIT(S);                                                    \
        st = S;                                                                             \
        goto PART

/* The driver: the state chooses the part (entering the head budget for a head's states), then
 * each part's result the next part, until an exit. st: the state the next part starts in. */
static SH_ALWAYS_INLINE long sh_core(simdhttp_parser *p, const uint8_t *data, size_t len,
                                     simdhttp_head *h, const int headmode)
{
    const uint8_t *pos = data, *end = data + len;
    sh_ctx ctx, *const x = &ctx;
    sh_walk walk = {NULL, (uintptr_t)end + 1, 0, 0, 0}; /* stage 2's state: no block yet */
    unsigned st;

    ctx.data = data;
    ctx.end = ctx.hend = end;
    ctx.hbase = NULL;
    ctx.h = h;
    ctx.lenient = p->_lenient;
    /* the streaming API keeps the context in memory: a part's register pressure then moves
     * less of the rest (measured: without, +2..2.8% instructions on every file) */
    if (!headmode) __asm__("" : : "r"(x) : "memory");
    if (headmode) {
        sh_head_enter(p, x, &walk, pos, end);
        if (SH_LIKELY(p->_state == S_MSG_START)) { /* simdhttp_parse_head */
            st = S_MSG_START;
            goto start_line;
        }
    }

dispatch:
    switch (p->_state) {
    SH_HEAD_STATE(S_MSG_START, start_line);
    SH_HEAD_STATE(S_MSG_BEGUN, start_line);
    SH_HEAD_STATE(S_DETECT, start_line);
    SH_HEAD_STATE(S_METHOD, start_line);
    SH_HEAD_STATE_AT_BYTE(S_METHOD_END, start_line);
    SH_HEAD_STATE(S_URL_START, start_line);
    SH_HEAD_STATE(S_URL, start_line);
    SH_HEAD_STATE_AT_BYTE(S_URL_END, start_line);
    SH_HEAD_STATE(S_VERSION, version_status);
    SH_HEAD_STATE(S_VERSION_END, version_status);
    SH_HEAD_STATE(S_AFTER_VERSION, version_status);
    SH_HEAD_STATE(S_STATUS_CODE, version_status);
    SH_HEAD_STATE(S_STATUS_CODE_END, version_status);
    SH_HEAD_STATE(S_STATUS_SP, version_status);
    SH_HEAD_STATE(S_REASON, version_status);
    case S_REASON_END: /* (the head API never resumes here: no test there, which moved its registers) */
        sh_head_enter(p, x, &walk, pos, end);
        if (!headmode && pos == end) SH_MORE_EXIT(S_REASON_END);
        st = S_REASON_END;
        goto version_status;
    case S_LINE_END:
        if (p->_next != S_CHUNK_HEADER && p->_next != S_CHUNK_DONE) sh_head_enter(p, x, &walk, pos, end);
        if (pos == end) SH_MORE_EXIT(S_LINE_END);
        st = S_LINE_END;
        goto line_end;
    case S_LINE_LF:
        if (p->_next != S_CHUNK_HEADER && p->_next != S_CHUNK_DONE) sh_head_enter(p, x, &walk, pos, end);
        st = S_LINE_LF;
        goto line_end;
    SH_HEAD_STATE(S_FIELD_START, field_lines);
    SH_HEAD_STATE(S_FOLD_WS, field_lines);
    SH_HEAD_STATE(S_FIELD_NAME, field_lines);
    SH_HEAD_STATE_AT_BYTE(S_NAME_END, field_lines);
    case S_OWS: /* no byte of the value yet (a pause in stage 2 comes here too: see name_end) */
        p->_want = 2;
        sh_head_enter(p, x, &walk, pos, end);
        st = S_OWS;
        goto field_lines;
    SH_HEAD_STATE(S_FIELD_VALUE, field_lines);
    SH_HEAD_STATE_AT_BYTE(S_VALUE_END, field_lines);
    case S_HEAD_DONE: st = S_HEAD_DONE; goto body;
    case S_BODY_CL: st = S_BODY_CL; goto body;
    case S_BODY_EOF: st = S_BODY_EOF; goto body;
    case S_MSG_DONE: st = S_MSG_DONE; goto body;
    case S_DEAD: st = S_DEAD; goto body;
    case S_UPGRADED:
        return sh_exit_upgraded(p, x, pos);
    case S_CHUNK_SIZE_START: case S_CHUNK_SIZE: case S_CHUNK_SIZE_COUNTED: case S_CHUNK_HEADER:
    case S_CHUNK_DATA: case S_CHUNK_DATA_END: case S_CHUNK_DONE: case S_TRAILERS_DONE:
        st = p->_state;
        goto chunked;
    case S_CHUNK_SIZE_WS: case S_EXT_NAME_START: case S_EXT_NAME: case S_EXT_NAME_END: case S_EXT_AFTER_NAME:
        st = p->_state;
        goto chunk_ext;
    case S_EXT_VALUE_START: case S_EXT_VALUE: case S_EXT_VALUE_END: case S_EXT_AFTER_VALUE:
        st = p->_state;
        goto chunk_ext_value;
    default:
        /* the states of simdhttp_set_empty_spans only, outside the table: S_REASON and
         * S_CHUNK_DATA before their first byte (their resume is the same) */
        if (!headmode && p->_state == S_REASON0) {
            sh_head_enter(p, x, &walk, pos, end);
            st = S_REASON;
            goto version_status;
        }
        if (!headmode && p->_state == S_CHUNK_DATA0) {
            st = S_CHUNK_DATA;
            goto chunked;
        }
    bad_state:
        p->_error = SIMDHTTP_E_INVALID_ARGUMENT;
        p->_reason = "parser is in an invalid state (not initialised?)";
        x->errpos = pos;
        goto out_error;
    }

start_line:
    switch (sh_start_line(p, x, &pos, st, headmode)) {
    case SH_GO_VERSION: st = S_VERSION; goto version_status;
    case SH_GO_FIELD_START: st = S_FIELD_START; goto field_lines;
    case SH_GO_LINE_END: st = S_LINE_END; goto line_end;
    SH_GO_LEAVE_CASES;
    }
version_status:
    switch (sh_version_status(p, x, &pos, st, headmode)) {
    case SH_GO_FIELD_START: st = S_FIELD_START; goto field_lines;
    case SH_GO_LINE_END: st = S_LINE_END; goto line_end;
    SH_GO_LEAVE_CASES;
    }
line_end:
    switch (sh_line_end(p, x, &pos, st, headmode)) {
    case SH_GO_MSG_START: st = S_MSG_START; goto start_line;
    case SH_GO_FIELD_START: st = S_FIELD_START; goto field_lines;
    case SH_GO_HEAD_DONE: goto head_done;
    case SH_GO_CHUNK_HEADER: st = S_CHUNK_HEADER; goto chunked;
    case SH_GO_CHUNK_DONE: st = S_CHUNK_DONE; goto chunked;
    SH_GO_LEAVE_CASES;
    }
field_lines:
    switch (sh_field_lines(p, x, &walk, &pos, st, headmode)) {
    case SH_GO_HEAD_DONE: goto head_done;
    case SH_GO_LINE_END: st = S_LINE_END; goto line_end;
    SH_GO_LEAVE_CASES;
    }
head_done:
    switch (sh_head_done(p, x, &pos, headmode)) {
    case SH_GO_HEAD_RETURN: return (long)(pos - data);
    case SH_GO_TRAILERS_DONE: st = S_TRAILERS_DONE; goto chunked;
    case SH_GO_BODY: st = S_HEAD_DONE; goto body;
    SH_GO_LEAVE_CASES;
    }
body:
    switch (sh_body(p, x, &pos, st, headmode)) {
    case SH_GO_NEXT_MSG:
        sh_head_enter(p, x, &walk, pos, end);
        st = S_MSG_START;
        goto start_line;
    case SH_GO_DISPATCH: goto dispatch;
    case SH_GO_OK: return sh_exit_ok(p, len);
    case SH_GO_CHUNKED: st = S_CHUNK_SIZE_START; goto chunked;
    SH_GO_LEAVE_CASES;
    }
chunked:
    if (headmode) goto bad_state; /* the head API returns at the head's end */
    switch (sh_chunked(p, x, &pos, st, headmode)) {
    case SH_GO_LINE_END: st = S_LINE_END; goto line_end;
    case SH_GO_CHUNK_EXT: st = S_CHUNK_SIZE_WS; goto chunk_ext;
    case SH_GO_TRAILERS:
        sh_head_enter(p, x, &walk, pos, end);
        st = S_FIELD_START;
        goto field_lines;
    case SH_GO_MSG_DONE: st = S_MSG_DONE; goto body;
    SH_GO_LEAVE_CASES;
    }
chunk_ext:
    if (headmode) goto bad_state;
    switch (sh_chunk_ext(p, x, &pos, st, headmode)) {
    case SH_GO_LINE_END: st = S_LINE_END; goto line_end;
    case SH_GO_EXT_VALUE: st = S_EXT_VALUE_START; goto chunk_ext_value;
    SH_GO_LEAVE_CASES;
    }
chunk_ext_value:
    if (headmode) goto bad_state;
    switch (sh_chunk_ext_value(p, x, &pos, st, headmode)) {
    case SH_GO_LINE_END: st = S_LINE_END; goto line_end;
    case SH_GO_EXT_NAME: st = S_EXT_NAME_START; goto chunk_ext;
    SH_GO_LEAVE_CASES;
    }

    /* ---------------------------------------------------------------- exits ---- */
out_more:
    if (sh_over_budget(p, x, pos, headmode)) goto out_error;
    return sh_exit_more(p, x, pos, len, headmode);
cb_stop:
    return sh_exit_stop(p, x, pos, x->rc);
out_error:
    return sh_exit_error(p, x, pos, headmode);
}

static SH_ALWAYS_INLINE simdhttp_errno sh_execute(simdhttp_parser *p, const char *data, size_t len)
{
    return (simdhttp_errno)sh_core(p, (const uint8_t *)data, len, NULL, 0);
}

/* The head API: simdhttp_parse_head, and simdhttp_parse_fields (fields 1: a bare field block,
 * started in the field-line state with no field before it: leading SP/HTAB is an error, not
 * an obs-fold). The parser is made here, so that the dispatcher's call is a tail call (no
 * frame of its own) and the set-up's stores meet the core's first reads in one function
 * (AVX2 callgrind: get-4h 809 -> 797 instructions per message). */
static SH_ALWAYS_INLINE long sh_head(simdhttp_head *h, simdhttp_type type, const char *buf, size_t len,
                                        const simdhttp_config *cfg, int fields)
{
    simdhttp_parser p;
    p.data = NULL;
    simdhttp__configure_head(&p, type, cfg);
    /* what msg_start sets for a message (nothing changes them before it runs again after an
     * empty line), here beside _state: adjacent bytes, merged by gcc into two stores */
    SH_CLEAR_MSG_BYTES(&p);
    p._state = S_MSG_START;
    p._next = S_MSG_START; /* never read here (the parser starts at S_MSG_START or
                            * S_FIELD_START); gcc's -Wmaybe-uninitialized under ASan cannot
                            * tell, and sees the line-end state's read of it */
    if (SH_UNLIKELY(fields)) {
        p._state = S_FIELD_START;
        p.flags = SIMDHTTP_F_TRAILERS;
    }
    /* method_str, target, reason and their lengths, error, error_reason and error_offset
     * NULL and 0 (SIMDHTTP_OK): one memset, three vector stores instead of nine */
    _Static_assert(offsetof(simdhttp_head, error_offset) - offsetof(simdhttp_head, method_str) == 8 * 8,
                   "method_str up to error_offset: those nine members (error padded to 8 bytes)");
    memset(&h->method_str, 0,
           offsetof(simdhttp_head, error_offset) + sizeof h->error_offset - offsetof(simdhttp_head, method_str));
    long r = sh_core(&p, (const uint8_t *)buf, len, h, 1);
    if (r > 0) {
        h->type = p.type;
        h->method = p.method;
        h->http_major = p.http_major;
        h->http_minor = p.http_minor;
        h->status_code = p.status_code;
        h->flags = p.flags;
        h->reasons = p.reasons;
        h->content_length = p.content_length;
    }
    return r;
}

#undef SH_ERR_EXIT
#undef SH_SPAN_OR_EXIT
#undef SH_SPAN_END_OR_EXIT
#undef SH_SPAN_END_BEFORE_ERR_OR_EXIT
#undef SH_CHUNK_DATA_START
#undef SH_SPAN_WAS_OPEN
#undef SH_SPAN0_OR_EXIT
#undef SH_SPAN0_BEFORE_ERR_OR_EXIT
#undef SH_SPAN0_OR_GOTO
#undef SH_SPAN_IF_OR_GOTO
#undef SH_SPAN_OR_GOTO
#undef SH_NOTE_OR_EXIT
#undef SH_NOTE_OR_GOTO
#undef SH_VALUE_COMPLETE_OR_EXIT
#undef SH_MORE_EXIT
#undef SH_EXT_TAKE_OR_EXIT
#undef SH_EXT_OVERFLOW_EXIT
#undef SH_BODY_BYTES_OR_EXIT
#undef SH_ERROR_GOTO
#undef SH_COLD_LABEL
#undef SH_PART_EXITS
#undef SH_PART_STOP
#undef SH_PART_RETURN
#undef SH_GO_LEAVE_CASES
#undef SH_HEAD_STATE
#undef SH_HEAD_STATE_AT_BYTE
