/* SPDX-License-Identifier: MIT */
/* simdhttp bench: simdhttp (and, in bench/compare.c's program, its peers), with statistics
 * that survive a noisy machine. `simdhttp bench FILE...` times simdhttp's APIs and paths on
 * the user's own captures; `make bench` runs build/bench/compare, the same code with the
 * peers registered.
 *
 * Method. Every (parser, input) pair is a task. A task's iteration count is calibrated once so
 * that one sample lasts time/runs seconds. Then `runs` rounds each take one sample of every
 * task of a table, interleaved (round r starts at task r mod n: A B C, B C A, ...), so a burst
 * of load or a frequency change hits all parsers alike and no parser always runs first.
 * Reported per task: the median ns/message over the rounds with its distribution-free 95%
 * interval (order statistics, tools/bench_stats.c); GB/s at the median; the ratio to the
 * table's first row (simdhttp), as the median of the per-round paired ratios with its
 * distribution-free 95% interval; Welch's t-test p-value of its samples against simdhttp's.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench.h"
#include "cli.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#endif
#endif

#define MAX_PARSERS 16
#define MAX_INPUTS 64

typedef struct opts {
    int json, scaling, check, instructions, list;
    double time; /* seconds per task, all rounds together */
    size_t runs;
    const char *plot_dir;
    const char *json_out; /* also write the JSON object here (text stays on stdout) */
    const char *only; /* comma-separated parser names, or NULL */
} opts;

typedef struct task {
    const bench_parser *p;
    const bench_input *in;
    int workload;
    size_t piece;
    size_t iters, msgs;
    double *ns; /* per-round ns per message */
    /* results */
    double med, lo, hi, gbps, ratio, rlo, rhi, pval;
    int ok;
} task;

static volatile size_t sink; /* keeps every pass's result alive */

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
static double now_s(void) { return clock_s(CLOCK_MONOTONIC); }
/* Samples use this thread's CPU time: time spent descheduled while other processes run on
 * this shared machine is not the parser's (it still pays for their cache pollution). */
static double cpu_s(void) { return clock_s(CLOCK_THREAD_CPUTIME_ID); }

/* ---- inputs ---- */


static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static size_t default_files(char **out, size_t cap)
{
    DIR *d = opendir("corpus");
    size_t n = 0;
    if (!d) return 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < cap) {
        size_t l = strlen(e->d_name);
        if (l > 5 && strcmp(e->d_name + l - 5, ".http") == 0) {
            out[n] = malloc(l + 8);
            if (!out[n]) abort();
            snprintf(out[n++], l + 8, "corpus/%s", e->d_name);
        }
    }
    closedir(d);
    qsort(out, n, sizeof *out, cmp_str);
    return n;
}

static int set_input(bench_input *in, const char *name, char *buf, size_t len)
{
    in->name = name;
    in->buf = buf;
    in->len = len;
    in->response = len >= 5 && memcmp(buf, "HTTP/", 5) == 0;
    return 0;
}

/* Generated messages for the scaling tables. */
static char *gen_fields(size_t nfields, size_t *len)
{
    size_t cap = 64 + nfields * 48;
    char *b = malloc(cap);
    if (!b) abort();
    int n = snprintf(b, cap, "GET /scaling/fields HTTP/1.1\r\nHost: bench.example\r\n");
    for (size_t i = 1; i < nfields; i++)
        n += snprintf(b + n, cap - (size_t)n, "X-Field-%03zu: value-%03zu-abcdefgh\r\n", i, i);
    n += snprintf(b + n, cap - (size_t)n, "\r\n");
    *len = (size_t)n;
    return b;
}

static char *gen_values(size_t vlen, size_t *len)
{
    static const char pat[] = "abcdefghijklmnopqrstuvwxyz0123456789-_.;=/ ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    size_t cap = 128 + 4 * (vlen + 32);
    char *b = malloc(cap);
    if (!b) abort();
    int n = snprintf(b, cap, "GET /scaling/value HTTP/1.1\r\nHost: bench.example\r\n");
    for (int f = 0; f < 4; f++) {
        n += snprintf(b + n, cap - (size_t)n, "X-Value-%d: ", f);
        for (size_t i = 0; i < vlen; i++) b[n++] = (i == 0 || i + 1 == vlen) ? 'v' : pat[(i * 7 + (size_t)f) % (sizeof pat - 1)];
        b[n++] = '\r';
        b[n++] = '\n';
    }
    n += snprintf(b + n, cap - (size_t)n, "\r\n");
    *len = (size_t)n;
    return b;
}

/* ---- measurement ---- */

static void use_isa(const bench_parser *p)
{
    if (p->isa) simdhttp_isa_set(p->isa);
}

static bench_result once(bench_state *s, const task *t)
{
    bench_answer a;
    if (t->workload) {
        bench_result r = bench_workload(s, t->p, t->in, &a);
        sink += a.method_len + a.ua_len + a.cookie_len;
        return r;
    }
    return bench_run(s, t->p, t->in, t->piece);
}

/* The timed loop; noinline so that profiles show it as the one frame around the parsers. */
__attribute__((noinline)) static double timed_loop(bench_state *s, const task *t, size_t iters)
{
    double t0 = cpu_s();
    for (size_t i = 0; i < iters; i++) {
        bench_result r = once(s, t);
        sink += r.messages + r.body_bytes;
    }
    return cpu_s() - t0;
}

