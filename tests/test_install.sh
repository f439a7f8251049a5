#!/bin/sh
# SPDX-License-Identifier: MIT
# Install, as a distribution and a new user do it, from a fresh copy of the tree (nothing built):
#   - make install DESTDIR PREFIX LIBDIR (Debian multiarch) builds what it installs and gives
#     exactly the expected tree; versioned .so with soname and symlinks; exported symbols are
#     the API the headers declare (SIMDHTTP_API for libsimdhttp);
#   - consumers build with pkg-config (shared, --static), CMake find_package(simdhttp 0.1)
#     (shared, static; 0.2 and 1.0 refused) and Meson dependency('simdhttp');
#   - the Meson build of the project (meson.build) installs a library those consumers use;
#   - the CMake build (BUILD_SHARED_LIBS ON and OFF) installs a package the same consumers use;
#   - a blocked path fails the install before anything is written; uninstall removes every file.
set -u
pass=0; fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2" >"$tmp/out" 2>&1; then ok; else ko "$1"; tail -n 15 "$tmp/out"; fi; }
B=${BUILD:-build}
case "$B" in *asan*) echo "install is checked with the normal build"; echo "0 passed, 0 failed"; exit 0 ;; esac
need() { command -v "$1" >/dev/null 2>&1 || { [ "${CI:-}" = true ] && ko "$1 is not installed" || echo "skip - no $1: $2"; return 1; }; }
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# A fresh copy: the tracked files only (as a clone has them), no build directory.
mkdir "$tmp/src"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$src" && git ls-files -z | xargs -0 cp --parents -t "$tmp/src")
else
    (cd "$src" && tar cf - --exclude=./build --exclude=./.git .) | tar xf - -C "$tmp/src"
fi
cd "$tmp/src" || exit 1
ver=$(sed -n 's/^#define SIMDHTTP_VERSION_STRING "\(.*\)"/\1/p' include/simdhttp.h)
major=${ver%%.*}
M="make --no-print-directory -s -j2"
multi=lib/x86_64-linux-gnu
D="$tmp/dest"; P=/usr; L="$P/$multi"
check "make install from a fresh tree (DESTDIR, PREFIX, LIBDIR)" \
    "$M install DESTDIR='$D' PREFIX=$P LIBDIR=$L"

# The exact tree: every library of SHIP_LIBS, the CLI, the CMake package, the manual pages.
{
    $M ship-list | while read -r key name hdrdir; do
        for f in lib$name.a lib$name.so lib$name.so.$major lib$name.so.$ver pkgconfig/$name.pc \
                 cmake/simdhttp/simdhttp-$key-targets.cmake; do echo "$L/$f"; done
        eval "hdrs=\$(make --no-print-directory -s -p -n ship-list 2>/dev/null | sed -n 's/^SHIP_${key}_HDRS = //p' | head -n 1)"
        for h in $hdrs; do echo "$P/include${hdrdir:+/$hdrdir}/${h##*/}"; done
    done
    echo "$P/bin/simdhttp"
    echo "$L/cmake/simdhttp/simdhttpConfig.cmake"
    echo "$L/cmake/simdhttp/simdhttpConfigVersion.cmake"
    for m in man/*.[1-8]; do [ -f "$m" ] && echo "$P/share/man/man${m##*.}/${m##*/}"; done
} | sort > "$tmp/want"
(cd "$D" && find . ! -type d | sed 's|^\.||' | sort) > "$tmp/have"
if diff "$tmp/want" "$tmp/have" >"$tmp/out"; then ok; else ko "installed tree differs from the expected list (< missing, > extra)"; cat "$tmp/out"; fi
[ "$(wc -l < "$tmp/want")" -ge 10 ] && ok || ko "expected tree too small: $(wc -l < "$tmp/want")"

