#!/bin/sh
# SPDX-License-Identifier: MIT
# The llhttp layer (issue 11), each program built against the layer and against Debian's llhttp
# 8.1 (node-llhttp, compiled by mk/compat-llhttp.mk):
#   test_llhttp      the API contract (pause, callback errors, skip body, upgrades, names, lenient
#                    switches; 9.x-only parts against the layer only)
#   llhttp_readme    llhttp's README usage example, unchanged
#   diff.py          the events program over the corpus, tests/cases inputs and fuzz/corpus at
#                    several chunkings, and whole with a pause at each event (--pauses); every
#                    difference must be in llhttp.known
#   fuzz_llhttp      the differential fuzzer (fuzz/fuzz_llhttp.c, both in one process): fuzz/corpus
#                    replayed, then (plain build) LLHTTP_FUZZ_TIME seconds of blind mutation
#                    (default 10); the inputs whose logs differ go through diff.py too
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
# every offset of every input in the plain build; about 64 of a long input's under the
# sanitizers, which run the programs several times slower. There, no leak scan at each of the
# events programs' thousands of exits (LeakSanitizer's was 33 of 53 ms a run; http_parser.sh
# 141 s -> 54 s under ASan): the unit programs keep it
case "$BUILD" in *san*) splits=64; export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" ;; *) splits=0 ;; esac
# z1, z7: byte by byte and in 7-byte pieces, an execute() of no bytes after each (llhttp calls a
# span open there with length 0)
run "diff.py" python3 "$dir/diff.py" --real "$BUILD/compat/llhttp_events_real" \
    --layer "$BUILD/compat/llhttp_events_layer" --known "$dir/llhttp.known" --extra-specs z1,z7 --splits "$splits"
# the same inputs, whole, byte by byte and in 3-byte pieces, with a pause at each event in
# turn, resumed where llhttp_get_error_pos() says: the same events and the same place (a
# program resumes there)
run "diff.py --pauses" python3 "$dir/diff.py" --real "$BUILD/compat/llhttp_events_real" \
    --layer "$BUILD/compat/llhttp_events_layer" --known "$dir/llhttp.known" --extra-specs z1,z7 --pauses 64 \
    --pause-specs 0,1,3
# Replaying fuzz/corpus is deterministic: its differing inputs must all be explained. The
# mutation run (plain build) is random: what it finds is reported as notes here (make
# fuzz-llhttp fails on them), so that make test stays deterministic.
div=$(mktemp -d); mdiv=$(mktemp -d)
trap 'rm -rf "$div" "$mdiv"' EXIT
run "fuzz_llhttp (replay)" env LLHTTP_FUZZ_DIVERGE="$div" "$BUILD/compat/fuzz_llhttp_replay" fuzz/corpus
if [ -n "$(ls "$div")" ]; then
    run "diff.py on the replay's differing inputs" python3 "$dir/diff.py" --real "$BUILD/compat/llhttp_events_real" \
        --layer "$BUILD/compat/llhttp_events_layer" --known "$dir/llhttp.known" --fuzz-dir "$div" --splits 16
fi
case "$BUILD" in
*asan*|*msan*) ;;
*)  run "fuzz_llhttp (mutation)" env LLHTTP_FUZZ_DIVERGE="$mdiv" "$BUILD/compat/fuzz_llhttp_replay" \
        -t "${LLHTTP_FUZZ_TIME:-10}" -o "$BUILD/compat/fuzz-llhttp-crash" fuzz/corpus
    if [ -n "$(ls "$mdiv")" ]; then
        python3 "$dir/diff.py" --real "$BUILD/compat/llhttp_events_real" --layer "$BUILD/compat/llhttp_events_layer" \
            --known "$dir/llhttp.known" --fuzz-dir "$mdiv" --splits 16 2>&1 | grep -E '^(FAIL|  real|  layer)' |
            sed 's/^/note (mutation find, not counted) /' | head -n 12
    fi ;;
esac
# Installed: llhttp's README example builds with pkg-config alone and runs on the layer's shared
# library (never on a real libllhttp), which exports llhttp_* only. Plain build only.
case "$BUILD" in *san*) ;; *)
    tmp=$(mktemp -d)
    if make --no-print-directory -s install BUILD="$BUILD" DESTDIR="$tmp" PREFIX=/usr >"$tmp/log" 2>&1 &&
       command -v pkg-config >/dev/null 2>&1 &&
       flags=$(PKG_CONFIG_PATH="$tmp/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$tmp" pkg-config --cflags --libs simdhttp-llhttp) &&
       cc tests/compat/llhttp_readme.c -I"$BUILD/compat" $flags -o "$tmp/app" 2>>"$tmp/log" &&
       LD_LIBRARY_PATH="$tmp/usr/lib" "$tmp/app" | grep -qE '^(1|0) passed, 0 failed' &&
       LD_LIBRARY_PATH="$tmp/usr/lib" ldd "$tmp/app" | grep -q 'libsimdhttp-llhttp.so.0 => '"$tmp" &&
       ! LD_LIBRARY_PATH="$tmp/usr/lib" ldd "$tmp/app" | grep -q 'libllhttp' &&
       [ -z "$(nm -D --defined-only "$tmp/usr/lib/libsimdhttp-llhttp.so" | awk '$2 != "A" {print $3}' | grep -v '^llhttp_')" ]; then
        echo "make install (llhttp layer): 1 passed, 0 failed"; pass=$((pass + 1))
    else
        echo "not ok - make install (llhttp layer): pkg-config build and run"; tail -n 5 "$tmp/log"; fail=$((fail + 1))
    fi
    rm -rf "$tmp" ;;
esac
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
