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
 * The rounds are tools/bench_rounds.c's, shared with bench/seed.c and bench/scaling.c.
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
#include "bench_rounds.h"
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

/* One row of a table: a parser on an input, the whole parse or the workload (piece > 0: the
 * input arrives in pieces of that many bytes). Its timing is a rounds_task whose ctx is the
 * row (tools/bench_rounds.h: the interleaved rounds, medians and paired ratios). */
typedef struct task {
    const bench_parser *p;
    const bench_input *in;
    int workload;
    size_t piece;
    bench_state *s; /* the buffers the sampler's passes use */
} task;

/* A table's rows, t[i * cols + k], and their timings, r[i * cols + k]. */
typedef struct rows {
    task *t;
    rounds_task *r;
    size_t n;
} rows;

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

/* The timed loop; noinline so that profiles show it as the one frame around the parsers.
 * @return the CPU seconds of `iters` passes; *msgs: the messages of one pass, 0 if one failed */
__attribute__((noinline)) static double timed_loop(bench_state *s, const task *t, size_t iters, size_t *msgs)
{
    size_t m = 0;
    int failed = 0;
    double t0 = cpu_s();
    for (size_t i = 0; i < iters; i++) {
        bench_result r = once(s, t);
        sink += r.messages + r.body_bytes;
        failed |= r.error;
        m = r.messages;
    }
    double el = cpu_s() - t0;
    *msgs = failed ? 0 : m;
    return el;
}

/* The rounds' sampler (rounds_task.sample): the row's SIMD path, then its timed loop. */
static double task_sample(void *ctx, size_t iters, size_t *msgs)
{
    const task *t = ctx;
    use_isa(t->p);
    return timed_loop(t->s, t, iters, msgs);
}

static rows rows_new(size_t n)
{
    rows x = {calloc(n ? n : 1, sizeof *x.t), calloc(n ? n : 1, sizeof *x.r), n};
    if (!x.t || !x.r) abort();
    return x;
}

static void rows_free(rows *x)
{
    if (x->r) rounds_free(x->r, x->n);
    free(x->t);
    free(x->r);
    *x = (rows){NULL, NULL, 0};
}

/* Times the rows x->t[at .. at + n) in interleaved rounds (the first: the ratios' baseline),
 * each sample time * time_scale / runs seconds. */
static void measure(rows *x, size_t at, size_t n, const opts *o, double time_scale)
{
    for (size_t k = at; k < at + n; k++) {
        x->r[k] = (rounds_task){.sample = task_sample, .ctx = &x->t[k], .bytes = x->t[k].in->len};
        snprintf(x->r[k].name, sizeof x->r[k].name, "%s", x->t[k].p->name);
    }
    rounds_measure(&x->r[at], n, o->runs, o->time * time_scale / (double)o->runs);
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

static void json_task(FILE *f, const rounds_task *x)
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
    fprintf(f, ", \"messages\": %zu, \"bytes\": %zu}", x->msgs, x->bytes);
}

