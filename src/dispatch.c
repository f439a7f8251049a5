/* SPDX-License-Identifier: MIT */
/* Run-time choice of the scanner path: once per process, then one predictable switch per call.
 *
 * Every path is a whole copy of the parser core (src/isa/<name>/isa_<name>.c) with its scanners inlined,
 * so choosing costs one switch per execute()/parse_head() call, never an indirect call per
 * span. The choice is cached in an atomic (0: not chosen yet); concurrent first calls compute
 * the same answer, so the race is benign.
 *
 * x86-64: a path needs its CPUID feature bits AND, for AVX and wider, the OS's promise (XCR0
 * via XGETBV) that it saves the YMM/ZMM registers on context switch; otherwise the first
 * vector instruction would fault. valgrind reports no AVX-512 in CPUID, so under valgrind the
 * ladder falls to AVX2 by itself. aarch64: NEON is baseline. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#define SH_ISA_COUNT 7 /* names below, index = simdhttp_isa */

static simdhttp_isa chosen;       /* 0: not chosen yet */
static unsigned supported_mask;   /* bit i: path i runs here; 0: not probed yet */
static const char *isa_error;     /* written before `chosen` (release), read after (acquire) */

static const char *const isa_names[SH_ISA_COUNT] = {NULL, "scalar", "sse2", "sse42", "avx2", "avx512", "neon"};

/* Why a forced path is refused, per path. */
static const char *const isa_refused[SH_ISA_COUNT] = {
    NULL,
    NULL,
    "SIMDHTTP_ISA=sse2 refused: not an x86-64 build",
    "SIMDHTTP_ISA=sse42 refused: the CPU lacks SSSE3/SSE4.2 (or not an x86-64 build)",
    "SIMDHTTP_ISA=avx2 refused: the CPU lacks AVX2 (or BMI1/BMI2) or the OS does not save YMM state (XCR0)",
    "SIMDHTTP_ISA=avx512 refused: the CPU lacks AVX-512BW/VL or the OS does not save ZMM state (XCR0)",
    "SIMDHTTP_ISA=neon refused: not an aarch64 build",
};

#if defined(__x86_64__)
static uint64_t sh_xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0)); /* XCR0: state the OS saves */
    return (uint64_t)hi << 32 | lo;
}

static unsigned probe(void)
{
    unsigned a, b, c, d, mask = 1u << SIMDHTTP_ISA_SCALAR | 1u << SIMDHTTP_ISA_SSE2;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return mask;
    if ((c & bit_SSSE3) && (c & bit_SSE4_2)) mask |= 1u << SIMDHTTP_ISA_SSE42;
    /* AVX state usable only if the OS enabled XSAVE (OSXSAVE) and saves XMM|YMM (XCR0 bits 1-2) */
    if (!(c & bit_OSXSAVE) || !(c & bit_AVX)) return mask;
    uint64_t xcr0 = sh_xgetbv0();
    if ((xcr0 & 0x6) != 0x6) return mask;
    if (__get_cpuid_max(0, NULL) < 7) return mask;
    __cpuid_count(7, 0, a, b, c, d);
    /* each path's unit is compiled with the narrower paths' features too (-mavx2 implies
     * SSE4.2...), so a path also needs the one below it (a VM may mask features oddly) */
    /* the AVX2 and AVX-512 units also use BMI1/BMI2 (tzcnt, shrx, blsr in stage 2): every CPU
     * with AVX2 has them, but a VM may hide them */
    if ((b & bit_AVX2) && (b & bit_BMI) && (b & bit_BMI2) && (mask >> SIMDHTTP_ISA_SSE42 & 1))
        mask |= 1u << SIMDHTTP_ISA_AVX2;
    /* AVX-512: F+BW+VL, and XCR0 bits 5-7 (opmask, upper halves of ZMM0-15, ZMM16-31) */
    if ((b & bit_AVX512F) && (b & bit_AVX512BW) && (b & bit_AVX512VL) && (xcr0 & 0xe6) == 0xe6 &&
        (mask >> SIMDHTTP_ISA_AVX2 & 1))
        mask |= 1u << SIMDHTTP_ISA_AVX512;
    return mask;
}
#elif defined(__aarch64__)
static unsigned probe(void) { return 1u << SIMDHTTP_ISA_SCALAR | 1u << SIMDHTTP_ISA_NEON; }
#else
static unsigned probe(void) { return 1u << SIMDHTTP_ISA_SCALAR; }
#endif

