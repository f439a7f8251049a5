#!/bin/sh
# SPDX-License-Identifier: MIT
# The second differential fuzzer's share of make test (fuzz/fuzz_fields.c, docs/fuzzing.md):
#  1. every build: each input of fuzz/corpus-fields/ through $BUILD/fuzz_fields_replay (the
#     cookie iterator, simdhttp_fields and the lookups, parse_fields against the streaming
#     trailers, the chunked decoder against the streaming body; every x86-64 path against
#     scalar); one check per input. A divergence traps, so its input fails.
#     Then FUZZ_FIELDS_MUTATE_TIME seconds (default 4) of blind mutation with fuzz/fields.dict
#     (fuzz_replay -t); one check. Not in the MemorySanitizer build (slow there; its replay
#     checks that nothing reads uninitialised memory).
#  2. the normal build on x86-64: the same replay and mutation for the NEON path, cross-built
#     with aarch64-linux-gnu-gcc and run under qemu-aarch64 (the cross library is the one
#     tests/fuzz_replay.sh builds). Missing tools: a failure under CI=true, else a skip.
# Random runs start from FUZZ_SEED (default 20261130; FUZZ_SEED=random for a fresh one), as in
# tests/fuzz_replay.sh. A failing mutation run leaves its input in $BUILD/fuzz-fields-crash
# (or $BUILD/aarch64/fuzz-fields-crash); `$BUILD/fuzz_fields_replay FILE` replays it.
# Ends with "N passed, N failed".
BUILD=${BUILD:-build}
FUZZ_SEED=${FUZZ_SEED:-20261130}
T=${FUZZ_FIELDS_MUTATE_TIME:-4}
if [ "$FUZZ_SEED" = random ]; then seed_opt=; else seed_opt="-s $FUZZ_SEED"; fi
pass=0; fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# replay WHAT COMMAND...: run COMMAND fuzz/corpus-fields (a fuzz_fields_replay), add its counts
replay() {
    what=$1; shift
    "$@" fuzz/corpus-fields >"$tmp/replay" 2>&1
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp/replay" | tail -n 1)
    if [ -n "$line" ]; then
        pass=$((pass + ${line%% passed*}))
        f=${line#*passed, }; fail=$((fail + ${f%% failed*}))
        grep '^not ok' "$tmp/replay" | head -n 20
        grep -q '^not ok' "$tmp/replay" && grep -m 1 -A 12 -E 'DIVERGENCE|ERROR: ' "$tmp/replay"
    else
        tail -n 20 "$tmp/replay"
        echo "not ok - $what printed no summary"
        fail=$((fail + 1))
    fi
    echo "$what: $(grep -m 1 -o 'paths:.*' "$tmp/replay"); $(grep -m 1 '^mutation run' "$tmp/replay")${line:+; }$line"
}

missing() {
    if [ "${CI:-}" = true ]; then
        echo "not ok - $1 missing (CI needs $2)"
        fail=$((fail + 1))
    else
        echo "note: $1 missing ($2): skipped"
    fi
}

if [ ! -x "$BUILD/fuzz_fields_replay" ]; then
    echo "not ok - $BUILD/fuzz_fields_replay missing (make tests builds it)"
    fail=$((fail + 1))
else
    case "$BUILD" in
    *msan*) replay "replay of fuzz/corpus-fields" "$BUILD/fuzz_fields_replay" ;;
    *) replay "replay of fuzz/corpus-fields + ${T}s mutation" "$BUILD/fuzz_fields_replay" \
           -t "$T" $seed_opt -d fuzz/fields.dict -o "$BUILD/fuzz-fields-crash" ;;
    esac
fi

case "$BUILD" in *asan*|*san*) ;; *)
    if [ "$(uname -m)" = x86_64 ]; then
        CROSS=${CROSS_CC:-aarch64-linux-gnu-gcc}; QEMU=${QEMU:-qemu-aarch64}
        XB=$BUILD/aarch64
        if ! command -v "$CROSS" >/dev/null 2>&1 || ! command -v "$QEMU" >/dev/null 2>&1; then
            missing "$CROSS or $QEMU" "gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user"
        elif ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -j2 BUILD="$XB" CC="$CROSS" \
                SAN= "$XB/fuzz_fields_replay" >"$tmp/build" 2>&1; then
            tail -n 15 "$tmp/build"
            echo "not ok - aarch64 cross build of fuzz_fields_replay failed"
            fail=$((fail + 1))
        else
            replay "aarch64/qemu replay + ${T}s mutation" \
                "$QEMU" -L "${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}" "$XB/fuzz_fields_replay" \
                -t "$T" $seed_opt -d fuzz/fields.dict -o "$XB/fuzz-fields-crash"
        fi
    fi ;;
esac
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
