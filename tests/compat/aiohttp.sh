#!/bin/sh
# SPDX-License-Identifier: MIT
# A real llhttp program, unchanged, on the layer (issue 33): Debian's python-aiohttp 3.8.4 source
# (apt-get source, into $BUILD/peers/, never committed) has its C parser (aiohttp/_http_parser.pyx,
# Cython) built against libsimdhttp-llhttp.so and compat/llhttp/include/llhttp.h, with aiohttp's
# own vendored llhttp (vendor/llhttp) deleted from the copy first: none of it is compiled or
# linked. Then aiohttp's own tests run on that build: tests/test_http_parser.py (the Python and
# the C parser) and the client/server tests that stay on 127.0.0.1 (test_client_functional.py,
# test_web_functional.py, test_web_server.py; the C parser is the one they use).
#   tests/compat/aiohttp.sh                 the checks; last line "N passed, N failed"
#   tests/compat/aiohttp.sh --build KIND    only build KIND: layer, or vendored (aiohttp's own
#                                           llhttp 6.0.6, as its setup.py builds it: the baseline
#                                           tests/compat/aiohttp.known is made against); prints its dir
#   tests/compat/aiohttp.sh --pytest KIND [ARGS]  build KIND and run the suites on it, pytest's output as is
# tests/compat/aiohttp.known lists the tests that fail on the layer and pass on the vendored
# build; any other failure fails this script, a listed test that passes is printed as
# "now passes: ..." (trim the list). A missing package is a skip, or a failure when CI=true. The
# sanitizer builds skip it: Python would load the layer without the sanitizer's runtime.
set -u
BUILD=${BUILD:-build}
root=$(pwd)
case "$BUILD" in /*) absbuild=$BUILD ;; *) absbuild=$root/$BUILD ;; esac
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
peers=$BUILD/peers
known=$root/tests/compat/aiohttp.known
files="tests/test_http_parser.py tests/test_client_functional.py tests/test_web_functional.py tests/test_web_server.py"
. "$(dirname "$0")/lib.sh" # ok, ko, finish, missing, deb_source

# The source: Debian's python-aiohttp (its patches include the security fixes to the parsers),
# or upstream's .orig.tar.gz when no .dsc can be had.
fetch() { deb_source python-aiohttp "$peers/aiohttp-src" setup.py orig; }

# build KIND -> $peers/aiohttp-KIND: a copy of the source with its four extensions built in
# place (Cython output made here with Debian's cython3, as upstream's Makefile does it).
build() {
    kind=$1; dir=$peers/aiohttp-$kind
    rm -rf "$dir" && cp -r "$peers/aiohttp-src" "$dir" || return 1
    inc=$("$PY" -c "import sysconfig; print(sysconfig.get_paths()['include'])")
    ext=$("$PY" -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
    cc="${CC_PY:-cc} -shared -fPIC -O2 -g -w -I$inc"
    if [ "$kind" = layer ]; then
        # no llhttp of aiohttp's own: the include its .pxd names is the layer's header
        rm -rf "$dir/vendor/llhttp" && mkdir -p "$dir/vendor/llhttp/build" &&
            ln -s "$root/compat/llhttp/include/llhttp.h" "$dir/vendor/llhttp/build/llhttp.h" || return 1
        llhttp="-I$root/compat/llhttp/include -I$root/include -L$absbuild -lsimdhttp-llhttp -Wl,-rpath,$absbuild"
    else
        llhttp="-DLLHTTP_STRICT_MODE=0 -Ivendor/llhttp/build vendor/llhttp/build/c/llhttp.c vendor/llhttp/src/native/api.c vendor/llhttp/src/native/http.c"
    fi
    (
        cd "$dir" || exit 1
        for m in _websocket _http_parser _helpers _http_writer; do
            cython3 -3 -o aiohttp/$m.c aiohttp/$m.pyx -I aiohttp || exit 1
        done
        for m in _websocket _helpers _http_writer; do
            $cc aiohttp/$m.c -o aiohttp/$m$ext || exit 1
        done
        echo "$cc aiohttp/_http_parser.c aiohttp/_find_header.c $llhttp -o aiohttp/_http_parser$ext" > compile.txt
        $cc aiohttp/_http_parser.c aiohttp/_find_header.c $llhttp -o aiohttp/_http_parser$ext
    ) >"$dir.log" 2>&1 || { tail -n 20 "$dir.log"; return 1; }
    # the tests import this copy's aiohttp; the C parser must be the one in use
    (cd "$dir" && env -u AIOHTTP_NO_EXTENSIONS "$PY" -c '
import aiohttp.http_parser as h, aiohttp._http_parser as c, os
assert h.HttpRequestParser is c.HttpRequestParser and h.HttpResponseParser is c.HttpResponseParser, "the C parser is not in use"
assert os.path.dirname(os.path.abspath(c.__file__)) == os.path.abspath("aiohttp"), c.__file__
') >>"$dir.log" 2>&1 || { tail -n 5 "$dir.log"; return 1; }
}

# pytest KIND [ARGS]: the suites on $peers/aiohttp-KIND, bounded; the source's own setup.cfg
# (warnings are errors) less its addopts (coverage). Left out: three tests whose teardown waits
# 10 s each for the test server's shutdown (on the vendored build too), a third of the runtime.
slow="test_100_continue_for_not_found test_post_max_client_size test_100_continue_custom_response"
pytest() {
    (cd "$peers/aiohttp-$1" && shift && env -u AIOHTTP_NO_EXTENSIONS timeout -k 10 600 \
        "$PY" -m pytest -p no:cacheprovider -o addopts= -q \
        $(for t in $slow; do printf ' --deselect tests/test_web_functional.py::%s[pyloop]' $t; done) "$@" $files)
}

case "${1:-}" in
    --build) fetch && build "$2" && echo "$peers/aiohttp-$2"; exit $? ;;
    --pytest) kind=$2; shift 2; fetch && build "$kind" && pytest "$kind" -rfE "$@"; exit $? ;;
esac
case "$BUILD" in *asan*|*msan*) echo "skip - sanitizer build (see the header)"; finish ;; esac
[ -f "$BUILD/libsimdhttp-llhttp.so" ] || { ko "$BUILD/libsimdhttp-llhttp.so is not built"; finish; }
for t in cython3 cc nm ldd; do command -v $t >/dev/null 2>&1 || missing "$t is not installed"; done
"$PY" -c "import pytest, pytest_mock, multidict, yarl, async_timeout, frozenlist, aiosignal, charset_normalizer, attr" 2>/dev/null ||
    missing "python3-pytest, -pytest-mock, -multidict, -yarl, -async-timeout, -frozenlist, -aiosignal, -charset-normalizer or -attr is not installed"
"$PY" -c "import sysconfig,os,sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'],'Python.h')))" ||
    missing "python3-dev is not installed"
fetch || missing "apt-get source python-aiohttp failed (deb-src entries?)"
echo "# source: $(cat "$peers/aiohttp-src/SOURCE")"
dir=$peers/aiohttp-layer
if build layer; then ok; else ko "aiohttp's C parser built against the layer"; finish; fi
so=$(ls "$dir"/aiohttp/_http_parser.*.so)

# No llhttp of aiohttp's own: its vendor/llhttp is gone from the copy, the compile names no
# llhttp source, the extension defines no llhttp_* and takes them from libsimdhttp-llhttp.so.
if [ -z "$(find "$dir/vendor" -name '*.c')" ] && ! grep -q 'llhttp[^ ]*\.c' "$dir/compile.txt"; then ok
else ko "an llhttp source is in the layer build: $(cat "$dir/compile.txt")"; fi
def=$(nm --defined-only "$so" | awk '$3 ~ /^llhttp_/ { print $3 }')
undef=$(nm -D --undefined-only "$so" | awk '$2 ~ /^llhttp_/ { print $2 }' | sort)
lib=$(ldd "$so" | awk '$1 ~ /^libsimdhttp-llhttp\.so/ { print $3 }')
# each one bound to the layer's symbol version, which the layer's .so defines
libdef=$(nm -D --defined-only "$lib" 2>/dev/null | awk '{ print $3 }' | sed 's/@@*/@/')
stray=$(printf '%s\n' "$undef" | grep -vxF -e "$libdef")
if [ -z "$def" ] && [ -n "$undef" ] && [ -z "$stray" ] && [ "$lib" -ef "$BUILD/libsimdhttp-llhttp.so" ]; then
    ok; echo "# $(basename "$so") defines no llhttp_*; takes $(echo "$undef" | sed 's/@.*//' | tr '\n' ' ')from $lib ($(echo "$undef" | sed -n '1s/.*@//p'))"
