/* SPDX-License-Identifier: MIT */
/* build/bench/scaling: `make bench-scaling`. Two tables, each cell the median of interleaved
 * rounds (tools/bench_rounds.c, simdhttp bench's method); the rows are the adapters of
 * build/bench/compare (tools/bench_parsers.c, bench/peer_*.c), so every parser does the same
 * work as in `make bench`:
 *
 * 1. Pipelining: ns per message against the number of copies of one small request (default
 *    corpus/get-4h.http) back to back in one buffer, parsed in one pass: the streaming API
 *    (every span recorded), the head API in a loop, picohttpparser (both builds), llhttp -O3.
 * 2. Chunk size: ns per chunk (and GB/s of decoded body) of a response whose chunked body is
 *    64 KiB of data in chunks of 1 to 4096 bytes: the streaming API (on_body), the chunked
 *    decoder API (simdhttp_parse_head, then simdhttp_chunked_decode on a copy of the body:
 *    it decodes in place, as picohttpparser's phr_decode_chunked, whose adapter copies too),
 *    picohttpparser, llhttp -O3 (on_body), and memcpy-body: that copy alone, the part of the
 *    two in-place decoders' time that is not decoding.
 *
 * Usage: scaling [--time S] [--runs N] [--request FILE] */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_rounds.h"

#define MAX_COLS 8

static volatile size_t sink;

typedef struct run_ctx {
    bench_state *s;
    const bench_parser *p;
    const bench_input *in;
    size_t per_msg; /* the unit: 0 messages, else chunks of one message */
} run_ctx;

static double run_sample(void *ctx, size_t iters, size_t *msgs)
{
    run_ctx *c = ctx;
    bench_result r = {0};
    int err = 0;
    double t0 = rounds_cpu_s();
    for (size_t i = 0; i < iters; i++) {
        r = bench_run(c->s, c->p, c->in, 0);
        err |= r.error;
        sink += r.messages + r.body_bytes;
    }
    double el = rounds_cpu_s() - t0;
    *msgs = err ? 0 : c->per_msg ? c->per_msg * r.messages : r.messages;
    return el;
}

/* The chunked decoder API and the copy alone: a scratch buffer at the source's offset in its
 * page, as bench/peer_pico.c places its own (glibc's memcpy is slower on this CPU when the two
 * are 1-31 bytes apart modulo 4096). */
typedef struct chunk_ctx {
    const bench_input *in;
    char *scratch;
    size_t body, chunks;
    int copy_only;
} chunk_ctx;

static double chunk_sample(void *ctx, size_t iters, size_t *msgs)
{
    chunk_ctx *c = ctx;
    size_t ok = 0;
    char *dst = c->scratch + ((uintptr_t)c->in->buf & 4095);
    double t0 = rounds_cpu_s();
    for (size_t i = 0; i < iters; i++) {
        simdhttp_field f[16];
        simdhttp_head h = {.fields = f, .fields_cap = 16};
        long n = simdhttp_parse_head(&h, SIMDHTTP_RESPONSE, c->in->buf, c->in->len, NULL);
        if (n <= 0 || !(h.flags & SIMDHTTP_F_CHUNKED)) break;
        size_t len = c->in->len - (size_t)n;
        memcpy(dst, c->in->buf + n, len);
        if (c->copy_only) {
            sink += (unsigned char)dst[len - 1];
            ok++;
            continue;
        }
        simdhttp_chunked d;
        simdhttp_chunked_init(&d, NULL, SIMDHTTP_CHUNKED_CONSUME_TRAILERS);
        if (simdhttp_chunked_decode(&d, dst, &len) != 0 || len != c->body) break;
        sink += len;
        ok++;
    }
    double el = rounds_cpu_s() - t0;
    *msgs = ok == iters ? c->chunks : 0;
    return el;
}

/* A chunked response of `body` data bytes in chunks of `size` (the last may be shorter). */
static char *gen_chunked(size_t body, size_t size, size_t *len, size_t *chunks)
{
    static const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                               "Transfer-Encoding: chunked\r\n\r\n";
    size_t cap = sizeof head + body + (body / size + 2) * 16, n = sizeof head - 1;
    char *b = malloc(cap);
    if (!b) abort();
    memcpy(b, head, n);
    *chunks = 0;
    for (size_t done = 0; done < body; (*chunks)++) {
        size_t k = body - done < size ? body - done : size;
        n += (size_t)snprintf(b + n, cap - n, "%zx\r\n", k);
        for (size_t i = 0; i < k; i++) b[n++] = (char)('a' + (done + i) % 26);
        b[n++] = '\r';
        b[n++] = '\n';
        done += k;
    }
    n += (size_t)snprintf(b + n, cap - n, "0\r\n\r\n");
    *len = n;
    return b;
}

