/* simdhttp parse: placeholder until the CLI lands (see issue 2). */
#include <stdio.h>
#include "cli.h"
int cli_parse(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "simdhttp parse: not built yet\n"); return 2; }
