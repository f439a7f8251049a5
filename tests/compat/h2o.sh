#!/bin/sh
# SPDX-License-Identifier: MIT
# A real picohttpparser program, unchanged, on the layer (issue 33): the h2o server from
# Debian's h2o source package (apt-get source, into $BUILD/peers/, never committed) built with
# cmake (the `h2o` target only, no mruby, no picotls) twice: on its own picohttpparser
# (deps/picohttpparser, the baseline) and with deps/picohttpparser/picohttpparser.c and .h
# deleted from the copy, compat/picohttpparser/include/picohttpparser.h in their place and
# libsimdhttp-picohttpparser.so linked. Then:
#  1. the layer build defines no phr_* and binds phr_parse_request to libsimdhttp-picohttpparser.so
#     (nm, ldd, and the dynamic linker's own bindings at start-up) (one check);
#  2. picohttpparser's own unit test (deps/picohttpparser/test.c, picotest), on the real one:
#     all pass (one check); on the layer: every failing assertion is listed in
#     tests/compat/h2o.known (one check);
#  3. both servers on 127.0.0.1 serve a temporary directory (four files, one of 100 KB): curl
#     GET and HEAD of each file byte-exact, four requests on one kept-alive connection; then
#     tests/compat/h2o_probe.py's raw requests (pipelining, POST with Content-Length and chunked,
#     bad requests) on both, each answer the same on both or its difference listed in
#     tests/compat/h2o.known;
#  4. both proxy /proxy/ to examples/server.c (proxy.reverse.url): h2o's HTTP/1 client parses
#     that server's responses with phr_parse_response, the layer's in the layer build; a GET, a
#     POST of 100 KB and a chunked POST through each give the same echo on both (one check each);
#  5. wrk for 2 s against each, a smoke check: requests made, no errors.
#   tests/compat/h2o.sh                  the checks; last line "N passed, N failed"
#   tests/compat/h2o.sh --build KIND     only build KIND (real or layer); prints the binary
#   tests/compat/h2o.sh --bench [ROUNDS] [SECONDS]   make bench-h2o: wrk requests/s of both,
#                                        interleaved rounds (default 5 of 5 s), medians, ratio
# A listed difference that is no longer one prints "now same: ..." (trim the list). A missing
# tool or package is a skip, or a failure when CI=true. The sanitizer builds skip it: h2o would
# load the instrumented layer without the sanitizer's runtime.
set -u
BUILD=${BUILD:-build}
root=$(pwd)
case "$BUILD" in /*) absbuild=$BUILD ;; *) absbuild=$root/$BUILD ;; esac
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
peers=$BUILD/peers
known=$root/tests/compat/h2o.known
. "$(dirname "$0")/lib.sh" # ok, ko, finish, missing, deb_source

# The source: Debian's h2o, its patches applied.
fetch() { deb_source h2o "$peers/h2o-src" deps/picohttpparser/picohttpparser.c; }

# build KIND -> $peers/h2o-KIND/b/h2o (a copy of the source; cmake, the h2o target only)
build() {
    kind=$1; dir=$peers/h2o-$kind
    rm -rf "$dir" "$dir.log" && cp -r "$peers/h2o-src" "$dir" || return 1
    cflags=""
    if [ "$kind" = layer ]; then
        # no picohttpparser of h2o's own: its source and header are gone from the copy, the
        # layer's header is found through -I, the layer's shared library is linked
        rm -f "$dir/deps/picohttpparser/picohttpparser.c" "$dir/deps/picohttpparser/picohttpparser.h" &&
            sed -i '\|deps/picohttpparser/picohttpparser\.c|d' "$dir/CMakeLists.txt" &&
            echo "TARGET_LINK_LIBRARIES(h2o \"$absbuild/libsimdhttp-picohttpparser.so\")" >> "$dir/CMakeLists.txt" || return 1
        cflags="-I$root/compat/picohttpparser/include -I$root/include"
    fi
    { timeout 600 cmake -S "$dir" -B "$dir/b" -Wno-dev -DCMAKE_BUILD_TYPE=None -DWITH_MRUBY=OFF -DWITH_PICOTLS=OFF \
        -DCMAKE_C_FLAGS="$cflags" && timeout 900 cmake --build "$dir/b" --target h2o -j "$(nproc 2>/dev/null || echo 2)"; } \
        >"$dir.log" 2>&1 || { tail -n 20 "$dir.log"; return 1; }
    [ -x "$dir/b/h2o" ]
}

# picotest KIND: picohttpparser's test.c on KIND's copy (the layer's has no picohttpparser.h
# beside test.c, so its #include "picohttpparser.h" finds the layer's)
picotest() {
    dir=$peers/h2o-$1; d=$dir/deps
    if [ "$1" = layer ]; then
        lib="-I$root/compat/picohttpparser/include -I$root/include -L$absbuild -lsimdhttp-picohttpparser -Wl,-rpath,$absbuild"
    else
        lib="$d/picohttpparser/picohttpparser.c"
    fi
    cc -O2 -w -I"$d" "$d/picohttpparser/test.c" "$d/picotest/picotest.c" $lib -o "$dir/picotest" >"$dir/picotest.log" 2>&1 ||
        { cat "$dir/picotest.log"; return 1; }
    timeout 60 "$dir/picotest" >"$dir/picotest.out" 2>&1
    return 0
}

pids=""
tmp=$(mktemp -d)
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
free_port() { "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# serve KIND: starts $peers/h2o-KIND/b/h2o on a free port of 127.0.0.1 (one thread, serving
# $tmp/doc; at most 30 minutes), sets $port and $pid; waits until it answers (10 s at most)
serve() {
    port=$(free_port)
    { printf 'listen:\n  host: 127.0.0.1\n  port: %s\nnum-threads: 1\nerror-log: %s\n' "$port" "$tmp/$1.err"
      # as root h2o switches to nobody, who cannot read the temporary directory
      [ "$(id -u)" = 0 ] && printf 'user: root\n'
      printf 'hosts:\n  default:\n    paths:\n      /:\n        file.dir: %s\n' "$tmp/doc"
      [ -n "$sport" ] && printf '      /proxy:\n        proxy.reverse.url: http://127.0.0.1:%s/\n' "$sport"; } > "$tmp/$1.conf"
    timeout -k 5 1800 "$peers/h2o-$1/b/h2o" -c "$tmp/$1.conf" >"$tmp/$1.out" 2>&1 &
    pid=$!; pids="$pids $pid"
    i=0
    while [ $i -lt 50 ]; do
        curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/a.txt" && return 0
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2; i=$((i + 1))
    done
    cat "$tmp/$1.out" "$tmp/$1.err" 2>/dev/null | tail -n 10
    return 1
}

docroot() {
    mkdir -p "$tmp/doc" && printf 'hello, h2o\n' > "$tmp/doc/a.txt" &&
        printf '<!doctype html><title>t</title><p>served by h2o</p>\n' > "$tmp/doc/b.html" &&
        : > "$tmp/doc/empty.txt" && head -c 102400 /dev/urandom > "$tmp/doc/big.bin"
}
files="a.txt b.html empty.txt big.bin"

# wrk_rps URL SECONDS [wrk args]: "REQUESTS RPS ERRORS" of one wrk run
wrk_run() {
    url=$1; s=$2; shift 2
    out=$(timeout $((s + 30)) wrk -t1 -c16 -d"${s}s" "$@" "$url" 2>&1)
    req=$(printf '%s\n' "$out" | sed -n 's/^ *\([0-9]*\) requests in .*/\1/p')
    rps=$(printf '%s\n' "$out" | sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p')
    err=$(printf '%s\n' "$out" | grep -E 'Socket errors|Non-2xx' | tr -s ' ' | tr '\n' ';')
    echo "${req:-0} ${rps:-0} ${err:-none}"
}

