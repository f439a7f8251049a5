/* SPDX-License-Identifier: MIT */
/* The simdhttp command: one file per subcommand. */
#ifndef SIMDHTTP_CLI_H
#define SIMDHTTP_CLI_H

int cli_parse(int argc, char **argv); /* tools/cli_parse.c: simdhttp parse ... */
int cli_bench(int argc, char **argv); /* tools/cli_bench.c: simdhttp bench ... */

#endif