static int find(const bench_parser *all, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(all[i].name, name) == 0) return (int)i;
    return -1;
}

/* One compact table: rows of sizes, a column per task; cells "median (extra)". */
static void matrix(const char *title, const char *unit, const size_t *sizes, size_t nsz, rounds_task *t,
                   size_t ncol, int gbps)
{
    printf("\n%s\n  %-8s", title, unit);
    for (size_t k = 0; k < ncol; k++) printf(" %18s", t[k].name);
    printf("\n");
    for (size_t i = 0; i < nsz; i++) {
        printf("  %-8zu", sizes[i]);
        for (size_t k = 0; k < ncol; k++) {
            const rounds_task *x = &t[i * ncol + k];
            char c[48];
            if (!x->ok) snprintf(c, sizeof c, "-");
            else if (gbps) snprintf(c, sizeof c, "%.2f (%.2f)", x->med, x->gbps);
            else snprintf(c, sizeof c, "%.1f (%.2f)", x->med, x->ratio);
            printf(" %18s", c);
        }
        printf("\n");
    }
    fflush(stdout);
}

int main(int argc, char **argv)
{
    double time_s = 0.2;
    size_t runs = 21;
    const char *reqfile = "corpus/get-4h.http";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--time") == 0 && i + 1 < argc) time_s = atof(argv[++i]);
        else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = (size_t)atol(argv[++i]);
        else if (strcmp(argv[i], "--request") == 0 && i + 1 < argc) reqfile = argv[++i];
        else {
            fprintf(stderr, "usage: scaling [--time S] [--runs N] [--request FILE]\n");
            return 2;
        }
    }
    if (!(time_s > 0) || runs < 2) return 2;
    bench_register_peers();
    for (const char *const *m = bench_missing_peers(); *m; m++) fprintf(stderr, "note: %s\n", *m);

    static const size_t copies[] = {1, 2, 4, 8, 16, 32, 64};
    static const size_t csize[] = {1, 16, 64, 256, 1024, 4096};
    enum { NP = sizeof copies / sizeof *copies, NC = sizeof csize / sizeof *csize };
    const size_t body = 64 * 1024;
    size_t rlen;
    char *one = bench_read_file(reqfile, &rlen);
    if (!one || rlen == 0) {
        fprintf(stderr, "scaling: cannot read %s\n", reqfile);
        return 1;
    }
    bench_input pin[NP], cin[NC];
    size_t nchunks[NC], max_len = 0;
    char names[NP + NC][32];
    for (size_t i = 0; i < NP; i++) {
        char *b = malloc(rlen * copies[i]);
        if (!b) abort();
        for (size_t k = 0; k < copies[i]; k++) memcpy(b + k * rlen, one, rlen);
        snprintf(names[i], sizeof names[i], "pipelined-%zu", copies[i]);
        pin[i] = (bench_input){names[i], b, rlen * copies[i], 0};
        if (pin[i].len > max_len) max_len = pin[i].len;
    }
    for (size_t i = 0; i < NC; i++) {
        size_t len;
        char *b = gen_chunked(body, csize[i], &len, &nchunks[i]);
        snprintf(names[NP + i], sizeof names[NP + i], "chunked-%zu", csize[i]);
        cin[i] = (bench_input){names[NP + i], b, len, 1};
        if (len > max_len) max_len = len;
    }
    char *scratch_mem = malloc(max_len + 2 * 4096);
    if (!scratch_mem) abort();
    char *scratch = (char *)(((uintptr_t)scratch_mem + 4095) & ~(uintptr_t)4095);

    bench_parser all[16];
    size_t nall = bench_parsers(all, 16, simdhttp_isa_get());
    static const char *const pipe_cols[] = {"simdhttp", "simdhttp-head", "pico-native", "pico-libh2o", "llhttp-O3"};
    static const char *const chunk_cols[] = {"simdhttp", "simdhttp-chunked", "pico-native", "pico-libh2o",
                                             "llhttp-O3", "memcpy-body"};
    bench_state *s = bench_state_new(max_len);
    printf("simdhttp %s scaling bench, dispatched isa %s; median of %zu interleaved rounds, %.2fs per "
           "parser per input, CPU time\n(in each row, every parser is a task of the same rounds)\n",
           simdhttp_version(), simdhttp_isa_name(), runs, time_s);

    /* Table 1 */
    rounds_task pt[NP * MAX_COLS];
    run_ctx prc[NP * MAX_COLS];
    size_t npc = 0;
    int pidx[MAX_COLS];
    for (size_t k = 0; k < sizeof pipe_cols / sizeof *pipe_cols; k++)
        if ((pidx[npc] = find(all, nall, pipe_cols[k])) >= 0) npc++;
    for (size_t i = 0; i < NP; i++) {
        for (size_t k = 0; k < npc; k++) {
            rounds_task *t = &pt[i * npc + k];
            prc[i * npc + k] = (run_ctx){s, &all[pidx[k]], &pin[i], 0};
            *t = (rounds_task){.sample = run_sample, .ctx = &prc[i * npc + k], .bytes = pin[i].len};
            snprintf(t->name, sizeof t->name, "%s", all[pidx[k]].name);
        }
        rounds_measure(&pt[i * npc], npc, runs, time_s / (double)runs);
        char title[96];
        snprintf(title, sizeof title, "%s (%zu copies of %s, %zu bytes)", pin[i].name, copies[i], reqfile,
                 pin[i].len);
        rounds_print(title, &pt[i * npc], npc);
    }

    /* Table 2 */
    rounds_task ct[NC * MAX_COLS];
    run_ctx crc[NC * MAX_COLS];
    chunk_ctx ckc[NC * MAX_COLS];
    size_t ncc = 0;
    const char *cname[MAX_COLS];
    int cidx[MAX_COLS];
    for (size_t k = 0; k < sizeof chunk_cols / sizeof *chunk_cols; k++) {
        int j = find(all, nall, chunk_cols[k]);
        if (j < 0 && strcmp(chunk_cols[k], "simdhttp-chunked") && strcmp(chunk_cols[k], "memcpy-body")) continue;
        cidx[ncc] = j;
        cname[ncc++] = chunk_cols[k];
    }
    for (size_t i = 0; i < NC; i++) {
        for (size_t k = 0; k < ncc; k++) {
            size_t x = i * ncc + k;
            if (cidx[k] >= 0) {
                crc[x] = (run_ctx){s, &all[cidx[k]], &cin[i], nchunks[i]};
                ct[x] = (rounds_task){.sample = run_sample, .ctx = &crc[x], .bytes = body};
            } else {
                ckc[x] = (chunk_ctx){&cin[i], scratch, body, nchunks[i], strcmp(cname[k], "memcpy-body") == 0};
                ct[x] = (rounds_task){.sample = chunk_sample, .ctx = &ckc[x], .bytes = body};
            }
            snprintf(ct[x].name, sizeof ct[x].name, "%s", cname[k]);
        }
        rounds_measure(&ct[i * ncc], ncc, runs, time_s / (double)runs);
        char title[128];
        snprintf(title, sizeof title, "%s (a response, 64 KiB of data in %zu chunks of %zu bytes, %zu bytes; "
                 "ns per chunk)", cin[i].name, nchunks[i], csize[i], cin[i].len);
        rounds_print(title, &ct[i * ncc], ncc);
    }

    matrix("Pipelining: ns per message (paired ratio to simdhttp) against the number of pipelined "
           "copies of the request in one buffer",
           "copies", copies, NP, pt, npc, 0);
    matrix("Chunk size: ns per chunk (GB/s of decoded body) against the chunk size, 64 KiB of chunk "
           "data in one response",
           "chunk", csize, NC, ct, ncc, 1);

    for (size_t i = 0; i < NP; i++) free((char *)pin[i].buf);
    for (size_t i = 0; i < NC; i++) free((char *)cin[i].buf);
    rounds_free(pt, NP * npc);
    rounds_free(ct, NC * ncc);
    bench_state_free(s);
    free(scratch_mem);
    free(one);
    return 0;
}
