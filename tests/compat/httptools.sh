#!/bin/sh
# SPDX-License-Identifier: MIT
# A real http-parser program, unchanged, on the layer (issue 12): Debian's python-httptools
# 0.1.1 source (apt-get source, into $BUILD/peers/, never committed) is built with
# libsimdhttp-http-parser in place of libhttp_parser; its own test suite runs; then uvicorn
# (Debian's python3-uvicorn) serves tests/compat/asgi_echo.py on that build, driven by curl,
# wrk, http.client, Chromium and raw sockets (tests/compat/uvicorn_e2e.py).
#   tests/compat/httptools.sh                 the checks; last line "N passed, N failed"
#   tests/compat/httptools.sh --build KIND    only build KIND: layer, or real (against Debian's
#                                             libhttp_parser: the bench's baseline); prints its dir
# A missing package is a skip, or a failure when CI=true. The sanitizer build skips it: Python
# would load the layer without ASan's runtime (diff.py covers the layer under ASan).
set -u
BUILD=${BUILD:-build}
root=$(pwd)
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
peers=$BUILD/peers
. "$(dirname "$0")/lib.sh" # ok, ko, finish, missing, deb_source

# The source: apt-get source python-httptools. Debian's own patch set (the .debian.tar.xz) is
# not needed (its upstream tarball builds against a system http-parser) and has been missing
# from the archive at times: the .orig.tar.gz is enough.
fetch() {
    [ -f "$peers/httptools-src/setup.py" ] && return 0
    command -v apt-get >/dev/null 2>&1 || return 1
    mkdir -p "$peers/httptools-dl" && (cd "$peers/httptools-dl" && apt-get source --download-only -qq python-httptools >/dev/null 2>&1)
    orig=$(ls "$peers"/httptools-dl/python-httptools_*.orig.tar.gz 2>/dev/null | head -n 1)
    [ -n "$orig" ] || return 1
    rm -rf "$peers/httptools-src" && mkdir -p "$peers/httptools-src" &&
        tar xzf "$orig" -C "$peers/httptools-src" --strip-components=1 && rm -rf "$peers/httptools-dl"
}

# build KIND -> $peers/httptools-KIND (a copy of the source with the extension built in place)
build() {
    kind=$1; dir=$peers/httptools-$kind
    rm -rf "$dir" && cp -r "$peers/httptools-src" "$dir" && mkdir -p "$dir/lib" || return 1
    cflags="" ldflags=""
    if [ "$kind" = layer ]; then
        # the program's "vendor/http-parser/http_parser.h" and "-lhttp_parser" are the layer
        ln -sf "$root/compat/http_parser/include/http_parser.h" "$dir/vendor/http-parser/http_parser.h"
        printf 'CREATE %s\nADDLIB %s\nADDLIB %s\nSAVE\nEND\n' "$dir/lib/libhttp_parser.a" \
            "$BUILD/libsimdhttp-http-parser.a" "$BUILD/libsimdhttp.a" | ar -M || return 1
        cflags="-I$root/compat/http_parser/include -I$root/include"; ldflags="-L$root/$dir/lib"
    else
        ln -sf /usr/include/http_parser.h "$dir/vendor/http-parser/http_parser.h"
    fi
    # Cython output made here with Debian's cython3, so setup.py needs no Cython from PyPI
    (cd "$dir" && cython3 -3 httptools/parser/parser.pyx >/dev/null &&
        CFLAGS="$cflags" LDFLAGS="$ldflags" "$PY" setup.py -q build_ext --inplace --use-system-http-parser \
        >build.log 2>&1) || { tail -n 20 "$dir/build.log"; return 1; }
    ls "$dir"/httptools/parser/parser*.so >/dev/null 2>&1
}

case "${1:-}" in
    --build) fetch && build "$2" && echo "$peers/httptools-$2"; exit $? ;;
