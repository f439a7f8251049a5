#!/bin/sh
# SPDX-License-Identifier: MIT
# Docs that match the code:
#   - README.md's C snippets compile (-Wall -Wextra -Werror) and run: the streaming one as a
#     translation unit driven by a main() that pipes it two pipelined requests (its pause loop
#     must deliver both), the head API one as a function body given a request;
#   - every simdhttp_*() function the header's comments, README.md and docs/*.md name exists;
#   - what include/simdhttp.h states and a test can check: the parser's size, that init sets
#     p->data, that execute() on a paused parser returns PAUSED, that chunk-extension callbacks
#     come before on_chunk_header, what parse_head fills on TOO_MANY_HEADERS.
set -u
pass=0; fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "not ok - $1"; }
B=${BUILD:-build}
case "$B" in *asan*) echo "docs are checked with the normal build"; echo "0 passed, 0 failed"; exit 0 ;; esac
cd "$(dirname "$0")/.." || exit 1
CC=${CC:-cc}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
CFL="-std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Iinclude"

# 1. README snippets, in order: block 1 = streaming (a whole unit), block 2 = head API (a body)
awk -v dir="$tmp" '/^```c$/ {n++; f = dir "/snippet" n ".c"; inb = 1; next}
                   /^```/ {inb = 0; next}
                   inb {print > f}' README.md
n=$(ls "$tmp"/snippet*.c 2>/dev/null | wc -l)
[ "$n" -eq 2 ] && ok || ko "README.md has $n C snippets; this test knows 2 (update it)"
cat "$tmp/snippet1.c" - > "$tmp/stream.c" <<'C'
int main(void)
{
    int fds[2];
    const char in[] = "GET /a HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\n\r\n";
    if (pipe(fds) || write(fds[1], in, sizeof in - 1) != (ssize_t)(sizeof in - 1)) return 2;
    close(fds[1]);
    return serve(fds[0]) == 0 ? 0 : 1;
}
C
if $CC $CFL "$tmp/stream.c" "$B/libsimdhttp.a" -o "$tmp/stream" 2>"$tmp/err"; then ok; else ko "README streaming snippet does not compile"; cat "$tmp/err"; fi
out=$("$tmp/stream" 2>&1); rc=$?
want=$(printf 'url: /a\nmessage complete\nurl: /b\nmessage complete')
[ "$rc" -eq 0 ] && [ "$out" = "$want" ] && ok || ko "README streaming snippet: exit $rc, output: $out"
{
    printf '#include <simdhttp.h>\nstatic int head_snippet(const char *buf, size_t len)\n{\n'
    cat "$tmp/snippet2.c"
    cat <<'C'
    return (int)n;
}
int main(void)
{
    const char r[] = "GET /x HTTP/1.1\r\nHost: h\r\n\r\nbody";
    return head_snippet(r, sizeof r - 1) == 28 && head_snippet(r, 10) == SIMDHTTP_HEAD_INCOMPLETE &&
                   head_snippet("GET / HTTP/9.9\r\n\r\n", 18) == SIMDHTTP_HEAD_ERROR ? 0 : 1;
}
C
} > "$tmp/head.c"
if $CC $CFL -Wno-unused-variable "$tmp/head.c" "$B/libsimdhttp.a" -o "$tmp/head" 2>"$tmp/err"; then ok; else ko "README head API snippet does not compile"; cat "$tmp/err"; fi
"$tmp/head" && ok || ko "README head API snippet: wrong results"

# 2. Function names in prose exist.
{ grep -ho 'simdhttp_[a-z0-9_]*()' include/simdhttp.h README.md docs/*.md 2>/dev/null
  grep -ho '^\.BR* simdhttp_[a-z0-9_]* ()' man/* 2>/dev/null | sed 's/^\.BR* //'; } | tr -d '() ' | sort -u > "$tmp/named"
bad=$(while read -r f; do grep -q "SIMDHTTP_API[^;]*[ *]$f(" include/simdhttp.h || echo "$f"; done < "$tmp/named")
[ -z "$bad" ] && ok || ko "named but not declared in include/simdhttp.h: $(echo $bad)"
[ "$(wc -l < "$tmp/named")" -ge 15 ] && ok || ko "few function names found in the docs"

# 3. Statements of the header.
size=$(sed -n 's/.*plain memory, \([0-9]*\) bytes on 64-bit.*/\1/p' include/simdhttp.h)
cat > "$tmp/facts.c" <<C
#include <simdhttp.h>
#include <stdio.h>
#include <string.h>
static int n_ext, ext_before_header = 1;
static int pause_cb(simdhttp_parser *p) { (void)p; return SIMDHTTP_PAUSE; }
static int on_ext(simdhttp_parser *p, const char *a, size_t n) { (void)p, (void)a, (void)n; n_ext++; return 0; }
static int on_chunk_header(simdhttp_parser *p) { if (p->content_length == 5 && n_ext != 1) ext_before_header = 0; return 0; }
int main(void)
{
    int bad = 0, x = 0;
    simdhttp_parser p;
    if (sizeof p != ${size:-0}) printf("sizeof(simdhttp_parser) is %zu, the header says ${size:-nothing}\n", sizeof p), bad = 1;
    p.data = &x;
    simdhttp_init(&p, SIMDHTTP_REQUEST, NULL, NULL);
    if (p.data) puts("init kept p->data"), bad = 1;
    const simdhttp_callbacks pcb = {.on_message_begin = pause_cb};
    simdhttp_init(&p, SIMDHTTP_REQUEST, &pcb, NULL);
    const char r[] = "GET / HTTP/1.1\r\n\r\n";
    simdhttp_execute(&p, r, sizeof r - 1);
    if (simdhttp_execute(&p, r, sizeof r - 1) != SIMDHTTP_E_PAUSED) puts("execute on a paused parser"), bad = 1;
    const simdhttp_callbacks ccb = {.on_chunk_extension_name = on_ext, .on_chunk_header = on_chunk_header};
    simdhttp_init(&p, SIMDHTTP_RESPONSE, &ccb, NULL);
    const char c[] = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;a=b\r\nhello\r\n0\r\n\r\n";
    if (simdhttp_execute(&p, c, sizeof c - 1) != SIMDHTTP_OK || !ext_before_header) puts("chunk extensions after on_chunk_header"), bad = 1;
    simdhttp_field f[1];
    simdhttp_head h = {.fields = f, .fields_cap = 1};
    const char m[] = "GET /many HTTP/1.1\r\nA: 1\r\nB: 2\r\n\r\n";
    if (simdhttp_parse_head(&h, SIMDHTTP_REQUEST, m, sizeof m - 1, NULL) != SIMDHTTP_HEAD_ERROR || h.error != SIMDHTTP_E_TOO_MANY_HEADERS
        || h.target_len != 5 || memcmp(h.target, "/many", 5) || h.method_len != 3 || h.num_fields != 1 || f[0].name_len != 1)
        puts("TOO_MANY_HEADERS: start line and fields not filled as documented"), bad = 1;
    return bad;
}
C
if $CC $CFL "$tmp/facts.c" "$B/libsimdhttp.a" -o "$tmp/facts" 2>"$tmp/err"; then ok; else ko "facts program does not compile"; cat "$tmp/err"; fi
out=$("$tmp/facts") && ok || ko "the header's statements: $out"
echo "$pass passed, $fail failed"
