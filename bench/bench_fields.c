/* SPDX-License-Identifier: MIT */
/* bench_fields: simdhttp_fields per operation, for N = 8, 16, 32, 64, 128 fields.
 *
 *   bench_fields --all [out.json]   ns and mallocs (native run), then instructions (re-runs
 *                                   itself under valgrind --tool=callgrind), prints the table,
 *                                   checks the targets, writes out.json
 *   bench_fields --native           ns and mallocs only
 *   bench_fields --callgrind        (internal: the run under callgrind; one dump per op)
 *   bench_fields --profile OP N     run OP 100 times at N fields, for
 *                                   valgrind --tool=callgrind --toggle-collect=<function>
 *
 * mallocs: allocations made by the collection per call (the library counts its own, see
 * src/fields.c). instructions: callgrind Ir per call, collection switched on around the op
 * only (setup and cleanup excluded), minus an empty op's Ir. ns: median of 7 runs of a timed
 * loop (op + its cleanup: the free of what a build or copy made is part of the loop). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "simdhttp.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#endif
#endif
#ifndef HAVE_CALLGRIND
#define HAVE_CALLGRIND 0
#define CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(x) (void)(x)
#endif

extern atomic_ulong simdhttp__fields_mallocs; /* library-internal counter */

static const int SIZES[] = {8, 16, 32, 64, 128};
#define NSIZES 5

/* ---- the data: a browser-like request with N fields ---- */

static const char *const BASE[][2] = {
    {"Host", "www.example.com"},
    {"User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0"},
    {"Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"},
    {"Accept-Language", "en-US,en;q=0.9"},
    {"Accept-Encoding", "gzip, deflate, br, zstd"},
    {"Cookie", "session_id=3f2a9c; theme=dark"},
    {"sec-ch-ua", "\"Chromium\";v=\"130\", \"Not?A_Brand\";v=\"99\""},
    {"Connection", "keep-alive"},
};

typedef struct bench {
    int n;
    char *raw;          /* the request text */
    simdhttp_field hf[256];
    simdhttp_head head; /* parsed raw */
    char *raw2, *raw3, *raw4; /* same fields reordered; one value changed at 80% (both orders) */
    simdhttp_head head2, head3, head4;
    simdhttp_field hf2[256], hf3[256], hf4[256];
    simdhttp_fields a, b_same, b_perm, b_d80, b_d80perm, work;
    char buf[4096];
} bench;

/* field i of the list of n: 8 usual fields, custom ones, a repeated X-Multi every 8th,
 * a second Cookie and a single X-Request-Id near the end */
static void field_i(int n, int i, char *name, char *value, int differ)
{
    if (i < 8 && i != 7) {
        strcpy(name, BASE[i][0]), strcpy(value, BASE[i][1]);
    } else if (i == n - 1) {
        strcpy(name, "X-Request-Id"), strcpy(value, "f9a1c3e0-77b2-4c1d-9b8e-2a5d6c7e8f90");
    } else if (i == n - 2) {
        strcpy(name, "Cookie"), strcpy(value, "_ga=GA1.2.123456789.1700000000; consent=yes");
    } else if (i % 8 == 7) {
        strcpy(name, "X-Multi"), sprintf(value, "part-%d", i);
    } else {
        sprintf(name, "X-Custom-Field-%d", i), sprintf(value, "value-%d-abcdefghij", i * 31);
    }
    if (differ) value[0] = value[0] == 'Z' ? 'Y' : 'Z';
}

/* the order used for the "different order" lists: the fields of each name keep their order,
 * names are interleaved differently (stable sort by name length, longest first, then name) */
static int perm_cmp(const void *x, const void *y)
{
    const char *const *p = x, *const *q = y;
    size_t lp = strcspn(*p, ":"), lq = strcspn(*q, ":");
    if (lp != lq) return lp > lq ? -1 : 1; /* longest names first */
    int c = strncmp(*p, *q, lp);
    if (c) return c;
    return *p < *q ? -1 : *p > *q; /* pointers are in original order: stable */
}

