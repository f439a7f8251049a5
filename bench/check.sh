#!/bin/sh
# SPDX-License-Identifier: MIT
# The benchmark suite's own test (run by `make test` with $BUILD set): every parser adapter does
# the same work on every corpus file and generated input (messages, body bytes, the workload's
# answers), the statistics match known values, and --json prints an object a script can read.
# No timing is asserted: the numbers only have to be well-formed.
# Run for simdhttp's CLI (simdhttp rows only: it links no peer) and for build/bench/compare
# (make bench's program: the same rows plus every peer this build found; in CI all of them).
BIN=${BUILD:-build}/simdhttp
CMP=${BUILD:-build}/bench/compare
passed=0; failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
bad() { failed=$((failed + 1)); echo "not ok - $1"; }

check_mode() { # $1: label, then the command
    label=$1; shift
    out=$("$@" --check 2>&1); rc=$?
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed.*/\1/p'); f=$(echo "$line" | sed -n 's/.*passed, \([0-9]*\) failed.*/\1/p')
    if [ -n "$p" ] && [ "$rc" -eq 0 ] && [ "$f" -eq 0 ] && [ "$p" -gt 100 ]; then
        ok "$label --check: $p checks"
    else
        printf '%s\n' "$out" | grep -E '^not ok' | head -n 20
        bad "$label --check (exit $rc, $line)"
    fi
}
check_mode "simdhttp bench" "$BIN" bench
check_mode "bench/compare" "$CMP"

# The installed CLI links no peer: no http-parser, llhttp or picohttpparser code, no libh2o.
if nm "$BIN" 2>/dev/null | grep -qE 'http_parser_|phr_|llhttp_' || grep -qa libh2o "$BIN"; then
    bad "simdhttp links a peer parser"
else
    ok "simdhttp links no peer parser"
fi
# Every peer the bench knows appears in compare's table when its package is installed (CI
# installs them all: a peer silently left out would hide a regression against it).
peers=$("$CMP" --json --time 0.002 --runs 2 corpus/get-4h.http 2>/dev/null | python3 -c \
    'import json,sys; print(" ".join(sorted(json.load(sys.stdin)["files"]["get-4h.http"])))' 2>/dev/null)
for want in pico-native pico-O3 pico-libh2o llhttp-O3 llhttp-native http-parser; do
    case " $peers " in
        *" $want "*) ok "bench/compare has $want" ;;
        *) if [ "${CI:-}" = true ]; then bad "bench/compare lacks $want (CI installs every peer)"
           else echo "skip - bench/compare lacks $want (its package or source is missing here)"; fi ;;
    esac
done

json=$(mktemp)
"$CMP" --json --time 0.004 --runs 7 corpus/get-4h.http corpus/response-typical.http >"$json" 2>/dev/null
rc=$?
[ "$rc" -eq 0 ] && ok "bench --json exits 0" || bad "bench --json exits $rc"
if command -v python3 >/dev/null 2>&1; then
    if python3 - "$json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d["cpu"], str) and d["isa"], "cpu/isa"
files = d["files"]
assert set(files) == {"get-4h.http", "response-typical.http"}, files.keys()
for name, rows in files.items():
    assert rows["simdhttp"]["ratio_to_simdhttp"] == 1, (name, rows["simdhttp"])
    assert len(rows) >= 3, (name, list(rows))
    for parser, r in rows.items():
        for k in ("median_ns", "ci_low_ns", "ci_high_ns", "gbps", "ratio_to_simdhttp", "p_welch"):
            assert isinstance(r[k], (int, float)), (name, parser, k, r[k])
        assert 0 < r["ci_low_ns"] <= r["median_ns"] <= r["ci_high_ns"], (name, parser, r)
        assert r["ratio_ci_low"] <= r["ratio_to_simdhttp"] <= r["ratio_ci_high"], (name, parser, r)
        assert 0 <= r["p_welch"] <= 1, (name, parser, r)
        assert r["messages"] == 1, (name, parser, r)
assert "get-4h.http" in d["workload"] and "response-typical.http" not in d["workload"]
assert d["workload"]["get-4h.http"]["simdhttp"]["ratio_to_simdhttp"] == 1
PY
    then ok "bench --json: every file, parser and statistic present and consistent"
    else bad "bench --json: malformed or inconsistent (see above)"
    fi
else
    grep -q '"files": {' "$json" && grep -q '"ratio_to_simdhttp": 1' "$json" \
        && ok "bench --json has files and ratios (python3 absent: shallow check)" \
        || bad "bench --json lacks files or ratios"
fi
rm -f "$json"

"$BIN" bench --no-such-option >/dev/null 2>&1
[ $? -eq 2 ] && ok "unknown option is usage error 2" || bad "unknown option is not exit 2"
"$BIN" bench /nonexistent/file.http >/dev/null 2>&1
[ $? -eq 3 ] && ok "missing file is I/O error 3" || bad "missing file is not exit 3 (simdhttp(1))"

echo "$passed passed, $failed failed"
