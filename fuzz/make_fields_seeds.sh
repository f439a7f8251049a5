#!/bin/sh
# SPDX-License-Identifier: MIT
# Writes the seed corpus fuzz/corpus-fields/ of fuzz/fuzz_fields.c: hand-written Cookie values,
# field blocks, heads and chunked bodies, each behind the 10-byte configuration it reads:
#   b0 = lenient bits 0-7;  b1 = lenient bits 8-11 | consume_trailers*16 | pieces mode*32
#   b2 = head type (0 request, 1 response, 2 both) | small_limits*4 | Cookie spelling*8
#        | a field between the Cookie fields*32 | a Set-Cookie after each*64
#   b3..b5 = max_head_size/4, max_fields, max_chunk_ext;  b6, b7 unused;  b8, b9 = seed
# Every input feeds every check (the bytes are a Cookie value, a field block, a head and a
# chunked body at once); each seed is written for one of them. Run from the repo root:
# sh fuzz/make_fields_seeds.sh (it replaces the seed_* files only; regress-* inputs stay).
set -eu
out=fuzz/corpus-fields
mkdir -p "$out"
rm -f "$out"/seed_*

oct() { printf "\\$(printf '%03o' "$1")"; }
# seed NAME b0 b1 b2 b3 b4 b5 b8 PAYLOAD (printf %b escapes: \r \n \t \\ \0ooo, no \x: dash);
# b6, b7 = 0, b9 = 0
seed() {
    name=$1; shift
    { for i in 1 2 3 4 5 6; do oct "$1"; shift; done; oct 0; oct 0; oct "$1"; oct 0; shift; printf '%b' "$1"; } \
        > "$out/seed_$name"
}
# N copies of a byte
rep() { printf "%$2s" '' | tr ' ' "$1"; }

# lenient bits (b0 | b1 << 8)
L_HEADERS=1; L_LF_AFTER_CR=64; L_BARE_LF=128
L2_CRLF_AFTER_CHUNK=1; L2_SPACES=2; L2_OBS_FOLD=4; L2_FIELD_BARE_CR=8
CONSUME=16; M1=32; M2=64; M3=96; M4=128; M5=160; M6=192; M7=224
T_REQ=0; T_RESP=1; T_BOTH=2; LIM=4; SP_LOWER=8; SP_UPPER=16; SP_MIXED=24; BETWEEN=32; SETC=64

# ---- Cookie values (checks 1, 2)
seed cookie_typical 0 0 0 0 0 0 1 'session_id=abc123; theme=dark; lang=en-US'
seed cookie_browser 0 $M3 $BETWEEN 0 0 0 2 '_ga=GA1.2.1234567890.1234567890; _gid=GA1.2.987654321.1234567890; session=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U; csrftoken=Zx81Hq0aLmOpQrStUvWxYz0123456789AbCd'
seed cookie_quoted 0 0 $SP_LOWER 0 0 0 3 'a="b"; c=""; d="x y"; e="q\\"r"; f="unterminated; g="ok"x; h="'
seed cookie_errors 0 0 $SP_UPPER 0 0 0 4 'a; =b; c d=e; f=g h; i=j,k; l=m\\n; n="o"p; ;; q=r; s=t u v; w==x; y=\0177'
seed cookie_separators 0 0 $SP_MIXED 0 0 0 5 ' \ta=b;c=d ;\t e=f ;; ; g=h; \t;'
seed cookie_len31 0 0 0 0 0 0 6 "id=$(rep x 28)"
seed cookie_len32 0 0 0 0 0 0 7 "id=$(rep x 29)"
seed cookie_len33 0 0 0 0 0 0 8 "id=$(rep x 30)"
seed cookie_len64 0 0 0 0 0 0 9 "id=$(rep x 61)"
seed cookie_len64_pairs 0 0 0 0 0 0 10 "a=$(rep 1 13); b=$(rep 2 13); c=$(rep 3 13); d=$(rep 4 12)"
seed cookie_name_at_window 0 0 0 0 0 0 11 "$(rep n 31)=v; $(rep m 30)=w; $(rep o 32)=x; $(rep p 29)=$(rep y 40)"
seed cookie_error_at_32 0 0 0 0 0 0 12 "k=$(rep v 30) x; z=$(rep 1 29)\"; q=$(rep 2 31),; r=1"
seed cookie_quoted_long 0 0 0 0 0 0 13 "q=\"$(rep a 40)\"; r=\"$(rep b 28)\"; s=$(rep c 33)"
seed cookie_value_to_end 0 0 0 0 0 0 14 "s=1; long=$(rep z 90)"
seed cookie_obstext 0 0 0 0 0 0 15 'a=\0200b; c=\0177; d=\0001; e=\0303\0251; f=ok; g=\0377'
seed cookie_lines 0 0 $((BETWEEN + SETC + SP_LOWER)) 0 0 0 16 'a=b\r\nc=d; e=f\r\n g=h\nbad pair\r\nx="y"\r\n\r\n;;\r\nlast=1 '
seed cookie_lines_long 0 0 $SETC 0 0 0 17 "sid=$(rep a 36); t=1\r\n$(rep k 20)=$(rep v 20)\r\nbad=$(rep b 31) \r\n\"q\"=1; ok=\"$(rep c 30)\""

