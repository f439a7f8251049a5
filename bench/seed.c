/* SPDX-License-Identifier: MIT */
/* build/bench/seed: `make bench-seed`. The seed workload (parse a request; return its method,
 * the User-Agent value and the first cookie's name; corpus/README.md) on every request file,
 * simdhttp and the C peers (the workload rows of build/bench/compare) beside parsers in other
 * languages that run in their own processes (bench/seed_go.go: Go's net/http; bench/
 * SeedNetty.java: Netty's HttpRequestDecoder), all in one set of interleaved rounds.
 *
 * An other-language peer is a command given by --peer NAME=COMMAND; it is started once with
 * the request files as arguments and speaks a line protocol on its stdin and stdout:
 *   it prints    answer<TAB>I<TAB>MESSAGES<TAB>METHOD<TAB>USER-AGENT<TAB>COOKIE-NAME  per file
 *                (the last message's answer), warms itself up, then prints "ready";
 *   we send      warm I S       (passes over file I for S seconds, before file I's rounds:
 *                               JMH warms each benchmark on its own; a JIT that compiled
 *                               for the other files may deoptimise on this one's first passes),
 *                run I N        (N passes over file I), it answers "done MESSAGES-PER-PASS"
 *                               to both.
 * Its samples are its process's CPU time (clock_getcpuclockid: every thread, its garbage
 * collector and JIT compiler included), read by us before the command and after the answer;
 * ours are this process's CPU time. A peer whose answers differ from simdhttp's is an error.
 *
 * Usage: seed [--time S] [--runs N] [--warm S] [--peer NAME=COMMAND]... FILE... */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "bench_rounds.h"

#define MAX_FILES 32
#define MAX_EXT 4
#define MAX_ROWS 16

typedef struct ext_peer {
    const char *name;
    pid_t pid;
    clockid_t clk;
    FILE *to, *from;
} ext_peer;

typedef struct c_ctx {
    bench_state *s;
    const bench_parser *p;
    const bench_input *in;
} c_ctx;

typedef struct ext_ctx {
    ext_peer *e;
    size_t file;
} ext_ctx;

static volatile size_t sink;

static double c_sample(void *ctx, size_t iters, size_t *msgs)
{
    c_ctx *c = ctx;
    bench_answer a;
    bench_result r = {0};
    double t0 = rounds_cpu_s();
    for (size_t i = 0; i < iters; i++) {
        r = bench_workload(c->s, c->p, c->in, &a);
        sink += a.method_len + a.ua_len + a.cookie_len + r.messages;
    }
    double el = rounds_cpu_s() - t0;
    *msgs = r.error ? 0 : r.messages;
    return el;
}