# Shared libraries: real file, soname, symlinks, exported symbols = declared API.
$M ship-list | while read -r key name hdrdir; do
    so="$D$L/lib$name.so.$ver"
    [ -f "$so" ] && [ ! -L "$so" ] || echo "not ok - lib$name.so.$ver is not a regular file"
    [ "$(readlink "$D$L/lib$name.so.$major")" = "lib$name.so.$ver" ] || echo "not ok - lib$name.so.$major does not point to lib$name.so.$ver"
    [ "$(readlink "$D$L/lib$name.so")" = "lib$name.so.$major" ] || echo "not ok - lib$name.so does not point to lib$name.so.$major"
    soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    [ "$soname" = "lib$name.so.$major" ] || echo "not ok - lib$name soname is '$soname'"
    nm -D --defined-only "$so" | awk '$2 != "A" {sub(/@.*/, "", $3); print $3}' | sort > "$tmp/exp.$key"
    [ -s "$tmp/exp.$key" ] || echo "not ok - lib$name exports nothing"
    if [ "$key" = simdhttp ]; then
        # the names the header marks SIMDHTTP_API, exactly
        grep -v '^#' "$D$P/include/simdhttp.h" | tr '\n' ' ' | grep -o 'SIMDHTTP_API[^;{]*(' \
            | sed 's/ *($//; s/.*[ *]//' | sort -u > "$tmp/api"
        diff "$tmp/api" "$tmp/exp.$key" > "$tmp/d" || { echo "not ok - libsimdhttp exports differ from SIMDHTTP_API in simdhttp.h (< declared only, > exported only)"; cat "$tmp/d"; }
    else
        # every exported name is declared in the library's installed headers
        while read -r s; do
            cat "$D$P/include/$hdrdir"/*.h | grep -qw "$s" || echo "not ok - lib$name exports $s, which its headers do not declare"
        done < "$tmp/exp.$key"
    fi
done > "$tmp/libs"
if [ -s "$tmp/libs" ]; then ko "shared libraries (soname, symlinks, symbols)"; cat "$tmp/libs"; else ok; fi

# The consumer every build system compiles: prints the parse, the version and the SIMD path.
cat > "$tmp/app.c" <<'C'
#include <simdhttp.h>
#include <stdio.h>
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
want="28 /x 1 $ver"
run() { out=$(LD_LIBRARY_PATH="$1" "$2" 2>&1); [ "$out" = "$want" ] || { echo "got '$out', want '$want'"; return 1; }; }
# pkg-config reads the DESTDIR tree through its sysroot support
pc() { PKG_CONFIG_SYSROOT_DIR="$D" PKG_CONFIG_LIBDIR="$D$L/pkgconfig" pkg-config "$@"; }
if need pkg-config "pkg-config consumers"; then
    check "pkg-config: License MIT, version" "pc --validate simdhttp && [ \"\$(pc --modversion simdhttp)\" = $ver ] && grep -q '^License: MIT' '$D$L/pkgconfig/simdhttp.pc'"
    check "pkg-config consumer, shared" "cc '$tmp/app.c' \$(pc --cflags --libs simdhttp) -o '$tmp/app' && run '$D$L' '$tmp/app' && readelf -d '$tmp/app' | grep -q 'NEEDED.*libsimdhttp.so.$major'"
    check "pkg-config consumer, static" "cc -static '$tmp/app.c' \$(pc --static --cflags --libs simdhttp) -o '$tmp/app_s' && run '' '$tmp/app_s'"
fi

# CMake consumer of an install prefix; $1 = prefix, $2 = version asked, $3 = extra -D.
cmake_consumer() {
    c="$tmp/cc$4"; rm -rf "$c"; mkdir -p "$c"; cp "$tmp/app.c" "$c/"
    printf '# SPDX-License-Identifier: MIT\ncmake_minimum_required(VERSION 3.13)\nproject(app C)\nfind_package(simdhttp %s REQUIRED)\nif(NOT simdhttp_LICENSE STREQUAL "MIT")\n  message(FATAL_ERROR "simdhttp_LICENSE is ${simdhttp_LICENSE}")\nendif()\nadd_executable(app app.c)\ntarget_link_libraries(app simdhttp::simdhttp)\n' "$2" > "$c/CMakeLists.txt"
    cmake -S "$c" -B "$c/b" -DCMAKE_PREFIX_PATH="$1" $3 >"$c/log" 2>&1 && cmake --build "$c/b" >>"$c/log" 2>&1 || { cat "$c/log"; return 1; }
}
if need cmake "CMake consumers and the CMake build"; then
    # The Makefile install, used in place (the paths inside are the final /usr ones, so the
    # prefix is made real by installing again without DESTDIR into a prefix of its own).
    I="$tmp/inst"
    check "make install PREFIX=<dir> (second prefix, same build)" "$M install PREFIX='$I'"
    check "CMake find_package(simdhttp 0.1) on the Makefile install, shared" \
        "cmake_consumer '$I' 0.1 '' 1 && run '$I/lib' '$tmp/cc1/b/app' && readelf -d '$tmp/cc1/b/app' | grep -q 'NEEDED.*libsimdhttp.so.$major'"
    check "CMake find_package(simdhttp 0.1) on the Makefile install, static" \
        "cmake_consumer '$I' 0.1 -Dsimdhttp_USE_STATIC_LIBS=ON 2 && run '' '$tmp/cc2/b/app' && ! readelf -d '$tmp/cc2/b/app' | grep -q libsimdhttp"
    check "CMake find_package(simdhttp 0.2) is refused (0.x minor versions are incompatible)" "! cmake_consumer '$I' 0.2 '' 3"
    check "CMake find_package(simdhttp 1.0) is refused" "! cmake_consumer '$I' 1.0 '' 4"
    check "CMake find_package(simdhttp 0.1.0 EXACT)" "cmake_consumer '$I' '0.1.0 EXACT' '' 5"
    # The CMake build, shared and static.
    for kind in ON OFF; do
        ci="$tmp/cmi$kind"
        check "CMake build BUILD_SHARED_LIBS=$kind + install" \
            "cmake -S . -B '$tmp/cm$kind' -DBUILD_SHARED_LIBS=$kind -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_LIBDIR=$multi && cmake --build '$tmp/cm$kind' -j2 && cmake --install '$tmp/cm$kind' --prefix '$ci'"
        if [ $kind = ON ]; then
            check "CMake build: shared library with soname and symbols" \
                "[ -f '$ci/$multi/libsimdhttp.so.$ver' ] && [ ! -e '$ci/$multi/libsimdhttp.a' ] && readelf -d '$ci/$multi/libsimdhttp.so.$ver' | grep -q 'SONAME.*libsimdhttp.so.$major' && nm -D --defined-only '$ci/$multi/libsimdhttp.so' | awk '\$2 != \"A\" {sub(/@.*/, \"\", \$3); print \$3}' | sort | diff '$tmp/api' -"
            check "CMake find_package(simdhttp 0.1) on the CMake shared install" "cmake_consumer '$ci' 0.1 '' 6 && run '$ci/$multi' '$tmp/cc6/b/app'"
        else
            check "CMake build: static library only" "[ -f '$ci/$multi/libsimdhttp.a' ] && ! ls '$ci/$multi'/libsimdhttp.so* 2>/dev/null"
            check "CMake find_package(simdhttp 0.1) on the CMake static install" "cmake_consumer '$ci' 0.1 '' 7 && run '' '$tmp/cc7/b/app'"
            if command -v pkg-config >/dev/null 2>&1; then
                check "pkg-config file of the CMake install (relocatable)" \
                    "cc '$tmp/app.c' \$(PKG_CONFIG_LIBDIR='$ci/$multi/pkgconfig' pkg-config --cflags --libs simdhttp) -o '$tmp/app_c' && run '' '$tmp/app_c'"
            fi
        fi
    done
