#!/bin/sh
# SPDX-License-Identifier: MIT
# simdhttp's picohttpparser layer against the real picohttpparser (Debian's h2o source package,
# fetched into build/peers/ by bench/peers.sh from scripts/deps.sh; built by
# mk/compat-picohttpparser.mk):
#  1. tests/compat/diff.py: picohttpparser_events built against both, over the corpus, the
#     inputs of tests/cases and tests/blocks and fuzz/corpus at several chunkings; every
#     difference must be listed in tests/compat/picohttpparser.known, except in the outputs
#     after each -1 and -2, which must be the same (one check per input);
#  2. picohttpparser's README loops, compiled unchanged against both: both compile with as many
#     warnings, run, and print the same (the buffer's address aside) (one check);
#  3. the shared library exports phr_* only, under SIMDHTTP_PICOHTTPPARSER_0 (one check);
#  4. fuzz/fuzz_pico.c's checks (the real one and the layer in one process) over fuzz/corpus
#     , and in the normal build FUZZ_MUTATE_TIME seconds (default 10) of blind
#     mutation (one check per input).
#  5. make bench's program (bench/compat_picohttpparser.c) --check: the layer and the real one
#     do the same work on every corpus file (one check);
#  7. tests/compat/test_picohttpparser.c (the API's edges, e.g. phr_decode_chunked after the
#     body's end) against the layer and against the real one, each its own answer where they
#     differ on purpose (one check per assertion);
#  6. the plain build only: make install into a temporary DESTDIR, then the README loops built
#     with `pkg-config --cflags --libs simdhttp-picohttpparser` alone run on the installed
#     shared library and print what they print on the real picohttpparser (one check).
# Without the real picohttpparser: a failure under CI=true, else a note and a skip.
# Ends with "N passed, N failed".
BUILD=${BUILD:-build}
C=$BUILD/compat
pass=0; fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
counts() { # add the "N passed, N failed" line of file $1
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
    if [ -z "$line" ]; then
        tail -n 20 "$1"; echo "not ok - $2 printed no summary"; fail=$((fail + 1)); return
    fi
    pass=$((pass + ${line%% passed*})); f=${line#*passed, }; fail=$((fail + ${f%% failed*}))
    echo "$2: $line"
}

if [ ! -x "$C/pico_events_real" ] || [ ! -x "$C/pico_readme_real" ] || [ ! -x "$C/fuzz_pico_replay" ] ||
   [ ! -x "$C/test_pico_real" ]; then
    if [ "${CI:-}" = true ]; then
        echo "not ok - the real picohttpparser is missing (bench/peers.sh: apt-get source h2o; needs dpkg-dev)"
        echo "0 passed, 1 failed"
        exit 1
    fi
    echo "note: the real picohttpparser is missing (bench/peers.sh fetches it): skipped"
    echo "0 passed, 0 failed"
    exit 0
fi

# 1
# every offset of every input in the plain build; about 64 of a long input's under the
# sanitizers, which run the programs several times slower. There, no leak scan at each of the
# events programs' thousands of exits (LeakSanitizer's was 33 of 53 ms a run; http_parser.sh
# 141 s -> 54 s under ASan): the unit programs keep it
case "$BUILD" in *san*) splits=64; export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" ;; *) splits=0 ;; esac
python3 tests/compat/diff.py --real "$C/pico_events_real" --layer "$C/pico_events_layer" \
    --known tests/compat/picohttpparser.known --kinds corpus,cases,fuzz,blocks --splits "$splits" --tmp "$tmp/input" >"$tmp/diff" 2>&1
grep -E '^FAIL' -A 8 "$tmp/diff" | head -n 60
counts "$tmp/diff" "diff.py against the real picohttpparser"

# 7
"$C/test_pico_layer" >"$tmp/edges_layer" 2>&1
counts "$tmp/edges_layer" "test_picohttpparser (layer)"
"$C/test_pico_real" >"$tmp/edges_real" 2>&1
counts "$tmp/edges_real" "test_picohttpparser (picohttpparser)"

# 2
real_w=$(grep -c 'warning:' "$C/pico_readme_real.log"); layer_w=$(grep -c 'warning:' "$C/pico_readme_layer.log")
"$C/pico_readme_real" >"$tmp/readme_real" 2>&1; rr=$?
"$C/pico_readme_layer" >"$tmp/readme_layer" 2>&1; rl=$?
sed 's/0x[0-9a-f]*/ADDR/' "$tmp/readme_real" >"$tmp/a"; sed 's/0x[0-9a-f]*/ADDR/' "$tmp/readme_layer" >"$tmp/b"
if [ $rr -eq 0 ] && [ $rl -eq 0 ] && [ "$real_w" = "$layer_w" ] && cmp -s "$tmp/a" "$tmp/b" &&
    grep -q '^request loop: 0$' "$tmp/b" && grep -q '^chunked loop: 0$' "$tmp/b"; then
    pass=$((pass + 1)); echo "README loops: the same output and $layer_w warnings with both"
