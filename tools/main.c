/* SPDX-License-Identifier: MIT */
/* simdhttp: command-line front end. Exit status: 0 success, 1 parse error, 2 bad usage. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "simdhttp.h"

static int usage(FILE *f)
{
    fprintf(f, "usage: simdhttp parse [--request|--response|--auto] [--lenient FLAG[,FLAG...]]\n"
               "                      [--skip-body] [--split N] [--no-eof] [FILE|-]\n"
               "       simdhttp bench [--json] [--time S] [--runs N] [FILE...]\n"
               "       simdhttp --version\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage(stderr);
    if (strcmp(argv[1], "--version") == 0) {
        const char *why = simdhttp_isa_error();
        printf("simdhttp %s (isa: %s)\n", simdhttp_version(), simdhttp_isa_name());
        if (why) fprintf(stderr, "simdhttp: %s\n", why);
        return 0;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) return usage(stdout), 0;
    if (strcmp(argv[1], "parse") == 0) return cli_parse(argc - 1, argv + 1);
    if (strcmp(argv[1], "bench") == 0) return cli_bench(argc - 1, argv + 1);
    fprintf(stderr, "simdhttp: unknown command '%s'\n", argv[1]);
    return usage(stderr);
}
