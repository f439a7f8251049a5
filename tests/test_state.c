/* SPDX-License-Identifier: MIT */
/* Parser state ownership (include/simdhttp.h, "Ownership" at struct simdhttp_parser): no
 * result may depend on what a parser's memory held before init, on what the stack held before
 * simdhttp_parse_head, or on where in another stream a parser was reset. Each check compares
 * event logs with a fresh parser's:
 *   1. init over memory filled with 0x00, 0xff and random bytes (whole input, and byte by byte);
 *   2. simdhttp_parse_head after the stack was filled with the same bytes;
 *   3. reset at every offset of multi-message streams, then a target stream.
 * The MemorySanitizer build (make test) runs this too, where the stack and malloc'd memory
 * are poisoned rather than filled. The targets include the input of issue 9: a stale `_cand`
 * (with the `_idx` that "chunked" left) read at "Connection: ," turned it into an upgrade. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

/* issue 9's input: two requests; a stale _cand made the first an upgrade and handed
 * "GET /next" to the caller as tunnel bytes */
static const char issue9[] =
    "POST /f HTTP/1.1\r\nTransfer-Encoding: chunked\r\nConnection: ,\r\nUpgrade: x\r\n\r\n"
    "0\r\n\r\nGET /next HTTP/1.1\r\n\r\n";

/* Streams that pass through every kind of state (special values mid-match, chunk extensions,
 * trailers, bodies, type detection), to be reset in the middle of. */
static const char req_stream[] =
    "POST /a HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, upgrade\r\n"
    "Transfer-Encoding: gzip, chunked\r\n\r\n"
    "5;ext=\"q\\\"v\";e2=t\r\nhello\r\n0\r\nTrailer-Field: v\r\n\r\n"
    "\r\nGET /b HTTP/1.1\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc";
static const char resp_stream[] =
    "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nhi"
    "HTTP/1.1 204 No Content\r\n\r\n"
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;a=b\r\nabc\r\n0\r\n\r\n"
    "HTTP/1.0 200 OK\r\nConnection: upgrade\r\n\r\nbody until close";

static const char lead_cr[] = "\r\r\r\nGET / HTTP/1.1\r\n\r\n\r\rHTTP/1.1 200 OK\r\n\r\n";

static const struct {
    const char *name, *in;
    size_t len;
} targets[] = {
    {"issue 9 input", issue9, sizeof issue9 - 1},
    {"request stream", req_stream, sizeof req_stream - 1},
    {"response stream", resp_stream, sizeof resp_stream - 1},
    /* bare CRs among the empty lines before a start line: before any message begins (the
     * MSan build's fuzz replay found _want read there under lenient field_bare_cr) */
    {"bare CRs before a start line", lead_cr, sizeof lead_cr - 1},
};
#define NTARGETS (sizeof targets / sizeof *targets)

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint8_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint8_t)(rng >> 24);
}

/* fill: 0..255 a byte, -1 random bytes */
static void fill(void *mem, size_t n, int byte)
{
    volatile uint8_t *m = mem; /* volatile: the stores must happen */
    for (size_t i = 0; i < n; i++) m[i] = byte < 0 ? rnd() : (uint8_t)byte;
}

static const int fills[] = {0x00, 0xff, -1, -1, -1, -1};
#define NFILLS (sizeof fills / sizeof *fills)

static int same_log(const char *name, const char *want, const char *got)
{
    int ok = t_check(strcmp(want, got) == 0, name, "log differs from a fresh parser's");
    if (!ok) fprintf(stderr, "--- fresh:\n%s--- got:\n%s", want, got);
    return ok;
}

/* ---- 1. init over dirty memory ---- */
static void test_dirty_init(void)
{
    static const size_t bytewise[] = {1};
    /* strict, then each lenient flag alone: a flag can make the core read state early */
    for (int fl = -1; fl < 12; fl++)
    for (size_t t = 0; t < NTARGETS; t++) {
        simdhttp_config cfg = {0};
        cfg.lenient = fl < 0 ? 0 : 1u << fl;
        for (int split = 0; split < 2; split++) {
            const size_t *sp = split ? bytewise : NULL;
            char *want = t_stream_log(SIMDHTTP_BOTH, &cfg, targets[t].in, targets[t].len, sp, split, 1, -1);
            for (size_t k = 0; k < NFILLS; k++) {
                simdhttp_parser *p = malloc(sizeof *p);
                fill(p, sizeof *p, fills[k]);
                char *got = t_stream_log_on(p, 1, SIMDHTTP_BOTH, &cfg, targets[t].in, targets[t].len, sp,
                                            split, 1, -1, 0);
                char name[160];
                snprintf(name, sizeof name, "init over %s memory, lenient 0x%x: %s%s",
                         fills[k] < 0 ? "random" : fills[k] ? "0xff" : "0x00", (unsigned)cfg.lenient,
                         targets[t].name, split ? " (byte by byte)" : "");
                same_log(name, want, got);
                free(got);
                free(p);
            }
            free(want);
        }
    }
    /* the same as the issue states it: type request, the first message must not upgrade */
    simdhttp_parser p;
    fill(&p, sizeof p, 0xff);
    char *got = t_stream_log_on(&p, 1, SIMDHTTP_REQUEST, NULL, issue9, sizeof issue9 - 1, NULL, 0, 1, -1, 0);
    t_check(strstr(got, "upgrade") == NULL && strstr(got, "UPGRADE") == NULL, "0xff memory: no upgrade",
            "%s", got);
    free(got);
}

