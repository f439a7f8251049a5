/* SPDX-License-Identifier: MIT */
/* Replays inputs through LLVMFuzzerTestOneInput without libFuzzer, so the differential checks
 * of fuzz_diff.c run in every build (gcc, clang, sanitizers).
 *
 *   fuzz_replay [-t SECONDS [-s SEED] [-o FILE] [-d DICT]] FILE|DIR...
 *
 * Each input runs in a forked child, so a divergence (a trap) or a sanitizer report fails that
 * input only and the others still run. Prints "not ok - FILE" for each failure and ends with
 * "N passed, N failed" (N = inputs, plus one for a mutation run). Exit status 0 if none failed.
 *
 * -t SECONDS then mutates the inputs at random for that long (bit flips, byte changes, HTTP
 * tokens, cuts, copies, splices of two inputs, delimiters put at vector and block boundaries;
 * at most MAX_LEN bytes): a blind fuzzer for the targets libFuzzer lacks (the aarch64 cross
 * build under qemu, which compares NEON with scalar). -d DICT adds the tokens of a libFuzzer
 * dictionary (fuzz/http.dict) to the built-in ones.
 * The input under test sits in shared memory, so when the child dies the parent saves it to
 * FILE (default fuzz-replay-crash) for fuzz_replay to replay and for -minimize_crash. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv); /* fuzz_diff.c: prints the paths compared */

static int passed, failed;

#define MAX_LEN 4096
/* the inputs seen by the replay, kept for the mutation run */
static uint8_t **pool;
static size_t *pool_len, pool_n, pool_cap;
static int keep_pool;

static void pool_add(const uint8_t *d, size_t n)
{
    if (!keep_pool) return;
    if (n > MAX_LEN) n = MAX_LEN;
    if (pool_n == pool_cap) {
        pool_cap = pool_cap ? pool_cap * 2 : 128;
        pool = realloc(pool, pool_cap * sizeof *pool);
        pool_len = realloc(pool_len, pool_cap * sizeof *pool_len);
        if (!pool || !pool_len) abort();
    }
    pool[pool_n] = malloc(n ? n : 1);
    if (!pool[pool_n]) abort();
    if (n) memcpy(pool[pool_n], d, n);
    pool_len[pool_n++] = n;
}

static uint8_t *read_all(const char *path, size_t *len_out)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, len = 0;
    uint8_t *d = malloc(cap);
    size_t n;
    while (d && (n = fread(d + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) d = realloc(d, cap *= 2);
    }
    fclose(f);
    *len_out = len;
    return d;
}

static int run_file(const char *path)
{
    size_t len;
    uint8_t *d = read_all(path, &len);
    if (!d) return -1;
    /* an exact-size copy: the harness reads nothing past the input either */
    uint8_t *in = malloc(len ? len : 1);
    if (len) memcpy(in, d, len);
    free(d);
    LLVMFuzzerTestOneInput(in, len);
    free(in);
    return 0;
}

static void one(const char *path)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(2);
    }
    if (pid == 0) _exit(run_file(path) == 0 ? 0 : 3);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0) {
    }
    if (keep_pool) {
        size_t len;
        uint8_t *d = read_all(path, &len);
        if (d) pool_add(d, len);
        free(d);
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        passed++;
    } else {
        failed++;
        if (WIFEXITED(st)) printf("not ok - %s: exit status %d\n", path, WEXITSTATUS(st));
        else printf("not ok - %s: signal %d\n", path, WTERMSIG(st));
    }
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void walk(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        printf("not ok - %s: cannot stat\n", path);
        failed++;
        return;
    }
    if (!S_ISDIR(sb.st_mode)) {
        one(path);
        return;
    }
    DIR *dir = opendir(path);
    if (!dir) {
        printf("not ok - %s: cannot open\n", path);
        failed++;
        return;
    }
    char **names = NULL;
    size_t k = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(dir)) != NULL) {
        if (de->d_name[0] == '.') continue;
        if (k == cap) names = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *names);
        size_t l = strlen(path) + strlen(de->d_name) + 2;
        names[k] = malloc(l);
        snprintf(names[k++], l, "%s/%s", path, de->d_name);
    }
    closedir(dir);
    if (k) qsort(names, k, sizeof *names, cmp); /* a stable order for the report */
    for (size_t i = 0; i < k; i++) {
        walk(names[i]);
        free(names[i]);
    }
    free(names);
}