/* Rows t[0..n) of one table as a JSON object keyed by parser name. */
static void json_group(FILE *f, const rounds_task *t, size_t n)
{
    int first = 1;
    fputc('{', f);
    for (size_t i = 0; i < n; i++) {
        if (!t[i].ok) continue;
        fprintf(f, "%s", first ? "" : ", ");
        first = 0;
        json_str(f, t[i].name);
        fputs(": ", f);
        json_task(f, &t[i]);
    }
    fputc('}', f);
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

/* The generated inputs of the scaling tables: a GET with nf[i] fields, and one with four
 * values of vl[i] bytes; the piece sizes of the streaming table (0: the whole input). */
static const size_t nf[] = {4, 8, 16, 32, 64, 128};
static const size_t vl[] = {8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
static const size_t pieces[] = {1, 16, 64, 512, 4096, 0};
enum { NF = sizeof nf / sizeof *nf, NV = sizeof vl / sizeof *vl, NPC = sizeof pieces / sizeof *pieces };

/* What one run of simdhttp bench holds: its options, inputs, parsers and tables. */
typedef struct run {
    opts o;
    char *files[MAX_INPUTS];
    size_t nfiles, nread; /* FILEs named (or found in corpus/), and read into in[] */
    int own_names;        /* files[] were allocated by default_files */
    bench_input in[MAX_INPUTS], gf[NF], gv[NV];
    char gname[NF + NV][32];
    size_t max_len;
    simdhttp_isa dispatched;
    bench_parser ps[MAX_PARSERS], wl[MAX_PARSERS], sc[MAX_PARSERS]; /* main, workload, scaling */
    size_t np, nwl, nsc;
    bench_state *s;
    rows main_t, wl_t, sf, sv, spc; /* [file][parser] and the scaling tables' [row][parser] */
    const bench_input *pin[2], *tin; /* the streaming table's inputs; the threads' input */
    double thr_rate[MAX_PARSERS][2], thr_cpu[MAX_PARSERS][2];
    char cpu[256], date[64];
} run;

/* @return -1 to go on, else the exit code (--help, bad usage) */
static int parse_args(run *r, int argc, char **argv)
{
    opts *o = &r->o;
    *o = (opts){0, 0, 0, 0, 0, 0.2, 21, NULL, NULL, NULL};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return cli_bench_usage(stdout);
        if (strcmp(a, "--json") == 0) o->json = 1;
        else if (strcmp(a, "--scaling") == 0) o->scaling = 1;
        else if (strcmp(a, "--check") == 0) o->check = 1;
        else if (strcmp(a, "--instructions") == 0) o->instructions = 1;
        else if (strcmp(a, "--list") == 0) o->list = 1;
        else if (strcmp(a, "--time") == 0 && i + 1 < argc) o->time = atof(argv[++i]);
        else if (strcmp(a, "--runs") == 0 && i + 1 < argc) o->runs = (size_t)atol(argv[++i]);
        else if (strcmp(a, "--plot-data") == 0 && i + 1 < argc) o->plot_dir = argv[++i];
        else if (strcmp(a, "--parsers") == 0 && i + 1 < argc) o->only = argv[++i];
        else if (strcmp(a, "--json-out") == 0 && i + 1 < argc) o->json_out = argv[++i];
        else if (a[0] == '-' && a[1]) return usage();
        else if (r->nfiles < MAX_INPUTS) r->files[r->nfiles++] = argv[i];
    }
    if (!(o->time > 0) || o->runs < 2) return usage();
    return -1;
}

/* --list: the parsers of the main table, one per line (bench/instructions.sh), and the
 * workload's own. */
static int list_parsers(void)
{
    bench_parser all[MAX_PARSERS];
    size_t n = bench_parsers(all, MAX_PARSERS, simdhttp_isa_get());
    for (size_t i = 0; i < n; i++) printf("%s\n", all[i].name);
    n = bench_workload_parsers(all, MAX_PARSERS, simdhttp_isa_get());
    for (size_t i = 0; i < n; i++)
        if (all[i].kind == BK_FIELDS) printf("%s\n", all[i].name);
    return 0;
}

/* The FILEs (the .http files of corpus/ when none is named) and the generated inputs. @return 0, or the
 * exit code */
static int load_inputs(run *r)
{
    r->own_names = r->nfiles == 0;
    if (r->own_names) r->nfiles = default_files(r->files, MAX_INPUTS);
    if (r->nfiles == 0) {
        fprintf(stderr, "simdhttp bench: no FILE given and no corpus/*.http here\n");
        return 2;
    }
    for (size_t i = 0; i < r->nfiles; i++) {
        size_t len;
        char *b = bench_read_file(r->files[i], &len);
        if (!b) {
            fprintf(stderr, "simdhttp bench: %s: %s\n", r->files[i], strerror(errno));
            return CLI_EXIT_IO; /* simdhttp(1): an input that cannot be opened or read */
        }
        set_input(&r->in[r->nread++], r->files[i], b, len);
        if (len > r->max_len) r->max_len = len;
    }
    for (size_t i = 0; i < NF + NV; i++) {
        size_t len;
        bench_input *x = i < NF ? &r->gf[i] : &r->gv[i - NF];
        char *b = i < NF ? gen_fields(nf[i], &len) : gen_values(vl[i - NF], &len);
        if (i < NF) snprintf(r->gname[i], sizeof r->gname[i], "fields-%zu", nf[i]);
        else snprintf(r->gname[i], sizeof r->gname[i], "value-%zu", vl[i - NF]);
        set_input(x, r->gname[i], b, len);
        if (len > r->max_len) r->max_len = len;
    }
    return 0;
}

/* The main table's parsers (simdhttp, the ratios' baseline, always but for --instructions),
 * the workload's, and the scaling tables': the dispatched streaming and head APIs, the scalar
 * path (what SIMD buys) and the peers that take part. */
static void pick_parsers(run *r)
{
    bench_parser all[MAX_PARSERS];
    size_t nall = bench_parsers(all, MAX_PARSERS, r->dispatched);
    for (size_t i = 0; i < nall; i++)
        if ((i == 0 && !r->o.instructions) || wanted(&r->o, all[i].name)) r->ps[r->np++] = all[i];
    r->nwl = workload_parsers(&r->o, r->wl, r->dispatched);
    for (size_t k = 0; k < r->np; k++) {
        const bench_parser *p = &r->ps[k];
        if (strcmp(p->name, "simdhttp") == 0 || strcmp(p->name, "simdhttp-head") == 0 ||
            strcmp(p->name, "simdhttp-scalar") == 0 || (p->kind == BK_PEER && bench_peer_of(p)->scaling))
            r->sc[r->nsc++] = *p;
    }
}

/* --check: the statistics, then the same work from every parser on every input. */
static int run_check(run *r)
{
    check_stats();
    check_inputs(r->ps, r->np, r->wl, r->nwl, r->in, r->nfiles, r->s);
    check_inputs(r->ps, r->np, r->wl, r->nwl, r->gf, NF, r->s);
    check_inputs(r->ps, r->np, r->wl, r->nwl, r->gv, NV, r->s);
    printf("%d passed, %d failed\n", checks_run - checks_failed, checks_failed);
    return checks_failed ? 1 : 0;
}

/* --instructions: one callgrind dump per (table, parser, file) (bench/instructions.sh). */
static int run_instructions(run *r)
{
#ifdef HAVE_CALLGRIND
    if (!RUNNING_ON_VALGRIND)
        fprintf(stderr, "simdhttp bench --instructions: not under valgrind; nothing is counted "
                        "(use bench/instructions.sh)\n");
    for (size_t i = 0; i < r->nfiles; i++)
        for (size_t k = 0; k < r->np; k++) {
            task t = {.p = &r->ps[k], .in = &r->in[i]};
            instr_task(r->s, &t, "parse");
        }
    for (size_t i = 0; i < r->nfiles; i++)
        for (size_t k = 0; k < r->nwl && !r->in[i].response; k++) {
            task t = {.p = &r->wl[k], .in = &r->in[i], .workload = 1};
            instr_task(r->s, &t, "workload");
        }
    simdhttp_isa_set(r->dispatched);
    return 0;
#else
    (void)r;
    fprintf(stderr, "simdhttp bench: built without <valgrind/callgrind.h>\n");
    return 2;
#endif
}

/* The run's header: missing peers on stderr; CPU, date and method on stdout (text only). */
static void preamble(run *r)
{
    cpu_model(r->cpu, sizeof r->cpu);
    time_t now = time(NULL);
    strftime(r->date, sizeof r->date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    for (const char *const *miss = bench_missing_peers(); *miss; miss++) fprintf(stderr, "note: %s\n", *miss);
    if (r->o.json) return;
    printf("simdhttp %s bench, %s, CPU %s, dispatched isa %s, %s\n", simdhttp_version(), r->date, r->cpu,
           simdhttp_isa_name(), compiler());
    printf("median of %zu interleaved rounds, %.2fs per parser per input; CI: distribution-free "
           "95%% interval of the median;\nratio = this parser's ns / simdhttp's ns (median of "
           "per-round paired ratios, > 1: simdhttp is faster); p: Welch t-test vs simdhttp\n",
           r->o.runs, r->o.time);
}

/* Table 1: every parser on every file (and its plot data, corpus.dat). */
static void corpus_table(run *r)
{
    size_t np = r->np;
    r->main_t = rows_new(r->nfiles * np);
    FILE *pf = open_plot(&r->o, "corpus.dat");
    if (pf) {
        fprintf(pf, "file");
        for (size_t k = 0; k < np; k++) fprintf(pf, " %s", r->ps[k].name);
        fprintf(pf, "\n");
    }
    for (size_t i = 0; i < r->nfiles; i++) {
        task *t = &r->main_t.t[i * np];
        const rounds_task *x = &r->main_t.r[i * np];
        for (size_t k = 0; k < np; k++) t[k] = (task){.p = &r->ps[k], .in = &r->in[i], .s = r->s};
        measure(&r->main_t, i * np, np, &r->o, 1);
        if (!r->o.json) {
            char title[256];
            snprintf(title, sizeof title, "%s (%zu bytes, %zu message%s, %s)", basename_of(r->in[i].name),
                     r->in[i].len, x[0].msgs, x[0].msgs == 1 ? "" : "s", r->in[i].response ? "responses" : "requests");
            rounds_print(title, x, np);
        }
        if (pf) {
            fprintf(pf, "%s", basename_of(r->in[i].name));
            for (size_t k = 0; k < np; k++) fprintf(pf, " %.2f", x[k].ok ? x[k].med : NAN);
            fprintf(pf, "\n");
        }
    }
    if (pf) fclose(pf);
    simdhttp_isa_set(r->dispatched);
}

/* Table 2: the method + User-Agent + first cookie workload on every request file. */
static void workload_table(run *r)
{
    size_t nwl = r->nwl;
    r->wl_t = rows_new(r->nfiles * nwl);
    if (!r->o.json && nwl)
        printf("\nWorkload: parse a request, return its method, User-Agent value and first cookie "
               "name (per message)\n");
    for (size_t i = 0; i < r->nfiles && nwl; i++) {
        if (r->in[i].response) continue;
        task *t = &r->wl_t.t[i * nwl];
        for (size_t k = 0; k < nwl; k++) t[k] = (task){.p = &r->wl[k], .in = &r->in[i], .workload = 1, .s = r->s};
        measure(&r->wl_t, i * nwl, nwl, &r->o, 1);
        if (!r->o.json) rounds_print(basename_of(r->in[i].name), &r->wl_t.r[i * nwl], nwl);
    }
}

/* The scaling tables' timings: fields, value length, piece size (at half the time), then
 * the threads: 3 interleaved repetitions of (1 thread, 2 threads) per parser, medians. */
static void scaling_measure(run *r)
{
    size_t nsc = r->nsc;
    r->pin[0] = find_input(r->in, r->nfiles, "browser-get.http");
    r->pin[1] = find_input(r->in, r->nfiles, "post-10k.http");
    r->tin = r->pin[0] ? r->pin[0] : &r->in[0];
    r->sf = rows_new(NF * nsc);
    r->sv = rows_new(NV * nsc);
    r->spc = rows_new(2 * NPC * nsc);
    for (size_t i = 0; i < NF; i++) {
        for (size_t k = 0; k < nsc; k++) r->sf.t[i * nsc + k] = (task){.p = &r->sc[k], .in = &r->gf[i], .s = r->s};
        measure(&r->sf, i * nsc, nsc, &r->o, 0.5);
    }
    for (size_t i = 0; i < NV; i++) {
        for (size_t k = 0; k < nsc; k++) r->sv.t[i * nsc + k] = (task){.p = &r->sc[k], .in = &r->gv[i], .s = r->s};
        measure(&r->sv, i * nsc, nsc, &r->o, 0.5);
    }
    for (size_t f = 0; f < 2; f++)
        for (size_t i = 0; i < NPC && r->pin[f]; i++) {
            task *t = &r->spc.t[(f * NPC + i) * nsc];
            for (size_t k = 0; k < nsc; k++)
                t[k] = (task){.p = &r->sc[k], .in = r->pin[f], .piece = pieces[i], .s = r->s};
            measure(&r->spc, (f * NPC + i) * nsc, nsc, &r->o, 0.5);
        }
    simdhttp_isa_set(r->dispatched);
    for (size_t k = 0; k < nsc; k++) {
        double r1[3], r2[3], c1[3], c2[3];
        use_isa(&r->sc[k]);
        for (int rep = 0; rep < 3; rep++) {
            r1[rep] = msgs_per_s(&r->sc[k], r->tin, 1, r->o.time, &c1[rep]);
            r2[rep] = msgs_per_s(&r->sc[k], r->tin, 2, r->o.time, &c2[rep]);
        }
        r->thr_rate[k][0] = bench_median(r1, 3);
        r->thr_rate[k][1] = bench_median(r2, 3);
        r->thr_cpu[k][0] = bench_median(c1, 3);
        r->thr_cpu[k][1] = bench_median(c2, 3);
    }
    simdhttp_isa_set(r->dispatched);
}

/* A scaling table's column header: the label column, then one per parser. */
static void scaling_columns(const run *r, const char *label)
{
    printf("  %-8s", label);
    for (size_t k = 0; k < r->nsc; k++) printf(" %16s", r->sc[k].name);
    printf("\n");
}

static void scaling_print(const run *r)
{
    size_t nsc = r->nsc;
    printf("\nScaling: ns per message against the number of fields (generated GET, Host + "
           "X-Field-NNN: 18-byte values)\n");
    scaling_columns(r, "fields");
    for (size_t i = 0; i < NF; i++) {
        printf("  %-8zu", nf[i]);
        for (size_t k = 0; k < nsc; k++) {
            const rounds_task *x = &r->sf.r[i * nsc + k];
            printf(" %16.1f", x->ok ? x->med : NAN);
        }
        printf("\n");
    }
    printf("\nScaling: ns per message (GB/s) against field value length (generated GET, Host "
           "+ 4 fields of that length)\n");
    scaling_columns(r, "bytes");
    for (size_t i = 0; i < NV; i++) {
        printf("  %-8zu", vl[i]);
        for (size_t k = 0; k < nsc; k++) {
            const rounds_task *x = &r->sv.r[i * nsc + k];
            char c[32];
            snprintf(c, sizeof c, "%.0f (%.2f)", x->ok ? x->med : NAN, x->ok ? x->gbps : NAN);
            printf(" %16s", c);
        }
        printf("\n");
    }
    for (size_t f = 0; f < 2; f++) {
        if (!r->pin[f]) continue;
        printf("\nStreaming: GB/s against the piece size given to each call, %s (head-style "
               "parsers re-parse the head when more bytes arrive)\n",
               basename_of(r->pin[f]->name));
        scaling_columns(r, "piece");
        for (size_t i = 0; i < NPC; i++) {
            char pc[32];
            if (pieces[i]) snprintf(pc, sizeof pc, "%zu", pieces[i]);
            else snprintf(pc, sizeof pc, "whole");
            printf("  %-8s", pc);
            for (size_t k = 0; k < nsc; k++) {
                const rounds_task *x = &r->spc.r[(f * NPC + i) * nsc + k];
                printf(" %16.3f", x->ok ? x->gbps : NAN);
            }
            printf("\n");
        }
    }
    printf("\nThreads: messages per second on %s, each thread its own parser (median of 3).\n"
           "Wall: all threads together per wall-clock second (needs idle cores to scale).\n"
           "Per CPU: per CPU-second of one thread (flat from 1 to 2 threads: nothing shared).\n"
           "  %-18s %12s %12s %7s %14s %14s %7s\n",
           basename_of(r->tin->name), "parser", "wall 1t", "wall 2t", "2t/1t", "per CPU 1t", "per CPU 2t",
           "2t/1t");
    for (size_t k = 0; k < nsc; k++)
        printf("  %-18s %12.0f %12.0f %7.2f %14.0f %14.0f %7.2f\n", r->sc[k].name, r->thr_rate[k][0],
               r->thr_rate[k][1], r->thr_rate[k][1] / r->thr_rate[k][0], r->thr_cpu[k][0], r->thr_cpu[k][1],
               r->thr_cpu[k][1] / r->thr_cpu[k][0]);
}

/* The scaling tables' gnuplot data (bench/plots.gp): scaling-fields.dat, scaling-values.dat
 * (median ns) and streaming-pieces.dat (GB/s; "whole" as 65536). */
static void scaling_plots(const run *r)
{
    size_t nsc = r->nsc;
    FILE *f1 = open_plot(&r->o, "scaling-fields.dat"), *f2 = open_plot(&r->o, "scaling-values.dat"),
         *f3 = open_plot(&r->o, "streaming-pieces.dat");
    if (f1 && f2 && f3) {
        fprintf(f1, "fields");
        fprintf(f2, "bytes");
        fprintf(f3, "piece");
        for (size_t k = 0; k < nsc; k++) {
            fprintf(f1, " %s", r->sc[k].name);
            fprintf(f2, " %s", r->sc[k].name);
            for (size_t f = 0; f < 2; f++)
                if (r->pin[f]) fprintf(f3, " %s/%s", r->sc[k].name, basename_of(r->pin[f]->name));
        }
        fprintf(f1, "\n");
        fprintf(f2, "\n");
        fprintf(f3, "\n");
        for (size_t i = 0; i < NF; i++) {
            fprintf(f1, "%zu", nf[i]);
            for (size_t k = 0; k < nsc; k++) {
                const rounds_task *x = &r->sf.r[i * nsc + k];
                fprintf(f1, " %.2f", x->ok ? x->med : NAN);
            }
            fprintf(f1, "\n");
        }
        for (size_t i = 0; i < NV; i++) {
            fprintf(f2, "%zu", vl[i]);
            for (size_t k = 0; k < nsc; k++) {
                const rounds_task *x = &r->sv.r[i * nsc + k];
                fprintf(f2, " %.2f", x->ok ? x->med : NAN);
            }
            fprintf(f2, "\n");
        }
        for (size_t i = 0; i < NPC; i++) {
            fprintf(f3, "%zu", pieces[i] ? pieces[i] : (size_t)65536);
            for (size_t k = 0; k < nsc; k++)
                for (size_t f = 0; f < 2; f++)
                    if (r->pin[f]) {
                        const rounds_task *x = &r->spc.r[(f * NPC + i) * nsc + k];
                        fprintf(f3, " %.4f", x->ok ? x->gbps : NAN);
                    }
            fprintf(f3, "\n");
        }
    }
    if (f1) fclose(f1);
    if (f2) fclose(f2);
    if (f3) fclose(f3);
}

/* The JSON object's scaling members. */
static void json_scaling(FILE *f, const run *r)
{
    size_t nsc = r->nsc;
    fprintf(f, ",\n \"scaling_fields\": {");
    for (size_t i = 0; i < NF; i++) {
        fprintf(f, "%s\n  \"%zu\": ", i ? "," : "", nf[i]);
        json_group(f, &r->sf.r[i * nsc], nsc);
    }
    fprintf(f, "},\n \"scaling_value_length\": {");
    for (size_t i = 0; i < NV; i++) {
        fprintf(f, "%s\n  \"%zu\": ", i ? "," : "", vl[i]);
        json_group(f, &r->sv.r[i * nsc], nsc);
    }
    fprintf(f, "},\n \"streaming_pieces\": {");
    int first = 1;
    for (size_t p = 0; p < 2; p++) {
        if (!r->pin[p]) continue;
        fprintf(f, "%s\n  ", first ? "" : ",");
        first = 0;
        json_str(f, basename_of(r->pin[p]->name));
        fprintf(f, ": {");
        for (size_t i = 0; i < NPC; i++) {
            if (pieces[i]) fprintf(f, "%s\"%zu\": ", i ? ", " : "", pieces[i]);
            else fprintf(f, "%s\"whole\": ", i ? ", " : "");
            json_group(f, &r->spc.r[(p * NPC + i) * nsc], nsc);
        }
        fprintf(f, "}");
    }
    fprintf(f, "},\n \"threads\": {\"input\": ");
    json_str(f, basename_of(r->tin->name));
    for (size_t k = 0; k < nsc; k++) {
        fprintf(f, ", ");
        json_str(f, r->sc[k].name);
        fprintf(f, ": {\"msgs_per_s_1\": ");
        json_num(f, r->thr_rate[k][0]);
        fprintf(f, ", \"msgs_per_s_2\": ");
        json_num(f, r->thr_rate[k][1]);
        fprintf(f, ", \"msgs_per_cpu_s_1\": ");
        json_num(f, r->thr_cpu[k][0]);
        fprintf(f, ", \"msgs_per_cpu_s_2\": ");
        json_num(f, r->thr_cpu[k][1]);
        fprintf(f, "}");
    }
    fprintf(f, "}");
}

/* The whole run as one JSON object (--json: on stdout; --json-out FILE). */
static void json_run(FILE *f, const run *r)
{
    fprintf(f, "{\"cpu\": ");
    json_str(f, r->cpu);
    fprintf(f, ", \"isa\": ");
    json_str(f, simdhttp_isa_name());
    fprintf(f, ", \"version\": ");
    json_str(f, simdhttp_version());
    fprintf(f, ", \"compiler\": ");
    json_str(f, compiler());
    fprintf(f, ", \"date\": ");
    json_str(f, r->date);
    fprintf(f, ", \"runs\": %zu, \"time_s\": %g,\n \"method\": ", r->o.runs, r->o.time);
    json_str(f, "median of interleaved rounds; ci_*_ns: distribution-free 95% interval of the "
                "median (order statistics); ratio_to_simdhttp: this parser's ns / simdhttp's, "
                "median of per-round paired ratios, ratio_ci_*: its distribution-free 95% "
                "interval; p_welch: Welch t-test against simdhttp");
    fprintf(f, ",\n \"missing_peers\": [");
    int first = 1;
    for (const char *const *miss = bench_missing_peers(); *miss; miss++, first = 0) {
        fprintf(f, "%s", first ? "" : ", ");
        json_str(f, *miss);
    }
    fprintf(f, "],\n \"files\": {");
    for (size_t i = 0; i < r->nfiles; i++) {
        fprintf(f, "%s\n  ", i ? "," : "");
        json_str(f, basename_of(r->in[i].name));
        fputs(": ", f);
        json_group(f, &r->main_t.r[i * r->np], r->np);
    }
    fprintf(f, "},\n \"workload\": {");
    first = 1;
    for (size_t i = 0; i < r->nfiles && r->nwl; i++) {
        if (r->in[i].response) continue;
        fprintf(f, "%s\n  ", first ? "" : ",");
        first = 0;
        json_str(f, basename_of(r->in[i].name));
        fputs(": ", f);
        json_group(f, &r->wl_t.r[i * r->nwl], r->nwl);
    }
    fprintf(f, "}");
    if (r->o.scaling) json_scaling(f, r);
    fprintf(f, "}\n");
}

/* The timed run: the tables, then the JSON object where one is asked for. @return the exit
 * code */
static int timed_run(run *r)
{
    preamble(r);
    corpus_table(r);
    workload_table(r);
    if (r->o.scaling) {
        scaling_measure(r);
        if (!r->o.json) scaling_print(r);
        scaling_plots(r);
    }
    FILE *f = r->o.json ? stdout : r->o.json_out ? fopen(r->o.json_out, "w") : NULL;
    if (!r->o.json && r->o.json_out && !f) {
        fprintf(stderr, "simdhttp bench: cannot write %s: %s\n", r->o.json_out, strerror(errno));
        return CLI_EXIT_IO;
    }
    if (f) {
        json_run(f, r);
        if (f != stdout) fclose(f);
    }
    return 0;
}

static void run_free(run *r)
{
    rows_free(&r->main_t);
    rows_free(&r->wl_t);
    rows_free(&r->sf);
    rows_free(&r->sv);
    rows_free(&r->spc);
    if (r->s) bench_state_free(r->s);
    for (size_t i = 0; i < r->nread; i++) free((char *)r->in[i].buf);
    for (size_t i = 0; r->own_names && i < r->nfiles; i++) free(r->files[i]);
    for (size_t i = 0; i < NF; i++) free((char *)r->gf[i].buf);
    for (size_t i = 0; i < NV; i++) free((char *)r->gv[i].buf);
    free(r);
}

int cli_bench(int argc, char **argv)
{
    run *r = calloc(1, sizeof *r);
    if (!r) abort();
    int rc = parse_args(r, argc, argv);
    if (rc < 0 && r->o.list) {
        rc = list_parsers();
    } else if (rc < 0 && (rc = load_inputs(r)) == 0) {
        r->dispatched = simdhttp_isa_get();
        pick_parsers(r);
        r->s = bench_state_new(r->max_len);
        rc = r->o.check ? run_check(r) : r->o.instructions ? run_instructions(r) : timed_run(r);
    }
    run_free(r);
    return rc;
}
