#!/bin/sh
# SPDX-License-Identifier: MIT
# Instructions per message (callgrind, stable where timings are noisy) of each path, counted
# inside scan_bench's bench_loop only: per corpus file, scalar vs SSE2, SSE4.2, AVX2
# (valgrind hides AVX-512, so that path is not measurable here).
#   sh bench/scan_callgrind.sh build/scan_bench [ISA...]
BIN=${1:-build/scan_bench}; shift
ISAS=${*:-scalar sse2 sse42 avx2}
ITERS=${ITERS:-200}
command -v valgrind >/dev/null || { echo "valgrind not installed (apt-get install valgrind)"; exit 1; }
tmp=$(mktemp -d)
printf '%-24s' file; for i in $ISAS; do printf ' %9s' "$i"; done; printf '   (instructions per message; ratio scalar/last)\n'
for f in corpus/*.http; do
    printf '%-24s' "$(basename "$f")"
    first=""; last=""
    for i in $ISAS; do
        out=$(valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" --collect-atstart=no \
            --toggle-collect=bench_loop "$BIN" --isa "$i" --iters "$ITERS" "$f" 2>&1)
        msgs=$(echo "$out" | sed -n 's/.*messages\/pass \([0-9]*\).*/\1/p')
        ir=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$tmp/cg")
        per=$((ir / ((ITERS + 1) * msgs)))
        printf ' %9d' "$per"
        [ -z "$first" ] && first=$per; last=$per
    done
    awk -v a="$first" -v b="$last" 'BEGIN { printf "   %.2fx\n", a / b }'
done
rm -rf "$tmp"
