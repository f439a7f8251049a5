#!/bin/sh
# SPDX-License-Identifier: MIT
# `make install` into a temporary prefix, then build and run a program against the installed
# header, static library, shared library and pkg-config file.
set -u
pass=0; fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "not ok - $1"; }
B=${BUILD:-build}
case "$B" in *asan*) echo "install is checked with the normal build"; echo "0 passed, 0 failed"; exit 0 ;; esac
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if make --no-print-directory -s install BUILD="$B" PREFIX="$tmp/usr" >"$tmp/log" 2>&1; then ok; else ko "make install"; tail -n 20 "$tmp/log"; fi
for f in include/simdhttp.h lib/libsimdhttp.a lib/libsimdhttp.so.0 lib/libsimdhttp.so lib/pkgconfig/simdhttp.pc bin/simdhttp; do
    [ -e "$tmp/usr/$f" ] && ok || ko "installed $f"
done
cat > "$tmp/app.c" <<'C'
#include <simdhttp.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    const char req[] = "GET /x HTTP/1.1\r\nHost: a\r\n\r\n";
    simdhttp_field f[4];
    simdhttp_head h = {.fields = f, .fields_cap = 4};
    long n = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, req, sizeof req - 1, NULL);
    printf("%ld %.*s %zu %s\n", n, (int)h.target_len, h.target, h.num_fields, simdhttp_version());
    return n == (long)(sizeof req - 1) ? 0 : 1;
}
C
want="28 /x 1 $(sed -n 's/.*VERSION_STRING "\(.*\)"/\1/p' include/simdhttp.h)"
export PKG_CONFIG_PATH="$tmp/usr/lib/pkgconfig"
if command -v pkg-config >/dev/null 2>&1; then
    flags=$(pkg-config --cflags --libs simdhttp)
else
    flags="-I$tmp/usr/include -L$tmp/usr/lib -lsimdhttp"
fi
# shared
if cc "$tmp/app.c" $flags -o "$tmp/app" 2>"$tmp/log" && [ "$(LD_LIBRARY_PATH=$tmp/usr/lib "$tmp/app")" = "$want" ]; then ok; else ko "link against the shared library"; cat "$tmp/log"; fi
# static
if cc "$tmp/app.c" -I"$tmp/usr/include" "$tmp/usr/lib/libsimdhttp.a" -o "$tmp/app_s" 2>"$tmp/log" && [ "$("$tmp/app_s")" = "$want" ]; then ok; else ko "link against the static library"; cat "$tmp/log"; fi
# only simdhttp_ symbols exported
bad=$(nm -D --defined-only "$tmp/usr/lib/libsimdhttp.so" | awk '$2 ~ /[TDB]/ {print $3}' | grep -v '^simdhttp_' | head -5)
[ -z "$bad" ] && ok || ko "exported symbols without the simdhttp_ prefix: $bad"
# CMake: build and install with CMakeLists.txt, then consume it with find_package
if command -v cmake >/dev/null 2>&1; then
    if cmake -S . -B "$tmp/cm" -DCMAKE_BUILD_TYPE=Release >"$tmp/log" 2>&1 && cmake --build "$tmp/cm" -j2 >>"$tmp/log" 2>&1 \
        && cmake --install "$tmp/cm" --prefix "$tmp/cmi" >>"$tmp/log" 2>&1; then ok; else ko "cmake build+install"; tail -n 20 "$tmp/log"; fi
    mkdir -p "$tmp/consumer"
    cp "$tmp/app.c" "$tmp/consumer/app.c"
    printf 'cmake_minimum_required(VERSION 3.13)\nproject(app C)\nfind_package(simdhttp REQUIRED)\nadd_executable(app app.c)\ntarget_link_libraries(app simdhttp::simdhttp)\n' > "$tmp/consumer/CMakeLists.txt"
    if cmake -S "$tmp/consumer" -B "$tmp/consumer/b" -DCMAKE_PREFIX_PATH="$tmp/cmi" >"$tmp/log" 2>&1 && cmake --build "$tmp/consumer/b" >>"$tmp/log" 2>&1 \
        && [ "$("$tmp/consumer/b/app")" = "$want" ]; then ok; else ko "find_package(simdhttp) consumer"; tail -n 20 "$tmp/log"; fi
fi
echo "$pass passed, $fail failed"
