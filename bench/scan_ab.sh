#!/bin/sh
# SPDX-License-Identifier: MIT
# A/B: two scan_bench binaries (or two paths), run alternately R times (default 9), each run a
# few interleaved rounds; prints per file the median ns/message of each and the ratio B/A.
#   sh bench/scan_ab.sh BIN_A ISA_A BIN_B ISA_B [R] [FILE...]
# (make bench-native: A = the dispatched build's best path, B = -march=native, path fixed.)
A=$1; IA=$2; B=$3; IB=$4; R=${5:-9}
shift 4; [ $# -gt 0 ] && shift
tmp=$(mktemp)
i=0
while [ $i -lt "$R" ]; do
    "$A" --tsv --rounds 3 --isa "$IA" "$@" | sed 's/^/A\t/' >>"$tmp"
    "$B" --tsv --rounds 3 --isa "$IB" "$@" | sed 's/^/B\t/' >>"$tmp"
    i=$((i + 1))
done
printf '%-24s %12s %12s %8s %12s %12s %8s\n' file "A ns/msg" "B ns/msg" "B/A" "A head ns" "B head ns" "B/A"
awk -F'\t' '
function med(s,   n, a, i, j, t) { n = split(s, a, " ");
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
{ k = $2; if (!(k in seen)) { seen[k] = 1; order[++nf] = k }
  s[$1, k] = s[$1, k] " " $4; h[$1, k] = h[$1, k] " " $5 }
END { for (i = 1; i <= nf; i++) { k = order[i]
    a = med(s["A", k]); b = med(s["B", k]); ha = med(h["A", k]); hb = med(h["B", k])
    printf "%-24s %12.1f %12.1f %8.3f %12.1f %12.1f %8.3f\n", k, a, b, b / a, ha, hb, hb / ha } }' "$tmp"
rm -f "$tmp"
