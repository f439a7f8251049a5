#!/bin/sh
# SPDX-License-Identifier: MIT
# Tests of `simdhttp parse` ($BUILD/simdhttp): its JSON must equal what tests/cli_oracle.py (an
# independent Python parser) prints, for every corpus file and for hand-made streams, and be
# the same whether the input is fed whole or in pieces of 1, 2, 3, 7, 13 or 64 bytes. Errors
# (with the byte at the offset, a space in the target, a TLS ClientHello), exit statuses (0, 1,
# 2 usage, 3 I/O), --help everywhere, output streamed from a pipe that stays open, --no-eof,
# --skip-body (requests too), lenient obs_fold, byte-exact JSON strings, upgrades and bad usage
# have their own checks. Ends with "N passed, N failed".
BUILD=${BUILD:-build}
BIN=$BUILD/simdhttp
ORACLE="python3 tests/cli_oracle.py"
SPLITS="1 2 3 7 13 64"
# Watchdogs, not timings: a broken build must not loop forever or fill the disk.
ulimit -f 200000 2>/dev/null
WD="timeout 120"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
pass=0
fail=0

ok() { pass=$((pass + 1)); }
notok() {
    fail=$((fail + 1))
    echo "not ok - $*"
}
# check NAME COMMAND...: one check, passes if COMMAND succeeds
check() {
    name=$1
    shift
    if "$@"; then ok; else notok "$name"; fi
}
# run OUT ARGS...: simdhttp parse ARGS >OUT 2>OUT.err; sets $rc
run() {
    out=$1
    shift
    $WD "$BIN" parse "$@" >"$out" 2>"$out.err"
    rc=$?
}
# rc_then WANT COMMAND...: the last run exited WANT and COMMAND succeeds
rc_then() {
    [ "$rc" -eq "$1" ] || { echo "# exit $rc, want $1"; return 1; }
    shift
    "$@"
}
empty() { [ ! -s "$1" ]; }
# same A B: files are byte-identical (prints the first difference when not)
same() {
    if cmp -s "$1" "$2"; then return 0; fi
    echo "# $1 and $2 differ:"
    diff "$1" "$2" | cut -c1-300 | head -n 6
    return 1
}

# vs_oracle NAME INPUT [ARGS...]: exit 0 and the oracle's JSON, whole and at every split size
vs_oracle() {
    name=$1
    input=$2
    shift 2
    if ! $ORACLE "$@" "$input" >"$T/exp" 2>"$T/exp.err"; then
        notok "$name: oracle failed: $(cat "$T/exp.err")"
        return
    fi
    run "$T/got" "$@" "$input"
    check "$name: whole: exit $rc" [ "$rc" -eq 0 ]
    check "$name: whole: same JSON as the oracle" same "$T/got" "$T/exp"
    for n in $SPLITS; do
        run "$T/got" --split "$n" "$@" "$input"
        if [ "$rc" -eq 0 ] && same "$T/got" "$T/exp"; then ok; else notok "$name: --split $n: exit $rc or JSON differs"; fi
    done
}

# vs_error NAME INPUT GOOD_PREFIX_LEN ERROR OFFSET [ARGS...]: the messages of the first
# GOOD_PREFIX_LEN bytes (as the oracle sees them), then the error line; exit 1; the same for
# every split size.
vs_error() {
    name=$1
    input=$2
    good=$3
    err=$4
    offset=$5
    shift 5
    head -c "$good" "$input" >"$T/good"
    if ! $ORACLE "$@" "$T/good" >"$T/exp" 2>"$T/exp.err"; then
        notok "$name: oracle failed on the good prefix: $(cat "$T/exp.err")"
        return
    fi
    run "$T/whole" "$@" "$input"
    check "$name: exit 1 (got $rc)" [ "$rc" -eq 1 ]
    last=$(tail -n 1 "$T/whole")
    case "$last" in
    "{\"error\":\"$err\",\"reason\":\""*"\",\"offset\":$offset,\"byte\":"*"}") ok ;;
    *) notok "$name: want error $err at offset $offset, got: $last" ;;
    esac
    sed '$d' "$T/whole" >"$T/msgs"
    check "$name: the messages before the error" same "$T/msgs" "$T/exp"
    for n in $SPLITS; do
        run "$T/got" --split "$n" "$@" "$input"
        if [ "$rc" -eq 1 ] && same "$T/got" "$T/whole"; then ok; else notok "$name: --split $n: exit $rc or output differs from whole"; fi
    done
}