static void calibrate(bench_state *s, task *t, double sample_s)
{
    use_isa(t->p);
    bench_result r = once(s, t); /* warm caches and branch predictors */
    t->ok = !r.error && r.messages > 0;
    t->msgs = r.messages;
    if (!t->ok) return;
    size_t k = 1;
    double el;
    while ((el = timed_loop(s, t, k)) < 0.002 && k < (1u << 30)) k *= 2;
    double per = el / (double)k;
    t->iters = (size_t)(sample_s / per);
    if (t->iters < 1) t->iters = 1;
}

/* Interleaved rounds over tasks t[0..n); t[0] is the baseline of the ratios. */
static void measure(bench_state *s, task *t, size_t n, const opts *o, double time_scale)
{
    double sample_s = o->time * time_scale / (double)o->runs;
    for (size_t i = 0; i < n; i++) {
        t[i].ns = calloc(o->runs, sizeof(double));
        if (!t[i].ns) abort();
        calibrate(s, &t[i], sample_s);
    }
    for (size_t r = 0; r < o->runs; r++)
        for (size_t k = 0; k < n; k++) {
            task *x = &t[(k + r) % n];
            if (!x->ok) continue;
            use_isa(x->p);
            x->ns[r] = timed_loop(s, x, x->iters) * 1e9 / (double)(x->iters * x->msgs);
        }
    double *ratio = calloc(o->runs, sizeof(double));
    if (!ratio) abort();
    for (size_t i = 0; i < n; i++) {
        task *x = &t[i];
        if (!x->ok) continue;
        x->med = bench_median(x->ns, o->runs);
        bench_median_ci(x->ns, o->runs, &x->lo, &x->hi);
        x->gbps = (double)x->in->len / (double)x->msgs / x->med; /* bytes per ns = GB/s */
        if (t[0].ok) {
            for (size_t r = 0; r < o->runs; r++) ratio[r] = x->ns[r] / t[0].ns[r];
            x->ratio = bench_median(ratio, o->runs);
            bench_median_ci(ratio, o->runs, &x->rlo, &x->rhi);
            x->pval = i == 0 ? 1 : bench_welch_p(x->ns, o->runs, t[0].ns, o->runs);
        } else {
            x->ratio = x->rlo = x->rhi = x->pval = NAN;
        }
    }
    free(ratio);
}

static void free_tasks(task *t, size_t n)
{
    for (size_t i = 0; i < n; i++) free(t[i].ns);
}

/* ---- output ---- */

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

static void json_num(FILE *f, double v)
{
    if (isnan(v) || isinf(v)) fputs("null", f);
    else fprintf(f, "%.6g", v);
}

static void json_task(FILE *f, const task *x)
{
    fprintf(f, "{\"median_ns\": ");
    json_num(f, x->med);
    fprintf(f, ", \"ci_low_ns\": ");
    json_num(f, x->lo);
    fprintf(f, ", \"ci_high_ns\": ");
    json_num(f, x->hi);
    fprintf(f, ", \"gbps\": ");
    json_num(f, x->gbps);
    fprintf(f, ", \"ratio_to_simdhttp\": ");
    json_num(f, x->ratio);
    fprintf(f, ", \"ratio_ci_low\": ");
    json_num(f, x->rlo);
    fprintf(f, ", \"ratio_ci_high\": ");
    json_num(f, x->rhi);
    fprintf(f, ", \"p_welch\": ");
    json_num(f, x->pval);
    fprintf(f, ", \"messages\": %zu, \"bytes\": %zu}", x->msgs, x->in->len);
}

/* Rows t[0..n) of one table as a JSON object keyed by parser name. */
static void json_group(FILE *f, const task *t, size_t n)
{
    int first = 1;
    fputc('{', f);
    for (size_t i = 0; i < n; i++) {
        if (!t[i].ok) continue;
        fprintf(f, "%s", first ? "" : ", ");
        first = 0;
        json_str(f, t[i].p->name);
        fputs(": ", f);
        json_task(f, &t[i]);
    }
    fputc('}', f);
}

static void text_header(const char *title)
{
    printf("\n%s\n", title);
    printf("  %-18s %10s  %-21s %7s %7s  %-15s %9s\n", "parser", "ns/msg", "95% CI ns/msg", "GB/s",
           "ratio", "95% CI ratio", "p(Welch)");
}

static void text_rows(const task *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const task *x = &t[i];
        if (!x->ok) {
            printf("  %-18s %10s  (rejected the input or does not run this test)\n", x->p->name, "-");
            continue;
        }
        char ci[64], rci[64], p[32];
        snprintf(ci, sizeof ci, "[%.1f, %.1f]", x->lo, x->hi);
        if (i == 0) snprintf(rci, sizeof rci, "-"), snprintf(p, sizeof p, "-");
        else {
            snprintf(rci, sizeof rci, "[%.2f, %.2f]", x->rlo, x->rhi);
            snprintf(p, sizeof p, x->pval < 1e-4 ? "%.0e" : "%.4f", x->pval);
        }
        printf("  %-18s %10.1f  %-21s %7.2f %7.2f  %-15s %9s\n", x->p->name, x->med, ci, x->gbps,
               x->ratio, rci, p);
    }
}

/* ---- environment ---- */

static void cpu_model(char *out, size_t cap)
{
    snprintf(out, cap, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Model", 5) == 0) {
            char *c = strchr(line, ':');
            if (!c) continue;
            c++;
            while (*c == ' ' || *c == '\t') c++;
            c[strcspn(c, "\n")] = 0;
            snprintf(out, cap, "%s", c);
            break;
        }
    }
    fclose(f);
}

