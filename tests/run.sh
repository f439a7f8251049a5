#!/bin/sh
# Runs test programs and scripts; each ends its output with "N passed, N failed".
# Prints each one's summary, appends the counts to $TOTALS (if set), and prints this build's
# total. A program that crashes or prints no summary counts as one failure.
passed=0; failed=0
for t in "$@"; do
    out=$(mktemp)
    case "$t" in
        *.sh) sh "$t" >"$out" 2>&1; rc=$? ;;
        *)    "./$t" >"$out" 2>&1; rc=$? ;;
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
