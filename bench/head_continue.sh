#!/bin/sh
# SPDX-License-Identifier: MIT
# Instructions (callgrind, deterministic) of a 64 KiB head parsed whole vs in 10-byte steps,
# then interleaved timings. Usage: bench/head_continue.sh build/bench/head_continue [STEP]
# callgrind hides AVX-512, so the path is forced to AVX2 (docs/simd.md).
bin=${1:-build/bench/head_continue}; step=${2:-10}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
count() { # shape mode -> instructions inside run_mode
    SIMDHTTP_ISA=avx2 valgrind --tool=callgrind --callgrind-out-file="$tmp/out" \
        --toggle-collect=run_mode "$bin" "$1" "$2" "$step" >/dev/null 2>&1 || { echo "?"; return; }
    sed -n 's/^summary: *//p' "$tmp/out"
}
printf '%-6s %12s %16s %7s %18s %16s\n' shape "whole call" "continue, steps" ratio "parse_head, steps" "execute, steps"
for shape in long short one; do
    w=$(count $shape whole); c=$(count $shape continue); r=$(count $shape reparse); e=$(count $shape stream)
    printf '%-6s %12s %16s %6sx %18s %16s\n' $shape "$w" "$c" "$(awk "BEGIN{printf \"%.2f\", $c/$w}")" "$r" "$e"
done
for shape in long short one; do SIMDHTTP_ISA=avx2 "$bin" $shape time "$step"; done