static const char *compiler(void)
{
#if defined(__clang__)
    return "clang " __clang_version__;
#elif defined(__GNUC__)
    return "gcc " __VERSION__;
#else
    return "unknown";
#endif
}

/* ---- option parsing ---- */

/* The help: on stdout for --help (exit 0), on stderr after bad usage (exit 2). */
int cli_bench_usage(FILE *f)
{
    fprintf(f,
            "usage: simdhttp bench [--json] [--time S] [--runs N] [--scaling] [--parsers A,B,...]\n"
            "                      [--json-out FILE] [--plot-data DIR] [--check] [--instructions] [--list]\n"
            "                      [FILE...]\n"
            "  FILEs default to corpus/*.http. --time: seconds per parser per input (default 0.2);\n"
            "  --runs: interleaved rounds (default 21); --scaling: add the scaling tables;\n"
            "  --json-out FILE: the JSON object into FILE, the text tables on stdout;\n"
            "  --plot-data DIR: gnuplot data files (see bench/plots.gp);\n"
            "  --check: verify that every parser does the same work (exit 1 if not);\n"
            "  --instructions: run under valgrind --tool=callgrind (see bench/instructions.sh);\n"
            "  --list: print the parsers' names.\n");
    return f == stdout ? 0 : 2;
}
static int usage(void) { return cli_bench_usage(stderr); }

static int wanted(const opts *o, const char *name)
{
    if (!o->only) return 1;
    size_t l = strlen(name);
    for (const char *s = o->only; *s;) {
        size_t k = strcspn(s, ",");
        if (k == l && strncmp(s, name, l) == 0) return 1;
        s += k + (s[k] == ',');
    }
    return 0;
}

static size_t workload_parsers(const opts *o, bench_parser *wl, simdhttp_isa dispatched)
{
    bench_parser all[MAX_PARSERS];
    size_t n = bench_workload_parsers(all, MAX_PARSERS, dispatched), w = 0;
    for (size_t i = 0; i < n; i++)
        if ((i == 0 && !o->instructions) || wanted(o, all[i].name)) wl[w++] = all[i];
    return w;
}

/* ---- check mode: every adapter does the same work; statistics match known values ---- */

static int checks_run, checks_failed;

static void check(int ok, const char *what, const char *a, const char *b)
{
    checks_run++;
    if (!ok) checks_failed++;
    printf("%s %d - %s%s%s%s%s\n", ok ? "ok" : "not ok", checks_run, what, a ? " " : "", a ? a : "",
           b ? " " : "", b ? b : "");
}

static int near(double x, double want, double tol) { return fabs(x - want) <= tol; }

static int span_eq(const char *a, size_t al, const char *b, size_t bl)
{
    return al == bl && (al == 0 || (a && b && memcmp(a, b, al) == 0));
}

#define UA_SEED "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"

static void check_stats(void)
{
    double a[] = {3, 1, 2}, b[] = {4, 1, 3, 2}, seq[21], lo, hi;
    for (int i = 0; i < 21; i++) seq[i] = 21 - i;
    check(bench_median(a, 3) == 2, "median of 3", NULL, NULL);
    check(bench_median(b, 4) == 2.5, "median of 4", NULL, NULL);
    bench_median_ci(seq, 21, &lo, &hi);
    check(lo == 6 && hi == 16, "median CI n=21 is [x(6), x(16)]", NULL, NULL);
    bench_median_ci(seq, 5, &lo, &hi);
    check(lo == 17 && hi == 21, "median CI n=5 falls back to [min, max]", NULL, NULL);
    check(near(bench_ibeta(2, 3, 0.4), 0.5248, 1e-9), "I_0.4(2,3) = 0.5248", NULL, NULL);
    check(near(bench_ibeta(0.5, 0.5, 0.5), 0.5, 1e-9), "I_0.5(1/2,1/2) = 0.5", NULL, NULL);
    double x[] = {1, 2, 3, 4, 5}, y[] = {6, 7, 8, 9, 10}, z[] = {1, 2, 3, 4, 6};
    /* t = -5 with 8 degrees of freedom: two-sided p = 1.0528e-3 (Student's t table). */
    check(near(bench_welch_p(x, 5, y, 5), 1.0528e-3, 2e-6), "Welch p, t=-5 df=8", NULL, NULL);
    check(near(bench_welch_p(x, 5, x, 5), 1, 1e-12), "Welch p of equal samples is 1", NULL, NULL);
    double pz = bench_welch_p(x, 5, z, 5);
    check(pz > 0.8 && pz < 1, "Welch p of close samples is large", NULL, NULL);
}

