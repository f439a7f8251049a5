/* simdhttp bench: placeholder until the benchmark suite lands (see issue 5). */
#include <stdio.h>
#include "cli.h"
int cli_bench(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "simdhttp bench: not built yet\n"); return 2; }