fi

# Meson consumer through pkg-config.
if need meson "the Meson consumer" && need ninja "the Meson consumer"; then
    m="$tmp/meson"; mkdir -p "$m"; cp "$tmp/app.c" "$m/"
    printf "# SPDX-License-Identifier: MIT\nproject('app', 'c')\nexecutable('app', 'app.c', dependencies: dependency('simdhttp', version: '>=0.1'))\n" > "$m/meson.build"
    check "Meson dependency('simdhttp', version: '>=0.1') via pkg-config" \
        "PKG_CONFIG_PATH='$I/lib/pkgconfig' meson setup '$m/b' '$m' && ninja -C '$m/b' && run '$I/lib' '$m/b/app'"
fi

# The Meson build of the project (meson.build): both libraries, soname, the API's symbols, a
# pkg-config consumer of its install.
if command -v meson >/dev/null 2>&1 && command -v ninja >/dev/null 2>&1; then
    mi="$tmp/mesoni"
    check "Meson build of the project: setup, compile, install" \
        "meson setup '$tmp/mesonb' . -Ddefault_library=both --prefix '$mi' --libdir lib && ninja -C '$tmp/mesonb' && meson install -C '$tmp/mesonb'"
    check "Meson build: libsimdhttp.so.$ver (soname libsimdhttp.so.$major) exports the SIMDHTTP_API names, and .a" \
        "readelf -d '$mi/lib/libsimdhttp.so.$ver' | grep -q 'SONAME.*libsimdhttp.so.$major' && [ -f '$mi/lib/libsimdhttp.a' ] && nm -D --defined-only '$mi/lib/libsimdhttp.so' | awk '\$2 != \"A\" {sub(/@.*/, \"\", \$3); print \$3}' | sort | diff '$tmp/api' -"
    check "Meson build: pkg-config consumer of its install, and its simdhttp --version" \
        "cc '$tmp/app.c' \$(PKG_CONFIG_LIBDIR='$mi/lib/pkgconfig' pkg-config --cflags --libs simdhttp) -o '$tmp/app_m' && run '$mi/lib' '$tmp/app_m' && LD_LIBRARY_PATH='$mi/lib' '$mi/bin/simdhttp' --version | grep -q '^simdhttp $ver '"
fi

