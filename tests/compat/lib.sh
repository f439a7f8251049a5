# SPDX-License-Identifier: MIT
# Shared by the real-program checks (aiohttp.sh, h2o.sh, httptools.sh), sourced after $peers is
# set: the counters, ending with "N passed, N failed", and the Debian source fetch.
passed=0; failed=0
ok() { passed=$((passed + 1)); }
ko() { failed=$((failed + 1)); echo "not ok - $*"; }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }
# a missing tool or package: a skip, or a failure when CI=true; ends the script
missing() {
    if [ "${CI:-}" = true ]; then ko "$1 (CI=true: a missing tool is a failure)"; else echo "skip - $1"; fi
    finish
}

# deb_source PKG DIR MARKER [orig]: apt-get source PKG into DIR, Debian's patches applied
# (MARKER: a file of the tree that must be there). The newest version's .dsc has been missing
# from the archive at times: then each older version apt knows of; with "orig", then the
# newest .orig.tar.gz (upstream's source, without Debian's patches). DIR/SOURCE says which one.
# @return 0 when DIR holds the tree (also when it already did).
deb_source() {
    pkg=$1; src=$2; marker=$3; dl=$2.dl
    [ -f "$src/$marker" ] && return 0
    command -v apt-get >/dev/null 2>&1 || return 1
    rm -rf "$dl" "$src" && mkdir -p "$dl" || return 1
    for v in "" $(apt-cache showsrc "$pkg" 2>/dev/null | sed -n 's/^Version: //p' | sort -ruV); do
        rm -f "$dl"/*.dsc "$dl"/*.debian.tar.*
        (cd "$dl" && timeout 300 apt-get source --download-only -qq "$pkg${v:+=$v}" >/dev/null 2>&1)
        dsc=$(ls "$dl/${pkg}"_*.dsc 2>/dev/null | head -n 1)
        if [ -n "$dsc" ] && ls "$dl"/*.debian.tar.* >/dev/null 2>&1 &&
            dpkg-source -x "$dsc" "$src" >/dev/null 2>&1 && [ -f "$src/$marker" ]; then
            basename "$dsc" .dsc > "$src/SOURCE"
            # dpkg-source -x leaves a copy of the tarballs beside the tree
            rm -rf "$dl" "$(dirname "$src")/${pkg}"_*; return 0
        fi
        rm -rf "$src"
    done
    [ "${4:-}" = orig ] || return 1
    orig=$(ls "$dl/${pkg}"_*.orig.tar.gz 2>/dev/null | head -n 1)
    [ -n "$orig" ] || return 1
    mkdir -p "$src" && tar xzf "$orig" -C "$src" --strip-components=1 &&
        echo "$(basename "$orig") (no Debian patches)" > "$src/SOURCE" && rm -rf "$dl"
}