static unsigned supported(void)
{
    unsigned m = __atomic_load_n(&supported_mask, __ATOMIC_RELAXED);
    if (!m) {
        m = probe();
        __atomic_store_n(&supported_mask, m, __ATOMIC_RELAXED);
    }
    return m;
}

const char *simdhttp_isa_to_name(simdhttp_isa isa)
{
    return (unsigned)isa < SH_ISA_COUNT ? isa_names[isa] : NULL;
}

int simdhttp_isa_supported(simdhttp_isa isa)
{
    return (unsigned)isa < SH_ISA_COUNT && isa != 0 && (supported() >> isa & 1);
}

/* Fastest measured first. AVX2 before AVX-512: fields are short, so 64-byte vectors do not pay,
 * and the AVX-512 unit (AVX2 code plus a masked tail load) measured 2-6% slower than AVX2 on
 * every corpus file (docs/benchmarks.md, Zen 4); AVX-512 stays available via SIMDHTTP_ISA. */
static simdhttp_isa best(void)
{
    static const simdhttp_isa ladder[] = {SIMDHTTP_ISA_AVX2, SIMDHTTP_ISA_AVX512, SIMDHTTP_ISA_SSE42,
                                          SIMDHTTP_ISA_SSE2, SIMDHTTP_ISA_NEON};
    for (unsigned i = 0; i < sizeof ladder / sizeof *ladder; i++)
        if (simdhttp_isa_supported(ladder[i])) return ladder[i];
    return SIMDHTTP_ISA_SCALAR;
}

/* the first call only: kept out of line so the per-call path below is a load and a branch */
__attribute__((noinline, cold)) static simdhttp_isa choose(void)
{
    simdhttp_isa isa = best();
    const char *want = getenv("SIMDHTTP_ISA");
    if (want && *want) {
        simdhttp_isa w = 0;
        for (unsigned i = 1; i < SH_ISA_COUNT; i++)
            if (strcmp(want, isa_names[i]) == 0) w = (simdhttp_isa)i;
        const char *err = NULL;
        if (!w) err = "SIMDHTTP_ISA names no known path (scalar, sse2, sse42, avx2, avx512, neon)";
        else if (!simdhttp_isa_supported(w)) err = isa_refused[w];
        else isa = w;
        if (err) __atomic_store_n(&isa_error, err, __ATOMIC_RELAXED);
    }
    __atomic_store_n(&chosen, isa, __ATOMIC_RELEASE);
    return isa;
}

/* make bench-native only (-march=native -DSIMDHTTP_NATIVE): the path fixed at compile time,
 * the switch below folded away, to measure what run-time dispatch costs. Never a default. */
#if defined(SIMDHTTP_STATIC_ISA) /* the same, path named (measures the switch alone) */
#define SH_STATIC_ISA SIMDHTTP_STATIC_ISA
#elif defined(SIMDHTTP_NATIVE) && defined(__AVX512BW__) && defined(__AVX512VL__)
#define SH_STATIC_ISA SIMDHTTP_ISA_AVX512
#elif defined(SIMDHTTP_NATIVE) && defined(__AVX2__)
#define SH_STATIC_ISA SIMDHTTP_ISA_AVX2
#elif defined(SIMDHTTP_NATIVE) && defined(__SSE4_2__) && defined(__SSSE3__)
#define SH_STATIC_ISA SIMDHTTP_ISA_SSE42
#elif defined(SIMDHTTP_NATIVE) && defined(__x86_64__)
#define SH_STATIC_ISA SIMDHTTP_ISA_SSE2
#elif defined(SIMDHTTP_NATIVE) && defined(__aarch64__)
#define SH_STATIC_ISA SIMDHTTP_ISA_NEON
#endif

static inline simdhttp_isa isa_now(void)
{
#ifdef SH_STATIC_ISA
    (void)choose;
    return SH_STATIC_ISA;
#else
    simdhttp_isa isa = __atomic_load_n(&chosen, __ATOMIC_ACQUIRE);
    return __builtin_expect(isa != 0, 1) ? isa : choose();
#endif
}

/* The path as stored, 0 before the first choice: for the per-call switches below, which take
 * 0 in their default case (the scalar path's), so that the path they test first is the usual
 * one, not 0 (parse_head and execute: 2 instructions less per call, AVX2 callgrind). */
static inline simdhttp_isa isa_stored(void)
{
#ifdef SH_STATIC_ISA
    return SH_STATIC_ISA;
#else
    return __atomic_load_n(&chosen, __ATOMIC_ACQUIRE);
#endif
}