static char *make_raw(int n, int reorder, int differ_at)
{
    char name[64], value[128], *lines[256];
    char *block = malloc((size_t)n * 256); /* line i at block + 256 i: pointer order = field order */
    for (int i = 0; i < n; i++) {
        field_i(n, i, name, value, i == differ_at);
        lines[i] = block + (size_t)i * 256;
        snprintf(lines[i], 256, "%s: %s\r\n", name, value);
    }
    if (reorder) qsort(lines, (size_t)n, sizeof *lines, perm_cmp);
    size_t len = 64;
    for (int i = 0; i < n; i++) len += strlen(lines[i]);
    char *raw = malloc(len), *p = raw;
    p += sprintf(p, "GET /index.html HTTP/1.1\r\n");
    for (int i = 0; i < n; i++) p += sprintf(p, "%s", lines[i]);
    sprintf(p, "\r\n");
    free(block);
    return raw;
}

static void parse(const char *raw, simdhttp_head *h, simdhttp_field *hf)
{
    simdhttp_config cfg = {0};
    cfg.max_fields = 256;
    memset(h, 0, sizeof *h);
    h->fields = hf, h->fields_cap = 256;
    long r = simdhttp_parse_head(h, SIMDHTTP_REQUEST, raw, strlen(raw), &cfg);
    if (r <= 0) {
        fprintf(stderr, "bench_fields: test request does not parse: %s\n", h->error_reason);
        exit(2);
    }
}

static void build(simdhttp_fields *f, const simdhttp_head *h)
{
    simdhttp_fields_init(f);
    if (simdhttp_fields_from_head(f, h)) exit(2);
}

static void bench_init(bench *b, int n)
{
    memset(b, 0, sizeof *b);
    b->n = n;
    int d80 = n * 8 / 10;
    b->raw = make_raw(n, 0, -1);
    b->raw2 = make_raw(n, 1, -1);
    b->raw3 = make_raw(n, 0, d80);
    b->raw4 = make_raw(n, 1, d80);
    parse(b->raw, &b->head, b->hf);
    parse(b->raw2, &b->head2, b->hf2);
    parse(b->raw3, &b->head3, b->hf3);
    parse(b->raw4, &b->head4, b->hf4);
    build(&b->a, &b->head);
    build(&b->b_same, &b->head);
    build(&b->b_perm, &b->head2);
    build(&b->b_d80, &b->head3);
    build(&b->b_d80perm, &b->head4);
    simdhttp_fields_init(&b->work);
    /* sanity: the data is what the ops claim */
    if (simdhttp_fields_equal(&b->a, &b->b_same) != 1 || simdhttp_fields_equal(&b->a, &b->b_perm) != 1 ||
        simdhttp_fields_equal(&b->a, &b->b_d80) != 0 || simdhttp_fields_equal(&b->a, &b->b_d80perm) != 0) {
        fprintf(stderr, "bench_fields: equality fixtures are wrong (n=%d)\n", n);
        exit(2);
    }
    simdhttp_field x0, y0;
    simdhttp_fields_at(&b->a, 0, &x0), simdhttp_fields_at(&b->b_perm, 0, &y0);
    if (x0.name_len == y0.name_len && memcmp(x0.name, y0.name, x0.name_len) == 0) {
        fprintf(stderr, "bench_fields: the reordered list starts like the original (n=%d)\n", n);
        exit(2);
    }
}

static void bench_free(bench *b)
{
    simdhttp_fields_free(&b->a), simdhttp_fields_free(&b->b_same), simdhttp_fields_free(&b->b_perm);
    simdhttp_fields_free(&b->b_d80), simdhttp_fields_free(&b->b_d80perm), simdhttp_fields_free(&b->work);
    free(b->raw), free(b->raw2), free(b->raw3), free(b->raw4);
}

/* ---- the operations (each a function so callgrind and the timer see the same code) ---- */

static volatile size_t sink;
#define OP __attribute__((noinline)) static void