bench() {
    rounds=${1:-5}; secs=${2:-5}
    for k in real layer; do build $k >/dev/null || { echo "bench-h2o: the $k build failed ($peers/h2o-$k.log)"; exit 1; }; done
    docroot || exit 1
    # the fields of corpus/browser-get.http (Host is wrk's): the parser's share of the work as a
    # browser sends it
    set -- -H 'sec-ch-ua: "Chromium";v="130", "Google Chrome";v="130", "Not?A_Brand";v="99"' -H 'sec-ch-ua-mobile: ?0' \
        -H 'sec-ch-ua-platform: "Linux"' -H 'Upgrade-Insecure-Requests: 1' \
        -H 'User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36' \
        -H 'Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7' \
        -H 'Sec-Fetch-Site: same-origin' -H 'Sec-Fetch-Mode: navigate' -H 'Sec-Fetch-User: ?1' -H 'Sec-Fetch-Dest: document' \
        -H 'Referer: https://www.example.com/' -H 'Accept-Encoding: gzip, deflate, br, zstd' -H 'Accept-Language: en-US,en;q=0.9,de;q=0.8' \
        -H 'Connection: keep-alive' -H "Cookie: $(sed -n 's/^Cookie: //p' corpus/browser-get.http | tr -d '\r')"
    serve real || exit 1; preal=$port
    serve layer || exit 1; players=$port
    echo "h2o $(cat "$peers/h2o-src/SOURCE") (num-threads: 1), GET /a.txt (11 bytes) with browser-get's 16 fields;" \
        "wrk -t1 -c16 -d${secs}s, $rounds interleaved rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
    r=1; : > "$tmp/real.rps"; : > "$tmp/layer.rps"
    while [ $r -le "$rounds" ]; do
        for k in real layer; do
            [ $k = real ] && p=$preal || p=$players
            res=$(wrk_run "http://127.0.0.1:$p/a.txt" "$secs" "$@")
            echo "round $r $k: $res"
            echo "$res" | cut -d' ' -f2 >> "$tmp/$k.rps"
        done
        r=$((r + 1))
    done
    med() { sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
    mr=$(med "$tmp/real.rps"); ml=$(med "$tmp/layer.rps")
    printf 'h2o on picohttpparser  median %10.0f req/s  runs %s\n' "$mr" "$(tr '\n' ' ' < "$tmp/real.rps")"
    printf 'h2o on the layer       median %10.0f req/s  runs %s\n' "$ml" "$(tr '\n' ' ' < "$tmp/layer.rps")"
    awk -v a="$mr" -v b="$ml" 'BEGIN { printf "ratio layer / picohttpparser: %.3f\n", (a > 0 ? b / a : 0) }'
}

case "${1:-}" in
    --build) fetch && build "$2" && echo "$peers/h2o-$2/b/h2o"; exit $? ;;
    --bench) shift
        for t in wrk cmake c++ curl pkg-config dpkg-source; do
            command -v $t >/dev/null 2>&1 || { echo "bench-h2o: $t is not installed (scripts/deps.sh test): no table"; exit 0; }
        done
        pkg-config --exists openssl zlib yaml-0.1 ||
            { echo "bench-h2o: libssl-dev, zlib1g-dev or libyaml-dev is not installed (scripts/deps.sh test): no table"; exit 0; }
        fetch || { echo "bench-h2o: apt-get source h2o failed: no table"; exit 0; }
        bench "$@"; exit $? ;;
