#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""uvicorn on httptools rebuilt against simdhttp's http-parser layer (tests/compat/httptools.sh
builds it), driven as `make e2e` drives the example server: curl, wrk (plain and pipelined),
Python's http.client, headless Chromium and raw sockets (keep-alive, pipelining, chunked
uploads, bad requests answered 400). The app is tests/compat/asgi_echo.py: every reply is a
JSON echo of the parse, checked against what the client sent. Process handling, checks and
the skip rule (a missing tool fails when CI=true) are tests/e2e/e2e.py's, imported.

    uvicorn_e2e.py HTTPTOOLS_DIR            the checks; last line "N passed, N failed"
    uvicorn_e2e.py --bench REAL_DIR HTTPTOOLS_DIR
                                            wrk requests/s of uvicorn on httptools built against
                                            the real http-parser (REAL_DIR) and on the layer's
                                            build, same source and flags, interleaved rounds
"""
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
import e2e as E  # noqa: E402  (check, skip, spawn, stop, run, free_port, wait_port, fnv1a64)

PY = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable


class Uvicorn:
    def __init__(self, httptools_dir):
        self.port = E.free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        env = dict(os.environ)
        if httptools_dir:
            env["PYTHONPATH"] = httptools_dir
        else:
            env.pop("PYTHONPATH", None)
        self.log = os.path.join(E.TMP, "uvicorn-%d.log" % self.port)
        self.proc = E.spawn([PY, "-m", "uvicorn", "asgi_echo:app", "--app-dir", HERE, "--host", "127.0.0.1",
                             "--port", str(self.port), "--http", "httptools", "--loop", "asyncio",
                             "--no-access-log", "--log-level", "warning"],
                            env=env, stdout=subprocess.DEVNULL, stderr=open(self.log, "wb"))
        self.up = E.wait_port(self.port, self.proc, 20)

    def logtext(self):
        with open(self.log, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def finish(self):
        return E.stop(self.proc)


def echoes(text):
    return [json.loads(m) for m in re.findall(r'\{"method".*?\}', text)]


def exchange(port, data, timeout=10):
    """Send data in one write, read until the server closes or goes quiet."""
    s = socket.create_connection(("127.0.0.1", port), timeout)
    s.sendall(data)
    s.settimeout(2)
    out = b""
    try:
        while True:
            b = s.recv(65536)
            if not b:
                break
            out += b
    except socket.timeout:
        pass
    s.close()
    return out


def test_curl(u, upload):
    if not E.have("curl"):
        return E.skip("curl", "curl not installed")
    data = open(upload, "rb").read()
    curl = ["curl", "-sS", "--max-time", "10"]
    rc, out, err = E.run(curl + [u.url + "/get?a=1&b=%7E"], 15)
    e = echoes(out.decode())
    E.check("curl GET: echo", rc == 0 and len(e) == 1 and e[0]["method"] == "GET" and
            e[0]["target"] == "/get?a=1&b=%7E" and e[0]["body_length"] == 0, (rc, out, err))
    rc, out, err = E.run(curl + ["--data-binary", "@" + upload, u.url + "/post"], 15)
    e = echoes(out.decode())
    E.check("curl POST file: body length and hash", rc == 0 and len(e) == 1 and e[0]["body_length"] == len(data)
            and e[0]["body_fnv1a64"] == E.fnv1a64(data), (rc, out[:300], err))
    rc, out, err = E.run(curl + ["-H", "Transfer-Encoding: chunked", "--data-binary", "@" + upload,
                                 u.url + "/chunked"], 15)
    e = echoes(out.decode())
    E.check("curl chunked upload: body length and hash", rc == 0 and len(e) == 1 and
            e[0]["body_length"] == len(data) and e[0]["body_fnv1a64"] == E.fnv1a64(data), (rc, out[:300], err))
    rc, out, err = E.run(curl + ["-w", "\\nconnects=%{num_connects}\\n", u.url + "/k1", u.url + "/k2", "-d", "x=1",
                                 u.url + "/k3"], 15)
    t = out.decode()
    e = echoes(t)
    E.check("curl keep-alive: 3 requests on 1 connection", rc == 0 and len(e) == 3 and
            [int(x) for x in re.findall(r"connects=(\d+)", t)] == [1, 0, 0], t[-300:])
    rc, out, err = E.run(curl + ["--http1.0", "-i", u.url + "/ten"], 15)
    t = out.decode("latin-1")
    e = echoes(t)
    E.check("curl --http1.0", rc == 0 and len(e) == 1 and e[0]["version"] == "1.0", t[:300])


def test_python_client(u):
    import http.client
    c = http.client.HTTPConnection("127.0.0.1", u.port, timeout=10)
    payload = bytes(range(256)) * 40

    def req(method, url, body=None, headers=None, **kw):
        c.request(method, url, body=body, headers=headers or {}, **kw)
        r = c.getresponse()
        d = r.read()
        return r, (json.loads(d) if method != "HEAD" else None)

    r, e = req("GET", "/py/get?x=1")
    E.check("http.client GET", r.status == 200 and e["method"] == "GET" and e["target"] == "/py/get?x=1", e)
    r, e = req("POST", "/py/post", payload, {"Content-Type": "application/octet-stream"})
    E.check("http.client POST", e["body_length"] == len(payload) and e["body_fnv1a64"] == E.fnv1a64(payload), e)
    r, e = req("PUT", "/py/chunked", iter([payload[:1000], payload[1000:1001], payload[1001:]]), encode_chunked=True)
    E.check("http.client chunked PUT", e["body_length"] == len(payload) and e["body_fnv1a64"] == E.fnv1a64(payload), e)
    r, e = req("HEAD", "/py/head")
    E.check("http.client HEAD", r.status == 200 and int(r.getheader("Content-Length")) > 0, r.getheaders())
    r, e = req("DELETE", "/py/x", headers={"X-Many": "a" * 3000, "X-Empty": "", "X-" + "n" * 300: "long name"})
    E.check("http.client DELETE with a long value, an empty value, a long name", e["method"] == "DELETE" and
            e["fields"] == 5, e)  # Host, Accept-Encoding and the three
    c.close()


def test_raw(u):
    # pipelining: three requests in one write, answered in order
    reqs = (b"GET /p1 HTTP/1.1\r\nHost: x\r\n\r\n"
            b"POST /p2 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
            b"POST /p3 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n"
            b"GET /p4 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    out = exchange(u.port, reqs).decode("latin-1")
    e = echoes(out)
    E.check("pipelined: 4 requests in one write, 4 echoes in order",
            [x["target"] for x in e] == ["/p1", "/p2", "/p3", "/p4"] and
            [x["body_length"] for x in e] == [0, 5, 5, 0] and out.count("HTTP/1.1 200") == 4, out[-500:])
    # bad requests: 400, never a 200 for a malformed message (RFC 9112/9110, RFC 3986)
    bad = [
        b"GET / HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n",                  # space in a field name
        b"GET / HTTP/1.1\r\nHost : x\r\n\r\n",                                # space before the colon
        b"GET /a\x01 HTTP/1.1\r\nHost: x\r\n\r\n",                            # CTL in the target
        b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
        b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nX: a\x00b\r\n\r\n",
        b"FOO / HTTP/1.1\r\nHost: x\r\n\r\n",                                 # not an http-parser method
        b"GET * HTTP/1.1\r\nHost: x\r\n\r\n",                                 # asterisk-form for GET
    ]
    for b in bad:
        out = exchange(u.port, b)
        E.check("bad request %r: 400" % b[:40], out.startswith(b"HTTP/1.1 400"), out[:200])
    # what browsers leave raw in a target (WHATWG's URL standard: `[ ] | { }` in a query, `|`,
    # `{`, `^` in a path) and raw UTF-8 from clients that do not percent-encode: 200 with the
    # target as sent, as on libhttp-parser (none of it moves where a request ends)
    # (UTF-8 in the query: uvicorn itself answers 400 to a raw non-ASCII path, whatever the
    # parser, as it decodes the path as ASCII)
    raw = [b"/?a[]=1&a[]=2", b"/a|b", b"/{x}/y^z", b"/caf%C3%A9?q=\xe2\x82\xac", b"/p?q#frag"]
    for t in raw:
        out = exchange(u.port, b"GET " + t + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        body = out.split(b"\r\n\r\n", 1)[-1]  # one reply (the connection closes): its body is the echo
        e = json.loads(body.decode("latin-1")) if out.startswith(b"HTTP/1.1 200") else {}
        E.check("raw target %r: 200, the target as sent" % t,
                e.get("target", "").encode("latin-1") == t.split(b"#")[0],
                out[:300])


def test_wrk(u):
    if not E.have("wrk"):
        return E.skip("wrk", "wrk not installed")
    rc, out, err = E.run(["wrk", "-t1", "-c4", "-d2s", "--timeout", "3s", u.url + "/w"], 30)
    t = out.decode()
    m = re.search(r"Requests/sec:\s*([\d.]+)", t)
    E.check("wrk keep-alive: ran, no errors, no non-2xx", rc == 0 and m and "Socket errors" not in t and
            "Non-2xx" not in t, t[-400:])
    # pipelined batches with tests/e2e/wrk_pipeline.lua: each target says what its echo must be
    batch = E.wrk_batch(u.port)
    rc, out, err = E.run(["wrk", "-t1", "-c4", "-d2s", "--timeout", "3s", "-s",
                          os.path.join(HERE, "..", "e2e", "wrk_pipeline.lua"), u.url + "/", "--", batch], 30)
    m = re.search(rb"E2E ok=(\d+) bad=(\d+) connect=(\d+) read=(\d+) write=(\d+) status=(\d+) timeout=(\d+)", out)
    n = [int(x) for x in m.groups()] if m else []
    E.check("wrk pipelined: every echo right, no errors", n and n[0] >= 200 and n[1:] == [0] * 6, (out[-300:], err[-300:]))


def test_chromium(u):
    exe = next((x for x in ("chromium", "chromium-browser", "google-chrome") if E.have(x)), None)
    if not exe:
        return E.skip("chromium", "chromium not installed")
    profile = os.path.join(E.TMP, "chromium-profile")
    rc, out, err = E.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                          "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                          "--user-data-dir=" + profile, "--dump-dom", u.url + "/page"], 60)
    E.kill_marked(profile)
    dom = out.decode("utf-8", "replace")
    m = re.search(r"echo: (\{.*?\})", dom)
    e = json.loads(m.group(1).replace("&quot;", '"')) if m else {}
    body = b"hello from the browser"
    E.check("chromium: page loaded, its XHR POST parsed", "served by uvicorn on simdhttp" in dom and
            e.get("method") == "POST" and e.get("target") == "/from-browser?q=1" and
            e.get("body_length") == len(body) and e.get("body_fnv1a64") == E.fnv1a64(body), (rc, dom[-400:], err[-300:]))


def checks(httptools_dir):
    u = Uvicorn(httptools_dir)
    if not E.check("uvicorn started", u.up, u.logtext()[-1000:]):
        return
    rc, out, err = E.run(["curl", "-sS", u.url + "/which"], 15) if E.have("curl") else (0, b"", b"")
    which = out.decode()
    E.check("uvicorn runs httptools from %s" % httptools_dir,
            os.path.realpath(which).startswith(os.path.realpath(httptools_dir)), which)
    upload = os.path.join(E.TMP, "upload.bin")
    with open(upload, "wb") as f:
        f.write(os.urandom(150 * 1024))
    for name, fn in (("curl", lambda: test_curl(u, upload)), ("http.client", lambda: test_python_client(u)),
                     ("raw", lambda: test_raw(u)), ("wrk", lambda: test_wrk(u)), ("chromium", lambda: test_chromium(u))):
        t = time.monotonic()
        try:
            fn()
        except Exception as ex:
            E.check("%s: ran without exception" % name, False, "%s: %s" % (type(ex).__name__, ex))
        print("# %s: %.1f s" % (name, time.monotonic() - t), flush=True)
    log = u.logtext()
    u.finish()
    E.check("uvicorn log: only the expected 400 warnings, no traceback of the app",
            "Exception in ASGI application" not in log, log[-1500:])


def bench(real_dir, httptools_dir, rounds=7, seconds=5, conns=16):
    """wrk req/s of uvicorn on httptools built against the real http-parser and the layer."""
    res = {"http-parser": [], "simdhttp layer": []}
    servers = {"http-parser": Uvicorn(real_dir), "simdhttp layer": Uvicorn(httptools_dir)}
    for name, u in servers.items():
        _, out, _ = E.run(["curl", "-sS", u.url + "/which"], 15)
        print("# %s: %s" % (name, out.decode()), flush=True)
    for r in range(rounds):
        for name in (list(res) if r % 2 == 0 else list(reversed(list(res)))):
            u = servers[name]
            rc, out, err = E.run(["wrk", "-t1", "-c%d" % conns, "-d%ds" % seconds, u.url + "/bench?x=1"], seconds + 30)
            m = re.search(rb"Requests/sec:\s*([\d.]+)", out)
            res[name].append(float(m.group(1)) if m else 0.0)
    for u in servers.values():
        u.finish()
    for name, v in res.items():
        print("%-15s median %8.0f req/s  runs %s" % (name, statistics.median(v), " ".join("%.0f" % x for x in v)))
    a, b = statistics.median(res["http-parser"]), statistics.median(res["simdhttp layer"])
    print("ratio layer / http-parser: %.3f (wrk -t1 -c%d -d%ds, %d interleaved rounds)" % (b / a if a else 0, conns, seconds, rounds))


if __name__ == "__main__":
    import signal
    signal.signal(signal.SIGTERM, E.on_signal)
    args = sys.argv[1:]
    try:
        if args and args[0] == "--bench":
            bench(os.path.abspath(args[1]), os.path.abspath(args[2]))
        else:
            checks(os.path.abspath(args[0]))
    except KeyboardInterrupt as ex:
        E.check("run interrupted", False, ex)
    finally:
        E.cleanup()
    if not (args and args[0] == "--bench"):
        print("%d passed, %d failed" % (E.passed, E.failed), flush=True)
        sys.exit(1 if E.failed else 0)
