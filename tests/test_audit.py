# SPDX-License-Identifier: MIT
"""Tests of `simdhttp audit` (tests/test_audit.sh runs this with the binary's path).

Each case is a raw stream and what the audit must say of it: per message (as the monitor reading
frames it) the tier and the reasons, and the message where the strict, defensive and monitor
readings part (None: they agree). The cases pin every reason the strict parser's refusals map to
(so a changed error text in src/core.h fails here) and the ones the audit sees in fields the
strict parser accepts. Then exit statuses, --json, directories (tcpflow's report.xml skipped),
stdin. Prints "not ok - ..." per failure and ends with "N passed, N failed"."""
import json
import os
import re
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
CRLF = b"\r\n"

# name: (bytes, [(tier, "REASON REASON")...], parting message number or None)
CASES = {
    "compliant-pipeline": (b"GET / HTTP/1.1\r\nHost: a\r\n\r\n" * 3 + b"POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",
                           [("COMPLIANT", "")] * 4, None),
    "get-with-content-length-0": (b"GET / HTTP/1.1\r\nContent-Length: 0\r\n\r\n", [("COMPLIANT", "")], None),
    "cl-te": (b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
              b"GET /admin HTTP/1.1\r\nHost: a\r\n\r\n",
              [("AMBIGUOUS", "CL_AND_TE"), ("AMBIGUOUS", "DATA_AFTER_CLOSE")], 1),
    "te-not-chunked": (b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\nabc",
                       [("SEVERE", "TE_NOT_CHUNKED")], 1),
    "te-chunked-twice": (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                         [("SEVERE", "TE_CHUNKED_TWICE")], None),
    "cl-different": (b"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
                     [("SEVERE", "CL_DIFFERENT")], None),
    "cl-invalid": (b"POST / HTTP/1.1\r\nContent-Length: +1\r\n\r\nab", [("SEVERE", "CL_INVALID")], None),
    "bare-lf": (b"GET / HTTP/1.1\nHost: a\n\n", [("ACCEPTABLE", "BARE_LF")], 1),
    "bare-cr": (b"GET / HTTP/1.1\r\nX: a\rHost: b\r\n\r\n", [("SEVERE", "BARE_CR")], 1),
    "obs-fold": (b"GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n b\r\n\r\n", [("AMBIGUOUS", "OBS_FOLD")], 1),
    "ws-before-colon": (b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding : chunked\r\nContent-Length: 4\r\n\r\n1\r\nZ\r\n0\r\n\r\n",
                        [("SEVERE", "WS_BEFORE_COLON")], None),
    "ws-before-first-field": (b"GET / HTTP/1.1\r\n Host: a\r\n\r\n", [("SEVERE", "WS_BEFORE_FIELD")], None),
    "lookalikes": (b"POST / HTTP/1.1\r\nHost: a\r\nContent_Length: 5\r\n\r\n"
                   b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nab"
                   b"GET /x HTTP/1.1\r\nTransfer-Encoding: identity, chunked\r\n\r\n0\r\n\r\n",
                   [("AMBIGUOUS", "FRAMING_LOOKALIKE"), ("AMBIGUOUS", "CL_DUPLICATE BODY_ON_GET"),
                    ("AMBIGUOUS", "TE_UNKNOWN_CODING BODY_ON_GET")], None),
    "data-after-close": (b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n",
                         [("COMPLIANT", ""), ("AMBIGUOUS", "DATA_AFTER_CLOSE")], 2),
    "chunk-size-ws": (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5 \r\nhello\r\n0\r\n\r\n",
                      [("AMBIGUOUS", "CHUNK_SIZE_WS")], 1),
    "chunk-data-no-crlf": (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab0\r\n\r\n",
                           [("SEVERE", "CHUNK_DATA_NO_CRLF")], 1),
    "chunk-size-invalid": (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0x2\r\nab\r\n0\r\n\r\n",
                           [("SEVERE", "CHUNK_SIZE_INVALID")], None),
    "te-in-http10": (b"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", [("AMBIGUOUS", "TE_IN_HTTP10")], None),
    "target-obs-text": (b"GET /\xc3\xa9 HTTP/1.1\r\nHost: a\r\n\r\n", [("ACCEPTABLE", "TARGET_OBS_TEXT")], 1),
    "version-minor": (b"GET / HTTP/1.2\r\nHost: a\r\n\r\n", [("ACCEPTABLE", "VERSION_MINOR")], None),
    "version-major": (b"GET / HTTP/2.0\r\n\r\n", [("AMBIGUOUS", "VERSION_MAJOR")], 1),
    "extra-space": (b"GET  / HTTP/1.1\r\n\r\n", [("AMBIGUOUS", "EXTRA_SPACE")], None),
    "space-in-target": (b"GET /a?b c HTTP/1.1\r\n\r\n", [("AMBIGUOUS", "SPACE_IN_TARGET")], None),
    "no-colon": (b"GET / HTTP/1.1\r\nX-Bad\r\nHost: a\r\n\r\n", [("SEVERE", "NO_COLON")], None),
    # a CR ends the name where a ':' must: the parser refuses it there, before the byte after it
    # (a reason that does not depend on where the stream was split)
    "cr-in-name": (b"GET / HTTP/1.1\r\nX-Bad\r: 1\r\n\r\n", [("SEVERE", "NO_COLON")], None),
    "nul-in-name": (b"GET / HTTP/1.1\r\nX-Bad\x00: 1\r\n\r\n", [("SEVERE", "NUL")], None),
    "bad-name": (b"GET / HTTP/1.1\r\nX(Bad): 1\r\n\r\n", [("AMBIGUOUS", "BAD_FIELD_NAME")], None),
    "lookalike-dashes": (b"GET / HTTP/1.1\r\nTransfer---Encoding: chunked\r\n\r\n", [("AMBIGUOUS", "FRAMING_LOOKALIKE")], None),
    "nul-in-value": (b"GET / HTTP/1.1\r\nX: a\x00b\r\n\r\n", [("SEVERE", "NUL")], None),
    "ctl-in-value": (b"GET / HTTP/1.1\r\nX: a\x01b\r\n\r\n", [("AMBIGUOUS", "CTL_IN_VALUE")], 1),
    "responses": (b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
                  b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx",
                  [("COMPLIANT", ""), ("ACCEPTABLE", "CL_DUPLICATE")], None),
}

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("not ok - " + what)


