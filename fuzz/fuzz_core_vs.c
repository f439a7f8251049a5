/* SPDX-License-Identifier: MIT */
/* The core against an earlier core: one input through this tree's library and through the
 * library of another commit (fuzz/vs.sh builds it with every symbol renamed old_*), with the
 * tests' own drivers (tests/testlib.c, built for each side): the streaming parser's event log,
 * fed in pieces with pauses, the head API's, and the whole stream's error with its reason text.
 * Any difference aborts with both. For
 * a refactor of src/core.h (a split, a speed-up) that must not change what a caller sees.
 *
 * One input = a 6-byte configuration + the bytes of an HTTP stream:
 *   b0  bits 0-1 type (0 request, 1 response, 2-3 both); bit 2 finish() at the end;
 *       bit 3 small limits (max_head_size 64 * b5, max_fields b5 & 15, max_chunk_ext b5)
 *   b1  lenient flags bits 0-7; b2 bits 8-12 (SIMDHTTP_LENIENT_ALL)
 *   b3  piece lengths: 0 one piece, else the cycle (b3 % 7 + 1, b3 % 13 + 1, b3 % 64 + 1)
 *   b4  pause at event b4 (0xff: never); bits of b0 4-5: on_headers_complete's return
 *   b5  see b0 bit 3 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simdhttp.h"
#include "testlib.h"

/* the other side: tests/testlib.c of the other commit, renamed */
char *old_t_stream_log_ex(simdhttp_type type, const simdhttp_config *cfg, const char *in, size_t len,
                          const size_t *split, size_t nsplit, int eof, int pause_at, int hc_ret);
char *old_t_head_log(simdhttp_type type, const simdhttp_config *cfg, const char *in, size_t len, long *ret);
void old_simdhttp_init(simdhttp_parser *p, simdhttp_type type, const simdhttp_callbacks *cb, const simdhttp_config *cfg);
simdhttp_errno old_simdhttp_execute(simdhttp_parser *p, const char *data, size_t len);
simdhttp_errno old_simdhttp_finish(simdhttp_parser *p);
const char *old_simdhttp_get_error_reason(const simdhttp_parser *p);
uint64_t old_simdhttp_get_error_offset(const simdhttp_parser *p);

/* One side's API for the whole-stream run. */
typedef struct side {
    void (*init)(simdhttp_parser *, simdhttp_type, const simdhttp_callbacks *, const simdhttp_config *);
    simdhttp_errno (*execute)(simdhttp_parser *, const char *, size_t);
    simdhttp_errno (*finish)(simdhttp_parser *);
    const char *(*reason)(const simdhttp_parser *);
    uint64_t (*offset)(const simdhttp_parser *);
} side;
static const side this_tree = {simdhttp_init, simdhttp_execute, simdhttp_finish, simdhttp_get_error_reason,
                               simdhttp_get_error_offset};
static const side other = {old_simdhttp_init, old_simdhttp_execute, old_simdhttp_finish, old_simdhttp_get_error_reason,
                           old_simdhttp_get_error_offset};

/* The whole stream in one call, no callbacks: the error, its offset and its reason text (the
 * logs name the error and its offset, not the text, which the llhttp layer maps). */
static void whole(const side *api, simdhttp_type type, const simdhttp_config *cfg, const char *in, size_t len,
                  int eof, char *out, size_t cap)
{
    simdhttp_parser p;
    api->init(&p, type, NULL, cfg);
    simdhttp_errno e = api->execute(&p, in, len);
    if (e == SIMDHTTP_OK && eof) e = api->finish(&p);
    snprintf(out, cap, "%d at %llu: %s", (int)e, (unsigned long long)api->offset(&p), e ? api->reason(&p) : "");
}

static void differ(const char *what, const char *a, const char *b)
{
    fprintf(stderr, "fuzz_core_vs: the %s differs\n--- this tree\n%s\n--- the other commit\n%s\n", what, a, b);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    t_log_verdict = 0; /* the other commit may have no verdict: the rest of the logs must agree */
    if (size < 6) return 0;
    const uint8_t *b = data;
    simdhttp_type type = (b[0] & 3) == 0 ? SIMDHTTP_REQUEST : (b[0] & 3) == 1 ? SIMDHTTP_RESPONSE : SIMDHTTP_BOTH;
    simdhttp_config cfg = {0};
    cfg.lenient = (b[1] | (uint32_t)b[2] << 8) & SIMDHTTP_LENIENT_ALL;
    if (b[0] & 8) {
        cfg.max_head_size = 64u * b[5];
        cfg.max_fields = b[5] & 15;
        cfg.max_chunk_ext = b[5];
    }
    size_t split[3] = {b[3] % 7 + 1u, b[3] % 13 + 1u, b[3] % 64 + 1u};
    int eof = (b[0] >> 2) & 1, pause_at = b[4] == 0xff ? -1 : b[4];
    int hc = (b[0] >> 4) & 3;
    int hc_ret = hc == 2 ? SIMDHTTP_SKIP_BODY : hc == 3 ? SIMDHTTP_SKIP_BODY_UPGRADE : 0;
    const char *in = (const char *)data + 6;
    size_t len = size - 6;
    /* a copy of exactly the stream's size: ASan sees any read past it */
    char *copy = malloc(len ? len : 1);
    if (!copy) return 0;
    memcpy(copy, in, len);

    char *a = t_stream_log_ex(type, &cfg, copy, len, b[3] ? split : NULL, b[3] ? 3 : 0, eof, pause_at, hc_ret);
    char *o = old_t_stream_log_ex(type, &cfg, copy, len, b[3] ? split : NULL, b[3] ? 3 : 0, eof, pause_at, hc_ret);
    if (strcmp(a, o)) differ("streaming log", a, o);
    free(a);
    free(o);
    char wa[512], wo[512];
    whole(&this_tree, type, &cfg, copy, len, eof, wa, sizeof wa);
    whole(&other, type, &cfg, copy, len, eof, wo, sizeof wo);
    if (strcmp(wa, wo)) differ("error of the whole stream", wa, wo);
    long ra, ro;
    a = t_head_log(type, &cfg, copy, len, &ra);
    o = old_t_head_log(type, &cfg, copy, len, &ro);
    if (ra != ro || strcmp(a, o)) differ("head API log", a, o);
    free(a);
    free(o);
    free(copy);
    return 0;
}