simdhttp_isa simdhttp__isa(void) { return isa_now(); }

simdhttp_isa simdhttp_isa_get(void) { return simdhttp__isa(); }
const char *simdhttp_isa_name(void) { return isa_names[simdhttp__isa()]; }
const char *simdhttp_isa_error(void)
{
    (void)simdhttp__isa();
    return __atomic_load_n(&isa_error, __ATOMIC_RELAXED);
}

int simdhttp_isa_set(simdhttp_isa isa)
{
    if (!simdhttp_isa_supported(isa)) return -1;
#ifdef SH_STATIC_ISA
    if (isa != SH_STATIC_ISA) return -1;
#endif
    (void)simdhttp__isa(); /* a later first call must not overwrite the choice from the env */
    __atomic_store_n(&chosen, isa, __ATOMIC_RELEASE);
    return 0;
}

/* An empty buffer may be NULL (C forbids even NULL + 0, which the core would compute). */
static const char sh_empty[1];

/* execute(p, NULL, 0): the core runs on sh_empty; a position it leaves there (a pause, an
 * error) is given back as NULL, the data argument, never as a pointer into the library (a
 * caller's "len -= pos - data" would subtract unrelated pointers). No buffer, so no empty span
 * of one that was open (simdhttp_set_empty_spans: llhttp has none for NULL either, and
 * simdhttp_finish() runs this). */
static __attribute__((noinline, cold)) simdhttp_errno execute_null(simdhttp_parser *p)
{
    uint32_t opt = p->_lenient & SH_OPT_EMPTY_SPANS;
    p->_lenient &= ~SH_OPT_EMPTY_SPANS;
    simdhttp_errno e = simdhttp_execute(p, sh_empty, 0);
    p->_lenient |= opt;
    if (p->_error_pos == sh_empty) p->_error_pos = NULL;
    return e;
}

simdhttp_errno simdhttp_execute(simdhttp_parser *p, const char *data, size_t len)
{
    if (__builtin_expect(p->_error, 0)) {
        /* Nothing of this buffer is consumed. After an error (it sticks) the error position
         * moves to this buffer's start, so that it never points into a buffer the caller may
         * have freed; the offset stays the error's. A pause or an upgrade keeps its position:
         * the caller goes on from there. */
        if (p->_error != SIMDHTTP_E_PAUSED && p->_error != SIMDHTTP_E_PAUSED_UPGRADE) p->_error_pos = data;
        return p->_error;
    }
    if (__builtin_expect(!data, 0)) {
        if (len) {
            p->_error = SIMDHTTP_E_INVALID_ARGUMENT;
            p->_reason = "execute() with NULL data and a non-zero length";
            p->_error_offset = p->_nread;
            p->_error_pos = NULL;
            return p->_error;
        }
        return execute_null(p);
    }
    simdhttp_isa isa = isa_stored();
    switch (isa) {
#if defined(__x86_64__)
    case SIMDHTTP_ISA_AVX512: return simdhttp__execute_avx512(p, data, len);
    case SIMDHTTP_ISA_AVX2: return simdhttp__execute_avx2(p, data, len);
    case SIMDHTTP_ISA_SSE42: return simdhttp__execute_sse42(p, data, len);
    case SIMDHTTP_ISA_SSE2: return simdhttp__execute_sse2(p, data, len);
#endif
#if defined(__aarch64__)
    case SIMDHTTP_ISA_NEON: return simdhttp__execute_neon(p, data, len);
#endif
    default:
        if (__builtin_expect(!isa, 0)) { /* the process's first call: choose, then the same call */
            (void)choose();
            return simdhttp_execute(p, data, len);
        }
        return simdhttp__execute_scalar(p, data, len);
    }
}

/* The cookie iterator's pair scan: AVX2's (AVX-512 machines run it too); elsewhere none (0:
 * the iterator scans the pair itself) */
uint64_t simdhttp__cookie_pair(const uint8_t *v, uint32_t start, uint32_t vl)
{
    switch (isa_now()) {
#if defined(__x86_64__)
    case SIMDHTTP_ISA_AVX512:
    case SIMDHTTP_ISA_AVX2: return simdhttp__cookie_pair_avx2(v, start, vl);
#endif
    default: (void)v, (void)start, (void)vl; return 0;
    }
}

static long head_isa_first(simdhttp_head *h, simdhttp_type type, const char *buf, size_t len,
                           const simdhttp_config *cfg, int fields);