[ -x "$BIN" ] || { notok "no $BIN (build it first)"; echo "$pass passed, $fail failed"; exit 1; }

# ---------------------------------------------------------------- corpus
for f in corpus/*.http; do
    vs_oracle "$(basename "$f")" "$f"
done
# all requests back to back: one pipelined stream; the same for the responses
cat corpus/get-4h.http corpus/post-10k.http corpus/pipelined-16.http corpus/browser-get.http >"$T/req-all"
vs_oracle "requests concatenated" "$T/req-all" --request
cat corpus/response-typical.http corpus/response-chunked.http corpus/response-typical.http >"$T/resp-all"
vs_oracle "responses concatenated" "$T/resp-all" --response
# stdin and "-" read the same bytes as a file
$WD "$BIN" parse <corpus/pipelined-16.http >"$T/stdin" 2>/dev/null
$WD "$BIN" parse - <corpus/pipelined-16.http >"$T/dash" 2>/dev/null
$ORACLE corpus/pipelined-16.http >"$T/exp"
check "stdin input" same "$T/stdin" "$T/exp"
check "'-' input" same "$T/dash" "$T/exp"

# ---------------------------------------------------------------- hand-made streams
# chunked request with extensions (quoted too), trailers, then a request with leading CRLFs
printf 'POST /up HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5;a=b\r\nhello\r\n6;q="x;y"\r\n world\r\n0\r\nX-Sum: 1 \r\nX-Other:\t two words\t\r\n\r\n\r\nGET /next HTTP/1.1\r\nHost: h\r\n\r\n' >"$T/chunked"
vs_oracle "chunked request, extensions, trailers, pipelined" "$T/chunked"
# OWS around values, empty values, a value with inner spaces
printf 'GET /a?b=c HTTP/1.1\r\nHost:h\r\nA:  x  y  \r\nEmpty:\r\nTabs:\t\t\r\n\r\n' >"$T/ows"
vs_oracle "OWS trimmed, empty values" "$T/ows"
# a 100-continue, then the 200 on the same connection
printf 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok' >"$T/continue"
vs_oracle "100-continue then 200" "$T/continue"
run "$T/got" "$T/continue"
check "100-continue then 200: two messages" [ "$(grep -c '"type":"response"' "$T/got")" -eq 2 ]
check "100-continue then 200: status 100 then 200" \
    [ "$(sed -n 's/.*"status":\([0-9]*\).*/\1/p' "$T/got" | tr '\n' ' ')" = "100 200 " ]
# response body delimited by the end of the stream
printf 'HTTP/1.1 200 OK\r\nServer: x\r\n\r\nhello\r\nworld' >"$T/close"
vs_oracle "response body until close" "$T/close"
run "$T/got" "$T/close"
check "response body until close: body and keep_alive false" \
    grep -q '"body":"hello\\u000d\\u000aworld","trailers":\[\],"keep_alive":false' "$T/got"
run "$T/got" --no-eof "$T/close"
check "body until close with --no-eof: nothing printed, exit 0" rc_then 0 empty "$T/got"
# HTTP/1.0 keep-alive and close; 204 and 304 have no body even with Content-Length
printf 'HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nxHTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\nHTTP/1.1 200 \r\nConnection: close\r\nContent-Length: 0\r\n\r\n' >"$T/resp-mix"
vs_oracle "1.0 keep-alive, 204, 304, empty reason, close" "$T/resp-mix"
run "$T/got" "$T/resp-mix"
check "keep_alive per message: true true true false" \
    [ "$(sed -n 's/.*"keep_alive":\([a-z]*\).*/\1/p' "$T/got" | tr '\n' ' ')" = "true true true false " ]

