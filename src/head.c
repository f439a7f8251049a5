/* SPDX-License-Identifier: MIT */
/* The head API on a growing buffer: simdhttp_parse_head_continue (picohttpparser's last_len).
 *
 * A caller that re-runs simdhttp_parse_head as bytes arrive re-parses the whole prefix each
 * time: quadratic in the head's size (a 78 KB head in 10-byte reads: 7,807 calls, 87 ms). Here
 * a call looks only at the bytes that can change the answer, buf[last_len - 3, len) and the
 * byte before them, and parses the whole head only when those bytes may end it or hold an
 * error on their own. Why 3 bytes back: a line-end run left pending at the end of the
 * previous buffer (the full parse said INCOMPLETE) is at most 3 bytes ("\r\n\r": 4 line-end
 * bytes after a line's content always decide, as two line ends or an error), so every run the
 * new bytes can extend starts inside the window. */
#include "internal.h"

#include <string.h>

/* Bytes that need a look: CTLs (CR, LF and HTAB among them), and 0x80-0x9f (a false alarm
 * that only costs a look). They are the bytes with bits 5 and 6 clear: SWAR on an 8-byte word,
 * (x & 0x60) + 0x60 keeps a byte's high bit clear exactly for them (no carry leaves a byte).
 * Byte k of the word (in memory order) answers in bit 8k + 7. DEL is not among them: it is
 * found when the head ends, or at once when a look happens to see it. */
static inline uint64_t sh_ctl_bits(const uint8_t *s)
{
    const uint64_t k60 = 0x6060606060606060ull;
    uint64_t x;
    memcpy(&x, s, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x); /* byte k in bits 8k..8k+7, as on little-endian machines */
#endif
    return ~((x & k60) + k60) & 0x8080808080808080ull;
}

#define SH_CRLF(c) ((c) == '\r' || (c) == '\n')

/* The new bytes and the 3 before them, b[s..len) (len >= 8), may hold a CTL: look at each
 * flagged byte. @return 1 if the head cannot end there and no byte there is an error by
 * itself, given that b[0..s + 3) gave INCOMPLETE; 0 if a whole parse must decide. */
static int sh_still_incomplete(const uint8_t *b, size_t s, size_t len, uint32_t lenient)
{
    size_t i = s; /* bytes before i are done */
    while (i < len) {
        size_t w = len - i >= 8 ? i : len - 8;
        uint64_t t = sh_ctl_bits(b + w) & (~0ull << 8 * (i - w));
        if (!t) {
            i = w + 8;
            continue;
        }
        size_t k = w + (size_t)(__builtin_ctzll(t) >> 3);
        uint8_t c = b[k];
        i = k + 1;
        if (c >= 0x80 || c == '\t') continue;
        if (!SH_CRLF(c)) {
            /* NUL is refused everywhere; other CTLs only in values under lenient headers */
            if (c == 0 || !(lenient & SIMDHTTP_LENIENT_HEADERS)) return 0;
            continue;
        }
        size_t j = i;
        while (j < len && SH_CRLF(b[j])) j++;
        i = j;
        /* A run at the buffer's start, or one that began before the window (which, after an
         * INCOMPLETE, can only be the empty lines before the start line): skipped if it is
         * line ends the lenient flags allow (CRLF; LF under bare_lf; CR under
         * optional_lf_after_cr; a CR at the end waits for its LF); anything else is an error,
         * found at once by the whole parse. Never a whole parse for valid empty lines: that
         * would make a run of them quadratic again. */
        if (k == 0 || SH_CRLF(b[k - 1])) {
            size_t x = k + (b[k] == '\n' && k > 0 && b[k - 1] == '\r'); /* a pair the window cut */
            while (x < j) {
                if (b[x] == '\r' && (x + 1 == len || b[x + 1] == '\n')) {
                    x += 2; /* CRLF, or a CR that waits */
                } else {
                    if (!(lenient & (b[x] == '\r' ? SIMDHTTP_LENIENT_OPTIONAL_LF_AFTER_CR
                                                   : SIMDHTTP_LENIENT_OPTIONAL_CR_BEFORE_LF)))
                        return 0;
                    x++;
                }
            }
            continue;
        }
        /* After a line's content: harmless as one line end followed by content; at the end of
         * the buffer, also when a CR waits for the next byte after at most one line end (the
         * next call decides). Anything else may end the head or be an error: parse. */
        size_t n = j - k;
        if (j == len && b[len - 1] == '\r') n--; /* the waiting CR */
        int one = n == 0 || (n == 2 && c == '\r' && b[k + 1] == '\n') ||
                  (n == 1 && c == '\n' && (lenient & SIMDHTTP_LENIENT_OPTIONAL_CR_BEFORE_LF)) ||
                  (n == 1 && c == '\r' && (lenient & SIMDHTTP_LENIENT_OPTIONAL_LF_AFTER_CR));
        if (!one) return 0;
    }
    return 1;
}

