/* SPDX-License-Identifier: MIT */
/* simdhttp_parse_head_continue: total work linear in the head's size (issue 9, item 4).
 *
 * Each head arrives in steps; before every call, the pages that lie wholly before
 * last_len - 8 are made PROT_NONE: a call that answers INCOMPLETE may read only the bytes that
 * can change the answer, so one that re-read the prefix (the quadratic way) faults. The call
 * that sees the head's end gets the whole buffer back and must return what
 * simdhttp_parse_head returns. Each run is in a child process, so a fault is a failed check.
 * A control run does the same with a caller that re-parses with simdhttp_parse_head (last_len
 * ignored): it must fault, or this test would prove nothing.
 *
 * Heads: long fields (default limits), many short fields, 30,000 leading empty lines (CRLF, and
 * bare LF under lenient bare_lf), bare LF line ends, obs-fold lines, CTLs under lenient
 * headers; steps of 1, 7, 10 and 1000 bytes. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#define MAXF 4096

typedef long (*head_fn)(simdhttp_head *h, simdhttp_type type, const char *buf, size_t len, size_t last_len,
                        const simdhttp_config *cfg);

static long reparse(simdhttp_head *h, simdhttp_type type, const char *buf, size_t len, size_t last_len,
                    const simdhttp_config *cfg)
{
    (void)last_len;
    return simdhttp_parse_head(h, type, buf, len, cfg);
}

static void build(t_buf *b, const char *shape)
{
    b->len = 0;
    if (strcmp(shape, "long fields") == 0) {
        t_buf_printf(b, "GET /resource HTTP/1.1\r\nHost: example.com\r\n");
        for (int i = 0; i < 126; i++) {
            t_buf_printf(b, "X-Long-%03d: ", i);
            for (int k = 0; k < 500; k++) t_buf_put(b, &"abcdefghijklmnopqrstuvwxyz0123456789"[(i + k) % 36], 1);
            t_buf_put(b, "\r\n", 2);
        }
    } else if (strcmp(shape, "short fields") == 0) {
        t_buf_printf(b, "POST /upload HTTP/1.1\r\nHost: example.com\r\nContent-Length: 0\r\n");
        for (int i = 0; i < 1500; i++) t_buf_printf(b, "X-F%d: value %d\r\n", i, i * 7);
    } else if (strcmp(shape, "leading empty lines") == 0) {
        for (int i = 0; i < 30000; i++) t_buf_put(b, "\r\n", 2);
        t_buf_printf(b, "GET / HTTP/1.1\r\nHost: a\r\n");
    } else if (strcmp(shape, "leading bare LF lines") == 0) {
        for (int i = 0; i < 30000; i++) t_buf_put(b, i % 3 ? "\n" : "\r\n", i % 3 ? 1 : 2);
        t_buf_printf(b, "GET / HTTP/1.1\r\nHost: a\r\n");
    } else if (strcmp(shape, "bare LF") == 0) {
        t_buf_printf(b, "GET / HTTP/1.1\nHost: a\n");
        for (int i = 0; i < 2000; i++) t_buf_printf(b, "X-Bare-%d: lf only\n", i);
    } else if (strcmp(shape, "obs-fold") == 0) {
        t_buf_printf(b, "GET / HTTP/1.1\r\nHost: a\r\nX-Folded: first\r\n");
        for (int i = 0; i < 2000; i++) t_buf_printf(b, " \tcontinuation %d\r\n", i);
    } else { /* CTLs under lenient headers */
        t_buf_printf(b, "GET / HTTP/1.1\r\n");
        for (int i = 0; i < 1000; i++) t_buf_printf(b, "X-Ctl-%d: a\x01\x7f\x1b b\r\n", i);
    }
    t_buf_put(b, strcmp(shape, "bare LF") == 0 ? "\n" : "\r\n", strcmp(shape, "bare LF") == 0 ? 1 : 2);
}

static simdhttp_config cfg_for(const char *shape)
{
    simdhttp_config c = {.max_fields = MAXF};
    if (strcmp(shape, "bare LF") == 0 || strcmp(shape, "leading bare LF lines") == 0)
        c.lenient = SIMDHTTP_LENIENT_BARE_LF;
    if (strcmp(shape, "obs-fold") == 0) c.lenient = SIMDHTTP_LENIENT_OBS_FOLD;
    if (strcmp(shape, "CTL bytes") == 0) c.lenient = SIMDHTTP_LENIENT_HEADERS;
    return c;
}