static void check_inputs(const bench_parser *ps, size_t np, const bench_parser *wl, size_t nwl,
                         const bench_input *in, size_t ni, bench_state *s)
{
    static const size_t pieces[] = {0, 1, 7, 64};
    for (size_t i = 0; i < ni; i++) {
        simdhttp_isa_set(ps[0].isa);
        bench_result ref = bench_run(s, &ps[0], &in[i], 0);
        check(!ref.error && ref.messages > 0, "simdhttp parses", in[i].name, NULL);
        for (size_t k = 0; k < np; k++)
            for (size_t q = 0; q < sizeof pieces / sizeof *pieces; q++) {
                use_isa(&ps[k]);
                bench_result r = bench_run(s, &ps[k], &in[i], pieces[q]);
                char what[128];
                snprintf(what, sizeof what, "same messages and body bytes (piece %zu):", pieces[q]);
                check(!r.error && r.messages == ref.messages && r.body_bytes == ref.body_bytes, what,
                      ps[k].name, in[i].name);
            }
        simdhttp_isa_set(ps[0].isa);
        if (in[i].response) continue;
        bench_answer want = {0}, got;
        int have = 0;
        for (size_t k = 0; k < nwl; k++) {
            bench_result r = bench_workload(s, &wl[k], &in[i], &got);
            check(!r.error && r.messages == ref.messages, "workload parses", wl[k].name, in[i].name);
            if (!have) want = got, have = 1;
            check(span_eq(got.method, got.method_len, want.method, want.method_len) &&
                      span_eq(got.ua, got.ua_len, want.ua, want.ua_len) &&
                      span_eq(got.cookie, got.cookie_len, want.cookie, want.cookie_len),
                  "workload answer agrees", wl[k].name, in[i].name);
            const char *base = strrchr(in[i].name, '/');
            base = base ? base + 1 : in[i].name;
            if (strcmp(base, "seed-simple.http") == 0)
                check(span_eq(got.method, got.method_len, "GET", 3) &&
                          span_eq(got.ua, got.ua_len,
                                  UA_SEED, sizeof UA_SEED - 1) &&
                          span_eq(got.cookie, got.cookie_len, "session_id", 10),
                      "workload answer is GET / Firefox UA / session_id", wl[k].name, NULL);
        }
    }
}

/* ---- callgrind: instructions per message ---- */

#ifdef HAVE_CALLGRIND
__attribute__((noinline)) static void counted_loop(bench_state *s, const task *t, size_t iters)
{
    CALLGRIND_TOGGLE_COLLECT;
    for (size_t i = 0; i < iters; i++) {
        bench_result r = once(s, t);
        sink += r.messages + r.body_bytes;
    }
    CALLGRIND_TOGGLE_COLLECT;
}

static void instr_task(bench_state *s, task *t, const char *table)
{
    const size_t iters = 20;
    use_isa(t->p);
    bench_result r = once(s, t);
    if (r.error || !r.messages) return;
    counted_loop(s, t, iters);
    char label[256];
    const char *base = strrchr(t->in->name, '/');
    snprintf(label, sizeof label, "simdhttp-bench|%s|%s|%s|%zu", table, t->p->name,
             base ? base + 1 : t->in->name, iters * r.messages);
    CALLGRIND_DUMP_STATS_AT(label);
}
#endif

/* ---- threads: messages per second, each thread its own parser state ---- */

typedef struct thr {
    const bench_parser *p;
    const bench_input *in;
    double seconds;
    size_t msgs;
    double cpu; /* this thread's CPU seconds */
} thr;

static void *thr_main(void *arg)
{
    thr *t = arg;
    bench_state *s = bench_state_new(t->in->len);
    bench_run(s, t->p, t->in, 0); /* untimed: makes a peer's state, warms the caches */
    double end = now_s() + t->seconds, c0 = cpu_s();
    size_t m = 0;
    do {
        for (int i = 0; i < 64; i++) m += bench_run(s, t->p, t->in, 0).messages;
    } while (now_s() < end);
    t->cpu = cpu_s() - c0;
    t->msgs = m;
    bench_state_free(s);
    return NULL;
}

/* @return messages per wall-clock second, all threads together; *per_cpu gets messages per
 * CPU-second of one thread (the same with 1 and 2 threads when nothing is shared, whatever
 * else the machine runs). */
static double msgs_per_s(const bench_parser *p, const bench_input *in, int nthreads, double seconds,
                         double *per_cpu)
{
    pthread_t id[2];
    thr t[2];
    double t0 = now_s();
    for (int i = 0; i < nthreads; i++) {
        t[i] = (thr){p, in, seconds, 0, 0};
        if (pthread_create(&id[i], NULL, thr_main, &t[i]) != 0) return NAN;
    }
    size_t total = 0;
    double cpu = 0;
    for (int i = 0; i < nthreads; i++) {
        pthread_join(id[i], NULL);
        total += t[i].msgs;
        cpu += t[i].cpu;
    }
    *per_cpu = (double)total / cpu;
    return (double)total / (now_s() - t0);
}

/* ---- main ---- */

static const bench_input *find_input(const bench_input *in, size_t n, const char *base)
{
    for (size_t i = 0; i < n; i++) {
        const char *b = strrchr(in[i].name, '/');
        if (strcmp(b ? b + 1 : in[i].name, base) == 0) return &in[i];
    }
    return NULL;
}

