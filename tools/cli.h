/* SPDX-License-Identifier: MIT */
/* The simdhttp command: one file per subcommand. */
#ifndef SIMDHTTP_CLI_H
#define SIMDHTTP_CLI_H

#include <stdio.h>

/* Exit status of every subcommand (simdhttp(1), docs/cli.md). */
enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_PARSE = 1, /* a parse error (parse), parsers that disagree (bench --check) */
    CLI_EXIT_USAGE = 2, /* unknown command or option, bad value */
    CLI_EXIT_IO = 3     /* open, read or write failed, or out of memory: errno's text on stderr */
};

int cli_parse(int argc, char **argv); /* tools/cli_parse.c: simdhttp parse ... */
int cli_bench(int argc, char **argv); /* tools/cli_bench.c: simdhttp bench ... */
int cli_audit(int argc, char **argv); /* tools/cli_audit.c: simdhttp audit ... */
/* Each subcommand's help on f. @return 0 */
int cli_parse_usage(FILE *f);
int cli_bench_usage(FILE *f);
int cli_audit_usage(FILE *f);

#endif