# ---------------------------------------------------------------- --skip-body
printf 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 5\r\n\r\n' >"$T/head"
vs_oracle "--skip-body" "$T/head" --skip-body
run "$T/got" --skip-body "$T/head"
check "--skip-body: two responses, empty bodies" [ "$(grep -c '"body":""' "$T/got")" -eq 2 ]
run "$T/got" "$T/head"
check "without --skip-body the 5 bytes are a body" grep -q '"body":"HTTP/"' "$T/got"
# requests: llhttp's meaning, no body; the bytes after the head are the next request
printf 'POST /a HTTP/1.1\r\nContent-Length: 19\r\n\r\nGET /b HTTP/1.1\r\n\r\n' >"$T/skipreq"
vs_oracle "--skip-body --request" "$T/skipreq" --request --skip-body
vs_oracle "--skip-body --auto on requests" "$T/skipreq" --skip-body
run "$T/got" --request --skip-body "$T/skipreq"
check "--skip-body --request: POST without a body, then GET /b" \
    [ "$(sed -n 's/.*"target":"\([^"]*\)".*"body":"\([^"]*\)".*/\1=\2/p' "$T/got" | tr '\n' ' ')" = "/a= /b= " ]
run "$T/got" --request "$T/skipreq"
check "without --skip-body the request has its 19-byte body" rc_then 0 grep -q '"body":"GET /b HTTP/1.1\\u000d\\u000a\\u000d\\u000a"' "$T/got"

# ---------------------------------------------------------------- lenient obs_fold
printf 'GET / HTTP/1.1\r\nX: a \r\n  b\t\r\n\tc\r\nY:\r\n d\r\nHost: h\r\n\r\n' >"$T/fold"
vs_oracle "--lenient obs_fold" "$T/fold" --lenient obs_fold
run "$T/got" --lenient obs_fold --split 1 "$T/fold"
check "obs_fold: one SP per fold, no OWS kept" grep -q '\["X","a b c"\],\["Y","d"\]' "$T/got"
vs_error "obs-fold without the flag" "$T/fold" 0 UNEXPECTED_SPACE 23

# ---------------------------------------------------------------- every byte round-trips
# body: all 256 byte values; field value (lenient headers): every byte but NUL, CR, LF
python3 - "$T/bytes" <<'EOF'
import sys
allb = bytes(range(256))
val = b"<" + bytes(b for b in range(1, 256) if b not in (10, 13)) + b">"
msg = (b"POST / HTTP/1.1\r\nX: " + val + b"\r\nContent-Length: 256\r\n\r\n" + allb)
open(sys.argv[1], "wb").write(msg)
EOF
run "$T/got" --lenient headers "$T/bytes"
check "every byte: exit 0" [ "$rc" -eq 0 ]
check "every byte: JSON strings decode (json.loads, latin-1) to the input bytes" python3 - "$T/got" <<'EOF'
import json, sys
m = json.loads(open(sys.argv[1], "rb").read().decode("ascii"))  # escapes only: pure ASCII
val = b"<" + bytes(b for b in range(1, 256) if b not in (10, 13)) + b">"
ok = m["body"].encode("latin-1") == bytes(range(256)) and m["headers"][0][1].encode("latin-1") == val
sys.exit(0 if ok else 1)
EOF
vs_oracle "every byte: same as the oracle" "$T/bytes" --lenient headers