static const char *basename_of(const char *p)
{
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

static FILE *open_plot(const opts *o, const char *name)
{
    if (!o->plot_dir) return NULL;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", o->plot_dir, name);
    FILE *f = fopen(path, "w");
    if (!f) fprintf(stderr, "simdhttp bench: cannot write %s: %s\n", path, strerror(errno));
    return f;
}

int cli_bench(int argc, char **argv)
{
    opts o = {0, 0, 0, 0, 0, 0.2, 21, NULL, NULL, NULL};
    char *files[MAX_INPUTS];
    size_t nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return cli_bench_usage(stdout);
        if (strcmp(a, "--json") == 0) o.json = 1;
        else if (strcmp(a, "--scaling") == 0) o.scaling = 1;
        else if (strcmp(a, "--check") == 0) o.check = 1;
        else if (strcmp(a, "--instructions") == 0) o.instructions = 1;
        else if (strcmp(a, "--list") == 0) o.list = 1;
        else if (strcmp(a, "--time") == 0 && i + 1 < argc) o.time = atof(argv[++i]);
        else if (strcmp(a, "--runs") == 0 && i + 1 < argc) o.runs = (size_t)atol(argv[++i]);
        else if (strcmp(a, "--plot-data") == 0 && i + 1 < argc) o.plot_dir = argv[++i];
        else if (strcmp(a, "--parsers") == 0 && i + 1 < argc) o.only = argv[++i];
        else if (strcmp(a, "--json-out") == 0 && i + 1 < argc) o.json_out = argv[++i];
        else if (a[0] == '-' && a[1]) return usage();
        else if (nfiles < MAX_INPUTS) files[nfiles++] = argv[i];
    }
    if (!(o.time > 0) || o.runs < 2) return usage();
    if (o.list) { /* the parsers of the main table, one per line (bench/instructions.sh) */
        bench_parser all[MAX_PARSERS];
        size_t n = bench_parsers(all, MAX_PARSERS, simdhttp_isa_get());
        for (size_t i = 0; i < n; i++) printf("%s\n", all[i].name);
        n = bench_workload_parsers(all, MAX_PARSERS, simdhttp_isa_get()); /* and the workload's own */
        for (size_t i = 0; i < n; i++)
            if (all[i].kind == BK_FIELDS) printf("%s\n", all[i].name);
        return 0;
    }
    int own_names = nfiles == 0;
    if (own_names) nfiles = default_files(files, MAX_INPUTS);
    if (nfiles == 0) {
        fprintf(stderr, "simdhttp bench: no FILE given and no corpus/*.http here\n");
        return 2;
    }

    bench_input in[MAX_INPUTS];
    size_t max_len = 0;
    for (size_t i = 0; i < nfiles; i++) {
        size_t len;
        char *b = bench_read_file(files[i], &len);
        if (!b) {
            fprintf(stderr, "simdhttp bench: %s: %s\n", files[i], strerror(errno));
            while (i--) free((char *)in[i].buf);
            return CLI_EXIT_IO; /* simdhttp(1): an input that cannot be opened or read */
        }
        set_input(&in[i], files[i], b, len);
        if (len > max_len) max_len = len;
    }

    /* Generated inputs for the scaling tables (and the check). */
    static const size_t nf[] = {4, 8, 16, 32, 64, 128};
    static const size_t vl[] = {8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
    enum { NF = sizeof nf / sizeof *nf, NV = sizeof vl / sizeof *vl };
    bench_input gf[NF], gv[NV];
    char gname[NF + NV][32];
    for (size_t i = 0; i < NF; i++) {
        size_t len;
        char *b = gen_fields(nf[i], &len);
        snprintf(gname[i], sizeof gname[i], "fields-%zu", nf[i]);
        set_input(&gf[i], gname[i], b, len);
        if (len > max_len) max_len = len;
    }
    for (size_t i = 0; i < NV; i++) {
        size_t len;
        char *b = gen_values(vl[i], &len);
        snprintf(gname[NF + i], sizeof gname[NF + i], "value-%zu", vl[i]);
        set_input(&gv[i], gname[NF + i], b, len);
        if (len > max_len) max_len = len;
    }

    simdhttp_isa dispatched = simdhttp_isa_get();
    bench_parser all[MAX_PARSERS], ps[MAX_PARSERS];
    size_t nall = bench_parsers(all, MAX_PARSERS, dispatched), np = 0;
    for (size_t i = 0; i < nall; i++)
        if ((i == 0 && !o.instructions) || wanted(&o, all[i].name))
            ps[np++] = all[i]; /* simdhttp: the baseline of the ratios, always measured */
    bench_state *s = bench_state_new(max_len);
    int rc = 0;

    if (o.check) {
        check_stats();
        bench_parser wlc[MAX_PARSERS];
        size_t nwlc = workload_parsers(&o, wlc, dispatched);
        check_inputs(ps, np, wlc, nwlc, in, nfiles, s);
        check_inputs(ps, np, wlc, nwlc, gf, NF, s);
        check_inputs(ps, np, wlc, nwlc, gv, NV, s);
        printf("%d passed, %d failed\n", checks_run - checks_failed, checks_failed);
        rc = checks_failed ? 1 : 0;
        goto out;
    }

    if (o.instructions) {
#ifdef HAVE_CALLGRIND
        if (!RUNNING_ON_VALGRIND)
            fprintf(stderr, "simdhttp bench --instructions: not under valgrind; nothing is counted "
                            "(use bench/instructions.sh)\n");
        for (size_t i = 0; i < nfiles; i++)
            for (size_t k = 0; k < np; k++) {
                task t = {.p = &ps[k], .in = &in[i]};
                instr_task(s, &t, "parse");
            }
        bench_parser wli[MAX_PARSERS];
        size_t nwli = workload_parsers(&o, wli, dispatched);
        for (size_t i = 0; i < nfiles; i++)
            for (size_t k = 0; k < nwli && !in[i].response; k++) {
                task t = {.p = &wli[k], .in = &in[i], .workload = 1};
                instr_task(s, &t, "workload");
            }
        simdhttp_isa_set(dispatched);
#else
        fprintf(stderr, "simdhttp bench: built without <valgrind/callgrind.h>\n");
        rc = 2;
#endif
        goto out;
    }

    char cpu[256];
    cpu_model(cpu, sizeof cpu);
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    const char *const *miss = bench_missing_peers();
    for (; *miss; miss++) fprintf(stderr, "note: %s\n", *miss);
    if (!o.json) {
        printf("simdhttp %s bench, %s, CPU %s, dispatched isa %s, %s\n", simdhttp_version(), date, cpu,
               simdhttp_isa_name(), compiler());
        printf("median of %zu interleaved rounds, %.2fs per parser per input; CI: distribution-free "
               "95%% interval of the median;\nratio = this parser's ns / simdhttp's ns (median of "
               "per-round paired ratios, > 1: simdhttp is faster); p: Welch t-test vs simdhttp\n",
               o.runs, o.time);
    }

    /* Table 1: every parser on every file. */
    task *main_t = calloc(nfiles * np, sizeof *main_t);
    if (!main_t) abort();
    FILE *pf = open_plot(&o, "corpus.dat");
    if (pf) {
        fprintf(pf, "file");
        for (size_t k = 0; k < np; k++) fprintf(pf, " %s", ps[k].name);
        fprintf(pf, "\n");
    }
    for (size_t i = 0; i < nfiles; i++) {
        task *t = &main_t[i * np];
        for (size_t k = 0; k < np; k++) t[k] = (task){.p = &ps[k], .in = &in[i]};
        measure(s, t, np, &o, 1);
        if (!o.json) {
            char title[256];
            snprintf(title, sizeof title, "%s (%zu bytes, %zu message%s, %s)", basename_of(in[i].name),
                     in[i].len, t[0].msgs, t[0].msgs == 1 ? "" : "s", in[i].response ? "responses" : "requests");
            text_header(title);
            text_rows(t, np);
            fflush(stdout);
        }
        if (pf) {
            fprintf(pf, "%s", basename_of(in[i].name));
            for (size_t k = 0; k < np; k++) fprintf(pf, " %.2f", t[k].ok ? t[k].med : NAN);
            fprintf(pf, "\n");
        }
    }
    if (pf) fclose(pf);
    simdhttp_isa_set(dispatched);

    /* Table 2: the method + User-Agent + first cookie workload on every request file. */
    bench_parser wl[MAX_PARSERS];
    size_t nwl = workload_parsers(&o, wl, dispatched);
    task *wl_t = calloc(nfiles * (nwl ? nwl : 1), sizeof *wl_t);
    if (!wl_t) abort();
    if (!o.json && nwl)
        printf("\nWorkload: parse a request, return its method, User-Agent value and first cookie "
               "name (per message)\n");
    for (size_t i = 0; i < nfiles && nwl; i++) {
        if (in[i].response) continue;
        task *t = &wl_t[i * nwl];
        for (size_t k = 0; k < nwl; k++) t[k] = (task){.p = &wl[k], .in = &in[i], .workload = 1};
        measure(s, t, nwl, &o, 1);
        if (!o.json) {
            text_header(basename_of(in[i].name));
            text_rows(t, nwl);
            fflush(stdout);
        }
    }

    /* Scaling tables. */
    bench_parser sc[MAX_PARSERS];
    size_t nsc = 0;
    /* The dispatched streaming and head APIs, the scalar path (what SIMD buys), the peers. */
    for (size_t k = 0; k < np; k++)
        if (strcmp(ps[k].name, "simdhttp") == 0 || strcmp(ps[k].name, "simdhttp-head") == 0 ||
            strcmp(ps[k].name, "simdhttp-scalar") == 0 ||
            (ps[k].kind == BK_PEER && bench_peer_of(&ps[k])->scaling))
            sc[nsc++] = ps[k];
    task *sf = NULL, *sv = NULL, *spc = NULL;
    static const size_t pieces[] = {1, 16, 64, 512, 4096, 0};
    enum { NPC = sizeof pieces / sizeof *pieces };
    const bench_input *pin[2] = {find_input(in, nfiles, "browser-get.http"), find_input(in, nfiles, "post-10k.http")};
    double thr_rate[MAX_PARSERS][2], thr_cpu[MAX_PARSERS][2];
    const bench_input *tin = find_input(in, nfiles, "browser-get.http");
    if (!tin) tin = &in[0];
    if (o.scaling) {
        sf = calloc(NF * nsc, sizeof *sf);
        sv = calloc(NV * nsc, sizeof *sv);
        spc = calloc(2 * NPC * nsc, sizeof *spc);
        if (!sf || !sv || !spc) abort();
        for (size_t i = 0; i < NF; i++) {
            for (size_t k = 0; k < nsc; k++) sf[i * nsc + k] = (task){.p = &sc[k], .in = &gf[i]};
            measure(s, &sf[i * nsc], nsc, &o, 0.5);
        }
        for (size_t i = 0; i < NV; i++) {
            for (size_t k = 0; k < nsc; k++) sv[i * nsc + k] = (task){.p = &sc[k], .in = &gv[i]};
            measure(s, &sv[i * nsc], nsc, &o, 0.5);
        }
        for (size_t f = 0; f < 2; f++)
            for (size_t i = 0; i < NPC && pin[f]; i++) {
                task *t = &spc[(f * NPC + i) * nsc];
                for (size_t k = 0; k < nsc; k++) t[k] = (task){.p = &sc[k], .in = pin[f], .piece = pieces[i]};
                measure(s, t, nsc, &o, 0.5);
            }
        simdhttp_isa_set(dispatched);
        /* Threads: 3 interleaved repetitions of (1 thread, 2 threads) per parser; median. */
        for (size_t k = 0; k < nsc; k++) {
            double r1[3], r2[3], c1[3], c2[3];
            use_isa(&sc[k]);
            for (int rep = 0; rep < 3; rep++) {
                r1[rep] = msgs_per_s(&sc[k], tin, 1, o.time, &c1[rep]);
                r2[rep] = msgs_per_s(&sc[k], tin, 2, o.time, &c2[rep]);
            }
            thr_rate[k][0] = bench_median(r1, 3);
            thr_rate[k][1] = bench_median(r2, 3);
            thr_cpu[k][0] = bench_median(c1, 3);
            thr_cpu[k][1] = bench_median(c2, 3);
        }
        simdhttp_isa_set(dispatched);

        if (!o.json) {
            printf("\nScaling: ns per message against the number of fields (generated GET, Host + "
                   "X-Field-NNN: 18-byte values)\n  %-8s", "fields");
            for (size_t k = 0; k < nsc; k++) printf(" %16s", sc[k].name);
            printf("\n");
            for (size_t i = 0; i < NF; i++) {
                printf("  %-8zu", nf[i]);
                for (size_t k = 0; k < nsc; k++) printf(" %16.1f", sf[i * nsc + k].ok ? sf[i * nsc + k].med : NAN);
                printf("\n");
            }
            printf("\nScaling: ns per message (GB/s) against field value length (generated GET, Host "
                   "+ 4 fields of that length)\n  %-8s", "bytes");
            for (size_t k = 0; k < nsc; k++) printf(" %16s", sc[k].name);
            printf("\n");
            for (size_t i = 0; i < NV; i++) {
                printf("  %-8zu", vl[i]);
                for (size_t k = 0; k < nsc; k++) {
                    const task *x = &sv[i * nsc + k];
                    char c[32];
                    snprintf(c, sizeof c, "%.0f (%.2f)", x->ok ? x->med : NAN, x->ok ? x->gbps : NAN);
                    printf(" %16s", c);
                }
                printf("\n");
            }
            for (size_t f = 0; f < 2; f++) {
                if (!pin[f]) continue;
                printf("\nStreaming: GB/s against the piece size given to each call, %s (head-style "
                       "parsers re-parse the head when more bytes arrive)\n  %-8s",
                       basename_of(pin[f]->name), "piece");
                for (size_t k = 0; k < nsc; k++) printf(" %16s", sc[k].name);
                printf("\n");
                for (size_t i = 0; i < NPC; i++) {
                    char pc[32];
                    if (pieces[i]) snprintf(pc, sizeof pc, "%zu", pieces[i]);
                    else snprintf(pc, sizeof pc, "whole");
                    printf("  %-8s", pc);
                    for (size_t k = 0; k < nsc; k++) {
                        const task *x = &spc[(f * NPC + i) * nsc + k];
                        printf(" %16.3f", x->ok ? x->gbps : NAN);
                    }
                    printf("\n");
                }
            }
            printf("\nThreads: messages per second on %s, each thread its own parser (median of 3).\n"
                   "Wall: all threads together per wall-clock second (needs idle cores to scale).\n"
                   "Per CPU: per CPU-second of one thread (flat from 1 to 2 threads: nothing shared).\n"
                   "  %-18s %12s %12s %7s %14s %14s %7s\n",
                   basename_of(tin->name), "parser", "wall 1t", "wall 2t", "2t/1t", "per CPU 1t",
                   "per CPU 2t", "2t/1t");
            for (size_t k = 0; k < nsc; k++)
                printf("  %-18s %12.0f %12.0f %7.2f %14.0f %14.0f %7.2f\n", sc[k].name, thr_rate[k][0],
                       thr_rate[k][1], thr_rate[k][1] / thr_rate[k][0], thr_cpu[k][0], thr_cpu[k][1],
                       thr_cpu[k][1] / thr_cpu[k][0]);
        }
        FILE *f1 = open_plot(&o, "scaling-fields.dat"), *f2 = open_plot(&o, "scaling-values.dat"), *f3 = open_plot(&o, "streaming-pieces.dat");
        if (f1 && f2 && f3) {
            fprintf(f1, "fields");
            fprintf(f2, "bytes");
            fprintf(f3, "piece");
            for (size_t k = 0; k < nsc; k++) {
                fprintf(f1, " %s", sc[k].name);
                fprintf(f2, " %s", sc[k].name);
                for (size_t f = 0; f < 2; f++)
                    if (pin[f]) fprintf(f3, " %s/%s", sc[k].name, basename_of(pin[f]->name));
            }
            fprintf(f1, "\n");
            fprintf(f2, "\n");
            fprintf(f3, "\n");
            for (size_t i = 0; i < NF; i++) {
                fprintf(f1, "%zu", nf[i]);
                for (size_t k = 0; k < nsc; k++) fprintf(f1, " %.2f", sf[i * nsc + k].ok ? sf[i * nsc + k].med : NAN);
                fprintf(f1, "\n");
            }
            for (size_t i = 0; i < NV; i++) {
                fprintf(f2, "%zu", vl[i]);
                for (size_t k = 0; k < nsc; k++) fprintf(f2, " %.2f", sv[i * nsc + k].ok ? sv[i * nsc + k].med : NAN);
                fprintf(f2, "\n");
            }
            for (size_t i = 0; i < NPC; i++) {
                fprintf(f3, "%zu", pieces[i] ? pieces[i] : (size_t)65536);
                for (size_t k = 0; k < nsc; k++)
                    for (size_t f = 0; f < 2; f++)
                        if (pin[f]) {
                            const task *x = &spc[(f * NPC + i) * nsc + k];
                            fprintf(f3, " %.4f", x->ok ? x->gbps : NAN);
                        }
                fprintf(f3, "\n");
            }
        }
        if (f1) fclose(f1);
        if (f2) fclose(f2);
        if (f3) fclose(f3);
    }

    FILE *f = o.json ? stdout : o.json_out ? fopen(o.json_out, "w") : NULL;
    if (!o.json && o.json_out && !f) {
        fprintf(stderr, "simdhttp bench: cannot write %s: %s\n", o.json_out, strerror(errno));
        rc = CLI_EXIT_IO;
    }
    if (f) {
        fprintf(f, "{\"cpu\": ");
        json_str(f, cpu);
        fprintf(f, ", \"isa\": ");
        json_str(f, simdhttp_isa_name());
        fprintf(f, ", \"version\": ");
        json_str(f, simdhttp_version());
        fprintf(f, ", \"compiler\": ");
        json_str(f, compiler());
        fprintf(f, ", \"date\": ");
        json_str(f, date);
        fprintf(f, ", \"runs\": %zu, \"time_s\": %g,\n \"method\": ", o.runs, o.time);
        json_str(f, "median of interleaved rounds; ci_*_ns: distribution-free 95% interval of the "
                    "median (order statistics); ratio_to_simdhttp: this parser's ns / simdhttp's, "
                    "median of per-round paired ratios, ratio_ci_*: its distribution-free 95% "
                    "interval; p_welch: Welch t-test against simdhttp");
        fprintf(f, ",\n \"missing_peers\": [");
        miss = bench_missing_peers();
        for (int first = 1; *miss; miss++, first = 0) {
            fprintf(f, "%s", first ? "" : ", ");
            json_str(f, *miss);
        }
        fprintf(f, "],\n \"files\": {");
        for (size_t i = 0; i < nfiles; i++) {
            fprintf(f, "%s\n  ", i ? "," : "");
            json_str(f, basename_of(in[i].name));
            fputs(": ", f);
            json_group(f, &main_t[i * np], np);
        }
        fprintf(f, "},\n \"workload\": {");
        int first = 1;
        for (size_t i = 0; i < nfiles && nwl; i++) {
            if (in[i].response) continue;
            fprintf(f, "%s\n  ", first ? "" : ",");
            first = 0;
            json_str(f, basename_of(in[i].name));
            fputs(": ", f);
            json_group(f, &wl_t[i * nwl], nwl);
        }
        fprintf(f, "}");
        if (o.scaling) {
            fprintf(f, ",\n \"scaling_fields\": {");
            for (size_t i = 0; i < NF; i++) {
                fprintf(f, "%s\n  \"%zu\": ", i ? "," : "", nf[i]);
                json_group(f, &sf[i * nsc], nsc);
            }
            fprintf(f, "},\n \"scaling_value_length\": {");
            for (size_t i = 0; i < NV; i++) {
                fprintf(f, "%s\n  \"%zu\": ", i ? "," : "", vl[i]);
                json_group(f, &sv[i * nsc], nsc);
            }
            fprintf(f, "},\n \"streaming_pieces\": {");
            first = 1;
            for (size_t p = 0; p < 2; p++) {
                if (!pin[p]) continue;
                fprintf(f, "%s\n  ", first ? "" : ",");
                first = 0;
                json_str(f, basename_of(pin[p]->name));
                fprintf(f, ": {");
                for (size_t i = 0; i < NPC; i++) {
                    if (pieces[i]) fprintf(f, "%s\"%zu\": ", i ? ", " : "", pieces[i]);
                    else fprintf(f, "%s\"whole\": ", i ? ", " : "");
                    json_group(f, &spc[(p * NPC + i) * nsc], nsc);
                }
                fprintf(f, "}");
            }
            fprintf(f, "},\n \"threads\": {\"input\": ");
            json_str(f, basename_of(tin->name));
            for (size_t k = 0; k < nsc; k++) {
                fprintf(f, ", ");
                json_str(f, sc[k].name);
                fprintf(f, ": {\"msgs_per_s_1\": ");
                json_num(f, thr_rate[k][0]);
                fprintf(f, ", \"msgs_per_s_2\": ");
                json_num(f, thr_rate[k][1]);
                fprintf(f, ", \"msgs_per_cpu_s_1\": ");
                json_num(f, thr_cpu[k][0]);
                fprintf(f, ", \"msgs_per_cpu_s_2\": ");
                json_num(f, thr_cpu[k][1]);
                fprintf(f, "}");
            }
            fprintf(f, "}");
        }
        fprintf(f, "}\n");
        if (f != stdout) fclose(f);
    }

    free_tasks(main_t, nfiles * np);
    free(main_t);
    if (nwl) free_tasks(wl_t, nfiles * nwl);
    free(wl_t);
    if (o.scaling) {
        free_tasks(sf, NF * nsc);
        free_tasks(sv, NV * nsc);
        free_tasks(spc, 2 * NPC * nsc);
    }
    free(sf);
    free(sv);
    free(spc);
out:
    bench_state_free(s);
    for (size_t i = 0; i < nfiles; i++) free((char *)in[i].buf);
    for (size_t i = 0; own_names && i < nfiles; i++) free(files[i]);
    for (size_t i = 0; i < NF; i++) free((char *)gf[i].buf);
    for (size_t i = 0; i < NV; i++) free((char *)gv[i].buf);
    return rc;
}