/* ---- 2. parse_head after dirtying the stack ---- */
static void __attribute__((noinline)) dirty_stack(int byte)
{
    uint8_t junk[32768];
    fill(junk, sizeof junk, byte);
    __asm__ volatile("" : : "r"(junk) : "memory");
}

/* Render what parse_head returned (small frame: the parser it builds lies in the dirtied area). */
static void __attribute__((noinline)) head_render(t_buf *b, const char *in, size_t len)
{
    simdhttp_field fields[8];
    simdhttp_head h = {.fields = fields, .fields_cap = 8};
    long r = simdhttp_parse_head(&h, SIMDHTTP_BOTH, in, len, NULL);
    t_buf_printf(b, "ret=%ld error=%s", r, simdhttp_errno_name(h.error));
    if (r > 0) {
        t_buf_printf(b, " type=%d method=%d v=%d.%d status=%d nf=%zu cl=%llu flags=", h.type, h.method,
                     h.http_major, h.http_minor, h.status_code, h.num_fields,
                     (unsigned long long)h.content_length);
        t_buf_flags(b, h.flags);
    }
    t_buf_put(b, "\n", 1);
}

static void test_dirty_stack(void)
{
    for (size_t t = 0; t < NTARGETS; t++) {
        /* every prefix, so that the head stops in every state */
        for (size_t n = 0; n <= targets[t].len; n++) {
            t_buf want = {0};
            dirty_stack(0);
            head_render(&want, targets[t].in, n);
            for (size_t k = 0; k < NFILLS; k++) {
                t_buf got = {0};
                dirty_stack(fills[k]);
                head_render(&got, targets[t].in, n);
                char name[128];
                snprintf(name, sizeof name, "parse_head on a %s stack: %s, %zu bytes",
                         fills[k] < 0 ? "random" : fills[k] ? "0xff" : "0x00", targets[t].name, n);
                same_log(name, want.s, got.s);
                t_buf_free(&got);
            }
            t_buf_free(&want);
        }
    }
    /* the issue's case by name: no UPGRADE flag */
    t_buf got = {0};
    dirty_stack(0xff);
    head_render(&got, issue9, sizeof issue9 - 1);
    t_check(strstr(got.s, "UPGRADE") == NULL, "parse_head on a 0xff stack: no upgrade", "%s", got.s);
    t_buf_free(&got);
}

/* ---- 3. reset at every offset ---- */
static void test_reset_everywhere(void)
{
    static const struct {
        const char *in;
        size_t len;
    } prefixes[] = {{req_stream, sizeof req_stream - 1}, {resp_stream, sizeof resp_stream - 1},
                    {issue9, sizeof issue9 - 1}};
    static const size_t bytewise[] = {1};
    for (size_t t = 0; t < NTARGETS; t++) {
        char *want = t_stream_log(SIMDHTTP_BOTH, NULL, targets[t].in, targets[t].len, NULL, 0, 1, -1);
        for (size_t s = 0; s < sizeof prefixes / sizeof *prefixes; s++) {
            for (size_t k = 0; k <= prefixes[s].len; k++) {
                /* the prefix byte by byte: the parser rests in the state of byte k */
                simdhttp_parser p;
                char *pre = t_stream_log_on(&p, 1, SIMDHTTP_BOTH, NULL, prefixes[s].in, k, bytewise, 1, 0, -1, 0);
                free(pre);
                char *got = t_stream_log_on(&p, 0, SIMDHTTP_BOTH, NULL, targets[t].in, targets[t].len, NULL,
                                            0, 1, -1, 0);
                char name[160];
                snprintf(name, sizeof name, "reset after %zu bytes of stream %zu, then %s", k, s,
                         targets[t].name);
                if (!same_log(name, want, got)) k = prefixes[s].len; /* one report per pair */
                free(got);
            }
        }
        free(want);
    }
}

int main(void)
{
    test_dirty_init();
    test_dirty_stack();
    test_reset_everywhere();
    return t_summary();
}