/* ------------------------------------------------------------------ the mutation run ---- */

static uint64_t rng;
static uint32_t rnd32(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17; /* xorshift64 */
    return (uint32_t)(rng >> 16);
}

/* Tokens the parser branches on (a subset of fuzz/http.dict). */
static const char *const tokens[] = {
    "\r\n", "\n", "\r", "\r\n\r\n", " ", "\t", ":", ": ", "HTTP/1.1", "HTTP/1.0", "HTTP/",
    "HTTP/1.1 200 OK\r\n", "HTTP/1.1 101 Switching Protocols\r\n", " 100 ", " 204 ", " 304 ",
    "GET ", "HEAD ", "POST ", "CONNECT ", " * ", "Host: ", "Content-Length: ",
    "18446744073709551616", "Transfer-Encoding: chunked\r\n", "chunked", "gzip, chunked",
    "Connection: close\r\n", "Connection: keep-alive\r\n", "Connection: upgrade\r\n",
    "Upgrade: websocket\r\n", "\r\n ", "\r\n\t", "0\r\n\r\n", "ffffffffffffffff", ";a=b",
    ";q=\"x\\\"y\"", " ;", "\x7f", "\x80", "\0", "\"",
};

/* -d: the tokens of a libFuzzer dictionary */
static uint8_t **dict;
static size_t *dict_len, dict_n;

/* One token: the built-in list or, when one was loaded, the dictionary (half the time each). */
static const uint8_t *token(size_t *tl)
{
    if (dict_n && rnd32() % 2) {
        size_t j = rnd32() % dict_n;
        *tl = dict_len[j];
        return dict[j];
    }
    const char *t = tokens[rnd32() % (sizeof tokens / sizeof *tokens)];
    *tl = t[0] ? strlen(t) : 1; /* "\0" is the one-byte token NUL */
    return (const uint8_t *)t;
}

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Loads a libFuzzer/AFL dictionary: one `name="value"` (or `"value"`) a line, `#` comments,
 * escapes \\, \" and \xNN. Returns the number of tokens, -1 if the file cannot be read. */
static long load_dict(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        char *q = strchr(line, '"'), *r = strrchr(line, '"');
        if (line[0] == '#' || !q || r == q) continue;
        uint8_t tok[1024];
        size_t k = 0;
        for (char *c = q + 1; c < r; c++) {
            if (*c == '\\' && c[1] == 'x' && hexval(c[2]) >= 0 && hexval(c[3]) >= 0) {
                tok[k++] = (uint8_t)(hexval(c[2]) << 4 | hexval(c[3]));
                c += 3;
            } else if (*c == '\\' && c + 1 < r) {
                tok[k++] = (uint8_t)*++c;
            } else {
                tok[k++] = (uint8_t)*c;
            }
        }
        if (!k) continue;
        dict = realloc(dict, (dict_n + 1) * sizeof *dict);
        dict_len = realloc(dict_len, (dict_n + 1) * sizeof *dict_len);
        if (!dict || !dict_len || !(dict[dict_n] = malloc(k))) abort();
        memcpy(dict[dict_n], tok, k);
        dict_len[dict_n++] = k;
    }
    fclose(f);
    return (long)dict_n;
}

/* The bytes the scanners and stage 1 stop at or must let pass (CR, LF, ':', OWS, CTLs, DEL,
 * obs-text, list and parameter delimiters). */
static const uint8_t delims[] = {'\r', '\n', ':', ' ', '\t', 0, 0x7f, 0x80, 0xff, ',', ';', '"', 0x0b, 'a'};

#define CFG 10 /* the configuration bytes before the stream (every harness of fuzz/) */

/* Where a vector or a block ends. Stage 2 takes 64-byte blocks from a field line's start
 * (src/core.h), the span scanners take 16-byte (SSE2, SSE4.2, NEON), 32-byte (AVX2) or
 * 64-byte (AVX-512) steps from a span's start, then an overlapping last vector or an 8/4-byte
 * pair. So: a line start (after an LF), a value or target start (after ':' or SP), or the
 * stream's start, plus 16, 32 or 64 times 1..4, give or take two. */
