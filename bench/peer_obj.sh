#!/bin/sh
# SPDX-License-Identifier: MIT
# One relocatable object from a peer's C sources, every symbol it defines renamed PREFIX<name>,
# so several builds of one peer (e.g. llhttp -O3 and -O3 -march=native) link into one program
# with direct calls. Usage: bench/peer_obj.sh OUT.o PREFIX "CC FLAGS..." SRC.c...
set -eu
out=$1 prefix=$2 cc=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
for src in "$@"; do
    i=$((i + 1))
    $cc -w -c "$src" -o "$tmp/$i.o"
done
ld -r -o "$tmp/all.o" "$tmp"/[0-9]*.o
nm -g --defined-only "$tmp/all.o" | awk -v p="$prefix" 'NF == 3 { print $3, p $3 }' > "$tmp/syms"
objcopy --redefine-syms="$tmp/syms" "$tmp/all.o" "$out"
