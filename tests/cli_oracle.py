#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An independent reference for `simdhttp parse`: a small, plain parser of WELL-FORMED HTTP/1.x
streams (RFC 9112) that prints the same JSON lines. It shares no code and no design with the C
parser: it works on the whole input with bytes.find/split, line by line.

It does not validate much: it is meant for inputs the C parser accepts. Anything it cannot make
sense of raises an exception (exit status 3), so a test comparing outputs fails loudly.

usage: cli_oracle.py [--request|--response|--auto] [--lenient F[,F...]] [--skip-body]
                     [--no-eof] [FILE|-]
Only the lenient flags obs_fold and keep_alive change what it does; other names are accepted
and ignored.
"""
import sys

WS = b" \t"


def jstr(b):
    """JSON string of a byte string: each byte one character U+0000..U+00FF; '"' and '\\' and
    bytes < 0x20 or >= 0x7f escaped as the C tool does."""
    out = ['"']
    for c in b:
        if c == 0x22:
            out.append('\\"')
        elif c == 0x5C:
            out.append('\\\\')
        elif c < 0x20 or c >= 0x7F:
            out.append('\\u%04x' % c)
        else:
            out.append(chr(c))
    out.append('"')
    return "".join(out)


def jfields(fields):
    return "[" + ",".join("[" + jstr(n) + "," + jstr(v) + "]" for n, v in fields) + "]"


class Incomplete(Exception):
    """The stream ended inside a message."""


def tokens(fields, name):
    """Comma-separated, lowercased list elements of every field called `name`."""
    out = []
    for n, v in fields:
        if n.lower() == name:
            out += [e.strip(WS).lower() for e in v.split(b",") if e.strip(WS)]
    return out


def read_line(data, pos):
    end = data.find(b"\r\n", pos)
    if end < 0:
        raise Incomplete()
    return data[pos:end], end + 2


def read_fields(data, pos, obs_fold):
    """Field lines up to the empty line. @return ([(name, value)], position after it)."""
    fields = []
    while True:
        line, pos = read_line(data, pos)
        if line == b"":
            return fields, pos
        if line[:1] in (b" ", b"\t"):
            if not obs_fold or not fields:
                raise ValueError("obs-fold without lenient obs_fold")
            # RFC 9112 5.2: the whole obs-fold (OWS CRLF RWS) becomes one SP
            n, v = fields[-1]
            rest = line.strip(WS)
            fields[-1] = (n, (v + b" " + rest) if v and rest else (v or rest))
            continue
        colon = line.index(b":")
        name = line[:colon]
        if not name or name[-1:] in (b" ", b"\t"):
            raise ValueError("bad field name %r" % name)
        fields.append((name, line[colon + 1:].strip(WS)))


def parse(data, mode, skip_body, obs_fold, no_eof, lenient_keep_alive=False):
    """@return the JSON lines of the complete messages of `data`."""
    out = []
    pos = 0
    closed = False
    while pos < len(data):
        if closed:
            # after a message that closed the connection only stray CR/LF may follow
            if data[pos:].strip(b"\r\n"):
                raise ValueError("data after close")
            break
        start = pos
        try:
            if mode == "auto":
                mode = "response" if data[pos:pos + 5] == b"HTTP/" else "request"
            if mode == "request":
                while data[pos:pos + 2] == b"\r\n":  # RFC 9112 2.2: empty lines before a request
                    pos += 2
                if pos == len(data):
                    break
            line, pos = read_line(data, pos)
            msg = {"type": mode}
            if mode == "request":
                method, target, version = line.split(b" ")
                msg["method"], msg["target"] = method, target
            else:
                version, rest = line.split(b" ", 1)
                status, reason = rest[:3], rest[4:]
                if rest[3:4] not in (b"", b" ") or not status.isdigit():
                    raise ValueError("bad status line %r" % line)
                msg["status"], msg["reason"] = int(status), reason
            if not version.startswith(b"HTTP/") or len(version) != 8:
                raise ValueError("bad version %r" % version)
            msg["version"] = version[5:]
            v11 = version[5:] >= b"1.1"
            fields, pos = read_fields(data, pos, obs_fold)
            msg["headers"] = fields
            trailers = []
            body = b""

            conn = tokens(fields, b"connection")
            te = tokens(fields, b"transfer-encoding")
            cl = [v for n, v in fields if n.lower() == b"content-length"]
            # RFC 9112 9.3: persistent by default in 1.1, only on request in 1.0
            keep_alive = (b"close" not in conn) if v11 else (b"keep-alive" in conn)
            status = msg.get("status", 0)
            if mode == "response":
                upgrade = status == 101  # RFC 9110 15.2.2: Switching Protocols
            else:  # RFC 9110 7.8 (Upgrade needs "Connection: upgrade"), 9.3.6 (CONNECT tunnel)
                upgrade = method == b"CONNECT" or (
                    any(n.lower() == b"upgrade" for n, v in fields) and b"upgrade" in conn)
            if skip_body or (mode == "response" and (status < 200 or status in (204, 304))):
                # RFC 9112 6.3 rule 1; --skip-body: no message has a body (llhttp's SKIP_BODY:
                # a response answers HEAD, a request's next bytes are the next request)
                framing = "none"
            elif mode == "request" and method == b"CONNECT":
                framing = "none"
            elif te:
                if not v11:
                    keep_alive = False  # RFC 9112 6.1: Transfer-Encoding in HTTP/1.0 is faulty
                framing = "chunked" if te[-1] == b"chunked" else "close"
            elif cl:
                framing = "length"
            else:
                framing = "none" if mode == "request" else "close"

            if framing == "length":
                n = int(cl[0])
                if len(data) - pos < n:
                    raise Incomplete()
                body, pos = data[pos:pos + n], pos + n
            elif framing == "chunked":
                parts = []
                while True:
                    line, pos = read_line(data, pos)
                    size = int(line.split(b";")[0].strip(WS), 16)
                    if size == 0:
                        break
                    if len(data) - pos < size + 2:
                        raise Incomplete()
                    if data[pos + size:pos + size + 2] != b"\r\n":
                        raise ValueError("chunk data not followed by CRLF")
                    parts.append(data[pos:pos + size])
                    pos += size + 2
                trailers, pos = read_fields(data, pos, obs_fold)
                body = b"".join(parts)
            elif framing == "close":
                if no_eof:
                    raise Incomplete()  # the end of this input is not the end of the stream
                body, pos = data[pos:], len(data)
                keep_alive = False
        except Incomplete:
            if no_eof:
                break
            raise
        if mode == "request":
            head = '{"type":"request","method":%s,"target":%s' % (jstr(msg["method"]), jstr(msg["target"]))
        else:
            head = '{"type":"response","status":%d,"reason":%s' % (msg["status"], jstr(msg["reason"]))
        out.append(head + ',"version":%s,"headers":%s,"body":%s,"trailers":%s,"keep_alive":%s,"upgrade":%s}' % (
            jstr(msg["version"]), jfields(fields), jstr(body), jfields(trailers),
            "true" if keep_alive else "false", "true" if upgrade else "false"))
        if upgrade:
            break  # the rest of the stream is another protocol
        informational = mode == "response" and status < 200
        if not keep_alive and not informational and not lenient_keep_alive:
            closed = True
        assert pos > start
    return out


def main(argv):
    mode, skip_body, no_eof, path = "auto", False, False, "-"
    lenient = []
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("--request", "--response", "--auto"):
            mode = a[2:]
        elif a == "--skip-body":
            skip_body = True
        elif a == "--no-eof":
            no_eof = True
        elif a == "--lenient":
            i += 1
            lenient += argv[i].split(",")
        else:
            path = a
        i += 1
    data = sys.stdin.buffer.read() if path == "-" else open(path, "rb").read()
    try:
        lines = parse(data, mode, skip_body, "obs_fold" in lenient, no_eof, "keep_alive" in lenient)
    except Exception as e:  # noqa: BLE001 - any surprise must fail the comparison
        sys.stderr.write("cli_oracle: cannot parse %s: %r\n" % (path, e))
        return 3
    sys.stdout.write("".join(l + "\n" for l in lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