/* Everything but the common case: a whole parse (the first call, misuse, a buffer that
 * reached the head limit: the parse then ends the head or reports HEADER_OVERFLOW, once; fewer
 * than 8 bytes), or new bytes with a CTL in them. */
static long __attribute__((noinline)) sh_continue_slow(simdhttp_head *h, simdhttp_type type, const char *buf,
                                                       size_t len, size_t last_len, const simdhttp_config *cfg)
{ /* type 0: a bare field block (simdhttp_parse_fields_continue) */
    uint32_t max = cfg && cfg->max_head_size ? cfg->max_head_size : SIMDHTTP_DEFAULT_MAX_HEAD_SIZE;
    if (last_len && last_len <= len && len < max && len >= 8 && buf &&
        (last_len == len ||
         sh_still_incomplete((const uint8_t *)buf, last_len > 3 ? last_len - 3 : 0, len, cfg ? cfg->lenient : 0))) {
        h->num_fields = 0;
        h->error = SIMDHTTP_OK;
        return SIMDHTTP_HEAD_INCOMPLETE;
    }
    return type ? simdhttp_parse_head(h, type, buf, len, cfg) : simdhttp_parse_fields(h, buf, len, cfg);
}

/* The flags of b[0..8) as bits 0..7 (bit k: byte k): the high bits gathered by one multiply. */
static inline unsigned sh_ctl_mask8(const uint8_t *b)
{
    return (unsigned)(((sh_ctl_bits(b) >> 7) * 0x0102040810204080ull) >> 56);
}

/* The common cases stay inline: new bytes without a CTL; with one CRLF and no other flag (the
 * byte after it is content, if any); with a CR waiting at the end; with one HTAB or 0x80-0x9f
 * byte: what the exact look would say, sooner. The rest is a tail call. On 10-byte steps a call
 * costs more than parsing those bytes does (docs/head-api.md): keep this path short. */
static inline __attribute__((always_inline)) long sh_continue(simdhttp_head *h, simdhttp_type type,
                                                               const char *buf, size_t len, size_t last_len,
                                                               const simdhttp_config *cfg)
{
    if (__builtin_expect(last_len && last_len < len && len >= 8 && buf, 1) &&
        len < (cfg && cfg->max_head_size ? cfg->max_head_size : SIMDHTTP_DEFAULT_MAX_HEAD_SIZE)) {
        const uint8_t *b = (const uint8_t *)buf;
        size_t s = last_len > 3 ? last_len - 3 : 0, n = len - s; /* the new bytes and 3 before */
        /* the word that ends at len (its bytes before s dropped), and the ones from s on */
        uint64_t ctl = sh_ctl_bits(b + len - 8) & (n >= 8 ? ~0ull : ~0ull << 8 * (8 - n));
        for (size_t i = s; !ctl && i + 8 < len; i += 8) ctl = sh_ctl_bits(b + i);
        if (!ctl) {
            h->num_fields = 0;
            h->error = SIMDHTTP_OK;
            return SIMDHTTP_HEAD_INCOMPLETE;
        }
        if (n <= 16) {
            unsigned m = sh_ctl_mask8(b + len - 8);
            m = n >= 8 ? m << (n - 8) : m >> (8 - n);
            if (n > 8) m |= sh_ctl_mask8(b + s);
            unsigned k = (unsigned)__builtin_ctz(m), rest = m & (m - 1);
            uint8_t c = b[s + k];
            if (rest ? c == '\r' && rest == 2u << k && b[s + k + 1] == '\n'
                     : c == '\t' || c >= 0x80 || (c == '\r' && s + k + 1 == len)) {
                h->num_fields = 0;
                h->error = SIMDHTTP_OK;
                return SIMDHTTP_HEAD_INCOMPLETE;
            }
        }
    }
    return sh_continue_slow(h, type, buf, len, last_len, cfg);
}

long simdhttp_parse_head_continue(simdhttp_head *h, simdhttp_type type, const char *buf, size_t len,
                                  size_t last_len, const simdhttp_config *cfg)
{
    return sh_continue(h, type, buf, len, last_len, cfg);
}

/* The same for a bare field block. A line end at its first byte ends it (there are no empty
 * lines to skip, as before a start line): with last_len >= 4 the window never reaches it. */
long simdhttp_parse_fields_continue(simdhttp_head *h, const char *buf, size_t len, size_t last_len,
                                    const simdhttp_config *cfg)
{
    return last_len < 4 ? simdhttp_parse_fields(h, buf, len, cfg) : sh_continue(h, 0, buf, len, last_len, cfg);
}
