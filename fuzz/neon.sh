#!/bin/sh
# SPDX-License-Identifier: MIT
# make fuzz-neon: the differential fuzzer (fuzz/fuzz_diff.c) on the NEON path, where libFuzzer
# has no runtime: fuzz_replay (fuzz/replay_main.c) cross-built with aarch64-linux-gnu-gcc and
# run under qemu-aarch64 compares NEON with scalar (docs/fuzzing.md).
#   sh fuzz/neon.sh [SECONDS [SEED]]
# 1. replays fuzz/corpus/ with SIMDHTTP_ISA=neon, then scalar (the default path; fuzz_diff
#    sets each path itself either way);
# 2. mutates those inputs blindly (fuzz_replay -t, with the tokens of fuzz/http.dict and
#    delimiters put at 16/32/64-byte boundaries) for SECONDS (default 300), under nice -n 10,
#    from SEED (default: the clock; printed). A failing input is saved as
#    build/fuzz/neon/crash-<seed> (FUZZ_NEON_DIR for another directory) with its report in
#    crash-<seed>.log, and mutation goes on from seed + 1 (at most 10 failures). Replay one with
#      qemu-aarch64 -L /usr/aarch64-linux-gnu build/aarch64/fuzz_replay build/fuzz/neon/crash-<seed>
# Ends with one summary line for docs/fuzzing.md; exit status 1 if anything failed.
set -u
time=${1:-300}
seed=${2:-$(date +%s)}
BUILD=${BUILD:-build}
CROSS=${CROSS_CC:-aarch64-linux-gnu-gcc}
QEMU=${QEMU:-qemu-aarch64}
SYSROOT=${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}
XB=$BUILD/aarch64
dir=${FUZZ_NEON_DIR:-build/fuzz/neon}
for t in "$CROSS" "$QEMU"; do
    command -v "$t" >/dev/null 2>&1 || {
        echo "fuzz-neon: $t missing (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)"
        exit 1
    }
done
mkdir -p "$dir"
# a clean sub-make: a calling make's MAKEFLAGS carry its own BUILD/CC/SAN
if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -j2 BUILD="$XB" CC="$CROSS" SAN= \
        "$XB/fuzz_replay" >"$dir/build.log" 2>&1; then
    tail -n 20 "$dir/build.log"
    echo "fuzz-neon: the aarch64 cross build of fuzz_replay failed"
    exit 1
fi
# a runaway cannot fill the disk: no file written here may pass 64 MB (512-byte blocks), and
# qemu writes no core file for a trap
ulimit -f 131072 2>/dev/null
ulimit -c 0 2>/dev/null
# run ISA ARGS...: fuzz_replay ARGS under qemu with that default path
run() { isa=$1; shift; nice -n 10 env SIMDHTTP_ISA="$isa" "$QEMU" -L "$SYSROOT" "$XB/fuzz_replay" "$@"; }

start=$(date +%s)
failures=0
replay=
for isa in neon scalar; do
    run "$isa" fuzz/corpus >"$dir/replay-$isa.log" 2>&1
    # "N passed, N failed"; no such line: one failure
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$dir/replay-$isa.log" | tail -n 1)
    p=0; f=1
    [ -n "$line" ] && p=${line%% passed*} && f=${line#*passed, } && f=${f%% failed*}
    replay="$replay replay($isa)=$p/$((p + f))"
    if [ "$f" -ne 0 ]; then
        failures=$((failures + f))
        grep '^not ok' "$dir/replay-$isa.log" | head -n 10
        grep -m 1 -A 30 -E 'DIVERGENCE|ERROR: ' "$dir/replay-$isa.log"
    fi
done
replay_wall=$(($(date +%s) - start))

execs=0
first=$seed
end=$(($(date +%s) + time))
while [ "$failures" -lt 10 ]; do
    left=$((end - $(date +%s)))
    [ "$left" -gt 0 ] || break
    log=$dir/run.log
    run neon -t "$left" -s "$seed" -d fuzz/http.dict -o "$dir/crash-$seed" fuzz/corpus >"$log" 2>&1
    # "mutation run: N inputs in ..." or "not ok - mutation run: input N (...) failed"
    n=$(sed -n 's/^mutation run: \([0-9]*\) inputs.*/\1/p' "$log")
    if [ -n "$n" ]; then
        execs=$((execs + n))
    else
        n=$(sed -n 's/^not ok - mutation run: input \([0-9]*\) .*/\1/p' "$log")
        execs=$((execs + ${n:-1} - 1))
        failures=$((failures + 1))
        head -c 65536 "$log" >"$dir/crash-$seed.log"
        grep '^not ok' "$log" | head -n 5
        grep -m 1 -A 30 -E 'DIVERGENCE|ERROR: ' "$log"
    fi
    seed=$((seed + 1))
done
wall=$(($(date +%s) - start))
echo "fuzz-neon: $(date -u +%Y-%m-%dT%H:%MZ) $(git rev-parse --short HEAD 2>/dev/null) time=${time}s wall=${wall}s$replay (${replay_wall}s) execs=$execs seeds=$first..$((seed - 1)) failures=$failures"
[ "$failures" -eq 0 ]