# ---------------------------------------------------------------- errors: name, offset, exit 1
printf 'GET / HTTP/1.1\r\nHost: a\r\n\r\nG@T / HTTP/1.1\r\n\r\n' >"$T/e1"
vs_error "bad method in the 2nd message" "$T/e1" 27 INVALID_METHOD 28
printf 'GET / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n' >"$T/e2"
vs_error "bad Content-Length" "$T/e2" 0 INVALID_CONTENT_LENGTH 33
printf 'GET / HTTP/1.1\r\nX: a\000b\r\n\r\n' >"$T/e3"
vs_error "NUL in a value" "$T/e3" 0 INVALID_HEADER_VALUE 20
printf 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\n' >"$T/e4"
vs_error "bad chunk size" "$T/e4" 0 INVALID_CHUNK_SIZE 57
printf 'GET / HTTP/1.1\r\nHost : a\r\n\r\n' >"$T/e5"
vs_error "space before colon" "$T/e5" 0 UNEXPECTED_SPACE 20
printf 'GET / HTTP/1.0\r\n\r\nGET / HTTP/1.0\r\n\r\n' >"$T/e6"
vs_error "data after an HTTP/1.0 message" "$T/e6" 18 CLOSED_CONNECTION 18
run "$T/got" --lenient data_after_close "$T/e6"
check "--lenient data_after_close: the 2nd HTTP/1.0 message is skipped" rc_then 0 [ "$(wc -l <"$T/got")" -eq 1 ]
vs_oracle "--lenient keep_alive: parses on after an HTTP/1.0 message" "$T/e6" --lenient keep_alive
# the error line carries the byte at the offset, escaped like every string; stderr says it too
run "$T/got" "$T/e1"
check "error line: the offending byte" grep -q '"offset":28,"byte":"@"}$' "$T/got"
check "error on stderr: name, offset, byte" grep -q "^simdhttp parse: INVALID_METHOD at offset 28 (byte 0x40 '@'): " "$T/got.err"
run "$T/got" "$T/e3"
check "error line: a NUL byte escaped" grep -q '"offset":20,"byte":"\\u0000"}$' "$T/got"
# a space inside the request-target is an INVALID_URL at that space, not a bad version
printf 'GET / HTTP/1.1\r\nHost: a\r\n\r\nGET /a b/c?d e HTTP/1.1\r\nHost: a\r\n\r\n' >"$T/sp"
vs_error "space inside the request-target" "$T/sp" 27 INVALID_URL 33
run "$T/got" "$T/sp"
check "space inside the target: said so, byte ' '" grep -q '"reason":"space inside the request-target[^"]*","offset":33,"byte":" "}$' "$T/got"
printf 'GET /a HTTP/1.1 x\r\n\r\n' >"$T/sp2"
run "$T/got" "$T/sp2"
check "a bad version is still INVALID_VERSION" rc_then 1 grep -q '^{"error":"INVALID_VERSION"' "$T/got"
# a TLS ClientHello (record type 22, version 3.1, handshake type 1) on a plain-HTTP stream
printf '\026\003\001\002\000\001\000\001\374\003\003abcdefgh' >"$T/tls"
for mode in --auto --request --response; do
    run "$T/got" $mode "$T/tls"
    check "TLS ClientHello ($mode): named, offset 0, exit 1" rc_then 1 grep -q '"reason":"a TLS ClientHello[^"]*","offset":0,"byte":"\\u0016"}$' "$T/got"
done
run "$T/got" --split 1 "$T/tls"
check "TLS ClientHello: the same with --split 1" grep -q '"reason":"a TLS ClientHello' "$T/got"
printf 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n' >"$T/h2"
run "$T/got" "$T/h2"
check "HTTP/2 preface: named" rc_then 1 grep -q '"reason":"the HTTP/2 connection preface' "$T/got"
# limits
vs_error "--max-fields 1" "$T/ows" 0 TOO_MANY_HEADERS 29 --max-fields 1
vs_oracle "--max-fields 4 is enough" "$T/ows" --max-fields 4
run "$T/got" --max-head-size 10 corpus/get-4h.http
check "--max-head-size 10: HEADER_OVERFLOW at 10" grep -q '^{"error":"HEADER_OVERFLOW",.*"offset":10,"byte":"."}$' "$T/got"

# ---------------------------------------------------------------- end of stream
# two messages, the second cut in its body: the first printed, then the end-of-stream error
printf 'GET /1 HTTP/1.1\r\nHost: h\r\n\r\nPOST /2 HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc' >"$T/cut"
len=$(wc -c <"$T/cut")
vs_error "cut in a body: finish() error" "$T/cut" 28 INVALID_EOF_STATE "$len"
vs_oracle "cut in a body, --no-eof: the first message only" "$T/cut" --no-eof
run "$T/got" --no-eof "$T/cut"
check "--no-eof: exactly one line" [ "$(wc -l <"$T/got")" -eq 1 ]
head -c 40 "$T/cut" >"$T/cut-head"
vs_error "cut in a head: finish() error" "$T/cut-head" 28 INVALID_EOF_STATE 40
run "$T/got" --no-eof "$T/cut-head"
check "cut in a head, --no-eof: exit 0" [ "$rc" -eq 0 ]
: >"$T/empty"
run "$T/got" "$T/empty"
check "empty input: exit 0, no output" rc_then 0 empty "$T/got"