esac
case "$BUILD" in *asan*|*msan*) echo "skip - sanitizer build (see the header)"; finish ;; esac
[ -f "$BUILD/libsimdhttp-picohttpparser.so" ] || { ko "$BUILD/libsimdhttp-picohttpparser.so is not built"; finish; }
for t in cmake cc c++ nm ldd curl wrk dpkg-source pkg-config; do
    command -v $t >/dev/null 2>&1 || missing "$t is not installed"
done
pkg-config --exists openssl zlib yaml-0.1 || missing "libssl-dev, zlib1g-dev or libyaml-dev is not installed"
fetch || missing "apt-get source h2o failed (deb-src entries?)"
echo "# source: $(cat "$peers/h2o-src/SOURCE")"
for k in real layer; do
    if build $k; then ok; else ko "h2o built on the $k picohttpparser ($peers/h2o-$k.log)"; finish; fi
done

# 1: the layer build compiles no picohttpparser.c, defines no phr_* and takes them from the
# layer's shared library, as the dynamic linker binds them (LD_BIND_NOW: all at start-up)
bin=$peers/h2o-layer/b/h2o
def=$(nm --defined-only "$bin" | awk '$3 ~ /^phr_/ { print $3 }')
undef=$(nm -D --undefined-only "$bin" | awk '$2 ~ /^phr_/ { print $2 }' | sort | tr '\n' ' ')
lib=$(ldd "$bin" | awk '$1 ~ /^libsimdhttp-picohttpparser\.so/ { print $3 }')
bound=$(LD_BIND_NOW=1 LD_DEBUG=bindings timeout 10 "$bin" --version 2>&1 | grep "normal symbol .phr_parse_request'")
if [ -z "$def" ] && [ -z "$(find "$peers/h2o-layer/deps" "$peers/h2o-layer/b" -name 'picohttpparser.[ch]*')" ] && [ "$lib" -ef "$BUILD/libsimdhttp-picohttpparser.so" ] &&
    printf '%s\n' "$bound" | grep -q "to $lib \[0\]: normal symbol .phr_parse_request' \[SIMDHTTP_PICOHTTPPARSER_0\]"; then
    ok; echo "# h2o defines no phr_*; takes ${undef}from $lib"
