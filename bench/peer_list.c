/* SPDX-License-Identifier: MIT */
/* The peers mk/bench.mk found, registered for the programs that compare simdhttp with them
 * (bench/compare.c, bench/seed.c, bench/scaling.c): each built at bench time from Debian
 * packages (never committed), each at its best build beside the build Debian ships:
 *   pico-native    picohttpparser from Debian's h2o source package, -O3 -march=native
 *   pico-O3        the same, -O3 (no -march: its scalar loops)
 *   pico-libh2o    picohttpparser inside libh2o as Debian ships it
 *   llhttp-O3      llhttp 8.1 from Debian's node-llhttp, -O3
 *   llhttp-native  the same, -O3 -march=native
 *   http-parser    http-parser 2.9.4, Debian's libhttp-parser
 * A peer this build could not include is named (bench_missing_peers) and left out. */
#include <stddef.h>

#include "bench.h"

extern const bench_peer bench_peer_pico_native, bench_peer_pico_o3, bench_peer_pico_libh2o, o3_bench_peer_llhttp,
    native_bench_peer_llhttp, bench_peer_http_parser;

static const bench_peer *const peers[] = {
#ifdef HAVE_PICO_SRC
    &bench_peer_pico_native,
    &bench_peer_pico_o3,
#endif
#ifdef HAVE_PICO_DEB
    &bench_peer_pico_libh2o,
#endif
#ifdef HAVE_LLHTTP
    &o3_bench_peer_llhttp,
    &native_bench_peer_llhttp,
#endif
#ifdef HAVE_HTTP_PARSER
    &bench_peer_http_parser,
#endif
    NULL};

static const char *const missing[] = {
#ifndef HAVE_PICO_SRC
    "pico-native, pico-O3: no picohttpparser source in build/peers (make bench fetches it: bench/peers.sh, "
    "apt-get source h2o)",
#endif
#ifndef HAVE_PICO_DEB
    "pico-libh2o: libh2o not found (apt-get install libh2o-dev)",
#endif
#ifndef HAVE_LLHTTP
    "llhttp-O3, llhttp-native: no llhttp source in /usr/share/llhttp (apt-get install node-llhttp)",
#endif
#ifndef HAVE_HTTP_PARSER
    "http-parser: not found (apt-get install libhttp-parser-dev)",
#endif
    NULL};

void bench_register_peers(void) { bench_set_peers(peers, sizeof peers / sizeof *peers - 1, missing); }
