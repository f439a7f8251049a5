#!/bin/sh
# SPDX-License-Identifier: MIT
# Instructions per message, every parser and file, counted by callgrind (stable where timings
# are not). Usage: bench/instructions.sh [path/to/bench/compare] [FILE...]
# (build/bench/compare: simdhttp and the peers; `simdhttp bench` works too: simdhttp only)
# Each (table, parser, file) is one callgrind dump: collection is on only inside the measured
# loop (20 passes), so setup, calibration and printing are not counted.
# Note: valgrind does not emulate AVX-512, so under it the dispatched path is AVX2 (or lower).
BIN=${1:-build/bench/compare}
[ $# -gt 0 ] && shift
command -v valgrind >/dev/null 2>&1 || { echo "bench-instructions: valgrind not installed (apt-get install valgrind)" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sub=$(case "$BIN" in *simdhttp) echo bench ;; esac)
# One valgrind run per parser: a parser valgrind cannot run (valgrind 3.19 lacks the pcmpestri
# forms of picohttpparser's SSE4.2 path, which pico-native's -march=native build has) is
# reported and left out instead of killing the others. BENCH_PARSERS=a,b limits the list.
parsers=${BENCH_PARSERS:-$("$BIN" $sub --list | tr '\n' ',')}
: >"$dir/rows"
for p in $(echo "$parsers" | tr ',' ' '); do
    rm -f "$dir"/cg.out*
    if ! valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$dir/cg.out" \
        "$BIN" $sub --instructions --parsers "$p" "$@" >"$dir/log" 2>&1; then
        why=$(grep -m1 -E 'unhandled instruction|Illegal opcode|SIGILL' "$dir/log")
        echo "note: $p not counted: valgrind cannot run it (${why:-see valgrind's log})" >&2
        continue
    fi
    # Each dump: "desc: Trigger: Client Request: simdhttp-bench|table|parser|file|messages"
    # then a "summary:" (or "totals:") line with the instruction count.
    for f in $(ls "$dir"/cg.out.* 2>/dev/null | sort -V); do
        awk '/^desc: Trigger: Client Request: simdhttp-bench\|/ { sub(/^desc: Trigger: Client Request: /, ""); label = $0 }
             /^(summary|totals):/ { if (label != "" && !done) { print label "|" $2; done = 1 } }' "$f"
    done >>"$dir/rows"
done
[ -s "$dir/rows" ] || { echo "bench-instructions: no dumps (built without <valgrind/callgrind.h>?)" >&2; cat "$dir/log" >&2; exit 1; }
printf 'instructions per message (callgrind, %s)\n' "$(valgrind --version)"
awk -F'|' '
    { key = $2 " " $4; ipm = $6 / $5
      if (!(key in seen)) { seen[key] = 1; order[++n] = key }
      if (!($3 in pseen)) { pseen[$3] = 1; porder[++np] = $3 }
      v[key, $3] = ipm }
    END {
      for (t = 1; t <= 2; t++) {
        tab = t == 1 ? "parse" : "workload"
        printf "\n%s\n%-24s", (tab == "parse" ? "whole message (parse table)" : "method + User-Agent + first cookie (workload)"), "file"
        for (j = 1; j <= np; j++) { has = 0; for (i = 1; i <= n; i++) if ((order[i], porder[j]) in v && index(order[i], tab " ") == 1) has = 1; if (has) printf " %15s", porder[j] }
        printf "\n"
        for (i = 1; i <= n; i++) {
          if (index(order[i], tab " ") != 1) continue
          printf "%-24s", substr(order[i], length(tab) + 2)
          for (j = 1; j <= np; j++) { has = 0; for (k = 1; k <= n; k++) if ((order[k], porder[j]) in v && index(order[k], tab " ") == 1) has = 1
            if (!has) continue
            if ((order[i], porder[j]) in v) printf " %15.0f", v[order[i], porder[j]]; else printf " %15s", "-" }
          printf "\n"
        }
      }
    }' "$dir/rows"