/* In the child: feed `in` in steps, the prefix behind last_len - 8 unreadable on every call
 * but the one that sees the head's end. Exit status: 0 as expected, 1 wrong result, 2 a call
 * before the end did not say INCOMPLETE; a read of the prefix kills it with SIGSEGV. */
static int run_steps(head_fn fn, const t_buf *in, const simdhttp_config *cfg, size_t step, long want,
                     size_t *calls)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t map = (in->len + page - 1) / page * page;
    char *m = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return 3;
    memcpy(m, in->s, in->len);
    static simdhttp_field fields[MAXF];
    simdhttp_head h = {.fields = fields, .fields_cap = MAXF};
    size_t last = 0, locked = 0; /* bytes [0, locked) are PROT_NONE */
    int rc = 0;
    for (size_t len = step < in->len ? step : in->len;; len = len + step < in->len ? len + step : in->len) {
        /* the call that completes the head may parse it all */
        size_t keep = len >= (size_t)want ? 0 : last > 8 ? (last - 8) / page * page : 0;
        if (keep != locked) {
            if (mprotect(m, map, PROT_READ | PROT_WRITE) || (keep && mprotect(m, keep, PROT_NONE))) return 3;
            locked = keep;
        }
        long r = fn(&h, SIMDHTTP_REQUEST, m, len, last, cfg);
        ++*calls;
        if (len < (size_t)want && r != SIMDHTTP_HEAD_INCOMPLETE) {
            rc = 2;
            break;
        }
        if (r != SIMDHTTP_HEAD_INCOMPLETE) {
            rc = r == want ? 0 : 1;
            break;
        }
        if (len == in->len) {
            rc = 1;
            break;
        }
        last = len;
    }
    munmap(m, map);
    return rc;
}

/* @return the child's wait status */
static int in_child(head_fn fn, const t_buf *in, const simdhttp_config *cfg, size_t step, long want)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        /* the default action, not a sanitizer's report: the parent sees the signal */
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        size_t calls = 0;
        _exit(run_steps(fn, in, cfg, step, want, &calls));
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid) return -1;
    return st;
}

int main(void)
{
    static const char *const shapes[] = {"long fields", "short fields", "leading empty lines", "leading bare LF lines",
                                         "bare LF", "obs-fold", "CTL bytes"};
    static const size_t steps[] = {1, 7, 10, 1000};
    t_buf in = {0};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        build(&in, shapes[s]);
        simdhttp_config cfg = cfg_for(shapes[s]);
        static simdhttp_field fields[MAXF];
        simdhttp_head h = {.fields = fields, .fields_cap = MAXF};
        long want = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, in.s, in.len, &cfg);
        if (!t_check(want == (long)in.len, shapes[s], "parse_head returned %ld (%s), want %zu", want,
                     simdhttp_errno_name(h.error), in.len))
            continue;
        for (size_t k = 0; k < sizeof steps / sizeof *steps; k++) {
            int st = in_child(simdhttp_parse_head_continue, &in, &cfg, steps[k], want);
            t_check(WIFEXITED(st) && WEXITSTATUS(st) == 0, shapes[s],
                    "%zu bytes in steps of %zu: %s %d (1: wrong result, 2: not INCOMPLETE before the end)",
                    in.len, steps[k], WIFSIGNALED(st) ? "killed by signal (the prefix was re-read)" : "exit",
                    WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
        }
        /* the control: re-parsing reads the prefix, and this test sees it */
        int st = in_child(reparse, &in, &cfg, 10, want);
        t_check(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, shapes[s],
                "control: re-parsing with simdhttp_parse_head was not caught (status 0x%x)", st);
    }
    t_buf_free(&in);

    /* an error among the empty lines before the start line (CR CR) is reported at once, as
     * the header promises for a CR that forms no line end: the first call saw "\r" alone */
    simdhttp_head h = {0};
    long r = simdhttp_parse_head_continue(&h, SIMDHTTP_REQUEST, "\r\r\n\r\n\r\n\r\n", 9, 1, NULL);
    t_check(r == SIMDHTTP_HEAD_ERROR && h.error == SIMDHTTP_E_LF_EXPECTED && h.error_offset == 1,
            "CR CR before the start line", "r %ld %s", r, simdhttp_errno_name(h.error));
    r = simdhttp_parse_head_continue(&h, SIMDHTTP_REQUEST, "\r\n\r\n\r\n\r\n\r", 9, 1, NULL);
    t_check(r == SIMDHTTP_HEAD_INCOMPLETE, "CRLF pairs before the start line", "r %ld %s", r, simdhttp_errno_name(h.error));
    return t_summary();
}