static double ext_cpu_s(const ext_peer *e)
{
    struct timespec ts;
    if (clock_gettime(e->clk, &ts) != 0) return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double ext_sample(void *ctx, size_t iters, size_t *msgs)
{
    ext_ctx *x = ctx;
    char line[256];
    unsigned long m = 0;
    *msgs = 0;
    if (!x->e->to) return 0;
    double t0 = ext_cpu_s(x->e);
    fprintf(x->e->to, "run %zu %zu\n", x->file, iters);
    fflush(x->e->to);
    if (!fgets(line, sizeof line, x->e->from) || sscanf(line, "done %lu", &m) != 1) {
        fprintf(stderr, "seed: %s stopped answering\n", x->e->name);
        x->e->to = NULL;
        return 0;
    }
    double el = ext_cpu_s(x->e) - t0;
    *msgs = m;
    return el;
}

/* Warms the peer on one file (outside any sample). @return 0, or -1 if it stopped answering. */
static int ext_warm(ext_peer *e, size_t file, double seconds)
{
    char line[256];
    if (!e->to) return -1;
    fprintf(e->to, "warm %zu %.3f\n", file, seconds);
    fflush(e->to);
    if (fgets(line, sizeof line, e->from) && strncmp(line, "done ", 5) == 0) return 0;
    fprintf(stderr, "seed: %s stopped answering\n", e->name);
    e->to = NULL;
    return -1;
}

/* Starts `sh -c 'exec COMMAND "$@"' sh FILE...` with pipes on its stdin and stdout. */
static int ext_start(ext_peer *e, const char *cmd, char **files, size_t n)
{
    int in[2], out[2];
    if (pipe(in) || pipe(out)) return -1;
    /* our ends stay out of the other peers' processes, or a peer never sees its stdin close */
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    char *script = malloc(strlen(cmd) + 16);
    if (!script) abort();
    sprintf(script, "exec %s \"$@\"", cmd);
    e->pid = fork();
    if (e->pid < 0) return -1;
    if (e->pid == 0) {
        char *argv[MAX_FILES + 4];
        size_t a = 0;
        argv[a++] = "sh";
        argv[a++] = "-c";
        argv[a++] = script;
        argv[a++] = "sh";
        for (size_t i = 0; i < n; i++) argv[a++] = files[i];
        argv[a] = NULL;
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        execv("/bin/sh", argv);
        _exit(127);
    }
    free(script);
    close(in[0]);
    close(out[1]);
    e->to = fdopen(in[1], "w");
    e->from = fdopen(out[0], "r");
    if (!e->to || !e->from || clock_getcpuclockid(e->pid, &e->clk) != 0) return -1;
    return 0;
}

static int span_is(const char *s, size_t n, const char *z) { return strlen(z) == n && memcmp(s, z, n) == 0; }

/* Reads the peer's answers up to "ready" and compares them with simdhttp's.
 * @return 0 if every file's answer is the same. */
static int ext_check(ext_peer *e, const bench_answer *want, const size_t *msgs, size_t n)
{
    char line[4096];
    size_t seen = 0;
    int bad = 0;
    while (fgets(line, sizeof line, e->from)) {
        line[strcspn(line, "\n")] = 0;
        if (strcmp(line, "ready") == 0) break;
        char *f[6];
        size_t k = 0;
        for (char *t = line; t && k < 6; k++) { /* fields may be empty: no strtok */
            f[k] = t;
            if ((t = strchr(t, '\t'))) *t++ = 0;
        }
        if (k < 6 || strcmp(f[0], "answer") != 0) continue;
        size_t i = (size_t)atol(f[1]);
        if (i >= n) continue;
        seen++;
        const bench_answer *w = &want[i];
        if ((size_t)atol(f[2]) != msgs[i] || !span_is(w->method, w->method_len, f[3]) ||
            !span_is(w->ua, w->ua_len, f[4]) || !span_is(w->cookie, w->cookie_len, f[5])) {
            fprintf(stderr, "seed: %s answers %s messages, \"%s\", \"%s\", \"%s\" on file %zu; simdhttp: %zu, "
                            "\"%.*s\", \"%.*s\", \"%.*s\"\n",
                    e->name, f[2], f[3], f[4], f[5], i, msgs[i], (int)w->method_len, w->method,
                    (int)w->ua_len, w->ua, (int)w->cookie_len, w->cookie);
            bad = 1;
        }
    }
    if (seen != n) {
        fprintf(stderr, "seed: %s answered for %zu of %zu files\n", e->name, seen, n);
        bad = 1;
    }
    return bad;
}

static const char *base(const char *p)
{
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

int main(int argc, char **argv)
{
    double time_s = 0.2, warm_s = 2;
    size_t runs = 21, nfiles = 0, next = 0;
    char *files[MAX_FILES];
    ext_peer ext[MAX_EXT];
    const char *ext_cmd[MAX_EXT];
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--time") == 0 && i + 1 < argc) time_s = atof(argv[++i]);
        else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = (size_t)atol(argv[++i]);
        else if (strcmp(argv[i], "--warm") == 0 && i + 1 < argc) warm_s = atof(argv[++i]);
        else if (strcmp(argv[i], "--peer") == 0 && i + 1 < argc && next < MAX_EXT) {
            char *eq = strchr(argv[++i], '=');
            if (!eq) goto usage;
            *eq = 0;
            ext[next] = (ext_peer){.name = argv[i]};
            ext_cmd[next++] = eq + 1;
        } else if (argv[i][0] == '-') goto usage;
        else if (nfiles < MAX_FILES) files[nfiles++] = argv[i];
    }
    if (!(time_s > 0) || !(warm_s >= 0) || runs < 2 || nfiles == 0) goto usage;

    bench_register_peers();
    for (const char *const *m = bench_missing_peers(); *m; m++) fprintf(stderr, "note: %s\n", *m);
    /* the request files only: the workload is a server's */
    bench_input in[MAX_FILES];
    size_t n = 0, max_len = 0;
    char *req[MAX_FILES];
    for (size_t i = 0; i < nfiles; i++) {
        size_t len;
        char *b = bench_read_file(files[i], &len);
        if (!b) {
            fprintf(stderr, "seed: %s: %s\n", files[i], strerror(errno));
            return 1;
        }
        if (len >= 5 && memcmp(b, "HTTP/", 5) == 0) {
            free(b);
            continue;
        }
        in[n] = (bench_input){files[i], b, len, 0};
        req[n++] = files[i];
        if (len > max_len) max_len = len;
    }
    bench_state *s = bench_state_new(max_len);
    bench_parser wl[MAX_ROWS];
    size_t nwl = bench_workload_parsers(wl, MAX_ROWS, simdhttp_isa_get());

    /* simdhttp's answers: what every other row must return */
    bench_answer want[MAX_FILES];
    size_t msgs[MAX_FILES];
    for (size_t i = 0; i < n; i++) {
        bench_result r = bench_workload(s, &wl[0], &in[i], &want[i]);
        msgs[i] = r.messages;
    }
    int rc = 0;
    signal(SIGPIPE, SIG_IGN);
    for (size_t k = 0; k < next; k++) {
        if (ext_start(&ext[k], ext_cmd[k], req, n) != 0) {
            fprintf(stderr, "seed: cannot start %s (%s)\n", ext[k].name, ext_cmd[k]);
            return 1;
        }
        if (ext_check(&ext[k], want, msgs, n)) rc = 1;
    }
    if (rc) goto out;

    printf("simdhttp %s seed workload bench, CPU time per request (other processes: their own CPU "
           "time, every thread)\nmedian of %zu interleaved rounds, %.2fs per parser per input (other "
           "processes: warmed %.1fs on each input first); ratio = this parser's ns / simdhttp's ns\n",
           simdhttp_version(), runs, time_s, warm_s);
    printf("\nWorkload: parse a request, return its method, User-Agent value and first cookie name "
           "(per message)\n");
    size_t nrow = nwl + next;
    for (size_t i = 0; i < n; i++) {
        rounds_task t[MAX_ROWS + MAX_EXT];
        c_ctx cc[MAX_ROWS];
        ext_ctx ec[MAX_EXT];
        for (size_t k = 0; k < nwl; k++) {
            cc[k] = (c_ctx){s, &wl[k], &in[i]};
            t[k] = (rounds_task){.sample = c_sample, .ctx = &cc[k], .bytes = in[i].len};
            memcpy(t[k].name, wl[k].name, sizeof t[k].name); /* both char[32] */
        }
        for (size_t k = 0; k < next; k++) {
            ext_warm(&ext[k], i, warm_s);
            ec[k] = (ext_ctx){&ext[k], i};
            t[nwl + k] = (rounds_task){.sample = ext_sample, .ctx = &ec[k], .bytes = in[i].len};
            snprintf(t[nwl + k].name, sizeof t[nwl + k].name, "%.31s", ext[k].name);
        }
        rounds_measure(t, nrow, runs, time_s / (double)runs);
        rounds_print(base(in[i].name), t, nrow);
        rounds_free(t, nrow);
    }
out:
    for (size_t k = 0; k < next; k++) {
        if (ext[k].to) fclose(ext[k].to); /* EOF: the peer exits */
        if (ext[k].from) fclose(ext[k].from);
        if (ext[k].pid > 0) waitpid(ext[k].pid, NULL, 0);
    }
    bench_state_free(s);
    for (size_t i = 0; i < n; i++) free((char *)in[i].buf);
    return rc;
usage:
    fprintf(stderr, "usage: seed [--time S] [--runs N] [--warm S] [--peer NAME=COMMAND]... FILE...\n");
    return 2;
}