else
    ko "the extension does not take llhttp from the layer (defined: $def; undefined: $undef; not in $lib: $stray)"
fi

# aiohttp's own tests, compared with the known list (printf, not echo: ids hold backslashes)
out=$(pytest layer -rfEp 2>&1); rc=$?
ids() { printf '%s\n' "$out" | sed -n "s/^$1 \(tests\/.*\)/\1/p" | sed 's/ - .*//' | sort -u; }
got=$( (ids FAILED; ids ERROR) | sort -u); ran_ok=$(ids PASSED)
# lines "orig-only ID -- reason": tests as upstream ships them that Debian's patches change
want=$( (grep '^tests/' "$known"; grep -q 'no Debian patches' "$peers/aiohttp-src/SOURCE" &&
    sed -n 's/^orig-only //p' "$known") | sed 's/ -- .*//' | sort -u)
summary=$(printf '%s\n' "$out" | grep -E '^=* *[0-9]+ (passed|failed)' | tail -n 1 | tr -d '=' | sed 's/ in [0-9.]*s.*//')
new=$(printf '%s\n' "$got" | grep -vxF -e "$want" | grep .)
gone=$(printf '%s\n' "$want" | grep -xF -e "$ran_ok" | grep .)
if [ "$rc" -gt 1 ] || [ -z "$summary" ]; then
    ko "aiohttp's tests did not run to their end (pytest exit $rc)"; printf '%s\n' "$out" | tail -n 30
elif [ -n "$new" ]; then
    ko "aiohttp's tests: failures not in tests/compat/aiohttp.known:"; printf '%s\n' "$new" | sed 's/^/    /'
    printf '%s\n' "$out" | grep -E '^(FAILED|ERROR) ' | head -n 40
else
    ok
fi
[ -n "$gone" ] && printf '%s\n' "$gone" | sed 's/^/now passes: /'
echo "# aiohttp's tests on the layer:$summary; $(printf '%s\n' "$got" | grep -c .) failures, $(printf '%s\n' "$got" | grep -xF -e "$want" | grep -c .) of them in aiohttp.known"
finish