static size_t boundary(const uint8_t *d, size_t len)
{
    static const unsigned width[] = {16, 32, 64};
    static const uint8_t anchor_byte[] = {'\n', '\n', ':', ' '};
    size_t at = CFG;
    if (len > CFG && rnd32() % 4) {
        size_t from = CFG + rnd32() % (len - CFG);
        const uint8_t *a = memchr(d + from, anchor_byte[rnd32() % sizeof anchor_byte], len - from);
        if (a) at = (size_t)(a - d) + 1;
    }
    return at + width[rnd32() % 3] * (1 + rnd32() % 4) + (size_t)(rnd32() % 5) - 2;
}

/* One random edit of d[0..*n) (capacity MAX_LEN); the first CFG bytes are the configuration. */
static void mutate_once(uint8_t *d, size_t *n)
{
    size_t len = *n, pos = len ? rnd32() % len : 0;
    switch (rnd32() % 13) {
    case 0: /* flip a bit */
        if (len) d[pos] ^= (uint8_t)(1u << (rnd32() % 8));
        break;
    case 1: /* a random byte, often a configuration byte */
        if (len) d[rnd32() % 2 ? pos : rnd32() % (len < 10 ? len : 10)] = (uint8_t)rnd32();
        break;
    case 2: case 3: { /* insert a token */
        size_t tl;
        const uint8_t *t = token(&tl);
        if (len + tl > MAX_LEN) break;
        pos = rnd32() % (len + 1);
        memmove(d + pos + tl, d + pos, len - pos);
        memcpy(d + pos, t, tl);
        *n = len + tl;
        break;
    }
    case 4: { /* delete a range */
        if (!len) break;
        size_t k = 1 + rnd32() % (len - pos < 16 ? len - pos : 16);
        memmove(d + pos, d + pos + k, len - pos - k);
        *n = len - k;
        break;
    }
    case 5: { /* duplicate a range */
        size_t k = len ? 1 + rnd32() % (len - pos < 64 ? len - pos : 64) : 0;
        if (!k || len + k > MAX_LEN) break;
        size_t at = rnd32() % (len + 1);
        uint8_t tmp[64];
        memcpy(tmp, d + pos, k);
        memmove(d + at + k, d + at, len - at);
        memcpy(d + at, tmp, k);
        *n = len + k;
        break;
    }
    case 6: /* cut the end */
        *n = pos;
        break;
    case 7: { /* splice: the tail of another input from a random point */
        size_t j = rnd32() % pool_n, ol = pool_len[j];
        size_t from = ol ? rnd32() % ol : 0, k = ol - from;
        if (pos + k > MAX_LEN) k = MAX_LEN - pos;
        memcpy(d + pos, pool[j] + from, k);
        *n = pos + k;
        break;
    }
    case 9: { /* a delimiter (or CRLF) inserted at a boundary */
        size_t at = boundary(d, len), k = rnd32() % 4 ? 1 : 2;
        if (at > len || len + k > MAX_LEN) break;
        memmove(d + at + k, d + at, len - at);
        if (k == 1) d[at] = delims[rnd32() % sizeof delims];
        else d[at] = '\r', d[at + 1] = '\n';
        *n = len + k;
        break;
    }
    case 10: { /* a byte at a boundary replaced by a delimiter */
        size_t at = boundary(d, len);
        if (at < len) d[at] = delims[rnd32() % sizeof delims];
        break;
    }
    case 11: { /* the input cut at a boundary (a buffer or a head ending there) */
        size_t at = boundary(d, len);
        if (at < len) *n = at;
        break;
    }
    case 12: { /* padding that moves a line's next CR, LF or ':' onto a boundary from its line start */
        if (len <= CFG + 1) break;
        size_t from = CFG + rnd32() % (len - CFG);
        const uint8_t *q = memchr(d + from, "\r\n:"[rnd32() % 3], len - from);
        if (!q) break;
        size_t at = (size_t)(q - d), ls = at;
        while (ls > CFG && d[ls - 1] != '\n') ls--;
        size_t w = 16u << rnd32() % 3, cur = at - ls;
        /* a multiple of w (at least cur + 2), give or take two: want >= cur */
        size_t k = (cur + 2 + w - 1) / w * w + (size_t)(rnd32() % 5) - 2 - cur;
        if (len + k > MAX_LEN) break;
        memmove(d + at + k, d + at, len - at);
        memset(d + at, at > ls && d[at - 1] > ' ' && d[at - 1] < 0x7f ? d[at - 1] : 'a', k);
        *n = len + k;
        break;
    }
    default: /* a repeated byte run (long values, spans across vector widths) */
        if (len + 64 <= MAX_LEN) {
            size_t k = 1 + rnd32() % 64;
            uint8_t c = len ? d[pos] : 'a';
            memmove(d + pos + k, d + pos, len - pos);
            memset(d + pos, c, k);
            *n = len + k;
        }
        break;
    }
}

