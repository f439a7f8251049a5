#!/bin/sh
# SPDX-License-Identifier: MIT
# Instructions per message of each side of bench/compat_llhttp.c (llhttp 8.1 -O3 and simdhttp's
# llhttp layer), by callgrind: deterministic, so it is the number to quote when the machine is
# busy. Each side runs N and 2N passes over a file; the difference divided by N x messages
# leaves out start-up. The layer runs the AVX2 path (callgrind hides AVX-512).
# Usage: bench/compat_llhttp_callgrind.sh BUILD/bench/compat_llhttp FILE...
set -eu
prog=$1; shift
n=${CALLGRIND_ITERS:-200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ir() { # SIDE FILE ITERS -> total instructions
    SIMDHTTP_ISA=avx2 valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$prog" --only "$1" --iters "$3" "$2" \
        >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; exit 1; }
    sed -n 's/^summary: //p' "$tmp/out"
}
printf '%-22s %14s %14s %8s  %s\n' file llhttp-O3 layer ratio "target >= 2x (instructions per message)"
for f in "$@"; do
    m=$("$prog" --only real --iters 1 "$f" | sed 's/.*: \([0-9]*\) messages.*/\1/')
    r1=$(ir real "$f" "$n"); r2=$(ir real "$f" $((2 * n)))
    l1=$(ir layer "$f" "$n"); l2=$(ir layer "$f" $((2 * n)))
    awk -v f="$(basename "$f")" -v m="$m" -v n="$n" -v r1="$r1" -v r2="$r2" -v l1="$l1" -v l2="$l2" 'BEGIN {
        r = (r2 - r1) / (n * m); l = (l2 - l1) / (n * m)
        printf "%-22s %14.0f %14.0f %7.2fx  %s\n", f, r, l, r / l, (r / l >= 2 ? "met" : "MISSED") }'
done
