#!/bin/sh
# SPDX-License-Identifier: MIT
# The differential fuzzers' share of make test (see docs/fuzzing.md), for each of the two
# harnesses: fuzz/fuzz_diff.c ($BUILD/fuzz_replay on fuzz/corpus/: scalar vs every SIMD path,
# whole vs chunked with pauses, streaming vs head API) and fuzz/fuzz_fields.c
# ($BUILD/fuzz_fields_replay on fuzz/corpus-fields/: the cookie iterator, simdhttp_fields and
# the lookups, parse_fields against the streaming trailers, the chunked decoder against the
# streaming body; every path against scalar):
#  1. every build: each input of the corpus through the harness; one check per input (a
#     divergence traps, so its input fails). Then blind mutation of those inputs for
#     FUZZ_MUTATE_TIME seconds (default 10; fuzz_replay -t) and FUZZ_FIELDS_MUTATE_TIME (default
#     4); one check each. Not in the ASan build for fuzz_diff (3. fuzzes there) nor in the
#     MemorySanitizer build for fuzz_fields (slow there; its replay checks that nothing reads
#     uninitialised memory).
#  2. the normal build on x86-64: the same for the NEON path, cross-built with
#     aarch64-linux-gnu-gcc and run under qemu-aarch64 (replay, then FUZZ_QEMU_TIME seconds of
#     mutation, default 15, and FUZZ_FIELDS_MUTATE_TIME); the checks of 1. Missing tools: a
#     failure under CI=true, else a skip with a note.
#  3. the sanitizer build only: a fresh libFuzzer run of fuzz_diff for FUZZ_TEST_TIME seconds
#     (default 25) from its corpus; one check. Needs clang and libFuzzer (libclang-rt-14-dev):
#     missing tools fail under CI=true and are skipped (with a note) otherwise.
# Every random run starts from FUZZ_SEED (default 20261130), so make test gives the same
# result on every run and a CI failure replays at home; FUZZ_SEED=random takes a fresh seed
# (printed), to explore. Open-ended fuzzing is make fuzz / make fuzz-fields (docs/fuzzing.md).
# A failing mutation run leaves its input in $BUILD/fuzz-replay-crash or
# $BUILD/fuzz-fields-crash (or under $BUILD/aarch64/); `$BUILD/fuzz_replay FILE` (or
# fuzz_fields_replay) replays it.
# Ends with "N passed, N failed".
BUILD=${BUILD:-build}
FUZZ_SEED=${FUZZ_SEED:-20261130}
if [ "$FUZZ_SEED" = random ]; then seed_opt=; lf_seed=; else seed_opt="-s $FUZZ_SEED"; lf_seed="-seed=$FUZZ_SEED"; fi
pass=0; fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# replay WHAT CORPUS COMMAND...: run COMMAND CORPUS (a replay harness), add its counts
replay() {
    what=$1; corpus=$2; shift 2
    "$@" "$corpus" >"$tmp/replay" 2>&1
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

# harness BIN CORPUS DICT SECONDS QEMU_SECONDS CRASH REPLAY_ONLY: steps 1 and 2 for one
# harness; REPLAY_ONLY is the pattern of the builds that only replay
harness() {
    bin=$1 corpus=$2 dict=$3 t=$4 tq=$5 crash=$6 only=$7
    if [ ! -x "$BUILD/$bin" ]; then
        echo "not ok - $BUILD/$bin missing (make tests builds it)"
        fail=$((fail + 1))
    else
        case "$BUILD" in
        $only) replay "replay of $corpus" "$corpus" "$BUILD/$bin" ;;
        *) replay "replay of $corpus + ${t}s mutation" "$corpus" "$BUILD/$bin" \
               -t "$t" $seed_opt -d "$dict" -o "$BUILD/$crash" ;;
        esac
    fi
    # the NEON path: cross build, qemu (normal x86-64 build only; the sanitizer builds have no
    # cross runtime)
    case "$BUILD" in *asan*|*san*) return ;; esac
    [ "$(uname -m)" = x86_64 ] || return
    CROSS=${CROSS_CC:-aarch64-linux-gnu-gcc}; QEMU=${QEMU:-qemu-aarch64}
    XB=$BUILD/aarch64
    if ! command -v "$CROSS" >/dev/null 2>&1 || ! command -v "$QEMU" >/dev/null 2>&1; then
        missing "$CROSS or $QEMU" "gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user"
    elif ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -j2 BUILD="$XB" CC="$CROSS" \
            SAN= "$XB/$bin" >"$tmp/build" 2>&1; then
        tail -n 15 "$tmp/build"
        echo "not ok - aarch64 cross build of $bin failed"
        fail=$((fail + 1))
    else
        replay "aarch64/qemu replay of $corpus + ${tq}s mutation" "$corpus" \
            "$QEMU" -L "${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}" "$XB/$bin" \
            -t "$tq" $seed_opt -d "$dict" -o "$XB/$crash"
    fi
}

harness fuzz_replay fuzz/corpus fuzz/http.dict "${FUZZ_MUTATE_TIME:-10}" "${FUZZ_QEMU_TIME:-15}" \
    fuzz-replay-crash '*asan*'
harness fuzz_fields_replay fuzz/corpus-fields fuzz/fields.dict "${FUZZ_FIELDS_MUTATE_TIME:-4}" \
    "${FUZZ_FIELDS_MUTATE_TIME:-4}" fuzz-fields-crash '*msan*'

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
