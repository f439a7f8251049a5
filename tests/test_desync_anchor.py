# SPDX-License-Identifier: MIT
"""simdhttp's verdicts against the anchor (issue 36 item 5): each of http_desync_guardian's cases
(tests/desync/cases, expected.txt) through `simdhttp audit`; the stream's tier is its highest
message's. Every case must get the anchor's tier, or be listed in tests/desync/known.txt with
simdhttp's tier and the RFC reason; a listed case that now agrees fails too (trim the list).
One check per case, one for make_cases.py --check (the files are what the table says). Ends
with "N passed, N failed"."""
import json
import subprocess
import sys

BIN = sys.argv[1]
ORDER = ["COMPLIANT", "ACCEPTABLE", "AMBIGUOUS", "SEVERE"]
passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("not ok - " + what)


def table(path, ncols):
    rows = {}
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        parts = line.split(None, ncols - 1)
        rows[parts[0]] = parts[1:]
    return rows


expected = table("tests/desync/expected.txt", 3)
known = table("tests/desync/known.txt", 3)
r = subprocess.run([sys.executable, "tests/desync/make_cases.py", "--check"], capture_output=True, timeout=60)
check(r.returncode == 0, "make_cases.py --check: %r" % (r.stdout[-300:] + r.stderr[-300:]))
files = ["tests/desync/cases/%s.http" % n for n in expected]
out = subprocess.run([BIN, "audit", "--json"] + files, capture_output=True, timeout=120).stdout.decode("latin-1")
got = {}
for line in out.splitlines():
    o = json.loads(line)
    if "file" in o:
        tiers = [m["tier"] for m in o["messages"]] or ["COMPLIANT"]
        reasons = sorted({r for m in o["messages"] for r in m["reasons"]})
        got[o["file"].rsplit("/", 1)[1][:-5]] = (max(tiers, key=ORDER.index), reasons)
for name, (tier, anchor_reason) in expected.items():
    ours, reasons = got.get(name, ("(none)", []))
    if name in known:
        check(ours == known[name][0] and ours != tier,
              "%s: anchor %s (%s), simdhttp %s %s; known.txt says %s" % (name, tier, anchor_reason, ours, reasons, known[name][0]))
    else:
        check(ours == tier, "%s: anchor %s (%s), simdhttp %s %s (not in known.txt)" % (name, tier, anchor_reason, ours, reasons))
check(set(known) <= set(expected), "known.txt names cases that do not exist: %r" % sorted(set(known) - set(expected)))
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