OP op_empty(bench *b) { sink += (size_t)b->n; }
OP op_contains_hit(bench *b) { sink += (size_t)simdhttp_fields_contains(&b->a, "Accept-Language", 15); }
OP op_contains_miss(bench *b) { sink += (size_t)simdhttp_fields_contains(&b->a, "Authorization", 13); }
OP op_get_single(bench *b)
{
    size_t vl = 0;
    sink += (size_t)simdhttp_fields_get(&b->a, "X-Request-Id", 12, &vl) + vl;
}
OP op_get_miss(bench *b)
{
    size_t vl = 0;
    sink += (size_t)simdhttp_fields_get(&b->a, "X-Not-There", 11, &vl) + vl;
}
OP op_cookie_joined(bench *b) { sink += (size_t)simdhttp_fields_combined(&b->a, "Cookie", 6, b->buf, sizeof b->buf); }
OP op_values_all(bench *b)
{
    simdhttp_fields_iter it;
    const char *v;
    size_t vl, t = 0;
    simdhttp_fields_values(&b->a, "X-Multi", 7, &it);
    while (simdhttp_fields_next(&it, &v, &vl)) t += vl;
    sink += t;
}
OP op_equal_same_order(bench *b) { sink += (size_t)simdhttp_fields_equal(&b->a, &b->b_same); }
OP op_equal_different_order(bench *b) { sink += (size_t)simdhttp_fields_equal(&b->a, &b->b_perm); }
OP op_differs80_same_order(bench *b) { sink += (size_t)simdhttp_fields_equal(&b->a, &b->b_d80); }
OP op_differs80_different_order(bench *b) { sink += (size_t)simdhttp_fields_equal(&b->a, &b->b_d80perm); }
OP op_append_build(bench *b)
{
    for (size_t i = 0; i < b->head.num_fields; i++) {
        const simdhttp_field *x = &b->hf[i];
        simdhttp_fields_append(&b->work, x->name, x->name_len, x->value, x->value_len);
    }
}
OP op_build_from_head(bench *b) { simdhttp_fields_from_head(&b->work, &b->head); }
OP op_copy_overwrite(bench *b)
{
    simdhttp_fields_copy(&b->work, &b->a);
    simdhttp_fields_set(&b->work, "User-Agent", 10, "curl/8.5.0", 10);
}
OP op_copy_insert(bench *b)
{
    simdhttp_fields_copy(&b->work, &b->a);
    simdhttp_fields_append(&b->work, "X-Inserted", 10, "yes", 3);
}
static void cleanup_work(bench *b) { simdhttp_fields_free(&b->work); }
static void no_cleanup(bench *b) { (void)b; }

typedef struct opdef {
    const char *name;
    void (*fn)(bench *);
    void (*cleanup)(bench *);
} opdef;

static const opdef OPS[] = {
    {"contains-hit", op_contains_hit, no_cleanup},
    {"contains-miss", op_contains_miss, no_cleanup},
    {"get-single", op_get_single, no_cleanup},
    {"get-miss", op_get_miss, no_cleanup},
    {"cookie-joined", op_cookie_joined, no_cleanup},
    {"values-all", op_values_all, no_cleanup},
    {"equal-same-order", op_equal_same_order, no_cleanup},
    {"equal-different-order", op_equal_different_order, no_cleanup},
    {"differs80-same-order", op_differs80_same_order, no_cleanup},
    {"differs80-different-order", op_differs80_different_order, no_cleanup},
    {"append-build", op_append_build, cleanup_work},
    {"build-from-head", op_build_from_head, cleanup_work},
    {"copy-overwrite", op_copy_overwrite, cleanup_work},
    {"copy-insert", op_copy_insert, cleanup_work},
};
#define NOPS (sizeof OPS / sizeof *OPS)

typedef struct result {
    double mallocs, instructions, ns;
} result;
static result R[NSIZES][NOPS];

/* ---- native: ns and mallocs ---- */

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int dbl_cmp(const void *x, const void *y)
{
    double a = *(const double *)x, c = *(const double *)y;
    return (a > c) - (a < c);
}

static void run_native(void)
{
    for (int si = 0; si < NSIZES; si++) {
        bench *b = malloc(sizeof *b);
        bench_init(b, SIZES[si]);
        for (size_t oi = 0; oi < NOPS; oi++) {
            const opdef *op = &OPS[oi];
            /* mallocs: exact, over a few calls */
            unsigned long m0 = atomic_load(&simdhttp__fields_mallocs);
            for (int k = 0; k < 16; k++) op->fn(b), op->cleanup(b);
            R[si][oi].mallocs = (double)(atomic_load(&simdhttp__fields_mallocs) - m0) / 16;
            /* ns: calibrate to ~2 ms per run, median of 7 runs */
            long iters = 64;
            for (;;) {
                double t0 = now_ns();
                for (long k = 0; k < iters; k++) op->fn(b), op->cleanup(b);
                if (now_ns() - t0 > 2e6 || iters > (1L << 24)) break;
                iters *= 2;
            }
            double runs[7];
            for (int r = 0; r < 7; r++) {
                double t0 = now_ns();
                for (long k = 0; k < iters; k++) op->fn(b), op->cleanup(b);
                runs[r] = (now_ns() - t0) / (double)iters;
            }
            qsort(runs, 7, sizeof *runs, dbl_cmp);
            R[si][oi].ns = runs[3];
        }
        bench_free(b);
        free(b);
    }
}

