#!/bin/sh
# SPDX-License-Identifier: MIT
# make fuzz: run the libFuzzer binary as JOBS parallel jobs of TIME seconds each, then print one
# summary line (executions, time, paths, crashes) for docs/fuzzing.md.
#   sh fuzz/run.sh BIN TIME JOBS [extra libFuzzer flags...]
# New inputs go to build/fuzz/corpus (FUZZ_CORPUS=dir for another; fuzz/corpus/ seeds it and is
# never written; FUZZ_SEEDS=dir for other seeds, FUZZ_DICT=file for another dictionary than
# fuzz/http.dict); crashes and divergences to build/fuzz/artifacts/. Minimise one with
#   build/fuzz/fuzz_diff -minimize_crash=1 -runs=20000 build/fuzz/artifacts/crash-...
set -u
bin=$1; time=$2; jobs=$3; shift 3
dir=$(dirname "$bin")
root=$(pwd)
abs() { case $1 in /*) echo "$1" ;; *) echo "$root/$1" ;; esac; }  # the jobs run in $logs
corpus=$(abs "${FUZZ_CORPUS:-$dir/corpus}")
seeds=$(abs "${FUZZ_SEEDS:-fuzz/corpus}")
dict=$(abs "${FUZZ_DICT:-fuzz/http.dict}")
# Job logs per harness: two harnesses run at once (make fuzz & make fuzz-llhttp) must not write
# the same fuzz-0.log.
logs=$dir/logs/$(basename "$bin")
mkdir -p "$corpus" "$dir/artifacts" "$logs"
rm -f "$logs"/fuzz-*.log
# A runaway (a log or unit that never stops growing) dies of SIGXFSZ instead of filling the
# disk: no file this run writes may pass 64 MB (ulimit -f counts 512-byte blocks in sh).
ulimit -f 131072 2>/dev/null
start=$(date +%s)
# libFuzzer writes fuzz-<job>.log into the current directory in -jobs mode
(cd "$logs" && "$(abs "$bin")" -jobs="$jobs" -workers="$jobs" -max_total_time="$time" \
    -dict="$dict" -artifact_prefix="$(abs "$dir")/artifacts/" -print_final_stats=1 \
    -timeout=10 -max_len=4096 -rss_limit_mb=2048 "$@" "$corpus" "$seeds" >/dev/null 2>&1)
rc=$?
end=$(date +%s)
execs=0
for l in "$logs"/fuzz-*.log; do
    [ -f "$l" ] || continue
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$l" | tail -n 1)
    execs=$((execs + ${n:-0}))
done
crashes=$(grep -l -E 'DIVERGENCE|ERROR: (AddressSanitizer|UndefinedBehaviorSanitizer|libFuzzer)|runtime error' \
    "$logs"/fuzz-*.log 2>/dev/null | wc -l)
isas=$(grep -h -o 'paths: [a-z0-9 ]*' "$logs"/fuzz-*.log 2>/dev/null | head -n 1)
cov=$(grep -h -o 'cov: [0-9]*' "$logs"/fuzz-*.log 2>/dev/null | sed 's/cov: //' | sort -n | tail -n 1)
echo "fuzz: $(date -u +%Y-%m-%dT%H:%MZ) $(git rev-parse --short HEAD 2>/dev/null) jobs=$jobs time=${time}s wall=$((end - start))s execs=$execs cov=${cov:-?} ${isas:-} failing_jobs=$crashes rc=$rc"
if [ "$crashes" -ne 0 ] || [ "$rc" -ne 0 ]; then
    grep -h -A 30 -E 'DIVERGENCE|ERROR: (AddressSanitizer|UndefinedBehaviorSanitizer|libFuzzer)|runtime error' \
        "$logs"/fuzz-*.log | head -n 60
    ls -l "$dir"/artifacts/ | tail -n 5
    exit 1
fi
