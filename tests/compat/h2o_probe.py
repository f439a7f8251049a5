#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Raw-socket requests for tests/compat/h2o.sh: each case is sent in one write on its own
connection to an h2o serving DOCROOT on 127.0.0.1:PORT; the responses read back (until the
server closes, at most 3 s and 4 MB) are summed up in one line, "NAME: SUMMARY":
the status of each response in order, then "close" if the server closed the connection or
"open" if it was still open when the time was up, then for cases whose responses carry files
"bodies-same" or "bodies-differ" (each body against the file the request named). h2o.sh runs
this against h2o on its own picohttpparser and on the layer and compares the two outputs.

    h2o_probe.py PORT DOCROOT
"""
import os
import socket
import sys
import time

H = "Host: 127.0.0.1\r\n"


def get(path, close=False):
    return "GET %s HTTP/1.1\r\n%s%s\r\n" % (path, H, "Connection: close\r\n" if close else "")


# name -> (request bytes, files whose bodies the 200 responses must carry, in order)
CASES = [
    # framing a real program relies on
    ("pipelined-4", get("/a.txt") + get("/big.bin") + get("/b.html") + get("/a.txt", True),
     ["a.txt", "big.bin", "b.html", "a.txt"]),
    ("post-content-length", "POST /a.txt HTTP/1.1\r\n" + H + "Content-Length: 11\r\n\r\nhello world" + get("/b.html", True),
     ["b.html"]),
    ("post-chunked", "POST /a.txt HTTP/1.1\r\n" + H + "Transfer-Encoding: chunked\r\n\r\n"
     "5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nTrailer-A: 1\r\n\r\n" + get("/b.html", True), ["b.html"]),
    ("head-then-get", "HEAD /big.bin HTTP/1.1\r\n" + H + "\r\n" + get("/a.txt", True), ["a.txt"]),
    ("http10", "GET /a.txt HTTP/1.0\r\n\r\n", ["a.txt"]),
    ("leading-empty-line", "\r\n" + get("/a.txt", True), ["a.txt"]),
    ("not-found", get("/nothing-here", True), []),
    # bad requests: where picohttpparser and the layer answer differently
    ("bare-lf-request-line", "GET /a.txt HTTP/1.1\n" + H + "Connection: close\r\n\r\n", ["a.txt"]),
    ("bare-lf-everywhere", "GET /a.txt HTTP/1.1\nHost: 127.0.0.1\nConnection: close\n\n", ["a.txt"]),
    ("obs-fold", "GET /a.txt HTTP/1.1\r\n" + H + "X-A: one\r\n two\r\nConnection: close\r\n\r\n", ["a.txt"]),
    ("cl-and-te", "POST /a.txt HTTP/1.1\r\n" + H + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
     "0\r\n\r\n" + get("/b.html", True), ["b.html"]),
    ("cl-differing-twice", "POST /a.txt HTTP/1.1\r\n" + H + "Content-Length: 3\r\nContent-Length: 5\r\n\r\nabcde" +
     get("/b.html", True), ["b.html"]),
    ("cl-not-a-number", "POST /a.txt HTTP/1.1\r\n" + H + "Content-Length: 1x\r\n\r\nabcde" + get("/b.html", True), ["b.html"]),
    ("te-not-chunked", "POST /a.txt HTTP/1.1\r\n" + H + "Transfer-Encoding: gzip\r\n\r\n" + get("/b.html", True), ["b.html"]),
    ("method-invalid-byte", "G@T /a.txt HTTP/1.1\r\n" + H + "Connection: close\r\n\r\n", []),
    ("method-ctl", "G\x01T /a.txt HTTP/1.1\r\n" + H + "Connection: close\r\n\r\n", []),
    ("space-before-colon", "GET /a.txt HTTP/1.1\r\n" + H + "X-A : 1\r\nConnection: close\r\n\r\n", ["a.txt"]),
    ("target-high-byte", "GET /a.txt?\xa0 HTTP/1.1\r\n" + H + "Connection: close\r\n\r\n", ["a.txt"]),
    ("http-1.2", "GET /a.txt HTTP/1.2\r\n" + H + "Connection: close\r\n\r\n", ["a.txt"]),
    ("chunk-size-junk", "POST /a.txt HTTP/1.1\r\n" + H + "Transfer-Encoding: chunked\r\n\r\n5 x\r\nhello\r\n0\r\n\r\n" +
     get("/b.html", True), ["b.html"]),
    ("chunk-data-bare-lf", "POST /a.txt HTTP/1.1\r\n" + H + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\n0\r\n\r\n" +
     get("/b.html", True), ["b.html"]),
]


def exchange(port, data, deadline=3.0, limit=4 << 20):
    """Sends data in one write; returns (bytes read, whether the server closed)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=deadline)
    end = time.monotonic() + deadline
    out = b""
    closed = False
    try:
        s.sendall(data)
        while len(out) < limit:
            left = end - time.monotonic()
            if left <= 0:
                break
            s.settimeout(left)
            try:
                b = s.recv(65536)
            except socket.timeout:
                break
            except ConnectionResetError:
                closed = True
                break
            if not b:
                closed = True
                break
            out += b
    finally:
        s.close()
    return out, closed


def responses(buf, heads):
    """Splits buf into (status, body) pairs; heads: the request methods in order (HEAD has no
    body). Stops at the first thing that is not a response."""
    res = []
    while buf:
        end = buf.find(b"\r\n\r\n")
        if end < 0 or not buf.startswith(b"HTTP/1."):
            res.append(("garbled", b""))
            break
        lines = buf[:end].split(b"\r\n")
        status = lines[0].split(b" ")[1].decode("latin-1") if len(lines[0].split(b" ")) > 1 else "?"
        fields = {}
        for line in lines[1:]:
            k, _, v = line.partition(b":")
            fields[k.strip().lower()] = v.strip()
        rest = buf[end + 4:]
        head = heads[len(res)] if len(res) < len(heads) else False
        if head or status[:1] == "1" or status in ("204", "304"):
            body = b""
        elif b"content-length" in fields:
            n = int(fields[b"content-length"])
            body, rest = rest[:n], rest[n:]
        elif fields.get(b"transfer-encoding", b"").lower() == b"chunked":
            body = b""
            while True:
                le = rest.find(b"\r\n")
                if le < 0:
                    break
                n = int(rest[:le].split(b";")[0], 16)
                if n == 0:
                    rest = rest[rest.find(b"\r\n\r\n", le) + 4:] if rest.find(b"\r\n\r\n", le) >= 0 else b""
                    break
                body += rest[le + 2:le + 2 + n]
                rest = rest[le + 4 + n:]
        else:
            body, rest = rest, b""
        res.append((status, None if head else body))
        buf = rest
    return res


def main():
    port, docroot = int(sys.argv[1]), sys.argv[2]
    for name, req, files in CASES:
        data = req.encode("latin-1")
        heads = [line.startswith(b"HEAD ") for line in data.split(b"\n") if line[:4] in (b"GET ", b"HEAD", b"POST")]
        out, closed = exchange(port, data)
        rs = responses(out, heads)
        summary = " ".join(s for s, _ in rs) or "none"
        summary += " close" if closed else " open"
        bodies = [b for s, b in rs if s == "200" and b is not None]  # not a HEAD's
        if files and bodies:
            want = []
            for f in files[:len(bodies)]:
                with open(os.path.join(docroot, f), "rb") as fh:
                    want.append(fh.read())
            summary += " bodies-same" if bodies == want else " bodies-differ"
        print("%s: %s" % (name, summary), flush=True)


if __name__ == "__main__":
    main()