/* ---- under callgrind: one dump per (N, op) ---- */

#define CG_REPS 20

static void run_callgrind(void)
{
    for (int si = 0; si < NSIZES; si++) {
        bench *b = malloc(sizeof *b);
        bench_init(b, SIZES[si]);
        for (size_t oi = 0; oi <= NOPS; oi++) {
            const opdef *op = oi < NOPS ? &OPS[oi] : &(opdef){"empty", op_empty, no_cleanup};
            op->fn(b), op->cleanup(b); /* warm: lazy binding, first-touch */
            CALLGRIND_ZERO_STATS;
            for (int k = 0; k < CG_REPS; k++) {
                CALLGRIND_TOGGLE_COLLECT;
                op->fn(b);
                CALLGRIND_TOGGLE_COLLECT;
                op->cleanup(b);
            }
            char tag[96];
            snprintf(tag, sizeof tag, "%d/%s", SIZES[si], op->name);
            CALLGRIND_DUMP_STATS_AT(tag);
        }
        bench_free(b);
        free(b);
    }
}

/* Parse callgrind's dumps in dir: "desc: Trigger: Client Request: N/op" and "totals: Ir". */
static int read_dumps(const char *dir)
{
    double empty[NSIZES] = {0};
    int found = 0;
    for (int d = 1; d < 200; d++) {
        char path[512];
        snprintf(path, sizeof path, "%s/cg.out.%d", dir, d);
        FILE *fp = fopen(path, "r");
        if (!fp) continue;
        char line[1024], tag[128] = "";
        double ir = -1;
        while (fgets(line, sizeof line, fp)) {
            char *p;
            if ((p = strstr(line, "Client Request: "))) {
                snprintf(tag, sizeof tag, "%s", p + 16);
                tag[strcspn(tag, "\r\n")] = 0;
            } else if (!strncmp(line, "totals: ", 8) || !strncmp(line, "summary: ", 9)) {
                ir = atof(strchr(line, ' ') + 1);
            }
        }
        fclose(fp);
        int n = atoi(tag);
        const char *name = strchr(tag, '/');
        if (!name || ir < 0) continue;
        name++;
        for (int si = 0; si < NSIZES; si++) {
            if (SIZES[si] != n) continue;
            if (!strcmp(name, "empty")) empty[si] = ir / CG_REPS;
            for (size_t oi = 0; oi < NOPS; oi++)
                if (!strcmp(name, OPS[oi].name)) R[si][oi].instructions = ir / CG_REPS, found++;
        }
    }
    for (int si = 0; si < NSIZES; si++)
        for (size_t oi = 0; oi < NOPS; oi++)
            if (R[si][oi].instructions > 0) R[si][oi].instructions = round(R[si][oi].instructions - empty[si]);
    return found;
}

/* ---- output ---- */

static int op_index(const char *name)
{
    for (size_t oi = 0; oi < NOPS; oi++)
        if (!strcmp(OPS[oi].name, name)) return (int)oi;
    return -1;
}

static int check_targets(int have_ir)
{
    int miss = 0;
    printf("\ntargets:\n");
    for (int si = 0; si < NSIZES; si++) {
        int n = SIZES[si];
        double lg = log2(n);
        double bfh = R[si][op_index("build-from-head")].mallocs, ab = R[si][op_index("append-build")].mallocs;
        if (bfh > 2) printf("  MISSED build-from-head N=%d: %.2f mallocs > 2\n", n, bfh), miss++;
        if (ab > lg + 2) printf("  MISSED append-build N=%d: %.2f mallocs > log2(N)+2\n", n, ab), miss++;
        static const char *const lookups[] = {"contains-hit", "contains-miss", "get-single", "get-miss",
                                              "cookie-joined", "values-all"};
        for (int k = 0; k < 6; k++)
            if (R[si][op_index(lookups[k])].mallocs != 0) printf("  MISSED %s N=%d allocates\n", lookups[k], n), miss++;
    }
    printf("  mallocs: build-from-head <= 2, append-build <= log2(N)+2, lookups 0: %s\n", miss ? "see above" : "met");
    if (!have_ir) {
        printf("  instructions: not measured (no valgrind/callgrind)\n");
        return miss;
    }
    int m2 = 0;
    double cm8 = R[0][op_index("contains-miss")].instructions, cm128 = R[NSIZES - 1][op_index("contains-miss")].instructions;
    if (cm128 > cm8 + 2) printf("  MISSED contains-miss grows with N: %.0f -> %.0f\n", cm8, cm128), m2++;
    for (size_t oi = 0; oi < NOPS; oi++) {
        double i8 = R[0][oi].instructions, i128 = R[NSIZES - 1][oi].instructions;
        double ratio = i8 > 0 ? i128 / i8 : 0;
        if (ratio > 40) printf("  MISSED %s: instr(128)/instr(8) = %.1f > 40\n", OPS[oi].name, ratio), m2++;
    }
    double b16 = R[1][op_index("build-from-head")].instructions;
    if (b16 >= 2000) printf("  MISSED build-from-head N=16: %.0f instructions >= 2000\n", b16), m2++;
    printf("  instructions: contains-miss flat (%.0f at N=8, %.0f at N=128), every op instr(128) <= 40x "
           "instr(8), build-from-head(16) = %.0f < 2000: %s\n", cm8, cm128, b16, m2 ? "see above" : "met");
    return miss + m2;
}

