#!/bin/sh
# SPDX-License-Identifier: MIT
# The build works on a machine without the benchmark peers (issue 34): make, make bench and make
# test must not depend on libhttp-parser-dev, libh2o-dev, node-llhttp or picohttpparser's
# source. Each peer is hidden by overriding the variable that detects it (mk/bench.mk,
# mk/compat-*.mk), in a temporary BUILD; `make -n` plans the builds without running them.
set -u
cd "$(dirname "$0")/.." || exit 1
pass=0; fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "not ok - $1"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
B=$tmp/build
# A make of its own: not the -j, BUILD, SAN or CC of the make running this suite.
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ${MAKE:-make} --no-print-directory BUILD="$B" \
    BENCH_HTTP_PARSER_LIB= BENCH_H2O_PATH= BENCH_PICO_SO= BENCH_LLHTTP_SRC=/nonexistent LL_REAL_SRC=/nonexistent \
    HP_REAL_A=libhttp_parser.a PICO_REAL_SRC=/nonexistent/picohttpparser BENCH_PEER_DIR=/nonexistent "$@"; }

# 1. No peer: the comparison program (part of `make`) can be planned; its peers stamp exists
#    and is empty. (The stamp was only written when its content changed, and an empty set
#    equals a missing file's: "No rule to make target 'build/bench/peers.stamp'".)
mk -n all > "$tmp/out" 2>&1 && ok || { ko "make -n all without peers failed"; tail -n 5 "$tmp/out"; }
grep -q 'bench/compare' "$tmp/out" && ok || ko "make -n all without peers plans no bench/compare"
[ -f "$B/bench/peers.stamp" ] && [ "$(cat "$B/bench/peers.stamp")" = "" ] && ok \
    || ko "no empty $B/bench/peers.stamp after make without peers"
# 2. The stamp follows the set of peers: one found, then none again.
mk -n BENCH_HTTP_PARSER_LIB=-lhttp_parser "$B/bench/compare" > "$tmp/out" 2>&1
[ "$(cat "$B/bench/peers.stamp" 2>/dev/null)" = "-DHAVE_HTTP_PARSER" ] && ok \
    || ko "stamp after http-parser appeared: '$(cat "$B/bench/peers.stamp" 2>/dev/null)'"
mk -n "$B/bench/compare" > "$tmp/out" 2>&1 && ok || ko "make -n bench/compare after the peer left failed"
[ "$(cat "$B/bench/peers.stamp" 2>/dev/null)" = "" ] && ok || ko "stamp not emptied when the peer left"
# 3. make bench's parts: each peer-dependent table says it is left out instead of failing.
for t in bench-http-parser-layer-run bench-llhttp-layer bench-picohttpparser-layer; do
    mk -n "$t" > "$tmp/out" 2>&1 && grep -q 'not installed\|missing' "$tmp/out" && ok \
        || { ko "make -n $t without peers: no note, or failed"; tail -n 3 "$tmp/out"; }
done
echo "$pass passed, $fail failed"
