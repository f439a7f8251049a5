#!/bin/sh
# SPDX-License-Identifier: MIT
# The http-parser layer (issue 12): its unit test, then tests/compat/diff.py over the corpus, the
# inputs of tests/cases and fuzz/corpus with the events program built against Debian's
# libhttp-parser and against the layer, at several chunkings, and whole, byte by byte and in
# 3-byte pieces with a pause at each event
# (the count execute() returns, where a program resumes); every difference must be in
# http_parser.known.
# Ends with "N passed, N failed". A missing libhttp-parser-dev or python3 is a skip (a failure
# when CI=true).
BUILD=${BUILD:-build}
dir=$(dirname "$0")
missing() {
    if [ "${CI:-}" = true ]; then echo "not ok - $1 (CI=true: a missing tool is a failure)"; echo "0 passed, 1 failed"; exit 1; fi
    echo "skip - $1"; echo "0 passed, 0 failed"; exit 0
}
out=$("$BUILD/compat/test_http_parser" 2>&1); rc=$?
echo "$out" | grep -E '^(not ok|FAIL)'
line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
p1=$(echo "${line:-0 passed, 1 failed}" | sed 's/ passed.*//'); f1=$(echo "${line:-0 passed, 1 failed}" | sed 's/.*passed, \([0-9]*\) failed.*/\1/')
[ "$rc" -ne 0 ] && [ "$f1" -eq 0 ] && f1=1
command -v python3 >/dev/null 2>&1 || missing "python3 is not installed"
# every offset of every input in the plain build; about 64 of a long input's under the
# sanitizers, which run the programs several times slower. There, no leak scan at each of the
# events programs' thousands of exits (LeakSanitizer's was 33 of 53 ms a run; http_parser.sh
# 141 s -> 54 s under ASan): the unit programs keep it
case "$BUILD" in *san*) splits=64; export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" ;; *) splits=0 ;; esac
"$BUILD/compat/http_parser_events_real" >/dev/null 2>&1; [ $? -eq 127 ] && missing "libhttp-parser-dev is not installed"
out=$(python3 "$dir/diff.py" --real "$BUILD/compat/http_parser_events_real" --layer "$BUILD/compat/http_parser_events_layer" \
      --known "$dir/http_parser.known" --extra-specs s1,s7 --splits "$splits" --pauses 64 --pause-specs 0,1,3 2>&1)
echo "$out" | grep -vE '^[0-9]+ passed, [0-9]+ failed' | tail -n 60
line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
p2=$(echo "${line:-0 passed, 1 failed}" | sed 's/ passed.*//'); f2=$(echo "${line:-0 passed, 1 failed}" | sed 's/.*passed, \([0-9]*\) failed.*/\1/')
# http_parser_parse_url on tests/compat/urls.txt: every line the same, or listed in
# http_parser_url.known (and every listed line does differ)
p3=0; f3=0
real=$("$BUILD/compat/http_parser_url_real" "$dir/urls.txt"); layer=$("$BUILD/compat/http_parser_url_layer" "$dir/urls.txt")
known=$(grep -v '^#' "$dir/http_parser_url.known" | cut -f1)
differ=$(printf '%s\n' "$real" | paste -d'\t' - "$(printf '%s\n' "$layer" > "$BUILD/compat/urls.layer"; echo "$BUILD/compat/urls.layer")" |
    awk -F'\t' '$1 != $2 { sub(/ -> .*/, "", $1); print $1 }')
if [ "$differ" = "$known" ] && [ -n "$real" ]; then
    p3=1; echo "# http_parser_parse_url: $(printf '%s\n' "$real" | wc -l) URLs, $(printf '%s\n' "$known" | grep -c .) listed differences"
else
    f3=1; echo "not ok - http_parser_parse_url: the URLs that differ are not those listed"
    printf 'differ:\n%s\nlisted:\n%s\n' "$differ" "$known" | head -n 60
fi
rm -f "$BUILD/compat/urls.layer"
# the differential fuzzer's replay: real http-parser and the layer in one process, fuzz/corpus
p4=0; f4=0
if [ -x "$BUILD/compat/fuzz_http_parser_replay" ]; then
    out=$("$BUILD/compat/fuzz_http_parser_replay" fuzz/corpus 2>&1); echo "$out" | grep '^not ok' | head -n 10
    line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    p4=$(echo "${line:-0 passed, 1 failed}" | sed 's/ passed.*//'); f4=$(echo "${line:-0 passed, 1 failed}" | sed 's/.*passed, \([0-9]*\) failed.*/\1/')
else
    f4=1; echo "not ok - $BUILD/compat/fuzz_http_parser_replay was not built (libhttp_parser.a missing?)"
fi
# installed: a program written for http-parser builds with pkg-config alone and runs on the
# layer's shared library (not on libhttp_parser)
p5=0; f5=0
case "$BUILD" in *san*) ;; *)
    tmp=$(mktemp -d)
    if make --no-print-directory -s install BUILD="$BUILD" DESTDIR="$tmp" PREFIX=/usr >"$tmp/log" 2>&1 &&
       command -v pkg-config >/dev/null 2>&1 &&
       flags=$(PKG_CONFIG_PATH="$tmp/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$tmp" pkg-config --cflags --libs simdhttp-http-parser) &&
       cc tests/compat/http_parser_url.c $flags -o "$tmp/app" 2>>"$tmp/log" &&
       LD_LIBRARY_PATH="$tmp/usr/lib" "$tmp/app" "$dir/urls.txt" > "$tmp/out" &&
       LD_LIBRARY_PATH="$tmp/usr/lib" ldd "$tmp/app" | grep -q 'libsimdhttp-http-parser.so.0 => '"$tmp" &&
       ! LD_LIBRARY_PATH="$tmp/usr/lib" ldd "$tmp/app" | grep -q 'libhttp_parser' &&
       [ -z "$(nm -D --defined-only "$tmp/usr/lib/libsimdhttp-http-parser.so" | awk '$2 != "A" {print $3}' | grep -v '^http_')" ] &&
       [ "$(cat "$tmp/out")" = "$("$BUILD/compat/http_parser_url_layer" "$dir/urls.txt")" ]; then
        p5=1
    else
        f5=1; echo "not ok - make install: the http-parser layer: pkg-config build and run"; tail -n 5 "$tmp/log"
    fi
    rm -rf "$tmp" ;;
esac
echo "$((p1 + p2 + p3 + p4 + p5)) passed, $((f1 + f2 + f3 + f4 + f5)) failed"
[ $((f1 + f2 + f3 + f4 + f5)) -eq 0 ]