static void print_table(void)
{
    printf("simdhttp_fields: mallocs / instructions / ns per call\n");
    printf("%-26s", "op");
    for (int si = 0; si < NSIZES; si++) printf(" | %-20d", SIZES[si]);
    printf(" | instr 128/8\n");
    for (size_t oi = 0; oi < NOPS; oi++) {
        printf("%-26s", OPS[oi].name);
        for (int si = 0; si < NSIZES; si++)
            printf(" | %4.1f %7.0f %7.1f", R[si][oi].mallocs, R[si][oi].instructions, R[si][oi].ns);
        double r = R[0][oi].instructions > 0 ? R[NSIZES - 1][oi].instructions / R[0][oi].instructions : 0;
        printf(" | %5.1fx\n", r);
    }
}

static int write_json(const char *path, int have_ir)
{
    FILE *fp = fopen(path, "w");
    if (!fp) return perror(path), -1;
    fprintf(fp, "{");
    for (int si = 0; si < NSIZES; si++) {
        fprintf(fp, "%s\n  \"%d\": {", si ? "," : "", SIZES[si]);
        for (size_t oi = 0; oi < NOPS; oi++) {
            fprintf(fp, "%s\n    \"%s\": {\"mallocs\": %g, \"instructions\": ", oi ? "," : "", OPS[oi].name,
                    R[si][oi].mallocs);
            if (have_ir) fprintf(fp, "%.0f", R[si][oi].instructions);
            else fprintf(fp, "null");
            fprintf(fp, ", \"ns\": %.1f}", R[si][oi].ns);
        }
        fprintf(fp, "\n  }");
    }
    fprintf(fp, "\n}\n");
    return fclose(fp);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "--all";
    if (!strcmp(mode, "--callgrind")) {
        run_callgrind();
        return 0;
    }
    if (!strcmp(mode, "--profile") && argc > 3) { /* for valgrind --toggle-collect=<function> */
        bench *b = malloc(sizeof *b);
        bench_init(b, atoi(argv[3]));
        int oi = op_index(argv[2]);
        if (oi < 0) return fprintf(stderr, "unknown op %s\n", argv[2]), 2;
        for (int k = 0; k < 100; k++) OPS[oi].fn(b), OPS[oi].cleanup(b);
        bench_free(b);
        free(b);
        return 0;
    }
    run_native();
    int have_ir = 0;
    if (!strcmp(mode, "--all") && HAVE_CALLGRIND) {
        char dir[] = "/tmp/bench_fields.XXXXXX", cmd[1024];
        if (!mkdtemp(dir)) return perror("mkdtemp"), 1;
        snprintf(cmd, sizeof cmd,
                 "valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file=%s/cg.out '%s' --callgrind "
                 ">%s/log 2>&1",
                 dir, argv[0], dir);
        if (system(cmd) != 0) {
            fprintf(stderr, "bench_fields: valgrind failed (see %s/log); instructions not measured\n", dir);
        } else {
            have_ir = read_dumps(dir) == NSIZES * (int)NOPS;
            snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
            if (system(cmd) != 0) fprintf(stderr, "bench_fields: could not remove %s\n", dir);
        }
    }
    print_table();
    int miss = check_targets(have_ir);
    if (argc > 2 && write_json(argv[2], have_ir) == 0) printf("wrote %s\n", argv[2]);
    return miss ? 1 : 0;
}
