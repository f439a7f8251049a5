#!/bin/sh
# SPDX-License-Identifier: MIT
# Copies a staged install tree (STAGE/usr/...) into DESTDIR (empty: the root) without ever
# leaving a partial install: first every target path is checked (no non-directory where a
# directory goes, no directory where a file goes, writable), then every file is copied next to
# its target under a temporary name, and only when all copies succeeded are they renamed into
# place. On any failure the temporary files and the directories this run created are removed.
# Usage: install-tree.sh STAGE [DESTDIR]
set -u
stage=$1 dest=${2:-}
[ -d "$stage" ] || { echo "install-tree: no stage $stage" >&2; exit 1; }
tmp=".simdhttp-new.$$"
list=$(mktemp) || exit 1
made=$(mktemp) || exit 1
trap 'rm -f "$list" "$made"' EXIT
(cd "$stage" && find . ! -type d | sed 's|^\./||' | sort) > "$list"

fail() {
    echo "install: $*; nothing installed" >&2
    while read -r f; do rm -f "$dest/$f.$tmp"; done < "$list"
    sort -r "$made" | while read -r d; do rmdir "$d" 2>/dev/null; done
    exit 1
}

# 1. check: every parent is a directory (or can be made), every target is not a directory
while read -r f; do
    t="$dest/$f"
    [ -d "$t" ] && [ ! -L "$t" ] && fail "$t is a directory"
    d=$(dirname "$t")
    while [ ! -e "$d" ] && [ ! -L "$d" ]; do d=$(dirname "$d"); done
    [ -d "$d" ] || fail "$d is not a directory"
    [ -w "$d" ] || fail "$d is not writable"
done < "$list"

# 2. copy under temporary names (directories first, remembered for the rollback)
while read -r f; do
    d=$(dirname "$dest/$f")
    if [ ! -d "$d" ]; then
        missing=$d; todo=""
        while [ ! -d "$missing" ]; do todo="$missing $todo"; missing=$(dirname "$missing"); done
        for m in $todo; do mkdir "$m" 2>/dev/null || fail "cannot create $m"; echo "$m" >> "$made"; done
    fi
    cp -P --preserve=mode,timestamps "$stage/$f" "$dest/$f.$tmp" 2>/dev/null || fail "cannot write $dest/$f"
done < "$list"

# 3. rename into place (a rename within one directory does not run out of space)
while read -r f; do
    mv -fT "$dest/$f.$tmp" "$dest/$f" || fail "cannot rename into $dest/$f"
done < "$list"
n=$(wc -l < "$list")
echo "installed $n files into ${dest:-/}"