else
    ko "h2o does not take picohttpparser from the layer (defined: $def; undefined: $undef; ldd: $lib; binding: $bound)"
fi

# 2: picohttpparser's test.c
if picotest real && picotest layer; then
    if grep -q '^not ok' "$peers/h2o-real/picotest.out" || [ "$(tail -n 1 "$peers/h2o-real/picotest.out")" != "1..5" ]; then
        ko "picohttpparser's test.c fails on picohttpparser itself"; grep -B 2 'not ok' "$peers/h2o-real/picotest.out" | head -n 20
    else ok; fi
    out=$peers/h2o-layer/picotest.out
    # "picotest SUBTEST LINE", a failing assertion (picotest names it by its line in test.c)
    got=$(awk '/# Subtest: / { sub(/.*# Subtest: /, ""); st = $0 } /^ +not ok [0-9]+ - / { print "picotest " st " " $NF }' "$out" | sort -u)
    # from h2o.known; ?LINE may pass or fail (see there)
    keys=$(sed -n 's/ -- .*//; s/^picotest \([^ ]*\) \(.*\)/\1 \2/p' "$known" |
        while read -r st lines; do for l in $lines; do echo "picotest $st $l"; done; done | sort -u)
    want=$(printf '%s\n' "$keys" | tr -d '?'); sure=$(printf '%s\n' "$keys" | grep -v '?')
    [ "$(tail -n 1 "$out")" = "1..5" ] || ko "picohttpparser's test.c on the layer did not run to its end: $(tail -n 3 "$out")"
    n=$(grep -cE '^ +(not )?ok [0-9]+ ' "$out")
    new=$(printf '%s\n' "$got" | grep -vxF -e "$want" | grep .)
    if [ -n "$new" ]; then
        ko "picohttpparser's test.c on the layer: failures not in tests/compat/h2o.known: $(printf '%s\n' "$new" | tr '\n' ' ')"
    else ok; fi
    printf '%s\n' "$sure" | grep -vxF -e "$got" | grep . | sed 's/^/now same: /'
    echo "# picohttpparser's test.c on the layer: $n assertions, $(printf '%s\n' "$got" | grep -c .) fail (h2o.known)"
else
    ko "picohttpparser's test.c did not build"
fi

# 3: the two servers (and examples/server.c behind both, for 4)
docroot || { ko "temporary files"; finish; }
sport=""
if [ -x "$BUILD/examples/server" ]; then
    sport=$(free_port)
    timeout -k 5 1800 "$BUILD/examples/server" "$sport" >"$tmp/echo.out" 2>&1 &
    pids="$pids $!"
else
    ko "$BUILD/examples/server is not built (make examples): no proxy checks"
fi
serve real && preal=$port && pidreal=$pid || { ko "h2o (picohttpparser) did not start"; finish; }
serve layer && players=$port && pidlayer=$pid || { ko "h2o (layer) did not start"; finish; }
for k in real layer; do
    [ $k = real ] && url=http://127.0.0.1:$preal || url=http://127.0.0.1:$players
    for f in $files; do
        size=$(wc -c < "$tmp/doc/$f")
        code=$(curl -sS --max-time 10 -o "$tmp/got" -w '%{http_code}' "$url/$f")
        if [ "$code" = 200 ] && cmp -s "$tmp/got" "$tmp/doc/$f"; then ok; else ko "$k: GET /$f: $code, body differs"; fi
        code=$(curl -sS --max-time 10 -I -o "$tmp/head" -w '%{http_code}' "$url/$f")
        if [ "$code" = 200 ] && tr -d '\r' < "$tmp/head" | grep -qix "content-length: $size"; then ok
        else ko "$k: HEAD /$f: $code, Content-Length not $size: $(tr -d '\r' < "$tmp/head" | tr '\n' '|')"; fi
    done
    # four requests on one connection: one connect, the others reuse it
    conns=$(curl -sS --max-time 20 -w '%{num_connects} %{http_code}\n' -o "$tmp/k1" "$url/big.bin" -o "$tmp/k2" "$url/a.txt" \
        -o "$tmp/k3" "$url/big.bin" -o "$tmp/k4" "$url/b.html")
    if [ "$(echo "$conns" | tr '\n' ' ')" = "1 200 0 200 0 200 0 200 " ] && cmp -s "$tmp/k1" "$tmp/doc/big.bin" &&
        cmp -s "$tmp/k2" "$tmp/doc/a.txt" && cmp -s "$tmp/k3" "$tmp/doc/big.bin" && cmp -s "$tmp/k4" "$tmp/doc/b.html"; then ok
    else ko "$k: keep-alive, four requests (connects and status: $(echo "$conns" | tr '\n' ' '))"; fi
    timeout 120 "$PY" tests/compat/h2o_probe.py "${url##*:}" "$tmp/doc" > "$tmp/$k.probe" 2>&1 ||
        { ko "$k: h2o_probe.py: $(tail -n 3 "$tmp/$k.probe")"; }