# ---------------------------------------------------------------- streaming
# A pipe that stays open: each message is printed (and flushed) when it completes, before the
# writer sends the next one or closes.
mkfifo "$T/fifo"
# The output file exists before the reader starts: the background shell opens the fifo (which
# releases the writer's open below) before it creates "$T/live", and a count taken in between
# would read no file at all.
: >"$T/live"
$WD "$BIN" parse --request <"$T/fifo" >"$T/live" 2>"$T/live.err" &
lpid=$!
exec 3>"$T/fifo"
# wait_lines N: up to 60 s for N lines in the output (a watchdog, not a timing: CI's VMs
# stall in bursts); on failure says what it saw
live_lines() { cat "$T/live" 2>/dev/null | wc -l; }
wait_lines() {
    i=0
    while [ "$(live_lines)" -lt "$1" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
    [ "$(live_lines)" -eq "$1" ] && return 0
    diag="after $i polls: $(live_lines) lines; parse $(kill -0 $lpid 2>/dev/null && echo running || echo gone);
        stdout: $(head -c 300 "$T/live"); stderr: $(head -c 300 "$T/live.err")"
    return 1
}
printf 'GET /1 HTTP/1.1\r\nHost: a\r\n\r\n' >&3
if wait_lines 1; then ok; else notok "live pipe: the 1st message is printed while the pipe is open ($diag)"; fi
printf 'POST /2 HTTP/1.1\r\nContent-Length: 4\r\n\r\nab' >&3
sleep 0.3
check "live pipe: a message in progress is not printed" [ "$(live_lines)" -eq 1 ]
printf 'cd' >&3
if wait_lines 2; then ok; else notok "live pipe: the 2nd message when its body completes ($diag)"; fi
exec 3>&-
wait $lpid
check "live pipe: exit 0 at the end" [ $? -eq 0 ]
check "live pipe: the two messages" [ "$(sed -n 's/.*"target":"\([^"]*\)".*/\1/p' "$T/live" | tr '\n' ' ')" = "/1 /2 " ]

# ---------------------------------------------------------------- upgrade
printf 'GET /chat HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n\201\005hello GET / HTTP/1.1\r\n' >"$T/up"
vs_oracle "Upgrade: the message, then stop" "$T/up"
run "$T/got" "$T/up"
check "Upgrade: one line, upgrade true" [ "$(grep -c '"upgrade":true}$' "$T/got") $(wc -l <"$T/got")" = "1 1" ]
check "Upgrade: stderr says where the tunnel starts" grep -q 'offset 72' "$T/got.err"
printf 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n\026\003\001' >"$T/connect"
vs_oracle "CONNECT: tunnel after the head" "$T/connect"
printf 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n\201\000' >"$T/101"
vs_oracle "101 response" "$T/101" --response

# ---------------------------------------------------------------- type selection
run "$T/got" --request corpus/response-typical.http
check "--request on a response: exit 1 with an error line" rc_then 1 grep -q '^{"error":"INVALID_METHOD",' "$T/got"
run "$T/got" --response corpus/get-4h.http
check "--response on a request: exit 1 with an error line" rc_then 1 grep -q '^{"error":' "$T/got"
run "$T/got" --auto corpus/response-typical.http
check "--auto detects a response" rc_then 0 grep -q '^{"type":"response"' "$T/got"
run "$T/got" corpus/get-4h.http
check "default (auto) detects a request" rc_then 0 grep -q '^{"type":"request"' "$T/got"

# ---------------------------------------------------------------- usage: exit 2 and a usage message
usage_case() {
    name=$1
    shift
    $WD "$BIN" parse "$@" </dev/null >"$T/u.out" 2>"$T/u.err"
    urc=$?
    if [ "$urc" -eq 2 ] && grep -q '^usage:' "$T/u.err" && [ ! -s "$T/u.out" ]; then ok; else notok "usage: $name: exit $urc"; fi
}
usage_case "unknown option" --bogus
usage_case "unknown lenient flag" --lenient nope
usage_case "unknown flag in a list" --lenient obs_fold,nope
usage_case "empty flag in a list" --lenient obs_fold,
usage_case "--split 0" --split 0
usage_case "--split -1" --split -1
usage_case "--split abc" --split abc
usage_case "--split 5x" --split 5x
usage_case "--split without a value" --split
usage_case "--no-eof=1" --no-eof=1
usage_case "two inputs" corpus/get-4h.http corpus/get-4h.http
usage_case "--max-fields 0" --max-fields 0
usage_case "--max-fields 2^32" --max-fields 4294967296
check "--max-fields 2^32: the message names the range" grep -q "^simdhttp parse: --max-fields wants a number from 1 to 4294967295, not '4294967296'\$" "$T/u.err"
# ---------------------------------------------------------------- I/O errors: exit 3, errno's text
$WD "$BIN" parse "$T/does-not-exist" >"$T/u.out" 2>"$T/u.err"
check "missing file: exit 3" [ $? -eq 3 ]
check "missing file: the name and errno's text" grep -q "^simdhttp parse: $T/does-not-exist: No such file or directory\$" "$T/u.err"
$WD "$BIN" parse "$T" >"$T/u.out" 2>"$T/u.err"
check "a directory: read error, exit 3" [ $? -eq 3 ]
check "a directory: errno's text" grep -q 'Is a directory' "$T/u.err"
# bench reads its inputs before timing anything: the same statuses, nothing on stdout
$WD "$BIN" bench "$T/does-not-exist" >"$T/u.out" 2>"$T/u.err"
check "bench, missing file: exit 3 (got $?)" [ $? -eq 3 ]
check "bench, missing file: the name and errno's text" \
    grep -q "^simdhttp bench: $T/does-not-exist: No such file or directory\$" "$T/u.err"
check "bench, missing file: nothing on stdout" empty "$T/u.out"
$WD "$BIN" bench "$T" >"$T/u.out" 2>"$T/u.err"
check "bench, a directory: read error, exit 3 (got $?)" [ $? -eq 3 ]
check "bench, a directory: errno's text" grep -q 'Is a directory' "$T/u.err"
if [ -w /dev/full ]; then
    $WD "$BIN" parse corpus/pipelined-16.http >/dev/full 2>"$T/u.err"
    check "output to a full disk: exit 3" [ $? -eq 3 ]
    check "output to a full disk: errno's text" grep -q 'No space left on device' "$T/u.err"
fi
# every documented lenient name (and --opt=value) is accepted
run "$T/got" --lenient=headers,chunked_length,keep_alive,transfer_encoding,version,data_after_close --lenient \
    optional_lf_after_cr,optional_cr_before_lf,optional_crlf_after_chunk,spaces_after_chunk_size,obs_fold,bare_lf \
    --split=5 corpus/get-4h.http
check "all lenient names accepted" [ "$rc" -eq 0 ]
$WD "$BIN" --version >"$T/v" 2>/dev/null
check "--version: version and ISA" grep -q '^simdhttp [0-9][0-9.]* (isa: [a-z0-9]*)$' "$T/v"
$WD "$BIN" -V >"$T/v2" 2>/dev/null
check "-V is --version" same "$T/v" "$T/v2"

# ---------------------------------------------------------------- help: stdout, exit 0
# help_case NAME WANT ARGS...: exit 0, nothing on stderr, stdout mentions every word of WANT
help_case() {
    name=$1 want=$2
    shift 2
    $WD "$BIN" "$@" >"$T/h.out" 2>"$T/h.err"
    hrc=$?
    miss=""
    for w in $want; do grep -q -e "$w" "$T/h.out" || miss="$miss $w"; done
    if [ "$hrc" -eq 0 ] && [ ! -s "$T/h.err" ] && [ -z "$miss" ]; then ok; else notok "help: $name: exit $hrc, missing:$miss"; fi
}
PARSE_OPTS="--request --response --auto --lenient --skip-body --split --no-eof --max-head-size --max-fields --max-chunk-ext --help obs_fold bare_lf Exit"
BENCH_OPTS="--json --time --runs --scaling --parsers --json-out --plot-data --check --instructions --list"
help_case "parse --help" "$PARSE_OPTS" parse --help
help_case "parse -h" "$PARSE_OPTS" parse -h
help_case "parse --split 3 --help" "$PARSE_OPTS" parse --split 3 --help
help_case "help parse" "$PARSE_OPTS" help parse
help_case "bench --help" "$BENCH_OPTS" bench --help
help_case "help bench" "$BENCH_OPTS" help bench
help_case "--help: every command and option" "parse bench help --version SIMDHTTP_ISA $PARSE_OPTS $BENCH_OPTS" --help
help_case "-h" "parse bench" -h
help_case "help" "parse bench" help
for bad in "" "frobnicate" "help frobnicate" "--version extra"; do
    # shellcheck disable=SC2086
    $WD "$BIN" $bad >"$T/u.out" 2>"$T/u.err"
    urc=$?
    if [ "$urc" -eq 2 ] && grep -q '^usage: simdhttp' "$T/u.err" && [ ! -s "$T/u.out" ]; then ok; else notok "usage: 'simdhttp $bad': exit $urc"; fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
