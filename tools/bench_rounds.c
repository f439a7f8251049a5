/* SPDX-License-Identifier: MIT */
/* Interleaved rounds and simdhttp bench's table layout (tools/bench_rounds.h). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"
#include "bench_rounds.h"

double rounds_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void calibrate(rounds_task *t, double sample_s)
{
    size_t k = 1;
    double el = t->sample(t->ctx, 1, &t->msgs); /* warm caches and branch predictors */
    t->ok = t->msgs > 0;
    if (!t->ok) return;
    while ((el = t->sample(t->ctx, k, &t->msgs)) < 0.002 && k < (1u << 30)) k *= 2;
    t->iters = (size_t)(sample_s / (el / (double)k));
    if (t->iters < 1) t->iters = 1;
}

void rounds_measure(rounds_task *t, size_t n, size_t runs, double sample_s)
{
    for (size_t i = 0; i < n; i++) {
        t[i].ns = calloc(runs, sizeof(double));
        if (!t[i].ns) abort();
        calibrate(&t[i], sample_s);
    }
    for (size_t r = 0; r < runs; r++)
        for (size_t k = 0; k < n; k++) {
            rounds_task *x = &t[(k + r) % n];
            size_t m = 0;
            if (!x->ok) continue;
            double s = x->sample(x->ctx, x->iters, &m);
            if (m != x->msgs) x->ok = 0; /* the work changed between passes: drop the row */
            x->ns[r] = s * 1e9 / (double)(x->iters * x->msgs);
        }
    double *ratio = calloc(runs, sizeof(double));
    if (!ratio) abort();
    for (size_t i = 0; i < n; i++) {
        rounds_task *x = &t[i];
        x->ratio = x->rlo = x->rhi = x->pval = NAN;
        if (!x->ok) continue;
        x->med = bench_median(x->ns, runs);
        bench_median_ci(x->ns, runs, &x->lo, &x->hi);
        x->gbps = (double)x->bytes / (double)x->msgs / x->med;
        if (!t[0].ok) continue;
        for (size_t r = 0; r < runs; r++) ratio[r] = x->ns[r] / t[0].ns[r];
        x->ratio = bench_median(ratio, runs);
        bench_median_ci(ratio, runs, &x->rlo, &x->rhi);
        x->pval = i == 0 ? 1 : bench_welch_p(x->ns, runs, t[0].ns, runs);
    }
    free(ratio);
}

void rounds_free(rounds_task *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(t[i].ns);
        t[i].ns = NULL;
    }
}

void rounds_print(const char *title, const rounds_task *t, size_t n)
{
    printf("\n%s\n", title);
    printf("  %-18s %10s  %-21s %7s %7s  %-15s %9s\n", "parser", "ns/msg", "95% CI ns/msg", "GB/s",
           "ratio", "95% CI ratio", "p(Welch)");
    for (size_t i = 0; i < n; i++) {
        const rounds_task *x = &t[i];
        if (!x->ok) {
            printf("  %-18s %10s  (rejected the input or does not run this test)\n", x->name, "-");
            continue;
        }
        char ci[64], rci[64], p[32];
        snprintf(ci, sizeof ci, "[%.1f, %.1f]", x->lo, x->hi);
        if (i == 0) snprintf(rci, sizeof rci, "-"), snprintf(p, sizeof p, "-");
        else {
            snprintf(rci, sizeof rci, "[%.2f, %.2f]", x->rlo, x->rhi);
            snprintf(p, sizeof p, x->pval < 1e-4 ? "%.0e" : "%.4f", x->pval);
        }
        printf("  %-18s %10.1f  %-21s %7.2f %7.2f  %-15s %9s\n", x->name, x->med, ci, x->gbps, x->ratio,
               rci, p);
    }
    fflush(stdout);
}
