#!/bin/sh
# SPDX-License-Identifier: MIT
# The llhttp layer (issue 11), each program built against the layer and against Debian's llhttp
# 8.1 (node-llhttp, compiled by mk/compat-llhttp.mk):
#   test_llhttp      the API contract (pause, callback errors, skip body, upgrades, names, lenient
#                    switches; 9.x-only parts against the layer only)
#   llhttp_readme    llhttp's README usage example, unchanged
#   diff.py          the events program over the corpus, tests/cases inputs and fuzz/corpus at
#                    several chunkings; every difference must be in llhttp.known
# Ends with "N passed, N failed". A missing node-llhttp or python3 is a skip (a failure when
# CI=true).
BUILD=${BUILD:-build}
dir=$(dirname "$0")
pass=0; fail=0
missing() {
    if [ "${CI:-}" = true ]; then echo "not ok - $1 (CI=true: a missing tool is a failure)"; fail=$((fail + 1))
    else echo "skip - $1"; fi
    echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit
}
# run NAME PROGRAM...: add the counts of its "N passed, N failed" line (none or a bad exit: 1 failure)
run() {
    name=$1; shift
    out=$("$@" 2>&1); rc=$?
    echo "$out" | grep -E '^(not ok|FAIL|note)' | head -n 60
    line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    [ -n "$line" ] || { echo "$out" | tail -n 5; line="0 passed, 1 failed"; }
    p=${line%% passed*}; f=$(echo "$line" | sed 's/.*passed, \([0-9]*\) failed.*/\1/')
    [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
    echo "$name: $p passed, $f failed"
    pass=$((pass + p)); fail=$((fail + f))
}
run "test_llhttp (layer)" "$BUILD/compat/test_llhttp_layer"
run "README example (layer)" "$BUILD/compat/llhttp_readme_layer"
"$BUILD/compat/llhttp_events_real" >/dev/null 2>&1; [ $? -eq 127 ] && missing "node-llhttp is not installed"
run "test_llhttp (llhttp 8.1)" "$BUILD/compat/test_llhttp_real"
run "README example (llhttp 8.1)" "$BUILD/compat/llhttp_readme_real"
command -v python3 >/dev/null 2>&1 || missing "python3 is not installed"
run "diff.py" python3 "$dir/diff.py" --real "$BUILD/compat/llhttp_events_real" \
    --layer "$BUILD/compat/llhttp_events_layer" --known "$dir/llhttp.known"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
