#!/bin/sh
# SPDX-License-Identifier: MIT
# Writes the seed corpus fuzz/corpus/: every corpus/*.http file and hand-written edge cases,
# each behind the 10-byte configuration header that fuzz_diff.c reads:
#   b0 = type (0 request, 1 response, 2 both) | eof*4 | resume_upgrade*8 | small_limits*16 | mode*32
#   b1, b2 = lenient bits 0-7, 8-10;  b3..b5 = max_head_size/4, max_fields, max_chunk_ext
#   b6 = pause every b6 events;  b7 = on_headers_complete returns;  b8, b9 = chunking seed
# Run from the repo root: sh fuzz/make_seeds.sh  (it replaces the seed_* files only; inputs the
# fuzzer found, named regress-* or cov-*, stay).
set -eu
out=fuzz/corpus
mkdir -p "$out"
rm -f "$out"/seed_*

oct() { printf "\\$(printf '%03o' "$1")"; }
# seed NAME b0 b1 b2 b3 b4 b5 b6 b7 b8 b9 PAYLOAD(printf %b escapes: \r \n \t \\ \0ooo, no \x: dash)
seed() {
    name=$1; shift
    { for i in 1 2 3 4 5 6 7 8 9 10; do oct "$1"; shift; done; printf '%b' "$1"; } > "$out/seed_$name"
}
# seedfile NAME b0..b9 FILE
seedfile() {
    name=$1; shift
    { for i in 1 2 3 4 5 6 7 8 9 10; do oct "$1"; shift; done; cat "$1"; } > "$out/seed_$name"
}

T_REQ=0; T_RESP=1; T_BOTH=2; EOF=4; RUP=8; LIM=16
M1=32; M2=64; M3=96; M4=128; M5=160; M6=192; M7=224

# lenient bits (b1 | b2 << 8)
L_HEADERS=1; L_CHUNKED_LENGTH=2; L_KEEP_ALIVE=4; L_TE=8; L_VERSION=16; L_DATA_AFTER_CLOSE=32
L_LF_AFTER_CR=64; L_BARE_LF=128; L2_CRLF_AFTER_CHUNK=1; L2_SPACES=2; L2_OBS_FOLD=4

