/* SPDX-License-Identifier: MIT */
/* simdhttp: command-line front end. Exit status (tools/cli.h): 0 success, 1 parse error,
 * 2 bad usage, 3 input/output error. simdhttp(1) is the manual. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "simdhttp.h"

static const char overview[] =
    "usage: simdhttp <command> [options]\n"
    "\n"
    "Commands:\n"
    "  parse [OPTIONS] [FILE|-]  raw HTTP/1.x in, one JSON line per message out, as each completes\n"
    "  bench [OPTIONS] [FILE...] time the parser on HTTP message files\n"
    "  audit [--json] [FILE|DIR|-]...  desync verdicts for captured streams\n"
    "  help [COMMAND]            this text, or one command's options (= COMMAND --help)\n"
    "\n"
    "Options:\n"
    "  -h, --help                this text\n"
    "  -V, --version             the library version and the SIMD path chosen for this CPU\n"
    "\n"
    "Exit status: 0 ok, 1 parse error, 2 bad usage, 3 input/output error (with errno's text).\n"
    "Environment: SIMDHTTP_ISA=scalar|sse2|sse42|avx2|avx512|neon forces a SIMD path.\n";

static int full_help(void)
{
    fputs(overview, stdout);
    fputs("\n", stdout);
    cli_parse_usage(stdout);
    fputs("\n", stdout);
    cli_bench_usage(stdout);
    fputs("\n", stdout);
    cli_audit_usage(stdout);
    fputs("\nThe manual: man simdhttp (the command), man 3 simdhttp (the library).\n", stdout);
    return CLI_EXIT_OK;
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "simdhttp: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s'simdhttp --help' describes every command and option.\n", overview);
    return CLI_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage_error("%s", "no command");
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
        if (argc > 2) return usage_error("--version takes no argument ('%s')", argv[2]);
        const char *why = simdhttp_isa_error();
        printf("simdhttp %s (isa: %s)\n", simdhttp_version(), simdhttp_isa_name());
        if (why) fprintf(stderr, "simdhttp: %s\n", why);
        return fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_IO;
    }
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) return full_help();
    if (!strcmp(cmd, "help")) {
        if (argc == 2) return full_help();
        if (argc > 3) return usage_error("help takes one command ('%s' too many)", argv[3]);
        if (!strcmp(argv[2], "parse")) return cli_parse_usage(stdout);
        if (!strcmp(argv[2], "bench")) return cli_bench_usage(stdout), CLI_EXIT_OK;
        if (!strcmp(argv[2], "audit")) return cli_audit_usage(stdout);
        return usage_error("no command '%s'", argv[2]);
    }
    if (!strcmp(cmd, "parse")) return cli_parse(argc - 1, argv + 1);
    if (!strcmp(cmd, "bench")) return cli_bench(argc - 1, argv + 1);
    if (!strcmp(cmd, "audit")) return cli_audit(argc - 1, argv + 1);
    return usage_error("unknown command '%s'", cmd);
}