/* the ISA's head-mode core (fields: a bare field block), which makes its own parser */
static inline long head_isa(simdhttp_head *h, simdhttp_type type, const char *buf, size_t len,
                            const simdhttp_config *cfg, int fields)
{
    simdhttp_isa isa = isa_stored();
    switch (isa) {
#if defined(__x86_64__)
    case SIMDHTTP_ISA_AVX512: return simdhttp__head_avx512(h, type, buf, len, cfg, fields);
    case SIMDHTTP_ISA_AVX2: return simdhttp__head_avx2(h, type, buf, len, cfg, fields);
    case SIMDHTTP_ISA_SSE42: return simdhttp__head_sse42(h, type, buf, len, cfg, fields);
    case SIMDHTTP_ISA_SSE2: return simdhttp__head_sse2(h, type, buf, len, cfg, fields);
#endif
#if defined(__aarch64__)
    case SIMDHTTP_ISA_NEON: return simdhttp__head_neon(h, type, buf, len, cfg, fields);
#endif
    default:
        if (__builtin_expect(!isa, 0)) return head_isa_first(h, type, buf, len, cfg, fields);
        return simdhttp__head_scalar(h, type, buf, len, cfg, fields);
    }
}

/* the process's first call: choose, then the chosen path */
static __attribute__((noinline, cold)) long head_isa_first(simdhttp_head *h, simdhttp_type type, const char *buf,
                                                           size_t len, const simdhttp_config *cfg, int fields)
{
    (void)choose();
    return head_isa(h, type, buf, len, cfg, fields);
}

/* NULL buf or NULL head->fields: the core computes h->fields + h->num_fields, and NULL + 0 is
 * undefined in C (UBSan reports it), so a head with no room (fields NULL, fields_cap 0, as a
 * picohttpparser caller passes NULL with *num_headers 0) parses with a stand-in array that the
 * core never writes (it writes a field only below fields_cap), put back to NULL after. */
static __attribute__((noinline, cold)) long head_refused(simdhttp_head *h, simdhttp_type type, const char *why)
{
    /* what the core leaves after an error before the type is decided (src/core.h, out_error):
     * the type argument, zeros, no spans; a caller logs these after any error */
    h->type = (uint8_t)type;
    h->method = h->http_major = h->http_minor = 0;
    h->status_code = 0;
    h->flags = 0;
    h->reasons = 0; /* a misuse, not a deviation of the message */
    h->content_length = 0;
    h->method_str = h->target = h->reason = NULL;
    h->method_len = h->target_len = h->reason_len = 0;
    h->error = SIMDHTTP_E_INVALID_ARGUMENT;
    h->error_reason = why;
    h->error_offset = 0;
    return SIMDHTTP_HEAD_ERROR;
}

static __attribute__((noinline, cold)) long head_nulls(simdhttp_head *h, simdhttp_type type, const char *buf,
                                                       size_t len, const simdhttp_config *cfg, int fields)
{
    if (!buf && len) return head_refused(h, type, "a NULL buffer with a non-zero length");
    if (!h->fields && h->fields_cap)
        return head_refused(h, type, "head->fields is NULL and head->fields_cap is not 0");
    simdhttp_field none[1];
    int stand_in = !h->fields;
    if (stand_in) h->fields = none;
    long r = head_isa(h, type, buf ? buf : sh_empty, len, cfg, fields);
    if (stand_in) h->fields = NULL;
    return r;
}

/* Both head calls: the head's resets, then a tail call into the ISA's function (no frame),
 * which clears the error members with the start line's (head_nulls, where it returns first) */
static inline long head_run(simdhttp_head *h, simdhttp_type type, const char *buf, size_t len,
                            const simdhttp_config *cfg, int fields)
{
    h->num_fields = 0;
    if (__builtin_expect(!buf || !h->fields, 0)) return head_nulls(h, type, buf, len, cfg, fields);
    return head_isa(h, type, buf, len, cfg, fields);
}

long simdhttp_parse_head(simdhttp_head *h, simdhttp_type type, const char *buf, size_t len,
                         const simdhttp_config *cfg)
{
    return head_run(h, type, buf, len, cfg, 0);
}

/* The core's field lines in trailer mode (no framing fields), started at a line's start;
 * in head mode the core returns at the empty line. */
long simdhttp_parse_fields(simdhttp_head *h, const char *buf, size_t len, const simdhttp_config *cfg)
{
    return head_run(h, SIMDHTTP_REQUEST, buf, len, cfg, 1);
}