# Each compatibility layer: pkg-config (shared, static) and CMake (COMPONENTS) consumers that
# include its header and call into it (the first symbol it exports).
if command -v pkg-config >/dev/null 2>&1; then
    $M ship-list | grep -v '^simdhttp ' | while read -r key name hdrdir; do
        hdr=$(cd "$D$P/include/$hdrdir" && ls *.h | head -n 1)
        sym=$(head -n 1 "$tmp/exp.$key")
        printf '#include <%s>\nint main(void)\n{\n    void *volatile f = (void *)&%s;\n    return f == 0;\n}\n' "$hdr" "$sym" > "$tmp/use_$key.c"
        cc "$tmp/use_$key.c" $(pc --cflags --libs "$name") -o "$tmp/use_$key" 2>&1 && LD_LIBRARY_PATH="$D$L" "$tmp/use_$key" \
            && readelf -d "$tmp/use_$key" | grep -q "NEEDED.*lib$name.so.$major" || echo "not ok - $name: pkg-config consumer, shared"
        cc -static "$tmp/use_$key.c" $(pc --static --cflags --libs "$name") -o "$tmp/use_s_$key" 2>&1 && "$tmp/use_s_$key" \
            || echo "not ok - $name: pkg-config consumer, static"
        if command -v cmake >/dev/null 2>&1; then
            c="$tmp/cmc_$key"; mkdir -p "$c"; cp "$tmp/use_$key.c" "$c/app.c"
            printf 'cmake_minimum_required(VERSION 3.13)\nproject(app C)\nset(simdhttp_USE_STATIC_LIBS ON)\nfind_package(simdhttp 0.1 REQUIRED COMPONENTS %s)\nadd_executable(app app.c)\ntarget_link_libraries(app simdhttp::%s)\n' "$key" "$key" > "$c/CMakeLists.txt"
            { cmake -S "$c" -B "$c/b" -DCMAKE_PREFIX_PATH="$I" && cmake --build "$c/b" && "$c/b/app"; } >"$c/log" 2>&1 \
                || { echo "not ok - $name: CMake find_package(simdhttp 0.1 COMPONENTS $key), static"; tail -n 5 "$c/log"; }
        fi
        echo "# $name: consumers built"
    done > "$tmp/layers" 2>&1
    if grep -q '^not ok' "$tmp/layers"; then ko "compatibility layers' consumers"; cat "$tmp/layers"; else ok; fi
    n=$(grep -c '^# .*: consumers built' "$tmp/layers")
    echo "# compatibility layers checked: $n"
fi
if command -v cmake >/dev/null 2>&1; then
    check "CMake find_package(simdhttp COMPONENTS nosuch) is refused" "! cmake_consumer '$I' '0.1 COMPONENTS nosuch' '' 8"
fi

# A blocked path (a file where the CMake directory goes): the install fails before writing.
X="$tmp/blocked"; mkdir -p "$X/usr/lib"; : > "$X/usr/lib/cmake"
check "install into a blocked prefix fails" "! $M install DESTDIR='$X' PREFIX=/usr"
check "... and writes nothing" "[ \"\$(cd '$X' && find . ! -type d)\" = ./usr/lib/cmake ] && [ \"\$(cd '$X' && find . -type d | wc -l)\" = 3 ]"

# INCLUDEDIR, BINDIR, MANDIR, PKGCONFIGDIR each move their files (and uninstall finds them there).
O="$tmp/other"
check "make install INCLUDEDIR BINDIR MANDIR PKGCONFIGDIR" \
    "$M install DESTDIR='$O' PREFIX=/usr INCLUDEDIR=/usr/include/x BINDIR=/opt/bin MANDIR=/usr/man PKGCONFIGDIR=/usr/share/pkgconfig && [ -f '$O/usr/include/x/simdhttp.h' ] && [ -x '$O/opt/bin/simdhttp' ] && [ -f '$O/usr/man/man1/simdhttp.1' ] && [ -f '$O/usr/share/pkgconfig/simdhttp.pc' ] && grep -q '^includedir=\${prefix}/include/x\$' '$O/usr/share/pkgconfig/simdhttp.pc'"
check "... and make uninstall with the same variables removes them all" \
    "$M uninstall DESTDIR='$O' PREFIX=/usr INCLUDEDIR=/usr/include/x BINDIR=/opt/bin MANDIR=/usr/man PKGCONFIGDIR=/usr/share/pkgconfig && [ -z \"\$(find '$O' ! -type d)\" ]"

# uninstall removes every installed file.
check "make uninstall removes every file" \
    "$M uninstall DESTDIR='$D' PREFIX=$P LIBDIR=$L && [ -z \"\$(find '$D' ! -type d)\" ]"
echo "$pass passed, $fail failed"