# ---- field blocks (check 3) and heads (check 4)
seed fields_trailers 0 $M1 0 0 0 0 20 'X-Checksum: abc\r\nExpires: 0\r\nCookie: a=b\r\nContent-Length: 5\r\nTransfer-Encoding: gzip\r\n\r\n'
seed fields_fold 0 $L2_OBS_FOLD 0 0 0 0 21 'A: b \r\n c\r\n\td \r\nE: f\r\n  \r\n\r\nrest'
seed fields_fold_first 0 $L2_OBS_FOLD 0 0 0 0 22 ' A: b\r\n\r\n'
seed fields_no_colon 0 0 0 0 0 0 23 'A b\r\n\r\n'
seed fields_empty 0 0 0 0 0 0 24 '\r\n'
seed fields_nul 0 0 0 0 0 0 25 'A: b\0000\r\n\r\n'
seed fields_ctl_lenient $L_HEADERS 0 0 0 0 0 26 'A: b\0001c\0177\r\nB: \0377\r\n\r\n'
seed fields_incomplete 0 0 0 0 0 0 27 'A: b\r\nC: d\r'
seed fields_bare_lf $L_BARE_LF 0 0 0 0 0 28 'A: b\nC: d\n\n'
seed fields_bare_cr $L_LF_AFTER_CR $L2_FIELD_BARE_CR 0 0 0 0 29 'A: b\rC: d\r\r\n'
seed fields_max_fields 0 0 $LIM 0 2 0 30 'T1: a\r\nT2: b\r\nT3: c\r\n\r\n'
seed fields_max_size 0 0 $LIM 1 0 0 31 "T1: $(rep a 70)\r\n\r\n"
seed fields_long_values 0 0 0 0 0 0 32 "X-Long: $(rep v 33)\r\nX-Longer: $(rep w 64) \t\r\nx-long: 2\r\n\r\n"
seed head_lookups_req 0 0 $T_REQ 0 0 0 33 'GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\nCookie: x=1\r\nCOOKIE: y=2\r\nUser-Agent: u\r\nX-Custom: 1\r\nx-custom: 2\r\nAccept: */*\r\nContent-Length: 0\r\nSec-Fetch-Mode: cors\r\nX-Forwarded-For: 1.2.3.4\r\nLast-Event-ID: 9\r\nCookie:\r\n\r\n'
seed head_lookups_resp 0 0 $T_RESP 0 0 0 34 'HTTP/1.1 200 OK\r\nSet-Cookie: a=b\r\nSet-Cookie: c=d\r\nCache-Control: no-cache\r\nVary: Accept\r\nvary: Origin\r\nETag: "x"\r\nContent-Length: 0\r\n\r\n'
seed head_lookups_fold $L_HEADERS $L2_OBS_FOLD $T_BOTH 0 0 0 35 'GET / HTTP/1.1\r\nX: a\r\n b\r\nX: c\r\nCookie: k=v\r\n\tw=z\r\nHOST: h\r\nAccept-Encoding: gzip,\r\n  br\r\n\r\n'
seed head_lookups_ids 0 0 $T_REQ 0 0 0 36 'GET / HTTP/1.1\r\nAccept-Charset: a\r\nAge: 1\r\nCONNECTION: close\r\nDnt: 1\r\nTE: trailers\r\nX-Real-IP: 1\r\nX-Real-IQ: 2\r\nPriority: u=1\r\nTraceparent: 00\r\nSec-CH-UA-Full-Version-List: x\r\nProxy-Connection: k\r\nAcceptt: 3\r\n\r\n'

# ---- chunked bodies (check 5; the bytes after "0" CRLF feed check 3 too)
seed chunked_simple 0 $M1 0 0 0 0 40 '5\r\nhello\r\n0\r\n\r\n'
seed chunked_ext_trailers 0 $M3 0 0 0 0 41 '5;ext=val;q="x\\"y"\r\nhello\r\n6\r\n world\r\n0;last\r\nTrailer-A: 1\r\nCookie: t=1\r\n\r\nGET / HTTP/1.1\r\n\r\n'
seed chunked_ext_trailers_consume 0 $((CONSUME + M2)) 0 0 0 0 42 '5;ext=val;q="x\\"y"\r\nhello\r\n6\r\n world\r\n0;last\r\nTrailer-A: 1\r\n\r\nafter'
seed chunked_bad_size 0 $M1 0 0 0 0 43 'zz\r\n'
seed chunked_no_crlf 0 $M2 0 0 0 0 44 '5\r\nhelloX\r\n0\r\n\r\n'
seed chunked_no_crlf_lenient 0 $((L2_CRLF_AFTER_CHUNK + M1)) 0 0 0 0 45 '3\r\nabc0\r\n\r\n'
seed chunked_overflow 0 $M1 0 0 0 0 46 'ffffffffffffffffff\r\n'
seed chunked_incomplete 0 $M2 0 0 0 0 47 '10\r\n0123'
seed chunked_spaces 0 $((L2_SPACES + M1)) 0 0 0 0 48 '5 ; a = b \r\nhello\r\n0 \r\n\r\n'
seed chunked_bare_lf $L_BARE_LF $((CONSUME + M1)) 0 0 0 0 49 '1\nx\n0\nT: 1\n\n'
seed chunked_ext_limit 0 $M1 $LIM 0 0 4 50 '1;abcdef\r\nx\r\n0\r\n\r\n'
seed chunked_trailer_limits 0 $((CONSUME + M7)) $LIM 1 1 0 51 '0\r\nA: 1\r\nB: 2\r\n\r\n'
seed chunked_long_data 0 $M2 0 0 0 0 52 "40\r\n$(rep d 64)\r\n21;x=\"$(rep e 20)\"\r\n$(rep f 33)\r\n0\r\n\r\n"
seed chunked_hex 0 $M5 0 0 0 0 53 'A\r\n0123456789\r\n000000000000000000001\r\nz\r\n0\r\n\r\n'
seed chunked_ext_quoted_ctl 0 $M6 0 0 0 0 54 '1;a="b\0001"\r\nx\r\n0\r\n\r\n'

ls "$out" | wc -l
du -sh "$out"