# ---- the benchmark corpus: whole, chunked with pauses, and all lenient flags on
for f in corpus/*.http; do
    b=$(basename "$f" .http)
    seedfile "${b}_whole" $((T_BOTH + EOF)) 0 0 0 0 0 0 0 0 0 "$f"
    seedfile "${b}_split16_pause7" $((T_BOTH + EOF + M3)) 0 0 0 0 0 7 0 17 0 "$f"
    seedfile "${b}_lenient_split64" $((T_BOTH + EOF + M4)) 255 7 0 0 0 3 0 99 1 "$f"
done

# ---- requests
seed get_min $((T_REQ + EOF + M1)) 0 0 0 0 0 1 0 1 0 'GET / HTTP/1.1\r\nHost: a\r\n\r\n'
seed get_leading_crlf $((T_REQ + EOF + M2)) 0 0 0 0 0 0 0 2 0 '\r\n\r\nGET /x?y=1 HTTP/1.1\r\nHost: a\r\n\r\n'
seed both_httx $((T_BOTH + EOF + M1)) 0 0 0 0 0 0 0 3 0 'HTTX / HTTP/1.1\r\n\r\n'
seed both_head $((T_BOTH + EOF + M2)) 0 0 0 0 0 2 0 4 0 'HEAD /h HTTP/1.0\r\nConnection: keep-alive\r\n\r\nHEAD / HTTP/1.0\r\n\r\n'
seed pipelined $((T_REQ + EOF + M3)) 0 0 0 0 0 5 0 5 0 'GET /1 HTTP/1.1\r\nHost: a\r\n\r\nPOST /2 HTTP/1.1\r\nContent-Length: 5\r\n\r\nhelloGET /3 HTTP/1.1\r\nConnection: close\r\n\r\n'
seed post_cl_dup_same $((T_REQ + EOF + M4)) 0 0 0 0 0 0 0 6 0 'POST / HTTP/1.1\r\nContent-Length: 3\r\ncontent-length: 3 \r\n\r\nabc'
seed post_cl_dup_differ $((T_REQ + EOF + M1)) 0 0 0 0 0 0 0 7 0 'POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd'
seed post_cl_overflow $((T_REQ + EOF + M2)) 0 0 0 0 0 0 0 8 0 'POST / HTTP/1.1\r\nContent-Length: 18446744073709551616\r\n\r\n'
seed post_cl_max $((T_REQ + M2)) 0 0 0 0 0 0 0 8 0 'POST / HTTP/1.1\r\nContent-Length: 18446744073709551615\r\n\r\nxyz'
seed post_cl_te $((T_REQ + EOF + M3)) 0 0 0 0 0 0 0 9 0 'POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n'
seed post_cl_te_lenient $((T_REQ + EOF + M3)) $L_CHUNKED_LENGTH 0 0 0 0 0 0 9 0 'POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n'
seed te_gzip_req $((T_REQ + EOF + M1)) 0 0 0 0 0 0 0 10 0 'POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\nabc'
seed te_gzip_req_lenient $((T_REQ + EOF + M1)) $L_TE 0 0 0 0 0 0 10 0 'POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\nabc'
seed te_list_params $((T_REQ + EOF + M2)) 0 0 0 0 0 0 0 11 0 'POST / HTTP/1.1\r\nTransfer-Encoding: gzip;q="a\\"b", x ,Chunked\r\n\r\n1\r\na\r\n0\r\n\r\n'
seed te_chunked_twice $((T_REQ + EOF + M1)) 0 0 0 0 0 0 0 12 0 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'
seed chunked_ext $((T_REQ + EOF + M1)) 0 0 0 0 0 1 0 13 0 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;ext="x\\"y";e2=v;e3\r\nhello\r\nA;n=1\r\n0123456789\r\n0;last\r\nTrailer-Field: t\r\nContent-Length: 99\r\n\r\n'
seed chunked_ext_spaces $((T_REQ + EOF + M2)) 0 $L2_SPACES 0 0 0 0 0 14 0 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5 ; a = b ;c= "d" \r\nhello\r\n0  \r\n\r\n'
seed chunked_no_crlf $((T_REQ + EOF + M2)) 0 $L2_CRLF_AFTER_CHUNK 0 0 0 0 0 15 0 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc0\r\n\r\n'
seed chunked_overflow $((T_REQ + EOF + M1)) 0 0 0 0 0 0 0 16 0 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000000\r\n'
seed chunked_ext_limit $((T_REQ + EOF + LIM + M1)) 0 0 0 0 8 0 0 17 0 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1;abc=defgh\r\nx\r\n0\r\n\r\n'
seed obs_fold $((T_REQ + EOF + M1)) 0 $L2_OBS_FOLD 0 0 0 0 0 18 0 'GET / HTTP/1.1\r\nX: a  \r\n  b\t\r\n\tc\r\nY:\r\n z\r\nContent-Length: 2\r\n  \r\n\r\nok'
seed obs_fold_strict $((T_REQ + EOF + M1)) 0 0 0 0 0 0 0 18 0 'GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n'
seed bare_lf $((T_REQ + EOF + M1)) $L_BARE_LF 0 0 0 0 0 0 19 0 'GET / HTTP/1.1\nHost: a\n\nPOST / HTTP/1.1\nTransfer-Encoding: chunked\n\n1\nx\n0\n\n'
seed bare_lf_strict $((T_REQ + EOF + M1)) 0 0 0 0 0 0 0 19 0 'GET / HTTP/1.1\nHost: a\n\n'
seed bare_cr $((T_REQ + EOF + M1)) $L_LF_AFTER_CR 0 0 0 0 0 0 20 0 'GET / HTTP/1.1\rHost: a\r\rGET / HTTP/1.1\r\n\r\n'
seed upgrade_resume $((T_REQ + EOF + RUP + M2)) 0 0 0 0 0 0 0 21 0 'GET / HTTP/1.1\r\nConnection: keep-alive, Upgrade\r\nUpgrade: websocket\r\n\r\nGET /x HTTP/1.1\r\n\r\n'
seed upgrade_stop $((T_REQ + EOF + M2)) 0 0 0 0 0 0 0 21 0 'GET / HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n\0000\0001binary'
seed connect $((T_REQ + EOF + RUP + M1)) 0 0 0 0 0 0 0 22 0 'CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\nGET / HTTP/1.1\r\n\r\n'
seed close_then_data $((T_REQ + EOF + M1)) 0 0 0 0 0 0 0 23 0 'GET / HTTP/1.1\r\nConnection: close\r\n\r\n\r\nGET / HTTP/1.1\r\n\r\n'
seed close_then_data_lenient $((T_REQ + EOF + M1)) $((L_DATA_AFTER_CLOSE)) 0 0 0 0 0 0 23 0 'GET / HTTP/1.0\r\n\r\nGET / HTTP/1.1\r\n\r\n'
seed keep_alive_lenient $((T_REQ + EOF + M1)) $L_KEEP_ALIVE 0 0 0 0 0 0 24 0 'GET / HTTP/1.0\r\n\r\nGET / HTTP/1.1\r\nConnection: close\r\n\r\nGET / HTTP/1.1\r\n\r\n'
seed version_lenient $((T_BOTH + EOF + M1)) $L_VERSION 0 0 0 0 0 0 25 0 'GET / HTTP/2.7\r\n\r\nGET / HTTP/1.2\r\n\r\n'
seed version_bad $((T_REQ + EOF + M1)) 0 0 0 0 0 0 0 25 0 'GET / HTTP/1.2\r\n\r\n'
seed bad_url $((T_REQ + EOF + M4)) 0 0 0 0 0 0 0 26 0 'GET /aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\0177b HTTP/1.1\r\n\r\n'
seed long_url $((T_REQ + EOF + M5)) 0 0 0 0 0 0 0 27 0 'GET /a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z/0123456789/ABCDEFGHIJKLMNOPQRSTUVWXYZ/~!$&()*+,;=:@%%20-._?q=1&r=2#frag HTTP/1.1\r\n\r\n'
seed bad_method $((T_REQ + EOF + M1)) 0 0 0 0 0 0 0 28 0 'GE(T / HTTP/1.1\r\n\r\n'
seed long_method $((T_REQ + EOF + M2)) 0 0 0 0 0 0 0 29 0 'VERYLONGEXTENSIONMETHOD-WITH.SYMBOLS!#$%%&*+^_`|~ / HTTP/1.1\r\n\r\n'
seed space_before_colon $((T_REQ + EOF + M1)) 0 0 0 0 0 0 0 30 0 'GET / HTTP/1.1\r\nHost : a\r\n\r\n'
seed long_name_bad $((T_REQ + EOF + M4)) 0 0 0 0 0 0 0 31 0 'GET / HTTP/1.1\r\nX-Very-Long-Header-Name-That-Exceeds-Thirty-Two-Bytes-For-Sure-Yes\0200: v\r\n\r\n'
seed value_ctl $((T_REQ + EOF + M4)) 0 0 0 0 0 0 0 32 0 'GET / HTTP/1.1\r\nX: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\0001b\r\n\r\n'
seed value_nul_lenient $((T_REQ + EOF + M4)) $L_HEADERS 0 0 0 0 0 0 33 0 'GET / HTTP/1.1\r\nX: a\0001\0177\0033b\0377\r\nY: c\0000d\r\n\r\n'
seed value_obstext $((T_REQ + EOF + M3)) 0 0 0 0 0 0 0 34 0 'GET / HTTP/1.1\r\nX: caf\0303\0251 \t \0377\0200\r\n\r\n'
seed value_del $((T_REQ + EOF + M3)) 0 0 0 0 0 0 0 35 0 'GET / HTTP/1.1\r\nX: \0177\r\n\r\n'
seed limits_head $((T_REQ + EOF + LIM + M1)) 0 0 10 0 0 0 0 36 0 'GET / HTTP/1.1\r\nHost: aaaaaaaaaaaaaaaaaaaaaaa\r\nX: bbbbbbbbbbbb\r\n\r\n'
seed limits_fields $((T_REQ + EOF + LIM + M1)) 0 0 0 2 0 0 0 37 0 'GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n'
seed limits_trailer $((T_REQ + EOF + LIM + M2)) 0 0 12 2 0 0 0 38 0 'POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT1: a\r\nT2: b\r\nT3: c\r\n\r\n'
seed empty $((T_BOTH + EOF)) 0 0 0 0 0 0 0 0 0 ''
seed eof_mid_head $((T_REQ + EOF + M1)) 0 0 0 0 0 0 0 39 0 'GET / HTTP/1.1\r\nHost'
seed all_lenient_mess $((T_BOTH + EOF + M7)) 255 7 0 0 0 2 0 40 0 'GET / HTTP/9.9\nX: a\0001\r\n b\rTransfer-Encoding: gzip\r\nContent-Length: 4\n\nabcd'

# ---- responses
seed resp_typical $((T_RESP + EOF + M3)) 0 0 0 0 0 3 0 41 0 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloHTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'
seed resp_head_skip $((T_RESP + EOF + M1)) 0 0 0 0 0 0 2 42 0 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'
seed resp_until_close $((T_RESP + EOF + M4)) 0 0 0 0 0 0 0 43 0 'HTTP/1.1 200 OK\r\nServer: x\r\n\r\nbody until the connection closes\r\n'
seed resp_1xx $((T_RESP + EOF + M1)) 0 0 0 0 0 0 0 44 0 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 204 No Content\r\nContent-Length: 9\r\n\r\nHTTP/1.1 304 Not Modified\r\n\r\nHTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx'
seed resp_101 $((T_RESP + EOF + RUP + M2)) 0 0 0 0 0 0 0 45 0 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n\0201\0005hello'
seed resp_no_reason $((T_RESP + EOF + M1)) 0 0 0 0 0 0 0 46 0 'HTTP/1.1 200\r\nContent-Length: 0\r\n\r\nHTTP/1.1 500 \r\nContent-Length: 0\r\n\r\n'
seed resp_bad_status $((T_RESP + EOF + M1)) 0 0 0 0 0 0 0 47 0 'HTTP/1.1 099 Low\r\n\r\n'
seed resp_reason_obstext $((T_BOTH + EOF + M2)) 0 0 0 0 0 0 0 48 0 'HTTP/1.1 200 \0303\0211tat \t ok \r\nContent-Length: 0\r\n\r\n'
seed resp_te_gzip $((T_RESP + EOF + M3)) 0 0 0 0 0 0 0 49 0 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nrawbytes'
seed resp_skip_upgrade $((T_RESP + EOF + RUP + M1)) 0 0 0 0 0 0 3 50 0 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc'
seed resp_chunked_trailers $((T_RESP + EOF + M2)) 0 0 0 0 0 4 0 51 0 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1a\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nExpires: never\r\nX: y\r\n\r\n'

ls "$out" | wc -l
du -sh "$out"
