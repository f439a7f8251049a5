/* Replays inputs through LLVMFuzzerTestOneInput without libFuzzer, so the differential checks
 * of fuzz_diff.c run in every build (gcc, clang, sanitizers).
 *
 *   fuzz_replay FILE|DIR...
 *
 * Each input runs in a forked child, so a divergence (a trap) or a sanitizer report fails that
 * input only and the others still run. Prints "not ok - FILE" for each failure and ends with
 * "N passed, N failed" (N = inputs). Exit status 0 if none failed. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int passed, failed;

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    size_t cap = 4096, len = 0;
    uint8_t *d = malloc(cap);
    size_t n;
    while (d && (n = fread(d + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) d = realloc(d, cap *= 2);
    }
    fclose(f);
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

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) walk(argv[i]);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
