#!/bin/sh
# SPDX-License-Identifier: MIT
# Fetches picohttpparser's source for make bench's pico-native row: the deps/picohttpparser
# directory of Debian's h2o source package (apt-get source h2o), into build/peers/. Nothing
# else downloads it, and it is never committed. Idempotent: does nothing once the source is
# there. Enables deb-src entries first if apt lacks them (as root; a fresh Debian 12 has only
# "Types: deb"). Never fails the build: without it the row is left out with a note.
# Usage: bench/peers.sh [DIR]   (default build/peers)
set -u
dest=${1:-build/peers}
[ -f "$dest/picohttpparser/picohttpparser.c" ] && exit 0
note() { echo "note: pico-native left out: $*"; exit 0; }
command -v apt-get >/dev/null 2>&1 || note "no apt-get"
command -v dpkg-source >/dev/null 2>&1 || note "dpkg-source missing (apt-get install dpkg-dev)"

# deb-src: an index of source packages. Debian 12 keeps entries in deb822 files
# (/etc/apt/sources.list.d/*.sources, "Types: deb") or in one-line form (sources.list).
if ! apt-get source --print-uris -qq h2o >/dev/null 2>&1; then
    [ "$(id -u)" = 0 ] || note "apt has no deb-src entries (run make bench as root once, or add them)"
    changed=0
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && grep -q '^Types: deb$' "$f" && sed -i 's/^Types: deb$/Types: deb deb-src/' "$f" && changed=1
    done
    if [ -f /etc/apt/sources.list ]; then
        add=$(sed -n 's/^deb \(.*\)/deb-src \1/p' /etc/apt/sources.list | while IFS= read -r l; do
            grep -qxF "$l" /etc/apt/sources.list || printf '%s\n' "$l"; done)
        [ -n "$add" ] && printf '%s\n' "$add" >> /etc/apt/sources.list && changed=1
    fi
    [ "$changed" = 1 ] && echo "bench/peers.sh: enabled deb-src entries for apt"
    apt-get update -qq >/dev/null 2>&1 || note "apt-get update failed"
fi

mkdir -p "$dest" || note "cannot create $dest"
tmp=$(mktemp -d "$dest/h2o.XXXXXX") || note "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
( cd "$tmp" && apt-get source --download-only -qq h2o >/dev/null 2>&1 ) || note "apt-get source h2o failed"
dsc=$(ls "$tmp"/h2o_*.dsc 2>/dev/null | head -n 1)
[ -n "$dsc" ] || note "apt-get source h2o gave no .dsc"
dpkg-source -x "$dsc" "$tmp/src" >/dev/null 2>&1 || note "dpkg-source -x failed"
[ -f "$tmp/src/deps/picohttpparser/picohttpparser.c" ] || note "h2o source has no deps/picohttpparser"
rm -rf "$dest/picohttpparser"
cp -r "$tmp/src/deps/picohttpparser" "$dest/picohttpparser"
echo "bench/peers.sh: picohttpparser from $(basename "$dsc" .dsc) in $dest/picohttpparser"
