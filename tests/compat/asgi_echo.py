# SPDX-License-Identifier: MIT
"""A small ASGI app for tests/compat/uvicorn_e2e.py: uvicorn serves it on httptools rebuilt
against simdhttp's http-parser layer. Every request is answered with a JSON echo of what the
parser gave (method, target, version, field count, body length and FNV-1a hash), so a client
can check the parse; GET /page is an HTML page whose script POSTs to /from-browser (Chromium);
GET /which names the httptools module in use."""
import json


def fnv1a64(data, h=0xcbf29ce484222325):
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


PAGE = b"""<!doctype html><html><body><p id="s">served by uvicorn on simdhttp</p><pre id="e"></pre>
<script>
var x = new XMLHttpRequest();
x.open("POST", "/from-browser?q=1", false);
x.send("hello from the browser");
document.getElementById("e").textContent = "echo: " + x.responseText;
</script></body></html>"""


async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    body, h = 0, 0xcbf29ce484222325
    more = True
    while more:
        m = await receive()
        chunk = m.get("body", b"")
        body += len(chunk)
        for b in chunk:  # FNV-1a, streamed
            h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
        more = m.get("more_body", False)
    target = scope["raw_path"].decode("latin-1")
    if scope["query_string"]:
        target += "?" + scope["query_string"].decode("latin-1")
    if scope["method"] == "GET" and scope["path"] == "/page":
        out, ctype = PAGE, b"text/html"
    elif scope["path"] == "/which":
        import importlib
        out, ctype = importlib.import_module("httptools.parser.parser").__file__.encode(), b"text/plain"
    else:
        out = json.dumps({"method": scope["method"], "target": target, "version": scope["http_version"],
                          "fields": len(scope["headers"]), "body_length": body,
                          "body_fnv1a64": "%016x" % h}, separators=(",", ":")).encode()
        ctype = b"application/json"
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", ctype), (b"content-length", str(len(out)).encode())]})
    await send({"type": "http.response.body", "body": out})