esac
case "$BUILD" in *asan*) echo "skip - sanitizer build (see the header)"; finish ;; esac
for t in cython3 curl; do command -v $t >/dev/null 2>&1 || missing "$t is not installed"; done
"$PY" -c "import uvicorn, pytest, setuptools" 2>/dev/null || missing "python3-uvicorn, python3-pytest or python3-setuptools is not installed"
[ -f "$(dirname "$PY")/../include/$(basename "$(readlink -f "$PY")")/Python.h" ] || "$PY" -c "import sysconfig,os,sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'],'Python.h')))" || missing "python3-dev is not installed"
fetch || missing "apt-get source python-httptools failed (deb-src entries?)"
dir=$peers/httptools-layer
if build layer; then ok; else ko "httptools built against the layer"; finish; fi
so=$(ls "$dir"/httptools/parser/parser*.so)
# the extension holds the layer and simdhttp's core, and needs no libhttp_parser
if ldd "$so" | grep -q http_parser; then ko "the extension links libhttp_parser: $(ldd "$so" | grep http_parser)"; else ok; fi
if nm "$so" | grep -q ' simdhttp_execute$' && nm "$so" | grep -q ' T http_parser_execute$'; then ok; else ko "the extension does not contain the layer"; fi

# Its own test suite, unchanged. tests/compat/httptools.known lists the tests expected to fail,
# each with the RFC reason; any other failure, or an expected one that passes, is a failure.
suite() { # suite NAME DIR -> compares failures with the known list for NAME
    out=$(cd "$2" && "$PY" -m pytest -p no:cacheprovider -q -rf tests 2>&1)
    got=$(echo "$out" | sed -n 's/^FAILED tests\/test_parser.py::\([A-Za-z_0-9:]*\).*/\1/p' | sort)
    want=$(sed -n "s/^$1 \([A-Za-z_0-9:]*\) .*/\1/p" "$root/tests/compat/httptools.known" | sort)
    n=$(echo "$out" | sed -n 's/.* \([0-9]*\) passed.*/\1/p' | tail -n 1)
    if [ "$got" = "$want" ] && [ -n "$n" ]; then
        ok; echo "# httptools test suite ($1): ${n} passed, $(echo "$want" | grep -c .) failed as listed in httptools.known"
    else
        ko "httptools test suite ($1): failures differ from httptools.known"
        echo "$out" | tail -n 30; echo "failed: $got"; echo "listed: $want"
    fi
}
suite unchanged "$dir"
# The same suite with its LF-only heads turned into CRLF (RFC 9112 2.2): the tests those
# heads made fail now run their real assertions on the layer.
crlf=$peers/httptools-layer-crlf
rm -rf "$crlf" && cp -r "$dir" "$crlf" && "$PY" - "$crlf/tests/test_parser.py" <<'PYEOF'
import re, sys
p = sys.argv[1]
s = open(p).read()
s = s.replace("class TestResponseParser(", "import re as _re\n"
              "for _n in ('RESPONSE1_HEAD', 'CHUNKED_REQUEST1_1', 'CHUNKED_REQUEST1_3', 'UPGRADE_REQUEST1'):\n"
              "    globals()[_n] = _re.sub(rb'(?<!\\r)\\n', b'\\r\\n', globals()[_n])\n\n\n"
              "class TestResponseParser(", 1)
open(p, "w").write(s)
PYEOF
suite crlf "$crlf"
rm -rf "$crlf"

# uvicorn on the layer
out=$(timeout -k 10 200 "$PY" "$root/tests/compat/uvicorn_e2e.py" "$dir" 2>&1)
echo "$out" | grep -E '^(not ok|skip|#)'
line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
[ -n "$line" ] || { ko "uvicorn_e2e.py printed no summary"; echo "$out" | tail -n 20; finish; }
passed=$((passed + ${line%% passed*})); failed=$((failed + $(echo "$line" | sed 's/.*passed, \([0-9]*\) failed.*/\1/')))
finish
