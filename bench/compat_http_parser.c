/* SPDX-License-Identifier: MIT */
/* build/bench/compat_http_parser: `make bench-http-parser-layer` (part of `make bench`). The
 * tables of `simdhttp bench` (tools/cli_bench.c) with two peers built from one adapter,
 * bench/peer_http_parser.c, written against http-parser's API: once linked with Debian's
 * libhttp_parser ("http-parser"), once compiled against compat/http_parser's header and linked
 * with the layer ("hp-layer", every symbol renamed layer_ by bench/peer_obj.sh so both live in
 * this one program). Same program, same inputs, interleaved runs. */
#include <stddef.h>

#include "bench.h"

extern const bench_peer bench_peer_http_parser, layer_bench_peer_http_parser;

static const char *const missing[] = {NULL};

int main(int argc, char **argv)
{
    static bench_peer layer;
    layer = layer_bench_peer_http_parser;
    layer.name = "hp-layer"; /* the adapter names itself "http-parser" in both builds */
    static const bench_peer *peers[] = {&bench_peer_http_parser, &layer, NULL};
    bench_set_peers(peers, 2, missing);
    return cli_bench(argc, argv);
}