else
    fail=$((fail + 1))
    echo "not ok - README loops differ (exit $rr/$rl, warnings $real_w/$layer_w):"; diff "$tmp/a" "$tmp/b" | head -n 20
fi

# 3
syms=$(nm -D --defined-only "$BUILD/libsimdhttp-picohttpparser.so" 2>/dev/null | awk '{print $3}' | sort | tr '\n' ' ')
want="SIMDHTTP_PICOHTTPPARSER_0 phr_decode_chunked@@SIMDHTTP_PICOHTTPPARSER_0 phr_decode_chunked_is_in_data@@SIMDHTTP_PICOHTTPPARSER_0 phr_decode_chunked_set_max_chunk_ext@@SIMDHTTP_PICOHTTPPARSER_0 phr_decode_chunked_set_max_trailer_size@@SIMDHTTP_PICOHTTPPARSER_0 phr_parse_headers@@SIMDHTTP_PICOHTTPPARSER_0 phr_parse_request@@SIMDHTTP_PICOHTTPPARSER_0 phr_parse_response@@SIMDHTTP_PICOHTTPPARSER_0 "
if [ "$syms" = "$want" ]; then
    pass=$((pass + 1)); echo "libsimdhttp-picohttpparser.so exports phr_* only (SIMDHTTP_PICOHTTPPARSER_0)"
else
    fail=$((fail + 1)); echo "not ok - libsimdhttp-picohttpparser.so exports: $syms"
fi

# 6 (plain build): installed, the README loops build with pkg-config alone and run on the
# layer's shared library, printing what they print on the real picohttpparser
case "$BUILD" in *san*) ;; *)
    inst=$tmp/inst
    if make --no-print-directory -s install BUILD="$BUILD" DESTDIR="$inst" PREFIX=/usr >"$tmp/inst.log" 2>&1 &&
       command -v pkg-config >/dev/null 2>&1 &&
       flags=$(PKG_CONFIG_PATH="$inst/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$inst" pkg-config --cflags --libs simdhttp-picohttpparser) &&
       cc -std=c11 tests/compat/pico_readme.c -I"$C/readme" $flags -o "$tmp/app" 2>>"$tmp/inst.log" &&
       LD_LIBRARY_PATH="$inst/usr/lib" "$tmp/app" >"$tmp/inst.out" 2>>"$tmp/inst.log" &&
       sed 's/0x[0-9a-f]*/ADDR/' "$tmp/inst.out" | cmp -s - "$tmp/a" &&
       LD_LIBRARY_PATH="$inst/usr/lib" ldd "$tmp/app" | grep -q "libsimdhttp-picohttpparser.so.0 => $inst"; then
        pass=$((pass + 1)); echo "make install: the README loops built with pkg-config simdhttp-picohttpparser run on the installed layer"
    else
        fail=$((fail + 1)); echo "not ok - make install (picohttpparser layer): pkg-config build and run"; tail -n 5 "$tmp/inst.log"
    fi ;;
esac

# 5 (the bench program, when it is built: both sides do the same work on every corpus file)
if [ -x "$BUILD/bench/compat_picohttpparser" ]; then
    if "$BUILD/bench/compat_picohttpparser" --check --parsers pico-native,pico-layer >"$tmp/check" 2>&1; then
        pass=$((pass + 1)); echo "bench/compat_picohttpparser --check: $(tail -n 1 "$tmp/check")"
    else
        fail=$((fail + 1)); grep '^not ok' "$tmp/check" | head -n 10; echo "not ok - bench/compat_picohttpparser --check"
    fi
fi

# 4
case "$BUILD" in
*asan*) "$C/fuzz_pico_replay" fuzz/corpus >"$tmp/fuzz" 2>&1 ;;
*) "$C/fuzz_pico_replay" -t "${FUZZ_MUTATE_TIME:-10}" -o "$C/fuzz-pico-crash" fuzz/corpus >"$tmp/fuzz" 2>&1 ;;
esac
grep '^not ok' "$tmp/fuzz" | head -n 20
grep -q '^not ok' "$tmp/fuzz" && grep -m 1 -A 16 -E 'DIVERGENCE|ERROR: ' "$tmp/fuzz"
counts "$tmp/fuzz" "fuzz_pico replay $(grep -m 1 '^mutation run' "$tmp/fuzz")"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
