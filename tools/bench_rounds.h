/* SPDX-License-Identifier: MIT */
/* Interleaved rounds: the timing method of simdhttp bench (tools/cli_bench.c, whose rows are
 * parsers on inputs), bench/seed.c (other processes) and bench/scaling.c (inputs generated per
 * row); docs/benchmarks.md. Each task calibrated once to a sample of time/runs seconds; `runs`
 * rounds, each one sample of every task, rotated (round r starts at task r mod n); per task
 * the median ns/message with its distribution-free 95% interval, and the median of the
 * per-round paired ratios to task 0, with its interval. */
#ifndef SIMDHTTP_TOOLS_BENCH_ROUNDS_H
#define SIMDHTTP_TOOLS_BENCH_ROUNDS_H

#include <stddef.h>

typedef struct rounds_task {
    char name[32];
    /* One sample: `iters` passes over the task's input. @return the CPU seconds they took,
     * and sets *msgs to the messages (or chunks) of one pass; 0 messages: the task failed. */
    double (*sample)(void *ctx, size_t iters, size_t *msgs);
    void *ctx;
    size_t bytes; /* input bytes of one pass, for GB/s */
    /* out */
    size_t iters, msgs;
    double *ns; /* per round: ns per message */
    double med, lo, hi, gbps, ratio, rlo, rhi, pval;
    int ok;
} rounds_task;

/* The CPU time of this process (every thread), in seconds. */
double rounds_cpu_s(void);
/* Calibrates and measures t[0..n) in `runs` interleaved rounds of `sample_s` seconds a sample. */
void rounds_measure(rounds_task *t, size_t n, size_t runs, double sample_s);
void rounds_free(rounds_task *t, size_t n);
/* simdhttp bench's table layout: a title line, the column header, one line per task. */
void rounds_print(const char *title, const rounds_task *t, size_t n);

#endif
