/* SPDX-License-Identifier: MIT */
/* build/bench/compare: `make bench`'s program. The same tables as `simdhttp bench` (the code
 * is tools/cli_bench.c), with the peers mk/bench.mk found registered (bench/peer_list.c).
 * A peer this build could not include is named on stderr and left out of the tables.
 * Usage: the options and FILEs of `simdhttp bench` (docs/benchmarks.md). */
#include "bench.h"

int main(int argc, char **argv)
{
    bench_register_peers();
    return cli_bench(argc, argv);
}
