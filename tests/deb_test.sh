#!/bin/sh
# SPDX-License-Identifier: MIT
# `make deb-test` (run by .ci/run after make test): the Debian packages, built the way Debian
# builds them, from a temporary copy of the tree (the repository is never written):
#   dpkg-buildpackage -us -uc -b   with Debian's default flags (dpkg-buildflags; no -march)
#   lintian                        no error or warning
#   apt-get install ./*.deb        then: simdhttp --version, man simdhttp, a pkg-config consumer
#                                  and a CMake consumer built against /usr; the packaged library
#                                  must dispatch to AVX2/AVX-512 when the CPU has AVX2
#   apt-get purge                  every package installed here, whatever happened
# Needs root (dpkg); prints "N passed, N failed" like the other test scripts.
set -u
pass=0; fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2" >"$tmp/out" 2>&1; then ok; else ko "$1"; tail -n 25 "$tmp/out"; fi; }
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit $?; }
src=$(cd "$(dirname "$0")/.." && pwd)
if [ "$(id -u)" != 0 ]; then
    [ "${CI:-}" = true ] && ko "the package test needs root (dpkg -i)" || echo "skip - not root: the package test needs dpkg -i"
    finish
fi
for t in dpkg-buildpackage dh lintian pkg-config; do
    command -v $t >/dev/null 2>&1 || ko "$t is not installed (scripts/deps.sh deb)"
