#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs test programs and scripts; each ends its output with "N passed, N failed".
# Prints each one's summary, appends the counts to $TOTALS (if set), and prints this build's
# total. A program that crashes or prints no summary counts as one failure.
passed=0; failed=0
# Test programs run once per SIMD path this CPU supports (SIMDHTTP_ISA forces each in turn; a
# path is listed if `simdhttp --version` accepts it); scripts run once, on the default path.
isas=$(for i in scalar sse2 sse42 avx2 avx512 neon; do
    SIMDHTTP_ISA=$i "${BUILD:-build}/simdhttp" --version 2>/dev/null | grep -q "isa: $i)" && echo "$i"; done)
[ -n "$isas" ] || isas=default
widest=$(echo "$isas" | tail -n 1)
jobs=""
for t in "$@"; do
    case "$t" in *.sh) jobs="$jobs $t@default" ;; *) for i in $isas; do jobs="$jobs $t@$i"; done ;; esac
done
for job in $jobs; do
    t=${job%@*}; isa=${job##*@}
    out=$(mktemp)
    case "$t" in
        *.sh) sh "$t" >"$out" 2>&1; rc=$? ;;
        *)    if [ "$isa" = default ]; then "./$t" >"$out" 2>&1; rc=$?
              else
                  # sanitizer builds: the widest path gets every corpus split point, the others
                  # every 5th (test_parser's SIMDHTTP_SPLIT_STRIDE), to keep make test short
                  stride=; case "$BUILD" in *asan*|*msan*) [ "$isa" = "$widest" ] || stride=5 ;; esac
                  SIMDHTTP_SPLIT_STRIDE=$stride SIMDHTTP_ISA=$isa "./$t" >"$out" 2>&1; rc=$?; t="$t($isa)"
              fi ;;
    esac
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -n 1)
    if [ -z "$line" ]; then
        tail -n 30 "$out"
        echo "$t: no summary (exit $rc): counted as 1 failure"
        p=0; f=1
    else
        p=$(echo "$line" | sed 's/ passed.*//'); f=$(echo "$line" | sed 's/.*passed, \([0-9]*\) failed.*/\1/')
        if [ "$f" -ne 0 ] || [ "$rc" -ne 0 ]; then
            grep -E '^(not ok|FAIL)' "$out" | head -n 40
            [ "$f" -eq 0 ] && f=1
        fi
        echo "$t ${BUILD:+[$BUILD] }$line"
    fi
    rm -f "$out"
    passed=$((passed + p)); failed=$((failed + f))
done
[ -n "${TOTALS:-}" ] && echo "$passed $failed" >> "$TOTALS"
echo "build ${BUILD:-?}: $passed passed, $failed failed (subtotal)"
exit 0
