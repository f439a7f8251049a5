#!/bin/sh
# SPDX-License-Identifier: MIT
# The manual pages: each renders with man(1) without a warning, carries the header's version,
# and stays true: every option `simdhttp --help` lists is in simdhttp(1), every exit status the
# CLI has is described there, and every simdhttp_* name simdhttp(3) mentions exists in the header.
set -u
pass=0; fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "not ok - $1"; }
B=${BUILD:-build}
cd "$(dirname "$0")/.." || exit 1
if ! command -v man >/dev/null 2>&1; then
    [ "${CI:-}" = true ] && ko "man is not installed (scripts/deps.sh: man-db)" || echo "skip - no man(1)"
    echo "$pass passed, $fail failed"; exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ver=$(sed -n 's/^#define SIMDHTTP_VERSION_STRING "\(.*\)"/\1/p' include/simdhttp.h)
for m in man/*.[1-8]; do
    LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$m" >"$tmp/out" 2>"$tmp/err"
    if [ -s "$tmp/err" ] || [ "$(wc -l <"$tmp/out")" -lt 40 ]; then ko "$m: man -l warns or renders little"; head -n 10 "$tmp/err"; else ok; fi
    grep -q "^\.TH SIMDHTTP [0-9] [0-9-]* \"simdhttp $ver\"" "$m" && ok || ko "$m: .TH does not carry version $ver"
done
[ -f man/simdhttp.1 ] && [ -f man/simdhttp.3 ] && ok || ko "man/simdhttp.1 and man/simdhttp.3 exist"

# every option of every command's help is described in simdhttp(1)
if [ -x "$B/simdhttp" ]; then
    # options: "[--x" in a usage line, "--x" or "-y, --x" at the start of a help line
    "$B/simdhttp" --help | grep -o -e '\[--[a-z0-9-]*' -e '^ *--[a-z0-9-]*' -e '^ *-[A-Za-z], --[a-z0-9-]*' \
        | grep -o -e '--[a-z0-9-]*' | sort -u >"$tmp/opts"
    [ "$(wc -l <"$tmp/opts")" -ge 20 ] && ok || ko "simdhttp --help lists only $(wc -l <"$tmp/opts") options"
    while read -r o; do
        esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
        grep -q -e "$esc" man/simdhttp.1 || ko "simdhttp(1) does not describe $o"
    done <"$tmp/opts"
    [ "$fail" -eq 0 ] && ok
else
    ko "no $B/simdhttp"
fi
# the exit statuses of tools/cli.h are all in EXIT STATUS
sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' man/simdhttp.1 >"$tmp/exit"
for c in $(sed -n 's/^ *CLI_EXIT_[A-Z]* = \([0-9]*\).*/\1/p' tools/cli.h); do
    grep -q "^\.B $c\$" "$tmp/exit" && ok || ko "simdhttp(1) EXIT STATUS lacks $c"
done
# simdhttp(3) names only functions and macros the header has
grep -o 'simdhttp_[a-z0-9_]*\|SIMDHTTP_[A-Z0-9_]*' man/simdhttp.3 | sort -u >"$tmp/names"
while read -r n; do
    grep -q -w "$n" include/simdhttp.h || ko "simdhttp(3) mentions $n, which include/simdhttp.h does not have"
done <"$tmp/names"
[ "$(wc -l <"$tmp/names")" -ge 10 ] && ok || ko "simdhttp(3) names few API items"
echo "$pass passed, $fail failed"