done
[ "$fail" -eq 0 ] || finish
tmp=$(mktemp -d)
installed=""
cleanup() {
    [ -n "$installed" ] && apt-get -o DPkg::Lock::Timeout=600 purge -y -qq $installed >/dev/null 2>&1
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# A copy of the tracked files: the build writes only there.
mkdir "$tmp/simdhttp"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$src" && git ls-files -z | xargs -0 cp --parents -t "$tmp/simdhttp")
else
    (cd "$src" && tar cf - --exclude=./build --exclude=./.git .) | tar xf - -C "$tmp/simdhttp"
fi
start=$(date +%s)
check "dpkg-buildpackage -us -uc -b" "(cd '$tmp/simdhttp' && dpkg-buildpackage -us -uc -b -j2) > '$tmp/build.log' 2>&1 || { tail -n 40 '$tmp/build.log'; false; }"
echo "# package build: $(($(date +%s) - start)) s"
debs=$(ls "$tmp"/*.deb 2>/dev/null | grep -v -- '-dbgsym_')
names=$(for d in $debs; do dpkg-deb -f "$d" Package; done | sort | tr '\n' ' ')
echo "# packages: $names"
for p in $(sed -n 's/^Package: //p' "$src/debian/control"); do
    case " $names " in *" $p "*) ok ;; *) ko "package $p (debian/control) was not built" ;; esac
done
[ -n "$debs" ] || finish

# Built with Debian's flags: the compile lines carry dpkg-buildflags' CFLAGS and no -march.
flags=$(cd "$tmp/simdhttp" && dpkg-buildflags --get CFLAGS)
check "the library was compiled with dpkg-buildflags CFLAGS ($flags)" "grep -F -e '$flags' '$tmp/build.log' | grep -q 'src/parser.c'"
check "no -march/-mtune in the package build" "! grep -E -e '-m(arch|tune)=' '$tmp/build.log'"
check "hardened: RELRO and BIND_NOW on the library" "readelf -lW '$tmp/simdhttp/debian/libsimdhttp0/usr/lib/'*/libsimdhttp.so.0.* | grep -q GNU_RELRO && readelf -d '$tmp/simdhttp/debian/libsimdhttp0/usr/lib/'*/libsimdhttp.so.0.* | grep -q BIND_NOW"

# lintian: no error, no warning (informational tags are printed, not counted)
lintian -I --tag-display-limit 0 "$tmp"/*.changes > "$tmp/lintian" 2>&1
grep -E '^[IP]: ' "$tmp/lintian" | sed 's/^/# lintian /'
check "lintian: no errors or warnings" "! grep -E '^[EW]: ' '$tmp/lintian' || { grep -E '^[EW]: ' '$tmp/lintian'; false; }"

# Install them (apt-get resolves the dependencies between them and waits for the dpkg lock).
pre=$(dpkg-query -W -f='${Package} ${Status}\n' $names 2>/dev/null | awk '/ installed$/ {print $1}')
[ -z "$pre" ] || echo "# already installed before the test (purged afterwards too): $pre"
installed=$names
check "apt-get install the packages" "apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $(echo $debs)"
check "simdhttp --version from the package" "/usr/bin/simdhttp --version | grep -q '^simdhttp $(sed -n 's/^#define SIMDHTTP_VERSION_STRING "\(.*\)"/\1/p' "$src/include/simdhttp.h") '"
check "the packaged CLI uses the packaged shared library" "ldd /usr/bin/simdhttp | grep -Eq 'libsimdhttp.so.0 => (/usr)?/lib/'"
check "man simdhttp and man 3 simdhttp" "man -P cat simdhttp | grep -q 'simdhttp parse' && man -P cat 3 simdhttp | grep -q simdhttp_execute"
cat > "$tmp/app.c" <<'C'
#include <simdhttp.h>
#include <stdio.h>
int main(void)
{
    const char req[] = "GET /x HTTP/1.1\r\nHost: a\r\n\r\n";
    simdhttp_field f[4];
    simdhttp_head h = {.fields = f, .fields_cap = 4};
    long n = simdhttp_parse_head(&h, SIMDHTTP_REQUEST, req, sizeof req - 1, NULL);
    printf("%ld %s\n", n, simdhttp_isa_name());
    return n == (long)(sizeof req - 1) ? 0 : 1;
}
C
# The widest path this CPU has that dispatch may pick: AVX2 or AVX-512 when the CPU has AVX2.
want='(scalar|sse2|sse42|avx2|avx512|neon)'
grep -qw avx2 /proc/cpuinfo && want='(avx2|avx512)'
check "pkg-config consumer against the package: parses, dispatches to $want" \
    "cc '$tmp/app.c' \$(pkg-config --cflags --libs simdhttp) -o '$tmp/app' && '$tmp/app' | tee /dev/stderr | grep -Eq '^28 $want\$' && ldd '$tmp/app' | grep -Eq 'libsimdhttp.so.0 => (/usr)?/lib/'"
check "simdhttp --version names the same path" "/usr/bin/simdhttp --version | grep -Eq 'isa: $want\\)'"
if command -v cmake >/dev/null 2>&1; then
    mkdir "$tmp/cm"; cp "$tmp/app.c" "$tmp/cm/"
    printf 'cmake_minimum_required(VERSION 3.13)\nproject(app C)\nfind_package(simdhttp 0.1 REQUIRED)\nadd_executable(app app.c)\ntarget_link_libraries(app simdhttp::simdhttp)\n' > "$tmp/cm/CMakeLists.txt"
    check "CMake find_package(simdhttp 0.1) against the package" \
        "cmake -S '$tmp/cm' -B '$tmp/cm/b' && cmake --build '$tmp/cm/b' && '$tmp/cm/b/app' | grep -Eq '^28 $want\$'"
fi
# each compatibility layer from its package: a program that includes its header and calls in
for pc in $(cd /usr/lib/*/pkgconfig && ls simdhttp-*.pc 2>/dev/null); do
    name=${pc%.pc}
    hdr=$(cd /usr/include/$name && ls *.h | head -n 1)
    sym=$(nm -D --defined-only /usr/lib/*/lib$name.so.0 | awk '$2 == "T" {sub(/@.*/, "", $3); print $3; exit}')
    printf '#include <%s>\nint main(void)\n{\n    void *volatile f = (void *)&%s;\n    return f == 0;\n}\n' "$hdr" "$sym" > "$tmp/$name.c"
    check "$name: pkg-config consumer against the package" \
        "cc '$tmp/$name.c' \$(pkg-config --cflags --libs $name) -o '$tmp/$name' && '$tmp/$name' && ldd '$tmp/$name' | grep -q 'lib$name.so.0 => '"
done
check "apt-get purge the packages" "apt-get -o DPkg::Lock::Timeout=600 purge -y -qq $installed && installed= && [ ! -e /usr/include/simdhttp.h ] && [ ! -e /usr/bin/simdhttp ]"
echo "# package test: $(($(date +%s) - start)) s"
finish
