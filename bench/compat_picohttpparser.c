/* SPDX-License-Identifier: MIT */
/* build/bench/compat_picohttpparser: `make bench-picohttpparser-layer` (part of `make bench`).
 * The tables of `simdhttp bench` (tools/cli_bench.c) with two peers built from one adapter,
 * bench/peer_pico.c, written against picohttpparser's API: once against the real
 * picohttpparser from Debian's h2o source package at -O3 -march=native ("pico-native", the
 * bench's own build, symbols native_*), once against compat/picohttpparser's header and layer,
 * built with the library's flags ("pico-layer", every symbol renamed layer_ by
 * bench/peer_obj.sh so both live in this one program). Same program, same inputs, interleaved
 * runs. */
#include <stddef.h>

#include "bench.h"

extern const bench_peer bench_peer_pico_native, layer_bench_peer_pico_native;

static const char *const missing[] = {NULL};

int main(int argc, char **argv)
{
    static bench_peer layer;
    layer = layer_bench_peer_pico_native;
    layer.name = "pico-layer"; /* the adapter names itself "pico-native" in both builds */
    static const bench_peer *peers[] = {&bench_peer_pico_native, &layer, NULL};
    bench_set_peers(peers, 2, missing);
    return cli_bench(argc, argv);
}
