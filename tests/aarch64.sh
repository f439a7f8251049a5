#!/bin/sh
# SPDX-License-Identifier: MIT
# Cross-builds the library and every test program for aarch64 (NEON path) and runs them under
# qemu-aarch64, once with SIMDHTTP_ISA=scalar and once with SIMDHTTP_ISA=neon. Ends with
# "N passed, N failed". Runs in the normal build only (the sanitizer build prints 0/0): the
# cross toolchain has no sanitizer runtime and one run is the proof.
CROSS=${CROSS_CC:-aarch64-linux-gnu-gcc}
QEMU=${QEMU:-qemu-aarch64}
SYSROOT=${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}
B=${BUILD:-build}
case "$B" in *asan*|*san*)
    echo "aarch64: cross build and qemu run happen in the normal build only"
    echo "0 passed, 0 failed"; exit 0 ;;
esac
if ! command -v "$CROSS" >/dev/null 2>&1 || ! command -v "$QEMU" >/dev/null 2>&1; then
    echo "aarch64: SKIPPED: $CROSS or $QEMU not installed (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)"
    echo "0 passed, 0 failed"; exit 0
fi
XB=$B/aarch64
log=$(mktemp)
# a clean sub-make: the caller's MAKEFLAGS carry its own BUILD/CC/SAN
if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -j2 BUILD="$XB" CC="$CROSS" SAN= \
        test-progs >"$log" 2>&1; then
    tail -n 30 "$log"; rm -f "$log"
    echo "not ok - aarch64 cross build failed"
    echo "0 passed, 1 failed"; exit 1
fi
rm -f "$log"
passed=1; failed=0
echo "ok - aarch64 cross build ($CROSS)"
nm "$XB/libsimdhttp.a" 2>/dev/null | grep -q "simdhttp__execute_neon" || { echo "not ok - no NEON path in the aarch64 library"; failed=$((failed + 1)); }
for t in $(cat "$XB/test-progs"); do
    for isa in scalar neon; do
        out=$(mktemp)
        # qemu is ~30x slower: NEON is 16 bytes wide, so spans up to 72 bytes cover its loop and
        # every tail; corpus split points: every 7th offset; no exec of child processes (qemu-user
        # runs the aarch64 binary, not the shell it would spawn)
        SIMDHTTP_TEST_NO_EXEC=1 SIMDHTTP_TEST_NMAX=72 SIMDHTTP_SPLIT_STRIDE=7 SIMDHTTP_ISA=$isa "$QEMU" -L "$SYSROOT" "$XB/$t" >"$out" 2>&1; rc=$?
        line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -n 1)
        if [ -z "$line" ]; then
            tail -n 20 "$out"; echo "not ok - $t($isa) under qemu: no summary (exit $rc)"
            failed=$((failed + 1))
        else
            p=${line%% passed*}; f=$(echo "$line" | sed 's/.*passed, \([0-9]*\) failed.*/\1/')
            if [ "$f" -ne 0 ] || [ "$rc" -ne 0 ]; then
                grep -E '^(not ok|FAIL)' "$out" | head -n 20
                [ "$f" -eq 0 ] && f=1
            fi
            echo "$t($isa) [aarch64/qemu] $line"
            passed=$((passed + p)); failed=$((failed + f))
        fi
        rm -f "$out"
    done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