def audit(*args, stdin=None):
    r = subprocess.run([BIN, "audit"] + list(args), input=stdin, capture_output=True, timeout=60)
    return r.returncode, r.stdout.decode("latin-1"), r.stderr.decode("latin-1")


def streams(out):
    lines = [json.loads(l) for l in out.splitlines() if l.strip()]
    return [l for l in lines if "file" in l], [l for l in lines if "summary" in l]


with tempfile.TemporaryDirectory() as tmp:
    for name, (data, want, part) in CASES.items():
        path = os.path.join(tmp, name + ".http")
        with open(path, "wb") as f:
            f.write(data)
        rc, out, err = audit("--json", path)
        try:
            (s,), (summary,) = streams(out)
        except (ValueError, json.JSONDecodeError) as e:
            check(False, "%s: --json output does not parse (%s): %r %r" % (name, e, out[:300], err[:300]))
            continue
        got = [(m["tier"], " ".join(m["reasons"])) for m in s["messages"]]
        check(got == want, "%s: messages %r, want %r" % (name, got, want))
        got_part = s["desync"]["message"] if s["desync"] else None
        check(got_part == part, "%s: readings part at message %r, want %r" % (name, got_part, part))
        findings = part is not None or any(t != "COMPLIANT" for t, _ in want)
        check(rc == (1 if findings else 0), "%s: exit %d" % (name, rc))
        check(summary["summary"]["messages"] == len(want), "%s: summary %r" % (name, summary))

    # the corpus: all compliant, the readings agree, exit 0; text and JSON agree on the counts
    corpus = sorted(os.path.join("corpus", f) for f in os.listdir("corpus") if f.endswith(".http"))
    rc, out, err = audit("--json", *corpus)
    ss, (summary,) = streams(out)
    check(rc == 0 and len(ss) == len(corpus), "corpus: exit %d, %d streams" % (rc, len(ss)))
    check(all(m["tier"] == "COMPLIANT" for s in ss for m in s["messages"]) and not any(s["desync"] for s in ss),
          "corpus: not all compliant")
    rc, out, _ = audit(*corpus)
    want = r"\n  COMPLIANT +%d\n" % summary["summary"]["tiers"]["COMPLIANT"]
    check(rc == 0 and re.search(want, out), "corpus: text summary %r" % out[-300:])

    # a directory as tcpflow writes it: one file per flow, report.xml skipped, name order
    d = os.path.join(tmp, "flows")
    os.mkdir(d)
    for n, data in (("010.000.000.001.08080-010.000.000.002.40000", CASES["cl-te"][0]),
                    ("010.000.000.002.40000-010.000.000.001.08080", b"HTTP/1.1 204 No Content\r\n\r\n")):
        with open(os.path.join(d, n), "wb") as f:
            f.write(data)
    with open(os.path.join(d, "report.xml"), "w") as f:
        f.write("<?xml version='1.0'?><dfxml/>")
    rc, out, _ = audit("--json", d)
    ss, (summary,) = streams(out)
    check(rc == 1 and [os.path.basename(s["file"]) for s in ss] ==
          ["010.000.000.001.08080-010.000.000.002.40000", "010.000.000.002.40000-010.000.000.001.08080"],
          "directory: exit %d, files %r" % (rc, [s["file"] for s in ss]))
    check(summary["summary"]["tiers"] == {"COMPLIANT": 1, "ACCEPTABLE": 0, "AMBIGUOUS": 2, "SEVERE": 0}
          and summary["summary"]["desync"] == 1, "directory: summary %r" % summary)

    # a response stream is read with its requests (the flow the other way): a HEAD's response
    # has no body, a 1xx answers no request; alone, the same bytes frame otherwise
    d = os.path.join(tmp, "head")
    os.mkdir(d)
    flows = {"127.000.000.001.05555-127.000.000.001.08080": b"HEAD / HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
             "127.000.000.001.08080-127.000.000.001.05555": b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"
                                                            b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"}
    for n, data in flows.items():
        with open(os.path.join(d, n), "wb") as f:
            f.write(data)
    rc, out, _ = audit("--json", d)
    ss, (summary,) = streams(out)
    got = [[(m["tier"], m["body"]) for m in s["messages"]] for s in ss]
    check(rc == 0 and got == [[("COMPLIANT", 0), ("COMPLIANT", 0)], [("COMPLIANT", 0), ("COMPLIANT", 0), ("COMPLIANT", 2)]],
          "HEAD's response with its requests: %d %r" % (rc, got))
    rc, out, _ = audit("--json", os.path.join(d, "127.000.000.001.08080-127.000.000.001.05555"))
    ss, _ = streams(out)
    check(rc == 1 and ss[0]["messages"][0]["body"] == 5, "the response stream alone: %d %r" % (rc, ss[0]["messages"][:1]))

    # a capture that ends inside a body: the message is cut, with its head's reasons, not MALFORMED
    path = os.path.join(tmp, "cut.http")
    with open(path, "wb") as f:
        f.write(b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc")
    rc, out, _ = audit("--json", path)
    (s,), _ = streams(out)
    got = [(m.get("cut"), m["tier"], m["reasons"]) for m in s["messages"]]
    check(rc == 0 and got == [(True, "COMPLIANT", [])], "a cut message: %d %r" % (rc, got))

    # stdin, and "-"
    for args in ((), ("-",)):
        rc, out, _ = audit(*args, stdin=CASES["bare-lf"][0])
        check(rc == 1 and "(stdin): 1 messages" in out and "ACCEPTABLE BARE_LF" in out, "stdin %r: %d %r" % (args, rc, out))

    # exit statuses: usage 2, I/O 3 (with errno's text), help 0
    rc, out, err = audit("--bogus")
    check(rc == 2 and "unknown option" in err, "bad option: %d %r" % (rc, err))
    rc, out, err = audit(os.path.join(tmp, "missing.http"))
    check(rc == 3 and "No such file" in err, "missing file: %d %r" % (rc, err))
    rc, out, err = audit("--help")
    check(rc == 0 and out.startswith("usage: simdhttp audit"), "--help: %d" % rc)
    # --bench runs each reading (no timing is asserted: make bench prints it)
    rc, out, _ = audit("--bench", "corpus/get-4h.http")
    check(rc == 0 and all(re.search(r"reading %s +[0-9.]+ GB/s" % k, out) for k in ("strict", "defensive", "monitor")),
          "--bench: %d %r" % (rc, out))
    rc, out, err = audit("--bench")
    check(rc == 2, "--bench without files: %d" % rc)
    r = subprocess.run([BIN, "help", "audit"], capture_output=True, timeout=10)
    check(r.returncode == 0 and r.stdout.startswith(b"usage: simdhttp audit"), "help audit")

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
