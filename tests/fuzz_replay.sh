#!/bin/sh
# SPDX-License-Identifier: MIT
# The differential fuzzer's share of make test (see docs/fuzzing.md):
#  1. every build: each input of fuzz/corpus/ through $BUILD/fuzz_replay (the fuzz_diff.c
#     checks: scalar vs every SIMD path, whole vs chunked with pauses, streaming vs head API);
#     one check per input.
#     The normal build then mutates those inputs at random for FUZZ_MUTATE_TIME seconds
#     (default 10; fuzz_replay -t, a blind fuzzer); one check.
#  2. the normal build on x86-64: the same for the NEON path, cross-built with
#     aarch64-linux-gnu-gcc and run under qemu-aarch64 (replay, then FUZZ_QEMU_TIME seconds of
#     mutation, default 15); the checks of 1. Missing tools: a failure under CI=true, else a
#     skip with a note.
#  3. the sanitizer build only: a fresh libFuzzer run of FUZZ_TEST_TIME seconds (default 25)
#     from that corpus; one check. Needs clang and libFuzzer (libclang-rt-14-dev): missing
#     tools fail under CI=true and are skipped (with a note) otherwise.
# Every random run starts from FUZZ_SEED (default 20261130), so make test gives the same
# result on every run and a CI failure replays at home; FUZZ_SEED=random takes a fresh seed
# (printed), to explore. Open-ended fuzzing is make fuzz (docs/fuzzing.md).
# A failing mutation run leaves its input in $BUILD/fuzz-replay-crash (or
# $BUILD/aarch64/fuzz-replay-crash); `$BUILD/fuzz_replay FILE` replays it.
# Ends with "N passed, N failed".
BUILD=${BUILD:-build}
FUZZ_SEED=${FUZZ_SEED:-20261130}
if [ "$FUZZ_SEED" = random ]; then seed_opt=; lf_seed=; else seed_opt="-s $FUZZ_SEED"; lf_seed="-seed=$FUZZ_SEED"; fi
pass=0; fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# replay WHAT COMMAND...: run COMMAND fuzz/corpus (a fuzz_replay), add its counts
replay() {
    what=$1; shift
    "$@" fuzz/corpus >"$tmp/replay" 2>&1
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp/replay" | tail -n 1)
    if [ -n "$line" ]; then
        pass=$((pass + ${line%% passed*}))
        f=${line#*passed, }; fail=$((fail + ${f%% failed*}))
        grep '^not ok' "$tmp/replay" | head -n 20
        # show the first divergence report in full
        grep -q '^not ok' "$tmp/replay" && grep -m 1 -A 12 -E 'DIVERGENCE|ERROR: ' "$tmp/replay"
    else
        tail -n 20 "$tmp/replay"
        echo "not ok - $what printed no summary"
        fail=$((fail + 1))
    fi
    echo "$what: $(grep -m 1 -o 'paths:.*' "$tmp/replay"); $(grep -m 1 '^mutation run' "$tmp/replay")${line:+; }$line"
}

missing() { # a missing tool: a failure in CI, a note elsewhere
    if [ "${CI:-}" = true ]; then
        echo "not ok - $1 missing (CI needs $2)"
        fail=$((fail + 1))
    else
        echo "note: $1 missing ($2): skipped"
    fi
}

if [ ! -x "$BUILD/fuzz_replay" ]; then
    echo "not ok - $BUILD/fuzz_replay missing (make tests builds it)"
    fail=$((fail + 1))
else
    case "$BUILD" in
    *asan*) replay "replay of fuzz/corpus" "$BUILD/fuzz_replay" ;;
    *) replay "replay of fuzz/corpus + ${FUZZ_MUTATE_TIME:-10}s mutation" "$BUILD/fuzz_replay" \
           -t "${FUZZ_MUTATE_TIME:-10}" $seed_opt -d fuzz/http.dict -o "$BUILD/fuzz-replay-crash" ;;
    esac
fi

# the NEON path: cross build, qemu (normal x86-64 build only; the sanitizer build has no
# cross runtime)
case "$BUILD" in *asan*|*san*) ;; *)
    if [ "$(uname -m)" = x86_64 ]; then
        CROSS=${CROSS_CC:-aarch64-linux-gnu-gcc}; QEMU=${QEMU:-qemu-aarch64}
        XB=$BUILD/aarch64
        if ! command -v "$CROSS" >/dev/null 2>&1 || ! command -v "$QEMU" >/dev/null 2>&1; then
            missing "$CROSS or $QEMU" "gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user"
        elif ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -j2 BUILD="$XB" CC="$CROSS" \
                SAN= "$XB/fuzz_replay" >"$tmp/build" 2>&1; then
            tail -n 15 "$tmp/build"
            echo "not ok - aarch64 cross build of fuzz_replay failed"
            fail=$((fail + 1))
        else
            replay "aarch64/qemu replay + ${FUZZ_QEMU_TIME:-15}s mutation" \
                "$QEMU" -L "${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}" "$XB/fuzz_replay" \
                -t "${FUZZ_QEMU_TIME:-15}" $seed_opt -d fuzz/http.dict -o "$XB/fuzz-replay-crash"
        fi
    fi ;;
esac

case "$BUILD" in
*asan*)
    t=${FUZZ_TEST_TIME:-25}
    # tools first: clang with the libFuzzer runtime (Debian: clang, libclang-rt-14-dev)
    printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$tmp/probe.c"
    if ! clang -fsanitize=fuzzer "$tmp/probe.c" -o "$tmp/probe" >"$tmp/build" 2>&1; then
        tail -n 3 "$tmp/build"
        missing "clang/libFuzzer" "clang libclang-rt-14-dev"
    # a nested make from inside make test: leave the parent's jobserver alone
    elif ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s fuzz-bin >"$tmp/build" 2>&1 || [ ! -x build/fuzz/fuzz_diff ]; then
        tail -n 15 "$tmp/build"
        echo "not ok - make fuzz-bin failed"
        fail=$((fail + 1))
    else
        mkdir -p "$tmp/corpus" build/fuzz/artifacts
        build/fuzz/fuzz_diff -max_total_time="$t" $lf_seed -max_len=2048 -timeout=10 -dict=fuzz/http.dict \
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
