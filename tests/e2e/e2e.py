#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""End-to-end tests: simdhttp against programs we did not write (see docs/e2e.md).

Run from the repo root with $BUILD set (build or build/asan); tests/e2e/run.sh starts it.

1. examples/server (built on the streaming API) is driven by curl, wrk (pipelined), Python's
   http.client, headless Chromium and a raw socket (limits, bad input, pipelining, back-pressure).
   Every reply is the server's JSON echo of the parse, checked against what the client sent.
2. The server captures every received byte (one file per connection). Each capture is parsed by
   `simdhttp parse` under every SIMD path this CPU has (identical output required), by the head
   API (tests/e2e/headparse.c: same heads), and checked against the echoes the client received.
3. nginx and Python's http.server serve static files through a recording tap; the raw responses
   are parsed with `simdhttp parse --response` (--skip-body for HEAD): status, fields and decoded
   body length must equal what http.client saw on that very exchange.

Every process is started here, on 127.0.0.1, with timeouts, in its own process group; all are
killed on exit (normal, exception, SIGTERM from run.sh's timeout). A missing tool is a skip, or
a failure when CI=true. The last line is "N passed, N failed".
"""
import ctypes
import gzip
import http.client
import json
import os
import re
import resource
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

BUILD = os.environ.get("BUILD", "build")
CI = os.environ.get("CI") == "true"
CLI = os.path.join(BUILD, "simdhttp")
SERVER = os.path.join(BUILD, "examples", "server")
HEADPARSE = os.path.join(BUILD, "e2e", "headparse")
HERE = os.path.dirname(os.path.abspath(__file__))
TMP = tempfile.mkdtemp(prefix="simdhttp-e2e-")
T0 = time.monotonic()

passed = failed = skipped = 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("not ok - %s%s" % (name, ": " + str(detail)[:600] if detail else ""), flush=True)
    return cond


def skip(name, why):
    """A missing tool: skipped on a developer machine, a failure in CI."""
    global skipped
    if CI:
        check(name, False, "CI=true and " + why)
    else:
        skipped += 1
        print("skip - %s: %s" % (name, why), flush=True)


def have(tool):
    return shutil.which(tool) is not None


# ---------------------------------------------------------------------------------------------
# processes: each in its own group, all killed at exit

PROCS = []


try:
    _libc = ctypes.CDLL(None, use_errno=True)
except OSError:
    _libc = None


def _die_with_parent():
    """In the child: SIGKILL when this driver dies, even by SIGKILL (Linux prctl)."""
    if _libc is not None:
        _libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def spawn(args, preexec_fn=None, **kw):
    def pre():
        _die_with_parent()
        if preexec_fn:
            preexec_fn()
    p = subprocess.Popen(args, start_new_session=True, preexec_fn=pre, **kw)
    PROCS.append(p)
    return p


def stop(p, sig=signal.SIGTERM, wait=5):
    if p.poll() is None:
        try:
            os.killpg(p.pid, sig)
        except ProcessLookupError:
            pass
        try:
            p.wait(wait)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait(5)
    else:  # the leader is gone; its group (e.g. browser helpers) may not be
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    return p.returncode


def cleanup():
    for p in PROCS:
        stop(p, signal.SIGKILL, 2)
    kill_marked(TMP)
    shutil.rmtree(TMP, ignore_errors=True)


def kill_marked(marker):
    """Kill (by pid) any process whose command line names our temp dir: helpers that left our
    process groups (Chromium's crashpad handler daemonises)."""
    me = os.getpid()
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == me:
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        if marker.encode() in cmd:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass


def on_signal(sig, frame):
    raise KeyboardInterrupt("signal %d" % sig)


def run(args, timeout=30, **kw):
    """Run a client to completion (its group is killed on timeout)."""
    p = spawn(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        stop(p, signal.SIGKILL)
        out, err = p.communicate()
        return -999, out, err
    return p.returncode, out, err


def run_tool(args, timeout=20, limit=256 << 20, **kw):
    """Run one of our tools with stdout to a file (a runaway tool must not fill our memory).
    @return (exit status or -999 on timeout, stdout bytes up to limit)."""
    def cap_files():  # a runaway writer is killed (SIGXFSZ) before it fills the disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    with tempfile.TemporaryFile(dir=TMP) as f:
        p = spawn(args, stdout=f, stderr=subprocess.DEVNULL, preexec_fn=cap_files, **kw)
        try:
            rc = p.wait(timeout)
        except subprocess.TimeoutExpired:
            stop(p, signal.SIGKILL)
            rc = -999
        f.seek(0)
        return rc, f.read(limit)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_port(port, proc, timeout=10):
    end = time.monotonic() + timeout
    while time.monotonic() < end and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


# ---------------------------------------------------------------------------------------------
# the CLI and the head API on captured bytes

ISAS = []


def detect_isas():
    for isa in ("scalar", "sse2", "sse42", "avx2", "avx512", "neon"):
        rc, out, _ = run([CLI, "--version"], 10, env=dict(os.environ, SIMDHTTP_ISA=isa))
        if rc == 0 and ("(isa: %s)" % isa).encode() in out:
            ISAS.append(isa)


def jlines(out):
    msgs = []
    for line in out.decode("latin-1").splitlines():
        if line.strip():
            try:
                msgs.append(json.loads(line))
            except ValueError:
                msgs.append({"unparsable": line[:200]})
    return msgs


def parse_capture(name, path, response=False, skip_body=False, no_eof=False, limit=None, extra=(),
                  want_error=False):
    """Parse one captured stream under every SIMD path and through the head API.
    @return the messages (dicts) of the CLI under the first path, after checking the rest
    (with want_error, the stream must end in an error, the last dict)."""
    if limit is not None and os.path.getsize(path) > limit:
        cut = path + ".prefix"
        with open(path, "rb") as f, open(cut, "wb") as g:
            g.write(f.read(limit))
        path, no_eof = cut, True
    flags = (["--response"] if response else ["--request"]) + (["--skip-body"] if skip_body else [])
    flags += (["--no-eof"] if no_eof else []) + list(extra)
    outs = {}
    for isa in ISAS:
        outs[isa] = run_tool([CLI, "parse"] + flags + [path], env=dict(os.environ, SIMDHTTP_ISA=isa))
        if not check("%s: simdhttp parse [%s] ends in time" % (name, isa), outs[isa][0] != -999):
            return []
    # the same stream fed in 13-byte pieces must print the same (default path)
    outs["split"] = run_tool([CLI, "parse", "--split", "13"] + flags + [path])
    first = outs[ISAS[0]]
    check("%s: simdhttp parse --split 13 identical" % name, outs.pop("split") == first)
    same = [isa for isa in ISAS if outs[isa] == first]
    check("%s: simdhttp parse identical under %s" % (name, ",".join(ISAS)), same == ISAS,
          "differs: %s" % [i for i in ISAS if i not in same])
    msgs = jlines(first[1])
    if want_error:
        check("%s: simdhttp parse exit 1 (an error)" % name, first[0] == 1 and msgs and "error" in msgs[-1], first[1][-300:])
    else:
        check("%s: simdhttp parse exit 0 (no error)" % name, first[0] == 0 and
              not any("error" in m for m in msgs), first[1][-300:])
    # The head API: same start line and fields for every message (under each path too).
    view = [head_view(m) for m in msgs if "error" not in m]
    for isa in ISAS:
        hflags = [f for f in flags if f != "--request"]  # headparse takes the same limits
        rc, out = run_tool([HEADPARSE] + hflags + [path], env=dict(os.environ, SIMDHTTP_ISA=isa))
        lines = jlines(out)
        heads = [m for m in lines if "error" not in m and "head_error" not in m]
        herr = [m for m in lines if "head_error" in m]
        if herr:  # the head API rejected the same head: same error, same offset
            err = msgs[-1] if msgs else {}
            check("%s: head API rejects the head as the streaming parser does [%s]" % (name, isa),
                  (herr[0]["head_error"], herr[0]["offset"]) == (err.get("error"), err.get("offset")), (herr, err))
        if not check("%s: head API agrees with the streaming parser [%s]" % (name, isa),
                     heads == view, "%d vs %d heads; first diff: %s" % (len(heads), len(view), first_diff(heads, view))):
            break
    return msgs


def head_view(m):
    keys = ("type", "method", "target", "status", "reason", "version", "headers")
    return {k: m[k] for k in keys if k in m}


def first_diff(a, b):
    for x, y in zip(a, b):
        if x != y:
            return "%s != %s" % (x, y)
    return "lengths %d, %d" % (len(a), len(b))


def body_of(m):
    return m.get("body", "").encode("latin-1")


def echo_of(m):
    """What examples/server must have echoed for parsed message m."""
    body = body_of(m)
    return {"method": m.get("method"), "target": m.get("target"), "version": m.get("version"),
            "fields": len(m.get("headers", [])), "trailers": len(m.get("trailers", [])),
            "body_length": len(body), "body_fnv1a64": fnv1a64(body),
            "keep_alive": m.get("keep_alive")}


# ---------------------------------------------------------------------------------------------
# the example server

class Server:
    def __init__(self, name, extra=()):
        self.name = name
        self.capdir = os.path.join(TMP, "cap-" + name)
        os.mkdir(self.capdir)
        self.errfile = open(os.path.join(TMP, "server-%s.err" % name), "w+b")
        self.proc = spawn([SERVER, "--capture", self.capdir] + list(extra) + ["0"],
                          stdout=subprocess.PIPE, stderr=self.errfile)
        r, _, _ = select.select([self.proc.stdout], [], [], 10)
        line = self.proc.stdout.readline().decode() if r else ""
        m = re.search(r"127\.0\.0\.1:(\d+)", line)
        if not m:
            raise RuntimeError("example server did not start: %r" % line)
        self.port = int(m.group(1))
        self.url = "http://127.0.0.1:%d" % self.port
        self.seen = set()

    def new_captures(self, settle=True):
        """Capture files of connections opened since the last call (sorted by connection id)."""
        if settle:
            time.sleep(0.1)  # let the server read the last bytes a client sent before closing
        files = sorted(f for f in os.listdir(self.capdir) if f.endswith(".raw"))
        new = [f for f in files if f not in self.seen]
        self.seen.update(new)
        return [os.path.join(self.capdir, f) for f in new]

    def finish(self):
        rc = stop(self.proc)
        self.errfile.seek(0)
        err = self.errfile.read().decode("latin-1")
        check("server[%s]: clean exit on SIGTERM" % self.name, rc == 0, "exit %s: %s" % (rc, err[-800:]))
        check("server[%s]: no sanitizer report" % self.name,
              "Sanitizer" not in err and "runtime error" not in err, err[-1500:])


def echoes_in(text):
    return [json.loads(m) for m in re.findall(r'\{"method":[^\n]*?\}(?=\n|$|<)', text)]


def check_echoes_vs_capture(name, srv, echoes, files=None, **kw):
    """Parse the new captures and require the echoes the client got to match, in order."""
    files = srv.new_captures() if files is None else files
    msgs = []
    for i, f in enumerate(files):
        msgs += [m for m in parse_capture("%s capture %d" % (name, i), f, **kw) if "error" not in m]
    want = [echo_of(m) for m in msgs if m.get("method") != "HEAD"]  # HEAD replies carry no echo
    check("%s: echoes match the parse of the captured bytes" % name, echoes == want,
          "client got %d echoes, capture has %d; %s" % (len(echoes), len(want), first_diff(echoes, want)))
    return msgs


# ---------------------------------------------------------------------------------------------
# clients against the example server

def test_curl(srv, upload):
    if not have("curl"):
        return skip("curl", "curl not installed")
    up_len, up_hash = os.path.getsize(upload), fnv1a64(open(upload, "rb").read())
    curl = ["curl", "-sS", "--max-time", "10"]

    rc, out, err = run(curl + [srv.url + "/get?a=1&b=%7E"], 15)
    e = echoes_in(out.decode())
    check("curl GET: echo", rc == 0 and len(e) == 1 and e[0]["method"] == "GET" and
          e[0]["target"] == "/get?a=1&b=%7E" and e[0]["body_length"] == 0, (rc, out, err))
    check_echoes_vs_capture("curl GET", srv, e)

    rc, out, err = run(curl + ["--data-binary", "@" + upload, srv.url + "/post"], 15)
    e = echoes_in(out.decode())
    check("curl POST file: body length and hash", rc == 0 and len(e) == 1 and
          e[0]["body_length"] == up_len and e[0]["body_fnv1a64"] == up_hash, (rc, out[:300], err))
    check_echoes_vs_capture("curl POST", srv, e)

    rc, out, err = run(curl + ["-H", "Transfer-Encoding: chunked", "--data-binary", "@" + upload,
                               srv.url + "/chunked"], 15)
    e = echoes_in(out.decode())
    check("curl chunked upload: body length and hash", rc == 0 and len(e) == 1 and
          e[0]["body_length"] == up_len and e[0]["body_fnv1a64"] == up_hash, (rc, out[:300], err))
    msgs = check_echoes_vs_capture("curl chunked", srv, e)
    check("curl chunked upload: sent chunked", any(["Transfer-Encoding", "chunked"] in m["headers"] for m in msgs), msgs[:1])

    rc, out, err = run(curl + ["--http1.0", "-i", srv.url + "/ten"], 15)
    t = out.decode("latin-1")
    e = echoes_in(t)
    check("curl --http1.0: version 1.0, not kept alive", rc == 0 and len(e) == 1 and
          e[0]["version"] == "1.0" and e[0]["keep_alive"] is False and "Connection: close" in t, t)
    check_echoes_vs_capture("curl --http1.0", srv, e)

    rc, out, err = run(curl + ["-v", "-H", "Expect: 100-continue", "--expect100-timeout", "8",
                               "--data-binary", "@" + upload, srv.url + "/expect"], 15)
    e = echoes_in(out.decode())
    check("curl Expect: 100-continue: got 100 Continue", b"< HTTP/1.1 100 Continue" in err, err[-500:])
    check("curl Expect: 100-continue: body", rc == 0 and len(e) == 1 and e[0]["body_length"] == up_len
          and e[0]["body_fnv1a64"] == up_hash, (rc, out[:300]))
    check_echoes_vs_capture("curl expect", srv, e)

    # keep-alive: three URLs on one connection, and a HEAD
    rc, out, err = run(curl + [srv.url + "/k1", srv.url + "/k2", "-d", "x=1", srv.url + "/k3"], 15)
    e = echoes_in(out.decode())
    files = srv.new_captures()
    check("curl keep-alive: 3 requests on 1 connection", rc == 0 and len(e) == 3 and len(files) == 1,
          (rc, len(e), files))
    check_echoes_vs_capture("curl keep-alive", srv, e, files)

    # multipart form upload: the echo must agree with the parse of what curl sent
    rc, out, err = run(curl + ["-F", "file=@" + upload, "-F", "note=hello", srv.url + "/form"], 15)
    e = echoes_in(out.decode())
    check("curl -F multipart: echoed", rc == 0 and len(e) == 1 and e[0]["body_length"] > up_len, (rc, out[:300], err))
    check_echoes_vs_capture("curl multipart", srv, e)

    # --http2 over cleartext asks to upgrade to h2c; the server declines by answering in
    # HTTP/1.1 (simdhttp parse stops at the upgrade: what follows is not HTTP/1)
    rc, out, err = run(curl + ["--http2", "-i", srv.url + "/h2c"], 15)
    t = out.decode("latin-1")
    e = echoes_in(t)
    check("curl --http2: upgrade declined, answered in HTTP/1.1", rc == 0 and t.startswith("HTTP/1.1 200") and
          len(e) == 1 and e[0]["target"] == "/h2c", (rc, t[:300], err[-300:]))
    msgs = check_echoes_vs_capture("curl --http2", srv, e)
    check("curl --http2: the capture is an upgrade request", len(msgs) == 1 and msgs[0].get("upgrade") is True and
          any(h[0].lower() == "upgrade" and h[1] == "h2c" for h in msgs[0]["headers"]), msgs)

    rc, out, err = run(curl + ["-I", srv.url + "/head"], 15)
    t = out.decode("latin-1")
    check("curl HEAD: 200, Content-Length, no body", rc == 0 and t.startswith("HTTP/1.1 200 OK") and
          "Content-Length: " in t and t.endswith("\r\n\r\n"), t)
    srv.new_captures()


def test_python_client(srv):
    c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
    echoes = []
    payload = bytes(range(256)) * 40

    def req(method, url, body=None, headers=None, **kw):
        c.request(method, url, body=body, headers=headers or {}, **kw)
        r = c.getresponse()
        data = r.read()
        if method != "HEAD":
            echoes.append(json.loads(data))
        return r, data

    r, d = req("GET", "/py/get?x=1")
    check("http.client GET", r.status == 200 and echoes[-1]["method"] == "GET", d)
    r, d = req("POST", "/py/post", payload, {"Content-Type": "application/octet-stream"})
    check("http.client POST", echoes[-1]["body_length"] == len(payload) and
          echoes[-1]["body_fnv1a64"] == fnv1a64(payload), d)
    r, d = req("PUT", "/py/chunked", iter([payload[:1000], payload[1000:1001], payload[1001:]]),
               encode_chunked=True)
    check("http.client chunked PUT", echoes[-1]["body_length"] == len(payload) and
          echoes[-1]["body_fnv1a64"] == fnv1a64(payload), d)
    r, d = req("HEAD", "/py/head")
    check("http.client HEAD", r.status == 200 and d == b"" and int(r.getheader("Content-Length")) > 0, r.getheaders())
    r, d = req("DELETE", "/py/x", headers={"X-Many": "a" * 3000, "X-Empty": "", "X-" + "n" * 300: "long name"})
    check("http.client DELETE with a long value, an empty value, a long name", echoes[-1]["method"] == "DELETE", d)
    c.close()
    check_echoes_vs_capture("http.client", srv, echoes)


def test_chromium(srv):
    exe = next((x for x in ("chromium", "chromium-browser", "google-chrome") if have(x)), None)
    if not exe:
        return skip("chromium", "chromium not installed")
    profile = tempfile.mkdtemp(prefix="chromium-", dir=TMP)
    rc, out, err = run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--no-first-run",
                        "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--dump-dom",
                        srv.url + "/page"], 60)
    kill_marked(profile)
    dom = out.decode("utf-8", "replace")
    check("chromium: loaded the page", rc == 0 and "served by examples/server.c" in dom, (rc, dom[:300], err[-500:]))
    m = re.search(r"echo: (\{.*?\})", dom)
    e = json.loads(m.group(1).replace("&quot;", '"')) if m else {}
    body = b"hello from the browser"
    check("chromium: the page's XHR POST was parsed", e.get("method") == "POST" and
          e.get("target") == "/from-browser?q=1" and e.get("body_length") == len(body) and
          e.get("body_fnv1a64") == fnv1a64(body), dom[-500:])
    msgs = []
    for i, f in enumerate(srv.new_captures(settle=True)):
        msgs += parse_capture("chromium capture %d" % i, f)
    check("chromium: captured GET /page and the POST", any(m.get("target") == "/page" for m in msgs) and
          any(echo_of(m) == dict(e, keep_alive=m.get("keep_alive")) for m in msgs), [head_view(m) for m in msgs])


def wrk_batch(port):
    """One batch of varied requests for tests/e2e/wrk_pipeline.lua, written to a file (its
    path is returned): each target states what its echo must say (see the .lua)."""
    reqs = []
    bodies = [b"", b"hello", bytes(range(256)) * 8, b"x" * 3000]
    for i in range(16):
        body = bodies[i % 4]
        method = ["GET", "POST", "PUT", "PATCH"][i % 4] if body else ["GET", "DELETE", "OPTIONS"][i % 3]
        chunked = bool(body) and i % 3 == 0
        fields = ["Host: 127.0.0.1:%d" % port, "User-Agent: wrk-e2e", "Accept: */*"]
        fields += ["X-Extra-%d: %s" % (k, "v" * (k * 7)) for k in range(i % 5)]
        if chunked:
            fields.append("Transfer-Encoding: chunked")
            payload = b"".join(b"%x;n=%d\r\n%s\r\n" % (len(body[j:j + 700]), j, body[j:j + 700])
                               for j in range(0, len(body), 700)) + b"0\r\n\r\n"
        elif body:
            fields.append("Content-Length: %d" % len(body))
            payload = body
        else:
            payload = b""
        target = "/w/%d?m=%s&f=%d&l=%d&h=%s" % (i, method, len(fields), len(body), fnv1a64(body))
        reqs.append(("%s %s HTTP/1.1\r\n%s\r\n\r\n" % (method, target, "\r\n".join(fields))).encode() + payload)
    batch = os.path.join(TMP, "wrk-batch-%d.http" % port)
    with open(batch, "wb") as f:
        f.write(b"".join(reqs))
    return batch


def test_wrk(srv):
    if not have("wrk"):
        return skip("wrk", "wrk not installed")
    batch = wrk_batch(srv.port)
    rc, out, err = run(["wrk", "-t1", "-c4", "-d2s", "--timeout", "3s", "-s",
                        os.path.join(HERE, "wrk_pipeline.lua"), srv.url + "/", "--", batch], 30)
    m = re.search(rb"E2E ok=(\d+) bad=(\d+) connect=(\d+) read=(\d+) write=(\d+) status=(\d+) timeout=(\d+)", out)
    n = [int(x) for x in m.groups()] if m else []
    check("wrk: ran and reported", rc == 0 and m is not None, (rc, out[-500:], err[-500:]))
    if n:
        check("wrk: many pipelined replies, every echo right", n[0] >= 1000 and n[1] == 0,
              "ok=%d bad=%d %s" % (n[0], n[1], err[-300:]))
        check("wrk: zero errors (connect, read, write, status, timeout)", n[2:] == [0] * 5, out[-300:])
        print("# wrk: %d checked replies in 2 s (%s)" % (n[0], BUILD), flush=True)
    # The captures: every message the server received must be what its target says.
    files = srv.new_captures()
    msgs = []
    for i, f in enumerate(files):
        msgs += [x for x in parse_capture("wrk capture %d" % i, f, no_eof=True, limit=256 * 1024) if "error" not in x]
    bad = []
    for x in msgs:
        q = re.search(r"m=(\w+)&f=(\d+)&l=(\d+)&h=(\w+)", x.get("target", ""))
        e = echo_of(x)
        if not q or (e["method"], str(e["fields"]), str(e["body_length"]), e["body_fnv1a64"]) != q.groups():
            bad.append(head_view(x))
    check("wrk: captured stream re-parsed: every message matches its target (%d messages)" % len(msgs),
          len(msgs) > 100 and not bad, bad[:2])


# ---- raw sockets: the server's limits, bad input, pipelining, back-pressure ----

def exchange(port, data, chunks=None, timeout=10, gap=0.0):
    """Send data (optionally one piece at a time, gap seconds apart), read until EOF.
    @return (bytes received, 'eof' | 'reset' | 'timeout')."""
    s = socket.create_connection(("127.0.0.1", port), timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    how = "eof"
    got = bytearray()

    def sender():
        try:
            for piece in (chunks or [data]):
                s.sendall(piece)
                if gap:
                    time.sleep(gap)  # so the server's reads really end between pieces
        except OSError:
            pass
    t = threading.Thread(target=sender)
    t.start()
    try:
        while True:
            b = s.recv(65536)
            if not b:
                break
            got += b
    except ConnectionResetError:
        how = "reset"
    except socket.timeout:
        how = "timeout"
    t.join(timeout)
    s.close()
    return bytes(got), how


def replies(data):
    """Split a byte stream of responses to non-HEAD requests (Content-Length framed)."""
    out = []
    while data:
        head, sep, rest = data.partition(b"\r\n\r\n")
        if not sep:
            break
        cl = re.search(rb"\r\nContent-Length: (\d+)", head)
        n = int(cl.group(1)) if cl else 0
        status = int(head[9:12])
        out.append((status, head.decode("latin-1"), rest[:n]))
        data = rest[n:]
    return out


def test_raw(srv, small):
    H = "Host: 127.0.0.1\r\n"
    cases = [
        ("414 URL over the server limit", "GET /%s HTTP/1.1\r\n%s\r\n" % ("a" * 200, H), 414),
        ("431 head over max_head_size", "GET / HTTP/1.1\r\n%sX-Big: %s\r\n\r\n" % (H, "b" * 3000), 431),
        ("431 too many fields", "GET / HTTP/1.1\r\n%s%s\r\n" % (H, "".join("X-%d: v\r\n" % i for i in range(12))), 431),
        ("413 Content-Length over the limit", "POST / HTTP/1.1\r\n%sContent-Length: 5000\r\n\r\n" % H, 413),
        ("413 chunked body over the limit", "POST / HTTP/1.1\r\n%sTransfer-Encoding: chunked\r\n\r\n%s"
         % (H, "100\r\n%s\r\n" % ("c" * 256) * 5), 413),
        ("505 HTTP/2.0", "GET / HTTP/2.0\r\n%s\r\n" % H, 505),
        ("400 space before colon", "GET / HTTP/1.1\r\n%sBad : x\r\n\r\n" % H, 400),
        ("400 CL and TE together", "POST / HTTP/1.1\r\n%sContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n" % H, 400),
        ("400 missing Host in HTTP/1.1", "GET / HTTP/1.1\r\n\r\n", 400),
        ("400 bare LF", "GET / HTTP/1.1\n%s\r\n" % H, 400),
        ("400 bad chunk size", "POST / HTTP/1.1\r\n%sTransfer-Encoding: chunked\r\n\r\nzz\r\n" % H, 400),
        ("417 unknown expectation", "POST / HTTP/1.1\r\n%sExpect: magic\r\nContent-Length: 1\r\n\r\nx" % H, 417),
        ("501 CONNECT", "CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n", 501),
    ]
    for name, req, want in cases:
        # a good request first (answered), the bad one, then junk the server must not answer
        good = "GET /before HTTP/1.1\r\n%s\r\n" % H
        got, how = exchange(small.port, (good + req).encode() + b"GET /after HTTP/1.1\r\n" + b"j" * 20000)
        r = replies(got)
        check("server limits: %s" % name, len(r) == 2 and r[0][0] == 200 and r[1][0] == want and
              "Connection: close" in r[1][1] and how == "eof", (how, [x[:2] for x in r], got[:300]))
        # The reply names the parser's error and its offset in the connection's byte stream:
        # simdhttp parse, with the same limits, must find the same on the captured bytes.
        files = small.new_captures()
        m = re.match(rb"\d+ [^:]*: (\w+) at byte (\d+)", r[1][2]) if len(r) == 2 else None
        if m and m.group(1) != b"USER" and len(files) == 1:
            msgs = parse_capture("server limits: %s: capture" % name, files[0], want_error=True,
                                 extra=["--max-head-size", "2048", "--max-fields", "10"])
            err = msgs[-1] if msgs else {}
            check("server limits: %s: same error and offset as simdhttp parse" % name,
                  (err.get("error"), err.get("offset")) == (m.group(1).decode(), int(m.group(2))),
                  (err, r[1][2]))
    # 413 before the body: a client waiting for 100 Continue gets the 413 instead
    got, how = exchange(small.port, ("POST / HTTP/1.1\r\n%sExpect: 100-continue\r\nContent-Length: 5000\r\n\r\n" % H).encode())
    check("server limits: 413 instead of 100 Continue", got.startswith(b"HTTP/1.1 413 ") and b" 100 " not in got, got[:200])
    small.new_captures()

    # pipelining: 60 varied requests in one write, replies in order
    reqs, want = [], []
    for i in range(60):
        body = (b"%d" % i) * (i * 13 % 700)
        if i % 3 == 0:
            reqs.append(b"GET /p/%d HTTP/1.1\r\n%s\r\n" % (i, H.encode()))
        elif i % 3 == 1:
            reqs.append(b"POST /p/%d HTTP/1.1\r\n%sContent-Length: %d\r\n\r\n%s" % (i, H.encode(), len(body), body))
        else:
            reqs.append(b"PUT /p/%d HTTP/1.1\r\n%sTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\nX-T: 1\r\n\r\n"
                        % (i, H.encode(), len(body), body) if body else
                        b"PUT /p/%d HTTP/1.1\r\n%sTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" % (i, H.encode()))
        want.append(("/p/%d" % i, len(body) if i % 3 else 0))
    reqs.append(b"GET /last HTTP/1.1\r\n%sConnection: close\r\n\r\n" % H.encode())
    want.append(("/last", 0))
    got, how = exchange(srv.port, b"".join(reqs))
    e = [json.loads(b) for _, _, b in replies(got)]
    check("pipelining: 61 requests in one write, replies in order", how == "eof" and
          [(x["target"], x["body_length"]) for x in e] == want, (how, len(e), got[-200:]))
    check_echoes_vs_capture("raw pipelined", srv, e)
    # the server's own replies are HTTP too: parse them as a response stream
    path = os.path.join(TMP, "pipelined.resp")
    with open(path, "wb") as f:
        f.write(got)
    msgs = parse_capture("raw pipelined replies", path, response=True)
    check("raw pipelined replies: simdhttp parse --response finds every echo", [json.loads(body_of(m)) for m in msgs] == e and
          msgs and msgs[-1]["keep_alive"] is False, len(msgs))

    # a stream sent one byte per write (spans split everywhere): chunked with an extension and a
    # trailer, then HTTP/1.0 with keep-alive, then HTTP/1.0 without (the server closes)
    stream = (b"POST /split HTTP/1.1\r\n%sTransfer-Encoding: chunked\r\nExpectation-" + b"n" * 300 +
              b": x\r\n\r\n5;a=\"b c\"\r\nhello\r\n0\r\nX-T: 1\r\n\r\n"
              b"GET /ten HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"
              b"GET /end HTTP/1.0\r\n\r\n") % H.encode()
    got, how = exchange(srv.port, stream, [stream[i:i + 1] for i in range(len(stream))], gap=0.0005)
    r = replies(got)
    e = [json.loads(b) for _, _, b in r]
    check("byte-by-byte: chunked with extension and trailer, 1.0 keep-alive, 1.0 close",
          how == "eof" and [x["target"] for x in e] == ["/split", "/ten", "/end"] and
          e[0]["body_fnv1a64"] == fnv1a64(b"hello") and e[0]["trailers"] == 1 and
          "Connection: keep-alive" in r[1][1] and "Connection: close" in r[2][1], (how, got[-300:]))
    check_echoes_vs_capture("raw byte-by-byte", srv, e)

    # an upgrade the server declines: it answers in HTTP/1.1 and reads the next request as such
    got, how = exchange(srv.port, (b"GET /up HTTP/1.1\r\n%sConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n"
                                   b"GET /after HTTP/1.1\r\n%sConnection: close\r\n\r\n") % (H.encode(), H.encode()))
    e = [json.loads(b) for _, _, b in replies(got)]
    check("upgrade declined: both requests answered", how == "eof" and [x["target"] for x in e] == ["/up", "/after"], got[-300:])
    # simdhttp parse stops at an upgrade (what follows belongs to another protocol)
    msgs = check_echoes_vs_capture("raw upgrade", srv, e[:1])
    check("raw upgrade: simdhttp parse reports the upgrade", len(msgs) == 1 and msgs[0].get("upgrade") is True, msgs)

    # back-pressure: 4000 pipelined requests written while no reply is read for a while
    n = 4000
    data = b"".join(b"GET /bp/%d HTTP/1.1\r\n%s\r\n" % (i, H.encode()) for i in range(n))
    data += b"GET /bp/end HTTP/1.1\r\n%sConnection: close\r\n\r\n" % H.encode()
    s = socket.create_connection(("127.0.0.1", srv.port), 20)
    t = threading.Thread(target=lambda: s.sendall(data))
    t.start()
    time.sleep(0.5)  # the server's replies pile up: it must pause parsing, not grow without end
    got = bytearray()
    try:
        while True:
            b = s.recv(1 << 16)
            if not b:
                break
            got += b
    except OSError as ex:
        got += ("<%s>" % ex).encode()
    t.join(20)
    s.close()
    e = [json.loads(b) for _, _, b in replies(bytes(got))]
    check("back-pressure: %d pipelined requests all answered in order" % (n + 1),
          [x["target"] for x in e] == ["/bp/%d" % i for i in range(n)] + ["/bp/end"], (len(e), got[-200:]))
    srv.new_captures()


# ---------------------------------------------------------------------------------------------
# responses from real servers, through a recording tap

class Tap:
    """A one-hop TCP relay on 127.0.0.1 that records both directions of each connection."""

    def __init__(self, upstream):
        self.upstream = upstream
        self.ls = socket.socket()
        self.ls.bind(("127.0.0.1", 0))
        self.ls.listen(16)
        self.port = self.ls.getsockname()[1]
        self.conns = []  # [client->server bytes, server->client bytes]
        self.threads = []
        self.ls.settimeout(0.2)
        self.running = True
        self.acceptor = threading.Thread(target=self.accept_loop, daemon=True)
        self.acceptor.start()

    def accept_loop(self):
        while self.running:
            try:
                c, _ = self.ls.accept()
            except OSError:
                continue
            rec = [bytearray(), bytearray()]
            self.conns.append(rec)
            t = threading.Thread(target=self.relay, args=(c, rec), daemon=True)
            t.start()
            self.threads.append(t)

    def relay(self, c, rec):
        u = socket.create_connection(("127.0.0.1", self.upstream), 10)
        open_ = {c: u, u: c}
        end = time.monotonic() + 30
        while open_ and time.monotonic() < end:
            r, _, _ = select.select(list(open_), [], [], 0.5)
            for s in r:
                try:
                    b = s.recv(65536)
                except OSError:
                    b = b""
                dst = open_[s]
                if b:
                    rec[0 if s is c else 1] += b
                    dst.sendall(b)
                else:
                    del open_[s]
                    try:
                        dst.shutdown(socket.SHUT_WR)
                    except OSError:
                        pass
        c.close()
        u.close()

    def close(self):
        for t in self.threads:
            t.join(10)
        self.running = False
        self.acceptor.join(2)
        self.ls.close()


def client_view(r, data):
    return {"status": r.status, "headers": [list(h) for h in r.getheaders()], "body_length": len(data)}


def parsed_view(m):
    return {"status": m.get("status"), "headers": m.get("headers"), "body_length": len(body_of(m))}


def fetch_all(name, port, plan, skip_body=False):
    """Run requests through a tap with http.client on one connection; parse the recorded raw
    responses (and requests); compare with what http.client saw."""
    tap = Tap(port)
    seen, bodies = [], []
    c = http.client.HTTPConnection("127.0.0.1", tap.port, timeout=10)
    for method, url, headers in plan:
        c.request(method, url, headers=headers)
        r = c.getresponse()
        d = r.read()
        seen.append(client_view(r, d))
        bodies.append(d)
    c.close()
    tap.close()
    check("%s: one connection through the tap" % name, len(tap.conns) == 1, len(tap.conns))
    if not tap.conns:
        return seen, bodies, []
    req_path = os.path.join(TMP, name.replace(" ", "_") + ".req")
    resp_path = os.path.join(TMP, name.replace(" ", "_") + ".resp")
    with open(req_path, "wb") as f:
        f.write(tap.conns[0][0])
    with open(resp_path, "wb") as f:
        f.write(tap.conns[0][1])
    parse_capture(name + " requests (http.client)", req_path)
    msgs = parse_capture(name + " responses", resp_path, response=True, skip_body=skip_body)
    got = [parsed_view(m) for m in msgs]
    check("%s: status, fields and body length as http.client saw them" % name, got == seen,
          first_diff(got, seen))
    return seen, bodies, msgs


def make_docroot():
    root = os.path.join(TMP, "www")
    os.mkdir(root)
    files = {
        "small.txt": b"hello, static world\n",
        "large.bin": os.urandom(1 << 20),
        "page.html": b"<html><body>" + b"".join(b"<p>line %d of a compressible page</p>\n" % i for i in range(3000)) + b"</body></html>\n",
    }
    for k, v in files.items():
        with open(os.path.join(root, k), "wb") as f:
            f.write(v)
    return root, files


def test_nginx(root, files):
    if not have("nginx") and not os.path.exists("/usr/sbin/nginx"):
        return skip("nginx", "nginx not installed")
    exe = shutil.which("nginx") or "/usr/sbin/nginx"
    d = os.path.join(TMP, "nginx")
    os.mkdir(d)
    port = free_port()
    conf = open(os.path.join(HERE, "nginx.conf.in")).read().replace("@DIR@", d).replace("@ROOT@", root).replace("@PORT@", str(port))
    with open(os.path.join(d, "nginx.conf"), "w") as f:
        f.write(conf)
    p = spawn([exe, "-p", d, "-c", os.path.join(d, "nginx.conf"), "-e", os.path.join(d, "error.log")],
              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if not check("nginx: started on 127.0.0.1:%d" % port, wait_port(port, p),
                 open(os.path.join(d, "error.log")).read()[-500:] if os.path.exists(os.path.join(d, "error.log")) else ""):
        stop(p)
        return
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.request("GET", "/small.txt")
        r = c.getresponse()
        r.read()
        etag = r.getheader("ETag")
        c.close()
        plan = [("GET", "/small.txt", {}),
                ("GET", "/page.html", {"Accept-Encoding": "gzip"}),
                ("GET", "/small.txt", {"If-None-Match": etag}),
                ("GET", "/large.bin", {"Range": "bytes=1000-1999"}),
                ("GET", "/large.bin", {}),
                ("GET", "/missing", {})]
        seen, bodies, msgs = fetch_all("nginx", port, plan)
        hv = lambda i, k: dict((a.lower(), b) for a, b in seen[i]["headers"]).get(k) if i < len(seen) else None
        check("nginx: small file", len(bodies) > 0 and bodies[0] == files["small.txt"])
        check("nginx: gzip, chunked, decodes to the file", len(bodies) > 1 and hv(1, "content-encoding") == "gzip"
              and hv(1, "transfer-encoding") == "chunked" and gzip.decompress(bodies[1]) == files["page.html"],
              seen[1:2])
        check("nginx: 304 with If-None-Match", len(seen) > 2 and seen[2]["status"] == 304 and bodies[2] == b"", seen[2:3])
        check("nginx: range request", len(seen) > 3 and seen[3]["status"] == 206 and bodies[3] == files["large.bin"][1000:2000], seen[3:4])
        check("nginx: large file", len(bodies) > 4 and bodies[4] == files["large.bin"])
        check("nginx: 404", len(seen) > 5 and seen[5]["status"] == 404)
        check("nginx: parsed gzip body is the gzip bytes", len(msgs) > 1 and body_of(msgs[1]) == bodies[1])
        seen, bodies, msgs = fetch_all("nginx HEAD", port, [("HEAD", "/large.bin", {}), ("HEAD", "/small.txt", {})], skip_body=True)
        check("nginx: HEAD has Content-Length and no body", len(msgs) == 2 and
              ["Content-Length", str(len(files["large.bin"]))] in msgs[0]["headers"] and body_of(msgs[0]) == b"", msgs[:1])
    finally:
        stop(p, signal.SIGQUIT)


def test_python_server(root, files):
    port = free_port()
    code = ("import sys, http.server as h, functools\n"
            "h.SimpleHTTPRequestHandler.protocol_version = sys.argv[2]\n"
            "H = functools.partial(h.SimpleHTTPRequestHandler, directory=sys.argv[3])\n"
            "h.ThreadingHTTPServer(('127.0.0.1', int(sys.argv[1])), H).serve_forever()\n")
    for proto in ("HTTP/1.1", "HTTP/1.0"):
        p = spawn([sys.executable, "-c", code, str(port), proto, root], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            if not check("http.server %s: started" % proto, wait_port(port, p)):
                continue
            if proto == "HTTP/1.1":
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                c.request("GET", "/small.txt")
                r = c.getresponse()
                r.read()
                lm = r.getheader("Last-Modified")
                c.close()
                plan = [("GET", "/small.txt", {}), ("GET", "/large.bin", {}),
                        ("GET", "/small.txt", {"If-Modified-Since": lm}), ("GET", "/missing", {})]
                seen, bodies, msgs = fetch_all("http.server", port, plan)
                check("http.server: files and 304", len(bodies) == 4 and bodies[0] == files["small.txt"] and
                      bodies[1] == files["large.bin"] and seen[2]["status"] == 304 and seen[3]["status"] == 404,
                      [s["status"] for s in seen])
                fetch_all("http.server HEAD", port, [("HEAD", "/large.bin", {})], skip_body=True)
            else:
                # HTTP/1.0: the server closes after each response
                seen, bodies, msgs = fetch_all("http.server 1.0", port, [("GET", "/small.txt", {})])
                check("http.server 1.0: not kept alive", len(msgs) == 1 and msgs[0].get("keep_alive") is False, msgs)
        finally:
            stop(p)
        port = free_port()


# ---------------------------------------------------------------------------------------------
# the example server against clients that misbehave on purpose (issue 9, item 6)

def start_server(args, preexec_fn=None):
    """The example server with args (no capture); @return (process, port) or (process, None)."""
    p = spawn([SERVER] + list(args) + ["0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
              preexec_fn=preexec_fn)
    r, _, _ = select.select([p.stdout], [], [], 10)
    m = re.search(r"127\.0\.0\.1:(\d+)", p.stdout.readline().decode() if r else "")
    return p, int(m.group(1)) if m else None


def cpu_seconds(pid):
    """User + system CPU time of a process so far (/proc/PID/stat fields 14 and 15)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def read_until_close(s, timeout):
    """@return (bytes, seconds until the peer closed, or None if it did not within timeout)."""
    got, t0 = bytearray(), time.monotonic()
    s.settimeout(0.2)
    while time.monotonic() - t0 < timeout:
        try:
            b = s.recv(65536)
        except socket.timeout:
            continue
        except ConnectionResetError:
            return bytes(got), time.monotonic() - t0
        if not b:
            return bytes(got), time.monotonic() - t0
        got += b
    return bytes(got), None


def test_fd_limit():
    """At the descriptor limit the server must not spin on a readable listening socket
    (measured: its CPU time while 60 clients wait with RLIMIT_NOFILE 32), and must accept
    again once descriptors are free."""
    def low_limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (32, 32))
    p, port = start_server([], low_limit)
    if not check("fd limit: server started with RLIMIT_NOFILE 32", port is not None):
        stop(p)
        return
    socks = []
    try:
        for _ in range(60):
            socks.append(socket.create_connection(("127.0.0.1", port), 5))
        time.sleep(0.5)  # the server accepts what it can and meets EMFILE
        c0, t0 = cpu_seconds(p.pid), time.monotonic()
        time.sleep(3)
        cpu, wall = cpu_seconds(p.pid) - c0, time.monotonic() - t0
        print("# fd limit: server CPU %.3f s in %.1f s with 60 clients at RLIMIT_NOFILE 32" % (cpu, wall), flush=True)
        check("fd limit: no busy loop at EMFILE (CPU < 10% of the time)", cpu < 0.1 * wall,
              "%.3f s of CPU in %.1f s" % (cpu, wall))
        for s in socks[:45]:  # free descriptors: the 15 clients left all fit, the last one too
            s.close()
        last = socks[-1]
        last.sendall(b"GET /late HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        got, _ = read_until_close(last, 10)
        check("fd limit: a client that waited in the backlog is served once descriptors free",
              got.startswith(b"HTTP/1.1 200") and b'"target":"/late"' in got, got[:200])
    finally:
        for s in socks:
            s.close()
        stop(p)


def slow_client(port, first, drip, gap, timeout):
    """Send `first`, then `drip` one byte every `gap` seconds (never finishing), while reading.
    @return (bytes received, seconds from the first byte until the server closed, or None)."""
    s = socket.create_connection(("127.0.0.1", port), 5)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    done = threading.Event()

    def dripper():
        try:
            for i in range(len(drip)):
                if done.wait(gap):
                    return
                s.sendall(drip[i:i + 1])
        except OSError:
            pass
    s.sendall(first)
    t = threading.Thread(target=dripper)
    t.start()
    got, secs = read_until_close(s, timeout)
    done.set()
    t.join(5)
    s.close()
    return got, secs


def test_slowloris():
    """A head that trickles in (one byte every 0.4 s) is cut at --head-timeout with a 408, long
    before the idle timeout that every byte refreshes; a body under --min-rate too."""
    p, port = start_server(["--head-timeout", "2", "--idle-timeout", "30", "--min-rate", "100"])
    if not check("slowloris: server started with --head-timeout 2 --min-rate 100", port is not None):
        stop(p)
        return
    try:
        slow = [("a head's field lines", b"GET /slow HTTP/1.1\r\nHost: a\r\n", b"X-Slow: " + b"a" * 100, 1.5),
                ("empty lines before the request-line", b"\r\n", b"\r\n" * 100, 1.5),
                ("a request-line", b"G", b"ET /" + b"x" * 100, 1.5),
                ("a body at 2.5 bytes/s under --min-rate 100",
                 b"POST /up HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n", b"b" * 100, 1.5)]
        res = {}

        def one(what, first, drip):
            res[what] = slow_client(port, first, drip, 0.4, 10)

        def idle():  # a client merely slow between requests is not cut: a request after 2.5 s idle
            s = socket.create_connection(("127.0.0.1", port), 5)
            time.sleep(2.5)
            s.sendall(b"GET /late HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            res["idle"] = read_until_close(s, 5)
            s.close()
        ts = [threading.Thread(target=one, args=w[:3]) for w in slow] + [threading.Thread(target=idle)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(20)
        for what, _, _, least in slow:
            got, secs = res.get(what, (b"", None))
            check("slowloris: %s, one byte per 0.4 s: 408 and close at the 2 s deadline" % what,
                  got.startswith(b"HTTP/1.1 408") and secs is not None and least <= secs <= 4.5,
                  "after %s s: %r" % (secs if secs is None else round(secs, 1), got[:120]))
        got = res.get("idle", (b"", None))[0]
        check("slowloris: an idle keep-alive connection is not a slow request", got.startswith(b"HTTP/1.1 200"),
              got[:120])
    finally:
        stop(p)


def test_expect():
    """Expect: 100-continue with trailing whitespace of any length is 100-continue (the value is
    trimmed before it is compared), not 417."""
    p, port = start_server([])
    if not check("expect: server started", port is not None):
        stop(p)
        return
    try:
        for value in (b"100-continue", b"100-continue     ", b"100-Continue \t \t \t \t \t \t \t \t "):
            s = socket.create_connection(("127.0.0.1", port), 5)
            s.sendall(b"POST /e HTTP/1.1\r\nHost: a\r\nExpect: " + value + b"\r\nContent-Length: 5\r\n"
                      b"Connection: close\r\n\r\n")
            s.settimeout(5)
            first = s.recv(65536)
            if first.startswith(b"HTTP/1.1 100 Continue\r\n\r\n"):
                s.sendall(b"hello")
            rest, _ = read_until_close(s, 5)
            s.close()
            check("expect: %r gets 100 Continue, then the reply" % value.decode(),
                  first.startswith(b"HTTP/1.1 100 Continue") and b'"body_length":5' in first + rest,
                  (first + rest)[:160])
        s = socket.create_connection(("127.0.0.1", port), 5)
        s.sendall(b"POST /e HTTP/1.1\r\nHost: a\r\nExpect: 100-continue-ish\r\nContent-Length: 5\r\n\r\n")
        got, _ = read_until_close(s, 5)
        s.close()
        check("expect: another expectation is still 417", got.startswith(b"HTTP/1.1 417"), got[:120])
    finally:
        stop(p)


# ---------------------------------------------------------------------------------------------

def main():
    for path in (CLI, SERVER, HEADPARSE):
        if not os.access(path, os.X_OK):
            check("built: %s" % path, False, "missing: run make")
            return
    detect_isas()
    check("simdhttp --version: at least the scalar path", "scalar" in ISAS, ISAS)
    if not ISAS:
        return
    print("# SIMD paths compared: %s" % " ".join(ISAS), flush=True)

    upload = os.path.join(TMP, "upload.bin")
    with open(upload, "wb") as f:
        f.write(os.urandom(150 * 1024))
    srv = Server("main")
    small = Server("small", ["--max-body", "1000", "--max-url", "100", "--max-head", "2048", "--max-fields", "10"])
    steps = [("curl", lambda: test_curl(srv, upload)), ("http.client", lambda: test_python_client(srv)),
             ("raw", lambda: test_raw(srv, small)), ("wrk", lambda: test_wrk(srv)),
             ("chromium", lambda: test_chromium(srv)),
             ("robust", lambda: (test_expect(), test_slowloris(), test_fd_limit()))]
    only = os.environ.get("E2E_ONLY", "").split(",")  # e.g. E2E_ONLY=raw,wrk to run a few groups
    for name, fn in steps:
        if only != [""] and name not in only:
            continue
        t = time.monotonic()
        try:
            fn()
        except Exception as ex:  # a crash in one group is one failure, the rest still runs
            check("%s: ran without exception" % name, False, "%s: %s" % (type(ex).__name__, ex))
        print("# %s: %.1f s" % (name, time.monotonic() - t), flush=True)
    srv.finish()
    small.finish()

    root, files = make_docroot()
    for name, fn in (("nginx", lambda: test_nginx(root, files)), ("http.server", lambda: test_python_server(root, files))):
        if only != [""] and name not in only:
            continue
        t = time.monotonic()
        try:
            fn()
        except Exception as ex:
            check("%s: ran without exception" % name, False, "%s: %s" % (type(ex).__name__, ex))
        print("# %s: %.1f s" % (name, time.monotonic() - t), flush=True)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    try:
        main()
    except KeyboardInterrupt as ex:
        check("e2e run interrupted", False, ex)
    finally:
        cleanup()
    print("# e2e: %.1f s, %d skipped%s" % (time.monotonic() - T0, skipped, " (tools missing)" if skipped else ""))
    print("%d passed, %d failed" % (passed, failed), flush=True)
    sys.exit(1 if failed else 0)
