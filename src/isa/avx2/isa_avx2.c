/* SPDX-License-Identifier: MIT */
/* The AVX2 path (-mavx2 from mk/simd.mk; run only if CPUID and XGETBV say so):
 * the parser core (src/core.h) compiled with this ISA's scanners inlined. */
#include "internal.h"
#include "scan_avx2.h"
#include "stage1_avx2.h"

/* The names the generic code calls (src/core.h, src/stage1_at.h), bound to this ISA's kernels. */
#define SH_VALUE_FROM_LINE_START 1 /* core.h: vector scans are latency-bound */
#define SH_STAGE1_KEYED 1 /* stage1_block_k: stage 1's constants loaded once per head */
static SH_ALWAYS_INLINE const uint8_t *scan_token(const uint8_t *s, const uint8_t *e)
{
    return avx2_scan_token(s, e);
}
static SH_ALWAYS_INLINE const uint8_t *scan_value(const uint8_t *s, const uint8_t *e)
{
    return avx2_scan_value(s, e);
}
static SH_ALWAYS_INLINE const uint8_t *scan_target(const uint8_t *s, const uint8_t *e)
{
    return avx2_scan_target(s, e);
}
typedef avx2_stage1_keys stage1_keys;
static SH_ALWAYS_INLINE stage1_keys stage1_keys_load(void)
{
    return avx2_stage1_keys_load();
}
static SH_ALWAYS_INLINE void stage1_block_k(const uint8_t *p, const stage1_keys *k, sh_masks *m)
{
    avx2_stage1_k(p, k, m);
}
#include "core.h"

SH_INTERNAL simdhttp_errno simdhttp__execute_avx2(simdhttp_parser *p, const char *data, size_t len)
{
    return sh_execute(p, data, len);
}

SH_INTERNAL long simdhttp__head_avx2(simdhttp_head *h, simdhttp_type type, const char *buf, size_t len,
                                     const simdhttp_config *cfg, int fields)
{
    return sh_head(h, type, buf, len, cfg, fields);
}

/* The scanners themselves, out of line, for tests/test_scan.c and tests/test_guard.c
 * (hidden: not part of the shared library's ABI). kind: 0 token, 1 value, 2 target. */
SH_INTERNAL const uint8_t *simdhttp__scan_avx2(int kind, const uint8_t *s, const uint8_t *e)
{
    return kind == 0 ? scan_token(s, e) : kind == 1 ? scan_value(s, e) : scan_target(s, e);
}

/* Stage 1 out of line, for tests/test_stage1.c and tests/test_guard.c (hidden). */
SH_INTERNAL void simdhttp__stage1_avx2(const uint8_t *p, const uint8_t *lo, const uint8_t *end, sh_masks *m)
{
    sh_stage1_at(p, lo, end, m);
}

/* not tchar (bit i: x's byte i), and, in *noct, not cookie-octet: two nibble lookups that
 * share the high nibble's, as stage 1's */
static inline uint32_t avx2_cookie_classes(__m256i x, uint32_t *noct)
{
    __m256i col = avx2_col32(x, SH_K(SH_VK_TCHAR_HI), SH_K(SH_VK_0F));
    __m256i tok = _mm256_and_si256(_mm256_shuffle_epi8(SH_K(SH_VK_TCHAR_LO), x), col);
    __m256i oct = _mm256_and_si256(_mm256_shuffle_epi8(SH_K(SH_VK_COOKIE_LO), x), col);
    *noct = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(oct, _mm256_setzero_si256()));
    return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(tok, _mm256_setzero_si256()));
}

/* The cookie iterator's usual pair, name=value unquoted, for a Cookie value v[0..vl) with
 * vl >= 32 (src/fields.c, simdhttp_cookie_next): the name from v[start] in one 32-byte window
 * (v[start..start+32), or the 32 bytes that end at vl when fewer remain), the value's
 * cookie-octets 32 bytes a step. @return the name's end (the '=') in the low 32 bits and
 * the value's in the high, when the name is not empty, ends in the window at a '=' with a
 * byte after it, and that byte is no DQUOTE; else 0, and the caller scans the pair itself (its errors, quoted values, names
 * longer than the window). The same ends as that scan: the first byte that is no tchar, the
 * first after the '=' that is no cookie-octet (or vl). (One word, not an out-pointer: the
 * caller's offset stays in a register.) */
#define SH_PAIR(ne, ve) ((uint64_t)(ve) << 32 | (ne))
/* the value's end from pos on (all before it cookie-octets), 32 bytes a step, the last step
 * ending at vl; ne: the name's end. Out of line: the pair in one window, the usual one, then
 * saves fewer registers (seed workload: 73 -> 66 instructions, AVX2 callgrind). */
static __attribute__((noinline)) uint64_t cookie_value_on(const uint8_t *v, uint32_t ne, uint32_t pos, uint32_t vl)
{
    uint32_t noct;
    for (; vl - pos >= 32; pos += 32) {
        (void)avx2_cookie_classes(_mm256_loadu_si256((const __m256i *)(const void *)(v + pos)), &noct);
        if (noct) return SH_PAIR(ne, pos + (uint32_t)__builtin_ctz(noct));
    }
    if (pos < vl) {
        (void)avx2_cookie_classes(_mm256_loadu_si256((const __m256i *)(const void *)(v + vl - 32)), &noct);
        noct >>= 32 - (vl - pos); /* bytes from pos: vl - pos < 32 of them */
        if (noct) return SH_PAIR(ne, pos + (uint32_t)__builtin_ctz(noct));
    }
    return SH_PAIR(ne, vl);
}

SH_INTERNAL uint64_t simdhttp__cookie_pair_avx2(const uint8_t *v, uint32_t start, uint32_t vl)
{
    /* the window: v[base..base + 32), base = start unless fewer than 32 bytes remain. Bit i of
     * a mask is v[base + i], not shifted to start's bit: the ends come out as offsets in the
     * window, and fewer values stay live (66 -> 55 instructions, seed workload, AVX2
     * callgrind); bit 32, past the window, is set */
    uint32_t base = start < vl - 32 ? start : vl - 32, noct; /* min(start, vl - 32): vl >= 32 */
    uint64_t ntok = (uint64_t)avx2_cookie_classes(_mm256_loadu_si256((const __m256i *)(const void *)(v + base)), &noct);
    ntok = (ntok | 1ull << 32) & ~0ull << (start - base); /* from start on */
    uint32_t ne = (uint32_t)__builtin_ctzll(ntok);
    const uint8_t *eq = v + base + ne;
    if (ne == start - base || ne >= 31 || eq[0] != '=' || eq[1] == '"') return 0;
    /* the first byte after the '=' that is no cookie-octet */
    uint32_t ve = (uint32_t)__builtin_ctzll(((uint64_t)noct | 1ull << 32) & ~1ull << ne);
    if (ve < 32) return SH_PAIR(base + ne, base + ve);
    /* the value runs to the window's end */
    return cookie_value_on(v, base + ne, base + 32, vl);
}
#undef SH_PAIR
