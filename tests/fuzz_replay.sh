#!/bin/sh
# The differential fuzzer's share of make test (see docs/fuzzing.md):
#  1. every build: each input of fuzz/corpus/ through $BUILD/fuzz_replay (the fuzz_diff.c
#     checks: scalar vs every SIMD path, whole vs chunked with pauses, streaming vs head API);
#     one check per input.
#  2. the sanitizer build only: a fresh libFuzzer run of FUZZ_TEST_TIME seconds (default 25)
#     from that corpus; one check. Needs clang and libFuzzer (libclang-rt-14-dev): missing
#     tools fail under CI=true and are skipped (with a note) otherwise.
# Ends with "N passed, N failed".
BUILD=${BUILD:-build}
pass=0; fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -x "$BUILD/fuzz_replay" ]; then
    "$BUILD/fuzz_replay" fuzz/corpus >"$tmp/replay" 2>&1
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp/replay" | tail -n 1)
    if [ -n "$line" ]; then
        pass=$((pass + ${line%% passed*}))
        f=${line#*passed, }; fail=$((fail + ${f%% failed*}))
        grep '^not ok' "$tmp/replay" | head -n 20
        # show the first divergence report in full
        grep -q '^not ok' "$tmp/replay" && grep -m 1 -A 12 -E 'DIVERGENCE|ERROR: ' "$tmp/replay"
    else
        tail -n 20 "$tmp/replay"
        echo "not ok - fuzz_replay printed no summary"
        fail=$((fail + 1))
    fi
    echo "replay of fuzz/corpus: $line"
else
    echo "not ok - $BUILD/fuzz_replay missing (make tests builds it)"
    fail=$((fail + 1))
fi

case "$BUILD" in
*asan*)
    t=${FUZZ_TEST_TIME:-25}
    # tools first: clang with the libFuzzer runtime (Debian: clang, libclang-rt-14-dev)
    printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$tmp/probe.c"
    if ! clang -fsanitize=fuzzer "$tmp/probe.c" -o "$tmp/probe" >"$tmp/build" 2>&1; then
        tail -n 3 "$tmp/build"
        if [ "${CI:-}" = true ]; then
            echo "not ok - clang/libFuzzer missing (CI needs clang and libclang-rt-14-dev)"
            fail=$((fail + 1))
        else
            echo "note: clang/libFuzzer missing (clang, libclang-rt-14-dev): fresh fuzz run skipped"
        fi
    # a nested make from inside make test: leave the parent's jobserver alone
    elif ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s fuzz-bin >"$tmp/build" 2>&1 || [ ! -x build/fuzz/fuzz_diff ]; then
        tail -n 15 "$tmp/build"
        echo "not ok - make fuzz-bin failed"
        fail=$((fail + 1))
    else
        mkdir -p "$tmp/corpus" build/fuzz/artifacts
        build/fuzz/fuzz_diff -max_total_time="$t" -max_len=2048 -timeout=10 -dict=fuzz/http.dict \
            -artifact_prefix=build/fuzz/artifacts/ -print_final_stats=1 \
            "$tmp/corpus" fuzz/corpus >"$tmp/fuzz" 2>&1
        rc=$?
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/fuzz" | tail -n 1)
        paths=$(grep -m 1 -o 'paths:.*' "$tmp/fuzz")
        if [ $rc -eq 0 ]; then
            pass=$((pass + 1))
            echo "fresh libFuzzer run: ${t}s, ${execs:-?} inputs, no divergence ($paths)"
        else
            fail=$((fail + 1))
            echo "not ok - fresh libFuzzer run found a failure (exit $rc):"
            grep -m 1 -A 30 -E 'DIVERGENCE|ERROR: ' "$tmp/fuzz"
            grep -E 'Test unit written' "$tmp/fuzz"
        fi
    fi
    ;;
esac
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