done
# the raw requests: each answer the same on both, or "probe NAME: REAL => LAYER" listed
want=$(sed -n 's/ -- .*//; s/^probe //p' "$known")
n=0; same=0
while IFS= read -r line; do
    name=${line%%: *}; l=${line#*: }
    r=$(sed -n "s/^$name: //p" "$tmp/real.probe")
    n=$((n + 1))
    if [ "$r" = "$l" ]; then
        same=$((same + 1)); ok
        printf '%s\n' "$want" | grep -q "^$name: " && echo "now same: probe $name: $l"
    elif printf '%s\n' "$want" | grep -qxF "$name: $r => $l"; then ok
    else ko "probe $name: picohttpparser: $r; layer: $l (not in tests/compat/h2o.known)"; fi
done < "$tmp/layer.probe"
[ "$n" -ge 20 ] || ko "h2o_probe.py ran $n cases"
pipe=$(sed -n 's/^pipelined-4: //p' "$tmp/layer.probe")
[ "$pipe" = "200 200 200 200 close bodies-same" ] && ok || ko "pipelined-4 on the layer: $pipe"
echo "# raw requests: $n, $same answered the same, $((n - same)) differences listed in h2o.known"

# 4: through h2o's reverse proxy to examples/server.c, whose JSON echo says what it received:
# h2o reads that answer with phr_parse_response (the layer's in the layer build)
if [ -n "$sport" ]; then
    for k in real layer; do
        [ $k = real ] && url=http://127.0.0.1:$preal || url=http://127.0.0.1:$players
        curl -sS --max-time 10 -o "$tmp/$k.px1" "$url/proxy/get?q=1" 2>>"$tmp/$k.pxerr"
        curl -sS --max-time 10 -o "$tmp/$k.px2" --data-binary "@$tmp/doc/big.bin" -H 'Content-Type: application/octet-stream' \
            "$url/proxy/post" 2>>"$tmp/$k.pxerr"
        curl -sS --max-time 10 -o "$tmp/$k.px3" --data-binary "@$tmp/doc/b.html" -H 'Transfer-Encoding: chunked' \
            "$url/proxy/chunked" 2>>"$tmp/$k.pxerr"
    done
    for i in 1 2 3; do
        want=$(case $i in 1) echo '"target":"/get?q=1"' ;; 2) echo '"body_length":102400' ;; 3) echo '"body_length":'"$(wc -c < "$tmp/doc/b.html")" ;; esac)
        if cmp -s "$tmp/real.px$i" "$tmp/layer.px$i" && grep -qF "$want" "$tmp/layer.px$i"; then ok
        else ko "proxy $i: picohttpparser: $(head -c 300 "$tmp/real.px$i"); layer: $(head -c 300 "$tmp/layer.px$i") (want $want)"; fi
    done
    echo "# through the proxy, the layer's echo: $(head -c 200 "$tmp/layer.px2")"
fi

# 5: wrk, a smoke check; the servers are still up after everything
for k in real layer; do
    [ $k = real ] && p=$preal || p=$players
    res=$(wrk_run "http://127.0.0.1:$p/b.html" 2)
    set -- $res
    if [ "$1" -gt 0 ] && [ "$3" = none ]; then ok; echo "# wrk 2 s, $k: $1 requests"; else ko "wrk on $k: $res"; fi
done
for k in real layer; do
    [ $k = real ] && p=$pidreal || p=$pidlayer
    kill -0 "$p" 2>/dev/null && ok || { ko "h2o ($k) is no longer running"; tail -n 5 "$tmp/$k.err"; }
done
finish
