#!/bin/sh
# SPDX-License-Identifier: MIT
# Differential fuzzing of this tree's core against another commit's (fuzz/fuzz_core_vs.c):
#   sh fuzz/vs.sh [REV [SECONDS [JOBS]]]     (make fuzz-vs REV=... FUZZ_TIME=... FUZZ_JOBS=...)
# REV (default HEAD, the last commit: uncommitted changes are then what is tested) is exported
# with git archive and built with its own Makefile; its library and its tests/testlib.c are
# linked into one object with every symbol renamed old_*. libFuzzer (clang, ASan+UBSan) runs
# SECONDS seconds (default 1200) from a copy of fuzz/corpus (fuzz/corpus itself is not written);
# new inputs and any crash land in build/fuzz-vs/. Exit status: libFuzzer's (0: no difference).
set -eu
REV=${1:-HEAD} SECS=${2:-1200} JOBS=${3:-1}
CC=${CC:-clang}
D=build/fuzz-vs
rm -rf "$D/old-src" "$D/old" && mkdir -p "$D/old-src" "$D/old" "$D/corpus"
git archive "$REV" | tar -x -C "$D/old-src"
FL="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all"
# the other commit's library, built by its own Makefile (its ISA flags), then its testlib
make -s -C "$D/old-src" BUILD=build-vs CC="$CC" CFLAGS="$FL -fsanitize=fuzzer-no-link" build-vs/libsimdhttp.a >/dev/null
(cd "$D/old" && ar x ../old-src/build-vs/libsimdhttp.a)
$CC -std=c11 $FL -fsanitize=fuzzer-no-link -I"$D/old-src/include" -I"$D/old-src/tests" \
    -c "$D/old-src/tests/testlib.c" -o "$D/old/testlib.o"
ld -r -o "$D/old-all.o" "$D"/old/*.o
nm -g --defined-only "$D/old-all.o" | awk 'NF == 3 { print $3, "old_" $3 }' >"$D/old-syms"
objcopy --redefine-syms="$D/old-syms" "$D/old-all.o" "$D/old-renamed.o"
# this tree's library with the same flags, and the harness
make -s BUILD="$D/new" CC="$CC" CFLAGS="$FL -fsanitize=fuzzer-no-link" "$D/new/libsimdhttp.a" >/dev/null
$CC -std=c11 $FL -fsanitize=fuzzer -Iinclude -Itests fuzz/fuzz_core_vs.c tests/testlib.c \
    "$D/old-renamed.o" "$D/new/libsimdhttp.a" -o "$D/fuzz_core_vs"
cp -n fuzz/corpus/* "$D/corpus/" 2>/dev/null || true
echo "fuzz-vs: this tree against $(git rev-parse --short "$REV"), $SECS s, $JOBS job(s)"
par=""; [ "$JOBS" -gt 1 ] && par="-jobs=$JOBS -workers=$JOBS" # (job logs: fuzz-N.log in the current directory)
exec "$D/fuzz_core_vs" -max_total_time="$SECS" $par -max_len=4096 -artifact_prefix="$D/" -print_final_stats=1 "$D/corpus"