typedef struct shared {
    size_t len;
    unsigned long long execs;
    uint8_t data[MAX_LEN];
} shared;

static void mutation_run(double seconds, uint64_t seed, const char *save)
{
    if (!pool_n) {
        printf("not ok - mutation run: no inputs\n");
        failed++;
        return;
    }
    shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
    memset(sh, 0, sizeof *sh);
    rng = seed; /* 0 is a fixed point of xorshift: main never passes it */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(2);
    }
    if (pid == 0) {
        uint8_t cur[MAX_LEN];
        for (;;) {
            clock_gettime(CLOCK_MONOTONIC, &t1);
            if ((double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec) >= seconds) break;
            size_t j = rnd32() % pool_n, n = pool_len[j];
            memcpy(cur, pool[j], n);
            for (unsigned k = 1 + rnd32() % 4; k; k--) mutate_once(cur, &n);
            memcpy(sh->data, cur, n);
            sh->len = n;
            /* an exact-size copy, as in run_file */
            uint8_t *in = malloc(n ? n : 1);
            if (!in) abort();
            memcpy(in, cur, n);
            LLVMFuzzerTestOneInput(in, n);
            free(in);
            sh->execs++;
        }
        _exit(0);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0) {
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double el = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        passed++;
        printf("mutation run: %llu inputs in %.1f s (%.0f/s), seed %llu, no divergence\n", sh->execs, el,
               el > 0 ? (double)sh->execs / el : 0.0, (unsigned long long)seed);
    } else {
        failed++;
        FILE *f = fopen(save, "wb");
        if (f) {
            fwrite(sh->data, 1, sh->len, f);
            fclose(f);
        }
        printf("not ok - mutation run: input %llu (%zu bytes) failed (%s %d), saved to %s; seed %llu (-s)\n",
               sh->execs + 1, sh->len, WIFEXITED(st) ? "exit status" : "signal",
               WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), f ? save : "(could not save)",
               (unsigned long long)seed);
        /* the input itself, for a log that outlives the machine (CI keeps only the output) */
        printf("# input (hex, first %zu bytes): ", sh->len < 512 ? sh->len : (size_t)512);
        for (size_t i = 0; i < sh->len && i < 512; i++) printf("%02x", sh->data[i]);
        printf("\n");
    }
    munmap(sh, sizeof *sh);
}

int main(int argc, char **argv)
{
    double seconds = 0;
    uint64_t seed = 0;
    const char *save = "fuzz-replay-crash";
    int i = 1;
    for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
        if (strcmp(argv[i], "-t") == 0) seconds = atof(argv[i + 1]);
        else if (strcmp(argv[i], "-s") == 0) seed = strtoull(argv[i + 1], NULL, 0);
        else if (strcmp(argv[i], "-o") == 0) save = argv[i + 1];
        else if (strcmp(argv[i], "-d") == 0) {
            if (load_dict(argv[i + 1]) < 0) {
                fprintf(stderr, "%s: cannot read dictionary %s\n", argv[0], argv[i + 1]);
                return 2;
            }
        } else break;
    }
    if (i >= argc || argv[i][0] == '-') {
        fprintf(stderr, "usage: %s [-t SECONDS [-s SEED] [-o FILE] [-d DICT]] FILE|DIR...\n", argv[0]);
        return 2;
    }
    LLVMFuzzerInitialize(&argc, &argv);
    keep_pool = seconds > 0;
    if (!seed) seed = ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid(); /* a fresh run; printed */
    for (; i < argc; i++) walk(argv[i]);
    if (seconds > 0) mutation_run(seconds, seed, save);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
