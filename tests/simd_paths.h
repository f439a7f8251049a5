/* SPDX-License-Identifier: MIT */
/* The scanner paths compiled into this build, for tests/test_scan.c and tests/test_guard.c.
 * The out-of-line scanners are exported (hidden) by src/isa/<name>/isa_<name>.c; the scalar reference is
 * the inline code of src/isa/scalar/scan_scalar.h itself. */
#ifndef SIMDHTTP_TEST_SIMD_PATHS_H
#define SIMDHTTP_TEST_SIMD_PATHS_H

#include <stdint.h>
#include <stdlib.h>

#include "isa/scalar/scan_scalar.h"
#include "simdhttp.h"

typedef const uint8_t *(*scan_fn)(int kind, const uint8_t *s, const uint8_t *e);

static const char *const kind_names[3] = {"token", "value", "target"};

static inline const uint8_t *ref_scan(int kind, const uint8_t *s, const uint8_t *e)
{
    return kind == 0 ? scalar_scan_token(s, e) : kind == 1 ? scalar_scan_value(s, e) : scalar_scan_target(s, e);
}

#if defined(__x86_64__)
const uint8_t *simdhttp__scan_sse2(int, const uint8_t *, const uint8_t *);
const uint8_t *simdhttp__scan_sse42(int, const uint8_t *, const uint8_t *);
const uint8_t *simdhttp__scan_avx2(int, const uint8_t *, const uint8_t *);
const uint8_t *simdhttp__scan_avx512(int, const uint8_t *, const uint8_t *);
#endif
#if defined(__aarch64__)
const uint8_t *simdhttp__scan_neon(int, const uint8_t *, const uint8_t *);
#endif

struct simd_path {
    simdhttp_isa isa;
    scan_fn fn;
};

static const struct simd_path simd_paths[] = {
#if defined(__x86_64__)
    {SIMDHTTP_ISA_SSE2, simdhttp__scan_sse2},
    {SIMDHTTP_ISA_SSE42, simdhttp__scan_sse42},
    {SIMDHTTP_ISA_AVX2, simdhttp__scan_avx2},
    {SIMDHTTP_ISA_AVX512, simdhttp__scan_avx512},
#endif
#if defined(__aarch64__)
    {SIMDHTTP_ISA_NEON, simdhttp__scan_neon},
#endif
    {0, NULL}};

/* Stage 1 of each path, out of line (src/isa/<name>/isa_<name>.c; contract in src/stage1.h). */
#include "stage1.h"
typedef void (*stage1_fn)(const uint8_t *p, const uint8_t *lo, const uint8_t *end, sh_masks *m);
void simdhttp__stage1_scalar(const uint8_t *, const uint8_t *, const uint8_t *, sh_masks *);
#if defined(__x86_64__)
void simdhttp__stage1_sse2(const uint8_t *, const uint8_t *, const uint8_t *, sh_masks *);
void simdhttp__stage1_sse42(const uint8_t *, const uint8_t *, const uint8_t *, sh_masks *);
void simdhttp__stage1_avx2(const uint8_t *, const uint8_t *, const uint8_t *, sh_masks *);
void simdhttp__stage1_avx512(const uint8_t *, const uint8_t *, const uint8_t *, sh_masks *);
#endif
#if defined(__aarch64__)
void simdhttp__stage1_neon(const uint8_t *, const uint8_t *, const uint8_t *, sh_masks *);
#endif

static const struct stage1_path {
    simdhttp_isa isa;
    stage1_fn fn;
} stage1_paths[] = {
    {SIMDHTTP_ISA_SCALAR, simdhttp__stage1_scalar},
#if defined(__x86_64__)
    {SIMDHTTP_ISA_SSE2, simdhttp__stage1_sse2},
    {SIMDHTTP_ISA_SSE42, simdhttp__stage1_sse42},
    {SIMDHTTP_ISA_AVX2, simdhttp__stage1_avx2},
    {SIMDHTTP_ISA_AVX512, simdhttp__stage1_avx512},
#endif
#if defined(__aarch64__)
    {SIMDHTTP_ISA_NEON, simdhttp__stage1_neon},
#endif
    {0, NULL}};

/* Which paths to test: the one SIMDHTTP_ISA forces (tests/run.sh runs the suite once per
 * path), else every path this CPU supports. */
static inline int path_selected(simdhttp_isa isa)
{
    if (!simdhttp_isa_supported(isa)) return 0;
    const char *want = getenv("SIMDHTTP_ISA");
    return !want || !*want || simdhttp_isa_get() == isa;
}

#endif
